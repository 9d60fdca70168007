//! Chomp: Gale (1974), Zeilberger (2001), Brouwer's Chomp page, and the problem note on
//! poisoned chocolate that cites Zeilberger.
//!
//! Boxes: the general statements read the 14×14 box (40,116,599 positions); the two- and
//! three-row statements the 3×200 box (every (p, q, r) with 200 ≥ p ≥ q ≥ r). Square boxes are
//! solved with the transpose symmetry (a diagram takes its transpose's value), so the
//! transposition statement reads the 12×13 box instead, where every diagram is searched on
//! its own, and compares each diagram of its 12×12 part with its transpose.

use std::sync::Arc;

use super::{Env, Finding, Statement};
use crate::game::format_numbers;
use crate::games::chomp::{bite, transpose, ChompSpec};
use crate::games::Spec;
use crate::lookup::Table;
use crate::model::ValueKind;
use crate::{Outcome, Result};

/// The box of the general statements.
const GENERAL: (u32, u32) = (14, 14);
/// The box of the two- and three-row statements.
const THREE_ROWS: (u32, u32) = (3, 200);
/// A box that is not square, for the transposition statement.
const UNSYMMETRIC: (u32, u32) = (12, 13);

pub(super) fn statements() -> Vec<Statement> {
    vec![
        Statement {
            name: "chomp-single-cell",
            source: "the rules of Chomp (Gale 1974)",
            claim: "the single cell (1) is P: its only move eats the poison",
            run: single_cell,
        },
        Statement {
            name: "chomp-rectangles-n",
            source: "Gale 1974 (strategy stealing)",
            claim: "every rectangle except 1×1 is N",
            run: rectangles_n,
        },
        Statement {
            name: "chomp-one-row-or-column",
            source: "the problem note on poisoned chocolate (Chomp) citing Zeilberger",
            claim: "one row or one column of length ≥ 2: the bite that leaves the poison alone wins",
            run: one_row_or_column,
        },
        Statement {
            name: "chomp-square",
            source: "the problem note on poisoned chocolate (Chomp) citing Zeilberger",
            claim: "square n×n, n ≥ 2: the bite (2,2) wins; it leaves a symmetric L, which is P",
            run: square,
        },
        Statement {
            name: "chomp-two-rows",
            source: "the problem note on poisoned chocolate (Chomp) citing Zeilberger",
            claim: "two rows (a, b): P iff a = b + 1; the winning bite on 2×n is (2, n)",
            run: two_rows,
        },
        Statement {
            name: "chomp-three-rows-r0",
            source: "Zeilberger 2001, Three-rowed Chomp; Brouwer's Chomp page",
            claim: "three rows (p, q, 0): P iff p = q + 1",
            run: |env| three_rows(env, 0),
        },
        Statement {
            name: "chomp-three-rows-r1",
            source: "Zeilberger 2001; the problem note on poisoned chocolate (Chomp) citing Zeilberger",
            claim: "three rows (p, q, 1): the only P-positions are (3,1,1) and (2,2,1)",
            run: |env| three_rows(env, 1),
        },
        Statement {
            name: "chomp-three-rows-r2",
            source: "the problem note on poisoned chocolate (Chomp) citing Zeilberger: (a,b,2) is P iff a − b = 2",
            claim: "three rows (p, q, 2): P iff p = q + 2",
            run: |env| three_rows(env, 2),
        },
        Statement {
            name: "chomp-three-rows-r3",
            source: "Zeilberger 2001, Three-rowed Chomp; Brouwer's Chomp page",
            claim: "three rows (p, q, 3): P exactly (6,3,3), (7,4,3), (5,5,3)",
            run: |env| three_rows(env, 3),
        },
        Statement {
            name: "chomp-three-rows-r4",
            source: "Zeilberger 2001, Three-rowed Chomp; Brouwer's Chomp page",
            claim: "three rows (p, q, 4): P exactly (8,4,4), (9,5,4), (10,6,4), (7,7,4)",
            run: |env| three_rows(env, 4),
        },
        Statement {
            name: "chomp-three-rows-r5",
            source: "Zeilberger 2001, Three-rowed Chomp; Brouwer's Chomp page",
            claim: "three rows (p, q, 5): P exactly (10,5,5), (9,6,5) and (a+11, a+7, 5) for a ≥ 0",
            run: |env| three_rows(env, 5),
        },
        Statement {
            name: "chomp-seed-003-n-list",
            source: "the problem note on poisoned chocolate (Chomp) citing Zeilberger: its tables",
            claim: "N: (1,1,1), (a,0,0) a ≥ 2, (a,a,0), (a,b,0) a − b ≥ 2, (b+1,b,1); of third row 1 and at least 6 cells, N exactly (3,2,1), (3,3,1), (4+p,1,1), (2+p,2+q,1) p ≥ q ≥ 0",
            run: seed_n_list,
        },
        Statement {
            name: "chomp-seed-003-small",
            source: "the problem note on poisoned chocolate (Chomp) citing Zeilberger: its tables",
            claim: "of 4 or 5 cells: P (2,2,1), (3,1,1); N (5,0,0), (4,1,0), (4,0,0), (3,1,0), (2,2,0), (2,1,1)",
            run: seed_small,
        },
        Statement {
            name: "chomp-transpose",
            source: "Brouwer's Chomp page (A. E. Brouwer, The game of Chomp)",
            claim: "transposing a position changes neither its outcome nor its Grundy value",
            run: transposition,
        },
        Statement {
            name: "chomp-last-row",
            source: "Brouwer's Chomp page (A. E. Brouwer, The game of Chomp)",
            claim: "with every row but the last fixed, at most one length of the last row gives a P-position",
            run: last_row,
        },
        Statement {
            name: "chomp-l-shapes",
            source: "Brouwer's Chomp page (A. E. Brouwer, The game of Chomp)",
            claim: "L-shapes (λ2 ≤ 1): Grundy value = (λ1 − 1) xor (λ'1 − 1), λ'1 the number of rows",
            run: l_shapes,
        },
        Statement {
            name: "chomp-grundy-squares",
            source: "Chomp figures known by search (Grundy values of single rectangles)",
            claim: "Grundy values of squares: 8×8 = 13, 10×10 = 19, 12×12 = 41, 14×14 = 29",
            run: grundy_squares,
        },
        Statement {
            name: "chomp-grundy-2xn",
            source: "Chomp figures known by search (observed for 2×n up to n = 12)",
            claim: "the 2×n rectangle has Grundy value ⌊(3n − 1)/2⌋ (checked for every n ≤ 200)",
            run: grundy_two_by_n,
        },
        Statement {
            name: "chomp-grundy-3xn",
            source: "OEIS A069001 (Grundy values of 3×n Chomp rectangles, its b-file)",
            claim: "the 3×n rectangle has Grundy value A069001(n) for every n ≤ 200",
            run: grundy_three_by_n,
        },
    ]
}

