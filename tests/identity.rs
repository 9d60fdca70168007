//! Tables name their game: headers carry the game's name, rules version and parameters as
//! text; tables of format version 1 (game numbers, written by gamedb 0.3) still open and
//! upgrade to byte-identical current tables; a table of a game this build does not know opens
//! by index; a header altered to name another game is refused, never answered as that game.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use gamedb::format::{self, TableFile, TableMeta};
use gamedb::{Error, Table};

/// The tables in `tests/data/v1`, written by gamedb 0.3 (format version 1), each with the
/// `gamedb build` words that make the same table today.
const V1: &[(&str, &str)] = &[
    (
        "candy-n21-k3-even.gtab",
        "candy --max-candies 21 --max-take 3",
    ),
    (
        "candy-n21-k4-odd.gtab",
        "candy --max-candies 21 --max-take 4 --win odd",
    ),
    ("nim-3x7.gtab", "nim --heaps 3 --max-heap 7"),
    ("nim-3x7-grundy.gtab", "nim --heaps 3 --max-heap 7 --grundy"),
    (
        "nim-2x9-k3-misere.gtab",
        "nim --heaps 2 --max-heap 9 --max-take 3 --misere",
    ),
    ("chomp-3x4.gtab", "chomp --rows 3 --cols 4"),
    ("chomp-3x4-grundy.gtab", "chomp --rows 3 --cols 4 --grundy"),
    ("slide-2x3.gtab", "slide --rows 2 --cols 3"),
    ("pdb-2x3-1-2.gtab", "pdb --rows 2 --cols 3 --pattern 1,2"),
    ("wythoff-10.gtab", "wythoff --max-heap 10"),
    ("wythoff-10-grundy.gtab", "wythoff --max-heap 10 --grundy"),
    ("chomp3-12.gtab", "chomp3 --max 12"),
];

fn v1(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/v1")
        .join(name)
}

#[test]
fn version_1_tables_open_answer_and_upgrade_to_todays_bytes() {
    let dir = TempDir::new("identity-v1");
    let fresh = dir.path().join("fresh");
    let old = dir.path().join("old");
    std::fs::create_dir_all(&old).unwrap();
    for (name, words) in V1 {
        let mut args = vec!["build", "-q", "--out", fresh.to_str().unwrap()];
        args.extend(words.split_whitespace());
        gamedb_ok(&args);
        let new_path = fresh.join(name);
        let old_path = old.join(name);
        std::fs::copy(v1(name), &old_path).unwrap();

        // The old table opens as the same game, parameters and values as today's.
        let (a, b) = (
            Table::open(&old_path).unwrap(),
            Table::open(&new_path).unwrap(),
        );
        a.verify().unwrap();
        assert_eq!(a.file().header().format_version, 1, "{name}");
        assert_eq!(a.spec(), b.spec(), "{name}");
        assert_eq!(a.describe(), b.describe(), "{name}");
        assert_eq!(a.file().payload(), b.file().payload(), "{name}");
        // Every entry answers alike, by index (which gives the position there).
        for i in 0..a.len() {
            let (x, y) = (
                a.query_index(i, false).unwrap(),
                b.query_index(i, false).unwrap(),
            );
            assert_eq!(x, y, "{name} #{i}");
        }
        let info = gamedb_ok(&["info", old_path.to_str().unwrap()]);
        assert!(info.contains("format:          version 1"), "{info}");

        // `gamedb upgrade` rewrites it as today's build writes it, byte for byte.
        let said = gamedb_ok(&["upgrade", old_path.to_str().unwrap()]);
        assert!(
            said.contains("upgraded from format version 1 to 2"),
            "{said}"
        );
        assert_eq!(
            std::fs::read(&old_path).unwrap(),
            std::fs::read(&new_path).unwrap(),
            "{name}: the upgraded table differs from a fresh build"
        );
        let again = gamedb_ok(&["upgrade", old_path.to_str().unwrap()]);
        assert!(again.contains("already format version 2"), "{again}");
    }
}

#[test]
fn headers_name_the_game_and_its_parameters_as_text() {
    let dir = cli_build("identity-text", "nim --heaps 3 --max-heap 7 --max-take 2");
    let path = dir.join("nim-3x7-k2.gtab");
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[72..76], b"nim\0");
    assert_eq!(&bytes[136..166], b"heaps=3,max-heap=7,max-take=2\0");
    let info = json(&gamedb_ok(&["info", "--json", &path]));
    assert_eq!(info["game"], "nim");
    assert_eq!(info["parameters"], "heaps=3,max-heap=7,max-take=2");
    assert_eq!(info["rules_version"], 1);
    assert_eq!(info["known"], true);
    assert_eq!(info["format_version"], 2);
}

