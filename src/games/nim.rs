//! Bounded Nim (Bouton 1901; Xiao Renwu, "过年玩几个数学游戏", part II): `s` heaps of `0..=H` counters; a move takes
//! `1..=K` counters from one heap (no K: any number); normal play (taking the last counter
//! wins) or misère (it loses).
//!
//! Heap order does not matter, so positions are multisets: the heaps sorted in descending
//! order `x1 >= x2 >= ... >= xs`. The index is *sum-major*: level `n` holds the multisets with
//! `n` counters in all (every move lowers the sum), and inside a level the multisets are
//! ranked in lexicographic order of the descending sequence:
//!
//! ```text
//! index(x) = start[n] + Σ_i  cnt(s-i, x_i - 1, n - x_1 - ... - x_{i-1})     (terms with x_i = 0 are 0)
//! ```
//!
//! where `cnt(k, m, r)` is the number of non-increasing sequences of length `k` with values in
//! `0..=m` summing to `r` (`cnt(k, m, r) = cnt(k, m-1, r) + cnt(k-1, m, r-m)`), and
//! `start[n] = Σ_{r<n} cnt(s, H, r)`. The table has C(H+s, s) entries.

use std::ops::{ControlFlow, Range};

use crate::game::{
    binomial, params, Arguments, GameSpec, HeapSequence, Move, Param, Rules, View, MAX_POSITIONS,
};
use crate::model::{Game, Indexed, Outcome, Retro, ValueKind};
use crate::{Error, Result};

/// Most heaps a table may have.
pub(crate) const MAX_HEAPS: u32 = 32;
/// Largest heap size a table may allow.
pub(crate) const MAX_HEAP: u32 = 255;
/// Most entries of the ranking table `cnt` (keeps it within 64 MiB).
const MAX_COUNT_TABLE: u64 = 1 << 23;

/// Parameters of a Nim table, checked: build one with [`NimSpec::new`].
#[derive(Clone, Debug, PartialEq)]
pub struct NimSpec {
    heaps: u32,
    max_heap: u32,
    max_take: Option<u32>,
    misere: bool,
}

impl NimSpec {
    /// Checks the parameters: 1..=32 heaps of 0..=`max_heap` (1..=255) counters, a move taking
    /// 1..=`max_take` counters (`None`: any number), normal or misère play.
    pub fn new(heaps: u32, max_heap: u32, max_take: Option<u32>, misere: bool) -> Result<NimSpec> {
        if heaps == 0 || heaps > MAX_HEAPS {
            return Err(Error::bad(format!(
                "--heaps {heaps}: expected 1..={MAX_HEAPS}"
            )));
        }
        if max_heap == 0 || max_heap > MAX_HEAP {
            return Err(Error::bad(format!(
                "--max-heap {max_heap}: expected 1..={MAX_HEAP}"
            )));
        }
        if let Some(k) = max_take {
            if k == 0 {
                return Err(Error::bad(
                    "--max-take 0: expected a positive number (leave it out for unlimited)",
                ));
            }
        }
        let spec = NimSpec {
            heaps,
            max_heap,
            max_take: max_take.map(|k| k.min(max_heap)),
            misere,
        };
        let (s, h) = (heaps as u64, max_heap as u64);
        let table = (s + 1) * (h + 1) * (s * h + 1);
        if table > MAX_COUNT_TABLE {
            return Err(Error::Unsupported(format!(
                "{heaps} heaps of 0..={max_heap}: the ranking table would need {table} entries \
                 (at most {MAX_COUNT_TABLE}); use fewer heaps or smaller heaps"
            )));
        }
        match binomial(h + s, s) {
            Some(n) if n <= MAX_POSITIONS => Ok(spec),
            _ => Err(Error::Unsupported(format!(
                "{heaps} heaps of 0..={max_heap} have more than {MAX_POSITIONS} positions"
            ))),
        }
    }

    /// Number of heaps.
    pub fn heaps(&self) -> u32 {
        self.heaps
    }

