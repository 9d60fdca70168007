//! The solve of three-rowed Chomp: `f(q, r)` for every pair of a table.
//!
//! The pairs are filled row by row (`q` = 0, 1, ...), each row column by column (`r` = 0..=q).
//! The three parts of `C(q, r)` are kept as bitsets over `p`:
//!
//! * per column `r`, `X_r = {f(j, j) : j < r} ∪ {f(j, r) : r ≤ j < q}` restricted to
//!   `p ≥ q`, in a circular window of a power-of-two number of words (a value `f(j, r)` is at
//!   most about `1.72 j`; the window grows when a value does not fit), plus the first position
//!   `z_r ≥ q` not in `X_r` (it only moves forward);
//! * per row `q`, `Row_q = {f(q, j) : j < r}`, one bit per `p`, filled as `r` grows.
//!
//! Then `f(q, r)` is the first zero of `X_r | Row_q` at or after `z_r`, found a word at a time.
//! Once a column has settled (`p − q` eventually constant, period 1 for all but a few `r`),
//! `X_r` holds the run `[q, q + d)` and the search costs a word or two; in the transient part of
//! a column (`r ≤ q ≲ 1.41 r`) the two sets interleave and the search is about `d / 64` words.
//! So the work is `O(N²)` plus about `N³ / 3000` word operations, against `O(N³)` set
//! operations for the direct evaluation.
//!
//! Rows are cut into chunks and columns into blocks; a tile (block, chunk) needs the tile to
//! its left (the row bits of the columns before it) and the one above (its columns' state), so
//! tiles run as a wavefront ([`crate::solve::grid_tiles`]). Each value is a function of the

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::Mutex;

use super::{entries, entry_width, index, MAX_N};
use crate::progress::Progress;
use crate::solve::grid_tiles;
use crate::{Error, Result};

/// Columns per block of the wavefront (a block's windows and a chunk's rows stay in L2).
const BLOCK: usize = 128;
/// Rows per chunk of the wavefront.
const CHUNK: usize = 64;

/// Upper bound of the memory a solve of `max` needs, in bytes: the table (two or three bytes
/// per pair, [`entry_width`], written in place by the tiles), the column windows (each at
/// most twice `0.75 r + 128` bits rounded up to a power of two, so below `0.4 N²` bytes
/// together), the row bitsets of the chunks in flight (`1.75 q + 256` bits per row when
/// made; even every row at once, each grown to twice that, is below `N² / 4` bytes) and the
/// per-column state.
pub(crate) fn memory_bound(max: u32) -> u64 {
    let n = max as u64 + 1;
    let cells = n * (n + 1) / 2;
    entry_width(max) as u64 * cells + n * n * 2 / 5 + n * n / 4 + 128 * n + (1 << 20)
}

/// One chunk of rows while solving: their bitsets `Row_q` (while a tile of the chunk is still
/// to run) and their stretch of the table.
struct Chunk<'a> {
    rows: Vec<Vec<u64>>,
    out: &'a mut [u8],
}

/// One column's search state while solving.
struct Column {
    /// `X_r` for positions `[q, q + 64 · win.len())`, position `p` at bit `p % 64` of word
    /// `(p / 64) % win.len()`. Empty once the column has ended.
    win: Vec<u64>,
    /// Every position in `[q, z)` is in `X_r`.
    z: u64,
}

impl Column {
    fn new(r: u64, diag: &[AtomicU32]) -> Column {
        // {f(j, j) : j < r} from r on (smaller values are never looked at).
        let vals: Vec<u64> = diag[..r as usize]
            .iter()
            .map(|v| v.load(Relaxed) as u64)
            .filter(|&v| v >= r)
            .collect();
        let span = vals.iter().map(|&v| v - r + 1).max().unwrap_or(0);
        // Room for the diagonal values and for the column's own (about 0.72 r ahead).
        let bits = (span.max(r * 3 / 4) + 128).next_power_of_two();
        let mut c = Column {
            win: vec![0; (bits / 64) as usize],
            z: r.max(1),
        };
        for v in vals {
            c.set(v);
        }
        c
    }

    #[inline]
    fn slot(&self, p: u64) -> usize {
        (p / 64) as usize & (self.win.len() - 1)
    }

    #[inline]
    fn get(&self, p: u64) -> bool {
        self.win[self.slot(p)] >> (p % 64) & 1 == 1
    }

