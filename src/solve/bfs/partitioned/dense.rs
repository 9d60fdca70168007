//! The dense store: the 2-bit table of the process's positions (codes of
//! [`crate::format::entries::mod3`]: 0 not reached, `1 + d mod 3`) and a bitmap of the positions
//! already expanded; 3 bits a position in all.
//!
//! The frontier is not stored: level `d` lies on side `d mod 2` of the bipartite graph, and
//! every earlier level of that side has been expanded, so the frontier of level `d` is the
//! positions of side `d mod 2` that hold a code but are not expanded yet. Each level reads it
//! stripe by stripe from the table and the bitmap (sequential reads), marks it expanded, and
//! expands it. The only random accesses are to the neighbours' table entries, whose cache
//! lines are prefetched a few neighbours ahead; nothing else is written at random.
//!
//! A neighbour is marked when its code is 0: a load first (a position seen before costs a
//! load, not a locked write), then one atomic bit-test-and-set, whose old bit says whether
//! this thread was first, so the level's count is exact. The ordered moves of a puzzle
//! ([`Bipartite::ordered_steps`]: a sliding puzzle's sideways moves, index ± 1) are made for a
//! whole bitmap word of the frontier at once, by shifting it: one atomic OR per table word,
//! whose old value gives the count. Level `d` writes codes on side `d + 1 mod 2` only, so the
//! frontier codes it reads do not change under it. A stripe that receives a code is flagged;
//! the next level scans only flagged stripes.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::format::entries::mod3;
use crate::progress::Progress;
use crate::resources::advise_huge_pages;
use crate::solve::bfs::partitioned::checkpoint;
use crate::solve::bfs::partitioned::driver::{self, Levels, Start};
use crate::solve::bfs::partitioned::layout::word_masks;
use crate::solve::bfs::partitioned::{Bipartite, Config, Layout, Report, Store, Traffic};
use crate::solve::bfs::{BitsOf, Delay};
use crate::solve::exchange::Exchange;
use crate::solve::prefetch::prefetch;
use crate::{Error, Result};

/// A process's part of a finished 2-bit table: entry `i` of the local table (2 bits, entry
/// `i mod 32` of word `⌊i / 32⌋`) is the code of the position at local offset `i`.
pub struct Codes {
    /// The words.
    pub words: Vec<u64>,
}

