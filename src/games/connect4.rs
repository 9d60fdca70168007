//! Connect Four on a board of W columns and H rows: two players, `x` first, take turns
//! dropping a disc into a column that is not full, where it falls to the lowest empty cell;
//! whoever first has four discs in a row (across, up or diagonally) wins, and a full board
//! without such a row is a tie. The standard board is 7×6.
//!
//! Positions are read as the columns played from the empty board, 1-based, as the common
//! Connect Four solvers write them (`4453`; the empty string or `start` for the empty board;
//! on a board of more than 9 columns the numbers separated by commas), or as the board itself,
//! rows top first with `x`, `o` and `.`, separated by `/`. Answers write the board: the one
//! form every position of the table has (a board has many orders of play, and some boards of
//! the table none at all). A move is named by its column: `column 4`.
//!
//! The index holds every board whose discs stand on each other and whose counts can come from
//! play (as many `x` as `o`, or one more): by number of discs, the full board first and the
//! empty one last (every move adds a disc: no cycles); within a count `n`, by the heights of
//! the columns (ranked among the height profiles of `n` discs) and then by which of the `n`
//! discs, taken column by column from the bottom, are `o` (ranked among the `C(n, ⌊n/2⌋)`
//! choices). Each disc count is cut into tiers of at most `TIER` boards, so the engine's
//! scan of one tier stays small beside the two bytes a position the values take. Boards that
//! no play makes — both sides with four, four of the side that did not move last — are marked
//! as no position; which of the others the empty board reaches, the table marks too (a board
//! can be a position of the table and still be out of reach: a column with `o` at the bottom
//! and `x` above it, and nothing else on the board).

use std::ops::Range;

mod text;

use super::cells::{EMPTY, O, X};
use crate::game::{params, Arguments, GameSpec, Move, Param, Rules, View};
use crate::model::{Indexed, Standing, Tiered, ValueKind, Visit};
use crate::{Error, Result};

/// Most cells of a board: the standard 7×6 board (its index, 7·10^13 boards, is past any
/// machine of today; the size is allowed so that a build says what it would need).
pub(crate) const MAX_CELLS: u32 = 42;

/// Most boards in one tier: the engine keeps about 20 bytes for each board of the tier it
/// solves, so a tier of 2^24 boards costs some 300 MB beside the table.
pub(crate) const TIER: u64 = 1 << 24;

/// Parameters of a Connect Four table, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Connect4Spec {
    cols: u32,
    rows: u32,
}

impl Connect4Spec {
    /// Checks the board: at least one column and row, at most `MAX_CELLS` cells, and
    /// `cols · (rows + 1)` at most 64 (a board is one 64-bit word with a spare bit atop each
    /// column).
    pub fn new(cols: u32, rows: u32) -> Result<Connect4Spec> {
        if cols == 0
            || rows == 0
            || cols.saturating_mul(rows) > MAX_CELLS
            || cols.saturating_mul(rows + 1) > 64
        {
            return Err(Error::bad(format!(
                "--cols {cols} --rows {rows}: expected at least one column and row, at most \
                 {MAX_CELLS} cells, and cols × (rows + 1) at most 64"
            )));
        }
        Ok(Connect4Spec { cols, rows })
    }
}

impl GameSpec for Connect4Spec {
    const NAME: &'static str = "connect4";
    const ABOUT: &'static str =
        "Connect Four: drop discs in turn into the columns of a W×H board, four in a row wins";
    const PARAMS: &'static [Param] = &[
        Param::required(
            "cols",
            "W",
            "Columns of the board (7 on the standard board)",
        ),
        Param::required("rows", "H", "Rows of the board (6 on the standard board)"),
    ];
    const VALUES: &'static [ValueKind] = &[ValueKind::Remoteness, ValueKind::Wlt];

    fn view(&self) -> View {
        View::two_player(Connect4::new(self.clone()))
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        Connect4Spec::new(a.number("cols")?, a.number("rows")?)
    }

    fn parameters(&self) -> String {
        params::write(&[
            ("cols", Some(self.cols.to_string())),
            ("rows", Some(self.rows.to_string())),
        ])
    }

    fn describe(&self) -> String {
        let (w, h) = (self.cols, self.rows);
        let what = if (w, h) == (7, 6) {
            " (the standard board)"
        } else {
            ""
        };
        format!(
            "Connect Four on a {w}×{h} board{what}: {w} columns of {h}, discs dropped in turn, \
             four in a row wins, x first"
        )
    }

    fn samples() -> Vec<Self> {
        [(4, 3), (3, 4), (4, 1), (2, 2)]
            .into_iter()
            .filter_map(|(w, h)| Connect4Spec::new(w, h).ok())
            .collect()
    }
}

