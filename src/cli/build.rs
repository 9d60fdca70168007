//! `gamedb build GAME ... [--resume] [--checkpoint-every SECONDS] [--no-checkpoints]`: solve
//! every position of a game and write its table; long solves leave checkpoints
//! (`<table>.checkpoint`, see [`crate::build::checkpoint`]) that `--resume` continues from.
//! An interrupted build says what it left ([`super::interrupt`]); `--clean` removes it.

use std::path::PathBuf;

use clap::Args;

use crate::build::checkpoint::Checkpoints;
use crate::build::{build_locked, plan_all, Built, Options};
use crate::game::{Arguments, ParamValue};
use crate::games::pdb::{Partition, DEFAULT_PARTITION};
use crate::games::{registry, Entry, Spec};
use crate::lock::TableLock;
use crate::model::ValueKind;
use crate::{Error, Result};

use super::{interrupt, progress_bar, set_threads, Common, Failure};

/// What `gamedb build` (and a catalog line) names: one registered game with its arguments, or
/// a set of tables (the pattern databases of a 15-puzzle partition).
#[derive(clap::Subcommand, Clone, Debug)]
pub(crate) enum BuildTarget {
    /// One table of a registered game.
    #[command(flatten)]
    Game(BuildGame),
    /// The pattern databases of a standard partition of the 15-puzzle (4x4 board).
    Fifteen(FifteenArgs),
}

impl BuildTarget {
    /// The checked specs and value kinds of the tables these arguments ask for.
    pub(crate) fn specs(&self) -> Result<Vec<(Spec, ValueKind)>> {
        match self {
            BuildTarget::Game(g) => Ok(vec![g.spec()?]),
            BuildTarget::Fifteen(f) => f.specs(),
        }
    }
}

/// `gamedb build GAME --NAME VALUE...`: one registered game (of the registry in force,
/// [`registry`]) and the values given for its parameters. Its subcommands are made from the
/// games' [`Entry::params`] when the command line is parsed, so a game needs no argument
/// parser of its own.
#[derive(Clone, Debug)]
pub(crate) struct BuildGame {
    /// The game's name.
    pub game: &'static str,
    /// The values given, by parameter name.
    pub args: Arguments,
}

impl BuildGame {
    /// The checked spec and value kind these arguments ask for.
    pub(crate) fn spec(&self) -> Result<(Spec, ValueKind)> {
        let entry = registry()
            .get(self.game)
            .ok_or_else(|| Error::bad(format!("no game '{}'", self.game)))?;
        entry.from_args(&self.args)
    }

    /// The subcommand of one game: an option per parameter.
    fn command(entry: &Entry) -> clap::Command {
        use clap::{Arg, ArgAction};
        let args = entry.params.iter().map(|p| {
            let arg = Arg::new(p.name).long(p.name).help(p.help);
            match p.value {
                ParamValue::Required(v) => arg.value_name(v).required(true),
                ParamValue::Optional(v) => arg.value_name(v),
                ParamValue::Choice { choices, default } => arg
                    .value_parser(clap::builder::PossibleValuesParser::new(choices))
                    .default_value(default),
                ParamValue::Flag => arg.action(ArgAction::SetTrue),
            }
        });
        clap::Command::new(entry.name).about(entry.about).args(args)
    }
}

impl clap::FromArgMatches for BuildGame {
    fn from_arg_matches(matches: &clap::ArgMatches) -> std::result::Result<Self, clap::Error> {
        let missing = || clap::Error::new(clap::error::ErrorKind::MissingSubcommand);
        let (name, sub) = matches.subcommand().ok_or_else(missing)?;
        let entry = registry().get(name).ok_or_else(missing)?;
        let mut args = Arguments::new();
        for p in entry.params {
            match p.value {
                ParamValue::Flag => {
                    if sub.get_flag(p.name) {
                        args.set(p.name, "true");
                    }
                }
                _ => {
                    if let Some(v) = sub.get_one::<String>(p.name) {
                        args.set(p.name, v);
                    }
                }
            }
        }
        Ok(BuildGame {
            game: entry.name,
            args,
        })
    }

