//! The registry of games. Each game of this crate lives in its own file and exports one spec
//! type (its checked parameters) implementing [`GameSpec`]; registering it is one line in the
//! `builtin!` list at the bottom. A game of another crate is registered in that crate's own
//! binary: `Registry::builtin().with::<MySpec>()`, handed to `gamedb::cli::main_with`.
//!
//! * [`Spec`] is a table's game and parameters, of any registered game: a shared handle on the
//!   game's spec with the calls every other module makes (`describe`, `rules`, `solve`, ...);
//!   [`Spec::get`] gives the game's own type back to the reports about one game.
//! * [`Registry`] lists the games a running program knows: their names, parameters
//!   ([`Param`]) and samples; it reads a header's game name and parameter text back into a
//!   spec ([`Registry::spec`]). One registry is in force per process ([`registry`]): the
//!   built-in games unless a program [`install`](Registry::install)s another.
//!
//! Nothing else in the crate needs to change when a game is added; the modules that name a
//! particular game are reports about it (the theorems of `verify`, the Chomp rectangles, the
//! 15-puzzle solver).

use std::any::Any;
use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::game::{Arguments, GameSpec, Param, Progress, Rules, Solved, ValueKind, MAX_POSITIONS};
use crate::solve::Saves;
use crate::{Error, Result};

pub mod board;

/// The games of this crate: one line each (`module::SpecType`), which declares the module and
/// registers the game.
macro_rules! builtin {
    ($($module:ident::$ty:ident),* $(,)?) => {
        $(pub mod $module;)*

        fn builtin_entries() -> Vec<Entry> {
            vec![$(Entry::of::<$module::$ty>()),*]
        }
    };
}

builtin! {
    candy::CandySpec,
    nim::NimSpec,
    chomp::ChompSpec,
    slide::SlideSpec,
    pdb::PdbSpec,
    wythoff::WythoffSpec,
    chomp3::Chomp3Spec,
    subtraction::SubtractionSpec,
    octal::OctalSpec,
}

/// A game's spec behind [`Spec`]: [`GameSpec`] made object-safe, implemented for every
/// `GameSpec` (nothing for a game to write).
trait AnyGame: Send + Sync + fmt::Debug {
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn AnyGame) -> bool;
    fn name(&self) -> &'static str;
    fn rules_version(&self) -> u32;
    fn parameters(&self) -> String;
    fn positions(&self) -> u64;
    fn stem(&self) -> String;
    fn describe(&self) -> String;
    fn value_kinds(&self) -> &'static [ValueKind];
    fn solve_memory(&self, kind: ValueKind) -> u64;
    fn solved_bytes(&self, kind: ValueKind) -> Option<u64>;
    fn rules(&self) -> Result<Box<dyn Rules>>;
    fn conformance(&self) -> std::result::Result<u64, String>;
    fn saved_bytes(&self, kind: ValueKind) -> u64;
    fn solve_saving(
        &self,
        kind: ValueKind,
        progress: &dyn Progress,
        saves: &dyn Saves,
    ) -> Result<Solved>;
}

impl<T: GameSpec> AnyGame for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn AnyGame) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn name(&self) -> &'static str {
        T::NAME
    }
    fn rules_version(&self) -> u32 {
        T::RULES_VERSION
    }
    fn parameters(&self) -> String {
        GameSpec::parameters(self)
    }
    fn positions(&self) -> u64 {
        GameSpec::positions(self)
    }
    fn stem(&self) -> String {
        GameSpec::stem(self)
    }
    fn describe(&self) -> String {
        GameSpec::describe(self)
    }
    fn value_kinds(&self) -> &'static [ValueKind] {
        GameSpec::value_kinds(self)
    }
    fn solve_memory(&self, kind: ValueKind) -> u64 {
        GameSpec::solve_memory(self, kind)
    }
    fn solved_bytes(&self, kind: ValueKind) -> Option<u64> {
        GameSpec::solved_bytes(self, kind)
    }
    fn rules(&self) -> Result<Box<dyn Rules>> {
        GameSpec::rules(self)
    }
    fn conformance(&self) -> std::result::Result<u64, String> {
        GameSpec::conformance(self)
    }
    fn saved_bytes(&self, kind: ValueKind) -> u64 {
        GameSpec::saved_bytes(self, kind)
    }
    fn solve_saving(
        &self,
        kind: ValueKind,
        progress: &dyn Progress,
        saves: &dyn Saves,
    ) -> Result<Solved> {
        GameSpec::solve_saving(self, kind, progress, saves)
    }
}

