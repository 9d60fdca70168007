//! The `gamedb` command: [`main_with`] parses the arguments, hands them to the subcommand's
//! file under `src/cli/` (one file per subcommand, each a thin layer over the library), and
//! decides the exit status in one place: 0 ok, 1 a verified statement failed, 2 bad input, a
//! damaged table or a game not known, 70 an internal error (a bug in gamedb).
//!
//! The `gamedb` binary is `main_with(Registry::builtin())`. A crate with games of its own makes
//! its own binary the same way, with its registry: every subcommand (build, query, info,
//! export, verify-table, the stream, serve) then knows its games too.

use std::io::Write;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::games::Registry;
use crate::stream::{self, Reply};
use crate::Error;

mod build;
mod build_all;
#[cfg(feature = "mpi")]
mod build_mpi;
pub mod catalog;
mod chomp_census;
mod chomp_rectangles;
mod completions;
mod enumerate;
mod export;
mod info;
mod interrupt;
mod list;
mod play;
mod plot;
mod query;
mod rank;
mod serve;
mod solve;
mod upgrade;
mod verify;
mod verify_table;
mod weighing_plan;

#[derive(Parser)]
#[command(
    name = "gamedb",
    version,
    about = "Solve small combinatorial games exhaustively and query the tables"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Solve every position of a game and write its table.
    Build(build::BuildArgs),
    /// Build every table of a catalog (the standard one by default), skipping intact tables.
    BuildAll(build_all::BuildAllArgs),
    /// Answer positions from a table (`-` reads one position per line from stdin).
    Query(query::QueryArgs),
    /// Show a table's header, counts and checksum status.
    Info(info::InfoArgs),
    /// Check tables' structure and checksums.
    VerifyTable(verify_table::VerifyTableArgs),
    /// Rewrite tables of an older format version (1) in the current one (same payload).
    Upgrade(upgrade::UpgradeArgs),
    /// Check the statements of the literature and the source texts against every position.
    Verify(verify::VerifyArgs),
    /// Chomp: the winning bites of every rectangle inside a table's box.
    ChompRectangles(chomp_rectangles::ChompRectanglesArgs),
    /// Chomp: the bars with more than one winning bite over several boxes (tables or solved).
    ChompCensus(chomp_census::ChompCensusArgs),
    /// Solve sliding-puzzle positions optimally with pattern databases (`-` reads stdin).
    Solve(solve::SolveArgs),
    /// Enumerate a puzzle level by level (threads, or MPI processes): positions per depth and
    /// the complete 2-bit table.
    Enumerate(enumerate::EnumerateArgs),
    /// Serve a folder of tables over HTTP/JSON, with the explorer page at `/`.
    Serve(serve::ServeArgs),
    /// List the tables of a folder, by their headers.
    List(list::ListArgs),
    /// Play a table against perfect play (or a puzzle), each move shown with its value; moves
    /// are read from stdin, so a game can be scripted.
    Play(play::PlayArgs),
    /// Draw a picture of a table as SVG (histograms, Chomp census, P-positions).
    Plot(plot::PlotArgs),
    /// Write every position of a table with its values, as CSV or JSON lines.
    Export(export::ExportArgs),
    /// The index of positions in a table (`-` reads stdin).
    Rank(rank::RankArgs),
    /// The positions at indices of a table (`-` reads stdin).
    Unrank(rank::UnrankArgs),
    /// The ball-weighing puzzle: a fixed plan of the fewest weighings (checked by simulating
    /// every case), or with --adaptive the decision tree of the best strategy.
    WeighingPlan(weighing_plan::WeighingPlanArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(completions::CompletionsArgs),
    /// Print the manual page (or write every page into a folder).
    Man(completions::ManArgs),
}

/// Options every building command takes.
#[derive(Args, Clone)]
pub(crate) struct Common {
    /// Worker threads (default: all cores).
    #[arg(long, global = true)]
    pub threads: Option<usize>,
    /// No progress bars.
    #[arg(long, short, global = true)]
    pub quiet: bool,
}

/// How a command ended, when not well.
pub(crate) enum Failure {
    /// Bad input, damaged table, a game not known, I/O error: exit 2; an internal error: exit 70.
    Error(Error),
    /// A checked statement failed: exit 1 (already reported).
    Findings,
    /// Bad input already reported on stderr: exit 2.
    Reported,
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Error(e)
    }
}

