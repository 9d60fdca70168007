//! Saving the finished waves of a long solve, so that an interrupted one resumes.
//!
//! The run and triangle solvers ([`super::runs`], [`super::triangles`]) keep their whole state
//! in one [`WordBits`] table, and between two waves no task is writing it: the table after
//! wave `w` and the number `w + 1` are everything a resumed solve needs. A solver hands them to
//! a [`Saves`] after every wave; the implementation (the build's checkpoint file) decides
//! whether a save is due and where it goes, and hands a saved table back at the start. `()`
//! saves nothing.
//!
//! A solve is named by its caller (`solve`: the engine and what it solves, e.g. `triangles
//! over the 10x42 box`), so that a saved table of another solve is refused; the solvers only
//! pass the name on.
//!
//! Also here: the checksummed reader and writer that checkpoint files are made of (the
//! enumeration's, [`super::spread::checkpoint`], and the build's).

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use xxhash_rust::xxh3::Xxh3Default;

use crate::progress::Progress;
use crate::solve::acyclic::waves::Staged;
use crate::solve::word_bits::WordBits;
use crate::{Error, Result};

/// Where a wave solve stands after a finished wave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wave {
    /// The next wave to solve (the waves before it are finished).
    pub next: usize,
    /// The solve's number of waves.
    pub waves: usize,
    /// Positions solved so far (what the progress counted).
    pub done: u64,
}

/// Where a wave solver saves its finished waves and finds them again. Called from the
/// solver's own thread, between waves.
pub trait Saves: Sync {
    /// The saved state of the solve named `solve` over `positions` positions, when this solve
    /// resumes one: its table and where it stands. An error when the saved state cannot be
    /// used (damaged, or of another solve); `None` for a fresh solve.
    fn resume(&self, solve: &str, positions: u64) -> Result<Option<(Wave, WordBits)>>;

    /// The waves before `at.next` are finished and `bits` holds them; saves them when a save
    /// is due.
    fn finished_wave(&self, solve: &str, at: Wave, bits: &WordBits) -> Result<()>;

    /// The saved state of a solve that extends a sequence of bytes (the octal games' values),
    /// when this solve resumes one: the name it was saved under (one of `solves`, e.g. one per
    /// width of its values), where it stands and the bytes solved so far (at most `max_bytes`).
    /// An error when the saved state cannot be used; `None` for a fresh solve. By default
    /// nothing is saved.
    fn resume_bytes(
        &self,
        _solves: &[&str],
        _max_bytes: u64,
    ) -> Result<Option<(String, Wave, Vec<u8>)>> {
        Ok(None)
    }

    /// The bytes solved so far by a solve that extends a sequence of bytes; saves them when a
    /// save is due.
    fn finished_bytes(&self, _solve: &str, _at: Wave, _bytes: &[u8]) -> Result<()> {
        Ok(())
    }

    /// [`finished_bytes`](Saves::finished_bytes) of the bytes `parts` make one after the
    /// other, read back as one sequence: a solve that keeps its bytes in two pieces saves them
    /// without joining them (a copy as large as the save).
    fn finished_byte_parts(&self, _solve: &str, _at: Wave, _parts: &[&[u8]]) -> Result<()> {
        Ok(())
    }
}

/// A solve's saves and its name (see the module documentation).
#[derive(Clone, Copy)]
pub struct Saving<'a> {
    /// Where the finished waves go.
    pub saves: &'a dyn Saves,
    /// The solve's name.
    pub solve: &'a str,
}

impl Saving<'_> {
    /// Nothing saved.
    pub const NONE: Saving<'static> = Saving {
        saves: &(),
        solve: "",
    };
}

/// Saves nothing.
impl Saves for () {
    fn resume(&self, _solve: &str, _positions: u64) -> Result<Option<(Wave, WordBits)>> {
        Ok(None)
    }

    fn finished_wave(&self, _solve: &str, _at: Wave, _bits: &WordBits) -> Result<()> {
        Ok(())
    }
}

/// The waves of a solve kept in one [`WordBits`] table (the run and triangle solvers): from
/// where `saves` resumes, or wave 0 on a zero table, each wave's pieces in parallel by
/// `solve_piece` (which returns the positions it solved), the table handed to `saves` after
/// every wave.
pub(crate) fn solve_waves<G: Staged>(
    game: &G,
    progress: &dyn Progress,
    saving: Saving,
    solve_piece: impl Fn(&G::Piece, &WordBits) -> u64 + Sync,
) -> Result<WordBits> {
    let Saving { saves, solve } = saving;
    let (mut wave, bits) = start(saves, solve, game.positions(), game.waves(), progress)?;
    while wave.next < wave.waves {
        let done = AtomicU64::new(0);
        game.pieces(wave.next).par_iter().for_each(|piece| {
            let visited = solve_piece(piece, &bits);
            progress.inc(visited);
            done.fetch_add(visited, Relaxed);
        });
        wave.next += 1;
        wave.done += done.into_inner();
        saves.finished_wave(solve, wave, &bits)?;
    }
    Ok(bits)
}

