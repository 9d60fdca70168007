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
//! Each process keeps its positions in [`BUCKETS`] buckets (local stripe number mod
//! [`BUCKETS`]), each a sorted list compressed as blocks: the positions as gaps (every block
//! starting afresh, so blocks can be expanded independently) in groups of four behind a byte
//! of their lengths (see [`LENS`]), then their masks, two to a byte.
//!
//! A level: the blocks of level `d` are expanded in parallel; neighbours owned by the process
//! go to per-thread sorting buffers, the others to outboxes exchanged in rounds (an entry is
//! `position << 4 | mask`, one word). A buffer holds a piece per bucket; a full piece is
//! sorted, its copies merged, and kept as a sorted **run** of its bucket. At the end each
//! bucket merges its runs and writes level
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
    /// Not kept open: a deep level spills thousands of runs, more files than a process may
    /// hold open; each read opens it.
    File {
        path: PathBuf,
        /// xxh3-64 of its bytes, which a checkpoint keeps instead of the bytes.
        hash: u64,
    },
}

/// How a checkpoint keeps a list ([`List::head`]): its bytes in the part, or in a file beside
/// it.
const INLINE: u64 = 0;
const LINKED: u64 = 1;

/// Refuses a list's file from a checkpoint unless it has `len` bytes of xxh3-64 `hash`.
fn check_file(path: &Path, len: u64, hash: u64) -> Result<()> {
    use std::io::Read;
    let mut f = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut h = xxhash_rust::xxh3::Xxh3Default::new();
    let mut buf = vec![0u8; 1 << 22];
    let mut read = 0u64;
    loop {
        let n = f.read(&mut buf).map_err(|e| Error::io(path, e))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
        read += n as u64;
    }
    if read != len {
        return Err(Error::corrupt(
            path,
            format!("{read} bytes, the checkpoint names {len} (a damaged checkpoint)"),
        ));
    }
    if h.digest() != hash {
        return Err(Error::corrupt(
            path,
            "checksum mismatch (a damaged checkpoint)",
        ));
    }
    Ok(())
}

/// Reads `buf.len()` bytes of a spilled list at `offset`.
fn read_spilled(path: &Path, offset: u64, buf: &mut [u8]) -> Result<()> {
    File::open(path)
        .and_then(|f| f.read_exact_at(buf, offset))
        .map_err(|e| Error::io(path, e))
}

/// A sorted list of entries of distinct positions, compressed in blocks.
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

    /// Decodes block `k` into `out` (entries: position and mask).
    #[cfg(test)]
    fn block(&self, k: usize, out: &mut Vec<u64>) -> Result<()> {
        Blocks::new(self, k..k + 1).next(out).map(|_| ())
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

    /// The list for a checkpoint: a list in memory as words (see [`pack`](List::pack)), a
    /// spilled one as its file.
    fn section(&self) -> Section<'_> {
        match &self.data {
            Data::Memory(bytes) => Section::Lazy(Box::new(move || Ok(self.pack(bytes)))),
            Data::File { path, hash } => {
                let mut words = self.head(LINKED);
                words.push(*hash);
                Section::Linked(words, path)
            }
        }
    }

    /// What a checkpoint says of the list before its bytes: how they are kept ([`INLINE`] or
    /// [`LINKED`]), its count, blocks, offsets, counts, and its length in bytes.
    fn head(&self, kind: u64) -> Vec<u64> {
        let mut out = vec![kind, self.len, self.blocks() as u64];
        out.extend_from_slice(&self.offsets);
        out.extend(self.counts.iter().map(|&c| c as u64));
        out.push(self.bytes());
        out
    }

    /// The list held in memory as `bytes`, as words for a checkpoint: [`head`](List::head),
    /// then the bytes.
    fn pack(&self, bytes: &[u8]) -> Vec<u64> {
        let mut out = self.head(INLINE);
        out.extend(bytes.chunks(8).map(|c| {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(w)
        }));
        out
    }

    /// A list back from a checkpoint: its words, and `file`, where a spilled list's bytes
    /// are kept beside the part; such a file is checked against its length and hash and
    /// linked into the spill folder (the checkpoint's link goes with the next checkpoint).
    fn unpack(words: &[u64], file: &Path, budget: &Budget) -> Result<List> {
        let bad = || Error::Unsupported("checkpoint: a level list does not decode".into());
        let (&kind, words) = words.split_first().ok_or_else(bad)?;
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
        // A block is read at its offsets: they must rise, and the counts add up.
        let sane = offsets.first() == Some(&0)
            && offsets.windows(2).all(|w| w[0] <= w[1])
            && rest[blocks + 1..2 * blocks + 1]
                .iter()
                .all(|&c| (1..=BLOCK as u64).contains(&c))
            && counts.iter().map(|&c| c as u64).sum::<u64>() == len;
        let nbytes = rest[2 * blocks + 1];
        if !sane || offsets.last() != Some(&nbytes) {
            return Err(bad());
        }
        let tail = &rest[2 * blocks + 2..];
        match (kind, tail) {
            (LINKED, &[hash]) => {
                check_file(file, nbytes, hash)?;
                let path = budget.spill_path().ok_or_else(bad)?;
                fs::hard_link(file, &path).map_err(|e| Error::io(&path, e))?;
                Ok(List {
                    data: Data::File { path, hash },
                    offsets,
                    counts,
                    len,
                })
            }
            (INLINE, packed) if packed.len() as u64 == nbytes.div_ceil(8) => {
                let mut bytes: Vec<u8> = packed.iter().flat_map(|w| w.to_le_bytes()).collect();
                bytes.truncate(nbytes as usize);
                let mut w = Writer::new();
                w.buf = bytes;
                w.offsets = offsets;
                w.counts = counts;
                w.len = len;
                w.finish_raw(budget)
            }
            _ => Err(bad()),
        }
    }
}