/// Most worker threads per core: more only adds overhead (the output is the same at any
/// count, so nothing is lost by clamping).
const THREADS_PER_CORE: usize = 4;

/// Sets the size of rayon's global pool; refuses 0 and clamps absurd counts with a note.
pub(crate) fn set_threads(threads: Option<usize>) -> Result<(), Error> {
    let Some(n) = threads else {
        return Ok(());
    };
    if n == 0 {
        return Err(Error::BadInput("--threads 0: expected at least 1".into()));
    }
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let most = cores * THREADS_PER_CORE;
    let n = if n > most {
        eprintln!(
            "gamedb: --threads {n}: using {most} ({THREADS_PER_CORE} per core on the {cores} cores \
             here; more only slows the work down, the tables are the same at any count)"
        );
        most
    } else {
        n
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build_global()
        .map_err(|e| Error::Unsupported(format!("cannot start {n} threads: {e}")))
}

/// A progress bar on stderr, hidden with --quiet; on a stderr that is no terminal, where the
/// bar is not drawn, a plain line every minute instead ([`report_plainly`]).
pub(crate) fn progress_bar(quiet: bool, len: u64, msg: String) -> ProgressBar {
    let target = if quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let pb = ProgressBar::with_draw_target(Some(len), target);
    pb.set_style(
        ProgressStyle::with_template(
            "{msg:28} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} ({per_sec}, eta {eta_after})",
        )
        .expect("valid template")
        // The rate of the first few chunks says little (weeks, or a second, for a build of
        // a minute): no estimate during the first second of the work (or of a resumed part
        // of it, see `Progress::skip`).
        .with_key("eta_after", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = if state.elapsed().as_secs_f64() < 1.0 {
                write!(w, "…")
            } else {
                write!(w, "{:#}", indicatif::HumanDuration(state.eta()))
            };
        }),
    );
    pb.set_message(msg);
    if !quiet {
        report_plainly(&pb);
    }
    pb
}

/// The environment variable that sets the seconds between the plain progress lines of
/// [`report_plainly`] (default 60; fractions allowed, for tests).
pub(crate) const PROGRESS_SECONDS: &str = "GAMEDB_PROGRESS_SECONDS";

/// When stderr is no terminal (a log file, a pipe, a batch job), indicatif draws no bar: there
/// a thread writes a plain line about `pb` every minute (or every [`PROGRESS_SECONDS`]) until
/// the bar is finished or dropped, so long work never goes quiet:
/// `gamedb: chomp-20x20.gtab: 12345678 of 137846528820 (0.0%) after 1m 00s, about 3h left`.
pub(crate) fn report_plainly(pb: &ProgressBar) {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        return;
    }
    let every = std::env::var(PROGRESS_SECONDS)
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(std::time::Duration::from_secs(60), |s| {
            std::time::Duration::from_secs_f64(s.max(0.01))
        });
    let weak = pb.downgrade();
    // A thread that cannot be started leaves the bar as it was: quiet.
    let _ = std::thread::Builder::new()
        .name("progress".into())
        .spawn(move || loop {
            std::thread::sleep(every);
            let Some(pb) = weak.upgrade() else {
                return;
            };
            if pb.is_finished() {
                return;
            }
            eprintln!("gamedb: {}", plain_line(&pb));
        });
}

/// Where `pb` stands, in words: its message (what is being worked on), the units done of the
/// whole with the share, the time since it started and the time left by its estimate.
fn plain_line(pb: &ProgressBar) -> String {
    let what = pb.message();
    let what = if what.is_empty() {
        "working".to_string()
    } else {
        what
    };
    let done = pb.position();
    let elapsed = clock(pb.elapsed());
    match pb.length().filter(|&n| n > 0) {
        Some(len) => {
            let share = 100.0 * done.min(len) as f64 / len as f64;
            // No estimate in the first seconds, when a few chunks say little (as the bar).
            let left = if done > 0 && done < len && pb.elapsed().as_secs() >= 5 {
                format!(", about {} left", clock(pb.eta()))
            } else {
                String::new()
            };
            format!("{what}: {done} of {len} ({share:.1}%) after {elapsed}{left}")
        }
        None if done > 0 => format!("{what}: {done} done after {elapsed}"),
        None => format!("{what}: {elapsed} so far"),
    }
}

