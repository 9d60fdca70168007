//! `gamedb build-all`: build every table of a catalog, skipping intact ones.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use clap::Args;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget};

use gamedb::catalog::{self, Entry};
use gamedb::{Error, Table};

use super::{progress_bar, set_threads, Failure};

#[derive(Args)]
pub struct BuildAllArgs {
    /// Folder for the tables.
    #[arg(long, default_value = "tables")]
    out: PathBuf,
    /// A catalog file: one build per line in the words of `gamedb build`, `#` comments.
    #[arg(long)]
    catalog: Option<PathBuf>,
    /// Tables built at the same time (they share the worker threads).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bars.
    #[arg(long, short)]
    quiet: bool,
    /// One JSON array of {table, positions, bytes, seconds, status} instead of the table.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, serde::Serialize)]
struct Row {
    #[serde(rename = "table")]
    name: String,
    positions: u64,
    bytes: u64,
    seconds: f64,
    status: String,
}

/// Why an existing file is not reused, or `None` if it is intact.
fn damage(path: &Path, e: &Entry) -> Option<String> {
    if !path.exists() {
        return Some(String::new());
    }
    let t = match Table::open(path) {
        Ok(t) => t,
        Err(err) => return Some(err.to_string()),
    };
    if t.spec() != &e.spec || t.value_kind() != e.kind {
        return Some("holds another table".into());
    }
    t.verify().err().map(|err| err.to_string())
}

pub fn run(a: BuildAllArgs) -> Result<(), Failure> {
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
    std::fs::create_dir_all(&a.out).map_err(|e| Error::Io {
        path: a.out.clone(),
        source: e,
    })?;
    let removed = gamedb::format::remove_stale_temporaries(&a.out);
    if removed > 0 {
        eprintln!("removed {removed} temporary file(s) left by an interrupted build");
    }

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
    let rows: Mutex<Vec<(usize, Row)>> = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let failures = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..a.jobs.min(entries.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(e) = entries.get(i) else { break };
                let name = e.spec.file_name(e.kind);
                let path = a.out.join(&name);
                let mut row = Row {
                    name: name.clone(),
                    positions: e.spec.positions(),
                    bytes: 0,
                    seconds: 0.0,
                    status: String::new(),
                };
                match damage(&path, e) {
                    None => {
                        row.bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                        row.status = "present, skipped".into();
                        multi.suspend(|| eprintln!("{name}: present and intact, skipped"));
                    }
                    Some(why) => {
                        let pb = multi.add(ProgressBar::hidden());
                        if !a.quiet {
                            pb.set_draw_target(ProgressDrawTarget::stderr());
                        }
                        pb.set_style(progress_bar(true, 0, String::new()).style());
                        pb.set_message(name.clone());
                        let started = Instant::now();
                        let result = gamedb::build::build(&e.spec, e.kind, &a.out, &pb);
                        pb.finish_and_clear();
                        multi.remove(&pb);
                        row.seconds = started.elapsed().as_secs_f64();
                        match result {
                            Ok(b) => {
                                row.bytes = b.file_bytes;
                                row.status = if why.is_empty() {
                                    "built".into()
                                } else {
                                    multi.suspend(|| eprintln!("{name}: rebuilding: {why}"));
                                    "rebuilt (was damaged)".into()
                                };
                            }
                            Err(err) => {
                                failures.fetch_add(1, Ordering::SeqCst);
                                row.status = format!("FAILED: {err}");
                                multi.suspend(|| {
                                    eprintln!("gamedb: catalog line {}: {err}", e.line)
                                });
                            }
                        }
                    }
                }
                rows.lock().unwrap().push((i, row));
                overall.inc(1);
            });
        }
    });
    overall.finish_and_clear();
    let mut rows = rows.into_inner().unwrap();
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
        "{:<40} {:>14} {:>14} {:>9}  status",
        "table", "positions", "bytes", "seconds"
    );
    for (_, r) in rows {
        println!(
            "{:<40} {:>14} {:>14} {:>9.2}  {}",
            r.name, r.positions, r.bytes, r.seconds, r.status
        );
    }
}
