//! The 15-puzzle search: IDA* states whose heuristic is a sum of pattern-table values, with
//! incremental pattern ranks, a lazily evaluated reflected sum, and prefetching of the table
//! entries of a node's children.

use super::Board;
use crate::games::pdb::PdbSpec;
use crate::solve::IdaProblem;

/// What the search reads but never changes.
pub(super) struct Statics<'a> {
    board: Board,
    n: usize,
    neighbours: [u64; 64],
    /// Per pattern: values and the start of its cells in the flat cell arrays. After the
    /// patterns comes a dummy one without cells whose only value is 0: tiles in no pattern
    /// belong to it, so moving them changes nothing without a branch.
    tables: Vec<&'a [u8]>,
    start: Vec<usize>,
    /// Per tile: its pattern and its place in the flat cell arrays (the last place, never a
    /// pattern's, for tiles in no pattern).
    pattern_of: [u8; 64],
    slot_of: [u8; 64],
    reflect: bool,
    /// Per tile: the tile whose reflected cells it stands for; per cell: its reflection.
    reflect_tile: [u8; 64],
    reflect_cell: [u8; 64],
}

impl<'a> Statics<'a> {
    /// The search over `board` with the heuristic of the pattern tables `tables` (the
    /// pattern and the values of each), maxed with the reflected position when `reflect`.
    pub(super) fn new(board: Board, tables: &[(&PdbSpec, &'a [u8])], reflect: bool) -> Statics<'a> {
        let n = board.cells();
        let mut s = Statics {
            board,
            n,
            neighbours: [0; 64],
            tables: Vec::new(),
            start: Vec::new(),
            pattern_of: [tables.len() as u8; 64],
            slot_of: [63; 64],
            reflect,
            reflect_tile: [0; 64],
            reflect_cell: [0; 64],
        };
        for c in 0..n {
            s.neighbours[c] = board.neighbours(c);
        }
        let mut slot = 0;
        for (j, &(spec, values)) in tables.iter().enumerate() {
            s.tables.push(values);
            s.start.push(slot);
            for &t in spec.pattern() {
                s.pattern_of[t as usize] = j as u8;
                s.slot_of[t as usize] = slot as u8;
                slot += 1;
            }
        }
        // The dummy pattern: no cells (rank 0), value 0.
        s.start.push(slot);
        s.start.push(slot);
        s.tables.push(&[0]);
        debug_assert!(slot <= 63);
        if s.reflect {
            for t in 0..n {
                s.reflect_tile[t] = board.reflect_tile(t as u32) as u8;
                s.reflect_cell[t] = board.reflect_cell(t) as u8;
            }
        }
        s
    }

    #[inline]
    fn value(&self, j: usize, rank: u32) -> u8 {
        self.tables[j][rank as usize]
    }

    #[inline]
    fn prefetch(&self, j: usize, rank: u32) {
        // The rank is in the table (it came from the pattern's ranking): no bounds check on
        // the search's hottest path.
        crate::solve::prefetch::prefetch(self.tables[j].as_ptr().wrapping_add(rank as usize));
    }

    /// The rank of pattern `j` in `cells` with the cell of flat slot `slot` replaced by `to`.
    #[inline]
    fn rank_with(&self, cells: &[u8; 64], j: usize, slot: usize, to: u8) -> u32 {
        let (a, b) = (self.start[j], self.start[j + 1]);
        let n = self.n;
        let mut used = 0u64;
        let mut r = 0u64;
        for (i, s) in (a..b).enumerate() {
            let c = if s == slot { to } else { cells[s] };
            let digit = c as u64 - (used & ((1u64 << c) - 1)).count_ones() as u64;
            r = r * (n - i) as u64 + digit;
            used |= 1 << c;
        }
        r as u32
    }
}

/// A move of the search: the tile on `from` slides into the blank on `to`; `rank` and
/// `rrank` are the child's ranks of the changed pattern and reflected pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Move {
    pub(super) from: u8,
    pub(super) to: u8,
    rank: u32,
    rrank: u32,
}

struct Undo {
    values: (u8, u8),
    sums: (u32, u32),
}

/// The search state: the board, the cells of every pattern (and reflected pattern), their
/// values, and what a move left to evaluate.
pub(super) struct Problem<'s, 'a> {
    s: &'s Statics<'a>,
    tile_at: [u8; 64],
    blank: u8,
    /// Cell of each tile, by flat slot; reflected: the reflected cell of the reflected tile.
    cells: [u8; 64],
    rcells: [u8; 64],
    values: [u8; 64],
    rvalues: [u8; 64],
    sum: u32,
    rsum: u32,
    /// Left to evaluate after the last `apply`: (pattern, rank) and the same reflected.
    pending: Option<(usize, u32)>,
    rpending: Option<(usize, u32)>,
    undo: Vec<Undo>,
}

impl<'s, 'a> Problem<'s, 'a> {
    pub(super) fn new(s: &'s Statics<'a>, tiles: &[u32]) -> Problem<'s, 'a> {
        let mut st = Problem {
            s,
            tile_at: [0; 64],
            blank: 0,
            cells: [0; 64],
            rcells: [0; 64],
            values: [0; 64],
            rvalues: [0; 64],
            sum: 0,
            rsum: 0,
            pending: None,
            rpending: None,
            undo: Vec::with_capacity(128),
        };
        for (cell, &t) in tiles.iter().enumerate() {
            st.tile_at[cell] = t as u8;
            if t == 0 {
                st.blank = cell as u8;
            } else {
                st.cells[s.slot_of[t as usize] as usize] = cell as u8;
                if s.reflect {
                    let u = s.reflect_tile[t as usize] as usize;
                    st.rcells[s.slot_of[u] as usize] = s.reflect_cell[cell];
                }
            }
        }
        for j in 0..s.tables.len() {
            let r = s.rank_with(&st.cells, j, usize::MAX, 0);
            st.values[j] = s.value(j, r);
            st.sum += st.values[j] as u32;
            if s.reflect {
                let r = s.rank_with(&st.rcells, j, usize::MAX, 0);
                st.rvalues[j] = s.value(j, r);
                st.rsum += st.rvalues[j] as u32;
            }
        }
        st
    }

    /// Slides the tile on `from` into the blank on `to`, in the reflected cells too when they
    /// are kept; returns the tile. Undoing a move is the slide back.
    #[inline]
    fn slide(&mut self, from: u8, to: u8) -> usize {
        let s = self.s;
        let t = self.tile_at[from as usize] as usize;
        self.tile_at[to as usize] = t as u8;
        self.tile_at[from as usize] = 0;
        self.blank = from;
        self.cells[s.slot_of[t] as usize] = to;
        if s.reflect {
            let u = s.reflect_tile[t] as usize;
            self.rcells[s.slot_of[u] as usize] = s.reflect_cell[to as usize];
        }
        t
    }
}

impl IdaProblem for Problem<'_, '_> {
    type Move = Move;

    #[inline]
    fn moves(&mut self, last: Option<Move>, out: &mut Vec<Move>) {
        let s = self.s;
        let blank = self.blank;
        let mut m = s.neighbours[blank as usize];
        if let Some(l) = last {
            m &= !(1u64 << l.to);
        }
        while m != 0 {
            let from = m.trailing_zeros() as u8;
            m &= m - 1;
            let t = self.tile_at[from as usize] as usize;
            let j = s.pattern_of[t] as usize;
            let rank = s.rank_with(&self.cells, j, s.slot_of[t] as usize, blank);
            s.prefetch(j, rank);
            let mut rrank = 0;
            if s.reflect {
                let u = s.reflect_tile[t] as usize;
                let ju = s.pattern_of[u] as usize;
                rrank = s.rank_with(
                    &self.rcells,
                    ju,
                    s.slot_of[u] as usize,
                    s.reflect_cell[blank as usize],
                );
                s.prefetch(ju, rrank);
            }
            out.push(Move {
                from,
                to: blank,
                rank,
                rrank,
            });
        }
    }

    #[inline]
    fn apply(&mut self, m: Move) {
        let s = self.s;
        let t = self.slide(m.from, m.to);
        let j = s.pattern_of[t] as usize;
        let ju = if s.reflect {
            s.pattern_of[s.reflect_tile[t] as usize] as usize
        } else {
            0
        };
        self.undo.push(Undo {
            values: (self.values[j], self.rvalues[ju]),
            sums: (self.sum, self.rsum),
        });
        self.pending = Some((j, m.rank));
        self.rpending = s.reflect.then_some((ju, m.rrank));
    }

    #[inline]
    fn undo(&mut self, m: Move) {
        let s = self.s;
        let t = self.slide(m.to, m.from);
        let j = s.pattern_of[t] as usize;
        let u = self.undo.pop().expect("undo follows apply");
        self.values[j] = u.values.0;
        if s.reflect {
            self.rvalues[s.pattern_of[s.reflect_tile[t] as usize] as usize] = u.values.1;
        }
        (self.sum, self.rsum) = u.sums;
        self.pending = None;
        self.rpending = None;
    }

    #[inline]
    fn lower_bound(&mut self, limit: u32) -> u32 {
        if let Some((j, rank)) = self.pending.take() {
            let v = self.s.value(j, rank);
            self.sum = self.sum - self.values[j] as u32 + v as u32;
            self.values[j] = v;
        }
        if self.sum > limit || !self.s.reflect {
            return self.sum;
        }
        if let Some((j, rank)) = self.rpending.take() {
            let v = self.s.value(j, rank);
            self.rsum = self.rsum - self.rvalues[j] as u32 + v as u32;
            self.rvalues[j] = v;
        }
        self.sum.max(self.rsum)
    }

    fn is_goal(&self) -> bool {
        let n = self.s.n;
        self.blank as usize == n - 1 && (0..n - 1).all(|c| self.tile_at[c] as usize == c + 1)
    }

    fn length_parity(&self) -> Option<u32> {
        Some(
            self.s
                .board
                .taxicab(self.blank as usize, self.s.board.cells() - 1)
                % 2,
        )
    }
}
