//! Writing tables atomically: a whole table at once ([`write_table`]), or in pieces by one
//! or several processes ([`TableParts`]); nothing appears under a table's name until it is
//! complete and synced. Also the temporaries an interrupted writer leaves, and `upgrade`.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::header::{encode_header, header_for};
use super::{TableFile, TableMeta, EXTENSION, FORMAT_VERSION, HEADER_LEN, PAYLOAD_OFFSET};
use crate::{Error, Result};

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
        let mut f =
            crate::lock::create_temporary(|| File::create(&tmp)).map_err(|e| Error::io(&tmp, e))?;
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
        crate::lock::wait_if_ending();
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
/// [`legacy`](super::legacy)): its payload checksum is checked first, then the same payload is written with a
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
pub(crate) struct TableParts {
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
    pub(crate) fn create(path: &Path, meta: &TableMeta, pid: u32) -> Result<TableParts> {
        TableParts::open(path, meta, pid, true)
    }

    /// Opens the temporary file that the writer of process id `pid` created.
    pub(crate) fn join(path: &Path, meta: &TableMeta, pid: u32) -> Result<TableParts> {
        TableParts::open(path, meta, pid, false)
    }

    fn open(path: &Path, meta: &TableMeta, pid: u32, create: bool) -> Result<TableParts> {
        let payload_len = TableParts::payload_len(meta)?;
        let (dir, tmp) = TableParts::temporary(path, pid)?;
        if create {
            fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        }
        let file = crate::lock::create_temporary(|| {
            fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(create)
                .truncate(create)
                .open(&tmp)
        })
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
    pub(crate) fn write_at(&mut self, offset: u64, bytes: &[u8]) -> Result<()> {
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
    pub(crate) fn sync(&self) -> Result<()> {
        self.file.sync_all().map_err(|e| Error::io(&self.tmp, e))
    }

    /// Completes the table once every writer has synced its pieces: checksums the payload
    /// (reading it back unless this one writer wrote it in order), writes the header, syncs
    /// and renames the file to its name.
    pub(crate) fn finish(self) -> Result<()> {
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
        if let Err(e) = fs::rename(&self.tmp, &self.path) {
            crate::lock::wait_if_ending();
            return Err(Error::io(&self.path, e));
        }
        if let Some(d) = self.path.parent().and_then(|d| File::open(d).ok()) {
            let _ = d.sync_all();
        }
        Ok(())
    }

    /// Removes the temporary file (a failed run).
    pub(crate) fn abandon(self) {
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
pub(crate) fn remove_stale_temporaries(dir: &Path) -> usize {
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
pub(crate) fn remove_temporaries_of(dir: &Path, name: &str) -> usize {
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
