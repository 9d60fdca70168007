//! The command line's refusals: every bad input (positions, build parameters, flags, files,
//! names) exits 2 with one message naming what was wrong and what is accepted, never a panic,
//! and a failed build leaves nothing behind.

mod common;

use common::*;

/// Bad command lines (arguments split at spaces) and fragments of what each must say. `{nim}`
/// is a table of 3 Nim heaps of 0..=7, `{candy}` a candy table of at most 15 candies taking
/// 1..=3, `{out}` the folder they are in, `{empty}` an empty argument.
const BAD: &[(&str, &[&str])] = &[
    (
        "query {nim} 1,2,x",
        &["'x' is not a non-negative integer", "expected heap sizes"],
    ),
    ("query {nim} 1,2,8", &["heap 8 is larger", "0..=7"]),
    ("query {nim} 1,2,3,4", &["has 4 heaps", "1 to 3 heaps"]),
    ("query {nim} {empty}", &["empty position"]),
    ("query {nim} 1,-2", &["not a non-negative integer"]),
    ("query {candy} 4,2,2", &["total 8", "odd totals up to 15"]),
    ("query {candy} 17,0,0", &["total 17"]),
    ("query {candy} 1,2", &["has 2 numbers"]),
    // A table of another game: Nim heaps are not candy positions.
    ("query {candy} 1,2,3,4", &["has 4 numbers"]),
    ("query /nonexistent/t.gtab 1", &["/nonexistent/t.gtab"]),
    ("info Cargo.toml", &["Cargo.toml", "not a gamedb table"]),
    (
        "build nim --heaps 0 --max-heap 7 --out {out}",
        &["--heaps 0", "expected 1..=32"],
    ),
    (
        "build nim --heaps 3 --max-heap 300 --out {out}",
        &["--max-heap 300"],
    ),
    (
        "build nim --heaps 3 --max-heap 7 --max-take 0 --out {out}",
        &["--max-take 0"],
    ),
    (
        "build nim --heaps 3 --max-heap 7 --misere --grundy --out {out}",
        &["--grundy needs normal play"],
    ),
    (
        "build nim --heaps 30 --max-heap 255 --out {out}",
        &["ranking table"],
    ),
    (
        "build candy --max-candies 15 --max-take 0 --out {out}",
        &["--max-take 0"],
    ),
    (
        "build candy --max-candies 15 --max-take 3 --win maybe --out {out}",
        &["maybe", "even", "odd"],
    ),
    (
        "build nim --heaps 3 --max-heap 7 --threads 0 --out {out}",
        &["--threads 0"],
    ),
    ("build chess --out {out}", &["chess"]),
    ("verify no-such-statement", &["unknown statement", "--list"]),
];

#[test]
fn bad_inputs_are_refused_clearly() {
    let dir = cli_build("bad", "nim --heaps 3 --max-heap 7");
    gamedb_ok(&words(
        "build candy --max-candies 15 --max-take 3 --out {} -q",
        &[dir.arg()],
    ));
    let nim = dir.join("nim-3x7.gtab");
    let candy = dir.join("candy-n15-k3-even.gtab");
    for (line, needles) in BAD {
        let args: Vec<&str> = line
            .split_whitespace()
            .map(|a| match a {
                "{empty}" => "",
                "{nim}" => nim.as_str(),
                "{candy}" => candy.as_str(),
                "{out}" => dir.arg(),
                a => a,
            })
            .collect();
        let case = args.join(" ");
        refused(&case, &args, needles);
    }
    // Nothing partial was left behind by the failed builds.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}
