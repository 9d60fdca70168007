//! Checkpoints of long builds: the solver's table after a finished wave, in one file beside the
//! table (`<table file>.checkpoint`, e.g. `chomp-10x42.gtab.checkpoint`), so that a build
//! killed at any moment resumes (`gamedb build ... --resume`) from the last one written.
//!
//! A game saves through [`crate::solve::Saves`] (today the run and triangle solvers of Chomp's
//! P/N tables); [`Checkpoint`] is the build's implementation: after a finished wave it writes
//! when `every` seconds have passed since the solve started or since the last write (never
//! after the last wave: the table itself comes next). A checkpoint is written to a hidden
//! temporary (`.<checkpoint>.tmp-PID`), synced and renamed over the previous one, so a kill
//! leaves the previous checkpoint or the new one, never part of one; the build removes it once
//! the table is written.
//!
//! The file, all integers little-endian:
//!
//! ```text
//! magic "GDBWAVE\n" (8 bytes), version u32, value kind u32 (as in table headers),
//! key u64 (xxh3-64 of the table's game name, rules version and parameter text, as
//!   `format::identity_key` makes it), 8 words 0, positions u64,
//! next wave u64, waves u64, positions solved u64,
//! name length u64, name (UTF-8, zero-padded to a multiple of 8 bytes): the solve, e.g.
//!   `triangles over the 10x42 box` (the engine and the box it solves),
//! words u64, then the words (bit i of the solved box's table is bit i % 64 of word i / 64;
//!   for a solve that extends a sequence of bytes, the octal games', the bytes solved so far,
//!   zero-padded to whole words, their number in the first of the 8 reserved words),
//! xxh3-64 of every byte before it
//! ```
//!
//! `--resume` refuses, with a line naming the file and the problem (exit 2), a checkpoint of
//! another table, value kind, solve or format version, and a damaged one (length, checksum).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use crate::games::Spec;
use crate::model::ValueKind;
use crate::progress::Progress;
use crate::resources::bytes;
use crate::solve::saves::{sync_dir, Hashed, Reader};
use crate::solve::{Saves, Wave, WordBits};
use crate::{Error, Result};

/// The layout version of checkpoints this build writes and reads.
pub(crate) const VERSION: u32 = 2;

const MAGIC: &[u8; 8] = b"GDBWAVE\n";

/// Bytes before the name: magic, version, kind, game, params, positions, three wave fields,
/// name length.
const HEAD: u64 = 8 + 4 + 4 + 8 * (1 + 8 + 1 + 3 + 1);

/// The identity of the table of `spec` in a checkpoint.
fn key_of(spec: &Spec) -> u64 {
    crate::format::identity_key(spec.name(), spec.rules_version(), spec.parameters())
}

/// Longest solve name read back.
const MAX_NAME: u64 = 4096;

/// What a build does with checkpoints (`gamedb build`; `build-all` and library builds use
/// none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checkpoints {
    /// Seconds between checkpoints (0: after every wave); `None`: write none.
    pub every: Option<u64>,
    /// Continue from the table's checkpoint.
    pub resume: bool,
}

/// The checkpoint file of table `name` in `dir`.
pub(crate) fn path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.checkpoint"))
}

/// Room in [`Checkpoint::disk`] for the solve's name (a few dozen bytes in practice).
const NAME_ROOM: u64 = 64;

/// What the checkpoints of a build did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Report {
    /// Where the solve resumed, when it did.
    pub resumed: Option<Wave>,
    /// Checkpoints written.
    pub written: u32,
    /// Seconds spent writing them.
    pub seconds: f64,
    /// Bytes of the last one written.
    pub bytes: u64,
}

/// The checkpoints of one table's build: implements [`Saves`] for its solve.
pub(crate) struct Checkpoint<'a> {
    path: PathBuf,
    spec: &'a Spec,
    kind: ValueKind,
    options: Checkpoints,
    progress: &'a dyn Progress,
    state: Mutex<Saving>,
}

struct Saving {
    last: Instant,
    report: Report,
}

/// A checkpoint's fields before its words.
struct Head {
    wave: Wave,
    name: String,
    words: u64,
    /// Bytes held, for a save of bytes; 0 for a bit table.
    bytes: u64,
}

/// What a checkpoint holds.
enum Data<'b> {
    Bits(&'b WordBits),
    /// The bytes, in parts to be written one after the other.
    Bytes(&'b [&'b [u8]]),
}

