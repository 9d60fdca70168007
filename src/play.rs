//! Playing a table against perfect play: every legal move of a position with the value it
//! gives the player who makes it, which moves are best, and the review of a game played so far
//! (each move against the best one there was, and the end in words). `gamedb play` and the
//! explorer's play mode (`GET /api/tables/{file}/play`) show the same [`Game`].
//!
//! What a table holds decides what a move is worth:
//! * win/lose/tie/draw tables: the value and remoteness the move gives its player, as stored;
//! * outcome and Grundy tables (no remoteness stored): a move to a P-position wins, any other
//!   loses; the remoteness (plies to the end, the winner ending soonest, the loser lasting
//!   longest) is found by a search over the table's outcomes, and left out when more than
//!   [`SEARCH_LIMIT`] positions lie below — the values are exact either way;
//! * distance tables (puzzles, one player): the moves left to the goal after the move; in a
//!   puzzle against an adversary (the weighing puzzle, whose balance answers each weighing)
//!   a move is a choice, answered with the worst result for the person.
//!
//! The best moves are the fastest wins, else the soonest ties, else the draws, else the
//! slowest losses (for a puzzle, the moves one step nearer the goal): the moves that keep the
//! value and remoteness the table gives the position itself.

use std::collections::HashMap;

use serde::Serialize;

use crate::answer::AnswerMove;
use crate::game::Move;
use crate::lookup::Table;
use crate::model::{Outcome, Standing, ValueKind};
use crate::{Error, Result};

/// Most positions the remoteness search of an outcome table visits for one game; past it the
/// remoteness is left out (a Chomp bar of 15×15 has 155 million positions below its start,
/// and the search takes about a second per 100,000 positions).
pub const SEARCH_LIMIT: usize = 100_000;

/// What a position or a move is worth, for the player it concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Worth {
    /// The player wins against best play.
    Win,
    /// The player loses against best play.
    Lose,
    /// The game ends drawn.
    Tie,
    /// Play goes on forever.
    Draw,
    /// (A puzzle) the goal can be reached.
    Solvable,
    /// (A puzzle) the goal cannot be reached.
    Unsolvable,
}

impl Worth {
    fn of(s: Standing) -> Worth {
        match s {
            Standing::Win => Worth::Win,
            Standing::Lose => Worth::Lose,
            Standing::Tie => Worth::Tie,
            Standing::Draw => Worth::Draw,
        }
    }

    /// The order of values for the player they concern: higher is better.
    fn class(self) -> u8 {
        match self {
            Worth::Win => 5,
            Worth::Tie => 4,
            Worth::Draw => 3,
            Worth::Lose => 2,
            Worth::Solvable => 1,
            Worth::Unsolvable => 0,
        }
    }

    /// `win`, `lose`, `tie`, `draw`, `solvable`, `unsolvable`.
    pub fn as_str(self) -> &'static str {
        match self {
            Worth::Win => "win",
            Worth::Lose => "lose",
            Worth::Tie => "tie",
            Worth::Draw => "draw",
            Worth::Solvable => "solvable",
            Worth::Unsolvable => "unsolvable",
        }
    }
}

/// A value with its remoteness, as a position or move has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Mark {
    /// Win, lose, tie or draw for the player it concerns; solvable or not for a puzzle.
    pub value: Worth,
    /// Plies to the end with best play, or (a puzzle) moves to the goal; `None` for a draw,
    /// an unsolvable puzzle, or an outcome table where the search was not made.
    pub remoteness: Option<u32>,
}

impl Mark {
    /// How good the mark is for its player: a larger key is better (a faster win, a slower
    /// loss, a nearer goal).
    fn key(self) -> (u8, i64) {
        let r = i64::from(self.remoteness.unwrap_or(0));
        match self.value {
            Worth::Win | Worth::Tie | Worth::Solvable => (self.value.class(), -r),
            Worth::Lose => (self.value.class(), r),
            Worth::Draw | Worth::Unsolvable => (self.value.class(), 0),
        }
    }

