//! The dense store: the 2-bit table of the process's positions (codes of
//! [`crate::game::mod3`]: 0 not reached, `1 + d mod 3`) and a bitmap of the positions already
//! expanded; 3 bits a position in all.
//!
//! The frontier is not stored: level `d` lies on side `d mod 2` of the bipartite graph, and
//! every earlier level of that side has been expanded, so the frontier of level `d` is the
//! positions of side `d mod 2` that hold a code but are not expanded yet. Each level reads it
//! stripe by stripe from the table and the bitmap (sequential reads), marks it expanded, and
//! expands it. The only random accesses are to the neighbours' table entries, whose cache
//! lines are prefetched a few neighbours ahead; nothing else is written at random.
//!
//! A neighbour is marked when its code is 0: a load first (a position seen before costs a
//! load, not a locked write), then one atomic OR, whose old value says whether this thread was
//! first, so the level's count is exact. Level `d` writes codes on side `d + 1 mod 2` only, so
//! the frontier codes it reads do not change under it. A stripe that receives a code is
//! flagged; the next level scans only flagged stripes.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use super::checkpoint;
use super::{Bipartite, Clock, Config, Exchange, Layout, Report, Store, Traffic};
use crate::game::mod3;
use crate::progress::Progress;
use crate::resources::advise_huge_pages;
use crate::solve::bfs::{prefetch, BitsOf, Delay};
use crate::{Error, Result};

/// A process's part of a finished 2-bit table: entry `i` of the local table (2 bits, entry
/// `i mod 32` of word `⌊i / 32⌋`) is the code of the position at local offset `i`.
pub struct Table {
    /// The words.
    pub words: Vec<u64>,
}

impl Table {
    /// The code of local offset `i`.
    pub fn code(&self, i: u64) -> u8 {
        (self.words[(i / 32) as usize] >> (2 * (i % 32)) & 3) as u8
    }
}

/// Zeroed words, with huge pages asked for: the table is read and written at random, and
/// huge pages spare most TLB misses. The kernel hands the zeroed pages out lazily.
fn zeroed(len: usize) -> Vec<u64> {
    let mut v = vec![0u64; len];
    advise_huge_pages(v.as_mut_ptr() as *mut u8, len * 8);
    v
}

/// Views words as atomics so that threads may OR into them concurrently.
fn atomic(words: &mut [u64]) -> &[AtomicU64] {
    // SAFETY: `AtomicU64` has the size and bit validity of `u64` and, on the 64-bit targets
    // this crate builds for, its alignment; the exclusive borrow outlives the view, so no
    // non-atomic access happens while it exists.
    unsafe { &*(words as *mut [u64] as *const [AtomicU64]) }
}

/// Bit `i` set when 2-bit entry `i` of `lo` (entries 0..32) or `hi` (entries 32..64) is not 0.
#[inline(always)]
fn reached(lo: u64, hi: u64) -> u64 {
    compact(lo) | compact(hi) << 32
}

/// The 32 two-bit entries of `w` as 32 bits: bit `i` set when entry `i` is not 0.
#[inline(always)]
fn compact(w: u64) -> u64 {
    let mut x = (w | w >> 1) & 0x5555_5555_5555_5555;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x >> 4) & 0x00ff_00ff_00ff_00ff;
    x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
    (x | x >> 16) & 0xffff_ffff
}

struct State {
    table: Vec<u64>,
    /// Bit `i`: local offset `i` was expanded (it was in a frontier).
    expanded: Vec<u64>,
    /// Per local stripe: codes were written into it during the last level, so the next
    /// frontier may have positions there.
    touched: Vec<AtomicBool>,
}

impl State {
    fn new(layout: &Layout) -> State {
        State {
            table: zeroed(layout.local_len().div_ceil(32) as usize),
            expanded: zeroed(layout.local_len().div_ceil(64) as usize),
            touched: (0..layout.local_stripes)
                .map(|_| AtomicBool::new(false))
                .collect(),
        }
    }