impl<'a> Checkpoint<'a> {
    /// The checkpoints of the table of `spec` with `kind` values in `dir`.
    pub(crate) fn new(
        dir: &Path,
        spec: &'a Spec,
        kind: ValueKind,
        options: Checkpoints,
        progress: &'a dyn Progress,
    ) -> Checkpoint<'a> {
        Checkpoint {
            path: path(dir, &spec.file_name(kind)),
            spec,
            kind,
            options,
            progress,
            state: Mutex::new(Saving {
                last: Instant::now(),
                report: Report::default(),
            }),
        }
    }

    /// What the checkpoints did so far.
    pub(crate) fn report(&self) -> Report {
        self.state.lock().map(|s| s.report).unwrap_or_default()
    }

    /// Disk the checkpoints need beside a table file of `file` bytes, at their peak: a new
    /// checkpoint is written beside the last one, and the last one stays while the table is
    /// written; one already there (resumed) counts as written. 0 when the game saves nothing
    /// or no checkpoints are written.
    pub(crate) fn disk(&self, file: u64) -> u64 {
        let saved = self.spec.view().engine().saved_bytes(self.kind);
        if saved == 0 || self.options.every.is_none() {
            return 0;
        }
        let one = HEAD + NAME_ROOM + 16 + saved;
        let there = if self.options.resume {
            fs::metadata(&self.path).map_or(0, |m| m.len())
        } else {
            0
        };
        (one + one.saturating_sub(file)).saturating_sub(there)
    }

    /// Refuses, before anything is solved, a build that would silently overwrite a checkpoint
    /// (one is there, no `--resume`) or resume what is not there or cannot be resumed (the
    /// file's fields are read and checked; its words and checksum when it is resumed).
    pub(crate) fn check(&self) -> Result<()> {
        let exists = self.path.exists();
        if self.options.resume {
            if self.spec.view().engine().saved_bytes(self.kind) == 0 {
                return Err(Error::bad(format!(
                    "--resume: builds of {} keep no checkpoints, so there is nothing to resume; \
                     run without --resume",
                    self.spec.file_name(self.kind)
                )));
            }
            if !exists {
                return Err(Error::bad(format!(
                    "--resume: no checkpoint {} (none was written, or the build finished); run \
                     without --resume to start afresh",
                    self.path.display()
                )));
            }
            self.read_head().map(|_| ())
        } else if exists {
            Err(Error::bad(format!(
                "{} holds a checkpoint of an earlier build of this table; --resume continues it, \
                 or --clean removes it to start afresh",
                self.path.display()
            )))
        } else {
            Ok(())
        }
    }

    /// Removes the checkpoint (the table is written) and temporaries interrupted writers of it
    /// left; for a build holding the table's lock.
    pub(crate) fn remove(&self) -> Result<()> {
        match fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&self.path, e)),
            _ => {
                self.remove_temporaries();
                Ok(())
            }
        }
    }

    /// Removes the temporaries of this checkpoint that other (killed) processes left; for a
    /// build holding the table's lock, so no one else is writing one.
    pub(crate) fn remove_temporaries(&self) {
        let (Some(dir), Some(name)) = (self.path.parent(), self.path.file_name()) else {
            return;
        };
        let prefix = format!(".{}.tmp-", name.to_string_lossy());
        let mine = format!("{prefix}{}", std::process::id());
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if n.starts_with(&prefix) && n != mine {
                let _ = fs::remove_file(e.path());
            }
        }
    }

    /// A refusal of the checkpoint: one line naming the file and `what` is wrong.
    fn refuse(&self, what: impl std::fmt::Display) -> Error {
        Error::bad(format!(
            "{}: {what}; this checkpoint cannot be resumed (--clean removes it, to start \
             afresh)",
            self.path.display()
        ))
    }

    fn temporary(&self) -> PathBuf {
        let name = self.path.file_name().unwrap_or_default().to_string_lossy();
        self.path
            .with_file_name(format!(".{name}.tmp-{}", std::process::id()))
    }

    /// Opens the checkpoint and checks everything before its words: what it is of, and that
    /// the file is as long as they say.
    fn read_head(&self) -> Result<(Head, Reader)> {
        let mut r = Reader::open(&self.path)?;
        let truncated = |e: Error| match e {
            Error::Corrupt { .. } => self.refuse("truncated (it ends inside its header)"),
            other => other,
        };
        let mut b8 = [0u8; 8];
        r.take(&mut b8).map_err(truncated)?;
        if &b8 != MAGIC {
            return Err(self.refuse("not a gamedb build checkpoint"));
        }
        let mut b4 = [0u8; 4];
        r.take(&mut b4).map_err(truncated)?;
        let version = u32::from_le_bytes(b4);
        if version != VERSION {
            return Err(self.refuse(format!(
                "checkpoint format version {version} (this gamedb reads version {VERSION})"
            )));
        }
        r.take(&mut b4).map_err(truncated)?;
        let kind = crate::format::value_kind(u32::from_le_bytes(b4));
        let head = r.words(14).map_err(truncated)?;
        let same = head[0] == key_of(self.spec)
            && kind == Some(self.kind)
            && head[2..9] == [0; 7]
            && head[9] == self.spec.positions();
        let wave = Wave {
            next: head[10] as usize,
            waves: head[11] as usize,
            done: head[12],
        };
        let name_len = head[13];
        if name_len > MAX_NAME {
            return Err(self.refuse("damaged (an implausible solve name length)"));
        }
        let mut name = vec![0u8; (name_len.div_ceil(8) * 8) as usize];
        r.take(&mut name).map_err(truncated)?;
        name.truncate(name_len as usize);
        let name = String::from_utf8(name)
            .map_err(|_| self.refuse("damaged (its solve name is not UTF-8)"))?;
        if !same {
            // The key says only that the table differs; the solve name says which it was.
            return Err(self.refuse(format!(
                "a checkpoint of another table (its solve: {name}), not of {} (this build)",
                self.spec.describe_table(self.kind)
            )));
        }
        let words = r.words(1).map_err(truncated)?[0];
        let bytes = head[1];
        let want = self.spec.positions().div_ceil(64).max(1);
        let max_bytes = self.spec.view().engine().saved_bytes(self.kind);
        if bytes == 0 && words != want {
            return Err(self.refuse(format!(
                "damaged (it holds {words} words; this table's checkpoint holds {want})"
            )));
        }
        if bytes != 0 && (bytes > max_bytes || words != bytes.div_ceil(8)) {
            return Err(self.refuse(format!(
                "damaged (it holds {words} words for {bytes} bytes; this table's checkpoint \
                 holds at most {max_bytes} bytes)"
            )));
        }
        let len = words.saturating_mul(8);
        if r.left < len {
            return Err(self.refuse(format!("truncated ({} bytes missing)", len - r.left)));
        }
        if r.left > len {
            return Err(self.refuse(format!("extended ({} bytes too many)", r.left - len)));
        }
        if wave.next > wave.waves || wave.done > self.spec.positions() {
            return Err(self.refuse(format!(
                "damaged (it stands at wave {} of {})",
                wave.next, wave.waves
            )));
        }
        Ok((
            Head {
                wave,
                name,
                words,
                bytes,
            },
            r,
        ))
    }

    fn write(&self, solve: &str, at: Wave, data: Data) -> Result<u64> {
        let tmp = self.temporary();
        let io = |e| Error::io(&tmp, e);
        let result = (|| {
            let mut w = crate::lock::create_temporary(|| Hashed::create(&tmp))?;
            w.put(MAGIC).map_err(io)?;
            w.put(&VERSION.to_le_bytes()).map_err(io)?;
            w.put(&crate::format::value_kind_code(self.kind).to_le_bytes())
                .map_err(io)?;
            let mut head = vec![key_of(self.spec)];
            head.push(match data {
                Data::Bits(_) => 0,
                Data::Bytes(parts) => parts.iter().map(|b| b.len() as u64).sum(),
            });
            head.extend([0; 7]);
            head.extend([
                self.spec.positions(),
                at.next as u64,
                at.waves as u64,
                at.done,
                solve.len() as u64,
            ]);
            w.words(&head).map_err(io)?;
            let mut name = solve.as_bytes().to_vec();
            name.resize(name.len().div_ceil(8) * 8, 0);
            w.put(&name).map_err(io)?;
            match data {
                Data::Bits(bits) => {
                    let count = bits.word_count();
                    w.words(&[count as u64]).map_err(io)?;
                    let mut buf = vec![0u64; 1 << 16];
                    let mut first = 0;
                    while first < count {
                        let k = buf.len().min(count - first);
                        bits.load_words(first, &mut buf[..k]);
                        w.words(&buf[..k]).map_err(io)?;
                        first += k;
                    }
                }
                Data::Bytes(parts) => {
                    let len: usize = parts.iter().map(|b| b.len()).sum();
                    let count = len.div_ceil(8);
                    w.words(&[count as u64]).map_err(io)?;
                    for b in parts {
                        w.put(b).map_err(io)?;
                    }
                    w.put(&[0; 8][..count * 8 - len]).map_err(io)?;
                }
            }
            w.finish(&tmp)?;
            fs::rename(&tmp, &self.path).map_err(|e| Error::io(&self.path, e))?;
            if let Some(dir) = self.path.parent() {
                sync_dir(dir);
            }
            fs::metadata(&self.path)
                .map(|m| m.len())
                .map_err(|e| Error::io(&self.path, e))
        })();
        if let Err(e) = &result {
            crate::lock::wait_if_ending();
            let _ = fs::remove_file(&tmp);
            return Err(Error::Unsupported(format!(
                "{}: writing the checkpoint failed: {e}; the previous checkpoint, if any, is \
                 intact (--resume continues from it)",
                self.path.display()
            )));
        }
        result
    }
}

