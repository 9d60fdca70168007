//! Solvers. They see games only through the traits of [`crate::game`].

pub mod acyclic;

pub use acyclic::{solve_grundy, solve_outcomes, solve_outcomes_retro, Bits};
