//! The one answer model: what a query says about a position, whatever asked (the command line,
//! a stream, the C ABI, a library call) and whichever source answered (a table, or the
//! 15-puzzle solver). Answers are plain data: positions and moves are already written as
//! `query` reads them, so an answer prints itself as text ([`Answer::to_text`]) or JSON
//! (`serde_json::to_string`) without the table at hand.
//!
//! JSON keys, by what the table holds:
//! * outcome and Grundy tables: `position`, `outcome` (`"P"`/`"N"`), `grundy` (Grundy tables
//!   only), `winning_moves` (at most [`MOVES_LISTED`]), `more_winning_moves` (how many more,
//!   only when some were left out), and when every move was asked for (`--all-moves`), `moves`:
//!   every legal move, each with the `outcome` (and `grundy`) of the position it leaves (and
//!   then every winning move);
//! * distance tables and the solver: `position`, `solvable`, `distance` (null when
//!   unsolvable), `reason` (when unsolvable), `optimal_moves` (at most
//!   [`MOVES_LISTED`], in the rules' order), `more_optimal_moves` (how many more there
//!   are, only when some were left out), `path` (when asked for), and `nodes` (the solver's
//!   expanded nodes, solver answers only);
//! * win/lose/tie/draw tables (two-player games): `position`, `value` (`"win"`, `"lose"`,
//!   `"tie"`, `"draw"`, for the player to move), `remoteness` (plies to the end with best
//!   play; null for a draw), `reachable` (from the game's start, for games with one), `moves`:
//!   every legal move, each with the `value` and `remoteness` it gives the player who plays it;
//! * wlt tables (two-player games, two bits a position): `position`, `value` (`"win"`,
//!   `"lose"` or `"tie-or-draw"`: a tie and a draw are one value there), `moves`: every legal
//!   move, each with the `value` it gives the player who plays it; no remoteness and no
//!   reachability, which such a table does not keep;
//! * tables of lower bounds (pattern databases): `position`, `lower_bound` (null when the
//!   entry is 255, unreachable), `counts` (what the bound counts), `reason` (when unreachable).
//!
//! * an entry asked for by index (`#INDEX`) of a table whose game this program does not know,
//!   or of an extension table (whose entries are prefixes, not positions): `position`
//!   (`#INDEX`), `index`, `value` (the stored value), `outcome` (outcome and Grundy tables).
//!
//! Each move is `{"move": label, "leaves": position}`; a choice against an adversary (the
//! weighing puzzle) adds `answers`, each answer a move, and its `leaves` is the worst answer.
//! A position that cannot be answered is an [`ErrorLine`]: `{"position": text, "error":
//! message}`.

use serde::Serialize;

use crate::game::{Move, Rules};
use crate::model::{Outcome, Standing, Wdl50, Wlt};

/// A move as answers show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AnswerMove {
    /// How a person would say the move, e.g. `take 1 from heap 3`.
    #[serde(rename = "move")]
    pub label: String,
    /// The position it leaves, written as queries read it.
    pub leaves: String,
    /// The same position as numbers.
    #[serde(skip)]
    pub numbers: Vec<u32>,
    /// For a choice against an adversary (the weighing puzzle): every answer the adversary may
    /// give, each with what it leaves; `leaves` is then the answer furthest from the goal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answers: Option<Vec<AnswerMove>>,
}

impl AnswerMove {
    /// A game's move, its position written by the game's rules.
    pub(crate) fn new(rules: &dyn Rules, m: Move) -> AnswerMove {
        AnswerMove {
            label: m.label,
            leaves: rules.format(&m.leaves),
            numbers: m.leaves,
            answers: None,
        }
    }

    /// Many moves.
    pub(crate) fn all(rules: &dyn Rules, moves: Vec<Move>) -> Vec<AnswerMove> {
        moves
            .into_iter()
            .map(|m| AnswerMove::new(rules, m))
            .collect()
    }
}

