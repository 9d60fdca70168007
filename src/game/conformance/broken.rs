//! What a conformance check returns ([`Checked`]): the positions it looked at, or the contract a
//! game breaks ([`Broken`]).

#[cfg(doc)]
use crate::game::Rules;
#[cfg(doc)]
use crate::model::{Game, Retro};
#[cfg(doc)]
use crate::solve::{Puzzle, Waves};

/// What a check returns: positions checked, or the contract broken.
pub type Checked = Result<u64, Broken>;

/// The contracts the checks hold a game to: one for each trait a game implements (and the
/// fast paths of lookups, and the values of a solved table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contract {
    /// [`Game`]: levels, children, terminal positions.
    Game,
    /// [`Retro`]: the un-moves are the moves read backward.
    Retro,
    /// [`Waves`]: waves, pieces, mirror images.
    Waves,
    /// [`Puzzle`]: reversible moves, expansion, goals.
    Puzzle,
    /// [`Adversary`](crate::solve::Adversary) (minimax): every answer lies in an earlier level.
    Adversary,
    /// [`Tiered`](crate::model::Tiered): tiers, legal positions, terminal values and moves
    /// against the rules.
    Tiered,
    /// The un-moves a [`Tiered`](crate::model::Tiered) game lists inside a tier.
    Parents,
    /// [`Rules`]: ranking, text and moves, against the solvers' children.
    Rules,
    /// The fast paths of lookups ([`Rules::entry_index`], [`Rules::text_entry_index`]).
    FastPaths,
    /// A solved table against the game's own recurrence (`conformance::values`).
    Values,
    /// An engine of a game's own against its definition (a brute force on small cases).
    Engine,
}

/// A contract a game breaks, as a check found it: which one, and what is wrong in words (the
/// position, what was expected, what was found), which is what it displays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// The contract broken.
    pub contract: Contract,
    /// What is wrong.
    pub what: String,
}

impl Broken {
    /// `contract` broken as `what` says.
    pub fn new(contract: Contract, what: impl Into<String>) -> Broken {
        Broken {
            contract,
            what: what.into(),
        }
    }
}

impl std::fmt::Display for Broken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for Broken {}
