//! The sliding-puzzle service: optimal solutions and complete answers for boards without a
//! complete table (the 15-puzzle, whose 10,461,394,944,000 solvable positions do not fit one),
//! from additive pattern databases; and `BoardQuery`, which answers the positions of a board
//! from a folder of tables, through its complete table when there is one and through the
//! solver otherwise, in one answer model.
//!
//! The heuristic is the sum of the values of a *partition* of the tiles into disjoint patterns
//! (each a table of [`crate::games::pdb`]); on square boards it is maxed with the same sum on
//! the position reflected about the main diagonal (Korf & Felner 2002). The search is IDA*
//! (`solve::ida`); `search` supplies the puzzle as an [`IdaProblem`].
//!
//! Unsolvable arrangements are answered without tables or search by the parity invariant
//! ([`Board::solvable`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use serde::Serialize;

use crate::answer::{Answer, AnswerMove, DistanceValue, Value};
use crate::game::{format_numbers, Move, Rules};
use crate::games::board::{Board, Step};
use crate::games::pdb::{standard_patterns, PdbSpec, DEFAULT_PARTITION};
use crate::games::slide::{SlideRules, SlideSpec};
use crate::games::Spec;
use crate::lookup::Table;
use crate::model::ValueKind;
use crate::resources::copy_to_huge_pages;
use crate::solve::{ida_star_within, Budget, IdaProblem, Stopped};
use crate::tables::TableDir;
use crate::{Error, Result};

mod search;

use search::{Problem, Statics};

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

/// The solver's report on one position (`gamedb solve`). JSON keys: `position`, `solvable`,
/// `distance` (null when unsolvable), `moves` (labels such as `slide 12 up`), `nodes_expanded`,
/// `nodes_generated`, `heuristic`, `seconds`, and `reason` when unsolvable.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Solution {
    /// The position as given.
    #[serde(serialize_with = "as_text")]
    pub position: Vec<u32>,
    /// Whether the goal can be reached.
    pub solvable: bool,
    /// Optimal length (`None` when unsolvable).
    #[serde(rename = "distance")]
    pub length: Option<u32>,
    /// An optimal solution.
    #[serde(serialize_with = "labels")]
    pub moves: Vec<Step>,
    /// States whose moves were generated.
    #[serde(rename = "nodes_expanded")]
    pub expanded: u64,
    /// States whose heuristic was evaluated.
    #[serde(rename = "nodes_generated")]
    pub generated: u64,
    /// The heuristic of the position.
    pub heuristic: u32,
    /// Seconds spent searching.
    #[serde(serialize_with = "six_decimals")]
    pub seconds: f64,
    /// Why not, when it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

fn as_text<S: serde::Serializer>(pos: &[u32], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&format_numbers(pos))
}

fn labels<S: serde::Serializer>(moves: &[Step], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(moves.iter().map(Step::label))
}

/// Seconds with six decimals, as a plain JSON number (`0.000012`, not `1.2e-5`).
fn six_decimals<S: serde::Serializer>(x: &f64, s: S) -> std::result::Result<S::Ok, S::Error> {
    let raw = serde_json::value::RawValue::from_string(format!("{x:.6}"))
        .map_err(serde::ser::Error::custom)?;
    raw.serialize(s)
}

impl Solution {
    /// One line: `POS: 52 moves: slide 12 up, slide 5 left, ...  (N nodes expanded, M generated,
    /// heuristic H, T ms)`.
    pub fn to_text(&self) -> String {
        let pos = format_numbers(&self.position);
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

    /// One JSON object on one line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Open pattern tables of one board, ready to solve many positions.
pub struct Solver {
    board: Board,
    tables: Vec<(PdbSpec, Arc<Table>)>,
    /// The tables' values copied to huge pages (empty: read the mapped files).
    copies: Vec<Vec<u8>>,
    reflect: bool,
}

/// The distances of a pattern table, one byte each in index order. A table of lower bounds
/// is always stored so: distance tables are u8 or mod3, and lookups refuse mod3 (kept for exact
/// distances, found by descent) where the rules give lower bounds.
fn distances(table: &Table) -> &[u8] {
    table
        .entries()
        .u8_slice()
        .expect("a pattern table opened by lookup is stored one byte an entry")
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
                    format_numbers(p)
                )
            })
            .collect();
        format!("build them with {}", cmds.join(" and "))
    }
}