fn chomp(env: &mut Env, (r, c): (u32, u32), kind: ValueKind) -> Result<Arc<Table>> {
    env.table(&Spec::new(ChompSpec::new(r, c)?), kind)
}

/// `(a,b,c)`.
fn show(rows: &[u32]) -> String {
    format!("({})", format_numbers(rows))
}

/// The winning bites (1-based) of `rows` and the positions they leave.
fn winning_bites(t: &Table, rows: &[u32]) -> Result<Vec<(usize, u32)>> {
    let mut out = Vec::new();
    for (i, &len) in rows.iter().enumerate() {
        for j in 0..len {
            if (i, j) != (0, 0) && t.outcome_of(&bite(rows, i, j))? == Outcome::P {
                out.push((i + 1, j + 1));
            }
        }
    }
    Ok(out)
}

fn single_cell(env: &mut Env) -> Result<Finding> {
    let t = chomp(env, GENERAL, ValueKind::Outcome)?;
    let mut f = Finding::default();
    let a = t.query("1")?;
    f.case(a.outcome() == Some(Outcome::P), || {
        format!("(1) is {}", a.outcome().map_or("?", |o| o.as_str()))
    });
    let moves = t.rules().moves(&[1]);
    f.case(moves.is_empty(), || {
        format!("(1) has {} moves besides eating the poison", moves.len())
    });
    Ok(f)
}

