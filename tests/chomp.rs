//! Chomp tables against an independent brute force, through files, at several thread counts,
//! and with bad input.

mod common;

use std::collections::HashMap;

use common::*;
use gamedb::games::chomp::{Chomp, ChompSpec};
use gamedb::{Error, Outcome, Spec, Table, ValueKind};

fn spec(r: u32, c: u32) -> Spec {
    Spec::new(ChompSpec::new(r, c).unwrap())
}

fn solve(r: u32, c: u32, kind: ValueKind) -> Table {
    table(&spec(r, c), kind)
}

/// A diagram as a grid of cells, bitten cell by cell: no ranking, no row arithmetic.
#[derive(Clone)]
struct Grid {
    cells: Vec<Vec<bool>>,
}

impl Grid {
    fn from_rows(rows: &[u32], r: usize, c: usize) -> Grid {
        Grid {
            cells: (0..r)
                .map(|i| {
                    (0..c)
                        .map(|j| (j as u32) < rows.get(i).copied().unwrap_or(0))
                        .collect()
                })
                .collect(),
        }
    }

    /// Row lengths, trailing empty rows dropped (the memo key and the query form).
    fn rows(&self) -> Vec<u32> {
        let mut rows: Vec<u32> = self
            .cells
            .iter()
            .map(|row| row.iter().filter(|&&x| x).count() as u32)
            .collect();
        while rows.last() == Some(&0) {
            rows.pop();
        }
        rows
    }

    /// Every bite except the poisoned cell: ((row, col) 1-based, grid left).
    fn bites(&self) -> Vec<((usize, usize), Grid)> {
        let mut out = Vec::new();
        for (i, row) in self.cells.iter().enumerate() {
            for (j, &present) in row.iter().enumerate() {
                if !present || (i, j) == (0, 0) {
                    continue;
                }
                let mut g = self.clone();
                for (i2, row2) in g.cells.iter_mut().enumerate() {
                    for (j2, cell) in row2.iter_mut().enumerate() {
                        if i2 >= i && j2 >= j {
                            *cell = false;
                        }
                    }
                }
                out.push(((i + 1, j + 1), g));
            }
        }
        out
    }
}

/// Grundy value by memoised recursion over explicit grids (0 = P).
fn brute_grundy(g: &Grid, memo: &mut HashMap<Vec<u32>, u32>) -> u32 {
    let key = g.rows();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let seen: Vec<u32> = g
        .bites()
        .iter()
        .map(|(_, c)| brute_grundy(c, memo))
        .collect();
    let v = (0..).find(|v| !seen.contains(v)).unwrap();
    memo.insert(key, v);
    v
}

