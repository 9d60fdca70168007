//! Kayles (octal game .77; Winning Ways, ch. 4): a row of pins; a move knocks down one
//! standing pin or two adjacent standing pins; whoever cannot move loses. A position is the
//! row, one number a pin (1 standing, 0 down); its index is the bitmask of the standing pins
//! (pin `i`, counted from 1, is bit `i - 1`), so a table of `N` pins holds `2^N` positions.
//! Every move clears bits and so lowers the index: each index is a level of its own.

use std::ops::{ControlFlow, Range};

use gamedb::game::{
    bad_position, conformance, params, Arguments, Game, GameSpec, Move, Outcome, Param, Progress,
    Rules, Solved, ValueKind,
};
use gamedb::solve::{grundy_memory, outcomes_memory, solve_grundy, solve_outcomes};
use gamedb::{Error, Result};

/// The Python module `kayles_py` (feature `python`): the whole Python API of gamedb (`open`,
/// `solve`, `Table`, ...) with Kayles registered beside the built-in games, as
/// `src/guide/game-authors.md` shows.
#[cfg(feature = "python")]
mod python {
    use pyo3::prelude::*;

    #[pymodule]
    fn kayles_py(m: &Bound<'_, PyModule>) -> PyResult<()> {
        gamedb::python::add_to_module(m, gamedb::Registry::builtin().with::<super::KaylesSpec>())
    }
}

/// Most pins a table may hold (2^20 positions).
pub const MAX_PINS: u32 = 20;

/// A Kayles table's parameters: the number of pins, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct KaylesSpec {
    pins: u32,
}

impl KaylesSpec {
    /// A row of `pins` pins, `1..=MAX_PINS`.
    pub fn new(pins: u32) -> Result<KaylesSpec> {
        if !(1..=MAX_PINS).contains(&pins) {
            return Err(Error::bad(format!(
                "--pins {pins}: expected 1..={MAX_PINS}"
            )));
        }
        Ok(KaylesSpec { pins })
    }
}

impl GameSpec for KaylesSpec {
    const NAME: &'static str = "kayles/kayles";
    const ABOUT: &'static str =
        "Kayles: a row of N pins, knock down one pin or two adjacent pins (octal game .77)";
    const PARAMS: &'static [Param] = &[
        Param::required("pins", "N", "Number of pins in the row (1..=20)"),
        Param::flag("outcomes", "Store P/N bits instead of Grundy values"),
    ];

    fn from_args(a: &Arguments) -> Result<(Self, ValueKind)> {
        let kind = if a.flag("outcomes") {
            ValueKind::Outcome
        } else {
            ValueKind::Grundy
        };
        Ok((KaylesSpec::new(a.number("pins")?)?, kind))
    }

    fn parameters(&self) -> String {
        params::write(&[("pins", Some(self.pins.to_string()))])
    }

    fn positions(&self) -> u64 {
        1 << self.pins
    }

    fn stem(&self) -> String {
        format!("kayles-{}", self.pins)
    }

    fn describe(&self) -> String {
        format!(
            "Kayles: a row of {} pins, knock down one or two adjacent, normal play",
            self.pins
        )
    }

    fn value_kinds(&self) -> &'static [ValueKind] {
        &[ValueKind::Grundy, ValueKind::Outcome]
    }

    fn rules(&self) -> Result<Box<dyn Rules>> {
        Ok(Box::new(Kayles(self.pins)))
    }

    fn solve(&self, kind: ValueKind, progress: &dyn Progress) -> Result<Solved> {
        Ok(match kind {
            ValueKind::Outcome => solve_outcomes(&Kayles(self.pins), progress)?.into_solved(),
            _ => Solved::Grundy(solve_grundy(&Kayles(self.pins), progress)?),
        })
    }

    fn solve_memory(&self, kind: ValueKind) -> u64 {
        match kind {
            ValueKind::Outcome => outcomes_memory(self.positions()),
            _ => grundy_memory(self.positions()),
        }
    }

    fn samples() -> Vec<Self> {
        (1..=8).map(|pins| KaylesSpec { pins }).collect()
    }

    fn conformance(&self) -> std::result::Result<u64, String> {
        let game = Kayles(self.pins);
        let children = conformance::game(&game)?;
        conformance::rules(&game, game.positions(), Some(&children))
    }
}

