//! Catalogs: lists of tables to build, one per line in the words of `gamedb build` (`#`
//! starts a comment). `tables/catalog.txt` is the standard one; `gamedb build-all` builds a
//! catalog and `gamedb verify` reuses its tables.

use std::path::Path;

use clap::Parser;

use crate::games::Spec;
use crate::model::ValueKind;
use crate::{Error, Result};

use super::build::BuildTarget;

/// The standard catalog, also documented in `tables/README.md`.
pub const STANDARD: &str = include_str!("../../tables/catalog.txt");

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

/// The words after `gamedb build` that make the table file named `file_name` (no folder), e.g.
/// `nim --heaps 3 --max-heap 15` for `nim-3x15.gtab`: the standard catalog's line when it
/// builds that file, else the words of the spec whose file this is, found by reading the stem
/// against a game's declared parameters ([`spec_of_stem`]). `None` for a name no build
/// writes.
pub(crate) fn build_words(file_name: &str) -> Option<String> {
    let builds = |words: &str| -> bool {
        let Ok(line) =
            Line::try_parse_from(std::iter::once("build").chain(words.split_whitespace()))
        else {
            return false;
        };
        line.target
            .specs()
            .is_ok_and(|specs| specs.iter().any(|(s, k)| s.file_name(*k) == file_name))
    };
    let from_catalog = STANDARD
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find(|l| !l.is_empty() && builds(l));
    if let Some(line) = from_catalog {
        return Some(line.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    let stem = file_name.strip_suffix(&format!(".{}", crate::format::EXTENSION))?;
    let (entry, spec, kind) = spec_of_stem(stem)?;
    let words = entry.build_words(&spec, kind);
    builds(&words).then_some(words)
}

/// The spec and value kind of a registered game whose table file name stem is `stem`: the
/// stem read against the game's declared parameters. Its pieces (split at `-` and at the `x`
/// of a size such as `3x7`) are the values of the game's parameters in the order it declares
/// them (an optional one may be left out; a letter before a number, as in `k2`, and `_` for
/// the commas of a list are undone), the name of a switch that is on, a choice, and last a
/// value kind; a reading counts only when the spec it gives has this very stem. A game whose
/// stem reads otherwise gets no guess (the catalog's tables still lead back to their lines).
pub(crate) fn spec_of_stem(stem: &str) -> Option<(crate::games::Entry, Spec, ValueKind)> {
    use crate::game::{Arguments, ParamValue};
    for entry in crate::games::registry().games() {
        let short = entry.name.rsplit('/').next().unwrap_or(entry.name);
        let Some(rest) = stem.strip_prefix(short).and_then(|r| r.strip_prefix('-')) else {
            continue;
        };
        let pieces: Vec<&str> = rest.split('-').flat_map(|p| size(p)).collect();
        if pieces.len() > 12 || pieces.iter().any(|p| p.is_empty()) {
            continue;
        }
        // Each way of reading the pieces, one piece at a time against the parameters in
        // order: small enough to try them all (a handful of parameters and pieces).
        let mut found = None;
        let mut stack = vec![(0usize, 0usize, Arguments::new())];
        while let Some((param, piece, args)) = stack.pop() {
            if found.is_some() {
                break;
            }
            if param == entry.game_params.len() {
                let kinds: &[Option<&str>] = match pieces.len() - piece {
                    0 => &[None],
                    1 => &[Some(pieces[piece])],
                    _ => continue,
                };
                for &kind in kinds {
                    let mut args = args.clone();
                    if let Some(k) = kind {
                        args.set(crate::games::VALUES_PARAM, k);
                    }
                    if let Ok((spec, kind)) = entry.from_args(&args) {
                        if spec.table_stem(kind) == stem {
                            found = Some((*entry, spec, kind));
                        }
                    }
                }
                continue;
            }
            let p = &entry.game_params[param];
            // Leaving the parameter out (a switch off, a default choice, an optional value).
            if !matches!(p.value, ParamValue::Required(_)) {
                stack.push((param + 1, piece, args.clone()));
            }
            let Some(&text) = pieces.get(piece) else {
                continue;
            };
            let mut readings: Vec<String> = Vec::new();
            match p.value {
                ParamValue::Flag if text == p.name => readings.push("true".into()),
                ParamValue::Flag => {}
                ParamValue::Choice { choices, .. } if choices.contains(&text) => {
                    readings.push(text.into())
                }
                ParamValue::Choice { .. } => {}
                ParamValue::Required(_) | ParamValue::Optional(_) => {
                    readings.push(text.replace('_', ","));
                    let digits = text.trim_start_matches(|c: char| c.is_ascii_lowercase());
                    if digits.len() < text.len() && digits.starts_with(|c: char| c.is_ascii_digit())
                    {
                        readings.push(digits.into());
                    }
                }
            }
            for value in readings {
                stack.push((param + 1, piece + 1, args.clone().with(p.name, value)));
            }
        }
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A piece of a stem, and a size `RxC` (two numbers) as its two numbers.
fn size(piece: &str) -> Vec<&str> {
    match piece.split_once('x') {
        Some((a, b))
            if !a.is_empty()
                && !b.is_empty()
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.bytes().all(|c| c.is_ascii_digit()) =>
        {
            vec![a, b]
        }
        _ => vec![piece],
    }
}

/// Why the table file `path` cannot be opened when it does not exist, and what to do, in one
/// line (without the path, which the error shows first): `gamedb list` for the tables there,
/// `gamedb build-all` for the standard catalog, and the `gamedb build` command that makes this
/// table when its name is one a build writes.
pub(crate) fn missing_table(path: &Path) -> String {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let default = dir.is_none_or(|d| d == Path::new("tables"));
    let (list, out) = match dir {
        Some(d) if !default => (
            format!(" {}", d.display()),
            format!(" --out {}", d.display()),
        ),
        _ => (String::new(), String::new()),
    };
    let build = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(build_words)
        .map(|w| format!("build it with `gamedb build {w}{out}`; "))
        .unwrap_or_default();
    format!(
        "no such table file (it does not exist); {build}`gamedb list{list}` shows the tables \
         there, `gamedb build-all{out}` builds the standard catalog"
    )
}

/// What a front end says of the error `e`: its message, and for a table file that does not
/// exist ([`Error::NoTable`]) what to do ([`missing_table`]) after the path.
pub(crate) fn explain(e: &Error) -> String {
    match e {
        Error::NoTable { path } => format!("{}: {}", path.display(), missing_table(path)),
        e => e.to_string(),
    }
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
    fn file_names_lead_back_to_their_build_commands() {
        for (name, words) in [
            // Lines of the standard catalog, as written there.
            ("nim-3x15.gtab", Some("nim --heaps 3 --max-heap 15")),
            (
                "chomp-10x10-grundy.gtab",
                Some("chomp --rows 10 --cols 10 --values grundy"),
            ),
            (
                "wythoff-1024-grundy.gtab",
                Some("wythoff --max-heap 1024 --values grundy"),
            ),
            ("pdb-4x4-2-4.gtab", Some("fifteen --partition 6-6-3")),
            // Tables outside the catalog, from each game's stem read against its parameters.
            ("nim-3x7.gtab", Some("nim --heaps 3 --max-heap 7")),
            (
                "nim-4x9-k2-misere.gtab",
                Some("nim --heaps 4 --max-heap 9 --max-take 2 --misere"),
            ),
            ("chomp-10x11.gtab", Some("chomp --rows 10 --cols 11")),
            (
                "chomp-7x7-grundy.gtab",
                Some("chomp --rows 7 --cols 7 --values grundy"),
            ),
            ("chomp3-500.gtab", Some("chomp3 --max 500")),
            ("wythoff-77.gtab", Some("wythoff --max-heap 77")),
            ("slide-3x4.gtab", Some("slide --rows 3 --cols 4")),
            (
                "candy-n15-k3-odd.gtab",
                Some("candy --max-candies 15 --max-take 3 --win odd"),
            ),
            (
                "subtraction-1_3_4-40-outcome.gtab",
                Some("subtraction --set 1,3,4 --max-heap 40 --values outcome"),
            ),
            (
                "octal-0.137-30.gtab",
                Some("octal --code 0.137 --max-heap 30"),
            ),
            (
                "octal-grundy-30.gtab",
                Some("octal --code grundy --max-heap 30"),
            ),
            // A pattern database outside the catalog: its stem writes the tiles as ranges
            // (`1-3_5`), which a reading piece by piece does not undo.
            ("pdb-3x3-1-3_5.gtab", None),
            // Names no build writes: unknown games, bad numbers, kinds a game lacks, names
            // that parse but are not written so (leading zeros), other extensions.
            ("nope.gtab", None),
            ("chess-8x8.gtab", None),
            ("nim-3x7-grundy-misere.gtab", None),
            ("nim-0x7.gtab", None),
            ("nim-03x7.gtab", None),
            ("nim-3x7", None),
            ("nim-3x7.txt", None),
            ("slide-3x3-grundy.gtab", None),
            ("chomp-10x10-misere.gtab", None),
            ("wythoff--1.gtab", None),
            ("", None),
        ] {
            assert_eq!(build_words(name).as_deref(), words, "{name}");
        }
        // Every table of the standard catalog leads back to its line.
        for e in parse(STANDARD, "standard catalog").unwrap() {
            let name = e.spec.file_name(e.kind);
            let words = build_words(&name).unwrap_or_else(|| panic!("{name}"));
            let line = STANDARD.lines().nth(e.line - 1).unwrap();
            assert_eq!(
                words,
                line.split_whitespace().collect::<Vec<_>>().join(" "),
                "{name}"
            );
        }
        // Every sample (each value kind) of every game whose stems read back (all but the
        // pattern databases) leads back to a command building it.
        for spec in Spec::samples() {
            for &kind in spec.value_kinds() {
                let name = spec.file_name(kind);
                if spec.name() == "pdb" {
                    continue;
                }
                assert!(build_words(&name).is_some(), "{name}");
            }
        }
    }

    #[test]
    fn a_missing_table_says_what_to_do() {
        let m = missing_table(Path::new("tables/chomp-10x10-grundy.gtab"));
        assert!(m.contains("does not exist"), "{m}");
        assert!(
            m.contains("`gamedb build chomp --rows 10 --cols 10 --values grundy`"),
            "{m}"
        );
        assert!(m.contains("`gamedb list`"), "{m}");
        assert!(m.contains("`gamedb build-all`"), "{m}");
        assert!(!m.contains('\n'), "{m}");
        let m = missing_table(Path::new("/tmp/t/nim-3x7.gtab"));
        assert!(
            m.contains("`gamedb build nim --heaps 3 --max-heap 7 --out /tmp/t`"),
            "{m}"
        );
        assert!(m.contains("`gamedb list /tmp/t`"), "{m}");
        assert!(m.contains("`gamedb build-all --out /tmp/t`"), "{m}");
        let m = missing_table(Path::new("nope.gtab"));
        assert!(!m.contains("gamedb build "), "{m}");
        assert!(m.contains("`gamedb list`"), "{m}");
    }

    #[test]
    fn the_service_example_is_a_catalog_table() {
        let name = crate::service::files::CATALOG_EXAMPLE;
        assert!(parse(STANDARD, "standard catalog")
            .unwrap()
            .iter()
            .any(|e| e.spec.file_name(e.kind) == name));
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