/// `comp[w][s]`: the height profiles of `w` columns of at most `h` discs holding `s` discs.
fn profiles(w: usize, h: usize) -> Vec<Vec<u64>> {
    let cells = w * h;
    let mut comp = vec![vec![0u64; cells + 1]; w + 1];
    comp[0][0] = 1;
    for k in 1..=w {
        for s in 0..=cells {
            comp[k][s] = (0..=h.min(s)).map(|d| comp[k - 1][s - d]).sum();
        }
    }
    comp
}

/// The next set of as many bits as `os` holds, in increasing order, while it stays within
/// `n` bits (Gosper's hack); `None` after the last or for no bits.
#[inline]
fn next_choice(os: u64, n: u32) -> Option<u64> {
    if os == 0 {
        return None;
    }
    let low = os & os.wrapping_neg();
    let up = os + low;
    let next = up | (((os ^ up) >> 2) / low);
    (n < 64 && next < 1u64 << n).then_some(next)
}

/// `C(n, k)` for `n ≤ cells` (at most 64, so every entry fits 64 bits).
fn pascal(cells: usize) -> Vec<Vec<u64>> {
    let mut c = vec![vec![0u64; cells + 2]; cells + 1];
    for n in 0..=cells {
        c[n][0] = 1;
        for k in 1..=n {
            c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
        }
    }
    c
}

/// Connect Four over its dense index. The solvers' side works on bit boards (bit
/// `c · (H + 1) + r` for column `c`, row `r` from the bottom, the bit above each column always
/// clear so that no line wraps), one for each side's discs; the rules' side on boards of cells,
/// row by row from the top.
pub struct Connect4 {
    w: usize,
    h: usize,
    cells: usize,
    /// `C(n, k)` at `n · (cells + 2) + k`.
    choose: Vec<u64>,
    /// For `wr` columns left holding `s` discs, the profiles whose next column is lower than
    /// `d`: at `(wr · (cells + 1) + s) · (h + 2) + d`.
    below: Vec<u64>,
    /// Where the boards of each disc count start, in index order (the most discs first), and
    /// where the last ends.
    counts_at: Vec<u64>,
    /// The first tier of each disc count, in index order, and the number of tiers: computed,
    /// not listed, since a board such as 21×2 has billions of tiers.
    tiers_at: Vec<u64>,
}

impl Connect4 {
    /// The game of `spec`: its index, made once.
    pub fn new(spec: Connect4Spec) -> Connect4 {
        let (w, h) = (spec.cols as usize, spec.rows as usize);
        let cells = w * h;
        let comp = profiles(w, h);
        let c = pascal(cells);
        let choose: Vec<u64> = c.iter().flat_map(|row| row.iter().copied()).collect();
        let mut below = vec![0u64; w * (cells + 1) * (h + 2)];
        for (wr, fewer) in comp.iter().take(w).enumerate() {
            for s in 0..=cells {
                let at = (wr * (cells + 1) + s) * (h + 2);
                for d in 0..=h {
                    let here = if d <= s { fewer[s - d] } else { 0 };
                    below[at + d + 1] = below[at + d] + here;
                }
            }
        }
        let (mut counts_at, mut tiers_at) = (vec![0], vec![0]);
        for n in (0..=cells).rev() {
            let size = comp[w][n] * c[n][n / 2];
            counts_at.push(counts_at[counts_at.len() - 1] + size);
            tiers_at.push(tiers_at[tiers_at.len() - 1] + size.div_ceil(TIER).max(1));
        }
        Connect4 {
            w,
            h,
            cells,
            choose,
            below,
            counts_at,
            tiers_at,
        }
    }

    #[inline(always)]
    fn c(&self, n: usize, k: usize) -> u64 {
        self.choose[n * (self.cells + 2) + k]
    }

    /// The bits of one column's cells, at the bottom of the word.
    fn column(&self) -> u64 {
        (1u64 << self.h) - 1
    }

