//! m,n,k-games, tic-tac-toe first: its value and its published counts of positions, the
//! values of small m,n,k-games as published, and Zermelo's theorem held on every table of
//! the two-player family (each legal position exactly one of win, lose, tie or draw, agreeing
//! with its moves).
//!
//! The counts are made twice: from the table's marks of what the empty board reaches, and by a
//! search over the rules' moves written here, which must agree with them.

use std::collections::HashSet;

use super::{Env, Finding, Statement};
use crate::format::entries::standing;
use crate::game::{conformance, Rules};
use crate::games::mnk::MnkSpec;
use crate::games::Spec;
use crate::lookup::Table;
use crate::model::{Standing, ValueKind};
use crate::Result;

pub(super) fn statements() -> Vec<Statement> {
    vec![
        Statement {
            name: "mnk-tic-tac-toe",
            source: "Schaefer 2002 (5,478 positions, 765 up to symmetry); Aha 1991 (the 958 \
                     boards where play ends: 626 won by x, 316 by o, 16 full)",
            claim: "tic-tac-toe is a tie in 9 from the empty board; play reaches 5,478 \
                    positions, 765 up to the board's 8 symmetries, and ends in 958 of them: \
                    626 won by x, 316 by o, 16 full boards without a line",
            run: tic_tac_toe,
        },
        Statement {
            name: "mnk-small-boards",
            source: "Uiterwijk & van den Herik 2000, The advantage of the initiative (the \
                     m,n,k-games solved)",
            claim: "from the empty board x wins the 4,3,3- and 4,4,3-games, and the 4,4,4-game \
                    is a tie",
            run: small_boards,
        },
        Statement {
            name: "zermelo",
            source: "Zermelo 1913, Über eine Anwendung der Mengenlehre auf die Theorie des \
                     Schachspiels; the Chomp problem note (策梅洛定理)",
            claim: "in every table of a two-player game with ties and draws (the m,n,k-games \
                    of up to 10 cells here), every legal position has exactly one of win, lose, tie or \
                    draw, with the remoteness its moves give it",
            run: zermelo,
        },
    ]
}

fn mnk(env: &mut Env, m: u32, n: u32, k: u32) -> Result<std::sync::Arc<Table>> {
    env.table(&Spec::new(MnkSpec::new(m, n, k)?), ValueKind::Remoteness)
}

/// The value and remoteness of the empty board.
fn start_of(t: &Table) -> Option<(Standing, u32)> {
    let rules = t.rules();
    let start = rules.start()?;
    standing::unpack(t.raw(rules.rank(&start)))
}

/// The boards play reaches from the empty one, by the rules' moves alone.
fn reached(rules: &dyn Rules) -> HashSet<Vec<u32>> {
    let start = rules
        .start()
        .expect("m,n,k-games start from the empty board");
    let mut seen = HashSet::from([start.clone()]);
    let mut todo = vec![start];
    while let Some(pos) = todo.pop() {
        for m in rules.moves(&pos) {
            if seen.insert(m.leaves.clone()) {
                todo.push(m.leaves);
            }
        }
    }
    seen
}

/// Where a symmetry of the 3×3 square takes a cell (row, column).
type Symmetry = fn(usize, usize) -> (usize, usize);

/// The smallest of a 3×3 board's images under the square's 8 symmetries.
fn canonical(board: &[u32]) -> Vec<u32> {
    let at = |r: usize, c: usize| board[r * 3 + c];
    let maps: [Symmetry; 8] = [
        |r, c| (r, c),
        |r, c| (c, 2 - r),
        |r, c| (2 - r, 2 - c),
        |r, c| (2 - c, r),
        |r, c| (r, 2 - c),
        |r, c| (2 - r, c),
        |r, c| (c, r),
        |r, c| (2 - c, 2 - r),
    ];
    maps.iter()
        .map(|f| {
            (0..9)
                .map(|i| {
                    let (r, c) = f(i / 3, i % 3);
                    at(r, c)
                })
                .collect::<Vec<u32>>()
        })
        .min()
        .expect("eight images")
}

