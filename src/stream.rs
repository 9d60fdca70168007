//! The stream engine: one answer line per input line, in order, whatever the lines hold.
//!
//! `gamedb query TABLE -`, `gamedb query --rows R --cols C -` and `gamedb solve -` read
//! positions from standard input and answer each one on its own line of standard output. A
//! line that cannot be answered (bad text, bytes that are not UTF-8, a position outside the
//! table) gets an error line ([`ErrorLine`]: `{"position":..,"error":..}` with JSON) and the
//! stream goes on; only a failure of the source itself (its tables missing or damaged) ends it.
//!
//! A caller talking line by line gets each answer at once (output is flushed whenever no more
//! input is queued); a long pipe gets the lines already queued answered in parallel batches of
//! up to [`BATCH`] lines, written in input order, so the output is the same at any thread count.

use std::io::{BufRead, BufReader, Read, Write};
use std::ops::Range;
use std::path::PathBuf;

use rayon::prelude::*;

use crate::answer::{echo, ErrorLine};
use crate::{Error, Result};

/// Most queued input lines answered together.
pub(crate) const BATCH: usize = 4096;

/// Batches smaller than this are answered on the calling thread (splitting costs more).
const PARALLEL_FROM: usize = 64;

/// What a stream did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(fuzzing), allow(unreachable_pub))] // pub for `gamedb::fuzzing`
pub struct Summary {
    /// Lines answered (empty lines are skipped, not counted).
    pub lines: u64,
    /// Lines answered with an error line.
    pub bad: u64,
    /// Whether the reader of the output went away before the end.
    pub closed: bool,
}

/// One line's reply: its answer line, or the error that answers it. `Err` from the closure
/// given to [`answer_lines`] ends the stream instead (the source itself failed).
pub(crate) type Reply = std::result::Result<String, Error>;

fn stdout_error(e: std::io::Error) -> Error {
    Error::io(PathBuf::from("<stdout>"), e)
}

/// Answers every non-empty line of `input` with one line on `output`, in input order.
/// `answer` gives the reply of one line (already trimmed); bad lines, including lines that are
/// not UTF-8, are answered with an [`ErrorLine`] (JSON when `json`).
///
/// The input is read through a [`BufReader`] (give one with a large buffer for long pipes):
/// what it has buffered tells, without waiting, whether more lines are queued.
#[cfg_attr(not(fuzzing), allow(unreachable_pub))] // pub for `gamedb::fuzzing`
pub fn answer_lines<R, W, F>(
    input: &mut BufReader<R>,
    output: W,
    json: bool,
    answer: F,
) -> Result<Summary>
where
    R: Read,
    W: Write,
    F: Fn(&str) -> Result<Reply> + Sync,
{
    let mut out = std::io::BufWriter::with_capacity(1 << 16, output);
    let mut summary = Summary::default();
    let mut raw = Vec::new();
    let mut batch = Batch::default();
    let mut eof = false;
    while !eof {
        // Take the lines already queued (at least one, waiting for it if need be).
        batch.clear();
        loop {
            raw.clear();
            let n = input
                .read_until(b'\n', &mut raw)
                .map_err(|e| Error::io(PathBuf::from("<stdin>"), e))?;
            if n == 0 {
                eof = true;
                break;
            }
            batch.push(&raw);
            if input.buffer().is_empty() || batch.len() >= BATCH {
                break;
            }
        }
        // Answer in chunks, each into one buffer of its lines (in parallel when there are
        // many), then write the chunks in input order.
        let chunks: Vec<Chunk> = if batch.len() >= PARALLEL_FROM {
            let ranges: Vec<Range<usize>> = (0..batch.len())
                .step_by(CHUNK)
                .map(|k| k..(k + CHUNK).min(batch.len()))
                .collect();
            ranges
                .into_par_iter()
                .map(|r| batch.answer(r, json, &answer))
                .collect()
        } else {
            vec![batch.answer(0..batch.len(), json, &answer)]
        };
        for chunk in chunks {
            summary.lines += chunk.lines;
            summary.bad += chunk.bad;
            if let Err(e) = out.write_all(&chunk.text) {
                // A reader that went away ends the conversation; it is not an error.
                if e.kind() == std::io::ErrorKind::BrokenPipe {
                    summary.closed = true;
                    return Ok(summary);
                }
                return Err(stdout_error(e));
            }
            if let Some(e) = chunk.failed {
                // The lines before the failure are answered (as they were written).
                let _ = out.flush();
                return Err(e);
            }
        }
        // Answer as soon as the caller waits for us: flush when no more input is queued.
        if eof || input.buffer().is_empty() {
            match out.flush() {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                    summary.closed = true;
                    return Ok(summary);
                }
                r => r.map_err(stdout_error)?,
            }
        }
    }
    Ok(summary)
}

/// Lines answered into one buffer by one task.
const CHUNK: usize = 64;

/// The non-empty lines of one batch, trimmed, one after another in one string (no string
/// of its own a line): `lines[k]` is line `k`'s place in `text`, and whether it was UTF-8
/// (a line that is not holds its lossy form, for the error line that answers it).
#[derive(Default)]
struct Batch {
    text: String,
    lines: Vec<(Range<usize>, bool)>,
}

/// What a chunk of lines gave: their answer lines (each ending in a newline), how many were
/// answered and how many with an error line, and the failure of the source that ended it
/// (after the lines in `text`).
struct Chunk {
    text: Vec<u8>,
    lines: u64,
    bad: u64,
    failed: Option<Error>,
}

