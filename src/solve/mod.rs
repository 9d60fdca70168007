//! Solvers. They see games only through the traits of [`crate::game`], [`waves::Waves`]
//! (the exhaustive solvers) or [`ida::IdaProblem`] (the heuristic search).

pub mod acyclic;
pub mod ida;
pub mod waves;

pub use acyclic::{solve_grundy, solve_outcomes, solve_outcomes_retro, Bits};
pub use ida::{ida_star, IdaOutcome, IdaProblem};
pub use waves::{solve_grundy_waves, solve_outcomes_waves, Mirror, Waves};