/// The answer to one query.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    /// The position as queries write it.
    pub position: String,
    /// The same position as numbers.
    #[serde(skip)]
    pub numbers: Vec<u32>,
    /// Its index in the table; `None` for a position the table does not store (an
    /// unsolvable arrangement) or an answer of the solver.
    #[serde(skip)]
    pub index: Option<u64>,
    /// What the source says.
    #[serde(flatten)]
    pub value: Value,
}

/// What an answer says, by the kind of source.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    /// An outcome or Grundy table.
    Game(GameValue),
    /// A table of exact distances, or the solver.
    Distance(DistanceValue),
    /// A table of lower bounds (a pattern database).
    Bound(BoundValue),
    /// One entry by its index, without a position (see the module docs).
    Entry(EntryValue),
    /// A win/lose/tie/draw table.
    Standing(StandingValue),
    /// A win/lose/tie-or-draw table (two bits a position, no remoteness).
    Wlt(WltValue),
}

/// The answer of a wlt table: the value for the player to move and every move with the value
/// it gives the player who plays it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WltValue {
    /// Win, lose, or tie-or-draw, for the player to move.
    pub value: Wlt,
    /// Every legal move, with what it gives the mover.
    pub moves: Vec<WltMove>,
}

/// A move of a two-player game with the value it gives the player who plays it: a move to a
/// position lost for the opponent wins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WltMove {
    /// The move and what it leaves.
    #[serde(flatten)]
    pub played: AnswerMove,
    /// Win, lose, or tie-or-draw, for the player who plays the move.
    pub value: Wlt,
}

/// The answer of a win/lose/tie/draw table: the value for the player to move and every move
/// with the value it gives the player who plays it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StandingValue {
    /// Win, lose, tie or draw, for the player to move.
    pub value: Standing,
    /// Plies to the end with best play (the winner ends soonest, the loser lasts longest, a
    /// tie comes soonest); `None` for a draw, which never ends.
    pub remoteness: Option<u32>,
    /// Whether the position can be reached from the game's start; `None` for a game without
    /// one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reachable: Option<bool>,
    /// In a table of distances to zeroing ([`crate::model::ValueKind::Dtz`], where
    /// `remoteness` counts the plies to the counter's reset): the class and the signed
    /// distance, as Syzygy gives them.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub counter: Option<Counter>,
    /// Every legal move, with what it gives the mover.
    pub moves: Vec<StandingMove>,
}

/// A value under a move counter (the 50-move rule): what Syzygy tables say of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Counter {
    /// Win, cursed win, draw, blessed loss or loss, for the player to move (or who moves).
    pub wdl50: Wdl50,
    /// Plies to the counter's reset with best play, positive for a win, negative for a loss,
    /// 0 for a draw.
    pub dtz: i32,
    /// For a move: whether it resets the counter itself (a capture or a pawn move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zeroing: Option<bool>,
}

impl Counter {
    /// `win, dtz 12`, with ` (zeroing)` for a move that resets the counter.
    fn text(&self) -> String {
        let mut s = format!("{}, dtz {}", self.wdl50.words(), self.dtz);
        if self.zeroing == Some(true) {
            s += " (zeroing)";
        }
        s
    }
}

/// A move of a two-player game with the value and remoteness it gives the player who plays
/// it: a move to a position lost for the opponent in `r` wins in `r + 1`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StandingMove {
    /// The move and what it leaves.
    #[serde(flatten)]
    pub played: AnswerMove,
    /// Win, lose, tie or draw, for the player who plays the move.
    pub value: Standing,
    /// Plies to the end with best play after it, counting the move; `None` for a draw.
    pub remoteness: Option<u32>,
    /// In a table of distances to zeroing: what the move gives under the counter.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub counter: Option<Counter>,
}

/// One entry of a table by its index, as stored.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EntryValue {
    /// The index.
    pub index: u64,
    /// The stored value: the bit (1 = N), the Grundy value, the distance byte, the extension
    /// entry.
    pub value: u32,
    /// P or N, for outcome and Grundy tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

