//! Outcome and Grundy tables: an entry per position, answered with the outcome, the Grundy
//! value (Grundy tables) and the winning moves, the moves to a P-position. A position that is
//! a sum of entries is answered from the parts (`sums.rs`).

use super::{Answerer, Table};
use crate::answer::{AnswerMove, GameValue, Value};
use crate::model::Outcome;
use crate::{Error, Result};

/// An entry per position: P/N, or the Grundy value.
pub(super) struct Games;

impl Answerer for Games {
    fn answer(&self, table: &Table, position: &[u32]) -> Result<(Value, Option<u64>)> {
        let rules = table.rules();
        if let Some(parts) = rules.summands(position) {
            let (sum, single) = table.sum_value(position, &parts)?;
            return Ok((Value::Game(sum), single));
        }
        if let Some(why) = rules.outside(position) {
            return Err(Error::bad(format!(
                "position '{}' is not in this table: {why}",
                rules.format(position)
            )));
        }
        let i = rules.rank(position);
        let entries = table.entries();
        // Rank every child first, then read their entries in one tight loop, so the reads
        // (random places of a large table) overlap instead of waiting for each other.
        let mut children = Vec::new();
        rules.move_indices(position, &mut children);
        let mut outcomes = Vec::with_capacity(children.len());
        entries.outcomes_at(&children, &mut outcomes);
        let winning: Vec<usize> = (0..outcomes.len())
            .filter(|&k| outcomes[k] == Outcome::P)
            .collect();
        let mut winning_moves = if winning.is_empty() {
            Vec::new()
        } else {
            AnswerMove::all(rules, rules.moves_at(position, &winning))
        };
        let more_winning_moves = crate::answer::first_listed(&mut winning_moves);
        let value = Value::Game(GameValue {
            outcome: entries.outcome(i),
            grundy: table.grundy(i),
            winning_moves,
            more_winning_moves,
            moves: None,
        });
        Ok((value, Some(i)))
    }
}
