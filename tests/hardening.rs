//! Regression tests of issue 13: tables checked by header, streams that survive bad bytes,
//! absurd thread counts, resources checked before solving, one builder per table, and the
//! small message problems.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;
use gamedb::build::{build_locked, Options};
use gamedb::games::chomp::ChompSpec;
use gamedb::games::nim::NimSpec;
use gamedb::games::slide::SlideSpec;
use gamedb::lock::TableLock;
use gamedb::{Spec, TableDir, ValueKind};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn nim(s: u32, h: u32) -> Spec {
    Spec::new(NimSpec::new(s, h, None, false).unwrap())
}

/// Builds a table with the CLI into `dir` (`what`: the words after `build`); returns its path.
fn built(dir: &Path, what: &str, name: &str) -> PathBuf {
    gamedb_ok(&words(&format!("build {what} --out {{}} -q"), &[s(dir)]));
    dir.join(name)
}

/// The spec and value kind of the words after `build`, as a catalog line reads them.
fn entry(what: &str) -> (Spec, ValueKind) {
    let e = gamedb::catalog::parse(what, "test").unwrap().remove(0);
    (e.spec, e.kind)
}

/// Starts gamedb with its output piped, for tests that run several at once.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Asserts a refusal came fast enough to mean nothing was solved first.
fn quick(started: Instant, limit: Duration, what: &str) {
    assert!(
        started.elapsed() < limit,
        "{what} took {:?}",
        started.elapsed()
    );
}

fn exit2(o: &Output, what: &str) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{what}: {e}");
    assert!(!e.contains("panicked"), "{what}: {e}");
    e
}

// ---- defect 1: a table is identified by its header, never by its file name -----------------

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

// ---- defect 2: one undecodable byte does not kill a stream ---------------------------------

#[test]
fn a_line_that_is_not_utf8_gets_an_error_and_the_stream_goes_on() {
    // The JSON stream is checked in tests/stream.rs (queries_survive_bad_bytes_and_huge_lines);
    // here text mode, and `solve -` (unsolvable arrangements need no tables).
    let dir = TempDir::new("utf8");
    let t = built(dir.path(), "nim --heaps 3 --max-heap 15", "nim-3x15.gtab");
    let o = gamedb_stdin(&["query", s(&t), "-"], b"\xc3\x28 bad\n1,2,3\n");
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
    let o = gamedb_stdin(
        &words("solve --rows 2 --cols 2 --tables {} -", &[s(dir.path())]),
        b"2,1,3,0\n\xfe\xff\n2,1,3,0\n",
    );
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 3, "{out}{}", stderr(&o));
    assert!(out.lines().nth(1).unwrap().contains("not UTF-8"), "{out}");
    assert!(out.lines().nth(2).unwrap().contains("unsolvable"), "{out}");
}

#[test]
fn a_huge_bad_line_is_echoed_once_and_short() {
    let dir = TempDir::new("hugeline");
    let t = built(dir.path(), "nim --heaps 3 --max-heap 15", "nim-3x15.gtab");
    // 10 MB of heaps, 10 MB of garbage, 10 MB of non-UTF-8 bytes, 10 MB of zeros.
    let mut input = Vec::new();
    for line in [
        "1,".repeat(5_000_000),
        "x".repeat(10_000_000),
        "\u{fffd}".repeat(3_000_000),
        "0,".repeat(5_000_000) + "0",
    ] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(&[0xff; 1000]);
    input.extend_from_slice(b"\n1,2,3\n");
    for json in [true, false] {
        let mut args = vec!["query", s(&t), "-"];
        if json {
            args.push("--json");
        }
        let o = gamedb_stdin(&args, &input);
        let out = stdout(&o);
        assert_eq!(out.lines().count(), 6, "{}", &out[..out.len().min(3000)]);
        for l in out.lines() {
            assert!(
                l.len() < 1500,
                "an answer of {} bytes: {}…",
                l.len(),
                &l[..300]
            );
        }
        assert!(
            out.contains("(10000000 bytes)"),
            "{}",
            &out[..out.len().min(3000)]
        );
        assert!(out.lines().last().unwrap().contains("1,2,3"));
    }
}

// ---- defect 3: absurd thread counts ---------------------------------------------------------

