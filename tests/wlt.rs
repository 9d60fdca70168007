//! Wlt tables (`--values wlt`: win, lose or tie-or-draw, two bits a position) of the two-player
//! games: every index of a wlt table equals the value of the remoteness table of the same game
//! mapped to the three values (a tie and a draw made one, no position kept as 0), the bytes are
//! the same at one and two threads and a quarter of a byte table; the answers of the command
//! line (text, JSON, the stream), the library and the C ABI agree with each other and with the
//! remoteness table; `info` and `export` count and list what the table holds; bad input
//! (`--values` of a kind the game has not, play from a wlt table, `--only`) is refused with
//! one line and exit status 2.

mod common;

use std::ffi::CString;

use common::*;
use gamedb::format::entries::{standing, wlt};
use gamedb::format::payload::{self, Encoding, Entries};
use gamedb::games::connect4::Connect4Spec;
use gamedb::games::mill::MillSpec;
use gamedb::games::mnk::MnkSpec;
use gamedb::games::quixo::QuixoSpec;
use gamedb::model::Standing;
use gamedb::{Spec, Table, ValueKind};

/// Tic-tac-toe, Connect Four 4×4, Quixo 3×3, Three Men's Morris on the 3×3 grid and on the
/// 16-point board.
fn specs() -> Vec<Spec> {
    vec![
        Spec::new(MnkSpec::new(3, 3, 3).unwrap()),
        Spec::new(Connect4Spec::new(4, 4).unwrap()),
        Spec::new(QuixoSpec::new(3).unwrap()),
        Spec::new(MillSpec::new(3, Some(9), false).unwrap()),
        Spec::new(MillSpec::new(3, None, false).unwrap()),
    ]
}

#[test]
fn every_index_is_the_remoteness_value_mapped_at_any_thread_count() {
    for spec in specs() {
        let name = spec.describe();
        let n = spec.positions();
        let remoteness = with_threads(1, || {
            payload::encode(spec.solve(ValueKind::Remoteness, &()).unwrap())
        });
        let one = with_threads(1, || {
            payload::encode(spec.solve(ValueKind::Wlt, &()).unwrap())
        });
        let two = with_threads(2, || {
            payload::encode(spec.solve(ValueKind::Wlt, &()).unwrap())
        });
        assert!(one.bytes == two.bytes, "{name}: 1 and 2 threads differ");
        assert_eq!((one.kind, one.encoding), (ValueKind::Wlt, Encoding::U2));
        // A quarter of a byte table: four entries a byte, the unused codes of the last 0.
        assert_eq!(one.bytes.len() as u64, n.div_ceil(4), "{name}");
        // A remoteness table takes one byte a position, or two past remoteness 15.
        let width = if remoteness.encoding == Encoding::U8 {
            1
        } else {
            2
        };
        assert_eq!(remoteness.bytes.len() as u64, width * n, "{name}");
        if n % 4 != 0 {
            assert_eq!(one.bytes.last().unwrap() >> (2 * (n % 4)), 0, "{name}");
        }
        let r = Entries::new(
            &remoteness.bytes,
            ValueKind::Remoteness,
            remoteness.encoding,
            n,
        )
        .unwrap();
        let w = Entries::new(&one.bytes, ValueKind::Wlt, Encoding::U2, n).unwrap();
        let mut by = [0u64; 4];
        for i in 0..n {
            let want = match standing::unpack(r.raw(i)) {
                None => 0,
                Some((Standing::Lose, _)) => 1,
                Some((Standing::Win, _)) => 2,
                Some((Standing::Tie | Standing::Draw, _)) => 3,
            };
            assert_eq!(w.raw(i), want, "{name}: index {i}");
            by[want as usize] += 1;
        }
        let mut histogram = w.histogram();
        histogram.resize(4, 0);
        assert_eq!(histogram, by.to_vec(), "{name}");
        // Each kind passes its game's recurrence.
        let solved = spec.solve(ValueKind::Wlt, &()).unwrap();
        assert!(spec.check_solved(&solved).unwrap() > 0, "{name}");
        println!(
            "{name}: {n} positions, remoteness {} bytes, wlt {} bytes; lose {}, win {}, tie or draw {}, no position {}",
            remoteness.bytes.len(),
            one.bytes.len(),
            by[1],
            by[2],
            by[3],
            by[0]
        );
    }
}

