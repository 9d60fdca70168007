//! `gamedb build-all`: build every table of a catalog, skipping intact ones.
//!
//! Before anything is solved: the output folder is checked (created, writable) and the files
//! of the missing tables must fit on its disk together; each build then checks its memory.
//! Tables are found by their headers: a file under a table's name that holds another table is
//! never overwritten.
//!
//! Two runs into one folder share the work: each table is built under its lock (see
//! [`crate::lock`]); a run that finds a table locked leaves it for later and goes on with the
//! others, then waits for the lock and skips the table if the other run built it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

use clap::Args;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget};

use crate::build::{self, Built, Options};
use crate::lock::TableLock;
use crate::resources::{self, bytes};
use crate::{tables, Error, Table};

use super::catalog::{self, Entry};
use super::{progress_bar, set_threads, Failure};

#[derive(Args)]
pub(crate) struct BuildAllArgs {
    /// Folder for the tables.
    #[arg(long, default_value = "tables")]
    out: PathBuf,
    /// A catalog file: one build per line in the words of `gamedb build`, `#` comments.
    #[arg(long)]
    catalog: Option<PathBuf>,
    /// Tables built at the same time (they share the worker threads and the memory).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Most memory the builds may allocate together (bytes, or K, M, G, T binary units: 512M,
    /// 8G); a table that needs more is refused before it is solved. Default: what the machine
    /// has available.
    #[arg(long, value_parser = resources::parse_size)]
    memory: Option<u64>,
    /// No progress bars.
    #[arg(long, short)]
    quiet: bool,
    /// One JSON array of {table, positions, bytes, memory_needed, seconds, status} instead of
    /// the table.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, serde::Serialize)]
struct Row {
    #[serde(rename = "table")]
    name: String,
    positions: u64,
    bytes: u64,
    /// What building it needs (or needed) in memory, in bytes.
    #[serde(rename = "memory_needed")]
    memory: u64,
    seconds: f64,
    status: String,
}

/// What the file under a table's name is.
enum Found {
    Intact,
    Missing,
    /// Damaged: why (rebuilt).
    Damaged(String),
    /// Holds another table: what (never overwritten).
    Foreign(String),
}

fn found(path: &Path, e: &Entry) -> Found {
    if !path.exists() {
        return Found::Missing;
    }
    // The header first: a name never decides what a file holds.
    match tables::holds(path) {
        Err(err) => return Found::Damaged(err.to_string()),
        Ok(h) if h.spec.as_ref() != Some(&e.spec) || h.kind != e.kind => {
            return Found::Foreign(format!(
                "{}: the file is named as the table of {}, but its header says it holds {}; \
                 gamedb does not overwrite another table: move or remove it",
                path.display(),
                e.spec.describe_table(e.kind),
                h.describe()
            ))
        }
        Ok(_) => {}
    }
    match Table::open(path).and_then(|t| t.verify()) {
        Ok(()) => Found::Intact,
        Err(err) => Found::Damaged(err.to_string()),
    }
}

/// The memory the running builds may use together: a build waits while others hold what it
/// needs, and gets as its own limit what they leave.
struct Budget {
    limit: Option<(u64, String)>,
    reserved: Mutex<u64>,
    freed: Condvar,
}

impl Budget {
    fn reserve(&self, need: u64) -> Option<(u64, String)> {
        let (limit, why) = self.limit.clone()?;
        let mut reserved = self.reserved.lock().unwrap_or_else(|e| e.into_inner());
        while *reserved > 0 && *reserved + need > limit {
            reserved = self.freed.wait(reserved).unwrap_or_else(|e| e.into_inner());
        }
        let left = limit - *reserved;
        *reserved += need;
        let why = if *reserved > need {
            format!("{why}, less what the other running builds need")
        } else {
            why
        };
        Some((left, why))
    }

