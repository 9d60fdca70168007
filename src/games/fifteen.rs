//! Optimal solutions of sliding-tile puzzles from additive pattern databases: the 15-puzzle,
//! whose 10,461,394,944,000 solvable positions do not fit a complete table, and any other
//! board whose pattern tables are built.
//!
//! The heuristic is the sum of the values of a *partition* of the tiles into disjoint patterns
//! (each a table of [`super::pdb`]); on square boards it is maxed with the same sum on the
//! position reflected about the main diagonal (Korf & Felner 2002). The search is IDA*
//! ([`crate::solve::ida`]); this module only supplies the puzzle as an
//! [`IdaProblem`]: incremental pattern ranks, lazily evaluated reflected sum, and
//! prefetching of the table entries of a node's children.
//!
//! Unsolvable arrangements are answered without search by the parity invariant
//! ([`Board::solvable`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::board::{Board, Step};
use super::pdb::PdbSpec;
use super::{GameSpec, Spec};
use crate::format::ValueKind;
use crate::lookup::Table;
use crate::solve::{ida_star, IdaProblem};
use crate::{json, Error, Result};

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
pub const DEFAULT_PARTITION: &str = "6-6-3";

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
pub fn standard_patterns(board: Board) -> Vec<Vec<u32>> {
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

/// How a [`Solver`] chooses and checks its tables.
#[derive(Clone, Debug)]
pub struct Options {
    /// Use these patterns; `None`: the best partition found in the folder (most entries).
    pub patterns: Option<Vec<Vec<u32>>>,
    /// Max the heuristic with its value on the reflected position (square boards only).
    pub reflect: bool,
    /// Check every table's payload checksum when opening.
    pub verify: bool,
    /// Copy the tables into memory backed by huge pages where the OS allows (faster
    /// lookups; costs the copy at opening and the tables' size in memory). Otherwise the
    /// search reads the memory-mapped files.
    pub copy: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            patterns: None,
            reflect: true,
            verify: true,
            copy: false,
        }
    }
}

/// The answer for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The position as given.
    pub position: Vec<u32>,
    /// Whether the goal can be reached.
    pub solvable: bool,
    /// Why not, when it cannot.
    pub reason: Option<String>,
    /// Optimal length (`None` when unsolvable).
    pub length: Option<u32>,
    /// An optimal solution.
    pub moves: Vec<Step>,
    /// States whose moves were generated.
    pub expanded: u64,
    /// States whose heuristic was evaluated.
    pub generated: u64,
    /// The heuristic of the position.
    pub heuristic: u32,
    /// Seconds spent searching.
    pub seconds: f64,
}

impl Solution {
    /// One line: `POS: 52 moves: slide 12 up, slide 5 left, ...  (N nodes expanded, M generated,
    /// heuristic H, T ms)`.
    pub fn to_text(&self) -> String {
        let pos = crate::game::format_numbers(&self.position);
        match (self.length, &self.reason) {
            (Some(len), _) => format!(
                "{pos}: {len} move{}{}{}  ({} nodes expanded, {} generated, heuristic {}, {:.3} ms)",
                if len == 1 { "" } else { "s" },
                if self.moves.is_empty() { "" } else { ": " },
                self.moves
                    .iter()
                    .map(Step::label)
                    .collect::<Vec<_>>()
                    .join(", "),
                self.expanded,
                self.generated,
                self.heuristic,
                self.seconds * 1e3
            ),
            (None, reason) => format!(
                "{pos}: unsolvable: {}",
                reason.as_deref().unwrap_or("no solution")
            ),
        }
    }

