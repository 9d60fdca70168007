//! Writes a table of every registered game's samples (`Spec::samples`, every value kind) into a
//! folder, under their standard names, one name a line on stdout: the sample tables that
//! `scripts/check/same-tables.sh` compares between two builds.
//!
//! ```text
//! cargo run --release --example write-samples -- FOLDER [MAX_POSITIONS]
//! ```
//!
//! Samples of more than MAX_POSITIONS positions (default: no limit) are passed over.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: write-samples FOLDER [MAX_POSITIONS]";
    let (dir, max) = match args.as_slice() {
        [dir] => (PathBuf::from(dir), u64::MAX),
        [dir, max] => match max.parse() {
            Ok(m) => (PathBuf::from(dir), m),
            Err(_) => {
                eprintln!("MAX_POSITIONS '{max}': expected a whole number; {usage}");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("{}: {e}", dir.display());
        return ExitCode::from(2);
    }
    match gamedb::build::write_samples(&dir, max) {
        Ok(names) => {
            for n in names {
                println!("{n}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
