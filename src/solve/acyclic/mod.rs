//! The level-by-level parallel solver for finite acyclic games.
//!
//! Levels are solved in order; inside a level every position depends only on lower levels, so
//! rayon splits the level freely. Work is cut on 64-position word boundaries so each task owns
//! whole words of the result, which is what makes the output independent of the thread count:
//! every bit is a function of the game alone, and the only shared writes are `fetch_or`s, whose
//! result does not depend on their order.

pub(crate) mod runs;
pub(crate) mod triangles;
pub(crate) mod waves;

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use crate::progress::Progress;
use rayon::prelude::*;

use crate::format::Solved;
use crate::model::{Game, Outcome, Retro, ValueKind};
use crate::{Error, Result};

/// Below this many positions a level is solved on the calling thread: splitting costs more.
const SEQUENTIAL_LEVEL: u64 = 4096;

/// Words handed to one rayon task at a time.
const WORDS_PER_TASK: usize = 16;

/// One bit per position, 1 = N (the player to move wins): position `i` is bit `i % 8` of byte
/// `i / 8`, which is also bit `i % 64` of little-endian 64-bit word `i / 64`.
///
/// The bits are kept as bytes so that [`Bits::into_bytes`] hands the storage over as the table
/// payload without copying it (a 2 GB table needs 2 GB, not 4). Writers work a 64-bit
/// word ([`Bits::or_word`]) or a byte ([`Bits::or_byte`]) at a time.
pub struct Bits {
    bytes: Vec<AtomicU8>,
    len: u64,
}

impl Bits {
    /// `len` zero bits.
    pub fn new(len: u64) -> Bits {
        Bits::try_new(len).expect("memory for the bit table")
    }

    /// `len` zero bits, or an error naming the size when the memory is not available.
    pub fn try_new(len: u64) -> Result<Bits> {
        let n = usize::try_from(len.div_ceil(8))
            .map_err(|_| Error::unsupported(format!("{len} positions do not fit in memory")))?;
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(n).map_err(|_| {
            Error::unsupported(format!(
                "cannot allocate {n} bytes for the bits of {len} positions"
            ))
        })?;
        bytes.resize_with(n, || AtomicU8::new(0));
        Ok(Bits { bytes, len })
    }

    /// The bits of a table's payload bytes (`len` bits, `ceil(len / 8)` bytes); the storage
    /// is reused, not copied.
    pub fn from_bytes(bytes: Vec<u8>, len: u64) -> Bits {
        assert_eq!(
            bytes.len() as u64,
            len.div_ceil(8),
            "payload size of {len} bits"
        );
        // Same size and alignment: the standard library collects this in place.
        Bits {
            bytes: bytes.into_iter().map(AtomicU8::new).collect(),
            len,
        }
    }

    /// Number of bits.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when there are no bits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bit `i`.
    #[inline]
    pub fn get(&self, i: u64) -> bool {
        self.bytes[(i / 8) as usize].load(Relaxed) >> (i % 8) & 1 == 1
    }

    /// Sets bit `i` (safe to call from several threads).
    #[inline]
    pub fn set(&self, i: u64) {
        self.bytes[(i / 8) as usize].fetch_or(1 << (i % 8), Relaxed);
    }

    /// Clears bit `i` (safe to call from several threads).
    #[inline]
    pub fn clear(&self, i: u64) {
        self.bytes[(i / 8) as usize].fetch_and(!(1 << (i % 8)), Relaxed);
    }

    /// Sets the bits of `mask` in byte `b` (positions `8 b .. 8 b + 8`).
    #[inline]
    pub fn or_byte(&self, b: u64, mask: u8) {
        self.bytes[b as usize].fetch_or(mask, Relaxed);
    }

    /// Sets the bits of `mask` in 64-bit word `w` (positions `64 w .. 64 w + 64`).
    #[inline]
    pub fn or_word(&self, w: usize, mask: u64) {
        if mask == 0 {
            return;
        }
        for (b, m) in mask.to_le_bytes().into_iter().enumerate() {
            if m != 0 {
                self.bytes[w * 8 + b].fetch_or(m, Relaxed);
            }
        }
    }

    /// The outcome stored for position `i`.
    pub fn outcome(&self, i: u64) -> Outcome {
        Outcome::from_win(self.get(i))
    }

