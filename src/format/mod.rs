//! The table file format, every byte layout of it, in one home: the header (`header.rs`:
//! [`Header`], [`TableMeta`], the identity key), format version 1 read as version 2
//! ([`legacy`]), the codes of value kinds ([`value_kind_code`], [`value_kind`]) and of
//! encodings ([`Encoding::code`]), the payload encodings ([`payload`]: how values become bytes
//! and are read back), the packing of one entry ([`entries`]), and the solved values as a
//! payload lays them out ([`Solved`]); with them, writing tables atomically (`write.rs`,
//! [`upgrade`] included) and opening and checking them (`read.rs`, [`TableFile`]).
//! `tables/README.md` is the specification. Outside this module the solvers produce [`Solved`]
//! values in the layouts it documents (with the packings of [`entries`]), and everything else
//! reads tables through [`TableFile`] and [`payload::Entries`]; the build's checkpoints are the
//! build's own files, not tables, which store a value kind by its code ([`value_kind_code`]).
//!
//! ```text
//! offset size field
//!      0    8 magic            "GAMEDB\r\n"
//!      8    4 format_version   u32 = 2
//!     12    4 value_kind       u32, the code of a value kind (below)
//!     16    4 encoding         u32, the code of an encoding (below)
//!     20    4 rules_version    u32, the version of the game's rules (1 for a game never changed)
//!     24    8 entry_count      u64
//!     32    8 payload_offset   u64 = 4096
//!     40    8 payload_len      u64, the length the encoding gives for entry_count
//!     48    8 payload_xxh3     u64, xxh3-64 (seed 0) of the payload bytes XOR the identity key
//!                              (below)
//!     56   16 crate_version    UTF-8, zero padded
//!     72   64 game             UTF-8, zero padded: the game's name (`nim`, `chomp`, or
//!                              `CRATE/GAME` for a game of another crate)
//!    136  384 parameters       UTF-8, zero padded: canonical `name=value,...` text
//!    520    8 header_xxh3      u64, xxh3-64 of bytes 0..520
//!    528      zero padding up to payload_offset, then the payload
//! ```
//!
//! The value kinds ([`value_kind_code`]; `tests/format_docs.rs` holds these lists, and those
//! of `tables/README.md` and `src/gamedb.h`, to the code's):
//!
//! | code | value kind   | an entry holds                                                 |
//! |-----:|--------------|----------------------------------------------------------------|
//! |    1 | `outcome`    | P or N                                                         |
//! |    2 | `grundy`     | a Sprague–Grundy value                                         |
//! |    3 | `distance`   | the moves to the goal (or that modulo 3)                       |
//! |    4 | `extension`  | which value of a prefix's unbounded number makes it P, if any  |
//! |    5 | `remoteness` | win, lose, tie or draw with the remoteness                     |
//! |    6 | `wlt`        | win, lose or tie-or-draw                                       |
//! |    7 | `dtz`        | win, lose, tie or draw with the distance to zeroing            |
//!
//! The encodings ([`Encoding::code`]; the entries of each in [`payload`]):
//!
//! | code | encoding | an entry is                                                        |
//! |-----:|----------|--------------------------------------------------------------------|
//! |    1 | `bits`   | one bit                                                            |
//! |    2 | `u8`     | one byte                                                           |
//! |    3 | `u16`    | two bytes, little-endian                                           |
//! |    4 | `mod3`   | two bits: a distance modulo 3 ([`entries::mod3`])                  |
//! |    5 | `u24`    | three bytes, little-endian                                         |
//! |    6 | `u2`     | two bits: win, lose or tie-or-draw ([`entries::wlt`])              |
//!
//! The **identity key** is xxh3-64 of `GAME \0 RULES_VERSION \0 PARAMETERS` (the version in
//! decimal; `identity_key`). Folding it into the payload checksum ties the payload to the
//! game it was solved for: a header edited to name another game (with its header checksum
//! recomputed) fails the payload check instead of answering as that game.
//!
//! All integers are little-endian; the header is encoded with bincode 2 in its fixed-width
//! little-endian configuration, which produces exactly this layout.
//!
//! Compatibility: a reader accepts its own `FORMAT_VERSION` and, through [`legacy`], version 1
//! (game numbers and eight numeric parameters, written by gamedb 0.1 to 0.3), whose headers it
//! reads as the version 2 header of the same table (`gamedb upgrade` rewrites them). Any change
//! of layout or meaning bumps the version; a new value kind or encoding takes a new code.
//!
//! The parts: `header.rs` (the codec of the header and its checks), `write.rs` (atomic
//! writing, whole or in pieces), `read.rs` (opening and checking), [`payload`] (the codes and
//! encodings of the values), [`entries`] (the packing of one entry), `solved.rs` ([`Solved`])
//! and [`legacy`] (version 1 headers).

pub mod entries;
pub mod legacy;
pub mod payload;
mod solved;

mod header;
mod read;
mod write;

pub(crate) use header::identity_key;
pub use header::{Header, TableMeta};
pub use payload::{value_kind, value_kind_code, Encoding};
pub(crate) use read::read_header;
pub use read::TableFile;
pub use solved::Solved;
pub(crate) use write::{remove_stale_temporaries, remove_temporaries_of, TableParts};
pub use write::{upgrade, write_table};

