//! The documents that list the table format's codes, held to the code: the value kinds and
//! encodings of `tables/README.md` (the specification), of `src/format/mod.rs`'s module doc
//! and of `src/gamedb.h` (the C ABI's `GAMEDB_VALUES_*`), the value kind and encoding pairs of
//! `src/format/payload.rs`'s module doc, and the rules versions the README states. A document
//! that lists a code the code does not have, gives one a wrong code or name, or misses one
//! fails here, so they cannot drift from the code again.
//!
//! The lists are tables with a row per code (`| code | value kind | ...`), read as text; only
//! files of the repository are read.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::ROOT;
use gamedb::format::{value_kind_code, Encoding};
use gamedb::model::ValueKind;

/// A file of the repository as text.
fn read(path: &str) -> String {
    let full = Path::new(ROOT).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The text of a Rust file's module doc (its `//!` lines, the marker and one space removed).
fn module_doc(source: &str) -> String {
    source
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The cells of a Markdown table's line, trimmed; `None` for a line that is no table row.
fn cells(line: &str) -> Option<Vec<String>> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    Some(inner.split('|').map(|c| c.trim().to_string()).collect())
}

/// The rows (under the header and its rule) of the one Markdown table of `text` whose header
/// begins with the cells `header`; an error when there is none or more than one.
fn table(text: &str, header: &[&str], what: &str) -> Result<Vec<Vec<String>>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let Some(head) = cells(line) else { continue };
        if head.len() < header.len() || head[..header.len()] != *header {
            continue;
        }
        let rows: Vec<Vec<String>> = lines[at + 1..]
            .iter()
            .map_while(|l| cells(l))
            .filter(|row| !row.iter().all(|c| c.chars().all(|ch| "-: ".contains(ch))))
            .collect();
        found.push(rows);
    }
    match found.len() {
        1 => Ok(found.pop().expect("one table")),
        0 => Err(format!(
            "{what}: no table whose header begins | {} |",
            header.join(" | ")
        )),
        n => Err(format!(
            "{what}: {n} tables whose header begins | {} |",
            header.join(" | ")
        )),
    }
}

/// The names written in backticks in a cell: `` `u8`, `u16` `` gives `u8` and `u16`.
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

/// The one backticked name of a cell.
fn name_of(cell: &str, what: &str) -> Result<String, String> {
    match ticked(cell).as_slice() {
        [name] if cell == format!("`{name}`") => Ok(name.clone()),
        _ => Err(format!("{what}: the name cell {cell:?} is not one `name`")),
    }
}

/// The `(code, name)` rows of a table whose first two columns are a code and a name.
fn coded(rows: &[Vec<String>], what: &str) -> Result<Vec<(u32, String)>, String> {
    rows.iter()
        .map(|row| {
            let code = row[0]
                .parse()
                .map_err(|_| format!("{what}: the code cell {:?} is not a number", row[0]))?;
            let name = name_of(row.get(1).map_or("", String::as_str), what)?;
            Ok((code, name))
        })
        .collect()
}

/// What a document lists against what the code has: `Ok` when they are the same, in the order
/// of their codes; else an error naming what the document has too many, lacks, or repeats.
fn same<T: Ord + Clone + std::fmt::Debug>(
    listed: &[T],
    code: &[T],
    what: &str,
) -> Result<(), String> {
    if listed == code {
        return Ok(());
    }
    let (l, c): (BTreeSet<&T>, BTreeSet<&T>) = (listed.iter().collect(), code.iter().collect());
    let extra: Vec<&&T> = l.difference(&c).collect();
    let missing: Vec<&&T> = c.difference(&l).collect();
    Err(format!(
        "{what}: the document lists {extra:?}, which the code does not have, and misses \
         {missing:?} (listed: {listed:?}; the code: {code:?}, a row each, in the order of the \
         codes)"
    ))
}

/// Every value kind with its header code and name, in the order of the codes.
fn value_kinds() -> Vec<(u32, String)> {
    let mut kinds: Vec<(u32, String)> = ValueKind::ALL
        .into_iter()
        .map(|k| (value_kind_code(k), k.name().to_string()))
        .collect();
    kinds.sort();
    kinds
}

/// Every encoding with its header code and name, in the order of the codes.
fn encodings() -> Vec<(u32, String)> {
    let mut all: Vec<(u32, String)> = Encoding::ALL
        .into_iter()
        .map(|e| (e.code(), e.name().to_string()))
        .collect();
    all.sort();
    all
}

/// The names of the encodings a value kind may take.
fn encodings_of(kind: ValueKind) -> BTreeSet<String> {
    Encoding::ALL
        .into_iter()
        .filter(|e| e.holds(kind))
        .map(|e| e.name().to_string())
        .collect()
}

