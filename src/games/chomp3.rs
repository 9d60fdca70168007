//! Three-rowed Chomp with an unbounded first row (Zeilberger 2001; Brouwer, Horváth,
//! Molnár-Sáska and Szabó, *On three-rowed Chomp*, INTEGERS 5 (2005)).
//!
//! A position is `(p, q, r)`, `p ≥ q ≥ r ≥ 0`, `p ≥ 1` (row lengths, top row first; the
//! poisoned cell is the first cell of the top row, as in [`super::chomp`]). The bites from
//! `(p, q, r)` leave
//!
//! * `(j, q, r)` for `q ≤ j < p` and `(j, j, min(r, j))` for `1 ≤ j < q` (a bite in row 1;
//!   `j = 0` eats the poison and is not a move),
//! * `(p, j, min(r, j))` for `0 ≤ j < q` (row 2),
//! * `(p, q, j)` for `0 ≤ j < r` (row 3).
//!
//! For fixed `(q, r)` at most one `p` makes `(p, q, r)` a P-position (two of them would be one
//! move apart, by a row-1 bite), so the P-positions are a partial function `f(q, r)`:
//!
//! * if some bite `(j, j, min(r, j))`, `1 ≤ j < q`, is P, every `(p, q, r)` has it and is N:
//!   `f(q, r)` is *none*. A rectangle `(j, j, j)` is never P, so this happens exactly when
//!   `f(j, r) = j` for some `r ≤ j < q`: a column `r` ends at its *end point* `k_r`, the row
//!   with `f(k_r, r) = k_r`, and is none below it;
//! * otherwise `f(q, r)` is the least `p ≥ max(q, 1)` outside
//!   `C(q, r) = {f(j, j) : j < r} ∪ {f(j, r) : r ≤ j < q} ∪ {f(q, j) : j < r}`: the bites that
//!   lower rows 2 and 3 reach exactly those P-positions, and every smaller `p ≥ q` is N because
//!   it has such a bite.
//!
//! # The table
//!
//! A table of `--max N` holds `f(q, r)` for every `0 ≤ r ≤ q ≤ N` (the first row as long as
//! one likes) as [`ValueKind::Extension`] values, one u16 per pair (three bytes, u24, when
//! `N` > [`NARROW_MAX`]), row-major:
//!
//! ```text
//! index(q, r) = q (q + 1) / 2 + r          entries = (N + 1)(N + 2) / 2
//! entry       = 0 when f(q, r) is none, else f(q, r) − q + 1
//! ```
//!
//! so a table of a smaller `N` is a prefix of one of a larger of the same width. `(p, q, r)`
//! is P exactly when the entry of `(q, r)` is `p − q + 1`; its winning bites are found from
//! `O(N)` entries ([`View::winning_bites`]), never by trying the `p − 1` bites of row 1.
//! `f(q, r) − q` stays below about `0.72 q`, so two bytes hold every `N` up to about 90,000
//! and three bytes far past [`MAX_N`]; a value that does not fit is refused with an error,
//! never wrapped.
//!
//! # The algorithm
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
//! tiles run as a wavefront ([`crate::solve::wavefront`]). Each value is a function of the
//! recurrence alone: the table is the same at any thread count.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::Mutex;

use crate::game::{
    format_numbers, params, Arguments, Fact, GameSpec, GameView, Move, Outcome, Param, Progress,
    Rules, Solved, ValueKind, Values,
};
use crate::solve::wavefront;
use crate::{Error, Result};

/// Largest `N` whose table stores two bytes per pair: `f(q, r) − q + 1` stays below about
/// `0.72 q`, so it fits a u16 up to about 91,000 (a value that does not fit stops the solve
/// with an error). Larger tables take three bytes per pair.
pub const NARROW_MAX: u32 = 90_000;

/// Largest `N` accepted (three bytes per pair would hold values to about `N` = 23 million;
/// memory runs out long before: the table alone is `1.5 N²` bytes, checked before solving).
pub const MAX_N: u32 = 1_000_000;

/// Bytes per pair in the table of `--max max`: 2 up to [`NARROW_MAX`], else 3.
pub fn entry_width(max: u32) -> usize {
    if max <= NARROW_MAX {
        2
    } else {
        3
    }
}

/// Columns per block of the wavefront (a block's windows and a chunk's rows stay in L2).
const BLOCK: usize = 128;
/// Rows per chunk of the wavefront.
const CHUNK: usize = 64;

