//! m,n,k-games: two players, `x` first, take turns putting a mark on an empty cell of an m×n
//! board; whoever first has k marks in a row (across, down or diagonally) wins, and a full
//! board without such a row is a tie. Tic-tac-toe is the 3,3,3-game.
//!
//! Positions are written row by row, top first, with `x`, `o` and `.`, the rows separated by
//! `/`: `x.o/.x./...`. A move is named by its column letter and row number, rows counted from
//! the top as written: `b2` is the centre of tic-tac-toe.
//!
//! The index holds every board whose counts of marks can come from play (as many `x` as `o`,
//! or one more), tier by tier from the full board down to the empty one (every move adds a
//! mark, so leaves its tier: no cycles), each tier by the cells of each side
//! ([`super::cells`]). Boards that no play makes — both sides with a row, a row of the side
//! that did not move last — are marked as no position; which of the others the empty board
//! reaches, the table marks too.

use std::ops::Range;

use super::cells::{board_cells, Cells, Symmetries, EMPTY, O, X};
use super::starts::Starts;
use crate::game::{params, Arguments, GameSpec, Move, Param, Rules, View};
use crate::model::{Indexed, Standing, Tiered, ValueKind, Visit};
use crate::{Error, Result};

/// Most cells of a board (the 5×5 board has 3.6·10^11 boards of legal counts, past any table
/// this machine holds; 30 cells keep every rank in 64 bits with room).
pub(crate) const MAX_CELLS: u32 = 30;

/// Parameters of an m,n,k-game table, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct MnkSpec {
    rows: u32,
    cols: u32,
    k: u32,
}

impl MnkSpec {
    /// Checks the parameters: `rows`, `cols` ≥ 1 with `rows · cols` ≤ `MAX_CELLS`, and
    /// `1 ≤ k ≤ max(rows, cols)` (a longer row fits nowhere).
    pub fn new(rows: u32, cols: u32, k: u32) -> Result<MnkSpec> {
        if rows == 0 || cols == 0 || rows.saturating_mul(cols) > MAX_CELLS {
            return Err(Error::bad(format!(
                "--rows {rows} --cols {cols}: expected at least one row and column and at most {MAX_CELLS} cells"
            )));
        }
        if k == 0 || k > rows.max(cols) {
            return Err(Error::bad(format!(
                "--k {k}: expected 1..={} (a row longer than the board fits nowhere)",
                rows.max(cols)
            )));
        }
        Ok(MnkSpec { rows, cols, k })
    }
}

impl GameSpec for MnkSpec {
    const NAME: &'static str = "mnk";
    const ABOUT: &'static str =
        "m,n,k-games: put marks in turn on an m×n board, k in a row wins (tic-tac-toe is 3,3,3)";
    const PARAMS: &'static [Param] = &[
        Param::required("rows", "M", "Rows of the board"),
        Param::required("cols", "N", "Columns of the board"),
        Param::required("k", "K", "Marks in a row that win"),
    ];
    const VALUES: &'static [ValueKind] = &[ValueKind::Remoteness, ValueKind::Wlt];

    fn view(&self) -> View {
        View::two_player(Mnk::new(self.clone()))
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        MnkSpec::new(a.number("rows")?, a.number("cols")?, a.number("k")?)
    }

    fn parameters(&self) -> String {
        params::write(&[
            ("rows", Some(self.rows.to_string())),
            ("cols", Some(self.cols.to_string())),
            ("k", Some(self.k.to_string())),
        ])
    }

    fn describe(&self) -> String {
        let what = if (self.rows, self.cols, self.k) == (3, 3, 3) {
            " (tic-tac-toe)"
        } else {
            ""
        };
        format!(
            "the {},{},{}-game{what}: marks in turn on a {}×{} board, {} in a row wins, x first",
            self.rows, self.cols, self.k, self.rows, self.cols, self.k
        )
    }

    fn samples() -> Vec<Self> {
        [
            (3, 3, 3),
            (2, 3, 2),
            (3, 2, 3),
            (1, 4, 2),
            (2, 2, 2),
            (3, 3, 2),
        ]
        .into_iter()
        .filter_map(|(m, n, k)| MnkSpec::new(m, n, k).ok())
        .collect()
    }
}

