//! The table file format: writing, opening and validating. `tables/README.md` is its
//! specification; this module (with [`payload`], the encodings of the values) is the only code
//! that knows the byte layout.
//!
//! ```text
//! offset size field
//!      0    8 magic            "GAMEDB\r\n"
//!      8    4 format_version   u32 = 2
//!     12    4 value_kind       u32 (1 outcome, 2 Grundy value, 3 distance, 4 extension)
//!     16    4 encoding         u32 (1 one bit per entry, 2 one byte, 3 u16 little-endian,
//!                                   4 two bits: distance mod 3, 5 three bytes)
//!     20    4 rules_version    u32, the version of the game's rules (1 for a game never changed)
//!     24    8 entry_count      u64
//!     32    8 payload_offset   u64 = 4096
//!     40    8 payload_len      u64
//!     48    8 payload_xxh3     u64, xxh3-64 (seed 0) of the payload bytes XOR the identity key
//!                              (below)
//!     56   16 crate_version    UTF-8, zero padded
//!     72   64 game             UTF-8, zero padded: the game's name (`nim`, `chomp`, or
//!                              `CRATE/GAME` for a game of another crate)
//!    136  384 parameters       UTF-8, zero padded: canonical `name=value,...` text
//!    520    8 header_xxh3      u64, xxh3-64 of bytes 0..520
//!    528      zero padding up to payload_offset, then the payload
//! ```
//! The **identity key** is xxh3-64 of `GAME \0 RULES_VERSION \0 PARAMETERS` (the version in
//! decimal; [`identity_key`]). Folding it into the payload checksum ties the payload to the
//! game it was solved for: a header edited to name another game (with its header checksum
//! recomputed) fails the payload check instead of answering as that game.
//!
//! All integers are little-endian; the header is encoded with bincode 2 in its fixed-width
//! little-endian configuration, which produces exactly this layout.
//!
//! Compatibility: a reader accepts its own `FORMAT_VERSION` and, through [`legacy`], version 1
//! (game numbers and eight numeric parameters, written by gamedb 0.1 to 0.3), whose headers it
//! reads as the version 2 header of the same table (`gamedb upgrade` rewrites them). Any change
//! of layout or meaning bumps the version.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use bincode::{Decode, Encode};
use memmap2::Mmap;
use xxhash_rust::xxh3::xxh3_64;

use crate::game::ValueKind;
use crate::games::Spec;
use crate::{Error, Result};

pub mod legacy;
pub mod payload;

pub use payload::Encoding;

/// First eight bytes of every table. The CR LF catches files mangled by text-mode transfers.
pub const MAGIC: [u8; 8] = *b"GAMEDB\r\n";
/// The layout version this build writes and reads.
pub const FORMAT_VERSION: u32 = 2;
/// Encoded header size in bytes.
pub const HEADER_LEN: usize = 528;
/// Where the payload starts: one page, so the payload can be mapped aligned.
pub const PAYLOAD_OFFSET: u64 = 4096;
/// Suffix of table files.
pub const EXTENSION: &str = "gtab";

/// Bytes of the game name field.
pub const GAME_NAME_LEN: usize = crate::games::MAX_NAME_LEN;
/// Bytes of the parameter text field.
pub const PARAMETERS_LEN: usize = 384;

/// The header as bincode sees it: exactly the on-disk fields, in order.
#[derive(Encode, Decode)]
struct RawHeader {
    magic: [u8; 8],
    format_version: u32,
    value_kind: u32,
    encoding: u32,
    rules_version: u32,
    entry_count: u64,
    payload_offset: u64,
    payload_len: u64,
    payload_xxh3: u64,
    crate_version: [u8; 16],
    game: [u8; GAME_NAME_LEN],
    parameters: [u8; PARAMETERS_LEN],
    header_xxh3: u64,
}

fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_little_endian()
}