/// Where a full group's gaps start, after its tag byte `tag`, and where the group ends.
struct Group {
    starts: [u8; 4],
    end: u8,
}

const GROUPS: [Group; 256] = {
    let mut t = [const {
        Group {
            starts: [0; 4],
            end: 0,
        }
    }; 256];
    let mut tag = 0;
    while tag < 256 {
        let mut at = 1;
        let mut g = 0;
        while g < 4 {
            t[tag].starts[g] = at as u8;
            at += LENS[tag >> (2 * g) & 3];
            g += 1;
        }
        t[tag].end = at as u8;
        tag += 1;
    }
    t
};

/// The mask that keeps a gap of length code `c` (see [`LENS`]) from eight bytes read.
const KEEP: [u64; 4] = [0xff, 0xffff, 0xff_ffff, u64::MAX];

/// Decodes a block of `count` entries from its bytes into `out` (entries: position and mask).
fn decode(bytes: &[u8], count: usize, out: &mut Vec<u64>) -> Result<()> {
    let wrong = || Error::internal("a compressed block decodes to the wrong count");
    // The gaps in groups, then the masks two to a byte.
    let split = bytes
        .len()
        .checked_sub(count.div_ceil(2))
        .ok_or_else(wrong)?;
    out.clear();
    out.resize(count, 0);
    let (mut i, mut n, mut last) = (0usize, 0usize, 0u64);
    // Full groups whose eight-byte reads stay inside the block: one table lookup for where
    // the four gaps start, four unaligned loads.
    while n + 4 <= count {
        let Some(&tag) = bytes[..split].get(i) else {
            return Err(wrong());
        };
        let group = &GROUPS[tag as usize];
        let end = i + group.end as usize;
        if end > split {
            return Err(wrong());
        }
        let Some(raw) = bytes.get(i..i + group.starts[3] as usize + 8) else {
            break;
        };
        for g in 0..4 {
            let at = group.starts[g] as usize;
            let word = u64::from_le_bytes(raw[at..at + 8].try_into().expect("eight bytes"));
            let gap = word & KEEP[(tag >> (2 * g) & 3) as usize];
            last = if n == 0 { gap } else { last + gap };
            out[n] = last << MASK_BITS;
            n += 1;
        }
        i = end;
    }
    while n < count {
        let tag = *bytes[..split].get(i).ok_or_else(wrong)?;
        i += 1;
        for g in 0..(count - n).min(4) {
            let len = LENS[(tag >> (2 * g) & 3) as usize];
            if i + len > split {
                return Err(wrong());
            }
            let gap = read_le(bytes, i, len);
            i += len;
            last = if n == 0 { gap } else { last + gap };
            out[n] = last << MASK_BITS;
            n += 1;
        }
    }
    if i != split {
        return Err(wrong());
    }
    for (pair, &m) in out.chunks_mut(2).zip(&bytes[split..]) {
        pair[0] |= (m & 0xf) as u64;
        if let Some(e) = pair.get_mut(1) {
            *e |= (m >> 4) as u64;
        }
    }
    Ok(())
}

