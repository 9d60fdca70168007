//! Table files from bytes in memory: headers, opening, the upgrade of format version 1, a few
//! lookups.
//!
//! Two kinds of input: raw bytes taken as a whole file, and edits of a valid small table (the
//! second byte picks it, then a list of (offset, xor) pairs) after which the header checksum
//! is recomputed or not, and the payload checksum too or not, so that the fuzzer reaches the
//! checks behind the checksums.
//! The valid tables are the sample tables of every registered game (format version 2) and the
//! version 1 tables of `tests/data/v1` (written by gamedb 0.3); an edit of the game field
//! with the checksums refitted is a table of a game this build does not know.
//!
//! "Wrong" is a table that opens and verifies although its bytes are not a well-formed table
//! by an independent check (magic, version, header checksum, payload offset and length, zero
//! padding, payload checksum with the identity key, written here from `tables/README.md`):
//! asserted never to happen. Lookups in a table that verifies must not panic, whatever its
//! payload holds; a table of an unknown game refuses every position and answers by index; a
//! version 1 table that verifies upgrades to a version 2 table of the same game, parameters
//! and values.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use gamedb::format::{self, TableFile};
use gamedb::{Table, ValueKind};
use libfuzzer_sys::fuzz_target;
use xxhash_rust::xxh3::xxh3_64;

/// Where the payload starts, in both versions.
const PAYLOAD: usize = 4096;

/// A folder of this process for files the target writes.
fn scratch() -> &'static PathBuf {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("gamedb-fuzz-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    })
}

/// Valid files: the sample tables of every registered game, and the version 1 tables.
fn bases() -> &'static [Vec<u8>] {
    static B: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    B.get_or_init(|| {
        let dir = scratch().join("samples");
        let mut out: Vec<Vec<u8>> = gamedb::build::write_samples(&dir, 20_000)
            .unwrap()
            .iter()
            .map(|name| std::fs::read(dir.join(name)).unwrap())
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        let v1 = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/v1");
        let mut old: Vec<PathBuf> = std::fs::read_dir(v1)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        old.sort();
        out.extend(old.iter().map(|p| std::fs::read(p).unwrap()));
        out
    })
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// The header's length and where its checksums lie, by format version: (header length,
/// payload length field, payload checksum field).
fn layout(b: &[u8]) -> Option<(usize, usize, usize)> {
    match b
        .get(8..12)
        .map(|v| u32::from_le_bytes(v.try_into().unwrap()))
    {
        Some(1) => Some((144, 104, 112)),
        Some(2) => Some((528, 40, 48)),
        _ => None,
    }
}

/// The text of a zero-padded header field: printable ASCII without spaces, then zeros only.
fn field(b: &[u8]) -> Option<&str> {
    let end = b.iter().position(|&x| x == 0).unwrap_or(b.len());
    let ok =
        b[end..].iter().all(|&x| x == 0) && b[..end].iter().all(|&x| (0x21..0x7f).contains(&x));
    ok.then(|| std::str::from_utf8(&b[..end]).unwrap())
}

/// The checksum of the payload as the header stores it: version 2 XORs in the identity key,
/// xxh3-64 of `GAME \0 RULES_VERSION \0 PARAMETERS`.
fn stored_payload_sum(b: &[u8]) -> Option<u64> {
    let sum = xxh3_64(&b[PAYLOAD..]);
    if u32_at(b, 8) == 1 {
        return Some(sum);
    }
    let game = field(&b[72..136])?;
    let parameters = field(&b[136..520])?;
    let key = xxh3_64(format!("{game}\0{}\0{parameters}", u32_at(b, 20)).as_bytes());
    Some(sum ^ key)
}

