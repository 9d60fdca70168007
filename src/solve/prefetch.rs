//! Cache hints: asking the processor to start loading memory that a solver will read a little
//! later. The engines whose reads land anywhere in a large table (the breadth-first searches,
//! the two-player engine's lower tiers and settle) hide most of their memory latency this way.

/// Asks the processor to start loading `addr` into the cache.
#[inline(always)]
pub(crate) fn prefetch(addr: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it never faults and never changes memory, whatever
    // the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch(addr as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = addr;
}

/// Asks the processor to bring `values[i]` into its cache, if `i` is in range (an index past
/// the end, or one that wrapped below the slice, asks for nothing).
#[inline(always)]
pub(crate) fn prefetch_entry<T>(values: &[T], i: u64) {
    if let Some(v) = values.get(i as usize) {
        prefetch((v as *const T).cast::<u8>());
    }
}