    /// In words: `win in 7`, `lose in 4`, `tie in 9`, `draw`, `12 moves to the goal`, `at the
    /// goal`, `win` (remoteness not searched).
    pub fn text(self) -> String {
        match (self.value, self.remoteness) {
            (Worth::Solvable, Some(0)) => "at the goal".to_string(),
            (Worth::Solvable, Some(1)) => "1 move to the goal".to_string(),
            (Worth::Solvable, Some(d)) => format!("{d} moves to the goal"),
            (Worth::Draw | Worth::Unsolvable, _) | (_, None) => self.value.as_str().to_string(),
            (_, Some(0)) => format!("{} (the game is over)", self.value.as_str()),
            (_, Some(r)) => format!("{} in {r}", self.value.as_str()),
        }
    }

    /// What a move to a position of this mark gives the player who makes it.
    fn after_move(self, players: u8) -> Mark {
        let remoteness = self.remoteness.map(|r| r + 1);
        match (players, self.value) {
            (1, _) => Mark {
                value: self.value,
                remoteness: self.remoteness,
            },
            (_, Worth::Win) => Mark {
                value: Worth::Lose,
                remoteness,
            },
            (_, Worth::Lose) => Mark {
                value: Worth::Win,
                remoteness,
            },
            (_, Worth::Draw) => self,
            (_, value) => Mark { value, remoteness },
        }
    }
}

/// A legal move with what it gives the player who makes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Choice {
    /// The move and what it leaves.
    #[serde(flatten)]
    pub played: AnswerMove,
    /// Its value and remoteness for the mover (a puzzle: the moves left after it).
    #[serde(flatten)]
    pub mark: Mark,
    /// The mark in words, e.g. `tie in 8`.
    pub text: String,
    /// Whether it is one of the best moves here.
    pub best: bool,
    /// For a puzzle against an adversary (the weighing puzzle's balance): the answer given to
    /// the choice, the worst for the person; the move leaves what it leaves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
}

/// The position to move from, with every move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Turn {
    /// The position as queries write it.
    pub position: String,
    /// The same position as numbers.
    #[serde(skip)]
    pub numbers: Vec<u32>,
    /// Who moves: `first` or `second` (counted from the game's first position; always
    /// `first` in a puzzle).
    pub player: Player,
    /// What the position is worth for the player to move.
    #[serde(flatten)]
    pub mark: Mark,
    /// The mark in words.
    pub text: String,
    /// Whether the game is over: no legal move is left (a puzzle: the goal is reached).
    pub over: bool,
    /// Every legal move (none when the game is over).
    pub moves: Vec<Choice>,
}

impl Turn {
    /// The best moves, in the game's order of moves.
    pub fn best(&self) -> impl Iterator<Item = &Choice> {
        self.moves.iter().filter(|c| c.best)
    }

    /// The move whose label (ignoring case and spaces at the ends) or whose position (as
    /// queries write it) is `text`.
    pub fn find(&self, text: &str) -> Option<&Choice> {
        let text = text.trim();
        self.moves
            .iter()
            .find(|c| c.played.label.eq_ignore_ascii_case(text) || c.played.leaves == text)
    }
}

/// The two sides, in the order they move from the game's first position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// Who moves in the first position.
    First,
    /// The other side.
    Second,
}

impl Player {
    fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// One move of the game played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ply {
    /// 1 for the first move.
    pub number: usize,
    /// Who made it.
    pub player: Player,
    /// The position it was made from.
    pub position: String,
    /// What that position was worth for the mover (the value history).
    #[serde(rename = "before")]
    pub before: Mark,
    /// The move, with what it gave the mover.
    pub played: Choice,
    /// A best move there, when the one played was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub better: Option<Choice>,
    /// Whether the move gave away value: a win let go, a tie or draw turned into a loss (a
    /// puzzle: any move off the shortest way).
    pub mistake: bool,
}

