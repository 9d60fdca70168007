//! The two-player engine (`crate::solve::two_player`) on several processes (`mpirun -np K
//! gamedb build GAME ...`, with the cargo feature `mpi`).
//!
//! Each tier's index range is cut into one stripe a process. A process scans its stripe (the
//! move generation, the expensive part, with its threads), then the processes all-gather
//! their scans, so every process holds the whole tier's scan and runs the same settle of the
//! tier: all end with the same values, which the next tier's scan reads as its lower tiers.
//! The scan of a position travels as one word (`word`: its lower children summed up) and
//! each move inside the tier as one more (`standing::edge`); a process recounts its
//! undecided children from the edges. The values are those of one process, byte for byte:
//! the settle is the same function of the same scan (the stripes come back in index order).
//!
//! This spreads the move generation, not the memory: every process holds every value (two
//! bytes a position) and the largest tier's whole scan. Only process 0 makes the last passes
//! (the reachable marks; a folding game's copies from each class's representative to the
//! rest) and writes the table.
//!
//! The processes are installed for the thread that builds ([`install`]): a build under MPI
//! goes through the same spec, view and [`crate::solve::solve_tiered`] as any build, which
//! asks `solve_spread` first. A spread solve keeps no checkpoints.

use std::cell::RefCell;
use std::time::Instant;

use crate::format::entries::standing;
use crate::model::{Standing, Tiered};
use crate::progress::Progress;
use crate::solve::exchange::Exchange;
use crate::solve::two_player::reachable::{fill_images, mark_reachable};
use crate::solve::two_player::record::Seen;
use crate::solve::two_player::scan::{scan_range, Lower};
use crate::solve::two_player::settle::{settle_tier, EdgeParents};
use crate::solve::two_player::tier::{checked_tier, tier_len};
use crate::{Error, Result};

/// What the processes moved and how long they took for one tier.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct TierTraffic {
    /// The tier's number.
    pub tier: u64,
    /// Its positions (one word each in the exchange).
    pub positions: u64,
    /// Its moves that stay inside it (one word each).
    pub edges: u64,
    /// Bytes all processes sent to the others together: each process's piece (two header
    /// words, its positions and its edges) goes to every other process.
    pub bytes: u64,
    /// The largest piece one process sent, in bytes (to each other process).
    pub largest_piece: u64,
    /// Messages: one piece from each process to each other process, `K × (K − 1)`.
    pub messages: u64,
    /// The largest remoteness in the tier plus one: the rounds of pushes its settle takes
    /// (twice, win/lose then ties), which a settle over processes that each hold part of the
    /// tier would make exchanges of.
    pub levels: u64,
    /// Seconds of this process's scan of its stripe.
    pub scan_seconds: f64,
    /// Seconds of the all-gather (waiting for the slowest scan included).
    pub exchange_seconds: f64,
    /// Seconds of the settle of the whole tier.
    pub settle_seconds: f64,
}

/// The processes a thread's solves run on, and what each tier moved.
struct Processes {
    x: Box<dyn Exchange>,
    tiers: Vec<TierTraffic>,
}

thread_local! {
    static PROCESSES: RefCell<Option<Processes>> = const { RefCell::new(None) };
}

/// While alive, the two-player solves of this thread run on the processes it was given; on
/// drop they are taken back and dropped (which ends MPI).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) struct Installed(());

impl Drop for Installed {
    fn drop(&mut self) {
        let _ = PROCESSES.with(|p| p.try_borrow_mut().map(|mut p| p.take()));
    }
}

/// Makes this thread's two-player solves run on `x`'s processes until the guard is dropped.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) fn install(x: Box<dyn Exchange>) -> Installed {
    PROCESSES.with(|p| {
        *p.borrow_mut() = Some(Processes {
            x,
            tiers: Vec::new(),
        })
    });
    Installed(())
}

