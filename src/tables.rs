//! A folder of tables: the one place that finds tables, checks what they are, and opens them.
//!
//! A table is identified by its header (game, parameters, value kind), never by its file name.
//! [`TableDir`] reads the header of every `*.gtab` file in its folder once (528 bytes each),
//! finds the table a command asks for among them (the file with the standard name first, any
//! other file whose header matches next), refuses a file whose name promises one table while
//! its header says another, and opens tables lazily, once, sharing them between callers.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::format::{self, Header};
use crate::games::{NotKnown, Spec};
use crate::lookup::Table;
use crate::model::ValueKind;
use crate::{Error, Result};

/// One `*.gtab` file of a folder and what its header says.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The file.
    pub path: PathBuf,
    /// The file name.
    pub name: String,
    /// The table it holds, or why its header cannot be read (the message names the file).
    pub holds: std::result::Result<Holds, String>,
}

/// What a table file's header says it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Holds {
    /// The game and parameters; `None` for a game this program does not know (the header's
    /// game name and parameter text say what it is).
    pub spec: Option<Spec>,
    /// The value kind.
    pub kind: ValueKind,
    /// The whole header.
    pub header: Header,
}

impl Listed {
    /// Whether the header says this file holds `spec` with `kind` values.
    pub fn is(&self, spec: &Spec, kind: ValueKind) -> bool {
        matches!(&self.holds, Ok(h) if h.spec.as_ref() == Some(spec) && h.kind == kind)
    }
}

impl Holds {
    /// What the table holds, for people: the game's description, or for a game this program
    /// does not know the header's game name and parameters.
    pub fn describe(&self) -> String {
        match &self.spec {
            Some(spec) => spec.describe_table(self.kind),
            None => format!(
                "{} {} (a game not known to this build; {} values)",
                self.header.game,
                self.header.parameters,
                self.kind.name()
            ),
        }
    }
}

/// A folder of tables. Cheap to create: nothing is read until a table is asked for.
pub struct TableDir {
    path: PathBuf,
    listing: OnceLock<Vec<Listed>>,
    open: Mutex<HashMap<PathBuf, Opened>>,
}

/// A table opened by the folder, and whether its payload checksum was checked.
struct Opened {
    table: Arc<Table>,
    verified: bool,
}

/// What a header says, read from `path`; the error names the file.
pub(crate) fn holds(path: &Path) -> Result<Holds> {
    let header = format::read_header(path)?;
    let spec =
        match crate::games::registry().spec(&header.game, header.rules_version, &header.parameters)
        {
            Ok(spec) => Some(spec),
            Err(NotKnown::Parameters(what)) => return Err(Error::corrupt(path, what)),
            Err(_) => None,
        };
    Ok(Holds {
        spec,
        kind: header.value_kind,
        header,
    })
}

impl TableDir {
    /// The folder at `path` (which need not exist: it then holds no tables).
    pub fn new(path: impl Into<PathBuf>) -> TableDir {
        TableDir {
            path: path.into(),
            listing: OnceLock::new(),
            open: Mutex::new(HashMap::new()),
        }
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every `*.gtab` file of the folder with what its header says, sorted by name; read once.
    pub fn list(&self) -> &[Listed] {
        self.listing.get_or_init(|| {
            let Ok(entries) = std::fs::read_dir(&self.path) else {
                return Vec::new();
            };
            let mut out: Vec<Listed> = entries
                .flatten()
                .filter_map(|e| {
                    let name = e.file_name().to_str()?.to_string();
                    let table_file = name.ends_with(&format!(".{}", format::EXTENSION))
                        && !name.starts_with('.');
                    table_file.then(|| {
                        let path = e.path();
                        Listed {
                            holds: holds(&path).map_err(|e| e.to_string()),
                            path,
                            name,
                        }
                    })
                })
                .collect();
            out.sort_by(|a, b| a.name.cmp(&b.name));
            out
        })
    }

    /// The file holding `spec` with `kind` values, by header: the file with the standard name
    /// when its header says so, else the first other file whose header says so, else `None`.
    ///
    /// A file under the standard name that holds another table, or whose header is damaged,
    /// is refused with an error naming the file and what it holds (when no other file of the
    /// folder holds the table): a name must never make gamedb answer from the wrong table.
    pub fn find(&self, spec: &Spec, kind: ValueKind) -> Result<Option<PathBuf>> {
        let standard = spec.file_name(kind);
        let listed = self.list();
        if let Some(l) = listed
            .iter()
            .find(|l| l.name == standard && l.is(spec, kind))
        {
            return Ok(Some(l.path.clone()));
        }
        if let Some(l) = listed.iter().find(|l| l.is(spec, kind)) {
            return Ok(Some(l.path.clone()));
        }
        match listed.iter().find(|l| l.name == standard) {
            None => Ok(None),
            Some(l) => Err(Error::bad(match &l.holds {
                Ok(h) => format!(
                    "{}: the file is named as the table of {}, but its header says it holds {}; \
                     rename or rebuild it",
                    l.path.display(),
                    spec.describe_table(kind),
                    h.describe()
                ),
                Err(e) => e.clone(),
            })),
        }
    }

    /// Every table of the folder whose header is readable and satisfies `pred`.
    pub fn matching(&self, pred: impl Fn(&Holds) -> bool) -> Vec<(&Listed, &Holds)> {
        self.list()
            .iter()
            .filter_map(|l| match &l.holds {
                Ok(h) if pred(h) => Some((l, h)),
                _ => None,
            })
            .collect()
    }

    /// Opens the table file at `path` (once; later calls share it). With `verify`, its payload
    /// checksum is checked (once).
    pub fn open(&self, path: &Path, verify: bool) -> Result<Arc<Table>> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(o) = open.get_mut(path) {
            if verify && !o.verified {
                o.table.verify()?;
                o.verified = true;
            }
            return Ok(o.table.clone());
        }
        let table = Table::open(path)?;
        if verify {
            table.verify()?;
        }
        let table = Arc::new(table);
        open.insert(
            path.to_path_buf(),
            Opened {
                table: table.clone(),
                verified: verify,
            },
        );
        Ok(table)
    }

    /// Opens the table of `spec` with `kind` values ([`find`](TableDir::find) it, then
    /// [`open`](TableDir::open) it), checking that the opened header still says so.
    pub fn table(&self, spec: &Spec, kind: ValueKind, verify: bool) -> Result<Option<Arc<Table>>> {
        let Some(path) = self.find(spec, kind)? else {
            return Ok(None);
        };
        let table = self.open(&path, verify)?;
        if table.spec() != Some(spec) || table.value_kind() != kind {
            return Err(Error::bad(format!(
                "{}: holds {}, not {} (was it replaced while gamedb ran?)",
                path.display(),
                table.describe(),
                spec.describe_table(kind)
            )));
        }
        Ok(Some(table))
    }
}