    /// Marks the goals (the ones this process owns) at distance 0.
    fn seed(&mut self, layout: &Layout, goals: &[u64]) {
        for &g in goals {
            let (owner, local) = layout.owner(g);
            if owner == layout.rank {
                self.table[(local / 32) as usize] |= (mod3::code(0) as u64) << (2 * (local % 32));
                self.touched[layout.local_stripe(local) as usize].store(true, Relaxed);
            }
        }
    }

    /// Sections of a checkpoint: the table and the expanded bitmap (the frontier follows).
    fn save(&self) -> Vec<checkpoint::Section<'_>> {
        vec![
            checkpoint::Section::Words(&self.table),
            checkpoint::Section::Words(&self.expanded),
        ]
    }

    fn restore(layout: &Layout, saved: checkpoint::Saved) -> Result<State> {
        let mut st = State::new(layout);
        let mut sections = saved.sections.into_iter();
        let (Some(table), Some(expanded), None) =
            (sections.next(), sections.next(), sections.next())
        else {
            return Err(Error::Unsupported(
                "checkpoint: expected two sections (table, expanded positions)".into(),
            ));
        };
        if table.len() != st.table.len() || expanded.len() != st.expanded.len() {
            return Err(Error::Unsupported(
                "checkpoint: section sizes do not fit this board and process count".into(),
            ));
        }
        st.table = table;
        st.expanded = expanded;
        // Where the frontier lies is read from the table: look everywhere once.
        for t in &st.touched {
            t.store(true, Relaxed);
        }
        Ok(st)
    }
}

/// What one level needs to mark neighbours.
struct Marker<'a> {
    layout: &'a Layout,
    table: &'a [AtomicU64],
    touched: &'a [AtomicBool],
    code: u64,
}

impl Marker<'_> {
    /// Marks local offset `local` as reached at this level if it was not, and flags its
    /// stripe; true when this call did it.
    #[inline(always)]
    fn mark(&self, local: u64) -> bool {
        if !self.claim(local) {
            return false;
        }
        let flag = &self.touched[self.layout.local_stripe(local) as usize];
        if !flag.load(Relaxed) {
            flag.store(true, Relaxed);
        }
        true
    }

    /// [`mark`](Marker::mark) without flagging the stripe.
    #[inline(always)]
    fn claim(&self, local: u64) -> bool {
        let w = &self.table[(local / 32) as usize];
        let shift = 2 * (local % 32);
        if w.load(Relaxed) >> shift & 3 != 0 {
            return false;
        }
        w.fetch_or(self.code << shift, Relaxed) >> shift & 3 == 0
    }

    #[inline(always)]
    fn addr(&self, local: u64) -> *const u8 {
        (self.table.as_ptr() as *const u8).wrapping_add((local / 4) as usize)
    }
}

/// Runs the enumeration with the dense store.
pub fn run<P: Bipartite, X: Exchange + ?Sized>(
    puzzle: &P,
    x: &X,
    layout: &Layout,
    config: &Config,
    progress: &dyn Progress,
) -> Result<Report> {
    let goals = super::goals(puzzle, layout)?;
    let ckpt_dir = config.work_dir.as_deref();
    let (mut st, mut counts, mut depth, resumed_at) = match (config.resume, ckpt_dir) {
        (true, Some(dir)) => {
            let saved = checkpoint::load(dir, &config.identity, Store::Dense, x)?;
            let (depth, counts) = (saved.depth, saved.counts.clone());
            (State::restore(layout, saved)?, counts, depth, Some(depth))
        }
        _ => {
            let mut st = State::new(layout);
            st.seed(layout, &goals);
            (st, vec![goals.len() as u64], 0u32, None)
        }
    };
    let mut clock = Clock::new(config.checkpoint_every);
    let mut seconds = Vec::new();
    let (mut sent, mut received) = (Vec::new(), Vec::new());
    let mut complete = false;
    loop {
        if config.max_depth.is_some_and(|m| depth >= m) {
            break;
        }
        let started = Instant::now();
        let (found, traffic) = level(puzzle, x, layout, config, &mut st, depth)?;
        if found == 0 {
            complete = true;
            break;
        }
        depth += 1;
        counts.push(found);
        let secs = started.elapsed().as_secs_f64();
        seconds.push(secs);
        let (s, r) = super::gather(x, traffic)?;
        sent.push(s);
        received.push(r);
        super::report_level(progress, depth, found, counts.iter().sum(), secs, 0);
        if config.level_delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(config.level_delay_ms));
        }
        if let Some(dir) = ckpt_dir {
            if clock.due(x)? {
                save(dir, config, x, &st, depth, &counts)?;
            }
        }
    }
    // The bitmap goes before the table is written: its memory is free for the page cache.
    drop(st.expanded);
    Ok(Report {
        counts,
        seconds,
        complete,
        store: Store::Dense,
        table: Some(Table { words: st.table }),
        resumed_at,
        sent,
        received,
    })
}

