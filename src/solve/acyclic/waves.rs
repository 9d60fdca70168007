//! The wave solver: for finite acyclic games whose natural index is not cut into levels.
//!
//! [`Game`](crate::model::Game) asks for levels that are consecutive index ranges. Some games
//! have a dense index that is excellent for lookups (every child has a smaller index, child
//! indices cost O(1)) but whose "every move goes to a lower level" measure (for Chomp, the
//! number of cells) scatters each level over the whole index. [`Waves`] describes such a game:
//!
//! * a **wave** is a set of positions; every move from wave `w` leads to a wave `< w`, so all
//!   positions of one wave can be solved at the same time;
//! * each wave is cut into **pieces** that the game *walks*, visiting positions in increasing
//!   index order while keeping its own incremental state (the [`Waves::Cursor`]), so that the
//!   solver never has to unrank an index;
//! * optionally, a **mirror** symmetry: a position and its mirror image lie in the same wave
//!   and have the same value, and only one of the two is searched.
//!
//! Pieces are solved in parallel (rayon); each task writes the bits of its own positions a
//! byte at a time and the only shared writes are `fetch_or`s (and, after a wave is
//! complete, `fetch_and`s), whose result does not depend on their order. So the output is a
//! function of the game alone: identical bytes at any thread count.
//!
//! How the mirror symmetry is used for outcomes: a mirror image is first *presumed* N (almost
//! every position is N in games where this matters); the searched original of a P-position
//! reports its image, and once the whole wave is done those images are cleared to P. No
//! random write happens for the (many) N-positions, and nothing in the wave reads them early,
//! because every child lies in an earlier wave.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering::Relaxed};

use crate::progress::Progress;
use rayon::prelude::*;

use crate::model::{Indexed, Outcome};
use crate::solve::acyclic::{stop_at_p, Bits, Mex};
use crate::{Error, Result};

/// What the solver does with the position under a cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mirror {
    /// Search this position. `Some(j)`: index `j` is its mirror image, a different position
    /// of the same wave with the same value, which reports [`Mirror::Image`].
    Solve(Option<u64>),
    /// This position is the mirror image of a position of the same wave that reports it with
    /// `Solve(Some(..))`; it is not searched.
    Image,
}

/// Work cut into waves and pieces, which the game walks: what the wave solver ([`Waves`]), the run
/// solver ([`crate::solve::acyclic::runs::Runs`]) and the triangle solver
/// ([`crate::solve::acyclic::triangles::Triangles`]) share. A walk visits *units*: positions for
/// [`Waves`] (in increasing index order), runs or triangles for the others.
pub trait Staged: Indexed + Sync {
    /// One task's share of a wave.
    type Piece: Send + Sync;
    /// The game's view of the unit being visited: the unit itself and whatever makes its
    /// indices, its children's indices and its mirror image cheap.
    type Cursor;

    /// Number of waves.
    fn waves(&self) -> usize;

    /// The pieces of wave `wave`, which together hold exactly its units.
    fn pieces(&self, wave: usize) -> Vec<Self::Piece>;

    /// Calls `visit` with a cursor on each unit of `piece`.
    fn walk<V: FnMut(&Self::Cursor)>(&self, piece: &Self::Piece, visit: V);
}

/// A finite acyclic game solved wave by wave.
///
/// Contract (checked for each game by its tests, not at run time):
/// * every index in `0..positions()` is visited by exactly one walk of exactly one wave;
/// * a walk visits its positions in increasing index order;
/// * every child of a position of wave `w` lies in a wave `< w`;
/// * [`terminal`](Waves::terminal) is `Some` exactly for positions without moves;
/// * [`mirror`](Waves::mirror) pairs positions as its documentation says. A game that leaves
///   it out has every position searched.
pub trait Waves: Staged {
    /// The index of the position under the cursor.
    fn index(&self, at: &Self::Cursor) -> u64;

