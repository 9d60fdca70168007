//! Parallel breadth-first search for puzzles: state spaces with reversible unit-cost moves
//! and one or more goal positions.
//!
//! Because every move can be undone, the distance *to* the goal equals the distance *from* it,
//! so the retrograde analysis of a puzzle is a plain forward search from its goals. Two
//! searches are offered, both layer by layer over a dense index:
//!
//! * [`distances`]: one byte per position (`UNSEEN` until reached) plus a frontier bitmap: the
//!   frontier of layer `d` is the positions holding `d`.
//! * `reach`: three bits per position (seen, seen before this layer, frontier), for spaces
//!   where only reachability and layer sizes are wanted.
//!
//! Each layer takes two passes over chunks of `CHUNK` consecutive indices, handed to rayon.
//! The first, while nothing is written, finds the frontier (a vectorized byte compare, or the
//! new bits of the visited bitmap); the second hands each chunk's frontier to
//! [`Puzzle::expand`], which lets the puzzle carry work from one position to the next (a
//! permutation rank, an unranked board) instead of starting afresh per position. Neighbours are
//! looked at a few steps after their memory is prefetched, so the random accesses overlap.
//!
//! **Determinism.** A position first reached in layer `d + 1` receives the value `d + 1`,
//! whichever thread writes it and in whatever order; a position reached twice receives the same
//! value twice. The result is therefore a function of the puzzle alone: identical bytes at any
//! thread count.

pub(crate) mod partitioned;

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};

use crate::model::Indexed;
use crate::progress::Progress;
use crate::solve::prefetch::prefetch;
use crate::solve::word_bits::WordBits;
use rayon::prelude::*;

use crate::{Error, Result};

/// A puzzle over a dense index, as the breadth-first solvers see it.
///
/// Contract:
/// * positions are `0..positions()`;
/// * moves are reversible: `b` is a neighbour of `a` exactly when `a` is a neighbour of `b`
///   (the search runs from the goals outwards and reads the result as distance *to* a goal);
/// * every move costs one.
pub trait Puzzle: Indexed + Sync {
    /// The goal positions (distance 0).
    fn goals(&self) -> Vec<u64>;

    /// Calls `f` with every position one move away from `pos` (a neighbour may come twice).
    fn neighbours<F: FnMut(u64)>(&self, pos: u64, f: F);

    /// Calls `f` with every neighbour of every position of `positions`, which come in
    /// increasing order.
    ///
    /// The default calls [`neighbours`](Puzzle::neighbours) position by position. Override it
    /// when nearby positions share work (the solvers hand over the frontier of one chunk of
    /// consecutive indices at a time); the neighbours must be the same.
    fn expand<I, F>(&self, positions: I, mut f: F)
    where
        I: IntoIterator<Item = u64>,
        F: FnMut(u64),
    {
        for pos in positions {
            self.neighbours(pos, &mut f);
        }
    }
}

/// The value of a position not (yet) reached in a distance table.
pub(crate) const UNSEEN: u8 = crate::format::entries::UNREACHED;

/// Largest distance a byte table can hold (`UNSEEN` is reserved).
pub(crate) const MAX_DISTANCE: u32 = UNSEEN as u32 - 1;

/// Consecutive positions expanded by one task (a multiple of 64 so bitmap words are whole).
pub(crate) const CHUNK: u64 = 1 << 16;

/// The result of [`distances`].
pub struct Distances {
    /// One byte per position: its distance to the nearest goal,
    /// [`UNREACHED`](crate::format::entries::UNREACHED) if unreachable.
    pub values: Vec<u8>,
    /// `layers[d]`: number of positions at distance `d`.
    pub layers: Vec<u64>,
}

impl Distances {
    /// Positions reached (the sum of the layers).
    pub fn reached(&self) -> u64 {
        self.layers.iter().sum()
    }
}

/// Memory of [`distances`] over `positions`: one byte and one frontier bit per position, and
/// a flag per chunk.
pub fn distances_memory(positions: u64) -> u64 {
    positions + positions.div_ceil(64) * 8 + positions.div_ceil(CHUNK)
}

