//! Sums of table entries ([`Rules::summands`](crate::game::Rules::summands): a game played as several independent parts,
//! each an entry, as octal games' heaps): the value is the xor of the parts' Grundy values,
//! and a winning move is a move of one part to the value that brings the whole to 0.

use super::Table;
use crate::answer::{AnswerMove, GameValue};
use crate::game::Move;
use crate::model::{Outcome, ValueKind};
use crate::{Error, Result};

impl Table {
    /// The Grundy value of a sum of table entries (see [`Rules::summands`](crate::game::Rules::summands)): the xor of its
    /// parts' entries; an error when the table does not hold Grundy values.
    fn grundy_of_sum(&self, position: &[u32], parts: &[Vec<u32>]) -> Result<u32> {
        if self.value_kind() != ValueKind::Grundy {
            return Err(Error::bad(format!(
                "position '{}' is a sum of {} parts; a sum is answered from Grundy values, and \
                 {} holds {} values",
                self.rules.format(position),
                parts.len(),
                self.file.path().display(),
                self.value_kind().name()
            )));
        }
        let entries = self.entries();
        Ok(parts
            .iter()
            .fold(0, |x, part| x ^ entries.raw(self.rules.rank(part))))
    }

    /// The answer of a position that is a sum of table entries (see [`Rules::summands`](crate::game::Rules::summands)), and
    /// its index when it is a single entry: the xor of the parts' Grundy values, and as
    /// winning moves every move of one part to a position of value `g ^ x` (the part's value
    /// xor the whole's), which brings the whole to 0. Each such move is shown as the whole
    /// position it leaves: the part replaced by the move's leaves.
    pub(super) fn sum_value(
        &self,
        position: &[u32],
        parts: &[Vec<u32>],
    ) -> Result<(GameValue, Option<u64>)> {
        let x = self.grundy_of_sum(position, parts)?;
        let entries = self.entries();
        let mut winning = Vec::new();
        if x != 0 {
            let mut before = 0;
            for part in parts {
                let g = entries.raw(self.rules.rank(part));
                let want = g ^ x;
                let after = before + part.len();
                // The value kind was checked above, so the xor of entries is the value.
                let mut reaches_want = |leaves: &[u32]| {
                    let value = match self.rules.summands(leaves) {
                        Some(parts) => parts
                            .iter()
                            .fold(0, |x, p| x ^ entries.raw(self.rules.rank(p))),
                        None => entries.raw(self.rules.rank(leaves)),
                    };
                    value == want
                };
                for m in self.rules.moves_where(part, &mut reaches_want) {
                    let mut whole = Vec::with_capacity(position.len() + m.leaves.len());
                    whole.extend_from_slice(&position[..before]);
                    whole.extend_from_slice(&m.leaves);
                    whole.extend_from_slice(&position[after..]);
                    winning.push(Move {
                        label: m.label,
                        leaves: whole,
                    });
                }
                before = after;
            }
        }
        let single = (parts.len() == 1).then(|| self.rules.rank(&parts[0]));
        let mut winning_moves = AnswerMove::all(self.rules(), winning);
        let more_winning_moves = crate::answer::first_listed(&mut winning_moves);
        Ok((
            GameValue {
                outcome: Outcome::from_win(x != 0),
                grundy: Some(x),
                winning_moves,
                more_winning_moves,
                moves: None,
            },
            single,
        ))
    }

    /// The Grundy value of a checked position of a game played as a sum of table entries
    /// ([`Rules::summands`](crate::game::Rules::summands)); `None` for other games (read their entry at
    /// [`index_of`](Table::index_of)). An error when the table does not hold Grundy values.
    pub(crate) fn sum_grundy(&self, position: &[u32]) -> Result<Option<u32>> {
        match self.rules.summands(position) {
            Some(parts) => self.grundy_of_sum(position, &parts).map(Some),
            None => Ok(None),
        }
    }
}
