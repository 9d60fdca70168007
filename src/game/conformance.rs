//! Conformance checks: a game's own contracts, checked position by position on small
//! instances. Each game's [`GameSpec::conformance`](super::GameSpec::conformance) runs the checks
//! that fit the views it implements, and the test suite runs them on every registered game's
//! [`samples`](super::GameSpec::samples), so a new game is checked without a line of test code.
//!
//! Besides these checks of structure, [`values`] holds a solved table to the game's own
//! recurrence, computed from the rules' moves alone (never from the solver); the registry runs
//! it on every sample and every value kind (`Spec::check_values`), without a line per game.
//!
//! Each check returns the number of positions it looked at, or the first broken contract in
//! words (the position, what was expected, what was found).

use std::collections::BTreeSet;
use std::ops::ControlFlow;

pub use super::fast_paths::{changed_text, entry_index, text_entry_index};
use two_player::check_wlt;
pub use two_player::standing_of_children;

mod parents;
mod two_player;

use super::Rules;
use crate::format::entries::{standing, UNREACHED};
use crate::model::{Game, Outcome, Retro, Standing, ValueKind};
use crate::solve::{Mirror, Puzzle, Waves};
#[cfg(test)]
pub(crate) use parents::KeptMoves;

/// What a check returns: positions checked, or what is wrong.
pub type Checked = Result<u64, String>;

/// The children of every index of a game, as a sorted set each (for comparing views).
pub type Children = Vec<BTreeSet<u64>>;

fn children_of<G: Game>(g: &G, pos: u64) -> BTreeSet<u64> {
    let mut out = BTreeSet::new();
    let _ = g.children(pos, |c| {
        out.insert(c);
        ControlFlow::Continue(())
    });
    out
}

/// [`Game`]: the levels cover `0..positions()` in consecutive ranges; every child lies in a
/// lower level; a position is terminal exactly when it has no child; stopping early stops.
/// Returns the children of every position, for [`rules`].
pub fn game<G: Game>(g: &G) -> Result<Children, String> {
    let n = g.positions();
    let mut level_of = vec![u64::MAX; n as usize];
    let mut next = 0;
    for l in 0..g.level_count() {
        let range = g.level(l);
        if range.start != next || range.end < range.start || range.end > n {
            return Err(format!(
                "levels are not consecutive ranges covering 0..{n}: level {l} is {range:?}, expected to start at {next}"
            ));
        }
        for i in range.clone() {
            level_of[i as usize] = l;
        }
        next = range.end;
    }
    if next != n {
        return Err(format!("levels cover 0..{next}, not 0..{n}"));
    }
    let mut all = Vec::with_capacity(n as usize);
    for pos in 0..n {
        let kids = children_of(g, pos);
        if let Some(&c) = kids
            .iter()
            .find(|&&c| c >= n || level_of[c as usize] >= level_of[pos as usize])
        {
            return Err(format!(
                "position {pos} (level {}) has a move to {c}, which is not in a lower level",
                level_of[pos as usize]
            ));
        }
        if g.terminal(pos).is_some() != kids.is_empty() {
            return Err(format!(
                "position {pos}: terminal is {:?} but it has {} children",
                g.terminal(pos),
                kids.len()
            ));
        }
        if !kids.is_empty() {
            let mut calls = 0;
            let stopped = g.children(pos, |_| {
                calls += 1;
                ControlFlow::Break(())
            });
            if !stopped.is_break() || calls != 1 {
                return Err(format!(
                    "position {pos}: children() went on after the callback asked it to stop"
                ));
            }
        }
        all.push(kids);
    }
    Ok(all)
}

