//! The engine against independent brute force, table round trips, bad inputs, and thread
//! count independence, for the candy game and bounded Nim.

mod common;

use std::collections::HashMap;

use common::*;
use gamedb::game::{Game, Rules};
use gamedb::games::candy::{Candy, CandySpec, WinRule};
use gamedb::games::nim::{Nim, NimSpec};
use gamedb::games::Spec;
use gamedb::solve::{solve_grundy, solve_outcomes, solve_outcomes_retro};
use gamedb::{Outcome, Table, ValueKind};
use indicatif::ProgressBar;

fn hidden() -> ProgressBar {
    ProgressBar::hidden()
}

// ---------- independent brute force ----------

/// Nim by plain recursion over ordered heap tuples: true when the mover wins.
fn nim_wins(h: &mut Vec<u32>, take: u32, misere: bool, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if let Some(&v) = memo.get(h.as_slice()) {
        return v;
    }
    let mut any_move = false;
    let mut wins = false;
    'outer: for i in 0..h.len() {
        for t in 1..=h[i].min(take) {
            any_move = true;
            h[i] -= t;
            let child = nim_wins(h, take, misere, memo);
            h[i] += t;
            if !child {
                wins = true;
                break 'outer;
            }
        }
    }
    if !any_move {
        wins = misere;
    }
    memo.insert(h.clone(), wins);
    wins
}

fn nim_grundy(h: &mut Vec<u32>, take: u32, memo: &mut HashMap<Vec<u32>, u32>) -> u32 {
    if let Some(&v) = memo.get(h.as_slice()) {
        return v;
    }
    let mut seen = Vec::new();
    for i in 0..h.len() {
        for t in 1..=h[i].min(take) {
            h[i] -= t;
            seen.push(nim_grundy(h, take, memo));
            h[i] += t;
        }
    }
    let g = (0..).find(|v| !seen.contains(v)).unwrap();
    memo.insert(h.clone(), g);
    g
}

/// Every ordered tuple of `s` heaps of 0..=h.
fn tuples(s: usize, h: u32) -> Vec<Vec<u32>> {
    let mut out = vec![vec![]];
    for _ in 0..s {
        out = out
            .into_iter()
            .flat_map(|t| {
                (0..=h).map(move |x| {
                    let mut t = t.clone();
                    t.push(x);
                    t
                })
            })
            .collect();
    }
    out
}

#[test]
fn nim_engine_matches_brute_force() {
    for (s, h) in [(1u32, 9u32), (2, 7), (3, 5), (4, 3)] {
        for take in [None, Some(1), Some(2), Some(3)] {
            for misere in [false, true] {
                let spec = NimSpec::new(s, h, take, misere).unwrap();
                let game = Nim::new(spec.clone());
                let pull = solve_outcomes(&game, &hidden()).unwrap();
                let push = solve_outcomes_retro(&game, &hidden()).unwrap();
                let mut memo = HashMap::new();
                for t in tuples(s as usize, h) {
                    let i = game.rank(&t);
                    let expect = Outcome::from_win(nim_wins(
                        &mut t.clone(),
                        take.unwrap_or(u32::MAX),
                        misere,
                        &mut memo,
                    ));
                    assert_eq!(pull.outcome(i), expect, "pull {spec:?} {t:?}");
                    assert_eq!(push.outcome(i), expect, "push {spec:?} {t:?}");
                }
                if !misere {
                    let g = solve_grundy(&game, &hidden()).unwrap();
                    let mut memo = HashMap::new();
                    for t in tuples(s as usize, h) {
                        let expect =
                            nim_grundy(&mut t.clone(), take.unwrap_or(u32::MAX), &mut memo);
                        assert_eq!(g[game.rank(&t) as usize] as u32, expect, "{spec:?} {t:?}");
                    }
                }
            }
        }
    }
}

