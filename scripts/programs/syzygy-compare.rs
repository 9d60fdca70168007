//! Position-by-position comparison of a gamedb chess table of distances to zeroing (`gamedb
//! build chess --men M --values dtz`), or of distances to mate by win, draw and loss alone
//! (the kind built for endings with pawns), with Syzygy tables of the same endings (made by
//! `scripts/bench/syzygy-tb.sh`, read by the `shakmaty-syzygy` crate); what is compared and
//! how is `gamedb::syzygy`'s (what `gamedb verify chess-syzygy` checks, every position of
//! every ending of a folder).
//!
//! ```text
//! cargo run --release --example syzygy-compare -- TABLE SYZYGY_DIR [--every N]
//! ```
//!
//! `--every N` compares only the indices that are a multiple of N (a five-man table has 254
//! million; the probes cost microseconds each, most of them a search of one ply by Syzygy's
//! prober for the side its DTZ table does not store).
//!
//! Prints one line per ending and the first disagreements with their FEN; exits 1 when any
//! position disagrees, 2 on bad arguments.

use gamedb::{syzygy, Table, ValueKind};

#[path = "args.rs"]
mod args;

fn usage(why: &str) -> ! {
    eprintln!("syzygy-compare: {why}; usage: syzygy-compare TABLE SYZYGY_DIR [--every N]");
    std::process::exit(2)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let every = args::take_number(&mut args, "--every")
        .unwrap_or_else(|e| usage(&e))
        .unwrap_or(1)
        .max(1);
    let [path, dir] = args.as_slice() else {
        usage("expected TABLE SYZYGY_DIR")
    };
    let table = Table::open(path).unwrap_or_else(|e| usage(&e.to_string()));
    if ![ValueKind::Dtz, ValueKind::Remoteness].contains(&table.value_kind()) {
        usage(&format!(
            "{path} holds {} values; expected a dtz table (gamedb build chess --values dtz) \
             or a table of distances to mate (remoteness, compared by win, draw and loss)",
            table.value_kind().name()
        ));
    }
    let (tb, files) =
        syzygy::tablebase(std::path::Path::new(dir)).unwrap_or_else(|e| usage(&e.to_string()));
    let started = std::time::Instant::now();
    let report = syzygy::compare(&table, &tb, every).unwrap_or_else(|e| usage(&e.to_string()));
    println!(
        "{path} against {files} Syzygy files in {dir}, one index in {every} ({:.1} s)",
        started.elapsed().as_secs_f64()
    );
    println!("ending      positions   wdl equal   dtz exact  dtz rounded  mates  kings  differ");
    let row = |name: &str, t: &syzygy::Tally| {
        println!(
            "{name:<10} {:>10} {:>11} {:>11} {:>12} {:>6} {:>6} {:>7}",
            t.positions, t.wdl_equal, t.dtz_exact, t.dtz_rounded, t.mates, t.kings_alone, t.differ
        )
    };
    for (name, t) in &report.endings {
        row(name, t);
    }
    let total = report.total();
    row("all", &total);
    for s in &report.shown {
        println!("  {s}");
    }
    if total.differ > 0 {
        std::process::exit(1);
    }
}