    /// The payload bytes of a table, `ceil(len / 8)` of them; the storage is reused, not
    /// copied.
    pub fn into_bytes(self) -> Vec<u8> {
        // Same size and alignment: the standard library collects this in place.
        self.bytes.into_iter().map(AtomicU8::into_inner).collect()
    }

    /// The solved values these bits are (1 = N).
    pub fn into_solved(self) -> Solved {
        let len = self.len;
        Solved::Outcomes {
            bits: self.into_bytes(),
            len,
        }
    }

    /// Number of set bits (N-positions).
    pub fn count_ones(&self) -> u64 {
        self.bytes
            .par_iter()
            .with_min_len(1 << 16)
            .map(|b| b.load(Relaxed).count_ones() as u64)
            .sum()
    }
}

/// Runs `body(word, positions)` over every word overlapping `range`, in parallel when the range
/// is large; `positions` is the part of `range` inside that word.
fn for_each_word<F>(range: std::ops::Range<u64>, body: F)
where
    F: Fn(usize, std::ops::Range<u64>) + Sync,
{
    if range.is_empty() {
        return;
    }
    let first = (range.start / 64) as usize;
    let last = ((range.end - 1) / 64) as usize;
    let piece = |w: usize| {
        let lo = range.start.max(w as u64 * 64);
        let hi = range.end.min(w as u64 * 64 + 64);
        body(w, lo..hi)
    };
    if range.end - range.start < SEQUENTIAL_LEVEL {
        (first..=last).for_each(piece);
    } else {
        (first..last + 1)
            .into_par_iter()
            .with_min_len(WORDS_PER_TASK)
            .for_each(piece);
    }
}

/// Calls `body` with each level of `game` in order, checking the contract as it goes: each
/// level starts where the last ended and stays inside the table (so `body` may index by it), and
/// the last ends at `positions()`. Checked level by level, not first, so that no list of levels
/// is ever held: a game may have as many levels as positions.
fn for_each_level<G, B>(game: &G, mut body: B) -> Result<()>
where
    G: Game,
    B: FnMut(std::ops::Range<u64>) -> Result<()>,
{
    let n = game.positions();
    let mut next = 0;
    for l in 0..game.level_count() {
        let level = game.level(l);
        if level.start != next || level.end < level.start || level.end > n {
            return Err(Error::internal(format!(
                "game level {l} is {level:?}, not a range from {next} within \
                 0..{n}"
            )));
        }
        next = level.end;
        body(level)?;
    }
    if next != n {
        return Err(Error::internal(format!(
            "game levels cover {next} of {n} positions"
        )));
    }
    Ok(())
}

/// Solves levels in order into a fresh bit table: `decide(bits, pos)` says whether `pos` is N,
/// reading only lower levels (and, for the push solver, marking higher ones).
fn solve_bits<G, D>(game: &G, progress: &dyn Progress, decide: D) -> Result<Bits>
where
    G: Game,
    D: Fn(&Bits, u64) -> bool + Sync,
{
    let bits = Bits::try_new(game.positions())?;
    for_each_level(game, |level| {
        let size = level.end - level.start;
        for_each_word(level, |w, positions| {
            let mut mask = 0u64;
            for pos in positions {
                if decide(&bits, pos) {
                    mask |= 1 << (pos % 64);
                }
            }
            bits.or_word(w, mask);
        });
        progress.inc(size);
        Ok(())
    })?;
    Ok(bits)
}

/// Memory of [`solve_outcomes`] and [`solve_outcomes_retro`] over `positions`: one bit per
/// position (the bits become the table's payload without a copy). The levels cost nothing:
/// they are asked for one at a time ([`Game::level`]).
pub fn outcomes_memory(positions: u64) -> u64 {
    positions.div_ceil(8)
}

/// Memory of [`solve_grundy`] over `positions`: two bytes per position.
pub fn grundy_memory(positions: u64) -> u64 {
    positions.saturating_mul(2)
}

/// P/N of every position by scanning children, stopping at the first P child.
/// Works for any [`Game`].
pub fn solve_outcomes<G: Game>(game: &G, progress: &dyn Progress) -> Result<Bits> {
    solve_bits(game, progress, |bits, pos| match game.terminal(pos) {
        Some(o) => o == Outcome::N,
        None => game.children(pos, stop_at_p(bits)).is_break(),
    })
}

/// A children visitor that stops at the first P child (a clear bit): the visit then breaks
/// exactly when the position is N.
#[inline]
pub(crate) fn stop_at_p(bits: &Bits) -> impl FnMut(u64) -> ControlFlow<()> + '_ {
    move |c| {
        if bits.get(c) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    }
}