    /// Calls `f` with the index of each position one move away, stopping (and returning
    /// `Break`) as soon as `f` does. A child may be visited more than once.
    fn children<F: FnMut(u64) -> ControlFlow<()>>(
        &self,
        at: &Self::Cursor,
        f: F,
    ) -> ControlFlow<()>;

    /// The value of a position with no move, `None` for every other position.
    fn terminal(&self, at: &Self::Cursor) -> Option<Outcome>;

    /// Whether to search the position under the cursor; by default every position is.
    fn mirror(&self, _at: &Self::Cursor) -> Mirror {
        Mirror::Solve(None)
    }
}

/// Collects one task's bits a byte at a time (consecutive positions of a wave are often far
/// apart, so a byte is as much as usually fills before the next one starts).
struct ByteWriter<'a> {
    bits: &'a Bits,
    byte: u64,
    mask: u8,
}

impl<'a> ByteWriter<'a> {
    fn new(bits: &'a Bits) -> ByteWriter<'a> {
        ByteWriter {
            bits,
            byte: u64::MAX,
            mask: 0,
        }
    }

    #[inline]
    fn put(&mut self, index: u64, one: bool) {
        let b = index / 8;
        if b != self.byte {
            self.flush();
            self.byte = b;
        }
        self.mask |= (one as u8) << (index % 8);
    }

    #[inline]
    fn flush(&mut self) {
        if self.mask != 0 {
            self.bits.or_byte(self.byte, self.mask);
            self.mask = 0;
        }
    }
}

/// Memory of [`solve_outcomes_waves`]: one bit per position, the pieces of the widest wave
/// (`pieces` of `piece_bytes` each, held while the wave is solved), and the mirror images its
/// P-positions report (8 bytes each, counted for up to one position in 8 of a wave of
/// `widest_wave` positions: far more than the P-positions of any wave of a game where most
/// positions are N).
pub fn outcomes_waves_memory(
    positions: u64,
    widest_wave: u64,
    pieces: u64,
    piece_bytes: u64,
) -> u64 {
    positions.div_ceil(8) + pieces.saturating_mul(piece_bytes) + widest_wave
}

/// Memory of [`solve_grundy_waves`]: two bytes per position and the pieces of the widest wave.
pub fn grundy_waves_memory(positions: u64, pieces: u64, piece_bytes: u64) -> u64 {
    positions.saturating_mul(2) + pieces.saturating_mul(piece_bytes)
}

/// P/N of every position, searching children until the first P child.
pub fn solve_outcomes_waves<G: Waves>(game: &G, progress: &dyn Progress) -> Result<Bits> {
    let bits = Bits::try_new(game.positions())?;
    for wave in 0..game.waves() {
        let pieces = game.pieces(wave);
        // Each task returns the mirror images of the P-positions it found.
        let images: Vec<Vec<u64>> = pieces
            .par_iter()
            .map(|piece| {
                let mut out = ByteWriter::new(&bits);
                let mut images = Vec::new();
                let mut visited = 0u64;
                game.walk(piece, |at| {
                    visited += 1;
                    let wins = match game.mirror(at) {
                        // Presumed N; corrected below if its original is P.
                        Mirror::Image => true,
                        Mirror::Solve(image) => {
                            let wins = match game.terminal(at) {
                                Some(o) => o == Outcome::N,
                                None => game.children(at, stop_at_p(&bits)).is_break(),
                            };
                            if !wins {
                                images.extend(image);
                            }
                            wins
                        }
                    };
                    out.put(game.index(at), wins);
                });
                out.flush();
                progress.inc(visited);
                images
            })
            .collect();
        for j in images.into_iter().flatten() {
            bits.clear(j);
        }
    }
    Ok(bits)
}

/// `positions` Grundy values, all 0, that the threads of a solver may write; refused (not
/// aborted) when they cannot be allocated.
pub(crate) fn grundy_values(positions: u64) -> Result<Vec<AtomicU16>> {
    let n = usize::try_from(positions)
        .map_err(|_| Error::unsupported("too many positions for a Grundy table"))?;
    let mut values: Vec<AtomicU16> = Vec::new();
    values.try_reserve_exact(n).map_err(|_| {
        Error::unsupported(format!(
            "cannot allocate {} bytes for the Grundy values of {n} positions",
            2 * n as u64
        ))
    })?;
    values.resize_with(n, || AtomicU16::new(0));
    Ok(values)
}

/// Grundy value of every position of a normal-play game (terminal positions are P, value 0).
pub fn solve_grundy_waves<G: Waves>(game: &G, progress: &dyn Progress) -> Result<Vec<u16>> {
    let values = grundy_values(game.positions())?;
    let failed = AtomicBool::new(false);
    for wave in 0..game.waves() {
        let pieces = game.pieces(wave);
        pieces.par_iter().for_each(|piece| {
            let mut visited = 0u64;
            game.walk(piece, |at| {
                visited += 1;
                let Mirror::Solve(image) = game.mirror(at) else {
                    return; // written by its original
                };
                let value = match game.terminal(at) {
                    Some(Outcome::P) => Some(0),
                    Some(Outcome::N) => None,
                    None => {
                        let mut mex = Mex::new();
                        let _ = game.children(at, |c| {
                            mex.add(values[c as usize].load(Relaxed));
                            ControlFlow::Continue(())
                        });
                        mex.value()
                    }
                };
                match value {
                    Some(v) => {
                        values[game.index(at) as usize].store(v, Relaxed);
                        if let Some(j) = image {
                            values[j as usize].store(v, Relaxed);
                        }
                    }
                    None => failed.store(true, Relaxed),
                }
            });
            progress.inc(visited);
        });
        if failed.load(Relaxed) {
            return Err(Error::unsupported(
                "Grundy values are defined for normal play only (a terminal position must be P), \
                 and must stay below 65535",
            ));
        }
    }
    // Same size and alignment: the standard library collects this in place.
    Ok(values.into_iter().map(AtomicU16::into_inner).collect())
}

#[cfg(test)]
mod tests {
    //! A toy game checks the solver against the level solver: two heaps of `0..=N`, a move
    //! takes `1..=K` from one heap; waves are the total, the mirror swaps the heaps.

