//! A bit table kept as 64-bit atomic words, for solvers that read runs of neighbouring bits
//! ([`crate::solve::acyclic::runs`], [`crate::solve::acyclic::triangles`]): a run of up to 64 bits is one or two
//! word loads, where [`Bits`] (bytes, so that a finished table becomes its payload without a
//! copy) needs up to nine.
//!
//! The words live in an anonymous memory map (page aligned, zero until written). When the
//! solve is done, [`WordBits::into_bits`] turns them into the byte table a megabyte at a time,
//! handing each megabyte of words back to the system as soon as it is copied, so the peak
//! stays one table plus a megabyte, as with [`Bits`]. Every access during the solve is a
//! 64-bit atomic; the final copy reads plain bytes after every writer has finished.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use memmap2::{MmapMut, UncheckedAdvice};

use crate::solve::acyclic::Bits;
use crate::{Error, Result};

/// Bytes copied (and then released) at a time by [`WordBits::into_bits`]: whole pages.
const CHUNK: usize = 1 << 20;

/// One bit per position, 1 = N, in 64-bit words: position `i` is bit `i % 64` of word `i / 64`
/// (so the little-endian bytes of the words are the bytes of [`Bits`]).
pub struct WordBits {
    map: MmapMut,
    /// The map's start, taken from the mutable map once (it is only used as atomics).
    words: *const AtomicU64,
    count: usize,
    len: u64,
}

// The map is only reached through `words`, as atomics.
unsafe impl Send for WordBits {}
unsafe impl Sync for WordBits {}

impl WordBits {
    /// `len` zero bits, or an error naming the size when the memory is not available.
    pub fn try_new(len: u64) -> Result<WordBits> {
        let count = usize::try_from(len.div_ceil(64).max(1))
            .map_err(|_| Error::unsupported(format!("{len} positions do not fit in memory")))?;
        let mut map = MmapMut::map_anon(count * 8).map_err(|e| {
            Error::unsupported(format!(
                "cannot map {} bytes for the bits of {len} positions: {e}",
                count * 8
            ))
        })?;
        // Page aligned, so aligned for AtomicU64; zero-filled, which is a valid AtomicU64.
        let words = map.as_mut_ptr() as *const AtomicU64;
        Ok(WordBits {
            map,
            words,
            count,
            len,
        })
    }

    /// Memory a table of `len` bits takes at its peak, from [`WordBits::try_new`] through
    /// [`WordBits::into_bits`]: the words and one chunk of the byte table not yet released.
    pub fn memory(len: u64) -> u64 {
        len.div_ceil(64).max(1) * 8 + CHUNK as u64
    }

    /// `len` one bits (the rest of the last word zero), or an error naming the size.
    pub fn try_ones(len: u64) -> Result<WordBits> {
        let w = WordBits::try_new(len)?;
        let words = w.words();
        let full = (len / 64) as usize;
        for word in &words[..full] {
            word.store(u64::MAX, Relaxed);
        }
        if len % 64 != 0 {
            words[full].store((1 << (len % 64)) - 1, Relaxed);
        }
        Ok(w)
    }

    /// Number of 64-bit words.
    pub fn word_count(&self) -> usize {
        self.count
    }

    /// Calls `f` with each zero bit below `len` in words `words`.
    pub fn for_each_zero<F: FnMut(u64)>(&self, words: std::ops::Range<usize>, mut f: F) {
        for w in words {
            let mut zeros = !self.words()[w].load(Relaxed);
            let base = w as u64 * 64;
            if base + 64 > self.len {
                zeros &= (1u64 << (self.len - base)) - 1;
            }
            while zeros != 0 {
                f(base + zeros.trailing_zeros() as u64);
                zeros &= zeros - 1;
            }
        }
    }

    /// Copies words `first .. first + out.len()` into `out` (for saving the table between
    /// waves; a word being written meanwhile is read before or after the write).
    pub fn load_words(&self, first: usize, out: &mut [u64]) {
        for (o, w) in out.iter_mut().zip(&self.words()[first..]) {
            *o = w.load(Relaxed);
        }
    }

    /// Stores `words` at words `first ..` (for reading a saved table back).
    pub fn store_words(&self, first: usize, words: &[u64]) {
        for (w, &v) in self.words()[first..].iter().zip(words) {
            w.store(v, Relaxed);
        }
    }

    /// Clears bit `i` (safe to call from several threads).
    #[inline]
    pub fn clear(&self, i: u64) {
        self.words()[(i / 64) as usize].fetch_and(!(1 << (i % 64)), Relaxed);
    }

    #[inline]
    fn words(&self) -> &[AtomicU64] {
        // SAFETY: `words` points at `count` aligned, initialised words that live as long as
        // `self.map`, and they are only ever accessed as atomics while `self` is shared.
        unsafe { std::slice::from_raw_parts(self.words, self.count) }
    }

    /// Number of bits.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when there are no bits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bit `i`.
    #[inline]
    pub fn get(&self, i: u64) -> bool {
        self.words()[(i / 64) as usize].load(Relaxed) >> (i % 64) & 1 == 1
    }

    /// Sets bit `i` (safe to call from several threads).
    #[inline]
    pub fn set(&self, i: u64) {
        self.words()[(i / 64) as usize].fetch_or(1 << (i % 64), Relaxed);
    }

