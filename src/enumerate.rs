//! Enumerating a sliding puzzle level by level through the partitioned breadth-first engine of
//! [`crate::solve::bfs::partitioned`] (`gamedb enumerate slide`): positions per depth and, when it
//! fits, the complete 2-bit table (a mod3 table file, see `tables/README.md`), on one process or on
//! many (MPI).
//!
//! The service around the engine lives here, as [`crate::build`] does for `gamedb build`: the
//! memory of the run (what a process may use, the store the engine plans), where checkpoints
//! and the table go, and writing the table in pieces, every process its own stripes, into one
//! file. The game side (the board's index and its bipartite sides) is `games::slide`; the
//! engine knows no game.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::format::payload::mod3_bytes;
use crate::format::{Encoding, TableMeta, TableParts, EXTENSION};
use crate::game::GameSpec;
use crate::games::slide::{SlideIndex, SlideSpec};
use crate::model::Indexed;
use crate::model::ValueKind;
use crate::progress::Progress;
use crate::resources::bytes;
use crate::solve::bfs::partitioned::{self, checkpoint, dense, Bipartite, Layout, Plan};
use crate::solve::exchange::Exchange;
use crate::{Error, Result};

/// What `gamedb enumerate slide` is asked to do.
#[derive(Clone, Debug)]
pub(crate) struct Options {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub cols: u32,
    /// Stop after this depth.
    pub max_depth: Option<u32>,
    /// Write the complete 2-bit table (refused when it does not fit).
    pub table: bool,
    /// Folder of the table and of the checkpoints (`<stem>.enumerate/`).
    pub out: PathBuf,
    /// Continue from the checkpoint in `out`.
    pub resume: bool,
    /// Bytes each process may use (default: what the machine has available, shared among the
    /// processes on it).
    pub memory: Option<u64>,
    /// Seconds between checkpoints (0: every level; `None`: no checkpoints).
    pub checkpoint_every: Option<u64>,
    /// Entries sent to one process per exchange round, at most.
    pub round_entries: u64,
    /// Test hook: sleep after each level.
    pub level_delay_ms: u64,
    /// Use this store whatever the sizes (tests, benchmarks).
    pub force: Option<partitioned::Store>,
    /// Test hook: positions per stripe instead of about 2^20 (see [`Layout::with_stripe`]), so
    /// that a small board is dealt to many processes. The table's bytes do not depend on it.
    pub stripe: Option<u64>,
}

/// What an enumeration did.
pub(crate) struct Enumerated {
    /// The board's spec.
    pub spec: SlideSpec,
    /// Positions in the index ((R·C)!/2).
    pub positions: u64,
    /// Positions at each depth.
    pub counts: Vec<u64>,
    /// Whether the enumeration reached every position.
    pub complete: bool,
    /// The memory plan of one process.
    pub plan: Plan,
    /// The table written, if any.
    pub table: Option<PathBuf>,
    /// Wall time of the enumeration (without writing the table).
    pub seconds: f64,
    /// Seconds each level of this run took (`level_seconds[d]`: the level of depth `d + 1`
    /// when the run started afresh, `resumed_at + d + 1` when it resumed).
    pub level_seconds: Vec<f64>,
    /// Bytes each process sent to the others through the exchange, per level of this run
    /// (`level_sent_bytes[d][p]`: process `p`, the level of `level_seconds[d]`).
    pub level_sent_bytes: Vec<Vec<u64>>,
    /// Bytes each process received from the others, likewise.
    pub level_received_bytes: Vec<Vec<u64>>,
    /// Wall time of writing the table.
    pub write_seconds: f64,
    /// Depth the run resumed from.
    pub resumed_at: Option<u32>,
    /// Processes.
    pub processes: usize,
}

/// The file name of a board's 2-bit table: `slide-2x7-mod3.gtab`.
pub(crate) fn table_name(spec: &SlideSpec) -> String {
    format!("{}-mod3.{EXTENSION}", spec.stem())
}

/// The checkpoint folder of a board under `out`: `slide-2x7.enumerate`.
pub(crate) fn checkpoint_dir(spec: &SlideSpec, out: &Path) -> PathBuf {
    out.join(format!("{}.enumerate", spec.stem()))
}

/// Bytes of memory one process may use: what the machine has available, shared among the
/// processes that the MPI launcher says run on this machine.
pub(crate) fn memory_per_process() -> u64 {
    let local = [
        "OMPI_COMM_WORLD_LOCAL_SIZE",
        "MPI_LOCALNRANKS",
        "SLURM_NTASKS_PER_NODE",
    ]
    .iter()
    .find_map(|v| std::env::var(v).ok()?.parse::<u64>().ok())
    .unwrap_or(1)
    .max(1);
    // The least of available memory, the cgroup's headroom and the rlimit, as for builds.
    crate::resources::memory_limit(None).map_or(u64::MAX, |(m, _)| m) / local
}

