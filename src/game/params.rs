//! A game's parameters as plain data: what `gamedb build GAME` accepts ([`Param`], which the
//! command line turns into `--NAME VALUE` options) and the values given ([`Arguments`]), read
//! from the command line or from the canonical text a table header stores
//! (`heaps=6,max-heap=63`). Games see no argument parser: they declare their parameters and
//! read the values by name.

use std::collections::BTreeMap;
use std::str::FromStr;

use crate::{Error, Result};

/// One parameter of `gamedb build GAME`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The option's name without dashes (`max-heap` for `--max-heap`), lower case; also its
    /// key in the header's parameter text.
    pub name: &'static str,
    /// One line for `--help`.
    pub help: &'static str,
    /// What values it takes.
    pub value: ParamValue,
}

/// What values a [`Param`] takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamValue {
    /// A value that must be given; the text names it in `--help` (`N`, `TILES`).
    Required(&'static str),
    /// A value that may be left out.
    Optional(&'static str),
    /// One of `choices`, `default` when left out.
    Choice {
        /// The accepted values.
        choices: &'static [&'static str],
        /// The value when the option is not given.
        default: &'static str,
    },
    /// A switch without a value (`--misere`).
    Flag,
}

impl Param {
    /// A parameter that must be given a value (shown as `value_name` in `--help`).
    pub const fn required(
        name: &'static str,
        value_name: &'static str,
        help: &'static str,
    ) -> Param {
        Param {
            name,
            help,
            value: ParamValue::Required(value_name),
        }
    }

    /// A parameter that may be left out.
    pub const fn optional(
        name: &'static str,
        value_name: &'static str,
        help: &'static str,
    ) -> Param {
        Param {
            name,
            help,
            value: ParamValue::Optional(value_name),
        }
    }

    /// A switch.
    pub const fn flag(name: &'static str, help: &'static str) -> Param {
        Param {
            name,
            help,
            value: ParamValue::Flag,
        }
    }

    /// One of a few words.
    pub const fn choice(
        name: &'static str,
        choices: &'static [&'static str],
        default: &'static str,
        help: &'static str,
    ) -> Param {
        Param {
            name,
            help,
            value: ParamValue::Choice { choices, default },
        }
    }
}

/// The values given for a game's parameters, by name: switches that are on map to `true`.
/// Built from the command line (which has checked them against the declared [`Param`]s) or
/// read from a header's parameter text ([`Arguments::parse`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Arguments {
    values: BTreeMap<String, String>,
}

impl Arguments {
    /// No values.
    pub fn new() -> Arguments {
        Arguments::default()
    }

    /// Sets `name` to `value` (builder style, for callers that make a spec in code).
    pub fn with(mut self, name: &str, value: impl ToString) -> Arguments {
        self.set(name, value);
        self
    }

    /// Sets `name` to `value`.
    pub fn set(&mut self, name: &str, value: impl ToString) {
        self.values.insert(name.to_string(), value.to_string());
    }

    /// Reads parameter text as a header stores it: `name=value` pairs separated by commas; a
    /// piece without `=` continues the value before it, so lists need no quoting
    /// (`rows=4,cols=4,pattern=1,2,3`). Names must be lower-case words.
    pub fn parse(text: &str) -> Result<Arguments> {
        let mut args = Arguments::new();
        let mut last: Option<String> = None;
        if text.is_empty() {
            return Ok(args);
        }
        for piece in text.split(',') {
            match piece.split_once('=') {
                Some((name, value)) => {
                    let word = !name.is_empty()
                        && name
                            .bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
                    if !word {
                        return Err(Error::bad(format!("'{name}' is not a parameter name")));
                    }
                    if args.values.contains_key(name) {
                        return Err(Error::bad(format!("parameter '{name}' is given twice")));
                    }
                    args.values.insert(name.to_string(), value.to_string());
                    last = Some(name.to_string());
                }
                None => match &last {
                    Some(name) => {
                        let value = args.values.get_mut(name).expect("set before");
                        value.push(',');
                        value.push_str(piece);
                    }
                    None => {
                        return Err(Error::bad(format!(
                            "'{piece}' has no name (expected NAME=VALUE)"
                        )))
                    }
                },
            }
        }
        Ok(args)
    }

