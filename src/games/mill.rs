//! The mill games: Five, Six and Nine Men's Morris (and, as small variants for tests, three
//! and four men on the board of Five and Six, and three men on a 3×3 grid without diagonals,
//! where a mill ends the game as in Three Men's Morris), with the rules as GamesmanOne (the
//! GamesCrafters' solver, `src/games/mills` of its `rs/mills` branch) states them, its
//! "standard" removal rule, and Lasker's rule as a variant (`--lasker`, below):
//! * two players, `x` first, each with N men in hand; the board is the 16 points of two
//!   nested squares joined at their midpoints (Five and Six Men's, and the small variants) or
//!   the 24 points of three (Nine Men's), or the 9 points of a 3×3 grid joined along its rows
//!   and columns (`--points 9`);
//! * while a player has men in hand, a turn places one on an empty point (players place in
//!   turn, so `x` to move holds as many men in hand as `o`, and `o` to move one more); once
//!   both hands are empty, a turn moves a man along a line to an adjacent empty point — or,
//!   with the flying rule, a player with three men on the board moves one to any empty point;
//! * a man placed or moved that completes a line of three of the mover's men (a *mill*)
//!   removes one of the opponent's men from the board: one that is in no mill of the
//!   opponent's, or any of them when all are in mills (none when the opponent has no man on
//!   the board);
//! * a player to move with two men left (on the board and in hand) has lost, and so has a
//!   player to move without a legal move; play that goes on forever is a draw.
//!
//! Lasker's rule (`--lasker`; GamesmanOne's "merge placement and moving phases" with flying
//! counted on the men left): a side with men in hand may place one or move a man on the
//! board; the sides alternate, `x` first, whatever they hold; with flying a side flies with
//! three men left, in hand and on the board.
//!
//! `--endgame K` cuts the game to its moving phase with at most K men a side on the board and
//! none in hand: an endgame table without a start, closed under play (a removal only lowers
//! the counts), so its values are the whole game's.
//!
//! Positions are the points in rows, top first and left to right, separated by `/` (3/3/4/3/3
//! on the 16-point board, 3/3/3/6/3/3/3 on the 24-point one), each `x`, `o` or `.`; then a
//! comma and the side to move; then a comma and the men `x` holds in hand and a comma and those
//! `o` holds (left out: none): the start of Six Men's Morris is `.../.../..../.../...,x,6,6`.
//! Points are named by column letter and row number counted from the bottom (`a5` is the top
//! left of the 16-point board, `a7` of the 24-point one); a move is the point placed on
//! (`c4`) or the point moved from and to (`a5-c5`), then `x` and the point of a man removed
//! (`c4xa5`).
//!
//! The index: tiers by the men of each side in hand and on the board, `(hx, ho, bx, bo)`,
//! those the start reaches by placing, moving and removing (a tier is reached when a move of
//! its parent tier's counts could lead to it: a removal needs three men of the mover's on the
//! board and one of the opponent's); ordered by the men left in the game, then by the men in
//! hand, fewest first: a placement lowers the men in hand, a removal the men in the game, and a
//! move of the moving phase stays in its tier (cycles, which the engine solves). Within a
//! tier, boards are ranked as [`super::cells`] ranks them, times two when both hands are empty
//! (index `2 · rank + side`, 0 for `x` to move) and once otherwise (the men in hand say who
//! moves); with Lasker's rule times two unless a side has no man on the board (that side
//! moves), and a move keeps its tier in the placing phase too. An index is a position unless
//! the side that is not to move has two men left (the game ended when it was brought down to
//! two). The board's symmetries are folded (`mill/symmetry.rs`).

use std::ops::Range;

use super::cells::{Cells, EMPTY, O, X};
use super::starts::Starts;
use crate::game::{params, Arguments, GameSpec, Param, View};
use crate::model::{Indexed, Standing, Tiered, ValueKind, Visit};
use crate::{Error, Result};

mod board;
mod symmetry;
mod text;
mod tier;

use board::Layout;
use symmetry::Folding;
use tier::{tiers, Tier};

