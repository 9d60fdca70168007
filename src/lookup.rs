//! Answers queries from an open table. What an answer holds follows the table's value kind:
//! outcome and Grundy tables give the outcome, the Grundy value and the winning moves; distance
//! tables (puzzles) give the distance to the goal, the optimal moves and, on request, a whole
//! optimal solution.

use std::path::Path;

use crate::format::{Encoding, TableFile, TableMeta, ValueKind};
use crate::game::{Fact, Move, Outcome, Rules, Values};
use crate::games::{Payload, Spec};
use crate::json;
use crate::{Error, Result};

/// An open table: the file, its game, and the rules to read positions.
pub struct Table {
    file: TableFile,
    spec: Spec,
    rules: Box<dyn Rules>,
}

/// The answer to one query.
///
/// Outcome and Grundy tables fill `outcome`, `grundy` and `winning_moves`; distance tables fill
/// `distance` instead.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The position as read.
    pub position: Vec<u32>,
    /// Its index in the table; `None` for a position outside the table (see
    /// [`Rules::outside`]).
    pub index: Option<u64>,
    /// P or N (outcome and Grundy tables).
    pub outcome: Option<Outcome>,
    /// The Grundy value, when the table stores them.
    pub grundy: Option<u32>,
    /// Every move to a P-position, with the position it leaves (outcome and Grundy tables).
    pub winning_moves: Vec<Move>,
    /// What a distance table says.
    pub distance: Option<DistanceAnswer>,
}

/// The answer of a distance table (a puzzle): how far the position is from the goal.
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceAnswer {
    /// Moves to the goal; `None` when the goal cannot be reached.
    pub distance: Option<u32>,
    /// Why the goal cannot be reached (the rules' reason), when it cannot.
    pub reason: Option<String>,
    /// Every move to a position one move nearer the goal.
    pub optimal_moves: Vec<Move>,
    /// A whole optimal solution, when asked for: `distance` moves ending at the goal.
    pub path: Option<Vec<Move>>,
    /// When the table stores only a lower bound (a pattern database): what it counts
    /// ([`Rules::distance_bound`]). `distance` is then that bound (`None`: the stored value is
    /// 255, unreachable), and there are no optimal moves and no path.
    pub bound: Option<String>,
}

impl DistanceAnswer {
    /// Whether the goal can be reached.
    pub fn solvable(&self) -> bool {
        self.distance.is_some()
    }
}

