//! Retrograde analysis of two-player games with ties and draws ([`Tiered`]): every legal
//! position gets win, lose, tie or draw for the player to move, with its remoteness.
//!
//! Tiers are solved lowest first, so every move out of a tier finds its child final. Inside a
//! tier moves may form cycles: the tier's positions count their undecided children, and the
//! results are pushed from children to parents in order of remoteness (the parents inside the
//! tier come from the tier's own forward moves, gathered once: the game need not list
//! un-moves). Per tier:
//! 1. a parallel scan lists each position's moves: children in lower tiers are final and
//!    summed up (the nearest lose, the farthest win, the nearest tie, whether every one is a
//!    win), children inside the tier are counted and their edges kept;
//! 2. win and lose by buckets of remoteness: a position is a win in `r + 1` when a child is a
//!    lose in `r` (the first found is the nearest, buckets being taken in order), a lose when
//!    its last undecided child became a win, in one more than the farthest win;
//! 3. ties the same way from the tied ends, among the positions still undecided;
//! 4. what is left can never be forced to an end: a draw.
//!
//! A game that folds symmetric positions ([`Tiered::symmetries`]) is solved on one position of
//! each class, its children given as representatives too: the quotient game has the same values
//! and remoteness, and a last pass copies each class's entry to its other members.
//!
//! The values are a function of the game alone (the pushes of one bucket may come in any
//! order), so tables are the same bytes at any thread count. A last sweep marks the positions
//! reachable from the start ([`standing::REACHABLE`]).
//!
//! The tiers solved so far are a prefix of the values, so a long solve hands that prefix to
//! its [`Saves`] after every tier (as bytes, two a position) and resumes from it.

use std::ops::Range;

use rayon::prelude::*;

pub(crate) use super::reachable::{fill_images, mark_reachable};
use super::saves::{Saves, Wave};
pub(crate) use super::settle::{settle_tier, EdgeParents};
use crate::game::model::{after_reset, standing, wlt, Solved, Standing, Tiered, ValueKind, Visit};
use crate::progress::Progress;
use crate::{Error, Result};

/// No such child (a remoteness that is not there).
pub(crate) const NONE: u16 = u16::MAX;

/// What the scan learns of one position of the tier.
#[derive(Clone, Copy)]
pub(crate) struct Seen {
    /// Moves to positions of the same tier not yet decided (counted down as they become wins).
    pub(crate) open: u32,
    /// The nearest lose among the children of lower tiers.
    pub(crate) lose: u16,
    /// The farthest win among them (0 when none).
    pub(crate) win: u16,
    /// The nearest tie among them.
    pub(crate) tie: u16,
    /// [`LEGAL`], [`ALL_WIN`] (every lower child a win, or none), [`QUEUED`].
    pub(crate) flags: u8,
    /// The value where the game is over.
    pub(crate) over: Option<Standing>,
}

pub(crate) const LEGAL: u8 = 1;
pub(crate) const ALL_WIN: u8 = 2;
/// Pushed to a bucket by the settle from inside the tier: a later push would come at the same
/// remoteness or a greater one, and change nothing, so it is not made (each position then
/// waits in two buckets at the most, which bounds the buckets' memory).
pub(crate) const QUEUED: u8 = 4;

impl Seen {
    pub(crate) const ILLEGAL: Seen = Seen {
        open: 0,
        lose: NONE,
        win: 0,
        tie: NONE,
        flags: 0,
        over: None,
    };
}

/// Positions scanned per task.
pub(crate) const CHUNK: usize = 1 << 12;

/// A move inside a tier, as the scan keeps it: the child's local index in the high half, the
/// parent's in the low half (one word, which the processes of a spread solve exchange as is).
pub(crate) fn edge(child: u32, parent: u32) -> u64 {
    (child as u64) << 32 | parent as u64
}

