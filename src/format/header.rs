//! The header codec: the on-disk header ([`RawHeader`], bincode 2 in its fixed-width
//! little-endian configuration, which gives exactly the documented layout), the validated
//! [`Header`] a reader gets, what a writer supplies ([`TableMeta`]), and the checks of every
//! field against the others and the file's length.

use std::path::Path;

use bincode::{Decode, Encode};
use xxhash_rust::xxh3::xxh3_64;

use super::{
    legacy, payload, Encoding, FORMAT_VERSION, GAME_NAME_LEN, HEADER_LEN, MAGIC, PARAMETERS_LEN,
    PAYLOAD_OFFSET,
};
use crate::model::ValueKind;
use crate::{Error, Result};

/// The header as bincode sees it: exactly the on-disk fields, in order.
#[derive(Encode, Decode)]
struct RawHeader {
    magic: [u8; 8],
    format_version: u32,
    value_kind: u32,
    encoding: u32,
    rules_version: u32,
    entry_count: u64,
    payload_offset: u64,
    payload_len: u64,
    payload_xxh3: u64,
    crate_version: [u8; 16],
    game: [u8; GAME_NAME_LEN],
    parameters: [u8; PARAMETERS_LEN],
    header_xxh3: u64,
}

fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_little_endian()
}

/// A validated header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The format version the file was written in (1 for a [`legacy`] table).
    pub format_version: u32,
    /// The game's name (see the module docs).
    pub game: String,
    /// The version of the game's rules the table was solved under.
    pub rules_version: u32,
    /// The game's parameters as canonical text.
    pub parameters: String,
    /// Meaning of the values.
    pub value_kind: ValueKind,
    /// Storage of the values.
    pub encoding: Encoding,
    /// Number of entries (positions).
    pub entry_count: u64,
    /// Byte offset of the payload.
    pub payload_offset: u64,
    /// Payload length in bytes.
    pub payload_len: u64,
    /// xxh3-64 of the payload.
    pub payload_xxh3: u64,
    /// Version of the gamedb that wrote the file.
    pub crate_version: String,
}

/// What a writer supplies; the rest of the header is derived from the payload.
#[derive(Clone, Debug)]
pub struct TableMeta {
    /// The game's name.
    pub game: String,
    /// The version of its rules.
    pub rules_version: u32,
    /// Its parameters as canonical text.
    pub parameters: String,
    /// Meaning of the values.
    pub value_kind: ValueKind,
    /// Storage of the values.
    pub encoding: Encoding,
    /// Number of entries.
    pub entry_count: u64,
}

pub(super) fn encode_header(meta: &TableMeta, payload: &[u8]) -> Vec<u8> {
    header_for(meta, payload.len() as u64, xxh3_64(payload))
}

/// The header bytes of a table whose payload is `payload_len` bytes hashing to `payload_xxh3`.
pub(super) fn header_for(meta: &TableMeta, payload_len: u64, payload_xxh3: u64) -> Vec<u8> {
    let payload_xxh3 =
        payload_xxh3 ^ identity_key(&meta.game, meta.rules_version, &meta.parameters);
    let mut raw = RawHeader {
        magic: MAGIC,
        format_version: FORMAT_VERSION,
        value_kind: payload::value_kind_code(meta.value_kind),
        encoding: meta.encoding.code(),
        rules_version: meta.rules_version,
        entry_count: meta.entry_count,
        payload_offset: PAYLOAD_OFFSET,
        payload_len,
        payload_xxh3,
        crate_version: padded(env!("CARGO_PKG_VERSION")),
        game: padded(&meta.game),
        parameters: padded(&meta.parameters),
        header_xxh3: 0,
    };
    let first = bincode::encode_to_vec(&raw, bincode_config()).expect("header encodes");
    raw.header_xxh3 = xxh3_64(&first[..HEADER_LEN - 8]);
    let bytes = bincode::encode_to_vec(&raw, bincode_config()).expect("header encodes");
    debug_assert_eq!(bytes.len(), HEADER_LEN);
    bytes
}

