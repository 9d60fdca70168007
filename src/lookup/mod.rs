//! Answers queries from an open table. What an answer holds follows the table's value kind
//! (see [`crate::answer`]): outcome and Grundy tables give the outcome, the Grundy value and the
//! winning moves; distance tables (puzzles) give the distance to the goal, the optimal moves
//! and, on request, a whole optimal solution; tables of lower bounds give the bound.
//!
//! [`Table`] opens and checks a table and reads its entries; how a position is answered is
//! the business of one module per kind of value, behind the small `Answerer` interface,
//! chosen once when the table opens: `outcome.rs` (outcome and Grundy tables, with `sums.rs`
//! for positions that are sums of entries), `distance.rs` (exact distances and lower bounds),
//! `mod3.rs` (distances mod 3, answered by descent) and `extension.rs` (three-rowed Chomp's
//! prefixes), `standing.rs` (win, lose, tie or draw with remoteness) and `wlt.rs` (win, lose
//! or tie-or-draw, two bits a position). A new kind of value
//! is one more such module; `every.rs` lists every move of a game's position with the value
//! it leaves, whichever kind answered it.

mod distance;
mod every;
mod extension;
mod mod3;
mod outcome;
mod standing;
mod sums;
mod wlt;

use std::path::Path;
use std::sync::Arc;

use crate::answer::{Answer, AnswerMove, EntryValue, Value};
use crate::format::payload::{self, Encoding, Entries};
use crate::format::Solved;
use crate::format::TableFile;
use crate::game::{Fact, Move, Rules, Values};
use crate::games::{NotKnown, Spec};
use crate::model::{Indexed, Outcome, Standing, ValueKind};
use crate::{Error, Result};

pub use distance::DistanceCensus;
use distance::Exact;
pub use every::EVERY_MOVE_LIMIT;

/// How a table answers a position, by its kind of value: one small module a kind, chosen
/// once when the table opens ([`answerer`]).
trait Answerer: Sync {
    /// The value of a position the rules checked, and the index of its entry when it has one.
    fn answer(&self, table: &Table, position: &[u32]) -> Result<(Value, Option<u64>)>;

    /// P/N of a position inside the table, checked by the rules: the xor of a sum's parts,
    /// or the outcome of the position's entry.
    fn outcome_of(&self, table: &Table, position: &[u32]) -> Result<Outcome> {
        if let Some(g) = table.sum_grundy(position)? {
            return Ok(Outcome::from_win(g != 0));
        }
        Ok(table.outcome(table.rules.rank(position)))
    }

    /// How exact distances are read, for a table of exact distances.
    fn exact(&self) -> Option<&dyn Exact> {
        None
    }

    /// The value at an index as the C ABI gives it: the stored value.
    fn value(&self, table: &Table, index: u64) -> Result<u32> {
        Ok(table.raw(index))
    }
}

/// The answerer of a table of `kind` values stored as `encoding`; `bound`: the rules give
/// lower bounds on distances, not distances.
fn answerer(kind: ValueKind, encoding: Encoding, bound: bool) -> &'static dyn Answerer {
    match kind {
        ValueKind::Outcome | ValueKind::Grundy => &outcome::Games,
        ValueKind::Extension => &extension::Extension,
        ValueKind::Remoteness | ValueKind::Dtz => &standing::Standings,
        ValueKind::Wlt => &wlt::Wlts,
        ValueKind::Distance if bound => &distance::Bounds,
        ValueKind::Distance if encoding == Encoding::Mod3 => &mod3::Mod3,
        ValueKind::Distance => &distance::Stored,
    }
}

/// An open table: the file, its game (read from the header), and the rules to read positions.
///
/// A table of a game this program does not know (another program's game, or another version
/// of a game's rules) opens too: its values are there by index ([`Table::raw`],
/// [`Table::outcome`], `info`, `export`), and every call that must read a position says that
/// the game is not known ([`Error::UnknownGame`]).
pub struct Table {
    file: TableFile,
    spec: Option<Spec>,
    rules: Arc<dyn Rules>,
    /// Whether a position's entry is read by [`Rules::entry_index`] (a known game whose
    /// entries are positions: not an extension table, whose entries are prefixes).
    by_entry: bool,
    /// How positions are answered (by the value kind and encoding).
    answerer: &'static dyn Answerer,
}

/// The rules of a table whose game this program does not know: every position is refused
/// with why.
struct NotKnownRules(String);

