//! The sparse store: the positions of levels `d − 1` and `d` as sorted lists, for boards whose
//! 2-bit table cannot fit (the 4×4: 1.3 TB even at one bit a position). Counts only.
//!
//! In a bipartite graph every neighbour of level `d` lies in level `d − 1` or `d + 1`, so
//! level `d + 1` is the set of neighbours of level `d` minus level `d − 1`: no record of older
//! levels is needed. Each process keeps its positions in [`BUCKETS`] buckets (local stripe
//! number mod [`BUCKETS`]), each a sorted list compressed as blocks of deltas (LEB128 varints,
//! every block starting afresh, so blocks can be expanded independently).
//!
//! A level: the blocks of level `d` are expanded in parallel; neighbours owned by the process
//! go to per-thread sorting buffers, the others to outboxes exchanged in rounds. A full buffer
//! is sorted, deduplicated and cut into one sorted **run** per bucket. At the end each bucket
//! merges its runs, drops duplicates and the members of level `d − 1`, and writes level
//! `d + 1`. Lists and runs stay in memory up to a budget and are written to files in the work
//! folder beyond it (spilled), so the levels can outgrow memory.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use super::checkpoint::{self, Section};
use super::{Bipartite, Clock, Config, Exchange, Layout, Plan, Report, Store, Traffic};
use crate::progress::Progress;
use crate::{Error, Result};

/// Buckets per process (the unit of parallel merging).
pub const BUCKETS: u64 = 64;

/// Entries per compressed block.
const BLOCK: usize = 4096;

/// Entries a thread's sorting buffer holds before it is sorted into runs.
fn sort_entries(config: &Config) -> u64 {
    // An eighth of the memory, shared by the threads, between 1 Mi and 64 Mi entries each.
    (config.memory / 8 / 8 / rayon::current_num_threads() as u64).clamp(1 << 20, 1 << 26)
}

/// The sparse store's needs on one process: the sorting buffers and the exchange buffers are
/// fixed; lists live in what is left (half of it), spilling to disk beyond.
pub fn plan(layout: &Layout, config: &Config) -> Plan {
    let threads = rayon::current_num_threads() as u64;
    let frontier = threads * sort_entries(config) * 8;
    let exchange = super::exchange_bytes(layout, config);
    // A floor for lists and block buffers: 64 MiB.
    let table = (config.memory.saturating_sub(frontier + exchange) / 2).max(64 << 20);
    Plan {
        store: Store::Sparse,
        table,
        frontier,
        exchange,
    }
}

/// Memory left for lists; beyond it they go to files.
struct Budget {
    left: AtomicU64,
    dir: Option<PathBuf>,
    serial: AtomicU64,
}

impl Budget {
    fn take(&self, bytes: u64) -> bool {
        self.left
            .fetch_update(Relaxed, Relaxed, |l| l.checked_sub(bytes))
            .is_ok()
    }

    fn give(&self, bytes: u64) {
        self.left.fetch_add(bytes, Relaxed);
    }

    fn spill_path(&self) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        Some(dir.join(format!("spill-{}", self.serial.fetch_add(1, Relaxed))))
    }
}

enum Data {
    Memory(Vec<u8>),
    File { path: PathBuf, file: File },
}

/// A sorted list of distinct positions, compressed in blocks.
struct List {
    data: Data,
    /// Byte offset of each block, and the end.
    offsets: Vec<u64>,
    /// Entries of each block.
    counts: Vec<u32>,
    len: u64,
}

impl List {
    fn empty() -> List {
        List {
            data: Data::Memory(Vec::new()),
            offsets: vec![0],
            counts: Vec::new(),
            len: 0,
        }
    }

    fn blocks(&self) -> usize {
        self.counts.len()
    }

    /// Decodes block `k` into `out`.
    fn block(&self, k: usize, out: &mut Vec<u64>) -> Result<()> {
        out.clear();
        let (from, to) = (self.offsets[k], self.offsets[k + 1]);
        let mut read;
        let bytes: &[u8] = match &self.data {
            Data::Memory(v) => &v[from as usize..to as usize],
            Data::File { path, file } => {
                read = vec![0u8; (to - from) as usize];
                file.read_exact_at(&mut read, from)
                    .map_err(|e| Error::io(path, e))?;
                &read
            }
        };
        let mut last = 0u64;
        let mut i = 0;
        while i < bytes.len() {
            let (v, used) = varint(&bytes[i..]);
            i += used;
            last = if out.is_empty() { v } else { last + v };
            out.push(last);
        }
        if out.len() != self.counts[k] as usize {
            return Err(Error::internal(
                "a compressed block decodes to the wrong count",
            ));
        }
        Ok(())
    }

