//! Sliding puzzles (Johnson & Story 1879; Chen Jingrun, "關于十五子的游戲"): R×C boards with tiles `1..R·C−1` and
//! one blank; a move slides a tile next to the blank into it. The goal holds the tiles in
//! reading order with the blank last. The table stores, for every arrangement that can reach
//! the goal, its distance in moves, one byte each, found by a breadth-first search from the
//! goal (moves are reversible, so distances from and to the goal agree).
//!
//! ## Index
//!
//! An arrangement is its tile sequence (see [`grid`](super::grid): the tiles in reading order,
//! blank skipped, lowered by one) plus the blank's cell `b`. With `N = R·C` cells and
//! `r = lex_rank(tile sequence)` in `0..(N−1)!`:
//!
//! ```text
//! dense index (tables)      = ⌊r / 2⌋ · N + b        in 0 .. N!/2
//! full index  (verify only) =    r    · N + b        in 0 .. N!
//! ```
//!
//! The ranks of two tile sequences that differ by swapping their last two entries differ only
//! in the last-but-one Lehmer digit (0 or 1), i.e. in the last bit of `r`; the two have
//! opposite inversion parity, and for each blank cell exactly one of them is solvable (the
//! parity rule). So `⌊r / 2⌋` numbers the solvable tile sequences of each blank cell densely:
//! no slot is spent on an unsolvable arrangement.
//!
//! With the blank cell as the fast-moving part of the index, a sideways move (the blank changes
//! cell in its row, the tile sequence stays) goes to the neighbouring index. A vertical move
//! rotates `C` consecutive entries of the tile sequence by one place; the new rank differs from
//! the old one only in those `C` Lehmer digits and is computed from them in `O(C)` steps.
//! Blocks of consecutive ranks are walked with a mixed-radix counter over the Lehmer digits, so
//! the search never unranks position by position.

use std::ops::Range;
use std::sync::Arc;

use super::board::{lex_rank, move_label, select_bit, Board, FACTORIAL, SEQ_CELLS as MAX_CELLS};
use crate::game::{
    conformance, format_numbers, params, Arguments, Fact, GameSpec, GameView, Move, Param,
    Progress, Rules, Solved, ValueKind, Values,
};
use crate::solve::bfs::{self, Puzzle};
use crate::solve::spread::{Bipartite, FastDiv};
use crate::{Error, Result};

/// Most cells of a board with a byte table (12! / 2 = 239,500,800 positions).
pub const MAX_TABLE_CELLS: usize = 12;

/// Most cells of a board `gamedb enumerate` handles (4×4, 3×5, 2×8): its 2-bit tables (the
/// mod3 encoding) hold boards past [`MAX_TABLE_CELLS`].
pub const MAX_ENUMERATED_CELLS: usize = 16;

/// Parameters of a sliding-puzzle table, checked: the board's shape.
#[derive(Clone, Debug, PartialEq)]
pub struct SlideSpec {
    rows: u32,
    cols: u32,
}

impl SlideSpec {
    /// Checks the parameters: 2 ≤ rows, cols and rows · cols ≤ 12.
    pub fn new(rows: u32, cols: u32) -> Result<SlideSpec> {
        let cells = rows as u64 * cols as u64;
        if rows < 2 || cols < 2 || cells > MAX_TABLE_CELLS as u64 {
            return Err(Error::bad(format!(
                "--rows {rows} --cols {cols}: expected at least 2 rows and 2 columns and at most \
                 {MAX_TABLE_CELLS} cells in all (2×2 up to 3×4, 4×3, 2×6, 6×2); `gamedb enumerate \
                 slide --table` writes the 2-bit tables of boards up to 16 cells"
            )));
        }
        Ok(SlideSpec { rows, cols })
    }

    /// Checks the parameters of a board `gamedb enumerate` handles: 2 ≤ rows, cols and
    /// rows · cols ≤ 16.
    pub fn enumerated(rows: u32, cols: u32) -> Result<SlideSpec> {
        let cells = rows as u64 * cols as u64;
        if rows < 2 || cols < 2 || cells > MAX_ENUMERATED_CELLS as u64 {
            return Err(Error::bad(format!(
                "--rows {rows} --cols {cols}: expected at least 2 rows and 2 columns and at most \
                 {MAX_ENUMERATED_CELLS} cells in all (up to 4×4, 3×5, 2×8 and their transposes)"
            )));
        }
        Ok(SlideSpec { rows, cols })
    }

    /// Rows of the board.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Columns of the board.
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// The board.
    pub fn grid(&self) -> Board {
        // Checked in `SlideSpec::new`: every table board is a board.
        Board::new(self.rows, self.cols).unwrap_or_else(|_| unreachable!("checked board"))
    }
}

