//! The trait family every game implements.
//!
//! A game is seen three times:
//! * by the **solvers** ([`Game`], optionally [`Retro`](crate::model::Retro), or the solver
//!   traits of [`crate::solve`]), as a dense index `0..positions()` with moves between indices;
//! * by **lookups** ([`Rules`]), as positions people and programs write down: parse one,
//!   rank it into the index, list its moves with readable labels;
//! * by the **registry** ([`GameSpec`]), as checked parameters: what a table header stores,
//!   what the command line accepts, how to solve and how to check the game's own contracts
//!   ([`conformance`]).
//!
//! A small game writes one type instead ([`SimpleGame`]): its parameters, the [`Shape`] of its
//! positions and its moves; the spec, the index and both views are made from them.
//!
//! Neither solver nor lookup knows which game it serves; a game knows neither the file format
//! nor the lookups nor the command line beyond its own arguments.

use std::fmt;

use crate::format::Solved;
use crate::model::{Game, Outcome, Standing, ValueKind};
use crate::progress::Progress;
use crate::Result;

pub mod conformance;
mod fast_paths;
pub mod params;
pub mod simple;
mod tiered_view;

pub use params::{Arguments, Param, ParamValue};
pub use simple::{Shape, SimpleGame, SimpleView};
pub(crate) use tiered_view::tiered_game_view;

/// Most positions a table may have (2^38: a 32 GiB bit table). Room for the 20×20 Chomp box
/// (1.38·10^11 positions, 16 GiB at one bit); the memory check still refuses what will not fit.
pub const MAX_POSITIONS: u64 = 1 << 38;