/// Memory [`solve_standings`] needs at its peak: two bytes a position for the values, a bit for
/// the reachable ones (and one for the solved ones of a game that folds), and for the tier that
/// needs most what the scan keeps of each position, with, where the tier's moves are kept as
/// edges, eight bytes of offsets into its parents and twelve bytes for each move that stays
/// inside it (the edge, then the parent; none when no move does) — of its representatives only
/// when the game folds symmetric positions, counted as twice the tier over the symmetries
/// (classes that are their own image hold fewer); where the game lists the tier's un-moves
/// instead, eight bytes a solved position for the buckets of remoteness, where each waits
/// twice at the most.
pub fn standings_memory<G: Tiered>(game: &G) -> u64 {
    let n = game.positions();
    let folds = game.symmetries().max(1);
    n.saturating_mul(2)
        .saturating_add(if folds > 1 {
            2 * (n / 8 + 8)
        } else {
            n / 8 + 8
        })
        .saturating_add(tier_memory(game))
        .saturating_add(super::spread::standing::extra_memory(game))
}

/// The scratch of the largest tier's solve (see [`standings_memory`]).
fn tier_memory<G: Tiered>(game: &G) -> u64 {
    let folds = game.symmetries().max(1);
    let tier_need = |len: u64, listed: bool| {
        let scan = len.saturating_mul(std::mem::size_of::<Seen>() as u64);
        let solved = if folds > 1 {
            len.min(len / folds * 2 + 1024)
        } else {
            len
        };
        if listed {
            // Each solved position waits in two buckets at the most (see `QUEUED`), 4 bytes
            // in each.
            return scan.saturating_add(solved.saturating_mul(8));
        }
        let edges = if game.in_tier_moves() {
            solved.saturating_mul(game.moves_bound()).saturating_mul(12)
        } else {
            0
        };
        scan.saturating_add(len.saturating_mul(8))
            .saturating_add(edges)
    };
    // A game of very many tiers (Connect Four on a long board) keeps every move's edge and
    // says its largest tier without a walk; a game of fewer tiers (a chess ending of five men
    // has one for each placement of its pawns, tens of thousands) is asked tier by tier.
    let tiers = game.tier_count();
    if tiers <= 1 << 16 {
        (0..tiers)
            .map(|t| {
                let r = game.tier(t);
                tier_need(r.end - r.start, game.lists_tier_parents(t))
            })
            .max()
            .unwrap_or(0)
    } else {
        tier_need(game.largest_tier(), false)
    }
}

/// Every position's [`standing`] entry, in index order.
pub fn solve_standings<G: Tiered>(game: &G, progress: &dyn Progress) -> Result<Vec<u16>> {
    solve_standings_saving(game, progress, &())
}

/// The [`Solved`] table of a [`Tiered`] game for `kind`: [`ValueKind::Remoteness`], or
/// [`ValueKind::Wlt`], solved by the same engine and packed to two bits a position
/// ([`wlt::pack`]) as soon as no move can reach them ([`Tiered::lowest_reached`]): what a
/// two-player game's view and its spec's saving solve both call.
pub fn solve_tiered<G: Tiered>(
    game: &G,
    kind: ValueKind,
    progress: &dyn Progress,
    saves: &dyn Saves,
) -> Result<Solved> {
    if !kind.is_two_player() {
        return Err(Error::internal(format!(
            "a two-player game has win/lose/tie/draw values, not {} values",
            kind.name()
        )));
    }
    // Under several processes (`mpirun gamedb build`), every process solves each tier
    // together with the others, and saves nothing.
    let zeroing = kind == ValueKind::Dtz;
    let spread = super::spread::standing::solve_spread(game, zeroing, progress);
    let standings = |v| {
        if zeroing {
            Solved::Dtz(v)
        } else {
            Solved::Standings(v)
        }
    };
    match (kind, spread) {
        (ValueKind::Wlt, Some(values)) => {
            let values = values?;
            Ok(Solved::Wlt {
                bytes: wlt::pack(&values),
                len: values.len() as u64,
            })
        }
        (ValueKind::Wlt, None) => Ok(Solved::Wlt {
            bytes: super::two_bits::solve_wlt_saving(game, progress, saves)?,
            len: game.positions(),
        }),
        (_, Some(values)) => Ok(standings(values?)),
        (_, None) => Ok(standings(solve_counted(game, zeroing, progress, saves)?)),
    }
}