/// A duration as `45s`, `3m 05s` or `2h 07m`.
fn clock(d: std::time::Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

fn stdout_error(e: std::io::Error) -> Error {
    Error::Io {
        path: "<stdout>".into(),
        source: e,
    }
}

/// Answers positions given on the command line, or one per line of stdin when they are `-`.
///
/// Command-line positions: each answer a line on stdout, each bad position a line on stderr
/// (exit 2 at the end). A stream: see [`crate::stream`]; bad lines are answered with error
/// lines and counted, and the command exits 2 at the end when there were any. `answer` gives
/// the reply line of one position, an error for that position, or a failure that ends the
/// command.
pub(crate) fn answer_all<F>(positions: &[String], json: bool, answer: F) -> Result<(), Failure>
where
    F: Fn(&str) -> crate::Result<Reply> + Sync,
{
    if positions == ["-"] {
        let mut input = std::io::BufReader::with_capacity(1 << 16, std::io::stdin().lock());
        let s = stream::answer_lines(&mut input, std::io::stdout().lock(), json, answer)?;
        if s.bad > 0 && !s.closed {
            return Err(Error::BadInput(format!(
                "{} of {} input lines could not be answered (answered with an error)",
                s.bad, s.lines
            ))
            .into());
        }
        return Ok(());
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut bad = false;
    for p in positions {
        match answer(p)? {
            Ok(reply) => writeln!(out, "{reply}").map_err(stdout_error)?,
            Err(e) => {
                out.flush().map_err(stdout_error)?;
                eprintln!("gamedb: {e}");
                bad = true;
            }
        }
    }
    out.flush().map_err(stdout_error)?;
    if bad {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}

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

/// Runs the `gamedb` command with the games of `registry` (which becomes the registry in force
/// in this process, see [`Registry::install`]) and returns its exit status: 0 ok, 1 a verified
/// statement failed, 2 bad input, a damaged table, or a game not known.
///
/// ```no_run
/// // The main of a binary with one more game (see src/guide/game-authors.md):
/// // gamedb::cli::main_with(gamedb::Registry::builtin().with::<MyGameSpec>())
/// fn main() -> std::process::ExitCode {
///     gamedb::cli::main_with(gamedb::Registry::builtin())
/// }
/// ```
pub fn main_with(registry: Registry) -> ExitCode {
    if registry.install().is_err() {
        eprintln!("gamedb: a registry of games was already in force in this process; using it");
    }
    // Die quietly when the reader of our output goes away (`gamedb ... | head`), as Unix
    // tools do, instead of panicking on the failed write.
    // SAFETY: restoring a signal's default disposition at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    on_bus_error_say_why();
    let result = match Cli::parse_from(positions_not_flags(std::env::args_os())).command {
        // Started by an MPI launcher: the processes build the table together.
        #[cfg(feature = "mpi")]
        Command::Build(a) if build_mpi::launched() => build_mpi::run(a),
        Command::Build(a) => build::run(a),
        Command::BuildAll(a) => build_all::run(a),
        Command::Query(a) => query::run(a),
        Command::Info(a) => info::run(a),
        Command::VerifyTable(a) => verify_table::run(a),
        Command::Upgrade(a) => upgrade::run(a),
        Command::Verify(a) => verify::run(a),
        Command::ChompRectangles(a) => chomp_rectangles::run(a),
        Command::ChompCensus(a) => chomp_census::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Enumerate(a) => enumerate::run(a),
        Command::Serve(a) => serve::run(a),
        Command::List(a) => list::run(a),
        Command::Play(a) => play::run(a),
        Command::Plot(a) => plot::run(a),
        Command::Export(a) => export::run(a),
        Command::Rank(a) => rank::rank(a),
        Command::Unrank(a) => rank::unrank(a),
        Command::WeighingPlan(a) => weighing_plan::run(a),
        Command::Completions(a) => completions::completions(a),
        Command::Man(a) => completions::man(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Findings) => ExitCode::from(1),
        Err(Failure::Reported) => ExitCode::from(2),
        Err(Failure::Error(e)) => {
            let _ = std::io::stdout().flush();
            eprintln!("gamedb: {}", catalog::explain(&e));
            ExitCode::from(exit_status(&e))
        }
    }
}

/// The exit status of a command that failed with `e`: 70 (`EX_SOFTWARE`) for a bug in gamedb,
/// so a script can tell it from a problem with its input, a table or the disk; 2 otherwise.
fn exit_status(e: &Error) -> u8 {
    match e {
        Error::Internal(_) => 70,
        _ => 2,
    }
}
