//! A small impartial game in one page ([`SimpleGame`]): beside its parameters, its positions as
//! a [`Shape`] and its moves; gamedb makes the index, the solvers' children, the lookups' rules
//! and the engine from them.

use std::ops::ControlFlow;

use super::rules::{Move, Rules};
use super::spec::GameSpec;
use super::text::quote;
use super::view::View;
use crate::model::{Game, Indexed};
use crate::Result;

/// How the positions of a [`SimpleGame`] are written and indexed: a fixed number of numbers,
/// number `i` in `0..=max[i]`. The index reads them as one mixed-radix number, the first the
/// lowest digit: for pins each `0..=1` it is the bitmask of the pins, the first pin bit 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// What one number is, in the singular, for messages (`pin 2 is 2 (at most 1)`; a count
    /// adds `s`: `3 pins instead of 12`).
    pub name: &'static str,
    /// The largest value of each number.
    pub max: Vec<u32>,
    /// How positions are written, for messages (`12 pins, each 1 (standing) or 0 (down)`).
    pub form: String,
}

impl Shape {
    /// Number of positions: the product of the ranges (saturating; a build refuses what is
    /// too large long before).
    pub fn positions(&self) -> u64 {
        self.max
            .iter()
            .fold(1u64, |n, &m| n.saturating_mul(m as u64 + 1))
    }

    /// Checks that `pos` has one number for each of [`max`](Shape::max), each in its range;
    /// the error names the bad count or number and the accepted [`form`](Shape::form).
    pub fn check(&self, pos: &[u32]) -> Result<()> {
        let (n, name) = (self.max.len(), self.name);
        let what = match pos.iter().zip(&self.max).position(|(p, m)| p > m) {
            _ if pos.len() != n => {
                let s = if pos.len() == 1 { "" } else { "s" };
                format!("{} {name}{s} instead of {n}", pos.len())
            }
            Some(i) => format!("{name} {} is {} (at most {})", i + 1, pos[i], self.max[i]),
            None => return Ok(()),
        };
        Err(crate::Error::bad(format!(
            "position '{}': {what}; expected {}",
            quote(pos),
            self.form
        )))
    }

    /// The index of a checked position.
    pub fn rank(&self, pos: &[u32]) -> u64 {
        pos.iter()
            .zip(&self.max)
            .rev()
            .fold(0, |index, (&p, &m)| index * (m as u64 + 1) + p as u64)
    }

    /// The position at an index below [`positions`](Shape::positions).
    pub fn unrank(&self, mut index: u64) -> Vec<u32> {
        let digit = |m: &u32| {
            let radix = *m as u64 + 1;
            let d = index % radix;
            index /= radix;
            d as u32
        };
        self.max.iter().map(digit).collect()
    }
}

/// A small impartial game in one page: beside its parameters ([`GameSpec`], whose
/// [`view`](GameSpec::view) is [`SimpleView::of`]), the [`shape`](SimpleGame::shape) of its
/// positions and its [`moves`](SimpleGame::moves); the index, the solvers' view ([`Game`]), the
/// lookups' rules and the engine are made from these ([`SimpleView`]).
///
/// Its index is the shape's (every list of numbers in range is a position), every move must
/// lower the index (each index is a level of its own), a position without moves is lost for
/// the player to move (normal play), and the solvers find the children of a position by
/// listing its moves and ranking what they leave: right for any game, but slow, as each
/// child costs a move with its label. A game that needs another index, levels, terminal
/// values or a fast engine implements [`Game`] and [`Rules`] and makes its view with
/// [`View::acyclic`] or an engine of its own.
pub trait SimpleGame: GameSpec {
    /// How the positions of these parameters are written, checked and indexed.
    fn shape(&self) -> Shape;
    /// Every legal move of a checked position, in a fixed order (see [`Rules::moves`]).
    fn moves(&self, pos: &[u32]) -> Vec<Move>;
}

/// The view of a [`SimpleGame`]: the game and its shape (made once), implementing [`Game`]
/// and [`Rules`].
#[derive(Clone, Debug)]
pub struct SimpleView<T> {
    game: T,
    shape: Shape,
}

impl<T: SimpleGame> SimpleView<T> {
    /// The [`View`] of `game`: what its [`GameSpec::view`] returns.
    pub fn of(game: &T) -> View {
        View::acyclic(SimpleView {
            shape: game.shape(),
            game: game.clone(),
        })
    }
}

impl<T: SimpleGame> Indexed for SimpleView<T> {
    fn positions(&self) -> u64 {
        self.shape.positions()
    }
}

impl<T: SimpleGame> Game for SimpleView<T> {
    fn children<F: FnMut(u64) -> ControlFlow<()>>(&self, pos: u64, mut f: F) -> ControlFlow<()> {
        let moves = self.game.moves(&self.shape.unrank(pos));
        moves.iter().try_for_each(|m| f(self.shape.rank(&m.leaves)))
    }
}

impl<T: SimpleGame> Rules for SimpleView<T> {
    fn position_form(&self) -> String {
        self.shape.form.clone()
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        self.shape.check(pos)
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        self.shape.rank(pos)
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        self.shape.unrank(index)
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        self.game.moves(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shape_ranks_as_a_mixed_radix_number_first_digit_lowest() {
        let shape = Shape {
            name: "heap",
            max: vec![1, 2, 3],
            form: "3 heaps".into(),
        };
        assert_eq!(shape.positions(), 2 * 3 * 4);
        assert_eq!(shape.rank(&[1, 0, 0]), 1);
        assert_eq!(shape.rank(&[0, 1, 0]), 2);
        assert_eq!(shape.rank(&[1, 2, 3]), 23);
        for i in 0..shape.positions() {
            assert_eq!(shape.rank(&shape.unrank(i)), i);
        }
        let bits = Shape {
            name: "pin",
            max: vec![1; 5],
            form: "5 pins".into(),
        };
        assert_eq!(bits.rank(&[1, 0, 1, 1, 0]), 0b01101);
        let refused = |pos: &[u32]| bits.check(pos).unwrap_err().to_string();
        assert_eq!(
            refused(&[1]),
            "position '1': 1 pin instead of 5; expected 5 pins"
        );
        assert_eq!(
            refused(&[1, 2, 0, 0, 0]),
            "position '1,2,0,0,0': pin 2 is 2 (at most 1); expected 5 pins"
        );
        assert!(bits.check(&[1, 1, 0, 0, 1]).is_ok());
    }
}
