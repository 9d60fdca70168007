//! Answers queries from an open table: outcome, Grundy value, winning moves.

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
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The position as read.
    pub position: Vec<u32>,
    /// Its index in the table.
    pub index: u64,
    /// P or N.
    pub outcome: Outcome,
    /// The Grundy value, when the table stores it.
    pub grundy: Option<u32>,
    /// Every move to a P-position, with the position it leaves.
    pub winning_moves: Vec<Move>,
}

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
        if !bits_ok {
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
        let pos = self.rules.parse(text)?;
        Ok(self.answer(pos))
    }

    /// Answers a position already checked by the rules.
    pub fn answer(&self, position: Vec<u32>) -> Answer {
        let index = self.rules.rank(&position);
        // Rank every child first, then read their entries in one tight loop, so the reads
        // (random places of a large table) overlap instead of waiting for each other.
        let mut children = Vec::new();
        self.rules.move_indices(&position, &mut children);
        let mut outcomes = Vec::with_capacity(children.len());
        self.outcomes_at(&children, &mut outcomes);
        let winning: Vec<usize> = (0..outcomes.len())
            .filter(|&k| outcomes[k] == Outcome::P)
            .collect();
        let winning_moves = if winning.is_empty() {
            Vec::new()
        } else {
            self.rules.moves_at(&position, &winning)
        };
        Answer {
            outcome: self.outcome(index),
            grundy: self.grundy(index),
            index,
            position,
            winning_moves,
        }
    }

    /// P/N of a position written as numbers, checked against the table's bounds.
    pub fn outcome_of(&self, position: &[u32]) -> Result<Outcome> {
        self.rules.check(position)?;
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
    /// One line of text: `1,2,4: N  winning: take 1 from heap 3 -> 1,2,3`.
    pub fn to_text(&self, rules: &dyn Rules) -> String {
        let mut s = format!(
            "{}: {}",
            rules.format(&self.position),
            self.outcome.as_str()
        );
        if let Some(g) = self.grundy {
            s += &format!("  grundy {g}");
        }
        if !self.winning_moves.is_empty() {
            let moves: Vec<String> = self
                .winning_moves
                .iter()
                .map(|m| format!("{} -> {}", m.label, rules.format(&m.leaves)))
                .collect();
            s += &format!("  winning: {}", moves.join("; "));
        }
        s
    }

    /// One JSON object with keys `position`, `outcome`, `winning_moves` and, when stored,
    /// `grundy`.
    pub fn to_json(&self, rules: &dyn Rules) -> String {
        let moves = json::array(self.winning_moves.iter().map(|m| {
            json::Object::new()
                .str("move", &m.label)
                .str("leaves", &rules.format(&m.leaves))
                .finish()
        }));
        let mut o = json::Object::new()
            .str("position", &rules.format(&self.position))
            .str("outcome", self.outcome.as_str());
        if let Some(g) = self.grundy {
            o = o.num("grundy", g);
        }
        o.raw("winning_moves", &moves).finish()
    }
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
                let answer = t.answer(pos.clone());
                assert_eq!(answer.winning_moves, plain, "{pos:?}");
                if !rules.moves(pos).is_empty() {
                    // Terminal positions get their value from the rules (misère, candy).
                    assert_eq!(answer.outcome == Outcome::N, !plain.is_empty(), "{pos:?}");
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
