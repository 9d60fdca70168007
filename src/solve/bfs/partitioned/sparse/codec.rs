//! How the sparse store compresses a sorted list: blocks of [`BLOCK`] entries, each starting
//! afresh (so blocks decode independently), the positions as gaps in groups of four behind a
//! byte of their lengths (see [`LENS`]), then the masks, two to a byte. [`Writer`] encodes,
//! [`decode`] decodes one block. (`spill.rs` keeps what the writer made, in memory or in a
//! file, and reads it back through [`decode`].)

use crate::solve::bfs::partitioned::sparse::{BLOCK, MASK, MASK_BITS};
use crate::{Error, Result};

/// Where a full group's gaps start, after its tag byte `tag`, and where the group ends.
struct Group {
    starts: [u8; 4],
    end: u8,
}

const GROUPS: [Group; 256] = {
    let mut t = [const {
        Group {
            starts: [0; 4],
            end: 0,
        }
    }; 256];
    let mut tag = 0;
    while tag < 256 {
        let mut at = 1;
        let mut g = 0;
        while g < 4 {
            t[tag].starts[g] = at as u8;
            at += LENS[tag >> (2 * g) & 3];
            g += 1;
        }
        t[tag].end = at as u8;
        tag += 1;
    }
    t
};

/// The mask that keeps a gap of length code `c` (see [`LENS`]) from eight bytes read.
const KEEP: [u64; 4] = [0xff, 0xffff, 0xff_ffff, u64::MAX];

/// Decodes a block of `count` entries from its bytes into `out` (entries: position and mask).
pub(super) fn decode(bytes: &[u8], count: usize, out: &mut Vec<u64>) -> Result<()> {
    let wrong = || Error::internal("a compressed block decodes to the wrong count");
    // The gaps in groups, then the masks two to a byte.
    let split = bytes
        .len()
        .checked_sub(count.div_ceil(2))
        .ok_or_else(wrong)?;
    out.clear();
    out.resize(count, 0);
    let (mut i, mut n, mut last) = (0usize, 0usize, 0u64);
    // Full groups whose eight-byte reads stay inside the block: one table lookup for where
    // the four gaps start, four unaligned loads.
    while n + 4 <= count {
        let Some(&tag) = bytes[..split].get(i) else {
            return Err(wrong());
        };
        let group = &GROUPS[tag as usize];
        let end = i + group.end as usize;
        if end > split {
            return Err(wrong());
        }
        let Some(raw) = bytes.get(i..i + group.starts[3] as usize + 8) else {
            break;
        };
        for g in 0..4 {
            let at = group.starts[g] as usize;
            let word = u64::from_le_bytes(raw[at..at + 8].try_into().expect("eight bytes"));
            let gap = word & KEEP[(tag >> (2 * g) & 3) as usize];
            last = if n == 0 { gap } else { last + gap };
            out[n] = last << MASK_BITS;
            n += 1;
        }
        i = end;
    }
    while n < count {
        let tag = *bytes[..split].get(i).ok_or_else(wrong)?;
        i += 1;
        for g in 0..(count - n).min(4) {
            let len = LENS[(tag >> (2 * g) & 3) as usize];
            if i + len > split {
                return Err(wrong());
            }
            let gap = read_le(bytes, i, len);
            i += len;
            last = if n == 0 { gap } else { last + gap };
            out[n] = last << MASK_BITS;
            n += 1;
        }
    }
    if i != split {
        return Err(wrong());
    }
    for (pair, &m) in out.chunks_mut(2).zip(&bytes[split..]) {
        pair[0] |= (m & 0xf) as u64;
        if let Some(e) = pair.get_mut(1) {
            *e |= (m >> 4) as u64;
        }
    }
    Ok(())
}

/// Bytes of a gap by its 2-bit length code. At the 4×4's deep levels most gaps take two
/// bytes (LEB128 took three for every gap from 2^14); a block's first position, and the long
/// gaps of the early, thin levels, take eight.
const LENS: [usize; 4] = [1, 2, 3, 8];

/// The length code of `v` (see [`LENS`]).
#[inline(always)]
fn len_code(v: u64) -> u8 {
    (v >= 1 << 8) as u8 + (v >= 1 << 16) as u8 + (v >= 1 << 24) as u8
}

/// The `len` bytes at `at`, little-endian. One unaligned load where eight bytes are there
/// (the block's masks follow its gaps, so they mostly are).
#[inline(always)]
fn read_le(bytes: &[u8], at: usize, len: usize) -> u64 {
    match bytes.get(at..at + 8) {
        Some(b) => {
            let v = u64::from_le_bytes(b.try_into().expect("eight bytes"));
            if len == 8 {
                v
            } else {
                v & ((1 << (8 * len)) - 1)
            }
        }
        None => {
            let mut b = [0u8; 8];
            b[..len].copy_from_slice(&bytes[at..at + len]);
            u64::from_le_bytes(b)
        }
    }
}

/// A list as the [`Writer`] made it: the bytes of its blocks, where each block ends (after
/// the first offset, 0), the entries of each block, and the entries in all.
pub(super) struct Encoded {
    pub(super) bytes: Vec<u8>,
    pub(super) offsets: Vec<u64>,
    pub(super) counts: Vec<u32>,
    pub(super) len: u64,
}

