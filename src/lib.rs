//! # gamedb
//!
//! Exhaustive retrograde analysis of small combinatorial games and puzzles, with the answers
//! kept as memory-mapped, checksummed table files.
//!
//! ```
//! use gamedb::{games::nim::NimSpec, games::Spec, Table, ValueKind};
//! use indicatif::ProgressBar;
//!
//! // Solve 3 heaps of 0..=7 in memory and ask about (1,2,4).
//! let spec = Spec::Nim(NimSpec::new(3, 7, None, false).unwrap());
//! let payload = spec.solve(ValueKind::Outcome, &ProgressBar::hidden()).unwrap();
//! let table = Table::from_payload(&spec, payload).unwrap();
//! let answer = table.query("1,2,4").unwrap();
//! assert_eq!(answer.outcome, Some(gamedb::Outcome::N));
//! assert_eq!(answer.winning_moves[0].leaves, vec![1, 2, 3]);
//! ```
//!
//! Map of the crate:
//! * [`game`]: the traits every game implements (solver view and lookup view);
//! * [`games`]: the registry and one module per game;
//! * [`solve`]: solvers that know nothing about particular games (backward induction for
//!   games, breadth-first search for puzzles);
//! * [`format`]: the table file format (write, open, validate);
//! * [`lookup`]: answers from an open table;
//! * [`build`]: solve and write;
//! * [`verify`]: the theorems of `THEOREMS.md`, checked against every position;
//! * [`ffi`]: the C ABI of the shared library (`src/gamedb.h`).

#![warn(missing_docs)]

pub mod build;
mod error;
pub mod ffi;
pub mod format;
pub mod game;
pub mod games;
pub mod json;
pub mod lookup;
pub mod solve;
pub mod verify;

pub use error::{Error, Result};
pub use format::{Encoding, ValueKind};
pub use game::{Move, Outcome, Rules};
pub use games::Spec;
pub use lookup::{Answer, DistanceAnswer, Table};
