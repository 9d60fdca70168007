//! An octal game's code: `d0.d1d2…` (hexadecimal digits for games whose moves may leave
//! three heaps) or `grundy`, read canonically, and the moves it allows.

use std::fmt;

use super::MAX_DIGITS;
use crate::{Error, Result};

/// A game's code, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Code {
    /// `d0.d1d2…`: `digits[k]` is `dk`, 0..=7 for an octal game, up to 15 for a hexadecimal
    /// one (bit 8: taking `k` may leave three non-empty heaps); `digits[0]` is 0, 4, 8 or 12
    /// (splits without taking); no trailing zero digit after the first (0.770 is 0.77), and
    /// some move allowed.
    Octal(Vec<u8>),
    /// Grundy's game: split one heap into two non-empty heaps of different sizes.
    Grundy,
}

impl Code {
    /// Reads a code: `d0.d1d2…` (`.d1d2…` for `0.d1d2…`) or `grundy`; the error says what is
    /// wrong and the accepted form.
    pub fn parse(text: &str) -> Result<Code> {
        let form = "a code d0.d1d2... (each digit 0..=7 for an octal game, 0..=9 or A..=F for a \
                    hexadecimal one, d0 one of 0, 4, 8, C; e.g. 0.77 for Kayles, 0.07 for \
                    Dawson's Kayles, 0.F for a game that may leave three heaps) or 'grundy'";
        let text = text.trim();
        let bad = |what: String| {
            Err(Error::bad(format!(
                "--code {}: {what}; expected {form}",
                crate::game::echo(text)
            )))
        };
        if text.eq_ignore_ascii_case("grundy") {
            return Ok(Code::Grundy);
        }
        if text.starts_with("0x") || text.starts_with("0X") {
            return bad(
                "write a hexadecimal code with a point, as d0.d1d2... (e.g. 0.F), not 0x...".into(),
            );
        }
        let Some((whole, fraction)) = text.split_once('.') else {
            return bad("no point".into());
        };
        let d0 = match whole {
            "" | "0" => 0,
            "4" => 4,
            "8" => 8,
            "C" | "c" => 12,
            _ => {
                return bad(format!(
                    "'{}' before the point: only 0, 4 (a heap may be split in two without \
                     taking), 8 (in three) or C (in two or three)",
                    crate::game::echo(whole)
                ))
            }
        };
        if fraction.is_empty() {
            return bad("no digit after the point".into());
        }
        let mut digits = vec![d0];
        for c in fraction.chars() {
            match c.to_digit(16) {
                Some(d) => digits.push(d as u8),
                None => {
                    return bad(format!(
                        "'{c}' is not a digit (0..=7, or 0..=9 and A..=F for hexadecimal codes)"
                    ))
                }
            }
        }
        while digits.len() > 2 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() > MAX_DIGITS + 1 {
            return bad(format!(
                "{} digits after the point; at most {MAX_DIGITS}",
                digits.len() - 1
            ));
        }
        if digits.iter().all(|&d| d == 0) {
            return bad("no digit allows a move".into());
        }
        Ok(Code::Octal(digits))
    }

    /// Whether a move may leave three heaps (a hexadecimal code with a digit of 8 or more).
    pub(crate) fn three_heaps(&self) -> bool {
        matches!(self, Code::Octal(d) if d.iter().any(|&x| x & 8 != 0))
    }

    /// The largest number of counters one move takes (the last digit's index, `t` of the
    /// periodicity theorem); 0 for Grundy's game.
    pub fn last_digit(&self) -> usize {
        match self {
            Code::Octal(d) => d.len() - 1,
            Code::Grundy => 0,
        }
    }

    /// A name the literature gives the game, if any.
    pub fn name(&self) -> Option<&'static str> {
        let text = self.to_string();
        Some(match text.as_str() {
            "grundy" => "Grundy's game",
            "0.77" => "Kayles",
            "0.07" => "Dawson's Kayles",
            "0.137" => "Dawson's chess",
            "0.6" => "Officers",
            "0.7777" => "Double Kayles",
            _ => return None,
        })
    }

    /// Calls `f(k, leaves)` for every move of a heap of `h`, in a fixed order: by the number
    /// taken `k`, then no heap left, one heap, two heaps `(a, b)` with `a ≤ b` by `a`, three
    /// heaps `(a, b, c)` with `a ≤ b ≤ c` by `a`, then `b`.
    /// A move that leaves nothing passes `&[]`.
    pub fn each_move(&self, h: u32, mut f: impl FnMut(u32, &[u32])) {
        match self {
            Code::Grundy => {
                for a in 1..h.div_ceil(2) {
                    f(0, &[a, h - a]);
                }
            }
            Code::Octal(digits) => {
                for (k, &d) in digits.iter().enumerate() {
                    let k = k as u32;
                    if k > h {
                        break;
                    }
                    if d & 1 != 0 && h == k {
                        f(k, &[]);
                    }
                    if d & 2 != 0 && h > k {
                        f(k, &[h - k]);
                    }
                    if d & 4 != 0 && h >= k + 2 {
                        let r = h - k;
                        for a in 1..=r / 2 {
                            f(k, &[a, r - a]);
                        }
                    }
                    if d & 8 != 0 && h >= k + 3 {
                        let r = h - k;
                        for a in 1..=r / 3 {
                            for b in a..=(r - a) / 2 {
                                f(k, &[a, b, r - a - b]);
                            }
                        }
                    }
                }
            }
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Code::Grundy => f.write_str("grundy"),
            Code::Octal(d) => {
                write!(f, "{:X}.", d[0])?;
                d[1..].iter().try_for_each(|x| write!(f, "{x:X}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameSpec;
    use crate::games::octal::OctalSpec;

    #[test]
    fn codes_are_read_canonically_and_bad_ones_refused() {
        for (text, canonical) in [
            ("0.77", "0.77"),
            ("0.770", "0.77"),
            (".07", "0.07"),
            ("4.0", "4.0"),
            ("4.00", "4.0"),
            ("0.0700", "0.07"),
            ("GRUNDY", "grundy"),
            ("0.f", "0.F"),
            ("c.1a0", "C.1A"),
            ("8.0", "8.0"),
        ] {
            assert_eq!(Code::parse(text).unwrap().to_string(), canonical, "{text}");
        }
        for (text, why) in [
            ("0.G", "'G' is not a digit"),
            ("2.7", "'2' before the point"),
            ("1.2", "'1' before the point"),
            ("0.", "no digit after the point"),
            ("x", "no point"),
            ("0.0", "no digit allows a move"),
            ("0x1.2", "not 0x"),
        ] {
            let e = Code::parse(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
        assert!(OctalSpec::from_parameters("code=0.770,max-heap=5").is_err());
        assert!(OctalSpec::from_parameters("code=0.77,max-heap=5").is_ok());
        assert!(OctalSpec::new("0.77", 0).is_err());
    }
}