    fn release(&self, need: u64) {
        if self.limit.is_some() {
            let mut reserved = self.reserved.lock().unwrap_or_else(|e| e.into_inner());
            *reserved -= need;
            self.freed.notify_all();
        }
    }
}

pub(crate) fn run(a: BuildAllArgs) -> Result<(), Failure> {
    let started = Instant::now();
    set_threads(a.threads)?;
    if a.jobs == 0 {
        return Err(Error::BadInput("--jobs 0: expected at least 1".into()).into());
    }
    let entries = read_catalog(a.catalog.as_deref())?;
    check_output(&a.out, &entries)?;
    clear_leftovers(&a.out);
    super::interrupt::say_what_is_left();

    let budget = Budget {
        limit: resources::memory_limit(a.memory),
        reserved: Mutex::new(0),
        freed: Condvar::new(),
    };
    let multi = MultiProgress::with_draw_target(if a.quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    });
    let overall = multi.add(progress_bar(
        a.quiet,
        entries.len() as u64,
        "all tables".into(),
    ));
    let run = BuildAll {
        a: &a,
        entries: &entries,
        budget,
        multi,
        overall,
        rows: Mutex::new(Vec::new()),
        deferred: Mutex::new(Vec::new()),
        failures: AtomicUsize::new(0),
        started,
    };
    for wait in [false, true] {
        run.pass(wait);
    }
    run.finish()
}

/// The catalog's entries: the file `--catalog` names, else the standard catalog.
fn read_catalog(catalog: Option<&Path>) -> Result<Vec<Entry>, Failure> {
    let (text, origin) = match catalog {
        Some(p) => (
            std::fs::read_to_string(p).map_err(|e| Error::Io {
                path: p.to_path_buf(),
                source: e,
            })?,
            p.display().to_string(),
        ),
        None => (
            catalog::STANDARD.to_string(),
            "standard catalog".to_string(),
        ),
    };
    Ok(catalog::parse(&text, &origin)?)
}

/// Before anything is solved: a folder we can write to, and room on its disk for the missing
/// tables together.
fn check_output(out: &Path, entries: &[Entry]) -> Result<(), Failure> {
    if out.exists() && !out.is_dir() {
        // Said even when nothing is to be built: the command names a folder.
        resources::check_output_folder(out)?;
    }
    let missing: Vec<&Entry> = entries
        .iter()
        .filter(|e| !out.join(e.spec.file_name(e.kind)).exists())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    resources::check_output_folder(out)?;
    let total: u64 = missing
        .iter()
        .map(|e| build::needs(&e.spec, e.kind).file)
        .sum();
    if let Some(free) = resources::free_disk(out) {
        if total > free {
            return Err(Error::Unsupported(format!(
                "the {} missing tables need {} of disk together, but {} has {} free; \
                 nothing was solved",
                missing.len(),
                bytes(total),
                out.display(),
                bytes(free)
            ))
            .into());
        }
    }
    Ok(())
}

/// Removes what interrupted builds left in the folder: temporary files and stale locks.
fn clear_leftovers(out: &Path) {
    let removed = crate::format::remove_stale_temporaries(out);
    if removed > 0 {
        eprintln!("removed {removed} temporary file(s) left by an interrupted build");
    }
    crate::lock::remove_stale_locks(out);
}

/// One table of the catalog being seen to.
struct Job<'e> {
    /// Its place in the catalog (the rows are listed in that order).
    index: usize,
    entry: &'e Entry,
    name: String,
    path: PathBuf,
    /// What building it needs in memory, in bytes.
    memory: u64,
}

/// A build-all run, shared by its worker threads.
struct BuildAll<'a> {
    a: &'a BuildAllArgs,
    entries: &'a [Entry],
    budget: Budget,
    multi: MultiProgress,
    overall: ProgressBar,
    /// Each table's row with its place in the catalog.
    rows: Mutex<Vec<(usize, Row)>>,
    /// The tables another process was building in the first pass, for the second.
    deferred: Mutex<Vec<usize>>,
    /// When the run started, for its total line.
    started: Instant,
    failures: AtomicUsize,
}

