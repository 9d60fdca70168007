//! The two-player engine on MPI processes (`mpirun -np K gamedb build GAME ...`, the `mpi`
//! feature), over loopback: tic-tac-toe, Quixo 3×3 and Connect Four 4×4 at 1, 2 and 4
//! processes give the table bytes of the plain one-process build; the bytes and messages each
//! tier reports are what the pieces sent hold (a word a position, a word a move inside the
//! tier, two header words, to each other process), and the moves inside a tier are the same
//! at any process count; what cannot be spread is refused with one line.
#![cfg(feature = "mpi")]

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{gamedb_ok, json, TempDir};

/// Runs `gamedb build` as `np` MPI processes over loopback (oversubscribed: the machine may
/// have fewer cores), one thread each, into `out`.
fn mpirun(np: usize, out: &Path, game: &str) -> Output {
    mpirun_with(np, out, game, "")
}

/// [`mpirun`] with `extra` arguments.
fn mpirun_with(np: usize, out: &Path, game: &str, extra: &str) -> Output {
    let line = format!(
        "-np {np} --oversubscribe --allow-run-as-root {} build {game} --json --quiet \
         --threads 1 --out {} {extra}",
        env!("CARGO_BIN_EXE_gamedb"),
        out.display()
    );
    Command::new("mpirun")
        .args(line.split_whitespace())
        .env("OMPI_MCA_btl_tcp_if_include", "lo")
        .output()
        .expect("mpirun (openmpi-bin) is installed")
}

/// The one file a build wrote into `dir`.
fn table_bytes(dir: &Path) -> Vec<u8> {
    let files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "gtab"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    std::fs::read(&files[0]).unwrap()
}

fn num(v: &serde_json::Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("a number: {v}"))
}

#[test]
fn one_two_and_four_processes_write_the_bytes_of_one() {
    for game in [
        "mnk --rows 3 --cols 3 --k 3",
        "quixo --size 3",
        "connect4 --cols 4 --rows 4",
    ] {
        let single = TempDir::new("standing-mpi-single");
        let line = format!("build {game} --json --quiet --out {}", single.arg());
        let args: Vec<&str> = line.split_whitespace().collect();
        let plain = json(&gamedb_ok(&args));
        let want = table_bytes(single.path());
        let mut edges_at_one: Option<Vec<(u64, u64)>> = None;
        for np in [1, 2, 4] {
            let dir = TempDir::new(&format!("standing-mpi-{np}"));
            let o = mpirun(np, dir.path(), game);
            assert!(
                o.status.success(),
                "{game} at {np}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(table_bytes(dir.path()) == want, "{game}: {np} processes");
            let got = json(&String::from_utf8_lossy(&o.stdout));
            assert_eq!(got["processes"], np, "{got}");
            assert_eq!(got["positions"], plain["positions"]);
            assert_eq!(got["bytes"], plain["bytes"]);
            let tiers = got["tiers"].as_array().unwrap();
            let positions: u64 = tiers.iter().map(|t| num(&t["positions"])).sum();
            assert_eq!(positions, num(&plain["positions"]), "{game}");
            let np = np as u64;
            let mut bytes = 0;
            for t in tiers {
                let words = num(&t["positions"]) + num(&t["edges"]) + 2 * np;
                assert_eq!(
                    num(&t["bytes"]),
                    8 * words * (np - 1),
                    "{game} at {np}: {t}"
                );
                assert_eq!(num(&t["messages"]), np * (np - 1));
                assert!(num(&t["largest_piece"]) * np >= 8 * words);
                bytes += num(&t["bytes"]);
            }
            assert_eq!(num(&got["exchanged_bytes"]), bytes);
            let edges: Vec<(u64, u64)> = tiers
                .iter()
                .map(|t| (num(&t["edges"]), num(&t["levels"])))
                .collect();
            match &edges_at_one {
                None => edges_at_one = Some(edges),
                Some(one) => {
                    assert_eq!(&edges, one, "{game}: moves inside tiers and levels at {np}")
                }
            }
        }
        let edges = edges_at_one.unwrap();
        // Quixo has moves that stay in their tier; in tic-tac-toe and Connect Four every move
        // adds a mark or a disc.
        assert_eq!(
            edges.iter().any(|e| e.0 > 0),
            game.starts_with("quixo"),
            "{game}"
        );
        // Tic-tac-toe's last tier is the empty board alone, a tie in 9.
        if game.starts_with("mnk") {
            assert_eq!(edges.last().unwrap().1, 10, "{game}");
        }
    }
}

/// Pieces larger than a round of the all-gather go in several rounds (here of 300 words
/// from each process), to the same bytes.
#[test]
fn an_exchange_in_many_rounds_gives_the_same_bytes() {
    let game = "quixo --size 3";
    let single = TempDir::new("standing-mpi-rounds-1");
    let line = format!("build {game} --quiet --out {}", single.arg());
    gamedb_ok(&line.split_whitespace().collect::<Vec<_>>());
    for np in [2, 3] {
        let dir = TempDir::new(&format!("standing-mpi-rounds-{np}"));
        let o = mpirun_with(np, dir.path(), game, "--round-words 300");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let got = json(&String::from_utf8_lossy(&o.stdout));
        let largest = got["tiers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| num(&t["largest_piece"]))
            .max()
            .unwrap();
        assert!(largest > 8 * 900, "{largest} bytes: several rounds");
        assert!(
            table_bytes(dir.path()) == table_bytes(single.path()),
            "{np}"
        );
    }
}

#[test]
fn what_cannot_be_spread_is_refused_in_one_line() {
    let dir = TempDir::new("standing-mpi-refused");
    for (game, needle) in [
        ("nim --heaps 3 --max-heap 7", "expected a two-player game"),
        (
            "mnk --rows 3 --cols 3 --k 3 --resume",
            "expected a build without --resume",
        ),
    ] {
        let o = mpirun(2, dir.path(), game);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{game}: {err}");
        assert!(err.contains(needle), "{game}: {err}");
        assert!(!err.contains('\''), "{game}: {err}");
    }
    assert!(std::fs::read_dir(dir.path()).unwrap().all(|e| e
        .unwrap()
        .path()
        .extension()
        .is_none_or(|e| e != "gtab")));
}
