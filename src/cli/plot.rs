//! `gamedb plot TABLE --out FILE.svg [--picture NAME]`: a picture of a table as SVG.

use std::path::PathBuf;

use clap::Args;

use crate::report::plot::{default_picture, plot, Picture};
use crate::{Error, Table};

use super::Failure;

#[derive(Args)]
pub(crate) struct PlotArgs {
    /// The table file.
    pub table: PathBuf,
    /// The SVG file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Which picture (default: census for Chomp, pairs for Nim and Wythoff outcome tables,
    /// chomp3 for three-rowed Chomp tables, values otherwise).
    #[arg(long, value_enum)]
    pub picture: Option<Picture>,
    /// chomp3: the third row r of the positions (p, q, r) shown (default 1).
    #[arg(long, value_name = "R")]
    pub third_row: Option<u32>,
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
    let svg = plot(&table, picture, a.third_row)?;
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