impl GameSpec for SlideSpec {
    const NAME: &'static str = "slide";
    const ABOUT: &'static str = "Sliding puzzle on an R×C board (2 ≤ R, C; R·C ≤ 12): distance to \
                                 the goal of every solvable arrangement";
    const PARAMS: &'static [Param] = &[
        Param::required("rows", "R", "Rows of the board"),
        Param::required("cols", "C", "Columns of the board"),
    ];
    const VALUES: &'static [ValueKind] = &[ValueKind::Distance];

    type View = SlideRules;
    fn view(&self) -> SlideRules {
        SlideRules::new(self.grid())
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        SlideSpec::new(a.number("rows")?, a.number("cols")?)
    }

    fn parameters(&self) -> String {
        params::write(&[
            ("rows", Some(self.rows.to_string())),
            ("cols", Some(self.cols.to_string())),
        ])
    }

    fn from_parameters(text: &str) -> std::result::Result<Self, String> {
        // Boards past 12 cells have 2-bit tables (`gamedb enumerate`), not built by `build`.
        let a = Arguments::parse(text)?;
        let board = (|| SlideSpec::enumerated(a.number("rows")?, a.number("cols")?))()
            .map_err(|e| e.to_string())?;
        if board.parameters() != text {
            return Err(format!(
                "parameters '{text}' are not written canonically (expected '{}')",
                board.parameters()
            ));
        }
        Ok(board)
    }

    fn positions(&self) -> u64 {
        FACTORIAL[(self.rows * self.cols) as usize] / 2
    }

    fn stem(&self) -> String {
        format!("slide-{}x{}", self.rows, self.cols)
    }

    fn describe(&self) -> String {
        format!(
            "sliding puzzle: {}×{} board ({} rows, {} columns, tiles 1..={}), distance to the goal of every solvable arrangement",
            self.rows,
            self.cols,
            self.rows,
            self.cols,
            self.rows * self.cols - 1
        )
    }

    fn solve(&self, _kind: ValueKind, progress: &dyn Progress) -> Result<Solved> {
        if (self.rows * self.cols) as usize > MAX_TABLE_CELLS {
            return Err(Error::bad(format!(
                "a byte table of the {}×{} board would not fit: byte tables stop at \
                 {MAX_TABLE_CELLS} cells; `gamedb enumerate slide --rows {} --cols {} --table` \
                 writes its 2-bit table",
                self.rows, self.cols, self.rows, self.cols
            )));
        }
        let index = SlideIndex::dense(self.grid());
        let d = bfs::distances(&index, progress)?;
        if d.reached() != index.positions() {
            return Err(Error::internal(format!(
                "the search reached {} of the {} solvable arrangements",
                d.reached(),
                index.positions()
            )));
        }
        Ok(Solved::Distances(d.values))
    }

    fn solve_memory(&self, _kind: ValueKind) -> u64 {
        crate::solve::distances_memory(self.positions())
    }

    fn samples() -> Vec<Self> {
        [(2, 2), (2, 3), (3, 2)]
            .into_iter()
            .filter_map(|(r, c)| SlideSpec::new(r, c).ok())
            .collect()
    }

    fn conformance(&self) -> std::result::Result<u64, String> {
        let index = SlideIndex::dense(self.grid());
        let children = conformance::puzzle(&index)?;
        conformance::rules(
            &SlideRules::new(self.grid()),
            index.positions(),
            Some(&children),
        )
    }
}

/// A sliding puzzle is searched breadth first, not over `Game`: the view answers for the
/// solvers from the spec.
impl GameView for SlideRules {
    fn positions(&self) -> u64 {
        SlideSpec {
            rows: self.grid.rows() as u32,
            cols: self.grid.cols() as u32,
        }
        .positions()
    }

    fn solve(&self, kind: ValueKind, progress: &dyn Progress) -> Result<Solved> {
        SlideSpec {
            rows: self.grid.rows() as u32,
            cols: self.grid.cols() as u32,
        }
        .solve(kind, progress)
    }

    fn solve_memory(&self, kind: ValueKind) -> u64 {
        SlideSpec {
            rows: self.grid.rows() as u32,
            cols: self.grid.cols() as u32,
        }
        .solve_memory(kind)
    }

    fn conformance(&self) -> std::result::Result<u64, String> {
        SlideSpec {
            rows: self.grid.rows() as u32,
            cols: self.grid.cols() as u32,
        }
        .conformance()
    }
}

/// The lookup rules of a board: arrangements, the parity rule, moves.
pub struct SlideRules {
    grid: Board,
    index: SlideIndex,
}

impl SlideRules {
    /// The rules of `grid`.
    pub fn new(grid: Board) -> SlideRules {
        SlideRules {
            grid,
            index: SlideIndex::dense(grid),
        }
    }
}

impl Rules for SlideRules {
    fn is_goal(&self, pos: &[u32]) -> bool {
        pos == self.grid.goal().as_slice()
    }

