//! What the solvers see of a game ([`Game`], optionally [`Retro`]) and what they produce:
//! outcomes, value kinds and the solved values of every position ([`Solved`]). Below the
//! solvers, which use it, and so below the rest of the trait family, which uses the solvers
//! ([`super::GameSpec`] solves through them, [`super::conformance`] checks games with them).

use std::ops::{ControlFlow, Range};

use serde::Serialize;

/// The outcome of a position for the player about to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Outcome {
    /// The player to move loses with best play (previous player wins).
    P,
    /// The player to move wins with best play (next player wins).
    N,
}

impl Outcome {
    /// "P" or "N".
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::P => "P",
            Outcome::N => "N",
        }
    }

    /// N when `wins` is true.
    pub fn from_win(wins: bool) -> Outcome {
        if wins {
            Outcome::N
        } else {
            Outcome::P
        }
    }
}

/// What the values of a table mean. Non-exhaustive: a new kind of game may bring a new kind
/// of value (as three-rowed Chomp brought `Extension`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValueKind {
    /// P/N for the player to move.
    Outcome = 1,
    /// Sprague–Grundy value (0 means P).
    Grundy = 2,
    /// Distance in moves to the goal.
    Distance = 3,
    /// For games whose positions are a *prefix* (stored) and one unbounded number (not
    /// stored), where at most one value of the number makes a position P: per prefix, which
    /// value that is (0 none, else 1 + its offset from the smallest allowed value; the game
    /// says what the offset counts). Three-rowed Chomp stores `f(q, r)` this way.
    Extension = 4,
    /// For two-player games with ties and draws: win, lose, tie or draw for the player to
    /// move, with the remoteness (plies to the end with best play), packed as [`standing`]
    /// says; an index that is no legal position is marked as such.
    Remoteness = 5,
    /// For two-player games too large for a byte a position: win, lose, or tie-or-draw for
    /// the player to move, two bits a position (the code of [`wlt`]). A tie and a draw cannot
    /// be told apart, and the table keeps no remoteness and no reachability.
    Wlt = 6,
    /// For two-player games with a move counter that captures and pawn moves reset (chess's
    /// 50-move rule): win, lose, tie or draw for the player to move with the distance in
    /// plies to the next reset (DTZ, as Syzygy tables count it), packed as [`standing`] packs
    /// remoteness. A move out of a tier resets the count: the child then counts only as won
    /// or lost within [`ZEROING_PLIES`] (distance 0) or beyond it (distance
    /// [`ZEROING_PLIES`]), so a distance over [`ZEROING_PLIES`] is a cursed win or a blessed
    /// loss (the 50-move rule draws it).
    Dtz = 7,
}

/// The plies a counter of [`ValueKind::Dtz`] may run: 100, the 50-move rule's fifty moves of
/// each side.
pub const ZEROING_PLIES: u32 = 100;

/// What a child's [`ValueKind::Dtz`] entry counts for across a move that resets the counter:
/// its class alone, as the distance 0 for a win or lose within [`ZEROING_PLIES`] and
/// [`ZEROING_PLIES`] beyond (a cursed win, a blessed loss), so that the mover's distance is 1
/// or 101, as Syzygy counts them; 0 for a tie or draw.
#[inline]
pub fn after_reset(value: Standing, distance: u32) -> u32 {
    match value {
        Standing::Win | Standing::Lose if distance > ZEROING_PLIES => ZEROING_PLIES,
        _ => 0,
    }
}

/// The value of a position under a move counter ([`ValueKind::Dtz`]), for the player to move,
/// as Syzygy names them: a win within the counter, a cursed win (won, but the counter runs out
/// first), a draw, a blessed loss, a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Wdl50 {
    /// Lost within the counter: the opponent forces a reset or mate in time.
    Loss,
    /// Lost, but the counter runs out first.
    BlessedLoss,
    /// Drawn however the counter stands.
    Draw,
    /// Won, but the counter runs out first.
    CursedWin,
    /// Won within the counter.
    Win,
}

