//! How the sparse store makes the next level: [`Sorter`] gathers the neighbours owned by this
//! process per thread and bucket and sorts them into runs; [`merge`] merges a bucket's runs and
//! the neighbours by ordered moves ([`Near`]) through a tree of losers ([`Losers`]), each
//! position once with the OR of its masks.

use std::sync::Mutex;

use rayon::prelude::*;

use crate::solve::bfs::partitioned::sparse::codec::Writer;
use crate::solve::bfs::partitioned::sparse::spill::{Blocks, Budget, List};
use crate::solve::bfs::partitioned::sparse::{BUCKETS, MASK, MASK_BITS};
use crate::solve::bfs::partitioned::{Bipartite, Layout};
use crate::{Error, Result};

/// Neighbours owned by this process, gathered per thread and bucket and sorted into runs.
///
/// Each thread's buffer is cut by bucket as entries arrive, so it is sorted as [`BUCKETS`]
/// small pieces (a few MiB each, near the cache) rather than as one array, and no bucket bits
/// are sorted. A piece is sorted when it is full, alone: the neighbours of a stretch of the
/// level crowd into a few buckets (a vertical move near the bottom of the board changes the
/// index little), and sorting every piece whenever one filled made runs of a twentieth of a
/// piece, 129 of them a bucket at the 4×4's depth 29, for the merge to wade through. A buffer
/// is one allocation, kept from one sort to the next and given back to the system whole before
/// the merge.
pub(super) struct Sorter<'a> {
    layout: &'a Layout,
    budget: &'a Budget,
    /// Entries one bucket's piece of a thread's buffer holds; a full piece is sorted.
    room: usize,
    buffers: Vec<Mutex<Pieces>>,
    pub(super) runs: Vec<Mutex<Vec<List>>>,
}

/// A thread's buffer: bucket `b` holds `lens[b]` entries from `data[b * room]` on.
#[derive(Default)]
struct Pieces {
    data: Vec<u64>,
    lens: Vec<usize>,
}

impl<'a> Sorter<'a> {
    pub(super) fn new(layout: &'a Layout, budget: &'a Budget, entries: u64) -> Sorter<'a> {
        Sorter {
            layout,
            budget,
            room: (entries / BUCKETS).max(1) as usize,
            buffers: (0..rayon::current_num_threads().max(1))
                .map(|_| Mutex::new(Pieces::default()))
                .collect(),
            runs: (0..BUCKETS).map(|_| Mutex::new(Vec::new())).collect(),
        }
    }

    fn bucket(&self, j: u64) -> usize {
        let (_, local) = self.layout.owner(j);
        (self.layout.local_stripe(local) % BUCKETS) as usize
    }

    /// Adds entries (of positions owned by this process) from the current thread.
    pub(super) fn add(&self, entries: &[u64]) -> Result<()> {
        let t = rayon::current_thread_index().unwrap_or(0) % self.buffers.len();
        let mut guard = self.buffers[t].lock().expect("sorter lock");
        let Pieces { data, lens } = &mut *guard;
        let room = self.room;
        if data.is_empty() {
            *data = vec![0; BUCKETS as usize * room];
            *lens = vec![0; BUCKETS as usize];
        }
        for &e in entries {
            let b = self.bucket(e >> MASK_BITS);
            if lens[b] == room {
                self.sort(b, &mut data[b * room..(b + 1) * room])?;
                lens[b] = 0;
            }
            data[b * room + lens[b]] = e;
            lens[b] += 1;
        }
        Ok(())
    }

    /// Sorts one bucket's piece, merges the copies of each position (OR of their masks) and
    /// adds it to the bucket's runs.
    fn sort(&self, bucket: usize, v: &mut [u64]) -> Result<()> {
        if v.is_empty() {
            return Ok(());
        }
        v.sort_unstable();
        let mut w = Writer::new();
        let (n, mut i) = (v.len(), 0);
        while i < n {
            let (key, mut mask) = (v[i] >> MASK_BITS, v[i] & MASK);
            i += 1;
            while i < n && v[i] >> MASK_BITS == key {
                mask |= v[i] & MASK;
                i += 1;
            }
            w.push(key << MASK_BITS | mask);
        }
        let run = List::keep(w.finish(), self.budget)?;
        self.runs[bucket].lock().expect("runs lock").push(run);
        Ok(())
    }

    /// Sorts what the buffers still hold, and frees them.
    pub(super) fn flush(&self) -> Result<()> {
        let mut buffers: Vec<Pieces> = self
            .buffers
            .iter()
            .map(|m| std::mem::take(&mut *m.lock().expect("sorter lock")))
            .collect();
        let room = self.room;
        let pieces: Vec<(usize, &mut [u64])> = buffers
            .iter_mut()
            .flat_map(|p| {
                let lens = &p.lens;
                p.data
                    .chunks_mut(room)
                    .zip(lens)
                    .enumerate()
                    .map(|(b, (piece, &len))| (b, &mut piece[..len]))
            })
            .collect();
        pieces
            .into_par_iter()
            .with_max_len(1)
            .try_for_each(|(b, v)| self.sort(b, v))
    }
}

