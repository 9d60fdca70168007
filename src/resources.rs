//! What the machine has: memory, and the advice that makes large random-access tables faster.
//! Builds compare what they need with what is here before they allocate.

/// Memory the OS says is available (Linux: `MemAvailable` of `/proc/meminfo`); `None` where it
/// cannot tell.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The memory this process holds now (its resident set, Linux: `/proc/self/statm`); 0 where
/// it cannot tell.
pub fn resident_memory() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

/// Bytes for people: `12.3 GiB`, `512.0 MiB`, `980 bytes`.
pub fn human_bytes(b: u64) -> String {
    const K: f64 = 1024.0;
    let f = b as f64;
    if f >= K * K * K {
        format!("{:.1} GiB", f / (K * K * K))
    } else if f >= K * K {
        format!("{:.1} MiB", f / (K * K))
    } else if f >= K {
        format!("{:.1} KiB", f / K)
    } else {
        format!("{b} bytes")
    }
}

/// A copy of `bytes` in memory the OS is asked to back with huge pages: random lookups in
/// tables of hundreds of megabytes then miss the TLB far less than in a mapped file.
pub fn copy_to_huge_pages(bytes: &[u8]) -> Vec<u8> {
    let mut v: Vec<u8> = Vec::with_capacity(bytes.len());
    advise_huge_pages(v.as_mut_ptr(), v.capacity());
    v.extend_from_slice(bytes);
    v
}

/// Asks the OS to back the whole 2 MiB pages inside `p..p + len` (memory of our own) with huge
/// pages; a refusal is harmless.
pub fn advise_huge_pages(p: *mut u8, len: usize) {
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