/// `(p, q, r)`: the row lengths of a three-rowed position, top row first.
pub type Pos3 = (u64, u64, u64);

/// Parameters of a three-rowed Chomp table, checked: `f(q, r)` for every `r ≤ q ≤ max`.
#[derive(Clone, Debug, PartialEq)]
pub struct Chomp3Spec {
    max: u32,
}

impl Chomp3Spec {
    /// Checks the parameters: `1 ≤ max ≤ MAX_N`.
    pub fn new(max: u32) -> Result<Chomp3Spec> {
        if max == 0 || max > MAX_N {
            return Err(Error::bad(format!(
                "--max {max}: expected 1..={MAX_N} (the longest second row of three-rowed Chomp)"
            )));
        }
        Ok(Chomp3Spec { max })
    }

    /// `N`, the longest second row.
    pub fn max(&self) -> u32 {
        self.max
    }
}

/// Entries of a table of `--max max`: the pairs `r ≤ q ≤ max`.
pub fn entries(max: u32) -> u64 {
    let n = max as u64 + 1;
    n * (n + 1) / 2
}

/// The entry of the pair `(q, r)`, `r ≤ q`.
#[inline]
pub fn index(q: u64, r: u64) -> u64 {
    q * (q + 1) / 2 + r
}

/// The pair `(q, r)` of an entry.
pub fn pair(index: u64) -> (u64, u64) {
    // The largest q with q (q + 1) / 2 ≤ index; the float guess is corrected exactly.
    let mut q = (((8 * index + 1) as f64).sqrt() as u64).saturating_sub(1) / 2;
    while q * (q + 1) / 2 > index {
        q -= 1;
    }
    while (q + 1) * (q + 2) / 2 <= index {
        q += 1;
    }
    (q, index - q * (q + 1) / 2)
}

impl GameSpec for Chomp3Spec {
    const NAME: &'static str = "chomp3";
    const ABOUT: &'static str =
        "Three-rowed Chomp: the P-position p = f(q, r) of every second and \
                                 third row q, r ≤ N (the first row unbounded)";
    const PARAMS: &'static [Param] = &[Param::required(
        "max",
        "N",
        "Largest second row N: the table answers every position p,q,r with q ≤ N (the first \
         row as long as you like)",
    )];
    const VALUES: &'static [ValueKind] = &[ValueKind::Extension];

    type View = Chomp3Rules;
    fn view(&self) -> Chomp3Rules {
        Chomp3Rules {
            max: self.max as u64,
        }
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        Chomp3Spec::new(a.number("max")?)
    }

    fn parameters(&self) -> String {
        params::write(&[("max", Some(self.max.to_string()))])
    }

    fn stem(&self) -> String {
        format!("chomp3-{}", self.max)
    }

    fn describe(&self) -> String {
        format!(
            "Three-rowed Chomp: every position p,q,r with q ≤ {} (the first row unbounded), stored as f(q, r)",
            self.max
        )
    }

    fn solved_bytes(&self, _kind: ValueKind) -> Option<u64> {
        Some(entry_width(self.max) as u64 * entries(self.max))
    }

    fn samples() -> Vec<Self> {
        [1, 2, 7, 30]
            .into_iter()
            .filter_map(|n| Chomp3Spec::new(n).ok())
            .collect()
    }
}

/// Three-rowed Chomp is solved per prefix (`f(q, r)`), not over `Game`.
impl GameView for Chomp3Rules {
    fn positions(&self) -> u64 {
        entries(self.max as u32)
    }

    fn solve(&self, _kind: ValueKind, progress: &dyn Progress) -> Result<Solved> {
        let max = self.max as u32;
        let bytes = solve(max, progress)?;
        Ok(Solved::Extensions {
            len: entries(max),
            bytes,
            wide: entry_width(max) == 3,
        })
    }

    fn solve_memory(&self, _kind: ValueKind) -> u64 {
        memory_bound(self.max as u32)
    }

    fn conformance(&self) -> std::result::Result<u64, String> {
        conformance(self.max as u32)
    }
}