/// Distances found in a distance table, for `gamedb info`.
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceCensus {
    /// `counts[d]`: entries at distance `d`, up to the largest distance present.
    pub counts: Vec<u64>,
    /// Entries marked unreachable (none in a complete table).
    pub unreached: u64,
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

/// The byte a distance table stores for a position it could not reach.
pub const UNREACHED: u32 = crate::solve::bfs::UNSEEN as u32;

impl Table {
    /// Opens a table file, checking its structure and that its header describes a known game
    /// whose size matches the file. The payload checksum is checked by [`Table::verify`].
    pub fn open(path: impl AsRef<Path>) -> Result<Table> {
        Table::from_file(TableFile::open(path.as_ref())?)
    }

    /// Wraps values solved in memory as a table (no file is written).
    pub fn from_payload(spec: &Spec, payload: Payload) -> Result<Table> {
        let meta: TableMeta = spec.meta(&payload);
        let name = format!("(in memory) {}", spec.file_name(payload.kind));
        Table::from_file(TableFile::from_payload(&name, &meta, payload.bytes)?)
    }

    fn from_file(file: TableFile) -> Result<Table> {
        let h = file.header();
        let spec = Spec::from_header(h.game, h.params)
            .map_err(|what| Error::corrupt(file.path(), what))?;
        if spec.positions() != h.entry_count {
            return Err(Error::corrupt(
                file.path(),
                format!(
                    "header says {} entries, but {} has {}",
                    h.entry_count,
                    spec.describe(),
                    spec.positions()
                ),
            ));
        }
        if !spec.value_kinds().contains(&h.value_kind) {
            return Err(Error::corrupt(
                file.path(),
                format!(
                    "{} tables do not hold {} values",
                    spec.name(),
                    h.value_kind.name()
                ),
            ));
        }
        let bits_ok = (h.value_kind == ValueKind::Outcome) == (h.encoding == Encoding::Bits);
        let bytes_ok = h.value_kind != ValueKind::Distance || h.encoding == Encoding::U8;
        if !bits_ok || !bytes_ok {
            return Err(Error::corrupt(
                file.path(),
                format!(
                    "{} values cannot be encoded as {}",
                    h.value_kind.name(),
                    h.encoding.name()
                ),
            ));
        }
        let rules = spec.rules()?;
        Ok(Table { file, spec, rules })
    }

    /// Reads every payload byte and checks the checksum.
    pub fn verify(&self) -> Result<()> {
        self.file.verify()
    }

    /// The file.
    pub fn file(&self) -> &TableFile {
        &self.file
    }

    /// The game and its parameters.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The rules (parsing, ranking, moves).
    pub fn rules(&self) -> &dyn Rules {
        self.rules.as_ref()
    }

    /// What the values mean.
    pub fn value_kind(&self) -> ValueKind {
        self.file.header().value_kind
    }

    /// Number of positions.
    pub fn len(&self) -> u64 {
        self.file.header().entry_count
    }

    /// True for a table without positions (never the case for built tables).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The stored value of entry `index`: the bit (1 = N), the byte or the u16.
    #[inline]
    pub fn raw(&self, index: u64) -> u32 {
        let p = self.file.payload();
        let i = index as usize;
        match self.file.header().encoding {
            Encoding::Bits => (p[i / 8] >> (i % 8) & 1) as u32,
            Encoding::U8 => p[i] as u32,
            Encoding::U16 => u16::from_le_bytes([p[2 * i], p[2 * i + 1]]) as u32,
        }
    }

    /// P or N of entry `index` (outcome and Grundy tables).
    #[inline]
    pub fn outcome(&self, index: u64) -> Outcome {
        match self.value_kind() {
            ValueKind::Outcome => Outcome::from_win(self.raw(index) == 1),
            _ => Outcome::from_win(self.raw(index) != 0),
        }
    }

    /// Appends the outcomes of entries `indices` to `out`. Every index must be below
    /// [`len`](Table::len) (it panics otherwise, like slice indexing).
    ///
    /// Faster than calling [`outcome`](Table::outcome) in a loop on large tables: the loop
    /// does nothing but read, so the processor overlaps the reads' cache misses.
    pub fn outcomes_at(&self, indices: &[u64], out: &mut Vec<Outcome>) {
        let p = self.file.payload();
        let outcome_bits = self.value_kind() == ValueKind::Outcome;
        match self.file.header().encoding {
            Encoding::Bits if outcome_bits => out.extend(indices.iter().map(|&i| {
                let i = i as usize;
                Outcome::from_win(p[i / 8] >> (i % 8) & 1 == 1)
            })),
            Encoding::U8 => out.extend(
                indices
                    .iter()
                    .map(|&i| Outcome::from_win(p[i as usize] != 0)),
            ),
            _ => out.extend(indices.iter().map(|&i| self.outcome(i))),
        }
    }

    /// Appends the outcomes of many positions to `out`, checked against the table's bounds.
    /// A position that is not one of this table stops the work with its error (`out` then
    /// holds the outcomes of whole batches before it only).
    ///
    /// Ranks a batch of positions, then reads their entries together (see
    /// [`outcomes_at`](Table::outcomes_at)): the fastest way to look up many positions.
    pub fn outcomes_of<'a, I>(&self, positions: I, out: &mut Vec<Outcome>) -> Result<()>
    where
        I: IntoIterator<Item = &'a [u32]>,
    {
        const BATCH: usize = 256;
        let mut indices = Vec::with_capacity(BATCH);
        let mut positions = positions.into_iter().peekable();
        while positions.peek().is_some() {
            indices.clear();
            for pos in positions.by_ref().take(BATCH) {
                self.rules.check(pos)?;
                indices.push(self.rules.rank(pos));
            }
            self.outcomes_at(&indices, out);
        }
        Ok(())
    }

    /// The Grundy value of entry `index`, if the table stores them.
    pub fn grundy(&self, index: u64) -> Option<u32> {
        (self.value_kind() == ValueKind::Grundy).then(|| self.raw(index))
    }

    /// Answers a position written as `query` accepts it.
    pub fn query(&self, text: &str) -> Result<Answer> {
        self.query_with(text, false)
    }

    /// Answers a position written as `query` accepts it; with `path`, a distance table's answer
    /// includes a whole optimal solution.
    pub fn query_with(&self, text: &str, path: bool) -> Result<Answer> {
        let pos = self.rules.parse(text)?;
        let mut answer = self.answer(pos)?;
        if path {
            if let Some(d) = &mut answer.distance {
                if d.solvable() && d.bound.is_none() {
                    d.path = Some(self.path(&answer.position)?);
                }
            }
        }
        Ok(answer)
    }

    /// Answers a position already checked by the rules. A position outside the table is
    /// answered from the rules' reason (distance tables) or refused with it (other tables).
    pub fn answer(&self, position: Vec<u32>) -> Result<Answer> {
        let outside = self.rules.outside(&position);
        let mut answer = Answer {
            index: None,
            outcome: None,
            grundy: None,
            winning_moves: Vec::new(),
            distance: None,
            position,
        };
        if self.value_kind() == ValueKind::Distance {
            if let (Some(what), None) = (self.rules.distance_bound(), &outside) {
                let index = self.rules.rank(&answer.position);
                let v = self.raw(index);
                answer.distance = Some(DistanceAnswer {
                    distance: (v != UNREACHED).then_some(v),
                    reason: (v == UNREACHED).then(|| {
                        format!("the entry is {UNREACHED}: those tiles cannot be brought home")
                    }),
                    optimal_moves: Vec::new(),
                    path: None,
                    bound: Some(what),
                });
                answer.index = Some(index);
                return Ok(answer);
            }
            let mut d = DistanceAnswer {
                distance: None,
                reason: outside,
                optimal_moves: Vec::new(),
                path: None,
                bound: None,
            };
            if d.reason.is_none() {
                let index = self.rules.rank(&answer.position);
                let here = self.stored_distance(index)?;
                d.distance = Some(here);
                d.optimal_moves = self.nearer(&answer.position, here)?;
                answer.index = Some(index);
            }
            answer.distance = Some(d);
            return Ok(answer);
        }
        if let Some(why) = outside {
            return Err(Error::bad(format!(
                "position '{}' is not in this table: {why}",
                self.rules.format(&answer.position)
            )));
        }
        let index = self.rules.rank(&answer.position);
        // Rank every child first, then read their entries in one tight loop, so the reads
        // (random places of a large table) overlap instead of waiting for each other.
        let mut children = Vec::new();
        self.rules.move_indices(&answer.position, &mut children);
        let mut outcomes = Vec::with_capacity(children.len());
        self.outcomes_at(&children, &mut outcomes);
        let winning: Vec<usize> = (0..outcomes.len())
            .filter(|&k| outcomes[k] == Outcome::P)
            .collect();
        if !winning.is_empty() {
            answer.winning_moves = self.rules.moves_at(&answer.position, &winning);
        }
        answer.outcome = Some(self.outcome(index));
        answer.grundy = self.grundy(index);
        answer.index = Some(index);
        Ok(answer)
    }

    /// The distance stored for an index of a distance table; a damaged table (an unreachable
    /// mark, or neighbours' distances that do not fit) is reported as such.
    fn stored_distance(&self, index: u64) -> Result<u32> {
        let v = self.raw(index);
        if v == UNREACHED {
            return Err(Error::corrupt(
                self.file.path(),
                format!("entry {index} is marked unreachable, but the rules say the goal can be reached"),
            ));
        }
        Ok(v)
    }

    /// The moves of a position at distance `here` that lead one move nearer the goal.
    fn nearer(&self, position: &[u32], here: u32) -> Result<Vec<Move>> {
        let moves: Vec<Move> = self
            .rules
            .moves(position)
            .into_iter()
            .filter(|m| {
                self.rules.outside(&m.leaves).is_none()
                    && self.raw(self.rules.rank(&m.leaves)) + 1 == here
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

    /// A whole optimal solution of a position of a distance table: at each step the first
    /// move (in the rules' order) that leads one move nearer the goal.
    pub fn path(&self, position: &[u32]) -> Result<Vec<Move>> {
        if self.value_kind() != ValueKind::Distance {
            return Err(Error::bad(format!(
                "{} tables hold {} values, not distances: there is no path to show",
                self.spec.name(),
                self.value_kind().name()
            )));
        }
        if let Some(why) = self.rules.outside(position) {
            return Err(Error::bad(why));
        }
        let mut here = self.stored_distance(self.rules.rank(position))?;
        let mut pos = position.to_vec();
        let mut path = Vec::with_capacity(here as usize);
        while here > 0 {
            let step = self.nearer(&pos, here)?.swap_remove(0);
            pos = step.leaves.clone();
            path.push(step);
            here -= 1;
        }
        Ok(path)
    }

    /// Counts the entries of a distance table at each distance and collects the first
    /// `list` indices at the largest distance.
    pub fn distance_census(&self, list: usize) -> DistanceCensus {
        use rayon::prelude::*;
        // Distance tables are one byte per entry (checked on opening).
        let p = self.file.payload();
        let hist = p
            .par_chunks(1 << 20)
            .map(|c| {
                let mut h = [0u64; 256];
                for &b in c {
                    h[b as usize] += 1;
                }
                h
            })
            .reduce(
                || [0u64; 256],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        let unreached = hist[UNREACHED as usize];
        let mut counts: Vec<u64> = hist[..UNREACHED as usize].to_vec();
        while counts.last() == Some(&0) {
            counts.pop();
        }
        let (antipode_count, antipodes) = match counts.len().checked_sub(1) {
            Some(max) => (
                counts[max],
                p.iter()
                    .enumerate()
                    .filter(|&(_, &b)| b as usize == max)
                    .map(|(i, _)| i as u64)
                    .take(list)
                    .collect(),
            ),
            None => (0, Vec::new()),
        };
        DistanceCensus {
            counts,
            unreached,
            antipode_count,
            antipodes,
        }
    }

    /// P/N of a position written as numbers, checked against the table's bounds.
    pub fn outcome_of(&self, position: &[u32]) -> Result<Outcome> {
        self.rules.check(position)?;
        if let Some(why) = self.rules.outside(position) {
            return Err(Error::bad(why));
        }
        Ok(self.outcome(self.rules.rank(position)))
    }

    /// The game-specific facts of [`Rules::facts`] for this table.
    pub fn facts(&self) -> Vec<Fact> {
        self.rules.facts(self)
    }

    /// Number of P-positions (entries with outcome P).
    pub fn count_p(&self) -> u64 {
        let p = self.file.payload();
        match self.file.header().encoding {
            Encoding::Bits => {
                let ones: u64 = p.iter().map(|b| b.count_ones() as u64).sum();
                self.len() - ones
            }
            _ => (0..self.len()).filter(|&i| self.raw(i) == 0).count() as u64,
        }
    }
}

impl Values for Table {
    fn len(&self) -> u64 {
        Table::len(self)
    }

    fn outcome(&self, index: u64) -> Outcome {
        Table::outcome(self, index)
    }

    fn for_each_p(&self, f: &mut dyn FnMut(u64)) {
        if self.file.header().encoding != Encoding::Bits {
            for i in 0..Table::len(self) {
                if self.raw(i) == 0 {
                    f(i)
                }
            }
            return;
        }
        // Bit tables: skip whole bytes of N-positions.
        let len = Table::len(self);
        for (b, &byte) in self.file.payload().iter().enumerate() {
            let mut zeros = !byte;
            while zeros != 0 {
                let i = b as u64 * 8 + zeros.trailing_zeros() as u64;
                if i >= len {
                    return;
                }
                f(i);
                zeros &= zeros - 1;
            }
        }
    }
}

impl Answer {
    /// One line of text: `1,2,4: N  winning: take 1 from heap 3 -> 1,2,3`, or for a distance
    /// table `8,6,7,2,5,4,3,0,1: distance 31  optimal: slide 3 right -> ...` (and `path: ...`
    /// when a solution was asked for).
    pub fn to_text(&self, rules: &dyn Rules) -> String {
        let position = rules.format(&self.position);
        if let Some(d) = &self.distance {
            if let Some(what) = &d.bound {
                return match d.distance {
                    Some(n) => format!("{position}: lower bound {n}: {n} {what}"),
                    None => format!(
                        "{position}: unreachable: {}",
                        d.reason.as_deref().unwrap_or("")
                    ),
                };
            }
            return match d.distance {
                None => format!(
                    "{position}: unsolvable: {}",
                    d.reason.as_deref().unwrap_or("the goal cannot be reached")
                ),
                Some(0) => format!("{position}: distance 0 (the goal)"),
                Some(n) => {
                    let mut s = format!(
                        "{position}: distance {n}  optimal: {}",
                        moves_text(rules, &d.optimal_moves)
                    );
                    if let Some(path) = &d.path {
                        let steps: Vec<&str> = path.iter().map(|m| m.label.as_str()).collect();
                        s += &format!("  path: {}", steps.join(", "));
                    }
                    s
                }
            };
        }
        let mut s = format!("{}: {}", position, self.outcome.map_or("?", |o| o.as_str()));
        if let Some(g) = self.grundy {
            s += &format!("  grundy {g}");
        }
        if !self.winning_moves.is_empty() {
            s += &format!("  winning: {}", moves_text(rules, &self.winning_moves));
        }
        s
    }

    /// One JSON object. Outcome and Grundy tables: keys `position`, `outcome`, `winning_moves`
    /// and, when stored, `grundy`. Distance tables: `position`, `solvable`, `distance` (null
    /// when unsolvable), `reason` (when unsolvable), `optimal_moves` and, when asked for,
    /// `path`; each move is `{"move": label, "leaves": position}`. Tables of lower bounds
    /// (pattern databases): `position`, `lower_bound` (null when the entry is 255,
    /// unreachable), `counts` (what the bound counts) and `reason` when unreachable.
    pub fn to_json(&self, rules: &dyn Rules) -> String {
        let position = rules.format(&self.position);
        if let Some(d) = &self.distance {
            if let Some(what) = &d.bound {
                let mut o = json::Object::new().str("position", &position);
                o = match d.distance {
                    Some(n) => o.num("lower_bound", n),
                    None => o.null("lower_bound"),
                };
                o = o.str("counts", what);
                if let Some(r) = &d.reason {
                    o = o.str("reason", r);
                }
                return o.finish();
            }
            let mut o = json::Object::new()
                .str("position", &position)
                .bool("solvable", d.solvable());
            o = match d.distance {
                Some(n) => o.num("distance", n),
                None => o.null("distance"),
            };
            if let Some(r) = &d.reason {
                o = o.str("reason", r);
            }
            o = o.raw("optimal_moves", &moves_json(rules, &d.optimal_moves));
            if let Some(path) = &d.path {
                o = o.raw("path", &moves_json(rules, path));
            }
            return o.finish();
        }
        let mut o = json::Object::new()
            .str("position", &position)
            .str("outcome", self.outcome.map_or("?", |o| o.as_str()));
        if let Some(g) = self.grundy {
            o = o.num("grundy", g);
        }
        o.raw("winning_moves", &moves_json(rules, &self.winning_moves))
            .finish()
    }
}

fn moves_text(rules: &dyn Rules, moves: &[Move]) -> String {
    let moves: Vec<String> = moves
        .iter()
        .map(|m| format!("{} -> {}", m.label, rules.format(&m.leaves)))
        .collect();
    moves.join("; ")
}

fn moves_json(rules: &dyn Rules, moves: &[Move]) -> String {
    json::array(moves.iter().map(|m| {
        json::Object::new()
            .str("move", &m.label)
            .str("leaves", &rules.format(&m.leaves))
            .finish()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::candy::{CandySpec, WinRule};
    use crate::games::nim::NimSpec;
    use indicatif::ProgressBar;

    fn table(spec: Spec, kind: ValueKind) -> Table {
        let payload = spec.solve(kind, &ProgressBar::hidden()).unwrap();
        Table::from_payload(&spec, payload).unwrap()
    }

    /// `answer` (children ranked in one batch, labels built for the kept moves only) and
    /// `outcomes_of` (batched reads) agree with the plain definitions on every position.
    #[test]
    fn batched_paths_agree_with_the_definitions() {
        let nim = |k, misere| Spec::Nim(NimSpec::new(3, 6, k, misere).unwrap());
        let tables = [
            table(nim(None, false), ValueKind::Outcome),
            table(nim(None, false), ValueKind::Grundy),
            table(nim(Some(2), true), ValueKind::Outcome),
            table(
                Spec::Candy(CandySpec::new(41, 4, WinRule::Odd).unwrap()),
                ValueKind::Outcome,
            ),
        ];
        for t in &tables {
            let rules = t.rules();
            let positions: Vec<Vec<u32>> = (0..t.len())
                .map(|i| rules.unrank(i))
                .filter(|p| rules.check(p).is_ok())
                .collect();
            let mut batched = Vec::new();
            t.outcomes_of(positions.iter().map(|p| p.as_slice()), &mut batched)
                .unwrap();
            for (pos, &o) in positions.iter().zip(&batched) {
                assert_eq!(t.outcome_of(pos).unwrap(), o, "{pos:?}");
                let plain: Vec<Move> = rules
                    .moves(pos)
                    .into_iter()
                    .filter(|m| t.outcome(rules.rank(&m.leaves)) == Outcome::P)
                    .collect();
                let answer = t.answer(pos.clone()).unwrap();
                assert_eq!(answer.winning_moves, plain, "{pos:?}");
                if !rules.moves(pos).is_empty() {
                    // Terminal positions get their value from the rules (misère, candy).
                    assert_eq!(
                        answer.outcome == Some(Outcome::N),
                        !plain.is_empty(),
                        "{pos:?}"
                    );
                }
            }
            // A bad position stops the batch with its error.
            let bad = [vec![1u32; 9]];
            assert!(t
                .outcomes_of(bad.iter().map(|p| p.as_slice()), &mut Vec::new())
                .is_err());
        }
    }
}