fn tic_tac_toe(env: &mut Env) -> Result<Finding> {
    let t = mnk(env, 3, 3, 3)?;
    let rules = t.rules();
    let mut f = Finding::default();
    let start = start_of(&t);
    f.case(start == Some((Standing::Tie, 9)), || {
        format!("the empty board is {start:?}, not a tie in 9")
    });
    // The table's marks against a search of the rules' moves.
    let by_search = reached(rules);
    let mut marked = 0u64;
    for i in 0..t.len() {
        let entry = t.raw(i);
        let is_marked = standing::reachable(entry);
        marked += is_marked as u64;
        let pos = rules.unrank(i);
        let found = rules.check(&pos).is_ok() && by_search.contains(&pos);
        f.case(is_marked == found, || {
            format!(
                "{}: the table marks it {}reachable, the search of moves {}",
                rules.format(&pos),
                if is_marked { "" } else { "not " },
                if found { "reaches it" } else { "does not" }
            )
        });
    }
    let (mut x_won, mut o_won, mut full) = (0u64, 0u64, 0u64);
    for pos in &by_search {
        match rules.terminal_standing(pos) {
            // The side that just moved won: x when x has one more mark.
            Some(Standing::Lose) => {
                let xs = pos.iter().filter(|&&v| v == 1).count();
                let os = pos.iter().filter(|&&v| v == 2).count();
                if xs > os {
                    x_won += 1
                } else {
                    o_won += 1
                }
            }
            Some(_) => full += 1,
            None => {}
        }
    }
    let symmetric: HashSet<Vec<u32>> = by_search.iter().map(|b| canonical(b)).collect();
    let counts = (
        by_search.len() as u64,
        symmetric.len() as u64,
        x_won + o_won + full,
        x_won,
        o_won,
        full,
    );
    f.case(counts == (5478, 765, 958, 626, 316, 16), || {
        format!(
            "reached {}, {} up to symmetry, over in {} ({} won by x, {} by o, {} full), marked {marked}",
            counts.0, counts.1, counts.2, counts.3, counts.4, counts.5
        )
    });
    f.note = Some(format!(
        "{} positions reached ({} up to symmetry, {marked} marked in the table), the game over \
         in {} ({x_won} won by x, {o_won} by o, {full} full); the empty board: {}",
        counts.0,
        counts.1,
        counts.2,
        start.map_or("none".into(), |(v, r)| v.text(Some(r)))
    ));
    Ok(f)
}

fn small_boards(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let mut said = Vec::new();
    for (m, n, k, claim) in [
        (4, 3, 3, Standing::Win),
        (4, 4, 3, Standing::Win),
        (4, 4, 4, Standing::Tie),
    ] {
        let t = mnk(env, m, n, k)?;
        let got = start_of(&t);
        f.case(got.map(|g| g.0) == Some(claim), || {
            format!(
                "the {m},{n},{k}-game from the empty board is {got:?}, not a {}",
                claim.as_str()
            )
        });
        said.push(format!(
            "{m},{n},{k}: {}",
            got.map_or("none".into(), |(v, r)| v.text(Some(r)))
        ));
    }
    f.note = Some(said.join("; "));
    Ok(f)
}

fn zermelo(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let mut positions = 0u64;
    for m in 1..=10u32 {
        for n in 1..=10 / m {
            for k in 1..=m.max(n) {
                let t = mnk(env, m, n, k)?;
                let checked =
                    conformance::values(t.rules(), t.len(), ValueKind::Remoteness, &|i| t.raw(i));
                match checked {
                    Ok(c) => {
                        positions += c;
                        f.checked += c;
                    }
                    Err(why) => {
                        f.case(false, || format!("the {m},{n},{k}-game: {why}"));
                    }
                }
            }
        }
    }
    f.note = Some(format!(
        "{positions} legal positions of the m,n,k-games of up to 10 cells, each with one value \
         that its moves give it"
    ));
    Ok(f)
}
