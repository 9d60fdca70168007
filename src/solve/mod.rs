//! Solvers. They see games only through the traits of [`crate::game`] and puzzles through
//! [`bfs::Puzzle`].

pub mod acyclic;
pub mod bfs;

pub use acyclic::{solve_grundy, solve_outcomes, solve_outcomes_retro, Bits};
pub use bfs::Puzzle;
