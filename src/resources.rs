//! What the machine has — memory, free disk, a writable output folder — and what a build
//! needs, compared before anything is solved; also the advice that makes large random-access
//! tables faster.
//!
//! A build states its [`Needs`] (memory at its peak, the output file), [`check`] compares them
//! with what is [`Available`] (the least of the OS's available memory, the cgroup's and the
//! rlimit's headroom, and an optional budget; the free space of the output folder's file
//! system) and refuses with needed vs available. Any engine that writes tables (the MPI and
//! Chomp engines too) calls [`check_output_folder`] and [`check`] before it allocates.

use std::path::Path;

use crate::{Error, Result};

/// Memory the OS says is available (Linux: `MemAvailable` of `/proc/meminfo`); `None` where it
/// cannot tell.
pub(crate) fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    meminfo_field(&text, "MemAvailable:")
}

fn meminfo_field(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The memory this process holds now (its resident set, Linux: `/proc/self/statm`); 0 where
/// it cannot tell.
pub(crate) fn resident_memory() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

/// The memory this process may still use and what sets that limit: the least of the OS's
/// available memory, the headroom of the process's cgroup (v1 or v2), the headroom under
/// `ulimit -v` / the data rlimit, and `budget` (a `--memory` flag). `None` where nothing is
/// known.
pub(crate) fn memory_limit(budget: Option<u64>) -> Option<(u64, String)> {
    let mut best: Option<(u64, String)> = None;
    let mut consider = |bytes: Option<u64>, what: &str| {
        if let Some(b) = bytes {
            if best.as_ref().is_none_or(|(x, _)| b < *x) {
                best = Some((b, what.to_string()));
            }
        }
    };
    consider(budget, "the --memory budget");
    consider(available_memory(), "available memory (MemAvailable)");
    consider(cgroup_headroom(), "the cgroup's memory limit");
    consider(rlimit_headroom(), "the process's memory rlimit (ulimit -v)");
    best
}

/// Limit minus use (less inactive file cache, which the kernel reclaims) of this process's
/// memory cgroup.
fn cgroup_headroom() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (id, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let path = path.trim_start_matches('/');
        let (dirs, limit_file, usage_file, inactive_key) = if id == "0" && controllers.is_empty() {
            (
                [
                    format!("/sys/fs/cgroup/{path}"),
                    "/sys/fs/cgroup".to_string(),
                ],
                "memory.max",
                "memory.current",
                "inactive_file ",
            )
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                [
                    format!("/sys/fs/cgroup/memory/{path}"),
                    "/sys/fs/cgroup/memory".to_string(),
                ],
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
                "total_inactive_file ",
            )
        } else {
            continue;
        };
        for dir in dirs {
            let read = |f: &str| std::fs::read_to_string(format!("{dir}/{f}")).ok();
            let Some(limit) = read(limit_file).and_then(|t| t.trim().parse::<u64>().ok()) else {
                continue;
            };
            // "max" (v2) does not parse; v1 writes a huge number for no limit.
            if limit >= 1 << 60 {
                continue;
            }
            let usage = read(usage_file).and_then(|t| t.trim().parse::<u64>().ok())?;
            let inactive = read("memory.stat")
                .and_then(|t| {
                    t.lines()
                        .find_map(|l| l.strip_prefix(inactive_key)?.trim().parse::<u64>().ok())
                })
                .unwrap_or(0);
            return Some(limit.saturating_sub(usage.saturating_sub(inactive)));
        }
    }
    None
}

/// Headroom under `RLIMIT_AS` (against the address space in use) and `RLIMIT_DATA`.
fn rlimit_headroom() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let mut best: Option<u64> = None;
    for (resource, key) in [(libc::RLIMIT_AS, "VmSize:"), (libc::RLIMIT_DATA, "VmData:")] {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct we pass and nothing else.
        if unsafe { libc::getrlimit(resource, &mut r) } != 0 || r.rlim_cur == libc::RLIM_INFINITY {
            continue;
        }
        let used = meminfo_field(&status, key).unwrap_or(0);
        let room = r.rlim_cur.saturating_sub(used);
        best = Some(best.map_or(room, |b| b.min(room)));
    }
    best
}

