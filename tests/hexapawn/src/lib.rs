//! Hexapawn (Martin Gardner, Scientific American, March 1962): pawns on a board of `C` columns
//! and `R` rows, White's on the first row, Black's on the last; a pawn moves one square forward
//! to an empty square or captures an enemy pawn one square diagonally forward. A side wins by
//! bringing a pawn to the far row, or when the other side, to move, has no move (every pawn
//! captured or blocked). White moves first. A position is the board, row 1 first, each square
//! 0 (empty), 1 (White) or 2 (Black), then the side to move (0 White, 1 Black): the shape of
//! `C·R + 1` numbers, `2·3^(C·R)` indices.

use gamedb::game::{params, Arguments, GameSpec, Move, Param, Shape, TwoPlayerGame};
use gamedb::game::{TwoPlayerView, View};
use gamedb::model::{Standing, ValueKind};
use gamedb::{Error, Result};

/// Hexapawn on a board of `cols` × `rows`, checked (3 or 4 of each: at most 2·3^16 indices).
#[derive(Clone, Debug, PartialEq)]
pub struct Hexapawn {
    cols: u32,
    rows: u32,
}

impl Hexapawn {
    /// The square of column `c` (0 = a) and row `r` (0 = White's first row).
    fn at(&self, c: u32, r: u32) -> usize {
        (r * self.cols + c) as usize
    }
    /// The side to move (1 White, 2 Black, as the squares write them) and the other.
    fn sides(pos: &[u32]) -> (u32, u32) {
        let me = 1 + pos[pos.len() - 1];
        (me, 3 - me)
    }
    /// Whether a pawn of `side` stands on its far row (White's the last, Black's the first).
    fn arrived(&self, pos: &[u32], side: u32) -> bool {
        let far = if side == 1 { self.rows - 1 } else { 0 };
        (0..self.cols).any(|c| pos[self.at(c, far)] == side)
    }
}

impl GameSpec for Hexapawn {
    const NAME: &'static str = "hexapawn/hexapawn";
    const ABOUT: &'static str =
        "Hexapawn: pawns move forward or capture diagonally; reach the far row or stalemate";
    const PARAMS: &'static [Param] = &[
        Param::required("cols", "C", "Columns of the board, 3 or 4"),
        Param::required("rows", "R", "Rows of the board, 3 or 4"),
    ];
    const VALUES: &'static [ValueKind] = &[ValueKind::Remoteness, ValueKind::Wlt];

    fn from_args(a: &Arguments) -> Result<Self> {
        let (cols, rows): (u32, u32) = (a.number("cols")?, a.number("rows")?);
        if !(3..=4).contains(&cols) || !(3..=4).contains(&rows) {
            let bad = format!("--cols {cols} --rows {rows}: expected 3 or 4 of each");
            return Err(Error::bad(bad));
        }
        Ok(Hexapawn { cols, rows })
    }

    fn parameters(&self) -> String {
        let (c, r) = (self.cols.to_string(), self.rows.to_string());
        params::write(&[("cols", Some(c)), ("rows", Some(r))])
    }

    fn samples() -> Vec<Self> {
        vec![Hexapawn { cols: 3, rows: 3 }]
    }

    fn view(&self) -> View {
        TwoPlayerView::of(self)
    }
}

impl TwoPlayerGame for Hexapawn {
    fn shape(&self) -> Shape {
        let n = (self.cols * self.rows) as usize;
        let mut max = vec![2; n];
        max.push(1);
        let form = format!(
            "{n} squares row 1 first, each 0 (empty), 1 (White) or 2 (Black), then the side to \
             move (0 White, 1 Black), e.g. {}",
            self.write(&self.start().unwrap_or_default())
        );
        Shape {
            name: "number",
            max,
            form,
        }
    }

    fn illegal(&self, pos: &[u32]) -> Option<String> {
        let count = |side| pos[..pos.len() - 1].iter().filter(|&&q| q == side).count();
        if count(1).max(count(2)) > self.cols as usize {
            return Some(format!("more than {} pawns of one side", self.cols));
        }
        // The game ended when the side to move got to its far row.
        let arrived = self.arrived(pos, Hexapawn::sides(pos).0);
        arrived.then(|| "the side to move has already reached the far row".into())
    }

    fn over(&self, pos: &[u32]) -> Option<Standing> {
        let them = Hexapawn::sides(pos).1;
        (self.arrived(pos, them) || self.moves(pos).is_empty()).then_some(Standing::Lose)
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let (me, them) = Hexapawn::sides(pos);
        let name = |c: u32, r: u32| format!("{}{}", (b'a' + c as u8) as char, r + 1);
        let mut out = Vec::new();
        for (r, c) in (0..self.rows).flat_map(|r| (0..self.cols).map(move |c| (r, c))) {
            let to = if me == 1 { r + 1 } else { r.wrapping_sub(1) };
            if pos[self.at(c, r)] != me || to >= self.rows {
                continue;
            }
            for (tc, want) in [(c, 0), (c.wrapping_sub(1), them), (c + 1, them)] {
                if tc >= self.cols || pos[self.at(tc, to)] != want {
                    continue;
                }
                let mut leaves = pos.to_vec();
                (leaves[self.at(c, r)], leaves[self.at(tc, to)]) = (0, me);
                leaves[pos.len() - 1] ^= 1;
                let how = if tc == c { "-" } else { "x" };
                let label = format!("{}{how}{}", name(c, r), name(tc, to));
                out.push(Move { label, leaves });
            }
        }
        out
    }

    fn max_moves(&self) -> u64 {
        3 * self.cols as u64
    }

    fn start(&self) -> Option<Vec<u32>> {
        let (n, c) = ((self.cols * self.rows) as usize, self.cols as usize);
        let mut pos = vec![0; n + 1];
        pos[..c].fill(1);
        pos[n - c..n].fill(2);
        Some(pos)
    }

