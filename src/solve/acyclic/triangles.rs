//! The triangle solver: P/N for acyclic games whose positions come in *triangles* that play
//! like two-rowed Chomp inside.
//!
//! A **triangle** of size `U` holds the elements `(u, v)`, `0 ≤ v ≤ u ≤ U`, at consecutive
//! indices `first + u(u+1)/2 + v` (row `u` of the triangle is `u + 1` consecutive bits). Inside
//! it, `(u, v)` moves to `(x, min(v, x))` for `x < u` and to `(u, x)` for `x < v`, as the two
//! rows of a Chomp position do. Its other moves come as **edges** `(child, reach)`: `(u, v)`
//! moves to element `(min(u, reach), min(v, reach))` of the triangle at `child`, in an earlier
//! wave. So one edge tells, a row of 64 elements per word, which elements have a P child
//! through it:
//!
//! * for rows `u ≤ reach`: the child's row `u` read as it stands;
//! * for rows `u > reach`: the child's row `reach`, its last element standing for every
//!   `v > reach`.
//!
//! A triangle whose every element has found a P child stops reading edges; any other reads
//! them all and then solves its inside, row by row: an element is P when no edge and no inside
//! move reaches a P-position (the first such element of a row, since the row's later elements
//! move to it).
//!
//! In Chomp, with the last two rows as the triangle, an edge is a bite in the rows above, and
//! one edge replaces as many child lookups as the triangle has positions (up to C²/2). The
//! rows are single words, so `U ≤ 63`. Waves, pieces and the determinism argument are those of
//! [`crate::solve::acyclic::waves`].

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering::Relaxed};

use crate::progress::Progress;
use rayon::prelude::*;

use crate::solve::acyclic::runs::{ones, Edge};
use crate::solve::acyclic::waves::Staged;
use crate::solve::acyclic::Bits;
use crate::solve::acyclic::MAX_GRUNDY;
use crate::solve::saves::{solve_waves, Saving};
use crate::solve::word_bits::WordBits;
use crate::Result;

/// Largest triangle size: a row is one 64-bit word.
pub const MAX_TRIANGLE: u32 = 63;

/// A finite acyclic game solved a triangle at a time (see the module documentation).
///
/// Contract (checked for each game by its tests, not at run time):
/// * every index in `0..positions()` lies in exactly one triangle of exactly one wave;
/// * the element `(u, v)` moves inside its triangle as two-rowed Chomp does, and through each
///   edge to `(min(u, reach), min(v, reach))` of the child triangle (which is at least that
///   large), and nowhere else; every child triangle lies in an earlier wave;
/// * [`same_as`](Triangles::same_as), where given, names a position of an earlier wave with
///   the same value.
pub trait Triangles: Staged {
    /// The triangle under the cursor: its first index and its size `U ≤ 63`.
    fn triangle(&self, at: &Self::Cursor) -> (u64, u32);

    /// Calls `f` with each edge of the triangle, stopping (and returning `Break`) when `f`
    /// does.
    fn edges<F: FnMut(Edge) -> ControlFlow<()>>(&self, at: &Self::Cursor, f: F) -> ControlFlow<()>;

    /// A triangle of a single element (size 0) may name a position of an earlier wave with
    /// the same value (a mirror image); it is then copied instead of searched. By default no
    /// triangle is.
    fn same_as(&self, _at: &Self::Cursor) -> Option<u64> {
        None
    }
}

/// Offset of row `u` in a triangle.
#[inline]
const fn row_start(u: u64) -> u64 {
    u * (u + 1) / 2
}

/// Memory of [`solve_outcomes_triangles`] (and [`solve_outcomes_triangles_words`]): one bit per
/// position (see [`WordBits::memory`]) and the pieces of the widest wave (`pieces` of
/// `piece_bytes` each). A task's own state is a few words per triangle row, on its stack.
pub fn outcomes_triangles_memory(positions: u64, pieces: u64, piece_bytes: u64) -> u64 {
    WordBits::memory(positions) + pieces.saturating_mul(piece_bytes)
}

/// Memory of [`solve_grundy_triangles`]: two bytes per position, the pieces of the widest wave,
/// and per thread the mex sets of one triangle (at most [`MAX_TRIANGLE`]` + 1` rows: a few
/// hundred kilobytes, counted for 256 threads).
pub fn grundy_triangles_memory(positions: u64, pieces: u64, piece_bytes: u64) -> u64 {
    let per_thread = row_start(MAX_TRIANGLE as u64 + 1) * (8 * SEEN_WORDS as u64 + 2);
    positions.saturating_mul(2) + pieces.saturating_mul(piece_bytes) + 256 * per_thread
}

