//! House rules read from the source files.
//!
//! * no function under `src/` is longer than [`MAX_FN_LINES`] lines, counted from the line of
//!   its `fn` to the line of its closing brace (a long function is split into named steps);
//!   the few not yet split are named in [`LONG_FN_EXCEPTIONS`], and an exception that is no
//!   longer needed fails too, so the list only shrinks;
//! * nothing reads outside the repository.
//!
//! The functions are found by a small scanner, not a parser: it skips comments (nested block
//! comments too), strings (raw and byte strings too) and char literals, takes `fn` followed by
//! a name as a function (`fn(u8) -> u8`, a pointer type, is not one), and matches the braces of
//! its body. Functions inside functions, impls, traits and modules are each counted on their own.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The most lines a function may take, from its `fn` line to its closing brace.
const MAX_FN_LINES: usize = 150;

/// Functions allowed over [`MAX_FN_LINES`] for now, as (file relative to the crate root, name).
/// Each entry is a debt: remove it in the change that splits the function.
const LONG_FN_EXCEPTIONS: &[(&str, &str)] = &[];

/// One function found in a source text.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Function {
    name: String,
    /// The 1-based line of its `fn` keyword.
    line: usize,
    /// Lines from the `fn` line to the closing brace's line, both counted.
    lines: usize,
}

/// Every file under `dir` (recursively) whose name ends with `.rs`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The file's name relative to the crate root, with `/` between folders, for messages and the
/// exception list.
fn shown(p: &Path) -> String {
    let rel = p.strip_prefix(ROOT).unwrap_or(p);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A code token as the scanner needs it: words and the punctuation that shapes items.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Word(String),
    Punct(char),
}

/// The source text as code tokens, each with its 1-based line; comments, strings and char
/// literals are dropped (their lines still counted), so a brace inside one is never matched.
fn tokens(text: &str) -> Vec<(Tok, usize)> {
    let s: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Moves `i` past `n` chars, counting the newlines passed.
    let advance = |i: &mut usize, line: &mut usize, n: usize| {
        for _ in 0..n {
            if *i < s.len() && s[*i] == '\n' {
                *line += 1;
            }
            *i += 1;
        }
    };
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            // Block comments nest in Rust.
            let mut depth = 0;
            loop {
                if i >= s.len() {
                    break;
                }
                if s[i] == '/' && s.get(i + 1) == Some(&'*') {
                    depth += 1;
                    advance(&mut i, &mut line, 2);
                } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    advance(&mut i, &mut line, 2);
                    if depth == 0 {
                        break;
                    }
                } else {
                    advance(&mut i, &mut line, 1);
                }
            }
        } else if c == '"' {
            skip_string(&s, &mut i, &mut line);
        } else if c == '\'' {
            skip_char_or_lifetime(&s, &mut i, &mut line);
        } else if is_ident_start(c) {
            let start = i;
            while i < s.len() && is_ident(s[i]) {
                i += 1;
            }
            let word: String = s[start..i].iter().collect();
            let prefix = matches!(word.as_str(), "r" | "br" | "cr" | "b" | "c");
            let raw = matches!(word.as_str(), "r" | "br" | "cr");
            if prefix && s.get(i) == Some(&'"') {
                if raw {
                    skip_raw_string(&s, &mut i, &mut line, 0);
                } else {
                    skip_string(&s, &mut i, &mut line);
                }
            } else if raw && s.get(i) == Some(&'#') {
                let mut hashes = 0;
                while s.get(i + hashes) == Some(&'#') {
                    hashes += 1;
                }
                if s.get(i + hashes) == Some(&'"') {
                    i += hashes;
                    skip_raw_string(&s, &mut i, &mut line, hashes);
                } else {
                    // A raw identifier (`r#type`): the word is the name after the `#`.
                    let start = i + 1;
                    i = start;
                    while i < s.len() && is_ident(s[i]) {
                        i += 1;
                    }
                    out.push((Tok::Word(s[start..i].iter().collect()), line));
                }
            } else if word == "b" && s.get(i) == Some(&'\'') {
                skip_char_or_lifetime(&s, &mut i, &mut line);
            } else {
                out.push((Tok::Word(word), line));
            }
        } else if c.is_ascii_digit() {
            // A number (its suffix too), so `1u8` is not read as a word.
            while i < s.len() && is_ident(s[i]) {
                i += 1;
            }
        } else {
            if !c.is_whitespace() {
                out.push((Tok::Punct(c), line));
            }
            advance(&mut i, &mut line, 1);
        }
    }
    out
}

/// Moves past a string that starts at `s[*i] == '"'`, escapes honoured.
fn skip_string(s: &[char], i: &mut usize, line: &mut usize) {
    *i += 1;
    while *i < s.len() {
        match s[*i] {
            '\\' => {
                if s.get(*i + 1) == Some(&'\n') {
                    *line += 1;
                }
                *i += 2;
            }
            '"' => {
                *i += 1;
                return;
            }
            c => {
                if c == '\n' {
                    *line += 1;
                }
                *i += 1;
            }
        }
    }
}

/// Moves past a raw string whose opening quote is at `s[*i]`, closed by `"` and `hashes` `#`s.
fn skip_raw_string(s: &[char], i: &mut usize, line: &mut usize, hashes: usize) {
    *i += 1;
    while *i < s.len() {
        if s[*i] == '"' && (0..hashes).all(|k| s.get(*i + 1 + k) == Some(&'#')) {
            *i += 1 + hashes;
            return;
        }
        if s[*i] == '\n' {
            *line += 1;
        }
        *i += 1;
    }
}

