//! `gamedb enumerate`: the partitioned breadth-first engine against the byte tables (every
//! board up to 3×3, position by position, the 2-bit descent included: the same answers, JSON
//! byte for byte), published counts, identical bytes at 1 and 2 threads, the sparse store,
//! checkpoints (resume after SIGKILL, a foreign or damaged checkpoint refused), the memory
//! check, queries, `info` and the C ABI on mod3 tables, and, with the `mpi` feature, 2, 4 and
//! 8 MPI processes over loopback (the same counts and table bytes as one) and the exchange
//! bytes each process reports per level. (The Python package answers mod3 tables through the same lookup: `python_package.rs`.)

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{gamedb, gamedb_ok, json, published_slide_counts, refused, table, words, TempDir};
use gamedb::games::slide::SlideSpec;
use gamedb::{Spec, Table, ValueKind};

const SMALL: [(u32, u32); 6] = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)];

/// Runs `gamedb enumerate slide` with `extra` arguments into `out`; returns its JSON summary.
fn enumerate(rows: u32, cols: u32, out: &Path, extra: &str) -> serde_json::Value {
    let line = format!(
        "enumerate slide --rows {rows} --cols {cols} --json --quiet --out {} {extra}",
        out.display()
    );
    let args: Vec<&str> = line.split_whitespace().collect();
    json(&gamedb_ok(&args))
}

/// The `counts` list of a JSON summary.
fn counts(summary: &serde_json::Value) -> Vec<u64> {
    serde_json::from_value(summary["counts"].clone()).expect("counts")
}

fn mod3_path(out: &Path, rows: u32, cols: u32) -> PathBuf {
    out.join(format!("slide-{rows}x{cols}-mod3.gtab"))
}

fn byte_table(rows: u32, cols: u32) -> Table {
    table(
        &Spec::new(SlideSpec::new(rows, cols).unwrap()),
        ValueKind::Distance,
    )
}

#[test]
fn engine_agrees_with_byte_tables_position_by_position() {
    let dir = TempDir::new("enum-bytes");
    let published = published_slide_counts();
    for (rows, cols) in SMALL {
        let summary = enumerate(rows, cols, dir.path(), "--table");
        let bytes = byte_table(rows, cols);
        assert_eq!(
            counts(&summary),
            bytes.distance_census(0).counts,
            "{rows}x{cols}"
        );
        if let Some(p) = published.get(&(rows as usize, cols as usize)) {
            assert_eq!(&counts(&summary), p, "{rows}x{cols}: published counts");
        }
        let t = Table::open(mod3_path(dir.path(), rows, cols)).unwrap();
        t.verify().unwrap();
        let rules = t.rules();
        for i in 0..t.len() {
            let d = bytes.raw(i);
            assert_eq!(t.raw(i), d % 3 + 1, "{rows}x{cols} entry {i}");
            // The descent recovers the exact distance ...
            assert_eq!(t.value(i).unwrap(), d, "{rows}x{cols} entry {i}");
            // ... and the same answer, optimal moves and whole path, JSON byte for byte.
            if i % 5 == 0 {
                let text = rules.format(&rules.unrank(i));
                let (a, b) = (t.query_with(&text, true), bytes.query_with(&text, true));
                assert_eq!(
                    a.unwrap().to_json(),
                    b.unwrap().to_json(),
                    "{rows}x{cols} {text}"
                );
            }
        }
    }
}

