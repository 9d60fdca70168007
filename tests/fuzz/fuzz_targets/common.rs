//! What the fuzz targets share: a game and small parameters chosen by the input, through the
//! registry (so a new game is fuzzed without touching this file).
#![allow(dead_code)]

use gamedb::games::{Spec, GAMES};

/// A spec chosen by the first bytes of `data` (six bytes, fewer allowed): a registered game and
/// small parameters read back through `Spec::from_header`, or one of the registry's samples
/// when those parameters are not valid. Returns the spec and the rest of the input.
pub fn pick_spec(data: &[u8]) -> (Spec, &[u8]) {
    let mut b = [0u8; 6];
    let n = data.len().min(6);
    b[..n].copy_from_slice(&data[..n]);
    let rest = &data[n..];
    let (id, _) = GAMES[b[0] as usize % GAMES.len()];
    // Small parameters keep the rules cheap to build; the pattern mask may use 16 bits.
    let mut params = [0u64; 8];
    params[0] = (b[1] % 40) as u64;
    params[1] = (b[2] % 24) as u64;
    params[2] = if b[5] & 2 != 0 {
        u16::from_le_bytes([b[3], b[4]]) as u64
    } else {
        (b[3] % 8) as u64
    };
    params[3] = (b[5] & 1) as u64;
    let spec = Spec::from_header(id, params).unwrap_or_else(|_| {
        let samples = Spec::samples();
        samples[(b[1] as usize ^ b[2] as usize) % samples.len()].clone()
    });
    (spec, rest)
}
