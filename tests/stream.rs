//! Streams (`gamedb query TABLE -`, `gamedb query --rows R --cols C -`, `gamedb solve -`): one
//! answer line per input line, in order, whatever the lines hold. A caller talking line by line
//! gets each answer before writing the next line; a bad line (bad text, bytes that are not
//! UTF-8, a 10 MB line) is answered with an error object naming at most its first 200 bytes
//! and the stream goes on; the command then exits 2 with a summary on stderr.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::*;
use gamedb::answer::ErrorLine;
use gamedb::games::nim::NimSpec;
use gamedb::games::pdb::PdbSpec;
use gamedb::{Spec, ValueKind};

fn nim_3x7(dir: &TempDir) -> String {
    let path = build(
        Spec::new(NimSpec::new(3, 7, None, false).unwrap()),
        ValueKind::Outcome,
        dir.path(),
    );
    path.to_str().unwrap().to_string()
}

#[test]
fn answers_each_line_before_the_next_is_written() {
    let dir = TempDir::new("query-stream");
    let table = nim_3x7(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args(["query", &table, "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    // Answers arrive through a thread so a missing answer fails the test instead of hanging it.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let mut ask = |line: &str| -> String {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        rx.recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no answer to '{line}' while the input stays open"))
    };
    // The documented answer lines, byte for byte.
    assert_eq!(
        ask("1,2,4"),
        r#"{"position":"1,2,4","outcome":"N","winning_moves":[{"move":"take 1 from heap 3","leaves":"1,2,3"}]}"#
    );
    assert_eq!(
        ask("3,5,6"),
        r#"{"position":"3,5,6","outcome":"P","winning_moves":[]}"#
    );
    let bad = json(&ask("9,9"));
    assert_eq!(bad["position"], "9,9", "{bad}");
    let error = str_at(&bad, "error");
    assert!(
        error.starts_with("position '9,9': heap 9 is larger"),
        "{bad}"
    );
    assert_eq!(
        ask(" 7 ,7 "),
        r#"{"position":"7,7","outcome":"P","winning_moves":[]}"#
    );
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "a bad line makes the exit status 2"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("1 of 4 input lines could not be answered"),
        "{stderr}"
    );
}

#[test]
fn streaming_queries_answer_every_line() {
    let dir = cli_build("stream", "candy --max-candies 99 --max-take 3");
    let path = dir.join("candy-n99-k3-even.gtab");
    let o = gamedb_stdin(
        &["query", &path, "-", "--json"],
        b"13,0,0\n4,2,2\nnonsense\n\n9,0,0\n",
    );
    let s = stdout(&o);
    let lines = json_lines(&s);
    assert_eq!(lines.len(), 4, "{s}");
    assert_eq!(lines[0]["position"], "13,0,0", "{s}");
    assert_eq!(lines[0]["outcome"], "N", "{s}");
    assert_eq!(lines[1]["position"], "4,2,2", "{s}");
    assert!(
        lines[1]["error"].as_str().unwrap().contains("total 8"),
        "{s}"
    );
    assert_eq!(lines[2]["position"], "nonsense", "{s}");
    assert!(lines[2]["error"].is_string(), "{s}");
    // 9 ≡ 1 (mod 8): the second player wins (Xiao Renwu, Theorem I.1).
    assert_eq!(lines[3]["position"], "9,0,0", "{s}");
    assert_eq!(lines[3]["outcome"], "P", "{s}");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("2 of 4 input lines could not be answered"),
        "{}",
        stderr(&o)
    );
}

/// The beginning of a long text, for messages.
fn start(text: &str) -> String {
    text.chars().take(300).collect()
}

/// Checks an error line for `line`: its position is the line's first 200 bytes and a note of
/// its length, and the whole answer stays short.
fn echoed_by_its_beginning(answer: &str, line: &str) {
    assert!(
        answer.len() < 1000,
        "{} bytes: {}",
        answer.len(),
        start(answer)
    );
    let a = json(answer);
    let position = a["position"].as_str().unwrap();
    assert!(
        position.starts_with(&line[..ErrorLine::ECHO_LIMIT])
            && position.ends_with(&format!("… ({} bytes)", line.len())),
        "{answer}"
    );
    assert!(a["error"].is_string(), "{answer}");
}

