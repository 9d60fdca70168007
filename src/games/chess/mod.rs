//! Chess endings: one table holds an ending (`gamedb build chess --men KRk`: white's men upper
//! case, then black's lower case, each side's king first) with either side to move, and every
//! sub-ending its captures and promotions reach, each a lower tier of the same table (so a
//! table answers alone, with no other file to find). Rules by the `shakmaty` crate; castling
//! is excluded, as the tablebases exclude it. En passant is in: a position is its men, the
//! side to move and, right after a double push that an en passant capture can answer, the
//! en passant square (a position of its own, with that capture among its moves).
//!
//! Values are the engine's: win or lose with the distance to mate in plies (checkmate: lose
//! in 0 for the side to move), `tie` for a game that ends drawn by stalemate or a dead
//! position (shakmaty's insufficient material: neither side can ever mate) with the plies to
//! it, `draw` where neither side can force an end. A chess player reads both as drawn; the
//! table keeps them apart because they are different facts. The 50-move rule is not applied
//! (distance to mate, as Ströhlein and Thompson computed it).
//!
//! The index is [`index`]'s: a tier for each material without pawns and for each placement of
//! a material's pawns (so a capture, a promotion and a pawn's move each leave their tier, and
//! `dtz` resets its count on exactly those), king pairs under the symmetries the tier keeps,
//! then each piece's square; with pawns of both sides the tier's en passant positions follow.
//! Indices that are no legal position (men on one square, the side not to move in
//! check, an en passant square no capture can use) are marked as none.

pub mod fen;
pub mod index;
mod retro;
mod scan;

use std::ops::Range;

use shakmaty::san::SanPlus;
use shakmaty::{Board, Chess, Color, EnPassantMode, Piece, Position, Role, Square};

use self::index::{transform, KingPairs, Material};
use crate::format::entries::standing;
use crate::game::{params, Arguments, Fact, GameSpec, Move, Param, Rules, Values, View};
use crate::model::{Indexed, Standing, Tiered, ValueKind, Visit};
use crate::{Error, Result};

/// The most men a table may hold (with kings).
pub(crate) const MAX_MEN: usize = 5;

/// Parameters of a chess table, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct ChessSpec {
    men: Material,
}

impl ChessSpec {
    /// Checks the men: `KRk`, `KQkr`, `KPk`...
    pub fn new(men: &str) -> Result<ChessSpec> {
        let form = "white men upper case then black men lower case, each side starting with \
                    its king, from K Q R B N P (e.g. KRk, KQkr, KPk)";
        let Some(m) = Material::parse(men) else {
            return Err(Error::bad(format!(
                "--men '{}': expected {form}",
                crate::game::echo(men)
            )));
        };
        if m.others() + 2 > MAX_MEN {
            return Err(Error::bad(format!(
                "--men {men}: {} men; expected at most {MAX_MEN}",
                m.others() + 2
            )));
        }
        Ok(ChessSpec { men: m })
    }

    /// The men as `--men` writes them.
    pub fn men(&self) -> String {
        self.men.name()
    }
}

impl GameSpec for ChessSpec {
    const NAME: &'static str = "chess";
    /// 2: a pawn's square is a digit of 48 in the index (it was one of 64). 3: a tier for each
    /// placement of the pawns, chosen by the pawns under the mirror (it was by the kings).
    const RULES_VERSION: u32 = 3;
    const ABOUT: &'static str =
        "Chess endings: distance to mate for every position of an ending and its sub-endings";
    const PARAMS: &'static [Param] = &[Param::required(
        "men",
        "MEN",
        "White men then black men, e.g. KRk or KQkr (K Q R B N P, black lower case)",
    )];
    const VALUES: &'static [ValueKind] = &[ValueKind::Remoteness, ValueKind::Wlt, ValueKind::Dtz];

    fn view(&self) -> View {
        View::two_player(Endgame::new(self.clone()))
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        ChessSpec::new(a.text("men")?)
    }

    fn parameters(&self) -> String {
        params::write(&[("men", Some(self.men.name()))])
    }

    fn describe(&self) -> String {
        format!(
            "Chess ending {} with its sub-endings, either side to move",
            self.men.name()
        )
    }

    fn samples() -> Vec<Self> {
        ["Kk", "KQk", "KPk"]
            .into_iter()
            .filter_map(|m| ChessSpec::new(m).ok())
            .collect()
    }
}