impl Wdl50 {
    /// The class of a [`ValueKind::Dtz`] entry's value and distance to the reset; a tie (the
    /// game ends drawn) is a draw.
    pub fn of(value: Standing, dtz: u32) -> Wdl50 {
        match value {
            Standing::Win if dtz <= ZEROING_PLIES => Wdl50::Win,
            Standing::Win => Wdl50::CursedWin,
            Standing::Lose if dtz <= ZEROING_PLIES => Wdl50::Loss,
            Standing::Lose => Wdl50::BlessedLoss,
            Standing::Tie | Standing::Draw => Wdl50::Draw,
        }
    }

    /// Syzygy's number of the class: -2 (loss) to 2 (win).
    pub fn signed(self) -> i32 {
        self as i32 - 2
    }

    /// The signed distance to the reset, Syzygy's DTZ: positive for a win, negative for a
    /// loss, 0 for a draw.
    pub fn dtz(value: Standing, dtz: u32) -> i32 {
        match value {
            Standing::Win => dtz as i32,
            Standing::Lose => -(dtz as i32),
            Standing::Tie | Standing::Draw => 0,
        }
    }

    /// The words for it: `win`, `cursed win`, `draw`, `blessed loss`, `loss`.
    pub fn words(self) -> &'static str {
        match self {
            Wdl50::Loss => "loss",
            Wdl50::BlessedLoss => "blessed loss",
            Wdl50::Draw => "draw",
            Wdl50::CursedWin => "cursed win",
            Wdl50::Win => "win",
        }
    }
}

impl ValueKind {
    /// Every kind, in the order of their codes.
    pub const ALL: [ValueKind; 7] = [
        ValueKind::Outcome,
        ValueKind::Grundy,
        ValueKind::Distance,
        ValueKind::Extension,
        ValueKind::Remoteness,
        ValueKind::Wlt,
        ValueKind::Dtz,
    ];

    /// The kind stored as `code` in table headers.
    pub fn from_code(code: u32) -> Option<ValueKind> {
        ValueKind::ALL.into_iter().find(|k| *k as u32 == code)
    }

    /// Lower-case name used in `info` and file names.
    pub fn name(self) -> &'static str {
        match self {
            ValueKind::Outcome => "outcome",
            ValueKind::Grundy => "grundy",
            ValueKind::Distance => "distance",
            ValueKind::Extension => "extension",
            ValueKind::Remoteness => "remoteness",
            ValueKind::Wlt => "wlt",
            ValueKind::Dtz => "dtz",
        }
    }

    /// Whether entries are [`standing`] entries: a value with its remoteness (or, for
    /// [`ValueKind::Dtz`], its distance to the counter's reset).
    pub fn is_standing(self) -> bool {
        matches!(self, ValueKind::Remoteness | ValueKind::Dtz)
    }

    /// Whether the kind holds values of a two-player game (win, lose, tie or draw, with or
    /// without a distance), which are not P/N.
    pub fn is_two_player(self) -> bool {
        matches!(
            self,
            ValueKind::Remoteness | ValueKind::Wlt | ValueKind::Dtz
        )
    }
}

/// A distance entry that was never reached (no path to the goal). Distances are one byte
/// each, so the largest distance a table holds is 254. The format module stores it as is.
pub const UNREACHED: u8 = u8::MAX;

/// Distances kept modulo 3 in two bits, for puzzles too large for a byte per position (the
/// breadth-first engine of `crate::solve::spread` stores them; the format module packs them
/// four a byte, see `format::payload`).
///
/// A code is 0 for a position not reached, `1 + d mod 3` for a position at distance `d`. On a
/// puzzle whose moves change the distance by exactly one (a bipartite graph), the neighbours
/// one step closer to the goal are exactly those whose code is [`mod3::closer`]: lookups
/// recover the exact distance and every optimal move by descending to the goal.
pub mod mod3 {
    /// The code of a position not reached (zeroed memory is "nothing reached").
    pub const UNREACHED: u8 = 0;

    /// The code of a position at distance `d`.
    #[inline]
    pub fn code(d: u32) -> u8 {
        (d % 3) as u8 + 1
    }