/// The value of a remoteness answer's `value` in a wlt answer.
fn mapped(value: &serde_json::Value) -> &'static str {
    match value.as_str().unwrap() {
        "win" => "win",
        "lose" => "lose",
        "tie" | "draw" => "tie-or-draw",
        other => panic!("not a value: {other}"),
    }
}

/// `gamedb_value` of the C ABI (called in process).
fn c_value(table: *const Table, position: &str) -> i64 {
    let text = CString::new(position).unwrap();
    // SAFETY: `table` is an open handle, `text` NUL-terminated.
    unsafe { common::c_abi::gamedb_value(table, text.as_ptr()) }
}

#[test]
fn answers_agree_across_interfaces_and_with_the_remoteness_table() {
    let dir = TempDir::new("wlt-answers");
    for (game, args) in [
        ("mnk", &["--rows", "3", "--cols", "3", "--k", "3"][..]),
        ("connect4", &["--cols", "4", "--rows", "4"][..]),
        ("quixo", &["--size", "3"][..]),
        ("mill", &["--men", "3", "--points", "9"][..]),
    ] {
        let mut build = vec!["build", game];
        build.extend_from_slice(args);
        build.extend_from_slice(&["--out", dir.arg(), "-q"]);
        gamedb_ok(&build);
        build.extend_from_slice(&["--values", "wlt"]);
        let out = gamedb_ok(&build);
        // The two tables of one game have two names: the wlt one says its kind.
        let wlt_file = out.split_whitespace().nth(1).unwrap().to_string();
        assert!(wlt_file.ends_with("-wlt.gtab"), "{out}");
        let rem_file = wlt_file.replace("-wlt.gtab", ".gtab");
        let (wt, rt) = (
            Table::open(&wlt_file).unwrap(),
            Table::open(&rem_file).unwrap(),
        );
        assert_eq!(
            (wt.value_kind(), rt.value_kind()),
            (ValueKind::Wlt, ValueKind::Remoteness)
        );
        assert_eq!(wt.len(), rt.len());

        // Positions at random legal indices, asked of both tables through the stream, with a
        // bad line among them: an error object, and the stream goes on.
        let rules = wt.rules();
        let mut rng = Rng(0x5eed ^ wt.len());
        let mut lines = Vec::new();
        while lines.len() < 24 {
            let i = rng.below(wt.len());
            if wlt::value(wt.raw(i)).is_none() {
                continue;
            }
            let text = rules.format(&rules.unrank(i));
            if rules.parse(&text).is_ok() {
                lines.push(text);
            }
        }
        if let Some(start) = rules.start() {
            lines.push(rules.format(&start));
        }
        let input = format!("{}\nnot a position\n", lines.join("\n"));
        let ask = |file: &str| {
            let o = gamedb_stdin(&["query", "--json", file, "-"], input.as_bytes());
            assert_eq!(o.status.code(), Some(2), "{game}: {}", stderr(&o));
            json_lines(&stdout(&o))
        };
        let (w, r) = (ask(&wlt_file), ask(&rem_file));
        assert_eq!((w.len(), r.len()), (lines.len() + 1, lines.len() + 1));
        assert!(w[lines.len()]["error"]
            .as_str()
            .unwrap()
            .contains("expected"));
        let handle = {
            let path = CString::new(wlt_file.as_str()).unwrap();
            // SAFETY: a NUL-terminated path; closed below.
            unsafe { common::c_abi::gamedb_open(path.as_ptr(), 0) }
        };
        assert!(!handle.is_null());
        // SAFETY: an open handle.
        assert_eq!(unsafe { common::c_abi::gamedb_value_kind(handle) }, 6);
        for (k, line) in lines.iter().enumerate() {
            let (a, b) = (&w[k], &r[k]);
            assert_eq!(a["value"], mapped(&b["value"]), "{game} {line}");
            assert!(
                a.get("remoteness").is_none() && a.get("reachable").is_none(),
                "{a}"
            );
            let (am, bm) = (
                a["moves"].as_array().unwrap(),
                b["moves"].as_array().unwrap(),
            );
            assert_eq!(am.len(), bm.len(), "{game} {line}");
            for (x, y) in am.iter().zip(bm) {
                assert_eq!((&x["move"], &x["leaves"]), (&y["move"], &y["leaves"]));
                assert_eq!(x["value"], mapped(&y["value"]), "{game} {line}");
            }
            // The library and the C ABI: the same value (the C ABI gives the code).
            let library = wt.query(line).unwrap();
            assert_eq!(
                serde_json::to_value(&library).unwrap(),
                *a,
                "{game} {line}: library"
            );
            let v = wt.wlt_of(&rules.parse(line).unwrap()).unwrap();
            assert_eq!(v.as_str(), a["value"].as_str().unwrap());
            assert_eq!(
                c_value(handle, line),
                i64::from(wlt::code(v)),
                "{game} {line}: C"
            );
            // Text: the value in words, then each move.
            let text = gamedb_ok(&["query", &wlt_file, line]);
            assert!(
                text.starts_with(&format!("{line}: {}", v.text())),
                "{game}: {text}"
            );
        }
        // P or N is refused by the C ABI: these are not P/N values.
        let first = CString::new(lines[0].as_str()).unwrap();
        // SAFETY: an open handle, a NUL-terminated position; the handle is closed once.
        unsafe {
            assert_eq!(
                common::c_abi::gamedb_outcome(handle, first.as_ptr()),
                common::c_abi::define("GAMEDB_ERR_KIND")
            );
            common::c_abi::gamedb_close(handle);
        }
        // A remoteness reader of a wlt table and a wlt reader of a remoteness table are
        // refused, each with what it expected.
        let pos = rules.parse(&lines[0]).unwrap();
        let e = wt.standing_of(&pos).unwrap_err().to_string();
        assert!(e.contains("expected a remoteness table"), "{e}");
        let e = rt.wlt_of(&pos).unwrap_err().to_string();
        assert!(
            e.contains("expected a table built with --values wlt"),
            "{e}"
        );
        // Nor is either read as P/N (every legal entry is non-zero: it would say N always).
        let e = wt.outcome_of(&pos).unwrap_err().to_string();
        assert!(e.contains("not P or N"), "{e}");
        assert!(rt.outcome_of(&pos).is_err());
        let mut out = Vec::new();
        assert!(wt.outcomes_of([pos.as_slice()], &mut out).is_err() && out.is_empty());
        assert!(rt.outcomes_of([pos.as_slice()], &mut out).is_err() && out.is_empty());
    }
}