/// One material of the table.
struct Tier {
    material: Material,
    /// The roles of the men besides the kings, in index order: (colour, role index).
    men: Vec<(usize, usize)>,
    /// Those that are no pawns.
    pieces: Vec<(usize, usize)>,
    /// How many numbers the squares of the pieces take ([`index::span`]): 64 to the number of
    /// pieces (the pawns are the part), a power of two.
    span: u64,
    /// Whether the material has pawns.
    pawns: bool,
    /// Its parts ([`Part`]): one without pawns, one for each placement of the pawns.
    parts: Range<usize>,
    /// With pawns, the part of each canonical placement by its number (`u32::MAX` for none).
    part_of: Vec<u32>,
}

/// A tier of the engine: a material without pawns, or one placement of a material's pawns.
struct Part {
    start: u64,
    /// Its material's [`Tier`].
    tier: usize,
    /// The pawns' squares in index order.
    pawns: Vec<u8>,
    /// Which king pairs it numbers: 0 under eight symmetries (no pawns), 1 under the mirror
    /// (pawns that are their own mirror), 2 all.
    kings: usize,
    /// Where its en passant positions start (its end when it has none), how many files each
    /// side to move can have there, and which.
    ep_start: u64,
    ep_width: u64,
    ep_files: [Vec<u8>; 2],
}

impl Part {
    /// The index of the king pair numbered `pair` and the men's `squares` (see
    /// [`index::fold_squares`]) with `side` to move (0 white), in a material whose men's
    /// squares take `span` numbers; outside the en passant block.
    #[inline]
    fn index(&self, span: u64, pair: u64, squares: u64, side: u64) -> u64 {
        self.start + (pair * span + squares) * 2 + side
    }
}

/// A board at an index, `Err` when the index places no position.
type Placed = std::result::Result<Board, Board>;

/// An index read back ([`Endgame::decode`]).
struct Decoded<'a> {
    part: &'a Part,
    /// 0 for white to move.
    side: usize,
    /// The white king's square, then the black king's.
    kings: [usize; 2],
    /// The (colour, role) of the men besides the kings, in index order.
    men: &'a [(usize, usize)],
    /// Their squares.
    at: [usize; MAX_MEN],
    /// In the en passant block, the en passant square's file ([`NO_FILE`] where the index names
    /// none).
    file: Option<usize>,
}

/// The file of an en passant index that names none.
const NO_FILE: usize = 8;

/// A chess ending over its dense index.
pub struct Endgame {
    spec: ChessSpec,
    tiers: Vec<Tier>,
    parts: Vec<Part>,
    /// The king pairs under eight symmetries, under the mirror and under none.
    pairs: [KingPairs; 3],
    positions: u64,
    /// Each part's first index: searched for every index decoded, eight bytes apart (a
    /// [`Part`] is a hundred; a five-man ending with pawns has thousands).
    starts: Vec<u64>,
    /// The part of the first index of each run of `1 << shift` indices: where the search for
    /// an index's part starts (a binary search among the parts was two-fifths of a decode,
    /// asked of every index scanned and every position valued).
    coarse: Vec<u32>,
    shift: u32,
}

/// How many runs of indices [`Endgame::coarse`] has at most: 64 KiB, kept in the cache.
const COARSE: u64 = 1 << 14;

const ROLE_OF: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// Whether square `sq` (a1 = 0) lies on a long diagonal, a1–h8 or a8–h1: the squares a
/// symmetry of the board other than the identity can fix.
fn on_long_diagonal(sq: usize) -> bool {
    let (file, rank) = (sq % 8, sq / 8);
    file == rank || file + rank == 7
}

