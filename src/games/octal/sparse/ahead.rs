//! The solve on several threads. Almost every heap's value is the smallest common value its
//! moves leaving a rare heap do not reach (the candidate): it is not only when a rare value
//! below it is reached by no pair of heaps, which is rare by the choice of the mask. One
//! thread (the producer) computes the candidates and takes them as the values (guesses),
//! handing the rare values each guess needs found to the other threads in batches of heaps;
//! they look for them among the pairs of heaps below (which is most of the work for codes
//! with many rare values). Batches are taken in order: one whose guesses all hold makes its
//! heaps final; at the first heap whose guess fails, the producer waits for the checks under
//! way, forgets that heap and every later one, sets its value (the smallest rare value not
//! found) and goes on from there with small batches. So the values are those of one thread,
//! whatever the number of threads and the timing.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};

use super::marks::Marks;
use super::search::Search;
use super::{done_up_to, reserve, Context, Run, Width};
use crate::Result;

/// Heaps in a batch: at first and after a failed guess, and at most.
const BATCH_MIN: usize = 16;
const BATCH_MAX: usize = 4096;
/// Batches handed out and not yet final, at most: beyond, the producer checks too.
const AHEAD: usize = 4;

/// Guesses of the heaps `start..end`: the heaps whose guess needs rare values found, with
/// their range in `needs`.
struct Batch<V> {
    generation: u64,
    start: usize,
    end: usize,
    search: Search<V>,
    heaps: Vec<(usize, usize, usize)>,
    needs: Vec<usize>,
}

/// A checked batch: the first heap whose guess failed and its value.
struct Checked {
    end: usize,
    wrong: Option<(usize, usize)>,
}

struct Queue<V> {
    pending: VecDeque<Batch<V>>,
    /// Checked batches by their first heap.
    done: BTreeMap<usize, Checked>,
    /// Batches being checked.
    busy: usize,
    /// Raised when guesses are forgotten: batches of an older generation are dropped.
    generation: u64,
    stop: bool,
}

/// The values' memory, read by the checkers below the heaps they check while the
/// producer writes above.
struct RawValues<V>(*mut V);
// SAFETY: the producer writes a value only where no checker reads (above every heap
// handed out, or after the checkers stopped reading, at a failed guess), and hands
// batches over through the queue's mutex, which orders the writes before the reads.
unsafe impl<V: Send> Send for RawValues<V> {}
unsafe impl<V: Sync> Sync for RawValues<V> {}

struct Shared<'a, V> {
    queue: Mutex<Queue<V>>,
    wake: Condvar,
    values: RawValues<V>,
    split: &'a [usize],
}

impl<V: Width> Shared<'_, V> {
    fn lock(&self) -> MutexGuard<'_, Queue<V>> {
        // A checker panicking would be a bug; its poison is taken as it is.
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn wait<'g>(&self, q: MutexGuard<'g, Queue<V>>) -> MutexGuard<'g, Queue<V>> {
        self.wake.wait(q).unwrap_or_else(|p| p.into_inner())
    }

    /// The values of heaps `0..n`.
    ///
    /// SAFETY: the caller holds a batch with a heap at or above `n` (or is the producer),
    /// so no value below `n` is written while the slice lives.
    unsafe fn below(&self, n: usize) -> &[V] {
        std::slice::from_raw_parts(self.values.0, n)
    }

    /// Checks a batch's guesses in heap order; the first that fails.
    fn check(&self, b: &Batch<V>) -> Option<(usize, usize)> {
        let mut need = Vec::new();
        for &(h, from, to) in &b.heaps {
            need.clear();
            need.extend_from_slice(&b.needs[from..to]);
            // SAFETY: heap h is in the batch held.
            let g = unsafe { self.below(h) };
            b.search.find(g, h, self.split, &mut need);
            if let Some(&v) = need.iter().min() {
                return Some((h, v));
            }
        }
        None
    }

    /// Takes a pending batch, checks it (unlocked), files the outcome; false when none
    /// was pending.
    fn check_one<'g>(
        &'g self,
        mut q: MutexGuard<'g, Queue<V>>,
    ) -> (MutexGuard<'g, Queue<V>>, bool) {
        let Some(b) = q.pending.pop_front() else {
            return (q, false);
        };
        q.busy += 1;
        drop(q);
        let wrong = self.check(&b);
        let mut q = self.lock();
        q.busy -= 1;
        if b.generation == q.generation {
            q.done.insert(b.start, Checked { end: b.end, wrong });
        }
        self.wake.notify_all();
        (q, true)
    }

    fn checker(&self) {
        let mut q = self.lock();
        while !q.stop {
            let (back, checked) = self.check_one(q);
            q = if checked { back } else { self.wait(back) };
        }
    }

    /// Hands a guessed batch to the checkers, or files it as checked when none of its guesses
    /// needs a rare value found.
    fn hand_over(&self, b: Batch<V>) {
        let mut q = self.lock();
        if b.heaps.is_empty() {
            q.done.insert(
                b.start,
                Checked {
                    end: b.end,
                    wrong: None,
                },
            );
        } else {
            q.pending.push_back(b);
            self.wake.notify_one();
        }
    }
}