/// Bytes of a spilled list read at once: whole blocks, at least one.
const CHUNK: u64 = 64 << 10;

/// Reads blocks of a list in order. A spilled list is read a chunk of whole blocks at a time
/// (one open and one read for up to [`CHUNK`] bytes, some six blocks at the 4×4's depths),
/// not an open, a read and a close for every block.
struct Blocks<'a> {
    list: &'a List,
    next: usize,
    end: usize,
    chunk: Vec<u8>,
    /// Blocks `held.start..held.end` are in `chunk` (a spilled list).
    held: std::ops::Range<usize>,
}

impl<'a> Blocks<'a> {
    fn new(list: &'a List, blocks: std::ops::Range<usize>) -> Blocks<'a> {
        Blocks {
            list,
            next: blocks.start,
            end: blocks.end.min(list.blocks()),
            chunk: Vec::new(),
            held: 0..0,
        }
    }

    /// Decodes the next block into `out`; false when there is none.
    fn next(&mut self, out: &mut Vec<u64>) -> Result<bool> {
        if self.next >= self.end {
            out.clear();
            return Ok(false);
        }
        let k = self.next;
        self.next += 1;
        let offsets = &self.list.offsets;
        let (from, to) = (offsets[k], offsets[k + 1]);
        let bytes: &[u8] = match &self.list.data {
            Data::Memory(v) => &v[from as usize..to as usize],
            Data::File { path, .. } => {
                if !self.held.contains(&k) {
                    let mut last = k + 1;
                    while last < self.end && offsets[last + 1] - from <= CHUNK {
                        last += 1;
                    }
                    self.chunk.resize((offsets[last] - from) as usize, 0);
                    read_spilled(path, from, &mut self.chunk)?;
                    self.held = k..last;
                }
                let base = offsets[self.held.start];
                &self.chunk[(from - base) as usize..(to - base) as usize]
            }
        };
        decode(bytes, self.list.counts[k] as usize, out)?;
        Ok(true)
    }
}

/// Bytes of a gap by its 2-bit length code. At the 4×4's deep levels most gaps take two
/// bytes (LEB128 took three for every gap from 2^14); a block's first position, and the long
/// gaps of the early, thin levels, take eight.
const LENS: [usize; 4] = [1, 2, 3, 8];

/// The length code of `v` (see [`LENS`]).
#[inline(always)]
fn len_code(v: u64) -> u8 {
    (v >= 1 << 8) as u8 + (v >= 1 << 16) as u8 + (v >= 1 << 24) as u8
}

/// The `len` bytes at `at`, little-endian. One unaligned load where eight bytes are there
/// (the block's masks follow its gaps, so they mostly are).
#[inline(always)]
fn read_le(bytes: &[u8], at: usize, len: usize) -> u64 {
    match bytes.get(at..at + 8) {
        Some(b) => {
            let v = u64::from_le_bytes(b.try_into().expect("eight bytes"));
            if len == 8 {
                v
            } else {
                v & ((1 << (8 * len)) - 1)
            }
        }
        None => {
            let mut b = [0u8; 8];
            b[..len].copy_from_slice(&bytes[at..at + len]);
            u64::from_le_bytes(b)
        }
    }
}

/// Builds a [`List`] from entries of increasing positions.
struct Writer {
    buf: Vec<u8>,
    offsets: Vec<u64>,
    counts: Vec<u32>,
    /// Entries of the open block (0: none is open).
    open: usize,
    /// The masks of the open block, two to a byte, written after its gaps.
    masks: Box<[u8; BLOCK / 2]>,
    /// Gaps waiting for their group of four to be written.
    group: [u64; 4],
    grouped: usize,
    last: u64,
    len: u64,
}

impl Writer {
    fn new() -> Writer {
        Writer {
            buf: Vec::new(),
            offsets: vec![0],
            counts: Vec::new(),
            open: 0,
            masks: Box::new([0; BLOCK / 2]),
            group: [0; 4],
            grouped: 0,
            last: 0,
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, entry: u64) {
        let (v, mask) = (entry >> MASK_BITS, (entry & MASK) as u8);
        let gap = if self.open == 0 || self.open == BLOCK {
            self.close_block();
            v
        } else {
            v - self.last
        };
        let i = self.open;
        let m = &mut self.masks[i / 2];
        *m = if i % 2 == 0 { mask } else { *m | mask << 4 };
        self.open += 1;
        self.last = v;
        self.len += 1;
        self.group[self.grouped] = gap;
        self.grouped += 1;
        if self.grouped == 4 {
            self.write_group();
        }
    }

    /// Writes the waiting gaps: their length codes in one byte, then each in its length.
    /// Built in a scratch array: each gap is stored as eight bytes and the next one starts
    /// where its length ends.
    #[inline]
    fn write_group(&mut self) {
        let mut out = [0u8; 1 + 4 * 8];
        let (mut tag, mut at) = (0u8, 1usize);
        for (g, &gap) in self.group[..self.grouped].iter().enumerate() {
            let code = len_code(gap);
            tag |= code << (2 * g);
            out[at..at + 8].copy_from_slice(&gap.to_le_bytes());
            at += LENS[code as usize];
        }
        out[0] = tag;
        // All of it and cut back: a copy of a constant length is inlined, not a call.
        let end = self.buf.len() + at;
        self.buf.extend_from_slice(&out);
        self.buf.truncate(end);
        self.grouped = 0;
    }

    /// Ends the open block, if any: its last group, then its masks, and its end is an offset.
    fn close_block(&mut self) {
        if self.open > 0 {
            if self.grouped > 0 {
                self.write_group();
            }
            self.buf
                .extend_from_slice(&self.masks[..self.open.div_ceil(2)]);
            self.offsets.push(self.buf.len() as u64);
            self.counts.push(self.open as u32);
            self.open = 0;
        }
    }

    /// The list, in memory when the budget allows, else in a file of the work folder.
    fn finish(mut self, budget: &Budget) -> Result<List> {
        self.close_block();
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
            w.flush().map_err(io)?;
            let hash = xxhash_rust::xxh3::xxh3_64(&self.buf);
            Data::File { path, hash }
        };
        Ok(List {
            data,
            offsets: self.offsets,
            counts: self.counts,
            len: self.len,
        })
    }
}

/// Neighbours owned by this process, gathered per thread and bucket and sorted into runs.
///
/// Each thread's buffer is cut by bucket as entries arrive, so it is sorted as [`BUCKETS`]
/// small pieces (a few MiB each, near the cache) rather than as one array, and no bucket bits
/// are sorted. A piece is sorted when it is full, alone: the neighbours of a stretch of the
/// level crowd into a few buckets (a vertical move near the bottom of the board changes the
/// index little), and sorting every piece whenever one filled made runs of a twentieth of a
/// piece, 129 of them a bucket at the 4×4's depth 29, for the merge to wade through. A buffer
/// is one allocation, kept from one sort to the next and given back to the system whole before
/// the merge.
struct Sorter<'a> {
    layout: &'a Layout,
    budget: &'a Budget,
    /// Entries one bucket's piece of a thread's buffer holds; a full piece is sorted.
    room: usize,
    buffers: Vec<Mutex<Pieces>>,
    runs: Vec<Mutex<Vec<List>>>,
}

