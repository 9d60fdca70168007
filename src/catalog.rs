//! Catalogs: lists of tables to build, one per line in the words of `gamedb build` (`#`
//! starts a comment). `tables/catalog.txt` is the standard one; `gamedb build-all` builds a
//! catalog and `gamedb verify` reuses its tables.

use clap::Parser;

use crate::build::BuildTarget;
use crate::game::ValueKind;
use crate::games::Spec;
use crate::{Error, Result};

/// The standard catalog, also documented in `tables/README.md`.
pub const STANDARD: &str = include_str!("../tables/catalog.txt");

/// One table of a catalog.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The line it was read from (1-based).
    pub line: usize,
    /// The game and parameters.
    pub spec: Spec,
    /// The value kind.
    pub kind: ValueKind,
}

/// One catalog line read as `gamedb build` arguments.
#[derive(Parser)]
#[command(name = "build", no_binary_name = false)]
struct Line {
    #[command(subcommand)]
    target: BuildTarget,
}

/// Parses a catalog; the first bad line is reported with its number and text (`origin` names
/// the catalog in messages).
pub fn parse(text: &str, origin: &str) -> Result<Vec<Entry>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let words: Vec<&str> = raw
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        if words.is_empty() {
            continue;
        }
        let line = Line::try_parse_from(std::iter::once("build").chain(words.iter().copied()))
            .map_err(|e| {
                let msg = e.to_string();
                let first = msg.lines().next().unwrap_or("").trim_start_matches("error: ");
                Error::bad(format!(
                    "{origin} line {}: '{}': {first}; expected the words of `gamedb build`, e.g. `nim --heaps 3 --max-heap 15`",
                    i + 1,
                    crate::answer::echo(raw.trim())
                ))
            })?;
        let specs = line
            .target
            .specs()
            .map_err(|e| Error::bad(format!("{origin} line {}: {e}", i + 1)))?;
        for (spec, kind) in specs {
            out.push(Entry {
                line: i + 1,
                spec,
                kind,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_catalog_parses() {
        let entries = parse(STANDARD, "standard catalog").unwrap();
        assert!(entries.len() > 20);
        assert!(entries
            .iter()
            .any(|e| e.spec.name() == "chomp" && e.kind == ValueKind::Grundy));
    }

    #[test]
    fn bad_lines_are_named() {
        for (text, want) in [
            (
                "nim --heaps 3 --max-heap 15\nnim --heaps 0 --max-heap 3\n",
                "line 2",
            ),
            ("chess --rows 8\n", "line 1: 'chess --rows 8'"),
            ("nim --heaps 3\n", "--max-heap"),
        ] {
            let err = parse(text, "cat").unwrap_err().to_string();
            assert!(err.contains(want), "{err}");
        }
    }
}
