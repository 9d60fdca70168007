//! Wlt tables of two-player games: a two-bit code per index ([`wlt`]), answered with win,
//! lose or tie-or-draw for the player to move and every move with what it gives the player
//! who plays it. No remoteness: the table keeps none.

use super::{Answerer, Table};
use crate::answer::{AnswerMove, Value, WltMove, WltValue};
use crate::format::entries::wlt;
use crate::model::{Outcome, Wlt};
use crate::{Error, Result};

/// A two-bit code per index: win, lose, tie or draw, or no legal position.
pub(super) struct Wlts;

/// The value of entry `i`, or why there is none.
pub(super) fn read(table: &Table, i: u64) -> Result<Wlt> {
    let code = table.raw(i);
    wlt::value(code).ok_or_else(|| {
        Error::corrupt(
            table.file().path(),
            format!("entry {i} holds no value ({code}), but the game says it is a position"),
        )
    })
}

impl Answerer for Wlts {
    fn answer(&self, table: &Table, position: &[u32]) -> Result<(Value, Option<u64>)> {
        let rules = table.rules();
        let i = rules.rank(position);
        // An index that is no position holds no value: the rules say why it is none.
        if wlt::value(table.raw(i)).is_none() {
            rules.check(position)?;
        }
        let value = read(table, i)?;
        let mut moves = Vec::new();
        for m in rules.moves(position) {
            let child = read(table, rules.rank(&m.leaves))?;
            moves.push(WltMove {
                played: AnswerMove::new(rules, m),
                value: child.flip(),
            });
        }
        Ok((Value::Wlt(WltValue { value, moves }), Some(i)))
    }

    fn outcome_of(&self, table: &Table, _position: &[u32]) -> Result<Outcome> {
        Err(Error::bad(format!(
            "{} holds win, lose or tie-or-draw, not P or N; expected a query of the position",
            table.file().path().display()
        )))
    }
}
