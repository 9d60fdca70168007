//! Every game's position parser, through the registry: a game and parameters from the input,
//! then the rest of the input as a position. No panic, no hang; and what parses keeps the
//! rules' contracts: it ranks inside the table, unranks and re-parses to the same index, and
//! its moves lead to positions of the table.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (spec, rest) = common::pick_spec(data);
    let Ok(rules) = spec.rules() else { return };
    let text = String::from_utf8_lossy(rest);
    let Ok(pos) = rules.parse(&text) else { return };
    rules
        .check(&pos)
        .expect("a parsed position passes its check");
    if rules.outside(&pos).is_some() {
        return;
    }
    let n = spec.positions();
    let i = rules.rank(&pos);
    assert!(i < n, "{spec:?}: {text:?} ranks to {i} of {n}");
    let canonical = rules.unrank(i);
    assert_eq!(rules.rank(&canonical), i, "{spec:?}: unrank/rank of {i}");
    let again = rules
        .parse(&rules.format(&pos))
        .expect("a formatted position parses");
    assert_eq!(rules.rank(&again), i, "{spec:?}: format/parse of {text:?}");
    let moves = rules.moves(&pos);
    let mut fast = Vec::new();
    rules.move_indices(&pos, &mut fast);
    assert_eq!(
        fast.len(),
        moves.len(),
        "{spec:?}: move_indices of {text:?}"
    );
    for (m, &j) in moves.iter().zip(&fast) {
        rules.check(&m.leaves).expect("a move leaves a position");
        if rules.outside(&m.leaves).is_none() {
            assert_eq!(rules.rank(&m.leaves), j, "{spec:?}: move {}", m.label);
            assert!(j < n);
        }
    }
});