/// Stops the checkers when the producer ends, however it ends.
struct Stop<'s, 'a, V: Width>(&'s Shared<'a, V>);

impl<V: Width> Drop for Stop<'_, '_, V> {
    fn drop(&mut self) {
        self.0.lock().stop = true;
        self.0.wake.notify_all();
    }
}

pub(super) fn run<V: Width>(ctx: &Context, mut g: Vec<V>, name: &str) -> Result<Run<V>> {
    reserve(&mut g, ctx.n_all)?;
    let start = g.len();
    let shared = Shared {
        queue: Mutex::new(Queue {
            pending: VecDeque::new(),
            done: BTreeMap::new(),
            busy: 0,
            generation: 0,
            stop: false,
        }),
        wake: Condvar::new(),
        values: RawValues(g.as_mut_ptr()),
        split: &ctx.moves.split,
    };
    let mut len = start;
    let result = std::thread::scope(|s| {
        for _ in 1..ctx.threads {
            s.spawn(|| shared.checker());
        }
        let _stop = Stop(&shared);
        produce(ctx, &shared, &mut len, name)
    });
    // SAFETY: the values of heaps 0..len were written, within the capacity reserved.
    unsafe { g.set_len(len) };
    Ok(match result? {
        true => Run::Done(g),
        false => Run::Overflow(g),
    })
}

/// The producer: true when every heap is solved, false at the first value the width
/// cannot hold (`len` is then that heap).
fn produce<V: Width>(
    ctx: &Context,
    shared: &Shared<V>,
    len: &mut usize,
    name: &str,
) -> Result<bool> {
    let n = *len; // values written
    let mut p = Producer {
        ctx,
        shared,
        // SAFETY: no checker runs yet.
        st: Marks::new(unsafe { shared.below(n) }),
        search: Search::<V>::new(),
        n,
        committed: n,
        reported: n,
        looked: n,
        batch: BATCH_MIN,
        exact_until: n + ctx.calm,
        last_failure: n,
    };
    loop {
        let q = p.take_checked(shared.lock())?;
        if p.committed > p.looked {
            p.looked = p.committed;
            drop(q);
            // SAFETY: the values below `committed` are final and never written again.
            let g = unsafe { shared.below(p.committed) };
            // A save only at a block's end: batches end there.
            done_up_to(ctx, name, g, &mut p.reported)?;
            continue;
        }
        if p.committed == ctx.n_all {
            *len = p.committed;
            return Ok(true);
        }
        let exact = p.n < p.exact_until;
        if exact && p.committed == p.n {
            drop(q);
            if !p.solve_exact()? {
                *len = p.n;
                return Ok(false);
            }
            continue;
        }
        if exact || p.n == ctx.n_all || q.pending.len() + q.busy + q.done.len() >= AHEAD {
            // Far enough ahead: check a batch, or wait for one.
            let (q, checked) = shared.check_one(q);
            if !checked {
                drop(shared.wait(q));
            }
            continue;
        }
        let generation = q.generation;
        drop(q);
        let b = p.guess(generation)?;
        shared.hand_over(b);
    }
}

/// What the producer keeps between batches.
struct Producer<'c, 's, 'a, V> {
    ctx: &'c Context<'c>,
    shared: &'s Shared<'a, V>,
    st: Marks<V>,
    search: Search<V>,
    /// Values written.
    n: usize,
    /// Values final.
    committed: usize,
    /// Heaps reported to the progress.
    reported: usize,
    /// `committed` when saves and progress were last looked at.
    looked: usize,
    /// Heaps in the next batch.
    batch: usize,
    /// Heaps below this are solved exactly, one by one, once all before them is final:
    /// where rare values come often (early heaps, codes without a sparse split), guesses
    /// would fail too often to gain anything; also a heap whose candidate the width
    /// cannot hold.
    exact_until: usize,
    /// The last heap found with a rare value (a failed guess, or solved exactly): another
    /// within `calm` heaps of it puts the producer back to solving exactly.
    last_failure: usize,
}

/// Writes heap `n`'s value into the values' memory at `values` (the producer's only way to;
/// a plain pointer, not the producer's field, so that the heap loops keep it in a register).
#[inline]
fn write<V: Width>(values: *mut V, n: usize, v: usize) {
    // SAFETY: n is below the capacity reserved, and no checker reads heap n (every
    // batch handed out lies below it, or the checkers were waited for).
    unsafe { values.add(n).write(V::of(v)) }
}

