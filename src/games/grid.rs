//! Boards of sliding tiles: geometry, arrangements as people write them, moves, the parity
//! rule, and the permutation ranking the tables are indexed by.
//!
//! An *arrangement* of an R×C board lists its cells in reading order (row by row, top row
//! first), each cell holding a tile `1..R·C−1` or `0` for the blank. The *goal* holds the tiles
//! in order with the blank last. A move slides a tile next to the blank into it; the move is
//! named after the tile and the way it slides (`slide 7 down`: the 7 was above the blank).
//!
//! The *tile sequence* of an arrangement is its tiles in reading order, the blank skipped, each
//! lowered by one (values `0..R·C−1`). Permutations are ranked in lexicographic order through
//! their Lehmer code ([`lex_rank`], [`lex_unrank`]); see `docs/slide-format.md`.

use crate::{Error, Result};

/// Most cells a board may have (tile sequences must fit the 16-entry work arrays).
pub const MAX_CELLS: usize = 16;

/// The way a tile slides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Towards the top row (the tile was below the blank).
    Up,
    /// Towards the bottom row (the tile was above the blank).
    Down,
    /// Towards the first column (the tile was right of the blank).
    Left,
    /// Towards the last column (the tile was left of the blank).
    Right,
}

impl Dir {
    /// `up`, `down`, `left` or `right`.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }
}

/// One move of an arrangement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slide {
    /// The tile that slides.
    pub tile: u32,
    /// The way it slides.
    pub dir: Dir,
    /// The arrangement it leaves.
    pub leaves: Vec<u32>,
}

/// The shape of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    rows: usize,
    cols: usize,
}

impl Grid {
    /// A board of `rows` × `cols` cells: both at least 2, at most [`MAX_CELLS`] cells.
    pub fn new(rows: usize, cols: usize) -> Result<Grid> {
        if rows < 2 || cols < 2 || rows * cols > MAX_CELLS {
            return Err(Error::bad(format!(
                "a {rows}×{cols} board: expected at least 2 rows and 2 columns and at most {MAX_CELLS} cells"
            )));
        }
        Ok(Grid { rows, cols })
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of cells, R·C.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// Row of a cell, 0 at the top.
    pub fn row(&self, cell: usize) -> usize {
        cell / self.cols
    }

    /// Column of a cell, 0 at the left.
    pub fn col(&self, cell: usize) -> usize {
        cell % self.cols
    }

    /// The goal: tiles `1..R·C−1` in reading order, the blank last.
    pub fn goal(&self) -> Vec<u32> {
        let n = self.cells() as u32;
        (1..n).chain(std::iter::once(0)).collect()
    }

    /// The goal with its last two tiles swapped, which every unsolvable arrangement reaches.
    pub fn swapped_goal(&self) -> Vec<u32> {
        let mut g = self.goal();
        let n = g.len();
        g.swap(n - 3, n - 2);
        g
    }

    /// How arrangements are written, for error messages.
    pub fn form(&self) -> String {
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
        let text = crate::game::format_numbers(pos);
        if pos.len() != n {
            return Err(Error::bad(format!(
                "position '{text}' has {} numbers, a {}×{} board has {n} cells; expected {}",
                pos.len(),
                self.rows,
                self.cols,
                self.form()
            )));
        }
        let mut seen = 0u32;
        for &v in pos {
            if v as usize >= n {
                return Err(Error::bad(format!(
                    "position '{text}': {v} is not a tile of a {}×{} board; expected {}",
                    self.rows,
                    self.cols,
                    self.form()
                )));
            }
            if seen >> v & 1 == 1 {
                let what = if v == 0 {
                    "the blank 0".to_string()
                } else {
                    format!("tile {v}")
                };
                return Err(Error::bad(format!(
                    "position '{text}': {what} appears twice; expected {}",
                    self.form()
                )));
            }
            seen |= 1 << v;
        }
        Ok(())
    }

    /// The blank's cell in a checked arrangement.
    pub fn blank(pos: &[u32]) -> usize {
        pos.iter()
            .position(|&v| v == 0)
            .expect("a checked arrangement has a blank")
    }

    /// The tile sequence of a checked arrangement: its tiles in reading order, the blank
    /// skipped, each lowered by one; written into `seq`, its length returned.
    pub fn tile_sequence(pos: &[u32], seq: &mut [u8; MAX_CELLS]) -> usize {
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
    pub fn tile_inversions(pos: &[u32]) -> u32 {
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
    pub fn row_from_bottom(&self, cell: usize) -> usize {
        self.rows - 1 - self.row(cell)
    }

    /// The parity the tile inversion count must have, with the blank at `cell`, for the
    /// arrangement to reach the goal (THEOREMS.md §4, general form of seed 000): even with an
    /// odd number of columns; the parity of the blank's row from the bottom with an even one.
    pub fn required_parity(&self, cell: usize) -> u32 {
        if self.cols % 2 == 1 {
            0
        } else {
            (self.row_from_bottom(cell) % 2) as u32
        }
    }

    /// Whether a checked arrangement can reach the goal, by the parity rule.
    pub fn solvable(&self, pos: &[u32]) -> bool {
        Grid::tile_inversions(pos) % 2 == self.required_parity(Grid::blank(pos))
    }

    /// Why a checked arrangement cannot reach the goal, or `None` when it can.
    pub fn why_unsolvable(&self, pos: &[u32]) -> Option<String> {
        if self.solvable(pos) {
            return None;
        }
        let inv = Grid::tile_inversions(pos);
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
            let row = self.row_from_bottom(Grid::blank(pos));
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
        let b = Grid::blank(pos);
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
}

/// `FACTORIAL[k] = k!` for `k <= 20`.
pub const FACTORIAL: [u64; 21] = {
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
pub fn lex_rank(seq: &[u8]) -> u64 {
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

/// The permutation of `0..seq.len()` of lexicographic rank `rank`, written into `seq`.
pub fn lex_unrank(rank: u64, seq: &mut [u8]) {
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
pub fn select_bit(mut mask: u32, k: u32) -> u32 {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let g = Grid::new(3, 3).unwrap();
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
        assert!(Grid::new(1, 5).is_err() && Grid::new(5, 4).is_err());
    }

    #[test]
    fn parity_rule_examples() {
        let g = Grid::new(3, 3).unwrap();
        assert!(g.solvable(&g.goal()));
        assert!(!g.solvable(&g.swapped_goal()));
        assert!(g
            .why_unsolvable(&g.swapped_goal())
            .unwrap()
            .contains("have 1 inversion,"));
        let g = Grid::new(4, 4).unwrap();
        // Seed 004's 4×4 example, said there to be solvable.
        let seed = [3, 1, 7, 2, 11, 8, 15, 10, 5, 9, 0, 6, 13, 12, 14, 4];
        assert!(g.solvable(&seed));
        // Blank one row up from the goal: one vertical move away, solvable.
        let up = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 13, 14, 15, 12];
        assert!(g.solvable(&up));
        assert_eq!(g.slides(&up).len(), 3);
    }
}
