//! Chomp (Gale 1974; Zeilberger 2001): an R×C chocolate bar whose top-left cell (1,1) is poisoned. A bite at
//! (i, j) (1-based row, column) eats every remaining cell (i', j') with i' ≥ i and j' ≥ j;
//! whoever has to eat the poison loses.
//!
//! A position is a Young diagram in the R×C box that still holds the poison: row lengths
//! `λ1 ≥ λ2 ≥ ... ≥ λR ≥ 0` with `1 ≤ λ1 ≤ C`, written top row first (`4,3,1`; missing rows are
//! empty). The bite at (1,1) eats the poison and loses at once, so it is never listed as a
//! move; the single cell `1` therefore has no move and is P.
//!
//! # Index
//!
//! The boundary of a diagram is a lattice path of R vertical and C horizontal steps; row `k`
//! (1-based) puts its vertical step at position `λk + R − k`, so a diagram is an R-subset of
//! `0..R+C` and its rank in the combinatorial number system is
//!
//! ```text
//! rank(λ) = Σ_{k=1..R} C(λk + R − k, R − k + 1)          index(λ) = rank(λ) − 1
//! ```
//!
//! The empty diagram has rank 0 and is not stored, so the table has C(R+C, R) − 1 entries.
//! The rank orders diagrams lexicographically by `(λ1, λ2, ...)` and is monotone under
//! inclusion: a bite always leads to a smaller index. The "Game 3" section of
//! `tables/README.md` has a worked example and the unranking.
//!
//! # Solving
//!
//! The index is excellent for lookups but its order is sequential: every diagram may depend
//! on the one just before it. The solver (`solve::waves`) works instead in waves of
//! equal cell count (a bite removes at least one cell), each wave walked in pieces that fix the
//! first rows, every piece in index order with prefix sums kept incrementally:
//!
//! * a bite at row `i` down to new length `x` changes rows `i..=t`, where `t` is the last row
//!   longer than `x`; with `P[k] = Σ_{k'<k} T_k'(λk')` and `Q_x[k] = Σ_{k'<k} T_k'(x)` the child's
//!   rank is `rank − P[t+1] + Q_x[t+1] + P[i] − Q_x[i]`: O(1) per child;
//! * children are tried narrowest first (`x = 0, 1, ...`, top row first), which finds a P child
//!   after about 11 lookups on average in the 16×16 box; the search stops there;
//! * in a square box a diagram and its transpose have the same value and the same number of
//!   cells; only the one with the smaller index is searched. The transposed rank is a sum of
//!   per-row terms too (`U_k(v) = Σ_{x<v} T_x(k+1) − T_x(k)`), so telling which one that is
//!   costs two additions per row changed.
//!
//! That is the [`Engine::Waves`] engine. Most boxes are solved faster by engines that read a
//! whole group of positions per bite ([`Chomp::engine`] chooses; every engine makes the same
//! bytes, checked by the tests at 1 and 2 threads):
//!
//! * [`Engine::Triangles`] (`solve::triangles`, through `LastTwoRows`): the
//!   diagrams sharing their first `R − 2` rows are consecutive indices and play like two-rowed
//!   Chomp among themselves; a bite in the rows above moves the whole triangle at once, so one
//!   bite is a few word reads instead of a child lookup per position. Boxes of 3 to 63 rows
//!   and at most 63 columns, squares included (a diagram whose last two rows are empty is
//!   copied from its transpose when that lies in an earlier wave);
//! * [`Engine::Runs`] (`solve::runs`, through `LastRow`): the same with the last
//!   row alone; boxes of two rows or more than 63 columns;
//! * [`Engine::Transposed`]: a tall box (more rows than columns) is solved as its transpose,
//!   whose P-positions (about 1%) are then moved over one by one;
//! * Grundy values: triangles for non-square boxes, waves with the mirror for squares.

mod bites;
mod census;
mod engine;
mod walk;

use crate::format::Solved;
use crate::game::conformance::{self, Broken, Children};
use crate::game::{
    binomial, format_numbers, params, Arguments, Fact, GameSpec, Move, Param, Rules, Values, View,
    MAX_POSITIONS,
};
use crate::model::{Indexed, ValueKind};
use crate::progress::Progress;
use crate::solve::Saves;
use crate::{Error, Result};

