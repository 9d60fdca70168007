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

use crate::build::{self, Options};
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
    set_threads(a.threads)?;
    if a.jobs == 0 {
        return Err(Error::BadInput("--jobs 0: expected at least 1".into()).into());
    }
    let (text, origin) = match &a.catalog {
        Some(p) => (
            std::fs::read_to_string(p).map_err(|e| Error::Io {
                path: p.clone(),
                source: e,
            })?,
            p.display().to_string(),
        ),
        None => (
            catalog::STANDARD.to_string(),
            "standard catalog".to_string(),
        ),
    };
    let entries = catalog::parse(&text, &origin)?;

    if a.out.exists() && !a.out.is_dir() {
        // Said even when nothing is to be built: the command names a folder.
        resources::check_output_folder(&a.out)?;
    }
    // Before anything is solved: a folder we can write to, and room for the missing tables.
    let missing: Vec<&Entry> = entries
        .iter()
        .filter(|e| !a.out.join(e.spec.file_name(e.kind)).exists())
        .collect();
    if !missing.is_empty() {
        resources::check_output_folder(&a.out)?;
        let total: u64 = missing
            .iter()
            .map(|e| build::needs(&e.spec, e.kind).file)
            .sum();
        if let Some(free) = resources::free_disk(&a.out) {
            if total > free {
                return Err(Error::Unsupported(format!(
                    "the {} missing tables need {} of disk together, but {} has {} free; \
                     nothing was solved",
                    missing.len(),
                    bytes(total),
                    a.out.display(),
                    bytes(free)
                ))
                .into());
            }
        }
    }
    let removed = crate::format::remove_stale_temporaries(&a.out);
    if removed > 0 {
        eprintln!("removed {removed} temporary file(s) left by an interrupted build");
    }
    crate::lock::remove_stale_locks(&a.out);

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
    let say = |line: String| multi.suspend(|| eprintln!("{line}"));
    let overall = multi.add(progress_bar(
        a.quiet,
        entries.len() as u64,
        "all tables".into(),
    ));
    let rows: Mutex<Vec<(usize, Row)>> = Mutex::new(Vec::new());
    let deferred: Mutex<Vec<usize>> = Mutex::new(Vec::new());
    let failures = AtomicUsize::new(0);

    // One table: skip it, refuse it, or build it under its lock. `wait`: the second pass,
    // which waits for a lock another process holds instead of leaving the table for later.
    let one = |i: usize, wait: bool| {
        let e = &entries[i];
        let name = e.spec.file_name(e.kind);
        let path = a.out.join(&name);
        let needs = build::needs(&e.spec, e.kind);
        let mut row = Row {
            name: name.clone(),
            positions: e.spec.positions(),
            bytes: 0,
            memory: needs.memory,
            seconds: 0.0,
            status: String::new(),
        };
        let present = |row: &mut Row, status: &str| {
            row.bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            row.status = status.into();
        };
        let before = found(&path, e);
        let why = match before {
            Found::Intact => {
                present(&mut row, "present, skipped");
                say(format!("{name}: present and intact, skipped"));
                return Some(row);
            }
            Found::Foreign(msg) => {
                failures.fetch_add(1, Ordering::SeqCst);
                say(format!("gamedb: catalog line {}: {msg}", e.line));
                row.status = "FAILED: the file holds another table".into();
                return Some(row);
            }
            Found::Missing => None,
            Found::Damaged(why) => Some(why),
        };
        let lock = if wait {
            match TableLock::try_take(&a.out, &name) {
                Ok(Some(lock)) => Ok(lock),
                Ok(None) => {
                    say(format!(
                        "{name}: waiting for the other gamedb building this table"
                    ));
                    TableLock::wait(&a.out, &name)
                }
                Err(err) => Err(err),
            }
        } else {
            match TableLock::try_take(&a.out, &name) {
                Ok(Some(lock)) => Ok(lock),
                Ok(None) => {
                    say(format!(
                        "{name}: another gamedb is building this table; coming back to it \
                         after the others"
                    ));
                    deferred.lock().unwrap_or_else(|e| e.into_inner()).push(i);
                    return None;
                }
                Err(err) => Err(err),
            }
        };
        let result = lock.and_then(|lock| {
            // Another run may have built it while we looked or waited.
            if let Found::Intact = found(&path, e) {
                return Ok(None);
            }
            let share = budget.reserve(needs.memory);
            let options = Options {
                memory_budget: a.memory,
                memory_available: share,
                checkpoints: None,
            };
            let result = (|| {
                let plan = build::plan(&e.spec, e.kind, &a.out, &options)?;
                if !a.quiet {
                    say(plan.describe(&a.out));
                }
                let pb = multi.add(ProgressBar::hidden());
                if !a.quiet {
                    pb.set_draw_target(ProgressDrawTarget::stderr());
                }
                pb.set_style(progress_bar(true, 0, String::new()).style());
                pb.set_message(name.clone());
                let started = Instant::now();
                let built = build::build_locked(&e.spec, e.kind, &a.out, &options, &lock, &pb);
                pb.finish_and_clear();
                multi.remove(&pb);
                row.seconds = started.elapsed().as_secs_f64();
                built
            })();
            budget.release(needs.memory);
            result.map(Some)
        });
        match result {
            Ok(None) => {
                present(
                    &mut row,
                    if wait {
                        "built by another gamedb run (waited for it), skipped"
                    } else {
                        "built by another gamedb run, skipped"
                    },
                );
                say(format!(
                    "{name}: built by another gamedb run meanwhile, skipped"
                ));
            }
            Ok(Some(b)) => {
                row.bytes = b.file_bytes;
                row.status = match why {
                    None => "built".into(),
                    Some(why) => {
                        say(format!("{name}: rebuilding: {why}"));
                        "rebuilt (was damaged)".into()
                    }
                };
            }
            Err(err) => {
                failures.fetch_add(1, Ordering::SeqCst);
                row.status = format!("FAILED: {err}");
                say(format!("gamedb: catalog line {}: {err}", e.line));
            }
        }
        Some(row)
    };

    for wait in [false, true] {
        let queue: Vec<usize> = if wait {
            std::mem::take(&mut *deferred.lock().unwrap_or_else(|e| e.into_inner()))
        } else {
            (0..entries.len()).collect()
        };
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..a.jobs.min(queue.len().max(1)) {
                scope.spawn(|| loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&i) = queue.get(k) else { break };
                    if let Some(row) = one(i, wait) {
                        rows.lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((i, row));
                        overall.inc(1);
                    }
                });
            }
        });
    }
    overall.finish_and_clear();
    let mut rows = rows.into_inner().unwrap_or_else(|e| e.into_inner());
    rows.sort_by_key(|(i, _)| *i);
    if a.json {
        let rows: Vec<&Row> = rows.iter().map(|(_, r)| r).collect();
        println!("{}", serde_json::to_string(&rows).unwrap_or_default());
    } else {
        print_rows(&rows);
    }
    let failed = failures.load(Ordering::SeqCst);
    if failed > 0 {
        return Err(Error::Unsupported(format!("{failed} table(s) failed to build")).into());
    }
    Ok(())
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
