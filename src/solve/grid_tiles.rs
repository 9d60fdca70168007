//! A two-dimensional wavefront of tasks, for recurrences over a grid whose every cell depends
//! on cells above it and to its left (dynamic programming tables such as three-rowed Chomp's
//! f(q, r)).
//!
//! The grid is cut into tiles: *block* `b` (a range of columns) times *chunk* `c` (a range of
//! rows). Tile `(b, c)` may run once tile `(b - 1, c)` (same rows, the columns to its left) and
//! tile `(b, c - 1)` (same columns, the rows above) are done; so at any moment the running tiles
//! form an anti-diagonal front that sweeps the grid. A tile that runs owns its block's column
//! state and its chunk's row state alone (every other tile that touches either is ordered
//! before or after it), so tasks need no locking beyond an uncontended mutex, and the result is
//! the same at any thread count whenever each tile is a function of its inputs.
//!
//! Tiles need not fill a rectangle: `exists(b, c)` says which do, and must be monotone in `b`
//! (if `(b, c)` exists, so does `(b - 1, c)`), as in a triangular table where a column block
//! only starts at the row of its first column.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Mutex;

/// Runs `task(b, c)` for every existing tile of a `blocks` × `chunks` grid, each after its
/// left and upper neighbours (where they exist), in parallel on the current rayon pool.
///
/// The first error stops the sweep (tiles already running finish; no new tile starts) and is
/// returned.
pub(crate) fn run<X, T, E>(blocks: usize, chunks: usize, exists: X, task: T) -> Result<(), E>
where
    X: Fn(usize, usize) -> bool + Sync,
    T: Fn(usize, usize) -> Result<(), E> + Sync,
    E: Send,
{
    if blocks == 0 || chunks == 0 || !exists(0, 0) {
        return Ok(());
    }
    // Predecessors still to finish, per tile.
    let waiting: Vec<AtomicU8> = (0..blocks * chunks)
        .map(|i| {
            let (b, c) = (i / chunks, i % chunks);
            AtomicU8::new((b > 0) as u8 + (c > 0 && exists(b, c - 1)) as u8)
        })
        .collect();
    let failed = AtomicBool::new(false);
    let error: Mutex<Option<E>> = Mutex::new(None);
    let ctx = Ctx {
        blocks,
        chunks,
        exists: &exists,
        task: &task,
        waiting: &waiting,
        failed: &failed,
        error: &error,
    };
    rayon::scope(|s| ctx.go(s, 0, 0));
    match error.into_inner() {
        Ok(Some(e)) => Err(e),
        Ok(None) => Ok(()),
        Err(poisoned) => match poisoned.into_inner() {
            Some(e) => Err(e),
            None => Ok(()),
        },
    }
}

struct Ctx<'a, X, T, E> {
    blocks: usize,
    chunks: usize,
    exists: &'a X,
    task: &'a T,
    waiting: &'a [AtomicU8],
    failed: &'a AtomicBool,
    error: &'a Mutex<Option<E>>,
}

impl<X, T, E> Ctx<'_, X, T, E>
where
    X: Fn(usize, usize) -> bool + Sync,
    T: Fn(usize, usize) -> Result<(), E> + Sync,
    E: Send,
{
    fn go<'s>(&'s self, s: &rayon::Scope<'s>, b: usize, c: usize) {
        if self.failed.load(Ordering::Relaxed) {
            return;
        }
        if let Err(e) = (self.task)(b, c) {
            self.failed.store(true, Ordering::Relaxed);
            if let Ok(mut slot) = self.error.lock() {
                slot.get_or_insert(e);
            }
            return;
        }
        let right = (b + 1 < self.blocks && (self.exists)(b + 1, c)).then_some((b + 1, c));
        let below = (c + 1 < self.chunks && (self.exists)(b, c + 1)).then_some((b, c + 1));
        for (nb, nc) in [right, below].into_iter().flatten() {
            // AcqRel: the last predecessor to finish sees the other's writes, and so does the
            // tile it starts.
            if self.waiting[nb * self.chunks + nc].fetch_sub(1, Ordering::AcqRel) == 1 {
                s.spawn(move |s| self.go(s, nb, nc));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::in_pool;
    use std::sync::atomic::AtomicU64;

    /// A triangular grid: every tile runs once, after its neighbours.
    #[test]
    fn every_tile_once_after_its_neighbours() {
        let (blocks, chunks) = (9, 13);
        let exists = |b: usize, c: usize| b <= c;
        for threads in [1, 2, 4] {
            let done: Vec<AtomicU64> = (0..blocks * chunks).map(|_| AtomicU64::new(0)).collect();
            let clock = AtomicU64::new(1);
            let r: Result<(), ()> = in_pool(threads, || {
                run(blocks, chunks, exists, |b, c| {
                    if b > 0 {
                        assert_ne!(done[(b - 1) * chunks + c].load(Ordering::SeqCst), 0);
                    }
                    if c > 0 && exists(b, c - 1) {
                        assert_ne!(done[b * chunks + c - 1].load(Ordering::SeqCst), 0);
                    }
                    let t = clock.fetch_add(1, Ordering::SeqCst);
                    assert_eq!(done[b * chunks + c].swap(t, Ordering::SeqCst), 0);
                    Ok(())
                })
            });
            r.unwrap();
            for b in 0..blocks {
                for c in 0..chunks {
                    assert_eq!(
                        done[b * chunks + c].load(Ordering::SeqCst) != 0,
                        exists(b, c)
                    );
                }
            }
        }
    }

    #[test]
    fn an_error_stops_the_sweep() {
        let ran = AtomicU64::new(0);
        let r = in_pool(2, || {
            run(
                5,
                5,
                |_, _| true,
                |b, c| {
                    ran.fetch_add(1, Ordering::SeqCst);
                    if (b, c) == (1, 1) {
                        Err(format!("tile {b},{c}"))
                    } else {
                        Ok(())
                    }
                },
            )
        });
        assert_eq!(r.unwrap_err(), "tile 1,1");
        // Tiles after (1,1) in both directions never start.
        assert!(ran.load(Ordering::SeqCst) < 25);
    }
}
