//! The bites of a diagram as the solvers read them: one child at a time for the wave solver
//! ([`Waves`]), one edge for a whole run of last rows ([`LastRow`], [`Runs`]) or a whole
//! triangle of last two rows ([`LastTwoRows`], [`Triangles`]).

use std::ops::ControlFlow;

use super::{Chomp, Cursor};
use crate::model::Outcome;
use crate::solve::{Edge, Mirror, Runs, Triangles, Waves};

impl Waves for Chomp {
    #[inline]
    fn index(&self, at: &Cursor) -> u64 {
        at.p[at.height] - 1
    }

    #[inline]
    fn children<F: FnMut(u64) -> ControlFlow<()>>(&self, at: &Cursor, mut f: F) -> ControlFlow<()> {
        // Every bite, in every row, is a bite above the rows below it.
        self.bites_above(at, |e| f(e.child))
    }

    #[inline]
    fn terminal(&self, at: &Cursor) -> Option<Outcome> {
        // The single cell: its only bite eats the poison.
        (at.p[at.height] == 1).then_some(Outcome::P)
    }

    #[inline]
    fn mirror(&self, at: &Cursor) -> Mirror {
        if self.u.is_empty() {
            return Mirror::Solve(None);
        }
        let (rank, transposed) = (at.p[at.height], at.pt[at.height]);
        match rank.cmp(&transposed) {
            std::cmp::Ordering::Less => Mirror::Solve(Some(transposed - 1)),
            std::cmp::Ordering::Equal => Mirror::Solve(None),
            std::cmp::Ordering::Greater => Mirror::Image,
        }
    }
}

/// Chomp a run at a time (`solve::runs`): a run is the diagrams that share their
/// first `R − 1` rows, the last row `0..=λ(R−1)`. Its indices are consecutive (the last row's
/// rank term is its length) and a bite in the last row is the run's chain. A bite at row
/// `i < R` down to `x` keeps the run's shape: it takes `(π, v)` to `(π', min(v, x))`, `π'`
/// the first rows bitten, so the run's elements see one edge per bite of `π` instead of one
/// child lookup each. Waves are the cells of `π`. Needs `R ≥ 2`.
pub(crate) struct LastRow<'a>(pub &'a Chomp);

impl Runs for LastRow<'_> {
    #[inline]
    fn run(&self, at: &Cursor) -> (u64, u64) {
        // The run's longest element: the last row as long as the row above it.
        (
            at.p[at.height] - 1,
            last_walked(at, self.0.r - 1) as u64 + 1,
        )
    }

    #[inline]
    fn edges<F: FnMut(Edge) -> ControlFlow<()>>(&self, at: &Cursor, f: F) -> ControlFlow<()> {
        self.0.bites_above(at, f)
    }
}

/// The length of the last of the first `rows` rows under the cursor, when all of them are
/// non-empty (0 otherwise: the rows below are empty then too).
#[inline]
fn last_walked(at: &Cursor, rows: usize) -> usize {
    if at.height == rows {
        at.rows[rows - 1]
    } else {
        0
    }
}

/// Chomp a triangle at a time (`solve::triangles`): a triangle is the diagrams that
/// share their first `R − 2` rows `ρ`, the last two rows `(u, v)` with `v ≤ u ≤ λ(R−2)`. The
/// last two rows' rank terms are `u(u+1)/2` and `v`, so the triangle is consecutive indices in
/// the triangle's order, and bites in the last two rows are its inside moves. A bite at row
/// `i < R − 1` down to `x` takes `(ρ, u, v)` to `(ρ', min(u, x), min(v, x))`: one edge for
/// the whole triangle. Waves are the cells of `ρ`. Needs `R ≥ 3` and `C ≤ 63`.
pub(crate) struct LastTwoRows<'a>(pub &'a Chomp);

impl Triangles for LastTwoRows<'_> {
    #[inline]
    fn triangle(&self, at: &Cursor) -> (u64, u32) {
        // The triangle's size: the last two rows as long as the row above them.
        (at.p[at.height] - 1, last_walked(at, self.0.r - 2) as u32)
    }

    #[inline]
    fn edges<F: FnMut(Edge) -> ControlFlow<()>>(&self, at: &Cursor, f: F) -> ControlFlow<()> {
        self.0.bites_above(at, f)
    }

    /// In a square box, a diagram with its last two rows empty but a first row of at least
    /// `R − 1` has a transpose with cells in its last two rows, so in an earlier wave, with
    /// the same value: copied rather than searched (these single-position triangles cost as
    /// much as a whole search each).
    #[inline]
    fn same_as(&self, at: &Cursor) -> Option<u64> {
        let g = self.0;
        (!g.u.is_empty() && at.rows[0] + 1 >= g.r).then(|| at.pt[at.height] - 1)
    }
}

