//! `gamedb info`: a table's header, its checksum status, its counts (P/N positions, positions
//! at each distance, or two-player positions by value) and the game's own facts.

use serde::Serialize;

use crate::format::entries::{standing, wlt};
use crate::game::Fact;
use crate::lookup::Table;
use crate::model::{Standing, ValueKind, Wdl50, Wlt};

/// Positions listed as the farthest from the goal when there are at most this many.
pub(crate) const ANTIPODES_LISTED: usize = 20;

/// What `gamedb info` says about a table. JSON keys in this order: `file`, `game`,
/// `description`, `parameters`, `rules_version`, `known`, `format_version`, `values`, `encoding`, `entries`,
/// `payload_offset`, `payload_len`, `payload_xxh3`, `checksum` (`ok`/`mismatch`),
/// `crate_version`, the counts, then one key per game-specific fact.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(not(fuzzing), allow(unreachable_pub))] // pub for `gamedb::fuzzing`
pub struct Info {
    /// The file as named on the command line.
    pub(crate) file: String,
    /// The game's name as the header gives it.
    pub(crate) game: String,
    /// The game and parameters for people.
    pub(crate) description: String,
    /// The parameters as the header gives them.
    pub(crate) parameters: String,
    /// The version of the game's rules the table was solved under.
    pub(crate) rules_version: u32,
    /// Whether this program knows the game (answers its positions).
    pub(crate) known: bool,
    /// The format version.
    pub(crate) format_version: u32,
    /// The value kind's name.
    pub(crate) values: &'static str,
    /// The encoding's name.
    pub(crate) encoding: &'static str,
    /// Number of entries.
    pub(crate) entries: u64,
    /// Where the payload starts.
    pub(crate) payload_offset: u64,
    /// Payload bytes.
    pub(crate) payload_len: u64,
    /// The payload checksum in the header, in hex.
    pub(crate) payload_xxh3: String,
    /// `ok` when the payload hashes to it, `mismatch` otherwise.
    pub(crate) checksum: &'static str,
    /// The gamedb that wrote the file.
    pub(crate) crate_version: String,
    /// The counts.
    #[serde(flatten)]
    pub(crate) counts: Counts,
    /// The game's facts by key (see [`Fact`]).
    #[serde(flatten)]
    pub(crate) fact_values: serde_json::Map<String, serde_json::Value>,
    /// The game's facts for people.
    #[serde(skip)]
    pub(crate) facts: Vec<Fact>,
}

/// The counts of a table, by value kind.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum Counts {
    /// Outcome and Grundy tables.
    Outcomes {
        /// P-positions.
        p_positions: u64,
        /// N-positions.
        n_positions: u64,
        /// Grundy tables: `grundy_counts[g]`, the positions of value `g`, up to the largest.
        #[serde(skip_serializing_if = "Option::is_none")]
        grundy_counts: Option<Vec<u64>>,
        /// Grundy tables: the largest value.
        #[serde(skip_serializing_if = "Option::is_none")]
        max_grundy: Option<u32>,
    },
    /// Extension tables (three-rowed Chomp): each prefix stands for every position that
    /// extends it, of which at most one is P.
    Extensions {
        /// P-positions: the prefixes that have one.
        p_positions: u64,
        /// Prefixes none of whose positions is P.
        prefixes_without_p: u64,
    },
    /// Win/lose/tie/draw tables of two-player games.
    Standings {
        /// Legal positions by their value for the player to move.
        positions: ByValue,
        /// Indices that are no legal position (marked, never given a value).
        no_position: u64,
        /// For a game with a start: the positions reachable from it, by value (a position
        /// won by the player who just moved counts as `lose`, for the player to move).
        #[serde(skip_serializing_if = "Option::is_none")]
        reachable: Option<ByValue>,
        /// Of those, the positions where the game is over.
        #[serde(skip_serializing_if = "Option::is_none")]
        reachable_over: Option<u64>,
        /// The start's value and remoteness.
        #[serde(skip_serializing_if = "Option::is_none")]
        start: Option<StartValue>,
        /// The largest remoteness of any position (in a dtz table, distance to zeroing).
        max_remoteness: u32,
        /// In a dtz table: the positions by their class under the 50-move rule.
        #[serde(skip_serializing_if = "Option::is_none")]
        wdl50: Option<Wdl50Counts>,
    },
    /// Wlt tables of two-player games: two bits a position, no remoteness, no reachability.
    Wlts {
        /// Legal positions by their value for the player to move.
        positions: WltCounts,
        /// Indices that are no legal position.
        no_position: u64,
        /// The start's value, for a game with a start.
        #[serde(skip_serializing_if = "Option::is_none")]
        start: Option<WltStart>,
        /// Always false: a wlt table keeps no remoteness (`gamedb play` needs it).
        keeps_remoteness: bool,
        /// Always false: a wlt table does not mark what the start reaches.
        keeps_reachability: bool,
    },
    /// Distance tables.
    Distances {
        /// A mod3 table (which stores no whole distances; `distance_counts` is then empty):
        /// entries at distances ≡ 0, 1, 2 (mod 3).
        #[serde(skip_serializing_if = "Option::is_none")]
        distance_residues: Option<[u64; 3]>,
        /// `distance_counts[d]`: entries at distance `d`.
        distance_counts: Vec<u64>,
        /// The largest distance present.
        max_distance: Option<u32>,
        /// Entries at the largest distance.
        antipode_count: u64,
        /// Those positions, when there are at most [`ANTIPODES_LISTED`].
        #[serde(skip_serializing_if = "Option::is_none")]
        antipodes: Option<Vec<String>>,
        /// Entries marked unreachable.
        unreached: u64,
        /// For tables of lower bounds: what an entry counts.
        #[serde(skip_serializing_if = "Option::is_none")]
        lower_bounds_of: Option<String>,
    },
}

