//! Connect Four's boards as people write them: cells row by row from the top, the columns
//! played from the empty board, and what makes a board one no play reaches.

use super::Connect4;
use crate::game::Rules;
use crate::games::cells::{board_cells, EMPTY, O, X};
use crate::model::Standing;
use crate::Result;

impl Connect4 {
    /// The cell of a board (row by row from the top) for column `c`, row `r` from the bottom.
    pub(super) fn cell(&self, c: usize, r: usize) -> usize {
        (self.h - 1 - r) * self.w + c
    }

    /// The bit boards of a board of the right size with cells of 0, 1 or 2.
    pub(super) fn bits(&self, board: &[u32]) -> (u64, u64) {
        let (mut x, mut o) = (0u64, 0u64);
        for c in 0..self.w {
            for r in 0..self.h {
                let bit = 1u64 << (c * (self.h + 1) + r);
                match board[self.cell(c, r)] {
                    X => x |= bit,
                    O => o |= bit,
                    _ => {}
                }
            }
        }
        (x, o)
    }

    pub(super) fn board(&self, x: u64, o: u64) -> Vec<u32> {
        let mut board = vec![EMPTY; self.cells];
        for c in 0..self.w {
            for r in 0..self.h {
                let bit = 1u64 << (c * (self.h + 1) + r);
                board[self.cell(c, r)] = if x & bit != 0 {
                    X
                } else if o & bit != 0 {
                    O
                } else {
                    EMPTY
                };
            }
        }
        board
    }

    /// The first column (0-based) where a disc stands over an empty cell, if any.
    pub(super) fn floating(&self, board: &[u32]) -> Option<usize> {
        (0..self.w).find(|&c| {
            (1..self.h)
                .any(|r| board[self.cell(c, r)] != EMPTY && board[self.cell(c, r - 1)] == EMPTY)
        })
    }

    /// Why a board of the right size is no position, or `None` for a position.
    pub(super) fn illegal(&self, board: &[u32]) -> Option<String> {
        if let Some(c) = self.floating(board) {
            return Some(format!(
                "a disc of column {} stands over an empty cell: discs fall to the lowest empty cell",
                c + 1
            ));
        }
        let (xb, ob) = self.bits(board);
        let (x, o) = (xb.count_ones(), ob.count_ones());
        if x != o && x != o + 1 {
            return Some(format!(
                "{x} x and {o} o: x moves first, so there are as many x as o or one more"
            ));
        }
        match (self.four(xb), self.four(ob)) {
            (true, true) => Some("both sides have four in a row: play stops at the first".into()),
            (true, false) if x == o => {
                Some("x has four in a row but o moved after it: play stops there".into())
            }
            (false, true) if x > o => {
                Some("o has four in a row but x moved after it: play stops there".into())
            }
            _ => None,
        }
    }

    /// The bit of the lowest empty cell of column `c`, or `None` when it is full.
    pub(super) fn drop_bit(&self, all: u64, c: usize) -> Option<u64> {
        let col = (all >> (c * (self.h + 1))) & self.column();
        let height = col.count_ones() as usize;
        (height < self.h).then(|| 1u64 << (c * (self.h + 1) + height))
    }

    /// The board a move sequence leads to, from the empty one (columns 1-based), or why no
    /// game plays it.
    pub(super) fn play(&self, columns: &[usize]) -> std::result::Result<(u64, u64), String> {
        let (mut x, mut o) = (0u64, 0u64);
        let mut ended = None;
        for (i, &c) in columns.iter().enumerate() {
            let nth = i + 1;
            if c == 0 || c > self.w {
                return Err(format!(
                    "move {nth} is column {c}, and the board has columns 1 to {}",
                    self.w
                ));
            }
            if let Some(at) = ended {
                return Err(format!(
                    "move {nth} comes after the game ended at move {at} ({})",
                    if self.over_bits(x, o) == Some(Standing::Tie) {
                        "a full board"
                    } else {
                        "four in a row"
                    }
                ));
            }
            let Some(bit) = self.drop_bit(x | o, c - 1) else {
                return Err(format!(
                    "move {nth} is column {c}, which is full ({} discs)",
                    self.h
                ));
            };
            if i % 2 == 0 {
                x |= bit;
            } else {
                o |= bit;
            }
            if self.over_bits(x, o).is_some() {
                ended = Some(nth);
            }
        }
        Ok((x, o))
    }

    /// The columns of a move sequence: one digit each, or numbers separated by commas or
    /// spaces.
    pub(super) fn columns(text: &str) -> std::result::Result<Vec<usize>, String> {
        let parse = |t: &str| {
            t.parse::<usize>()
                .map_err(|_| format!("'{}' is not a column number", crate::game::echo(t)))
        };
        if text.contains([',', ' ']) {
            text.split([',', ' '])
                .filter(|t| !t.is_empty())
                .map(parse)
                .collect()
        } else {
            text.chars()
                .map(|ch| parse(ch.encode_utf8(&mut [0; 4])))
                .collect()
        }
    }

    pub(super) fn parse_board(&self, text: &str) -> Result<Vec<u32>> {
        let board = self.read_board(text)?;
        self.check(&board)?;
        Ok(board)
    }

    /// The cells of a board's text, unchecked (the message of text that is none names the
    /// form, built only then: lookups read millions of texts).
    pub(super) fn read_board(&self, text: &str) -> Result<Vec<u32>> {
        board_cells(text, self.h, self.w, || self.position_form())
    }
}
