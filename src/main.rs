//! The `gamedb` command: parses arguments, calls the library, prints, and decides the exit
//! status in one place (0 ok, 1 a verified statement failed, 2 bad input or a damaged table).

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use gamedb::games::candy::{CandySpec, WinRule};
use gamedb::games::chomp::{self, ChompSpec};
use gamedb::games::nim::NimSpec;
use gamedb::games::slide::SlideSpec;
use gamedb::games::Spec;
use gamedb::{json, verify, Error, Table, ValueKind};

mod catalog;
mod fifteen_cli;

#[derive(Parser)]
#[command(
    name = "gamedb",
    version,
    about = "Solve small combinatorial games exhaustively and query the tables"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve every position of a game and write its table.
    Build(BuildArgs),
    /// Build every table of a catalog (the standard one by default), skipping intact tables.
    BuildAll(catalog::BuildAllArgs),
    /// Answer positions from a table (`-` reads one position per line from stdin).
    Query(QueryArgs),
    /// Show a table's header, counts and checksum status.
    Info(InfoArgs),
    /// Check tables' structure and checksums.
    VerifyTable(VerifyTableArgs),
    /// Check the statements of THEOREMS.md against every position.
    Verify(VerifyArgs),
    /// Chomp: the winning bites of every rectangle inside a table's box.
    ChompRectangles(ChompRectanglesArgs),
    /// Solve sliding-puzzle positions optimally with pattern databases (`-` reads stdin).
    Solve(fifteen_cli::SolveArgs),
}

#[derive(Args, Clone)]
struct Common {
    /// Worker threads (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// No progress bars.
    #[arg(long, short, global = true)]
    quiet: bool,
}

#[derive(Args)]
pub(crate) struct BuildArgs {
    #[command(subcommand)]
    game: GameArgs,
    /// Folder for the table.
    #[arg(long, global = true, default_value = "tables")]
    out: PathBuf,
    #[command(flatten)]
    common: Common,
}

#[derive(Subcommand, Clone)]
pub(crate) enum GameArgs {
    /// The candy game: n candies (n odd), take 1..k, even (or odd) total wins.
    Candy {
        /// Largest (odd) total of candies; every odd total up to it is covered.
        #[arg(long)]
        max_candies: u32,
        /// Most candies one turn may take.
        #[arg(long)]
        max_take: u32,
        /// Which total wins.
        #[arg(long, value_enum, default_value = "even")]
        win: WinArg,
    },
    /// Bounded Nim: S heaps of 0..H, a move takes 1..K from one heap.
    Nim {
        /// Number of heaps.
        #[arg(long)]
        heaps: u32,
        /// Largest heap size.
        #[arg(long)]
        max_heap: u32,
        /// Most counters a move may take (default: any number).
        #[arg(long)]
        max_take: Option<u32>,
        /// Misère play: whoever takes the last counter loses.
        #[arg(long)]
        misere: bool,
        /// Store Grundy values instead of P/N bits (normal play only).
        #[arg(long)]
        grundy: bool,
    },
    /// Chomp: every position of the R×C box (Young diagrams holding the poisoned cell).
    Chomp {
        /// Rows of the box.
        #[arg(long)]
        rows: u32,
        /// Columns of the box.
        #[arg(long)]
        cols: u32,
        /// Store Grundy values instead of P/N bits.
        #[arg(long)]
        grundy: bool,
    },
    #[command(flatten)]
    Puzzle(fifteen_cli::PuzzleArgs),
    /// Sliding puzzle on an R×C board (2 ≤ R, C; R·C ≤ 12): distance to the goal of every
    /// solvable arrangement.
    Slide {
        /// Rows of the board.
        #[arg(long)]
        rows: u32,
        /// Columns of the board.
        #[arg(long)]
        cols: u32,
    },
}

#[derive(ValueEnum, Clone, Copy)]
pub(crate) enum WinArg {
    Even,
    Odd,
}