/// The identity key of a table of game `game` (its name), `rules_version` and `parameters`
/// text (see the module docs); also what checkpoints are keyed by.
pub(crate) fn identity_key(game: &str, rules_version: u32, parameters: &str) -> u64 {
    xxh3_64(format!("{game}\0{rules_version}\0{parameters}").as_bytes())
}

/// `text` in a zero-padded field of `N` bytes. The registry keeps game names within their
/// field (`MAX_NAME_LEN`); a longer text would be a bug, caught by the reader's check of the
/// field.
fn padded<const N: usize>(text: &str) -> [u8; N] {
    let mut field = [0u8; N];
    let n = text.len().min(N);
    field[..n].copy_from_slice(&text.as_bytes()[..n]);
    field
}

/// The text of a zero-padded field of the header of the table at `path` (printable ASCII
/// without spaces, then zeros only), or the damage ([`Error::Corrupt`]).
pub(super) fn field_text(path: &Path, field: &[u8], what: &str) -> Result<String> {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    let (text, rest) = field.split_at(end);
    if rest.iter().any(|&b| b != 0) || text.iter().any(|&b| !(0x21..0x7f).contains(&b)) {
        return Err(Error::corrupt(
            path,
            format!("the {what} field is not zero-padded printable text"),
        ));
    }
    Ok(String::from_utf8(text.to_vec()).expect("ASCII"))
}

/// Refuses a file that does not begin as every table does (a text file, an empty file, a file
/// of another program) as "not a gamedb table", naming what it lacks and how it begins; `head`
/// is the file's first bytes (at least 8 when it has them), `file_len` its length. A file
/// that begins as a table but ends too soon passes: it is a damaged (truncated) table.
pub(super) fn check_magic(path: &Path, head: &[u8], file_len: u64) -> Result<()> {
    let head = &head[..head.len().min(MAGIC.len())];
    if file_len == 0 {
        return Err(Error::not_a_table(
            path,
            format!(
                "the file is empty (a table begins with the bytes \"GAMEDB\\r\\n\" and a \
                 {HEADER_LEN}-byte header; `gamedb build` writes tables)"
            ),
        ));
    }
    if MAGIC.starts_with(head) {
        return Ok(());
    }
    // Text, when the bytes are (a character cut at the eighth byte left out).
    let text = match std::str::from_utf8(head) {
        Ok(t) => Some(t),
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&head[..e.valid_up_to()]).ok(),
        Err(_) => None,
    }
    .filter(|t| !t.is_empty() && t.chars().all(|c| !c.is_control() || "\t\r\n".contains(c)));
    // `…` when the file goes on after the bytes shown.
    let more = if file_len > head.len() as u64 {
        "…"
    } else {
        ""
    };
    let begins = match text {
        Some(t) => format!("it begins with the text \"{}{more}\"", t.escape_debug()),
        None => {
            let hex: Vec<String> = head.iter().map(|b| format!("{b:02x}")).collect();
            format!("it begins with the bytes {}{more}", hex.join(" "))
        }
    };
    Err(Error::not_a_table(
        path,
        format!(
            "it lacks the bytes \"GAMEDB\\r\\n\" that begin every table file ({begins}); \
             expected a table file written by `gamedb build` (`gamedb list DIR` names the tables \
             of a folder)"
        ),
    ))
}

pub(super) fn parse_header(path: &Path, bytes: &[u8]) -> Result<Header> {
    parse_header_bytes(path, bytes, bytes.len() as u64)
}

