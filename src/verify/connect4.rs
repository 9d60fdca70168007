//! Connect Four: the results by board size that John Tromp's table gives, on every board
//! small enough to solve here in minutes, and Zermelo's theorem held on the small tables (each
//! legal position exactly one of win, lose, tie or draw, agreeing with its moves).
//!
//! Tromp's table says who wins with best play from the empty board: the first player, the
//! second, or neither (a draw). A draw there is a tie here: play fills the board without four
//! in a row (no play of Connect Four goes on forever, so no position is a `draw`).

use super::{Env, Finding, Statement};
use crate::format::entries::{standing, wlt};
use crate::game::conformance;
use crate::games::connect4::Connect4Spec;
use crate::games::Spec;
use crate::lookup::Table;
use crate::model::{Standing, ValueKind, Wlt};
use crate::Result;

pub(super) fn statements() -> Vec<Statement> {
    vec![
        Statement {
            name: "connect4-small-boards",
            source: "Tromp's Connect Four page (the table of results by width and height)",
            claim: "from the empty board Connect Four is a draw (a tie: the board fills without \
                    four in a row) on the 4×4, 5×4, 4×5 and 4×6 boards (width × height), each \
                    legal position of the 4×4 and 5×4 tables with the one value its moves give it",
            run: small_boards,
        },
        Statement {
            name: "connect4-larger-boards",
            source: "Tromp's Connect Four page (the table of results by width and height)",
            claim: "from the empty board Connect Four is a draw (a tie) on the 5×5 board and a \
                    win for the second player on the 6×4 board (width × height)",
            run: larger_boards,
        },
        Statement {
            name: "connect4-thirty-cells",
            source: "Tromp's Connect Four page (the table of results by width and height)",
            claim: "from the empty board Connect Four is a draw (a tie) on the 7×4, 4×7, 5×6 and \
                    6×5 boards (width × height), the largest of at most 30 cells, each solved \
                    whole as a two-bit table (`--values wlt`)",
            run: thirty_cells,
        },
    ]
}

fn table(env: &mut Env, cols: u32, rows: u32) -> Result<std::sync::Arc<Table>> {
    env.table(
        &Spec::new(Connect4Spec::new(cols, rows)?),
        ValueKind::Remoteness,
    )
}

/// The value and remoteness of the empty board.
fn start_of(t: &Table) -> Option<(Standing, u32)> {
    let rules = t.rules();
    let start = rules.start()?;
    standing::unpack(t.raw(rules.rank(&start)))
}

/// Checks each board's start against the value Tromp's table gives it, and notes what the
/// table holds (with the remoteness, which Tromp's table does not give).
fn boards(env: &mut Env, f: &mut Finding, claims: &[(u32, u32, Standing)]) -> Result<Vec<String>> {
    let mut said = Vec::new();
    for &(cols, rows, claim) in claims {
        let t = table(env, cols, rows)?;
        let got = start_of(&t);
        f.case(got.map(|g| g.0) == Some(claim), || {
            format!(
                "the empty {cols}×{rows} board is {got:?}, not a {} for the first player",
                claim.as_str()
            )
        });
        said.push(format!(
            "{cols}×{rows}: {}",
            got.map_or("none".into(), |(v, r)| v.text(Some(r)))
        ));
    }
    Ok(said)
}

fn small_boards(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let mut said = boards(
        env,
        &mut f,
        &[
            (4, 4, Standing::Tie),
            (5, 4, Standing::Tie),
            (4, 5, Standing::Tie),
            (4, 6, Standing::Tie),
        ],
    )?;
    for (cols, rows) in [(4, 4), (5, 4)] {
        let t = table(env, cols, rows)?;
        match conformance::values(t.rules(), t.len(), ValueKind::Remoteness, &|i| t.raw(i)) {
            Ok(c) => {
                f.checked += c;
                said.push(format!(
                    "{cols}×{rows}: {c} legal positions agree with their moves"
                ));
            }
            Err(why) => f.case(false, || format!("the {cols}×{rows} table: {why}")),
        }
    }
    f.note = Some(said.join("; "));
    Ok(f)
}

/// The boards of 28 and 30 cells, as two-bit tables: the remoteness table of 6×5 needs 38.4
/// GiB while it solves, its two-bit table 7.5 GiB.
fn thirty_cells(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let mut said = Vec::new();
    for (cols, rows) in [(7, 4), (4, 7), (5, 6), (6, 5)] {
        let t = env.table(&Spec::new(Connect4Spec::new(cols, rows)?), ValueKind::Wlt)?;
        let rules = t.rules();
        let got = rules
            .start()
            .and_then(|s| wlt::value(t.raw(rules.rank(&s))));
        // Connect Four never goes on forever: a tie or draw is a tie.
        f.case(got == Some(Wlt::TieOrDraw), || {
            format!("the empty {cols}×{rows} board is {got:?}, not a tie")
        });
        said.push(format!(
            "{cols}×{rows}: {}",
            got.map_or("none", |v| v.as_str())
        ));
    }
    f.note = Some(said.join("; "));
    Ok(f)
}

fn larger_boards(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    // The second player wins: the first to move loses.
    let said = boards(
        env,
        &mut f,
        &[(5, 5, Standing::Tie), (6, 4, Standing::Lose)],
    )?;
    f.note = Some(said.join("; "));
    Ok(f)
}