/// [`Retro`]: the parents of every position are exactly the positions that have it as a child.
pub fn retro<G: Retro>(g: &G, children: &Children) -> Checked {
    let n = g.positions();
    let mut parents: Children = vec![BTreeSet::new(); n as usize];
    for (p, kids) in children.iter().enumerate() {
        for &c in kids {
            parents[c as usize].insert(p as u64);
        }
    }
    for pos in 0..n {
        let mut got = BTreeSet::new();
        g.parents(pos, |p| {
            got.insert(p);
        });
        if got != parents[pos as usize] {
            return Err(format!(
                "position {pos}: parents() gives {got:?}, but the positions with a move to it are {:?}",
                parents[pos as usize]
            ));
        }
    }
    Ok(n)
}

/// [`Waves`]: every index is visited exactly once, within a piece in increasing order; every
/// child lies in an earlier wave; terminal exactly when there is no child; mirror images pair
/// up with their originals in the same wave. Returns the children of every position.
pub fn waves<W: Waves>(w: &W) -> Result<Children, String> {
    let n = w.positions() as usize;
    let mut wave_of = vec![usize::MAX; n];
    let mut children: Children = vec![BTreeSet::new(); n];
    let mut terminal = vec![false; n];
    let mut images = vec![usize::MAX; n];
    let mut originals = Vec::new();
    let mut problem = None;
    for wave in 0..w.waves() {
        for piece in w.pieces(wave) {
            let mut last = None;
            w.walk(&piece, |at| {
                let i = w.index(at);
                if problem.is_some() {
                    return;
                }
                if i as usize >= n || wave_of[i as usize] != usize::MAX {
                    problem = Some(format!("index {i} visited twice or out of range"));
                    return;
                }
                if last.is_some_and(|l| l >= i) {
                    problem = Some(format!("a walk of wave {wave} visits {i} after {last:?}"));
                    return;
                }
                last = Some(i);
                wave_of[i as usize] = wave;
                let _ = w.children(at, |c| {
                    children[i as usize].insert(c);
                    ControlFlow::Continue(())
                });
                terminal[i as usize] = w.terminal(at).is_some();
                match w.mirror(at) {
                    Mirror::Image => images[i as usize] = wave,
                    Mirror::Solve(Some(j)) => originals.push((i, j, wave)),
                    Mirror::Solve(None) => {}
                }
            });
        }
    }
    if let Some(p) = problem {
        return Err(p);
    }
    if let Some(i) = wave_of.iter().position(|&v| v == usize::MAX) {
        return Err(format!("index {i} is in no wave"));
    }
    for i in 0..n {
        if let Some(&c) = children[i]
            .iter()
            .find(|&&c| c as usize >= n || wave_of[c as usize] >= wave_of[i])
        {
            return Err(format!(
                "position {i} (wave {}) has a move to {c}, which is not in an earlier wave",
                wave_of[i]
            ));
        }
        if terminal[i] != children[i].is_empty() {
            return Err(format!(
                "position {i}: terminal is {} but it has {} children",
                terminal[i],
                children[i].len()
            ));
        }
    }
    for (i, j, wave) in originals {
        if j as usize >= n || images[j as usize] != wave {
            return Err(format!(
                "position {i} names {j} as its mirror image, which is not an image in its wave"
            ));
        }
        images[j as usize] = usize::MAX - 1;
    }
    if let Some(j) = images.iter().position(|&v| v < usize::MAX - 1) {
        return Err(format!(
            "position {j} is a mirror image without an original"
        ));
    }
    Ok(children)
}