    fn update_from_arg_matches(
        &mut self,
        matches: &clap::ArgMatches,
    ) -> std::result::Result<(), clap::Error> {
        *self = BuildGame::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Subcommand for BuildGame {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        registry()
            .games()
            .iter()
            .fold(cmd, |cmd, e| cmd.subcommand(BuildGame::command(e)))
    }

    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        BuildGame::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        registry().get(name).is_some()
    }
}

/// `gamedb build fifteen`: the pattern tables of a standard partition of the 4x4 board.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct FifteenArgs {
    /// Which partition: 7-8 (strongest, minutes to build), 6-6-3 or 5-5-5.
    #[arg(long, default_value = DEFAULT_PARTITION)]
    pub partition: String,
}

impl FifteenArgs {
    /// The tables these arguments ask for.
    pub(crate) fn specs(&self) -> Result<Vec<(Spec, ValueKind)>> {
        Ok(Partition::named(&self.partition)?
            .specs()
            .into_iter()
            .map(|s| (Spec::new(s), ValueKind::Distance))
            .collect())
    }
}

#[derive(Args)]
pub(crate) struct BuildArgs {
    #[command(subcommand)]
    pub target: BuildTarget,
    /// Folder for the table.
    #[arg(long, global = true, default_value = "tables")]
    pub out: PathBuf,
    /// Most memory the build may allocate (bytes, or K, M, G, T binary units: 512M, 8G); a build
    /// that needs more is refused before solving. Default: what the machine has available.
    #[arg(long, global = true, value_parser = crate::resources::parse_size)]
    pub memory: Option<u64>,
    /// One JSON object per table written: file, game, values, positions, bytes, seconds,
    /// solve_seconds, memory_needed, resumed_at_wave, checkpoints_written,
    /// checkpoint_seconds.
    #[arg(long, global = true)]
    pub json: bool,
    /// Continue from the table's checkpoint (`<table>.checkpoint` in --out), left by a build
    /// that was interrupted; refused when there is none, or when it is of another table,
    /// damaged, or of another solver.
    #[arg(long, global = true)]
    pub resume: bool,
    /// Seconds between checkpoints of a long solve (0: after every wave). Chomp P/N tables,
    /// octal games (the sparse method) and two-player games (after each tier) keep
    /// checkpoints; each is about as large as the table.
    #[arg(long, global = true, default_value_t = 300, value_name = "SECONDS")]
    pub checkpoint_every: u64,
    /// Write no checkpoints.
    #[arg(long, global = true)]
    pub no_checkpoints: bool,
    /// Build nothing: remove what interrupted builds of the table(s) named left in --out (the
    /// checkpoint, temporaries, a stale lock); refused while a build of one of them runs.
    #[arg(long, global = true, conflicts_with = "resume")]
    pub clean: bool,
    /// Test hook (under mpirun): most words one process sends in one all-gather round.
    #[arg(long, global = true, hide = true)]
    pub round_words: Option<usize>,
    #[command(flatten)]
    pub common: Common,
}

pub(crate) fn run(a: BuildArgs) -> Result<(), Failure> {
    set_threads(a.common.threads)?;
    let options = Options {
        memory_budget: a.memory,
        checkpoints: Some(Checkpoints {
            every: (!a.no_checkpoints).then_some(a.checkpoint_every),
            resume: a.resume,
        }),
        ..Options::default()
    };
    let tables = a.target.specs()?;
    if a.clean {
        return clean(&tables, &a.out);
    }
    interrupt::say_what_is_left();
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
        // Dropped before the lock: an interrupt after the table is written says nothing of it.
        let building = interrupt::building(&a.out, &name, Some(interrupt::this_command()));
        let pb = progress_bar(a.common.quiet, spec.positions(), name);
        let built = build_locked(&spec, kind, &a.out, &options, &lock, &pb)?;
        drop(building);
        pb.finish_and_clear();
        if a.json {
            println!("{}", summary(&spec, kind, &built));
        } else {
            println!("{}", wrote(&built));
        }
    }
    Ok(())
}