/// A table's game and parameters, of any registered game (cheap to clone: a shared handle).
#[derive(Clone)]
pub struct Spec(Arc<dyn AnyGame>);

impl fmt::Debug for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl PartialEq for Spec {
    fn eq(&self, other: &Spec) -> bool {
        self.0.same(&*other.0)
    }
}

impl<T: GameSpec> From<T> for Spec {
    fn from(game: T) -> Spec {
        Spec::new(game)
    }
}

/// One registered game: what the registry knows of it without an instance (plain data and
/// the game's functions, taken from its [`GameSpec`] by [`Entry::of`]).
#[derive(Clone, Copy)]
pub struct Entry {
    /// The game's name ([`GameSpec::NAME`]).
    pub name: &'static str,
    /// One line about it ([`GameSpec::ABOUT`]).
    pub about: &'static str,
    /// Its rules version ([`GameSpec::RULES_VERSION`]).
    pub rules_version: u32,
    /// Its build parameters ([`GameSpec::PARAMS`]).
    pub params: &'static [Param],
    from_args: fn(&Arguments) -> Result<(Spec, ValueKind)>,
    from_parameters: fn(&str) -> std::result::Result<Spec, String>,
    samples: fn() -> Vec<Spec>,
    build_words: fn(&str) -> Option<String>,
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry").field("name", &self.name).finish()
    }
}

impl Entry {
    /// The entry of game `T`.
    pub fn of<T: GameSpec>() -> Entry {
        Entry {
            name: T::NAME,
            about: T::ABOUT,
            rules_version: T::RULES_VERSION,
            params: T::PARAMS,
            from_args: |args| T::from_args(args).map(|(spec, kind)| (Spec::new(spec), kind)),
            from_parameters: |text| T::from_parameters(text).map(Spec::new),
            samples: || T::samples().into_iter().map(Spec::new).collect(),
            build_words: T::build_words,
        }
    }

    /// The spec and value kind that values given on the command line ask for; unknown names
    /// are refused with the accepted ones.
    pub fn from_args(&self, args: &Arguments) -> Result<(Spec, ValueKind)> {
        if let Some(bad) = args
            .names()
            .find(|n| !self.params.iter().any(|p| p.name == *n))
        {
            return Err(Error::bad(format!(
                "{}: no parameter '{bad}' (accepted: {})",
                self.name,
                self.params
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        (self.from_args)(args)
    }

    /// The spec a header's parameter text describes.
    pub fn from_parameters(&self, text: &str) -> std::result::Result<Spec, String> {
        (self.from_parameters)(text)
    }

    /// Small instances, for the conformance tests.
    pub fn samples(&self) -> Vec<Spec> {
        (self.samples)()
    }

    /// The game's guess at the `gamedb build` words for a table file name stem
    /// ([`GameSpec::build_words`]).
    pub fn build_words(&self, stem: &str) -> Option<String> {
        (self.build_words)(stem)
    }
}

/// Longest game name (the header's `game` field, `format::GAME_NAME_LEN`, holds it).
pub const MAX_NAME_LEN: usize = 64;

/// Why a header's game could not be read back into a spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotKnown {
    /// No registered game has this name (a table of a game from another program).
    Game(String),
    /// The game is known, but under another rules version.
    RulesVersion {
        /// The game.
        game: String,
        /// The table's rules version.
        table: u32,
        /// This build's.
        known: u32,
    },
    /// The game is known, and the parameters are not valid for it (a damaged table).
    Parameters(String),
}

impl fmt::Display for NotKnown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotKnown::Game(game) => write!(
                f,
                "game '{game}' is not known to this build of gamedb (it knows {}); a program \
                 that registers it answers its positions",
                registry().names().join(", ")
            ),
            NotKnown::RulesVersion { game, table, known } => write!(
                f,
                "the table holds {game} under rules version {table}; this build of gamedb plays \
                 {game} under rules version {known}"
            ),
            NotKnown::Parameters(what) => f.write_str(what),
        }
    }
}

/// The games a program knows.
#[derive(Clone, Debug)]
pub struct Registry {
    entries: Vec<Entry>,
}

static INSTALLED: OnceLock<Registry> = OnceLock::new();

/// The registry in force in this process: the one [`Registry::install`]ed, else the built-in
/// games. Opening a table, the command line, the service and the C ABI all use it.
pub fn registry() -> &'static Registry {
    INSTALLED.get_or_init(Registry::builtin)
}

impl Registry {
    /// The games of this crate.
    pub fn builtin() -> Registry {
        Registry {
            entries: builtin_entries(),
        }
    }

