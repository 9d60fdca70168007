//! What the program solves and asks of a game ([`View`]): the rules lookups read positions with
//! and the [`Engine`] that solves its tables, made from one of the solvers' views of a game or
//! from an engine of the game's own.

use std::sync::Arc;

use super::conformance::{self, Broken, Checked, Children};
use super::rules::Rules;
use crate::format::Solved;
use crate::model::{Game, Retro, Tiered, ValueKind};
use crate::progress::Progress;
use crate::solve::Saves;
use crate::{Error, Result};

/// What a game of some parameters is to the program: the [`Rules`] that lookups read
/// positions with, and the [`Engine`] that solves its tables and says what solving costs. A
/// spec makes it ([`GameSpec::view`](super::GameSpec::view)) from one of the solvers' views
/// of the game — [`View::acyclic`], [`View::retrograde`], [`View::two_player`] — or from an
/// engine of the game's own ([`View::with_engine`]); nothing else is written for it.
#[derive(Clone)]
pub struct View {
    rules: Arc<dyn Rules>,
    engine: Arc<dyn Engine>,
    /// Memory of the game's own tables (the ranking tables of an index), beside the engine's.
    own_memory: u64,
    /// How many indices, from 0, a position names, when fewer than the table's entries (the
    /// conformance checks of the rules read only those).
    named: Option<u64>,
}

impl View {
    /// A finite acyclic game over a dense index ([`Game`]) that is its own [`Rules`]: P/N bits
    /// and Grundy values by backward induction, level by level
    /// ([`crate::solve::solve_outcomes`], [`crate::solve::solve_grundy`]); its children and
    /// its rules checked by [`conformance::game`] and [`conformance::rules`].
    pub fn acyclic<G: Game + Rules + 'static>(game: G) -> View {
        let game = Arc::new(game);
        View::of(game.clone(), Arc::new(Acyclic(game)))
    }

    /// A game that also lists its un-moves ([`Retro`]): solved by pushing each P-position to
    /// its parents ([`crate::solve::solve_retro`]), which skips the children of most
    /// positions; its un-moves checked against its moves too ([`conformance::retro`]).
    pub fn retrograde<G: Retro + Rules + 'static>(game: G) -> View {
        let game = Arc::new(game);
        View::of(game.clone(), Arc::new(Retrograde(game)))
    }

    /// A two-player game with ties and draws cut into tiers ([`Tiered`]): win, lose, tie or
    /// draw with the remoteness, in two bits, or with distances to a counter's reset, by the
    /// two-player engine ([`crate::solve::solve_tiered`]); checked by [`conformance::tiered`].
    pub fn two_player<G: Tiered + Rules + 'static>(game: G) -> View {
        let game = Arc::new(game);
        View::of(game.clone(), Arc::new(TwoPlayer(game)))
    }

    /// A game with an engine of its own: `game` is both its rules and its engine.
    pub fn with_engine<G: Rules + Engine + 'static>(game: G) -> View {
        let game = Arc::new(game);
        View::of(game.clone(), game)
    }

    fn of(rules: Arc<dyn Rules>, engine: Arc<dyn Engine>) -> View {
        View {
            rules,
            engine,
            own_memory: 0,
            named: None,
        }
    }

    /// This view, its solve needing `bytes` more for the game's own tables (an index's ranking
    /// tables), which [`View::solve_memory`] adds to the engine's.
    pub fn plus_memory(mut self, bytes: u64) -> View {
        self.own_memory = self.own_memory.saturating_add(bytes);
        self
    }

    /// This view, only the indices `0..n` being written by a position (the candy game's last
    /// index is a state no game reaches): the conformance checks of the rules read those.
    pub fn naming(mut self, n: u64) -> View {
        self.named = Some(n);
        self
    }

    /// The rules lookups read positions with.
    pub fn rules(&self) -> &dyn Rules {
        &*self.rules
    }

    /// The rules, shared: for a table that keeps them as long as it is open.
    pub fn shared_rules(&self) -> Arc<dyn Rules> {
        self.rules.clone()
    }

    /// The engine that solves the game's tables.
    pub fn engine(&self) -> &dyn Engine {
        &*self.engine
    }

    /// Memory a solve of `kind` values needs at its peak: the engine's and the game's own
    /// tables'. A build compares it with what the machine has before it allocates anything.
    pub fn solve_memory(&self, kind: ValueKind) -> u64 {
        self.engine.memory(kind).saturating_add(self.own_memory)
    }

    /// Checks the game's contracts (see [`conformance`]): the engine's view of the game and the
    /// rules, each against the other. Returns the number of positions checked.
    pub fn conformance(&self) -> Checked {
        let named = self.named.unwrap_or(self.rules.positions());
        self.engine.conformance(self.rules(), named)
    }
}