/// The answer of an outcome or Grundy table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameValue {
    /// P or N.
    pub outcome: Outcome,
    /// The Grundy value, when the table stores them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grundy: Option<u32>,
    /// The moves to a P-position, the first [`MOVES_LISTED`] of them (every one when every
    /// move was asked for).
    pub winning_moves: Vec<AnswerMove>,
    /// How many winning moves there are beyond those listed; `None` when every one is listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more_winning_moves: Option<u64>,
    /// Every legal move with the value of what it leaves, when asked for
    /// ([`Table::list_every_move`](crate::Table::list_every_move)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<ValuedMove>>,
}

/// A move with the value of the position it leaves: a move to a P-position wins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValuedMove {
    /// The move and what it leaves.
    #[serde(flatten)]
    pub played: AnswerMove,
    /// P or N of the position it leaves, for the player to move there.
    pub outcome: Outcome,
    /// Its Grundy value, when the table stores them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grundy: Option<u32>,
}

/// The best moves an answer lists at most: optimal moves of a distance answer, winning moves
/// of an outcome or Grundy answer (unless every move was asked for). A puzzle against an
/// adversary can have hundreds of equally good choices, each with every answer (40 balls at
/// `0,20,20,0`: 721 weighings, 67 kB on one line), a sum of octal heaps dozens of winning
/// splits; an answer is one line a program reads, so it lists the first ones in the rules'
/// order and says how many more there are (`more_optimal_moves`, `more_winning_moves`).
pub const MOVES_LISTED: usize = 8;

/// Cuts `moves` to the first [`MOVES_LISTED`], returning how many were left out (`None` for
/// none).
pub(crate) fn first_listed(moves: &mut Vec<AnswerMove>) -> Option<u64> {
    let more = moves.len().saturating_sub(MOVES_LISTED);
    moves.truncate(MOVES_LISTED);
    (more > 0).then_some(more as u64)
}

/// The answer of a distance table or the solver: how far the position is from the goal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DistanceValue {
    /// Whether the goal can be reached.
    pub solvable: bool,
    /// Moves to the goal; `None` when the goal cannot be reached.
    pub distance: Option<u32>,
    /// Why the goal cannot be reached, when it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The moves to a position one move nearer the goal, the first
    /// [`MOVES_LISTED`] of them in the rules' order.
    pub optimal_moves: Vec<AnswerMove>,
    /// How many optimal moves there are beyond those listed; `None` when every one is listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more_optimal_moves: Option<u64>,
    /// A whole optimal solution, when asked for: `distance` moves ending at the goal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<AnswerMove>>,
    /// Nodes the solver expanded to find the answer (solver answers only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
}

/// The answer of a table of lower bounds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoundValue {
    /// The bound; `None` when the entry says the pattern cannot be brought home.
    pub lower_bound: Option<u32>,
    /// What the bound counts.
    pub counts: String,
    /// Why there is no bound, when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl DistanceValue {
    /// The goal cannot be reached, for `reason`.
    pub(crate) fn unsolvable(reason: String) -> DistanceValue {
        DistanceValue {
            solvable: false,
            distance: None,
            reason: Some(reason),
            optimal_moves: Vec::new(),
            more_optimal_moves: None,
            path: None,
            nodes: None,
        }
    }

    /// `distance` moves from the goal, with the moves one step nearer it (the first
    /// [`MOVES_LISTED`] of them listed).
    pub(crate) fn at(distance: u32, mut optimal_moves: Vec<AnswerMove>) -> DistanceValue {
        let more_optimal_moves = first_listed(&mut optimal_moves);
        DistanceValue {
            solvable: true,
            distance: Some(distance),
            reason: None,
            optimal_moves,
            more_optimal_moves,
            path: None,
            nodes: None,
        }
    }
}