/// Where each tier starts. Tier `t` holds the boards with `t` empty cells.
fn tier_starts(cells: &Cells) -> Starts {
    let n = cells.len();
    Starts::of_sizes((0..=n).map(|empty| {
        let marks = n - empty;
        cells.class_size(marks.div_ceil(2), marks / 2)
    }))
}

/// An m,n,k-game over its dense index. The solvers' side works on bit masks of each side's
/// marks (bit `c` for cell `c`, row-major), the rules' side on boards of cells.
pub(crate) struct Mnk {
    spec: MnkSpec,
    cells: Cells,
    starts: Starts,
    /// Every line of k cells, as a mask.
    lines: Vec<u64>,
    /// Every cell.
    full: u64,
    /// The board's rotations and reflections: the engine solves one board of each class.
    symmetries: Symmetries,
}

impl Mnk {
    /// The cells a text writes, unchecked (the message of text that is none names the form,
    /// built only then: lookups read millions of texts).
    fn read(&self, text: &str) -> Result<Vec<u32>> {
        let (rows, cols) = (self.spec.rows as usize, self.spec.cols as usize);
        board_cells(text.trim(), rows, cols, || self.position_form())
    }

    /// The index of the board of masks `x` and `o` when it is a position.
    #[inline]
    fn entry_of_bits(&self, x: u64, o: u64) -> Option<u64> {
        let (xs, os) = (x.count_ones(), o.count_ones());
        (xs == os || xs == os + 1)
            .then_some(())
            .filter(|_| self.legal_bits(x, o))
            .map(|_| self.index_of_bits(x, o))
    }

    /// The game of `spec`: its index and symmetries, made once.
    pub(crate) fn new(spec: MnkSpec) -> Mnk {
        let (rows, cols, k) = (spec.rows as i32, spec.cols as i32, spec.k as i32);
        let mut lines = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let (er, ec) = (r + dr * (k - 1), c + dc * (k - 1));
                    if (0..rows).contains(&er) && (0..cols).contains(&ec) {
                        lines.push(
                            (0..k).fold(0u64, |m, i| m | 1 << ((r + dr * i) * cols + c + dc * i)),
                        );
                    }
                }
            }
        }
        // A 1-in-a-row line is found once per direction: keep one.
        lines.sort_unstable();
        lines.dedup();
        let n = (spec.rows * spec.cols) as usize;
        let cells = Cells::new(n);
        let symmetries =
            Symmetries::new(n, &Symmetries::grid(spec.rows as usize, spec.cols as usize));
        Mnk {
            starts: tier_starts(&cells),
            cells,
            spec,
            lines,
            full: (1u64 << n) - 1,
            symmetries,
        }
    }

    fn has_line(&self, marks: u64) -> bool {
        self.lines.iter().any(|&line| line & !marks == 0)
    }

    /// Why a board of the right size is no position, or `None` for a position.
    fn illegal(&self, board: &[u32]) -> Option<String> {
        let (xb, ob) = Cells::bits(board);
        let (x, o) = (xb.count_ones(), ob.count_ones());
        if x != o && x != o + 1 {
            return Some(format!(
                "{x} x and {o} o: x moves first, so there are as many x as o or one more"
            ));
        }
        let (xl, ol) = (self.has_line(xb), self.has_line(ob));
        let k = self.spec.k;
        match (xl, ol) {
            (true, true) => Some(format!(
                "both sides have {k} in a row: play stops at the first"
            )),
            (true, false) if x == o => Some(format!(
                "x has {k} in a row but o moved after it: play stops there"
            )),
            (false, true) if x > o => Some(format!(
                "o has {k} in a row but x moved after it: play stops there"
            )),
            _ => None,
        }
    }

    /// Whether a board of legal counts (as every index holds) is a position: not both sides
    /// with a line, and a line only of the side that moved last.
    /// The index of each position the moves of a board where play goes on lead to.
    /// Calls `f` with each child, as the board that names its class.
    fn children_bits(&self, x: u64, o: u64, mut f: impl FnMut(u64)) {
        let x_moves = x.count_ones() == o.count_ones();
        let mut empty = self.full & !(x | o);
        while empty != 0 {
            let cell = empty & empty.wrapping_neg();
            empty &= empty - 1;
            let (x, o) = if x_moves {
                (x | cell, o)
            } else {
                (x, o | cell)
            };
            let (x, o) = self.symmetries.least(x, o);
            f(self.index_of_bits(x, o));
        }
    }

    fn legal_bits(&self, x: u64, o: u64) -> bool {
        let x_moved_last = x.count_ones() > o.count_ones();
        match (self.has_line(x), self.has_line(o)) {
            (true, true) => false,
            (true, false) => x_moved_last,
            (false, true) => !x_moved_last,
            (false, false) => true,
        }
    }

    /// The class of an index (its counts of x and o) and its rank within the class.
    fn class_at(&self, index: u64) -> (usize, usize, u64) {
        let t = self.starts.find(index);
        let marks = self.cells.len() - t;
        (marks.div_ceil(2), marks / 2, index - self.starts[t])
    }

    /// The masks of x and o at an index.
    fn bits_at(&self, index: u64) -> (u64, u64) {
        let (x, o, rank) = self.class_at(index);
        self.cells.unrank_bits(x, o, rank)
    }

    fn index_of_bits(&self, x: u64, o: u64) -> u64 {
        let empty = self.cells.len() - (x | o).count_ones() as usize;
        self.starts[empty] + self.cells.rank_bits(x, o)
    }

    /// Over: a line of the side that just moved (lost for the player to move), or a full
    /// board (a tie).
    fn over_bits(&self, x: u64, o: u64) -> Option<Standing> {
        let last = if x.count_ones() > o.count_ones() {
            x
        } else {
            o
        };
        if self.has_line(last) {
            Some(Standing::Lose)
        } else if x | o == self.full {
            Some(Standing::Tie)
        } else {
            None
        }
    }

    fn over(&self, board: &[u32]) -> Option<Standing> {
        let (x, o) = Cells::bits(board);
        self.over_bits(x, o)
    }

    fn cell_name(&self, c: usize) -> String {
        let cols = self.spec.cols as usize;
        format!("{}{}", (b'a' + (c % cols) as u8) as char, c / cols + 1)
    }
}