    /// One JSON object: `position`, `solvable`, `distance` (null when unsolvable), `moves`
    /// (labels such as `slide 12 up`), `nodes_expanded`, `nodes_generated`, `heuristic`,
    /// `seconds`, and `reason` when unsolvable.
    pub fn to_json(&self) -> String {
        let mut o = json::Object::new()
            .str("position", &crate::game::format_numbers(&self.position))
            .bool("solvable", self.solvable);
        o = match self.length {
            Some(l) => o.num("distance", l),
            None => o.null("distance"),
        };
        let moves = json::array(self.moves.iter().map(|m| {
            let mut s = String::new();
            json::string(&mut s, &m.label());
            s
        }));
        o = o
            .raw("moves", &moves)
            .num("nodes_expanded", self.expanded)
            .num("nodes_generated", self.generated)
            .num("heuristic", self.heuristic)
            .num("seconds", format!("{:.6}", self.seconds));
        if let Some(r) = &self.reason {
            o = o.str("reason", r);
        }
        o.finish()
    }
}

/// Solves one position with the tables found in `tables_dir` (see [`Solver::open`]).
pub fn solve(rows: u32, cols: u32, tiles: &[u32], tables_dir: &Path) -> Result<Solution> {
    Solver::open(rows, cols, tables_dir, &Options::default())?.solve(tiles)
}

/// Open pattern tables of one board, ready to solve many positions.
pub struct Solver {
    board: Board,
    tables: Vec<(PdbSpec, Table)>,
    /// The tables' values copied to huge pages (empty: read the mapped files).
    copies: Vec<Vec<u8>>,
    reflect: bool,
}

/// How to build the tables the solver misses.
fn build_hint(board: Board, dir: &Path) -> String {
    let out = format!("--out {}", dir.display());
    if board.rows() == 4 && board.cols() == 4 {
        format!(
            "build them with `gamedb build fifteen {out}` (partition {DEFAULT_PARTITION}, \
             seconds) or `gamedb build fifteen --partition 7-8 {out}` (the strongest, minutes)"
        )
    } else {
        let cmds: Vec<String> = standard_patterns(board)
            .iter()
            .map(|p| {
                format!(
                    "`gamedb build pdb --rows {} --cols {} --pattern {} {out}`",
                    board.rows(),
                    board.cols(),
                    crate::game::format_numbers(p)
                )
            })
            .collect();
        format!("build them with {}", cmds.join(" and "))
    }
}

