//! Extension tables (three-rowed Chomp): an entry is a prefix of positions, not a position,
//! and the game reads a position's outcome and winning moves from the entries
//! ([`Rules::extension_outcome`](crate::game::Rules::extension_outcome)).

use super::{Answerer, Table};
use crate::answer::{AnswerMove, GameValue, Value};
use crate::model::Outcome;
use crate::{Error, Result};

/// The game reads what it needs from the entries.
pub(super) struct Extension;

impl Answerer for Extension {
    fn answer(&self, table: &Table, position: &[u32]) -> Result<(Value, Option<u64>)> {
        // One entry per prefix: the game reads what it needs from the entries.
        let rules = table.rules();
        let i = rules.rank(position);
        let entries = table.entries();
        let entry = |k: u64| entries.raw(k);
        let (Some(outcome), Some(winning)) = (
            rules.extension_outcome(position, &entry),
            rules.extension_winning_moves(position, &entry),
        ) else {
            return Err(table.no_extensions());
        };
        let mut winning_moves = AnswerMove::all(rules, winning);
        let more_winning_moves = crate::answer::first_listed(&mut winning_moves);
        let value = Value::Game(GameValue {
            outcome,
            grundy: None,
            winning_moves,
            more_winning_moves,
            moves: None,
        });
        Ok((value, Some(i)))
    }

    fn outcome_of(&self, table: &Table, position: &[u32]) -> Result<Outcome> {
        let entries = table.entries();
        table
            .rules()
            .extension_outcome(position, &|k| entries.raw(k))
            .ok_or_else(|| table.no_extensions())
    }
}

impl Table {
    /// The error of a game that says it stores extension values but cannot read them.
    fn no_extensions(&self) -> Error {
        Error::corrupt(
            self.file.path(),
            format!("{} tables cannot be read as extension values", self.game()),
        )
    }
}