/// Writes `path`'s payload again under a header naming `game` with `parameters` (a valid
/// header: its checksums are those a writer of that game would compute), as another program
/// or a careless edit would.
fn rename_game(path: &str, out: &Path, game: &str, parameters: &str, keep_payload_sum: bool) {
    let file = TableFile::open(Path::new(path)).unwrap();
    let h = file.header().clone();
    let meta = TableMeta {
        game: game.into(),
        rules_version: h.rules_version,
        parameters: parameters.into(),
        value_kind: h.value_kind,
        encoding: h.encoding,
        entry_count: h.entry_count,
    };
    format::write_table(out, &meta, file.payload()).unwrap();
    if keep_payload_sum {
        // Put back the payload checksum field of the original header (an edit of the game
        // fields that recomputes only the header checksum).
        let original = std::fs::read(path).unwrap();
        let mut bytes = std::fs::read(out).unwrap();
        bytes[48..56].copy_from_slice(&original[48..56]);
        let sum = xxhash_rust::xxh3::xxh3_64(&bytes[..520]);
        bytes[520..528].copy_from_slice(&sum.to_le_bytes());
        std::fs::write(out, bytes).unwrap();
    }
}

#[test]
fn a_header_altered_to_name_another_game_is_never_answered_as_it() {
    // Nim 3 heaps of 0..=7 and the subtraction game S={1,2} on heaps 0..=119 both have 120
    // positions stored as P/N bits: the payload fits either header.
    let dir = cli_build("identity-altered", "nim --heaps 3 --max-heap 7");
    let nim = dir.join("nim-3x7.gtab");
    let forged = dir.path().join("forged.gtab");
    rename_game(&nim, &forged, "subtraction", "set=1,2,max-heap=119", true);
    let f = forged.to_str().unwrap();
    refused(
        "query",
        &["query", f, "5"],
        &["forged.gtab", "payload checksum mismatch", "another game"],
    );
    refused(
        "verify-table",
        &["verify-table", f],
        &["payload checksum mismatch"],
    );
    refused("info", &["info", f], &["payload checksum mismatch"]);

    // The same payload under a header of another size of game is refused for its size.
    let other = dir.path().join("other.gtab");
    rename_game(&nim, &other, "wythoff", "max-heap=10", false);
    refused(
        "size",
        &["query", other.to_str().unwrap(), "1,2"],
        &["other.gtab", "damaged table", "header says 120 entries"],
    );
}

#[test]
fn a_table_of_a_game_this_build_does_not_know_opens_by_index() {
    let dir = cli_build("identity-unknown", "nim --heaps 3 --max-heap 7 --grundy");
    let nim = dir.join("nim-3x7-grundy.gtab");
    let theirs = dir.path().join("theirs.gtab");
    rename_game(&nim, &theirs, "somecrate/somegame", "size=7", false);
    let t = theirs.to_str().unwrap();

    // info: the game and parameters as written, the counts, the value distribution.
    let info = gamedb_ok(&["info", t]);
    assert!(info.contains("somecrate/somegame size=7"), "{info}");
    assert!(info.contains("not known to this build"), "{info}");
    let ours = json(&gamedb_ok(&["info", "--json", &nim]));
    let their = json(&gamedb_ok(&["info", "--json", t]));
    assert_eq!(their["known"], false);
    assert_eq!(their["game"], "somecrate/somegame");
    assert_eq!(their["parameters"], "size=7");
    for key in [
        "entries",
        "p_positions",
        "n_positions",
        "grundy_counts",
        "max_grundy",
    ] {
        assert_eq!(their[key], ours[key], "{key}");
    }
    assert_eq!(their["checksum"], "ok");
    gamedb_ok(&["verify-table", t]);

    // Queries by index answer the stored values; a position cannot be read (exit 2, never
    // "damaged").
    let answer = json(&gamedb_ok(&["query", "--json", t, "#5"]));
    let expected = Table::open(&nim).unwrap();
    assert_eq!(answer["index"], 5);
    assert_eq!(answer["value"], expected.grundy(5).unwrap());
    assert_eq!(answer["outcome"], expected.outcome(5).as_str());
    let e = refused(
        "position",
        &["query", t, "1,2,3"],
        &["game 'somecrate/somegame' is not known to this build"],
    );
    assert!(!e.contains("damaged"), "{e}");
    refused("index", &["query", t, "#120"], &["#0..=#119"]);

    // export writes every entry by index.
    let csv = gamedb_ok(&["export", t]);
    assert_eq!(csv.lines().count(), 121, "{csv}");

    // The library says the same.
    let table = Table::open(&theirs).unwrap();
    assert!(table.spec().is_none());
    assert!(matches!(table.query("1,2,3"), Err(Error::UnknownGame(_))));
    assert_eq!(table.raw(7), expected.raw(7));

    // Known indices answer with the position there.
    let known = json(&gamedb_ok(&["query", "--json", &nim, "#5"]));
    assert_eq!(
        known["position"],
        expected.rules().format(&expected.rules().unrank(5))
    );
}
