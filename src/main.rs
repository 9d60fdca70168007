//! The `gamedb` command. `main` parses the arguments, hands them to the subcommand's file
//! under `src/cli/` (one file per subcommand, each a thin layer over the library), and decides
//! the exit status in one place: 0 ok, 1 a verified statement failed, 2 bad input or a damaged
//! table, 70 an internal error (a bug in gamedb).

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

mod cli;

use cli::{Cli, Command, Failure};

/// A table file truncated while gamedb has it mapped makes the next read of the lost part a
/// bus error (SIGBUS), which would kill the process without a word. Say what happened instead
/// and exit 2: the answers already written are right, and no answer is made up for the rest.
/// (gamedb never changes a table in place; tables are replaced by rename, which leaves open
/// maps intact.)
fn on_bus_error_say_why() {
    extern "C" fn handler(_: libc::c_int) {
        const MSG: &[u8] =
            b"\ngamedb: a table file was truncated or changed while gamedb had it open \
(bus error reading it); no answer was given for the lines not yet answered. Tables must be \
replaced by rename, never changed in place.\n";
        // SAFETY: write(2) and _exit(2) are async-signal-safe; the buffer is static.
        unsafe {
            libc::write(2, MSG.as_ptr() as *const libc::c_void, MSG.len());
            libc::_exit(2);
        }
    }
    // SAFETY: installing a handler at start-up, before any thread exists; the handler only
    // calls async-signal-safe functions.
    unsafe {
        libc::signal(
            libc::SIGBUS,
            handler as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
}

/// `gamedb query TABLE -1,2` (and `rank`, `unrank`, `solve`): a position that starts with `-` would be
/// refused by the argument parser as an unknown flag; it must reach the game's parser and be refused there,
/// as a position (what was wrong, what is accepted), like any other bad position. After
/// those commands, a word that is `-` followed by anything but a letter or another `-` can be no flag
/// (every short flag of gamedb is a letter; `-` alone, stdin, is left as it is), so it is
/// passed on with a leading space, which the position parser trims away. (Letting the
/// positions argument take hyphen values instead would swallow the flags written after the
/// positions, `--json` among them.)
fn positions_not_flags(args: impl Iterator<Item = std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let mut in_query = false;
    let mut escaped = false;
    args.enumerate()
        .map(|(i, arg)| {
            let Some(text) = arg.to_str() else {
                return arg;
            };
            if i == 1 {
                in_query = matches!(text, "query" | "rank" | "unrank" | "solve");
            }
            escaped |= text == "--";
            let mut chars = text.chars();
            let looks_like_position = chars.next() == Some('-')
                && chars
                    .next()
                    .is_some_and(|c| c != '-' && !c.is_ascii_alphabetic());
            if in_query && !escaped && looks_like_position {
                format!(" {text}").into()
            } else {
                arg
            }
        })
        .collect()
}

fn main() -> ExitCode {
    // Die quietly when the reader of our output goes away (`gamedb ... | head`), as Unix
    // tools do, instead of panicking on the failed write.
    // SAFETY: restoring a signal's default disposition at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    on_bus_error_say_why();
    let result = match Cli::parse_from(positions_not_flags(std::env::args_os())).command {
        Command::Build(a) => cli::build::run(a),
        Command::BuildAll(a) => cli::build_all::run(a),
        Command::Query(a) => cli::query::run(a),
        Command::Info(a) => cli::info::run(a),
        Command::VerifyTable(a) => cli::verify_table::run(a),
        Command::Verify(a) => cli::verify::run(a),
        Command::ChompRectangles(a) => cli::chomp_rectangles::run(a),
        Command::ChompCensus(a) => cli::chomp_census::run(a),
        Command::Solve(a) => cli::solve::run(a),
        Command::Enumerate(a) => cli::enumerate::run(a),
        Command::Serve(a) => cli::serve::run(a),
        Command::List(a) => cli::list::run(a),
        Command::Plot(a) => cli::plot::run(a),
        Command::Export(a) => cli::export::run(a),
        Command::Rank(a) => cli::rank::rank(a),
        Command::Unrank(a) => cli::rank::unrank(a),
        Command::Completions(a) => cli::completions::completions(a),
        Command::Man(a) => cli::completions::man(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Findings) => ExitCode::from(1),
        Err(Failure::Reported) => ExitCode::from(2),
        Err(Failure::Error(e)) => {
            let _ = std::io::stdout().flush();
            eprintln!("gamedb: {e}");
            ExitCode::from(exit_status(&e))
        }
    }
}

/// 70 is sysexits' EX_SOFTWARE: a script can tell a bug worth reporting from a failure whose
/// cause is outside gamedb (input, tables, disk), which would only be retried or fixed there.
fn exit_status(e: &gamedb::Error) -> u8 {
    match e {
        gamedb::Error::Internal(_) => 70,
        _ => 2,
    }
}
