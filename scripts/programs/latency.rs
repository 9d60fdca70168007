//! This machine's memory latency: nanoseconds per dependent load, by pointer chasing.
//!
//! ```text
//! cargo run --release --example latency -- [SIZE_MIB...] [--loads N]
//! ```
//!
//! For each buffer size (default 16, 75 and 2048 MiB: the two lookup tables' sizes and a
//! buffer far beyond the last-level cache), one pointer a 64-byte line, the lines linked into
//! one random cycle (Sattolo's shuffle); following it makes every load wait for the one before,
//! so the time a load takes is the latency of a random read of that much memory. Each size is
//! measured twice: with 4 KiB pages, as a table mapped from a file gets them, and with 2 MiB
//! pages where the kernel grants them (`madvise(MADV_HUGEPAGE)`), which takes the page walks
//! out of the figure.
//!
//! A lookup in a table larger than the caches is one such random read; `scripts/bench/interop.sh`
//! prints these figures beside the lookup rates.

use std::time::Instant;

#[path = "args.rs"]
mod args;
#[path = "rng.rs"]
mod rng;
use rng::Rng;

/// Words (u64) in a 64-byte line: one pointer a line, the rest unused.
const LINE_WORDS: usize = 8;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let loads = args::take_number(&mut args, "--loads")
        .unwrap_or_else(|e| usage(&e))
        .unwrap_or(20_000_000);
    let sizes: Vec<usize> = if args.is_empty() {
        vec![16, 75, 2048]
    } else {
        args.iter()
            .map(|a| match a.parse() {
                Ok(n) if n > 0 => n,
                _ => usage(&format!("'{a}' is not a size in MiB")),
            })
            .collect()
    };
    println!("pointer chasing, {loads} dependent loads a figure, one 64-byte line a pointer");
    for mib in sizes {
        for huge in [false, true] {
            match chase(mib << 20, huge, loads) {
                Ok(f) => println!(
                    "{mib:>6} MiB  {:<22} {:>7.1} ns a load (CPU time; {:.1} ns by the clock)",
                    match huge {
                        false => "4 KiB pages:".to_string(),
                        true => format!("2 MiB pages ({}%):", f.granted),
                    },
                    f.cpu,
                    f.wall,
                ),
                Err(e) => {
                    eprintln!("latency: {mib} MiB: {e}");
                    std::process::exit(2)
                }
            }
        }
    }
}

/// One measurement: nanoseconds a load by the clock and by this thread's CPU time (on a busy
/// machine the thread waits its turn, which the wall clock counts and the CPU time does not),
/// and the share (percent) of the buffer the kernel backed with huge pages.
struct Figure {
    wall: f64,
    cpu: f64,
    granted: u64,
}

/// This thread's CPU time in seconds (0 if the clock cannot be read).
pub fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which `t` is.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } != 0 {
        return 0.0;
    }
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// A random cycle over `bytes` followed `loads` times.
fn chase(bytes: usize, huge: bool, loads: u64) -> Result<Figure, String> {
    let mut buf = Mapped::new(bytes, huge)?;
    let words = buf.words();
    let lines = words.len() / LINE_WORDS;
    // Sattolo's shuffle: one cycle through every line.
    let mut order: Vec<u32> = (0..lines as u32).collect();
    let mut rng = Rng(0x5eed);
    for i in (1..lines).rev() {
        order.swap(i, rng.index(i));
    }
    for i in 0..lines {
        let next = order[(i + 1) % lines] as usize;
        words[order[i] as usize * LINE_WORDS] = (next * LINE_WORDS) as u64;
    }
    drop(order);
    let granted = buf.huge_percent();
    let words = buf.words();
    // A pass of warm-up (at most the timed count) so the measured loads find the pages mapped.
    let mut at = 0usize;
    for _ in 0..loads.min(lines as u64) {
        at = words[at] as usize;
    }
    let (wall, cpu) = (Instant::now(), thread_cpu_seconds());
    for _ in 0..loads {
        at = words[at] as usize;
    }
    let wall = wall.elapsed().as_secs_f64() * 1e9 / loads as f64;
    let cpu = (thread_cpu_seconds() - cpu) * 1e9 / loads as f64;
    std::hint::black_box(at);
    Ok(Figure { wall, cpu, granted })
}

/// An anonymous mapping, asked for 4 KiB or 2 MiB pages.
struct Mapped {
    ptr: *mut u64,
    bytes: usize,
}

impl Mapped {
    fn new(bytes: usize, huge: bool) -> Result<Mapped, String> {
        // SAFETY: a fresh private anonymous mapping; no other memory is touched. A failure
        // returns MAP_FAILED, checked below.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(format!("mmap: {}", std::io::Error::last_os_error()));
        }
        let advice = if huge {
            libc::MADV_HUGEPAGE
        } else {
            libc::MADV_NOHUGEPAGE
        };
        // SAFETY: the advice applies to the mapping just made, of `bytes` bytes; it changes
        // how it is backed, not its contents. Refused advice only leaves the default pages.
        unsafe { libc::madvise(ptr, bytes, advice) };
        Ok(Mapped {
            ptr: ptr as *mut u64,
            bytes,
        })
    }

    fn words(&mut self) -> &mut [u64] {
        // SAFETY: the mapping is `bytes` long, readable and writable, zero-filled, page
        // aligned, and owned by `self` until drop; `&mut self` keeps the slice unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.bytes / 8) }
    }

    /// Percent of this mapping backed by huge pages (from /proc/self/smaps; 0 if unknown).
    fn huge_percent(&self) -> u64 {
        let Ok(smaps) = std::fs::read_to_string("/proc/self/smaps") else {
            return 0;
        };
        let start = format!("{:x}-", self.ptr as usize);
        let mut mine = false;
        for line in smaps.lines() {
            // A mapping's first line starts with its range `start-end`; its fields follow.
            let first = line.split_whitespace().next().unwrap_or("");
            if first.contains('-') && first.chars().all(|c| c == '-' || c.is_ascii_hexdigit()) {
                mine = first.starts_with(&start);
            } else if let Some(kb) = line.strip_prefix("AnonHugePages:").filter(|_| mine) {
                let kb: u64 = kb.trim().trim_end_matches("kB").trim().parse().unwrap_or(0);
                return kb * 1024 * 100 / self.bytes as u64;
            }
        }
        0
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping made in `new`; no slice of it outlives `self`.
        unsafe { libc::munmap(self.ptr as *mut libc::c_void, self.bytes) };
    }
}

fn usage(msg: &str) -> ! {
    eprintln!("latency: {msg}\nusage: latency [SIZE_MIB...] [--loads N]");
    std::process::exit(2)
}