    /// This registry and game `T` (of another crate). Panics, naming the game, when `T`'s name
    /// is not of the form `CRATE/GAME` (lower-case letters, digits, `-`), or is already
    /// registered: two games must never share the identity their tables carry.
    pub fn with<T: GameSpec>(mut self) -> Registry {
        if let Err(why) = self.add(Entry::of::<T>(), true) {
            panic!("{why}");
        }
        self
    }

    fn add(&mut self, entry: Entry, outside: bool) -> std::result::Result<(), String> {
        let name = entry.name;
        let word = |w: &str| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        };
        let valid = name.len() <= MAX_NAME_LEN
            && match name.split_once('/') {
                Some((krate, game)) => outside && word(krate) && word(game),
                None => !outside && word(name),
            };
        if !valid {
            return Err(format!(
                "game name '{name}': expected {} (lower-case letters, digits and '-', at most {} \
                 bytes)",
                if outside { "CRATE/GAME" } else { "a word" },
                MAX_NAME_LEN
            ));
        }
        if self.get(name).is_some() {
            return Err(format!("game '{name}' is registered twice"));
        }
        self.entries.push(entry);
        Ok(())
    }

    /// Makes this registry the one in force in this process ([`registry`]); refused (with the
    /// registry given back) when one is already in force: a process knows one set of games.
    pub fn install(self) -> std::result::Result<(), Registry> {
        let mut given = Some(self);
        INSTALLED.get_or_init(|| given.take().expect("taken once"));
        match given {
            None => Ok(()),
            Some(refused) => Err(refused),
        }
    }

    /// Every registered game, the built-in ones first.
    pub fn games(&self) -> &[Entry] {
        &self.entries
    }

    /// The names of the registered games.
    pub fn names(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.name).collect()
    }

    /// The game named `name`.
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// The spec a table header describes: its game name, rules version and parameter text.
    pub fn spec(
        &self,
        game: &str,
        rules_version: u32,
        parameters: &str,
    ) -> std::result::Result<Spec, NotKnown> {
        let entry = self
            .get(game)
            .ok_or_else(|| NotKnown::Game(game.to_string()))?;
        if entry.rules_version != rules_version {
            return Err(NotKnown::RulesVersion {
                game: game.to_string(),
                table: rules_version,
                known: entry.rules_version,
            });
        }
        entry
            .from_parameters(parameters)
            .map_err(|e| NotKnown::Parameters(format!("{game} parameters '{parameters}': {e}")))
    }

    /// Each game's guess at the `gamedb build` words (after `build`) that make the table whose
    /// file name stem is `stem` (see [`GameSpec::build_words`]); unchecked.
    pub fn build_words_guesses(&self, stem: &str) -> Vec<String> {
        self.entries
            .iter()
            .filter_map(|e| e.build_words(stem))
            .collect()
    }

    /// Small instances of every game, for the conformance tests.
    pub fn samples(&self) -> Vec<Spec> {
        self.entries.iter().flat_map(|e| e.samples()).collect()
    }
}

impl Spec {
    /// The spec of one game's checked parameters.
    pub fn new<T: GameSpec>(game: T) -> Spec {
        Spec(Arc::new(game))
    }

