//! Who owns which positions, and where a position lives in its owner's arrays.
//!
//! The index space is cut into **stripes** of `S` consecutive positions, dealt round-robin to
//! the processes: stripe `s` belongs to process `s mod P`, as its local stripe `⌊s / P⌋`.
//! Dealing stripes instead of cutting `P` ranges keeps the processes evenly loaded in every
//! level, also the early ones, whose positions crowd near the goal's index.
//!
//! Inside a process, a position's local offset is `local stripe · S + (position mod S)`; its 2-bit
//! code is entry `offset` of the local table, its "expanded" bit (see
//! [`crate::solve::bfs::partitioned::dense`]) bit `offset` of the local bitmap. The side of a
//! position (see [`crate::solve::bfs::partitioned::Bipartite`]) repeats with the puzzle's period;
//! `S` is a multiple of 64 periods, so stripes start on whole words of the table and the bitmap,
//! and the positions of one side in 64-bit word `w` of any stripe are those of mask `w` of
//! `Layout::side_masks(side)`.

/// Divides by a fixed divisor with one multiplication: `q = ⌊x · m / 2^64⌋` with
/// `m = ⌊2^64 / d⌋ + 1` is exact whenever `x · d < 2^64` (the error term `x·e / (d·2^64)`, with
/// `e ≤ d`, stays below `1/d`). Every index here is below 2^45 and every divisor below 2^19.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastDiv {
    d: u64,
    m: u64,
}

impl FastDiv {
    /// Division by `d ≥ 1`.
    pub(crate) fn new(d: u64) -> FastDiv {
        assert!(d >= 1);
        let m = if d == 1 {
            0
        } else {
            (u64::MAX / d).wrapping_add(1)
        };
        FastDiv { d, m }
    }

    /// `⌊x / d⌋` for `x · d < 2^64`.
    #[inline(always)]
    pub(crate) fn div(&self, x: u64) -> u64 {
        if self.d == 1 {
            return x;
        }
        ((x as u128 * self.m as u128) >> 64) as u64
    }

    /// `(⌊x / d⌋, x mod d)`.
    #[inline(always)]
    pub(crate) fn div_rem(&self, x: u64) -> (u64, u64) {
        let q = self.div(x);
        (q, x - q * self.d)
    }
}

/// For a property of the residues of the index modulo `period`, the 64-bit masks of the words
/// of a stripe (whole periods of words): bit `b` of entry `w` is set when residue
/// `(64w + b) mod period` has it.
pub(crate) fn word_masks(period: u64, on: impl Fn(usize) -> bool) -> Vec<u64> {
    (0..period)
        .map(|w| {
            (0..64).fold(0u64, |m, b| {
                m | (on(((64 * w + b) % period) as usize) as u64) << b
            })
        })
        .collect()
}

/// The ownership and array layout of an enumeration (identical on every process).
#[derive(Clone, Debug)]
pub struct Layout {
    /// Positions, `0..n`.
    pub n: u64,
    /// Positions per stripe, `S`.
    pub stripe: u64,
    /// The period of the side pattern.
    pub period: u64,
    /// Side (0 or 1) of each residue mod the period.
    pub side: Vec<u8>,
    /// For each side, the positions of that side in word `w` of a stripe, by `w mod period`.
    masks: [Vec<u64>; 2],
    /// Processes.
    pub procs: u64,
    /// This process.
    pub rank: u64,
    /// Stripes in all, `⌈n / S⌉`.
    pub stripes: u64,
    /// Stripes this process owns.
    pub local_stripes: u64,
    div_stripe: FastDiv,
    div_procs: FastDiv,
    div_period: FastDiv,
}

/// Positions per stripe: 64 · 2^k periods, about 2^20 positions (a 256 KiB piece of table).
pub(crate) fn stripe_len(period: u64) -> u64 {
    let mut s = period * 64;
    while s < 1 << 20 {
        s *= 2;
    }
    s
}

impl Layout {
    /// The layout of `n` positions whose sides follow `side` (one entry per residue), over
    /// `procs` processes, seen from process `rank`.
    pub fn new(n: u64, side: &[u8], procs: u64, rank: u64) -> Layout {
        Layout::with_stripe(n, side, procs, rank, stripe_len(side.len() as u64))
    }

    /// [`Layout::new`] with stripes of `stripe` positions, rounded up to a whole number of
    /// 64 periods (tests: a small board cut into many stripes reaches every process).
    pub(crate) fn with_stripe(n: u64, side: &[u8], procs: u64, rank: u64, stripe: u64) -> Layout {
        let period = side.len() as u64;
        let stripe = stripe.max(1).div_ceil(64 * period) * 64 * period;
        let masks = [0, 1].map(|s| word_masks(period, |r| side[r] == s));
        let stripes = n.div_ceil(stripe);
        let local_stripes = stripes / procs + (rank < stripes % procs) as u64;
        Layout {
            n,
            stripe,
            period,
            side: side.to_vec(),
            masks,
            procs,
            rank,
            stripes,
            local_stripes,
            div_stripe: FastDiv::new(stripe),
            div_procs: FastDiv::new(procs),
            div_period: FastDiv::new(period),
        }
    }

