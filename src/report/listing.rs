//! `gamedb list DIR` and `GET /api/tables`: the tables of a folder, each named by its file and
//! described by its header (never by its name).
//!
//! A file whose header cannot be read, or that is a link to a file outside the folder, is
//! listed with the reason it is not served instead of its contents.

use std::path::Path;

use serde::Serialize;

use crate::tables::TableDir;

/// One `*.gtab` file of a folder. JSON keys: `file`, then either `game`, `description`,
/// `parameters`, `known`, `values`, `encoding`, `entries`, `bytes`, or `error`.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ListedTable {
    /// The file name (no folder).
    pub file: String,
    /// What the header says, or why the file is not a table that can be used.
    #[serde(flatten)]
    pub what: Described,
}

/// What a listed file holds.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum Described {
    /// A table, by its header.
    Table {
        /// The game's name as the header gives it (`nim`, `chomp`, ...).
        game: String,
        /// The game and parameters for people.
        description: String,
        /// The parameters as the header gives them (`heaps=3,max-heap=7`).
        parameters: String,
        /// Whether this program knows the game (answers its positions); a table of a game
        /// it does not know is answered by index only.
        known: bool,
        /// The value kind's name.
        values: &'static str,
        /// The encoding's name.
        encoding: &'static str,
        /// Number of positions.
        entries: u64,
        /// File size.
        bytes: u64,
    },
    /// Not usable, and why.
    Refused {
        /// The reason, naming the file.
        error: String,
    },
}

impl ListedTable {
    /// True for a usable table.
    pub(crate) fn is_table(&self) -> bool {
        matches!(self.what, Described::Table { .. })
    }
}

/// Whether `path` (a file listed in `folder`) resolves to a file inside `folder`: false for a
/// link out of it, or a file that cannot be resolved.
pub(crate) fn inside(folder: &Path, path: &Path) -> bool {
    match (folder.canonicalize(), path.canonicalize()) {
        (Ok(folder), Ok(file)) => file.parent() == Some(folder.as_path()),
        _ => false,
    }
}

/// Every `*.gtab` file of the folder, sorted by name.
pub(crate) fn list(dir: &TableDir) -> Vec<ListedTable> {
    dir.list()
        .iter()
        .map(|l| {
            let what = match &l.holds {
                _ if !inside(dir.path(), &l.path) => Described::Refused {
                    error: format!(
                        "{}: not served: it is a link to a file outside {}",
                        l.path.display(),
                        dir.path().display()
                    ),
                },
                Ok(h) => Described::Table {
                    game: h.header.game.clone(),
                    description: match &h.spec {
                        Some(spec) => spec.describe().to_string(),
                        None => h.describe(),
                    },
                    parameters: h.header.parameters.clone(),
                    known: h.spec.is_some(),
                    values: h.kind.name(),
                    encoding: h.header.encoding.name(),
                    entries: h.header.entry_count,
                    bytes: std::fs::metadata(&l.path).map_or(0, |m| m.len()),
                },
                Err(e) => Described::Refused { error: e.clone() },
            };
            ListedTable {
                file: l.name.clone(),
                what,
            }
        })
        .collect()
}

/// The listing as one JSON array on one line.
pub(crate) fn to_json(listing: &[ListedTable]) -> String {
    serde_json::to_string(listing).unwrap_or_default()
}

/// The listing as aligned lines for people.
pub(crate) fn to_text(listing: &[ListedTable]) -> String {
    let width = listing
        .iter()
        .map(|l| l.file.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!(
        "{:<width$}  {:>14}  {:<8}  game\n",
        "file", "entries", "values"
    );
    for l in listing {
        out += &match &l.what {
            Described::Table {
                description,
                values,
                entries,
                ..
            } => format!(
                "{:<width$}  {entries:>14}  {values:<8}  {description}\n",
                l.file
            ),
            Described::Refused { error } => {
                format!("{:<width$}  {:>14}  {:<8}  {error}\n", l.file, "-", "-")
            }
        };
    }
    let tables = listing.iter().filter(|l| l.is_table()).count();
    out += &format!(
        "{tables} table{}{}",
        if tables == 1 { "" } else { "s" },
        match listing.len() - tables {
            0 => String::new(),
            n => format!(", {n} file{} refused", if n == 1 { "" } else { "s" }),
        }
    );
    out
}
