//! How a solve of tiers saves the tiers solved so far and resumes from them: the values as
//! little-endian bytes, and the checks that a saved prefix fits the game's tiers.

use crate::model::Tiered;
use crate::solve::saves::Wave;
use crate::Error;

/// A checkpoint of `len` bytes that does not fit the game's tiers, at `at`.
pub(super) fn unfit(len: usize, at: &Wave) -> Error {
    Error::bad(format!(
        "the checkpoint holds {len} bytes, {} positions and {} tiers solved, which do not fit \
         this game's tiers; it cannot be resumed (remove it to start afresh)",
        at.done, at.next
    ))
}

/// Where the tiers before `first_tier` end.
pub(super) fn solved_up_to<G: Tiered>(game: &G, first_tier: u64) -> u64 {
    if first_tier == 0 {
        0
    } else {
        game.tier(first_tier - 1).end
    }
}

/// The values saved as little-endian bytes ([`le_bytes`]).
pub(super) fn from_le(bytes: &[u8]) -> impl Iterator<Item = u16> + '_ {
    bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
}

/// The values as little-endian bytes: the values themselves on a little-endian machine (a save
/// that is not due then costs nothing), a copy elsewhere.
pub(super) fn le_bytes(values: &[u16]) -> std::borrow::Cow<'_, [u8]> {
    if cfg!(target_endian = "little") {
        // SAFETY: u8 has no alignment and every byte pattern is valid; the length is the
        // slice's size in bytes, and the borrow keeps `values` alive and unchanged.
        std::borrow::Cow::Borrowed(unsafe {
            std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values))
        })
    } else {
        std::borrow::Cow::Owned(values.iter().flat_map(|v| v.to_le_bytes()).collect())
    }
}
