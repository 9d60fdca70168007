//! `gamedb export`: every position of a table (or those of one outcome) with its values, in
//! index order, as CSV or JSON lines, for duckdb, pandas or a spreadsheet.
//!
//! Columns (CSV header, or JSON keys in this order): `index`, `position` (written as `query`
//! reads it, so quoted in CSV; empty for a table of a game this program does not know), then by value kind `outcome` (outcome tables), `outcome,grundy`
//! (Grundy tables), `distance` (complete sliding-puzzle tables) or `lower_bound` (pattern
//! databases; empty / null where the pattern cannot be brought home).
//!
//! The index range is cut into blocks answered in parallel and written in order, so the
//! output is the same at any thread count, and memory stays bounded whatever the table's size.

use std::io::Write;

use rayon::prelude::*;

use crate::format::entries::UNREACHED;
use crate::lookup::Table;
use crate::model::{Outcome, ValueKind};
use crate::progress::Progress;
use crate::{Error, Result};

/// The output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Comma-separated values with a header line.
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// Indices per block (answered by one thread).
const BLOCK: u64 = 1 << 16;
/// Blocks answered together before writing (bounds the memory held at once).
const ROUND: u64 = 32;

/// The value columns of a table.
fn columns(table: &Table) -> &'static [&'static str] {
    match table.value_kind() {
        ValueKind::Outcome => &["outcome"],
        ValueKind::Grundy => &["outcome", "grundy"],
        ValueKind::Distance if table.rules().distance_bound().is_some() => &["lower_bound"],
        ValueKind::Distance => &["distance"],
        ValueKind::Extension => &["extension"],
        ValueKind::Remoteness => &["value", "remoteness", "reachable"],
        ValueKind::Wlt => &["value"],
        ValueKind::Dtz => &["value", "wdl50", "dtz"],
    }
}

/// Writes the rows of `table` (those of outcome `only`, when given) to `out`; returns the
/// number of rows. `progress` counts indices scanned.
pub(crate) fn export(
    table: &Table,
    only: Option<Outcome>,
    format: Format,
    out: &mut dyn Write,
    progress: &dyn Progress,
) -> Result<u64> {
    if only.is_some() && table.value_kind() == ValueKind::Extension {
        return Err(Error::bad(format!(
            "--only: {} holds one extension value per prefix, not outcomes; export it without --only",
            table.file().path().display()
        )));
    }
    if only.is_some() && table.value_kind().is_two_player() {
        return Err(Error::bad(format!(
            "--only: {} holds win, lose, tie or draw, not outcomes; expected no --only (export it without)",
            table.file().path().display()
        )));
    }
    if only.is_some() && table.value_kind() == ValueKind::Distance {
        return Err(Error::bad(format!(
            "--only: {} holds distances, not outcomes; export it without --only",
            table.file().path().display()
        )));
    }
    let io = |e| Error::io(std::path::PathBuf::from("<output>"), e);
    let cols = columns(table);
    if format == Format::Csv {
        writeln!(out, "index,position,{}", cols.join(",")).map_err(io)?;
    }
    let len = table.len();
    let blocks = len.div_ceil(BLOCK);
    let mut rows = 0u64;
    let mut first = 0;
    while first < blocks {
        let last = (first + ROUND).min(blocks);
        let texts: Vec<(String, u64)> = (first..last)
            .into_par_iter()
            .map(|b| {
                let range = b * BLOCK..((b + 1) * BLOCK).min(len);
                let done = range.end - range.start;
                let text = block(table, range, only, format);
                progress.inc(done);
                text
            })
            .collect();
        for (text, n) in texts {
            out.write_all(text.as_bytes()).map_err(io)?;
            rows += n;
        }
        first = last;
    }
    out.flush().map_err(io)?;
    Ok(rows)
}