/// A game, as its author writes it: the checked parameters of one table (values by name go
/// in, a checked spec comes out; the fields stay private, so no unchecked spec exists), and
/// the view of the game those parameters make ([`GameSpec::View`]) for the solvers and the
/// lookups.
///
/// Eight items are required: [`NAME`](GameSpec::NAME), [`ABOUT`](GameSpec::ABOUT),
/// [`PARAMS`](GameSpec::PARAMS), [`View`](GameSpec::View), [`view`](GameSpec::view),
/// [`from_args`](GameSpec::from_args), [`parameters`](GameSpec::parameters) and
/// [`samples`](GameSpec::samples). Everything else has a default made from them: the value
/// kinds ([`VALUES`](GameSpec::VALUES), P/N bits), the positions, the rules and the solving
/// (the view's, see [`GameView`]), the file name stem (the name and the parameter values) and
/// the line for people. A game with an engine of its own overrides what it does otherwise.
/// A small game implements [`SimpleGame`] instead, which makes all of this for it.
///
/// Registering a game is one line: in `src/games/mod.rs` for the games of this crate, or
/// `Registry::builtin().with::<MySpec>()` in another crate (see `src/guide/game-authors.md`).
/// The registry makes the `gamedb build` subcommand from [`GameSpec::PARAMS`] and
/// [`GameSpec::VALUES`] (`--values KIND`), reads headers back with
/// [`GameSpec::from_parameters`], and runs [`GameSpec::conformance`] on
/// [`GameSpec::samples`] in the tests, together with the check of the solved values of every
/// kind against the game's own recurrence ([`conformance::values`], through
/// `Spec::check_values`), which needs no code from the game beyond its [`Rules`]
/// ([`Rules::terminal_outcome`], [`Rules::is_goal`]).
pub trait GameSpec: Sized + Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The game's identity in table headers and its word in `gamedb build NAME`: lower-case
    /// letters, digits and `-`, at most 64 bytes. A game of another crate is named
    /// `CRATE/GAME` (the registry refuses a bare name from outside this crate, so no game of
    /// this crate can ever share it). Never change it: tables carry it.
    const NAME: &'static str;
    /// One line for `gamedb build --help`.
    const ABOUT: &'static str;
    /// The version of the game's rules, stored in its tables: raise it when a change would
    /// give a table of the same parameters other values (or another index), so older tables
    /// are refused rather than misread.
    const RULES_VERSION: u32 = 1;
    /// The parameters `gamedb build NAME` accepts (as `--NAME VALUE` options), besides the
    /// `--values KIND` the registry adds from [`VALUES`](GameSpec::VALUES).
    const PARAMS: &'static [Param];
    /// Every kind of value a table of this game may hold, the default first (its tables'
    /// file names carry no kind); `gamedb build NAME --values KIND` chooses another. By
    /// default P/N bits alone.
    const VALUES: &'static [ValueKind] = &[ValueKind::Outcome];

    /// The game as the solvers and lookups see it (see [`GameView`]): for most games one type
    /// implementing [`Game`] and [`Rules`].
    type View: GameView;
    /// The view of these parameters.
    fn view(&self) -> Self::View;

    /// Checks the values given for [`PARAMS`](GameSpec::PARAMS) (from the command line or
    /// from a header): the spec they ask for, or an error naming the bad option and what is
    /// accepted. The value kind is the registry's to check; `args.get("values")` holds the
    /// one asked for, for a game that refuses some kinds for some parameters.
    fn from_args(args: &Arguments) -> Result<Self>;
    /// The parameters as canonical text, stored in table headers: the form
    /// [`params::write`] makes, e.g. `heaps=6,max-heap=63`; without the value kind, which the
    /// header keeps apart. Two specs are equal exactly when their texts are.
    fn parameters(&self) -> String;
    /// Small instances, each solved in well under a second, for the conformance tests.
    fn samples() -> Vec<Self>;

    /// Parameters read back from a header's text; the error says what is wrong with them. By
    /// default [`from_args`](GameSpec::from_args) on the values, which must be written as
    /// [`parameters`](GameSpec::parameters) writes them (one spelling for one table).
    fn from_parameters(text: &str) -> std::result::Result<Self, String> {
        let args = Arguments::parse(text)?;
        let spec = Self::from_args(&args).map_err(|e| e.to_string())?;
        let canonical = spec.parameters();
        if canonical != text {
            return Err(format!(
                "parameters '{text}' are not written canonically (expected '{canonical}')"
            ));
        }
        Ok(spec)
    }
    /// Number of positions in the table: by default the view's.
    fn positions(&self) -> u64 {
        self.view().positions()
    }
    /// File name stem (without the value kind and extension), e.g. `nim-6x63`. By default the
    /// name (after its `CRATE/`) and the parameter values in the order of
    /// [`PARAMS`](GameSpec::PARAMS), joined by `-` (a switch that is on by its name, a
    /// list's commas as `_`): `kayles-12` for `pins=12`.
    fn stem(&self) -> String {
        params::stem(Self::NAME, Self::PARAMS, &self.parameters())
    }
    /// One line for people, e.g. `Nim: 6 heaps of 0..=63, take any number, normal play`. By
    /// default the name and the parameter text: `kayles/kayles pins=12`.
    fn describe(&self) -> String {
        format!("{} {}", Self::NAME, self.parameters())
    }
    /// The value kinds these parameters can be solved for, the first the default: by default
    /// [`VALUES`](GameSpec::VALUES); a game that refuses some kinds for some parameters
    /// (misère Nim has no Grundy values) lists fewer, never others.
    fn value_kinds(&self) -> &'static [ValueKind] {
        Self::VALUES
    }
    /// Why these parameters refuse `kind` where the game has it (in
    /// [`VALUES`](GameSpec::VALUES), not in [`value_kinds`](GameSpec::value_kinds)), for the
    /// message; by default the message lists the kinds they take.
    fn refuses(&self, _kind: ValueKind) -> Option<String> {
        None
    }
    /// The rules used by lookups: by default the view.
    fn rules(&self) -> Result<Box<dyn Rules>> {
        Ok(Box::new(self.view()))
    }
    /// Solves every position for `kind` values (one of [`value_kinds`](GameSpec::value_kinds)):
    /// by default [`solve_saving`](GameSpec::solve_saving) saving nothing, so a game that
    /// brings its own solver overrides that one method and both calls use it.
    fn solve(&self, kind: ValueKind, progress: &dyn Progress) -> Result<Solved> {
        self.solve_saving(kind, progress, &())
    }
    /// [`solve`](GameSpec::solve), handing the solver's finished waves to `saves` and resuming
    /// from what it saved (see `solve::saves`). By default the view's
    /// ([`GameView::solve_saving`]).
    fn solve_saving(
        &self,
        kind: ValueKind,
        progress: &dyn Progress,
        saves: &dyn crate::solve::Saves,
    ) -> Result<Solved> {
        self.view().solve_saving(kind, progress, saves)
    }
    /// Bytes of the table [`solve_saving`](GameSpec::solve_saving) hands to its saves for
    /// `kind` values (each save is that large; a build checks the disk for it): 0 when it saves
    /// nothing. By default the view's ([`GameView::saved_bytes`]).
    fn saved_bytes(&self, kind: ValueKind) -> u64 {
        self.view().saved_bytes(kind)
    }
    /// Memory [`solve`](GameSpec::solve) needs at its peak for `kind` values, in bytes: the
    /// solver's (from its `*_memory` estimate in [`crate::solve`]) and the game's own tables.
    /// A build compares it with what the machine has before it allocates anything, so it must
    /// not be an underestimate. By default the view's ([`GameView::solve_memory`]).
    fn solve_memory(&self, kind: ValueKind) -> u64 {
        self.view().solve_memory(kind)
    }
    /// Bytes of the solved `kind` values ([`Solved`]'s storage) when the game knows them
    /// before solving, as three-rowed Chomp knows it stores two or three bytes a pair; `None`
    /// lets a build assume the widest its value kind may take.
    fn solved_bytes(&self, _kind: ValueKind) -> Option<u64> {
        None
    }
    /// Checks the game's contracts on this instance (see [`conformance`]): returns the number
    /// of positions checked, or what is broken. By default the view's
    /// ([`GameView::conformance`]).
    fn conformance(&self) -> std::result::Result<u64, String> {
        self.view().conformance()
    }
}