/// Memory a solve of `kind` values needs ([`solve_tiered`]): two bytes a position for
/// remoteness, the bits of a last sweep over the table, and a tier's scratch; for two-bit
/// values, two bits a position and two bytes for each position a move may still reach
/// ([`Tiered::widest_reach`]).
pub fn tiered_memory<G: Tiered>(game: &G, kind: ValueKind) -> u64 {
    let n = game.positions();
    let spread = super::spread::standing::extra_memory(game);
    if kind != ValueKind::Wlt || spread > 0 {
        let packed = if kind == ValueKind::Wlt {
            n.div_ceil(4)
        } else {
            0
        };
        return standings_memory(game).saturating_add(packed);
    }
    let (kept, sweep) = if game.symmetries() > 1 {
        (n, n / 8 + 8)
    } else {
        (game.widest_reach().min(n).saturating_add(4), 0)
    };
    kept.saturating_mul(2)
        .saturating_add(n.div_ceil(4))
        .saturating_add(sweep)
        .saturating_add(tier_memory(game))
}

/// Bytes a solve of `kind` values hands to its saves at the most: two a position, or for
/// two-bit values the two bits of those packed and two bytes of those still read.
pub fn tiered_saved_bytes<G: Tiered>(game: &G, kind: ValueKind) -> u64 {
    let n = game.positions();
    match kind {
        ValueKind::Wlt => super::two_bits::wlt_saved_bytes(game),
        _ => n.saturating_mul(2),
    }
}

/// [`solve_standings`], handing the values of the tiers solved so far to `saves` after every
/// tier, and resuming from what it saved.
pub fn solve_standings_saving<G: Tiered>(
    game: &G,
    progress: &dyn Progress,
    saves: &dyn Saves,
) -> Result<Vec<u16>> {
    solve_counted(game, false, progress, saves)
}

/// [`solve_standings_saving`], or with `zeroing` the distances to the reset of a counter that
/// every move out of a tier resets ([`ValueKind::Dtz`]).
fn solve_counted<G: Tiered>(
    game: &G,
    zeroing: bool,
    progress: &dyn Progress,
    saves: &dyn Saves,
) -> Result<Vec<u16>> {
    let n = usize::try_from(game.positions())
        .map_err(|_| Error::unsupported("too many positions for a table of values"))?;
    let tiers = game.tier_count();
    let name = format!(
        "retrograde {} of {n} positions in {tiers} tiers (two bytes a position)",
        if zeroing {
            "distances to zeroing"
        } else {
            "values"
        }
    );
    let mut out = vec![standing::ILLEGAL; n];
    let mut first_tier = 0;
    if let Some((_, at, bytes)) = saves.resume_bytes(&[&name], (n as u64).saturating_mul(2))? {
        let done = at.done as usize;
        let fits = at.next as u64 <= tiers
            && done <= n
            && bytes.len() == 2 * done
            && (at.next == 0 || game.tier(at.next as u64 - 1).end == at.done);
        if !fits {
            return Err(unfit(bytes.len(), &at));
        }
        for (v, b) in out.iter_mut().zip(from_le(&bytes)) {
            *v = b;
        }
        first_tier = at.next as u64;
        progress.inc(at.done);
    }
    let mut at = solved_up_to(game, first_tier);
    for t in first_tier..tiers {
        let tier = checked_tier(game, t, at, n)?;
        at = tier.end;
        let (done, rest) = out.split_at_mut(tier.start as usize);
        solve_tier(
            game,
            t,
            tier.start,
            Lower {
                values: done,
                from: 0,
                zeroing,
            },
            &mut rest[..(tier.end - tier.start) as usize],
        )?;
        progress.inc(tier.end - tier.start);
        if t + 1 < tiers {
            let done = Wave {
                next: t as usize + 1,
                waves: tiers as usize,
                done: tier.end,
            };
            saves.finished_bytes(&name, done, &le_bytes(&out[..tier.end as usize]))?;
        }
    }
    if at != n as u64 {
        return Err(Error::internal(format!(
            "the tiers end at {at}, not at {n}"
        )));
    }
    if let Some(start) = game.start_index() {
        mark_reachable(game, start, &mut out)?;
    }
    if game.symmetries() > 1 {
        fill_images(game, &mut out);
    }
    Ok(out)
}

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