#[test]
fn info_and_export_say_what_a_wlt_table_holds() {
    let dir = TempDir::new("wlt-info");
    let base = [
        "build", "mnk", "--rows", "3", "--cols", "3", "--k", "3", "-q",
    ];
    let mut args = base.to_vec();
    args.extend_from_slice(&["--out", dir.arg()]);
    gamedb_ok(&args);
    args.extend_from_slice(&["--values", "wlt"]);
    gamedb_ok(&args);
    let (w, r) = (dir.join("mnk-3-3-3-wlt.gtab"), dir.join("mnk-3-3-3.gtab"));
    let wi = json(&gamedb_ok(&["info", "--json", &w]));
    let ri = json(&gamedb_ok(&["info", "--json", &r]));
    assert_eq!(
        (wi["values"].as_str(), wi["encoding"].as_str()),
        (Some("wlt"), Some("u2"))
    );
    assert_eq!(wi["payload_len"], 6046u64.div_ceil(4));
    let p = &ri["positions"];
    assert_eq!(wi["positions"]["win"], p["win"]);
    assert_eq!(wi["positions"]["lose"], p["lose"]);
    assert_eq!(
        wi["positions"]["tie_or_draw"].as_u64().unwrap(),
        p["tie"].as_u64().unwrap() + p["draw"].as_u64().unwrap()
    );
    assert_eq!(wi["no_position"], ri["no_position"]);
    assert_eq!(wi["start"]["value"], "tie-or-draw");
    assert_eq!(
        (&wi["keeps_remoteness"], &wi["keeps_reachability"]),
        (&serde_json::json!(false), &serde_json::json!(false))
    );
    assert!(wi.get("max_remoteness").is_none(), "{wi}");
    let text = gamedb_ok(&["info", &w]);
    assert!(
        text.contains("positions:       5478 (win 2836, lose 1574, tie or draw 1068)"),
        "{text}"
    );
    assert!(text.contains("no remoteness, no reachability"), "{text}");

    // Export: a row for each legal position, its value as the query names it.
    let csv = gamedb_ok(&["export", &w]);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("index,position,value"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 5478);
    assert!(
        rows.contains(&"6045,\".../.../...\",tie-or-draw"),
        "{:?}",
        &rows[rows.len() - 2..]
    );
    let jsonl = gamedb_ok(&["export", "--format", "jsonl", &w]);
    let last = json(jsonl.lines().last().unwrap());
    assert_eq!(
        last,
        serde_json::json!({"index": 6045, "position": ".../.../...", "value": "tie-or-draw"})
    );
    refused(
        "export --only",
        &["export", "--only", "p", &w],
        &["--only", "expected"],
    );
}

