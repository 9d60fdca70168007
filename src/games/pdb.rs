//! Disjoint additive pattern databases of sliding-tile puzzles (game 5).
//!
//! A *pattern* is a set of `k` tiles of an `R×C` board (`N = R·C` cells). A *placement* puts
//! each pattern tile on its own cell; the other tiles are indistinguishable. The table stores,
//! for every placement, the fewest moves **of pattern tiles** that bring them home (tile `t`
//! to cell `t − 1`, the blank to the last cell), moves of other tiles costing nothing; one
//! byte per placement, `255` for a placement from which the goal cannot be reached (only
//! possible when `k ≥ N − 2`). The values of disjoint patterns add up to a lower bound on the
//! distance of a position: every move moves a tile of at most one pattern.
//!
//! # Index
//! The pattern tiles are taken in increasing order `t_0 < t_1 < … < t_{k−1}`, with cells
//! `c_0, …, c_{k−1}`. Digit `d_i` is the number of cells below `c_i` not holding one of
//! `t_0 … t_{i−1}`: `d_i = c_i − |{ j < i : c_j < c_i }|`, so `0 ≤ d_i < N − i`. The index is
//! the mixed-radix number with radices `N, N−1, …, N−k+1`, most significant first:
//!
//! ```text
//! index = (((d_0·(N−1) + d_1)·(N−2) + d_2) ··· )·(N−k+1) + d_{k−1}
//! ```
//!
//! which numbers the `N·(N−1)···(N−k+1)` placements densely, in lexicographic order of
//! `(c_0, …, c_{k−1})`. The "Game 5" section of `tables/README.md` works an example through.
//!
//! # Header parameters
//! `[rows, cols, pattern mask (bit t set for each pattern tile t), 0, 0, 0, 0, 0]`.
//!
//! Also here: the standard partitions of the 15 tiles into patterns ([`PARTITIONS`], which
//! `gamedb build fifteen` builds and the 15-puzzle solver adds up) and the default patterns of
//! any board (`standard_patterns`).

use super::board::Board;
use crate::format::Solved;
use crate::game::{
    format_numbers, params, parse_numbers, Arguments, Engine, GameSpec, Move, Param, Rules, View,
};
use crate::model::{Indexed, ValueKind};
use crate::progress::Progress;
use crate::solve::{token_distances, Placements, Saves};
use crate::{Error, Result};

/// Most placements a pattern database may have (indices fit in `u32`).
pub(crate) const MAX_PLACEMENTS: u64 = 1 << 32;

/// Parameters of a pattern database, checked: the board and the pattern tiles.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PdbSpec {
    board: Board,
    /// Pattern tiles, increasing.
    pattern: Vec<u32>,
}

