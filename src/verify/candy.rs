//! The candy game: Xiao Renwu, “过年玩几个数学游戏”, part I.

use super::{Env, Finding, Statement};
use crate::games::candy::{CandySpec, WinRule};
use crate::games::Spec;
use crate::lookup::Table;
use crate::model::ValueKind;
use crate::{Outcome, Result};

/// Largest total checked: every state of every odd total up to this.
const N: u32 = 2001;
/// Largest `k` whose period is reported.
const PERIOD_K: u32 = 12;

pub(super) fn statements() -> Vec<Statement> {
    vec![
        Statement {
            name: "candy-lemma-1.1",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part I, Lemma I.1",
            claim: "even rule, k=3: mover wins iff m≡2,3,6,7 (mod 8), or m≡1,4 and a odd, or m≡0,5 and a even",
            run: |env| lemma(env, WinRule::Even),
        },
        Statement {
            name: "candy-theorem-1.1",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part I, Theorem I.1",
            claim: "even rule, k=3, a=b=0: first player wins iff n≡3,5,7 (mod 8); n≡1: second player (n=13: first)",
            run: |env| theorem(env, WinRule::Even),
        },
        Statement {
            name: "candy-lemma-1.2",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part I, Lemma I.2",
            claim: "odd rule, k=3: mover wins iff m≡2,3,6,7 (mod 8), or m≡1,4 and a even, or m≡0,5 and a odd",
            run: |env| lemma(env, WinRule::Odd),
        },
        Statement {
            name: "candy-theorem-1.2",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part I, Theorem I.2",
            claim: "odd rule, k=3, a=b=0: first player wins iff n≡1,3,7 (mod 8); n≡5: second player",
            run: |env| theorem(env, WinRule::Odd),
        },
        Statement {
            name: "candy-periods",
            source: "beyond Xiao Renwu, “过年玩几个数学游戏” (New Year maths games): measured, no claim attached",
            claim: "for each k the outcome of (m, a mod 2) is eventually periodic in m (period reported)",
            run: periods,
        },
    ]
}

fn table(env: &mut Env, k: u32, win: WinRule) -> Result<std::sync::Arc<Table>> {
    let spec = Spec::new(CandySpec::new(N, k, win)?);
    env.table(&spec, ValueKind::Outcome)
}

/// States reachable in games with odd totals up to N: (m, a parity) for m < N, and (N, even).
fn states() -> impl Iterator<Item = (u32, u32)> {
    (0..=N)
        .flat_map(|m| (0..2).map(move |a| (m, a)))
        .filter(|&(m, a)| m < N || a == 0)
}

fn lemma(env: &mut Env, win: WinRule) -> Result<Finding> {
    let t = table(env, 3, win)?;
    let mut f = Finding::default();
    for (m, a) in states() {
        let a_odd = a == 1;
        // Under the odd rule the parity conditions swap.
        let parity_ok = |odd_wins: bool| {
            if win == WinRule::Even {
                a_odd == odd_wins
            } else {
                a_odd != odd_wins
            }
        };
        let claim = match m % 8 {
            2 | 3 | 6 | 7 => true,
            1 | 4 => parity_ok(true),
            _ => parity_ok(false),
        };
        let got = t.outcome(2 * m as u64 + a as u64) == Outcome::N;
        f.case(got == claim, || {
            format!(
                "m={m}, a {}: table says {}, lemma says {}",
                if a_odd { "odd" } else { "even" },
                Outcome::from_win(got).as_str(),
                Outcome::from_win(claim).as_str()
            )
        });
    }
    Ok(f)
}

fn theorem(env: &mut Env, win: WinRule) -> Result<Finding> {
    let t = table(env, 3, win)?;
    let mut f = Finding::default();
    for n in (1..=N).step_by(2) {
        let claim = match win {
            WinRule::Even => matches!(n % 8, 3 | 5 | 7),
            WinRule::Odd => matches!(n % 8, 1 | 3 | 7),
        };
        let got = t.outcome_of(&[n, 0, 0])? == Outcome::N;
        f.case(got == claim, || {
            format!(
                "n={n}: table says the {} player wins, theorem says the {}",
                if got { "first" } else { "second" },
                if claim { "first" } else { "second" }
            )
        });
    }
    Ok(f)
}

/// Smallest period of `seq` (with its preperiod) that holds to the end of the range, seen at
/// least four times, and starting in the first half of the range.
fn eventual_period<T: PartialEq>(seq: &[T]) -> Option<(usize, usize)> {
    let len = seq.len();
    (1..=len / 4).find_map(|p| {
        // The latest index where the pattern breaks decides the preperiod.
        let start = (0..len - p)
            .rev()
            .find(|&i| seq[i] != seq[i + p])
            .map_or(0, |i| i + 1);
        (len - start >= 4 * p && start <= len / 2).then_some((start, p))
    })
}

fn periods(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let mut found = Vec::new();
    for win in [WinRule::Even, WinRule::Odd] {
        for k in 1..=PERIOD_K {
            let t = table(env, k, win)?;
            let seq: Vec<(Outcome, Outcome)> = (0..N as u64)
                .map(|m| (t.outcome(2 * m), t.outcome(2 * m + 1)))
                .collect();
            let p = eventual_period(&seq);
            f.case(p.is_some(), || {
                format!("{} rule, k={k}: no period within m < {N}", win.name())
            });
            if let Some((start, p)) = p {
                found.push(format!("{} k={k}: period {p} from m={start}", win.name()));
            }
        }
    }
    f.note = Some(found.join("; "));
    Ok(f)
}

#[cfg(test)]
mod tests {
    #[test]
    fn period_finder() {
        let s: Vec<u8> = (0..100)
            .map(|i| if i < 5 { 9 } else { (i % 3) as u8 })
            .collect();
        assert_eq!(super::eventual_period(&s), Some((5, 3)));
        let s: Vec<u8> = (0..100).map(|i| (i % 4) as u8).collect();
        assert_eq!(super::eventual_period(&s), Some((0, 4)));
        let s: Vec<u32> = (0..100).collect();
        assert_eq!(super::eventual_period(&s), None);
    }
}