impl GameArgs {
    /// The checked specs and value kinds of the tables these arguments ask for (one table
    /// for most games; `fifteen` builds several).
    pub(crate) fn specs(&self) -> gamedb::Result<Vec<(Spec, ValueKind)>> {
        Ok(vec![match *self {
            GameArgs::Puzzle(ref p) => return p.specs(),
            GameArgs::Candy {
                max_candies,
                max_take,
                win,
            } => {
                let win = match win {
                    WinArg::Even => WinRule::Even,
                    WinArg::Odd => WinRule::Odd,
                };
                (
                    Spec::Candy(CandySpec::new(max_candies, max_take, win)?),
                    ValueKind::Outcome,
                )
            }
            GameArgs::Nim {
                heaps,
                max_heap,
                max_take,
                misere,
                grundy,
            } => {
                if grundy && misere {
                    return Err(Error::BadInput(
                        "--grundy needs normal play: Grundy values are not defined for misère Nim"
                            .into(),
                    ));
                }
                let kind = if grundy {
                    ValueKind::Grundy
                } else {
                    ValueKind::Outcome
                };
                (
                    Spec::Nim(NimSpec::new(heaps, max_heap, max_take, misere)?),
                    kind,
                )
            }
            GameArgs::Chomp { rows, cols, grundy } => {
                let kind = if grundy {
                    ValueKind::Grundy
                } else {
                    ValueKind::Outcome
                };
                (Spec::Chomp(ChompSpec::new(rows, cols)?), kind)
            }
            GameArgs::Slide { rows, cols } => (
                Spec::Slide(SlideSpec::new(rows, cols)?),
                ValueKind::Distance,
            ),
        }])
    }
}

#[derive(Args)]
pub(crate) struct QueryArgs {
    /// The table file, then positions, e.g. `1,2,3`; `-` reads one per line from stdin. With
    /// --rows and --cols every argument is a position, answered from the complete table of
    /// that board in --tables when there is one and through the solver on the pattern tables
    /// there otherwise (the 4x4 board); a folder in place of the table file is such a
    /// --tables folder (board 4x4 unless --rows/--cols say otherwise).
    #[arg(required = true, value_name = "TABLE POSITION")]
    args: Vec<String>,
    /// Sliding puzzles: rows of the board (positions only, no table file).
    #[arg(long, requires = "cols")]
    pub(crate) rows: Option<u32>,
    /// Sliding puzzles: columns of the board (positions only, no table file).
    #[arg(long, requires = "rows")]
    pub(crate) cols: Option<u32>,
    /// Sliding puzzles: the folder of the tables (complete or pattern tables).
    #[arg(long)]
    tables: Option<PathBuf>,
    /// One JSON object per answer.
    #[arg(long)]
    pub(crate) json: bool,
    /// Distance tables: include a whole optimal solution in each answer.
    #[arg(long)]
    pub(crate) path: bool,
    /// Skip the payload checksum when opening (faster on very large tables).
    #[arg(long)]
    pub(crate) no_verify: bool,
}