/// A validated header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The format version the file was written in (1 for a [`legacy`] table).
    pub format_version: u32,
    /// The game's name (see the module docs).
    pub game: String,
    /// The version of the game's rules the table was solved under.
    pub rules_version: u32,
    /// The game's parameters as canonical text.
    pub parameters: String,
    /// Meaning of the values.
    pub value_kind: ValueKind,
    /// Storage of the values.
    pub encoding: Encoding,
    /// Number of entries (positions).
    pub entry_count: u64,
    /// Byte offset of the payload.
    pub payload_offset: u64,
    /// Payload length in bytes.
    pub payload_len: u64,
    /// xxh3-64 of the payload.
    pub payload_xxh3: u64,
    /// Version of the gamedb that wrote the file.
    pub crate_version: String,
}

/// What a writer supplies; the rest of the header is derived from the payload.
#[derive(Clone, Debug)]
pub struct TableMeta {
    /// The game's name.
    pub game: String,
    /// The version of its rules.
    pub rules_version: u32,
    /// Its parameters as canonical text.
    pub parameters: String,
    /// Meaning of the values.
    pub value_kind: ValueKind,
    /// Storage of the values.
    pub encoding: Encoding,
    /// Number of entries.
    pub entry_count: u64,
}

/// What the file format adds to a table's game and parameters: its file name and its header
/// fields (here rather than in the registry: games know nothing of files).
impl Spec {
    /// File name (without folder) of the table of these parameters and value kind.
    pub fn file_name(&self, kind: ValueKind) -> String {
        format!("{}.{EXTENSION}", self.table_stem(kind))
    }

    /// The header fields of this spec's table of `encoded` values.
    pub fn meta(&self, encoded: &payload::Encoded) -> TableMeta {
        TableMeta {
            game: self.name().to_string(),
            rules_version: self.rules_version(),
            parameters: self.parameters(),
            value_kind: encoded.kind,
            encoding: encoded.encoding,
            entry_count: encoded.entries,
        }
    }
}

fn encode_header(meta: &TableMeta, payload: &[u8]) -> Vec<u8> {
    header_for(meta, payload.len() as u64, xxh3_64(payload))
}

/// The header bytes of a table whose payload is `payload_len` bytes hashing to `payload_xxh3`.
fn header_for(meta: &TableMeta, payload_len: u64, payload_xxh3: u64) -> Vec<u8> {
    let payload_xxh3 =
        payload_xxh3 ^ identity_key(&meta.game, meta.rules_version, &meta.parameters);
    let mut raw = RawHeader {
        magic: MAGIC,
        format_version: FORMAT_VERSION,
        value_kind: meta.value_kind as u32,
        encoding: meta.encoding.code(),
        rules_version: meta.rules_version,
        entry_count: meta.entry_count,
        payload_offset: PAYLOAD_OFFSET,
        payload_len,
        payload_xxh3,
        crate_version: padded(env!("CARGO_PKG_VERSION")),
        game: padded(&meta.game),
        parameters: padded(&meta.parameters),
        header_xxh3: 0,
    };
    let first = bincode::encode_to_vec(&raw, bincode_config()).expect("header encodes");
    raw.header_xxh3 = xxh3_64(&first[..HEADER_LEN - 8]);
    let bytes = bincode::encode_to_vec(&raw, bincode_config()).expect("header encodes");
    debug_assert_eq!(bytes.len(), HEADER_LEN);
    bytes
}

/// The identity key of a table of game `game` (its name), `rules_version` and `parameters`
/// text (see the module docs); also what checkpoints are keyed by.
pub fn identity_key(game: &str, rules_version: u32, parameters: &str) -> u64 {
    xxh3_64(format!("{game}\0{rules_version}\0{parameters}").as_bytes())
}

/// `text` in a zero-padded field of `N` bytes. The registry keeps game names and parameter
/// texts within their fields ([`check_text`]); a longer text would be a bug, caught by the
/// reader's check of the field.
fn padded<const N: usize>(text: &str) -> [u8; N] {
    let mut field = [0u8; N];
    let n = text.len().min(N);
    field[..n].copy_from_slice(&text.as_bytes()[..n]);
    field
}

