//! The rare/common ("sparse space") solver of octal games (Gangolli & Plambeck 1989;
//! Flammenkamp): the values of [`super::plain_values`], usually hundreds of times faster.
//!
//! A mask `M` splits values in two classes by the parity of the bits of `v & M`: *rare*
//! (even, 0 among them) and *common* (odd). The class of `a xor b` is the xor of the classes,
//! so a move that leaves two common heaps has a rare value: the common values a heap reaches
//! come only from moves that leave one heap, or two of which one is rare. The rare heaps are
//! few and listed, so those moves give the smallest common value `c` not reached, exactly.
//! `G(n)` is `c` unless a smaller rare value is not reached; each rare value below `c` not
//! yet reached is looked for among the other pairs of heaps, smallest heap first, many pairs
//! at a time (usually found within a few dozen; a full scan when not, and then `G(n)` is the
//! smallest rare value not found). Exact for any mask; the mask is chosen from the counts of
//! the values (the one with the fewest rare heaps) when the heap doubles and when the rare
//! heaps have more than doubled since the last choice (a rare value appeared outside the
//! mask's).
//!
//! Values are kept in one byte each while they fit, in two from the first that does not
//! (the values so far are widened then), so a table of 2^32 heaps of a game whose values stay
//! below 256 needs 4 GiB.
//!
//! The solve saves the values solved so far through [`Saves::finished_bytes`] every block of
//! `BLOCK` heaps (the saves decide whether a save is due), and resumes from them.

mod ahead;
mod marks;
mod search;

use std::borrow::Cow;

use crate::progress::Progress;
use crate::solve::{Saves, Wave};
use crate::{Error, Result};

use marks::Marks;
use search::Search;

pub(super) use marks::choose_mask;

/// Heaps between two offers to save.
pub(crate) const BLOCK: usize = 1 << 20;

/// Heaps solved exactly, one by one, after a rare value before values are guessed again on
/// several threads (rare values come in clusters early on, where guesses would fail often).
const CALM: usize = 4096;

/// One value's storage: a byte or two.
pub(crate) trait Width:
    Copy + Default + Eq + Ord + Send + Sync + std::fmt::Debug + 'static
{
    /// Bytes a value.
    const BYTES: usize;
    /// The value.
    fn get(self) -> usize;
    /// `v`, which fits.
    fn of(v: usize) -> Self;
    /// The values as little-endian bytes (borrowed where the machine's order is that).
    fn bytes(values: &[Self]) -> Cow<'_, [u8]>;
    /// The values when they are two bytes each.
    fn wide(values: &[Self]) -> Option<&[u16]>;
}

impl Width for u8 {
    const BYTES: usize = 1;
    fn get(self) -> usize {
        self as usize
    }
    fn of(v: usize) -> u8 {
        v as u8
    }
    fn bytes(values: &[u8]) -> Cow<'_, [u8]> {
        Cow::Borrowed(values)
    }
    fn wide(_: &[u8]) -> Option<&[u16]> {
        None
    }
}

impl Width for u16 {
    const BYTES: usize = 2;
    fn get(self) -> usize {
        self as usize
    }
    fn of(v: usize) -> u16 {
        v as u16
    }
    fn bytes(values: &[u16]) -> Cow<'_, [u8]> {
        Cow::Owned(values.iter().flat_map(|v| v.to_le_bytes()).collect())
    }
    fn wide(values: &[u16]) -> Option<&[u16]> {
        Some(values)
    }
}

/// The values of heaps `0..=N`, in the width they needed.
#[derive(Debug, PartialEq, Eq)]
pub enum Nimbers {
    /// Every value below 256.
    Bytes(Vec<u8>),
    /// Some value 256 or more.
    Wide(Vec<u16>),
}

impl Nimbers {
    /// As two-byte values.
    pub(crate) fn into_wide(self) -> Vec<u16> {
        match self {
            Nimbers::Bytes(v) => v.into_iter().map(u16::from).collect(),
            Nimbers::Wide(v) => v,
        }
    }
}

/// The solve's name in its saves, by width (a save of one byte a value resumes as such).
fn solve_name(bytes: usize, max_heap: u32) -> String {
    format!("octal rare/common to heap {max_heap}, {bytes} byte(s) a value")
}

