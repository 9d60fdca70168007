//! Conformance checks: a game's own contracts, checked position by position on small
//! instances. A game's [`View::conformance`](super::View::conformance) runs the checks that fit
//! the engine it is solved by (an engine of the game's own gives them its children,
//! [`Engine::children`](super::Engine::children)), and the test suite runs them on every
//! registered game's [`samples`](super::GameSpec::samples), so a new game is checked without a
//! line of test code.
//!
//! Besides these checks of structure, [`values`] holds a solved table to the game's own
//! recurrence, computed from the rules' moves alone (never from the solver); the registry runs
//! it on every sample and every value kind (`Spec::check_values`), without a line per game.
//!
//! Each check returns the number of positions it looked at, or the first broken contract
//! ([`Broken`]: which contract, and in words the position, what was expected, what was found).

use std::collections::BTreeSet;
use std::ops::ControlFlow;

pub use super::fast_paths::{changed_text, entry_index, text_entry_index};
pub use two_player::standing_of_children;
pub use values::{values, values_in};

mod broken;
mod parents;
mod two_player;
mod values;

use super::Rules;

use crate::model::{Game, Retro};
use crate::solve::{Adversary, Mirror, Puzzle, Waves};
#[cfg(test)]
pub(crate) use parents::KeptMoves;

