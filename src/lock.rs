//! Advisory locks on tables being written, so that two gamedb processes building into one
//! folder never build the same table twice (and never remove each other's temporaries).
//!
//! A writer of `DIR/NAME` holds an exclusive `flock` on `DIR/.NAME.lock` from before it
//! solves until the table is renamed into place. The lock file is removed by its holder when
//! it lets go; a process killed while holding it leaves the file behind, unlocked (the kernel
//! drops the `flock` with the process), and the next writer takes it over or removes it.
//!
//! Removing a lock file is safe because a taker checks, once it holds the lock, that the
//! file it locked is still the one under the name (same device and inode); if the holder
//! removed it meanwhile, the taker tries again on the new file.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::MetadataExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// An exclusive lock on one table name of a folder; released (and its file removed) on drop.
#[derive(Debug)]
pub struct TableLock {
    path: PathBuf,
    name: String,
    file: File,
}

/// The lock file of table `name` in `dir`.
pub(crate) fn lock_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(".{name}.lock"))
}

impl TableLock {
    /// Takes the lock of table `name` in `dir`, waiting while another process holds it.
    pub fn wait(dir: &Path, name: &str) -> Result<TableLock> {
        match TableLock::take(dir, name, true)? {
            Some(lock) => Ok(lock),
            None => Err(Error::internal(format!(
                "a blocking lock of {} was refused",
                lock_path(dir, name).display()
            ))),
        }
    }

    /// Takes the lock of table `name` in `dir` if nobody holds it; `None` when another
    /// process (or another job of this one) does.
    pub fn try_take(dir: &Path, name: &str) -> Result<Option<TableLock>> {
        TableLock::take(dir, name, false)
    }

    /// The table name this lock guards.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn take(dir: &Path, name: &str, wait: bool) -> Result<Option<TableLock>> {
        let path = lock_path(dir, name);
        loop {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(|e| Error::io(&path, e))?;
            let op = libc::LOCK_EX | if wait { 0 } else { libc::LOCK_NB };
            // SAFETY: flock on a descriptor we own; it only changes the lock state.
            if unsafe { libc::flock(file.as_raw_fd(), op) } != 0 {
                let e = std::io::Error::last_os_error();
                match e.raw_os_error() {
                    Some(libc::EWOULDBLOCK) if !wait => return Ok(None),
                    Some(libc::EINTR) => continue,
                    _ => return Err(Error::io(&path, e)),
                }
            }
            // Locked; but if the holder we waited for removed the file meanwhile, the lock is
            // on a file nobody else will ever look at: start again on the current one.
            let held = file.metadata().map_err(|e| Error::io(&path, e))?;
            match std::fs::metadata(&path) {
                Ok(now) if now.dev() == held.dev() && now.ino() == held.ino() => {
                    return Ok(Some(TableLock {
                        path,
                        name: name.to_string(),
                        file,
                    }));
                }
                _ => continue,
            }
        }
    }
}

impl Drop for TableLock {
    fn drop(&mut self) {
        // Remove the file while still holding the lock (see the module docs), then let go.
        let _ = std::fs::remove_file(&self.path);
        // SAFETY: unlocking a descriptor we own (closing it would do the same).
        unsafe {
            libc::flock(self.file.as_raw_fd(), libc::LOCK_UN);
        }
    }
}

/// Removes the lock files of `dir` that nobody holds (left by killed processes); returns how
/// many.
pub(crate) fn remove_stale_locks(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in entries.flatten() {
        let file_name = e.file_name().to_string_lossy().into_owned();
        let Some(name) = file_name
            .strip_prefix('.')
            .and_then(|n| n.strip_suffix(".lock"))
        else {
            continue;
        };
        if let Ok(Some(lock)) = TableLock::try_take(dir, name) {
            drop(lock); // removes the file
            removed += 1;
        }
    }
    removed
}

/// Whether the process is ending on a signal (the command line's interrupt handling says what
/// is left and removes the temporaries): a writer must then neither create a temporary that
/// would outlive that clean-up nor report a failure the removal caused. A lock, not a flag:
/// a temporary is created while it is held, so the clean-up, which sets it first, comes
/// strictly before or strictly after each creation.
static ENDING: std::sync::Mutex<bool> = std::sync::Mutex::new(false);

fn ending() -> std::sync::MutexGuard<'static, bool> {
    ENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// This thread waits for the process's exit, which is under way.
fn wait_for_the_exit() -> ! {
    loop {
        std::thread::park();
    }
}

/// Marks the process as ending, after any temporary being created now is there (so that the
/// removal that follows finds it); from then on no writer creates one.
pub(crate) fn end_writes() {
    *ending() = true;
}

/// For a writer: `create` its temporary, unless the process is ending (then this thread waits
/// for the exit instead).
pub(crate) fn create_temporary<T>(create: impl FnOnce() -> T) -> T {
    let ending = ending();
    if *ending {
        drop(ending);
        wait_for_the_exit();
    }
    create()
}

/// For a writer about to report a failure: when the process is ending (the failure may be the
/// clean-up's removal of its temporary), this thread waits for the exit instead.
pub(crate) fn wait_if_ending() {
    if *ending() {
        wait_for_the_exit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_taker_is_refused_until_the_first_lets_go() {
        let dir = std::env::temp_dir().join(format!("gamedb-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = TableLock::try_take(&dir, "t.gtab").unwrap().unwrap();
        assert!(TableLock::try_take(&dir, "t.gtab").unwrap().is_none());
        assert!(TableLock::try_take(&dir, "u.gtab").unwrap().is_some());
        assert!(lock_path(&dir, "t.gtab").exists());
        let waiter = {
            let dir = dir.clone();
            std::thread::spawn(move || {
                TableLock::wait(&dir, "t.gtab").map(|l| l.name().to_string())
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        drop(a);
        assert_eq!(waiter.join().unwrap().unwrap(), "t.gtab");
        // Each holder removed its file on letting go.
        assert!(!lock_path(&dir, "t.gtab").exists());
        std::fs::write(lock_path(&dir, "v.gtab"), b"").unwrap();
        assert_eq!(remove_stale_locks(&dir), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
