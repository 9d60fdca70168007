//! Times one engine of the Chomp box solver, in memory: the engines make the same table,
//! and the default one per box shape is the one `gamedb build chomp` uses.
//!
//! ```text
//! cargo run --release --example chomp-engines -- --rows R --cols C [--threads T] [--grundy 1] [--engine waves|runs|triangles|transposed]
//! ```
//!
//! Prints the engine, the time, positions per second, the number of P-positions (and with
//! `--grundy 1` the largest value) and a hash of the table bytes (equal hashes: equal tables).

use std::time::Instant;

use gamedb::games::chomp::{Chomp, ChompSpec, Engine};

fn main() {
    if let Err(e) = run() {
        eprintln!("chomp-engines: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut rows, mut cols, mut threads, mut engine) = (None, None, 0usize, None);
    let mut grundy = false;
    let mut i = 0;
    while i < args.len() {
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("{} needs a value", args[i]))?;
        let number = || {
            value
                .parse::<u32>()
                .map_err(|_| format!("{} {value}: expected a number", args[i]))
        };
        match args[i].as_str() {
            "--rows" => rows = Some(number()?),
            "--cols" => cols = Some(number()?),
            "--threads" => threads = number()? as usize,
            "--grundy" => grundy = number()? != 0,
            "--engine" => {
                engine = Some(match value.as_str() {
                    "waves" => Engine::Waves,
                    "runs" => Engine::Runs,
                    "triangles" => Engine::Triangles,
                    "transposed" => Engine::Transposed,
                    _ => {
                        return Err(format!(
                            "--engine {value}: expected waves, runs, triangles or transposed"
                        ))
                    }
                })
            }
            other => {
                return Err(format!(
                    "unknown argument '{other}'; expected --rows R --cols C [--threads T] [--grundy 1] [--engine waves|runs|triangles|transposed]"
                ))
            }
        }
        i += 2;
    }
    let (r, c) = (
        rows.ok_or("--rows is required")?,
        cols.ok_or("--cols is required")?,
    );
    let game = Chomp::new(ChompSpec::new(r, c).map_err(|e| e.to_string())?);
    let engine = engine.unwrap_or(if grundy {
        game.grundy_engine()
    } else {
        game.engine()
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    if grundy {
        let values = pool
            .install(|| game.solve_grundy_with(engine, &()))
            .map_err(|e| e.to_string())?;
        let secs = t0.elapsed().as_secs_f64();
        let n = values.len();
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        println!(
            "{r}x{c} Grundy by {engine:?}: {secs:.2} s, {:.1} M positions/s, {} threads; {} P-positions, largest value {}; values hash {:016x}",
            n as f64 / secs / 1e6,
            pool.current_num_threads(),
            values.iter().filter(|&&v| v == 0).count(),
            values.iter().max().copied().unwrap_or(0),
            xxhash_rust::xxh3::xxh3_64(&bytes)
        );
        return Ok(());
    }
    let bits = pool
        .install(|| game.solve_with(engine, &(), &()))
        .map_err(|e| e.to_string())?;
    let secs = t0.elapsed().as_secs_f64();
    let n = bits.len();
    let p = n - bits.count_ones();
    let bytes = bits.into_bytes();
    println!(
        "{r}x{c} by {engine:?}: {secs:.2} s, {:.1} M positions/s, {} threads; {p} P-positions; table hash {:016x}",
        n as f64 / secs / 1e6,
        pool.current_num_threads(),
        xxhash_rust::xxh3::xxh3_64(&bytes)
    );
    Ok(())
}
