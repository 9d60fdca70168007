//! Quixo (Gigamic), as GamesmanOne (the GamesCrafters' solver) states its rules: an N×N board
//! of cubes, each blank or showing `x` or `o`; `x` moves first. A move takes a cube of the
//! outer ring that is blank or shows the mover's symbol and pushes it back in, showing the
//! mover's symbol, at another end of its row or of its column (a corner cube has two such
//! ends, any other edge cube three), the cubes between shifting one step. A line of N of one
//! symbol (a row, a column or a long diagonal) wins; when a move makes lines of both symbols,
//! the player to move next (the one who did not make it) wins. Cubes never leave the board, so
//! play can go on forever: draws exist, ties do not.
//!
//! Positions are the rows, top first, separated by `/`, each cell `x`, `o` or `.`, then a comma
//! and the side to move: `x.o/.x./...,o`. A move names the cube taken and where it goes in,
//! columns as letters and rows counted from the top: `a1>c1` takes the top-left cube and
//! pushes it in at the top-right, shifting `b1` and `c1` one step left.
//!
//! The index holds every board (3^(N·N)) with either side to move, in tiers by the counts of
//! `x` and `o` ([`super::cells`]), the tier of the most cubes first and the empty board's
//! last: a move keeps the counts or adds one cube of the mover's, so it stays in its tier
//! (cycles, which the engine solves) or goes to a lower one. Within a tier the index is
//! `2 · rank + side` (0 for `x` to move, 1 for `o`). An index is a position when:
//! * the counts can come from play: with `x` to move the empty board or at least one cube of
//!   each side; with `o` to move one `x` and nothing else, or at least one of each (each
//!   player's first move turns a blank, and counts never go down);
//! * and, when the board has a line, some move of the side that did not move next makes it
//!   from a board without a line whose counts can come from play with that side to move
//!   (play stops at the first line, so any line was made by the last move).
//!
//! The others are marked as no position; which positions the empty board reaches, the table
//! marks too.

use std::ops::{ControlFlow, Range};

use super::cells::{Cells, Symmetries, EMPTY, O, X};
use super::starts::Starts;
use crate::game::{params, Arguments, GameSpec, Move, Param, Rules, View};
use crate::model::{Indexed, Standing, Tiered, ValueKind, Visit};
use crate::{Error, Result};

/// The smallest board side (on a 1×1 board no cube has another end to go to).
pub(crate) const MIN_SIZE: u32 = 2;
/// The largest board side a table may be asked for (the 5×5 index, 2·3^25 entries, is past
/// what the memory check allows on any machine of today).
pub(crate) const MAX_SIZE: u32 = 5;

/// Parameters of a Quixo table, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct QuixoSpec {
    size: u32,
}

impl QuixoSpec {
    /// Checks the side of the board: `MIN_SIZE..=MAX_SIZE`.
    pub fn new(size: u32) -> Result<QuixoSpec> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(Error::bad(format!(
                "--size {size}: expected {MIN_SIZE}..={MAX_SIZE} (the side of the board)"
            )));
        }
        Ok(QuixoSpec { size })
    }
}

impl GameSpec for QuixoSpec {
    const NAME: &'static str = "quixo";
    const ABOUT: &'static str =
        "Quixo: push a blank or own cube from the edge back in at the end of its row or column, N in a row wins";
    const PARAMS: &'static [Param] = &[Param::required(
        "size",
        "N",
        "Side of the board, 2..=5 (5 needs terabytes)",
    )];
    const VALUES: &'static [ValueKind] = &[ValueKind::Remoteness, ValueKind::Wlt];

    fn view(&self) -> View {
        View::two_player(Quixo::new(self.clone()))
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        QuixoSpec::new(a.number("size")?)
    }

    fn parameters(&self) -> String {
        params::write(&[("size", Some(self.size.to_string()))])
    }

    fn describe(&self) -> String {
        let n = self.size;
        format!(
            "Quixo on a {n}×{n} board: push a blank or own cube from the edge back in at the end \
             of its row or column, {n} in a row wins, x first"
        )
    }

    fn samples() -> Vec<Self> {
        [2, 3]
            .into_iter()
            .filter_map(|n| QuixoSpec::new(n).ok())
            .collect()
    }
}

