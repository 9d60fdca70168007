//! The console examples of `README.md` and of the guides (`src/guide/*.md`) are run here with
//! trycmd, so that a changed message, key or count fails a test instead of drifting.
//!
//! Every ```` ```console ```` block is a transcript: `$ gamedb ARGS` lines, each followed by
//! its output (stdout and stderr together; `? 2` after the command for an expected exit
//! status). `[..]` matches the rest of a line's variable part (timings, sizes of this machine)
//! and `...` alone on a line matches any number of lines. Each document runs in a fresh empty
//! folder of its own, its blocks in order, so a document builds the tables it queries.
//! Blocks marked ```` ```text ```` are not run: recorded output of long runs (benchmarks,
//! research), each with the command that reproduces it.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::http::{build, Server};
use common::{gamedb, gamedb_ok, python, shared_library, stderr, TempDir, ROOT};

/// README.md and every guide.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![Path::new(ROOT).join("README.md")];
    let guide = Path::new(ROOT).join("src/guide");
    let mut guides: Vec<PathBuf> = std::fs::read_dir(&guide)
        .unwrap_or_else(|e| panic!("{}: {e}", guide.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    guides.sort();
    docs.extend(guides);
    docs
}

/// The fenced blocks of a Markdown text, as (info string, first line number, lines).
fn blocks(text: &str) -> Vec<(String, usize, Vec<&str>)> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize, Vec<&str>)> = None;
    for (i, line) in text.lines().enumerate() {
        match open.take() {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    open = Some((info.trim().to_string(), i + 1, Vec::new()));
                }
            }
            Some((info, at, mut body)) => {
                if line.starts_with("```") {
                    out.push((info, at, body));
                } else {
                    body.push(line);
                    open = Some((info, at, body));
                }
            }
        }
    }
    out
}

/// The transcripts of a block that starts at line `at` of `doc`: each `$ command` with its
/// line number and the lines shown after it, up to the next command.
fn transcripts<'a>(doc: &str, at: usize, body: &[&'a str]) -> Vec<(usize, &'a str, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let cmd = body[i]
            .strip_prefix("$ ")
            .unwrap_or_else(|| panic!("{doc}:{}: expected `$ `", at + 1 + i));
        let line = at + 1 + i;
        i += 1;
        let start = i;
        while i < body.len() && !body[i].starts_with("$ ") {
            i += 1;
        }
        out.push((line, cmd, body[start..i].join("\n")));
    }
    out
}

/// The text with an empty line closing each transcript's output: trycmd drops the last line
/// end of an expected output (for outputs without one), while gamedb ends every line; the
/// documents stay free of those empty lines.
fn for_trycmd(text: &str) -> String {
    let mut out = String::new();
    let mut in_console = false;
    let mut last = "";
    for line in text.lines() {
        if in_console && (line.starts_with("$ ") || line.starts_with("```")) && !last.is_empty() {
            let first = last.starts_with("```");
            if !first {
                out.push('\n');
            }
        }
        if line.starts_with("```") {
            in_console = !in_console && line.trim_start_matches('`').trim() == "console";
        }
        out.push_str(line);
        out.push('\n');
        last = line;
    }
    out
}

#[test]
fn console_examples_run_as_written() {
    let dir = TempDir::new("docs");
    let cases = trycmd::TestCases::new();
    cases.register_bin("gamedb", Path::new(env!("CARGO_BIN_EXE_gamedb")));
    let mut examples = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        examples += blocks(&text)
            .iter()
            .filter(|(info, _, _)| info == "console")
            .count();
        // trycmd runs a document in `NAME.in/` beside it: a fresh folder each. The guides are
        // named `guide-NAME`, so that `src/guide/README.md` does not replace `README.md`.
        let stem = doc.file_stem().unwrap().to_string_lossy().to_string();
        let name = if doc.parent() == Some(Path::new(ROOT)) {
            stem
        } else {
            format!("guide-{stem}")
        };
        let copy = dir.path().join(format!("{name}.md"));
        std::fs::write(&copy, for_trycmd(&text)).unwrap();
        std::fs::create_dir_all(dir.path().join(format!("{name}.in"))).unwrap();
        cases.case(copy);
    }
    assert!(
        examples >= 20,
        "only {examples} console examples found: the documents lost their examples"
    );
    cases.run();
    // README's Python example runs in tests/python_package.rs (a fresh venv with the package).
}

