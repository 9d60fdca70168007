//! What the engine asks of a chess ending beyond its moves: the one symmetry the index leaves
//! (two indices of one position class), and the un-moves inside a material.
//!
//! Without pawns the index puts the kings in the triangle a1–d1–d4, and with both kings on the
//! long diagonal the reflection in that diagonal keeps them there: such a position and its
//! reflection are two indices of one class, with one value. The engine solves the smaller
//! (the representative) and copies its entry to the other, so children and
//! parents are named by their representatives.
//!
//! A move that stays inside a tier is a quiet move of a piece or a king (a capture, a
//! promotion and a pawn's move lead to another tier, see [`index`](super::index)), and every
//! one can be taken back: the man that just moved returns to any empty square from which it
//! attacks where it stands (see [`tier_parents`](Endgame::tier_parents) for en passant). The
//! engine then keeps no edges for the tier (12 bytes a move: what kept the five-man endings
//! from fitting in memory), and
//! asks each position, as it is valued, for its parents. The parents of a representative are the
//! classes with a move into its class, named by their representatives: the same relation the
//! moves give, read backward, which is what the engine's counts of undecided children need.

use shakmaty::{attacks, Bitboard, Board, Piece, Square};

use super::index::{fold_squares, transform};
use super::{colour, on_long_diagonal, Decoded, Endgame, Part, MAX_MEN, ROLE_OF};

/// Whether `side` to move has a legal en passant capture of the pawn of `men` (kind `colour · 5 +
/// role`, square) on `landed`, which has just crossed `crossed`. Cheap first: a pawn of `side`
/// beside it; then the rules.
fn ep_legal(
    kings: &[usize; 2],
    men: &[(usize, usize)],
    side: usize,
    landed: usize,
    crossed: usize,
) -> bool {
    let beside = men
        .iter()
        .any(|&(kind, s)| kind == side * 5 + 4 && s / 8 == landed / 8 && s.abs_diff(landed) == 1);
    let ep = Some(Square::new(crossed as u32));
    beside && super::fen::position(board_of(kings, men), colour(side), ep).is_ok()
}

/// The board of the kings and men (kind `colour · 5 + role`, square).
fn board_of(kings: &[usize; 2], men: &[(usize, usize)]) -> Board {
    let mut board = Board::empty();
    for (c, &sq) in kings.iter().enumerate() {
        let king = Piece {
            color: colour(c),
            role: shakmaty::Role::King,
        };
        board.set_piece_at(Square::new(sq as u32), king);
    }
    for &(kind, sq) in men {
        let p = Piece {
            color: colour(kind / 5),
            role: ROLE_OF[kind % 5],
        };
        board.set_piece_at(Square::new(sq as u32), p);
    }
    board
}

impl Endgame {
    /// The other index of the class of `index`, a position of a material without pawns with
    /// both kings on the long diagonal whose other men the reflection moves; `None` for every
    /// other index.
    pub(super) fn twin(&self, index: u64) -> Option<u64> {
        self.twin_in(&self.parts[self.part_at(index)], index)
    }

    /// [`twin`](Endgame::twin) of an index of `part`.
    pub(super) fn twin_in(&self, part: &Part, index: u64) -> Option<u64> {
        let tier = &self.tiers[part.tier];
        if tier.pawns {
            // Only the mirror of files keeps pawns' moves, and it is chosen by the pawns (or,
            // where they are their own mirror, by the white king on files a–d): no index of a
            // tier with pawns is another's image.
            return None;
        }
        let local = index - part.start;
        let (side, rest) = (local % 2, local / 2);
        let (pair, squares) = (rest >> tier.span.trailing_zeros(), rest & (tier.span - 1));
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
        (mirrored != squares).then(|| part.index(tier.span, pair, mirrored, side))
    }

    /// Whether the tier `t` lists its un-moves: every one does.
    pub(super) fn lists_tier_parents(&self, t: u64) -> bool {
        (t as usize) < self.parts.len()
    }