/// What a game is to the solvers and the lookups: its [`Rules`], its number of positions, how
/// its tables are solved and how its contracts are checked.
///
/// Every [`Game`] that is its own [`Rules`] has it, nothing to write: P/N bits from
/// [`crate::solve::solve_outcomes`], Grundy values from [`crate::solve::solve_grundy`] (with
/// their `*_memory` estimates), and the checks [`conformance::game`] and
/// [`conformance::rules`]. A game the solvers see otherwise (a puzzle searched breadth first,
/// a sum of heaps, an engine of its own) implements it for its rules.
pub trait GameView: Rules + 'static {
    /// Number of positions.
    fn positions(&self) -> u64;
    /// Solves every position for `kind` values.
    fn solve(&self, kind: ValueKind, progress: &dyn Progress) -> Result<Solved>;
    /// Memory [`solve`](GameView::solve) needs at its peak (see [`GameSpec::solve_memory`]).
    fn solve_memory(&self, kind: ValueKind) -> u64;
    /// Checks the game's contracts (see [`GameSpec::conformance`]).
    fn conformance(&self) -> std::result::Result<u64, String>;
    /// [`solve`](GameView::solve), handing the solver's finished waves to `saves` and resuming
    /// from what it saved. By default nothing is saved.
    fn solve_saving(
        &self,
        kind: ValueKind,
        progress: &dyn Progress,
        _saves: &dyn crate::solve::Saves,
    ) -> Result<Solved> {
        self.solve(kind, progress)
    }
    /// Bytes [`solve_saving`](GameView::solve_saving) hands to its saves: 0 by default.
    fn saved_bytes(&self, _kind: ValueKind) -> u64 {
        0
    }
}

impl<G: Game + Rules + 'static> GameView for G {
    fn positions(&self) -> u64 {
        Game::positions(self)
    }

    fn solve(&self, kind: ValueKind, progress: &dyn Progress) -> Result<Solved> {
        match kind {
            ValueKind::Outcome => Ok(crate::solve::solve_outcomes(self, progress)?.into_solved()),
            ValueKind::Grundy => Ok(Solved::Grundy(crate::solve::solve_grundy(self, progress)?)),
            other => Err(crate::Error::internal(format!(
                "no solver of {} values for a game over a dense index; the game's spec solves them",
                other.name()
            ))),
        }
    }

    fn solve_memory(&self, kind: ValueKind) -> u64 {
        match kind {
            ValueKind::Grundy => crate::solve::grundy_memory(Game::positions(self)),
            _ => crate::solve::outcomes_memory(Game::positions(self)),
        }
    }

    fn conformance(&self) -> std::result::Result<u64, String> {
        let children = conformance::game(self)?;
        conformance::rules(self, Game::positions(self), Some(&children))
    }
}

