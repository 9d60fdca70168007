//! Kayles (octal game .77; Winning Ways, ch. 4): a row of pins; a move knocks down one pin or
//! two adjacent pins; whoever cannot move loses. A position is the row (1 standing, 0 down),
//! its index the bitmask of the standing pins (the shape of `N` numbers, each 0 or 1): `N`
//! pins make `2^N` positions, and every move lowers the index.

use gamedb::game::{params, Arguments, GameSpec, Move, Param, Shape, SimpleGame, SimpleView, View};
use gamedb::{Error, Result, ValueKind};

/// The Python module `kayles_py` (feature `python`): gamedb's Python API (`open`, `solve`, ...)
/// with Kayles registered beside the built-in games (see `src/guide/game-authors.md`).
#[cfg(feature = "python")]
mod python {
    use pyo3::prelude::*;

    #[pymodule]
    fn kayles_py(m: &Bound<'_, PyModule>) -> PyResult<()> {
        gamedb::python::add_to_module(m, gamedb::Registry::builtin().with::<super::Kayles>())
    }
}

/// Kayles on a row of this many pins, checked (1 to 20: 2^20 positions).
#[derive(Clone, Debug, PartialEq)]
pub struct Kayles {
    pins: u32,
}

impl GameSpec for Kayles {
    const NAME: &'static str = "kayles/kayles";
    const ABOUT: &'static str =
        "Kayles: a row of N pins, knock down one pin or two adjacent pins (octal game .77)";
    const PARAMS: &'static [Param] = &[Param::required("pins", "N", "Pins in the row, 1..=20")];
    // An impartial game in normal play: Grundy values by default, P/N bits when asked for.
    const VALUES: &'static [ValueKind] = &[ValueKind::Grundy, ValueKind::Outcome];

    fn from_args(a: &Arguments) -> Result<Self> {
        match a.number("pins")? {
            pins @ 1..=20 => Ok(Kayles { pins }),
            pins => Err(Error::bad(format!("--pins {pins}: expected 1..=20"))),
        }
    }

    fn parameters(&self) -> String {
        params::write(&[("pins", Some(self.pins.to_string()))])
    }

    fn samples() -> Vec<Self> {
        (1..=8).map(|pins| Kayles { pins }).collect()
    }

    fn view(&self) -> View {
        SimpleView::of(self)
    }
}

impl SimpleGame for Kayles {
    fn shape(&self) -> Shape {
        let pins = self.pins;
        Shape {
            name: "pin",
            max: vec![1; pins as usize],
            form: format!("{pins} pins, each 1 (standing) or 0 (down), e.g. 1,1,0,1"),
        }
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let standing = |pins: &[u32]| pins.iter().all(|&p| p == 1);
        let knocks = (0..pos.len()).flat_map(|i| [i..i + 1, i..i + 2]);
        knocks
            .filter(|r| r.end <= pos.len() && standing(&pos[r.clone()]))
            .map(|r| {
                let mut leaves = pos.to_vec();
                leaves[r.clone()].fill(0);
                let label = match r.len() {
                    1 => format!("knock down pin {}", r.end),
                    _ => format!("knock down pins {}-{}", r.start + 1, r.end),
                };
                Move { label, leaves }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::Kayles;
    use gamedb::format::Solved;
    use gamedb::game::{Arguments, GameSpec};
    use gamedb::model::ValueKind;
    use gamedb::Spec;

    /// Grundy values of a full row of n pins, n = 0..=15: OEIS A002186 (Winning Ways, ch. 4).
    pub const PUBLISHED: [u16; 16] = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7];

    #[test]
    fn samples_pass_the_conformance_checks() {
        for sample in Kayles::samples() {
            let spec = Spec::new(sample.clone());
            spec.view()
                .conformance()
                .unwrap_or_else(|e| panic!("{sample:?}: {e}"));
            spec.check_values()
                .unwrap_or_else(|e| panic!("{sample:?}: {e}"));
        }
    }

    #[test]
    fn full_rows_have_the_published_grundy_values() {
        let table = Spec::new(Kayles { pins: 15 }).solve(ValueKind::Grundy, &());
        let Solved::Grundy(g) = table.unwrap() else {
            panic!("grundy values")
        };
        let full: Vec<u16> = (0..16).map(|n| g[(1 << n) - 1]).collect();
        assert_eq!(full, PUBLISHED);
    }

    #[test]
    fn positions_parameters_and_moves() {
        assert_eq!(
            Kayles::from_parameters("pins=12").ok(),
            Some(Kayles { pins: 12 })
        );
        let pins = |n: u32| Kayles::from_args(&Arguments::new().with("pins", n));
        assert!(pins(0).is_err() && pins(21).is_err() && pins(20).is_ok());
        let view = Kayles { pins: 4 }.view();
        let rules = view.rules();
        assert!(rules.parse("1,1,0").is_err() && rules.parse("1,2,0,1").is_err());
        let moves = rules.moves(&rules.parse("1,1,0,1").unwrap());
        let labels: Vec<&str> = moves.iter().map(|m| m.label.as_str()).collect();
        let pins = ["pin 1", "pins 1-2", "pin 2", "pin 4"].map(|p| format!("knock down {p}"));
        assert_eq!(labels, pins);
    }
}
