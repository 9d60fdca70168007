//! `gamedb verify-table TABLE...`: check tables' structure and payload checksums.
//!
//! Each intact table gets an `OK` line on stdout; each failure is said once, on stderr, with
//! the file and the problem.

use std::path::PathBuf;

use clap::Args;

use crate::Table;

use super::{catalog, Failure};

#[derive(Args)]
pub(crate) struct VerifyTableArgs {
    /// Table files.
    #[arg(required = true)]
    pub tables: Vec<PathBuf>,
    /// One JSON object per file: {"file", "ok", "description"} or {"file", "ok", "error"}.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(a: VerifyTableArgs) -> Result<(), Failure> {
    let mut failed = 0;
    for path in &a.tables {
        let checked = Table::open(path).and_then(|t| t.verify().map(|()| t));
        match checked {
            Ok(t) if a.json => println!(
                "{}",
                serde_json::json!({"file": path.display().to_string(), "ok": true, "description": t.spec().map_or_else(|| t.describe(), |s| s.describe().to_string())})
            ),
            Err(e) if a.json => {
                println!(
                    "{}",
                    serde_json::json!({"file": path.display().to_string(), "ok": false, "error": catalog::explain(&e)})
                );
                failed += 1;
            }
            Ok(t) => println!("{}: OK ({})", path.display(), t.describe()),
            Err(e) => {
                eprintln!("gamedb: {}", catalog::explain(&e));
                failed += 1;
            }
        }
    }
    if failed > 0 && a.tables.len() > 1 {
        eprintln!(
            "gamedb: {failed} of {} tables failed the check",
            a.tables.len()
        );
    }
    if failed > 0 {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}
