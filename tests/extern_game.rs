//! Games of other crates, end to end. `tests/kayles/` and `tests/hexapawn/` are crates of their
//! own (each its own workspace and `Cargo.lock`) that depend on gamedb by path, implement a game
//! through the game traits (Kayles, an impartial game, as a `SimpleGame`; Hexapawn, a
//! two-player game, as a `TwoPlayerGame`), and register it in their binary with one line. This
//! test builds each crate and runs its unit tests (the conformance checks of its samples, and
//! the published values of Kayles; every Hexapawn position against a plain minimax), drives the
//! binaries through `build`, `query` (arguments, `#INDEX`, the stdin stream), `play`, `info`,
//! `export`, `verify-table` and `serve`, and opens their tables with the plain `gamedb` binary,
//! which does not know the games: counts and queries by index, positions refused.
//!
//! The nested builds compile gamedb and its dependencies a second time, once for both crates
//! (their locks hold the same versions), into `<target>/outside` (never the target folder of
//! the running `cargo test`, which cargo holds locked), with the profile of this run: minutes on
//! a cold folder, seconds after. README's install line, `cargo install --locked --path .`, runs
//! into that folder too (its dependencies compiled alike, so it compiles gamedb's binary alone),
//! and the binary it installs builds the standard catalog with `gamedb build-all`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

use common::http::Server;
use common::*;

/// Grundy values of a full row of `n` pins, n = 0..=15: Kayles, OEIS A002186 (Berlekamp,
/// Conway & Guy, Winning Ways, ch. 4, p. 91).
const PUBLISHED: [u64; 16] = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7];

/// Held while a cargo command of this file runs: they share `<target>/outside`, and cargo's
/// lock of a folder does not cover a command's whole run (the doc tests of one crate read
/// gamedb's library while an install writes it), so they run one at a time.
fn cargo_alone() -> std::sync::MutexGuard<'static, ()> {
    static CARGO: std::sync::Mutex<()> = std::sync::Mutex::new(());
    CARGO.lock().unwrap_or_else(|e| e.into_inner())
}

/// `cargo SUBCOMMAND` on the crate `tests/CRATE`, with this run's profile, into
/// `<target>/outside`; prints what it ran and how long it took. Returns the target folder.
fn cargo_outside(krate: &str, subcommand: &str) -> PathBuf {
    let profile = profile_dir();
    let release = profile.file_name().is_some_and(|p| p == "release");
    let target = profile
        .parent()
        .expect("<target>/<profile>")
        .join("outside");
    let manifest = Path::new(ROOT).join(format!("tests/{krate}/Cargo.toml"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(&cargo);
    cmd.args([subcommand, "--locked", "--manifest-path"])
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", &target);
    if release {
        cmd.arg("--release");
    }
    eprintln!(
        "extern_game: cargo {subcommand} of tests/{krate} ({}) into {} ...",
        if release { "release" } else { "debug" },
        target.display()
    );
    let started = Instant::now();
    let _alone = cargo_alone();
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{cargo} does not run: {e}"));
    eprintln!(
        "extern_game: cargo {subcommand} of tests/{krate} took {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(
        out.status.success(),
        "cargo {subcommand} --manifest-path {} failed:\n{}{}",
        manifest.display(),
        stdout(&out),
        stderr(&out)
    );
    if subcommand == "test" {
        let said = stdout(&out);
        let tests = if krate == "kayles" { 3 } else { 4 };
        let passed = format!("test result: ok. {tests} passed");
        assert!(said.contains(&passed), "{said}");
    }
    target.join(if release { "release" } else { "debug" })
}

/// The kayles binary, built once for the tests of this file.
fn kayles() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| cargo_outside("kayles", "build").join("kayles"))
}

/// The hexapawn binary, built once for the tests of this file.
fn hexapawn() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| cargo_outside("hexapawn", "build").join("hexapawn"))
}