    fn position_form(&self) -> String {
        self.grid.position_form()
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        self.grid.check(pos)
    }

    fn outside(&self, pos: &[u32]) -> Option<String> {
        self.grid.why_unsolvable(pos)
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        self.index.index_of(pos)
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        self.index.arrangement(index)
    }

    fn facts(&self, values: &dyn Values) -> Vec<Fact> {
        let g = self.grid;
        let goal = format_numbers(&g.goal());
        let swapped = format_numbers(&g.swapped_goal());
        vec![
            Fact {
                key: "goal".into(),
                label: "goal".into(),
                text: format!(
                    "{goal} ({} rows, {} columns, read row by row, 0 = blank)",
                    g.rows(),
                    g.cols()
                ),
                json: serde_json::json!({"position": goal, "rows": g.rows(), "cols": g.cols()}),
            },
            Fact {
                key: "unsolvable".into(),
                label: "unsolvable arrangements (not stored)".into(),
                text: format!(
                    "{}, as many as stored; by the parity rule each reaches {swapped} (the goal \
                     with its last two tiles swapped) instead",
                    values.len()
                ),
                json: serde_json::json!({"count": values.len(), "reach": swapped}),
            },
        ]
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        self.grid
            .slides(pos)
            .into_iter()
            .map(|s| Move {
                label: move_label(s.tile, s.dir),
                leaves: s.leaves,
            })
            .collect()
    }
}

/// A board's arrangements over the dense index (solvable ones only, the tables' index) or the
/// full index (all of them, for the checks that must not assume the parity rule); see the
/// module docs.
#[derive(Clone, Debug)]
pub struct SlideIndex {
    grid: Board,
    /// Cells, N.
    cells: usize,
    /// Tiles, N − 1.
    n: usize,
    /// Dense (solvable arrangements only) or full.
    dense: bool,
    /// `w[j] = (n−1−j)!`, the weight of Lehmer digit `j`.
    w: [i64; MAX_CELLS],
    /// Parity of the tile inversions required with the blank in each cell (dense index).
    parity: [u8; MAX_CELLS],
    /// Number of blocks (tile-sequence ranks, halved for the dense index).
    blocks: u64,
    /// Division by the number of cells (an index's block and blank cell).
    by_cells: FastDiv,
    /// The column of each cell.
    col: [u8; MAX_CELLS],
    /// The table of the last entries, for dense indices of at least [`TAIL`] tiles.
    tail: Option<Arc<Tail>>,
}

/// One arrangement met by [`SlideIndex::visit`].
#[derive(Clone, Copy, Debug)]
pub struct Visit<'a> {
    /// Its index.
    pub index: u64,
    /// Its cells in reading order, 0 for the blank.
    pub cells: &'a [u8],
    /// The blank's cell.
    pub blank: usize,
    /// Inversions of its tiles read in order, the blank skipped.
    pub tile_inversions: u32,
}

/// A block of the index: the tile sequences and Lehmer digits of its rank (`p[0]`, `d[0]`)
/// and, for the dense index, of the rank after it (`p[1]`, `d[1]`: the last two entries
/// swapped), with the inversion parity of the first.
#[derive(Clone)]
struct Cursor {
    block: u64,
    p: [[u8; MAX_CELLS]; 2],
    d: [[u8; MAX_CELLS]; 2],
    parity: u8,
    /// With a [`Tail`]: the block's low digits as one number (`block mod LOWS`), the last
    /// [`TAIL`] entries of its tile sequence in increasing order, and the parity of its
    /// higher digits.
    low: u64,
    set: [u8; TAIL],
    high_parity: u8,
}

/// Entries at the end of a dense index's tile sequence that a [`Tail`] walks by table.
const TAIL: usize = 6;
/// Blocks for each value of the higher digits: the arrangements of the last [`TAIL`] entries,
/// halved (the digit `n − 2` is the variant, see [`SlideIndex::variant`]).
const LOWS: u64 = 360;

/// Consecutive blocks of a dense index differ mostly in their last few entries: the last
/// [`TAIL`] entries of the tile sequence run through the arrangements of one set of tiles,
/// [`LOWS`] blocks in a row, before a higher digit changes. The table gives, for each of
/// those blocks, the arrangement (as places in the sorted set) and its Lehmer digits, so a
/// cursor moving forward by a few blocks looks them up instead of selecting entry by entry.
#[derive(Clone, Debug)]
struct Tail {
    order: Vec<[u8; TAIL]>,
    digits: Vec<[u8; TAIL]>,
    parity: Vec<u8>,
}

