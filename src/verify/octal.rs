//! Octal games: periods and preperiods from the literature, each proved (or refuted) from a
//! computed table by the octal periodicity theorem (Guy & Smith 1956), as `gamedb info`
//! reports it.
//!
//! A statement names the game, its period and, where its source gives one, the last
//! exceptional heap (the preperiod is one more). The check builds the table to the heap the
//! theorem needs for the claimed period and preperiod (`2e + 2p + t`, at least 1,000) and
//! compares what [`periodicity`] proves with the claim.

use super::{Env, Finding, Statement};
use crate::games::octal::{periodicity, Code, OctalSpec};
use crate::games::Spec;
use crate::model::ValueKind;
use crate::Result;

/// One claim: code, period, last exceptional heap (`None`: the source gives no preperiod).
struct Claim {
    code: &'static str,
    period: u64,
    last_exception: Option<u64>,
    /// The preperiod to build for when the source gives none (our computation).
    computed_preperiod: u64,
}

const CLAIMS: &[(&str, Claim)] = &[
    (
        "octal-kayles",
        Claim {
            code: "0.77",
            period: 12,
            last_exception: Some(70),
            computed_preperiod: 71,
        },
    ),
    (
        "octal-dawsons-chess",
        Claim {
            code: "0.137",
            period: 34,
            last_exception: Some(51),
            computed_preperiod: 52,
        },
    ),
    (
        "octal-dawsons-kayles",
        Claim {
            code: "0.07",
            period: 34,
            last_exception: Some(52),
            computed_preperiod: 53,
        },
    ),
    (
        "octal-0.16",
        Claim {
            code: "0.16",
            period: 149_459,
            last_exception: None,
            computed_preperiod: 105_351,
        },
    ),
    (
        "octal-0.127",
        Claim {
            code: "0.127",
            period: 4,
            last_exception: Some(46_577),
            computed_preperiod: 46_578,
        },
    ),
    (
        "octal-0.115",
        Claim {
            code: "0.115",
            period: 14,
            last_exception: Some(0),
            computed_preperiod: 1,
        },
    ),
    (
        "octal-0.176",
        Claim {
            code: "0.176",
            period: 8,
            last_exception: Some(23),
            computed_preperiod: 24,
        },
    ),
    (
        "octal-0.177",
        Claim {
            code: "0.177",
            period: 20,
            last_exception: Some(496),
            computed_preperiod: 497,
        },
    ),
    (
        "octal-0.11377",
        Claim {
            code: "0.11377",
            period: 32,
            last_exception: Some(186),
            computed_preperiod: 187,
        },
    ),
];

pub(super) fn statements() -> Vec<Statement> {
    vec![
        Statement {
            name: "octal-kayles",
            source: "Guy & Smith 1956; Winning Ways, ch. 4; OEIS A002186",
            claim: "Kayles (0.77) is periodic with period 12, the last exceptional value at heap 70",
            run: |env| check(env, "octal-kayles"),
        },
        Statement {
            name: "octal-dawsons-chess",
            source: "Guy & Smith 1956; OEIS A002187",
            claim: "Dawson's chess (0.137) is periodic with period 34, the last exceptional value at heap 51",
            run: |env| check(env, "octal-dawsons-chess"),
        },
        Statement {
            name: "octal-dawsons-kayles",
            source: "Winning Ways, ch. 4 (Dawson's Kayles 0.07 is Dawson's chess 0.137 shifted by one heap)",
            claim: "Dawson's Kayles (0.07) is periodic with period 34, the last exceptional value at heap 52",
            run: |env| check(env, "octal-dawsons-kayles"),
        },
        Statement {
            name: "octal-0.16",
            source: "Gangolli & Plambeck 1989",
            claim: "0.16 is periodic with period 149,459 (the preperiod is reported as found: the source is not at hand)",
            run: |env| check(env, "octal-0.16"),
        },
        Statement {
            name: "octal-0.127",
            source: "Gangolli & Plambeck 1989; OEIS A071464",
            claim: "0.127 is periodic with period 4, the last exceptional value at heap 46,577",
            run: |env| check(env, "octal-0.127"),
        },
        Statement {
            name: "octal-0.115",
            source: "Winning Ways, ch. 4, p. 104; OEIS A125829",
            claim: "0.115 is periodic with period 14, the only exceptional value at heap 0",
            run: |env| check(env, "octal-0.115"),
        },
        Statement {
            name: "octal-0.176",
            source: "Winning Ways, ch. 4, p. 104; OEIS A125920",
            claim: "0.176 is periodic with period 8, the last exceptional value at heap 23",
            run: |env| check(env, "octal-0.176"),
        },
        Statement {
            name: "octal-0.177",
            source: "Winning Ways, ch. 4, p. 102; OEIS A071435",
            claim: "0.177 is periodic with period 20, the last exceptional value at heap 496",
            run: |env| check(env, "octal-0.177"),
        },
        Statement {
            name: "octal-0.11377",
            source: "Winning Ways, ch. 4, p. 104; OEIS A071452",
            claim: "0.11377 is periodic with period 32, the last exceptional value at heap 186",
            run: |env| check(env, "octal-0.11377"),
        },
    ]
}

fn check(env: &mut Env, name: &str) -> Result<Finding> {
    let claim = &CLAIMS
        .iter()
        .find(|(n, _)| *n == name)
        .expect("every statement has its claim")
        .1;
    let code = Code::parse(claim.code)?;
    let t = code.last_digit() as u64;
    let e = claim
        .last_exception
        .map_or(claim.computed_preperiod, |x| x + 1);
    let max_heap = (2 * e + 2 * claim.period + t).max(1000);
    let table = env.table(
        &Spec::new(OctalSpec::new(claim.code, max_heap)?),
        ValueKind::Grundy,
    )?;
    let found = periodicity(&|i| table.raw(i), max_heap, t, true);
    let mut f = Finding::default();
    let shown = |x: Option<u64>| x.map_or("none".to_string(), |v| v.to_string());
    let what = format!(
        "{}: the values to heap {max_heap} prove {} period {}, preperiod {}",
        claim.code,
        if found.proved {
            "the"
        } else {
            "no (tentative)"
        },
        shown(found.period),
        shown(found.preperiod)
    );
    f.case(found.proved && found.period == Some(claim.period), || {
        format!("{what}; the source says period {}", claim.period)
    });
    if let Some(last) = claim.last_exception {
        f.case(found.preperiod == Some(last + 1), || {
            format!(
                "{what}; the source's last exception at heap {last} means preperiod {}",
                last + 1
            )
        });
    }
    f.checked = max_heap + 1;
    f.note = Some(what);
    Ok(f)
}
