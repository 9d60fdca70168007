//! Answers queries from an open table. What an answer holds follows the table's value kind
//! (see [`crate::answer`]): outcome and Grundy tables give the outcome, the Grundy value and the
//! winning moves; distance tables (puzzles) give the distance to the goal, the optimal moves
//! and, on request, a whole optimal solution; tables of lower bounds give the bound.
//!
//! A distance table in the mod3 encoding (2 bits a position, written by `gamedb enumerate`)
//! stores each distance modulo 3 only. Its answers are the byte table's, found by descent:
//! every move changes a puzzle's distance by exactly one, so the moves one step nearer the goal
//! are exactly those whose leaves hold the code [`mod3::closer`]; the exact distance is the
//! number of steps of the walk that takes, each step, the first such move, until the goal.

use std::path::Path;

use crate::answer::{Answer, AnswerMove, BoundValue, DistanceValue, EntryValue, GameValue, Value};
use crate::format::payload::{self, mod3, Encoding, Entries, UNREACHED};
use crate::format::TableFile;
use crate::game::{Fact, Move, Outcome, Rules, Solved, ValueKind, Values};
use crate::games::{NotKnown, Spec};
use crate::{Error, Result};

/// An open table: the file, its game (read from the header), and the rules to read positions.
///
/// A table of a game this program does not know (another program's game, or another version
/// of a game's rules) opens too: its values are there by index ([`Table::raw`],
/// [`Table::outcome`], `info`, `export`), and every call that must read a position says that
/// the game is not known ([`Error::UnknownGame`]).
pub struct Table {
    file: TableFile,
    spec: Option<Spec>,
    rules: Box<dyn Rules>,
    /// Whether a position's entry is read by [`Rules::entry_index`] (a known game whose
    /// entries are positions: not an extension table, whose entries are prefixes).
    by_entry: bool,
}

/// The rules of a table whose game this program does not know: every position is refused
/// with why.
struct NotKnownRules(String);

impl Rules for NotKnownRules {
    fn parse(&self, _text: &str) -> Result<Vec<u32>> {
        Err(Error::UnknownGame(self.0.clone()))
    }
    fn position_form(&self) -> String {
        "no position: the game is not known to this build".into()
    }
    fn check(&self, _pos: &[u32]) -> Result<()> {
        Err(Error::UnknownGame(self.0.clone()))
    }
    fn rank(&self, _pos: &[u32]) -> u64 {
        0
    }
    fn unrank(&self, _index: u64) -> Vec<u32> {
        Vec::new()
    }
    fn moves(&self, _pos: &[u32]) -> Vec<Move> {
        Vec::new()
    }
}

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

/// The refusal of a table whose value kind cannot be stored in its encoding.
fn not_encodable(file: &TableFile) -> Error {
    let h = file.header();
    Error::corrupt(
        file.path(),
        format!(
            "{} values cannot be encoded as {}",
            h.value_kind.name(),
            h.encoding.name()
        ),
    )
}

impl Table {
    /// Opens a table file, checking its structure and that its header describes a known game
    /// whose size matches the file. The payload checksum is checked by [`Table::verify`].
    /// A file that does not exist is refused with what to do: the `gamedb build` command
    /// that makes it when its name is one a build writes, `gamedb list`, `gamedb build-all`
    /// ([`crate::catalog::missing_table`]).
    pub fn open(path: impl AsRef<Path>) -> Result<Table> {
        let path = path.as_ref();
        let file = TableFile::open(path).map_err(|e| match e {
            Error::Io { path, source } if source.kind() == std::io::ErrorKind::NotFound => {
                let hint = crate::catalog::missing_table(&path);
                Error::Io {
                    path,
                    source: std::io::Error::new(std::io::ErrorKind::NotFound, hint),
                }
            }
            e => e,
        })?;
        Table::from_file(file)
    }

    /// Wraps values solved in memory as a table (no file is written).
    pub fn from_solved(spec: &Spec, solved: Solved) -> Result<Table> {
        let name = format!("(in memory) {}", spec.file_name(solved.kind()));
        let encoded = payload::encode(solved);
        let meta = spec.meta(&encoded);
        Table::from_file(TableFile::from_payload(&name, &meta, encoded.bytes)?)
    }

