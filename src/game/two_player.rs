//! A two-player game in one page ([`TwoPlayerGame`]): beside its parameters ([`GameSpec`]), the
//! [`Shape`] of its positions, its moves, where play ends and how a position is drawn; gamedb
//! makes the index, the tiers, the solvers' view ([`Tiered`]), the lookups' rules and the engine
//! from them ([`TwoPlayerView`]).

use std::ops::{ControlFlow, Range};

use super::rules::{Move, Rules};
use super::spec::GameSpec;
use super::text::{format_numbers, parse_numbers, quote};
use super::view::View;
use super::Shape;
use crate::model::{Indexed, Standing, Tiered, Visit};
use crate::Result;

/// A two-player game with ties and draws, written as positions, moves and ends: what a game
/// of another crate implements beside its [`GameSpec`] (whose [`view`](GameSpec::view) is
/// [`TwoPlayerView::of`]) to get tables of win, lose, tie or draw with remoteness
/// (`--values remoteness`) or in two bits (`--values wlt`), lookups, play and the service.
///
/// A position is a fixed number of numbers ([`shape`](TwoPlayerGame::shape)), one of them, as
/// the game likes, saying whose turn it is; its index is the shape's, every list of numbers in
/// range, and [`illegal`](TwoPlayerGame::illegal) says which of them no play makes. Moves give
/// the positions they leave as the next player sees them. Play may cycle (the engine finds
/// draws) and may end tied. The whole index is solved as one tier, every position's moves
/// listed once and kept while the tier is solved: right for games up to some tens of millions
/// of indices; a larger game cuts its index into tiers of its own by implementing [`Tiered`]
/// and [`Rules`] (as Connect Four, the mill games and the chess endings do, see
/// [`View::two_player`]).
///
/// Four items are required: [`shape`](TwoPlayerGame::shape), [`over`](TwoPlayerGame::over),
/// [`moves`](TwoPlayerGame::moves) and [`max_moves`](TwoPlayerGame::max_moves).
pub trait TwoPlayerGame: GameSpec {
    /// How the positions of these parameters are written, checked and indexed.
    fn shape(&self) -> Shape;
    /// Why a list of numbers the shape accepts is no position of the game (`None`, the
    /// default, when it is one). Lookups refuse such a list with this reason; its index holds
    /// no value.
    fn illegal(&self, _pos: &[u32]) -> Option<String> {
        None
    }
    /// The value of a position where the game is over, for the player to move: `Lose` when the
    /// other side has just won, `Tie` when it ends drawn; `None` while play goes on, when the
    /// position must have a move.
    fn over(&self, pos: &[u32]) -> Option<Standing>;
    /// Every legal move of a position where play goes on, in a fixed order, each with the
    /// position it leaves as the next player sees it.
    fn moves(&self, pos: &[u32]) -> Vec<Move>;
    /// The most moves a position has: the engine's memory estimate counts on it.
    fn max_moves(&self) -> u64;
    /// The positions with a move to `pos` where play goes on, when the game can list them
    /// (un-moves): the engine then keeps no move of the tier in memory and finds what the
    /// start reaches backward. `None`, the default, when it cannot.
    fn parents(&self, _pos: &[u32]) -> Option<Vec<Vec<u32>>> {
        None
    }
    /// The position play starts from, when the game has one: the table marks what it reaches,
    /// and `gamedb play` starts there.
    fn start(&self) -> Option<Vec<u32>> {
        None
    }
    /// Writes a position the way [`read`](TwoPlayerGame::read) reads it: by default its
    /// numbers, `1,0,2`.
    fn write(&self, pos: &[u32]) -> String {
        format_numbers(pos)
    }
    /// Reads a position written as [`write`](TwoPlayerGame::write) writes it (the shape and
    /// [`illegal`](TwoPlayerGame::illegal) check it afterwards): by default numbers.
    fn read(&self, text: &str) -> Result<Vec<u32>> {
        parse_numbers(text, self.shape().form)
    }
    /// The position drawn for a person at a terminal (`gamedb play`); by default as written.
    fn board(&self, pos: &[u32]) -> String {
        self.write(pos)
    }
}

