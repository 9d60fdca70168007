//! A level-synchronous breadth-first search over a partitioned index space, for puzzles too
//! large for a byte per position: threads inside a process, processes through an
//! [`Exchange`] (one process, or MPI with the cargo feature `mpi`).
//!
//! The positions are dealt to the processes in stripes ([`layout`]). Each level, every process
//! expands the frontier positions it owns; a neighbour owned by the process itself is marked at
//! once (threads share the process's arrays through atomic ORs, which commute, so the result is
//! the same whatever the order), a neighbour owned by another process is put in that process's
//! outbox. Outboxes go to their owners by an all-to-all exchange in rounds of bounded size, the
//! owners mark what they receive, and the level's count is summed over the processes.
//!
//! Two stores, chosen by size ([`plan`]):
//! * **dense** ([`dense`]): the 2-bit table of [`crate::format::entries::mod3`] (distance mod 3, or not
//!   reached) over the process's positions, plus one bit a position saying it was expanded:
//!   the frontier of level `d` lies on side `d mod 2` of the bipartite graph, and is the
//!   positions of that side reached but not expanded. It keeps the complete answer.
//! * **sparse** ([`sparse`]): sorted lists of the positions of levels `d` and `d + 1` only,
//!   each with the moves that lead back a level (frontier search: every neighbour of level `d`
//!   lies in `d − 1` or `d + 1`, and the moves back are left out), compressed, spilled to
//!   disk when they outgrow memory. Counts only, for the early levels of boards whose table
//!   cannot fit (the 4×4).
//!
//! **Determinism.** A level is a set, whatever the order its members are found in, and a
//! position's code is set once, to the level that first reaches it; counts and table bytes are
//! the same at any number of threads and processes.
//!
//! **Checkpoints** ([`checkpoint`]): after a finished level every process writes its state
//! (every `checkpoint_every` seconds at most), so a run killed at any moment resumes from the
//! last complete checkpoint with the same counts and bytes.

pub(crate) mod checkpoint;
pub(crate) mod dense;
mod driver;
pub(crate) mod layout;
pub(crate) mod sparse;

use std::path::PathBuf;
use std::time::Instant;

pub(crate) use layout::FastDiv;
pub use layout::Layout;

use crate::progress::Progress;
use crate::resources::bytes;
use crate::solve::bfs::Puzzle;
use crate::solve::exchange::Exchange;
use crate::{Error, Result};

/// A puzzle whose graph is bipartite with a periodic side pattern: the side of position `i`
/// is `sides()[i mod sides().len()]`, and every move changes the side. (A sliding puzzle's
/// side is the parity of the blank's distance from its home cell, which the blank's cell, the
/// fast-moving part of the index, decides.) The goals lie on side 0.
pub trait Bipartite: Puzzle {
    /// The side of each residue of the index modulo the period.
    fn sides(&self) -> Vec<u8>;

    /// The **ordered** moves (mask bits, see [`expand_masked`](Bipartite::expand_masked)):
    /// each takes index `i` to `i − 1` or `i + 1` inside `i`'s aligned group of
    /// `sides().len()` indices. As `i` and `i ± 1` lie on different sides, these neighbours of
    /// positions of one side taken in increasing order come in non-decreasing order, on the
    /// same process: the sparse store merges them without sorting. None by default.
    const ORDERED: u8 = 0;

    /// Where the ordered moves go, by residue of the index modulo the period (one entry per
    /// residue, like [`sides`](Bipartite::sides)): bit 0 set when index `i` has a move to
    /// `i − 1`, bit 1 when it has one to `i + 1`; these are all the moves of
    /// [`ORDERED`](Bipartite::ORDERED), and [`expand_masked`](Bipartite::expand_masked) with
    /// `ORDERED` in a position's mask gives exactly its other moves.
    ///
    /// The dense store then makes the ordered moves of a whole word of positions at once (bit
    /// shifts of the frontier's bitmap word, one atomic OR per table word) instead of position
    /// by position. Empty (the default): no such moves, every move goes through
    /// `expand_masked`.
    fn ordered_steps(&self) -> Vec<u8> {
        Vec::new()
    }

    /// Like [`Puzzle::expand`], with moves named: each position comes with a mask of moves to
    /// leave out, and `f(neighbour, back)` gets, as `back`, the bit of the move that leads from
    /// the neighbour back to the position. Moves are bits `0..4` of a mask (a sliding puzzle's
    /// blank goes left, right, up or down); from one position, distinct moves give distinct
    /// bits, and the move back from a neighbour is the same bit whoever computes it. The sparse
    /// store needs it for frontier search (it never keeps the level before the frontier).
    fn expand_masked<I, F>(&self, positions: I, f: F)
    where
        I: IntoIterator<Item = (u64, u8)>,
        F: FnMut(u64, u8);
}

/// Which store an enumeration uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Store {
    /// The 2-bit table and a bitmap of the expanded positions.
    Dense,
    /// Sorted lists of two levels, spilled to disk as needed.
    Sparse,
}

impl Store {
    /// `dense` or `sparse`.
    pub fn name(self) -> &'static str {
        match self {
            Store::Dense => "dense",
            Store::Sparse => "sparse",
        }
    }
}

