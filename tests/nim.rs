//! Bounded Nim: the solvers against an independent brute force (normal and misère play,
//! outcomes and Grundy values), a large table against the XOR rule, and Grundy tables through
//! the command line.

mod common;

use std::collections::HashMap;
use std::ops::ControlFlow;

use common::*;
use gamedb::game::Rules;
use gamedb::games::nim::{Nim, NimSpec};
use gamedb::model::Game;
use gamedb::model::Indexed;
use gamedb::solve::{solve_grundy, solve_outcomes, solve_outcomes_retro};
use gamedb::{Outcome, Spec, Table, ValueKind};

/// Nim by plain recursion over ordered heap tuples: true when the mover wins.
fn nim_wins(h: &mut Vec<u32>, take: u32, misere: bool, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if let Some(&v) = memo.get(h.as_slice()) {
        return v;
    }
    let mut any_move = false;
    let mut wins = false;
    'outer: for i in 0..h.len() {
        for t in 1..=h[i].min(take) {
            any_move = true;
            h[i] -= t;
            let child = nim_wins(h, take, misere, memo);
            h[i] += t;
            if !child {
                wins = true;
                break 'outer;
            }
        }
    }
    if !any_move {
        wins = misere;
    }
    memo.insert(h.clone(), wins);
    wins
}

fn nim_grundy(h: &mut Vec<u32>, take: u32, memo: &mut HashMap<Vec<u32>, u32>) -> u32 {
    if let Some(&v) = memo.get(h.as_slice()) {
        return v;
    }
    let mut seen = Vec::new();
    for i in 0..h.len() {
        for t in 1..=h[i].min(take) {
            h[i] -= t;
            seen.push(nim_grundy(h, take, memo));
            h[i] += t;
        }
    }
    let g = (0..).find(|v| !seen.contains(v)).unwrap();
    memo.insert(h.clone(), g);
    g
}

#[test]
fn nim_engine_matches_brute_force() {
    for (s, h) in [(1u32, 9u32), (2, 7), (3, 5), (4, 3)] {
        for take in [None, Some(1), Some(2), Some(3)] {
            for misere in [false, true] {
                let spec = NimSpec::new(s, h, take, misere).unwrap();
                let game = Nim::new(spec.clone());
                let pull = solve_outcomes(&game, &()).unwrap();
                let push = solve_outcomes_retro(&game, &()).unwrap();
                let mut memo = HashMap::new();
                for t in tuples(s as usize, h) {
                    let i = game.rank(&t);
                    let expect = Outcome::from_win(nim_wins(
                        &mut t.clone(),
                        take.unwrap_or(u32::MAX),
                        misere,
                        &mut memo,
                    ));
                    assert_eq!(pull.outcome(i), expect, "pull {spec:?} {t:?}");
                    assert_eq!(push.outcome(i), expect, "push {spec:?} {t:?}");
                }
                if !misere {
                    let g = solve_grundy(&game, &()).unwrap();
                    let mut memo = HashMap::new();
                    for t in tuples(s as usize, h) {
                        let expect =
                            nim_grundy(&mut t.clone(), take.unwrap_or(u32::MAX), &mut memo);
                        assert_eq!(g[game.rank(&t) as usize] as u32, expect, "{spec:?} {t:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn nim_random_positions_of_a_large_table_follow_xor() {
    let spec = Spec::new(NimSpec::new(6, 20, None, false).unwrap());
    let t = table(&spec, ValueKind::Outcome);
    let mut rng = Rng(12345);
    for _ in 0..20000 {
        let h: Vec<u32> = (0..6).map(|_| rng.below(21) as u32).collect();
        let x = h.iter().fold(0, |a, &b| a ^ b);
        assert_eq!(
            t.outcome_of(&h).unwrap(),
            Outcome::from_win(x != 0),
            "{h:?}"
        );
    }
    // Level order: the empty position is index 0 and every child ranks lower.
    let game = Nim::new(NimSpec::new(6, 20, None, false).unwrap());
    assert_eq!(game.rank(&[0, 0, 0, 0, 0, 0]), 0);
    for i in (0..game.positions()).step_by(997) {
        let _ = game.children(i, |c| {
            assert!(c < i);
            ControlFlow::Continue(())
        });
    }
}

#[test]
fn grundy_table_round_trip() {
    let dir = cli_build("grundy", "nim --heaps 3 --max-heap 20 --grundy");
    let file = dir.join("nim-3x20-grundy.gtab");
    let t = Table::open(&file).unwrap();
    assert_eq!(t.value_kind(), ValueKind::Grundy);
    let a = t.query("7,9,20").unwrap();
    assert_eq!(a.grundy(), Some(7 ^ 9 ^ 20));
    let answer = json(&gamedb_ok(&["query", &file, "3,5", "--json"]));
    assert_eq!(answer["grundy"], 6, "{answer}");
}
