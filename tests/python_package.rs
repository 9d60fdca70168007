//! The Python package (`scripts/python`, PyO3 and maturin) as a user gets it: a fresh virtual
//! environment under `target/python-package/`, README's install lines run there (`pip install
//! ./scripts/python`: maturin builds the module from this crate, in the cargo profile `python`,
//! with its own cargo target folder under `target/python-package/`, so that it never waits on
//! the lock of this test's), then
//! README's interactive Python example run by doctest, which must print exactly what README
//! shows; then the package's answers against `gamedb query --json` on every registered game,
//! and `Table.values()` on Chomp 16×16 and Nim 6×63 (a view over the mapping; `info`'s
//! counts).
//!
//! Needs `$PYTHON` (a Python 3 with `venv`; `scripts/test.sh` makes one) and PyPI (pip fetches
//! maturin, numpy and pandas into the fresh environment); fails, never skips, without them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use gamedb::Table;

mod common;
use common::{gamedb, json, python, stderr, stdout, Rng, TempDir, ROOT};

/// The fenced blocks of README's Python section, as (info string, line number, body).
fn python_section() -> Vec<(String, usize, String)> {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let mut blocks = Vec::new();
    let mut inside = false;
    let mut open: Option<(String, usize, String)> = None;
    for (i, line) in readme.lines().enumerate() {
        if open.is_none() && line.starts_with("## ") {
            inside = line == "## From Python";
            continue;
        }
        if !inside {
            continue;
        }
        match open.take() {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    open = Some((info.trim().to_string(), i + 1, String::new()));
                }
            }
            Some((info, at, mut body)) => {
                if line.starts_with("```") {
                    blocks.push((info, at, body));
                } else {
                    body.push_str(line);
                    body.push('\n');
                    open = Some((info, at, body));
                }
            }
        }
    }
    assert!(
        blocks.iter().any(|b| b.0 == "sh") && blocks.iter().any(|b| b.0 == "pycon"),
        "README.md lost its section `## From Python` with an `sh` block (the install line) and \
         a `pycon` block (the example)"
    );
    blocks
}

/// The fresh virtual environment with the package installed by README's lines; its Python.
fn venv_python() -> &'static Path {
    static VENV: OnceLock<PathBuf> = OnceLock::new();
    VENV.get_or_init(|| {
        let dir = Path::new(ROOT).join("target/python-package");
        let venv = dir.join("venv");
        let _ = std::fs::remove_dir_all(&venv);
        std::fs::create_dir_all(&dir).unwrap();
        let made = Command::new(python())
            .args(["-m", "venv"])
            .arg(&venv)
            .output()
            .unwrap();
        assert!(made.status.success(), "python -m venv: {}", stderr(&made));
        let path = format!(
            "{}:{}",
            venv.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let (_, at, lines) = python_section().into_iter().find(|b| b.0 == "sh").unwrap();
        for line in lines.lines().filter(|l| !l.trim().is_empty()) {
            let out = Command::new("sh")
                .args(["-c", line])
                .current_dir(ROOT)
                .env("PATH", &path)
                .env("VIRTUAL_ENV", &venv)
                .env("CARGO_TARGET_DIR", dir.join("cargo"))
                .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "README.md:{at}: `{line}` failed in a fresh venv:\n{}\n{}",
                stdout(&out),
                stderr(&out)
            );
        }
        venv.join("bin/python")
    })
}

fn run_python(args: &[&str], cwd: &Path) -> String {
    let out = Command::new(venv_python())
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python {args:?}:\n{}\n{}",
        stdout(&out),
        stderr(&out)
    );
    stdout(&out)
}

#[test]
fn the_readme_example_runs_as_shown_in_a_fresh_venv() {
    let dir = TempDir::new("python-readme");
    let mut examples = 0;
    for (info, at, body) in python_section() {
        if info != "pycon" {
            continue;
        }
        let file = dir.path().join(format!("readme-{at}.txt"));
        std::fs::write(&file, &body).unwrap();
        let out = Command::new(venv_python())
            .args(["-m", "doctest", "-v"])
            .arg(&file)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README.md:{at}: the Python example does not print what README shows:\n{}{}",
            stdout(&out),
            stderr(&out)
        );
        let passed = stdout(&out);
        assert!(passed.contains(" passed and 0 failed"), "{passed}");
        examples += 1;
    }
    assert!(examples > 0);
}

