//! Retrograde analysis of two-player games with ties and draws ([`Tiered`]): every legal
//! position gets win, lose, tie or draw for the player to move, with its remoteness.
//!
//! Tiers are solved lowest first, so every move out of a tier finds its child final. Inside a
//! tier moves may form cycles: the tier's positions count their undecided children, and the
//! results are pushed from children to parents in order of remoteness (the parents inside the
//! tier come from the tier's own forward moves, gathered once: the game need not list
//! un-moves). Per tier:
//! 1. a parallel scan lists each position's moves: children in lower tiers are final and
//!    summed up (the nearest lose, the farthest win, the nearest tie, whether every one is a
//!    win), children inside the tier are counted and their edges kept;
//! 2. win and lose by buckets of remoteness: a position is a win in `r + 1` when a child is a
//!    lose in `r` (the first found is the nearest, buckets being taken in order), a lose when
//!    its last undecided child became a win, in one more than the farthest win;
//! 3. ties the same way from the tied ends, among the positions still undecided;
//! 4. what is left can never be forced to an end: a draw.
//!
//! A game that folds symmetric positions ([`Tiered::symmetries`]) is solved on one position of
//! each class, its children given as representatives too: the quotient game has the same values
//! and remoteness, and a last pass copies each class's entry to its other members.
//!
//! The values are a function of the game alone (the pushes of one bucket may come in any
//! order), so tables are the same bytes at any thread count. A last sweep marks the positions
//! reachable from the start ([`standing::REACHABLE`](crate::format::entries::standing::REACHABLE)).
//!
//! The tiers solved so far are a prefix of the values, so a long solve hands that prefix to
//! its [`Saves`] after every tier (as bytes, two a position) and resumes from it.

mod processes;
mod reachable;
mod record;
mod remoteness;
mod saving;
mod scan;
mod settle;
#[cfg(test)]
mod tests;
mod tier;
mod wlt;

// The processes of `gamedb build` under MPI (`cli::build_mpi`).
#[cfg(feature = "mpi")]
pub(crate) use processes::{any_process, install, processes, traffic};

use crate::format::Solved;
use crate::model::{Tiered, ValueKind};
use crate::progress::Progress;
use crate::solve::saves::Saves;
use crate::{Error, Result};

/// Memory [`solve_standings`] needs at its peak: two bytes a position for the values, a bit for
/// the reachable ones (and one for the solved ones of a game that folds), and for the tier that
/// needs most what the scan keeps of each position, with, where the tier's moves are kept as
/// edges, eight bytes of offsets into its parents and twelve bytes for each move that stays
/// inside it (the edge, then the parent; none when no move does) — of its representatives only
/// when the game folds symmetric positions, counted as twice the tier over the symmetries
/// (classes that are their own image hold fewer); where the game lists the tier's un-moves
/// instead, eight bytes a solved position for the buckets of remoteness, where each waits
/// twice at the most.
pub fn standings_memory<G: Tiered>(game: &G) -> u64 {
    let n = game.positions();
    let folds = game.symmetries().max(1);
    n.saturating_mul(2)
        .saturating_add(if folds > 1 {
            2 * (n / 8 + 8)
        } else {
            n / 8 + 8
        })
        .saturating_add(tier::tier_memory(game))
        .saturating_add(processes::extra_memory(game))
}

/// Every position's [`standing`](crate::format::entries::standing) entry, in index order.
pub fn solve_standings<G: Tiered>(game: &G, progress: &dyn Progress) -> Result<Vec<u16>> {
    solve_standings_saving(game, progress, &())
}

/// The [`Solved`] table of a [`Tiered`] game for `kind`: [`ValueKind::Remoteness`], or
/// [`ValueKind::Wlt`], solved by the same engine and packed to two bits a position
/// ([`wlt::pack`](crate::format::entries::wlt::pack)) as soon as no move can reach them ([`Tiered::lowest_reached`]): what a
/// two-player game's view and its spec's saving solve both call.
pub fn solve_tiered<G: Tiered>(
    game: &G,
    kind: ValueKind,
    progress: &dyn Progress,
    saves: &dyn Saves,
) -> Result<Solved> {
    if !kind.is_two_player() {
        return Err(Error::internal(format!(
            "a two-player game has win/lose/tie/draw values, not {} values",
            kind.name()
        )));
    }
    // Under several processes (`mpirun gamedb build`), every process solves each tier
    // together with the others, and saves nothing.
    let zeroing = kind == ValueKind::Dtz;
    let spread = processes::solve_spread(game, zeroing, progress);
    let standings = |v| {
        if zeroing {
            Solved::Dtz(v)
        } else {
            Solved::Standings(v)
        }
    };
    match (kind, spread) {
        (ValueKind::Wlt, Some(values)) => {
            let values = values?;
            Ok(Solved::Wlt {
                bytes: crate::format::entries::wlt::pack(&values),
                len: values.len() as u64,
            })
        }
        (ValueKind::Wlt, None) => Ok(Solved::Wlt {
            bytes: wlt::solve_wlt_saving(game, progress, saves)?,
            len: game.positions(),
        }),
        (_, Some(values)) => Ok(standings(values?)),
        (_, None) => Ok(standings(remoteness::solve_counted(
            game, zeroing, progress, saves,
        )?)),
    }
}

/// Memory a solve of `kind` values needs ([`solve_tiered`]): two bytes a position for
/// remoteness, the bits of a last sweep over the table, and a tier's scratch; for two-bit
/// values, two bits a position and two bytes for each position a move may still reach
/// ([`Tiered::widest_reach`]).
pub fn tiered_memory<G: Tiered>(game: &G, kind: ValueKind) -> u64 {
    let n = game.positions();
    let spread = processes::extra_memory(game);
    if kind != ValueKind::Wlt || spread > 0 {
        let packed = if kind == ValueKind::Wlt {
            n.div_ceil(4)
        } else {
            0
        };
        return standings_memory(game).saturating_add(packed);
    }
    let (kept, sweep) = if game.symmetries() > 1 {
        (n, n / 8 + 8)
    } else {
        (game.widest_reach().min(n).saturating_add(4), 0)
    };
    kept.saturating_mul(2)
        .saturating_add(n.div_ceil(4))
        .saturating_add(sweep)
        .saturating_add(tier::tier_memory(game))
}

/// Bytes a solve of `kind` values hands to its saves at the most: two a position, or for
/// two-bit values the two bits of those packed and two bytes of those still read.
pub fn tiered_saved_bytes<G: Tiered>(game: &G, kind: ValueKind) -> u64 {
    let n = game.positions();
    match kind {
        ValueKind::Wlt => wlt::wlt_saved_bytes(game),
        _ => n.saturating_mul(2),
    }
}

/// [`solve_standings`], handing the values of the tiers solved so far to `saves` after every
/// tier, and resuming from what it saved.
pub fn solve_standings_saving<G: Tiered>(
    game: &G,
    progress: &dyn Progress,
    saves: &dyn Saves,
) -> Result<Vec<u16>> {
    remoteness::solve_counted(game, false, progress, saves)
}