/// [`Puzzle`]: moves are reversible (b is a neighbour of a exactly when a is one of b), and
/// [`Puzzle::expand`] gives the neighbours that [`Puzzle::neighbours`] does. Returns the
/// neighbours of every position.
pub fn puzzle<P: Puzzle>(p: &P) -> Result<Children, String> {
    let n = p.positions();
    let mut all: Children = Vec::with_capacity(n as usize);
    for pos in 0..n {
        let mut set = BTreeSet::new();
        p.neighbours(pos, |c| {
            set.insert(c);
        });
        all.push(set);
    }
    for (a, set) in all.iter().enumerate() {
        if let Some(&b) = set
            .iter()
            .find(|&&b| b >= n || !all[b as usize].contains(&(a as u64)))
        {
            return Err(format!(
                "position {a} has a move to {b}, which has no move back"
            ));
        }
    }
    // Expand in runs of consecutive positions, as the solvers do.
    let mut at = 0;
    let mut run = 1;
    while at < n {
        let end = (at + run).min(n);
        let mut from = Vec::new();
        p.expand(at..end, |c| from.push(c));
        let mut want = Vec::new();
        for pos in at..end {
            p.neighbours(pos, |c| want.push(c));
        }
        from.sort_unstable();
        want.sort_unstable();
        if from != want {
            return Err(format!(
                "expand({at}..{end}) does not give the neighbours of those positions"
            ));
        }
        at = end;
        run = run % 7 + 1;
    }
    for g in p.goals() {
        if g >= n {
            return Err(format!("goal {g} is not a position"));
        }
    }
    Ok(all)
}

/// [`Rules`] over a dense index of `positions` entries: `unrank` gives a checked position of
/// the table that `rank` maps back (a bijection); `format` and `parse` round-trip; the moves'
/// indices are [`Rules::move_indices`], which are `children` (the solver's view) when given;
/// [`Rules::moves_at`] picks from [`Rules::moves`].
pub fn rules(r: &dyn Rules, positions: u64, children: Option<&Children>) -> Checked {
    for i in 0..positions {
        let pos = r.unrank(i);
        let text = r.format(&pos);
        if let Err(e) = r.check(&pos) {
            return Err(format!(
                "index {i} unranks to {text}, which check() refuses: {e}"
            ));
        }
        if let Some(why) = r.outside(&pos) {
            return Err(format!(
                "index {i} unranks to {text}, outside the table: {why}"
            ));
        }
        if r.rank(&pos) != i {
            return Err(format!(
                "index {i} unranks to {text}, which ranks to {}",
                r.rank(&pos)
            ));
        }
        entry_index(r, &pos)?;
        let mut grown = pos.clone();
        grown.push(u32::MAX);
        entry_index(r, &grown)?;
        if let Some(last) = grown.len().checked_sub(2) {
            grown.truncate(last + 1);
            grown[last] = grown[last].wrapping_add(1);
            entry_index(r, &grown)?;
            grown.reverse();
            entry_index(r, &grown)?;
        }
        text_entry_index(r, &text)?;
        text_entry_index(r, &changed_text(&text, i as usize))?;
        match r.parse(&text) {
            Ok(back) if r.rank(&back) == i => {}
            Ok(back) => {
                return Err(format!("'{text}' parses to {back:?}, not index {i}"));
            }
            Err(e) => return Err(format!("'{text}' (index {i}) does not parse back: {e}")),
        }
        let moves = r.moves(&pos);
        if let Some(parts) = r.summands(&pos) {
            // A game played as a sum: a table position is one part, and each move leaves a
            // sum of parts, each itself one entry of the table.
            if parts != [pos.clone()] {
                return Err(format!(
                    "index {i} unranks to {text}, whose parts are {parts:?}, not itself alone"
                ));
            }
            sum_moves(r, positions, &text, &moves)?;
        } else {
            one_entry_moves(r, &text, i, &pos, &moves, children)?;
        }
        let which: Vec<usize> = (0..moves.len()).filter(|k| k % 3 != 1).collect();
        let picked: Vec<_> = which.iter().map(|&k| moves[k].clone()).collect();
        if r.moves_at(&pos, &which) != picked {
            return Err(format!("{text}: moves_at() does not pick from moves()"));
        }
    }
    Ok(positions)
}

