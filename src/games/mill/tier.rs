//! The tiers of a mill game: the men of each side in hand and on the board, which of them play
//! reaches, and in what order the engine solves them.

use std::collections::{BTreeSet, HashMap};

use crate::games::cells::Cells;

/// A tier: men in hand and on the board of each side, and whether Lasker's rule is played
/// (the same for every tier of a game; it says how the counts tell who moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Tier {
    pub(super) hand: [u32; 2],
    pub(super) board: [u32; 2],
    pub(super) lasker: bool,
}

impl Tier {
    pub(super) fn placing(&self) -> bool {
        self.hand[0] + self.hand[1] > 0
    }
    /// The side to move when the counts say it (0 for x, 1 for o), `None` when either may be.
    /// Without Lasker's rule players place in turn, so the hands say it while placing. With it
    /// a side with no man on the board is to move (x at the start): a turn places a man or
    /// moves one, which leaves the mover a man on the board.
    pub(super) fn fixed(&self) -> Option<usize> {
        if self.lasker {
            (0..2).find(|&s| self.board[s] == 0)
        } else {
            self.placing()
                .then_some(usize::from(self.hand[0] != self.hand[1]))
        }
    }
    /// Whether a move of this tier may stay in it (a man moved, no man removed).
    pub(super) fn keeps_moves(&self) -> bool {
        self.lasker || !self.placing()
    }
    pub(super) fn sides(&self) -> u64 {
        if self.fixed().is_some() {
            1
        } else {
            2
        }
    }
    pub(super) fn size(&self, cells: &Cells) -> u64 {
        cells.class_size(self.board[0] as usize, self.board[1] as usize) * self.sides()
    }
    pub(super) fn left(&self, side: usize) -> u32 {
        self.hand[side] + self.board[side]
    }
    /// The order of tiers: men left in the game, then men in hand, then the counts.
    fn key(&self) -> (u32, u32, [u32; 2], [u32; 2]) {
        (
            self.left(0) + self.left(1),
            self.hand[0] + self.hand[1],
            self.hand,
            self.board,
        )
    }
}

/// The tiers the start reaches (or, for an endgame of at most `k` men a side, those its moving
/// tiers of three men a side or more reach), in solving order, and the tier of each count.
pub(super) fn tiers(
    men: u32,
    points: usize,
    endgame: Option<u32>,
    lasker: bool,
) -> (Vec<Tier>, HashMap<Tier, usize>) {
    let seeds: Vec<Tier> = match endgame {
        None => vec![Tier {
            hand: [men, men],
            board: [0, 0],
            lasker,
        }],
        Some(k) => (3..=k)
            .flat_map(|a| (3..=k).map(move |b| (a, b)))
            .filter(|&(a, b)| (a + b) as usize <= points)
            .map(|(a, b)| Tier {
                hand: [0, 0],
                board: [a, b],
                lasker,
            })
            .collect(),
    };
    let mut seen: BTreeSet<Tier> = seeds.iter().copied().collect();
    let mut todo = seeds;
    while let Some(t) = todo.pop() {
        let sides: Vec<usize> = match t.fixed() {
            Some(s) => vec![s],
            None => vec![0, 1],
        };
        for s in sides {
            if t.left(s) <= 2 || t.left(1 - s) <= 2 {
                continue;
            }
            // The counts after a placement, and after a move (the same tier) where one may be.
            let mut after = Vec::new();
            if t.hand[s] > 0 {
                let mut placed = t;
                placed.hand[s] -= 1;
                placed.board[s] += 1;
                after.push(placed);
            }
            if (t.hand[s] == 0 || lasker) && t.board[s] > 0 {
                after.push(t);
            }
            let mut next = after.clone();
            for a in after {
                if a.board[s] >= 3 && a.board[1 - s] >= 1 {
                    let mut taken = a;
                    taken.board[1 - s] -= 1;
                    next.push(taken);
                }
            }
            for n in next {
                if (n.board[0] + n.board[1]) as usize <= points && seen.insert(n) {
                    todo.push(n);
                }
            }
        }
    }
    let mut list: Vec<Tier> = seen.into_iter().collect();
    list.sort_by_key(|t| t.key());
    let of = list.iter().enumerate().map(|(i, &t)| (t, i)).collect();
    (list, of)
}
