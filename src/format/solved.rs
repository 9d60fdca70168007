//! The values a solver produced for every position ([`Solved`]), laid out as the payload of a
//! table keeps them.

#[cfg(doc)]
use super::entries::{standing, wlt, UNREACHED};
use crate::model::ValueKind;

/// The values a solver produced for every position of a game, in index order: what
/// `crate::game::Engine::solve` returns and the format module encodes into a
/// table's payload. Non-exhaustive: it grows with [`ValueKind`].
#[derive(Debug)]
#[non_exhaustive]
pub enum Solved {
    /// P/N bits, 1 = N: position `i` is bit `i % 8` of byte `i / 8`.
    Outcomes {
        /// `len.div_ceil(8)` bytes.
        bits: Vec<u8>,
        /// Number of positions.
        len: u64,
    },
    /// Sprague–Grundy values.
    Grundy(Vec<u16>),
    /// Sprague–Grundy values that all fit in a byte, one byte each (stored as they are: a
    /// solver that keeps bytes hands them over without a copy).
    GrundyBytes(Vec<u8>),
    /// Distances to the goal, [`UNREACHED`] where the goal cannot be reached.
    Distances(Vec<u8>),
    /// Extension values ([`ValueKind::Extension`]), one u16 per prefix, little-endian:
    /// entry `i` is bytes `2i, 2i + 1`; or, when `wide`, three bytes `3i..3i + 3` (built as
    /// bytes, so the payload is the solver's storage and no copy is made).
    Extensions {
        /// `2 * len` bytes, or `3 * len` when `wide`.
        bytes: Vec<u8>,
        /// Number of entries.
        len: u64,
        /// Three bytes per entry instead of two.
        wide: bool,
    },
    /// Values and remoteness of a two-player game, one [`standing`] entry per position.
    Standings(Vec<u16>),
    /// Values and distances to a counter's reset of a two-player game ([`ValueKind::Dtz`]),
    /// one [`standing`] entry per position.
    Dtz(Vec<u16>),
    /// Win, lose or tie-or-draw of a two-player game, the [`wlt`] codes four a byte (entry `i`
    /// in bits `2(i % 4)`, `2(i % 4) + 1` of byte `i / 4`; see [`wlt::pack`]).
    Wlt {
        /// `len.div_ceil(4)` bytes.
        bytes: Vec<u8>,
        /// Number of positions.
        len: u64,
    },
}

impl Solved {
    /// What the values mean.
    pub fn kind(&self) -> ValueKind {
        match self {
            Solved::Outcomes { .. } => ValueKind::Outcome,
            Solved::Grundy(_) | Solved::GrundyBytes(_) => ValueKind::Grundy,
            Solved::Distances(_) => ValueKind::Distance,
            Solved::Extensions { .. } => ValueKind::Extension,
            Solved::Standings(_) => ValueKind::Remoteness,
            Solved::Dtz(_) => ValueKind::Dtz,
            Solved::Wlt { .. } => ValueKind::Wlt,
        }
    }

    /// Number of positions.
    pub fn len(&self) -> u64 {
        match self {
            Solved::Outcomes { len, .. } | Solved::Wlt { len, .. } => *len,
            Solved::Grundy(v) => v.len() as u64,
            Solved::GrundyBytes(v) => v.len() as u64,
            Solved::Distances(v) => v.len() as u64,
            Solved::Extensions { len, .. } => *len,
            Solved::Standings(v) | Solved::Dtz(v) => v.len() as u64,
        }
    }

    /// True when there are no positions.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of entry `i` as a table stores it: 0 (P) or 1 (N) for outcomes, the Grundy
    /// value, the distance byte, the extension entry. Panics when `i >= len()`.
    pub fn value(&self, i: u64) -> u32 {
        assert!(i < self.len(), "entry {i} of {}", self.len());
        let i = i as usize;
        match self {
            Solved::Outcomes { bits, .. } => ((bits[i / 8] >> (i % 8)) & 1) as u32,
            Solved::Wlt { bytes, .. } => ((bytes[i / 4] >> (2 * (i % 4))) & 3) as u32,
            Solved::Grundy(v) | Solved::Standings(v) | Solved::Dtz(v) => v[i] as u32,
            Solved::GrundyBytes(v) => v[i] as u32,
            Solved::Distances(v) => v[i] as u32,
            Solved::Extensions { bytes, wide, .. } => {
                if *wide {
                    u32::from_le_bytes([bytes[3 * i], bytes[3 * i + 1], bytes[3 * i + 2], 0])
                } else {
                    u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]) as u32
                }
            }
        }
    }

    /// Sets entry `i` to `value` (truncated to the entry's width): for tests that break a
    /// solved table on purpose. Panics when `i >= len()`.
    pub fn set_value(&mut self, i: u64, value: u32) {
        assert!(i < self.len(), "entry {i} of {}", self.len());
        let i = i as usize;
        match self {
            Solved::Outcomes { bits, .. } => {
                bits[i / 8] = (bits[i / 8] & !(1 << (i % 8))) | (((value & 1) as u8) << (i % 8))
            }
            Solved::Wlt { bytes, .. } => {
                let shift = 2 * (i % 4);
                bytes[i / 4] = (bytes[i / 4] & !(3 << shift)) | (((value & 3) as u8) << shift)
            }
            Solved::Grundy(v) | Solved::Standings(v) | Solved::Dtz(v) => v[i] = value as u16,
            Solved::GrundyBytes(v) => v[i] = value as u8,
            Solved::Distances(v) => v[i] = value as u8,
            Solved::Extensions { bytes, wide, .. } => {
                let w = if *wide { 3 } else { 2 };
                bytes[w * i..w * i + w].copy_from_slice(&value.to_le_bytes()[..w]);
            }
        }
    }
}
