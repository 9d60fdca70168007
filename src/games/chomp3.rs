//! Three-rowed Chomp with an unbounded first row (Zeilberger 2001; Brouwer, Horváth,
//! Molnár-Sáska and Szabó, *On three-rowed Chomp*, INTEGERS 5 (2005)).
//!
//! A position is `(p, q, r)`, `p ≥ q ≥ r ≥ 0`, `p ≥ 1` (row lengths, top row first; the
//! poisoned cell is the first cell of the top row, as in [`super::chomp`]). The bites from
//! `(p, q, r)` leave
//!
//! * `(j, q, r)` for `q ≤ j < p` and `(j, j, min(r, j))` for `1 ≤ j < q` (a bite in row 1;
//!   `j = 0` eats the poison and is not a move),
//! * `(p, j, min(r, j))` for `0 ≤ j < q` (row 2),
//! * `(p, q, j)` for `0 ≤ j < r` (row 3).
//!
//! For fixed `(q, r)` at most one `p` makes `(p, q, r)` a P-position (two of them would be one
//! move apart, by a row-1 bite), so the P-positions are a partial function `f(q, r)`:
//!
//! * if some bite `(j, j, min(r, j))`, `1 ≤ j < q`, is P, every `(p, q, r)` has it and is N:
//!   `f(q, r)` is *none*. A rectangle `(j, j, j)` is never P, so this happens exactly when
//!   `f(j, r) = j` for some `r ≤ j < q`: a column `r` ends at its *end point* `k_r`, the row
//!   with `f(k_r, r) = k_r`, and is none below it;
//! * otherwise `f(q, r)` is the least `p ≥ max(q, 1)` outside
//!   `C(q, r) = {f(j, j) : j < r} ∪ {f(j, r) : r ≤ j < q} ∪ {f(q, j) : j < r}`: the bites that
//!   lower rows 2 and 3 reach exactly those P-positions, and every smaller `p ≥ q` is N because
//!   it has such a bite.
//!
//! # The table
//!
//! A table of `--max N` holds `f(q, r)` for every `0 ≤ r ≤ q ≤ N` (the first row as long as
//! one likes) as [`ValueKind::Extension`] values, one u16 per pair (three bytes, u24, when
//! `N` > `NARROW_MAX`), row-major:
//!
//! ```text
//! index(q, r) = q (q + 1) / 2 + r          entries = (N + 1)(N + 2) / 2
//! entry       = 0 when f(q, r) is none, else f(q, r) − q + 1
//! ```
//!
//! so a table of a smaller `N` is a prefix of one of a larger of the same width. `(p, q, r)`
//! is P exactly when the entry of `(q, r)` is `p − q + 1`; its winning bites are found from
//! `O(N)` entries (`View::winning_bites`), never by trying the `p − 1` bites of row 1.
//! `f(q, r) − q` stays below about `0.72 q`, so two bytes hold every `N` up to about 90,000
//! and three bytes far past `MAX_N`; a value that does not fit is refused with an error,
//! never wrapped.
//!
//! The solve ([`solve`]) and its algorithm are in the `solver` module; what a table tells, in
//! [`View`].

mod conformance;
mod solver;
mod view;

use crate::format::Solved;
use crate::game::conformance::Checked;
use crate::game::{
    format_numbers, params, Arguments, Engine, Fact, GameSpec, Move, Param, Rules, Values,
};
use crate::model::{Indexed, Outcome, ValueKind};
use crate::progress::Progress;
use crate::solve::Saves;
use crate::{Error, Result};

pub(crate) use solver::memory_bound;
pub use solver::solve;
pub(crate) use view::Bite;
pub use view::{Pattern, View};

use conformance::conformance;

/// Largest `N` whose table stores two bytes per pair: `f(q, r) − q + 1` stays below about
/// `0.72 q`, so it fits a u16 up to about 91,000 (a value that does not fit stops the solve
/// with an error). Larger tables take three bytes per pair.
pub(crate) const NARROW_MAX: u32 = 90_000;

/// Largest `N` accepted (three bytes per pair would hold values to about `N` = 23 million;
/// memory runs out long before: the table alone is `1.5 N²` bytes, checked before solving).
pub(crate) const MAX_N: u32 = 1_000_000;

/// Bytes per pair in the table of `--max max`: 2 up to [`NARROW_MAX`], else 3.
pub(crate) fn entry_width(max: u32) -> usize {
    if max <= NARROW_MAX {
        2
    } else {
        3
    }
}

/// `(p, q, r)`: the row lengths of a three-rowed position, top row first.
pub(crate) type Pos3 = (u64, u64, u64);

/// Parameters of a three-rowed Chomp table, checked: `f(q, r)` for every `r ≤ q ≤ max`.
#[derive(Clone, Debug, PartialEq)]
pub struct Chomp3Spec {
    max: u32,
}

impl Chomp3Spec {
    /// Checks the parameters: `1 ≤ max ≤ MAX_N`.
    pub fn new(max: u32) -> Result<Chomp3Spec> {
        if max == 0 || max > MAX_N {
            return Err(Error::bad(format!(
                "--max {max}: expected 1..={MAX_N} (the longest second row of three-rowed Chomp)"
            )));
        }
        Ok(Chomp3Spec { max })
    }