impl Answer {
    /// P or N, for answers of outcome and Grundy tables.
    pub fn outcome(&self) -> Option<Outcome> {
        match &self.value {
            Value::Game(g) => Some(g.outcome),
            Value::Entry(e) => e.outcome,
            _ => None,
        }
    }

    /// The Grundy value, for answers of Grundy tables.
    pub fn grundy(&self) -> Option<u32> {
        match &self.value {
            Value::Game(g) => g.grundy,
            _ => None,
        }
    }

    /// The winning moves (empty for other answers).
    pub fn winning_moves(&self) -> &[AnswerMove] {
        match &self.value {
            Value::Game(g) => &g.winning_moves,
            _ => &[],
        }
    }

    /// The value, remoteness and valued moves, for answers of win/lose/tie/draw tables.
    pub fn standing(&self) -> Option<&StandingValue> {
        match &self.value {
            Value::Standing(v) => Some(v),
            _ => None,
        }
    }

    /// The value and valued moves, for answers of wlt tables.
    pub fn wlt(&self) -> Option<&WltValue> {
        match &self.value {
            Value::Wlt(v) => Some(v),
            _ => None,
        }
    }

    /// The distance part, for answers of distance tables and the solver.
    pub fn distance(&self) -> Option<&DistanceValue> {
        match &self.value {
            Value::Distance(d) => Some(d),
            _ => None,
        }
    }

    /// One JSON object on one line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            // Serializing plain strings and numbers cannot fail; say so if it ever does.
            format!("{{\"error\":\"internal error: {e}\"}}")
        })
    }

    /// One line of text: `1,2,4: N  winning: take 1 from heap 3 -> 1,2,3`, or for a distance
    /// table `8,6,7,2,5,4,3,0,1: distance 31  optimal: slide 3 right -> ...` (and `path: ...`
    /// when a solution was asked for, `(N nodes expanded)` for the solver's answers).
    pub fn to_text(&self) -> String {
        let position = &self.position;
        match &self.value {
            Value::Bound(b) => match b.lower_bound {
                Some(n) => format!("{position}: lower bound {n}: {n} {}", b.counts),
                None => format!(
                    "{position}: unreachable: {}",
                    b.reason.as_deref().unwrap_or("")
                ),
            },
            Value::Distance(d) => {
                let mut s = match d.distance {
                    None => format!(
                        "{position}: unsolvable: {}",
                        d.reason.as_deref().unwrap_or("the goal cannot be reached")
                    ),
                    Some(0) => format!("{position}: distance 0 (the goal)"),
                    Some(n) => {
                        let mut s = format!(
                            "{position}: distance {n}  optimal: {}",
                            moves_text(&d.optimal_moves)
                        );
                        if let Some(more) = d.more_optimal_moves {
                            s += &format!("; and {more} more");
                        }
                        if let Some(path) = &d.path {
                            let steps: Vec<&str> = path.iter().map(|m| m.label.as_str()).collect();
                            s += &format!("  path: {}", steps.join(", "));
                        }
                        s
                    }
                };
                if let Some(nodes) = d.nodes {
                    s += &format!("  ({nodes} nodes expanded)");
                }
                s
            }
            Value::Entry(e) => {
                let mut s = format!("{position}: value {}", e.value);
                if let Some(o) = e.outcome {
                    s += &format!(" ({})", o.as_str());
                }
                s
            }
            Value::Standing(v) => {
                let mut s = match &v.counter {
                    Some(c) => format!("{position}: {}", c.text()),
                    None => format!("{position}: {}", v.value.text(v.remoteness)),
                };
                if v.reachable == Some(false) {
                    s += "  (not reachable from the start)";
                }
                if !v.moves.is_empty() {
                    let moves: Vec<String> = v
                        .moves
                        .iter()
                        .map(|m| match &m.counter {
                            Some(c) => format!("{}: {}", m.played.label, c.text()),
                            None => format!("{}: {}", m.played.label, m.value.text(m.remoteness)),
                        })
                        .collect();
                    s += &format!("  moves: {}", moves.join("; "));
                }
                s
            }
            Value::Wlt(v) => {
                let mut s = format!("{position}: {}", v.value.text());
                if !v.moves.is_empty() {
                    let moves: Vec<String> = v
                        .moves
                        .iter()
                        .map(|m| format!("{}: {}", m.played.label, m.value.text()))
                        .collect();
                    s += &format!("  moves: {}", moves.join("; "));
                }
                s
            }
            Value::Game(g) => {
                let mut s = format!("{position}: {}", g.outcome.as_str());
                if let Some(v) = g.grundy {
                    s += &format!("  grundy {v}");
                }
                if !g.winning_moves.is_empty() {
                    s += &format!("  winning: {}", moves_text(&g.winning_moves));
                }
                if let Some(more) = g.more_winning_moves {
                    s += &format!("; and {more} more");
                }
                if let Some(moves) = &g.moves {
                    s += &format!("  moves: {}", valued_moves_text(moves));
                }
                s
            }
        }
    }
}

