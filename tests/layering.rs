//! The crate's layers point one way, read from the source files.
//!
//! * every file under `src/` uses only the modules that the map of the crate in `src/lib.rs`
//!   names before its own (the map is read from `lib.rs`, so the two cannot drift): each path
//!   `crate::...`, `$crate::...`, `super::...` or `self::...` of its code (`super` and `self`
//!   read in the inline module the path is in), in `use` lines, bodies and types alike (not in
//!   comments, strings or unit tests), is an arrow from the file's module to the module the
//!   path names, and a wrong one is listed with its file, line and path;
//! * the arrows form no circle: one is listed with each file and path that ties it;
//! * no two files use one another, directly or through other files. The same paths are arrows
//!   from file to file: to the file that defines what the path names. That file is found by
//!   walking the path down the modules to the deepest one the crate has (`src/a/b.rs` or
//!   `src/a/b/mod.rs`, or an inline `mod c { ... }` in it), then, where that module brings
//!   the next name in by a `use` (a re-export such as `pub use inner::Thing;`, or an import
//!   its child modules see), on to where the `use` leads, so a `mod.rs` that only re-exports
//!   is no step of a circle. A path to a module alone is no arrow (what is used through it
//!   is), nor is a `mod x;` line, and a file declared by `#[cfg(test)] mod tests;` is not
//!   read. A child that names an item its parent's file defines, while the parent names one of
//!   the child's, is a circle like any other. A path that begins with a plain name
//!   (`inner::f()` in a `mod.rs`) is not read. Each circle is listed with its files and the
//!   file, line and path of each arrow, and is undone by moving what both files use to the
//!   file that should own it, or into a small file of its own;
//! * a game file other than the registry (`src/games/mod.rs`) does not use the registry
//!   (`Spec`, `GAMES`, `BuildGame`);
//! * the map keeps the solvers below the games and the games below the file format, the
//!   lookups and the command line;
//! * no file under `src/`, no `README.md` cites `THEOREMS.md` or a seed by number (`seed
//!   003`): the statements live in `src/verify/STATEMENTS.md`, their sources named in words;
//! * nothing reads outside the repository.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::ops::Range;
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

/// A path a use tree names, as its segments, and the name it is brought in as when that is
/// not its last segment (`a::b as c`: `c`; `as _`: `_`).
type Named = (Vec<String>, Option<String>);