    fn bytes(&self) -> u64 {
        *self.offsets.last().expect("offsets end")
    }

    fn in_memory(&self) -> u64 {
        match &self.data {
            Data::Memory(v) => v.len() as u64,
            Data::File { .. } => 0,
        }
    }

    /// Gives back its memory to the budget, or removes its file.
    fn release(self, budget: &Budget) {
        match self.data {
            Data::Memory(v) => budget.give(v.len() as u64),
            Data::File { path, .. } => {
                let _ = fs::remove_file(path);
            }
        }
    }

    /// The list as words for a checkpoint: its count, blocks, offsets, counts, bytes.
    fn pack(&self) -> Result<Vec<u64>> {
        let mut out = vec![self.len, self.blocks() as u64];
        out.extend_from_slice(&self.offsets);
        out.extend(self.counts.iter().map(|&c| c as u64));
        let bytes = match &self.data {
            Data::Memory(v) => v.clone(),
            Data::File { path, file } => {
                let mut v = vec![0u8; self.bytes() as usize];
                file.read_exact_at(&mut v, 0)
                    .map_err(|e| Error::io(path, e))?;
                v
            }
        };
        out.push(bytes.len() as u64);
        out.extend(bytes.chunks(8).map(|c| {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(w)
        }));
        Ok(out)
    }

    fn unpack(words: &[u64], budget: &Budget) -> Result<List> {
        let bad = || Error::Unsupported("checkpoint: a level list does not decode".into());
        let len = *words.first().ok_or_else(bad)?;
        let blocks = *words.get(1).ok_or_else(bad)? as usize;
        let rest = words.get(2..).ok_or_else(bad)?;
        if rest.len() < 2 * blocks + 2 {
            return Err(bad());
        }
        let offsets = rest[..blocks + 1].to_vec();
        let counts: Vec<u32> = rest[blocks + 1..2 * blocks + 1]
            .iter()
            .map(|&c| c as u32)
            .collect();
        let nbytes = rest[2 * blocks + 1] as usize;
        let packed = &rest[2 * blocks + 2..];
        if packed.len() != nbytes.div_ceil(8) || offsets.last() != Some(&(nbytes as u64)) {
            return Err(bad());
        }
        let mut bytes: Vec<u8> = packed.iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes.truncate(nbytes);
        let mut w = Writer::new();
        w.buf = bytes;
        w.offsets = offsets;
        w.counts = counts;
        w.len = len;
        w.finish_raw(budget)
    }
}

