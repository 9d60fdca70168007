//! The values of a solved table against the game's own recurrence ([`values`]), computed from
//! the rules' moves alone, one kind of value at a time ([`Recurrence`]).

use std::collections::BTreeSet;

use super::two_player::{check_wlt, standing_of_children};
use super::{Broken, Checked, Contract};
use crate::format::entries::{standing, UNREACHED};
use crate::game::{Choice, Rules};
use crate::model::{Outcome, Standing, ValueKind};

/// The values of a solved table (`value(i)`: entry `i` as the table stores it, see
/// [`Solved::value`](crate::format::Solved::value)) satisfy the game's own recurrence, computed from
/// the moves of the rules `r` (the lookup's view: [`Rules::unrank`], [`Rules::move_indices`])
/// and never from the solver. For every index of `0..positions` that unranks to a position of
/// the table (an index that [`Rules::check`] refuses, such as the candy game's unreachable last
/// state, names no position and holds no value anyone reads):
///
/// * [`ValueKind::Outcome`] (0 = P, 1 = N): a position without moves has the outcome
///   [`Rules::terminal_outcome`] states (normal play P, misère N, ...); any other position is
///   P exactly when none of its moves reaches a P-position;
/// * [`ValueKind::Grundy`]: the value is the mex of its moves' values (0 for a position
///   without moves, which must then be P: Grundy values are for normal play); for a game
///   played as a sum ([`Rules::summands`]) a move's value is the xor of the entries of the
///   parts it leaves (such a game has no other kind of value);
/// * [`ValueKind::Distance`], exact ([`Rules::distance_bound`] is `None`): a goal
///   ([`Rules::is_goal`]) has distance 0; any other position has 1 + the least distance of its
///   neighbours, or [`UNREACHED`] when no neighbour reaches the goal (nor does it);
///   For a puzzle against an adversary ([`Rules::choices`]) a non-goal has 1 + the least, over
///   its choices, of the largest distance among the choice's answers;
/// * [`ValueKind::Distance`] as a lower bound ([`Rules::distance_bound`] is `Some`: a pattern
///   database): 0 exactly at the goals. No recurrence over the rules' moves holds: an entry
///   belongs to a placement of the pattern tiles, not to a whole arrangement, and counts only
///   the pattern tiles' moves from wherever the blank may stand (on small boards the parity
///   of the few other tiles makes neighbouring placements differ by more than one, or one be
///   unreachable and the other not). `pdb_values_equal_brute_force_on_small_boards` in
///   `tests/fifteen.rs` checks those values against a breadth-first search of whole
///   arrangements;
/// * [`ValueKind::Extension`]: exempt (returns 0 positions). An entry is not the value of one
///   position but, per prefix, which value of an unbounded number makes a position P; three-
///   rowed Chomp's own conformance (`games::chomp3`) checks every position of its samples, and
///   every winning move, against a brute-force solution of the game computed from its moves.
/// * [`ValueKind::Remoteness`]: a position where the game is over has the value the rules
///   give it ([`Rules::terminal_standing`]) and remoteness 0; any other its children's value
///   and remoteness (`standing_of_children`); an index that is no position holds 0;
/// * [`ValueKind::Dtz`]: the same, a child across a move that resets the counter seen by its
///   class alone ([`crate::model::after_reset`]), and a position neither won nor lost where the
///   game goes on a draw at 0 (the distance to a tie is not kept);
/// * [`ValueKind::Wlt`]: the same without remoteness (win exactly when a move leaves a lose,
///   lose exactly when every move leaves a win, tie or draw otherwise), a weaker check: with
///   cycles, a table can be wrong and still pass it.
///
/// Distances kept modulo 3 ([`mod3`](crate::format::entries::mod3)) are written by `gamedb
/// enumerate`'s breadth-first engine, never returned by `Spec::solve`, so they do not pass through
/// here: `engine_agrees_with_byte_tables_position_by_position` in `tests/enumerate.rs` holds them
/// to the byte tables, which this check covers.
///
/// Returns the number of positions checked, or every position that breaks the recurrence (a
/// dozen shown, those whose moves all lead to sound positions first), each with what was
/// expected and what was found.
pub fn values(
    r: &dyn Rules,
    positions: u64,
    kind: ValueKind,
    value: &dyn Fn(u64) -> u32,
) -> Checked {
    values_in(r, positions, 0..positions, kind, value)
}

