//! The sparse store: the positions of level `d` as sorted lists, each position with the moves
//! that lead back to level `d − 1`, for boards whose 2-bit table cannot fit (the 4×4: 1.3 TB
//! even at one bit a position). Counts only.
//!
//! **Frontier search** (Korf, Zhang, Thayer and Hohwald, "Frontier search", JACM 2005). Each
//! position of the level carries a mask of move bits (see [`Bipartite::expand_masked`]): the
//! moves that lead back into level `d − 1`. Expanding it skips those moves; a neighbour found
//! by move `m` carries the bit of the reverse move, and the copies of one neighbour are merged
//! by OR-ing their masks. In a bipartite graph every neighbour of level `d` lies in `d − 1` or
//! `d + 1`, and every neighbour in `d − 1` of a position of level `d` was expanded, so the OR
//! is exactly the moves back: level `d − 1` is never stored nor read, and a third fewer
//! neighbours are made, sorted and written than when level `d − 1` had to be subtracted.
//!
//! Each process keeps its positions in `BUCKETS` buckets (local stripe number mod
//! `BUCKETS`), each a sorted list compressed as blocks: the positions as gaps (every block
//! starting afresh, so blocks can be expanded independently) in groups of four behind a byte
//! of their lengths (see `codec.rs`), then their masks, two to a byte.
//!
//! A level: the blocks of level `d` are expanded in parallel; neighbours owned by the process
//! go to per-thread sorting buffers, the others to outboxes exchanged in rounds (an entry is
//! `position << 4 | mask`, one word). A buffer holds a piece per bucket; a full piece is
//! sorted, its copies merged, and kept as a sorted **run** of its bucket. At the end each
//! bucket merges its runs and writes level
//! `d + 1`. Lists and runs stay in memory up to a budget and are written to files in the work
//! folder beyond it (spilled, see `spill.rs`), so the levels can outgrow memory (`merge.rs`
//! sorts and merges). This file drives a run: the plan, the start or resumption, and the
//! expansion of a level.

mod codec;
mod merge;
mod spill;

use std::fs;
use std::sync::atomic::AtomicU64;

use rayon::prelude::*;

use crate::progress::Progress;
use crate::solve::bfs::partitioned::checkpoint::{self, Section};
use crate::solve::bfs::partitioned::driver::{self, Levels, Start};
use crate::solve::bfs::partitioned::{Bipartite, Config, Layout, Plan, Report, Store, Traffic};
use crate::solve::exchange::Exchange;
use crate::{Error, Result};
use merge::{merge, Sorter};
use spill::{Blocks, Budget, List};

/// Buckets per process (the unit of parallel merging).
pub(crate) const BUCKETS: u64 = 64;

/// Entries per compressed block.
const BLOCK: usize = 4096;

/// Blocks a task of a level's expansion takes (consecutive, of one bucket).
const TASK_BLOCKS: usize = 8;

/// An entry is `position << MASK_BITS | mask` (the moves back into the level before).
const MASK_BITS: u32 = 4;
const MASK: u64 = (1 << MASK_BITS) - 1;

/// Positions must leave room for the mask in a word.
const MAX_POSITIONS: u64 = 1 << (64 - MASK_BITS);

/// Entries a thread's sorting buffer holds before it is sorted into runs.
fn sort_entries(config: &Config) -> u64 {
    // A quarter of the memory, shared by the threads, between 1 Mi and 16 Mi entries each
    // (128 MiB). Each full piece of a bucket makes a run: at the 4×4's depth 29, 32 Mi
    // entries made 7 runs a bucket, 8 Mi made 25 and used 18 % more CPU; at 32 Mi the
    // buffers were a third of the peak memory. A small `--memory` spills lists rather than
    // shrink the buffers below 16 Mi: the lists are read back in order, the buffers at random.
    (config.memory / 4 / 8 / rayon::current_num_threads() as u64).clamp(1 << 20, 1 << 24)
}

