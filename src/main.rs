//! The `gamedb` command: the command line of the library ([`gamedb::cli`]) with the games of
//! this crate.

use std::process::ExitCode;

fn main() -> ExitCode {
    gamedb::cli::main_with(gamedb::Registry::builtin())
}
