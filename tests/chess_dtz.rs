//! Chess tables of distances to zeroing (`--values dtz`): every position of KQk, KRk, KRkr and
//! KPk equal to Syzygy's tables (made by syzygy1/tb, kept in `data/syzygy/`), WDL and exact DTZ;
//! an altered entry caught by that comparison and by the recurrence; a capture resetting the
//! count where distance to mate goes on; the same bytes at 1 and 2 threads; answers and
//! refusals through the command line. The recurrence of every dtz value of KQk is checked by
//! tests/conformance.rs. And distances to mate with pawns (KPk) by win, draw and loss against
//! Syzygy's KPvK.

mod common;

use common::*;
use gamedb::format::entries::standing;
use gamedb::games::chess::ChessSpec;
use gamedb::model::Standing;
use gamedb::{syzygy, Spec, Table, ValueKind};

fn spec(men: &str) -> Spec {
    Spec::new(ChessSpec::new(men).unwrap())
}

fn syzygy_tables() -> shakmaty_syzygy::Tablebase<shakmaty::Chess> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
    let (tb, files) = syzygy::tablebase(std::path::Path::new(dir)).unwrap();
    assert_eq!(files, 12, "{dir}");
    tb
}

#[test]
fn every_position_has_syzygys_wdl_and_dtz() {
    let tb = syzygy_tables();
    for (men, endings) in [
        ("KQk", &["KQvK"][..]),
        ("KRk", &["KRvK"]),
        ("KRkr", &["KRvK", "KvKR", "KRvKR"]),
        // A pawn's move resets the count as a capture does.
        ("KPk", &["KPvK", "KQvK", "KRvK"]),
    ] {
        let t = table(&spec(men), ValueKind::Dtz);
        let report = syzygy::compare(&t, &tb, 1).unwrap();
        let total = report.total();
        assert_eq!(total.differ, 0, "{men}: {:#?}", report.shown);
        // Every position compared: exact DTZ (the fixtures are made with -p) or mate (Syzygy's
        // -1 for gamedb's 0), or kings alone.
        assert_eq!(
            total.dtz_exact + total.mates + total.kings_alone,
            total.positions,
            "{men}"
        );
        for &name in endings {
            let t = &report.endings[name];
            assert!(t.positions > 0 && t.dtz_exact > 0, "{men}: {name}");
        }
    }
}

#[test]
fn pawn_endings_have_syzygys_win_draw_and_loss() {
    let tb = syzygy_tables();
    let s = spec("KPk");
    let t = table(&s, ValueKind::Remoteness);
    let report = syzygy::compare(&t, &tb, 1).unwrap();
    let total = report.total();
    assert_eq!(total.differ, 0, "{:#?}", report.shown);
    assert_eq!(total.wdl_equal + total.kings_alone, total.positions);
    for name in ["KPvK", "KQvK", "KRvK", "KBvK", "KNvK"] {
        assert!(report.endings[name].wdl_equal > 0, "{name}");
    }
    // KPvK alone: 165,676 positions with either side to move (81,664 and 84,012).
    assert_eq!(report.endings["KPvK"].positions, 165_676);
    // A won position made a draw is caught.
    let mut solved = s.solve(ValueKind::Remoteness, &()).unwrap();
    let i = (0..solved.len())
        .rev()
        .find(|&i| standing::unpack(solved.value(i)).is_some_and(|(v, _)| v == Standing::Win))
        .unwrap();
    solved.set_value(i, standing::pack(Standing::Draw, 0) as u32);
    let t = Table::from_solved(&s, solved).unwrap();
    let report = syzygy::compare(&t, &tb, 1).unwrap();
    assert_eq!(report.total().differ, 1, "{:?}", report.shown);
    assert!(
        report.shown[0].contains("gamedb Draw in 0, Syzygy Win"),
        "{:?}",
        report.shown
    );
}

#[test]
fn an_altered_dtz_is_caught() {
    let s = spec("KRk");
    let mut solved = s.solve(ValueKind::Dtz, &()).unwrap();
    assert_eq!(s.check_solved(&solved).map(|n| n > 0), Ok(true));
    // A win in 7 plies to zeroing made a win in 9.
    let i = (0..solved.len())
        .find(|&i| standing::unpack(solved.value(i)) == Some((Standing::Win, 7)))
        .unwrap();
    let was = solved.value(i);
    assert_ne!(was, 0);
    solved.set_value(i, standing::pack(Standing::Win, 9) as u32);
    let err = s.check_solved(&solved).expect_err("passes the recurrence");
    assert!(
        err.to_string().contains("win in 9, expected win in 7"),
        "{err}"
    );
    let t = Table::from_solved(&s, solved).unwrap();
    let report = syzygy::compare(&t, &syzygy_tables(), 1).unwrap();
    assert_eq!(report.total().differ, 1, "{:?}", report.shown);
    assert!(
        report.shown[0].contains("gamedb win dtz 9"),
        "{:?}",
        report.shown
    );
}