impl Solver {
    /// Opens the pattern tables of the `rows × cols` board in `dir`: the patterns of
    /// `options.patterns`, or else the partition of the tiles with the most entries among the
    /// tables present (7-8 before 6-6-3 before 5-5-5 on the 4×4 board). The error names the
    /// build commands when no partition is complete.
    pub fn open(rows: u32, cols: u32, dir: &Path, options: &Options) -> Result<Solver> {
        let board = Board::new(rows, cols)?;
        let candidates = find_tables(board, dir);
        let chosen: Vec<(PdbSpec, PathBuf)> = match &options.patterns {
            Some(patterns) => {
                let mut out = Vec::new();
                let mut covered = 0u64;
                for p in patterns {
                    let spec = PdbSpec::new(rows, cols, p)?;
                    if spec.mask() & covered != 0 {
                        return Err(Error::bad(format!(
                            "patterns overlap at tile {}; additive heuristics need disjoint patterns",
                            (spec.mask() & covered).trailing_zeros()
                        )));
                    }
                    covered |= spec.mask();
                    let path = dir.join(Spec::Pdb(spec.clone()).file_name(ValueKind::Distance));
                    if !candidates.iter().any(|(s, _)| s == &spec) {
                        return Err(Error::Unsupported(format!(
                            "{}: no table of tiles {} of the {} board; build it with `gamedb \
                             build pdb --rows {rows} --cols {cols} --pattern {} --out {}`",
                            path.display(),
                            spec.pattern_name(),
                            board.name(),
                            crate::game::format_numbers(spec.pattern()),
                            dir.display()
                        )));
                    }
                    out.push((spec, path));
                }
                out
            }
            None => best_partition(board, &candidates).ok_or_else(|| {
                Error::Unsupported(format!(
                    "no complete set of pattern tables of the {} board in {}: {}",
                    board.name(),
                    dir.display(),
                    build_hint(board, dir)
                ))
            })?,
        };
        let mut tables = Vec::new();
        for (spec, path) in chosen {
            let table = Table::open(&path)?;
            if options.verify {
                table.verify()?;
            }
            tables.push((spec, table));
        }
        let copies = if options.copy {
            tables
                .iter()
                .map(|(_, t)| super::pdb::copy_to_huge_pages(t.file().payload()))
                .collect()
        } else {
            Vec::new()
        };
        Ok(Solver {
            board,
            tables,
            copies,
            reflect: options.reflect && board.is_square(),
        })
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The patterns in use, e.g. `1-7 + 8-15`, and whether the reflection is used.
    pub fn describe(&self) -> String {
        let names: Vec<String> = self.tables.iter().map(|(s, _)| s.pattern_name()).collect();
        format!(
            "{} board, tables {}{}",
            self.board.name(),
            names.join(" + "),
            if self.reflect {
                ", maxed with the reflected position"
            } else {
                ""
            }
        )
    }

    /// The files of the tables in use.
    pub fn files(&self) -> Vec<PathBuf> {
        self.tables
            .iter()
            .map(|(_, t)| t.file().path().to_path_buf())
            .collect()
    }

    /// Parses and solves a position written `t1,t2,...`.
    pub fn solve_text(&self, text: &str) -> Result<Solution> {
        let tiles = self.board.parse(text)?;
        self.solve(&tiles)
    }

    /// The heuristic of a checked position (sum of the tables, maxed with the reflection).
    pub fn heuristic(&self, tiles: &[u32]) -> Result<u32> {
        self.board.check(tiles)?;
        let statics = Statics::new(self);
        let mut state = State::new(&statics, tiles);
        Ok(state.lower_bound(u32::MAX))
    }

    /// An optimal solution of a position (checked here), or the reason there is none.
    pub fn solve(&self, tiles: &[u32]) -> Result<Solution> {
        self.board.check(tiles)?;
        if let Some(answer) = parity_answer(self.board, tiles) {
            return Ok(answer);
        }
        let mut solution = Solution {
            position: tiles.to_vec(),
            solvable: false,
            reason: None,
            length: None,
            moves: Vec::new(),
            expanded: 0,
            generated: 0,
            heuristic: 0,
            seconds: 0.0,
        };
        let started = Instant::now();
        let statics = Statics::new(self);
        let mut state = State::new(&statics, tiles);
        solution.heuristic = state.lower_bound(u32::MAX);
        let outcome = ida_star(&mut state, MAX_LENGTH);
        solution.seconds = started.elapsed().as_secs_f64();
        solution.expanded = outcome.expanded;
        solution.generated = outcome.generated;
        let path = outcome.path.ok_or_else(|| {
            Error::Unsupported(format!(
                "no solution of at most {MAX_LENGTH} moves found: the tables in use do not \
                 give a lower bound (damaged or wrong tables?)"
            ))
        })?;
        let mut board_tiles = tiles.to_vec();
        for m in &path {
            let tile = board_tiles[m.from as usize];
            solution.moves.push(Step {
                tile,
                dir: self.board.direction(m.from as usize, m.to as usize),
            });
            self.board
                .slide(&mut board_tiles, m.from as usize, m.to as usize);
        }
        debug_assert_eq!(board_tiles, self.board.goal());
        solution.solvable = true;
        solution.length = Some(path.len() as u32);
        Ok(solution)
    }
}

/// The answer for a checked arrangement that the parity invariant rules out, without tables
/// or search; `None` when it can reach the goal.
pub fn parity_answer(board: Board, tiles: &[u32]) -> Option<Solution> {
    (!board.solvable(tiles)).then(|| Solution {
        position: tiles.to_vec(),
        solvable: false,
        reason: Some(
            "the parity of the permutation of the cells (blank included) plus the blank's \
             distance to its goal cell is odd, and every move keeps it (THEOREMS.md §4)"
                .into(),
        ),
        length: None,
        moves: Vec::new(),
        expanded: 0,
        generated: 0,
        heuristic: 0,
        seconds: 0.0,
    })
}

/// Longest solution searched for (far beyond any board a byte table can serve).
const MAX_LENGTH: u32 = 10_000;

/// The pattern tables of `board` in `dir` whose headers open.
fn find_tables(board: Board, dir: &Path) -> Vec<(PdbSpec, PathBuf)> {
    let prefix = format!("pdb-{}-", board.name());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.starts_with(&prefix) || !name.ends_with(crate::format::EXTENSION) {
            continue;
        }
        if let Ok(t) = Table::open(e.path()) {
            if let Spec::Pdb(spec) = t.spec() {
                let standard = Spec::Pdb(spec.clone()).file_name(ValueKind::Distance);
                if spec.board() == board && name == standard {
                    out.push((spec.clone(), e.path()));
                }
            }
        }
    }
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
}

