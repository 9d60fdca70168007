//! `gamedb build GAME ...`: solve every position of a game and write its table.

use std::path::PathBuf;

use clap::Args;

use gamedb::build::{build, BuildTarget};

use super::{progress_bar, set_threads, Common, Failure};

#[derive(Args)]
pub struct BuildArgs {
    #[command(subcommand)]
    pub target: BuildTarget,
    /// Folder for the table.
    #[arg(long, global = true, default_value = "tables")]
    pub out: PathBuf,
    /// One JSON object per table written: file, game, values, positions, bytes, seconds,
    /// solve_seconds.
    #[arg(long, global = true)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}

pub fn run(a: BuildArgs) -> Result<(), Failure> {
    set_threads(a.common.threads)?;
    for (spec, kind) in a.target.specs()? {
        let pb = progress_bar(a.common.quiet, spec.positions(), spec.file_name(kind));
        let built = build(&spec, kind, &a.out, &pb)?;
        pb.finish_and_clear();
        if a.json {
            let summary = serde_json::json!({
                "file": built.path.display().to_string(),
                "game": spec.name(),
                "description": spec.describe(),
                "values": kind.name(),
                "positions": built.positions,
                "bytes": built.file_bytes,
                "seconds": built.total_time.as_secs_f64(),
                "solve_seconds": built.solve_time.as_secs_f64(),
            });
            println!("{summary}");
            continue;
        }
        println!(
            "wrote {} ({} positions, {} bytes) in {:.2} s ({:.0} positions/s solving)",
            built.path.display(),
            built.positions,
            built.file_bytes,
            built.total_time.as_secs_f64(),
            built.positions as f64 / built.solve_time.as_secs_f64().max(1e-9)
        );
    }
    Ok(())
}