    /// `N`, the longest second row.
    pub fn max(&self) -> u32 {
        self.max
    }
}

/// Entries of a table of `--max max`: the pairs `r ≤ q ≤ max`.
pub fn entries(max: u32) -> u64 {
    let n = max as u64 + 1;
    n * (n + 1) / 2
}

/// The entry of the pair `(q, r)`, `r ≤ q`.
#[inline]
pub fn index(q: u64, r: u64) -> u64 {
    q * (q + 1) / 2 + r
}

/// The pair `(q, r)` of an entry.
pub fn pair(index: u64) -> (u64, u64) {
    // The largest q with q (q + 1) / 2 ≤ index; the float guess is corrected exactly.
    let mut q = (((8 * index + 1) as f64).sqrt() as u64).saturating_sub(1) / 2;
    while q * (q + 1) / 2 > index {
        q -= 1;
    }
    while (q + 1) * (q + 2) / 2 <= index {
        q += 1;
    }
    (q, index - q * (q + 1) / 2)
}

impl GameSpec for Chomp3Spec {
    const NAME: &'static str = "chomp3";
    const ABOUT: &'static str =
        "Three-rowed Chomp: the P-position p = f(q, r) of every second and \
                                 third row q, r ≤ N (the first row unbounded)";
    const PARAMS: &'static [Param] = &[Param::required(
        "max",
        "N",
        "Largest second row N: the table answers every position p,q,r with q ≤ N (the first \
         row as long as you like)",
    )];
    const VALUES: &'static [ValueKind] = &[ValueKind::Extension];

    fn view(&self) -> crate::game::View {
        crate::game::View::with_engine(Chomp3Rules {
            max: self.max as u64,
        })
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        Chomp3Spec::new(a.number("max")?)
    }

    fn parameters(&self) -> String {
        params::write(&[("max", Some(self.max.to_string()))])
    }

    fn stem(&self) -> String {
        format!("chomp3-{}", self.max)
    }

    fn describe(&self) -> String {
        format!(
            "Three-rowed Chomp: every position p,q,r with q ≤ {} (the first row unbounded), stored as f(q, r)",
            self.max
        )
    }

    fn samples() -> Vec<Self> {
        [1, 2, 7, 30]
            .into_iter()
            .filter_map(|n| Chomp3Spec::new(n).ok())
            .collect()
    }
}

/// Three-rowed Chomp is solved per prefix (`f(q, r)`) by an engine of its own, not over `Game`.
impl Engine for Chomp3Rules {
    fn solve(&self, _kind: ValueKind, progress: &dyn Progress, _: &dyn Saves) -> Result<Solved> {
        let max = self.max as u32;
        let bytes = solve(max, progress)?;
        Ok(Solved::Extensions {
            len: entries(max),
            bytes,
            wide: entry_width(max) == 3,
        })
    }

    fn memory(&self, _kind: ValueKind) -> u64 {
        memory_bound(self.max as u32)
    }

    fn solved_bytes(&self, _kind: ValueKind) -> Option<u64> {
        let max = self.max as u32;
        Some(entry_width(max) as u64 * entries(max))
    }

    // An entry is the value of a prefix, not of a position, so the value check of the registry
    // passes these tables by: the engine is held to a brute force over small boards instead.
    fn conformance(&self, rules: &dyn Rules, named: u64) -> Checked {
        conformance(self.max as u32, rules, named)
    }
}

impl Indexed for Chomp3Rules {
    fn positions(&self) -> u64 {
        entries(self.max as u32)
    }
}

/// The lookups' view of a table of `--max max`.
pub(crate) struct Chomp3Rules {
    max: u64,
}

impl Chomp3Rules {
    /// The rows of a checked position (missing rows empty).
    fn rows(pos: &[u32]) -> Pos3 {
        let row = |k: usize| pos.get(k).copied().unwrap_or(0) as u64;
        (row(0), row(1), row(2))
    }

    fn to_move(b: Bite) -> Move {
        let (p, q, r) = b.leaves;
        let mut leaves = vec![p as u32, q as u32, r as u32];
        while leaves.len() > 1 && leaves.last() == Some(&0) {
            leaves.pop();
        }
        Move {
            label: format!("({},{})", b.row, b.col),
            leaves,
        }
    }
}

