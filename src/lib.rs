//! # gamedb
//!
//! Exhaustive retrograde analysis of small combinatorial games and puzzles, with the answers
//! kept as memory-mapped, checksummed table files.
//!
//! ```
//! use gamedb::games::nim::NimSpec;
//! use gamedb::{Outcome, Spec, Table, ValueKind};
//!
//! // Solve 3 heaps of 0..=7 in memory and ask about (1,2,4).
//! let spec = Spec::new(NimSpec::new(3, 7, None, false).unwrap());
//! let solved = spec.solve(ValueKind::Outcome, &()).unwrap();
//! let table = Table::from_solved(&spec, solved).unwrap();
//! let answer = table.query("1,2,4").unwrap();
//! assert_eq!(answer.outcome(), Some(Outcome::N));
//! assert_eq!(answer.winning_moves()[0].leaves, "1,2,3");
//! assert_eq!(
//!     answer.to_json(),
//!     r#"{"position":"1,2,4","outcome":"N","winning_moves":[{"move":"take 1 from heap 3","leaves":"1,2,3"}]}"#
//! );
//! ```
//!
//! **The public API** (what these docs show):
//! * for users of tables: [`Table`] (open, check, query a table), [`TableDir`] (a folder of
//!   tables found by their headers), [`Answer`] (the one answer model every interface
//!   prints), [`Spec`] and [`build`] (solve and write tables), [`Error`];
//! * for game authors: the traits of [`game`] ([`game::GameSpec`], [`game::Game`],
//!   [`game::Rules`], parameters as plain data: [`game::Param`], [`game::Arguments`]), the
//!   solvers of [`solve`], the conformance checks of [`game::conformance`], and the
//!   [`Registry`] with [`cli::main_with`], which give a game of another crate the whole
//!   command line, the service and the C ABI (see `src/guide/game-authors.md`);
//! * [`format`](mod@format): the table file format (`tables/README.md` is its specification), and
//!   [`ffi`], the C ABI of the shared library (`src/gamedb.h`).
//!
//! The engines and internals behind the command line (the breadth-first engine, reports,
//! `verify`, the service, locks, resource checks) are public for the crate's own tests and
//! tools but hidden from these docs: they may change without notice.
//!
//! Map of the crate, lowest layer first (each module uses only those above it):
//! * `game`: the traits every game implements (solver view, lookup view, registration) and
//!   the value model (`game::Solved`); `game::conformance` checks a game's contracts;
//! * `solve`: solvers that know nothing about particular games (backward induction, waves,
//!   breadth-first search, token distances, IDA*);
//! * `games`: one file per game, and the registry (one line per game);
//! * `format`: the table file format and the payload encodings (`format::payload`);
//! * `lookup`: answers from an open table, in the answer model of `answer`;
//! * `tables`: a folder of tables, found and checked by their headers;
//! * `fifteen`: the sliding-puzzle service (the 15-puzzle solver, board queries);
//! * `build`, `catalog`: building tables; `enumerate`: sliding puzzles too large for a
//!   byte table, level by level through the partitioned breadth-first engine (threads, MPI);
//!   `stream`: answering lines of input;
//! * `report`: `info` and the Chomp rectangles; `verify`: the statements checked against
//!   every position, with their sources;
//! * `service`: `gamedb serve`, the tables over HTTP/JSON and the web explorer;
//! * `ffi`: the C ABI of the shared library (`src/gamedb.h`); `python` (the `python`
//!   feature): the Python package; `cli`: the command line.
//!
//! Leaves used everywhere: `Error`, `progress`, `resources`, `lock`.

#![warn(missing_docs)]

pub mod answer;
pub mod build;
#[doc(hidden)]
pub mod catalog;
pub mod cli;
#[doc(hidden)]
pub mod enumerate;
mod error;
pub mod ffi;
#[doc(hidden)]
pub mod fifteen;
pub mod format;
pub mod game;
pub mod games;
#[doc(hidden)]
pub mod lock;
pub mod lookup;
pub mod progress;
#[cfg(feature = "python")]
pub mod python;
#[doc(hidden)]
pub mod report;
#[doc(hidden)]
pub mod resources;
#[doc(hidden)]
pub mod service;
pub mod solve;
#[doc(hidden)]
pub mod stream;
pub mod tables;
#[doc(hidden)]
pub mod verify;

pub use answer::Answer;
pub use error::{Error, Result};
pub use format::Encoding;
pub use game::{Move, Outcome, Rules, ValueKind};
pub use games::{registry, Registry, Spec};
pub use lookup::Table;
pub use tables::TableDir;

/// The example of the library guide (`src/guide/library.md`), run with the doc tests so the
/// guide shows code that builds and answers.
#[cfg(doctest)]
#[doc = include_str!("guide/library.md")]
pub struct LibraryGuide;
