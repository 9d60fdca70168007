//! The mill games as people read and write them: positions, moves, the board drawn.

use super::{side_name, Mill};
use crate::game::{Move, Rules};
use crate::games::cells::{EMPTY, O, X};
use crate::model::Standing;
use crate::{Error, Result};

impl Rules for Mill {
    fn parse(&self, text: &str) -> Result<Vec<u32>> {
        let form = self.position_form();
        let text = text.trim();
        if let (Some(start), "start") = (self.start(), text) {
            return Ok(start);
        }
        let echo = crate::game::echo(text);
        let fields: Vec<&str> = text.split(',').map(str::trim).collect();
        if fields.len() != 2 && fields.len() != 4 {
            return Err(Error::bad(format!(
                "position '{echo}': {} separated by commas; expected {form}",
                crate::game::counted(fields.len(), "field")
            )));
        }
        let side = match fields[1] {
            "x" | "X" => X,
            "o" | "O" => O,
            other => {
                return Err(Error::bad(format!(
                    "position '{echo}': '{}' is not a side to move; expected {form}",
                    crate::game::echo(other)
                )))
            }
        };
        let rows: Vec<&str> = fields[0].split('/').collect();
        let want = self.layout.rows;
        if rows.len() != want.len() {
            return Err(Error::bad(format!(
                "position '{echo}': {} instead of {}; expected {form}",
                crate::game::counted(rows.len(), "row"),
                want.len()
            )));
        }
        let mut pos = Vec::with_capacity(self.layout.points + 3);
        for (r, (row, &len)) in rows.iter().zip(want).enumerate() {
            let count = row.chars().count();
            if count != len {
                return Err(Error::bad(format!(
                    "position '{echo}': row {} has {} instead of {len}; expected {form}",
                    r + 1,
                    crate::game::counted(count, "point")
                )));
            }
            for ch in row.chars() {
                pos.push(match ch {
                    '.' => EMPTY,
                    'x' | 'X' => X,
                    'o' | 'O' => O,
                    other => {
                        return Err(Error::bad(format!(
                            "position '{echo}': '{}' is not a point; expected {form}",
                            other.escape_debug()
                        )))
                    }
                });
            }
        }
        pos.push(side);
        for h in fields.get(2..).unwrap_or(&[]) {
            match h.parse::<u32>() {
                Ok(v) if v <= self.spec.men => pos.push(v),
                _ => {
                    return Err(Error::bad(format!(
                        "position '{echo}': '{}' is not a count of men in hand (0..={}); expected \
                         {form}",
                        crate::game::echo(h),
                        self.spec.men
                    )))
                }
            }
        }
        pos.resize(self.layout.points + 3, 0);
        self.check(&pos)?;
        Ok(pos)
    }

    fn position_form(&self) -> String {
        let rows = self.layout.rows;
        let shape = rows
            .iter()
            .map(|r| r.to_string())
            .collect::<Vec<_>>()
            .join("/");
        let start = rows
            .iter()
            .map(|&r| ".".repeat(r))
            .collect::<Vec<_>>()
            .join("/");
        format!(
            "the {} points in rows of {shape}, top first, separated by '/', each x, o or ., \
             then ',' and the side to move, x or o, then ',' and the men x holds in hand and ',' \
             and the men o holds (both left out: none; {}), as play can make it",
            self.layout.points,
            match self.spec.endgame {
                Some(k) =>
                    format!("this endgame table has none in hand and at most {k} men a side"),
                None => format!("the start is {start},x,{n},{n}", n = self.spec.men),
            }
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        let n = self.layout.points;
        if pos.len() != n + 3
            || pos[..n].iter().any(|&v| v > O)
            || !matches!(pos[n], X | O)
            || pos[n + 1] > self.spec.men
            || pos[n + 2] > self.spec.men
        {
            return crate::game::bad_position(
                self,
                pos,
                format!(
                    "expected {n} points of 0 (empty), 1 (x) or 2 (o), then the side to move, 1 \
                     (x) or 2 (o), then the men x and o hold in hand, 0..={}",
                    self.spec.men
                ),
            );
        }
        let p = self.pos_of(pos);
        crate::game::no_play_makes(self, pos, self.bad_counts(&p).or_else(|| self.illegal(&p)))
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        self.encode(&self.pos_of(pos))
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        self.to_vec(&self.decode(index))
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let p = self.pos_of(pos);
        if self.over(&p).is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        self.each_move(&p, |step, next| {
            out.push(Move {
                label: self.label(step),
                leaves: self.to_vec(next),
            })
        });
        out
    }

    fn terminal_standing(&self, pos: &[u32]) -> Option<Standing> {
        self.over(&self.pos_of(pos))
    }

    fn start(&self) -> Option<Vec<u32>> {
        if self.spec.endgame.is_some() {
            return None;
        }
        let mut pos = vec![EMPTY; self.layout.points];
        pos.extend([X, self.spec.men, self.spec.men]);
        Some(pos)
    }

    fn board(&self, pos: &[u32]) -> String {
        let n = self.layout.points;
        let mut points = pos[..n.min(pos.len())].iter();
        let mut out: String = self
            .layout
            .picture
            .chars()
            .map(|ch| match ch {
                '*' => match points.next() {
                    Some(&X) => 'x',
                    Some(&O) => 'o',
                    _ => '.',
                },
                other => other,
            })
            .collect();
        if pos.len() == n + 3 {
            out += &format!(
                "\n{} to move; in hand: x {}, o {}",
                side_name(usize::from(pos[n] == O)),
                pos[n + 1],
                pos[n + 2]
            );
        }
        out
    }

    fn format(&self, pos: &[u32]) -> String {
        let n = self.layout.points;
        let mut at = 0;
        let rows: Vec<String> = self
            .layout
            .rows
            .iter()
            .map(|&len| {
                let row = pos
                    .iter()
                    .take(n)
                    .skip(at)
                    .take(len)
                    .map(|&v| match v {
                        X => 'x',
                        O => 'o',
                        _ => '.',
                    })
                    .collect();
                at += len;
                row
            })
            .collect();
        let rows = rows.join("/");
        match pos.get(n..n + 3) {
            Some(&[side, hx, ho]) => {
                format!("{rows},{},{hx},{ho}", side_name(usize::from(side == O)))
            }
            _ => rows,
        }
    }
}