    /// Wraps a checked table file: a header naming a registered game must hold valid
    /// parameters, as many entries as that game has positions, and a value kind and encoding
    /// the game can hold; a header naming a game this program does not know opens by index
    /// only (see [`Table`]).
    pub fn from_file(file: TableFile) -> Result<Table> {
        let h = file.header();
        let spec = match crate::games::registry().spec(&h.game, h.rules_version, &h.parameters) {
            Ok(spec) => spec,
            Err(NotKnown::Parameters(what)) => return Err(Error::corrupt(file.path(), what)),
            Err(not_known) => {
                let why = format!("{}: {not_known}", file.path().display());
                if Entries::new(file.payload(), h.value_kind, h.encoding, h.entry_count).is_none() {
                    return Err(not_encodable(&file));
                }
                return Ok(Table {
                    file,
                    spec: None,
                    rules: Box::new(NotKnownRules(why)),
                    by_entry: false,
                });
            }
        };
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
        let rules = spec.rules()?;
        // Distances mod 3 are answered by descent: exact distances only, not lower bounds.
        let descends = h.encoding != Encoding::Mod3 || rules.distance_bound().is_none();
        if !descends
            || Entries::new(file.payload(), h.value_kind, h.encoding, h.entry_count).is_none()
        {
            return Err(not_encodable(&file));
        }
        Ok(Table {
            by_entry: h.value_kind != ValueKind::Extension,
            file,
            spec: Some(spec),
            rules,
        })
    }

    /// Why this program cannot read this table's positions (its game is not known), or
    /// `None` when it can.
    pub fn not_known(&self) -> Option<Error> {
        match self.spec {
            Some(_) => None,
            None => Some(self.rules.check(&[]).expect_err("refuses every position")),
        }
    }

    /// Reads every payload byte and checks the checksum.
    pub fn verify(&self) -> Result<()> {
        self.file.verify()
    }

    /// The file.
    pub fn file(&self) -> &TableFile {
        &self.file
    }

    /// The game and its parameters; `None` for a game this program does not know.
    pub fn spec(&self) -> Option<&Spec> {
        self.spec.as_ref()
    }

    /// The spec of game `T`, when the table holds that game (for reports about one game).
    pub fn spec_of<T: crate::game::GameSpec>(&self) -> Option<&T> {
        self.spec.as_ref()?.get::<T>()
    }

    /// The game's name as the header gives it.
    pub fn game(&self) -> &str {
        &self.file.header().game
    }

    /// The game's parameters as the header gives them.
    pub fn parameters(&self) -> &str {
        &self.file.header().parameters
    }

    /// The rules (parsing, ranking, moves).
    pub fn rules(&self) -> &dyn Rules {
        self.rules.as_ref()
    }

    /// What the values mean.
    pub fn value_kind(&self) -> ValueKind {
        self.file.header().value_kind
    }

    /// What the table holds, for messages: `Nim: 3 heaps of 0..=7, ... (outcome values)`.
    pub fn describe(&self) -> String {
        match &self.spec {
            Some(spec) => spec.describe_table(self.value_kind()),
            None => {
                let h = self.file.header();
                format!(
                    "{} {} (a game not known to this build; {} values)",
                    h.game,
                    h.parameters,
                    self.value_kind().name()
                )
            }
        }
    }

    /// Number of positions.
    pub fn len(&self) -> u64 {
        self.file.header().entry_count
    }