impl Chomp {
    /// The bites of the rows under the cursor (the rows walked; the rows after them are empty)
    /// as edges: `child` is the index of the diagram left, `reach` the length the bitten rows
    /// are cut to. Narrowest first (`x = 0, 1, ...`), top row first for each.
    #[inline]
    fn bites_above<F: FnMut(Edge) -> ControlFlow<()>>(
        &self,
        at: &Cursor,
        mut f: F,
    ) -> ControlFlow<()> {
        let (rows, p) = (&at.rows, &at.p);
        let rank = p[at.height];
        let stride = self.r + 1;
        let mut t = at.height - 1;
        for x in 0..rows[0] {
            while rows[t] <= x {
                t -= 1;
            }
            let q = &self.q[x * stride..x * stride + t + 2];
            // Index of the diagram left by the bite at row i: base + p[i] - q[i].
            let base = rank
                .wrapping_sub(p[t + 1])
                .wrapping_add(q[t + 1])
                .wrapping_sub(1);
            let first = (x == 0) as usize;
            for (pi, qi) in p[first..=t].iter().zip(&q[first..=t]) {
                f(Edge {
                    child: base.wrapping_add(pi - qi),
                    reach: x as u64,
                })?;
            }
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::games::chomp::ChompSpec;
    use crate::solve::{Staged, MAX_TRIANGLE};

    fn chomp(r: u32, c: u32) -> Chomp {
        Chomp::new(ChompSpec::new(r, c).unwrap())
    }

    /// Runs and triangles: every index once; each element's moves are the chain (or the
    /// triangle's inside moves) and one child per edge, exactly the rules' bites; children lie
    /// in earlier waves.
    fn conformance_grouped(r: u32, c: u32) {
        /// Calls `f` with the wave and cursor of every unit, wave by wave.
        fn each_unit<S: Staged>(s: &S, mut f: impl FnMut(usize, &S::Cursor)) {
            for wave in 0..s.waves() {
                for piece in s.pieces(wave) {
                    s.walk(&piece, |at| f(wave, at));
                }
            }
        }
        let g = chomp(r, c);
        let n = g.spec.positions();
        let prefix_cells =
            |i: u64, keep: usize| g.unrank(i).iter().take(keep).sum::<u32>() as usize;
        let sorted = |mut v: Vec<u64>| {
            v.sort_unstable();
            v.dedup();
            v
        };
        if r >= 2 {
            let lr = LastRow(&g);
            let mut seen = vec![0u8; n as usize];
            each_unit(&lr, |wave, at| {
                let (base, len) = lr.run(at);
                let mut edges = Vec::new();
                let _ = lr.edges(at, |e| {
                    edges.push(e);
                    ControlFlow::Continue(())
                });
                for v in 0..len {
                    let i = base + v;
                    seen[i as usize] += 1;
                    let rows = g.unrank(i);
                    assert_eq!(prefix_cells(i, r as usize - 1), wave + 1);
                    let mut kids: Vec<u64> = (0..v).map(|x| base + x).collect();
                    for e in &edges {
                        let k = e.child + v.min(e.reach);
                        assert!(prefix_cells(k, r as usize - 1) <= wave, "{rows:?}");
                        kids.push(k);
                    }
                    let want = g.moves(&rows).iter().map(|m| g.rank(&m.leaves)).collect();
                    assert_eq!(sorted(kids), sorted(want), "{rows:?}");
                }
            });
            assert!(seen.iter().all(|&s| s == 1), "runs of {r}x{c}");
        }
        if r >= 3 && c <= MAX_TRIANGLE {
            let lt = LastTwoRows(&g);
            let mut seen = vec![0u8; n as usize];
            each_unit(&lt, |wave, at| {
                let (first, size) = lt.triangle(at);
                let size = size as u64;
                let mut edges = Vec::new();
                let _ = lt.edges(at, |e| {
                    edges.push(e);
                    ControlFlow::Continue(())
                });
                let at_uv = |u: u64, v: u64| first + u * (u + 1) / 2 + v;
                for u in 0..=size {
                    for v in 0..=u {
                        let i = at_uv(u, v);
                        seen[i as usize] += 1;
                        let rows = g.unrank(i);
                        assert_eq!(prefix_cells(i, r as usize - 2), wave + 1);
                        let mut kids: Vec<u64> = Vec::new();
                        kids.extend((0..u).map(|x| at_uv(x, v.min(x))));
                        kids.extend((0..v).map(|x| at_uv(u, x)));
                        for e in &edges {
                            let (x, y) = (u.min(e.reach), v.min(e.reach));
                            let k = e.child + x * (x + 1) / 2 + y;
                            assert!(prefix_cells(k, r as usize - 2) <= wave, "{rows:?}");
                            kids.push(k);
                        }
                        let want = g.moves(&rows).iter().map(|m| g.rank(&m.leaves)).collect();
                        assert_eq!(sorted(kids), sorted(want), "{rows:?}");
                    }
                }
            });
            assert!(seen.iter().all(|&s| s == 1), "triangles of {r}x{c}");
        }
    }

    #[test]
    fn runs_and_triangles_conform() {
        for (r, c) in [
            (2, 1),
            (2, 6),
            (3, 1),
            (3, 4),
            (3, 7),
            (4, 5),
            (5, 3),
            (5, 6),
            (6, 6),
            (4, 9),
        ] {
            conformance_grouped(r, c);
        }
    }
}
