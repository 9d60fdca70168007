//! Two-player games with ties (the m,n,k-games): every position's value and remoteness against
//! a minimax written here from the rules alone, tables equal at one and two threads, the
//! answer in text and JSON, `info`'s counts from the start, bad boards refused with one line
//! and exit status 2 (a stream going on past them), and the `verify` statements.

mod common;

use std::collections::HashMap;

use common::*;
use gamedb::format::entries::standing;
use gamedb::games::mnk::MnkSpec;
use gamedb::model::Standing;
use gamedb::{Spec, ValueKind};

/// Value and remoteness of a board for the player to move, by plain minimax: a win as soon as
/// it can, a loss as late as it can, a tie as soon as it can (cells 0 empty, 1 x, 2 o).
fn minimax(
    board: &mut Vec<u32>,
    cols: usize,
    k: usize,
    memo: &mut HashMap<Vec<u32>, (Standing, u32)>,
) -> (Standing, u32) {
    if let Some(&v) = memo.get(board.as_slice()) {
        return v;
    }
    let rows = board.len() / cols;
    let xs = board.iter().filter(|&&c| c == 1).count();
    let os = board.iter().filter(|&&c| c == 2).count();
    let (mover, last) = if xs == os { (1, 2) } else { (2, 1) };
    let line = |side: u32| {
        (0..rows * cols).any(|s| {
            let (r, c) = ((s / cols) as i64, (s % cols) as i64);
            [(0i64, 1i64), (1, 0), (1, 1), (1, -1)]
                .iter()
                .any(|&(dr, dc)| {
                    (0..k as i64).all(|i| {
                        let (rr, cc) = (r + dr * i, c + dc * i);
                        rr >= 0
                            && cc >= 0
                            && (rr as usize) < rows
                            && (cc as usize) < cols
                            && board[rr as usize * cols + cc as usize] == side
                    })
                })
        })
    };
    let value = if line(last) {
        (Standing::Lose, 0)
    } else if !board.contains(&0) {
        (Standing::Tie, 0)
    } else {
        let mut kids = Vec::new();
        for c in 0..board.len() {
            if board[c] == 0 {
                board[c] = mover;
                kids.push(minimax(board, cols, k, memo));
                board[c] = 0;
            }
        }
        let best = |v: Standing| kids.iter().filter(move |x| x.0 == v).map(|x| x.1);
        if let Some(r) = best(Standing::Lose).min() {
            (Standing::Win, r + 1)
        } else if let Some(r) = best(Standing::Tie).min() {
            (Standing::Tie, r + 1)
        } else {
            (Standing::Lose, kids.iter().map(|x| x.1).max().unwrap() + 1)
        }
    };
    memo.insert(board.clone(), value);
    value
}

#[test]
fn every_reachable_position_agrees_with_minimax() {
    for (m, n, k) in [
        (3, 3, 3),
        (2, 4, 2),
        (3, 4, 3),
        (4, 2, 3),
        (1, 5, 2),
        (3, 3, 2),
    ] {
        let spec = Spec::new(MnkSpec::new(m, n, k).unwrap());
        let table = table(&spec, ValueKind::Remoteness);
        let rules = table.rules();
        let mut memo = HashMap::new();
        minimax(
            &mut vec![0; (m * n) as usize],
            n as usize,
            k as usize,
            &mut memo,
        );
        let mut reachable = 0;
        for i in 0..table.len() {
            let entry = table.raw(i);
            if !standing::reachable(entry) {
                continue;
            }
            reachable += 1;
            let pos = rules.unrank(i);
            let want = memo.get(&pos).copied();
            assert_eq!(
                standing::unpack(entry),
                want,
                "{m},{n},{k}: {}",
                rules.format(&pos)
            );
        }
        // Minimax visits exactly what play reaches.
        assert_eq!(reachable, memo.len(), "{m},{n},{k}");
    }
}

#[test]
fn tables_are_the_same_bytes_at_one_and_two_threads() {
    for (m, n, k) in [(3, 3, 3), (3, 4, 3)] {
        let spec = Spec::new(MnkSpec::new(m, n, k).unwrap());
        let one = with_threads(1, || payload_bytes(&spec, ValueKind::Remoteness));
        let two = with_threads(2, || payload_bytes(&spec, ValueKind::Remoteness));
        assert!(one == two, "{m},{n},{k}");
    }
}