fn rectangles_n(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    for size in [GENERAL, THREE_ROWS] {
        let t = chomp(env, size, ValueKind::Outcome)?;
        for a in 1..=size.0 {
            for b in 1..=size.1 {
                let got = t.outcome_of(&vec![b; a as usize])?;
                let claim = Outcome::from_win((a, b) != (1, 1));
                f.case(got == claim, || format!("{a}×{b} is {}", got.as_str()));
            }
        }
    }
    Ok(f)
}

fn one_row_or_column(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let mut others = 0;
    let t = chomp(env, GENERAL, ValueKind::Outcome)?;
    let t3 = chomp(env, THREE_ROWS, ValueKind::Outcome)?;
    for (table, row_max, col_max) in [
        (&t, GENERAL.1, GENERAL.0),
        (&t3, THREE_ROWS.1, THREE_ROWS.0),
    ] {
        for n in 2..=row_max {
            let w = winning_bites(table, &[n])?;
            f.case(w.contains(&(1, 2)), || {
                format!("row ({n}): winning bites {w:?}, not (1,2)")
            });
            others += w.len() - w.contains(&(1, 2)) as usize;
        }
        for n in 2..=col_max {
            let col = vec![1; n as usize];
            let w = winning_bites(table, &col)?;
            f.case(w.contains(&(2, 1)), || {
                format!("column of {n}: winning bites {w:?}, not (2,1)")
            });
            others += w.len() - w.contains(&(2, 1)) as usize;
        }
    }
    f.note = Some(format!("other winning bites found: {others}"));
    Ok(f)
}

fn square(env: &mut Env) -> Result<Finding> {
    let t = chomp(env, GENERAL, ValueKind::Outcome)?;
    let mut f = Finding::default();
    let mut not_unique = Vec::new();
    for n in 2..=GENERAL.0.min(GENERAL.1) {
        let sq = vec![n; n as usize];
        let w = winning_bites(&t, &sq)?;
        f.case(w.contains(&(2, 2)), || {
            format!("{n}×{n}: winning bites {w:?}, not (2,2)")
        });
        let mut l = vec![1; n as usize];
        l[0] = n;
        f.case(bite(&sq, 1, 1) == l, || {
            format!("(2,2) on {n}×{n} does not leave an L")
        });
        let got = t.outcome_of(&l)?;
        f.case(got == Outcome::P, || {
            format!("the L {} is {}", show(&l), got.as_str())
        });
        if w != [(2, 2)] {
            not_unique.push(format!("{n}×{n}: {w:?}"));
        }
    }
    f.note = Some(if not_unique.is_empty() {
        format!(
            "(2,2) is the only winning bite of every square up to {0}×{0}",
            GENERAL.0
        )
    } else {
        format!(
            "squares with other winning bites: {}",
            not_unique.join("; ")
        )
    });
    Ok(f)
}