    /// The names given, for checking them against a game's declared parameters.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.values.keys().map(String::as_str)
    }

    /// The text of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The text of `name`; an error naming the option when it is missing.
    pub fn text(&self, name: &str) -> Result<&str> {
        self.get(name)
            .ok_or_else(|| Error::bad(format!("--{name} is required")))
    }

    /// Whether switch `name` is on.
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some("true"))
    }

    /// The number `name`, when given; an error naming the option and the value when it is not
    /// a number of type `T`.
    pub fn optional_number<T: FromStr>(&self, name: &str) -> Result<Option<T>> {
        let Some(text) = self.get(name) else {
            return Ok(None);
        };
        text.trim().parse().map(Some).map_err(|_| {
            Error::bad(format!(
                "--{name} {}: expected a non-negative integer",
                crate::game::echo(text)
            ))
        })
    }

    /// The number `name`; an error naming the option when it is missing or not a number.
    pub fn number<T: FromStr>(&self, name: &str) -> Result<T> {
        self.optional_number(name)?
            .ok_or_else(|| Error::bad(format!("--{name} is required")))
    }
}

/// Writes parameters as a header stores them, in the order given: `name=value` for each
/// value given (`name=true` for a switch that is on); a `None` (a switch that is off, a value
/// left out) is not written. The games' [`crate::game::GameSpec::parameters`] use it,
/// so every game writes the same form.
pub fn write(pairs: &[(&str, Option<String>)]) -> String {
    pairs
        .iter()
        .filter_map(|(name, value)| value.as_ref().map(|v| format!("{name}={v}")))
        .collect::<Vec<_>>()
        .join(",")
}

/// The default file name stem of a table ([`crate::game::GameSpec::stem`]): the game's name
/// after its `CRATE/`, then the value of each parameter of `params` that `text` (canonical
/// parameter text) gives, in the order of `params`, joined by `-`: a switch that is on by its
/// name, a list with `_` for its commas (`kayles-12` for `kayles/kayles` and `pins=12`).
pub fn stem(name: &str, params: &[Param], text: &str) -> String {
    let args = Arguments::parse(text).unwrap_or_default();
    let short = name.rsplit('/').next().unwrap_or(name);
    let mut stem = short.to_string();
    for p in params {
        match (args.get(p.name), p.value) {
            (Some("true"), ParamValue::Flag) => stem += &format!("-{}", p.name),
            (Some(_), ParamValue::Flag) | (None, _) => {}
            (Some(v), _) => stem += &format!("-{}", v.replace(',', "_")),
        }
    }
    stem
}

/// The words after `gamedb build` that give a game the parameters of canonical text `text`,
/// in the order of `params`: `nim --heaps 3 --max-heap 15` for `heaps=3,max-heap=15`.
pub fn build_words(name: &str, params: &[Param], text: &str) -> String {
    let args = Arguments::parse(text).unwrap_or_default();
    let mut words = name.to_string();
    for p in params {
        match (args.get(p.name), p.value) {
            (Some("true"), ParamValue::Flag) => words += &format!(" --{}", p.name),
            (Some(_), ParamValue::Flag) | (None, _) => {}
            (Some(v), _) => words += &format!(" --{} {v}", p.name),
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_lists_and_refuses_nonsense() {
        let a = Arguments::parse("rows=4,cols=4,pattern=1,2,3,misere=true").unwrap();
        assert_eq!(a.get("pattern"), Some("1,2,3"));
        assert!(a.flag("misere"));
        assert_eq!(a.number::<u32>("rows").unwrap(), 4);
        assert!(a.number::<u32>("pattern").is_err());
        assert_eq!(a.text("max").unwrap_err().to_string(), "--max is required");
        assert!(Arguments::parse("1,2").is_err());
        assert!(Arguments::parse("Rows=1").is_err());
        assert!(Arguments::parse("rows=1,rows=2").is_err());
        assert_eq!(Arguments::parse("").unwrap(), Arguments::new());
        assert_eq!(
            write(&[
                ("rows", Some("4".into())),
                ("k", None),
                ("misere", Some("true".into()))
            ]),
            "rows=4,misere=true"
        );
    }
}
