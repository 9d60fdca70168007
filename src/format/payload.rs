//! The encodings of a table's values: how a solver's [`Solved`] values become payload bytes,
//! and how entries are read back. Encoder and decoder live side by side here; nothing else in
//! the crate chooses an encoding or reads payload bytes.
//!
//! | value kind   | encoding | entry `i`                                                          |
//! |--------------|----------|--------------------------------------------------------------------|
//! | `outcome`    | `bits`   | bit `i % 8` of byte `i / 8`, 1 = N                                 |
//! | `grundy`     | `u8`     | byte `i` (every value ≤ 255)                                       |
//! | `grundy`     | `u16`    | bytes `2i, 2i+1`, little-endian (some value > 255)                 |
//! | `distance`   | `u8`     | byte `i`; [`UNREACHED`] (255) where the goal is out of reach       |
//! | `distance`   | `mod3`   | two bits of byte `i / 4` (below): the code of [`mod3`]             |
//! | `extension`  | `u16`    | bytes `2i, 2i+1`, little-endian: 0 none, else 1 + offset           |
//! | `extension`  | `u24`    | bytes `3i..3i+3`, little-endian: the same (offsets past two bytes) |
//! | `remoteness` | `u8`     | byte `i`: the entry of [`standing`] (every remoteness ≤ 15)        |
//! | `remoteness` | `u16`    | bytes `2i, 2i+1`, little-endian: the same (a remoteness > 15)      |
//! | `wlt`        | `u2`     | two bits of byte `i / 4` (below): the code of [`wlt`]              |
//! | `dtz`        | `u8`     | byte `i`: [`standing`]'s entry, its distance to zeroing ≤ 15       |
//! | `dtz`        | `u16`    | bytes `2i, 2i+1`, little-endian: the same (a distance > 15)        |
//!
//! Two bits of byte `i / 4` are its bits `2(i % 4)` and `2(i % 4) + 1`, the unused ones of the
//! last byte 0; the [`wlt`] codes are 0 no position, 1 lose, 2 win, 3 tie or draw.
//!
//! The codes of the value kinds and encodings are in the [module](super) docs; a test
//! (`tests/format_docs.rs`) holds this table's pairs to [`Encoding::holds`].
//!
//! The mod3 encoding keeps a distance modulo 3 (0 not reached, `1 + d mod 3` otherwise), a
//! quarter of a byte table, for puzzles whose moves change the distance by exactly one: lookups
//! find the exact distance by descending to the goal (see `crate::lookup`). Its tables are
//! written in pieces by `gamedb enumerate` (`mod3_bytes` and `format::TableParts`), never
//! held twice in memory.

use std::ops::Range;

#[cfg(doc)]
use super::entries::{mod3, standing, wlt, UNREACHED};
use super::Solved;
use crate::model::{Outcome, ValueKind};

/// The code of a value kind in table headers (the header's `value_kind` field).
pub fn value_kind_code(kind: ValueKind) -> u32 {
    match kind {
        ValueKind::Outcome => 1,
        ValueKind::Grundy => 2,
        ValueKind::Distance => 3,
        ValueKind::Extension => 4,
        ValueKind::Remoteness => 5,
        ValueKind::Wlt => 6,
        ValueKind::Dtz => 7,
    }
}

/// The value kind stored as `code` in table headers; `None` for a code no table writes.
pub fn value_kind(code: u32) -> Option<ValueKind> {
    ValueKind::ALL
        .into_iter()
        .find(|&k| value_kind_code(k) == code)
}

/// How each entry is stored in the payload. Non-exhaustive: larger values or denser packings
/// bring new encodings (as `Mod3`, `U24` and `U2` came after the first three).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Encoding {
    /// One bit per entry, entry `i` in bit `i % 8` of byte `i / 8`.
    Bits = 1,
    /// One byte per entry.
    U8 = 2,
    /// Two bytes per entry, little-endian.
    U16 = 3,
    /// Two bits per entry, four a byte: distance mod 3 plus "not reached" ([`mod3`]).
    Mod3 = 4,
    /// Three bytes per entry, little-endian (extension values too large for two bytes).
    U24 = 5,
    /// Two bits per entry, four a byte, packed as `Mod3` is: win, lose or tie-or-draw plus
    /// "no position" ([`wlt`]).
    U2 = 6,
}