/// The moves of a code, by kind: `take[k]` leaves one heap, `split[k]` two.
struct Moves {
    take: Vec<usize>,
    split: Vec<usize>,
}

/// Solves heaps `0..=max_heap` of the octal code `digits` (`digits[k]` is `dk`; some digit
/// allows a split), starting from `warm`, the values of the first heaps by the plain method.
pub fn solve(
    digits: &[u8],
    max_heap: u32,
    warm: Vec<u16>,
    progress: &dyn Progress,
    saves: &dyn Saves,
) -> Result<Nimbers> {
    let pace = Pace {
        block: BLOCK,
        threads: rayon::current_num_threads(),
        calm: CALM,
    };
    solve_in_blocks(digits, max_heap, warm, progress, saves, pace)
}

/// How a solve goes: a save offered every `block` heaps, on `threads` threads, guessing
/// again `calm` heaps after rare values close together.
#[derive(Clone, Copy)]
struct Pace {
    block: usize,
    threads: usize,
    calm: usize,
}

/// [`solve`] at a given pace.
fn solve_in_blocks(
    digits: &[u8],
    max_heap: u32,
    warm: Vec<u16>,
    progress: &dyn Progress,
    saves: &dyn Saves,
    pace: Pace,
) -> Result<Nimbers> {
    let Pace {
        block,
        threads,
        calm,
    } = pace;
    let moves = Moves {
        take: (1..digits.len()).filter(|&k| digits[k] & 2 != 0).collect(),
        split: (0..digits.len()).filter(|&k| digits[k] & 4 != 0).collect(),
    };
    let n_all = max_heap as usize + 1;
    let waves = n_all.div_ceil(block);
    // Resume from a save of either width, or start from the warm values.
    let narrow = solve_name(1, max_heap);
    let wide = solve_name(2, max_heap);
    let resumed = saves.resume_bytes(&[&narrow, &wide], (n_all * 2) as u64)?;
    // The values to start from, in the width they were saved in (no copy of a narrow save).
    let start = match resumed {
        Some((name, at, bytes)) => {
            let is_wide = name == wide;
            let width = if is_wide { 2 } else { 1 };
            if bytes.len() as u64 != at.done * width || at.done as usize > n_all {
                return Err(Error::bad(format!(
                    "the checkpoint holds {} bytes for {} heaps of {width} byte(s) each; it \
                     cannot be resumed (remove it to start afresh)",
                    bytes.len(),
                    at.done
                )));
            }
            progress.inc(at.done);
            if is_wide {
                Nimbers::Wide(
                    bytes
                        .chunks_exact(2)
                        .map(|b| u16::from_le_bytes([b[0], b[1]]))
                        .collect(),
                )
            } else {
                Nimbers::Bytes(bytes)
            }
        }
        None => {
            progress.inc(warm.len() as u64);
            if warm.iter().all(|&v| v <= 255) {
                Nimbers::Bytes(warm.into_iter().map(|v| v as u8).collect())
            } else {
                Nimbers::Wide(warm)
            }
        }
    };
    let ctx = Context {
        digits,
        moves: &moves,
        n_all,
        waves,
        block,
        threads,
        calm,
        progress,
        saves,
    };
    let g = match start {
        Nimbers::Wide(g) => return finish_wide(&ctx, g, &wide),
        Nimbers::Bytes(g) => g,
    };
    match run::<u8>(&ctx, g, &narrow)? {
        Run::Done(g) => Ok(Nimbers::Bytes(g)),
        Run::Overflow(g) => {
            let mut w: Vec<u16> = Vec::new();
            w.try_reserve_exact(n_all)
                .map_err(|_| Error::Unsupported("not enough memory to widen".into()))?;
            w.extend(g.iter().map(|&v| v as u16));
            drop(g);
            finish_wide(&ctx, w, &wide)
        }
    }
}

