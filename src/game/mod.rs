//! The trait family game authors implement, above the solvers.
//!
//! A game is seen three times:
//! * by the **registry** ([`GameSpec`]), as checked parameters: what a table header stores,
//!   what the command line accepts; the spec makes the game's [`View`];
//! * by the **solvers**, through the view's [`Engine`]: one of the solvers' views of a game
//!   ([`Game`](crate::model::Game), [`Retro`](crate::model::Retro) or
//!   [`Tiered`](crate::model::Tiered), see [`crate::model`]) or an engine of the game's own;
//! * by **lookups** ([`Rules`]), as positions people and programs write down: parse one,
//!   rank it into the index, list its moves with readable labels.
//!
//! A small impartial game writes one type instead ([`SimpleGame`]): its parameters, the
//! [`Shape`] of its positions and its moves; a two-player game likewise ([`TwoPlayerGame`]):
//! its parameters, the shape of its positions, its moves and where play ends. The spec, the
//! index, the rules and the engine are made from them. [`conformance`] checks that a game keeps
//! the contracts of these traits.
//!
//! Neither solver nor lookup knows which game it serves; a game knows neither the file format
//! nor the lookups nor the command line beyond its own arguments.

pub mod conformance;
mod fast_paths;
pub mod params;
mod rules;
mod simple;
mod spec;
mod text;
mod two_player;
mod view;

pub use params::{Arguments, Param, ParamValue};
pub use rules::{bad_position, no_play_makes, Choice, Fact, HeapSequence, Move, Rules, Values};
pub use simple::{Shape, SimpleGame, SimpleView};
pub use spec::{GameSpec, MAX_POSITIONS};
pub(crate) use text::counted;
pub use text::{binomial, echo, format_numbers, heaps_board, parse_numbers, quote, ECHO_LIMIT};
pub use two_player::{TwoPlayerGame, TwoPlayerView};
pub use view::{Engine, View};