/// The sparse store's needs on one process: the sorting buffers and the exchange buffers are
/// fixed; lists live in what is left (half of it), spilling to disk beyond.
pub(crate) fn plan(layout: &Layout, config: &Config) -> Plan {
    let threads = rayon::current_num_threads() as u64;
    let frontier = threads * sort_entries(config) * 8;
    let exchange = crate::solve::bfs::partitioned::exchange_bytes(layout, config);
    // A floor for lists and block buffers: 64 MiB.
    let table = (config.memory.saturating_sub(frontier + exchange) / 2).max(64 << 20);
    Plan {
        store: Store::Sparse,
        table,
        frontier,
        exchange,
    }
}

/// Runs the enumeration with the sparse store.
pub(crate) fn run<P: Bipartite, X: Exchange + ?Sized>(
    puzzle: &P,
    x: &X,
    layout: &Layout,
    config: &Config,
    progress: &dyn Progress,
) -> Result<Report> {
    if layout.n >= MAX_POSITIONS {
        return Err(Error::Unsupported(format!(
            "the sparse store numbers positions below 2^{}; this index has {}",
            64 - MASK_BITS,
            layout.n
        )));
    }
    let plan = plan(layout, config);
    let spill = config.work_dir.as_ref().map(|d| d.join("spill"));
    if let Some(s) = &spill {
        // Spilled lists of a killed run are garbage: the checkpoint holds what counts.
        let mine = s.join(format!("rank-{}", x.rank()));
        let _ = fs::remove_dir_all(&mine);
        fs::create_dir_all(&mine).map_err(|e| Error::io(&mine, e))?;
    }
    let budget = Budget {
        left: AtomicU64::new(plan.table),
        dir: spill.map(|s| s.join(format!("rank-{}", x.rank()))),
        serial: AtomicU64::new(0),
    };
    let goals = crate::solve::bfs::partitioned::goals(puzzle, layout)?;
    let (cur, start) = match (config.resume, config.work_dir.as_deref()) {
        (true, Some(dir)) => {
            let saved = checkpoint::load(dir, &config.identity, Store::Sparse, x)?;
            if saved.sections.len() != BUCKETS as usize {
                return Err(Error::Unsupported(
                    "checkpoint: wrong number of level lists".into(),
                ));
            }
            let cur = saved
                .sections
                .iter()
                .enumerate()
                .map(|(k, w)| List::unpack(w, &saved.file(k), &budget))
                .collect::<Result<Vec<_>>>()?;
            let start = Start {
                counts: saved.counts,
                depth: saved.depth,
                resumed_at: Some(saved.depth),
            };
            (cur, start)
        }
        _ => {
            // Goals have no moves back (none is next to another: they share a side).
            let mine: Vec<u64> = goals
                .iter()
                .copied()
                .filter(|&g| layout.owner(g).0 == layout.rank)
                .map(|g| g << MASK_BITS)
                .collect();
            let sorter = Sorter::new(layout, &budget, BUCKETS * mine.len() as u64);
            sorter.add(&mine)?;
            sorter.flush()?;
            let cur = sorter
                .runs
                .into_iter()
                .map(|r| {
                    let mut r = r.into_inner().expect("runs lock");
                    Ok(match r.pop() {
                        Some(l) => l,
                        None => List::empty(),
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            let start = Start {
                counts: vec![goals.len() as u64],
                depth: 0,
                resumed_at: None,
            };
            (cur, start)
        }
    };
    let mut sparse = Sparse {
        puzzle,
        layout,
        config,
        budget: &budget,
        cur,
    };
    let report = driver::drive(&mut sparse, x, config, progress, start)?;
    for l in sparse.cur {
        l.release(&budget);
    }
    Ok(report)
}

/// The sparse store's side of the level loop ([`driver`]): the puzzle and the level lists,
/// one a bucket.
struct Sparse<'a, P> {
    puzzle: &'a P,
    layout: &'a Layout,
    config: &'a Config,
    budget: &'a Budget,
    cur: Vec<List>,
}

impl<P: Bipartite> Levels for Sparse<'_, P> {
    const STORE: Store = Store::Sparse;

    fn level<X: Exchange + ?Sized>(&mut self, x: &X, _depth: u32) -> Result<(u64, Traffic)> {
        let cur = std::mem::take(&mut self.cur);
        let (next, traffic) = level(self.puzzle, x, self.layout, self.config, self.budget, cur)?;
        self.cur = next;
        let mine: u64 = self.cur.iter().map(|l| l.len).sum();
        Ok((x.sum(&[mine])?[0], traffic))
    }

    fn memory(&self) -> u64 {
        self.cur.iter().map(|l| l.in_memory()).sum()
    }

    fn sections(&self) -> Vec<Section<'_>> {
        self.cur.iter().map(List::section).collect()
    }
}

/// Expands level `cur` into the next level's lists (this process's buckets); returns them and
/// this process's exchange traffic.
fn level<P: Bipartite, X: Exchange + ?Sized>(
    puzzle: &P,
    x: &X,
    layout: &Layout,
    config: &Config,
    budget: &Budget,
    cur: Vec<List>,
) -> Result<(Vec<List>, Traffic)> {
    let sorter = Sorter::new(layout, budget, sort_entries(config));
    // A task expands a few consecutive blocks of a bucket (one read of a spilled list).
    let tasks: Vec<(usize, std::ops::Range<usize>)> = cur
        .iter()
        .enumerate()
        .flat_map(|(b, l)| {
            (0..l.blocks())
                .step_by(TASK_BLOCKS)
                .map(move |k| (b, k..(k + TASK_BLOCKS).min(l.blocks())))
        })
        .collect();
    let procs = layout.procs as usize;
    // Rounds of tasks whose neighbours fit an exchange round (everything with one process).
    let per_round = if procs == 1 {
        tasks.len().max(1)
    } else {
        ((config.round_entries / 4 / (TASK_BLOCKS * BLOCK) as u64) as usize).max(1)
    };
    let rounds = tasks.len().div_ceil(per_round);
    let mut traffic = Traffic::default();
    let mut r = 0;
    loop {
        let batch =
            &tasks[(r * per_round).min(tasks.len())..((r + 1) * per_round).min(tasks.len())];
        let outs = batch
            .par_iter()
            .with_max_len(1)
            .map(|(b, range)| -> Result<Vec<Vec<u64>>> {
                let mut blocks = Blocks::new(&cur[*b], range.clone());
                let mut entries = Vec::with_capacity(BLOCK);
                let mut out = vec![Vec::new(); procs];
                let mut local = Vec::with_capacity(4 * BLOCK);
                while blocks.next(&mut entries)? {
                    local.clear();
                    // The ordered moves are made by the merge.
                    let masked = entries
                        .iter()
                        .map(|&e| (e >> MASK_BITS, (e & MASK) as u8 | P::ORDERED));
                    puzzle.expand_masked(masked, |j, back| {
                        let e = j << MASK_BITS | back as u64;
                        let owner = layout.owner(j).0;
                        if owner == layout.rank {
                            local.push(e);
                        } else {
                            out[owner as usize].push(e);
                        }
                    });
                    sorter.add(&local)?;
                }
                Ok(out)
            })
            .collect::<Result<Vec<_>>>()?;
        r += 1;
        if procs == 1 {
            break;
        }
        let mut sends: Vec<Vec<u64>> = vec![Vec::new(); procs];
        for out in outs {
            for (q, v) in out.into_iter().enumerate() {
                sends[q].extend(v);
            }
        }
        let received = x.all_to_all(&sends)?;
        traffic.add(layout.rank as usize, &sends, received.len());
        drop(sends);
        received
            .par_chunks(1 << 16)
            .try_for_each(|c| sorter.add(c))?;
        if !x.any(r < rounds)? {
            break;
        }
    }
    sorter.flush()?;
    let runs: Vec<Vec<List>> = sorter
        .runs
        .into_iter()
        .map(|m| m.into_inner().expect("runs lock"))
        .collect();
    let next = runs
        .into_par_iter()
        .zip(cur)
        .map(|(runs, cur)| merge(puzzle, runs, cur, budget))
        .collect::<Result<Vec<_>>>()?;
    Ok((next, traffic))
}