/// Among the candidate tables, the disjoint set covering every tile with the most entries
/// (fewest tables on ties).
fn best_partition(
    board: Board,
    candidates: &[(PdbSpec, PathBuf)],
) -> Option<Vec<(PdbSpec, PathBuf)>> {
    let all_tiles = board.all() & !1;
    let mut best: Option<(u64, usize, Vec<usize>)> = None;
    let mut chosen = Vec::new();
    fn search(
        c: &[(PdbSpec, PathBuf)],
        all: u64,
        covered: u64,
        chosen: &mut Vec<usize>,
        best: &mut Option<(u64, usize, Vec<usize>)>,
    ) {
        if covered == all {
            let entries: u64 = chosen.iter().map(|&i| c[i].0.positions()).sum();
            let better = match best {
                None => true,
                Some((e, n, _)) => entries > *e || (entries == *e && chosen.len() < *n),
            };
            if better {
                *best = Some((entries, chosen.len(), chosen.clone()));
            }
            return;
        }
        // The lowest uncovered tile must be in the next pattern.
        let tile = (!covered & all).trailing_zeros();
        for (i, (spec, _)) in c.iter().enumerate() {
            let m = spec.mask();
            if m >> tile & 1 == 1 && m & covered == 0 {
                chosen.push(i);
                search(c, all, covered | m, chosen, best);
                chosen.pop();
            }
        }
    }
    search(candidates, all_tiles, 0, &mut chosen, &mut best);
    best.map(|(_, _, idx)| idx.into_iter().map(|i| candidates[i].clone()).collect())
}

/// What the search reads but never changes.
struct Statics<'a> {
    board: Board,
    n: usize,
    neighbours: [u64; 64],
    /// Per pattern: values and the start of its cells in the flat cell arrays. After the
    /// patterns comes a dummy one without cells whose only value is 0: tiles in no pattern
    /// belong to it, so moving them changes nothing without a branch.
    tables: Vec<&'a [u8]>,
    start: Vec<usize>,
    /// Per tile: its pattern and its place in the flat cell arrays (the last place, never a
    /// pattern's, for tiles in no pattern).
    pattern_of: [u8; 64],
    slot_of: [u8; 64],
    reflect: bool,
    /// Per tile: the tile whose reflected cells it stands for; per cell: its reflection.
    reflect_tile: [u8; 64],
    reflect_cell: [u8; 64],
}

