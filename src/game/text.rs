//! Positions as text: numbers read and written, input quoted in messages without repeating a
//! huge line, the usual message for a refused position, heaps drawn at a terminal; and the
//! binomial coefficients many indices count with.

use crate::Result;

/// Binomial coefficient C(n, k), `None` on overflow.
pub fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut acc: u128 = 1;
    for i in 0..k {
        acc = acc * (n - i) as u128 / (i + 1) as u128;
        if acc > u64::MAX as u128 {
            return None;
        }
    }
    Some(acc as u64)
}

/// Parses `a,b,c` (spaces allowed) into numbers; `form` names the accepted form in errors.
/// Messages quote the input through [`echo`], so a 10 MB line is named by its beginning, not
/// repeated.
pub fn parse_numbers(text: &str, form: String) -> Result<Vec<u32>> {
    let text = text.trim();
    if text.is_empty() {
        return Err(crate::Error::bad(format!(
            "empty position; expected {form}"
        )));
    }
    text.split(',')
        .map(|part| {
            let part = part.trim();
            part.parse::<u32>().map_err(|e| {
                let what = if *e.kind() == std::num::IntErrorKind::PosOverflow {
                    format!("is too large (at most {})", u32::MAX)
                } else {
                    "is not a non-negative integer".to_string()
                };
                crate::Error::bad(format!(
                    "position '{}': '{}' {what}; expected {form}",
                    echo(text),
                    echo(part)
                ))
            })
        })
        .collect()
}

/// A count with its noun, singular for one: `1 number`, `3 numbers`, `0 rows` (the noun
/// given in the singular; its plural adds `s`).
pub(crate) fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Longest quotation of input in a message or an error line: a 10 MB line is named by its
/// beginning, not repeated.
pub const ECHO_LIMIT: usize = 200;

/// `text` cut to at most [`ECHO_LIMIT`] bytes (at a character boundary), with `… (N bytes)`
/// when it was cut.
pub fn echo(text: &str) -> String {
    if text.len() <= ECHO_LIMIT {
        return text.to_string();
    }
    let mut end = ECHO_LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

/// A position as messages quote it: [`format_numbers`] cut like [`echo`], without writing out
/// the whole of a huge one first.
pub fn quote(pos: &[u32]) -> String {
    let limit = ECHO_LIMIT;
    // Each number takes at most 11 bytes with its comma: the prefix that can be shown.
    let shown = &pos[..pos.len().min(limit / 2 + 1)];
    let text = format_numbers(shown);
    if shown.len() == pos.len() {
        return echo(&text);
    }
    let total: usize = pos.iter().map(|v| decimal_len(*v)).sum::<usize>() + pos.len() - 1;
    format!("{}… ({total} bytes)", &text[..limit.min(text.len())])
}

fn decimal_len(v: u32) -> usize {
    v.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Heaps drawn a line each (`heap 2  ||||  4`), the board of the heap games; a heap too long
/// to draw is its number alone.
pub fn heaps_board(pos: &[u32]) -> String {
    let width = pos.iter().copied().filter(|&h| h <= 40).max().unwrap_or(0) as usize;
    pos.iter()
        .enumerate()
        .map(|(i, &h)| match h {
            0..=40 => format!("heap {}  {:<width$}  {h}", i + 1, "|".repeat(h as usize)),
            _ => format!("heap {}  {h}", i + 1),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `a,b,c`.
pub fn format_numbers(pos: &[u32]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(pos.len() * 3);
    for (i, x) in pos.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        // Written in place: no string per number (exports format millions of positions).
        let _ = write!(s, "{x}");
    }
    s
}
