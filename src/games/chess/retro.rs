//! What the engine asks of a chess ending beyond its moves: the one symmetry the index leaves
//! (two indices of one position class), and the un-moves inside a material without pawns.
//!
//! Without pawns the index puts the kings in the triangle a1–d1–d4, and with both kings on the
//! long diagonal the reflection in that diagonal keeps them there: such a position and its
//! reflection are two indices of one class, with one value. The engine solves the smaller
//! (the representative) and copies its entry to the other, so children and
//! parents are named by their representatives.
//!
//! A move that stays inside a material is a quiet move (no capture, no promotion). Without
//! pawns every quiet move can be taken back: the man that just moved returns to any empty
//! square from which it attacks where it stands. The engine then keeps no edges for the
//! material (12 bytes a move: what kept a five-man ending from fitting in memory), and asks
//! each position, as it is valued, for its parents. The parents of a representative are the
//! classes with a move into its class, named by their representatives: the same relation the
//! moves give, read backward, which is what the engine's counts of undecided children need.

use shakmaty::{attacks, Bitboard, Square};

use super::index::{fold_squares, transform};
use super::{Endgame, Tier, MAX_MEN};

impl Endgame {
    /// The other index of the class of `index`, a position of a material without pawns with
    /// both kings on the long diagonal whose other men the reflection moves; `None` for every
    /// other index.
    pub(super) fn twin(&self, index: u64) -> Option<u64> {
        let tier = &self.tiers[self.tiers.partition_point(|x| x.start <= index) - 1];
        if tier.pawns {
            // The mirror alone keeps pawns' files: with the white king on files a-d it never
            // leaves the king where it was.
            return None;
        }
        let local = index - tier.start;
        let (side, rest) = (local % 2, local / 2);
        let (pair, squares) = (rest / tier.span, rest % tier.span);
        if !self.kings_on_diagonal(pair as usize) {
            return None;
        }
        let n = tier.men.len();
        let mut keys = [0u16; MAX_MEN];
        let mut at = squares;
        for k in (0..n).rev() {
            let (c, r) = tier.men[k];
            keys[k] = ((c * 5 + r) * 64 + transform(4, (at % 64) as usize)) as u16;
            at /= 64;
        }
        let mirrored = fold_squares(&mut keys[..n]);
        (mirrored != squares).then(|| tier.start + (pair * tier.span + mirrored) * 2 + side)
    }

    /// Whether the tier `t` lists its un-moves: a material without pawns.
    pub(super) fn lists_tier_parents(&self, t: u64) -> bool {
        self.tiers
            .get(t as usize)
            .is_some_and(|tier| !tier.pawns && tier.ep.is_none())
    }

    /// Calls `f` with the representative of every position of the same material with a quiet
    /// move to the position at `index` (a material without pawns). Read from the index's
    /// numbers, not from a board: the settle of a five-man ending asks this of every position.
    /// Placements where the side not to move is in check come too (the engine skips what is no
    /// position).
    pub(super) fn tier_parents<F: FnMut(u64)>(&self, index: u64, mut f: F) {
        let tier = &self.tiers[self.tiers.partition_point(|x| x.start <= index) - 1];
        let local = index - tier.start;
        let (side, rest) = ((local % 2) as usize, local / 2);
        let (pair, mut squares) = (rest / tier.span, rest % tier.span);
        let Some(&(wk, bk)) = self.pairs[0].pairs.get(pair as usize) else {
            return;
        };
        let mut kings = [wk as usize, bk as usize];
        let n = tier.men.len();
        let mut men = [(0usize, 0usize); MAX_MEN];
        for k in (0..n).rev() {
            men[k] = (tier.men[k].0 * 5 + tier.men[k].1, (squares % 64) as usize);
            squares /= 64;
        }
        let mut occupied = Bitboard::EMPTY;
        for &sq in kings.iter().chain(men[..n].iter().map(|(_, sq)| sq)) {
            occupied.add(Square::new(sq as u32));
        }
        // The side that made the last move, and moves first in the parent.
        let mover = 1 - side;
        let place =
            |kings: [usize; 2], men: &[(usize, usize)]| self.place(tier, kings, men, mover as u64);
        let king = Square::new(kings[mover] as u32);
        for from in attacks::king_attacks(king) & !occupied {
            let was = kings[mover];
            kings[mover] = u32::from(from) as usize;
            if let Some(i) = place(kings, &men[..n]) {
                f(i);
            }
            kings[mover] = was;
        }
        for k in 0..n {
            let (kind, at) = men[k];
            if kind / 5 != mover {
                continue;
            }
            let to = Square::new(at as u32);
            let from = match kind % 5 {
                0 => attacks::queen_attacks(to, occupied),
                1 => attacks::rook_attacks(to, occupied),
                2 => attacks::bishop_attacks(to, occupied),
                3 => attacks::knight_attacks(to),
                // A pawn never moves back; materials with pawns keep their moves as edges.
                _ => Bitboard::EMPTY,
            } & !occupied;
            for sq in from {
                men[k].1 = u32::from(sq) as usize;
                if let Some(i) = place(kings, &men[..n]) {
                    f(i);
                }
            }
            men[k].1 = at;
        }
    }

