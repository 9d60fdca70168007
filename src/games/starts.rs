//! Where each tier of a dense index starts, and which tier holds an index. A game decodes an
//! index with every move the engine asks of it, and a binary search over a few hundred tier
//! starts was a tenth of a mill game's solve: a table of blocks of the index names the tier
//! where each block begins, and a step or two forward finds the one.

use std::ops::{Index, Range};

/// The starts of the tiers, in order, and the last entry the number of indices.
#[derive(Clone, Debug)]
pub(crate) struct Starts {
    starts: Vec<u64>,
    /// Indices `b << shift ..` begin in tier `first[b]`.
    first: Vec<u32>,
    shift: u32,
}

impl Starts {
    /// The tiers whose sizes are `sizes`, in order.
    pub(crate) fn of_sizes(sizes: impl IntoIterator<Item = u64>) -> Starts {
        let mut starts = vec![0];
        for size in sizes {
            starts.push(starts[starts.len() - 1] + size);
        }
        let total = starts[starts.len() - 1];
        // About eight blocks a tier (and at least a thousand): most blocks begin where the
        // tier of the last one ended or in the next.
        let want = (8 * starts.len() as u64).max(1024);
        let shift = (0..64).find(|&s| total >> s < want).unwrap_or(63);
        let mut first = Vec::with_capacity((total >> shift) as usize + 1);
        let mut t = 0;
        for b in 0..=(total >> shift) {
            while t + 2 < starts.len() && starts[t + 1] <= b << shift {
                t += 1;
            }
            first.push(t as u32);
        }
        Starts {
            starts,
            first,
            shift,
        }
    }

    /// The tier that holds `index` (the last tier for an index past the end).
    #[inline]
    pub(crate) fn find(&self, index: u64) -> usize {
        let b = ((index >> self.shift) as usize).min(self.first.len() - 1);
        let mut t = self.first[b] as usize;
        while t + 2 < self.starts.len() && self.starts[t + 1] <= index {
            t += 1;
        }
        t
    }

    /// The indices of tier `t`.
    pub(crate) fn range(&self, t: usize) -> Range<u64> {
        self.starts[t]..self.starts[t + 1]
    }

    /// How many tiers.
    pub(crate) fn tiers(&self) -> usize {
        self.starts.len() - 1
    }

    /// How many indices.
    pub(crate) fn total(&self) -> u64 {
        self.starts[self.starts.len() - 1]
    }
}

impl Index<usize> for Starts {
    type Output = u64;
    /// Where tier `t` starts (the number of indices, for `t` the number of tiers).
    fn index(&self, t: usize) -> &u64 {
        &self.starts[t]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_is_found_in_its_tier() {
        for sizes in [
            vec![5],
            vec![1, 0, 3, 0, 0, 7, 1000, 1, 1, 1, 20000, 2],
            (0..300).map(|i| (i * 7919) % 1013).collect(),
        ] {
            let s = Starts::of_sizes(sizes.iter().copied());
            assert_eq!(s.tiers(), sizes.len());
            for t in 0..s.tiers() {
                for i in s.range(t) {
                    assert_eq!(s.find(i), t, "{sizes:?}: index {i}");
                }
            }
        }
    }
}
