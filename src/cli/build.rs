//! `gamedb build GAME ...`: solve every position of a game and write its table.

use std::path::PathBuf;

use clap::Args;

use gamedb::build::{build_locked, plan_all, BuildTarget, Options};
use gamedb::lock::TableLock;

use super::{progress_bar, set_threads, Common, Failure};

#[derive(Args)]
pub struct BuildArgs {
    #[command(subcommand)]
    pub target: BuildTarget,
    /// Folder for the table.
    #[arg(long, global = true, default_value = "tables")]
    pub out: PathBuf,
    /// Most memory the build may allocate (bytes, or K, M, G, T binary units: 512M, 8G); a build
    /// that needs more is refused before solving. Default: what the machine has available.
    #[arg(long, global = true, value_parser = gamedb::resources::parse_size)]
    pub memory: Option<u64>,
    /// One JSON object per table written: file, game, values, positions, bytes, seconds,
    /// solve_seconds, memory_needed.
    #[arg(long, global = true)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}

pub fn run(a: BuildArgs) -> Result<(), Failure> {
    set_threads(a.common.threads)?;
    let options = Options {
        memory_budget: a.memory,
        ..Options::default()
    };
    let tables = a.target.specs()?;
    // Every table is checked (folder, memory, disk) before the first is solved.
    for p in plan_all(&tables, &a.out, &options)? {
        if !a.common.quiet {
            eprintln!("{}", p.describe(&a.out));
        }
    }
    for (spec, kind) in tables {
        let name = spec.file_name(kind);
        let lock = match TableLock::try_take(&a.out, &name)? {
            Some(lock) => lock,
            None => {
                eprintln!(
                    "{name}: another gamedb is building this table; waiting for it to finish"
                );
                TableLock::wait(&a.out, &name)?
            }
        };
        let pb = progress_bar(a.common.quiet, spec.positions(), name);
        let built = build_locked(&spec, kind, &a.out, &options, &lock, &pb)?;
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
                "memory_needed": gamedb::build::needs(&spec, kind).memory,
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
