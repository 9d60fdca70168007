//! `gamedb serve` over real HTTP on an ephemeral loopback port: every endpoint, every error
//! status, path-traversal attempts, and answers equal to the command line's, byte for byte.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::http::{build, encode, gamedb, gamedb_stdin, Server, TempDir};

/// Small tables of every kind, built once per test run.
fn tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("service-tables");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        build(
            &dir,
            &[
                "nim --heaps 3 --max-heap 7",
                "nim --heaps 4 --max-heap 20 --max-take 3 --grundy",
                "chomp --rows 4 --cols 5 --grundy",
                "chomp --rows 6 --cols 6",
                "wythoff --max-heap 20",
                "candy --max-candies 99 --max-take 3",
                "slide --rows 3 --cols 3",
                "slide --rows 2 --cols 3",
                "fifteen --partition 5-5-5",
            ],
        );
        dir
    })
}

fn dir_str() -> &'static str {
    tables().to_str().unwrap()
}

/// What `gamedb ARGS` prints on stdout, and on stderr without the `gamedb: ` prefix.
fn cli(args: &[&str]) -> (String, String) {
    let out = gamedb(args);
    let err = String::from_utf8(out.stderr).unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        err.trim_end().trim_start_matches("gamedb: ").to_string(),
    )
}

#[test]
fn answers_equal_the_command_line_byte_for_byte() {
    let server = Server::start(tables(), &[]);
    let dir = tables();
    let cases: &[(&str, &str, bool)] = &[
        ("nim-3x7.gtab", "1,2,4", false),
        ("nim-3x7.gtab", "3,5,6", false),
        ("nim-3x7.gtab", "7 , 1", false),
        ("nim-4x20-k3-grundy.gtab", "5,6,7,20", false),
        ("chomp-4x5-grundy.gtab", "4,3,1", false),
        ("chomp-6x6.gtab", "6,6,6,6,6,6", false),
        ("chomp-6x6.gtab", "1", false),
        ("wythoff-20.gtab", "7,4", false),
        ("candy-n99-k3-even.gtab", "13,0,0", false),
        ("slide-3x3.gtab", "8,6,7,2,5,4,3,0,1", true),
        ("slide-3x3.gtab", "8,6,7,2,5,4,3,0,1", false),
        ("slide-3x3.gtab", "1,2,3,4,5,6,8,7,0", true),
        ("slide-2x3.gtab", "0,1,2,3,4,5", true),
        (
            "pdb-4x4-1-4_7.gtab",
            "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15",
            false,
        ),
    ];
    for &(file, position, path) in cases {
        let table = dir.join(file);
        let mut args = vec!["query", table.to_str().unwrap(), position, "--json"];
        if path {
            args.push("--path");
        }
        let (want, _) = cli(&args);
        let url = format!(
            "/api/tables/{file}/query?position={}{}",
            encode(position),
            if path { "&path=1" } else { "" }
        );
        let got = server.get(&url);
        assert_eq!(got.status, 200, "{url}: {}", got.text());
        assert_eq!(got.header("content-type"), Some("application/json"));
        assert_eq!(got.text(), want, "{url}");
    }
    // Bad positions: 400, and the message the CLI prints.
    for (file, position) in [
        ("nim-3x7.gtab", "1,2,9"),
        ("nim-3x7.gtab", "a,b"),
        ("nim-3x7.gtab", ""),
        ("chomp-6x6.gtab", "3,4"),
        ("slide-3x3.gtab", "1,2,3"),
        ("wythoff-20.gtab", "1,2,3"),
    ] {
        let (_, want) = cli(&[
            "query",
            dir.join(file).to_str().unwrap(),
            position,
            "--json",
        ]);
        let got = server.get(&format!(
            "/api/tables/{file}/query?position={}",
            encode(position)
        ));
        assert_eq!(got.status, 400, "{file} {position}: {}", got.text());
        let body = got.json();
        assert_eq!(body["error"], want.as_str(), "{file} {position}");
        assert_eq!(body["position"], position);
    }
    // Info and the listing equal `info --json` and `list --json`.
    for file in [
        "chomp-6x6.gtab",
        "slide-3x3.gtab",
        "nim-4x20-k3-grundy.gtab",
    ] {
        let (want, _) = cli(&["info", dir.join(file).to_str().unwrap(), "--json"]);
        let got = server.get(&format!("/api/tables/{file}"));
        assert_eq!((got.status, got.text()), (200, want), "{file}");
    }
    let (want, _) = cli(&["list", dir_str(), "--json"]);
    let got = server.get("/api/tables");
    assert_eq!((got.status, got.text()), (200, want));
    let listed = got.json();
    assert_eq!(listed.as_array().unwrap().len(), 11, "{listed}");
}

