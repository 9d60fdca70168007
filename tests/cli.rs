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
    // A position starting with '-' is a position error, not an unknown flag.
    (
        "query {nim} -1,2",
        &[
            "position '-1,2'",
            "'-1' is not a non-negative integer",
            "expected heap sizes",
        ],
    ),
    ("query {nim} -3", &["position '-3'", "expected heap sizes"]),
    (
        "rank {nim} -1,2",
        &["position '-1,2'", "expected heap sizes"],
    ),
    (
        "unrank {nim} -3",
        &["index '-3'", "expected a whole number"],
    ),
    (
        "solve -1,2,3",
        &["position '-1,2,3'", "expected the 16 cells"],
    ),
    (
        "query {nim} -,3",
        &["position '-,3'", "expected heap sizes"],
    ),
    (
        "query {nim} 1,2 -1,2 --json",
        &["position '-1,2'", "expected heap sizes"],
    ),
    ("query {candy} 4,2,2", &["total 8", "odd totals up to 15"]),
    ("query {candy} 17,0,0", &["total 17"]),
    ("query {candy} 1,2", &["has 2 numbers"]),
    // A table of another game: Nim heaps are not candy positions.
    ("query {candy} 1,2,3,4", &["has 4 numbers"]),
    ("query /nonexistent/t.gtab 1", &["/nonexistent/t.gtab"]),
    ("info Cargo.toml", &["Cargo.toml", "not a gamedb table"]),
    (
        "build subtraction --set 1,x --max-heap 9 --out {out}",
        &[
            "--set 1,x",
            "'x' is not a number",
            "distinct positive numbers",
        ],
    ),
    (
        "build subtraction --set 2,2 --max-heap 9 --out {out}",
        &["--set: 2 is listed twice"],
    ),
    (
        "build subtraction --set 0,1 --max-heap 9 --out {out}",
        &["--set: 0 is not a move"],
    ),
    (
        "build subtraction --set 1,2 --max-heap 0 --out {out}",
        &["--max-heap 0", "expected 1..="],
    ),
    (
        "build octal --code 0.G --max-heap 9 --out {out}",
        &[
            "--code 0.G",
            "'G' is not a digit",
            "expected a code d0.d1d2",
        ],
    ),
    (
        "build octal --code 1.2 --max-heap 9 --out {out}",
        &["--code 1.2", "'1' before the point", "only 0, 4"],
    ),
    (
        "build octal --code 0. --max-heap 9 --out {out}",
        &["--code 0.", "no digit after the point"],
    ),
    (
        "build octal --code x --max-heap 9 --out {out}",
        &["--code x", "no point", "expected a code d0.d1d2"],
    ),
    (
        "build octal --code 0.77 --max-heap 0 --out {out}",
        &["--max-heap 0", "expected 1..="],
    ),
    ("query {nim} #120", &["index '#120'", "expected #0..=#119"]),
    ("query {nim} #x", &["index '#x'", "expected #0..=#119"]),
    ("upgrade Cargo.toml", &["Cargo.toml", "not a gamedb table"]),
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
        &["--values grundy needs normal play"],
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

#[test]
fn a_missing_table_says_what_to_do() {
    let dir = TempDir::new("missing");
    // Every command that opens a table by path says so in one line: the file, that it does not
    // exist, the `gamedb build` command that makes it (the name is one a build writes), `gamedb
    // list` and `gamedb build-all` for that folder.
    let t = dir.join("chomp-10x10-grundy.gtab");
    let svg = dir.join("p.svg");
    let build = format!(
        "`gamedb build chomp --rows 10 --cols 10 --values grundy --out {}`",
        dir.arg()
    );
    let list = format!("`gamedb list {}`", dir.arg());
    let all = format!("`gamedb build-all --out {}`", dir.arg());
    for args in [
        vec!["query", &t, "1,2"],
        vec!["query", &t, "-"],
        vec!["info", &t],
        vec!["export", &t],
        vec!["verify-table", &t],
        vec!["plot", &t, "--out", &svg],
        vec!["chomp-rectangles", &t],
    ] {
        let e = refused(
            &args.join(" "),
            &args,
            &[&t, "does not exist", &build, &list, &all],
        );
        assert_eq!(e.trim_end().lines().count(), 1, "{args:?}: {e}");
    }
    // Names of other games' tables, and of Nim tables outside the catalog.
    for (name, build) in [
        ("nim-3x15.gtab", "nim --heaps 3 --max-heap 15"),
        ("nim-3x7-misere.gtab", "nim --heaps 3 --max-heap 7 --misere"),
        ("wythoff-4096.gtab", "wythoff --max-heap 4096"),
        ("slide-3x3.gtab", "slide --rows 3 --cols 3"),
    ] {
        let t = dir.join(name);
        let want = format!("`gamedb build {build} --out {}`", dir.arg());
        refused(name, &["query", &t, "1,2"], &["does not exist", &want]);
    }
    // A name no build writes: no build command, the rest of the advice.
    let t = dir.join("nope.gtab");
    let e = refused(
        "nope",
        &["query", &t, "1,2,3"],
        &["does not exist", &list, &all],
    );
    assert!(!e.contains("gamedb build "), "{e}");
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
}

