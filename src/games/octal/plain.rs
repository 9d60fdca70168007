//! The plain quadratic method: `G(n)` is the mex over every move of a heap of `n`; the oracle
//! of the tests, and the method of Grundy's game and of codes whose moves may leave three heaps.

use super::{too_large, Code};
use crate::progress::Progress;
use crate::Result;

/// The Grundy values of heaps `0..=max_heap` by the plain quadratic method: `G(n)` is the mex
/// of the values of the moves of a heap of `n` (a move that leaves heaps `a` and `b` has the
/// value `G(a) xor G(b)`). An error when a value does not fit in 16 bits.
pub fn plain_values(code: &Code, max_heap: u32, progress: &dyn Progress) -> Result<Vec<u16>> {
    let n_all = max_heap as usize + 1;
    let mut g: Vec<u16> = Vec::with_capacity(n_all);
    // seen[v] == stamp: value v is reached from the heap being solved (stamp = heap + 1).
    let mut seen = vec![0u32; 1 << 16];
    let mut triples = code.three_heaps().then(Triples::default);
    const CHUNK: usize = 1 << 12;
    for n in 0..n_all {
        if let Some(t) = &mut triples {
            t.extend(&g, n).map_err(|()| too_large(code, n))?;
        }
        let stamp = n as u32 + 1;
        let mut mark = |v: u16| seen[v as usize] = stamp;
        match code {
            Code::Grundy => {
                for a in 1..n.div_ceil(2) {
                    mark(g[a] ^ g[n - a]);
                }
            }
            Code::Octal(digits) => {
                for (k, &d) in digits.iter().enumerate().take(n + 1) {
                    if d & 1 != 0 && n == k {
                        mark(0);
                    }
                    if d & 2 != 0 && n > k {
                        mark(g[n - k]);
                    }
                    if d & 4 != 0 && n >= k + 2 {
                        let r = n - k;
                        for a in 1..=r / 2 {
                            mark(g[a] ^ g[r - a]);
                        }
                    }
                    if let (true, Some(t)) = (d & 8 != 0 && n >= k + 3, &mut triples) {
                        t.options(&g, n - k, &mut mark);
                    }
                }
            }
        }
        let mex = seen.iter().position(|&s| s != stamp);
        match mex {
            Some(v) => g.push(v as u16),
            None => return Err(too_large(code, n)),
        }
        if n % CHUNK == CHUNK - 1 {
            progress.inc(CHUNK as u64);
        }
    }
    progress.inc((n_all % CHUNK) as u64);
    Ok(g)
}

/// Most distinct values a game whose moves may leave three heaps may have (1024): the sets of
/// [`Triples`] are that wide.
pub(super) const TRIPLE_VALUES: usize = 1024;
const TRIPLE_WORDS: usize = TRIPLE_VALUES / 64;

/// The values of three-heap moves without visiting every triple: `pairs[s]` is the set of
/// `G(b) xor G(s − b)` over `1 ≤ b < s`, and the options of splitting `r` in three are
/// `G(a) xor pairs[r − a]` over `a` (every ordered triple, so every unordered one), grouped by
/// `G(a)` so that each group's sets are or-ed word by word first.
#[derive(Default)]
struct Triples {
    /// `TRIPLE_WORDS` words a sum.
    pairs: Vec<u64>,
    /// The or of the pair sets of each first value.
    by_value: Vec<u64>,
}

impl Triples {
    /// Adds the pair set of the sum `n − 1` (every value below `n − 1` is known); `Err` when a
    /// value is too large for the sets.
    fn extend(&mut self, g: &[u16], n: usize) -> std::result::Result<(), ()> {
        if g.last().is_some_and(|&v| v as usize >= TRIPLE_VALUES) {
            return Err(());
        }
        while self.pairs.len() < n * TRIPLE_WORDS {
            let s = self.pairs.len() / TRIPLE_WORDS;
            let mut set = [0u64; TRIPLE_WORDS];
            for b in 1..s {
                let v = (g[b] ^ g[s - b]) as usize;
                set[v >> 6] |= 1 << (v & 63);
            }
            self.pairs.extend_from_slice(&set);
        }
        Ok(())
    }

    /// Marks the values of the moves that leave three heaps summing to `r`.
    fn options(&mut self, g: &[u16], r: usize, mark: &mut impl FnMut(u16)) {
        self.by_value.clear();
        self.by_value.resize(TRIPLE_VALUES * TRIPLE_WORDS, 0);
        let mut used = [0u64; TRIPLE_WORDS];
        for (a, &x) in g.iter().enumerate().take(r - 1).skip(1) {
            let x = x as usize;
            used[x >> 6] |= 1 << (x & 63);
            let row = &mut self.by_value[x * TRIPLE_WORDS..(x + 1) * TRIPLE_WORDS];
            let pairs = &self.pairs[(r - a) * TRIPLE_WORDS..(r - a + 1) * TRIPLE_WORDS];
            row.iter_mut().zip(pairs).for_each(|(w, p)| *w |= p);
        }
        for (wi, &word) in used.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let x = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let row = &self.by_value[x * TRIPLE_WORDS..(x + 1) * TRIPLE_WORDS];
                for (vi, &set) in row.iter().enumerate() {
                    let mut vbits = set;
                    while vbits != 0 {
                        let v = vi * 64 + vbits.trailing_zeros() as usize;
                        vbits &= vbits - 1;
                        mark((v ^ x) as u16);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octal::{solve_values, sparse_values, Method};

    /// The values by the definition: the mex over every move of [`Code::each_move`].
    fn brute(code: &Code, max_heap: usize) -> Vec<u16> {
        let mut g: Vec<u16> = Vec::new();
        for h in 0..=max_heap {
            let mut seen = std::collections::BTreeSet::new();
            code.each_move(h as u32, |_, leaves| {
                seen.insert(leaves.iter().fold(0, |x, &l| x ^ g[l as usize]));
            });
            g.push((0..).find(|v| !seen.contains(v)).unwrap());
        }
        g
    }

    #[test]
    fn hexadecimal_codes_equal_the_mex_over_every_move() {
        for text in [
            "0.F", "0.8", "4.8", "C.1", "0.9", "0.A", "0.B8", "8.04", "0.38F",
        ] {
            let code = Code::parse(text).unwrap();
            assert!(code.three_heaps(), "{text}");
            let n = 70;
            assert_eq!(
                plain_values(&code, n, &()).unwrap(),
                brute(&code, n as usize),
                "{text}"
            );
            let sparse = solve_values(&code, n, Method::Sparse, &(), &()).unwrap();
            assert_eq!(sparse.into_wide(), brute(&code, n as usize), "{text}");
        }
        // Octal codes too, by both methods.
        for text in ["0.77", "0.137", "4.07", "0.6", "0.167"] {
            let code = Code::parse(text).unwrap();
            let n = 300;
            let want = brute(&code, n as usize);
            assert_eq!(plain_values(&code, n, &()).unwrap(), want, "{text}");
            assert_eq!(sparse_values(&code, n, &()).unwrap(), want, "{text}");
        }
    }
}