    /// Whether the discs `b` hold four in a row: pairs one step apart, then pairs of pairs
    /// two steps apart, in each of the four directions.
    fn four(&self, b: u64) -> bool {
        let h = self.h as u32;
        [1, h + 1, h, h + 2].into_iter().any(|d| {
            let m = b & (b >> d);
            m & m.checked_shr(2 * d).unwrap_or(0) != 0
        })
    }

    /// Whether a board of legal counts is a position: not both sides with four, and four only
    /// of the side that moved last.
    /// The index of each position the moves of a board where play goes on lead to.
    fn children_bits(&self, x: u64, o: u64, mut f: impl FnMut(u64)) {
        let x_moves = (x | o).count_ones() % 2 == 0;
        for c in 0..self.w {
            if let Some(bit) = self.drop_bit(x | o, c) {
                f(if x_moves {
                    self.rank_bits(x | bit, o)
                } else {
                    self.rank_bits(x, o | bit)
                });
            }
        }
    }

    fn legal_bits(&self, x: u64, o: u64) -> bool {
        let x_moved_last = (x | o).count_ones() % 2 == 1;
        match (self.four(x), self.four(o)) {
            (true, true) => false,
            (true, false) => x_moved_last,
            (false, true) => !x_moved_last,
            (false, false) => true,
        }
    }

    /// Over: four of the side that just moved (lost for the player to move), or a full board
    /// (a tie).
    fn over_bits(&self, x: u64, o: u64) -> Option<Standing> {
        let n = (x | o).count_ones() as usize;
        let last = if n % 2 == 1 { x } else { o };
        if self.four(last) {
            Some(Standing::Lose)
        } else if n == self.cells {
            Some(Standing::Tie)
        } else {
            None
        }
    }

    /// The index of bit boards when play makes them: no disc over an empty cell (each
    /// column's discs are its lowest cells), as many x as o or one more, no four in a row of
    /// the side that did not move last.
    #[inline]
    fn entry_bits(&self, x: u64, o: u64) -> Option<u64> {
        let all = x | o;
        let grounded = (0..self.w).all(|c| {
            let col = (all >> (c * (self.h + 1))) & self.column();
            col & (col + 1) == 0
        });
        let (xs, os) = (x.count_ones(), o.count_ones());
        (grounded && (xs == os || xs == os + 1) && self.legal_bits(x, o))
            .then(|| self.rank_bits(x, o))
    }

    /// The index of a board given as bit boards.
    #[inline]
    fn rank_bits(&self, x: u64, o: u64) -> u64 {
        let (h, cells) = (self.h, self.cells);
        let all = x | o;
        let n = all.count_ones() as usize;
        let (mut rest, mut profile, mut os, mut at) = (n, 0u64, 0u64, 0);
        for c in 0..self.w {
            let height = ((all >> (c * (h + 1))) & self.column()).count_ones() as usize;
            profile += self.below[((self.w - 1 - c) * (cells + 1) + rest) * (h + 2) + height];
            rest -= height;
            os |= ((o >> (c * (h + 1))) & self.column()) << at;
            at += height;
        }
        let (mut colour, mut k) = (0u64, 0);
        while os != 0 {
            let j = os.trailing_zeros() as usize;
            os &= os - 1;
            k += 1;
            colour += self.c(j, k);
        }
        self.counts_at[cells - n] + profile * self.c(n, n / 2) + colour
    }

    /// The bit boards `(x, o)` at an index. The engine asks for the same index several times
    /// in a row (is it legal, is it over, its moves) and its sweeps go up the index one by
    /// one, so each thread keeps the last answer: the same index is that answer again, and
    /// the next one within the same column heights is the next choice of `o` discs (the
    /// colour ranks count those choices in increasing order of their bits).
    #[inline]
    fn unrank_bits(&self, index: u64) -> (u64, u64) {
        thread_local! {
            static LAST: std::cell::Cell<[u64; 6]> = const { std::cell::Cell::new([0; 6]) };
        }
        let [w, h, at, x, o, os] = LAST.with(|l| l.get());
        let here = (w as usize, h as usize) == (self.w, self.h);
        if here && at == index {
            return (x, o);
        }
        let all = x | o;
        let (x, o, os) = match next_choice(os, all.count_ones()) {
            Some(next) if here && at + 1 == index => {
                let (x, o) = self.spread(all, next);
                (x, o, next)
            }
            _ => self.unrank_fresh(index),
        };
        LAST.with(|l| l.set([self.w as u64, self.h as u64, index, x, o, os]));
        (x, o)
    }

