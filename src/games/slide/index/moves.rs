//! The moves of the index: the neighbours of an index without unranking it.
//!
//! With the blank cell as the fast-moving part of the index, a sideways move (the blank changes
//! cell in its row, the tile sequence stays) goes to the neighbouring index. A vertical move
//! rotates `C` consecutive entries of the tile sequence by one place; the new rank differs from
//! the old one only in those `C` Lehmer digits and is computed from them in `O(C)` steps.

use super::{Cursor, SlideIndex};
use crate::games::board::SEQ_CELLS as MAX_CELLS;
use crate::model::Indexed;
use crate::solve::bfs::partitioned::Bipartite;
use crate::solve::bfs::Puzzle;

impl SlideIndex {
    /// The full rank of a variant of `c`'s block.
    #[inline]
    fn rank_of(&self, c: &Cursor, v: usize) -> i64 {
        if self.dense {
            (2 * c.block + v as u64) as i64
        } else {
            c.block as i64
        }
    }

    /// Full rank after the tile at sequence position `j0` moves to `j1 > j0` (the blank moves
    /// up a row): entries `j0+1..=j1` shift one place left.
    #[inline]
    fn rank_after_up(
        &self,
        p: &[u8; MAX_CELLS],
        d: &[u8; MAX_CELLS],
        r: i64,
        j0: usize,
        j1: usize,
    ) -> i64 {
        let w = &self.w;
        let t = p[j0];
        let mut delta = -(d[j0] as i64) * w[j0];
        let mut smaller = 0i64;
        for j in j0 + 1..=j1 {
            // An entry larger than t gains t as a smaller entry on its right.
            let less = (p[j] < t) as i64;
            smaller += less;
            delta += (d[j] as i64 + 1 - less) * w[j - 1] - d[j] as i64 * w[j];
        }
        delta += (d[j0] as i64 - smaller) * w[j1];
        r + delta
    }

    /// Full rank after the tile at sequence position `j1` moves to `j0 < j1` (the blank moves
    /// down a row): entries `j0..j1` shift one place right.
    #[inline]
    fn rank_after_down(
        &self,
        p: &[u8; MAX_CELLS],
        d: &[u8; MAX_CELLS],
        r: i64,
        j0: usize,
        j1: usize,
    ) -> i64 {
        let w = &self.w;
        let t = p[j1];
        let mut delta = -(d[j1] as i64) * w[j1];
        let mut smaller = 0i64;
        for j in j0..j1 {
            // An entry larger than t loses t, which now stands on its left.
            let less = (p[j] < t) as i64;
            smaller += less;
            delta += (d[j] as i64 - 1 + less) * w[j + 1] - d[j] as i64 * w[j];
        }
        delta += (d[j1] as i64 + smaller) * w[j0];
        r + delta
    }

    #[inline]
    fn block_of(&self, rank: i64) -> u64 {
        if self.dense {
            rank as u64 >> 1
        } else {
            rank as u64
        }
    }
}

impl Indexed for SlideIndex {
    fn positions(&self) -> u64 {
        self.blocks * self.cells as u64
    }
}

impl Puzzle for SlideIndex {
    fn goals(&self) -> Vec<u64> {
        vec![self.index_of(&self.grid.goal())]
    }

    fn neighbours<F: FnMut(u64)>(&self, pos: u64, f: F) {
        self.expand([pos], f);
    }

    fn expand<I, F>(&self, positions: I, mut f: F)
    where
        I: IntoIterator<Item = u64>,
        F: FnMut(u64),
    {
        self.expand_masked(positions.into_iter().map(|p| (p, 0)), |j, _| f(j));
    }
}

/// The blank's moves as mask bits (see [`Bipartite::expand_masked`]); left and right undo each
/// other, as do up and down.
const LEFT: u8 = 1;
const RIGHT: u8 = 2;
const UP: u8 = 4;
const DOWN: u8 = 8;

/// The graph is bipartite: a move takes the blank to a neighbouring cell, flipping the
/// parity of its taxicab distance from its home cell (the last one), and with it the parity of
/// the distance to the goal. The blank's cell is the fast-moving part of the index, so the side
/// of index `i` is that of cell `i mod N`.
impl Bipartite for SlideIndex {
    /// A sideways move changes only the blank's cell, the fast-moving part of the index.
    const ORDERED: u8 = LEFT | RIGHT;

    fn sides(&self) -> Vec<u8> {
        let g = self.grid;
        (0..self.cells)
            .map(|b| (g.taxicab(b, self.cells - 1) % 2) as u8)
            .collect()
    }

    /// Left (to `i − 1`) unless the blank is in the first column, right (to `i + 1`) unless
    /// it is in the last.
    fn ordered_steps(&self) -> Vec<u8> {
        let cols = self.grid.cols();
        (0..self.cells)
            .map(|b| {
                let col = self.col[b] as usize;
                (col > 0) as u8 | ((col + 1 < cols) as u8) << 1
            })
            .collect()
    }