    #[inline]
    fn set(&mut self, p: u64) {
        let s = self.slot(p);
        self.win[s] |= 1 << (p % 64);
    }

    /// Doubles the window (positions `[q, q + old size)` keep their bits).
    fn grow(&mut self, q: u64) {
        let old = self.win.len() as u64 * 64;
        let mut bigger = Column {
            win: vec![0; self.win.len() * 2],
            z: self.z,
        };
        for p in q..q + old {
            if self.get(p) {
                bigger.set(p);
            }
        }
        self.win = bigger.win;
    }

    /// The least `p ≥ max(z, q)` in neither `X_r` nor `row`.
    fn mex(&mut self, q: u64, row: &[u64]) -> u64 {
        loop {
            let size = self.win.len() as u64 * 64;
            let mask = self.win.len() - 1;
            let mut p = self.z.max(q);
            // Only words wholly below q + size: beyond, slots hold other positions.
            while (p | 63) < q + size {
                let w = (p / 64) as usize;
                let taken = self.win[w & mask] | row.get(w).copied().unwrap_or(0);
                let free = !taken >> (p % 64);
                if free != 0 {
                    return p + free.trailing_zeros() as u64;
                }
                p = (p | 63) + 1;
            }
            self.grow(q);
        }
    }

    /// Records `f(q, r) = v` and moves the window on to row `q + 1`.
    fn record(&mut self, q: u64, v: u64) {
        self.set(v);
        let mut z = self.z.max(q);
        while self.get(z) {
            z += 1;
        }
        // Position q leaves the window; its slot becomes position q + size.
        let s = self.slot(q);
        self.win[s] &= !(1 << (q % 64));
        self.z = z.max(q + 1);
    }
}

/// Sets bit `p` of a row bitset, growing it as needed.
fn set_row(row: &mut Vec<u64>, p: u64) {
    let w = (p / 64) as usize;
    if w >= row.len() {
        row.resize(w + 1, 0);
    }
    row[w] |= 1 << (p % 64);
}

/// Solves every `(q, r)` with `r ≤ q ≤ max` and returns the table's payload (see the module
/// documentation), `entry_width` bytes per pair. `progress` counts the pairs `(q, r)` each
/// finished tile covered (they add up to `(N+1)(N+2)/2`).
pub fn solve(max: u32, progress: &dyn Progress) -> Result<Vec<u8>> {
    solve_width(max, entry_width(max), progress)
}

