//! The rare/common ("sparse space") solver of octal games (Gangolli & Plambeck 1989;
//! Flammenkamp): the values of [`super::plain_values`], usually hundreds of times faster.
//!
//! A mask `M` splits values in two classes by the parity of the bits of `v & M`: *rare*
//! (even, 0 among them) and *common* (odd). The class of `a xor b` is the xor of the classes,
//! so a move that leaves two common heaps has a rare value: the common values a heap reaches
//! come only from moves that leave one heap, or two of which one is rare. The rare heaps are
//! few and listed, so those moves give the smallest common value `c` not reached, exactly.
//! `G(n)` is `c` unless a smaller rare value is not reached; each rare value below `c` not
//! yet reached is looked for among the other pairs of heaps, smallest heap first, many pairs
//! at a time (usually found within a few dozen; a full scan when not, and then `G(n)` is the
//! smallest rare value not found). Exact for any mask; the mask is chosen from the counts of
//! the values (the one with the fewest rare heaps) when the heap doubles and when the rare
//! heaps have more than doubled since the last choice (a rare value appeared outside the
//! mask's).
//!
//! Values are kept in one byte each while they fit, in two from the first that does not
//! (the values so far are widened then), so a table of 2^32 heaps of a game whose values stay
//! below 256 needs 4 GiB.
//!
//! The solve saves the values solved so far through [`Saves::finished_bytes`] every block of
//! [`BLOCK`] heaps (the saves decide whether a save is due), and resumes from them.

use std::borrow::Cow;
use std::sync::Arc;

use crate::game::Progress;
use crate::solve::{Saves, Wave};
use crate::{Error, Result};

/// Heaps between two offers to save.
pub const BLOCK: usize = 1 << 20;

/// Longest prefix of values kept reversed for the search (see [`Search`]).
const MAX_MIRROR: usize = 1 << 24;

/// Most rare heaps kept (six bytes each; the memory stated for a build allows 8 MiB).
const MAX_RARE: usize = 1 << 20;

/// Heaps solved exactly, one by one, after a rare value before values are guessed again on
/// several threads (rare values come in clusters early on, where guesses would fail often).
const CALM: usize = 4096;

/// Pairs compared at once in the search.
const LANES: usize = 64;

/// Values a heap's marks cover: every value of two bytes.
const SEEN: usize = 1 << 16;

/// Heaps whose marks by the rare heaps far below are made together (see [`Group`]).
const GROUP: usize = 16;

/// Values a group's marks cover (the groups are used while every value is below it).
const GROUP_VALUES: usize = 1024;

/// Words of a heap's marks in a group.
const GROUP_WORDS: usize = GROUP_VALUES / 64;

/// One value's storage: a byte or two.
pub trait Width: Copy + Default + Eq + Ord + Send + Sync + std::fmt::Debug + 'static {
    /// Bytes a value.
    const BYTES: usize;
    /// The value.
    fn get(self) -> usize;
    /// `v`, which fits.
    fn of(v: usize) -> Self;
    /// The values as little-endian bytes (borrowed where the machine's order is that).
    fn bytes(values: &[Self]) -> Cow<'_, [u8]>;
    /// The values when they are two bytes each.
    fn wide(values: &[Self]) -> Option<&[u16]>;
}

impl Width for u8 {
    const BYTES: usize = 1;
    fn get(self) -> usize {
        self as usize
    }
    fn of(v: usize) -> u8 {
        v as u8
    }
    fn bytes(values: &[u8]) -> Cow<'_, [u8]> {
        Cow::Borrowed(values)
    }
    fn wide(_: &[u8]) -> Option<&[u16]> {
        None
    }
}

impl Width for u16 {
    const BYTES: usize = 2;
    fn get(self) -> usize {
        self as usize
    }
    fn of(v: usize) -> u16 {
        v as u16
    }
    fn bytes(values: &[u16]) -> Cow<'_, [u8]> {
        Cow::Owned(values.iter().flat_map(|v| v.to_le_bytes()).collect())
    }
    fn wide(values: &[u16]) -> Option<&[u16]> {
        Some(values)
    }
}

/// The values of heaps `0..=N`, in the width they needed.
#[derive(Debug, PartialEq, Eq)]
pub enum Nimbers {
    /// Every value below 256.
    Bytes(Vec<u8>),
    /// Some value 256 or more.
    Wide(Vec<u16>),
}