/// The checks of `tables/README.md`'s text: its value kind table (code, name, and the
/// encodings each may take) and its encoding table.
fn check_readme(text: &str) -> Result<(), String> {
    let what = "tables/README.md, the value kinds";
    let rows = table(text, &["code", "value kind", "encodings"], what)?;
    same(&coded(&rows, what)?, &value_kinds(), what)?;
    for row in &rows {
        let kind = ValueKind::ALL
            .into_iter()
            .find(|k| k.name() == name_of(&row[1], what).unwrap_or_default())
            .expect("a listed kind, checked above");
        let listed: BTreeSet<String> = ticked(&row[2]).into_iter().collect();
        if listed != encodings_of(kind) {
            return Err(format!(
                "{what}: {} is stored as {listed:?} there, as {:?} by the code \
                 (Encoding::holds)",
                kind.name(),
                encodings_of(kind)
            ));
        }
    }
    let what = "tables/README.md, the encodings";
    let rows = table(text, &["code", "encoding"], what)?;
    same(&coded(&rows, what)?, &encodings(), what)
}

/// The checks of `src/format/mod.rs`'s module doc: its value kind and encoding tables.
fn check_format_doc(doc: &str) -> Result<(), String> {
    let what = "src/format/mod.rs, the value kinds";
    let rows = table(doc, &["code", "value kind"], what)?;
    same(&coded(&rows, what)?, &value_kinds(), what)?;
    let what = "src/format/mod.rs, the encodings";
    let rows = table(doc, &["code", "encoding"], what)?;
    same(&coded(&rows, what)?, &encodings(), what)
}

/// The check of `src/gamedb.h`: a `#define GAMEDB_VALUES_NAME CODE` for each value kind.
fn check_c_header(header: &str) -> Result<(), String> {
    let mut defined: Vec<(u32, String)> = Vec::new();
    for line in header.lines() {
        let Some(rest) = line.strip_prefix("#define GAMEDB_VALUES_") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let name = words.next().unwrap_or_default().to_lowercase();
        let code = words
            .next()
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| format!("src/gamedb.h: {line:?} defines no number"))?;
        defined.push((code, name));
    }
    same(
        &defined,
        &value_kinds(),
        "src/gamedb.h, the GAMEDB_VALUES_* codes",
    )
}

/// The check of `src/format/payload.rs`'s module doc: a row per value kind and encoding it may
/// take, in the order of the kinds' codes.
fn check_payload_doc(doc: &str) -> Result<(), String> {
    let what = "src/format/payload.rs, the value kinds' encodings";
    let rows = table(doc, &["value kind", "encoding"], what)?;
    let listed: Vec<(String, String)> = rows
        .iter()
        .map(|row| Ok((name_of(&row[0], what)?, name_of(&row[1], what)?)))
        .collect::<Result<_, String>>()?;
    let mut kinds = ValueKind::ALL.to_vec();
    kinds.sort_by_key(|&k| value_kind_code(k));
    let code: Vec<(String, String)> = kinds
        .into_iter()
        .flat_map(|k| {
            Encoding::ALL
                .into_iter()
                .filter(move |e| e.holds(k))
                .map(move |e| (k.name().to_string(), e.name().to_string()))
        })
        .collect();
    same(&listed, &code, what)
}

/// The check of the rules versions `tables/README.md` states: the games its `rules_version`
/// row names as exceptions (`except NAME (V), ...`), and each game's section (`Name `NAME``,
/// followed by `, rules version V` where it is not 1).
fn check_rules_versions(text: &str) -> Result<(), String> {
    let games = gamedb::registry().games();
    let row = text
        .lines()
        .find(|l| l.contains("| `rules_version`"))
        .ok_or("tables/README.md: no `rules_version` row")?;
    let after = row
        .split_once("except ")
        .ok_or("tables/README.md: the `rules_version` row names no exception (`except ...`)")?
        .1;
    let mut stated: Vec<(String, u32)> = Vec::new();
    for item in after.split(", ") {
        let Some((name, rest)) = item.split_once(" (") else {
            break;
        };
        let Some(Ok(version)) = rest.strip_suffix(')').map(str::parse::<u32>) else {
            break;
        };
        stated.push((name.to_string(), version));
    }
    let mut code: Vec<(String, u32)> = games
        .iter()
        .filter(|g| g.rules_version != 1)
        .map(|g| (g.name.to_string(), g.rules_version))
        .collect();
    stated.sort();
    code.sort();
    same(
        &stated,
        &code,
        "tables/README.md's `rules_version` row, the games not at 1",
    )?;
    for g in games {
        let name = format!("Name `{}`", g.name);
        let Some((_, rest)) = text.split_once(&name) else {
            return Err(format!("tables/README.md: no section says {name}"));
        };
        let said = match rest.strip_prefix(", rules version ") {
            Some(v) => v
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|v| v.parse().ok())
                .ok_or(format!(
                    "tables/README.md: {name}'s rules version is not a number"
                ))?,
            None => 1,
        };
        if said != g.rules_version {
            return Err(format!(
                "tables/README.md: {name} says rules version {said}, the game is at {}",
                g.rules_version
            ));
        }
    }
    Ok(())
}