fn colour(c: usize) -> Color {
    if c == 0 {
        Color::White
    } else {
        Color::Black
    }
}

fn role_index(role: Role) -> usize {
    match role {
        Role::Queen => 0,
        Role::Rook => 1,
        Role::Bishop => 2,
        Role::Knight => 3,
        _ => 4,
    }
}

impl Endgame {
    /// The ending of `spec`: its index of placements, made once.
    pub fn new(spec: ChessSpec) -> Endgame {
        let pairs = [KingPairs::new(8), KingPairs::new(2), KingPairs::new(1)];
        let mut tiers = Vec::new();
        let mut parts = Vec::new();
        let mut start = 0;
        for material in spec.men.closure() {
            let men = material.men();
            let pieces: Vec<(usize, usize)> = men.iter().copied().filter(|m| m.1 != 4).collect();
            let span = index::span(&pieces);
            let pawns = material.pawns() > 0;
            let first = parts.len();
            let mut part_of = Vec::new();
            let placements = if pawns {
                part_of = vec![u32::MAX; 48usize.pow(material.pawns() as u32)];
                index::pawn_placements(&men)
            } else {
                vec![index::PawnPlacement {
                    squares: Vec::new(),
                    number: 0,
                    symmetric: false,
                    ep_files: [Vec::new(), Vec::new()],
                }]
            };
            for p in placements {
                let kings = match (pawns, p.symmetric) {
                    (false, _) => 0,
                    (true, true) => 1,
                    (true, false) => 2,
                };
                let normal = pairs[kings].pairs.len() as u64 * span * 2;
                let ep_width = p.ep_files.iter().map(Vec::len).max().unwrap_or(0) as u64;
                if pawns {
                    part_of[p.number as usize] = parts.len() as u32;
                }
                parts.push(Part {
                    start,
                    tier: tiers.len(),
                    pawns: p.squares,
                    kings,
                    ep_start: start + normal,
                    ep_width,
                    ep_files: p.ep_files,
                });
                start += normal * (1 + ep_width);
            }
            tiers.push(Tier {
                material,
                men,
                pieces,
                span,
                pawns,
                parts: first..parts.len(),
                part_of,
            });
        }
        let starts: Vec<u64> = parts.iter().map(|p| p.start).collect();
        let shift = (start.div_ceil(COARSE).max(1))
            .next_power_of_two()
            .trailing_zeros();
        let coarse = (0..start.div_ceil(1 << shift))
            .map(|run| (starts.partition_point(|&s| s <= run << shift) - 1) as u32)
            .collect();
        Endgame {
            spec,
            starts,
            coarse,
            shift,
            tiers,
            parts,
            pairs,
            positions: start,
        }
    }

    fn part_end(&self, p: usize) -> u64 {
        self.parts.get(p + 1).map_or(self.positions, |n| n.start)
    }

    /// The part of an index below [`Tiered::positions`].
    fn part_at(&self, index: u64) -> usize {
        let mut p = self.coarse[(index >> self.shift) as usize] as usize;
        while self.starts.get(p + 1).is_some_and(|&s| s <= index) {
            p += 1;
        }
        p
    }