pub use broken::{Broken, Checked, Contract};

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
pub fn game<G: Game>(g: &G) -> Result<Children, Broken> {
    let n = g.positions();
    let mut level_of = vec![u64::MAX; n as usize];
    let mut next = 0;
    for l in 0..g.level_count() {
        let range = g.level(l);
        if range.start != next || range.end < range.start || range.end > n {
            return Err(Broken::new(Contract::Game, format!(
                "levels are not consecutive ranges covering 0..{n}: level {l} is {range:?}, expected to start at {next}"
            )));
        }
        for i in range.clone() {
            level_of[i as usize] = l;
        }
        next = range.end;
    }
    if next != n {
        return Err(Broken::new(
            Contract::Game,
            format!("levels cover 0..{next}, not 0..{n}"),
        ));
    }
    let mut all = Vec::with_capacity(n as usize);
    for pos in 0..n {
        let kids = children_of(g, pos);
        if let Some(&c) = kids
            .iter()
            .find(|&&c| c >= n || level_of[c as usize] >= level_of[pos as usize])
        {
            return Err(Broken::new(
                Contract::Game,
                format!(
                    "position {pos} (level {}) has a move to {c}, which is not in a lower level",
                    level_of[pos as usize]
                ),
            ));
        }
        if g.terminal(pos).is_some() != kids.is_empty() {
            return Err(Broken::new(
                Contract::Game,
                format!(
                    "position {pos}: terminal is {:?} but it has {} children",
                    g.terminal(pos),
                    kids.len()
                ),
            ));
        }
        if !kids.is_empty() {
            let mut calls = 0;
            let stopped = g.children(pos, |_| {
                calls += 1;
                ControlFlow::Break(())
            });
            if !stopped.is_break() || calls != 1 {
                return Err(Broken::new(
                    Contract::Game,
                    format!(
                        "position {pos}: children() went on after the callback asked it to stop"
                    ),
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
            return Err(Broken::new(Contract::Retro, format!(
                "position {pos}: parents() gives {got:?}, but the positions with a move to it are {:?}",
                parents[pos as usize]
            )));
        }
    }
    Ok(n)
}

/// [`Waves`]: every index is visited exactly once, within a piece in increasing order; every
/// child lies in an earlier wave; terminal exactly when there is no child; mirror images pair
/// up with their originals in the same wave. Returns the children of every position.
pub fn waves<W: Waves>(w: &W) -> Result<Children, Broken> {
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
        return Err(Broken::new(Contract::Waves, p));
    }
    if let Some(i) = wave_of.iter().position(|&v| v == usize::MAX) {
        return Err(Broken::new(
            Contract::Waves,
            format!("index {i} is in no wave"),
        ));
    }
    for i in 0..n {
        if let Some(&c) = children[i]
            .iter()
            .find(|&&c| c as usize >= n || wave_of[c as usize] >= wave_of[i])
        {
            return Err(Broken::new(
                Contract::Waves,
                format!(
                    "position {i} (wave {}) has a move to {c}, which is not in an earlier wave",
                    wave_of[i]
                ),
            ));
        }
        if terminal[i] != children[i].is_empty() {
            return Err(Broken::new(
                Contract::Waves,
                format!(
                    "position {i}: terminal is {} but it has {} children",
                    terminal[i],
                    children[i].len()
                ),
            ));
        }
    }
    for (i, j, wave) in originals {
        if j as usize >= n || images[j as usize] != wave {
            return Err(Broken::new(
                Contract::Waves,
                format!(
                    "position {i} names {j} as its mirror image, which is not an image in its wave"
                ),
            ));
        }
        images[j as usize] = usize::MAX - 1;
    }
    if let Some(j) = images.iter().position(|&v| v < usize::MAX - 1) {
        return Err(Broken::new(
            Contract::Waves,
            format!("position {j} is a mirror image without an original"),
        ));
    }
    Ok(children)
}

/// [`Adversary`]: the levels cover the index once, and every answer of every choice lies in
/// an earlier level (the minimax solves level by level). Returns the answers of every position
/// (of all its choices together), for [`rules`]: the moves of a puzzle against an adversary are
/// every answer of every choice.
pub fn adversary<A: Adversary>(a: &A) -> Result<Children, Broken> {
    let n = a.positions();
    let broken = |what: String| Broken::new(Contract::Adversary, what);
    let mut level_of = vec![u64::MAX; n as usize];
    for (l, range) in a.levels().into_iter().enumerate() {
        for i in range {
            match level_of.get_mut(i as usize) {
                Some(slot) if *slot == u64::MAX => *slot = l as u64,
                Some(_) => return Err(broken(format!("index {i} is in two levels"))),
                None => return Err(broken(format!("a level holds index {i}, past {n}"))),
            }
        }
    }
    if let Some(i) = level_of.iter().position(|&l| l == u64::MAX) {
        return Err(broken(format!("index {i} is in no level")));
    }
    let mut children = Vec::with_capacity(n as usize);
    for i in 0..n {
        let mut set = BTreeSet::new();
        a.choices(i, u32::MAX, &mut |answers| {
            set.extend(answers.iter().copied());
            ControlFlow::Continue(())
        });
        let level = level_of[i as usize];
        if let Some(&c) = set
            .iter()
            .find(|&&c| level_of.get(c as usize) >= Some(&level))
        {
            return Err(broken(format!(
                "index {i} has an answer {c} in a level not earlier"
            )));
        }
        children.push(set);
    }
    Ok(children)
}

/// [`Puzzle`]: moves are reversible (b is a neighbour of a exactly when a is one of b), and
/// [`Puzzle::expand`] gives the neighbours that [`Puzzle::neighbours`] does. Returns the
/// neighbours of every position.
pub fn puzzle<P: Puzzle>(p: &P) -> Result<Children, Broken> {
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
            return Err(Broken::new(
                Contract::Puzzle,
                format!("position {a} has a move to {b}, which has no move back"),
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
            return Err(Broken::new(
                Contract::Puzzle,
                format!("expand({at}..{end}) does not give the neighbours of those positions"),
            ));
        }
        at = end;
        run = run % 7 + 1;
    }
    for g in p.goals() {
        if g >= n {
            return Err(Broken::new(
                Contract::Puzzle,
                format!("goal {g} is not a position"),
            ));
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
            return Err(Broken::new(
                Contract::Rules,
                format!("index {i} unranks to {text}, which check() refuses: {e}"),
            ));
        }
        if let Some(why) = r.outside(&pos) {
            return Err(Broken::new(
                Contract::Rules,
                format!("index {i} unranks to {text}, outside the table: {why}"),
            ));
        }
        if r.rank(&pos) != i {
            return Err(Broken::new(
                Contract::Rules,
                format!(
                    "index {i} unranks to {text}, which ranks to {}",
                    r.rank(&pos)
                ),
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
                return Err(Broken::new(
                    Contract::Rules,
                    format!("'{text}' parses to {back:?}, not index {i}"),
                ));
            }
            Err(e) => {
                return Err(Broken::new(
                    Contract::Rules,
                    format!("'{text}' (index {i}) does not parse back: {e}"),
                ))
            }
        }
        let moves = r.moves(&pos);
        if let Some(parts) = r.summands(&pos) {
            // A game played as a sum: a table position is one part, and each move leaves a
            // sum of parts, each itself one entry of the table.
            if parts != [pos.clone()] {
                return Err(Broken::new(
                    Contract::Rules,
                    format!(
                        "index {i} unranks to {text}, whose parts are {parts:?}, not itself alone"
                    ),
                ));
            }
            sum_moves(r, positions, &text, &moves)?;
        } else {
            one_entry_moves(r, &text, i, &pos, &moves, children)?;
        }
        let which: Vec<usize> = (0..moves.len()).filter(|k| k % 3 != 1).collect();
        let picked: Vec<_> = which.iter().map(|&k| moves[k].clone()).collect();
        if r.moves_at(&pos, &which) != picked {
            return Err(Broken::new(
                Contract::Rules,
                format!("{text}: moves_at() does not pick from moves()"),
            ));
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
) -> Result<(), Broken> {
    for m in moves {
        if r.check(&m.leaves).is_err() {
            return Err(Broken::new(
                Contract::Rules,
                format!(
                    "{text}: the move '{}' leaves {:?}, not a position of the game",
                    m.label, m.leaves
                ),
            ));
        }
        let Some(parts) = r.summands(&m.leaves) else {
            return Err(Broken::new(
                Contract::Rules,
                format!(
                    "{text}: the move '{}' leaves {:?}, which summands() does not split into parts",
                    m.label, m.leaves
                ),
            ));
        };
        if parts.concat() != m.leaves {
            return Err(Broken::new(
                Contract::Rules,
                format!(
                    "{text}: the move '{}' leaves {:?}, whose parts {parts:?} are not it written \
                 part after part",
                    m.label, m.leaves
                ),
            ));
        }
        for part in &parts {
            let single = r.summands(part).is_some_and(|p| p == [part.clone()]);
            if r.check(part).is_err() || r.outside(part).is_some() || !single {
                return Err(Broken::new(
                    Contract::Rules,
                    format!(
                    "{text}: the move '{}' leaves the part {part:?}, not one entry of the table",
                    m.label
                ),
                ));
            }
            let k = r.rank(part);
            if k >= positions || r.unrank(k) != *part {
                return Err(Broken::new(
                    Contract::Rules,
                    format!(
                        "{text}: the move '{}' leaves the part {part:?}, which ranks to {k}",
                        m.label
                    ),
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
) -> Result<(), Broken> {
    {
        let mut ranked = Vec::with_capacity(moves.len());
        for m in moves {
            if r.check(&m.leaves).is_err() || r.outside(&m.leaves).is_some() {
                return Err(Broken::new(
                    Contract::Rules,
                    format!(
                        "{text}: the move '{}' leaves {:?}, not a position of the table",
                        m.label, m.leaves
                    ),
                ));
            }
            ranked.push(r.rank(&m.leaves));
        }
        let mut indices = Vec::new();
        r.move_indices(pos, &mut indices);
        if indices != ranked {
            return Err(Broken::new(
                Contract::Rules,
                format!("{text}: move_indices() gives {indices:?}, the moves rank to {ranked:?}"),
            ));
        }
        if let Some(children) = children {
            let set: BTreeSet<u64> = ranked.iter().copied().collect();
            if set != children[i as usize] {
                return Err(Broken::new(Contract::Rules, format!(
                    "{text} (index {i}): the lookup's moves lead to {set:?}, the solver's children are {:?}",
                    children[i as usize]
                )));
            }
        }
    }
    Ok(())
}
/// [`Tiered`](crate::model::Tiered) with its [`Rules`]: the tiers cut the index in order; an index
/// is [`legal`](crate::model::Tiered::legal) exactly when the rules accept the position it unranks
/// to, which ranks back to it and whose text parses back to it; its children are the ranks of the
/// rules' moves, in tiers no higher than its own (lower when no move stays in its tier), no more
/// than [`moves_bound`](crate::model::Tiered::moves_bound), legal; it is terminal in both views
/// alike, exactly when it has no move; the un-moves listed inside a tier are its moves read
/// backward; the start is the rules' start. Returns the number of legal positions.
pub fn tiered<G: crate::model::Tiered + Rules>(g: &G) -> Checked {
    let tier_of = tiers_in_order(g)?;
    let mut legal = 0;
    for i in 0..g.positions() {
        let pos = g.unrank(i);
        let accepted = g.check(&pos).is_ok();
        if accepted != g.legal(i) {
            return Err(not_tiered(format!(
                "index {i} ({}): legal() says {}, the rules {}",
                g.format(&pos),
                g.legal(i),
                if accepted { "accept it" } else { "refuse it" }
            )));
        }
        if accepted {
            legal += 1;
            tiered_position(g, i, &pos, &tier_of)?;
        }
    }
    parents::tier_parents(g)?;
    match (g.start_index(), g.start()) {
        (None, None) => Ok(legal),
        (Some(i), Some(pos)) if g.check(&pos).is_ok() && g.rank(&pos) == i => Ok(legal),
        (a, b) => Err(not_tiered(format!(
            "the start is index {a:?} to the solver, {b:?} to the rules"
        ))),
    }
}

/// The [`Contract::Tiered`] broken as `what` says.
fn not_tiered(what: String) -> Broken {
    Broken::new(Contract::Tiered, what)
}

/// The tier of every index: the tiers cut the index in order.
fn tiers_in_order<G: crate::model::Tiered>(g: &G) -> Result<Vec<u64>, Broken> {
    let n = g.positions();
    let mut tier_of = Vec::with_capacity(n as usize);
    let mut at = 0;
    for t in 0..g.tier_count() {
        let r = g.tier(t);
        if r.start != at || r.end < r.start {
            let (start, end) = (r.start, r.end);
            return Err(not_tiered(format!(
                "tier {t} is {start}..{end}, expected it to start at {at}"
            )));
        }
        tier_of.extend(std::iter::repeat_n(t, (r.end - r.start) as usize));
        at = r.end;
    }
    if at != n {
        return Err(not_tiered(format!("the tiers end at {at}, not at {n}")));
    }
    Ok(tier_of)
}

/// The legal position `pos` at index `i`: it ranks back and its text parses back; its children
/// are the rules' moves, no more than the bound, legal, in tiers no higher than its own; it is
/// terminal in both views alike, exactly when it has no move.
fn tiered_position<G: crate::model::Tiered + Rules>(
    g: &G,
    i: u64,
    pos: &[u32],
    tier_of: &[u64],
) -> Result<(), Broken> {
    let text = g.format(pos);
    if g.rank(pos) != i {
        let back = g.rank(pos);
        return Err(not_tiered(format!(
            "index {i} unranks to {text}, which ranks to {back}"
        )));
    }
    match g.parse(&text) {
        Ok(back) if back == pos => {}
        Ok(back) => {
            return Err(not_tiered(format!(
                "'{text}' parses to {back:?}, not {pos:?}"
            )))
        }
        Err(e) => {
            return Err(not_tiered(format!(
                "'{text}' (index {i}) does not parse back: {e}"
            )))
        }
    }
    let kids = tiered_children(g, i, pos, &text)?;
    if kids.len() as u64 > g.moves_bound() {
        let bound = g.moves_bound();
        return Err(not_tiered(format!(
            "{text}: {} moves, over the bound {bound}",
            kids.len()
        )));
    }
    for &c in &kids {
        if c >= g.positions() || !g.legal(c) {
            return Err(not_tiered(format!(
                "{text}: a move leads to index {c}, which is no position"
            )));
        }
        let (tc, ti) = (tier_of[c as usize], tier_of[i as usize]);
        if tc > ti || (tc == ti && !g.in_tier_moves()) {
            let child = g.format(&g.unrank(c));
            return Err(not_tiered(format!(
                "{text} (tier {ti}): a move leads to {child} in tier {tc}"
            )));
        }
    }
    let (solver, rules) = (g.terminal(i), g.terminal_standing(pos));
    if solver != rules {
        return Err(not_tiered(format!(
            "{text}: the solver's view says terminal {solver:?}, the rules {rules:?}"
        )));
    }
    if solver.is_some() != kids.is_empty() {
        let over = if solver.is_some() { "" } else { "not " };
        return Err(not_tiered(format!(
            "{text}: {} moves, and the game is {over}over",
            kids.len()
        )));
    }
    Ok(())
}

/// The children the solver's view gives index `i`, checked to be the ranks of the rules' moves
/// of `pos` (for a game that folds, the children that represent the moves' classes).
fn tiered_children<G: crate::model::Tiered + Rules>(
    g: &G,
    i: u64,
    pos: &[u32],
    text: &str,
) -> Result<Vec<u64>, Broken> {
    let mut kids = Vec::new();
    g.children(i, |c| kids.push(c));
    let mut by_rules: Vec<u64> = g.moves(pos).iter().map(|m| g.rank(&m.leaves)).collect();
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
            *r = class_of.get(r).copied().ok_or_else(|| {
                not_tiered(format!("{text}: the move to {r} is in no child's class"))
            })?;
        }
    }
    if kids != by_rules {
        kids.sort_unstable();
        by_rules.sort_unstable();
        if kids != by_rules {
            return Err(not_tiered(format!(
                "{text} (index {i}): the solver's children {kids:?} are not the rules' moves \
                 {by_rules:?}"
            )));
        }
    }
    Ok(kids)
}
