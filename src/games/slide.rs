//! Sliding puzzles (Johnson & Story 1879; Chen Jingrun, "關于十五子的游戲"): R×C boards with tiles `1..R·C−1` and
//! one blank; a move slides a tile next to the blank into it. The goal holds the tiles in
//! reading order with the blank last. The table stores, for every arrangement that can reach
//! the goal, its distance in moves, one byte each, found by a breadth-first search from the
//! goal (moves are reversible, so distances from and to the goal agree).
//!
//! The tables' index, [`SlideIndex`], numbers the solvable arrangements densely and finds a
//! position's neighbours from its index without unranking it (its module tells how).

mod index;

use super::board::{move_label, Board};
use crate::format::Solved;
use crate::game::conformance::{self, Broken, Children};
use crate::game::{
    format_numbers, params, Arguments, Engine, Fact, GameSpec, Move, Param, Rules, Values, View,
};
use crate::model::{Indexed, ValueKind};
use crate::progress::Progress;
use crate::solve::bfs;
use crate::solve::Saves;
use crate::{Error, Result};

pub use index::SlideIndex;

/// Most cells of a board with a byte table (12! / 2 = 239,500,800 positions).
pub(crate) const MAX_TABLE_CELLS: usize = 12;

/// Most cells of a board `gamedb enumerate` handles (4×4, 3×5, 2×8): its 2-bit tables (the
/// mod3 encoding) hold boards past [`MAX_TABLE_CELLS`].
pub(crate) const MAX_ENUMERATED_CELLS: usize = 16;

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
    pub(crate) fn enumerated(rows: u32, cols: u32) -> Result<SlideSpec> {
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

    fn view(&self) -> View {
        View::with_engine(SlideRules::new(self.grid()))
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

    fn from_parameters(text: &str) -> Result<Self> {
        // Boards past 12 cells have 2-bit tables (`gamedb enumerate`), not built by `build`.
        let a = Arguments::parse(text)?;
        let board = SlideSpec::enumerated(a.number("rows")?, a.number("cols")?)?;
        if board.parameters() != text {
            return Err(Error::bad(format!(
                "parameters '{text}' are not written canonically (expected '{}')",
                board.parameters()
            )));
        }
        Ok(board)
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

    fn samples() -> Vec<Self> {
        [(2, 2), (2, 3), (3, 2)]
            .into_iter()
            .filter_map(|(r, c)| SlideSpec::new(r, c).ok())
            .collect()
    }
}

/// The lookup rules of a board: arrangements, the parity rule, moves.
pub(crate) struct SlideRules {
    grid: Board,
    index: SlideIndex,
}

impl SlideRules {
    /// The rules of `grid`.
    pub(crate) fn new(grid: Board) -> SlideRules {
        SlideRules {
            grid,
            index: SlideIndex::dense(grid),
        }
    }
}

/// A sliding puzzle is searched breadth first from its goal ([`Puzzle`](crate::solve::Puzzle)), not over `Game`.
impl Engine for SlideRules {
    fn solve(&self, _kind: ValueKind, progress: &dyn Progress, _: &dyn Saves) -> Result<Solved> {
        let (rows, cols) = (self.grid.rows(), self.grid.cols());
        if rows * cols > MAX_TABLE_CELLS {
            return Err(Error::bad(format!(
                "a byte table of the {rows}×{cols} board would not fit: byte tables stop at \
                 {MAX_TABLE_CELLS} cells; `gamedb enumerate slide --rows {rows} --cols {cols} \
                 --table` writes its 2-bit table"
            )));
        }
        let index = &self.index;
        let d = bfs::distances(index, progress)?;
        if d.reached() != index.positions() {
            return Err(Error::internal(format!(
                "the search reached {} of the {} solvable arrangements",
                d.reached(),
                index.positions()
            )));
        }
        Ok(Solved::Distances(d.values))
    }

    fn memory(&self, _kind: ValueKind) -> u64 {
        crate::solve::distances_memory(self.positions())
    }

    fn children(&self) -> std::result::Result<Option<Children>, Broken> {
        conformance::puzzle(&self.index).map(Some)
    }
}

impl Indexed for SlideRules {
    fn positions(&self) -> u64 {
        self.index.positions()
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

    /// The tiles in their rows, the blank as `.`.
    fn board(&self, pos: &[u32]) -> String {
        let width = (self.grid.rows() * self.grid.cols()).to_string().len();
        pos.chunks(self.grid.cols())
            .map(|row| {
                row.iter()
                    .map(|&t| match t {
                        0 => format!("{:>width$}", "."),
                        t => format!("{t:>width$}"),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
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
