//! The values of positions, as the solvers produce them and every interface shows them:
//! outcomes (P/N), the kinds of value a table holds, and the values of two-player games
//! (win, lose, tie or draw; the same without the tie; the classes of the 50-move rule).

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
    Outcome,
    /// Sprague–Grundy value (0 means P).
    Grundy,
    /// Distance in moves to the goal.
    Distance,
    /// For games whose positions are a *prefix* (stored) and one unbounded number (not
    /// stored), where at most one value of the number makes a position P: per prefix, which
    /// value that is (0 none, else 1 + its offset from the smallest allowed value; the game
    /// says what the offset counts). Three-rowed Chomp stores `f(q, r)` this way.
    Extension,
    /// For two-player games with ties and draws: win, lose, tie or draw for the player to move,
    /// with the remoteness (plies to the end with best play), packed as
    /// `crate::format::entries::standing` says; an index that is no legal position is marked as
    /// such.
    Remoteness,
    /// For two-player games too large for a byte a position: win, lose, or tie-or-draw for the
    /// player to move, two bits a position (the code of `crate::format::entries::wlt`). A tie and a
    /// draw cannot be told apart, and the table keeps no remoteness and no reachability.
    Wlt,
    /// For two-player games with a move counter that captures and pawn moves reset (chess's 50-move
    /// rule): win, lose, tie or draw for the player to move with the distance in plies to the next
    /// reset (DTZ, as Syzygy tables count it), packed as `crate::format::entries::standing` packs
    /// remoteness. A move out of a tier resets the count: the child then counts only as won or lost
    /// within [`ZEROING_PLIES`] (distance 0) or beyond it (distance [`ZEROING_PLIES`]), so a
    /// distance over [`ZEROING_PLIES`] is a cursed win or a blessed loss (the 50-move rule draws
    /// it).
    Dtz,
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
    /// Every kind, in the order of their codes in table headers
    /// (`crate::format::value_kind_code`).
    pub const ALL: [ValueKind; 7] = [
        ValueKind::Outcome,
        ValueKind::Grundy,
        ValueKind::Distance,
        ValueKind::Extension,
        ValueKind::Remoteness,
        ValueKind::Wlt,
        ValueKind::Dtz,
    ];

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

    /// Whether entries are `crate::format::entries::standing` entries: a value with its remoteness
    /// (or, for [`ValueKind::Dtz`], its distance to the counter's reset).
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