/// Where a wave solver of `waves` waves over `positions` positions starts: the saved table
/// and its next wave when `saves` resumes one (the progress is told what was done before),
/// else a zero table at wave 0.
fn start(
    saves: &dyn Saves,
    solve: &str,
    positions: u64,
    waves: usize,
    progress: &dyn Progress,
) -> Result<(Wave, WordBits)> {
    match saves.resume(solve, positions)? {
        Some((at, bits)) => {
            if at.waves != waves || at.next > waves || bits.len() != positions {
                return Err(Error::internal(format!(
                    "the saved state of {solve} stands at wave {} of {} over {} \
                     positions; this solve has {waves} waves over {positions} positions",
                    at.next,
                    at.waves,
                    bits.len()
                )));
            }
            progress.skip(at.done);
            Ok((at, bits))
        }
        None => Ok((
            Wave {
                next: 0,
                waves,
                done: 0,
            },
            WordBits::try_new(positions)?,
        )),
    }
}

/// A writer that hashes (xxh3-64) every byte it writes.
pub(crate) struct Hashed<W: Write> {
    /// Where the bytes go.
    pub inner: W,
    /// The hash of the bytes written so far.
    pub hash: Xxh3Default,
}

impl<W: Write> Hashed<W> {
    /// A writer into `inner`, hashing from here on.
    pub(crate) fn new(inner: W) -> Hashed<W> {
        Hashed {
            inner,
            hash: Xxh3Default::new(),
        }
    }

    /// Writes bytes.
    pub(crate) fn put(&mut self, b: &[u8]) -> std::io::Result<()> {
        self.hash.update(b);
        self.inner.write_all(b)
    }

    /// Writes words, little-endian.
    pub(crate) fn words(&mut self, words: &[u64]) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(1 << 16);
        for chunk in words.chunks(1 << 13) {
            buf.clear();
            for w in chunk {
                buf.extend_from_slice(&w.to_le_bytes());
            }
            self.put(&buf)?;
        }
        Ok(())
    }
}

impl Hashed<BufWriter<File>> {
    /// A file created at `path`, written through a large buffer.
    pub(crate) fn create(path: &Path) -> Result<Hashed<BufWriter<File>>> {
        let file = File::create(path).map_err(|e| Error::io(path, e))?;
        Ok(Hashed::new(BufWriter::with_capacity(1 << 22, file)))
    }

    /// Ends the file (at `path`) with the checksum of its bytes, and syncs it.
    pub(crate) fn finish(self, path: &Path) -> Result<()> {
        let io = |e| Error::io(path, e);
        let sum = self.hash.digest();
        let mut inner = self.inner;
        inner.write_all(&sum.to_le_bytes()).map_err(io)?;
        let file = inner.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)
    }
}

/// A reader of a file that ends with the xxh3-64 of its other bytes: it hashes what it reads
/// and refuses to read into the checksum (the file is then truncated).
pub(crate) struct Reader {
    /// The file.
    pub inner: BufReader<File>,
    /// The hash of the bytes read so far.
    pub hash: Xxh3Default,
    /// The file, for messages.
    pub path: PathBuf,
    /// Bytes left before the checksum.
    pub left: u64,
}

impl Reader {
    /// Opens `path`.
    pub(crate) fn open(path: &Path) -> Result<Reader> {
        let io = |e| Error::io(path, e);
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        Ok(Reader {
            inner: BufReader::with_capacity(1 << 22, file),
            hash: Xxh3Default::new(),
            path: path.to_path_buf(),
            left: len.saturating_sub(8),
        })
    }

    /// Fills `buf`, or says the file is truncated.
    pub(crate) fn take(&mut self, buf: &mut [u8]) -> Result<()> {
        if (buf.len() as u64) > self.left {
            return Err(Error::corrupt(&self.path, "truncated"));
        }
        self.inner
            .read_exact(buf)
            .map_err(|e| Error::io(&self.path, e))?;
        self.hash.update(buf);
        self.left -= buf.len() as u64;
        Ok(())
    }

    /// Reads `n` little-endian words into `f`, a chunk at a time.
    pub(crate) fn words_into(&mut self, n: usize, mut f: impl FnMut(&[u64])) -> Result<()> {
        let mut buf = vec![0u8; 1 << 16];
        let mut words = Vec::with_capacity(buf.len() / 8);
        let mut left = n;
        while left > 0 {
            let k = left.min(buf.len() / 8);
            self.take(&mut buf[..8 * k])?;
            words.clear();
            words.extend(
                buf[..8 * k]
                    .chunks_exact(8)
                    .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))),
            );
            f(&words);
            left -= k;
        }
        Ok(())
    }

    /// Reads `n` little-endian words.
    pub(crate) fn words(&mut self, n: usize) -> Result<Vec<u64>> {
        let mut out = Vec::with_capacity(n);
        self.words_into(n, |w| out.extend_from_slice(w))?;
        Ok(out)
    }

    /// Whether the checksum after the bytes read matches them (call when `left` is 0).
    pub(crate) fn checksum_matches(mut self) -> Result<bool> {
        let mut stored = [0u8; 8];
        self.inner
            .read_exact(&mut stored)
            .map_err(|e| Error::io(&self.path, e))?;
        Ok(u64::from_le_bytes(stored) == self.hash.digest())
    }
}

/// Makes a rename in `dir` durable (best effort).
pub(crate) fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}
