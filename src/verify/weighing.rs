//! The ball-weighing puzzle: Xiao Renwu's essay, part III (Theorems III.1 and III.2, Lemma
//! III.1, the 12-ball plan) and Dyson 1946 (the same bounds; one good ball given).
//!
//! The essay's formulas lost their signs and subscripts in the text; they are read here as the
//! bounds its cases pin down and Dyson states: `n ≥ 3` balls can be done in `w` weighings
//! exactly when `n ≤ (3^w − 1)/2`, and when heavier or lighter must be told too, exactly when
//! `n ≤ (3^w − 3)/2` (so 12 balls take 3 weighings either way, 13 take 3 only without telling,
//! 14 never 3). The adaptive statements read the exhaustive minimax search of every strategy
//! for each `n` up to [`SEARCHED`]; the plan statements build and check fixed plans.

use rayon::prelude::*;

use super::{Env, Finding, Statement};
use crate::format::entries::UNREACHED;
use crate::format::Solved;
use crate::games::weighing::plan::{essay_twelve, fewest_weighings, most_balls, Plan};
use crate::games::weighing::WeighingSpec;
use crate::games::Spec;
use crate::model::ValueKind;
use crate::Result;

/// Largest `n` the adaptive statements search exhaustively.
pub(crate) const SEARCHED: u32 = 200;
/// Largest `n` the counting statement covers.
const COUNTED: u64 = 1_000_000;
/// Largest `n` whose fixed plan is built and checked.
const PLANNED: u32 = 10_000;

pub(super) fn statements() -> Vec<Statement> {
    vec![
        Statement {
            name: "weighing-iii.1-find",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part III, Theorem III.1; Dyson 1946",
            claim: "for 3 ≤ n ≤ 200 balls, the fewest weighings that always find the odd ball (every adaptive strategy searched) is the least w with n ≤ (3^w − 1)/2, i.e. ⌈log₃(2n + 1)⌉",
            run: find,
        },
        Statement {
            name: "weighing-iii.1-tell",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part III, Theorem III.1 (the strengthened problem); Dyson 1946",
            claim: "for 3 ≤ n ≤ 200 balls, the fewest weighings that always find the odd ball and tell heavier or lighter is the least w with n ≤ (3^w − 3)/2, i.e. ⌈log₃(2n + 3)⌉",
            run: tell,
        },
        Statement {
            name: "weighing-counting",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part III, Theorem III.1 (necessity); Dyson 1946",
            claim: "for 3 ≤ n ≤ 10^6, counting the cases the results must tell apart (after the best first weighing) already needs the weighings of Theorem III.1, both problems",
            run: counting,
        },
        Statement {
            name: "weighing-iii.2",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part III, Theorem III.2 and Lemma III.1",
            claim: "for 3 ≤ n ≤ 10^4, a plan fixed in advance with the fewest weighings of Theorem III.1 finds the odd ball (and, for the strengthened problem, tells heavier or lighter) in all 2n cases",
            run: fixed_plans,
        },
        Statement {
            name: "weighing-essay-twelve",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part III, section 5, Tables 1 and 2",
            claim: "the essay's 12-ball plan (2 5 8 10 | 1 4 7 12; 3 6 9 10 | 2 5 8 12; 1 2 3 12 | 4 5 6 11) finds each of the 24 cases and tells heavier or lighter; left heavy, right heavy, balance means ball 8 heavier",
            run: essay_plan,
        },
        Statement {
            name: "weighing-thirteen",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part III, sections 1 and 3",
            claim: "13 balls: 3 weighings always find the odd ball, but telling heavier or lighter takes 4",
            run: thirteen,
        },
        Statement {
            name: "weighing-fourteen",
            source: "Xiao Renwu, “过年玩几个数学游戏” (New Year maths games), part III, section 1",
            claim: "14 balls cannot be done in 3 weighings (4 are needed, with or without telling)",
            run: fourteen,
        },
        Statement {
            name: "weighing-dyson-genuine",
            source: "Dyson 1946",
            claim: "with one more ball known to be good, for 3 ≤ n ≤ 200, the fewest weighings that find the odd ball and tell heavier or lighter is the least w with n ≤ (3^w − 1)/2",
            run: dyson_genuine,
        },
    ]
}