impl Rules for Chomp3Rules {
    fn position_form(&self) -> String {
        format!(
            "row lengths p,q,r top row first, e.g. 7,4,3: non-increasing, p ≥ 1 (it holds the poisoned cell; the first row may be as long as you like, up to {}), q ≤ {} (missing rows are empty)",
            u32::MAX,
            self.max
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        let bad = |what: String| crate::game::bad_position(self, pos, what);
        if pos.len() > 3 {
            return bad(format!(
                "{} rows (three-rowed Chomp has at most 3)",
                pos.len()
            ));
        }
        if let Some(what) = super::chomp::diagram_problem(pos) {
            return bad(what);
        }
        let (_, q, _) = Chomp3Rules::rows(pos);
        if q > self.max {
            return bad(format!(
                "row 2 has {} but this table holds second rows up to {}",
                crate::game::counted(q as usize, "cell"),
                self.max
            ));
        }
        Ok(())
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        let (_, q, r) = Chomp3Rules::rows(pos);
        index(q, r)
    }

    /// The shortest position of entry `index`: `(max(q, 1), q, r)`.
    fn unrank(&self, index: u64) -> Vec<u32> {
        let (q, r) = pair(index);
        let mut rows = vec![q.max(1) as u32, q as u32, r as u32];
        while rows.len() > 1 && rows.last() == Some(&0) {
            rows.pop();
        }
        rows
    }

    /// Every bite but the poisoned one, row by row: label `(row,col)`, 1-based (as for the
    /// boxes of [`super::chomp`]). A long first row has as many bites: lookups use
    /// [`Rules::extension_winning_moves`] instead.
    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let (p, q, r) = Chomp3Rules::rows(pos);
        let mut out = Vec::new();
        for j in 1..p {
            out.push((1, j, (j, q.min(j), r.min(j))));
        }
        for j in 0..q {
            out.push((2, j, (p, j, r.min(j))));
        }
        for j in 0..r {
            out.push((3, j, (p, q, j)));
        }
        out.into_iter()
            .map(|(row, keep, leaves)| {
                Chomp3Rules::to_move(Bite {
                    row,
                    col: keep + 1,
                    leaves,
                })
            })
            .collect()
    }

    fn extension_outcome(&self, pos: &[u32], entry: &dyn Fn(u64) -> u32) -> Option<Outcome> {
        Some(View::new(self.max as u32, entry).outcome(Chomp3Rules::rows(pos)))
    }

    fn extension_winning_moves(
        &self,
        pos: &[u32],
        entry: &dyn Fn(u64) -> u32,
    ) -> Option<Vec<Move>> {
        let view = View::new(self.max as u32, entry);
        Some(
            view.winning_bites(Chomp3Rules::rows(pos))
                .into_iter()
                .map(Chomp3Rules::to_move)
                .collect(),
        )
    }

    fn format(&self, pos: &[u32]) -> String {
        let mut rows = pos.to_vec();
        while rows.len() > 1 && rows.last() == Some(&0) {
            rows.pop();
        }
        format_numbers(&rows)
    }

    /// Positions with `p ≤ N` and their P-positions (OEIS A029899), and the end points (the
    /// P-positions of the whole table are among the counts `info` shows anyway).
    fn facts(&self, values: &dyn Values) -> Vec<Fact> {
        let entry = |i: u64| values.raw(i);
        let view = View::new(self.max as u32, &entry);
        let n = self.max;
        let counts = view.p_counts();
        let p_small = counts.last().copied().unwrap_or(0);
        // Positions (p, q, r) with 1 ≤ p ≤ N: (p + 1)(p + 2) / 2 for each p.
        let small: u64 = (1..=n).map(|p| (p + 1) * (p + 2) / 2).sum();
        let ends = view.end_points().len() as u64;
        vec![
            Fact {
                key: "positions_p_le_n".into(),
                label: format!("positions with p ≤ {n}"),
                text: format!("{small}, of which {p_small} P (OEIS A029899({n}))"),
                json: serde_json::json!({"positions": small, "p_positions": p_small}),
            },
            Fact {
                key: "end_points".into(),
                label: format!("columns r with an end point k_r ≤ {n} ((k, k, r) P)"),
                text: ends.to_string(),
                json: ends.into(),
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_pair_are_inverse() {
        let mut i = 0;
        for q in 0..300 {
            for r in 0..=q {
                assert_eq!(index(q, r), i);
                assert_eq!(pair(i), (q, r));
                i += 1;
            }
        }
        assert_eq!(entries(299), i);
        let big = index(90_000, 1234);
        assert_eq!(pair(big), (90_000, 1234));
    }

    #[test]
    fn bad_positions_are_refused() {
        let rules = Chomp3Rules { max: 50 };
        for (text, what) in [
            ("0,0,0", "poisoned cell"),
            ("3,4", "rows may not grow downwards"),
            ("5,3,4", "row 3 (length 4) is longer than row 2"),
            ("60,51", "second rows up to 50"),
            ("3,-1", "'-1' is not a non-negative integer"),
            ("1,1,1,1", "4 rows"),
            ("", "empty position"),
            ("a", "'a' is not a non-negative integer"),
        ] {
            let e = rules.parse(text).unwrap_err().to_string();
            assert!(e.contains(what), "{text}: {e}");
            assert!(e.contains("row lengths p,q,r"), "{e}");
        }
        assert_eq!(rules.parse("7, 4,3").unwrap(), [7, 4, 3]);
        assert_eq!(rules.format(&[5, 0, 0]), "5");
        assert!(Chomp3Spec::new(0).is_err());
        assert!(Chomp3Spec::new(MAX_N + 1).is_err());
        assert!(solve(MAX_N + 1, &()).is_err());
    }
}