impl Nimbers {
    /// Value `i`.
    pub fn get(&self, i: usize) -> u16 {
        match self {
            Nimbers::Bytes(v) => v[i] as u16,
            Nimbers::Wide(v) => v[i],
        }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            Nimbers::Bytes(v) => v.len(),
            Nimbers::Wide(v) => v.len(),
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// As two-byte values.
    pub fn into_wide(self) -> Vec<u16> {
        match self {
            Nimbers::Bytes(v) => v.into_iter().map(u16::from).collect(),
            Nimbers::Wide(v) => v,
        }
    }
}

/// The solve's name in its saves, by width (a save of one byte a value resumes as such).
fn solve_name(bytes: usize, max_heap: u32) -> String {
    format!("octal rare/common to heap {max_heap}, {bytes} byte(s) a value")
}

/// The moves of a code, by kind: `take[k]` leaves one heap, `split[k]` two.
struct Moves {
    take: Vec<usize>,
    split: Vec<usize>,
}

/// Solves heaps `0..=max_heap` of the octal code `digits` (`digits[k]` is `dk`; some digit
/// allows a split), starting from `warm`, the values of the first heaps by the plain method.
pub fn solve(
    digits: &[u8],
    max_heap: u32,
    warm: Vec<u16>,
    progress: &dyn Progress,
    saves: &dyn Saves,
) -> Result<Nimbers> {
    let pace = Pace {
        block: BLOCK,
        threads: rayon::current_num_threads(),
        calm: CALM,
    };
    solve_in_blocks(digits, max_heap, warm, progress, saves, pace)
}

/// How a solve goes: a save offered every `block` heaps, on `threads` threads, guessing
/// again `calm` heaps after rare values close together.
#[derive(Clone, Copy)]
struct Pace {
    block: usize,
    threads: usize,
    calm: usize,
}

/// [`solve`] at a given pace.
fn solve_in_blocks(
    digits: &[u8],
    max_heap: u32,
    warm: Vec<u16>,
    progress: &dyn Progress,
    saves: &dyn Saves,
    pace: Pace,
) -> Result<Nimbers> {
    let Pace {
        block,
        threads,
        calm,
    } = pace;
    let moves = Moves {
        take: (1..digits.len()).filter(|&k| digits[k] & 2 != 0).collect(),
        split: (0..digits.len()).filter(|&k| digits[k] & 4 != 0).collect(),
    };
    let n_all = max_heap as usize + 1;
    let waves = n_all.div_ceil(block);
    // Resume from a save of either width, or start from the warm values.
    let narrow = solve_name(1, max_heap);
    let wide = solve_name(2, max_heap);
    let resumed = saves.resume_bytes(&[&narrow, &wide], (n_all * 2) as u64)?;
    // The values to start from, in the width they were saved in (no copy of a narrow save).
    let start = match resumed {
        Some((name, at, bytes)) => {
            let is_wide = name == wide;
            let width = if is_wide { 2 } else { 1 };
            if bytes.len() as u64 != at.done * width || at.done as usize > n_all {
                return Err(Error::bad(format!(
                    "the checkpoint holds {} bytes for {} heaps of {width} byte(s) each; it \
                     cannot be resumed (remove it to start afresh)",
                    bytes.len(),
                    at.done
                )));
            }
            progress.inc(at.done);
            if is_wide {
                Nimbers::Wide(
                    bytes
                        .chunks_exact(2)
                        .map(|b| u16::from_le_bytes([b[0], b[1]]))
                        .collect(),
                )
            } else {
                Nimbers::Bytes(bytes)
            }
        }
        None => {
            progress.inc(warm.len() as u64);
            if warm.iter().all(|&v| v <= 255) {
                Nimbers::Bytes(warm.into_iter().map(|v| v as u8).collect())
            } else {
                Nimbers::Wide(warm)
            }
        }
    };
    let ctx = Context {
        digits,
        moves: &moves,
        n_all,
        waves,
        block,
        threads,
        calm,
        progress,
        saves,
    };
    let g = match start {
        Nimbers::Wide(g) => return finish_wide(&ctx, g, &wide),
        Nimbers::Bytes(g) => g,
    };
    match run::<u8>(&ctx, g, &narrow)? {
        Run::Done(g) => Ok(Nimbers::Bytes(g)),
        Run::Overflow(g) => {
            let mut w: Vec<u16> = Vec::new();
            w.try_reserve_exact(n_all)
                .map_err(|_| Error::Unsupported("not enough memory to widen".into()))?;
            w.extend(g.iter().map(|&v| v as u16));
            drop(g);
            finish_wide(&ctx, w, &wide)
        }
    }
}

fn finish_wide(ctx: &Context, g: Vec<u16>, name: &str) -> Result<Nimbers> {
    match run::<u16>(ctx, g, name)? {
        Run::Done(g) => Ok(Nimbers::Wide(g)),
        Run::Overflow(g) => Err(crate::games::octal::too_large(
            &crate::games::octal::Code::Octal(ctx.digits.to_vec()),
            g.len(),
        )),
    }
}

struct Context<'a> {
    digits: &'a [u8],
    moves: &'a Moves,
    n_all: usize,
    waves: usize,
    block: usize,
    threads: usize,
    /// Heaps solved exactly after a rare value before guessing again (several threads).
    calm: usize,
    progress: &'a dyn Progress,
    saves: &'a dyn Saves,
}

enum Run<V> {
    /// Every value.
    Done(Vec<V>),
    /// The values before the first that does not fit this width.
    Overflow(Vec<V>),
}

/// The rare class of a mask: `class[v]` is 1 when `v` is rare, over `limit` values.
fn rare_class(mask: usize, limit: usize) -> Vec<u8> {
    (0..limit)
        .map(|v| ((v & mask).count_ones() % 2 == 0) as u8)
        .collect()
}

/// The mask (of the low bits that the values use, ten at most) with the fewest rare heaps,
/// from the counts of each value.
pub(super) fn choose_mask(count: &[u64]) -> usize {
    let top = count.iter().rposition(|&c| c > 0).unwrap_or(0);
    let bits = (usize::BITS - top.leading_zeros()).clamp(1, 10);
    let present: Vec<(usize, u64)> = (0..=top)
        .filter(|&v| count[v] > 0)
        .map(|v| (v, count[v]))
        .collect();
    let mut best = (u64::MAX, 1);
    for mask in 1..1usize << bits {
        let rare: u64 = present
            .iter()
            .filter(|&&(v, _)| (v & mask).count_ones() % 2 == 0)
            .map(|&(_, c)| c)
            .sum();
        if rare < best.0 {
            best = (rare, mask);
        }
    }
    best.1
}

/// The values of the first heaps kept reversed, so that the pairs `(a, r − a)` of a run of
/// `a` are two runs of memory in the same direction: `mirror[len − 1 − a] = g[a]`. Shared
/// (an `Arc`) with the threads that check guesses; a longer mirror replaces it, never edits it.
#[derive(Clone)]
struct Search<V> {
    mirror: Arc<Vec<V>>,
}

impl<V: Width> Search<V> {
    fn new() -> Search<V> {
        Search {
            mirror: Arc::new(Vec::new()),
        }
    }

    /// Keeps the mirror long enough for the pairs of heap `n` (it covers `a ≤ n / 2` up to
    /// [`MAX_MIRROR`]).
    fn cover(&mut self, g: &[V], n: usize) {
        let len = self.mirror.len();
        if 2 * len < n && len < MAX_MIRROR {
            let len = (n / 2 + 1).next_power_of_two().min(MAX_MIRROR);
            self.mirror = Arc::new((0..len).map(|j| g[len - 1 - j]).collect());
        }
    }

    /// Looks for the values of `need` among `G(a) xor G(r − a)`
    /// over the pairs of every split, `a` from 1 up; removes those found and stops when none
    /// is left. Reads the values of heaps below `n` only.
    fn find(&self, g: &[V], n: usize, split: &[usize], need: &mut Vec<usize>) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            if let (Some(mirror), Some(g)) = (V::wide(&self.mirror), V::wide(g)) {
                if need.len() > table::FEW && need.iter().all(|&v| v < table::VALUES) {
                    // SAFETY: the processor has AVX2 (checked just above).
                    return unsafe { table::find(mirror, g, n, split, need) };
                }
            }
            // SAFETY: as above.
            return unsafe { find_avx2(&self.mirror, g, n, split, need, 1) };
        }
        find_lanes(&self.mirror, g, n, split, need, 1)
    }
}

