//! The registry of games. Each game of this crate lives in its own file and exports one spec
//! type (its checked parameters) implementing [`GameSpec`]; registering it is a `mod` line
//! and one line in [`Registry::builtin`]. A game of another crate is registered in that
//! crate's own binary: `Registry::builtin().with::<MySpec>()`, handed to
//! `gamedb::cli::main_with`.
//!
//! * [`Spec`] is a table's game and parameters, of any registered game: what its [`GameSpec`]
//!   says of them as plain data (name, parameter text, value kinds) and the [`View`] they make
//!   (the rules of lookups and the engine that solves them), with the checks made the same way
//!   for every game (the value kind, the size, the solved values); [`Spec::get`] gives the
//!   game's own type back to the reports about one game.
//! * [`Registry`] lists the games a running program knows: their names, parameters
//!   ([`Param`]) and samples; it reads a header's game name and parameter text back into a
//!   spec ([`Registry::spec`]). One registry is in force per process ([`registry`]): the
//!   built-in games unless a program [`install`](Registry::install)s another.
//!
//! Nothing else in the crate needs to change when a game is added; the modules that name a
//! particular game are reports about it (the theorems of `verify`, the Chomp rectangles, the
//! 15-puzzle solver).

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use crate::format::Solved;
use crate::game::conformance::{Broken, Checked, Contract};
use crate::game::{Arguments, GameSpec, Param, View, MAX_POSITIONS};
use crate::model::ValueKind;
use crate::progress::Progress;
use crate::solve::Saves;
use crate::{Error, Result};

pub mod board;
pub mod candy;
pub mod cells;
pub mod chess;
pub mod chomp;
pub mod chomp3;
pub mod connect4;
pub mod mill;
pub mod mnk;
pub mod nim;
pub mod octal;
pub mod pdb;
pub mod quixo;
pub mod slide;
pub mod starts;
pub mod subtraction;
pub mod weighing;
pub mod wythoff;

/// The games of this crate, in the order `gamedb build --help` lists them.
fn builtin_entries() -> Vec<Entry> {
    vec![
        Entry::of::<candy::CandySpec>(),
        Entry::of::<nim::NimSpec>(),
        Entry::of::<chomp::ChompSpec>(),
        Entry::of::<slide::SlideSpec>(),
        Entry::of::<pdb::PdbSpec>(),
        Entry::of::<wythoff::WythoffSpec>(),
        Entry::of::<chomp3::Chomp3Spec>(),
        Entry::of::<subtraction::SubtractionSpec>(),
        Entry::of::<octal::OctalSpec>(),
        Entry::of::<mnk::MnkSpec>(),
        Entry::of::<quixo::QuixoSpec>(),
        Entry::of::<connect4::Connect4Spec>(),
        Entry::of::<weighing::WeighingSpec>(),
        Entry::of::<mill::MillSpec>(),
        Entry::of::<chess::ChessSpec>(),
    ]
}

/// A table's game and parameters, of any registered game (cheap to clone: a shared handle):
/// what every other module holds of a game. It keeps what the game's [`GameSpec`] says of
/// these parameters (the name, the parameter text, the line for people, the value kinds) as
/// plain data, made once, and the [`View`] they make, made when first asked for.
#[derive(Clone)]
pub struct Spec(Arc<Held>);

/// What a [`Spec`] holds.
struct Held {
    name: &'static str,
    rules_version: u32,
    parameters: String,
    describe: String,
    stem: String,
    value_kinds: &'static [ValueKind],
    /// Why these parameters refuse each kind the game has that they do not take.
    refusals: Vec<(ValueKind, String)>,
    /// The game's own spec, for [`Spec::get`] and the view.
    game: Box<dyn Any + Send + Sync>,
    make_view: fn(&dyn Any) -> View,
    debug: fn(&dyn Any, &mut fmt::Formatter<'_>) -> fmt::Result,
    view: OnceLock<View>,
}

impl fmt::Debug for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.0.debug)(&*self.0.game, f)
    }
}