/// Asks the processor to bring `values[i]` into its cache, if `i` is in range.
#[inline(always)]
pub(super) fn prefetch(values: &[u16], i: u64) {
    #[cfg(target_arch = "x86_64")]
    if let Some(v) = values.get(i as usize) {
        // SAFETY: a prefetch reads nothing the program sees and cannot fault; the address is
        // that of an element of the slice.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                (v as *const u16).cast::<i8>(),
            )
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (values, i);
}

/// Solves tier `t`, starting at index `first`, into `values`, the tiers below being `done`: from the moves kept as edges, or, where the game lists the
/// tier's un-moves, from those.
pub(super) fn solve_tier<G: Tiered>(
    game: &G,
    t: u64,
    first: u64,
    done: Lower,
    values: &mut [u16],
) -> Result<()> {
    let len = tier_len(values.len())?;
    // Filled in parallel: the pages of a large tier are first touched here.
    let mut seen: Vec<Seen> = (0..len).into_par_iter().map(|_| Seen::ILLEGAL).collect();
    let listed = game.lists_tier_parents(t);
    let pieces = scan_range(game, first, len, done, 0, &mut seen, !listed)?;
    if listed {
        let end = first + len as u64;
        return settle_tier(
            first,
            &mut seen,
            |c, out| {
                // Each parent once, as the scan counted each child once.
                let from = out.len();
                let once = game.tier_parents(first + c as u64, |p| {
                    if p >= first && p < end {
                        out.push((p - first) as u32);
                    }
                });
                if !once {
                    sort_dedup_from(out, from);
                }
            },
            values,
            done.zeroing,
        );
    }
    let pieces: Vec<&[u64]> = pieces.iter().map(|p| &p[..]).collect();
    let edges = EdgeParents::new(len, &pieces);
    settle_tier(
        first,
        &mut seen,
        |c, out| edges.of(c, out),
        values,
        done.zeroing,
    )
}

