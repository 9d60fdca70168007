//! `gamedb verify [NAME...]`: check the statements against every position of the tables they
//! read; exit 1 when one fails (a finding, reported with its smallest counterexample).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use crate::verify::{self, Env, Summary};
use crate::{Error, TableDir};

use super::{progress_bar, set_threads, Common, Failure};

#[derive(Args)]
pub(crate) struct VerifyArgs {
    /// Statements to check (default: all); see --list.
    pub names: Vec<String>,
    /// List the statements (name, rough cost, claim, source) and stop.
    #[arg(long)]
    pub list: bool,
    /// With --list: the catalog in Markdown, statements and references
    /// (`src/verify/STATEMENTS.md`).
    #[arg(long, requires = "list")]
    pub markdown: bool,
    /// Print one JSON document.
    #[arg(long)]
    pub json: bool,
    /// One line on stderr per statement as it finishes (`[3/51] PASS  name  1.2 s`); shown
    /// without this flag when stderr is a terminal (and not --quiet).
    #[arg(long)]
    pub progress: bool,
    /// Reuse intact tables from this folder (found by their headers; others are solved in
    /// memory).
    #[arg(long, default_value = "tables")]
    pub tables: PathBuf,
    /// A folder of Syzygy tables (.rtbw and .rtbz files, made by scripts/bench/syzygy-tb.sh)
    /// for `chess-syzygy`, which a run of every statement leaves out without it.
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<PathBuf>,
    #[command(flatten)]
    pub common: Common,
}

pub(crate) fn run(a: VerifyArgs) -> Result<(), Failure> {
    let all = verify::statements();
    if a.list {
        if a.markdown {
            print!("{}", verify::catalog_markdown());
            return Ok(());
        }
        // The rough cost is what the statement took alone on the reference machine, solving
        // its tables in memory (`verify::cost`); reused tables make it cheaper.
        for s in &all {
            let cost = verify::cost_text(s.cost());
            println!(
                "{:24} {cost:>7}  {}\n{:24} {:>7}  {}",
                s.name, s.claim, "", "", s.source
            );
        }
        return Ok(());
    }
    for name in &a.names {
        if !all.iter().any(|s| s.name == name) {
            return Err(Failure::Error(Error::BadInput(format!(
                "unknown statement '{name}'; `gamedb verify --list` names them all"
            ))));
        }
    }
    // The one statement that reads files of another program: asked for by name, it needs
    // them; in a run of every statement, it is left out without them (and says so).
    const SYZYGY: &str = "chess-syzygy";
    if a.syzygy.is_none() && a.names.iter().any(|n| n == SYZYGY) {
        return Err(Failure::Error(Error::bad(crate::syzygy::NO_FOLDER)));
    }
    // Read before any statement runs: a folder that will not do is refused up front.
    let syzygy = a
        .syzygy
        .as_deref()
        .map(crate::syzygy::Folder::open)
        .transpose()?;
    set_threads(a.common.threads)?;
    let chosen: Vec<_> = all
        .iter()
        .filter(|s| a.names.is_empty() || a.names.contains(&s.name.to_string()))
        .filter(|s| s.name != SYZYGY || a.syzygy.is_some())
        .collect();
    if a.names.is_empty() && a.syzygy.is_none() && !a.common.quiet {
        eprintln!("{SYZYGY} left out: it needs a folder of Syzygy tables (--syzygy DIR)");
    }
    let pb = progress_bar(a.common.quiet, 0, String::new());
    let mut env = Env::new(Some(TableDir::new(&a.tables)), &pb).with_syzygy(syzygy);
    let lines = a.progress || (!a.common.quiet && std::io::stderr().is_terminal());
    let total = chosen.len();
    let mut reports = Vec::new();
    for (i, s) in chosen.into_iter().enumerate() {
        let started = Instant::now();
        let r = verify::run(s, &mut env)?;
        let secs = started.elapsed().as_secs_f64();
        pb.suspend(|| {
            if !a.json {
                println!("{}", r.to_text());
            }
            if lines {
                eprintln!(
                    "{}",
                    verify::progress_line(i + 1, total, r.status, r.name, secs)
                );
            }
        });
        reports.push(r);
    }
    pb.finish_and_clear();
    let summary = Summary::of(reports);
    if a.json {
        println!(
            "{}",
            serde_json::to_string(&summary).map_err(|e| Error::internal(e.to_string()))?
        );
    } else {
        println!("{} passed, {} failed", summary.passed, summary.failed);
    }
    if summary.failed > 0 {
        Err(Failure::Findings)
    } else {
        Ok(())
    }
}