/// A thread's buffer: bucket `b` holds `lens[b]` entries from `data[b * room]` on.
#[derive(Default)]
struct Pieces {
    data: Vec<u64>,
    lens: Vec<usize>,
}

impl<'a> Sorter<'a> {
    fn new(layout: &'a Layout, budget: &'a Budget, entries: u64) -> Sorter<'a> {
        Sorter {
            layout,
            budget,
            room: (entries / BUCKETS).max(1) as usize,
            buffers: (0..rayon::current_num_threads().max(1))
                .map(|_| Mutex::new(Pieces::default()))
                .collect(),
            runs: (0..BUCKETS).map(|_| Mutex::new(Vec::new())).collect(),
        }
    }

    fn bucket(&self, j: u64) -> usize {
        let (_, local) = self.layout.owner(j);
        (self.layout.local_stripe(local) % BUCKETS) as usize
    }

    /// Adds entries (of positions owned by this process) from the current thread.
    fn add(&self, entries: &[u64]) -> Result<()> {
        let t = rayon::current_thread_index().unwrap_or(0) % self.buffers.len();
        let mut guard = self.buffers[t].lock().expect("sorter lock");
        let Pieces { data, lens } = &mut *guard;
        let room = self.room;
        if data.is_empty() {
            *data = vec![0; BUCKETS as usize * room];
            *lens = vec![0; BUCKETS as usize];
        }
        for &e in entries {
            let b = self.bucket(e >> MASK_BITS);
            if lens[b] == room {
                self.sort(b, &mut data[b * room..(b + 1) * room])?;
                lens[b] = 0;
            }
            data[b * room + lens[b]] = e;
            lens[b] += 1;
        }
        Ok(())
    }

    /// Sorts one bucket's piece, merges the copies of each position (OR of their masks) and
    /// adds it to the bucket's runs.
    fn sort(&self, bucket: usize, v: &mut [u64]) -> Result<()> {
        if v.is_empty() {
            return Ok(());
        }
        v.sort_unstable();
        let mut w = Writer::new();
        let (n, mut i) = (v.len(), 0);
        while i < n {
            let (key, mut mask) = (v[i] >> MASK_BITS, v[i] & MASK);
            i += 1;
            while i < n && v[i] >> MASK_BITS == key {
                mask |= v[i] & MASK;
                i += 1;
            }
            w.push(key << MASK_BITS | mask);
        }
        let run = w.finish(self.budget)?;
        self.runs[bucket].lock().expect("runs lock").push(run);
        Ok(())
    }

    /// Sorts what the buffers still hold, and frees them.
    fn flush(&self) -> Result<()> {
        let mut buffers: Vec<Pieces> = self
            .buffers
            .iter()
            .map(|m| std::mem::take(&mut *m.lock().expect("sorter lock")))
            .collect();
        let room = self.room;
        let pieces: Vec<(usize, &mut [u64])> = buffers
            .iter_mut()
            .flat_map(|p| {
                let lens = &p.lens;
                p.data
                    .chunks_mut(room)
                    .zip(lens)
                    .enumerate()
                    .map(|(b, (piece, &len))| (b, &mut piece[..len]))
            })
            .collect();
        pieces
            .into_par_iter()
            .with_max_len(1)
            .try_for_each(|(b, v)| self.sort(b, v))
    }
}

