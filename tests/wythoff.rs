//! Wythoff's game: the table against an independent brute force, the golden-ratio pairs,
//! queries, bad input, files and thread counts.

mod common;

use std::collections::HashMap;

use common::{gamedb, stderr, stdout, with_threads, TempDir};
use gamedb::games::wythoff::{floor_k_phi, WythoffSpec};
use gamedb::{Outcome, Spec, Table, ValueKind};

fn spec(n: u32) -> Spec {
    Spec::new(WythoffSpec::new(n).unwrap())
}

fn table(n: u32, kind: ValueKind) -> Table {
    let s = spec(n);
    Table::from_solved(&s, s.solve(kind, &()).unwrap()).unwrap()
}

/// The Grundy value by its definition, memoized, with no index and no solver.
fn brute(a: u32, b: u32, memo: &mut HashMap<(u32, u32), u32>) -> u32 {
    if let Some(&g) = memo.get(&(a, b)) {
        return g;
    }
    let mut seen = Vec::new();
    for k in 1..=a {
        seen.push(brute(a - k, b, memo));
    }
    for k in 1..=b {
        seen.push(brute(a, b - k, memo));
    }
    for k in 1..=a.min(b) {
        seen.push(brute(a - k, b - k, memo));
    }
    let g = (0..).find(|v| !seen.contains(v)).unwrap();
    memo.insert((a, b), g);
    g
}

#[test]
fn every_position_matches_brute_force() {
    let n = 30;
    let outcomes = table(n, ValueKind::Outcome);
    let grundy = table(n, ValueKind::Grundy);
    let mut memo = HashMap::new();
    for a in 0..=n {
        for b in 0..=n {
            let g = brute(a, b, &mut memo);
            let pos = [a, b];
            assert_eq!(
                outcomes.outcome_of(&pos).unwrap(),
                Outcome::from_win(g != 0),
                "{pos:?}"
            );
            let i = grundy.index_of(&pos).unwrap();
            assert_eq!(grundy.grundy(i), Some(g), "{pos:?}");
        }
    }
}

#[test]
fn p_positions_are_the_golden_ratio_pairs() {
    let n = 500;
    let t = table(n, ValueKind::Outcome);
    let mut pairs = Vec::new();
    for k in 0.. {
        let (lo, hi) = (floor_k_phi(k), floor_k_phi(k) + k);
        if hi > n as u64 {
            break;
        }
        pairs.push((lo as u32, hi as u32));
        pairs.push((hi as u32, lo as u32));
    }
    let mut p = Vec::new();
    for a in 0..=n {
        for b in 0..=n {
            if t.outcome_of(&[a, b]).unwrap() == Outcome::P {
                p.push((a, b));
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    assert_eq!(p, pairs);
    assert_eq!(t.count_p(), pairs.len() as u64);
}

#[test]
fn queries_list_every_winning_move() {
    let t = table(7, ValueKind::Outcome);
    let a = t.query("4,5").unwrap();
    assert_eq!(a.outcome(), Some(Outcome::N));
    let moves: Vec<(&str, &str)> = a
        .winning_moves()
        .iter()
        .map(|m| (m.label.as_str(), m.leaves.as_str()))
        .collect();
    assert_eq!(
        moves,
        [("take 1 from heap 1", "3,5"), ("take 3 from both", "1,2")]
    );
    // A missing second heap is empty; the answer writes both heaps.
    assert_eq!(t.query("7").unwrap().position, "7,0");
    assert_eq!(
        t.query("3,5").unwrap().to_json(),
        r#"{"position":"3,5","outcome":"P","winning_moves":[]}"#
    );
    let g = table(7, ValueKind::Grundy);
    assert_eq!(g.query("4,5").unwrap().grundy(), Some(6));
}

#[test]
fn bad_positions_are_refused_with_what_is_accepted() {
    let t = table(7, ValueKind::Outcome);
    for (text, want) in [
        ("1,2,3", "3 heaps"),
        ("8,0", "heap 8 is larger than this table's largest heap 7"),
        ("", "empty position"),
        ("-1,2", "not a non-negative integer"),
        ("a,b", "not a non-negative integer"),
    ] {
        let err = t.query(text).unwrap_err().to_string();
        assert!(err.contains(want), "{text:?}: {err}");
        assert!(
            err.contains("each 0..=7") || err.contains("expected"),
            "{text:?}: {err}"
        );
    }
    for bad in [["--max-heap", "0"], ["--max-heap", "65536"]] {
        let o = gamedb(&["build", "wythoff", bad[0], bad[1], "--out", "/nonexistent"]);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(stderr(&o).contains("expected 1..=65535"), "{}", stderr(&o));
    }
}

#[test]
fn files_round_trip_and_threads_give_the_same_bytes() {
    let dir = TempDir::new("wythoff");
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    for (threads, out) in [(1, &one), (2, &two)] {
        with_threads(threads, || {
            for kind in [ValueKind::Outcome, ValueKind::Grundy] {
                gamedb::build::build(&spec(200), kind, out, &()).unwrap();
            }
        });
    }
    for name in ["wythoff-200.gtab", "wythoff-200-grundy.gtab"] {
        let a = std::fs::read(one.join(name)).unwrap();
        let b = std::fs::read(two.join(name)).unwrap();
        assert!(a == b, "{name} differs between 1 and 2 threads");
    }
    let file = one.join("wythoff-200.gtab");
    let o = gamedb(&["query", file.to_str().unwrap(), "4,5", "3,5"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "4,5: N  winning: take 1 from heap 1 -> 3,5; take 3 from both -> 1,2\n3,5: P\n"
    );
    let info = gamedb(&["info", file.to_str().unwrap(), "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
    assert_eq!(json["game"], "wythoff");
    assert_eq!(json["entries"], 201 * 201);
    assert_eq!(json["checksum"], "ok");
}
