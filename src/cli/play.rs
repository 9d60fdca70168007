//! `gamedb play TABLE`: a game against perfect play at the terminal, or scripted through
//! standard input (each line a command, echoed after the prompt so that the transcript reads
//! as a game). The valuing of moves and the review of the game are the library's
//! ([`crate::play`]); this file reads commands and draws.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::play::{Choice, Game, Mark, Player, Referee, Sides, Turn, Worth};
use crate::{Error, Table};

use super::Failure;

#[derive(Args)]
pub(crate) struct PlayArgs {
    /// The table file.
    pub table: PathBuf,
    /// The side the person plays; `both` makes every move typed (a puzzle has one side,
    /// the person's).
    #[arg(long, value_enum, default_value = "first")]
    pub me: Me,
    /// The position to play from, as `query` writes it (default: the game's start; a game
    /// without one needs it).
    #[arg(long, allow_hyphen_values = true)]
    pub from: Option<String>,
    /// Which of its best moves the computer plays: the first in the order `moves` lists them,
    /// or one at random.
    #[arg(long, value_enum, default_value = "first")]
    pub pick: Pick,
    /// The seed of `--pick random` (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Colour the values: on a terminal (auto), always or never.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: Colour,
    /// Skip the payload checksum when opening (faster on very large tables).
    #[arg(long)]
    pub no_verify: bool,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum Me {
    First,
    Second,
    Both,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum Pick {
    First,
    Random,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum Colour {
    Auto,
    Always,
    Never,
}

const COMMANDS: &str = "a move as `moves` lists it (or the position it leaves), hint, moves, \
                        undo, redo, board, quit";

pub(crate) fn run(a: PlayArgs) -> Result<(), Failure> {
    let table = Table::open(&a.table)?;
    if !a.no_verify {
        table.verify()?;
    }
    let mut referee = Referee::new(&table)?;
    let first = referee.first_position(a.from.as_deref())?;
    let puzzle = referee.players() == 1;
    let me = person(puzzle, a.me);
    let sides = me.map_or(Sides::Plain, Sides::Me);
    let stdin = std::io::stdin();
    let typed = stdin.is_terminal();
    let mut rng = Rng::new(a.seed);
    let mut out = Out {
        colour: colour(a.color),
        me,
    };

    println!("{}", table.describe());
    println!("{} Type {COMMANDS}.", greeting(puzzle, me));
    let mut moves = Moves {
        line: vec![first],
        undone: Vec::new(),
        refused: 0,
    };
    let mut lines = stdin.lock().lines();
    let mut show = true;
    loop {
        let game = referee.review(&moves.line, sides)?;
        let turn = &game.turn;
        let computer = me.is_some_and(|m| m != turn.player) && !turn.over;
        // The board is drawn for the person's turn and at the end; the computer's move is
        // said in words after the person's.
        if show && !computer {
            out.board(&table, &game);
        }
        show = true;
        if let Some(summary) = &game.summary {
            println!("The game is over. {summary}");
            break;
        }
        if computer {
            let pick = computer_pick(turn, a.pick, &mut rng);
            println!(
                "The computer plays {}: {}.",
                pick.played.label,
                out.mark(pick.mark)
            );
            moves.play(pick.played.numbers.clone());
            continue;
        }
        let Some(command) = next_command(&mut lines, typed, game.plies.len())? else {
            break;
        };
        match obey(&command, turn, &mut moves, &out, &referee) {
            After::Board => {}
            After::NoBoard => show = false,
            After::Quit => break,
        }
    }
    said_refused(moves.refused)
}

/// The side the person plays: none when every move is theirs (a puzzle, or `--me both`).
fn person(puzzle: bool, me: Me) -> Option<Player> {
    match (puzzle, me) {
        (true, _) | (false, Me::Both) => None,
        (false, Me::First) => Some(Player::First),
        (false, Me::Second) => Some(Player::Second),
    }
}

/// Whether the values are coloured.
fn colour(choice: Colour) -> bool {
    match choice {
        Colour::Always => true,
        Colour::Never => false,
        Colour::Auto => std::io::stdout().is_terminal(),
    }
}

/// The first line said to the person, before the commands.
fn greeting(puzzle: bool, me: Option<Player>) -> &'static str {
    match (puzzle, me) {
        (true, _) => "A puzzle: every move is yours; the table shows the moves to the goal.",
        (false, Some(Player::First)) => "You play first; the computer plays perfectly.",
        (false, Some(Player::Second)) => "You play second; the computer plays perfectly.",
        (false, None) => "Both sides are yours; the table says what each move is worth.",
    }
}

/// The computer's move: one of the best, the first or one at random as `--pick` says.
fn computer_pick<'t>(turn: &'t Turn, pick: Pick, rng: &mut Rng) -> &'t Choice {
    let best: Vec<&Choice> = turn.best().collect();
    match pick {
        Pick::First => best[0],
        Pick::Random => best[rng.below(best.len())],
    }
}