/// The neighbours of one bucket of level `d` by its ordered moves ([`Bipartite::ORDERED`]),
/// in increasing order of position, made block by block as the merge reads them.
struct Near<'a, P> {
    puzzle: &'a P,
    blocks: Blocks<'a>,
    entries: Vec<u64>,
    last: u64,
}

impl<'a, P: Bipartite> Near<'a, P> {
    fn new(puzzle: &'a P, list: &'a List) -> Near<'a, P> {
        Near {
            puzzle,
            blocks: Blocks::new(list, 0..list.blocks()),
            entries: Vec::new(),
            last: 0,
        }
    }

    /// The neighbours of the next block that has any into `buf`; false when none is left.
    fn next(&mut self, buf: &mut Vec<u64>) -> Result<bool> {
        buf.clear();
        while buf.is_empty() {
            if !self.blocks.next(&mut self.entries)? {
                return Ok(false);
            }
            let others = MASK as u8 & !P::ORDERED;
            let masked = self
                .entries
                .iter()
                .map(|&e| (e >> MASK_BITS, (e & MASK) as u8 | others));
            self.puzzle
                .expand_masked(masked, |j, back| buf.push(j << MASK_BITS | back as u64));
        }
        let mut last = self.last >> MASK_BITS;
        for &e in buf.iter() {
            if e >> MASK_BITS < last {
                return Err(Error::internal(
                    "the neighbours by ordered moves come out of order",
                ));
            }
            last = e >> MASK_BITS;
        }
        self.last = *buf.last().expect("a block's neighbours");
        Ok(true)
    }
}

/// The head of a merge source that has run out: above every entry, as positions stay below
/// [`MAX_POSITIONS`] − 1.
const DONE: u64 = u64::MAX;

/// A tournament tree of losers over the heads of the merge sources: the smallest head, and the
/// next after it is replaced, in `log2(sources)` comparisons and no moves (a binary heap sifts
/// twice as far and moves its entries). Each node keeps its loser's head beside its source,
/// so a match reads one node, not a node and then a head.
struct Losers {
    /// Leaves: sources padded to a power of two.
    m: usize,
    /// Node 0: the smallest head and its source; node `k ≥ 1`: the loser of the match there
    /// (children `2k` and `2k + 1`, leaves `m..2m`).
    keys: Vec<u64>,
    from: Vec<usize>,
}