/// Sorts `out[from..]` and keeps each of its numbers once: `Vec::dedup` of a tail appended in
/// place (a vector of its own a position cost a copy of every parent).
fn sort_dedup_from(out: &mut Vec<u32>, from: usize) {
    out[from..].sort_unstable();
    let mut kept = from;
    for k in from..out.len() {
        if kept == from || out[k] != out[kept - 1] {
            out[kept] = out[k];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// Tier `t`, checked to start at `at` (where the last one ended) and to end within `0..n`.
pub(crate) fn checked_tier<G: Tiered>(game: &G, t: u64, at: u64, n: usize) -> Result<Range<u64>> {
    let tier = game.tier(t);
    if tier.start != at || tier.end < tier.start || tier.end > n as u64 {
        return Err(Error::internal(format!(
            "tier {t} is {}..{}: tiers must cut 0..{n} in order",
            tier.start, tier.end
        )));
    }
    Ok(tier)
}

/// `len`, checked to fit the local indices of a tier (`u32`).
pub(crate) fn tier_len(len: usize) -> Result<usize> {
    if u32::try_from(len).is_err() {
        return Err(Error::unsupported(format!(
            "a tier of {len} positions (at most {} a tier)",
            u32::MAX
        )));
    }
    Ok(len)
}

/// The values of the tiers solved so far, from index `from` on (the entry of `from + i` at
/// `i`): all of them, or those a two-bit solve still keeps.
#[derive(Clone, Copy)]
pub(crate) struct Lower<'a> {
    pub(crate) values: &'a [u16],
    pub(crate) from: u64,
    /// Whether a move out of the tier resets a counter ([`ValueKind::Dtz`]): the values are
    /// then distances to the reset, and a lower child counts only by its class.
    pub(crate) zeroing: bool,
}

impl Lower<'_> {
    /// A lower child's remoteness as its parents see it: as stored, or where the move resets
    /// the counter, [`after_reset`].
    #[inline]
    fn seen(&self, value: Standing, r: u32) -> u16 {
        if self.zeroing {
            after_reset(value, r) as u16
        } else {
            r as u16
        }
    }
}

/// Step 1, the scan, of the positions `from..from + seen.len()` (local indices) of the tier
/// `first..first + len`, into `seen`, the values of the tiers below read from `done`: lower
/// children summed up, the moves inside the tier counted and, when `keep_edges`, kept as
/// [`edge`]s, in index order (one list a task, the lists in order). Without edges the settle asks the game for parents, each once, so a
/// position counts its children inside the tier once each.
pub(crate) fn scan_range<G: Tiered>(
    game: &G,
    first: u64,
    len: usize,
    done: Lower,
    from: usize,
    seen: &mut [Seen],
    keep_edges: bool,
) -> Result<Vec<Vec<u64>>> {
    let end = first + len as u64;
    let in_tier = game.in_tier_moves();
    let folds = game.symmetries() > 1;
    let pieces: Vec<Result<Vec<u64>>> =
        seen.par_chunks_mut(CHUNK)
            .enumerate()
            .map(|(c, chunk)| {
                let mut edges = Vec::new();
                let mut kids = Vec::new();
                let mut inside = Vec::new();
                let start = first + (from + c * CHUNK) as u64;
                let mut keep = [u64::MAX; CHUNK / 64];
                let sifted = folds && game.representatives(start, chunk.len(), &mut keep);
                for (k, slot) in chunk.iter_mut().enumerate() {
                    if sifted && keep[k / 64] >> (k % 64) & 1 == 0 {
                        // An image, left as [`Visit::Image`] leaves it.
                        continue;
                    }
                    let local = (from + c * CHUNK + k) as u32;
                    let pos = first + local as u64;
                    let mut s = Seen {
                        flags: LEGAL | ALL_WIN,
                        ..Seen::ILLEGAL
                    };
                    let mut bad = None;
                    // The children first, then their values: the values of lower tiers lie
                    // anywhere in the table, and asking for all of them before reading any
                    // lets the memory fetch them together.
                    kids.clear();
                    let named = |child: u64| {
                        // Wraps below `done_from`: past the end, no solved position.
                        prefetch(done.values, child.wrapping_sub(done.from));
                        kids.push(child);
                    };
                    // Where the settle finds parents by un-moves, a child inside the tier
                    // need only be counted.
                    let (visit, counted) = if keep_edges || !in_tier {
                        (game.visit(pos, named), 0)
                    } else {
                        game.visit_counting(pos, first..end, named)
                    };
                    let moves = kids.len() + counted as usize;
                    inside.clear();
                    for &child in &kids {
                        if child >= first && child < end {
                            if !in_tier {
                                bad = Some(child);
                            } else if keep_edges {
                                s.open += 1;
                                edges.push(edge((child - first) as u32, local));
                            } else {
                                inside.push(child);
                            }
                            continue;
                        }
                        let entry = (done.values)
                            .get(child.wrapping_sub(done.from) as usize)
                            .copied()
                            .unwrap_or(standing::ILLEGAL);
                        match standing::unpack(entry as u32) {
                            None => bad = Some(child),
                            Some((value, r)) => {
                                let r = done.seen(value, r);
                                match value {
                                    Standing::Lose => s.lose = s.lose.min(r),
                                    Standing::Win => s.win = s.win.max(r),
                                    Standing::Tie => s.tie = s.tie.min(r),
                                    Standing::Draw => {}
                                }
                                if value != Standing::Win {
                                    s.flags &= !ALL_WIN;
                                }
                            }
                        }
                    }
                    match visit {
                        // An image is left unsolved, as an index that is no position, till
                        // the last pass copies its representative's entry.
                        Visit::Illegal | Visit::Image => continue,
                        Visit::Over(v) => {
                            s.over = Some(v);
                            *slot = s;
                            continue;
                        }
                        Visit::Moves => {}
                    }
                    if !keep_edges {
                        inside.sort_unstable();
                        inside.dedup();
                        s.open = inside.len() as u32 + counted;
                    }
                    if let Some(child) = bad {
                        return Err(Error::internal(format!(
                        "position {pos} has a move to {child}, which is no solved position of a \
                         lower tier{}",
                        if in_tier { "" } else { " (the game says no move stays in its tier)" }
                    )));
                    }
                    if moves == 0 {
                        return Err(Error::internal(format!(
                            "position {pos} has no move but is not terminal"
                        )));
                    }
                    *slot = s;
                }
                Ok(edges)
            })
            .collect();
    pieces.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ops::Range;

    /// A toy with cycles: positions 0..n on a ring inside one tier, each with moves to the
    /// next two positions, some positions marked as lost or tied ends; and a tier above that
    /// moves into it.
    struct Ring {
        n: u64,
        ends: Vec<(u64, Standing)>,
    }

    impl Tiered for Ring {
        fn positions(&self) -> u64 {
            self.n + 1
        }
        fn tier_count(&self) -> u64 {
            2
        }
        fn tier(&self, t: u64) -> Range<u64> {
            if t == 0 {
                0..self.n
            } else {
                self.n..self.n + 1
            }
        }
        fn legal(&self, _pos: u64) -> bool {
            true
        }
        fn terminal(&self, pos: u64) -> Option<Standing> {
            self.ends.iter().find(|e| e.0 == pos).map(|e| e.1)
        }
        fn children<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
            if pos == self.n {
                (0..self.n).for_each(f);
            } else {
                f((pos + 1) % self.n);
                f((pos + 2) % self.n);
            }
        }
        fn moves_bound(&self) -> u64 {
            self.n.max(2)
        }
        fn start_index(&self) -> Option<u64> {
            Some(self.n)
        }
    }

    fn solve<G: Tiered>(ring: &G, threads: usize) -> Vec<(Standing, u32)> {
        let v = crate::solve::in_pool(threads, || solve_standings(ring, &()).unwrap());
        v.iter()
            .map(|&e| standing::unpack(e as u32).unwrap())
            .collect()
    }

    /// Brute force: values by iterating the recurrence from "unknown" until nothing changes.
    fn brute<G: Tiered>(ring: &G) -> Vec<(Standing, u32)> {
        let n = ring.positions() as usize;
        let mut v: Vec<Option<(Standing, u32)>> = vec![None; n];
        for _ in 0..4 * n + 4 {
            for p in 0..n as u64 {
                if let Some(t) = ring.terminal(p) {
                    v[p as usize] = Some((t, 0));
                    continue;
                }
                let mut kids = Vec::new();
                ring.children(p, |c| kids.push(v[c as usize]));
                let lose = kids
                    .iter()
                    .flatten()
                    .filter(|k| k.0 == Standing::Lose)
                    .map(|k| k.1)
                    .min();
                let all_win = kids.iter().all(|k| matches!(k, Some((Standing::Win, _))));
                v[p as usize] = if let Some(r) = lose {
                    Some((Standing::Win, r + 1))
                } else if all_win {
                    Some((
                        Standing::Lose,
                        kids.iter().flatten().map(|k| k.1).max().unwrap() + 1,
                    ))
                } else {
                    None
                };
            }
        }
        // Ties among the rest, by the same fixpoint, then draws.
        let mut t: Vec<Option<u32>> = vec![None; n];
        for _ in 0..4 * n + 4 {
            for p in 0..n as u64 {
                if v[p as usize].is_some() {
                    continue;
                }
                if ring.terminal(p) == Some(Standing::Tie) {
                    t[p as usize] = Some(0);
                    continue;
                }
                let mut best = None::<u32>;
                ring.children(p, |c| {
                    let r = match v[c as usize] {
                        Some((Standing::Tie, r)) => Some(r),
                        None => t[c as usize],
                        _ => None,
                    };
                    if let Some(r) = r {
                        best = Some(best.map_or(r + 1, |b| b.min(r + 1)));
                    }
                });
                t[p as usize] = best;
            }
        }
        (0..n)
            .map(|p| match (v[p], t[p]) {
                (Some(x), _) => x,
                (None, Some(r)) => (Standing::Tie, r),
                (None, None) => (Standing::Draw, 0),
            })
            .collect()
    }

    #[test]
    fn rings_agree_with_brute_force_at_one_and_two_threads() {
        use Standing::*;
        let cases = vec![
            Ring {
                n: 7,
                ends: vec![(0, Lose)],
            },
            Ring {
                n: 9,
                ends: vec![(0, Lose), (4, Tie)],
            },
            Ring {
                n: 8,
                ends: vec![(3, Tie)],
            },
            Ring { n: 6, ends: vec![] },
            Ring {
                n: 12,
                ends: vec![(2, Lose), (7, Lose), (9, Tie)],
            },
        ];
        for ring in &cases {
            let one = solve(ring, 1);
            assert_eq!(
                one,
                brute(ring),
                "ring of {} with ends {:?}",
                ring.n,
                ring.ends
            );
            assert_eq!(solve(ring, 2), one);
        }
        // A ring without ends never ends: every position a draw.
        assert!(solve(&cases[3], 1).iter().all(|v| v.0 == Draw));
    }

    /// A ring where each position moves one or two steps either way, with ends placed
    /// symmetrically about 0, so reflection `i -> n - i` maps the game to itself; folded, the
    /// positions `0..=n/2` represent their classes.
    struct Mirror {
        n: u64,
        ends: Vec<(u64, Standing)>,
        fold: bool,
    }

    impl Mirror {
        fn least(&self, i: u64) -> u64 {
            if i == self.n || !self.fold {
                i
            } else {
                i.min((self.n - i) % self.n)
            }
        }
    }

    impl Tiered for Mirror {
        fn positions(&self) -> u64 {
            self.n + 1
        }
        fn tier_count(&self) -> u64 {
            2
        }
        fn tier(&self, t: u64) -> Range<u64> {
            if t == 0 {
                0..self.n
            } else {
                self.n..self.n + 1
            }
        }
        fn legal(&self, _pos: u64) -> bool {
            true
        }
        fn terminal(&self, pos: u64) -> Option<Standing> {
            let p = if pos == self.n {
                pos
            } else {
                pos.min((self.n - pos) % self.n)
            };
            self.ends.iter().find(|e| e.0 == p).map(|e| e.1)
        }
        fn children<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
            if pos == self.n {
                (0..self.n).for_each(|c| f(self.least(c)));
            } else {
                for step in [1, 2, self.n - 1, self.n - 2] {
                    f(self.least((pos + step) % self.n));
                }
            }
        }
        fn moves_bound(&self) -> u64 {
            self.n.max(4)
        }
        fn start_index(&self) -> Option<u64> {
            Some(self.n)
        }
        fn symmetries(&self) -> u64 {
            if self.fold {
                2
            } else {
                1
            }
        }
        fn represents(&self, pos: u64) -> bool {
            self.least(pos) == pos
        }
        fn images<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
            let other = (self.n - pos) % self.n;
            if pos != self.n && other != pos {
                f(other);
            }
        }
    }

    #[test]
    fn a_folded_game_has_the_values_and_bytes_of_the_whole_one() {
        use Standing::*;
        for (n, ends) in [
            (9, vec![(0, Lose)]),
            (10, vec![(0, Lose), (5, Tie)]),
            (11, vec![(3, Tie)]),
            (8, vec![]),
            (13, vec![(2, Lose), (6, Tie)]),
        ] {
            let whole = Mirror {
                n,
                ends: ends.clone(),
                fold: false,
            };
            let folded = Mirror {
                n,
                ends,
                fold: true,
            };
            assert_eq!(solve(&whole, 1), brute(&whole), "ring of {n}");
            let bytes = solve_standings(&whole, &()).unwrap();
            for threads in [1, 2] {
                let f = crate::solve::in_pool(threads, || solve_standings(&folded, &()).unwrap());
                assert_eq!(f, bytes, "ring of {n} folded at {threads} threads");
            }
        }
    }

    #[test]
    fn the_start_and_what_follows_are_marked_reachable() {
        let ring = Ring {
            n: 7,
            ends: vec![(0, Standing::Lose)],
        };
        let v = solve_standings(&ring, &()).unwrap();
        // From the top every ring position is reached.
        assert!(v.iter().all(|&e| standing::reachable(e as u32)));
    }

    #[test]
    fn a_tail_is_sorted_and_kept_once_and_the_head_left_alone() {
        let mut out = vec![7, 7, 5, 3, 5, 1, 3];
        sort_dedup_from(&mut out, 2);
        assert_eq!(out, [7, 7, 1, 3, 5]);
        let mut out = vec![2];
        sort_dedup_from(&mut out, 1);
        assert_eq!(out, [2]);
    }
}