    /// The numbers of an index (below [`Tiered::positions`]): what the board and the un-moves
    /// are built from.
    fn decode(&self, index: u64) -> Decoded<'_> {
        let part = &self.parts[self.part_at(index)];
        let tier = &self.tiers[part.tier];
        let mut local = index - part.start;
        let mut file = None;
        if index >= part.ep_start {
            let e = index - part.ep_start;
            let (side, rest) = (e % 2, e / 2);
            let files = &part.ep_files[side as usize];
            let f = files.get((rest % part.ep_width) as usize);
            file = Some(f.map_or(NO_FILE, |&f| f as usize));
            local = rest / part.ep_width * 2 + side;
        }
        let rest = local / 2;
        // The span is a power of 64: no division.
        let (pair, squares) = (rest >> tier.span.trailing_zeros(), rest & (tier.span - 1));
        let (wk, bk) = self.pairs[part.kings].pairs[pair as usize];
        let mut pieces = [0usize; MAX_MEN];
        index::unfold_squares(&tier.pieces, squares, &mut pieces);
        // The pieces and the pawns, in index order.
        let mut at = [0usize; MAX_MEN];
        let (mut p, mut q) = (part.pawns.iter(), pieces.iter());
        for (k, &(_, role)) in tier.men.iter().enumerate() {
            at[k] = if role == 4 {
                p.next().map_or(0, |&s| s as usize)
            } else {
                q.next().copied().unwrap_or(0)
            };
        }
        Decoded {
            part,
            side: (local % 2) as usize,
            kings: [wk as usize, bk as usize],
            men: &tier.men,
            at,
            file,
        }
    }

    /// The board, side to move and en passant square at an index, and whether it places a
    /// position's men: none on another (such a man is left off the board), men of a kind in
    /// rising order, a file where the en passant block names one. `each` is told of every man,
    /// the kings first: its square, what it is, and whether it landed on another.
    fn board_at(
        &self,
        index: u64,
        each: impl FnMut(usize, Piece, bool),
    ) -> (Board, Color, Option<Square>, bool) {
        self.board_of(&self.decode(index), each)
    }

    /// [`board_at`](Endgame::board_at) of an index already decoded.
    fn board_of(
        &self,
        d: &Decoded,
        mut each: impl FnMut(usize, Piece, bool),
    ) -> (Board, Color, Option<Square>, bool) {
        let Decoded {
            side,
            kings,
            men,
            at,
            file,
            ..
        } = *d;
        let side = colour(side);
        let mut board = Board::empty();
        let mut ok = true;
        for (sq, c) in kings.into_iter().zip([Color::White, Color::Black]) {
            board.set_piece_at(Square::new(sq as u32), c.king());
            each(sq, c.king(), false);
        }
        // Behind the pawn that crossed it: the side to move's enemy, one of the men.
        let ep = match file {
            Some(NO_FILE) => {
                ok = false;
                None
            }
            Some(f) => Some(Square::new(
                if side == Color::White { 40 + f } else { 16 + f } as u32,
            )),
            None => None,
        };
        for (k, &(c, r)) in men.iter().enumerate() {
            let sq = Square::new(at[k] as u32);
            let p = Piece {
                color: colour(c),
                role: ROLE_OF[r],
            };
            let clash = board.occupied().contains(sq);
            each(at[k], p, clash);
            if clash {
                ok = false;
                continue;
            }
            if k > 0 && men[k - 1] == (c, r) && at[k - 1] > at[k] {
                ok = false;
            }
            board.set_piece_at(sq, p);
        }
        (board, side, ep, ok)
    }

    /// The board, side and en passant square at an index, `Err` with the cells (a clash
    /// marked) when the index is no placement (men on one square, men of a kind out of order).
    fn placement(&self, index: u64) -> (Placed, Color, Option<Square>, Vec<u32>) {
        let mut cells = vec![0u32; fen::CELLS + 1];
        let (board, side, ep, ok) = self.board_at(index, |sq, p, clash| {
            cells[sq] = if clash { fen::CLASH } else { fen::code(p) };
        });
        cells[fen::CELLS] = u32::from(side == Color::Black);
        if let Some(ep) = ep {
            cells.push(u32::from(ep));
        }
        (if ok { Ok(board) } else { Err(board) }, side, ep, cells)
    }

    /// The legal position at an index, `None` for no position: the board of `placement`, without
    /// its cells (the scan asks this of every index).
    fn position_at(&self, index: u64) -> Option<Chess> {
        let (board, side, ep, ok) = self.board_at(index, |_, _, _| {});
        if !ok {
            return None;
        }
        fen::position(board, side, ep).ok()
    }

    /// The tier of a material, `None` when it is not this table's.
    fn tier_of(&self, m: &Material) -> Option<usize> {
        self.tiers.iter().position(|t| t.material == *m)
    }

    /// The material of a board.
    fn material(board: &Board) -> Material {
        let mut m = Material([[0; 5]; 2]);
        for (_, p) in board {
            if p.role != Role::King {
                m.0[(p.color == Color::Black) as usize][role_index(p.role)] += 1;
            }
        }
        m
    }

    /// The index of a legal position of one of the table's materials (with its en passant
    /// square where a capture can use it).
    fn index(&self, board: &Board, turn: Color, ep: Option<Square>) -> Option<u64> {
        self.index_as(board, turn, ep, false)
    }

    /// [`index`](Endgame::index), or with `rep` the index of the representative of the
    /// position's class (see `retro`): what the engine's children are named by.
    fn index_as(&self, board: &Board, turn: Color, ep: Option<Square>, rep: bool) -> Option<u64> {
        // The men besides the kings as (kind in index order, square), and the material, kind
        // by kind from the board's sets (no walk of its squares); the pawns apart.
        let mut found = [(0usize, 0usize); MAX_MEN];
        let mut pawns = [(0usize, 0usize); MAX_MEN];
        let mut material = Material([[0; 5]; 2]);
        let (mut n, mut np) = (0, 0);
        for c in 0..2 {
            let mine = board.by_color(colour(c));
            for (r, &role) in ROLE_OF.iter().enumerate() {
                for sq in mine & board.by_role(role) {
                    material.0[c][r] += 1;
                    let man = (c * 5 + r, u32::from(sq) as usize);
                    if r == 4 {
                        if !(8..56).contains(&man.1) {
                            // No index holds it (see `index::fold_squares`).
                            return None;
                        }
                        *pawns.get_mut(np)? = man;
                        np += 1;
                    } else {
                        *found.get_mut(n)? = man;
                        n += 1;
                    }
                }
            }
        }
        let tier = &self.tiers[self.tier_of(&material)?];
        let wk = u32::from(board.king_of(Color::White)?) as usize;
        let bk = u32::from(board.king_of(Color::Black)?) as usize;
        let (sym, pair, part) = if tier.pawns {
            // The pawns choose the mirror; where they are their own, the kings.
            let (number, mirrored) = index::pawn_numbers(&pawns[..np]);
            let sym = match number.cmp(&mirrored) {
                std::cmp::Ordering::Less => 0,
                std::cmp::Ordering::Greater => 1,
                std::cmp::Ordering::Equal => self.pairs[1].canonical(wk, bk)?.0,
            };
            let p = *tier.part_of.get(number.min(mirrored) as usize)?;
            let part = self.parts.get(p as usize)?;
            (sym, self.pairs[part.kings].pair(sym, wk, bk)?, part)
        } else {
            let (sym, pair) = self.pairs[0].canonical(wk, bk)?;
            (sym, pair, &self.parts[tier.parts.start])
        };
        // Each piece as (its kind in index order) · 64 + its square.
        let mut keys = [0u16; MAX_MEN];
        for (key, &(kind, sq)) in keys.iter_mut().zip(&found[..n]) {
            *key = (kind * 64 + transform(sym, sq)) as u16;
        }
        let mut squares = index::fold_squares(&mut keys[..n]);
        let side = u64::from(turn == Color::Black);
        let rest = pair as u64 * tier.span;
        if let Some(sq) = ep {
            let file = (transform(sym, u32::from(sq) as usize) & 7) as u8;
            let e = part.ep_files[side as usize]
                .iter()
                .position(|&f| f == file)?;
            return Some(part.ep_start + ((rest + squares) * part.ep_width + e as u64) * 2 + side);
        }
        if rep && !tier.pawns {
            squares = self.least_of_mirror(pair as usize, sym, &found[..n], squares);
        }
        Some(part.index(tier.span, pair as u64, squares, side))
    }

    /// The index of a board and side when the position is legal and one of the table's
    /// (what [`check`](Rules::check) accepts), else `None`.
    fn legal_index(&self, board: Board, turn: Color, ep: Option<Square>) -> Option<u64> {
        let index = self.index(&board, turn, ep)?;
        fen::position(board, turn, ep).is_ok().then_some(index)
    }

    /// Whether the game is over at `chess`, and else its children, each named by the
    /// representative of its class (the moves listed once, for both).
    fn expand<F: FnMut(u64)>(&self, chess: &Chess, f: F) -> Visit {
        self.expand_counting(chess, false, f).0
    }

    /// [`expand`](Endgame::expand), where with `count_quiet` the quiet moves of a piece or a
    /// king (which stay in the tier) are counted, not named (see
    /// [`Tiered::visit_counting`]).
    fn expand_counting<F: FnMut(u64)>(
        &self,
        chess: &Chess,
        count_quiet: bool,
        mut f: F,
    ) -> (Visit, u32) {
        let moves = chess.legal_moves();
        if let Some(v) = Endgame::over_with(chess, &moves) {
            return (Visit::Over(v), 0);
        }
        let mut counted = 0;
        for m in &moves {
            if count_quiet && m.role() != Role::Pawn && !m.is_capture() && !m.is_promotion() {
                counted += 1;
                continue;
            }
            let mut next = chess.clone();
            next.play_unchecked(m);
            if let Some(i) = self.index_as(
                next.board(),
                next.turn(),
                next.ep_square(EnPassantMode::Legal),
                true,
            ) {
                f(i);
            }
        }
        (Visit::Moves, counted)
    }

    /// [`Tiered::visit_counting`] by `shakmaty`'s positions and moves: what
    /// [`scan_visit`](Endgame::scan_visit) does on bitboards, kept for the en passant block
    /// and as the reference its test holds it to.
    fn visit_by_rules<F: FnMut(u64)>(&self, pos: u64, f: F) -> (Visit, u32) {
        let Some(chess) = self.position_at(pos) else {
            return (Visit::Illegal, 0);
        };
        if self.twin(pos).is_some_and(|j| j < pos) {
            return (Visit::Image, 0);
        }
        let pawns = self.tiers[self.parts[self.part_at(pos)].tier].pawns;
        let fixed = Endgame::fixed_by_diagonal(chess.board(), !chess.turn());
        self.expand_counting(&chess, pawns || !fixed, f)
    }

    /// Whether the king of `side` (the side not to move) stands where a symmetry of a tier
    /// without pawns can map one quiet move of the other side to another. Two quiet moves
    /// lead to one class only where a symmetry of the tier maps one child to the other. Both
    /// moves are the mover's, so it fixes the other king's square: no symmetry of a tier with
    /// pawns fixes a square (the mirror of files), and of the eight of a tier without, only
    /// the reflections in the long diagonals do, those squares. Elsewhere each quiet move is a
    /// class of its own, and is counted, not named.
    fn fixed_by_diagonal(board: &Board, side: Color) -> bool {
        board
            .king_of(side)
            .is_some_and(|k| on_long_diagonal(u32::from(k) as usize))
    }

    fn over(pos: &Chess) -> Option<Standing> {
        Endgame::over_with(pos, &pos.legal_moves())
    }

    /// [`over`](Endgame::over), given the legal moves of the position.
    fn over_with(pos: &Chess, moves: &shakmaty::MoveList) -> Option<Standing> {
        if moves.is_empty() {
            Some(if pos.checkers().any() {
                Standing::Lose
            } else {
                Standing::Tie
            })
        } else if pos.is_insufficient_material() {
            Some(Standing::Tie)
        } else {
            None
        }
    }

    /// Whether cells have the form of a position: 64 cells, the side, and optionally an
    /// en passant square of the third or sixth rank.
    fn cells_ok(pos: &[u32]) -> bool {
        (pos.len() == fen::CELLS + 1
            || pos.len() == fen::CELLS + 2 && fen::ep_cell_ok(pos[fen::CELLS + 1]))
            && pos[..fen::CELLS].iter().all(|&c| c <= 12)
            && pos[fen::CELLS] <= 1
    }

    /// The materials of the table, lowest tier first.
    pub(crate) fn materials(&self) -> Vec<String> {
        self.tiers.iter().map(|t| t.material.name()).collect()
    }

    fn legal_cells(&self, pos: &[u32]) -> std::result::Result<Chess, String> {
        let m = Endgame::material(&fen::board(pos));
        let chess = fen::position(fen::board(pos), fen::turn(pos), fen::ep(pos))?;
        if self.tier_of(&m).is_none() {
            return Err(format!(
                "the men {} are not in this table (it holds {})",
                m.name(),
                self.materials().join(", ")
            ));
        }
        Ok(chess)
    }
}