#[test]
fn a_capture_resets_the_count_where_the_mate_is_still_far() {
    let dir = TempDir::new("chess-dtz");
    for values in ["remoteness", "dtz"] {
        gamedb_ok(&[
            "build",
            "chess",
            "--men",
            "KQkr",
            "--values",
            values,
            "--out",
            dir.arg(),
        ]);
    }
    let fen = "k7/8/8/8/8/8/1r6/KQ6 w - - 0 1";
    let dtm = json(&gamedb_ok(&[
        "query",
        "--json",
        &dir.join("chess-KQkr.gtab"),
        fen,
    ]));
    assert_eq!(
        (dtm["value"].as_str(), dtm["remoteness"].as_u64()),
        (Some("win"), Some(15))
    );
    let dtz = json(&gamedb_ok(&[
        "query",
        "--json",
        &dir.join("chess-KQkr-dtz.gtab"),
        fen,
    ]));
    assert_eq!(
        (dtz["wdl50"].as_str(), dtz["dtz"].as_i64()),
        (Some("win"), Some(1))
    );
    let moves = dtz["moves"].as_array().unwrap();
    let played = |san: &str| moves.iter().find(|m| m["move"] == san).unwrap();
    assert_eq!(played("Qxb2")["zeroing"], true);
    assert_eq!(played("Qxb2")["dtz"], 1);
    assert_eq!(played("Qc1")["zeroing"], false);
    assert_eq!(played("Qc2")["wdl50"], "loss");
}

#[test]
fn dtz_tables_are_the_same_bytes_at_one_and_two_threads() {
    let s = spec("KRkn");
    let one = with_threads(1, || payload_bytes(&s, ValueKind::Dtz));
    let two = with_threads(2, || payload_bytes(&s, ValueKind::Dtz));
    assert!(one == two);
}

#[test]
fn the_command_line_answers_and_refuses() {
    let dir = TempDir::new("chess-dtz-cli");
    let out = gamedb_ok(&[
        "build",
        "chess",
        "--men",
        "KRk",
        "--values",
        "dtz",
        "--out",
        dir.arg(),
    ]);
    assert!(out.contains("chess-KRk-dtz.gtab"), "{out}");
    let t = dir.join("chess-KRk-dtz.gtab");
    let text = gamedb_ok(&["query", &t, "k7/R7/2K5/8/8/8/8/8 b - - 0 1"]);
    assert_eq!(
        text.trim(),
        "k7/R7/2K5/8/8/8/8/8 b - - 0 1: draw, dtz 0  moves: Kxa7: draw, dtz 0 (zeroing); Kb8: \
         loss, dtz -4"
    );
    let info = gamedb_ok(&["info", &t]);
    assert!(info.contains("dtz values as u16"), "{info}");
    assert!(
        info.contains(
            "50-move rule:    win 22400, cursed win 0, draw 3771, blessed loss 0, loss 25797"
        ),
        "{info}"
    );
    let rows = gamedb_ok(&["export", &t, "--format", "jsonl"]);
    let first = json_lines(&rows);
    assert_eq!(first.len(), 51_968);
    assert!(first
        .iter()
        .all(|r| r["dtz"].is_i64() && r["wdl50"].is_string()));

    // A stream answers every line and goes on after a bad one.
    let o = gamedb_stdin(
        &["query", &t, "-", "--json"],
        b"8/8/8/8/8/2k5/8/K2R4 b - - 0 1\nK7/8/8/8/8/8/8/k7 w - - 0 1 x\n8/8/8/8/8/2k5/8/K1R5 w - - 0 1\n",
    );
    let lines = json_lines(&stdout(&o));
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["dtz"], -26);
    assert!(lines[1]["error"].is_string());
    assert!(lines[2]["error"].as_str().unwrap().contains("in check"));
    assert_eq!(o.status.code(), Some(2));

    // With pawns: a pawn's move is a zeroing move, as a capture is.
    gamedb_ok(&[
        "build",
        "chess",
        "--men",
        "KPk",
        "--values",
        "dtz",
        "--out",
        dir.arg(),
    ]);
    let text = gamedb_ok(&[
        "query",
        &dir.join("chess-KPk-dtz.gtab"),
        "8/8/8/8/8/8/4P3/K6k w - - 0 1",
    ]);
    assert!(
        text.starts_with("8/8/8/8/8/8/4P3/K6k w - - 0 1: win, dtz 1  moves:")
            && text.contains("e4: win, dtz 1 (zeroing)"),
        "{text}"
    );
    refused(
        "play",
        &["play", &t, "--from", "8/8/8/8/8/2k5/8/K2R4 w - - 0 1"],
        &["dtz", "expected a remoteness table"],
    );
}