impl PartialEq for Spec {
    /// The same game with the same parameters: two specs of a game are equal exactly when
    /// their parameter texts are.
    fn eq(&self, other: &Spec) -> bool {
        self.0.name == other.0.name && self.0.parameters == other.0.parameters
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
    /// Its build parameters: the game's ([`GameSpec::PARAMS`]), then the registry's
    /// `--values KIND` (made from [`GameSpec::VALUES`]) and, for a game of two value kinds,
    /// the switch that picks the second (`--grundy` or `--outcomes`, the older spelling of
    /// `--values`).
    pub params: &'static [Param],
    /// The value kinds its tables may hold, the default first ([`GameSpec::VALUES`]).
    pub values: &'static [ValueKind],
    /// The game's own parameters ([`GameSpec::PARAMS`]), which its parameter text holds.
    pub game_params: &'static [Param],
    from_args: fn(&Arguments) -> Result<Spec>,
    from_parameters: fn(&str) -> Result<Spec>,
    samples: fn() -> Vec<Spec>,
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry").field("name", &self.name).finish()
    }
}

/// The parameter that chooses the value kind, `--values KIND`.
pub(crate) const VALUES_PARAM: &str = "values";

/// The switch that once chose value kind `kind` when it is not a game's default: `--grundy`
/// (P/N bits by default) or `--outcomes` (Grundy values by default), kept as another
/// spelling of `--values grundy` and `--values outcome`.
fn alias(kind: ValueKind) -> Option<&'static str> {
    match kind {
        ValueKind::Grundy => Some("grundy"),
        ValueKind::Outcome => Some("outcomes"),
        _ => None,
    }
}

/// A game's parameters and the registry's value options after them, made once per game name
/// and kept for the life of the process: the command-line parser and the Python list take
/// them as `'static` data, like the game's own.
fn options(name: &'static str, params: &'static [Param], values: &[ValueKind]) -> &'static [Param] {
    static MADE: OnceLock<Mutex<HashMap<&'static str, &'static [Param]>>> = OnceLock::new();
    let mut made = MADE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    made.entry(name).or_insert_with(|| {
        let names: Vec<&str> = values.iter().map(|k| k.name()).collect();
        let help = match names.as_slice() {
            [one] => format!("What the table stores: {one} values (the only kind)"),
            [first, rest @ ..] => format!(
                "What the table stores: {first} values (the default), or {}",
                rest.join(" or ")
            ),
            [] => String::new(),
        };
        let mut all = params.to_vec();
        all.push(Param::optional(VALUES_PARAM, "KIND", String::leak(help)));
        for &kind in values.iter().skip(1) {
            if let Some(flag) = alias(kind).filter(|f| !params.iter().any(|p| p.name == *f)) {
                let help = format!("The same as --values {}", kind.name());
                all.push(Param::flag(flag, String::leak(help)));
            }
        }
        Vec::leak(all)
    })
}

impl Entry {
    /// The entry of game `T`.
    pub fn of<T: GameSpec>() -> Entry {
        Entry {
            name: T::NAME,
            about: T::ABOUT,
            rules_version: T::RULES_VERSION,
            params: options(T::NAME, T::PARAMS, T::VALUES),
            values: T::VALUES,
            game_params: T::PARAMS,
            from_args: |args| T::from_args(args).map(Spec::new),
            from_parameters: |text| T::from_parameters(text).map(Spec::new),
            samples: || T::samples().into_iter().map(Spec::new).collect(),
        }
    }

