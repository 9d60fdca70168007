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
//! on the one just before it. The solver ([`crate::solve::waves`]) works instead in waves of
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
//! * [`Engine::Triangles`] ([`crate::solve::triangles`], through [`LastTwoRows`]): the
//!   diagrams sharing their first `R − 2` rows are consecutive indices and play like two-rowed
//!   Chomp among themselves; a bite in the rows above moves the whole triangle at once, so one
//!   bite is a few word reads instead of a child lookup per position. Boxes of 3 to 63 rows
//!   and at most 63 columns, squares included (a diagram whose last two rows are empty is
//!   copied from its transpose when that lies in an earlier wave);
//! * [`Engine::Runs`] ([`crate::solve::runs`], through [`LastRow`]): the same with the last
//!   row alone; boxes of two rows or more than 63 columns;
//! * [`Engine::Transposed`]: a tall box (more rows than columns) is solved as its transpose,
//!   whose P-positions (about 1%) are then moved over one by one;
//! * Grundy values: triangles for non-square boxes, waves with the mirror for squares.

use std::ops::ControlFlow;

use crate::game::{
    binomial, conformance, format_numbers, params, Arguments, Fact, GameSpec, GameView, Move,
    Outcome, Param, Progress, Rules, Solved, ValueKind, Values, MAX_POSITIONS,
};
use crate::solve::{
    solve_grundy_triangles, solve_grundy_waves, solve_outcomes_runs_words,
    solve_outcomes_triangles_words, solve_outcomes_waves, Bits, Edge, Mirror, Runs, Saves, Saving,
    Staged, Triangles, Waves, WordBits, MAX_TRIANGLE,
};
use crate::{Error, Result};
use rayon::prelude::*;