    /// The code of a neighbour one step closer to the goal than a position holding `code`
    /// (1 → 3, 2 → 1, 3 → 2).
    #[inline]
    pub fn closer(code: u8) -> u8 {
        (code + 1) % 3 + 1
    }
}

/// The value of a position of a two-player game with ties and draws, for the player to move
/// (Zermelo: exactly one of the four holds for every position of a finite game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Standing {
    /// The player to move loses against best play, in the most plies the loser can last.
    Lose,
    /// The game ends drawn (a full board), in the fewest plies both sides playing for it.
    Tie,
    /// Neither side can force an end: play goes on forever.
    Draw,
    /// The player to move wins, in the fewest plies the winner can force.
    Win,
}

impl Standing {
    /// Every value.
    pub const ALL: [Standing; 4] = [Standing::Win, Standing::Lose, Standing::Tie, Standing::Draw];

    /// `win`, `lose`, `tie` or `draw`.
    pub fn as_str(self) -> &'static str {
        match self {
            Standing::Win => "win",
            Standing::Lose => "lose",
            Standing::Tie => "tie",
            Standing::Draw => "draw",
        }
    }

    /// In words, with the remoteness (`None` for a draw): `win in 7`, `tie in 9`, `lose (the
    /// game is over)` at remoteness 0, `draw`.
    pub fn text(self, remoteness: Option<u32>) -> String {
        match (self, remoteness) {
            (Standing::Draw, _) | (_, None) => self.as_str().to_string(),
            (_, Some(0)) => format!("{} (the game is over)", self.as_str()),
            (_, Some(r)) => format!("{} in {r}", self.as_str()),
        }
    }

    /// The value for the other player: a move to a position that is `lose` for the opponent
    /// wins, and so on.
    pub fn flip(self) -> Standing {
        match self {
            Standing::Win => Standing::Lose,
            Standing::Lose => Standing::Win,
            other => other,
        }
    }
}

/// How a [`ValueKind::Remoteness`] entry packs a position's value, in one byte or two
/// (`format::payload` stores them as they are):
/// * bits 0–2, the code: 0 for an index that is no legal position (zeroed memory is "no
///   position"), 1 lose, 2 win, 3 tie, 4 draw;
/// * bit 3: the position is reachable from the game's start;
/// * bits 4 and up: the remoteness (0 for a draw): at most 15 in a byte table, 4095 in two.
pub mod standing {
    use crate::game::model::Standing;

    /// The entry of an index that is no legal position.
    pub const ILLEGAL: u16 = 0;
    /// The bit of a position reachable from the start.
    pub const REACHABLE: u16 = 1 << 3;
    /// The largest remoteness an entry holds.
    pub const MAX_REMOTENESS: u32 = (u16::MAX >> 4) as u32;
    /// The largest remoteness a one-byte entry holds.
    pub const MAX_BYTE_REMOTENESS: u32 = 15;

    /// The entry of a legal position (not yet marked reachable).
    #[inline]
    pub fn pack(value: Standing, remoteness: u32) -> u16 {
        let code = match value {
            Standing::Lose => 1,
            Standing::Win => 2,
            Standing::Tie => 3,
            Standing::Draw => 4,
        };
        ((remoteness.min(MAX_REMOTENESS) as u16) << 4) | code
    }

    /// The value and remoteness of an entry; `None` for no legal position (or a code no
    /// table writes).
    #[inline]
    pub fn unpack(entry: u32) -> Option<(Standing, u32)> {
        let value = match entry & 7 {
            1 => Standing::Lose,
            2 => Standing::Win,
            3 => Standing::Tie,
            4 => Standing::Draw,
            _ => return None,
        };
        Some((value, entry >> 4))
    }

    /// Whether an entry is marked reachable from the start.
    #[inline]
    pub fn reachable(entry: u32) -> bool {
        entry & REACHABLE as u32 != 0
    }
}

