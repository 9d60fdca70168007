//! The C ABI from C: builds real tables into a temporary folder, compiles
//! `tests/c/test_gamedb.c` against `src/gamedb.h` and the shared library cargo built for
//! this test run, runs it, and checks what it printed against the library, the command line
//! and the XOR rule. The header is checked against `src/ffi.rs` (functions, codes, flags) and
//! against the registry of games (`GAMEDB_GAME_*`).
//!
//! Needs a C compiler (`$CC`, else `cc`) and `nm` (binutils): a test that needs one fails
//! without it.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use gamedb::games::candy::{CandySpec, WinRule};
use gamedb::games::chess::ChessSpec;
use gamedb::games::nim::NimSpec;
use gamedb::games::pdb::PdbSpec;
use gamedb::games::slide::SlideSpec;
use gamedb::{Spec, Table, ValueKind};

mod common;
use common::*;

/// The function names a text declares: `gamedb_xxx(` in the header, `fn gamedb_xxx(` in
/// the Rust source.
fn declared(text: &str, prefix: &str) -> BTreeSet<String> {
    text.match_indices(prefix)
        .filter_map(|(at, _)| {
            let rest = &text[at + prefix.len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            rest[name.len()..]
                .starts_with('(')
                .then(|| format!("gamedb_{name}"))
        })
        .collect()
}

#[test]
fn header_declares_exactly_the_exported_functions() {
    let header = std::fs::read_to_string(Path::new(ROOT).join("src/gamedb.h")).unwrap();
    let source = std::fs::read_to_string(Path::new(ROOT).join("src/ffi.rs")).unwrap();
    let in_header = declared(&header, "gamedb_");
    let in_rust = declared(&source, "extern \"C\" fn gamedb_");
    assert!(in_rust.len() >= 10, "{in_rust:?}");
    assert_eq!(in_header, in_rust, "src/gamedb.h and src/ffi.rs disagree");

    // The library really exports them: `nm` lists its dynamic symbols.
    let library = shared_library();
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&library)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "nm does not run ({e}); this test lists the library's exported symbols with it: \
                 install binutils (Debian: apt-get install binutils)"
            )
        });
    assert!(
        out.status.success(),
        "nm -D --defined-only {}: {}",
        library.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let symbols = String::from_utf8_lossy(&out.stdout);
    let exported: BTreeSet<String> = symbols
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .filter(|s| s.starts_with("gamedb_"))
        .map(String::from)
        .collect();
    assert_eq!(exported, in_rust, "exported symbols differ from src/ffi.rs");
    // The constants agree too, each written as the header writes it (the error codes and
    // flags of `src/ffi.rs` are held to the header by a unit test there: the module is private).
    use gamedb::format::entries::wlt;
    use gamedb::model::Wlt;
    for (name, value) in [
        (
            "GAMEDB_VALUES_OUTCOME",
            gamedb::format::value_kind_code(ValueKind::Outcome).to_string(),
        ),
        (
            "GAMEDB_VALUES_GRUNDY",
            gamedb::format::value_kind_code(ValueKind::Grundy).to_string(),
        ),
        (
            "GAMEDB_VALUES_DISTANCE",
            gamedb::format::value_kind_code(ValueKind::Distance).to_string(),
        ),
        (
            "GAMEDB_VALUES_REMOTENESS",
            gamedb::format::value_kind_code(ValueKind::Remoteness).to_string(),
        ),
        (
            "GAMEDB_VALUES_WLT",
            gamedb::format::value_kind_code(ValueKind::Wlt).to_string(),
        ),
        (
            "GAMEDB_VALUES_DTZ",
            gamedb::format::value_kind_code(ValueKind::Dtz).to_string(),
        ),
        ("GAMEDB_WLT_LOSE", wlt::code(Wlt::Lose).to_string()),
        ("GAMEDB_WLT_WIN", wlt::code(Wlt::Win).to_string()),
        (
            "GAMEDB_WLT_TIE_OR_DRAW",
            wlt::code(Wlt::TieOrDraw).to_string(),
        ),
    ] {
        let define = format!("#define {name} {value}");
        // The value ends the line, or a comment follows it.
        let found = header
            .lines()
            .any(|l| l == define || l.starts_with(&format!("{define} ")));
        assert!(found, "{name} is not {value} in the header");
    }
}

#[test]
fn the_header_numbers_no_game() {
    // Games are named by text (gamedb_game), never by numbers a header would have to list.
    let header = std::fs::read_to_string(Path::new(ROOT).join("src/gamedb.h")).unwrap();
    assert!(
        !header.contains("GAMEDB_GAME_"),
        "a game number in src/gamedb.h"
    );
}