/// What solves a game's tables: a solver behind one of [`View`]'s constructors, or an engine
/// of the game's own (Chomp's runs, triangles and waves; a breadth-first search of a puzzle;
/// the sparse engine of octal games), which implements this beside its [`Rules`].
pub trait Engine: Send + Sync {
    /// Solves every position for `kind` values (one the spec's parameters take), handing
    /// finished work to `saves` and resuming from what it saved (see `solve::saves`; `&()`
    /// saves nothing).
    fn solve(&self, kind: ValueKind, progress: &dyn Progress, saves: &dyn Saves) -> Result<Solved>;

    /// Memory [`solve`](Engine::solve) needs at its peak for `kind` values, in bytes (from the
    /// solvers' `*_memory` estimates in [`crate::solve`]): a build refuses before allocating
    /// what will not fit, so it must not be an underestimate.
    fn memory(&self, kind: ValueKind) -> u64;

    /// Bytes of each save a solve of `kind` values hands to its saves (a build checks the disk
    /// for it): 0, the default, when it saves nothing.
    fn saved_bytes(&self, _kind: ValueKind) -> u64 {
        0
    }

    /// Bytes of the solved `kind` values when the engine knows them before solving (three-rowed
    /// Chomp stores two or three bytes a prefix); `None`, the default, lets a build assume the
    /// widest its value kind may take.
    fn solved_bytes(&self, _kind: ValueKind) -> Option<u64> {
        None
    }

    /// The children of every index as the engine sees the game, each checked against the
    /// engine's own contract (the checks of [`conformance`] for the solvers' traits), for the
    /// rules to be held to: `None`, the default, when the engine has no view of moves to give.
    fn children(&self) -> std::result::Result<Option<Children>, Broken> {
        Ok(None)
    }

    /// Checks the game's contracts: by default the [`children`](Engine::children) and the
    /// `rules` over the indices `0..named` against them ([`conformance::rules`]). Returns the
    /// number of positions checked.
    fn conformance(&self, rules: &dyn Rules, named: u64) -> Checked {
        let children = self.children()?;
        conformance::rules(rules, named, children.as_ref())
    }
}

/// The engine of [`View::acyclic`].
struct Acyclic<G>(Arc<G>);

impl<G: Game + Rules> Engine for Acyclic<G> {
    fn solve(&self, kind: ValueKind, progress: &dyn Progress, _: &dyn Saves) -> Result<Solved> {
        match kind {
            ValueKind::Outcome => {
                Ok(crate::solve::solve_outcomes(&*self.0, progress)?.into_solved())
            }
            ValueKind::Grundy => Ok(Solved::Grundy(crate::solve::solve_grundy(
                &*self.0, progress,
            )?)),
            other => Err(unsolvable(other)),
        }
    }

    fn memory(&self, kind: ValueKind) -> u64 {
        acyclic_memory(self.0.positions(), kind)
    }

    fn children(&self) -> std::result::Result<Option<Children>, Broken> {
        conformance::game(&*self.0).map(Some)
    }
}

/// The engine of [`View::retrograde`].
struct Retrograde<G>(Arc<G>);

impl<G: Retro + Rules> Engine for Retrograde<G> {
    fn solve(&self, kind: ValueKind, progress: &dyn Progress, _: &dyn Saves) -> Result<Solved> {
        match kind {
            ValueKind::Outcome | ValueKind::Grundy => {
                crate::solve::solve_retro(&*self.0, kind, progress)
            }
            other => Err(unsolvable(other)),
        }
    }

    fn memory(&self, kind: ValueKind) -> u64 {
        acyclic_memory(self.0.positions(), kind)
    }

    fn children(&self) -> std::result::Result<Option<Children>, Broken> {
        let children = conformance::game(&*self.0)?;
        conformance::retro(&*self.0, &children)?;
        Ok(Some(children))
    }
}

/// The engine of [`View::two_player`].
struct TwoPlayer<G>(Arc<G>);

impl<G: Tiered + Rules> Engine for TwoPlayer<G> {
    fn solve(&self, kind: ValueKind, progress: &dyn Progress, saves: &dyn Saves) -> Result<Solved> {
        crate::solve::solve_tiered(&*self.0, kind, progress, saves)
    }

    fn memory(&self, kind: ValueKind) -> u64 {
        crate::solve::tiered_memory(&*self.0, kind)
    }

    fn saved_bytes(&self, kind: ValueKind) -> u64 {
        crate::solve::tiered_saved_bytes(&*self.0, kind)
    }

    fn conformance(&self, _rules: &dyn Rules, _named: u64) -> Checked {
        // The tiers, the terminal values and the moves, with the rules over every legal index
        // (an index that is no position has no rules to hold).
        conformance::tiered(&*self.0)
    }
}

/// The memory of the level solvers' tables of `positions` for `kind` values.
fn acyclic_memory(positions: u64, kind: ValueKind) -> u64 {
    match kind {
        ValueKind::Grundy => crate::solve::grundy_memory(positions),
        _ => crate::solve::outcomes_memory(positions),
    }
}

/// The error for a value kind the level solvers do not make (the registry refuses it before).
fn unsolvable(kind: ValueKind) -> Error {
    Error::internal(format!(
        "no solver of {} values for a game over a dense index; its spec refuses them",
        kind.name()
    ))
}