/// Bytes free for an unprivileged writer on the file system holding `dir` (statvfs).
pub(crate) fn free_disk(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs fills the zeroed struct we pass; the path is a valid C string.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    Some((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
}

/// Makes sure `dir` is a folder this process can write tables into: creates it when missing,
/// refuses a path that is a file, and writes (then removes) a small probe file, so that a
/// read-only folder is found before anything is solved, not after.
pub(crate) fn check_output_folder(dir: &Path) -> Result<()> {
    if let Ok(meta) = std::fs::metadata(dir) {
        if !meta.is_dir() {
            return Err(Error::bad(format!(
                "{}: the output folder is a file; expected a folder (it is created when missing)",
                dir.display()
            )));
        }
    } else if let Err(e) = std::fs::create_dir_all(dir) {
        let hint = if e.kind() == std::io::ErrorKind::AlreadyExists
            || e.raw_os_error() == Some(libc::ENOTDIR)
        {
            " (a part of the path is a file, not a folder)"
        } else {
            ""
        };
        return Err(Error::unsupported(format!(
            "{}: cannot create the output folder: {e}{hint}",
            dir.display()
        )));
    }
    // One name per call: the jobs of one `build-all --jobs N` probe the same folder at once.
    static PROBES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let probe = dir.join(format!(".gamedb-write-probe-{}-{n}", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"gamedb"));
    let _ = std::fs::remove_file(&probe);
    written.map_err(|e| {
        Error::unsupported(format!(
            "{}: the output folder is not writable: {e}; nothing was solved",
            dir.display()
        ))
    })
}

/// What one build needs, computed before it starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// What is being built, for messages (a table's file name).
    pub what: String,
    /// Memory the build allocates, at its peak: the solver's (its values and working state)
    /// and the encoding's. The process itself (code, stacks: about 6 MiB resident) is running
    /// already, so what is available is measured without it.
    pub memory: u64,
    /// Of `memory`, the values of the table itself.
    pub table: u64,
    /// Bytes of the output file (at most: Grundy tables may turn out smaller).
    pub file: u64,
    /// Disk the build's checkpoints need beside the file, at their peak (0: none).
    pub checkpoints: u64,
}

/// What this machine offers a build.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Available {
    /// Memory the build may use, and what sets the limit; `None` where nothing is known.
    pub memory: Option<(u64, String)>,
    /// Free bytes in the output folder; `None` where unknown.
    pub disk: Option<u64>,
}

impl Available {
    /// What is here now for a build into `dir`, with an optional memory budget.
    pub(crate) fn now(dir: &Path, budget: Option<u64>) -> Available {
        Available {
            memory: memory_limit(budget),
            disk: free_disk(dir),
        }
    }
}

/// Refuses `needs` when it does not fit in `available`, with needed vs available and what sets
/// the limit; `dir` names the output folder in the message.
pub(crate) fn check(needs: &Needs, available: &Available, dir: &Path) -> Result<()> {
    if let Some((limit, why)) = &available.memory {
        if needs.memory > *limit {
            return Err(Error::unsupported(format!(
                "{}: needs {} of memory ({} for the table, {} working), but {} allows {}; \
                 nothing was solved (use a smaller instance or a machine with more memory)",
                needs.what,
                bytes(needs.memory),
                bytes(needs.table),
                bytes(needs.memory - needs.table.min(needs.memory)),
                why,
                bytes(*limit)
            )));
        }
    }
    if let Some(free) = available.disk {
        let disk = needs.file.saturating_add(needs.checkpoints);
        if disk > free {
            let checkpoints = if needs.checkpoints > 0 {
                format!(
                    " ({} for the table, {} for checkpoints: --no-checkpoints needs none)",
                    bytes(needs.file),
                    bytes(needs.checkpoints)
                )
            } else {
                String::new()
            };
            return Err(Error::unsupported(format!(
                "{}: needs {} of disk{checkpoints}, but {} has {} free; nothing was solved",
                needs.what,
                bytes(disk),
                dir.display(),
                bytes(free)
            )));
        }
    }
    Ok(())
}

/// One line for the progress output: what a build needs and what is here.
pub(crate) fn describe(needs: &Needs, available: &Available, dir: &Path) -> String {
    let mut s = format!(
        "{}: needs {} of memory and {} of disk",
        needs.what,
        bytes(needs.memory),
        bytes(needs.file.saturating_add(needs.checkpoints))
    );
    if needs.checkpoints > 0 {
        s += &format!(" ({} of it for checkpoints)", bytes(needs.checkpoints));
    }
    let mut here = Vec::new();
    if let Some((m, _)) = &available.memory {
        here.push(format!("{} of memory", bytes(*m)));
    }
    if let Some(d) = available.disk {
        here.push(format!("{} free in {}", bytes(d), dir.display()));
    }
    if !here.is_empty() {
        s += &format!(" ({} available)", here.join(", "));
    }
    s
}

