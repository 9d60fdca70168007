//! Distance tables (puzzles): exact distances to the goal, stored one a byte or u16 (or mod 3,
//! see `mod3.rs`, which reads them through the same [`Exact`] interface), answered with the
//! moves one step nearer and on request a whole optimal solution; and tables of lower bounds
//! (a game whose rules give a [`Rules::distance_bound`](crate::game::Rules::distance_bound)),
//! answered with the bound.

use super::{Answerer, Table};
use crate::answer::{AnswerMove, BoundValue, DistanceValue, Value};
use crate::format::entries::{mod3, UNREACHED};
use crate::format::payload::Encoding;
use crate::game::Move;
use crate::{Error, Result};

/// Distances found in a distance table, for `gamedb info`.
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceCensus {
    /// `counts[d]`: entries at distance `d`, up to the largest distance present.
    pub counts: Vec<u64>,
    /// Entries marked unreachable (none in a complete table).
    pub unreached: u64,
    /// A mod3 table, which stores no whole distances (`counts` is then empty): the entries at
    /// distances ≡ 0, 1, 2 (mod 3).
    pub residues: Option<[u64; 3]>,
    /// Number of entries at the largest distance.
    pub antipode_count: u64,
    /// Indices of the first of them (in index order), at most the number asked for.
    pub antipodes: Vec<u64>,
}

impl DistanceCensus {
    /// The largest distance present.
    pub fn max_distance(&self) -> Option<u32> {
        self.counts.len().checked_sub(1).map(|d| d as u32)
    }
}

/// How a table of exact distances reads them: stored as they are ([`Stored`]), or mod 3 by
/// descent (`mod3.rs`).
pub(super) trait Exact {
    /// The exact distance of `position` (at `index`).
    fn distance(&self, table: &Table, position: &[u32], index: u64) -> Result<u32>;

    /// What the entry of a position at `distance` holds.
    fn entry(&self, distance: u32) -> u32;
}

/// Exact distances stored as they are (one a byte or u16).
pub(super) struct Stored;

impl Answerer for Stored {
    fn answer(&self, table: &Table, position: &[u32]) -> Result<(Value, Option<u64>)> {
        exact(table, self, position)
    }

    fn exact(&self) -> Option<&dyn Exact> {
        Some(self)
    }
}

impl Exact for Stored {
    fn distance(&self, table: &Table, _position: &[u32], index: u64) -> Result<u32> {
        table.stored_distance(index)
    }

    fn entry(&self, distance: u32) -> u32 {
        distance
    }
}

/// Lower bounds on the distance (the entry is a bound, or [`UNREACHED`] for tiles that
/// cannot be brought home).
pub(super) struct Bounds;

impl Answerer for Bounds {
    fn answer(&self, table: &Table, position: &[u32]) -> Result<(Value, Option<u64>)> {
        let rules = table.rules();
        match (rules.distance_bound(), rules.outside(position)) {
            (Some(counts), None) => {
                let i = rules.rank(position);
                let v = table.raw(i);
                let value = Value::Bound(BoundValue {
                    lower_bound: (v != UNREACHED as u32).then_some(v),
                    reason: (v == UNREACHED as u32).then(|| {
                        format!("the entry is {UNREACHED}: those tiles cannot be brought home")
                    }),
                    counts,
                });
                Ok((value, Some(i)))
            }
            (_, Some(why)) => Ok((Value::Distance(DistanceValue::unsolvable(why)), None)),
            (None, None) => exact(table, &Stored, position),
        }
    }
}

/// The answer of a position of a table of exact distances: its distance and the moves one
/// step nearer the goal, or unsolvable with the rules' reason when it is outside the table.
pub(super) fn exact(
    table: &Table,
    by: &dyn Exact,
    position: &[u32],
) -> Result<(Value, Option<u64>)> {
    if let Some(why) = table.rules().outside(position) {
        return Ok((Value::Distance(DistanceValue::unsolvable(why)), None));
    }
    let i = table.rules().rank(position);
    let here = by.distance(table, position, i)?;
    let optimal = match table.choices_nearer(by, position, here)? {
        Some(choices) => choices,
        None => AnswerMove::all(table.rules(), table.nearer(by, position, here)?),
    };
    let value = Value::Distance(DistanceValue::at(here, optimal));
    Ok((value, Some(i)))
}

impl Table {
    /// The distance stored for an index of a distance table; a damaged table (an unreachable
    /// mark, or neighbours' distances that do not fit) is reported as such.
    fn stored_distance(&self, index: u64) -> Result<u32> {
        let v = self.raw(index);
        if v == UNREACHED as u32 {
            return Err(Error::corrupt(
                self.file.path(),
                format!("entry {index} is marked unreachable, but the rules say the goal can be reached"),
            ));
        }
        Ok(v)
    }

