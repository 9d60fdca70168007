//! What the fuzz targets share: a game and its parameters chosen by the input and read through
//! the registry as a table header names them (game name, rules version, parameter text), so a
//! new game is fuzzed without touching the targets.
#![allow(dead_code)]

use gamedb::{registry, Spec};

/// The input up to its first newline, and what follows it.
pub fn line(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// The parameter text the first line of the input asks for, with `sample`'s text as its
/// model: a line with a `=` is parameter text itself (`heaps=3,max-heap=7`); any other line
/// is values separated by spaces that replace the sample's values in order (`5 9` makes
/// `heaps=5,max-heap=9` of `heaps=3,max-heap=7`, `0.F 12` makes `code=0.F,max-heap=12` of
/// `code=0.77,max-heap=40`), `-` keeping one. So the fuzzer reaches valid parameters of
/// every game without knowing their names.
pub fn parameter_text(sample: &str, line: &str) -> String {
    if line.contains('=') {
        return line.to_string();
    }
    let mut values = line.split(' ').filter(|v| !v.is_empty());
    sample
        .split(',')
        .map(|piece| match (piece.split_once('='), values.next()) {
            (Some((name, _)), Some(v)) if v != "-" => format!("{name}={v}"),
            _ => piece.to_string(),
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// A spec chosen by the input, and the rest of the input after its first line: the first byte
/// picks a registered game, the second one of its samples, the rest of the first line makes
/// the parameter text ([`parameter_text`]) read through [`gamedb::Registry::spec`]; when the
/// registry refuses that text, the sample itself. Also says whether the input's text was
/// taken.
pub fn pick_spec(data: &[u8]) -> (Spec, bool, &[u8]) {
    let games = registry().games();
    let game = &games[data.first().copied().unwrap_or(0) as usize % games.len()];
    let samples = game.samples();
    let sample = &samples[data.get(1).copied().unwrap_or(0) as usize % samples.len()];
    let (first, rest) = line(data.get(2..).unwrap_or(&[]));
    let text = parameter_text(&sample.parameters(), &String::from_utf8_lossy(first));
    match registry().spec(game.name, game.rules_version, &text) {
        Ok(spec) => {
            // What the registry accepts is the canonical text, as a header stores it.
            assert_eq!(spec.parameters(), text, "{} parameters", game.name);
            assert_eq!(spec.name(), game.name);
            (spec, true, rest)
        }
        Err(_) => (sample.clone(), false, rest),
    }
}