#[test]
fn queries_survive_bad_bytes_and_huge_lines() {
    let dir = TempDir::new("bad-bytes");
    let table = nim_3x7(&dir);
    // A line that is not UTF-8 between two good ones: three answers, in order.
    let o = gamedb_stdin(&["query", &table, "-", "--json"], b"1,2,3\n\xff\n1,2,4\n");
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(
        lines[0],
        r#"{"position":"1,2,3","outcome":"P","winning_moves":[]}"#
    );
    let bad = json(lines[1]);
    let error = str_at(&bad, "error");
    assert!(
        error.starts_with("line '") && error.contains("not UTF-8"),
        "{out}"
    );
    assert_eq!(
        lines[2],
        r#"{"position":"1,2,4","outcome":"N","winning_moves":[{"move":"take 1 from heap 3","leaves":"1,2,3"}]}"#
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 of 3 input lines could not be answered"),
        "{}",
        stderr(&o)
    );
    // 10 MB lines (one of numbers, one of letters, one of digits) between good ones: each is
    // named by its first 200 bytes, in the position and in the message.
    let huge = [
        "1,".repeat(5_000_000),
        "x".repeat(10_000_000),
        "7".repeat(10_000_000),
    ];
    for line in &huge {
        let input = format!("3,5,6\n{line}\n7,7\n");
        let o = gamedb_stdin(&["query", &table, "-", "--json"], input.as_bytes());
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{} bytes of output", out.len());
        assert_eq!(json(lines[0])["outcome"], "P");
        echoed_by_its_beginning(lines[1], line);
        assert_eq!(json(lines[2])["position"], "7,7");
        assert_eq!(o.status.code(), Some(2));
        // Text answers too.
        let o = gamedb_stdin(&["query", &table, "-"], input.as_bytes());
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{} bytes of output", out.len());
        assert!(
            lines[1].len() < 1000 && lines[1].contains(": error: "),
            "{}",
            start(lines[1])
        );
    }
}

#[test]
fn solve_and_board_queries_survive_bad_bytes_and_huge_lines() {
    let dir = TempDir::new("solve-bad-bytes");
    for pattern in [[1, 2, 3, 4], [5, 6, 7, 8]] {
        build(
            Spec::new(PdbSpec::new(3, 3, &pattern).unwrap()),
            ValueKind::Distance,
            dir.path(),
        );
    }
    let huge = "1,".repeat(5_000_000);
    let mut input = b"1,2,3,4,5,6,7,0,8\n\xff\xfe\n".to_vec();
    input.extend_from_slice(huge.as_bytes());
    input.extend_from_slice(b"\n1,2,3,4,5,6,0,7,8\n");
    let board = ["--rows", "3", "--cols", "3", "--tables", dir.arg()];
    for command in ["solve", "query"] {
        let mut args = vec![command];
        args.extend(board);
        args.extend(["--json", "-"]);
        let o = gamedb_stdin(&args, &input);
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{command}: {} bytes of output", out.len());
        assert_eq!(json(lines[0])["distance"], 1, "{command}: {}", lines[0]);
        assert!(
            json(lines[1])["error"]
                .as_str()
                .unwrap()
                .contains("not UTF-8"),
            "{command}: {}",
            lines[1]
        );
        echoed_by_its_beginning(lines[2], &huge);
        assert_eq!(json(lines[3])["distance"], 2, "{command}: {}", lines[3]);
        assert_eq!(o.status.code(), Some(2), "{command}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("2 of 4 input lines could not be answered"),
            "{command}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_line_that_is_not_utf8_gets_an_error_and_the_stream_goes_on() {
    // The JSON stream is checked in tests/stream.rs (queries_survive_bad_bytes_and_huge_lines);
    // here text mode, and `solve -` (unsolvable arrangements need no tables).
    let dir = TempDir::new("utf8");
    let t = built(dir.path(), "nim --heaps 3 --max-heap 15", "nim-3x15.gtab");
    let o = gamedb_stdin(&["query", s(&t), "-"], b"\xc3\x28 bad\n1,2,3\n");
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
    let o = gamedb_stdin(
        &words("solve --rows 2 --cols 2 --tables {} -", &[s(dir.path())]),
        b"2,1,3,0\n\xfe\xff\n2,1,3,0\n",
    );
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 3, "{out}{}", stderr(&o));
    assert!(out.lines().nth(1).unwrap().contains("not UTF-8"), "{out}");
    assert!(out.lines().nth(2).unwrap().contains("unsolvable"), "{out}");
}

#[test]
fn a_huge_bad_line_is_echoed_once_and_short() {
    let dir = TempDir::new("hugeline");
    let t = built(dir.path(), "nim --heaps 3 --max-heap 15", "nim-3x15.gtab");
    // 10 MB of heaps, 10 MB of garbage, 10 MB of non-UTF-8 bytes, 10 MB of zeros.
    let mut input = Vec::new();
    for line in [
        "1,".repeat(5_000_000),
        "x".repeat(10_000_000),
        "\u{fffd}".repeat(3_000_000),
        "0,".repeat(5_000_000) + "0",
    ] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(&[0xff; 1000]);
    input.extend_from_slice(b"\n1,2,3\n");
    for json in [true, false] {
        let mut args = vec!["query", s(&t), "-"];
        if json {
            args.push("--json");
        }
        let o = gamedb_stdin(&args, &input);
        let out = stdout(&o);
        assert_eq!(out.lines().count(), 6, "{}", &out[..out.len().min(3000)]);
        for l in out.lines() {
            assert!(
                l.len() < 1500,
                "an answer of {} bytes: {}…",
                l.len(),
                &l[..300]
            );
        }
        assert!(
            out.contains("(10000000 bytes)"),
            "{}",
            &out[..out.len().min(3000)]
        );
        assert!(out.lines().last().unwrap().contains("1,2,3"));
    }
}
