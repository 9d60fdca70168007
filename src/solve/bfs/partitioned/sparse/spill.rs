//! Where the sparse store's lists live: in memory up to a [`Budget`], in files of the work
//! folder beyond it (spilled); how a checkpoint keeps them (inline, or as a linked file checked
//! by its hash on resuming); and [`Blocks`], which reads a list's blocks back in order.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::solve::bfs::partitioned::checkpoint::Section;
use crate::solve::bfs::partitioned::sparse::codec::{decode, Encoded};
use crate::solve::bfs::partitioned::sparse::BLOCK;
use crate::{Error, Result};

/// Memory left for lists; beyond it they go to files.
pub(super) struct Budget {
    pub(super) left: AtomicU64,
    pub(super) dir: Option<PathBuf>,
    pub(super) serial: AtomicU64,
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

pub(super) enum Data {
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
pub(super) struct List {
    pub(super) data: Data,
    /// Byte offset of each block, and the end.
    pub(super) offsets: Vec<u64>,
    /// Entries of each block.
    pub(super) counts: Vec<u32>,
    pub(super) len: u64,
}

impl List {
    pub(super) fn empty() -> List {
        List {
            data: Data::Memory(Vec::new()),
            offsets: vec![0],
            counts: Vec::new(),
            len: 0,
        }
    }

    /// The list `encoded`: in memory when the budget allows, else in a file of the work
    /// folder.
    pub(super) fn keep(encoded: Encoded, budget: &Budget) -> Result<List> {
        let Encoded {
            bytes: buf,
            offsets,
            counts,
            len,
        } = encoded;
        let n = buf.len() as u64;
        let data = if budget.take(n) {
            let mut buf = buf;
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
            w.write_all(&buf).map_err(io)?;
            w.flush().map_err(io)?;
            let hash = xxhash_rust::xxh3::xxh3_64(&buf);
            Data::File { path, hash }
        };
        Ok(List {
            data,
            offsets,
            counts,
            len,
        })
    }

    pub(super) fn blocks(&self) -> usize {
        self.counts.len()
    }

    /// Decodes block `k` into `out` (entries: position and mask).
    #[cfg(test)]
    pub(super) fn block(&self, k: usize, out: &mut Vec<u64>) -> Result<()> {
        Blocks::new(self, k..k + 1).next(out).map(|_| ())
    }

    pub(super) fn bytes(&self) -> u64 {
        *self.offsets.last().expect("offsets end")
    }

    pub(super) fn in_memory(&self) -> u64 {
        match &self.data {
            Data::Memory(v) => v.len() as u64,
            Data::File { .. } => 0,
        }
    }

    /// Gives back its memory to the budget, or removes its file.
    pub(super) fn release(self, budget: &Budget) {
        match self.data {
            Data::Memory(v) => budget.give(v.len() as u64),
            Data::File { path, .. } => {
                let _ = fs::remove_file(path);
            }
        }
    }

    /// The list for a checkpoint: a list in memory as words (see [`pack`](List::pack)), a
    /// spilled one as its file.
    pub(super) fn section(&self) -> Section<'_> {
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
    pub(super) fn pack(&self, bytes: &[u8]) -> Vec<u64> {
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
    pub(super) fn unpack(words: &[u64], file: &Path, budget: &Budget) -> Result<List> {
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
                let encoded = Encoded {
                    bytes,
                    offsets,
                    counts,
                    len,
                };
                List::keep(encoded, budget)
            }
            _ => Err(bad()),
        }
    }
}

/// Bytes of a spilled list read at once: whole blocks, at least one.
const CHUNK: u64 = 64 << 10;

/// Reads blocks of a list in order. A spilled list is read a chunk of whole blocks at a time
/// (one open and one read for up to [`CHUNK`] bytes, some six blocks at the 4×4's depths),
/// not an open, a read and a close for every block.
pub(super) struct Blocks<'a> {
    list: &'a List,
    next: usize,
    end: usize,
    chunk: Vec<u8>,
    /// Blocks `held.start..held.end` are in `chunk` (a spilled list).
    held: std::ops::Range<usize>,
}

impl<'a> Blocks<'a> {
    pub(super) fn new(list: &'a List, blocks: std::ops::Range<usize>) -> Blocks<'a> {
        Blocks {
            list,
            next: blocks.start,
            end: blocks.end.min(list.blocks()),
            chunk: Vec::new(),
            held: 0..0,
        }
    }

    /// Decodes the next block into `out`; false when there is none.
    pub(super) fn next(&mut self, out: &mut Vec<u64>) -> Result<bool> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::bfs::partitioned::sparse::codec::Writer;
    use crate::solve::bfs::partitioned::sparse::{MASK, MASK_BITS};
    use crate::solve::bfs::partitioned::{checkpoint, Store};
    use crate::solve::exchange::Single;

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
        let list = List::keep(w.finish(), &budget).unwrap();
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
                List::keep(w.finish(), &budget).unwrap()
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

    #[test]
    fn a_list_kept_in_memory_reads_back_and_packs_for_a_checkpoint() {
        let budget = Budget {
            left: AtomicU64::new(u64::MAX),
            dir: None,
            serial: AtomicU64::new(0),
        };
        for len in [1u64, 5, 4097, 3 * BLOCK as u64 + 2] {
            let values: Vec<u64> = (0..len)
                .map(|i| (i * 7 + (i % 3)) << MASK_BITS | (i & MASK))
                .collect();
            let mut w = Writer::new();
            for &v in &values {
                w.push(v);
            }
            let list = List::keep(w.finish(), &budget).unwrap();
            assert_eq!(list.len, len);
            let mut back = Vec::new();
            let mut block = Vec::new();
            for k in 0..list.blocks() {
                list.block(k, &mut block).unwrap();
                back.extend_from_slice(&block);
            }
            assert_eq!(back, values, "{len}");
            let Data::Memory(bytes) = &list.data else {
                unreachable!("an unlimited budget keeps lists in memory")
            };
            let packed = list.pack(bytes);
            let again = List::unpack(&packed, Path::new("unused"), &budget).unwrap();
            assert_eq!(again.bytes(), list.bytes());
        }
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
        let x = Single;
        // One list spilled (no memory left), one in memory.
        let make = |b: &Budget, n: u64| {
            let mut w = Writer::new();
            for i in 0..n {
                w.push((i * 13 + i % 5) << MASK_BITS | (i & MASK));
            }
            List::keep(w.finish(), b).unwrap()
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