/// One move's geometry, as bit masks of cells: the cube taken at `from` goes in at `to`, the
/// cubes between shifting one step towards `from`.
struct Push {
    from: usize,
    to: usize,
    /// Every cell of the path from `from` to `to`.
    path: u64,
    /// The cells of the path but `from`: the cubes that shift.
    shifted: u64,
    /// From one cell of the path to the next: ±1 along a row, ±N along a column.
    step: i32,
}

impl Push {
    /// Cubes at `c + step` to `c`.
    fn back(&self, m: u64) -> u64 {
        if self.step > 0 {
            m >> self.step
        } else {
            m << -self.step
        }
    }
    /// Cubes at `c` to `c + step`.
    fn on(&self, m: u64) -> u64 {
        if self.step > 0 {
            m << self.step
        } else {
            m >> -self.step
        }
    }
    /// The masks of the mover's and the other side's cubes after the mover's push.
    fn apply(&self, mine: u64, theirs: u64) -> (u64, u64) {
        (
            (mine & !self.path) | self.back(mine & self.shifted) | 1 << self.to,
            (theirs & !self.path) | self.back(theirs & self.shifted),
        )
    }
    /// The masks before the push (which must have left the mover's cube at `to`), the taken
    /// cube having been the mover's (`was_mine`) or blank.
    fn undo(&self, mine: u64, theirs: u64, was_mine: bool) -> (u64, u64) {
        let stays = self.path & !(1 << self.to);
        (
            (mine & !self.path) | self.on(mine & stays) | u64::from(was_mine) << self.from,
            (theirs & !self.path) | self.on(theirs & stays),
        )
    }
}

/// Why a board is no position (the words come when they are asked for).
enum Fault {
    Counts,
    Line,
}

/// Quixo over its dense index.
pub struct Quixo {
    spec: QuixoSpec,
    cells: Cells,
    /// Where each tier starts.
    starts: Starts,
    /// The class (x, o) of each tier.
    classes: Vec<(usize, usize)>,
    /// The tier of class (x, o), at `x · (cells + 1) + o`.
    tier_of: Vec<usize>,
    /// Every move's geometry, by the cube taken (row-major), then where it goes in.
    pushes: Vec<Push>,
    /// Every line of N cells, as bit masks of cells.
    lines: Vec<u64>,
    /// The square's rotations and reflections: the engine solves one board of each class.
    symmetries: Symmetries,
}

fn other(side: u32) -> u32 {
    if side == X {
        O
    } else {
        X
    }
}

fn side_name(side: u32) -> char {
    if side == X {
        'x'
    } else {
        'o'
    }
}