/// Counts of positions by value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct ByValue {
    /// Won for the player to move.
    pub win: u64,
    /// Lost for the player to move.
    pub lose: u64,
    /// Tied.
    pub tie: u64,
    /// Drawn (play goes on forever).
    pub draw: u64,
}

impl ByValue {
    fn add(&mut self, v: Standing, n: u64) {
        match v {
            Standing::Win => self.win += n,
            Standing::Lose => self.lose += n,
            Standing::Tie => self.tie += n,
            Standing::Draw => self.draw += n,
        }
    }

    fn total(&self) -> u64 {
        self.win + self.lose + self.tie + self.draw
    }

    fn text(&self) -> String {
        format!(
            "{} (win {}, lose {}, tie {}, draw {})",
            self.total(),
            self.win,
            self.lose,
            self.tie,
            self.draw
        )
    }
}

/// Counts of positions of a wlt table by value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct WltCounts {
    /// Won for the player to move.
    pub win: u64,
    /// Lost for the player to move.
    pub lose: u64,
    /// Tied or drawn (two bits cannot tell which).
    pub tie_or_draw: u64,
}

/// The value of a game's start in a wlt table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct WltStart {
    /// The start as positions are written.
    pub position: String,
    /// Its value for the player to move.
    pub value: Wlt,
}

/// The counts of a wlt table, from the histogram of its codes.
fn wlts(table: &Table) -> Counts {
    let mut counts = table.entries().histogram();
    counts.resize(4, 0);
    let at = |v: Wlt| counts[wlt::code(v) as usize];
    let rules = table.rules();
    let start = rules.start().and_then(|pos| {
        let i = table.index_of(&pos).ok()?;
        Some(WltStart {
            position: rules.format(&pos),
            value: wlt::value(table.raw(i))?,
        })
    });
    Counts::Wlts {
        positions: WltCounts {
            win: at(Wlt::Win),
            lose: at(Wlt::Lose),
            tie_or_draw: at(Wlt::TieOrDraw),
        },
        no_position: counts[wlt::ILLEGAL as usize],
        start,
        keeps_remoteness: false,
        keeps_reachability: false,
    }
}

/// The value of a game's start.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct StartValue {
    /// The start as positions are written.
    pub position: String,
    /// Its value for the player to move.
    pub value: Standing,
    /// Its remoteness (`None` for a draw).
    pub remoteness: Option<u32>,
}

/// Positions of a dtz table by their class under the 50-move rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Wdl50Counts {
    /// Won within the count.
    pub win: u64,
    /// Won, but the count runs out first.
    pub cursed_win: u64,
    /// Drawn.
    pub draw: u64,
    /// Lost, but the count runs out first.
    pub blessed_loss: u64,
    /// Lost within the count.
    pub loss: u64,
}

