//! One pass over a whole heap sequence: per bucket of heaps the smallest and largest value
//! and the values present, the heaps of each value (from which the rare values are chosen as
//! `info` chooses them), and the periodicity, found on the first heaps first.

use rayon::prelude::*;

use crate::game::HeapSequence;
use crate::games::octal::{is_rare, periodicity, rare_mask, Periodicity};
use crate::lookup::Table;
use crate::model::ValueKind;

/// Buckets of the overview: about one per pixel of its width.
const BUCKETS: u64 = 800;
/// Heaps of the first prefix the periodicity is looked for in (then 16 times more each time).
const FIRST_PREFIX: u64 = 1 << 16;

/// A table read as the values of heaps `0..=max_heap`.
pub(crate) struct Sequence<'a> {
    pub(super) table: &'a Table,
    pub(super) seq: HeapSequence,
}

impl<'a> Sequence<'a> {
    /// The sequence of `table`, when its rules read as one value per heap and it stores
    /// Grundy values or outcomes.
    pub(crate) fn of(table: &'a Table) -> Option<Sequence<'a>> {
        let seq = table.rules().heap_sequence()?;
        let kind = table.value_kind();
        let last = seq.step.checked_mul(seq.max_heap)?.checked_add(seq.first)?;
        (matches!(kind, ValueKind::Grundy | ValueKind::Outcome) && last < table.len())
            .then_some(Sequence { table, seq })
    }

    /// The stored value of heap `h` (the Grundy value; for P/N tables 1 for N).
    pub(super) fn value(&self, h: u64) -> u32 {
        self.table.raw(self.seq.first + self.seq.step * h)
    }

    pub(super) fn grundy(&self) -> bool {
        self.table.value_kind() == ValueKind::Grundy
    }

    pub(super) fn max_heap(&self) -> u64 {
        self.seq.max_heap
    }
}

/// What one bucket of heaps holds.
#[derive(Clone, Debug, Default)]
pub(super) struct Bucket {
    pub(super) low: u32,
    pub(super) high: u32,
    /// Heaps of value 0 (P-positions).
    pub(super) zeros: u64,
    /// The values present, as bits.
    pub(super) present: Vec<u64>,
}

/// Which values a picture picks out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Marked {
    /// Grundy values: the rare ones under this mask (the sparse split `info` shows).
    Rare(usize),
    /// P/N tables: the P-positions.
    P,
}

impl Marked {
    pub(super) fn is(self, v: u32) -> bool {
        match self {
            Marked::Rare(mask) => is_rare(v as usize, mask),
            Marked::P => v == 0,
        }
    }

    pub(super) fn legend(self) -> String {
        match self {
            Marked::Rare(mask) => format!(
                "red: rare values (v & {mask} has an even number of bits: the split with the \
                 fewest rare heaps)"
            ),
            Marked::P => "red: P-positions".into(),
        }
    }
}

/// What one pass over a whole sequence finds, and its periodicity.
pub(crate) struct Survey {
    /// Heaps per bucket.
    pub(super) per_bucket: u64,
    pub(super) buckets: Vec<Bucket>,
    /// Heaps of each value.
    pub(super) counts: Vec<u64>,
    pub(super) marked: Marked,
    pub(super) periodicity: Periodicity,
    /// Whether the octal periodicity theorem covers the game.
    pub(super) theorem: bool,
}

/// Per thread: the counts so far, the buckets done, and the counts of one bucket.
#[derive(Default)]
pub(super) struct Pass {
    pub(super) counts: Vec<u64>,
    pub(super) done: Vec<(u64, Bucket)>,
    pub(super) local: Vec<u64>,
}

impl Pass {
    /// Reads the heaps `from..to` of `seq` as one bucket.
    fn bucket(mut self, seq: &Sequence, b: u64, from: u64, to: u64) -> Pass {
        let entries = seq.table.entries();
        self.local.iter_mut().for_each(|c| *c = 0);
        let (first, step) = (seq.seq.first, seq.seq.step);
        entries.count_into(
            first + step * from,
            step,
            (to - from) as usize,
            &mut self.local,
        );
        let mut bucket = Bucket {
            zeros: self.local.first().copied().unwrap_or(0),
            present: vec![0; self.local.len().div_ceil(64)],
            ..Bucket::default()
        };
        let mut first = true;
        for (v, &c) in self.local.iter().enumerate().filter(|(_, &c)| c > 0) {
            if first {
                bucket.low = v as u32;
                first = false;
            }
            bucket.high = v as u32;
            bucket.present[v / 64] |= 1 << (v % 64);
            if v >= self.counts.len() {
                self.counts.resize(v + 1, 0);
            }
            self.counts[v] += c;
        }
        self.done.push((b, bucket));
        self
    }