/// The boards and the men a side may start with on each: (points, men).
pub(crate) const BOARDS: &[(u32, &[u32])] = &[(9, &[3]), (16, &[3, 4, 5, 6]), (24, &[9, 10])];

/// Parameters of a mill game table, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct MillSpec {
    men: u32,
    points: u32,
    flying: bool,
    endgame: Option<u32>,
    lasker: bool,
}

impl MillSpec {
    /// Checks the men a side starts with and the board: 3 on the 9-point board, 3 to 6 on the
    /// 16-point board (the default up to 6 men), 9 on the 24-point board (the default for 9).
    pub fn new(men: u32, points: Option<u32>, flying: bool) -> Result<MillSpec> {
        let points = points.unwrap_or(if men <= 6 { 16 } else { 24 });
        if !BOARDS.iter().any(|&(p, m)| p == points && m.contains(&men)) {
            return Err(Error::bad(format!(
                "--men {men} --points {points}: expected 3, 4, 5 or 6 men on 16 points (the \
                 games of five and six men), 9 or 10 on 24 (nine men, Lasker) or 3 on 9 (the 3x3 \
                 grid)"
            )));
        }
        Ok(MillSpec {
            men,
            points,
            flying,
            endgame: None,
            lasker: false,
        })
    }

    /// The same game with Lasker's rule (a turn may move a man while the mover has men in
    /// hand) or without; the rule changes the placing phase alone, which an endgame has not.
    pub fn with_lasker(self, lasker: bool) -> Result<MillSpec> {
        if lasker && self.endgame.is_some() {
            return Err(Error::bad(
                "--lasker with --endgame: expected one of them (the Lasker rule changes the placing \
                 phase alone, and an endgame table has none)"
                    .to_string(),
            ));
        }
        Ok(MillSpec { lasker, ..self })
    }

    /// The same game cut to its moving phase with at most `k` men a side on the board and none
    /// in hand (an endgame table: no start), `3 ≤ k ≤ men`; `None` for the whole game.
    pub fn with_endgame(self, k: Option<u32>) -> Result<MillSpec> {
        if let Some(k) = k {
            if !(3..=self.men).contains(&k) {
                return Err(Error::bad(format!(
                    "--endgame {k}: expected 3..={} (the most men a side on the board)",
                    self.men
                )));
            }
        }
        Ok(MillSpec { endgame: k, ..self })
    }

    fn default_points(&self) -> u32 {
        if self.men <= 6 {
            16
        } else {
            24
        }
    }
}

