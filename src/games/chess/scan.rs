//! The scan's visit of a position ([`Tiered::visit_counting`](crate::model::Tiered)), on
//! bitboards from the index's numbers: the scan asks it of every index of a table, and building
//! a `shakmaty` position for each (its checks of a setup, its list of moves, a copy of the
//! position for each child) took half of a five-man build. The rules are still `shakmaty`'s:
//! its attack tables, and its positions for the en passant block (a few indices in a
//! thousand), which [`Endgame::visit_by_rules`] visits as before; a test holds the two visits
//! equal on every index of small endings.

use shakmaty::{attacks, Bitboard, Board, Color, Piece, Role, Square};

use super::{Endgame, MAX_MEN};
use crate::model::{Standing, Visit};

/// The roles a pawn promotes to.
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Whether `color` cannot mate by any series of legal moves, as `shakmaty` reads it (and so
/// as [`Endgame`] has always valued a dead position): no pawn, rook or queen; a knight only as
/// its side's one man besides the king, against no man but a queen; bishops only of one
/// square colour among all the board's bishops, with no knight and no pawn on the board.
fn cannot_mate(board: &Board, color: Color) -> bool {
    let mine = board.by_color(color);
    if (mine & (board.pawns() | board.rooks_and_queens())).any() {
        return false;
    }
    if (mine & board.knights()).any() {
        return mine.count() <= 2
            && (board.by_color(!color) & !board.kings() & !board.queens()).is_empty();
    }
    if (mine & board.bishops()).any() {
        let one_colour = (board.bishops() & Bitboard::DARK_SQUARES).is_empty()
            || (board.bishops() & Bitboard::LIGHT_SQUARES).is_empty();
        return one_colour && board.knights().is_empty() && board.pawns().is_empty();
    }
    true
}

/// The legal moves of `us` on `board` (a legal position without an en passant square), as the
/// scan needs them: how many there are, and how many of them are quiet moves of a piece or a
/// king that were counted and not made (all of them unless `name_quiet`). Every other move,
/// when `emit`, is made and `child` is given the board after it and its en passant square
/// (one that a legal capture can use).
pub(super) fn legal_moves(
    board: &Board,
    us: Color,
    name_quiet: bool,
    emit: bool,
    child: &mut impl FnMut(Board, Option<Square>),
) -> (u32, u32) {
    let them = !us;
    let occupied = board.occupied();
    let (ours, theirs) = (board.by_color(us), board.by_color(them));
    let Some(king) = board.king_of(us) else {
        return (0, 0);
    };
    let checkers = board.attacks_to(king, them, occupied);
    let (mut legal, mut counted) = (0u32, 0u32);
    let mut make = |from: Square, to: Square, role: Role, ep: Option<Square>| {
        if emit {
            let mut next = board.clone();
            next.discard_piece_at(to);
            next.discard_piece_at(from);
            next.set_piece_at(to, Piece { color: us, role });
            child(next, ep);
        }
    };
    // The king: to a square no man of theirs attacks once the king has left its own.
    let without_king = occupied.without(king);
    let mut danger = Bitboard::EMPTY;
    for sq in theirs {
        if let Some(piece) = board.piece_at(sq) {
            danger |= attacks::attacks(sq, piece, without_king);
        }
    }
    for to in attacks::king_attacks(king) & !ours & !danger {
        legal += 1;
        if theirs.contains(to) || name_quiet {
            make(king, to, Role::King, None);
        } else {
            counted += 1;
        }
    }
    if checkers.more_than_one() {
        return (legal, counted);
    }
    // In check, the other men can only take the checker or step between.
    let target = checkers
        .first()
        .map_or(!ours, |c| attacks::between(king, c).with(c));
    // A man of ours alone between the king and a slider of theirs moves along their line.
    // A table holds fewer than MAX_MEN men besides the kings, so no pin is left out here.
    let mut pins = [(Bitboard::EMPTY, Bitboard::FULL); MAX_MEN];
    let mut npins = 0;
    let sliders = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens());
    for s in sliders & theirs {
        let between = attacks::between(king, s) & occupied;
        if npins < pins.len() && between.count() == 1 && (between & ours).any() {
            pins[npins] = (between, attacks::ray(king, s));
            npins += 1;
        }
    }
    let forward: i32 = if us == Color::White { 8 } else { -8 };
    for from in ours & !board.kings() {
        let Some(role) = board.role_at(from) else {
            continue;
        };
        let mut allowed = target;
        for &(pinned, line) in &pins[..npins] {
            if pinned.contains(from) {
                allowed &= line;
            }
        }
        if role != Role::Pawn {
            let to = attacks::attacks(from, Piece { color: us, role }, occupied) & allowed;
            for sq in to & theirs {
                legal += 1;
                make(from, sq, role, None);
            }
            let quiet = to & !theirs;
            legal += quiet.count() as u32;
            if name_quiet {
                for sq in quiet {
                    make(from, sq, role, None);
                }
            } else {
                counted += quiet.count() as u32;
            }
            continue;
        }
        // A pawn: its pushes, its captures, each a promotion on the last rank.
        let mut to = attacks::pawn_attacks(us, from) & theirs;
        let one = Square::new((i32::from(from) + forward) as u32);
        if !occupied.contains(one) {
            to.add(one);
            let home = if us == Color::White { 1 } else { 6 };
            if u32::from(from.rank()) == home {
                let two = Square::new((i32::from(one) + forward) as u32);
                if !occupied.contains(two) && allowed.contains(two) {
                    legal += 1;
                    if emit {
                        make(from, two, Role::Pawn, en_passant(board, us, from, one));
                    }
                }
            }
        }
        for sq in to & allowed {
            if sq.rank() == shakmaty::Rank::Eighth || sq.rank() == shakmaty::Rank::First {
                for role in PROMOTIONS {
                    legal += 1;
                    make(from, sq, role, None);
                }
            } else {
                legal += 1;
                make(from, sq, Role::Pawn, None);
            }
        }
    }
    (legal, counted)
}

