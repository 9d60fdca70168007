//! The engine against brute force on small games with cycles, at one and two threads.

use std::ops::Range;

use super::solve_standings;
use crate::format::entries::standing;
use crate::model::{Indexed, Standing, Tiered};

/// A toy with cycles: positions 0..n on a ring inside one tier, each with moves to the
/// next two positions, some positions marked as lost or tied ends; and a tier above that
/// moves into it.
struct Ring {
    n: u64,
    ends: Vec<(u64, Standing)>,
}

impl Indexed for Ring {
    fn positions(&self) -> u64 {
        self.n + 1
    }
}

impl Tiered for Ring {
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

impl Indexed for Mirror {
    fn positions(&self) -> u64 {
        self.n + 1
    }
}

impl Tiered for Mirror {
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
