//! What a build needs is checked before it solves: absurd thread counts are clamped with a
//! note and zero is refused; a build that does not fit in the memory budget is refused before
//! solving, naming what it needs, and every build fits in the memory it says it needs (peak
//! resident memory measured); an output folder that is read-only, or a file, is refused at
//! once by `build` and `build-all`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;
use gamedb::{Spec, ValueKind};

/// The spec and value kind of the words after `build`, as a catalog line reads them.
fn entry(what: &str) -> (Spec, ValueKind) {
    let e = gamedb::cli::catalog::parse(what, "test").unwrap().remove(0);
    (e.spec, e.kind)
}

/// Asserts a refusal came fast enough to mean nothing was solved first.
fn quick(started: Instant, limit: Duration, what: &str) {
    assert!(
        started.elapsed() < limit,
        "{what} took {:?}",
        started.elapsed()
    );
}

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
    // The 10x50 box: its bits alone are 8.8 GiB.
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
