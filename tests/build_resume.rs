//! Checkpoints of long builds (`gamedb build ... --resume`): a Chomp box build killed with
//! SIGKILL after a checkpoint resumes to the same bytes as an uninterrupted build, at 1 and 2
//! threads; without `--resume` a checkpoint is neither used nor overwritten; a checkpoint of
//! another box, a damaged one and a truncated one are refused (exit 2, a line naming the
//! file); `--resume` without a checkpoint is refused. An interrupted build (SIGINT) names the
//! checkpoint it leaves, its size and the `--resume` and `--clean` commands, and leaves no
//! lock; `--clean` removes what is left and is refused while a build runs; a build whose
//! stderr is no terminal writes a plain progress line now and then.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// The box of these tests: 10×20, 30,045,014 positions (a 3.6 MiB table) in 160 waves of the
/// triangle solver; with a checkpoint after every wave a build takes a second or two.
const ROWS: &str = "10";
const COLS: &str = "20";
const TABLE: &str = "chomp-10x20.gtab";

fn build_args<'a>(out: &'a str, threads: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "build",
        "chomp",
        "--rows",
        ROWS,
        "--cols",
        COLS,
        "--out",
        out,
        "--threads",
        threads,
        "-q",
    ];
    args.extend_from_slice(more);
    args
}

fn checkpoint_of(dir: &Path) -> PathBuf {
    dir.join(format!("{TABLE}.checkpoint"))
}