/// `gamedb verify chess-syzygy --syzygy DIR`: every position of the fixtures' endings (KRkr,
/// and KPk, which holds KQk, KRk, KBk and KNk through its promotions) passes; a gamedb table
/// with one value altered fails it, with that position; a Syzygy file of another ending under
/// a name, no folder, a missing one and one without tables each get one line and exit status
/// 2.
#[test]
fn verify_holds_every_position_to_a_folder_of_syzygy_tables() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
    let verify = |dir: &str, tables: &str| {
        gamedb(&[
            "verify",
            "chess-syzygy",
            "--syzygy",
            dir,
            "--json",
            "-q",
            "--tables",
            tables,
        ])
    };
    let o = verify(fixtures, "/nonexistent");
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let summary = json(&stdout(&o));
    let report = &summary["statements"][0];
    assert_eq!(report["status"], "PASS", "{summary}");
    // KRkr's 2,860,284 positions and KPk's 373,086, each side to move.
    assert_eq!(report["checked"], 2_860_284 + 373_086, "{summary}");
    assert_eq!(
        report["tables"],
        serde_json::json!([
            "chess-KRkr-dtz.gtab (solved)",
            "chess-KPk-dtz.gtab (solved)"
        ])
    );

    // KRkr's table with a win in 7 plies to zeroing made a win in 9, under a valid header.
    let tables = TempDir::new("syzygy-altered");
    let s = spec("KRkr");
    let mut solved = s.solve(ValueKind::Dtz, &()).unwrap();
    let i = (0..solved.len())
        .find(|&i| standing::unpack(solved.value(i)) == Some((Standing::Win, 7)))
        .unwrap();
    solved.set_value(i, standing::pack(Standing::Win, 9) as u32);
    let encoded = gamedb::format::payload::encode(solved);
    let path = tables.path().join(s.file_name(ValueKind::Dtz));
    gamedb::format::write_table(&path, &s.meta(&encoded), &encoded.bytes).unwrap();
    let o = verify(fixtures, tables.arg());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let summary = json(&stdout(&o));
    let report = &summary["statements"][0];
    let found = report["counterexample"].as_str().unwrap();
    assert!(
        found.starts_with("KRkr: 1 of 2860284 positions differ, first "),
        "{found}"
    );
    assert!(found.contains("gamedb win dtz 9"), "{found}");
    assert!(
        report["tables"][0].as_str().unwrap().ends_with("(reused)"),
        "{summary}"
    );

    let other = TempDir::new("syzygy-other");
    for f in std::fs::read_dir(fixtures).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, other.path().join(f.file_name().unwrap())).unwrap();
    }
    for ext in ["rtbw", "rtbz"] {
        let from = other.path().join(format!("KQvK.{ext}"));
        std::fs::copy(from, other.path().join(format!("KRvK.{ext}"))).unwrap();
    }
    let empty = TempDir::new("syzygy-empty");
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "verify",
                "chess-syzygy",
                "--syzygy",
                other.arg(),
                "-q",
                "--tables",
                "/nonexistent",
            ],
            "failed to probe wdl table KRvK: corrupted table",
        ),
        (
            &["verify", "chess-syzygy"],
            "name their folder with --syzygy DIR",
        ),
        (
            &["verify", "chess-syzygy", "--syzygy", "/nonexistent"],
            "/nonexistent: No such file",
        ),
        (
            &["verify", "chess-syzygy", "--syzygy", empty.arg()],
            "no Syzygy ending with both its .rtbw and .rtbz file",
        ),
    ];
    for (args, says) in cases {
        let o = gamedb(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        assert!(e.contains(says), "{args:?}: {e}");
    }
}

/// Syzygy's DTZ of a draw is 0, and so is gamedb's: a position neither won nor lost keeps no
/// distance (a draw, or a tie where the game is over: stalemate, a dead position), while the
/// distance-to-mate table of the same ending keeps its distance to the nearest tie.
#[test]
fn a_drawn_position_keeps_no_distance() {
    let s = spec("KRkr");
    let (dtz, dtm) = (table(&s, ValueKind::Dtz), table(&s, ValueKind::Remoteness));
    let (mut draws, mut over, mut far_ties) = (0, 0, 0);
    for i in 0..dtz.len() {
        let (z, m) = (dtz.value(i).unwrap(), dtm.value(i).unwrap());
        let (Some((zv, zr)), Some((mv, mr))) = (standing::unpack(z), standing::unpack(m)) else {
            assert_eq!(z, 0, "index {i}: an entry where the other table has none");
            continue;
        };
        match zv {
            Standing::Win | Standing::Lose => assert_eq!(zv, mv, "index {i}"),
            Standing::Draw => {
                assert_eq!(zr, 0, "index {i}");
                assert!(matches!(mv, Standing::Tie | Standing::Draw), "index {i}");
                draws += 1;
                far_ties += u64::from(mv == Standing::Tie && mr > 0);
            }
            Standing::Tie => {
                assert_eq!(
                    (zr, mv, mr),
                    (0, Standing::Tie, 0),
                    "index {i}: a tie not over"
                );
                over += 1;
            }
        }
    }
    assert!(
        draws > 0 && over > 0 && far_ties > 0,
        "{draws} {over} {far_ties}"
    );
}
