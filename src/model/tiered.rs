//! A two-player game with ties and draws over a dense index cut into tiers ([`Tiered`]), as the
//! two-player engine sees it.

use std::ops::{ControlFlow, Range};

use super::{Indexed, Standing};

/// What [`Tiered::visit`] found at an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    /// No position.
    Illegal,
    /// A position where the game is over, with its value for the player to move.
    Over(Standing),
    /// A position with moves (its children were given).
    Moves,
    /// A position of a game that folds symmetric positions that does not represent its class:
    /// solved through its representative (no children given).
    Image,
}

/// A two-player game with ties and draws over a dense index cut into tiers, as the retrograde
/// engine of `crate::solve::two_player` sees it.
///
/// Contract:
/// * tiers `0..tier_count()` ([`tier`](Tiered::tier)) cut `0..positions()` into consecutive
///   ranges, lowest first: tier 0 starts at 0, each next one where the last ended;
/// * every move from a position in tier `t` leads to a position in a tier `<= t`: moves may
///   stay inside a tier (cycles), when [`in_tier_moves`](Tiered::in_tier_moves) says so;
/// * [`legal`](Tiered::legal) is false for an index that is no position of the game; moves
///   lead from legal positions to legal positions;
/// * [`terminal`](Tiered::terminal) is `Some` exactly for the legal positions where the game
///   is over (the value for the player to move: `Lose` when the other side has just won, `Tie`
///   for a full board), and those have no moves; every other legal position has one at least;
/// * a position has at most [`moves_bound`](Tiered::moves_bound) moves (the engine's memory
///   estimate counts on it).
/// * a game that folds symmetric positions ([`symmetries`](Tiered::symmetries) over 1) gives
///   every child, in [`visit`](Tiered::visit) and [`children`](Tiered::children), as the
///   representative of its class ([`represents`](Tiered::represents)); its symmetries keep a
///   position's tier, whether it is legal, its value and its remoteness, and fix the start.
pub trait Tiered: Indexed + Sync {
    /// Number of tiers.
    fn tier_count(&self) -> u64;
    /// The index range of tier `t`, for `t < tier_count()`.
    fn tier(&self, t: u64) -> Range<u64>;
    /// Positions in the largest tier, which sizes a solve's scratch memory (stated before
    /// solving). By default every tier is measured; a game of very many tiers (Connect Four
    /// on a long board has billions) says it without the walk.
    fn largest_tier(&self) -> u64 {
        (0..self.tier_count())
            .map(|t| {
                let r = self.tier(t);
                r.end - r.start
            })
            .max()
            .unwrap_or(0)
    }
    /// Whether an index is a legal position.
    fn legal(&self, pos: u64) -> bool;
    /// The value of a legal position where the game is over, for the player to move.
    fn terminal(&self, pos: u64) -> Option<Standing>;
    /// Calls `f` with the index of the position each move of a legal position leads to (a
    /// child may come more than once, as often as moves lead to it).
    fn children<F: FnMut(u64)>(&self, pos: u64, f: F);
    /// What the engine's scan asks of an index, at once: whether it is solved through another
    /// position of its class (a game that folds), whether it is a position, whether the game is
    /// over there (and its value), and else its children, given to `f` as
    /// [`children`](Tiered::children) gives them. By default the calls one by one; a game
    /// whose index is costly to read (every call unranks a board) reads it once here.
    fn visit<F: FnMut(u64)>(&self, pos: u64, f: F) -> Visit {
        if self.symmetries() > 1 && !self.represents(pos) {
            return Visit::Image;
        }
        if !self.legal(pos) {
            return Visit::Illegal;
        }
        if let Some(v) = self.terminal(pos) {
            return Visit::Over(v);
        }
        self.children(pos, f);
        Visit::Moves
    }
    /// The most moves a position has.
    fn moves_bound(&self) -> u64;
    /// Whether a move may stay inside its tier. By default yes; a game whose every move
    /// leaves its tier (a disc placed, a piece taken) says no, and the engine then keeps no
    /// edges.
    fn in_tier_moves(&self) -> bool {
        true
    }
    /// The index of the position play starts from, when the game has one: the engine marks
    /// what is reachable from it.
    fn start_index(&self) -> Option<u64> {
        None
    }
    /// How many positions a class of symmetric positions holds at most: 1 (the default) when
    /// the game folds none. A game that folds has the engine solve one position of each class
    /// (its representative: moves, edges and remoteness buckets shrink by about this much) and
    /// copy the value to the rest ([`images`](Tiered::images)), so the table is the same bytes.
    fn symmetries(&self) -> u64 {
        1
    }
    /// Whether `pos` is the representative of its class, the one position the engine solves;
    /// asked only of games that fold. By default every index.
    fn represents(&self, _pos: u64) -> bool {
        true
    }
    /// Calls `f` once with each other position of the class of the representative `pos`.
    fn images<F: FnMut(u64)>(&self, _pos: u64, _f: F) {}
    /// For a game that folds: sets bit `i % 64` of `keep[i / 64]` when `first + i` is a
    /// representative ([`represents`](Tiered::represents)) and clears it when not, for
    /// `i < n`, the indices all of one tier, and says so; by default says no and the engine asks
    /// [`visit`](Tiered::visit) of every index. A game whose index holds several positions of
    /// one board (the side to move) answers for a run of indices at the cost of its boards,
    /// and the scan, where 15 indices of 16 are images, skips the rest without a visit.
    fn representatives(&self, _first: u64, _n: usize, _keep: &mut [u64]) -> bool {
        false
    }
    /// Whether the game lists un-moves ([`parents`](Tiered::parents)): the engine then finds
    /// what the start reaches by asking each position for a reached parent, stopping at the
    /// first, instead of listing every move of every reached position.
    fn lists_parents(&self) -> bool {
        false
    }
    /// Calls `f` with every position that has a move to the legal position `pos` and where
    /// the game is not over (as representatives, for a game that folds), until `f` breaks;
    /// says whether it broke. Asked only when [`lists_parents`](Tiered::lists_parents) says
    /// yes.
    fn parents<F: FnMut(u64) -> ControlFlow<()>>(&self, _pos: u64, _f: F) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// Whether the game lists the un-moves that stay inside tier `t`
    /// ([`tier_parents`](Tiered::tier_parents)): the engine then keeps no edge of the tier (12
    /// bytes a move, what keeps a large tier with many quiet moves, a chess ending of five
    /// men, from fitting in memory) and asks for the parents of each position as it is valued.
    fn lists_tier_parents(&self, _t: u64) -> bool {
        false
    }
    /// Calls `f` with the positions of `pos`'s tier that have a move to the legal position
    /// `pos` (as representatives, for a game that folds): exactly those whose children, taken
    /// once each, include `pos`. A position may come more than once, and positions that are no
    /// position, or where the game is over, may come too: the engine takes each once and skips
    /// those. Says whether each came once: the engine then takes them as they come, without
    /// sorting them (a sort for every position valued was a fifteenth of a five-man chess
    /// ending). Asked only for tiers where [`lists_tier_parents`](Tiered::lists_tier_parents)
    /// says yes.
    fn tier_parents<F: FnMut(u64)>(&self, _pos: u64, _f: F) -> bool {
        false
    }
    /// [`visit`](Tiered::visit) of a position of a tier that lists its un-moves, where the
    /// game may count some children inside that tier (`tier`, its range) instead of naming
    /// them: it gives `f` every other child, and returns with the visit how many it counted,
    /// each of a class of its own, none of them a class it gave `f`. The engine needs no more
    /// of a child inside the tier than to count it (its parents come from the un-moves), and
    /// naming a child is most of a chess scan's work. By default every child is named.
    fn visit_counting<F: FnMut(u64)>(&self, pos: u64, _tier: Range<u64>, f: F) -> (Visit, u32) {
        (self.visit(pos, f), 0)
    }
    /// The lowest index a move from tier `t` can lead to, never falling as `t` grows. A solve of
    /// two-bit values ([`ValueKind::Wlt`](super::ValueKind::Wlt)) keeps the values from there on at
    /// two bytes a position and packs those below to two bits, so a game whose moves reach only the
    /// next tiers (every disc of Connect Four lands on the board for good) solves in far less
    /// memory than its table of remoteness would take. By default 0: every tier below may be read.
    /// A move found below it is an error of the game, never a wrong value.
    fn lowest_reached(&self, _t: u64) -> u64 {
        0
    }
    /// The most positions a solve keeps at two bytes under
    /// [`lowest_reached`](Tiered::lowest_reached): at least `tier(t).end - lowest_reached(t)`
    /// for every tier. By default all of them.
    fn widest_reach(&self) -> u64 {
        self.positions()
    }
}