impl<V: Width> Producer<'_, '_, '_, V> {
    /// Takes the checked batches in order: a batch whose guesses all hold makes its heaps
    /// final (stopping at a block's end, to save there); at a failed guess, forgets from it.
    fn take_checked<'g>(
        &mut self,
        mut q: MutexGuard<'g, Queue<V>>,
    ) -> Result<MutexGuard<'g, Queue<V>>> {
        while let Some(o) = q.done.remove(&self.committed) {
            match o.wrong {
                None => {
                    self.committed = o.end;
                    self.batch = (2 * self.batch).min(BATCH_MAX);
                    if self.committed % self.ctx.block == 0 {
                        // A block's end: saved before going on.
                        break;
                    }
                }
                Some((h, v)) => q = self.forget_from(q, h, v)?,
            }
        }
        Ok(q)
    }

    /// Heap `h`'s guess failed: its value is `v`. Every batch is dropped and the checkers
    /// waited for; the heaps from `h` on are forgotten and solving goes on after `h`, exactly
    /// for a while when rare values come close together.
    fn forget_from<'g>(
        &mut self,
        mut q: MutexGuard<'g, Queue<V>>,
        h: usize,
        v: usize,
    ) -> Result<MutexGuard<'g, Queue<V>>> {
        let (ctx, shared) = (self.ctx, self.shared);
        q.generation += 1;
        q.pending.clear();
        q.done.clear();
        while q.busy > 0 {
            q = shared.wait(q);
        }
        // SAFETY: no checker runs.
        self.st.forget(unsafe { shared.below(self.n) }, h);
        if self.search.mirror.len() > h {
            self.search = Search::new();
        }
        write(shared.values.0, h, v);
        self.st.record(ctx, h, v)?;
        self.n = h + 1;
        self.committed = self.n;
        self.batch = BATCH_MIN;
        if h < self.last_failure + ctx.calm {
            self.exact_until = self.n + ctx.calm;
        }
        self.last_failure = h;
        Ok(q)
    }

    /// With nothing handed out, solves as on one thread up to the block's end (or where
    /// guessing starts again); false at a value the width cannot hold (`n` is then that heap).
    fn solve_exact(&mut self) -> Result<bool> {
        let (ctx, shared, values) = (self.ctx, self.shared, self.shared.values.0);
        let mut n = self.n;
        let end = self
            .exact_until
            .min((n / ctx.block + 1) * ctx.block)
            .min(ctx.n_all);
        while n < end {
            // SAFETY: no checker runs.
            let g = unsafe { shared.below(n) };
            let (v, c) = self.st.exact(ctx.moves, &mut self.search, g);
            if v >= self.st.limit {
                self.n = n;
                return Ok(false);
            }
            if v != c {
                // A rare value: more may follow.
                self.exact_until = self.exact_until.max(n + 1 + ctx.calm);
                self.last_failure = n;
            }
            write(values, n, v);
            self.st.record(ctx, n, v)?;
            n += 1;
        }
        self.n = n;
        self.committed = n;
        Ok(true)
    }

    /// Guesses a batch from heap `n`: each heap's value is its candidate, and the rare values
    /// a guess needs found go in the batch for the checkers. It ends at a block's end, where
    /// a save is due, or before a heap whose candidate the width cannot hold.
    fn guess(&mut self, generation: u64) -> Result<Batch<V>> {
        let (ctx, shared, values) = (self.ctx, self.shared, self.shared.values.0);
        let mut n = self.n;
        let end = (n + self.batch)
            .min((n / ctx.block + 1) * ctx.block)
            .min(ctx.n_all);
        let mut b = Batch {
            generation,
            start: n,
            end,
            search: Search::new(),
            heaps: Vec::new(),
            needs: Vec::new(),
        };
        while n < end {
            // SAFETY: heaps below n are written; checkers read only below the heaps
            // handed out, which are below n.
            let g = unsafe { shared.below(n) };
            let c = self.st.candidate(ctx.moves, g);
            if c >= self.st.limit {
                // Solved alone once all before it is final.
                self.exact_until = n + 1;
                b.end = n;
                break;
            }
            if !self.st.need.is_empty() {
                self.search.cover(g, n);
                let from = b.needs.len();
                b.needs.extend_from_slice(&self.st.need);
                b.heaps.push((n, from, b.needs.len()));
            }
            write(values, n, c);
            self.st.record(ctx, n, c)?;
            n += 1;
        }
        self.n = n;
        b.search = self.search.clone();
        Ok(b)
    }
}