fn varint(b: &[u8]) -> (u64, usize) {
    let mut v = 0u64;
    let mut shift = 0;
    for (i, &byte) in b.iter().enumerate() {
        v |= ((byte & 0x7f) as u64) << shift;
        if byte & 0x80 == 0 {
            return (v, i + 1);
        }
        shift += 7;
    }
    (v, b.len())
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Builds a [`List`] from increasing values.
struct Writer {
    buf: Vec<u8>,
    offsets: Vec<u64>,
    counts: Vec<u32>,
    last: u64,
    len: u64,
}

impl Writer {
    fn new() -> Writer {
        Writer {
            buf: Vec::new(),
            offsets: vec![0],
            counts: Vec::new(),
            last: 0,
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, v: u64) {
        match self.counts.last_mut() {
            Some(c) if (*c as usize) < BLOCK => {
                put_varint(&mut self.buf, v - self.last);
                *c += 1;
            }
            _ => {
                if !self.counts.is_empty() {
                    self.offsets.push(self.buf.len() as u64);
                }
                put_varint(&mut self.buf, v);
                self.counts.push(1);
            }
        }
        self.last = v;
        self.len += 1;
    }

    /// The list, in memory when the budget allows, else in a file of the work folder.
    fn finish(mut self, budget: &Budget) -> Result<List> {
        if !self.counts.is_empty() {
            self.offsets.push(self.buf.len() as u64);
        }
        self.finish_raw(budget)
    }

    fn finish_raw(self, budget: &Budget) -> Result<List> {
        let n = self.buf.len() as u64;
        let data = if budget.take(n) {
            let mut buf = self.buf;
            buf.shrink_to_fit();
            Data::Memory(buf)
        } else {
            let path = budget.spill_path().ok_or_else(|| {
                Error::Unsupported(
                    "the level lists outgrow the memory given and there is no folder to \
                     spill them to"
                        .into(),
                )
            })?;
            let io = |e| Error::io(&path, e);
            let mut w = BufWriter::new(File::create(&path).map_err(io)?);
            w.write_all(&self.buf).map_err(io)?;
            let file = w.into_inner().map_err(|e| io(e.into_error()))?;
            Data::File { path, file }
        };
        Ok(List {
            data,
            offsets: self.offsets,
            counts: self.counts,
            len: self.len,
        })
    }
}

/// Reads a list from the start.
struct Cursor<'a> {
    list: &'a List,
    block: usize,
    buf: Vec<u64>,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(list: &'a List) -> Cursor<'a> {
        Cursor {
            list,
            block: 0,
            buf: Vec::new(),
            at: 0,
        }
    }

    fn next(&mut self) -> Result<Option<u64>> {
        while self.at == self.buf.len() {
            if self.block == self.list.blocks() {
                return Ok(None);
            }
            self.list.block(self.block, &mut self.buf)?;
            self.block += 1;
            self.at = 0;
        }
        self.at += 1;
        Ok(Some(self.buf[self.at - 1]))
    }
}

/// Neighbours owned by this process, gathered per thread and sorted into runs per bucket.
struct Sorter<'a> {
    layout: &'a Layout,
    budget: &'a Budget,
    cap: usize,
    buffers: Vec<Mutex<Vec<u64>>>,
    runs: Vec<Mutex<Vec<List>>>,
}

impl<'a> Sorter<'a> {
    fn new(layout: &'a Layout, budget: &'a Budget, cap: usize) -> Sorter<'a> {
        Sorter {
            layout,
            budget,
            cap,
            buffers: (0..rayon::current_num_threads().max(1))
                .map(|_| Mutex::new(Vec::new()))
                .collect(),
            runs: (0..BUCKETS).map(|_| Mutex::new(Vec::new())).collect(),
        }
    }

    fn bucket(&self, j: u64) -> usize {
        let (_, local) = self.layout.owner(j);
        ((local / self.layout.stripe) % BUCKETS) as usize
    }

    /// Adds positions (owned by this process) from the current thread.
    fn add(&self, positions: &[u64]) -> Result<()> {
        let t = rayon::current_thread_index().unwrap_or(0) % self.buffers.len();
        let mut buf = self.buffers[t].lock().expect("sorter lock");
        buf.extend_from_slice(positions);
        if buf.len() >= self.cap {
            let full = std::mem::take(&mut *buf);
            drop(buf);
            self.sort(full)?;
        }
        Ok(())
    }

    /// Sorts a buffer, drops duplicates, and cuts it into one run per bucket. Positions are
    /// below 2^48, so each is sorted as one word with its bucket above it.
    fn sort(&self, mut v: Vec<u64>) -> Result<()> {
        for j in v.iter_mut() {
            *j |= (self.bucket(*j) as u64) << 48;
        }
        v.sort_unstable();
        v.dedup();
        const LOW: u64 = (1 << 48) - 1;
        for piece in v.chunk_by(|a, b| a >> 48 == b >> 48) {
            let mut w = Writer::new();
            for &j in piece {
                w.push(j & LOW);
            }
            let run = w.finish(self.budget)?;
            self.runs[(piece[0] >> 48) as usize]
                .lock()
                .expect("runs lock")
                .push(run);
        }
        Ok(())
    }

    /// Sorts what the buffers still hold.
    fn flush(&self) -> Result<()> {
        self.buffers.par_iter().try_for_each(|b| {
            let v = std::mem::take(&mut *b.lock().expect("sorter lock"));
            if v.is_empty() {
                Ok(())
            } else {
                self.sort(v)
            }
        })
    }
}

/// Merges the runs of one bucket into the next level, without duplicates and without the
/// members of the level before (`prev`).
fn merge(runs: Vec<List>, prev: &List, budget: &Budget) -> Result<List> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut cursors: Vec<Cursor> = runs.iter().map(Cursor::new).collect();
    let mut heap = BinaryHeap::new();
    for (k, c) in cursors.iter_mut().enumerate() {
        if let Some(v) = c.next()? {
            heap.push(Reverse((v, k)));
        }
    }
    let mut old = Cursor::new(prev);
    let mut old_v = old.next()?;
    let mut out = Writer::new();
    let mut last = None;
    while let Some(Reverse((v, k))) = heap.pop() {
        if let Some(n) = cursors[k].next()? {
            heap.push(Reverse((n, k)));
        }
        if last == Some(v) {
            continue;
        }
        last = Some(v);
        while old_v.is_some_and(|o| o < v) {
            old_v = old.next()?;
        }
        if old_v != Some(v) {
            out.push(v);
        }
    }
    drop(cursors);
    for r in runs {
        r.release(budget);
    }
    out.finish(budget)
}

