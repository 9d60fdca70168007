//! Subtraction games (Winning Ways, ch. 4; Berlekamp, Conway & Guy 1982): one heap; a move
//! takes `s` counters for some `s` in the subtraction set `S`; whoever cannot move loses.
//! Sums of heaps are played by the Sprague–Grundy theory, so one table of the Grundy values of
//! a heap of `0..=N` answers every sum (xor the heaps' values). Index: the heap size; level
//! `h` is index `h` alone (every move lowers the heap).

use std::ops::{ControlFlow, Range};

use crate::game::{
    format_numbers, params, Arguments, GameSpec, HeapSequence, Move, Param, Rules, View,
};
use crate::model::{Game, Indexed, Outcome, ValueKind};
use crate::{Error, Result};

/// Largest heap a table may hold (2^32 − 2: 2^32 − 1 positions).
pub(crate) const MAX_HEAP: u64 = u32::MAX as u64 - 1;
/// Most numbers in a subtraction set.
pub(crate) const MAX_SET: usize = 64;

/// Parameters of a subtraction-game table, checked: a set of distinct positive takes and the
/// largest heap.
#[derive(Clone, Debug, PartialEq)]
pub struct SubtractionSpec {
    set: Vec<u32>,
    max_heap: u32,
}

impl SubtractionSpec {
    /// Checks the parameters: 1..=64 distinct takes, each at least 1, and a largest heap in
    /// `1..=2^32 − 2`. The order of the takes does not matter.
    pub fn new(set: &[u32], max_heap: u64) -> Result<SubtractionSpec> {
        let form = "a comma-separated list of distinct positive numbers, e.g. 1,3,4";
        let mut sorted = set.to_vec();
        sorted.sort_unstable();
        if sorted.is_empty() || sorted.len() > MAX_SET {
            return Err(Error::bad(format!(
                "--set has {} numbers; expected 1..={MAX_SET}: {form}",
                sorted.len()
            )));
        }
        if sorted[0] == 0 {
            return Err(Error::bad(format!(
                "--set: 0 is not a move; expected {form}"
            )));
        }
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::bad(format!(
                "--set: {} is listed twice; expected {form}",
                w[0]
            )));
        }
        if max_heap == 0 || max_heap > MAX_HEAP {
            return Err(Error::bad(format!(
                "--max-heap {max_heap}: expected 1..={MAX_HEAP}"
            )));
        }
        Ok(SubtractionSpec {
            set: sorted,
            max_heap: max_heap as u32,
        })
    }

    /// The takes, ascending.
    pub fn set(&self) -> &[u32] {
        &self.set
    }
}

impl GameSpec for SubtractionSpec {
    const NAME: &'static str = "subtraction";
    const ABOUT: &'static str =
        "A subtraction game: one heap of 0..N, a move takes s counters for s in the set S";
    const PARAMS: &'static [Param] = &[
        Param::required("set", "S", "The takes allowed, e.g. `1,3,4`"),
        Param::required("max-heap", "N", "Largest heap size"),
    ];
    const VALUES: &'static [ValueKind] = &[ValueKind::Grundy, ValueKind::Outcome];

    fn view(&self) -> View {
        View::acyclic(Subtraction(self.clone()))
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        let text = a.text("set")?;
        let set = text
            .split(',')
            .map(|piece| {
                piece.trim().parse::<u32>().map_err(|_| {
                    Error::bad(format!(
                        "--set {}: '{}' is not a number; expected a comma-separated list of \
                         distinct positive numbers, e.g. 1,3,4",
                        crate::game::echo(text),
                        crate::game::echo(piece)
                    ))
                })
            })
            .collect::<Result<Vec<u32>>>()?;
        SubtractionSpec::new(&set, a.number("max-heap")?)
    }

    fn parameters(&self) -> String {
        params::write(&[
            ("set", Some(format_numbers(&self.set))),
            ("max-heap", Some(self.max_heap.to_string())),
        ])
    }

    fn stem(&self) -> String {
        let set: Vec<String> = self.set.iter().map(u32::to_string).collect();
        format!("subtraction-{}-{}", set.join("_"), self.max_heap)
    }

    fn describe(&self) -> String {
        format!(
            "Subtraction game S={{{}}}: one heap of 0..={}, normal play",
            format_numbers(&self.set),
            self.max_heap
        )
    }

    fn samples() -> Vec<Self> {
        [
            (&[1, 2][..], 20),
            (&[1, 3, 4][..], 40),
            (&[2, 5, 7][..], 30),
        ]
        .into_iter()
        .filter_map(|(set, n)| SubtractionSpec::new(set, n).ok())
        .collect()
    }
}