/// The candy game over real counts (left, mover's total, opponent's total).
fn candy_wins(
    left: u32,
    mine: u32,
    theirs: u32,
    k: u32,
    win: WinRule,
    memo: &mut HashMap<(u32, u32, u32), bool>,
) -> bool {
    if left == 0 {
        let even = mine % 2 == 0;
        return match win {
            WinRule::Even => even,
            WinRule::Odd => !even,
        };
    }
    if let Some(&v) = memo.get(&(left, mine, theirs)) {
        return v;
    }
    let wins = (1..=left.min(k)).any(|t| !candy_wins(left - t, theirs, mine + t, k, win, memo));
    memo.insert((left, mine, theirs), wins);
    wins
}

#[test]
fn candy_engine_matches_brute_force() {
    for k in 1..=5 {
        for win in [WinRule::Even, WinRule::Odd] {
            let spec = CandySpec::new(41, k, win).unwrap();
            let game = Candy::new(spec.clone());
            let bits = solve_outcomes(&game, &hidden()).unwrap();
            let mut memo = HashMap::new();
            for n in (1..=41).step_by(2) {
                for left in 0..=n {
                    for mine in 0..=n - left {
                        let theirs = n - left - mine;
                        let pos = [left, mine, theirs];
                        game.check(&pos).unwrap();
                        let expect =
                            Outcome::from_win(candy_wins(left, mine, theirs, k, win, &mut memo));
                        assert_eq!(bits.outcome(game.rank(&pos)), expect, "{spec:?} {pos:?}");
                    }
                }
            }
        }
    }
}

// ---------- tables through files ----------