/// Upper bound of the memory a solve of `max` needs, in bytes: the table (two or three bytes
/// per pair, [`entry_width`], written in place by the tiles), the column windows (each at
/// most twice `0.75 r + 128` bits rounded up to a power of two, so below `0.4 N²` bytes
/// together), the row bitsets of the chunks in flight (`1.75 q + 256` bits per row when
/// made; even every row at once, each grown to twice that, is below `N² / 4` bytes) and the
/// per-column state.
pub fn memory_bound(max: u32) -> u64 {
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
/// documentation), [`entry_width`] bytes per pair. `progress` counts the pairs `(q, r)` each
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
    wavefront::run(blocks, chunks, exists, tile)?;
    drop(chunk_state);
    Ok(bytes)
}

/// A winning bite: the cell `(row, col)` bitten (1-based) and the P-position it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bite {
    /// 1, 2 or 3.
    pub row: u8,
    /// 1-based column of the bitten cell: the row keeps `col − 1` cells.
    pub col: u64,
    /// The position left.
    pub leaves: Pos3,
}

/// Where a column of `p − q` ends up as `q` grows, within `q ≤ N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// The column has an end point: `(k, k, r)` is P and `f(q, r)` is none for `q > k`.
    Ends {
        /// The end point `k_r`.
        at: u64,
    },
    /// From `q = from` on, `p − q` repeats with this period (the smallest one), and the
    /// repetition is seen at least three times and over at least 64 rows before `q = N`.
    Periodic {
        /// First row of the periodic part (the preperiod is `from − r` rows long).
        from: u64,
        /// Length of the period, in rows.
        period: u64,
    },
    /// No period is seen clearly enough below `N` (the column is still in its transient).
    Undetermined,
}

/// The outcome of the Sheiner check over `3 × n`, `1 ≤ n ≤ N`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SheinerReport {
    /// Rectangles checked.
    pub checked: u64,
    /// Rectangles whose unique winning bite is in row 2.
    pub row2: u64,
    /// Rectangles whose unique winning bite is in row 3.
    pub row3: u64,
    /// Counterexamples (at most 10): `n` and what was found.
    pub failures: Vec<(u64, String)>,
}

/// `f(q, r)` read from wherever the entries are (a table's payload, a solver's bytes): every
/// question about three-rowed Chomp a table answers.
pub struct View<'a> {
    max: u64,
    entry: &'a dyn Fn(u64) -> u32,
}

