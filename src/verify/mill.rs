//! The mill games: the values of Five and Six Men's Morris from the empty board as De
//! Clercq's page gives them (both draws), checked on the whole tables, with what play reaches.
//!
//! De Clercq states his rules as those of Nine Men's Morris on the smaller board (the World
//! Merrills Association's); this table's rules are GamesmanOne's (no flying on the 16-point
//! board, a mill removes a man that is in no mill unless all are, two men left or no move
//! loses). Both readings are checked: without the flying rule and with it.
//!
//! Nine Men's Morris (Gasser 1996: a draw) is not checked here: its index, 5.7·10^11 entries
//! without symmetries, is past any machine this runs on (see the two-player guide).

use super::{Env, Finding, Statement};
use crate::format::entries::standing;
use crate::games::mill::MillSpec;
use crate::games::Spec;
use crate::lookup::Table;
use crate::model::{Standing, ValueKind};
use crate::Result;

pub(super) fn statements() -> Vec<Statement> {
    vec![Statement {
        name: "mill-five-six",
        source: "De Clercq's Morris page (5, 6 and 7 Men's Morris solved)",
        claim: "from the empty board Five Men's Morris and Six Men's Morris are draws (neither \
                side can force a win), without the flying rule and with it",
        run: five_six,
    }]
}

fn five_six(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let mut said = Vec::new();
    for men in [5, 6] {
        for flying in [false, true] {
            let t = env.table(
                &Spec::new(MillSpec::new(men, None, flying)?),
                ValueKind::Remoteness,
            )?;
            let (value, reached, deepest) = survey(&t);
            f.checked += t.len();
            let name = format!("{men} men{}", if flying { ", flying" } else { "" });
            f.case(value == Some(Standing::Draw), || {
                format!("{name}: the empty board is {value:?}, not a draw")
            });
            said.push(format!(
                "{name}: start {}, {reached} positions reached from it, the longest win or loss \
                 among them {deepest} plies",
                value.map_or("none", Standing::as_str)
            ));
        }
    }
    f.note = Some(said.join("; "));
    Ok(f)
}

/// The start's value, the positions marked reachable, and the greatest remoteness of a won or
/// lost one of them.
fn survey(t: &Table) -> (Option<Standing>, u64, u32) {
    let rules = t.rules();
    let value = rules
        .start()
        .and_then(|s| standing::unpack(t.raw(rules.rank(&s))))
        .map(|v| v.0);
    let (mut reached, mut deepest) = (0, 0);
    for i in 0..t.len() {
        let e = t.raw(i);
        if standing::reachable(e) {
            reached += 1;
            if let Some((Standing::Win | Standing::Lose, r)) = standing::unpack(e) {
                deepest = deepest.max(r);
            }
        }
    }
    (value, reached, deepest)
}
