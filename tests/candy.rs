//! The candy game: the solver against an independent brute force over real counts.

mod common;

use std::collections::HashMap;

use gamedb::game::Rules;
use gamedb::games::candy::{Candy, CandySpec, WinRule};
use gamedb::solve::solve_outcomes;
use gamedb::Outcome;

/// The candy game over real counts (left, mover's total, opponent's total).
fn candy_wins(
    left: u32,
    mine: u32,
    theirs: u32,
    k: u32,
    win: WinRule,
    memo: &mut HashMap<(u32, u32, u32), bool>,
) -> bool {
    if left == 0 {
        let even = mine % 2 == 0;
        return match win {
            WinRule::Even => even,
            WinRule::Odd => !even,
        };
    }
    if let Some(&v) = memo.get(&(left, mine, theirs)) {
        return v;
    }
    let wins = (1..=left.min(k)).any(|t| !candy_wins(left - t, theirs, mine + t, k, win, memo));
    memo.insert((left, mine, theirs), wins);
    wins
}

#[test]
fn candy_engine_matches_brute_force() {
    for k in 1..=5 {
        for win in [WinRule::Even, WinRule::Odd] {
            let spec = CandySpec::new(41, k, win).unwrap();
            let game = Candy::new(spec.clone());
            let bits = solve_outcomes(&game, &()).unwrap();
            let mut memo = HashMap::new();
            for n in (1..=41).step_by(2) {
                for left in 0..=n {
                    for mine in 0..=n - left {
                        let theirs = n - left - mine;
                        let pos = [left, mine, theirs];
                        game.check(&pos).unwrap();
                        let expect =
                            Outcome::from_win(candy_wins(left, mine, theirs, k, win, &mut memo));
                        assert_eq!(bits.outcome(game.rank(&pos)), expect, "{spec:?} {pos:?}");
                    }
                }
            }
        }
    }
}