/// Runs the enumeration with the sparse store.
pub fn run<P: Bipartite, X: Exchange + ?Sized>(
    puzzle: &P,
    x: &X,
    layout: &Layout,
    config: &Config,
    progress: &dyn Progress,
) -> Result<Report> {
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
    let goals = super::goals(puzzle, layout)?;
    let (mut prev, mut cur, mut counts, mut depth, resumed_at) =
        match (config.resume, config.work_dir.as_deref()) {
            (true, Some(dir)) => {
                let saved = checkpoint::load(dir, &config.identity, Store::Sparse, x)?;
                if saved.sections.len() != 2 * BUCKETS as usize {
                    return Err(Error::Unsupported(
                        "checkpoint: wrong number of level lists".into(),
                    ));
                }
                let lists = saved
                    .sections
                    .iter()
                    .map(|w| List::unpack(w, &budget))
                    .collect::<Result<Vec<_>>>()?;
                let mut lists = lists.into_iter();
                let prev: Vec<List> = lists.by_ref().take(BUCKETS as usize).collect();
                let cur: Vec<List> = lists.collect();
                (prev, cur, saved.counts, saved.depth, Some(saved.depth))
            }
            _ => {
                let mut mine: Vec<u64> = goals
                    .iter()
                    .copied()
                    .filter(|&g| layout.owner(g).0 == layout.rank)
                    .collect();
                mine.sort_unstable();
                let sorter = Sorter::new(layout, &budget, usize::MAX);
                sorter.sort(mine)?;
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
                let prev = (0..BUCKETS).map(|_| List::empty()).collect();
                (prev, cur, vec![goals.len() as u64], 0u32, None)
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
        let (next, traffic) = level(puzzle, x, layout, config, &budget, &prev, &cur)?;
        let mine: u64 = next.iter().map(|l| l.len).sum();
        let found = x.sum(&[mine])?[0];
        for l in std::mem::replace(&mut prev, cur) {
            l.release(&budget);
        }
        cur = next;
        if found == 0 {
            complete = true;
            break;
        }
        depth += 1;
        counts.push(found);
        let lists: u64 = prev.iter().chain(&cur).map(|l| l.in_memory()).sum();
        let secs = started.elapsed().as_secs_f64();
        seconds.push(secs);
        let (s, r) = super::gather(x, traffic)?;
        sent.push(s);
        received.push(r);
        super::report_level(progress, depth, found, counts.iter().sum(), secs, lists);
        if config.level_delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(config.level_delay_ms));
        }
        if let Some(dir) = config.work_dir.as_deref() {
            if clock.due(x)? {
                let sections: Vec<Section> = prev
                    .iter()
                    .chain(&cur)
                    .map(|l| Section::Lazy(Box::new(move || l.pack())))
                    .collect();
                checkpoint::save(
                    dir,
                    &config.identity,
                    Store::Sparse,
                    x,
                    depth,
                    &counts,
                    &sections,
                )?;
            }
        }
    }
    for l in prev.into_iter().chain(cur) {
        l.release(&budget);
    }
    Ok(Report {
        counts,
        seconds,
        complete,
        store: Store::Sparse,
        table: None,
        resumed_at,
        sent,
        received,
    })
}

/// Expands level `cur` into the next level's lists (this process's buckets); returns them and
/// this process's exchange traffic.
fn level<P: Bipartite, X: Exchange + ?Sized>(
    puzzle: &P,
    x: &X,
    layout: &Layout,
    config: &Config,
    budget: &Budget,
    prev: &[List],
    cur: &[List],
) -> Result<(Vec<List>, Traffic)> {
    let sorter = Sorter::new(layout, budget, sort_entries(config) as usize);
    let tasks: Vec<(usize, usize)> = cur
        .iter()
        .enumerate()
        .flat_map(|(b, l)| (0..l.blocks()).map(move |k| (b, k)))
        .collect();
    let procs = layout.procs as usize;
    // Rounds of blocks whose neighbours fit an exchange round (everything with one process).
    let per_round = if procs == 1 {
        tasks.len().max(1)
    } else {
        ((config.round_entries / 4 / BLOCK as u64) as usize).max(1)
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
            .map(|&(b, k)| -> Result<Vec<Vec<u64>>> {
                let mut positions = Vec::with_capacity(BLOCK);
                cur[b].block(k, &mut positions)?;
                let mut out = vec![Vec::new(); procs];
                let mut local = Vec::with_capacity(4 * positions.len());
                puzzle.expand(positions.iter().copied(), |j| {
                    let owner = layout.owner(j).0;
                    if owner == layout.rank {
                        local.push(j);
                    } else {
                        out[owner as usize].push(j);
                    }
                });
                sorter.add(&local)?;
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
        .zip(prev.par_iter())
        .map(|(runs, prev)| merge(runs, prev, budget))
        .collect::<Result<Vec<_>>>()?;
    Ok((next, traffic))
}

/// Removes what a run spilled (its folder under the work folder).
pub fn remove_spill(dir: &Path) {
    let _ = fs::remove_dir_all(dir.join("spill"));
}
