//! Wythoff's game: Wythoff (1907) for the P-positions; Sprague (1935) and Grundy (1939) for
//! what the Grundy values must satisfy.
//!
//! The outcome statement reads every position of the table with heaps up to [`OUTCOMES`]; the
//! Grundy statements every position of the table with heaps up to [`GRUNDY`].

use super::{Env, Finding, Statement};
use crate::games::wythoff::{floor_k_phi, WythoffSpec};
use crate::games::Spec;
use crate::lookup::Table;
use crate::model::ValueKind;
use crate::{Outcome, Result};

/// Largest heap of the table the outcome statement reads.
const OUTCOMES: u32 = 4096;
/// Largest heap of the table the Grundy statements read.
const GRUNDY: u32 = 1024;

pub(super) fn statements() -> Vec<Statement> {
    vec![
        Statement {
            name: "wythoff-p-positions",
            source: "Wythoff 1907, A modification of the game of Nim",
            claim: "P exactly when the heaps are (⌊kφ⌋, ⌊kφ²⌋) or (⌊kφ²⌋, ⌊kφ⌋) for some k ≥ 0, φ the golden ratio",
            run: p_positions,
        },
        Statement {
            name: "wythoff-grundy-zero",
            source: "Sprague 1935, Grundy 1939; Wythoff 1907",
            claim: "the Grundy value is 0 exactly at the P-positions (⌊kφ⌋, ⌊kφ²⌋) and their mirrors",
            run: grundy_zero,
        },
        Statement {
            name: "wythoff-grundy-symmetric",
            source: "Sprague 1935, Grundy 1939 (the game is symmetric in its heaps)",
            claim: "G(a, b) = G(b, a) for every position",
            run: grundy_symmetric,
        },
        Statement {
            name: "wythoff-grundy-latin",
            source: "Sprague 1935, Grundy 1939 (positions of one row, column or diagonal are one move apart)",
            claim: "no Grundy value repeats in a row (a fixed), a column (b fixed) or a diagonal (a − b fixed)",
            run: grundy_latin,
        },
    ]
}

fn wythoff(env: &mut Env, n: u32, kind: ValueKind) -> Result<std::sync::Arc<Table>> {
    env.table(&Spec::new(WythoffSpec::new(n)?), kind)
}

/// Whether (a, b) is one of Wythoff's pairs or its mirror.
fn wythoff_pair(a: u64, b: u64) -> bool {
    let (lo, hi) = (a.min(b), a.max(b));
    let k = hi - lo;
    floor_k_phi(k) == lo
}

fn p_positions(env: &mut Env) -> Result<Finding> {
    let t = wythoff(env, OUTCOMES, ValueKind::Outcome)?;
    let mut f = Finding::default();
    let rules = t.rules();
    let mut p = 0u64;
    for i in 0..t.len() {
        let pos = rules.unrank(i);
        let (a, b) = (pos[0] as u64, pos[1] as u64);
        let got = t.outcome(i);
        let claim = Outcome::from_win(!wythoff_pair(a, b));
        p += (got == Outcome::P) as u64;
        f.case(got == claim, || {
            format!(
                "({a},{b}): table says {}, Wythoff's pairs say {}",
                got.as_str(),
                claim.as_str()
            )
        });
    }
    f.note = Some(format!(
        "{p} P-positions among the {} positions with heaps up to {OUTCOMES}",
        t.len()
    ));
    Ok(f)
}

/// The Grundy table as a square array `g[a][b]`.
fn grundy_square(env: &mut Env) -> Result<Vec<Vec<u32>>> {
    let t = wythoff(env, GRUNDY, ValueKind::Grundy)?;
    let n = GRUNDY as usize;
    let mut g = vec![vec![0u32; n + 1]; n + 1];
    let rules = t.rules();
    for i in 0..t.len() {
        let pos = rules.unrank(i);
        g[pos[0] as usize][pos[1] as usize] = t.raw(i);
    }
    Ok(g)
}

fn grundy_zero(env: &mut Env) -> Result<Finding> {
    let g = grundy_square(env)?;
    let mut f = Finding::default();
    for (a, row) in g.iter().enumerate() {
        for (b, &v) in row.iter().enumerate() {
            let pair = wythoff_pair(a as u64, b as u64);
            f.case((v == 0) == pair, || {
                format!(
                    "G({a},{b}) = {v}, but ({a},{b}) is {}a Wythoff pair",
                    if pair { "" } else { "not " }
                )
            });
        }
    }
    Ok(f)
}

fn grundy_symmetric(env: &mut Env) -> Result<Finding> {
    let g = grundy_square(env)?;
    let mut f = Finding::default();
    let mut largest = 0;
    for (a, row) in g.iter().enumerate() {
        for (b, &v) in row.iter().enumerate() {
            largest = largest.max(v);
            f.case(v == g[b][a], || {
                format!("G({a},{b}) = {v} but G({b},{a}) = {}", g[b][a])
            });
        }
    }
    f.note = Some(format!(
        "largest Grundy value with heaps up to {GRUNDY}: {largest}"
    ));
    Ok(f)
}

fn grundy_latin(env: &mut Env) -> Result<Finding> {
    let g = grundy_square(env)?;
    let n = g.len();
    let mut f = Finding::default();
    // `seen[v]`: the last line in which value v was met.
    let mut seen: Vec<usize> = Vec::new();
    let mut lines: Vec<(String, Vec<(usize, usize)>)> = Vec::new();
    for a in 0..n {
        lines.push((format!("row a = {a}"), (0..n).map(|b| (a, b)).collect()));
    }
    for b in 0..n {
        lines.push((format!("column b = {b}"), (0..n).map(|a| (a, b)).collect()));
    }
    for d in 0..n {
        lines.push((
            format!("diagonal a − b = {d}"),
            (0..n - d).map(|i| (i + d, i)).collect(),
        ));
        lines.push((
            format!("diagonal b − a = {d}"),
            (0..n - d).map(|i| (i, i + d)).collect(),
        ));
    }
    for (line, (what, cells)) in lines.iter().enumerate() {
        for &(a, b) in cells {
            let v = g[a][b] as usize;
            if v >= seen.len() {
                seen.resize(v + 1, usize::MAX);
            }
            f.case(seen[v] != line, || {
                format!("{what}: G({a},{b}) = {v}, a value met before in that line")
            });
            seen[v] = line;
        }
    }
    f.note = Some(format!(
        "{} rows, columns and diagonals of the {n}×{n} square",
        lines.len()
    ));
    Ok(f)
}
