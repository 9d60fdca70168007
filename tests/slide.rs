//! Sliding puzzles: published distance counts, an independent breadth-first search, replayed
//! solutions, the ranking, bad inputs, thread-count independence and file round trips.
//! Only boards up to 10 cells here; the 12-cell boards belong to `scripts/bench/slide.sh`.

mod common;

use std::collections::{HashMap, VecDeque};

use common::*;
use gamedb::games::board::Board;
use gamedb::games::slide::{SlideIndex, SlideSpec};
use gamedb::solve::Puzzle;
use gamedb::{Spec, Table, ValueKind};

fn spec(rows: u32, cols: u32) -> Spec {
    Spec::new(SlideSpec::new(rows, cols).unwrap())
}

fn slide_table(rows: u32, cols: u32) -> Table {
    table(&spec(rows, cols), ValueKind::Distance)
}

/// Applies a move label (`slide 7 down`) to an arrangement, checking it is legal.
fn apply(g: &Board, pos: &[u32], label: &str) -> Vec<u32> {
    let words: Vec<&str> = label.split(' ').collect();
    assert_eq!(words.len(), 3, "{label}");
    assert_eq!(words[0], "slide");
    let tile: u32 = words[1].parse().unwrap();
    let t = pos.iter().position(|&v| v == tile).unwrap();
    let b = Board::blank(pos);
    let cols = g.cols();
    let ok = match words[2] {
        "down" => b >= cols && t == b - cols,
        "up" => t == b + cols,
        "right" => g.col(b) > 0 && t == b - 1,
        "left" => g.col(b) + 1 < cols && t == b + 1,
        other => panic!("direction {other}"),
    };
    assert!(ok, "{label} is not a legal move of {pos:?}");
    let mut next = pos.to_vec();
    next.swap(t, b);
    next
}

/// Distances by a plain breadth-first search over arrangements (no ranking, no parity rule).
fn brute_force(g: &Board) -> HashMap<Vec<u32>, u32> {
    let mut dist = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(g.goal(), 0);
    queue.push_back(g.goal());
    while let Some(p) = queue.pop_front() {
        let d = dist[&p];
        for s in g.slides(&p) {
            if !dist.contains_key(&s.leaves) {
                dist.insert(s.leaves.clone(), d + 1);
                queue.push_back(s.leaves);
            }
        }
    }
    dist
}

// ---------------------------------------------------------------------------------------------

#[test]
fn distributions_equal_the_published_counts() {
    let published = published_slide_counts();
    for (r, c) in [(2, 2), (3, 2), (2, 3), (3, 3)] {
        let want = &published[&(r, c)];
        let got = slide_table(r as u32, c as u32).distance_census(0).counts;
        assert_eq!(&got, want, "{r}×{c}");
        let total: u64 = want.iter().sum();
        assert_eq!(total, spec(r as u32, c as u32).positions());
    }
    // 4×4 is there to check partial enumerations: its sum is 16!/2.
    assert_eq!(published[&(4, 4)].iter().sum::<u64>(), 10_461_394_944_000);
}

#[test]
fn every_distance_equals_an_independent_search() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        let g = Board::new(r, c).unwrap();
        let t = slide_table(r, c);
        let brute = brute_force(&g);
        assert_eq!(
            brute.len() as u64,
            t.len(),
            "{r}×{c}: reachable arrangements"
        );
        for (pos, &d) in &brute {
            assert!(g.solvable(pos));
            let a = t.answer(pos.clone()).unwrap();
            assert_eq!(a.distance().unwrap().distance, Some(d), "{r}×{c} {pos:?}");
        }
    }
}

