//! The crate's layers point one way, read from the source files.
//!
//! * every file under `src/` uses only the modules that the map of the crate in `src/lib.rs`
//!   names before its own (the map is read from `lib.rs`, so the two cannot drift): each path
//!   `crate::...`, `$crate::...` or `super::...` of its code, in `use` lines, bodies and types
//!   alike (not in comments, strings or unit tests), is an arrow from the file's module to the
//!   module the path names, and a wrong one is listed with its file, line and path;
//! * the arrows form no circle: one is listed with each file and path that ties it;
//! * a game file other than the registry (`src/games/mod.rs`) does not use the registry
//!   (`Spec`, `GAMES`, `BuildGame`);
//! * the map keeps the solvers below the games and the games below the file format, the
//!   lookups and the command line;
//! * no file under `src/`, no `README.md` cites `THEOREMS.md` or a seed by number (`seed
//!   003`): the statements live in `src/verify/STATEMENTS.md`, their sources named in words;
//! * nothing reads outside the repository.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
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

/// The code of a Rust file with what is not code blanked out (newlines kept, so lines still
/// count): comments (doc comments too: docs may name any module), string and character
/// literals, and each item under `#[cfg(test)]` (the unit tests: a test may use any layer).
fn code_of(source: &str) -> String {
    let s: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < s.len() && s[i] != '\n' {
                i += 1;
                out.push(' ');
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && s.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, s[i]);
                    i += 1;
                }
            }
        } else if c == 'r'
            && matches!(next, Some('"') | Some('#'))
            && (i == 0 || !is_ident(s[i - 1]))
        {
            // A raw string: r"...", r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while s.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if s.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= s.len() {
                    break;
                }
                if s[j] == '"' && (0..hashes).all(|k| s.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &x in &s[i..j.min(s.len())] {
                blank(&mut out, x);
            }
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < s.len() && s[j] != '"' {
                j += if s[j] == '\\' { 2 } else { 1 };
            }
            for &x in &s[i..(j + 1).min(s.len())] {
                blank(&mut out, x);
            }
            i = j + 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{1F}'), not a lifetime ('a).
            let end = if next == Some('\\') {
                (i + 2..s.len()).find(|&j| s[j] == '\'')
            } else if s.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    for &x in &s[i..=e] {
                        blank(&mut out, x);
                    }
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    without_test_items(&out)
}

/// `code` with each item under `#[cfg(test)]` blanked out: up to its `;`, or through the
/// braces that close its body.
fn without_test_items(code: &str) -> String {
    let mut out: Vec<char> = code.chars().collect();
    let text: String = out.iter().collect();
    for (at, m) in text.match_indices("#[cfg(test)]") {
        let start = text[..at].chars().count();
        let mut i = start + m.chars().count();
        let mut depth = 0;
        while i < out.len() {
            match out[i] {
                ';' if depth == 0 => break,
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        for c in &mut out[start..(i + 1).min(text.chars().count())] {
            if *c != '\n' {
                *c = ' ';
            }
        }
    }
    out.into_iter().collect()
}

/// Every crate path the code of a file names, with the line it starts on: `crate::x::...` (and
/// `$crate::`, in macros) anywhere in the code, and `super::x` (also `super::super::x`) taken
/// relative to `module`, the file's own module path. Groups are expanded. (`super` inside an
/// inline module of a file is read as the file's: it stays inside the file's layer.)
fn crate_paths(source: &str, module: &[String]) -> Vec<(usize, Vec<String>)> {
    let code = code_of(source);
    let mut out = Vec::new();
    for prefix in ["crate::", "super::"] {
        for (at, _) in code.match_indices(prefix) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| is_ident(c) || c == ':') {
                continue; // part of a longer name or path (`a::super::`, `super::super::`)
            }
            let line = code[..at].matches('\n').count() + 1;
            let mut rest = &code[at + prefix.len()..];
            let mut base: Vec<String> = Vec::new();
            if prefix == "super::" {
                base = module.to_vec();
                base.pop();
                while let Some(r) = rest.strip_prefix("super::") {
                    base.pop();
                    rest = r;
                }
            }
            let (paths, _) = use_tree(rest);
            for p in paths {
                let mut full = base.clone();
                full.extend(p);
                if !full.is_empty() {
                    out.push((line, full));
                }
            }
        }
    }
    out.sort();
    out
}