/// Random positions of a sample table of every registered game, through the CLI.
#[test]
fn answers_and_errors_equal_the_cli_for_every_registered_game() {
    let dir = TempDir::new("python-every-game");
    let names = gamedb::build::write_samples(dir.path(), 20_000).unwrap();
    let mut cases = Vec::new();
    let mut games = std::collections::BTreeSet::new();
    let mut rng = Rng(0x2545f4914f6cdd1d);
    for name in &names {
        let path = dir.path().join(name);
        let table = Table::open(&path).unwrap();
        games.insert(table.game().to_string());
        let rules = table.rules();
        let mut lines: Vec<(String, Option<Vec<u32>>)> = Vec::new();
        for _ in 0..12 {
            let i = rng.below(table.len());
            lines.push((format!("#{i}"), None));
            let pos = rules.unrank(i);
            let text = rules.format(&pos);
            if table.value_kind() != gamedb::ValueKind::Extension && rules.parse(&text).is_ok() {
                lines.push((text, Some(pos)));
            }
        }
        for bad in [
            "x",
            "99999999",
            "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18",
        ] {
            lines.push((bad.to_string(), None));
        }
        lines.push((format!("#{}", table.len()), None));
        let input: String = lines.iter().map(|(t, _)| format!("{t}\n")).collect();
        let out = common::gamedb_stdin(
            &["query", path.to_str().unwrap(), "-", "--json"],
            input.as_bytes(),
        );
        let answers: Vec<serde_json::Value> = stdout(&out).lines().map(json).collect();
        assert_eq!(answers.len(), lines.len(), "{name}: {}", stderr(&out));
        let lines: Vec<serde_json::Value> = lines
            .into_iter()
            .zip(answers)
            .map(|((text, numbers), cli)| {
                serde_json::json!({"text": text, "numbers": numbers, "cli": cli})
            })
            .collect();
        cases.push(serde_json::json!({
            "path": path, "game": table.game(), "parameters": table.parameters(),
            "value_kind": table.value_kind().name(), "positions": table.len(), "lines": lines,
        }));
    }
    let registered: std::collections::BTreeSet<String> = gamedb::registry()
        .names()
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(games, registered, "a table of every registered game");

    // A damaged copy of the first table: the message of `gamedb query COPY POSITION`.
    let first = dir.path().join(&names[0]);
    let damaged = dir.path().join("damaged.gtab");
    let mut bytes = std::fs::read(&first).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x5a;
    std::fs::write(&damaged, bytes).unwrap();
    let out = gamedb(&["query", damaged.to_str().unwrap(), "#0"]);
    let message = stderr(&out);
    let message = message.trim_end().strip_prefix("gamedb: ").unwrap();
    cases.push(serde_json::json!({"damaged": damaged, "cli_error": message}));

    // A table of a game this build does not know: values by index, positions refused with
    // the message of `gamedb query FILE 1`.
    let unknown = dir.path().join("unknown.gtab");
    let meta = gamedb::format::TableMeta {
        game: "elsewhere/game".into(),
        rules_version: 1,
        parameters: "n=12".into(),
        value_kind: gamedb::ValueKind::Outcome,
        encoding: gamedb::Encoding::Bits,
        entry_count: 12,
    };
    gamedb::format::write_table(&unknown, &meta, &[0b101, 0]).unwrap();
    let out = gamedb(&["query", unknown.to_str().unwrap(), "1"]);
    let message = stderr(&out);
    let message = message.trim_end().strip_prefix("gamedb: ").unwrap();
    cases.push(serde_json::json!({
        "unknown": unknown, "game": "elsewhere/game", "value0": 1, "payload_len": 2,
        "cli_error": message,
    }));

    let file = dir.path().join("cases.json");
    std::fs::write(&file, serde_json::to_string(&cases).unwrap()).unwrap();
    let script = Path::new(ROOT).join("tests/python/package_checks.py");
    let said = run_python(
        &[script.to_str().unwrap(), "compare", file.to_str().unwrap()],
        dir.path(),
    );
    println!("{said}");
    assert!(said.contains(&format!("{} tables:", names.len())), "{said}");
}