/// Every diagram of the r×c box holding the poisoned cell, as row lengths.
fn diagrams(r: usize, c: u32) -> Vec<Vec<u32>> {
    fn rec(k: usize, r: usize, max: u32, cur: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if k == r {
            let mut d = cur.clone();
            while d.last() == Some(&0) {
                d.pop();
            }
            if !d.is_empty() {
                out.push(d);
            }
            return;
        }
        for v in 0..=max {
            cur.push(v);
            rec(k + 1, r, v, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    rec(0, r, c, &mut Vec::new(), &mut out);
    out
}

#[test]
fn p_counts_and_grundy_values_match_brute_force_up_to_6x6() {
    let mut memo = HashMap::new();
    for r in 1..=6u32 {
        for c in 1..=6u32 {
            let outcomes = solve(r, c, ValueKind::Outcome);
            let grundy = solve(r, c, ValueKind::Grundy);
            let mut p = 0;
            for d in diagrams(r as usize, c) {
                let g = brute_grundy(&Grid::from_rows(&d, r as usize, c as usize), &mut memo);
                p += (g == 0) as u64;
                let i = outcomes.rules().rank(&d);
                assert_eq!(
                    outcomes.outcome(i),
                    Outcome::from_win(g != 0),
                    "{r}x{c} {d:?}"
                );
                assert_eq!(grundy.grundy(i), Some(g), "{r}x{c} {d:?}");
            }
            assert_eq!(outcomes.count_p(), p, "{r}x{c}");
            assert_eq!(grundy.count_p(), p, "{r}x{c}");
        }
    }
}

/// `gamedb chomp-rectangles` of the `r × c` box's outcome table (built into a fresh folder):
/// the text report and the JSON one.
fn rectangles(r: u32, c: u32) -> (String, serde_json::Value) {
    let dir = TempDir::new("chomp-rectangles");
    let path = build(spec(r, c), ValueKind::Outcome, dir.path());
    let path = path.to_str().unwrap();
    let text = gamedb_ok(&["chomp-rectangles", path]);
    let all = json(&gamedb_ok(&["chomp-rectangles", path, "--json"]));
    (text.trim_end().to_string(), all)
}

#[test]
fn winning_bites_of_rectangles_up_to_8x8_match_brute_force() {
    let table = solve(8, 8, ValueKind::Outcome);
    let (_, rects) = rectangles(8, 8);
    assert_eq!(rects["rectangles"], 64);
    let answers = rects["answers"].as_array().unwrap();
    assert_eq!(answers.len(), 64);
    let mut memo = HashMap::new();
    for rect in answers {
        let (a, b) = (
            rect["rows"].as_u64().unwrap() as usize,
            rect["cols"].as_u64().unwrap() as u32,
        );
        let grid = Grid::from_rows(&vec![b; a], a, b as usize);
        let want: Vec<(u64, u64, String)> = grid
            .bites()
            .into_iter()
            .filter(|(_, g)| brute_grundy(g, &mut memo) == 0)
            .map(|((i, j), g)| (i as u64, j as u64, gamedb::game::format_numbers(&g.rows())))
            .collect();
        let got: Vec<(u64, u64, String)> = rect["winning_bites"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| {
                let leaves = w["leaves"].as_str().unwrap().to_string();
                (
                    w["row"].as_u64().unwrap(),
                    w["col"].as_u64().unwrap(),
                    leaves,
                )
            })
            .collect();
        assert_eq!(got, want, "{a}x{b}");
        let outcome = if want.is_empty() { "P" } else { "N" };
        assert_eq!(rect["outcome"], outcome, "{a}x{b}");
        assert_eq!(rect["more_than_one"], want.len() > 1, "{a}x{b}");
        // The lookup answers the same bites.
        let ans = table
            .query(&gamedb::game::format_numbers(&vec![b; a]))
            .unwrap();
        let labels: Vec<String> = ans
            .winning_moves()
            .iter()
            .map(|m| m.label.clone())
            .collect();
        let want_labels: Vec<String> = want.iter().map(|(i, j, _)| format!("({i},{j})")).collect();
        assert_eq!(labels, want_labels);
    }
}

#[test]
fn known_rectangle_answers() {
    // 8×10 has two winning bites; every square has exactly (2,2).
    let (text, all) = rectangles(10, 10);
    let answers = all["answers"].as_array().unwrap();
    let find = |a: u32, b: u32| {
        answers
            .iter()
            .find(|r| r["rows"] == a && r["cols"] == b)
            .unwrap()
    };
    let bites = |a, b| -> Vec<(u64, u64)> {
        find(a, b)["winning_bites"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| (w["row"].as_u64().unwrap(), w["col"].as_u64().unwrap()))
            .collect()
    };
    assert_eq!(bites(8, 10), [(4, 9), (5, 6)]);
    for n in 2..=10 {
        assert_eq!(bites(n, n), [(2, 2)], "{n}x{n}");
    }
    assert!(
        text.lines()
            .any(|l| l.starts_with('*') && l.contains("8x10")),
        "{text}"
    );
    assert_eq!(all["rectangles"], 100);
    // 8x10 and its transpose, 9x10 and its transpose.
    assert_eq!(all["with_more_than_one"], 4);
    assert!(
        text.ends_with("100 rectangles; 4 with more than one winning bite: 8x10, 9x10, 10x8, 10x9"),
        "{text}"
    );
    // The documented object of 8x10.
    assert_eq!(
        find(8, 10),
        &serde_json::json!({
            "rows": 8, "cols": 10, "outcome": "N",
            "winning_bites": [
                {"row": 4, "col": 9, "leaves": "10,10,10,8,8,8,8,8"},
                {"row": 5, "col": 6, "leaves": "10,10,10,10,5,5,5,5"}
            ],
            "more_than_one": true
        })
    );
}

#[test]
fn rank_and_unrank_are_inverse_and_ordered() {
    for (r, c) in [(7, 9), (9, 7), (3, 40), (12, 2)] {
        let rules = spec(r, c).view().shared_rules();
        let all = diagrams(r as usize, c);
        assert_eq!(all.len() as u64, spec(r, c).positions());
        let mut sorted = all.clone();
        sorted.sort();
        for (i, d) in sorted.iter().enumerate() {
            assert_eq!(rules.rank(d), i as u64, "{d:?}");
            assert_eq!(&rules.unrank(i as u64), d);
        }
    }
}

#[test]
fn square_and_unsymmetric_boxes_agree() {
    // The square box takes transposes' values without searching them; 9x10 searches all.
    let square = solve(9, 9, ValueKind::Outcome);
    let wide = solve(9, 10, ValueKind::Outcome);
    let square_g = solve(8, 8, ValueKind::Grundy);
    let wide_g = solve(8, 9, ValueKind::Grundy);
    for i in 0..square.len() {
        let d = square.rules().unrank(i);
        assert_eq!(square.outcome(i), wide.outcome_of(&d).unwrap(), "{d:?}");
    }
    for i in 0..square_g.len() {
        let d = square_g.rules().unrank(i);
        let j = wide_g.rules().rank(&d);
        assert_eq!(square_g.grundy(i), wide_g.grundy(j), "{d:?}");
    }
}

#[test]
fn census_counts_every_sub_box() {
    let (r, c) = (6u32, 7u32);
    let table = solve(r, c, ValueKind::Outcome);
    let facts = table.facts();
    assert_eq!(facts.len(), 1);
    assert_eq!(facts[0].key, "p_census");
    let g = Chomp::new(ChompSpec::new(r, c).unwrap());
    let census = g.census(&table);
    for a in 1..=r {
        for b in 1..=c {
            assert_eq!(
                census[a as usize][b as usize],
                solve(a, b, ValueKind::Outcome).count_p(),
                "{a}x{b}"
            );
        }
    }
    assert_eq!(census[r as usize][c as usize], table.count_p());
    let fact = &facts[0].json;
    assert_eq!(fact["rows"], 6, "{fact}");
    assert_eq!(fact["cols"], 7, "{fact}");
    assert_eq!(fact["counts"][0][0], 1, "{fact}");
    // Row a, column b of the JSON is the census of the a×b sub-box.
    let counts: Vec<Vec<u64>> = census[1..].iter().map(|row| row[1..].to_vec()).collect();
    assert_eq!(fact["counts"], serde_json::json!(counts), "{fact}");
}

#[test]
fn bytes_are_identical_at_1_and_2_threads() {
    for (r, c, kind) in [
        (10, 10, ValueKind::Outcome),
        (6, 15, ValueKind::Outcome),
        (9, 9, ValueKind::Grundy),
        (5, 11, ValueKind::Grundy),
    ] {
        let s = spec(r, c);
        let one = with_threads(1, || payload_bytes(&s, kind));
        let two = with_threads(2, || payload_bytes(&s, kind));
        assert!(one == two, "{r}x{c} {kind:?}");
    }
}

#[test]
fn round_trip_through_a_file() {
    let dir = TempDir::new("chomp-roundtrip");
    for kind in [ValueKind::Outcome, ValueKind::Grundy] {
        let s = spec(7, 8);
        let built = build(s.clone(), kind, dir.path());
        assert_eq!(
            built.file_name().unwrap().to_str().unwrap(),
            if kind == ValueKind::Outcome {
                "chomp-7x8.gtab"
            } else {
                "chomp-7x8-grundy.gtab"
            }
        );
        let file = Table::open(&built).unwrap();
        file.verify().unwrap();
        let memory = solve(7, 8, kind);
        assert_eq!(file.spec(), Some(&s));
        assert_eq!(file.file().payload(), memory.file().payload());
        for text in ["1", "8,8,8,8,8,8,8", "4,3,1", "2,2,1", "5,5,3"] {
            assert_eq!(file.query(text).unwrap(), memory.query(text).unwrap());
        }
    }
    let t = Table::open(dir.join("chomp-7x8.gtab")).unwrap();
    let a = t.query("4,3,1,0").unwrap();
    assert!(
        a.to_text().starts_with("4,3,1: N  winning: "),
        "{}",
        a.to_text()
    );
}

#[test]
fn the_single_cell_is_terminal_p() {
    let t = solve(4, 4, ValueKind::Outcome);
    let a = t.query("1").unwrap();
    assert_eq!(a.outcome(), Some(Outcome::P));
    assert!(a.winning_moves().is_empty());
    assert_eq!(a.index, Some(0));
    assert!(t.rules().moves(&[1]).is_empty());
    let a = t.query("2").unwrap();
    assert_eq!(a.winning_moves().len(), 1);
    assert_eq!(a.winning_moves()[0].label, "(1,2)");
    assert_eq!(a.winning_moves()[0].leaves, "1");
    assert_eq!(a.winning_moves()[0].numbers, vec![1]);
}

#[test]
fn bad_positions_are_rejected_with_a_reason() {
    let t = solve(4, 5, ValueKind::Outcome);
    for (text, needle) in [
        ("2,3", "longer than row 1"),
        ("0", "poisoned cell"),
        ("0,0,1", "poisoned cell"),
        ("6", "at most 5 columns"),
        ("1,1,1,1,1", "at most 4 rows"),
        ("3,x", "not a non-negative integer"),
        ("-1", "not a non-negative integer"),
        ("", "empty position"),
    ] {
        match t.query(text) {
            Err(Error::BadInput(msg)) => {
                assert!(msg.contains(needle), "{text}: {msg}");
                assert!(
                    msg.contains("row lengths top row first")
                        || needle.contains("empty")
                        || needle.contains("integer"),
                    "{text}: {msg}"
                );
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // Trailing empty rows are fine, even beyond the box (answers write the diagram without
    // them).
    let a = t.query("3,1,0,0,0,0").unwrap();
    assert_eq!(a.numbers, vec![3, 1, 0, 0, 0, 0]);
    assert_eq!(a.position, "3,1");
    assert_eq!(a.index, t.query("3,1").unwrap().index);
    assert!(ChompSpec::new(0, 4).is_err());
    assert!(ChompSpec::new(4, 70_000).is_err());
    assert!(matches!(ChompSpec::new(40, 40), Err(Error::Unsupported(_))));
    // A table of another game is not a Chomp table: see command_line().
}

/// Runs gamedb: exit status, stdout, stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = gamedb(args);
    (out.status.code().unwrap_or(-1), stdout(&out), stderr(&out))
}

/// Runs gamedb, which must succeed, and checks its output contains `needle`.
fn shows(args: &[&str], needle: &str) {
    let (code, stdout, _) = run(args);
    assert_eq!(code, 0, "{args:?}");
    assert!(stdout.contains(needle), "{args:?}: {stdout}");
}

#[test]
fn command_line() {
    let dir = TempDir::new("chomp-cli");
    let out = dir.arg();
    shows(
        &[
            "build", "chomp", "--rows", "8", "--cols", "10", "--out", out, "-q",
        ],
        "chomp-8x10.gtab (43757 positions",
    );
    let table = dir.join("chomp-8x10.gtab");
    let table = table.as_str();

    let (code, stdout, _) = run(&["query", table, "10,10,10,10,10,10,10,10", "4,3,1"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("10,10,10,10,10,10,10,10: N  winning: (4,9) -> 10,10,10,8,8,8,8,8; (5,6) -> 10,10,10,10,5,5,5,5\n"), "{stdout}");

    shows(
        &["chomp-rectangles", table],
        "80 rectangles; 1 with more than one winning bite: 8x10",
    );
    let (code, stdout, _) = run(&["chomp-rectangles", table, "--json"]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with(r#"{"rectangles":80,"with_more_than_one":1,"most_winning_bites":2,"multi_bite_bars":["8x10"],"#),
        "{stdout}"
    );
    // Only the bars with more than one winning bite, with their bites.
    let (code, stdout, _) = run(&["chomp-rectangles", table, "--only-multi"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
    assert!(
        stdout.contains(
            "*      8x10  N        (4,9) -> 10,10,10,8,8,8,8,8; (5,6) -> 10,10,10,10,5,5,5,5\n"
        ),
        "{stdout}"
    );

    // The census over the table and a box solved in memory: the 8×10 bar once.
    let (code, stdout, _) = run(&["chomp-census", table, "--boxes", "10x14", "-q"]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with("box   8x10:    80 bars, 1 with more than one winning bite ("),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("2 boxes, 140 distinct bars; 6 with more than one winning bite; the most: 2 winning bites (6x13, 8x10, 9x10, 10x8, 10x9, 10x14)\n"),
        "{stdout}"
    );
    shows(
        &["chomp-census", "--boxes", "6x13", "--json", "-q"],
        r#""multi_bite_bars":[{"rows":6,"cols":13,"outcome":"N","winning_bites":[{"row":4,"col":12,"leaves":"13,13,13,11,11,11"},{"row":5,"col":9,"leaves":"13,13,13,13,8,8"}],"more_than_one":true}]"#,
    );

    shows(
        &["info", table],
        "P-positions in each sub-box of a rows and b columns:",
    );
    shows(
        &["info", table, "--json"],
        r#""p_census":{"rows":8,"cols":10,"counts":[[1,"#,
    );

    // A Grundy table: info gives the distribution and the largest value; chomp-rectangles the
    // value of every rectangle (8×8 = 13, known by search).
    let (code, _, _) = run(&[
        "build", "chomp", "--rows", "8", "--cols", "9", "--grundy", "--out", out, "-q",
    ]);
    assert_eq!(code, 0);
    let grundy = dir.join("chomp-8x9-grundy.gtab");
    let (code, stdout, _) = run(&["info", &grundy, "--json"]);
    assert_eq!(code, 0);
    let info: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let counts: Vec<u64> = serde_json::from_value(info["grundy_counts"].clone()).unwrap();
    let max = info["max_grundy"].as_u64().unwrap();
    assert_eq!(counts.len() as u64, max + 1);
    assert!(counts[max as usize] > 0);
    assert_eq!(counts.iter().sum::<u64>(), 24309);
    assert_eq!(counts[0], info["p_positions"].as_u64().unwrap());
    shows(
        &["info", &grundy],
        &format!("largest Grundy value: {max}\npositions at each Grundy value:\n      0 "),
    );
    shows(
        &["chomp-rectangles", &grundy, "--json"],
        r#"{"rows":8,"cols":8,"outcome":"N","grundy":13,"#,
    );
    let (code, stdout, _) = run(&["chomp-rectangles", &grundy]);
    assert_eq!(code, 0);
    assert!(stdout.contains("grundy  winning bites"), "{stdout}");
    assert!(
        stdout.contains("\n        8x8  N        13      "),
        "{stdout}"
    );

    // Bad input: exit 2 and one line naming what was wrong.
    for (args, needle) in [
        (vec!["query", table, "3,4"], "rows may not grow downwards"),
        (vec!["query", table, "11"], "at most 10 columns"),
        (vec!["query", table, "0"], "poisoned cell"),
        (
            vec!["build", "chomp", "--rows", "0", "--cols", "3", "--out", out],
            "--rows 0",
        ),
        (
            vec![
                "build", "chomp", "--rows", "40", "--cols", "40", "--out", out,
            ],
            "more than",
        ),
        (
            vec!["chomp-rectangles", "/nonexistent/t.gtab"],
            "/nonexistent/t.gtab",
        ),
        (vec!["chomp-census"], "no boxes"),
        (vec!["chomp-census", "--boxes", "40x40"], "more than"),
        (vec!["chomp-census", "--boxes", "0x4"], "--rows 0"),
        (
            vec!["chomp-census", "--boxes", "10x42", "--memory", "1G"],
            "needs 1.8 GiB of memory",
        ),
        (
            vec!["chomp-census", "/nonexistent/t.gtab", "--boxes", "3x3"],
            "/nonexistent/t.gtab",
        ),
    ] {
        let (code, _, stderr) = run(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(
            stderr.starts_with("gamedb: ") && stderr.contains(needle),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    }
    gamedb_ok(&words(
        "build nim --heaps 2 --max-heap 3 --out {} -q",
        &[out],
    ));
    let (code, _, stderr) = run(&["chomp-rectangles", &dir.join("nim-2x3.gtab")]);
    assert_eq!(code, 2);
    assert!(stderr.contains("needs a Chomp table"), "{stderr}");
    let (code, _, stderr) = run(&["chomp-census", &dir.join("nim-2x3.gtab")]);
    assert_eq!(code, 2);
    assert!(stderr.contains("needs Chomp tables"), "{stderr}");
    // A box written badly: clap's own message, exit 2.
    let (code, _, stderr) = run(&["chomp-census", "--boxes", "8y10"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("expected a box RxC such as 10x42"),
        "{stderr}"
    );
}

#[test]
fn chomp_waves_are_counted_exactly() {
    for (r, c) in [(1, 1), (1, 7), (2, 5), (3, 3), (4, 6), (5, 2), (6, 6)] {
        let spec = ChompSpec::new(r, c).unwrap();
        let sizes = spec.diagrams_by_cells();
        // Brute force: every non-increasing row-length sequence in the box, by cell count.
        let mut count = vec![0u64; (r * c + 1) as usize];
        fn walk(rows_left: u32, max: u32, cells: u32, count: &mut Vec<u64>) {
            if rows_left == 0 {
                count[cells as usize] += 1;
                return;
            }
            for v in 0..=max {
                walk(rows_left - 1, v, cells + v, count);
            }
        }
        walk(r, c, 0, &mut count);
        assert_eq!(sizes, count, "{r}x{c}");
        assert_eq!(
            sizes.iter().sum::<u64>(),
            Spec::new(spec.clone()).positions() + 1
        );
    }
}