/// The fewest weighings from the start of `n` balls (`None`: impossible), by the exhaustive
/// search.
fn searched(n: u32, tell: bool, genuine: u32) -> Result<Option<u32>> {
    let spec = WeighingSpec::new(n, tell, genuine)?;
    let Solved::Distances(values) = Spec::new(spec.clone()).solve(ValueKind::Distance, &())? else {
        return Err(crate::Error::internal(
            "the weighing puzzle solves to distances",
        ));
    };
    let v = values[spec.puzzle().index([n, 0, 0]) as usize];
    Ok((v != UNREACHED).then_some(v as u32))
}

/// The searched values of every `n` in `3..=SEARCHED`, for one problem, once per run.
fn search_all(env: &mut Env, tell: bool, genuine: u32) -> Result<std::sync::Arc<Vec<Option<u32>>>> {
    let key = format!(
        "weighing search n = 3..{SEARCHED}{}{}",
        if tell { ", telling" } else { "" },
        if genuine > 0 { ", one good ball" } else { "" }
    );
    env.memo(&key, |progress| {
        progress.set_length((SEARCHED - 2) as u64);
        (3..=SEARCHED)
            .map(|n| {
                progress.inc(1);
                searched(n, tell, genuine)
            })
            .collect()
    })
}

fn against_formula(
    env: &mut Env,
    tell: bool,
    genuine: u32,
    most: fn(u32) -> u64,
) -> Result<Finding> {
    let found = search_all(env, tell, genuine)?;
    let mut f = Finding::default();
    let mut largest = 0;
    for (n, &got) in (3..=SEARCHED).zip(found.iter()) {
        let want = (1..).find(|&w| n as u64 <= most(w)).unwrap_or(0);
        largest = largest.max(got.unwrap_or(0));
        f.case(got == Some(want), || {
            format!(
                "{n} balls: the search finds {}, the formula says {want}",
                got.map_or("no strategy".to_string(), |v| v.to_string())
            )
        });
    }
    f.note = Some(format!(
        "every strategy of each n searched (minimax over the knowledge states); up to {largest} weighings for n ≤ {SEARCHED}"
    ));
    Ok(f)
}

fn find(env: &mut Env) -> Result<Finding> {
    against_formula(env, false, 0, |w| most_balls(w, false))
}

fn tell(env: &mut Env) -> Result<Finding> {
    against_formula(env, true, 0, |w| most_balls(w, true))
}

fn dyson_genuine(env: &mut Env) -> Result<Finding> {
    let mut f = against_formula(env, true, 1, |w| 3u64.pow(w).saturating_sub(1) / 2)?;
    // Beside the claim, the same search without telling (a measured fact).
    let plain = search_all(env, false, 1)?;
    let beyond = (3..=SEARCHED)
        .zip(plain.iter())
        .filter(|&(n, &v)| v != (1..).find(|&w| n as u64 <= 3u64.pow(w).div_ceil(2)))
        .count();
    f.note = Some(format!(
        "{}; without telling, with one good ball, the search gives the least w with n ≤ (3^w + 1)/2 for {} of the {} n",
        f.note.take().unwrap_or_default(),
        SEARCHED as usize - 2 - beyond,
        SEARCHED - 2
    ));
    Ok(f)
}