    /// Largest heap size.
    pub(crate) fn max_heap(&self) -> u32 {
        self.max_heap
    }

    /// Misère play: taking the last counter loses.
    pub fn misere(&self) -> bool {
        self.misere
    }

    fn take(&self) -> u32 {
        self.max_take.unwrap_or(self.max_heap)
    }

    /// Memory of the ranking tables `cnt` and `start`, and the packed terms and their rows (see
    /// `Nim::new`): row `(k, m)` holds `min(k * (m + 1), s * h) + 1` terms.
    fn ranking_memory(&self) -> u64 {
        let (s, h) = (self.heaps as u64, self.max_heap as u64);
        let packed: u64 = (0..=s)
            .flat_map(|k| (0..=h).map(move |m| (k * (m + 1)).min(s * h) + 1))
            .sum();
        ((s + 1) * (h + 1) * (s * h + 1) + s * h + 2 + packed + (s + 1) * (h + 1)) * 8
    }
}

impl GameSpec for NimSpec {
    const NAME: &'static str = "nim";
    const ABOUT: &'static str = "Bounded Nim: S heaps of 0..H, a move takes 1..K from one heap";
    const PARAMS: &'static [Param] = &[
        Param::required("heaps", "S", "Number of heaps"),
        Param::required("max-heap", "H", "Largest heap size"),
        Param::optional(
            "max-take",
            "K",
            "Most counters a move may take (default: any number)",
        ),
        Param::flag(
            "misere",
            "Misère play: whoever takes the last counter loses",
        ),
    ];
    const VALUES: &'static [ValueKind] = &[ValueKind::Outcome, ValueKind::Grundy];

    // Solved by pushing each P-position to its parents (each P-position marks its parents N),
    // not by the forward solver; the ranking tables beside its tables.
    fn view(&self) -> View {
        View::retrograde(Nim::new(self.clone())).plus_memory(self.ranking_memory())
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        let misere = a.flag("misere");
        if misere && a.get("values") == Some("grundy") {
            return Err(Error::bad(
                "--values grundy needs normal play: Grundy values are not defined for misère Nim",
            ));
        }
        NimSpec::new(
            a.number("heaps")?,
            a.number("max-heap")?,
            a.optional_number("max-take")?,
            misere,
        )
    }

    fn parameters(&self) -> String {
        params::write(&[
            ("heaps", Some(self.heaps.to_string())),
            ("max-heap", Some(self.max_heap.to_string())),
            ("max-take", self.max_take.map(|k| k.to_string())),
            ("misere", self.misere.then(|| "true".into())),
        ])
    }

    fn stem(&self) -> String {
        let mut s = format!("nim-{}x{}", self.heaps, self.max_heap);
        if let Some(k) = self.max_take {
            s += &format!("-k{k}");
        }
        if self.misere {
            s += "-misere";
        }
        s
    }

    fn describe(&self) -> String {
        format!(
            "Nim: {} heaps of 0..={}, take {}, {} play",
            self.heaps,
            self.max_heap,
            match self.max_take {
                Some(k) => format!("1..={k}"),
                None => "any number".into(),
            },
            if self.misere { "misère" } else { "normal" }
        )
    }

    fn value_kinds(&self) -> &'static [ValueKind] {
        if self.misere {
            &[ValueKind::Outcome]
        } else {
            &[ValueKind::Outcome, ValueKind::Grundy]
        }
    }

    fn samples() -> Vec<Self> {
        [
            (1, 6, None, false),
            (3, 4, None, false),
            (3, 5, Some(2), true),
            (4, 3, None, true),
            (2, 7, Some(3), false),
        ]
        .into_iter()
        .filter_map(|(s, h, k, m)| NimSpec::new(s, h, k, m).ok())
        .collect()
    }
}

/// Heaps of one position, sorted in descending order (only the first `s` are used).
type Heaps = [u8; MAX_HEAPS as usize];