/// [`values`] of the indices `within` alone (of a table of `positions`): a large table checked
/// a piece at a time, the pieces on threads of their own.
pub fn values_in(
    r: &dyn Rules,
    positions: u64,
    within: std::ops::Range<u64>,
    kind: ValueKind,
    value: &dyn Fn(u64) -> u32,
) -> Checked {
    if kind == ValueKind::Extension {
        return Ok(0);
    }
    let check = Recurrence {
        r,
        positions,
        kind,
        value,
    };
    let mut checked = 0;
    let mut kids = Vec::new();
    let mut broken = Vec::new();
    for i in within {
        let Some(pos) = check.in_table(i) else {
            if kind.is_two_player() && value(i) != u32::from(standing::ILLEGAL) {
                broken.push((
                    i,
                    format!(
                        "index {i}: entry {}, but the rules accept no position there (expected 0)",
                        value(i)
                    ),
                    Vec::new(),
                ));
            }
            continue;
        };
        checked += 1;
        if let Err(b) = check.one(i, &pos, &mut kids) {
            broken.push((i, b.what, kids.clone()));
        }
    }
    report(checked, broken)
}

/// The positions that break the recurrence, each with what was wrong and its moves' indices:
/// one wrong entry also breaks the recurrence of the positions that move to it, so the entries
/// whose own moves all lead to sound positions (the likely culprits) come first, a dozen shown.
fn report(checked: u64, mut broken: Vec<(u64, String, Vec<u64>)>) -> Checked {
    let bad: BTreeSet<u64> = broken.iter().map(|(i, _, _)| *i).collect();
    broken.sort_by_key(|(i, _, kids)| (kids.iter().any(|c| bad.contains(c)), *i));
    const SHOWN: usize = 12;
    match broken.len() {
        0 => Ok(checked),
        n => Err(Broken::new(
            Contract::Values,
            format!(
                "{n} of {checked} positions break the recurrence{}:\n{}",
                if n > SHOWN {
                    format!(" (the first {SHOWN} shown)")
                } else {
                    String::new()
                },
                broken[..n.min(SHOWN)]
                    .iter()
                    .map(|(_, what, _)| what.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        )),
    }
}

/// The recurrence of one kind of value over the rules `r` of a table of `positions` entries,
/// `value(i)` reading entry `i`.
struct Recurrence<'a> {
    r: &'a dyn Rules,
    positions: u64,
    kind: ValueKind,
    value: &'a dyn Fn(u64) -> u32,
}

/// What breaks the recurrence at a position.
fn wrong(what: String) -> Broken {
    Broken::new(Contract::Values, what)
}

impl Recurrence<'_> {
    /// The position at index `i`, when the rules name one there that the table holds.
    fn in_table(&self, i: u64) -> Option<Vec<u32>> {
        let pos = self.r.unrank(i);
        (self.r.check(&pos).is_ok() && self.r.outside(&pos).is_none()).then_some(pos)
    }

    /// Index `i` as messages name it: its position, or the index alone.
    fn name(&self, i: u64) -> String {
        match self.in_table(i) {
            Some(pos) => format!("{} (index {i})", self.r.format(&pos)),
            None => format!("index {i}"),
        }
    }

    /// Entry `i` against the recurrence, its position `pos`; `kids` receives the indices its
    /// moves lead to (for a sum, the parts of each move).
    fn one(&self, i: u64, pos: &[u32], kids: &mut Vec<u64>) -> Result<(), Broken> {
        let at = format!("{} (index {i})", self.r.format(pos));
        let sums = self.children(pos, &at, kids)?;
        let v = (self.value)(i);
        let bound = self.r.distance_bound().is_some();
        let found = match self.kind {
            ValueKind::Outcome => self.outcome(pos, v, kids),
            ValueKind::Grundy => self.grundy(pos, v, kids, sums.as_deref()),
            ValueKind::Distance if bound => distance_bound(self.r.is_goal(pos), v),
            ValueKind::Distance if self.r.choices(pos, &mut |_| false).is_some() => {
                self.against(pos, v)
            }
            ValueKind::Distance => self.distance(pos, v, kids),
            ValueKind::Remoteness | ValueKind::Dtz => self.standing(i, pos, v, kids),
            ValueKind::Wlt => check_wlt(self.r, pos, v, kids, self.value),
            ValueKind::Extension => unreachable!("exempt: checked by the game's engine"),
        };
        found.map_err(|b| Broken::new(b.contract, format!("{at}: {b}")))
    }

    /// The indices the moves of `pos` lead to, into `kids`, checked to lie in the table; for a
    /// game played as a sum, each move's value (the xor of its parts' entries) too.
    fn children(
        &self,
        pos: &[u32],
        at: &str,
        kids: &mut Vec<u64>,
    ) -> Result<Option<Vec<u32>>, Broken> {
        let r = self.r;
        kids.clear();
        let mut sums = None;
        if r.summands(pos).is_some() {
            if self.kind != ValueKind::Grundy {
                return Err(wrong(format!(
                    "{at}: a game played as a sum of entries needs Grundy values, not {}",
                    self.kind.name()
                )));
            }
            let mut xors = Vec::new();
            for m in r.moves(pos) {
                let parts = r.summands(&m.leaves).unwrap_or_default();
                let first = kids.len();
                kids.extend(parts.iter().map(|p| r.rank(p)));
                if let Some(&c) = kids[first..].iter().find(|&&c| c >= self.positions) {
                    return Err(wrong(format!(
                        "{at}: the move '{}' leads to index {c}, beyond the table",
                        m.label
                    )));
                }
                xors.push(kids[first..].iter().fold(0, |x, &c| x ^ (self.value)(c)));
            }
            sums = Some(xors);
        } else {
            r.move_indices(pos, kids);
        }
        if let Some(&c) = kids.iter().find(|&&c| c >= self.positions) {
            return Err(wrong(format!(
                "{at}: a move leads to index {c}, beyond the table"
            )));
        }
        Ok(sums)
    }

    /// P/N: a position without moves as the rules make it, else N exactly when a move reaches
    /// a P-position.
    fn outcome(&self, pos: &[u32], v: u32, kids: &[u64]) -> Result<(), Broken> {
        if v > 1 {
            return Err(wrong(format!("outcome entry {v}, expected 0 (P) or 1 (N)")));
        }
        let outcome = |v: u32| if v == 0 { Outcome::P } else { Outcome::N };
        let found = outcome(v);
        let (want, why) = if kids.is_empty() {
            let t = self.r.terminal_outcome(pos);
            let why = format!(
                "it has no move and the rules make such a position {}",
                t.as_str()
            );
            (t, why)
        } else if let Some(&c) = kids.iter().find(|&&c| (self.value)(c) == 0) {
            let why = format!("its move to {} reaches a P-position", self.name(c));
            (Outcome::N, why)
        } else {
            let why = format!("each of its {} moves reaches an N-position", kids.len());
            (Outcome::P, why)
        };
        if found != want {
            return Err(wrong(format!(
                "outcome {}, expected {} ({why})",
                found.as_str(),
                want.as_str()
            )));
        }
        Ok(())
    }

    /// Grundy values: the mex of the moves' values (of a sum's moves, `sums`), in normal play.
    fn grundy(
        &self,
        pos: &[u32],
        v: u32,
        kids: &[u64],
        sums: Option<&[u32]>,
    ) -> Result<(), Broken> {
        let no_move = sums.map_or(kids.is_empty(), <[u32]>::is_empty);
        if no_move && self.r.terminal_outcome(pos) != Outcome::P {
            return Err(wrong(format!(
                "a Grundy table of a game whose position without moves is {}, not P (Grundy \
                 values need normal play)",
                self.r.terminal_outcome(pos).as_str()
            )));
        }
        let seen: BTreeSet<u32> = match sums {
            Some(xors) => xors.iter().copied().collect(),
            None => kids.iter().map(|&c| (self.value)(c)).collect(),
        };
        let mex = (0..).find(|g| !seen.contains(g)).expect("a finite set");
        if v != mex {
            return Err(wrong(format!(
                "Grundy value {v}, expected {mex} (the mex of its moves' values {seen:?})"
            )));
        }
        Ok(())
    }

    /// Against an adversary: 1 + the least, over the choices, of the largest answer.
    fn against(&self, pos: &[u32], v: u32) -> Result<(), Broken> {
        let choices = self.r.choices(pos, &mut |_| true).unwrap_or_default();
        let worst = |c: &Choice| {
            let answers = c
                .answers
                .iter()
                .map(|a| (self.value)(self.r.rank(&a.leaves)));
            answers.max().unwrap_or(UNREACHED as u32)
        };
        let best = choices.iter().map(worst).min();
        let (want, why) = match best {
            _ if self.r.is_goal(pos) => (0, "it is a goal".to_string()),
            Some(d) if d < UNREACHED as u32 => (
                (d + 1).min(UNREACHED as u32),
                format!("1 + {d}, the worst answer of its best choice"),
            ),
            _ => (
                UNREACHED as u32,
                format!(
                    "unreached: each of its {} choices has an answer that never finishes",
                    choices.len()
                ),
            ),
        };
        same_distance(v, want, why)
    }

    /// Exact distances: 0 at a goal, else 1 + the nearest neighbour's, or unreached.
    fn distance(&self, pos: &[u32], v: u32, kids: &[u64]) -> Result<(), Broken> {
        let reached = kids.iter().map(|&c| (self.value)(c));
        let least = reached.filter(|&w| w != UNREACHED as u32).min();
        let (want, why) = match least {
            _ if self.r.is_goal(pos) => (0, "it is a goal".to_string()),
            Some(d) => (
                (d + 1).min(UNREACHED as u32),
                format!("1 + {d}, its nearest neighbour's"),
            ),
            None => (
                UNREACHED as u32,
                format!(
                    "unreached: none of its {} neighbours reaches the goal",
                    kids.len()
                ),
            ),
        };
        same_distance(v, want, why)
    }

    /// Win, lose, tie or draw with the remoteness (or the distance to a counter's reset): the
    /// rules' value where the game is over, else its children's.
    fn standing(&self, i: u64, pos: &[u32], v: u32, kids: &[u64]) -> Result<(), Broken> {
        let Some(found) = standing::unpack(v) else {
            return Err(wrong(format!(
                "entry {v} holds no value, but the rules accept the position"
            )));
        };
        let (want, why) = match self.r.terminal_standing(pos) {
            Some(_) if !kids.is_empty() => {
                return Err(wrong("the game is over, yet it has moves".into()))
            }
            Some(t) => ((t, 0), "the game is over".to_string()),
            None if kids.is_empty() => {
                return Err(wrong("the game goes on, yet it has no move".into()))
            }
            None => self.standing_of(i, kids)?,
        };
        if found != want {
            let said = |(s, r): (Standing, u32)| s.text((s != Standing::Draw).then_some(r));
            return Err(wrong(format!(
                "{}, expected {} ({why})",
                said(found),
                said(want)
            )));
        }
        Ok(())
    }

    /// The value and remoteness the children of `i` give it, each child across a move that
    /// resets a counter seen by its class alone; under a counter a draw keeps no distance (see
    /// `settle_tier`).
    fn standing_of(&self, i: u64, kids: &[u64]) -> Result<((Standing, u32), String), Broken> {
        let dtz = self.kind == ValueKind::Dtz;
        let mut seen = Vec::with_capacity(kids.len());
        for &c in kids {
            match standing::unpack((self.value)(c)) {
                Some((s, d)) if dtz && self.r.resets_counter(i, c) => {
                    seen.push((s, crate::model::after_reset(s, d)))
                }
                Some(x) => seen.push(x),
                None => {
                    return Err(wrong(format!(
                        "a move leads to {}, whose entry holds no value",
                        self.name(c)
                    )))
                }
            }
        }
        Ok(match standing_of_children(&seen) {
            ((Standing::Tie | Standing::Draw, _), why) if dtz => (
                (Standing::Draw, 0),
                format!("{why}: a draw under a counter"),
            ),
            found => found,
        })
    }
}

/// A distance bound (a pattern database): 0 exactly at the goals.
fn distance_bound(goal: bool, v: u32) -> Result<(), Broken> {
    if goal != (v == 0) {
        return Err(wrong(format!(
            "distance bound {v}, expected {} (it is {}a goal)",
            if goal { "0" } else { "at least 1" },
            if goal { "" } else { "not " }
        )));
    }
    Ok(())
}

/// The distance found, `v`, against the one wanted, with why it is wanted.
fn same_distance(v: u32, want: u32, why: String) -> Result<(), Broken> {
    if v != want {
        return Err(wrong(format!("distance {v}, expected {want} ({why})")));
    }
    Ok(())
}