/// P/N of every position of a [`Triangles`] game.
pub fn solve_outcomes_triangles<G: Triangles>(game: &G, progress: &dyn Progress) -> Result<Bits> {
    solve_outcomes_triangles_words(game, progress, Saving::NONE)?.into_bits()
}

/// [`solve_outcomes_triangles`], leaving the table as words, and handing it to the saves
/// after each wave (see [`Saves`](crate::solve::Saves)), resuming from what they saved.
pub fn solve_outcomes_triangles_words<G: Triangles>(
    game: &G,
    progress: &dyn Progress,
    saving: Saving,
) -> Result<WordBits> {
    solve_waves(game, progress, saving, |piece, bits| {
        solve_piece(game, piece, bits)
    })
}

/// The triangles of one piece; returns the positions solved.
fn solve_piece<G: Triangles>(game: &G, piece: &G::Piece, bits: &WordBits) -> u64 {
    let mut visited = 0u64;
    game.walk(piece, |at| {
        let (first, size) = game.triangle(at);
        visited += row_start(size as u64 + 1);
        if size == 0 {
            if let Some(j) = game.same_as(at) {
                bits.or_bits(first, 1, bits.get(j) as u64);
                return;
            }
        }
        solve_triangle(game, at, bits, first, size as u64);
    });
    visited
}

/// Words of the largest triangle's bits.
const WORDS: usize = (row_start(MAX_TRIANGLE as u64 + 1) as usize).div_ceil(64);

/// Ors `mask` (its low `k ≤ 64` bits) into `n` at bit `at`.
#[inline]
fn or_at(n: &mut [u64; WORDS], at: u64, k: u64, mask: u64) {
    let (w, s) = ((at / 64) as usize, at % 64);
    n[w] |= mask << s;
    if s + k > 64 {
        n[w + 1] |= mask >> (64 - s);
    }
}

/// `k ≤ 64` bits of `n` from bit `at`.
#[inline]
fn bits_at(n: &[u64; WORDS], at: u64, k: u64) -> u64 {
    let (w, s) = ((at / 64) as usize, at % 64);
    let mut v = n[w] >> s;
    if s + k > 64 {
        v |= n[w + 1] << (64 - s);
    }
    v & ones(k)
}

