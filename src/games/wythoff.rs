//! Wythoff's game (Wythoff 1907): two heaps; a move takes any number of counters from one
//! heap, or the same number from both; whoever takes the last counter wins (normal play).
//!
//! A table holds every ordered pair `(a, b)` with `0 ≤ a, b ≤ N`, so that symmetry is a fact
//! the table can show rather than an assumption. The index is *sum-major*: level `s` holds the
//! pairs with `a + b = s` (every move lowers the sum), in increasing order of `a`:
//!
//! ```text
//! index(a, b) = start[a + b] + a − max(0, a + b − N)
//! start[s]    = Σ_{t < s} (min(t, N) − max(0, t − N) + 1)
//! ```
//!
//! which numbers the `(N + 1)²` pairs densely. A position has up to `3N` moves, so outcomes are
//! solved by the retrograde push solver (each P-position marks its parents N), which touches
//! only the few P-positions' parents instead of every move of every position.

use std::ops::{ControlFlow, Range};

use crate::game::{params, Arguments, GameSpec, Move, Param, Rules, View};
use crate::model::{Game, Indexed, Outcome, Retro, ValueKind};
use crate::{Error, Result};

/// Largest heap a table may allow ((N + 1)² = 4,295,098,369 positions at most).
pub(crate) const MAX_HEAP: u32 = 65_535;

/// Parameters of a Wythoff table, checked: every pair of heaps of `0..=max_heap`.
#[derive(Clone, Debug, PartialEq)]
pub struct WythoffSpec {
    max_heap: u32,
}

impl WythoffSpec {
    /// Checks the parameters: heaps of `0..=max_heap`, `1 ≤ max_heap ≤ 65535`.
    pub fn new(max_heap: u32) -> Result<WythoffSpec> {
        if max_heap == 0 || max_heap > MAX_HEAP {
            return Err(Error::bad(format!(
                "--max-heap {max_heap}: expected 1..={MAX_HEAP}"
            )));
        }
        Ok(WythoffSpec { max_heap })
    }

    /// Largest heap size.
    pub(crate) fn max_heap(&self) -> u32 {
        self.max_heap
    }
}

impl GameSpec for WythoffSpec {
    const NAME: &'static str = "wythoff";
    const ABOUT: &'static str =
        "Wythoff's game: two heaps of 0..H; take any number from one heap, \
                                 or the same number from both";
    const PARAMS: &'static [Param] = &[Param::required(
        "max-heap",
        "H",
        "Largest heap size (both heaps)",
    )];
    const VALUES: &'static [ValueKind] = &[ValueKind::Outcome, ValueKind::Grundy];

    // Solved by pushing each P-position to its parents (each P-position marks its parents N),
    // not by the forward solver; the level starts (see `Wythoff::new`) beside its tables.
    fn view(&self) -> View {
        let ranking = (2 * self.max_heap as u64 + 2) * 8;
        View::retrograde(Wythoff::new(self.clone())).plus_memory(ranking)
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        WythoffSpec::new(a.number("max-heap")?)
    }

    fn parameters(&self) -> String {
        params::write(&[("max-heap", Some(self.max_heap.to_string()))])
    }

    fn stem(&self) -> String {
        format!("wythoff-{}", self.max_heap)
    }

    fn describe(&self) -> String {
        format!(
            "Wythoff's game: two heaps of 0..={}, take any number from one heap or the same number from both, normal play",
            self.max_heap
        )
    }

    fn samples() -> Vec<Self> {
        [1, 2, 5, 12]
            .into_iter()
            .filter_map(|n| WythoffSpec::new(n).ok())
            .collect()
    }
}

/// Wythoff's game over its dense index.
pub struct Wythoff {
    n: u64,
    /// `start[s]`: index of the first pair of sum `s`; `start[2N + 1]` = number of positions.
    start: Vec<u64>,
}

impl Wythoff {
    /// The game of `spec` (builds the level starts).
    pub fn new(spec: WythoffSpec) -> Wythoff {
        let n = spec.max_heap as u64;
        let mut start = Vec::with_capacity(2 * n as usize + 2);
        let mut acc = 0;
        for s in 0..=2 * n {
            start.push(acc);
            acc += s.min(n) - s.saturating_sub(n) + 1;
        }
        start.push(acc);
        Wythoff { n, start }
    }

    /// Index of the pair `(a, b)`, both `≤ N`.
    #[inline]
    fn index(&self, a: u64, b: u64) -> u64 {
        let s = a + b;
        self.start[s as usize] + a - s.saturating_sub(self.n)
    }

    /// The pair at an index.
    #[inline]
    fn pair(&self, index: u64) -> (u64, u64) {
        let s = (self.start.partition_point(|&st| st <= index) - 1) as u64;
        let a = index - self.start[s as usize] + s.saturating_sub(self.n);
        (a, s - a)
    }

    /// The two heaps of a checked position (a missing second heap is empty).
    fn heaps(pos: &[u32]) -> (u64, u64) {
        (
            pos.first().copied().unwrap_or(0) as u64,
            pos.get(1).copied().unwrap_or(0) as u64,
        )
    }
}

impl Indexed for Wythoff {
    fn positions(&self) -> u64 {
        *self.start.last().unwrap_or(&0)
    }
}

