//! The crate's layers point one way (issue 9): read from the source files, every violation
//! listed with its file and line.
//!
//! * a game (any file under `src/games/`) uses only the trait family (`crate::game`), the
//!   solvers (`crate::solve`), other game files, and the leaves (`Error`, `Result`,
//!   `progress`, `resources`): no lookups, table folders, file format, answers, reports,
//!   verify, streams, 15-puzzle service or command line; a game file other than the registry
//!   (`src/games/mod.rs`) does not use the registry (`Spec`, `GAMES`, `BuildGame`);
//! * a solver (`src/solve/`) knows no game: it uses only `crate::game`, `crate::solve` and
//!   the leaves;
//! * `src/json.rs` is gone (serde writes JSON);
//! * no file under `src/`, no `README.md` cites `THEOREMS.md` or a seed by number (`seed
//!   003`): the statements live in `src/verify/STATEMENTS.md`, their sources named in words.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every file under `dir` (recursively) whose name ends with one of `exts`, sorted.
fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if exts.iter().any(|x| p.to_string_lossy().ends_with(x)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The file's name relative to the crate root, for messages.
fn shown(p: &Path) -> String {
    p.strip_prefix(ROOT).unwrap_or(p).display().to_string()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths a use tree starting at `text` names, each as its segments: `a::b::{c, d::e}`
/// gives `[a, b, c]` and `[a, b, d, e]`; `a::b(...)` gives `[a, b]`. Returns the paths and the
/// bytes read.
fn use_tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let mut segments = Vec::new();
    let mut named_self = false;
    let mut at = 0;
    loop {
        let rest = &text[at..];
        let skipped = rest.len() - rest.trim_start().len();
        at += skipped;
        let rest = &text[at..];
        if let Some(group) = rest.strip_prefix('{') {
            // A group: each member is a tree of its own.
            let mut paths = Vec::new();
            let mut read = 1;
            let mut inner = group;
            loop {
                let trimmed = inner.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
                read += inner.len() - trimmed.len();
                inner = trimmed;
                if inner.is_empty() {
                    break;
                }
                if let Some(after) = inner.strip_prefix('}') {
                    read += 1;
                    inner = after;
                    let _ = inner;
                    break;
                }
                let (members, used) = use_tree(inner);
                if used == 0 {
                    // Not a path (`self`, `*` or an unexpected character): skip one char.
                    let skip = inner.chars().next().map_or(1, char::len_utf8);
                    read += skip;
                    inner = &inner[skip..];
                    continue;
                }
                for m in members {
                    let mut p = segments.clone();
                    p.extend(m);
                    paths.push(p);
                }
                read += used;
                inner = &inner[used..];
            }
            return (paths, at + read);
        }
        let ident: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        if ident.is_empty() {
            break;
        }
        at += ident.len();
        // `a::{self, ...}` names `a` itself.
        if ident == "self" {
            named_self = true;
        } else {
            segments.push(ident);
        }
        match text[at..].strip_prefix("::") {
            Some(_) => at += 2,
            None => break,
        }
    }
    // `path as alias`: the alias is no path.
    let rest = &text[at..];
    if let Some(alias) = rest.trim_start().strip_prefix("as ") {
        let alias = alias.trim_start();
        let name = alias.chars().take_while(|&c| is_ident(c)).count();
        at += rest.len() - alias.len() + name;
    }
    if segments.is_empty() && !named_self {
        (Vec::new(), 0)
    } else {
        (vec![segments], at)
    }
}

/// Every crate path the code of a file names (`crate::x::...` anywhere outside comments, and
/// `super::x` taken relative to `parent`, the module path of the file's parent), with the
/// line it starts on. Groups are expanded.
fn crate_paths(source: &str, parent: &[&str]) -> Vec<(usize, Vec<String>)> {
    // Comments are left out: docs may name any module. So are the unit tests at the end of a
    // file (after `#[cfg(test)]`): a test may use any layer.
    let source = source.split("#[cfg(test)]").next().unwrap_or("");
    let code: String = source
        .lines()
        .map(|l| {
            let t = l.trim_start();
            if t.starts_with("//") {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    for (prefix, base) in [("crate::", Vec::new()), ("super::", parent.to_vec())] {
        for (at, _) in code.match_indices(prefix) {
            if code[..at].chars().next_back().is_some_and(is_ident) {
                continue; // part of a longer name
            }
            let line = code[..at].matches('\n').count() + 1;
            let (paths, _) = use_tree(&code[at + prefix.len()..]);
            for p in paths {
                let mut full: Vec<String> = base.iter().map(|s| s.to_string()).collect();
                full.extend(p);
                out.push((line, full));
            }
        }
    }
    out.sort();
    out
}

/// Items of the crate root every layer may use.
const LEAVES: &[&str] = &["Error", "Result", "progress", "resources"];

/// The module path `super` names in a file under `src/`: `src/games/octal/sparse.rs` is
/// `games::octal::sparse`, so its parent is `games::octal`; `src/games/octal/mod.rs` is
/// `games::octal`, its parent `games`. (`super` inside an inline module of a file names that
/// file's module; read as the file's parent it stays inside the file's layer, so a path
/// below the layer is still read as below it.)
fn parent_module(file: &Path) -> Vec<String> {
    let src = Path::new(ROOT).join("src");
    let rel = file.strip_prefix(&src).unwrap_or(file);
    let mut module: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if module.last().is_some_and(|m| m == "mod") {
        module.pop();
    }
    module.pop();
    module
}

/// The violations of one layer: each path whose first segment is not in `allowed` (nor a
/// leaf), and each path `refused` says is wrong; as `file:line: path`.
fn violations(
    dir: &str,
    allowed: &[&str],
    refused: impl Fn(&Path, &[String]) -> bool,
) -> Vec<String> {
    let root = Path::new(ROOT).join(dir);
    let mut out = Vec::new();
    for f in files(&root, &[".rs"]) {
        let source = std::fs::read_to_string(&f).unwrap();
        let parent = parent_module(&f);
        let parent: Vec<&str> = parent.iter().map(String::as_str).collect();
        for (line, path) in crate_paths(&source, &parent) {
            let first = path[0].as_str();
            if !(allowed.contains(&first) || LEAVES.contains(&first)) || refused(&f, &path) {
                out.push(format!("{}:{line}: crate::{}", shown(&f), path.join("::")));
            }
        }
    }
    out
}

/// Whether a path used by a game file names the registry (`Spec`, `GAMES`, `BuildGame`: the
/// items of `src/games/mod.rs`) from a game file other than the registry itself. Other game
/// files (lower-case modules such as `games::board`) are fine.
fn uses_the_registry(file: &Path, path: &[String]) -> bool {
    path[0] == "games"
        && !file.ends_with("games/mod.rs")
        && path
            .get(1)
            .is_none_or(|item| item.starts_with(|c: char| c.is_ascii_uppercase()))
}

#[test]
fn games_use_only_the_game_traits_and_the_solvers() {
    let bad = violations("src/games", &["game", "solve", "games"], uses_the_registry);
    assert!(
        bad.is_empty(),
        "game files reach above their layer (allowed: crate::game, crate::solve, other game \
         files, {LEAVES:?}):\n{}",
        bad.join("\n")
    );
}

#[test]
fn solvers_know_no_game() {
    let bad = violations("src/solve", &["game", "solve"], |_, _| false);
    assert!(
        bad.is_empty(),
        "solvers reach above their layer (allowed: crate::game, crate::solve, {LEAVES:?}):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_layer_check_sees_imports() {
    // The reader of paths finds groups, nested groups, `super` and inline paths, and skips
    // comments; so the two tests above cannot pass by reading nothing.
    let source = "\
//! [`crate::lookup::Table`] in a doc comment is no import.
use crate::game::{self, Move, Rules as R};
#[cfg(test)]
mod tests { use crate::verify::Finding; }
use crate::{format::payload::Encoded, lookup::Table, Error};
use super::{board::Board, Spec};
fn f() { let _ = crate::tables::holds(p); }
";
    let source = source.replace(
        "#[cfg(test)]\nmod tests { use crate::verify::Finding; }\n",
        "",
    ) + "#[cfg(test)]\nmod tests { use crate::verify::Finding; }\n";
    let source = source.as_str();
    let got: Vec<(usize, String)> = crate_paths(source, &["games"])
        .into_iter()
        .map(|(l, p)| (l, p.join("::")))
        .collect();
    let want = [
        (2, "game"),
        (2, "game::Move"),
        (2, "game::Rules"),
        (3, "Error"),
        (3, "format::payload::Encoded"),
        (3, "lookup::Table"),
        (4, "games::Spec"),
        (4, "games::board::Board"),
        (5, "tables::holds"),
    ];
    let want: Vec<(usize, String)> = want.iter().map(|&(l, p)| (l, p.to_string())).collect();
    assert_eq!(got, want);
    let path = |p: &str| -> Vec<String> { p.split("::").map(String::from).collect() };
    let module = |f: &str| parent_module(&Path::new(ROOT).join(f)).join("::");
    assert_eq!(module("src/games/nim.rs"), "games");
    assert_eq!(module("src/games/mod.rs"), "");
    assert_eq!(module("src/games/octal/mod.rs"), "games");
    assert_eq!(module("src/games/octal/sparse.rs"), "games::octal");
    let nim = Path::new("src/games/nim.rs");
    assert!(uses_the_registry(nim, &path("games::Spec")));
    assert!(uses_the_registry(nim, &path("games::GAMES")));
    assert!(uses_the_registry(nim, &path("games")));
    assert!(!uses_the_registry(nim, &path("games::board::Board")));
    assert!(!uses_the_registry(
        Path::new("src/games/mod.rs"),
        &path("games::Spec")
    ));
}

#[test]
fn json_rs_is_gone() {
    let old = Path::new(ROOT).join("src/json.rs");
    assert!(
        !old.exists(),
        "{} is back; JSON is written by serde (the answer model in src/answer.rs)",
        old.display()
    );
}

#[test]
fn no_citation_of_theorems_md_or_seeds_by_number() {
    let mut checked = files(&Path::new(ROOT).join("src"), &[".rs", ".md", ".h", ".txt"]);
    checked.push(Path::new(ROOT).join("README.md"));
    let mut bad = Vec::new();
    for f in &checked {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for (i, line) in text.lines().enumerate() {
            let seed = line.match_indices("seed 0").any(|(at, m)| {
                // `seed 003`: a seed cited by its number (xxh3's "seed 0" is a hash seed).
                line[at + m.len()..].starts_with(|c: char| c.is_ascii_digit())
            });
            if line.contains("THEOREMS.md") || seed {
                bad.push(format!("{}:{}: {}", shown(f), i + 1, line.trim()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "cite the statements' sources in words (src/verify/STATEMENTS.md), not THEOREMS.md or \
         seed numbers:\n{}",
        bad.join("\n")
    );
}

#[test]
fn nothing_reads_outside_the_repository() {
    // A fresh clone with nothing beside it must pass (issue 19): test data live under
    // `tests/data/`. The patterns are spelled in pieces so that this file does not match.
    let patterns = [
        concat!("..", "/shared"),
        concat!("shared", "/data"),
        concat!("shared", "/seeds"),
    ];
    let mut checked = Vec::new();
    for dir in ["src", "tests", "scripts", ".ci"] {
        checked.extend(files(
            &Path::new(ROOT).join(dir),
            &[".rs", ".sh", ".py", ".c", ".h", ".toml", ".txt", "run"],
        ));
    }
    let mut bad = Vec::new();
    for f in &checked {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue; // not text (no such file is read as a path anyway)
        };
        for (i, line) in text.lines().enumerate() {
            if patterns.iter().any(|p| line.contains(p)) {
                bad.push(format!("{}:{}: {}", shown(f), i + 1, line.trim()));
            }
        }
    }
    assert!(
        checked.len() > 50,
        "only {} files read: the walk is wrong",
        checked.len()
    );
    assert!(
        bad.is_empty(),
        "files of the repository must not read the folder beside it; copy what a test needs \
         into tests/data/:\n{}",
        bad.join("\n")
    );
}