/// `label -> leaves; ...`, a choice against an adversary as `label -> answer leaves / ...`.
fn moves_text(moves: &[AnswerMove]) -> String {
    let moves: Vec<String> = moves
        .iter()
        .map(|m| match &m.answers {
            None => format!("{} -> {}", m.label, m.leaves),
            Some(answers) => {
                let each: Vec<String> = answers
                    .iter()
                    .map(|a| format!("{} {}", a.label, a.leaves))
                    .collect();
                format!("{} -> {}", m.label, each.join(" / "))
            }
        })
        .collect();
    moves.join("; ")
}

/// `take 1 from heap 3 -> 1,2,3 (P); ...`, with `, grundy G` in the brackets for Grundy
/// tables; `none` for a position without moves.
fn valued_moves_text(moves: &[ValuedMove]) -> String {
    if moves.is_empty() {
        return "none".into();
    }
    let moves: Vec<String> = moves
        .iter()
        .map(|m| {
            let value = match m.grundy {
                Some(g) => format!("{}, grundy {g}", m.outcome.as_str()),
                None => m.outcome.as_str().to_string(),
            };
            format!("{} -> {} ({value})", m.played.label, m.played.leaves)
        })
        .collect();
    moves.join("; ")
}

/// The answer to a line that could not be answered: the line (its first
/// [`ErrorLine::ECHO_LIMIT`] bytes) and what was wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorLine {
    /// The line as given, cut to at most [`ErrorLine::ECHO_LIMIT`] bytes.
    pub position: String,
    /// What was wrong, and what is accepted.
    pub error: String,
}

impl ErrorLine {
    /// Longest echo of a bad line: a 10 MB line is named by its beginning, not repeated.
    pub const ECHO_LIMIT: usize = crate::game::ECHO_LIMIT;

    /// The error answer for `line`. Messages quote the input they refuse; a quoted stretch
    /// longer than [`ErrorLine::ECHO_LIMIT`] is cut to its [`echo`] too, so a 10 MB line does
    /// not come back whole inside the message.
    pub fn new(line: &str, error: impl std::fmt::Display) -> ErrorLine {
        ErrorLine {
            position: echo(line),
            error: shorten_quotes(&error.to_string()),
        }
    }

    /// `{"position": .., "error": ..}` on one line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// `LINE: error: MESSAGE`.
    pub fn to_text(&self) -> String {
        format!("{}: error: {}", self.position, self.error)
    }
}

pub(crate) use crate::game::echo;