#[test]
fn readme_lists_every_value_kind_and_encoding_with_its_code() {
    check_readme(&read("tables/README.md")).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn format_module_doc_lists_every_value_kind_and_encoding_with_its_code() {
    check_format_doc(&module_doc(&read("src/format/mod.rs"))).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn c_header_defines_every_value_kind_with_its_code() {
    check_c_header(&read("src/gamedb.h")).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn payload_doc_lists_the_encodings_each_value_kind_may_take() {
    check_payload_doc(&module_doc(&read("src/format/payload.rs")))
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn readme_states_every_games_rules_version() {
    check_rules_versions(&read("tables/README.md")).unwrap_or_else(|e| panic!("{e}"));
}

/// The checks catch what they are for: a row the code does not have, a wrong code, a missing
/// row, each in each document.
#[test]
fn the_checks_catch_a_bogus_a_wrong_and_a_missing_row() {
    let readme = read("tables/README.md");
    let format_doc = module_doc(&read("src/format/mod.rs"));
    let header = read("src/gamedb.h");
    let payload_doc = module_doc(&read("src/format/payload.rs"));
    // A change of the line holding `find` to `to` (the line kept), which must be refused.
    let refused = |check: fn(&str) -> Result<(), String>, text: &str, find: &str, to: &str| {
        let line = text
            .lines()
            .find(|l| l.contains(find))
            .unwrap_or_else(|| panic!("no line holds {find:?}"));
        let changed = text.replacen(line, &to.replace("{line}", line), 1);
        assert_ne!(changed, text);
        let err = check(&changed).expect_err(&format!("{find:?} changed to {to:?} passes"));
        assert!(!err.is_empty());
    };
    // README: a bogus kind, a bogus encoding, a wrong code, a missing row, a wrong encoding.
    let bogus_kind = "{line}\n| 8 | `bogus` | `u8` | a value no code has |";
    refused(check_readme, &readme, "| 7 | `dtz` |", bogus_kind);
    refused(
        check_readme,
        &readme,
        "| 6 | `u2` |",
        "{line}\n| 7 | `u32` | four bytes | `4n` |",
    );
    refused(
        check_readme,
        &readme,
        "| 5 | `u24` |",
        "| 7 | `u24` | three bytes | `3n` |",
    );
    refused(check_readme, &readme, "| 6 | `wlt` |", "");
    refused(
        check_readme,
        &readme,
        "| 6 | `wlt` |",
        "| 6 | `wlt` | `u2`, `u8` | wlt |",
    );
    // The format module's doc, the C header, the payload doc.
    let bogus = "{line}\n| 8 | `bogus` | a value no code has |";
    refused(check_format_doc, &format_doc, "| `dtz`", bogus);
    refused(check_format_doc, &format_doc, "| `mod3`", "");
    refused(
        check_c_header,
        &header,
        "GAMEDB_VALUES_DTZ",
        "{line}\n#define GAMEDB_VALUES_X 8",
    );
    refused(
        check_c_header,
        &header,
        "GAMEDB_VALUES_WLT 6",
        "#define GAMEDB_VALUES_WLT 9",
    );
    refused(check_c_header, &header, "GAMEDB_VALUES_EXTENSION", "");
    refused(
        check_payload_doc,
        &payload_doc,
        "| `wlt`",
        "{line}\n| `wlt` | `u8` | no |",
    );
    refused(check_payload_doc, &payload_doc, "(a distance > 15)", "");
    // The rules versions: a game said to be at another, or an exception left out.
    refused(
        check_rules_versions,
        &readme,
        "Name `chess`, rules",
        "Name `chess`, rules version 2",
    );
    refused(
        check_rules_versions,
        &readme,
        "Name `nim`.",
        "Name `nim`, rules version 2.",
    );
    refused(
        check_rules_versions,
        &readme,
        "| `rules_version`",
        "| `rules_version` | 1 always |",
    );
}