#[test]
fn round_trip_through_files_and_cli() {
    let dir = TempDir::new("roundtrip");
    let out = dir.path().to_str().unwrap();
    let o = gamedb(&[
        "build",
        "nim",
        "--heaps",
        "4",
        "--max-heap",
        "9",
        "--max-take",
        "3",
        "--out",
        out,
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let path = dir.path().join("nim-4x9-k3.gtab");
    let table = Table::open(&path).unwrap();
    table.verify().unwrap();
    // The file holds what an in-memory solve gives.
    let spec = Spec::Nim(NimSpec::new(4, 9, Some(3), false).unwrap());
    let mem = spec.solve(ValueKind::Outcome, &hidden()).unwrap();
    assert_eq!(table.file().payload(), &mem.bytes[..]);
    // P count of bounded Nim: positions whose remainders mod 4 xor to 0.
    let p = tuples(4, 9)
        .into_iter()
        .filter(|t| {
            let mut s = t.clone();
            s.sort();
            s == *t && t.iter().fold(0, |a, &x| a ^ (x % 4)) == 0
        })
        .count() as u64;
    assert_eq!(table.count_p(), p);
    // info agrees, as text and JSON.
    let o = gamedb(&["info", path.to_str().unwrap(), "--json"]);
    assert!(o.status.success());
    let j = stdout(&o);
    assert!(j.contains(&format!("\"p_positions\":{p}")), "{j}");
    assert!(j.contains("\"checksum\":\"ok\""), "{j}");
    assert!(j.contains("\"entries\":715"), "{j}"); // C(13,4)
                                                   // Queries agree with the library, and winning moves leave P-positions.
    let o = gamedb(&["query", path.to_str().unwrap(), "1,2,3,5", "5,5", "--json"]);
    assert!(o.status.success());
    let lines: Vec<&str> = std::str::from_utf8(&o.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with("{\"position\":\"1,2,3,5\",\"outcome\":\"N\""),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1],
        "{\"position\":\"5,5\",\"outcome\":\"P\",\"winning_moves\":[]}"
    );
    let ans = table.query("1,2,3,5").unwrap();
    assert!(!ans.winning_moves.is_empty());
    for m in &ans.winning_moves {
        assert_eq!(table.outcome_of(&m.leaves).unwrap(), Outcome::P);
    }
}

#[test]
fn grundy_table_round_trip() {
    let dir = TempDir::new("grundy");
    let out = dir.path().to_str().unwrap();
    let o = gamedb(&[
        "build",
        "nim",
        "--heaps",
        "3",
        "--max-heap",
        "20",
        "--grundy",
        "--out",
        out,
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = Table::open(dir.path().join("nim-3x20-grundy.gtab")).unwrap();
    assert_eq!(t.value_kind(), ValueKind::Grundy);
    let a = t.query("7,9,20").unwrap();
    assert_eq!(a.grundy, Some(7 ^ 9 ^ 20));
    let o = gamedb(&[
        "query",
        dir.path().join("nim-3x20-grundy.gtab").to_str().unwrap(),
        "3,5",
        "--json",
    ]);
    assert!(stdout(&o).contains("\"grundy\":6"), "{}", stdout(&o));
}

#[test]
fn streaming_queries_answer_every_line() {
    let dir = TempDir::new("stream");
    let out = dir.path().to_str().unwrap();
    assert!(gamedb(&[
        "build",
        "candy",
        "--max-candies",
        "99",
        "--max-take",
        "3",
        "--out",
        out,
        "-q"
    ])
    .status
    .success());
    let path = dir.path().join("candy-n99-k3-even.gtab");
    let o = gamedb_stdin(
        &["query", path.to_str().unwrap(), "-", "--json"],
        b"13,0,0\n4,2,2\nnonsense\n\n9,0,0\n",
    );
    let s = stdout(&o);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 4, "{s}");
    assert!(lines[0].starts_with("{\"position\":\"13,0,0\",\"outcome\":\"N\""));
    assert!(
        lines[1].contains("\"error\":") && lines[1].contains("total 8"),
        "{}",
        lines[1]
    );
    assert!(lines[2].contains("\"error\":"));
    // 9 ≡ 1 (mod 8): the second player wins (Theorem I.1).
    assert!(lines[3].starts_with("{\"position\":\"9,0,0\",\"outcome\":\"P\""));
    assert_eq!(o.status.code(), Some(2));
}

// ---------- bad inputs ----------

fn fails_with(args: &[&str], needles: &[&str]) {
    let o = gamedb(args);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{args:?} should exit 2; stderr: {}",
        stderr(&o)
    );
    let e = stderr(&o);
    for n in needles {
        assert!(e.contains(n), "{args:?}: stderr lacks {n:?}: {e}");
    }
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn bad_inputs_are_refused_clearly() {
    let dir = TempDir::new("bad");
    let out = dir.path().to_str().unwrap();
    assert!(gamedb(&[
        "build",
        "nim",
        "--heaps",
        "3",
        "--max-heap",
        "7",
        "--out",
        out,
        "-q"
    ])
    .status
    .success());
    assert!(gamedb(&[
        "build",
        "candy",
        "--max-candies",
        "15",
        "--max-take",
        "3",
        "--out",
        out,
        "-q"
    ])
    .status
    .success());
    let nim = dir.path().join("nim-3x7.gtab");
    let nim = nim.to_str().unwrap();
    let candy = dir.path().join("candy-n15-k3-even.gtab");
    let candy = candy.to_str().unwrap();

    fails_with(
        &["query", nim, "1,2,x"],
        &["'x' is not a non-negative integer", "expected heap sizes"],
    );
    fails_with(&["query", nim, "1,2,8"], &["heap 8 is larger", "0..=7"]);
    fails_with(&["query", nim, "1,2,3,4"], &["has 4 heaps", "1 to 3 heaps"]);
    fails_with(&["query", nim, ""], &["empty position"]);
    fails_with(&["query", nim, "1,-2"], &["not a non-negative integer"]);
    fails_with(
        &["query", candy, "4,2,2"],
        &["total 8", "odd totals up to 15"],
    );
    fails_with(&["query", candy, "17,0,0"], &["total 17"]);
    fails_with(&["query", candy, "1,2"], &["has 2 numbers"]);
    // A table of another game: Nim heaps are not candy positions.
    fails_with(&["query", candy, "1,2,3,4"], &["has 4 numbers"]);
    fails_with(
        &["query", "/nonexistent/t.gtab", "1"],
        &["/nonexistent/t.gtab"],
    );
    fails_with(
        &["info", "Cargo.toml"],
        &["Cargo.toml", "not a gamedb table"],
    );
    fails_with(
        &[
            "build",
            "nim",
            "--heaps",
            "0",
            "--max-heap",
            "7",
            "--out",
            out,
        ],
        &["--heaps 0", "expected 1..=32"],
    );
    fails_with(
        &[
            "build",
            "nim",
            "--heaps",
            "3",
            "--max-heap",
            "300",
            "--out",
            out,
        ],
        &["--max-heap 300"],
    );
    fails_with(
        &[
            "build",
            "nim",
            "--heaps",
            "3",
            "--max-heap",
            "7",
            "--max-take",
            "0",
            "--out",
            out,
        ],
        &["--max-take 0"],
    );
    fails_with(
        &[
            "build",
            "nim",
            "--heaps",
            "3",
            "--max-heap",
            "7",
            "--misere",
            "--grundy",
            "--out",
            out,
        ],
        &["--grundy needs normal play"],
    );
    fails_with(
        &[
            "build",
            "nim",
            "--heaps",
            "30",
            "--max-heap",
            "255",
            "--out",
            out,
        ],
        &["ranking table"],
    );
    fails_with(
        &[
            "build",
            "candy",
            "--max-candies",
            "15",
            "--max-take",
            "0",
            "--out",
            out,
        ],
        &["--max-take 0"],
    );
    fails_with(
        &[
            "build",
            "candy",
            "--max-candies",
            "15",
            "--max-take",
            "3",
            "--win",
            "maybe",
            "--out",
            out,
        ],
        &["maybe", "even", "odd"],
    );
    fails_with(
        &[
            "build",
            "nim",
            "--heaps",
            "3",
            "--max-heap",
            "7",
            "--threads",
            "0",
            "--out",
            out,
        ],
        &["--threads 0"],
    );
    fails_with(&["build", "chess", "--out", out], &["chess"]);
    fails_with(
        &["verify", "no-such-statement"],
        &["unknown statement", "--list"],
    );
    // Nothing partial was left behind by the failed builds.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn damaged_tables_are_refused_with_the_file_named() {
    let dir = TempDir::new("damage");
    let out = dir.path().to_str().unwrap();
    assert!(gamedb(&[
        "build",
        "nim",
        "--heaps",
        "4",
        "--max-heap",
        "15",
        "--out",
        out,
        "-q"
    ])
    .status
    .success());
    let path = dir.path().join("nim-4x15.gtab");
    let p = path.to_str().unwrap();
    let good = std::fs::read(&path).unwrap();

    // One payload byte flipped.
    let mut bad = good.clone();
    bad[4096 + 100] ^= 0x01;
    std::fs::write(&path, &bad).unwrap();
    fails_with(&["info", p], &[p, "checksum mismatch"]);
    fails_with(&["query", p, "1,2,3"], &[p, "checksum mismatch"]);
    fails_with(&["verify-table", p], &[p, "checksum mismatch"]);

    // Truncated by one byte, and cut inside the header.
    std::fs::write(&path, &good[..good.len() - 1]).unwrap();
    fails_with(&["info", p], &[p, "truncated"]);
    fails_with(&["query", p, "1,2,3"], &[p, "truncated"]);
    std::fs::write(&path, &good[..100]).unwrap();
    fails_with(
        &["query", p, "1,2,3"],
        &[p, "shorter than the 144-byte header"],
    );

    // A header field changed: the header checksum catches it.
    let mut bad = good.clone();
    bad[16] = 5; // heaps 4 -> 5
    std::fs::write(&path, &bad).unwrap();
    fails_with(&["info", p], &[p, "header checksum"]);

    // A future format version.
    let mut bad = good.clone();
    bad[8] = 9;
    std::fs::write(&path, &bad).unwrap();
    fails_with(&["info", p], &[p, "version 9"]);

    std::fs::write(&path, &good).unwrap();
    assert!(gamedb(&["verify-table", p]).status.success());
}

// ---------- determinism ----------

#[test]
fn one_and_two_threads_give_identical_bytes() {
    let specs = [
        (
            Spec::Nim(NimSpec::new(5, 31, None, false).unwrap()),
            ValueKind::Outcome,
        ),
        (
            Spec::Nim(NimSpec::new(5, 31, None, true).unwrap()),
            ValueKind::Outcome,
        ),
        (
            Spec::Nim(NimSpec::new(4, 31, Some(3), true).unwrap()),
            ValueKind::Outcome,
        ),
        (
            Spec::Nim(NimSpec::new(4, 31, Some(5), false).unwrap()),
            ValueKind::Grundy,
        ),
        (
            Spec::Candy(CandySpec::new(5001, 7, WinRule::Odd).unwrap()),
            ValueKind::Outcome,
        ),
    ];
    for (spec, kind) in specs {
        let one = with_threads(1, || spec.solve(kind, &hidden()).unwrap().bytes);
        let two = with_threads(2, || spec.solve(kind, &hidden()).unwrap().bytes);
        assert!(one == two, "{spec:?} differs between 1 and 2 threads");
    }
}

// ---------- verify ----------

#[test]
fn verify_passes_every_candy_and_nim_statement() {
    // Every candy and Nim statement, by name (other games' statements have their own tests).
    let list = stdout(&gamedb(&["verify", "--list"]));
    let names: Vec<&str> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| n.starts_with("candy-") || n.starts_with("nim-"))
        .collect();
    assert!(names.len() >= 12, "{list}");
    let mut args = vec!["verify", "--json", "-q", "--tables", "/nonexistent"];
    args.extend(&names);
    let o = gamedb(&args);
    let s = stdout(&o);
    assert!(o.status.success(), "{s}\n{}", stderr(&o));
    assert!(s.contains("\"failed\":0"), "{s}");
    for name in [
        "candy-lemma-1.1",
        "candy-theorem-1.2",
        "nim-bouton",
        "nim-bounded-misere",
        "nim-seed-002-xor",
    ] {
        assert!(
            s.contains(&format!("\"name\":\"{name}\"")),
            "{name} missing"
        );
    }
    // Seed 002's check covers exactly 16² + 16³ positions.
    assert!(s.contains("\"name\":\"nim-seed-002-xor\",\"source\""));
    assert!(s.contains("\"checked\":4352"), "{s}");
}

#[test]
fn verify_reports_a_false_statement_with_its_smallest_counterexample() {
    // Feed the misère rule a normal-play table through the public Env: the empty position is
    // the smallest counterexample (P under normal play, N by the misère rule).
    let spec = Spec::Nim(NimSpec::new(3, 7, None, false).unwrap());
    let t = Table::from_payload(&spec, spec.solve(ValueKind::Outcome, &hidden()).unwrap()).unwrap();
    let rules = t.rules();
    let mut f = gamedb::verify::Finding::default();
    for i in 0..t.len() {
        let h = rules.unrank(i);
        let ones = h.iter().filter(|&&x| x == 1).count();
        let misere_p = if h.iter().all(|&x| x <= 1) {
            ones % 2 == 1
        } else {
            h.iter().fold(0, |a, &b| a ^ b) == 0
        };
        f.case(t.outcome(i) == Outcome::from_win(!misere_p), || {
            rules.format(&h)
        });
    }
    assert!(!f.passed());
    assert_eq!(f.counterexample.as_deref(), Some("0,0,0"));
}

#[test]
fn nim_random_positions_of_a_large_table_follow_xor() {
    let spec = Spec::Nim(NimSpec::new(6, 20, None, false).unwrap());
    let t = Table::from_payload(&spec, spec.solve(ValueKind::Outcome, &hidden()).unwrap()).unwrap();
    let mut rng = Rng(12345);
    for _ in 0..20000 {
        let h: Vec<u32> = (0..6).map(|_| rng.below(21) as u32).collect();
        let x = h.iter().fold(0, |a, &b| a ^ b);
        assert_eq!(
            t.outcome_of(&h).unwrap(),
            Outcome::from_win(x != 0),
            "{h:?}"
        );
    }
    // Level order: the empty position is index 0 and every child ranks lower.
    let game = Nim::new(NimSpec::new(6, 20, None, false).unwrap());
    assert_eq!(game.rank(&[0, 0, 0, 0, 0, 0]), 0);
    for i in (0..game.positions()).step_by(997) {
        let _ = game.children(i, |c| {
            assert!(c < i);
            std::ops::ControlFlow::Continue(())
        });
    }
}