/// The text of a zero-padded field, or what is wrong with it: printable ASCII without
/// spaces, then zeros only.
fn field_text(field: &[u8], what: &str) -> std::result::Result<String, String> {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    let (text, rest) = field.split_at(end);
    if rest.iter().any(|&b| b != 0) || text.iter().any(|&b| !(0x21..0x7f).contains(&b)) {
        return Err(format!(
            "the {what} field is not zero-padded printable text"
        ));
    }
    Ok(String::from_utf8(text.to_vec()).expect("ASCII"))
}

/// Checks that a game name and a parameter text fit their header fields, before anything is
/// solved: the error names what is too long.
pub fn check_text(game: &str, parameters: &str) -> Result<()> {
    let printable = |t: &str| t.bytes().all(|b| (0x21..0x7f).contains(&b));
    if game.is_empty() || game.len() > GAME_NAME_LEN || !printable(game) {
        return Err(Error::bad(format!(
            "game name '{game}': expected 1..={GAME_NAME_LEN} printable ASCII bytes"
        )));
    }
    if parameters.len() > PARAMETERS_LEN || !(parameters.is_empty() || printable(parameters)) {
        return Err(Error::bad(format!(
            "{game} parameters '{}' do not fit a table header (at most {PARAMETERS_LEN} \
             printable ASCII bytes, without spaces)",
            crate::game::echo(parameters)
        )));
    }
    Ok(())
}

/// Writes a table atomically: to a temporary file in the same folder, fsync, rename, fsync
/// the folder. A crash leaves either the old file or the new one under `path`, never a part.
pub fn write_table(path: &Path, meta: &TableMeta, payload: &[u8]) -> Result<()> {
    let expected = meta.encoding.payload_len(meta.entry_count);
    if expected != Some(payload.len() as u64) {
        return Err(Error::internal(format!(
            "payload of {} bytes for {} entries",
            payload.len(),
            meta.entry_count
        )));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let name = path
        .file_name()
        .ok_or_else(|| Error::bad(format!("{}: not a file path", path.display())))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut f = File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
        let header = encode_header(meta, payload);
        let mut page = vec![0u8; PAYLOAD_OFFSET as usize];
        page[..HEADER_LEN].copy_from_slice(&header);
        f.write_all(&page).map_err(|e| Error::io(&tmp, e))?;
        for chunk in payload.chunks(1 << 24) {
            f.write_all(chunk).map_err(|e| Error::io(&tmp, e))?;
        }
        f.sync_all().map_err(|e| Error::io(&tmp, e))?;
        drop(f);
        fs::rename(&tmp, path).map_err(|e| Error::io(path, e))?;
        // Make the rename itself durable.
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        // Said of the table, not of the temporary the user never asked for.
        return Err(match e {
            Error::Io { source, .. } => Error::Unsupported(format!(
                "{}: writing the table failed: {source}; nothing was left under its name (the \
                 temporary file was removed)",
                path.display()
            )),
            other => other,
        });
    }
    Ok(())
}

/// Rewrites the table at `path` in the current format when it is of an older one (see
/// [`legacy`]): its payload checksum is checked first, then the same payload is written with a
/// current header, atomically ([`write_table`]). Returns the version it had, or `None` when
/// it was current already (left untouched).
pub fn upgrade(path: &Path) -> Result<Option<u32>> {
    let file = TableFile::open(path)?;
    let h = file.header().clone();
    if h.format_version == FORMAT_VERSION {
        return Ok(None);
    }
    file.verify()?;
    let meta = TableMeta {
        game: h.game,
        rules_version: h.rules_version,
        parameters: h.parameters,
        value_kind: h.value_kind,
        encoding: h.encoding,
        entry_count: h.entry_count,
    };
    write_table(path, &meta, file.payload())?;
    Ok(Some(h.format_version))
}

/// A table file written in pieces, by one process or by several: the processes of one
/// `gamedb enumerate` run each hold part of the payload and write it into one temporary file
/// on a folder they all see, so a table larger than any one process's memory is never
/// gathered, and no table is copied in memory to be written. As with [`write_table`], nothing
/// appears under the final name until [`TableParts::finish`] renames the complete file.
///
/// One writer [`create`](TableParts::create)s the temporary file (named after its process id,
/// which [`remove_stale_temporaries`] respects while that process lives), the others
/// [`join`](TableParts::join) it; each writes its pieces and syncs; then, after all have
/// synced, one of them finishes it.
pub struct TableParts {
    path: PathBuf,
    tmp: PathBuf,
    file: File,
    meta: TableMeta,
    payload_len: u64,
    /// The checksum of the payload written so far, while it was written in order from its
    /// first byte (a single writer): then finishing needs not read it back.
    in_order: Option<(xxhash_rust::xxh3::Xxh3Default, u64)>,
}

