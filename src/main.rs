//! The `gamedb` command. `main` parses the arguments, hands them to the subcommand's file
//! under `src/cli/` (one file per subcommand, each a thin layer over the library), and decides
//! the exit status in one place: 0 ok, 1 a verified statement failed, 2 bad input or a damaged
//! table.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

mod cli;

use cli::{Cli, Command, Failure};

fn main() -> ExitCode {
    // Die quietly when the reader of our output goes away (`gamedb ... | head`), as Unix
    // tools do, instead of panicking on the failed write.
    // SAFETY: restoring a signal's default disposition at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let result = match Cli::parse().command {
        Command::Build(a) => cli::build::run(a),
        Command::BuildAll(a) => cli::build_all::run(a),
        Command::Query(a) => cli::query::run(a),
        Command::Info(a) => cli::info::run(a),
        Command::VerifyTable(a) => cli::verify_table::run(a),
        Command::Verify(a) => cli::verify::run(a),
        Command::ChompRectangles(a) => cli::chomp_rectangles::run(a),
        Command::Solve(a) => cli::solve::run(a),
        Command::Enumerate(a) => cli::enumerate::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Findings) => ExitCode::from(1),
        Err(Failure::Reported) => ExitCode::from(2),
        Err(Failure::Error(e)) => {
            let _ = std::io::stdout().flush();
            eprintln!("gamedb: {e}");
            ExitCode::from(2)
        }
    }
}