/// The neighbours of one bucket of level `d` by its ordered moves ([`Bipartite::ORDERED`]),
/// in increasing order of position, made block by block as the merge reads them.
struct Near<'a, P> {
    puzzle: &'a P,
    blocks: Blocks<'a>,
    entries: Vec<u64>,
    last: u64,
}

impl<'a, P: Bipartite> Near<'a, P> {
    fn new(puzzle: &'a P, list: &'a List) -> Near<'a, P> {
        Near {
            puzzle,
            blocks: Blocks::new(list, 0..list.blocks()),
            entries: Vec::new(),
            last: 0,
        }
    }

    /// The neighbours of the next block that has any into `buf`; false when none is left.
    fn next(&mut self, buf: &mut Vec<u64>) -> Result<bool> {
        buf.clear();
        while buf.is_empty() {
            if !self.blocks.next(&mut self.entries)? {
                return Ok(false);
            }
            let others = MASK as u8 & !P::ORDERED;
            let masked = self
                .entries
                .iter()
                .map(|&e| (e >> MASK_BITS, (e & MASK) as u8 | others));
            self.puzzle
                .expand_masked(masked, |j, back| buf.push(j << MASK_BITS | back as u64));
        }
        let mut last = self.last >> MASK_BITS;
        for &e in buf.iter() {
            if e >> MASK_BITS < last {
                return Err(Error::internal(
                    "the neighbours by ordered moves come out of order",
                ));
            }
            last = e >> MASK_BITS;
        }
        self.last = *buf.last().expect("a block's neighbours");
        Ok(true)
    }
}

/// The head of a merge source that has run out: above every entry, as positions stay below
/// [`MAX_POSITIONS`] − 1.
const DONE: u64 = u64::MAX;

/// A tournament tree of losers over the heads of the merge sources: the smallest head, and the
/// next after it is replaced, in `log2(sources)` comparisons and no moves (a binary heap sifts
/// twice as far and moves its entries). Each node keeps its loser's head beside its source,
/// so a match reads one node, not a node and then a head.
struct Losers {
    /// Leaves: sources padded to a power of two.
    m: usize,
    /// Node 0: the smallest head and its source; node `k ≥ 1`: the loser of the match there
    /// (children `2k` and `2k + 1`, leaves `m..2m`).
    keys: Vec<u64>,
    from: Vec<usize>,
}

impl Losers {
    fn new(mut heads: Vec<u64>) -> Losers {
        let m = heads.len().next_power_of_two();
        heads.resize(m, DONE);
        let (mut keys, mut from) = (vec![DONE; m], vec![0; m]);
        let mut winner = vec![0; 2 * m];
        for (i, w) in winner[m..].iter_mut().enumerate() {
            *w = i;
        }
        for node in (1..m).rev() {
            let (a, b) = (winner[2 * node], winner[2 * node + 1]);
            let (w, l) = if heads[b] < heads[a] { (b, a) } else { (a, b) };
            winner[node] = w;
            (keys[node], from[node]) = (heads[l], l);
        }
        let w = winner[1];
        (keys[0], from[0]) = (heads[w], w);
        Losers { m, keys, from }
    }

