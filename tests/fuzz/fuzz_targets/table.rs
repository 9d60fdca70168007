//! Table headers and table opening from bytes in memory, then a few lookups.
//!
//! Two kinds of input: raw bytes taken as a whole file, and edits of a valid small table (a
//! list of (offset, xor) pairs) after which the header checksum is recomputed or not, and the
//! payload checksum too or not, so that the fuzzer reaches the checks behind the checksums.
//!
//! "Wrong" is a table that opens and verifies although its bytes are not a well-formed table
//! by an independent check (magic, version, header checksum, payload offset and length,
//! payload checksum, written here from the format's specification): asserted never to happen.
//! Lookups in a table that verifies must not panic, whatever its payload holds.
#![no_main]

use std::sync::OnceLock;

use gamedb::format::TableFile;
use gamedb::{Table, ValueKind};
use libfuzzer_sys::fuzz_target;
use xxhash_rust::xxh3::xxh3_64;

/// Valid files of a few small tables, written to a temporary folder once and read back.
fn bases() -> &'static [Vec<u8>] {
    static B: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    B.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("gamedb-fuzz-table-{}", std::process::id()));
        let out = gamedb::build::write_samples(&dir, 20_000)
            .unwrap()
            .iter()
            .map(|name| std::fs::read(dir.join(name)).unwrap())
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        out
    })
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// The specification's checks (tables/README.md), written independently of the format
/// module: magic, version, header checksum, offset, length, zero padding, payload checksum.
fn well_formed(b: &[u8]) -> bool {
    b.len() >= 144
        && &b[..8] == b"GAMEDB\r\n"
        && u32::from_le_bytes(b[8..12].try_into().unwrap()) == 1
        && xxh3_64(&b[..136]) == u64_at(b, 136)
        && u64_at(b, 96) == 4096
        && (b.len() as u64).checked_sub(4096) == Some(u64_at(b, 104))
        && b[144..4096].iter().all(|&x| x == 0)
        && xxh3_64(&b[4096..]) == u64_at(b, 112)
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let bytes = if mode & 1 == 0 {
        rest.to_vec()
    } else {
        let bases = bases();
        let mut b = bases[(mode >> 3) as usize % bases.len()].clone();
        for e in rest.chunks_exact(3) {
            let at = u16::from_le_bytes([e[0], e[1]]) as usize;
            // Most edits in the header, where the structure is.
            let at = if at & 0x8000 == 0 {
                at % 144
            } else {
                at % b.len()
            };
            b[at] ^= e[2];
        }
        if mode & 4 != 0 {
            // Also make the payload checksum fit the edited payload.
            let h = xxh3_64(&b[4096..]).to_le_bytes();
            b[112..120].copy_from_slice(&h);
        }
        if mode & 2 != 0 {
            let h = xxh3_64(&b[..136]).to_le_bytes();
            b[136..144].copy_from_slice(&h);
        }
        b
    };
    let expect_ok = well_formed(&bytes);
    let Ok(file) = TableFile::from_bytes("fuzz.gtab", bytes) else {
        return;
    };
    let Ok(table) = Table::from_file(file) else {
        return;
    };
    if table.verify().is_err() {
        assert!(!expect_ok, "a well-formed table fails its checksum");
        return;
    }
    assert!(
        expect_ok,
        "a table that is not well formed opens and verifies"
    );
    // A verified table answers (or refuses) without panicking, whatever its payload holds.
    let n = table.len();
    let rules = table.rules();
    for k in 0..8u64 {
        let i = (k * 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(n + 1)) % n.max(1);
        let pos = rules.unrank(i);
        let text = rules.format(&pos);
        let _ = table.query_with(&text, table.value_kind() == ValueKind::Distance);
        let _ = table.outcome_of(&pos);
    }
    let _ = gamedb::fuzzing::Info::of(&table, "fuzz.gtab").to_json();
});