/// The next command after the prompt, trimmed and echoed when it was not typed at a terminal;
/// `None` when the input has ended (said with the move it ended at, `plies` played before it).
fn next_command(
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
    typed: bool,
    plies: usize,
) -> Result<Option<String>, Error> {
    print!("> ");
    std::io::stdout().flush().map_err(stdout_error)?;
    let Some(command) = lines.next() else {
        println!();
        println!("(the input ended at move {})", plies + 1);
        return Ok(None);
    };
    let command = command.map_err(|e| Error::Io {
        path: "<stdin>".into(),
        source: e,
    })?;
    let command = command.trim();
    if !typed {
        println!("{command}");
    }
    Ok(Some(command.to_string()))
}

/// The game so far: the positions of the line from the first, the ones undone (for redo), and
/// the input lines refused.
struct Moves {
    line: Vec<Vec<u32>>,
    undone: Vec<Vec<u32>>,
    refused: u64,
}

impl Moves {
    /// A move made: it goes on the line, and what was undone can no longer be redone.
    fn play(&mut self, position: Vec<u32>) {
        self.line.push(position);
        self.undone.clear();
    }

    /// Back to the person's previous turn: the computer's reply goes too.
    fn undo(&mut self, me: Option<Player>, referee: &Referee) -> After {
        let mut back = 0;
        while self.line.len() > 1 && (back == 0 || !mine(me, referee, &self.line)) {
            self.undone
                .push(self.line.pop().expect("more than one position"));
            back += 1;
        }
        if back == 0 {
            self.refused += 1;
            refuse("undo: nothing to undo; expected a move first");
            return After::NoBoard;
        }
        After::Board
    }

    /// Forward again to the person's next turn.
    fn redo(&mut self, me: Option<Player>, referee: &Referee) -> After {
        let mut again = 0;
        while let Some(p) = self.undone.pop() {
            self.line.push(p);
            again += 1;
            if mine(me, referee, &self.line) {
                break;
            }
        }
        if again == 0 {
            self.refused += 1;
            refuse("redo: nothing to redo; expected undo first");
            return After::NoBoard;
        }
        After::Board
    }
}

/// What the game loop does after a command.
enum After {
    /// Draws the board again.
    Board,
    /// Goes on without drawing it (what the command said is the last thing shown).
    NoBoard,
    Quit,
}

/// Carries out one command of the person's at `turn`.
fn obey(command: &str, turn: &Turn, moves: &mut Moves, out: &Out, referee: &Referee) -> After {
    match command {
        "" => After::NoBoard,
        "quit" | "q" => After::Quit,
        "board" => After::Board,
        "hint" => {
            hint(turn, out);
            After::NoBoard
        }
        "moves" => {
            list_moves(turn, out);
            After::NoBoard
        }
        "undo" | "u" => moves.undo(out.me, referee),
        "redo" | "r" => moves.redo(out.me, referee),
        text => match turn.find(text) {
            Some(c) => {
                say_played(turn, c, out);
                moves.play(c.played.numbers.clone());
                After::Board
            }
            None => {
                moves.refused += 1;
                refuse_move(turn, text);
                After::NoBoard
            }
        },
    }
}

/// `hint`: the first best move, and the others as good.
fn hint(turn: &Turn, out: &Out) {
    let best: Vec<&Choice> = turn.best().collect();
    let also: Vec<&str> = best[1..].iter().map(|c| c.played.label.as_str()).collect();
    println!(
        "Hint: {} ({}){}.",
        best[0].played.label,
        out.mark(best[0].mark),
        if also.is_empty() {
            String::new()
        } else {
            format!("; as good: {}", also.join(", "))
        }
    );
}