#[test]
fn queries_info_and_the_c_abi_read_mod3_tables() {
    let dir = TempDir::new("enum-query");
    enumerate(3, 3, dir.path(), "--table");
    gamedb_ok(&[
        "build",
        "slide",
        "--rows",
        "3",
        "--cols",
        "3",
        "--out",
        dir.arg(),
        "-q",
    ]);
    let mod3 = mod3_path(dir.path(), 3, 3);
    let bytes = dir.path().join("slide-3x3.gtab");
    // The same lines as the byte table's, text and JSON, with and without the path; an
    // unsolvable arrangement and a bad line too.
    let positions = "8,6,7,2,5,4,3,0,1 1,2,3,4,5,6,7,8,0 0,1,2,3,4,5,6,7,8 1,2,3,4,5,6,8,7,0";
    for flags in ["", "--json", "--path", "--path --json"] {
        let line = |t: &Path| {
            let line = format!("query {} {positions} {flags}", t.display());
            common::stdout(&gamedb(&line.split_whitespace().collect::<Vec<_>>()))
        };
        assert_eq!(line(&mod3), line(&bytes), "query {flags}");
    }
    let answer = json(
        gamedb_ok(&[
            "query",
            mod3.to_str().unwrap(),
            "8,6,7,2,5,4,3,0,1",
            "--json",
        ])
        .lines()
        .next()
        .unwrap(),
    );
    assert_eq!(answer["distance"], 31);
    // info: the residues, no per-distance counts.
    let info = json(&gamedb_ok(&["info", mod3.to_str().unwrap(), "--json"]));
    assert_eq!(info["encoding"], "mod3");
    assert_eq!(
        info["distance_residues"],
        serde_json::json!([60641, 60195, 60604])
    );
    assert_eq!(info["distance_counts"], serde_json::json!([]));
    assert_eq!(info["unreached"], 0);
    let text = gamedb_ok(&["info", mod3.to_str().unwrap()]);
    assert!(
        text.contains("distances mod 3: ≡ 0: 60641, ≡ 1: 60195, ≡ 2: 60604"),
        "{text}"
    );
    // The C ABI answers exact distances.
    let c = std::ffi::CString::new(mod3.to_str().unwrap()).unwrap();
    let pos = std::ffi::CString::new("8,6,7,2,5,4,3,0,1").unwrap();
    let goal = std::ffi::CString::new("1,2,3,4,5,6,7,8,0").unwrap();
    // SAFETY: valid NUL-terminated strings; the handle is closed once.
    unsafe {
        let t = common::c_abi::gamedb_open(c.as_ptr(), 0);
        assert!(!t.is_null());
        assert_eq!(common::c_abi::gamedb_value(t, pos.as_ptr()), 31);
        assert_eq!(common::c_abi::gamedb_value(t, goal.as_ptr()), 0);
        common::c_abi::gamedb_close(t);
    }
    // A damaged entry (the goal's neighbour made unreached) is reported, not answered.
    let mut raw = std::fs::read(&mod3).unwrap();
    let t = Table::open(&mod3).unwrap();
    let i = t.index_of(&[1, 2, 3, 4, 5, 6, 7, 0, 8]).unwrap();
    raw[4096 + i as usize / 4] &= !(3 << (2 * (i % 4)));
    let damaged = dir.path().join("damaged.gtab");
    std::fs::write(&damaged, &raw).unwrap();
    let t = Table::open(&damaged).unwrap();
    let err = t.query("1,2,3,4,5,6,7,0,8").unwrap_err().to_string();
    assert!(
        err.contains("damaged.gtab") && err.contains("marked unreached"),
        "{err}"
    );
}

#[test]
fn one_and_two_threads_give_identical_bytes_and_the_sparse_store_the_same_counts() {
    let (a, b) = (TempDir::new("enum-t1"), TempDir::new("enum-t2"));
    let one = enumerate(2, 5, a.path(), "--table --threads 1");
    let two = enumerate(2, 5, b.path(), "--table --threads 2");
    assert_eq!(counts(&one), counts(&two));
    let read = |d: &Path| std::fs::read(mod3_path(d, 2, 5)).unwrap();
    assert!(read(a.path()) == read(b.path()), "tables differ");
    for threads in ["1", "2"] {
        let s = enumerate(2, 5, a.path(), &format!("--sparse --threads {threads}"));
        assert_eq!(counts(&s), counts(&one));
        assert_eq!(s["store"], "sparse");
    }
    // The 4×4 board goes to the sparse store by itself; its first levels are published.
    let s = enumerate(4, 4, a.path(), "--max-depth 16");
    assert_eq!(s["store"], "sparse", "{s}");
    assert_eq!(counts(&s), published_slide_counts()[&(4, 4)][..17]);
}