impl TableParts {
    fn temporary(path: &Path, pid: u32) -> Result<(PathBuf, PathBuf)> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = path
            .file_name()
            .ok_or_else(|| Error::bad(format!("{}: not a file path", path.display())))?;
        let tmp = dir.join(format!(".{}.tmp-{pid}", name.to_string_lossy()));
        Ok((dir, tmp))
    }

    fn payload_len(meta: &TableMeta) -> Result<u64> {
        meta.encoding
            .payload_len(meta.entry_count)
            .ok_or_else(|| Error::Unsupported(format!("{} entries: too many", meta.entry_count)))
    }

    /// Creates the temporary file of the table `path` (payload zeros until written), named
    /// after process `pid` (the caller's own id).
    pub fn create(path: &Path, meta: &TableMeta, pid: u32) -> Result<TableParts> {
        TableParts::open(path, meta, pid, true)
    }

    /// Opens the temporary file that the writer of process id `pid` created.
    pub fn join(path: &Path, meta: &TableMeta, pid: u32) -> Result<TableParts> {
        TableParts::open(path, meta, pid, false)
    }

    fn open(path: &Path, meta: &TableMeta, pid: u32, create: bool) -> Result<TableParts> {
        let payload_len = TableParts::payload_len(meta)?;
        let (dir, tmp) = TableParts::temporary(path, pid)?;
        if create {
            fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        }
        let file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(create)
            .truncate(create)
            .open(&tmp)
            .map_err(|e| Error::io(&tmp, e))?;
        if create {
            file.set_len(PAYLOAD_OFFSET + payload_len)
                .map_err(|e| Error::io(&tmp, e))?;
        }
        Ok(TableParts {
            path: path.to_path_buf(),
            tmp,
            file,
            meta: meta.clone(),
            payload_len,
            // Only the creator may write in order from the first byte: joiners write parts.
            in_order: create.then(|| (xxhash_rust::xxh3::Xxh3Default::new(), 0)),
        })
    }

    /// Writes `bytes` at byte `offset` of the payload.
    pub fn write_at(&mut self, offset: u64, bytes: &[u8]) -> Result<()> {
        use std::os::unix::fs::FileExt;
        if offset + bytes.len() as u64 > self.payload_len {
            return Err(Error::internal(format!(
                "payload bytes {offset}..{} of {}",
                offset + bytes.len() as u64,
                self.payload_len
            )));
        }
        self.in_order = match self.in_order.take() {
            Some((mut hash, next)) if next == offset => {
                hash.update(bytes);
                Some((hash, next + bytes.len() as u64))
            }
            _ => None,
        };
        self.file
            .write_all_at(bytes, PAYLOAD_OFFSET + offset)
            .map_err(|e| Error::io(&self.tmp, e))
    }

    /// Makes this writer's pieces durable.
    pub fn sync(&self) -> Result<()> {
        self.file.sync_all().map_err(|e| Error::io(&self.tmp, e))
    }

    /// Completes the table once every writer has synced its pieces: checksums the payload
    /// (reading it back unless this one writer wrote it in order), writes the header, syncs
    /// and renames the file to its name.
    pub fn finish(self) -> Result<()> {
        let tmp = self.tmp.clone();
        let result = self.complete();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }

    fn complete(mut self) -> Result<()> {
        use std::os::unix::fs::FileExt;
        let io = |e| Error::io(&self.tmp, e);
        let sum = match self.in_order.take() {
            Some((hash, written)) if written == self.payload_len => hash.digest(),
            _ => {
                let mut hash = xxhash_rust::xxh3::Xxh3Default::new();
                let mut buf = vec![0u8; 1 << 22];
                let mut at = 0;
                while at < self.payload_len {
                    let k = (self.payload_len - at).min(buf.len() as u64) as usize;
                    self.file
                        .read_exact_at(&mut buf[..k], PAYLOAD_OFFSET + at)
                        .map_err(io)?;
                    hash.update(&buf[..k]);
                    at += k as u64;
                }
                hash.digest()
            }
        };
        let header = header_for(&self.meta, self.payload_len, sum);
        self.file.write_all_at(&header, 0).map_err(io)?;
        self.file.sync_all().map_err(io)?;
        fs::rename(&self.tmp, &self.path).map_err(|e| Error::io(&self.path, e))?;
        if let Some(d) = self.path.parent().and_then(|d| File::open(d).ok()) {
            let _ = d.sync_all();
        }
        Ok(())
    }

    /// Removes the temporary file (a failed run).
    pub fn abandon(self) {
        let _ = fs::remove_file(&self.tmp);
    }
}

