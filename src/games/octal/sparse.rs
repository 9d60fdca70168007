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

use crate::game::Progress;
use crate::solve::{Saves, Wave};
use crate::{Error, Result};

/// Heaps between two offers to save.
pub const BLOCK: usize = 1 << 20;

/// Longest prefix of values kept reversed for the search (see [`Search`]).
const MAX_MIRROR: usize = 1 << 24;

/// Most rare heaps kept (six bytes each; the memory stated for a build allows 8 MiB).
const MAX_RARE: usize = 1 << 20;

/// Pairs compared at once in the search.
const LANES: usize = 64;

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
    solve_in_blocks(digits, max_heap, warm, progress, saves, BLOCK)
}

/// [`solve`], offering a save every `block` heaps.
fn solve_in_blocks(
    digits: &[u8],
    max_heap: u32,
    warm: Vec<u16>,
    progress: &dyn Progress,
    saves: &dyn Saves,
    block: usize,
) -> Result<Nimbers> {
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
/// `a` are two runs of memory in the same direction: `mirror[len − 1 − a] = g[a]`.
struct Search<V> {
    mirror: Vec<V>,
}

impl<V: Width> Search<V> {
    /// Keeps the mirror long enough for the pairs of heap `n` (it covers `a ≤ n / 2` up to
    /// [`MAX_MIRROR`]).
    fn cover(&mut self, g: &[V], n: usize) {
        let len = self.mirror.len();
        if 2 * len < n && len < MAX_MIRROR {
            let len = (n / 2 + 1).next_power_of_two().min(MAX_MIRROR);
            self.mirror = (0..len).map(|j| g[len - 1 - j]).collect();
        }
    }

    /// Looks for the values of `need` among `G(a) xor G(r − a)`
    /// over the pairs of every split, `a` from 1 up; removes those found and stops when none
    /// is left.
    fn find(&self, g: &[V], n: usize, split: &[usize], need: &mut Vec<usize>) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2 (checked just above).
            return unsafe { self.find_avx2(g, n, split, need) };
        }
        self.find_in(g, n, split, need)
    }

    /// [`Search::find`] compiled for AVX2: twice the pairs an instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn find_avx2(&self, g: &[V], n: usize, split: &[usize], need: &mut Vec<usize>) {
        self.find_in(g, n, split, need)
    }

    #[inline(always)]
    fn find_in(&self, g: &[V], n: usize, split: &[usize], need: &mut Vec<usize>) {
        let len = self.mirror.len();
        let mut a0 = 1;
        loop {
            let mut any = false;
            for &k in split {
                let r = n - k;
                let hi = r / 2;
                if a0 > hi {
                    continue;
                }
                any = true;
                let end = (a0 + LANES - 1).min(hi);
                if end + 1 - a0 == LANES && a0 + LANES <= len {
                    // Pairs a = a0 + LANES − 1 − i, for i in 0..LANES.
                    let left = &self.mirror[len - a0 - LANES..len - a0];
                    let right = &g[r - a0 - LANES + 1..r - a0 + 1];
                    let mut i = 0;
                    while i < need.len() {
                        if lanes_hit(left, right, V::of(need[i])) {
                            need.swap_remove(i);
                            if need.is_empty() {
                                return;
                            }
                        } else {
                            i += 1;
                        }
                    }
                } else {
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
            if !any {
                return;
            }
            a0 += LANES;
        }
    }
}

/// Whether `left[i] xor right[i] == v` for some `i` (written so that it compiles to vector
/// instructions).
#[inline(always)]
fn lanes_hit<V: Width>(left: &[V], right: &[V], v: V) -> bool {
    let (left, right) = (&left[..LANES], &right[..LANES]);
    let mut hit = false;
    for i in 0..LANES {
        hit |= xor(left[i], right[i]) == v;
    }
    hit
}

#[inline(always)]
fn xor<V: Width>(a: V, b: V) -> V {
    V::of(a.get() ^ b.get())
}

/// Extends `g` (the values of heaps `0..g.len()`) to every heap, in values of width `V`.
fn run<V: Width>(ctx: &Context, mut g: Vec<V>, name: &str) -> Result<Run<V>> {
    let n_all = ctx.n_all;
    if g.capacity() < n_all {
        g.try_reserve_exact(n_all - g.len()).map_err(|_| {
            Error::Unsupported(format!(
                "not enough memory for {n_all} values of {} byte(s)",
                V::BYTES
            ))
        })?;
    }
    let limit = 1 << (8 * V::BYTES); // values of this width: 0..limit
    let mut count = vec![0u64; limit];
    let mut top = 0;
    for &v in &g {
        count[v.get()] += 1;
        top = top.max(v.get());
    }
    // The rare heaps, ascending, and their values.
    let rebuild = |g: &[V], count: &[u64]| -> (Vec<u8>, Vec<u32>, Vec<V>) {
        let class = rare_class(choose_mask(count), limit);
        let heaps: Vec<u32> = (1..g.len())
            .filter(|&i| class[g[i].get()] != 0)
            .map(|i| i as u32)
            .collect();
        let values = heaps.iter().map(|&i| g[i as usize]).collect();
        (class, heaps, values)
    };
    let (mut class, mut rare, mut rare_values) = rebuild(&g, &count);
    let mut next_choice = 2 * g.len();
    let mut rare_at_choice = rare.len();
    let mut search = Search::<V> { mirror: Vec::new() };
    let mut need: Vec<usize> = Vec::with_capacity(limit);
    // Value v is reached when bit v is set in one of four sets of words (marks go round the
    // four, so that consecutive marks of one word do not wait for each other).
    let limit_words = limit / 64;
    let mut seen = vec![0u64; 4 * limit_words];
    let rare_bits = |class: &[u8]| -> Vec<u64> {
        let mut w = vec![0u64; limit_words];
        (0..limit).filter(|&v| class[v] != 0).for_each(|v| w[v >> 6] |= 1 << (v & 63));
        w
    };
    let mut class_bits = rare_bits(&class);
    let mut reported = g.len();
    let moves = ctx.moves;
    while g.len() < n_all {
        let n = g.len();
        if n >= next_choice || rare.len() > 2 * rare_at_choice + 64 {
            (class, rare, rare_values) = rebuild(&g, &count);
            class_bits = rare_bits(&class);
            next_choice = 2 * n;
            rare_at_choice = rare.len();
        }
        // Options are xors of values up to `top`: below the next power of two, so the mex is
        // at most that power.
        let words = ((top + 1).next_power_of_two() / 64 + 1).min(limit_words);
        let (s0, rest) = seen.split_at_mut(limit_words);
        let (s1, rest) = rest.split_at_mut(limit_words);
        let (s2, s3) = rest.split_at_mut(limit_words);
        for s in [&mut *s0, &mut *s1, &mut *s2, &mut *s3] {
            s[..words].fill(0);
        }
        let mark = |s: &mut [u64], v: usize| s[v >> 6] |= 1 << (v & 63);
        for &k in &moves.take {
            mark(s0, g[n - k].get());
        }
        for &k in &moves.split {
            let r = n - k;
            let m = rare.partition_point(|&a| (a as usize) < r);
            let (heaps, values) = (&rare[..m], &rare_values[..m]);
            let mut i = 0;
            while i + 4 <= m {
                mark(s0, values[i].get() ^ g[r - heaps[i] as usize].get());
                mark(s1, values[i + 1].get() ^ g[r - heaps[i + 1] as usize].get());
                mark(s2, values[i + 2].get() ^ g[r - heaps[i + 2] as usize].get());
                mark(s3, values[i + 3].get() ^ g[r - heaps[i + 3] as usize].get());
                i += 4;
            }
            for j in i..m {
                mark(s0, values[j].get() ^ g[r - heaps[j] as usize].get());
            }
        }
        for w in 0..words {
            s0[w] |= s1[w] | s2[w] | s3[w];
        }
        // The smallest common value not reached (`limit` when every one of this width is).
        let mut c = limit;
        for w in 0..words {
            let both = s0[w] | class_bits[w];
            if both != u64::MAX {
                c = w * 64 + (!both).trailing_zeros() as usize;
                break;
            }
        }
        // The rare values below it not reached yet.
        need.clear();
        for w in 0..words.min(c.div_ceil(64)) {
            let mut bits = class_bits[w] & !s0[w];
            if (w + 1) * 64 > c {
                bits &= (1u64 << (c - w * 64)) - 1;
            }
            while bits != 0 {
                need.push(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        let value = if need.is_empty() {
            c
        } else {
            search.cover(&g, n);
            search.find(&g, n, &moves.split, &mut need);
            need.iter().copied().min().unwrap_or(c)
        };
        if value >= limit {
            return Ok(Run::Overflow(g));
        }
        count[value] += 1;
        top = top.max(value);
        if class[value] != 0 {
            if rare.len() >= MAX_RARE {
                return Err(Error::Unsupported(format!(
                    "octal {}: {MAX_RARE} heaps below {n} have rare values, so the rare/common \
                     method is no faster than the plain one for this code (its values have no \
                     sparse split); build a smaller --max-heap, or use --method plain",
                    crate::games::octal::Code::Octal(ctx.digits.to_vec())
                )));
            }
            rare.push(n as u32);
            rare_values.push(V::of(value));
        }
        g.push(V::of(value));
        if g.len() % ctx.block == 0 || g.len() == n_all {
            ctx.progress.inc((g.len() - reported) as u64);
            reported = g.len();
            let at = Wave {
                next: g.len() / ctx.block,
                waves: ctx.waves,
                done: g.len() as u64,
            };
            if g.len() < n_all {
                ctx.saves.finished_bytes(name, at, &V::bytes(&g))?;
            }
        } else if g.len() % 4096 == 0 {
            ctx.progress.inc((g.len() - reported) as u64);
            reported = g.len();
        }
    }
    Ok(Run::Done(g))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::WordBits;
    use std::sync::Mutex;

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
            self.saved.lock().unwrap().push((solve.into(), at, bytes.to_vec()));
            Ok(())
        }
    }

    #[test]
    fn a_solve_resumed_from_any_save_ends_with_the_same_values_in_either_width() {
        // Officers (0.6) passes value 255 near heap 60,000: saves of one byte a value before
        // it, of two after.
        let code = crate::games::octal::Code::parse("0.6").unwrap();
        let digits = match &code {
            crate::games::octal::Code::Octal(d) => d.clone(),
            _ => unreachable!(),
        };
        let max = 90_000;
        let warm = || crate::games::octal::plain_values(&code, 255, &()).unwrap();
        let rec = Recorder::default();
        let full = solve_in_blocks(&digits, max, warm(), &(), &rec, 10_000).unwrap();
        assert!(matches!(full, Nimbers::Wide(_)));
        assert_eq!(full.into_wide(), crate::games::octal::plain_values(&code, max, &()).unwrap());
        let full = solve_in_blocks(&digits, max, warm(), &(), &(), 10_000).unwrap();
        let saved = rec.saved.into_inner().unwrap();
        assert_eq!(saved.len(), 9, "a save offered every 10,000 heaps, before the last heap");
        let widths: Vec<usize> = saved.iter().map(|(_, at, b)| b.len() / at.done as usize).collect();
        assert!(widths.contains(&1) && widths.contains(&2), "{widths:?}");
        for s in saved {
            let from = Recorder {
                from: Some(s.clone()),
                ..Default::default()
            };
            let resumed = solve_in_blocks(&digits, max, warm(), &(), &from, 10_000).unwrap();
            assert_eq!(resumed, full, "resumed from {} heaps ({})", s.1.done, s.0);
        }
    }
}
