//! One builder per table: two `build-all` runs into one folder build each table once (the
//! second finds it built, or locked and built by the other); a `build` waits for a table's
//! lock, and `build-all` goes on with the other tables and skips what the lock's holder built.

mod common;

use std::time::{Duration, Instant};

use common::*;
use gamedb::build::{build_locked, Options};
use gamedb::games::nim::NimSpec;
use gamedb::lock::TableLock;
use gamedb::{Spec, ValueKind};

fn nim(s: u32, h: u32) -> Spec {
    Spec::new(NimSpec::new(s, h, None, false).unwrap())
}

const SHARED: &str = "\
nim --heaps 6 --max-heap 40
chomp --rows 13 --cols 13
nim --heaps 5 --max-heap 60
chomp --rows 11 --cols 11 --grundy
slide --rows 2 --cols 5
nim --heaps 3 --max-heap 15
";

#[test]
fn two_build_alls_into_one_folder_build_each_table_once() {
    let (_dir, cat, out) = with_catalog("twoall", SHARED);
    let args = build_all_args(&cat, &out, &["--threads", "1"]);
    let run = || spawn(&args);
    // The second run starts once the first holds a table's lock, so that it meets the first at
    // work however slowly this machine starts processes.
    let a = run();
    let deadline = Instant::now() + Duration::from_secs(30);
    let locked = || {
        std::fs::read_dir(&out).is_ok_and(|d| {
            d.flatten()
                .any(|e| e.file_name().to_string_lossy().ends_with(".lock"))
        })
    };
    while !locked() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    let b = run();
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    assert!(
        a.status.success() && b.status.success(),
        "{}{}",
        stderr(&a),
        stderr(&b)
    );
    let names: Vec<String> = gamedb::cli::catalog::parse(SHARED, "c")
        .unwrap()
        .iter()
        .map(|e| e.spec.file_name(e.kind))
        .collect();
    for name in &names {
        let (sa, sb) = (
            summary_row(&stdout(&a), name),
            summary_row(&stdout(&b), name),
        );
        let builds = [&sa, &sb].iter().filter(|l| l.ends_with("  built")).count();
        assert_eq!(builds, 1, "{name} built {builds} times:\n{sa}\n{sb}");
        // The other run found it built, or found it being built and came back to it.
        assert!(
            [&sa, &sb]
                .iter()
                .any(|l| l.ends_with("present, skipped")
                    || l.contains("built by another gamedb run")),
            "{sa}\n{sb}"
        );
        let o = gamedb(&["verify-table", s(&out.join(name))]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    // The runs met at work: one found a table locked by the other and left it for later
    // (then found it built, "present, skipped") or waited for it, instead of building it too.
    // Which table they meet at depends on how fast this machine starts processes.
    let both = stdout(&a) + &stdout(&b) + &stderr(&a) + &stderr(&b);
    assert!(
        both.contains("another gamedb is building this table")
            || both.contains("built by another gamedb run"),
        "{both}"
    );
    let left = left_over(&out, |n| n.ends_with(".gtab") && !n.starts_with('.'));
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_build_waits_for_the_lock_and_build_all_skips_what_the_holder_built() {
    let (_dir, cat, out) = with_catalog(
        "lockwait",
        "nim --heaps 4 --max-heap 20\nnim --heaps 2 --max-heap 9\n",
    );
    std::fs::create_dir_all(&out).unwrap();
    let spec = nim(4, 20);
    let name = spec.file_name(ValueKind::Outcome);
    let lock = TableLock::try_take(&out, &name).unwrap().unwrap();
    let all = spawn(&build_all_args(&cat, &out, &[]));
    let one = spawn(&words(
        "build nim --heaps 4 --max-heap 20 --out {} -q",
        &[s(&out)],
    ));
    // Both wait for us: the other table is built meanwhile, ours is not.
    let deadline = Instant::now() + Duration::from_secs(20);
    while !out.join("nim-2x9.gtab").exists() {
        assert!(
            Instant::now() < deadline,
            "build-all did not go on with the other table"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(!out.join(&name).exists(), "built while we held the lock");
    // We build it under our lock, then let go.
    build_locked(
        &spec,
        ValueKind::Outcome,
        &out,
        &Options::default(),
        &lock,
        &(),
    )
    .unwrap();
    drop(lock);
    let all = all.wait_with_output().unwrap();
    let one = one.wait_with_output().unwrap();
    assert!(all.status.success(), "{}", stderr(&all));
    let e = stderr(&all);
    assert!(
        e.contains("another gamedb is building this table; coming back to it"),
        "{e}"
    );
    assert!(e.contains("waiting for the other gamedb"), "{e}");
    let row = summary_row(&stdout(&all), &name);
    assert!(
        row.ends_with("built by another gamedb run (waited for it), skipped"),
        "{row}"
    );
    // `build` was asked to build: it waited, then built.
    assert!(one.status.success(), "{}", stderr(&one));
    assert!(
        stderr(&one).contains("waiting for it to finish"),
        "{}",
        stderr(&one)
    );
    assert!(stdout(&one).starts_with("wrote"));
    let left = left_over(&out, |n| !n.starts_with('.'));
    assert!(left.is_empty(), "{left:?}");
}