impl Quixo {
    /// The game of `spec`: its index and symmetries, made once.
    pub fn new(spec: QuixoSpec) -> Quixo {
        let n = spec.size as usize;
        let cells = Cells::new(n * n);
        let mut classes = Vec::new();
        let mut tier_of = vec![usize::MAX; (n * n + 1) * (n * n + 1)];
        for total in (0..=n * n).rev() {
            for x in 0..=total {
                let o = total - x;
                tier_of[x * (n * n + 1) + o] = classes.len();
                classes.push((x, o));
            }
        }
        let starts = Starts::of_sizes(classes.iter().map(|&(x, o)| 2 * cells.class_size(x, o)));
        let at = |r: usize, c: usize| r * n + c;
        let mut pushes = Vec::new();
        for r in 0..n {
            for c in 0..n {
                if r != 0 && r != n - 1 && c != 0 && c != n - 1 {
                    continue;
                }
                let mut ends = Vec::new();
                for e in [at(r, 0), at(r, n - 1), at(0, c), at(n - 1, c)] {
                    if e != at(r, c) && !ends.contains(&e) {
                        ends.push(e);
                    }
                }
                ends.sort_unstable();
                for e in ends {
                    let (er, ec) = (e / n, e % n);
                    let cells: Vec<usize> = if er == r {
                        if ec > c {
                            (c..=ec).map(|k| at(r, k)).collect()
                        } else {
                            (ec..=c).rev().map(|k| at(r, k)).collect()
                        }
                    } else if er > r {
                        (r..=er).map(|k| at(k, c)).collect()
                    } else {
                        (er..=r).rev().map(|k| at(k, c)).collect()
                    };
                    pushes.push(Push {
                        from: cells[0],
                        to: cells[cells.len() - 1],
                        path: cells.iter().fold(0, |m, &c| m | 1 << c),
                        shifted: cells[1..].iter().fold(0, |m, &c| m | 1 << c),
                        step: cells[1] as i32 - cells[0] as i32,
                    });
                }
            }
        }
        let mask = |it: &mut dyn Iterator<Item = usize>| it.fold(0u64, |m, c| m | 1 << c);
        let mut lines = Vec::new();
        for k in 0..n {
            lines.push(mask(&mut (0..n).map(|c| at(k, c))));
            lines.push(mask(&mut (0..n).map(|r| at(r, k))));
        }
        lines.push(mask(&mut (0..n).map(|i| at(i, i))));
        lines.push(mask(&mut (0..n).map(|i| at(i, n - 1 - i))));
        Quixo {
            spec,
            cells,
            starts,
            classes,
            tier_of,
            pushes,
            lines,
            symmetries: Symmetries::new(n * n, &Symmetries::square(n)),
        }
    }

    fn size(&self) -> usize {
        self.spec.size as usize
    }

    /// Whether the cubes of `m` make a line.
    fn has_line(&self, m: u64) -> bool {
        self.lines.iter().any(|&l| l & !m == 0)
    }

    /// The masks of the player to move and of the other, from the masks of x and o.
    fn sides(x: u64, o: u64, side: u32) -> (u64, u64) {
        if side == X {
            (x, o)
        } else {
            (o, x)
        }
    }

    /// Why counts of `x` x and `o` o with `side` to move cannot come from play, or `None`.
    fn bad_counts(x: usize, o: usize, side: u32) -> Option<String> {
        Quixo::bad_counts_at(x, o, side).then(|| {
            format!(
                "{x} x and {o} o with {} to move: the first move of each player turns a blank and \
                 counts never go down, so play makes the empty board with x to move, one x \
                 alone with o to move, or at least one of each",
                side_name(side)
            )
        })
    }

    /// Whether counts of `x` x and `o` o with `side` to move cannot come from play.
    fn bad_counts_at(x: usize, o: usize, side: u32) -> bool {
        let fine = match side {
            X => (x, o) == (0, 0) || (x >= 1 && o >= 1),
            _ => (x, o) == (1, 0) || (x >= 1 && o >= 1),
        };
        !fine
    }

    /// Why a board of the right size with `side` to move is no position, or `None`.
    fn illegal(&self, board: &[u32], side: u32) -> Option<String> {
        let (x, o) = Cells::bits(board);
        let fault = self.fault(x, o, side)?;
        let (xs, os) = (x.count_ones() as usize, o.count_ones() as usize);
        Some(match fault {
            Fault::Counts => Quixo::bad_counts(xs, os, side).unwrap_or_default(),
            Fault::Line => {
                let who = match (self.has_line(x), self.has_line(o)) {
                    (true, true) => "both sides have a line",
                    (true, false) => "x has a line",
                    _ => "o has a line",
                };
                format!(
                    "{who}, and no move of {} from a board without a line makes it (play stops \
                     at the first line)",
                    side_name(other(side))
                )
            }
        })
    }

