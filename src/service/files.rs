//! The tables a service serves: the `*.gtab` files directly inside its folder, found by
//! header when the service starts, opened lazily (once, on the first request that needs one),
//! and shared by every request.
//!
//! A request names a table by its file name alone. A name with a path in it (`/`, `\`), `..`,
//! a NUL byte, or an absolute path is refused (400) before anything is looked up; a name that
//! is not one of the folder's usable tables (unknown, unreadable header, a link out of the
//! folder) is not found (404). Nothing outside the folder is ever opened.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use crate::lookup::Table;
use crate::report::listing::{self, Described, ListedTable};
use crate::report::sequence::Survey;
use crate::tables::TableDir;

use super::ApiError;

/// One usable table of the folder.
pub(crate) struct Slot {
    /// The file (inside the folder).
    pub path: PathBuf,
    /// The file name.
    pub name: String,
    /// The open table, once a request opened it.
    pub table: OnceLock<Arc<Table>>,
    /// `info --json` of it, once computed (it reads the whole payload).
    pub info: OnceLock<String>,
    /// Its value distribution as JSON, once computed.
    pub values: OnceLock<String>,
    /// The survey of its heap sequence (one pass over the whole table), once a picture of
    /// the sequence was drawn.
    pub survey: OnceLock<Arc<Survey>>,
}

/// The folder's tables, as found when the service started.
pub(crate) struct Files {
    /// The folder.
    pub dir: Arc<TableDir>,
    /// Every `*.gtab` file, usable or not (`GET /api/tables`).
    pub listing: Vec<ListedTable>,
    /// The usable tables by file name.
    slots: HashMap<String, Slot>,
    /// Check payload checksums when opening.
    verify: bool,
}

/// A table the standard catalog builds (`gamedb build-all`), named as an example when the
/// served folder has none (a test keeps it in the catalog).
pub(crate) const CATALOG_EXAMPLE: &str = "nim-3x15.gtab";

/// Refuses a table name that is not a plain file name, with what is accepted; `example` gives
/// the name of a table served (or [`CATALOG_EXAMPLE`]), asked only for a refusal.
pub(crate) fn check_name<'a>(
    name: &str,
    example: impl FnOnce() -> &'a str,
) -> Result<(), ApiError> {
    let why = if name.is_empty() {
        Some("it is empty")
    } else if name.contains('\0') {
        Some("it holds a NUL byte")
    } else if name.starts_with('/') || name.starts_with('\\') {
        Some("it is an absolute path")
    } else if name.contains('/') || name.contains('\\') {
        Some("it holds a path separator")
    } else if name == "." || name == ".." || name.contains("..") {
        Some("it holds '..'")
    } else {
        None
    };
    match why {
        Some(why) => Err(ApiError::bad(format!(
            "table name '{}' is refused: {why}; expected the file name of a table in the served \
             folder, e.g. {} (GET /api/tables lists them)",
            crate::answer::echo(name),
            example()
        ))),
        None => Ok(()),
    }
}

impl Files {
    /// Reads the headers of the folder's tables (nothing else is read until asked).
    pub(crate) fn new(dir: Arc<TableDir>, verify: bool) -> Files {
        let listing = listing::list(&dir);
        let slots = listing
            .iter()
            .filter(|l| matches!(l.what, Described::Table { .. }))
            .map(|l| {
                let slot = Slot {
                    path: dir.path().join(&l.file),
                    name: l.file.clone(),
                    table: OnceLock::new(),
                    info: OnceLock::new(),
                    values: OnceLock::new(),
                    survey: OnceLock::new(),
                };
                (l.file.clone(), slot)
            })
            .collect();
        Files {
            dir,
            listing,
            slots,
            verify,
        }
    }

    /// A table name for messages: the first usable table of the folder, else a table the
    /// standard catalog builds.
    pub(crate) fn example(&self) -> &str {
        self.listing
            .iter()
            .find(|l| self.slots.contains_key(&l.file))
            .map_or(CATALOG_EXAMPLE, |l| l.file.as_str())
    }

    /// Number of usable tables.
    pub(crate) fn count(&self) -> usize {
        self.slots.len()
    }

    /// The slot of a table named by a request: 400 for a name that is not a plain file name,
    /// 404 for one that is not a usable table of the folder.
    pub(crate) fn slot(&self, name: &str) -> Result<&Slot, ApiError> {
        check_name(name, || self.example())?;
        if let Some(slot) = self.slots.get(name) {
            return Ok(slot);
        }
        let why = self
            .listing
            .iter()
            .find(|l| l.file == name)
            .and_then(|l| match &l.what {
                Described::Refused { error } => Some(error.clone()),
                Described::Table { .. } => None,
            });
        Err(ApiError::not_found(match why {
            Some(error) => error,
            None => format!(
                "no table '{name}' in {}; GET /api/tables lists the {} tables served",
                self.dir.path().display(),
                self.slots.len()
            ),
        }))
    }

    /// The open table of a slot, opening it (blocking: it maps the file and, unless told
    /// not to, reads the whole payload to check its checksum) if no request did yet.
    pub(crate) fn open(&self, slot: &Slot) -> Result<Arc<Table>, ApiError> {
        if let Some(t) = slot.table.get() {
            return Ok(t.clone());
        }
        if !listing::inside(self.dir.path(), &slot.path) {
            return Err(ApiError::not_found(format!(
                "{}: not served: it no longer resolves to a file inside {}",
                slot.path.display(),
                self.dir.path().display()
            )));
        }
        let table = self.dir.open(&slot.path, self.verify)?;
        Ok(slot.table.get_or_init(|| table).clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_name_is_answered_with_a_table_that_exists() {
        // A folder without tables: the example is one the standard catalog builds.
        let empty = std::env::temp_dir().join(format!("gamedb-files-{}", std::process::id()));
        let files = Files::new(Arc::new(TableDir::new(&empty)), false);
        assert_eq!(files.example(), CATALOG_EXAMPLE);
        let e = files.slot("../x.gtab").err().unwrap();
        assert!(e.body.contains(CATALOG_EXAMPLE), "{}", e.body);
        // A folder with a table: that table.
        std::fs::create_dir_all(&empty).unwrap();
        let spec = crate::Spec::samples()
            .into_iter()
            .find(|s| s.name() == "nim")
            .unwrap();
        let kind = spec.default_kind();
        let solved = spec.solve(kind, &()).unwrap();
        let path = empty.join(spec.file_name(kind));
        let encoded = crate::format::payload::encode(solved);
        crate::format::write_table(&path, &spec.meta(&encoded), &encoded.bytes).unwrap();
        let files = Files::new(Arc::new(TableDir::new(&empty)), false);
        assert_eq!(files.example(), spec.file_name(kind));
        let e = files.slot("a/b.gtab").err().unwrap();
        assert!(e.body.contains(&spec.file_name(kind)), "{}", e.body);
        std::fs::remove_dir_all(&empty).unwrap();
    }
}