impl Encoding {
    /// Every encoding, in the order of their codes.
    pub const ALL: [Encoding; 6] = [
        Encoding::Bits,
        Encoding::U8,
        Encoding::U16,
        Encoding::Mod3,
        Encoding::U24,
        Encoding::U2,
    ];

    /// The encoding stored as `code` in table headers.
    pub(crate) fn from_code(code: u32) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.code() == code)
    }

    /// The code stored in table headers.
    pub fn code(self) -> u32 {
        self as u32
    }

    /// Payload length in bytes for `entries` entries.
    pub fn payload_len(self, entries: u64) -> Option<u64> {
        match self {
            Encoding::Bits => Some(entries.div_ceil(8)),
            Encoding::U8 => Some(entries),
            Encoding::U16 => entries.checked_mul(2),
            Encoding::Mod3 | Encoding::U2 => Some(entries.div_ceil(MOD3_PER_BYTE)),
            Encoding::U24 => entries.checked_mul(3),
        }
    }

    /// Lower-case name used in `info`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Bits => "bits",
            Encoding::U8 => "u8",
            Encoding::U16 => "u16",
            Encoding::Mod3 => "mod3",
            Encoding::U24 => "u24",
            Encoding::U2 => "u2",
        }
    }

    /// The numpy type (`dtype` text) of an array over the payload as it is stored, without a
    /// copy: `u1` for bits (the packed bytes, eight entries each) and u8 (an entry each), `<u2`
    /// for u16 (little-endian, an entry each); `None` for the encodings no numpy element type
    /// reads (mod3 and u2 pack four entries a byte, u24 takes three bytes an entry).
    pub fn numpy_dtype(self) -> Option<&'static str> {
        match self {
            Encoding::Bits | Encoding::U8 => Some("u1"),
            Encoding::U16 => Some("<u2"),
            Encoding::Mod3 | Encoding::U24 | Encoding::U2 => None,
        }
    }

    /// Whether values of `kind` may be stored this way (the table above).
    pub fn holds(self, kind: ValueKind) -> bool {
        matches!(
            (kind, self),
            (ValueKind::Outcome, Encoding::Bits)
                | (ValueKind::Grundy, Encoding::U8 | Encoding::U16)
                | (ValueKind::Distance, Encoding::U8 | Encoding::Mod3)
                | (ValueKind::Extension, Encoding::U16 | Encoding::U24)
                | (
                    ValueKind::Remoteness | ValueKind::Dtz,
                    Encoding::U8 | Encoding::U16
                )
                | (ValueKind::Wlt, Encoding::U2)
        )
    }
}

/// Entries per byte of a mod3 or u2 payload.
pub const MOD3_PER_BYTE: u64 = 4;

