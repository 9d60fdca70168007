//! `gamedb chomp-census [TABLE ...] [--boxes RxC,...]`: the Chomp bars with more than one winning
//! bite over a region of several boxes, each read from a table file or solved in memory.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use crate::games::chomp::ChompSpec;
use crate::games::Spec;
use crate::model::ValueKind;
use crate::report::census::Census;
use crate::resources::{self, Available};
use crate::{Error, Table};

use super::{progress_bar, set_threads, Common, Failure};

#[derive(Args)]
pub(crate) struct ChompCensusArgs {
    /// Chomp table files (P/N or Grundy) whose boxes join the census.
    pub tables: Vec<PathBuf>,
    /// Boxes to solve in memory (nothing is written), e.g. `10x45,9x55,8x60`; each holds every
    /// bar a×b with a ≤ R, b ≤ C. Every box is checked against the memory here before the
    /// first is solved.
    #[arg(long, value_delimiter = ',', value_parser = parse_box)]
    pub boxes: Vec<(u32, u32)>,
    /// Most memory one box may take (bytes, or K, M, G, T: 512M, 8G). Default: what the machine
    /// has available.
    #[arg(long, value_parser = crate::resources::parse_size)]
    pub memory: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}

/// `RxC` with R and C numbers (the box itself is checked by [`ChompSpec::new`]).
fn parse_box(text: &str) -> crate::Result<(u32, u32)> {
    let bad = || {
        Error::bad(format!(
            "'{}': expected a box RxC such as 10x42",
            crate::game::echo(text)
        ))
    };
    let (r, c) = text.trim().split_once(['x', 'X', '×']).ok_or_else(bad)?;
    Ok((
        r.trim().parse().map_err(|_| bad())?,
        c.trim().parse().map_err(|_| bad())?,
    ))
}

pub(crate) fn run(a: ChompCensusArgs) -> Result<(), Failure> {
    set_threads(a.common.threads)?;
    if a.tables.is_empty() && a.boxes.is_empty() {
        return Err(Error::BadInput(
            "no boxes: give Chomp table files, --boxes RxC,... (e.g. --boxes 8x10,10x14), or both"
                .into(),
        )
        .into());
    }
    // Every box is checked before anything is solved or read.
    let mut specs = Vec::new();
    for &(r, c) in &a.boxes {
        let spec = Spec::new(ChompSpec::new(r, c)?);
        let needs = crate::build::needs(&spec, ValueKind::Outcome);
        let here = Available {
            memory: resources::memory_limit(a.memory),
            disk: None,
        };
        resources::check(&needs, &here, Path::new("."))?;
        specs.push(spec);
    }
    let tables = a
        .tables
        .iter()
        .map(|path| {
            let table = Table::open(path)?;
            table.verify()?;
            Ok((table, path.display().to_string()))
        })
        .collect::<crate::Result<Vec<_>>>()?;
    let mut census = Census::new();
    for (table, source) in &tables {
        census.add(table, source, 0.0)?;
    }
    for spec in specs {
        let pb = progress_bar(
            a.common.quiet,
            spec.positions(),
            spec.file_name(ValueKind::Outcome),
        );
        let started = Instant::now();
        let solved = spec.solve(ValueKind::Outcome, &pb)?;
        let secs = started.elapsed().as_secs_f64();
        pb.finish_and_clear();
        let table = Table::from_solved(&spec, solved)?;
        census.add(&table, "solved in memory", secs)?;
    }
    if a.json {
        println!("{}", census.to_json());
    } else {
        println!("{}", census.to_text());
    }
    Ok(())
}