    /// The spec and value kind that values given on the command line ask for: the game's
    /// parameters and `values` (or the switch that spells it, `grundy` or `outcomes`).
    /// Unknown names are refused with the accepted ones, and value kinds the game does not
    /// store with the ones it does.
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
        let kinds = || {
            self.values
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(" or ")
        };
        let mut kind = match args.get(VALUES_PARAM) {
            None => None,
            Some(text) => Some(
                self.values
                    .iter()
                    .copied()
                    .find(|k| k.name() == text.trim())
                    .ok_or_else(|| {
                        Error::bad(format!(
                            "--values {}: expected {} (the values {} tables hold)",
                            crate::game::echo(text),
                            kinds(),
                            self.name
                        ))
                    })?,
            ),
        };
        let mut game_args = Arguments::new();
        for name in args.names() {
            let switch = self.values.iter().skip(1).copied().find(|k| {
                alias(*k) == Some(name) && !self.game_params.iter().any(|p| p.name == name)
            });
            match switch {
                Some(k) if args.flag(name) => {
                    if kind.is_some_and(|given| given != k) {
                        return Err(Error::bad(format!(
                            "--{name} asks for {} values and --values for {}: give one of them",
                            k.name(),
                            kind.map_or("", |g| g.name())
                        )));
                    }
                    kind = Some(k);
                }
                Some(_) => {}
                None => game_args.set(name, args.get(name).unwrap_or_default()),
            }
        }
        if let Some(k) = kind {
            game_args.set(VALUES_PARAM, k.name());
        }
        let spec = (self.from_args)(&game_args)?;
        let kind = kind.unwrap_or(self.values[0]);
        spec.check_kind(kind)?;
        Ok((spec, kind))
    }

    /// The spec a header's parameter text describes.
    pub(crate) fn spec_of_parameters(&self, text: &str) -> Result<Spec> {
        (self.from_parameters)(text)
    }

    /// Small instances, for the conformance tests.
    pub fn samples(&self) -> Vec<Spec> {
        (self.samples)()
    }

    /// The words after `gamedb build` that make the table of `spec` holding `kind` values
    /// (a spec of this game): the name, the parameters as their canonical text gives them, and
    /// `--values KIND` for a kind other than the default.
    pub(crate) fn build_words(&self, spec: &Spec, kind: ValueKind) -> String {
        let mut words =
            crate::game::params::build_words(self.name, self.game_params, spec.parameters());
        if kind != self.values[0] {
            words += &format!(" --values {}", kind.name());
        }
        words
    }
}

/// Longest game name (the header's `game` field, `format::GAME_NAME_LEN`, holds it).
pub(crate) const MAX_NAME_LEN: usize = crate::format::GAME_NAME_LEN;

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

    fn add(&mut self, entry: Entry, outside: bool) -> Result<()> {
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
            return Err(Error::bad(format!(
                "game name '{name}': expected {} (lower-case letters, digits and '-', at most {} \
                 bytes)",
                if outside { "CRATE/GAME" } else { "a word" },
                MAX_NAME_LEN
            )));
        }
        if self.get(name).is_some() {
            return Err(Error::bad(format!("game '{name}' is registered twice")));
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
            .spec_of_parameters(parameters)
            .map_err(|e| NotKnown::Parameters(format!("{game} parameters '{parameters}': {e}")))
    }

    /// Small instances of every game, for the conformance tests.
    pub fn samples(&self) -> Vec<Spec> {
        self.entries.iter().flat_map(|e| e.samples()).collect()
    }
}

impl Spec {
    /// The spec of one game's checked parameters.
    pub fn new<T: GameSpec>(game: T) -> Spec {
        let refusals = T::VALUES
            .iter()
            .filter(|k| !game.value_kinds().contains(k))
            .filter_map(|&k| Some((k, game.refuses(k)?)))
            .collect();
        Spec(Arc::new(Held {
            name: T::NAME,
            rules_version: T::RULES_VERSION,
            parameters: game.parameters(),
            describe: game.describe(),
            stem: game.stem(),
            value_kinds: game.value_kinds(),
            refusals,
            make_view: |game| {
                game.downcast_ref::<T>()
                    .expect("the spec's own game")
                    .view()
            },
            debug: |game, f| {
                game.downcast_ref::<T>()
                    .expect("the spec's own game")
                    .fmt(f)
            },
            game: Box::new(game),
            view: OnceLock::new(),
        }))
    }

    /// The game's own spec, when this is a spec of game `T` (for reports about one game).
    pub fn get<T: GameSpec>(&self) -> Option<&T> {
        self.0.game.downcast_ref::<T>()
    }

