//! Board geometry of sliding-tile puzzles: cells, neighbours, the goal, the parity invariant,
//! positions as written by people, and the reflection about the main diagonal.
//!
//! A board has `rows × cols` cells numbered in reading order (`cell = row·cols + col`). A
//! position lists the tile on each cell in reading order, `0` for the blank. The goal holds
//! tile `t` on cell `t − 1` and the blank on the last cell. A move slides a tile into the
//! adjacent blank; it is named by the tile and the direction the tile travels
//! (`slide 12 up`: the 12 was below the blank). This one module serves the complete tables
//! (`slide`), the pattern databases (`pdb`) and the solver (`fifteen`).
//!
//! The *tile sequence* of an arrangement is its tiles in reading order, the blank skipped, each
//! lowered by one (values `0..R·C−1`). Permutations are ranked in lexicographic order through
//! their Lehmer code (`lex_rank`); see the "Game 4" section of `tables/README.md`.

use crate::solve::Grid;
use crate::{Error, Result};

/// Most cells a board may have (cell sets are `u64` masks).
pub(crate) const MAX_CELLS: usize = 64;

/// Most cells of a board whose arrangements are ranked as whole permutations
/// ([`Board::tile_sequence`] fills 16-entry work arrays; `slide` tables stop at 12 cells).
pub(crate) const SEQ_CELLS: usize = 16;

/// The direction a tile travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards the last row.
    Down,
    /// Towards column 0.
    Left,
    /// Towards the last column.
    Right,
}

impl Dir {
    /// `up`, `down`, `left`, `right`.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }
}

/// The label of a move, the same everywhere (queries, `solve`): `slide 12 up`.
pub fn move_label(tile: u32, dir: Dir) -> String {
    format!("slide {tile} {}", dir.name())
}

/// One move of a solution: a tile and the way it slides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The tile that slides.
    pub tile: u32,
    /// The way it slides.
    pub dir: Dir,
}

impl Step {
    /// `slide 12 up`: [`move_label`].
    pub(crate) fn label(&self) -> String {
        move_label(self.tile, self.dir)
    }
}

/// One move of an arrangement, with the arrangement it leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slide {
    /// The tile that slides.
    pub tile: u32,
    /// The way it slides.
    pub dir: Dir,
    /// The arrangement it leaves.
    pub leaves: Vec<u32>,
}

/// A rectangular board of at least 2×2 cells and at most `MAX_CELLS` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
}