/// P/N of every position by retrograde pushing: a position still unmarked when its level comes
/// up is P (or terminal), and marks all its parents N. The work is proportional to the number
/// of (parent, P-child) pairs, far below the number of moves in most games.
pub fn solve_outcomes_retro<G: Retro>(game: &G, progress: &dyn Progress) -> Result<Bits> {
    solve_bits(game, progress, |bits, pos| {
        let wins = match game.terminal(pos) {
            Some(o) => o == Outcome::N,
            // Every child lies in a lower level, already final, and pushed to us.
            None => bits.get(pos),
        };
        if !wins {
            game.parents(pos, |p| bits.set(p));
        }
        wins
    })
}

/// `kind` values of a game that lists its parents: Grundy values by [`solve_grundy`], P/N
/// by pushing ([`solve_outcomes_retro`]). What Nim and Wythoff's game solve with rather than
/// their view's forward solver.
pub fn solve_retro<G: Retro>(game: &G, kind: ValueKind, progress: &dyn Progress) -> Result<Solved> {
    Ok(match kind {
        ValueKind::Grundy => Solved::Grundy(solve_grundy(game, progress)?),
        _ => solve_outcomes_retro(game, progress)?.into_solved(),
    })
}

/// The largest Grundy value the solver stores (values are kept as `u16`).
pub(crate) const MAX_GRUNDY: u32 = u16::MAX as u32;

/// Grundy value of every position of a normal-play game (terminal positions are P, value 0).
pub fn solve_grundy<G: Game>(game: &G, progress: &dyn Progress) -> Result<Vec<u16>> {
    let n = usize::try_from(game.positions())
        .map_err(|_| Error::unsupported("too many positions for a Grundy table"))?;
    let mut values = vec![0u16; n];
    let failed = std::sync::atomic::AtomicBool::new(false);
    for_each_level(game, |level| {
        let (lo, hi) = (level.start as usize, level.end as usize);
        let (done, rest) = values.split_at_mut(lo);
        let current = &mut rest[..hi - lo];
        let done: &[u16] = done;
        let solve_one = |pos: u64, slot: &mut u16| match game.terminal(pos) {
            Some(Outcome::P) => *slot = 0,
            Some(Outcome::N) => failed.store(true, Relaxed),
            None => match mex(game, pos, done) {
                Some(v) => *slot = v,
                None => failed.store(true, Relaxed),
            },
        };
        if hi - lo < SEQUENTIAL_LEVEL as usize {
            for (i, slot) in current.iter_mut().enumerate() {
                solve_one((lo + i) as u64, slot);
            }
        } else {
            current
                .par_chunks_mut(1024)
                .enumerate()
                .for_each(|(ci, chunk)| {
                    for (i, slot) in chunk.iter_mut().enumerate() {
                        solve_one((lo + ci * 1024 + i) as u64, slot);
                    }
                });
        }
        if failed.load(Relaxed) {
            return Err(Error::unsupported(
                "Grundy values are defined for normal play only (a terminal position must be P), \
                 and must stay below 65536",
            ));
        }
        progress.inc((hi - lo) as u64);
        Ok(())
    })?;
    Ok(values)
}

/// Minimum excludant of the children's values; `None` if it would not fit in a `u16`.
fn mex<G: Game>(game: &G, pos: u64, done: &[u16]) -> Option<u16> {
    let mut mex = Mex::new();
    let _ = game.children(pos, |c| {
        mex.add(done[c as usize]);
        ControlFlow::Continue(())
    });
    mex.value()
}

/// The minimum excludant of a set of values being collected: values up to 1023 in a stack
/// bitset, larger ones (rare) in a spill list. Shared by the solvers of this module tree.
pub(crate) struct Mex {
    seen: [u64; 16],
    spill: Vec<u16>,
}

impl Mex {
    /// No values yet.
    #[inline]
    pub(crate) fn new() -> Mex {
        Mex {
            seen: [0; 16],
            spill: Vec::new(),
        }
    }

    /// Adds one value.
    #[inline]
    pub(crate) fn add(&mut self, v: u16) {
        let v = v as usize;
        if v < 1024 {
            self.seen[v / 64] |= 1 << (v % 64);
        } else {
            self.spill.push(v as u16);
        }
    }