/// Nim over its dense index.
pub struct Nim {
    spec: NimSpec,
    s: usize,
    h: usize,
    take: usize,
    /// `cnt(k, m, r)` at `(k * (h+1) + m) * (s*h+1) + r`.
    cnt: Vec<u64>,
    /// `start[n]`, with `start[s*h+1]` = number of positions.
    start: Vec<u64>,
    /// The terms lookups read, packed: `cnt(k, m, r)` for `r <= k * (m + 1)` (the sums a
    /// heap of `m + 1` and `k - 1` heaps no larger can hold; above, the term is never read)
    /// at `row[k * (h+1) + m] + r`. A quarter of `cnt` for 6 heaps of 0..=63 (320 KiB beside
    /// 1.3 MiB), so that the ranks of a query's ~190 children find it in the cache.
    terms: Vec<u64>,
    /// Where each `(k, m)` row of `terms` starts.
    row: Vec<usize>,
}

impl Nim {
    /// The game of `spec` (builds the ranking tables).
    pub fn new(spec: NimSpec) -> Nim {
        let (s, h) = (spec.heaps as usize, spec.max_heap as usize);
        let sums = s * h + 1;
        let mut cnt = vec![0u64; (s + 1) * (h + 1) * sums];
        let at = |k: usize, m: usize, r: usize| (k * (h + 1) + m) * sums + r;
        for m in 0..=h {
            cnt[at(0, m, 0)] = 1;
        }
        for k in 1..=s {
            for m in 0..=h {
                for r in 0..sums {
                    let below = if m > 0 { cnt[at(k, m - 1, r)] } else { 0 };
                    let with_m = if r >= m { cnt[at(k - 1, m, r - m)] } else { 0 };
                    cnt[at(k, m, r)] = below + with_m;
                }
            }
        }
        let mut start = Vec::with_capacity(sums + 1);
        let mut acc = 0;
        for r in 0..sums {
            start.push(acc);
            acc += cnt[at(s, h, r)];
        }
        start.push(acc);
        let take = spec.take() as usize;
        let mut terms = Vec::new();
        let mut row = Vec::with_capacity((s + 1) * (h + 1));
        for k in 0..=s {
            for m in 0..=h {
                row.push(terms.len());
                let last = (k * (m + 1)).min(sums - 1);
                terms.extend((0..=last).map(|r| cnt[at(k, m, r)]));
            }
        }
        Nim {
            spec,
            s,
            h,
            take,
            cnt,
            start,
            terms,
            row,
        }
    }

    #[inline]
    fn cnt(&self, k: usize, m: usize, r: usize) -> u64 {
        self.cnt[(k * (self.h + 1) + m) * (self.s * self.h + 1) + r]
    }

    /// Index of heaps sorted in descending order.
    #[inline]
    fn rank_sorted(&self, x: &[u8]) -> u64 {
        let n: usize = x.iter().map(|&v| v as usize).sum();
        let mut index = self.start[n];
        let mut rem = n;
        for (i, &v) in x.iter().enumerate() {
            let v = v as usize;
            if v > 0 {
                index += self.cnt(self.s - i, v - 1, rem);
            }
            rem -= v;
        }
        index
    }

    /// Heaps (descending) of an index.
    fn unrank_sorted(&self, index: u64) -> Heaps {
        let n = self.start.partition_point(|&st| st <= index) - 1;
        let mut r = index - self.start[n];
        let mut rem = n;
        let mut prev = self.h;
        let mut x = [0u8; MAX_HEAPS as usize];
        for (i, slot) in x.iter_mut().enumerate().take(self.s) {
            let k = self.s - i;
            let mut v = 0;
            while v < prev.min(rem) && self.cnt(k, v, rem) <= r {
                v += 1;
            }
            if v > 0 {
                r -= self.cnt(k, v - 1, rem);
            }
            rem -= v;
            prev = v;
            *slot = v as u8;
        }
        x
    }