/// A triangle of at most 64 elements (size ≤ 10): everything in one register.
#[inline]
fn solve_small<G: Triangles>(game: &G, at: &G::Cursor, bits: &WordBits, first: u64, size: u64) {
    let total = row_start(size + 1);
    let full = ones(total);
    let mut n = 0u64;
    let _ = game.edges(at, |e| {
        let same = row_start(e.reach.min(size) + 1);
        let p = !bits.get_bits(e.child, same) & ones(same);
        n |= p;
        if e.reach < size {
            let x = e.reach;
            let px = p >> row_start(x);
            if px != 0 {
                let beyond = px >> x & 1 == 1;
                for u in x + 1..=size {
                    let mut row = px;
                    if beyond {
                        row |= ones(u + 1) & !ones(x + 1);
                    }
                    n |= row << row_start(u);
                }
            }
        }
        if n == full {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let mut column = 0u64;
    let mut diagonal = u64::MAX;
    let mut out = 0u64;
    for u in 0..=size {
        let row_full = ones(u + 1);
        let mut covered = (n >> row_start(u)) & row_full | (column & row_full);
        if diagonal < u {
            covered |= row_full & !ones(diagonal + 1);
        }
        let mut row = covered;
        if covered != row_full {
            let p = covered.trailing_ones() as u64;
            row |= row_full & !ones(p + 1);
            column |= 1 << p;
            if p == u {
                diagonal = diagonal.min(u);
            }
        }
        out |= row << row_start(u);
    }
    bits.or_bits(first, total, out);
}

#[inline]
fn solve_triangle<G: Triangles>(game: &G, at: &G::Cursor, bits: &WordBits, first: u64, size: u64) {
    debug_assert!(size <= MAX_TRIANGLE as u64);
    if row_start(size + 1) <= 64 {
        return solve_small(game, at, bits, first, size);
    }
    // n: the elements (triangle order) that have a P child through an edge.
    let total = row_start(size + 1);
    let words = total.div_ceil(64) as usize;
    let full = |w: usize| ones(total - 64 * w as u64);
    let mut n = [0u64; WORDS];
    let mut open = words; // words not yet full
    let _ = game.edges(at, |e| {
        // Rows u ≤ reach: the child's elements as they stand, at the same offsets.
        let same = row_start(e.reach.min(size) + 1);
        let mut last = 0; // P-bits of the child's last word read, when it is the only one
        if same <= 64 {
            last = !bits.get_bits(e.child, same) & ones(same);
            if n[0] != full(0) {
                n[0] |= last;
                open -= (n[0] == full(0)) as usize;
            }
        } else {
            for (w, nw) in n.iter_mut().enumerate().take(same.div_ceil(64) as usize) {
                let f = full(w);
                if *nw != f {
                    let k = (same - 64 * w as u64).min(64);
                    *nw |= !bits.get_bits(e.child + 64 * w as u64, k) & ones(k);
                    open -= (*nw == f) as usize;
                }
            }
        }
        // Rows u > reach: the child's row `reach` (rarely holds a P-position).
        if e.reach < size {
            let x = e.reach;
            let px = if same <= 64 {
                last >> row_start(x)
            } else {
                !bits.get_bits(e.child + row_start(x), x + 1) & ones(x + 1)
            };
            if px != 0 {
                let beyond = px >> x & 1 == 1;
                for u in x + 1..=size {
                    let mut row = px;
                    if beyond {
                        row |= ones(u + 1) & !ones(x + 1);
                    }
                    or_at(&mut n, row_start(u), u + 1, row);
                }
                open = (0..words).filter(|&w| n[w] != full(w)).count();
            }
        }
        if open == 0 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    // Inside: (u, v) reaches (x, v) for v ≤ x < u, (x, x) for x < min(u, v), (u, x) for x < v.
    let mut column = 0u64; // v: some earlier row x ≥ v has P at (x, v)
    let mut diagonal = u64::MAX; // the first x with (x, x) P
    let mut out_words = [0u64; WORDS];
    for u in 0..=size {
        let row_full = ones(u + 1);
        let mut covered = bits_at(&n, row_start(u), u + 1) | (column & row_full);
        if diagonal < u {
            covered |= row_full & !ones(diagonal + 1);
        }
        let mut out = covered;
        if covered != row_full {
            let p = covered.trailing_ones() as u64;
            out |= row_full & !ones(p + 1);
            column |= 1 << p;
            if p == u {
                diagonal = diagonal.min(u);
            }
        }
        or_at(&mut out_words, row_start(u), u + 1, out);
    }
    // A few atomic writes per triangle rather than one per row.
    for (w, &o) in out_words.iter().enumerate().take(words) {
        bits.or_bits(first + 64 * w as u64, (total - 64 * w as u64).min(64), o);
    }
}

/// Values a triangle element's mex set holds in its bit words (larger ones are spilled).
const SEEN_WORDS: usize = 4;

/// Puts value `v` in element `e`'s mex set.
#[inline]
fn add(seen: &mut [[u64; SEEN_WORDS]], spill: &mut Vec<(u32, u16)>, e: usize, v: u16) {
    if (v as usize) < 64 * SEEN_WORDS {
        seen[e][v as usize / 64] |= 1 << (v % 64);
    } else {
        spill.push((e as u32, v));
    }
}

/// Grundy value of every position of a [`Triangles`] game (normal play: a position without
/// moves is 0). Every child is read, as the mex needs, but an edge's children are a
/// contiguous stretch of the child triangle, so the reads stream through memory instead of
/// jumping; the inside moves read values of the triangle itself, solved in order.
pub fn solve_grundy_triangles<G: Triangles>(game: &G, progress: &dyn Progress) -> Result<Vec<u16>> {
    let values = crate::solve::acyclic::waves::grundy_values(game.positions())?;
    let failed = AtomicBool::new(false);
    for wave in 0..game.waves() {
        game.pieces(wave).par_iter().for_each(|piece| {
            let mut visited = 0u64;
            let mut seen: Vec<[u64; SEEN_WORDS]> = Vec::new();
            let mut spill: Vec<(u32, u16)> = Vec::new();
            let mut own: Vec<u16> = Vec::new();
            game.walk(piece, |at| {
                let (first, size) = game.triangle(at);
                let size = size as u64;
                let total = row_start(size + 1) as usize;
                visited += total as u64;
                if size == 0 {
                    if let Some(j) = game.same_as(at) {
                        let v = values[j as usize].load(Relaxed);
                        values[first as usize].store(v, Relaxed);
                        return;
                    }
                }
                seen.clear();
                seen.resize(total, [0; SEEN_WORDS]);
                spill.clear();
                let _ = game.edges(at, |edge| {
                    let x = edge.reach;
                    for u in 0..=size {
                        let cu = u.min(x);
                        let row = (edge.child + row_start(cu)) as usize;
                        let base = row_start(u) as usize;
                        for v in 0..=u {
                            let val = values[row + v.min(x) as usize].load(Relaxed);
                            add(&mut seen, &mut spill, base + v as usize, val);
                        }
                    }
                    ControlFlow::Continue(())
                });
                // Inside, in order: (x, min(v, x)) for x < u, (u, x) for x < v.
                own.clear();
                own.resize(total, 0);
                for u in 0..=size {
                    for v in 0..=u {
                        let e = (row_start(u) + v) as usize;
                        for x in 0..u {
                            let val = own[(row_start(x) + v.min(x)) as usize];
                            add(&mut seen, &mut spill, e, val);
                        }
                        for x in 0..v {
                            let val = own[(row_start(u) + x) as usize];
                            add(&mut seen, &mut spill, e, val);
                        }
                        let mut m = 0u32;
                        for (w, &word) in seen[e].iter().enumerate() {
                            if word != u64::MAX {
                                m = (64 * w) as u32 + word.trailing_ones();
                                break;
                            }
                            m = (64 * (w + 1)) as u32;
                        }
                        if m as usize == 64 * SEEN_WORDS {
                            let mut big: Vec<u16> = spill
                                .iter()
                                .filter(|s| s.0 as usize == e)
                                .map(|s| s.1)
                                .collect();
                            big.sort_unstable();
                            big.dedup();
                            for b in big {
                                if b as u32 == m {
                                    m += 1;
                                } else if b as u32 > m {
                                    break;
                                }
                            }
                        }
                        if m >= MAX_GRUNDY {
                            failed.store(true, Relaxed);
                            m = 0;
                        }
                        own[e] = m as u16;
                        values[first as usize + e].store(m as u16, Relaxed);
                    }
                }
            });
            progress.inc(visited);
        });
        if failed.load(Relaxed) {
            return Err(crate::Error::unsupported(format!(
                "a Grundy value reached {MAX_GRUNDY}, more than the table stores"
            )));
        }
    }
    // Same size and alignment: the standard library collects this in place.
    Ok(values.into_iter().map(AtomicU16::into_inner).collect())
}

#[cfg(test)]
mod tests {
    //! A toy game: a two-row shape `(u, v)` beside a heap `a` (take 1..=K). The triangles are
    //! the values of `a`; inside, either row shrinks as in two-rowed Chomp; an edge takes from
    //! `a` and keeps `(u, v)`. Checked against a brute-force search.

    use super::*;
    use crate::model::Indexed;

    const K: u64 = 2;

    type Toy = crate::solve::HeapBlocks;

    /// Heap `a` up to `heap`, beside triangles of size `size`.
    fn toy(heap: u64, size: u64) -> Toy {
        Toy::new(heap, row_start(size + 1), size, K)
    }

    /// The index of `(u, v)` beside heap `a`.
    fn index(game: &Toy, a: u64, u: u64, v: u64) -> u64 {
        a * game.block + row_start(u) + v
    }

    impl Triangles for Toy {
        fn triangle(&self, a: &u64) -> (u64, u32) {
            (a * self.block, self.reach as u32)
        }
        fn edges<F: FnMut(Edge) -> ControlFlow<()>>(&self, a: &u64, f: F) -> ControlFlow<()> {
            self.heap_edges(*a, f)
        }
    }

    #[test]
    fn toy_game_against_brute_force() {
        for size in [0, 1, 2, 5, 9, 63] {
            let game = toy(12, size);
            let bits = solve_outcomes_triangles(&game, &()).unwrap();
            // Brute force in index order (every move lowers the index).
            let mut win = vec![false; game.positions() as usize];
            for a in 0..=12 {
                for u in 0..=size {
                    for v in 0..=u {
                        let mut kids = Vec::new();
                        for x in 0..u {
                            kids.push(index(&game, a, x, v.min(x)));
                        }
                        for x in 0..v {
                            kids.push(index(&game, a, u, x));
                        }
                        for t in 1..=K.min(a) {
                            kids.push(index(&game, a - t, u, v));
                        }
                        let i = index(&game, a, u, v);
                        win[i as usize] = kids.iter().any(|&c| !win[c as usize]);
                        assert_eq!(bits.get(i), win[i as usize], "a {a} ({u},{v}) size {size}");
                    }
                }
            }
        }
    }
}
