//! What the work of `gamedb enumerate` costs, in pieces the full runs cannot be timed by on
//! this machine (the 2×7 table is 10.9 GB):
//!
//! ```text
//! cargo run --release --example enumerate-costs -- memory BLOCK_BITS [BLOCK_BITS ...]
//! cargo run --release --example enumerate-costs -- moves ROWS COLS [DENSITY] [COUNT]
//! ```
//!
//! **memory**: the dense store's own work on a synthetic puzzle shaped like the 2×7 board,
//! on a table that fits in the caches and on one that does not, so the slowdown of a table in
//! main memory can be measured where the real table does not fit. The puzzle: `2^BLOCK_BITS`
//! blocks (an even number of bits) of 14 cells laid out as a 2×7 board; a position is a block
//! and a cell. Moves inside a row go to the neighbouring cell of the same block (the
//! neighbouring index, as a sideways move of the sliding puzzle does); a move between the rows
//! goes to the other row of a partner block, the partners paired at random for each column (a
//! bijective hash), so the move lands far away in the index, as a vertical move of the sliding
//! puzzle does. Every move flips the parity of the cell's distance from cell 13: the graph is
//! bipartite, as the engine requires. The search starts at block 0, cell 13. It prints, per
//! size, the CPU time per position reached (all threads).
//!
//! **moves**: the sliding puzzle's part of the work, `SlideIndex::expand` (the neighbours of a
//! sorted list of positions, as the engine hands it a frontier), alone, on a frontier of the
//! given density (default 0.05, about the largest level's share), in nanoseconds a position.
//!
//! `scripts/bench/enumerate.sh` runs both and projects the 2×7 run from the 2×6 run with them.

use std::time::Instant;

use gamedb::games::board::Board;
use gamedb::games::slide::SlideIndex;
use gamedb::model::Indexed;
use gamedb::programs::partitioned::{self, Bipartite, Config, Identity, Layout, Single};
use gamedb::solve::Puzzle;

/// 2^bits blocks of 14 cells.
struct Shuffle {
    bits: u32,
}

const CELLS: u64 = 14;
const COLS: u64 = 7;

impl Shuffle {
    /// A bijection of `0..2^bits` (a four-round Feistel network), one for each `key`.
    fn sigma(&self, x: u64, key: u64) -> u64 {
        let half = self.bits / 2;
        let mask = (1u64 << half) - 1;
        let (mut l, mut r) = (x >> half, x & mask);
        for k in 0..4u64 {
            let f = (r ^ (k + 4 * key).wrapping_mul(0x5851_F42D_4C95_7F2D))
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                >> 40
                & mask;
            (l, r) = (r, l ^ f);
        }
        l << half | r
    }

    fn sigma_inv(&self, y: u64, key: u64) -> u64 {
        let half = self.bits / 2;
        let mask = (1u64 << half) - 1;
        let (mut l, mut r) = (y >> half, y & mask);
        for k in (0..4u64).rev() {
            let f = (l ^ (k + 4 * key).wrapping_mul(0x5851_F42D_4C95_7F2D))
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                >> 40
                & mask;
            (l, r) = (r ^ f, l);
        }
        l << half | r
    }

    /// The partner of a block for the moves between the rows in column `col`: for each
    /// column the blocks are paired at random, each with another.
    fn partner(&self, b: u64, col: u64) -> u64 {
        self.sigma_inv(self.sigma(b, col) ^ 1, col)
    }
}

impl Indexed for Shuffle {
    fn positions(&self) -> u64 {
        CELLS << self.bits
    }
}

impl Puzzle for Shuffle {
    fn goals(&self) -> Vec<u64> {
        vec![CELLS - 1]
    }

    fn neighbours<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
        let (block, cell) = (pos / CELLS, pos % CELLS);
        let col = cell % COLS;
        if col > 0 {
            f(pos - 1);
        }
        if col + 1 < COLS {
            f(pos + 1);
        }
        f(self.partner(block, col) * CELLS + (cell + COLS) % CELLS);
    }
}

impl Bipartite for Shuffle {
    fn sides(&self) -> Vec<u8> {
        (0..CELLS)
            .map(|c| ((1 - c / COLS) + (COLS - 1 - c % COLS)) as u8 % 2)
            .collect()
    }

