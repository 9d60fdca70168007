//! `gamedb query TABLE -` as a conversation: a caller writes one position, waits for its
//! answer, then writes the next (the stream must answer each line as soon as it arrives, not
//! when its output buffer fills or the input ends), a bad line is answered with an error
//! object and the conversation goes on, and closing the input ends it with the summary.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use gamedb::games::nim::NimSpec;
use gamedb::games::Spec;
use gamedb::ValueKind;

mod common;
use common::{build, scratch};

#[test]
fn answers_each_line_before_the_next_is_written() {
    let dir = scratch("query-stream");
    let table = build(
        Spec::Nim(NimSpec::new(3, 7, None, false).unwrap()),
        ValueKind::Outcome,
        &dir,
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .arg("query")
        .arg(&table)
        .args(["-", "--json"])
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
    assert_eq!(
        ask("1,2,4"),
        r#"{"position":"1,2,4","outcome":"N","winning_moves":[{"move":"take 1 from heap 3","leaves":"1,2,3"}]}"#
    );
    assert_eq!(
        ask("3,5,6"),
        r#"{"position":"3,5,6","outcome":"P","winning_moves":[]}"#
    );
    let bad = ask("9,9");
    assert!(
        bad.starts_with(r#"{"position":"9,9","error":"position '9,9': heap 9 is larger"#),
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
    std::fs::remove_dir_all(&dir).unwrap();
}