impl Batch {
    fn clear(&mut self) {
        self.text.clear();
        self.lines.clear();
    }

    fn len(&self) -> usize {
        self.lines.len()
    }

    /// Adds one raw line (with or without its newline); empty lines are skipped.
    fn push(&mut self, raw: &[u8]) {
        let start = self.text.len();
        let utf8 = match std::str::from_utf8(raw) {
            Ok(text) => {
                self.text.push_str(text.trim());
                true
            }
            Err(_) => {
                self.text.push_str(String::from_utf8_lossy(raw).trim());
                false
            }
        };
        if self.text.len() > start {
            self.lines.push((start..self.text.len(), utf8));
        }
    }

    /// Answers lines `which` in order, each with `answer` or an error line.
    fn answer<F>(&self, which: Range<usize>, json: bool, answer: &F) -> Chunk
    where
        F: Fn(&str) -> Result<Reply>,
    {
        let mut chunk = Chunk {
            text: Vec::with_capacity(which.len() * 256),
            lines: 0,
            bad: 0,
            failed: None,
        };
        for (range, utf8) in &self.lines[which] {
            let line = &self.text[range.clone()];
            let reply = if *utf8 {
                answer(line)
            } else {
                Ok(Err(Error::bad(format!(
                    "line '{}' is not UTF-8 text; expected one position per line, written as \
                     `gamedb query` reads them",
                    echo(line)
                ))))
            };
            let text = match reply {
                Ok(Ok(text)) => text,
                Ok(Err(e)) => {
                    chunk.bad += 1;
                    let e = ErrorLine::new(line, e);
                    if json {
                        e.to_json()
                    } else {
                        e.to_text()
                    }
                }
                Err(e) => {
                    chunk.failed = Some(e);
                    return chunk;
                }
            };
            chunk.lines += 1;
            chunk.text.extend_from_slice(text.as_bytes());
            chunk.text.push(b'\n');
        }
        chunk
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &[u8], json: bool) -> (String, Summary) {
        let mut out = Vec::new();
        let summary = answer_lines(&mut BufReader::new(input), &mut out, json, |text| {
            Ok(match text.parse::<u32>() {
                Ok(n) => Ok(format!("{}", n * 2)),
                Err(_) => Err(Error::bad("not a number")),
            })
        })
        .unwrap();
        (String::from_utf8(out).unwrap(), summary)
    }

    #[test]
    fn every_line_is_answered_in_order_even_bad_bytes() {
        let (out, s) = run(b"1\n\xff\xfe\n\n 3 \nx\n4", true);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 5, "{out}");
        assert_eq!(lines[0], "2");
        assert!(lines[1].contains("not UTF-8"), "{}", lines[1]);
        assert_eq!(lines[2], "6");
        assert_eq!(lines[3], r#"{"position":"x","error":"not a number"}"#);
        assert_eq!(lines[4], "8");
        assert_eq!(s.lines, 5);
        assert_eq!(s.bad, 2);
        let (_, s) = run(b"4\n", false);
        assert_eq!((s.lines, s.bad), (1, 0));
    }

    #[test]
    fn long_batches_keep_their_order() {
        let input: String = (0..10_000).map(|i| format!("{i}\n")).collect();
        let (out, s) = run(input.as_bytes(), false);
        assert_eq!(s.lines, 10_000);
        for (i, line) in out.lines().enumerate() {
            assert_eq!(line, (2 * i).to_string());
        }
    }

    /// A long batch is answered in parallel chunks: bad lines get their error line in their
    /// place, and a failure of the source ends the stream after exactly the lines before it.
    #[test]
    fn chunks_keep_bad_lines_in_place_and_stop_at_a_failure() {
        let input: String = (0..1000)
            .map(|i| match i % 97 {
                0 => "x\n".to_string(),
                1 => "\n".to_string(),
                _ => format!(" {i}\n"),
            })
            .collect();
        let (out, s) = run(input.as_bytes(), true);
        let expected: Vec<String> = (0..1000)
            .filter(|i| i % 97 != 1)
            .map(|i| match i % 97 {
                0 => r#"{"position":"x","error":"not a number"}"#.to_string(),
                _ => (2 * i).to_string(),
            })
            .collect();
        assert_eq!(out.lines().collect::<Vec<_>>(), expected);
        assert_eq!((s.lines, s.bad), (expected.len() as u64, 11));

        let mut out = Vec::new();
        let err = answer_lines(
            &mut BufReader::new(input.as_bytes()),
            &mut out,
            false,
            |t| {
                if t == "700" {
                    Err(Error::unsupported("the source is gone"))
                } else {
                    Ok(Ok(t.to_string()))
                }
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("the source is gone"));
        let before: Vec<String> = (0..700)
            .filter(|i| i % 97 != 1)
            .map(|i| {
                if i % 97 == 0 {
                    "x".into()
                } else {
                    i.to_string()
                }
            })
            .collect();
        assert_eq!(
            String::from_utf8(out).unwrap().lines().collect::<Vec<_>>(),
            before
        );
    }

    #[test]
    fn a_source_failure_ends_the_stream() {
        let mut out = Vec::new();
        let err = answer_lines(&mut BufReader::new(&b"1\n2\n"[..]), &mut out, false, |_| {
            Err(Error::unsupported("no tables"))
        })
        .unwrap_err();
        assert!(err.to_string().contains("no tables"));
    }
}