    /// The bit boards of the board whose discs are `all`, the `o` among them being the set
    /// bits of `os` (one bit a disc, column by column from the bottom).
    #[inline]
    fn spread(&self, all: u64, os: u64) -> (u64, u64) {
        let (mut o, mut at) = (0u64, 0);
        for c in 0..self.w {
            let shift = c * (self.h + 1);
            let height = ((all >> shift) & self.column()).count_ones();
            o |= ((os >> at) & ((1u64 << height) - 1)) << shift;
            at += height;
        }
        (all & !o, o)
    }

    /// The bit boards and the choice of `o` discs at an index, from nothing kept.
    fn unrank_fresh(&self, index: u64) -> (u64, u64, u64) {
        let (h, cells) = (self.h, self.cells);
        let slot = self.counts_at.partition_point(|&s| s <= index) - 1;
        let n = cells - slot;
        let per = self.c(n, n / 2);
        let local = index - self.counts_at[slot];
        let (mut profile, mut colour) = (local / per, local % per);
        let mut os = 0u64;
        let mut j = n;
        for k in (1..=n / 2).rev() {
            j -= 1;
            while self.c(j, k) > colour {
                j -= 1;
            }
            colour -= self.c(j, k);
            os |= 1 << j;
        }
        let (mut all, mut rest) = (0u64, n);
        for c in 0..self.w {
            let base = ((self.w - 1 - c) * (cells + 1) + rest) * (h + 2);
            let mut height = 0;
            while height < h.min(rest) && profile >= self.below[base + height + 1] {
                height += 1;
            }
            profile -= self.below[base + height];
            all |= ((1u64 << height) - 1) << (c * (h + 1));
            rest -= height;
        }
        let (x, o) = self.spread(all, os);
        (x, o, os)
    }
}

impl Indexed for Connect4 {
    fn positions(&self) -> u64 {
        *self.counts_at.last().expect("one count at least")
    }
}

impl Tiered for Connect4 {
    fn tier_count(&self) -> u64 {
        *self.tiers_at.last().expect("one count at least")
    }
    fn tier(&self, t: u64) -> Range<u64> {
        let slot = self.tiers_at.partition_point(|&s| s <= t) - 1;
        let start = self.counts_at[slot] + (t - self.tiers_at[slot]) * TIER;
        start..(start + TIER).min(self.counts_at[slot + 1])
    }
    /// A disc count's boards in tiers of `TIER`: the largest tier is the largest count,
    /// or a whole tier.
    fn largest_tier(&self) -> u64 {
        self.counts_at
            .windows(2)
            .map(|w| (w[1] - w[0]).min(TIER))
            .max()
            .unwrap_or(0)
    }
    fn legal(&self, pos: u64) -> bool {
        let (x, o) = self.unrank_bits(pos);
        self.legal_bits(x, o)
    }
    fn terminal(&self, pos: u64) -> Option<Standing> {
        let (x, o) = self.unrank_bits(pos);
        self.over_bits(x, o)
    }
    fn children<F: FnMut(u64)>(&self, pos: u64, f: F) {
        let (x, o) = self.unrank_bits(pos);
        if self.over_bits(x, o).is_none() {
            self.children_bits(x, o, f);
        }
    }
    fn visit<F: FnMut(u64)>(&self, pos: u64, f: F) -> Visit {
        let (x, o) = self.unrank_bits(pos);
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
        self.w as u64
    }
    fn in_tier_moves(&self) -> bool {
        false
    }
    fn start_index(&self) -> Option<u64> {
        Some(self.positions() - 1)
    }
    /// A move adds one disc: from a count's tiers it reaches the boards of one more disc,
    /// which come just before them.
    fn lowest_reached(&self, t: u64) -> u64 {
        let slot = self.tiers_at.partition_point(|&s| s <= t) - 1;
        self.counts_at[slot.saturating_sub(1)]
    }
    /// The boards of two neighbouring counts, at the most.
    fn widest_reach(&self) -> u64 {
        self.counts_at
            .windows(3)
            .map(|w| w[2] - w[0])
            .chain(self.counts_at.get(1).copied())
            .max()
            .unwrap_or(0)
    }
}

