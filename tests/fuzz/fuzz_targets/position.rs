//! Every game's position parser, through the registry: a game and parameters from the input
//! (see `common::pick_spec`), then the rest of the input as a position. No panic, no hang; and
//! what parses keeps the rules' contracts: it passes its check; each of its entries (the
//! position itself, or each part of a sum of heaps) ranks inside the table and unranks back;
//! formatting and parsing again gives the same entries; the fast entry index agrees with the
//! checked path; the moves leave positions of the table, at the indices `move_indices` gives.
#![no_main]

use gamedb::game::{conformance, Rules, MAX_POSITIONS};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

/// Positions with a number above this are parsed and ranked but their moves not listed: a
/// first row of three-rowed Chomp has as many bites as cells (up to 2^32 - 1), a heap of 2^20
/// in a hexadecimal game ~10^11 moves.
const MOVES_UP_TO: u32 = 1 << 10;

/// Candidates of a weighing state whose weighings are still listed.
const WEIGHING_MOVES_UP_TO: u32 = 60;

/// The entries a checked position reads: each part of a sum, or the position itself.
fn entries(rules: &dyn Rules, pos: &[u32]) -> Vec<Vec<u32>> {
    match rules.summands(pos) {
        Some(parts) => parts,
        None => vec![pos.to_vec()],
    }
}

fuzz_target!(|data: &[u8]| {
    let (spec, _, rest) = common::pick_spec(data);
    let n = spec.positions();
    if n > MAX_POSITIONS {
        return;
    }
    let view = spec.view();
    let rules = view.rules();
    let text = String::from_utf8_lossy(rest);
    let Ok(pos) = rules.parse(&text) else { return };
    rules.check(&pos).unwrap_or_else(|e| {
        panic!("{spec:?}: {text:?} parses to {pos:?}, which fails its check: {e}")
    });
    conformance::entry_index(rules, &pos).unwrap_or_else(|e| panic!("{spec:?}: {pos:?}: {e}"));
    if rules.outside(&pos).is_some() {
        return;
    }
    let parts = entries(rules, &pos);
    for part in &parts {
        rules.check(part).expect("each part of a sum is a position");
        assert!(
            rules.outside(part).is_none(),
            "{spec:?}: part {part:?} of {pos:?}"
        );
        if let Some(again) = rules.summands(part) {
            assert_eq!(
                &again,
                &[part.clone()],
                "{spec:?}: a part is its own only part"
            );
        }
        let i = rules.rank(part);
        assert!(i < n, "{spec:?}: {part:?} of {text:?} ranks to {i} of {n}");
        assert_eq!(
            rules.rank(&rules.unrank(i)),
            i,
            "{spec:?}: unrank/rank of {i}"
        );
    }
    let formatted = rules.format(&pos);
    let again = rules
        .parse(&formatted)
        .unwrap_or_else(|e| panic!("{spec:?}: {pos:?} formats to {formatted:?}, refused: {e}"));
    let rank = |parts: &[Vec<u32>]| parts.iter().map(|p| rules.rank(p)).collect::<Vec<_>>();
    assert_eq!(
        rank(&entries(rules, &again)),
        rank(&parts),
        "{spec:?}: format/parse of {text:?}"
    );
    if pos.iter().any(|&x| x > MOVES_UP_TO) {
        return;
    }
    // The weighing puzzle lists every weighing of a state, about k^4/4 of k candidates.
    if spec.name() == "weighing" && pos.iter().take(3).sum::<u32>() > WEIGHING_MOVES_UP_TO {
        return;
    }
    let moves = rules.moves(&pos);
    for m in &moves {
        rules
            .check(&m.leaves)
            .unwrap_or_else(|e| panic!("{spec:?}: move {} of {pos:?}: {e}", m.label));
        if rules.outside(&m.leaves).is_none() {
            for part in entries(rules, &m.leaves) {
                assert!(rules.rank(&part) < n, "{spec:?}: move {}", m.label);
            }
        }
    }
    // Move indices are asked of single entries only (a sum's moves are its parts' moves).
    if rules.summands(&pos).is_none() {
        let mut fast = Vec::new();
        rules.move_indices(&pos, &mut fast);
        assert_eq!(
            fast.len(),
            moves.len(),
            "{spec:?}: move_indices of {text:?}"
        );
        for (m, &j) in moves.iter().zip(&fast) {
            if rules.outside(&m.leaves).is_none() {
                assert_eq!(rules.rank(&m.leaves), j, "{spec:?}: move {}", m.label);
            }
        }
    }
});
