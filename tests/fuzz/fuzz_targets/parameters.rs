//! A table header's identity read back into a spec: a game name (a registered one, or any
//! text: a game of another program), a rules version and parameter text (octal and
//! hexadecimal codes, lists, switches) through `Registry::spec`, and the same text as
//! `gamedb build` options through the game's entry. Never a panic; and:
//! * what the registry accepts is that game, version and canonical text, and everything a
//!   table of it is named and described by can be made;
//! * a refusal says which part is wrong (an unknown game, another rules version, parameters);
//! * what the command line accepts writes canonical text that the registry reads back as the
//!   same spec (one spelling for one table).
#![no_main]

use gamedb::games::NotKnown;
use gamedb::{registry, Spec};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

/// Everything a table of `spec` is named and described by.
fn names(spec: &Spec) {
    assert!(!spec.value_kinds().is_empty());
    for &kind in spec.value_kinds() {
        let _ = (spec.file_name(kind), spec.describe_table(kind));
        let view = spec.view();
        let _ = (view.solve_memory(kind), view.engine().solved_bytes(kind));
    }
    let _ = spec.table_stem(spec.default_kind());
    if spec.positions() <= 1 << 32 {
        let _ = spec.view().rules();
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&how, data)) = data.split_first() else {
        return;
    };
    let games = registry().games();
    let (first, rest) = common::line(data);
    let entry = &games[how as usize % games.len()];
    let samples = entry.samples();
    let sample = &samples[(how as usize / games.len()) % samples.len()];
    let text = common::parameter_text(&sample.parameters(), &String::from_utf8_lossy(first));
    // Mostly the game's own name and version; else the second line names the game.
    let (game, version) = match how & 0xC0 {
        0xC0 => (
            String::from_utf8_lossy(common::line(rest).0).into_owned(),
            entry.rules_version,
        ),
        0x80 => (
            entry.name.to_string(),
            rest.first().map_or(0, |&v| v as u32),
        ),
        _ => (entry.name.to_string(), entry.rules_version),
    };
    match registry().spec(&game, version, &text) {
        Ok(spec) => {
            assert_eq!(
                (spec.name(), spec.rules_version()),
                (game.as_str(), version)
            );
            assert_eq!(spec.parameters(), text, "the accepted text is canonical");
            names(&spec);
        }
        Err(NotKnown::Game(g)) => assert!(registry().get(&g).is_none(), "{g} is registered"),
        Err(NotKnown::RulesVersion { table, known, .. }) => {
            assert_eq!(table, version);
            assert_ne!(table, known);
        }
        Err(e @ NotKnown::Parameters(_)) => {
            let said = e.to_string();
            assert!(said.starts_with(&format!("{game} parameters")), "{said}");
        }
    }
    // The same text as options of `gamedb build GAME`.
    let Ok(args) = gamedb::game::Arguments::parse(&text) else {
        return;
    };
    let Ok((spec, kind)) = entry.from_args(&args) else {
        return;
    };
    spec.check_kind(kind)
        .unwrap_or_else(|e| panic!("{} {text}: the kind its options ask for: {e}", entry.name));
    let canonical = spec.parameters();
    let again = registry()
        .spec(entry.name, entry.rules_version, &canonical)
        .unwrap_or_else(|e| {
            panic!(
                "{} {text}: its canonical text {canonical:?} is refused: {e}",
                entry.name
            )
        });
    assert_eq!(
        again, spec,
        "{} {text} read back from {canonical:?}",
        entry.name
    );
    names(&spec);
});
