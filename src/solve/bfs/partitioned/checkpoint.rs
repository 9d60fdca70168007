//! Checkpoints of finished levels, so that a run killed at any moment (MPI ends the whole job
//! when one process dies) continues from the last complete one.
//!
//! A checkpoint lives in a folder and has one **part** per process,
//! `part-<rank>-of-<procs>.level-<depth>`, and a **manifest** naming the depth of the last
//! complete checkpoint. A part is written to a temporary name, synced and renamed; only when
//! every process has renamed its part does process 0 replace the manifest (again by rename);
//! only then are the parts of the previous checkpoint removed. A kill at any moment leaves the
//! manifest naming parts that are all complete.
//!
//! A part, all integers `u64` little-endian unless said:
//!
//! ```text
//! magic "GDBCKPT\n" (8 bytes), version u32, store u32 (1 dense, 2 sparse),
//! key u64 (the table's identity, see `Identity`), stripe (positions a stripe, 0 for the
//! board's own; the hidden `--stripe` test hook deals positions otherwise), 7 words 0, procs,
//! rank, depth (the next level to expand),
//! counts: n, then n counts (positions at depths 0..n),
//! sections: m, then for each its length (in u64 words) and its words,
//! xxh3-64 of every byte before it
//! ```
//!
//! A section may have a file beside the part, `<part>.file-<k>` for section `k`: a hard link
//! to a file the store had on disk already and never changes (a level list the sparse store
//! spilled), instead of a copy of its bytes in the part. The section's words say how to check
//! it (the sparse store keeps its length and xxh3-64).
//!
//! A checkpoint of another game, board, version, store or number of processes is refused with
//! a message naming what differs; a damaged part (checksum, length) is refused as damaged.

use std::fs::{self, File};
use std::io::Write;
use std::path::Path;

use crate::solve::bfs::partitioned::Store;
use crate::solve::exchange::Exchange;
use crate::solve::saves::{sync_dir, Hashed, Reader};
use crate::{Error, Result};

/// The layout version of the checkpoints of a store that this build writes and reads. Dense,
/// version 3: the table and the expanded bitmap. Sparse, version 5: one list per bucket of the
/// last level, each entry with its mask of moves back, the positions' gaps in groups of four
/// with a length byte, a list in memory copied into the part and a spilled one linked beside
/// it (version 4 copied every list; version 3: the same lists as LEB128 varints; version 2
/// held two levels without masks). Each store has its own number, so a change to one does
/// not refuse the other's checkpoints.
pub(crate) fn version(store: Store) -> u32 {
    match store {
        Store::Dense => 3,
        Store::Sparse => 5,
    }
}

const MAGIC: &[u8; 8] = b"GDBCKPT\n";
const MANIFEST: &str = "MANIFEST";

/// What a checkpoint belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The table the run makes, as one number: xxh3-64 of its game name, rules version and
    /// parameter text as the header will store them (`format::identity_key`; the engine
    /// only compares it).
    pub key: u64,
    /// For people: `slide 2x7`.
    pub name: String,
    /// Positions a stripe when the run chose its own (a test hook: stripes deal the positions
    /// to the processes, so a part of one stripe length means nothing under another); 0 for
    /// the board's own length.
    pub stripe: u64,
}

