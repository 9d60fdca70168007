//! Nim and bounded Nim: Bouton (1901); Xiao Renwu, “过年玩几个数学游戏”, part II; the Little
//! Match Girl story "第九夜".

use super::{Env, Finding, Statement};
use crate::game::format_numbers;
use crate::games::nim::NimSpec;
use crate::games::Spec;
use crate::lookup::Table;
use crate::model::ValueKind;
use crate::{Outcome, Result};

/// Tables for the general statements: 5 heaps of 0..=31 (376,992 positions) for unlimited
/// takes, 4 heaps of 0..=31 for each bounded K.
const GENERAL: (u32, u32) = (5, 31);
const BOUNDED: (u32, u32) = (4, 31);
const BOUNDS: [u32; 6] = [1, 2, 3, 4, 5, 7];

pub(super) fn statements() -> Vec<Statement> {
    vec![
        Statement {
            name: "nim-bouton",
            source: "Bouton 1901; Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part II, game B; “第九夜 · 卖火柴的小女孩的游戏” (the Little Match Girl story, ninth night)",
            claim: "normal play, take any: P iff h1 xor ... xor hs = 0",
            run: |env| rule(env, GENERAL, None, false),
        },
        Statement {
            name: "nim-misere",
            source: "Bouton 1901 (misère); Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part II, game A",
            claim: "misère, take any: P iff (some heap >= 2 and xor = 0) or (all heaps <= 1 and an odd number of 1s)",
            run: |env| rule(env, GENERAL, None, true),
        },
        Statement {
            name: "nim-bounded-normal",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part II, Lemma II.2",
            claim: "normal play, take 1..K: P iff (h1 mod (K+1)) xor ... xor (hs mod (K+1)) = 0",
            run: |env| bounded(env, false),
        },
        Statement {
            name: "nim-bounded-misere",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part II, Corollary II.1 (its endgame part reconstructed)",
            claim: "misère, take 1..K: if some h mod (K+1) >= 2, P iff the xor of remainders is 0; else P iff an odd number of remainders are 1",
            run: |env| bounded(env, true),
        },
        Statement {
            name: "nim-seed-002-xor",
            source: "“第九夜 · 卖火柴的小女孩的游戏” (the Little Match Girl story, ninth night): the program's check",
            claim: "all 4,352 positions of 2 and of 3 heaps (ordered, each 0..=15) agree with the xor rule",
            run: seed_002_xor,
        },
        Statement {
            name: "nim-seed-002-stories",
            source: "“第九夜 · 卖火柴的小女孩的游戏” (the Little Match Girl story, ninth night): the story's positions",
            claim: "(1,2,3) is P; (1,2,4) is N and its winning move leaves (1,2,3); (a,b,a xor b) is P; (1,2,4,7) is P",
            run: seed_002_stories,
        },
        Statement {
            name: "nim-seed-001-board",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part II: the single-row board",
            claim: "8 cells, coins on cells 1,3,5 from the left = heaps (7,5,3), misère: N (first player wins)",
            run: seed_001_board,
        },
        Statement {
            name: "nim-grundy",
            source: "Sprague 1935, Grundy 1939 (Sprague–Grundy theory)",
            claim: "normal play, take 1..K (or any): the Grundy value is the xor of h mod (K+1) (of h)",
            run: grundy,
        },
    ]
}

fn nim(
    env: &mut Env,
    (s, h): (u32, u32),
    take: Option<u32>,
    misere: bool,
    kind: ValueKind,
) -> Result<std::sync::Arc<Table>> {
    env.table(&Spec::new(NimSpec::new(s, h, take, misere)?), kind)
}

/// The P-rule of the statements for take bound `take` (None: any) and play `misere`.
fn claimed_p(heaps: &[u32], take: Option<u32>, misere: bool) -> bool {
    let r: Vec<u32> = heaps
        .iter()
        .map(|&x| take.map_or(x, |k| x % (k + 1)))
        .collect();
    let xor = r.iter().fold(0, |a, &b| a ^ b);
    if misere && r.iter().all(|&x| x <= 1) {
        r.iter().filter(|&&x| x == 1).count() % 2 == 1
    } else {
        xor == 0
    }
}

