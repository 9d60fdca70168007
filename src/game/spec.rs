//! A game as its author writes it ([`GameSpec`]): the checked parameters of one table and the
//! [`View`] they make.

use std::fmt;

use super::params::{self, Arguments, Param};
use super::view::View;
use crate::model::ValueKind;
use crate::{Error, Result};

/// Most positions a table may have (2^38: a 32 GiB bit table). Room for the 20×20 Chomp box
/// (1.38·10^11 positions, 16 GiB at one bit); the memory check still refuses what will not fit.
pub const MAX_POSITIONS: u64 = 1 << 38;

/// A game, as its author writes it: the checked parameters of one table (values by name go
/// in, a checked spec comes out; the fields stay private, so no unchecked spec exists), and
/// the [`View`] those parameters make: the rules lookups read positions with and the engine that
/// solves the game's tables.
///
/// Seven items are required: [`NAME`](GameSpec::NAME), [`ABOUT`](GameSpec::ABOUT),
/// [`PARAMS`](GameSpec::PARAMS), [`from_args`](GameSpec::from_args),
/// [`parameters`](GameSpec::parameters), [`samples`](GameSpec::samples) and
/// [`view`](GameSpec::view). The rest has defaults made from them: the value kinds
/// ([`VALUES`](GameSpec::VALUES), P/N bits), the file name stem (the name and the parameter
/// values) and the line for people. A small impartial game implements
/// [`SimpleGame`](super::SimpleGame) instead, a two-player game
/// [`TwoPlayerGame`](super::TwoPlayerGame): each makes all of this for it.
///
/// Registering a game is one line: in `src/games/mod.rs` for the games of this crate, or
/// `Registry::builtin().with::<MySpec>()` in another crate (see `src/guide/game-authors.md`).
/// The registry makes the `gamedb build` subcommand from [`GameSpec::PARAMS`] and
/// [`GameSpec::VALUES`] (`--values KIND`), reads headers back with
/// [`GameSpec::from_parameters`], and in the tests checks the view of every one of
/// [`GameSpec::samples`] ([`View::conformance`]) and its solved values against the game's own
/// recurrence (`conformance::values`), which needs no code from the game beyond its rules.
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
    /// What these parameters make of the game: its rules and the engine that solves it (see
    /// [`View`]). Made once for each spec the program holds.
    fn view(&self) -> View;

    /// Parameters read back from a header's text; the error says what is wrong with them. By
    /// default [`from_args`](GameSpec::from_args) on the values, which must be written as
    /// [`parameters`](GameSpec::parameters) writes them (one spelling for one table).
    fn from_parameters(text: &str) -> Result<Self> {
        let spec = Self::from_args(&Arguments::parse(text)?)?;
        let canonical = spec.parameters();
        if canonical != text {
            return Err(Error::bad(format!(
                "parameters '{text}' are not written canonically (expected '{canonical}')"
            )));
        }
        Ok(spec)
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
}
