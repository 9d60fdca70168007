//! Format version 1 (gamedb 0.1 to 0.3), read as version 2. A version 1 header named its game
//! by a number chosen by hand and its parameters as eight numbers whose meaning only that game
//! knew; the numbers below are that history, frozen: no game will ever get a number again.
//! Reading one gives the version 2 header of the same table (game name, rules version 1,
//! canonical parameter text); the payload is the same bytes in both versions, so `gamedb
//! upgrade` only rewrites the header.
//!
//! ```text
//! offset size field (version 1)
//!      0    8 magic            "GAMEDB\r\n"
//!      8    4 format_version   u32 = 1
//!     12    4 game             u32 (1 candy, 2 nim, 3 chomp, 4 slide, 5 pdb, 6 wythoff, 7 chomp3)
//!     16   64 params           [u64; 8], per game (below), unused ones 0
//!     80    4 value_kind       u32
//!     84    4 encoding         u32
//!     88    8 entry_count      u64
//!     96    8 payload_offset   u64 = 4096
//!    104    8 payload_len      u64
//!    112    8 payload_xxh3     u64
//!    120   16 crate_version    UTF-8, zero padded
//!    136    8 header_xxh3      u64, xxh3-64 of bytes 0..136
//! ```

use std::path::Path;

use xxhash_rust::xxh3::xxh3_64;

use super::{check_sizes, field_text, Header, Sizes};
use crate::{Error, Result};

/// The version this module reads.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes of a version 1 header.
pub const HEADER_LEN: usize = 144;

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Reads a version 1 header as the version 2 header of the same table.
pub(crate) fn parse_header(path: &Path, bytes: &[u8], file_len: u64) -> Result<Header> {
    if bytes.len() < HEADER_LEN {
        return Err(Error::corrupt(path, "truncated header"));
    }
    let stored = u64_at(bytes, 136);
    let hsum = xxh3_64(&bytes[..136]);
    if hsum != stored {
        return Err(Error::corrupt(
            path,
            format!("header checksum mismatch: stored {stored:016x}, header hashes to {hsum:016x}"),
        ));
    }
    let number = u32_at(bytes, 12);
    let params: Vec<u64> = (0..8).map(|i| u64_at(bytes, 16 + 8 * i)).collect();
    let (game, parameters) = game_and_parameters(path, number, &params)?;
    let sizes = Sizes {
        value_kind: u32_at(bytes, 80),
        encoding: u32_at(bytes, 84),
        entry_count: u64_at(bytes, 88),
        payload_offset: u64_at(bytes, 96),
        payload_len: u64_at(bytes, 104),
    };
    let (entry_count, payload_offset, payload_len) =
        (sizes.entry_count, sizes.payload_offset, sizes.payload_len);
    let (value_kind, encoding) = check_sizes(path, sizes, file_len)?;
    Ok(Header {
        format_version: FORMAT_VERSION,
        game: game.to_string(),
        rules_version: 1,
        parameters,
        value_kind,
        encoding,
        entry_count,
        payload_offset,
        payload_len,
        payload_xxh3: u64_at(bytes, 112),
        crate_version: field_text(path, &bytes[120..136], "crate version")
            .unwrap_or_else(|_| "?".into()),
    })
}

/// The game name and canonical parameter text of a version 1 game number and parameters, or
/// the damage of the header of the table at `path` ([`Error::Corrupt`]).
fn game_and_parameters(path: &Path, number: u32, p: &[u64]) -> Result<(&'static str, String)> {
    let damaged = |what: String| Error::corrupt(path, format!("version 1 header: {what}"));
    let used = |n: usize, game: &str| {
        if p[n..].iter().any(|&x| x != 0) {
            Err(damaged(format!(
                "{game} parameters {p:?} use more than {n} numbers"
            )))
        } else {
            Ok(())
        }
    };
    Ok(match number {
        1 => {
            used(3, "candy")?;
            let win = match p[2] {
                0 => "even",
                1 => "odd",
                w => {
                    return Err(damaged(format!(
                        "candy win rule {w} (expected 0 even or 1 odd)"
                    )))
                }
            };
            (
                "candy",
                format!("max-candies={},max-take={},win={win}", p[0], p[1]),
            )
        }
        2 => {
            used(4, "nim")?;
            let mut text = format!("heaps={},max-heap={}", p[0], p[1]);
            if p[2] != 0 {
                text += &format!(",max-take={}", p[2]);
            }
            match p[3] {
                0 => {}
                1 => text += ",misere=true",
                m => return Err(damaged(format!("nim misère flag {m} (expected 0 or 1)"))),
            }
            ("nim", text)
        }
        3 | 4 => {
            used(2, "board")?;
            let game = if number == 3 { "chomp" } else { "slide" };
            (game, format!("rows={},cols={}", p[0], p[1]))
        }
        5 => {
            used(3, "pdb")?;
            let tiles: Vec<String> = (0..64)
                .filter(|t| p[2] >> t & 1 == 1)
                .map(|t| t.to_string())
                .collect();
            (
                "pdb",
                format!("rows={},cols={},pattern={}", p[0], p[1], tiles.join(",")),
            )
        }
        6 => {
            used(1, "wythoff")?;
            ("wythoff", format!("max-heap={}", p[0]))
        }
        7 => {
            used(1, "chomp3")?;
            ("chomp3", format!("max={}", p[0]))
        }
        other => {
            return Err(damaged(format!(
                "unknown game number {other} (version 1 numbered 1 to 7)"
            )))
        }
    })
}
