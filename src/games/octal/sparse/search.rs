//! The search of a heap's rare values among its pairs of heaps `(a, r − a)`: the values of the
//! first heaps kept reversed (the mirror), so that a block of [`LANES`] pairs is two runs of
//! memory, each value looked for compared with all of them at once (compiled for AVX2 where
//! the processor has it), or many values looked up in a table of bits ([`table`]).

use std::sync::Arc;

use super::Width;

/// Longest prefix of values kept reversed for the search (see [`Search`]).
const MAX_MIRROR: usize = 1 << 24;

/// Pairs compared at once in the search.
const LANES: usize = 64;

/// The values of the first heaps kept reversed, so that the pairs `(a, r − a)` of a run of
/// `a` are two runs of memory in the same direction: `mirror[len − 1 − a] = g[a]`. Shared
/// (an `Arc`) with the threads that check guesses; a longer mirror replaces it, never edits it.
#[derive(Clone)]
pub(super) struct Search<V> {
    pub(super) mirror: Arc<Vec<V>>,
}

impl<V: Width> Search<V> {
    pub(super) fn new() -> Search<V> {
        Search {
            mirror: Arc::new(Vec::new()),
        }
    }

    /// Keeps the mirror long enough for the pairs of heap `n` (it covers `a ≤ n / 2` up to
    /// [`MAX_MIRROR`]).
    pub(super) fn cover(&mut self, g: &[V], n: usize) {
        let len = self.mirror.len();
        if 2 * len < n && len < MAX_MIRROR {
            let len = (n / 2 + 1).next_power_of_two().min(MAX_MIRROR);
            self.mirror = Arc::new((0..len).map(|j| g[len - 1 - j]).collect());
        }
    }

    /// Looks for the values of `need` among `G(a) xor G(r − a)`
    /// over the pairs of every split, `a` from 1 up; removes those found and stops when none
    /// is left. Reads the values of heaps below `n` only.
    pub(super) fn find(&self, g: &[V], n: usize, split: &[usize], need: &mut Vec<usize>) {
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

#[cfg(target_arch = "x86_64")]
mod table;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