/// `message` with every stretch between single quotes cut to its [`echo`] (an unclosed quote
/// runs to the end).
fn shorten_quotes(message: &str) -> String {
    if message.len() <= ErrorLine::ECHO_LIMIT {
        return message.to_string();
    }
    let mut out = String::new();
    let mut rest = message;
    while let Some(open) = rest.find('\'') {
        out.push_str(&rest[..=open]);
        let quoted = &rest[open + 1..];
        let close = quoted.find('\'').unwrap_or(quoted.len());
        out.push_str(&echo(&quoted[..close]));
        rest = &quoted[close..];
        if let Some(after) = rest.strip_prefix('\'') {
            out.push('\'');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(label: &str, leaves: &str) -> AnswerMove {
        AnswerMove {
            label: label.into(),
            leaves: leaves.into(),
            numbers: Vec::new(),
            answers: None,
        }
    }

    #[test]
    fn json_keys_in_their_documented_order() {
        let game = Answer {
            position: "1,2,4".into(),
            numbers: vec![1, 2, 4],
            index: Some(7),
            value: Value::Game(GameValue {
                outcome: Outcome::N,
                grundy: None,
                winning_moves: vec![mv("take 1 from heap 3", "1,2,3")],
                more_winning_moves: None,
                moves: None,
            }),
        };
        assert_eq!(
            game.to_json(),
            r#"{"position":"1,2,4","outcome":"N","winning_moves":[{"move":"take 1 from heap 3","leaves":"1,2,3"}]}"#
        );
        assert_eq!(
            game.to_text(),
            "1,2,4: N  winning: take 1 from heap 3 -> 1,2,3"
        );
        let mut far = DistanceValue::unsolvable("odd".into());
        far.nodes = Some(0);
        let far = Answer {
            position: "2,1,3,0".into(),
            numbers: Vec::new(),
            index: None,
            value: Value::Distance(far),
        };
        assert_eq!(
            far.to_json(),
            r#"{"position":"2,1,3,0","solvable":false,"distance":null,"reason":"odd","optimal_moves":[],"nodes":0}"#
        );
        let bound = Answer {
            position: "x".into(),
            numbers: Vec::new(),
            index: None,
            value: Value::Bound(BoundValue {
                lower_bound: Some(3),
                counts: "moves".into(),
                reason: None,
            }),
        };
        assert_eq!(
            bound.to_json(),
            r#"{"position":"x","lower_bound":3,"counts":"moves"}"#
        );
    }

    #[test]
    fn wlt_answers_name_tie_or_draw_and_no_remoteness() {
        let a = Answer {
            position: "x../.../...".into(),
            numbers: Vec::new(),
            index: Some(1),
            value: Value::Wlt(WltValue {
                value: Wlt::TieOrDraw,
                moves: vec![
                    WltMove {
                        played: mv("b1", "xo./.../..."),
                        value: Wlt::Lose,
                    },
                    WltMove {
                        played: mv("b2", "x../.o./..."),
                        value: Wlt::TieOrDraw,
                    },
                ],
            }),
        };
        assert_eq!(
            a.to_json(),
            r#"{"position":"x../.../...","value":"tie-or-draw","moves":[{"move":"b1","leaves":"xo./.../...","value":"lose"},{"move":"b2","leaves":"x../.o./...","value":"tie-or-draw"}]}"#
        );
        assert_eq!(
            a.to_text(),
            "x../.../...: tie or draw  moves: b1: lose; b2: tie or draw"
        );
    }

    #[test]
    fn long_lines_are_echoed_by_their_beginning() {
        let line = "é".repeat(10_000);
        let e = ErrorLine::new(&line, "bad");
        assert!(e.position.len() < 230, "{}", e.position.len());
        assert!(e.position.ends_with("(20000 bytes)"));
        assert_eq!(
            ErrorLine::new("1,2", "bad").to_json(),
            r#"{"position":"1,2","error":"bad"}"#
        );
        // The message's quotes of the line are cut the same way; the rest of it stays.
        let line = "1,".repeat(5_000_000);
        let e = ErrorLine::new(
            &line,
            format!("position '{line}': '' is not a number; expected h1,h2"),
        );
        assert!(e.error.len() < 300, "{}", e.error.len());
        assert!(e.error.starts_with("position '1,1,"), "{}", e.error);
        assert!(
            e.error
                .ends_with("… (10000000 bytes)': '' is not a number; expected h1,h2"),
            "{}",
            &e.error[200..]
        );
    }
}