impl<'a> View<'a> {
    /// The pairs `r ≤ q ≤ max`, entry `i` read by `entry(i)` (see the module documentation).
    pub fn new(max: u32, entry: &'a dyn Fn(u64) -> u32) -> View<'a> {
        View {
            max: max as u64,
            entry,
        }
    }

    /// `N`: the table holds every `q ≤ N`.
    pub fn max(&self) -> u64 {
        self.max
    }

    /// `f(q, r)`: the `p` that makes `(p, q, r)` P, if any (`r ≤ q ≤ N`).
    #[inline]
    pub fn f(&self, q: u64, r: u64) -> Option<u64> {
        let v = (self.entry)(index(q, r)) as u64;
        (v != 0).then(|| q + v - 1)
    }

    /// P or N of a checked position.
    pub fn outcome(&self, (p, q, r): Pos3) -> Outcome {
        Outcome::from_win(self.f(q, r) != Some(p))
    }

    /// Column `r`: `d(q, r) = f(q, r) − q` for `q = r, r + 1, ...` while `f` is defined.
    pub fn column(&self, r: u64) -> Vec<u64> {
        (r..=self.max)
            .map_while(|q| self.f(q, r).map(|f| f - q))
            .collect()
    }

    /// The end point `k_r` of column `r` (`(k, k, r)` P), if it is at most `N`.
    pub fn end_point(&self, r: u64) -> Option<u64> {
        (r..=self.max).find_map(|q| match self.f(q, r) {
            Some(f) if f == q => Some(Some(q)),
            None => Some(None),
            Some(_) => None,
        })?
    }

    /// Every winning bite of a checked position, row by row, columns ascending (empty for a
    /// P-position). Found from `O(N)` entries: never by trying the `p − 1` bites of row 1.
    pub fn winning_bites(&self, (p, q, r): Pos3) -> Vec<Bite> {
        let mut out = Vec::new();
        let bite = |row: u8, keep: u64, leaves: Pos3| Bite {
            row,
            col: keep + 1,
            leaves,
        };
        // Keeping j < r in row 1 or row 2 leaves a rectangle-topped (j, j, j) or (p, j, j).
        for j in 0..r.min(q) {
            let v = self.f(j, j);
            if j >= 1 && v == Some(j) {
                out.push(bite(1, j, (j, j, j)));
            }
            if v == Some(p) {
                out.push(bite(2, j, (p, j, j)));
            }
        }
        // Keeping r ≤ j < q in row 1 leaves (j, j, r), P iff f(j, r) = j (the end point); in
        // row 2 leaves (p, j, r), P iff f(j, r) = p.
        for j in r..q {
            let v = self.f(j, r);
            if j >= 1 && v == Some(j) {
                out.push(bite(1, j, (j, j, r)));
            }
            if v == Some(p) {
                out.push(bite(2, j, (p, j, r)));
            }
            if v.is_none() {
                break; // the column has ended: none below
            }
        }
        // Row 1, keeping q ≤ j < p: (j, q, r) is P iff j = f(q, r).
        if let Some(f) = self.f(q, r) {
            if f < p {
                out.push(bite(1, f, (f, q, r)));
            }
        }
        // Row 3, keeping j < r: f(q, j) = p.
        for j in 0..r {
            if self.f(q, j) == Some(p) {
                out.push(bite(3, j, (p, q, j)));
            }
        }
        // The row-1 bites of the three kinds interleave: keep each row's bites in column order.
        out.sort_by_key(|b| (b.row, b.col));
        out
    }

    /// Number of P-positions `(p, q, r)` with `q ≤ N`: the defined values of `f`.
    pub fn p_positions(&self) -> u64 {
        (0..entries(self.max as u32))
            .filter(|&i| (self.entry)(i) != 0)
            .count() as u64
    }

    /// A029899: `a(n)`, the number of P-positions `(p, q, r)` with `p ≤ n`, for `n = 0..=N`
    /// (they all have `q ≤ p ≤ N`, so the table holds them).
    pub fn p_counts(&self) -> Vec<u64> {
        let n = self.max as usize;
        let mut count = vec![0u64; n + 1];
        for q in 0..=self.max {
            for r in 0..=q {
                if let Some(p) = self.f(q, r) {
                    if p as usize <= n {
                        count[p as usize] += 1;
                    }
                }
            }
        }
        for i in 1..=n {
            count[i] += count[i - 1];
        }
        count
    }

    /// A029900: `f(n, n)` for `n = 0..=N` (the 3 × f(n,n) rectangle's winning bite is in
    /// row 2, keeping n cells). A column is always defined on its first row.
    pub fn diagonal(&self) -> Vec<Option<u64>> {
        (0..=self.max).map(|n| self.f(n, n)).collect()
    }

    /// Every column with an end point `≤ N`: `(r, k_r)`, `r` ascending. The `r` are A029902
    /// (as far as `k_r ≤ N` decides them) and the sorted `k_r` are A029901 up to `N`.
    pub fn end_points(&self) -> Vec<(u64, u64)> {
        (0..=self.max)
            .filter_map(|r| self.end_point(r).map(|k| (r, k)))
            .collect()
    }

    /// The pattern of `p − q` in column `r` within `q ≤ N` (see [`Pattern`]).
    pub fn pattern(&self, r: u64) -> Pattern {
        let col = self.column(r);
        if col.last() == Some(&0) {
            return Pattern::Ends {
                at: r + col.len() as u64 - 1,
            };
        }
        let len = col.len();
        for period in 1..=len / 3 {
            // Earliest s with col[i] == col[i + period] for every i in s..len - period.
            let mut s = len - period;
            while s > 0 && col[s - 1] == col[s - 1 + period] {
                s -= 1;
            }
            let tail = len - s;
            if tail >= 3 * period && tail >= 64 {
                return Pattern::Periodic {
                    from: r + s as u64,
                    period: period as u64,
                };
            }
        }
        Pattern::Undetermined
    }

    /// Sheiner (arXiv 2605.23837): every `3 × n` rectangle, `1 ≤ n ≤ N`, has exactly one
    /// winning bite, never in row 1, in row 2 exactly when `n` is a value of the diagonal
    /// (A029900).
    pub fn sheiner(&self) -> SheinerReport {
        let mut diag_values = vec![false; self.max as usize + 1];
        for v in self.diagonal().into_iter().flatten() {
            if v <= self.max {
                diag_values[v as usize] = true;
            }
        }
        let mut rep = SheinerReport::default();
        for n in 1..=self.max {
            rep.checked += 1;
            let bites = self.winning_bites((n, n, n));
            let fail = match bites.as_slice() {
                [b] if b.row == 1 => Some(format!(
                    "its winning bite ({},{}) is in row 1",
                    b.row, b.col
                )),
                [b] if (b.row == 2) != diag_values[n as usize] => Some(format!(
                    "its winning bite ({},{}) is in row {} but {n} is {}a value of f(j, j)",
                    b.row,
                    b.col,
                    b.row,
                    if diag_values[n as usize] { "" } else { "not " }
                )),
                [b] => {
                    if b.row == 2 {
                        rep.row2 += 1;
                    } else {
                        rep.row3 += 1;
                    }
                    None
                }
                many => Some(format!(
                    "{} winning bites: {}",
                    many.len(),
                    many.iter()
                        .map(|b| format!("({},{})", b.row, b.col))
                        .collect::<Vec<_>>()
                        .join(" ")
                )),
            };
            if let Some(f) = fail {
                if rep.failures.len() < 10 {
                    rep.failures.push((n, f));
                }
            }
        }
        rep
    }
}

/// The lookups' view of a table of `--max max`.
pub struct Chomp3Rules {
    max: u64,
}

impl Chomp3Rules {
    /// The rows of a checked position (missing rows empty).
    fn rows(pos: &[u32]) -> Pos3 {
        let row = |k: usize| pos.get(k).copied().unwrap_or(0) as u64;
        (row(0), row(1), row(2))
    }