/// A subtraction game over its index (the heap size).
pub struct Subtraction(SubtractionSpec);

impl Indexed for Subtraction {
    fn positions(&self) -> u64 {
        self.0.max_heap as u64 + 1
    }
}

impl Game for Subtraction {
    fn level_count(&self) -> u64 {
        self.positions()
    }

    fn level(&self, h: u64) -> Range<u64> {
        h..h + 1
    }

    fn children<F: FnMut(u64) -> ControlFlow<()>>(&self, pos: u64, mut f: F) -> ControlFlow<()> {
        for &s in self.0.set.iter().take_while(|&&s| s as u64 <= pos) {
            f(pos - s as u64)?;
        }
        ControlFlow::Continue(())
    }

    fn terminal(&self, pos: u64) -> Option<Outcome> {
        // The smallest take is more than the heap: no move, the player to move has lost.
        (pos < self.0.set[0] as u64).then_some(Outcome::P)
    }
}

impl Rules for Subtraction {
    fn position_form(&self) -> String {
        format!("h: one heap of 0..={}", self.0.max_heap)
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        let bad = |what: String| crate::game::bad_position(self, pos, what);
        if pos.len() != 1 {
            return bad(format!("{} heaps", pos.len()));
        }
        if pos[0] > self.0.max_heap {
            return bad(format!(
                "heap {} is larger than this table's largest heap {}",
                pos[0], self.0.max_heap
            ));
        }
        Ok(())
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        pos[0] as u64
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        vec![index as u32]
    }

    fn board(&self, pos: &[u32]) -> String {
        crate::game::heaps_board(pos)
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let h = pos[0];
        self.0
            .set
            .iter()
            .take_while(|&&s| s <= h)
            .map(|&s| Move {
                label: format!("take {s}"),
                leaves: vec![h - s],
            })
            .collect()
    }

    /// One heap of each size, index = heap. A subtraction game is the octal game whose digit
    /// is 3 at each take (take `s`, leaving one heap or none), so the octal periodicity
    /// theorem proves its periods, with `t` the largest take (Winning Ways, ch. 4).
    fn heap_sequence(&self) -> Option<HeapSequence> {
        Some(HeapSequence {
            first: 0,
            step: 1,
            max_heap: self.0.max_heap as u64,
            heap: "heap".into(),
            note: String::new(),
            theorem: self.0.set.last().map(|&t| t as u64),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Solved;
    use crate::games::Spec;

    #[test]
    fn grundy_values_of_s_134_have_period_7() {
        // Winning Ways, ch. 4: S = {1,3,4} has Grundy values 0,1,0,1,2,3,2 repeating.
        let spec = SubtractionSpec::new(&[4, 1, 3], 40).unwrap();
        assert_eq!(spec.parameters(), "set=1,3,4,max-heap=40");
        let Solved::Grundy(g) = Spec::from(spec).solve(ValueKind::Grundy, &()).unwrap() else {
            panic!("grundy values")
        };
        let period = [0, 1, 0, 1, 2, 3, 2];
        assert!(g.iter().enumerate().all(|(h, &v)| v == period[h % 7]));
    }

    #[test]
    fn bad_sets_are_refused() {
        for (set, n) in [
            (&[][..], 5),
            (&[0, 1][..], 5),
            (&[2, 2][..], 5),
            (&[1][..], 0),
        ] {
            assert!(SubtractionSpec::new(set, n).is_err(), "{set:?} {n}");
        }
        assert!(SubtractionSpec::from_parameters("set=3,1,max-heap=5").is_err());
        assert!(SubtractionSpec::from_parameters("set=1,3,max-heap=5").is_ok());
    }
}
