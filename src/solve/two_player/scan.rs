//! Step 1 of a tier, the scan: every position's moves listed once, the children in lower tiers
//! summed up from their final values ([`Lower`]), the children inside the tier counted and,
//! where the engine keeps them, kept as edges.

use rayon::prelude::*;

use super::record::{edge, Seen, ALL_WIN, CHUNK, LEGAL};
use crate::format::entries::standing;
use crate::model::{after_reset, Standing, Tiered, Visit};
use crate::solve::prefetch::prefetch_entry;
use crate::{Error, Result};

/// The values of the tiers solved so far, from index `from` on (the entry of `from + i` at
/// `i`): all of them, or those a two-bit solve still keeps.
#[derive(Clone, Copy)]
pub(super) struct Lower<'a> {
    pub(super) values: &'a [u16],
    pub(super) from: u64,
    /// Whether a move out of the tier resets a counter ([`ValueKind::Dtz`]): the values are
    /// then distances to the reset, and a lower child counts only by its class.
    pub(super) zeroing: bool,
}

impl Lower<'_> {
    /// A lower child's remoteness as its parents see it: as stored, or where the move resets
    /// the counter, [`after_reset`].
    #[inline]
    fn seen(&self, value: Standing, r: u32) -> u16 {
        if self.zeroing {
            after_reset(value, r) as u16
        } else {
            r as u16
        }
    }
}

/// Step 1, the scan, of the positions `from..from + seen.len()` (local indices) of the tier
/// `first..first + len`, into `seen`, the values of the tiers below read from `done`: lower
/// children summed up, the moves inside the tier counted and, when `keep_edges`, kept as [`edge`]s,
/// in index order (one list a task, the lists in order). Without edges the settle asks the game for
/// parents, each once, so a position counts its children inside the tier once each.
pub(super) fn scan_range<G: Tiered>(
    game: &G,
    first: u64,
    len: usize,
    done: Lower,
    from: usize,
    seen: &mut [Seen],
    keep_edges: bool,
) -> Result<Vec<Vec<u64>>> {
    let end = first + len as u64;
    let in_tier = game.in_tier_moves();
    let folds = game.symmetries() > 1;
    let pieces: Vec<Result<Vec<u64>>> =
        seen.par_chunks_mut(CHUNK)
            .enumerate()
            .map(|(c, chunk)| {
                let mut edges = Vec::new();
                let mut kids = Vec::new();
                let mut inside = Vec::new();
                let start = first + (from + c * CHUNK) as u64;
                let mut keep = [u64::MAX; CHUNK / 64];
                let sifted = folds && game.representatives(start, chunk.len(), &mut keep);
                for (k, slot) in chunk.iter_mut().enumerate() {
                    if sifted && keep[k / 64] >> (k % 64) & 1 == 0 {
                        // An image, left as [`Visit::Image`] leaves it.
                        continue;
                    }
                    let local = (from + c * CHUNK + k) as u32;
                    let pos = first + local as u64;
                    let mut s = Seen {
                        flags: LEGAL | ALL_WIN,
                        ..Seen::ILLEGAL
                    };
                    let mut bad = None;
                    // The children first, then their values: the values of lower tiers lie
                    // anywhere in the table, and asking for all of them before reading any
                    // lets the memory fetch them together.
                    kids.clear();
                    let named = |child: u64| {
                        // Wraps below `done_from`: past the end, no solved position.
                        prefetch_entry(done.values, child.wrapping_sub(done.from));
                        kids.push(child);
                    };
                    // Where the settle finds parents by un-moves, a child inside the tier
                    // need only be counted.
                    let (visit, counted) = if keep_edges || !in_tier {
                        (game.visit(pos, named), 0)
                    } else {
                        game.visit_counting(pos, first..end, named)
                    };
                    let moves = kids.len() + counted as usize;
                    inside.clear();
                    for &child in &kids {
                        if child >= first && child < end {
                            if !in_tier {
                                bad = Some(child);
                            } else if keep_edges {
                                s.open += 1;
                                edges.push(edge((child - first) as u32, local));
                            } else {
                                inside.push(child);
                            }
                            continue;
                        }
                        let entry = (done.values)
                            .get(child.wrapping_sub(done.from) as usize)
                            .copied()
                            .unwrap_or(standing::ILLEGAL);
                        match standing::unpack(entry as u32) {
                            None => bad = Some(child),
                            Some((value, r)) => {
                                let r = done.seen(value, r);
                                match value {
                                    Standing::Lose => s.lose = s.lose.min(r),
                                    Standing::Win => s.win = s.win.max(r),
                                    Standing::Tie => s.tie = s.tie.min(r),
                                    Standing::Draw => {}
                                }
                                if value != Standing::Win {
                                    s.flags &= !ALL_WIN;
                                }
                            }
                        }
                    }
                    match visit {
                        // An image is left unsolved, as an index that is no position, till
                        // the last pass copies its representative's entry.
                        Visit::Illegal | Visit::Image => continue,
                        Visit::Over(v) => {
                            s.over = Some(v);
                            *slot = s;
                            continue;
                        }
                        Visit::Moves => {}
                    }
                    if !keep_edges {
                        inside.sort_unstable();
                        inside.dedup();
                        s.open = inside.len() as u32 + counted;
                    }
                    if let Some(child) = bad {
                        return Err(Error::internal(format!(
                        "position {pos} has a move to {child}, which is no solved position of a \
                         lower tier{}",
                        if in_tier { "" } else { " (the game says no move stays in its tier)" }
                    )));
                    }
                    if moves == 0 {
                        return Err(Error::internal(format!(
                            "position {pos} has no move but is not terminal"
                        )));
                    }
                    *slot = s;
                }
                Ok(edges)
            })
            .collect();
    pieces.into_iter().collect()
}
