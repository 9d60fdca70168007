//! Every move of a position, each with the value of the position it leaves (`--all-moves`,
//! `all_moves=1`): what a player exploring a game needs besides the winning moves, from the
//! same rules and entries that answered the position.

use super::Table;
use crate::answer::{Answer, AnswerMove, Value, ValuedMove};
use crate::model::{Outcome, ValueKind};
use crate::{Error, Result};

/// Most moves an answer lists with every move: a position with more (a heap of millions in
/// an octal game) is refused, and its winning moves are still answered without the option.
pub const EVERY_MOVE_LIMIT: usize = 100_000;

impl Table {
    /// Adds to an answer of this table's outcome or Grundy values every legal move of its
    /// position, in the rules' order, with the outcome (and the Grundy value) of the position
    /// each leaves (`moves` in JSON). Refused for other answers (distances, bounds, entries
    /// asked by index without a position) and for a position with more than
    /// [`EVERY_MOVE_LIMIT`] moves. An answer of a win/lose/tie/draw or wlt table, which lists
    /// every move with its value anyway, is left as it is.
    pub fn list_every_move(&self, answer: &mut Answer) -> Result<()> {
        // A win/lose/tie/draw answer lists every move with its value already.
        if let Value::Standing(_) | Value::Wlt(_) = answer.value {
            return Ok(());
        }
        let Value::Game(game) = &mut answer.value else {
            return Err(Error::bad(format!(
                "position '{}': every move is listed for tables of outcomes and Grundy values; \
                 {} holds {} values (answer without listing every move)",
                answer.position,
                self.file.path().display(),
                self.value_kind().name()
            )));
        };
        let moves = self.rules.moves(&answer.numbers);
        if moves.len() > EVERY_MOVE_LIMIT {
            return Err(Error::bad(format!(
                "position '{}' has {} moves, more than the {EVERY_MOVE_LIMIT} an answer lists \
                 one by one; ask it without listing every move (its winning moves are answered)",
                answer.position,
                moves.len()
            )));
        }
        let mut listed = Vec::with_capacity(moves.len());
        for m in moves {
            let (outcome, grundy) = self.value_left(&m.leaves)?;
            listed.push(ValuedMove {
                played: AnswerMove::new(self.rules(), m),
                outcome,
                grundy,
            });
        }
        // Every move was asked for, so every winning move is listed too.
        game.winning_moves = listed
            .iter()
            .filter(|m| m.outcome == Outcome::P)
            .map(|m| m.played.clone())
            .collect();
        game.more_winning_moves = None;
        game.moves = Some(listed);
        Ok(())
    }

    /// P/N and, in a Grundy table, the Grundy value of a position a move leaves.
    fn value_left(&self, position: &[u32]) -> Result<(Outcome, Option<u32>)> {
        if let Some(g) = self.sum_grundy(position)? {
            return Ok((Outcome::from_win(g != 0), Some(g)));
        }
        let outcome = self.outcome_of(position)?;
        let grundy = match self.value_kind() {
            ValueKind::Grundy => self.grundy(self.index_of(position)?),
            _ => None,
        };
        Ok((outcome, grundy))
    }
}

#[cfg(test)]
mod tests {
    use crate::games::nim::NimSpec;
    use crate::games::octal::OctalSpec;
    use crate::model::{Outcome, ValueKind};
    use crate::{Spec, Table};

    fn table(spec: Spec, kind: ValueKind) -> Table {
        let solved = spec.solve(kind, &()).unwrap();
        Table::from_solved(&spec, solved).unwrap()
    }

