//! Chess endings: the longest mates of the 3- and 4-man endings as published (distance to
//! mate with white, the stronger side, to move), the longest of KPK, KRKP and the five-man
//! KBNKN with either side to move, and KBNK won within 33 moves wherever black can neither
//! take a piece nor is stalemated.

use super::{Env, Finding, Statement};
use crate::format::entries::standing;

use crate::games::chess::ChessSpec;
use crate::games::Spec;
use crate::lookup::Table;
use crate::model::{Standing, ValueKind};
use crate::syzygy::{self as sz, Tally};
use crate::{Error, Result};

pub(super) fn statements() -> Vec<Statement> {
    vec![
        Statement {
            name: "chess-longest-mates-3",
            source: "Ströhlein 1970 (KQK, KRK); Karrer's maximum-DTM statistics (KPK)",
            claim: "with white to move the longest forced mate is 10 moves in KQK, 16 in KRK \
                    and 28 in KPK (19, 31 and 55 plies)",
            run: three_men,
        },
        Statement {
            name: "chess-longest-mates-4",
            source: "Thompson 1986; Karrer's maximum-DTM statistics",
            claim: "with white to move the longest forced mate is 19 moves in KBBK, 33 in KBNK \
                    and 35 in KQKR (37, 65 and 69 plies)",
            run: four_men,
        },
        Statement {
            name: "chess-longest-mates-conrady",
            source: "Conrady 2000",
            claim: "the longest mate, either side to move and either side mating, is 56 plies \
                    in KPK, 85 in KRKP and 213 in KBNKN (mate in 107 moves, the longest of the \
                    pawnless endings of five men)",
            run: conrady,
        },
        Statement {
            name: "chess-kbnk-33",
            source: "Thompson 1986; Karrer's maximum-DTM statistics",
            claim: "every KBNK position with black to move that is lost for black is lost \
                    within 33 moves (66 plies): black's best move leaves white a mate of at \
                    most 33 moves, the longest there is",
            run: kbnk,
        },
        Statement {
            name: "chess-syzygy",
            source: "de Man's Syzygy tables",
            claim: "every position of each ending whose Syzygy tables are in the folder \
                    --syzygy names, and of its sub-endings, either side to move, has Syzygy's \
                    value under the 50-move rule and its DTZ (exactly, or one of the two a \
                    halved entry stands for) in gamedb's table of distances to zeroing",
            run: syzygy,
        },
    ]
}

fn table(env: &mut Env, men: &str) -> Result<std::sync::Arc<Table>> {
    env.table(&Spec::new(ChessSpec::new(men)?), ValueKind::Remoteness)
}

/// Calls `f` with each legal position of the table that has all of its ending's men, the
/// side to move (0 white) and its value.
fn each(t: &Table, men: usize, mut f: impl FnMut(&[u32], u32, Standing, u32)) {
    let rules = t.rules();
    for i in 0..t.len() {
        if let Some((v, r)) = standing::unpack(t.raw(i)) {
            let pos = rules.unrank(i);
            if pos[..64].iter().filter(|&&c| c != 0).count() == men {
                f(&pos, pos[64], v, r);
            }
        }
    }
}

fn longest(env: &mut Env, f: &mut Finding, claims: &[(&str, u32)]) -> Result<Vec<String>> {
    let mut said = Vec::new();
    for &(men, moves) in claims {
        let t = table(env, men)?;
        let mut most = 0;
        each(&t, men.len(), |_, side, v, r| {
            if side == 0 && v == Standing::Win {
                most = most.max(r);
            }
        });
        f.case(most == 2 * moves - 1, || {
            format!(
                "{men}: the longest mate with white to move is {most} plies, not {}",
                2 * moves - 1
            )
        });
        said.push(format!("{men}: {most} plies ({} moves)", most.div_ceil(2)));
    }
    Ok(said)
}

fn three_men(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let said = longest(env, &mut f, &[("KQk", 10), ("KRk", 16), ("KPk", 28)])?;
    f.note = Some(said.join("; "));
    Ok(f)
}