/// `all_moves=1` answers as `query --all-moves` does, on GETs and batches; its bad uses are
/// 400 with the command line's message.
#[test]
fn every_move_is_listed_as_the_command_line_lists_it() {
    let own = TempDir::new("service-every-move");
    build(own.path(), &["octal --code 0.77 --max-heap 200"]);
    let kayles = Server::start(own.path(), &[]);
    let server = Server::start(tables(), &[]);
    let octal = own.path().join("octal-0.77-200.gtab");
    let cases = [
        (&kayles, octal.clone(), "3,5,17"),
        (&kayles, octal.clone(), "0"),
        (&server, tables().join("nim-3x7.gtab"), "1,2,4"),
        (&server, tables().join("candy-n99-k3-even.gtab"), "13,0,0"),
        (&server, tables().join("chomp-4x5-grundy.gtab"), "4,3,1"),
    ];
    for (srv, table, position) in cases {
        let file = table.file_name().unwrap().to_str().unwrap().to_string();
        let (want, _) = cli(&[
            "query",
            table.to_str().unwrap(),
            position,
            "--json",
            "--all-moves",
        ]);
        let url = format!(
            "/api/tables/{file}/query?position={}&all_moves=1",
            encode(position)
        );
        let got = srv.get(&url);
        assert_eq!((got.status, got.text()), (200, want.clone()), "{url}");
        // Every move is there, valued; the winning ones are those leaving a P-position.
        let answer = got.json();
        let moves = answer["moves"].as_array().unwrap();
        let winning: Vec<&serde_json::Value> = moves
            .iter()
            .filter(|m| m["outcome"] == "P")
            .map(|m| &m["leaves"])
            .collect();
        let said: Vec<&serde_json::Value> = answer["winning_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| &m["leaves"])
            .collect();
        assert_eq!(winning, said, "{url}");
        for m in moves {
            let alone = srv
                .get(&format!(
                    "/api/tables/{file}/query?position={}",
                    encode(m["leaves"].as_str().unwrap())
                ))
                .json();
            assert_eq!(m["outcome"], alone["outcome"], "{url}: {m}");
            assert_eq!(m["grundy"], alone["grundy"], "{url}: {m}");
        }
    }
    let (want, _) = cli(&[
        "query",
        octal.to_str().unwrap(),
        "12",
        "--json",
        "--all-moves",
    ]);
    let (plain, _) = cli(&["query", octal.to_str().unwrap(), "12", "--json"]);
    assert!(want.starts_with(plain.trim_end().trim_end_matches('}')));
    assert!(want.contains(r#"{"move":"take 2 from the heap of 12, leaving heaps of 5 and 5","leaves":"5,5","outcome":"P","grundy":0}"#), "{want}");
    // Batches: the pipe's answers with --all-moves, line for line.
    let input = b"3,5,17\n200\n201\n12,12\n";
    let want = gamedb_stdin(
        &[
            "query",
            octal.to_str().unwrap(),
            "-",
            "--json",
            "--all-moves",
        ],
        input,
    );
    let got = kayles.post("/api/tables/octal-0.77-200.gtab/query?all_moves=1", input);
    assert_eq!((got.status, &got.body), (200, &want.stdout));
    assert_eq!(got.text().lines().count(), 4);
    assert!(got.text().lines().nth(2).unwrap().contains("error"));
    // Bad uses: 400 with the message the command line prints.
    let slide = tables().join("slide-3x3.gtab");
    let (_, want) = cli(&[
        "query",
        slide.to_str().unwrap(),
        "1,2,3,4,5,6,7,0,8",
        "--json",
        "--all-moves",
    ]);
    assert!(want.contains("holds distance values"), "{want}");
    let got = server.get("/api/tables/slide-3x3.gtab/query?position=1,2,3,4,5,6,7,0,8&all_moves=1");
    assert_eq!(got.status, 400, "{}", got.text());
    assert_eq!(got.json()["error"], want.as_str());
    for (url, says) in [
        (
            "/api/tables/nim-3x7.gtab/query?position=1&all_moves=maybe",
            "parameter 'all_moves=maybe': expected 1, true, 0 or false",
        ),
        (
            "/api/tables/nim-3x7.gtab/query?position=1&all_moves=1&all_moves=0",
            "parameter 'all_moves' given twice",
        ),
        (
            "/api/tables/nim-3x7.gtab/query?position=1&moves=all",
            "unknown parameter 'moves'; expected position, path, all_moves",
        ),
        (
            "/api/tables/nim-3x7.gtab/query?position=1,2,9&all_moves=1",
            "heap 9 is larger",
        ),
    ] {
        let got = server.get(url);
        assert_eq!(got.status, 400, "{url}: {}", got.text());
        let error = got.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(says), "{url}: {error}");
    }
    let got = server.post("/api/tables/nim-3x7.gtab/query?all_moves=2", b"1\n");
    assert_eq!(got.status, 400, "{}", got.text());
    assert!(got.json()["error"]
        .as_str()
        .unwrap()
        .contains("parameter 'all_moves=2'"));
}

#[test]
fn batches_answer_as_the_pipe_does() {
    let server = Server::start(tables(), &[]);
    let table = tables().join("chomp-6x6.gtab");
    let mut input = Vec::new();
    for i in 0..3000u32 {
        input.extend_from_slice(format!("{},{},{}\n", 6 - i % 6, 3 - i % 4, i % 2).as_bytes());
    }
    input.extend_from_slice(b"\n3,4\n\xff\xfe\n6,6,6,6,6,6,6\n  2,2,1  \nnot a position");
    let want = gamedb_stdin(&["query", table.to_str().unwrap(), "-", "--json"], &input);
    let got = server.post("/api/tables/chomp-6x6.gtab/query", &input);
    assert_eq!(got.status, 200, "{}", String::from_utf8_lossy(&got.body));
    assert_eq!(got.header("content-type"), Some("application/x-ndjson"));
    assert_eq!(got.body, want.stdout);
    assert_eq!(got.text().lines().count(), 3005);
    // With paths, on a distance table.
    let table = tables().join("slide-3x3.gtab");
    let input = b"8,6,7,2,5,4,3,0,1\n1,2,3,4,5,6,8,7,0\n1,2\n";
    let want = gamedb_stdin(
        &["query", table.to_str().unwrap(), "-", "--json", "--path"],
        input,
    );
    let got = server.post("/api/tables/slide-3x3.gtab/query?path=1", input);
    assert_eq!((got.status, got.body), (200, want.stdout));
    // An empty body is an empty answer.
    let got = server.post("/api/tables/slide-3x3.gtab/query", b"");
    assert_eq!((got.status, got.body.len()), (200, 0));
}

#[test]
fn the_solver_answers_as_query_does_within_its_limits() {
    let server = Server::start(tables(), &["--solve-timeout", "5"]);
    for (rows, cols, position) in [
        (4, 4, "5,1,2,3,9,6,7,4,13,10,11,8,0,14,15,12"),
        (4, 4, "1,2,3,4,5,6,7,8,9,10,11,12,13,15,14,0"),
        (3, 3, "8,6,7,2,5,4,3,0,1"),
    ] {
        let (r, c) = (rows.to_string(), cols.to_string());
        let (want, _) = cli(&[
            "query",
            "--rows",
            &r,
            "--cols",
            &c,
            "--tables",
            dir_str(),
            "--json",
            "--path",
            position,
        ]);
        let got = server.get(&format!(
            "/api/solve?rows={rows}&cols={cols}&position={position}&path=1"
        ));
        assert_eq!((got.status, got.text()), (200, want), "{position}");
    }
    // A hard position over its node budget: 503; over its time: 408; both named.
    let hard = "0,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1";
    let got = server.get(&format!("/api/solve?position={hard}&max_nodes=1000"));
    assert_eq!(got.status, 503, "{}", got.text());
    assert!(got.json()["error"]
        .as_str()
        .unwrap()
        .contains("limit of 1000 expanded nodes"));
    assert_eq!(got.json()["position"], hard);
    let started = Instant::now();
    let got = server.get(&format!("/api/solve?position={hard}&timeout_ms=200"));
    assert_eq!(got.status, 408, "{}", got.text());
    assert!(got.json()["error"].as_str().unwrap().contains("time limit"));
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    // Limits above the server's are refused, as are bad boards and positions.
    for (url, says) in [
        (
            "/api/solve?position=1&max_nodes=99999999999",
            "this server's limit",
        ),
        (
            "/api/solve?position=1&timeout_ms=600000",
            "this server's limit",
        ),
        ("/api/solve?position=1&timeout_ms=x", "whole number"),
        ("/api/solve?rows=1&cols=4&position=1,2,3,0", "rows"),
        ("/api/solve?rows=3&cols=3&position=1,2,3", "9 cells"),
        ("/api/solve", "missing parameter 'position'"),
        ("/api/solve?position=1&bogus=2", "unknown parameter 'bogus'"),
        ("/api/solve?position=1&position=2", "given twice"),
    ] {
        let got = server.get(url);
        assert_eq!(got.status, 400, "{url}: {}", got.text());
        let error = got.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(says), "{url}: {error}");
    }
    // Without pattern tables: 404 naming the build command.
    let empty = TempDir::new("service-empty");
    let bare = Server::start(empty.path(), &[]);
    let got = bare.get("/api/solve?position=5,1,2,3,9,6,7,4,13,10,11,8,0,14,15,12");
    assert_eq!(got.status, 404, "{}", got.text());
    assert!(
        got.text().contains("gamedb build fifteen"),
        "{}",
        got.text()
    );
    // Unsolvable positions are answered without tables.
    let got = bare.get("/api/solve?position=1,2,3,4,5,6,7,8,9,10,11,12,13,15,14,0");
    assert_eq!(got.status, 200);
    assert_eq!(got.json()["solvable"], false);
}

#[test]
fn only_files_inside_the_folder_are_served() {
    let root = TempDir::new("service-traversal");
    let served = root.path().join("served");
    std::fs::create_dir_all(&served).unwrap();
    build(&served, &["nim --heaps 3 --max-heap 7"]);
    // A table outside the folder, and a link to it inside.
    build(root.path(), &["nim --heaps 2 --max-heap 5"]);
    std::os::unix::fs::symlink(root.path().join("nim-2x5.gtab"), served.join("link.gtab")).unwrap();
    std::os::unix::fs::symlink("nim-3x7.gtab", served.join("inside-link.gtab")).unwrap();
    let server = Server::start(&served, &[]);
    let ok = server.get("/api/tables/nim-3x7.gtab/query?position=1,2,3");
    assert_eq!(ok.status, 200);
    let inside = server.get("/api/tables/inside-link.gtab/query?position=1,2,3");
    assert_eq!((inside.status, inside.body), (200, ok.body.clone()));
    for (path, status) in [
        ("/api/tables/..%2Fnim-2x5.gtab/query?position=1", 400),
        ("/api/tables/..%2Fnim-2x5.gtab", 400),
        ("/api/tables/%2E%2E%2Fnim-2x5.gtab", 400),
        ("/api/tables/..%5Cnim-2x5.gtab", 400),
        ("/api/tables/%2Fetc%2Fpasswd", 400),
        ("/api/tables/%2Ftmp%2Fnim-2x5.gtab/query?position=1", 400),
        ("/api/tables/../nim-2x5.gtab", 404),
        ("/api/tables/../../etc/passwd", 404),
        ("/api/tables/..", 400),
        ("/api/tables/./query?position=1", 400),
        ("/api/tables/nim-3x7.gtab%00.gtab", 400),
        ("/api/tables/link.gtab/query?position=1", 404),
        ("/api/tables/link.gtab", 404),
        ("/api/tables/nim-2x5.gtab/query?position=1", 404),
        ("/api/tables/missing.gtab/query?position=1", 404),
    ] {
        let got = server.get(path);
        assert_eq!(got.status, status, "{path}: {}", got.text());
        assert!(got.json()["error"].is_string(), "{path}");
    }
    let listed = server.get("/api/tables").json();
    let link = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["file"] == "link.gtab")
        .unwrap();
    assert!(
        link["error"].as_str().unwrap().contains("outside"),
        "{link}"
    );
    let got = server.get("/api/tables/link.gtab/query?position=1");
    assert!(got.text().contains("outside"), "{}", got.text());
}