#[test]
fn bad_inputs_are_refused_with_one_line() {
    let dir = TempDir::new("wlt-bad");
    let mnk = [
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
    ];
    let mut args = mnk.to_vec();
    args.extend_from_slice(&["--values", "nope"]);
    let e = refused(
        "unknown kind",
        &args,
        &["--values nope", "expected remoteness or wlt"],
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    // Wlt values are for two-player games only.
    let e = refused(
        "nim wlt",
        &[
            "build",
            "nim",
            "--heaps",
            "2",
            "--max-heap",
            "3",
            "--values",
            "wlt",
            "--out",
            dir.arg(),
        ],
        &["--values wlt", "expected outcome or grundy"],
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    // Play needs the remoteness: a wlt table is refused, from the start and from a position.
    let mut args = mnk.to_vec();
    args.extend_from_slice(&["--values", "wlt", "-q"]);
    gamedb_ok(&args);
    let t = dir.join("mnk-3-3-3-wlt.gtab");
    for args in [
        vec!["play", t.as_str()],
        vec!["play", t.as_str(), "--from", "x../.../..."],
    ] {
        let e = refused(
            "play",
            &args,
            &["cannot be played", "expected a remoteness table"],
        );
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(!e.contains('\''), "{e}");
    }
    // A board no play makes is refused as it is from a remoteness table.
    let e = refused(
        "bad board",
        &["query", &t, "xx./.../..."],
        &["expected 3 rows of 3 cells"],
    );
    assert_eq!(e.lines().count(), 1, "{e}");
}

#[test]
fn the_service_answers_counts_and_refuses_play() {
    let dir = TempDir::new("wlt-http");
    gamedb_ok(&[
        "build",
        "mnk",
        "--rows",
        "3",
        "--cols",
        "3",
        "--k",
        "3",
        "--values",
        "wlt",
        "-q",
        "--out",
        dir.arg(),
    ]);
    let server = common::http::Server::start(dir.path(), &[]);
    let file = "mnk-3-3-3-wlt.gtab";
    let t = dir.join(file);
    let r = server.get(&format!("/api/tables/{file}/query?position=x../.../..."));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json(),
        json(&gamedb_ok(&["query", "--json", &t, "x../.../..."]))
    );
    let r = server.get(&format!("/api/tables/{file}/values"));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json(),
        serde_json::json!({"values": "wlt", "labels": ["lose", "tie-or-draw", "win"],
            "counts": [1574, 1068, 2836]})
    );
    let r = server.get(&format!("/api/tables/{file}/play"));
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(
        r.text().contains("expected a remoteness table"),
        "{}",
        r.text()
    );
}

#[test]
fn verify_passes_over_a_wlt_table_and_solves_the_remoteness_table() {
    // The statements read remoteness tables: a wlt table of the same game in the folder is
    // not taken for one (tables are found by their headers, kind included).
    let dir = TempDir::new("wlt-verify");
    gamedb_ok(&[
        "build",
        "mnk",
        "--rows",
        "3",
        "--cols",
        "3",
        "--k",
        "3",
        "--values",
        "wlt",
        "-q",
        "--out",
        dir.arg(),
    ]);
    let out = gamedb_ok(&["verify", "mnk-tic-tac-toe", "--tables", dir.arg()]);
    assert!(out.contains("mnk-3-3-3.gtab (solved)"), "{out}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");
}

#[test]
fn a_build_states_the_two_bit_file_before_solving() {
    let dir = TempDir::new("wlt-needs");
    let out = gamedb(&[
        "build",
        "connect4",
        "--cols",
        "4",
        "--rows",
        "4",
        "--values",
        "wlt",
        "--no-checkpoints",
        "--out",
        dir.arg(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    // 201,755 positions: 50,439 payload bytes after the 4096-byte header.
    let file = 4096 + 201_755u64.div_ceil(4);
    let said = stderr(&out);
    assert!(
        said.contains("connect4-4-4-wlt.gtab: needs ")
            && said.contains(&format!(" of memory and {} of disk", bytes(file))),
        "{said}"
    );
    let written = std::fs::metadata(dir.join("connect4-4-4-wlt.gtab"))
        .unwrap()
        .len();
    assert_eq!(written, file);
}
