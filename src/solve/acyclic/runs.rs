//! The run solver: P/N for acyclic games whose positions come in *runs*, a run at a time.
//!
//! A **run** is a range of consecutive indices `base .. base + len` whose element `v` can move
//! to every earlier element of the run (a chain, like a Nim heap of size `v`). Its other moves
//! come as **edges**: an edge `(child, reach)` moves element `v` to index
//! `child + min(v, reach)`, a position of an earlier wave. So the P-elements of a run are found
//! together, a 64-bit word of elements per edge:
//!
//! * `n` = the elements that have a P child through some edge (word-parallel: an edge's
//!   children `child .. child + reach` are consecutive bits of the table);
//! * the run's first element outside `n` is its only P-position, and every element after it
//!   is N through the chain.
//!
//! A run with no P-position stops reading edges as soon as `n` is full. In Chomp, with the last
//! row as the run (its other bites keep the run's shape) a run holds up to `C + 1` positions and
//! one edge replaces that many separate child lookups.
//!
//! Waves and pieces work as in [`crate::solve::acyclic::waves`]: every edge of a run of wave `w`
//! leads into waves `< w`, the runs of a wave are solved in parallel, and the only shared writes
//! are `fetch_or`s of N bits, so the table is the same at any thread count.
//!
//! Memory: [`outcomes_runs_memory`].

use std::ops::ControlFlow;

use crate::progress::Progress;

use crate::solve::acyclic::waves::Staged;
use crate::solve::acyclic::Bits;
use crate::solve::saves::{solve_waves, Saving};
use crate::solve::word_bits::WordBits;
use crate::Result;

/// Moves from a whole run: element `v` moves to `child + min(v, reach)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The child of element 0.
    pub child: u64,
    /// Elements `v ≤ reach` move to `child + v`; the later ones all to `child + reach`.
    pub reach: u64,
}

/// A finite acyclic game solved a run at a time (see the module documentation).
///
/// Contract (checked for each game by its tests, not at run time):
/// * every index in `0..positions()` lies in exactly one run of exactly one wave;
/// * element `v` of a run moves to the run's elements `< v` and through each edge, and nowhere
///   else; every edge's children lie in earlier waves.
pub trait Runs: Staged {
    /// The run under the cursor: its first index and its length (at least 1).
    fn run(&self, at: &Self::Cursor) -> (u64, u64);

    /// Calls `f` with each edge of the run, stopping (and returning `Break`) when `f` does.
    fn edges<F: FnMut(Edge) -> ControlFlow<()>>(&self, at: &Self::Cursor, f: F) -> ControlFlow<()>;
}

/// `k` ones (`k ≤ 64`).
#[inline]
pub(crate) fn ones(k: u64) -> u64 {
    if k >= 64 {
        u64::MAX
    } else {
        (1u64 << k) - 1
    }
}

/// Memory of [`solve_outcomes_runs`]: one bit per position (as words while solving, turned
/// into the byte table a megabyte at a time: see [`WordBits::into_bits`]) and the pieces of the
/// widest wave (`pieces` of `piece_bytes` each). [`solve_outcomes_runs_words`] needs the same.
pub fn outcomes_runs_memory(positions: u64, pieces: u64, piece_bytes: u64) -> u64 {
    WordBits::memory(positions) + pieces.saturating_mul(piece_bytes)
}

/// P/N of every position of a [`Runs`] game.
pub fn solve_outcomes_runs<G: Runs>(game: &G, progress: &dyn Progress) -> Result<Bits> {
    solve_outcomes_runs_words(game, progress, Saving::NONE)?.into_bits()
}

/// [`solve_outcomes_runs`], leaving the table as words, and handing it to the saves after
/// each wave (see [`Saves`](crate::solve::Saves)), resuming from what they saved.
pub fn solve_outcomes_runs_words<G: Runs>(
    game: &G,
    progress: &dyn Progress,
    saving: Saving,
) -> Result<WordBits> {
    solve_waves(game, progress, saving, |piece, bits| {
        let mut visited = 0u64;
        let mut wide = Vec::new();
        game.walk(piece, |at| {
            let (base, len) = game.run(at);
            visited += len;
            if len <= 64 {
                solve_short(game, at, bits, base, len);
            } else {
                solve_long(game, at, bits, base, len, &mut wide);
            }
        });
        visited
    })
}