/// The specification's checks (tables/README.md), written independently of the format
/// module: magic, version, header checksum, offset, length, zero padding, payload checksum.
fn well_formed(b: &[u8]) -> bool {
    let Some((header, len_at, sum_at)) = layout(b) else {
        return false;
    };
    b.len() >= PAYLOAD
        && b[..8] == *b"GAMEDB\r\n"
        && xxh3_64(&b[..header - 8]) == u64_at(b, header - 8)
        && u64_at(b, len_at - 8) == PAYLOAD as u64
        && (b.len() as u64).checked_sub(PAYLOAD as u64) == Some(u64_at(b, len_at))
        && b[header..PAYLOAD].iter().all(|&x| x == 0)
        && stored_payload_sum(b) == Some(u64_at(b, sum_at))
}

/// Lookups in a table that verifies: answers or refusals, never a panic. A table of a game
/// this build does not know refuses every position and answers by index.
fn look_up(table: &Table) {
    let n = table.len();
    let at = |k: u64| (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ n) % n.max(1);
    if table.spec().is_none() {
        assert!(table.query("0").is_err() && table.query("").is_err());
        for k in 0..4 {
            let _ = table.value(at(k));
        }
        return;
    }
    let rules = table.rules();
    let path = table.value_kind() == ValueKind::Distance;
    for k in 0..8u64 {
        let mut pos = rules.unrank(at(k));
        // Sums of heaps (a game played as a sum of entries) are answered from their parts.
        if rules.summands(&pos).is_some() {
            pos.extend(rules.unrank(at(k + 8)));
        }
        let _ = table.query_with(&rules.format(&pos), path);
        let _ = table.outcome_of(&pos);
        let _ = table.value(at(k));
    }
}

/// A version 1 table that verifies upgrades (as `gamedb upgrade` does it) to a version 2
/// table that opens and verifies, with the same game, parameters, kind and payload.
fn upgrade(bytes: &[u8], old: &Table) {
    let path = scratch().join("old.gtab");
    std::fs::write(&path, bytes).unwrap();
    let was = format::upgrade(&path).unwrap_or_else(|e| panic!("a verified version 1 table: {e}"));
    assert_eq!(was, Some(1));
    let new = Table::open(&path).unwrap_or_else(|e| panic!("an upgraded table opens: {e}"));
    new.verify().expect("an upgraded table verifies");
    let (h, g) = (old.file().header(), new.file().header());
    assert_eq!(g.format_version, format::FORMAT_VERSION);
    assert_eq!(
        (
            &g.game,
            g.rules_version,
            &g.parameters,
            g.value_kind,
            g.encoding,
            g.entry_count
        ),
        (
            &h.game,
            h.rules_version,
            &h.parameters,
            h.value_kind,
            h.encoding,
            h.entry_count
        )
    );
    assert_eq!(new.file().payload(), old.file().payload());
    assert_eq!(
        format::upgrade(&path).unwrap(),
        None,
        "an upgraded table is current"
    );
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let bytes = if mode & 1 == 0 {
        rest.to_vec()
    } else {
        let bases = bases();
        let Some((&which, rest)) = rest.split_first() else {
            return;
        };
        let mut b = bases[which as usize % bases.len()].clone();
        let (header, _, sum_at) = layout(&b).expect("a valid base");
        for e in rest.chunks_exact(3) {
            let at = u16::from_le_bytes([e[0], e[1]]) as usize;
            // Most edits in the header, where the structure is.
            let at = if at & 0x8000 == 0 {
                at % header
            } else {
                at % b.len()
            };
            b[at] ^= e[2];
        }
        if mode & 4 != 0 && b.len() >= PAYLOAD {
            // Also make the payload checksum fit the edited payload and identity.
            if let Some(sum) = stored_payload_sum(&b) {
                b[sum_at..sum_at + 8].copy_from_slice(&sum.to_le_bytes());
            }
        }
        if mode & 2 != 0 {
            let h = xxh3_64(&b[..header - 8]).to_le_bytes();
            b[header - 8..header].copy_from_slice(&h);
        }
        b
    };
    let expect_ok = well_formed(&bytes);
    let Ok(file) = TableFile::from_bytes("fuzz.gtab", bytes.clone()) else {
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
    look_up(&table);
    let _ = gamedb::fuzzing::Info::of(&table, "fuzz.gtab").to_json();
    if table.file().header().format_version == 1 {
        upgrade(&bytes, &table);
    }
});
