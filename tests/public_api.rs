//! The crate's public items, read from the sources, against the list checked in as
//! `tests/data/public-api.txt`, so the public surface changes only on purpose.
//!
//! Stable Rust has no rustdoc JSON, so the list is derived by reading `src/`: from `src/lib.rs`
//! down through the `mod` declarations (inline ones too), each module's items are read, and
//! what the crate root reaches is listed:
//! * an item (fn, struct, enum, union, trait, const, static, type, mod) declared plain `pub`
//!   in a module that is itself reached (`pub mod` all the way from the root);
//! * an item re-exported by a `pub use` of a reached module, under the name it is re-exported
//!   as (the `use` path is followed to where the item is declared, through private modules
//!   and other `use` lines);
//! * the `pub fn`s of the inherent impls (`impl Type { ... }`, anywhere in the crate) of each
//!   listed struct, enum, union or type alias, as `Type::method` under the type's first path
//!   (the shortest, the crate root's re-exports first);
//! * a `#[macro_export]` macro, at the root.
//!
//! `pub(crate)`, `pub(super)` and `pub(in ...)` are not public; items under `#[cfg(test)]`,
//! `#[cfg(doctest)]` or `#[cfg(fuzzing)]` are left out (the fuzz targets' doorway,
//! `gamedb::fuzzing`, is compiled only by cargo-fuzz); an item under another `#[cfg(...)]` (the
//! `python` and `mpi` features) is listed with that condition. Not read: fields, enum variants,
//! the items of traits (public with their trait) and glob re-exports (`pub use x::*`, which the
//! crate does not use: one fails the test).
//!
//! When the list differs the test fails with the items added and removed. A change of the public
//! surface is made on purpose: document the new item where the guides say what is public
//! (`src/lib.rs`, `src/guide/library.md`, `src/guide/game-authors.md`), then write the list
//! anew with `GAMEDB_PUBLIC_API=write cargo test --test public_api` and commit it.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const LIST: &str = "tests/data/public-api.txt";

/// One token of Rust source: what this reader needs to tell apart.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// A string literal's contents (for `#[cfg(feature = "python")]`).
    Str(String),
    /// A number, a character literal or a lifetime: nothing this reader looks into.
    Other,
    Punct(char),
}

/// The tokens of `src`, comments left out.
fn tokens(src: &str) -> Vec<Tok> {
    let s: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && s.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if (c == 'r' || c == 'b') && matches!(next, Some('"') | Some('#') | Some('r'))
            || c == '"'
        {
            // A string: "...", b"...", r"...", r#"..."#, br#"..."#.
            let mut j = i;
            if s[j] == 'b' {
                j += 1;
            }
            let raw = s.get(j) == Some(&'r');
            if raw {
                j += 1;
            }
            let mut hashes = 0;
            while raw && s.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if s.get(j) != Some(&'"') {
                // An identifier that starts with r or b, or a raw identifier (r#type).
                let from = if raw && hashes == 1 && j == i + 2 {
                    j
                } else {
                    i
                };
                let end = (from..s.len()).find(|&k| !ident(s[k])).unwrap_or(s.len());
                out.push(Tok::Ident(s[from..end].iter().collect()));
                i = end;
                continue;
            }
            j += 1;
            let start = j;
            while j < s.len() {
                if !raw && s[j] == '\\' {
                    j += 2;
                    continue;
                }
                if s[j] == '"' && (0..hashes).all(|k| s.get(j + 1 + k) == Some(&'#')) {
                    break;
                }
                j += 1;
            }
            out.push(Tok::Str(s[start..j.min(s.len())].iter().collect()));
            i = j + 1 + hashes;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{1F}') or a lifetime ('a).
            let end = if next == Some('\\') {
                (i + 2..s.len()).find(|&j| s[j] == '\'')
            } else if s.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => i = e + 1,
                None => {
                    i += 1;
                    while i < s.len() && ident(s[i]) {
                        i += 1;
                    }
                }
            }
            out.push(Tok::Other);
        } else if c.is_ascii_digit() {
            while i < s.len() && (ident(s[i]) || s[i] == '.' && s.get(i + 1) != Some(&'.')) {
                i += 1;
            }
            out.push(Tok::Other);
        } else if ident(c) {
            let end = (i..s.len()).find(|&k| !ident(s[k])).unwrap_or(s.len());
            let mut word: String = s[i..end].iter().collect();
            i = end;
            if word == "r" && s.get(i) == Some(&'#') {
                // A raw identifier: r#type.
                let end = (i + 1..s.len()).find(|&k| !ident(s[k])).unwrap_or(s.len());
                word = s[i + 1..end].iter().collect();
                i = end;
            }
            out.push(Tok::Ident(word));
        } else {
            out.push(Tok::Punct(c));
            i += 1;
        }
    }
    out
}