/// `TableDir` finds tables by their headers as the CLI lists them; `Board` and `solve_fifteen`
/// answer as `gamedb query --rows R --cols C --tables DIR POSITION --json --path`.
#[test]
fn table_dir_board_and_fifteen_answer_as_the_cli() {
    let dir = TempDir::new("python-folder");
    let out_dir = dir.path().to_str().unwrap();
    for words in [
        "nim --heaps 3 --max-heap 7",
        "slide --rows 3 --cols 3",
        "fifteen",
    ] {
        let mut args = vec!["build"];
        args.extend(words.split(' '));
        args.extend(["--out", out_dir, "--quiet"]);
        let out = gamedb(&args);
        assert!(out.status.success(), "gamedb {args:?}: {}", stderr(&out));
    }
    let listed: Vec<serde_json::Value> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "gtab"))
        .map(|p| {
            let t = Table::open(&p).unwrap();
            serde_json::json!([
                p.file_name().unwrap().to_str().unwrap(),
                t.game(),
                t.parameters(),
                t.value_kind().name()
            ])
        })
        .collect();
    assert_eq!(listed.len(), 5);
    let found = serde_json::json!([
        {"game": "nim", "params": {"heaps": 3, "max_heap": 7},
         "path": dir.path().join("nim-3x7.gtab")},
        {"game": "slide", "params": {"rows": 3, "cols": 3},
         "path": dir.path().join("slide-3x3.gtab")},
        {"game": "nim", "params": {"heaps": 3, "max_heap": 7, "grundy": true}, "path": null},
    ]);
    let mut boards = Vec::new();
    let mut rng = Rng(0x853c49e6748fea9b);
    let mut ask = |rows: u32, cols: u32, position: String| {
        let out = gamedb(&[
            "query",
            "--rows",
            &rows.to_string(),
            "--cols",
            &cols.to_string(),
            "--tables",
            out_dir,
            "--json",
            "--path",
            &position,
        ]);
        let cli = if out.status.success() {
            json(&stdout(&out))
        } else {
            let e = stderr(&out);
            serde_json::json!({"error": e.trim_end().strip_prefix("gamedb: ").unwrap()})
        };
        boards.push(
            serde_json::json!({"rows": rows, "cols": cols, "position": position, "cli": cli}),
        );
    };
    // 3×3: random arrangements (half of them unsolvable); 4×4: 30 random slides from the
    // goal (the solver's work stays small), and the goal with two tiles swapped (unsolvable).
    let board = gamedb::games::board::Board::new(3, 3).unwrap();
    for _ in 0..6 {
        ask(
            3,
            3,
            common::text_of(&common::random_arrangement(board, &mut rng)),
        );
    }
    let mut tiles: Vec<u32> = (1..16).chain([0]).collect();
    for _ in 0..3 {
        for _ in 0..30 {
            let blank = tiles.iter().position(|&t| t == 0).unwrap();
            let (r, c) = (blank / 4, blank % 4);
            let mut next = Vec::new();
            if r > 0 {
                next.push(blank - 4)
            }
            if r < 3 {
                next.push(blank + 4)
            }
            if c > 0 {
                next.push(blank - 1)
            }
            if c < 3 {
                next.push(blank + 1)
            }
            tiles.swap(blank, next[rng.below(next.len() as u64) as usize]);
        }
        ask(4, 4, common::text_of(&tiles));
    }
    ask(4, 4, "1,2,3,4,5,6,7,8,9,10,11,12,13,15,14,0".into());
    for (rows, cols) in [(3, 3), (4, 4)] {
        ask(rows, cols, "1,2,3".into());
    }
    ask(4, 4, "5,1,2,3,9,6,7,4,13,10,11,8,0,14,15,12".into());
    let case =
        serde_json::json!({"dir": dir.path(), "listed": listed, "found": found, "boards": boards});
    let file = dir.path().join("case.json");
    std::fs::write(&file, serde_json::to_string(&case).unwrap()).unwrap();
    let script = Path::new(ROOT).join("tests/python/package_checks.py");
    let said = run_python(
        &[script.to_str().unwrap(), "folder", file.to_str().unwrap()],
        dir.path(),
    );
    println!("{said}");
    assert!(said.contains("5 tables listed, 3 found, "), "{said}");
}

/// A table of the catalog's size, built once into `target/python-package/tables` (kept while
/// it opens and checks).
fn big_table(words: &str, file: &str) -> PathBuf {
    let dir = Path::new(ROOT).join("target/python-package/tables");
    let path = dir.join(file);
    if Table::open(&path).and_then(|t| t.verify()).is_ok() {
        return path;
    }
    let mut args = vec!["build"];
    args.extend(words.split(' '));
    let out_dir = dir.to_str().unwrap().to_string();
    args.extend(["--out", &out_dir, "--quiet"]);
    let out = gamedb(&args);
    assert!(out.status.success(), "gamedb {args:?}: {}", stderr(&out));
    path
}