fn two_rows(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    for size in [GENERAL, THREE_ROWS] {
        let t = chomp(env, size, ValueKind::Outcome)?;
        for a in 1..=size.1 {
            for b in 0..=a {
                let got = t.outcome_of(&[a, b])?;
                let claim = Outcome::from_win(a != b + 1);
                f.case(got == claim, || {
                    format!(
                        "({a},{b}): table says {}, rule says {}",
                        got.as_str(),
                        claim.as_str()
                    )
                });
            }
        }
    }
    let t = chomp(env, THREE_ROWS, ValueKind::Outcome)?;
    let mut others = 0;
    for n in 1..=THREE_ROWS.1 {
        let w = winning_bites(&t, &[n, n])?;
        f.case(w.contains(&(2, n)), || {
            format!("2×{n}: winning bites {w:?}, not (2,{n})")
        });
        others += w.len() - w.contains(&(2, n)) as usize;
    }
    f.note = Some(format!(
        "2×n for n ≤ {}: other winning bites found: {others}",
        THREE_ROWS.1
    ));
    Ok(f)
}

/// The claimed P-positions with third row `r`.
fn three_row_claim(p: u32, q: u32, r: u32) -> bool {
    match r {
        0 => p == q + 1,
        1 => matches!((p, q), (3, 1) | (2, 2)),
        2 => p == q + 2,
        3 => matches!((p, q), (6, 3) | (7, 4) | (5, 5)),
        4 => matches!((p, q), (8, 4) | (9, 5) | (10, 6) | (7, 7)),
        5 => matches!((p, q), (10, 5) | (9, 6)) || (p >= 11 && p == q + 4),
        _ => unreachable!("no claim for r = {r}"),
    }
}

fn three_rows(env: &mut Env, r: u32) -> Result<Finding> {
    let t = chomp(env, THREE_ROWS, ValueKind::Outcome)?;
    let mut f = Finding::default();
    let mut p_found = Vec::new();
    for p in r.max(1)..=THREE_ROWS.1 {
        for q in r..=p {
            let got = t.outcome_of(&[p, q, r])?;
            let claim = Outcome::from_win(!three_row_claim(p, q, r));
            if got == Outcome::P && p_found.len() < 8 {
                p_found.push(show(&[p, q, r]));
            }
            f.case(got == claim, || {
                format!(
                    "({p},{q},{r}): table says {}, statement says {}",
                    got.as_str(),
                    claim.as_str()
                )
            });
        }
    }
    f.note = Some(format!(
        "smallest P-positions (p,q,{r}) in the {}×{} box: {}",
        THREE_ROWS.0,
        THREE_ROWS.1,
        p_found.join(" ")
    ));
    Ok(f)
}

/// The note\'s first N families (no condition on the number of cells), by name.
fn n_families(p: u32, q: u32, r: u32) -> Option<&'static str> {
    Some(match (p, q, r) {
        (1, 1, 1) => "(1,1,1)",
        (a, 0, 0) if a >= 2 => "(a,0,0), a ≥ 2",
        (a, b, 0) if a == b => "(a,a,0)",
        (a, b, 0) if a >= b + 2 => "(a,b,0), a − b ≥ 2",
        (a, b, 1) if b >= 1 && a == b + 1 => "(b+1,b,1)",
        _ => return None,
    })
}

/// The note\'s families of N-positions with third row 1, stated for at least 6 cells.
fn n_families_third_row_1(p: u32, q: u32) -> Option<&'static str> {
    Some(match (p, q) {
        (3, 2) => "(3,2,1)",
        (3, 3) => "(3,3,1)",
        (a, 1) if a >= 4 => "(4+p,1,1)",
        (a, b) if b >= 2 && a >= b => "(2+p,2+q,1), p ≥ q ≥ 0",
        _ => return None,
    })
}