fn finish_wide(ctx: &Context, g: Vec<u16>, name: &str) -> Result<Nimbers> {
    match run::<u16>(ctx, g, name)? {
        Run::Done(g) => Ok(Nimbers::Wide(g)),
        Run::Overflow(g) => Err(crate::games::octal::too_large(
            &crate::games::octal::Code::Octal(ctx.digits.to_vec()),
            g.len(),
        )),
    }
}

struct Context<'a> {
    digits: &'a [u8],
    moves: &'a Moves,
    n_all: usize,
    waves: usize,
    block: usize,
    threads: usize,
    /// Heaps solved exactly after a rare value before guessing again (several threads).
    calm: usize,
    progress: &'a dyn Progress,
    saves: &'a dyn Saves,
}

enum Run<V> {
    /// Every value.
    Done(Vec<V>),
    /// The values before the first that does not fit this width.
    Overflow(Vec<V>),
}

/// Offers a save when `done` heaps end a block, and reports progress.
fn done_up_to<V: Width>(ctx: &Context, name: &str, g: &[V], reported: &mut usize) -> Result<()> {
    let done = g.len();
    if done % ctx.block == 0 || done == ctx.n_all {
        ctx.progress.inc((done - *reported) as u64);
        *reported = done;
        let at = Wave {
            next: done / ctx.block,
            waves: ctx.waves,
            done: done as u64,
        };
        if done < ctx.n_all {
            ctx.saves.finished_bytes(name, at, &V::bytes(g))?;
        }
    } else if done - *reported >= 4096 {
        ctx.progress.inc((done - *reported) as u64);
        *reported = done;
    }
    Ok(())
}

/// Room for every value, or a clear refusal.
fn reserve<V: Width>(g: &mut Vec<V>, n_all: usize) -> Result<()> {
    if g.capacity() < n_all {
        g.try_reserve_exact(n_all - g.len()).map_err(|_| {
            Error::Unsupported(format!(
                "not enough memory for {n_all} values of {} byte(s)",
                V::BYTES
            ))
        })?;
    }
    Ok(())
}

/// Extends `g` (the values of heaps `0..g.len()`) to every heap, in values of width `V`: on
/// one thread, or guessing ahead on one and checking the guesses on the others.
fn run<V: Width>(ctx: &Context, g: Vec<V>, name: &str) -> Result<Run<V>> {
    if ctx.threads > 1 {
        ahead::run(ctx, g, name)
    } else {
        run_one(ctx, g, name)
    }
}

