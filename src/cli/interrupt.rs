//! What an interrupted build leaves, said: on SIGINT (Ctrl-C) or SIGTERM, `gamedb build` and
//! `gamedb build-all` name each table they were building, that it was not written, and its
//! checkpoint (file and size) with the commands that resume it (`--resume`) and remove it
//! (`--clean`), or that there is none; they remove the table's lock and their own temporaries
//! and exit 130 (143 for SIGTERM). Without this the default action of the signal ends the
//! process without a word and leaves the lock file behind.
//!
//! The signal handler only stores the signal and writes a byte to a pipe (both
//! async-signal-safe); a thread waiting on the pipe does the rest, so the solver's threads are
//! never touched and nothing unsafe runs in the handler.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, Once};

use crate::build::checkpoint;
use crate::resources::bytes;

/// The write end of the pipe the handler writes to (-1 before it is made).
static PIPE: AtomicI32 = AtomicI32::new(-1);
/// The signal received.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The tables being built now, each with its number (for [`Building`] to remove its own).
static BUILDING: Mutex<Vec<(u64, InFlight)>> = Mutex::new(Vec::new());
/// The number of the next table registered.
static NEXT: Mutex<u64> = Mutex::new(0);
static INSTALL: Once = Once::new();

/// One table being built: where, and the command that builds it (its words after `gamedb`,
/// `--resume` and `--clean` left out), or `None` when the build keeps no checkpoints.
struct InFlight {
    dir: PathBuf,
    name: String,
    command: Option<Vec<String>>,
}

/// A table registered as being built; it is forgotten when this is dropped (written, or the
/// build failed and cleaned up after itself).
pub(crate) struct Building(u64);

impl Drop for Building {
    fn drop(&mut self) {
        let mut list = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
        list.retain(|(id, _)| *id != self.0);
    }
}

/// Registers table `name` of `dir` as being built, under its lock, until the guard is dropped.
/// `command`: the build's words after `gamedb` (for the `--resume` and `--clean` commands a
/// message gives), `None` for a build that keeps no checkpoint (`build-all`).
pub(crate) fn building(dir: &Path, name: &str, command: Option<Vec<String>>) -> Building {
    let id = {
        let mut next = NEXT.lock().unwrap_or_else(|e| e.into_inner());
        *next += 1;
        *next
    };
    let entry = InFlight {
        dir: dir.to_path_buf(),
        name: name.to_string(),
        command,
    };
    BUILDING
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((id, entry));
    Building(id)
}

/// The words of this process's command line after `gamedb`, without `--resume` and `--clean`:
/// the build to name in the commands a message gives.
pub(crate) fn this_command() -> Vec<String> {
    std::env::args_os()
        .skip(1)
        .map(|w| w.to_string_lossy().into_owned())
        .filter(|w| w != "--resume" && w != "--clean")
        .collect()
}

/// `gamedb WORDS... FLAG` (no flag when it is empty), each word quoted for a POSIX shell when
/// it needs it.
pub(crate) fn command_line(words: &[String], flag: &str) -> String {
    let quoted = words.iter().map(|w| {
        let plain = !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=,:+@%".contains(c));
        if plain {
            w.clone()
        } else {
            format!("'{}'", w.replace('\'', r"'\''"))
        }
    });
    let mut line = String::from("gamedb");
    for w in quoted {
        line.push(' ');
        line.push_str(&w);
    }
    if !flag.is_empty() {
        line.push(' ');
        line.push_str(flag);
    }
    line
}

/// Installs the handlers of SIGINT and SIGTERM (once a process): from then on an interrupt
/// says what the builds registered with [`building`] leave, removes their locks and this
/// process's temporaries of them, and exits.
pub(crate) fn say_what_is_left() {
    INSTALL.call_once(|| {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe(2) writes two descriptors into the array it is given.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return; // no pipe, no message: the signal's default action stays
        }
        let read = fds[0];
        PIPE.store(fds[1], Ordering::SeqCst);
        let watcher = std::thread::Builder::new()
            .name("interrupt".into())
            .spawn(move || wait_and_report(read));
        if watcher.is_err() {
            return;
        }
        extern "C" fn handler(signal: libc::c_int) {
            SIGNAL.store(signal, Ordering::SeqCst);
            let fd = PIPE.load(Ordering::SeqCst);
            let byte = 1u8;
            // SAFETY: write(2) is async-signal-safe; the buffer is one byte on the stack.
            unsafe {
                libc::write(fd, &byte as *const u8 as *const libc::c_void, 1);
            }
        }
        for signal in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: the handler only stores to an atomic and calls write(2), both
            // async-signal-safe.
            unsafe {
                libc::signal(
                    signal,
                    handler as extern "C" fn(libc::c_int) as libc::sighandler_t,
                );
            }
        }
    });
}

/// The watcher: waits for the handler's byte, then reports and exits.
fn wait_and_report(read: libc::c_int) {
    let mut byte = 0u8;
    loop {
        // SAFETY: reading one byte into a byte on the stack from a descriptor we own.
        let n = unsafe { libc::read(read, &mut byte as *mut u8 as *mut libc::c_void, 1) };
        if n == 1 {
            break;
        }
        if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        return; // the pipe failed: leave the process as it is
    }
    let signal = SIGNAL.load(Ordering::SeqCst);
    // First: a temporary being created is there before the removal below, and none is
    // created after it (crate::lock::create_temporary).
    crate::lock::end_writes();
    let list = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    // On a terminal the line starts below the progress bar (and the `^C` the terminal echoed).
    let start = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        "\n"
    } else {
        ""
    };
    if list.is_empty() {
        eprintln!("{start}gamedb: interrupted; no table was being built, nothing is left");
    }
    for (_, b) in list.iter() {
        eprintln!("{start}{}", left(b));
        let _ = std::fs::remove_file(crate::lock::lock_path(&b.dir, &b.name));
        remove_own_temporaries(&b.dir, &b.name);
    }
    std::process::exit(128 + signal);
}

/// The line that says what an interrupted build of `b` leaves.
fn left(b: &InFlight) -> String {
    let ckpt = checkpoint::path(&b.dir, &b.name);
    let table = b.dir.join(&b.name);
    let head = format!("gamedb: interrupted: {} was not written", table.display());
    let Some(command) = &b.command else {
        return format!(
            "{head} (build-all keeps no checkpoints; it builds the table afresh when run again); \
             its lock was removed, nothing is left"
        );
    };
    match std::fs::metadata(&ckpt) {
        Ok(m) => format!(
            "{head}; its checkpoint {} ({}) is left: `{}` continues from it, `{}` removes it",
            ckpt.display(),
            bytes(m.len()),
            command_line(command, "--resume"),
            command_line(command, "--clean")
        ),
        Err(_) => format!(
            "{head}; no checkpoint of it was written (a solve that keeps checkpoints writes one \
             every --checkpoint-every seconds, by default 300), so nothing is left and `{}` \
             starts afresh",
            command_line(command, "")
        ),
    }
}

/// Removes the temporaries of table `name` that this process was writing: the table's
/// (`.NAME.tmp-PID`) and its checkpoint's (`.NAME.checkpoint.tmp-PID`).
fn remove_own_temporaries(dir: &Path, name: &str) {
    let pid = std::process::id();
    for file in [
        format!(".{name}.tmp-{pid}"),
        format!(".{name}.checkpoint.tmp-{pid}"),
    ] {
        let _ = std::fs::remove_file(dir.join(file));
    }
}