/// The counts of a win/lose/tie/draw table, from the histogram of its entries.
fn standings(table: &Table) -> Counts {
    let counts = table.entries().histogram();
    let mut wdl50 = (table.value_kind() == ValueKind::Dtz).then(Wdl50Counts::default);
    let (mut positions, mut reachable, mut over) = (ByValue::default(), ByValue::default(), 0);
    let (mut no_position, mut max_remoteness) = (0, 0);
    for (entry, &n) in counts.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let entry = entry as u32;
        let Some((v, r)) = standing::unpack(entry) else {
            no_position += n;
            continue;
        };
        positions.add(v, n);
        max_remoteness = max_remoteness.max(r);
        if let Some(c) = wdl50.as_mut() {
            *match Wdl50::of(v, r) {
                Wdl50::Win => &mut c.win,
                Wdl50::CursedWin => &mut c.cursed_win,
                Wdl50::Draw => &mut c.draw,
                Wdl50::BlessedLoss => &mut c.blessed_loss,
                Wdl50::Loss => &mut c.loss,
            } += n;
        }
        if standing::reachable(entry) {
            reachable.add(v, n);
            if r == 0 && v != Standing::Draw {
                over += n;
            }
        }
    }
    let rules = table.rules();
    let start = rules.start().and_then(|pos| {
        let i = table.index_of(&pos).ok()?;
        let (value, r) = standing::unpack(table.raw(i))?;
        Some(StartValue {
            position: rules.format(&pos),
            value,
            remoteness: (value != Standing::Draw).then_some(r),
        })
    });
    Counts::Standings {
        positions,
        no_position,
        reachable_over: start.is_some().then_some(over),
        reachable: start.is_some().then_some(reachable),
        start,
        max_remoteness,
        wdl50,
    }
}

impl Info {
    /// Reads everything `info` shows; `file` is the name to show. The payload checksum is
    /// checked (every byte read): see [`Info::checksum`].
    #[cfg_attr(not(fuzzing), allow(unreachable_pub))] // pub for `gamedb::fuzzing`
    pub fn of(table: &Table, file: &str) -> Info {
        let h = table.file().header();
        let rules = table.rules();
        let counts = if h.value_kind.is_standing() {
            standings(table)
        } else if h.value_kind == ValueKind::Wlt {
            wlts(table)
        } else if h.value_kind == ValueKind::Distance {
            let d = table.distance_census(ANTIPODES_LISTED);
            Counts::Distances {
                distance_residues: d.residues,
                max_distance: d.max_distance(),
                antipode_count: d.antipode_count,
                antipodes: (table.spec().is_some()
                    && d.residues.is_none()
                    && d.antipode_count as usize <= ANTIPODES_LISTED)
                    .then(|| {
                        d.antipodes
                            .iter()
                            .map(|&i| rules.format(&rules.unrank(i)))
                            .collect()
                    }),
                unreached: d.unreached,
                lower_bounds_of: rules.distance_bound(),
                distance_counts: d.counts,
            }
        } else if h.value_kind == ValueKind::Grundy {
            let mut counts = table.entries().histogram();
            while counts.len() > 1 && counts.last() == Some(&0) {
                counts.pop();
            }
            let p = counts.first().copied().unwrap_or(0);
            Counts::Outcomes {
                p_positions: p,
                n_positions: table.len() - p,
                max_grundy: Some(counts.len().saturating_sub(1) as u32),
                grundy_counts: Some(counts),
            }
        } else if h.value_kind == ValueKind::Extension {
            let p = table.p_positions();
            Counts::Extensions {
                p_positions: p,
                prefixes_without_p: table.len() - p,
            }
        } else {
            let p = table.count_p();
            Counts::Outcomes {
                p_positions: p,
                n_positions: table.len() - p,
                grundy_counts: None,
                max_grundy: None,
            }
        };
        let facts = table.facts();
        Info {
            file: file.to_string(),
            game: h.game.clone(),
            description: match table.spec() {
                Some(spec) => spec.describe().to_string(),
                None => table.describe(),
            },
            parameters: h.parameters.clone(),
            rules_version: h.rules_version,
            known: table.spec().is_some(),
            format_version: h.format_version,
            values: h.value_kind.name(),
            encoding: h.encoding.name(),
            entries: h.entry_count,
            payload_offset: h.payload_offset,
            payload_len: h.payload_len,
            payload_xxh3: format!("{:016x}", h.payload_xxh3),
            checksum: if table.verify().is_ok() {
                "ok"
            } else {
                "mismatch"
            },
            crate_version: h.crate_version.clone(),
            counts,
            fact_values: facts
                .iter()
                .map(|f| (f.key.clone(), f.json.clone()))
                .collect(),
            facts,
        }
    }