    use super::*;
    use crate::model::Game;
    use crate::solve::{in_pool, solve_grundy, solve_outcomes};
    use std::ops::Range;

    const N: u64 = 40;
    const K: u64 = 3;

    struct Heaps {
        mirror: bool,
    }

    fn index(a: u64, b: u64) -> u64 {
        a * (N + 1) + b
    }

    impl Indexed for Heaps {
        fn positions(&self) -> u64 {
            (N + 1) * (N + 1)
        }
    }

    impl Staged for Heaps {
        type Piece = (u64, Range<u64>);
        type Cursor = (u64, u64);
        fn waves(&self) -> usize {
            (2 * N + 1) as usize
        }
        fn pieces(&self, wave: usize) -> Vec<Self::Piece> {
            let s = wave as u64;
            let lo = s.saturating_sub(N);
            let hi = s.min(N);
            // Pieces of three values of `a` each.
            (lo..=hi)
                .step_by(3)
                .map(|a| (s, a..(a + 3).min(hi + 1)))
                .collect()
        }
        fn walk<V: FnMut(&(u64, u64))>(&self, piece: &Self::Piece, mut visit: V) {
            let (s, ref r) = *piece;
            for a in r.clone() {
                visit(&(a, s - a));
            }
        }
    }

    impl Waves for Heaps {
        fn index(&self, at: &(u64, u64)) -> u64 {
            index(at.0, at.1)
        }
        fn children<F: FnMut(u64) -> ControlFlow<()>>(
            &self,
            &(a, b): &(u64, u64),
            mut f: F,
        ) -> ControlFlow<()> {
            for t in 1..=K.min(a) {
                f(index(a - t, b))?;
            }
            for t in 1..=K.min(b) {
                f(index(a, b - t))?;
            }
            ControlFlow::Continue(())
        }
        fn terminal(&self, &(a, b): &(u64, u64)) -> Option<Outcome> {
            (a == 0 && b == 0).then_some(Outcome::P)
        }
        fn mirror(&self, &(a, b): &(u64, u64)) -> Mirror {
            if !self.mirror || a == b {
                Mirror::Solve(None)
            } else if a < b {
                Mirror::Solve(Some(index(b, a)))
            } else {
                Mirror::Image
            }
        }
    }

