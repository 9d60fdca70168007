//! Boards of cells that are empty or hold a mark of one of two sides, numbered densely by the
//! count of each side's marks: the index of the placement games (m,n,k-games) and of every
//! game whose tiers are counts of men (Quixo, the mill games).
//!
//! A *class* is a count of `x` marks and of `o` marks; within a class a board is ranked by the
//! set of occupied cells (combinatorial number system) and, among those, the set of `o`
//! cells: `rank = occupied · C(x + o, o) + os`, so a class of `a` x and `b` o on `n` cells has
//! `C(n, a + b) · C(a + b, b)` boards and every index is a board of its class.

use crate::game::binomial;

/// The cell values.
pub const EMPTY: u32 = 0;
/// A mark of the side that moves first.
pub const X: u32 = 1;
/// A mark of the other side.
pub const O: u32 = 2;

/// A board drawn for a terminal: the columns lettered from `a`, the rows numbered from 1 at
/// the top (as moves name the cells), each cell `x`, `o` or `.`.
pub fn grid_board(cols: usize, cells: &[u32]) -> String {
    let mut out = String::from("  ");
    for c in 0..cols {
        out.push(' ');
        out.push((b'a' + c as u8) as char);
    }
    for (r, row) in cells.chunks(cols).enumerate() {
        out.push_str(&format!("\n{:>2}", r + 1));
        for &v in row {
            out.push(' ');
            out.push(match v {
                X => 'x',
                O => 'o',
                _ => '.',
            });
        }
    }
    out
}

/// Ranks boards of `cells` cells within classes (counts of x and o).
#[derive(Clone, Debug)]
pub struct Cells {
    cells: usize,
    /// C(n, k) for n, k ≤ 40 at `n * 41 + k` (0 for k > n).
    choose: Box<[u64; 41 * 41]>,
}

impl Cells {
    /// Boards of `cells` cells (at most 40, so that every rank fits 64 bits).
    pub fn new(cells: usize) -> Cells {
        assert!(cells <= 40, "{cells} cells");
        let mut choose = Box::new([0u64; 41 * 41]);
        for n in 0..=40u64 {
            for k in 0..=n {
                choose[(n * 41 + k) as usize] = binomial(n, k).expect("C(40, k) fits 64 bits");
            }
        }
        Cells { cells, choose }
    }

    /// C(n, k).
    #[inline(always)]
    fn c(&self, n: usize, k: usize) -> u64 {
        self.choose[n * 41 + k]
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells
    }

    /// Never true: a board has cells.
    pub fn is_empty(&self) -> bool {
        self.cells == 0
    }

    /// Boards with `x` x marks and `o` o marks.
    pub fn class_size(&self, x: usize, o: usize) -> u64 {
        if x + o > self.cells {
            return 0;
        }
        self.c(self.cells, x + o) * self.c(x + o, o)
    }

    /// The rank of a board within its class (the class is its counts of x and o).
    pub fn rank(&self, board: &[u32]) -> u64 {
        let (x, o) = Cells::bits(board);
        self.rank_bits(x, o)
    }

    /// The board of class (`x`, `o`) at `rank` (below [`class_size`](Cells::class_size)).
    pub fn unrank(&self, x: usize, o: usize, rank: u64, board: &mut Vec<u32>) {
        let (xb, ob) = self.unrank_bits(x, o, rank);
        board.clear();
        board.extend((0..self.cells).map(|c| match (xb >> c & 1, ob >> c & 1) {
            (1, _) => X,
            (_, 1) => O,
            _ => EMPTY,
        }));
    }

    /// The masks of x and of o on a board (bit `c` for cell `c`).
    pub fn bits(board: &[u32]) -> (u64, u64) {
        board
            .iter()
            .enumerate()
            .fold((0, 0), |(x, o), (c, &v)| match v {
                X => (x | 1 << c, o),
                O => (x, o | 1 << c),
                _ => (x, o),
            })
    }

    /// [`rank`](Cells::rank) of a board given as bit masks (bit `c` set: cell `c` holds that
    /// side's mark): the solvers' fast path, no board built.
    #[inline]
    pub fn rank_bits(&self, x: u64, o: u64) -> u64 {
        let (mut occupied, mut os) = (0u64, 0u64);
        let (mut k, mut l) = (0usize, 0usize);
        let mut rest = x | o;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            k += 1;
            occupied += self.c(c, k);
            if o >> c & 1 == 1 {
                l += 1;
                os += self.c(k - 1, l);
            }
        }
        occupied * self.c(k, l) + os
    }

    /// [`unrank`](Cells::unrank) into bit masks `(x, o)`.
    #[inline]
    pub fn unrank_bits(&self, x: usize, o: usize, rank: u64) -> (u64, u64) {
        let k = x + o;
        let per = self.c(k, o);
        let (mut occupied, mut os) = (rank / per, rank % per);
        let mut cells = [0u8; 40];
        let mut c = self.cells;
        for i in (1..=k).rev() {
            c -= 1;
            while self.c(c, i) > occupied {
                c -= 1;
            }
            occupied -= self.c(c, i);
            cells[i - 1] = c as u8;
        }
        let mut all = 0u64;
        for &c in &cells[..k] {
            all |= 1 << c;
        }
        let mut obits = 0u64;
        let mut j = k;
        for l in (1..=o).rev() {
            j -= 1;
            while self.c(j, l) > os {
                j -= 1;
            }
            os -= self.c(j, l);
            obits |= 1 << cells[j];
        }
        (all & !obits, obits)
    }

    /// Counts of x and o on a board.
    pub fn counts(board: &[u32]) -> (usize, usize) {
        board.iter().fold((0, 0), |(x, o), &v| match v {
            X => (x + 1, o),
            O => (x, o + 1),
            _ => (x, o),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rank_of_every_class_round_trips() {
        let cells = Cells::new(7);
        let mut board = Vec::new();
        for x in 0..=7 {
            for o in 0..=7 - x {
                let n = cells.class_size(x, o);
                let mut seen = std::collections::BTreeSet::new();
                for r in 0..n {
                    cells.unrank(x, o, r, &mut board);
                    assert_eq!(Cells::counts(&board), (x, o));
                    assert_eq!(cells.rank(&board), r, "{board:?}");
                    assert!(seen.insert(board.clone()));
                }
            }
        }
        // The bit-mask forms agree with the board forms.
        for x in 0..=7 {
            for o in 0..=7 - x {
                for r in 0..cells.class_size(x, o) {
                    cells.unrank(x, o, r, &mut board);
                    let (xb, ob) = cells.unrank_bits(x, o, r);
                    let bit = |side| {
                        (0..7)
                            .filter(|&c| board[c] == side)
                            .fold(0u64, |m, c| m | 1 << c)
                    };
                    assert_eq!((xb, ob), (bit(X), bit(O)));
                    assert_eq!(cells.rank_bits(xb, ob), r);
                }
            }
        }
        // 3^7 boards in all.
        let all: u64 = (0..=7)
            .flat_map(|x| (0..=7 - x).map(move |o| (x, o)))
            .map(|(x, o)| cells.class_size(x, o))
            .sum();
        assert_eq!(all, 3u64.pow(7));
    }
}
