//! `gamedb build-all`: skipping intact tables, rebuilding damaged ones, surviving interruption.

mod common;

use std::process::Command;
use std::time::Duration;

use common::*;

const CATALOG: &str = "\
# a small catalog
nim --heaps 3 --max-heap 15
nim --heaps 4 --max-heap 31 --max-take 3 --misere   # bounded misère
candy --max-candies 101 --max-take 3 --win odd

nim --heaps 4 --max-heap 20 --grundy
";

#[test]
fn build_all_skips_intact_tables_and_rebuilds_damaged_ones() {
    let (_dir, cat, out) = with_catalog("buildall", CATALOG);
    let args = build_all_args(&cat, &out, &["--jobs", "2"]);

    let o = gamedb(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    for t in [
        "nim-3x15.gtab",
        "nim-4x31-k3-misere.gtab",
        "candy-n101-k3-odd.gtab",
        "nim-4x20-grundy.gtab",
    ] {
        assert!(summary_row(&s, t).ends_with("built"), "{s}");
    }
    // The last line totals the run: the tables, the bytes of their files, the time.
    let files: u64 = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    let total = |s: &str| s.lines().last().unwrap().to_string();
    let want = format!(
        "total: 4 tables (4 built), {files} bytes ({}), in ",
        bytes(files)
    );
    assert!(total(&s).starts_with(&want), "{s}");
    assert!(total(&s).ends_with(" s"), "{s}");

    // Second run: nothing rebuilt.
    let o = gamedb(&args);
    let s = stdout(&o);
    assert!(o.status.success());
    assert_eq!(s.matches("present, skipped").count(), 4, "{s}");
    let want = format!("total: 4 tables (0 built, 4 skipped), {files} bytes (");
    assert!(total(&s).starts_with(&want), "{s}");

    // Flip one payload byte of one table: exactly that one is rebuilt.
    let victim = out.join("nim-4x31-k3-misere.gtab");
    let mut bytes = std::fs::read(&victim).unwrap();
    bytes[4096 + 7] ^= 0x40;
    std::fs::write(&victim, &bytes).unwrap();
    let o = gamedb(&args);
    let s = stdout(&o);
    assert!(o.status.success());
    assert!(
        summary_row(&s, "nim-4x31-k3-misere.gtab").ends_with("rebuilt (was damaged)"),
        "{s}"
    );
    assert_eq!(s.matches("present, skipped").count(), 3, "{s}");
    assert!(stderr(&o).contains("checksum mismatch"));
    assert!(gamedb(&["verify-table", victim.to_str().unwrap()])
        .status
        .success());
}

#[test]
fn build_all_refuses_a_bad_catalog_line_by_number() {
    let (dir, cat, _) = with_catalog(
        "badcat",
        "nim --heaps 2 --max-heap 3\nnim --heaps 2 --max-heap\n",
    );
    let o = gamedb(&words(
        "build-all --catalog {} --out {}",
        &[&cat, dir.arg()],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 2"), "{}", stderr(&o));
    std::fs::write(&cat, "nim --heaps 0 --max-heap 3\n").unwrap();
    let o = gamedb(&words(
        "build-all --catalog {} --out {}",
        &[&cat, dir.arg()],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 1: --heaps 0"), "{}", stderr(&o));
    let o = gamedb(&words(
        "build-all --catalog /nonexistent/catalog --out {}",
        &[dir.path().to_str().unwrap()],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/catalog"));
    let o = gamedb(&words(
        "build-all --jobs 0 --out {}",
        &[dir.path().to_str().unwrap()],
    ));
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn interrupted_build_all_leaves_no_partial_table_and_resumes() {
    // The big one takes a second or more; the small ones are instant.
    let (_dir, cat, out) = with_catalog(
        "interrupt",
        "nim --heaps 2 --max-heap 15\nnim --heaps 6 --max-heap 63\nnim --heaps 3 --max-heap 15\n",
    );
    let args = build_all_args(&cat, &out, &[]);
    for signal in ["INT", "KILL"] {
        let child = Command::new(env!("CARGO_BIN_EXE_gamedb"))
            .args(&args)
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(400));
        Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        let _ = child.wait_with_output();
        // Whatever is under a final name is a complete, valid table.
        for e in std::fs::read_dir(&out).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".gtab") {
                let o = gamedb(&["verify-table", p.to_str().unwrap()]);
                assert!(
                    o.status.success(),
                    "after SIG{signal}: {name}: {}",
                    stderr(&o)
                );
            }
        }
        let _ = std::fs::remove_file(out.join("nim-6x63.gtab"));
    }
    let o = gamedb(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(summary_row(&stdout(&o), "nim-6x63.gtab").ends_with("built"));
    let leftovers = left_over(&out, |n| n.ends_with(".gtab"));
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn build_all_never_overwrites_a_file_holding_another_table() {
    let dir = TempDir::new("foreign");
    let out = dir.path().join("t");
    let nine = built(&out, "nim --heaps 9 --max-heap 3", "nim-9x3.gtab");
    let victim = out.join("nim-3x7.gtab");
    std::fs::rename(&nine, &victim).unwrap();
    let before = std::fs::read(&victim).unwrap();
    let cat = dir.path().join("c.txt");
    std::fs::write(
        &cat,
        "nim --heaps 3 --max-heap 7\nnim --heaps 2 --max-heap 7\n",
    )
    .unwrap();
    let o = gamedb(&["build-all", "--catalog", s(&cat), "--out", s(&out), "-q"]);
    let e = exit2(&o, "foreign table");
    assert!(
        e.contains("catalog line 1") && e.contains("Nim: 9 heaps"),
        "{e}"
    );
    assert!(e.contains("does not overwrite"), "{e}");
    assert!(stdout(&o).contains("FAILED: the file holds another table"));
    assert_eq!(
        std::fs::read(&victim).unwrap(),
        before,
        "the other table was overwritten"
    );
    assert!(out.join("nim-2x7.gtab").exists(), "the other lines go on");
}