    /// The same game for the level solver: level = total, which is not a range of `a*(N+1)+b`,
    /// so it is re-indexed by (total, a).
    struct Levels;
    fn level_index(a: u64, b: u64) -> u64 {
        let s = a + b;
        let start: u64 = (0..s).map(|t| t.min(N) - t.saturating_sub(N) + 1).sum();
        start + a - s.saturating_sub(N)
    }
    impl Indexed for Levels {
        fn positions(&self) -> u64 {
            (N + 1) * (N + 1)
        }
    }

    impl Game for Levels {
        fn level_count(&self) -> u64 {
            2 * N + 1
        }
        fn level(&self, s: u64) -> Range<u64> {
            let start = level_index(s.saturating_sub(N), s.min(N));
            start..start + s.min(N) - s.saturating_sub(N) + 1
        }
        fn children<F: FnMut(u64) -> ControlFlow<()>>(
            &self,
            pos: u64,
            mut f: F,
        ) -> ControlFlow<()> {
            let (a, b) = unlevel(pos);
            for t in 1..=K.min(a) {
                f(level_index(a - t, b))?;
            }
            for t in 1..=K.min(b) {
                f(level_index(a, b - t))?;
            }
            ControlFlow::Continue(())
        }
        fn terminal(&self, pos: u64) -> Option<Outcome> {
            (pos == 0).then_some(Outcome::P)
        }
    }
    fn unlevel(pos: u64) -> (u64, u64) {
        for a in 0..=N {
            for b in 0..=N {
                if level_index(a, b) == pos {
                    return (a, b);
                }
            }
        }
        unreachable!()
    }

    #[test]
    fn agrees_with_the_level_solver_and_the_formula() {
        let pb = ();
        let levels = solve_outcomes(&Levels, &pb).unwrap();
        let level_grundy = solve_grundy(&Levels, &pb).unwrap();
        for mirror in [false, true] {
            let game = Heaps { mirror };
            for threads in [1, 2, 3] {
                let bits = in_pool(threads, || solve_outcomes_waves(&game, &pb).unwrap());
                let grundy = in_pool(threads, || solve_grundy_waves(&game, &pb).unwrap());
                for a in 0..=N {
                    for b in 0..=N {
                        let g = (a % (K + 1)) ^ (b % (K + 1));
                        let i = index(a, b);
                        let l = level_index(a, b);
                        assert_eq!(bits.get(i), g != 0, "({a},{b}) mirror {mirror}");
                        assert_eq!(bits.get(i), levels.get(l), "({a},{b})");
                        assert_eq!(grundy[i as usize] as u64, g, "({a},{b})");
                        assert_eq!(grundy[i as usize], level_grundy[l as usize]);
                    }
                }
            }
        }
    }

    #[test]
    fn bytes_do_not_depend_on_threads() {
        let pb = ();
        let game = Heaps { mirror: true };
        let one = in_pool(1, || solve_outcomes_waves(&game, &pb).unwrap().into_bytes());
        let two = in_pool(2, || solve_outcomes_waves(&game, &pb).unwrap().into_bytes());
        assert_eq!(one, two);
    }
}