impl Board {
    /// Checks the dimensions.
    pub fn new(rows: u32, cols: u32) -> Result<Board> {
        if rows < 2 || cols < 2 || (rows as u64) * (cols as u64) > MAX_CELLS as u64 {
            return Err(Error::bad(format!(
                "board {rows}x{cols}: expected --rows and --cols of at least 2 with at most \
                 {MAX_CELLS} cells in all"
            )));
        }
        Ok(Board {
            rows: rows as usize,
            cols: cols as usize,
        })
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// `RxC`, as used in file names.
    pub fn name(&self) -> String {
        format!("{}x{}", self.rows, self.cols)
    }

    /// The mask of every cell.
    pub fn all(&self) -> u64 {
        if self.cells() == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells()) - 1
        }
    }

    /// The cells adjacent to `cell`, as a mask.
    pub fn neighbours(&self, cell: usize) -> u64 {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let mut m = 0u64;
        if r > 0 {
            m |= 1 << (cell - self.cols);
        }
        if r + 1 < self.rows {
            m |= 1 << (cell + self.cols);
        }
        if c > 0 {
            m |= 1 << (cell - 1);
        }
        if c + 1 < self.cols {
            m |= 1 << (cell + 1);
        }
        m
    }

    /// The cells of `free` connected to `seed` through cells of `free` (`seed ⊆ free`).
    #[inline]
    pub(crate) fn flood(&self, seed: u64, free: u64) -> u64 {
        let cols = self.cols as u32;
        // Cells of the first and last column: a shift by one must not wrap between rows.
        let (first, last) = self.column_masks();
        let mut x = seed;
        loop {
            let grown =
                (x | (x << cols) | (x >> cols) | ((x << 1) & !first) | ((x >> 1) & !last)) & free;
            if grown == x {
                return x;
            }
            x = grown;
        }
    }

    fn column_masks(&self) -> (u64, u64) {
        let mut first = 0u64;
        for r in 0..self.rows {
            first |= 1 << (r * self.cols);
        }
        (first, first << (self.cols - 1))
    }

    /// The goal: tile `t` on cell `t − 1`, the blank on the last cell.
    pub fn goal(&self) -> Vec<u32> {
        let n = self.cells() as u32;
        (1..n).chain(std::iter::once(0)).collect()
    }

    /// The goal with its last two tiles swapped, which every unsolvable arrangement reaches.
    pub(crate) fn swapped_goal(&self) -> Vec<u32> {
        let mut g = self.goal();
        let n = g.len();
        g.swap(n - 3, n - 2);
        g
    }

    /// Row of a cell, 0 at the top.
    pub fn row(&self, cell: usize) -> usize {
        cell / self.cols
    }

    /// Column of a cell, 0 at the left.
    pub fn col(&self, cell: usize) -> usize {
        cell % self.cols
    }

    /// The cell where tile `t` (`1..cells`) belongs.
    pub fn home(&self, tile: u32) -> usize {
        tile as usize - 1
    }

    /// Taxicab distance between two cells.
    pub(crate) fn taxicab(&self, a: usize, b: usize) -> u32 {
        let (ra, ca) = (a / self.cols, a % self.cols);
        let (rb, cb) = (b / self.cols, b % self.cols);
        (ra.abs_diff(rb) + ca.abs_diff(cb)) as u32
    }

    /// The direction of travel from cell `from` to the adjacent cell `to`.
    pub fn direction(&self, from: usize, to: usize) -> Dir {
        if to + self.cols == from {
            Dir::Up
        } else if from + self.cols == to {
            Dir::Down
        } else if to + 1 == from {
            Dir::Left
        } else {
            Dir::Right
        }
    }

    /// How arrangements are written, for error messages.
    pub(crate) fn position_form(&self) -> String {
        format!(
            "the {} cells of the {}×{} board in reading order, tiles 1..={} once each and 0 for the blank (the goal is {})",
            self.cells(),
            self.rows,
            self.cols,
            self.cells() - 1,
            crate::game::format_numbers(&self.goal())
        )
    }

    /// Checks that `pos` is an arrangement of this board: a permutation of `0..R·C`.
    pub fn check(&self, pos: &[u32]) -> Result<()> {
        let n = self.cells();
        // Formatted only on failure: checks sit on the lookup hot path.
        let text = || crate::game::quote(pos);
        if pos.len() != n {
            return Err(Error::bad(format!(
                "position '{}' has {}, a {}×{} board has {n} cells; expected {}",
                text(),
                crate::game::counted(pos.len(), "number"),
                self.rows,
                self.cols,
                self.position_form()
            )));
        }
        let mut seen = 0u64;
        for &v in pos {
            if v as usize >= n {
                return Err(Error::bad(format!(
                    "position '{}': {v} is not a tile of a {}×{} board; expected {}",
                    text(),
                    self.rows,
                    self.cols,
                    self.position_form()
                )));
            }
            if seen >> v & 1 == 1 {
                let what = if v == 0 {
                    "the blank 0".to_string()
                } else {
                    format!("tile {v}")
                };
                return Err(Error::bad(format!(
                    "position '{}': {what} appears twice; expected {}",
                    text(),
                    self.position_form()
                )));
            }
            seen |= 1 << v;
        }
        Ok(())
    }

    /// Parses and checks a position (`8,6,7,2,5,4,3,0,1`; spaces allowed around commas).
    pub fn parse(&self, text: &str) -> Result<Vec<u32>> {
        let tiles = crate::game::parse_numbers(text, self.position_form())?;
        self.check(&tiles)?;
        Ok(tiles)
    }

    /// The blank's cell in a checked arrangement.
    pub fn blank(pos: &[u32]) -> usize {
        pos.iter()
            .position(|&v| v == 0)
            .expect("a checked arrangement has a blank")
    }

    /// The tile sequence of a checked arrangement: its tiles in reading order, the blank
    /// skipped, each lowered by one; written into `seq`, its length returned.
    pub(crate) fn tile_sequence(pos: &[u32], seq: &mut [u8; SEQ_CELLS]) -> usize {
        let mut k = 0;
        for &v in pos {
            if v != 0 {
                seq[k] = (v - 1) as u8;
                k += 1;
            }
        }
        k
    }

    /// Inversions of the tiles read row by row, the blank skipped: pairs of tiles with the
    /// larger one first. Counted pair by pair, straight from the definition.
    pub(crate) fn tile_inversions(pos: &[u32]) -> u32 {
        let tiles: Vec<u32> = pos.iter().copied().filter(|&v| v != 0).collect();
        let mut inv = 0;
        for i in 0..tiles.len() {
            for j in i + 1..tiles.len() {
                inv += (tiles[i] > tiles[j]) as u32;
            }
        }
        inv
    }

    /// The blank's row counted from the bottom, from 0.
    pub(crate) fn row_from_bottom(&self, cell: usize) -> usize {
        self.rows - 1 - self.row(cell)
    }

    /// The parity the tile inversion count must have, with the blank at `cell`, for the
    /// arrangement to reach the goal (the parity rule of Johnson & Story 1879, in the general
    /// form of Chen Jingrun's note on the 15-puzzle): even with an
    /// odd number of columns; the parity of the blank's row from the bottom with an even one.
    pub(crate) fn required_parity(&self, cell: usize) -> u32 {
        if self.cols % 2 == 1 {
            0
        } else {
            (self.row_from_bottom(cell) % 2) as u32
        }
    }

    /// Whether a checked arrangement can reach the goal, by the parity rule.
    pub fn solvable(&self, pos: &[u32]) -> bool {
        Board::tile_inversions(pos) % 2 == self.required_parity(Board::blank(pos))
    }

    /// Why a checked arrangement cannot reach the goal, or `None` when it can.
    pub(crate) fn why_unsolvable(&self, pos: &[u32]) -> Option<String> {
        if self.solvable(pos) {
            return None;
        }
        let inv = Board::tile_inversions(pos);
        let inversions = if inv == 1 {
            "1 inversion".to_string()
        } else {
            format!("{inv} inversions")
        };
        let swapped = crate::game::format_numbers(&self.swapped_goal());
        Some(if self.cols % 2 == 1 {
            format!(
                "the tiles read row by row (blank skipped) have {inversions}, an odd number; with an \
                 odd number of columns every move keeps the parity of that count, which is even at \
                 the goal, so this arrangement reaches {swapped} (the last two tiles swapped) instead"
            )
        } else {
            let row = self.row_from_bottom(Board::blank(pos));
            format!(
                "{inversions} of the tiles read row by row (blank skipped) plus the blank's row {row} \
                 (counted from the bottom, from 0) make {}, an odd number; with an even number of \
                 columns every move keeps the parity of that sum, which is even at the goal, so this \
                 arrangement reaches {swapped} (the last two tiles swapped) instead",
                inv as usize + row
            )
        })
    }

    /// Every move of a checked arrangement: the tiles next to the blank, in the order up,
    /// down, left, right of the way they slide.
    pub fn slides(&self, pos: &[u32]) -> Vec<Slide> {
        let b = Board::blank(pos);
        let mut out = Vec::with_capacity(4);
        let mut push = |from: usize, dir: Dir| {
            let mut leaves = pos.to_vec();
            leaves.swap(from, b);
            out.push(Slide {
                tile: pos[from],
                dir,
                leaves,
            });
        };
        if b + self.cols < self.cells() {
            push(b + self.cols, Dir::Up);
        }
        if b >= self.cols {
            push(b - self.cols, Dir::Down);
        }
        if self.col(b) + 1 < self.cols {
            push(b + 1, Dir::Left);
        }
        if self.col(b) > 0 {
            push(b - 1, Dir::Right);
        }
        out
    }

    /// The parity every solution length of a solvable arrangement has: that of the blank's
    /// taxicab distance to its goal cell (each move changes it by one).
    pub fn length_parity(&self, tiles: &[u32]) -> u32 {
        let blank = tiles.iter().position(|&t| t == 0).expect("checked");
        self.taxicab(blank, self.cells() - 1) % 2
    }

    /// Sum over tiles of the taxicab distance to their home cells (a lower bound on the
    /// number of moves).
    pub fn manhattan(&self, tiles: &[u32]) -> u32 {
        tiles
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(cell, &t)| self.taxicab(cell, self.home(t)))
            .sum()
    }

    /// Slides the tile on `from` into the blank on the adjacent cell `to`.
    pub fn slide(&self, tiles: &mut [u32], from: usize, to: usize) {
        debug_assert_eq!(tiles[to], 0);
        debug_assert!(self.neighbours(from) >> to & 1 == 1);
        tiles.swap(from, to);
    }

    /// Applies a move named by tile and direction; `None` if the tile cannot travel that way.
    pub fn apply(&self, tiles: &mut [u32], tile: u32, dir: Dir) -> Option<()> {
        let from = tiles.iter().position(|&t| t == tile)?;
        let to = tiles.iter().position(|&t| t == 0)?;
        if tile == 0 || self.neighbours(from) >> to & 1 == 0 || self.direction(from, to) != dir {
            return None;
        }
        self.slide(tiles, from, to);
        Some(())
    }

    /// True for square boards, whose reflection about the main diagonal is a symmetry.
    pub(crate) fn is_square(&self) -> bool {
        self.rows == self.cols
    }

    /// The cell `(r, c)` ↦ `(c, r)` of a square board.
    pub(crate) fn reflect_cell(&self, cell: usize) -> usize {
        debug_assert!(self.is_square());
        (cell % self.cols) * self.cols + cell / self.cols
    }

    /// The tile whose home is the reflection of tile `t`'s home (0 stays 0). Reflecting a
    /// position — every tile `t` on cell `x` becomes tile `reflect_tile(t)` on cell
    /// `reflect_cell(x)` — maps the goal to itself and moves to moves, so it keeps distances.
    pub(crate) fn reflect_tile(&self, tile: u32) -> u32 {
        if tile == 0 {
            0
        } else {
            self.reflect_cell(self.home(tile)) as u32 + 1
        }
    }

    /// The reflected position of a square board.
    pub fn reflect(&self, tiles: &[u32]) -> Vec<u32> {
        let mut out = vec![0; tiles.len()];
        for (cell, &t) in tiles.iter().enumerate() {
            out[self.reflect_cell(cell)] = self.reflect_tile(t);
        }
        out
    }
}