/// Most rows a box may have.
pub const MAX_ROWS: u32 = 64;
/// Most columns a box may have.
pub const MAX_COLS: u32 = 65_535;
/// Most positions a `--grundy` table may have (two bytes each while solving).
pub const MAX_GRUNDY_POSITIONS: u64 = 1 << 32;
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
    pub fn widest_wave(&self) -> u64 {
        self.diagrams_by_cells()
            .into_iter()
            .skip(1)
            .max()
            .unwrap_or(0)
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

    type View = Chomp;
    fn view(&self) -> Chomp {
        Chomp::new(self.clone())
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

    fn positions(&self) -> u64 {
        // Checked in `ChompSpec::new`: the binomial fits.
        binomial(self.rows as u64 + self.cols as u64, self.rows as u64).unwrap_or(1) - 1
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

    fn solve(&self, kind: ValueKind, progress: &dyn Progress) -> Result<Solved> {
        self.solve_saving(kind, progress, &())
    }

    /// P/N tables save the finished waves of the run or triangle solver (Grundy tables,
    /// under two minutes even for the 16×16 box, save nothing).
    fn solve_saving(
        &self,
        kind: ValueKind,
        progress: &dyn Progress,
        saves: &dyn Saves,
    ) -> Result<Solved> {
        let game = Chomp::new(self.clone());
        Ok(match kind {
            ValueKind::Grundy => {
                if self.positions() > MAX_GRUNDY_POSITIONS {
                    return Err(Error::Unsupported(format!(
                        "the {}×{} box has {} positions; Grundy tables are limited to {MAX_GRUNDY_POSITIONS}",
                        self.rows,
                        self.cols,
                        self.positions()
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
        match (kind, self.engine()) {
            (ValueKind::Outcome, Engine::Runs | Engine::Triangles | Engine::Transposed) => {
                self.positions().div_ceil(64) * 8
            }
            _ => 0,
        }
    }

    /// What the engine chosen for the box and `kind` needs (see [`Engine`]); every engine's
    /// figure comes from its solver's `*_memory` in [`crate::solve`].
    fn solve_memory(&self, kind: ValueKind) -> u64 {
        let (r, c) = (self.rows as u64, self.cols as u64);
        let n = self.positions();
        // The ranking tables t, q and u (see `Chomp::new`).
        let ranking = (3 * r * (c + 1) + (c + 1) * (r + 1)) * 8;
        // A wave's pieces are its prefixes of PIECE_ROWS rows, each holding at least one of
        // its diagrams (the runs' and triangles' waves are those of fewer rows: no more).
        let widest = self.widest_wave();
        let m = r.min(c).min(PIECE_ROWS as u64);
        let pieces = widest.min(binomial(r.max(c) + m, m).unwrap_or(u64::MAX));
        let piece = std::mem::size_of::<Piece>() as u64;
        ranking
            + match (kind, self.engine()) {
                (ValueKind::Grundy, _) => match self.grundy_engine() {
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

    fn conformance(&self) -> std::result::Result<u64, String> {
        let game = Chomp::new(self.clone());
        let children = conformance::waves(&game)?;
        conformance::rules(&game, self.positions(), Some(&children))
    }
}

/// Chomp is solved by its own engines (runs, triangles, waves), not over `Game`: the view
/// answers for the solvers from the spec.
impl GameView for Chomp {
    fn positions(&self) -> u64 {
        self.spec.positions()
    }

    fn solve(&self, kind: ValueKind, progress: &dyn Progress) -> Result<Solved> {
        self.spec.solve(kind, progress)
    }

    fn solve_memory(&self, kind: ValueKind) -> u64 {
        self.spec.solve_memory(kind)
    }

    fn conformance(&self) -> std::result::Result<u64, String> {
        self.spec.conformance()
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

    fn set_row(&self, cur: &mut Cursor, k: usize, v: usize) {
        cur.rows[k] = v;
        cur.p[k + 1] = cur.p[k] + self.t(k, v);
        cur.pt[k + 1] = cur.pt[k] + self.u(k, v);
    }

    /// Visits every completion of rows `k..rows` holding `rem > 0` more cells, in index order
    /// (`1 ≤ k < rows ≤ r`, and the rows left can hold them: `rem ≤ (rows - k) · rows[k-1]`).
    fn fill<V: FnMut(&Cursor)>(
        &self,
        rows: usize,
        k: usize,
        rem: usize,
        cur: &mut Cursor,
        visit: &mut V,
    ) {
        let left = rows - k;
        if left == 1 {
            // The last row takes the rest.
            self.set_row(cur, k, rem);
            cur.height = rows;
            visit(cur);
            return;
        }
        // The rows after this one must be able to hold the rest without exceeding it.
        let lo = (rem as u32).div_ceil(left as u32) as usize;
        let hi = cur.rows[k - 1].min(rem);
        for v in lo..=hi {
            self.set_row(cur, k, v);
            if v == rem {
                cur.height = k + 1;
                visit(cur);
            } else {
                self.fill(rows, k + 1, rem - v, cur, visit);
            }
        }
    }

    /// Pushes every first-rows prefix of a piece of diagrams of `rows` rows with `rem` cells
    /// still to place.
    #[allow(clippy::too_many_arguments)]
    fn prefixes(
        &self,
        rows: usize,
        k: usize,
        rem: usize,
        max: usize,
        prefix: &mut [usize; PIECE_ROWS],
        cells: usize,
        out: &mut Vec<Piece>,
    ) {
        if k == rows.min(PIECE_ROWS) {
            out.push(Piece {
                cells,
                prefix: *prefix,
            });
            return;
        }
        // The rows left must be able to hold the rest without exceeding this row.
        let lo = rem.div_ceil(rows - k);
        for v in lo..=max.min(rem) {
            prefix[k] = v;
            self.prefixes(rows, k + 1, rem - v, v, prefix, cells, out);
        }
    }

    /// The pieces of the diagrams of `rows` rows (`1 ≤ rows ≤ r`) and `cells` cells.
    fn pieces_of(&self, rows: usize, cells: usize) -> Vec<Piece> {
        let mut out = Vec::new();
        let mut prefix = [0; PIECE_ROWS];
        self.prefixes(rows, 0, cells, self.c, &mut prefix, cells, &mut out);
        out
    }

    /// Walks the diagrams of `rows` rows of a piece (rows after them stay empty), in index
    /// order.
    fn walk_rows<V: FnMut(&Cursor)>(&self, rows: usize, piece: &Piece, mut visit: V) {
        let mut cur = Cursor {
            rows: [0; MAX_ROWS as usize],
            p: [0; MAX_ROWS as usize + 1],
            pt: [0; MAX_ROWS as usize + 1],
            height: 0,
        };
        let m = rows.min(PIECE_ROWS);
        let mut rem = piece.cells;
        for (k, &v) in piece.prefix[..m].iter().enumerate() {
            self.set_row(&mut cur, k, v);
            rem -= v;
        }
        if rem == 0 {
            cur.height = piece.prefix[..m].iter().filter(|&&v| v > 0).count();
            visit(&cur);
        } else {
            self.fill(rows, m, rem, &mut cur, &mut visit);
        }
    }
}

/// The solvers' waves are the diagrams of the first rows of the box: all rows for the wave
/// solver (a unit is a diagram), all but the last for runs, all but the last two for
/// triangles. Wave `w` holds the units whose first rows have `w + 1` cells.
trait FirstRows: Sync {
    /// The box.
    fn chomp(&self) -> &Chomp;
    /// How many rows make the waves.
    fn rows(&self) -> usize;
}

impl FirstRows for Chomp {
    fn chomp(&self) -> &Chomp {
        self
    }
    fn rows(&self) -> usize {
        self.r
    }
}

impl FirstRows for LastRow<'_> {
    fn chomp(&self) -> &Chomp {
        self.0
    }
    fn rows(&self) -> usize {
        self.0.r - 1
    }
}

impl FirstRows for LastTwoRows<'_> {
    fn chomp(&self) -> &Chomp {
        self.0
    }
    fn rows(&self) -> usize {
        self.0.r - 2
    }
}

impl<T: FirstRows> Staged for T {
    type Piece = Piece;
    type Cursor = Cursor;

    fn positions(&self) -> u64 {
        self.chomp().spec.positions()
    }

    fn waves(&self) -> usize {
        self.rows() * self.chomp().c
    }

    fn pieces(&self, wave: usize) -> Vec<Piece> {
        self.chomp().pieces_of(self.rows(), wave + 1)
    }

    fn walk<V: FnMut(&Cursor)>(&self, piece: &Piece, visit: V) {
        self.chomp().walk_rows(self.rows(), piece, visit)
    }
}

impl Waves for Chomp {
    #[inline]
    fn index(&self, at: &Cursor) -> u64 {
        at.p[at.height] - 1
    }

    #[inline]
    fn children<F: FnMut(u64) -> ControlFlow<()>>(&self, at: &Cursor, mut f: F) -> ControlFlow<()> {
        // Every bite, in every row, is a bite above the rows below it.
        self.bites_above(at, |e| f(e.child))
    }

    #[inline]
    fn terminal(&self, at: &Cursor) -> Option<Outcome> {
        // The single cell: its only bite eats the poison.
        (at.p[at.height] == 1).then_some(Outcome::P)
    }

    #[inline]
    fn mirror(&self, at: &Cursor) -> Mirror {
        if self.u.is_empty() {
            return Mirror::Solve(None);
        }
        let (rank, transposed) = (at.p[at.height], at.pt[at.height]);
        match rank.cmp(&transposed) {
            std::cmp::Ordering::Less => Mirror::Solve(Some(transposed - 1)),
            std::cmp::Ordering::Equal => Mirror::Solve(None),
            std::cmp::Ordering::Greater => Mirror::Image,
        }
    }
}

/// Chomp a run at a time ([`crate::solve::runs`]): a run is the diagrams that share their
/// first `R − 1` rows, the last row `0..=λ(R−1)`. Its indices are consecutive (the last row's
/// rank term is its length) and a bite in the last row is the run's chain. A bite at row
/// `i < R` down to `x` keeps the run's shape: it takes `(π, v)` to `(π', min(v, x))`, `π'`
/// the first rows bitten, so the run's elements see one edge per bite of `π` instead of one
/// child lookup each. Waves are the cells of `π`. Needs `R ≥ 2`.
pub struct LastRow<'a>(pub &'a Chomp);

impl Runs for LastRow<'_> {
    #[inline]
    fn run(&self, at: &Cursor) -> (u64, u64) {
        // The run's longest element: the last row as long as the row above it.
        (
            at.p[at.height] - 1,
            last_walked(at, self.0.r - 1) as u64 + 1,
        )
    }

    #[inline]
    fn edges<F: FnMut(Edge) -> ControlFlow<()>>(&self, at: &Cursor, f: F) -> ControlFlow<()> {
        self.0.bites_above(at, f)
    }
}

/// The length of the last of the first `rows` rows under the cursor, when all of them are
/// non-empty (0 otherwise: the rows below are empty then too).
#[inline]
fn last_walked(at: &Cursor, rows: usize) -> usize {
    if at.height == rows {
        at.rows[rows - 1]
    } else {
        0
    }
}

/// Chomp a triangle at a time ([`crate::solve::triangles`]): a triangle is the diagrams that
/// share their first `R − 2` rows `ρ`, the last two rows `(u, v)` with `v ≤ u ≤ λ(R−2)`. The
/// last two rows' rank terms are `u(u+1)/2` and `v`, so the triangle is consecutive indices in
/// the triangle's order, and bites in the last two rows are its inside moves. A bite at row
/// `i < R − 1` down to `x` takes `(ρ, u, v)` to `(ρ', min(u, x), min(v, x))`: one edge for
/// the whole triangle. Waves are the cells of `ρ`. Needs `R ≥ 3` and `C ≤ 63`.
pub struct LastTwoRows<'a>(pub &'a Chomp);

impl Triangles for LastTwoRows<'_> {
    #[inline]
    fn triangle(&self, at: &Cursor) -> (u64, u32) {
        // The triangle's size: the last two rows as long as the row above them.
        (at.p[at.height] - 1, last_walked(at, self.0.r - 2) as u32)
    }

    #[inline]
    fn edges<F: FnMut(Edge) -> ControlFlow<()>>(&self, at: &Cursor, f: F) -> ControlFlow<()> {
        self.0.bites_above(at, f)
    }

    /// In a square box, a diagram with its last two rows empty but a first row of at least
    /// `R − 1` has a transpose with cells in its last two rows, so in an earlier wave, with
    /// the same value: copied rather than searched (these single-position triangles cost as
    /// much as a whole search each).
    #[inline]
    fn same_as(&self, at: &Cursor) -> Option<u64> {
        let g = self.0;
        (!g.u.is_empty() && at.rows[0] + 1 >= g.r).then(|| at.pt[at.height] - 1)
    }
}

impl Chomp {
    /// The bites of the rows under the cursor (the rows walked; the rows after them are empty)
    /// as edges: `child` is the index of the diagram left, `reach` the length the bitten rows
    /// are cut to. Narrowest first (`x = 0, 1, ...`), top row first for each.
    #[inline]
    fn bites_above<F: FnMut(Edge) -> ControlFlow<()>>(
        &self,
        at: &Cursor,
        mut f: F,
    ) -> ControlFlow<()> {
        let (rows, p) = (&at.rows, &at.p);
        let rank = p[at.height];
        let stride = self.r + 1;
        let mut t = at.height - 1;
        for x in 0..rows[0] {
            while rows[t] <= x {
                t -= 1;
            }
            let q = &self.q[x * stride..x * stride + t + 2];
            // Index of the diagram left by the bite at row i: base + p[i] - q[i].
            let base = rank
                .wrapping_sub(p[t + 1])
                .wrapping_add(q[t + 1])
                .wrapping_sub(1);
            let first = (x == 0) as usize;
            for (pi, qi) in p[first..=t].iter().zip(&q[first..=t]) {
                f(Edge {
                    child: base.wrapping_add(pi - qi),
                    reach: x as u64,
                })?;
            }
        }
        ControlFlow::Continue(())
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

/// Which engine solves the P/N table of a box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// [`Waves`], position by position (in a square box each diagram and its transpose
    /// searched once): one row or one column, and the 2×2 box.
    Waves,
    /// [`Triangles`] over the last two rows: 3 to 63 rows, at most 63 columns, no more rows
    /// than columns (in a square box, a diagram whose last two rows are empty and whose
    /// transpose lies in an earlier wave is copied from it).
    Triangles,
    /// [`Runs`] over the last row: two rows, or more than 63 columns.
    Runs,
    /// A tall box (more rows than columns, at least two): its transpose is solved by
    /// triangles or runs, and each diagram takes its transpose's value (the transpose's table
    /// and this one are in memory together at the end: twice the table).
    Transposed,
}

impl Chomp {
    /// The engine [`Chomp::solve_outcomes`] uses for this box.
    pub fn engine(&self) -> Engine {
        self.spec.engine()
    }

    /// P/N of every diagram of the box, by the engine of [`Chomp::engine`]. The table is the
    /// same whichever engine makes it (checked by the tests).
    pub fn solve_outcomes(&self, progress: &dyn Progress) -> Result<Bits> {
        self.solve_with(self.engine(), progress, &())
    }
}

impl ChompSpec {
    /// The engine that solves the P/N table of this box (see [`Engine`]).
    pub fn engine(&self) -> Engine {
        let (r, c) = (self.rows as usize, self.cols as usize);
        if r <= 2 && r == c || r == 1 || c == 1 {
            Engine::Waves
        } else if r > c {
            Engine::Transposed
        } else if r == 2 || c > MAX_TRIANGLE as usize {
            Engine::Runs
        } else {
            Engine::Triangles
        }
    }

    /// The engine that solves the Grundy table of this box (see [`Chomp::solve_grundy`]).
    pub fn grundy_engine(&self) -> Engine {
        let (r, c) = (self.rows as usize, self.cols as usize);
        if r >= 3 && c <= MAX_TRIANGLE as usize && r != c {
            Engine::Triangles
        } else {
            Engine::Waves
        }
    }
}

impl Chomp {
    /// P/N of every diagram by a given engine (`Triangles` needs `3 ≤ R` and `C ≤ 63`, `Runs`
    /// needs `R ≥ 2`). The run and triangle solvers hand their finished waves to `saves`
    /// (and resume from them), named after the engine and the box they solve (a save of
    /// another engine or box is refused); the wave engine saves nothing.
    pub fn solve_with(
        &self,
        engine: Engine,
        progress: &dyn Progress,
        saves: &dyn Saves,
    ) -> Result<Bits> {
        match engine {
            Engine::Waves => solve_outcomes_waves(self, progress),
            Engine::Runs => {
                let solve = &Chomp::solve_name("runs", self);
                solve_outcomes_runs_words(&LastRow(self), progress, Saving { saves, solve })?
                    .into_bits()
            }
            Engine::Triangles => {
                let solve = &Chomp::solve_name("triangles", self);
                solve_outcomes_triangles_words(
                    &LastTwoRows(self),
                    progress,
                    Saving { saves, solve },
                )?
                .into_bits()
            }
            Engine::Transposed => {
                if self.c > MAX_ROWS as usize || self.c < 2 {
                    return Err(Error::Unsupported(format!(
                        "the {}×{} box cannot be solved through its transpose: it needs 2..={MAX_ROWS} columns",
                        self.r, self.c
                    )));
                }
                let t = self.transposed();
                let tb = if t.r >= 3 && t.c <= MAX_TRIANGLE as usize {
                    let solve = &Chomp::solve_name("transposed: triangles", &t);
                    solve_outcomes_triangles_words(
                        &LastTwoRows(&t),
                        progress,
                        Saving { saves, solve },
                    )?
                } else {
                    let solve = &Chomp::solve_name("transposed: runs", &t);
                    solve_outcomes_runs_words(&LastRow(&t), progress, Saving { saves, solve })?
                };
                self.bits_via_transpose(&t, &tb)
            }
        }
    }

    /// The name of a saving solve: the solver and the box it solves, e.g. `triangles over the
    /// 10x42 box`, `transposed: runs over the 2x9 box`. A save of another name is refused, so
    /// a solve is never resumed by another engine or from another box.
    fn solve_name(solver: &str, solved: &Chomp) -> String {
        format!("{solver} over the {}x{} box", solved.r, solved.c)
    }

    /// The engine [`Chomp::solve_grundy`] uses: [`Engine::Triangles`] for boxes of 3 to 63
    /// rows and at most 63 columns that are not square, else [`Engine::Waves`] (which searches
    /// only one of a diagram and its transpose in a square box).
    pub fn grundy_engine(&self) -> Engine {
        self.spec.grundy_engine()
    }

    /// Grundy value of every diagram of the box.
    pub fn solve_grundy(&self, progress: &dyn Progress) -> Result<Vec<u16>> {
        self.solve_grundy_with(self.grundy_engine(), progress)
    }

    /// Grundy values by a given engine: `Waves`, or `Triangles` (3 to 63 rows, at most 63
    /// columns).
    pub fn solve_grundy_with(&self, engine: Engine, progress: &dyn Progress) -> Result<Vec<u16>> {
        match engine {
            Engine::Waves => solve_grundy_waves(self, progress),
            Engine::Triangles if self.r >= 3 && self.c <= MAX_TRIANGLE as usize => {
                solve_grundy_triangles(&LastTwoRows(self), progress)
            }
            other => Err(Error::Unsupported(format!(
                "Grundy values of the {}×{} box cannot be solved by the {other:?} engine",
                self.r, self.c
            ))),
        }
    }

    /// The transposed box (C×R).
    fn transposed(&self) -> Chomp {
        Chomp::new(ChompSpec {
            rows: self.spec.cols,
            cols: self.spec.rows,
        })
    }

    /// This box's bits from the bits `tb` of its transposed box `t`: every diagram takes the
    /// value of its transpose. Only the P-positions (about 1%) are moved: the table starts all
    /// N, and each P-position of the transpose is unranked, transposed, ranked here and
    /// cleared.
    fn bits_via_transpose(&self, t: &Chomp, tb: &WordBits) -> Result<Bits> {
        let out = WordBits::try_ones(self.spec.positions())?;
        let words = tb.word_count();
        (0..words.div_ceil(1024)).into_par_iter().for_each(|chunk| {
            let range = chunk * 1024..(chunk * 1024 + 1024).min(words);
            tb.for_each_zero(range, |i| {
                let rows = transpose(&t.unrank(i));
                out.clear(self.rank(&rows));
            });
        });
        out.into_bits()
    }
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
                "the top row has {} cells but this table's box is {}×{} (at most {} columns)",
                pos[0], self.r, self.c, self.c
            ));
        }
        let height = pos.iter().filter(|&&v| v > 0).count();
        if height > self.r {
            return bad(format!(
                "it has {height} rows but this table's box is {}×{} (at most {} rows)",
                self.r, self.c, self.r
            ));
        }
        Ok(())
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        self.rank_rows(pos) - 1
    }

    /// The checks of [`check`](Rules::check) and the sum of [`rank_rows`](Chomp::rank_rows)
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

impl Chomp {
    /// `census[a][b]`: P-positions that fit in a box of `a` rows and `b` columns
    /// (`0 ≤ a ≤ R`, `0 ≤ b ≤ C`; zero when either is 0).
    pub fn census(&self, values: &dyn Values) -> Vec<Vec<u64>> {
        let (r, c) = (self.r, self.c);
        let mut count = vec![vec![0u64; c + 1]; r + 1];
        values.for_each_p(&mut |i| {
            let rows = self.unrank(i);
            count[rows.len()][rows[0] as usize] += 1;
        });
        // Cumulative over both dimensions: height <= a and width <= b.
        for a in 1..=r {
            for b in 1..=c {
                count[a][b] += count[a - 1][b] + count[a][b - 1] - count[a - 1][b - 1];
            }
        }
        count
    }
}

fn census_fact(census: &[Vec<u64>], r: usize, c: usize) -> Fact {
    let width = census[r][c].to_string().len().max(3) + 1;
    let mut text = format!("{:>6}", "a\\b");
    for b in 1..=c {
        text += &format!("{b:>width$}");
    }
    for (a, row) in census.iter().enumerate().skip(1) {
        text += &format!("\n{a:>6}");
        for v in &row[1..] {
            text += &format!("{v:>width$}");
        }
    }
    let counts: Vec<&[u64]> = census.iter().skip(1).map(|row| &row[1..]).collect();
    let json = serde_json::json!({"rows": r, "cols": c, "counts": counts});
    Fact {
        key: "p_census".into(),
        label: "P-positions in each sub-box of a rows and b columns".into(),
        text,
        json,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::in_pool;

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

    /// Runs and triangles: every index once; each element's moves are the chain (or the
    /// triangle's inside moves) and one child per edge, exactly the rules' bites; children lie
    /// in earlier waves.
    fn conformance_grouped(r: u32, c: u32) {
        /// Calls `f` with the wave and cursor of every unit, wave by wave.
        fn each_unit<S: Staged>(s: &S, mut f: impl FnMut(usize, &S::Cursor)) {
            for wave in 0..s.waves() {
                for piece in s.pieces(wave) {
                    s.walk(&piece, |at| f(wave, at));
                }
            }
        }
        let g = chomp(r, c);
        let n = g.spec.positions();
        let prefix_cells =
            |i: u64, keep: usize| g.unrank(i).iter().take(keep).sum::<u32>() as usize;
        let sorted = |mut v: Vec<u64>| {
            v.sort_unstable();
            v.dedup();
            v
        };
        if r >= 2 {
            let lr = LastRow(&g);
            let mut seen = vec![0u8; n as usize];
            each_unit(&lr, |wave, at| {
                let (base, len) = lr.run(at);
                let mut edges = Vec::new();
                let _ = lr.edges(at, |e| {
                    edges.push(e);
                    ControlFlow::Continue(())
                });
                for v in 0..len {
                    let i = base + v;
                    seen[i as usize] += 1;
                    let rows = g.unrank(i);
                    assert_eq!(prefix_cells(i, r as usize - 1), wave + 1);
                    let mut kids: Vec<u64> = (0..v).map(|x| base + x).collect();
                    for e in &edges {
                        let k = e.child + v.min(e.reach);
                        assert!(prefix_cells(k, r as usize - 1) <= wave, "{rows:?}");
                        kids.push(k);
                    }
                    let want = g.moves(&rows).iter().map(|m| g.rank(&m.leaves)).collect();
                    assert_eq!(sorted(kids), sorted(want), "{rows:?}");
                }
            });
            assert!(seen.iter().all(|&s| s == 1), "runs of {r}x{c}");
        }
        if r >= 3 && c <= MAX_TRIANGLE {
            let lt = LastTwoRows(&g);
            let mut seen = vec![0u8; n as usize];
            each_unit(&lt, |wave, at| {
                let (first, size) = lt.triangle(at);
                let size = size as u64;
                let mut edges = Vec::new();
                let _ = lt.edges(at, |e| {
                    edges.push(e);
                    ControlFlow::Continue(())
                });
                let at_uv = |u: u64, v: u64| first + u * (u + 1) / 2 + v;
                for u in 0..=size {
                    for v in 0..=u {
                        let i = at_uv(u, v);
                        seen[i as usize] += 1;
                        let rows = g.unrank(i);
                        assert_eq!(prefix_cells(i, r as usize - 2), wave + 1);
                        let mut kids: Vec<u64> = Vec::new();
                        kids.extend((0..u).map(|x| at_uv(x, v.min(x))));
                        kids.extend((0..v).map(|x| at_uv(u, x)));
                        for e in &edges {
                            let (x, y) = (u.min(e.reach), v.min(e.reach));
                            let k = e.child + x * (x + 1) / 2 + y;
                            assert!(prefix_cells(k, r as usize - 2) <= wave, "{rows:?}");
                            kids.push(k);
                        }
                        let want = g.moves(&rows).iter().map(|m| g.rank(&m.leaves)).collect();
                        assert_eq!(sorted(kids), sorted(want), "{rows:?}");
                    }
                }
            });
            assert!(seen.iter().all(|&s| s == 1), "triangles of {r}x{c}");
        }
    }

    #[test]
    fn runs_and_triangles_conform() {
        for (r, c) in [
            (2, 1),
            (2, 6),
            (3, 1),
            (3, 4),
            (3, 7),
            (4, 5),
            (5, 3),
            (5, 6),
            (6, 6),
            (4, 9),
        ] {
            conformance_grouped(r, c);
        }
    }

    /// Both Grundy engines give the same values, squares included (where the triangles copy
    /// some diagrams from their transposes).
    #[test]
    fn grundy_engines_agree() {
        let pb = ();
        for (r, c) in [(3, 3), (4, 9), (9, 4), (6, 6), (7, 8), (9, 9)] {
            let g = chomp(r, c);
            let waves = g.solve_grundy_with(Engine::Waves, &pb).unwrap();
            for threads in [1, 2] {
                let tri = in_pool(threads, || {
                    g.solve_grundy_with(Engine::Triangles, &pb).unwrap()
                });
                assert!(tri == waves, "{r}x{c} at {threads} threads");
            }
        }
    }

    /// Every engine that applies gives the table of the position-by-position search (without
    /// the transpose shortcut), at 1 and 2 threads.
    #[test]
    fn every_engine_makes_the_same_table() {
        let pb = ();
        for (r, c) in [
            (1, 9),
            (9, 1),
            (2, 2),
            (2, 70),
            (64, 2),
            (3, 3),
            (3, 64),
            (3, 65),
            (4, 30),
            (30, 4),
            (5, 8),
            (8, 5),
            (6, 12),
            (12, 6),
            (7, 7),
            (9, 9),
            (8, 10),
            (10, 8),
        ] {
            let g = chomp(r, c);
            let reference = solve_outcomes_waves(&g, &pb).unwrap().into_bytes();
            let mut engines = vec![Engine::Waves, g.engine()];
            if r >= 2 {
                engines.push(Engine::Runs);
            }
            if r >= 3 && c <= MAX_TRIANGLE {
                engines.push(Engine::Triangles);
            }
            if r != c && (2..=MAX_ROWS).contains(&c) {
                engines.push(Engine::Transposed);
            }
            for e in engines {
                for threads in [1, 2] {
                    let got = in_pool(threads, || g.solve_with(e, &pb, &()).unwrap().into_bytes());
                    assert!(got == reference, "{r}x{c} by {e:?} at {threads} threads");
                }
            }
        }
    }

    /// What a build is told it needs follows the engine: one bit table (and a megabyte) for
    /// triangles and runs, two for a tall box solved through its transpose.
    #[test]
    fn memory_follows_the_engine() {
        let mib = 1 << 20;
        for (r, c, engine, tables) in [
            (10, 30, Engine::Triangles, 1),
            (4, 300, Engine::Runs, 1),
            (30, 10, Engine::Transposed, 2),
            (16, 16, Engine::Triangles, 1),
            (1, 5000, Engine::Waves, 1),
        ] {
            let spec = ChompSpec::new(r, c).unwrap();
            assert_eq!(spec.engine(), engine, "{r}x{c}");
            let table = spec.positions().div_ceil(8);
            let need = spec.solve_memory(ValueKind::Outcome);
            assert!(need >= tables * table, "{r}x{c}: {need}");
            assert!(need <= tables * table + 32 * mib, "{r}x{c}: {need}");
        }
        let grundy = ChompSpec::new(9, 14).unwrap();
        assert_eq!(grundy.grundy_engine(), Engine::Triangles);
        assert!(grundy.solve_memory(ValueKind::Grundy) >= 2 * grundy.positions());
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
        assert!(square.solve_memory(ValueKind::Outcome) >= square.positions() / 8);
        assert!(ChompSpec::new(21, 21)
            .unwrap_err()
            .to_string()
            .contains("more than 274877906944 positions"));
    }
}
