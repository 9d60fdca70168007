//! A finite acyclic game over a dense index ([`Game`], optionally [`Retro`]), as the solvers of
//! impartial games and puzzles see it.

use std::ops::{ControlFlow, Range};

use super::{Indexed, Outcome};

/// A finite acyclic game over a dense index, as the solvers need it.
///
/// Contract:
/// * every index in `0..positions()` is a position (the ranking is perfect);
/// * levels `0..level_count()` ([`level`](Game::level)) cut `0..positions()` into
///   consecutive ranges, lowest first: level 0 starts at 0, each next one where the last
///   ended, and the last ends at `positions()`;
/// * every move from a position in level `l` leads to a position in a level `< l`;
/// * [`terminal`](Game::terminal) is `Some` exactly for positions without moves.
///
/// Levels are asked for one at a time rather than listed, so a game of 2^32 one-position
/// levels needs no memory for them.
pub trait Game: Indexed + Sync {
    /// Number of levels. By default one a position, which holds when every move lowers the
    /// index (the conformance checks say when it does not).
    fn level_count(&self) -> u64 {
        self.positions()
    }

    /// The index range of level `l`, for `l < level_count()` (see the contract above). By
    /// default position `l` alone.
    fn level(&self, l: u64) -> Range<u64> {
        l..l + 1
    }

    /// Calls `f` with the index of each position one move away. Stops, and returns `Break`,
    /// as soon as `f` does. A child may be visited more than once.
    fn children<F: FnMut(u64) -> ControlFlow<()>>(&self, pos: u64, f: F) -> ControlFlow<()>;

    /// The value of a position with no move, `None` for every other position. By default P
    /// (normal play: whoever cannot move loses), found by asking for one child.
    fn terminal(&self, pos: u64) -> Option<Outcome> {
        self.children(pos, |_| ControlFlow::Break(()))
            .is_continue()
            .then_some(Outcome::P)
    }
}

/// Games that can also enumerate un-moves, which lets the retrograde solver push results from
/// the few P-positions to their parents instead of scanning every child of every position.
pub trait Retro: Game {
    /// Calls `f` with the index of every position that has a move to `pos`.
    /// A parent may be visited more than once.
    fn parents<F: FnMut(u64)>(&self, pos: u64, f: F);
}