/// The board as the token search of pattern databases sees it.
impl Grid for Board {
    fn cells(&self) -> usize {
        Board::cells(self)
    }

    fn neighbours(&self, cell: usize) -> u64 {
        Board::neighbours(self, cell)
    }

    #[inline]
    fn flood(&self, seed: u64, free: u64) -> u64 {
        Board::flood(self, seed, free)
    }
}

/// `FACTORIAL[k] = k!` for `k <= 20`.
pub(crate) const FACTORIAL: [u64; 21] = {
    let mut f = [1u64; 21];
    let mut k = 1;
    while k < 21 {
        f[k] = f[k - 1] * k as u64;
        k += 1;
    }
    f
};

/// Lexicographic rank of a permutation `seq` of `0..seq.len()`: `Σ d_i · (n−1−i)!` where the
/// Lehmer digit `d_i` counts the entries right of position `i` that are smaller than `seq[i]`.
/// The sum of the digits is the number of inversions.
pub(crate) fn lex_rank(seq: &[u8]) -> u64 {
    let n = seq.len();
    let mut rest: u32 = (1u32 << n) - 1;
    let mut rank = 0;
    for (i, &v) in seq.iter().enumerate() {
        let d = (rest & ((1u32 << v) - 1)).count_ones() as u64;
        rest &= !(1u32 << v);
        rank += d * FACTORIAL[n - 1 - i];
    }
    rank
}