/// The module path of a file under `src/`: `src/games/octal/sparse.rs` is
/// `games::octal::sparse`, `src/games/octal/mod.rs` is `games::octal`, `src/lib.rs` the root.
fn module_of(rel: &Path) -> Vec<String> {
    let mut module: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if module.last().is_some_and(|m| m == "mod" || m == "lib") {
        module.pop();
    }
    module
}

/// The map of the crate in `src/lib.rs`: the modules its bullets name before their colons, in
/// the order they are named (lowest first).
fn stated_order(lib: &str) -> Vec<String> {
    let mut order = Vec::new();
    let mut in_map = false;
    for line in lib.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            if in_map {
                break;
            }
            continue;
        };
        if doc.contains("Map of the crate") {
            in_map = true;
            continue;
        }
        if !in_map {
            continue;
        }
        let Some(bullet) = doc.strip_prefix(" * ") else {
            if order.is_empty() || doc.starts_with("   ") {
                continue; // the map's heading, or a bullet's next line
            }
            break;
        };
        // `a`, `b::c`: text. (A colon inside backticks is part of a path.)
        let parts: Vec<&str> = bullet.split('`').collect();
        let mut i = 1;
        while i < parts.len() {
            order.push(parts[i].to_string());
            match parts.get(i + 1) {
                Some(after) if after.trim() == "," => i += 2,
                _ => break,
            }
        }
    }
    order
}

/// The items `src/lib.rs` re-exports at the crate root (`pub use lookup::Table;`), each with
/// the path it stands for.
fn root_reexports(lib: &str) -> BTreeMap<String, Vec<String>> {
    let code = code_of(lib);
    let mut out = BTreeMap::new();
    for (at, _) in code.match_indices("pub use ") {
        let (paths, _) = use_tree(&code[at + "pub use ".len()..]);
        for p in paths {
            if let Some(last) = p.last() {
                out.insert(last.clone(), p.clone());
            }
        }
    }
    out
}

/// The modules `src/lib.rs` declares (`pub mod x;`, `mod x;`).
fn declared_modules(lib: &str) -> BTreeSet<String> {
    let code = code_of(lib);
    let mut out = BTreeSet::new();
    for line in code.lines() {
        let t = line.trim();
        let t = t.strip_prefix("pub ").unwrap_or(t);
        if let Some(name) = t.strip_prefix("mod ").and_then(|n| n.strip_suffix(';')) {
            out.insert(name.trim().to_string());
        }
    }
    out
}

/// One arrow of the code: `file:line` uses `path`, from module `from` to module `to` (as the
/// map names them).
#[derive(Clone, Debug)]
struct Arrow {
    file: String,
    line: usize,
    path: String,
    from: String,
    to: String,
}

impl Arrow {
    fn shown(&self) -> String {
        format!("{}:{}: crate::{}", self.file, self.line, self.path)
    }
}

/// What the checker finds in a crate: the arrows that do not point to a module named earlier
/// in the map, the circles (each as its arrows, one per step), and what it could not place.
#[derive(Debug, Default)]
struct Findings {
    upward: Vec<String>,
    circles: Vec<String>,
    unplaced: Vec<String>,
    arrows: Vec<Arrow>,
}

/// The module of the map that `path` lies in: the longest name of `order` that begins it.
fn placed(order: &[String], path: &[String]) -> Option<usize> {
    order
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            let m: Vec<&str> = m.split("::").collect();
            m.len() <= path.len() && m.iter().zip(path).all(|(a, b)| a == b)
        })
        .max_by_key(|(_, m)| m.len())
        .map(|(i, _)| i)
}

/// `path` with an item of the crate root read as the path it re-exports (`Table` is
/// `lookup::Table`).
fn resolved(reexports: &BTreeMap<String, Vec<String>>, path: &[String]) -> Vec<String> {
    match reexports.get(&path[0]) {
        Some(p) => p.iter().chain(&path[1..]).cloned().collect(),
        None => path.to_vec(),
    }
}

