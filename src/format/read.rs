//! Reading tables: [`TableFile`] (a mapped file, a whole file in memory, or a payload
//! solved in memory) with its cheap checks on opening and the payload checksum on demand, and
//! [`read_header`], which reads a header without mapping the file.

use std::fs::File;
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use xxhash_rust::xxh3::xxh3_64;

use super::header::{check_magic, encode_header, parse_header, parse_header_bytes};
use super::{legacy, Header, TableMeta, HEADER_LEN, PAYLOAD_OFFSET};
use crate::{Error, Result};

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
    /// The file must not be modified while it is open: see `map_file`.
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
        // The first bytes, read before the length is judged: a short text file is no table,
        // not a truncated one.
        let mut head = Vec::with_capacity(8);
        std::io::Read::read_to_end(&mut std::io::Read::take(&file, 8), &mut head)
            .map_err(|e| Error::io(path, e))?;
        check_magic(path, &head, len)?;
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
        check_magic(&path, &bytes, bytes.len() as u64)?;
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
    pub(crate) fn from_payload(
        name: &str,
        meta: &TableMeta,
        payload: Vec<u8>,
    ) -> Result<TableFile> {
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
pub(crate) fn read_header(path: &Path) -> Result<Header> {
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
    check_magic(path, &bytes, meta.len())?;
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
