//! Distances mod 3 (the 2-bit tables `gamedb enumerate` writes): each entry holds the
//! distance modulo 3 only, and the exact distance is found by descent. Every move changes a
//! puzzle's distance by exactly one, so the moves one step nearer the goal are exactly those
//! whose leaves hold the code [`mod3::closer`]; the exact distance is the number of steps of
//! the walk that takes, each step, the first such move, until the goal.

use super::distance::{self, Exact};
use super::{Answerer, Table};
use crate::answer::Value;
use crate::format::entries::mod3;
use crate::{Error, Result};

/// Exact distances read from a table of distances mod 3, by descent.
pub(super) struct Mod3;

impl Answerer for Mod3 {
    fn answer(&self, table: &Table, position: &[u32]) -> Result<(Value, Option<u64>)> {
        distance::exact(table, self, position)
    }

    fn exact(&self) -> Option<&dyn Exact> {
        Some(self)
    }

    /// The exact distance (by descent from the position at the index), not the stored code.
    fn value(&self, table: &Table, index: u64) -> Result<u32> {
        if let Some(e) = table.not_known() {
            return Err(e);
        }
        table.descend(&table.rules.unrank(index))
    }
}

impl Exact for Mod3 {
    fn distance(&self, table: &Table, position: &[u32], _index: u64) -> Result<u32> {
        table.descend(position)
    }

    fn entry(&self, distance: u32) -> u32 {
        mod3::code(distance) as u32
    }
}

impl Table {
    /// The length of the walk from `position` to the goal in a mod3 table, each step to the
    /// first move whose leaves hold the closer code. The goal is the one position without
    /// such a move (its neighbours are all at distance 1, code 2; none holds code 3), and it
    /// holds code 1. A table that contradicts this is reported as damaged.
    fn descend(&self, position: &[u32]) -> Result<u32> {
        let mut pos = position.to_vec();
        let mut steps = 0u64;
        loop {
            let code = self.raw(self.rules.rank(&pos)) as u8;
            if code == mod3::UNREACHED {
                return Err(self.inconsistent(
                    &pos,
                    "is marked unreached, but the rules say the goal can be reached",
                ));
            }
            let closer = mod3::closer(code) as u32;
            let next = self.rules.moves(&pos).into_iter().find(|m| {
                self.rules.outside(&m.leaves).is_none()
                    && self.raw(self.rules.rank(&m.leaves)) == closer
            });
            match next {
                Some(m) if steps < self.len() => {
                    pos = m.leaves;
                    steps += 1;
                }
                Some(_) => {
                    return Err(
                        self.inconsistent(position, "descends for ever (no path to the goal)")
                    )
                }
                None if code == mod3::code(0) => return Ok(steps as u32),
                None => return Err(self.inconsistent(&pos, "has no move one step nearer the goal")),
            }
        }
    }

    fn inconsistent(&self, position: &[u32], what: &str) -> Error {
        Error::corrupt(
            self.file.path(),
            format!("position {} {what}", self.rules.format(position)),
        )
    }
}