    fn expand_masked<I, F>(&self, positions: I, mut f: F)
    where
        I: IntoIterator<Item = (u64, u8)>,
        F: FnMut(u64, u8),
    {
        let cells = self.cells as u64;
        let cols = self.grid.cols();
        let mut cursor: Option<Cursor> = None;
        for (here, skip) in positions {
            let (block, b) = self.by_cells.div_rem(here);
            let b = b as usize;
            let col = self.col[b] as usize;
            if col > 0 && skip & LEFT == 0 {
                f(here - 1, RIGHT);
            }
            if col + 1 < cols && skip & RIGHT == 0 {
                f(here + 1, LEFT);
            }
            let up = b >= cols && skip & UP == 0;
            let down = b + cols < self.cells && skip & DOWN == 0;
            if !up && !down {
                continue;
            }
            let c = match &mut cursor {
                Some(c) if c.block <= block => {
                    if c.block < block {
                        self.advance(c, block - c.block);
                    }
                    c
                }
                _ => cursor.insert(self.cursor(block)),
            };
            let v = self.variant(c, b);
            let (p, d, r) = (&c.p[v], &c.d[v], self.rank_of(c, v));
            if up {
                // The tile above slides down: it jumps from sequence place b−C to b−1.
                let r2 = self.rank_after_up(p, d, r, b - cols, b - 1);
                f(self.block_of(r2) * cells + (b - cols) as u64, DOWN);
            }
            if down {
                // The tile below slides up: it jumps from sequence place b+C−1 to b.
                let r2 = self.rank_after_down(p, d, r, b, b + cols - 1);
                f(self.block_of(r2) * cells + (b + cols) as u64, UP);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::board::Board;

    fn boards() -> Vec<Board> {
        [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]
            .iter()
            .map(|&(r, c)| Board::new(r as u32, c as u32).unwrap())
            .collect()
    }

    /// The neighbours' indices computed the slow way: move the tile, rank from scratch.
    fn slow_neighbours(ix: &SlideIndex, pos: &[u32]) -> Vec<u64> {
        let mut v: Vec<u64> = ix
            .grid()
            .slides(pos)
            .iter()
            .map(|s| ix.index_of(&s.leaves))
            .collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn rank_unrank_bijection_and_moves_match_slow_ranking() {
        for g in boards() {
            for ix in [SlideIndex::dense(g), SlideIndex::full(g)] {
                let n = ix.positions();
                let mut seen = vec![false; n as usize];
                for i in 0..n {
                    let pos = ix.arrangement(i);
                    g.check(&pos).unwrap();
                    if ix.is_dense() {
                        assert!(g.solvable(&pos), "{pos:?}");
                    }
                    assert_eq!(ix.index_of(&pos), i, "{g:?} {pos:?}");
                    seen[i as usize] = true;
                    let mut fast = Vec::new();
                    ix.neighbours(i, |j| fast.push(j));
                    fast.sort_unstable();
                    assert_eq!(fast, slow_neighbours(&ix, &pos), "{g:?} {pos:?}");
                }
                assert!(seen.iter().all(|&s| s));
            }
        }
    }

    #[test]
    fn the_move_back_leads_back() {
        // Frontier search relies on it: from a neighbour reached by some move, the bit `back`
        // names the one move that returns, and masking a position's moves leaves them out.
        for (r, c) in [(3, 3), (2, 4), (4, 4)] {
            let ix = SlideIndex::dense(Board::new(r, c).unwrap());
            let n = ix.positions();
            for i in (7..n).step_by((n / 5000).max(1) as usize).take(5000) {
                let mut all = Vec::new();
                ix.expand_masked([(i, 0)], |j, back| all.push((j, back)));
                let mut plain = Vec::new();
                ix.neighbours(i, |j| plain.push(j));
                assert_eq!(all.iter().map(|&(j, _)| j).collect::<Vec<_>>(), plain);
                for &(j, back) in &all {
                    assert_eq!(back.count_ones(), 1);
                    let mut again = Vec::new();
                    ix.expand_masked([(j, 0xf & !back)], |k, b| again.push((k, b)));
                    assert_eq!(again.len(), 1, "{r}x{c} position {i} neighbour {j}");
                    assert_eq!(again[0].0, i);
                    let mut rest = Vec::new();
                    ix.expand_masked([(j, back)], |k, _| rest.push(k));
                    assert!(!rest.contains(&i));
                }
            }
        }
    }

    #[test]
    fn ordered_steps_are_the_ordered_moves() {
        // The dense store makes the moves named by `ordered_steps` in bulk and asks
        // `expand_masked` for the rest with `ORDERED` masked: together, every move once.
        for g in boards() {
            let ix = SlideIndex::dense(g);
            let steps = ix.ordered_steps();
            assert_eq!(steps.len(), ix.sides().len());
            for i in 0..ix.positions() {
                let mut want = Vec::new();
                ix.neighbours(i, |j| want.push(j));
                let mut ordered = Vec::new();
                ix.expand_masked([(i, 0xf & !SlideIndex::ORDERED)], |j, _| ordered.push(j));
                let s = steps[(i % steps.len() as u64) as usize];
                let mut bulk = Vec::new();
                if s & 1 != 0 {
                    bulk.push(i - 1);
                }
                if s & 2 != 0 {
                    bulk.push(i + 1);
                }
                assert_eq!(ordered, bulk, "{g:?} {i}");
                let mut got = bulk;
                ix.expand_masked([(i, SlideIndex::ORDERED)], |j, _| got.push(j));
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want, "{g:?} {i}");
            }
        }
    }

    #[test]
    fn expanding_runs_matches_single_positions() {
        // Runs starting and ending mid-block, gaps longer than the step limit, going back.
        let g = Board::new(3, 3).unwrap();
        let ix = SlideIndex::dense(g);
        let n = ix.positions();
        let runs: Vec<Vec<u64>> = vec![
            (0..n).collect(),
            (5..n - 7).step_by(3).collect(),
            (13..n).step_by(97).collect(),
            (100..4000).step_by(1000).collect(),
            vec![9000, 10, 11, 500, 499],
        ];
        for run in runs {
            let mut got = Vec::new();
            ix.expand(run.iter().copied(), |j| got.push(j));
            let mut want = Vec::new();
            for &i in &run {
                ix.neighbours(i, |j| want.push(j));
            }
            assert_eq!(got, want);
        }
    }
}
