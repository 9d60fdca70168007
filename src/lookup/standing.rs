//! Win/lose/tie/draw tables of two-player games: an entry per index (a [`standing`] entry),
//! answered with the value and remoteness for the player to move and every move with what it
//! gives the player who plays it.

use super::{Answerer, Table};
use crate::answer::{AnswerMove, Counter, StandingMove, StandingValue, Value};
use crate::format::entries::standing;
use crate::model::{after_reset, Outcome, Standing, ValueKind, Wdl50};
use crate::{Error, Result};

/// An entry per index: a value with its remoteness, or no legal position.
pub(super) struct Standings;

/// The value and remoteness of entry `i`, or why there is none.
pub(super) fn read(table: &Table, i: u64) -> Result<(Standing, Option<u32>, bool)> {
    let entry = table.raw(i);
    match standing::unpack(entry) {
        Some((v, r)) => Ok((
            v,
            (v != Standing::Draw).then_some(r),
            standing::reachable(entry),
        )),
        None => Err(Error::corrupt(
            table.file().path(),
            format!("entry {i} holds no value ({entry}), but the game says it is a position"),
        )),
    }
}

impl Answerer for Standings {
    fn answer(&self, table: &Table, position: &[u32]) -> Result<(Value, Option<u64>)> {
        let rules = table.rules();
        let i = rules.rank(position);
        // An index that is no position (a board play cannot make, asked as `#I`) holds no
        // value: the rules say why it is none.
        if standing::unpack(table.raw(i)).is_none() {
            rules.check(position)?;
        }
        let (value, remoteness, reachable) = read(table, i)?;
        // Distances to zeroing: a move that resets the counter counts its child's class only.
        let counted = table.value_kind() == ValueKind::Dtz;
        let counter = |value: Standing, d: Option<u32>, zeroing: Option<bool>| {
            let d = d.unwrap_or(0);
            counted.then_some(Counter {
                wdl50: Wdl50::of(value, d),
                dtz: Wdl50::dtz(value, d),
                zeroing,
            })
        };
        let mut moves = Vec::new();
        for m in rules.moves(position) {
            let c = rules.rank(&m.leaves);
            let (child, mut r, _) = read(table, c)?;
            let zeroing = counted && rules.resets_counter(i, c);
            if zeroing {
                r = r.map(|r| after_reset(child, r));
            }
            let (value, remoteness) = (child.flip(), r.map(|r| r + 1));
            moves.push(StandingMove {
                played: AnswerMove::new(rules, m),
                value,
                remoteness,
                counter: counter(value, remoteness, Some(zeroing)),
            });
        }
        let has_start = rules.start().is_some();
        let value = Value::Standing(StandingValue {
            value,
            remoteness,
            reachable: has_start.then_some(reachable),
            counter: counter(value, remoteness, None),
            moves,
        });
        Ok((value, Some(i)))
    }

    fn outcome_of(&self, table: &Table, _position: &[u32]) -> Result<Outcome> {
        Err(Error::bad(format!(
            "{} holds win, lose, tie or draw with remoteness, not P or N: query the position",
            table.file().path().display()
        )))
    }
}