/// Appends to `out` the mod3 payload bytes of codes packed 32 to a word (entry `i` of the
/// words in bits `2(i % 32)`, `2(i % 32) + 1` of word `i / 32`, as the breadth-first engine
/// keeps them): payload bytes `from / 4 .. to.div_ceil(4)` of entries `from..to` (`from` a
/// multiple of 32), `words` starting at entry `from`. Codes past `to` in the last byte must be
/// 0, as the format requires.
pub(crate) fn mod3_bytes(words: &[u64], from: u64, to: u64, out: &mut Vec<u8>) {
    debug_assert_eq!(from % 32, 0);
    let bytes = (to.div_ceil(MOD3_PER_BYTE) - from / MOD3_PER_BYTE) as usize;
    let start = out.len();
    // Entry i of a little-endian word lands in byte i / 4 at bits 2(i % 4): the same packing.
    for w in &words[..bytes.div_ceil(8)] {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.truncate(start + bytes);
}

/// The largest payload of `entries` values of `kind`: Grundy values may need two bytes each
/// (whether they do is known only once solved), extension values three.
pub(crate) fn max_payload_len(kind: ValueKind, entries: u64) -> u64 {
    match kind {
        ValueKind::Outcome => entries.div_ceil(8),
        ValueKind::Grundy | ValueKind::Remoteness | ValueKind::Dtz => entries.saturating_mul(2),
        ValueKind::Extension => entries.saturating_mul(3),
        ValueKind::Distance => entries,
        ValueKind::Wlt => entries.div_ceil(MOD3_PER_BYTE),
    }
}

/// Memory [`encode`] needs beyond the solved values it is given: none for bits and distances
/// (their storage becomes the payload), a new payload for Grundy values (at most two bytes
/// each).
pub(crate) fn encode_memory(kind: ValueKind, entries: u64) -> u64 {
    match kind {
        ValueKind::Grundy | ValueKind::Remoteness | ValueKind::Dtz => entries.saturating_mul(2),
        _ => 0,
    }
}

/// Solved values in their stored form.
#[derive(Debug)]
pub struct Encoded {
    /// What the values mean.
    pub kind: ValueKind,
    /// How they are stored.
    pub encoding: Encoding,
    /// Number of entries.
    pub entries: u64,
    /// The payload bytes.
    pub bytes: Vec<u8>,
}

/// Encodes solved values: bits as they are, Grundy values in one byte each when they all fit
/// and two otherwise, distances one byte each. Reuses the solver's storage where it can.
pub fn encode(solved: Solved) -> Encoded {
    let kind = solved.kind();
    let entries = solved.len();
    let (encoding, bytes) = match solved {
        Solved::Outcomes { bits, .. } => (Encoding::Bits, bits),
        Solved::Wlt { bytes, .. } => (Encoding::U2, bytes),
        Solved::Distances(bytes) | Solved::GrundyBytes(bytes) => (Encoding::U8, bytes),
        Solved::Extensions { bytes, wide, .. } => {
            (if wide { Encoding::U24 } else { Encoding::U16 }, bytes)
        }
        Solved::Grundy(values) | Solved::Standings(values) | Solved::Dtz(values) => {
            if values.iter().all(|&v| v <= u8::MAX as u16) {
                (Encoding::U8, values.into_iter().map(|v| v as u8).collect())
            } else {
                let bytes = values.into_iter().flat_map(u16::to_le_bytes).collect();
                (Encoding::U16, bytes)
            }
        }
    };
    Encoded {
        kind,
        encoding,
        entries,
        bytes,
    }
}

/// Read access to the entries of a payload whose length was checked against its header.
#[derive(Clone, Copy)]
pub struct Entries<'a> {
    bytes: &'a [u8],
    kind: ValueKind,
    encoding: Encoding,
    len: u64,
}

impl<'a> Entries<'a> {
    /// The entries of `bytes`; `None` when the encoding cannot hold `kind` values or the
    /// length does not fit `len` entries.
    pub fn new(bytes: &'a [u8], kind: ValueKind, encoding: Encoding, len: u64) -> Option<Self> {
        (encoding.holds(kind) && encoding.payload_len(len) == Some(bytes.len() as u64)).then_some(
            Entries {
                bytes,
                kind,
                encoding,
                len,
            },
        )
    }