    /// True for a table without positions (never the case for built tables).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entries (their encoding and length were checked against the header on opening).
    #[inline]
    pub fn entries(&self) -> Entries<'_> {
        let h = self.file.header();
        Entries::checked(self.file.payload(), h.value_kind, h.encoding, h.entry_count)
    }

    /// The stored value of entry `index`: the bit (1 = N), the byte or the u16.
    #[inline]
    pub fn raw(&self, index: u64) -> u32 {
        self.entries().raw(index)
    }

    /// P or N of entry `index` (outcome and Grundy tables; an entry of an extension table is
    /// a prefix, not a position: ask [`outcome_of`](Table::outcome_of) there).
    #[inline]
    pub fn outcome(&self, index: u64) -> Outcome {
        self.entries().outcome(index)
    }

    /// Appends the outcomes of entries `indices` to `out`. Every index must be below
    /// [`len`](Table::len) (it panics otherwise, like slice indexing).
    pub fn outcomes_at(&self, indices: &[u64], out: &mut Vec<Outcome>) {
        self.entries().outcomes_at(indices, out)
    }

    /// Appends the outcomes of many positions to `out`, checked against the table's bounds.
    /// A position that is not one of this table stops the work with its error (`out` then
    /// holds the outcomes of whole batches before it only).
    ///
    /// Ranks a batch of positions, then reads their entries together (see
    /// [`Entries::outcomes_at`]): the fastest way to look up many positions.
    pub fn outcomes_of<'a, I>(&self, positions: I, out: &mut Vec<Outcome>) -> Result<()>
    where
        I: IntoIterator<Item = &'a [u32]>,
    {
        if self.value_kind() == ValueKind::Extension {
            for pos in positions {
                out.push(self.outcome_of(pos)?);
            }
            return Ok(());
        }
        const BATCH: usize = 256;
        let entries = self.entries();
        let mut indices = Vec::with_capacity(BATCH);
        let mut positions = positions.into_iter().peekable();
        while positions.peek().is_some() {
            indices.clear();
            for pos in positions.by_ref().take(BATCH) {
                if let Some(i) = self.entry_index(pos) {
                    indices.push(i?);
                    continue;
                }
                self.check_inside(pos)?;
                if self.rules.summands(pos).is_some() {
                    // A sum of entries (the xor of theirs): answered alone, in its place.
                    entries.outcomes_at(&indices, out);
                    indices.clear();
                    out.push(self.outcome_of(pos)?);
                    continue;
                }
                indices.push(self.rules.rank(pos));
            }
            entries.outcomes_at(&indices, out);
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
    ///
    /// `#INDEX` asks for the entry at an index: the position there for a game this program
    /// knows, the stored value alone for a game it does not know or an extension table.
    pub fn query_with(&self, text: &str, path: bool) -> Result<Answer> {
        if let Some(index) = text.trim().strip_prefix('#') {
            return self.query_index(self.parse_index(index)?, path);
        }
        let pos = self.rules.parse(text)?;
        self.answer_with(pos, path)
    }

    /// [`answer`](Table::answer), with a whole optimal solution when `path` is asked for.
    fn answer_with(&self, pos: Vec<u32>, path: bool) -> Result<Answer> {
        let mut answer = self.answer(pos)?;
        if path {
            if let Value::Distance(d) = &mut answer.value {
                if d.solvable {
                    d.path = Some(AnswerMove::all(self.rules(), self.path(&answer.numbers)?));
                }
            }
        }
        Ok(answer)
    }

    /// Reads the index of a `#INDEX` query: a number below the table's length.
    fn parse_index(&self, text: &str) -> Result<u64> {
        let last = self.len().saturating_sub(1);
        match text.trim().parse::<u64>() {
            Ok(i) if i < self.len() => Ok(i),
            _ => Err(Error::bad(format!(
                "index '#{}': expected #0..=#{last} (the table has {} entries)",
                crate::game::echo(text.trim()),
                self.len()
            ))),
        }
    }

    /// Answers the entry at `index` (below [`len`](Table::len)): the answer of the position
    /// there, or the stored value alone when there is no position to give (a game this
    /// program does not know, an extension table whose entries are prefixes).
    pub fn query_index(&self, index: u64, path: bool) -> Result<Answer> {
        if index >= self.len() {
            return Err(Error::bad(format!(
                "index {index}: the table has {} entries",
                self.len()
            )));
        }
        if self.spec.is_none() || self.value_kind() == ValueKind::Extension {
            let outcome = matches!(self.value_kind(), ValueKind::Outcome | ValueKind::Grundy)
                .then(|| self.outcome(index));
            return Ok(Answer {
                position: format!("#{index}"),
                numbers: Vec::new(),
                index: Some(index),
                value: Value::Entry(EntryValue {
                    index,
                    value: self.raw(index),
                    outcome,
                }),
            });
        }
        self.answer_with(self.rules.unrank(index), path)
    }

    /// Answers a position already checked by the rules. A position outside the table is
    /// answered from the rules' reason (distance tables) or refused with it (other tables).
    pub fn answer(&self, position: Vec<u32>) -> Result<Answer> {
        let outside = self.rules.outside(&position);
        let mut index = None;
        let value = if self.value_kind() == ValueKind::Distance {
            match (self.rules.distance_bound(), outside) {
                (Some(counts), None) => {
                    let i = self.rules.rank(&position);
                    index = Some(i);
                    let v = self.raw(i);
                    Value::Bound(BoundValue {
                        lower_bound: (v != UNREACHED as u32).then_some(v),
                        reason: (v == UNREACHED as u32).then(|| {
                            format!("the entry is {UNREACHED}: those tiles cannot be brought home")
                        }),
                        counts,
                    })
                }
                (_, Some(why)) => Value::Distance(DistanceValue::unsolvable(why)),
                (None, None) => {
                    let i = self.rules.rank(&position);
                    index = Some(i);
                    let here = self.distance_of(&position, i)?;
                    let nearer = self.nearer(&position, here)?;
                    Value::Distance(DistanceValue::at(
                        here,
                        AnswerMove::all(self.rules(), nearer),
                    ))
                }
            }
        } else if self.value_kind() == ValueKind::Extension {
            // One entry per prefix: the game reads what it needs from the entries.
            let i = self.rules.rank(&position);
            index = Some(i);
            let entries = self.entries();
            let entry = |k: u64| entries.raw(k);
            let (Some(outcome), Some(winning)) = (
                self.rules.extension_outcome(&position, &entry),
                self.rules.extension_winning_moves(&position, &entry),
            ) else {
                return Err(self.no_extensions());
            };
            Value::Game(GameValue {
                outcome,
                grundy: None,
                winning_moves: AnswerMove::all(self.rules(), winning),
            })
        } else if let Some(parts) = self.rules.summands(&position) {
            let (sum, single) = self.sum_value(&position, &parts)?;
            index = single;
            Value::Game(sum)
        } else {
            if let Some(why) = outside {
                return Err(Error::bad(format!(
                    "position '{}' is not in this table: {why}",
                    self.rules.format(&position)
                )));
            }
            let i = self.rules.rank(&position);
            index = Some(i);
            let entries = self.entries();
            // Rank every child first, then read their entries in one tight loop, so the reads
            // (random places of a large table) overlap instead of waiting for each other.
            let mut children = Vec::new();
            self.rules.move_indices(&position, &mut children);
            let mut outcomes = Vec::with_capacity(children.len());
            entries.outcomes_at(&children, &mut outcomes);
            let winning: Vec<usize> = (0..outcomes.len())
                .filter(|&k| outcomes[k] == Outcome::P)
                .collect();
            let winning_moves = if winning.is_empty() {
                Vec::new()
            } else {
                AnswerMove::all(self.rules(), self.rules.moves_at(&position, &winning))
            };
            Value::Game(GameValue {
                outcome: entries.outcome(i),
                grundy: self.grundy(i),
                winning_moves,
            })
        };
        Ok(Answer {
            position: self.rules.format(&position),
            numbers: position,
            index,
            value,
        })
    }

    /// The Grundy value of a sum of table entries (see [`Rules::summands`]): the xor of its
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

    /// The answer of a position that is a sum of table entries (see [`Rules::summands`]), and
    /// its index when it is a single entry: the xor of the parts' Grundy values, and as
    /// winning moves every move of one part to a position of value `g ^ x` (the part's value
    /// xor the whole's), which brings the whole to 0. Each such move is shown as the whole
    /// position it leaves: the part replaced by the move's leaves.
    fn sum_value(&self, position: &[u32], parts: &[Vec<u32>]) -> Result<(GameValue, Option<u64>)> {
        let x = self.grundy_of_sum(position, parts)?;
        let entries = self.entries();
        let mut winning = Vec::new();
        if x != 0 {
            let mut before = 0;
            for part in parts {
                let g = entries.raw(self.rules.rank(part));
                let want = g ^ x;
                let after = before + part.len();
                for m in self.rules.moves(part) {
                    let leaves = self
                        .rules
                        .summands(&m.leaves)
                        .unwrap_or_else(|| vec![m.leaves.clone()]);
                    if self.grundy_of_sum(&m.leaves, &leaves)? == want {
                        let mut whole = Vec::with_capacity(position.len() + m.leaves.len());
                        whole.extend_from_slice(&position[..before]);
                        whole.extend_from_slice(&m.leaves);
                        whole.extend_from_slice(&position[after..]);
                        winning.push(Move {
                            label: m.label,
                            leaves: whole,
                        });
                    }
                }
                before = after;
            }
        }
        let single = (parts.len() == 1).then(|| self.rules.rank(&parts[0]));
        Ok((
            GameValue {
                outcome: Outcome::from_win(x != 0),
                grundy: Some(x),
                winning_moves: AnswerMove::all(self.rules(), winning),
            },
            single,
        ))
    }

    /// The Grundy value of a checked position of a game played as a sum of table entries
    /// ([`Rules::summands`]); `None` for other games (read their entry at
    /// [`index_of`](Table::index_of)). An error when the table does not hold Grundy values.
    pub fn sum_grundy(&self, position: &[u32]) -> Result<Option<u32>> {
        match self.rules.summands(position) {
            Some(parts) => self.grundy_of_sum(position, &parts).map(Some),
            None => Ok(None),
        }
    }

    /// Whether entries are distances mod 3, answered by descent.
    fn is_mod3(&self) -> bool {
        self.file.header().encoding == Encoding::Mod3
    }

    /// The exact distance of a position (at `index`) of a table of exact distances: the stored
    /// byte, or for a mod3 table the length of the descent to the goal.
    fn distance_of(&self, position: &[u32], index: u64) -> Result<u32> {
        if self.is_mod3() {
            self.descend(position)
        } else {
            self.stored_distance(index)
        }
    }

    /// The value at an index as the C ABI gives it: the stored value, except that a mod3 table
    /// answers the exact distance (by descent from the position at the index).
    pub fn value(&self, index: u64) -> Result<u32> {
        if self.is_mod3() {
            if let Some(e) = self.not_known() {
                return Err(e);
            }
            return self.descend(&self.rules.unrank(index));
        }
        Ok(self.raw(index))
    }

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

    /// The moves of a position at distance `here` that lead one move nearer the goal.
    fn nearer(&self, position: &[u32], here: u32) -> Result<Vec<Move>> {
        // The entry a move one step nearer leaves: the distance, or its mod3 code.
        let want = match here.checked_sub(1) {
            None => None,
            Some(d) if self.is_mod3() => Some(mod3::code(d) as u32),
            Some(d) => Some(d),
        };
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

    /// A whole optimal solution of a position of a distance table: at each step the first
    /// move (in the rules' order) that leads one move nearer the goal.
    pub fn path(&self, position: &[u32]) -> Result<Vec<Move>> {
        if self.value_kind() != ValueKind::Distance || self.rules.distance_bound().is_some() {
            return Err(Error::bad(format!(
                "{} holds {}, not exact distances: there is no path to show",
                self.file.path().display(),
                self.describe()
            )));
        }
        if let Some(why) = self.rules.outside(position) {
            return Err(Error::bad(why));
        }
        let mut here = self.distance_of(position, self.rules.rank(position))?;
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
        let entries = self.entries();
        let mut counts = entries.histogram();
        if self.is_mod3() {
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

    /// Refuses a position the table does not store, with the rules' reason.
    fn check_inside(&self, position: &[u32]) -> Result<()> {
        self.rules.check(position)?;
        match self.rules.outside(position) {
            Some(why) => Err(Error::bad(why)),
            None => Ok(()),
        }
    }

    /// The index of a position by the rules' fast path ([`Rules::entry_index`]), checked
    /// against the table's length; `None` when the position takes the general path (its
    /// error, a sum, a table whose entries are not positions).
    #[inline]
    fn entry_index(&self, position: &[u32]) -> Option<Result<u64>> {
        if !self.by_entry {
            return None;
        }
        let i = self.rules.entry_index(position)?;
        Some(if i < self.len() {
            Ok(i)
        } else {
            Err(self.beyond(position, i))
        })
    }

    /// The error of a rank past the table's end: a bug in the game's ranking, never an
    /// answer read from the padding or a panic.
    #[cold]
    fn beyond(&self, position: &[u32], index: u64) -> Error {
        Error::Internal(format!(
            "{}: position {} ranks to {index}, past the table's {} entries",
            self.file.path().display(),
            self.rules.format(position),
            self.len()
        ))
    }

    /// P/N of a position written as numbers, checked against the table's bounds.
    #[inline]
    pub fn outcome_of(&self, position: &[u32]) -> Result<Outcome> {
        match self.entry_index(position) {
            Some(i) => Ok(self.outcome(i?)),
            None => self.outcome_of_checked(position),
        }
    }

    /// [`outcome_of`](Table::outcome_of) through the rules' check, sums and extension
    /// entries, one call at a time.
    fn outcome_of_checked(&self, position: &[u32]) -> Result<Outcome> {
        self.check_inside(position)?;
        if self.value_kind() == ValueKind::Extension {
            let entries = self.entries();
            return self
                .rules
                .extension_outcome(position, &|k| entries.raw(k))
                .ok_or_else(|| self.no_extensions());
        }
        if let Some(g) = self.sum_grundy(position)? {
            return Ok(Outcome::from_win(g != 0));
        }
        Ok(self.outcome(self.rules.rank(position)))
    }

    /// The error of a game that says it stores extension values but cannot read them.
    fn no_extensions(&self) -> Error {
        Error::corrupt(
            self.file.path(),
            format!("{} tables cannot be read as extension values", self.game()),
        )
    }

    /// Number of P-positions a table stores: for extension tables the prefixes that have
    /// one (each stands for exactly one P-position), else the entries whose outcome is P.
    pub fn p_positions(&self) -> u64 {
        let entries = self.entries();
        if self.value_kind() == ValueKind::Extension {
            return entries.len() - entries.count_p();
        }
        entries.count_p()
    }

    /// The index of a position written as numbers, checked against the table's bounds.
    pub fn index_of(&self, position: &[u32]) -> Result<u64> {
        if let Some(i) = self.entry_index(position) {
            return i;
        }
        self.check_inside(position)?;
        if let Some(parts) = self.rules.summands(position) {
            if parts.len() != 1 {
                return Err(Error::bad(format!(
                    "position '{}' is a sum of {} table entries, not one entry: its value is \
                     the xor of theirs (query it)",
                    self.rules.format(position),
                    parts.len()
                )));
            }
            return Ok(self.rules.rank(&parts[0]));
        }
        Ok(self.rules.rank(position))
    }

    /// The game-specific facts of [`Rules::facts`] for this table.
    pub fn facts(&self) -> Vec<Fact> {
        self.rules.facts(self)
    }

    /// Number of P-positions (entries with outcome P; on extension tables the prefixes that
    /// have one, as [`p_positions`](Table::p_positions)).
    pub fn count_p(&self) -> u64 {
        self.p_positions()
    }
}

impl Values for Table {
    fn len(&self) -> u64 {
        Table::len(self)
    }

    fn outcome(&self, index: u64) -> Outcome {
        Table::outcome(self, index)
    }

    fn raw(&self, index: u64) -> u32 {
        Table::raw(self, index)
    }

    fn for_each_p(&self, f: &mut dyn FnMut(u64)) {
        self.entries().for_each_p(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::candy::{CandySpec, WinRule};
    use crate::games::nim::NimSpec;

    fn table(spec: Spec, kind: ValueKind) -> Table {
        let solved = spec.solve(kind, &()).unwrap();
        Table::from_solved(&spec, solved).unwrap()
    }

    /// `answer` (children ranked in one batch, labels built for the kept moves only) and
    /// `outcomes_of` (batched reads) agree with the plain definitions on every position.
    #[test]
    fn batched_paths_agree_with_the_definitions() {
        let nim = |k, misere| Spec::new(NimSpec::new(3, 6, k, misere).unwrap());
        let tables = [
            table(nim(None, false), ValueKind::Outcome),
            table(nim(None, false), ValueKind::Grundy),
            table(nim(Some(2), true), ValueKind::Outcome),
            table(
                Spec::new(CandySpec::new(41, 4, WinRule::Odd).unwrap()),
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
                let plain: Vec<AnswerMove> = rules
                    .moves(pos)
                    .into_iter()
                    .filter(|m| t.outcome(rules.rank(&m.leaves)) == Outcome::P)
                    .map(|m| AnswerMove::new(rules, m))
                    .collect();
                let answer = t.answer(pos.clone()).unwrap();
                assert_eq!(answer.winning_moves(), plain.as_slice(), "{pos:?}");
                if !rules.moves(pos).is_empty() {
                    // Terminal positions get their value from the rules (misère, candy).
                    assert_eq!(
                        answer.outcome() == Some(Outcome::N),
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
