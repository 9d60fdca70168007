//! The boards of the mill games: points, lines of three, neighbours and the picture
//! `gamedb play` draws.

/// A board as written down: points, points a row, lines of three, joins that are no part of
/// a line, the picture.
type Geometry = (
    usize,
    &'static [usize],
    &'static [[usize; 3]],
    &'static [[usize; 2]],
    &'static str,
);

/// A board: its points, lines of three and adjacencies.
pub(super) struct Layout {
    pub(super) points: usize,
    /// Points in each row, top first.
    pub(super) rows: &'static [usize],
    /// Each point's name (column letter, row from the bottom).
    pub(super) names: Vec<String>,
    /// Each point's place in the picture's grid, (row, column) from its centre: what the
    /// board's symmetries are derived from.
    pub(super) at: Vec<(i32, i32)>,
    /// The lines of three, as masks.
    pub(super) lines: Vec<u32>,
    /// Each point's neighbours along the lines, as masks.
    pub(super) adjacent: Vec<u32>,
    /// The board drawn, each point a `*` in index order.
    pub(super) picture: &'static str,
}

const PICTURE_16: &str = "\
5 *-----*-----*
  |     |     |
4 |  *--*--*  |
  |  |     |  |
3 *--*     *--*
  |  |     |  |
2 |  *--*--*  |
  |     |     |
1 *-----*-----*
  a  b  c  d  e";

const PICTURE_9: &str = "\
3 *--*--*
  |  |  |
2 *--*--*
  |  |  |
1 *--*--*
  a  b  c";

const PICTURE_24: &str = "\
7 *--------*--------*
  |        |        |
6 |  *-----*-----*  |
  |  |     |     |  |
5 |  |  *--*--*  |  |
  |  |  |     |  |  |
4 *--*--*     *--*--*
  |  |  |     |  |  |
3 |  |  *--*--*  |  |
  |  |     |     |  |
2 |  *-----*-----*  |
  |        |        |
1 *--------*--------*
  a  b  c  d  e  f  g";

impl Layout {
    pub(super) fn of(points: usize) -> Layout {
        let (points, rows, lines, extra, picture): Geometry = match points {
            9 => (
                9,
                &[3, 3, 3],
                &[
                    [0, 1, 2],
                    [3, 4, 5],
                    [6, 7, 8],
                    [0, 3, 6],
                    [1, 4, 7],
                    [2, 5, 8],
                ],
                &[],
                PICTURE_9,
            ),
            24 => (
                24,
                &[3, 3, 3, 6, 3, 3, 3],
                &[
                    [0, 1, 2],
                    [3, 4, 5],
                    [6, 7, 8],
                    [9, 10, 11],
                    [12, 13, 14],
                    [15, 16, 17],
                    [18, 19, 20],
                    [21, 22, 23],
                    [0, 9, 21],
                    [3, 10, 18],
                    [6, 11, 15],
                    [1, 4, 7],
                    [16, 19, 22],
                    [8, 12, 17],
                    [5, 13, 20],
                    [2, 14, 23],
                ],
                &[],
                PICTURE_24,
            ),
            _ => (
                16,
                &[3, 3, 4, 3, 3],
                &[
                    [0, 1, 2],
                    [3, 4, 5],
                    [10, 11, 12],
                    [13, 14, 15],
                    [0, 6, 13],
                    [3, 7, 10],
                    [5, 8, 12],
                    [2, 9, 15],
                ],
                &[[1, 4], [6, 7], [8, 9], [11, 14]],
                PICTURE_16,
            ),
        };
        let mut adjacent = vec![0u32; points];
        let mut join = |a: usize, b: usize| {
            adjacent[a] |= 1 << b;
            adjacent[b] |= 1 << a;
        };
        for l in lines {
            join(l[0], l[1]);
            join(l[1], l[2]);
        }
        for e in extra {
            join(e[0], e[1]);
        }
        // Names from the picture: a point's column is its place on its line of text.
        let mut names = Vec::new();
        let mut at = Vec::new();
        let text: Vec<&str> = picture.lines().collect();
        let height = (text.len() - 1) / 2 + 1;
        let centre = (height / 2) as i32;
        for (i, line) in text.iter().enumerate().take(text.len() - 1).step_by(2) {
            for (c, ch) in line.char_indices() {
                if ch == '*' {
                    let col = (b'a' + ((c - 2) / 3) as u8) as char;
                    names.push(format!("{col}{}", height - i / 2));
                    at.push(((i / 2) as i32 - centre, ((c - 2) / 3) as i32 - centre));
                }
            }
        }
        Layout {
            points,
            rows,
            names,
            at,
            lines: lines
                .iter()
                .map(|l| l.iter().fold(0, |m, &p| m | 1 << p))
                .collect(),
            adjacent,
            picture,
        }
    }

    /// The men of `side` that stand in a mill.
    pub(super) fn in_mills(&self, men: u32) -> u32 {
        self.lines
            .iter()
            .filter(|&&l| l & men == l)
            .fold(0, |m, &l| m | l)
    }

    /// Whether `men` (after a man came to `to`) has a mill through `to`.
    pub(super) fn closes(&self, men: u32, to: usize) -> bool {
        self.lines.iter().any(|&l| l >> to & 1 == 1 && l & men == l)
    }
}