/// The least `w` for which counting allows `n` balls: some first weighing of `a` against `a`
/// balls leaves at most `3^(w−1)` cases after an imbalance (`2a`, each leaf one case) and
/// after a balance (`2(n − 2a)`, of which the all-balanced leaf may hold both directions of
/// one ball when nothing is told, and none when it must be told).
fn counted(n: u64, tell: bool) -> u32 {
    (1..)
        .find(|&w: &u32| {
            let third = 3u64.pow(w - 1);
            let rest = if tell {
                third.saturating_sub(1)
            } else {
                third + 1
            };
            // 2a ≤ third, 2(n − 2a) ≤ rest, 2a ≤ n: a ≥ (2n − rest)/4.
            let most = (third / 2).min(n / 2);
            let least = (2 * n).saturating_sub(rest).div_ceil(4);
            least <= most
        })
        .unwrap_or(u32::MAX)
}

fn counting(_env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    for tell in [false, true] {
        for n in 3..=COUNTED {
            let (by_count, formula) = (counted(n, tell), fewest_weighings(n, tell));
            f.case(by_count == formula, || {
                format!(
                    "{n} balls{}: counting needs {by_count}, the formula says {formula}",
                    if tell { ", telling" } else { "" }
                )
            });
        }
    }
    f.note = Some(format!(
        "{} values of n, both problems; the search reaches the same counts for n ≤ {SEARCHED}",
        COUNTED - 2
    ));
    Ok(f)
}

fn fixed_plans(_env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let mut cases = 0;
    for tell in [false, true] {
        let all: Vec<(u32, u32, std::result::Result<u64, String>)> = (3..=PLANNED)
            .into_par_iter()
            .map(|n| {
                let d = fewest_weighings(n as u64, tell);
                let plan = Plan::construct(n, tell, d).map_err(|e| e.to_string());
                (n, d, plan.and_then(|p| p.check()))
            })
            .collect();
        for (n, d, checked) in all {
            cases += checked.as_ref().map_or(0, |c| *c);
            f.case(checked.is_ok(), || {
                format!(
                    "{n} balls{}, {d} weighings: {}",
                    if tell { ", telling" } else { "" },
                    checked.err().unwrap_or_default()
                )
            });
        }
    }
    f.note = Some(format!(
        "{} plans built by the orbit construction, {cases} cases simulated",
        2 * (PLANNED - 2)
    ));
    Ok(f)
}

fn essay_plan(_env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let plan = match Plan::from_pans(12, true, essay_twelve()) {
        Ok(p) => p,
        Err(e) => {
            f.case(false, || e.to_string());
            return Ok(f);
        }
    };
    let checked = plan.check();
    f.case(checked == Ok(24), || format!("{checked:?}"));
    // The row the essay quotes: left heavy, right heavy, balance (digits 0, 2, 1).
    let row = plan.table[2 * 3 + 1];
    f.case(
        row.is_some_and(|v| v.ball == 8 && v.heavier == Some(true)),
        || format!("left heavy, right heavy, balance gives {row:?}, not ball 8 heavier"),
    );
    let impossible = plan.table.iter().filter(|r| r.is_none()).count();
    f.note = Some(format!(
        "Table 1 as the worked example lists its pans; Table 2 itself is not in the text, so it is read off the pans (each case's results): 24 rows name a ball, {impossible} are impossible"
    ));
    Ok(f)
}

fn thirteen(_env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let (plain, told) = (searched(13, false, 0)?, searched(13, true, 0)?);
    f.case(plain == Some(3), || format!("without telling: {plain:?}"));
    f.case(told == Some(4), || format!("telling: {told:?}"));
    Ok(f)
}

fn fourteen(_env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    for tell in [false, true] {
        let v = searched(14, tell, 0)?;
        f.case(v == Some(4), || format!("14 balls, tell {tell}: {v:?}"));
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting_agrees_with_the_search_where_both_reach() {
        for n in 3..=60 {
            for tell in [false, true] {
                assert_eq!(
                    Some(counted(n as u64, tell)),
                    searched(n, tell, 0).unwrap(),
                    "{n}"
                );
            }
        }
    }
}
