//! Table files: what a file holds equals an in-memory solve, `info` and `query` read it back,
//! damaged files are refused naming the file and the damage, and the bytes do not depend on
//! the thread count.

mod common;

use common::*;
use gamedb::games::candy::{CandySpec, WinRule};
use gamedb::games::nim::NimSpec;
use gamedb::{Outcome, Spec, Table, ValueKind};

#[test]
fn round_trip_through_files_and_cli() {
    let dir = cli_build("roundtrip", "nim --heaps 4 --max-heap 9 --max-take 3");
    let path = dir.join("nim-4x9-k3.gtab");
    let table = Table::open(&path).unwrap();
    table.verify().unwrap();
    // The file holds what an in-memory solve gives.
    let spec = Spec::new(NimSpec::new(4, 9, Some(3), false).unwrap());
    assert_eq!(table.spec(), Some(&spec));
    assert_eq!(
        table.file().payload(),
        &payload_bytes(&spec, ValueKind::Outcome)[..]
    );
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
    // info agrees.
    let info = json(&gamedb_ok(&["info", &path, "--json"]));
    assert_eq!(info["p_positions"], p, "{info}");
    assert_eq!(info["n_positions"], 715 - p, "{info}");
    assert_eq!(info["checksum"], "ok", "{info}");
    assert_eq!(info["entries"], 715, "{info}"); // C(13,4)
    assert_eq!(info["file"], path.as_str(), "{info}");
    // Queries agree with the library, and winning moves leave P-positions.
    let out = gamedb_ok(&["query", &path, "1,2,3,5", "5,5", "--json"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let first = json(lines[0]);
    assert_eq!(first["position"], "1,2,3,5", "{out}");
    assert_eq!(first["outcome"], "N", "{out}");
    assert_eq!(
        lines[1],
        "{\"position\":\"5,5\",\"outcome\":\"P\",\"winning_moves\":[]}"
    );
    let ans = table.query("1,2,3,5").unwrap();
    assert_eq!(first, serde_json::to_value(&ans).unwrap());
    assert!(!ans.winning_moves().is_empty());
    for m in ans.winning_moves() {
        assert_eq!(table.outcome_of(&m.numbers).unwrap(), Outcome::P, "{m:?}");
    }
}

#[test]
fn damaged_tables_are_refused_with_the_file_named() {
    let dir = cli_build("damage", "nim --heaps 4 --max-heap 15");
    let p = dir.join("nim-4x15.gtab");
    let good = std::fs::read(&p).unwrap();
    let changed = |at: usize, to: u8| {
        let mut b = good.clone();
        b[at] = to;
        b
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "one payload byte flipped",
            changed(4096 + 100, good[4096 + 100] ^ 0x01),
            "checksum mismatch",
        ),
        (
            "truncated by one byte",
            good[..good.len() - 1].to_vec(),
            "truncated",
        ),
        (
            "cut inside the header",
            good[..100].to_vec(),
            "shorter than the 528-byte header",
        ),
        // heaps 4 -> 5: the header checksum catches it.
        ("a header field changed", changed(16, 5), "header checksum"),
        ("a future format version", changed(8, 9), "version 9"),
    ];
    for (what, bytes, says) in &cases {
        std::fs::write(&p, bytes).unwrap();
        for args in [
            vec!["info", p.as_str()],
            vec!["query", p.as_str(), "1,2,3"],
            vec!["verify-table", p.as_str()],
        ] {
            refused(what, &args, &[p.as_str(), says]);
        }
    }
    std::fs::write(&p, &good).unwrap();
    gamedb_ok(&["verify-table", &p]);
}

#[test]
fn one_and_two_threads_give_identical_bytes() {
    let specs = [
        (
            Spec::new(NimSpec::new(5, 31, None, false).unwrap()),
            ValueKind::Outcome,
        ),
        (
            Spec::new(NimSpec::new(5, 31, None, true).unwrap()),
            ValueKind::Outcome,
        ),
        (
            Spec::new(NimSpec::new(4, 31, Some(3), true).unwrap()),
            ValueKind::Outcome,
        ),
        (
            Spec::new(NimSpec::new(4, 31, Some(5), false).unwrap()),
            ValueKind::Grundy,
        ),
        (
            Spec::new(CandySpec::new(5001, 7, WinRule::Odd).unwrap()),
            ValueKind::Outcome,
        ),
    ];
    for (spec, kind) in specs {
        let one = with_threads(1, || payload_bytes(&spec, kind));
        let two = with_threads(2, || payload_bytes(&spec, kind));
        assert!(one == two, "{spec:?} differs between 1 and 2 threads");
    }
}
