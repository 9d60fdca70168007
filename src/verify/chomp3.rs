//! Three-rowed Chomp far out: Brouwer, Horváth, Molnár-Sáska and Szabó (INTEGERS 5, 2005),
//! Zeilberger (2001), Brouwer's Chomp page, OEIS A029899–A029902 and Sheiner (2026), checked
//! against the `chomp3` table of every `q ≤` [`N`] (and the 3×200 box of the Chomp
//! statements). Each check reads the table through [`View`], as queries do.

use std::sync::Arc;

use super::{Env, Finding, Statement};
use crate::games::chomp::ChompSpec;
use crate::games::chomp3::{Chomp3Spec, Pattern, View};
use crate::games::Spec;
use crate::lookup::Table;
use crate::model::ValueKind;
use crate::{Outcome, Result};

/// The longest second row of the table the statements read (solved in well under a second;
/// the statements together take a few seconds).
pub(super) const N: u32 = 10_000;
/// The box compared position by position.
const BOX: (u32, u32) = (3, 200);
/// Columns whose pattern of `p − q` is determined.
const PERIOD_R: u64 = 3000;

/// OEIS A029899 as published, its b-file (n = 0..400): P-positions of three-rowed Chomp with
/// `p ≤ n`.
const A029899: &str = include_str!("data/a029899.txt");
/// Gabriel Nivasch's census as quoted on Brouwer's Chomp page: every `r ≤ 10000` whose column
/// of `p − q` has a period other than 1, by period.
const NIVASCH: &str = include_str!("data/nivasch-periods.txt");
/// OEIS A029900 as published (offset 0): `f(n, n)`.
const A029900: [u64; 56] = [
    1, 3, 4, 6, 8, 10, 11, 13, 15, 16, 18, 20, 21, 24, 25, 27, 28, 30, 32, 34, 35, 37, 39, 40, 42,
    44, 45, 48, 49, 51, 53, 54, 56, 57, 59, 60, 63, 64, 66, 68, 70, 72, 73, 74, 76, 78, 80, 82, 83,
    85, 87, 89, 88, 92, 93, 95,
];
/// OEIS A029901 as published: the end points `k` with `(k, k, r)` P, increasing.
const A029901: [u64; 41] = [
    2, 5, 7, 9, 12, 14, 17, 19, 22, 23, 26, 29, 31, 33, 36, 38, 41, 43, 46, 47, 50, 52, 55, 58, 61,
    62, 65, 67, 69, 71, 75, 77, 79, 81, 84, 86, 90, 91, 94, 97, 99,
];
/// OEIS A029902 as published: the third rows `r` of those P-positions, increasing.
const A029902: [u64; 41] = [
    1, 3, 4, 6, 8, 10, 12, 13, 15, 16, 18, 20, 21, 23, 25, 27, 29, 30, 32, 33, 35, 37, 39, 41, 43,
    44, 46, 47, 49, 50, 52, 54, 55, 57, 59, 61, 63, 64, 66, 68, 70,
];

pub(super) fn statements() -> Vec<Statement> {
    vec![
        Statement {
            name: "chomp3-box-3x200",
            source: "Brouwer, Horváth, Molnár-Sáska, Szabó 2005 (f(q, r) decides three-rowed Chomp); Gale 1974 (the rules)",
            claim: "the three-row table f(q, r) gives every position of the 3×200 box the outcome the box table stores",
            run: box_agreement,
        },
        Statement {
            name: "chomp3-a029899",
            source: "OEIS A029899 (its b-file, n = 0..400)",
            claim: "the number of P-positions (p, q, r) with p ≤ n is A029899(n)",
            run: a029899,
        },
        Statement {
            name: "chomp3-a029900",
            source: "OEIS A029900 (terms n = 0..55)",
            claim: "f(n, n) = A029900(n): (A029900(n), n, n) is P",
            run: a029900,
        },
        Statement {
            name: "chomp3-a029901-a029902",
            source: "OEIS A029901 and A029902 (41 terms each)",
            claim: "the end points k with (k, k, r) P are A029901, and their third rows r are A029902, both in increasing order",
            run: end_points,
        },
        Statement {
            name: "chomp3-brouwer-r-le-5",
            source: "Brouwer's Chomp page; Zeilberger 2001",
            claim: "for every q ≤ 10000: f(q, 0) = q + 1; f(q, 1) only (3,1,1), (2,2,1); f(q, 2) = q + 2; f(q, 3) only (6,3,3), (7,4,3), (5,5,3); f(q, 4) only (8,4,4), (9,5,4), (10,6,4), (7,7,4); f(q, 5) = (10,5,5), (9,6,5), then q + 4",
            run: brouwer_families,
        },
        Statement {
            name: "chomp3-sheiner",
            source: "Sheiner 2026 (arXiv 2605.23837)",
            claim: "every 3×n rectangle, 1 ≤ n ≤ 10000, has exactly one winning bite, never in row 1, in row 2 exactly when n is a value of f(j, j) (A029900)",
            run: sheiner,
        },
        Statement {
            name: "chomp3-periods",
            source: "Brouwer, Horváth, Molnár-Sáska, Szabó 2005 (p − q is eventually periodic in q; the first period other than 1 is at r = 120, period 2)",
            claim: "for every r ≤ 3000, column r of p − q ends or becomes periodic within q ≤ 10000, and the first r whose period is not 1 is 120, with period 2",
            run: periods,
        },
        Statement {
            name: "chomp3-nivasch",
            source: "Brouwer's Chomp page, quoting Gabriel Nivasch's census of periods for r ≤ 10000",
            claim: "for every r ≤ 3000, column r of p − q has a period other than 1 exactly when Nivasch lists r, and then the period he lists (2, 3, 4 or 9)",
            run: nivasch,
        },
    ]
}