pub(super) fn parse_header_bytes(path: &Path, bytes: &[u8], file_len: u64) -> Result<Header> {
    check_magic(path, bytes, file_len)?;
    if bytes.len() < 12 {
        return Err(Error::corrupt(path, "truncated header"));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version == legacy::FORMAT_VERSION {
        return legacy::parse_header(path, bytes, file_len);
    }
    if version != FORMAT_VERSION {
        return Err(Error::Version {
            path: path.to_path_buf(),
            expected: FORMAT_VERSION,
            got: version,
        });
    }
    if bytes.len() < HEADER_LEN {
        return Err(Error::corrupt(
            path,
            format!(
                "file is {file_len} bytes, shorter than the {HEADER_LEN}-byte header (truncated?)"
            ),
        ));
    }
    let (raw, used): (RawHeader, usize) =
        bincode::decode_from_slice(&bytes[..HEADER_LEN], bincode_config())
            .map_err(|e| Error::corrupt(path, format!("unreadable header: {e}")))?;
    debug_assert_eq!(used, HEADER_LEN);
    let hsum = xxh3_64(&bytes[..HEADER_LEN - 8]);
    if hsum != raw.header_xxh3 {
        return Err(Error::corrupt(
            path,
            format!(
                "header checksum mismatch: stored {:016x}, header hashes to {hsum:016x}",
                raw.header_xxh3
            ),
        ));
    }
    let text = |field: &[u8], what| field_text(path, field, what);
    let game = text(&raw.game, "game")?;
    if game.is_empty() {
        return Err(Error::corrupt(path, "the game field is empty"));
    }
    let parameters = text(&raw.parameters, "parameters")?;
    let key = identity_key(&game, raw.rules_version, &parameters);
    check_sizes(
        path,
        Sizes {
            value_kind: raw.value_kind,
            encoding: raw.encoding,
            entry_count: raw.entry_count,
            payload_offset: raw.payload_offset,
            payload_len: raw.payload_len,
        },
        file_len,
    )
    .map(|(value_kind, encoding)| Header {
        format_version: FORMAT_VERSION,
        game,
        rules_version: raw.rules_version,
        parameters,
        value_kind,
        encoding,
        entry_count: raw.entry_count,
        payload_offset: raw.payload_offset,
        payload_len: raw.payload_len,
        // The payload's own checksum (see the module docs).
        payload_xxh3: raw.payload_xxh3 ^ key,
        crate_version: field_text(path, &raw.crate_version, "crate version")
            .unwrap_or_else(|_| "?".into()),
    })
}

/// The fields of a header that say how large the payload is, as stored (every version).
pub(super) struct Sizes {
    pub(super) value_kind: u32,
    pub(super) encoding: u32,
    pub(super) entry_count: u64,
    pub(super) payload_offset: u64,
    pub(super) payload_len: u64,
}

/// Checks the value kind, the encoding and the sizes a header states against each other and
/// against the file's length.
pub(super) fn check_sizes(path: &Path, raw: Sizes, file_len: u64) -> Result<(ValueKind, Encoding)> {
    let value_kind = payload::value_kind(raw.value_kind)
        .ok_or_else(|| Error::corrupt(path, format!("unknown value kind {}", raw.value_kind)))?;
    let encoding = Encoding::from_code(raw.encoding)
        .ok_or_else(|| Error::corrupt(path, format!("unknown encoding {}", raw.encoding)))?;
    if raw.payload_offset != PAYLOAD_OFFSET {
        return Err(Error::corrupt(
            path,
            format!(
                "payload offset {} (expected {PAYLOAD_OFFSET})",
                raw.payload_offset
            ),
        ));
    }
    if encoding.payload_len(raw.entry_count) != Some(raw.payload_len) {
        return Err(Error::corrupt(
            path,
            format!(
                "payload length {} does not fit {} entries encoded as {}",
                raw.payload_len,
                raw.entry_count,
                encoding.name()
            ),
        ));
    }
    let expected_len = raw.payload_offset.checked_add(raw.payload_len);
    if expected_len != Some(file_len) {
        return Err(Error::corrupt(
            path,
            format!(
                "file is {file_len} bytes but the header says {} (truncated or extended)",
                raw.payload_offset.saturating_add(raw.payload_len)
            ),
        ));
    }
    Ok((value_kind, encoding))
}