/// The en passant square after `us` pushed a pawn two squares from `from` over `crossed`:
/// `crossed` where a pawn of theirs beside it can take it with a legal move, else none.
fn en_passant(board: &Board, us: Color, from: Square, crossed: Square) -> Option<Square> {
    let them = !us;
    let takers = attacks::pawn_attacks(us, crossed)
        & board.by_piece(Piece {
            color: them,
            role: Role::Pawn,
        });
    takers
        .into_iter()
        .any(|t| {
            // The pushed pawn taken: gone from where it started and from where it landed.
            let mut after = board.clone();
            after.discard_piece_at(from);
            after.discard_piece_at(t);
            after.set_piece_at(
                crossed,
                Piece {
                    color: them,
                    role: Role::Pawn,
                },
            );
            after
                .king_of(them)
                .is_some_and(|k| after.attacks_to(k, us, after.occupied()).is_empty())
        })
        .then_some(crossed)
}

impl Endgame {
    /// The scan's visit of `pos` (see the module): whether it is a position, represents its
    /// class, is over; else its children out of the tier (and, where `name_quiet` is asked
    /// by [`Tiered::visit_counting`](crate::model::Tiered)'s rule, in it) and the count of
    /// its quiet moves.
    pub(super) fn scan_visit<F: FnMut(u64)>(&self, pos: u64, mut f: F) -> (Visit, u32) {
        let d = self.decode(pos);
        if d.file.is_some() {
            return self.visit_by_rules(pos, f);
        }
        let part = d.part;
        let (board, us, _, ok) = self.board_of(&d, |_, _, _| {});
        let them = !us;
        let occupied = board.occupied();
        let legal = ok
            && board
                .king_of(them)
                .is_some_and(|k| board.attacks_to(k, us, occupied).is_empty());
        if !legal {
            return (Visit::Illegal, 0);
        }
        if self.twin_in(part, pos).is_some_and(|j| j < pos) {
            return (Visit::Image, 0);
        }
        let pawns = self.tiers[part.tier].pawns;
        let name_quiet = !pawns && Endgame::fixed_by_diagonal(&board, them);
        let dead = cannot_mate(&board, Color::White) && cannot_mate(&board, Color::Black);
        let (moves, counted) = legal_moves(&board, us, name_quiet, !dead, &mut |next, ep| {
            if let Some(i) = self.index_as(&next, them, ep, true) {
                f(i);
            }
        });
        if moves == 0 {
            let king = board.king_of(us);
            let check = king.is_some_and(|k| board.attacks_to(k, them, occupied).any());
            return (
                Visit::Over(if check { Standing::Lose } else { Standing::Tie }),
                0,
            );
        }
        if dead {
            return (Visit::Over(Standing::Tie), 0);
        }
        (Visit::Moves, counted)
    }
}

#[cfg(test)]
mod tests {
    use super::super::ChessSpec;
    use super::*;
    use crate::model::Indexed;

    /// The visit and the children, sorted.
    fn seen(v: (Visit, u32), mut kids: Vec<u64>) -> (Visit, u32, Vec<u64>) {
        kids.sort_unstable();
        (v.0, v.1, kids)
    }

    #[test]
    fn the_scan_on_bitboards_visits_as_the_rules_do() {
        // Every index of small endings, and samples of larger ones: pins, checks, promotions,
        // double pushes with and without an en passant capture after them, dead positions
        // (bishops of one colour, a knight), the en passant block.
        for men in [
            "KQk", "KBNk", "KBkb", "KNkn", "KPk", "KPkp", "KRkb", "KPPkp", "KRPkr", "KQkbn",
        ] {
            let e = Endgame::new(ChessSpec::new(men).unwrap());
            // About a million indices of each (every one of KQk and KPk); an odd step, so
            // both sides to move come.
            let step = (e.positions() / 1_000_000) | 1;
            let mut kinds = [0u64; 4];
            let mut pos = 0;
            while pos < e.positions() {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let fast = seen(e.scan_visit(pos, |c| a.push(c)), a);
                let slow = seen(e.visit_by_rules(pos, |c| b.push(c)), b);
                assert_eq!(fast, slow, "{men}: index {pos}");
                kinds[match fast.0 {
                    Visit::Illegal => 0,
                    Visit::Image => 1,
                    Visit::Over(_) => 2,
                    Visit::Moves => 3,
                }] += 1;
                pos += step;
            }
            assert!(kinds[0] > 0 && kinds[3] > 0, "{men}: {kinds:?}");
        }
    }

    #[test]
    fn dead_positions_are_those_no_side_can_mate_from() {
        let board = |fen: &str| fen.parse::<Board>().unwrap();
        let dead = |fen: &str| {
            let b = board(fen);
            cannot_mate(&b, Color::White) && cannot_mate(&b, Color::Black)
        };
        assert!(dead("8/8/8/8/8/2k5/8/K7"));
        assert!(dead("8/8/8/8/8/2k5/8/KN6"));
        // Bishops on one colour (a1 and c3 dark), and on two.
        assert!(dead("8/8/8/8/8/2k5/8/K1b5"));
        assert!(dead("8/8/8/8/4b3/2k5/8/KB6"));
        assert!(!dead("8/8/8/8/8/2k5/8/KBb5"));
        assert!(!dead("8/8/8/8/8/2k5/8/KNn5"));
        assert!(!dead("8/8/8/8/8/2k5/8/KR6"));
    }
}
