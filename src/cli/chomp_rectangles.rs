//! `gamedb chomp-rectangles TABLE`: the winning bites of every rectangle inside a Chomp box.

use std::path::PathBuf;

use clap::Args;

use gamedb::report::rectangles::rectangles;
use gamedb::Table;

use super::Failure;

#[derive(Args)]
pub struct ChompRectanglesArgs {
    /// A Chomp table file.
    pub table: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: ChompRectanglesArgs) -> Result<(), Failure> {
    let table = Table::open(&a.table)?;
    table.verify()?;
    let rects = rectangles(&table)?;
    if a.json {
        println!("{}", rects.to_json());
    } else {
        println!("{}", rects.to_text());
    }
    Ok(())
}
