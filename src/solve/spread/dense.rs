//! The dense store: the 2-bit table of the process's positions (codes of
//! [`crate::game::mod3`]: 0 not reached, `1 + d mod 3`) and, for each side of the bipartite graph,
//! a bitmap over that side's positions holding the frontier when it lies on that side.
//!
//! Level `d` reads the bitmap of side `d mod 2` and writes that of the other side; then the
//! read one is cleared (only the stripes that had bits) for level `d + 1` to write. A
//! neighbour is marked when its code is 0: one atomic OR sets its code, and the OR's old value
//! says whether this thread was the first (so the level's count is exact), in which case it
//! also sets the neighbour's frontier bit. The table entry is read before the OR, so
//! positions seen before cost a load, not a locked write.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use super::checkpoint;
use super::{Bipartite, Clock, Config, Exchange, Layout, Report, Store};
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

struct State {
    table: Vec<u64>,
    front: [Vec<u64>; 2],
    /// Per local stripe and side: whether the stripe has frontier bits on that side.
    active: [Vec<AtomicBool>; 2],
}

impl State {
    fn new(layout: &Layout) -> State {
        let flags = || {
            (0..layout.local_stripes)
                .map(|_| AtomicBool::new(false))
                .collect::<Vec<_>>()
        };
        State {
            table: zeroed(layout.local_len().div_ceil(32) as usize),
            front: [0, 1]
                .map(|s| zeroed((layout.local_stripes * layout.half_per_stripe(s) / 64) as usize)),
            active: [flags(), flags()],
        }
    }

    /// Marks the goals (the ones this process owns): code of distance 0, frontier of side 0.
    fn seed(&mut self, layout: &Layout, goals: &[u64]) {
        for &g in goals {
            let (owner, local) = layout.owner(g);
            if owner == layout.rank {
                twobit_set(&mut self.table, local, mod3::code(0));
                let (side, h) = layout.half(local);
                self.front[side][(h / 64) as usize] |= 1 << (h % 64);
                let ls = local / layout.stripe;
                self.active[side][ls as usize].store(true, Relaxed);
            }
        }
    }

    /// Sections of a checkpoint before expanding level `depth`: the table, the frontier
    /// bitmap of side `depth mod 2` (the other is empty) and its stripe flags.
    fn save(&self, depth: u32) -> Vec<checkpoint::Section<'_>> {
        vec![
            checkpoint::Section::Words(&self.table),
            checkpoint::Section::Words(&self.front[(depth % 2) as usize]),
        ]
    }

    fn restore(layout: &Layout, saved: checkpoint::Saved) -> Result<State> {
        let mut st = State::new(layout);
        let side = (saved.depth % 2) as usize;
        let mut sections = saved.sections.into_iter();
        let (Some(table), Some(front), None) = (sections.next(), sections.next(), sections.next())
        else {
            return Err(Error::Unsupported(
                "checkpoint: expected two sections (table, frontier)".into(),
            ));
        };
        if table.len() != st.table.len() || front.len() != st.front[side].len() {
            return Err(Error::Unsupported(
                "checkpoint: section sizes do not fit this board and process count".into(),
            ));
        }
        st.table = table;
        st.front[side] = front;
        let words = (layout.half_per_stripe(side) / 64) as usize;
        for (ls, w) in st.front[side].chunks(words).enumerate() {
            if w.iter().any(|&x| x != 0) {
                st.active[side][ls].store(true, Relaxed);
            }
        }
        Ok(st)
    }
}

fn twobit_set(table: &mut [u64], i: u64, code: u8) {
    table[(i / 32) as usize] |= (code as u64) << (2 * (i % 32));
}

/// What one level needs to mark neighbours.
struct Marker<'a> {
    layout: &'a Layout,
    table: &'a [AtomicU64],
    next: &'a [AtomicU64],
    next_active: &'a [AtomicBool],
    code: u64,
}