/// `(rank, processes)` of the installed processes.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) fn processes() -> Option<(usize, usize)> {
    PROCESSES.with(|p| p.borrow().as_ref().map(|p| (p.x.rank(), p.x.size())))
}

/// True when `flag` is true on some installed process (`flag` itself when none are).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) fn any_process(flag: bool) -> Result<bool> {
    PROCESSES.with(|p| match p.borrow().as_ref() {
        Some(p) => p.x.any(flag),
        None => Ok(flag),
    })
}

/// The tiers solved so far on the installed processes, with what each moved.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) fn traffic() -> Vec<TierTraffic> {
    PROCESSES.with(|p| p.borrow().as_ref().map_or(Vec::new(), |p| p.tiers.clone()))
}

/// Bytes a spread solve needs beyond [`crate::solve::standings_memory`] (0 when no processes
/// are installed): the whole largest tier's scan as received (a word a position and a word a
/// move inside the tier), and this process's own piece while it is sent.
pub(crate) fn extra_memory<G: Tiered>(game: &G) -> u64 {
    let Some(procs) = PROCESSES.with(|p| p.try_borrow().ok()?.as_ref().map(|p| p.x.size())) else {
        return 0;
    };
    let moves = if game.in_tier_moves() {
        game.moves_bound()
    } else {
        0
    };
    let whole = game
        .largest_tier()
        .saturating_mul(8)
        .saturating_mul(moves.saturating_add(1));
    whole.saturating_add(whole / procs as u64)
}

/// The values of `game` solved on the installed processes, or `None` when none are installed
/// (the one-process solver's turn).
pub(crate) fn solve_spread<G: Tiered>(
    game: &G,
    zeroing: bool,
    progress: &dyn Progress,
) -> Option<Result<Vec<u16>>> {
    PROCESSES.with(|p| {
        let mut p = p.try_borrow_mut().ok()?;
        let p = p.as_mut()?;
        p.tiers.clear();
        Some(solve_on(game, zeroing, &*p.x, progress, &mut p.tiers))
    })
}

