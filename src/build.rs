//! Building tables: what `gamedb build` can build; checking what a build needs against what the
//! machine has before solving; locking the table against a second writer; solving (with
//! checkpoints of long solves, so that an interrupted build resumes), then writing
//! atomically.

pub(crate) mod checkpoint;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::format::{self, payload};
use crate::games::Spec;
use crate::lock::TableLock;
use crate::model::ValueKind;
use crate::progress::Progress;
use crate::resources;
use crate::{Error, Result};
use checkpoint::Checkpoint;
pub use checkpoint::{Checkpoints, Report};
pub use resources::{Available, Needs};

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
    /// What the checkpoints did (where the solve resumed, how many were written).
    pub checkpoints: Report,
}

/// What building the table of `spec` with `kind` values needs: memory at the peak (the
/// game's solver, see [`crate::game::View::solve_memory`], then the encoding) and the
/// output file (its size when the game knows it, [`crate::game::Engine::solved_bytes`],
/// else at most: Grundy values may turn out to fit one byte each, see
/// `payload::max_payload_len`). Computed without solving.
pub fn needs(spec: &Spec, kind: ValueKind) -> Needs {
    let n = spec.positions();
    let table = spec
        .view()
        .engine()
        .solved_bytes(kind)
        .unwrap_or_else(|| payload::max_payload_len(kind, n));
    Needs {
        what: spec.file_name(kind),
        memory: spec
            .view()
            .solve_memory(kind)
            .saturating_add(payload::encode_memory(kind, n)),
        table,
        file: format::file_len(table),
        checkpoints: 0,
    }
}

/// How a build checks its resources.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// A memory budget in bytes (`--memory`): refuse builds that need more, even when the
    /// machine has more.
    pub memory_budget: Option<u64>,
    /// The memory this build may use, when the caller has measured it already (`build-all`
    /// running several builds at once gives each its share); `None` measures it now.
    pub memory_available: Option<(u64, String)>,
    /// Checkpoints of long solves (`gamedb build`): `None` neither writes nor reads any.
    pub checkpoints: Option<Checkpoints>,
}

/// What a build checked before solving: its needs and what was available.
#[derive(Clone, Debug)]
pub struct Plan {
    /// What the build needs.
    pub needs: Needs,
    /// What the machine had.
    pub available: Available,
}

impl Plan {
    /// One line for people: needs and what is available.
    pub fn describe(&self, out_dir: &Path) -> String {
        resources::describe(&self.needs, &self.available, out_dir)
    }
}

/// Checks, before anything is solved, that a build of `spec` with `kind` values into
/// `out_dir` can succeed: the folder is (made) writable, and the memory and disk the build
/// needs are there (see `resources`). The error says what is needed and what is
/// available.
pub fn plan(spec: &Spec, kind: ValueKind, out_dir: &Path, options: &Options) -> Result<Plan> {
    spec.check_kind(kind)?;
    let mut needs = needs(spec, kind);
    if let Some(c) = options.checkpoints {
        let saves = Checkpoint::new(out_dir, spec, kind, c, &());
        saves.check()?;
        needs.checkpoints = saves.disk(needs.file);
    }
    plan_needs(needs, out_dir, options)
}

/// [`plan`] for any writer of tables that states its own [`Needs`] (an engine that solves
/// outside [`crate::game::Engine::solve`], e.g. across processes): the output folder is
/// (made) writable, and the needs fit in the memory and disk available. Call it before
/// allocating, then write under a [`TableLock`].
pub(crate) fn plan_needs(needs: Needs, out_dir: &Path, options: &Options) -> Result<Plan> {
    resources::check_output_folder(out_dir)?;
    let mut available = Available::now(out_dir, options.memory_budget);
    if let Some(given) = &options.memory_available {
        if available.memory.as_ref().is_none_or(|(m, _)| given.0 < *m) {
            available.memory = Some(given.clone());
        }
    }
    resources::check(&needs, &available, out_dir)?;
    Ok(Plan { needs, available })
}