impl Solver {
    /// Opens the pattern tables of the `rows × cols` board in `dir`: the patterns of
    /// `options.patterns`, or else the partition of the tiles with the most entries among the
    /// tables present (7-8 before 6-6-3 before 5-5-5 on the 4×4 board). Tables are found by
    /// their headers. The error names the build commands when no partition is complete.
    pub fn open(rows: u32, cols: u32, dir: &TableDir, options: &Options) -> Result<Solver> {
        let board = Board::new(rows, cols)?;
        let candidates: Vec<(PdbSpec, PathBuf)> = dir
            .matching(|h| {
                h.kind == ValueKind::Distance
                    && h.spec
                        .as_ref()
                        .and_then(Spec::get::<PdbSpec>)
                        .map(PdbSpec::board)
                        == Some(board)
            })
            .into_iter()
            .filter_map(|(l, h)| {
                let p = h.spec.as_ref()?.get::<PdbSpec>()?;
                Some((p.clone(), l.path.clone()))
            })
            .collect();
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
                    let Some((_, path)) = candidates.iter().find(|(s, _)| s == &spec) else {
                        return Err(Error::Unsupported(format!(
                            "{}: no table of tiles {} of the {} board; build it with `gamedb \
                             build pdb --rows {rows} --cols {cols} --pattern {} --out {}`",
                            dir.path().display(),
                            spec.pattern_name(),
                            board.name(),
                            format_numbers(spec.pattern()),
                            dir.path().display()
                        )));
                    };
                    out.push((spec, path.clone()));
                }
                out
            }
            None => best_partition(board, &candidates).ok_or_else(|| {
                Error::Unsupported(format!(
                    "no complete set of pattern tables of the {} board in {}: {}",
                    board.name(),
                    dir.path().display(),
                    build_hint(board, dir.path())
                ))
            })?,
        };
        let mut tables = Vec::new();
        for (spec, path) in chosen {
            tables.push((spec, dir.open(&path, options.verify)?));
        }
        let copies = if options.copy {
            tables
                .iter()
                .map(|(_, t)| copy_to_huge_pages(distances(t)))
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

    fn statics(&self) -> Statics<'_> {
        let tables: Vec<(&PdbSpec, &[u8])> = self
            .tables
            .iter()
            .enumerate()
            .map(|(j, (spec, table))| {
                let values = match self.copies.get(j) {
                    Some(copy) => copy.as_slice(),
                    None => distances(table),
                };
                (spec, values)
            })
            .collect();
        Statics::new(self.board, &tables, self.reflect)
    }

    /// The heuristic of a checked position (sum of the tables, maxed with the reflection).
    pub fn heuristic(&self, tiles: &[u32]) -> Result<u32> {
        self.board.check(tiles)?;
        let statics = self.statics();
        let mut state = Problem::new(&statics, tiles);
        Ok(state.lower_bound(u32::MAX))
    }

    /// An optimal solution of a position (checked here), or the reason there is none.
    pub fn solve(&self, tiles: &[u32]) -> Result<Solution> {
        self.solve_within(tiles, Budget::default())
    }

    /// [`solve`](Solver::solve) within a budget of expanded nodes and a deadline: a search
    /// that would go over them stops with [`Error::OverLimit`].
    pub fn solve_within(&self, tiles: &[u32], budget: Budget<'_>) -> Result<Solution> {
        self.board.check(tiles)?;
        if let Some(answer) = parity_answer(self.board, tiles) {
            return Ok(answer);
        }
        let started = Instant::now();
        let statics = self.statics();
        let mut state = Problem::new(&statics, tiles);
        let heuristic = state.lower_bound(u32::MAX);
        let outcome = ida_star_within(&mut state, MAX_LENGTH, budget);
        let seconds = started.elapsed().as_secs_f64();
        if let Some(why) = outcome.stopped {
            return Err(over_limit(why, tiles, outcome.expanded));
        }
        let path = outcome.path.ok_or_else(|| {
            Error::Unsupported(format!(
                "no solution of at most {MAX_LENGTH} moves found: the tables in use do not \
                 give a lower bound (damaged or wrong tables?)"
            ))
        })?;
        let mut board_tiles = tiles.to_vec();
        let mut moves = Vec::with_capacity(path.len());
        for m in &path {
            let tile = board_tiles[m.from as usize];
            moves.push(Step {
                tile,
                dir: self.board.direction(m.from as usize, m.to as usize),
            });
            self.board
                .slide(&mut board_tiles, m.from as usize, m.to as usize);
        }
        debug_assert_eq!(board_tiles, self.board.goal());
        Ok(Solution {
            position: tiles.to_vec(),
            solvable: true,
            length: Some(moves.len() as u32),
            moves,
            expanded: outcome.expanded,
            generated: outcome.generated,
            heuristic,
            seconds,
            reason: None,
        })
    }

    /// The whole answer for a checked, solvable position, as a complete table would give it:
    /// the distance, every move one step nearer the goal (the first move of the solution found,
    /// and each other move whose position the solver finds one move nearer: one more search
    /// per move), with `path` the solution itself, and the nodes all the searches expanded.
    pub fn answer(&self, tiles: &[u32], path: bool) -> Result<Answer> {
        self.answer_within(tiles, path, Budget::default())
    }

    /// [`answer`](Solver::answer) within a budget: the node budget counts the nodes of all
    /// its searches together.
    pub fn answer_within(&self, tiles: &[u32], path: bool, budget: Budget<'_>) -> Result<Answer> {
        let rules = SlideRules::new(self.board);
        let s = self.solve_within(tiles, budget)?;
        let Some(d) = s.length else {
            return Ok(unsolvable_answer(
                &rules,
                tiles,
                s.reason.unwrap_or_default(),
            ));
        };
        let mut nodes = s.expanded;
        // The solution's moves as a table would list them: label and position left.
        let mut steps = Vec::with_capacity(s.moves.len());
        let mut at = tiles.to_vec();
        for m in &s.moves {
            self.board.apply(&mut at, m.tile, m.dir).ok_or_else(|| {
                Error::internal(format!(
                    "the solver's move {} is not legal in {}",
                    m.label(),
                    format_numbers(&at)
                ))
            })?;
            steps.push(Move {
                label: m.label(),
                leaves: at.clone(),
            });
        }
        let mut optimal = Vec::new();
        if d > 0 {
            for m in rules.moves(tiles) {
                let nearer = m.leaves == steps[0].leaves || {
                    let left = Budget {
                        max_nodes: budget.max_nodes.map(|n| n.saturating_sub(nodes)),
                        ..budget
                    };
                    let c = self.solve_within(&m.leaves, left).map_err(|e| match e {
                        // Name the position asked about, with all the nodes spent on it.
                        Error::OverLimit { time: true, .. } => {
                            over_limit(Stopped::Deadline, tiles, nodes)
                        }
                        Error::OverLimit { time: false, .. } => {
                            over_limit(Stopped::Nodes, tiles, budget.max_nodes.unwrap_or(nodes))
                        }
                        e => e,
                    })?;
                    nodes += c.expanded;
                    c.length == Some(d - 1)
                };
                if nearer {
                    optimal.push(m);
                }
            }
        }
        let mut value = DistanceValue::at(d, AnswerMove::all(&rules, optimal));
        value.path = path.then(|| AnswerMove::all(&rules, steps));
        value.nodes = Some(nodes);
        Ok(Answer {
            position: rules.format(tiles),
            numbers: tiles.to_vec(),
            index: None,
            value: Value::Distance(value),
        })
    }
}

