//! Property tests over every registered game, through the registry (a game added to the
//! registry is tested here without a line of new code): random small parameters, random
//! indices and random text.
//!
//! * rank/unrank round trips, and unranked positions pass the rules' check (or are refused
//!   with a message: the candy game's last index is a state no game reaches);
//! * parse/print round trips (`format` then `parse` gives the same position's index);
//! * moves: `move_indices` agrees with the leaves of `moves` (for a game played as a sum, each
//!   move leaves parts that are entries of the table), `moves_at` picks the same moves;
//! * the game's own contracts on the whole instance (`Spec::conformance`: children and
//!   parents consistent, levels, terminal positions) for random small instances;
//! * the solved values of every kind satisfy the game's recurrence from its own moves
//!   (`Spec::check_values`) on random small instances.

use std::sync::OnceLock;

use gamedb::game::{Arguments, ParamValue};
use gamedb::games::{registry, Spec};
use proptest::prelude::*;

/// Every valid spec whose parameters lie in a small grid (each declared parameter given
/// small numbers, short lists, each choice, on and off: made from the registry's parameter
/// lists, so the grid knows no game) and that has at most 4,000 positions; a game with none
/// there, by its smallest sample (at most 20,000 positions).
fn small_specs() -> &'static [Spec] {
    static ALL: OnceLock<Vec<Spec>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = Vec::new();
        for entry in registry().games() {
            let mut grid = vec![Arguments::new()];
            for p in entry.params {
                let values: Vec<Option<String>> = match p.value {
                    ParamValue::Required(_) | ParamValue::Optional(_) => {
                        let numbers = (0..10).map(|n| n.to_string());
                        // Lists, and codes of octal games.
                        let lists = ["1,2", "1,3,4", "2,5,7", "1,2,3", "0.7", "0.16", "4.07"]
                            .map(String::from);
                        let mut v: Vec<Option<String>> = numbers.chain(lists).map(Some).collect();
                        if matches!(p.value, ParamValue::Optional(_)) {
                            v.push(None);
                        }
                        v
                    }
                    ParamValue::Choice { choices, .. } => {
                        choices.iter().map(|c| Some(c.to_string())).collect()
                    }
                    ParamValue::Flag => vec![None, Some("true".into())],
                };
                grid = grid
                    .iter()
                    .flat_map(|args| {
                        values.iter().map(move |v| match v {
                            Some(v) => args.clone().with(p.name, v),
                            None => args.clone(),
                        })
                    })
                    .collect();
            }
            for args in grid {
                if let Ok((spec, _)) = entry.from_args(&args) {
                    if spec.positions() <= 4_000 && !out.contains(&spec) {
                        out.push(spec);
                    }
                }
            }
            // A game the grid cannot spell (a chess material) or whose smallest instance is
            // larger (the mill games: 8,400 positions) comes in by its smallest sample.
            if !out.iter().any(|s| s.name() == entry.name) {
                let smallest = entry
                    .samples()
                    .into_iter()
                    .filter(|s| s.positions() <= 20_000)
                    .min_by_key(|s| s.positions());
                out.extend(smallest);
            }
            // Every registered game is represented.
            assert!(
                out.iter().any(|s| s.name() == entry.name),
                "no small instance of {} in the grid: widen it",
                entry.name
            );
        }
        out
    })
}

