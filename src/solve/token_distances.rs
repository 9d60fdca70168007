//! Token distances on a grid (the search behind pattern databases): `k` labelled tokens and
//! one blank on the cells of a [`Grid`]; a token next to the blank may slide into it at cost 1,
//! and the blank also moves freely (cost 0) through the cells no token holds. For every
//! *placement* of the tokens (indexed by [`Placements`]), the fewest token moves that bring
//! them and the blank to their goal cells: a layered 0-1 breadth-first search over the states
//! (placement, cell of the blank), run backwards from the goal. Nothing here knows about
//! puzzles: a sliding-puzzle pattern database is the pattern tiles as tokens on the board.
//!
//! In the abstraction the blank moves freely (cost 0) through the cells free of pattern tiles,
//! so the states of one placement that matter are the connected *components* of its free
//! cells, kept as a bit mask of blank cells. Layer `d` holds the states at distance `d`:
//! * each placement owns three masks: `visited` (whole components, layers `≤ d`), and two
//!   `next` masks of blank cells reached, used alternately for layers `d` and `d + 1`;
//! * a pass over layer `d` *settles* every placement with cells in `next[d mod 2]`: the
//!   components of the cells not yet visited (a flood fill through the free cells) become
//!   layer `d` and are added to `visited`, and the placement's value is `d` if it had none;
//!   then each new state is *expanded*: for every pattern tile next to one of its blank cells,
//!   the tile slides into the blank (cost 1), giving another placement with the blank on the
//!   tile's old cell, which is OR-ed atomically into that placement's `next[(d + 1) mod 2]`
//!   unless it is already visited; settling clears `next[d mod 2]` for use two layers later;
//! * a bitmap with one bit per page of 512 placements marks where a `next` mask got cells, so
//!   sparse layers do not scan the whole array;
//! * the target's index follows from the source's without unranking it, and targets wait a
//!   few dozen moves in a ring after a prefetch, so that their memory accesses overlap.
//!
//! Determinism: a pass reads only `next[d mod 2]`, complete since the previous pass, and
//! writes only with atomic ORs (order-independent) to `next[(d + 1) mod 2]`. Whether an
//! expansion skips a target it sees as visited depends on timing, but such cells are ignored at
//! settling anyway. So the values are the same at any number of threads.
//!
//! Storage: for boards of at most 16 cells one `u64` per placement holds the three 16-bit
//! masks and the value (8 bytes per placement); larger boards use three `u64` masks and a
//! byte (25 bytes per placement).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use crate::format::entries::UNREACHED as UNREACHABLE;
use crate::progress::Progress;
use crate::resources::{advise_huge_pages, available_memory};
use crate::solve::prefetch::prefetch;
use crate::{Error, Result};

/// The cells the tokens move on: at most 64, adjacency symmetric.
pub trait Grid: Copy + Sync {
    /// Number of cells (at most 64).
    fn cells(&self) -> usize;
    /// The cells adjacent to `cell`, as a mask.
    fn neighbours(&self, cell: usize) -> u64;
    /// The cells of `free` connected to `seed` through cells of `free` (`seed ⊆ free`).
    fn flood(&self, seed: u64, free: u64) -> u64;
}

/// The dense index of the placements of `k` distinct tokens on `n` cells: digit `d_i` of token
/// `i` on cell `c_i` is `c_i − |{ j < i : c_j < c_i }|` (`0 ≤ d_i < n − i`), and the index is the
/// mixed-radix number of the digits with radices `n, n−1, …, n−k+1`, most significant first;
/// it numbers the `n·(n−1)···(n−k+1)` placements in lexicographic order of `(c_0, …, c_{k−1})`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placements {
    n: usize,
    k: usize,
}

impl Placements {
    /// Placements of `k ≤ n ≤ 64` tokens on `n` cells; `None` for other shapes.
    pub fn new(n: usize, k: usize) -> Option<Placements> {
        (k <= n && n <= 64).then_some(Placements { n, k })
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.n
    }

    /// Number of tokens.
    pub fn tokens(&self) -> usize {
        self.k
    }

