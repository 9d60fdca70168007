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
//! **The public API** (what these docs show; everything else is private to the crate, and
//! `pub` in the sources means public: `unreachable_pub` is on, and `tests/public_api.rs` holds
//! the public items to the list `tests/data/public-api.txt`, so the surface changes only on
//! purpose):
//! * for users of tables: [`Table`] (open, check, query a table), [`TableDir`] (a folder of
//!   tables found by their headers), [`Answer`] and the rest of [`answer`] (the one answer
//!   model every interface prints), [`Spec`] and [`build`] (solve and write tables), [`Error`]
//!   and [`Progress`]; [`fifteen`], the 15-puzzle solver over pattern-database tables;
//!   [`play`], playing a table against perfect play (the referee behind `gamedb play`, the
//!   explorer's play mode and the Python package); [`syzygy`], a chess table held to Syzygy's
//!   tables position by position (`gamedb verify chess-syzygy` and the benchmark's program);
//! * for game authors: the traits of [`game`] ([`game::GameSpec`], [`model::Game`],
//!   [`game::Rules`], parameters as plain data: [`game::Param`], [`game::Arguments`]), the
//!   solvers of [`solve`] (their entry points and the traits they read; the engines' folders
//!   are private), the conformance checks of [`game::conformance`], the games of [`games`] as
//!   examples (each game's spec and the types its tests drive; the rest of a game is private),
//!   and the [`Registry`] with [`cli::main_with`], which give a game of another crate the whole
//!   command line, the service and the C ABI (see `src/guide/game-authors.md`);
//! * the files other programs share: [`format`](mod@format), the table file format
//!   (`tables/README.md` is its specification); [`cli::catalog`], lists of tables to build
//!   (`tables/catalog.txt`); [`lock`], the lock a writer of a table holds, so that programs
//!   building into one folder never build a table twice. The C ABI of the shared library is
//!   `src/gamedb.h`: its functions are exported by `libgamedb.so` whatever their Rust
//!   visibility, and the module that writes them (`ffi`) is private (a Rust program opens a
//!   [`Table`]);
//! * [`programs`], the one doorway to internals: the partitioned breadth-first engine that the
//!   benchmark program `scripts/programs/enumerate-costs.rs` times. It is no API (it changes
//!   with the engine).
//!
//! Map of the crate, lowest layer first: each bullet names its modules before the colon, and
//! a module uses only the modules named before it (`tests/layering.rs` reads this map and
//! checks every file under `src/` against it, circles included):
//! * `error`, `progress`, `resources`, `lock`: the leaves, used everywhere (the one error
//!   type, progress reports, the machine's memory and disk, table locks);
//! * `model`: the game model the solvers read, below them: what a game is to a solver
//!   (`Game`, `Retro`, `Tiered`) and the values of positions (outcomes, value kinds, the
//!   values of two-player games);
//! * `format`: every byte layout: the table file (its header, legacy versions, writing and
//!   opening), the codes of value kinds and encodings, the payload encodings and the packing of
//!   one entry (`format::entries`), and the solved values as a payload lays them out
//!   (`Solved`), which the solvers produce;
//! * `solve`: solvers that know nothing about particular games, a folder an engine (the
//!   acyclic engines, the two-player engine, breadth-first search) beside single-file ones
//!   (token distances, IDA*, minimax);
//! * `game`: the trait family game authors implement (the spec with its parameters, the view
//!   the program solves and asks, the rules of lookups, the one-type games), which solves
//!   through the solvers; `game::conformance` checks a game's contracts with them;
//! * `games`: one file per game (the pattern databases with the 15-puzzle's standard
//!   partitions), and the registry (one line per game);
//! * `answer`: the one answer model every interface prints;
//! * `lookup`: answers from an open table (a missing file is a plain `Error::NoTable`);
//! * `tables`: a folder of tables, found and checked by their headers;
//! * `fifteen`: the sliding-puzzle service (the 15-puzzle solver, board queries);
//! * `build`: building tables;
//! * `enumerate`: sliding puzzles too large for a byte table, level by level through the
//!   partitioned breadth-first engine (threads, MPI);
//! * `stream`: answering lines of input;
//! * `play`: playing a table against perfect play (every move valued, the best ones, the
//!   review of a game so far);
//! * `report`: `info` and the Chomp rectangles;
//! * `syzygy`: a chess table against Syzygy's tables, position by position (read by the
//!   `shakmaty-syzygy` crate);
//! * `verify`: the statements checked against every position, with their sources;
//! * `service`: `gamedb serve`, the tables over HTTP/JSON and the web explorer;
//! * `cli`: the command line, with the catalogs in the words of `gamedb build` and what to
//!   do about a missing table (`cli::catalog`);
//! * `ffi`: the C ABI of the shared library (`src/gamedb.h`), which says what to do about a
//!   missing table as the command line does;
//! * `python` (the `python` feature): the Python package, likewise.

#![warn(missing_docs)]
#![warn(unreachable_pub)]

pub mod answer;
pub mod build;
pub mod cli;
mod enumerate;
mod error;
mod ffi;
pub mod fifteen;
pub mod format;
pub mod game;
pub mod games;
pub mod lock;
pub mod lookup;
pub mod model;
pub mod play;
mod progress;
#[cfg(feature = "python")]
pub mod python;
mod report;
mod resources;
mod service;
pub mod solve;
mod stream;
pub mod syzygy;
pub mod tables;
mod verify;

pub use answer::Answer;
pub use error::{Error, Result};
pub use format::Encoding;
pub use game::{Move, Rules};
pub use games::{registry, Registry, Spec};
pub use lookup::Table;
pub use model::{Outcome, ValueKind};
pub use progress::Progress;
pub use tables::TableDir;

/// What the programs of `scripts/programs/` drive besides the public API: the partitioned
/// breadth-first engine of `gamedb enumerate` (the benchmark `enumerate-costs` times it on a
/// synthetic puzzle). A doorway for the benchmarks, not an API: it changes with the engine.
pub mod programs {
    pub mod partitioned {
        //! The partitioned breadth-first engine: a [`Bipartite`] puzzle laid out in blocks
        //! ([`Layout`]), a [`plan`] of its memory, a [`run`] level by level on one process
        //! ([`Single`]) under a [`Config`] (a checkpoint's [`Identity`] among it).
        pub use crate::solve::bfs::partitioned::checkpoint::Identity;
        pub use crate::solve::bfs::partitioned::{plan, run, Bipartite, Config, Layout};
        pub use crate::solve::exchange::Single;
    }
}

/// What the fuzz targets of `tests/fuzz/` drive besides the public API: the stream of
/// answers, the HTTP service's router and the `info` report (the only `pub` items of the
/// private modules, so that they can be named here). Compiled only by cargo-fuzz, which
/// builds every crate with `--cfg fuzzing`.
#[cfg(fuzzing)]
pub mod fuzzing {
    pub use crate::report::info::Info;
    pub use crate::service::{router, App, Limits};
    pub use crate::stream::answer_lines;
}

/// The example of the library guide (`src/guide/library.md`), run with the doc tests so the
/// guide shows code that builds and answers.
#[cfg(doctest)]
#[doc = include_str!("guide/library.md")]
pub struct LibraryGuide;