#[derive(Args)]
struct InfoArgs {
    /// The table file.
    table: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct ChompRectanglesArgs {
    /// A Chomp table file.
    table: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct VerifyTableArgs {
    /// Table files.
    #[arg(required = true)]
    tables: Vec<PathBuf>,
}

#[derive(Args)]
struct VerifyArgs {
    /// Statements to check (default: all); see --list.
    names: Vec<String>,
    /// List the statements and stop.
    #[arg(long)]
    list: bool,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
    /// Reuse intact tables from this folder (others are solved in memory).
    #[arg(long, default_value = "tables")]
    tables: PathBuf,
    #[command(flatten)]
    common: Common,
}

/// How a command ended.
pub(crate) enum Failure {
    /// Bad input, damaged table, I/O error: exit 2.
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

fn main() -> ExitCode {
    // Die quietly when the reader of our output goes away (`gamedb ... | head`), as Unix
    // tools do, instead of panicking on the failed write.
    // SAFETY: restoring a signal's default disposition at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build(a) => build(a),
        Command::BuildAll(a) => catalog::build_all(a),
        Command::Query(a) => query(a),
        Command::Info(a) => info(a),
        Command::VerifyTable(a) => verify_table(a),
        Command::Verify(a) => verify(a),
        Command::ChompRectangles(a) => chomp_rectangles(a),
        Command::Solve(a) => fifteen_cli::solve(a),
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

/// Sets the size of rayon's global pool.
pub(crate) fn set_threads(threads: Option<usize>) -> Result<(), Error> {
    if let Some(n) = threads {
        if n == 0 {
            return Err(Error::BadInput("--threads 0: expected at least 1".into()));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| Error::Unsupported(format!("cannot start {n} threads: {e}")))?;
    }
    Ok(())
}

/// A progress bar on stderr, hidden when stderr is not a terminal or with --quiet.
pub(crate) fn progress_bar(quiet: bool, len: u64, msg: String) -> ProgressBar {
    let target = if quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let pb = ProgressBar::with_draw_target(Some(len), target);
    pb.set_style(
        ProgressStyle::with_template(
            "{msg:28} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} ({per_sec}, eta {eta})",
        )
        .expect("valid template"),
    );
    pb.set_message(msg);
    pb
}

fn build(a: BuildArgs) -> Result<(), Failure> {
    set_threads(a.common.threads)?;
    for (spec, kind) in a.game.specs()? {
        let pb = progress_bar(a.common.quiet, spec.positions(), spec.file_name(kind));
        let built = gamedb::build::build(&spec, kind, &a.out, &pb)?;
        pb.finish_and_clear();
        println!(
            "wrote {} ({} positions, {} bytes) in {:.2} s ({:.0} positions/s solving)",
            built.path.display(),
            built.positions,
            built.payload_bytes + gamedb::format::PAYLOAD_OFFSET,
            built.total_time.as_secs_f64(),
            built.positions as f64 / built.solve_time.as_secs_f64().max(1e-9)
        );
    }
    Ok(())
}

fn open_checked(path: &Path, verify: bool) -> Result<Table, Error> {
    let table = Table::open(path)?;
    if verify {
        table.verify()?;
    }
    Ok(table)
}

fn query(a: QueryArgs) -> Result<(), Failure> {
    // Where the answers come from: a table file, or a board and a folder of tables.
    let (table, positions, board) = match (a.rows, a.cols) {
        (Some(rows), Some(cols)) => {
            // `gamedb query DIR --rows R --cols C POS...`: the folder in place of --tables.
            let first = Path::new(&a.args[0]);
            if a.tables.is_none() && a.args.len() > 1 && first.is_dir() {
                (None, &a.args[1..], Some((rows, cols, first.to_path_buf())))
            } else {
                let dir = a.tables.clone().unwrap_or_else(|| PathBuf::from("tables"));
                (None, &a.args[..], Some((rows, cols, dir)))
            }
        }
        _ => {
            let first = PathBuf::from(&a.args[0]);
            if a.args.len() < 2 {
                return Err(Error::BadInput(format!(
                    "query {}: no position given; expected TABLE POSITION... (or - to read \
                     positions from stdin), or --rows R --cols C [--tables DIR] POSITION...",
                    a.args[0]
                ))
                .into());
            }
            if a.tables.is_some() {
                return Err(Error::BadInput(
                    "query: --tables goes with --rows and --cols (positions only, no table \
                     file); expected TABLE POSITION... or --rows R --cols C --tables DIR \
                     POSITION..."
                        .to_string(),
                )
                .into());
            }
            if first.is_dir() {
                (None, &a.args[1..], Some((4, 4, first)))
            } else {
                (Some(first), &a.args[1..], None)
            }
        }
    };
    let table = match (table, board) {
        (Some(file), _) => file,
        (None, Some((rows, cols, dir))) => {
            // A complete table of the board, when there is one, answers directly.
            let complete = SlideSpec::new(rows, cols)
                .ok()
                .map(|s| dir.join(Spec::Slide(s).file_name(ValueKind::Distance)))
                .filter(|f| f.is_file());
            match complete {
                Some(file) => file,
                None => return fifteen_cli::query(&a, rows, cols, &dir, positions),
            }
        }
        (None, None) => unreachable!("a table file or a board"),
    };
    let table = open_checked(&table, !a.no_verify)?;
    answer_all(positions, a.json, |text| {
        Ok(table
            .query_with(text, a.path)
            .map(|ans| render(&table, &ans, a.json)))
    })
}

/// Answers positions given on the command line, or one per line of stdin when they are `-`.
///
/// Command-line positions: each answer a line on stdout, each bad position a line on stderr
/// (exit 2 at the end). A stream: one answer line per input line, a bad line answered with an
/// error (`{"position":..,"error":..}` with `json`) and the conversation carried on; answers
/// are flushed as soon as no more input is queued. `answer` gives the reply line of one
/// position, an error for that position, or a failure that ends the command.
pub(crate) fn answer_all<F>(positions: &[String], json: bool, answer: F) -> Result<(), Failure>
where
    F: Fn(&str) -> Result<Result<String, Error>, Failure> + Sync,
{
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let io_err = |e: std::io::Error| Error::Io {
        path: PathBuf::from("<stdout>"),
        source: e,
    };
    if positions != ["-"] {
        let mut bad = false;
        for p in positions {
            match answer(p)? {
                Ok(reply) => writeln!(out, "{reply}").map_err(io_err)?,
                Err(e) => {
                    out.flush().map_err(io_err)?;
                    eprintln!("gamedb: {e}");
                    bad = true;
                }
            }
        }
        out.flush().map_err(io_err)?;
        return if bad { Err(Failure::Reported) } else { Ok(()) };
    }
    let mut input = std::io::BufReader::with_capacity(1 << 16, std::io::stdin().lock());
    let mut line = String::new();
    let (mut lines, mut bad) = (0u64, 0u64);
    let mut batch: Vec<String> = Vec::new();
    let mut eof = false;
    while !eof {
        // Take the lines already queued (at least one, waiting for it if need be): a caller
        // talking line by line gets each answer at once, a long pipe gets batches that are
        // answered in parallel and written in input order.
        batch.clear();
        loop {
            line.clear();
            let n = input.read_line(&mut line).map_err(|e| Error::Io {
                path: PathBuf::from("<stdin>"),
                source: e,
            })?;
            if n == 0 {
                eof = true;
                break;
            }
            let text = line.trim();
            if !text.is_empty() {
                batch.push(text.to_string());
            }
            if input.buffer().is_empty() || batch.len() >= STREAM_BATCH {
                break;
            }
        }
        let replies: Vec<Result<Result<String, Error>, Failure>> = if batch.len() >= 64 {
            batch.par_iter().map(|text| answer(text)).collect()
        } else {
            batch.iter().map(|text| answer(text)).collect()
        };
        for (text, reply) in batch.iter().zip(replies) {
            lines += 1;
            let reply = match reply? {
                Ok(reply) => reply,
                Err(e) => {
                    bad += 1;
                    if json {
                        json::Object::new()
                            .str("position", text)
                            .str("error", &e.to_string())
                            .finish()
                    } else {
                        format!("{text}: error: {e}")
                    }
                }
            };
            if let Err(e) = writeln!(out, "{reply}") {
                // A reader that went away ends the conversation; it is not an error.
                if e.kind() == std::io::ErrorKind::BrokenPipe {
                    return Ok(());
                }
                return Err(io_err(e).into());
            }
        }
        // Answer as soon as the caller waits for us: flush when no more input is queued.
        if input.buffer().is_empty() {
            match out.flush() {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
                r => r.map_err(io_err)?,
            }
        }
    }
    match out.flush() {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
        r => r.map_err(io_err)?,
    }
    if bad > 0 {
        return Err(Error::BadInput(format!(
            "{bad} of {lines} input lines could not be answered (answered with an error)"
        ))
        .into());
    }
    Ok(())
}

/// Most queued input lines answered together in a stream.
const STREAM_BATCH: usize = 4096;

fn render(table: &Table, ans: &gamedb::Answer, json: bool) -> String {
    if json {
        ans.to_json(table.rules())
    } else {
        ans.to_text(table.rules())
    }
}

/// Antipodes listed by `info` when there are at most this many.
const ANTIPODES_LISTED: usize = 20;

fn info(a: InfoArgs) -> Result<(), Failure> {
    let table = Table::open(&a.table)?;
    let checksum = table.verify();
    let h = table.file().header();
    let distances =
        (h.value_kind == ValueKind::Distance).then(|| table.distance_census(ANTIPODES_LISTED));
    let rules = table.rules();
    if a.json {
        let mut o = json::Object::new()
            .str("file", &a.table.display().to_string())
            .str("game", table.spec().name())
            .str("description", &table.spec().describe())
            .raw("params", &json::numbers(&h.params))
            .num("format_version", gamedb::format::FORMAT_VERSION)
            .str("values", h.value_kind.name())
            .str("encoding", h.encoding.name())
            .num("entries", h.entry_count)
            .num("payload_offset", h.payload_offset)
            .num("payload_len", h.payload_len)
            .str("payload_xxh3", &format!("{:016x}", h.payload_xxh3))
            .str("checksum", if checksum.is_ok() { "ok" } else { "mismatch" })
            .str("crate_version", &h.crate_version);
        match &distances {
            Some(d) => {
                o = o.raw("distance_counts", &json::numbers(&d.counts));
                o = match d.max_distance() {
                    Some(m) => o.num("max_distance", m),
                    None => o.null("max_distance"),
                };
                o = o.num("antipode_count", d.antipode_count);
                if d.antipode_count as usize <= ANTIPODES_LISTED {
                    o = o.raw(
                        "antipodes",
                        &json::array(d.antipodes.iter().map(|&i| {
                            let mut s = String::new();
                            json::string(&mut s, &rules.format(&rules.unrank(i)));
                            s
                        })),
                    );
                }
                o = o.num("unreached", d.unreached);
                if let Some(what) = rules.distance_bound() {
                    o = o.str("lower_bounds_of", &what);
                }
            }
            None => {
                let p = table.count_p();
                o = o.num("p_positions", p).num("n_positions", table.len() - p);
            }
        }
        let o = table.facts().iter().fold(o, |o, f| o.raw(&f.key, &f.json));
        println!("{}", o.finish());
    } else {
        println!("file:            {}", a.table.display());
        println!("game:            {}", table.spec().describe());
        println!(
            "format:          version {}, {} values as {}",
            gamedb::format::FORMAT_VERSION,
            h.value_kind.name(),
            h.encoding.name()
        );
        println!("entries:         {}", h.entry_count);
        println!(
            "payload:         {} bytes at offset {}",
            h.payload_len, h.payload_offset
        );
        println!(
            "checksum:        xxh3-64 {:016x} {}",
            h.payload_xxh3,
            if checksum.is_ok() { "OK" } else { "MISMATCH" }
        );
        println!("written by:      gamedb {}", h.crate_version);
        match &distances {
            Some(d) => {
                if let Some(what) = rules.distance_bound() {
                    // A pattern database: entries are placements and their values lower bounds.
                    println!("values:          {what}");
                    println!("placements at each value:");
                } else {
                    println!("positions at each distance:");
                }
                for (dist, count) in d.counts.iter().enumerate() {
                    println!("  {dist:>4} {count:>14}");
                }
                if d.unreached > 0 {
                    println!(
                        "unreached:       {} (value {})",
                        d.unreached,
                        gamedb::lookup::UNREACHED
                    );
                }
                if let Some(m) = d.max_distance() {
                    println!("max distance:    {m}");
                    if d.antipode_count as usize <= ANTIPODES_LISTED {
                        println!("antipodes:       {} at distance {m}:", d.antipode_count);
                        for &i in &d.antipodes {
                            println!("  {}", rules.format(&rules.unrank(i)));
                        }
                    } else {
                        println!(
                            "antipodes:       {} at distance {m} (more than {ANTIPODES_LISTED}, not listed)",
                            d.antipode_count
                        );
                    }
                }
            }
            None => {
                let p = table.count_p();
                println!("P-positions:     {p}");
                println!("N-positions:     {}", table.len() - p);
            }
        }
        for f in table.facts() {
            println!("{}:", f.label);
            for line in f.text.lines() {
                println!("  {line}");
            }
        }
    }
    checksum?;
    Ok(())
}

fn chomp_rectangles(a: ChompRectanglesArgs) -> Result<(), Failure> {
    let table = open_checked(&a.table, true)?;
    let rects = chomp::rectangles(&table)?;
    if a.json {
        println!("{}", chomp::rectangles_json(&rects));
    } else {
        println!("{}", chomp::rectangles_text(&rects));
    }
    Ok(())
}

fn verify_table(a: VerifyTableArgs) -> Result<(), Failure> {
    let mut failed = None;
    for path in &a.tables {
        match open_checked(path, true) {
            Ok(t) => println!("{}: OK ({})", path.display(), t.spec().describe()),
            Err(e) => {
                println!("{}: FAILED", path.display());
                eprintln!("gamedb: {e}");
                failed = Some(e);
            }
        }
    }
    match failed {
        Some(e) => Err(Failure::Error(e)),
        None => Ok(()),
    }
}

fn verify(a: VerifyArgs) -> Result<(), Failure> {
    let all = verify::statements();
    if a.list {
        for s in &all {
            println!("{:24} {}\n{:24} {}", s.name, s.claim, "", s.source);
        }
        return Ok(());
    }
    for name in &a.names {
        if !all.iter().any(|s| s.name == name) {
            return Err(Failure::Error(Error::BadInput(format!(
                "unknown statement '{name}'; `gamedb verify --list` names them all"
            ))));
        }
    }
    set_threads(a.common.threads)?;
    let chosen: Vec<_> = all
        .iter()
        .filter(|s| a.names.is_empty() || a.names.contains(&s.name.to_string()))
        .collect();
    let pb = progress_bar(a.common.quiet, 0, String::new());
    let mut env = verify::Env::new(Some(a.tables.clone()), pb.clone());
    let mut reports = Vec::new();
    for s in chosen {
        let r = verify::run(s, &mut env)?;
        pb.suspend(|| {
            if !a.json {
                println!("{}", r.to_text());
            }
        });
        reports.push(r);
    }
    pb.finish_and_clear();
    let failed = reports.iter().filter(|r| !r.finding.passed()).count();
    if a.json {
        let o = json::Object::new()
            .num("passed", reports.len() - failed)
            .num("failed", failed)
            .raw(
                "statements",
                &json::array(reports.iter().map(|r| r.to_json())),
            );
        println!("{}", o.finish());
    } else {
        println!("{} passed, {} failed", reports.len() - failed, failed);
    }
    if failed > 0 {
        Err(Failure::Findings)
    } else {
        Ok(())
    }
}