impl PdbSpec {
    /// Checks the board and the pattern: at least one tile, no tile twice, every tile in
    /// `1..R·C` (the blank is no pattern tile), and at most `MAX_PLACEMENTS` placements.
    /// The order of the tiles does not matter.
    pub fn new(rows: u32, cols: u32, pattern: &[u32]) -> Result<PdbSpec> {
        let board = Board::new(rows, cols)?;
        let n = board.cells() as u32;
        let form = format!(
            "a comma-separated list of distinct tiles 1..={} of the {} board",
            n - 1,
            board.name()
        );
        if pattern.is_empty() {
            return Err(Error::bad(format!("--pattern is empty; expected {form}")));
        }
        let mut sorted = pattern.to_vec();
        sorted.sort_unstable();
        for &t in &sorted {
            if t == 0 || t >= n {
                return Err(Error::bad(format!(
                    "--pattern: {t} is not a tile of the {} board (the blank is not a pattern \
                     tile); expected {form}",
                    board.name()
                )));
            }
        }
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::bad(format!(
                "--pattern: tile {} is listed twice; expected {form}",
                w[0]
            )));
        }
        let spec = PdbSpec {
            board,
            pattern: sorted,
        };
        let count = spec.placements_checked();
        match count {
            Some(c) if c <= MAX_PLACEMENTS => Ok(spec),
            _ => Err(Error::Unsupported(format!(
                "a pattern of {} tiles on the {} board has more than {MAX_PLACEMENTS} placements; \
                 use fewer tiles",
                spec.pattern.len(),
                board.name()
            ))),
        }
    }

    /// Parses `1,2,3` into a spec.
    pub fn parse(rows: u32, cols: u32, pattern: &str) -> Result<PdbSpec> {
        let tiles = parse_numbers(
            pattern,
            "a comma-separated list of distinct tiles, e.g. 1,2,3,4,5,6,7".into(),
        )
        .map_err(|e| Error::bad(format!("--pattern: {e}")))?;
        PdbSpec::new(rows, cols, &tiles)
    }

    fn placements_checked(&self) -> Option<u64> {
        let n = self.board.cells() as u64;
        (0..self.pattern.len() as u64).try_fold(1u64, |acc, i| acc.checked_mul(n - i))
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The pattern tiles, increasing.
    pub fn pattern(&self) -> &[u32] {
        &self.pattern
    }

    /// The pattern as a bit mask of tiles.
    pub fn mask(&self) -> u64 {
        self.pattern.iter().fold(0, |m, &t| m | 1 << t)
    }

    /// The index of placements.
    pub fn placements(&self) -> Placements {
        // Checked in `PdbSpec::new`: 1 ≤ k < n ≤ 64.
        Placements::new(self.board.cells(), self.pattern.len())
            .unwrap_or_else(|| unreachable!("checked pattern"))
    }

    /// The pattern written compactly with ranges: `1-7`, `1,5-6,9-10,13`.
    pub(crate) fn pattern_name(&self) -> String {
        ranges(&self.pattern).join(",")
    }

    /// Number of entries: the placements of the pattern tiles on the board.
    pub fn positions(&self) -> u64 {
        // Checked in `PdbSpec::new`: the count fits.
        self.placements_checked().unwrap_or(0)
    }
}

fn ranges(tiles: &[u32]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tiles.len() {
        let mut j = i;
        while j + 1 < tiles.len() && tiles[j + 1] == tiles[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            tiles[i].to_string()
        } else {
            format!("{}-{}", tiles[i], tiles[j])
        });
        i = j + 1;
    }
    out
}

impl GameSpec for PdbSpec {
    const NAME: &'static str = "pdb";
    const ABOUT: &'static str = "A pattern database of a sliding puzzle: for every placement of \
                                 the pattern tiles, the fewest moves of pattern tiles that bring \
                                 them home";
    const PARAMS: &'static [Param] = &[
        Param::required("rows", "R", "Rows of the board"),
        Param::required("cols", "C", "Columns of the board"),
        Param::required(
            "pattern",
            "TILES",
            "The pattern tiles, e.g. `1,2,3,4,5,6,7`",
        ),
    ];
    const VALUES: &'static [ValueKind] = &[ValueKind::Distance];

    fn view(&self) -> View {
        View::with_engine(PdbRules {
            spec: self.clone(),
            index: self.placements(),
        })
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        PdbSpec::parse(a.number("rows")?, a.number("cols")?, a.text("pattern")?)
    }

    fn parameters(&self) -> String {
        params::write(&[
            ("rows", Some(self.board.rows().to_string())),
            ("cols", Some(self.board.cols().to_string())),
            ("pattern", Some(format_numbers(&self.pattern))),
        ])
    }

    fn stem(&self) -> String {
        format!(
            "pdb-{}-{}",
            self.board.name(),
            ranges(&self.pattern).join("_")
        )
    }

    fn describe(&self) -> String {
        format!(
            "pattern database: tiles {} of the {} sliding puzzle",
            self.pattern_name(),
            self.board.name()
        )
    }

    fn samples() -> Vec<Self> {
        [
            (2, 2, vec![1, 2]),
            (2, 3, vec![1, 2, 3]),
            (3, 2, vec![2, 5]),
            (3, 3, vec![1, 5, 8]),
        ]
        .into_iter()
        .filter_map(|(r, c, p)| PdbSpec::new(r, c, &p).ok())
        .collect()
    }
}