fn seed_n_list(env: &mut Env) -> Result<Finding> {
    let t = chomp(env, THREE_ROWS, ValueKind::Outcome)?;
    let mut f = Finding::default();
    // Smallest positions first: by number of cells.
    let mut all = Vec::new();
    for p in 1..=THREE_ROWS.1 {
        for q in 0..=p {
            for r in 0..=q.min(1) {
                all.push((p + q + r, p, q, r));
            }
        }
    }
    all.sort_unstable();
    let mut six = 0u64;
    for (cells, p, q, r) in all {
        let got = t.outcome_of(&[p, q, r])?;
        if let Some(family) = n_families(p, q, r) {
            f.case(got == Outcome::N, || {
                format!("({p},{q},{r}) of family {family} is {}", got.as_str())
            });
        }
        if r == 1 && cells >= 6 {
            six += 1;
            let family = n_families_third_row_1(p, q);
            f.case((got == Outcome::N) == family.is_some(), || match family {
                Some(family) => format!("({p},{q},1) of family {family} is {}", got.as_str()),
                None => format!("({p},{q},1) is N but in none of the families"),
            });
        }
    }
    f.note = Some(format!(
        "{six} positions (p,q,1) of at least 6 cells in the {}×{} box, each N exactly when in a family",
        THREE_ROWS.0, THREE_ROWS.1
    ));
    Ok(f)
}

fn seed_small(env: &mut Env) -> Result<Finding> {
    let t = chomp(env, THREE_ROWS, ValueKind::Outcome)?;
    let mut f = Finding::default();
    let claims: [(&[u32], Outcome); 8] = [
        (&[2, 2, 1], Outcome::P),
        (&[3, 1, 1], Outcome::P),
        (&[5, 0, 0], Outcome::N),
        (&[4, 1, 0], Outcome::N),
        (&[4, 0, 0], Outcome::N),
        (&[3, 1, 0], Outcome::N),
        (&[2, 2, 0], Outcome::N),
        (&[2, 1, 1], Outcome::N),
    ];
    for (rows, claim) in claims {
        let got = t.outcome_of(rows)?;
        f.case(got == claim, || {
            format!(
                "{}: table says {}, the note says {}",
                show(rows),
                got.as_str(),
                claim.as_str()
            )
        });
    }
    Ok(f)
}

fn transposition(env: &mut Env) -> Result<Finding> {
    let outcomes = chomp(env, UNSYMMETRIC, ValueKind::Outcome)?;
    let grundy = chomp(env, UNSYMMETRIC, ValueKind::Grundy)?;
    let mut f = Finding::default();
    let rules = outcomes.rules();
    let side = UNSYMMETRIC.0.min(UNSYMMETRIC.1);
    for i in 0..outcomes.len() {
        let rows = rules.unrank(i);
        if rows[0] > side || rows.len() as u32 > side {
            continue;
        }
        let tr = transpose(&rows);
        let j = rules.rank(&tr);
        let (o, ot) = (outcomes.outcome(i), outcomes.outcome(j));
        let (g, gt) = (grundy.grundy(i), grundy.grundy(j));
        f.case(o == ot && g == gt, || {
            format!(
                "{} is {} (Grundy {:?}) but its transpose {} is {} (Grundy {:?})",
                show(&rows),
                o.as_str(),
                g,
                show(&tr),
                ot.as_str(),
                gt
            )
        });
    }
    f.note = Some(format!(
        "every diagram of the {side}×{side} part of the {}×{} box (not square, so each diagram is searched on its own)",
        UNSYMMETRIC.0, UNSYMMETRIC.1
    ));
    Ok(f)
}

fn last_row(env: &mut Env) -> Result<Finding> {
    let t = chomp(env, GENERAL, ValueKind::Outcome)?;
    let (r, c) = GENERAL;
    let mut f = Finding::default();
    // Every prefix (rows 1..k-1) with room for a row k; the last row k runs over 0..=λ(k-1).
    fn rec(t: &Table, prefix: &mut Vec<u32>, r: u32, c: u32, f: &mut Finding) -> Result<()> {
        let max = prefix.last().copied().unwrap_or(c);
        let lo = if prefix.is_empty() { 1 } else { 0 };
        let mut p_lengths = Vec::new();
        for v in lo..=max {
            prefix.push(v);
            if t.outcome_of(prefix)? == Outcome::P {
                p_lengths.push(v);
            }
            prefix.pop();
        }
        f.case(p_lengths.len() <= 1, || {
            format!(
                "rows ({}) followed by a last row of length {:?} are all P",
                format_numbers(prefix),
                p_lengths
            )
        });
        if (prefix.len() as u32) + 1 < r {
            for v in lo.max(1)..=max {
                prefix.push(v);
                rec(t, prefix, r, c, f)?;
                prefix.pop();
            }
        }
        Ok(())
    }
    rec(&t, &mut Vec::new(), r, c, &mut f)?;
    Ok(f)
}