#[test]
fn absurd_thread_counts_are_clamped_with_a_note_and_zero_is_refused() {
    let dir = TempDir::new("threads");
    let started = Instant::now();
    let o = gamedb(&words(
        "build nim --heaps 3 --max-heap 7 --threads 100000 --out {} -q",
        &[s(dir.path())],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    quick(started, Duration::from_secs(10), "--threads 100000");
    let e = stderr(&o);
    assert!(
        e.contains("--threads 100000: using") && e.contains("per core"),
        "{e}"
    );
    let big = std::fs::read(dir.path().join("nim-3x7.gtab")).unwrap();
    let one = dir.path().join("one");
    gamedb(&words(
        "build nim --heaps 3 --max-heap 7 --threads 1 --out {} -q",
        &[s(&one)],
    ));
    assert_eq!(std::fs::read(one.join("nim-3x7.gtab")).unwrap(), big);
    for line in [
        "build nim --heaps 3 --max-heap 7 --threads 0",
        "build-all --threads 0 --catalog /dev/null",
    ] {
        let e = exit2(&gamedb(&words(line, &[])), "--threads 0");
        assert!(e.contains("--threads 0: expected at least 1"), "{e}");
    }
}

// ---- defect 4: resources checked before solving ---------------------------------------------

#[test]
fn builds_that_do_not_fit_in_memory_are_refused_before_solving() {
    let dir = TempDir::new("memory");
    for what in [
        // 75 billion positions: 8.8 GiB of bits.
        "chomp --rows 10 --cols 50",
        "chomp --rows 16 --cols 16 --grundy",
        "slide --rows 3 --cols 4",
        "nim --heaps 6 --max-heap 63",
        "pdb --rows 4 --cols 4 --pattern 1,2,3,4,5,6,7",
        "wythoff --max-heap 20000",
        "candy --max-candies 200000001 --max-take 3",
    ] {
        let (spec, kind) = entry(what);
        let needs = gamedb::build::needs(&spec, kind);
        let line = format!("build {what} --out {{}} --memory 8M");
        let started = Instant::now();
        let e = exit2(&gamedb(&words(&line, &[s(dir.path())])), &line);
        quick(started, Duration::from_secs(2), &line);
        let want = format!("{}: needs {} of memory", needs.what, bytes(needs.memory));
        assert!(e.contains(&want), "{line}: {e}");
        assert!(
            e.contains("the --memory budget allows 8.0 MiB") && e.contains("nothing was solved"),
            "{e}"
        );
    }
    // The 10x50 box of the issue: its bits alone are 8.8 GiB.
    let e = exit2(
        &gamedb(&words(
            "build chomp --rows 10 --cols 50 --memory 8G --out {}",
            &[s(dir.path())],
        )),
        "10x50",
    );
    assert!(e.contains("8.8 GiB for the table"), "{e}");
    let left = left_over(dir.path(), |_| false);
    assert!(left.is_empty(), "{left:?}");
    let e = exit2(
        &gamedb(&words(
            "build candy --max-candies 9 --max-take 2 --memory lots",
            &[],
        )),
        "bad size",
    );
    assert!(e.contains("'lots'") && e.contains("512M"), "{e}");
}

/// Runs gamedb with `args` and returns its output and its peak resident memory in bytes
/// (from `wait4`, for this child alone).
fn peak_rss(args: &[&str]) -> (Output, u64) {
    let child = spawn(args);
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: wait4 fills the status and the zeroed rusage we pass, for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let out = std::thread::spawn(move || {
        let mut child = child;
        let mut o = Vec::new();
        let mut e = Vec::new();
        use std::io::Read;
        child.stdout.take().unwrap().read_to_end(&mut o).unwrap();
        child.stderr.take().unwrap().read_to_end(&mut e).unwrap();
        (o, e, child)
    });
    let (o, e, child) = out.join().unwrap();
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
    std::mem::forget(child); // already reaped
    use std::os::unix::process::ExitStatusExt;
    let output = Output {
        status: std::process::ExitStatus::from_raw(status),
        stdout: o,
        stderr: e,
    };
    (output, usage.ru_maxrss as u64 * 1024)
}

/// The memory a build states it needs covers what it allocates: a build of every game (and of
/// each solver), its peak resident memory measured, is at most the need plus the process's
/// own base (measured on a tiny build); and the file is the size it said.
#[test]
fn every_build_fits_in_the_memory_it_says_it_needs() {
    let dir = TempDir::new("fits");
    let out = s(dir.path());
    let (o, base) = peak_rss(&words(
        "build nim --heaps 2 --max-heap 3 --out {} -q --threads 2",
        &[out],
    ));
    assert!(o.status.success());
    for what in [
        "chomp --rows 13 --cols 13",
        "chomp --rows 11 --cols 11 --grundy",
        // A tall box (solved through its transpose: two tables at the end), a box of more
        // than 63 columns (runs of the last row) and a non-square Grundy box (triangles).
        "chomp --rows 16 --cols 12",
        "chomp --rows 4 --cols 120",
        "chomp --rows 9 --cols 14 --grundy",
        "slide --rows 2 --cols 5",
        "nim --heaps 6 --max-heap 40",
        "nim --heaps 5 --max-heap 40 --grundy",
        // Four million levels of two positions: the solver asks for levels one at a time, so
        // the bits are all it holds (it once listed them, 16 bytes a level, most of its memory).
        "candy --max-candies 4000001 --max-take 3",
        "wythoff --max-heap 400 --grundy",
        "pdb --rows 3 --cols 4 --pattern 1,2,3,4,5",
    ] {
        let (spec, kind) = entry(what);
        let needs = gamedb::build::needs(&spec, kind);
        assert_eq!(needs.what, spec.file_name(kind));
        let line = format!("build {what} --out {{}} -q --threads 2");
        let (o, peak) = peak_rss(&words(&line, &[out]));
        assert!(o.status.success(), "{line}: {}", stderr(&o));
        // A little slack for the allocator's rounding and per-thread buffers.
        let allowed = needs.memory + base + (2 << 20);
        assert!(
            peak <= allowed,
            "{what}: peak {} > needs {} + base {}",
            bytes(peak),
            bytes(needs.memory),
            bytes(base)
        );
        let file = std::fs::metadata(dir.path().join(spec.file_name(kind)))
            .unwrap()
            .len();
        assert!(file <= needs.file, "{what}: file {file} > {}", needs.file);
        if kind != ValueKind::Grundy {
            assert_eq!(file, needs.file, "{what}");
        }
    }
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

/// A folder that refuses writes: a folder without write permission (a user), a read-only
/// tmpfs (root, when it may mount), or else a read-only mount already there (root in a
/// container: /sys and /proc/sys are mounted read-only). Unmounted on drop when mounted here.
struct ReadOnly {
    path: PathBuf,
    mounted: bool,
}

impl ReadOnly {
    fn new(parent: &Path) -> ReadOnly {
        let path = parent.join("ro");
        std::fs::create_dir_all(&path).unwrap();
        let refuses = |p: &Path| {
            let probe = p.join(".gamedb-test-probe");
            let refused = std::fs::write(&probe, b"x").is_err();
            let _ = std::fs::remove_file(&probe);
            refused
        };
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o555)).unwrap();
        }
        if refuses(&path) {
            return ReadOnly {
                path,
                mounted: false,
            };
        }
        // Root writes anyway: mount a read-only tmpfs there.
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", s(&path)])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|st| st.success());
        if mounted && refuses(&path) {
            return ReadOnly { path, mounted };
        }
        // No right to mount (root in a container): a system folder mounted read-only there.
        for system in ["/sys", "/proc/sys", "/sys/fs/cgroup"] {
            let point = Path::new(system);
            if point.is_dir() && refuses(point) {
                return ReadOnly {
                    path: point.to_path_buf(),
                    mounted: false,
                };
            }
        }
        panic!(
            "no read-only folder can be made here (root without the right to mount, and no \
             read-only mount): run the tests as a user, or with CAP_SYS_ADMIN"
        );
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        if self.mounted {
            let _ = Command::new("umount").arg(&self.path).status();
        }
    }
}

