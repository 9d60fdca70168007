//! `gamedb upgrade TABLE...`: rewrite tables of format version 1 (game numbers) in the current
//! format (game names and parameter text). The payload is the same bytes; only the header
//! changes, and the file is replaced atomically, after its payload checksum is checked.

use std::path::PathBuf;

use clap::Args;

use crate::format;

use super::Failure;

#[derive(Args)]
pub(crate) struct UpgradeArgs {
    /// Table files.
    #[arg(required = true)]
    pub tables: Vec<PathBuf>,
}

pub(crate) fn run(a: UpgradeArgs) -> Result<(), Failure> {
    let mut failed = 0;
    for path in &a.tables {
        match format::upgrade(path) {
            Ok(Some(from)) => println!(
                "{}: upgraded from format version {from} to {}",
                path.display(),
                format::FORMAT_VERSION
            ),
            Ok(None) => println!(
                "{}: already format version {}",
                path.display(),
                format::FORMAT_VERSION
            ),
            Err(e) => {
                eprintln!("gamedb: {e}");
                failed += 1;
            }
        }
    }
    if failed > 0 {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}
