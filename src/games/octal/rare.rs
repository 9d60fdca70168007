//! The rare values of a table (the sparse-space split with the fewest rare heaps, as the
//! sparse solver chooses it) and the heaps that have them, as facts for `gamedb info`.

use super::sparse;
use crate::game::{Fact, Values};

/// Most rare heaps `info` lists one by one.
const LISTED_RARE: usize = 100;

/// The mask of the rare values among values counted as `count[v]` (heaps of value `v`): the
/// sparse-space split with the fewest rare heaps, as the sparse solver and `info` choose it.
/// A value `v` is rare when `v & mask` has an even number of bits (`is_rare`).
pub fn rare_mask(count: &[u64]) -> usize {
    sparse::choose_mask(count)
}

/// Whether `v` is rare under `mask` ([`rare_mask`]).
pub(crate) fn is_rare(v: usize, mask: usize) -> bool {
    (v & mask).count_ones() % 2 == 0
}

/// The rare values (the sparse-space split with the fewest rare heaps, as the sparse solver
/// chooses it) and the heaps that have them: `info`'s `rare_mask`, `rare_values` (value,
/// heaps, last heap) and `rare_heaps` (the first `LISTED_RARE` heaps with their values, and
/// how many there are).
pub(crate) fn rare_facts(values: &dyn Values) -> Vec<Fact> {
    let n = values.len();
    let mut count = vec![0u64; 1 << 16];
    let mut last = vec![0u64; 1 << 16];
    // The first heaps of each value: the first rare heaps are among them, whichever values
    // the mask makes rare, so one pass over the table serves.
    let mut first: Vec<Vec<u64>> = vec![Vec::new(); 1 << 16];
    for i in 0..n {
        let v = values.raw(i) as usize;
        count[v] += 1;
        last[v] = i;
        if first[v].len() < LISTED_RARE {
            first[v].push(i);
        }
    }
    let mask = rare_mask(&count);
    let rare = |v: usize| is_rare(v, mask);
    let rare_values: Vec<usize> = (0..count.len())
        .filter(|&v| count[v] > 0 && rare(v))
        .collect();
    let heaps: u64 = rare_values.iter().map(|&v| count[v]).sum();
    let mut listed: Vec<(u64, usize)> = rare_values
        .iter()
        .flat_map(|&v| first[v].iter().map(move |&i| (i, v)))
        .collect();
    listed.sort_unstable();
    listed.truncate(LISTED_RARE);
    let values_text = rare_values
        .iter()
        .map(|&v| format!("{v} ({} heaps, the last {})", count[v], last[v]))
        .collect::<Vec<_>>()
        .join(", ");
    let heaps_text = listed
        .iter()
        .map(|(i, v)| format!("{i}:{v}"))
        .collect::<Vec<_>>()
        .join(" ");
    let more = if heaps as usize > listed.len() {
        format!(" ... ({heaps} in all)")
    } else {
        format!(" ({heaps} in all)")
    };
    vec![
        Fact {
            key: "rare_mask".into(),
            label: "Rare values".into(),
            text: format!(
                "those v with an even number of bits in v & {mask} (the split with the fewest \
                 rare heaps); the others are common"
            ),
            json: mask.into(),
        },
        Fact {
            key: "rare_values".into(),
            label: "Rare values found".into(),
            text: values_text,
            json: rare_values
                .iter()
                .map(|&v| serde_json::json!({"value": v, "heaps": count[v], "last_heap": last[v]}))
                .collect::<Vec<_>>()
                .into(),
        },
        Fact {
            key: "rare_heaps".into(),
            label: "Rare heaps (heap:value)".into(),
            text: format!("{heaps_text}{more}"),
            json: serde_json::json!({
                "count": heaps,
                "first": listed.iter().map(|&(i, v)| [i, v as u64]).collect::<Vec<_>>(),
            }),
        },
    ]
}