#[test]
fn a_read_only_folder_is_refused_at_once_by_build_and_build_all() {
    let dir = TempDir::new("readonly");
    let ro = ReadOnly::new(dir.path());
    let started = Instant::now();
    let o = gamedb(&words(
        "build slide --rows 3 --cols 4 --out {}",
        &[s(&ro.path)],
    ));
    let e = exit2(&o, "read-only build");
    quick(started, Duration::from_millis(900), "read-only build");
    assert!(
        e.contains("not writable") && e.contains("nothing was solved"),
        "{e}"
    );
    // build-all checks before solving anything, even with a long table first.
    let cat = dir.path().join("c.txt");
    std::fs::write(
        &cat,
        "nim --heaps 6 --max-heap 63\nnim --heaps 3 --max-heap 7\n",
    )
    .unwrap();
    let started = Instant::now();
    let o = gamedb(&words(
        "build-all --catalog {} --out {} -q",
        &[s(&cat), s(&ro.path)],
    ));
    let e = exit2(&o, "read-only build-all");
    quick(started, Duration::from_millis(900), "read-only build-all");
    assert!(e.contains("not writable"), "{e}");
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn out_must_be_a_folder() {
    let dir = TempDir::new("outfile");
    let file = dir.path().join("afile");
    std::fs::write(&file, b"x").unwrap();
    for line in [
        "build nim --heaps 2 --max-heap 3 --out {}",
        "build-all --catalog /dev/null --out {}",
    ] {
        let e = exit2(&gamedb(&words(line, &[s(&file)])), "--out file");
        assert!(
            e.contains("afile: the output folder is a file"),
            "{line}: {e}"
        );
    }
    let under = file.join("sub");
    let e = exit2(
        &gamedb(&words(
            "build nim --heaps 2 --max-heap 3 --out {}",
            &[s(&under)],
        )),
        "under a file",
    );
    assert!(e.contains("a part of the path is a file"), "{e}");
}

// ---- defect 5: one builder per table ---------------------------------------------------------

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
    let names: Vec<String> = gamedb::catalog::parse(SHARED, "c")
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

// ---- defect 6 and the small message problems -------------------------------------------------

#[test]
fn small_message_problems() {
    let dir = TempDir::new("messages");
    let t = built(dir.path(), "nim --heaps 3 --max-heap 15", "nim-3x15.gtab");
    let o = gamedb(&["query", s(&t), "99999999999999999999"]);
    let e = exit2(&o, "too large");
    assert!(
        e.contains("'99999999999999999999' is too large (at most 4294967295)"),
        "{e}"
    );
    // Missing heaps are empty, and empty ones may be written out.
    let o = gamedb(&["query", s(&t), "1,2,3,0", "0,1,2,0,3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "1,2,3,0: P\n0,1,2,0,3: P\n");
    let e = exit2(&gamedb(&["query", s(&t), "1,2,3,4"]), "4 heaps");
    assert!(e.contains("'1,2,3,4' has 4 heaps"), "{e}");
    let e = exit2(&gamedb(&["query", s(&t), "1,0,2,3,4"]), "4 of 5 heaps");
    assert!(e.contains("'1,0,2,3,4' has 4 non-empty heaps"), "{e}");
    let many = vec!["0"; 40].join(",");
    let e = exit2(&gamedb(&["query", s(&t), &many]), "40 numbers");
    assert!(e.contains("40 numbers (at most 32)"), "{e}");
    // An even --max-candies.
    let e = exit2(
        &gamedb(&words(
            "build candy --max-candies 100 --max-take 3 --out {}",
            &[s(dir.path())],
        )),
        "even",
    );
    assert!(
        e.contains("--max-candies 100: expected an odd number"),
        "{e}"
    );
    // A folder named like a table.
    let folder = dir.path().join("x.gtab");
    std::fs::create_dir(&folder).unwrap();
    for args in [
        vec!["query", s(&folder), "1,2"],
        vec!["info", s(&folder)],
        vec!["verify-table", s(&folder)],
    ] {
        let e = exit2(&gamedb(&args), "folder");
        assert!(
            e.contains("x.gtab") && e.contains("folder"),
            "{args:?}: {e}"
        );
        assert!(!e.contains("os error"), "{args:?}: {e}");
    }
    // verify-table says each failure once.
    let bad = dir.path().join("bad.gtab");
    let mut bytes = std::fs::read(&t).unwrap();
    bytes[4096 + 3] ^= 1;
    std::fs::write(&bad, &bytes).unwrap();
    let o = gamedb(&["verify-table", s(&t), s(&bad)]);
    let e = exit2(&o, "verify-table");
    assert_eq!(e.matches("bad.gtab").count(), 1, "{e}");
    assert!(
        e.contains("checksum mismatch") && e.contains("1 of 2 tables failed"),
        "{e}"
    );
    assert!(!stdout(&o).contains("bad.gtab"), "{}", stdout(&o));
    assert!(stdout(&o).contains("nim-3x15.gtab: OK"), "{}", stdout(&o));
}