#[test]
fn positions_starting_with_a_hyphen_reach_the_games_parser() {
    let dir = cli_build("hyphen", "nim --heaps 3 --max-heap 7");
    let nim = dir.join("nim-3x7.gtab");
    // The bad position is refused as a position; the good one after it is still answered,
    // and --json after the positions is still a flag.
    let o = gamedb(&["query", &nim, "-1,2", "1,2,3", "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("position '-1,2'"), "{e}");
    assert!(!e.contains("unexpected argument"), "{e}");
    let answers = json_lines(&stdout(&o));
    assert_eq!(answers.len(), 1, "{}", stdout(&o));
    assert_eq!(answers[0]["position"], "1,2,3");
    // `-` alone still reads positions from stdin, flags after it included.
    let o = gamedb_stdin(&["query", &nim, "-", "--json"], b"1,2,3\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json_lines(&stdout(&o))[0]["outcome"], "P");
    // After `--` every word is a position too.
    refused(
        "after --",
        &["query", &nim, "--", "-1,2"],
        &["position '-1,2'"],
    );
    // An unknown flag is still an unknown flag.
    refused("unknown flag", &["query", &nim, "-x"], &["-x"]);
}

#[test]
fn small_message_problems() {
    let dir = TempDir::new("messages");
    let t = built(dir.path(), "nim --heaps 3 --max-heap 15", "nim-3x15.gtab");
    let o = gamedb(&["query", s(&t), "99999999999999999999"]);
    let e = exit2(&o, "too large");
    assert!(
        e.contains("'99999999999999999999' is too large (at most 4294967295)"),
        "{e}"
    );
    // Missing heaps are empty, and empty ones may be written out.
    let o = gamedb(&["query", s(&t), "1,2,3,0", "0,1,2,0,3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "1,2,3,0: P\n0,1,2,0,3: P\n");
    let e = exit2(&gamedb(&["query", s(&t), "1,2,3,4"]), "4 heaps");
    assert!(e.contains("'1,2,3,4' has 4 heaps"), "{e}");
    let e = exit2(&gamedb(&["query", s(&t), "1,0,2,3,4"]), "4 of 5 heaps");
    assert!(e.contains("'1,0,2,3,4' has 4 non-empty heaps"), "{e}");
    let many = vec!["0"; 40].join(",");
    let e = exit2(&gamedb(&["query", s(&t), &many]), "40 numbers");
    assert!(e.contains("40 numbers (at most 32)"), "{e}");
    // An even --max-candies.
    let e = exit2(
        &gamedb(&words(
            "build candy --max-candies 100 --max-take 3 --out {}",
            &[s(dir.path())],
        )),
        "even",
    );
    assert!(
        e.contains("--max-candies 100: expected an odd number"),
        "{e}"
    );
    // A folder named like a table.
    let folder = dir.path().join("x.gtab");
    std::fs::create_dir(&folder).unwrap();
    for args in [
        vec!["query", s(&folder), "1,2"],
        vec!["info", s(&folder)],
        vec!["verify-table", s(&folder)],
    ] {
        let e = exit2(&gamedb(&args), "folder");
        assert!(
            e.contains("x.gtab") && e.contains("folder"),
            "{args:?}: {e}"
        );
        assert!(!e.contains("os error"), "{args:?}: {e}");
    }
    // verify-table says each failure once.
    let bad = dir.path().join("bad.gtab");
    let mut bytes = std::fs::read(&t).unwrap();
    bytes[4096 + 3] ^= 1;
    std::fs::write(&bad, &bytes).unwrap();
    let o = gamedb(&["verify-table", s(&t), s(&bad)]);
    let e = exit2(&o, "verify-table");
    assert_eq!(e.matches("bad.gtab").count(), 1, "{e}");
    assert!(
        e.contains("checksum mismatch") && e.contains("1 of 2 tables failed"),
        "{e}"
    );
    assert!(!stdout(&o).contains("bad.gtab"), "{}", stdout(&o));
    assert!(stdout(&o).contains("nim-3x15.gtab: OK"), "{}", stdout(&o));
}

#[test]
fn completions_man_and_json_summaries() {
    let out = gamedb(&["completions", "bash"]);
    assert!(out.status.success());
    let bash = text(&out.stdout);
    assert!(bash.contains("complete") && bash.contains("serve") && bash.contains("--max-nodes"));
    let out = gamedb(&["man"]);
    let man = text(&out.stdout);
    assert!(
        man.starts_with(".ie") || man.contains(".TH gamedb"),
        "{}",
        &man[..100]
    );
    assert!(man.contains("serve"));
    let dir = TempDir::new("tools-json");
    let pages = dir.path().join("man");
    assert!(gamedb(&["man", "--out", pages.to_str().unwrap()])
        .status
        .success());
    assert!(pages.join("gamedb-serve.1").exists());

    let d = dir.path().to_str().unwrap();
    let out = gamedb(&words(
        "build nim --heaps 2 --max-heap 5 --out {} --json -q",
        &[d],
    ));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["game"].as_str(), v["positions"].as_u64()),
        (Some("nim"), Some(21))
    );
    let catalog = dir.path().join("catalog.txt");
    std::fs::write(
        &catalog,
        "nim --heaps 2 --max-heap 5\ncandy --max-candies 9 --max-take 2\n",
    )
    .unwrap();
    let out = gamedb(&words(
        "build-all --catalog {} --out {} --json -q",
        &[catalog.to_str().unwrap(), d],
    ));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["status"], "present, skipped");
    assert_eq!(v[1]["status"], "built");
    let nim = dir.path().join("nim-2x5.gtab");
    let out = gamedb(&[
        "verify-table",
        nim.to_str().unwrap(),
        "/nonexistent.gtab",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        (lines[0]["ok"].as_bool(), lines[1]["ok"].as_bool()),
        (Some(true), Some(false))
    );
}

/// A folder typed where a table is expected, and a file that is no table, are refused as
/// what they are: the folder before any position is read as a 15-puzzle board, the
/// text file as "not a gamedb table" with what it lacks, never as a damaged table; a count of
/// one is written in the singular.
#[test]
fn a_folder_or_a_text_file_given_for_a_table_is_named_as_such() {
    let dir = cli_build("not-a-table", "nim --heaps 3 --max-heap 7");
    // `gamedb query tables 1`: the folder of tables in place of a table, with a Nim position.
    for position in ["1", "1,2,4"] {
        let e = refused(
            "a folder for a table",
            &["query", dir.arg(), position],
            &[
                &format!("{}: a folder, not a table file", dir.arg()),
                &format!("'{position}' is no position of the 4×4 board"),
                "expected TABLE POSITION",
                &format!("`gamedb list {}`", dir.arg()),
                "--rows R --cols C",
            ],
        );
        assert_eq!(e.trim_end().lines().count(), 1, "{e}");
        assert!(!e.contains("board has 16 cells"), "{e}");
        assert!(!e.contains("pattern tables"), "{e}");
    }
    // A 4×4 position still asks the folder's tables (here none: the message of `solve`).
    refused(
        "a 4×4 position with a folder",
        &["query", dir.arg(), "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15"],
        &["no complete set of pattern tables of the 4x4 board"],
    );
    // Text files, shorter and longer than a table's header, an empty file and a binary one.
    let short = dir.join("notes.txt");
    std::fs::write(&short, "hello, tables\n").unwrap();
    let long = dir.join("long.gtab");
    std::fs::write(&long, "[package]\n".repeat(1000)).unwrap();
    let empty = dir.join("empty.gtab");
    std::fs::write(&empty, "").unwrap();
    let tiny = dir.join("tiny.gtab");
    std::fs::write(&tiny, "hi\n").unwrap();
    let binary = dir.join("binary.gtab");
    std::fs::write(&binary, [0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0, 0]).unwrap();
    for (file, lacks) in [
        (&short, "it begins with the text \"hello, t…\""),
        (&long, "it begins with the text \"[package…\""),
        (&empty, "the file is empty"),
        // All of it shown: no `…`.
        (&tiny, "it begins with the text \"hi\\n\")"),
        (&binary, "it begins with the bytes 7f 45 4c 46 02 01 01 00"),
    ] {
        for args in [
            vec!["query", file.as_str(), "1,2,3"],
            vec!["info", file.as_str()],
            vec!["verify-table", file.as_str()],
        ] {
            let e = refused(
                &args.join(" "),
                &args,
                &[&format!("{file}: not a gamedb table"), lacks],
            );
            assert!(!e.contains("damaged"), "{args:?}: {e}");
            assert!(!e.contains("truncated"), "{args:?}: {e}");
        }
    }
    refused(
        "a text file",
        &["info", &short],
        &["lacks the bytes \"GAMEDB\\r\\n\" that begin every table file"],
    );
    // A table cut short is still a damaged table.
    let cut = dir.join("cut.gtab");
    let bytes = std::fs::read(dir.join("nim-3x7.gtab")).unwrap();
    std::fs::write(&cut, &bytes[..100]).unwrap();
    refused(
        "a cut table",
        &["info", &cut],
        &["damaged table", "truncated?"],
    );
    // Counts of one in the singular.
    gamedb_ok(&words(
        "build candy --max-candies 15 --max-take 3 --out {} -q",
        &[dir.arg()],
    ));
    let candy = dir.join("candy-n15-k3-even.gtab");
    let e = refused(
        "one number",
        &["query", &candy, "7"],
        &["'7' has 1 number;"],
    );
    assert!(!e.contains("1 numbers"), "{e}");
    gamedb_ok(&words(
        "build slide --rows 2 --cols 2 --out {} -q",
        &[dir.arg()],
    ));
    let e = refused(
        "one number, a board",
        &["query", &dir.join("slide-2x2.gtab"), "1"],
        &["position '1' has 1 number, a 2×2 board has 4 cells"],
    );
    assert!(!e.contains("1 numbers"), "{e}");
}