/// A pattern database is searched over placements by the token-distance search, not over
/// `Game`; placements have no view with children (the search works on placements and blank
/// components), so the conformance checks hold its rules' ranking and moves alone.
impl Engine for PdbRules {
    fn solve(&self, _kind: ValueKind, progress: &dyn Progress, _: &dyn Saves) -> Result<Solved> {
        let (spec, board) = (&self.spec, self.spec.board);
        let goal: Vec<u8> = spec.pattern.iter().map(|&t| board.home(t) as u8).collect();
        let values = token_distances(board, &goal, board.cells() - 1, progress)
            .map_err(|e| Error::Unsupported(format!("{}: {e}", spec.describe())))?;
        Ok(Solved::Distances(values))
    }

    fn memory(&self, _kind: ValueKind) -> u64 {
        crate::solve::token_distances_memory(self.spec.board.cells(), self.positions())
    }
}

impl Indexed for PdbRules {
    fn positions(&self) -> u64 {
        self.spec.positions()
    }
}

/// Lookups on a pattern database: positions are whole arrangements of the board (the tiles
/// in reading order, 0 for the blank); only where the pattern tiles stand matters.
pub(crate) struct PdbRules {
    spec: PdbSpec,
    index: Placements,
}

impl PdbRules {
    fn cells_of(&self, tiles: &[u32]) -> Vec<u8> {
        let mut cells = vec![0u8; self.spec.pattern.len()];
        for (cell, &t) in tiles.iter().enumerate() {
            if let Ok(i) = self.spec.pattern.binary_search(&t) {
                cells[i] = cell as u8;
            }
        }
        cells
    }
}

impl Rules for PdbRules {
    /// Every pattern tile at home (the other tiles and the blank anywhere).
    fn is_goal(&self, pos: &[u32]) -> bool {
        let board = self.spec.board;
        self.spec.pattern.iter().all(|&t| pos[board.home(t)] == t)
    }

    fn position_form(&self) -> String {
        self.spec.board.position_form()
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        self.spec.board.check(pos)
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        self.index.rank(&self.cells_of(pos))
    }

    /// The pattern tiles on the placement's cells, the other tiles in increasing order on the
    /// remaining cells, the blank on the last of them.
    fn unrank(&self, index: u64) -> Vec<u32> {
        let n = self.spec.board.cells();
        let mut cells = vec![0u8; self.spec.pattern.len()];
        self.index.unrank(index, &mut cells);
        let mut tiles = vec![u32::MAX; n];
        for (&c, &t) in cells.iter().zip(&self.spec.pattern) {
            tiles[c as usize] = t;
        }
        let mut others = (1..n as u32).filter(|t| self.spec.pattern.binary_search(t).is_err());
        let last_free = tiles.iter().rposition(|&t| t == u32::MAX).expect("k < n");
        for (cell, slot) in tiles.iter_mut().enumerate() {
            if *slot == u32::MAX {
                *slot = if cell == last_free {
                    0
                } else {
                    others.next().expect("enough tiles")
                };
            }
        }
        tiles
    }

    fn distance_bound(&self) -> Option<String> {
        Some(format!(
            "moves of tiles {} of the {} board: the fewest moves of those tiles that bring them \
             home, the other tiles moving free (a pattern database; a lower bound on the \
             distance to the goal)",
            self.spec.pattern_name(),
            self.spec.board.name()
        ))
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let board = self.spec.board;
        let blank = pos.iter().position(|&t| t == 0).expect("checked");
        let mut out = Vec::new();
        let mut m = board.neighbours(blank);
        while m != 0 {
            let from = m.trailing_zeros() as usize;
            m &= m - 1;
            let mut leaves = pos.to_vec();
            board.slide(&mut leaves, from, blank);
            out.push(Move {
                label: super::board::move_label(pos[from], board.direction(from, blank)),
                leaves,
            });
        }
        out
    }
}

