//! `scripts/gamedb.py` against the CLI: builds a table of every game and variant into a
//! temporary folder and runs `tests/python/compare_cli.py`, which sends thousands of random
//! query lines per table through both `gamedb query TABLE - --json` and the Python module and
//! requires byte-identical answers (plus the same indices through the C ABI, refusal of
//! damaged copies, numpy's memmap, and an interactive conversation).
//!
//! The comparison runs twice: with `xxhash` and `numpy` (required: `scripts/test.sh` installs
//! them into a virtual environment under `target/` and sets `$PYTHON` to it; the test never
//! installs anything), and with `GAMEDB_PY_STDLIB_ONLY=1`, the standard-library path. It needs
//! `$PYTHON` (default: `target/test-venv` when present, else `python3`) and fails without it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use gamedb::games::candy::{CandySpec, WinRule};
use gamedb::games::chomp::ChompSpec;
use gamedb::games::chomp3::Chomp3Spec;
use gamedb::games::nim::NimSpec;
use gamedb::games::pdb::PdbSpec;
use gamedb::games::slide::SlideSpec;
use gamedb::games::wythoff::WythoffSpec;
use gamedb::games::Spec;
use gamedb::ValueKind;

mod common;
use common::{build, mod3_table, python, shared_library, TempDir, ROOT};

/// One table of every game and variant the reader must know (a new game adds its lines: the
/// test fails while a registered game has none).
fn tables(dir: &Path) -> Vec<PathBuf> {
    let candy = |n, k, win| Spec::new(CandySpec::new(n, k, win).unwrap());
    let nim = |s, h, k, misere| Spec::new(NimSpec::new(s, h, k, misere).unwrap());
    let chomp = |r, c| Spec::new(ChompSpec::new(r, c).unwrap());
    let slide = |r, c| Spec::new(SlideSpec::new(r, c).unwrap());
    let pdb = |r, c, tiles: &[u32]| Spec::new(PdbSpec::new(r, c, tiles).unwrap());
    let wythoff = |n| Spec::new(WythoffSpec::new(n).unwrap());
    let chomp3 = |n| Spec::new(Chomp3Spec::new(n).unwrap());
    let outcome = ValueKind::Outcome;
    let grundy = ValueKind::Grundy;
    let distance = ValueKind::Distance;
    let all = [
        (candy(2001, 3, WinRule::Even), outcome),
        (candy(2001, 3, WinRule::Odd), outcome),
        (candy(99, 5, WinRule::Even), outcome),
        (nim(1, 40, None, false), outcome),
        (nim(3, 15, None, false), outcome),
        (nim(5, 31, None, false), outcome),
        (nim(4, 7, None, true), outcome),
        (nim(4, 31, Some(3), false), outcome),
        (nim(4, 31, Some(3), true), outcome),
        (nim(4, 31, None, false), grundy),
        (nim(4, 31, Some(3), false), grundy),
        (nim(2, 255, None, false), grundy),
        (chomp(6, 7), outcome),
        (chomp(6, 7), grundy),
        (chomp(4, 9), outcome),
        (chomp(4, 9), grundy),
        (slide(2, 3), distance),
        (slide(3, 3), distance),
        (pdb(3, 3, &[1, 2, 3]), distance),
        // Every placement of the 2x2 board's three tiles: half of them are stored as 255.
        (pdb(2, 2, &[1, 2, 3]), distance),
        (wythoff(60), outcome),
        (wythoff(40), grundy),
        (chomp3(1), ValueKind::Extension),
        (chomp3(150), ValueKind::Extension),
    ];
    // The games the pure-Python reader knows (not every registered game: the Python package
    // on the Rust code answers every game without a twin).
    let mut paths: Vec<PathBuf> = all
        .into_iter()
        .map(|(spec, kind)| build(spec, kind, dir))
        .collect();
    // The 2-bit tables of `gamedb enumerate` (mod3 encoding: distances by descent).
    let mod3 = dir.join("mod3");
    paths.extend([(2, 3), (3, 3)].map(|(r, c)| mod3_table(r, c, &mod3)));
    paths
}

fn has_extras(python: &str) -> bool {
    Command::new(python)
        .args(["-c", "import xxhash, numpy"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The packages the accelerated path needs; the test fails without them (scripts/test.sh puts
/// them into a virtual environment under target/ and points `$PYTHON` at it).
fn require_extras(python: &str) {
    assert!(
        has_extras(python),
        "{python} lacks xxhash or numpy: run the suite through scripts/test.sh (it makes \
         target/test-venv), or set PYTHON to a Python that has both"
    );
}

fn compare(python: &str, tables: &[PathBuf], stdlib_only: bool) {
    let mut cmd = Command::new(python);
    cmd.arg(Path::new(ROOT).join("tests/python/compare_cli.py"))
        .arg("--gamedb")
        .arg(env!("CARGO_BIN_EXE_gamedb"))
        .arg("--lib")
        .arg(shared_library())
        .args(["--count", "2500"])
        .args(tables);
    if stdlib_only {
        cmd.env("GAMEDB_PY_STDLIB_ONLY", "1");
    } else {
        cmd.env_remove("GAMEDB_PY_STDLIB_ONLY");
    }
    let out = cmd.output().expect("run tests/python/compare_cli.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{stdout}");
    assert!(
        out.status.success(),
        "the Python reader disagrees with the CLI:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("OK: "), "{stdout}");
}

#[test]
fn python_reader_matches_the_cli_on_every_game() {
    let python = python();
    require_extras(&python);
    let dir = TempDir::new("python-reader");
    let tables = tables(dir.path());
    compare(&python, &tables, false);
    compare(&python, &tables, true);
}
