//! Solvers. They know nothing about particular games: they see games only through the traits
//! of [`crate::game`] and [`waves::Waves`] (the exhaustive solvers of acyclic games), puzzles
//! through [`bfs::Puzzle`] (breadth-first search), tokens on a grid through [`tokens::Grid`]
//! (the pattern-database search), search problems through [`ida::IdaProblem`] (the
//! heuristic search), and bipartite puzzles too large for a byte per position through
//! [`spread::Bipartite`] (the partitioned breadth-first engine: threads, and MPI processes).
//! What they produce is [`crate::game::Solved`] data, which the format module encodes. Each
//! solver states the memory it needs (`*_memory`), so a game can say what its build needs
//! before it starts (see [`crate::game::GameSpec::solve_memory`]).

pub mod acyclic;
pub mod bfs;
pub mod ida;
pub mod runs;
pub mod spread;
pub mod tokens;
pub mod triangles;
pub mod wavefront;
pub mod waves;
pub mod wordbits;

pub use acyclic::{
    grundy_memory, outcomes_memory, solve_grundy, solve_outcomes, solve_outcomes_retro, Bits,
};
pub use bfs::{distances_memory, Puzzle};
pub use ida::{ida_star, ida_star_within, Budget, IdaOutcome, IdaProblem, Stopped};
pub use runs::{outcomes_runs_memory, solve_outcomes_runs, solve_outcomes_runs_words, Edge, Runs};
pub use tokens::{token_distances, token_distances_memory, Grid, Placements};
pub use triangles::{
    grundy_triangles_memory, outcomes_triangles_memory, solve_grundy_triangles,
    solve_outcomes_triangles, solve_outcomes_triangles_words, Triangles, MAX_TRIANGLE,
};
pub use waves::{
    grundy_waves_memory, outcomes_waves_memory, solve_grundy_waves, solve_outcomes_waves, Mirror,
    Staged, Waves,
};
pub use wordbits::WordBits;

/// Runs `f` on a pool of `threads` threads: the solvers' tests compare 1 and 2 threads.
#[cfg(test)]
pub(crate) fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}