/// [`find_lanes`] compiled for AVX2: twice the pairs an instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn find_avx2<V: Width>(
    mirror: &[V],
    g: &[V],
    n: usize,
    split: &[usize],
    need: &mut Vec<usize>,
    a0: usize,
) {
    find_lanes(mirror, g, n, split, need, a0)
}

/// One split move's pairs `(a, r − a)` from `a0` on, as far as a block of [`LANES`] goes.
enum Block {
    /// All [`LANES`] in two runs of memory: for lane `i`, `a = a0 + LANES − 1 − i`, `G(a)` is
    /// `mirror[left + i]` and `G(r − a)` is `g[right + i]`.
    Lanes { left: usize, right: usize },
    /// The last few (or those past the mirror), `a` in `a0..=end`, one at a time.
    Tail { r: usize, end: usize },
}

/// The block of pairs of heap `n`'s split move `k` at `a0` (the mirror `len` long); none when
/// its pairs end before `a0`.
#[inline(always)]
fn block(len: usize, n: usize, k: usize, a0: usize) -> Option<Block> {
    let r = n - k;
    let hi = r / 2;
    if a0 > hi {
        return None;
    }
    let end = (a0 + LANES - 1).min(hi);
    Some(if end + 1 - a0 == LANES && a0 + LANES <= len {
        Block::Lanes {
            left: len - a0 - LANES,
            right: r - a0 - LANES + 1,
        }
    } else {
        Block::Tail { r, end }
    })
}

/// [`Search::find`] over the pairs of `a` from `a0` up, [`LANES`] at a time: each value
/// looked for is compared with all of them.
#[inline(always)]
fn find_lanes<V: Width>(
    mirror: &[V],
    g: &[V],
    n: usize,
    split: &[usize],
    need: &mut Vec<usize>,
    mut a0: usize,
) {
    let len = mirror.len();
    loop {
        let mut any = false;
        for &k in split {
            let Some(pairs) = block(len, n, k, a0) else {
                continue;
            };
            any = true;
            match pairs {
                Block::Lanes { left, right } => {
                    let options = xors(&mirror[left..left + LANES], &g[right..right + LANES]);
                    // The values not found move down over those found, without a branch on
                    // which (whether a value is among 64 pairs is hard to predict).
                    let mut kept = 0;
                    for i in 0..need.len() {
                        let v = need[i];
                        need[kept] = v;
                        kept += !lanes_hit(&options, V::of(v)) as usize;
                    }
                    need.truncate(kept);
                    if need.is_empty() {
                        return;
                    }
                }
                Block::Tail { r, end } => {
                    for a in a0..=end {
                        let x = g[a].get() ^ g[r - a].get();
                        if let Some(i) = need.iter().position(|&v| v == x) {
                            need.swap_remove(i);
                            if need.is_empty() {
                                return;
                            }
                        }
                    }
                }
            }
        }
        if !any {
            return;
        }
        a0 += LANES;
    }
}

/// The search for many values at once, where values are two bytes each and those looked for
/// are below `VALUES`: the xor of each pair is looked up in a table of one bit a value
/// (four lookups of sixteen bytes in a register), so a block of pairs costs the same however
/// many values are looked for, where comparing costs a compare a value. Most heaps look for
/// dozens at first; once `FEW` are left, comparing is cheaper and the search goes on so.
#[cfg(target_arch = "x86_64")]
mod table {
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
            1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128, 0,
            0, 0, 0, 0, 0, 0, 0,
        );
        let bit = _mm256_shuffle_epi8(powers, _mm256_and_si256(x, _mm256_set1_epi16(7)));
        _mm256_and_si256(_mm256_and_si256(byte, bit), _mm256_set1_epi16(0x00FF))
    }
}

/// `left[i] xor right[i]` for each of [`LANES`] pairs, computed once for every value looked
/// for among them.
#[inline(always)]
fn xors<V: Width>(left: &[V], right: &[V]) -> [V; LANES] {
    let (left, right) = (&left[..LANES], &right[..LANES]);
    let mut x = [V::default(); LANES];
    for i in 0..LANES {
        x[i] = xor(left[i], right[i]);
    }
    x
}

/// Whether `options[i] == v` for some `i` (written so that it compiles to vector
/// instructions).
#[inline(always)]
fn lanes_hit<V: Width>(options: &[V; LANES], v: V) -> bool {
    let mut hit = false;
    for &x in options {
        hit |= x == v;
    }
    hit
}

#[inline(always)]
fn xor<V: Width>(a: V, b: V) -> V {
    V::of(a.get() ^ b.get())
}

/// The 64 flags `bytes` (each 0 or 1) as the bits of a word: eight at a time, the multiply
/// gathering the low bit of each byte into the top byte.
#[inline(always)]
fn word_of(bytes: &[u8]) -> u64 {
    let mut w = 0;
    for (i, b) in bytes[..64].chunks_exact(8).enumerate() {
        let eight = u64::from_le_bytes(b.try_into().expect("eight bytes"));
        w |= (eight.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i);
    }
    w
}

/// The marks of the heaps `from..from + GROUP` by the pairs `(a, n − k − a)` of the rare
/// heaps `a` whose pairs lie wholly below `from` (`GROUP ≤ a < from − k`): for a rare heap
/// `a`, the values `G(a) xor G(n − k − a)` of the group's heaps are a run of values xored
/// with one, so a group costs a store a mark where a heap alone costs a read besides (and
/// most of a heap's marks are these when the rare heaps are many).
struct Group {
    /// The first heap; none when the group is to be made again (the mask was chosen again,
    /// or the values below it were forgotten).
    from: Option<usize>,
    /// The rare heaps marked, as indices into the list: `lo..hi[s]` for the split move `s`.
    lo: usize,
    hi: Vec<usize>,
    /// The marks of heap `from + j`, as bits: `words[j * GROUP_WORDS..][..words_made]` (the
    /// values below `64 words_made`, where every mark is).
    words: Vec<u64>,
    words_made: usize,
    /// The marks as bytes while they are made.
    bytes: Box<[u8; GROUP * GROUP_VALUES]>,
}