    /// The game's name: its identity in headers and its word in `gamedb build`.
    pub fn name(&self) -> &'static str {
        self.0.name
    }

    /// The version of the game's rules (see [`GameSpec::RULES_VERSION`]).
    pub fn rules_version(&self) -> u32 {
        self.0.rules_version
    }

    /// The parameters as canonical text, as headers store them.
    pub fn parameters(&self) -> &str {
        &self.0.parameters
    }

    /// One line for people.
    pub fn describe(&self) -> &str {
        &self.0.describe
    }

    /// File name stem without the value kind (see [`GameSpec::stem`]; [`Spec::table_stem`]
    /// adds the kind).
    pub fn stem(&self) -> &str {
        &self.0.stem
    }

    /// Value kinds these parameters can be solved for; the first is the default.
    pub fn value_kinds(&self) -> &'static [ValueKind] {
        self.0.value_kinds
    }

    /// What these parameters make of the game: its rules and the engine that solves it, made
    /// the first time it is asked for and kept.
    pub fn view(&self) -> &View {
        self.0
            .view
            .get_or_init(|| (self.0.make_view)(&*self.0.game))
    }

    /// Number of positions: the entries of a table of these parameters.
    pub fn positions(&self) -> u64 {
        self.view().rules().positions()
    }

    /// Small instances of every game of the registry in force, for the conformance tests.
    pub fn samples() -> Vec<Spec> {
        registry().samples()
    }

    /// Solves this instance for every value kind it supports and checks the values against the
    /// game's own recurrence, computed from the rules' moves independently of the solver (see
    /// [`crate::game::conformance::values`]); no game writes a line for it. Returns the
    /// positions checked (over all kinds), or the first kind and position that break it.
    pub fn check_values(&self) -> Checked {
        let mut checked = 0;
        for &kind in self.value_kinds() {
            let solved = self.solve(kind, &()).map_err(|e| {
                Broken::new(
                    Contract::Values,
                    format!("{} values: solving failed: {e}", kind.name()),
                )
            })?;
            checked += self.check_solved(&solved)?;
        }
        Ok(checked)
    }

    /// Checks the values of a solved table of this instance (as [`Spec::solve`] returns them)
    /// against the game's recurrence (see [`Spec::check_values`]); the error names the value
    /// kind, the position, what was expected and what was found.
    pub fn check_solved(&self, solved: &Solved) -> Checked {
        let kind = solved.kind();
        if solved.len() != self.positions() {
            return Err(Broken::new(
                Contract::Values,
                format!(
                    "{} values: {} entries for {} positions",
                    kind.name(),
                    solved.len(),
                    self.positions()
                ),
            ));
        }
        let rules = self.view().rules();
        crate::game::conformance::values(rules, self.positions(), kind, &|i| solved.value(i))
            .map_err(|e| Broken::new(e.contract, format!("{} values: {e}", kind.name())))
    }

    /// The default value kind of this game's tables.
    pub fn default_kind(&self) -> ValueKind {
        self.value_kinds()[0]
    }

    /// File name stem of the table of these parameters holding `kind` values, e.g. `nim-3x7`
    /// or `nim-3x7-grundy`; the format module adds the extension ([`Spec::file_name`]).
    pub fn table_stem(&self, kind: ValueKind) -> String {
        let stem = self.stem();
        if kind == self.default_kind() {
            stem.to_string()
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
        if let Some((_, why)) = self.0.refusals.iter().find(|(k, _)| *k == kind) {
            return Err(Error::bad(why.clone()));
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

    /// [`Spec::solve`], saving finished waves to `saves` and resuming from them (see
    /// [`Engine::solve`](crate::game::Engine::solve)).
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
        let solved = self.view().engine().solve(kind, progress, saves)?;
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

/// What the file format adds to a table's game and parameters: its file name and its header
/// fields (the games themselves know nothing of files).
impl Spec {
    /// File name (without folder) of the table of these parameters and value kind.
    pub fn file_name(&self, kind: ValueKind) -> String {
        format!("{}.{}", self.table_stem(kind), crate::format::EXTENSION)
    }

    /// The header fields of this spec's table of `encoded` values.
    pub fn meta(&self, encoded: &crate::format::payload::Encoded) -> crate::format::TableMeta {
        crate::format::TableMeta {
            game: self.name().to_string(),
            rules_version: self.rules_version(),
            parameters: self.parameters().to_string(),
            value_kind: encoded.kind,
            encoding: encoded.encoding,
            entry_count: encoded.entries,
        }
    }
}