/// Checks `sources` (each a file's name, its module path and its text) against `order` (the
/// map, lowest first), reading root items through `reexports`.
fn check(
    order: &[String],
    reexports: &BTreeMap<String, Vec<String>>,
    sources: &[(String, Vec<String>, String)],
) -> Findings {
    let mut found = Findings::default();
    for (file, module, text) in sources {
        let Some(from) = placed(order, module) else {
            found.unplaced.push(format!(
                "{file}: module {} is in no layer of the map",
                module.join("::")
            ));
            continue;
        };
        for (line, path) in crate_paths(text, module) {
            let target = resolved(reexports, &path);
            let Some(to) = placed(order, &target) else {
                found.unplaced.push(format!(
                    "{file}:{line}: crate::{} is in no layer of the map",
                    path.join("::")
                ));
                continue;
            };
            if to == from {
                continue;
            }
            let arrow = Arrow {
                file: file.clone(),
                line,
                path: path.join("::"),
                from: order[from].clone(),
                to: order[to].clone(),
            };
            if to > from {
                found.upward.push(format!(
                    "{} ({} is named after {} in the map)",
                    arrow.shown(),
                    arrow.to,
                    arrow.from
                ));
            }
            found.arrows.push(arrow);
        }
    }
    found.circles = circles(&found.arrows);
    found
}

/// The circles of the module graph the arrows make: for each group of modules that reach one
/// another, one shortest circle through its first module, every step shown with the file,
/// line and path that make it.
fn circles(arrows: &[Arrow]) -> Vec<String> {
    let mut next: BTreeMap<&str, BTreeMap<&str, &Arrow>> = BTreeMap::new();
    for a in arrows {
        next.entry(&a.from).or_default().entry(&a.to).or_insert(a);
    }
    // The shortest way from `start` to each module, as the arrow that reached it.
    let ways = |start: &str| -> BTreeMap<String, &Arrow> {
        let mut seen: BTreeMap<String, &Arrow> = BTreeMap::new();
        let mut queue = VecDeque::from([start.to_string()]);
        while let Some(m) = queue.pop_front() {
            for (&to, &a) in next.get(m.as_str()).into_iter().flatten() {
                if !seen.contains_key(to) {
                    seen.insert(to.to_string(), a);
                    queue.push_back(to.to_string());
                }
            }
        }
        seen
    };
    let modules: BTreeSet<&str> = arrows.iter().map(|a| a.from.as_str()).collect();
    let mut reported: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    for &m in &modules {
        if reported.contains(m) {
            continue;
        }
        let from_m = ways(m);
        let Some(_) = from_m.get(m) else {
            continue; // no way back to m
        };
        // Walk the shortest way back from m to m.
        let mut steps = Vec::new();
        let mut at = m.to_string();
        loop {
            let a = from_m[&at];
            steps.push(a);
            at = a.from.clone();
            if at == m {
                break;
            }
        }
        steps.reverse();
        let names: Vec<&str> = std::iter::once(m)
            .chain(steps.iter().map(|a| a.to.as_str()))
            .collect();
        let mut text = names.join(" -> ") + ":";
        for a in &steps {
            text.push_str(&format!("\n    {}", a.shown()));
        }
        // Every module on a circle with m is in m's group: report the group once.
        for (n, _) in from_m.iter() {
            if ways(n).contains_key(m) {
                reported.insert(n.clone());
            }
        }
        out.push(text);
    }
    out
}

/// The crate's own files, as the checker reads them (`src/main.rs`, the binary, is another
/// crate: it sees only the library's public items).
fn crate_sources() -> Vec<(String, Vec<String>, String)> {
    let src = Path::new(ROOT).join("src");
    files(&src, &[".rs"])
        .into_iter()
        .filter(|f| !f.ends_with("src/main.rs") && !f.ends_with("src/lib.rs"))
        .map(|f| {
            let rel = f.strip_prefix(&src).unwrap();
            let text = std::fs::read_to_string(&f).unwrap();
            (shown(&f), module_of(rel), text)
        })
        .collect()
}

fn lib_rs() -> String {
    std::fs::read_to_string(Path::new(ROOT).join("src/lib.rs")).unwrap()
}

