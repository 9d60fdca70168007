//! The catalog parser over arbitrary text: a list of entries or one error naming the line;
//! never a panic. Entries it returns are checked specs of at most MAX_POSITIONS positions.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match gamedb::cli::catalog::parse(&text, "fuzz") {
        Ok(entries) => {
            for e in entries {
                assert!(e.spec.value_kinds().contains(&e.kind));
                assert!(e.spec.positions() <= gamedb::game::MAX_POSITIONS);
                assert!(e.line >= 1 && e.line <= text.lines().count());
            }
        }
        Err(e) => assert!(e.to_string().contains("fuzz line"), "{e}"),
    }
});