impl Tail {
    fn new() -> Tail {
        let mut t = Tail {
            order: Vec::new(),
            digits: Vec::new(),
            parity: Vec::new(),
        };
        for low in 0..LOWS {
            // The low digits, most significant first: radices TAIL, TAIL − 1, ..., 3; the
            // last two digits are 0 (variant 0).
            let mut digits = [0u8; TAIL];
            let mut rest = low;
            for i in (0..TAIL - 2).rev() {
                let radix = (TAIL - i) as u64;
                digits[i] = (rest % radix) as u8;
                rest /= radix;
            }
            let mut free: u32 = (1 << TAIL) - 1;
            let mut order = [0u8; TAIL];
            for i in 0..TAIL {
                let v = select_bit(free, digits[i] as u32);
                order[i] = v as u8;
                free &= !(1 << v);
            }
            t.order.push(order);
            t.digits.push(digits);
            t.parity
                .push((digits.iter().map(|&x| x as u32).sum::<u32>() & 1) as u8);
        }
        t
    }
}

/// Adds `carry` to the mixed-radix number of Lehmer digits `d` (digit `j` has radix `n - j`)
/// at digit `lowest`, carrying into higher digits only as far as needed. Returns the highest
/// digit that changed and the parity of the change of the digits' sum (odd digit changes),
/// which is how the inversion parity changes.
#[inline]
fn add_digits(n: usize, d: &mut [u8], lowest: usize, mut carry: u64) -> (usize, u8) {
    let mut j = lowest;
    let mut change = 0u8;
    loop {
        let radix = (n - j) as u64;
        let v = d[j] as u64 + carry;
        // Blocks are mostly near each other: a division only for long jumps.
        let (digit, up) = if v < radix {
            (v, 0)
        } else if v < 2 * radix {
            (v - radix, 1)
        } else {
            (v % radix, v / radix)
        };
        change ^= (d[j] ^ digit as u8) & 1;
        d[j] = digit as u8;
        carry = up;
        if carry == 0 || j == 0 {
            return (j, change);
        }
        j -= 1;
    }
}

impl SlideIndex {
    /// The tables' index: the N!/2 arrangements that can reach the goal.
    pub fn dense(grid: Board) -> SlideIndex {
        SlideIndex::new(grid, true)
    }

    /// Every arrangement, N! of them.
    pub fn full(grid: Board) -> SlideIndex {
        SlideIndex::new(grid, false)
    }

    fn new(grid: Board, dense: bool) -> SlideIndex {
        let cells = grid.cells();
        let n = cells - 1;
        let mut w = [0i64; MAX_CELLS];
        for (j, wj) in w.iter_mut().enumerate().take(n) {
            *wj = FACTORIAL[n - 1 - j] as i64;
        }
        let mut parity = [0u8; MAX_CELLS];
        for (b, p) in parity.iter_mut().enumerate().take(cells) {
            *p = grid.required_parity(b) as u8;
        }
        let blocks = if dense {
            FACTORIAL[n] / 2
        } else {
            FACTORIAL[n]
        };
        let mut col = [0u8; MAX_CELLS];
        for (c, x) in col.iter_mut().enumerate().take(cells) {
            *x = (c % grid.cols()) as u8;
        }
        SlideIndex {
            grid,
            cells,
            n,
            dense,
            w,
            parity,
            blocks,
            by_cells: FastDiv::new(cells as u64),
            col,
            tail: (dense && n >= TAIL).then(|| Arc::new(Tail::new())),
        }
    }

    /// The board.
    pub fn grid(&self) -> Board {
        self.grid
    }

    /// Whether this is the dense index.
    pub fn is_dense(&self) -> bool {
        self.dense
    }

    /// The index of a checked arrangement (for the dense index it must be solvable).
    pub fn index_of(&self, pos: &[u32]) -> u64 {
        let mut seq = [0u8; MAX_CELLS];
        let n = Board::tile_sequence(pos, &mut seq);
        let r = lex_rank(&seq[..n]);
        let block = if self.dense { r >> 1 } else { r };
        block * self.cells as u64 + Board::blank(pos) as u64
    }

    /// The arrangement at an index.
    pub fn arrangement(&self, index: u64) -> Vec<u32> {
        let c = self.cursor(index / self.cells as u64);
        let b = (index % self.cells as u64) as usize;
        let p = &c.p[self.variant(&c, b)];
        let mut out = Vec::with_capacity(self.cells);
        let mut k = 0;
        for cell in 0..self.cells {
            if cell == b {
                out.push(0);
            } else {
                out.push(p[k] as u32 + 1);
                k += 1;
            }
        }
        out
    }