use header::{check_sizes, field_text, Sizes};

/// First eight bytes of every table. The CR LF catches files mangled by text-mode transfers.
pub const MAGIC: [u8; 8] = *b"GAMEDB\r\n";
/// The layout version this build writes and reads.
pub const FORMAT_VERSION: u32 = 2;
/// Encoded header size in bytes.
pub const HEADER_LEN: usize = 528;
/// Where the payload starts: one page, so the payload can be mapped aligned.
pub const PAYLOAD_OFFSET: u64 = 4096;
/// Suffix of table files.
pub const EXTENSION: &str = "gtab";

/// The length of a table file whose payload is `payload_len` bytes: the header's page, then
/// the payload.
pub fn file_len(payload_len: u64) -> u64 {
    PAYLOAD_OFFSET.saturating_add(payload_len)
}

/// Bytes of the game name field.
pub const GAME_NAME_LEN: usize = 64;
/// Bytes of the parameter text field.
pub const PARAMETERS_LEN: usize = 384;

#[cfg(test)]
mod tests {
    use std::fs;

    use xxhash_rust::xxh3::xxh3_64;

    use super::header::encode_header;
    use super::*;
    use crate::model::ValueKind;
    use crate::Error;

    fn meta(n: u64) -> TableMeta {
        TableMeta {
            game: "nim".into(),
            rules_version: 1,
            parameters: "heaps=3,max-heap=7".into(),
            value_kind: ValueKind::Outcome,
            encoding: Encoding::Bits,
            entry_count: n,
        }
    }

    #[test]
    fn header_is_528_bytes_at_documented_offsets() {
        let h = encode_header(&meta(10), &[1, 2]);
        let u32_at = |at: usize| u32::from_le_bytes(h[at..at + 4].try_into().unwrap());
        let u64_at = |at: usize| u64::from_le_bytes(h[at..at + 8].try_into().unwrap());
        assert_eq!(h.len(), HEADER_LEN);
        assert_eq!(&h[0..8], b"GAMEDB\r\n");
        assert_eq!(u32_at(8), 2);
        assert_eq!(u32_at(12), 1);
        assert_eq!(u32_at(16), 1);
        assert_eq!(u32_at(20), 1);
        assert_eq!(u64_at(24), 10);
        assert_eq!(u64_at(32), 4096);
        assert_eq!(u64_at(40), 2);
        assert_eq!(
            u64_at(48),
            xxh3_64(&[1, 2]) ^ identity_key("nim", 1, "heaps=3,max-heap=7")
        );
        assert_eq!(&h[56..61], env!("CARGO_PKG_VERSION").as_bytes());
        assert_eq!(&h[72..76], b"nim\0");
        assert_eq!(&h[136..155], b"heaps=3,max-heap=7\0");
        assert!(h[155..520].iter().all(|&b| b == 0));
        assert_eq!(u64_at(520), xxh3_64(&h[..520]));
    }

    #[test]
    fn round_trip_and_damage() {
        let dir = std::env::temp_dir().join(format!("gamedb-format-{}", std::process::id()));
        let path = dir.join("t.gtab");
        write_table(&path, &meta(20), &[0xAB, 0xCD, 0x0F]).unwrap();
        let t = TableFile::open(&path).unwrap();
        assert_eq!(t.payload(), &[0xAB, 0xCD, 0x0F]);
        t.verify().unwrap();
        drop(t);

        // Flip a payload byte: opening still works, verify names the checksum.
        let mut bytes = fs::read(&path).unwrap();
        bytes[4097] ^= 0x10;
        fs::write(&path, &bytes).unwrap();
        let err = TableFile::open(&path)
            .unwrap()
            .verify()
            .unwrap_err()
            .to_string();
        assert!(err.contains("t.gtab") && err.contains("checksum"), "{err}");

        // Truncate: open fails naming the size.
        fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        let err = TableFile::open(&path).err().unwrap().to_string();
        assert!(err.contains("t.gtab") && err.contains("truncated"), "{err}");

        // Wrong version: named as such.
        let mut v3 = bytes.clone();
        v3[8] = 3;
        fs::write(&path, &v3).unwrap();
        let err = TableFile::open(&path).err().unwrap();
        assert!(matches!(err, Error::Version { got: 3, .. }), "{err}");

        // Header byte flipped: header checksum.
        let mut h = bytes.clone();
        h[74] ^= 1;
        fs::write(&path, &h).unwrap();
        let err = TableFile::open(&path).err().unwrap().to_string();
        assert!(err.contains("header checksum"), "{err}");

        // Not a table at all: said so, not called damaged (nor truncated).
        fs::write(&path, b"hello").unwrap();
        let err = TableFile::open(&path).err().unwrap().to_string();
        assert!(err.contains("t.gtab: not a gamedb table"), "{err}");
        assert!(
            !err.contains("damaged") && !err.contains("shorter than"),
            "{err}"
        );
        // The first bytes of a table, cut short: a damaged (truncated) table.
        fs::write(&path, &bytes[..100]).unwrap();
        let err = TableFile::open(&path).err().unwrap().to_string();
        assert!(
            err.contains("damaged table") && err.contains("shorter than"),
            "{err}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