    /// Index of at most `s` heaps sorted in descending order (the table's other heaps
    /// empty), as [`rank_sorted`](Nim::rank_sorted), for lookups, where positions and their
    /// children come in no order: no data-dependent branch (an empty heap's term is read and
    /// multiplied by 0), and no term for the last heap (`cnt(1, v - 1, v)` is always 0: one
    /// heap below `v` cannot hold `v` counters) nor for empty heaps past the ones given.
    #[inline]
    fn rank_descending(&self, x: &[u8]) -> u64 {
        let n = x.iter().map(|&v| v as usize).sum::<usize>();
        let mut index = self.start[n];
        let mut rem = n;
        for (i, &v) in x.iter().enumerate().take(self.s - 1) {
            let v = v as usize;
            // Heaps descend, so the `k` heaps from this one hold at most `k * v` counters:
            // `rem` is inside the packed row (an empty heap's row 0 is read at `rem` = 0).
            let row = self.row[(self.s - i) * (self.h + 1) + v.saturating_sub(1)];
            index += self.terms[row + rem] * (v > 0) as u64;
            rem -= v;
        }
        index
    }

    /// The heaps of a checked position sorted in descending order, padded with empty heaps.
    #[inline]
    fn sorted(pos: &[u32], s: usize) -> Heaps {
        let mut x = [0u8; MAX_HEAPS as usize];
        if pos.len() <= 8 {
            // Few heaps: place each heap at its final slot, counting the larger heaps and the
            // equal heaps before it. No data-dependent branch, so random positions cost no
            // mispredictions (this is most of the time of a lookup's ranking).
            for (j, &v) in pos.iter().enumerate() {
                let mut slot = 0;
                for (k, &w) in pos.iter().enumerate() {
                    slot += (w > v) as usize + ((k < j) & (w == v)) as usize;
                }
                x[slot] = v as u8;
            }
        } else {
            // Empty heaps beyond the table's `s` may be listed: keep the non-empty ones (at
            // most `s` in a checked position) and sort them.
            for (slot, &v) in x.iter_mut().zip(pos.iter().filter(|&&v| v > 0)) {
                *slot = v as u8;
            }
            x[..s].sort_unstable_by(|a, b| b.cmp(a));
        }
        x
    }
}

impl Indexed for Nim {
    fn positions(&self) -> u64 {
        *self.start.last().unwrap()
    }
}

impl Game for Nim {
    fn level_count(&self) -> u64 {
        self.start.len() as u64 - 1
    }

    fn level(&self, l: u64) -> Range<u64> {
        self.start[l as usize]..self.start[l as usize + 1]
    }

    fn children<F: FnMut(u64) -> ControlFlow<()>>(&self, pos: u64, mut f: F) -> ControlFlow<()> {
        let x = self.unrank_sorted(pos);
        let s = self.s;
        for i in 0..s {
            // Equal heaps give equal children: use the first of each run.
            if x[i] == 0 || (i > 0 && x[i - 1] == x[i]) {
                continue;
            }
            let mut c = x;
            let mut j = i;
            for t in 1..=self.take.min(x[i] as usize) {
                let y = x[i] - t as u8;
                // Slide the lowered heap right to keep the order descending.
                while j + 1 < s && c[j + 1] > y {
                    c[j] = c[j + 1];
                    j += 1;
                }
                c[j] = y;
                f(self.rank_sorted(&c[..s]))?;
            }
        }
        ControlFlow::Continue(())
    }

    fn terminal(&self, pos: u64) -> Option<Outcome> {
        // Index 0 is the only position without counters.
        (pos == 0).then_some(Outcome::from_win(self.spec.misere))
    }
}

impl Retro for Nim {
    fn parents<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
        let x = self.unrank_sorted(pos);
        let s = self.s;
        for i in 0..s {
            if i > 0 && x[i - 1] == x[i] {
                continue;
            }
            let mut c = x;
            let mut j = i;
            let room = self.h - x[i] as usize;
            for t in 1..=self.take.min(room) {
                let y = x[i] + t as u8;
                // Slide the raised heap left to keep the order descending.
                while j > 0 && c[j - 1] < y {
                    c[j] = c[j - 1];
                    j -= 1;
                }
                c[j] = y;
                f(self.rank_sorted(&c[..s]));
            }
        }
    }
}