    /// Left (bit 1) and right (bit 2) undo each other; the move between the rows (bit 4) is
    /// its own reverse (the pairing is an involution).
    fn expand_masked<I, F>(&self, positions: I, mut f: F)
    where
        I: IntoIterator<Item = (u64, u8)>,
        F: FnMut(u64, u8),
    {
        for (pos, skip) in positions {
            let (block, cell) = (pos / CELLS, pos % CELLS);
            let col = cell % COLS;
            if col > 0 && skip & 1 == 0 {
                f(pos - 1, 2);
            }
            if col + 1 < COLS && skip & 2 == 0 {
                f(pos + 1, 1);
            }
            if skip & 4 == 0 {
                f(self.partner(block, col) * CELLS + (cell + COLS) % CELLS, 4);
            }
        }
    }
}

/// CPU seconds of this process so far (user and system, every thread).
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
    t(u.ru_utime) + t(u.ru_stime)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("memory") => memory(&args[1..]),
        Some("moves") => moves(&args[1..]),
        _ => {
            eprintln!(
                "usage: enumerate-costs memory BLOCK_BITS...  |  enumerate-costs moves ROWS COLS \
                 [DENSITY] [COUNT]"
            );
            std::process::exit(2);
        }
    }
}

fn memory(args: &[String]) {
    let threads = rayon::current_num_threads();
    for a in args {
        let bits: u32 = a
            .parse()
            .expect("BLOCK_BITS: an even number, e.g. 20 or 28");
        let puzzle = Shuffle { bits: bits & !1 };
        let layout = Layout::new(puzzle.positions(), &puzzle.sides(), 1, 0);
        let config = Config {
            max_depth: None,
            memory: u64::MAX,
            round_entries: 1 << 23,
            work_dir: None,
            checkpoint_every: None,
            resume: false,
            identity: Identity {
                key: 0,
                name: "shuffle".into(),
                stripe: 0,
            },
            level_delay_ms: 0,
            force: None,
        };
        let plan = partitioned::plan(&layout, &config, true).expect("a plan");
        let (cpu, wall) = (cpu_seconds(), Instant::now());
        let report =
            partitioned::run(&puzzle, &Single, &layout, &plan, &config, &()).expect("a run");
        let (cpu, wall) = (cpu_seconds() - cpu, wall.elapsed().as_secs_f64());
        let reached: u64 = report.counts.iter().sum();
        println!(
            "memory 2^{} blocks ({} positions, table and bitmap {:.1} MiB): {} levels, {reached} \
             reached in {wall:.2} s wall, {cpu:.2} s CPU ({threads} threads): {:.1} ns CPU a \
             position",
            puzzle.bits,
            puzzle.positions(),
            plan.total() as f64 / (1u64 << 20) as f64,
            report.counts.len(),
            cpu / reached as f64 * 1e9,
        );
    }
}

/// splitmix64.
fn mix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn moves(args: &[String]) {
    let arg = |k: usize, default: &str| args.get(k).map_or(default.to_string(), |s| s.clone());
    let rows: u32 = arg(0, "2").parse().expect("ROWS");
    let cols: u32 = arg(1, "7").parse().expect("COLS");
    let density: f64 = arg(2, "0.05").parse().expect("DENSITY");
    let count: usize = arg(3, "20000000").parse().expect("COUNT");
    let ix = SlideIndex::dense(Board::new(rows, cols).expect("a board"));
    let n = ix.positions();
    // Sorted positions with gaps drawn uniformly around 1 / density, from a third of the way.
    let gap = (2.0 / density) as u64;
    let mut x = 7u64;
    let mut at = n / 3;
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        at = (at + 1 + mix(&mut x) % gap) % n;
        positions.push(at);
    }
    positions.sort_unstable();
    let mut best = f64::MAX;
    let mut sum = 0u64;
    for _ in 0..3 {
        let t = Instant::now();
        for chunk in positions.chunks(4096) {
            ix.expand(chunk.iter().copied(), |j| sum = sum.wrapping_add(j));
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "moves {rows}x{cols} at density {density}: {:.1} ns a position (best of 3; {sum:x})",
        best / count as f64 * 1e9
    );
}