#[test]
fn the_command_line_answers_and_refuses_bad_boards() {
    let dir = TempDir::new("mnk-cli");
    let out = gamedb_ok(&[
        "build",
        "mnk",
        "--rows",
        "3",
        "--cols",
        "3",
        "--k",
        "3",
        "--out",
        dir.arg(),
    ]);
    assert!(out.contains("mnk-3-3-3.gtab"), "{out}");
    let t = dir.join("mnk-3-3-3.gtab");
    let text = gamedb_ok(&["query", &t, ".../.../...", "xo./.../..."]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with(".../.../...: tie in 9  moves: a1: tie in 9; b1: tie in 9"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("xo./.../...: win in 5  moves: c1: tie in 7; a2: win in 5"),
        "{text}"
    );
    let a = json(&gamedb_ok(&["query", "--json", &t, "xxx/oo./..."]));
    assert_eq!(a["value"], "lose");
    assert_eq!(a["remoteness"], 0);
    assert_eq!(a["moves"].as_array().unwrap().len(), 0);
    let a = json(&gamedb_ok(&["query", "--json", &t, "x../.o./..x"]));
    assert_eq!(a["value"], "tie");
    assert_eq!(a["remoteness"], 6);
    assert_eq!(a["reachable"], true);
    let c1 = &a["moves"].as_array().unwrap()[1];
    assert_eq!(
        (
            c1["move"].as_str(),
            c1["value"].as_str(),
            c1["remoteness"].as_u64()
        ),
        (Some("c1"), Some("lose"), Some(4))
    );

    for (board, says) in [
        ("xxx/ooo/...", "both sides have 3 in a row"),
        ("xx./.../...", "as many x as o or one more"),
        ("xxx/oo./o..", "o moved after it"),
        ("oo./.../...", "as many x as o or one more"),
        ("xx/.../...", "row 1 has 2 cells instead of 3"),
        ("..../..../....", "row 1 has 4 cells instead of 3"),
        ("xo./...", "2 rows instead of 3"),
        ("xq./.../...", "'q' is not a cell"),
    ] {
        let e = refused(
            board,
            &["query", &t, board],
            &[says, "expected 3 rows of 3 cells"],
        );
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    // A stream answers a bad line with an error object and goes on (and says so at the end,
    // with exit status 2).
    let o = gamedb_stdin(
        &["query", "--json", &t, "-"],
        b".../.../...\nxx./.../...\n.../.x./...\n",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("1 of 3 input lines could not be answered"));
    let lines = json_lines(&stdout(&o));
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["value"], "tie");
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("as many x as o"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2]["value"], "tie");

    let info = json(&gamedb_ok(&["info", "--json", &t]));
    assert_eq!(info["values"], "remoteness");
    assert_eq!(
        info["reachable"],
        serde_json::json!({"win": 2836, "lose": 1574, "tie": 1068, "draw": 0})
    );
    assert_eq!(info["reachable_over"], 958);
    assert_eq!(
        info["start"],
        serde_json::json!({"position": ".../.../...", "value": "tie", "remoteness": 9})
    );
    let info = gamedb_ok(&["info", &t]);
    assert!(
        info.contains("start:           .../.../...: tie in 9"),
        "{info}"
    );

    // Parameters out of range are refused before anything is solved.
    refused(
        "k too long",
        &[
            "build",
            "mnk",
            "--rows",
            "3",
            "--cols",
            "3",
            "--k",
            "4",
            "--out",
            dir.arg(),
        ],
        &["--k 4", "expected 1..=3"],
    );
    refused(
        "too many cells",
        &[
            "build",
            "mnk",
            "--rows",
            "6",
            "--cols",
            "6",
            "--k",
            "4",
            "--out",
            dir.arg(),
        ],
        &["at most 30 cells"],
    );
}