    /// The game's own spec, when this is a spec of game `T` (for reports about one game).
    pub fn get<T: GameSpec>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }

    /// Small instances of every game of the registry in force, for the conformance tests.
    pub fn samples() -> Vec<Spec> {
        registry().samples()
    }

    /// The game's name: its identity in headers and its word in `gamedb build`.
    pub fn name(&self) -> &'static str {
        self.0.name()
    }
    /// The version of the game's rules (see [`GameSpec::RULES_VERSION`]).
    pub fn rules_version(&self) -> u32 {
        self.0.rules_version()
    }
    /// The parameters as canonical text, as headers store them.
    pub fn parameters(&self) -> String {
        self.0.parameters()
    }
    /// Number of positions.
    pub fn positions(&self) -> u64 {
        self.0.positions()
    }
    /// One line for people.
    pub fn describe(&self) -> String {
        self.0.describe()
    }
    /// Value kinds this game can be solved for; the first is the default.
    pub fn value_kinds(&self) -> &'static [ValueKind] {
        self.0.value_kinds()
    }
    /// Memory solving needs at its peak (see [`GameSpec::solve_memory`]).
    pub fn solve_memory(&self, kind: ValueKind) -> u64 {
        self.0.solve_memory(kind)
    }
    /// Bytes of the solved values when known before solving (see [`GameSpec::solved_bytes`]).
    pub fn solved_bytes(&self, kind: ValueKind) -> Option<u64> {
        self.0.solved_bytes(kind)
    }
    /// Rules for lookups.
    pub fn rules(&self) -> Result<Box<dyn Rules>> {
        self.0.rules()
    }
    /// Checks the game's contracts on this instance (see [`crate::game::conformance`]).
    pub fn conformance(&self) -> std::result::Result<u64, String> {
        self.0.conformance()
    }

    /// Solves this instance for every value kind it supports and checks the values against the
    /// game's own recurrence, computed from the rules' moves independently of the solver (see
    /// [`crate::game::conformance::values`]); no game writes a line for it. Returns the
    /// positions checked (over all kinds), or the first kind and position that break it.
    pub fn check_values(&self) -> std::result::Result<u64, String> {
        let mut checked = 0;
        for &kind in self.value_kinds() {
            let solved = self
                .solve(kind, &())
                .map_err(|e| format!("{} values: solving failed: {e}", kind.name()))?;
            checked += self.check_solved(&solved)?;
        }
        Ok(checked)
    }

    /// Checks the values of a solved table of this instance (as [`Spec::solve`] returns them)
    /// against the game's recurrence (see [`Spec::check_values`]); the error names the value
    /// kind, the position, what was expected and what was found.
    pub fn check_solved(&self, solved: &Solved) -> std::result::Result<u64, String> {
        let kind = solved.kind();
        if solved.len() != self.positions() {
            return Err(format!(
                "{} values: {} entries for {} positions",
                kind.name(),
                solved.len(),
                self.positions()
            ));
        }
        let rules = self.rules().map_err(|e| e.to_string())?;
        crate::game::conformance::values(&*rules, self.positions(), kind, &|i| solved.value(i))
            .map_err(|e| format!("{} values: {e}", kind.name()))
    }

    /// The default value kind of this game's tables.
    pub fn default_kind(&self) -> ValueKind {
        self.value_kinds()[0]
    }

    /// File name stem of the table of these parameters holding `kind` values, e.g. `nim-3x7`
    /// or `nim-3x7-grundy`; the format module adds the extension ([`Spec::file_name`]).
    pub fn table_stem(&self, kind: ValueKind) -> String {
        let stem = self.0.stem();
        if kind == self.default_kind() {
            stem
        } else {
            format!("{stem}-{}", kind.name())
        }
    }

    /// What a table of these parameters holding `kind` values is, for messages:
    /// `Nim: 3 heaps of 0..=7, ... (grundy values)`.
    pub fn describe_table(&self, kind: ValueKind) -> String {
        format!("{} ({} values)", self.describe(), kind.name())
    }

    /// Refuses value kinds the game does not support, with the ones it does.
    pub fn check_kind(&self, kind: ValueKind) -> Result<()> {
        if self.value_kinds().contains(&kind) {
            return Ok(());
        }
        Err(Error::bad(format!(
            "{} tables hold {}; {} values are not available for this game",
            self.name(),
            self.value_kinds()
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(" or "),
            kind.name()
        )))
    }

    /// Solves every position; refuses value kinds the game does not support.
    pub fn solve(&self, kind: ValueKind, progress: &dyn Progress) -> Result<Solved> {
        self.solve_saving(kind, progress, &())
    }

    /// Bytes each save of [`Spec::solve_saving`] holds (see [`GameSpec::saved_bytes`]).
    pub fn saved_bytes(&self, kind: ValueKind) -> u64 {
        self.0.saved_bytes(kind)
    }

    /// [`Spec::solve`], saving finished waves to `saves` and resuming from them (see
    /// [`GameSpec::solve_saving`]).
    pub fn solve_saving(
        &self,
        kind: ValueKind,
        progress: &dyn Progress,
        saves: &dyn Saves,
    ) -> Result<Solved> {
        self.check_kind(kind)?;
        let positions = self.positions();
        if positions > MAX_POSITIONS {
            return Err(Error::Unsupported(format!(
                "{} has {positions} positions, more than the {MAX_POSITIONS} a table may hold",
                self.describe()
            )));
        }
        let solved = self.0.solve_saving(kind, progress, saves)?;
        if solved.len() != positions || solved.kind() != kind {
            return Err(Error::internal(format!(
                "solving {} gave {} {} values, expected {positions} {} values",
                self.describe(),
                solved.len(),
                solved.kind().name(),
                kind.name()
            )));
        }
        Ok(solved)
    }
}