/// Every position's [`standing`] entry (with `zeroing`, the distances to a counter's reset,
/// [`crate::model::ValueKind::Dtz`]), solved by the processes of `x` together, each tier's
/// traffic pushed on `log`. Process 0's values are whole; the others' lack the reachable marks
/// and, for a game that folds symmetric positions, the entries of the positions that do not
/// represent their class (the last passes, which only the writer needs).
pub(crate) fn solve_on<G: Tiered, X: Exchange + ?Sized>(
    game: &G,
    zeroing: bool,
    x: &X,
    progress: &dyn Progress,
    log: &mut Vec<TierTraffic>,
) -> Result<Vec<u16>> {
    let n = usize::try_from(game.positions())
        .map_err(|_| Error::unsupported("too many positions for a table of values"))?;
    let (rank, procs) = (x.rank(), x.size());
    let mut out = vec![standing::ILLEGAL; n];
    let mut at = 0;
    for t in 0..game.tier_count() {
        let tier = checked_tier(game, t, at, n)?;
        at = tier.end;
        let first = tier.start;
        let len = tier_len((tier.end - tier.start) as usize)?;
        let stripe = |r: usize| len * r / procs..len * (r + 1) / procs;
        let mine = stripe(rank);
        let (done, rest) = out.split_at_mut(first as usize);
        let mut seen = vec![Seen::ILLEGAL; len];
        let clock = Instant::now();
        let scanned = scan_range(
            game,
            first,
            len,
            Lower {
                values: done,
                from: 0,
                zeroing,
            },
            mine.start,
            &mut seen[mine.clone()],
            true,
        );
        let (piece, failure) = match scanned {
            Ok(edges) => (encode(&seen[mine], &edges), None),
            Err(e) => (vec![1], Some(e)),
        };
        let scan_seconds = clock.elapsed().as_secs_f64();
        let clock = Instant::now();
        let (all, lens) = x.all_gather(&piece)?;
        let exchange_seconds = clock.elapsed().as_secs_f64();
        drop(piece);
        if let Some(e) = failure {
            return Err(e);
        }
        let clock = Instant::now();
        if lens.len() != procs || lens.iter().sum::<usize>() != all.len() {
            return Err(Error::internal(format!(
                "tier {t}: {} pieces of {} words in all, expected {procs} of {} words",
                lens.len(),
                lens.iter().sum::<usize>(),
                all.len()
            )));
        }
        let mut pieces = Vec::with_capacity(procs);
        let mut rest_of = &all[..];
        for &l in &lens {
            let (piece, more) = rest_of.split_at(l);
            pieces.push(piece);
            rest_of = more;
        }
        let mut edges = Vec::with_capacity(procs);
        for (r, piece) in pieces.iter().enumerate() {
            edges.push(decode(piece, &mut seen, stripe(r)).map_err(|e| {
                Error::internal(format!("tier {t}: the piece of process {r}: {e}"))
            })?);
        }
        let values = &mut rest[..len];
        let pieces: Vec<&[u64]> = edges.iter().map(|e| &e[..]).collect();
        let parents = EdgeParents::new(len, &pieces);
        settle_tier(
            first,
            &mut seen,
            |c, out| parents.of(c, out),
            values,
            zeroing,
        )?;
        let levels = values
            .iter()
            .filter_map(|&v| standing::unpack(v as u32))
            .map(|v| v.1 as u64 + 1)
            .max()
            .unwrap_or(0);
        let words: Vec<u64> = lens.iter().map(|&l| l as u64).collect();
        log.push(TierTraffic {
            tier: t,
            positions: len as u64,
            edges: edges.iter().map(|e| e.len() as u64).sum(),
            bytes: words.iter().sum::<u64>() * 8 * (procs as u64 - 1),
            largest_piece: words.iter().max().copied().unwrap_or(0) * 8,
            messages: (procs * (procs - 1)) as u64,
            levels,
            scan_seconds,
            exchange_seconds,
            settle_seconds: clock.elapsed().as_secs_f64(),
        });
        progress.inc(len as u64);
    }
    if at != n as u64 {
        return Err(Error::internal(format!(
            "the tiers end at {at}, not at {n}"
        )));
    }
    if rank == 0 {
        if let Some(start) = game.start_index() {
            mark_reachable(game, start, &mut out)?;
        }
        if game.symmetries() > 1 {
            fill_images(game, &mut out);
        }
    }
    Ok(out)
}

/// One process's piece of a tier: a word saying its scan went well (0; a failed scan sends
/// the lone word 1), the number of its positions, their [`word`]s, then its edges.
fn encode(seen: &[Seen], edges: &[Vec<u64>]) -> Vec<u64> {
    let moves: usize = edges.iter().map(|e| e.len()).sum();
    let mut piece = Vec::with_capacity(2 + seen.len() + moves);
    piece.push(0);
    piece.push(seen.len() as u64);
    piece.extend(seen.iter().map(word));
    for e in edges {
        piece.extend_from_slice(e);
    }
    piece
}

/// Reads a piece of [`encode`] into `seen[stripe]`, counting each parent's edges as its
/// undecided children (the scan's `open`, which the piece does not carry); returns the edges.
/// An error for a failed scan, a piece of another size, or an edge outside the tier or from
/// a parent outside the stripe.
fn decode<'a>(
    piece: &'a [u64],
    seen: &mut [Seen],
    stripe: std::ops::Range<usize>,
) -> std::result::Result<&'a [u64], String> {
    let len = stripe.len();
    let edges = match piece {
        [0, count, rest @ ..] if *count == len as u64 && rest.len() >= len => {
            let (words, edges) = rest.split_at(len);
            for (s, &w) in seen[stripe.clone()].iter_mut().zip(words) {
                *s = from_word(w);
            }
            edges
        }
        [1] => return Err("its scan failed (that process reports why)".into()),
        _ => {
            return Err(format!(
                "{} words, expected 2 + {len} positions and the edges",
                piece.len()
            ))
        }
    };
    for &e in edges {
        let (child, parent) = ((e >> 32) as usize, e as u32 as usize);
        if child >= seen.len() || !stripe.contains(&parent) {
            return Err(format!(
                "an edge from {parent} to {child}, expected a parent in {stripe:?} and a child \
                 below {}",
                seen.len()
            ));
        }
        seen[parent].open += 1;
    }
    Ok(edges)
}

