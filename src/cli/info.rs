//! `gamedb info TABLE`: a table's header, counts, checksum status and the game's facts.

use std::path::PathBuf;

use clap::Args;

use crate::report::info::Info;
use crate::Table;

use super::Failure;

#[derive(Args)]
pub(crate) struct InfoArgs {
    /// The table file.
    pub table: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(a: InfoArgs) -> Result<(), Failure> {
    let table = Table::open(&a.table)?;
    let info = Info::of(&table, &a.table.display().to_string());
    if a.json {
        println!("{}", info.to_json());
    } else {
        println!("{}", info.to_text());
    }
    // A damaged payload is shown above, then reported as the command's failure.
    table.verify().map_err(Failure::from)
}