/// README's install line as written, `cargo install --locked --path .` (the lock's versions,
/// the ones these tests ran with), into a temporary root; the installed `gamedb` then runs
/// README's main job, `gamedb build-all`, which builds every table of the standard catalog and
/// ends with its total line. Into `<target>/outside`, where the crates of this file are built
/// with gamedb's own release settings: the install reuses their compiled dependencies and
/// compiles gamedb's crate alone (scripts/test.sh runs the release profile; a debug run of
/// this test compiles the dependencies for release once more).
#[test]
fn the_readme_install_line_installs_a_gamedb_that_builds_the_catalog() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let line = "cargo install --locked --path .";
    assert!(readme.contains(line), "README.md: no `{line}`");
    // The dependencies first, as the other tests of this file build them (once a run).
    kayles();
    let target = profile_dir()
        .parent()
        .expect("<target>/<profile>")
        .join("outside");
    let root = TempDir::new("install-root");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let started = Instant::now();
    let _alone = cargo_alone();
    let out = Command::new(&cargo)
        .args(["install", "--locked", "--path", "."])
        .arg("--root")
        .arg(root.path())
        .current_dir(ROOT)
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .unwrap_or_else(|e| panic!("{cargo} does not run: {e}"));
    eprintln!(
        "extern_game: `{line}` into {} took {:.1} s",
        root.path().display(),
        started.elapsed().as_secs_f64()
    );
    assert!(out.status.success(), "`{line}` failed:\n{}", stderr(&out));
    let installed = root.path().join("bin/gamedb");
    assert!(installed.is_file(), "no {}", installed.display());

    // `gamedb build-all`: every table of the standard catalog, then the total line.
    let tables = gamedb::cli::catalog::parse(gamedb::cli::catalog::STANDARD, "standard")
        .unwrap()
        .len();
    let folder = TempDir::new("install-tables");
    let said = run_ok(&installed, &["build-all", "--out", folder.arg()]);
    let total = said.lines().last().unwrap_or("");
    let stated = format!("total: {tables} tables ({tables} built), ");
    assert!(
        total.starts_with(&stated),
        "build-all ended with {total:?}:\n{said}"
    );
    let bytes: u64 = std::fs::read_dir(folder.path())
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    assert!(
        total.starts_with(&format!("{stated}{bytes} bytes")),
        "{total}: the files hold {bytes} bytes"
    );
}

/// A full row of `n` pins in a table of `pins`: `n` ones, then zeros.
fn row(n: usize, pins: usize) -> String {
    let mut p = vec!["1"; n];
    p.resize(pins, "0");
    p.join(",")
}

#[test]
fn the_kayles_crate_passes_its_own_conformance_tests() {
    // Its unit tests: Spec::conformance and Spec::check_values on every sample (1..=8 pins),
    // the published values, parameters and move labels.
    cargo_outside("kayles", "test");
}

#[test]
fn the_hexapawn_crate_agrees_with_minimax_on_every_position() {
    // Its unit tests: every position of the 3×3, 4×3 and 3×4 boards solved through gamedb
    // against a plain minimax (value and remoteness), Gardner's result (Black wins the 3×3
    // game), the conformance checks of its sample and refused parameters and positions.
    cargo_outside("hexapawn", "test");
}

/// Hexapawn's start on the 3×3 board, as `query` reads it: White's pawns on row 1, Black's on
/// row 3, White to move.
const START: &str = "1,1,1,0,0,0,2,2,2,0";