fn l_shapes(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    for size in [UNSYMMETRIC, THREE_ROWS] {
        let t = chomp(env, size, ValueKind::Grundy)?;
        for height in 1..=size.0 {
            for width in 1..=size.1 {
                let mut l = vec![1; height as usize];
                l[0] = width;
                let got = t.grundy(t.rules().rank(&l));
                let claim = (width - 1) ^ (height - 1);
                f.case(got == Some(claim), || {
                    format!("{}: Grundy value {got:?}, rule says {claim}", show(&l))
                });
            }
        }
    }
    Ok(f)
}

fn grundy_squares(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let t = chomp(env, GENERAL, ValueKind::Grundy)?;
    let value = |n: u32| t.grundy(t.rules().rank(&vec![n; n as usize]));
    for (n, claim) in [(8, 13), (10, 19), (12, 41), (14, 29)] {
        let got = value(n);
        f.case(got == Some(claim), || {
            format!("{n}×{n}: Grundy value {got:?}, published {claim}")
        });
    }
    let all: Vec<String> = (1..=GENERAL.0)
        .map(|n| format!("{n}×{n} {}", value(n).unwrap_or(0)))
        .collect();
    f.note = Some(format!("every square: {}", all.join(", ")));
    Ok(f)
}

/// OEIS A069001, terms 1..200 of its b-file: the Grundy value of the 3×n rectangle.
const A069001: &str = include_str!("data/a069001.txt");

fn grundy_three_by_n(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let t = chomp(env, THREE_ROWS, ValueKind::Grundy)?;
    for (n, want) in super::b_file(A069001) {
        let n = n as u32;
        let got = t.grundy(t.rules().rank(&[n, n, n]));
        f.case(got == Some(want as u32), || {
            format!("3×{n}: Grundy value {got:?}, A069001 says {want}")
        });
    }
    let largest = (1..=THREE_ROWS.1)
        .filter_map(|n| t.grundy(t.rules().rank(&[n, n, n])))
        .max()
        .unwrap_or(0);
    f.note = Some(format!(
        "3×1..3×{} read in the {}×{} box; largest value {largest}",
        THREE_ROWS.1, THREE_ROWS.0, THREE_ROWS.1
    ));
    Ok(f)
}

fn grundy_two_by_n(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let t = chomp(env, THREE_ROWS, ValueKind::Grundy)?;
    let mut holds = 0;
    let mut fails = Vec::new();
    for n in 1..=THREE_ROWS.1 {
        let got = t.grundy(t.rules().rank(&[n, n]));
        let claim = (3 * n - 1) / 2;
        f.case(got == Some(claim), || {
            format!("2×{n}: Grundy value {got:?}, formula {claim}")
        });
        if got == Some(claim) {
            holds += 1;
        } else {
            fails.push(n);
        }
    }
    f.note = Some(if fails.is_empty() {
        format!(
            "holds for every n = 1..={} (read in the {}×{} box)",
            THREE_ROWS.1, THREE_ROWS.0, THREE_ROWS.1
        )
    } else {
        format!(
            "holds for {holds} of n = 1..={}; fails for n = {:?}",
            THREE_ROWS.1, fails
        )
    });
    Ok(f)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embedded_a069001_parses() {
        let a = crate::verify::b_file(super::A069001);
        assert_eq!(a.len(), 200);
        assert_eq!((a[0], a[2], a[199]), ((1, 2), (3, 5), (200, 431)));
    }
}