/// Distance of every position to the nearest goal, one byte each.
///
/// Each layer takes two passes. The first, read-only, scans the table for positions holding
/// `d` and marks them in a frontier bitmap (plain byte compares, vectorized); the second expands
/// the marked positions, writing `d + 1` into their unseen neighbours. Chunks that received no
/// position of the current layer are skipped. Peak memory: one byte plus one bit per position.
pub fn distances<P: Puzzle>(puzzle: &P, progress: &dyn Progress) -> Result<Distances> {
    let n = puzzle.positions();
    let len = usize::try_from(n).map_err(|_| {
        Error::unsupported(format!(
            "{n} positions do not fit in memory on this machine"
        ))
    })?;
    let mut values = filled(len, UNSEEN);
    let chunks = n.div_ceil(CHUNK) as usize;
    let words_per_chunk = (CHUNK / 64) as usize;
    let mut frontier = vec![0u64; len.div_ceil(64)];
    let flags = || {
        (0..chunks)
            .map(|_| AtomicBool::new(false))
            .collect::<Vec<_>>()
    };
    let mut active = flags();
    for g in puzzle.goals() {
        if g >= n {
            return Err(Error::internal(format!(
                "goal {g} outside the {n} positions"
            )));
        }
        values[g as usize] = 0;
        active[(g / CHUNK) as usize].store(true, Relaxed);
    }
    let mut layers = Vec::new();
    let overflow = AtomicBool::new(false);
    for d in 0..=MAX_DISTANCE as u8 {
        // Pass 1: the frontier, read from the table while nobody writes it.
        let found: u64 = values
            .par_chunks(CHUNK as usize)
            .zip(frontier.par_chunks_mut(words_per_chunk))
            .enumerate()
            .with_max_len(1)
            .map(|(c, (bytes, words))| {
                if !active[c].load(Relaxed) {
                    words.fill(0);
                    return 0;
                }
                mark(bytes, d, words)
            })
            .sum();
        if found == 0 {
            break;
        }
        layers.push(found);
        // The last layer a byte can hold only checks that nothing lies beyond it.
        let last = d as u32 == MAX_DISTANCE;
        let next = flags();
        // Pass 2: expand the frontier.
        let cells = atomic_bytes(&mut values);
        let frontier = &frontier;
        (0..chunks)
            .into_par_iter()
            .with_max_len(1)
            .filter(|&c| active[c].load(Relaxed))
            .for_each(|c| {
                let words = c * words_per_chunk..((c + 1) * words_per_chunk).min(frontier.len());
                let positions =
                    words.flat_map(|w| BitsOf(frontier[w]).map(move |b| w as u64 * 64 + b));
                let mut delay = Delay::<_, 16>::new(|j: u64| {
                    let cell = &cells[j as usize];
                    if cell.load(Relaxed) == UNSEEN {
                        if last {
                            overflow.store(true, Relaxed);
                            return;
                        }
                        cell.store(d + 1, Relaxed);
                        let flag = &next[(j / CHUNK) as usize];
                        if !flag.load(Relaxed) {
                            flag.store(true, Relaxed);
                        }
                    }
                });
                let base = cells.as_ptr() as *const u8;
                puzzle.expand(positions, |j| delay.push(j, base.wrapping_add(j as usize)));
                delay.flush();
            });
        progress.inc(found);
        active = next;
    }
    if overflow.load(Relaxed) {
        return Err(Error::unsupported(format!(
            "some positions are more than {MAX_DISTANCE} moves from the goal: a byte table cannot hold them"
        )));
    }
    Ok(Distances { values, layers })
}

/// Sets bit `k` of `words` exactly when `bytes[k] == d`; returns how many are set.
fn mark(bytes: &[u8], d: u8, words: &mut [u64]) -> u64 {
    let mut count = 0;
    for (word, group) in words.iter_mut().zip(bytes.chunks(64)) {
        let m = match <&[u8; 64]>::try_from(group) {
            Ok(group) => equal_bytes(group, d),
            Err(_) => group
                .iter()
                .enumerate()
                .fold(0, |m, (k, &v)| m | ((v == d) as u64) << k),
        };
        *word = m;
        count += m.count_ones() as u64;
    }
    count
}

/// Bit `k` set exactly when `group[k] == d`: SSE2 byte compares (part of every x86-64).
#[cfg(target_arch = "x86_64")]
#[inline]
fn equal_bytes(group: &[u8; 64], d: u8) -> u64 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    let mut m = 0u64;
    // SAFETY: SSE2 belongs to the x86-64 baseline, so every machine this code is compiled for
    // has these instructions; each load reads bytes 16q..16q+16 of the 64-byte array, in
    // bounds, and `_mm_loadu_si128` accepts any alignment.
    unsafe {
        let want = _mm_set1_epi8(d as i8);
        for q in 0..4 {
            let v = _mm_loadu_si128(group.as_ptr().add(16 * q) as *const __m128i);
            m |= (_mm_movemask_epi8(_mm_cmpeq_epi8(v, want)) as u16 as u64) << (16 * q);
        }
    }
    m
}

/// Bit `k` set exactly when `group[k] == d`: eight bytes at a time in a `u64`.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn equal_bytes(group: &[u8; 64], d: u8) -> u64 {
    swar_equal_bytes(group, d)
}