fn save<X: Exchange + ?Sized>(
    dir: &Path,
    config: &Config,
    x: &X,
    st: &State,
    depth: u32,
    counts: &[u64],
) -> Result<()> {
    checkpoint::save(
        dir,
        &config.identity,
        Store::Dense,
        x,
        depth,
        counts,
        &st.save(),
    )
}

/// Expands level `depth` (the frontier on side `depth mod 2`); returns the number of positions
/// first reached, summed over the processes, and this process's exchange traffic.
fn level<P: Bipartite, X: Exchange + ?Sized>(
    puzzle: &P,
    x: &X,
    layout: &Layout,
    config: &Config,
    st: &mut State,
    depth: u32,
) -> Result<(u64, Traffic)> {
    let p = (depth % 2) as usize;
    // The stripes the last level wrote into; this level flags those it writes into.
    let stripes: Vec<u64> = (0..layout.local_stripes)
        .filter(|&ls| st.touched[ls as usize].swap(false, Relaxed))
        .collect();
    let marker = Marker {
        layout,
        table: atomic(&mut st.table),
        touched: &st.touched,
        code: mod3::code(depth + 1) as u64,
    };
    let expanded = atomic(&mut st.expanded);
    let batches = batches(layout, config, &marker, expanded, p, &stripes);
    let procs = layout.procs as usize;
    let mut found = 0u64;
    let mut traffic = Traffic::default();
    let mut b = 0;
    loop {
        let batch = batches.get(b).cloned().unwrap_or(0..0);
        let results: Vec<(u64, Vec<Vec<u64>>)> = stripes[batch]
            .par_iter()
            .with_max_len(1)
            .fold(
                || (0u64, vec![Vec::new(); procs]),
                |(n, mut out), &ls| {
                    let got = expand_stripe(puzzle, layout, &marker, expanded, p, ls, &mut out);
                    (n + got, out)
                },
            )
            .collect();
        found += results.iter().map(|r| r.0).sum::<u64>();
        if procs == 1 {
            break;
        }
        let mut sends: Vec<Vec<u64>> = vec![Vec::new(); procs];
        for (_, out) in results {
            for (q, v) in out.into_iter().enumerate() {
                sends[q].extend(v);
            }
        }
        let received = x.all_to_all(&sends)?;
        traffic.add(layout.rank as usize, &sends, received.len());
        drop(sends);
        found += received
            .par_chunks(1 << 16)
            .map(|c| apply(layout, &marker, c))
            .sum::<u64>();
        b += 1;
        if !x.any(b < batches.len())? {
            break;
        }
    }
    Ok((x.sum(&[found])?[0], traffic))
}

/// The frontier in word `at` of the local arrays: the positions of side `side` (the positions
/// of the side in that word) that hold a code and were not expanded.
#[inline(always)]
fn frontier_word(table: &[AtomicU64], expanded: &[AtomicU64], side: u64, at: usize) -> u64 {
    let open = side & !expanded[at].load(Relaxed);
    if open == 0 {
        // Every position of the side was expanded: no need to read the table.
        return 0;
    }
    reached(table[2 * at].load(Relaxed), table[2 * at + 1].load(Relaxed)) & open
}

