//! The dense index every view of a game shares ([`Indexed`]): positions numbered `0..positions()`.

/// A game over a dense index: its positions (or, for a game whose index holds indices that are
/// no position, its indices) are numbered `0..positions()`, and a table holds one entry for each.
///
/// The solvers' views of a game ([`Game`](super::Game), [`Tiered`](super::Tiered) and the
/// engines' own traits) and the lookups' (`crate::game::Rules`) all count positions through
/// this one trait, so a type that is both the solvers' game and the lookups' rules says how many
/// positions it has once.
pub trait Indexed {
    /// Number of indices: a table of the game has this many entries.
    fn positions(&self) -> u64;
}
