//! Three-rowed Chomp through the command line: build, header, queries (text, JSON, stream),
//! `info` counts, refusals of bad input and of a build that will not fit, and the table at 1
//! and 2 threads.

mod common;

use common::{gamedb, gamedb_ok, gamedb_stdin, json, json_lines, refused, stderr, stdout, TempDir};
use gamedb::games::chomp3::Chomp3Spec;
use gamedb::{Spec, Table, ValueKind};

#[test]
fn build_query_info_and_refusals() {
    let dir = TempDir::new("chomp3-cli");
    let out = gamedb_ok(&["build", "-q", "--out", dir.arg(), "chomp3", "--max", "300"]);
    assert!(out.contains("chomp3-300.gtab"), "{out}");
    let path = dir.join("chomp3-300.gtab");

    // The header identifies the table: game chomp3, N = 300, extension values as u16.
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[72..79], b"chomp3\0");
    assert_eq!(&bytes[136..144], b"max=300\0");
    assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), 4);
    assert_eq!(u32::from_le_bytes(bytes[16..20].try_into().unwrap()), 3);
    let t = Table::open(&path).unwrap();
    assert_eq!(t.spec(), Some(&Spec::new(Chomp3Spec::new(300).unwrap())));

    // Queries: P-positions of Brouwer's families, the winning bites, a first row far past N.
    let text = gamedb_ok(&[
        "query",
        &path,
        "7,4,3",
        "9,4,3",
        "5,4,4",
        "4000000000,299,12",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "7,4,3: P");
    assert_eq!(lines[1], "9,4,3: N  winning: (1,8) -> 7,4,3");
    assert_eq!(lines[2], "5,4,4: N  winning: (3,1) -> 5,4");
    assert!(
        lines[3].starts_with("4000000000,299,12: N  winning: (1,"),
        "{}",
        lines[3]
    );
    let j = json(&gamedb_ok(&["query", "--json", &path, "10,5,5"]));
    assert_eq!(j["outcome"], "P");
    assert_eq!(j["winning_moves"].as_array().unwrap().len(), 0);
    let j = json(&gamedb_ok(&["query", "--json", &path, "11,5,5"]));
    assert_eq!(j["winning_moves"][0]["move"], "(1,11)");
    assert_eq!(j["winning_moves"][0]["leaves"], "10,5,5");

    // A stream goes on past bad lines, each answered with one clear error; exit 2.
    let o = gamedb_stdin(
        &["query", "--json", &path, "-"],
        b"7,4,3\n301,301\n3,4\n1,1,1,1\n-1\n6,3\n",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let answers = json_lines(&stdout(&o));
    assert_eq!(answers.len(), 6);
    assert_eq!(answers[0]["outcome"], "P");
    for (k, needle) in [
        (1, "this table holds second rows up to 300"),
        (2, "rows may not grow downwards"),
        (3, "4 rows (three-rowed Chomp has at most 3)"),
        (4, "is not a non-negative integer"),
    ] {
        let e = answers[k]["error"].as_str().unwrap();
        assert!(
            e.contains(needle) && e.contains("expected row lengths p,q,r"),
            "{e}"
        );
    }
    assert_eq!(answers[5]["outcome"], "N");

    for (case, pos, needle) in [
        ("q > N", "400,301", "second rows up to 300"),
        ("negative", "3,-1", "'-1' is not a non-negative integer"),
        (
            "non-monotone",
            "5,3,4",
            "row 3 (length 4) is longer than row 2",
        ),
        ("too many rows", "3,2,1,1", "4 rows"),
        ("no poison", "0", "poisoned cell"),
    ] {
        refused(case, &["query", &path, pos], &[needle]);
    }

    // info: the counts and the facts.
    let info = json(&gamedb_ok(&["info", "--json", &path]));
    assert_eq!(info["values"], "extension");
    assert_eq!(info["entries"], 301 * 302 / 2);
    let p = info["p_positions"].as_u64().unwrap();
    assert_eq!(
        p + info["prefixes_without_p"].as_u64().unwrap(),
        301 * 302 / 2
    );
    assert_eq!(p, t.p_positions());
    // A029899(47) = 439 P-positions with p ≤ 47; the table's own count for p ≤ 300.
    let small = &info["positions_p_le_n"];
    assert!(small["p_positions"].as_u64().unwrap() > 439, "{small}");

    // export: one row per pair (q, r), its shortest position and the stored value.
    let csv = gamedb_ok(&["export", &path]);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "index,position,extension");
    assert_eq!(rows.len(), 1 + 301 * 302 / 2);
    // Pair (4, 3) is index 13: f(4, 3) = 7, stored as 7 − 4 + 1.
    assert_eq!(rows[14], "13,\"4,4,3\",4");
    refused(
        "export --only",
        &["export", &path, "--only", "p"],
        &["--only", "extension"],
    );

    // A build that will not fit is refused before solving, with what it needs.
    refused(
        "memory",
        &[
            "build",
            "-q",
            "--out",
            dir.arg(),
            "--memory",
            "10M",
            "chomp3",
            "--max",
            "20000",
        ],
        &["memory"],
    );
    assert!(!std::path::Path::new(&dir.join("chomp3-20000.gtab")).exists());
    refused(
        "N = 0",
        &["build", "--out", dir.arg(), "chomp3", "--max", "0"],
        &["--max 0"],
    );
    refused(
        "N too large",
        &["build", "--out", dir.arg(), "chomp3", "--max", "1000001"],
        &["expected 1..=1000000"],
    );
    // Past N = 90,000 a table takes three bytes per pair: 1.5 N² bytes, refused here with
    // what it needs (N = 1,000,000 needs some 2 TB).
    refused(
        "N past the machine",
        &[
            "build",
            "-q",
            "--out",
            dir.arg(),
            "chomp3",
            "--max",
            "1000000",
        ],
        &["memory"],
    );
    assert!(!std::path::Path::new(&dir.join("chomp3-1000000.gtab")).exists());
}

