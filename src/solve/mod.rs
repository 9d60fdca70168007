//! Solvers. They see games only through the traits of [`crate::game`] (the exhaustive
//! solvers) or [`ida::IdaProblem`] (the heuristic search).

pub mod acyclic;
pub mod ida;

pub use acyclic::{solve_grundy, solve_outcomes, solve_outcomes_retro, Bits};
pub use ida::{ida_star, IdaOutcome, IdaProblem};
