//! The lookups' view of a game ([`Rules`]): positions as people and programs write them, ranked
//! into the table's index, with their moves labelled; and what a lookup shows of them ([`Move`],
//! [`Choice`]), what `gamedb info` and the pictures read of a whole table ([`Values`], [`Fact`],
//! [`HeapSequence`]).

use super::text::{format_numbers, parse_numbers, quote};
use crate::model::{Indexed, Outcome, Standing};
use crate::Result;

#[cfg(doc)]
use super::conformance;
#[cfg(doc)]
use crate::model::ValueKind;

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

/// A game as the lookups see it: positions written as lists of small numbers, each an entry of
/// the table ([`rank`](Rules::rank) gives it, below [`positions`](Indexed::positions)).
///
/// The meaning of the numbers is the game's (heap sizes, row lengths, tiles, ...), and so is
/// the check that a list is a position of this table.
pub trait Rules: Indexed + Send + Sync {
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
