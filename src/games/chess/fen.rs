//! Positions of a chess table as the lookups write them: 64 cells (a1 = 0 … h8 = 63, 0
//! empty, 1–6 a white pawn, knight, bishop, rook, queen, king, 7–12 the same of black) and the
//! side to move (0 white, 1 black), then, only in a position where an en passant capture is
//! legal, one more cell: the en passant square (16–23 on the third rank, 40–47 on the sixth);
//! read from and written as FEN, drawn as a board.

use shakmaty::fen::Fen;
use shakmaty::{
    Board, CastlingMode, Chess, Color, EnPassantMode, Piece, Position, PositionErrorKinds, Role,
    Setup, Square,
};

/// Cells besides the side to move.
pub(crate) const CELLS: usize = 64;
/// The cell an index that puts two men on one square shows there (no position).
pub(crate) const CLASH: u32 = 13;

/// The piece of a cell code 1..=12.
pub(crate) fn piece(code: u32) -> Option<Piece> {
    let (color, r) = match code {
        1..=6 => (Color::White, code),
        7..=12 => (Color::Black, code - 6),
        _ => return None,
    };
    let role = match r {
        1 => Role::Pawn,
        2 => Role::Knight,
        3 => Role::Bishop,
        4 => Role::Rook,
        5 => Role::Queen,
        _ => Role::King,
    };
    Some(Piece { color, role })
}

/// The cell code of a piece.
pub fn code(p: Piece) -> u32 {
    p.role as u32 + if p.color == Color::White { 0 } else { 6 }
}

/// The cells and side of a board.
pub(crate) fn cells(board: &Board, turn: Color) -> Vec<u32> {
    let mut pos = vec![0; CELLS + 1];
    for (sq, p) in board {
        pos[u32::from(sq) as usize] = code(p);
    }
    pos[CELLS] = u32::from(turn == Color::Black);
    pos
}

/// The board of checked cells.
pub fn board(pos: &[u32]) -> Board {
    let mut b = Board::empty();
    for (sq, &c) in pos[..CELLS].iter().enumerate() {
        if let Some(p) = piece(c) {
            b.set_piece_at(Square::new(sq as u32), p);
        }
    }
    b
}

/// The cells of a position: its board, side, and en passant square where an en passant
/// capture is legal (a square no capture can use makes no other position: it is left out).
pub(crate) fn cells_of(chess: &Chess) -> Vec<u32> {
    let mut pos = cells(chess.board(), chess.turn());
    if let Some(sq) = chess.ep_square(EnPassantMode::Legal) {
        pos.push(u32::from(sq));
    }
    pos
}

/// The en passant square of cells, `None` without the cell (or with one off the board).
pub(crate) fn ep(pos: &[u32]) -> Option<Square> {
    pos.get(CELLS + 1)
        .filter(|&&s| s < 64)
        .map(|&s| Square::new(s))
}

/// Whether an en passant cell names a square of the third or sixth rank.
pub(crate) fn ep_cell_ok(cell: u32) -> bool {
    (16..24).contains(&cell) || (40..48).contains(&cell)
}

/// The side to move of checked cells.
pub fn turn(pos: &[u32]) -> Color {
    if pos[CELLS] == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// The position of a board and side when it is legal as a table holds it (a check that play
/// could not give is allowed, the side not to move in check is not), else why not. An en
/// passant square must be one a pawn just crossed and one an en passant capture can use.
pub fn position(board: Board, turn: Color, ep: Option<Square>) -> Result<Chess, String> {
    let chess = setup_position(board, turn, ep)?;
    if ep.is_some() && chess.ep_square(EnPassantMode::Legal).is_none() {
        return Err("no en passant capture is legal on the en passant square".to_string());
    }
    Ok(chess)
}

fn setup_position(board: Board, turn: Color, ep: Option<Square>) -> Result<Chess, String> {
    let setup = Setup {
        board,
        turn,
        ep_square: ep,
        ..Setup::empty()
    };
    let res: Result<Chess, _> = setup.position(CastlingMode::Standard);
    let kinds = match res {
        Ok(chess) => return Ok(chess),
        Err(e) => match e.ignore_impossible_check() {
            Ok(chess) => return Ok(chess),
            Err(e) => e.kinds(),
        },
    };
    Err({
        let k = kinds;
        if k.contains(PositionErrorKinds::EMPTY_BOARD)
            || k.contains(PositionErrorKinds::MISSING_KING)
        {
            "a king is missing (each side has one king)".to_string()
        } else if k.contains(PositionErrorKinds::TOO_MANY_KINGS) {
            "a side has more than one king".to_string()
        } else if k.contains(PositionErrorKinds::PAWNS_ON_BACKRANK) {
            "a pawn stands on the first or last rank".to_string()
        } else if k.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
            EP_NOT_CROSSED.to_string()
        } else if k.contains(PositionErrorKinds::OPPOSITE_CHECK) {
            "the side not to move is in check".to_string()
        } else {
            "no legal position".to_string()
        }
    })
}

const EP_NOT_CROSSED: &str = "the en passant square is not one a pawn just crossed (the empty \
                              square behind a pawn of the side not to move on its fourth rank, \
                              its start square empty)";