/// What one enumeration is asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    /// Stop after this depth (the counts then cover depths `0..=max_depth`).
    pub max_depth: Option<u32>,
    /// Bytes this process may use (the memory check refuses plans above it).
    pub memory: u64,
    /// Entries sent to one process per exchange round, at most (bounds the exchange buffers).
    pub round_entries: u64,
    /// Where checkpoints (and the sparse store's spilled lists) go, when anywhere.
    pub work_dir: Option<PathBuf>,
    /// Seconds between checkpoints (0: after every level); `None`: no checkpoints.
    pub checkpoint_every: Option<u64>,
    /// Continue from the checkpoint in `work_dir`.
    pub resume: bool,
    /// Who is enumerated: a checkpoint of anything else is refused.
    pub identity: checkpoint::Identity,
    /// Test hook: sleep this long after each level (to kill a run at a chosen moment).
    pub level_delay_ms: u64,
    /// Use this store whatever the sizes (tests and benchmarks of the sparse store on boards
    /// whose table would fit); the memory check still applies.
    pub force: Option<Store>,
}

/// The memory one process needs, by part, in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The store chosen.
    pub store: Store,
    /// The 2-bit table (dense), or the in-memory part of the level lists (sparse).
    pub table: u64,
    /// The bitmap of expanded positions, which gives the frontier (dense), or sorting
    /// buffers (sparse).
    pub frontier: u64,
    /// Exchange buffers (outboxes and what is received).
    pub exchange: u64,
}

impl Plan {
    /// Everything.
    pub fn total(&self) -> u64 {
        self.table + self.frontier + self.exchange
    }

    /// `table 10.2 GiB + frontier 5.1 GiB + exchange 256.0 MiB = 15.5 GiB`.
    pub fn describe(&self) -> String {
        let (t, f) = match self.store {
            Store::Dense => ("2-bit table", "expanded bitmap"),
            Store::Sparse => ("level lists in memory", "sorting buffers"),
        };
        format!(
            "{t} {} + {f} {} + exchange buffers {} = {}",
            bytes(self.table),
            bytes(self.frontier),
            bytes(self.exchange),
            bytes(self.total())
        )
    }
}

/// The dense store's needs on one process: 2 bits a position for the table and one for the
/// expanded bitmap, plus the exchange buffers (only with several processes).
pub(crate) fn dense_plan(layout: &Layout, config: &Config) -> Plan {
    let local = layout.local_len();
    Plan {
        store: Store::Dense,
        table: local.div_ceil(32) * 8,
        frontier: local.div_ceil(64) * 8,
        exchange: exchange_bytes(layout, config),
    }
}

/// Outboxes of one round (each destination `round_entries` at most, plus one stripe's worth of
/// overshoot) and what comes back from the others.
fn exchange_bytes(layout: &Layout, config: &Config) -> u64 {
    if layout.procs == 1 {
        return 0;
    }
    2 * 8 * config.round_entries * layout.procs
}

/// The store for `layout`: dense when its plan fits `config.memory` and a complete run is
/// asked for or possible, sparse otherwise (counts only). `table` demands the dense store.
pub fn plan(layout: &Layout, config: &Config, table: bool) -> Result<Plan> {
    let dense = dense_plan(layout, config);
    if config.force == Some(Store::Sparse) && !table {
        let sparse = sparse::plan(layout, config);
        if sparse.total() <= config.memory {
            return Ok(sparse);
        }
        return Err(refusal(&sparse, config.memory, layout));
    }
    if dense.total() <= config.memory {
        return Ok(dense);
    }
    if table {
        return Err(refusal(&dense, config.memory, layout));
    }
    let sparse = sparse::plan(layout, config);
    if sparse.total() <= config.memory {
        return Ok(sparse);
    }
    Err(refusal(&sparse, config.memory, layout))
}

fn refusal(plan: &Plan, memory: u64, layout: &Layout) -> Error {
    let advice =
        match plan.store {
            Store::Dense => format!(
            "run it as more processes (mpirun -np {}), or without --table (counts only, sparse \
             store, with --max-depth)",
            (layout.procs * plan.total()).div_ceil(memory.max(1)).max(layout.procs + 1)
        ),
            Store::Sparse => "give it more memory (--memory), or run it as more processes".into(),
        };
    Error::Unsupported(format!(
        "not enough memory: the {} store needs {} per process ({}), but {} is available; {advice}",
        plan.store.name(),
        bytes(plan.total()),
        plan.describe(),
        bytes(memory)
    ))
}

/// Reports a finished level: `inc` by its positions and a line for people, `depth  42:
/// 7864146 positions (44276837 in all) in 1.55 s, 5.06 M/s, memory 101.1 MiB` (the resident
/// memory of this process, or `memory` when larger).
pub(crate) fn report_level(
    progress: &dyn Progress,
    depth: u32,
    found: u64,
    total: u64,
    seconds: f64,
    memory: u64,
) {
    progress.inc(found);
    progress.note(&format!(
        "depth {depth:>3}: {found:>15} positions ({total:>16} in all) in {seconds:>7.2} s, \
         {:>7.2} M/s, memory {}",
        found as f64 / seconds.max(1e-9) / 1e6,
        bytes(crate::resources::resident_memory().max(memory))
    ));
}