impl BuildAll<'_> {
    /// A line on stderr, above the progress bars.
    fn say(&self, line: String) {
        self.multi.suspend(|| eprintln!("{line}"));
    }

    /// One pass over the tables with `--jobs` threads: the first over the whole catalog, the
    /// second (`wait`) over the tables the first left because another process held them.
    fn pass(&self, wait: bool) {
        let queue: Vec<usize> = if wait {
            std::mem::take(&mut *self.deferred.lock().unwrap_or_else(|e| e.into_inner()))
        } else {
            (0..self.entries.len()).collect()
        };
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..self.a.jobs.min(queue.len().max(1)) {
                scope.spawn(|| loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&i) = queue.get(k) else { break };
                    if let Some(row) = self.one(i, wait) {
                        self.rows
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((i, row));
                        self.overall.inc(1);
                    }
                });
            }
        });
    }

    /// One table: skip it, refuse it, or build it under its lock; `None` when it is left for
    /// the second pass. `wait`: the second pass, which waits for a lock another process holds
    /// instead of leaving the table for later.
    fn one(&self, i: usize, wait: bool) -> Option<Row> {
        let entry = &self.entries[i];
        let name = entry.spec.file_name(entry.kind);
        let job = Job {
            index: i,
            entry,
            path: self.a.out.join(&name),
            memory: build::needs(&entry.spec, entry.kind).memory,
            name,
        };
        let mut row = Row {
            name: job.name.clone(),
            positions: entry.spec.positions(),
            bytes: 0,
            memory: job.memory,
            seconds: 0.0,
            status: String::new(),
        };
        let why = match found(&job.path, entry) {
            Found::Intact => {
                present(&mut row, &job.path, "present, skipped");
                self.say(format!("{}: present and intact, skipped", job.name));
                return Some(row);
            }
            Found::Foreign(msg) => {
                self.failures.fetch_add(1, Ordering::SeqCst);
                self.say(format!("gamedb: catalog line {}: {msg}", entry.line));
                row.status = "FAILED: the file holds another table".into();
                return Some(row);
            }
            Found::Missing => None,
            Found::Damaged(why) => Some(why),
        };
        let lock = self.lock(&job, wait)?;
        let result = lock.and_then(|lock| self.build(&job, &lock, &mut row));
        self.record(result, &job, why, wait, &mut row);
        Some(row)
    }

    /// The table's lock. Where another process holds it, the first pass leaves the table for
    /// the second (`None`) and the second waits for it.
    fn lock(&self, job: &Job, wait: bool) -> Option<crate::Result<TableLock>> {
        let name = &job.name;
        match TableLock::try_take(&self.a.out, name) {
            Ok(Some(lock)) => Some(Ok(lock)),
            Ok(None) if wait => {
                self.say(format!(
                    "{name}: waiting for the other gamedb building this table"
                ));
                Some(TableLock::wait(&self.a.out, name))
            }
            Ok(None) => {
                self.say(format!(
                    "{name}: another gamedb is building this table; coming back to it after \
                     the others"
                ));
                self.deferred
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(job.index);
                None
            }
            Err(err) => Some(Err(err)),
        }
    }

    /// Builds the table under its lock with its share of the memory; `None` when another run
    /// built it while this one looked or waited.
    fn build(&self, job: &Job, lock: &TableLock, row: &mut Row) -> crate::Result<Option<Built>> {
        // Another run may have built it while we looked or waited.
        if let Found::Intact = found(&job.path, job.entry) {
            return Ok(None);
        }
        let share = self.budget.reserve(job.memory);
        let options = Options {
            memory_budget: self.a.memory,
            memory_available: share,
            checkpoints: None,
        };
        let result = self.solve(job, &options, lock, row);
        self.budget.release(job.memory);
        result.map(Some)
    }

    /// The solve and the write, with the plan said and a progress bar of the table's own; the
    /// time taken goes in `row`.
    fn solve(
        &self,
        job: &Job,
        options: &Options,
        lock: &TableLock,
        row: &mut Row,
    ) -> crate::Result<Built> {
        let (e, out) = (job.entry, &self.a.out);
        let plan = build::plan(&e.spec, e.kind, out, options)?;
        if !self.a.quiet {
            self.say(plan.describe(out));
        }
        let pb = self.multi.add(ProgressBar::hidden());
        if !self.a.quiet {
            pb.set_draw_target(ProgressDrawTarget::stderr());
        }
        pb.set_style(progress_bar(true, 0, String::new()).style());
        pb.set_message(job.name.clone());
        if !self.a.quiet {
            super::report_plainly(&pb);
        }
        let started = Instant::now();
        let building = super::interrupt::building(out, &job.name, None);
        let built = build::build_locked(&e.spec, e.kind, out, options, lock, &pb);
        drop(building);
        pb.finish_and_clear();
        self.multi.remove(&pb);
        row.seconds = started.elapsed().as_secs_f64();
        built
    }

    /// What the build of a table came to, in its row and on stderr. `why`: what was wrong with
    /// the file it replaced, if anything.
    fn record(
        &self,
        result: crate::Result<Option<Built>>,
        job: &Job,
        why: Option<String>,
        wait: bool,
        row: &mut Row,
    ) {
        let name = &job.name;
        match result {
            Ok(None) => {
                present(
                    row,
                    &job.path,
                    if wait {
                        "built by another gamedb run (waited for it), skipped"
                    } else {
                        "built by another gamedb run, skipped"
                    },
                );
                self.say(format!(
                    "{name}: built by another gamedb run meanwhile, skipped"
                ));
            }
            Ok(Some(b)) => {
                row.bytes = b.file_bytes;
                row.status = match why {
                    None => "built".into(),
                    Some(why) => {
                        self.say(format!("{name}: rebuilding: {why}"));
                        "rebuilt (was damaged)".into()
                    }
                };
            }
            Err(err) => {
                self.failures.fetch_add(1, Ordering::SeqCst);
                row.status = format!("FAILED: {err}");
                self.say(format!("gamedb: catalog line {}: {err}", job.entry.line));
            }
        }
    }

    /// The rows in the catalog's order, as JSON or a table, and a failure when any table
    /// failed.
    fn finish(self) -> Result<(), Failure> {
        self.overall.finish_and_clear();
        let mut rows = self.rows.into_inner().unwrap_or_else(|e| e.into_inner());
        rows.sort_by_key(|(i, _)| *i);
        if self.a.json {
            let rows: Vec<&Row> = rows.iter().map(|(_, r)| r).collect();
            println!("{}", serde_json::to_string(&rows).unwrap_or_default());
        } else {
            print_rows(&rows);
            println!(
                "{}",
                total_line(&rows, self.started.elapsed().as_secs_f64())
            );
        }
        let failed = self.failures.load(Ordering::SeqCst);
        if failed > 0 {
            return Err(Error::Unsupported(format!("{failed} table(s) failed to build")).into());
        }
        Ok(())
    }
}