/// The permutation of `0..seq.len()` of lexicographic rank `rank`, written into `seq` (the
/// tests' inverse of [`lex_rank`]).
#[cfg(test)]
pub(crate) fn lex_unrank(rank: u64, seq: &mut [u8]) {
    let n = seq.len();
    let mut rest: u32 = (1u32 << n) - 1;
    let mut r = rank;
    for (i, slot) in seq.iter_mut().enumerate() {
        let w = FACTORIAL[n - 1 - i];
        let d = (r / w) as u32;
        r %= w;
        let v = select_bit(rest, d);
        *slot = v as u8;
        rest &= !(1u32 << v);
    }
}

/// Position of the `k`-th (from 0) lowest set bit of `mask`.
#[inline]
pub(crate) fn select_bit(mut mask: u32, k: u32) -> u32 {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        let b = Board::new(3, 4).unwrap();
        assert_eq!(b.neighbours(0), 0b10010);
        assert_eq!(b.neighbours(5), (1 << 1) | (1 << 4) | (1 << 6) | (1 << 9));
        assert_eq!(b.neighbours(11), (1 << 7) | (1 << 10));
        // Flood does not wrap from the end of one row to the start of the next.
        let free = (1 << 3) | (1 << 4);
        assert_eq!(b.flood(1 << 3, free), 1 << 3);
        assert_eq!(
            b.flood(1, 0b111 | (1 << 6) | (1 << 10)),
            0b111 | (1 << 6) | (1 << 10)
        );
        assert!(b.solvable(&b.goal()));
        let mut swapped = b.goal();
        swapped.swap(9, 10);
        assert!(!b.solvable(&swapped));
        assert!(Board::new(1, 5).is_err());
        assert!(Board::new(8, 9).is_err());
        assert!(Board::new(8, 8).is_ok());
    }

    #[test]
    fn reflection_maps_goal_to_goal() {
        for n in 2..=8u32 {
            let b = Board::new(n, n).unwrap();
            assert_eq!(b.reflect(&b.goal()), b.goal());
        }
    }

    #[test]
    fn ranks_are_lexicographic_and_count_inversions() {
        for (n, &count) in FACTORIAL.iter().enumerate().take(8).skip(1) {
            let mut prev: Option<Vec<u8>> = None;
            for r in 0..count {
                let mut s = vec![0u8; n];
                lex_unrank(r, &mut s);
                assert_eq!(lex_rank(&s), r);
                if let Some(p) = prev {
                    assert!(p < s, "rank order is lexicographic");
                }
                prev = Some(s);
            }
        }
        let s = [2u8, 0, 3, 1];
        // digits 2,0,1,0: 2·3! + 0·2! + 1·1! = 13; inversions (2,0),(2,1),(3,1) = 3 = 2+0+1.
        assert_eq!(lex_rank(&s), 13);
    }

    #[test]
    fn bad_arrangements_are_named() {
        let g = Board::new(3, 3).unwrap();
        let e = g.check(&[1, 2, 3]).unwrap_err().to_string();
        assert!(e.contains("3 numbers") && e.contains("9 cells"), "{e}");
        let e = g
            .check(&[1, 2, 3, 4, 5, 6, 7, 8, 9])
            .unwrap_err()
            .to_string();
        assert!(e.contains("9 is not a tile"), "{e}");
        let e = g
            .check(&[1, 2, 3, 4, 5, 6, 7, 8, 8])
            .unwrap_err()
            .to_string();
        assert!(e.contains("tile 8 appears twice"), "{e}");
        let e = g
            .check(&[0, 2, 3, 4, 5, 6, 7, 8, 0])
            .unwrap_err()
            .to_string();
        assert!(e.contains("blank 0 appears twice"), "{e}");
        assert!(Board::new(1, 5).is_err() && Board::new(8, 9).is_err());
    }

    #[test]
    fn parity_rule_examples() {
        let g = Board::new(3, 3).unwrap();
        assert!(g.solvable(&g.goal()));
        assert!(!g.solvable(&g.swapped_goal()));
        assert!(g
            .why_unsolvable(&g.swapped_goal())
            .unwrap()
            .contains("have 1 inversion,"));
        let g = Board::new(4, 4).unwrap();
        // Seed 004's 4×4 example, said there to be solvable.
        let seed = [3, 1, 7, 2, 11, 8, 15, 10, 5, 9, 0, 6, 13, 12, 14, 4];
        assert!(g.solvable(&seed));
        // Blank one row up from the goal: one vertical move away, solvable.
        let up = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 13, 14, 15, 12];
        assert!(g.solvable(&up));
        assert_eq!(g.slides(&up).len(), 3);
    }
}