/// The error of a search that went over its budget: `nodes` is the node limit when the
/// budget of nodes ran out, the nodes expanded when the time did.
fn over_limit(why: Stopped, tiles: &[u32], nodes: u64) -> Error {
    let pos = format_numbers(tiles);
    let what = match why {
        Stopped::Nodes => format!(
            "position '{pos}': the search stopped at its limit of {nodes} expanded nodes before \
             finishing; allow more nodes to answer it"
        ),
        Stopped::Deadline => format!(
            "position '{pos}': the search stopped at its time limit ({nodes} nodes expanded) \
             before finishing; allow more time to answer it"
        ),
    };
    Error::OverLimit {
        time: why == Stopped::Deadline,
        what,
    }
}

/// The answer for a checked arrangement that the parity invariant rules out, without tables
/// or search; `None` when it can reach the goal.
pub(crate) fn parity_answer(board: Board, tiles: &[u32]) -> Option<Solution> {
    board.why_unsolvable(tiles).map(|reason| Solution {
        position: tiles.to_vec(),
        solvable: false,
        reason: Some(reason),
        length: None,
        moves: Vec::new(),
        expanded: 0,
        generated: 0,
        heuristic: 0,
        seconds: 0.0,
    })
}

fn unsolvable_answer(rules: &dyn Rules, tiles: &[u32], reason: String) -> Answer {
    let mut value = DistanceValue::unsolvable(reason);
    value.nodes = Some(0);
    Answer {
        position: rules.format(tiles),
        numbers: tiles.to_vec(),
        index: None,
        value: Value::Distance(value),
    }
}