    fn to_move(b: Bite) -> Move {
        let (p, q, r) = b.leaves;
        let mut leaves = vec![p as u32, q as u32, r as u32];
        while leaves.len() > 1 && leaves.last() == Some(&0) {
            leaves.pop();
        }
        Move {
            label: format!("({},{})", b.row, b.col),
            leaves,
        }
    }
}

impl Rules for Chomp3Rules {
    fn position_form(&self) -> String {
        format!(
            "row lengths p,q,r top row first, e.g. 7,4,3: non-increasing, p ≥ 1 (it holds the poisoned cell; the first row may be as long as you like, up to {}), q ≤ {} (missing rows are empty)",
            u32::MAX,
            self.max
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        let bad = |what: String| crate::game::bad_position(self, pos, what);
        if pos.len() > 3 {
            return bad(format!(
                "{} rows (three-rowed Chomp has at most 3)",
                pos.len()
            ));
        }
        if let Some(what) = super::chomp::diagram_problem(pos) {
            return bad(what);
        }
        let (_, q, _) = Chomp3Rules::rows(pos);
        if q > self.max {
            return bad(format!(
                "row 2 has {q} cells but this table holds second rows up to {}",
                self.max
            ));
        }
        Ok(())
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        let (_, q, r) = Chomp3Rules::rows(pos);
        index(q, r)
    }

    /// The shortest position of entry `index`: `(max(q, 1), q, r)`.
    fn unrank(&self, index: u64) -> Vec<u32> {
        let (q, r) = pair(index);
        let mut rows = vec![q.max(1) as u32, q as u32, r as u32];
        while rows.len() > 1 && rows.last() == Some(&0) {
            rows.pop();
        }
        rows
    }

    /// Every bite but the poisoned one, row by row: label `(row,col)`, 1-based (as for the
    /// boxes of [`super::chomp`]). A long first row has as many bites: lookups use
    /// [`Rules::extension_winning_moves`] instead.
    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let (p, q, r) = Chomp3Rules::rows(pos);
        let mut out = Vec::new();
        for j in 1..p {
            out.push((1, j, (j, q.min(j), r.min(j))));
        }
        for j in 0..q {
            out.push((2, j, (p, j, r.min(j))));
        }
        for j in 0..r {
            out.push((3, j, (p, q, j)));
        }
        out.into_iter()
            .map(|(row, keep, leaves)| {
                Chomp3Rules::to_move(Bite {
                    row,
                    col: keep + 1,
                    leaves,
                })
            })
            .collect()
    }

    fn extension_outcome(&self, pos: &[u32], entry: &dyn Fn(u64) -> u32) -> Option<Outcome> {
        Some(View::new(self.max as u32, entry).outcome(Chomp3Rules::rows(pos)))
    }

    fn extension_winning_moves(
        &self,
        pos: &[u32],
        entry: &dyn Fn(u64) -> u32,
    ) -> Option<Vec<Move>> {
        let view = View::new(self.max as u32, entry);
        Some(
            view.winning_bites(Chomp3Rules::rows(pos))
                .into_iter()
                .map(Chomp3Rules::to_move)
                .collect(),
        )
    }