#[test]
fn every_module_uses_only_the_modules_above_it() {
    let lib = lib_rs();
    let order = stated_order(&lib);
    let found = check(&order, &root_reexports(&lib), &crate_sources());
    assert!(
        found.arrows.len() > 300,
        "only {} arrows read: the reader is wrong",
        found.arrows.len()
    );
    assert!(
        found.unplaced.is_empty(),
        "paths and files the map of the crate in src/lib.rs does not place:\n{}",
        found.unplaced.join("\n")
    );
    assert!(
        found.upward.is_empty() && found.circles.is_empty(),
        "the layers point the wrong way (the map of the crate in src/lib.rs, lowest first: \
         {}):\n{}\ncircles:\n{}",
        order.join(", "),
        found.upward.join("\n"),
        found.circles.join("\n")
    );
}

#[test]
fn the_map_names_every_module_once() {
    let lib = lib_rs();
    let order = stated_order(&lib);
    let unique: BTreeSet<&String> = order.iter().collect();
    assert_eq!(unique.len(), order.len(), "a module named twice: {order:?}");
    let top: BTreeSet<String> = order
        .iter()
        .filter(|m| !m.contains("::"))
        .cloned()
        .collect();
    assert_eq!(
        top,
        declared_modules(&lib),
        "the map of the crate in src/lib.rs and its mod lines name different modules"
    );
    // A module inside another that the map names (a `format::entries` beside `format`) stands below it: its parent
    // names it by relative paths (`model::Game`), which the reader does not take for arrows.
    for (i, m) in order.iter().enumerate() {
        if let Some((parent, _)) = m.rsplit_once("::") {
            let at = order.iter().position(|x| x == parent);
            assert!(
                at.is_some_and(|p| i < p),
                "{m} must be named before {parent} in the map"
            );
        }
    }
    // The layers the other checks rest on: the game model stands below the byte layouts of
    // the file format, which the solvers write their values in; the solvers know no game; the
    // games know no lookup, answer, report, service or command line.
    let rank = |m: &str| order.iter().position(|x| x == m).unwrap();
    assert!(rank("model") < rank("format"));
    assert!(rank("format") < rank("solve"));
    assert!(rank("solve") < rank("game"));
    assert!(rank("game") < rank("games"));
    for above in [
        "answer", "lookup", "tables", "fifteen", "build", "stream", "report", "verify", "service",
        "cli", "ffi", "python",
    ] {
        assert!(rank("games") < rank(above), "{above} is below the games");
    }
}

/// Whether a path used by a game file names the registry (`Spec`, `GAMES`, `BuildGame`: the
/// items of `src/games/mod.rs`) from a game file other than the registry itself. Other game
/// files (lower-case modules such as `games::board`) are fine.
fn uses_the_registry(file: &str, path: &[String]) -> bool {
    path[0] == "games"
        && !file.ends_with("games/mod.rs")
        && path
            .get(1)
            .is_none_or(|item| item.starts_with(|c: char| c.is_ascii_uppercase()))
}