/// Starts an enumeration that checkpoints after every level and sleeps between levels, kills
/// it with SIGKILL once a checkpoint exists plus a varying delay, and returns.
fn start_and_kill(rows: u32, cols: u32, out: &Path, extra: &str, wait_ms: u64) {
    let line = format!(
        "enumerate slide --rows {rows} --cols {cols} --quiet --out {} --checkpoint-every 0 \
         --level-delay-ms 15 {extra}",
        out.display()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args(line.split_whitespace())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let manifest = out.join(format!("slide-{rows}x{cols}.enumerate/MANIFEST"));
    for _ in 0..2000 {
        if manifest.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(Duration::from_millis(wait_ms));
    // SAFETY: plain kill(2) of the child we started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGKILL);
    }
    child.wait().unwrap();
}

#[test]
fn a_run_killed_at_any_moment_resumes_to_the_same_counts_and_bytes() {
    let clean = TempDir::new("enum-clean");
    let want = counts(&enumerate(3, 3, clean.path(), "--table"));
    let want_bytes = std::fs::read(mod3_path(clean.path(), 3, 3)).unwrap();
    let mut rng = common::Rng(0x5eed);
    let mut resumed = 0;
    for round in 0..6 {
        let dir = TempDir::new("enum-kill");
        let wait = rng.below(200);
        let extra = if round % 2 == 1 {
            "--sparse"
        } else {
            "--table"
        };
        start_and_kill(3, 3, dir.path(), extra, wait);
        let ckpt = dir.path().join("slide-3x3.enumerate");
        if !ckpt.join("MANIFEST").exists() {
            // It finished before the kill; nothing to resume.
            continue;
        }
        // Without --resume an existing checkpoint is refused, not overwritten.
        let line = format!(
            "enumerate slide --rows 3 --cols 3 --quiet --out {} {extra}",
            dir.arg()
        );
        refused(
            "fresh run over a checkpoint",
            &line.split_whitespace().collect::<Vec<_>>(),
            &["--resume continues it"],
        );
        let got = enumerate(3, 3, dir.path(), &format!("--resume {extra}"));
        assert!(got["resumed_at"].is_u64(), "{got}");
        assert_eq!(counts(&got), want, "wait {wait} ms");
        if extra == "--table" {
            let bytes = std::fs::read(mod3_path(dir.path(), 3, 3)).unwrap();
            assert!(
                bytes == want_bytes,
                "resumed table differs (wait {wait} ms)"
            );
        }
        assert!(
            !ckpt.exists(),
            "the checkpoint is removed after a finished run"
        );
        resumed += 1;
    }
    assert!(resumed >= 3, "only {resumed} of 6 runs were killed mid-way");
}

#[test]
fn foreign_and_damaged_checkpoints_are_refused() {
    let dir = TempDir::new("enum-foreign");
    start_and_kill(3, 3, dir.path(), "--table", 30);
    let ckpt = dir.path().join("slide-3x3.enumerate");
    assert!(ckpt.join("MANIFEST").exists());
    let resume = |board: &str, extra: &str, needles: &[&str]| {
        let (r, c) = board.split_once('x').unwrap();
        let line = format!(
            "enumerate slide --rows {r} --cols {c} --resume --quiet --out {} {extra}",
            dir.arg()
        );
        refused(board, &line.split_whitespace().collect::<Vec<_>>(), needles);
    };
    // The 3×3 checkpoint offered to a 2×4 run.
    let other = dir.path().join("slide-2x4.enumerate");
    std::fs::create_dir_all(&other).unwrap();
    for e in std::fs::read_dir(&ckpt).unwrap().flatten() {
        std::fs::copy(e.path(), other.join(e.file_name())).unwrap();
    }
    resume(
        "2x4",
        "--table",
        &["a checkpoint of slide 3x3, not of slide 2x4"],
    );
    // The other store.
    resume("3x3", "--sparse", &["the dense store"]);
    // Other stripes (the test hook): the parts deal positions otherwise.
    resume(
        "3x3",
        "--table --stripe 4096",
        &["written with the board's own stripes", "stripes of"],
    );
    // A damaged part: the one the manifest names.
    let manifest = std::fs::read_to_string(ckpt.join("MANIFEST")).unwrap();
    let depth = manifest
        .lines()
        .find_map(|l| l.strip_prefix("depth "))
        .unwrap();
    let part = ckpt.join(format!("part-0-of-1.level-{depth}"));
    let mut bytes = std::fs::read(&part).unwrap();
    let k = bytes.len() / 2;
    bytes[k] ^= 0x40;
    std::fs::write(&part, &bytes).unwrap();
    resume("3x3", "--table", &["damaged", "checksum", "part-0-of-1"]);
    // No checkpoint at all.
    let empty = TempDir::new("enum-none");
    refused(
        "no checkpoint",
        &[
            "enumerate",
            "slide",
            "--rows",
            "2",
            "--cols",
            "3",
            "--resume",
            "--out",
            empty.arg(),
        ],
        &["no checkpoint"],
    );
}

#[test]
fn memory_is_checked_before_anything_is_allocated() {
    let dir = TempDir::new("enum-memory");
    // A second run into a folder while another holds the board's lock is refused up front.
    let busy = TempDir::new("enum-busy");
    let _held = gamedb::lock::TableLock::try_take(busy.path(), "slide-3x3-mod3.gtab")
        .unwrap()
        .unwrap();
    let (out, locked) = (dir.arg(), busy.arg());
    for (case, line, folder, needles) in [
        (
            "3x4 in 10 MiB",
            "enumerate slide --rows 3 --cols 4 --table --memory 10M --out {}",
            out,
            &[
                "not enough memory",
                "per process",
                "10.0 MiB is available",
                "mpirun -np",
            ][..],
        ),
        // The 2×7 table needs more than a test run is given; it is refused up front.
        (
            "2x7 in 1 GiB",
            "enumerate slide --rows 2 --cols 7 --table --memory 1G --out {}",
            out,
            &[
                "not enough memory",
                "GiB per process",
                "1.0 GiB is available",
            ],
        ),
        // Bad sizes and boards are refused with what is accepted.
        (
            "4x5",
            "enumerate slide --rows 4 --cols 5 --out {}",
            out,
            &["at most 16 cells"],
        ),
        (
            "memory lots",
            "enumerate slide --rows 3 --cols 3 --memory lots --out {}",
            out,
            &["expected bytes"],
        ),
        (
            "locked board",
            "enumerate slide --rows 3 --cols 3 --table --out {}",
            locked,
            &["another gamedb is enumerating", "slide-3x3-mod3.gtab"],
        ),
        // A byte table past 12 cells is refused by `build`, pointing at `enumerate`.
        (
            "build 2x7",
            "build slide --rows 2 --cols 7 --out {}",
            out,
            &["at most 12 cells"],
        ),
    ] {
        refused(case, &words(line, &[folder]), needles);
    }
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}

/// Runs `gamedb enumerate slide` as `np` MPI processes over loopback (oversubscribed: the
/// machine may have fewer cores); returns process 0's JSON summary.
#[cfg(feature = "mpi")]
fn mpirun(np: usize, out: &Path, rows: u32, cols: u32, extra: &str) -> serde_json::Value {
    let line = format!(
        "-np {np} --oversubscribe --allow-run-as-root {} enumerate slide --rows {rows} \
         --cols {cols} --json --quiet --out {} {extra}",
        env!("CARGO_BIN_EXE_gamedb"),
        out.display()
    );
    let o = Command::new("mpirun")
        .args(line.split_whitespace())
        .env("OMPI_MCA_btl_tcp_if_include", "lo")
        .output()
        .expect("mpirun (openmpi-bin) is installed");
    assert!(
        o.status.success(),
        "mpirun -np {np} {rows}x{cols} {extra}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let got = json(&String::from_utf8_lossy(&o.stdout));
    assert_eq!(got["processes"], np, "{got}");
    got
}

/// Two MPI processes over loopback give the single process's counts and table bytes, for
/// both stores; small exchange rounds make the exchange take many rounds.
#[cfg(feature = "mpi")]
#[test]
fn two_mpi_processes_agree_with_one() {
    let single = TempDir::new("enum-mpi-1");
    let want = enumerate(2, 5, single.path(), "--table");
    let want_bytes = std::fs::read(mod3_path(single.path(), 2, 5)).unwrap();
    let want_sparse = counts(&enumerate(3, 3, single.path(), "--sparse"));
    let two = TempDir::new("enum-mpi-2");
    let small = "--threads 1 --round-entries 5000";
    let got = mpirun(2, two.path(), 2, 5, &format!("--table {small}"));
    assert_eq!(counts(&got), counts(&want));
    let bytes = std::fs::read(mod3_path(two.path(), 2, 5)).unwrap();
    assert!(bytes == want_bytes, "tables of 1 and 2 processes differ");
    let got = mpirun(2, two.path(), 3, 3, &format!("--sparse {small}"));
    assert_eq!(counts(&got), want_sparse);
}

/// Four and eight MPI processes over loopback give the single process's counts and table
/// bytes. Small stripes (`--stripe`, a test hook) deal the small boards to every process, so
/// each process owns part of every level and sends to all the others; the default stripes
/// leave most of the eight processes of a 2×5 or 2×4 run without a single position, which
/// must work too. The sparse store runs the 3×3 complete and the 4×4 to depth 18.
#[cfg(feature = "mpi")]
#[test]
fn four_and_eight_mpi_processes_agree_with_one() {
    let single = TempDir::new("enum-mpi-one");
    let boards = [(2, 4), (3, 3), (2, 5)];
    let mut want = Vec::new();
    for (rows, cols) in boards {
        let s = enumerate(rows, cols, single.path(), "--table");
        let bytes = std::fs::read(mod3_path(single.path(), rows, cols)).unwrap();
        want.push((counts(&s), bytes));
    }
    let sparse_3x3 = counts(&enumerate(3, 3, single.path(), "--sparse"));
    let sparse_4x4 = counts(&enumerate(4, 4, single.path(), "--max-depth 18"));
    assert_eq!(sparse_4x4, published_slide_counts()[&(4, 4)][..19]);
    for np in [4, 8] {
        let dir = TempDir::new(&format!("enum-mpi-{np}"));
        for ((rows, cols), (want_counts, want_bytes)) in boards.iter().zip(&want) {
            for extra in ["--stripe 4096 --round-entries 5000", ""] {
                let case = format!("{np} processes, {rows}x{cols} {extra}");
                let got = mpirun(
                    np,
                    dir.path(),
                    *rows,
                    *cols,
                    &format!("--table --threads 1 {extra}"),
                );
                assert_eq!(&counts(&got), want_counts, "{case}");
                let bytes = std::fs::read(mod3_path(dir.path(), *rows, *cols)).unwrap();
                assert!(&bytes == want_bytes, "{case}: the table differs");
            }
        }
        let got = mpirun(np, dir.path(), 3, 3, "--sparse --threads 1 --stripe 4096");
        assert_eq!(counts(&got), sparse_3x3, "{np} processes, sparse 3x3");
        assert_eq!(got["store"], "sparse");
        let got = mpirun(np, dir.path(), 4, 4, "--max-depth 18 --threads 1");
        assert_eq!(counts(&got), sparse_4x4, "{np} processes, 4x4 to depth 18");
    }
}

/// `level_sent_bytes` / `level_received_bytes` of the JSON summary, checked: one list per
/// level of `level_seconds`, one entry per process, whole 8-byte entries, and as many bytes
/// received as sent over the processes in every level. Returns the sent lists.
fn traffic(summary: &serde_json::Value) -> Vec<Vec<u64>> {
    let get = |key: &str| -> Vec<Vec<u64>> {
        serde_json::from_value(summary[key].clone()).unwrap_or_else(|e| panic!("{key}: {e}"))
    };
    let (sent, received) = (get("level_sent_bytes"), get("level_received_bytes"));
    let levels = summary["level_seconds"]
        .as_array()
        .expect("level_seconds")
        .len();
    let procs = summary["processes"].as_u64().expect("processes") as usize;
    assert_eq!(sent.len(), levels, "{summary}");
    assert_eq!(received.len(), levels, "{summary}");
    for (d, (s, r)) in sent.iter().zip(&received).enumerate() {
        assert_eq!((s.len(), r.len()), (procs, procs), "level {d}");
        assert!(
            s.iter().chain(r).all(|b| b % 8 == 0),
            "level {d}: {s:?} {r:?}"
        );
        assert_eq!(
            s.iter().sum::<u64>(),
            r.iter().sum::<u64>(),
            "level {d}: sent {s:?}, received {r:?}"
        );
    }
    sent
}

#[test]
fn one_process_reports_no_exchange_bytes() {
    let dir = TempDir::new("enum-bytes-1");
    for extra in ["--table", "--sparse"] {
        let s = enumerate(2, 4, dir.path(), extra);
        let sent = traffic(&s);
        assert!(!sent.is_empty());
        assert!(sent.iter().all(|l| l == &[0]), "{extra}: {sent:?}");
    }
}

/// The bytes each process sends depend on the board and the process count only: the same at
/// 1 and 2 threads and whatever the exchange rounds, for both stores; with several
/// processes they are not zero.
#[cfg(feature = "mpi")]
#[test]
fn mpi_processes_report_the_bytes_they_exchanged() {
    let dir = TempDir::new("enum-bytes-mpi");
    for (rows, cols, extra) in [(2, 5, "--table --stripe 4096"), (4, 4, "--max-depth 16")] {
        let one = traffic(&mpirun(
            4,
            dir.path(),
            rows,
            cols,
            &format!("{extra} --threads 1 --round-entries 5000"),
        ));
        let two = traffic(&mpirun(
            4,
            dir.path(),
            rows,
            cols,
            &format!("{extra} --threads 2"),
        ));
        assert_eq!(one, two, "{rows}x{cols}: 1 and 2 threads");
        let total: u64 = one.iter().flatten().sum();
        assert!(total > 0, "{rows}x{cols}: nothing was sent");
        // Every process of the 2×5 run (small stripes) owns positions and sends some.
        if rows == 2 {
            let by_process: Vec<u64> = (0..4).map(|p| one.iter().map(|l| l[p]).sum()).collect();
            assert!(by_process.iter().all(|&b| b > 0), "{by_process:?}");
        }
    }
}