#[test]
fn same_bytes_at_one_and_two_threads() {
    let dir = TempDir::new("chomp3-threads");
    for t in ["1", "2"] {
        let out = dir.join(t);
        gamedb_ok(&[
            "build",
            "-q",
            "--threads",
            t,
            "--out",
            &out,
            "chomp3",
            "--max",
            "2500",
        ]);
    }
    let one = std::fs::read(dir.join("1/chomp3-2500.gtab")).unwrap();
    let two = std::fs::read(dir.join("2/chomp3-2500.gtab")).unwrap();
    assert!(one == two, "the tables differ");
    // The library's solve gives the same payload.
    let spec = Spec::new(Chomp3Spec::new(2500).unwrap());
    let t = Table::from_solved(&spec, spec.solve(ValueKind::Extension, &()).unwrap()).unwrap();
    assert_eq!(t.file().payload(), &one[4096..]);
    let o = gamedb(&["verify-table", &dir.join("1/chomp3-2500.gtab")]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Tables past N = 90,000 store three bytes per pair (u24). Building one takes some 8 GB, so
/// here a two-byte table is rewritten as three bytes through the library's writer, and the
/// CLI (query, stream, info, export) must answer from it exactly as from
/// the two-byte table.
#[test]
fn three_byte_table_answers_like_the_two_byte_one() {
    use gamedb::format::{write_table, TableFile, TableMeta};
    let dir = TempDir::new("chomp3-wide");
    gamedb_ok(&["build", "-q", "--out", dir.arg(), "chomp3", "--max", "120"]);
    let narrow = dir.join("chomp3-120.gtab");
    let file = TableFile::open(std::path::Path::new(&narrow)).unwrap();
    let h = file.header().clone();
    assert_eq!(h.encoding, gamedb::Encoding::U16);
    let wide_payload: Vec<u8> = file
        .payload()
        .chunks_exact(2)
        .flat_map(|v| [v[0], v[1], 0])
        .collect();
    std::fs::create_dir_all(dir.path().join("wide")).unwrap();
    let wide = dir.join("wide/chomp3-120.gtab");
    let meta = TableMeta {
        game: h.game,
        rules_version: h.rules_version,
        parameters: h.parameters,
        value_kind: h.value_kind,
        encoding: gamedb::Encoding::U24,
        entry_count: h.entry_count,
    };
    write_table(std::path::Path::new(&wide), &meta, &wide_payload).unwrap();

    // Every position with p ≤ 125 and q ≤ 120 in steps, and a first row far past N.
    let mut positions: Vec<String> = Vec::new();
    for p in (1..=125).step_by(4) {
        for q in (0..=p.min(120)).step_by(3) {
            for r in (0..=q).step_by(5) {
                positions.push(format!("{p},{q},{r}"));
            }
        }
    }
    positions.push("4000000000,119,40".into());
    let stream = positions.join("\n") + "\n";
    let ask = |path: &str| {
        let o = gamedb_stdin(&["query", "--json", path, "-"], stream.as_bytes());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let answers = ask(&narrow);
    assert_eq!(answers.lines().count(), positions.len());
    assert!(answers.contains("\"outcome\":\"P\""), "{answers}");
    assert_eq!(ask(&wide), answers);

    let info = |path: &str| {
        let mut j = json(&gamedb_ok(&["info", "--json", path]));
        for key in ["file", "encoding", "payload_len", "payload_xxh3"] {
            j.as_object_mut().unwrap().remove(key);
        }
        j
    };
    assert_eq!(
        json(&gamedb_ok(&["info", "--json", &wide]))["encoding"],
        "u24"
    );
    assert_eq!(info(&wide), info(&narrow));
    assert_eq!(
        gamedb_ok(&["export", &wide]),
        gamedb_ok(&["export", &narrow])
    );

    // A u24 payload one byte short is refused, naming the file.
    let mut short = std::fs::read(&wide).unwrap();
    short.pop();
    let cut = dir.join("wide/cut.gtab");
    std::fs::write(&cut, short).unwrap();
    let o = gamedb(&["query", &cut, "7,4,3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cut.gtab"), "{}", stderr(&o));
}