#[test]
fn verify_checks_tic_tac_toe_and_zermelo() {
    let o = gamedb(&[
        "verify",
        "--json",
        "-q",
        "--tables",
        "/nonexistent",
        "mnk-tic-tac-toe",
        "zermelo",
    ]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let summary = json(&stdout(&o));
    assert_eq!(summary["passed"], 2, "{summary}");
    let tic = summary["statements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "mnk-tic-tac-toe")
        .unwrap();
    let note = tic["note"].as_str().unwrap();
    assert!(
        note.contains("5478 positions reached (765 up to symmetry"),
        "{note}"
    );
    assert!(
        note.contains("the game over in 958 (626 won by x, 316 by o, 16 full)"),
        "{note}"
    );
}

/// A build of the 4,4,4-game (17 tiers, a checkpoint after each) killed after its first
/// checkpoint resumes to the same bytes as a build that ran through, at the other thread count.
#[test]
fn a_killed_build_resumes_from_its_last_tier_to_the_same_bytes() {
    killed_builds_resume(
        &["mnk", "--rows", "4", "--cols", "4", "--k", "4"],
        "mnk-4-4-4.gtab",
        17,
    );
}

/// The same of a two-bit table of Connect Four 5×4 (21 tiers), whose checkpoints hold the
/// values packed below the tiers still read and two bytes a position above.
#[test]
fn a_killed_wlt_build_resumes_from_its_packed_checkpoint_to_the_same_bytes() {
    killed_builds_resume(
        &["connect4", "--cols", "5", "--rows", "4", "--values", "wlt"],
        "connect4-5-4-wlt.gtab",
        21,
    );
}

/// Builds `game` through, then three times killed after the first checkpoint (a checkpoint
/// after every tier) and resumed at another thread count: the same bytes each time.
fn killed_builds_resume(game: &[&str], table: &str, tiers: u64) {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let args = |out: &str, threads: &str| -> Vec<String> {
        ["build", "--out", out, "--threads", threads, "-q"]
            .iter()
            .chain(game)
            .map(|s| s.to_string())
            .collect()
    };
    let reference = TempDir::new("resume-ref");
    let mut a = args(reference.arg(), "2");
    a.insert(1, "--no-checkpoints".into());
    gamedb_ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let want = std::fs::read(reference.path().join(table)).unwrap();

    let mut resumed = 0;
    for (first, then, wait) in [("2", "1", 0u64), ("1", "2", 150), ("2", "2", 60)] {
        let dir = TempDir::new("two-player-resume");
        let mut a = args(dir.arg(), first);
        a.insert(1, "--checkpoint-every".into());
        a.insert(2, "0".into());
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamedb"))
            .args(&a)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let ckpt = dir.path().join(format!("{table}.checkpoint"));
        let started = Instant::now();
        while !ckpt.exists() && started.elapsed() < Duration::from_secs(60) {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        std::thread::sleep(Duration::from_millis(wait));
        let _ = child.kill();
        let killed = !child.wait().unwrap().success();
        if !killed || !ckpt.exists() {
            continue;
        }
        if dir.path().join(table).exists() {
            // Killed between the table's rename and the checkpoint's removal: the table
            // under its name must then be the whole table, never a part of one.
            assert!(
                std::fs::read(dir.path().join(table)).unwrap() == want,
                "{table}: a table other than the whole one after a kill at {first} thread(s)"
            );
            continue;
        }
        let mut a = args(dir.arg(), then);
        a.insert(1, "--resume".into());
        a.insert(2, "--json".into());
        let summary = json(gamedb_ok(&a.iter().map(String::as_str).collect::<Vec<_>>()).trim());
        let tier = summary["resumed_at_wave"].as_u64();
        assert!(tier.is_some_and(|t| (1..tiers).contains(&t)), "{summary}");
        assert!(
            std::fs::read(dir.path().join(table)).unwrap() == want,
            "{table}: killed at {first} thread(s), resumed at {then} from tier {tier:?}: other bytes"
        );
        assert!(
            !ckpt.exists(),
            "the checkpoint is left after the table is written"
        );
        resumed += 1;
    }
    assert!(
        resumed >= 2,
        "{table}: only {resumed} of 3 builds were killed mid-way"
    );
}
