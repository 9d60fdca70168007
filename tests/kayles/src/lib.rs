//! Kayles (octal game .77; Winning Ways, ch. 4): a row of pins; a move knocks down one pin or
//! two adjacent pins; whoever cannot move loses. A position is the row (1 standing, 0 down);
//! its index is the bitmask of the standing pins (pin `i` is bit `i - 1`): `N` pins make `2^N`
//! positions, and every move lowers the index (each index is a level of its own, the default).

use std::ops::ControlFlow;

use gamedb::game::{
    bad_position, params, Arguments, Game, GameSpec, Move, Param, Rules, ValueKind,
};
use gamedb::{Error, Result};

/// The Python module `kayles_py` (feature `python`): gamedb's Python API (`open`, `solve`, ...)
/// with Kayles registered beside the built-in games (see `src/guide/game-authors.md`).
#[cfg(feature = "python")]
mod python {
    use pyo3::prelude::*;

    #[pymodule]
    fn kayles_py(m: &Bound<'_, PyModule>) -> PyResult<()> {
        gamedb::python::add_to_module(m, gamedb::Registry::builtin().with::<super::KaylesSpec>())
    }
}

/// A Kayles table's parameters: the number of pins, checked (1 to 20: 2^20 positions).
#[derive(Clone, Debug, PartialEq)]
pub struct KaylesSpec {
    pins: u32,
}

impl GameSpec for KaylesSpec {
    const NAME: &'static str = "kayles/kayles";
    const ABOUT: &'static str =
        "Kayles: a row of N pins, knock down one pin or two adjacent pins (octal game .77)";
    const PARAMS: &'static [Param] = &[Param::required("pins", "N", "Pins in the row, 1..=20")];
    const VALUES: &'static [ValueKind] = &[ValueKind::Grundy, ValueKind::Outcome];

    type View = Kayles;
    fn view(&self) -> Kayles {
        Kayles(self.pins)
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        match a.number("pins")? {
            pins @ 1..=20 => Ok(KaylesSpec { pins }),
            pins => Err(Error::bad(format!("--pins {pins}: expected 1..=20"))),
        }
    }

    fn parameters(&self) -> String {
        params::write(&[("pins", Some(self.pins.to_string()))])
    }

    fn samples() -> Vec<Self> {
        (1..=8).map(|pins| KaylesSpec { pins }).collect()
    }
}

/// Kayles on a row of this many pins, over its index (the bitmask of standing pins).
pub struct Kayles(u32);

/// The moves of the row `mask` of `pins` pins, along the row: the pins each knocks down, as bits.
fn knocks(pins: u32, mask: u64) -> impl Iterator<Item = u64> {
    (0..pins)
        .flat_map(move |i| [1 << i, 3 << i])
        .filter(move |b| mask & b == *b)
}

impl Game for Kayles {
    fn positions(&self) -> u64 {
        1 << self.0
    }

    fn children<F: FnMut(u64) -> ControlFlow<()>>(&self, pos: u64, mut f: F) -> ControlFlow<()> {
        knocks(self.0, pos).try_for_each(|bits| f(pos & !bits))
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
    use gamedb::game::Solved;
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
        let Solved::Grundy(g) = KaylesSpec { pins: 15 }
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
        let pins = |n: u32| KaylesSpec::from_args(&Arguments::new().with("pins", n));
        assert!(pins(0).is_err() && pins(21).is_err() && pins(20).is_ok());
        let rules = Kayles(4);
        assert!(rules.parse("1,1,0").is_err() && rules.parse("1,2,0,1").is_err());
        let moves = rules.moves(&rules.parse("1,1,0,1").unwrap());
        let labels: Vec<&str> = moves.iter().map(|m| m.label.as_str()).collect();
        let pins = ["pin 1", "pins 1-2", "pin 2", "pin 4"].map(|p| format!("knock down {p}"));
        assert_eq!(labels, pins);
    }
}