/// The portable form of [`equal_bytes`]: a byte of `x ^ d·0x0101…` is zero exactly when the
/// byte equals `d`; the high bit of each zero byte is found without carries between bytes,
/// then the eight high bits are gathered by a multiplication.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn swar_equal_bytes(group: &[u8; 64], d: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let spread = d as u64 * 0x0101_0101_0101_0101;
    let mut m = 0u64;
    for (q, eight) in group.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(eight.try_into().expect("8 bytes")) ^ spread;
        let zero_high = !(((x & LOW7) + LOW7) | x | LOW7);
        let bits = ((zero_high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) & 0xff;
        m |= bits << (8 * q);
    }
    m
}

/// The result of [`reach`].
pub(crate) struct Reach {
    /// Bit `i` set when position `i` was reached.
    pub seen: WordBits,
    /// `layers[d]`: number of positions first reached after `d` moves.
    pub layers: Vec<u64>,
}

/// Every position reachable from `starts`, with the size of each breadth-first layer.
///
/// Each layer takes two passes: the frontier is computed, while nobody writes, as the positions
/// seen now but not at the end of the previous layer; then it is expanded, marking unseen
/// neighbours seen. Memory: three bits per position (seen, seen before, frontier).
pub(crate) fn reach<P: Puzzle>(
    puzzle: &P,
    starts: &[u64],
    progress: &dyn Progress,
) -> Result<Reach> {
    let n = puzzle.positions();
    let words = usize::try_from(n.div_ceil(64)).map_err(|_| {
        Error::unsupported(format!(
            "{n} positions do not fit in memory on this machine"
        ))
    })?;
    let seen = WordBits::try_new(n)?;
    for &s in starts {
        if s >= n {
            return Err(Error::internal(format!(
                "start {s} outside the {n} positions"
            )));
        }
        seen.set(s);
    }
    let mut before = vec![0u64; words];
    let mut frontier = vec![0u64; words];
    let words_per_chunk = (CHUNK / 64) as usize;
    let mut layers = Vec::new();
    loop {
        // Pass 1: the frontier, positions seen since the previous layer.
        let found: u64 = frontier
            .par_chunks_mut(words_per_chunk)
            .zip(before.par_chunks_mut(words_per_chunk))
            .enumerate()
            .map(|(c, (front, old))| {
                let mut count = 0;
                for (k, (f, o)) in front.iter_mut().zip(old.iter_mut()).enumerate() {
                    let now = seen.word(c * words_per_chunk + k);
                    *f = now & !*o;
                    *o = now;
                    count += f.count_ones() as u64;
                }
                count
            })
            .sum();
        if found == 0 {
            return Ok(Reach { seen, layers });
        }
        layers.push(found);
        progress.inc(found);
        // Pass 2: expand it.
        let frontier = &frontier;
        frontier
            .par_chunks(words_per_chunk)
            .enumerate()
            .with_max_len(1)
            .for_each(|(c, front)| {
                if front.iter().all(|&w| w == 0) {
                    return;
                }
                let first = c * words_per_chunk;
                let positions = front
                    .iter()
                    .enumerate()
                    .flat_map(|(k, &w)| BitsOf(w).map(move |b| (first + k) as u64 * 64 + b));
                let mut delay = Delay::<_, 16>::new(|j: u64| {
                    if !seen.get(j) {
                        seen.set(j);
                    }
                });
                puzzle.expand(positions, |j| delay.push(j, seen.byte_address(j)));
                delay.flush();
            });
    }
}

/// Neighbours waiting to be looked at. Each is held for `LAG` further neighbours after its
/// memory was prefetched, so the random accesses of many neighbours overlap instead of waiting
/// for one another. The order in which a layer's neighbours are looked at does not matter.
pub(crate) struct Delay<P: FnMut(u64), const LAG: usize> {
    ring: [u64; LAG],
    len: usize,
    at: usize,
    process: P,
}

impl<P: FnMut(u64), const LAG: usize> Delay<P, LAG> {
    pub(crate) fn new(process: P) -> Self {
        Delay {
            ring: [0; LAG],
            len: 0,
            at: 0,
            process,
        }
    }

    /// Prefetches `addr` (the neighbour's byte) and queues `j`, processing the oldest.
    #[inline]
    pub(crate) fn push(&mut self, j: u64, addr: *const u8) {
        prefetch(addr);
        if self.len == LAG {
            let old = std::mem::replace(&mut self.ring[self.at], j);
            self.at = (self.at + 1) % LAG;
            (self.process)(old);
        } else {
            self.ring[(self.at + self.len) % LAG] = j;
            self.len += 1;
        }
    }

    /// Processes every queued neighbour.
    pub(crate) fn flush(&mut self) {
        for k in 0..self.len {
            (self.process)(self.ring[(self.at + k) % LAG]);
        }
        self.len = 0;
    }
}