impl Group {
    fn new() -> Group {
        Group {
            from: None,
            lo: 0,
            hi: Vec::new(),
            words: vec![0; GROUP * GROUP_WORDS],
            words_made: 0,
            bytes: vec![0u8; GROUP * GROUP_VALUES]
                .into_boxed_slice()
                .try_into()
                .expect("a group's bytes"),
        }
    }

    /// Makes the group of the heaps from `g.len()` on, from the rare heaps listed (`heaps`,
    /// ascending, and their values), over the first `words` words of values (the values are
    /// below [`GROUP_VALUES`], and their xors below `64 words`).
    fn make<V: Width>(
        &mut self,
        heaps: &[u32],
        values: &[V],
        moves: &Moves,
        g: &[V],
        words: usize,
    ) {
        let from = g.len();
        let made = words.min(GROUP_WORDS);
        self.from = Some(from);
        self.words_made = made;
        self.lo = heaps.partition_point(|&a| (a as usize) < GROUP);
        self.hi.clear();
        let bytes = &mut *self.bytes;
        for marks in bytes.chunks_exact_mut(GROUP_VALUES) {
            marks[..made * 64].fill(0);
        }
        for &k in &moves.split {
            let hi = heaps.partition_point(|&a| (a as usize) < from.saturating_sub(k));
            self.hi.push(hi);
            for i in self.lo..hi {
                let v = values[i].get();
                let run = &g[from - k - heaps[i] as usize..][..GROUP];
                for (j, &x) in run.iter().enumerate() {
                    bytes[j * GROUP_VALUES + ((v ^ x.get()) & (GROUP_VALUES - 1))] = 1;
                }
            }
        }
        for (marks, words) in bytes
            .chunks_exact(GROUP_VALUES)
            .zip(self.words.chunks_exact_mut(GROUP_WORDS))
        {
            for (w, b) in words[..made].iter_mut().zip(marks.chunks_exact(64)) {
                *w = word_of(b);
            }
        }
    }
}

/// What the solve knows besides the values: how often each value occurs, the rare class and
/// the rare heaps, and the sets the options of a heap are marked in.
struct State<V> {
    /// Values of this width: `0..limit`.
    limit: usize,
    count: Vec<u64>,
    /// The largest value so far.
    top: usize,
    class: Vec<u8>,
    /// `class` as bits.
    class_bits: Vec<u64>,
    /// The rare heaps, ascending, and their values.
    rare: Vec<u32>,
    rare_values: Vec<V>,
    /// The mask is chosen again at this heap, or when the rare heaps outgrow this count.
    next_choice: usize,
    rare_at_choice: usize,
    /// Value v is reached when byte v is set: a mark is one store (a bit set in a word would
    /// read the word first, and wait for the previous mark of that word to be written).
    seen: Box<[u8; SEEN]>,
    /// `seen` as bits, `reached[w]` for values `64 w..64 w + 64`.
    reached: Vec<u64>,
    /// The marks of the next heaps by the rare heaps far below them.
    group: Group,
    /// The rare values below the candidate not reached by the moves marked.
    need: Vec<usize>,
}

impl<V: Width> State<V> {
    /// The state after the values `g`.
    fn new(g: &[V]) -> State<V> {
        let limit = 1 << (8 * V::BYTES);
        let mut count = vec![0u64; limit];
        let mut top = 0;
        for &v in g {
            count[v.get()] += 1;
            top = top.max(v.get());
        }
        let mut st = State {
            limit,
            count,
            top,
            class: Vec::new(),
            class_bits: Vec::new(),
            rare: Vec::new(),
            rare_values: Vec::new(),
            next_choice: 0,
            rare_at_choice: 0,
            seen: vec![0u8; SEEN]
                .into_boxed_slice()
                .try_into()
                .expect("SEEN bytes"),
            reached: vec![0u64; limit / 64],
            group: Group::new(),
            need: Vec::with_capacity(limit),
        };
        st.choose(g);
        st
    }

    /// Chooses the mask from the counts and lists the rare heaps of `g` under it.
    fn choose(&mut self, g: &[V]) {
        self.class = rare_class(choose_mask(&self.count), self.limit);
        self.rare = (1..g.len())
            .filter(|&i| self.class[g[i].get()] != 0)
            .map(|i| i as u32)
            .collect();
        self.rare_values = self.rare.iter().map(|&i| g[i as usize]).collect();
        let mut w = vec![0u64; self.limit / 64];
        (0..self.limit)
            .filter(|&v| self.class[v] != 0)
            .for_each(|v| w[v >> 6] |= 1 << (v & 63));
        self.class_bits = w;
        self.next_choice = 2 * g.len();
        self.rare_at_choice = self.rare.len();
        self.group.from = None;
    }