/// The moves of a position of a game played as a sum ([`Rules::summands`]): each leaves a
/// position whose parts are each a position of exactly one entry, within the table.
fn sum_moves(
    r: &dyn Rules,
    positions: u64,
    text: &str,
    moves: &[super::Move],
) -> Result<(), String> {
    for m in moves {
        if r.check(&m.leaves).is_err() {
            return Err(format!(
                "{text}: the move '{}' leaves {:?}, not a position of the game",
                m.label, m.leaves
            ));
        }
        let Some(parts) = r.summands(&m.leaves) else {
            return Err(format!(
                "{text}: the move '{}' leaves {:?}, which summands() does not split into parts",
                m.label, m.leaves
            ));
        };
        if parts.concat() != m.leaves {
            return Err(format!(
                "{text}: the move '{}' leaves {:?}, whose parts {parts:?} are not it written \
                 part after part",
                m.label, m.leaves
            ));
        }
        for part in &parts {
            let single = r.summands(part).is_some_and(|p| p == [part.clone()]);
            if r.check(part).is_err() || r.outside(part).is_some() || !single {
                return Err(format!(
                    "{text}: the move '{}' leaves the part {part:?}, not one entry of the table",
                    m.label
                ));
            }
            let k = r.rank(part);
            if k >= positions || r.unrank(k) != *part {
                return Err(format!(
                    "{text}: the move '{}' leaves the part {part:?}, which ranks to {k}",
                    m.label
                ));
            }
        }
    }
    Ok(())
}

/// The moves of a position of a game whose positions are each one entry: each leaves a
/// position of the table; [`Rules::move_indices`] ranks them; they lead to the solver's
/// `children` when given.
fn one_entry_moves(
    r: &dyn Rules,
    text: &str,
    i: u64,
    pos: &[u32],
    moves: &[super::Move],
    children: Option<&Children>,
) -> Result<(), String> {
    {
        let mut ranked = Vec::with_capacity(moves.len());
        for m in moves {
            if r.check(&m.leaves).is_err() || r.outside(&m.leaves).is_some() {
                return Err(format!(
                    "{text}: the move '{}' leaves {:?}, not a position of the table",
                    m.label, m.leaves
                ));
            }
            ranked.push(r.rank(&m.leaves));
        }
        let mut indices = Vec::new();
        r.move_indices(pos, &mut indices);
        if indices != ranked {
            return Err(format!(
                "{text}: move_indices() gives {indices:?}, the moves rank to {ranked:?}"
            ));
        }
        if let Some(children) = children {
            let set: BTreeSet<u64> = ranked.iter().copied().collect();
            if set != children[i as usize] {
                return Err(format!(
                    "{text} (index {i}): the lookup's moves lead to {set:?}, the solver's children are {:?}",
                    children[i as usize]
                ));
            }
        }
    }
    Ok(())
}