    /// For a puzzle against an adversary ([`Rules::choices`](crate::game::Rules::choices)):
    /// the choices of a position at distance `here` whose every answer is at most `here − 1`
    /// from the goal, each with its answers and, as what it leaves, the first answer at
    /// `here − 1` (the one the adversary gives); `None` for a puzzle without an adversary.
    fn choices_nearer(
        &self,
        by: &dyn Exact,
        position: &[u32],
        here: u32,
    ) -> Result<Option<Vec<AnswerMove>>> {
        let Some(within) = here.checked_sub(1) else {
            return Ok(self
                .rules
                .choices(position, &mut |_| false)
                .map(|_| Vec::new()));
        };
        let distance = |p: &[u32]| -> Option<u32> {
            if self.rules.outside(p).is_some() {
                return None;
            }
            let v = self.raw(self.rules.rank(p));
            (v != UNREACHED as u32).then(|| by.entry(v))
        };
        let keep = &mut |answers: &[Vec<u32>]| {
            answers
                .iter()
                .all(|a| distance(a).is_some_and(|d| d <= within))
        };
        let Some(choices) = self.rules.choices(position, keep) else {
            return Ok(None);
        };
        let mut optimal = Vec::with_capacity(choices.len());
        for c in choices {
            let Some(worst) = c
                .answers
                .iter()
                .find(|a| distance(&a.leaves) == Some(within))
            else {
                continue;
            };
            optimal.push(AnswerMove {
                label: c.label,
                leaves: self.rules.format(&worst.leaves),
                numbers: worst.leaves.clone(),
                answers: Some(AnswerMove::all(self.rules.as_ref(), c.answers)),
            });
        }
        if optimal.is_empty() {
            return Err(Error::corrupt(
                self.file.path(),
                format!(
                    "position {} is stored at distance {here} but no choice keeps every answer within {within}",
                    self.rules.format(position)
                ),
            ));
        }
        Ok(Some(optimal))
    }

    /// The moves of a position at distance `here` that lead one move nearer the goal.
    fn nearer(&self, by: &dyn Exact, position: &[u32], here: u32) -> Result<Vec<Move>> {
        // The entry a move one step nearer leaves: the distance, or its mod3 code.
        let want = here.checked_sub(1).map(|d| by.entry(d));
        let moves: Vec<Move> = self
            .rules
            .moves(position)
            .into_iter()
            .filter(|m| {
                self.rules.outside(&m.leaves).is_none()
                    && Some(self.raw(self.rules.rank(&m.leaves))) == want
            })
            .collect();
        if here > 0 && moves.is_empty() {
            return Err(Error::corrupt(
                self.file.path(),
                format!(
                    "position {} is stored at distance {here} but has no move to distance {}",
                    self.rules.format(position),
                    here - 1
                ),
            ));
        }
        Ok(moves)
    }

    /// The exact distance of a position of a distance table, `None` when the goal cannot be
    /// reached from it: what [`answer`](Table::answer) says of it without the optimal moves
    /// (a player valuing every move of a position asks this of each).
    pub fn distance_of(&self, position: &[u32]) -> Result<Option<u32>> {
        let by = match self.answerer.exact() {
            Some(by) => by,
            None if self.rules.distance_bound().is_none() => &Stored,
            None => {
                return Err(Error::bad(format!(
                    "{} holds {}, not exact distances",
                    self.file.path().display(),
                    self.describe()
                )))
            }
        };
        self.rules.check(position)?;
        if self.rules.outside(position).is_some() {
            return Ok(None);
        }
        by.distance(self, position, self.rules.rank(position))
            .map(Some)
    }

    /// A whole optimal solution of a position of a distance table: at each step the first
    /// move (in the rules' order) that leads one move nearer the goal.
    pub fn path(&self, position: &[u32]) -> Result<Vec<Move>> {
        let Some(by) = self.answerer.exact() else {
            return Err(Error::bad(format!(
                "{} holds {}, not exact distances: there is no path to show",
                self.file.path().display(),
                self.describe()
            )));
        };
        if let Some(why) = self.rules.outside(position) {
            return Err(Error::bad(why));
        }
        let mut here = by.distance(self, position, self.rules.rank(position))?;
        let mut pos = position.to_vec();
        let mut path = Vec::with_capacity(here as usize);
        while here > 0 {
            // Against an adversary the path follows its answers: the worst of the first choice.
            let step = match self.choices_nearer(by, &pos, here)? {
                Some(mut choices) => {
                    let c = choices.swap_remove(0);
                    Move {
                        label: c.label,
                        leaves: c.numbers,
                    }
                }
                None => self.nearer(by, &pos, here)?.swap_remove(0),
            };
            pos = step.leaves.clone();
            path.push(step);
            here -= 1;
        }
        Ok(path)
    }

    /// Counts the entries of a distance table at each distance and collects the first
    /// `list` indices at the largest distance.
    pub fn distance_census(&self, list: usize) -> DistanceCensus {
        let entries = self.entries();
        let mut counts = entries.histogram();
        if self.file.header().encoding == Encoding::Mod3 {
            // Codes: unreached, then 1 + distance mod 3. No distance itself is stored.
            counts.resize(4, 0);
            return DistanceCensus {
                counts: Vec::new(),
                unreached: counts[mod3::UNREACHED as usize],
                antipode_count: 0,
                antipodes: Vec::new(),
                residues: Some([0, 1, 2].map(|r| counts[mod3::code(r) as usize])),
            };
        }
        let unreached = counts.get(UNREACHED as usize).copied().unwrap_or(0);
        counts.truncate(UNREACHED as usize);
        while counts.last() == Some(&0) {
            counts.pop();
        }
        let (antipode_count, antipodes) = match counts.len().checked_sub(1) {
            Some(max) => (counts[max], entries.find(max as u32, list)),
            None => (0, Vec::new()),
        };
        DistanceCensus {
            counts,
            unreached,
            antipode_count,
            antipodes,
            residues: None,
        }
    }
}