    /// The smallest head and its source.
    #[inline]
    fn top(&self) -> (u64, usize) {
        (self.keys[0], self.from[0])
    }

    /// Replaces the smallest head by its source's next one and replays its matches. Without
    /// branches: which side wins is as likely as not, and a mispredicted branch cost more than
    /// the selects.
    #[inline]
    fn replace(&mut self, head: u64) {
        let (mut key, mut src) = (head, self.from[0]);
        let mut node = (src + self.m) / 2;
        while node >= 1 {
            let (k, f) = (self.keys[node], self.from[node]);
            let swap = k < key;
            self.keys[node] = if swap { key } else { k };
            self.from[node] = if swap { src } else { f };
            key = if swap { k } else { key };
            src = if swap { f } else { src };
            node /= 2;
        }
        (self.keys[0], self.from[0]) = (key, src);
    }
}

/// Merges the runs of one bucket, and the neighbours of the bucket's level-`d` list `cur` by
/// ordered moves, into the next level: each position once, with the OR of its masks.
pub(super) fn merge<P: Bipartite>(
    puzzle: &P,
    runs: Vec<List>,
    cur: List,
    budget: &Budget,
) -> Result<List> {
    let mut blocks: Vec<Blocks> = runs.iter().map(|r| Blocks::new(r, 0..r.blocks())).collect();
    let mut near = Near::new(puzzle, &cur);
    // Each source's decoded block and the place of its head; the ordered neighbours are the
    // last source.
    let sources = runs.len() + 1;
    let mut bufs: Vec<Vec<u64>> = vec![Vec::new(); sources];
    let mut at = vec![0usize; sources];
    let mut fill = |k: usize, buf: &mut Vec<u64>| -> Result<u64> {
        let more = match blocks.get_mut(k) {
            Some(b) => b.next(buf)?,
            None => near.next(buf)?,
        };
        Ok(if more { buf[0] } else { DONE })
    };
    let mut heads = Vec::with_capacity(sources);
    for (k, buf) in bufs.iter_mut().enumerate() {
        heads.push(fill(k, buf)?);
    }
    let mut losers = Losers::new(heads);
    let mut out = Writer::new();
    // The entry being gathered: its position's copies arrive one after the other.
    let mut pending = losers.top().0;
    loop {
        let (e, k) = losers.top();
        if e == DONE {
            break;
        }
        at[k] += 1;
        let next = match bufs[k].get(at[k]) {
            Some(&next) => next,
            None => {
                at[k] = 0;
                fill(k, &mut bufs[k])?
            }
        };
        losers.replace(next);
        if e >> MASK_BITS == pending >> MASK_BITS {
            pending |= e;
        } else {
            out.push(pending);
            pending = e;
        }
    }
    if pending != DONE {
        out.push(pending);
    }
    drop(blocks);
    drop(near);
    for r in runs {
        r.release(budget);
    }
    cur.release(budget);
    List::keep(out.finish(), budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_of_losers_merges_in_order() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for sources in [1usize, 2, 3, 5, 8, 13, 33] {
            let lists: Vec<Vec<u64>> = (0..sources)
                .map(|s| {
                    let mut v: Vec<u64> = (0..(s * 37) % 50)
                        .map(|_| {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            x % 200
                        })
                        .collect();
                    v.sort_unstable();
                    v
                })
                .collect();
            let mut at = vec![0usize; sources];
            let heads = lists.iter().map(|l| l.first().copied().unwrap_or(DONE));
            let mut losers = Losers::new(heads.collect());
            let mut got = Vec::new();
            loop {
                let (e, k) = losers.top();
                if e == DONE {
                    break;
                }
                got.push(e);
                at[k] += 1;
                losers.replace(lists[k].get(at[k]).copied().unwrap_or(DONE));
            }
            let mut want: Vec<u64> = lists.concat();
            want.sort_unstable();
            assert_eq!(got, want, "{sources} sources");
        }
    }
}
