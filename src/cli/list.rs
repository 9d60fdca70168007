//! `gamedb list DIR [--json]`: the tables of a folder, by their headers.

use std::path::PathBuf;

use clap::Args;

use crate::report::listing;
use crate::{Error, TableDir};

use super::Failure;

#[derive(Args)]
pub(crate) struct ListArgs {
    /// The folder.
    #[arg(default_value = "tables")]
    pub dir: PathBuf,
    /// One JSON array (the same as `GET /api/tables` of `gamedb serve`).
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(a: ListArgs) -> Result<(), Failure> {
    if !a.dir.is_dir() {
        return Err(Error::BadInput(format!(
            "{}: not a folder; expected a folder of tables (gamedb build-all --out DIR makes one)",
            a.dir.display()
        ))
        .into());
    }
    let dir = TableDir::new(&a.dir);
    let listed = listing::list(&dir);
    if a.json {
        println!("{}", listing::to_json(&listed));
    } else {
        println!("{}", listing::to_text(&listed));
    }
    Ok(())
}
