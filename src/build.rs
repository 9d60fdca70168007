//! Building a table: solve, then write atomically.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;

use crate::format::{self, ValueKind};
use crate::games::Spec;
use crate::Result;

/// What a build did.
#[derive(Clone, Debug)]
pub struct Built {
    /// The file written.
    pub path: PathBuf,
    /// Positions solved.
    pub positions: u64,
    /// Payload bytes.
    pub payload_bytes: u64,
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
    progress: &ProgressBar,
) -> Result<Built> {
    let path = out_dir.join(spec.file_name(kind));
    format::remove_stale_temporaries(out_dir);
    progress.set_length(spec.positions());
    let started = Instant::now();
    let payload = spec.solve(kind, progress)?;
    let solve_time = started.elapsed();
    format::write_table(&path, &spec.meta(&payload), &payload.bytes)?;
    Ok(Built {
        path,
        positions: payload.entries,
        payload_bytes: payload.bytes.len() as u64,
        solve_time,
        total_time: started.elapsed(),
    })
}