#[test]
fn every_error_status_has_a_json_message() {
    let server = Server::start(
        tables(),
        &[
            "--max-body",
            "1000",
            "--request-timeout",
            "0.5",
            "--heavy",
            "1",
            "--solve-timeout",
            "3",
        ],
    );
    assert_eq!(
        server
            .get("/api/tables/nim-3x7.gtab/query?position=1")
            .status,
        200
    );
    // 404: unknown endpoint and table.
    let got = server.get("/api/nothing");
    assert_eq!(got.status, 404);
    assert!(got.json()["error"]
        .as_str()
        .unwrap()
        .contains("/api/tables"));
    // 405: wrong method.
    let got = server.request("DELETE", "/api/tables", &[], b"");
    assert_eq!(got.status, 405, "{}", got.text());
    assert!(got.json()["error"].is_string());
    // 413: a body over the limit, with and without a length announced.
    let big = vec![b'1'; 5000];
    let got = server.post("/api/tables/nim-3x7.gtab/query", &big);
    assert_eq!(got.status, 413, "{}", got.text());
    assert!(got.json()["error"].as_str().unwrap().contains("1000 bytes"));
    let mut chunked = format!("{:x}\r\n", big.len()).into_bytes();
    chunked.extend_from_slice(&big);
    chunked.extend_from_slice(b"\r\n0\r\n\r\n");
    let got = server.request(
        "POST",
        "/api/tables/nim-3x7.gtab/query",
        &["Transfer-Encoding: chunked", "Content-Length: 0"][..1],
        &chunked,
    );
    assert_eq!(got.status, 413, "{}", got.text());
    // 408: a body that never comes.
    let started = Instant::now();
    let got = server.request(
        "POST",
        "/api/tables/nim-3x7.gtab/query",
        &["Content-Length: 100"],
        b"1,2",
    );
    assert_eq!(got.status, 408, "{}", got.text());
    assert!(got.json()["error"].as_str().unwrap().contains("0.5 s"));
    assert!(started.elapsed() < Duration::from_secs(5));
    // 503: more heavy requests than allowed (one here) at once, on a server whose requests
    // may last longer; asked until the slow one is seen running (the machine may be slow).
    let busy = Server::start(tables(), &["--heavy", "1", "--request-timeout", "3"]);
    let hard = "0,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1";
    let client = busy.client.clone();
    let slow = std::thread::spawn(move || {
        client
            .get(&format!("/api/solve?position={hard}&timeout_ms=2500"))
            .status
    });
    let asked = Instant::now();
    let got = loop {
        std::thread::sleep(Duration::from_millis(50));
        let got = busy.get("/api/solve?position=5,1,2,3,9,6,7,4,13,10,11,8,0,14,15,12");
        if got.status == 503 || asked.elapsed() > Duration::from_secs(2) {
            break got;
        }
    };
    assert_eq!(got.status, 503, "{}", got.text());
    assert_eq!(got.header("retry-after"), Some("1"));
    assert!(got.json()["error"].as_str().unwrap().contains("busy"));
    // The slow one stopped at its own time limit; then the next is answered.
    assert_eq!(slow.join().unwrap(), 408);
    let got = busy.get("/api/solve?position=5,1,2,3,9,6,7,4,13,10,11,8,0,14,15,12");
    assert_eq!(got.status, 200, "{}", got.text());
    // A search never outlives its request: a solve asking for more time than the request may
    // take is stopped at the request's limit (0.5 s here).
    let started = Instant::now();
    let got = server.get(&format!("/api/solve?position={hard}&timeout_ms=3000"));
    assert_eq!(got.status, 408, "{}", got.text());
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    // Odd query strings are 400, never a panic.
    for url in [
        "/api/tables/nim-3x7.gtab/query?position=%zz",
        "/api/tables/nim-3x7.gtab/query?position=%ff",
        "/api/tables/nim-3x7.gtab/query",
        "/api/tables/nim-3x7.gtab/query?path=maybe&position=1",
    ] {
        let got = server.get(url);
        assert_eq!(got.status, 400, "{url}: {}", got.text());
    }
    let long = format!(
        "/api/tables/nim-3x7.gtab/query?position={}",
        "1,".repeat(20_000)
    );
    let got = server.get(&long);
    assert_eq!(got.status, 400);
    assert!(got.json()["position"].as_str().unwrap().len() < 300);
    // Health still answers.
    let got = server.get("/api/health");
    assert_eq!(got.status, 200);
    assert_eq!(got.json()["status"], "ok");
    assert_eq!(got.json()["tables"], 11);
}