/// [`plan`] for several tables built one after another into `out_dir`: each must fit in
/// memory by itself, and their files together on the disk. Nothing is solved.
pub(crate) fn plan_all(
    tables: &[(Spec, ValueKind)],
    out_dir: &Path,
    options: &Options,
) -> Result<Vec<Plan>> {
    let plans = tables
        .iter()
        .map(|(spec, kind)| plan(spec, *kind, out_dir, options))
        .collect::<Result<Vec<Plan>>>()?;
    let total: u64 = plans.iter().map(|p| p.needs.file).sum();
    if let Some(free) = resources::free_disk(out_dir) {
        if plans.len() > 1 && total > free {
            return Err(Error::Unsupported(format!(
                "the {} tables to build need {} of disk together, but {} has {} free; nothing \
                 was solved",
                plans.len(),
                resources::bytes(total),
                out_dir.display(),
                resources::bytes(free)
            )));
        }
    }
    Ok(plans)
}

/// Solves `spec` for `kind` values and writes the table under `out_dir` (its standard file
/// name): checks resources first ([`plan`]), takes the table's lock (waiting while another
/// process builds the same table, see [`crate::lock`]), then builds. Parallelism is rayon's
/// current pool: run inside `ThreadPool::install` to choose it.
pub fn build(
    spec: &Spec,
    kind: ValueKind,
    out_dir: &Path,
    progress: &dyn Progress,
) -> Result<Built> {
    let options = Options::default();
    plan(spec, kind, out_dir, &options)?;
    let lock = TableLock::wait(out_dir, &spec.file_name(kind))?;
    build_locked(spec, kind, out_dir, &options, &lock, progress)
}

/// [`build`] for a caller that already holds the table's lock (`build-all` takes it itself, to
/// skip a table another process is building and come back to it). Checks resources again
/// (they may have changed while it waited), solves, writes atomically.
pub fn build_locked(
    spec: &Spec,
    kind: ValueKind,
    out_dir: &Path,
    options: &Options,
    lock: &TableLock,
    progress: &dyn Progress,
) -> Result<Built> {
    let name = spec.file_name(kind);
    if lock.name() != name {
        return Err(Error::internal(format!(
            "building {name} under the lock of {}",
            lock.name()
        )));
    }
    plan(spec, kind, out_dir, options)?;
    let path = out_dir.join(&name);
    format::remove_stale_temporaries(out_dir);
    format::remove_temporaries_of(out_dir, &name);
    let saves = options
        .checkpoints
        .map(|c| Checkpoint::new(out_dir, spec, kind, c, progress));
    if let Some(s) = &saves {
        s.remove_temporaries();
    }
    progress.restart(spec.positions(), &name);
    let started = Instant::now();
    let solved = match &saves {
        Some(s) => spec.solve_saving(kind, progress, s)?,
        None => spec.solve(kind, progress)?,
    };
    let solve_time = started.elapsed();
    let encoded = payload::encode(solved);
    format::write_table(&path, &spec.meta(&encoded), &encoded.bytes)?;
    // The table is complete under its name: the checkpoint has served.
    if let Some(s) = &saves {
        s.remove()?;
    }
    Ok(Built {
        path,
        positions: encoded.entries,
        file_bytes: format::file_len(encoded.bytes.len() as u64),
        solve_time,
        total_time: started.elapsed(),
        checkpoints: saves.map(|s| s.report()).unwrap_or_default(),
    })
}

/// Writes a table of every registered game's samples ([`Spec::samples`]) of at most
/// `max_positions` positions, in every value kind the game stores, into `dir` under their
/// standard names; returns the file names. Solved in memory at once: for tests, fuzzing and
/// demonstrations, not for tables that need the resource checks of [`build`].
pub fn write_samples(dir: &Path, max_positions: u64) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for spec in Spec::samples() {
        if spec.positions() > max_positions {
            continue;
        }
        for &kind in spec.value_kinds() {
            let encoded = payload::encode(spec.solve(kind, &())?);
            let name = spec.file_name(kind);
            format::write_table(&dir.join(&name), &spec.meta(&encoded), &encoded.bytes)?;
            names.push(name);
        }
    }
    Ok(names)
}