/// `moves`: every move with what it gives the mover.
fn list_moves(turn: &Turn, out: &Out) {
    let width = turn
        .moves
        .iter()
        .map(|c| c.played.label.len())
        .max()
        .unwrap_or(0);
    for c in &turn.moves {
        let answer = c
            .answer
            .as_ref()
            .map(|a| format!(" (answered {a})"))
            .unwrap_or_default();
        println!(
            "  {:width$}  {}{answer}{}",
            c.played.label,
            out.mark(c.mark),
            if c.best { "  (best)" } else { "" }
        );
    }
}

/// The person's move `c` in words, with the best there was when it was not one.
fn say_played(turn: &Turn, c: &Choice, out: &Out) {
    let who = match out.me {
        Some(_) => "You play".to_string(),
        None => "Played".to_string(),
    };
    let verdict = if c.best {
        String::new()
    } else {
        let b = turn.best().next().expect("a move was played");
        format!(" (best was {}: {})", b.played.label, out.mark(b.mark))
    };
    let answer = c
        .answer
        .as_ref()
        .map(|a| format!(", answered {a}"))
        .unwrap_or_default();
    println!(
        "{who} {}{answer}: {}{verdict}.",
        c.played.label,
        out.mark(c.mark)
    );
}

/// A line that is neither a command nor a move here, refused with some of the moves.
fn refuse_move(turn: &Turn, text: &str) {
    let some: Vec<&str> = turn
        .moves
        .iter()
        .take(12)
        .map(|c| c.played.label.as_str())
        .collect();
    refuse(&format!(
        "'{}' is not a move here; expected {}{} or {}",
        crate::game::echo(text),
        some.join(", "),
        if turn.moves.len() > some.len() {
            ", ..."
        } else {
            ""
        },
        "hint, moves, undo, redo, board, quit"
    ));
}

/// The end of the session: a failure when any input line was refused (each said why already).
fn said_refused(refused: u64) -> Result<(), Failure> {
    if refused > 0 {
        let lines = if refused == 1 {
            "line was"
        } else {
            "lines were"
        };
        eprintln!("gamedb: {refused} input {lines} refused (each said why above)");
        return Err(Failure::Reported);
    }
    Ok(())
}

/// Whether the position the line has reached is the person's to move.
fn mine(me: Option<Player>, referee: &Referee, line: &[Vec<u32>]) -> bool {
    let mover = if referee.players() == 1 || (line.len() - 1) % 2 == 0 {
        Player::First
    } else {
        Player::Second
    };
    me.is_none_or(|m| m == mover)
}

fn refuse(message: &str) {
    let _ = std::io::stdout().flush();
    eprintln!("gamedb: {message}");
}

fn stdout_error(e: std::io::Error) -> Error {
    Error::Io {
        path: "<stdout>".into(),
        source: e,
    }
}

/// What the terminal shows.
struct Out {
    colour: bool,
    me: Option<Player>,
}

impl Out {
    /// A mark in words, coloured on a terminal by who it favours (the words say it too).
    fn mark(&self, m: Mark) -> String {
        let text = m.text();
        if !self.colour {
            return text;
        }
        let code = match m.value {
            Worth::Win => "32",
            Worth::Lose | Worth::Unsolvable => "31",
            Worth::Tie | Worth::Draw => "33",
            Worth::Solvable => "36",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }

    fn board(&mut self, table: &Table, game: &Game) {
        let turn = &game.turn;
        println!();
        println!("{}", table.rules().board(&turn.numbers));
        if turn.over {
            return;
        }
        let who = match (game.players, self.me, turn.player) {
            (1, _, _) => "to play",
            (_, Some(m), p) if m == p => "your move",
            (_, Some(_), _) => "the computer to move",
            (_, None, Player::First) => "the first player to move",
            (_, None, Player::Second) => "the second player to move",
        };
        println!(
            "Move {}, {who}: {}.",
            game.plies.len() + 1,
            self.mark(turn.mark)
        );
    }
}

/// The computer's choice among equal moves for `--pick random`: a xorshift generator, enough
/// for varying play (nothing here needs more than that).
struct Rng(u64);

impl Rng {
    fn new(seed: Option<u64>) -> Rng {
        let seed = seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        Rng(seed | 1)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