impl GameSpec for MillSpec {
    const NAME: &'static str = "mill";
    const ABOUT: &'static str =
        "The mill games: Five, Six and Nine Men's Morris, place then move men, three in a line removes a man";
    const PARAMS: &'static [Param] = &[
        Param::required(
            "men",
            "N",
            "Men a side: 5 or 6 (Five, Six Men's Morris), 9 (Nine Men's), 3 or 4 (small variants)",
        ),
        Param::optional(
            "points",
            "P",
            "Points of the board: 16 (the default up to 6 men), 24 (9 men), 9 (a 3×3 grid, 3 men)",
        ),
        Param::flag(
            "flying",
            "A player with three men on the board may move one to any empty point",
        ),
        Param::flag(
            "lasker",
            "Lasker's rule: a player with men in hand may place one or move a man on the board",
        ),
        Param::optional(
            "endgame",
            "K",
            "Only the moving phase with at most K men a side on the board, none in hand (no start)",
        ),
    ];
    const VALUES: &'static [ValueKind] = &[ValueKind::Remoteness, ValueKind::Wlt];

    fn view(&self) -> View {
        View::two_player(Mill::new(self.clone()))
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        MillSpec::new(
            a.number("men")?,
            a.optional_number("points")?,
            a.flag("flying"),
        )?
        .with_endgame(a.optional_number("endgame")?)?
        .with_lasker(a.flag("lasker"))
    }

    fn parameters(&self) -> String {
        params::write(&[
            ("men", Some(self.men.to_string())),
            (
                "points",
                (self.points != self.default_points()).then(|| self.points.to_string()),
            ),
            ("flying", self.flying.then(|| "true".into())),
            ("endgame", self.endgame.map(|k| k.to_string())),
            ("lasker", self.lasker.then(|| "true".into())),
        ])
    }

    fn describe(&self) -> String {
        let name = match (self.men, self.points) {
            (3, 9) => "Three Men's Morris on a 3×3 grid without diagonals".to_string(),
            (5, _) => "Five Men's Morris".to_string(),
            (6, _) => "Six Men's Morris".to_string(),
            (9, _) => "Nine Men's Morris".to_string(),
            (10, _) if self.lasker => "Lasker Morris".to_string(),
            (10, _) => "Ten Men's Morris".to_string(),
            (n, _) => format!("{n} men a side on the board of Six Men's Morris"),
        };
        let points = Layout::of(self.points as usize).points;
        format!(
            "{name}: {points} points, {} men a side {}, a mill removes a man, two men left or no \
             move loses{}, x first",
            self.men,
            if self.lasker {
                "placed or moved along the lines in turn (Lasker's rule)"
            } else {
                "placed in turn then moved along the lines"
            },
            if self.flying {
                ", three men fly"
            } else {
                ", no flying"
            }
        ) + &self.endgame.map_or(String::new(), |k| {
            format!("; the moving phase with at most {k} men a side on the board")
        })
    }

    fn samples() -> Vec<Self> {
        // Each rule on the smallest board that has it: the 16 points of Six Men's Morris once
        // (its lines and symmetries), flying and Lasker's rule on the 9 points of Three Men's
        // Morris. The same rules on 16 points (471,497 and 656,257 positions) cost the test
        // suite about a minute of processor time in every check that reads every sample, and
        // test no code the small boards leave out: the board is data, the rules the same code.
        [
            (3, Some(9), false, None, false),
            (3, None, false, None, false),
            (3, Some(9), true, None, false),
            (3, Some(9), true, Some(3), false),
            (3, Some(9), false, None, true),
            (3, Some(9), true, None, true),
        ]
        .into_iter()
        .filter_map(|(n, p, f, k, l)| {
            (MillSpec::new(n, p, f).and_then(|s| s.with_endgame(k)?.with_lasker(l))).ok()
        })
        .collect()
    }
}

/// One move: from a point (`None` for a placement) to a point, removing the man on a point.
#[derive(Clone, Copy)]
struct Step {
    from: Option<usize>,
    to: usize,
    take: Option<usize>,
}

/// A mill game over its dense index.
pub(crate) struct Mill {
    spec: MillSpec,
    layout: Layout,
    cells: Cells,
    tiers: Vec<Tier>,
    /// The tier of each count, at [`Mill::slot`] (`usize::MAX` for counts no play makes).
    tier_of: Vec<usize>,
    /// Where each tier starts.
    starts: Starts,
    /// The board's symmetries: the engine solves one board of each class.
    folding: Folding,
}

/// A decoded position: the tier, the men of x and of o as masks, the side to move.
#[derive(Clone, Copy)]
struct Pos {
    tier: Tier,
    men: [u32; 2],
    side: usize,
}

fn side_name(side: usize) -> char {
    if side == 0 {
        'x'
    } else {
        'o'
    }
}

impl Mill {
    /// The game of `spec`: its tiers and symmetries, made once.
    pub(crate) fn new(spec: MillSpec) -> Mill {
        let layout = Layout::of(spec.points as usize);
        let cells = Cells::new(layout.points);
        let (tiers, of) = tiers(spec.men, layout.points, spec.endgame, spec.lasker);
        let mut tier_of = vec![usize::MAX; (spec.men as usize + 1).pow(4)];
        for (t, i) in of {
            tier_of[Mill::slot(spec.men, &t)] = i;
        }
        let starts = Starts::of_sizes(tiers.iter().map(|t| t.size(&cells)));
        Mill {
            spec,
            folding: Folding::of(&layout),
            layout,
            cells,
            tiers,
            tier_of,
            starts,
        }
    }