/// Waits, at most a minute, until the build `child` into `out` has written its first
/// checkpoint; false when the build finished first.
fn first_checkpoint(child: &mut std::process::Child, out: &Path) -> bool {
    let ckpt = checkpoint_of(out);
    let started = Instant::now();
    while !ckpt.exists() && started.elapsed() < Duration::from_secs(60) {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    true
}

/// Starts a build that checkpoints after every wave, waits until its first checkpoint is
/// there and then `wait_ms` more, and kills it (SIGKILL). True when it was killed before it
/// finished (a checkpoint is left to resume).
fn start_and_kill(out: &Path, threads: &str, wait_ms: u64) -> bool {
    let dir = out.to_str().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args(build_args(dir, threads, &["--checkpoint-every", "0"]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    if !first_checkpoint(&mut child, out) {
        return false;
    }
    std::thread::sleep(Duration::from_millis(wait_ms));
    child.kill().unwrap(); // SIGKILL
    let status = child.wait().unwrap();
    !status.success() && checkpoint_of(out).exists()
}

#[test]
fn a_build_killed_after_a_checkpoint_resumes_to_the_same_bytes_at_1_and_2_threads() {
    let reference = TempDir::new("resume-ref");
    gamedb_ok(&build_args(reference.arg(), "2", &["--no-checkpoints"]));
    let want = std::fs::read(reference.path().join(TABLE)).unwrap();
    let mut resumed = 0;
    let mut waves = Vec::new();
    for (i, wait) in [0u64, 30, 150, 400].into_iter().enumerate() {
        // Killed at one thread count, resumed at the other (and at the same one).
        let (first, then) = [("2", "1"), ("1", "2"), ("2", "2"), ("1", "1")][i];
        let dir = TempDir::new("resume-kill");
        if !start_and_kill(dir.path(), first, wait) {
            continue;
        }
        assert!(!dir.path().join(TABLE).exists(), "a table after the kill");
        // Without --resume the checkpoint is refused, not used and not overwritten.
        let before = std::fs::read(checkpoint_of(dir.path())).unwrap();
        refused(
            "a checkpoint without --resume",
            &build_args(dir.arg(), then, &[]),
            &[TABLE, ".checkpoint", "--resume continues it"],
        );
        assert_eq!(std::fs::read(checkpoint_of(dir.path())).unwrap(), before);
        // The first resumed build goes on writing a checkpoint after every wave.
        let every = if i == 0 { "0" } else { "300" };
        let out = gamedb_ok(&build_args(
            dir.arg(),
            then,
            &["--resume", "--checkpoint-every", every, "--json"],
        ));
        let summary = json(out.trim());
        let wave = summary["resumed_at_wave"].as_u64();
        assert!(wave.is_some_and(|w| (1..160).contains(&w)), "{summary}");
        waves.push(wave);
        assert_eq!(
            std::fs::read(dir.path().join(TABLE)).unwrap(),
            want,
            "killed at {first} thread(s) {wait} ms after the first checkpoint, resumed at {then}"
        );
        // The checkpoint has served; nothing else is left (no temporary, no lock).
        assert_eq!(left_over(dir.path(), |n| n == TABLE), Vec::<String>::new());
        resumed += 1;
    }
    assert!(
        resumed >= 3,
        "only {resumed} of 4 builds were killed mid-way (resumed at waves {waves:?})"
    );
}

#[test]
fn foreign_damaged_and_truncated_checkpoints_are_refused() {
    let dir = TempDir::new("resume-bad");
    assert!(
        start_and_kill(dir.path(), "2", 20),
        "the build finished first"
    );
    let ckpt = checkpoint_of(dir.path());
    let good = std::fs::read(&ckpt).unwrap();
    let name = ckpt.display().to_string();
    let resume = build_args(dir.arg(), "2", &["--resume"]);

    // A checkpoint of another box under this table's name.
    let other = TempDir::new("resume-other");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args([
            "build",
            "chomp",
            "--rows",
            "10",
            "--cols",
            "19",
            "--out",
            other.arg(),
            "-q",
            "--checkpoint-every",
            "0",
        ])
        .spawn()
        .unwrap();
    let theirs = other.path().join("chomp-10x19.gtab.checkpoint");
    while !theirs.exists() {
        assert!(child.try_wait().unwrap().is_none(), "10x19 finished first");
        std::thread::sleep(Duration::from_millis(2));
    }
    let foreign = std::fs::read(&theirs).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    std::fs::write(&ckpt, &foreign).unwrap();
    refused(
        "another box",
        &resume,
        &[&name, "10x19", "not of", "10×20", "cannot be resumed"],
    );

    // One byte changed in the words: the checksum.
    let mut damaged = good.clone();
    let at = damaged.len() - 1000;
    damaged[at] ^= 0x10;
    std::fs::write(&ckpt, &damaged).unwrap();
    refused("a damaged word", &resume, &[&name, "checksum mismatch"]);

    // Cut short, in the words and in the header.
    std::fs::write(&ckpt, &good[..good.len() - 4096]).unwrap();
    refused("truncated", &resume, &[&name, "truncated"]);
    std::fs::write(&ckpt, &good[..100]).unwrap();
    refused("truncated header", &resume, &[&name, "truncated"]);
    std::fs::write(
        &ckpt,
        b"not a checkpoint at all, but long enough to hold a magic",
    )
    .unwrap();
    refused(
        "not a checkpoint",
        &resume,
        &[&name, "not a gamedb build checkpoint"],
    );

    // Another format version.
    let mut newer = good.clone();
    newer[8] = 9;
    std::fs::write(&ckpt, &newer).unwrap();
    refused("another version", &resume, &[&name, "version 9"]);

    // The Grundy table of the box keeps no checkpoints: nothing to resume.
    refused(
        "a table without checkpoints",
        &build_args(dir.arg(), "2", &["--resume", "--grundy"]),
        &["chomp-10x20-grundy.gtab", "keep no checkpoints"],
    );

    // The good one still resumes; none of the refusals wrote a table.
    assert!(!dir.path().join(TABLE).exists());
    std::fs::write(&ckpt, &good).unwrap();
    gamedb_ok(&resume);
    assert!(!ckpt.exists());
    let reference = TempDir::new("resume-bad-ref");
    gamedb_ok(&build_args(reference.arg(), "1", &[]));
    assert_eq!(
        std::fs::read(dir.path().join(TABLE)).unwrap(),
        std::fs::read(reference.path().join(TABLE)).unwrap()
    );

    // --resume with no checkpoint (the build finished and removed it) is refused.
    refused(
        "no checkpoint",
        &resume,
        &["--resume: no checkpoint", &name, "run without --resume"],
    );
}

/// Starts a build that checkpoints after every wave (stderr captured, so no terminal), waits
/// until its first checkpoint is there and sends SIGINT. Its output, or `None` when it
/// finished before the signal.
fn start_and_interrupt(out: &Path) -> Option<Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args(build_args(
            out.to_str().unwrap(),
            "2",
            &["--checkpoint-every", "0"],
        ))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if !first_checkpoint(&mut child, out) {
        return None;
    }
    // SAFETY: kill(2) of the child we started, which has not been waited for.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let o = child.wait_with_output().unwrap();
    (!o.status.success()).then_some(o)
}

/// [`start_and_interrupt`] until a build is interrupted before it finishes (the first try, on
/// any machine seen so far: a build takes a second or two and is signalled at its first wave).
fn interrupted(out: &Path) -> Output {
    for _ in 0..3 {
        if let Some(o) = start_and_interrupt(out) {
            return o;
        }
        std::fs::remove_file(out.join(TABLE)).unwrap();
    }
    panic!("three builds of {TABLE} finished before their interrupt");
}

/// The command between backticks before `after` in `line`, as the words after `gamedb`.
fn command_before<'a>(line: &'a str, after: &str) -> Vec<&'a str> {
    let end = line
        .find(after)
        .unwrap_or_else(|| panic!("no {after:?} in {line}"));
    let start = line[..end].rfind("`gamedb ").unwrap() + "`gamedb ".len();
    line[start..end].split_whitespace().collect()
}