/// One array of a checkpoint: words at hand, or made when written (a list the sparse store
/// keeps on disk is read only then, one at a time).
pub(crate) enum Section<'a> {
    /// Words in memory.
    Words(&'a [u64]),
    /// Words made on demand.
    Lazy(Box<dyn Fn() -> Result<Vec<u64>> + 'a>),
    /// Words, and a file kept beside the part by a hard link rather than copied into it: a
    /// list the sparse store spilled is on disk already and never changes, and at the 4×4's
    /// depth 36 a copy would be another 24 GB.
    Linked(Vec<u64>, &'a Path),
}

/// A checkpoint read back.
pub(crate) struct Saved {
    /// The next level to expand.
    pub depth: u32,
    /// Positions at depths `0..=depth`.
    pub counts: Vec<u64>,
    /// The store's arrays, in the order they were saved.
    pub sections: Vec<Vec<u64>>,
    /// The part read, whose name the sections' files extend.
    pub part: std::path::PathBuf,
}

impl Saved {
    /// The file of section `k` beside the part (see [`Section::Linked`]).
    pub(crate) fn file(&self, k: usize) -> std::path::PathBuf {
        linked(&self.part, k)
    }
}

fn linked(part: &Path, k: usize) -> std::path::PathBuf {
    let mut name = part.as_os_str().to_owned();
    name.push(format!(".file-{k}"));
    name.into()
}

fn store_code(s: Store) -> u32 {
    match s {
        Store::Dense => 1,
        Store::Sparse => 2,
    }
}

fn part_name(rank: usize, procs: usize, depth: u32) -> String {
    format!("part-{rank}-of-{procs}.level-{depth}")
}

/// Writes this process's part of a checkpoint at `depth` (the next level to expand) and, once
/// every process has, the manifest; then removes older parts. Collective: every process calls
/// it with its own sections.
#[allow(clippy::too_many_arguments)]
pub(crate) fn save<X: Exchange + ?Sized>(
    dir: &Path,
    id: &Identity,
    store: Store,
    x: &X,
    depth: u32,
    counts: &[u64],
    sections: &[Section],
) -> Result<()> {
    let (rank, procs) = (x.rank(), x.size());
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let name = part_name(rank, procs, depth);
    let path = dir.join(&name);
    let tmp = dir.join(format!(".{name}.tmp"));
    for (k, s) in sections.iter().enumerate() {
        if let Section::Linked(_, file) = s {
            // Durable before the manifest can name the part (the store wrote it unsynced).
            let to = linked(&path, k);
            let _ = fs::remove_file(&to);
            fs::hard_link(file, &to)
                .and_then(|_| File::open(&to)?.sync_all())
                .map_err(|e| Error::io(&to, e))?;
        }
    }
    write_part(&tmp, id, store, rank, procs, depth, counts, sections)?;
    fs::rename(&tmp, &path).map_err(|e| Error::io(&path, e))?;
    sync_dir(dir);
    x.barrier()?;
    if rank == 0 {
        let text = format!(
            "gamedb enumerate checkpoint\nversion {}\nboard {}\nprocesses {procs}\nstore {}\ndepth {depth}\n",
            version(store),
            id.name,
            store.name()
        );
        let tmp = dir.join(".MANIFEST.tmp");
        let mut f = File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
        f.write_all(text.as_bytes())
            .and_then(|_| f.sync_all())
            .map_err(|e| Error::io(&tmp, e))?;
        let manifest = dir.join(MANIFEST);
        fs::rename(&tmp, &manifest).map_err(|e| Error::io(&manifest, e))?;
        sync_dir(dir);
    }
    x.barrier()?;
    // The manifest names the new parts: this process's older parts (and their files) are
    // garbage now.
    let mine = format!("part-{rank}-of-{procs}.level-");
    let files = format!("{name}.file-");
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if n.starts_with(&mine) && n != name && !n.starts_with(&files) {
                let _ = fs::remove_file(e.path());
            }
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn write_part(
    path: &Path,
    id: &Identity,
    store: Store,
    rank: usize,
    procs: usize,
    depth: u32,
    counts: &[u64],
    sections: &[Section],
) -> Result<()> {
    let io = |e| Error::io(path, e);
    let mut w = Hashed::create(path)?;
    w.put(MAGIC).map_err(io)?;
    w.put(&version(store).to_le_bytes()).map_err(io)?;
    w.put(&store_code(store).to_le_bytes()).map_err(io)?;
    let mut head = vec![id.key, id.stripe];
    head.extend_from_slice(&[0; 7]);
    head.extend([procs as u64, rank as u64, depth as u64, counts.len() as u64]);
    head.extend_from_slice(counts);
    head.push(sections.len() as u64);
    w.words(&head).map_err(io)?;
    for s in sections {
        let made;
        let words = match s {
            Section::Words(w) => *w,
            Section::Lazy(f) => {
                made = f()?;
                &made[..]
            }
            Section::Linked(w, _) => &w[..],
        };
        w.words(&[words.len() as u64]).map_err(io)?;
        w.words(words).map_err(io)?;
    }
    w.finish(path)
}

/// Whether `dir` holds a checkpoint (a manifest).
pub(crate) fn exists(dir: &Path) -> bool {
    dir.join(MANIFEST).is_file()
}

/// Reads this process's part of the checkpoint in `dir`, refusing one of another identity,
/// version, store or number of processes, and a damaged one.
pub(crate) fn load<X: Exchange + ?Sized>(
    dir: &Path,
    id: &Identity,
    store: Store,
    x: &X,
) -> Result<Saved> {
    let manifest = dir.join(MANIFEST);
    let text = fs::read_to_string(&manifest).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Error::bad(format!(
                "--resume: no checkpoint in {} (no {MANIFEST} file); run without --resume to \
                 start afresh",
                dir.display()
            ))
        } else {
            Error::io(&manifest, e)
        }
    })?;
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
            .map(str::to_string)
    };
    let refuse = |what: String| {
        Error::bad(format!(
            "{}: {what}; this checkpoint cannot be resumed by this run (remove the folder, or \
             point --out elsewhere, to start afresh)",
            dir.display()
        ))
    };
    if field("board").as_deref() != Some(id.name.as_str()) {
        return Err(refuse(format!(
            "a checkpoint of {}, not of {} (this run)",
            field("board").unwrap_or_else(|| "an unnamed board".into()),
            id.name
        )));
    }
    let procs: Option<usize> = field("processes").and_then(|p| p.parse().ok());
    if procs != Some(x.size()) {
        return Err(refuse(format!(
            "written by {} processes, this run has {}; resume with the same number \
             (mpirun -np {})",
            procs.map_or("an unknown number of".into(), |p| p.to_string()),
            x.size(),
            procs.unwrap_or(1)
        )));
    }
    if field("store").as_deref() != Some(store.name()) {
        return Err(refuse(format!(
            "a checkpoint of the {} store, this run uses the {} store (another --memory or \
             --table than the run that wrote it)",
            field("store").unwrap_or_else(|| "unknown".into()),
            store.name()
        )));
    }
    let want = version(store);
    if field("version").as_deref() != Some(&want.to_string()) {
        return Err(refuse(format!(
            "checkpoint format version {} of the {} store (this gamedb reads version {want})",
            field("version").unwrap_or_else(|| "missing".into()),
            store.name()
        )));
    }
    let depth: u32 = field("depth")
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| Error::corrupt(&manifest, "no depth"))?;
    let path = dir.join(part_name(x.rank(), x.size(), depth));
    read_part(&path, id, store, x.rank(), x.size(), depth)
}