    /// Every move is listed in the rules' order, each valued as its leaves are answered alone,
    /// and the winning moves are exactly those that leave a P-position.
    #[test]
    fn every_move_is_valued_as_its_leaves_answer() {
        let tables = [
            table(
                Spec::new(NimSpec::new(3, 6, None, false).unwrap()),
                ValueKind::Grundy,
            ),
            table(
                Spec::new(NimSpec::new(3, 6, Some(2), true).unwrap()),
                ValueKind::Outcome,
            ),
            table(
                Spec::new(OctalSpec::new("0.77", 40).unwrap()),
                ValueKind::Grundy,
            ),
            table(
                Spec::new(OctalSpec::new("4.07", 30).unwrap()),
                ValueKind::Grundy,
            ),
        ];
        for t in &tables {
            for text in ["1,2,4", "0,0,0", "3,5,6", "6"] {
                let mut a = t.query(text).unwrap();
                t.list_every_move(&mut a).unwrap();
                let crate::answer::Value::Game(g) = &a.value else {
                    panic!("a game's answer")
                };
                let listed = g.moves.as_ref().unwrap();
                let rules = t.rules();
                assert_eq!(listed.len(), rules.moves(&a.numbers).len(), "{text}");
                let mut winning = Vec::new();
                for m in listed {
                    let alone = t.query(&m.played.leaves).unwrap();
                    assert_eq!(Some(m.outcome), alone.outcome(), "{text}: {m:?}");
                    assert_eq!(m.grundy, alone.grundy(), "{text}: {m:?}");
                    if m.outcome == Outcome::P {
                        winning.push(m.played.clone());
                    }
                }
                assert_eq!(winning, g.winning_moves, "{text}");
            }
        }
    }

    #[test]
    fn the_text_and_json_forms() {
        let t = table(
            Spec::new(OctalSpec::new("0.77", 20).unwrap()),
            ValueKind::Grundy,
        );
        let mut a = t.query("3").unwrap();
        t.list_every_move(&mut a).unwrap();
        assert_eq!(
            a.to_json(),
            r#"{"position":"3","outcome":"N","grundy":3,"winning_moves":[{"move":"take 1 from the heap of 3, leaving heaps of 1 and 1","leaves":"1,1"}],"moves":[{"move":"take 1 from the heap of 3, leaving a heap of 2","leaves":"2","outcome":"N","grundy":2},{"move":"take 1 from the heap of 3, leaving heaps of 1 and 1","leaves":"1,1","outcome":"P","grundy":0},{"move":"take 2 from the heap of 3, leaving a heap of 1","leaves":"1","outcome":"N","grundy":1}]}"#
        );
        assert!(a.to_text().ends_with(
            "  moves: take 1 from the heap of 3, leaving a heap of 2 -> 2 (N, grundy 2); take 1 \
             from the heap of 3, leaving heaps of 1 and 1 -> 1,1 (P, grundy 0); take 2 from the \
             heap of 3, leaving a heap of 1 -> 1 (N, grundy 1)"
        ));
        let mut end = t.query("0").unwrap();
        t.list_every_move(&mut end).unwrap();
        assert!(
            end.to_text().ends_with("  moves: none"),
            "{}",
            end.to_text()
        );
    }

    #[test]
    fn too_many_moves_and_other_tables_are_refused() {
        // A heap of h in Kayles has about h moves (one counter or two, the rest split).
        let t = table(
            Spec::new(OctalSpec::new("0.77", 100_010).unwrap()),
            ValueKind::Grundy,
        );
        let mut a = t.query("100010").unwrap();
        let e = t.list_every_move(&mut a).unwrap_err().to_string();
        assert!(
            e.contains("has 100010 moves, more than the 100000 an answer lists"),
            "{e}"
        );
        let mut small = t.query("99990,3").unwrap();
        t.list_every_move(&mut small).unwrap();
        let slide = table(
            Spec::new(crate::games::slide::SlideSpec::new(2, 2).unwrap()),
            ValueKind::Distance,
        );
        let mut a = slide.query("1,2,3,0").unwrap();
        let e = slide.list_every_move(&mut a).unwrap_err().to_string();
        assert!(e.contains("holds distance values"), "{e}");
    }
}
