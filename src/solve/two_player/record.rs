//! What the scan of a tier learns of each position ([`Seen`]) and the flags it keeps, shared by
//! the steps of a tier: the scan fills the records, the settle reads and updates them, and the
//! processes of a spread solve send them to one another as words.

use crate::model::Standing;

/// No such child (a remoteness that is not there).
pub(super) const NONE: u16 = u16::MAX;

/// What the scan learns of one position of the tier.
#[derive(Clone, Copy)]
pub(super) struct Seen {
    /// Moves to positions of the same tier not yet decided (counted down as they become wins).
    pub(super) open: u32,
    /// The nearest lose among the children of lower tiers.
    pub(super) lose: u16,
    /// The farthest win among them (0 when none).
    pub(super) win: u16,
    /// The nearest tie among them.
    pub(super) tie: u16,
    /// [`LEGAL`], [`ALL_WIN`] (every lower child a win, or none), [`QUEUED`].
    pub(super) flags: u8,
    /// The value where the game is over.
    pub(super) over: Option<Standing>,
}

pub(super) const LEGAL: u8 = 1;

pub(super) const ALL_WIN: u8 = 2;

/// Pushed to a bucket by the settle from inside the tier: a later push would come at the same
/// remoteness or a greater one, and change nothing, so it is not made (each position then
/// waits in two buckets at the most, which bounds the buckets' memory).
pub(super) const QUEUED: u8 = 4;

impl Seen {
    pub(super) const ILLEGAL: Seen = Seen {
        open: 0,
        lose: NONE,
        win: 0,
        tie: NONE,
        flags: 0,
        over: None,
    };
}

/// Positions scanned per task.
pub(super) const CHUNK: usize = 1 << 12;

/// A move inside a tier, as the scan keeps it: the child's local index in the high half, the
/// parent's in the low half (one word, which the processes of a spread solve exchange as is).
pub(super) fn edge(child: u32, parent: u32) -> u64 {
    (child as u64) << 32 | parent as u64
}