#[test]
fn an_interrupted_build_says_what_it_left_and_clean_removes_it() {
    let dir = TempDir::new("interrupt");
    let ckpt = checkpoint_of(dir.path());
    let o = interrupted(dir.path());
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{e}");
    assert!(!e.contains("panicked"), "{e}");
    let size = std::fs::metadata(&ckpt).unwrap().len();
    for needle in [
        format!("gamedb: interrupted: {} was not written", dir.join(TABLE)),
        format!(
            "its checkpoint {} ({}) is left",
            ckpt.display(),
            bytes(size)
        ),
        "--resume` continues from it".to_string(),
        "--clean` removes it".to_string(),
        format!(
            "`gamedb build chomp --rows {ROWS} --cols {COLS} --out {}",
            dir.arg()
        ),
    ] {
        assert!(e.contains(&needle), "stderr lacks {needle:?}: {e}");
    }
    // The checkpoint alone is left: no lock, no temporary.
    assert_eq!(
        left_over(dir.path(), |_| false),
        [format!("{TABLE}.checkpoint")]
    );

    // The `--clean` command of the message removes it, and says so.
    let clean = command_before(&e, "` removes it");
    assert_eq!(clean.last(), Some(&"--clean"));
    let said = gamedb_ok(&clean);
    assert_eq!(
        said,
        format!(
            "{}: removed its checkpoint {} ({})\n",
            dir.join(TABLE),
            ckpt.display(),
            bytes(size)
        )
    );
    assert_eq!(left_over(dir.path(), |_| false), Vec::<String>::new());
    assert_eq!(
        gamedb_ok(&clean),
        format!("{}: nothing to clean\n", dir.join(TABLE))
    );
    // A stale lock and a killed writer's temporaries are cleaned too.
    std::fs::write(dir.path().join(format!(".{TABLE}.lock")), b"").unwrap();
    std::fs::write(dir.path().join(format!(".{TABLE}.tmp-999999999")), b"x").unwrap();
    std::fs::write(
        dir.path()
            .join(format!(".{TABLE}.checkpoint.tmp-999999999")),
        b"x",
    )
    .unwrap();
    let said = gamedb_ok(&clean);
    assert!(
        said.contains("removed 2 temporaries of interrupted writers, a stale lock"),
        "{said}"
    );
    assert_eq!(left_over(dir.path(), |_| false), Vec::<String>::new());

    // Interrupted again: the `--resume` command of the message finishes the table.
    let e = stderr(&interrupted(dir.path()));
    let resume = command_before(&e, "` continues from it");
    assert_eq!(resume.last(), Some(&"--resume"));
    gamedb_ok(&resume);
    assert_eq!(left_over(dir.path(), |_| false), [TABLE]);
    let reference = TempDir::new("interrupt-ref");
    gamedb_ok(&build_args(reference.arg(), "2", &["--no-checkpoints"]));
    assert_eq!(
        std::fs::read(dir.path().join(TABLE)).unwrap(),
        std::fs::read(reference.path().join(TABLE)).unwrap()
    );
}