/// Checks `claimed_p` on every position of a table, smallest index (fewest counters) first.
fn check_all(t: &Table, take: Option<u32>, misere: bool, f: &mut Finding) {
    let rules = t.rules();
    for i in 0..t.len() {
        let heaps = rules.unrank(i);
        let got = t.outcome(i);
        let claim = Outcome::from_win(!claimed_p(&heaps, take, misere));
        f.case(got == claim, || {
            format!(
                "{}{}: table says {}, rule says {}",
                format_numbers(&heaps),
                take.map_or(String::new(), |k| format!(" (K={k})")),
                got.as_str(),
                claim.as_str()
            )
        });
    }
}

fn rule(env: &mut Env, size: (u32, u32), take: Option<u32>, misere: bool) -> Result<Finding> {
    let t = nim(env, size, take, misere, ValueKind::Outcome)?;
    let mut f = Finding::default();
    check_all(&t, take, misere, &mut f);
    Ok(f)
}

fn bounded(env: &mut Env, misere: bool) -> Result<Finding> {
    let mut f = Finding::default();
    for k in BOUNDS {
        let t = nim(env, BOUNDED, Some(k), misere, ValueKind::Outcome)?;
        check_all(&t, Some(k), misere, &mut f);
    }
    Ok(f)
}

fn seed_002_xor(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let two = nim(env, (2, 15), None, false, ValueKind::Outcome)?;
    for a in 0..16 {
        for b in 0..16 {
            let got = two.outcome_of(&[a, b])?;
            let claim = Outcome::from_win(a ^ b != 0);
            f.case(got == claim, || {
                format!("({a},{b}): table says {}", got.as_str())
            });
        }
    }
    let three = nim(env, (3, 15), None, false, ValueKind::Outcome)?;
    for a in 0..16 {
        for b in 0..16 {
            for c in 0..16 {
                let got = three.outcome_of(&[a, b, c])?;
                let claim = Outcome::from_win(a ^ b ^ c != 0);
                f.case(got == claim, || {
                    format!("({a},{b},{c}): table says {}", got.as_str())
                });
            }
        }
    }
    Ok(f)
}

fn seed_002_stories(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let three = nim(env, (3, 15), None, false, ValueKind::Outcome)?;
    let p123 = three.outcome_of(&[1, 2, 3])?;
    f.case(p123 == Outcome::P, || {
        format!("(1,2,3) is {}", p123.as_str())
    });
    let a = three.query("1,2,4")?;
    let leaves: Vec<String> = a
        .winning_moves()
        .iter()
        .map(|m| {
            let mut l = m.numbers.clone();
            l.sort_unstable();
            format_numbers(&l)
        })
        .collect();
    f.case(
        a.outcome() == Some(Outcome::N) && leaves == ["1,2,3"],
        || {
            format!(
                "(1,2,4) is {} with winning moves leaving {:?}",
                a.outcome().map_or("?", |o| o.as_str()),
                leaves
            )
        },
    );
    for x in 0..16 {
        for y in 0..16 {
            let got = three.outcome_of(&[x, y, x ^ y])?;
            f.case(got == Outcome::P, || {
                format!("({x},{y},{}) is {}", x ^ y, got.as_str())
            });
        }
    }
    let four = nim(env, (4, 7), None, false, ValueKind::Outcome)?;
    let got = four.outcome_of(&[1, 2, 4, 7])?;
    f.case(got == Outcome::P, || {
        format!("(1,2,4,7) is {}", got.as_str())
    });
    Ok(f)
}

fn seed_001_board(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    // Cells are labelled 0 from the right: cell c (1-based from the left) of 8 is label 8 - c.
    let heaps: Vec<u32> = [1, 3, 5].iter().map(|c| 8 - c).collect();
    let t = nim(env, (3, 7), None, true, ValueKind::Outcome)?;
    let got = t.outcome_of(&heaps)?;
    f.case(got == Outcome::N, || {
        format!("({}) misère is {}", format_numbers(&heaps), got.as_str())
    });
    Ok(f)
}

fn grundy(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    for take in [None, Some(3)] {
        let t = nim(env, BOUNDED, take, false, ValueKind::Grundy)?;
        let rules = t.rules();
        for i in 0..t.len() {
            let heaps = rules.unrank(i);
            let claim = heaps
                .iter()
                .fold(0, |acc, &x| acc ^ take.map_or(x, |k| x % (k + 1)));
            let got = t.grundy(i).unwrap_or(u32::MAX);
            f.case(got == claim, || {
                format!(
                    "{}: Grundy value {got}, rule says {claim}",
                    format_numbers(&heaps)
                )
            });
        }
    }
    Ok(f)
}