/// The value of a position of a two-player game as a [`ValueKind::Wlt`] table keeps it, for
/// the player to move: a [`Standing`] without its remoteness, tie and draw made one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Wlt {
    /// The player to move loses against best play.
    #[serde(rename = "lose")]
    Lose,
    /// Neither side can force a win: the game ends in a tie (a full board) or goes on forever
    /// (a draw); two bits cannot tell which.
    #[serde(rename = "tie-or-draw")]
    TieOrDraw,
    /// The player to move wins against best play.
    #[serde(rename = "win")]
    Win,
}

impl Wlt {
    /// Every value.
    pub const ALL: [Wlt; 3] = [Wlt::Win, Wlt::Lose, Wlt::TieOrDraw];

    /// `win`, `lose` or `tie-or-draw` (the JSON names).
    pub fn as_str(self) -> &'static str {
        match self {
            Wlt::Win => "win",
            Wlt::Lose => "lose",
            Wlt::TieOrDraw => "tie-or-draw",
        }
    }

    /// In words: `win`, `lose`, `tie or draw`.
    pub fn text(self) -> &'static str {
        match self {
            Wlt::TieOrDraw => "tie or draw",
            other => other.as_str(),
        }
    }

    /// The value for the other player.
    pub fn flip(self) -> Wlt {
        match self {
            Wlt::Win => Wlt::Lose,
            Wlt::Lose => Wlt::Win,
            Wlt::TieOrDraw => Wlt::TieOrDraw,
        }
    }
}

impl From<Standing> for Wlt {
    fn from(s: Standing) -> Wlt {
        match s {
            Standing::Win => Wlt::Win,
            Standing::Lose => Wlt::Lose,
            Standing::Tie | Standing::Draw => Wlt::TieOrDraw,
        }
    }
}

/// How a [`ValueKind::Wlt`] entry codes a position's value in two bits (`format::payload`
/// packs them four a byte): 0 for an index that is no legal position, 1 lose, 2 win, 3 tie
/// or draw. Codes 1 and 2 are those of [`standing`]: a standing entry's code `c` becomes
/// `min(c, 3)`.
pub mod wlt {
    use crate::game::model::{standing, Wlt};

    /// The code of an index that is no legal position.
    pub const ILLEGAL: u8 = 0;

    /// The code of a value.
    #[inline]
    pub fn code(value: Wlt) -> u8 {
        match value {
            Wlt::Lose => 1,
            Wlt::Win => 2,
            Wlt::TieOrDraw => 3,
        }
    }

    /// The value of a code; `None` for no legal position.
    #[inline]
    pub fn value(code: u32) -> Option<Wlt> {
        match code {
            1 => Some(Wlt::Lose),
            2 => Some(Wlt::Win),
            3 => Some(Wlt::TieOrDraw),
            _ => None,
        }
    }

    /// The code of a [`standing`] entry (no legal position stays 0).
    #[inline]
    pub fn of_standing(entry: u16) -> u8 {
        standing::unpack(entry as u32).map_or(ILLEGAL, |(v, _)| code(v.into()))
    }

    /// The codes of `entries` ([`standing`] entries, in index order), four a byte: entry `i`
    /// in bits `2(i % 4)`, `2(i % 4) + 1` of byte `i / 4`; the unused codes of the last byte
    /// are 0. Parallel, the same bytes at any thread count.
    pub fn pack(entries: &[u16]) -> Vec<u8> {
        let mut out = vec![0; entries.len().div_ceil(4)];
        pack_into(entries, &mut out);
        out
    }

    /// [`pack`] into `out`, which holds `entries.len().div_ceil(4)` bytes.
    pub fn pack_into(entries: &[u16], out: &mut [u8]) {
        use rayon::prelude::*;
        debug_assert_eq!(out.len(), entries.len().div_ceil(4));
        out.par_iter_mut()
            .zip(entries.par_chunks(4))
            .for_each(|(byte, four)| {
                *byte = four
                    .iter()
                    .enumerate()
                    .fold(0u8, |b, (k, &e)| b | of_standing(e) << (2 * k))
            });
    }
}