/// The active stripes cut into consecutive runs whose neighbours fit one exchange round (one
/// run of everything with a single process).
fn batches(
    layout: &Layout,
    config: &Config,
    marker: &Marker,
    expanded: &[AtomicU64],
    p: usize,
    stripes: &[u64],
) -> Vec<std::ops::Range<usize>> {
    if layout.procs == 1 {
        let everything = 0..stripes.len();
        return vec![everything];
    }
    let sizes: Vec<u64> = stripes
        .par_iter()
        .map(|&ls| {
            let first = ls * layout.stripe / 64;
            (0..layout.stripe / 64)
                .zip(layout.side_masks(p).iter().cycle())
                .map(|(w, &side)| {
                    let at = (first + w) as usize;
                    frontier_word(marker.table, expanded, side, at).count_ones() as u64
                })
                .sum::<u64>()
        })
        .collect();
    // At most four neighbours a position, any of which may belong to any process.
    let budget = config.round_entries.max(1);
    let mut out = Vec::new();
    let (mut start, mut sum) = (0, 0u64);
    for (k, &n) in sizes.iter().enumerate() {
        if k > start && sum + 4 * n > budget {
            out.push(start..k);
            start = k;
            sum = 0;
        }
        sum += 4 * n;
    }
    if start < stripes.len() {
        out.push(start..stripes.len());
    }
    out
}

/// Expands the frontier positions of local stripe `ls` (side `p`), marking them expanded.
fn expand_stripe<P: Bipartite>(
    puzzle: &P,
    layout: &Layout,
    marker: &Marker,
    expanded: &[AtomicU64],
    p: usize,
    ls: u64,
    out: &mut [Vec<u64>],
) -> u64 {
    let base = layout.global_stripe(ls) * layout.stripe;
    let first = ls * layout.stripe / 64;
    let sides = layout.side_masks(p).iter().cycle();
    let positions = (0..layout.stripe / 64)
        .zip(sides)
        .flat_map(move |(w, &side)| {
            let at = (first + w) as usize;
            let front = frontier_word(marker.table, expanded, side, at);
            if front != 0 {
                // Only this task writes this stripe's bits.
                expanded[at].store(expanded[at].load(Relaxed) | front, Relaxed);
            }
            BitsOf(front).map(move |b| base + 64 * w + b)
        });
    let mut near = 0u64;
    let mut found = 0u64;
    // Far neighbours (the table is larger than the caches) are looked at 32 neighbours after
    // their prefetch: a few hundred nanoseconds of other work, longer than a memory access.
    let mut delay = Delay::<_, 32>::new(|local: u64| found += marker.mark(local) as u64);
    let me = layout.rank;
    let local_base = ls * layout.stripe;
    puzzle.expand(positions, |j| {
        if j.wrapping_sub(base) < layout.stripe {
            // In this stripe, next to the position expanded (a move inside its block):
            // cached already, nothing to wait for.
            near += marker.claim(local_base + (j - base)) as u64;
            return;
        }
        let (owner, local) = layout.owner(j);
        if owner == me {
            delay.push(local, marker.addr(local));
        } else {
            out[owner as usize].push(j);
        }
    });
    delay.flush();
    if near > 0 {
        marker.touched[ls as usize].store(true, Relaxed);
    }
    found + near
}

/// Marks received neighbours (all owned by this process).
fn apply(layout: &Layout, marker: &Marker, positions: &[u64]) -> u64 {
    const AHEAD: usize = 16;
    let mut found = 0;
    for (k, &j) in positions.iter().enumerate() {
        if let Some(&later) = positions.get(k + AHEAD) {
            prefetch(marker.addr(layout.owner(later).1));
        }
        found += marker.mark(layout.owner(j).1) as u64;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reached_entries_become_bits() {
        let mut lo = 0u64;
        let mut hi = 0u64;
        for (i, code) in [(0u64, 1u64), (5, 2), (31, 3)] {
            lo |= code << (2 * i);
        }
        hi |= 3 << (2 * 7);
        assert_eq!(reached(lo, hi), 1 | 1 << 5 | 1 << 31 | 1 << (32 + 7));
        assert_eq!(reached(0, 0), 0);
        assert_eq!(reached(u64::MAX, u64::MAX), u64::MAX);
    }
}