/// Longest solution searched for (far beyond any board a byte table can serve).
const MAX_LENGTH: u32 = 10_000;

/// The positions of one board answered from a folder of tables: by the complete table of the
/// board when the folder holds one (found by its header), else by the [`Solver`] on the
/// folder's pattern tables, opened when the first solvable position needs it (so unsolvable
/// positions are answered by the parity rule even without tables). One value may answer from
/// several threads at once.
pub(crate) struct BoardQuery {
    board: Board,
    rules: SlideRules,
    dir: Arc<TableDir>,
    complete: Option<Arc<Table>>,
    solver: OnceLock<Solver>,
    options: Options,
}

impl BoardQuery {
    /// The answers for the `rows × cols` board from the tables in `dir`. A file in the folder
    /// named as the board's complete table but holding another table is refused here.
    pub(crate) fn open(
        rows: u32,
        cols: u32,
        dir: Arc<TableDir>,
        options: Options,
    ) -> Result<BoardQuery> {
        let board = Board::new(rows, cols)?;
        let complete = match SlideSpec::enumerated(rows, cols) {
            Ok(spec) => dir.table(&Spec::new(spec), ValueKind::Distance, options.verify)?,
            Err(_) => None,
        };
        Ok(BoardQuery {
            board,
            rules: SlideRules::new(board),
            dir,
            complete,
            solver: OnceLock::new(),
            options,
        })
    }

    /// The solver, opened by the first position that needs it (a second opening racing the
    /// first from another thread is harmless: one of the two is kept).
    pub(crate) fn solver(&self) -> Result<&Solver> {
        if let Some(s) = self.solver.get() {
            return Ok(s);
        }
        let s = Solver::open(
            self.board.rows() as u32,
            self.board.cols() as u32,
            &self.dir,
            &self.options,
        )?;
        Ok(self.solver.get_or_init(|| s))
    }

    /// Answers a position written as `query` reads it; with `path`, a whole optimal solution.
    pub(crate) fn query(&self, text: &str, path: bool) -> Result<Answer> {
        self.query_within(text, path, Budget::default())
    }

    /// [`query`](BoardQuery::query) with the solver's searches within a budget (a complete
    /// table answers at once, whatever the budget).
    pub(crate) fn query_within(
        &self,
        text: &str,
        path: bool,
        budget: Budget<'_>,
    ) -> Result<Answer> {
        if let Some(table) = &self.complete {
            return table.query_with(text, path);
        }
        let tiles = self.board.parse(text)?;
        if let Some(reason) = self.board.why_unsolvable(&tiles) {
            return Ok(unsolvable_answer(&self.rules, &tiles, reason));
        }
        self.solver()?.answer_within(&tiles, path, budget)
    }
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