// No position: the table's entries are there, but none can be named.
impl Indexed for NotKnownRules {
    fn positions(&self) -> u64 {
        0
    }
}

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
    /// A file that does not exist is refused as [`Error::NoTable`], which a front end words
    /// with what to do.
    pub fn open(path: impl AsRef<Path>) -> Result<Table> {
        let path = path.as_ref();
        let file = TableFile::open(path).map_err(|e| match e {
            Error::Io { path, source } if source.kind() == std::io::ErrorKind::NotFound => {
                Error::NoTable { path }
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
                let rules: Arc<dyn Rules> = Arc::new(NotKnownRules(why));
                return Ok(Table {
                    answerer: answerer(h.value_kind, h.encoding, rules.distance_bound().is_some()),
                    file,
                    spec: None,
                    rules,
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
        let rules = spec.view().shared_rules();
        // Distances mod 3 are answered by descent: exact distances only, not lower bounds.
        let descends = h.encoding != Encoding::Mod3 || rules.distance_bound().is_none();
        if !descends
            || Entries::new(file.payload(), h.value_kind, h.encoding, h.entry_count).is_none()
        {
            return Err(not_encodable(&file));
        }
        Ok(Table {
            by_entry: h.value_kind != ValueKind::Extension,
            answerer: answerer(h.value_kind, h.encoding, rules.distance_bound().is_some()),
            file,
            spec: Some(spec),
            rules,
        })
    }

    /// Why this program cannot read this table's positions (its game is not known), or
    /// `None` when it can.
    pub(crate) fn not_known(&self) -> Option<Error> {
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

    /// Appends the outcomes of many positions to `out`, checked against the table's bounds.
    /// A position that is not one of this table stops the work with its error (`out` then
    /// holds the outcomes of whole batches before it only).
    ///
    /// Ranks a batch of positions, then reads their entries together (see
    /// `Entries::outcomes_at`): the fastest way to look up many positions.
    pub fn outcomes_of<'a, I>(&self, positions: I, out: &mut Vec<Outcome>) -> Result<()>
    where
        I: IntoIterator<Item = &'a [u32]>,
    {
        // Extension entries are read by the game; two-player tables refuse P/N (outcome_of).
        let kind = self.value_kind();
        if kind == ValueKind::Extension || kind.is_two_player() {
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
        let (value, index) = self.answerer.answer(self, &position)?;
        Ok(Answer {
            position: self.rules.format(&position),
            numbers: position,
            index,
            value,
        })
    }

    /// The value at an index as the C ABI gives it: the stored value, except that a mod3 table
    /// answers the exact distance (by descent from the position at the index).
    pub fn value(&self, index: u64) -> Result<u32> {
        self.answerer.value(self, index)
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

    /// The entry index of the position a text writes, by the rules' fast
    /// path from text ([`Rules::text_entry_index`]); `None` when the text takes the general
    /// path (parsed, then looked up).
    #[inline]
    pub fn text_entry_index(&self, text: &str) -> Option<Result<u64>> {
        if !self.by_entry {
            return None;
        }
        let i = self.rules.text_entry_index(text)?;
        Some(if i < self.len() {
            Ok(i)
        } else {
            Err(Error::Internal(format!(
                "{}: position '{}' ranks to {i}, past the table's {} entries",
                self.file.path().display(),
                crate::answer::echo(text),
                self.len()
            )))
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

    /// P/N of a position written as numbers, checked against the table's bounds. Refused for
    /// the tables of two-player games, whose entries are not P/N (read as P/N every position
    /// would be N).
    #[inline]
    pub fn outcome_of(&self, position: &[u32]) -> Result<Outcome> {
        if self.value_kind().is_two_player() {
            return self.outcome_of_checked(position);
        }
        match self.entry_index(position) {
            Some(i) => Ok(self.outcome(i?)),
            None => self.outcome_of_checked(position),
        }
    }

    /// Win, lose, tie or draw for the player to move, with the remoteness (`None` for a
    /// draw), of a position written as numbers: the lookup of a win/lose/tie/draw table,
    /// checked as [`outcome_of`](Table::outcome_of) checks (a board no play makes is refused
    /// with why). Refused for tables of other values.
    #[inline]
    pub fn standing_of(&self, position: &[u32]) -> Result<(Standing, Option<u32>)> {
        if !self.value_kind().is_standing() {
            return Err(self.not_standings());
        }
        let i = match self.entry_index(position) {
            Some(i) => i?,
            None => self.index_of(position)?,
        };
        match crate::format::entries::standing::unpack(self.raw(i)) {
            Some((v, r)) => Ok((v, (v != Standing::Draw).then_some(r))),
            None => {
                self.rules.check(position)?;
                Err(Error::corrupt(
                    self.file.path(),
                    format!("entry {i} holds no value, but the game says it is a position"),
                ))
            }
        }
    }

    /// Win, lose or tie-or-draw for the player to move of a position written as numbers:
    /// the lookup of a wlt table, checked as [`standing_of`](Table::standing_of) checks.
    /// Refused for tables of other values (a remoteness table answers
    /// [`standing_of`](Table::standing_of)).
    #[inline]
    pub fn wlt_of(&self, position: &[u32]) -> Result<crate::model::Wlt> {
        if self.value_kind() != ValueKind::Wlt {
            return Err(Error::bad(format!(
                "{} holds {} values, not wlt values (expected a table built with --values wlt)",
                self.file.path().display(),
                self.value_kind().name()
            )));
        }
        let i = match self.entry_index(position) {
            Some(i) => i?,
            None => self.index_of(position)?,
        };
        if crate::format::entries::wlt::value(self.raw(i)).is_none() {
            self.rules.check(position)?;
        }
        wlt::read(self, i)
    }

    #[cold]
    fn not_standings(&self) -> Error {
        if self.value_kind() == ValueKind::Wlt {
            return Error::bad(format!(
                "{} holds wlt values (win, lose or tie-or-draw, no remoteness); expected a \
                 remoteness table (build it without --values wlt)",
                self.file.path().display()
            ));
        }
        Error::bad(format!(
            "{} holds {} values, not win, lose, tie or draw",
            self.file.path().display(),
            self.value_kind().name()
        ))
    }

    /// [`outcome_of`](Table::outcome_of) through the rules' check, sums and extension
    /// entries, one call at a time.
    fn outcome_of_checked(&self, position: &[u32]) -> Result<Outcome> {
        self.check_inside(position)?;
        self.answerer.outcome_of(self, position)
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
