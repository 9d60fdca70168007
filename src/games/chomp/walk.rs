//! How the solvers walk a box: the diagrams whose first rows hold `w + 1` cells make wave
//! `w`, cut into pieces by their first [`PIECE_ROWS`] rows, each piece walked in index order
//! with the prefix sums of the rows' rank terms kept as it goes ([`Cursor`]).

use super::bites::{LastRow, LastTwoRows};
use super::{Chomp, Cursor, Piece, MAX_ROWS, PIECE_ROWS};
use crate::model::Indexed;
use crate::solve::Staged;

impl Chomp {
    fn set_row(&self, cur: &mut Cursor, k: usize, v: usize) {
        cur.rows[k] = v;
        cur.p[k + 1] = cur.p[k] + self.t(k, v);
        cur.pt[k + 1] = cur.pt[k] + self.u(k, v);
    }

    /// Visits every completion of rows `k..rows` holding `rem > 0` more cells, in index order
    /// (`1 ≤ k < rows ≤ r`, and the rows left can hold them: `rem ≤ (rows - k) · rows[k-1]`).
    fn fill<V: FnMut(&Cursor)>(
        &self,
        rows: usize,
        k: usize,
        rem: usize,
        cur: &mut Cursor,
        visit: &mut V,
    ) {
        let left = rows - k;
        if left == 1 {
            // The last row takes the rest.
            self.set_row(cur, k, rem);
            cur.height = rows;
            visit(cur);
            return;
        }
        // The rows after this one must be able to hold the rest without exceeding it.
        let lo = (rem as u32).div_ceil(left as u32) as usize;
        let hi = cur.rows[k - 1].min(rem);
        for v in lo..=hi {
            self.set_row(cur, k, v);
            if v == rem {
                cur.height = k + 1;
                visit(cur);
            } else {
                self.fill(rows, k + 1, rem - v, cur, visit);
            }
        }
    }

    /// Pushes every first-rows prefix of a piece of diagrams of `rows` rows with `rem` cells
    /// still to place.
    #[allow(clippy::too_many_arguments)]
    fn prefixes(
        &self,
        rows: usize,
        k: usize,
        rem: usize,
        max: usize,
        prefix: &mut [usize; PIECE_ROWS],
        cells: usize,
        out: &mut Vec<Piece>,
    ) {
        if k == rows.min(PIECE_ROWS) {
            out.push(Piece {
                cells,
                prefix: *prefix,
            });
            return;
        }
        // The rows left must be able to hold the rest without exceeding this row.
        let lo = rem.div_ceil(rows - k);
        for v in lo..=max.min(rem) {
            prefix[k] = v;
            self.prefixes(rows, k + 1, rem - v, v, prefix, cells, out);
        }
    }

    /// The pieces of the diagrams of `rows` rows (`1 ≤ rows ≤ r`) and `cells` cells.
    fn pieces_of(&self, rows: usize, cells: usize) -> Vec<Piece> {
        let mut out = Vec::new();
        let mut prefix = [0; PIECE_ROWS];
        self.prefixes(rows, 0, cells, self.c, &mut prefix, cells, &mut out);
        out
    }

    /// Walks the diagrams of `rows` rows of a piece (rows after them stay empty), in index
    /// order.
    fn walk_rows<V: FnMut(&Cursor)>(&self, rows: usize, piece: &Piece, mut visit: V) {
        let mut cur = Cursor {
            rows: [0; MAX_ROWS as usize],
            p: [0; MAX_ROWS as usize + 1],
            pt: [0; MAX_ROWS as usize + 1],
            height: 0,
        };
        let m = rows.min(PIECE_ROWS);
        let mut rem = piece.cells;
        for (k, &v) in piece.prefix[..m].iter().enumerate() {
            self.set_row(&mut cur, k, v);
            rem -= v;
        }
        if rem == 0 {
            cur.height = piece.prefix[..m].iter().filter(|&&v| v > 0).count();
            visit(&cur);
        } else {
            self.fill(rows, m, rem, &mut cur, &mut visit);
        }
    }
}

/// The solvers' waves are the diagrams of the first rows of the box: all rows for the wave
/// solver (a unit is a diagram), all but the last for runs, all but the last two for
/// triangles. Wave `w` holds the units whose first rows have `w + 1` cells.
trait FirstRows: Sync {
    /// The box.
    fn chomp(&self) -> &Chomp;
    /// How many rows make the waves.
    fn rows(&self) -> usize;
}

impl FirstRows for Chomp {
    fn chomp(&self) -> &Chomp {
        self
    }
    fn rows(&self) -> usize {
        self.r
    }
}

impl FirstRows for LastRow<'_> {
    fn chomp(&self) -> &Chomp {
        self.0
    }
    fn rows(&self) -> usize {
        self.0.r - 1
    }
}

impl FirstRows for LastTwoRows<'_> {
    fn chomp(&self) -> &Chomp {
        self.0
    }
    fn rows(&self) -> usize {
        self.0.r - 2
    }
}

// The last rows' views of the box hold every position of it, as the box does.
impl Indexed for LastRow<'_> {
    fn positions(&self) -> u64 {
        self.0.spec.positions()
    }
}

impl Indexed for LastTwoRows<'_> {
    fn positions(&self) -> u64 {
        self.0.spec.positions()
    }
}

impl<T: FirstRows + Indexed> Staged for T {
    type Piece = Piece;
    type Cursor = Cursor;

    fn waves(&self) -> usize {
        self.rows() * self.chomp().c
    }

    fn pieces(&self, wave: usize) -> Vec<Piece> {
        self.chomp().pieces_of(self.rows(), wave + 1)
    }

    fn walk<V: FnMut(&Cursor)>(&self, piece: &Piece, visit: V) {
        self.chomp().walk_rows(self.rows(), piece, visit)
    }
}