    /// `n·(n−1)···(n−k+1)`, `None` when it overflows.
    pub fn count(&self) -> Option<u64> {
        (0..self.k).try_fold(1u64, |acc, i| acc.checked_mul((self.n - i) as u64))
    }

    /// The index of distinct cells `cells` (length `k`, each `< n`).
    #[inline]
    pub fn rank(&self, cells: &[u8]) -> u64 {
        debug_assert_eq!(cells.len(), self.k);
        let mut used = 0u64;
        let mut r = 0u64;
        for (i, &c) in cells.iter().enumerate() {
            let below = (1u64 << c) - 1;
            let digit = c as u64 - (used & below).count_ones() as u64;
            r = r * (self.n - i) as u64 + digit;
            used |= 1 << c;
        }
        r
    }

    /// The cells of placement `index` (below [`count`](Placements::count)), written into
    /// `cells[..k]`.
    #[inline]
    pub fn unrank(&self, mut index: u64, cells: &mut [u8]) {
        let mut digits = [0u8; 64];
        for i in (0..self.k).rev() {
            let radix = (self.n - i) as u64;
            digits[i] = (index % radix) as u8;
            index /= radix;
        }
        let mut free = if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        };
        for i in 0..self.k {
            let c = select::<false>(free, digits[i] as u64);
            cells[i] = c as u8;
            free &= !(1u64 << c);
        }
    }
}

/// Placements per bit of the page bitmaps.
const PAGE_SHIFT: u32 = 9;

/// Bytes of memory per placement the search needs (its state plus the values at the end).
pub(crate) fn bytes_per_placement(cells: usize) -> u64 {
    if cells <= 16 {
        Packed::BYTES as u64 + 1
    } else {
        Split::BYTES as u64 + 1
    }
}

/// Memory of [`token_distances`] over `placements` placements on `cells` cells: the search
/// state and the values, and the two page bitmaps.
pub fn token_distances_memory(cells: usize, placements: u64) -> u64 {
    bytes_per_placement(cells).saturating_mul(placements)
        + 2 * placements.div_ceil(64 << PAGE_SHIFT) * 8
}

/// The distance of every placement of the tokens to the goal (`goal[i]`: token `i`'s goal
/// cell; `blank`: the blank's), one byte each in the order of [`Placements`],
/// [`UNREACHED`](crate::format::entries::UNREACHED) where the goal cannot be reached. Parallel on rayon's
/// current pool; the bytes do not depend on its size.
pub fn token_distances<G: Grid>(
    grid: G,
    goal: &[u8],
    blank: usize,
    progress: &dyn Progress,
) -> Result<Vec<u8>> {
    if grid.cells() <= 16 {
        Search::<Packed, G>::new(grid, goal, blank)?.run(progress)
    } else {
        Search::<Split, G>::new(grid, goal, blank)?.run(progress)
    }
}

/// Per-placement state of the search.
trait Store: Sync + Sized {
    /// Bytes per placement, for the out-of-memory message.
    const BYTES: usize;
    /// `len` placements with nothing visited, or `None` when memory is short.
    fn alloc(len: usize) -> Option<Self>;
    /// The visited mask.
    fn visited(&self, i: usize) -> u64;
    /// ORs `mask` into `next[parity]`.
    fn add(&self, i: usize, parity: usize, mask: u64);
    /// Asks the CPU to fetch what `visited` and `add` will touch.
    fn prefetch(&self, i: usize, parity: usize);
    /// `next[parity]`, the visited mask, and whether the placement has a value.
    fn peek(&self, i: usize, parity: usize) -> (u64, u64, bool);
    /// Owner only, after `peek` returned `next`: clears `next[parity]`, adds `cur` (disjoint
    /// from the visited mask) to the visited mask, and sets the value to `layer` if given.
    fn commit(&self, i: usize, parity: usize, next: u64, cur: u64, layer: Option<u8>);
    /// The values (`UNREACHABLE` where none was set).
    fn values(&self) -> Vec<u8>;
}