    /// [`illegal`](Quixo::illegal) on the masks of x and o, without the words.
    fn fault(&self, x: u64, o: u64, side: u32) -> Option<Fault> {
        let (xs, os) = (x.count_ones() as usize, o.count_ones() as usize);
        if Quixo::bad_counts_at(xs, os, side) {
            return Some(Fault::Counts);
        }
        if !self.has_line(x) && !self.has_line(o) {
            return None;
        }
        // A line was made by the last move, of the other side, from a board without one.
        let last = other(side);
        let (theirs, mine) = Quixo::sides(x, o, last);
        for p in &self.pushes {
            if theirs >> p.to & 1 == 0 {
                continue;
            }
            for was_theirs in [false, true] {
                let (t, m) = p.undo(theirs, mine, was_theirs);
                let (bx, bo) = if last == X { (t, m) } else { (m, t) };
                if !Quixo::bad_counts_at(bx.count_ones() as usize, bo.count_ones() as usize, last)
                    && !self.has_line(bx)
                    && !self.has_line(bo)
                {
                    return None;
                }
            }
        }
        Some(Fault::Line)
    }

    /// The masks of x and o and the side to move at an index.
    fn bits_at(&self, index: u64) -> (u64, u64, u32) {
        let t = self.starts.find(index);
        let (x, o) = self.classes[t];
        let local = index - self.starts[t];
        let (xb, ob) = self.cells.unrank_bits(x, o, local / 2);
        (xb, ob, if local % 2 == 0 { X } else { O })
    }

    fn board_at(&self, index: u64, board: &mut Vec<u32>) -> u32 {
        let (x, o, side) = self.bits_at(index);
        board.clear();
        self.cells.extend_board(x, o, board);
        side
    }

    /// The index of the board of the class of `(x, o)` that names it, with `side` to move.
    fn least_index_of(&self, x: u64, o: u64, side: u32) -> u64 {
        let (x, o) = self.symmetries.least(x, o);
        self.index_of(x, o, side)
    }

    fn index_of(&self, x: u64, o: u64, side: u32) -> u64 {
        let (xs, os) = (x.count_ones() as usize, o.count_ones() as usize);
        let t = self.tier_of[xs * (self.cells.len() + 1) + os];
        self.starts[t] + 2 * self.cells.rank_bits(x, o) + u64::from(side == O)
    }

    /// The value of a position where the game is over, for the player to move.
    fn over(&self, x: u64, o: u64, side: u32) -> Option<Standing> {
        let (mine, theirs) = Quixo::sides(x, o, side);
        if self.has_line(mine) {
            Some(Standing::Win)
        } else if self.has_line(theirs) {
            Some(Standing::Lose)
        } else {
            None
        }
    }

    /// Calls `f` with each move of a position where play goes on and the masks of x and o it
    /// leaves.
    fn each_move(&self, x: u64, o: u64, side: u32, mut f: impl FnMut(&Push, u64, u64)) {
        let (mine, theirs) = Quixo::sides(x, o, side);
        for p in &self.pushes {
            if theirs >> p.from & 1 != 0 {
                continue;
            }
            let (m, t) = p.apply(mine, theirs);
            if side == X {
                f(p, m, t)
            } else {
                f(p, t, m)
            }
        }
    }

    fn cell_name(&self, c: usize) -> String {
        let n = self.size();
        format!("{}{}", (b'a' + (c % n) as u8) as char, c / n + 1)
    }
}

impl Indexed for Quixo {
    fn positions(&self) -> u64 {
        self.starts.total()
    }
}