/// A small spec and a seed for indices.
fn spec_and_seed() -> impl Strategy<Value = (Spec, u64)> {
    (0..small_specs().len(), any::<u64>()).prop_map(|(i, seed)| (small_specs()[i].clone(), seed))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn rank_unrank_and_print_parse_round_trip((spec, seed) in spec_and_seed()) {
        let rules = spec.view().shared_rules();
        let n = spec.positions();
        for k in 0..16u64 {
            let i = seed.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)) % n;
            let pos = rules.unrank(i);
            prop_assert_eq!(rules.rank(&pos), i, "{:?}: rank(unrank({}))", spec, i);
            // A few indices may hold states no position reaches (the candy game's last one):
            // the check refuses those, with a message.
            if let Err(e) = rules.check(&pos) {
                prop_assert!(e.to_string().contains("expected"), "{spec:?}: {e}");
                continue;
            }
            prop_assert!(rules.outside(&pos).is_none(), "{spec:?}: unrank({i}) is outside");
            let text = rules.format(&pos);
            let again = rules.parse(&text);
            prop_assert!(again.is_ok(), "{spec:?}: '{text}' does not parse: {:?}", again.err());
            let again = again.unwrap();
            prop_assert_eq!(rules.rank(&again), i, "{:?}: parse(format) of '{}'", spec, text);
            prop_assert_eq!(rules.format(&again), text.clone());
        }
    }

    #[test]
    fn moves_agree_with_their_indices((spec, seed) in spec_and_seed(), pick in any::<u64>()) {
        let rules = spec.view().shared_rules();
        let n = spec.positions();
        let pos = rules.unrank(seed % n);
        prop_assume!(rules.check(&pos).is_ok());
        let moves = rules.moves(&pos);
        if rules.summands(&pos).is_some() {
            // A game played as a sum: each move leaves parts, each one entry of the table.
            for m in &moves {
                prop_assert!(rules.check(&m.leaves).is_ok(), "{spec:?}: {} leaves {:?}", m.label, m.leaves);
                for part in rules.summands(&m.leaves).unwrap() {
                    prop_assert!(rules.rank(&part) < n, "{spec:?}: {} leaves {:?}", m.label, m.leaves);
                }
            }
            let which: Vec<usize> = (0..moves.len()).filter(|k| pick >> (k % 64) & 1 == 1).collect();
            let picked: Vec<_> = which.iter().map(|&k| moves[k].clone()).collect();
            prop_assert_eq!(rules.moves_at(&pos, &which), picked);
            return Ok(());
        }
        let mut fast = Vec::new();
        rules.move_indices(&pos, &mut fast);
        prop_assert_eq!(fast.len(), moves.len());
        for (m, &j) in moves.iter().zip(&fast) {
            prop_assert!(rules.check(&m.leaves).is_ok(), "{spec:?}: {} leaves {:?}", m.label, m.leaves);
            if rules.outside(&m.leaves).is_none() {
                prop_assert_eq!(rules.rank(&m.leaves), j);
                prop_assert!(j < n);
            }
        }
        let which: Vec<usize> = (0..moves.len()).filter(|k| pick >> (k % 64) & 1 == 1).collect();
        let picked: Vec<_> = which.iter().map(|&k| moves[k].clone()).collect();
        prop_assert_eq!(rules.moves_at(&pos, &which), picked);
    }

    /// The checked lookups' fast path (`Rules::entry_index`) on any list of numbers (random
    /// ones, and positions of the table with one number changed): nothing, or exactly the
    /// rank of a position the check accepts, not outside the table and not a sum.
    #[test]
    fn entry_index_answers_only_what_the_check_accepts(
        (spec, seed) in spec_and_seed(),
        numbers in proptest::collection::vec(prop_oneof![0u32..12, any::<u32>()], 0..12),
        at in any::<usize>(),
    ) {
        let rules = spec.view().shared_rules();
        let pos = rules.unrank(seed % spec.positions());
        let mut changed = pos.clone();
        if let (Some(slot), Some(&v)) = (changed.len().checked_sub(1), numbers.first()) {
            changed[at % (slot + 1)] = v;
        }
        for list in [&pos, &changed, &numbers] {
            let agrees = gamedb::game::conformance::entry_index(rules.as_ref(), list);
            prop_assert!(agrees.is_ok(), "{spec:?}: {}", agrees.unwrap_err());
        }
    }

    /// The lookups' fast path from text (`Rules::text_entry_index`) on a position's text
    /// with characters changed: nothing, or what `entry_index` gives for what `parse` reads.
    #[test]
    fn text_entry_index_answers_only_what_parse_reads(
        (spec, seed) in spec_and_seed(),
        changes in proptest::collection::vec(any::<usize>(), 0..4),
    ) {
        let rules = spec.view().shared_rules();
        let mut text = rules.format(&rules.unrank(seed % spec.positions()));
        let agrees = gamedb::game::conformance::text_entry_index(rules.as_ref(), &text);
        prop_assert!(agrees.is_ok(), "{spec:?}: {}", agrees.unwrap_err());
        for k in changes {
            text = gamedb::game::conformance::changed_text(&text, k);
            let agrees = gamedb::game::conformance::text_entry_index(rules.as_ref(), &text);
            prop_assert!(agrees.is_ok(), "{spec:?}: {}", agrees.unwrap_err());
        }
    }

    #[test]
    fn random_text_is_parsed_or_refused_with_a_message(
        (spec, _) in spec_and_seed(),
        numbers in proptest::collection::vec(0u32..40, 0..20),
        noise in "[ ,0-9x+-]{0,12}",
    ) {
        let rules = spec.view().shared_rules();
        let text = numbers.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(",") + &noise;
        match rules.parse(&text) {
            Ok(pos) => {
                prop_assert!(rules.check(&pos).is_ok());
                let printed = rules.format(&pos);
                let back = rules.parse(&printed).unwrap();
                prop_assert_eq!(rules.format(&back), printed);
                if let Some(parts) = rules.summands(&pos) {
                    for part in parts {
                        prop_assert!(rules.rank(&part) < spec.positions());
                    }
                } else if rules.outside(&pos).is_none() {
                    prop_assert!(rules.rank(&pos) < spec.positions());
                }
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.contains("expected"), "{spec:?}: '{text}': {msg}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// Children and parents consistent, levels in order, terminal positions right: the
    /// game's own contracts over a whole random small instance.
    #[test]
    fn conformance_of_random_small_instances((spec, _) in spec_and_seed()) {
        let checked = spec.view().conformance();
        prop_assert!(checked.is_ok(), "{spec:?}: {:?}", checked.err());
    }

    /// The solved values of every kind the game supports satisfy the game's own recurrence,
    /// computed from its moves (`Spec::check_values`): P exactly when no move reaches P, the
    /// terminal outcome the rules state, Grundy = mex, distance = 1 + the nearest neighbour's.
    #[test]
    fn solved_values_of_random_small_instances_satisfy_the_recurrence((spec, _) in spec_and_seed()) {
        let checked = spec.check_values();
        prop_assert!(checked.is_ok(), "{spec:?}: {}", checked.unwrap_err());
    }
}