impl Indexed for Mnk {
    fn positions(&self) -> u64 {
        self.starts.total()
    }
}

impl Tiered for Mnk {
    fn tier_count(&self) -> u64 {
        self.starts.tiers() as u64
    }
    fn tier(&self, t: u64) -> Range<u64> {
        self.starts.range(t as usize)
    }
    fn legal(&self, pos: u64) -> bool {
        let (x, o) = self.bits_at(pos);
        self.legal_bits(x, o)
    }
    fn terminal(&self, pos: u64) -> Option<Standing> {
        let (x, o) = self.bits_at(pos);
        self.over_bits(x, o)
    }
    fn children<F: FnMut(u64)>(&self, pos: u64, f: F) {
        let (x, o) = self.bits_at(pos);
        if self.over_bits(x, o).is_none() {
            self.children_bits(x, o, f);
        }
    }
    fn visit<F: FnMut(u64)>(&self, pos: u64, f: F) -> Visit {
        let (x, o) = self.bits_at(pos);
        if self.symmetries.least(x, o) != (x, o) {
            return Visit::Image;
        }
        if !self.legal_bits(x, o) {
            return Visit::Illegal;
        }
        if let Some(v) = self.over_bits(x, o) {
            return Visit::Over(v);
        }
        self.children_bits(x, o, f);
        Visit::Moves
    }
    fn moves_bound(&self) -> u64 {
        self.cells.len() as u64
    }
    fn in_tier_moves(&self) -> bool {
        false
    }
    fn start_index(&self) -> Option<u64> {
        Some(self.positions() - 1)
    }
    fn symmetries(&self) -> u64 {
        self.symmetries.len() as u64
    }
    fn represents(&self, pos: u64) -> bool {
        let (x, o) = self.bits_at(pos);
        self.symmetries.least(x, o) == (x, o)
    }
    fn images<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
        let (x, o) = self.bits_at(pos);
        self.symmetries
            .images(x, o, |x, o| f(self.index_of_bits(x, o)));
    }
}

impl Rules for Mnk {
    fn parse(&self, text: &str) -> Result<Vec<u32>> {
        let board = self.read(text)?;
        self.check(&board)?;
        Ok(board)
    }

    /// [`check`](Rules::check) and [`rank`](Rules::rank) of the board a text writes, read
    /// straight into bits (no board, no error built): the lookups' path from text, which
    /// took twice as long through `Mnk::read`. Any text it does not take goes to `parse`.
    fn text_entry_index(&self, text: &str) -> Option<u64> {
        let (rows, cols) = (self.spec.rows as usize, self.spec.cols as usize);
        let (x, o) = super::cells::read_rows(text, rows, cols, |r, c| r * cols + c)?;
        self.entry_of_bits(x, o)
    }