/// The view of a [`TwoPlayerGame`]: the game and its shape, made once, as the two-player
/// engine ([`Tiered`]) and the lookups ([`Rules`]) see it.
#[derive(Clone, Debug)]
pub struct TwoPlayerView<T> {
    game: T,
    shape: Shape,
}

impl<T: TwoPlayerGame> TwoPlayerView<T> {
    /// The [`View`] of `game`: what its [`GameSpec::view`] returns.
    pub fn of(game: &T) -> View {
        View::two_player(TwoPlayerView {
            shape: game.shape(),
            game: game.clone(),
        })
    }

    /// The position at `index` when it is one of the game.
    fn position(&self, index: u64) -> Option<Vec<u32>> {
        let pos = self.shape.unrank(index);
        self.game.illegal(&pos).is_none().then_some(pos)
    }
}

impl<T: TwoPlayerGame> Indexed for TwoPlayerView<T> {
    fn positions(&self) -> u64 {
        self.shape.positions()
    }
}

impl<T: TwoPlayerGame> Tiered for TwoPlayerView<T> {
    fn tier_count(&self) -> u64 {
        1
    }

    fn tier(&self, _t: u64) -> Range<u64> {
        0..self.shape.positions()
    }

    fn legal(&self, pos: u64) -> bool {
        self.position(pos).is_some()
    }

    fn terminal(&self, pos: u64) -> Option<Standing> {
        self.game.over(&self.position(pos)?)
    }

    fn children<F: FnMut(u64)>(&self, pos: u64, f: F) {
        self.visit(pos, f);
    }

    // One unranking a visit, not one for each question.
    fn visit<F: FnMut(u64)>(&self, pos: u64, mut f: F) -> Visit {
        let Some(p) = self.position(pos) else {
            return Visit::Illegal;
        };
        if let Some(v) = self.game.over(&p) {
            return Visit::Over(v);
        }
        for m in self.game.moves(&p) {
            f(self.shape.rank(&m.leaves));
        }
        Visit::Moves
    }

    fn moves_bound(&self) -> u64 {
        self.game.max_moves()
    }

    fn start_index(&self) -> Option<u64> {
        self.game.start().map(|p| self.shape.rank(&p))
    }

    fn lists_parents(&self) -> bool {
        // Asked of the start's position: a game lists un-moves for every position or none.
        let probe = self.game.start().unwrap_or_else(|| self.shape.unrank(0));
        self.game.parents(&probe).is_some()
    }

    fn parents<F: FnMut(u64) -> ControlFlow<()>>(&self, pos: u64, mut f: F) -> ControlFlow<()> {
        let Some(p) = self.position(pos) else {
            return ControlFlow::Continue(());
        };
        for parent in self.game.parents(&p).unwrap_or_default() {
            f(self.shape.rank(&parent))?;
        }
        ControlFlow::Continue(())
    }

    fn lists_tier_parents(&self, _t: u64) -> bool {
        self.lists_parents()
    }

    fn tier_parents<F: FnMut(u64)>(&self, pos: u64, mut f: F) -> bool {
        if let Some(p) = self.position(pos) {
            for parent in self.game.parents(&p).unwrap_or_default() {
                f(self.shape.rank(&parent));
            }
        }
        false
    }
}

impl<T: TwoPlayerGame> Rules for TwoPlayerView<T> {
    fn parse(&self, text: &str) -> Result<Vec<u32>> {
        let pos = self.game.read(text)?;
        self.check(&pos)?;
        Ok(pos)
    }

    fn position_form(&self) -> String {
        self.shape.form.clone()
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        self.shape.check(pos)?;
        match self.game.illegal(pos) {
            Some(why) => Err(crate::Error::bad(format!(
                "position '{}' is no position of the game: {why}; expected {}",
                quote(pos),
                self.shape.form
            ))),
            None => Ok(()),
        }
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        self.shape.rank(pos)
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        self.shape.unrank(index)
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        if self.game.over(pos).is_some() {
            return Vec::new();
        }
        self.game.moves(pos)
    }

    fn terminal_standing(&self, pos: &[u32]) -> Option<Standing> {
        self.game.over(pos)
    }

    fn start(&self) -> Option<Vec<u32>> {
        self.game.start()
    }

    fn format(&self, pos: &[u32]) -> String {
        self.game.write(pos)
    }

    fn board(&self, pos: &[u32]) -> String {
        self.game.board(pos)
    }
}