    /// The entries of a payload already checked with [`Entries::new`] (by a table when it
    /// was opened): no check again on the lookup path. Reads stay bounds-checked.
    #[inline]
    pub(crate) fn checked(bytes: &'a [u8], kind: ValueKind, encoding: Encoding, len: u64) -> Self {
        Entries {
            bytes,
            kind,
            encoding,
            len,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// What the values mean.
    pub fn kind(&self) -> ValueKind {
        self.kind
    }

    /// How they are stored.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The stored value of entry `index`: the bit (1 = N), the byte or the u16. Panics when
    /// `index` is not below [`len`](Entries::len), like slice indexing.
    #[inline]
    pub fn raw(&self, index: u64) -> u32 {
        let p = self.bytes;
        let i = index as usize;
        match self.encoding {
            Encoding::Bits => (p[i / 8] >> (i % 8) & 1) as u32,
            Encoding::U8 => p[i] as u32,
            Encoding::U16 => u16::from_le_bytes([p[2 * i], p[2 * i + 1]]) as u32,
            Encoding::Mod3 | Encoding::U2 => (p[i / 4] >> (2 * (i % 4)) & 3) as u32,
            Encoding::U24 => u32::from_le_bytes([p[3 * i], p[3 * i + 1], p[3 * i + 2], 0]),
        }
    }

    /// The stored value of entry `index`, or `None` when `index` is not below
    /// [`len`](Entries::len) (a bit table's last byte has padding bits past it: slice
    /// indexing alone would read them as an answer).
    #[inline]
    pub fn get(&self, index: u64) -> Option<u32> {
        (index < self.len).then(|| self.raw(index))
    }

    /// P or N of entry `index` (outcome and Grundy tables: Grundy value 0 is P).
    #[inline]
    pub fn outcome(&self, index: u64) -> Outcome {
        Outcome::from_win(self.raw(index) != 0)
    }

    /// Appends the outcomes of entries `indices` to `out` (each below [`len`](Entries::len)).
    ///
    /// Faster than calling [`outcome`](Entries::outcome) in a loop on large tables: the loop
    /// does nothing but read, so the processor overlaps the reads' cache misses.
    pub(crate) fn outcomes_at(&self, indices: &[u64], out: &mut Vec<Outcome>) {
        let p = self.bytes;
        match self.encoding {
            Encoding::Bits => out.extend(indices.iter().map(|&i| {
                let i = i as usize;
                Outcome::from_win(p[i / 8] >> (i % 8) & 1 == 1)
            })),
            Encoding::U8 => out.extend(
                indices
                    .iter()
                    .map(|&i| Outcome::from_win(p[i as usize] != 0)),
            ),
            Encoding::U16 | Encoding::Mod3 | Encoding::U24 | Encoding::U2 => {
                out.extend(indices.iter().map(|&i| self.outcome(i)))
            }
        }
    }

    /// The indices of `range` (each below [`len`](Entries::len)) whose entry's outcome is
    /// `want`, in increasing order. On a bit table whose range starts at a byte, a byte of
    /// eight entries is tested at once (a P-list of a large box skips most bytes whole).
    pub(crate) fn with_outcome(
        self,
        range: Range<u64>,
        want: Outcome,
    ) -> Box<dyn Iterator<Item = u64> + 'a> {
        if self.encoding != Encoding::Bits || range.start % 8 != 0 {
            return Box::new(range.filter(move |&i| self.outcome(i) == want));
        }
        let bytes = self.bytes;
        let end = range.end;
        let first = (range.start / 8) as usize;
        let last = range.end.div_ceil(8) as usize;
        Box::new((first..last).flat_map(move |b| {
            // Bits set where the entry has the wanted outcome (1 = N).
            let mut bits = if want == Outcome::N {
                bytes[b]
            } else {
                !bytes[b]
            };
            std::iter::from_fn(move || {
                while bits != 0 {
                    let i = b as u64 * 8 + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    if i < end {
                        return Some(i);
                    }
                }
                None
            })
        }))
    }

    /// The entries as one slice, entry `i` at byte `i`, when they are stored one byte each
    /// (u8); `None` for the other encodings.
    pub(crate) fn u8_slice(&self) -> Option<&'a [u8]> {
        (self.encoding == Encoding::U8).then_some(self.bytes)
    }

    /// Calls `f` with the index of every entry whose outcome is P, in increasing order.
    pub(crate) fn for_each_p(&self, f: &mut dyn FnMut(u64)) {
        if self.encoding != Encoding::Bits {
            for i in 0..self.len {
                if self.raw(i) == 0 {
                    f(i)
                }
            }
            return;
        }
        // Bit tables: skip whole bytes of N-positions.
        for (b, &byte) in self.bytes.iter().enumerate() {
            let mut zeros = !byte;
            while zeros != 0 {
                let i = b as u64 * 8 + zeros.trailing_zeros() as u64;
                if i >= self.len {
                    return;
                }
                f(i);
                zeros &= zeros - 1;
            }
        }
    }

    /// Number of entries whose outcome is P.
    pub fn count_p(&self) -> u64 {
        match self.encoding {
            Encoding::Bits => {
                let ones: u64 = self.bytes.iter().map(|b| b.count_ones() as u64).sum();
                self.len - ones
            }
            _ => (0..self.len).filter(|&i| self.raw(i) == 0).count() as u64,
        }
    }

