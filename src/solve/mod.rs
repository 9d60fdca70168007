//! Solvers. They see games only through the traits of [`crate::game`] and [`waves::Waves`], and
//! puzzles through [`bfs::Puzzle`].

pub mod acyclic;
pub mod bfs;
pub mod waves;

pub use acyclic::{solve_grundy, solve_outcomes, solve_outcomes_retro, Bits};
pub use bfs::Puzzle;
pub use waves::{solve_grundy_waves, solve_outcomes_waves, Mirror, Waves};