impl Checkpoint<'_> {
    /// The head of the checkpoint to resume, when resuming, and the reader at its data;
    /// refused when it is of a solve other than `solves`.
    fn resume_head(&self, solves: &[&str]) -> Result<Option<(Head, Reader)>> {
        if !self.options.resume {
            return Ok(None);
        }
        let (head, r) = self.read_head()?;
        if !solves.contains(&head.name.as_str()) {
            return Err(self.refuse(format!(
                "a checkpoint of the solve `{}`, but this build solves `{}` (another engine or \
                 gamedb)",
                head.name,
                solves.join("` or `")
            )));
        }
        Ok(Some((head, r)))
    }

    /// Checks the checksum after the data was read, and notes the resume.
    fn resumed(&self, head: &Head, r: Reader) -> Result<()> {
        if !r.checksum_matches()? {
            return Err(self.refuse("checksum mismatch (damaged checkpoint)"));
        }
        if let Ok(mut s) = self.state.lock() {
            s.report.resumed = Some(head.wave);
            s.last = Instant::now();
        }
        self.progress.note(&format!(
            "resumed from {}: wave {} of {}, {} positions solved before",
            self.path.display(),
            head.wave.next,
            head.wave.waves,
            head.wave.done
        ));
        Ok(())
    }

    /// Writes `data` when a save is due: `every` seconds since the solve started or since the
    /// last save, and never after the last wave.
    fn save(&self, solve: &str, at: Wave, data: Data) -> Result<()> {
        let Some(every) = self.options.every else {
            return Ok(());
        };
        let mut state = self
            .state
            .lock()
            .map_err(|_| Error::internal("checkpoint state poisoned"))?;
        if at.next >= at.waves || state.last.elapsed().as_secs() < every {
            return Ok(());
        }
        let started = Instant::now();
        let written = self.write(solve, at, data)?;
        let seconds = started.elapsed().as_secs_f64();
        state.report.written += 1;
        state.report.seconds += seconds;
        state.report.bytes = written;
        state.last = Instant::now();
        self.progress.note(&format!(
            "checkpoint: wave {} of {} ({} positions solved) saved to {} ({} in {seconds:.1} s)",
            at.next,
            at.waves,
            at.done,
            self.path.display(),
            bytes(written)
        ));
        Ok(())
    }
}

