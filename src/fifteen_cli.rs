//! The sliding-puzzle words of the CLI: `gamedb build pdb`, `gamedb build fifteen` and
//! `gamedb solve`.

use std::path::PathBuf;
use std::sync::OnceLock;

use clap::{Args, Subcommand};

use gamedb::game::Rules;
use gamedb::games::board::Board;
use gamedb::games::fifteen::{
    parity_answer, Options, Partition, Solution, Solver, DEFAULT_PARTITION,
};
use gamedb::games::pdb::PdbSpec;
use gamedb::games::slide::SlideRules;
use gamedb::games::Spec;
use gamedb::lookup::{Answer, DistanceAnswer};
use gamedb::{Error, ValueKind};

use crate::{Failure, QueryArgs};

#[derive(Subcommand, Clone)]
pub(crate) enum PuzzleArgs {
    /// A pattern database of a sliding puzzle: for every placement of the pattern tiles, the
    /// fewest moves of pattern tiles that bring them home.
    Pdb {
        /// Rows of the board.
        #[arg(long)]
        rows: u32,
        /// Columns of the board.
        #[arg(long)]
        cols: u32,
        /// The pattern tiles, e.g. `1,2,3,4,5,6,7`.
        #[arg(long)]
        pattern: String,
    },
    /// The pattern databases of a standard partition of the 15-puzzle (4x4 board).
    Fifteen {
        /// Which partition: 7-8 (strongest, minutes to build), 6-6-3 or 5-5-5.
        #[arg(long, default_value = DEFAULT_PARTITION)]
        partition: String,
    },
}

impl PuzzleArgs {
    /// The tables these arguments ask for.
    pub(crate) fn specs(&self) -> gamedb::Result<Vec<(Spec, ValueKind)>> {
        let specs = match self {
            PuzzleArgs::Pdb {
                rows,
                cols,
                pattern,
            } => vec![PdbSpec::parse(*rows, *cols, pattern)?],
            PuzzleArgs::Fifteen { partition } => Partition::named(partition)?.specs(),
        };
        Ok(specs
            .into_iter()
            .map(|s| (Spec::Pdb(s), ValueKind::Distance))
            .collect())
    }
}

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
}

fn options(a: &SolveArgs) -> gamedb::Result<Options> {
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
                    gamedb::game::parse_numbers(part, form())
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

/// The solver, opened by the first position that needs it (answers may run on several
/// threads: a second opening racing the first is harmless, one of the two is kept).
fn opened(
    cell: &OnceLock<Solver>,
    open: impl FnOnce() -> gamedb::Result<Solver>,
) -> Result<&Solver, Failure> {
    if let Some(s) = cell.get() {
        return Ok(s);
    }
    let s = open()?;
    Ok(cell.get_or_init(|| s))
}

pub(crate) fn solve(a: SolveArgs) -> Result<(), Failure> {
    let board = Board::new(a.rows, a.cols)?;
    let options = options(&a)?;
    // Unsolvable positions are answered by the parity rule even without tables; the first
    // solvable one needs them, and their absence ends the command.
    let solver: OnceLock<Solver> = OnceLock::new();
    let answer = |text: &str| -> Result<Result<Solution, Error>, Failure> {
        let tiles = match board.parse(text) {
            Ok(t) => t,
            Err(e) => return Ok(Err(e)),
        };
        if let Some(s) = parity_answer(board, &tiles) {
            return Ok(Ok(s));
        }
        let solver = opened(&solver, || {
            Solver::open(a.rows, a.cols, &a.tables, &options)
        })?;
        Ok(solver.solve(&tiles))
    };
    crate::answer_all(&a.positions, a.json, |text| {
        Ok(answer(text)?.map(|s| if a.json { s.to_json() } else { s.to_text() }))
    })
}

/// `gamedb query --rows R --cols C [--tables DIR] POSITION...` on a board without a complete
/// table: answered through the solver with the pattern tables of `dir`, in the words and JSON
/// keys of a complete table's answers (`position`, `solvable`, `distance`, `reason`,
/// `optimal_moves`, `path` with --path), plus `nodes`: the nodes the searches expanded.
/// `optimal_moves` lists every move one step nearer the goal, as a table would: the first
/// move of the solution found, and each other move whose position the solver finds one move
/// nearer (one more search per move). Unsolvable positions are answered by the parity rule
/// without tables.
pub(crate) fn query(
    a: &QueryArgs,
    rows: u32,
    cols: u32,
    dir: &std::path::Path,
    positions: &[String],
) -> Result<(), Failure> {
    let board = Board::new(rows, cols)?;
    let rules = SlideRules::new(board);
    let options = Options {
        verify: !a.no_verify,
        ..Options::default()
    };
    let solver: OnceLock<Solver> = OnceLock::new();
    let answer = |text: &str| -> Result<Result<String, Error>, Failure> {
        let tiles = match board.parse(text) {
            Ok(t) => t,
            Err(e) => return Ok(Err(e)),
        };
        let mut nodes = 0u64;
        let distance = if let Some(reason) = board.why_unsolvable(&tiles) {
            DistanceAnswer {
                distance: None,
                reason: Some(reason),
                optimal_moves: Vec::new(),
                path: None,
                bound: None,
            }
        } else {
            let solver = opened(&solver, || Solver::open(rows, cols, dir, &options))?;
            let s = match solver.solve(&tiles) {
                Ok(s) => s,
                Err(e) => return Ok(Err(e)),
            };
            nodes += s.expanded;
            let d = s.length.expect("a solvable position has a length");
            // The solution's moves as a table would list them: label and position left.
            let mut path = Vec::with_capacity(s.moves.len());
            let mut at = tiles.clone();
            for m in &s.moves {
                board
                    .apply(&mut at, m.tile, m.dir)
                    .expect("the solver's moves are legal");
                path.push(gamedb::game::Move {
                    label: m.label(),
                    leaves: at.clone(),
                });
            }
            let mut optimal_moves = Vec::new();
            if d > 0 {
                for m in rules.moves(&tiles) {
                    let nearer = if m.leaves == path[0].leaves {
                        true
                    } else {
                        match solver.solve(&m.leaves) {
                            Ok(c) => {
                                nodes += c.expanded;
                                c.length == Some(d - 1)
                            }
                            Err(e) => return Ok(Err(e)),
                        }
                    };
                    if nearer {
                        optimal_moves.push(m);
                    }
                }
            }
            DistanceAnswer {
                distance: Some(d),
                reason: None,
                optimal_moves,
                path: a.path.then_some(path),
                bound: None,
            }
        };
        let ans = Answer {
            position: tiles,
            index: None,
            outcome: None,
            grundy: None,
            winning_moves: Vec::new(),
            distance: Some(distance),
        };
        Ok(Ok(if a.json {
            let j = ans.to_json(&rules);
            format!("{},\"nodes\":{nodes}}}", &j[..j.len() - 1])
        } else {
            format!("{}  ({nodes} nodes expanded)", ans.to_text(&rules))
        }))
    };
    crate::answer_all(positions, a.json, |text| answer(text))
}
