//! Puzzles played against an adversary: the player chooses, the adversary answers with any
//! of the positions the choice may lead to, and the player wants the fewest choices that
//! reach a goal whatever the answers (minimax). The ball-weighing puzzle is one: the weigher
//! chooses a weighing, the balance answers.
//!
//! The value of a position is 0 at a goal, else 1 + the least, over its choices, of the
//! largest value among the choice's answers; [`UNREACHED`] when no choice finishes. Answers
//! lie in earlier levels, so one pass over the levels in order solves everything.
//!
//! The search for a position is iterative deepening on the value: is there a choice whose
//! every answer is worth at most `t − 1`, for `t` from the position's lower bound upwards? The
//! adversary's game may skip a choice only when one of its answers provably needs more than
//! `t − 1` (a counting bound), which keeps the search exhaustive while most positions stop at
//! their first candidate. `t` stops one above the largest finite value of the earlier levels:
//! no choice can be worth more than that and finish.

use std::ops::{ControlFlow, Range};

use rayon::prelude::*;

use crate::format::entries::UNREACHED;
use crate::model::Indexed;
use crate::progress::Progress;
use crate::Result;

/// A puzzle against an adversary over a dense index, as [`solve_against`] sees it.
pub trait Adversary: Indexed + Sync {
    /// The levels in the order they are solved; every answer of a choice of a position lies
    /// in an earlier level. Together they cover the index once.
    fn levels(&self) -> Vec<Range<u64>>;

    /// Whether `i` is a goal (value 0).
    fn is_goal(&self, i: u64) -> bool;

    /// A value `i` cannot beat (0 always will do): the search starts there.
    fn lower_bound(&self, _i: u64) -> u32 {
        0
    }

    /// Calls `f` with the answers the adversary may give to each choice of `i` (their
    /// indices), until `f` breaks. A choice may be left out only when one of its answers
    /// provably needs more than `within` further choices, or when an answer is `i` itself.
    fn choices(&self, i: u64, within: u32, f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>);
}

/// Memory [`solve_against`] needs: one byte a position.
pub fn against_memory(positions: u64) -> u64 {
    positions
}

/// The minimax value of every position, one byte each ([`UNREACHED`] where no choice
/// finishes). Deterministic: each value is a function of the earlier levels alone.
pub fn solve_against<A: Adversary>(game: &A, progress: &dyn Progress) -> Result<Vec<u8>> {
    let mut values = vec![UNREACHED; game.positions() as usize];
    let mut largest = 0u32;
    for level in game.levels() {
        let solved: Vec<u8> = {
            let values = &values;
            (level.start..level.end)
                .into_par_iter()
                .map(|i| value_of(game, values, largest, i))
                .collect()
        };
        for (&v, slot) in solved.iter().zip(&mut values[level.start as usize..]) {
            if v != UNREACHED {
                largest = largest.max(v as u32);
            }
            *slot = v;
        }
        progress.inc(level.end - level.start);
    }
    Ok(values)
}

/// The value of `i` from the values of the earlier levels, whose largest finite value is
/// `largest`.
fn value_of<A: Adversary>(game: &A, values: &[u8], largest: u32, i: u64) -> u8 {
    if game.is_goal(i) {
        return 0;
    }
    let most = (largest + 1).min(UNREACHED as u32 - 1);
    for t in game.lower_bound(i).max(1)..=most {
        let within = t - 1;
        let mut found = false;
        game.choices(i, within, &mut |answers| {
            let all = answers.iter().all(|&a| {
                let v = values[a as usize];
                v != UNREACHED && v as u32 <= within
            });
            if all {
                found = true;
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if found {
            return t as u8;
        }
    }
    UNREACHED
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Guess a number of `1..=n` by asking "is it below k?", the adversary answering: the
    /// position is the size of the range left, the value ⌈log2 n⌉.
    struct Guess(u64);

    impl Indexed for Guess {
        fn positions(&self) -> u64 {
            self.0 + 1
        }
    }

    impl Adversary for Guess {
        fn levels(&self) -> Vec<Range<u64>> {
            (0..=self.0).map(|i| i..i + 1).collect()
        }
        fn is_goal(&self, i: u64) -> bool {
            i == 1
        }
        fn choices(&self, i: u64, _within: u32, f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>) {
            for k in 1..i {
                if f(&[k, i - k]).is_break() {
                    return;
                }
            }
        }
    }

    #[test]
    fn guessing_a_number_takes_the_binary_logarithm() {
        let v = crate::solve::in_pool(2, || solve_against(&Guess(70), &()).unwrap());
        assert_eq!(v[0], UNREACHED);
        for n in 1..=70u64 {
            let want = 64 - (n - 1).leading_zeros();
            assert_eq!(v[n as usize] as u32, want, "{n}");
        }
    }
}
