//! `gamedb chomp-rectangles TABLE [--only-multi]`: the winning bites (and, from a Grundy table,
//! the Grundy value) of every rectangle inside a Chomp box.

use std::path::PathBuf;

use clap::Args;

use crate::report::rectangles::rectangles;
use crate::Table;

use super::Failure;

#[derive(Args)]
pub(crate) struct ChompRectanglesArgs {
    /// A Chomp table file.
    pub table: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// List only the rectangles with more than one winning bite (the counts stay the box's).
    #[arg(long)]
    pub only_multi: bool,
}

pub(crate) fn run(a: ChompRectanglesArgs) -> Result<(), Failure> {
    let table = Table::open(&a.table)?;
    table.verify()?;
    let mut rects = rectangles(&table)?;
    if a.only_multi {
        rects = rects.only_multi();
    }
    if a.json {
        println!("{}", rects.to_json());
    } else {
        println!("{}", rects.to_text());
    }
    Ok(())
}