/// An enumeration, checked before anything is allocated: the board, its index, the layout of
/// the processes, the memory plan and the engine's configuration.
pub(crate) struct Prepared {
    /// The board.
    pub spec: SlideSpec,
    /// Its index.
    pub index: SlideIndex,
    /// Who owns which positions.
    pub layout: Layout,
    /// What one process needs.
    pub plan: Plan,
    /// The engine's configuration.
    pub config: partitioned::Config,
}

/// Checks the options and plans the run: refuses a board out of range, a plan that does not
/// fit in memory (needed vs available), and a fresh run over an existing checkpoint.
pub(crate) fn prepare<X: Exchange + ?Sized>(opts: &Options, x: &X) -> Result<Prepared> {
    let spec = SlideSpec::enumerated(opts.rows, opts.cols)?;
    let index = SlideIndex::dense(spec.grid());
    let sides = index.sides();
    let stripe = opts
        .stripe
        .unwrap_or_else(|| partitioned::layout::stripe_len(sides.len() as u64));
    let layout = Layout::with_stripe(
        index.positions(),
        &sides,
        x.size() as u64,
        x.rank() as u64,
        stripe,
    );
    let dir = checkpoint_dir(&spec, &opts.out);
    let config = partitioned::Config {
        max_depth: opts.max_depth,
        memory: opts.memory.unwrap_or_else(memory_per_process),
        round_entries: opts.round_entries,
        work_dir: Some(dir.clone()),
        checkpoint_every: opts.checkpoint_every,
        resume: opts.resume,
        identity: checkpoint::Identity {
            key: crate::format::identity_key(
                SlideSpec::NAME,
                SlideSpec::RULES_VERSION,
                &spec.parameters(),
            ),
            name: format!("slide {}x{}", spec.rows(), spec.cols()),
            stripe: opts.stripe.map_or(0, |_| layout.stripe),
        },
        level_delay_ms: opts.level_delay_ms,
        force: opts.force,
    };
    let plan = partitioned::plan(&layout, &config, opts.table)?;
    check_disk(opts, &layout, &plan, x)?;
    if !opts.resume && checkpoint::exists(&dir) {
        return Err(Error::bad(format!(
            "{} holds a checkpoint of an earlier run; --resume continues it, or remove the \
             folder to start afresh",
            dir.display()
        )));
    }
    Ok(Prepared {
        spec,
        index,
        layout,
        plan,
        config,
    })
}

/// Refuses a run whose files will not fit: the output folder must be writable (found now, not
/// after hours of enumeration), with room for this process's checkpoints (the new part is
/// written before the old one is removed, so two of them at a time) and, on process 0, the
/// table file.
fn check_disk<X: Exchange + ?Sized>(
    opts: &Options,
    layout: &Layout,
    plan: &Plan,
    x: &X,
) -> Result<()> {
    if !opts.table && opts.checkpoint_every.is_none() {
        return Ok(());
    }
    crate::resources::check_output_folder(&opts.out)?;
    let checkpoints = match (opts.checkpoint_every, plan.store) {
        (Some(_), partitioned::Store::Dense) => 2 * (plan.table + plan.frontier),
        _ => 0,
    };
    let table = if opts.table && x.rank() == 0 {
        crate::format::file_len(Encoding::Mod3.payload_len(layout.n).unwrap_or(u64::MAX))
    } else {
        0
    };
    let needed = checkpoints.saturating_add(table);
    match crate::resources::free_disk(&opts.out) {
        Some(free) if needed > free => Err(Error::Unsupported(format!(
            "{}: needs {} of disk ({} for checkpoints, {} for the table), but it has {} free; \
             nothing was enumerated (--no-checkpoints, or a folder with more room)",
            opts.out.display(),
            bytes(needed),
            bytes(checkpoints),
            bytes(table),
            bytes(free)
        ))),
        _ => Ok(()),
    }
}