/// Encodes entries of increasing positions as an [`Encoded`] list.
pub(super) struct Writer {
    buf: Vec<u8>,
    offsets: Vec<u64>,
    counts: Vec<u32>,
    /// Entries of the open block (0: none is open).
    open: usize,
    /// The masks of the open block, two to a byte, written after its gaps.
    masks: Box<[u8; BLOCK / 2]>,
    /// Gaps waiting for their group of four to be written.
    group: [u64; 4],
    grouped: usize,
    last: u64,
    len: u64,
}

impl Writer {
    pub(super) fn new() -> Writer {
        Writer {
            buf: Vec::new(),
            offsets: vec![0],
            counts: Vec::new(),
            open: 0,
            masks: Box::new([0; BLOCK / 2]),
            group: [0; 4],
            grouped: 0,
            last: 0,
            len: 0,
        }
    }

    #[inline]
    pub(super) fn push(&mut self, entry: u64) {
        let (v, mask) = (entry >> MASK_BITS, (entry & MASK) as u8);
        let gap = if self.open == 0 || self.open == BLOCK {
            self.close_block();
            v
        } else {
            v - self.last
        };
        let i = self.open;
        let m = &mut self.masks[i / 2];
        *m = if i % 2 == 0 { mask } else { *m | mask << 4 };
        self.open += 1;
        self.last = v;
        self.len += 1;
        self.group[self.grouped] = gap;
        self.grouped += 1;
        if self.grouped == 4 {
            self.write_group();
        }
    }

    /// Writes the waiting gaps: their length codes in one byte, then each in its length.
    /// Built in a scratch array: each gap is stored as eight bytes and the next one starts
    /// where its length ends.
    #[inline]
    fn write_group(&mut self) {
        let mut out = [0u8; 1 + 4 * 8];
        let (mut tag, mut at) = (0u8, 1usize);
        for (g, &gap) in self.group[..self.grouped].iter().enumerate() {
            let code = len_code(gap);
            tag |= code << (2 * g);
            out[at..at + 8].copy_from_slice(&gap.to_le_bytes());
            at += LENS[code as usize];
        }
        out[0] = tag;
        // All of it and cut back: a copy of a constant length is inlined, not a call.
        let end = self.buf.len() + at;
        self.buf.extend_from_slice(&out);
        self.buf.truncate(end);
        self.grouped = 0;
    }

    /// Ends the open block, if any: its last group, then its masks, and its end is an offset.
    fn close_block(&mut self) {
        if self.open > 0 {
            if self.grouped > 0 {
                self.write_group();
            }
            self.buf
                .extend_from_slice(&self.masks[..self.open.div_ceil(2)]);
            self.offsets.push(self.buf.len() as u64);
            self.counts.push(self.open as u32);
            self.open = 0;
        }
    }

    /// The list, its last block closed.
    pub(super) fn finish(mut self) -> Encoded {
        self.close_block();
        Encoded {
            bytes: self.buf,
            offsets: self.offsets,
            counts: self.counts,
            len: self.len,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The entries of every block of `list`, decoded.
    fn decoded(list: &Encoded) -> Result<Vec<u64>> {
        let (mut all, mut block) = (Vec::new(), Vec::new());
        for (k, &count) in list.counts.iter().enumerate() {
            let bytes = &list.bytes[list.offsets[k] as usize..list.offsets[k + 1] as usize];
            decode(bytes, count as usize, &mut block)?;
            all.extend_from_slice(&block);
        }
        Ok(all)
    }

    #[test]
    fn gaps_of_every_length_round_trip() {
        // Gaps of one, two, three and eight bytes, blocks of every length mod 4 (a last group
        // of one to four gaps), positions up to 2^60, and every mask.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for len in [1usize, 2, 3, 4, 5, 4095, 4096, 4097, 3 * BLOCK + 2] {
            let mut v = 0u64;
            let entries: Vec<u64> = (0..len)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let bits = [1, 7, 8, 15, 16, 23, 24, 40][i % 8];
                    v += 1 + (x >> 20) % (1 << bits);
                    v << MASK_BITS | (x & MASK)
                })
                .collect();
            let mut w = Writer::new();
            for &e in &entries {
                w.push(e);
            }
            let list = w.finish();
            assert_eq!(list.len, len as u64);
            assert_eq!(decoded(&list).unwrap(), entries, "{len}");
        }
        let mut w = Writer::new();
        w.push((1u64 << 59) << MASK_BITS | 5);
        w.push(((1u64 << 59) + (1 << 58)) << MASK_BITS | 9);
        let list = w.finish();
        assert_eq!(
            decoded(&list).unwrap(),
            [
                (1u64 << 59) << MASK_BITS | 5,
                ((1u64 << 59) + (1 << 58)) << MASK_BITS | 9
            ]
        );
        // A block cut short decodes to an error, not to wrong entries.
        let mut bytes = list.bytes.clone();
        bytes.remove(3);
        assert!(decode(&bytes, list.counts[0] as usize, &mut Vec::new()).is_err());
    }
}
