//! The values of two-player tables, from the values of their positions' children: what
//! [`super::values`] checks a remoteness or wlt entry against.

use super::Rules;
use super::{Broken, Contract};
use crate::model::Standing;

/// The check of a [`ValueKind::Wlt`] entry `v` of a legal position against its children's
/// entries: lose where the game is over and lost, tie or draw where it is over otherwise; win
/// exactly when a move leaves the opponent a lose, lose exactly when every move leaves the
/// opponent a win, tie or draw otherwise. Weaker than the check of a remoteness table: on a
/// game with cycles a wrong table can pass it (no remoteness says which wins end).
pub(super) fn check_wlt(
    r: &dyn Rules,
    pos: &[u32],
    v: u32,
    kids: &[u64],
    value: &dyn Fn(u64) -> u32,
) -> std::result::Result<(), Broken> {
    use crate::format::entries::wlt;
    use crate::model::Wlt;
    let Some(found) = wlt::value(v) else {
        return Err(Broken::new(
            Contract::Values,
            format!("entry {v} holds no value, but the rules accept the position"),
        ));
    };
    let (want, why) = match r.terminal_standing(pos) {
        Some(_) if !kids.is_empty() => {
            return Err(Broken::new(
                Contract::Values,
                "the game is over, yet it has moves",
            ))
        }
        Some(t) => (Wlt::from(t), "the game is over".to_string()),
        None if kids.is_empty() => {
            return Err(Broken::new(
                Contract::Values,
                "the game goes on, yet it has no move",
            ))
        }
        None => {
            let mut seen = Vec::with_capacity(kids.len());
            for &c in kids {
                match wlt::value(value(c)) {
                    Some(x) => seen.push(x),
                    None => {
                        return Err(Broken::new(
                            Contract::Values,
                            format!("a move leads to index {c}, whose entry holds no value"),
                        ))
                    }
                }
            }
            if seen.contains(&Wlt::Lose) {
                (Wlt::Win, "a move leaves the opponent a lose".to_string())
            } else if seen.iter().all(|&x| x == Wlt::Win) {
                (
                    Wlt::Lose,
                    format!("each of its {} moves leaves the opponent a win", seen.len()),
                )
            } else {
                (
                    Wlt::TieOrDraw,
                    "no move wins, and not every move loses".to_string(),
                )
            }
        }
    };
    if found != want {
        return Err(Broken::new(
            Contract::Values,
            format!("{}, expected {} ({why})", found.text(), want.text()),
        ));
    }
    Ok(())
}

/// The value and remoteness of a position whose game goes on, from those of its moves'
/// children (each for the player to move there), and why: a win in one more than the nearest
/// lost child; else a lose in one more than the farthest child when every child is won; else
/// a tie in one more than the nearest tied child; else a draw.
pub fn standing_of_children(children: &[(Standing, u32)]) -> ((Standing, u32), String) {
    let nearest = |v: Standing| children.iter().filter(|c| c.0 == v).map(|c| c.1).min();
    if let Some(r) = nearest(Standing::Lose) {
        return (
            (Standing::Win, r + 1),
            format!("a move leaves the opponent a lose in {r}"),
        );
    }
    if children.iter().all(|c| c.0 == Standing::Win) {
        let r = children.iter().map(|c| c.1).max().unwrap_or(0);
        return (
            (Standing::Lose, r + 1),
            format!(
                "each of its {} moves leaves the opponent a win, the farthest in {r}",
                children.len()
            ),
        );
    }
    if let Some(r) = nearest(Standing::Tie) {
        return (
            (Standing::Tie, r + 1),
            format!("no move wins, and one leaves a tie in {r}"),
        );
    }
    (
        (Standing::Draw, 0),
        "no move wins or ties, and not every move loses".to_string(),
    )
}
