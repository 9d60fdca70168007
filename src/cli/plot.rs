//! `gamedb plot TABLE --out FILE.svg [--picture NAME]`: a picture of a table as SVG.

use std::path::PathBuf;

use clap::Args;

use crate::report::plot::{default_picture, plot, Options, Picture};
use crate::report::sequence::HeapRange;
use crate::{Error, Table};

use super::Failure;

#[derive(Args)]
pub(crate) struct PlotArgs {
    /// The table file.
    pub table: PathBuf,
    /// The SVG file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Which picture (default: sequence for heap games (octal, subtraction, one-heap Nim,
    /// candy), census for Chomp, pairs for Nim and Wythoff outcome tables, chomp3 for
    /// three-rowed Chomp tables, values otherwise).
    #[arg(long, value_enum)]
    pub picture: Option<Picture>,
    /// chomp3: the third row r of the positions (p, q, r) shown (default 1).
    #[arg(long, value_name = "R")]
    pub third_row: Option<u32>,
    /// sequence and rows: the first heap shown (default 0).
    #[arg(long, value_name = "HEAP")]
    pub from: Option<u64>,
    /// sequence and rows: the last heap shown (default: sequence, the whole table up to 1000
    /// heaps, else 300 heaps from --from; rows, the preperiod and 6 rows more). The detail
    /// of sequence shows at most 1000 heaps, rows at most 2400 cells.
    #[arg(long, value_name = "HEAP")]
    pub to: Option<u64>,
    /// Skip the payload checksum when opening.
    #[arg(long)]
    pub no_verify: bool,
}

pub(crate) fn run(a: PlotArgs) -> Result<(), Failure> {
    let table = Table::open(&a.table)?;
    if !a.no_verify {
        table.verify()?;
    }
    let picture = a.picture.unwrap_or_else(|| default_picture(&table));
    if a.third_row.is_some() && picture != Picture::Chomp3 {
        return Err(Error::BadInput("--third-row goes with --picture chomp3".into()).into());
    }
    let range = HeapRange {
        from: a.from,
        to: a.to,
    };
    if range.is_given() && !matches!(picture, Picture::Sequence | Picture::Rows) {
        return Err(Error::BadInput(format!(
            "--from/--to go with --picture sequence or rows, not {}",
            picture_name(picture)
        ))
        .into());
    }
    let options = Options {
        third_row: a.third_row,
        range,
    };
    let svg = plot(&table, picture, &options)?;
    let name = a.out.file_name().map(|n| n.to_string_lossy().into_owned());
    let tmp = a.out.with_file_name(format!(
        ".{}.tmp-{}",
        name.unwrap_or_else(|| "plot".into()),
        std::process::id()
    ));
    let io = |path: &PathBuf| {
        let path = path.clone();
        move |e| Error::Io { path, source: e }
    };
    std::fs::write(&tmp, &svg).map_err(io(&tmp))?;
    std::fs::rename(&tmp, &a.out).map_err(io(&a.out))?;
    println!(
        "wrote {} ({:?} picture, {} bytes)",
        a.out.display(),
        picture,
        svg.len()
    );
    Ok(())
}

/// The name of a picture as `--picture` takes it.
fn picture_name(p: Picture) -> String {
    use clap::ValueEnum;
    p.to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default()
}