fn table(env: &mut Env) -> Result<Arc<Table>> {
    env.table(&Spec::new(Chomp3Spec::new(N)?), ValueKind::Extension)
}

/// Runs `f` on the table's view.
fn with_view<T>(env: &mut Env, f: impl FnOnce(&View) -> T) -> Result<T> {
    let t = table(env)?;
    let entry = |i: u64| t.raw(i);
    Ok(f(&View::new(N, &entry)))
}

fn box_agreement(env: &mut Env) -> Result<Finding> {
    let boxed = env.table(
        &Spec::new(ChompSpec::new(BOX.0, BOX.1)?),
        ValueKind::Outcome,
    )?;
    let rules = boxed.rules();
    with_view(env, |v| {
        let mut f = Finding::default();
        let mut p = 0;
        for i in 0..boxed.len() {
            let rows = rules.unrank(i);
            let row = |k: usize| rows.get(k).copied().unwrap_or(0) as u64;
            let pos = (row(0), row(1), row(2));
            let (got, want) = (v.outcome(pos), boxed.outcome(i));
            p += (want == Outcome::P) as u64;
            f.case(got == want, || {
                format!(
                    "({},{},{}): the box says {}, f says {}",
                    pos.0,
                    pos.1,
                    pos.2,
                    want.as_str(),
                    got.as_str()
                )
            });
        }
        f.note = Some(format!(
            "{p} P-positions among the {} positions of the box",
            boxed.len()
        ));
        f
    })
}

fn a029899(env: &mut Env) -> Result<Finding> {
    with_view(env, |v| {
        let counts = v.p_counts();
        let mut f = Finding::default();
        for (n, want) in super::b_file(A029899) {
            let n = n as usize;
            f.case(counts[n] == want, || {
                format!("n = {n}: {} P-positions, A029899 says {want}", counts[n])
            });
        }
        f.note = Some(format!(
            "a(100) = {}, a(1000) = {}, a({N}) = {}",
            counts[100], counts[1000], counts[N as usize]
        ));
        f
    })
}

fn a029900(env: &mut Env) -> Result<Finding> {
    with_view(env, |v| {
        let diag = v.diagonal();
        let mut f = Finding::default();
        for (n, &want) in A029900.iter().enumerate() {
            f.case(diag[n] == Some(want), || {
                format!("n = {n}: f(n, n) = {:?}, A029900 says {want}", diag[n])
            });
        }
        f
    })
}

fn end_points(env: &mut Env) -> Result<Finding> {
    with_view(env, |v| {
        let ends = v.end_points();
        let mut ks: Vec<u64> = ends.iter().map(|&(_, k)| k).collect();
        ks.sort_unstable();
        let rs: Vec<u64> = ends.iter().map(|&(r, _)| r).collect();
        let mut f = Finding::default();
        for i in 0..A029901.len() {
            f.case(ks.get(i) == Some(&A029901[i]), || {
                format!(
                    "term {}: end point {:?}, A029901 says {}",
                    i + 1,
                    ks.get(i),
                    A029901[i]
                )
            });
            f.case(rs.get(i) == Some(&A029902[i]), || {
                format!(
                    "term {}: third row {:?}, A029902 says {}",
                    i + 1,
                    rs.get(i),
                    A029902[i]
                )
            });
        }
        f.note = Some(format!(
            "{} columns r ≤ {N} have an end point k_r ≤ {N}",
            ends.len()
        ));
        f
    })
}

/// Brouwer's families: `f(q, r)` for `r ≤ 5` (`None`: no P-position with this `(q, r)`).
fn brouwer(q: u64, r: u64) -> Option<u64> {
    let listed = |pairs: &[(u64, u64)]| pairs.iter().find(|x| x.0 == q).map(|x| x.1);
    match r {
        0 => Some(q + 1),
        1 => listed(&[(1, 3), (2, 2)]),
        2 => Some(q + 2),
        3 => listed(&[(3, 6), (4, 7), (5, 5)]),
        4 => listed(&[(4, 8), (5, 9), (6, 10), (7, 7)]),
        _ => listed(&[(5, 10), (6, 9)]).or(Some(q + 4)),
    }
}