/// [`solve`] with `width` (2 or 3) bytes per pair.
fn solve_width(max: u32, width: usize, progress: &dyn Progress) -> Result<Vec<u8>> {
    if max > MAX_N {
        return Err(Error::bad(format!(
            "--max {max}: expected 0..={MAX_N} (three-rowed Chomp, the second row at most N)"
        )));
    }
    let most = (1u64 << (8 * width)) - 1;
    let n = max as usize + 1; // rows / columns 0..=max
    let blocks = n.div_ceil(BLOCK);
    let chunks = n.div_ceil(CHUNK);
    let block_lo = |b: usize| b * BLOCK;
    let block_hi = |b: usize| ((b + 1) * BLOCK).min(n) - 1;
    let chunk_lo = |c: usize| c * CHUNK;
    let chunk_hi = |c: usize| ((c + 1) * CHUNK).min(n) - 1;
    // A block's first column starts at the row of the same number.
    let exists = |b: usize, c: usize| block_lo(b) <= chunk_hi(c);

    let diag: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(u32::MAX)).collect();
    let block_state: Vec<Mutex<Vec<Column>>> =
        (0..blocks).map(|_| Mutex::new(Vec::new())).collect();
    // The table is row-major, so a chunk's rows are one stretch of it: each chunk owns its
    // stretch (and its rows' bitsets), and a tile writes its values straight into the table.
    let mut bytes = vec![0u8; width * entries(max) as usize];
    let mut chunk_state: Vec<Mutex<Chunk>> = Vec::with_capacity(chunks);
    let mut rest = &mut bytes[..];
    for c in 0..chunks {
        let len =
            width * (index(chunk_hi(c) as u64 + 1, 0) - index(chunk_lo(c) as u64, 0)) as usize;
        let (out, tail) = rest.split_at_mut(len);
        chunk_state.push(Mutex::new(Chunk {
            rows: Vec::new(),
            out,
        }));
        rest = tail;
    }

    let tile = |b: usize, c: usize| -> Result<()> {
        let lock_err = || Error::internal("a solver task panicked");
        let mut cols = block_state[b].lock().map_err(|_| lock_err())?;
        let mut chunk = chunk_state[c].lock().map_err(|_| lock_err())?;
        let Chunk { rows, out } = &mut *chunk;
        let (q_lo, q_hi) = (chunk_lo(c), chunk_hi(c));
        let first = index(q_lo as u64, 0);
        if b == 0 {
            *rows = (q_lo..=q_hi)
                .map(|q| vec![0u64; (q + q * 3 / 4 + 256) / 64])
                .collect();
        }
        let (r_lo, r_hi) = (block_lo(b), block_hi(b));
        let mut cells = 0u64;
        for q in q_lo.max(r_lo)..=q_hi {
            let row = &mut rows[q - q_lo];
            for r in r_lo..=r_hi.min(q) {
                if r == q {
                    cols.push(Column::new(r as u64, &diag));
                }
                let col = &mut cols[r - r_lo];
                if col.win.is_empty() {
                    continue; // the column has ended: f(q, r) is none, entry 0
                }
                let qq = q as u64;
                let v = col.mex(qq, row);
                let d = v - qq;
                if d + 1 > most {
                    return Err(Error::Unsupported(format!(
                        "f({q},{r}) − {q} = {d} does not fit the table's {}-bit values; use a smaller --max",
                        8 * width
                    )));
                }
                let at = width * (index(qq, r as u64) - first) as usize;
                out[at..at + width].copy_from_slice(&(d + 1).to_le_bytes()[..width]);
                set_row(row, v);
                if r == q {
                    diag[r].store(v as u32, Relaxed);
                }
                if v == qq {
                    // The end point: (q, q, r) is P, so every later row of this column is N.
                    col.win = Vec::new();
                } else {
                    col.record(qq, v);
                }
            }
            cells += (r_hi.min(q) + 1 - r_lo) as u64;
        }
        if b + 1 == blocks || !exists(b + 1, c) {
            *rows = Vec::new(); // the chunk's last tile
        }
        progress.inc(cells);
        Ok(())
    };
    grid_tiles::run(blocks, chunks, exists, tile)?;
    drop(chunk_state);
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::super::{Chomp3Spec, NARROW_MAX};
    use super::*;
    use crate::model::ValueKind;
    use crate::solve::in_pool;

    fn solved(n: u32) -> Vec<u8> {
        solve(n, &()).unwrap()
    }

    fn read(bytes: &[u8]) -> impl Fn(u64) -> u32 + '_ {
        |i| u16::from_le_bytes([bytes[2 * i as usize], bytes[2 * i as usize + 1]]) as u32
    }

    #[test]
    fn three_byte_tables_hold_the_same_values() {
        // Tables past NARROW_MAX take three bytes per pair; the values are those of the
        // two-byte table, at any thread count.
        let n = 700;
        let narrow = solved(n);
        let wide = solve_width(n, 3, &()).unwrap();
        assert_eq!(wide.len(), 3 * entries(n) as usize);
        let read3 = |i: u64| {
            let i = 3 * i as usize;
            u32::from_le_bytes([wide[i], wide[i + 1], wide[i + 2], 0])
        };
        assert!((0..entries(n)).all(|i| read3(i) == read(&narrow)(i)));
        assert_eq!(in_pool(2, || solve_width(n, 3, &()).unwrap()), wide);
        assert_eq!(
            (entry_width(NARROW_MAX), entry_width(NARROW_MAX + 1)),
            (2, 3)
        );
        assert!(memory_bound(NARROW_MAX + 1) > 3 * entries(NARROW_MAX + 1));
        // A build states the table's real size: two bytes a pair, then three.
        for (max, width) in [(20_000, 2), (100_000, 3)] {
            let spec = crate::games::Spec::new(Chomp3Spec::new(max).unwrap());
            let needs = crate::build::needs(&spec, ValueKind::Extension);
            assert_eq!(needs.table, width * entries(max));
        }
    }

    #[test]
    fn same_table_at_any_thread_count() {
        let one = in_pool(1, || solved(1500));
        let two = in_pool(2, || solved(1500));
        let three = in_pool(3, || solved(1500));
        assert!(one == two && one == three);
    }

    /// A smaller table is a prefix of a larger one.
    #[test]
    fn tables_are_prefixes_of_larger_ones() {
        let small = solved(300);
        let large = solved(700);
        assert_eq!(small[..], large[..small.len()]);
    }
}