/// One legal move from a position, as the lookup shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// How a person would say the move, e.g. `take 1 from heap 3`.
    pub label: String,
    /// The position it leaves, from the point of view of the next player.
    pub leaves: Vec<u32>,
}

/// One choice of a player who plays against an adversary ([`Rules::choices`]): the choice
/// and each answer the adversary may give, as a move labelled by the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// How a person would say the choice, e.g. `weigh 4U against 4U`.
    pub label: String,
    /// Every answer the adversary may give, each with the position it leaves.
    pub answers: Vec<Move>,
}

/// A game as the lookups see it: positions written as lists of small numbers.
///
/// The meaning of the numbers is the game's (heap sizes, row lengths, tiles, ...), and so is
/// the check that a list is a position of this table.
pub trait Rules: Send + Sync {
    /// Parses one position written the way `query` accepts it; the error names what was
    /// wrong and the accepted form.
    fn parse(&self, text: &str) -> Result<Vec<u32>> {
        let pos = parse_numbers(text, self.position_form())?;
        self.check(&pos)?;
        Ok(pos)
    }

    /// How positions are written, for error messages (e.g. `h1,h2,... with each heap 0..=63`).
    fn position_form(&self) -> String;

    /// Checks that `pos` is a position of this table.
    fn check(&self, pos: &[u32]) -> Result<()>;

    /// Why a checked position lies outside the table although it is valid input (for example
    /// a puzzle arrangement that cannot reach the goal, which a distance table does not
    /// store), or `None` for a position of the table. Lookups answer such a position from this
    /// reason alone, without ranking it or reading the table. The default: every checked
    /// position is in the table.
    fn outside(&self, _pos: &[u32]) -> Option<String> {
        None
    }

    /// For a distance table whose entries are only a lower bound on the moves to the goal (a
    /// pattern database), what an entry counts, e.g. `moves of tiles 1-4,7 ...`; `None` (the
    /// default) for a table of exact distances. Lookups answer such a table with the bound
    /// alone: no optimal moves, no path.
    fn distance_bound(&self) -> Option<String> {
        None
    }

    /// The index of a checked position that is not [`outside`](Rules::outside) the table.
    fn rank(&self, pos: &[u32]) -> u64;

    /// The fast path of a checked lookup: the index of `pos` when it is one entry of the
    /// table — [`check`](Rules::check) accepts it, it is not [`outside`](Rules::outside) and
    /// not a sum ([`summands`](Rules::summands) is `None`) — found in one pass without
    /// building an error or a list. It must never give `Some` for any other position, and
    /// `Some(i)` only with `i == rank(pos)`; `None` is always allowed: the lookup then takes
    /// those calls one by one, for the error or the sum. The default (`None`) keeps every
    /// lookup on that path; a game whose lookups are a table's hot loop (Nim, Chomp) fuses
    /// the checks into its ranking. The conformance checks hold every game to this contract.
    #[inline]
    fn entry_index(&self, _pos: &[u32]) -> Option<u64> {
        None
    }

    /// [`entry_index`](Rules::entry_index) of the position a text writes, read in the same
    /// pass: `Some(i)` only when [`parse`](Rules::parse) accepts the text and `entry_index`
    /// gives `Some(i)` for what it reads; `None` is always allowed (the lookup then parses
    /// the text, for the error or the sum). The default (`None`) suits a game whose text is
    /// cheap to read into numbers; chess overrides it, since a FEN's board is read straight
    /// into the board the rules check.
    #[inline]
    fn text_entry_index(&self, _text: &str) -> Option<u64> {
        None
    }

    /// The position at an index (a canonical representative).
    fn unrank(&self, index: u64) -> Vec<u32>;

    /// Every legal move of a checked position.
    fn moves(&self, pos: &[u32]) -> Vec<Move>;