    /// Where the tier of counts `t` is kept in `tier_of`.
    fn slot(men: u32, t: &Tier) -> usize {
        let m = men as usize + 1;
        [t.hand[0], t.hand[1], t.board[0], t.board[1]]
            .iter()
            .fold(0, |a, &v| a * m + (v as usize).min(m - 1))
    }

    /// The tier of counts `t`, if play makes them.
    fn tier_index(&self, t: &Tier) -> Option<usize> {
        let all = [t.hand[0], t.hand[1], t.board[0], t.board[1]];
        if all.iter().any(|&v| v > self.spec.men) {
            return None;
        }
        let i = self.tier_of[Mill::slot(self.spec.men, t)];
        (i != usize::MAX).then_some(i)
    }

    fn decode(&self, index: u64) -> Pos {
        let t = self.starts.find(index);
        let tier = self.tiers[t];
        let local = index - self.starts[t];
        let (rank, side) = match tier.fixed() {
            Some(s) => (local, s),
            None => (local / 2, (local % 2) as usize),
        };
        let (x, o) = self
            .cells
            .unrank_bits(tier.board[0] as usize, tier.board[1] as usize, rank);
        Pos {
            tier,
            men: [x as u32, o as u32],
            side,
        }
    }

    /// The index of a position whose tier is in the table.
    fn encode(&self, p: &Pos) -> u64 {
        let (base, stride) = self.tier_base(p);
        base + stride
            * self
                .cells
                .rank_bits(u64::from(p.men[0]), u64::from(p.men[1]))
    }

    /// The index of the first board of `p`'s tier with `p`'s side to move, and how far apart
    /// the ranks of the boards are (the sides take turns in a tier where either may move).
    fn tier_base(&self, p: &Pos) -> (u64, u64) {
        let t = self.tier_index(&p.tier).expect("a tier of the table");
        match p.tier.fixed() {
            Some(_) => (self.starts[t], 1),
            None => (self.starts[t] + p.side as u64, 2),
        }
    }

    /// Why a position whose counts are those of a tier of the table is none, or `None`.
    fn illegal(&self, p: &Pos) -> Option<String> {
        let other = 1 - p.side;
        (p.tier.left(other) <= 2).then(|| {
            format!(
                "{} has two men left and {} is to move: the game ended when {} was brought down \
                 to two",
                side_name(other),
                side_name(p.side),
                side_name(other)
            )
        })
    }

    /// The value of a position where the game is over, for the player to move.
    fn over(&self, p: &Pos) -> Option<Standing> {
        let s = p.side;
        if p.tier.left(s) <= 2 {
            return Some(Standing::Lose);
        }
        if p.tier.hand[s] > 0 || self.flies(p) {
            return None;
        }
        let empty = self.empty(p);
        let mut reach = 0;
        let mut men = p.men[s];
        while men != 0 {
            reach |= self.layout.adjacent[men.trailing_zeros() as usize];
            men &= men - 1;
        }
        (reach & empty == 0).then_some(Standing::Lose)
    }

    /// Whether the side to move flies: three men left, counting those in hand (the same as
    /// on the board once both hands are empty; with Lasker's rule GamesmanOne's "flying rule
    /// applies to total pieces remaining").
    fn flies(&self, p: &Pos) -> bool {
        self.spec.flying && p.tier.left(p.side) <= 3
    }

    /// The empty points a man at `at` goes to, or comes from: its neighbours, or all of them
    /// where its side flies.
    fn reach(&self, flies: bool, empty: u32, at: usize) -> u32 {
        if flies {
            empty
        } else {
            empty & self.layout.adjacent[at]
        }
    }

    fn empty(&self, p: &Pos) -> u32 {
        ((1u32 << self.layout.points) - 1) & !(p.men[0] | p.men[1])
    }

