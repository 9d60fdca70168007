//! In-process lookup benchmark: random positions of a table, looked up through the library on
//! one thread (text parsing excluded: positions are prepared as numbers beforehand).
//!
//! ```text
//! cargo run --release --example lookups -- TABLE [LOOKUPS] [--seed N]
//! ```
//!
//! Positions are drawn uniformly over the table's index (a random index, unranked; for Nim its
//! numbers shuffled so the ranking has to do its own sorting). Four
//! loops are timed over the same positions:
//! * `checked`: `Table::outcome_of` one position at a time (bounds check, rank, read the
//!   entry), what a program holding untrusted positions calls;
//! * `ranked`: `Rules::rank` then `Table::outcome`, for positions known to be valid;
//! * `batch`: `Table::outcomes_of` over all of them (checks and ranks 256 positions, then
//!   reads their entries together, so the cache misses of a large table overlap);
//! * `rank alone`: the ranking function without reading the table.
//!
//! One lookup at a time on a table larger than the caches is bound by memory latency; the
//! batch figure shows what the same work costs when the reads overlap.
//!
//! `scripts/bench/interop.sh` runs it on the 6×63 Nim table.

use std::time::Instant;

use gamedb::{Outcome, Table};

#[path = "args.rs"]
mod args;
#[path = "rng.rs"]
mod rng;
use rng::Rng;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let seed = args::take_number(&mut args, "--seed")
        .unwrap_or_else(|e| usage(&e))
        .unwrap_or(1);
    let (path, lookups) = match args.as_slice() {
        [p] => (p.clone(), 10_000_000u64),
        [p, n] => (
            p.clone(),
            n.parse()
                .unwrap_or_else(|_| usage("LOOKUPS must be a number")),
        ),
        _ => usage("expected TABLE [LOOKUPS] [--seed N]"),
    };
    let table = Table::open(&path).unwrap_or_else(|e| {
        eprintln!("lookups: {e}");
        std::process::exit(2)
    });
    let rules = table.rules();

    // At most 4 million distinct positions, visited repeatedly up to `lookups`.
    let distinct = lookups.min(4_000_000) as usize;
    let mut rng = Rng(seed);
    let mut flat: Vec<u32> = Vec::new();
    let mut starts: Vec<usize> = Vec::with_capacity(distinct + 1);
    // Only Nim reads its numbers in any order; other games' positions stay as unranked.
    let shuffle = table.spec_of::<gamedb::games::nim::NimSpec>().is_some();
    // Entries that hold no position (a board no play makes) are drawn again.
    let standings = table.value_kind() == gamedb::ValueKind::Remoteness;
    while starts.len() < distinct {
        let i = rng.below(table.len());
        if standings && table.raw(i) & 7 == 0 {
            continue;
        }
        let mut pos = rules.unrank(i);
        if shuffle {
            for i in (1..pos.len()).rev() {
                pos.swap(i, rng.below(i as u64 + 1) as usize);
            }
        }
        starts.push(flat.len());
        flat.extend_from_slice(&pos);
    }
    starts.push(flat.len());
    let positions = || {
        (0..lookups as usize).map(|k| {
            let i = k % distinct;
            &flat[starts[i]..starts[i + 1]]
        })
    };

    println!(
        "{}: {} positions; {lookups} random lookups on one thread",
        path,
        table.len()
    );
    // One line per loop: its time, its rate, and what it found (so no loop is optimised away).
    // The rate by this thread's CPU time beside it: on a busy machine the thread waits its
    // turn, which the clock counts and the CPU time does not.
    let timed = |label: &str, unit: &str, body: &mut dyn FnMut() -> String| {
        let (started, cpu) = (Instant::now(), thread_cpu_seconds());
        let found = body();
        let secs = started.elapsed().as_secs_f64();
        let cpu = thread_cpu_seconds() - cpu;
        println!(
            "{label:<22} {secs:>8.3} s  {:>6.2} million {unit}  ({:.2} M/s by CPU time, {:.1} ns each; {found})",
            lookups as f64 / secs / 1e6,
            lookups as f64 / cpu / 1e6,
            cpu * 1e9 / lookups as f64,
        );
    };
    if table.value_kind() == gamedb::ValueKind::Remoteness {
        // A win/lose/tie/draw table: the same loops with its lookup, standing_of.
        timed("checked (standing_of):", "lookups/s", &mut || {
            let mut n = 0u64;
            for pos in positions() {
                match table.standing_of(pos) {
                    Ok((gamedb::model::Standing::Win, _)) => n += 1,
                    Ok(_) => {}
                    Err(e) => panic!("an unranked position failed its check: {e}"),
                }
            }
            format!("{n} won")
        });
        timed("ranked (rank+entry):", "lookups/s", &mut || {
            let n: u64 = positions()
                .map(|pos| (table.raw(rules.rank(pos)) & 7 == 2) as u64)
                .sum();
            format!("{n} won")
        });
        timed("rank alone:", "ranks/s", &mut || {
            let sum = positions().fold(0u64, |s, pos| s.wrapping_add(rules.rank(pos)));
            format!("checksum {sum:x}")
        });
        return;
    }
    timed("checked (outcome_of):", "lookups/s", &mut || {
        let mut n = 0u64;
        for pos in positions() {
            match table.outcome_of(pos) {
                Ok(Outcome::N) => n += 1,
                Ok(Outcome::P) => {}
                Err(e) => panic!("an unranked position failed its check: {e}"),
            }
        }
        format!("{n} N")
    });
    timed("ranked (rank+outcome):", "lookups/s", &mut || {
        let n: u64 = positions()
            .map(|pos| (table.outcome(rules.rank(pos)) == Outcome::N) as u64)
            .sum();
        format!("{n} N")
    });
    timed("batch (outcomes_of):", "lookups/s", &mut || {
        let mut outcomes = Vec::with_capacity(lookups as usize);
        table
            .outcomes_of(positions(), &mut outcomes)
            .expect("unranked positions pass their check");
        let n = outcomes.iter().filter(|&&o| o == Outcome::N).count();
        format!("{n} N")
    });
    timed("rank alone:", "ranks/s", &mut || {
        let sum = positions().fold(0u64, |s, pos| s.wrapping_add(rules.rank(pos)));
        format!("checksum {sum:x}")
    });
}

/// This thread's CPU time in seconds (0 if the clock cannot be read).
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which `t` is.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } != 0 {
        return 0.0;
    }
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn usage(msg: &str) -> ! {
    eprintln!("lookups: {msg}\nusage: lookups TABLE [LOOKUPS] [--seed N]");
    std::process::exit(2)
}