impl Indexed for Endgame {
    fn positions(&self) -> u64 {
        self.positions
    }
}

impl Tiered for Endgame {
    fn tier_count(&self) -> u64 {
        self.parts.len() as u64
    }
    fn tier(&self, t: u64) -> Range<u64> {
        self.parts[t as usize].start..self.part_end(t as usize)
    }
    fn legal(&self, pos: u64) -> bool {
        self.position_at(pos).is_some()
    }
    fn terminal(&self, pos: u64) -> Option<Standing> {
        Endgame::over(&self.position_at(pos)?)
    }
    fn children<F: FnMut(u64)>(&self, pos: u64, f: F) {
        if let Some(chess) = self.position_at(pos) {
            Endgame::expand(self, &chess, f);
        }
    }
    fn visit<F: FnMut(u64)>(&self, pos: u64, f: F) -> Visit {
        let Some(chess) = self.position_at(pos) else {
            return Visit::Illegal;
        };
        if self.twin(pos).is_some_and(|j| j < pos) {
            return Visit::Image;
        }
        Endgame::expand(self, &chess, f)
    }
    fn symmetries(&self) -> u64 {
        // Both kings on the long diagonal of a material without pawns: the reflection in it
        // (see `retro`).
        if self.tiers.iter().any(|t| !t.pawns) {
            2
        } else {
            1
        }
    }
    fn represents(&self, pos: u64) -> bool {
        self.twin(pos).is_none_or(|j| j > pos)
    }
    fn images<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
        if let Some(j) = self.twin(pos) {
            f(j);
        }
    }
    fn lists_tier_parents(&self, t: u64) -> bool {
        Endgame::lists_tier_parents(self, t)
    }
    fn tier_parents<F: FnMut(u64)>(&self, pos: u64, f: F) -> bool {
        Endgame::tier_parents(self, pos, f)
    }
    fn visit_counting<F: FnMut(u64)>(&self, pos: u64, _tier: Range<u64>, f: F) -> (Visit, u32) {
        self.scan_visit(pos, f)
    }
    fn moves_bound(&self) -> u64 {
        // A king 8, a queen 27, a rook 14, a bishop 13, a knight 8, a pawn 12 (pushes and
        // captures, each promoting four ways).
        const MOST: [u64; 5] = [27, 14, 13, 8, 12];
        let side =
            |m: &Material, c: usize| 8 + (0..5).map(|r| MOST[r] * m.0[c][r] as u64).sum::<u64>();
        self.tiers
            .iter()
            .map(|t| side(&t.material, 0).max(side(&t.material, 1)))
            .max()
            .unwrap_or(8)
    }
}