/// The paths a use tree starting at `text` names, each as its segments: `a::b::{c, d::e}`
/// gives `[a, b, c]` and `[a, b, d, e]`; `a::b(...)` gives `[a, b]`. Returns the paths and the
/// bytes read.
fn use_tree(text: &str) -> (Vec<Named>, usize) {
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
                for (m, alias) in members {
                    let mut p = segments.clone();
                    p.extend(m);
                    paths.push((p, alias));
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
    // `path as alias`: the alias is no path, but the name the path is brought in as.
    let rest = &text[at..];
    let mut named = None;
    if let Some(alias) = rest.trim_start().strip_prefix("as ") {
        let alias = alias.trim_start();
        let name: String = alias.chars().take_while(|&c| is_ident(c)).collect();
        at += rest.len() - alias.len() + name.len();
        named = Some(name);
    }
    if segments.is_empty() && !named_self {
        (Vec::new(), 0)
    } else {
        (vec![(segments, named)], at)
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

/// The inline modules of a file's code (`mod x { ... }`), each as its name and the bytes of
/// its body, outer ones first.
fn inline_modules(code: &str) -> Vec<(String, Range<usize>)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("mod ") {
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let rest = code[at + "mod ".len()..].trim_start();
        let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        if name.is_empty() || !rest[name.len()..].trim_start().starts_with('{') {
            continue; // `mod x;`: a file of its own
        }
        let open = code.len() - rest[name.len()..].trim_start().len();
        let mut depth = 0;
        let mut end = code.len();
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((name, open..end));
    }
    out
}

/// The module that the code at byte `at` of a file is in: the file's `module`, then each
/// inline module around `at`.
fn module_at(module: &[String], inline: &[(String, Range<usize>)], at: usize) -> Vec<String> {
    let mut m = module.to_vec();
    m.extend(
        inline
            .iter()
            .filter(|(_, body)| body.contains(&at))
            .map(|(name, _)| name.clone()),
    );
    m
}

/// Every path of `code` (as `code_of` gives it) whose first name `start` places, with the line
/// it starts on: `start(at, name)` is the module path that `name`, the first name of a path at
/// byte `at`, stands for ([`anchored`]: `crate`, `super`, `self`), or `None` for a name it
/// does not place (`Vec::new`, another crate's `std::fs`). A name inside a path (`a::crate::`)
/// or a macro's variable (`$x::`) starts none; `$crate::` is `crate::`; `super::super::`
/// climbs twice; groups are expanded.
fn paths_from(
    code: &str,
    start: impl Fn(usize, &str) -> Option<Vec<String>>,
) -> Vec<(usize, Vec<String>)> {
    let newlines: Vec<usize> = code.match_indices('\n').map(|(at, _)| at).collect();
    let mut out = Vec::new();
    for (at, _) in code.match_indices("::") {
        let name = code[..at]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| is_ident(c))
            .last()
            .map_or(at, |(i, _)| i);
        let (first, before) = (&code[name..at], code[..name].chars().next_back());
        if first.is_empty() || before == Some(':') || (before == Some('$') && first != "crate") {
            continue;
        }
        let Some(mut base) = start(name, first) else {
            continue;
        };
        let mut rest = &code[at + "::".len()..];
        if first == "super" {
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
        }
        let line = newlines.partition_point(|&n| n < name) + 1;
        for (p, _) in use_tree(rest).0 {
            let full: Vec<String> = base.iter().cloned().chain(p).collect();
            if !full.is_empty() {
                out.push((line, full));
            }
        }
    }
    out.sort();
    out
}

/// The module path a path's first name stands for at byte `at` of a file of module `module`
/// when it is `crate` (also `$crate`), `super` or `self`, read in the inline module around
/// `at` if any; `None` for any other name.
fn anchored(
    module: &[String],
    inline: &[(String, Range<usize>)],
    at: usize,
    name: &str,
) -> Option<Vec<String>> {
    match name {
        "crate" => Some(Vec::new()),
        "self" => Some(module_at(module, inline, at)),
        "super" => {
            let mut m = module_at(module, inline, at);
            m.pop();
            Some(m)
        }
        _ => None,
    }
}

/// Every crate path the code of a file names, with the line it starts on: `crate::x::...` (and
/// `$crate::`, in macros) anywhere in the code, `self::x` and `super::x` (also
/// `super::super::x`) taken relative to `module`, the file's own module path, and the inline
/// module the path is in. Groups are expanded.
fn crate_paths(source: &str, module: &[String]) -> Vec<(usize, Vec<String>)> {
    let code = code_of(source);
    let inline = inline_modules(&code);
    paths_from(&code, |at, name| anchored(module, &inline, at, name))
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
        for (p, alias) in paths {
            if let Some(name) = alias.or_else(|| p.last().cloned()) {
                out.insert(name, p);
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

/// A file as the file check reads it: its name, its module path, its code (`code_of`) and
/// its inline modules.
struct FileCode {
    name: String,
    module: Vec<String>,
    code: String,
    inline: Vec<(String, Range<usize>)>,
}

/// The names a module has beside its own items, each with the module path it stands for: its
/// child modules (files and inline ones) and what its `use` lines bring in. A `use` line that
/// begins with a name, and a path through the module, are read through them.
type Names = BTreeMap<String, Vec<String>>;

/// The module `x` of each `mod x;` of a file (a file of its own), outside unit tests.
fn declared_files(file: &FileCode) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in file.code.match_indices("mod ") {
        if file.code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let rest = file.code[at + "mod ".len()..].trim_start();
        let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        if !name.is_empty() && rest[name.len()..].trim_start().starts_with(';') {
            let mut m = module_at(&file.module, &file.inline, at);
            m.push(name);
            out.push(m);
        }
    }
    out
}

/// Every module of the crate (a file's or an inline one) with the file it is in and its names.
fn scopes(files: &[FileCode]) -> BTreeMap<Vec<String>, (usize, Names)> {
    let mut scopes: BTreeMap<Vec<String>, (usize, Names)> = BTreeMap::new();
    for (i, f) in files.iter().enumerate() {
        scopes.insert(f.module.clone(), (i, Names::new()));
        for (_, body) in &f.inline {
            let m = module_at(&f.module, &f.inline, body.start);
            scopes.insert(m, (i, Names::new()));
        }
    }
    let modules: Vec<Vec<String>> = scopes.keys().cloned().collect();
    for m in modules {
        if let Some((name, parent)) = m.split_last() {
            if let Some((_, names)) = scopes.get_mut(parent) {
                names.insert(name.clone(), m.clone());
            }
        }
    }
    // What each `use` brings in, in the order of the file (a `use` may begin with a name an
    // earlier one brought in); a name from another crate is not the crate's.
    for f in files {
        for (at, _) in f.code.match_indices("use ") {
            if f.code[..at].chars().next_back().is_some_and(is_ident) {
                continue;
            }
            let module = module_at(&f.module, &f.inline, at);
            for (path, alias) in use_tree(&f.code[at + "use ".len()..]).0 {
                let Some((first, mut rest)) = path.split_first() else {
                    continue;
                };
                let base = match first.as_str() {
                    "crate" => Vec::new(),
                    "super" => {
                        let mut base = module.clone();
                        base.pop();
                        while let Some((_, r)) = rest.split_first().filter(|(s, _)| *s == "super") {
                            base.pop();
                            rest = r;
                        }
                        base
                    }
                    // `self::` is left out by `use_tree`: the path begins with a name.
                    name => match scopes[&module].1.get(name) {
                        Some(p) => p.clone(),
                        None => continue,
                    },
                };
                let full: Vec<String> = base.into_iter().chain(rest.iter().cloned()).collect();
                let Some(name) = alias.or_else(|| full.last().cloned()) else {
                    continue;
                };
                // A child module keeps its name: a `use` of the same name brings in a value
                // (`use conformance::conformance;`, a function).
                if name != "_" {
                    let names = &mut scopes.get_mut(&module).unwrap().1;
                    names.entry(name).or_insert(full);
                }
            }
        }
    }
    scopes
}

/// The file that defines what `path` names: the deepest module on the path (a file's or an
/// inline one) that the crate has; where that module brings the next name in by a `use` (a
/// re-export, or an import its child modules see), the file that defines what the `use`
/// names, and so on. `None` for a module itself: what is used through it makes the arrows.
fn defined_in(scopes: &BTreeMap<Vec<String>, (usize, Names)>, path: &[String]) -> Option<usize> {
    let mut path = path.to_vec();
    for _ in 0..64 {
        let deepest = (0..=path.len())
            .rev()
            .find(|&k| scopes.contains_key(&path[..k]))?;
        let (file, names) = &scopes[&path[..deepest]];
        let name = path.get(deepest)?;
        match names.get(name) {
            Some(p) => path = p.iter().chain(&path[deepest + 1..]).cloned().collect(),
            None => return Some(*file),
        }
    }
    panic!("crate::{}: re-exported in a circle", path.join("::"));
}

/// The arrows between the files of `sources` (each a file's name, its module path and its
/// text; `src/lib.rs` is the root, module path empty): from the file a path is in to the file
/// that defines what it names. The files read are those the crate builds: the root, and each
/// file whose parent declares it (`mod x;`) outside unit tests.
fn file_arrows(sources: &[(String, Vec<String>, String)]) -> Vec<Arrow> {
    let mut files: Vec<FileCode> = sources
        .iter()
        .map(|(name, module, text)| {
            let code = code_of(text);
            let inline = inline_modules(&code);
            FileCode {
                name: name.clone(),
                module: module.clone(),
                code,
                inline,
            }
        })
        .collect();
    let declared: BTreeSet<Vec<String>> = files.iter().flat_map(declared_files).collect();
    files.retain(|f| f.module.is_empty() || declared.contains(&f.module));
    let scopes = scopes(&files);
    let mut arrows = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let paths = paths_from(&f.code, |at, name| anchored(&f.module, &f.inline, at, name));
        for (line, path) in paths {
            match defined_in(&scopes, &path) {
                Some(to) if to != i => arrows.push(Arrow {
                    file: f.name.clone(),
                    line,
                    path: path.join("::"),
                    from: f.name.clone(),
                    to: files[to].name.clone(),
                }),
                _ => {}
            }
        }
    }
    arrows
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
fn no_circle_ties_two_files() {
    let mut sources = crate_sources();
    sources.push(("src/lib.rs".to_string(), Vec::new(), lib_rs()));
    let arrows = file_arrows(&sources);
    assert!(
        arrows.len() > 1000,
        "only {} arrows between files read: the reader is wrong",
        arrows.len()
    );
    let found = circles(&arrows);
    assert!(
        found.is_empty(),
        "files that use one another (move what both use to the file that owns it, or to a \
         file of its own):\n{}",
        found.join("\n")
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
    // Groups, nested groups, aliases, `super` chains, paths in bodies and types, `$crate`,
    // `super` and `self` in an inline module; not comments, strings, unit tests or a macro's
    // variables. So the checks above cannot pass by reading nothing.
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
mod inline { use super::Local; fn f() { self::g(); $x::y() } }
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
        (11, "games::octal::Local"),
        (11, "games::octal::inline::g"),
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
fn the_checker_finds_a_circle_between_two_files() {
    // A made-up crate: `top/mod.rs` re-exports `Thing` of `top/inner.rs` and names `Helper` of
    // `top/other.rs`, which names `Thing` through the re-export: an arrow to `inner.rs`, not
    // to `mod.rs`, so no circle. The unit tests (an inline module, a file of their own) and
    // the `mod` lines make no arrow.
    let file = |name: &str, module: &str, text: &str| {
        let module = module.split("::").filter(|m| !m.is_empty());
        (
            name.to_string(),
            module.map(String::from).collect::<Vec<_>>(),
            text.to_string(),
        )
    };
    let lib = file("src/lib.rs", "", "pub mod low;\npub mod top;");
    let low = file("src/low.rs", "low", "pub fn base() {}");
    let top = file(
        "src/top/mod.rs",
        "top",
        "mod inner;\nmod other;\n#[cfg(test)]\nmod tests;\npub use inner::Thing;\n\
         pub fn own() -> self::other::Helper { todo!() }",
    );
    let inner = file(
        "src/top/inner.rs",
        "top::inner",
        "pub struct Thing;\npub fn make() { crate::low::base() }",
    );
    let other = |extra: &str| {
        let text = format!(
            "use super::Thing;\npub struct Helper(Thing);\n{extra}\n\
             #[cfg(test)]\nmod tests {{ fn t() {{ super::super::own(); }} }}"
        );
        file("src/top/other.rs", "top::other", &text)
    };
    let tests = file(
        "src/top/tests.rs",
        "top::tests",
        "use super::other::Helper;",
    );
    let sources = [&lib, &low, &top, &inner, &other(""), &tests].map(Clone::clone);
    let arrows: Vec<String> = file_arrows(&sources)
        .iter()
        .map(|a| format!("{} -> {}", a.from, a.to))
        .collect();
    assert_eq!(
        arrows,
        [
            "src/top/mod.rs -> src/top/other.rs",
            "src/top/inner.rs -> src/low.rs",
            "src/top/other.rs -> src/top/inner.rs"
        ]
    );
    assert!(circles(&file_arrows(&sources)).is_empty());
    // `inner.rs` names `Helper`: a circle of two files, through the re-export.
    let mut tied = sources.clone();
    tied[3] = file(
        "src/top/inner.rs",
        "top::inner",
        "pub struct Thing;\npub fn make() -> crate::top::other::Helper { todo!() }",
    );
    let circle = |lines: &[&str]| lines.join("\n    ");
    assert_eq!(
        circles(&file_arrows(&tied)),
        [circle(&[
            "src/top/inner.rs -> src/top/other.rs -> src/top/inner.rs:",
            "src/top/inner.rs:2: crate::top::other::Helper",
            "src/top/other.rs:1: crate::top::Thing"
        ])]
    );
    // `other.rs` names an item `mod.rs` defines itself: a circle of the child and its parent.
    let mut tied = sources.clone();
    tied[4] = other("fn f() { super::own(); }");
    assert_eq!(
        circles(&file_arrows(&tied)),
        [circle(&[
            "src/top/mod.rs -> src/top/other.rs -> src/top/mod.rs:",
            "src/top/mod.rs:6: crate::top::other::Helper",
            "src/top/other.rs:3: crate::top::own"
        ])]
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
