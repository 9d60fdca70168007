//! `gamedb verify [NAME...] [--all]`: check the statements against every position of the tables
//! they read; exit 1 when one fails (a finding, reported with its smallest counterexample).
//! Without names a run leaves out the heavy statements (a minute or more each, see
//! [`verify::HEAVY_SECONDS`]) and names them; `--all` runs them too.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use crate::verify::{self, Env, Summary};
use crate::{Error, TableDir};

use super::{progress_bar, set_threads, Common, Failure};

#[derive(Args)]
pub(crate) struct VerifyArgs {
    /// Statements to check (default: every light one, under a minute each; the heavy ones,
    /// left out and named, with --all or by name); see --list.
    pub names: Vec<String>,
    /// Every statement, the heavy ones included (over an hour on two cores).
    #[arg(long, conflicts_with = "names")]
    pub all: bool,
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
    /// One line on stderr per statement as it finishes (`[i/N] PASS  name  1.2 s`, the i-th of
    /// the N statements of the run); shown without this flag when stderr is a terminal (and
    /// not --quiet).
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
        println!("\n{}", verify::plan_line(&all));
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
    let (chosen, heavy) = choose(&all, &a.names, a.all, a.syzygy.is_some());
    if a.names.is_empty() && a.syzygy.is_none() && !a.common.quiet {
        eprintln!("{SYZYGY} left out: it needs a folder of Syzygy tables (--syzygy DIR)");
    }
    if !heavy.is_empty() && !a.common.quiet {
        eprintln!("{}", left_out(&heavy));
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
    let summary = Summary::of(reports, heavy.iter().map(|s| s.name).collect());
    if a.json {
        println!(
            "{}",
            serde_json::to_string(&summary).map_err(|e| Error::internal(e.to_string()))?
        );
    } else {
        println!("{}", summary.to_text());
    }
    if summary.failed > 0 {
        Err(Failure::Findings)
    } else {
        Ok(())
    }
}

/// The line naming the heavy statements a plain run leaves out, each with its cost, and the
/// commands that run them.
fn left_out(heavy: &[&verify::Statement]) -> String {
    let total: f64 = heavy.iter().filter_map(|s| s.cost()).sum();
    let each: Vec<String> = heavy
        .iter()
        .map(|s| format!("{} {}", s.name, verify::cost_text(s.cost())))
        .collect();
    format!(
        "{} heavy statements left out ({} or more each on two cores, {} in all): {}; \
         `gamedb verify --all` runs every statement, `gamedb verify NAME...` those named",
        heavy.len(),
        verify::cost_text(Some(verify::HEAVY_SECONDS)).trim_start_matches('~'),
        verify::cost_text(Some(total)),
        each.join(", ")
    )
}

/// The statements a run checks and the heavy ones it leaves out, in the catalog's order: those
/// named; without names every light one, or with `all` every one; `chess-syzygy` only with a
/// folder of Syzygy tables.
fn choose<'s>(
    all: &'s [verify::Statement],
    names: &[String],
    every: bool,
    syzygy: bool,
) -> (Vec<&'s verify::Statement>, Vec<&'s verify::Statement>) {
    let light_only = names.is_empty() && !every;
    all.iter()
        .filter(|s| names.is_empty() || names.iter().any(|n| n == s.name))
        .filter(|s| s.name != "chess-syzygy" || syzygy)
        .partition(|s| !(light_only && s.heavy()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&verify::Statement]) -> Vec<&'static str> {
        v.iter().map(|s| s.name).collect()
    }

    #[test]
    fn a_plain_run_leaves_the_heavy_statements_out_and_all_or_names_run_them() {
        let all = verify::statements();
        let (run, left) = choose(&all, &[], false, false);
        assert!(run.iter().all(|s| !s.heavy()) && left.iter().all(|s| s.heavy()));
        assert_eq!(
            run.len() + left.len(),
            all.len() - 1,
            "all but chess-syzygy"
        );
        assert!(names(&left).contains(&"connect4-thirty-cells"));
        assert!(names(&run).contains(&"nim-bouton"));
        // --all: every one (chess-syzygy with its folder).
        let (run, left) = choose(&all, &[], true, true);
        assert_eq!((run.len(), left.len()), (all.len(), 0));
        // By name, heavy or not, in the catalog's order.
        let asked = [
            "connect4-thirty-cells".to_string(),
            "nim-bouton".to_string(),
        ];
        let (run, left) = choose(&all, &asked, false, false);
        assert_eq!(names(&run), ["nim-bouton", "connect4-thirty-cells"]);
        assert!(left.is_empty());
    }
}