/// What an enumeration found.
pub struct Report {
    /// Positions at each depth, from 0.
    pub counts: Vec<u64>,
    /// Seconds each level took to find (`seconds[d]` for depth `d + 1`; the levels of this
    /// run only, when it resumed).
    pub seconds: Vec<f64>,
    /// True when every reachable position was found (the last level had no successor).
    pub complete: bool,
    /// The store used.
    pub store: Store,
    /// The dense store's 2-bit table of this process's positions, when it was used.
    pub table: Option<dense::Codes>,
    /// The depth the run resumed from (0 for a fresh run).
    pub resumed_at: Option<u32>,
    /// Bytes each process sent to the other processes through the exchange while finding
    /// each level (`sent[d][p]`: process `p`, the level of `seconds[d]`); all zero with one
    /// process. What is sent is every neighbour owned by another process, duplicates
    /// included, so the bytes depend on the board and the process count only, not on the
    /// threads or the exchange rounds.
    pub sent: Vec<Vec<u64>>,
    /// Bytes each process received from the others, likewise (their sum over the processes
    /// equals that of `sent`).
    pub received: Vec<Vec<u64>>,
}

/// Bytes one process moved through the exchange during one level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Traffic {
    /// To the other processes.
    pub(crate) sent: u64,
    /// From the other processes.
    pub(crate) received: u64,
}

impl Traffic {
    /// Counts one exchange round: `sends` went out (the entry for this process itself, if
    /// any, stays here) and `received` entries came back, own entries included.
    pub(crate) fn add(&mut self, rank: usize, sends: &[Vec<u64>], received: usize) {
        let own = sends.get(rank).map_or(0, |v| v.len());
        let out: usize = sends.iter().map(|v| v.len()).sum::<usize>() - own;
        self.sent += 8 * out as u64;
        self.received += 8 * received.saturating_sub(own) as u64;
    }
}

/// Every process's traffic of one level, `(sent, received)` indexed by process: each process
/// fills its own slots of a vector the processes sum (one small all-reduce a level).
pub(crate) fn gather<X: Exchange + ?Sized>(x: &X, mine: Traffic) -> Result<(Vec<u64>, Vec<u64>)> {
    let p = x.size();
    let mut slots = vec![0u64; 2 * p];
    slots[x.rank()] = mine.sent;
    slots[p + x.rank()] = mine.received;
    let all = x.sum(&slots)?;
    Ok((all[..p].to_vec(), all[p..].to_vec()))
}

/// Enumerates `puzzle` level by level from its goals.
pub fn run<P: Bipartite, X: Exchange + ?Sized>(
    puzzle: &P,
    x: &X,
    layout: &Layout,
    plan: &Plan,
    config: &Config,
    progress: &dyn Progress,
) -> Result<Report> {
    match plan.store {
        Store::Dense => dense::run(puzzle, x, layout, config, progress),
        Store::Sparse => sparse::run(puzzle, x, layout, config, progress),
    }
}

/// When checkpoints are due.
pub(crate) struct Clock {
    every: Option<u64>,
    last: Instant,
}

impl Clock {
    pub(crate) fn new(every: Option<u64>) -> Clock {
        Clock {
            every,
            last: Instant::now(),
        }
    }

    /// Whether a checkpoint is due now (the same answer on every process: rank 0 decides).
    pub(crate) fn due<X: Exchange + ?Sized>(&mut self, x: &X) -> Result<bool> {
        let Some(every) = self.every else {
            return Ok(false);
        };
        let mine = x.rank() == 0 && self.last.elapsed().as_secs() >= every;
        let due = x.any(mine)?;
        if due {
            self.last = Instant::now();
        }
        Ok(due)
    }
}

/// The goals of `puzzle`, checked to lie on side 0 and inside the index.
pub(crate) fn goals<P: Bipartite>(puzzle: &P, layout: &Layout) -> Result<Vec<u64>> {
    let goals = puzzle.goals();
    for &g in &goals {
        if g >= layout.n || layout.side_of(g) != 0 {
            return Err(Error::internal(format!(
                "goal {g} is outside the index or not on side 0"
            )));
        }
    }
    Ok(goals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::exchange::Single;

    #[test]
    fn traffic_counts_other_processes_only() {
        let mut t = Traffic::default();
        // Process 1 of 3 sends 2 entries to 0 and 3 to 2 (none to itself) and gets 4 back.
        t.add(1, &[vec![1, 2], vec![], vec![3, 4, 5]], 4);
        assert_eq!(
            t,
            Traffic {
                sent: 40,
                received: 32
            }
        );
        // One process: what it "sends" itself is no traffic.
        let mut one = Traffic::default();
        one.add(0, &[vec![7, 8]], 2);
        assert_eq!(one, Traffic::default());
        assert_eq!(gather(&Single, t).unwrap(), (vec![40], vec![32]));
    }
}