#[test]
fn clean_is_refused_while_a_build_runs() {
    let dir = TempDir::new("clean-running");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args(build_args(dir.arg(), "1", &["--checkpoint-every", "0"]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let ckpt = checkpoint_of(dir.path());
    while !ckpt.exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the build finished first"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let lock = dir.path().join(format!(".{TABLE}.lock"));
    refused(
        "clean while building",
        &build_args(dir.arg(), "1", &["--clean"]),
        &[
            &format!("--clean: a build of {} is running", dir.join(TABLE)),
            &format!("it holds {}", lock.display()),
            "stop it first",
        ],
    );
    // Nothing was removed under the running build.
    assert!(lock.exists());
    // SAFETY: kill(2) of the child we started, which has not been waited for.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    if status.code() == Some(130) {
        assert!(ckpt.exists());
    }
    assert!(!lock.exists());
    refused(
        "--clean with --resume",
        &build_args(dir.arg(), "1", &["--clean", "--resume"]),
        &["--clean", "--resume"],
    );
}

#[test]
fn a_build_writes_a_plain_progress_line_when_stderr_is_no_terminal() {
    let dir = TempDir::new("plain-progress");
    // Every 0.1 s instead of every minute; the build takes a second or two.
    let mut args = build_args(dir.arg(), "1", &["--checkpoint-every", "0"]);
    args.retain(|a| *a != "-q");
    let o = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args(&args)
        .env("GAMEDB_PROGRESS_SECONDS", "0.1")
        .output()
        .unwrap();
    let e = stderr(&o);
    assert!(o.status.success(), "{e}");
    let lines: Vec<&str> = e
        .lines()
        .filter(|l| l.starts_with(&format!("gamedb: {TABLE}: ")))
        .collect();
    assert!(!lines.is_empty(), "no progress line: {e}");
    // `gamedb: chomp-10x20.gtab: N of 30045014 (P%) after Ts[, about T left]`
    for line in &lines {
        let rest = line.strip_prefix(&format!("gamedb: {TABLE}: ")).unwrap();
        let words: Vec<&str> = rest.split_whitespace().collect();
        assert!(words[0].parse::<u64>().is_ok(), "{line}");
        assert_eq!(&words[1..3], ["of", "30045014"], "{line}");
        assert!(
            words[3].starts_with('(') && words[3].ends_with("%)"),
            "{line}"
        );
        assert_eq!(words[4], "after", "{line}");
    }
    // No bar's control characters: plain lines.
    assert!(!e.contains('\r') && !e.contains('\x1b'), "{e:?}");
    // -q: none.
    let quiet = TempDir::new("plain-progress-quiet");
    let o = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args(build_args(quiet.arg(), "1", &["--checkpoint-every", "0"]))
        .env("GAMEDB_PROGRESS_SECONDS", "0.1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains(TABLE), "{}", stderr(&o));
}
