//! The index of a sliding puzzle's arrangements, and its walk in index order.
//!
//! An arrangement is its tile sequence (see [`Board::tile_sequence`]: the tiles in reading order,
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
//! Blocks of consecutive ranks are walked with a mixed-radix counter over the Lehmer digits, so
//! the search never unranks position by position.

mod moves;

use std::ops::Range;
use std::sync::Arc;

use crate::games::board::{lex_rank, select_bit, Board, FACTORIAL, SEQ_CELLS as MAX_CELLS};
use crate::solve::bfs::partitioned::FastDiv;

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
pub(crate) struct Visit<'a> {
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
    #[cfg(test)]
    pub(crate) fn is_dense(&self) -> bool {
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
    pub(crate) fn visit<F: FnMut(&Visit)>(&self, range: Range<u64>, mut f: F) {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Indexed;

    fn boards() -> Vec<Board> {
        [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]
            .iter()
            .map(|&(r, c)| Board::new(r as u32, c as u32).unwrap())
            .collect()
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
}