    fn format(&self, pos: &[u32]) -> String {
        let mut rows = pos.to_vec();
        while rows.len() > 1 && rows.last() == Some(&0) {
            rows.pop();
        }
        format_numbers(&rows)
    }

    /// Positions with `p ≤ N` and their P-positions (OEIS A029899), and the end points (the
    /// P-positions of the whole table are among the counts `info` shows anyway).
    fn facts(&self, values: &dyn Values) -> Vec<Fact> {
        let entry = |i: u64| values.raw(i);
        let view = View::new(self.max as u32, &entry);
        let n = self.max;
        let counts = view.p_counts();
        let p_small = counts.last().copied().unwrap_or(0);
        // Positions (p, q, r) with 1 ≤ p ≤ N: (p + 1)(p + 2) / 2 for each p.
        let small: u64 = (1..=n).map(|p| (p + 1) * (p + 2) / 2).sum();
        let ends = view.end_points().len() as u64;
        vec![
            Fact {
                key: "positions_p_le_n".into(),
                label: format!("positions with p ≤ {n}"),
                text: format!("{small}, of which {p_small} P (OEIS A029899({n}))"),
                json: serde_json::json!({"positions": small, "p_positions": p_small}),
            },
            Fact {
                key: "end_points".into(),
                label: format!("columns r with an end point k_r ≤ {n} ((k, k, r) P)"),
                text: ends.to_string(),
                json: ends.into(),
            },
        ]
    }
}

/// The conformance checks of a table of `--max max`: `f` against a brute force over every
/// position with `p ≤ max + 2` (outcome and winning bites), the lookups' rules (parse, format,
/// rank and unrank round trips), and the same bytes at 1 and 2 threads. Returns the number of
/// entries (every one was read by some checked position).
fn conformance(max: u32) -> std::result::Result<u64, String> {
    let bytes = solve(max, &()).map_err(|e| e.to_string())?;
    let entry =
        |i: u64| u16::from_le_bytes([bytes[2 * i as usize], bytes[2 * i as usize + 1]]) as u32;
    let view = View::new(max, &entry);
    let rules = Chomp3Rules { max: max as u64 };
    let m = max as usize + 2;
    let win = brute_force(m);
    let mut checked = 0;
    for p in 1..=m {
        for q in 0..=p.min(max as usize) {
            for r in 0..=q {
                let pos = [p as u32, q as u32, r as u32];
                let want: Vec<Move> = rules
                    .moves(&pos)
                    .into_iter()
                    .filter(|mv| {
                        let (a, b, c) = Chomp3Rules::rows(&mv.leaves);
                        !win[a as usize][b as usize][c as usize]
                    })
                    .collect();
                let got = rules
                    .extension_winning_moves(&pos, &entry)
                    .unwrap_or_default();
                if got != want {
                    return Err(format!(
                        "position {p},{q},{r}: winning bites {got:?} from f, {want:?} by brute force"
                    ));
                }
                if view.outcome((p as u64, q as u64, r as u64)) != Outcome::from_win(win[p][q][r]) {
                    return Err(format!(
                        "position {p},{q},{r}: outcome differs from brute force"
                    ));
                }
                let text = rules.format(&pos);
                let back = rules.parse(&text).map_err(|e| e.to_string())?;
                if rules.rank(&back) != index(q as u64, r as u64) {
                    return Err(format!("position {p},{q},{r}: rank after parse differs"));
                }
                checked += 1;
            }
        }
    }
    for i in 0..entries(max) {
        let pos = rules.unrank(i);
        if rules.check(&pos).is_err() || rules.rank(&pos) != i {
            return Err(format!(
                "entry {i}: unrank gives {pos:?}, which does not rank back"
            ));
        }
    }
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .map_err(|e| e.to_string())?
        .install(|| solve(max, &()))
        .map_err(|e| e.to_string())?;
    if two != bytes {
        return Err("the table differs at 2 threads".into());
    }
    debug_assert!(checked >= entries(max));
    Ok(entries(max))
}

/// `win[p][q][r]` for every position with `p ≤ m`, by trying every bite.
pub fn brute_force(m: usize) -> Vec<Vec<Vec<bool>>> {
    let mut win = vec![vec![vec![false; m + 1]; m + 1]; m + 1];
    for p in 1..=m {
        for q in 0..=p {
            for r in 0..=q {
                let w = (1..p).any(|j| !win[j][q.min(j)][r.min(j)])
                    || (0..q).any(|j| !win[p][j][r.min(j)])
                    || (0..r).any(|j| !win[p][q][j]);
                win[p][q][r] = w;
            }
        }
    }
    win
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chomp::{Chomp, ChompSpec};
    use crate::solve::in_pool;

    fn solved(n: u32) -> Vec<u8> {
        solve(n, &()).unwrap()
    }

    fn read(bytes: &[u8]) -> impl Fn(u64) -> u32 + '_ {
        |i| u16::from_le_bytes([bytes[2 * i as usize], bytes[2 * i as usize + 1]]) as u32
    }

