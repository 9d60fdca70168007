//! The search for many values at once, where values are two bytes each and those looked for
//! are below `VALUES`: the xor of each pair is looked up in a table of one bit a value
//! (four lookups of sixteen bytes in a register), so a block of pairs costs the same however
//! many values are looked for, where comparing costs a compare a value. Most heaps look for
//! dozens at first; once `FEW` are left, comparing is cheaper and the search goes on so.

use std::arch::x86_64::*;

use super::{block, find_lanes, Block, LANES};

/// The values looked up: below this.
pub(super) const VALUES: usize = 512;

/// Values left to find at most for the search to compare each with the pairs instead.
pub(super) const FEW: usize = 4;

/// The values looked for, one bit each: bit `v & 7` of byte `v >> 3`.
type Bits = [u8; VALUES / 8];

/// [`super::Search::find`] for values below [`VALUES`], each looked for once (no value
/// twice in `need`).
///
/// SAFETY: the processor has AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn find(
    mirror: &[u16],
    g: &[u16],
    n: usize,
    split: &[usize],
    need: &mut Vec<usize>,
) {
    let mut bits: Bits = [0; VALUES / 8];
    for &v in need.iter() {
        bits[v >> 3] |= 1 << (v & 7);
    }
    let mut left = need.len();
    let mut tables = load(&bits);
    let len = mirror.len();
    let mut a0 = 1;
    loop {
        let mut any = false;
        for &k in split {
            let Some(pairs) = block(len, n, k, a0) else {
                continue;
            };
            any = true;
            let mut found = false;
            match pairs {
                Block::Lanes { left: l, right: r } => {
                    let left_values = mirror[l..l + LANES].as_ptr();
                    let right_values = g[r..r + LANES].as_ptr();
                    let mut x = [_mm256_setzero_si256(); LANES / 16];
                    let mut hits = [_mm256_setzero_si256(); LANES / 16];
                    for i in 0..LANES / 16 {
                        x[i] = _mm256_xor_si256(
                            _mm256_loadu_si256(left_values.add(16 * i) as *const __m256i),
                            _mm256_loadu_si256(right_values.add(16 * i) as *const __m256i),
                        );
                        hits[i] = member(&tables, x[i]);
                    }
                    let any_hit = _mm256_or_si256(
                        _mm256_or_si256(hits[0], hits[1]),
                        _mm256_or_si256(hits[2], hits[3]),
                    );
                    if _mm256_testz_si256(any_hit, any_hit) == 0 {
                        // The lanes hit, bit j for lane j.
                        let mut lanes =
                            hit_lanes(hits[0], hits[1]) | hit_lanes(hits[2], hits[3]) << 32;
                        let mut values = [0u16; LANES];
                        for (i, &x) in x.iter().enumerate() {
                            let to = values.as_mut_ptr().add(16 * i) as *mut __m256i;
                            _mm256_storeu_si256(to, x);
                        }
                        while lanes != 0 {
                            let v = values[lanes.trailing_zeros() as usize] as usize;
                            found |= take(&mut bits, v, &mut left);
                            lanes &= lanes - 1;
                        }
                    }
                }
                Block::Tail { r, end } => {
                    for a in a0..=end {
                        found |= take(&mut bits, (g[a] ^ g[r - a]) as usize, &mut left);
                    }
                }
            }
            if found {
                if left == 0 {
                    need.clear();
                    return;
                }
                tables = load(&bits);
            }
        }
        if !any {
            break;
        }
        a0 += LANES;
        if left <= FEW {
            list(&bits, need);
            return find_lanes(mirror, g, n, split, need, a0);
        }
    }
    list(&bits, need);
}

/// Whether `v` is looked for; if so, it no longer is. Without a branch: whether a lane's
/// value is still looked for (another lane may have had it) is hard to predict.
#[inline(always)]
fn take(bits: &mut Bits, v: usize, left: &mut usize) -> bool {
    // A lane past VALUES may look like one looked for in the table: no bit for it.
    let bit = ((v < VALUES) as u8) << (v & 7);
    let byte = &mut bits[(v >> 3) % (VALUES / 8)];
    let had = *byte & bit != 0;
    *byte &= !bit;
    *left -= had as usize;
    had
}

/// The values still looked for, ascending.
fn list(bits: &Bits, need: &mut Vec<usize>) {
    need.clear();
    for (w, eight) in bits.chunks_exact(8).enumerate() {
        let mut word = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        while word != 0 {
            need.push(64 * w + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
}

/// The table as four registers, bytes `16 t..16 t + 16` in each half of register `t`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load(bits: &Bits) -> [__m256i; 4] {
    let mut tables = [_mm256_setzero_si256(); 4];
    for (t, table) in tables.iter_mut().enumerate() {
        let part = _mm_loadu_si128(bits.as_ptr().add(16 * t) as *const __m128i);
        *table = _mm256_broadcastsi128_si256(part);
    }
    tables
}

/// The lanes of two results of [`member`] that hit, bit `j` for lane `j` of `a` and bit
/// `16 + j` for lane `j` of `b` (the pack interleaves the halves of the registers, the
/// permute puts them back in order).
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn hit_lanes(a: __m256i, b: __m256i) -> u64 {
    let bytes = _mm256_permute4x64_epi64::<0xD8>(_mm256_packs_epi16(a, b));
    let missed = _mm256_cmpeq_epi8(bytes, _mm256_setzero_si256());
    !(_mm256_movemask_epi8(missed) as u32) as u64
}

/// For each of the 16 values of `x`, a lane whose low byte is nonzero when the value is
/// in the table (or is past [`VALUES`] and looks like one that is); the high bytes zero.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn member(tables: &[__m256i; 4], x: __m256i) -> __m256i {
    // The byte of the value: a shuffle finds byte `i & 15` of a table, and bits 4 and 5
    // of `i` (moved to bit 7, which a blend reads) choose among the four tables.
    let i = _mm256_srli_epi16::<3>(x);
    let by4 = _mm256_slli_epi16::<3>(i);
    let by5 = _mm256_slli_epi16::<2>(i);
    let low = _mm256_blendv_epi8(
        _mm256_shuffle_epi8(tables[0], i),
        _mm256_shuffle_epi8(tables[1], i),
        by4,
    );
    let high = _mm256_blendv_epi8(
        _mm256_shuffle_epi8(tables[2], i),
        _mm256_shuffle_epi8(tables[3], i),
        by4,
    );
    let byte = _mm256_blendv_epi8(low, high, by5);
    // The bit of the value in its byte.
    let powers = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0,
        0, 0, 0, 0, 0, 0,
    );
    let bit = _mm256_shuffle_epi8(powers, _mm256_and_si256(x, _mm256_set1_epi16(7)));
    _mm256_and_si256(_mm256_and_si256(byte, bit), _mm256_set1_epi16(0x00FF))
}