impl Rules for Endgame {
    fn parse(&self, text: &str) -> Result<Vec<u32>> {
        let pos = fen::parse(text).map_err(|why| {
            Error::bad(format!(
                "position '{}': {why}; expected {}",
                crate::game::echo(text.trim()),
                self.position_form()
            ))
        })?;
        self.check(&pos)?;
        Ok(pos)
    }

    fn position_form(&self) -> String {
        format!(
            "a FEN of a legal position of {} or a sub-ending ({}), no castling rights, e.g. \
             8/8/8/8/8/2k5/8/K2R4 w - - 0 1; an en passant square only where a pawn just \
             crossed it",
            self.spec.men.name(),
            self.materials().join(", ")
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        if !Endgame::cells_ok(pos) {
            return crate::game::bad_position(
                self,
                pos,
                "expected 64 cells of 0 (empty) to 12 (1-6 white pawn, knight, bishop, rook, \
                 queen, king; 7-12 black), then the side to move, 0 (white) or 1 (black), \
                 then optionally the en passant square (16-23 or 40-47)"
                    .to_string(),
            );
        }
        crate::game::no_play_makes(self, pos, self.legal_cells(pos).err())
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        if !Endgame::cells_ok(pos) {
            return u64::MAX;
        }
        self.index(&fen::board(pos), fen::turn(pos), fen::ep(pos))
            .unwrap_or(u64::MAX)
    }

    /// [`check`](Rules::check) and [`rank`](Rules::rank) in one pass: the board built once,
    /// its legality asked of the rules once.
    fn entry_index(&self, pos: &[u32]) -> Option<u64> {
        if !Endgame::cells_ok(pos) {
            return None;
        }
        self.legal_index(fen::board(pos), fen::turn(pos), fen::ep(pos))
    }

    fn text_entry_index(&self, text: &str) -> Option<u64> {
        let (board, turn) = fen::quick(text.trim())?;
        self.legal_index(board, turn, None)
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        self.placement(index).3
    }

    /// A capture, a promotion or a pawn's move: a move to another tier (see [`index`]).
    fn resets_counter(&self, from: u64, to: u64) -> bool {
        self.part_at(from) != self.part_at(to)
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let Ok(chess) = self.legal_cells(pos) else {
            return Vec::new();
        };
        if Endgame::over(&chess).is_some() {
            return Vec::new();
        }
        chess
            .legal_moves()
            .iter()
            .map(|m| {
                let mut next = chess.clone();
                let san = SanPlus::from_move_and_play_unchecked(&mut next, m);
                Move {
                    label: san.to_string(),
                    leaves: fen::cells_of(&next),
                }
            })
            .collect()
    }

    fn terminal_standing(&self, pos: &[u32]) -> Option<Standing> {
        Endgame::over(&self.legal_cells(pos).ok()?)
    }

    fn board(&self, pos: &[u32]) -> String {
        fen::drawing(pos)
    }

    /// Per ending of the table and side to move: the positions, how many of each value, and
    /// the longest win (the longest mate, in plies).
    fn facts(&self, values: &dyn Values) -> Vec<Fact> {
        let mut text = Vec::new();
        let mut json = serde_json::Map::new();
        for tier in &self.tiers {
            let mut sides = serde_json::Map::new();
            let mut words = Vec::new();
            for side in 0..2u64 {
                let mut counts = [0u64; 4];
                let mut longest = 0;
                for p in tier.parts.clone() {
                    let mut i = self.parts[p].start + side;
                    while i < self.part_end(p) && i < values.len() {
                        if let Some((v, r)) = standing::unpack(values.raw(i)) {
                            counts[v as usize] += 1;
                            if v == Standing::Win {
                                longest = longest.max(r);
                            }
                        }
                        i += 2;
                    }
                }
                let [lose, tie, draw, win] = counts;
                let who = if side == 0 { "white" } else { "black" };
                sides.insert(
                    format!("{who}_to_move"),
                    serde_json::json!({
                        "positions": counts.iter().sum::<u64>(),
                        "win": win, "lose": lose, "tie": tie, "draw": draw,
                        "longest_win": longest,
                    }),
                );
                words.push(format!(
                    "{who} to move {} (win {win}, lose {lose}, tie {tie}, draw {draw}), longest \
                     win {longest} plies",
                    counts.iter().sum::<u64>()
                ));
            }
            text.push(format!("{}: {}", tier.material.name(), words.join("; ")));
            json.insert(tier.material.name(), serde_json::Value::Object(sides));
        }
        vec![Fact {
            key: "endings".to_string(),
            label: "endings".to_string(),
            text: text.join("\n"),
            json: serde_json::Value::Object(json),
        }]
    }

    fn format(&self, pos: &[u32]) -> String {
        fen::format(pos)
    }
}