    fn board(&self, pos: &[u32]) -> String {
        let row = |r: u32| -> String {
            let squares = (0..self.cols).map(|c| [".", "P", "p"][pos[self.at(c, r)] as usize]);
            format!("{} {}", r + 1, squares.collect::<Vec<_>>().join(" "))
        };
        let rows: Vec<String> = (0..self.rows).rev().map(row).collect();
        let files = (0..self.cols).map(|c| ((b'a' + c as u8) as char).to_string());
        let to_move = ["White", "Black"][pos[pos.len() - 1] as usize];
        let files = files.collect::<Vec<_>>().join(" ");
        format!("{}\n  {files}\n{to_move} to move", rows.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::Hexapawn;
    use gamedb::format::entries::standing;
    use gamedb::format::Solved;
    use gamedb::game::{Arguments, GameSpec, TwoPlayerGame};
    use gamedb::model::{Standing, ValueKind};
    use gamedb::Spec;
    use std::collections::HashMap;

    /// The value of a position by plain minimax, for the player to move: a win in the fewest
    /// plies the winner can force, a loss in the most the loser can last (every move advances a
    /// pawn, so play ends and the recursion with it).
    fn minimax(
        g: &Hexapawn,
        pos: &[u32],
        memo: &mut HashMap<Vec<u32>, (Standing, u32)>,
    ) -> (Standing, u32) {
        if let Some(&v) = memo.get(pos) {
            return v;
        }
        let v = if let Some(end) = g.over(pos) {
            (end, 0)
        } else {
            let kids: Vec<_> = g
                .moves(pos)
                .iter()
                .map(|m| minimax(g, &m.leaves, memo))
                .collect();
            let lost = kids
                .iter()
                .filter(|k| k.0 == Standing::Lose)
                .map(|k| k.1)
                .min();
            match lost {
                Some(r) => (Standing::Win, r + 1),
                None => (
                    Standing::Lose,
                    kids.iter().map(|k| k.1).max().unwrap_or(0) + 1,
                ),
            }
        };
        memo.insert(pos.to_vec(), v);
        v
    }

    /// Every index of the table of `g` against minimax: the same value and remoteness for each
    /// position, and no value where the index is no position.
    fn agrees(g: Hexapawn) -> u64 {
        let spec = Spec::new(g.clone());
        let Solved::Standings(values) = spec.solve(ValueKind::Remoteness, &()).unwrap() else {
            panic!("a remoteness table");
        };
        let (shape, mut memo, mut positions) = (g.shape(), HashMap::new(), 0);
        for (i, &entry) in values.iter().enumerate() {
            let pos = shape.unrank(i as u64);
            match (g.illegal(&pos), standing::unpack(entry as u32)) {
                (Some(_), None) => {}
                (None, Some(got)) => {
                    assert_eq!(got, minimax(&g, &pos, &mut memo), "{pos:?}");
                    positions += 1;
                }
                (why, got) => panic!("{pos:?}: {why:?} but {got:?}"),
            }
        }
        positions
    }

    fn board(cols: u32, rows: u32) -> Hexapawn {
        let args = Arguments::new().with("cols", cols).with("rows", rows);
        Hexapawn::from_args(&args).unwrap()
    }

    #[test]
    fn every_position_agrees_with_minimax() {
        for (cols, rows) in [(3, 3), (4, 3), (3, 4)] {
            let positions = agrees(board(cols, rows));
            eprintln!("{cols}x{rows}: {positions} positions agree with minimax");
            assert!(positions > 0);
        }
    }

    /// Gardner's game: on the 3×3 board the second player, Black, wins.
    #[test]
    fn black_wins_the_three_by_three_game() {
        let g = board(3, 3);
        let start = g.start().unwrap();
        assert_eq!(minimax(&g, &start, &mut HashMap::new()).0, Standing::Lose);
        let Solved::Standings(values) = Spec::new(g.clone())
            .solve(ValueKind::Remoteness, &())
            .unwrap()
        else {
            panic!("a remoteness table");
        };
        let entry = values[g.shape().rank(&start) as usize] as u32;
        assert_eq!(standing::unpack(entry).map(|v| v.0), Some(Standing::Lose));
    }

    #[test]
    fn samples_pass_the_conformance_checks() {
        for sample in Hexapawn::samples() {
            let spec = Spec::new(sample.clone());
            spec.view()
                .conformance()
                .unwrap_or_else(|e| panic!("{sample:?}: {e}"));
            spec.check_values()
                .unwrap_or_else(|e| panic!("{sample:?}: {e}"));
        }
    }

    #[test]
    fn bad_boards_and_positions_are_refused() {
        for bad in ["cols=2,rows=3", "cols=3,rows=5", "cols=3"] {
            let args = Arguments::parse(bad).unwrap();
            assert!(Hexapawn::from_args(&args).is_err(), "{bad}");
        }
        let spec = Spec::new(board(3, 3));
        let rules = spec.view().rules();
        for (text, says) in [
            ("1,1,1,0,0,0,2,2,2,0", ""),
            ("1,1,1,1,0,0,2,2,2,0", "more than 3 pawns"),
            ("2,0,0,0,1,0,0,0,0,1", "already reached the far row"),
            ("1,1,1,0,0,0,2,2,2", "9 numbers instead of 10"),
            ("1,1,1,0,0,0,2,2,3,0", "number 9 is 3 (at most 2)"),
        ] {
            match rules.parse(text) {
                Ok(_) => assert!(says.is_empty(), "{text} accepted"),
                Err(e) => assert!(
                    !says.is_empty() && e.to_string().contains(says),
                    "{text}: {e}"
                ),
            }
        }
    }
}