    fn position_form(&self) -> String {
        let (rows, cols) = (self.spec.rows as usize, self.spec.cols as usize);
        let example = vec![".".repeat(cols); rows].join("/");
        format!(
            "{rows} rows of {cols} cells, top first, separated by '/', each cell x, o or . \
             (the empty board is {example}), as play can make it"
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        let n = self.cells.len();
        if pos.len() != n || pos.iter().any(|&v| v > O) {
            return crate::game::bad_position(
                self,
                pos,
                format!("expected {n} cells of 0 (empty), 1 (x) or 2 (o)"),
            );
        }
        crate::game::no_play_makes(self, pos, self.illegal(pos))
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        let (x, o) = Cells::bits(pos);
        self.index_of_bits(x, o)
    }

    #[inline]
    fn entry_index(&self, pos: &[u32]) -> Option<u64> {
        if pos.len() != self.cells.len() || pos.iter().any(|&v| v > O) {
            return None;
        }
        let (x, o) = Cells::bits(pos);
        self.entry_of_bits(x, o)
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        let (x, o, rank) = self.class_at(index);
        let mut board = Vec::new();
        self.cells.unrank(x, o, rank, &mut board);
        board
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        if self.over(pos).is_some() {
            return Vec::new();
        }
        let (x, o) = Cells::counts(pos);
        let side = if x == o { X } else { O };
        (0..pos.len())
            .filter(|&c| pos[c] == EMPTY)
            .map(|c| {
                let mut leaves = pos.to_vec();
                leaves[c] = side;
                Move {
                    label: self.cell_name(c),
                    leaves,
                }
            })
            .collect()
    }

    fn terminal_standing(&self, pos: &[u32]) -> Option<Standing> {
        self.over(pos)
    }

    fn start(&self) -> Option<Vec<u32>> {
        Some(vec![EMPTY; self.cells.len()])
    }

    fn board(&self, pos: &[u32]) -> String {
        super::cells::grid_board(self.spec.cols as usize, pos)
    }

    fn format(&self, pos: &[u32]) -> String {
        let cols = self.spec.cols as usize;
        pos.chunks(cols)
            .map(|row| {
                row.iter()
                    .map(|&v| match v {
                        X => 'x',
                        O => 'o',
                        _ => '.',
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::entries::standing;
    use crate::{Spec, Table};

    fn table(m: u32, n: u32, k: u32) -> Table {
        let spec = Spec::new(MnkSpec::new(m, n, k).unwrap());
        Table::from_solved(&spec, spec.solve(ValueKind::Remoteness, &()).unwrap()).unwrap()
    }

    /// Tic-tac-toe: a tie in 9 from the empty board; 5,478 positions reachable from it, 958
    /// of them where the game is over.
    #[test]
    fn tic_tac_toe_is_a_tie_with_5478_reachable_positions() {
        let t = table(3, 3, 3);
        let a = t.query(".../.../...").unwrap();
        let s = a.standing().unwrap();
        assert_eq!((s.value, s.remoteness), (Standing::Tie, Some(9)));
        let (mut reachable, mut over) = (0, 0);
        let rules = t.rules();
        for i in 0..t.len() {
            let e = t.raw(i);
            if standing::reachable(e) {
                reachable += 1;
                if rules.terminal_standing(&rules.unrank(i)).is_some() {
                    over += 1;
                }
            }
        }
        assert_eq!((reachable, over), (5478, 958));
        // x in a corner, o on an edge beside it: x wins.
        let a = t.query("xo./.../...").unwrap();
        assert_eq!(a.standing().unwrap().value, Standing::Win);
        assert_eq!(
            a.to_text().split("  ").next().unwrap(),
            "xo./.../...: win in 5"
        );
    }

    #[test]
    fn bad_boards_say_what_is_wrong() {
        let t = table(3, 3, 3);
        for (text, says) in [
            ("xxx/ooo/...", "both sides"),
            ("xx./.../...", "as many x as o or one more"),
            ("xxx/oo./o..", "o moved after it"),
            ("xx/.../...", "row 1 has 2 cells"),
            ("xo./...", "2 rows instead of 3"),
            ("xq./.../...", "'q' is not a cell"),
        ] {
            let e = t.query(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
