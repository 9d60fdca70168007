//! What a table of three-rowed Chomp tells: outcomes and winning bites of any position (the
//! first row as long as one likes), the columns of `p − q` and where they end, the patterns
//! they settle into, and the Sheiner check of the `3 × n` rectangles.

use super::{index, Pos3};
use crate::model::Outcome;

/// A winning bite: the cell `(row, col)` bitten (1-based) and the P-position it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bite {
    /// 1, 2 or 3.
    pub row: u8,
    /// 1-based column of the bitten cell: the row keeps `col − 1` cells.
    pub col: u64,
    /// The position left.
    pub leaves: Pos3,
}

/// Where a column of `p − q` ends up as `q` grows, within `q ≤ N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// The column has an end point: `(k, k, r)` is P and `f(q, r)` is none for `q > k`.
    Ends {
        /// The end point `k_r`.
        at: u64,
    },
    /// From `q = from` on, `p − q` repeats with this period (the smallest one), and the
    /// repetition is seen at least three times and over at least 64 rows before `q = N`.
    Periodic {
        /// First row of the periodic part (the preperiod is `from − r` rows long).
        from: u64,
        /// Length of the period, in rows.
        period: u64,
    },
    /// No period is seen clearly enough below `N` (the column is still in its transient).
    Undetermined,
}

/// The outcome of the Sheiner check over `3 × n`, `1 ≤ n ≤ N`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SheinerReport {
    /// Rectangles checked.
    pub checked: u64,
    /// Rectangles whose unique winning bite is in row 2.
    pub row2: u64,
    /// Rectangles whose unique winning bite is in row 3.
    pub row3: u64,
    /// Counterexamples (at most 10): `n` and what was found.
    pub failures: Vec<(u64, String)>,
}

/// `f(q, r)` read from wherever the entries are (a table's payload, a solver's bytes): every
/// question about three-rowed Chomp a table answers.
pub struct View<'a> {
    max: u64,
    entry: &'a dyn Fn(u64) -> u32,
}

