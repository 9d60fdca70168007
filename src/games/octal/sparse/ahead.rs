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
    let base = shared.values.0;
    let write = |n: usize, v: usize| {
        // SAFETY: n is below the capacity reserved, and no checker reads heap n (every
        // batch handed out lies below it, or the checkers were waited for).
        unsafe { base.add(n).write(V::of(v)) }
    };
    let mut n = *len; // values written
    let mut st = {
        // SAFETY: no checker runs yet.
        Marks::new(unsafe { shared.below(n) })
    };
    let mut search = Search::<V>::new();
    let mut committed = n; // values final
    let mut reported = n;
    let mut looked = n; // `committed` when saves and progress were last looked at
    let mut batch = BATCH_MIN;
    // Heaps below this are solved exactly, one by one, once all before them is final:
    // where rare values come often (early heaps, codes without a sparse split), guesses
    // would fail too often to gain anything; also a heap whose candidate the width
    // cannot hold.
    let mut exact_until = n + ctx.calm;
    let mut last_failure = n;
    loop {
        let mut q = shared.lock();
        // Take the checked batches in order.
        while let Some(o) = q.done.remove(&committed) {
            match o.wrong {
                None => {
                    committed = o.end;
                    batch = (2 * batch).min(BATCH_MAX);
                    if committed % ctx.block == 0 {
                        // A block's end: saved before going on.
                        break;
                    }
                }
                Some((h, v)) => {
                    q.generation += 1;
                    q.pending.clear();
                    q.done.clear();
                    while q.busy > 0 {
                        q = shared.wait(q);
                    }
                    // SAFETY: no checker runs.
                    st.forget(unsafe { shared.below(n) }, h);
                    if search.mirror.len() > h {
                        search = Search::new();
                    }
                    write(h, v);
                    st.record(ctx, h, v)?;
                    n = h + 1;
                    committed = n;
                    batch = BATCH_MIN;
                    if h < last_failure + ctx.calm {
                        exact_until = n + ctx.calm;
                    }
                    last_failure = h;
                }
            }
        }
        if committed > looked {
            looked = committed;
            drop(q);
            // SAFETY: the values below `committed` are final and never written again.
            let g = unsafe { shared.below(committed) };
            // A save only at a block's end: batches end there.
            done_up_to(ctx, name, g, &mut reported)?;
            continue;
        }
        if committed == ctx.n_all {
            *len = committed;
            return Ok(true);
        }
        let exact = n < exact_until;
        if exact && committed == n {
            drop(q);
            // Nothing is handed out: solve as on one thread, up to the block's end.
            let end = exact_until
                .min((n / ctx.block + 1) * ctx.block)
                .min(ctx.n_all);
            while n < end {
                // SAFETY: no checker runs.
                let g = unsafe { shared.below(n) };
                let (v, c) = st.exact(ctx.moves, &mut search, g);
                if v >= st.limit {
                    *len = n;
                    return Ok(false);
                }
                if v != c {
                    // A rare value: more may follow.
                    exact_until = exact_until.max(n + 1 + ctx.calm);
                    last_failure = n;
                }
                write(n, v);
                st.record(ctx, n, v)?;
                n += 1;
            }
            committed = n;
            continue;
        }
        if exact || n == ctx.n_all || q.pending.len() + q.busy + q.done.len() >= AHEAD {
            // Far enough ahead: check a batch, or wait for one.
            let (q, checked) = shared.check_one(q);
            if !checked {
                drop(shared.wait(q));
            }
            continue;
        }
        let generation = q.generation;
        drop(q);
        // Guess a batch; it ends at a block's end, where a save is due.
        let end = (n + batch)
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
            let c = st.candidate(ctx.moves, g);
            if c >= st.limit {
                // Solved alone once all before it is final.
                exact_until = n + 1;
                b.end = n;
                break;
            }
            if !st.need.is_empty() {
                search.cover(g, n);
                let from = b.needs.len();
                b.needs.extend_from_slice(&st.need);
                b.heaps.push((n, from, b.needs.len()));
            }
            write(n, c);
            st.record(ctx, n, c)?;
            n += 1;
        }
        b.search = search.clone();
        let mut q = shared.lock();
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
            shared.wake.notify_one();
        }
    }
}
