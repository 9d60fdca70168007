//! The pattern of `p − q` in `q` for every column `r ≤ R` of a three-rowed Chomp table
//! (`gamedb build chomp3 --max N`): one line per column, then a summary.
//!
//! ```text
//! cargo run --release --example chomp3-patterns -- TABLE [R]     (R defaults to N / 3)
//! ```
//!
//! Each line is `r ends k` (the column's end point: `(k, k, r)` is P and no `p` makes
//! `(p, q, r)` P below it), `r periodic preperiod P period T` (from `q = r + P` on, `p − q`
//! repeats with the smallest period `T`, seen at least three times and over at least 64 rows
//! before `q = N`) or `r undetermined` (no period seen clearly within `q ≤ N`: take a larger
//! N). The summary names the first `r` whose period is not 1 (Brouwer, Horváth, Molnár-Sáska
//! and Szabó report r = 120, period 2) and every such `r`.

use gamedb::games::chomp3::{Pattern, View};
use gamedb::Table;

fn main() {
    if let Err(e) = run() {
        eprintln!("chomp3-patterns: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: chomp3-patterns TABLE [R]";
    let path = args.first().ok_or(usage)?;
    let table = Table::open(path).map_err(|e| e.to_string())?;
    table.verify().map_err(|e| e.to_string())?;
    let Some(spec) = table.spec_of::<gamedb::games::chomp3::Chomp3Spec>() else {
        return Err(format!(
            "{path}: holds {}, not a three-rowed Chomp table",
            table.describe()
        ));
    };
    let n = spec.max() as u64;
    let most = match args.get(1) {
        Some(r) => r
            .parse::<u64>()
            .ok()
            .filter(|&r| r <= n)
            .ok_or_else(|| format!("R '{r}': expected 0..={n}; {usage}"))?,
        None => n / 3,
    };
    let entry = |i: u64| table.raw(i);
    let view = View::new(spec.max(), &entry);
    let (mut ends, mut ones, mut undetermined) = (0u64, 0u64, 0u64);
    let mut others = Vec::new();
    for r in 0..=most {
        match view.pattern(r) {
            Pattern::Ends { at } => {
                ends += 1;
                println!("{r} ends {at}");
            }
            Pattern::Periodic { from, period } => {
                if period == 1 {
                    ones += 1;
                } else {
                    others.push(format!("{r} (period {period})"));
                }
                println!("{r} periodic preperiod {} period {period}", from - r);
            }
            Pattern::Undetermined => {
                undetermined += 1;
                println!("{r} undetermined");
            }
        }
    }
    eprintln!(
        "r ≤ {most} in a table of q ≤ {n}: {ends} end, {ones} period 1, {} another period, {undetermined} undetermined",
        others.len()
    );
    eprintln!(
        "first r whose period is not 1: {}",
        others.first().map_or("none", |s| s.as_str())
    );
    eprintln!("every such r: {}", others.join(", "));
    Ok(())
}
