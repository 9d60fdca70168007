//! Solvers. They know nothing about particular games: they see games only through the traits
//! of [`crate::game`] and [`Waves`] (the exhaustive solvers of acyclic games), puzzles
//! through [`Puzzle`] (breadth-first search), tokens on a grid through [`Grid`]
//! (the pattern-database search), search problems through [`IdaProblem`] (the
//! heuristic search), puzzles against an adversary through [`Adversary`] (minimax, the
//! weighing puzzle), and bipartite puzzles too large for a byte per position through
//! `bfs::partitioned::Bipartite` (the partitioned breadth-first engine of `gamedb enumerate`:
//! threads, and MPI processes; private to the crate, with the benchmark's doorway
//! `gamedb::programs`).
//! What they produce is [`crate::format::Solved`] data, which the format module encodes. Each
//! solver states the memory it needs (`*_memory`), so a game can say what its build needs
//! before it starts (see [`crate::game::View::solve_memory`]). The run and triangle
//! solvers save their finished waves through [`Saves`], so that a long solve resumes.

pub(crate) mod acyclic;
pub(crate) mod bfs;
pub(crate) mod exchange;
pub(crate) mod grid_tiles;
pub(crate) mod ida;
pub(crate) mod minimax;
pub(crate) mod prefetch;
pub(crate) mod saves;
pub(crate) mod token_distances;
pub(crate) mod two_player;
pub(crate) mod word_bits;

pub use acyclic::runs::{
    outcomes_runs_memory, solve_outcomes_runs, solve_outcomes_runs_words, Edge, Runs,
};
pub use acyclic::triangles::{
    grundy_triangles_memory, outcomes_triangles_memory, solve_grundy_triangles,
    solve_outcomes_triangles, solve_outcomes_triangles_words, Triangles, MAX_TRIANGLE,
};
pub use acyclic::waves::{
    grundy_waves_memory, outcomes_waves_memory, solve_grundy_waves, solve_outcomes_waves, Mirror,
    Staged, Waves,
};
pub use acyclic::{
    grundy_memory, outcomes_memory, solve_grundy, solve_outcomes, solve_outcomes_retro,
    solve_retro, Bits,
};
pub use bfs::{distances, distances_memory, Distances, Puzzle};
pub use ida::{ida_star, ida_star_within, Budget, IdaOutcome, IdaProblem, Stopped};
pub use minimax::{against_memory, solve_against, Adversary};
pub use saves::{Saves, Saving, Wave};
pub use token_distances::{token_distances, token_distances_memory, Grid, Placements};
pub use two_player::{
    solve_standings, solve_standings_saving, solve_tiered, standings_memory, tiered_memory,
    tiered_saved_bytes,
};
pub use word_bits::WordBits;

/// Runs `f` on a pool of `threads` threads: the solvers' tests compare 1 and 2 threads.
#[cfg(test)]
pub(crate) fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

/// A toy for the solvers' tests: a heap `a` of `0..=heap` beside a block of `block` positions
/// that the solver under test plays inside (a run, a triangle). Wave `a` is the block of heap
/// `a`, in one piece; an edge takes `1..=take` from the heap and keeps the block's shape, up to
/// `reach`.
#[cfg(test)]
pub(crate) struct HeapBlocks {
    pub heap: u64,
    pub block: u64,
    pub reach: u64,
    pub take: u64,
}

#[cfg(test)]
impl HeapBlocks {
    pub(crate) fn new(heap: u64, block: u64, reach: u64, take: u64) -> HeapBlocks {
        HeapBlocks {
            heap,
            block,
            reach,
            take,
        }
    }

    /// The edges of the block of heap `a`.
    pub(crate) fn heap_edges<F: FnMut(Edge) -> std::ops::ControlFlow<()>>(
        &self,
        a: u64,
        mut f: F,
    ) -> std::ops::ControlFlow<()> {
        for t in 1..=self.take.min(a) {
            f(Edge {
                child: (a - t) * self.block,
                reach: self.reach,
            })?;
        }
        std::ops::ControlFlow::Continue(())
    }
}

#[cfg(test)]
impl crate::model::Indexed for HeapBlocks {
    fn positions(&self) -> u64 {
        (self.heap + 1) * self.block
    }
}

#[cfg(test)]
impl Staged for HeapBlocks {
    type Piece = u64;
    type Cursor = u64;
    fn waves(&self) -> usize {
        self.heap as usize + 1
    }
    fn pieces(&self, wave: usize) -> Vec<u64> {
        vec![wave as u64]
    }
    fn walk<V: FnMut(&u64)>(&self, piece: &u64, mut visit: V) {
        visit(piece)
    }
}