    /// The smallest value not added; `None` if it is not below [`MAX_GRUNDY`].
    pub(crate) fn value(mut self) -> Option<u16> {
        for (i, w) in self.seen.iter().enumerate() {
            if *w != u64::MAX {
                return Some((i * 64 + w.trailing_ones() as usize) as u16);
            }
        }
        self.spill.sort_unstable();
        self.spill.dedup();
        let mut m: u32 = 1024;
        for v in self.spill {
            if v as u32 == m {
                m += 1;
            } else if v as u32 > m {
                break;
            }
        }
        u16::try_from(m).ok().filter(|&m| (m as u32) < MAX_GRUNDY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Indexed;

    #[test]
    fn bits_become_bytes_without_a_copy() {
        let bits = Bits::new(1000);
        bits.set(999);
        bits.or_word(0, 0x0100_0000_0000_0003);
        bits.clear(1);
        let before = bits.bytes.as_ptr() as usize;
        let bytes = bits.into_bytes();
        assert_eq!(
            bytes.as_ptr() as usize,
            before,
            "the payload must reuse the bit storage"
        );
        assert_eq!(bytes.len(), 125);
        assert_eq!((bytes[0], bytes[7], bytes[124]), (0x01, 0x01, 0x80));
    }

    /// One heap, take one or two counters: position `i` is `i` counters and its own level, so
    /// there are as many levels as positions. `levels` and `gap_at` break the level contract
    /// on purpose (a sound heap has `levels == positions` and no gap).
    struct Heap {
        positions: u64,
        levels: u64,
        gap_at: Option<u64>,
    }

    fn heap(positions: u64) -> Heap {
        Heap {
            positions,
            levels: positions,
            gap_at: None,
        }
    }

    impl crate::model::Indexed for Heap {
        fn positions(&self) -> u64 {
            self.positions
        }
    }

    impl Game for Heap {
        fn level_count(&self) -> u64 {
            self.levels
        }
        fn level(&self, l: u64) -> std::ops::Range<u64> {
            let i = l + self.gap_at.is_some_and(|g| l >= g) as u64;
            i..i + 1
        }
        fn children<F: FnMut(u64) -> ControlFlow<()>>(
            &self,
            pos: u64,
            mut f: F,
        ) -> ControlFlow<()> {
            for t in 1..=pos.min(2) {
                f(pos - t)?;
            }
            ControlFlow::Continue(())
        }
        fn terminal(&self, pos: u64) -> Option<Outcome> {
            (pos == 0).then_some(Outcome::P)
        }
    }

    #[test]
    fn a_game_of_two_to_the_32_levels_holds_none_of_them() {
        // 16 bytes a level listed would be 64 GiB; asked for one at a time they cost nothing.
        let g = heap(1 << 32);
        assert_eq!(g.level_count(), 1 << 32);
        assert_eq!(g.level((1 << 32) - 1), (1 << 32) - 1..1 << 32);
        assert_eq!(outcomes_memory(g.positions()), 1 << 29);
        // The same game, small enough to solve: one level a position is a sound game.
        let g = heap(1000);
        assert_eq!(
            crate::game::conformance::game(&g).map(|c| c.len()),
            Ok(1000)
        );
        let bits = solve_outcomes(&g, &()).unwrap();
        let grundy = solve_grundy(&g, &()).unwrap();
        for i in 0..1000 {
            assert_eq!(bits.get(i), i % 3 != 0, "{i}");
            assert_eq!(grundy[i as usize] as u64, i % 3, "{i}");
        }
    }

    #[test]
    fn levels_that_break_the_contract_are_refused() {
        let gap = Heap {
            levels: 9,
            gap_at: Some(4),
            ..heap(10)
        };
        let short = Heap {
            levels: 9,
            ..heap(10)
        };
        // Level 10 would be 10..11, past the table: refused, not indexed.
        let long = Heap {
            levels: 11,
            ..heap(10)
        };
        for (g, says) in [
            (gap, "game level 4 is 5..6, not a range from 4 within 0..10"),
            (short, "game levels cover 9 of 10 positions"),
            (
                long,
                "game level 10 is 10..11, not a range from 10 within 0..10",
            ),
        ] {
            for e in [solve_outcomes(&g, &()).err(), solve_grundy(&g, &()).err()] {
                let e = e.expect("refused").to_string();
                assert!(e.contains(says), "{e}");
            }
        }
    }
}
