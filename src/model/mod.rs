//! The game model the solvers read, below them: what a game is to a solver ([`Game`] and
//! [`Retro`] for impartial games and puzzles over a dense index, [`Tiered`] for two-player
//! games cut into tiers) and the values positions take ([`Outcome`], [`Standing`], [`Wlt`],
//! [`Wdl50`], and the [`ValueKind`] a table holds). The file format ([`crate::format`]) packs
//! these values; the game specs and the registry ([`crate::game`], [`crate::games`]) stand
//! above the solvers and make these views.

mod game;
mod indexed;
mod tiered;
mod values;

pub use game::{Game, Retro};
pub use indexed::Indexed;
pub use tiered::{Tiered, Visit};
pub use values::{after_reset, Outcome, Standing, ValueKind, Wdl50, Wlt, ZEROING_PLIES};