    /// The moves of a checked position whose leaves `keep` accepts, in the order of
    /// [`moves`](Rules::moves). Lookups use it to find the few winning moves among many: a
    /// game whose positions have millions of moves (a heap of an octal game) overrides it to
    /// label only the moves kept.
    fn moves_where(&self, pos: &[u32], keep: &mut dyn FnMut(&[u32]) -> bool) -> Vec<Move> {
        self.moves(pos)
            .into_iter()
            .filter(|m| keep(&m.leaves))
            .collect()
    }

    /// The outcome of a checked position without moves, for the player to move, as the rules
    /// of the game say (independently of any solver): by default P, normal play (whoever
    /// cannot move loses); misère games and games scored at the end say otherwise. The value
    /// conformance check ([`conformance::values`]) holds every solved table to it.
    fn terminal_outcome(&self, _pos: &[u32]) -> Outcome {
        Outcome::P
    }

    /// For a two-player game with ties and draws ([`ValueKind::Remoteness`] tables): the
    /// value of a checked position where the game is over, for the player to move, as the
    /// rules say (`Lose` when the other side has just completed a line, `Tie` for a full
    /// board); `None` while play goes on. The value conformance check holds every solved
    /// table to it, and every other position to the values of its moves.
    fn terminal_standing(&self, _pos: &[u32]) -> Option<Standing> {
        None
    }

    /// For a game with a move counter ([`ValueKind::Dtz`] tables): whether the move from the
    /// position at index `from` to the one at `to` resets it (in chess, a capture or a pawn
    /// move). The solver resets it on every move out of a tier; by default no move does.
    fn resets_counter(&self, _from: u64, _to: u64) -> bool {
        false
    }

    /// The position play starts from, for games that have one (the empty board): `info`
    /// gives its value and what is reachable from it. By default none.
    fn start(&self) -> Option<Vec<u32>> {
        None
    }

    /// For a distance table: whether a checked position is a goal (distance 0), as the rules
    /// of the puzzle say. By default none is (games without distances).
    fn is_goal(&self, _pos: &[u32]) -> bool {
        false
    }

    /// For a game played as a *disjunctive sum* of table entries (Sprague–Grundy: a move is a
    /// move in one part, and the Grundy value of a sum is the xor of its parts' values): the
    /// parts of a checked position, each a position of exactly one entry of the table
    /// ([`rank`](Rules::rank) gives it, and `summands` of a part is that part alone). A
    /// position is written as its parts one after another (heaps `3,5,17` are the parts `3`,
    /// `5` and `17`), and the moves of a part leave a position written the same way (a heap
    /// split in two leaves two parts). `None` (the default) for a game whose every position
    /// is one entry.
    ///
    /// Lookups answer a position of such a game from its parts' entries (which must be Grundy
    /// values): the xor, P exactly when it is 0, and as winning moves the moves of one part
    /// that bring the xor to 0. [`rank`](Rules::rank) and [`move_indices`](Rules::move_indices)
    /// are then asked of single parts only, and the conformance checks
    /// ([`conformance::rules`], [`conformance::values`]) read each move's leaves as a sum.
    fn summands(&self, _pos: &[u32]) -> Option<Vec<Vec<u32>>> {
        None
    }

    /// Appends to `out` the index of the position each legal move of a checked position
    /// leaves, in the order of [`moves`](Rules::moves). Lookups read these entries to find
    /// the winning moves, then ask [`moves_at`](Rules::moves_at) for the few they keep. The
    /// default ranks the leaves of [`moves`](Rules::moves); a game with many moves per
    /// position overrides it to rank children without building labels (same answer).
    fn move_indices(&self, pos: &[u32], out: &mut Vec<u64>) {
        out.extend(self.moves(pos).iter().map(|m| self.rank(&m.leaves)));
    }

    /// The moves numbered `which` (positions in the order of [`moves`](Rules::moves),
    /// ascending) of a checked position. The default builds every move and keeps those.
    fn moves_at(&self, pos: &[u32], which: &[usize]) -> Vec<Move> {
        let mut all: Vec<Option<Move>> = self.moves(pos).into_iter().map(Some).collect();
        which
            .iter()
            .filter_map(|&k| all.get_mut(k)?.take())
            .collect()
    }

    /// For a table of [`ValueKind::Extension`] values (one entry per prefix): P or N of a
    /// checked position, read from the entries through `entry` (entry index to stored value).
    /// `None` (the default) for games that do not store such tables.
    fn extension_outcome(&self, _pos: &[u32], _entry: &dyn Fn(u64) -> u32) -> Option<Outcome> {
        None
    }