    /// Whether the payload hashes to the header's checksum.
    pub(crate) fn checksum_ok(&self) -> bool {
        self.checksum == "ok"
    }

    /// One JSON object on one line.
    #[cfg_attr(not(fuzzing), allow(unreachable_pub))] // pub for `gamedb::fuzzing`
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Aligned lines for people.
    pub(crate) fn to_text(&self) -> String {
        let mut lines = self.header_lines();
        counts_lines(&self.counts, &mut lines);
        for f in &self.facts {
            lines.push(format!("{}:", f.label));
            for l in f.text.lines() {
                lines.push(format!("  {l}"));
            }
        }
        lines.join("\n")
    }

    /// The header and the checksum, a line each.
    fn header_lines(&self) -> Vec<String> {
        vec![
            format!("file:            {}", self.file),
            format!("game:            {}", self.description),
            format!(
                "identity:        {} {} (rules version {}){}",
                self.game,
                self.parameters,
                self.rules_version,
                if self.known {
                    ""
                } else {
                    "; not known to this build: values by index only"
                }
            ),
            format!(
                "format:          version {}, {} values as {}",
                self.format_version, self.values, self.encoding
            ),
            format!("entries:         {}", self.entries),
            format!(
                "payload:         {} bytes at offset {}",
                self.payload_len, self.payload_offset
            ),
            format!(
                "checksum:        xxh3-64 {} {}",
                self.payload_xxh3,
                if self.checksum_ok() { "OK" } else { "MISMATCH" }
            ),
            format!("written by:      gamedb {}", self.crate_version),
        ]
    }
}

/// The counts for people, a line each, appended to `out`.
fn counts_lines(counts: &Counts, out: &mut Vec<String>) {
    match counts {
        Counts::Distances {
            distance_residues,
            distance_counts,
            max_distance,
            antipode_count,
            antipodes,
            unreached,
            lower_bounds_of,
        } => {
            distance_lines(
                out,
                distance_residues,
                lower_bounds_of,
                distance_counts,
                *unreached,
            );
            if let Some(m) = max_distance {
                antipode_lines(out, *m, *antipode_count, antipodes);
            }
        }
        Counts::Outcomes {
            p_positions,
            n_positions,
            grundy_counts,
            max_grundy,
        } => outcome_lines(out, *p_positions, *n_positions, grundy_counts, max_grundy),
        Counts::Standings {
            positions,
            no_position,
            reachable,
            reachable_over,
            start,
            max_remoteness,
            wdl50,
        } => {
            standing_lines(
                out,
                positions,
                *no_position,
                reachable,
                reachable_over,
                start,
            );
            remoteness_lines(out, *max_remoteness, wdl50);
        }
        Counts::Wlts {
            positions,
            no_position,
            start,
            ..
        } => wlt_lines(out, positions, *no_position, start),
        Counts::Extensions {
            p_positions,
            prefixes_without_p,
        } => {
            out.push(format!("P-positions:     {p_positions} (one per prefix that has one; every other position is N)"));
            out.push(format!(
                "prefixes without a P-position: {prefixes_without_p}"
            ));
        }
    }
}

/// An outcome table's P- and N-positions, and a Grundy table's positions at each value.
fn outcome_lines(
    out: &mut Vec<String>,
    p_positions: u64,
    n_positions: u64,
    grundy_counts: &Option<Vec<u64>>,
    max_grundy: &Option<u32>,
) {
    out.push(format!("P-positions:     {p_positions}"));
    out.push(format!("N-positions:     {n_positions}"));
    if let (Some(counts), Some(m)) = (grundy_counts, max_grundy) {
        out.push(format!("largest Grundy value: {m}"));
        out.push("positions at each Grundy value:".into());
        for (g, count) in counts.iter().enumerate() {
            out.push(format!("  {g:>5} {count:>14}"));
        }
    }
}