    /// Calls `f` with the representative of every position of the same tier with a move to the
    /// position at `index`: a quiet move of a piece or a king. Read from the index's numbers,
    /// not from a board: the settle of a five-man ending asks this of every position.
    /// Placements where the side not to move is in check come too (the engine skips what is no
    /// position).
    ///
    /// The man that just moved returns to any empty square from which it reaches where it
    /// stands. A position of the en passant block came by a double push, from another tier,
    /// and has no parent here. And in a material with pawns of both sides each parent comes
    /// also with every en passant square the other side's last move can have left.
    ///
    /// Says whether each parent came once: where two un-moves lead to one class, a symmetry of
    /// the tier maps one parent to the other and fixes the square of the king that did not
    /// move (as it stands in both); no symmetry of a tier with pawns fixes a square (the
    /// mirror of files), and of a tier without, only the reflections in the long diagonals,
    /// their squares (see `Endgame::fixed_by_diagonal`, the same reading of moves forward).
    pub(super) fn tier_parents<F: FnMut(u64)>(&self, index: u64, mut f: F) -> bool {
        let Decoded {
            part,
            side,
            mut kings,
            men: men_of,
            at,
            file,
            ..
        } = self.decode(index);
        if file.is_some() {
            return true;
        }
        let n = men_of.len();
        let mut men = [(0usize, 0usize); MAX_MEN];
        for k in 0..n {
            men[k] = (men_of[k].0 * 5 + men_of[k].1, at[k]);
        }
        // The side that made the last move, and moves first in the parent.
        let mover = 1 - side;
        let mut occupied = Bitboard::EMPTY;
        for &sq in kings.iter().chain(men[..n].iter().map(|(_, sq)| sq)) {
            occupied.add(Square::new(sq as u32));
        }
        let tier = &self.tiers[part.tier];
        let Some((sym, pair)) = self.pairs[part.kings].canonical(kings[0], kings[1]) else {
            return true;
        };
        let once = tier.pawns || !on_long_diagonal(kings[side]);
        // The number of the pieces' squares as they stand (outside the en passant block) is
        // the parent's too where the king's un-move leaves the frame as it is (the identity) and its
        // mirror out of play: only the kings' pair changes then.
        let squares = (sym == 0).then_some(((index - part.start) / 2) & (tier.span - 1));
        let king = Square::new(kings[mover] as u32);
        for from in attacks::king_attacks(king) & !occupied {
            let was = kings[mover];
            kings[mover] = u32::from(from) as usize;
            let i = match (
                squares,
                self.pairs[part.kings].canonical(kings[0], kings[1]),
            ) {
                (_, None) => None,
                (Some(squares), Some((0, p)))
                    if tier.pawns || !self.kings_on_diagonal(p as usize) =>
                {
                    Some(part.index(tier.span, u64::from(p), squares, mover as u64))
                }
                _ => self.place(part, kings, &men[..n], mover as u64),
            };
            self.parents_at(part, i, kings, &men[..n], mover, &mut f);
            kings[mover] = was;
        }
        // A piece's un-move keeps the kings, so their symmetry and pair, and the other men's
        // keys: one key changes, which the rest are sorted around.
        let mut keys = [0u16; MAX_MEN];
        let mut slot = [usize::MAX; MAX_MEN];
        let mut pieces = 0;
        for (k, &(kind, sq)) in men[..n].iter().enumerate() {
            if kind % 5 != 4 {
                keys[pieces] = (kind * 64 + transform(sym, sq)) as u16;
                slot[k] = pieces;
                pieces += 1;
            }
        }
        let diagonal = !tier.pawns && self.kings_on_diagonal(pair as usize);
        // The number of the pieces' squares as they stand. A piece alone of its kind keeps its
        // place among the sorted keys as it moves back: its digit alone changes.
        let mut sorted = keys;
        let base = fold_squares(&mut sorted[..pieces]);
        for k in 0..n {
            let (kind, sq) = men[k];
            if kind / 5 != mover {
                continue;
            }
            let to = Square::new(sq as u32);
            let from = match kind % 5 {
                0 => attacks::queen_attacks(to, occupied),
                1 => attacks::rook_attacks(to, occupied),
                2 => attacks::bishop_attacks(to, occupied),
                3 => attacks::knight_attacks(to),
                // A pawn's move comes from another tier.
                _ => continue,
            } & !occupied;
            let key = keys[slot[k]];
            let alone = keys[..pieces]
                .iter()
                .filter(|&&o| o / 64 == key / 64)
                .count()
                == 1;
            let below = keys[..pieces].iter().filter(|&&o| o < key).count();
            let weight = 1u64 << (6 * (pieces - 1 - below));
            let rest = base - u64::from(key % 64) * weight;
            for from in from {
                let from = u32::from(from) as usize;
                men[k].1 = from;
                let mut squares = if alone {
                    rest + transform(sym, from) as u64 * weight
                } else {
                    let mut moved = keys;
                    moved[slot[k]] = (kind * 64 + transform(sym, from)) as u16;
                    fold_squares(&mut moved[..pieces])
                };
                if diagonal {
                    squares = self.least_of_mirror(pair as usize, sym, &men[..n], squares);
                }
                let i = part.index(tier.span, pair as u64, squares, mover as u64);
                self.parents_at(part, Some(i), kings, &men[..n], mover, &mut f);
            }
            men[k].1 = sq;
        }
        once
    }