/// The table name and writer's process id of a temporary file name, `.NAME.tmp-PID`.
fn temporary_of(file_name: &str) -> Option<(&str, u32)> {
    let (name, pid) = file_name.strip_prefix('.')?.rsplit_once(".tmp-")?;
    name.ends_with(&format!(".{EXTENSION}"))
        .then_some(())
        .and(pid.parse().ok().map(|p| (name, p)))
}

/// Removes temporary files that interrupted writers left in `dir`; returns how many.
///
/// A temporary is left alone while its table's lock is held (a writer is at work, see
/// [`crate::lock`]), unless its process is gone.
pub fn remove_stale_temporaries(dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in entries.flatten() {
        let file_name = e.file_name().to_string_lossy().into_owned();
        let Some((name, pid)) = temporary_of(&file_name) else {
            continue;
        };
        if pid == std::process::id() {
            continue; // one of our own builds, at work
        }
        let alive = Path::new(&format!("/proc/{pid}")).exists();
        let lock = crate::lock::TableLock::try_take(dir, name).ok().flatten();
        if (lock.is_some() || !alive) && fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Removes every temporary of table `name` in `dir` left by other processes; for a caller
/// that holds the table's lock, so no one else is writing it.
pub fn remove_temporaries_of(dir: &Path, name: &str) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| {
            let file_name = e.file_name().to_string_lossy().into_owned();
            matches!(temporary_of(&file_name), Some((n, pid)) if n == name && pid != std::process::id())
        })
        .filter(|e| fs::remove_file(e.path()).is_ok())
        .count()
}

/// The bytes of a table: a memory-mapped file, a whole file in memory, or only the payload
/// (tables solved in memory).
enum Bytes {
    Mapped(Mmap),
    Whole(Vec<u8>),
    Payload(Vec<u8>),
}

/// An open table whose structure (magic, version, header checksum, sizes) has been checked.
/// The payload checksum is checked only by [`TableFile::verify`], which reads every byte.
pub struct TableFile {
    path: PathBuf,
    header: Header,
    bytes: Bytes,
}

impl TableFile {
    /// Opens and maps `path`, checking everything that is cheap to check.
    ///
    /// The file must not be modified while it is open: see [`map_file`].
    pub fn open(path: &Path) -> Result<TableFile> {
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        let meta = file.metadata().map_err(|e| Error::io(path, e))?;
        if !meta.is_file() {
            return Err(Error::bad(format!(
                "{}: not a table file (it is a folder or a device)",
                path.display()
            )));
        }
        let len = meta.len();
        if len < HEADER_LEN as u64 {
            return Err(Error::corrupt(
                path,
                format!(
                    "file is {len} bytes, shorter than the {HEADER_LEN}-byte header (truncated?)"
                ),
            ));
        }
        let map = map_file(&file).map_err(|e| Error::io(path, e))?;
        let header = parse_header(path, &map)?;
        check_padding(path, &map, &header)?;
        Ok(TableFile {
            path: path.to_path_buf(),
            header,
            bytes: Bytes::Mapped(map),
        })
    }