    /// For a table of [`ValueKind::Extension`] values: every winning move of a checked
    /// position, in the order of [`moves`](Rules::moves), found from the entries alone
    /// (a position may have too many moves to list them all). `None` (the default) for
    /// games that do not store such tables.
    fn extension_winning_moves(
        &self,
        _pos: &[u32],
        _entry: &dyn Fn(u64) -> u32,
    ) -> Option<Vec<Move>> {
        None
    }

    /// For a puzzle played against an adversary who answers each choice (the balance of the
    /// weighing puzzle): the choices of a checked position that `keep` accepts (it sees the
    /// positions of the answers), each with its answers, in a fixed order; [`moves`](Rules::moves)
    /// are then every answer of every choice. A distance table of such a puzzle holds the
    /// fewest choices that reach a goal whatever the answers (minimax, `solve::solve_against`),
    /// and lookups show the choices whose every answer is one nearer. Choices that can leave
    /// the position as it was are not listed (they never help). `None` (the default) for a
    /// game without an adversary.
    fn choices(
        &self,
        _pos: &[u32],
        _keep: &mut dyn FnMut(&[Vec<u32>]) -> bool,
    ) -> Option<Vec<Choice>> {
        None
    }

    /// Writes a position the way `parse` reads it.
    fn format(&self, pos: &[u32]) -> String {
        format_numbers(pos)
    }

    /// The position drawn for a person at a terminal (`gamedb play`), one or more lines; by
    /// default the position as [`format`](Rules::format) writes it.
    fn board(&self, pos: &[u32]) -> String {
        self.format(pos)
    }

    /// Game-specific facts about a whole table, shown by `gamedb info` after the common
    /// ones (for example Chomp's P-position census of every sub-box). By default none.
    fn facts(&self, _values: &dyn Values) -> Vec<Fact> {
        Vec::new()
    }

    /// For a game whose table is the values of one heap of each size (octal and subtraction
    /// games, Nim of one heap, the candy game by the candies left): where the value of each
    /// heap is, for the pictures of the sequence (`gamedb plot --picture sequence` and
    /// `rows`). `None` (the default) for every other game.
    fn heap_sequence(&self) -> Option<HeapSequence> {
        None
    }
}

/// How a table reads as a sequence of values, one for each heap `0..=max_heap`
/// ([`Rules::heap_sequence`]): plain data, so that a picture needs no knowledge of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapSequence {
    /// The entry of heap 0.
    pub first: u64,
    /// Entries from one heap to the next: the entry of heap `h` is `first + step·h`.
    pub step: u64,
    /// The largest heap.
    pub max_heap: u64,
    /// What the heaps count, for an axis (`heap`, `candies left`).
    pub heap: String,
    /// What each entry is the value of, beyond the heap (`the mover's total even`), or empty.
    pub note: String,
    /// When the octal periodicity theorem (Guy & Smith 1956) proves periods of these values:
    /// its `t`, the most counters one move takes. `None` when it does not apply: a period
    /// the values show is then only tentative.
    pub theorem: Option<u64>,
}

/// Read access to the values of a whole table, for [`Rules::facts`].
pub trait Values {
    /// Number of positions.
    fn len(&self) -> u64;

    /// True for a table without positions.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// P or N of position `index`.
    fn outcome(&self, index: u64) -> Outcome;

    /// The stored value of entry `index` (the bit, the byte or the u16), for facts that need
    /// more than P or N (the extension tables of three-rowed Chomp).
    fn raw(&self, index: u64) -> u32;

    /// Calls `f` with the index of every P-position, in increasing order.
    fn for_each_p(&self, f: &mut dyn FnMut(u64)) {
        for i in 0..self.len() {
            if self.outcome(i) == Outcome::P {
                f(i)
            }
        }
    }
}

/// One game-specific fact about a table, as `gamedb info` shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Fact {
    /// Key in `info --json` (lower case, underscores).
    pub key: String,
    /// What the fact is, for people (one line).
    pub label: String,
    /// The value for people; may span several lines.
    pub text: String,
    /// The value in `info --json`.
    pub json: serde_json::Value,
}