impl<'a> View<'a> {
    /// The pairs `r ≤ q ≤ max`, entry `i` read by `entry(i)` (see the module documentation).
    pub fn new(max: u32, entry: &'a dyn Fn(u64) -> u32) -> View<'a> {
        View {
            max: max as u64,
            entry,
        }
    }

    /// `N`: the table holds every `q ≤ N`.
    pub fn max(&self) -> u64 {
        self.max
    }

    /// `f(q, r)`: the `p` that makes `(p, q, r)` P, if any (`r ≤ q ≤ N`).
    #[inline]
    pub(crate) fn f(&self, q: u64, r: u64) -> Option<u64> {
        let v = (self.entry)(index(q, r)) as u64;
        (v != 0).then(|| q + v - 1)
    }

    /// P or N of a checked position.
    pub(crate) fn outcome(&self, (p, q, r): Pos3) -> Outcome {
        Outcome::from_win(self.f(q, r) != Some(p))
    }

    /// Column `r`: `d(q, r) = f(q, r) − q` for `q = r, r + 1, ...` while `f` is defined.
    pub fn column(&self, r: u64) -> Vec<u64> {
        (r..=self.max)
            .map_while(|q| self.f(q, r).map(|f| f - q))
            .collect()
    }

    /// The end point `k_r` of column `r` (`(k, k, r)` P), if it is at most `N`.
    pub(crate) fn end_point(&self, r: u64) -> Option<u64> {
        (r..=self.max).find_map(|q| match self.f(q, r) {
            Some(f) if f == q => Some(Some(q)),
            None => Some(None),
            Some(_) => None,
        })?
    }

    /// Every winning bite of a checked position, row by row, columns ascending (empty for a
    /// P-position). Found from `O(N)` entries: never by trying the `p − 1` bites of row 1.
    pub(crate) fn winning_bites(&self, (p, q, r): Pos3) -> Vec<Bite> {
        let mut out = Vec::new();
        let bite = |row: u8, keep: u64, leaves: Pos3| Bite {
            row,
            col: keep + 1,
            leaves,
        };
        // Keeping j < r in row 1 or row 2 leaves a rectangle-topped (j, j, j) or (p, j, j).
        for j in 0..r.min(q) {
            let v = self.f(j, j);
            if j >= 1 && v == Some(j) {
                out.push(bite(1, j, (j, j, j)));
            }
            if v == Some(p) {
                out.push(bite(2, j, (p, j, j)));
            }
        }
        // Keeping r ≤ j < q in row 1 leaves (j, j, r), P iff f(j, r) = j (the end point); in
        // row 2 leaves (p, j, r), P iff f(j, r) = p.
        for j in r..q {
            let v = self.f(j, r);
            if j >= 1 && v == Some(j) {
                out.push(bite(1, j, (j, j, r)));
            }
            if v == Some(p) {
                out.push(bite(2, j, (p, j, r)));
            }
            if v.is_none() {
                break; // the column has ended: none below
            }
        }
        // Row 1, keeping q ≤ j < p: (j, q, r) is P iff j = f(q, r).
        if let Some(f) = self.f(q, r) {
            if f < p {
                out.push(bite(1, f, (f, q, r)));
            }
        }
        // Row 3, keeping j < r: f(q, j) = p.
        for j in 0..r {
            if self.f(q, j) == Some(p) {
                out.push(bite(3, j, (p, q, j)));
            }
        }
        // The row-1 bites of the three kinds interleave: keep each row's bites in column order.
        out.sort_by_key(|b| (b.row, b.col));
        out
    }

    /// A029899: `a(n)`, the number of P-positions `(p, q, r)` with `p ≤ n`, for `n = 0..=N`
    /// (they all have `q ≤ p ≤ N`, so the table holds them).
    pub(crate) fn p_counts(&self) -> Vec<u64> {
        let n = self.max as usize;
        let mut count = vec![0u64; n + 1];
        for q in 0..=self.max {
            for r in 0..=q {
                if let Some(p) = self.f(q, r) {
                    if p as usize <= n {
                        count[p as usize] += 1;
                    }
                }
            }
        }
        for i in 1..=n {
            count[i] += count[i - 1];
        }
        count
    }

    /// A029900: `f(n, n)` for `n = 0..=N` (the 3 × f(n,n) rectangle's winning bite is in
    /// row 2, keeping n cells). A column is always defined on its first row.
    pub(crate) fn diagonal(&self) -> Vec<Option<u64>> {
        (0..=self.max).map(|n| self.f(n, n)).collect()
    }

    /// Every column with an end point `≤ N`: `(r, k_r)`, `r` ascending. The `r` are A029902
    /// (as far as `k_r ≤ N` decides them) and the sorted `k_r` are A029901 up to `N`.
    pub(crate) fn end_points(&self) -> Vec<(u64, u64)> {
        (0..=self.max)
            .filter_map(|r| self.end_point(r).map(|k| (r, k)))
            .collect()
    }

    /// The pattern of `p − q` in column `r` within `q ≤ N` (see [`Pattern`]).
    pub fn pattern(&self, r: u64) -> Pattern {
        let col = self.column(r);
        if col.last() == Some(&0) {
            return Pattern::Ends {
                at: r + col.len() as u64 - 1,
            };
        }
        let len = col.len();
        for period in 1..=len / 3 {
            // Earliest s with col[i] == col[i + period] for every i in s..len - period.
            let mut s = len - period;
            while s > 0 && col[s - 1] == col[s - 1 + period] {
                s -= 1;
            }
            let tail = len - s;
            if tail >= 3 * period && tail >= 64 {
                return Pattern::Periodic {
                    from: r + s as u64,
                    period: period as u64,
                };
            }
        }
        Pattern::Undetermined
    }

    /// Sheiner (arXiv 2605.23837): every `3 × n` rectangle, `1 ≤ n ≤ N`, has exactly one
    /// winning bite, never in row 1, in row 2 exactly when `n` is a value of the diagonal
    /// (A029900).
    pub(crate) fn sheiner(&self) -> SheinerReport {
        let mut diag_values = vec![false; self.max as usize + 1];
        for v in self.diagonal().into_iter().flatten() {
            if v <= self.max {
                diag_values[v as usize] = true;
            }
        }
        let mut rep = SheinerReport::default();
        for n in 1..=self.max {
            rep.checked += 1;
            let bites = self.winning_bites((n, n, n));
            let fail = match bites.as_slice() {
                [b] if b.row == 1 => Some(format!(
                    "its winning bite ({},{}) is in row 1",
                    b.row, b.col
                )),
                [b] if (b.row == 2) != diag_values[n as usize] => Some(format!(
                    "its winning bite ({},{}) is in row {} but {n} is {}a value of f(j, j)",
                    b.row,
                    b.col,
                    b.row,
                    if diag_values[n as usize] { "" } else { "not " }
                )),
                [b] => {
                    if b.row == 2 {
                        rep.row2 += 1;
                    } else {
                        rep.row3 += 1;
                    }
                    None
                }
                many => Some(format!(
                    "{} winning bites: {}",
                    many.len(),
                    many.iter()
                        .map(|b| format!("({},{})", b.row, b.col))
                        .collect::<Vec<_>>()
                        .join(" ")
                )),
            };
            if let Some(f) = fail {
                if rep.failures.len() < 10 {
                    rep.failures.push((n, f));
                }
            }
        }
        rep
    }
}