    /// A whole table file held in memory (read by other means, or made up by a fuzzer): the
    /// same checks as [`TableFile::open`]; `name` stands for the path in messages.
    pub fn from_bytes(name: &str, bytes: Vec<u8>) -> Result<TableFile> {
        let path = PathBuf::from(name);
        if bytes.len() < HEADER_LEN {
            return Err(Error::corrupt(
                &path,
                format!(
                    "file is {} bytes, shorter than the {HEADER_LEN}-byte header (truncated?)",
                    bytes.len()
                ),
            ));
        }
        let header = parse_header(&path, &bytes)?;
        check_padding(&path, &bytes, &header)?;
        Ok(TableFile {
            path,
            header,
            bytes: Bytes::Whole(bytes),
        })
    }

    /// A table held in memory, as [`write_table`] would have written it (used by `verify`
    /// for tables it solves without writing). The payload is kept, not copied.
    pub fn from_payload(name: &str, meta: &TableMeta, payload: Vec<u8>) -> Result<TableFile> {
        let header_bytes = encode_header(meta, &payload);
        let path = PathBuf::from(name);
        let header =
            parse_header_bytes(&path, &header_bytes, PAYLOAD_OFFSET + payload.len() as u64)?;
        Ok(TableFile {
            path,
            header,
            bytes: Bytes::Payload(payload),
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The validated header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The payload bytes.
    pub fn payload(&self) -> &[u8] {
        let start = self.header.payload_offset as usize;
        let end = start + self.header.payload_len as usize;
        match &self.bytes {
            Bytes::Mapped(m) => &m[start..end],
            Bytes::Whole(v) => &v[start..end],
            Bytes::Payload(v) => v,
        }
    }

    /// Reads the whole payload and compares its checksum with the header's.
    pub fn verify(&self) -> Result<()> {
        let got = xxh3_64(self.payload());
        if got != self.header.payload_xxh3 {
            return Err(Error::corrupt(
                &self.path,
                format!(
                    "payload checksum mismatch: header says {:016x}, payload hashes to {:016x} \
                     (the payload is damaged, or the header was changed to name another game or \
                     parameters than it was solved for)",
                    self.header.payload_xxh3, got
                ),
            ));
        }
        Ok(())
    }
}

/// Maps a file read-only.
///
/// # Safety contract
/// Memory-mapping is `unsafe` because another process could change the file while it is
/// mapped, and the bytes would change under our feet. Tables are only ever replaced by
/// rename (see [`write_table`]), never modified in place, so a mapped table stays as it was
/// opened; a user who edits a table in place while it is open gets unspecified answers, never
/// memory unsafety in this crate's own code, which reads the map only as plain bytes.
fn map_file(file: &File) -> std::io::Result<Mmap> {
    // SAFETY: see the contract above: gamedb never writes to a file it or anyone maps; it
    // only renames new files over old ones, which leaves existing maps intact.
    unsafe { Mmap::map(file) }
}

/// Reads and checks the header of the table file at `path` without mapping the file: the
/// cheap way to learn what a file holds (its game, parameters and value kind) and whether its
/// size fits. The payload is not read.
pub fn read_header(path: &Path) -> Result<Header> {
    use std::io::Read;
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(Error::bad(format!(
            "{}: not a table file (it is a folder or a device)",
            path.display()
        )));
    }
    let mut bytes = Vec::with_capacity(HEADER_LEN);
    (&mut file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() < HEADER_LEN {
        return Err(Error::corrupt(
            path,
            format!(
                "file is {} bytes, shorter than the {HEADER_LEN}-byte header (truncated?)",
                meta.len()
            ),
        ));
    }
    parse_header_bytes(path, &bytes, meta.len())
}

/// The bytes between the header and the payload are zero: no byte of a table file is left
/// unchecked (the checksums cover the header and the payload).
fn check_padding(path: &Path, bytes: &[u8], header: &Header) -> Result<()> {
    let start = match header.format_version {
        legacy::FORMAT_VERSION => legacy::HEADER_LEN,
        _ => HEADER_LEN,
    };
    let padding = &bytes[start..PAYLOAD_OFFSET as usize];
    match padding.iter().position(|&b| b != 0) {
        None => Ok(()),
        Some(i) => Err(Error::corrupt(
            path,
            format!(
                "byte {} (between the header and the payload) is {:#04x}, not 0",
                start + i,
                padding[i]
            ),
        )),
    }
}

fn parse_header(path: &Path, bytes: &[u8]) -> Result<Header> {
    parse_header_bytes(path, bytes, bytes.len() as u64)
}

fn parse_header_bytes(path: &Path, bytes: &[u8], file_len: u64) -> Result<Header> {
    if bytes.len() < 12 {
        return Err(Error::corrupt(path, "truncated header"));
    }
    if bytes[..8] != MAGIC {
        return Err(Error::corrupt(
            path,
            "not a gamedb table (magic bytes are not \"GAMEDB\\r\\n\")",
        ));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version == legacy::FORMAT_VERSION {
        return legacy::parse_header(path, bytes, file_len);
    }
    if version != FORMAT_VERSION {
        return Err(Error::Version {
            path: path.to_path_buf(),
            expected: FORMAT_VERSION,
            got: version,
        });
    }
    if bytes.len() < HEADER_LEN {
        return Err(Error::corrupt(
            path,
            format!(
                "file is {file_len} bytes, shorter than the {HEADER_LEN}-byte header (truncated?)"
            ),
        ));
    }
    let (raw, used): (RawHeader, usize) =
        bincode::decode_from_slice(&bytes[..HEADER_LEN], bincode_config())
            .map_err(|e| Error::corrupt(path, format!("unreadable header: {e}")))?;
    debug_assert_eq!(used, HEADER_LEN);
    let hsum = xxh3_64(&bytes[..HEADER_LEN - 8]);
    if hsum != raw.header_xxh3 {
        return Err(Error::corrupt(
            path,
            format!(
                "header checksum mismatch: stored {:016x}, header hashes to {hsum:016x}",
                raw.header_xxh3
            ),
        ));
    }
    let text = |field: &[u8], what| field_text(field, what).map_err(|e| Error::corrupt(path, e));
    let game = text(&raw.game, "game")?;
    if game.is_empty() {
        return Err(Error::corrupt(path, "the game field is empty"));
    }
    let parameters = text(&raw.parameters, "parameters")?;
    let key = identity_key(&game, raw.rules_version, &parameters);
    check_sizes(
        path,
        Sizes {
            value_kind: raw.value_kind,
            encoding: raw.encoding,
            entry_count: raw.entry_count,
            payload_offset: raw.payload_offset,
            payload_len: raw.payload_len,
        },
        file_len,
    )
    .map(|(value_kind, encoding)| Header {
        format_version: FORMAT_VERSION,
        game,
        rules_version: raw.rules_version,
        parameters,
        value_kind,
        encoding,
        entry_count: raw.entry_count,
        payload_offset: raw.payload_offset,
        payload_len: raw.payload_len,
        // The payload's own checksum (see the module docs).
        payload_xxh3: raw.payload_xxh3 ^ key,
        crate_version: field_text(&raw.crate_version, "crate version")
            .unwrap_or_else(|_| "?".into()),
    })
}

/// The fields of a header that say how large the payload is, as stored (every version).
struct Sizes {
    value_kind: u32,
    encoding: u32,
    entry_count: u64,
    payload_offset: u64,
    payload_len: u64,
}

/// Checks the value kind, the encoding and the sizes a header states against each other and
/// against the file's length.
fn check_sizes(path: &Path, raw: Sizes, file_len: u64) -> Result<(ValueKind, Encoding)> {
    let value_kind = ValueKind::from_code(raw.value_kind)
        .ok_or_else(|| Error::corrupt(path, format!("unknown value kind {}", raw.value_kind)))?;
    let encoding = Encoding::from_code(raw.encoding)
        .ok_or_else(|| Error::corrupt(path, format!("unknown encoding {}", raw.encoding)))?;
    if raw.payload_offset != PAYLOAD_OFFSET {
        return Err(Error::corrupt(
            path,
            format!(
                "payload offset {} (expected {PAYLOAD_OFFSET})",
                raw.payload_offset
            ),
        ));
    }
    if encoding.payload_len(raw.entry_count) != Some(raw.payload_len) {
        return Err(Error::corrupt(
            path,
            format!(
                "payload length {} does not fit {} entries encoded as {}",
                raw.payload_len,
                raw.entry_count,
                encoding.name()
            ),
        ));
    }
    let expected_len = raw.payload_offset.checked_add(raw.payload_len);
    if expected_len != Some(file_len) {
        return Err(Error::corrupt(
            path,
            format!(
                "file is {file_len} bytes but the header says {} (truncated or extended)",
                raw.payload_offset.saturating_add(raw.payload_len)
            ),
        ));
    }
    Ok((value_kind, encoding))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(n: u64) -> TableMeta {
        TableMeta {
            game: "nim".into(),
            rules_version: 1,
            parameters: "heaps=3,max-heap=7".into(),
            value_kind: ValueKind::Outcome,
            encoding: Encoding::Bits,
            entry_count: n,
        }
    }

    #[test]
    fn header_is_528_bytes_at_documented_offsets() {
        let h = encode_header(&meta(10), &[1, 2]);
        let u32_at = |at: usize| u32::from_le_bytes(h[at..at + 4].try_into().unwrap());
        let u64_at = |at: usize| u64::from_le_bytes(h[at..at + 8].try_into().unwrap());
        assert_eq!(h.len(), HEADER_LEN);
        assert_eq!(&h[0..8], b"GAMEDB\r\n");
        assert_eq!(u32_at(8), 2);
        assert_eq!(u32_at(12), 1);
        assert_eq!(u32_at(16), 1);
        assert_eq!(u32_at(20), 1);
        assert_eq!(u64_at(24), 10);
        assert_eq!(u64_at(32), 4096);
        assert_eq!(u64_at(40), 2);
        assert_eq!(
            u64_at(48),
            xxh3_64(&[1, 2]) ^ identity_key("nim", 1, "heaps=3,max-heap=7")
        );
        assert_eq!(&h[56..61], env!("CARGO_PKG_VERSION").as_bytes());
        assert_eq!(&h[72..76], b"nim\0");
        assert_eq!(&h[136..155], b"heaps=3,max-heap=7\0");
        assert!(h[155..520].iter().all(|&b| b == 0));
        assert_eq!(u64_at(520), xxh3_64(&h[..520]));
    }

    #[test]
    fn round_trip_and_damage() {
        let dir = std::env::temp_dir().join(format!("gamedb-format-{}", std::process::id()));
        let path = dir.join("t.gtab");
        write_table(&path, &meta(20), &[0xAB, 0xCD, 0x0F]).unwrap();
        let t = TableFile::open(&path).unwrap();
        assert_eq!(t.payload(), &[0xAB, 0xCD, 0x0F]);
        t.verify().unwrap();
        drop(t);

        // Flip a payload byte: opening still works, verify names the checksum.
        let mut bytes = fs::read(&path).unwrap();
        bytes[4097] ^= 0x10;
        fs::write(&path, &bytes).unwrap();
        let err = TableFile::open(&path)
            .unwrap()
            .verify()
            .unwrap_err()
            .to_string();
        assert!(err.contains("t.gtab") && err.contains("checksum"), "{err}");

        // Truncate: open fails naming the size.
        fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        let err = TableFile::open(&path).err().unwrap().to_string();
        assert!(err.contains("t.gtab") && err.contains("truncated"), "{err}");

        // Wrong version: named as such.
        let mut v3 = bytes.clone();
        v3[8] = 3;
        fs::write(&path, &v3).unwrap();
        let err = TableFile::open(&path).err().unwrap();
        assert!(matches!(err, Error::Version { got: 3, .. }), "{err}");

        // Header byte flipped: header checksum.
        let mut h = bytes.clone();
        h[74] ^= 1;
        fs::write(&path, &h).unwrap();
        let err = TableFile::open(&path).err().unwrap().to_string();
        assert!(err.contains("header checksum"), "{err}");

        // Not a table at all.
        fs::write(&path, b"hello").unwrap();
        let err = TableFile::open(&path).err().unwrap().to_string();
        assert!(err.contains("shorter than"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