pub use engine::Engine;

use census::census_fact;

/// Most rows a box may have.
pub(crate) const MAX_ROWS: u32 = 64;
/// Most columns a box may have.
pub(crate) const MAX_COLS: u32 = 65_535;
/// Most positions a `--grundy` table may have (two bytes each while solving).
pub(crate) const MAX_GRUNDY_POSITIONS: u64 = 1 << 32;
/// Rows fixed by one piece of a wave (the unit of parallel work).
const PIECE_ROWS: usize = 4;

/// Parameters of a Chomp table, checked: every position of the `rows`×`cols` box.
#[derive(Clone, Debug, PartialEq)]
pub struct ChompSpec {
    rows: u32,
    cols: u32,
}

impl ChompSpec {
    /// Checks the parameters: 1..=64 rows, 1..=65535 columns, at most 2^38 positions.
    pub fn new(rows: u32, cols: u32) -> Result<ChompSpec> {
        if rows == 0 || rows > MAX_ROWS {
            return Err(Error::bad(format!(
                "--rows {rows}: expected 1..={MAX_ROWS}"
            )));
        }
        if cols == 0 || cols > MAX_COLS {
            return Err(Error::bad(format!(
                "--cols {cols}: expected 1..={MAX_COLS}"
            )));
        }
        match binomial(rows as u64 + cols as u64, rows as u64) {
            Some(n) if n - 1 <= MAX_POSITIONS => Ok(ChompSpec { rows, cols }),
            _ => Err(Error::Unsupported(format!(
                "the {rows}×{cols} Chomp box has more than {MAX_POSITIONS} positions; use a smaller box"
            ))),
        }
    }

    /// Rows of the box.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Columns of the box.
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// `sizes[s]`: the diagrams of `s` cells in the box (the coefficients of the Gaussian
    /// binomial `[R+C choose R]_q`); the solver's wave `w` holds those of `w + 1` cells.
    pub fn diagrams_by_cells(&self) -> Vec<u64> {
        let (r, c) = (self.rows as usize, self.cols as usize);
        let (n, k) = (r + c, r.min(c));
        // [n-k+i choose i]_q for i = 0..=k: multiply by 1 - q^(n-k+i), divide by 1 - q^i.
        // Every step's result is a Gaussian binomial, so its coefficients stay in range.
        let mut poly: Vec<i128> = vec![1];
        for i in 1..=k {
            let up = n - k + i;
            let mut next = vec![0i128; poly.len() + up];
            for (j, &v) in poly.iter().enumerate() {
                next[j] += v;
                next[j + up] -= v;
            }
            for j in i..next.len() {
                next[j] += next[j - i];
            }
            next.truncate(i * (n - k) + 1);
            poly = next;
        }
        poly.into_iter().map(|v| v as u64).collect()
    }

    /// Diagrams in the widest wave of the solver (the most of any one cell count, the empty
    /// diagram left out).
    pub(crate) fn widest_wave(&self) -> u64 {
        self.diagrams_by_cells()
            .into_iter()
            .skip(1)
            .max()
            .unwrap_or(0)
    }

    /// Number of positions: the diagrams inside the box that hold the poisoned cell.
    pub fn positions(&self) -> u64 {
        // Checked in `ChompSpec::new`: the binomial fits.
        binomial(self.rows as u64 + self.cols as u64, self.rows as u64).unwrap_or(1) - 1
    }
}

