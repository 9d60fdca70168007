//! The level loop both stores run: expand a level, count it, report it, checkpoint when due,
//! until a level finds nothing or the depth asked for is reached. What differs between the
//! dense and the sparse store (how a level is expanded, what a checkpoint keeps) is the
//! [`Levels`] trait; the order of the collective calls (the level's own, then the traffic's
//! sum, then the checkpoint clock) is the same for both, as every process must make them alike.

use std::time::{Duration, Instant};

use crate::progress::Progress;
use crate::solve::bfs::partitioned::checkpoint::{self, Section};
use crate::solve::bfs::partitioned::{Clock, Config, Report, Store, Traffic};
use crate::solve::exchange::Exchange;
use crate::Result;

/// A store's state between levels, as the level loop sees it.
pub(crate) trait Levels {
    /// Which store this is (for the report and the checkpoint).
    const STORE: Store;

    /// Expands level `depth` into level `depth + 1`; returns the positions first reached,
    /// summed over the processes, and this process's exchange traffic.
    fn level<X: Exchange + ?Sized>(&mut self, x: &X, depth: u32) -> Result<(u64, Traffic)>;

    /// Bytes the store holds in memory, shown when larger than the resident memory (the
    /// sparse store's lists); 0 by default.
    fn memory(&self) -> u64 {
        0
    }

    /// What a checkpoint after a finished level keeps.
    fn sections(&self) -> Vec<Section<'_>>;
}

/// Where a run starts: the counts of the levels found so far (the goals' for a fresh run),
/// the depth of the last of them, and the depth resumed from, when it resumed.
pub(crate) struct Start {
    pub(crate) counts: Vec<u64>,
    pub(crate) depth: u32,
    pub(crate) resumed_at: Option<u32>,
}

/// Runs levels on `store` from `start` until a level finds nothing (a complete run) or
/// `config.max_depth` is reached. The report has no table: the dense store adds its own.
pub(crate) fn drive<S: Levels, X: Exchange + ?Sized>(
    store: &mut S,
    x: &X,
    config: &Config,
    progress: &dyn Progress,
    start: Start,
) -> Result<Report> {
    let Start {
        mut counts,
        mut depth,
        resumed_at,
    } = start;
    let mut clock = Clock::new(config.checkpoint_every);
    let mut seconds = Vec::new();
    let (mut sent, mut received) = (Vec::new(), Vec::new());
    let mut complete = false;
    loop {
        if config.max_depth.is_some_and(|m| depth >= m) {
            break;
        }
        let started = Instant::now();
        let (found, traffic) = store.level(x, depth)?;
        if found == 0 {
            complete = true;
            break;
        }
        depth += 1;
        counts.push(found);
        let secs = started.elapsed().as_secs_f64();
        seconds.push(secs);
        let (s, r) = crate::solve::bfs::partitioned::gather(x, traffic)?;
        sent.push(s);
        received.push(r);
        let memory = store.memory();
        crate::solve::bfs::partitioned::report_level(
            progress,
            depth,
            found,
            counts.iter().sum(),
            secs,
            memory,
        );
        if config.level_delay_ms > 0 {
            std::thread::sleep(Duration::from_millis(config.level_delay_ms));
        }
        if let Some(dir) = config.work_dir.as_deref() {
            if clock.due(x)? {
                checkpoint::save(
                    dir,
                    &config.identity,
                    S::STORE,
                    x,
                    depth,
                    &counts,
                    &store.sections(),
                )?;
            }
        }
    }
    Ok(Report {
        counts,
        seconds,
        complete,
        store: S::STORE,
        table: None,
        resumed_at,
        sent,
        received,
    })
}