impl Saves for Checkpoint<'_> {
    fn resume(&self, solve: &str, positions: u64) -> Result<Option<(Wave, WordBits)>> {
        let Some((head, mut r)) = self.resume_head(&[solve])? else {
            return Ok(None);
        };
        if head.bytes != 0 || positions.div_ceil(64).max(1) != head.words {
            return Err(self.refuse(format!(
                "it holds {} words, this solve has {positions} positions",
                head.words
            )));
        }
        let bits = WordBits::try_new(positions)?;
        let mut first = 0;
        r.words_into(head.words as usize, |w| {
            bits.store_words(first, w);
            first += w.len();
        })?;
        self.resumed(&head, r)?;
        Ok(Some((head.wave, bits)))
    }

    fn finished_wave(&self, solve: &str, at: Wave, bits: &WordBits) -> Result<()> {
        self.save(solve, at, Data::Bits(bits))
    }

    fn resume_bytes(
        &self,
        solves: &[&str],
        max_bytes: u64,
    ) -> Result<Option<(String, Wave, Vec<u8>)>> {
        let Some((head, mut r)) = self.resume_head(solves)? else {
            return Ok(None);
        };
        if head.bytes == 0 || head.bytes > max_bytes {
            return Err(self.refuse(format!(
                "it holds {} bytes; this solve saves 1 to {max_bytes}",
                head.bytes
            )));
        }
        let mut data = vec![0u8; head.words as usize * 8];
        r.take(&mut data)?;
        data.truncate(head.bytes as usize);
        self.resumed(&head, r)?;
        Ok(Some((head.name, head.wave, data)))
    }

    fn finished_bytes(&self, solve: &str, at: Wave, bytes: &[u8]) -> Result<()> {
        self.save(solve, at, Data::Bytes(&[bytes]))
    }

    fn finished_byte_parts(&self, solve: &str, at: Wave, parts: &[&[u8]]) -> Result<()> {
        self.save(solve, at, Data::Bytes(parts))
    }
}
