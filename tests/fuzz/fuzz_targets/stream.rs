//! The stream reader over arbitrary bytes: exactly one answer line per non-empty input line
//! (bad text and bytes that are not UTF-8 included), in order, each short; never a panic.
#![no_main]

use std::io::BufReader;
use std::sync::OnceLock;

use gamedb::{Spec, Table, ValueKind};
use libfuzzer_sys::fuzz_target;

/// Small tables of a few games, solved once.
fn tables() -> &'static [Table] {
    static T: OnceLock<Vec<Table>> = OnceLock::new();
    T.get_or_init(|| {
        Spec::samples()
            .into_iter()
            .filter(|s| s.positions() < 50_000)
            .map(|s| {
                let kind: ValueKind = s.default_kind();
                Table::from_solved(&s, s.solve(kind, &()).unwrap()).unwrap()
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let tables = tables();
    let table = &tables[first as usize % tables.len()];
    let json = first & 0x80 != 0;
    let mut out = Vec::new();
    let summary = gamedb::fuzzing::answer_lines(
        &mut BufReader::with_capacity(64, input),
        &mut out,
        json,
        |text| {
            Ok(table
                .query(text)
                .map(|a| if json { a.to_json() } else { a.to_text() }))
        },
    )
    .expect("a stream over a table in memory does not fail");
    // One answer per line that is not blank: lines are split at '\n' only.
    let expected = input
        .split(|&b| b == b'\n')
        .filter(|l| match std::str::from_utf8(l) {
            Ok(t) => !t.trim().is_empty(),
            Err(_) => true,
        })
        .count() as u64;
    let text = String::from_utf8(out).expect("answers are UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(summary.lines, expected);
    assert_eq!(lines.len() as u64, expected, "{text}");
    for l in &lines {
        // An echo is at most 200 bytes (+ the cut mark); the rest is the answer or message.
        assert!(l.len() < 4096, "an answer line of {} bytes", l.len());
        if json {
            let v: serde_json::Value = serde_json::from_str(l).expect("each line is JSON");
            assert!(v.get("position").is_some(), "{l}");
        }
    }
});
