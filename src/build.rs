//! Building tables: what `gamedb build` can build, and solving then writing atomically.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::fifteen::FifteenArgs;
use crate::format::{self, payload};
use crate::game::{Progress, ValueKind};
use crate::games::{BuildGame, Spec};
use crate::Result;

/// What `gamedb build` (and a catalog line) names: one registered game with its arguments, or
/// a set of tables (the pattern databases of a 15-puzzle partition).
#[derive(clap::Subcommand, Clone, Debug)]
pub enum BuildTarget {
    /// One table of a registered game.
    #[command(flatten)]
    Game(BuildGame),
    /// The pattern databases of a standard partition of the 15-puzzle (4x4 board).
    Fifteen(FifteenArgs),
}

impl BuildTarget {
    /// The checked specs and value kinds of the tables these arguments ask for.
    pub fn specs(&self) -> Result<Vec<(Spec, ValueKind)>> {
        match self {
            BuildTarget::Game(g) => Ok(vec![g.spec()?]),
            BuildTarget::Fifteen(f) => f.specs(),
        }
    }
}

/// What a build did.
#[derive(Clone, Debug)]
pub struct Built {
    /// The file written.
    pub path: PathBuf,
    /// Positions solved.
    pub positions: u64,
    /// Bytes of the file.
    pub file_bytes: u64,
    /// Wall time of the solve alone.
    pub solve_time: Duration,
    /// Wall time including writing.
    pub total_time: Duration,
}

/// Solves `spec` for `kind` values and writes the table under `out_dir` (its standard file
/// name). Parallelism is rayon's current pool: run inside `ThreadPool::install` to choose it.
pub fn build(
    spec: &Spec,
    kind: ValueKind,
    out_dir: &Path,
    progress: &dyn Progress,
) -> Result<Built> {
    let path = out_dir.join(spec.file_name(kind));
    format::remove_stale_temporaries(out_dir);
    progress.restart(spec.positions(), &spec.file_name(kind));
    let started = Instant::now();
    let solved = spec.solve(kind, progress)?;
    let solve_time = started.elapsed();
    let encoded = payload::encode(solved);
    format::write_table(&path, &spec.meta(&encoded), &encoded.bytes)?;
    Ok(Built {
        path,
        positions: encoded.entries,
        file_bytes: format::PAYLOAD_OFFSET + encoded.bytes.len() as u64,
        solve_time,
        total_time: started.elapsed(),
    })
}