#[test]
fn c_program_against_real_tables() {
    let cc = program("CC", "cc");
    let tmp = TempDir::new("c-abi");
    let dir = tmp.path().to_path_buf();
    let nim = build(
        Spec::new(NimSpec::new(3, 7, None, false).unwrap()),
        ValueKind::Outcome,
        &dir,
    );
    let grundy = build(
        Spec::new(NimSpec::new(3, 7, None, false).unwrap()),
        ValueKind::Grundy,
        &dir,
    );
    let candy = build(
        Spec::new(CandySpec::new(21, 3, WinRule::Even).unwrap()),
        ValueKind::Outcome,
        &dir,
    );
    let bytes = std::fs::read(&nim).unwrap();
    let damaged = dir.join("damaged.gtab");
    let mut flipped = bytes.clone();
    flipped[4096 + 3] ^= 0x04;
    std::fs::write(&damaged, &flipped).unwrap();
    let truncated = dir.join("truncated.gtab");
    std::fs::write(&truncated, &bytes[..bytes.len() - 1]).unwrap();
    // The 3x3 board: a folder with its complete table, one with pattern tables only, and one
    // without tables.
    let full = dir.join("full");
    let patterns = dir.join("patterns");
    let empty = dir.join("empty");
    for d in [&full, &patterns, &empty] {
        std::fs::create_dir(d).unwrap();
    }
    build(
        Spec::new(SlideSpec::new(3, 3).unwrap()),
        ValueKind::Distance,
        &full,
    );
    for pattern in [[1, 2, 3, 4], [5, 6, 7, 8]] {
        build(
            Spec::new(PdbSpec::new(3, 3, &pattern).unwrap()),
            ValueKind::Distance,
            &patterns,
        );
    }

    let chess = build(
        Spec::new(ChessSpec::new("KRk").unwrap()),
        ValueKind::Remoteness,
        &dir,
    );

    let chess_wlt = build(
        Spec::new(ChessSpec::new("KRk").unwrap()),
        ValueKind::Wlt,
        &dir,
    );

    let lib = shared_library();
    let lib_dir = lib.parent().unwrap();
    let exe = dir.join("test_gamedb");
    let compiled = Command::new(&cc)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg("-I")
        .arg(Path::new(ROOT).join("src"))
        .arg(Path::new(ROOT).join("tests/c/test_gamedb.c"))
        .arg(&lib)
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
        .output()
        .expect("run the C compiler");
    assert!(
        compiled.status.success(),
        "compiling tests/c/test_gamedb.c failed:\n{}",
        String::from_utf8_lossy(&compiled.stderr)
    );

    let run = Command::new(&exe)
        .args([
            &nim, &grundy, &candy, &damaged, &truncated, &full, &patterns, &empty, &chess,
            &chess_wlt,
        ])
        .env("LD_LIBRARY_PATH", lib_dir)
        .output()
        .expect("run the C test program");
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "the C test program failed (status {:?}):\n{out}\n{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    let line = |prefix: &str| -> String {
        out.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no line starting '{prefix}' in:\n{out}"))
            .to_string()
    };

    assert_eq!(line("version "), env!("CARGO_PKG_VERSION"));
    assert_eq!(line("failures "), "0");
    // KRk: white to move wins in 25 plies (code 2), black mated (lose in 0, code 1), as
    // `gamedb query` says; no P/N from such a table; an illegal FEN refused with why.
    assert_eq!(
        line("chess value "),
        format!(
            "402 code 2 remoteness 25 mated 1 outcome {}",
            common::c_abi::define("GAMEDB_ERR_KIND")
        )
    );
    assert!(line("chess bad ").contains("the side not to move is in check"));
    // The wlt table of the same ending: the codes alone, no P/N either.
    assert_eq!(
        line("chess wlt "),
        format!(
            "2 mated 1 outcome {}",
            common::c_abi::define("GAMEDB_ERR_KIND")
        )
    );
    assert_eq!(line("game "), "nim heaps=3,max-heap=7 kind 1 positions 120");
    // Nim by the XOR rule: P exactly when the heaps XOR to 0.
    for pos in [
        "1,2,3", "1,2,4", "3,5,6", "0", "7,7", "1", "7,6,5", "2, 7 ,5",
    ] {
        let xor = pos
            .split(',')
            .map(|h| h.trim().parse::<u32>().unwrap())
            .fold(0, |a, b| a ^ b);
        let expected = if xor == 0 { "P" } else { "N" };
        assert_eq!(line(&format!("outcome {pos} ")), expected, "{pos}");
    }
    // P-positions of 3 heaps of 0..=7 (multisets): those with a ^ b ^ c == 0.
    let mut p = 0;
    for a in 0..8u32 {
        for b in 0..=a {
            for c in 0..=b {
                p += (a ^ b ^ c == 0) as u32;
            }
        }
    }
    assert_eq!(line("p-positions "), p.to_string());
    assert!(line("index-error ").contains("out of range"));
    assert!(line("bad '1,2,x' ").contains("'x' is not a non-negative integer"));
    assert!(line("bad '8' ").contains("larger than this table's largest heap 7"));
    assert!(line("bad '1,2,3,4' ").contains("has 4 heaps"));
    assert!(line("bad '' ").contains("empty position"));
    assert!(line("flags-error ").contains("unknown flags"));

    // JSON answers are the CLI's.
    let nim_table = Table::open(&nim).unwrap();
    let expected = nim_table.query("1,2,4").unwrap().to_json();
    assert_eq!(line("json "), expected);
    let cli = gamedb_ok(&["query", nim.to_str().unwrap(), "1,2,4", "--json"]);
    assert_eq!(line("json "), cli.trim_end());
    assert_eq!(
        line("moves "),
        r#"[{"move":"take 1 from heap 1","leaves":"0,2","outcome":"N"},{"move":"take 1 from heap 2","leaves":"1,1","outcome":"P"},{"move":"take 2 from heap 2","leaves":"1,0","outcome":"N"}]"#
    );
    for (pos, g) in [("1,2,4", 7), ("1,2,3", 0), ("5", 5), ("7,7,7", 7)] {
        assert_eq!(line(&format!("grundy {pos} ")), g.to_string());
    }
    let grundy_table = Table::open(&grundy).unwrap();
    let expected = grundy_table.query("1,2,4").unwrap().to_json();
    assert_eq!(line("grundy-json "), expected);
    assert_eq!(json(&expected)["grundy"], 7);

    // Candy answers are the library's.
    let candy_table = Table::open(&candy).unwrap();
    for pos in [
        "1,0,0", "1,1,1", "5,0,0", "5,1,1", "6,1,0", "9,2,4", "2,0,1",
    ] {
        let expected = candy_table.query(pos).unwrap().outcome().unwrap().as_str();
        assert_eq!(line(&format!("candy {pos} ")), expected, "{pos}");
    }
    assert!(line("candy-bad ").contains("total 4"));

    // Damaged tables are refused with the reason.
    let damaged_msg = line("damaged ");
    assert!(
        damaged_msg.contains("damaged.gtab") && damaged_msg.contains("checksum"),
        "{damaged_msg}"
    );
    let truncated_msg = line("truncated ");
    assert!(
        truncated_msg.contains("truncated.gtab") && truncated_msg.contains("truncated"),
        "{truncated_msg}"
    );
    // A missing table is told with what to do, as the command line tells it.
    let missing_msg = line("missing ");
    assert!(
        missing_msg.contains("/nonexistent/table.gtab: no such table file (it does not exist)")
            && missing_msg.contains("`gamedb build-all --out /nonexistent`"),
        "{missing_msg}"
    );

    // Boards: every answer is the line `gamedb query --rows 3 --cols 3 --tables DIR` prints.
    let cli = |dir: &Path, pos: &str, path: bool| -> String {
        let mut args = vec![
            "query",
            "--rows",
            "3",
            "--cols",
            "3",
            "--tables",
            dir.to_str().unwrap(),
            "--json",
            pos,
        ];
        if path {
            args.push("--path");
        }
        gamedb_ok(&args).trim_end().to_string()
    };
    let known = [
        ("1,2,3,4,5,6,7,8,0", Some(0)),
        ("1,2,3,4,5,6,7,0,8", Some(1)),
        ("8,6,7,2,5,4,3,0,1", Some(31)),
        ("2,1,3,4,5,6,7,8,0", None),
    ];
    for (label, dir) in [("board-full", &full), ("board-pattern", &patterns)] {
        for (pos, distance) in known {
            let c = line(&format!("{label} {pos} "));
            assert_eq!(c, cli(dir, pos, false), "{label} {pos}");
            let answer = json(&c);
            assert_eq!(answer["distance"], serde_json::json!(distance), "{c}");
            // The pattern folder is answered by the solver, which counts its nodes.
            let by_solver = *label == *"board-pattern";
            assert_eq!(answer.get("nodes").is_some(), by_solver, "{c}");
            if by_solver && distance.unwrap_or(0) > 0 {
                assert!(answer["nodes"].as_u64().unwrap() > 0, "{c}");
            }
        }
        let c = line(&format!("{label}-path "));
        assert_eq!(c, cli(dir, "1,2,3,4,5,6,0,7,8", true), "{label}");
        let answer = json(&c);
        assert_eq!(answer["distance"], 2, "{c}");
        assert_eq!(
            moves(&answer, "path"),
            [
                ("slide 7 left".to_string(), "1,2,3,4,5,6,7,0,8".to_string()),
                ("slide 8 left".to_string(), "1,2,3,4,5,6,7,8,0".to_string()),
            ],
            "{c}"
        );
        assert!(line(&format!("{label}-bad ")).contains("has 3 numbers, a 3×3 board has 9 cells"));
        assert!(line(&format!("{label}-flags ")).contains("unknown flags"));
    }
    // The solver's answers are the complete table's, apart from the nodes.
    for (pos, _) in known {
        let mut solver = json(&line(&format!("board-pattern {pos} ")));
        solver.as_object_mut().unwrap().remove("nodes");
        assert_eq!(solver, json(&line(&format!("board-full {pos} "))), "{pos}");
    }
    let unsolvable = json(&line("empty-unsolvable "));
    assert_eq!(unsolvable["solvable"], false, "{unsolvable}");
    let reason = str_at(&unsolvable, "reason");
    assert!(reason.contains("1 inversion"), "{unsolvable}");
    let missing = line("empty-missing ");
    assert!(
        missing.contains("gamedb build pdb --rows 3 --cols 3"),
        "{missing}"
    );
    assert!(line("board-dims ").contains("board 1x5"));
    assert!(line("board-flags ").contains("unknown flags"));
}
