//! One tier of the two-player engine, whole: the scan ([`super::scan`]), then the settle
//! ([`super::settle`]) from the moves kept as edges or from the game's un-moves; and the
//! memory a tier's solve needs.

use std::ops::Range;

use rayon::prelude::*;

use super::record::Seen;
use super::scan::{scan_range, Lower};
use super::settle::{settle_tier, EdgeParents};
use crate::model::Tiered;
use crate::{Error, Result};

/// The scratch of the largest tier's solve (see [`standings_memory`]).
pub(super) fn tier_memory<G: Tiered>(game: &G) -> u64 {
    let folds = game.symmetries().max(1);
    let tier_need = |len: u64, listed: bool| {
        let scan = len.saturating_mul(std::mem::size_of::<Seen>() as u64);
        let solved = if folds > 1 {
            len.min(len / folds * 2 + 1024)
        } else {
            len
        };
        if listed {
            // Each solved position waits in two buckets at the most (see `QUEUED`), 4 bytes
            // in each.
            return scan.saturating_add(solved.saturating_mul(8));
        }
        let edges = if game.in_tier_moves() {
            solved.saturating_mul(game.moves_bound()).saturating_mul(12)
        } else {
            0
        };
        scan.saturating_add(len.saturating_mul(8))
            .saturating_add(edges)
    };
    // A game of very many tiers (Connect Four on a long board) keeps every move's edge and
    // says its largest tier without a walk; a game of fewer tiers (a chess ending of five men
    // has one for each placement of its pawns, tens of thousands) is asked tier by tier.
    let tiers = game.tier_count();
    if tiers <= 1 << 16 {
        (0..tiers)
            .map(|t| {
                let r = game.tier(t);
                tier_need(r.end - r.start, game.lists_tier_parents(t))
            })
            .max()
            .unwrap_or(0)
    } else {
        tier_need(game.largest_tier(), false)
    }
}

/// Solves tier `t`, starting at index `first`, into `values`, the tiers below being `done`: from
/// the moves kept as edges, or, where the game lists the tier's un-moves, from those.
pub(super) fn solve_tier<G: Tiered>(
    game: &G,
    t: u64,
    first: u64,
    done: Lower,
    values: &mut [u16],
) -> Result<()> {
    let len = tier_len(values.len())?;
    // Filled in parallel: the pages of a large tier are first touched here.
    let mut seen: Vec<Seen> = (0..len).into_par_iter().map(|_| Seen::ILLEGAL).collect();
    let listed = game.lists_tier_parents(t);
    let pieces = scan_range(game, first, len, done, 0, &mut seen, !listed)?;
    if listed {
        let end = first + len as u64;
        return settle_tier(
            first,
            &mut seen,
            |c, out| {
                // Each parent once, as the scan counted each child once.
                let from = out.len();
                let once = game.tier_parents(first + c as u64, |p| {
                    if p >= first && p < end {
                        out.push((p - first) as u32);
                    }
                });
                if !once {
                    sort_dedup_from(out, from);
                }
            },
            values,
            done.zeroing,
        );
    }
    let pieces: Vec<&[u64]> = pieces.iter().map(|p| &p[..]).collect();
    let edges = EdgeParents::new(len, &pieces);
    settle_tier(
        first,
        &mut seen,
        |c, out| edges.of(c, out),
        values,
        done.zeroing,
    )
}

/// Sorts `out[from..]` and keeps each of its numbers once: `Vec::dedup` of a tail appended in
/// place (a vector of its own a position cost a copy of every parent).
fn sort_dedup_from(out: &mut Vec<u32>, from: usize) {
    out[from..].sort_unstable();
    let mut kept = from;
    for k in from..out.len() {
        if kept == from || out[k] != out[kept - 1] {
            out[kept] = out[k];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// Tier `t`, checked to start at `at` (where the last one ended) and to end within `0..n`.
pub(super) fn checked_tier<G: Tiered>(game: &G, t: u64, at: u64, n: usize) -> Result<Range<u64>> {
    let tier = game.tier(t);
    if tier.start != at || tier.end < tier.start || tier.end > n as u64 {
        return Err(Error::internal(format!(
            "tier {t} is {}..{}: tiers must cut 0..{n} in order",
            tier.start, tier.end
        )));
    }
    Ok(tier)
}

/// `len`, checked to fit the local indices of a tier (`u32`).
pub(super) fn tier_len(len: usize) -> Result<usize> {
    if u32::try_from(len).is_err() {
        return Err(Error::unsupported(format!(
            "a tier of {len} positions (at most {} a tier)",
            u32::MAX
        )));
    }
    Ok(len)
}

#[cfg(test)]
mod tests {
    use super::sort_dedup_from;

    #[test]
    fn a_tail_is_sorted_and_kept_once_and_the_head_left_alone() {
        let mut out = vec![7, 7, 5, 3, 5, 1, 3];
        sort_dedup_from(&mut out, 2);
        assert_eq!(out, [7, 7, 1, 3, 5]);
        let mut out = vec![2];
        sort_dedup_from(&mut out, 1);
        assert_eq!(out, [2]);
    }
}