    #[test]
    fn index_and_pair_are_inverse() {
        let mut i = 0;
        for q in 0..300 {
            for r in 0..=q {
                assert_eq!(index(q, r), i);
                assert_eq!(pair(i), (q, r));
                i += 1;
            }
        }
        assert_eq!(entries(299), i);
        let big = index(90_000, 1234);
        assert_eq!(pair(big), (90_000, 1234));
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
    fn agrees_with_brute_force_outcomes_and_bites() {
        let m = 45;
        let win = brute_force(m);
        let bytes = solved(m as u32);
        let entry = read(&bytes);
        let t = View::new(m as u32, &entry);
        let rules = Chomp3Rules { max: m as u64 };
        for p in 1..=m {
            for q in 0..=p {
                for r in 0..=q {
                    let pos = (p as u64, q as u64, r as u64);
                    assert_eq!(t.outcome(pos), Outcome::from_win(win[p][q][r]), "{pos:?}");
                    let want: Vec<Move> = rules
                        .moves(&[p as u32, q as u32, r as u32])
                        .into_iter()
                        .filter(|mv| {
                            let (a, b, c) = Chomp3Rules::rows(&mv.leaves);
                            !win[a as usize][b as usize][c as usize]
                        })
                        .collect();
                    let got: Vec<Move> = t
                        .winning_bites(pos)
                        .into_iter()
                        .map(Chomp3Rules::to_move)
                        .collect();
                    assert_eq!(got, want, "{pos:?}");
                }
            }
        }
        // The first row may be far longer than the table's N.
        let far = (1_000_000, 40, 7);
        let w = t.winning_bites(far);
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].row, 1);
        assert_eq!(w[0].leaves, (t.f(40, 7).unwrap(), 40, 7));
    }

    /// Every position of the 3×200 box, against the box solver's table.
    #[test]
    fn agrees_with_the_box_tables() {
        let c = 200u32;
        let spec = ChompSpec::new(3, c).unwrap();
        let Solved::Outcomes { bits, .. } = spec.solve(ValueKind::Outcome, &()).unwrap() else {
            panic!("a box table holds outcomes");
        };
        let game = Chomp::new(spec.clone());
        let bytes = solved(c);
        let entry = read(&bytes);
        let t = View::new(c, &entry);
        let mut checked = 0;
        for p in 1..=c {
            for q in 0..=p {
                for r in 0..=q {
                    let i = game.rank(&[p, q, r]) as usize;
                    let boxed = Outcome::from_win(bits[i / 8] >> (i % 8) & 1 == 1);
                    let pos = (p as u64, q as u64, r as u64);
                    assert_eq!(t.outcome(pos), boxed, "{pos:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, spec.positions());
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

    #[test]
    fn bad_positions_are_refused() {
        let rules = Chomp3Rules { max: 50 };
        for (text, what) in [
            ("0,0,0", "poisoned cell"),
            ("3,4", "rows may not grow downwards"),
            ("5,3,4", "row 3 (length 4) is longer than row 2"),
            ("60,51", "second rows up to 50"),
            ("3,-1", "'-1' is not a non-negative integer"),
            ("1,1,1,1", "4 rows"),
            ("", "empty position"),
            ("a", "'a' is not a non-negative integer"),
        ] {
            let e = rules.parse(text).unwrap_err().to_string();
            assert!(e.contains(what), "{text}: {e}");
            assert!(e.contains("row lengths p,q,r"), "{e}");
        }
        assert_eq!(rules.parse("7, 4,3").unwrap(), [7, 4, 3]);
        assert_eq!(rules.format(&[5, 0, 0]), "5");
        assert!(Chomp3Spec::new(0).is_err());
        assert!(Chomp3Spec::new(MAX_N + 1).is_err());
        assert!(solve(MAX_N + 1, &()).is_err());
    }
}