#[test]
fn values_are_a_view_over_the_mapping_and_count_as_info_does() {
    let tables = [
        big_table("chomp --rows 16 --cols 16", "chomp-16x16.gtab"),
        big_table("nim --heaps 6 --max-heap 63", "nim-6x63.gtab"),
    ];
    let mut cases = Vec::new();
    for path in &tables {
        let out = gamedb(&["info", path.to_str().unwrap(), "--json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let info = json(&stdout(&out));
        cases.push(serde_json::json!({
            "path": path, "payload_len": info["payload_len"], "info": info,
        }));
    }
    let dir = TempDir::new("python-views");
    let file = dir.path().join("cases.json");
    std::fs::write(&file, serde_json::to_string(&cases).unwrap()).unwrap();
    let script = Path::new(ROOT).join("tests/python/package_checks.py");
    let said = run_python(
        &[script.to_str().unwrap(), "views", file.to_str().unwrap()],
        dir.path(),
    );
    println!("{said}");
    assert_eq!(said.lines().count(), 2, "{said}");
}

/// A game of another crate in Python: `tests/kayles` builds its own module, `kayles_py`, with
/// `gamedb::python::add_to_module` and its registry (as `src/guide/game-authors.md` shows);
/// the module answers Kayles (the published Grundy values of rows of 0..=15 pins) and the
/// built-in games, beside the package `gamedb`, which refuses Kayles.
#[test]
fn a_crate_with_its_own_games_builds_a_module_that_knows_them() {
    // The package's own target folder and profile (as `venv_python` built it with maturin):
    // the dependencies compiled there are reused, only gamedb and this crate are compiled.
    let target = Path::new(ROOT).join("target/python-package/cargo");
    let manifest = Path::new(ROOT).join("tests/kayles/Cargo.toml");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(&cargo)
        .args([
            "rustc",
            "--locked",
            "--profile",
            "python",
            "--lib",
            "--crate-type",
            "cdylib",
        ])
        .args(["--features", "python", "--manifest-path"])
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", &target)
        .env("PYO3_PYTHON", venv_python())
        .env("PYO3_BUILD_EXTENSION_MODULE", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo rustc of tests/kayles with the python feature:\n{}",
        stderr(&out)
    );
    let dir = TempDir::new("python-kayles");
    std::fs::copy(
        target.join("python/libkayles.so"),
        dir.path().join("kayles_py.so"),
    )
    .unwrap();
    let code = r#"
import numpy as np
import gamedb
import kayles_py

published = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7]
t = kayles_py.solve("kayles/kayles", pins=15)
assert (t.game, t.value_kind, t.positions) == ("kayles/kayles", "grundy", 1 << 15), t
rows = [[1] * n + [0] * (15 - n) for n in range(16)]
assert [t.query(r)["grundy"] for r in rows] == published
assert [t.query(",".join(map(str, r)))["grundy"] for r in rows] == published
assert list(t.query_many(np.array(rows))) == published
assert kayles_py.solve("nim", heaps=3, max_heap=7).query("1,2,4")["outcome"] == "N"
try:
    gamedb.solve("kayles/kayles", pins=3)
    raise AssertionError("the package gamedb solved a game it does not know")
except gamedb.UnknownGameError as e:
    assert "kayles/kayles" in str(e) and "not known" in str(e), e
try:
    kayles_py.solve("nope")
    raise AssertionError("solved an unknown game")
except kayles_py.UnknownGameError as e:
    assert "kayles/kayles" in str(e), e
print("kayles_py: published Grundy values of 0..=15 pins; built-in games too")
"#;
    let said = run_python(&["-c", code], dir.path());
    assert!(said.contains("kayles_py: published"), "{said}");
}

/// The typed stubs (`gamedb/__init__.pyi`) name exactly the module's functions, classes,
/// exceptions and methods.
#[test]
fn the_stubs_name_what_the_module_has() {
    let script = Path::new(ROOT).join("tests/python/package_checks.py");
    let stubs = Path::new(ROOT).join("scripts/python/gamedb/__init__.pyi");
    let said = run_python(
        &[script.to_str().unwrap(), "stubs", stubs.to_str().unwrap()],
        Path::new(ROOT),
    );
    assert!(said.contains("the stubs name the module's"), "{said}");
}