    /// Calls `f` with each move of a position where play goes on and the position it leaves.
    fn each_move(&self, p: &Pos, mut f: impl FnMut(Step, &Pos)) {
        let s = p.side;
        let o = 1 - s;
        let empty = self.empty(p);
        let theirs = p.men[o];
        let free = theirs & !self.layout.in_mills(theirs);
        let removable = if free != 0 { free } else { theirs };
        let mut emit = |from: Option<usize>, to: usize, mine: u32, tier: Tier| {
            let mut next = Pos {
                tier,
                men: [0; 2],
                side: o,
            };
            next.men[s] = mine;
            next.men[o] = theirs;
            if removable != 0 && self.layout.closes(mine, to) {
                let mut r = removable;
                while r != 0 {
                    let c = r.trailing_zeros() as usize;
                    r &= r - 1;
                    let mut taken = next;
                    taken.men[o] &= !(1 << c);
                    taken.tier.board[o] -= 1;
                    f(
                        Step {
                            from,
                            to,
                            take: Some(c),
                        },
                        &taken,
                    );
                }
            } else {
                f(
                    Step {
                        from,
                        to,
                        take: None,
                    },
                    &next,
                );
            }
        };
        if p.tier.hand[s] > 0 {
            let mut tier = p.tier;
            tier.hand[s] -= 1;
            tier.board[s] += 1;
            let mut e = empty;
            while e != 0 {
                let to = e.trailing_zeros() as usize;
                e &= e - 1;
                emit(None, to, p.men[s] | 1 << to, tier);
            }
            if !self.spec.lasker {
                return;
            }
        }
        let flies = self.flies(p);
        let mut men = p.men[s];
        while men != 0 {
            let from = men.trailing_zeros() as usize;
            men &= men - 1;
            let mut e = self.reach(flies, empty, from);
            while e != 0 {
                let to = e.trailing_zeros() as usize;
                e &= e - 1;
                emit(Some(from), to, (p.men[s] & !(1 << from)) | 1 << to, p.tier);
            }
        }
    }

    fn label(&self, step: Step) -> String {
        let n = &self.layout.names;
        let mut out = match step.from {
            Some(f) => format!("{}-{}", n[f], n[step.to]),
            None => n[step.to].clone(),
        };
        if let Some(c) = step.take {
            out += &format!("x{}", n[c]);
        }
        out
    }

    fn to_vec(&self, p: &Pos) -> Vec<u32> {
        let mut v: Vec<u32> = (0..self.layout.points)
            .map(|c| {
                if p.men[0] >> c & 1 == 1 {
                    X
                } else if p.men[1] >> c & 1 == 1 {
                    O
                } else {
                    EMPTY
                }
            })
            .collect();
        v.extend([
            if p.side == 0 { X } else { O },
            p.tier.hand[0],
            p.tier.hand[1],
        ]);
        v
    }

    /// The position of a vector of the right shape (points of 0, 1, 2, then side and hands),
    /// whatever its counts.
    fn pos_of(&self, v: &[u32]) -> Pos {
        let n = self.layout.points;
        let mut men = [0u32; 2];
        for (c, &val) in v[..n].iter().enumerate() {
            match val {
                X => men[0] |= 1 << c,
                O => men[1] |= 1 << c,
                _ => {}
            }
        }
        Pos {
            tier: self.counts(
                [v[n + 1], v[n + 2]],
                [men[0].count_ones(), men[1].count_ones()],
            ),
            men,
            side: usize::from(v[n] == O),
        }
    }

    /// The tier of counts, with the game's rule.
    fn counts(&self, hand: [u32; 2], board: [u32; 2]) -> Tier {
        Tier {
            hand,
            board,
            lasker: self.spec.lasker,
        }
    }