#[test]
fn paths_replay_to_the_goal_in_distance_moves() {
    let dir = TempDir::new("paths");
    let out = dir.path().to_str().unwrap();
    let mut rng = Rng(0x5eed_0004);
    for (r, c) in [(3, 3), (2, 4), (4, 2), (2, 5)] {
        let g = Board::new(r, c).unwrap();
        let o = gamedb(&words(
            "build slide --rows {} --cols {} --out {} -q",
            &[&r.to_string(), &c.to_string(), out],
        ));
        assert!(o.status.success(), "{}", stderr(&o));
        let file = dir.path().join(format!("slide-{r}x{c}.gtab"));
        let positions: Vec<Vec<u32>> = (0..60).map(|_| random_solvable(g, &mut rng)).collect();
        let mut args = vec![
            "query".to_string(),
            file.display().to_string(),
            "--json".into(),
            "--path".into(),
        ];
        args.extend(positions.iter().map(|p| text_of(p)));
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let o = gamedb(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let answers = stdout(&o);
        let lines: Vec<&str> = answers.lines().collect();
        assert_eq!(lines.len(), positions.len());
        let t = Table::open(&file).unwrap();
        for (pos, line) in positions.iter().zip(lines) {
            let answer = json(line);
            assert_eq!(answer["position"], text_of(pos), "{line}");
            assert_eq!(answer["solvable"], true, "{line}");
            let d = answer["distance"].as_u64().expect("a distance") as usize;
            let path = moves(&answer, "path");
            assert_eq!(path.len(), d, "{line}");
            let mut here = pos.clone();
            for (label, leaves) in &path {
                here = apply(&g, &here, label);
                assert_eq!(&text_of(&here), leaves);
            }
            assert_eq!(here, g.goal(), "{line}");
            // Every optimal move is legal and leaves a position one move nearer.
            let optimal = moves(&answer, "optimal_moves");
            assert_eq!(optimal.is_empty(), d == 0);
            for (label, leaves) in optimal {
                let next = apply(&g, pos, &label);
                assert_eq!(text_of(&next), leaves);
                let a = t.answer(next).unwrap();
                assert_eq!(a.distance().unwrap().distance, Some(d as u32 - 1));
            }
        }
    }
}

#[test]
fn ranking_is_a_bijection_onto_the_solvable_half() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4)] {
        let g = Board::new(r, c).unwrap();
        let t = slide_table(r, c);
        let rules = t.rules();
        let mut seen = std::collections::HashSet::new();
        for i in 0..t.len() {
            let pos = rules.unrank(i);
            rules.check(&pos).unwrap();
            assert!(rules.outside(&pos).is_none() && g.solvable(&pos));
            assert_eq!(rules.rank(&pos), i);
            assert!(seen.insert(pos));
        }
        assert_eq!(
            seen.len() as u64 * 2,
            (1..=g.cells() as u64).product::<u64>()
        );
    }
    // The documented worked example (tables/README.md, "Game 4").
    let g = Board::new(3, 3).unwrap();
    let ix = SlideIndex::dense(g);
    assert_eq!(ix.index_of(&[8, 6, 7, 2, 5, 4, 3, 0, 1]), 177_874);
    assert_eq!(ix.index_of(&g.goal()), 8);
    assert_eq!(ix.goals(), vec![8]);
}

#[test]
fn unsolvable_arrangements_are_answered_without_the_table() {
    let t = slide_table(3, 3);
    let a = t.query_with("8,6,7,2,5,4,3,1,0", true).unwrap();
    let d = a.distance().unwrap();
    assert_eq!(d.distance, Some(30));
    assert_eq!(d.path.as_ref().map(Vec::len), Some(30));
    let a = t.query_with("1,2,3,4,5,6,8,7,0", true).unwrap();
    let d = a.distance().unwrap().clone();
    assert_eq!((d.distance, a.index, d.path.clone()), (None, None, None));
    assert!(d.optimal_moves.is_empty());
    assert!(
        d.reason.as_deref().unwrap().contains("have 1 inversion,"),
        "{d:?}"
    );
    let answer = json(&a.to_json());
    assert_eq!(answer["solvable"], false, "{answer}");
    assert!(answer["distance"].is_null(), "{answer}");
    assert_eq!(answer["reason"], d.reason.unwrap().as_str(), "{answer}");
    // Even number of columns: the blank's row enters the rule.
    let t = slide_table(2, 4);
    let distance = |pos: &str| t.query(pos).unwrap().distance().unwrap().clone();
    assert_eq!(distance("1,2,3,4,5,6,7,0").distance, Some(0));
    assert_eq!(distance("1,2,3,0,5,6,7,4").distance, Some(1));
    // Tiles in order (no inversion), blank in the top row: 0 + 1 is odd.
    let d = distance("1,2,3,0,4,5,6,7");
    assert!(!d.solvable);
    assert!(d.reason.unwrap().contains("blank's row 1"));
    assert!(distance("1,2,3,4,0,5,6,7").solvable);
}