/// The values a solver produced for every position of a game, in index order: what
/// [`GameSpec::solve`](super::GameSpec::solve) returns and the format module encodes into a
/// table's payload. Non-exhaustive: it grows with [`ValueKind`].
#[derive(Debug)]
#[non_exhaustive]
pub enum Solved {
    /// P/N bits, 1 = N: position `i` is bit `i % 8` of byte `i / 8`.
    Outcomes {
        /// `len.div_ceil(8)` bytes.
        bits: Vec<u8>,
        /// Number of positions.
        len: u64,
    },
    /// Sprague–Grundy values.
    Grundy(Vec<u16>),
    /// Sprague–Grundy values that all fit in a byte, one byte each (stored as they are: a
    /// solver that keeps bytes hands them over without a copy).
    GrundyBytes(Vec<u8>),
    /// Distances to the goal, [`UNREACHED`] where the goal cannot be reached.
    Distances(Vec<u8>),
    /// Extension values ([`ValueKind::Extension`]), one u16 per prefix, little-endian:
    /// entry `i` is bytes `2i, 2i + 1`; or, when `wide`, three bytes `3i..3i + 3` (built as
    /// bytes, so the payload is the solver's storage and no copy is made).
    Extensions {
        /// `2 * len` bytes, or `3 * len` when `wide`.
        bytes: Vec<u8>,
        /// Number of entries.
        len: u64,
        /// Three bytes per entry instead of two.
        wide: bool,
    },
    /// Values and remoteness of a two-player game, one [`standing`] entry per position.
    Standings(Vec<u16>),
    /// Values and distances to a counter's reset of a two-player game ([`ValueKind::Dtz`]),
    /// one [`standing`] entry per position.
    Dtz(Vec<u16>),
    /// Win, lose or tie-or-draw of a two-player game, the [`wlt`] codes four a byte (entry `i`
    /// in bits `2(i % 4)`, `2(i % 4) + 1` of byte `i / 4`; see [`wlt::pack`]).
    Wlt {
        /// `len.div_ceil(4)` bytes.
        bytes: Vec<u8>,
        /// Number of positions.
        len: u64,
    },
}

impl Solved {
    /// What the values mean.
    pub fn kind(&self) -> ValueKind {
        match self {
            Solved::Outcomes { .. } => ValueKind::Outcome,
            Solved::Grundy(_) | Solved::GrundyBytes(_) => ValueKind::Grundy,
            Solved::Distances(_) => ValueKind::Distance,
            Solved::Extensions { .. } => ValueKind::Extension,
            Solved::Standings(_) => ValueKind::Remoteness,
            Solved::Dtz(_) => ValueKind::Dtz,
            Solved::Wlt { .. } => ValueKind::Wlt,
        }
    }

    /// Number of positions.
    pub fn len(&self) -> u64 {
        match self {
            Solved::Outcomes { len, .. } | Solved::Wlt { len, .. } => *len,
            Solved::Grundy(v) => v.len() as u64,
            Solved::GrundyBytes(v) => v.len() as u64,
            Solved::Distances(v) => v.len() as u64,
            Solved::Extensions { len, .. } => *len,
            Solved::Standings(v) | Solved::Dtz(v) => v.len() as u64,
        }
    }