    /// How many entries hold each value (`counts[v]`, up to the largest value present; for
    /// bit tables `[P, N]`; for mod3 tables the codes, `[unreached, ≡ 0, ≡ 1, ≡ 2]`; for u2
    /// tables the [`wlt`] codes, `[no position, lose, win, tie or draw]`).
    /// Parallel; the counts do not depend on the thread count.
    pub fn histogram(&self) -> Vec<u64> {
        use rayon::prelude::*;
        if self.encoding == Encoding::Bits {
            let p = self.count_p();
            return vec![p, self.len - p];
        }
        if matches!(self.encoding, Encoding::Mod3 | Encoding::U2) {
            let bytes = Entries {
                encoding: Encoding::U8,
                ..*self
            }
            .histogram();
            let mut codes = vec![0u64; 4];
            for (b, n) in bytes.iter().enumerate() {
                for k in 0..MOD3_PER_BYTE {
                    codes[b >> (2 * k) & 3] += n;
                }
            }
            // The unused entries of the last byte hold code 0 too.
            codes[0] -= self.bytes.len() as u64 * MOD3_PER_BYTE - self.len;
            while codes.last() == Some(&0) {
                codes.pop();
            }
            return codes;
        }
        if self.encoding == Encoding::U24 {
            // Up to 2^24 values: count into a vector as long as the largest value seen.
            let mut counts = self
                .bytes
                .par_chunks(3 << 20)
                .map(|c| {
                    let mut h = Vec::new();
                    for v in c.chunks_exact(3) {
                        let v = u32::from_le_bytes([v[0], v[1], v[2], 0]) as usize;
                        if v >= h.len() {
                            h.resize(v + 1, 0u64);
                        }
                        h[v] += 1;
                    }
                    h
                })
                .reduce(Vec::new, |mut a, b| {
                    if b.len() > a.len() {
                        a.resize(b.len(), 0);
                    }
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                });
            while counts.last() == Some(&0) {
                counts.pop();
            }
            return counts;
        }
        let width = if self.encoding == Encoding::U16 { 2 } else { 1 };
        let size = if self.encoding == Encoding::U16 {
            1 << 16
        } else {
            256
        };
        let mut counts = self
            .bytes
            .par_chunks(width << 20)
            .map(|c| {
                let mut h = vec![0u64; size];
                match self.encoding {
                    Encoding::U16 => {
                        for v in c.chunks_exact(2) {
                            h[u16::from_le_bytes([v[0], v[1]]) as usize] += 1;
                        }
                    }
                    _ => {
                        for &b in c {
                            h[b as usize] += 1;
                        }
                    }
                }
                h
            })
            .reduce(
                || vec![0u64; size],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        while counts.last() == Some(&0) {
            counts.pop();
        }
        counts
    }

    /// Appends the stored values of the `count` entries `first`, `first + step`, ... to `out`
    /// (each below [`len`](Entries::len)): a run of one-byte or two-byte entries is read as a
    /// slice, without a test of the encoding per entry.
    pub(crate) fn read_into(&self, first: u64, step: u64, count: usize, out: &mut Vec<u32>) {
        let (p, i) = (self.bytes, first as usize);
        match (self.encoding, step) {
            (Encoding::U8, 1) => out.extend(p[i..i + count].iter().map(|&b| b as u32)),
            (Encoding::U16, 1) => out.extend(
                p[2 * i..2 * (i + count)]
                    .chunks_exact(2)
                    .map(|v| u16::from_le_bytes([v[0], v[1]]) as u32),
            ),
            _ => out.extend((0..count as u64).map(|j| self.raw(first + step * j))),
        }
    }

    /// Adds to `counts[v]` the number of the `count` entries `first`, `first + step`, ...
    /// (each below [`len`](Entries::len)) that hold `v`, growing `counts` to the largest value
    /// seen. A run of one-byte entries is counted from the slice into four tables at once, so
    /// that repeated values do not wait on each other's increments.
    pub(crate) fn count_into(&self, first: u64, step: u64, count: usize, counts: &mut Vec<u64>) {
        if (self.encoding, step) == (Encoding::U8, 1) {
            let i = first as usize;
            let bytes = &self.bytes[i..i + count];
            let mut four = [[0u64; 256]; 4];
            let mut quads = bytes.chunks_exact(4);
            for q in quads.by_ref() {
                four[0][q[0] as usize] += 1;
                four[1][q[1] as usize] += 1;
                four[2][q[2] as usize] += 1;
                four[3][q[3] as usize] += 1;
            }
            for &b in quads.remainder() {
                four[0][b as usize] += 1;
            }
            let top = (0..256).rev().find(|&v| four.iter().any(|t| t[v] > 0));
            if let Some(top) = top {
                if counts.len() <= top {
                    counts.resize(top + 1, 0);
                }
                for (v, c) in counts.iter_mut().enumerate().take(top + 1) {
                    *c += four.iter().map(|t| t[v]).sum::<u64>();
                }
            }
            return;
        }
        let mut buf = Vec::with_capacity(count.min(1 << 16));
        let mut done = 0;
        while done < count {
            let n = (count - done).min(1 << 16);
            buf.clear();
            self.read_into(first + step * done as u64, step, n, &mut buf);
            for &v in &buf {
                let v = v as usize;
                if v >= counts.len() {
                    counts.resize(v + 1, 0);
                }
                counts[v] += 1;
            }
            done += n;
        }
    }

    /// The index of every entry holding `value`, in increasing order, at most `limit` of them.
    pub fn find(&self, value: u32, limit: usize) -> Vec<u64> {
        (0..self.len)
            .filter(|&i| self.raw(i) == value)
            .take(limit)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::entries::{mod3, standing, wlt};

    #[test]
    fn grundy_values_take_one_byte_when_they_fit() {
        let small = encode(Solved::Grundy(vec![0, 3, 255]));
        assert_eq!(
            (small.encoding, small.bytes),
            (Encoding::U8, vec![0, 3, 255])
        );
        let large = encode(Solved::Grundy(vec![0, 256]));
        assert_eq!(
            (large.encoding, large.bytes),
            (Encoding::U16, vec![0, 0, 0, 1])
        );
    }

    #[test]
    fn entries_read_what_was_encoded() {
        let e = encode(Solved::Grundy(vec![0, 300, 7, 0]));
        let entries = Entries::new(&e.bytes, e.kind, e.encoding, e.entries).unwrap();
        assert_eq!(
            (0..4).map(|i| entries.raw(i)).collect::<Vec<_>>(),
            [0, 300, 7, 0]
        );
        assert_eq!(entries.count_p(), 2);
        let mut p = Vec::new();
        entries.for_each_p(&mut |i| p.push(i));
        assert_eq!(p, [0, 3]);
        assert_eq!(entries.histogram()[300], 1);
        // A length that does not fit, or a kind the encoding cannot hold, is refused.
        assert!(Entries::new(&e.bytes[1..], e.kind, e.encoding, e.entries).is_none());
        assert!(Entries::new(&e.bytes, ValueKind::Distance, e.encoding, e.entries).is_none());
    }

    #[test]
    fn wide_extension_values_take_three_bytes() {
        // Entries 0, 1, 65_536 and 2^24 − 1, three bytes each, little-endian.
        let bytes = vec![0, 0, 0, 1, 0, 0, 0, 0, 1, 255, 255, 255];
        let e = encode(Solved::Extensions {
            bytes: bytes.clone(),
            len: 4,
            wide: true,
        });
        assert_eq!((e.encoding, e.encoding.name()), (Encoding::U24, "u24"));
        assert_eq!(Encoding::from_code(5), Some(Encoding::U24));
        assert_eq!(Encoding::U24.payload_len(4), Some(12));
        let entries = Entries::new(&e.bytes, e.kind, e.encoding, e.entries).unwrap();
        assert_eq!(
            (0..4).map(|i| entries.raw(i)).collect::<Vec<_>>(),
            [0, 1, 65_536, (1 << 24) - 1]
        );
        let h = entries.histogram();
        assert_eq!((h.len(), h[0], h[1], h[65_536]), (1 << 24, 1, 1, 1));
        // Two-byte values stay two bytes; a length that is not a multiple of three is refused.
        let narrow = encode(Solved::Extensions {
            bytes: vec![1, 0],
            len: 1,
            wide: false,
        });
        assert_eq!(narrow.encoding, Encoding::U16);
        assert!(Entries::new(&bytes[1..], e.kind, Encoding::U24, 4).is_none());
        assert!(Entries::new(&bytes, ValueKind::Grundy, Encoding::U24, 4).is_none());
    }

    #[test]
    fn mod3_codes_pack_four_a_byte() {
        assert_eq!([0, 1, 2, 3, 4].map(mod3::code), [1, 2, 3, 1, 2]);
        for d in 1..10 {
            assert_eq!(mod3::closer(mod3::code(d)), mod3::code(d - 1));
        }
        // Entries 0..37: distances 0, 1, 2, ... with entry 2 unreached, packed in words.
        let mut words = vec![0u64; 2];
        for i in 0..37u64 {
            if i != 2 {
                words[(i / 32) as usize] |= (mod3::code(i as u32) as u64) << (2 * (i % 32));
            }
        }
        let mut bytes = Vec::new();
        mod3_bytes(&words, 0, 37, &mut bytes);
        assert_eq!(bytes.len(), 10);
        assert_eq!(bytes[0], 0b01_00_10_01);
        let e = Entries::new(&bytes, ValueKind::Distance, Encoding::Mod3, 37).unwrap();
        assert_eq!(e.raw(0), 1);
        assert_eq!(e.raw(2), 0);
        assert_eq!(e.raw(36), mod3::code(36) as u32);
        // Codes: one unreached, thirteen ≡ 0 (0, 3, ..., 36), twelve ≡ 1, eleven ≡ 2 (not 2).
        assert_eq!(e.histogram(), [1, 13, 12, 11]);
        // From a later word on: the bytes of entries 32..37.
        let mut tail = Vec::new();
        mod3_bytes(&words[1..], 32, 37, &mut tail);
        assert_eq!(tail, bytes[8..]);
        assert!(Entries::new(&bytes, ValueKind::Grundy, Encoding::Mod3, 37).is_none());
        assert!(Entries::new(&bytes, ValueKind::Distance, Encoding::Mod3, 41).is_none());
    }

    #[test]
    fn wlt_codes_pack_four_a_byte() {
        use crate::model::{Standing, Wlt};
        // Standing entries: no position, lose in 0, win in 3 (reachable), tie in 9, draw, and
        // a lose in 4: codes 0, 1, 2, 3, 3, 1.
        let entries = [
            standing::ILLEGAL,
            standing::pack(Standing::Lose, 0),
            standing::pack(Standing::Win, 3) | standing::REACHABLE,
            standing::pack(Standing::Tie, 9),
            standing::pack(Standing::Draw, 0),
            standing::pack(Standing::Lose, 4),
        ];
        let bytes = wlt::pack(&entries);
        // Entry 0 in the lowest two bits.
        assert_eq!(bytes, [0b11_10_01_00, 0b00_00_01_11]);
        let e = encode(Solved::Wlt { bytes, len: 6 });
        assert_eq!(
            (e.kind, e.encoding, e.encoding.name()),
            (ValueKind::Wlt, Encoding::U2, "u2")
        );
        assert_eq!(Encoding::from_code(6), Some(Encoding::U2));
        assert_eq!(max_payload_len(ValueKind::Wlt, 6), 2);
        let entries = Entries::new(&e.bytes, e.kind, e.encoding, e.entries).unwrap();
        let values: Vec<_> = (0..6).map(|i| wlt::value(entries.raw(i))).collect();
        assert_eq!(
            values,
            [
                None,
                Some(Wlt::Lose),
                Some(Wlt::Win),
                Some(Wlt::TieOrDraw),
                Some(Wlt::TieOrDraw),
                Some(Wlt::Lose)
            ]
        );
        // No position, lose, win, tie or draw; the unused codes of the last byte not counted.
        assert_eq!(entries.histogram(), [1, 2, 1, 2]);
        assert!(Entries::new(&e.bytes, ValueKind::Remoteness, Encoding::U2, 6).is_none());
        assert!(Entries::new(&e.bytes, ValueKind::Wlt, Encoding::U8, 2).is_none());
        assert!(Entries::new(&e.bytes, ValueKind::Wlt, Encoding::U2, 9).is_none());
    }

    #[test]
    fn outcome_bits_skip_n_bytes() {
        let bits = vec![0xFF, 0b1111_0111, 0x00];
        let entries = Entries::new(&bits, ValueKind::Outcome, Encoding::Bits, 20).unwrap();
        let mut p = Vec::new();
        entries.for_each_p(&mut |i| p.push(i));
        assert_eq!(p, [11, 16, 17, 18, 19]);
        assert_eq!(entries.count_p(), 5);
        let mut out = Vec::new();
        entries.outcomes_at(&[0, 11, 19], &mut out);
        assert_eq!(out, [Outcome::N, Outcome::P, Outcome::P]);
    }
}
