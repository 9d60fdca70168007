//! The sliding-puzzle words of the CLI: `gamedb build pdb`, `gamedb build fifteen` and
//! `gamedb solve`.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use gamedb::games::board::Board;
use gamedb::games::fifteen::{
    parity_answer, Options, Partition, Solution, Solver, DEFAULT_PARTITION,
};
use gamedb::games::pdb::PdbSpec;
use gamedb::games::Spec;
use gamedb::{Error, ValueKind};

use crate::Failure;

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

pub(crate) fn solve(a: SolveArgs) -> Result<(), Failure> {
    let board = Board::new(a.rows, a.cols)?;
    let options = options(&a)?;
    // Unsolvable positions are answered by the parity rule even without tables; the first
    // solvable one needs them, and their absence ends the command.
    let mut solver: Option<Solver> = None;
    let mut answer = |text: &str| -> Result<Result<Solution, Error>, Failure> {
        let tiles = match board.parse(text) {
            Ok(t) => t,
            Err(e) => return Ok(Err(e)),
        };
        if let Some(s) = parity_answer(board, &tiles) {
            return Ok(Ok(s));
        }
        if solver.is_none() {
            solver = Some(Solver::open(a.rows, a.cols, &a.tables, &options)?);
        }
        Ok(solver.as_ref().expect("opened just above").solve(&tiles))
    };
    crate::answer_all(&a.positions, a.json, |text| {
        Ok(answer(text)?.map(|s| if a.json { s.to_json() } else { s.to_text() }))
    })
}