/// A position's scan without its count of moves inside the tier: the nearest lose, the
/// farthest win and the nearest tie below (16 bits each), the flags (8) and the value where
/// the game is over (3: none, or one more than its place in [`Standing::ALL`]).
fn word(s: &Seen) -> u64 {
    let over = s.over.map_or(0, |v| {
        1 + Standing::ALL.iter().position(|&a| a == v).unwrap_or(0) as u64
    });
    s.lose as u64
        | (s.win as u64) << 16
        | (s.tie as u64) << 32
        | (s.flags as u64) << 48
        | over << 56
}

/// The [`Seen`] of a [`word`], with no moves inside the tier counted yet.
fn from_word(w: u64) -> Seen {
    let over = (w >> 56) as usize;
    Seen {
        open: 0,
        lose: w as u16,
        win: (w >> 16) as u16,
        tie: (w >> 32) as u16,
        flags: (w >> 48) as u8,
        over: over
            .checked_sub(1)
            .and_then(|i| Standing::ALL.get(i).copied()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Indexed;
    use crate::solve::exchange::Single;
    use crate::solve::two_player::solve_standings;
    use std::ops::Range;
    use std::sync::{Arc, Barrier, Mutex};

    /// Tiers of rings: in tier `t` (`n` positions), position `i` moves to `i + 1` and `i + 3`
    /// of its ring and to position `i` of the tier below; some positions are ends (lost or
    /// tied), and odd positions of tier 1 are no positions at all.
    struct Rings {
        n: u64,
        tiers: u64,
    }

    impl crate::model::Indexed for Rings {
        fn positions(&self) -> u64 {
            self.n * self.tiers
        }
    }

    impl Tiered for Rings {
        fn tier_count(&self) -> u64 {
            self.tiers
        }
        fn tier(&self, t: u64) -> Range<u64> {
            t * self.n..(t + 1) * self.n
        }
        fn legal(&self, pos: u64) -> bool {
            !(pos / self.n == 1 && pos % 2 == 1)
        }
        fn terminal(&self, pos: u64) -> Option<Standing> {
            match (pos % self.n) % 7 {
                0 if pos / self.n == 0 => Some(Standing::Lose),
                3 => Some(Standing::Tie),
                _ => None,
            }
        }
        fn children<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
            let (t, i) = (pos / self.n, pos % self.n);
            let mut go = |p: u64| {
                if self.legal(p) {
                    f(p)
                }
            };
            go(t * self.n + (i + 1) % self.n);
            go(t * self.n + (i + 3) % self.n);
            if t > 0 {
                go((t - 1) * self.n + i);
            }
        }
        fn moves_bound(&self) -> u64 {
            3
        }
        fn start_index(&self) -> Option<u64> {
            Some(self.positions() - 2)
        }
    }

    /// Processes played by threads: an all-gather through a shared board and a barrier.
    struct Threads {
        rank: usize,
        size: usize,
        board: Arc<(Mutex<Vec<Vec<u64>>>, Barrier)>,
    }

    impl Exchange for Threads {
        fn rank(&self) -> usize {
            self.rank
        }
        fn size(&self) -> usize {
            self.size
        }
        fn all_to_all(&self, _: &[Vec<u64>]) -> Result<Vec<u64>> {
            Err(Error::internal("not used"))
        }
        fn all_gather(&self, mine: &[u64]) -> Result<(Vec<u64>, Vec<usize>)> {
            let (board, barrier) = &*self.board;
            board.lock().unwrap()[self.rank] = mine.to_vec();
            barrier.wait();
            let all = board.lock().unwrap().clone();
            barrier.wait();
            Ok((all.concat(), all.iter().map(|p| p.len()).collect()))
        }
        fn sum(&self, _: &[u64]) -> Result<Vec<u64>> {
            Err(Error::internal("not used"))
        }
        fn barrier(&self) -> Result<()> {
            self.board.1.wait();
            Ok(())
        }
    }

    /// What `size` processes solve: every process's values and the tiers' traffic.
    fn spread(game: &Rings, size: usize) -> Vec<(Vec<u16>, Vec<TierTraffic>)> {
        let board = Arc::new((Mutex::new(vec![Vec::new(); size]), Barrier::new(size)));
        std::thread::scope(|s| {
            let runs: Vec<_> = (0..size)
                .map(|rank| {
                    let x = Threads {
                        rank,
                        size,
                        board: board.clone(),
                    };
                    s.spawn(move || {
                        let mut log = Vec::new();
                        (solve_on(game, false, &x, &(), &mut log).unwrap(), log)
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        })
    }

    #[test]
    fn processes_give_the_values_of_one() {
        for game in [Rings { n: 50, tiers: 3 }, Rings { n: 9, tiers: 4 }] {
            let one = solve_standings(&game, &()).unwrap();
            assert!(one
                .iter()
                .any(|&v| standing::unpack(v as u32).is_some_and(|v| v.1 > 3)));
            let mut log = Vec::new();
            assert_eq!(solve_on(&game, false, &Single, &(), &mut log).unwrap(), one);
            assert!(log.iter().all(|t| t.bytes == 0 && t.messages == 0));
            for size in [2, 3, 4] {
                let runs = spread(&game, size);
                assert_eq!(runs[0].0, one, "{size} processes");
                for (values, log) in &runs {
                    let plain = |v: &[u16]| -> Vec<u16> {
                        v.iter().map(|&e| e & !standing::REACHABLE).collect()
                    };
                    assert_eq!(plain(values), plain(&one));
                    // Each tier: n positions, each of its pieces two header words, and every
                    // legal position's moves inside the tier.
                    let t2 = &log[2];
                    assert_eq!(t2.positions, game.n);
                    let tier2 = game.tier(2);
                    let mut edges = 0;
                    for p in tier2.clone() {
                        if game.legal(p) && game.terminal(p).is_none() {
                            game.children(p, |c| edges += tier2.contains(&c) as u64);
                        }
                    }
                    assert!(edges > 0);
                    assert_eq!(t2.edges, edges);
                    let deepest = one[tier2.start as usize..tier2.end as usize]
                        .iter()
                        .filter_map(|&v| standing::unpack(v as u32))
                        .map(|v| v.1 as u64)
                        .max();
                    assert_eq!(Some(t2.levels), deepest.map(|r| r + 1));
                    let words = (2 * size as u64 + game.n + t2.edges) * 8;
                    assert_eq!(t2.bytes, words * (size as u64 - 1));
                    assert_eq!(t2.messages, (size * (size - 1)) as u64);
                }
            }
        }
    }

    #[test]
    fn a_scan_word_round_trips() {
        for over in [
            None,
            Some(Standing::Win),
            Some(Standing::Tie),
            Some(Standing::Draw),
        ] {
            let s = Seen {
                open: 0,
                lose: 7,
                win: 4095,
                tie: u16::MAX,
                flags: 0xa5,
                over,
            };
            let t = from_word(word(&s));
            assert_eq!(
                (t.lose, t.win, t.tie, t.flags, t.over, t.open),
                (7, 4095, u16::MAX, 0xa5, over, 0)
            );
        }
    }
}
