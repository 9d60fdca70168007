//! A folder of tables is read by the headers, never by the names: a file under another
//! table's standard name is refused (by `query --tables`) or passed over (by `verify
//! --tables`) with a message naming the file and what its header says; a table under any
//! other name is found by its header.

mod common;

use common::*;
use gamedb::games::nim::NimSpec;
use gamedb::games::slide::SlideSpec;
use gamedb::{Spec, TableDir, ValueKind};

#[test]
fn a_table_under_another_tables_name_is_refused_by_query() {
    let dir = TempDir::new("renamed-query");
    let small = build(
        Spec::new(SlideSpec::new(2, 3).unwrap()),
        ValueKind::Distance,
        dir.path(),
    );
    let impostor = dir.join("slide-3x3.gtab");
    std::fs::rename(&small, &impostor).unwrap();
    let e = refused(
        "a 2x3 table named slide-3x3.gtab",
        &words(
            "query --rows 3 --cols 3 --tables {} 1,2,3,4,5,6,7,0,8",
            &[dir.arg()],
        ),
        &[
            &impostor,
            "its header says it holds",
            "2×3 board",
            "rename or rebuild",
        ],
    );
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    // The folder type says the same to library callers.
    let tables = TableDir::new(dir.path());
    let spec = Spec::new(SlideSpec::new(3, 3).unwrap());
    let err = tables
        .table(&spec, ValueKind::Distance, true)
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains(&impostor) && err.contains("2×3 board"),
        "{err}"
    );

    // The real 3x3 table under a name of its own is found by its header and answers.
    let real = build(spec.clone(), ValueKind::Distance, dir.path());
    std::fs::rename(&real, dir.path().join("my-copy.gtab")).unwrap();
    let answer = json(&gamedb_ok(&words(
        "query --rows 3 --cols 3 --tables {} 1,2,3,4,5,6,7,0,8 --json",
        &[dir.arg()],
    )));
    assert_eq!(answer["distance"], 1, "{answer}");
    assert!(
        answer.get("nodes").is_none(),
        "answered by the table: {answer}"
    );
    let found = TableDir::new(dir.path())
        .find(&spec, ValueKind::Distance)
        .unwrap()
        .unwrap();
    assert!(found.ends_with("my-copy.gtab"), "{}", found.display());
}

#[test]
fn verify_does_not_reuse_a_table_under_another_tables_name() {
    let dir = TempDir::new("renamed-verify");
    let two = build(
        Spec::new(NimSpec::new(2, 15, None, false).unwrap()),
        ValueKind::Outcome,
        dir.path(),
    );
    // A copy of the two-heap table under the three-heap table's name.
    let impostor = dir.join("nim-3x15.gtab");
    std::fs::copy(&two, &impostor).unwrap();
    let out = gamedb_ok(&words(
        "verify nim-seed-002-xor --tables {} --json -q",
        &[dir.arg()],
    ));
    let summary = json(&out);
    let report = &summary["statements"][0];
    assert_eq!(report["status"], "PASS", "{out}");
    let used: Vec<&str> = report["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert_eq!(used.len(), 2, "{out}");
    assert_eq!(used[0], format!("{} (reused)", two.display()), "{out}");
    assert!(
        used[1].starts_with("nim-3x15.gtab (solved; not reused: ")
            && used[1].contains(&impostor)
            && used[1].contains("its header says it holds Nim: 2 heaps"),
        "{out}"
    );
}

#[test]
fn a_renamed_table_is_refused_where_its_name_would_pick_it() {
    let dir = TempDir::new("renamed");
    let nine = built(dir.path(), "nim --heaps 9 --max-heap 3", "nim-9x3.gtab");
    let fake = dir.path().join("slide-3x3.gtab");
    std::fs::rename(&nine, &fake).unwrap();
    let pos = "8,6,7,2,5,4,3,0,1";
    for line in [
        "query --rows 3 --cols 3 --tables {} {}",
        "query {} --rows 3 --cols 3 {}",
    ] {
        let o = gamedb(&words(line, &[s(dir.path()), pos]));
        let e = exit2(&o, "renamed table");
        assert!(
            stdout(&o).is_empty(),
            "answered from a Nim table: {}",
            stdout(&o)
        );
        assert!(
            e.contains("slide-3x3.gtab") && e.contains("its header says it holds Nim: 9 heaps"),
            "{e}"
        );
    }
    // verify does not reuse it: it names the file and what it holds, and solves anew.
    let wrong = dir.path().join("nim-3x15.gtab");
    std::fs::copy(&fake, &wrong).unwrap();
    let o = gamedb(&[
        "verify",
        "nim-seed-002-xor",
        "--tables",
        s(dir.path()),
        "-q",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(out.contains("nim-3x15.gtab (solved; not reused:"), "{out}");
    assert!(out.contains("Nim: 9 heaps"), "{out}");
    assert!(!out.contains("(reused)"), "{out}");
    // The folder finds a table by its header under any name, and refuses the misnamed one.
    let right = built(dir.path(), "slide --rows 2 --cols 3", "slide-2x3.gtab");
    std::fs::rename(&right, dir.path().join("puzzle.gtab")).unwrap();
    let tables = TableDir::new(dir.path());
    let spec = Spec::new(SlideSpec::new(2, 3).unwrap());
    let found = tables.find(&spec, ValueKind::Distance).unwrap().unwrap();
    assert!(found.ends_with("puzzle.gtab"), "{found:?}");
    let spec = Spec::new(SlideSpec::new(3, 3).unwrap());
    let e = tables
        .find(&spec, ValueKind::Distance)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("slide-3x3.gtab") && e.contains("Nim: 9 heaps"),
        "{e}"
    );
}
