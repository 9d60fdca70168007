//! Solvers. They see games only through the traits of [`crate::game`] and [`waves::Waves`].

pub mod acyclic;
pub mod waves;

pub use acyclic::{solve_grundy, solve_outcomes, solve_outcomes_retro, Bits};
pub use waves::{solve_grundy_waves, solve_outcomes_waves, Mirror, Waves};