fn four_men(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let said = longest(env, &mut f, &[("KBBk", 19), ("KBNk", 33), ("KQkr", 35)])?;
    f.note = Some(said.join("; "));
    Ok(f)
}

fn conrady(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let mut said = Vec::new();
    for (men, plies) in [("KPk", 56), ("KRkp", 85), ("KBNkn", 213)] {
        let t = table(env, men)?;
        let mut most = (0, 0);
        each(&t, men.len(), |_, side, v, r| {
            if matches!(v, Standing::Win | Standing::Lose) && r > most.0 {
                // The side that mates: the side to move when it wins.
                most = (r, side ^ u32::from(v == Standing::Lose));
            }
        });
        let mater = if most.1 == 0 { "white" } else { "black" };
        f.case(most.0 == plies, || {
            format!("{men}: the longest mate is {} plies, not {plies}", most.0)
        });
        said.push(format!("{men}: {} plies, {mater} mating", most.0));
    }
    f.note = Some(said.join("; "));
    Ok(f)
}

fn kbnk(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let t = table(env, "KBNk")?;
    let rules = t.rules();
    let (mut lost, mut longest) = (0u64, 0u32);
    each(&t, 4, |pos, side, v, r| {
        // The source bounds mates: a position black can hold (a capture a move later, a
        // stalemate) is no mate, and no part of the claim.
        if side != 1 || v != Standing::Lose {
            return;
        }
        lost += 1;
        longest = longest.max(r);
        f.case(r <= 66, || {
            format!("{}: {}", rules.format(pos), v.text(Some(r)))
        });
    });
    f.note = Some(format!(
        "{lost} positions with black to move lost for black, the longest in {longest} plies"
    ));
    Ok(f)
}

/// Each ending of the Syzygy folder that no larger one of it holds as a sub-ending, as
/// gamedb's dtz table (reused or solved), compared position by position.
fn syzygy(env: &mut Env) -> Result<Finding> {
    let Some(sz::Folder { dir, endings }) = env.syzygy.clone() else {
        return Err(Error::bad(sz::NO_FOLDER));
    };
    let (tb, _) = sz::tablebase(&dir)?;
    let mut f = Finding::default();
    let mut covered = std::collections::BTreeSet::new();
    let mut said = Vec::new();
    let mut all = Tally::default();
    for ending in &endings {
        if covered.contains(ending) {
            continue;
        }
        let men = sz::men_of(ending).ok_or_else(|| {
            Error::bad(format!(
                "{}: {ending}.rtbz names no ending (expected names such as KRvKN)",
                dir.display()
            ))
        })?;
        let spec = ChessSpec::new(&men)
            .map_err(|e| Error::bad(format!("{}: {ending}: {e}", dir.display())))?;
        let t = env.table(&Spec::new(spec), ValueKind::Dtz)?;
        let report =
            sz::compare(&t, &tb, 1).map_err(|e| Error::bad(format!("{}: {e}", dir.display())))?;
        for (name, tally) in &report.endings {
            // Syzygy files an ending under its stronger side first: KRvK holds KvKR too.
            if let Some((w, b)) = name.split_once('v') {
                covered.insert(format!("{b}v{w}"));
            }
            covered.insert(name.clone());
            all.add(tally);
        }
        let total = report.total();
        f.checked += total.positions;
        if total.differ > 0 && f.counterexample.is_none() {
            f.counterexample = Some(format!(
                "{men}: {} of {} positions differ, first {}",
                total.differ,
                total.positions,
                report.shown.first().map_or("?", String::as_str)
            ));
        }
        said.push(format!("{men} {} positions", total.positions));
    }
    f.note = Some(format!(
        "{}; {} with Syzygy's value and exact DTZ, {} with a halved DTZ, {} mated (Syzygy's \
         -1), {} kings alone",
        said.join(", "),
        all.dtz_exact,
        all.dtz_rounded,
        all.mates,
        all.kings_alone
    ));
    Ok(f)
}