    /// True when there are no positions.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of entry `i` as a table stores it: 0 (P) or 1 (N) for outcomes, the Grundy
    /// value, the distance byte, the extension entry. Panics when `i >= len()`.
    pub fn value(&self, i: u64) -> u32 {
        assert!(i < self.len(), "entry {i} of {}", self.len());
        let i = i as usize;
        match self {
            Solved::Outcomes { bits, .. } => ((bits[i / 8] >> (i % 8)) & 1) as u32,
            Solved::Wlt { bytes, .. } => ((bytes[i / 4] >> (2 * (i % 4))) & 3) as u32,
            Solved::Grundy(v) | Solved::Standings(v) | Solved::Dtz(v) => v[i] as u32,
            Solved::GrundyBytes(v) => v[i] as u32,
            Solved::Distances(v) => v[i] as u32,
            Solved::Extensions { bytes, wide, .. } => {
                if *wide {
                    u32::from_le_bytes([bytes[3 * i], bytes[3 * i + 1], bytes[3 * i + 2], 0])
                } else {
                    u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]) as u32
                }
            }
        }
    }

    /// Sets entry `i` to `value` (truncated to the entry's width): for tests that break a
    /// solved table on purpose. Panics when `i >= len()`.
    pub fn set_value(&mut self, i: u64, value: u32) {
        assert!(i < self.len(), "entry {i} of {}", self.len());
        let i = i as usize;
        match self {
            Solved::Outcomes { bits, .. } => {
                bits[i / 8] = (bits[i / 8] & !(1 << (i % 8))) | (((value & 1) as u8) << (i % 8))
            }
            Solved::Wlt { bytes, .. } => {
                let shift = 2 * (i % 4);
                bytes[i / 4] = (bytes[i / 4] & !(3 << shift)) | (((value & 3) as u8) << shift)
            }
            Solved::Grundy(v) | Solved::Standings(v) | Solved::Dtz(v) => v[i] = value as u16,
            Solved::GrundyBytes(v) => v[i] = value as u8,
            Solved::Distances(v) => v[i] = value as u8,
            Solved::Extensions { bytes, wide, .. } => {
                let w = if *wide { 3 } else { 2 };
                bytes[w * i..w * i + w].copy_from_slice(&value.to_le_bytes()[..w]);
            }
        }
    }
}

/// A finite acyclic game over a dense index, as the solvers need it.
///
/// Contract:
/// * every index in `0..positions()` is a position (the ranking is perfect);
/// * levels `0..level_count()` ([`level`](Game::level)) cut `0..positions()` into
///   consecutive ranges, lowest first: level 0 starts at 0, each next one where the last
///   ended, and the last ends at `positions()`;
/// * every move from a position in level `l` leads to a position in a level `< l`;
/// * [`terminal`](Game::terminal) is `Some` exactly for positions without moves.
///
/// Levels are asked for one at a time rather than listed, so a game of 2^32 one-position
/// levels needs no memory for them.
pub trait Game: Sync {
    /// Number of positions; indices are `0..positions()`.
    fn positions(&self) -> u64;

    /// Number of levels. By default one a position, which holds when every move lowers the
    /// index (the conformance checks say when it does not).
    fn level_count(&self) -> u64 {
        self.positions()
    }

    /// The index range of level `l`, for `l < level_count()` (see the contract above). By
    /// default position `l` alone.
    fn level(&self, l: u64) -> Range<u64> {
        l..l + 1
    }

    /// Calls `f` with the index of each position one move away. Stops, and returns `Break`,
    /// as soon as `f` does. A child may be visited more than once.
    fn children<F: FnMut(u64) -> ControlFlow<()>>(&self, pos: u64, f: F) -> ControlFlow<()>;

    /// The value of a position with no move, `None` for every other position. By default P
    /// (normal play: whoever cannot move loses), found by asking for one child.
    fn terminal(&self, pos: u64) -> Option<Outcome> {
        self.children(pos, |_| ControlFlow::Break(()))
            .is_continue()
            .then_some(Outcome::P)
    }
}

/// Games that can also enumerate un-moves, which lets the retrograde solver push results from
/// the few P-positions to their parents instead of scanning every child of every position.
pub trait Retro: Game {
    /// Calls `f` with the index of every position that has a move to `pos`.
    /// A parent may be visited more than once.
    fn parents<F: FnMut(u64)>(&self, pos: u64, f: F);
}

/// What [`Tiered::visit`] found at an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    /// No position.
    Illegal,
    /// A position where the game is over, with its value for the player to move.
    Over(Standing),
    /// A position with moves (its children were given).
    Moves,
    /// A position of a game that folds symmetric positions that does not represent its class:
    /// solved through its representative (no children given).
    Image,
}

