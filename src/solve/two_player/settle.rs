//! Steps 2 to 4 of a tier of the two-player engine ([`crate::solve::two_player`]): the buckets of
//! remoteness and the settle that empties them, pushing each valued position's result to its
//! parents inside the tier (from the edges the scan kept, or from the game's un-moves).

use rayon::prelude::*;

use crate::format::entries::standing;
use crate::model::Standing;
use crate::solve::prefetch::prefetch;
use crate::solve::prefetch::prefetch_entry;
use crate::solve::two_player::record::{Seen, ALL_WIN, CHUNK, LEGAL, NONE, QUEUED};
use crate::{Error, Result};

/// Positions of a tier waiting for a value, by remoteness: `0[r][k]` holds the positions
/// (local indices) whose value comes as `KINDS[k]` with remoteness `r`. The list a position
/// is in says its value, so each waits in 4 bytes: the buckets of a five-man chess ending's
/// tier hold hundreds of millions.
#[derive(Default)]
struct Buckets(Vec<[Vec<u32>; 3]>);

/// The values the buckets hold, in the order a bucket is emptied.
const KINDS: [Standing; 3] = [Standing::Lose, Standing::Win, Standing::Tie];

fn kind(v: Standing) -> usize {
    match v {
        Standing::Lose => 0,
        Standing::Win => 1,
        _ => 2,
    }
}

impl Buckets {
    fn push(&mut self, r: usize, p: u32, v: Standing) {
        if self.0.len() <= r {
            self.0.resize_with(r + 1, Default::default);
        }
        self.0[r][kind(v)].push(p);
    }

    /// Pushes every position of a tier's scan that `f` puts in a bucket (its remoteness and
    /// value, or `None`), asked in parallel, a group of chunks at a time (so what is found
    /// waits in the buckets' 4 bytes, not in a list beside them).
    fn sweep(
        &mut self,
        seen: &[Seen],
        f: impl Fn(usize, &Seen) -> Option<(usize, Standing)> + Sync,
    ) {
        const GROUP: usize = CHUNK << 8;
        for (g, group) in seen.chunks(GROUP).enumerate() {
            let found: Vec<Vec<(usize, u32, Standing)>> = group
                .par_chunks(CHUNK)
                .enumerate()
                .map(|(c, chunk)| {
                    let at = g * GROUP + c * CHUNK;
                    (chunk.iter().enumerate())
                        .filter_map(|(k, s)| f(at + k, s).map(|(r, v)| (r, (at + k) as u32, v)))
                        .collect()
                })
                .collect();
            for (r, p, v) in found.into_iter().flatten() {
                self.push(r, p, v);
            }
        }
    }

    /// Takes the buckets in order of remoteness, nearest first, until none is left: a
    /// position not yet valued when it comes out of one gets that value and remoteness (so
    /// the nearest bucket it was pushed to), and `then` is told of each of its parents not
    /// yet valued (`seen`'s entry), as `parents` lists them, and says which bucket that
    /// parent goes to, if any. The parents of the positions a bucket values are listed in
    /// parallel, a slice at a time (a game that lists un-moves works out each position's),
    /// and handed to `then` in parallel too, each to the one task that owns its range of the
    /// tier: the values depend on the game alone, so the order `then` sees is free, and what
    /// it pushes goes to buckets farther than the one being emptied.
    fn settle(
        &mut self,
        values: &mut [u16],
        seen: &mut [Seen],
        parents: &(dyn Fn(u32, &mut Vec<u32>) + Sync),
        then: impl Fn(&mut Seen, Standing, usize) -> Option<(usize, Standing)> + Sync,
    ) -> Result<()> {
        /// Positions whose parents are listed at once (their lists held together).
        const SLICE: usize = 1 << 18;
        // The ranges of the tier that tasks own, a power of two long: as many at any thread
        // count, so the buckets fill in the same order.
        let shift = seen
            .len()
            .div_ceil(RANGES)
            .next_power_of_two()
            .trailing_zeros();
        let span = 1usize << shift;
        let bound = standing::MAX_REMOTENESS as usize;
        let mut r = 0;
        while r < self.0.len() {
            if r > bound {
                return Err(Error::unsupported(format!(
                    "a remoteness over {bound}, more than a table holds"
                )));
            }
            for (k, &v) in KINDS.iter().enumerate() {
                // The bucket itself becomes the list of the positions it values: no second
                // list beside it.
                let mut valued = std::mem::take(&mut self.0[r][k]);
                let mut kept = 0;
                for j in 0..valued.len() {
                    // A bucket's positions lie anywhere in the tier: each one's entry is
                    // asked for a few positions ahead, so the reads overlap.
                    if let Some(&a) = valued.get(j + LAG) {
                        prefetch_entry(values, a.into());
                    }
                    let i = valued[j];
                    if values[i as usize] == standing::ILLEGAL {
                        values[i as usize] = standing::pack(v, r as u32);
                        valued[kept] = i;
                        kept += 1;
                    }
                }
                valued.truncate(kept);
                let values: &[u16] = values;
                for slice in valued.chunks(SLICE) {
                    // Each chunk's parents, grouped by the range that owns them.
                    let lists: Vec<(Vec<u32>, Vec<u32>)> = slice
                        .par_chunks(CHUNK)
                        .map(|chunk| {
                            let mut all = Vec::new();
                            for block in chunk.chunks(BLOCK) {
                                // The entries of a block's parents are asked for as they are
                                // listed, and read once the block is listed.
                                let from = all.len();
                                for &i in block {
                                    let start = all.len();
                                    parents(i, &mut all);
                                    for &p in &all[start..] {
                                        prefetch_entry(values, p.into());
                                    }
                                }
                                // A parent valued already has nothing to learn (`then` is
                                // asked of the others only): dropped before it is grouped
                                // and handed on.
                                let mut kept = from;
                                for j in from..all.len() {
                                    let p = all[j];
                                    if values[p as usize] == standing::ILLEGAL {
                                        all[kept] = p;
                                        kept += 1;
                                    }
                                }
                                all.truncate(kept);
                            }
                            by_range(&all, shift)
                        })
                        .collect();
                    let pushes: Vec<Vec<(u32, u32, Standing)>> = seen
                        .par_chunks_mut(span)
                        .enumerate()
                        .map(|(o, owned)| {
                            let base = (o * span) as u32;
                            let mut pushes = Vec::new();
                            for (sorted, starts) in &lists {
                                let mine = &sorted[starts[o] as usize..starts[o + 1] as usize];
                                for (j, &p) in mine.iter().enumerate() {
                                    if let Some(&q) = mine.get(j + LAG) {
                                        let ahead =
                                            owned.as_ptr().wrapping_add((q - base) as usize);
                                        prefetch(ahead.cast());
                                    }
                                    let s = &mut owned[(p - base) as usize];
                                    if let Some((to, w)) = then(s, v, r) {
                                        pushes.push((to as u32, p, w));
                                    }
                                }
                            }
                            pushes
                        })
                        .collect();
                    for (to, p, w) in pushes.into_iter().flatten() {
                        self.push(to as usize, p, w);
                    }
                }
            }
            r += 1;
        }
        self.0.clear();
        Ok(())
    }
}