    /// The smallest common value that no move of heap `n = g.len()` reaches, exactly (the
    /// width's `limit` when every one is reached); leaves in `need` the rare values below it
    /// that the moves leaving a rare heap do not reach, to be looked for among the others.
    fn candidate(&mut self, moves: &Moves, g: &[V]) -> usize {
        let n = g.len();
        if n >= self.next_choice || self.rare.len() > 2 * self.rare_at_choice + 64 {
            self.choose(g);
        }
        let limit_words = self.limit / 64;
        // Options are xors of values up to `top`: below the next power of two, so the mex is
        // at most that power.
        let words = ((self.top + 1).next_power_of_two() / 64 + 1).min(limit_words);
        if self.top < GROUP_VALUES && n >= 2 * GROUP {
            self.mark_grouped(moves, g, words);
        } else {
            self.mark(moves, g, words);
        }
        let s0 = &self.reached;
        let class_bits = &self.class_bits;
        let mut c = self.limit;
        for w in 0..words {
            let both = s0[w] | class_bits[w];
            if both != u64::MAX {
                c = w * 64 + (!both).trailing_zeros() as usize;
                break;
            }
        }
        self.need.clear();
        for w in 0..words.min(c.div_ceil(64)) {
            let mut bits = class_bits[w] & !s0[w];
            if (w + 1) * 64 > c {
                bits &= (1u64 << (c - w * 64)) - 1;
            }
            while bits != 0 {
                self.need.push(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        c
    }

    /// Sets `reached` to the values of the moves of heap `n = g.len()` that leave one heap or
    /// a rare heap, over its first `words`.
    fn mark(&mut self, moves: &Moves, g: &[V], words: usize) {
        let n = g.len();
        let seen = &mut *self.seen;
        seen[..words * 64].fill(0);
        // Values are below SEEN, so the masks only spare the bounds checks.
        for &k in &moves.take {
            seen[g[n - k].get() & (SEEN - 1)] = 1;
        }
        for &k in &moves.split {
            let r = n - k;
            let m = self.rare.partition_point(|&a| (a as usize) < r);
            let below = &g[..r];
            for (&h, &v) in self.rare[..m].iter().zip(&self.rare_values[..m]) {
                seen[(v.get() ^ below[r - h as usize].get()) & (SEEN - 1)] = 1;
            }
        }
        for (w, bytes) in seen[..words * 64].chunks_exact(64).enumerate() {
            self.reached[w] = word_of(bytes);
        }
    }

    /// [`State::mark`] from the group's marks (made anew when heap `n` is not in it) and the
    /// marks of the rare heaps the group leaves out. Every value is below [`GROUP_VALUES`].
    fn mark_grouped(&mut self, moves: &Moves, g: &[V], words: usize) {
        let n = g.len();
        let group = &mut self.group;
        if !group.from.is_some_and(|f| (f..f + GROUP).contains(&n)) {
            group.make(&self.rare, &self.rare_values, moves, g, words);
        }
        let j = n - group.from.unwrap_or(n);
        let reached = &mut self.reached[..words];
        let made = words.min(group.words_made);
        reached[..made].copy_from_slice(&group.words[j * GROUP_WORDS..][..made]);
        reached[made..].fill(0);
        let mut mark = |v: usize| reached[v >> 6] |= 1 << (v & 63);
        for &k in &moves.take {
            mark(g[n - k].get());
        }
        for (&k, &hi) in moves.split.iter().zip(&group.hi) {
            let r = n - k;
            let m = self.rare.partition_point(|&a| (a as usize) < r);
            let below = &g[..r];
            // The rare heaps too near to be in the group, and those after it was made.
            for i in (0..group.lo.min(m)).chain(hi.max(group.lo)..m) {
                mark(self.rare_values[i].get() ^ below[r - self.rare[i] as usize].get());
            }
        }
    }

    /// The value of heap `n = g.len()`, and its candidate: the candidate unless a rare value
    /// below it is reached by no pair of heaps (then the smallest such).
    fn exact(&mut self, moves: &Moves, search: &mut Search<V>, g: &[V]) -> (usize, usize) {
        let n = g.len();
        let c = self.candidate(moves, g);
        if self.need.is_empty() {
            return (c, c);
        }
        search.cover(g, n);
        search.find(g, n, &moves.split, &mut self.need);
        (self.need.iter().copied().min().unwrap_or(c), c)
    }

    /// Counts `value` as the value of heap `n` (the next).
    fn record(&mut self, ctx: &Context, n: usize, value: usize) -> Result<()> {
        self.count[value] += 1;
        self.top = self.top.max(value);
        if self.class[value] != 0 {
            if self.rare.len() >= MAX_RARE {
                return Err(Error::Unsupported(format!(
                    "octal {}: {MAX_RARE} heaps below {n} have rare values, so the rare/common \
                     method is no faster than the plain one for this code (its values have no \
                     sparse split); build a smaller --max-heap, or use --method plain",
                    crate::games::octal::Code::Octal(ctx.digits.to_vec())
                )));
            }
            self.rare.push(n as u32);
            self.rare_values.push(V::of(value));
        }
        Ok(())
    }

    /// Forgets the values of heaps `from..g.len()` (guesses found wrong at heap `from`).
    fn forget(&mut self, g: &[V], from: usize) {
        for &v in &g[from..] {
            self.count[v.get()] -= 1;
        }
        while self.top > 0 && self.count[self.top] == 0 {
            self.top -= 1;
        }
        // A mask chosen from guesses is still a mask: the split stays exact, and the rare
        // heaps below `from` are those it lists.
        let keep = self.rare.partition_point(|&h| (h as usize) < from);
        self.rare.truncate(keep);
        self.rare_values.truncate(keep);
        if self.group.from.is_some_and(|f| from < f) {
            self.group.from = None;
        }
    }
}

/// Offers a save when `done` heaps end a block, and reports progress.
fn done_up_to<V: Width>(ctx: &Context, name: &str, g: &[V], reported: &mut usize) -> Result<()> {
    let done = g.len();
    if done % ctx.block == 0 || done == ctx.n_all {
        ctx.progress.inc((done - *reported) as u64);
        *reported = done;
        let at = Wave {
            next: done / ctx.block,
            waves: ctx.waves,
            done: done as u64,
        };
        if done < ctx.n_all {
            ctx.saves.finished_bytes(name, at, &V::bytes(g))?;
        }
    } else if done - *reported >= 4096 {
        ctx.progress.inc((done - *reported) as u64);
        *reported = done;
    }
    Ok(())
}

/// Room for every value, or a clear refusal.
fn reserve<V: Width>(g: &mut Vec<V>, n_all: usize) -> Result<()> {
    if g.capacity() < n_all {
        g.try_reserve_exact(n_all - g.len()).map_err(|_| {
            Error::Unsupported(format!(
                "not enough memory for {n_all} values of {} byte(s)",
                V::BYTES
            ))
        })?;
    }
    Ok(())
}

/// Extends `g` (the values of heaps `0..g.len()`) to every heap, in values of width `V`: on
/// one thread, or guessing ahead on one and checking the guesses on the others.
fn run<V: Width>(ctx: &Context, g: Vec<V>, name: &str) -> Result<Run<V>> {
    if ctx.threads > 1 {
        ahead::run(ctx, g, name)
    } else {
        run_one(ctx, g, name)
    }
}

/// [`run`] on one thread.
fn run_one<V: Width>(ctx: &Context, mut g: Vec<V>, name: &str) -> Result<Run<V>> {
    reserve(&mut g, ctx.n_all)?;
    let mut st = State::new(&g);
    let mut search = Search::<V>::new();
    let mut reported = g.len();
    while g.len() < ctx.n_all {
        let n = g.len();
        let (value, _) = st.exact(ctx.moves, &mut search, &g);
        if value >= st.limit {
            return Ok(Run::Overflow(g));
        }
        st.record(ctx, n, value)?;
        g.push(V::of(value));
        done_up_to(ctx, name, &g, &mut reported)?;
    }
    Ok(Run::Done(g))
}

/// The solve on several threads. Almost every heap's value is the smallest common value its
/// moves leaving a rare heap do not reach (the candidate): it is not only when a rare value
/// below it is reached by no pair of heaps, which is rare by the choice of the mask. One
/// thread (the producer) computes the candidates and takes them as the values (guesses),
/// handing the rare values each guess needs found to the other threads in batches of heaps;
/// they look for them among the pairs of heaps below (which is most of the work for codes
/// with many rare values). Batches are taken in order: one whose guesses all hold makes its
/// heaps final; at the first heap whose guess fails, the producer waits for the checks under
/// way, forgets that heap and every later one, sets its value (the smallest rare value not
/// found) and goes on from there with small batches. So the values are those of one thread,
/// whatever the number of threads and the timing.
mod ahead {
    use std::collections::{BTreeMap, VecDeque};
    use std::sync::{Condvar, Mutex, MutexGuard};

    use super::*;

    /// Heaps in a batch: at first and after a failed guess, and at most.
    const BATCH_MIN: usize = 16;
    const BATCH_MAX: usize = 4096;
    /// Batches handed out and not yet final, at most: beyond, the producer checks too.
    const AHEAD: usize = 4;

    /// Guesses of the heaps `start..end`: the heaps whose guess needs rare values found, with
    /// their range in `needs`.
    struct Batch<V> {
        generation: u64,
        start: usize,
        end: usize,
        search: Search<V>,
        heaps: Vec<(usize, usize, usize)>,
        needs: Vec<usize>,
    }

    /// A checked batch: the first heap whose guess failed and its value.
    struct Outcome {
        end: usize,
        wrong: Option<(usize, usize)>,
    }

    struct Queue<V> {
        pending: VecDeque<Batch<V>>,
        /// Checked batches by their first heap.
        done: BTreeMap<usize, Outcome>,
        /// Batches being checked.
        busy: usize,
        /// Raised when guesses are forgotten: batches of an older generation are dropped.
        generation: u64,
        stop: bool,
    }

    /// The values' memory, read by the checkers below the heaps they check while the
    /// producer writes above.
    struct Values<V>(*mut V);
    // SAFETY: the producer writes a value only where no checker reads (above every heap
    // handed out, or after the checkers stopped reading, at a failed guess), and hands
    // batches over through the queue's mutex, which orders the writes before the reads.
    unsafe impl<V: Send> Send for Values<V> {}
    unsafe impl<V: Sync> Sync for Values<V> {}

    struct Shared<'a, V> {
        queue: Mutex<Queue<V>>,
        wake: Condvar,
        values: Values<V>,
        split: &'a [usize],
    }

    impl<V: Width> Shared<'_, V> {
        fn lock(&self) -> MutexGuard<'_, Queue<V>> {
            // A checker panicking would be a bug; its poison is taken as it is.
            self.queue.lock().unwrap_or_else(|p| p.into_inner())
        }

        fn wait<'g>(&self, q: MutexGuard<'g, Queue<V>>) -> MutexGuard<'g, Queue<V>> {
            self.wake.wait(q).unwrap_or_else(|p| p.into_inner())
        }

        /// The values of heaps `0..n`.
        ///
        /// SAFETY: the caller holds a batch with a heap at or above `n` (or is the producer),
        /// so no value below `n` is written while the slice lives.
        unsafe fn below(&self, n: usize) -> &[V] {
            std::slice::from_raw_parts(self.values.0, n)
        }

        /// Checks a batch's guesses in heap order; the first that fails.
        fn check(&self, b: &Batch<V>) -> Option<(usize, usize)> {
            let mut need = Vec::new();
            for &(h, from, to) in &b.heaps {
                need.clear();
                need.extend_from_slice(&b.needs[from..to]);
                // SAFETY: heap h is in the batch held.
                let g = unsafe { self.below(h) };
                b.search.find(g, h, self.split, &mut need);
                if let Some(&v) = need.iter().min() {
                    return Some((h, v));
                }
            }
            None
        }

        /// Takes a pending batch, checks it (unlocked), files the outcome; false when none
        /// was pending.
        fn check_one<'g>(
            &'g self,
            mut q: MutexGuard<'g, Queue<V>>,
        ) -> (MutexGuard<'g, Queue<V>>, bool) {
            let Some(b) = q.pending.pop_front() else {
                return (q, false);
            };
            q.busy += 1;
            drop(q);
            let wrong = self.check(&b);
            let mut q = self.lock();
            q.busy -= 1;
            if b.generation == q.generation {
                q.done.insert(b.start, Outcome { end: b.end, wrong });
            }
            self.wake.notify_all();
            (q, true)
        }

        fn checker(&self) {
            let mut q = self.lock();
            while !q.stop {
                let (back, checked) = self.check_one(q);
                q = if checked { back } else { self.wait(back) };
            }
        }
    }

    /// Stops the checkers when the producer ends, however it ends.
    struct Stop<'s, 'a, V: Width>(&'s Shared<'a, V>);

    impl<V: Width> Drop for Stop<'_, '_, V> {
        fn drop(&mut self) {
            self.0.lock().stop = true;
            self.0.wake.notify_all();
        }
    }

    pub(super) fn run<V: Width>(ctx: &Context, mut g: Vec<V>, name: &str) -> Result<Run<V>> {
        reserve(&mut g, ctx.n_all)?;
        let start = g.len();
        let shared = Shared {
            queue: Mutex::new(Queue {
                pending: VecDeque::new(),
                done: BTreeMap::new(),
                busy: 0,
                generation: 0,
                stop: false,
            }),
            wake: Condvar::new(),
            values: Values(g.as_mut_ptr()),
            split: &ctx.moves.split,
        };
        let mut len = start;
        let result = std::thread::scope(|s| {
            for _ in 1..ctx.threads {
                s.spawn(|| shared.checker());
            }
            let _stop = Stop(&shared);
            produce(ctx, &shared, &mut len, name)
        });
        // SAFETY: the values of heaps 0..len were written, within the capacity reserved.
        unsafe { g.set_len(len) };
        Ok(match result? {
            true => Run::Done(g),
            false => Run::Overflow(g),
        })
    }

    /// The producer: true when every heap is solved, false at the first value the width
    /// cannot hold (`len` is then that heap).
    fn produce<V: Width>(
        ctx: &Context,
        shared: &Shared<V>,
        len: &mut usize,
        name: &str,
    ) -> Result<bool> {
        let base = shared.values.0;
        let write = |n: usize, v: usize| {
            // SAFETY: n is below the capacity reserved, and no checker reads heap n (every
            // batch handed out lies below it, or the checkers were waited for).
            unsafe { base.add(n).write(V::of(v)) }
        };
        let mut n = *len; // values written
        let mut st = {
            // SAFETY: no checker runs yet.
            State::new(unsafe { shared.below(n) })
        };
        let mut search = Search::<V>::new();
        let mut committed = n; // values final
        let mut reported = n;
        let mut looked = n; // `committed` when saves and progress were last looked at
        let mut batch = BATCH_MIN;
        // Heaps below this are solved exactly, one by one, once all before them is final:
        // where rare values come often (early heaps, codes without a sparse split), guesses
        // would fail too often to gain anything; also a heap whose candidate the width
        // cannot hold.
        let mut exact_until = n + ctx.calm;
        let mut last_failure = n;
        loop {
            let mut q = shared.lock();
            // Take the checked batches in order.
            while let Some(o) = q.done.remove(&committed) {
                match o.wrong {
                    None => {
                        committed = o.end;
                        batch = (2 * batch).min(BATCH_MAX);
                        if committed % ctx.block == 0 {
                            // A block's end: saved before going on.
                            break;
                        }
                    }
                    Some((h, v)) => {
                        q.generation += 1;
                        q.pending.clear();
                        q.done.clear();
                        while q.busy > 0 {
                            q = shared.wait(q);
                        }
                        // SAFETY: no checker runs.
                        st.forget(unsafe { shared.below(n) }, h);
                        if search.mirror.len() > h {
                            search = Search::new();
                        }
                        write(h, v);
                        st.record(ctx, h, v)?;
                        n = h + 1;
                        committed = n;
                        batch = BATCH_MIN;
                        if h < last_failure + ctx.calm {
                            exact_until = n + ctx.calm;
                        }
                        last_failure = h;
                    }
                }
            }
            if committed > looked {
                looked = committed;
                drop(q);
                // SAFETY: the values below `committed` are final and never written again.
                let g = unsafe { shared.below(committed) };
                // A save only at a block's end: batches end there.
                done_up_to(ctx, name, g, &mut reported)?;
                continue;
            }
            if committed == ctx.n_all {
                *len = committed;
                return Ok(true);
            }
            let exact = n < exact_until;
            if exact && committed == n {
                drop(q);
                // Nothing is handed out: solve as on one thread, up to the block's end.
                let end = exact_until
                    .min((n / ctx.block + 1) * ctx.block)
                    .min(ctx.n_all);
                while n < end {
                    // SAFETY: no checker runs.
                    let g = unsafe { shared.below(n) };
                    let (v, c) = st.exact(ctx.moves, &mut search, g);
                    if v >= st.limit {
                        *len = n;
                        return Ok(false);
                    }
                    if v != c {
                        // A rare value: more may follow.
                        exact_until = exact_until.max(n + 1 + ctx.calm);
                        last_failure = n;
                    }
                    write(n, v);
                    st.record(ctx, n, v)?;
                    n += 1;
                }
                committed = n;
                continue;
            }
            if exact || n == ctx.n_all || q.pending.len() + q.busy + q.done.len() >= AHEAD {
                // Far enough ahead: check a batch, or wait for one.
                let (q, checked) = shared.check_one(q);
                if !checked {
                    drop(shared.wait(q));
                }
                continue;
            }
            let generation = q.generation;
            drop(q);
            // Guess a batch; it ends at a block's end, where a save is due.
            let end = (n + batch)
                .min((n / ctx.block + 1) * ctx.block)
                .min(ctx.n_all);
            let mut b = Batch {
                generation,
                start: n,
                end,
                search: Search::new(),
                heaps: Vec::new(),
                needs: Vec::new(),
            };
            while n < end {
                // SAFETY: heaps below n are written; checkers read only below the heaps
                // handed out, which are below n.
                let g = unsafe { shared.below(n) };
                let c = st.candidate(ctx.moves, g);
                if c >= st.limit {
                    // Solved alone once all before it is final.
                    exact_until = n + 1;
                    b.end = n;
                    break;
                }
                if !st.need.is_empty() {
                    search.cover(g, n);
                    let from = b.needs.len();
                    b.needs.extend_from_slice(&st.need);
                    b.heaps.push((n, from, b.needs.len()));
                }
                write(n, c);
                st.record(ctx, n, c)?;
                n += 1;
            }
            b.search = search.clone();
            let mut q = shared.lock();
            if b.heaps.is_empty() {
                q.done.insert(
                    b.start,
                    Outcome {
                        end: b.end,
                        wrong: None,
                    },
                );
            } else {
                q.pending.push_back(b);
                shared.wake.notify_one();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::WordBits;
    use std::sync::Mutex;

    /// The search's three ways (comparing each value, compiled plain and for AVX2, and the
    /// table of values looked for) against every pair counted by hand, on values past the
    /// table's 512 and runs of pairs that end inside a block of lanes.
    #[test]
    fn every_way_of_the_search_finds_what_the_pairs_reach() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for round in 0..60 {
            let top = [40, 300, 700][round % 3];
            let n = 2 + next(3000) as usize;
            let g: Vec<u16> = (0..n).map(|_| next(top) as u16).collect();
            let split: Vec<usize> = (0..1 + next(3))
                .map(|_| 1 + next(3) as usize)
                .filter(|&k| k + 2 <= n)
                .collect();
            let mut reached = std::collections::BTreeSet::new();
            for &k in &split {
                let r = n - k;
                for a in 1..=r / 2 {
                    reached.insert((g[a] ^ g[r - a]) as usize);
                }
            }
            let mut need: Vec<usize> = (0..512).filter(|_| next(4) == 0).collect();
            need.truncate(1 + next(80) as usize);
            let want: Vec<usize> = need
                .iter()
                .copied()
                .filter(|v| !reached.contains(v))
                .collect();
            let mut search = Search::new();
            search.cover(&g, n);
            let sorted = |mut v: Vec<usize>| {
                v.sort_unstable();
                v
            };
            let mut plain = need.clone();
            find_lanes(&search.mirror, &g, n, &split, &mut plain, 1);
            assert_eq!(
                sorted(plain),
                want,
                "compared one by one, n {n}, split {split:?}"
            );
            let mut chosen = need.clone();
            search.find(&g, n, &split, &mut chosen);
            assert_eq!(sorted(chosen), want, "the search, n {n}, split {split:?}");
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                let mut by_table = need.clone();
                // SAFETY: the processor has AVX2 (checked just above).
                unsafe { table::find(&search.mirror, &g, n, &split, &mut by_table) };
                assert_eq!(
                    sorted(by_table),
                    want,
                    "by the table, n {n}, split {split:?}"
                );
            }
        }
    }

    /// Saves every offer; resumes from a given save.
    #[derive(Default)]
    struct Recorder {
        saved: Mutex<Vec<(String, Wave, Vec<u8>)>>,
        from: Option<(String, Wave, Vec<u8>)>,
    }

    impl Saves for Recorder {
        fn resume(&self, _: &str, _: u64) -> Result<Option<(Wave, WordBits)>> {
            Ok(None)
        }
        fn finished_wave(&self, _: &str, _: Wave, _: &WordBits) -> Result<()> {
            Ok(())
        }
        fn resume_bytes(&self, solves: &[&str], _: u64) -> Result<Option<(String, Wave, Vec<u8>)>> {
            if let Some((name, _, _)) = &self.from {
                assert!(solves.contains(&name.as_str()));
            }
            Ok(self.from.clone())
        }
        fn finished_bytes(&self, solve: &str, at: Wave, bytes: &[u8]) -> Result<()> {
            self.saved
                .lock()
                .unwrap()
                .push((solve.into(), at, bytes.to_vec()));
            Ok(())
        }
    }

    #[test]
    fn a_solve_resumed_from_any_save_ends_with_the_same_values_in_either_width() {
        // Officers (0.6) passes value 255 near heap 60,000: saves of one byte a value before
        // it, of two after. Its rare heaps go on to heap 20,627: guesses fail and are redone
        // on several threads, and the saves are the same bytes at any thread count.
        let code = crate::games::octal::Code::parse("0.6").unwrap();
        let digits = match &code {
            crate::games::octal::Code::Octal(d) => d.clone(),
            _ => unreachable!(),
        };
        let max = 90_000;
        let warm = || crate::games::octal::plain_values(&code, 255, &()).unwrap();
        let plain = crate::games::octal::plain_values(&code, max, &()).unwrap();
        let mut first: Option<Vec<(String, Wave, Vec<u8>)>> = None;
        for (threads, calm) in [(1, CALM), (2, CALM), (3, 0), (2, 100)] {
            let rec = Recorder::default();
            let full = solve_in_blocks(
                &digits,
                max,
                warm(),
                &(),
                &rec,
                Pace {
                    block: 10_000,
                    threads,
                    calm,
                },
            )
            .unwrap();
            assert!(matches!(full, Nimbers::Wide(_)));
            assert_eq!(full.into_wide(), plain, "{threads} threads");
            let saved = rec.saved.into_inner().unwrap();
            assert_eq!(
                saved.len(),
                9,
                "a save offered every 10,000 heaps, before the last heap"
            );
            let widths: Vec<usize> = saved
                .iter()
                .map(|(_, at, b)| b.len() / at.done as usize)
                .collect();
            assert!(widths.contains(&1) && widths.contains(&2), "{widths:?}");
            match &first {
                None => first = Some(saved),
                Some(f) => assert!(*f == saved, "the saves at {threads} threads differ"),
            }
        }
        let full = solve_in_blocks(
            &digits,
            max,
            warm(),
            &(),
            &(),
            Pace {
                block: 10_000,
                threads: 1,
                calm: CALM,
            },
        )
        .unwrap();
        for s in first.unwrap() {
            for threads in [1, 2] {
                let from = Recorder {
                    from: Some(s.clone()),
                    ..Default::default()
                };
                let resumed = solve_in_blocks(
                    &digits,
                    max,
                    warm(),
                    &(),
                    &from,
                    Pace {
                        block: 10_000,
                        threads,
                        calm: 0,
                    },
                )
                .unwrap();
                assert_eq!(
                    resumed, full,
                    "resumed from {} heaps ({}), {threads} threads",
                    s.1.done, s.0
                );
            }
        }
    }

    #[test]
    fn guesses_checked_on_other_threads_give_the_plain_values() {
        // Codes with rare heaps early and late (0.16, 0.127, 4.344), a value past 255 (0.6
        // beyond), a split without taking (4.), short blocks so batches end often.
        for (text, max) in [
            ("0.16", 20_000u32),
            ("0.127", 12_000),
            ("0.137", 5_000),
            ("0.6", 70_000),
            ("4.344", 6_000),
            ("0.4", 3_000),
            ("0.167", 30_000),
            ("0.53", 8_000),
        ] {
            let code = crate::games::octal::Code::parse(text).unwrap();
            let digits = match &code {
                crate::games::octal::Code::Octal(d) => d.clone(),
                _ => unreachable!(),
            };
            let plain = crate::games::octal::plain_values(&code, max, &()).unwrap();
            let warm = crate::games::octal::plain_values(&code, 255.min(max), &()).unwrap();
            // Guessing from the start (calm 0: every rare value is a failed guess), after
            // short and the usual calm stretches.
            for (threads, block, calm) in
                [(2, 1 << 20, 0), (3, 1000, 0), (2, 37, 50), (2, 5000, CALM)]
            {
                let got = solve_in_blocks(
                    &digits,
                    max,
                    warm.clone(),
                    &(),
                    &(),
                    Pace {
                        block,
                        threads,
                        calm,
                    },
                )
                .unwrap();
                assert_eq!(
                    got.into_wide(),
                    plain,
                    "{text} to {max}, {threads} threads, blocks of {block}"
                );
            }
        }
    }
}