impl Game for Wythoff {
    fn level_count(&self) -> u64 {
        self.start.len() as u64 - 1
    }

    fn level(&self, l: u64) -> Range<u64> {
        self.start[l as usize]..self.start[l as usize + 1]
    }

    fn children<F: FnMut(u64) -> ControlFlow<()>>(&self, pos: u64, mut f: F) -> ControlFlow<()> {
        let (a, b) = self.pair(pos);
        for k in 1..=a {
            f(self.index(a - k, b))?;
        }
        for k in 1..=b {
            f(self.index(a, b - k))?;
        }
        for k in 1..=a.min(b) {
            f(self.index(a - k, b - k))?;
        }
        ControlFlow::Continue(())
    }

    fn terminal(&self, pos: u64) -> Option<Outcome> {
        // Index 0 is (0, 0), the only position without moves: the player to move has lost.
        (pos == 0).then_some(Outcome::P)
    }
}

impl Retro for Wythoff {
    fn parents<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
        let (a, b) = self.pair(pos);
        let n = self.n;
        for x in a + 1..=n {
            f(self.index(x, b));
        }
        for y in b + 1..=n {
            f(self.index(a, y));
        }
        for k in 1..=(n - a).min(n - b) {
            f(self.index(a + k, b + k));
        }
    }
}

impl Rules for Wythoff {
    fn parse(&self, text: &str) -> Result<Vec<u32>> {
        let pos = crate::game::parse_numbers(text, self.position_form())?;
        self.check(&pos)?;
        let (a, b) = Wythoff::heaps(&pos);
        Ok(vec![a as u32, b as u32])
    }

    fn position_form(&self) -> String {
        format!(
            "a,b: the two heaps, each 0..={} (a missing second heap is empty)",
            self.n
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        let bad = |what: String| crate::game::bad_position(self, pos, what);
        if pos.is_empty() || pos.len() > 2 {
            return bad(format!("{} heaps", pos.len()));
        }
        if let Some(&big) = pos.iter().find(|&&h| h as u64 > self.n) {
            return bad(format!(
                "heap {big} is larger than this table's largest heap {}",
                self.n
            ));
        }
        Ok(())
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        let (a, b) = Wythoff::heaps(pos);
        self.index(a, b)
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        let (a, b) = self.pair(index);
        vec![a as u32, b as u32]
    }

    fn board(&self, pos: &[u32]) -> String {
        crate::game::heaps_board(pos)
    }

    /// Takes from heap 1, then from heap 2, then from both, fewest counters first.
    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let (a, b) = Wythoff::heaps(pos);
        let (a, b) = (a as u32, b as u32);
        let one = (1..=a).map(|k| (format!("take {k} from heap 1"), [a - k, b]));
        let two = (1..=b).map(|k| (format!("take {k} from heap 2"), [a, b - k]));
        let both = (1..=a.min(b)).map(|k| (format!("take {k} from both"), [a - k, b - k]));
        one.chain(two)
            .chain(both)
            .map(|(label, leaves)| Move {
                label,
                leaves: leaves.to_vec(),
            })
            .collect()
    }

    fn move_indices(&self, pos: &[u32], out: &mut Vec<u64>) {
        // Up to 3N children: rank them without building labels.
        let (a, b) = Wythoff::heaps(pos);
        out.extend((1..=a).map(|k| self.index(a - k, b)));
        out.extend((1..=b).map(|k| self.index(a, b - k)));
        out.extend((1..=a.min(b)).map(|k| self.index(a - k, b - k)));
    }

    fn format(&self, pos: &[u32]) -> String {
        let (a, b) = Wythoff::heaps(pos);
        format!("{a},{b}")
    }
}

/// `⌊k·φ⌋`, φ the golden ratio, exactly: `⌊(k + ⌊√(5k²)⌋) / 2⌋` (√(5k²) is irrational for
/// k > 0, so taking its floor first does not change the result).
pub fn floor_k_phi(k: u64) -> u64 {
    (k + isqrt(5 * k * k)) / 2
}

/// `⌊√x⌋`.
fn isqrt(x: u64) -> u64 {
    let mut r = (x as f64).sqrt() as u64;
    while r * r > x {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= x {
        r += 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_a_bijection_ordered_by_sum() {
        for n in [1u32, 2, 3, 7] {
            let g = Wythoff::new(WythoffSpec::new(n).unwrap());
            assert_eq!(g.positions(), (n as u64 + 1).pow(2));
            let mut last = 0;
            for i in 0..g.positions() {
                let (a, b) = g.pair(i);
                assert!(a <= n as u64 && b <= n as u64);
                assert!(a + b >= last);
                last = a + b;
                assert_eq!(g.index(a, b), i);
            }
        }
    }

    #[test]
    fn golden_ratio_floors() {
        let phi = (1.0 + 5f64.sqrt()) / 2.0;
        for k in 0..10_000u64 {
            assert_eq!(floor_k_phi(k), (k as f64 * phi).floor() as u64, "{k}");
        }
        // The first P-positions: (0,0), (1,2), (3,5), (4,7), (6,10), (8,13).
        let firsts: Vec<(u64, u64)> = (0..6)
            .map(|k| (floor_k_phi(k), floor_k_phi(k) + k))
            .collect();
        assert_eq!(firsts, [(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13)]);
    }
}
