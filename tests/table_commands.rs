//! The commands that turn a table into something else: `list` (a folder's tables by their
//! headers, files refused), `rank` and `unrank` (inverse on every position), `export` (every
//! position in index order, CSV and JSON lines, answering as `query` does) and `plot` (SVG
//! pictures without fonts).

mod common;

use common::http::{build, gamedb, gamedb_stdin, TempDir};
use common::{text, words};

#[test]
fn list_rank_and_unrank() {
    let dir = TempDir::new("tools-list");
    build(
        dir.path(),
        &["chomp --rows 4 --cols 5", "nim --heaps 3 --max-heap 7"],
    );
    std::fs::write(dir.path().join("junk.gtab"), b"not a table").unwrap();
    let d = dir.path().to_str().unwrap();
    let out = gamedb(&["list", d]);
    assert!(out.status.success());
    let listing = text(&out.stdout);
    assert!(listing.contains("chomp-4x5.gtab"), "{listing}");
    assert!(listing.ends_with("2 tables, 1 file refused\n"), "{listing}");
    let out = gamedb(&["list", d, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["file"], "chomp-4x5.gtab");
    assert_eq!(v[0]["entries"], 125);
    assert!(v[1]["error"].as_str().unwrap().contains("junk.gtab"));
    let out = gamedb(&["list", "/nonexistent-folder"]);
    assert_eq!(out.status.code(), Some(2));

    // rank and unrank are inverse on every position of the table.
    let table = dir.path().join("chomp-4x5.gtab");
    let t = table.to_str().unwrap();
    let indices: String = (0..125).map(|i| format!("{i}\n")).collect();
    let out = gamedb_stdin(&["unrank", t, "-"], indices.as_bytes());
    assert!(out.status.success());
    let positions: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| l.split(": ").nth(1).unwrap().to_string())
        .collect();
    let input: String = positions.iter().map(|p| format!("{p}\n")).collect();
    let out = gamedb_stdin(&["rank", t, "-", "--json"], input.as_bytes());
    for (i, line) in text(&out.stdout).lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["index"], i as u64);
        assert_eq!(v["position"], positions[i].as_str());
    }
    let out = gamedb(&["rank", t, "4,3,1"]);
    let i: u64 = text(&out.stdout)
        .trim()
        .split(": ")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let out = gamedb(&["unrank", t, &i.to_string(), "--json"]);
    assert_eq!(
        text(&out.stdout),
        format!("{{\"index\":{i},\"position\":\"4,3,1\"}}\n")
    );
    let out = gamedb(&["unrank", t, "125"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("from 0 to 124"),
        "{}",
        text(&out.stderr)
    );
    let out = gamedb(&["rank", t, "3,4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("rows may not grow downwards"));
}

#[test]
fn export_writes_every_position_in_index_order() {
    let dir = TempDir::new("tools-export");
    build(
        dir.path(),
        &[
            "chomp --rows 6 --cols 7",
            "slide --rows 2 --cols 3",
            "wythoff --max-heap 10 --grundy",
        ],
    );
    let chomp = dir.path().join("chomp-6x7.gtab");
    let c = chomp.to_str().unwrap();
    let info: serde_json::Value =
        serde_json::from_slice(&gamedb(&["info", c, "--json"]).stdout).unwrap();
    let out = gamedb(&["export", c, "--only", "P", "--quiet"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("index,position,outcome"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len() as u64, info["p_positions"].as_u64().unwrap());
    let mut last = None;
    for row in &rows {
        let (i, rest) = row.split_once(',').unwrap();
        let i: u64 = i.parse().unwrap();
        assert!(last.is_none_or(|l| l < i), "index order");
        last = Some(i);
        assert!(rest.ends_with(",P"), "{row}");
    }
    // Every row answers as query does; to a file, in JSON lines.
    let file = dir.path().join("all.jsonl");
    let out = gamedb(&words(
        "export {} --format jsonl --out {} -q",
        &[c, file.to_str().unwrap()],
    ));
    assert!(out.status.success());
    let all = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        all.lines().count() as u64,
        info["entries"].as_u64().unwrap()
    );
    let sample: Vec<&str> = all.lines().step_by(97).collect();
    let positions: String = sample
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            format!("{}\n", v["position"].as_str().unwrap())
        })
        .collect();
    let answers = gamedb_stdin(&["query", c, "-", "--json"], positions.as_bytes());
    for (row, answer) in sample.iter().zip(text(&answers.stdout).lines()) {
        let row: serde_json::Value = serde_json::from_str(row).unwrap();
        let answer: serde_json::Value = serde_json::from_str(answer).unwrap();
        assert_eq!(row["outcome"], answer["outcome"], "{row}");
    }
    // Distances and Grundy values.
    let slide = dir.path().join("slide-2x3.gtab");
    let out = gamedb(&["export", slide.to_str().unwrap(), "-q"]);
    let csv = text(&out.stdout);
    assert!(csv.starts_with("index,position,distance\n"), "{csv}");
    assert_eq!(csv.lines().count(), 361);
    assert!(
        csv.contains(",\"1,2,3,4,5,0\",0\n"),
        "the goal at distance 0"
    );
    let out = gamedb(&["export", slide.to_str().unwrap(), "--only", "P"]);
    assert_eq!(out.status.code(), Some(2));
    let wythoff = dir.path().join("wythoff-10-grundy.gtab");
    let out = gamedb(&words(
        "export {} --format jsonl -q",
        &[wythoff.to_str().unwrap()],
    ));
    let first = text(&out.stdout).lines().next().unwrap().to_string();
    assert_eq!(
        first,
        r#"{"index":0,"position":"0,0","outcome":"P","grundy":0}"#
    );
}

#[test]
fn plots_are_svg_without_fonts() {
    let dir = TempDir::new("tools-plot");
    build(
        dir.path(),
        &[
            "chomp --rows 3 --cols 12",
            "nim --heaps 3 --max-heap 9 --max-take 3",
            "slide --rows 2 --cols 3",
            "wythoff --max-heap 30 --grundy",
        ],
    );
    let p = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
    for (table, picture, marks) in [
        ("chomp-3x12.gtab", None, "<rect"),
        ("chomp-3x12.gtab", Some("chomp3"), "<circle"),
        ("nim-3x9-k3.gtab", None, "<circle"),
        ("slide-2x3.gtab", None, "<rect"),
        ("wythoff-30-grundy.gtab", Some("values"), "<rect"),
        ("wythoff-30-grundy.gtab", Some("pairs"), "<circle"),
    ] {
        let out_file = dir.path().join(format!("{table}-{picture:?}.svg"));
        let mut args = vec![
            "plot".to_string(),
            p(table),
            "--out".into(),
            out_file.to_str().unwrap().into(),
        ];
        if let Some(pic) = picture {
            args.extend(["--picture".into(), pic.into()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = gamedb(&args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        let svg = std::fs::read_to_string(&out_file).unwrap();
        assert!(svg.starts_with("<svg"), "{table}");
        assert!(svg.contains(marks), "{table} {picture:?}");
        assert!(svg.contains("font-family=\"sans-serif\""), "{table}");
        assert!(!svg.contains(".ttf") && !svg.contains("url("), "{table}");
    }
    // Bounded Nim k=3: P-positions of two heaps are a ≡ b (mod 4): 10x10 grid, 26 points.
    let svg = std::fs::read_to_string(dir.path().join("nim-3x9-k3.gtab-None.svg")).unwrap();
    assert_eq!(svg.matches("<circle").count(), 26);
    let out = gamedb(&[
        "plot",
        &p("slide-2x3.gtab"),
        "--out",
        "/tmp/x.svg",
        "--picture",
        "census",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("Pictures of this table: values"),
        "{}",
        text(&out.stderr)
    );
}

/// The pictures of a heap game's sequence: the default picture of an octal table, and
/// `--from`/`--to` only with the pictures that show heaps.
#[test]
fn heap_games_plot_their_sequence() {
    let dir = TempDir::new("tools-sequence");
    build(
        dir.path(),
        &[
            "octal --code 0.137 --max-heap 1000",
            "nim --heaps 3 --max-heap 5",
        ],
    );
    let p = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
    let svg = p("dawson.svg");
    let table = p("octal-0.137-1000.gtab");
    let out = gamedb(&["plot", &table, "--out", &svg]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("(Sequence picture,"),
        "{}",
        text(&out.stdout)
    );
    // Dawson's chess: period 34, the last exception at heap 51 (Guy & Smith 1956).
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.contains("period 34 from heap 52"), "{drawn}");
    let out = gamedb(&[
        "plot",
        &table,
        "--out",
        &svg,
        "--picture",
        "rows",
        "--from",
        "0",
        "--to",
        "203",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(&svg)
        .unwrap()
        .contains("\n+33\n</text>"));
    for (args, says) in [
        (
            vec!["--picture", "values", "--from", "3"],
            "--from/--to go with --picture sequence or rows, not values",
        ),
        (
            vec!["--from", "10", "--to", "5"],
            "heaps 10 to 5: the first heap is past the last; expected from <= to <= 1000",
        ),
        (
            vec!["--to", "1001"],
            "heap 1001 is beyond this table's largest heap",
        ),
    ] {
        let mut cli = vec!["plot", table.as_str(), "--out", svg.as_str()];
        cli.extend(args);
        let out = gamedb(&cli);
        assert_eq!(out.status.code(), Some(2), "{cli:?}");
        let e = text(&out.stderr);
        assert!(e.contains(says) && e.trim_end().lines().count() == 1, "{e}");
    }
    let nim = p("nim-3x5.gtab");
    let out = gamedb(&["plot", &nim, "--out", &svg, "--picture", "rows"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("Pictures of this table: values, pairs"),
        "{}",
        text(&out.stderr)
    );
}
