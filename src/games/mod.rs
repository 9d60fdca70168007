//! The registry of games. Each game lives in its own file and exports one spec type (its checked
//! parameters) implementing [`GameSpec`]; registering it is one line in the `games!` list at
//! the bottom, which declares the module and generates:
//! * [`Spec`], the game and parameters of a table, with the calls every other module makes
//!   (`describe`, `rules`, `solve`, ... dispatched to the game);
//! * [`BuildGame`], the `gamedb build GAME` subcommands, one per game, with the game's own
//!   arguments ([`GameSpec::Args`]);
//! * [`Spec::from_header`], which reads a table's header back into a spec;
//! * [`GAMES`] (numbers and names, checked against `src/gamedb.h` by the tests) and
//!   [`Spec::samples`], the small instances the conformance tests run on.
//!
//! Nothing else in the crate needs to change when a game is added; the modules that name a
//! particular game are reports about it (the theorems of `verify`, the Chomp rectangles, the
//! 15-puzzle solver).

use crate::game::{GameSpec, Progress, Rules, Solved, ValueKind, MAX_POSITIONS};
use crate::solve::Saves;
use crate::{Error, Result};

pub mod board;

macro_rules! games {
    ($($variant:ident($module:ident::$ty:ident)),* $(,)?) => {
        $(pub mod $module;)*

        /// A table's game and parameters: one variant per registered game.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Spec { $(
            #[allow(missing_docs)]
            $variant($module::$ty),
        )* }

        /// `gamedb build GAME ...`: one subcommand per registered game, each with its own
        /// arguments.
        #[derive(clap::Subcommand, Clone, Debug)]
        pub enum BuildGame { $(
            #[allow(missing_docs)]
            #[command(
                name = <$module::$ty as GameSpec>::NAME,
                about = <$module::$ty as GameSpec>::ABOUT
            )]
            $variant(<$module::$ty as GameSpec>::Args),
        )* }

        impl BuildGame {
            /// The checked spec and value kind these arguments ask for.
            pub fn spec(&self) -> Result<(Spec, ValueKind)> {
                match self { $(
                    BuildGame::$variant(args) => {
                        let (spec, kind) = <$module::$ty as GameSpec>::from_args(args)?;
                        Ok((Spec::$variant(spec), kind))
                    }
                )* }
            }
        }

        /// Every registered game: its number in table headers and its build name.
        pub const GAMES: &[(u32, &str)] = &[$(
            (<$module::$ty as GameSpec>::ID, <$module::$ty as GameSpec>::NAME),
        )*];

        impl Spec {
            /// Reads a spec back from a header's game number and parameters.
            pub fn from_header(game: u32, params: [u64; 8]) -> std::result::Result<Spec, String> {
                match game {
                    $(<$module::$ty as GameSpec>::ID => {
                        <$module::$ty as GameSpec>::from_params(params).map(Spec::$variant)
                    })*
                    other => Err(format!(
                        "unknown game number {other} (this gamedb knows {})",
                        GAMES
                            .iter()
                            .map(|(id, name)| format!("{id} {name}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                }
            }

            /// Each game's guess at the `gamedb build` words (after `build`) that make the
            /// table whose file name stem is `stem` (see [`GameSpec::build_words`]); unchecked.
            pub fn build_words_guesses(stem: &str) -> Vec<String> {
                let mut all = Vec::new();
                $(all.extend(<$module::$ty as GameSpec>::build_words(stem));)*
                all
            }

            /// Small instances of every game, for the conformance tests.
            pub fn samples() -> Vec<Spec> {
                let mut all = Vec::new();
                $(all.extend(<$module::$ty as GameSpec>::samples().into_iter().map(Spec::$variant));)*
                all
            }
        }

        macro_rules! dispatch {
            ($self:expr, $g:ident => $e:expr) => {
                match $self { $(Spec::$variant($g) => $e,)* }
            };
        }

        macro_rules! dispatch_ty {
            ($self:expr, $t:ident => $e:expr) => {
                match $self { $(Spec::$variant(_) => { type $t = $module::$ty; $e })* }
            };
        }
    };
}

games! {
    Candy(candy::CandySpec),
    Nim(nim::NimSpec),
    Chomp(chomp::ChompSpec),
    Slide(slide::SlideSpec),
    Pdb(pdb::PdbSpec),
    Wythoff(wythoff::WythoffSpec),
    Chomp3(chomp3::Chomp3Spec),
}

impl Spec {
    /// Game number in headers.
    pub fn game_id(&self) -> u32 {
        dispatch_ty!(self, T => T::ID)
    }
    /// Build name of the game.
    pub fn name(&self) -> &'static str {
        dispatch_ty!(self, T => T::NAME)
    }
    /// Header parameters.
    pub fn params(&self) -> [u64; 8] {
        dispatch!(self, g => g.params())
    }
    /// Number of positions.
    pub fn positions(&self) -> u64 {
        dispatch!(self, g => g.positions())
    }
    /// One line for people.
    pub fn describe(&self) -> String {
        dispatch!(self, g => g.describe())
    }
    /// Value kinds this game can be solved for; the first is the default.
    pub fn value_kinds(&self) -> &'static [ValueKind] {
        dispatch!(self, g => g.value_kinds())
    }
    /// Memory solving needs at its peak (see [`GameSpec::solve_memory`]).
    pub fn solve_memory(&self, kind: ValueKind) -> u64 {
        dispatch!(self, g => g.solve_memory(kind))
    }
    /// Bytes of the solved values when known before solving (see [`GameSpec::solved_bytes`]).
    pub fn solved_bytes(&self, kind: ValueKind) -> Option<u64> {
        dispatch!(self, g => g.solved_bytes(kind))
    }
    /// Rules for lookups.
    pub fn rules(&self) -> Result<Box<dyn Rules>> {
        dispatch!(self, g => g.rules())
    }
    /// Checks the game's contracts on this instance (see [`crate::game::conformance`]).
    pub fn conformance(&self) -> std::result::Result<u64, String> {
        dispatch!(self, g => g.conformance())
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
        let stem = dispatch!(self, g => g.stem());
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
        dispatch!(self, g => g.saved_bytes(kind))
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
        let solved = dispatch!(self, g => g.solve_saving(kind, progress, saves))?;
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