impl<'a> Statics<'a> {
    fn new(solver: &'a Solver) -> Statics<'a> {
        let board = solver.board;
        let n = board.cells();
        let mut s = Statics {
            board,
            n,
            neighbours: [0; 64],
            tables: Vec::new(),
            start: Vec::new(),
            pattern_of: [solver.tables.len() as u8; 64],
            slot_of: [63; 64],
            reflect: solver.reflect,
            reflect_tile: [0; 64],
            reflect_cell: [0; 64],
        };
        for c in 0..n {
            s.neighbours[c] = board.neighbours(c);
        }
        let mut slot = 0;
        for (j, (spec, table)) in solver.tables.iter().enumerate() {
            s.tables.push(match solver.copies.get(j) {
                Some(copy) => copy,
                None => table.file().payload(),
            });
            s.start.push(slot);
            for &t in spec.pattern() {
                s.pattern_of[t as usize] = j as u8;
                s.slot_of[t as usize] = slot as u8;
                slot += 1;
            }
        }
        // The dummy pattern: no cells (rank 0), value 0.
        s.start.push(slot);
        s.start.push(slot);
        s.tables.push(&[0]);
        debug_assert!(slot <= 63);
        if s.reflect {
            for t in 0..n {
                s.reflect_tile[t] = board.reflect_tile(t as u32) as u8;
                s.reflect_cell[t] = board.reflect_cell(t) as u8;
            }
        }
        s
    }

    #[inline]
    fn value(&self, j: usize, rank: u32) -> u8 {
        self.tables[j][rank as usize]
    }

    #[inline]
    fn prefetch(&self, j: usize, rank: u32) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint and never faults; the address lies inside the table.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.tables[j].as_ptr().add(rank as usize) as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (j, rank);
    }

    /// The rank of pattern `j` in `cells` with the cell of flat slot `slot` replaced by `to`.
    #[inline]
    fn rank_with(&self, cells: &[u8; 64], j: usize, slot: usize, to: u8) -> u32 {
        let (a, b) = (self.start[j], self.start[j + 1]);
        let n = self.n;
        let mut used = 0u64;
        let mut r = 0u64;
        for (i, s) in (a..b).enumerate() {
            let c = if s == slot { to } else { cells[s] };
            let digit = c as u64 - (used & ((1u64 << c) - 1)).count_ones() as u64;
            r = r * (n - i) as u64 + digit;
            used |= 1 << c;
        }
        r as u32
    }
}

/// A move of the search: the tile on `from` slides into the blank on `to`; `rank` and
/// `rrank` are the child's ranks of the changed pattern and reflected pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Move {
    from: u8,
    to: u8,
    rank: u32,
    rrank: u32,
}

struct Undo {
    values: (u8, u8),
    sums: (u32, u32),
}

/// The search state: the board, the cells of every pattern (and reflected pattern), their
/// values, and what a move left to evaluate.
struct State<'s, 'a> {
    s: &'s Statics<'a>,
    tile_at: [u8; 64],
    blank: u8,
    /// Cell of each tile, by flat slot; reflected: the reflected cell of the reflected tile.
    cells: [u8; 64],
    rcells: [u8; 64],
    values: [u8; 64],
    rvalues: [u8; 64],
    sum: u32,
    rsum: u32,
    /// Left to evaluate after the last `apply`: (pattern, rank) and the same reflected.
    pending: Option<(usize, u32)>,
    rpending: Option<(usize, u32)>,
    undo: Vec<Undo>,
}

impl<'s, 'a> State<'s, 'a> {
    fn new(s: &'s Statics<'a>, tiles: &[u32]) -> State<'s, 'a> {
        let mut st = State {
            s,
            tile_at: [0; 64],
            blank: 0,
            cells: [0; 64],
            rcells: [0; 64],
            values: [0; 64],
            rvalues: [0; 64],
            sum: 0,
            rsum: 0,
            pending: None,
            rpending: None,
            undo: Vec::with_capacity(128),
        };
        for (cell, &t) in tiles.iter().enumerate() {
            st.tile_at[cell] = t as u8;
            if t == 0 {
                st.blank = cell as u8;
            } else {
                st.cells[s.slot_of[t as usize] as usize] = cell as u8;
                if s.reflect {
                    let u = s.reflect_tile[t as usize] as usize;
                    st.rcells[s.slot_of[u] as usize] = s.reflect_cell[cell];
                }
            }
        }
        for j in 0..s.tables.len() {
            let r = s.rank_with(&st.cells, j, usize::MAX, 0);
            st.values[j] = s.value(j, r);
            st.sum += st.values[j] as u32;
            if s.reflect {
                let r = s.rank_with(&st.rcells, j, usize::MAX, 0);
                st.rvalues[j] = s.value(j, r);
                st.rsum += st.rvalues[j] as u32;
            }
        }
        st
    }
}