fn is(t: Option<&Tok>, word: &str) -> bool {
    matches!(t, Some(Tok::Ident(w)) if w == word)
}

fn punct(t: Option<&Tok>, c: char) -> bool {
    t == Some(&Tok::Punct(c))
}

/// The index just past the group that opens at `at` (`(`, `[` or `{`), nested groups skipped.
fn past_group(t: &[Tok], at: usize) -> usize {
    let mut depth = 0;
    let mut i = at;
    while i < t.len() {
        match t[i] {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    t.len()
}

/// The index just past the item whose rest starts at `at`: through its first `;` outside
/// brackets, or through the first braced group (a body) when that comes first. `(` and `[`
/// groups are skipped whole (a tuple struct's fields, an array's length).
fn past_item(t: &[Tok], at: usize) -> usize {
    let mut i = at;
    while i < t.len() {
        match t[i] {
            Tok::Punct(';') => return i + 1,
            Tok::Punct('{') => {
                let end = past_group(t, i);
                // `struct A { .. }` ends at its brace; `const A: T = T { .. };` goes on.
                return if punct(t.get(end), ';') { end + 1 } else { end };
            }
            Tok::Punct('(' | '[') => i = past_group(t, i),
            _ => i += 1,
        }
    }
    t.len()
}

/// A path a `use` line names and the name it is brought in as.
#[derive(Clone, Debug)]
struct Used {
    path: Vec<String>,
    name: String,
    public: bool,
    cfg: Option<String>,
}

/// The paths of the use tree at `t[at..]`, prefixed by `prefix`; returns the index past it.
fn use_tree(
    t: &[Tok],
    mut at: usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, String)>,
) -> usize {
    let mut path = prefix.to_vec();
    if punct(t.get(at), ':') {
        at += 2; // a leading `::`
    }
    loop {
        match t.get(at) {
            Some(Tok::Punct('{')) => {
                at += 1;
                while !punct(t.get(at), '}') && at < t.len() {
                    at = use_tree(t, at, &path, out);
                    if punct(t.get(at), ',') {
                        at += 1;
                    }
                }
                return at + 1;
            }
            Some(Tok::Punct('*')) => {
                path.push("*".into());
                out.push((path, "*".into()));
                return at + 1;
            }
            Some(Tok::Ident(w)) => {
                at += 1;
                if w == "self" && !path.is_empty() && !punct(t.get(at), ':') {
                    let name = path.last().unwrap().clone();
                    let name = alias(t, &mut at).unwrap_or(name);
                    out.push((path, name));
                    return at;
                }
                path.push(w.clone());
                if punct(t.get(at), ':') && punct(t.get(at + 1), ':') {
                    at += 2;
                    continue;
                }
                let name = alias(t, &mut at).unwrap_or_else(|| w.clone());
                out.push((path, name));
                return at;
            }
            _ => return at + 1,
        }
    }
}

/// `as NAME` at `t[*at..]`: the name, the index moved past it.
fn alias(t: &[Tok], at: &mut usize) -> Option<String> {
    if is(t.get(*at), "as") {
        if let Some(Tok::Ident(n)) = t.get(*at + 1) {
            *at += 2;
            return Some(n.clone());
        }
    }
    None
}

/// An item a module declares.
#[derive(Clone, Debug)]
struct Item {
    name: String,
    kind: &'static str,
    public: bool,
    cfg: Option<String>,
}

/// An inherent impl: the path of its type as written, its `pub fn`s (with their cfg).
#[derive(Clone, Debug)]
struct Impl {
    ty: Vec<String>,
    methods: Vec<(String, Option<String>)>,
    cfg: Option<String>,
}

/// What one module declares.
#[derive(Debug, Default)]
struct Module {
    items: Vec<Item>,
    uses: Vec<Used>,
    impls: Vec<Impl>,
    /// Child modules: name, public, cfg.
    mods: Vec<(String, bool, Option<String>)>,
    macros: Vec<String>,
}

/// The attributes before an item: whether it is left out (test, doctest, fuzzing), its other
/// cfg if any, whether it exports a macro.
struct Attrs {
    skip: bool,
    cfg: Option<String>,
    macro_export: bool,
}

fn attrs(t: &[Tok], at: &mut usize) -> Attrs {
    let mut a = Attrs {
        skip: false,
        cfg: None,
        macro_export: false,
    };
    while punct(t.get(*at), '#') {
        let open = if punct(t.get(*at + 1), '!') {
            *at + 2
        } else {
            *at + 1
        };
        let end = past_group(t, open);
        let inner = &t[open + 1..end - 1];
        if is(inner.first(), "cfg") {
            let text = cfg_text(&inner[1..]);
            if ["test", "doctest", "fuzzing"].contains(&text.as_str()) {
                a.skip = true;
            } else {
                a.cfg = Some(format!("cfg({text})"));
            }
        }
        if is(inner.first(), "macro_export") {
            a.macro_export = true;
        }
        *at = end;
    }
    a
}

/// The text of a cfg predicate's tokens, `(feature = "python")` as `feature = "python"`.
fn cfg_text(t: &[Tok]) -> String {
    let mut s = String::new();
    for tok in &t[1..t.len().saturating_sub(1)] {
        match tok {
            Tok::Ident(w) => {
                if s.ends_with(|c: char| c.is_alphanumeric() || c == '"') {
                    s.push(' ');
                }
                s.push_str(w);
            }
            Tok::Str(v) => s.push_str(&format!(" \"{v}\"")),
            Tok::Punct('=') => s.push_str(" ="),
            Tok::Punct(c) => s.push(*c),
            Tok::Other => {}
        }
    }
    s
}

/// A visibility at `t[*at..]`: plain `pub` is public; `pub(..)` and none are not.
fn visibility(t: &[Tok], at: &mut usize) -> bool {
    if !is(t.get(*at), "pub") {
        return false;
    }
    *at += 1;
    if punct(t.get(*at), '(') {
        *at = past_group(t, *at);
        return false;
    }
    true
}

/// Reads the items of a module body `t[at..]` up to its closing brace (or the end), into
/// `modules[path]`, inline modules into their own entries; file modules are read by `read`.
fn read_items(
    t: &[Tok],
    mut at: usize,
    path: &[String],
    modules: &mut BTreeMap<Vec<String>, Module>,
    files: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    modules.entry(path.to_vec()).or_default();
    while at < t.len() && !punct(t.get(at), '}') {
        let a = attrs(t, &mut at);
        if at >= t.len() || punct(t.get(at), '}') {
            break;
        }
        let public = visibility(t, &mut at);
        let start = at;
        // Qualifiers before the keyword.
        while matches!(t.get(at), Some(Tok::Ident(w)) if ["unsafe", "async", "default", "extern"]
            .contains(&w.as_str()))
            || matches!(t.get(at), Some(Tok::Str(_)))
            || is(t.get(at), "const") && is(t.get(at + 1), "fn")
            || is(t.get(at), "const") && is(t.get(at + 1), "unsafe")
        {
            at += 1;
        }
        let keyword = match t.get(at) {
            Some(Tok::Ident(w)) => w.clone(),
            _ => String::new(),
        };
        let name = match t.get(at + 1) {
            Some(Tok::Ident(w)) => w.clone(),
            _ => String::new(),
        };
        if keyword == "mod" {
            if a.skip {
                at = past_item(t, at);
                continue;
            }
            let mut child = path.to_vec();
            child.push(name.clone());
            let m = modules.get_mut(path).unwrap();
            m.mods.push((name, public, a.cfg.clone()));
            if punct(t.get(at + 2), '{') {
                at = read_items(t, at + 3, &child, modules, files) + 1;
            } else {
                files.push((child, a.cfg));
                at += 3;
            }
            continue;
        }
        if a.skip {
            at = past_item(t, at);
            continue;
        }
        let m = modules.get_mut(path).unwrap();
        match keyword.as_str() {
            "use" => {
                let mut paths = Vec::new();
                at = use_tree(t, at + 1, &[], &mut paths);
                for (p, n) in paths {
                    m.uses.push(Used {
                        path: p,
                        name: n,
                        public,
                        cfg: a.cfg.clone(),
                    });
                }
                if !punct(t.get(at - 1), ';') {
                    at = past_item(t, at);
                }
            }
            "impl" => {
                let (imp, end) = read_impl(t, at);
                if let Some(mut imp) = imp {
                    imp.cfg = a.cfg.clone();
                    m.impls.push(imp);
                }
                at = end;
            }
            "macro_rules" => {
                let name = match t.get(at + 2) {
                    Some(Tok::Ident(w)) => w.clone(),
                    _ => String::new(),
                };
                if a.macro_export {
                    m.macros.push(name);
                }
                at = past_item(t, at);
            }
            "fn" | "struct" | "enum" | "union" | "trait" | "const" | "static" | "type" => {
                let kind = match keyword.as_str() {
                    "fn" => "fn",
                    "struct" => "struct",
                    "enum" => "enum",
                    "union" => "union",
                    "trait" => "trait",
                    "const" => "const",
                    "static" => "static",
                    _ => "type",
                };
                let name = if keyword == "static" && is(t.get(at + 1), "mut") {
                    match t.get(at + 2) {
                        Some(Tok::Ident(w)) => w.clone(),
                        _ => String::new(),
                    }
                } else {
                    name
                };
                m.items.push(Item {
                    name,
                    kind,
                    public,
                    cfg: a.cfg.clone(),
                });
                at = past_item(t, at);
            }
            _ => at = past_item(t, at.max(start)),
        }
    }
    at
}

/// An impl at `t[at..]` (at `impl`): the inherent impl with its `pub fn`s, or `None` for an
/// impl of a trait; and the index past it.
fn read_impl(t: &[Tok], at: usize) -> (Option<Impl>, usize) {
    let mut i = at + 1;
    // Generic parameters: `impl<T: Ord, const N: usize>`.
    if punct(t.get(i), '<') {
        let mut depth = 0;
        while i < t.len() {
            match t[i] {
                Tok::Punct('<') => depth += 1,
                Tok::Punct('>') if !punct(t.get(i - 1), '-') => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    let body = (i..t.len())
        .find(|&k| punct(t.get(k), '{'))
        .unwrap_or(t.len());
    let end = past_group(t, body);
    let head = &t[i..body];
    if head.iter().any(|x| is(Some(x), "for")) {
        return (None, end);
    }
    // The type's path: its leading `a::b::Name`, generics and `where` ignored.
    let mut ty = Vec::new();
    let mut k = 0;
    while let Some(Tok::Ident(w)) = head.get(k) {
        if w == "where" || w == "dyn" {
            break;
        }
        ty.push(w.clone());
        if punct(head.get(k + 1), ':') && punct(head.get(k + 2), ':') {
            k += 3;
        } else {
            break;
        }
    }
    let mut methods = Vec::new();
    let mut j = body + 1;
    while j < end - 1 {
        let a = attrs(t, &mut j);
        let public = visibility(t, &mut j);
        while matches!(t.get(j), Some(Tok::Ident(w)) if ["unsafe", "async", "const", "extern"]
            .contains(&w.as_str()))
            || matches!(t.get(j), Some(Tok::Str(_)))
        {
            j += 1;
        }
        if is(t.get(j), "fn") && public && !a.skip {
            if let Some(Tok::Ident(n)) = t.get(j + 1) {
                methods.push((n.clone(), a.cfg));
            }
        }
        j = past_item(t, j).max(j + 1);
    }
    (
        Some(Impl {
            ty,
            methods,
            cfg: None,
        }),
        end,
    )
}

/// Every module of the crate, read from `src/`: the root's path is empty.
fn crate_modules() -> BTreeMap<Vec<String>, Module> {
    let mut modules = BTreeMap::new();
    let mut files = vec![(Vec::new(), None)];
    let mut read = BTreeSet::new();
    while let Some((path, _)) = files.pop() {
        if !read.insert(path.clone()) {
            continue;
        }
        let file = module_file(&path);
        let src =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let t = tokens(&src);
        let mut found = Vec::new();
        read_items(&t, 0, &path, &mut modules, &mut found);
        // A file module inside an inline module lives in the inline module's folder.
        files.extend(found);
    }
    modules
}

/// The file of the module at `path`: `src/lib.rs`, `src/a/b.rs` or `src/a/b/mod.rs`.
fn module_file(path: &[String]) -> PathBuf {
    let src = Path::new(ROOT).join("src");
    if path.is_empty() {
        return src.join("lib.rs");
    }
    let dir = path[..path.len() - 1].iter().fold(src, |d, p| d.join(p));
    let name = &path[path.len() - 1];
    let plain = dir.join(format!("{name}.rs"));
    if plain.exists() {
        plain
    } else {
        dir.join(name).join("mod.rs")
    }
}

/// What a name stands for: an item of a module, or a module.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    Item(Vec<String>, String, &'static str),
    Module(Vec<String>),
}

/// The crate read, with its names resolved.
struct Crate {
    modules: BTreeMap<Vec<String>, Module>,
}

impl Crate {
    /// What `name` stands for inside module `m` (its items, child modules and `use` lines of
    /// any visibility), or `None` for a name of another crate.
    fn lookup(&self, m: &[String], name: &str, depth: usize) -> Option<Target> {
        let module = self.modules.get(m)?;
        if depth > 32 {
            return None;
        }
        if module.mods.iter().any(|(n, _, _)| n == name) {
            let mut p = m.to_vec();
            p.push(name.to_string());
            return Some(Target::Module(p));
        }
        if let Some(i) = module.items.iter().find(|i| i.name == name) {
            return Some(Target::Item(m.to_vec(), name.to_string(), i.kind));
        }
        if module.macros.iter().any(|n| n == name) {
            return Some(Target::Item(m.to_vec(), name.to_string(), "macro"));
        }
        let used = module.uses.iter().find(|u| u.name == name)?;
        self.resolve(m, &used.path, depth + 1)
    }

    /// What the path `p`, written in module `m`, stands for.
    fn resolve(&self, m: &[String], p: &[String], depth: usize) -> Option<Target> {
        let mut at = Target::Module(m.to_vec());
        for (k, seg) in p.iter().enumerate() {
            let Target::Module(here) = &at else {
                return None;
            };
            at = match seg.as_str() {
                "crate" if k == 0 => Target::Module(Vec::new()),
                "self" => Target::Module(here.clone()),
                "super" => Target::Module(here[..here.len().checked_sub(1)?].to_vec()),
                _ => self.lookup(here, seg, depth)?,
            };
        }
        Some(at)
    }

    /// The names module `m` offers to the modules that can see it, with the cfg of each: its
    /// `pub` items, `pub mod`s and `pub use`s.
    fn exports(&self, m: &[String]) -> Vec<(String, Target, Option<String>)> {
        let module = &self.modules[m];
        let mut out = Vec::new();
        for (name, public, cfg) in &module.mods {
            if *public {
                let mut p = m.to_vec();
                p.push(name.clone());
                out.push((name.clone(), Target::Module(p), cfg.clone()));
            }
        }
        for i in module.items.iter().filter(|i| i.public) {
            out.push((
                i.name.clone(),
                Target::Item(m.to_vec(), i.name.clone(), i.kind),
                i.cfg.clone(),
            ));
        }
        if m.is_empty() {
            // `#[macro_export]` puts a macro at the root, wherever it is written.
            for (path, module) in &self.modules {
                for name in &module.macros {
                    out.push((
                        name.clone(),
                        Target::Item(path.clone(), name.clone(), "macro"),
                        None,
                    ));
                }
            }
        }
        for u in module.uses.iter().filter(|u| u.public) {
            assert!(
                u.name != "*",
                "a glob re-export (`pub use {}`) in {}: this test does not read those; name \
                 the items",
                u.path.join("::"),
                module_file(m).display()
            );
            let target = self.resolve(m, &u.path, 0).unwrap_or_else(|| {
                // An item of another crate, re-exported: listed by its path there.
                Target::Item(u.path.clone(), u.name.clone(), "use")
            });
            out.push((u.name.clone(), target, u.cfg.clone()));
        }
        out
    }

    /// The `pub fn`s of the inherent impls whose type is `ty` (declared as `name` in module
    /// `m`), with their cfg.
    fn methods(&self, m: &[String], name: &str) -> Vec<(String, Option<String>)> {
        let mut out = Vec::new();
        for (path, module) in &self.modules {
            for imp in &module.impls {
                let ty = if imp.ty.len() == 1 && imp.ty[0] == "Self" {
                    continue;
                } else {
                    self.resolve(path, &imp.ty, 0)
                };
                let same = match ty {
                    Some(Target::Item(d, n, _)) => d == m && n == name,
                    _ => false,
                };
                if same {
                    for (f, cfg) in &imp.methods {
                        out.push((f.clone(), cfg.clone().or_else(|| imp.cfg.clone())));
                    }
                }
            }
        }
        out
    }

    /// Every public item, as `gamedb::path (kind)` with its cfg, reached from the root.
    fn public_items(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut seen_types = BTreeSet::new();
        // Modules breadth first, so each type's methods are listed under its shortest path.
        let mut queue = VecDeque::from([(Vec::<String>::new(), None::<String>)]);
        let mut seen_modules = BTreeSet::from([Vec::<String>::new()]);
        let mut paths: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
        paths.insert(Vec::new(), vec!["gamedb".into()]);
        while let Some((m, mcfg)) = queue.pop_front() {
            let shown = paths[&m].clone();
            for (name, target, cfg) in self.exports(&m) {
                let cfg = cfg.or_else(|| mcfg.clone());
                let mut path = shown.clone();
                path.push(name.clone());
                let line = |kind: &str, path: &[String], cfg: &Option<String>| match cfg {
                    Some(c) => format!("{} ({kind}) #[{c}]", path.join("::")),
                    None => format!("{} ({kind})", path.join("::")),
                };
                match target {
                    Target::Module(p) => {
                        out.insert(line("mod", &path, &cfg));
                        if seen_modules.insert(p.clone()) {
                            paths.insert(p.clone(), path);
                            queue.push_back((p, cfg));
                        }
                    }
                    Target::Item(d, n, kind) => {
                        out.insert(line(kind, &path, &cfg));
                        if matches!(kind, "struct" | "enum" | "union" | "type")
                            && seen_types.insert((d.clone(), n.clone()))
                        {
                            for (f, fcfg) in self.methods(&d, &n) {
                                let mut mp = path.clone();
                                mp.push(f);
                                out.insert(line("fn", &mp, &fcfg.or_else(|| cfg.clone())));
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

fn public_items() -> BTreeSet<String> {
    Crate {
        modules: crate_modules(),
    }
    .public_items()
}

#[test]
fn the_public_items_are_the_listed_ones() {
    let found = public_items();
    let list = Path::new(ROOT).join(LIST);
    if std::env::var("GAMEDB_PUBLIC_API").as_deref() == Ok("write") {
        let text: String = found.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&list, text).unwrap();
        return;
    }
    let text = std::fs::read_to_string(&list).unwrap_or_default();
    let listed: BTreeSet<String> = text.lines().map(String::from).collect();
    let added: Vec<&String> = found.difference(&listed).collect();
    let removed: Vec<&String> = listed.difference(&found).collect();
    let show = |v: &[&String]| v.iter().map(|l| format!("\n  {l}")).collect::<String>();
    assert!(
        added.is_empty() && removed.is_empty(),
        "the public items differ from {LIST}\nadded (public now, not listed):{}\nremoved (listed, \
         not public now):{}\nA change of the public surface is made on purpose: document what \
         is new where the guides say what is public, then write the list anew with \
         `GAMEDB_PUBLIC_API=write cargo test --test public_api`.",
        show(&added),
        show(&removed)
    );
}

/// The reader on a small crate of its own words: what is reached and what is not.
#[test]
fn the_reader_lists_what_the_root_reaches() {
    let lib = "
        //! docs
        pub mod open { pub fn f() {} fn hidden() {} pub(crate) fn inner() {}
            pub struct S; impl S { pub fn new() -> S { S } fn private(&self) {} }
            impl Clone for S { fn clone(&self) -> S { S } }
            #[cfg(test)] pub fn only_in_tests() {}
            #[cfg(feature = \"python\")] pub fn py() {}
        }
        mod closed { pub fn g() {} pub struct T; impl T { pub const fn make() -> T { T } }
            pub(crate) struct U; }
        pub use closed::T;
        pub use self::closed::{g as renamed};
        #[cfg(fuzzing)] pub mod fuzzing { pub use crate::closed::g; }
        #[macro_export] macro_rules! m { () => {} }
        pub const C: &str = \"pub fn not_an_item() {}\";
    ";
    let mut modules = BTreeMap::new();
    let mut files = Vec::new();
    read_items(&tokens(lib), 0, &[], &mut modules, &mut files);
    assert!(files.is_empty(), "{files:?}");
    let items = Crate { modules }.public_items();
    let expected = [
        "gamedb::C (const)",
        "gamedb::T (struct)",
        "gamedb::T::make (fn)",
        "gamedb::m (macro)",
        "gamedb::open (mod)",
        "gamedb::open::S (struct)",
        "gamedb::open::S::new (fn)",
        "gamedb::open::f (fn)",
        "gamedb::open::py (fn) #[cfg(feature = \"python\")]",
        "gamedb::renamed (fn)",
    ];
    assert_eq!(
        items.iter().map(String::as_str).collect::<Vec<_>>(),
        expected,
        "the reader's list of a small crate"
    );
}