/// Allocates `n` zeroed `T`s without touching the pages (they come zeroed from the OS) and
/// asks for transparent huge pages, which matter for the random accesses of the search.
///
/// # Safety
/// All-zero bytes must be a valid `T` (true of the atomic integers used here).
unsafe fn zeroed_vec<T>(n: usize) -> Option<Vec<T>> {
    if n == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(n).ok()?;
    // SAFETY: the layout has non-zero size.
    let p = unsafe { std::alloc::alloc_zeroed(layout) } as *mut T;
    if p.is_null() {
        return None;
    }
    advise_huge_pages(p as *mut u8, layout.size());
    // SAFETY: `p` was allocated by the global allocator with the layout of `n` `T`s, and the
    // caller guarantees that zeroed memory is `n` valid `T`s.
    Some(unsafe { Vec::from_raw_parts(p, n, n) })
}

/// Boards of at most 16 cells: bits 0..16 visited, 16..32 `next[0]`, 32..48 `next[1]`,
/// 48..56 value + 1 (0: none yet).
struct Packed(Vec<AtomicU64>);

impl Store for Packed {
    const BYTES: usize = 8;

    fn alloc(len: usize) -> Option<Self> {
        // SAFETY: zero is a valid AtomicU64.
        unsafe { zeroed_vec(len) }.map(Packed)
    }

    #[inline(always)]
    fn visited(&self, i: usize) -> u64 {
        self.0[i].load(Relaxed) & 0xFFFF
    }

    #[inline(always)]
    fn add(&self, i: usize, parity: usize, mask: u64) {
        self.0[i].fetch_or(mask << (16 + 16 * parity), Relaxed);
    }

    #[inline(always)]
    fn prefetch(&self, i: usize, _parity: usize) {
        prefetch(self.0.as_ptr().wrapping_add(i).cast());
    }

    #[inline(always)]
    fn peek(&self, i: usize, parity: usize) -> (u64, u64, bool) {
        let w = self.0[i].load(Relaxed);
        ((w >> (16 + 16 * parity)) & 0xFFFF, w & 0xFFFF, w >> 48 != 0)
    }

    #[inline(always)]
    fn commit(&self, i: usize, parity: usize, next: u64, cur: u64, layer: Option<u8>) {
        // Only this task changes visited, next[parity] and the value during the pass; others
        // may OR into next[1 - parity] meanwhile, so apply the change as an XOR of our bits.
        let mut delta = (next << (16 + 16 * parity)) | cur;
        if let Some(d) = layer {
            delta |= (d as u64 + 1) << 48;
        }
        self.0[i].fetch_xor(delta, Relaxed);
    }

    fn values(&self) -> Vec<u8> {
        self.0
            .par_iter()
            .map(|w| match (w.load(Relaxed) >> 48) as u8 {
                0 => UNREACHABLE,
                v => v - 1,
            })
            .collect()
    }
}

/// Larger boards: separate masks.
struct Split {
    visited: Vec<AtomicU64>,
    next: [Vec<AtomicU64>; 2],
    value: Vec<AtomicU8>,
}

impl Store for Split {
    const BYTES: usize = 25;

    fn alloc(len: usize) -> Option<Self> {
        // SAFETY: zero is a valid AtomicU64 and AtomicU8.
        unsafe {
            Some(Split {
                visited: zeroed_vec(len)?,
                next: [zeroed_vec(len)?, zeroed_vec(len)?],
                value: zeroed_vec(len)?,
            })
        }
    }

    #[inline(always)]
    fn visited(&self, i: usize) -> u64 {
        self.visited[i].load(Relaxed)
    }

    #[inline(always)]
    fn add(&self, i: usize, parity: usize, mask: u64) {
        self.next[parity][i].fetch_or(mask, Relaxed);
    }

    #[inline(always)]
    fn prefetch(&self, i: usize, parity: usize) {
        prefetch(self.visited.as_ptr().wrapping_add(i).cast());
        prefetch(self.next[parity].as_ptr().wrapping_add(i).cast());
    }