impl Losers {
    fn new(mut heads: Vec<u64>) -> Losers {
        let m = heads.len().next_power_of_two();
        heads.resize(m, DONE);
        let (mut keys, mut from) = (vec![DONE; m], vec![0; m]);
        let mut winner = vec![0; 2 * m];
        for (i, w) in winner[m..].iter_mut().enumerate() {
            *w = i;
        }
        for node in (1..m).rev() {
            let (a, b) = (winner[2 * node], winner[2 * node + 1]);
            let (w, l) = if heads[b] < heads[a] { (b, a) } else { (a, b) };
            winner[node] = w;
            (keys[node], from[node]) = (heads[l], l);
        }
        let w = winner[1];
        (keys[0], from[0]) = (heads[w], w);
        Losers { m, keys, from }
    }

    /// The smallest head and its source.
    #[inline]
    fn top(&self) -> (u64, usize) {
        (self.keys[0], self.from[0])
    }

    /// Replaces the smallest head by its source's next one and replays its matches. Without
    /// branches: which side wins is as likely as not, and a mispredicted branch cost more than
    /// the selects.
    #[inline]
    fn replace(&mut self, head: u64) {
        let (mut key, mut src) = (head, self.from[0]);
        let mut node = (src + self.m) / 2;
        while node >= 1 {
            let (k, f) = (self.keys[node], self.from[node]);
            let swap = k < key;
            self.keys[node] = if swap { key } else { k };
            self.from[node] = if swap { src } else { f };
            key = if swap { k } else { key };
            src = if swap { f } else { src };
            node /= 2;
        }
        (self.keys[0], self.from[0]) = (key, src);
    }
}