/// A block without an info string would be taken for a transcript by trycmd (and a reader
/// cannot tell what it is); a `$ gamedb` line in README outside a `console` block would not
/// be tested.
#[test]
fn every_block_says_what_it_is_and_readme_examples_are_run() {
    let mut bad = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        let shown = doc.strip_prefix(ROOT).unwrap_or(&doc).display().to_string();
        for (info, at, body) in blocks(&text) {
            if info.is_empty() {
                bad.push(format!("{shown}:{at}: a block without an info string"));
            }
            let readme = shown == "README.md";
            if readme && info != "console" && body.iter().any(|l| l.starts_with("$ gamedb")) {
                bad.push(format!(
                    "{shown}:{at}: a `$ gamedb` example outside a console block"
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The `curl` requests of the service guide, sent to a real `gamedb serve` over the folder
/// the guide describes (the server runs until stopped, so trycmd cannot run them): each answer
/// must equal the text shown, byte for byte, with ` STATUS` after it where the request asks
/// curl for the status (`-w ' %{http_code}\n'`).
#[test]
fn service_examples_answer_as_written() {
    let dir = TempDir::new("docs-service");
    build(
        &dir.path().join("tables"),
        &[
            "chomp --rows 10 --cols 10",
            "slide --rows 3 --cols 3",
            "nim --heaps 3 --max-heap 7",
            "wythoff --max-heap 30",
            "fifteen",
        ],
    );
    let server = Server::start_in(dir.path(), "tables", &[]);
    let guide = std::fs::read_to_string(Path::new(ROOT).join("src/guide/service.md")).unwrap();
    let (mut checked, mut bad) = (0, Vec::new());
    for (_, at, body) in blocks(&guide).into_iter().filter(|b| b.0 == "text") {
        for (line, cmd, want) in transcripts("src/guide/service.md", at, &body) {
            if !cmd.contains("curl ") {
                continue;
            }
            // The URL is the quoted word that starts with http://; a printf before the pipe
            // gives the body of a POST.
            let quoted: Vec<&str> = cmd.split('\'').skip(1).step_by(2).collect();
            let url = quoted.iter().find(|q| q.starts_with("http://")).unwrap();
            let path = url.trim_start_matches("http://127.0.0.1:8080");
            let response = match cmd.strip_prefix("printf ") {
                Some(_) => server.post(path, quoted[0].replace("\\n", "\n").as_bytes()),
                None => server.get(path),
            };
            let mut got = response.text().trim_end().to_string();
            if cmd.contains("%{http_code}") {
                got = format!("{got} {}", response.status);
            }
            checked += 1;
            if got != want {
                bad.push(format!(
                    "src/guide/service.md:{line}: {cmd}\n  shown: {want}\n  got:   {got}"
                ));
            }
        }
    }
    assert!(
        checked >= 8,
        "only {checked} requests found in the service guide"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The interop guide's shell, C, bash and Python examples, run for real in a folder laid out
/// as the repository is after `cargo build --release` (`src/gamedb.h`,
/// `target/release/{gamedb,libgamedb.so}`, the guide's two tables); `python3` is `$PYTHON`.
/// What each prints (stdout, then stderr) must equal the text shown.
#[test]
fn interop_examples_run_as_written() {
    use std::os::unix::fs::symlink;
    use std::process::Command;
    let dir = TempDir::new("docs-interop");
    let root = dir.path();
    let release = root.join("target/release");
    let bin = root.join("bin");
    for d in [
        root.join("src"),
        root.join("scripts"),
        release.clone(),
        bin.clone(),
    ] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::copy(
        Path::new(ROOT).join("src/gamedb.h"),
        root.join("src/gamedb.h"),
    )
    .unwrap();
    let lib = shared_library();
    symlink(&lib, release.join(lib.file_name().unwrap())).unwrap();
    symlink(env!("CARGO_BIN_EXE_gamedb"), release.join("gamedb")).unwrap();
    // `python3` in the examples is `$PYTHON`, called by a script (a link to a venv's Python
    // would lose the venv, which Python finds from the path it was called by).
    let python = Command::new(python())
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    let python = String::from_utf8(python.stdout).unwrap();
    let wrapper = bin.join("python3");
    std::fs::write(
        &wrapper,
        format!("#!/bin/sh\nexec '{}' \"$@\"\n", python.trim()),
    )
    .unwrap();
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let path = format!(
        "{}:{}:{}",
        bin.display(),
        release.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = |program: &str, args: &[&str]| -> String {
        let out = Command::new(program)
            .args(args)
            .current_dir(root)
            .env("PATH", &path)
            .output()
            .unwrap_or_else(|e| panic!("{program}: {e}"));
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    for table in ["--heaps 3 --max-heap 7", "--heaps 6 --max-heap 15"] {
        let mut args = vec!["build", "nim", "--quiet"];
        args.extend(table.split(' '));
        run("gamedb", &args);
    }
    let guide = std::fs::read_to_string(Path::new(ROOT).join("src/guide/interop.md")).unwrap();
    let blocks = blocks(&guide);
    let (mut checked, mut bad) = (0, Vec::new());
    let mut compare = |at: usize, what: &str, got: String, want: String| {
        checked += 1;
        if got.trim_end() != want.trim_end() {
            bad.push(format!(
                "src/guide/interop.md:{at}: {what}\n  shown:\n{want}\n  got:\n{got}"
            ));
        }
    };
    for (k, (info, at, body)) in blocks.iter().enumerate() {
        let next_text = blocks
            .get(k + 1)
            .filter(|b| b.0 == "text")
            .map(|b| b.2.join("\n"));
        match info.as_str() {
            // "Save this as nim.c in the repository".
            "c" => std::fs::write(root.join("nim.c"), body.join("\n") + "\n").unwrap(),
            // Transcripts: `$ command`, then what it prints.
            "sh" => {
                for (line, cmd, want) in transcripts("src/guide/interop.md", *at, body) {
                    compare(line, cmd, run("bash", &["-c", cmd]), want);
                }
            }
            // A program, then what it prints in the text block after it.
            "bash" | "python" => {
                let want = next_text
                    .unwrap_or_else(|| panic!("src/guide/interop.md:{at}: no output shown"));
                let interpreter = if info == "bash" { "bash" } else { "python3" };
                let code = body.join("\n");
                compare(*at, info, run(interpreter, &["-c", &code]), want);
            }
            _ => {}
        }
    }
    assert!(
        checked >= 4,
        "only {checked} examples found in the interop guide"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The transcripts of `src/guide/play.md` (its `text` blocks of `printf ... | gamedb play`),
/// run over the tables the guide builds (its moves on standard input, its output and errors
/// together), must print what the guide shows.
#[test]
fn play_transcripts_run_as_written() {
    let dir = TempDir::new("play-guide");
    build(
        &dir.path().join("tables"),
        &[
            "mnk --rows 3 --cols 3 --k 3",
            "candy --max-candies 13 --max-take 3 --win even",
            "nim --heaps 3 --max-heap 5",
            "chomp --rows 4 --cols 7",
            "slide --rows 3 --cols 3",
            "weighing --balls 12 --tell",
        ],
    );
    let guide = std::fs::read_to_string(Path::new(ROOT).join("src/guide/play.md")).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_gamedb")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut run = 0;
    let mut bad = Vec::new();
    let mut lines = guide.lines().peekable();
    while let Some(line) = lines.next() {
        if line != "```text" {
            continue;
        }
        let mut body = Vec::new();
        for l in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            body.push(l);
        }
        let Some(cmd) = body.first().and_then(|l| l.strip_prefix("$ ")) else {
            continue;
        };
        if !cmd.contains("| gamedb play") {
            continue;
        }
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("{cmd} 2>&1"))
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        let got = String::from_utf8_lossy(&out.stdout).trim_end().to_string();
        let want = body[1..].join("\n");
        run += 1;
        if got != want {
            bad.push(format!("$ {cmd}\n--- shown:\n{want}\n--- got:\n{got}"));
        }
    }
    assert!(
        run >= 5,
        "only {run} transcripts found in src/guide/play.md"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n\n"));
}

/// A document of the repository, by its path from the root.
fn document(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The statements `gamedb verify --list` names (the first word of each unindented line before
/// the blank line), and its last line, the counts of the plan.
fn statements_listed() -> (Vec<String>, String) {
    let list = gamedb_ok(&["verify", "--list"]);
    let (entries, plan) = list
        .split_once("\n\n")
        .unwrap_or_else(|| panic!("no blank line before the plan in `verify --list`:\n{list}"));
    let names = entries
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    (names, plan.trim_end().to_string())
}

/// The number just before `words` in `text` (`runs the 68 light ones`: 68 before ` light`).
fn number_before(text: &str, words: &str) -> usize {
    let at = text
        .find(words)
        .unwrap_or_else(|| panic!("no {words:?} in {text:?}"));
    let digits: String = text[..at]
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number before {words:?} in {text:?}"))
}

/// What README.md and the guides state of the code, held to it: the install line
/// installs the lock's versions; the catalog's count of tables, the counts of the statements
/// (all of them, the light ones a plain `gamedb verify` runs, the heavy ones it leaves out, by
/// family in the verify guide) are the code's; every registered game has a row in README's
/// table of games, and each row's command builds its table. (README's console examples are
/// run by `console_examples_run_as_written`; `cargo install` itself, a full release build, is
/// left to scripts/check/setup-times.sh.)
#[test]
fn readme_counts_and_commands_are_the_codes() {
    let readme = document("README.md");
    // The install line, and no other spelling of it.
    assert!(
        readme.contains("cargo install --locked --path ."),
        "README: no install line"
    );
    for line in readme.lines().filter(|l| l.contains("cargo install")) {
        assert!(
            line.contains("--locked"),
            "README: an install without --locked: {line}"
        );
    }
    // The standard catalog's tables.
    let tables = gamedb::cli::catalog::parse(gamedb::cli::catalog::STANDARD, "standard")
        .unwrap()
        .len();
    let joined = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    for stated in [
        format!("[`tables/catalog.txt`](tables/catalog.txt), {tables} tables"),
        format!("total: {tables} tables ({tables} built)"),
    ] {
        assert!(joined.contains(&stated), "README does not say {stated:?}");
    }

    // The statements: all, light and heavy, as the plan line of `verify --list` counts them.
    let (names, plan) = statements_listed();
    let total = number_before(&plan, " statements:");
    let light = number_before(&plan, " light ones");
    let heavy = number_before(&plan, " heavy ones");
    assert_eq!(total, names.len(), "{plan}");
    assert_eq!(light + heavy, total, "{plan}");
    for (doc, needles) in [
        (
            "README.md",
            vec![
                format!("runs the {light} light statements of the {total}"),
                format!("the {heavy} heavy ones"),
            ],
        ),
        (
            "src/guide/verify.md",
            vec![
                format!("names all {total} statements"),
                format!("runs the {light} light ones"),
                format!("the {heavy} heavy ones"),
            ],
        ),
        (
            "src/guide/README.md",
            vec![format!("the {total} statements")],
        ),
    ] {
        // Lines joined: a sentence may wrap anywhere.
        let text = document(doc)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for n in needles {
            assert!(
                text.contains(&n),
                "{doc} does not say {n:?} (`verify --list`: {plan})"
            );
        }
    }
    // The verify guide's count of each family, by the names' prefixes; every statement is of
    // one family.
    let families: [(&str, &[&str]); 12] = [
        ("candy game", &["candy-"]),
        ("Nim", &["nim-"]),
        ("Chomp", &["chomp-"]),
        ("three-rowed Chomp", &["chomp3-"]),
        ("sliding puzzles", &["slide-"]),
        ("Wythoff's game", &["wythoff-"]),
        ("octal games", &["octal-"]),
        (
            "the m,n,k-games and Zermelo's theorem",
            &["mnk-", "zermelo"],
        ),
        ("Connect Four", &["connect4-"]),
        ("the mill games", &["mill-"]),
        ("ball weighing", &["weighing-"]),
        ("chess endings", &["chess-"]),
    ];
    let guide = document("src/guide/verify.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let of = |prefixes: &[&str], n: &String| prefixes.iter().any(|p| n.starts_with(p));
    for (family, prefixes) in families {
        let count = names.iter().filter(|n| of(prefixes, n)).count();
        let stated = format!("{family} {count}");
        // An item of the list in brackets: `(candy game 5, Nim 8, ..., chess endings 5;`.
        let item = [
            format!("({stated},"),
            format!(", {stated},"),
            format!(", {stated};"),
        ];
        assert!(
            item.iter().any(|i| guide.contains(i)),
            "src/guide/verify.md does not say {stated:?}"
        );
    }
    for n in &names {
        assert!(
            families.iter().any(|(_, p)| of(p, n)),
            "{n}: of no family the verify guide counts"
        );
    }

    // Every registered game in the table of games; each row's command builds its table.
    let rows: Vec<&str> = readme
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("`gamedb build "))
        .collect();
    for game in gamedb::Registry::builtin().games() {
        let build = format!("`gamedb build {}", game.name);
        assert!(
            rows.iter().any(|r| r.contains(&build)),
            "README's table of games has no row with {build}`"
        );
    }
    let dir = TempDir::new("readme-games");
    let mut built = 0;
    for row in rows {
        // The second column: the build command, alone between backticks.
        let command = row
            .trim_matches('|')
            .split(" | ")
            .nth(1)
            .map(|c| c.trim().trim_matches('`'))
            .filter(|c| c.starts_with("gamedb build "))
            .unwrap_or_else(|| panic!("README: a row without a build command: {row}"));
        let mut args: Vec<&str> = command.split_whitespace().skip(1).collect();
        args.extend(["--out", dir.arg(), "-q"]);
        let o = gamedb(&args);
        assert!(o.status.success(), "README: `{command}`: {}", stderr(&o));
        built += 1;
    }
    assert!(built >= 15, "only {built} rows in README's table of games");
    let files = std::fs::read_dir(dir.path()).unwrap().count();
    assert!(files >= built, "{built} builds wrote {files} tables");
}
