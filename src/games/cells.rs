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
    /// The rank terms of the cells of one byte of a set, given how many cells of the set come
    /// before that byte: at `starts[j] + p * (8j + 1) + before`, the sum of C(8j + b, before +
    /// t + 1) over the set bits b of the pattern p (the t-th from 0). A lookup takes a rank
    /// through a byte at once instead of a cell at a time (a lookup's rank is most of its
    /// time).
    bytes: Box<[u64]>,
    starts: Box<[usize]>,
    /// Whether the processor compresses bits in one instruction (BMI2's `pext`).
    pext: bool,
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
        let c = |n: usize, k: usize| choose[n * 41 + k];
        let (mut bytes, mut starts) = (Vec::new(), Vec::new());
        for j in 0..cells.div_ceil(8) {
            starts.push(bytes.len());
            for p in 0..256usize {
                for before in 0..=8 * j {
                    let mut sum = 0;
                    let mut t = 0;
                    for b in (0..8).filter(|b| p >> b & 1 == 1) {
                        t += 1;
                        if 8 * j + b < cells {
                            sum += c(8 * j + b, before + t);
                        }
                    }
                    bytes.push(sum);
                }
            }
        }
        #[cfg(target_arch = "x86_64")]
        let pext = std::is_x86_feature_detected!("bmi2");
        #[cfg(not(target_arch = "x86_64"))]
        let pext = false;
        Cells {
            cells,
            choose,
            bytes: bytes.into(),
            starts: starts.into(),
            pext,
        }
    }

    /// The rank of a set of cells among the sets of its size (combinatorial number system):
    /// the sum of C(c, t) over its cells c, the t-th from 1.
    #[inline]
    fn rank_set(&self, mut set: u64) -> u64 {
        let (mut sum, mut before) = (0, 0);
        for (j, &start) in self.starts.iter().enumerate() {
            let p = (set & 0xff) as usize;
            sum += self.bytes[start + p * (8 * j + 1) + before];
            before += p.count_ones() as usize;
            set >>= 8;
        }
        sum
    }

    /// The bits of `of` at the set bits of `mask`, packed to the low end.
    #[inline]
    fn compress(&self, of: u64, mask: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if self.pext {
            // SAFETY: the processor has BMI2, checked when the ranking was made.
            return unsafe { pext(of, mask) };
        }
        let (mut out, mut i, mut rest) = (0, 0, mask);
        while rest != 0 {
            let c = rest.trailing_zeros();
            out |= (of >> c & 1) << i;
            i += 1;
            rest &= rest - 1;
        }
        out
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
        self.extend_board(xb, ob, board);
    }

    /// Appends the cells of the board with x on the cells of mask `x` and o on those of `o`.
    pub fn extend_board(&self, x: u64, o: u64, board: &mut Vec<u32>) {
        board.extend((0..self.cells).map(|c| match (x >> c & 1, o >> c & 1) {
            (1, _) => X,
            (_, 1) => O,
            _ => EMPTY,
        }));
    }

    /// The masks of x and of o on a board (bit `c` for cell `c`).
    pub fn bits(board: &[u32]) -> (u64, u64) {
        // Without branches: the marks of a board are as good as random, and a mispredicted
        // branch a cell was most of a lookup's time.
        board.iter().enumerate().fold((0, 0), |(x, o), (c, &v)| {
            (x | u64::from(v == X) << c, o | u64::from(v == O) << c)
        })
    }

    /// [`rank`](Cells::rank) of a board given as bit masks (bit `c` set: cell `c` holds that
    /// side's mark): the solvers' fast path, no board built.
    #[inline]
    pub fn rank_bits(&self, x: u64, o: u64) -> u64 {
        let occupied = x | o;
        let (k, l) = (occupied.count_ones() as usize, o.count_ones() as usize);
        // The o cells ranked among the occupied ones: the same sum over the o marks, each at
        // its place among the occupied cells.
        self.rank_set(occupied) * self.c(k, l) + self.rank_set(self.compress(o, occupied))
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

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn pext(of: u64, mask: u64) -> u64 {
    std::arch::x86_64::_pext_u64(of, mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rank a cell at a time, as the definition in the module docs reads.
    fn rank_by_cells(cells: &Cells, x: u64, o: u64) -> u64 {
        let (mut occupied, mut os) = (0u64, 0u64);
        let (mut k, mut l) = (0usize, 0usize);
        let mut rest = x | o;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            k += 1;
            occupied += cells.c(c, k);
            if o >> c & 1 == 1 {
                l += 1;
                os += cells.c(k - 1, l);
            }
        }
        occupied * cells.c(k, l) + os
    }

    #[test]
    fn ranks_by_bytes_equal_ranks_by_cells_with_and_without_pext() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        for n in [7usize, 9, 16, 25, 40] {
            let mut cells = Cells::new(n);
            for _ in 0..20_000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let all = (1u64 << n) - 1;
                let occupied = seed & all;
                let o = occupied & seed.rotate_left(29);
                let x = occupied & !o;
                let want = rank_by_cells(&cells, x, o);
                assert_eq!(cells.rank_bits(x, o), want, "{n} cells: {x:b} {o:b}");
                // Without the instruction too (never with it where it is missing).
                let had = cells.pext;
                cells.pext = false;
                assert_eq!(cells.rank_bits(x, o), want, "{n} cells: {x:b} {o:b}");
                cells.pext = had;
            }
        }
    }

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
