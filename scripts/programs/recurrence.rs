//! Checks every value of a two-player table file against the game's own recurrence (the
//! conformance check `gamedb::game::conformance::values`, which the tests run on solved
//! samples): each position's value and remoteness (or distance to zeroing) is what its moves'
//! values give. For tables too large for a test (a five-man chess ending).
//!
//! ```text
//! cargo run --release --example recurrence -- TABLE
//! ```
//!
//! Prints the number of positions checked and the time, or the positions that break the
//! recurrence; exits 1 when one does, 2 on bad arguments.

use gamedb::game::conformance;
use gamedb::Table;
use rayon::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path] = args.as_slice() else {
        eprintln!("recurrence: expected TABLE");
        std::process::exit(2)
    };
    let table = Table::open(path).unwrap_or_else(|e| {
        eprintln!("recurrence: {e}");
        std::process::exit(2)
    });
    let kind = table.value_kind();
    if !kind.is_two_player() {
        eprintln!(
            "recurrence: {path} holds {} values; expected a remoteness, wlt or dtz table",
            kind.name()
        );
        std::process::exit(2)
    }
    let started = std::time::Instant::now();
    // Pieces of a million indices on the threads, each checked as the tests check a table.
    const PIECE: u64 = 1 << 20;
    let n = table.len();
    let results: Vec<_> = (0..n.div_ceil(PIECE))
        .into_par_iter()
        .map(|k| {
            let within = k * PIECE..((k + 1) * PIECE).min(n);
            conformance::values_in(table.rules(), n, within, kind, &|i| table.raw(i))
        })
        .collect();
    let mut checked = 0;
    let mut failed = false;
    for r in results {
        match r {
            Ok(c) => checked += c,
            Err(why) => {
                failed = true;
                println!("{path}: {why}");
            }
        }
    }
    if failed {
        std::process::exit(1)
    }
    println!(
        "{path}: {checked} positions agree with their moves ({} values, {:.1} s)",
        kind.name(),
        started.elapsed().as_secs_f64()
    );
}