impl GameSpec for ChompSpec {
    const NAME: &'static str = "chomp";
    const ABOUT: &'static str =
        "Chomp: every position of the R×C box (Young diagrams holding the poisoned cell)";
    const PARAMS: &'static [Param] = &[
        Param::required("rows", "R", "Rows of the box"),
        Param::required("cols", "C", "Columns of the box"),
    ];
    const VALUES: &'static [ValueKind] = &[ValueKind::Outcome, ValueKind::Grundy];

    fn view(&self) -> View {
        View::with_engine(Chomp::new(self.clone()))
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        ChompSpec::new(a.number("rows")?, a.number("cols")?)
    }

    fn parameters(&self) -> String {
        params::write(&[
            ("rows", Some(self.rows.to_string())),
            ("cols", Some(self.cols.to_string())),
        ])
    }

    fn stem(&self) -> String {
        format!("chomp-{}x{}", self.rows, self.cols)
    }

    fn describe(&self) -> String {
        format!(
            "Chomp: every position of the {}×{} box (Young diagrams holding the poisoned cell)",
            self.rows, self.cols
        )
    }

    fn samples() -> Vec<Self> {
        [
            (1, 1),
            (1, 5),
            (4, 1),
            (2, 2),
            (3, 5),
            (5, 3),
            (4, 4),
            (6, 2),
            (6, 6),
        ]
        .into_iter()
        .filter_map(|(r, c)| ChompSpec::new(r, c).ok())
        .collect()
    }
}

/// Chomp is solved by engines of its own (runs, triangles, waves: see [`Engine`]), not over
/// `Game`.
impl crate::game::Engine for Chomp {
    /// P/N tables save the finished waves of the run or triangle solver (Grundy tables,
    /// under two minutes even for the 16×16 box, save nothing).
    fn solve(&self, kind: ValueKind, progress: &dyn Progress, saves: &dyn Saves) -> Result<Solved> {
        let (game, spec) = (self, &self.spec);
        Ok(match kind {
            ValueKind::Grundy => {
                if spec.positions() > MAX_GRUNDY_POSITIONS {
                    return Err(Error::Unsupported(format!(
                        "the {}×{} box has {} positions; Grundy tables are limited to {MAX_GRUNDY_POSITIONS}",
                        spec.rows,
                        spec.cols,
                        spec.positions()
                    )));
                }
                Solved::Grundy(game.solve_grundy(progress)?)
            }
            _ => game
                .solve_with(game.engine(), progress, saves)?
                .into_solved(),
        })
    }

    /// The solver's words for P/N with the run or triangle engine (directly or through the
    /// transpose, which has as many positions); the wave engine saves nothing.
    fn saved_bytes(&self, kind: ValueKind) -> u64 {
        match (kind, self.spec.engine()) {
            (ValueKind::Outcome, Engine::Runs | Engine::Triangles | Engine::Transposed) => {
                self.spec.positions().div_ceil(64) * 8
            }
            _ => 0,
        }
    }

    /// What the engine chosen for the box and `kind` needs (see [`Engine`]); every engine's
    /// figure comes from its solver's `*_memory` in [`crate::solve`].
    fn memory(&self, kind: ValueKind) -> u64 {
        let spec = &self.spec;
        let (r, c) = (spec.rows as u64, spec.cols as u64);
        let n = spec.positions();
        // The ranking tables t, q and u (see `Chomp::new`).
        let ranking = (3 * r * (c + 1) + (c + 1) * (r + 1)) * 8;
        // A wave's pieces are its prefixes of PIECE_ROWS rows, each holding at least one of
        // its diagrams (the runs' and triangles' waves are those of fewer rows: no more).
        let widest = spec.widest_wave();
        let m = r.min(c).min(PIECE_ROWS as u64);
        let pieces = widest.min(binomial(r.max(c) + m, m).unwrap_or(u64::MAX));
        let piece = std::mem::size_of::<Piece>() as u64;
        ranking
            + match (kind, spec.engine()) {
                (ValueKind::Grundy, _) => match spec.grundy_engine() {
                    Engine::Triangles => crate::solve::grundy_triangles_memory(n, pieces, piece),
                    _ => crate::solve::grundy_waves_memory(n, pieces, piece),
                },
                (_, Engine::Waves) => crate::solve::outcomes_waves_memory(n, widest, pieces, piece),
                (_, Engine::Runs) => crate::solve::outcomes_runs_memory(n, pieces, piece),
                (_, Engine::Triangles) => crate::solve::outcomes_triangles_memory(n, pieces, piece),
                // The transpose's table (as words) and this one, both whole at the end, and
                // the transposed box's ranking tables.
                (_, Engine::Transposed) => {
                    ranking
                        + crate::solve::outcomes_runs_memory(n, pieces, piece)
                            .max(crate::solve::outcomes_triangles_memory(n, pieces, piece))
                        + crate::solve::WordBits::memory(n)
                }
            }
    }