/// A run of at most 64 elements: one word.
#[inline]
fn solve_short<G: Runs>(game: &G, at: &G::Cursor, bits: &WordBits, base: u64, len: u64) {
    let full = ones(len);
    let mut n = 0u64;
    let _ = game.edges(at, |e| {
        let k = e.reach.min(len - 1) + 1;
        let p = !bits.get_bits(e.child, k) & ones(k);
        n |= p;
        if k < len && p >> e.reach & 1 == 1 {
            // Every element after `reach` moves to the same P child (the last one read).
            n |= full & !ones(e.reach + 1);
        }
        if n == full {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    // The first element without a P child is P; the chain makes the later ones N.
    let first = n.trailing_ones() as u64;
    if first < len {
        n |= full & !ones(first + 1);
    }
    bits.or_bits(base, len, n);
}

/// A longer run, a word of elements at a time.
fn solve_long<G: Runs>(
    game: &G,
    at: &G::Cursor,
    bits: &WordBits,
    base: u64,
    len: u64,
    n: &mut Vec<u64>,
) {
    let words = len.div_ceil(64) as usize;
    let word_len = |w: usize| (len - 64 * w as u64).min(64);
    n.clear();
    n.resize(words, 0);
    let mut full_words = 0;
    let _ = game.edges(at, |e| {
        let tail_p = e.reach < len - 1 && !bits.get(e.child + e.reach);
        for (w, nw) in n.iter_mut().enumerate() {
            let lo = 64 * w as u64;
            let wl = word_len(w);
            let full = ones(wl);
            if *nw == full {
                continue;
            }
            let mut add = 0;
            if e.reach >= lo {
                let k = (e.reach - lo + 1).min(wl);
                add |= !bits.get_bits(e.child + lo, k) & ones(k);
            }
            if tail_p && e.reach + 1 < lo + wl {
                let from = (e.reach + 1).saturating_sub(lo);
                add |= full & !ones(from);
            }
            *nw |= add;
            if *nw == full {
                full_words += 1;
            }
        }
        if full_words == words {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let mut p_found = false;
    for (w, &nw) in n.iter().enumerate() {
        let wl = word_len(w);
        let full = ones(wl);
        let mut out = nw;
        if p_found {
            out = full;
        } else if nw != full {
            let first = nw.trailing_ones() as u64;
            out |= full & !ones(first + 1);
            p_found = true;
        }
        bits.or_bits(base + 64 * w as u64, wl, out);
    }
}

#[cfg(test)]
mod tests {
    //! A toy game: heaps `a` and `b`; a run is a value of `a`, its element `v` is `b = v`.
    //! Moves: take any number from `b` (the chain) or 1..=K from `a`, which keeps `b` (an edge
    //! whose reach is the largest `b`). Waves: `a`. The Grundy value is `(a mod (K+1)) xor b`.

    use super::*;

    const K: u64 = 3;

    type Toy = crate::solve::HeapBlocks;

    /// Heap `a` up to `heap_a`, the run `b` up to `heap_b`.
    fn toy(heap_a: u64, heap_b: u64) -> Toy {
        Toy::new(heap_a, heap_b + 1, heap_b, K)
    }

    impl Runs for Toy {
        fn run(&self, a: &u64) -> (u64, u64) {
            (a * self.block, self.block)
        }
        fn edges<F: FnMut(Edge) -> ControlFlow<()>>(&self, a: &u64, f: F) -> ControlFlow<()> {
            self.heap_edges(*a, f)
        }
    }

    #[test]
    fn toy_game_short_and_long_runs() {
        for heap_b in [0, 5, 63, 64, 65, 130, 200] {
            let game = toy(30, heap_b);
            let bits = solve_outcomes_runs(&game, &()).unwrap();
            for a in 0..=30 {
                for b in 0..=heap_b {
                    let want = (a % (K + 1)) ^ b != 0;
                    assert_eq!(
                        bits.get(a * (heap_b + 1) + b),
                        want,
                        "({a},{b}) of {heap_b}"
                    );
                }
            }
        }
    }
}
