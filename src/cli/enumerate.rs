//! `gamedb enumerate slide --rows R --cols C [--max-depth D] [--table] [--json] [--out DIR]
//! [--resume] [--threads N] [--memory BYTES]`: positions per depth of a sliding puzzle through
//! the partitioned breadth-first engine ([`crate::enumerate`]), on one process or, built with
//! `--features mpi`, on many (`mpirun -np N gamedb enumerate ...`, `srun gamedb ...`).
//!
//! Process 0 prints; every process reports its own errors.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde::Serialize;

use crate::enumerate::{self, Enumerated, Options};
use crate::progress::Progress;
use crate::resources::bytes;
use crate::solve::bfs::partitioned;
use crate::solve::exchange::Exchange;
use crate::Error;

use super::{progress_bar, set_threads, Common, Failure};

#[derive(Args)]
pub(crate) struct EnumerateArgs {
    #[command(subcommand)]
    what: What,
}

#[derive(Subcommand)]
enum What {
    /// Sliding puzzle on an R×C board (up to 16 cells: 4×4, 3×5, 2×8 and smaller): positions
    /// at each distance from the goal, and with --table the complete 2-bit table.
    Slide(SlideArgs),
}

#[derive(Args)]
struct SlideArgs {
    /// Rows of the board.
    #[arg(long)]
    rows: u32,
    /// Columns of the board.
    #[arg(long)]
    cols: u32,
    /// Stop after this depth (counts of depths 0..=D).
    #[arg(long)]
    max_depth: Option<u32>,
    /// Also write the complete 2-bit table (distance mod 3), `<out>/slide-RxC-mod3.gtab`;
    /// refused when it does not fit in memory.
    #[arg(long)]
    table: bool,
    /// Print one JSON object (the summary, with `counts`: positions at each depth).
    #[arg(long)]
    json: bool,
    /// Folder of the table and of the checkpoints (`slide-RxC.enumerate/`).
    #[arg(long, default_value = "tables")]
    out: PathBuf,
    /// Continue from the checkpoint in --out (same board, same number of processes).
    #[arg(long)]
    resume: bool,
    /// Memory each process may use, in bytes (suffixes K, M, G, T: powers of 1024); default:
    /// what the machine has available, shared by the processes on it.
    #[arg(long, value_parser = crate::resources::parse_size)]
    memory: Option<u64>,
    /// Seconds between checkpoints (0: after every level).
    #[arg(long, default_value_t = 600)]
    checkpoint_every: u64,
    /// No checkpoints.
    #[arg(long)]
    no_checkpoints: bool,
    /// Most neighbours sent to one process per exchange round: each process holds 16 bytes ×
    /// this × processes of exchange buffers (lower it on many nodes: 1048576 from 64 up).
    #[arg(long, default_value_t = 1 << 23)]
    round_entries: u64,
    /// Test hook: milliseconds to sleep after each level.
    #[arg(long, default_value_t = 0, hide = true)]
    level_delay_ms: u64,
    /// Test hook: positions per stripe (the unit dealt to the processes), rounded up to 64
    /// periods of the board's side pattern; small boards then reach many processes.
    #[arg(long, hide = true)]
    stripe: Option<u64>,
    /// Use the sparse store (sorted level lists) even when the 2-bit table would fit.
    #[arg(long)]
    sparse: bool,
    #[command(flatten)]
    common: Common,
}

/// The summary `--json` prints.
#[derive(Serialize)]
struct Summary {
    board: String,
    rows: u32,
    cols: u32,
    positions: u64,
    store: &'static str,
    processes: usize,
    threads: usize,
    memory_per_process: u64,
    complete: bool,
    max_depth: usize,
    reached: u64,
    counts: Vec<u64>,
    /// Seconds each level took (`level_seconds[d]`: depth `d + 1`).
    level_seconds: Vec<f64>,
    /// Bytes each process sent to the other processes through the exchange
    /// (`level_sent_bytes[d][p]`: process `p`, depth `d + 1`; zeros with one process).
    level_sent_bytes: Vec<Vec<u64>>,
    /// Bytes each process received from the others, likewise.
    level_received_bytes: Vec<Vec<u64>>,
    seconds: f64,
    positions_per_second: f64,
    table: Option<String>,
    write_seconds: f64,
    resumed_at: Option<u32>,
}

/// Progress of an enumeration: the bar (on a terminal) and a line per finished level, above the
/// bar on a terminal and plain on stderr otherwise (a log keeps them).
struct Levels {
    bar: indicatif::ProgressBar,
    show: bool,
    terminal: bool,
}

impl Progress for Levels {
    fn inc(&self, n: u64) {
        self.bar.inc(n)
    }

    fn note(&self, line: &str) {
        if !self.show {
        } else if self.terminal {
            self.bar.println(line)
        } else {
            eprintln!("{line}")
        }
    }
}