    /// Why counts of a position cannot come from play, or `None`.
    fn bad_counts(&self, p: &Pos) -> Option<String> {
        let n = self.spec.men;
        let t = p.tier;
        for s in 0..2 {
            if t.left(s) > n {
                return Some(format!(
                    "{} has {} men on the board and {} in hand, more than the {n} men a side of \
                     the game",
                    side_name(s),
                    t.board[s],
                    t.hand[s]
                ));
            }
        }
        let turns =
            (t.hand[0] == t.hand[1] && p.side == 0) || t.hand[1] == t.hand[0] + 1 && p.side == 1;
        if let (true, Some(s)) = (self.spec.lasker, t.fixed()) {
            if p.side != s {
                return Some(format!(
                    "{} has no man on the board and {} is to move: with the Lasker rule a turn \
                     leaves the mover a man on the board, so a side with none is to move (x at \
                     the start)",
                    side_name(s),
                    side_name(p.side)
                ));
            }
        }
        if t.placing() && !turns && !self.spec.lasker {
            return Some(format!(
                "x holds {} men in hand and o {} with {} to move: players place in turn, x \
                 first, so x to move holds as many as o and o to move one more",
                t.hand[0],
                t.hand[1],
                side_name(p.side)
            ));
        }
        for s in 0..2 {
            if t.left(s) < 2 {
                return Some(format!(
                    "{} has fewer than two men left: the game ends when a side is down to two",
                    side_name(s)
                ));
            }
        }
        if self.tier_index(&t).is_none() {
            return Some(match self.spec.endgame {
                Some(k) => format!(
                    "this endgame table holds the moving phase alone, no men in hand and at most \
                     {k} men a side on the board"
                ),
                None => "no play makes these counts: a man is removed only by a mill, which \
                         needs three men of the mover on the board, and a side down to two men \
                         has lost"
                    .to_string(),
            });
        }
        None
    }
}

impl Indexed for Mill {
    fn positions(&self) -> u64 {
        self.starts.total()
    }
}