impl Marker<'_> {
    /// Marks local offset `local` as reached at this level if it was not; true when this call
    /// did it.
    #[inline(always)]
    fn mark(&self, local: u64) -> bool {
        let w = &self.table[(local / 32) as usize];
        let shift = 2 * (local % 32);
        if w.load(Relaxed) >> shift & 3 != 0 {
            return false;
        }
        if w.fetch_or(self.code << shift, Relaxed) >> shift & 3 != 0 {
            return false;
        }
        let (_, h) = self.layout.half(local);
        self.next[(h / 64) as usize].fetch_or(1 << (h % 64), Relaxed);
        let flag = &self.next_active[(local / self.layout.stripe) as usize];
        if !flag.load(Relaxed) {
            flag.store(true, Relaxed);
        }
        true
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
    let mut complete = false;
    loop {
        if config.max_depth.is_some_and(|m| depth >= m) {
            break;
        }
        let started = Instant::now();
        let found = level(puzzle, x, layout, config, &mut st, depth)?;
        if found == 0 {
            complete = true;
            break;
        }
        depth += 1;
        counts.push(found);
        let secs = started.elapsed().as_secs_f64();
        seconds.push(secs);
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
    Ok(Report {
        counts,
        seconds,
        complete,
        store: Store::Dense,
        table: Some(Table { words: st.table }),
        resumed_at,
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
        &st.save(depth),
    )
}

/// Expands level `depth` (the frontier on side `depth mod 2`); returns the number of positions
/// first reached, summed over the processes.
fn level<P: Bipartite, X: Exchange + ?Sized>(
    puzzle: &P,
    x: &X,
    layout: &Layout,
    config: &Config,
    st: &mut State,
    depth: u32,
) -> Result<u64> {
    let p = (depth % 2) as usize;
    let [f0, f1] = &mut st.front;
    let (cur, next): (&[u64], &mut [u64]) = if p == 0 { (f0, f1) } else { (f1, f0) };
    let marker = Marker {
        layout,
        table: atomic(&mut st.table),
        next: atomic(next),
        next_active: &st.active[1 - p],
        code: mod3::code(depth + 1) as u64,
    };
    let words = (layout.half_per_stripe(p) / 64) as usize;
    let stripes: Vec<u64> = (0..layout.local_stripes)
        .filter(|&ls| st.active[p][ls as usize].load(Relaxed))
        .collect();
    let batches = batches(layout, config, cur, words, &stripes);
    let procs = layout.procs as usize;
    let mut found = 0u64;
    let mut b = 0;
    loop {
        let batch = batches.get(b).cloned().unwrap_or(0..0);
        let results: Vec<(u64, Vec<Vec<u64>>)> = stripes[batch]
            .par_iter()
            .with_max_len(1)
            .fold(
                || (0u64, vec![Vec::new(); procs]),
                |(n, mut out), &ls| {
                    let w = &cur[ls as usize * words..(ls as usize + 1) * words];
                    let got = expand_stripe(puzzle, layout, &marker, p, ls, w, &mut out);
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
    // The read bitmap becomes the next level's write bitmap: clear the stripes that had bits.
    let cur: &mut [u64] = if p == 0 {
        &mut st.front[0]
    } else {
        &mut st.front[1]
    };
    cur.par_chunks_mut(words)
        .zip(st.active[p].par_iter())
        .for_each(|(w, flag)| {
            if flag.load(Relaxed) {
                w.fill(0);
                flag.store(false, Relaxed);
            }
        });
    Ok(x.sum(&[found])?[0])
}

/// The active stripes cut into consecutive runs whose neighbours fit one exchange round (one
/// run of everything with a single process).
fn batches(
    layout: &Layout,
    config: &Config,
    cur: &[u64],
    words: usize,
    stripes: &[u64],
) -> Vec<std::ops::Range<usize>> {
    if layout.procs == 1 {
        let everything = 0..stripes.len();
        return vec![everything];
    }
    let sizes: Vec<u64> = stripes
        .par_iter()
        .map(|&ls| {
            cur[ls as usize * words..(ls as usize + 1) * words]
                .iter()
                .map(|w| w.count_ones() as u64)
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

/// Expands the frontier positions of local stripe `ls` (its bitmap words `w`, side `p`).
fn expand_stripe<P: Bipartite>(
    puzzle: &P,
    layout: &Layout,
    marker: &Marker,
    p: usize,
    ls: u64,
    w: &[u64],
    out: &mut [Vec<u64>],
) -> u64 {
    let base = layout.global_stripe(ls) * layout.stripe;
    let cells = &layout.cells[p];
    let per_block = cells.len() as u32;
    let period = layout.period;
    let positions = w.iter().enumerate().flat_map(move |(k, &bits)| {
        BitsOf(bits).map(move |b| {
            let h = (k as u64 * 64 + b) as u32;
            base + (h / per_block) as u64 * period + cells[(h % per_block) as usize] as u64
        })
    });
    let mut found = 0u64;
    let mut delay = Delay::new(|local: u64| found += marker.mark(local) as u64);
    let me = layout.rank;
    puzzle.expand(positions, |j| {
        let (owner, local) = layout.owner(j);
        if owner == me {
            delay.push(local, marker.addr(local));
        } else {
            out[owner as usize].push(j);
        }
    });
    delay.flush();
    found
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