    /// Word `w` (bits `64w .. 64w + 63`).
    #[inline]
    pub fn word(&self, w: usize) -> u64 {
        self.words()[w].load(Relaxed)
    }

    /// The address of bit `i`'s byte, to prefetch it.
    #[inline]
    pub fn byte_address(&self, i: u64) -> *const u8 {
        (self.words as *const u8).wrapping_add((i / 8) as usize)
    }

    /// Number of set bits.
    pub fn count_ones(&self) -> u64 {
        use rayon::prelude::*;
        self.words()
            .par_iter()
            .map(|w| w.load(Relaxed).count_ones() as u64)
            .sum()
    }

    /// Bits `start .. start + k` (`1 ≤ k ≤ 64`) as the low bits of a word.
    #[inline]
    pub fn get_bits(&self, start: u64, k: u64) -> u64 {
        debug_assert!((1..=64).contains(&k) && start + k <= self.len);
        let words = self.words();
        let (w, s) = ((start / 64) as usize, start % 64);
        let mut v = words[w].load(Relaxed) >> s;
        if s + k > 64 {
            v |= words[w + 1].load(Relaxed) << (64 - s);
        }
        if k == 64 {
            v
        } else {
            v & ((1 << k) - 1)
        }
    }

    /// Sets the bits of `mask` (its low `k ≤ 64` bits) at positions `start .. start + k`
    /// (safe to call from several threads).
    #[inline]
    pub fn or_bits(&self, start: u64, k: u64, mask: u64) {
        debug_assert!(k <= 64 && start + k <= self.len);
        let mask = if k == 64 { mask } else { mask & ((1 << k) - 1) };
        if mask == 0 {
            return;
        }
        let words = self.words();
        let (w, s) = ((start / 64) as usize, start % 64);
        words[w].fetch_or(mask << s, Relaxed);
        if s + k > 64 {
            let high = mask >> (64 - s);
            if high != 0 {
                words[w + 1].fetch_or(high, Relaxed);
            }
        }
    }

    /// The same bits as a byte table, a megabyte at a time, releasing the words as it goes.
    pub fn into_bits(self) -> Result<Bits> {
        let n = self.len.div_ceil(8) as usize;
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(n).map_err(|_| {
            Error::unsupported(format!(
                "cannot allocate {n} bytes for the bits of {} positions",
                self.len
            ))
        })?;
        if cfg!(target_endian = "big") {
            for w in self.words() {
                bytes.extend_from_slice(&w.load(Relaxed).to_le_bytes());
            }
            bytes.truncate(n);
            return Ok(Bits::from_bytes(bytes, self.len));
        }
        // Every writer has finished (we own `self`): the words can be read as plain bytes,
        // which on a little-endian machine are the table's bytes in order.
        let mut at = 0;
        while at < n {
            let end = (at + CHUNK).min(n);
            bytes.extend_from_slice(&self.map[at..end]);
            let release = (at + CHUNK).min(self.map.len()) - at;
            // SAFETY: these pages are never read again (DontNeed would show them as zeros).
            unsafe {
                let _ = self
                    .map
                    .unchecked_advise_range(UncheckedAdvice::DontNeed, at, release);
            }
            at = end;
        }
        Ok(Bits::from_bytes(bytes, self.len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_become_the_same_bytes() {
        for len in [1u64, 7, 64, 65, 1000, (3 << 20) * 8 + 13] {
            let w = WordBits::try_new(len).unwrap();
            let picks: Vec<u64> = (0..len).filter(|i| i % 7 == 3 || i % 64 == 63).collect();
            for &i in &picks {
                w.or_bits(i, 1, 1);
            }
            if len > 100 {
                w.or_bits(60, 10, 0b10_0000_0001);
                assert_eq!(w.get_bits(60, 10) & 0b10_0000_0001, 0b10_0000_0001);
            }
            let expected: Vec<bool> = (0..len).map(|i| w.get(i)).collect();
            let bits = w.into_bits().unwrap();
            assert_eq!(bits.len(), len);
            for i in 0..len {
                assert_eq!(bits.get(i), expected[i as usize], "bit {i} of {len}");
            }
            assert!(picks.iter().all(|&i| bits.get(i)));
        }
    }

    #[test]
    fn ones_and_their_zeros() {
        for len in [1u64, 63, 64, 65, 200] {
            let w = WordBits::try_ones(len).unwrap();
            w.clear(len / 2);
            w.clear(len - 1);
            let mut zeros = Vec::new();
            w.for_each_zero(0..w.word_count(), |i| zeros.push(i));
            let mut want = vec![len / 2, len - 1];
            want.dedup();
            assert_eq!(zeros, want, "{len}");
            let bits = w.into_bits().unwrap();
            assert_eq!(bits.count_ones(), len - want.len() as u64);
        }
    }

    #[test]
    fn runs_of_bits_across_words() {
        let w = WordBits::try_new(300).unwrap();
        w.or_bits(50, 30, (1 << 30) - 1);
        assert_eq!(w.get_bits(49, 32), ((1u64 << 30) - 1) << 1);
        assert_eq!(w.get_bits(0, 64), !0 << 50);
        assert_eq!(w.get_bits(64, 64), (1 << 16) - 1);
        assert!(!w.get(80) && w.get(79) && !w.get(49));
    }
}