#[test]
fn the_page_is_served_and_the_server_stops_on_sigterm() {
    let mut server = Server::start(tables(), &[]);
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    assert!(page.text().contains("<script src=\"app.js\">"));
    for (path, kind) in [("/app.js", "text/javascript"), ("/style.css", "text/css")] {
        let got = server.get(path);
        assert_eq!(got.status, 200, "{path}");
        assert!(
            got.header("content-type").unwrap().starts_with(kind),
            "{path}"
        );
    }
    // Compressed when asked, and CORS headers for other origins.
    let got = server.request(
        "GET",
        "/app.js",
        &["Accept-Encoding: gzip", "Origin: http://example.test"],
        b"",
    );
    assert_eq!(got.header("content-encoding"), Some("gzip"));
    assert_eq!(got.header("access-control-allow-origin"), Some("*"));
    let values = server.get("/api/tables/slide-3x3.gtab/values").json();
    assert_eq!(values["counts"][31], 2);
    assert_eq!(
        values["counts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .sum::<u64>(),
        181440
    );
    let started = Instant::now();
    let status = server.stop();
    assert!(status.success(), "{status:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_damaged_table_is_a_500_naming_the_file() {
    let dir = TempDir::new("service-damaged");
    build(dir.path(), &["nim --heaps 3 --max-heap 7"]);
    let file = dir.path().join("nim-3x7.gtab");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[4096 + 3] ^= 0x10;
    std::fs::write(&file, bytes).unwrap();
    let server = Server::start(dir.path(), &[]);
    let got = server.get("/api/tables/nim-3x7.gtab/query?position=1,2,3");
    assert_eq!(got.status, 500, "{}", got.text());
    let error = got.json()["error"].as_str().unwrap().to_string();
    assert!(
        error.contains("nim-3x7.gtab") && error.contains("checksum"),
        "{error}"
    );
    // The service goes on answering the rest.
    assert_eq!(server.get("/api/health").status, 200);
}

#[test]
fn sigterm_lets_the_requests_in_progress_finish() {
    let mut server = Server::start(tables(), &["--solve-timeout", "5"]);
    let client = server.client.clone();
    let slow = std::thread::spawn(move || {
        client
            .get("/api/solve?position=0,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1&timeout_ms=1500")
            .status
    });
    std::thread::sleep(Duration::from_millis(400));
    let started = Instant::now();
    let status = server.stop();
    // The search in progress ran to its own limit and was answered before the server ended.
    assert_eq!(slow.join().unwrap(), 408);
    assert!(status.success(), "{status:?}");
    assert!(
        started.elapsed() >= Duration::from_millis(500),
        "{:?}",
        started.elapsed()
    );
    assert!(std::net::TcpStream::connect(&server.addr).is_err());
}

#[test]
fn a_client_that_never_finishes_its_headers_is_dropped() {
    use std::io::{Read, Write};
    let server = Server::start(tables(), &["--header-timeout", "0.3"]);
    let mut s = std::net::TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let started = Instant::now();
    let mut rest = Vec::new();
    // The server closes the connection (perhaps after a 408): the read ends.
    let _ = s.read_to_end(&mut rest);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(server.get("/api/health").status, 200);
}

/// `GET /api/tables/{file}/plot`: the SVG `gamedb plot` writes, byte for byte, for the new
/// pictures and the old; bad pictures, ranges and parameters are 400 with a JSON message.
#[test]
fn pictures_are_served_as_the_command_line_draws_them() {
    let dir = TempDir::new("service-plot");
    build(
        dir.path(),
        &[
            "octal --code 0.77 --max-heap 300",
            "chomp --rows 4 --cols 5",
        ],
    );
    let server = Server::start(dir.path(), &[]);
    for (file, query, args) in [
        ("octal-0.77-300.gtab", "", vec![]),
        (
            "octal-0.77-300.gtab",
            "?picture=sequence&from=50&to=149",
            vec!["--picture", "sequence", "--from", "50", "--to", "149"],
        ),
        (
            "octal-0.77-300.gtab",
            "?picture=rows",
            vec!["--picture", "rows"],
        ),
        (
            "chomp-4x5.gtab",
            "?picture=census",
            vec!["--picture", "census"],
        ),
        (
            "chomp-4x5.gtab",
            "?picture=chomp3&third_row=2",
            vec!["--picture", "chomp3", "--third-row", "2"],
        ),
    ] {
        let got = server.get(&format!("/api/tables/{file}/plot{query}"));
        assert_eq!(got.status, 200, "{file}{query}: {}", got.text());
        assert_eq!(got.header("content-type"), Some("image/svg+xml"));
        let out = dir.path().join("cli.svg");
        let table = dir.path().join(file);
        let mut cli = vec![
            "plot",
            table.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        cli.extend(args);
        assert!(gamedb(&cli).status.success(), "{cli:?}");
        assert_eq!(got.body, std::fs::read(&out).unwrap(), "{file}{query}");
    }
    let svg = server
        .get("/api/tables/octal-0.77-300.gtab/plot?picture=sequence")
        .text();
    assert!(svg.contains("period 12 from heap 71"), "{svg}");
    for (query, says) in [
        (
            "picture=spiral",
            "unknown picture 'spiral'; the pictures of this table are values, sequence, rows",
        ),
        (
            "picture=sequence&from=200&to=100",
            "heaps 200 to 100: the first heap is past the last",
        ),
        (
            "picture=sequence&to=301",
            "heap 301 is beyond this table's largest heap",
        ),
        ("picture=rows&from=x", "parameter 'from=x': expected a heap"),
        (
            "picture=values&from=3",
            "'from' and 'to' go with picture=sequence or picture=rows",
        ),
        ("colour=red", "unknown parameter 'colour'"),
    ] {
        let got = server.get(&format!("/api/tables/octal-0.77-300.gtab/plot?{query}"));
        assert_eq!(got.status, 400, "{query}: {}", got.text());
        let error = got.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(says), "{query}: {error}");
    }
    let got = server.get("/api/tables/chomp-4x5.gtab/plot?picture=sequence");
    assert_eq!(got.status, 400);
    assert!(
        got.json()["error"]
            .as_str()
            .unwrap()
            .contains("Pictures of this table: values, census, chomp3"),
        "{}",
        got.text()
    );
}