/// Moves past a char literal (`'{'`, `'\''`, `'\u{7b}'`) or a lifetime or label (`'a`) that
/// starts at `s[*i] == '\''`.
fn skip_char_or_lifetime(s: &[char], i: &mut usize, line: &mut usize) {
    if s.get(*i + 1) == Some(&'\\') {
        // An escaped char: runs to the next quote after the escape's first char.
        *i += 3;
        while *i < s.len() && s[*i] != '\'' {
            *i += 1;
        }
        *i += 1;
    } else if s.get(*i + 2) == Some(&'\'') {
        if s.get(*i + 1) == Some(&'\n') {
            *line += 1;
        }
        *i += 3;
    } else {
        // A lifetime or a label: the quote alone; its name is read as a word next.
        *i += 1;
    }
}

/// Every function with a body in `text`, in the order of their `fn` lines.
fn functions(text: &str) -> Vec<Function> {
    let toks = tokens(text);
    let mut out = Vec::new();
    for (k, (tok, line)) in toks.iter().enumerate() {
        if *tok != Tok::Word("fn".into()) {
            continue;
        }
        let Some((Tok::Word(name), _)) = toks.get(k + 1) else {
            // `fn(..)`: a function pointer type, not an item.
            continue;
        };
        if let Some(end) = body_end(&toks, k + 2) {
            out.push(Function {
                name: name.clone(),
                line: *line,
                lines: end - line + 1,
            });
        }
    }
    out
}

/// The line of the closing brace of the body of the function whose signature starts at
/// `toks[from]`, or `None` for a declaration without a body (`fn f();` in a trait or an
/// `extern` block). The body is the first `{` outside the signature's parentheses and
/// brackets (`[u8; 3]` holds a `;` that ends nothing).
fn body_end(toks: &[(Tok, usize)], from: usize) -> Option<usize> {
    let mut nesting = 0i64;
    let mut k = from;
    while k < toks.len() {
        match toks[k].0 {
            Tok::Punct('(' | '[') => nesting += 1,
            Tok::Punct(')' | ']') => nesting -= 1,
            Tok::Punct(';') if nesting == 0 => return None,
            Tok::Punct('{') if nesting == 0 => break,
            _ => {}
        }
        k += 1;
    }
    let mut depth = 0i64;
    while k < toks.len() {
        match toks[k].0 {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    return Some(toks[k].1);
                }
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// `file:line:name:lines` for each function under `src/` longer than `limit` lines and not in
/// `exceptions`, and each exception that matched no such function (a stale entry).
fn long_functions(limit: usize, exceptions: &[(&str, &str)]) -> (Vec<String>, Vec<String>) {
    let mut long = Vec::new();
    let mut used = vec![false; exceptions.len()];
    for path in rust_files(&Path::new(ROOT).join("src")) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let file = shown(&path);
        for f in functions(&text) {
            if f.lines <= limit {
                continue;
            }
            match exceptions
                .iter()
                .position(|&(ef, en)| ef == file && en == f.name)
            {
                Some(at) => used[at] = true,
                None => long.push(format!("{file}:{}:{}:{}", f.line, f.name, f.lines)),
            }
        }
    }
    let stale = exceptions
        .iter()
        .zip(&used)
        .filter(|(_, &u)| !u)
        .map(|((file, name), _)| format!("{file}:{name}"))
        .collect();
    (long, stale)
}

#[test]
fn no_function_over_the_limit() {
    let (long, stale) = long_functions(MAX_FN_LINES, LONG_FN_EXCEPTIONS);
    assert!(
        long.is_empty(),
        "functions longer than {MAX_FN_LINES} lines (file:line:name:lines); split them into \
         named steps:\n{}",
        long.join("\n")
    );
    assert!(
        stale.is_empty(),
        "exceptions in LONG_FN_EXCEPTIONS no longer over {MAX_FN_LINES} lines; remove them:\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_scanner_finds_every_function_and_its_length() {
    let text = r####"
// fn commented_out() { {
/* fn blocked() { /* nested { */ } */
trait T {
    fn declared(&self, a: [u8; 3]) -> u8;
    fn defaulted(&self) -> u8 {
        7
    }
}
fn outer<'a>(f: fn(u8) -> u8, s: &'a str) -> impl Fn() + 'a {
    let brace = '{';
    let quote = '\'';
    let escaped = '\u{7d}';
    let byte = b'{';
    let text = "} { \" }";
    let raw = r#"}"# ;
    let raw_bytes = br##"{ "# }"##;
    fn inner() {
        'label: loop {
            break 'label;
        }
    }
    move || {
        let _ = (brace, quote, escaped, byte, text, raw, raw_bytes, f, s);
    }
}
extern "C" {
    fn external(x: i32) -> i32;
}
fn r#type() {}
"####;
    let found: Vec<(String, usize, usize)> = functions(text)
        .into_iter()
        .map(|f| (f.name, f.line, f.lines))
        .collect();
    let expected: Vec<(String, usize, usize)> = vec![
        ("defaulted".into(), 6, 3),
        ("outer".into(), 10, 17),
        ("inner".into(), 18, 5),
        ("type".into(), 30, 1),
    ];
    assert_eq!(found, expected);
}