/// The ranges of a tier whose parents the settle hands to one task each.
const RANGES: usize = 64;

/// How far ahead of its use a random entry is asked for.
const LAG: usize = 16;

/// Positions whose parents are listed before their entries are read.
const BLOCK: usize = 16;

/// A stable counting sort (linear, where sorting pairs took a tenth of a Quixo solve): the
/// value of each item, grouped by its key (below `keys`), and where each key's group starts
/// (`keys + 1` offsets, the last the number of items).
fn counting_sort<T: Copy>(
    items: impl Iterator<Item = T> + Clone,
    keys: usize,
    key_value: impl Fn(T) -> (usize, u32),
) -> (Vec<u32>, Vec<u32>) {
    let mut starts = vec![0u32; keys + 1];
    for x in items.clone() {
        starts[key_value(x).0 + 1] += 1;
    }
    for k in 0..keys {
        starts[k + 1] += starts[k];
    }
    let mut sorted = vec![0u32; starts[keys] as usize];
    let mut next = starts.clone();
    for x in items {
        let (k, v) = key_value(x);
        sorted[next[k] as usize] = v;
        next[k] += 1;
    }
    (sorted, starts)
}

/// `all` grouped by the range of `1 << shift` positions each lies in, and where each range's
/// run starts.
fn by_range(all: &[u32], shift: u32) -> (Vec<u32>, Vec<u32>) {
    counting_sort(all.iter().copied(), RANGES, |p| ((p >> shift) as usize, p))
}

/// The parents inside a tier, from the [`edge`]s its scan kept: the parents of local position
/// `c` are `parents[offsets[c]..offsets[c + 1]]`, by a counting sort of the edges on the child;
/// the pieces come in index order, so each child's parents come in index order.
pub(crate) struct EdgeParents {
    offsets: Vec<u32>,
    parents: Vec<u32>,
}

impl EdgeParents {
    /// The parents of a tier of `len` positions from the edges of every piece of its scan.
    pub(crate) fn new(len: usize, pieces: &[&[u64]]) -> EdgeParents {
        let edges = pieces.iter().copied().flatten().copied();
        let (parents, offsets) = counting_sort(edges, len, |e| ((e >> 32) as usize, e as u32));
        EdgeParents { offsets, parents }
    }

    /// Appends to `out` the parents of `c`, as often as moves lead from them to `c`.
    pub(crate) fn of(&self, c: u32, out: &mut Vec<u32>) {
        let c = c as usize;
        out.extend_from_slice(
            &self.parents[self.offsets[c] as usize..self.offsets[c + 1] as usize],
        );
    }
}

