//! How one entry of a payload packs a value: the distance byte's "never reached"
//! ([`UNREACHED`]), distances modulo 3 in two bits ([`mod3`]), a two-player value with its
//! remoteness in one or two bytes ([`standing`]) and in two bits ([`wlt`]). The solvers write
//! their values in these packings, so a solved table becomes its payload without a conversion.

/// A distance entry that was never reached (no path to the goal). Distances are one byte
/// each, so the largest distance a table holds is 254. The format module stores it as is.
pub const UNREACHED: u8 = u8::MAX;

/// Distances kept modulo 3 in two bits, for puzzles too large for a byte per position (the
/// breadth-first engine of `crate::solve::bfs::partitioned` stores them; the format module packs them
/// four a byte, see `format::payload`).
///
/// A code is 0 for a position not reached, `1 + d mod 3` for a position at distance `d`. On a
/// puzzle whose moves change the distance by exactly one (a bipartite graph), the neighbours
/// one step closer to the goal are exactly those whose code is [`mod3::closer`]: lookups
/// recover the exact distance and every optimal move by descending to the goal.
pub mod mod3 {
    /// The code of a position not reached (zeroed memory is "nothing reached").
    pub const UNREACHED: u8 = 0;

    /// The code of a position at distance `d`.
    #[inline]
    pub fn code(d: u32) -> u8 {
        (d % 3) as u8 + 1
    }

    /// The code of a neighbour one step closer to the goal than a position holding `code`
    /// (1 → 3, 2 → 1, 3 → 2).
    #[inline]
    pub fn closer(code: u8) -> u8 {
        (code + 1) % 3 + 1
    }
}

/// How a [`ValueKind::Remoteness`](crate::model::ValueKind::Remoteness) entry packs a position's
/// value, in one byte or two (`crate::format::payload` stores them as they are):
/// * bits 0–2, the code: 0 for an index that is no legal position (zeroed memory is "no
///   position"), 1 lose, 2 win, 3 tie, 4 draw;
/// * bit 3: the position is reachable from the game's start;
/// * bits 4 and up: the remoteness (0 for a draw): at most 15 in a byte table, 4095 in two.
pub mod standing {
    use crate::model::Standing;

    /// The entry of an index that is no legal position.
    pub const ILLEGAL: u16 = 0;
    /// The bit of a position reachable from the start.
    pub const REACHABLE: u16 = 1 << 3;
    /// The largest remoteness an entry holds.
    pub const MAX_REMOTENESS: u32 = (u16::MAX >> 4) as u32;
    /// The largest remoteness a one-byte entry holds.
    pub const MAX_BYTE_REMOTENESS: u32 = 15;

    /// The entry of a legal position (not yet marked reachable).
    #[inline]
    pub fn pack(value: Standing, remoteness: u32) -> u16 {
        let code = match value {
            Standing::Lose => 1,
            Standing::Win => 2,
            Standing::Tie => 3,
            Standing::Draw => 4,
        };
        ((remoteness.min(MAX_REMOTENESS) as u16) << 4) | code
    }

    /// The value and remoteness of an entry; `None` for no legal position (or a code no
    /// table writes).
    #[inline]
    pub fn unpack(entry: u32) -> Option<(Standing, u32)> {
        let value = match entry & 7 {
            1 => Standing::Lose,
            2 => Standing::Win,
            3 => Standing::Tie,
            4 => Standing::Draw,
            _ => return None,
        };
        Some((value, entry >> 4))
    }

    /// Whether an entry is marked reachable from the start.
    #[inline]
    pub fn reachable(entry: u32) -> bool {
        entry & REACHABLE as u32 != 0
    }
}

/// How a [`ValueKind::Wlt`](crate::model::ValueKind::Wlt) entry codes a position's value in two
/// bits (`crate::format::payload` packs them four a byte): 0 for an index that is no legal
/// position, 1 lose, 2 win, 3 tie or draw. Codes 1 and 2 are those of [`standing`]: a standing
/// entry's code `c` becomes `min(c, 3)`.
pub mod wlt {
    use super::standing;
    use crate::model::Wlt;

    /// The code of an index that is no legal position.
    pub const ILLEGAL: u8 = 0;

    /// The code of a value.
    #[inline]
    pub fn code(value: Wlt) -> u8 {
        match value {
            Wlt::Lose => 1,
            Wlt::Win => 2,
            Wlt::TieOrDraw => 3,
        }
    }

    /// The value of a code; `None` for no legal position.
    #[inline]
    pub fn value(code: u32) -> Option<Wlt> {
        match code {
            1 => Some(Wlt::Lose),
            2 => Some(Wlt::Win),
            3 => Some(Wlt::TieOrDraw),
            _ => None,
        }
    }

    /// The code of a [`standing`] entry (no legal position stays 0).
    #[inline]
    pub fn of_standing(entry: u16) -> u8 {
        standing::unpack(entry as u32).map_or(ILLEGAL, |(v, _)| code(v.into()))
    }

    /// The codes of `entries` ([`standing`] entries, in index order), four a byte: entry `i`
    /// in bits `2(i % 4)`, `2(i % 4) + 1` of byte `i / 4`; the unused codes of the last byte
    /// are 0. Parallel, the same bytes at any thread count.
    pub fn pack(entries: &[u16]) -> Vec<u8> {
        let mut out = vec![0; entries.len().div_ceil(4)];
        pack_into(entries, &mut out);
        out
    }

    /// [`pack`] into `out`, which holds `entries.len().div_ceil(4)` bytes.
    pub fn pack_into(entries: &[u16], out: &mut [u8]) {
        use rayon::prelude::*;
        debug_assert_eq!(out.len(), entries.len().div_ceil(4));
        out.par_iter_mut()
            .zip(entries.par_chunks(4))
            .for_each(|(byte, four)| {
                *byte = four
                    .iter()
                    .enumerate()
                    .fold(0u8, |b, (k, &e)| b | of_standing(e) << (2 * k))
            });
    }
}
