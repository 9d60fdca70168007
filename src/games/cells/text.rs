//! Boards of cells written as text and drawn: rows of `.`, `x` and `o` separated by `/`,
//! read for the games whose positions are such boards (the m,n,k-games, Connect Four).

use super::{EMPTY, O, X};

/// The cells of a board written row by row from the top, rows separated by `/`, each cell `.`,
/// `x` or `o` (either case), checked to be `rows` rows of `cols` cells; the refusal names what
/// is wrong and the game's position form (`form`, built only then: lookups read millions of
/// texts).
pub(crate) fn board_cells(
    text: &str,
    rows: usize,
    cols: usize,
    form: impl Fn() -> String,
) -> crate::Result<Vec<u32>> {
    let bad = |what: String| {
        Err(crate::Error::bad(format!(
            "position '{}': {what}; expected {}",
            crate::game::echo(text),
            form()
        )))
    };
    let lines: Vec<&str> = text.split('/').collect();
    if lines.len() != rows {
        return bad(format!(
            "{} instead of {rows}",
            crate::game::counted(lines.len(), "row")
        ));
    }
    let mut board = Vec::with_capacity(rows * cols);
    for (r, line) in lines.iter().enumerate() {
        let n = line.chars().count();
        if n != cols {
            return bad(format!(
                "row {} has {} instead of {cols}",
                r + 1,
                crate::game::counted(n, "cell")
            ));
        }
        for ch in line.chars() {
            board.push(match ch {
                '.' => EMPTY,
                'x' | 'X' => X,
                'o' | 'O' => O,
                other => return bad(format!("'{}' is not a cell", other.escape_debug())),
            });
        }
    }
    Ok(board)
}

/// The masks of x's and o's cells of a board written row by row from the top, rows separated
/// by `/`, each cell `.`, `x` or `o` (either case), read straight into bits: bit `bit(r, c)`
/// for the cell of row `r` (from the top) and column `c`. `None` for any other text, which the
/// game's parser then reads or refuses with the reason: the lookups' path from text.
pub(crate) fn read_rows(
    text: &str,
    rows: usize,
    cols: usize,
    bit: impl Fn(usize, usize) -> usize,
) -> Option<(u64, u64)> {
    let (mut x, mut o, mut r) = (0u64, 0u64, 0);
    for line in text.trim().as_bytes().split(|&b| b == b'/') {
        if r == rows || line.len() != cols {
            return None;
        }
        for (c, &ch) in line.iter().enumerate() {
            let b = 1u64 << bit(r, c);
            match ch {
                b'.' => {}
                b'x' | b'X' => x |= b,
                b'o' | b'O' => o |= b,
                _ => return None,
            }
        }
        r += 1;
    }
    (r == rows).then_some((x, o))
}

/// A board drawn for a terminal: the columns lettered from `a`, the rows numbered from 1 at
/// the top (as moves name the cells), each cell `x`, `o` or `.`.
pub(crate) fn grid_board(cols: usize, cells: &[u32]) -> String {
    let mut out = String::from("  ");
    for c in 0..cols {
        out.push(' ');
        out.push((b'a' + c as u8) as char);
    }
    for (r, row) in cells.chunks(cols).enumerate() {
        out.push_str(&format!("\n{:>2}", r + 1));
        for &v in row {
            out.push(' ');
            out.push(match v {
                X => 'x',
                O => 'o',
                _ => '.',
            });
        }
    }
    out
}