    /// Calls `f` with every arrangement of `range`, in index order. Walks the blocks with the
    /// Lehmer-digit counter, so a sweep costs a few steps per arrangement.
    pub fn visit<F: FnMut(&Visit)>(&self, range: Range<u64>, mut f: F) {
        if range.is_empty() {
            return;
        }
        let cells = self.cells as u64;
        let first = range.start / cells;
        let mut c = self.cursor(first);
        let mut buf = [0u8; MAX_CELLS];
        for block in first..range.end.div_ceil(cells) {
            if block > first {
                self.step(&mut c);
            }
            // The inversions of a tile sequence are the sum of its Lehmer digits.
            let sums = [0, 1].map(|v| c.d[v][..self.n].iter().map(|&x| x as u32).sum::<u32>());
            let base = block * cells;
            let lo = range.start.max(base) - base;
            let hi = range.end.min(base + cells) - base;
            for b in lo as usize..hi as usize {
                let v = self.variant(&c, b);
                let p = &c.p[v];
                for k in 0..b {
                    buf[k] = p[k] + 1;
                }
                buf[b] = 0;
                for k in b + 1..self.cells {
                    buf[k] = p[k - 1] + 1;
                }
                f(&Visit {
                    index: base + b as u64,
                    cells: &buf[..self.cells],
                    blank: b,
                    tile_inversions: sums[v],
                });
            }
        }
    }

    /// The cursor at `block`.
    fn cursor(&self, block: u64) -> Cursor {
        let mut r = if self.dense { 2 * block } else { block };
        let mut c = Cursor {
            block,
            p: [[0; MAX_CELLS]; 2],
            d: [[0; MAX_CELLS]; 2],
            parity: 0,
            low: 0,
            set: [0; TAIL],
            high_parity: 0,
        };
        for j in 0..self.n {
            let w = self.w[j] as u64;
            c.d[0][j] = (r / w) as u8;
            r %= w;
        }
        c.parity = (c.d[0][..self.n].iter().map(|&x| x as u32).sum::<u32>() & 1) as u8;
        self.rebuild(&mut c, 0);
        if self.tail.is_some() {
            let h = self.n - TAIL;
            c.low = block % LOWS;
            c.set.copy_from_slice(&c.p[0][h..self.n]);
            c.set.sort_unstable();
            c.high_parity = (c.d[0][..h].iter().map(|&x| x as u32).sum::<u32>() & 1) as u8;
        }
        c
    }

    /// Writes the last [`TAIL`] entries and digits of both variants from the table, for the
    /// cursor's low digits and set.
    #[inline]
    fn fill_tail(&self, t: &Tail, c: &mut Cursor) {
        let n = self.n;
        let h = n - TAIL;
        let order = &t.order[c.low as usize];
        let digits = &t.digits[c.low as usize];
        let [p0, p1] = &mut c.p;
        let [d0, d1] = &mut c.d;
        for i in 0..TAIL {
            let v = c.set[order[i] as usize];
            p0[h + i] = v;
            p1[h + i] = v;
            d0[h + i] = digits[i];
            d1[h + i] = digits[i];
        }
        p1[n - 2] = p0[n - 1];
        p1[n - 1] = p0[n - 2];
        d1[n - 2] = 1;
        c.parity = c.high_parity ^ t.parity[c.low as usize];
    }

    /// [`advance`](Self::advance) with a [`Tail`]: within the same higher digits a table
    /// lookup; otherwise the carry goes into the higher digits, whose entries are rebuilt from
    /// the highest that changed, and the tail follows from the set left over.
    #[inline]
    fn advance_tail(&self, t: &Tail, c: &mut Cursor, k: u64) {
        let low = c.low + k;
        c.block += k;
        if low < LOWS {
            c.low = low;
            self.fill_tail(t, c);
            return;
        }
        c.low = low % LOWS;
        let n = self.n;
        let h = n - TAIL;
        let (j, change) = add_digits(n, &mut c.d[0], h - 1, low / LOWS);
        c.high_parity ^= change;
        let [p0, p1] = &mut c.p;
        let [d0, d1] = &mut c.d;
        let mut free: u32 = p0[j..n].iter().fold(0, |m, &v| m | 1 << v);
        for j in j..h {
            let v = select_bit(free, d0[j] as u32) as u8;
            p0[j] = v;
            p1[j] = v;
            d1[j] = d0[j];
            free &= !(1 << v);
        }
        for s in c.set.iter_mut() {
            *s = free.trailing_zeros() as u8;
            free &= free - 1;
        }
        self.fill_tail(t, c);
    }

    /// Recomputes the tile sequences from digit `from` on (the entries before it are kept),
    /// given the first variant's digits. Both variants are written entry by entry: reading
    /// back byte-written entries as a whole array would stall on store forwarding.
    #[inline]
    fn rebuild(&self, c: &mut Cursor, from: usize) {
        let n = self.n;
        let [p0, p1] = &mut c.p;
        let [d0, d1] = &mut c.d;
        let mut free: u32 = if from == 0 {
            (1 << n) - 1
        } else {
            p0[from..n].iter().fold(0, |m, &v| m | 1 << v)
        };
        for j in from..n {
            let v = select_bit(free, d0[j] as u32) as u8;
            p0[j] = v;
            p1[j] = v;
            d1[j] = d0[j];
            free &= !(1 << v);
        }
        if self.dense {
            // The second variant: the last two entries swapped, digit n−2 set to 1.
            p1[n - 2] = p0[n - 1];
            p1[n - 1] = p0[n - 2];
            d1[n - 2] = 1;
        }
    }