/// Steps 2 to 4 of a tier into `values`, from the whole tier's scan `seen` and `parents`,
/// which appends to its vector the parents of a local position inside the tier (as often as
/// the scan counted the moves from them: once each where it counted children once each).
/// With `zeroing` (a counter's distances, [`ValueKind::Dtz`](crate::model::ValueKind)) a
/// position neither won nor lost keeps no distance: it is a draw, or a tie where the game is
/// over.
pub(crate) fn settle_tier(
    first: u64,
    seen: &mut [Seen],
    parents: impl Fn(u32, &mut Vec<u32>) + Sync,
    values: &mut [u16],
    zeroing: bool,
) -> Result<()> {
    let mut buckets = Buckets::default();
    // 2. Win and lose.
    buckets.sweep(seen, |_, s| {
        if s.flags & LEGAL == 0 {
            return None;
        }
        match s.over {
            Some(v @ (Standing::Lose | Standing::Win)) => Some((0, v)),
            Some(_) => None,
            None if s.lose != NONE => Some((s.lose as usize + 1, Standing::Win)),
            None if s.open == 0 && s.flags & ALL_WIN != 0 => {
                Some((s.win as usize + 1, Standing::Lose))
            }
            None => None,
        }
    });
    buckets.settle(values, seen, &parents, |s, v, r| {
        // Listed un-moves may name what is no position or where the game is over.
        if s.flags & LEGAL == 0 || s.over.is_some() {
            return None;
        }
        match v {
            Standing::Lose if s.flags & QUEUED == 0 => {
                s.flags |= QUEUED;
                Some((r + 1, Standing::Win))
            }
            Standing::Lose => None,
            _ => {
                s.open -= 1;
                (s.open == 0 && s.flags & ALL_WIN != 0)
                    .then(|| (r.max(s.win as usize) + 1, Standing::Lose))
            }
        }
    })?;
    // 3. Ties, among the positions still undecided.
    if let Some(i) = seen.par_iter().enumerate().position_any(|(i, s)| {
        s.flags & LEGAL != 0
            && values[i] == standing::ILLEGAL
            && matches!(
                s.over,
                Some(Standing::Win | Standing::Lose | Standing::Draw)
            )
    }) {
        return Err(Error::internal(format!(
            "position {} is terminal with value {}: a game ends won, lost or tied",
            first + i as u64,
            seen[i].over.map_or("none", |v| v.as_str())
        )));
    }
    if zeroing {
        // Syzygy's DTZ of a draw is 0: the distance to the nearest tie, which took the settle
        // of every drawn position's parents (half of a five-man build: most positions of
        // KBNkn are drawn), is no part of it.
        values
            .par_iter_mut()
            .zip(seen.par_iter())
            .for_each(|(v, s)| {
                if s.flags & LEGAL != 0 && *v == standing::ILLEGAL {
                    let value = if s.over.is_some() {
                        Standing::Tie
                    } else {
                        Standing::Draw
                    };
                    *v = standing::pack(value, 0);
                }
            });
        return Ok(());
    }
    let undecided = |i: usize, s: &Seen| s.flags & LEGAL != 0 && values[i] == standing::ILLEGAL;
    buckets.sweep(seen, |i, s| match s.over {
        _ if !undecided(i, s) => None,
        Some(_) => Some((0, Standing::Tie)),
        None if s.tie != NONE => Some((s.tie as usize + 1, Standing::Tie)),
        None => None,
    });
    buckets.settle(values, seen, &parents, |s, _, r| {
        // No position still undecided was queued in step 2: those all won.
        if s.flags & (LEGAL | QUEUED) == LEGAL && s.over.is_none() {
            s.flags |= QUEUED;
            Some((r + 1, Standing::Tie))
        } else {
            None
        }
    })?;
    // 4. Draws.
    values
        .par_iter_mut()
        .zip(seen.par_iter())
        .for_each(|(v, s)| {
            if s.flags & LEGAL != 0 && *v == standing::ILLEGAL {
                *v = standing::pack(Standing::Draw, 0);
            }
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::two_player::record::edge;

    #[test]
    fn a_counting_sort_groups_by_key_and_keeps_the_order_within_a_key() {
        let items = [(2, 10), (0, 11), (2, 12), (3, 13), (0, 14)];
        let (sorted, starts) = counting_sort(items.iter().copied(), 4, |(k, v)| (k, v));
        assert_eq!(sorted, [11, 14, 10, 12, 13]);
        assert_eq!(starts, [0, 2, 2, 4, 5]);
        let (sorted, starts) = counting_sort(std::iter::empty::<(usize, u32)>(), 2, |x| x);
        assert!(sorted.is_empty());
        assert_eq!(starts, [0, 0, 0]);
    }

    #[test]
    fn edge_parents_list_each_childs_parents_in_order() {
        let edges = [edge(1, 5), edge(0, 3), edge(1, 4)];
        let more = [edge(1, 7)];
        let p = EdgeParents::new(3, &[&edges, &more]);
        let of = |c| {
            let mut out = vec![9];
            p.of(c, &mut out);
            out
        };
        assert_eq!(of(0), [9, 3]);
        assert_eq!(of(1), [9, 5, 4, 7]);
        assert_eq!(of(2), [9]);
    }
}