    #[inline(always)]
    fn peek(&self, i: usize, parity: usize) -> (u64, u64, bool) {
        let next = self.next[parity][i].load(Relaxed);
        if next == 0 {
            return (0, 0, false);
        }
        (
            next,
            self.visited[i].load(Relaxed),
            self.value[i].load(Relaxed) != 0,
        )
    }

    #[inline(always)]
    fn commit(&self, i: usize, parity: usize, _next: u64, cur: u64, layer: Option<u8>) {
        self.next[parity][i].store(0, Relaxed);
        if cur != 0 {
            self.visited[i].fetch_or(cur, Relaxed);
        }
        if let Some(d) = layer {
            self.value[i].store(d + 1, Relaxed);
        }
    }

    fn values(&self) -> Vec<u8> {
        self.value
            .par_iter()
            .map(|v| match v.load(Relaxed) {
                0 => UNREACHABLE,
                v => v - 1,
            })
            .collect()
    }
}

/// Targets of expansions wait here, prefetched, before their masks are read and written:
/// the accesses of a few dozen moves overlap instead of waiting one after another.
const RING: usize = 32;

struct Ring {
    slots: [(usize, u64); RING],
    filled: usize,
    next: usize,
}

struct Search<S: Store, G: Grid> {
    grid: G,
    index: Placements,
    n: usize,
    k: usize,
    all: u64,
    neighbours: [u64; 64],
    /// Per digit of the index: its radix and `⌊(2^64 − 1) / radix⌋ + 1` (division of 32-bit
    /// numbers by multiplication).
    radix: [(u64, u64); 64],
    /// The CPU has POPCNT and BMI2 (x86-64).
    fast: bool,
    store: S,
    /// One bit per page of placements whose `next[parity]` may be non-empty.
    pages: [Vec<AtomicU64>; 2],
    goal: Vec<u8>,
    blank: usize,
}

impl<S: Store, G: Grid> Search<S, G> {
    fn new(grid: G, goal: &[u8], blank: usize) -> Result<Self> {
        let n = grid.cells();
        let k = goal.len();
        let index = Placements::new(n, k)
            .filter(|p| p.count().is_some_and(|c| usize::try_from(c).is_ok()) && blank < n)
            .ok_or_else(|| {
                Error::unsupported(format!("{k} tokens on {n} cells: no such placements"))
            })?;
        let len = index.count().unwrap_or(0) as usize;
        // The search state plus the values at the end.
        let needed = len as u64 * (S::BYTES as u64 + 1);
        let short = |available: Option<u64>| {
            Error::unsupported(format!(
                "not enough memory for the search over {len} placements of {k} tokens: it needs {} MiB{}",
                needed >> 20,
                available.map_or(String::new(), |a| format!(
                    ", {} MiB are available",
                    a >> 20
                ))
            ))
        };
        // Refuse early rather than be killed half-way (the OS may promise more than it has).
        if let Some(available) = available_memory() {
            if needed > available {
                return Err(short(Some(available)));
            }
        }
        let store = S::alloc(len).ok_or_else(|| short(None))?;
        let words = len.div_ceil(64 << PAGE_SHIFT);
        let pages = [
            (0..words).map(|_| AtomicU64::new(0)).collect(),
            (0..words).map(|_| AtomicU64::new(0)).collect(),
        ];
        let mut neighbours = [0u64; 64];
        for (c, m) in neighbours.iter_mut().enumerate().take(n) {
            *m = grid.neighbours(c);
        }
        let mut radix = [(1, 0); 64];
        for (i, r) in radix.iter_mut().enumerate().take(k) {
            let d = (n - i) as u64;
            *r = (d, u64::MAX / d + 1);
        }
        Ok(Search {
            grid,
            index,
            n,
            k,
            all: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
            neighbours,
            radix,
            fast: cpu_is_fast(),
            store,
            pages,
            goal: goal.to_vec(),
            blank,
        })
    }