/// A byte count for people: `812 B`, `4.1 KiB`, `8.8 GiB`.
pub(crate) fn bytes(n: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    format!("{v:.1} {}", UNITS[u])
}

/// Reads a size as `--memory` takes it: bytes, or a number with a binary unit `K`, `M`, `G`,
/// `T` (optionally followed by `iB` or `B`), e.g. `512M`, `1.5G`, `8GiB`.
pub(crate) fn parse_size(text: &str) -> Result<u64> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => {
            return Err(Error::bad(format!(
                "'{text}': unknown unit; expected bytes or a number with K, M, G or T (binary), \
                 e.g. 512M or 8G"
            )))
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| Error::bad(format!("'{text}': expected a size such as 512M or 8G")))?;
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes >= u64::MAX as f64 {
        return Err(Error::bad(format!(
            "'{text}': expected a size of at least 1 byte, e.g. 512M or 8G"
        )));
    }
    Ok(bytes as u64)
}

/// A copy of `bytes` in memory the OS is asked to back with huge pages: random lookups in
/// tables of hundreds of megabytes then miss the TLB far less than in a mapped file.
pub(crate) fn copy_to_huge_pages(bytes: &[u8]) -> Vec<u8> {
    let mut v: Vec<u8> = Vec::with_capacity(bytes.len());
    advise_huge_pages(v.as_mut_ptr(), v.capacity());
    v.extend_from_slice(bytes);
    v
}

/// Asks the OS to back the whole 2 MiB pages inside `p..p + len` (memory of our own) with huge
/// pages; a refusal is harmless.
pub(crate) fn advise_huge_pages(p: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (p as usize).next_multiple_of(HUGE);
        let end = (p as usize + len) & !(HUGE - 1);
        if end > start {
            // SAFETY: advice on whole pages inside our own allocation; it cannot change the
            // contents, and a refusal is harmless.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (p, len);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_and_print() {
        assert_eq!(parse_size("512M").unwrap(), 512 << 20);
        assert_eq!(parse_size("8GiB").unwrap(), 8 << 30);
        assert_eq!(parse_size("1.5g").unwrap(), 3 << 29);
        assert_eq!(parse_size("4096").unwrap(), 4096);
        for bad in ["", "x", "5Q", "0", "-1G", "1e400"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert_eq!(bytes(812), "812 B");
        assert_eq!(bytes(9_424_253_446), "8.8 GiB");
    }

    #[test]
    fn needs_beyond_what_is_here_are_refused_with_both_figures() {
        let needs = Needs {
            what: "t.gtab".into(),
            memory: 3 << 30,
            table: 2 << 30,
            file: 2 << 30,
            checkpoints: 0,
        };
        let here = Available {
            memory: Some((1 << 30, "the --memory budget".into())),
            disk: Some(1 << 40),
        };
        let e = check(&needs, &here, Path::new("out"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("3.0 GiB") && e.contains("1.0 GiB") && e.contains("--memory"),
            "{e}"
        );
        let here = Available {
            memory: None,
            disk: Some(1 << 20),
        };
        let e = check(&needs, &here, Path::new("out"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("2.0 GiB of disk") && e.contains("out has 1.0 MiB free"),
            "{e}"
        );
        assert!(check(&needs, &Available::default(), Path::new("out")).is_ok());
        assert!(free_disk(Path::new("/")).is_some());
        assert!(memory_limit(None).is_some());
    }

    /// The jobs of one process check one folder at the same time (build-all --jobs N): each
    /// probe has its own name, so none is taken for a read-only folder.
    #[test]
    fn concurrent_checks_of_one_folder_all_pass() {
        let dir = std::env::temp_dir().join(format!("gamedb-probe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::thread::scope(|s| {
            let checks: Vec<_> = (0..16)
                .map(|_| s.spawn(|| (0..50).all(|_| check_output_folder(&dir).is_ok())))
                .collect();
            assert!(checks.into_iter().all(|c| c.join().unwrap()));
        });
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