/// Kayles on a row of this many pins, over its index (the bitmask of standing pins).
pub struct Kayles(u32);

/// The moves of the row `mask` of `pins` pins, along the row: the pins each knocks down,
/// as bits (one bit, or two adjacent ones).
fn knocks(pins: u32, mask: u64) -> impl Iterator<Item = u64> {
    (0..pins)
        .flat_map(move |i| [1 << i, 3 << i])
        .filter(move |b| mask & b == *b)
}

impl Game for Kayles {
    fn positions(&self) -> u64 {
        1 << self.0
    }

    fn level_count(&self) -> u64 {
        self.positions()
    }

    fn level(&self, l: u64) -> Range<u64> {
        l..l + 1
    }

    fn children<F: FnMut(u64) -> ControlFlow<()>>(&self, pos: u64, mut f: F) -> ControlFlow<()> {
        knocks(self.0, pos).try_for_each(|bits| f(pos & !bits))
    }

    fn terminal(&self, pos: u64) -> Option<Outcome> {
        // Only the empty row has no move; the player to move there has lost.
        (pos == 0).then_some(Outcome::P)
    }
}

impl Rules for Kayles {
    fn position_form(&self) -> String {
        format!(
            "{} pins, each 1 (standing) or 0 (down), e.g. 1,1,0,1",
            self.0
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        match pos.iter().position(|&p| p > 1) {
            _ if pos.len() != self.0 as usize => {
                let what = format!("{} pins for a row of {}", pos.len(), self.0);
                bad_position(self, pos, what)
            }
            Some(i) => bad_position(self, pos, format!("pin {} is {}", i + 1, pos[i])),
            None => Ok(()),
        }
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        pos.iter().enumerate().map(|(i, &p)| (p as u64) << i).sum()
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        (0..self.0).map(|i| (index >> i & 1) as u32).collect()
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let mask = self.rank(pos);
        let label = |bits: u64| match (bits.trailing_zeros() + 1, bits.count_ones()) {
            (pin, 1) => format!("knock down pin {pin}"),
            (pin, _) => format!("knock down pins {pin}-{}", pin + 1),
        };
        knocks(self.0, mask)
            .map(|bits| Move {
                label: label(bits),
                leaves: self.unrank(mask & !bits),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamedb::Spec;

    /// Grundy values of a full row of n pins, n = 0..=15: OEIS A002186 (Winning Ways, ch. 4).
    pub const PUBLISHED: [u16; 16] = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7];

    #[test]
    fn samples_pass_the_conformance_checks() {
        for sample in KaylesSpec::samples() {
            let spec = Spec::new(sample.clone());
            spec.conformance()
                .unwrap_or_else(|e| panic!("{sample:?}: {e}"));
            spec.check_values()
                .unwrap_or_else(|e| panic!("{sample:?}: {e}"));
        }
    }

    #[test]
    fn full_rows_have_the_published_grundy_values() {
        let Solved::Grundy(g) = KaylesSpec::new(15)
            .unwrap()
            .solve(ValueKind::Grundy, &())
            .unwrap()
        else {
            panic!("grundy values")
        };
        let full: Vec<u16> = (0..16).map(|n| g[(1 << n) - 1]).collect();
        assert_eq!(full, PUBLISHED);
    }

    #[test]
    fn positions_parameters_and_moves() {
        assert_eq!(
            KaylesSpec::from_parameters("pins=12"),
            Ok(KaylesSpec { pins: 12 })
        );
        assert!(KaylesSpec::new(0).is_err() && KaylesSpec::new(21).is_err());
        let rules = Kayles(4);
        assert!(rules.parse("1,1,0").is_err() && rules.parse("1,2,0,1").is_err());
        let moves = rules.moves(&rules.parse("1,1,0,1").unwrap());
        let labels: Vec<&str> = moves.iter().map(|m| m.label.as_str()).collect();
        let pins = ["pin 1", "pins 1-2", "pin 2", "pin 4"].map(|p| format!("knock down {p}"));
        assert_eq!(labels, pins);
    }
}