impl Codes {
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

/// The inverse of [`compact`]: bit `i` of the low 32 bits of `x` becomes bit `2i` (entry `i`
/// with code 1; multiplied by a code, entry `i` with that code).
#[inline(always)]
fn spread(x: u64) -> u64 {
    let mut x = x & 0xffff_ffff;
    x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

/// The ordered moves ([`Bipartite::ordered_steps`]) as bit masks over the words of a stripe,
/// by word modulo the period (as [`Layout::side_masks`]): `down[w]` has bit `b` when position
/// `64w + b` of a stripe has a move to the position before it, `up[w]` when it has one to the
/// position after it. All zero for a puzzle without ordered moves.
struct Steps {
    down: Vec<u64>,
    up: Vec<u64>,
    /// The mask [`Bipartite::expand_masked`] gets for each position: the ordered moves, when
    /// they are made here in bulk.
    skip: u8,
}

impl Steps {
    fn new<P: Bipartite>(puzzle: &P, layout: &Layout) -> Steps {
        let steps = puzzle.ordered_steps();
        let mask = |bit: u8| {
            word_masks(layout.period, |r| {
                steps.get(r).is_some_and(|&s| s & bit != 0)
            })
        };
        Steps {
            down: mask(1),
            up: mask(2),
            skip: if steps.is_empty() { 0 } else { P::ORDERED },
        }
    }
}

struct Space {
    table: Vec<u64>,
    /// Bit `i`: local offset `i` was expanded (it was in a frontier).
    expanded: Vec<u64>,
    /// Per local stripe: codes were written into it during the last level, so the next
    /// frontier may have positions there.
    touched: Vec<AtomicBool>,
}

impl Space {
    fn new(layout: &Layout) -> Space {
        Space {
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

    fn restore(layout: &Layout, saved: checkpoint::Saved) -> Result<Space> {
        let mut st = Space::new(layout);
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
    /// The lowest set bit of `code` (0 or 1).
    low: u32,
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
        let seen = w.load(Relaxed);
        if seen >> shift & 3 != 0 {
            return false;
        }
        // Once the entry was seen 0, only this level's code can arrive in it, so the thread
        // that sets the code's bit first is the one that reached it first: one bit set and
        // tested (`lock bts`) instead of a compare-and-swap loop for the whole code.
        if self.code == 3 {
            return self.claim_both(w, shift, seen);
        }
        let bit = 1u64 << (shift + self.low as u64);
        w.fetch_or(bit, Relaxed) & bit == 0
    }

    /// [`claim`](Marker::claim) of code 3, whose two bits one bit-test-and-set cannot set:
    /// one compare-and-swap of the word as last seen (another thread rarely writes the same
    /// word in between), instead of two locked ORs.
    #[inline(always)]
    fn claim_both(&self, w: &AtomicU64, shift: u64, mut seen: u64) -> bool {
        loop {
            if seen >> shift & 3 != 0 {
                return false;
            }
            match w.compare_exchange_weak(seen, seen | 3 << shift, Relaxed, Relaxed) {
                Ok(_) => return true,
                Err(now) => seen = now,
            }
        }
    }

    /// Marks the positions of `bits` (bit `i`: entry `i` of local table word `at`) that are
    /// not reached yet, with one atomic OR; returns how many this call marked (the OR's old
    /// value says which were still 0). Does not flag the stripe.
    #[inline(always)]
    fn claim_word(&self, at: usize, bits: u64) -> u64 {
        // Compared entry by entry where the entries lie (bit `2i` for entry `i`), which is
        // cheaper than compacting the table word to one bit an entry.
        let w = &self.table[at];
        let free = |x: u64| !(x | x >> 1);
        let new = spread(bits) & free(w.load(Relaxed));
        if new == 0 {
            return 0;
        }
        let old = w.fetch_or(new * self.code, Relaxed);
        (new & free(old)).count_ones() as u64
    }

    #[inline(always)]
    fn addr(&self, local: u64) -> *const u8 {
        (self.table.as_ptr() as *const u8).wrapping_add((local / 4) as usize)
    }
}

/// The dense store's side of the level loop ([`driver`]): the puzzle and the state.
struct Dense<'a, P> {
    puzzle: &'a P,
    layout: &'a Layout,
    config: &'a Config,
    steps: Steps,
    st: Space,
}

impl<P: Bipartite> Levels for Dense<'_, P> {
    const STORE: Store = Store::Dense;

    fn level<X: Exchange + ?Sized>(&mut self, x: &X, depth: u32) -> Result<(u64, Traffic)> {
        let Dense {
            puzzle,
            layout,
            config,
            ..
        } = *self;
        level(puzzle, x, layout, config, &self.steps, &mut self.st, depth)
    }

    fn sections(&self) -> Vec<checkpoint::Section<'_>> {
        self.st.save()
    }
}

/// Runs the enumeration with the dense store.
pub(crate) fn run<P: Bipartite, X: Exchange + ?Sized>(
    puzzle: &P,
    x: &X,
    layout: &Layout,
    config: &Config,
    progress: &dyn Progress,
) -> Result<Report> {
    let goals = crate::solve::bfs::partitioned::goals(puzzle, layout)?;
    let (st, start) = match (config.resume, config.work_dir.as_deref()) {
        (true, Some(dir)) => {
            let saved = checkpoint::load(dir, &config.identity, Store::Dense, x)?;
            let start = Start {
                counts: saved.counts.clone(),
                depth: saved.depth,
                resumed_at: Some(saved.depth),
            };
            (Space::restore(layout, saved)?, start)
        }
        _ => {
            let mut st = Space::new(layout);
            st.seed(layout, &goals);
            let start = Start {
                counts: vec![goals.len() as u64],
                depth: 0,
                resumed_at: None,
            };
            (st, start)
        }
    };
    let mut dense = Dense {
        puzzle,
        layout,
        config,
        steps: Steps::new(puzzle, layout),
        st,
    };
    let mut report = driver::drive(&mut dense, x, config, progress, start)?;
    // The bitmap goes before the table is written: its memory is free for the page cache.
    let Space {
        table, expanded, ..
    } = dense.st;
    drop(expanded);
    report.table = Some(Codes { words: table });
    Ok(report)
}

/// Expands level `depth` (the frontier on side `depth mod 2`); returns the number of positions
/// first reached, summed over the processes, and this process's exchange traffic.
fn level<P: Bipartite, X: Exchange + ?Sized>(
    puzzle: &P,
    x: &X,
    layout: &Layout,
    config: &Config,
    steps: &Steps,
    st: &mut Space,
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
        low: mod3::code(depth + 1).trailing_zeros(),
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
                    let got =
                        expand_stripe(puzzle, layout, &marker, expanded, steps, p, ls, &mut out);
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
    let (lo, hi) = (table[2 * at].load(Relaxed), table[2 * at + 1].load(Relaxed));
    if lo | hi == 0 {
        // Nothing reached in the word (the early levels, mostly): no need to compact it.
        return 0;
    }
    reached(lo, hi) & open
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
///
/// Word by word: the ordered moves of the word's frontier are made at once
/// ([`sideways`]); the frontier's positions then go to [`Bipartite::expand_masked`] for
/// their other moves, whose targets are marked through a prefetch ring unless they lie in the
/// table words next to the position.
#[allow(clippy::too_many_arguments)]
fn expand_stripe<P: Bipartite>(
    puzzle: &P,
    layout: &Layout,
    marker: &Marker,
    expanded: &[AtomicU64],
    steps: &Steps,
    p: usize,
    ls: u64,
    out: &mut [Vec<u64>],
) -> u64 {
    let base = layout.global_stripe(ls) * layout.stripe;
    let first = (ls * layout.stripe / 64) as usize;
    let words = (layout.stripe / 64) as usize;
    let period = layout.period as usize;
    let sides = layout.side_masks(p);
    // Words are walked in order with their residue modulo the period kept alongside: a
    // division a word cost as much as the scan itself.
    let front_of =
        |w: usize, wm: usize| frontier_word(marker.table, expanded, sides[wm], first + w);
    let mut wm = 0usize;
    // The word's frontier, and those of the words before and after it: ordered moves cross
    // word edges (never stripe edges: a stripe is whole periods, and ordered moves stay in
    // their period's group of indices).
    let (mut before, mut next) = (0u64, front_of(0, 0));
    let mut near = 0u64;
    // The position being expanded (for the nearness of its neighbours).
    let here = std::cell::Cell::new(base);
    let positions = (0..words).flat_map(|w| {
        let front = next;
        let wn = if wm + 1 == period { 0 } else { wm + 1 };
        next = if w + 1 < words {
            front_of(w + 1, wn)
        } else {
            0
        };
        let at = first + w;
        if front != 0 {
            // Only this task writes this stripe's bits.
            expanded[at].store(expanded[at].load(Relaxed) | front, Relaxed);
        }
        // Moves into this word may also come across its edges, with no frontier in it.
        if front != 0 || before >> 63 != 0 || next & 1 != 0 {
            near += sideways(marker, steps, wm, at, before, front, next);
        }
        before = front;
        wm = wn;
        let here = &here;
        BitsOf(front).map(move |b| {
            here.set(base + 64 * w as u64 + b);
            base + 64 * w as u64 + b
        })
    });
    let mut found = 0u64;
    // Far neighbours (the table is larger than the caches) are looked at 64 neighbours after
    // their prefetch: a microsecond or so of other work, longer than a memory access even on
    // a loaded machine.
    let mut delay = Delay::<_, 64>::new(|local: u64| found += marker.mark(local) as u64);
    let me = layout.rank;
    let local_base = ls * layout.stripe;
    let mut close = 0u64;
    puzzle.expand_masked(positions.map(|i| (i, steps.skip)), |j, _| {
        // In the table word of the position or one next to it: cached already, nothing to
        // wait for. Anything further, even in this stripe, may miss the caches.
        let word_gap = (j / 32).wrapping_sub(here.get() / 32).wrapping_add(1);
        if word_gap <= 2 && j.wrapping_sub(base) < layout.stripe {
            close += marker.claim(local_base + (j - base)) as u64;
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
    near += close;
    if near > 0 {
        marker.touched[ls as usize].store(true, Relaxed);
    }
    found + near
}

/// Makes the ordered moves of frontier word `front` (word `w mod period` = `wm` of a stripe,
/// local bitmap word `at`) in bulk: its positions' neighbours `i ± 1` are the word shifted by
/// one bit, restricted to the positions that have that move, plus the moves across the word's
/// edges from the last position of the word `before` and the first of the word `next` (0 at
/// the stripe's edges, where no ordered move crosses). Every target lies on the other side,
/// which this level writes; returns how many were first reached here.
#[inline]
fn sideways(
    marker: &Marker,
    steps: &Steps,
    wm: usize,
    at: usize,
    before: u64,
    front: u64,
    next: u64,
) -> u64 {
    let period = steps.up.len();
    let wb = if wm == 0 { period - 1 } else { wm - 1 };
    let wn = if wm + 1 == period { 0 } else { wm + 1 };
    let targets = (front & steps.down[wm]) >> 1
        | (front & steps.up[wm]) << 1
        | (before & steps.up[wb]) >> 63
        | (next & steps.down[wn]) << 63;
    if targets == 0 {
        return 0;
    }
    let mut found = 0;
    if targets as u32 != 0 {
        found += marker.claim_word(2 * at, targets & 0xffff_ffff);
    }
    if targets >> 32 != 0 {
        found += marker.claim_word(2 * at + 1, targets >> 32);
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Indexed;

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

    #[test]
    fn spread_inverts_compact() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let bits = x & 0xffff_ffff;
            for code in 1..4u64 {
                assert_eq!(compact(spread(bits) * code), bits);
            }
        }
        assert_eq!(spread(1 << 31 | 1), 1 << 62 | 1);
    }

    use crate::games::board::Board;
    use crate::games::slide::SlideIndex;
    use crate::solve::bfs::Puzzle;

    /// A sliding puzzle that names no ordered moves: the dense store expands every move
    /// position by position, as before the bulk moves.
    struct PerPosition(SlideIndex);

    impl crate::model::Indexed for PerPosition {
        fn positions(&self) -> u64 {
            self.0.positions()
        }
    }

    impl Puzzle for PerPosition {
        fn goals(&self) -> Vec<u64> {
            self.0.goals()
        }
        fn neighbours<F: FnMut(u64)>(&self, pos: u64, f: F) {
            self.0.neighbours(pos, f);
        }
    }

    impl Bipartite for PerPosition {
        fn sides(&self) -> Vec<u8> {
            self.0.sides()
        }
        fn expand_masked<I, F>(&self, positions: I, f: F)
        where
            I: IntoIterator<Item = (u64, u8)>,
            F: FnMut(u64, u8),
        {
            self.0.expand_masked(positions, f);
        }
    }

    fn config() -> Config {
        Config {
            max_depth: None,
            memory: 1 << 30,
            round_entries: 1 << 16,
            work_dir: None,
            checkpoint_every: None,
            resume: false,
            identity: checkpoint::Identity {
                key: 0,
                name: "test".into(),
                stripe: 0,
            },
            level_delay_ms: 0,
            force: None,
        }
    }

    fn enumerate<P: Bipartite>(puzzle: &P, stripe: u64, threads: usize) -> (Vec<u64>, Vec<u64>) {
        let layout = Layout::with_stripe(puzzle.positions(), &puzzle.sides(), 1, 0, stripe);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let report = pool
            .install(|| {
                run(
                    puzzle,
                    &crate::solve::exchange::Single,
                    &layout,
                    &config(),
                    &(),
                )
            })
            .unwrap();
        assert!(report.complete);
        // The table's length is whole stripes: compare the positions' words.
        let mut words = report.table.unwrap().words;
        words.truncate(puzzle.positions().div_ceil(32) as usize);
        (report.counts, words)
    }

    #[test]
    fn bulk_ordered_moves_give_the_same_table_and_exact_counts_at_any_thread_count() {
        for (r, c) in [(2, 3), (3, 2), (2, 4), (3, 3), (2, 5)] {
            let g = Board::new(r, c).unwrap();
            let ix = SlideIndex::dense(g);
            let n = ix.positions();
            // Per position, one thread, one stripe: the reference.
            let (counts, words) = enumerate(&PerPosition(ix.clone()), n, 1);
            assert_eq!(counts.iter().sum::<u64>(), n, "{r}x{c}");
            for threads in 1..=3 {
                // Small stripes: many tasks racing for the same words.
                for stripe in [1, 4096, n] {
                    let got = enumerate(&ix, stripe, threads);
                    assert_eq!(got.0, counts, "{r}x{c} {threads} threads, stripe {stripe}");
                    assert_eq!(got.1, words, "{r}x{c} {threads} threads, stripe {stripe}");
                }
            }
        }
    }
}
