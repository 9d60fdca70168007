//! The passes after a two-player solve ([`crate::solve::two_player`]): marking what the start reaches,
//! and copying the entries of a game that folds symmetric positions to the rest of each class.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::format::entries::standing;
use crate::model::Tiered;
use crate::{Error, Result};

/// Sets [`standing::REACHABLE`] on every position reachable from `start`: tiers from the top
/// down, each swept until nothing new is found (moves may stay inside a tier). Forward, from
/// the reached positions' moves; or, for a game that lists un-moves, backward: a position is
/// reached when one of its parents is, and most find one among their first un-moves where
/// every reached position would list all its moves (nearly every position of Quixo is
/// reached). Either way the marks are the least set closed under moves that holds the start.
pub(crate) fn mark_reachable<G: Tiered>(game: &G, start: u64, values: &mut [u16]) -> Result<()> {
    if start >= values.len() as u64 || values[start as usize] == standing::ILLEGAL {
        return Err(Error::internal(format!(
            "the start {start} is no legal position"
        )));
    }
    let words: Vec<AtomicU64> = (0..values.len().div_ceil(64))
        .map(|_| AtomicU64::new(0))
        .collect();
    let mark = |i: u64| -> bool {
        let bit = 1u64 << (i % 64);
        let word = &words[(i / 64) as usize];
        // Most children were marked already: a plain read spares taking the cache line.
        word.load(Relaxed) & bit == 0 && word.fetch_or(bit, Relaxed) & bit == 0
    };
    mark(start);
    let marked = |i: u64| words[(i / 64) as usize].load(Relaxed) >> (i % 64) & 1 == 1;
    for t in (0..game.tier_count()).rev() {
        let tier = game.tier(t);
        if game.lists_parents() {
            let solved: &[u16] = values;
            let mut open: Vec<u64> = (tier.start..tier.end)
                .into_par_iter()
                .filter(|&i| solved[i as usize] != standing::ILLEGAL && !marked(i))
                .collect();
            loop {
                let before = open.len();
                open = open
                    .into_par_iter()
                    .filter(|&q| {
                        let reached = game
                            .parents(q, |p| {
                                if marked(p) {
                                    ControlFlow::Break(())
                                } else {
                                    ControlFlow::Continue(())
                                }
                            })
                            .is_break();
                        if reached {
                            mark(q);
                        }
                        !reached
                    })
                    .collect();
                if open.len() == before {
                    break;
                }
            }
            continue;
        }
        let mut frontier: Vec<u64> = (tier.start..tier.end)
            .into_par_iter()
            .filter(|&i| marked(i))
            .collect();
        while !frontier.is_empty() {
            let found: Vec<u64> = frontier
                .par_iter()
                .flat_map_iter(|&p| {
                    // A position where the game is over has no children (the contract
                    // conformance checks), so no need to ask first.
                    let mut next = Vec::new();
                    game.children(p, |c| {
                        if mark(c) && c >= tier.start && c < tier.end {
                            next.push(c);
                        }
                    });
                    next
                })
                .collect();
            frontier = found;
        }
    }
    values
        .par_chunks_mut(64)
        .zip(words.par_iter())
        .for_each(|(chunk, word)| {
            let w = word.load(Relaxed);
            for (k, v) in chunk.iter_mut().enumerate() {
                if w >> k & 1 == 1 && *v != standing::ILLEGAL {
                    *v |= standing::REACHABLE;
                }
            }
        });
    Ok(())
}

/// Copies the entry of every solved position (the representatives, a game that folds having
/// left the rest unsolved) to the other positions of its class. Which positions were solved is
/// read before any copy, so a copy is never taken for a representative.
pub(crate) fn fill_images<G: Tiered>(game: &G, values: &mut [u16]) {
    let solved: Vec<u64> = values
        .par_chunks(64)
        .map(|chunk| {
            chunk.iter().enumerate().fold(0u64, |w, (k, &v)| {
                w | u64::from(v != standing::ILLEGAL) << k
            })
        })
        .collect();
    // SAFETY: AtomicU16 has the size, alignment and bit validity of u16, and `values` is
    // borrowed mutably for as long as the view lives, so nothing else reads or writes it.
    let cells: &[AtomicU16] = unsafe { &*(values as *mut [u16] as *const [AtomicU16]) };
    solved.par_iter().enumerate().for_each(|(w, &word)| {
        let mut bits = word;
        while bits != 0 {
            let i = w as u64 * 64 + u64::from(bits.trailing_zeros());
            bits &= bits - 1;
            let v = cells[i as usize].load(Relaxed);
            // Each image belongs to this class alone, so it is written by this position alone.
            game.images(i, |j| cells[j as usize].store(v, Relaxed));
        }
    });
}