/// A game played from a first position: its moves, each against the best there was, the
/// position to move from now, and when the game is over the end in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Game {
    /// 2 for a game, 1 for a puzzle.
    pub players: u8,
    /// The moves played.
    pub plies: Vec<Ply>,
    /// The position reached.
    pub turn: Turn,
    /// The end in words: who won in how many moves, and whether the loser could have done
    /// better and where. `None` while the game goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

/// What the summary calls the two sides: `the first player` and `the second player`, or
/// `you` and `the computer` when a person plays one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Sides {
    /// Neither side is named.
    #[default]
    Plain,
    /// A person plays this side against the computer.
    Me(Player),
}

impl Sides {
    fn name(self, p: Player) -> &'static str {
        match (self, p) {
            (Sides::Me(me), p) if me == p => "you",
            (Sides::Me(_), _) => "the computer",
            (Sides::Plain, Player::First) => "the first player",
            (Sides::Plain, Player::Second) => "the second player",
        }
    }
}

/// Reads the moves of a game and values them from a table.
pub struct Referee<'a> {
    table: &'a Table,
    players: u8,
    memo: HashMap<Vec<u32>, Option<u32>>,
    searched: usize,
}

impl<'a> Referee<'a> {
    /// A referee for a table that can be played: win/lose/tie/draw, outcome, Grundy and
    /// distance tables of a game this program knows.
    pub fn new(table: &'a Table) -> Result<Referee<'a>> {
        if let Some(e) = table.not_known() {
            return Err(e);
        }
        let players = match table.value_kind() {
            ValueKind::Distance if table.rules().distance_bound().is_some() => {
                return Err(Error::bad(format!(
                    "{} holds lower bounds (a pattern database), which cannot be played; \
                     expected a table of win/lose/tie/draw, outcome, Grundy or distance values \
                     (play the puzzle from its distance table)",
                    table.file().path().display()
                )))
            }
            ValueKind::Distance => 1,
            // Without remoteness a player cannot tell a move that wins from one that keeps a
            // won position going round a cycle forever (Quixo, the mill games): refused for
            // every game, so that play never depends on which games have cycles.
            ValueKind::Wlt => {
                return Err(Error::bad(format!(
                    "{} holds wlt values (win, lose or tie-or-draw, no remoteness), which cannot \
                     be played: a winning move may go round a cycle forever; expected a \
                     remoteness table (build the game without --values wlt)",
                    table.file().path().display()
                )))
            }
            // A counter's distances would need the counter in every position played.
            ValueKind::Dtz => {
                return Err(Error::bad(format!(
                    "{} holds distances to zeroing (dtz), which are not played here; expected \
                     a remoteness table (build the ending without --values dtz)",
                    table.file().path().display()
                )))
            }
            ValueKind::Remoteness | ValueKind::Outcome | ValueKind::Grundy => 2,
            ValueKind::Extension => 2,
        };
        Ok(Referee {
            table,
            players,
            memo: HashMap::new(),
            searched: 0,
        })
    }

    /// 2 for a game, 1 for a puzzle.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The first position of a game: the table game's start, or `text` read as queries read
    /// it (which a game without a start needs).
    pub fn first_position(&self, text: Option<&str>) -> Result<Vec<u32>> {
        match (text, self.table.rules().start()) {
            (Some(t), _) => self.table.rules().parse(t),
            (None, Some(start)) => Ok(start),
            (None, None) => Err(Error::bad(format!(
                "{} has no start position; expected one to play from (--from POSITION), {}",
                self.table.describe(),
                self.table.rules().position_form()
            ))),
        }
    }

    /// What `position` is worth for the player to move.
    pub fn mark(&mut self, position: &[u32]) -> Result<Mark> {
        match self.table.value_kind() {
            ValueKind::Remoteness => {
                let (s, r) = self.table.standing_of(position)?;
                Ok(Mark {
                    value: Worth::of(s),
                    remoteness: r,
                })
            }
            ValueKind::Distance => Ok(match self.table.distance_of(position)? {
                Some(d) => Mark {
                    value: Worth::Solvable,
                    remoteness: Some(d),
                },
                None => Mark {
                    value: Worth::Unsolvable,
                    remoteness: None,
                },
            }),
            _ => {
                let value = match self.table.outcome_of(position)? {
                    Outcome::N => Worth::Win,
                    Outcome::P => Worth::Lose,
                };
                let remoteness = self.remoteness(position)?;
                Ok(Mark { value, remoteness })
            }
        }
    }

    /// The position with every move valued.
    pub fn turn(&mut self, position: &[u32], player: Player) -> Result<Turn> {
        let rules = self.table.rules();
        rules.check(position)?;
        let mark = self.mark(position)?;
        let over = match mark.value {
            Worth::Solvable => mark.remoteness == Some(0),
            _ => false,
        };
        let mut moves = Vec::new();
        let choices = if over {
            None
        } else {
            rules.choices(position, &mut |_| true)
        };
        if let Some(choices) = choices {
            // A puzzle against an adversary (the balance of the weighing puzzle): the person
            // chooses, the adversary answers with the worst result still possible (the
            // farthest from the goal; the first of equals).
            for ch in choices {
                let mut worst: Option<(Mark, Move)> = None;
                for a in ch.answers {
                    let m = self.mark(&a.leaves)?;
                    if worst.as_ref().is_none_or(|(w, _)| m.key() < w.key()) {
                        worst = Some((m, a));
                    }
                }
                if let Some((mark, answer)) = worst {
                    let played = Move {
                        label: ch.label,
                        leaves: answer.leaves,
                    };
                    let mut c = self.choice(played, mark);
                    c.answer = Some(answer.label);
                    moves.push(c);
                }
            }
        } else if !over {
            for m in rules.moves(position) {
                let after = self.mark(&m.leaves)?.after_move(self.players);
                let c = self.choice(m, after);
                // The same move in two equal heaps of a sum is one move to a person: the same
                // words, the same heaps left in another order.
                let heaps = |c: &Choice| {
                    let mut h = c.played.numbers.clone();
                    h.sort_unstable();
                    h
                };
                if !moves
                    .iter()
                    .any(|o: &Choice| o.played.label == c.played.label && heaps(o) == heaps(&c))
                {
                    moves.push(c);
                }
            }
        }
        if let Some(top) = moves.iter().map(|c| c.mark.key()).max() {
            for c in &mut moves {
                c.best = c.mark.key() == top;
            }
        }
        Ok(Turn {
            position: rules.format(position),
            numbers: position.to_vec(),
            player,
            text: mark.text(),
            mark,
            over: over || moves.is_empty(),
            moves,
        })
    }

    fn choice(&self, m: Move, mark: Mark) -> Choice {
        Choice {
            played: AnswerMove::new(self.table.rules(), m),
            text: mark.text(),
            mark,
            best: false,
            answer: None,
        }
    }

    /// Reads a game written as its positions separated by `;`, the first the position to play
    /// from (empty: the game's start), each next one a legal move from the one before.
    pub fn read_line(&self, text: &str) -> Result<Vec<Vec<u32>>> {
        let mut line = Vec::new();
        for (i, part) in text.split(';').enumerate() {
            if i == 0 {
                let first = (!part.trim().is_empty()).then_some(part);
                line.push(self.first_position(first)?);
                continue;
            }
            let pos = self.table.rules().parse(part)?;
            self.check_step(line.last().unwrap(), &pos, i)?;
            line.push(pos);
        }
        Ok(line)
    }

    /// Refuses a position that no legal move leaves from the one before.
    fn check_step(&self, before: &[u32], after: &[u32], number: usize) -> Result<()> {
        let rules = self.table.rules();
        let shown = rules.format(after);
        let moves = rules.moves(before);
        if moves.iter().any(|m| rules.format(&m.leaves) == shown) {
            return Ok(());
        }
        let some: Vec<String> = moves
            .iter()
            .take(8)
            .map(|m| rules.format(&m.leaves))
            .collect();
        Err(Error::bad(format!(
            "move {number}: '{}' is not one move from '{}'; expected {}",
            crate::game::echo(&shown),
            rules.format(before),
            match (moves.len(), some.join(", ")) {
                (0, _) => "nothing: the game was over".to_string(),
                (n, s) if n > 8 => format!("one of {s}, ... ({n} moves)"),
                (_, s) => format!("one of {s}"),
            }
        )))
    }

    /// The review of a game given by its positions, the first the position it started from.
    pub fn review(&mut self, line: &[Vec<u32>], sides: Sides) -> Result<Game> {
        let Some((last, before)) = line.split_last() else {
            return Err(Error::bad(
                "a game of no positions; expected at least the first",
            ));
        };
        let mut plies = Vec::new();
        let mut player = Player::First;
        for (i, (pos, next)) in before.iter().zip(&line[1..]).enumerate() {
            let turn = self.turn(pos, player)?;
            let shown = self.table.rules().format(next);
            // A move dropped as the same as another (equal heaps of a sum) is found by the
            // heaps it leaves.
            let sorted = |v: &[u32]| {
                let mut v = v.to_vec();
                v.sort_unstable();
                v
            };
            let played = turn
                .moves
                .iter()
                .find(|c| c.played.leaves == shown)
                .or_else(|| {
                    turn.moves
                        .iter()
                        .find(|c| sorted(&c.played.numbers) == sorted(next))
                })
                .cloned()
                .ok_or_else(|| {
                    Error::bad(format!("move {}: not a move of '{}'", i + 1, turn.position))
                })?;
            let best = turn.best().next().cloned();
            let mistake = match (&best, self.players) {
                (Some(b), 1) => !played.best && b.mark.key() > played.mark.key(),
                (Some(b), _) => b.mark.value.class() > played.mark.value.class(),
                (None, _) => false,
            };
            plies.push(Ply {
                number: i + 1,
                player,
                position: turn.position,
                before: turn.mark,
                better: (!played.best).then_some(best).flatten(),
                played,
                mistake,
            });
            if self.players == 2 {
                player = player.other();
            }
        }
        let turn = self.turn(last, player)?;
        let summary = turn.over.then(|| self.summary(&plies, &turn, sides));
        Ok(Game {
            players: self.players,
            plies,
            turn,
            summary,
        })
    }

    fn summary(&self, plies: &[Ply], end: &Turn, sides: Sides) -> String {
        let n = plies.len();
        let moves = if n == 1 { "move" } else { "moves" };
        if self.players == 1 {
            let first = plies.first().map_or(end.mark, |p| p.before);
            let mut s = match end.mark.value {
                Worth::Solvable => format!("Solved in {n} {moves}"),
                _ => format!("No move is left after {n} {moves}"),
            };
            match first.remoteness {
                Some(d) if first.value == Worth::Solvable && d as usize == n => {
                    s.push_str(", the fewest there are.")
                }
                Some(d) if first.value == Worth::Solvable => {
                    s.push_str(&format!("; the fewest from the first position were {d}."))
                }
                _ => s.push('.'),
            }
            for p in plies.iter().filter(|p| p.mistake) {
                s.push_str(&format!(" {}", slip(p)));
            }
            return s;
        }
        let mover = end.player;
        let (winner, mut s) = match end.mark.value {
            Worth::Lose => {
                let w = mover.other();
                (
                    Some(w),
                    format!("{} won in {n} {moves}.", capital(sides.name(w))),
                )
            }
            Worth::Win => (
                Some(mover),
                format!("{} won in {n} {moves}.", capital(sides.name(mover))),
            ),
            _ => (None, format!("A tie after {n} {moves}.")),
        };
        let slips: Vec<&Ply> = plies.iter().filter(|p| p.mistake).collect();
        match winner {
            Some(w) => {
                let loser = w.other();
                let theirs: Vec<&Ply> = slips
                    .iter()
                    .copied()
                    .filter(|p| p.player == loser)
                    .collect();
                let name = sides.name(loser);
                if theirs.is_empty() {
                    s.push_str(&format!(
                        " {} could not have done better: every position {} moved from was \
                         already lost.",
                        capital(name),
                        if name == "you" { "you" } else { "they" }
                    ));
                } else {
                    s.push_str(&format!(" {} could have done better:", capital(name)));
                    for p in theirs {
                        s.push_str(&format!(" {}", slip(p)));
                    }
                }
                for p in slips.iter().filter(|p| p.player == w) {
                    s.push_str(&format!(
                        " {} also slipped: {}",
                        capital(sides.name(w)),
                        slip(p)
                    ));
                }
            }
            None => {
                for p in slips {
                    s.push_str(&format!(
                        " {} let a win go: {}",
                        capital(sides.name(p.player)),
                        slip(p)
                    ));
                }
            }
        }
        s
    }

    /// The remoteness of a position of an outcome table, by a search over the outcomes below
    /// it: a win ends soonest through a move to a P-position, a loss lasts longest. `None`
    /// past [`SEARCH_LIMIT`] positions in one game.
    fn remoteness(&mut self, position: &[u32]) -> Result<Option<u32>> {
        if let Some(r) = self.memo.get(position) {
            return Ok(*r);
        }
        // Depth first without recursion: a Nim of large heaps is thousands of plies deep.
        let mut stack = vec![self.frame(position.to_vec())?];
        while let Some(top) = stack.last_mut() {
            if self.searched > SEARCH_LIMIT {
                self.memo.insert(position.to_vec(), None);
                return Ok(None);
            }
            let Some(child) = top.children.pop() else {
                let done = stack.pop().expect("the loop holds a frame");
                let r = done.best.map_or(0, |b| b + 1);
                self.searched += 1;
                self.memo.insert(done.pos, Some(r));
                match stack.last_mut() {
                    Some(parent) => parent.fold(r),
                    None => return Ok(Some(r)),
                }
                continue;
            };
            match self.memo.get(&child) {
                Some(Some(r)) => top.fold(*r),
                // A position given up on before: so is this one.
                Some(None) => self.searched = SEARCH_LIMIT + 1,
                None => {
                    let f = self.frame(child)?;
                    stack.push(f);
                }
            }
        }
        Ok(None)
    }

    /// A position of the remoteness search with the children it needs: a win, only its moves
    /// to P-positions; a loss, every move.
    fn frame(&self, pos: Vec<u32>) -> Result<Frame> {
        let win = self.table.outcome_of(&pos)? == Outcome::N;
        let mut children = Vec::new();
        for m in self.table.rules().moves(&pos) {
            if !win || self.table.outcome_of(&m.leaves)? == Outcome::P {
                children.push(m.leaves);
            }
        }
        Ok(Frame {
            pos,
            win,
            children,
            best: None,
        })
    }
}

/// A position on the stack of the remoteness search: its outcome, the children still to
/// value and the best remoteness among those valued.
struct Frame {
    pos: Vec<u32>,
    win: bool,
    children: Vec<Vec<u32>>,
    best: Option<u32>,
}

impl Frame {
    /// Takes in a child's remoteness: a win keeps the least, a loss the most.
    fn fold(&mut self, r: u32) {
        self.best = Some(match (self.best, self.win) {
            (None, _) => r,
            (Some(b), true) => b.min(r),
            (Some(b), false) => b.max(r),
        });
    }
}

/// A move that was not the best, in words: `move 4, c3 (lose in 5) where b1 kept a tie in 5.`
fn slip(p: &Ply) -> String {
    let better = p
        .better
        .as_ref()
        .map(|b| format!(" where {} gave {}", b.played.label, b.text))
        .unwrap_or_default();
    format!(
        "move {}, {} gave {}{better}.",
        p.number, p.played.played.label, p.played.text
    )
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