impl Rules for Connect4 {
    fn parse(&self, text: &str) -> Result<Vec<u32>> {
        let text = text.trim();
        if text.is_empty() || text.eq_ignore_ascii_case("start") {
            return Ok(vec![EMPTY; self.cells]);
        }
        if text.contains(['/', '.', 'x', 'o', 'X', 'O']) {
            return self.parse_board(text);
        }
        let played = Connect4::columns(text).and_then(|cols| self.play(&cols));
        match played {
            Ok((x, o)) => Ok(self.board(x, o)),
            Err(why) => Err(Error::bad(format!(
                "position '{}': {why}; expected {}",
                crate::game::echo(text),
                self.position_form()
            ))),
        }
    }

    /// [`check`](Rules::check) and [`rank`](Rules::rank) of the board a text writes (a
    /// board, not the columns played), read without building an error.
    fn text_entry_index(&self, text: &str) -> Option<u64> {
        let text = text.trim();
        if !text.contains('/') {
            return None;
        }
        // Straight into the bit boards: row by row from the top, as `read_board` reads.
        let h = self.h;
        let (x, o) = super::cells::read_rows(text, h, self.w, |r, c| c * (h + 1) + h - 1 - r)?;
        self.entry_bits(x, o)
    }

    fn position_form(&self) -> String {
        let (w, h) = (self.w, self.h);
        let empty = vec![".".repeat(w); h].join("/");
        let sep = if w > 9 {
            "numbers 1 to W separated by commas"
        } else {
            "one digit each"
        };
        format!(
            "the columns played from the empty board, 1 to {w} ({sep}; the empty string or start \
             for the empty board), or the board: {h} rows of {w} cells, top first, separated by \
             '/', each x, o or . (the empty board is {empty}), as play can make it"
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        let n = self.cells;
        if pos.len() != n || pos.iter().any(|&v| v > O) {
            return crate::game::bad_position(
                self,
                pos,
                format!("expected {n} cells of 0 (empty), 1 (x) or 2 (o), row by row from the top"),
            );
        }
        crate::game::no_play_makes(self, pos, self.illegal(pos))
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        let (x, o) = self.bits(pos);
        self.rank_bits(x, o)
    }

    #[inline]
    fn entry_index(&self, pos: &[u32]) -> Option<u64> {
        if pos.len() != self.cells || pos.iter().any(|&v| v > O) {
            return None;
        }
        let (x, o) = self.bits(pos);
        self.entry_bits(x, o)
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        let (x, o) = self.unrank_bits(index);
        self.board(x, o)
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let (x, o) = self.bits(pos);
        if self.over_bits(x, o).is_some() {
            return Vec::new();
        }
        let x_moves = (x | o).count_ones() % 2 == 0;
        (0..self.w)
            .filter_map(|c| {
                let bit = self.drop_bit(x | o, c)?;
                let leaves = if x_moves {
                    self.board(x | bit, o)
                } else {
                    self.board(x, o | bit)
                };
                Some(Move {
                    label: format!("column {}", c + 1),
                    leaves,
                })
            })
            .collect()
    }

    fn terminal_standing(&self, pos: &[u32]) -> Option<Standing> {
        let (x, o) = self.bits(pos);
        self.over_bits(x, o)
    }

    fn start(&self) -> Option<Vec<u32>> {
        Some(vec![EMPTY; self.cells])
    }

    /// The rows, top first, with the column numbers a move names under them.
    fn board(&self, pos: &[u32]) -> String {
        let mut out = String::new();
        for row in pos.chunks(self.w) {
            for &v in row {
                out.push(match v {
                    X => 'x',
                    O => 'o',
                    _ => '.',
                });
                out.push(' ');
            }
            out.pop();
            out.push('\n');
        }
        let numbers: Vec<String> = (1..=self.w).map(|c| (c % 10).to_string()).collect();
        out + &numbers.join(" ")
    }

    fn format(&self, pos: &[u32]) -> String {
        pos.chunks(self.w)
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
    use crate::model::Indexed;
    use crate::{Spec, Table};

    fn table(w: u32, h: u32) -> Table {
        let spec = Spec::new(Connect4Spec::new(w, h).unwrap());
        Table::from_solved(&spec, spec.solve(ValueKind::Remoteness, &()).unwrap()).unwrap()
    }

    #[test]
    fn every_index_round_trips_and_the_counts_add_up() {
        for (w, h) in [(4, 3), (3, 4), (2, 2), (4, 1), (1, 4)] {
            let spec = Connect4Spec::new(w, h).unwrap();
            let g = Connect4::new(spec.clone());
            assert_eq!(
                crate::games::Spec::from(spec.clone()).positions(),
                g.positions()
            );
            for i in 0..Indexed::positions(&g) {
                let (x, o) = g.unrank_bits(i);
                let (fx, fo, _) = g.unrank_fresh(i);
                assert_eq!((x, o), (fx, fo), "{w}x{h} index {i}: the next choice");
                assert_eq!(x & o, 0);
                assert_eq!(g.rank_bits(x, o), i, "{w}x{h} index {i}");
            }
        }
    }

    /// The tiers cut the index in order, none past [`TIER`] boards nor across two disc counts:
    /// 5×5 has counts of more than 2^24 boards; 21×2, 8·10^16 boards, still builds its view.
    #[test]
    fn tiers_cut_each_disc_count_in_order() {
        for (w, h) in [(5, 5), (21, 2), (4, 4)] {
            let g = Connect4::new(Connect4Spec::new(w, h).unwrap());
            if w * h <= 25 {
                let walked = (0..g.tier_count())
                    .map(|t| g.tier(t).end - g.tier(t).start)
                    .max();
                assert_eq!(Some(g.largest_tier()), walked, "{w}x{h}");
            } else {
                // Billions of tiers: the memory a build states comes without walking them
                // (the parameters fuzz target found the walk).
                assert_eq!(g.largest_tier(), TIER, "{w}x{h}");
            }
            let mut at = 0;
            let mut cut = false;
            for t in (0..g.tier_count()).take(2000) {
                let r = g.tier(t);
                assert_eq!(r.start, at, "{w}x{h} tier {t}");
                assert!(
                    r.end > r.start && r.end - r.start <= TIER,
                    "{w}x{h} tier {t}"
                );
                let count = |i: u64| g.counts_at.partition_point(|&s| s <= i);
                assert_eq!(count(r.start), count(r.end - 1), "{w}x{h} tier {t}");
                cut |= r.end - r.start == TIER;
                at = r.end;
            }
            if (w, h) == (5, 5) {
                assert!(cut);
                assert_eq!(at, Indexed::positions(&g));
            }
        }
    }

    /// Every move from a tier lands at or past the tier's lowest reach, which never falls, and
    /// the widest reach covers each tier's: what lets a two-bit solve pack the rest.
    #[test]
    fn moves_reach_no_lower_than_the_tier_says() {
        for (w, h) in [(4, 3), (3, 4), (5, 2)] {
            let g = Connect4::new(Connect4Spec::new(w, h).unwrap());
            let mut last = 0;
            let mut widest = 0;
            for t in 0..g.tier_count() {
                let low = g.lowest_reached(t);
                assert!(low >= last, "{w}x{h} tier {t}");
                last = low;
                let r = g.tier(t);
                widest = widest.max(r.end - low);
                for pos in r {
                    g.children(pos, |c| assert!(c >= low, "{w}x{h}: {pos} moves to {c}"));
                }
            }
            assert_eq!(g.widest_reach(), widest, "{w}x{h}");
        }
    }

    #[test]
    fn sequences_play_and_bad_ones_say_why() {
        let t = table(4, 3);
        let a = t.query("1").unwrap();
        assert!(a.to_text().starts_with("..../..../x..."), "{}", a.to_text());
        assert_eq!(
            t.rules().format(&t.rules().parse("1213").unwrap()),
            "..../x.../xoo."
        );
        for (text, says) in [
            ("15", "move 2 is column 5, and the board has columns 1 to 4"),
            ("1111", "move 4 is column 1, which is full (3 discs)"),
            (
                "11223344",
                "comes after the game ended at move 7 (four in a row)",
            ),
            ("1a", "'a' is not a column number"),
            ("x.../..../....", "stands over an empty cell"),
        ] {
            let e = t.query(text).unwrap_err().to_string();
            assert!(e.contains(says) && e.contains("expected"), "{text}: {e}");
        }
    }
}