#[test]
fn games_do_not_use_the_registry() {
    let reexports = root_reexports(&lib_rs());
    let mut bad = Vec::new();
    for (file, module, text) in crate_sources() {
        if module.first().is_some_and(|m| m == "games") {
            for (line, path) in crate_paths(&text, &module) {
                if uses_the_registry(&file, &resolved(&reexports, &path)) {
                    bad.push(format!("{file}:{line}: crate::{}", path.join("::")));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "game files use the registry (src/games/mod.rs), which uses them:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_reader_sees_every_path() {
    // Groups, nested groups, aliases, `super` chains, paths in bodies and types, `$crate`;
    // not comments, strings or unit tests. So the checks above cannot pass by reading nothing.
    let source = r##"//! [`crate::lookup::Table`] in a doc comment is no arrow.
use crate::game::{self, Move, Rules as R};
use crate::{format::payload::Encoded, lookup::Table, Error};
use super::{board::Board, Spec};
fn f(x: &dyn crate::solve::Saves) { let _ = crate::tables::holds(p); }
/* crate::verify::a */ const S: &str = "crate::verify::b"; const R: &str = r#"crate::x"#;
fn g<'a>(c: char) -> &'a str { if c == '"' { super::super::top() } else { $crate::cli::x() } }
#[cfg(test)]
mod tests { use crate::verify::Finding; fn t() { crate::service::x() } }
fn after() -> crate::answer::Answer { todo!() }
"##;
    let module = ["games".to_string(), "octal".to_string()];
    let got: Vec<(usize, String)> = crate_paths(source, &module)
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
        (5, "solve::Saves"),
        (5, "tables::holds"),
        (7, "cli::x"),
        (7, "top"),
        (10, "answer::Answer"),
    ];
    let want: Vec<(usize, String)> = want.iter().map(|&(l, p)| (l, p.to_string())).collect();
    assert_eq!(got, want);
    let module = |f: &str| module_of(Path::new(f)).join("::");
    assert_eq!(module("games/nim.rs"), "games::nim");
    assert_eq!(module("games/mod.rs"), "games");
    assert_eq!(module("games/octal/sparse.rs"), "games::octal::sparse");
    let path = |p: &str| -> Vec<String> { p.split("::").map(String::from).collect() };
    let nim = "src/games/nim.rs";
    assert!(uses_the_registry(nim, &path("games::Spec")));
    assert!(uses_the_registry(nim, &path("games")));
    assert!(!uses_the_registry(nim, &path("games::board::Board")));
    assert!(!uses_the_registry("src/games/mod.rs", &path("games::Spec")));
}

#[test]
fn the_checker_finds_an_upward_arrow_and_a_circle() {
    // A made-up crate: low -> mid -> high is the map; mid uses high (upward), high uses mid
    // (a circle through the two), and top::inner sits in its own layer below top.
    let lib = "\
//! Map of the crate, lowest layer first:
//! * `low`: the bottom;
//! * `mid`, `top::inner`: the middle, and a module
//!   inside `top` that stands lower;
//! * `high`: uses the rest;
//! * `top`: the top.
//!
//! Not the map: `nothing`.
pub mod low;
pub mod mid;
pub use high::Thing;
";
    let order = stated_order(lib);
    assert_eq!(order, ["low", "mid", "top::inner", "high", "top"]);
    assert_eq!(
        declared_modules(lib),
        BTreeSet::from(["low".to_string(), "mid".to_string()])
    );
    let file = |name: &str, module: &str, text: &str| {
        (
            name.to_string(),
            module.split("::").map(String::from).collect::<Vec<_>>(),
            text.to_string(),
        )
    };
    let sources = [
        file("src/low.rs", "low", "pub fn a() {}"),
        file(
            "src/mid.rs",
            "mid",
            "use crate::low::a;\nfn m() -> crate::Thing { todo!() }",
        ),
        file("src/high.rs", "high", "use crate::{low, mid::m};"),
        file(
            "src/top/mod.rs",
            "top",
            "use crate::high;\npub use inner::x;",
        ),
        file(
            "src/top/inner.rs",
            "top::inner",
            "use super::super::mid::m;",
        ),
    ];
    let found = check(&order, &root_reexports(lib), &sources);
    assert!(found.unplaced.is_empty(), "{:?}", found.unplaced);
    assert_eq!(
        found.upward,
        ["src/mid.rs:2: crate::Thing (high is named after mid in the map)"]
    );
    assert_eq!(
        found.circles,
        ["high -> mid -> high:\n    src/high.rs:1: crate::mid::m\n    src/mid.rs:2: crate::Thing"]
    );
    // Without the upward arrow: nothing found.
    let mut fixed = sources.clone();
    fixed[1] = file("src/mid.rs", "mid", "use crate::low::a;");
    let found = check(&order, &root_reexports(lib), &fixed);
    assert!(
        found.upward.is_empty() && found.circles.is_empty(),
        "{found:?}"
    );
    assert_eq!(found.arrows.len(), 5);
    // A file outside the map and a path to nowhere are named.
    let stray = [
        file("src/stray.rs", "stray", ""),
        file("src/low.rs", "low", "use crate::nowhere::x;"),
    ];
    let found = check(&order, &root_reexports(lib), &stray);
    assert_eq!(
        found.unplaced,
        [
            "src/stray.rs: module stray is in no layer of the map",
            "src/low.rs:1: crate::nowhere::x is in no layer of the map"
        ]
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
    // A fresh clone with nothing beside it must pass: test data live under
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