impl Rules for Nim {
    /// No counter left: the previous player took the last one, which wins in normal play and
    /// loses in misère play.
    fn terminal_outcome(&self, _pos: &[u32]) -> Outcome {
        if self.spec.misere {
            Outcome::N
        } else {
            Outcome::P
        }
    }

    fn position_form(&self) -> String {
        format!(
            "heap sizes h1,h2,... in any order: 1 to {} heaps, each 0..={} (missing heaps are empty)",
            self.s, self.h
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        // Missing heaps are empty, and empty heaps may also be written out (`1,2,3,0` on a
        // 3-heap table), up to MAX_HEAPS numbers in all.
        let heaps = pos.iter().filter(|&&v| v > 0).count();
        if pos.is_empty() || pos.len() > MAX_HEAPS as usize || heaps > self.s {
            let what = if pos.len() > MAX_HEAPS as usize {
                format!("{} numbers (at most {MAX_HEAPS})", pos.len())
            } else if heaps > self.s && heaps < pos.len() {
                format!("{heaps} non-empty heaps")
            } else {
                format!("{} heaps", pos.len())
            };
            return Err(Error::bad(format!(
                "position '{}' has {what}; expected {}",
                crate::game::quote(pos),
                self.position_form()
            )));
        }
        if let Some(&big) = pos.iter().find(|&&v| v as usize > self.h) {
            return Err(Error::bad(format!(
                "position '{}': heap {big} is larger than this table's largest heap {}; expected {}",
                crate::game::quote(pos),
                self.h,
                self.position_form()
            )));
        }
        Ok(())
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        match self.entry_index(pos) {
            Some(i) => i,
            None => self.rank_sorted(&Nim::sorted(pos, self.s)[..self.s]),
        }
    }

    /// Up to 8 numbers: sorted by a network of compare-exchanges (no data-dependent branch,
    /// so random positions cost no mispredictions), then checked on the sorted heaps — the
    /// largest within the table, no more non-empty heaps than it has — and ranked. Longer
    /// lists take the general path.
    #[inline]
    fn entry_index(&self, pos: &[u32]) -> Option<u64> {
        if pos.is_empty() || pos.len() > 8 {
            return None;
        }
        let mut x: [u32; 8] = std::array::from_fn(|i| pos.get(i).copied().unwrap_or(0));
        sort8_descending(&mut x);
        if x[0] as usize > self.h || x.get(self.s).is_some_and(|&v| v > 0) {
            return None;
        }
        // Each heap at most `self.h` <= 255 (checked just above).
        Some(self.rank_descending(&x.map(|v| v as u8)[..self.s.min(8)]))
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        let x = self.unrank_sorted(index);
        x[..self.s].iter().rev().map(|&v| v as u32).collect()
    }

    fn board(&self, pos: &[u32]) -> String {
        crate::game::heaps_board(pos)
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let mut out = Vec::new();
        for (j, &hj) in pos.iter().enumerate() {
            for t in 1..=hj.min(self.take as u32) {
                let mut leaves = pos.to_vec();
                leaves[j] -= t;
                out.push(Move {
                    label: format!("take {t} from heap {}", j + 1),
                    leaves,
                });
            }
        }
        out
    }

    fn move_indices(&self, pos: &[u32], out: &mut Vec<u64>) {
        // A query on 6 heaps of 0..=63 looks at about 190 children: rank them from the sorted
        // heaps (lower one heap and slide it into place, as `children` does), without the
        // sort and allocations of `moves`.
        let s = self.s;
        let x = Nim::sorted(pos, s);
        out.reserve(pos.iter().map(|&h| h.min(self.take as u32) as usize).sum());
        for &hj in pos {
            let Some(first) = x[..s].iter().position(|&v| v as u32 == hj) else {
                continue; // unreachable for a checked position
            };
            let mut c = x;
            let mut i = first;
            for t in 1..=hj.min(self.take as u32) {
                let y = (hj - t) as u8;
                while i + 1 < s && c[i + 1] > y {
                    c[i] = c[i + 1];
                    i += 1;
                }
                c[i] = y;
                out.push(self.rank_descending(&c[..s]));
            }
        }
    }

    fn moves_at(&self, pos: &[u32], which: &[usize]) -> Vec<Move> {
        let mut out = Vec::with_capacity(which.len());
        let mut which = which.iter().copied().peekable();
        let mut k = 0;
        for (j, &hj) in pos.iter().enumerate() {
            for t in 1..=hj.min(self.take as u32) {
                if which.next_if_eq(&k).is_some() {
                    let mut leaves = pos.to_vec();
                    leaves[j] -= t;
                    out.push(Move {
                        label: format!("take {t} from heap {}", j + 1),
                        leaves,
                    });
                }
                k += 1;
            }
        }
        out
    }

    /// One heap (index = heap): in normal play the subtraction game of takes `1..=K`, whose
    /// periods the octal periodicity theorem proves with `t = K` (never within the table when
    /// a move may take any number). Misère play: not covered, no period proved.
    fn heap_sequence(&self) -> Option<HeapSequence> {
        (self.s == 1).then(|| HeapSequence {
            first: 0,
            step: 1,
            max_heap: self.h as u64,
            heap: "heap".into(),
            note: String::new(),
            theorem: (!self.spec.misere).then_some(self.take as u64),
        })
    }
}

/// Sorts 8 numbers in descending order by the 19 compare-exchanges of Knuth's optimal
/// network (TAOCP vol. 3, 5.3.4), layer by layer: the same operations whatever the numbers,
/// each a min and a max the compiler makes without a branch.
#[inline]
fn sort8_descending(x: &mut [u32; 8]) {
    #[inline(always)]
    fn exchange(x: &mut [u32; 8], a: usize, b: usize) {
        let (hi, lo) = (x[a].max(x[b]), x[a].min(x[b]));
        x[a] = hi;
        x[b] = lo;
    }
    for (a, b) in [(0, 2), (1, 3), (4, 6), (5, 7)] {
        exchange(x, a, b);
    }
    for (a, b) in [(0, 4), (1, 5), (2, 6), (3, 7)] {
        exchange(x, a, b);
    }
    for (a, b) in [(0, 1), (2, 3), (4, 5), (6, 7)] {
        exchange(x, a, b);
    }
    for (a, b) in [(2, 4), (3, 5), (1, 4), (3, 6)] {
        exchange(x, a, b);
    }
    for (a, b) in [(1, 2), (3, 4), (5, 6)] {
        exchange(x, a, b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The network sorts every list of 0s and 1s, hence every list (the 0-1 principle).
    #[test]
    fn the_sorting_network_sorts() {
        for bits in 0u32..256 {
            let mut x: [u32; 8] = std::array::from_fn(|i| bits >> i & 1);
            sort8_descending(&mut x);
            assert!(x.windows(2).all(|w| w[0] >= w[1]), "{bits:08b}: {x:?}");
            assert_eq!(x.iter().sum::<u32>(), bits.count_ones());
        }
        let mut x = [7, u32::MAX, 0, 3, 3, 9, 1, 2];
        sort8_descending(&mut x);
        assert_eq!(x, [u32::MAX, 9, 7, 3, 3, 2, 1, 0]);
    }

    /// The fast path gives the index exactly for the positions the check accepts (every
    /// position of small tables, written in any order with empty heaps or not), and nothing
    /// for lists the check refuses.
    #[test]
    fn entry_index_agrees_with_check_and_rank() {
        for (s, h) in [(1, 5), (3, 7), (6, 4), (8, 2), (9, 2), (2, 255)] {
            let nim = Nim::new(NimSpec::new(s, h, None, false).unwrap());
            let mut lists: Vec<Vec<u32>> = Vec::new();
            for i in (0..nim.positions()).step_by(1 + nim.positions() as usize / 3000) {
                let mut pos = nim.unrank(i);
                lists.push(pos.clone());
                pos.reverse();
                lists.push(pos.clone());
                pos.retain(|&v| v > 0);
                lists.push(pos.clone());
                pos.push(h + 1);
                lists.push(pos.clone());
                pos.pop();
                pos.extend([1, 0]);
                lists.push(pos);
            }
            lists.extend([
                vec![],
                vec![0],
                vec![u32::MAX],
                vec![h, u32::MAX - 1],
                vec![1; 9],
                vec![0; 33],
                vec![1; s as usize + 1],
            ]);
            for pos in lists {
                let checked = nim.check(&pos).is_ok().then(|| nim.rank(&pos));
                match nim.entry_index(&pos) {
                    Some(i) => assert_eq!(Some(i), checked, "{s}x{h} {pos:?}"),
                    None => assert!(pos.len() > 8 || checked.is_none(), "{s}x{h} {pos:?}"),
                }
            }
        }
    }

    #[test]
    fn rank_is_a_bijection_ordered_by_sum() {
        for (s, h) in [(1, 5), (2, 4), (3, 6), (4, 3), (5, 2)] {
            let nim = Nim::new(NimSpec::new(s, h, None, false).unwrap());
            let n = nim.positions();
            assert_eq!(n, binomial((h + s) as u64, s as u64).unwrap());
            let mut last_sum = 0;
            for i in 0..n {
                let x = nim.unrank_sorted(i);
                let xs = &x[..s as usize];
                assert!(xs.windows(2).all(|w| w[0] >= w[1]));
                let sum: u32 = xs.iter().map(|&v| v as u32).sum();
                assert!(sum >= last_sum);
                last_sum = sum;
                assert_eq!(nim.rank_sorted(xs), i, "{xs:?}");
            }
        }
    }

    /// The fast lookup paths (`sorted` without a sort, `move_indices`, `moves_at`) give what
    /// the plain definitions give, on every position written in several orders and lengths.
    #[test]
    fn fast_lookup_paths_agree_with_the_definitions() {
        for (s, h, k) in [(3, 7, None), (4, 5, Some(2)), (9, 2, None), (1, 6, Some(4))] {
            let nim = Nim::new(NimSpec::new(s, h, k, false).unwrap());
            for i in 0..nim.positions() {
                let ascending = nim.unrank(i);
                let mut forms = vec![ascending.clone(), ascending.iter().rev().copied().collect()];
                let nonzero: Vec<u32> = ascending.iter().copied().filter(|&v| v > 0).collect();
                if !nonzero.is_empty() {
                    forms.push(nonzero);
                }
                let mut rotated = ascending.clone();
                rotated.rotate_left(s as usize / 2);
                forms.push(rotated);
                for pos in forms {
                    let mut by_sort = pos.clone();
                    by_sort.sort_unstable_by(|a, b| b.cmp(a));
                    by_sort.resize(s as usize, 0);
                    let sorted = Nim::sorted(&pos, s as usize);
                    let sorted: Vec<u32> = sorted[..s as usize].iter().map(|&v| v as u32).collect();
                    assert_eq!(sorted, by_sort, "{pos:?}");
                    assert_eq!(nim.rank(&pos), i, "{pos:?}");

                    let moves = nim.moves(&pos);
                    let mut fast = Vec::new();
                    nim.move_indices(&pos, &mut fast);
                    let plain: Vec<u64> = moves.iter().map(|m| nim.rank(&m.leaves)).collect();
                    assert_eq!(fast, plain, "{pos:?}");
                    let which: Vec<usize> = (0..moves.len()).filter(|k| k % 3 != 1).collect();
                    let picked: Vec<Move> = which.iter().map(|&k| moves[k].clone()).collect();
                    assert_eq!(nim.moves_at(&pos, &which), picked, "{pos:?}");
                }
            }
        }
    }
}