    /// Calls `f` with `index`, that of the placement `kings` and `men` (kind `colour · 5 +
    /// role`, square) with `mover` to move (`None` where the kings are adjacent: no parent),
    /// and, in a material with pawns of both sides, with that of each en passant square the
    /// other side's last move can have left there.
    fn parents_at<F: FnMut(u64)>(
        &self,
        part: &Part,
        index: Option<u64>,
        kings: [usize; 2],
        men: &[(usize, usize)],
        mover: usize,
        f: &mut F,
    ) {
        let Some(i) = index else {
            return;
        };
        f(i);
        if part.ep_files[mover].is_empty() {
            return;
        }
        // The other side's pawns that can have just pushed two squares: on their fourth rank
        // with the two squares behind them empty, beside a pawn of the mover.
        let other = 1 - mover;
        let (fourth, back) = if other == 0 {
            (24..32, -8i32)
        } else {
            (32..40, 8)
        };
        let free = |sq: i32| {
            kings.iter().all(|&k| k as i32 != sq) && men.iter().all(|&(_, s)| s as i32 != sq)
        };
        for &(kind, sq) in men {
            if kind != other * 5 + 4 || !fourth.contains(&sq) {
                continue;
            }
            let (cross, start) = (sq as i32 + back, sq as i32 + 2 * back);
            if !free(cross) || !free(start) || !ep_legal(&kings, men, mover, sq, cross as usize) {
                continue;
            }
            let ep = Some(Square::new(cross as u32));
            if let Some(i) = self.index_as(&board_of(&kings, men), colour(mover), ep, true) {
                f(i);
            }
        }
    }

    /// The representative index of the kings and men (kind `colour · 5 + role`, square) of a
    /// part, its pawns where the part has them, `side` to move and no en passant square; `None`
    /// where the kings are adjacent.
    fn place(
        &self,
        part: &Part,
        kings: [usize; 2],
        men: &[(usize, usize)],
        side: u64,
    ) -> Option<u64> {
        let tier = &self.tiers[part.tier];
        // Pawns that are not their own mirror fixed the frame: their pairs have one symmetry.
        let (sym, pair) = self.pairs[part.kings].canonical(kings[0], kings[1])?;
        let mut keys = [0u16; MAX_MEN];
        let mut n = 0;
        for &(kind, sq) in men.iter().filter(|m| m.0 % 5 != 4) {
            keys[n] = (kind * 64 + transform(sym, sq)) as u16;
            n += 1;
        }
        let mut squares = fold_squares(&mut keys[..n]);
        if !tier.pawns {
            squares = self.least_of_mirror(pair as usize, sym, men, squares);
        }
        Some(part.index(tier.span, pair as u64, squares, side))
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
    use crate::format::entries::standing;
    use crate::game::conformance::KeptMoves;
    use crate::model::{Standing, Tiered, Visit};
    use crate::solve::solve_standings;

    #[test]
    fn solving_from_un_moves_gives_the_values_of_the_kept_moves() {
        for men in ["KRk", "KRkn", "KPk"] {
            let e = Endgame::new(ChessSpec::new(men).unwrap());
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
            let once = e.tier_parents(c, |p| listed.push(p));
            let n = listed.len();
            listed.sort_unstable();
            listed.dedup();
            assert!(
                !once || listed.len() == n,
                "{c}: said once, a parent came twice"
            );
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
        // With pawns: pushes of one and two squares; KPkp and KPPkp also en passant positions
        // (their block at the end of the tier), as children and as parents.
        for (men, step, ep_step) in [
            ("KRk", 1, 1),
            ("KBNk", 97, 1),
            // Two men of a kind: a piece's un-move can change their order among the keys.
            ("KNNk", 89, 1),
            ("KPk", 1, 1),
            ("KPkp", 7, 3),
            ("KPPkp", 11, 5),
            ("KRPkr", 10_007, 1),
        ] {
            let e = Endgame::new(ChessSpec::new(men).unwrap());
            // The ending's last tier, and its first with en passant positions.
            let last = e.tiers.last().unwrap().parts.clone();
            let with_ep = last.clone().find(|&p| e.parts[p].ep_width > 0);
            for t in [Some(last.end - 1), with_ep].into_iter().flatten() {
                let t = t as u64;
                assert!(e.lists_tier_parents(t));
                let tier = e.tier(t);
                let part = &e.parts[t as usize];
                let ep = (part.ep_width > 0).then_some(part.ep_start);
                // Some positions of the tier, and more of its en passant block.
                let sample = (tier.start..tier.end).filter(|&p| {
                    (p - tier.start) % step == 0
                        || ep.is_some_and(|b| p >= b && (p - b) % ep_step == 0)
                });
                // Forward: every position's children inside the tier list it among their parents.
                let mut moved = [0u64; 2];
                for p in sample.clone() {
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
                        moved[usize::from(ep.is_some_and(|b| c >= b || p >= b))] += 1;
                    }
                }
                assert!(moved[0] > 0, "{men}: no move checked");
                assert!(
                    ep.is_none() || moved[1] > 0,
                    "{men}: no en passant position"
                );
                check(&e, t, sample);
            }
        }
    }
}