/// Binomial coefficient C(n, k), `None` on overflow.
pub fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut acc: u128 = 1;
    for i in 0..k {
        acc = acc * (n - i) as u128 / (i + 1) as u128;
        if acc > u64::MAX as u128 {
            return None;
        }
    }
    Some(acc as u64)
}

/// Parses `a,b,c` (spaces allowed) into numbers; `form` names the accepted form in errors.
/// Messages quote the input through [`echo`], so a 10 MB line is named by its beginning, not
/// repeated.
pub fn parse_numbers(text: &str, form: String) -> Result<Vec<u32>> {
    let text = text.trim();
    if text.is_empty() {
        return Err(crate::Error::bad(format!(
            "empty position; expected {form}"
        )));
    }
    text.split(',')
        .map(|part| {
            let part = part.trim();
            part.parse::<u32>().map_err(|e| {
                let what = if *e.kind() == std::num::IntErrorKind::PosOverflow {
                    format!("is too large (at most {})", u32::MAX)
                } else {
                    "is not a non-negative integer".to_string()
                };
                crate::Error::bad(format!(
                    "position '{}': '{}' {what}; expected {form}",
                    echo(text),
                    echo(part)
                ))
            })
        })
        .collect()
}

/// Longest quotation of input in a message or an error line: a 10 MB line is named by its
/// beginning, not repeated.
pub const ECHO_LIMIT: usize = 200;

/// `text` cut to at most [`ECHO_LIMIT`] bytes (at a character boundary), with `… (N bytes)`
/// when it was cut.
pub fn echo(text: &str) -> String {
    if text.len() <= ECHO_LIMIT {
        return text.to_string();
    }
    let mut end = ECHO_LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

/// The error for a position that `rules` refuses: `position '…': {what}; expected {form}`.
/// Called only on failure, so checks on the lookup hot path build no message.
pub fn bad_position<T>(rules: &(impl Rules + ?Sized), pos: &[u32], what: String) -> Result<T> {
    Err(crate::Error::bad(format!(
        "position '{}': {what}; expected {}",
        quote(pos),
        rules.position_form()
    )))
}

/// `Ok` for a board play can make (`why` is `None`), else the error naming the position in the
/// game's own form, why no play makes it, and the form expected.
pub fn no_play_makes(
    rules: &(impl Rules + ?Sized),
    pos: &[u32],
    why: Option<String>,
) -> Result<()> {
    match why {
        Some(why) => Err(crate::Error::bad(format!(
            "position '{}' is no position of the game: {why}; expected {}",
            rules.format(pos),
            rules.position_form()
        ))),
        None => Ok(()),
    }
}

/// A position as messages quote it: [`format_numbers`] cut like [`echo`], without writing out
/// the whole of a huge one first.
pub fn quote(pos: &[u32]) -> String {
    let limit = ECHO_LIMIT;
    // Each number takes at most 11 bytes with its comma: the prefix that can be shown.
    let shown = &pos[..pos.len().min(limit / 2 + 1)];
    let text = format_numbers(shown);
    if shown.len() == pos.len() {
        return echo(&text);
    }
    let total: usize = pos.iter().map(|v| decimal_len(*v)).sum::<usize>() + pos.len() - 1;
    format!("{}… ({total} bytes)", &text[..limit.min(text.len())])
}

fn decimal_len(v: u32) -> usize {
    v.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Heaps drawn a line each (`heap 2  ||||  4`), the board of the heap games; a heap too long
/// to draw is its number alone.
pub fn heaps_board(pos: &[u32]) -> String {
    let width = pos.iter().copied().filter(|&h| h <= 40).max().unwrap_or(0) as usize;
    pos.iter()
        .enumerate()
        .map(|(i, &h)| match h {
            0..=40 => format!("heap {}  {:<width$}  {h}", i + 1, "|".repeat(h as usize)),
            _ => format!("heap {}  {h}", i + 1),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `a,b,c`.
pub fn format_numbers(pos: &[u32]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(pos.len() * 3);
    for (i, x) in pos.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        // Written in place: no string per number (exports format millions of positions).
        let _ = write!(s, "{x}");
    }
    s
}