fn brouwer_families(env: &mut Env) -> Result<Finding> {
    with_view(env, |v| {
        let mut f = Finding::default();
        for r in 0..=5u64 {
            for q in r..=N as u64 {
                let (got, want) = (v.f(q, r), brouwer(q, r));
                f.case(got == want, || {
                    format!("(q, r) = ({q}, {r}): f = {got:?}, Brouwer's families say {want:?}")
                });
            }
        }
        f
    })
}

fn sheiner(env: &mut Env) -> Result<Finding> {
    with_view(env, |v| {
        let rep = v.sheiner();
        let mut f = Finding {
            checked: rep.checked,
            ..Finding::default()
        };
        if let Some((n, what)) = rep.failures.first() {
            f.counterexample = Some(format!("3×{n}: {what}"));
        }
        f.note = Some(format!(
            "winning bite in row 2 for {} rectangles, in row 3 for {}",
            rep.row2, rep.row3
        ));
        f
    })
}

fn periods(env: &mut Env) -> Result<Finding> {
    with_view(env, |v| {
        let mut f = Finding::default();
        let (mut ends, mut ones, mut longest_pre) = (0u64, 0u64, (0u64, 0u64));
        let mut others: Vec<(u64, u64)> = Vec::new();
        let mut undetermined = Vec::new();
        for r in 0..=PERIOD_R {
            match v.pattern(r) {
                Pattern::Ends { .. } => ends += 1,
                Pattern::Periodic { from, period } => {
                    if period == 1 {
                        ones += 1;
                    } else {
                        others.push((r, period));
                    }
                    if from - r > longest_pre.1 {
                        longest_pre = (r, from - r);
                    }
                }
                Pattern::Undetermined => undetermined.push(r),
            }
        }
        for &r in &undetermined {
            f.case(false, || {
                format!("column {r}: no period seen within q ≤ {N}")
            });
        }
        let first = others.first().copied();
        f.case(first == Some((120, 2)), || {
            format!("the first r with a period other than 1 is {first:?} (r, period), not (120, 2)")
        });
        f.checked = PERIOD_R + 1;
        f.note = Some(format!(
            "r ≤ {PERIOD_R}: {ends} columns end, {ones} have period 1, {} another period ({}{}); longest preperiod {} rows (r = {})",
            others.len(),
            others
                .iter()
                .take(12)
                .map(|(r, p)| format!("r = {r} period {p}"))
                .collect::<Vec<_>>()
                .join(", "),
            if others.len() > 12 { ", ..." } else { "" },
            longest_pre.1,
            longest_pre.0
        ));
        f
    })
}

/// Nivasch's lists as `(r, period)`, increasing in `r`.
fn nivasch_census() -> Vec<(u64, u64)> {
    let mut all: Vec<(u64, u64)> = NIVASCH
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .flat_map(|l| {
            let (period, rs) = l.split_once(':').expect("a period, a colon, then the r");
            let period: u64 = period.trim().parse().expect("a period");
            rs.split_whitespace()
                .map(move |r| (r.parse().expect("an r"), period))
        })
        .collect();
    all.sort_unstable();
    all
}

fn nivasch(env: &mut Env) -> Result<Finding> {
    with_view(env, |v| {
        let mut f = Finding::default();
        let listed = nivasch_census();
        let mut found = 0;
        for r in 0..=PERIOD_R {
            let want = listed.iter().find(|x| x.0 == r).map_or(1, |x| x.1);
            let got = v.pattern(r);
            let ok = match got {
                Pattern::Periodic { period, .. } => period == want,
                // A column that ends has no period; Nivasch lists none of them.
                Pattern::Ends { .. } => want == 1,
                Pattern::Undetermined => false,
            };
            found += (want != 1) as u64;
            f.case(ok, || {
                format!("column {r}: {got:?}, Nivasch's census says period {want}")
            });
        }
        f.note = Some(format!(
            "{found} columns r ≤ {PERIOD_R} of period other than 1, as listed ({} in the census to r = 10000)",
            listed.len()
        ));
        f
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_published_data_parses() {
        let a = crate::verify::b_file(A029899);
        assert_eq!(a.len(), 401);
        assert_eq!(a[47], (47, 439));
        assert_eq!(a[400], (400, 27908));
        assert!(a.iter().enumerate().all(|(i, &(n, _))| n == i as u64));
        let census = nivasch_census();
        let count = |p: u64| census.iter().filter(|x| x.1 == p).count();
        assert_eq!((count(2), count(3), count(4), count(9)), (141, 7, 54, 2));
        assert_eq!(census[0], (120, 2));
    }
}
