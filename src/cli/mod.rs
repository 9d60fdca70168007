//! The subcommands of `gamedb`, one file each, and what they share: the argument types, the
//! way failures end a command, threads, progress bars, and answering positions given on the
//! command line or read from stdin.

use std::io::Write;

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use gamedb::stream::{self, Reply};
use gamedb::Error;

pub mod build;
pub mod build_all;
pub mod chomp_census;
pub mod chomp_rectangles;
pub mod completions;
pub mod enumerate;
pub mod export;
pub mod info;
pub mod list;
pub mod plot;
pub mod query;
pub mod rank;
pub mod serve;
pub mod solve;
pub mod verify;
pub mod verify_table;

#[derive(Parser)]
#[command(
    name = "gamedb",
    version,
    about = "Solve small combinatorial games exhaustively and query the tables"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
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
    /// Draw a picture of a table as SVG (histograms, Chomp census, P-positions).
    Plot(plot::PlotArgs),
    /// Write every position of a table with its values, as CSV or JSON lines.
    Export(export::ExportArgs),
    /// The index of positions in a table (`-` reads stdin).
    Rank(rank::RankArgs),
    /// The positions at indices of a table (`-` reads stdin).
    Unrank(rank::UnrankArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(completions::CompletionsArgs),
    /// Print the manual page (or write every page into a folder).
    Man(completions::ManArgs),
}

/// Options every building command takes.
#[derive(Args, Clone)]
pub struct Common {
    /// Worker threads (default: all cores).
    #[arg(long, global = true)]
    pub threads: Option<usize>,
    /// No progress bars.
    #[arg(long, short, global = true)]
    pub quiet: bool,
}

/// How a command ended, when not well.
pub enum Failure {
    /// Bad input, damaged table, I/O error: exit 2; an internal error: exit 70.
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
pub fn set_threads(threads: Option<usize>) -> Result<(), Error> {
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

/// A progress bar on stderr, hidden with --quiet.
pub fn progress_bar(quiet: bool, len: u64, msg: String) -> ProgressBar {
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
    pb
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
/// (exit 2 at the end). A stream: see [`gamedb::stream`]; bad lines are answered with error
/// lines and counted, and the command exits 2 at the end when there were any. `answer` gives
/// the reply line of one position, an error for that position, or a failure that ends the
/// command.
pub fn answer_all<F>(positions: &[String], json: bool, answer: F) -> Result<(), Failure>
where
    F: Fn(&str) -> gamedb::Result<Reply> + Sync,
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