    /// Moves the cursor to the next block: adds one to the mixed-radix number of Lehmer digits
    /// (digit `j` runs through `0..n−j`), from digit `n−3` for the dense index (the digit
    /// `n−2` is the parity choice, see [`variant`](Self::variant)) or `n−2` for the full one.
    #[inline]
    fn step(&self, c: &mut Cursor) {
        if let Some(t) = &self.tail {
            return self.advance_tail(t, c, 1);
        }
        let n = self.n;
        let d = &mut c.d[0];
        let mut j = if self.dense { n - 3 } else { n - 2 };
        loop {
            d[j] += 1;
            c.parity ^= 1;
            if (d[j] as usize) < n - j || j == 0 {
                break;
            }
            // The digit wraps from n−j to 0.
            c.parity ^= ((n - j) & 1) as u8;
            d[j] = 0;
            j -= 1;
        }
        self.rebuild(c, j);
        c.block += 1;
    }

    /// Moves the cursor `k` blocks forward: adds `k` to the mixed-radix number of Lehmer digits,
    /// carrying into higher digits only as far as needed, then rebuilds the tile sequence from
    /// the highest digit that changed. Costs about one [`step`](Self::step) when no carry
    /// reaches far, whatever `k`.
    #[inline]
    fn advance(&self, c: &mut Cursor, k: u64) {
        if let Some(t) = &self.tail {
            return self.advance_tail(t, c, k);
        }
        let n = self.n;
        let lowest = if self.dense { n - 3 } else { n - 2 };
        let (j, change) = add_digits(n, &mut c.d[0], lowest, k);
        c.parity ^= change;
        self.rebuild(c, j);
        c.block += k;
    }

    /// Which of the block's two tile sequences goes with the blank in `cell`: for the dense
    /// index, the one whose inversion parity the parity rule requires (`1`: the rank after
    /// the block's first); always `0` for the full index.
    #[inline]
    fn variant(&self, c: &Cursor, cell: usize) -> usize {
        if self.dense {
            (c.parity ^ self.parity[cell]) as usize
        } else {
            0
        }
    }

    /// The full rank of a variant of `c`'s block.
    #[inline]
    fn rank_of(&self, c: &Cursor, v: usize) -> i64 {
        if self.dense {
            (2 * c.block + v as u64) as i64
        } else {
            c.block as i64
        }
    }

    /// Full rank after the tile at sequence position `j0` moves to `j1 > j0` (the blank moves
    /// up a row): entries `j0+1..=j1` shift one place left.
    #[inline]
    fn rank_after_up(
        &self,
        p: &[u8; MAX_CELLS],
        d: &[u8; MAX_CELLS],
        r: i64,
        j0: usize,
        j1: usize,
    ) -> i64 {
        let w = &self.w;
        let t = p[j0];
        let mut delta = -(d[j0] as i64) * w[j0];
        let mut smaller = 0i64;
        for j in j0 + 1..=j1 {
            // An entry larger than t gains t as a smaller entry on its right.
            let less = (p[j] < t) as i64;
            smaller += less;
            delta += (d[j] as i64 + 1 - less) * w[j - 1] - d[j] as i64 * w[j];
        }
        delta += (d[j0] as i64 - smaller) * w[j1];
        r + delta
    }

    /// Full rank after the tile at sequence position `j1` moves to `j0 < j1` (the blank moves
    /// down a row): entries `j0..j1` shift one place right.
    #[inline]
    fn rank_after_down(
        &self,
        p: &[u8; MAX_CELLS],
        d: &[u8; MAX_CELLS],
        r: i64,
        j0: usize,
        j1: usize,
    ) -> i64 {
        let w = &self.w;
        let t = p[j1];
        let mut delta = -(d[j1] as i64) * w[j1];
        let mut smaller = 0i64;
        for j in j0..j1 {
            // An entry larger than t loses t, which now stands on its left.
            let less = (p[j] < t) as i64;
            smaller += less;
            delta += (d[j] as i64 - 1 + less) * w[j + 1] - d[j] as i64 * w[j];
        }
        delta += (d[j1] as i64 + smaller) * w[j0];
        r + delta
    }

    #[inline]
    fn block_of(&self, rank: i64) -> u64 {
        if self.dense {
            rank as u64 >> 1
        } else {
            rank as u64
        }
    }
}