fn millis(s: f64) -> f64 {
    (s * 1000.0).round() / 1000.0
}

pub(crate) fn run(a: EnumerateArgs) -> Result<(), Failure> {
    let What::Slide(a) = a.what;
    set_threads(a.common.threads)?;
    #[cfg(feature = "mpi")]
    {
        let Some(x) = crate::solve::exchange::Mpi::init() else {
            return Err(Error::internal("MPI was initialized twice").into());
        };
        slide(&a, &x)
    }
    #[cfg(not(feature = "mpi"))]
    slide(&a, &crate::solve::exchange::Single)
}

fn slide<X: Exchange>(a: &SlideArgs, x: &X) -> Result<(), Failure> {
    let opts = Options {
        rows: a.rows,
        cols: a.cols,
        max_depth: a.max_depth,
        table: a.table,
        out: a.out.clone(),
        resume: a.resume,
        memory: a.memory,
        checkpoint_every: (!a.no_checkpoints).then_some(a.checkpoint_every),
        round_entries: a.round_entries,
        level_delay_ms: a.level_delay_ms,
        force: a.sparse.then_some(partitioned::Store::Sparse),
        stripe: a.stripe,
    };
    let lead = x.rank() == 0;
    let threads = rayon::current_num_threads();
    let result = (|| {
        let p = enumerate::prepare(&opts, x)?;
        let show = lead && !a.common.quiet;
        let pb = Levels {
            bar: progress_bar(!show, p.layout.n, String::new()),
            show,
            terminal: std::io::IsTerminal::is_terminal(&std::io::stderr()),
        };
        pb.note(&format!(
            "enumerate slide {}x{}: {} positions, {} store, {} process{} x {threads} thread{}; \
             memory per process: {}",
            p.spec.rows(),
            p.spec.cols(),
            p.layout.n,
            p.plan.store.name(),
            x.size(),
            if x.size() == 1 { "" } else { "es" },
            if threads == 1 { "" } else { "s" },
            p.plan.describe()
        ));
        pb.bar
            .set_message(format!("slide {}x{}", p.spec.rows(), p.spec.cols()));
        drop(p);
        let done = enumerate::enumerate(&opts, x, &pb);
        pb.bar.finish_and_clear();
        done
    })();
    let done = match result {
        Ok(d) => d,
        Err(e) if x.size() > 1 => {
            return Err(Error::Unsupported(format!("process {}: {e}", x.rank())).into())
        }
        Err(e) => return Err(e.into()),
    };
    if !lead {
        return Ok(());
    }
    print_summary(a, &done, threads);
    if a.table && done.table.is_none() {
        eprintln!(
            "gamedb: no table written: the enumeration stopped at depth {} before reaching \
             every position (--max-depth)",
            done.counts.len() - 1
        );
    }
    Ok(())
}

fn print_summary(a: &SlideArgs, done: &Enumerated, threads: usize) {
    let total: u64 = done.counts.iter().sum();
    let deepest = done.counts.len() - 1;
    let rate = total as f64 / done.seconds.max(1e-9);
    let board = format!("{}x{}", done.spec.rows(), done.spec.cols());
    if a.json {
        let s = Summary {
            board,
            rows: done.spec.rows(),
            cols: done.spec.cols(),
            positions: done.positions,
            store: done.plan.store.name(),
            processes: done.processes,
            threads,
            memory_per_process: done.plan.total(),
            complete: done.complete,
            max_depth: deepest,
            reached: total,
            counts: done.counts.clone(),
            level_seconds: done.level_seconds.iter().map(|&s| millis(s)).collect(),
            level_sent_bytes: done.level_sent_bytes.clone(),
            level_received_bytes: done.level_received_bytes.clone(),
            seconds: millis(done.seconds),
            positions_per_second: rate.round(),
            table: done.table.as_ref().map(|p| p.display().to_string()),
            write_seconds: millis(done.write_seconds),
            resumed_at: done.resumed_at,
        };
        println!("{}", serde_json::to_string(&s).unwrap_or_default());
        return;
    }
    println!(
        "slide {board}: {total} of {} positions within {deepest} moves{} ({} store, {:.2} s, \
         {:.1} M positions/s{})",
        done.positions,
        if done.complete { ", complete" } else { "" },
        done.plan.store.name(),
        done.seconds,
        rate / 1e6,
        done.resumed_at
            .map_or(String::new(), |d| format!(", resumed at depth {d}"))
    );
    println!("depth  positions");
    for (d, c) in done.counts.iter().enumerate() {
        println!("{d:>5}  {c}");
    }
    if let Some(p) = &done.table {
        let size = std::fs::metadata(p).map_or(0, |m| m.len());
        println!(
            "wrote {} ({size} bytes, {}) in {:.2} s",
            p.display(),
            bytes(size),
            done.write_seconds
        );
    }
}