/// `gamedb build ... --clean`: removes the checkpoint, the temporaries and a stale lock of
/// each table named, saying what it removed; a table whose build is running (its lock is
/// held) is refused, before anything is removed.
fn clean(tables: &[(Spec, ValueKind)], out: &std::path::Path) -> Result<(), Failure> {
    let mut locks = Vec::new();
    for (spec, kind) in tables {
        let name = spec.file_name(*kind);
        let lock_file = crate::lock::lock_path(out, &name);
        let stale = lock_file.exists();
        match TableLock::try_take(out, &name)? {
            Some(lock) => locks.push((name, lock, stale)),
            None => {
                return Err(Error::bad(format!(
                    "--clean: a build of {} is running (it holds {}); stop it first (Ctrl-C \
                     keeps its checkpoint), then clean",
                    out.join(&name).display(),
                    lock_file.display()
                ))
                .into())
            }
        }
    }
    for (name, lock, stale) in locks {
        let mut removed = Vec::new();
        let ckpt = crate::build::checkpoint::path(out, &name);
        if let Ok(m) = std::fs::metadata(&ckpt) {
            std::fs::remove_file(&ckpt).map_err(|e| Error::io(&ckpt, e))?;
            removed.push(format!(
                "its checkpoint {} ({})",
                ckpt.display(),
                crate::resources::bytes(m.len())
            ));
        }
        let temporaries = crate::format::remove_temporaries_of(out, &name)
            + remove_checkpoint_temporaries(out, &name);
        if temporaries > 0 {
            removed.push(format!(
                "{temporaries} temporar{} of interrupted writers",
                if temporaries == 1 { "y" } else { "ies" }
            ));
        }
        if stale {
            removed.push("a stale lock".to_string());
        }
        drop(lock); // removes the lock file
        let table = out.join(&name);
        if removed.is_empty() {
            println!("{}: nothing to clean", table.display());
        } else {
            println!("{}: removed {}", table.display(), removed.join(", "));
        }
    }
    Ok(())
}

/// Removes the temporaries of table `name`'s checkpoint (`.NAME.checkpoint.tmp-PID`) that
/// killed builds left; for a caller that holds the table's lock. Returns how many.
fn remove_checkpoint_temporaries(out: &std::path::Path, name: &str) -> usize {
    let prefix = format!(".{name}.checkpoint.tmp-");
    let Ok(entries) = std::fs::read_dir(out) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

/// The `--json` summary of a table built.
pub(super) fn summary(spec: &Spec, kind: ValueKind, built: &Built) -> serde_json::Value {
    serde_json::json!({
        "file": built.path.display().to_string(),
        "game": spec.name(),
        "description": spec.describe(),
        "values": kind.name(),
        "positions": built.positions,
        "bytes": built.file_bytes,
        "seconds": built.total_time.as_secs_f64(),
        "solve_seconds": built.solve_time.as_secs_f64(),
        "memory_needed": crate::build::needs(spec, kind).memory,
        "resumed_at_wave": built.checkpoints.resumed.map(|w| w.next),
        "checkpoints_written": built.checkpoints.written,
        "checkpoint_seconds": built.checkpoints.seconds,
    })
}

/// `wrote FILE (N positions, B bytes) in S s (R positions/s solving)`, and what the
/// checkpoints did.
pub(super) fn wrote(built: &Built) -> String {
    // A resumed build solved only the positions after its checkpoint.
    let before = built.checkpoints.resumed.map_or(0, |w| w.done);
    let solved = built.positions.saturating_sub(before);
    format!(
        "wrote {} ({} positions, {} bytes) in {:.2} s ({:.0} positions/s solving){}",
        built.path.display(),
        built.positions,
        built.file_bytes,
        built.total_time.as_secs_f64(),
        solved as f64 / built.solve_time.as_secs_f64().max(1e-9),
        checkpoint_summary(built)
    )
}

/// `; resumed at wave W of N (P positions solved before), K checkpoints written (S each,
/// T s in all)`, the parts that happened.
fn checkpoint_summary(built: &Built) -> String {
    let c = &built.checkpoints;
    let mut parts = Vec::new();
    if let Some(w) = c.resumed {
        parts.push(format!(
            "resumed at wave {} of {} ({} positions solved before)",
            w.next, w.waves, w.done
        ));
    }
    if c.written > 0 {
        parts.push(format!(
            "{} checkpoint{} written ({} each, {:.1} s in all)",
            c.written,
            if c.written == 1 { "" } else { "s" },
            crate::resources::bytes(c.bytes),
            c.seconds
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("; {}", parts.join(", "))
    }
}