/// A table whose file is there: its size, and `status`.
fn present(row: &mut Row, path: &Path, status: &str) {
    row.bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    row.status = status.into();
}

/// The last line of the table: `total: 31 tables (31 built), 148913152 bytes (142.0 MiB), in
/// 61.2 s`: the tables of the catalog and what became of them, the bytes of their files and
/// the run's wall-clock time.
fn total_line(rows: &[(usize, Row)], seconds: f64) -> String {
    let n = rows.len();
    let total: u64 = rows.iter().map(|(_, r)| r.bytes).sum();
    let built = rows
        .iter()
        .filter(|(_, r)| r.status == "built" || r.status.starts_with("rebuilt"))
        .count();
    let failed = rows
        .iter()
        .filter(|(_, r)| r.status.starts_with("FAILED"))
        .count();
    let mut parts = vec![format!("{built} built")];
    if n - built - failed > 0 {
        parts.push(format!("{} skipped", n - built - failed));
    }
    if failed > 0 {
        parts.push(format!("{failed} failed"));
    }
    format!(
        "total: {} ({}), {total} bytes ({}), in {seconds:.1} s",
        crate::game::counted(n, "table"),
        parts.join(", "),
        bytes(total)
    )
}

fn print_rows(rows: &[(usize, Row)]) {
    println!(
        "{:<40} {:>14} {:>14} {:>10} {:>9}  status",
        "table", "positions", "bytes", "memory", "seconds"
    );
    for (_, r) in rows {
        println!(
            "{:<40} {:>14} {:>14} {:>10} {:>9.2}  {}",
            r.name,
            r.positions,
            r.bytes,
            bytes(r.memory),
            r.seconds,
            r.status
        );
    }
}