impl Tiered for Quixo {
    fn tier_count(&self) -> u64 {
        self.classes.len() as u64
    }
    fn tier(&self, t: u64) -> Range<u64> {
        self.starts.range(t as usize)
    }
    fn legal(&self, pos: u64) -> bool {
        let (x, o, side) = self.bits_at(pos);
        self.fault(x, o, side).is_none()
    }
    fn terminal(&self, pos: u64) -> Option<Standing> {
        let (x, o, side) = self.bits_at(pos);
        self.over(x, o, side)
    }
    fn children<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
        let (x, o, side) = self.bits_at(pos);
        if self.over(x, o, side).is_some() {
            return;
        }
        let next = other(side);
        self.each_move(x, o, side, |_, x, o| f(self.least_index_of(x, o, next)));
    }
    fn visit<F: FnMut(u64)>(&self, pos: u64, mut f: F) -> Visit {
        let (x, o, side) = self.bits_at(pos);
        if self.symmetries.least(x, o) != (x, o) {
            return Visit::Image;
        }
        if self.fault(x, o, side).is_some() {
            return Visit::Illegal;
        }
        if let Some(v) = self.over(x, o, side) {
            return Visit::Over(v);
        }
        let next = other(side);
        self.each_move(x, o, side, |_, x, o| f(self.least_index_of(x, o, next)));
        Visit::Moves
    }
    fn moves_bound(&self) -> u64 {
        self.pushes.len() as u64
    }
    fn in_tier_moves(&self) -> bool {
        true
    }
    fn start_index(&self) -> Option<u64> {
        // The empty board is the last tier's only board; x to move is its first index.
        Some(self.positions() - 2)
    }
    fn symmetries(&self) -> u64 {
        self.symmetries.len() as u64
    }
    fn represents(&self, pos: u64) -> bool {
        let (x, o, _) = self.bits_at(pos);
        self.symmetries.least(x, o) == (x, o)
    }
    fn images<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
        let (x, o, side) = self.bits_at(pos);
        self.symmetries
            .images(x, o, |x, o| f(self.index_of(x, o, side)));
    }
    fn lists_parents(&self) -> bool {
        true
    }
    fn parents<F: FnMut(u64) -> ControlFlow<()>>(&self, pos: u64, mut f: F) -> ControlFlow<()> {
        // The last move was the other side's and left its cube at the end of the push; the
        // cube it took was blank or its own. A board with a line had no moves.
        let (x, o, side) = self.bits_at(pos);
        let last = other(side);
        let (mover, rest) = Quixo::sides(x, o, last);
        for p in &self.pushes {
            if mover >> p.to & 1 == 0 {
                continue;
            }
            for was_mine in [false, true] {
                let (m, r) = p.undo(mover, rest, was_mine);
                if self.has_line(m) || self.has_line(r) {
                    continue;
                }
                let (bx, bo) = if last == X { (m, r) } else { (r, m) };
                f(self.least_index_of(bx, bo, last))?;
            }
        }
        ControlFlow::Continue(())
    }
}

impl Rules for Quixo {
    fn parse(&self, text: &str) -> Result<Vec<u32>> {
        let n = self.size();
        let form = self.position_form();
        let text = text.trim();
        let echo = crate::game::echo(text);
        let Some((rows_text, side_text)) = text.rsplit_once(',') else {
            return Err(Error::bad(format!(
                "position '{echo}': no side to move; expected {form}"
            )));
        };
        let side = match side_text.trim() {
            "x" | "X" => X,
            "o" | "O" => O,
            other => {
                return Err(Error::bad(format!(
                    "position '{echo}': '{}' is not a side to move; expected {form}",
                    crate::game::echo(other)
                )))
            }
        };
        let lines: Vec<&str> = rows_text.split('/').collect();
        if lines.len() != n {
            return Err(Error::bad(format!(
                "position '{echo}': {} instead of {n}; expected {form}",
                crate::game::counted(lines.len(), "row")
            )));
        }
        let mut pos = Vec::with_capacity(n * n + 1);
        for (r, line) in lines.iter().enumerate() {
            let count = line.chars().count();
            if count != n {
                return Err(Error::bad(format!(
                    "position '{echo}': row {} has {} instead of {n}; expected {form}",
                    r + 1,
                    crate::game::counted(count, "cell")
                )));
            }
            for ch in line.chars() {
                pos.push(match ch {
                    '.' => EMPTY,
                    'x' | 'X' => X,
                    'o' | 'O' => O,
                    other => {
                        return Err(Error::bad(format!(
                            "position '{echo}': '{}' is not a cell; expected {form}",
                            other.escape_debug()
                        )))
                    }
                });
            }
        }
        pos.push(side);
        self.check(&pos)?;
        Ok(pos)
    }

