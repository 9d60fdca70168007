//! `gamedb solve`: optimal solutions of sliding-puzzle positions from pattern databases.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::fifteen::{parity_answer, Options, Solver};
use crate::games::board::Board;
use crate::games::pdb::Partition;
use crate::solve::ida::Searched;
use crate::solve::Budget;
use crate::{Error, TableDir};

use super::{answer_all, Failure};

#[derive(Args)]
pub(crate) struct SolveArgs {
    /// Rows of the board.
    #[arg(long, default_value_t = 4)]
    rows: u32,
    /// Columns of the board.
    #[arg(long, default_value_t = 4)]
    cols: u32,
    /// Positions: the tiles in reading order, 0 for the blank (`15,14,...,0`); `-` reads one
    /// per line from stdin.
    #[arg(required = true)]
    positions: Vec<String>,
    /// One JSON object per answer.
    #[arg(long)]
    json: bool,
    /// Folder of the pattern tables.
    #[arg(long, default_value = "tables")]
    tables: PathBuf,
    /// Use this partition of the 4x4 board (7-8, 6-6-3, 5-5-5) instead of the best present.
    #[arg(long, conflicts_with = "patterns")]
    partition: Option<String>,
    /// Use these patterns, separated by `/`: `1,2,3,4/5,6,7,8`.
    #[arg(long)]
    patterns: Option<String>,
    /// Do not max the heuristic with the reflected position.
    #[arg(long)]
    no_reflect: bool,
    /// Skip the tables' payload checksums when opening.
    #[arg(long)]
    no_verify: bool,
    /// Copy the tables into memory backed by huge pages: faster lookups for long batches,
    /// about a second to set up for the 7-8 tables.
    #[arg(long)]
    huge_pages: bool,
    /// Give up on a position after expanding this many nodes (its line says so; exit 2).
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Give up on a position after this many seconds (its line says so; exit 2).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
}

/// Searches shorter than this show no progress.
const QUIET_FOR: Duration = Duration::from_millis(500);

fn options(a: &SolveArgs) -> crate::Result<Options> {
    let patterns = match (&a.partition, &a.patterns) {
        (Some(name), _) => {
            if (a.rows, a.cols) != (4, 4) {
                return Err(Error::BadInput(format!(
                    "--partition {name} names a partition of the 4x4 board; for the {}x{} board \
                     give --patterns, e.g. --patterns 1,2,3/4,5,6",
                    a.rows, a.cols
                )));
            }
            let p = Partition::named(name)?;
            Some(p.patterns.iter().map(|p| p.to_vec()).collect())
        }
        (None, Some(text)) => {
            let form = || {
                "patterns separated by '/', each a comma-separated list of tiles: \
                           1,2,3/4,5,6"
                    .to_string()
            };
            let mut out = Vec::new();
            for part in text.split('/') {
                out.push(
                    crate::game::parse_numbers(part, form())
                        .map_err(|e| Error::BadInput(format!("--patterns: {e}")))?,
                );
            }
            Some(out)
        }
        (None, None) => None,
    };
    Ok(Options {
        patterns,
        reflect: !a.no_reflect,
        verify: !a.no_verify,
        copy: a.huge_pages,
    })
}

pub(crate) fn run(a: SolveArgs) -> Result<(), Failure> {
    let board = Board::new(a.rows, a.cols)?;
    let options = options(&a)?;
    let timeout = match a.timeout {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 && t < 1e9 => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(Error::BadInput(format!(
                "--timeout {t}: expected a positive number of seconds"
            ))
            .into())
        }
    };
    if a.max_nodes == Some(0) {
        return Err(Error::BadInput("--max-nodes 0: expected at least 1".into()).into());
    }
    // Long searches of positions given on the command line show their progress on a terminal
    // (indicatif draws nothing when stderr is not one); streams of short searches do not.
    let show_progress = a.positions != ["-"];
    let dir = TableDir::new(&a.tables);
    // Unsolvable positions are answered by the parity rule even without tables; the first
    // solvable one needs them, and their absence ends the command. Answers may run on several
    // threads: a second opening racing the first is harmless, one of the two is kept.
    let solver: OnceLock<Solver> = OnceLock::new();
    let result = answer_all(&a.positions, a.json, |text| {
        let tiles = match board.parse(text) {
            Ok(t) => t,
            Err(e) => return Ok(Err(e)),
        };
        let solution = match parity_answer(board, &tiles) {
            Some(s) => s,
            None => {
                let solver = match solver.get() {
                    Some(s) => s,
                    None => {
                        let s = Solver::open(a.rows, a.cols, &dir, &options)?;
                        solver.get_or_init(|| s)
                    }
                };
                let now = Instant::now();
                let spinner = spinner(show_progress);
                let tell = |p: Searched| {
                    if now.elapsed() >= QUIET_FOR {
                        spinner.set_message(format!(
                            "searching paths of {} moves: {} nodes expanded, {} generated",
                            p.threshold, p.expanded, p.generated
                        ));
                        spinner.tick();
                    }
                };
                let budget = Budget {
                    max_nodes: a.max_nodes,
                    deadline: timeout.map(|t| now + t),
                    progress: Some(&tell),
                };
                let solved = solver.solve_within(&tiles, budget);
                // Cleared before the answer is printed.
                spinner.finish_and_clear();
                match solved {
                    Ok(s) => s,
                    Err(e) => return Ok(Err(e)),
                }
            }
        };
        Ok(Ok(if a.json {
            solution.to_json()
        } else {
            solution.to_text()
        }))
    });
    result
}

/// A progress line on stderr (drawn only on a terminal), or none.
fn spinner(show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
            .expect("valid template"),
    );
    super::report_plainly(&pb);
    pb
}
