//! Property tests of the table file: any byte flipped, any length changed, is refused — a
//! flip in the first page (header, padding) when the table is opened, a flip in the payload by
//! the payload checksum — for tables of every registered game (through the registry).

use std::sync::OnceLock;

use gamedb::format::{self, TableFile};
use gamedb::Table;
use proptest::prelude::*;

/// The files of small tables of every registered game and value kind, written once.
fn files() -> &'static [(String, Vec<u8>)] {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("gamedb-proptest-{}", std::process::id()));
        let out: Vec<(String, Vec<u8>)> = gamedb::build::write_samples(&dir, 50_000)
            .unwrap()
            .into_iter()
            .map(|name| {
                let bytes = std::fs::read(dir.join(&name)).unwrap();
                (name, bytes)
            })
            .collect();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(out.len() >= gamedb::registry().games().len());
        out
    })
}

/// Opens (header and structure) and verifies (payload checksum) a file held in memory:
/// `Ok` only when both pass; the error says which refused it.
fn open_and_verify(bytes: Vec<u8>) -> Result<(), (&'static str, String)> {
    let table = TableFile::from_bytes("t.gtab", bytes)
        .and_then(Table::from_file)
        .map_err(|e| ("open", e.to_string()))?;
    table.verify().map_err(|e| ("verify", e.to_string()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_flipped_byte_is_refused(which in any::<usize>(), at in any::<usize>(), xor in 1u8..=255) {
        let (name, good) = &files()[which % files().len()];
        prop_assert!(open_and_verify(good.clone()).is_ok());
        let at = at % good.len();
        let mut bad = good.clone();
        bad[at] ^= xor;
        match open_and_verify(bad) {
            Ok(()) => prop_assert!(false, "{name}: byte {at} ^ {xor:#x} accepted"),
            Err((step, msg)) => {
                let expected = if at < format::PAYLOAD_OFFSET as usize { "open" } else { "verify" };
                prop_assert_eq!(step, expected, "{}: byte {}: {}", name, at, msg);
                prop_assert!(msg.contains("t.gtab"), "{msg}");
            }
        }
    }

    #[test]
    fn every_other_length_is_refused_on_opening(which in any::<usize>(), cut in any::<usize>(), extra in 1usize..9000) {
        let (name, good) = &files()[which % files().len()];
        let short = good[..cut % good.len()].to_vec();
        let r = open_and_verify(short);
        prop_assert!(matches!(r, Err(("open", _))), "{name}: cut at {}: {r:?}", cut % good.len());
        let mut long = good.clone();
        long.resize(good.len() + extra, 0);
        let r = open_and_verify(long);
        prop_assert!(matches!(r, Err(("open", _))), "{name}: {extra} bytes added: {r:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    /// The same through a file on disk (mapped): opening and `verify` refuse as in memory.
    #[test]
    fn flipped_files_on_disk_are_refused(which in any::<usize>(), at in any::<usize>(), xor in 1u8..=255) {
        let (name, good) = &files()[which % files().len()];
        let at = at % good.len();
        let mut bad = good.clone();
        bad[at] ^= xor;
        let dir = std::env::temp_dir().join(format!("gamedb-proptest-disk-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, &bad).unwrap();
        let r = Table::open(&path).and_then(|t| t.verify());
        std::fs::remove_file(&path).unwrap();
        let _ = std::fs::remove_dir(&dir);
        prop_assert!(r.is_err(), "{name}: byte {at} ^ {xor:#x} accepted");
        prop_assert!(r.unwrap_err().to_string().contains(name.as_str()));
    }
}