    fn position_form(&self) -> String {
        let n = self.size();
        let example = vec![".".repeat(n); n].join("/");
        format!(
            "{n} rows of {n} cells, top first, separated by '/', each cell x, o or ., then ',' \
             and the side to move, x or o (the start is {example},x), as play can make it"
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        let cells = self.cells.len();
        if pos.len() != cells + 1
            || pos[..cells].iter().any(|&v| v > O)
            || !matches!(pos[cells], X | O)
        {
            return crate::game::bad_position(
                self,
                pos,
                format!(
                    "expected {cells} cells of 0 (blank), 1 (x) or 2 (o), then the side to \
                     move, 1 (x) or 2 (o)"
                ),
            );
        }
        crate::game::no_play_makes(self, pos, self.illegal(&pos[..cells], pos[cells]))
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        let cells = self.cells.len();
        let (x, o) = Cells::bits(&pos[..cells]);
        self.index_of(x, o, pos[cells])
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        let mut board = Vec::new();
        let side = self.board_at(index, &mut board);
        board.push(side);
        board
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let cells = self.cells.len();
        let (x, o) = Cells::bits(&pos[..cells]);
        let side = pos[cells];
        if self.over(x, o, side).is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        self.each_move(x, o, side, |p, x, o| {
            let mut leaves = Vec::with_capacity(cells + 1);
            self.cells.extend_board(x, o, &mut leaves);
            leaves.push(other(side));
            out.push(Move {
                label: format!("{}>{}", self.cell_name(p.from), self.cell_name(p.to)),
                leaves,
            });
        });
        out
    }

    fn terminal_standing(&self, pos: &[u32]) -> Option<Standing> {
        let cells = self.cells.len();
        let (x, o) = Cells::bits(&pos[..cells]);
        self.over(x, o, pos[cells])
    }

    fn start(&self) -> Option<Vec<u32>> {
        let mut pos = vec![EMPTY; self.cells.len()];
        pos.push(X);
        Some(pos)
    }

    fn board(&self, pos: &[u32]) -> String {
        let cells = self.cells.len().min(pos.len());
        let grid = super::cells::grid_board(self.size(), &pos[..cells]);
        match pos.get(cells) {
            Some(&side) => format!("{grid}\n{} to move", side_name(side)),
            None => grid,
        }
    }

    fn format(&self, pos: &[u32]) -> String {
        let n = self.size();
        let cells = self.cells.len();
        let rows = pos[..cells.min(pos.len())]
            .chunks(n)
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
            .join("/");
        match pos.get(cells) {
            Some(&side) => format!("{rows},{}", side_name(side)),
            None => rows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Indexed;
    use crate::{Spec, Table};

    fn table(n: u32) -> Table {
        let spec = Spec::new(QuixoSpec::new(n).unwrap());
        Table::from_solved(&spec, spec.solve(ValueKind::Remoteness, &()).unwrap()).unwrap()
    }

    #[test]
    fn moves_push_the_row_or_column() {
        let q = Quixo::new(QuixoSpec::new(3).unwrap());
        let start = q.start().unwrap();
        let moves = q.moves(&start);
        // 4 corners with 2 ends, 4 edge cubes with 3.
        assert_eq!(moves.len(), 20);
        assert_eq!(q.moves_bound(), 20);
        let pos = q.parse("xo./.../...,x").unwrap();
        let got: Vec<(String, String)> = q
            .moves(&pos)
            .into_iter()
            .map(|m| (m.label, q.format(&m.leaves)))
            .collect();
        // o's cube at b1 cannot be taken by x; x's own at a1 can.
        assert!(!got.iter().any(|(l, _)| l.starts_with("b1>")), "{got:?}");
        for (label, leaves) in [
            ("a1>c1", "o.x/.../...,o"),
            ("a1>a3", ".o./.../x..,o"),
            ("c1>a1", "xxo/.../...,o"),
            ("b3>b1", "xx./.o./...,o"),
            ("c2>a2", "xo./x../...,o"),
        ] {
            assert!(
                got.contains(&(label.to_string(), leaves.to_string())),
                "{label}: {got:?}"
            );
        }
    }

    #[test]
    fn lines_end_the_game_and_the_player_to_move_wins_a_double() {
        let q = Quixo::new(QuixoSpec::new(3).unwrap());
        let s = |t: &str| q.terminal_standing(&q.parse(t).unwrap());
        assert_eq!(s("xxx/oo./...,o"), Some(Standing::Lose));
        assert_eq!(s("xxx/oo./o..,x"), Some(Standing::Win));
        assert_eq!(s("xo./xo./...,x"), None);
        // x took a1 and pushed it in at a3 (from .xx/xoo/o..): both sides have a line, and o,
        // to move, wins.
        assert_eq!(s("xxx/ooo/x..,o"), Some(Standing::Win));
    }

    #[test]
    fn boards_no_play_makes_are_refused() {
        let t = table(3);
        for (text, says) in [
            ("x../.../...,x", "1 x and 0 o with x to move"),
            ("o../.../...,o", "0 x and 1 o with o to move"),
            ("xxx/ooo/ooo,x", "no move of o from a board without a line"),
            ("x.x/.../...", "no side to move"),
            ("x../.../...,y", "'y' is not a side to move"),
            ("xq./.../...,x", "'q' is not a cell"),
            ("xo./...,x", "2 rows instead of 3"),
        ] {
            let e = t.query(text).unwrap_err().to_string();
            assert!(e.contains(says) && e.contains("expected"), "{text}: {e}");
        }
        let a = t.query(".../.../...,x").unwrap();
        assert!(a.standing().is_some());
    }

    /// 2×2 Quixo: any two cubes of one side are in a line, so x's second cube wins unless o
    /// prevents it; whatever the value, the start's is a fact of the rules, checked against
    /// an independent solver in `tests/quixo.rs`.
    #[test]
    fn the_two_by_two_board_solves() {
        let t = table(2);
        let a = t.query("../..,x").unwrap();
        assert!(a.standing().is_some());
    }

    /// Quixo solved board by board: no class folded, every child as the move leaves it.
    struct Whole(Quixo);

    impl Indexed for Whole {
        fn positions(&self) -> u64 {
            Indexed::positions(&self.0)
        }
    }

    impl Tiered for Whole {
        fn tier_count(&self) -> u64 {
            self.0.tier_count()
        }
        fn tier(&self, t: u64) -> Range<u64> {
            self.0.tier(t)
        }
        fn legal(&self, pos: u64) -> bool {
            self.0.legal(pos)
        }
        fn terminal(&self, pos: u64) -> Option<Standing> {
            Tiered::terminal(&self.0, pos)
        }
        fn children<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
            let (x, o, side) = self.0.bits_at(pos);
            if self.0.over(x, o, side).is_none() {
                let next = other(side);
                self.0
                    .each_move(x, o, side, |_, x, o| f(self.0.index_of(x, o, next)));
            }
        }
        fn moves_bound(&self) -> u64 {
            self.0.moves_bound()
        }
        fn start_index(&self) -> Option<u64> {
            self.0.start_index()
        }
    }

    #[test]
    fn folding_the_squares_symmetries_changes_no_byte_of_the_table() {
        use crate::solve::two_player::solve_standings;
        for n in [2, 3] {
            let folded = Quixo::new(QuixoSpec::new(n).unwrap());
            assert_eq!(Tiered::symmetries(&folded), 8);
            let whole = Whole(Quixo::new(QuixoSpec::new(n).unwrap()));
            assert_eq!(
                solve_standings(&folded, &()).unwrap(),
                solve_standings(&whole, &()).unwrap(),
                "{n}x{n}"
            );
        }
    }
}
