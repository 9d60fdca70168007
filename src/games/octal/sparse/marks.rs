//! What the rare/common solve knows of the heaps solved so far besides their values (how
//! often each value occurs, the mask's rare class, the rare heaps), and the marks of the
//! values a heap's moves reach, from which its candidate value and the rare values still to
//! be looked for among its pairs ([`super::search`]) follow.

use super::search::Search;
use super::{Context, Moves, Width};
use crate::{Error, Result};

/// Most rare heaps kept (six bytes each; the memory stated for a build allows 8 MiB).
const MAX_RARE: usize = 1 << 20;

/// Values a heap's marks cover: every value of two bytes.
const SEEN: usize = 1 << 16;

/// Heaps whose marks by the rare heaps far below are made together (see [`Group`]).
const GROUP: usize = 16;

/// Values a group's marks cover (the groups are used while every value is below it).
const GROUP_VALUES: usize = 1024;

/// Words of a heap's marks in a group.
const GROUP_WORDS: usize = GROUP_VALUES / 64;

/// The rare class of a mask: `class[v]` is 1 when `v` is rare, over `limit` values.
fn rare_class(mask: usize, limit: usize) -> Vec<u8> {
    (0..limit)
        .map(|v| ((v & mask).count_ones() % 2 == 0) as u8)
        .collect()
}

/// The mask (of the low bits that the values use, ten at most) with the fewest rare heaps,
/// from the counts of each value.
pub(in crate::games::octal) fn choose_mask(count: &[u64]) -> usize {
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
pub(super) struct Marks<V> {
    /// Values of this width: `0..limit`.
    pub(super) limit: usize,
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
    pub(super) need: Vec<usize>,
}

impl<V: Width> Marks<V> {
    /// The state after the values `g`.
    pub(super) fn new(g: &[V]) -> Marks<V> {
        let limit = 1 << (8 * V::BYTES);
        let mut count = vec![0u64; limit];
        let mut top = 0;
        for &v in g {
            count[v.get()] += 1;
            top = top.max(v.get());
        }
        let mut st = Marks {
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
    pub(super) fn candidate(&mut self, moves: &Moves, g: &[V]) -> usize {
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

    /// [`Marks::mark`] from the group's marks (made anew when heap `n` is not in it) and the
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
    pub(super) fn exact(
        &mut self,
        moves: &Moves,
        search: &mut Search<V>,
        g: &[V],
    ) -> (usize, usize) {
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
    pub(super) fn record(&mut self, ctx: &Context, n: usize, value: usize) -> Result<()> {
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
    pub(super) fn forget(&mut self, g: &[V], from: usize) {
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