impl Puzzle for SlideIndex {
    fn positions(&self) -> u64 {
        self.blocks * self.cells as u64
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.index_of(&self.grid.goal())]
    }

    fn neighbours<F: FnMut(u64)>(&self, pos: u64, f: F) {
        self.expand([pos], f);
    }

    fn expand<I, F>(&self, positions: I, mut f: F)
    where
        I: IntoIterator<Item = u64>,
        F: FnMut(u64),
    {
        self.expand_masked(positions.into_iter().map(|p| (p, 0)), |j, _| f(j));
    }
}

/// The blank's moves as mask bits (see [`Bipartite::expand_masked`]); left and right undo each
/// other, as do up and down.
const LEFT: u8 = 1;
const RIGHT: u8 = 2;
const UP: u8 = 4;
const DOWN: u8 = 8;

/// The graph is bipartite: a move takes the blank to a neighbouring cell, flipping the
/// parity of its taxicab distance from its home cell (the last one), and with it the parity of
/// the distance to the goal. The blank's cell is the fast-moving part of the index, so the side
/// of index `i` is that of cell `i mod N`.
impl Bipartite for SlideIndex {
    /// A sideways move changes only the blank's cell, the fast-moving part of the index.
    const ORDERED: u8 = LEFT | RIGHT;

    fn sides(&self) -> Vec<u8> {
        let g = self.grid;
        (0..self.cells)
            .map(|b| (g.taxicab(b, self.cells - 1) % 2) as u8)
            .collect()
    }

    /// Left (to `i − 1`) unless the blank is in the first column, right (to `i + 1`) unless
    /// it is in the last.
    fn ordered_steps(&self) -> Vec<u8> {
        let cols = self.grid.cols();
        (0..self.cells)
            .map(|b| {
                let col = self.col[b] as usize;
                (col > 0) as u8 | ((col + 1 < cols) as u8) << 1
            })
            .collect()
    }