/// The values of a solved table (`value(i)`: entry `i` as the table stores it, see
/// [`Solved::value`](super::Solved::value)) satisfy the game's own recurrence, computed from
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
    let in_table = |i: u64| -> Option<Vec<u32>> {
        let pos = r.unrank(i);
        (r.check(&pos).is_ok() && r.outside(&pos).is_none()).then_some(pos)
    };
    let name = |i: u64| match in_table(i) {
        Some(pos) => format!("{} (index {i})", r.format(&pos)),
        None => format!("index {i}"),
    };
    let outcome = |v: u32| if v == 0 { Outcome::P } else { Outcome::N };
    let bound = r.distance_bound().is_some();
    let check_one = |i: u64, pos: &[u32], kids: &mut Vec<u64>| -> Result<(), String> {
        let at = || format!("{} (index {i})", r.format(pos));
        kids.clear();
        // A game played as a sum: each move's value is the xor of its parts' entries (its
        // parts are the kids, for the culprit ordering below).
        let mut sums = None;
        if r.summands(pos).is_some() {
            if kind != ValueKind::Grundy {
                return Err(format!(
                    "{}: a game played as a sum of entries needs Grundy values, not {}",
                    at(),
                    kind.name()
                ));
            }
            let mut xors = Vec::new();
            for m in r.moves(pos) {
                let parts = r.summands(&m.leaves).unwrap_or_default();
                let first = kids.len();
                kids.extend(parts.iter().map(|p| r.rank(p)));
                if let Some(&c) = kids[first..].iter().find(|&&c| c >= positions) {
                    return Err(format!(
                        "{}: the move '{}' leads to index {c}, beyond the table",
                        at(),
                        m.label
                    ));
                }
                xors.push(kids[first..].iter().fold(0, |x, &c| x ^ value(c)));
            }
            sums = Some(xors);
        } else {
            r.move_indices(pos, kids);
        }
        if let Some(&c) = kids.iter().find(|&&c| c >= positions) {
            return Err(format!(
                "{}: a move leads to index {c}, beyond the table",
                at()
            ));
        }
        let v = value(i);
        match kind {
            ValueKind::Outcome => {
                if v > 1 {
                    return Err(format!(
                        "{}: outcome entry {v}, expected 0 (P) or 1 (N)",
                        at()
                    ));
                }
                let found = outcome(v);
                let (want, why) = if kids.is_empty() {
                    let t = r.terminal_outcome(pos);
                    (
                        t,
                        format!(
                            "it has no move and the rules make such a position {}",
                            t.as_str()
                        ),
                    )
                } else if let Some(&c) = kids.iter().find(|&&c| value(c) == 0) {
                    (
                        Outcome::N,
                        format!("its move to {} reaches a P-position", name(c)),
                    )
                } else {
                    (
                        Outcome::P,
                        format!("each of its {} moves reaches an N-position", kids.len()),
                    )
                };
                if found != want {
                    return Err(format!(
                        "{}: outcome {}, expected {} ({why})",
                        at(),
                        found.as_str(),
                        want.as_str()
                    ));
                }
            }
            ValueKind::Grundy => {
                let no_move = sums.as_ref().map_or(kids.is_empty(), Vec::is_empty);
                if no_move && r.terminal_outcome(pos) != Outcome::P {
                    return Err(format!(
                        "{}: a Grundy table of a game whose position without moves is {}, not P (Grundy values need normal play)",
                        at(),
                        r.terminal_outcome(pos).as_str()
                    ));
                }
                let seen: BTreeSet<u32> = match &sums {
                    Some(xors) => xors.iter().copied().collect(),
                    None => kids.iter().map(|&c| value(c)).collect(),
                };
                let mex = (0..).find(|g| !seen.contains(g)).expect("a finite set");
                if v != mex {
                    return Err(format!(
                        "{}: Grundy value {v}, expected {mex} (the mex of its moves' values {seen:?})",
                        at()
                    ));
                }
            }
            ValueKind::Distance if bound => {
                let goal = r.is_goal(pos);
                if goal != (v == 0) {
                    return Err(format!(
                        "{}: distance bound {v}, expected {} (it is {}a goal)",
                        at(),
                        if goal { "0" } else { "at least 1" },
                        if goal { "" } else { "not " }
                    ));
                }
            }
            ValueKind::Distance if r.choices(pos, &mut |_| false).is_some() => {
                // Against an adversary: 1 + the least, over the choices, of the largest answer.
                let choices = r.choices(pos, &mut |_| true).unwrap_or_default();
                let worst = |c: &super::Choice| {
                    c.answers
                        .iter()
                        .map(|a| value(r.rank(&a.leaves)))
                        .max()
                        .unwrap_or(UNREACHED as u32)
                };
                let best = choices.iter().map(worst).min();
                let (want, why) = match best {
                    _ if r.is_goal(pos) => (0, "it is a goal".to_string()),
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
                if v != want {
                    return Err(format!("{}: distance {v}, expected {want} ({why})", at()));
                }
            }
            ValueKind::Distance => {
                let least = kids
                    .iter()
                    .map(|&c| value(c))
                    .filter(|&w| w != UNREACHED as u32)
                    .min();
                let (want, why) = if r.is_goal(pos) {
                    (0, "it is a goal".to_string())
                } else {
                    match least {
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
                    }
                };
                if v != want {
                    return Err(format!("{}: distance {v}, expected {want} ({why})", at()));
                }
            }
            ValueKind::Remoteness | ValueKind::Dtz => {
                let Some(found) = standing::unpack(v) else {
                    return Err(format!(
                        "{}: entry {v} holds no value, but the rules accept the position",
                        at()
                    ));
                };
                let (want, why) = match r.terminal_standing(pos) {
                    Some(_) if !kids.is_empty() => {
                        return Err(format!("{}: the game is over, yet it has moves", at()))
                    }
                    Some(t) => ((t, 0), "the game is over".to_string()),
                    None if kids.is_empty() => {
                        return Err(format!("{}: the game goes on, yet it has no move", at()))
                    }
                    None => {
                        let mut seen = Vec::with_capacity(kids.len());
                        for &c in kids.iter() {
                            match standing::unpack(value(c)) {
                                Some((s, d))
                                    if kind == ValueKind::Dtz && r.resets_counter(i, c) =>
                                {
                                    seen.push((s, crate::model::after_reset(s, d)))
                                }
                                Some(x) => seen.push(x),
                                None => {
                                    return Err(format!(
                                        "{}: a move leads to {}, whose entry holds no value",
                                        at(),
                                        name(c)
                                    ))
                                }
                            }
                        }
                        match standing_of_children(&seen) {
                            // Under a counter a draw keeps no distance (see `settle_tier`).
                            ((Standing::Tie | Standing::Draw, _), why)
                                if kind == ValueKind::Dtz =>
                            {
                                (
                                    (Standing::Draw, 0),
                                    format!("{why}: a draw under a counter"),
                                )
                            }
                            found => found,
                        }
                    }
                };
                if found != want {
                    let said = |(s, r): (Standing, u32)| s.text((s != Standing::Draw).then_some(r));
                    return Err(format!(
                        "{}: {}, expected {} ({why})",
                        at(),
                        said(found),
                        said(want)
                    ));
                }
            }
            ValueKind::Wlt => {
                check_wlt(r, pos, v, kids, value).map_err(|what| format!("{}: {what}", at()))?
            }
            ValueKind::Extension => unreachable!("returned above"),
        }
        Ok(())
    };
    let mut checked = 0;
    let mut kids = Vec::new();
    let mut broken = Vec::new();
    for i in within {
        let Some(pos) = in_table(i) else {
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
        if let Err(what) = check_one(i, &pos, &mut kids) {
            broken.push((i, what, kids.clone()));
        }
    }
    // One wrong entry also breaks the recurrence of the positions that move to it: the
    // entries whose own moves all lead to sound positions (the likely culprits) come first.
    let bad: BTreeSet<u64> = broken.iter().map(|(i, _, _)| *i).collect();
    broken.sort_by_key(|(i, _, kids)| (kids.iter().any(|c| bad.contains(c)), *i));
    const SHOWN: usize = 12;
    match broken.len() {
        0 => Ok(checked),
        n => Err(format!(
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
        )),
    }
}

/// [`Tiered`](crate::model::Tiered) with its [`Rules`]: the tiers cut the index in order; an index
/// is [`legal`](crate::model::Tiered::legal) exactly when the rules accept the position it unranks
/// to, which ranks back to it and whose text parses back to it; its children are the ranks of the
/// rules' moves, in tiers no higher than its own (lower when no move stays in its tier), no more
/// than [`moves_bound`](crate::model::Tiered::moves_bound), legal; it is terminal in both views
/// alike, exactly when it has no move; the un-moves listed inside a tier are its moves read
/// backward; the start is the rules' start. Returns the number of legal positions.
pub fn tiered<G: crate::model::Tiered + Rules>(g: &G) -> Checked {
    let n = g.positions();
    let mut tier_of = Vec::with_capacity(n as usize);
    let mut at = 0;
    for t in 0..g.tier_count() {
        let r = g.tier(t);
        if r.start != at || r.end < r.start {
            return Err(format!(
                "tier {t} is {}..{}, expected it to start at {at}",
                r.start, r.end
            ));
        }
        tier_of.extend(std::iter::repeat_n(t, (r.end - r.start) as usize));
        at = r.end;
    }
    if at != n {
        return Err(format!("the tiers end at {at}, not at {n}"));
    }
    let mut legal = 0;
    for i in 0..n {
        let pos = g.unrank(i);
        let text = g.format(&pos);
        let accepted = g.check(&pos).is_ok();
        if accepted != g.legal(i) {
            return Err(format!(
                "index {i} ({text}): legal() says {}, the rules {}",
                g.legal(i),
                if accepted { "accept it" } else { "refuse it" }
            ));
        }
        if !accepted {
            continue;
        }
        legal += 1;
        if g.rank(&pos) != i {
            return Err(format!(
                "index {i} unranks to {text}, which ranks to {}",
                g.rank(&pos)
            ));
        }
        match g.parse(&text) {
            Ok(back) if back == pos => {}
            Ok(back) => return Err(format!("'{text}' parses to {back:?}, not {pos:?}")),
            Err(e) => return Err(format!("'{text}' (index {i}) does not parse back: {e}")),
        }
        let mut kids = Vec::new();
        g.children(i, |c| kids.push(c));
        let mut by_rules: Vec<u64> = g.moves(&pos).iter().map(|m| g.rank(&m.leaves)).collect();
        if g.symmetries() > 1 {
            // A game that folds gives each move's result as the child that represents its class.
            // The classes of the children are listed once (asking each child's images for each
            // move made the flying mill samples take minutes).
            let mut class_of = std::collections::HashMap::new();
            for &k in &kids {
                class_of.insert(k, k);
                g.images(k, |j| {
                    class_of.insert(j, k);
                });
            }
            for r in by_rules.iter_mut() {
                let kid = class_of.get(r).copied();
                *r = kid.ok_or(format!("{text}: the move to {r} is in no child's class"))?;
            }
        }
        if kids != by_rules {
            kids.sort_unstable();
            by_rules.sort_unstable();
            if kids != by_rules {
                return Err(format!(
                    "{text} (index {i}): the solver's children {kids:?} are not the rules' moves {by_rules:?}"
                ));
            }
        }
        if kids.len() as u64 > g.moves_bound() {
            return Err(format!(
                "{text}: {} moves, over the bound {}",
                kids.len(),
                g.moves_bound()
            ));
        }
        for &c in &kids {
            if c >= n || !g.legal(c) {
                return Err(format!(
                    "{text}: a move leads to index {c}, which is no position"
                ));
            }
            let (tc, ti) = (tier_of[c as usize], tier_of[i as usize]);
            if tc > ti || (tc == ti && !g.in_tier_moves()) {
                return Err(format!(
                    "{text} (tier {ti}): a move leads to {} in tier {tc}",
                    g.format(&g.unrank(c))
                ));
            }
        }
        if g.terminal(i) != g.terminal_standing(&pos) {
            return Err(format!(
                "{text}: the solver's view says terminal {:?}, the rules {:?}",
                g.terminal(i),
                g.terminal_standing(&pos)
            ));
        }
        if g.terminal(i).is_some() != kids.is_empty() {
            return Err(format!(
                "{text}: {} moves, and the game is {}over",
                kids.len(),
                if g.terminal(i).is_some() { "" } else { "not " }
            ));
        }
    }
    parents::tier_parents(g)?;
    match (g.start_index(), g.start()) {
        (None, None) => {}
        (Some(i), Some(pos)) if g.check(&pos).is_ok() && g.rank(&pos) == i => {}
        (a, b) => {
            return Err(format!(
                "the start is index {a:?} to the solver, {b:?} to the rules"
            ))
        }
    }
    Ok(legal)
}