impl Tiered for Mill {
    fn tier_count(&self) -> u64 {
        self.tiers.len() as u64
    }
    fn tier(&self, t: u64) -> Range<u64> {
        self.starts.range(t as usize)
    }
    fn legal(&self, pos: u64) -> bool {
        self.illegal(&self.decode(pos)).is_none()
    }
    fn terminal(&self, pos: u64) -> Option<Standing> {
        self.over(&self.decode(pos))
    }
    fn children<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
        let p = self.decode(pos);
        if self.over(&p).is_some() {
            return;
        }
        self.each_move(&p, |_, next| f(self.least_index(next)));
    }
    fn visit<F: FnMut(u64)>(&self, pos: u64, mut f: F) -> Visit {
        let p = self.decode(pos);
        if !self.is_least(&p) {
            return Visit::Image;
        }
        if self.illegal(&p).is_some() {
            return Visit::Illegal;
        }
        if let Some(v) = self.over(&p) {
            return Visit::Over(v);
        }
        self.each_move(&p, |_, next| f(self.least_index(next)));
        Visit::Moves
    }
    fn moves_bound(&self) -> u64 {
        // A placement on any point or a man to any point, times a removal of each of the
        // opponent's men.
        let points = self.layout.points as u64;
        let men = self.spec.men as u64;
        if self.spec.lasker {
            // Placements and moves of the same turn.
            return (points + men * points) * men;
        }
        points.max(men * points) * men
    }
    fn start_index(&self) -> Option<u64> {
        if self.spec.endgame.is_some() {
            return None;
        }
        let start = Pos {
            tier: self.counts([self.spec.men; 2], [0, 0]),
            men: [0, 0],
            side: 0,
        };
        Some(self.encode(&start))
    }
    fn symmetries(&self) -> u64 {
        self.folding.table.len() as u64
    }
    fn represents(&self, pos: u64) -> bool {
        self.is_least(&self.decode(pos))
    }
    fn images<F: FnMut(u64)>(&self, pos: u64, f: F) {
        self.each_image(&self.decode(pos), f);
    }
    /// Board by board: where both sides may move, two indices in a row hold one board.
    fn representatives(&self, first: u64, n: usize, keep: &mut [u64]) -> bool {
        let t = self.starts.find(first);
        let tier = self.tiers[t];
        let stride = if tier.fixed().is_some() { 1 } else { 2 };
        let local = first - self.starts[t];
        let (nx, no) = (tier.board[0] as usize, tier.board[1] as usize);
        let mut last = (u64::MAX, false);
        for i in 0..n {
            let word = i / 64;
            let rank = (local + i as u64) / stride;
            if last.0 != rank {
                let (x, o) = self.cells.unrank_bits(nx, no, rank);
                last = (rank, self.folding.table.is_least(x, o));
            }
            let bit = 1u64 << (i % 64);
            if last.1 {
                keep[word] |= bit;
            } else {
                keep[word] &= !bit;
            }
        }
        true
    }
    fn lists_tier_parents(&self, _t: u64) -> bool {
        true
    }
    /// The moves that stay in a tier move a man and close no mill (or close one when the
    /// opponent has no man on the board to lose, with Lasker's rule): the man of the side
    /// that just moved, standing where no such mill holds it, goes back to a neighbouring
    /// empty point, or to any empty point where that side flies. Symmetric parents can name
    /// one representative twice: not once each.
    fn tier_parents<F: FnMut(u64)>(&self, pos: u64, mut f: F) -> bool {
        let c = self.decode(pos);
        if !c.tier.keeps_moves() || c.tier.fixed().is_some() {
            return true;
        }
        let mover = 1 - c.side;
        let mut parent = Pos { side: mover, ..c };
        let flies = self.flies(&parent);
        let empty = self.empty(&c);
        let removes = c.men[c.side] != 0;
        let mut men = c.men[mover];
        while men != 0 {
            let to = men.trailing_zeros() as usize;
            men &= men - 1;
            if removes && self.layout.closes(c.men[mover], to) {
                continue;
            }
            let mut from = self.reach(flies, empty, to);
            while from != 0 {
                let at = from.trailing_zeros() as usize;
                from &= from - 1;
                parent.men[mover] = (c.men[mover] & !(1 << to)) | 1 << at;
                f(self.least_index(&parent));
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    #[test]
    fn boards_have_their_lines_names_and_neighbours() {
        let six = Layout::of(16);
        assert_eq!(six.names[0], "a5");
        assert_eq!(six.names[6], "a3");
        assert_eq!(six.names[15], "e1");
        assert_eq!(six.lines.len(), 8);
        let edges: u32 = six.adjacent.iter().map(|a| a.count_ones()).sum();
        assert_eq!(edges, 2 * 20);
        let grid = Layout::of(9);
        assert_eq!(grid.names[0], "a3");
        assert_eq!(grid.names[8], "c1");
        let edges: u32 = grid.adjacent.iter().map(|a| a.count_ones()).sum();
        assert_eq!(edges, 2 * 12);
        let nine = Layout::of(24);
        assert_eq!(nine.names[0], "a7");
        assert_eq!(nine.names[12], "e4");
        assert_eq!(nine.names[23], "g1");
        assert_eq!(nine.lines.len(), 16);
        let edges: u32 = nine.adjacent.iter().map(|a| a.count_ones()).sum();
        assert_eq!(edges, 2 * 32);
    }

    #[test]
    fn placing_moving_and_removing() {
        let g = Mill::new(MillSpec::new(6, None, false).unwrap());
        let start = g.start().unwrap();
        assert_eq!(g.format(&start), ".../.../..../.../...,x,6,6");
        assert_eq!(g.moves(&start).len(), 16);
        // x closes a5 c5 e5 by placing e5: o's men at c4 and a3 may go, not o's mill.
        let p = g.parse("xx./ooo/o..x/.../..x,x,2,2").unwrap();
        let labels: Vec<String> = g.moves(&p).into_iter().map(|m| m.label).collect();
        assert!(labels.contains(&"e5xa3".to_string()), "{labels:?}");
        assert!(!labels.iter().any(|l| l == "e5xc4"), "{labels:?}");
        // In the moving phase a man slides to a neighbour.
        let p = g.parse("xx./ooo/o..x/.../...,x").unwrap();
        let labels: Vec<String> = g.moves(&p).into_iter().map(|m| m.label).collect();
        assert!(labels.contains(&"e3-e5xa3".to_string()), "{labels:?}");
        assert!(labels.contains(&"e3-e1".to_string()), "{labels:?}");
    }
}