#[test]
fn the_hexapawn_binary_builds_queries_and_plays_its_tables() {
    let h = hexapawn();
    let dir = TempDir::new("extern-hexapawn");
    let help = run_ok(h, &["build", "hexapawn/hexapawn", "--help"]);
    assert!(
        help.contains("--cols <C>") && help.contains("--rows <R>"),
        "{help}"
    );
    for words in [
        "--cols 3 --rows 3",
        "--cols 3 --rows 3 --values wlt",
        "--cols 4 --rows 3",
    ] {
        let mut args = vec!["build", "hexapawn/hexapawn", "-q", "--out", dir.arg()];
        args.extend(words.split_whitespace());
        run_ok(h, &args);
    }
    let t33 = dir.join("hexapawn-3-3.gtab");
    let wlt = dir.join("hexapawn-3-3-wlt.gtab");

    // The start is lost for White, the player to move (Gardner: Black wins), and every move
    // leaves Black a win.
    let start = json(&run_ok(h, &["query", "--json", &t33, START]));
    assert_eq!(start["value"], "lose", "{start}");
    let two_bits = json(&run_ok(h, &["query", "--json", &wlt, START]));
    assert_eq!(two_bits["value"], "lose", "{two_bits}");
    let text = run_ok(h, &["query", &t33, START]);
    assert!(text.contains("lose"), "{text}");
    run_refused(
        h,
        "too many pawns",
        &["query", &t33, "1,1,1,1,0,0,2,2,2,0"],
        &["more than 3 pawns of one side"],
    );
    run_refused(
        h,
        "short",
        &["query", &t33, "1,1,1"],
        &["3 numbers instead of 10"],
    );

    // play: the person plays White from the start, the table answers for Black; every move
    // White has loses, so the game ends with Black's pawn on row 1 or White stalemated.
    let out = run_stdin(
        h,
        &["play", &t33, "--color", "never"],
        b"a1-a2\nb1-b2\nc1-c2\n",
    );
    let said = stdout(&out) + &stderr(&out);
    assert!(said.contains("a1-a2"), "{said}");
    assert!(said.contains("The computer won"), "{said}");

    // info and verify-table, and the plain gamedb binary, which opens the table by its header.
    let info = json(&run_ok(h, &["info", "--json", &t33]));
    assert_eq!(info["game"], "hexapawn/hexapawn", "{info}");
    assert_eq!(info["parameters"], "cols=3,rows=3", "{info}");
    assert_eq!(info["entries"], 2 * 3u64.pow(9), "{info}");
    assert!(run_ok(h, &["verify-table", &t33]).contains(": OK"));
    let plain = json(&gamedb_ok(&["info", "--json", &t33]));
    assert_eq!(plain["known"], false, "{plain}");
    refused(
        "unknown game",
        &["query", &t33, START],
        &["game 'hexapawn/hexapawn' is not known to this build"],
    );
}