    fn children(&self) -> std::result::Result<Option<Children>, Broken> {
        conformance::waves(self).map(Some)
    }
}

impl Indexed for Chomp {
    fn positions(&self) -> u64 {
        self.spec.positions()
    }
}

/// Chomp over its dense index: the ranking tables.
pub struct Chomp {
    spec: ChompSpec,
    r: usize,
    c: usize,
    /// `t[k * (c+1) + v] = C(v + r-1-k, r-k)`: row `k` (0-based) of length `v`.
    t: Vec<u64>,
    /// `q[x * (r+1) + k] = Σ_{k'<k} t(k', x)`.
    q: Vec<u64>,
    /// Square boxes: `u[k * (c+1) + v]`, row `k`'s share of the transposed diagram's rank.
    u: Vec<u64>,
}

/// The walk's view of one diagram: its rows and the prefix sums of their rank terms.
pub struct Cursor {
    rows: [usize; MAX_ROWS as usize],
    /// `p[k]`: rank terms of rows `0..k`; `p[height]` is the rank.
    p: [u64; MAX_ROWS as usize + 1],
    /// The same for the transposed diagram (square boxes).
    pt: [u64; MAX_ROWS as usize + 1],
    /// Non-empty rows.
    height: usize,
}

/// One task's share of a wave: the diagrams of `cells` cells whose first rows are `prefix`.
pub struct Piece {
    cells: usize,
    prefix: [usize; PIECE_ROWS],
}

impl Chomp {
    /// The game of `spec` (builds the ranking tables).
    pub fn new(spec: ChompSpec) -> Chomp {
        let (r, c) = (spec.rows as usize, spec.cols as usize);
        let mut t = vec![0u64; r * (c + 1)];
        for k in 0..r {
            for v in 0..=c {
                t[k * (c + 1) + v] =
                    binomial((v + r - 1 - k) as u64, (r - k) as u64).expect("fits: checked box");
            }
        }
        let mut q = vec![0u64; (c + 1) * (r + 1)];
        for x in 0..=c {
            for k in 0..r {
                q[x * (r + 1) + k + 1] = q[x * (r + 1) + k] + t[k * (c + 1) + x];
            }
        }
        let mut u = Vec::new();
        if r == c {
            // Cell (k, x) is row x's (k+1)-th cell in the transpose.
            u = vec![0u64; r * (c + 1)];
            for k in 0..r {
                for v in 1..=c {
                    let x = v - 1;
                    u[k * (c + 1) + v] =
                        u[k * (c + 1) + v - 1] + t[x * (c + 1) + k + 1] - t[x * (c + 1) + k];
                }
            }
        }
        Chomp {
            spec,
            r,
            c,
            t,
            q,
            u,
        }
    }

    /// The box's parameters.
    pub fn spec(&self) -> &ChompSpec {
        &self.spec
    }

    #[inline]
    fn t(&self, k: usize, v: usize) -> u64 {
        self.t[k * (self.c + 1) + v]
    }

    #[inline]
    fn u(&self, k: usize, v: usize) -> u64 {
        if self.u.is_empty() {
            0
        } else {
            self.u[k * (self.c + 1) + v]
        }
    }

    /// Rank (index + 1) of a diagram given by its first rows (the rest empty).
    fn rank_rows(&self, rows: &[u32]) -> u64 {
        rows.iter()
            .take(self.r)
            .enumerate()
            .map(|(k, &v)| self.t(k, v as usize))
            .sum()
    }
}

/// What is wrong with row lengths as a Chomp diagram, if anything: the top row must hold the
/// poisoned cell, and rows may not grow downwards.
pub(crate) fn diagram_problem(pos: &[u32]) -> Option<String> {
    if pos.first().copied().unwrap_or(0) == 0 {
        return Some("the top row is empty, so the poisoned cell (1,1) has been eaten".into());
    }
    let k = (1..pos.len()).find(|&k| pos[k] > pos[k - 1])?;
    Some(format!(
        "row {} (length {}) is longer than row {} (length {}); rows may not grow downwards",
        k + 1,
        pos[k],
        k,
        pos[k - 1]
    ))
}