fn read_part(
    path: &Path,
    id: &Identity,
    store: Store,
    rank: usize,
    procs: usize,
    depth: u32,
) -> Result<Saved> {
    let mut r = Reader::open(path)?;
    let mut magic = [0u8; 8];
    r.take(&mut magic)?;
    if &magic != MAGIC {
        return Err(Error::corrupt(path, "not a gamedb checkpoint part"));
    }
    let mut b4 = [0u8; 4];
    r.take(&mut b4)?;
    if u32::from_le_bytes(b4) != version(store) {
        return Err(Error::corrupt(path, "checkpoint version differs"));
    }
    r.take(&mut b4)?;
    if u32::from_le_bytes(b4) != store_code(store) {
        return Err(Error::corrupt(path, "store differs from the manifest's"));
    }
    let head = r.words(13)?;
    if head[1] != id.stripe {
        let says = |s: u64| match s {
            0 => "the board's own stripes".to_string(),
            s => format!("stripes of {s} positions"),
        };
        return Err(Error::bad(format!(
            "{}: written with {}, this run uses {}; resume with the same --stripe",
            path.display(),
            says(head[1]),
            says(id.stripe)
        )));
    }
    let want: Vec<u64> = [id.key, id.stripe]
        .into_iter()
        .chain([0; 7])
        .chain([procs as u64, rank as u64, depth as u64])
        .collect();
    if head[..12] != want[..] {
        return Err(Error::corrupt(
            path,
            "its game, board, process count, rank or depth differs from the manifest's",
        ));
    }
    let n = head[12];
    if n > 1 << 20 {
        return Err(Error::corrupt(path, "implausible number of counts"));
    }
    let counts = r.words(n as usize)?;
    let m = r.words(1)?[0];
    if m > 1 << 12 {
        return Err(Error::corrupt(path, "implausible number of sections"));
    }
    let mut sections = Vec::with_capacity(m as usize);
    for _ in 0..m {
        let l = r.words(1)?[0];
        if l.saturating_mul(8) > r.left {
            return Err(Error::corrupt(
                path,
                "truncated (a section longer than the file)",
            ));
        }
        sections.push(r.words(l as usize)?);
    }
    if r.left != 0 {
        return Err(Error::corrupt(path, "extended (bytes after the sections)"));
    }
    if !r.checksum_matches()? {
        return Err(Error::corrupt(
            path,
            "checksum mismatch (damaged checkpoint)",
        ));
    }
    Ok(Saved {
        depth,
        counts,
        sections,
        part: path.to_path_buf(),
    })
}

/// Removes a finished run's checkpoint folder (every process its own parts; process 0 the
/// manifest and the folder).
pub(crate) fn remove<X: Exchange + ?Sized>(dir: &Path, x: &X) -> Result<()> {
    x.barrier()?;
    let mine = format!("part-{}-of-{}.", x.rank(), x.size());
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with(&mine) {
                let _ = fs::remove_file(e.path());
            }
        }
    }
    x.barrier()?;
    if x.rank() == 0 {
        let _ = fs::remove_file(dir.join(MANIFEST));
        let _ = fs::remove_dir_all(dir);
    }
    Ok(())
}