/// [`run`] on one thread.
fn run_one<V: Width>(ctx: &Context, mut g: Vec<V>, name: &str) -> Result<Run<V>> {
    reserve(&mut g, ctx.n_all)?;
    let mut st = Marks::new(&g);
    let mut search = Search::<V>::new();
    let mut reported = g.len();
    while g.len() < ctx.n_all {
        let n = g.len();
        let (value, _) = st.exact(ctx.moves, &mut search, &g);
        if value >= st.limit {
            return Ok(Run::Overflow(g));
        }
        st.record(ctx, n, value)?;
        g.push(V::of(value));
        done_up_to(ctx, name, &g, &mut reported)?;
    }
    Ok(Run::Done(g))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::WordBits;
    use std::sync::Mutex;

    /// Saves every offer; resumes from a given save.
    #[derive(Default)]
    struct Recorder {
        saved: Mutex<Vec<(String, Wave, Vec<u8>)>>,
        from: Option<(String, Wave, Vec<u8>)>,
    }

    impl Saves for Recorder {
        fn resume(&self, _: &str, _: u64) -> Result<Option<(Wave, WordBits)>> {
            Ok(None)
        }
        fn finished_wave(&self, _: &str, _: Wave, _: &WordBits) -> Result<()> {
            Ok(())
        }
        fn resume_bytes(&self, solves: &[&str], _: u64) -> Result<Option<(String, Wave, Vec<u8>)>> {
            if let Some((name, _, _)) = &self.from {
                assert!(solves.contains(&name.as_str()));
            }
            Ok(self.from.clone())
        }
        fn finished_bytes(&self, solve: &str, at: Wave, bytes: &[u8]) -> Result<()> {
            self.saved
                .lock()
                .unwrap()
                .push((solve.into(), at, bytes.to_vec()));
            Ok(())
        }
    }

    #[test]
    fn a_solve_resumed_from_any_save_ends_with_the_same_values_in_either_width() {
        // Officers (0.6) passes value 255 near heap 60,000: saves of one byte a value before
        // it, of two after. Its rare heaps go on to heap 20,627: guesses fail and are redone
        // on several threads, and the saves are the same bytes at any thread count.
        let code = crate::games::octal::Code::parse("0.6").unwrap();
        let digits = match &code {
            crate::games::octal::Code::Octal(d) => d.clone(),
            _ => unreachable!(),
        };
        let max = 90_000;
        let warm = || crate::games::octal::plain_values(&code, 255, &()).unwrap();
        let plain = crate::games::octal::plain_values(&code, max, &()).unwrap();
        let mut first: Option<Vec<(String, Wave, Vec<u8>)>> = None;
        for (threads, calm) in [(1, CALM), (2, CALM), (3, 0), (2, 100)] {
            let rec = Recorder::default();
            let full = solve_in_blocks(
                &digits,
                max,
                warm(),
                &(),
                &rec,
                Pace {
                    block: 10_000,
                    threads,
                    calm,
                },
            )
            .unwrap();
            assert!(matches!(full, Nimbers::Wide(_)));
            assert_eq!(full.into_wide(), plain, "{threads} threads");
            let saved = rec.saved.into_inner().unwrap();
            assert_eq!(
                saved.len(),
                9,
                "a save offered every 10,000 heaps, before the last heap"
            );
            let widths: Vec<usize> = saved
                .iter()
                .map(|(_, at, b)| b.len() / at.done as usize)
                .collect();
            assert!(widths.contains(&1) && widths.contains(&2), "{widths:?}");
            match &first {
                None => first = Some(saved),
                Some(f) => assert!(*f == saved, "the saves at {threads} threads differ"),
            }
        }
        let full = solve_in_blocks(
            &digits,
            max,
            warm(),
            &(),
            &(),
            Pace {
                block: 10_000,
                threads: 1,
                calm: CALM,
            },
        )
        .unwrap();
        for s in first.unwrap() {
            for threads in [1, 2] {
                let from = Recorder {
                    from: Some(s.clone()),
                    ..Default::default()
                };
                let resumed = solve_in_blocks(
                    &digits,
                    max,
                    warm(),
                    &(),
                    &from,
                    Pace {
                        block: 10_000,
                        threads,
                        calm: 0,
                    },
                )
                .unwrap();
                assert_eq!(
                    resumed, full,
                    "resumed from {} heaps ({}), {threads} threads",
                    s.1.done, s.0
                );
            }
        }
    }

    #[test]
    fn guesses_checked_on_other_threads_give_the_plain_values() {
        // Codes with rare heaps early and late (0.16, 0.127, 4.344), a value past 255 (0.6
        // beyond), a split without taking (4.), short blocks so batches end often.
        for (text, max) in [
            ("0.16", 20_000u32),
            ("0.127", 12_000),
            ("0.137", 5_000),
            ("0.6", 70_000),
            ("4.344", 6_000),
            ("0.4", 3_000),
            ("0.167", 30_000),
            ("0.53", 8_000),
        ] {
            let code = crate::games::octal::Code::parse(text).unwrap();
            let digits = match &code {
                crate::games::octal::Code::Octal(d) => d.clone(),
                _ => unreachable!(),
            };
            let plain = crate::games::octal::plain_values(&code, max, &()).unwrap();
            let warm = crate::games::octal::plain_values(&code, 255.min(max), &()).unwrap();
            // Guessing from the start (calm 0: every rare value is a failed guess), after
            // short and the usual calm stretches.
            for (threads, block, calm) in
                [(2, 1 << 20, 0), (3, 1000, 0), (2, 37, 50), (2, 5000, CALM)]
            {
                let got = solve_in_blocks(
                    &digits,
                    max,
                    warm.clone(),
                    &(),
                    &(),
                    Pace {
                        block,
                        threads,
                        calm,
                    },
                )
                .unwrap();
                assert_eq!(
                    got.into_wide(),
                    plain,
                    "{text} to {max}, {threads} threads, blocks of {block}"
                );
            }
        }
    }
}