/// The diagram left by the bite at (`row`, `col`) (0-based) of `rows`, without trailing
/// empty rows.
pub fn bite(rows: &[u32], row: usize, col: u32) -> Vec<u32> {
    let mut out: Vec<u32> = rows
        .iter()
        .enumerate()
        .map(|(k, &v)| if k >= row { v.min(col) } else { v })
        .collect();
    trim(&mut out);
    out
}

/// The transposed diagram (column lengths), without trailing empty rows.
pub fn transpose(rows: &[u32]) -> Vec<u32> {
    let width = rows.first().copied().unwrap_or(0);
    (0..width)
        .map(|x| rows.iter().filter(|&&v| v > x).count() as u32)
        .collect()
}

fn trim(rows: &mut Vec<u32>) {
    while rows.last() == Some(&0) {
        rows.pop();
    }
}

impl Rules for Chomp {
    fn position_form(&self) -> String {
        format!(
            "row lengths top row first, e.g. 4,3,1: non-increasing, the first row 1..={} (it holds the poisoned cell), at most {} rows (missing rows are empty)",
            self.c, self.r
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        let bad = |what: String| crate::game::bad_position(self, pos, what);
        if pos.len() > MAX_ROWS as usize {
            // Empty rows may be written out, but not without end: each move copies the rows.
            return bad(format!("{} numbers (at most {MAX_ROWS})", pos.len()));
        }
        if let Some(what) = diagram_problem(pos) {
            return bad(what);
        }
        if pos[0] as usize > self.c {
            return bad(format!(
                "the top row has {} cells but this table's box is {}×{} (at most {})",
                pos[0],
                self.r,
                self.c,
                crate::game::counted(self.c, "column")
            ));
        }
        let height = pos.iter().filter(|&&v| v > 0).count();
        if height > self.r {
            return bad(format!(
                "it has {height} rows but this table's box is {}×{} (at most {})",
                self.r,
                self.c,
                crate::game::counted(self.r, "row")
            ));
        }
        Ok(())
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        self.rank_rows(pos) - 1
    }

    /// The checks of [`check`](Rules::check) and the sum of `rank_rows`
    /// in one pass over the rows: non-increasing, the top row `1..=c`, at most `r` non-empty
    /// rows (written-out empty rows after them are fine).
    #[inline]
    fn entry_index(&self, pos: &[u32]) -> Option<u64> {
        let &top = pos.first()?;
        if top == 0 || top as usize > self.c || pos.len() > MAX_ROWS as usize {
            return None;
        }
        let mut prev = top;
        let mut rank = 0;
        for (k, &v) in pos.iter().enumerate() {
            if v == 0 {
                // Rows never grow downwards: every row after an empty one is empty.
                return pos[k..].iter().all(|&w| w == 0).then(|| rank - 1);
            }
            if v > prev || k >= self.r {
                return None;
            }
            rank += self.t(k, v as usize);
            prev = v;
        }
        Some(rank - 1)
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        let mut rem = index + 1;
        let mut max = self.c;
        let mut rows = Vec::with_capacity(self.r);
        for k in 0..self.r {
            let terms = &self.t[k * (self.c + 1)..k * (self.c + 1) + max + 1];
            // The largest v with t(k, v) <= rem (terms increase with v).
            let v = terms.partition_point(|&x| x <= rem) - 1;
            rem -= terms[v];
            rows.push(v as u32);
            max = v;
        }
        debug_assert_eq!(rem, 0, "index {index} out of range");
        trim(&mut rows);
        rows
    }

    /// Every bite but the poisoned one, row by row: label `(row,col)`, 1-based.
    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let mut out = Vec::new();
        for (i, &len) in pos.iter().enumerate() {
            for j in 0..len {
                if i == 0 && j == 0 {
                    continue;
                }
                out.push(Move {
                    label: format!("({},{})", i + 1, j + 1),
                    leaves: bite(pos, i, j),
                });
            }
        }
        out
    }