    fn expand_masked<I, F>(&self, positions: I, mut f: F)
    where
        I: IntoIterator<Item = (u64, u8)>,
        F: FnMut(u64, u8),
    {
        let cells = self.cells as u64;
        let cols = self.grid.cols();
        let mut cursor: Option<Cursor> = None;
        for (here, skip) in positions {
            let (block, b) = self.by_cells.div_rem(here);
            let b = b as usize;
            let col = self.col[b] as usize;
            if col > 0 && skip & LEFT == 0 {
                f(here - 1, RIGHT);
            }
            if col + 1 < cols && skip & RIGHT == 0 {
                f(here + 1, LEFT);
            }
            let up = b >= cols && skip & UP == 0;
            let down = b + cols < self.cells && skip & DOWN == 0;
            if !up && !down {
                continue;
            }
            let c = match &mut cursor {
                Some(c) if c.block <= block => {
                    if c.block < block {
                        self.advance(c, block - c.block);
                    }
                    c
                }
                _ => cursor.insert(self.cursor(block)),
            };
            let v = self.variant(c, b);
            let (p, d, r) = (&c.p[v], &c.d[v], self.rank_of(c, v));
            if up {
                // The tile above slides down: it jumps from sequence place b−C to b−1.
                let r2 = self.rank_after_up(p, d, r, b - cols, b - 1);
                f(self.block_of(r2) * cells + (b - cols) as u64, DOWN);
            }
            if down {
                // The tile below slides up: it jumps from sequence place b+C−1 to b.
                let r2 = self.rank_after_down(p, d, r, b, b + cols - 1);
                f(self.block_of(r2) * cells + (b + cols) as u64, UP);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boards() -> Vec<Board> {
        [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]
            .iter()
            .map(|&(r, c)| Board::new(r as u32, c as u32).unwrap())
            .collect()
    }

    /// The neighbours' indices computed the slow way: move the tile, rank from scratch.
    fn slow_neighbours(ix: &SlideIndex, pos: &[u32]) -> Vec<u64> {
        let mut v: Vec<u64> = ix
            .grid()
            .slides(pos)
            .iter()
            .map(|s| ix.index_of(&s.leaves))
            .collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn rank_unrank_bijection_and_moves_match_slow_ranking() {
        for g in boards() {
            for ix in [SlideIndex::dense(g), SlideIndex::full(g)] {
                let n = ix.positions();
                let mut seen = vec![false; n as usize];
                for i in 0..n {
                    let pos = ix.arrangement(i);
                    g.check(&pos).unwrap();
                    if ix.is_dense() {
                        assert!(g.solvable(&pos), "{pos:?}");
                    }
                    assert_eq!(ix.index_of(&pos), i, "{g:?} {pos:?}");
                    seen[i as usize] = true;
                    let mut fast = Vec::new();
                    ix.neighbours(i, |j| fast.push(j));
                    fast.sort_unstable();
                    assert_eq!(fast, slow_neighbours(&ix, &pos), "{g:?} {pos:?}");
                }
                assert!(seen.iter().all(|&s| s));
            }
        }
    }

    #[test]
    fn advancing_matches_unranking() {
        for g in boards() {
            for ix in [SlideIndex::dense(g), SlideIndex::full(g)] {
                let blocks = ix.positions() / g.cells() as u64;
                for k in [1u64, 2, 3, 5, 7, 24, 100, 1000] {
                    let mut c = ix.cursor(0);
                    while c.block + k < blocks {
                        ix.advance(&mut c, k);
                        let fresh = ix.cursor(c.block);
                        assert_eq!((c.p, c.d, c.parity), (fresh.p, fresh.d, fresh.parity));
                    }
                }
            }
        }
    }

    #[test]
    fn visit_walks_arrangements_in_index_order() {
        for g in boards() {
            for ix in [SlideIndex::dense(g), SlideIndex::full(g)] {
                let n = ix.positions();
                for range in [0..n, 3..n - 5, n / 2..n / 2 + 1] {
                    let mut next = range.start;
                    ix.visit(range.clone(), |v| {
                        assert_eq!(v.index, next);
                        next += 1;
                        let pos = ix.arrangement(v.index);
                        let want: Vec<u8> = pos.iter().map(|&x| x as u8).collect();
                        assert_eq!(v.cells, &want[..]);
                        assert_eq!(v.blank, Board::blank(&pos));
                        assert_eq!(v.tile_inversions, Board::tile_inversions(&pos));
                    });
                    assert_eq!(next, range.end);
                }
            }
        }
    }

    #[test]
    fn the_move_back_leads_back() {
        // Frontier search relies on it: from a neighbour reached by some move, the bit `back`
        // names the one move that returns, and masking a position's moves leaves them out.
        for (r, c) in [(3, 3), (2, 4), (4, 4)] {
            let ix = SlideIndex::dense(Board::new(r, c).unwrap());
            let n = ix.positions();
            for i in (7..n).step_by((n / 5000).max(1) as usize).take(5000) {
                let mut all = Vec::new();
                ix.expand_masked([(i, 0)], |j, back| all.push((j, back)));
                let mut plain = Vec::new();
                ix.neighbours(i, |j| plain.push(j));
                assert_eq!(all.iter().map(|&(j, _)| j).collect::<Vec<_>>(), plain);
                for &(j, back) in &all {
                    assert_eq!(back.count_ones(), 1);
                    let mut again = Vec::new();
                    ix.expand_masked([(j, 0xf & !back)], |k, b| again.push((k, b)));
                    assert_eq!(again.len(), 1, "{r}x{c} position {i} neighbour {j}");
                    assert_eq!(again[0].0, i);
                    let mut rest = Vec::new();
                    ix.expand_masked([(j, back)], |k, _| rest.push(k));
                    assert!(!rest.contains(&i));
                }
            }
        }
    }

    #[test]
    fn ordered_steps_are_the_ordered_moves() {
        // The dense store makes the moves named by `ordered_steps` in bulk and asks
        // `expand_masked` for the rest with `ORDERED` masked: together, every move once.
        for g in boards() {
            let ix = SlideIndex::dense(g);
            let steps = ix.ordered_steps();
            assert_eq!(steps.len(), ix.sides().len());
            for i in 0..ix.positions() {
                let mut want = Vec::new();
                ix.neighbours(i, |j| want.push(j));
                let mut ordered = Vec::new();
                ix.expand_masked([(i, 0xf & !SlideIndex::ORDERED)], |j, _| ordered.push(j));
                let s = steps[(i % steps.len() as u64) as usize];
                let mut bulk = Vec::new();
                if s & 1 != 0 {
                    bulk.push(i - 1);
                }
                if s & 2 != 0 {
                    bulk.push(i + 1);
                }
                assert_eq!(ordered, bulk, "{g:?} {i}");
                let mut got = bulk;
                ix.expand_masked([(i, SlideIndex::ORDERED)], |j, _| got.push(j));
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want, "{g:?} {i}");
            }
        }
    }

    #[test]
    fn expanding_runs_matches_single_positions() {
        // Runs starting and ending mid-block, gaps longer than the step limit, going back.
        let g = Board::new(3, 3).unwrap();
        let ix = SlideIndex::dense(g);
        let n = ix.positions();
        let runs: Vec<Vec<u64>> = vec![
            (0..n).collect(),
            (5..n - 7).step_by(3).collect(),
            (13..n).step_by(97).collect(),
            (100..4000).step_by(1000).collect(),
            vec![9000, 10, 11, 500, 499],
        ];
        for run in runs {
            let mut got = Vec::new();
            ix.expand(run.iter().copied(), |j| got.push(j));
            let mut want = Vec::new();
            for &i in &run {
                ix.neighbours(i, |j| want.push(j));
            }
            assert_eq!(got, want);
        }
    }
}