/// Merges the runs of one bucket, and the neighbours of the bucket's level-`d` list `cur` by
/// ordered moves, into the next level: each position once, with the OR of its masks.
fn merge<P: Bipartite>(puzzle: &P, runs: Vec<List>, cur: List, budget: &Budget) -> Result<List> {
    let mut blocks: Vec<Blocks> = runs.iter().map(|r| Blocks::new(r, 0..r.blocks())).collect();
    let mut near = Near::new(puzzle, &cur);
    // Each source's decoded block and the place of its head; the ordered neighbours are the
    // last source.
    let sources = runs.len() + 1;
    let mut bufs: Vec<Vec<u64>> = vec![Vec::new(); sources];
    let mut at = vec![0usize; sources];
    let mut fill = |k: usize, buf: &mut Vec<u64>| -> Result<u64> {
        let more = match blocks.get_mut(k) {
            Some(b) => b.next(buf)?,
            None => near.next(buf)?,
        };
        Ok(if more { buf[0] } else { DONE })
    };
    let mut heads = Vec::with_capacity(sources);
    for (k, buf) in bufs.iter_mut().enumerate() {
        heads.push(fill(k, buf)?);
    }
    let mut losers = Losers::new(heads);
    let mut out = Writer::new();
    // The entry being gathered: its position's copies arrive one after the other.
    let mut pending = losers.top().0;
    loop {
        let (e, k) = losers.top();
        if e == DONE {
            break;
        }
        at[k] += 1;
        let next = match bufs[k].get(at[k]) {
            Some(&next) => next,
            None => {
                at[k] = 0;
                fill(k, &mut bufs[k])?
            }
        };
        losers.replace(next);
        if e >> MASK_BITS == pending >> MASK_BITS {
            pending |= e;
        } else {
            out.push(pending);
            pending = e;
        }
    }
    if pending != DONE {
        out.push(pending);
    }
    drop(blocks);
    drop(near);
    for r in runs {
        r.release(budget);
    }
    cur.release(budget);
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
    let goals = super::goals(puzzle, layout)?;
    let (mut cur, mut counts, mut depth, resumed_at) =
        match (config.resume, config.work_dir.as_deref()) {
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
                (cur, saved.counts, saved.depth, Some(saved.depth))
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
                (cur, vec![goals.len() as u64], 0u32, None)
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
        let (next, traffic) = level(puzzle, x, layout, config, &budget, cur)?;
        cur = next;
        let mine: u64 = cur.iter().map(|l| l.len).sum();
        let found = x.sum(&[mine])?[0];
        if found == 0 {
            complete = true;
            break;
        }
        depth += 1;
        counts.push(found);
        let lists: u64 = cur.iter().map(|l| l.in_memory()).sum();
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
                let sections: Vec<Section> = cur.iter().map(List::section).collect();
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
    for l in cur {
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

/// Removes what a run spilled (its folder under the work folder).
pub fn remove_spill(dir: &Path) {
    let _ = fs::remove_dir_all(dir.join("spill"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_of_losers_merges_in_order() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for sources in [1usize, 2, 3, 5, 8, 13, 33] {
            let lists: Vec<Vec<u64>> = (0..sources)
                .map(|s| {
                    let mut v: Vec<u64> = (0..(s * 37) % 50)
                        .map(|_| {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            x % 200
                        })
                        .collect();
                    v.sort_unstable();
                    v
                })
                .collect();
            let mut at = vec![0usize; sources];
            let heads = lists.iter().map(|l| l.first().copied().unwrap_or(DONE));
            let mut losers = Losers::new(heads.collect());
            let mut got = Vec::new();
            loop {
                let (e, k) = losers.top();
                if e == DONE {
                    break;
                }
                got.push(e);
                at[k] += 1;
                losers.replace(lists[k].get(at[k]).copied().unwrap_or(DONE));
            }
            let mut want: Vec<u64> = lists.concat();
            want.sort_unstable();
            assert_eq!(got, want, "{sources} sources");
        }
    }

    #[test]
    fn gaps_of_every_length_round_trip() {
        // Gaps of one, two, three and eight bytes, blocks of every length mod 4 (a last group
        // of one to four gaps), positions up to 2^60, and every mask.
        let budget = Budget {
            left: AtomicU64::new(u64::MAX),
            dir: None,
            serial: AtomicU64::new(0),
        };
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for len in [1usize, 2, 3, 4, 5, 4095, 4096, 4097, 3 * BLOCK + 2] {
            let mut v = 0u64;
            let entries: Vec<u64> = (0..len)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let bits = [1, 7, 8, 15, 16, 23, 24, 40][i % 8];
                    v += 1 + (x >> 20) % (1 << bits);
                    v << MASK_BITS | (x & MASK)
                })
                .collect();
            let mut w = Writer::new();
            for &e in &entries {
                w.push(e);
            }
            let list = w.finish(&budget).unwrap();
            assert_eq!(list.len, len as u64);
            let mut back = Vec::new();
            let mut block = Vec::new();
            for k in 0..list.blocks() {
                list.block(k, &mut block).unwrap();
                back.extend_from_slice(&block);
            }
            assert_eq!(back, entries, "{len}");
            let Data::Memory(bytes) = &list.data else {
                unreachable!("an unlimited budget keeps lists in memory")
            };
            let packed = list.pack(bytes);
            let again = List::unpack(&packed, Path::new("unused"), &budget).unwrap();
            assert_eq!(again.bytes(), list.bytes());
        }
        let mut w = Writer::new();
        w.push((1u64 << 59) << MASK_BITS | 5);
        w.push(((1u64 << 59) + (1 << 58)) << MASK_BITS | 9);
        let list = w.finish(&budget).unwrap();
        let mut block = Vec::new();
        list.block(0, &mut block).unwrap();
        assert_eq!(
            block,
            [
                (1u64 << 59) << MASK_BITS | 5,
                ((1u64 << 59) + (1 << 58)) << MASK_BITS | 9
            ]
        );
        // A block cut short decodes to an error, not to wrong entries.
        let mut bytes = match &list.data {
            Data::Memory(v) => v.clone(),
            Data::File { .. } => unreachable!(),
        };
        bytes.remove(3);
        let cut = List {
            offsets: vec![0, bytes.len() as u64],
            data: Data::Memory(bytes),
            counts: list.counts.clone(),
            len: list.len,
        };
        assert!(cut.block(0, &mut block).is_err());
    }

    #[test]
    fn a_list_spilled_to_a_file_reads_back() {
        let dir = std::env::temp_dir().join(format!("gamedb-spill-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        // No memory left: the list goes to a file.
        let budget = Budget {
            left: AtomicU64::new(0),
            dir: Some(dir.clone()),
            serial: AtomicU64::new(0),
        };
        let values: Vec<u64> = (0..3 * BLOCK as u64 + 5).map(|i| i * 7 + (i % 3)).collect();
        let mut w = Writer::new();
        for &v in &values {
            w.push(v);
        }
        let list = w.finish(&budget).unwrap();
        assert!(matches!(list.data, Data::File { .. }));
        let mut back = Vec::new();
        let mut block = Vec::new();
        for k in 0..list.blocks() {
            list.block(k, &mut block).unwrap();
            back.extend_from_slice(&block);
        }
        assert_eq!(back, values);
        list.release(&budget);
        // A deep level spills thousands of runs at once: they hold no open file each.
        let open = || fs::read_dir("/proc/self/fd").unwrap().count();
        let before = open();
        let lists: Vec<List> = (0..500)
            .map(|i| {
                let mut w = Writer::new();
                w.push(i);
                w.finish(&budget).unwrap()
            })
            .collect();
        assert!(
            open() < before + 250,
            "{} files open for 500 spilled lists",
            open() - before
        );
        for l in lists {
            l.release(&budget);
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    fn refusal(r: Result<List>) -> String {
        match r {
            Ok(_) => panic!("a damaged list was accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_checkpoint_links_spilled_lists_and_refuses_a_damaged_one() {
        let root = std::env::temp_dir().join(format!("gamedb-link-{}", std::process::id()));
        let (spill, ckpt) = (root.join("spill"), root.join("ckpt"));
        fs::create_dir_all(&spill).unwrap();
        // Each budget names its files apart, as a resumed run's fresh spill folder does.
        let serial = AtomicU64::new(0);
        let budget = |left| Budget {
            left: AtomicU64::new(left),
            dir: Some(spill.clone()),
            serial: AtomicU64::new(serial.fetch_add(1000, Relaxed)),
        };
        let id = checkpoint::Identity {
            key: 7,
            name: "test".into(),
            stripe: 0,
        };
        let x = super::super::Single;
        // One list spilled (no memory left), one in memory.
        let make = |b: &Budget, n: u64| {
            let mut w = Writer::new();
            for i in 0..n {
                w.push((i * 13 + i % 5) << MASK_BITS | (i & MASK));
            }
            w.finish(b).unwrap()
        };
        let entries = |l: &List| {
            let (mut all, mut block) = (Vec::new(), Vec::new());
            for k in 0..l.blocks() {
                l.block(k, &mut block).unwrap();
                all.extend_from_slice(&block);
            }
            all
        };
        let spilled = make(&budget(0), 3 * BLOCK as u64 + 7);
        let kept = make(&budget(u64::MAX), 100);
        assert!(matches!(spilled.data, Data::File { .. }));
        let save = |depth| {
            let sections = vec![spilled.section(), kept.section()];
            checkpoint::save(&ckpt, &id, Store::Sparse, &x, depth, &[1], &sections).unwrap();
        };
        save(3);
        save(4);
        // The part of depth 4 and its one file; depth 3's are gone.
        let mut names: Vec<String> = fs::read_dir(&ckpt)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "MANIFEST",
                "part-0-of-1.level-4",
                "part-0-of-1.level-4.file-0"
            ]
        );
        let saved = checkpoint::load(&ckpt, &id, Store::Sparse, &x).unwrap();
        let b = budget(u64::MAX);
        let back: Vec<List> = saved
            .sections
            .iter()
            .enumerate()
            .map(|(k, w)| List::unpack(w, &saved.file(k), &b).unwrap())
            .collect();
        assert!(matches!(back[0].data, Data::File { .. }));
        assert_eq!(entries(&back[0]), entries(&spilled));
        assert_eq!(entries(&back[1]), entries(&kept));
        // The store's link outlives the checkpoint's, and the spill's original.
        for l in back {
            l.release(&b);
        }
        // A damaged file (one byte changed, then one byte short) is refused, naming it.
        let file = saved.file(0);
        let mut bytes = fs::read(&file).unwrap();
        bytes[100] ^= 1;
        fs::write(&file, &bytes).unwrap();
        let err = refusal(List::unpack(&saved.sections[0], &file, &b));
        assert!(err.contains("checksum") && err.contains("file-0"), "{err}");
        bytes.pop();
        fs::write(&file, &bytes).unwrap();
        let err = refusal(List::unpack(&saved.sections[0], &file, &b));
        assert!(err.contains("bytes, the checkpoint names"), "{err}");
        spilled.release(&b);
        fs::remove_dir_all(&root).unwrap();
    }
}