#[test]
fn the_kayles_binary_builds_and_answers_its_tables() {
    let k = kayles();
    let dir = TempDir::new("extern-kayles");
    let help = run_ok(k, &["build", "--help"]);
    assert!(help.contains("kayles/kayles"), "{help}");
    let help = run_ok(k, &["build", "kayles/kayles", "--help"]);
    assert!(help.contains("--pins <N>"), "{help}");
    for words in ["--pins 12", "--pins 12 --outcomes", "--pins 15"] {
        let mut args = vec!["build", "kayles/kayles", "-q", "--out", dir.arg()];
        args.extend(words.split_whitespace());
        run_ok(k, &args);
    }
    let t12 = dir.join("kayles-12.gtab");
    let t15 = dir.join("kayles-15.gtab");
    let t12p = dir.join("kayles-12-outcome.gtab");

    // Positions on the command line: the value, and winning moves with readable labels whose
    // leaves are P-positions.
    let full = row(12, 12);
    let answer = json(&run_ok(k, &["query", "--json", &t12, &full]));
    assert_eq!(answer["grundy"], PUBLISHED[12], "{answer}");
    assert_eq!(answer["outcome"], "N");
    let winning = moves(&answer, "winning_moves");
    assert!(!winning.is_empty(), "{answer}");
    for (label, leaves) in &winning {
        assert!(label.starts_with("knock down pin"), "{label}");
        let after = json(&run_ok(k, &["query", "--json", &t12, leaves]));
        assert_eq!(after["grundy"], 0, "{label} -> {leaves}: {after}");
    }
    let by_index = json(&run_ok(k, &["query", "--json", &t12, "#4095"]));
    assert_eq!(by_index["grundy"], answer["grundy"], "{by_index}");
    run_refused(
        k,
        "short row",
        &["query", &t12, "1,1,0"],
        &["3 pins instead of 12", "each 1 (standing) or 0 (down)"],
    );
    run_refused(
        k,
        "not a pin",
        &["query", &t12, &row(11, 12).replace("1,0", "2,0")],
        &["is 2"],
    );

    // The stdin stream: full rows of 0..=15 pins, the published values, one answer a line in
    // input order; the P/N table agrees (P exactly where the Grundy value is 0).
    let rows: String = (0..16).map(|n| row(n, 15) + "\n").collect();
    let out = run_stdin(k, &["query", &t15, "-", "--json"], rows.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    let grundy: Vec<u64> = json_lines(&stdout(&out))
        .iter()
        .map(|a| a["grundy"].as_u64().expect("a grundy value"))
        .collect();
    assert_eq!(grundy, PUBLISHED, "Kayles full rows (OEIS A002186)");
    let rows12: String = (0..=12).map(|n| row(n, 12) + "\n").collect();
    let out = run_stdin(k, &["query", &t12p, "-", "--json"], rows12.as_bytes());
    for (n, a) in json_lines(&stdout(&out)).iter().enumerate() {
        let p = PUBLISHED[n] == 0;
        assert_eq!(a["outcome"], if p { "P" } else { "N" }, "row of {n}: {a}");
    }

    // info, export, verify-table.
    let info = json(&run_ok(k, &["info", "--json", &t12]));
    assert_eq!(info["game"], "kayles/kayles");
    assert_eq!(info["parameters"], "pins=12");
    assert_eq!(info["rules_version"], 1);
    assert_eq!(info["known"], true);
    assert_eq!(info["entries"], 4096);
    assert_eq!(info["values"], "grundy");
    let csv = run_ok(k, &["export", &t12]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4097, "a header and 4096 rows");
    assert_eq!(lines[0], "index,position,outcome,grundy");
    assert_eq!(lines[4096], format!("4095,\"{full}\",N,{}", PUBLISHED[12]));
    for t in [&t12, &t12p, &t15] {
        let said = run_ok(k, &["verify-table", t]);
        assert!(said.contains(": OK"), "{said}");
    }

    // The plain gamedb binary does not know the game: it opens the table all the same, with
    // its identity and counts, answers by index, and refuses to read a position (exit 2;
    // the service: 422).
    let plain = json(&gamedb_ok(&["info", "--json", &t12]));
    assert_eq!(plain["known"], false, "{plain}");
    for key in [
        "game",
        "parameters",
        "rules_version",
        "entries",
        "p_positions",
    ] {
        assert_eq!(plain[key], info[key], "{key}");
    }
    for key in ["grundy_counts", "max_grundy", "checksum"] {
        assert_eq!(plain[key], info[key], "{key}");
    }
    let text = gamedb_ok(&["info", &t12]);
    assert!(text.contains("kayles/kayles pins=12"), "{text}");
    assert!(text.contains("not known to this build"), "{text}");
    let stored = json(&gamedb_ok(&["query", "--json", &t12, "#4095"]));
    assert_eq!(stored["index"], 4095, "{stored}");
    assert_eq!(stored["value"], PUBLISHED[12], "{stored}");
    assert_eq!(stored["outcome"], "N", "{stored}");
    refused(
        "unknown game",
        &["query", &t12, &full],
        &["game 'kayles/kayles' is not known to this build"],
    );
    gamedb_ok(&["verify-table", &t12]);
    let server = Server::start(dir.path(), &[]);
    let list = server.get("/api/tables").json();
    assert!(
        list.as_array().is_some_and(|l| l
            .iter()
            .any(|t| t["file"] == "kayles-12.gtab" && t["known"] == false)),
        "{list}"
    );
    let got = server.get(&format!("/api/tables/kayles-12.gtab/query?position={full}"));
    assert_eq!(got.status, 422, "{}", got.text());
    assert!(
        got.text().contains("not known to this build"),
        "{}",
        got.text()
    );
    drop(server);

    // The service of the kayles binary serves the tables: listed, queried by GET and POST,
    // each answer the line `query --json` prints.
    let server = Server::start_program(k, dir.path(), ".", &[]);
    let list = server.get("/api/tables").json();
    let listed = list
        .as_array()
        .and_then(|l| l.iter().find(|t| t["file"] == "kayles-12.gtab"))
        .unwrap_or_else(|| panic!("kayles-12.gtab not listed: {list}"));
    assert_eq!(listed["game"], "kayles/kayles", "{listed}");
    let got = server.get(&format!("/api/tables/kayles-12.gtab/query?position={full}"));
    assert_eq!(got.status, 200, "{}", got.text());
    let cli = run_ok(k, &["query", "--json", &t12, &full]);
    assert_eq!(got.text().trim_end(), cli.trim_end());
    let posted = server.post("/api/tables/kayles-15.gtab/query", rows.as_bytes());
    let grundy: Vec<u64> = json_lines(&posted.text())
        .iter()
        .map(|a| a["grundy"].as_u64().expect("a grundy value"))
        .collect();
    assert_eq!(grundy, PUBLISHED);
}

/// Whether `got` is the output `shown` in a guide: a line `...` stands for any lines, a line
/// ending in `[..]` for any line starting with what precedes it.
fn shown_as(shown: &[&str], got: &[&str]) -> bool {
    match (shown.first(), got.first()) {
        (None, _) => got.is_empty(),
        (Some(&"..."), _) => (0..=got.len()).any(|skip| shown_as(&shown[1..], &got[skip..])),
        (Some(_), None) => false,
        (Some(want), Some(line)) => {
            let same = match want.strip_suffix("[..]") {
                Some(prefix) => line.starts_with(prefix),
                None => want == line,
            };
            same && shown_as(&shown[1..], &got[1..])
        }
    }
}

/// The `rust` blocks of the game authors' guide quote the Kayles crate: each block's lines
/// (after its leading comments, without their indentation) stand in that order in
/// `tests/kayles/src/lib.rs` or `src/main.rs`, so the page shows the code the tests build.
#[test]
fn the_game_authors_guide_quotes_the_kayles_crate() {
    let read = |p: &str| std::fs::read_to_string(Path::new(ROOT).join(p)).unwrap();
    let guide = read("src/guide/game-authors.md");
    let sources = [
        read("tests/kayles/src/lib.rs"),
        read("tests/kayles/src/main.rs"),
        read("tests/hexapawn/src/lib.rs"),
        read("tests/hexapawn/src/main.rs"),
    ];
    let (mut quoted, mut block, mut bad) = (0, None::<Vec<&str>>, Vec::new());
    for line in guide.lines() {
        match block.take() {
            None if line == "```rust" => block = Some(Vec::new()),
            None => {}
            Some(b) if line.starts_with("```") => {
                let want: Vec<&str> = b
                    .iter()
                    .map(|l| l.trim())
                    .skip_while(|l| l.starts_with("//"))
                    .collect();
                let found = sources.iter().any(|src| {
                    let have: Vec<&str> = src.lines().map(str::trim).collect();
                    have.windows(want.len()).any(|w| w == want.as_slice())
                });
                quoted += 1;
                if !found {
                    bad.push(want.join("\n"));
                }
            }
            Some(mut b) => {
                b.push(line.trim_start_matches("  "));
                block = Some(b);
            }
        }
    }
    assert!(quoted >= 4, "only {quoted} rust blocks in the guide");
    assert!(
        bad.is_empty(),
        "src/guide/game-authors.md quotes what the Kayles crate no longer says:\n{}",
        bad.join("\n---\n")
    );
}

#[test]
fn the_game_authors_guide_shows_what_the_binaries_print() {
    let k = kayles();
    let dir = TempDir::new("extern-guide");
    let guide = std::fs::read_to_string(Path::new(ROOT).join("src/guide/game-authors.md")).unwrap();
    let (mut checked, mut bad) = (0, Vec::new());
    let mut block: Option<Vec<&str>> = None;
    let mut blocks = Vec::new();
    for line in guide.lines() {
        match block.take() {
            None if line == "```text" => block = Some(Vec::new()),
            None => {}
            Some(b) if line.starts_with("```") => blocks.push(b),
            Some(mut b) => {
                b.push(line);
                block = Some(b);
            }
        }
    }
    for body in blocks {
        if !body.first().is_some_and(|l| {
            ["kayles", "hexapawn", "gamedb"]
                .iter()
                .any(|p| l.starts_with(&format!("$ {p} ")))
        }) {
            continue;
        }
        let mut i = 0;
        while i < body.len() {
            let cmd = body[i].strip_prefix("$ ").expect("a command line");
            let end = (i + 1..body.len())
                .find(|&j| body[j].starts_with("$ "))
                .unwrap_or(body.len());
            let want = &body[i + 1..end];
            i = end;
            let mut words = cmd.split_whitespace().map(|w| w.trim_matches('\''));
            let program = match words.next() {
                Some("kayles") => k,
                Some("hexapawn") => hexapawn(),
                _ => Path::new(GAMEDB),
            };
            let args: Vec<&str> = words.collect();
            let out = Command::new(program)
                .args(&args)
                .current_dir(dir.path())
                .output()
                .unwrap();
            let text = stdout(&out) + &stderr(&out);
            let got: Vec<&str> = text.lines().collect();
            checked += 1;
            if !shown_as(want, &got) {
                bad.push(format!(
                    "$ {cmd}\n  shown:\n{}\n  got:\n{text}",
                    want.join("\n")
                ));
            }
        }
    }
    assert!(checked >= 6, "only {checked} examples found in the guide");
    assert!(
        bad.is_empty(),
        "src/guide/game-authors.md:\n{}",
        bad.join("\n")
    );
}
