//! Board geometry of sliding-tile puzzles: cells, neighbours, the goal, the parity invariant,
//! positions as written by people, and the reflection about the main diagonal.
//!
//! A board has `rows × cols` cells numbered in reading order (`cell = row·cols + col`). A
//! position lists the tile on each cell in reading order, `0` for the blank. The goal holds
//! tile `t` on cell `t − 1` and the blank on the last cell. A move slides a tile into the
//! adjacent blank; it is named by the tile and the direction the tile travels (`12 up`).
//!
//! This is a small self-contained copy of what the sliding-puzzle module (`slide`) needs too;
//! when both are merged, one of the two copies should go (see `docs/pdb-format.md`).

use crate::{Error, Result};

/// Most cells a board may have (cell sets are `u64` masks).
pub const MAX_CELLS: usize = 64;

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

/// A rectangular board of at least 2×2 cells and at most [`MAX_CELLS`] cells.
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
    pub fn flood(&self, seed: u64, free: u64) -> u64 {
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

    /// The cell where tile `t` (`1..cells`) belongs.
    pub fn home(&self, tile: u32) -> usize {
        tile as usize - 1
    }

    /// Taxicab distance between two cells.
    pub fn taxicab(&self, a: usize, b: usize) -> u32 {
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

    /// How positions are written, for error messages.
    pub fn position_form(&self) -> String {
        let n = self.cells();
        format!(
            "{n} numbers t1,t2,... (the tiles of the {} board in reading order, 0 for the blank): \
             a permutation of 0..={}",
            self.name(),
            n - 1
        )
    }

    /// Checks that `tiles` is an arrangement of this board: a permutation of `0..cells`.
    pub fn check(&self, tiles: &[u32]) -> Result<()> {
        let n = self.cells();
        let text = crate::game::format_numbers(tiles);
        if tiles.len() != n {
            return Err(Error::bad(format!(
                "position '{text}' has {} numbers; expected {}",
                tiles.len(),
                self.position_form()
            )));
        }
        let mut seen = 0u64;
        for &t in tiles {
            if t as usize >= n {
                return Err(Error::bad(format!(
                    "position '{text}': {t} is not a tile of the {} board; expected {}",
                    self.name(),
                    self.position_form()
                )));
            }
            if seen >> t & 1 == 1 {
                return Err(Error::bad(format!(
                    "position '{text}': {t} appears twice; expected {}",
                    self.position_form()
                )));
            }
            seen |= 1 << t;
        }
        Ok(())
    }

    /// Parses and checks a position (`8,6,7,2,5,4,3,0,1`; spaces allowed around commas).
    pub fn parse(&self, text: &str) -> Result<Vec<u32>> {
        let tiles = crate::game::parse_numbers(text, self.position_form())?;
        self.check(&tiles)?;
        Ok(tiles)
    }

    /// The parity invariant (THEOREMS.md §4): every move changes both the parity of the
    /// permutation of the cells (blank included) and the blank's taxicab distance to its goal
    /// cell by one, so their sum's parity never changes. It is even at the goal; exactly the
    /// arrangements where it is even reach the goal. `tiles` must be checked.
    pub fn solvable(&self, tiles: &[u32]) -> bool {
        let n = self.cells();
        // Permutation cell -> goal cell of its occupant; parity = (n − cycles) mod 2.
        let target = |cell: usize| {
            let t = tiles[cell];
            if t == 0 {
                n - 1
            } else {
                t as usize - 1
            }
        };
        let mut seen = 0u64;
        let mut cycles = 0;
        for start in 0..n {
            if seen >> start & 1 == 1 {
                continue;
            }
            cycles += 1;
            let mut c = start;
            while seen >> c & 1 == 0 {
                seen |= 1 << c;
                c = target(c);
            }
        }
        let blank = tiles.iter().position(|&t| t == 0).expect("checked");
        ((n - cycles) as u32 + self.taxicab(blank, n - 1)) % 2 == 0
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
    pub fn is_square(&self) -> bool {
        self.rows == self.cols
    }

    /// The cell `(r, c)` ↦ `(c, r)` of a square board.
    pub fn reflect_cell(&self, cell: usize) -> usize {
        debug_assert!(self.is_square());
        (cell % self.cols) * self.cols + cell / self.cols
    }

    /// The tile whose home is the reflection of tile `t`'s home (0 stays 0). Reflecting a
    /// position — every tile `t` on cell `x` becomes tile `reflect_tile(t)` on cell
    /// `reflect_cell(x)` — maps the goal to itself and moves to moves, so it keeps distances.
    pub fn reflect_tile(&self, tile: u32) -> u32 {
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
}