/// Enumerates the board; every process of `x` calls it. `progress` counts the positions found
/// and notes each finished level (on every process; callers show it on process 0).
pub(crate) fn enumerate<X: Exchange + ?Sized>(
    opts: &Options,
    x: &X,
    progress: &dyn Progress,
) -> Result<Enumerated> {
    let Prepared {
        spec,
        index,
        layout,
        plan,
        config,
    } = prepare(opts, x)?;
    // One run per board and folder: a second one would share the checkpoint and the table's
    // temporary file. Process 0 holds the table's lock for the whole run.
    let files = opts.table || opts.checkpoint_every.is_some();
    let lock = if x.rank() == 0 && files {
        let name = table_name(&spec);
        crate::resources::check_output_folder(&opts.out)
            .and_then(|_| crate::lock::TableLock::try_take(&opts.out, &name))
            .and_then(|l| {
                l.map(Some).ok_or_else(|| {
                    Error::unsupported(format!(
                        "{}: another gamedb is enumerating this board into the folder (it holds \
                         the lock of {name}); wait for it, or use another --out",
                        opts.out.display()
                    ))
                })
            })
    } else {
        Ok(None)
    };
    agree(x, lock.as_ref().err(), "lock the board's table")?;
    let _lock = lock?;
    let started = Instant::now();
    let report = partitioned::run(&index, x, &layout, &plan, &config, progress)?;
    let seconds = started.elapsed().as_secs_f64();
    let mut written = None;
    let write_started = Instant::now();
    if opts.table && report.complete {
        if let Some(table) = &report.table {
            let total: u64 = report.counts.iter().sum();
            if total != index.positions() {
                return Err(Error::internal(format!(
                    "the enumeration reached {total} of the {} solvable \
                     arrangements",
                    index.positions()
                )));
            }
            let path = opts.out.join(table_name(&spec));
            write_table(&path, &spec, &layout, table, x)?;
            written = Some(path);
        }
    }
    let write_seconds = write_started.elapsed().as_secs_f64();
    let finished =
        report.complete || report.counts.len() as u64 > opts.max_depth.unwrap_or(u32::MAX) as u64;
    if finished {
        // Done as asked: the checkpoint has served.
        if let Some(dir) = &config.work_dir {
            if dir.exists() {
                checkpoint::remove(dir, x)?;
            }
        }
    }
    Ok(Enumerated {
        spec,
        positions: index.positions(),
        counts: report.counts,
        complete: report.complete,
        plan,
        table: written,
        seconds,
        level_seconds: report.seconds,
        level_sent_bytes: report.sent,
        level_received_bytes: report.received,
        write_seconds,
        resumed_at: report.resumed_at,
        processes: x.size(),
    })
}

/// Writes the table file: process 0 creates the temporary file (named after its process id,
/// which the others learn through the exchange), every process writes its stripes into it,
/// then process 0 checksums the payload, writes the header and renames the file. The finished
/// table is opened once, which checks its header against the board.
fn write_table<X: Exchange + ?Sized>(
    path: &Path,
    spec: &SlideSpec,
    layout: &Layout,
    table: &dense::Codes,
    x: &X,
) -> Result<()> {
    let meta = TableMeta {
        game: SlideSpec::NAME.into(),
        rules_version: SlideSpec::RULES_VERSION,
        parameters: spec.parameters(),
        value_kind: ValueKind::Distance,
        encoding: Encoding::Mod3,
        entry_count: layout.n,
    };
    let lead = x.rank() == 0;
    let pid = x.sum(&[if lead { std::process::id() as u64 } else { 0 }])?[0] as u32;
    // Every collective step is taken by every process, also when this one failed.
    let created = if lead {
        TableParts::create(path, &meta, pid).map(Some)
    } else {
        Ok(None)
    };
    agree(x, created.as_ref().err(), "create the table file")?;
    let mut parts = match created? {
        Some(p) => p,
        None => TableParts::join(path, &meta, pid)?,
    };
    let wrote = write_stripes(&mut parts, layout, table).and_then(|_| parts.sync());
    if let Err(e) = agree(x, wrote.as_ref().err(), "write its part of the table") {
        if lead {
            parts.abandon();
        }
        return Err(wrote.err().unwrap_or(e));
    }
    let finished = if lead { parts.finish() } else { Ok(()) };
    agree(x, finished.as_ref().err(), "finish the table")?;
    finished?;
    if lead {
        crate::lookup::Table::open(path)?;
    }
    Ok(())
}

/// Ok when no process failed; otherwise this process's own error, or one saying that another
/// process failed to do `what`.
fn agree<X: Exchange + ?Sized>(x: &X, mine: Option<&Error>, what: &str) -> Result<()> {
    let failed = x.sum(&[mine.is_some() as u64])?[0];
    match (mine, failed) {
        (_, 0) => Ok(()),
        (Some(e), _) => Err(Error::Unsupported(e.to_string())),
        (None, _) => Err(Error::Unsupported(format!(
            "another process failed to {what}"
        ))),
    }
}

/// Writes this process's stripes of the table at their places in the payload, in order.
fn write_stripes(parts: &mut TableParts, layout: &Layout, table: &dense::Codes) -> Result<()> {
    let words_per_stripe = (layout.stripe / 32) as usize;
    let mut buf = Vec::with_capacity(layout.stripe as usize / 4);
    for ls in 0..layout.local_stripes {
        let range = layout.stripe_range(layout.global_stripe(ls));
        let words = &table.words[ls as usize * words_per_stripe..];
        buf.clear();
        mod3_bytes(words, range.start, range.end, &mut buf);
        parts.write_at(range.start / 4, &buf)?;
    }
    Ok(())
}