/// A two-player table's largest remoteness; a dtz table's, its distance to zeroing, with its
/// positions by their class under the 50-move rule.
fn remoteness_lines(out: &mut Vec<String>, max_remoteness: u32, wdl50: &Option<Wdl50Counts>) {
    match wdl50 {
        Some(c) => {
            out.push(format!(
                "50-move rule:    win {}, cursed win {}, draw {}, blessed loss {}, loss {}",
                c.win, c.cursed_win, c.draw, c.blessed_loss, c.loss
            ));
            out.push(format!("max dtz:         {max_remoteness}"));
        }
        None => out.push(format!("max remoteness:  {max_remoteness}")),
    }
}

/// A distance table's counts: what its entries are, how many at each distance, and how many
/// unreached.
fn distance_lines(
    out: &mut Vec<String>,
    distance_residues: &Option<[u64; 3]>,
    lower_bounds_of: &Option<String>,
    distance_counts: &[u64],
    unreached: u64,
) {
    if let Some([r0, r1, r2]) = distance_residues {
        out.push(format!(
            "distances mod 3: ≡ 0: {r0}, ≡ 1: {r1}, ≡ 2: {r2} (each distance is found \
             by descent to the goal; `gamedb enumerate` reports the counts per depth)"
        ));
    } else if let Some(what) = lower_bounds_of {
        // A pattern database: entries are placements and their values lower bounds.
        out.push(format!("values:          {what}"));
        out.push("placements at each value:".into());
    } else {
        out.push("positions at each distance:".into());
    }
    for (dist, count) in distance_counts.iter().enumerate() {
        out.push(format!("  {dist:>4} {count:>14}"));
    }
    if unreached > 0 {
        let marker = match distance_residues {
            Some(_) => format!("code {}", crate::format::entries::mod3::UNREACHED),
            None => format!("value {}", crate::format::entries::UNREACHED),
        };
        out.push(format!("unreached:       {unreached} ({marker})"));
    }
}

/// The largest distance `m` and the positions at it, listed when there are few.
fn antipode_lines(
    out: &mut Vec<String>,
    m: u32,
    antipode_count: u64,
    antipodes: &Option<Vec<String>>,
) {
    out.push(format!("max distance:    {m}"));
    match antipodes {
        Some(list) => {
            out.push(format!("antipodes:       {antipode_count} at distance {m}:"));
            for a in list {
                out.push(format!("  {a}"));
            }
        }
        None => out.push(format!(
            "antipodes:       {antipode_count} at distance {m} (more than {ANTIPODES_LISTED}, not listed)"
        )),
    }
}

/// A two-player table's positions by value, those reachable from the start, and the start's
/// value.
fn standing_lines(
    out: &mut Vec<String>,
    positions: &ByValue,
    no_position: u64,
    reachable: &Option<ByValue>,
    reachable_over: &Option<u64>,
    start: &Option<StartValue>,
) {
    out.push(format!("positions:       {}", positions.text()));
    out.push(format!(
        "no position:     {no_position} (indices marked, never given a value)"
    ));
    if let (Some(r), Some(over)) = (reachable, reachable_over) {
        out.push(format!(
            "reachable:       {}, the game over in {over}",
            r.text()
        ));
    }
    if let Some(s) = start {
        out.push(format!(
            "start:           {}: {}",
            s.position,
            s.value.text(s.remoteness)
        ));
    }
}

/// A wlt table's positions by value, the start's value, and what the table does not keep.
fn wlt_lines(out: &mut Vec<String>, p: &WltCounts, no_position: u64, start: &Option<WltStart>) {
    out.push(format!(
        "positions:       {} (win {}, lose {}, tie or draw {})",
        p.win + p.lose + p.tie_or_draw,
        p.win,
        p.lose,
        p.tie_or_draw
    ));
    out.push(format!(
        "no position:     {no_position} (indices marked, never given a value)"
    ));
    if let Some(s) = start {
        out.push(format!(
            "start:           {}: {}",
            s.position,
            s.value.text()
        ));
    }
    out.push(
        "kept:            the value alone: no remoteness, no reachability, and a tie \
         and a draw are one value"
            .into(),
    );
}