/// Reads a FEN: the cells and side, or why the text is none (castling rights are refused,
/// the clocks are read and ignored; an en passant square must be one a pawn just crossed,
/// and is kept where an en passant capture is legal, dropped where none is: the FEN standard
/// writes it after every double push, and without a capture it makes no other position).
pub fn parse(text: &str) -> Result<Vec<u32>, String> {
    if let Some((board, turn)) = quick(text.trim()) {
        return Ok(cells(&board, turn));
    }
    general(text)
}

/// The common FEN of a lookup read in one pass: a board field of eight ranks, then
/// optionally the side (`w` or `b`), `-` for castling, `-` for en passant and the two clocks
/// (digits), fields one space apart. Lookups read millions of these, and shakmaty's parser
/// (what [`parse`] falls back to) also reads the variants' fields, pockets and checks, and
/// castling rights. `None` for any other text, including every text [`parse`] refuses: what
/// this reads, shakmaty's parser reads alike (a test holds them to it), so the refusals and
/// their messages stay shakmaty's.
pub fn quick(text: &str) -> Option<(Board, Color)> {
    let mut fields = text.as_bytes().split(|&b| b == b' ');
    let mut board = Board::empty();
    let (mut rank, mut file) = (7u32, 0u32);
    for &ch in fields.next()? {
        match ch {
            b'/' if file == 8 && rank > 0 => {
                rank -= 1;
                file = 0;
            }
            b'1'..=b'8' => {
                file += u32::from(ch - b'0');
                if file > 8 {
                    return None;
                }
            }
            _ => {
                if file > 7 {
                    return None;
                }
                let piece = Piece::from_char(char::from(ch))?;
                board.set_piece_at(Square::new(rank * 8 + file), piece);
                file += 1;
            }
        }
    }
    if rank != 0 || file != 8 {
        return None;
    }
    let turn = match fields.next() {
        None | Some(b"w") => Color::White,
        Some(b"b") => Color::Black,
        Some(_) => return None,
    };
    let digits = |f: &[u8]| (1..=9).contains(&f.len()) && f.iter().all(u8::is_ascii_digit);
    let rest: [Option<&[u8]>; 5] = std::array::from_fn(|_| fields.next());
    let ok = match rest {
        [None, None, None, None, None] | [Some(b"-"), None, None, None, None] => true,
        [Some(b"-"), Some(b"-"), clock, moves, None] => {
            clock.is_none_or(digits) && moves.is_none_or(digits)
        }
        _ => false,
    };
    ok.then_some((board, turn))
}

/// [`parse`] by shakmaty's parser: every FEN, and the refusals.
fn general(text: &str) -> Result<Vec<u32>, String> {
    let fen = Fen::from_ascii(text.trim().as_bytes()).map_err(|e| format!("not a FEN ({e})"))?;
    let setup = fen.0;
    if setup.castling_rights.any() {
        return Err("castling rights are not in these tables (write - for them)".to_string());
    }
    let mut pos = cells(&setup.board, setup.turn);
    if let Some(sq) = setup.ep_square {
        let res: Result<Chess, _> = setup.clone().position(CastlingMode::Standard);
        let res = match res {
            Ok(chess) => Ok(chess),
            Err(e) if e.kinds().contains(PositionErrorKinds::INVALID_EP_SQUARE) => {
                return Err(EP_NOT_CROSSED.to_string());
            }
            Err(e) => e.ignore_impossible_check().map_err(|_| ()),
        };
        // Other faults are the board's, named by the check that follows.
        if res.map_or(true, |chess| {
            chess.ep_square(EnPassantMode::Legal).is_some()
        }) {
            pos.push(u32::from(sq));
        }
    }
    Ok(pos)
}

/// The FEN of cells and side (no castling, the en passant square where the cells have one,
/// clocks `0 1`).
pub fn format(pos: &[u32]) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let c = pos.get(rank * 8 + file).copied().unwrap_or(0);
            let ch = match piece(c) {
                Some(p) => p.char(),
                None if c == 0 => {
                    empty += 1;
                    continue;
                }
                None => '?',
            };
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            s.push(ch);
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    let ep = match pos.get(CELLS + 1) {
        Some(&c) if c < 64 => Square::new(c).to_string(),
        Some(_) => "?".to_string(),
        None => "-".to_string(),
    };
    match pos.get(CELLS) {
        Some(0) => s.push_str(&format!(" w - {ep} 0 1")),
        Some(_) => s.push_str(&format!(" b - {ep} 0 1")),
        None => {}
    }
    s
}

/// The board for a person: ranks 8 to 1, files a to h, white upper case.
pub(crate) fn drawing(pos: &[u32]) -> String {
    let mut lines = Vec::new();
    for rank in (0..8).rev() {
        let row: Vec<String> = (0..8)
            .map(|file| {
                let c = pos.get(rank * 8 + file).copied().unwrap_or(0);
                piece(c).map_or('.', |p| p.char()).to_string()
            })
            .collect();
        lines.push(format!("{} {}", rank + 1, row.join(" ")));
    }
    lines.push("  a b c d e f g h".to_string());
    match pos.get(CELLS) {
        Some(0) => lines.push("white to move".to_string()),
        Some(_) => lines.push("black to move".to_string()),
        None => {}
    }
    if let Some(sq) = ep(pos) {
        lines.push(format!("en passant {sq}"));
    }
    lines.join("\n")
}
