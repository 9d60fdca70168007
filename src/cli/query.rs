//! `gamedb query`: answer positions from a table file, or from a folder of tables for the
//! positions of one sliding-puzzle board (its complete table when there is one, the 15-puzzle
//! solver otherwise).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;

use crate::fifteen::{BoardQuery, Options};
use crate::{Answer, Error, Table, TableDir};

use super::{answer_all, Failure};

#[derive(Args)]
pub(crate) struct QueryArgs {
    /// The table file, then positions, e.g. `1,2,3`; `-` reads one per line from stdin. With
    /// --rows and --cols every argument is a position, answered from the complete table of
    /// that board in --tables when there is one and through the solver on the pattern tables
    /// there otherwise (the 4x4 board); a folder in place of the table file is such a
    /// --tables folder (board 4x4 unless --rows/--cols say otherwise).
    #[arg(required = true, value_name = "TABLE POSITION")]
    pub args: Vec<String>,
    /// Sliding puzzles: rows of the board (positions only, no table file).
    #[arg(long, requires = "cols")]
    pub rows: Option<u32>,
    /// Sliding puzzles: columns of the board (positions only, no table file).
    #[arg(long, requires = "rows")]
    pub cols: Option<u32>,
    /// Sliding puzzles: the folder of the tables (complete or pattern tables).
    #[arg(long)]
    pub tables: Option<PathBuf>,
    /// One JSON object per answer.
    #[arg(long)]
    pub json: bool,
    /// Distance tables: include a whole optimal solution in each answer.
    #[arg(long)]
    pub path: bool,
    /// Outcome and Grundy tables: list every move of each position, with the value of the
    /// position it leaves (`moves` in JSON).
    #[arg(long)]
    pub all_moves: bool,
    /// Skip the payload checksum when opening (faster on very large tables).
    #[arg(long)]
    pub no_verify: bool,
}

/// Where the answers come from.
enum Source {
    Table(Table),
    Board(BoardQuery),
}

pub(crate) fn run(a: QueryArgs) -> Result<(), Failure> {
    let (source, positions) = open(&a)?;
    let render = |answer: Answer| {
        if a.json {
            answer.to_json()
        } else {
            answer.to_text()
        }
    };
    if a.all_moves && matches!(source, Source::Board(_)) {
        return Err(Error::BadInput(
            "query --all-moves lists the moves of tables of outcomes and Grundy values; a \
             sliding-puzzle answer lists its optimal moves"
                .to_string(),
        )
        .into());
    }
    let ask = |t: &Table, text: &str| -> crate::Result<Answer> {
        let mut answer = t.query_with(text, a.path)?;
        if a.all_moves {
            t.list_every_move(&mut answer)?;
        }
        Ok(answer)
    };
    answer_all(positions, a.json, |text| {
        Ok(match &source {
            Source::Table(t) => ask(t, text).map(render),
            Source::Board(b) => match b.query(text, a.path) {
                Ok(answer) => Ok(render(answer)),
                // Missing or damaged tables end the command; bad positions do not.
                Err(e @ Error::BadInput(_)) => Err(e),
                Err(e) => return Err(e),
            },
        })
    })
}

/// `gamedb query DIR POSITION...` without --rows and --cols answers positions of the 4×4 board
/// from the tables in DIR: a position of another length (`gamedb query tables 1,2,4`) is
/// most likely a table's position with the folder typed for the table, so it is refused as
/// that, before any table is read, naming both readings. Positions from stdin (`-`) are read
/// later, as 4×4 boards.
fn folder_for_a_table(dir: &Path, positions: &[String]) -> Result<(), Error> {
    const CELLS: usize = 16;
    let Some(p) = positions
        .iter()
        .find(|p| *p != "-" && p.trim().split(',').count() != CELLS)
    else {
        return Ok(());
    };
    Err(Error::BadInput(format!(
        "{}: a folder, not a table file, and '{}' is no position of the 4×4 board; `query \
         FOLDER POSITION...` answers 15-puzzle positions (the {CELLS} cells in reading order, \
         e.g. 1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15) from the tables in a folder, --rows R \
         --cols C other boards; expected TABLE POSITION... with a table file (`gamedb list {}` \
         names the tables in the folder)",
        dir.display(),
        crate::game::echo(p.trim()),
        dir.display()
    )))
}

/// The source of the answers and the positions, from the arguments.
fn open(a: &QueryArgs) -> Result<(Source, &[String]), Failure> {
    let board = |rows, cols, dir: &Path| -> Result<Source, Error> {
        let options = Options {
            verify: !a.no_verify,
            ..Options::default()
        };
        let dir = Arc::new(TableDir::new(dir));
        Ok(Source::Board(BoardQuery::open(rows, cols, dir, options)?))
    };
    let first = Path::new(&a.args[0]);
    if let (Some(rows), Some(cols)) = (a.rows, a.cols) {
        // `gamedb query DIR --rows R --cols C POS...`: the folder in place of --tables.
        if a.tables.is_none() && a.args.len() > 1 && first.is_dir() {
            return Ok((board(rows, cols, first)?, &a.args[1..]));
        }
        let dir = a.tables.clone().unwrap_or_else(|| PathBuf::from("tables"));
        return Ok((board(rows, cols, &dir)?, &a.args[..]));
    }
    if a.args.len() < 2 {
        return Err(Error::BadInput(format!(
            "query {}: no position given; expected TABLE POSITION... (or - to read positions \
             from stdin), or --rows R --cols C [--tables DIR] POSITION...",
            a.args[0]
        ))
        .into());
    }
    if a.tables.is_some() {
        return Err(Error::BadInput(
            "query: --tables goes with --rows and --cols (positions only, no table file); \
             expected TABLE POSITION... or --rows R --cols C --tables DIR POSITION..."
                .to_string(),
        )
        .into());
    }
    if first.is_dir() {
        if first
            .extension()
            .is_some_and(|x| x == crate::format::EXTENSION)
        {
            return Err(Error::BadInput(format!(
                "{}: a folder, not a table file (a table is a regular file); to answer \
                 sliding-puzzle positions from a folder of tables, give --rows R --cols C \
                 --tables DIR",
                first.display()
            ))
            .into());
        }
        folder_for_a_table(first, &a.args[1..])?;
        return Ok((board(4, 4, first)?, &a.args[1..]));
    }
    let table = Table::open(first)?;
    if !a.no_verify {
        table.verify()?;
    }
    Ok((Source::Table(table), &a.args[1..]))
}