    /// Local positions (the length of the local table, whole stripes).
    pub(crate) fn local_len(&self) -> u64 {
        self.local_stripes * self.stripe
    }

    /// The positions of `side` among the 64 of word `w` of a stripe (bit `b`: position
    /// `64w + b` from the stripe's start); the solvers read them in turn from
    /// [`side_masks`](Layout::side_masks).
    #[cfg(test)]
    pub(crate) fn side_mask(&self, side: usize, w: u64) -> u64 {
        self.masks[side][(w % self.period) as usize]
    }

    /// The positions of `side` among the 64 of each word `w` of a stripe, for `w` in
    /// `0..period` (bit `b` of mask `w`: position `64w + b` from the stripe's start).
    pub(crate) fn side_masks(&self, side: usize) -> &[u64] {
        &self.masks[side]
    }

    /// The local stripe of a local offset.
    #[inline(always)]
    pub(crate) fn local_stripe(&self, local: u64) -> u64 {
        self.div_stripe.div(local)
    }

    /// The owner of position `j` and its local offset there.
    #[inline(always)]
    pub(crate) fn owner(&self, j: u64) -> (u64, u64) {
        if self.procs == 1 {
            return (0, j);
        }
        let (s, off) = self.div_stripe.div_rem(j);
        let (ls, q) = self.div_procs.div_rem(s);
        (q, ls * self.stripe + off)
    }

    /// The global stripe of local stripe `ls`.
    #[inline]
    pub(crate) fn global_stripe(&self, ls: u64) -> u64 {
        ls * self.procs + self.rank
    }

    /// The position at a local offset of this process.
    #[cfg(test)]
    pub(crate) fn global(&self, local: u64) -> u64 {
        let (ls, off) = self.div_stripe.div_rem(local);
        self.global_stripe(ls) * self.stripe + off
    }

    /// The side of a position (or of a local offset: stripes are whole periods).
    #[inline]
    pub(crate) fn side_of(&self, j: u64) -> usize {
        self.side[self.div_period.div_rem(j).1 as usize] as usize
    }

    /// The positions of global stripe `s` that exist (the last stripe may be short).
    pub(crate) fn stripe_range(&self, s: u64) -> std::ops::Range<u64> {
        s * self.stripe..((s + 1) * self.stripe).min(self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_division_is_exact() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for d in [
            1u64,
            2,
            3,
            7,
            14,
            15,
            16,
            917_504,
            983_040,
            1 << 20,
            524_287,
        ] {
            let f = FastDiv::new(d);
            for k in 0..20000u64 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let v = if k < 1000 { k } else { x >> 20 };
                assert_eq!(f.div_rem(v), (v / d, v % d), "{v} / {d}");
            }
            let top = (1u64 << 45) - 1;
            assert_eq!(f.div(top), top / d);
        }
    }

    #[test]
    fn stripes_are_whole_periods_of_words() {
        let side: Vec<u8> = (0..10u32).map(|c| ((c / 5 + c % 5) % 2) as u8).collect();
        for (asked, got) in [(1, 640), (640, 640), (641, 1280), (4096, 4480)] {
            let l = Layout::with_stripe(1_814_400, &side, 8, 3, asked);
            assert_eq!(l.stripe, got, "{asked}");
        }
        assert_eq!(Layout::new(100, &side, 1, 0).stripe, stripe_len(10));
    }

    #[test]
    fn owners_offsets_and_side_masks() {
        // A 3x5 board's sides (period 15: 8 and 7 cells), 3 processes.
        let side: Vec<u8> = (0..15u32).map(|c| ((c / 5 + c % 5) % 2) as u8).collect();
        let n = 10 * stripe_len(15) + 12345;
        for procs in [1u64, 2, 3] {
            let layouts: Vec<Layout> = (0..procs)
                .map(|r| Layout::new(n, &side, procs, r))
                .collect();
            assert_eq!(
                layouts.iter().map(|l| l.local_stripes).sum::<u64>(),
                layouts[0].stripes
            );
            for j in (0..n).step_by(997).chain(n - 40..n) {
                let (q, local) = layouts[0].owner(j);
                let l = &layouts[q as usize];
                assert_eq!(l.global(local), j);
                assert_eq!(l.local_stripe(local), local / l.stripe);
                let (w, b) = (local % l.stripe / 64, local % 64);
                let s = l.side_of(j);
                assert_eq!(l.side_mask(s, w) >> b & 1, 1, "{j}");
                assert_eq!(l.side_mask(1 - s, w) >> b & 1, 0, "{j}");
            }
        }
    }
}