    fn merge(mut self, other: Pass) -> Pass {
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.done.extend(other.done);
        self
    }
}

impl Survey {
    /// Reads the whole sequence once (in parallel) and finds its periodicity.
    pub(crate) fn of(seq: &Sequence) -> Survey {
        let heaps = seq.max_heap() + 1;
        let per_bucket = heaps.div_ceil(BUCKETS);
        let n = heaps.div_ceil(per_bucket);
        let pass = (0..n)
            .into_par_iter()
            .fold(Pass::default, |pass, b| {
                let from = b * per_bucket;
                pass.bucket(seq, b, from, (from + per_bucket).min(heaps))
            })
            .reduce(Pass::default, Pass::merge);
        let mut done = pass.done;
        done.sort_unstable_by_key(|(b, _)| *b);
        let marked = if seq.grundy() {
            Marked::Rare(rare_mask(&pass.counts))
        } else {
            Marked::P
        };
        Survey {
            per_bucket,
            buckets: done.into_iter().map(|(_, b)| b).collect(),
            counts: pass.counts,
            marked,
            periodicity: periodicity_of(seq),
            theorem: seq.seq.theorem.is_some(),
        }
    }

    pub(super) fn max_value(&self) -> u32 {
        self.counts.len().saturating_sub(1) as u32
    }

    /// The proved period and preperiod.
    pub(super) fn proved(&self) -> Option<(u64, u64)> {
        let p = &self.periodicity;
        match (p.proved, p.period, p.preperiod) {
            (true, Some(period), Some(e)) => Some((period, e)),
            _ => None,
        }
    }

    /// The period and preperiod, proved or tentative.
    pub(super) fn period(&self) -> Option<(u64, u64)> {
        self.periodicity.period.zip(self.periodicity.preperiod)
    }

    /// The periodicity in words, one line.
    pub(crate) fn period_text(&self) -> String {
        let p = &self.periodicity;
        let last = |e: u64| {
            if e == 0 {
                String::new()
            } else {
                format!(", the last exception at heap {}", e - 1)
            }
        };
        match (self.proved(), self.period()) {
            (Some((period, e)), _) => format!(
                "period {period} from heap {e}{}: proved by the octal periodicity theorem \
                 from the values to heap {}",
                last(e),
                p.needs.unwrap_or(0)
            ),
            (None, Some((period, e))) if self.theorem => format!(
                "periodicity not proved: tentative period {period} from heap {e} (the theorem \
                 needs the values to heap {})",
                p.needs.unwrap_or(0)
            ),
            (None, Some((period, e))) => format!(
                "periodicity not proved (the octal periodicity theorem does not cover this \
                 game): tentative period {period} from heap {e}"
            ),
            (None, None) => format!(
                "periodicity not proved: no period repeats twice within heaps 0..={}",
                p.max_heap
            ),
        }
    }
}

/// The periodicity of the sequence, as `info` finds it: a period the theorem proves from the
/// first `m` heaps holds for every heap, so prefixes of 2^16, 2^20, ... heaps are tried
/// first, and the whole table only when none proves one (the smallest period the first
/// prefix that proves any proves).
pub(super) fn periodicity_of(seq: &Sequence) -> Periodicity {
    let entries = seq.table.entries();
    let (first, step) = (seq.seq.first, seq.seq.step);
    let value = move |h: u64| entries.raw(first + step * h);
    let n = seq.max_heap();
    let Some(t) = seq.seq.theorem else {
        return periodicity(&value, n, 0, false);
    };
    let mut m = FIRST_PREFIX;
    while m < n {
        let p = periodicity(&value, m, t, true);
        if p.proved {
            return Periodicity { max_heap: n, ..p };
        }
        m = m.saturating_mul(16);
    }
    periodicity(&value, n, t, true)
}