/// A named partition of the 15 tiles of the 4×4 board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    /// `7-8`, `6-6-3`, `5-5-5`.
    pub name: &'static str,
    /// The patterns.
    pub patterns: &'static [&'static [u32]],
}

/// The standard partitions of the 15-puzzle, strongest first. 7-8 is the halves of the
/// board; 6-6-3 is Korf & Felner's; 5-5-5 a common one.
pub const PARTITIONS: [Partition; 3] = [
    Partition {
        name: "7-8",
        patterns: &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
    },
    Partition {
        name: "6-6-3",
        patterns: &[&[1, 5, 6, 9, 10, 13], &[7, 8, 11, 12, 14, 15], &[2, 3, 4]],
    },
    Partition {
        name: "5-5-5",
        patterns: &[&[1, 2, 3, 4, 7], &[5, 6, 9, 10, 13], &[8, 11, 12, 14, 15]],
    },
];

/// The partition `gamedb build fifteen` builds by default (seconds here; 7-8 takes minutes).
pub(crate) const DEFAULT_PARTITION: &str = "6-6-3";

impl Partition {
    /// The partition called `name`; the error lists the names.
    pub fn named(name: &str) -> Result<Partition> {
        PARTITIONS
            .iter()
            .find(|p| p.name == name)
            .copied()
            .ok_or_else(|| {
                Error::bad(format!(
                    "partition '{name}': expected one of {}",
                    PARTITIONS.map(|p| p.name).join(", ")
                ))
            })
    }

    /// The table specs of the partition's patterns on the 4×4 board.
    pub fn specs(&self) -> Vec<PdbSpec> {
        self.patterns
            .iter()
            .map(|p| PdbSpec::new(4, 4, p).expect("standard patterns are valid"))
            .collect()
    }
}

/// A default partition of any board: the tiles in reading order cut into at least two
/// near-equal runs of at most 8 tiles (on the 4×4 board: 1-7 and 8-15).
pub(crate) fn standard_patterns(board: Board) -> Vec<Vec<u32>> {
    let tiles = board.cells() as u32 - 1;
    let parts = tiles.div_ceil(8).max(2).min(tiles);
    let mut out = Vec::new();
    let mut next = 1;
    for i in 0..parts {
        let size = (tiles + i) / parts;
        out.push((next..next + size).collect());
        next += size;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_names_and_params() {
        let s = PdbSpec::new(4, 4, &[13, 1, 5, 6, 9, 10]).unwrap();
        assert_eq!(s.pattern(), &[1, 5, 6, 9, 10, 13]);
        assert_eq!(s.stem(), "pdb-4x4-1_5-6_9-10_13");
        assert_eq!(s.pattern_name(), "1,5-6,9-10,13");
        assert_eq!(s.parameters(), "rows=4,cols=4,pattern=1,5,6,9,10,13");
        assert_eq!(PdbSpec::from_parameters(&s.parameters()).unwrap(), s);
        assert!(PdbSpec::from_parameters("rows=4,cols=4,pattern=13,1,5,6,9,10").is_err());
        assert_eq!(s.positions(), 16 * 15 * 14 * 13 * 12 * 11);
    }

    #[test]
    fn standard_patterns_cover_the_tiles() {
        let b = Board::new(4, 4).unwrap();
        assert_eq!(
            standard_patterns(b),
            vec![(1..=7).collect::<Vec<_>>(), (8..=15).collect()]
        );
        let b = Board::new(2, 2).unwrap();
        assert_eq!(standard_patterns(b), vec![vec![1], vec![2, 3]]);
        for p in PARTITIONS {
            let mut all: Vec<u32> = p.patterns.concat();
            all.sort_unstable();
            assert_eq!(all, (1..=15).collect::<Vec<_>>(), "{}", p.name);
        }
    }
}