    /// The bar, a `#` a square and `*` the poisoned one, rows and columns numbered as bites
    /// name them.
    fn board(&self, pos: &[u32]) -> String {
        let mut out = String::from("  ");
        for c in 1..=self.c {
            out.push_str(&(c % 10).to_string());
        }
        for (r, &len) in pos.iter().enumerate().filter(|&(_, &l)| l > 0) {
            let squares: String = (0..len)
                .map(|c| if r == 0 && c == 0 { '*' } else { '#' })
                .collect();
            out.push_str(&format!("\n{:>2}{squares}", r + 1));
        }
        out
    }

    fn format(&self, pos: &[u32]) -> String {
        let mut rows = pos.to_vec();
        trim(&mut rows);
        format_numbers(&rows)
    }

    /// The census: P-positions in every sub-box a×b (a ≤ R rows, b ≤ C columns).
    fn facts(&self, values: &dyn Values) -> Vec<Fact> {
        let census = self.census(values);
        vec![census_fact(&census, self.r, self.c)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chomp(r: u32, c: u32) -> Chomp {
        Chomp::new(ChompSpec::new(r, c).unwrap())
    }

    /// The fast path gives the index exactly for the diagrams the check accepts, and nothing
    /// for lists it refuses (grown rows, too many rows or columns, an empty top row).
    #[test]
    fn entry_index_agrees_with_check_and_rank() {
        for (r, c) in [(1, 4), (3, 3), (4, 6), (6, 2)] {
            let g = chomp(r, c);
            let mut lists: Vec<Vec<u32>> = vec![vec![], vec![0], vec![0, 1], vec![u32::MAX]];
            lists.push(vec![1; MAX_ROWS as usize + 1]);
            for i in 0..g.spec.positions() {
                let mut pos = g.unrank(i);
                lists.push(pos.clone());
                pos.extend([0, 0]);
                lists.push(pos.clone());
                pos.push(1);
                lists.push(pos.clone());
                pos.truncate(pos.len() - 3);
                pos.push(1);
                lists.push(pos.clone());
                pos.reverse();
                lists.push(pos.clone());
                pos[0] += 1;
                lists.push(pos);
            }
            for pos in lists {
                let checked = g.check(&pos).is_ok().then(|| g.rank(&pos));
                assert_eq!(g.entry_index(&pos), checked, "{r}x{c} {pos:?}");
            }
        }
    }

    #[test]
    fn worked_example_of_the_format_document() {
        let g = chomp(3, 4);
        assert_eq!(g.spec.positions(), 34);
        assert_eq!(g.rank(&[4, 3, 1]), 26);
        assert_eq!(g.rank(&[1]), 0);
        assert_eq!(g.rank(&[4, 4, 4]), 33);
        assert_eq!(g.unrank(26), vec![4, 3, 1]);
    }

    /// Every bite leads to a smaller index (rank/unrank as a bijection in lexicographic order
    /// is checked by the conformance checks and tests/chomp.rs).
    #[test]
    fn rank_grows_with_inclusion() {
        let g = chomp(5, 5);
        for i in 0..g.spec.positions() {
            let d = g.unrank(i);
            for m in g.moves(&d) {
                assert!(g.rank(&m.leaves) < i, "{d:?}");
            }
        }
    }

    #[test]
    fn bad_boxes() {
        assert!(ChompSpec::new(0, 3)
            .unwrap_err()
            .to_string()
            .contains("--rows 0"));
        assert!(ChompSpec::new(3, 0)
            .unwrap_err()
            .to_string()
            .contains("--cols 0"));
        assert!(ChompSpec::new(65, 1)
            .unwrap_err()
            .to_string()
            .contains("1..=64"));
        assert!(ChompSpec::new(40, 40)
            .unwrap_err()
            .to_string()
            .contains("positions"));
        // The cap sits between the 20×20 box (C(40, 20) − 1 positions, 16 GiB at one bit)
        // and the 21×21 box (C(42, 21) − 1).
        let square = ChompSpec::new(20, 20).unwrap();
        assert_eq!(square.positions(), 137_846_528_819);
        assert!(square.view().solve_memory(ValueKind::Outcome) >= square.positions() / 8);
        assert!(ChompSpec::new(21, 21)
            .unwrap_err()
            .to_string()
            .contains("more than 274877906944 positions"));
    }
}