/// A two-player game with ties and draws over a dense index cut into tiers, as the retrograde
/// engine of `crate::solve::standing` sees it.
///
/// Contract:
/// * tiers `0..tier_count()` ([`tier`](Tiered::tier)) cut `0..positions()` into consecutive
///   ranges, lowest first: tier 0 starts at 0, each next one where the last ended;
/// * every move from a position in tier `t` leads to a position in a tier `<= t`: moves may
///   stay inside a tier (cycles), when [`in_tier_moves`](Tiered::in_tier_moves) says so;
/// * [`legal`](Tiered::legal) is false for an index that is no position of the game; moves
///   lead from legal positions to legal positions;
/// * [`terminal`](Tiered::terminal) is `Some` exactly for the legal positions where the game
///   is over (the value for the player to move: `Lose` when the other side has just won, `Tie`
///   for a full board), and those have no moves; every other legal position has one at least;
/// * a position has at most [`moves_bound`](Tiered::moves_bound) moves (the engine's memory
///   estimate counts on it).
/// * a game that folds symmetric positions ([`symmetries`](Tiered::symmetries) over 1) gives
///   every child, in [`visit`](Tiered::visit) and [`children`](Tiered::children), as the
///   representative of its class ([`represents`](Tiered::represents)); its symmetries keep a
///   position's tier, whether it is legal, its value and its remoteness, and fix the start.
pub trait Tiered: Sync {
    /// Number of indices, legal or not.
    fn positions(&self) -> u64;
    /// Number of tiers.
    fn tier_count(&self) -> u64;
    /// The index range of tier `t`, for `t < tier_count()`.
    fn tier(&self, t: u64) -> Range<u64>;
    /// Positions in the largest tier, which sizes a solve's scratch memory (stated before
    /// solving). By default every tier is measured; a game of very many tiers (Connect Four
    /// on a long board has billions) says it without the walk.
    fn largest_tier(&self) -> u64 {
        (0..self.tier_count())
            .map(|t| {
                let r = self.tier(t);
                r.end - r.start
            })
            .max()
            .unwrap_or(0)
    }
    /// Whether an index is a legal position.
    fn legal(&self, pos: u64) -> bool;
    /// The value of a legal position where the game is over, for the player to move.
    fn terminal(&self, pos: u64) -> Option<Standing>;
    /// Calls `f` with the index of the position each move of a legal position leads to (a
    /// child may come more than once, as often as moves lead to it).
    fn children<F: FnMut(u64)>(&self, pos: u64, f: F);
    /// What the engine's scan asks of an index, at once: whether it is solved through another
    /// position of its class (a game that folds), whether it is a position, whether the game is
    /// over there (and its value), and else its children, given to `f` as
    /// [`children`](Tiered::children) gives them. By default the calls one by one; a game
    /// whose index is costly to read (every call unranks a board) reads it once here.
    fn visit<F: FnMut(u64)>(&self, pos: u64, f: F) -> Visit {
        if self.symmetries() > 1 && !self.represents(pos) {
            return Visit::Image;
        }
        if !self.legal(pos) {
            return Visit::Illegal;
        }
        if let Some(v) = self.terminal(pos) {
            return Visit::Over(v);
        }
        self.children(pos, f);
        Visit::Moves
    }
    /// The most moves a position has.
    fn moves_bound(&self) -> u64;
    /// Whether a move may stay inside its tier. By default yes; a game whose every move
    /// leaves its tier (a disc placed, a piece taken) says no, and the engine then keeps no
    /// edges.
    fn in_tier_moves(&self) -> bool {
        true
    }
    /// The index of the position play starts from, when the game has one: the engine marks
    /// what is reachable from it.
    fn start_index(&self) -> Option<u64> {
        None
    }
    /// How many positions a class of symmetric positions holds at most: 1 (the default) when
    /// the game folds none. A game that folds has the engine solve one position of each class
    /// (its representative: moves, edges and remoteness buckets shrink by about this much) and
    /// copy the value to the rest ([`images`](Tiered::images)), so the table is the same bytes.
    fn symmetries(&self) -> u64 {
        1
    }
    /// Whether `pos` is the representative of its class, the one position the engine solves;
    /// asked only of games that fold. By default every index.
    fn represents(&self, _pos: u64) -> bool {
        true
    }
    /// Calls `f` once with each other position of the class of the representative `pos`.
    fn images<F: FnMut(u64)>(&self, _pos: u64, _f: F) {}
    /// For a game that folds: sets bit `i % 64` of `keep[i / 64]` when `first + i` is a
    /// representative ([`represents`](Tiered::represents)) and clears it when not, for
    /// `i < n`, the indices all of one tier, and says so; by default says no and the engine asks
    /// [`visit`](Tiered::visit) of every index. A game whose index holds several positions of
    /// one board (the side to move) answers for a run of indices at the cost of its boards,
    /// and the scan, where 15 indices of 16 are images, skips the rest without a visit.
    fn representatives(&self, _first: u64, _n: usize, _keep: &mut [u64]) -> bool {
        false
    }
    /// Whether the game lists un-moves ([`parents`](Tiered::parents)): the engine then finds
    /// what the start reaches by asking each position for a reached parent, stopping at the
    /// first, instead of listing every move of every reached position.
    fn lists_parents(&self) -> bool {
        false
    }
    /// Calls `f` with every position that has a move to the legal position `pos` and where
    /// the game is not over (as representatives, for a game that folds), until `f` breaks;
    /// says whether it broke. Asked only when [`lists_parents`](Tiered::lists_parents) says
    /// yes.
    fn parents<F: FnMut(u64) -> ControlFlow<()>>(&self, _pos: u64, _f: F) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// Whether the game lists the un-moves that stay inside tier `t`
    /// ([`tier_parents`](Tiered::tier_parents)): the engine then keeps no edge of the tier (12
    /// bytes a move, what keeps a large tier with many quiet moves, a chess ending of five
    /// men, from fitting in memory) and asks for the parents of each position as it is valued.
    fn lists_tier_parents(&self, _t: u64) -> bool {
        false
    }
    /// Calls `f` with the positions of `pos`'s tier that have a move to the legal position
    /// `pos` (as representatives, for a game that folds): exactly those whose children, taken
    /// once each, include `pos`. A position may come more than once, and positions that are no
    /// position, or where the game is over, may come too: the engine takes each once and skips
    /// those. Says whether each came once: the engine then takes them as they come, without
    /// sorting them (a sort for every position valued was a fifteenth of a five-man chess
    /// ending). Asked only for tiers where [`lists_tier_parents`](Tiered::lists_tier_parents)
    /// says yes.
    fn tier_parents<F: FnMut(u64)>(&self, _pos: u64, _f: F) -> bool {
        false
    }
    /// [`visit`](Tiered::visit) of a position of a tier that lists its un-moves, where the
    /// game may count some children inside that tier (`tier`, its range) instead of naming
    /// them: it gives `f` every other child, and returns with the visit how many it counted,
    /// each of a class of its own, none of them a class it gave `f`. The engine needs no more
    /// of a child inside the tier than to count it (its parents come from the un-moves), and
    /// naming a child is most of a chess scan's work. By default every child is named.
    fn visit_counting<F: FnMut(u64)>(&self, pos: u64, _tier: Range<u64>, f: F) -> (Visit, u32) {
        (self.visit(pos, f), 0)
    }
    /// The lowest index a move from tier `t` can lead to, never falling as `t` grows. A solve
    /// of two-bit values ([`ValueKind::Wlt`]) keeps the values from there on at two bytes a
    /// position and packs those below to two bits, so a game whose moves reach only the
    /// next tiers (every disc of Connect Four lands on the board for good) solves in far less
    /// memory than its table of remoteness would take. By default 0: every tier below may be
    /// read. A move found below it is an error of the game, never a wrong value.
    fn lowest_reached(&self, _t: u64) -> u64 {
        0
    }
    /// The most positions a solve keeps at two bytes under
    /// [`lowest_reached`](Tiered::lowest_reached): at least `tier(t).end - lowest_reached(t)`
    /// for every tier. By default all of them.
    fn widest_reach(&self) -> u64 {
        self.positions()
    }
}
