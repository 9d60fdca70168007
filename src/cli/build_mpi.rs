//! `mpirun -np K gamedb build GAME ...` (built with `--features mpi`): the processes solve one
//! two-player table together ([`crate::solve::two_player::processes`]) and process 0 writes it.
//!
//! A build is spread when an MPI launcher started it (Open MPI's `mpirun`, or a PMI launcher
//! such as Slurm's `srun`, sets the variables of [`launched`]); started plainly, the same
//! binary builds on one process as always. Every process checks its memory and the folder;
//! process 0 alone takes the table's lock, shows the plan and the summary, and writes. A spread
//! build keeps no checkpoints (it cannot resume).

use serde_json::json;

use crate::build::{build_locked, plan_all, Options};
use crate::lock::TableLock;
use crate::solve::exchange::Exchange;
use crate::solve::exchange::Mpi;
use crate::solve::two_player;
use crate::Error;

use super::build::{summary, wrote, BuildArgs};
use super::{progress_bar, set_threads, Failure};

/// Whether an MPI launcher started this process: Open MPI's `mpirun` sets
/// `OMPI_COMM_WORLD_SIZE`, PMI launchers (MPICH's Hydra, Slurm's `srun`) `PMI_SIZE` or
/// `PMIX_RANK`.
pub(crate) fn launched() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

/// `gamedb build` under an MPI launcher (`main_with` sends it here when [`launched`]).
pub(crate) fn run(a: BuildArgs) -> Result<(), Failure> {
    set_threads(a.common.threads)?;
    let Some(x) = Mpi::init() else {
        return Err(Error::internal("MPI was initialized twice").into());
    };
    let x = match a.round_words {
        Some(words) => x.with_round_words(words),
        None => x,
    };
    let (rank, size) = (x.rank(), x.size());
    // The processes stay installed until this function returns (dropping them ends MPI).
    let _processes = two_player::install(Box::new(x));
    build(&a, rank).map_err(|e| match e {
        Failure::Error(e) if size > 1 => Error::Unsupported(format!("process {rank}: {e}")).into(),
        other => other,
    })
}

fn build(a: &BuildArgs, rank: usize) -> Result<(), Failure> {
    let lead = rank == 0;
    let options = Options {
        memory_budget: a.memory,
        checkpoints: None,
        ..Options::default()
    };
    // Everything that may refuse the build, on every process, before any process solves: a
    // process that left now would leave the others waiting in the first exchange.
    let ready = (|| {
        if a.resume {
            return Err(Error::bad(
                "--resume under mpirun: a build on several processes keeps no checkpoints; \
                 expected a build without --resume",
            ));
        }
        let tables = a.target.specs()?;
        let [(spec, kind)] = &tables[..] else {
            return Err(Error::bad(format!(
                "under mpirun: {} tables; expected one table of a two-player game",
                tables.len()
            )));
        };
        // A wlt table is solved as a remoteness table is, then packed (`solve_tiered`).
        if !kind.is_two_player() {
            return Err(Error::bad(format!(
                "{} has {} values: under mpirun, expected a two-player game (win, lose, tie \
                 and draw values; mnk, connect4, quixo, mill, chess)",
                spec.name(),
                kind.name()
            )));
        }
        let plans = plan_all(&tables, &a.out, &options)?;
        let lock = if lead {
            if !a.common.quiet {
                for p in &plans {
                    eprintln!("{}", p.describe(&a.out));
                }
            }
            let name = spec.file_name(*kind);
            Some(TableLock::try_take(&a.out, &name)?.ok_or_else(|| {
                Error::bad(format!(
                    "{name}: another gamedb is building this table; expected no other build \
                     of it while processes build it together"
                ))
            })?)
        } else {
            None
        };
        Ok((spec.clone(), *kind, lock))
    })();
    if two_player::any_process(ready.is_err())? {
        return match ready {
            Err(e) => Err(e.into()),
            Ok(_) if lead => Err(Error::Unsupported(
                "another process refused the build (its message says why)".into(),
            )
            .into()),
            Ok(_) => Err(Failure::Reported),
        };
    }
    let (spec, kind, lock) = ready?;
    let Some(lock) = lock else {
        // The values are process 0's to write; the others only help to solve them.
        spec.solve(kind, &())?;
        return Ok(());
    };
    let pb = progress_bar(a.common.quiet, spec.positions(), spec.file_name(kind));
    let built = build_locked(&spec, kind, &a.out, &options, &lock, &pb)?;
    pb.finish_and_clear();
    let tiers = two_player::traffic();
    let (procs, bytes, messages) = (
        two_player::processes().map_or(1, |p| p.1),
        tiers.iter().map(|t| t.bytes).sum::<u64>(),
        tiers.iter().map(|t| t.messages).sum::<u64>(),
    );
    if a.json {
        let mut s = summary(&spec, kind, &built);
        s["processes"] = json!(procs);
        s["exchanged_bytes"] = json!(bytes);
        s["exchanged_messages"] = json!(messages);
        s["tiers"] = tiers
            .iter()
            .map(|t| {
                json!({
                    "tier": t.tier,
                    "positions": t.positions,
                    "edges": t.edges,
                    "bytes": t.bytes,
                    "largest_piece": t.largest_piece,
                    "messages": t.messages,
                    "levels": t.levels,
                    "scan_seconds": t.scan_seconds,
                    "exchange_seconds": t.exchange_seconds,
                    "settle_seconds": t.settle_seconds,
                })
            })
            .collect();
        println!("{s}");
    } else {
        println!("{}", wrote(&built));
        if !a.common.quiet {
            eprintln!(
                "{procs} process{}: {bytes} bytes in {messages} messages between them over {} \
                 tiers",
                if procs == 1 { "" } else { "es" },
                tiers.len()
            );
        }
    }
    Ok(())
}