/// The rows of one block of indices, and their number.
fn block(
    table: &Table,
    range: std::ops::Range<u64>,
    only: Option<Outcome>,
    format: Format,
) -> (String, u64) {
    use std::fmt::Write as _;
    let entries = table.entries();
    let rules = table.rules();
    let kind = table.value_kind();
    let bound = rules.distance_bound().is_some();
    let mut s = String::new();
    let mut n = 0;
    for i in selected(table, range, only) {
        n += 1;
        let position = rules.format(&rules.unrank(i));
        let raw = entries.raw(i);
        if kind == ValueKind::Remoteness {
            // Only legal positions have a row (an entry of 0 is no position).
            let Some((value, r)) = crate::format::entries::standing::unpack(raw) else {
                n -= 1;
                continue;
            };
            let r = if value == crate::model::Standing::Draw {
                "null".to_string()
            } else {
                r.to_string()
            };
            let reach = crate::format::entries::standing::reachable(raw);
            let _ = match format {
                Format::Csv => {
                    let r = if r == "null" { "" } else { &r };
                    writeln!(s, "{i},\"{position}\",{},{r},{reach}", value.as_str())
                }
                Format::Jsonl => writeln!(
                    s,
                    "{{\"index\":{i},\"position\":\"{position}\",\"value\":\"{}\",\"remoteness\":{r},\"reachable\":{reach}}}",
                    value.as_str()
                ),
            };
            continue;
        }
        if kind == ValueKind::Dtz {
            let Some((value, r)) = crate::format::entries::standing::unpack(raw) else {
                n -= 1;
                continue;
            };
            let (class, dtz) = (
                crate::model::Wdl50::of(value, r),
                crate::model::Wdl50::dtz(value, r),
            );
            let _ = match format {
                Format::Csv => writeln!(
                    s,
                    "{i},\"{position}\",{},{},{dtz}",
                    value.as_str(),
                    class.words()
                ),
                Format::Jsonl => writeln!(
                    s,
                    "{{\"index\":{i},\"position\":\"{position}\",\"value\":\"{}\",\"wdl50\":\"{}\",\"dtz\":{dtz}}}",
                    value.as_str(),
                    class.words()
                ),
            };
            continue;
        }
        if kind == ValueKind::Wlt {
            // Only legal positions have a row (code 0 is no position).
            let Some(value) = crate::format::entries::wlt::value(raw) else {
                n -= 1;
                continue;
            };
            let _ = match format {
                Format::Csv => writeln!(s, "{i},\"{position}\",{}", value.as_str()),
                Format::Jsonl => writeln!(
                    s,
                    "{{\"index\":{i},\"position\":\"{position}\",\"value\":\"{}\"}}",
                    value.as_str()
                ),
            };
            continue;
        }
        let _ = match (format, kind) {
            (Format::Csv, ValueKind::Outcome) => {
                writeln!(s, "{i},\"{position}\",{}", entries.outcome(i).as_str())
            }
            (Format::Csv, ValueKind::Grundy) => {
                writeln!(
                    s,
                    "{i},\"{position}\",{},{raw}",
                    entries.outcome(i).as_str()
                )
            }
            (Format::Csv, ValueKind::Distance) if bound && raw == UNREACHED as u32 => {
                writeln!(s, "{i},\"{position}\",")
            }
            (_, ValueKind::Remoteness | ValueKind::Wlt | ValueKind::Dtz) => {
                unreachable!("written above")
            }
            (Format::Csv, ValueKind::Distance | ValueKind::Extension) => {
                writeln!(s, "{i},\"{position}\",{raw}")
            }
            (Format::Jsonl, ValueKind::Extension) => writeln!(
                s,
                "{{\"index\":{i},\"position\":\"{position}\",\"extension\":{raw}}}"
            ),
            (Format::Jsonl, ValueKind::Outcome) => writeln!(
                s,
                "{{\"index\":{i},\"position\":\"{position}\",\"outcome\":\"{}\"}}",
                entries.outcome(i).as_str()
            ),
            (Format::Jsonl, ValueKind::Grundy) => writeln!(
                s,
                "{{\"index\":{i},\"position\":\"{position}\",\"outcome\":\"{}\",\"grundy\":{raw}}}",
                entries.outcome(i).as_str()
            ),
            (Format::Jsonl, ValueKind::Distance) => {
                let key = if bound { "lower_bound" } else { "distance" };
                if bound && raw == UNREACHED as u32 {
                    writeln!(
                        s,
                        "{{\"index\":{i},\"position\":\"{position}\",\"{key}\":null}}"
                    )
                } else {
                    writeln!(
                        s,
                        "{{\"index\":{i},\"position\":\"{position}\",\"{key}\":{raw}}}"
                    )
                }
            }
        };
    }
    (s, n)
}

/// The indices of `range` to export, in order: all, or those of outcome `only` (read by the
/// format, which tests a byte of eight entries at once on bit tables).
fn selected(
    table: &Table,
    range: std::ops::Range<u64>,
    only: Option<Outcome>,
) -> Box<dyn Iterator<Item = u64> + '_> {
    match only {
        None => Box::new(range),
        Some(want) => table.entries().with_outcome(range, want),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chomp::ChompSpec;
    use crate::games::Spec;

    fn chomp(kind: ValueKind) -> Table {
        let spec = Spec::new(ChompSpec::new(4, 5).unwrap());
        Table::from_solved(&spec, spec.solve(kind, &()).unwrap()).unwrap()
    }

    #[test]
    fn rows_are_the_tables_entries_in_index_order() {
        let t = chomp(ValueKind::Grundy);
        let mut out = Vec::new();
        let n = export(&t, None, Format::Csv, &mut out, &()).unwrap();
        assert_eq!(n, t.len());
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("index,position,outcome,grundy"));
        for (i, line) in lines.enumerate() {
            let pos = t.rules().format(&t.rules().unrank(i as u64));
            let a = t.query(&pos).unwrap();
            let want = format!(
                "{i},\"{pos}\",{},{}",
                a.outcome().unwrap().as_str(),
                a.grundy().unwrap()
            );
            assert_eq!(line, want);
        }
        let t = chomp(ValueKind::Outcome);
        let mut out = Vec::new();
        let p = export(&t, Some(Outcome::P), Format::Jsonl, &mut out, &()).unwrap();
        assert_eq!(p, t.count_p());
        for line in String::from_utf8(out).unwrap().lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let pos = v["position"].as_str().unwrap();
            assert_eq!(t.query(pos).unwrap().outcome(), Some(Outcome::P));
            assert_eq!(v["outcome"], "P");
        }
    }
}