/// The positions of the set bits of a word, lowest first.
pub(crate) struct BitsOf(pub(crate) u64);

impl Iterator for BitsOf {
    type Item = u64;
    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as u64;
        self.0 &= self.0 - 1;
        Some(b)
    }
}

/// `len` bytes of `value`, asking the kernel for huge pages first: a large table is read and
/// written at random, and huge pages spare most of the TLB misses.
fn filled(len: usize, value: u8) -> Vec<u8> {
    let mut v: Vec<u8> = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    if len >= 1 << 24 {
        const HUGE: usize = 1 << 21;
        let start = v.as_mut_ptr() as usize;
        let aligned = start.next_multiple_of(HUGE);
        let end = (start + len) / HUGE * HUGE;
        if end > aligned {
            // SAFETY: the range lies inside the allocation just made, which nothing has touched
            // yet; MADV_HUGEPAGE is only advice and never changes the memory's contents.
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    end - aligned,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    v.resize(len, value);
    v
}

/// Views bytes as atomics so that threads may write them concurrently.
fn atomic_bytes(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the same size, alignment and bit validity as `u8` (documented in
    // `std::sync::atomic`), and the exclusive borrow of `bytes` outlives the view, so no
    // non-atomic access can happen while the view exists.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cycle of `n` positions, each joined to its two neighbours: distances are known.
    struct Ring(u64);

    impl Indexed for Ring {
        fn positions(&self) -> u64 {
            self.0
        }
    }

    impl Puzzle for Ring {
        fn goals(&self) -> Vec<u64> {
            vec![0]
        }
        fn neighbours<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
            f((pos + 1) % self.0);
            f((pos + self.0 - 1) % self.0);
        }
    }

    /// A three-dimensional torus of side `k`, larger than one chunk for k ≥ 41.
    struct Torus(u64);

    impl Indexed for Torus {
        fn positions(&self) -> u64 {
            self.0.pow(3)
        }
    }

    impl Puzzle for Torus {
        fn goals(&self) -> Vec<u64> {
            vec![0]
        }
        fn neighbours<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
            let k = self.0;
            for axis in [1, k, k * k] {
                let c = pos / axis % k;
                f(pos - c * axis + (c + 1) % k * axis);
                f(pos - c * axis + (c + k - 1) % k * axis);
            }
        }
    }

    #[test]
    fn ring_distances_and_reach() {
        for n in [1u64, 2, 3, 10, 201, 509] {
            let d = distances(&Ring(n), &()).unwrap();
            for (i, &v) in d.values.iter().enumerate() {
                let i = i as u64;
                assert_eq!(v as u64, i.min(n - i), "n={n} i={i}");
            }
            assert_eq!(d.reached(), n);
            let r = reach(&Ring(n), &[0], &()).unwrap();
            assert_eq!(r.layers, d.layers);
            assert_eq!(r.seen.count_ones(), n);
        }
    }

    #[test]
    fn torus_distances_at_one_and_two_threads() {
        let k = 50;
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| distances(&Torus(k), &()).unwrap())
        };
        let (one, two) = (run(1), run(2));
        assert_eq!(one.values, two.values);
        assert_eq!(one.layers, two.layers);
        let ring = |c: u64| c.min(k - c);
        for (i, &v) in one.values.iter().enumerate() {
            let i = i as u64;
            assert_eq!(v as u64, ring(i % k) + ring(i / k % k) + ring(i / k / k));
        }
        let r = reach(&Torus(k), &[0], &()).unwrap();
        assert_eq!(r.layers, one.layers);
    }

    #[test]
    fn byte_marks_match_the_definition() {
        let mut g = [0u8; 64];
        let mut x = 12345u64;
        for round in 0..2000 {
            for b in g.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *b = (x % if round % 2 == 0 { 4 } else { 256 }) as u8;
            }
            for d in [0u8, 1, 2, 3, 127, 128, 255, g[5]] {
                let want = g
                    .iter()
                    .enumerate()
                    .fold(0u64, |m, (k, &v)| m | ((v == d) as u64) << k);
                assert_eq!(equal_bytes(&g, d), want);
                assert_eq!(swar_equal_bytes(&g, d), want);
                let mut words = [0u64; 2];
                assert_eq!(
                    mark(&g[..40], d, &mut words[..1]),
                    (want & ((1 << 40) - 1)).count_ones() as u64
                );
                assert_eq!(words[0], want & ((1 << 40) - 1));
            }
        }
    }

    #[test]
    fn too_deep_is_an_error() {
        let err = distances(&Ring(600), &()).err().unwrap();
        assert!(err.to_string().contains("more than 254 moves"), "{err}");
    }
}