    #[inline(always)]
    fn mark(&self, parity: usize, i: usize) {
        let word = &self.pages[parity][i >> (PAGE_SHIFT + 6)];
        let bit = 1u64 << ((i >> PAGE_SHIFT) & 63);
        if word.load(Relaxed) & bit == 0 {
            word.fetch_or(bit, Relaxed);
        }
    }

    fn run(self, progress: &dyn Progress) -> Result<Vec<u8>> {
        // Layer 0: the goal placement with the blank on its goal cell.
        let goal = self.index.rank(&self.goal) as usize;
        self.store.add(goal, 0, 1u64 << self.blank);
        self.mark(0, goal);
        let mut layer: u32 = 0;
        loop {
            let parity = (layer & 1) as usize;
            if self.pages[parity].iter().all(|w| w.load(Relaxed) == 0) {
                break;
            }
            if layer >= UNREACHABLE as u32 {
                return Err(Error::unsupported(format!(
                    "pattern database distances reach {layer}, more than a byte holds"
                )));
            }
            let layer8 = layer as u8;
            self.pages[parity]
                .par_iter()
                .enumerate()
                .for_each(|(w, word)| {
                    let bits = word.swap(0, Relaxed);
                    if bits != 0 {
                        let fresh = if self.fast {
                            // SAFETY: `fast` is set only when the CPU has these features.
                            unsafe { self.pages_fast(w, bits, layer8) }
                        } else {
                            self.pages_impl::<false, 0>(w, bits, layer8)
                        };
                        progress.inc(fresh);
                    }
                });
            layer += 1;
        }
        Ok(self.store.values())
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    unsafe fn pages_fast(&self, w: usize, bits: u64, layer: u8) -> u64 {
        // One copy per pattern size, so that the loops over the tiles unroll.
        macro_rules! by_size {
            ($($k:literal)*) => {
                match self.k {
                    $($k => self.pages_impl::<true, $k>(w, bits, layer),)*
                    _ => self.pages_impl::<true, 0>(w, bits, layer),
                }
            };
        }
        by_size!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    }

    #[cfg(not(target_arch = "x86_64"))]
    unsafe fn pages_fast(&self, w: usize, bits: u64, layer: u8) -> u64 {
        self.pages_impl::<false, 0>(w, bits, layer)
    }

    /// Settles and expands the placements of the pages `bits` of page word `w`; returns how
    /// many placements got their value.
    #[inline(always)]
    fn pages_impl<const FAST: bool, const K: usize>(
        &self,
        w: usize,
        mut bits: u64,
        layer: u8,
    ) -> u64 {
        let parity = (layer & 1) as usize;
        let len = self.index.count().unwrap_or(0) as usize;
        let mut fresh = 0u64;
        let mut cells = [0u8; 64];
        let mut ring = Ring {
            slots: [(0, 0); RING],
            filled: 0,
            next: 0,
        };
        while bits != 0 {
            let page = (w << 6) | bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let lo = page << PAGE_SHIFT;
            let hi = (lo + (1 << PAGE_SHIFT)).min(len);
            for i in lo..hi {
                let (next, visited, valued) = self.store.peek(i, parity);
                if next == 0 {
                    continue;
                }
                let seeds = next & !visited;
                if seeds == 0 {
                    self.store.commit(i, parity, next, 0, None);
                    continue;
                }
                let occupied = self.unrank::<FAST, K>(i, &mut cells);
                // Visited states are whole components, so the seeds' components are new.
                let cur = self.grid.flood(seeds, self.all & !occupied);
                self.store
                    .commit(i, parity, next, cur, (!valued).then_some(layer));
                fresh += !valued as u64;
                self.expand::<K>(&cells, cur, 1 - parity, &mut ring);
            }
        }
        for j in 0..ring.filled {
            let (r, bit) = ring.slots[(ring.next + RING - ring.filled + j) % RING];
            self.push_move(r, bit, 1 - parity);
        }
        fresh
    }

    /// The cells of placement `i` into `cells[..k]`; returns their mask.
    #[inline(always)]
    fn unrank<const FAST: bool, const K: usize>(&self, i: usize, cells: &mut [u8; 64]) -> u64 {
        let k = if K == 0 { self.k } else { K };
        let mut digits = [0u64; 64];
        let mut x = i as u64;
        for d in (0..k).rev() {
            let (radix, magic) = self.radix[d];
            let q = ((magic as u128 * x as u128) >> 64) as u64;
            digits[d] = x - q * radix;
            x = q;
        }
        let mut free = self.all;
        for d in 0..k {
            let c = select::<FAST>(free, digits[d]);
            cells[d] = c as u8;
            free &= !(1u64 << c);
        }
        self.all & !free
    }

    /// Every pattern move from the states `cur` (blank cells) of placement `cells`: queues
    /// (target placement, blank cell) in the ring.
    #[inline(always)]
    fn expand<const K: usize>(&self, cells: &[u8; 64], cur: u64, parity: usize, ring: &mut Ring) {
        let k = if K == 0 { self.k } else { K };
        let n = self.n;
        let mut prefix = 0u64;
        let mut used = 0u64;
        for t in 0..k {
            let from = cells[t] as u64;
            let mut targets = self.neighbours[from as usize] & cur;
            while targets != 0 {
                let to = targets.trailing_zeros() as u64;
                targets &= targets - 1;
                // Tile t slides from `from` into the blank on `to`.
                let mut r =
                    prefix * (n - t) as u64 + to - (used & ((1u64 << to) - 1)).count_ones() as u64;
                let mut u = used | 1 << to;
                for (j, &c) in cells.iter().enumerate().take(k).skip(t + 1) {
                    r = r * (n - j) as u64 + c as u64 - (u & ((1u64 << c) - 1)).count_ones() as u64;
                    u |= 1 << c;
                }
                let r = r as usize;
                self.store.prefetch(r, parity);
                if ring.filled == RING {
                    let (r0, bit0) = ring.slots[ring.next];
                    self.push_move(r0, bit0, parity);
                } else {
                    ring.filled += 1;
                }
                ring.slots[ring.next] = (r, 1u64 << from);
                ring.next = (ring.next + 1) % RING;
            }
            prefix =
                prefix * (n - t) as u64 + from - (used & ((1u64 << from) - 1)).count_ones() as u64;
            used |= 1 << from;
        }
    }

    #[inline(always)]
    fn push_move(&self, r: usize, blank: u64, parity: usize) {
        // Without a branch on the visited bit, which the CPU cannot predict.
        let new = blank & !self.store.visited(r);
        self.store.add(r, parity, new);
        let word = &self.pages[parity][r >> (PAGE_SHIFT + 6)];
        let bit = ((new != 0) as u64) << ((r >> PAGE_SHIFT) & 63);
        if word.load(Relaxed) & bit != bit {
            word.fetch_or(bit, Relaxed);
        }
    }
}

/// The position of the `d`-th set bit of `x`.
#[inline(always)]
fn select<const FAST: bool>(mut x: u64, d: u64) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: FAST is true only inside functions compiled for BMI2 on CPUs that have it.
        return unsafe { std::arch::x86_64::_pdep_u64(1u64 << d, x) }.trailing_zeros();
    }
    for _ in 0..d {
        x &= x - 1;
    }
    x.trailing_zeros()
}

fn cpu_is_fast() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_is_a_lexicographic_bijection() {
        for (n, k) in [(4, 1), (4, 3), (6, 2), (6, 5), (9, 4), (12, 3), (16, 2)] {
            let p = Placements::new(n, k).unwrap();
            let mut cells = vec![0u8; k];
            let mut last: Option<Vec<u8>> = None;
            for i in 0..p.count().unwrap() {
                p.unrank(i, &mut cells);
                let mut seen = 0u64;
                for &c in &cells {
                    assert!((c as usize) < n && seen >> c & 1 == 0);
                    seen |= 1 << c;
                }
                assert_eq!(p.rank(&cells), i);
                if let Some(prev) = &last {
                    assert!(prev < &cells, "lexicographic order");
                }
                last = Some(cells.clone());
            }
        }
    }
}