impl IdaProblem for State<'_, '_> {
    type Move = Move;

    #[inline]
    fn moves(&mut self, last: Option<Move>, out: &mut Vec<Move>) {
        let s = self.s;
        let blank = self.blank;
        let mut m = s.neighbours[blank as usize];
        if let Some(l) = last {
            m &= !(1u64 << l.to);
        }
        while m != 0 {
            let from = m.trailing_zeros() as u8;
            m &= m - 1;
            let t = self.tile_at[from as usize] as usize;
            let j = s.pattern_of[t] as usize;
            let rank = s.rank_with(&self.cells, j, s.slot_of[t] as usize, blank);
            s.prefetch(j, rank);
            let mut rrank = 0;
            if s.reflect {
                let u = s.reflect_tile[t] as usize;
                let ju = s.pattern_of[u] as usize;
                rrank = s.rank_with(
                    &self.rcells,
                    ju,
                    s.slot_of[u] as usize,
                    s.reflect_cell[blank as usize],
                );
                s.prefetch(ju, rrank);
            }
            out.push(Move {
                from,
                to: blank,
                rank,
                rrank,
            });
        }
    }

    #[inline]
    fn apply(&mut self, m: Move) {
        let s = self.s;
        let t = self.tile_at[m.from as usize] as usize;
        self.tile_at[m.to as usize] = t as u8;
        self.tile_at[m.from as usize] = 0;
        self.blank = m.from;
        self.cells[s.slot_of[t] as usize] = m.to;
        let j = s.pattern_of[t] as usize;
        let mut ju = 0;
        if s.reflect {
            let u = s.reflect_tile[t] as usize;
            ju = s.pattern_of[u] as usize;
            self.rcells[s.slot_of[u] as usize] = s.reflect_cell[m.to as usize];
        }
        self.undo.push(Undo {
            values: (self.values[j], self.rvalues[ju]),
            sums: (self.sum, self.rsum),
        });
        self.pending = Some((j, m.rank));
        self.rpending = s.reflect.then_some((ju, m.rrank));
    }

    #[inline]
    fn undo(&mut self, m: Move) {
        let s = self.s;
        let t = self.tile_at[m.to as usize] as usize;
        self.tile_at[m.from as usize] = t as u8;
        self.tile_at[m.to as usize] = 0;
        self.blank = m.to;
        self.cells[s.slot_of[t] as usize] = m.from;
        let j = s.pattern_of[t] as usize;
        let u = self.undo.pop().expect("undo follows apply");
        self.values[j] = u.values.0;
        if s.reflect {
            let tu = s.reflect_tile[t] as usize;
            self.rcells[s.slot_of[tu] as usize] = s.reflect_cell[m.from as usize];
            self.rvalues[s.pattern_of[tu] as usize] = u.values.1;
        }
        (self.sum, self.rsum) = u.sums;
        self.pending = None;
        self.rpending = None;
    }

    #[inline]
    fn lower_bound(&mut self, limit: u32) -> u32 {
        if let Some((j, rank)) = self.pending.take() {
            let v = self.s.value(j, rank);
            self.sum = self.sum - self.values[j] as u32 + v as u32;
            self.values[j] = v;
        }
        if self.sum > limit || !self.s.reflect {
            return self.sum;
        }
        if let Some((j, rank)) = self.rpending.take() {
            let v = self.s.value(j, rank);
            self.rsum = self.rsum - self.rvalues[j] as u32 + v as u32;
            self.rvalues[j] = v;
        }
        self.sum.max(self.rsum)
    }

    fn is_goal(&self) -> bool {
        let n = self.s.n;
        self.blank as usize == n - 1 && (0..n - 1).all(|c| self.tile_at[c] as usize == c + 1)
    }

    fn length_parity(&self) -> Option<u32> {
        Some(
            self.s
                .board
                .taxicab(self.blank as usize, self.s.board.cells() - 1)
                % 2,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