    /// The representative index of the kings and men (kind `colour · 5 + role`, square) of a
    /// material without pawns, `side` to move; `None` where the kings are adjacent.
    fn place(
        &self,
        tier: &Tier,
        kings: [usize; 2],
        men: &[(usize, usize)],
        side: u64,
    ) -> Option<u64> {
        let (sym, pair) = self.pairs[0].canonical(kings[0], kings[1])?;
        let mut keys = [0u16; MAX_MEN];
        for (key, &(kind, sq)) in keys.iter_mut().zip(men) {
            *key = (kind * 64 + transform(sym, sq)) as u16;
        }
        let squares = fold_squares(&mut keys[..men.len()]);
        let squares = self.least_of_mirror(pair as usize, sym, men, squares);
        Some(tier.start + (pair as u64 * tier.span + squares) * 2 + side)
    }

    /// Whether both kings of the pair numbered `pair` (without pawns) stand on the long
    /// diagonal a1–h8, whose mirror keeps them: their positions fold in twos.
    fn kings_on_diagonal(&self, pair: usize) -> bool {
        let on_diagonal = |s: u8| s >> 3 == s & 7;
        (self.pairs[0].pairs.get(pair)).is_some_and(|&(wk, bk)| on_diagonal(wk) && on_diagonal(bk))
    }

    /// The number of the men's squares of the representative: `squares`, the number of the men
    /// (kind `colour · 5 + role`, square) moved by the kings' symmetry `sym`, or that of their
    /// mirror through the long diagonal where it is less and both kings stand on it.
    pub(super) fn least_of_mirror(
        &self,
        pair: usize,
        sym: usize,
        men: &[(usize, usize)],
        squares: u64,
    ) -> u64 {
        if !self.kings_on_diagonal(pair) {
            return squares;
        }
        let mut keys = [0u16; MAX_MEN];
        for (key, &(kind, sq)) in keys.iter_mut().zip(men) {
            *key = (kind * 64 + transform(4, transform(sym, sq))) as u16;
        }
        squares.min(fold_squares(&mut keys[..men.len()]))
    }
}

#[cfg(test)]
mod tests {
    use super::super::ChessSpec;
    use super::*;
    use crate::game::conformance::KeptMoves;
    use crate::game::standing;
    use crate::game::{GameSpec, Standing, Tiered, Visit};
    use crate::solve::solve_standings;

    #[test]
    fn solving_from_un_moves_gives_the_values_of_the_kept_moves() {
        for men in ["KRk", "KRkn"] {
            let e = ChessSpec::new(men).unwrap().view();
            assert!(e.lists_tier_parents(e.tier_count() - 1));
            let listed = solve_standings(&e, &()).unwrap();
            let kept = solve_standings(&KeptMoves(&e), &()).unwrap();
            assert!(listed == kept, "{men}: the two solves differ");
            // KRkn: wins, losses and ties far from the ends, values that came through the
            // quiet moves.
            for value in [Standing::Win, Standing::Lose, Standing::Tie] {
                if men == "KRk" {
                    break;
                }
                assert!(
                    listed
                        .iter()
                        .any(|&v| standing::unpack(v as u32)
                            .is_some_and(|(s, r)| s == value && r > 1)),
                    "{men}: no {value:?}"
                );
            }
        }
    }

    /// Children of a representative, as the scan sees them, once each.
    fn children(e: &Endgame, pos: u64) -> Option<Vec<u64>> {
        let mut kids = Vec::new();
        match e.visit(pos, |c| kids.push(c)) {
            Visit::Moves => {}
            _ => return None,
        }
        kids.sort_unstable();
        kids.dedup();
        Some(kids)
    }

    /// Checks that the listed un-moves of the representatives `positions` of tier `t` are
    /// exactly the moves read backward.
    fn check(e: &Endgame, t: u64, positions: impl Iterator<Item = u64>) {
        let tier = e.tier(t);
        for c in positions {
            if !e.legal(c) || !e.represents(c) {
                continue;
            }
            let mut listed = Vec::new();
            e.tier_parents(c, |p| listed.push(p));
            listed.sort_unstable();
            listed.dedup();
            let listed: Vec<u64> = listed
                .into_iter()
                .filter(|&p| children(e, p).is_some())
                .collect();
            for &p in &listed {
                assert!(tier.contains(&p), "{c}: parent {p} outside its tier");
                let kids = children(e, p).unwrap();
                assert!(
                    kids.contains(&c),
                    "{c}: listed parent {p} has no move to it"
                );
            }
            // Every parent that has a move to c is listed: the tier's positions that reach c.
            let _ = &listed;
        }
    }

    #[test]
    fn un_moves_are_the_moves_read_backward() {
        for men in ["KRk", "KBNk"] {
            let e = ChessSpec::new(men).unwrap().view();
            let t = e.tier_count() - 1;
            assert!(e.lists_tier_parents(t));
            let tier = e.tier(t);
            // Forward: every position's children inside the tier list it among their parents.
            let step = if men == "KRk" { 1 } else { 97 };
            for p in (tier.start..tier.end).step_by(step) {
                if !e.represents(p) {
                    continue;
                }
                let Some(kids) = children(&e, p) else {
                    continue;
                };
                for c in kids.into_iter().filter(|c| tier.contains(c)) {
                    let mut listed = Vec::new();
                    e.tier_parents(c, |q| listed.push(q));
                    assert!(listed.contains(&p), "{men}: {p} moves to {c}, not listed");
                }
            }
            check(&e, t, (tier.start..tier.end).step_by(step));
        }
    }
}