#[test]
fn bad_input_is_refused_with_a_clear_message() {
    let dir = TempDir::new("bad");
    let out = dir.arg();
    gamedb_ok(&words("build slide --rows 3 --cols 3 --out {} -q", &[out]));
    let file = dir.join("slide-3x3.gtab");
    let file = file.as_str();
    for (input, says) in [
        ("1,2,3,4,5,6,7,8", "has 8 numbers, a 3×3 board has 9 cells"),
        ("1,2,3,4,5,6,7,8,0,9", "has 10 numbers"),
        ("1,2,3,4,5,6,7,9,0", "9 is not a tile of a 3×3 board"),
        ("1,2,3,4,5,6,7,7,0", "tile 7 appears twice"),
        ("1,2,3,4,5,6,7,0,0", "the blank 0 appears twice"),
        ("1,2,3,4,5,6,7,8,x", "'x' is not a non-negative integer"),
        ("1,2,3,4,5,6,7,8,-1", "'-1' is not a non-negative integer"),
        ("", "empty position"),
    ] {
        let err = refused(input, &["query", file, input], &[says]);
        assert!(
            err.contains("reading order") || input.is_empty(),
            "names the accepted form: {err}"
        );
        assert_eq!(err.lines().count(), 1, "one line: {err}");
    }
    // An unsolvable arrangement is valid input: answered, exit 0.
    let answer = json(&gamedb_ok(&["query", file, "2,1,3,4,5,6,7,8,0", "--json"]));
    assert_eq!(answer["solvable"], false, "{answer}");
    for (rows, cols) in [("1", "5"), ("4", "4"), ("2", "7"), ("0", "3")] {
        refused(
            &format!("{rows}x{cols}"),
            &words(
                "build slide --rows {} --cols {} --out {}",
                &[rows, cols, out],
            ),
            &["expected at least 2 rows and 2 columns and at most 12 cells"],
        );
    }
}

#[test]
fn tables_are_identical_at_one_and_two_threads() {
    for (r, c) in [(3, 3), (2, 5), (5, 2)] {
        let s = spec(r, c);
        let one = with_threads(1, || payload_bytes(&s, ValueKind::Distance));
        let two = with_threads(2, || payload_bytes(&s, ValueKind::Distance));
        assert_eq!(one, two, "{r}×{c}");
        assert_eq!(one.len() as u64, s.positions());
    }
}

#[test]
fn files_round_trip_and_info_reports_distances() {
    let dir = TempDir::new("files");
    let out = dir.path().to_str().unwrap();
    let o = gamedb(&words(
        "build slide --rows 3 --cols 3 --out {} --threads 2 -q",
        &[out],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let path = dir.path().join("slide-3x3.gtab");
    let t = Table::open(&path).unwrap();
    t.verify().unwrap();
    assert_eq!(t.value_kind(), ValueKind::Distance);
    assert_eq!(t.spec(), Some(&spec(3, 3)));
    assert_eq!(t.file().payload(), slide_table(3, 3).file().payload());

    let o = gamedb(&["info", path.to_str().unwrap()]);
    assert!(o.status.success());
    let info = stdout(&o);
    assert!(info.contains("max distance:    31"), "{info}");
    assert!(info.contains("antipodes:       2 at distance 31"), "{info}");
    assert!(
        info.contains("  8,6,7,2,5,4,3,0,1") && info.contains("  6,4,7,8,5,0,3,2,1"),
        "{info}"
    );
    assert!(
        info.contains("unsolvable arrangements (not stored):\n  181440, as many as stored"),
        "{info}"
    );
    let info = json(&gamedb_ok(&["info", path.to_str().unwrap(), "--json"]));
    let counts = u64s_at(&info, "distance_counts");
    assert_eq!(counts[..8], [1, 2, 4, 8, 16, 20, 39, 62], "{info}");
    assert_eq!(counts.iter().sum::<u64>(), 181_440, "{info}");
    assert_eq!(info["max_distance"], 31, "{info}");
    assert_eq!(info["antipode_count"], 2, "{info}");
    assert_eq!(
        info["antipodes"],
        serde_json::json!(["6,4,7,8,5,0,3,2,1", "8,6,7,2,5,4,3,0,1"]),
        "{info}"
    );
    assert_eq!(info["unsolvable"]["count"], 181_440, "{info}");

    // A flipped payload byte is caught by the checksum.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[4096 + 1000] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    refused(
        "a flipped payload byte",
        &["query", path.to_str().unwrap(), "1,2,3,4,5,6,7,8,0"],
        &["checksum"],
    );
}

#[test]
fn verify_checks_seed_004_on_square_boards() {
    let dir = TempDir::new("verify");
    let o = gamedb(&words(
        "verify slide-seed-004 --tables {} -q",
        &[dir.path().to_str().unwrap()],
    ));
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let report = stdout(&o);
    assert!(report.contains("PASS  slide-seed-004"), "{report}");
    assert!(report.contains("checked 362904 cases"), "{report}");
}
