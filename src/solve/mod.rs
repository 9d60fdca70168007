//! Solvers. They see games only through the traits of [`crate::game`] and [`waves::Waves`]
//! (the exhaustive solvers), puzzles through [`bfs::Puzzle`] (breadth-first search), and
//! [`ida::IdaProblem`] (the heuristic search).

pub mod acyclic;
pub mod bfs;
pub mod ida;
pub mod waves;

pub use acyclic::{solve_grundy, solve_outcomes, solve_outcomes_retro, Bits};
pub use bfs::Puzzle;
pub use ida::{ida_star, IdaOutcome, IdaProblem};
pub use waves::{solve_grundy_waves, solve_outcomes_waves, Mirror, Waves};
