//! Sliding puzzles, on every board up to 12 cells: Johnson & Story (1879), Chen Jingrun's "關于十五子
//! 的游戲", and the blog note on solvable N×N arrangements.
//!
//! Every statement reads one *census* per board (named `R×C census` in reports), computed once
//! per run: two breadth-first searches over the full index of all (RC)! arrangements (visited
//! bitmaps; moves are made on the arrangements themselves, so no parity rule enters the
//! searches), one from the goal and one from the goal with its last two tiles swapped, then one
//! sweep over every arrangement that compares each criterion with what the searches reached
//! and checks every move against the invariant. Counterexamples are the first in index order (tile-sequence rank, then blank
//! cell), boards taken from the smallest.

use std::ops::Range;

use rayon::prelude::*;

use super::{Env, Finding, Statement};
use crate::game::format_numbers;
use crate::games::board::{Board, FACTORIAL};
use crate::games::slide::{SlideIndex, SlideSpec};
use crate::games::Spec;
use crate::model::{Indexed, ValueKind};
use crate::progress::Progress;
use crate::solve::bfs::{self, CHUNK};
use crate::solve::WordBits;
use crate::Result;

/// Every board with 2 ≤ R, C and R·C ≤ 12, smallest first.
pub(crate) const BOARDS: [(usize, usize); 12] = [
    (2, 2),
    (2, 3),
    (3, 2),
    (2, 4),
    (4, 2),
    (3, 3),
    (2, 5),
    (5, 2),
    (2, 6),
    (6, 2),
    (3, 4),
    (4, 3),
];

/// Published distance distributions (OEIS A089473 for 3×3, A090034 for 2×3 / 3×2; the 2×2
/// by hand), as `(rows, cols, counts)`; `tests/slide.rs` checks them against
/// `tests/data/slide-distances.txt`.
pub(super) const PUBLISHED: [(usize, usize, &[u64]); 4] = [
    (2, 2, &[1, 2, 2, 2, 2, 2, 1]),
    (2, 3, SIX),
    (3, 2, SIX),
    (
        3,
        3,
        &[
            1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638,
            9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
        ],
    ),
];

const SIX: &[u64] = &[
    1, 2, 3, 5, 6, 7, 10, 12, 12, 16, 23, 25, 28, 39, 44, 40, 29, 21, 18, 12, 6, 1,
];

pub(super) fn statements() -> Vec<Statement> {
    vec![
        Statement {
            name: "slide-half",
            source: "Johnson & Story 1879, Notes on the 15 puzzle",
            claim: "of the (mn)! arrangements of every board up to 12 cells exactly half reach the goal",
            run: half,
        },
        Statement {
            name: "slide-seed-000",
            source: "Chen Jingrun, “關于十五子的游戲” (On the game of fifteen), in the general form for every board (Johnson & Story 1879)",
            claim: "odd columns: solvable iff the tile inversions are even; even columns: iff inversions + blank row from the bottom (from 0) is even",
            run: seed_000,
        },
        Statement {
            name: "slide-seed-000-abnormal",
            source: "Chen Jingrun, “關于十五子的游戲” (On the game of fifteen): abnormal arrangements",
            claim: "every arrangement that cannot reach the goal reaches the goal with its last two tiles swapped (and none reaches both)",
            run: abnormal,
        },
        Statement {
            name: "slide-seed-004",
            source: "the blog note “如何判断数字华容道中随机排列的数字阵列是否有解” (solvable N×N arrangements), on N×N boards (2×2, 3×3)",
            claim: "inversions with the blank as 0 + blank row + blank column (from 0): solvable iff the total is even (N odd) or odd (N even)",
            run: seed_004,
        },
        Statement {
            name: "slide-seed-004-nonsquare",
            source: "the blog note “如何判断数字华容道中随机排列的数字阵列是否有解” (solvable N×N arrangements), beyond N×N: measured, no claim attached",
            claim: "the blog note's rule on non-square boards, N read as the columns and as the rows: reported as found, no claim attached",
            run: seed_004_nonsquare,
        },
        Statement {
            name: "slide-invariant",
            source: "Johnson & Story 1879, Notes on the 15 puzzle",
            claim: "every move flips the parity of the cells' permutation (blank included) and changes the blank's taxicab distance to its goal cell by one",
            run: invariant,
        },
        Statement {
            name: "slide-distances",
            source: "OEIS A089473 (3×3), A090034 (3×2); the other boards measured",
            claim: "each table's distance counts equal the layers of the search over all (mn)! arrangements, and the published counts (2×2, 2×3, 3×2, 3×3)",
            run: distances,
        },
    ]
}

/// The criteria compared with the searches, for each arrangement.
#[derive(Clone, Copy)]
enum Rule {
    /// The general form of Chen Jingrun's rule.
    Seed000,
    /// Seed 000 read literally: inversions + blank row from the top, from 1, even.
    Seed000Literal,
    /// Seed 004 with N = number of columns.
    Seed004Cols,
    /// Seed 004 with N = number of rows.
    Seed004Rows,
}

const RULES: [Rule; 4] = [
    Rule::Seed000,
    Rule::Seed000Literal,
    Rule::Seed004Cols,
    Rule::Seed004Rows,
];

/// What the searches and the sweep found on one board.
pub(crate) struct Census {
    grid: Board,
    /// (RC)!.
    arrangements: u64,
    /// Arrangements reached from the goal.
    from_goal: u64,
    /// Arrangements reached from the goal with its last two tiles swapped.
    from_swapped: u64,
    /// Breadth-first layers of the search from the goal.
    layers: Vec<u64>,
    /// First arrangement reached by both searches or by neither.
    both_or_neither: Option<(u64, String)>,
    /// Per rule: first arrangement where the rule and the search from the goal disagree.
    disagree: [Option<(u64, String)>; 4],
    /// Moves checked against the invariant.
    moves: u64,
    /// First move that breaks the invariant.
    bad_move: Option<(u64, String)>,
}

/// Whether `rule` says the arrangement `cells` (inversions `inv` with the blank as 0, blank
/// in `b`) is solvable.
fn says(rule: Rule, g: &Board, inv: u32, b: usize) -> bool {
    // The blank, as 0, stands after b larger numbers: the tile inversions are the rest.
    let tiles = inv as usize - b;
    let (row, col) = (g.row(b), g.col(b));
    let seed_004 = |n: usize| (inv as usize + row + col) % 2 == if n % 2 == 1 { 0 } else { 1 };
    match rule {
        Rule::Seed000 => {
            if g.cols() % 2 == 1 {
                tiles % 2 == 0
            } else {
                (tiles + g.rows() - 1 - row) % 2 == 0
            }
        }
        Rule::Seed000Literal => (tiles + row + 1) % 2 == 0,
        Rule::Seed004Cols => seed_004(g.cols()),
        Rule::Seed004Rows => seed_004(g.rows()),
    }
}

/// Taxicab distance of a cell to the blank's goal cell (bottom right).
fn taxicab(g: &Board, cell: usize) -> usize {
    (g.rows() - 1 - g.row(cell)) + (g.cols() - 1 - g.col(cell))
}

fn board(g: &Board) -> String {
    format!("{}×{}", g.rows(), g.cols())
}

fn cells_text(cells: &[u8]) -> String {
    format_numbers(&cells.iter().map(|&v| v as u32).collect::<Vec<_>>())
}

/// Part of the sweep: what one chunk of indices found.
#[derive(Default)]
struct Partial {
    both_or_neither: Option<(u64, String)>,
    disagree: [Option<(u64, String)>; 4],
    moves: u64,
    bad_move: Option<(u64, String)>,
}

fn first(a: Option<(u64, String)>, b: Option<(u64, String)>) -> Option<(u64, String)> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if x.0 <= y.0 { x } else { y }),
        (x, y) => x.or(y),
    }
}

impl Partial {
    fn merge(self, o: Partial) -> Partial {
        let [a0, a1, a2, a3] = self.disagree;
        let [b0, b1, b2, b3] = o.disagree;
        Partial {
            both_or_neither: first(self.both_or_neither, o.both_or_neither),
            disagree: [first(a0, b0), first(a1, b1), first(a2, b2), first(a3, b3)],
            moves: self.moves + o.moves,
            bad_move: first(self.bad_move, o.bad_move),
        }
    }
}

/// Inversions among the pairs a swap of cells `lo < hi` can change: the two cells against
/// each other and against every cell between them (every other pair holds the same two
/// numbers in the same order before and after). Counted straight from the definition, before
/// the swap (`swapped` false) or after it.
#[inline]
fn inversions_touching(cells: &[u8], lo: usize, hi: usize, swapped: bool) -> u32 {
    let (mut a, mut b) = (cells[lo], cells[hi]);
    if swapped {
        std::mem::swap(&mut a, &mut b);
    }
    let mut inv = (a > b) as u32;
    for &x in &cells[lo + 1..hi] {
        inv += (a > x) as u32 + (x > b) as u32;
    }
    inv
}

/// Per-cell facts of a board, worked out once so the sweep does no division.
struct Cells {
    /// The cells next to each cell.
    next_to: Vec<Vec<usize>>,
    /// Taxicab distance of each cell to the blank's goal cell.
    taxicab: Vec<usize>,
    /// Per rule and blank cell: what the rule says of an arrangement whose tiles have an even
    /// number of inversions. Each rule depends on the tile inversions through their parity
    /// only, so an odd count gives the opposite verdict.
    even_says: [Vec<bool>; 4],
}

impl Cells {
    fn new(g: &Board) -> Cells {
        let n = g.cells();
        let next_to = (0..n)
            .map(|b| {
                let (row, col, cols) = (g.row(b), g.col(b), g.cols());
                let mut v = Vec::new();
                if row > 0 {
                    v.push(b - cols);
                }
                if row + 1 < g.rows() {
                    v.push(b + cols);
                }
                if col > 0 {
                    v.push(b - 1);
                }
                if col + 1 < cols {
                    v.push(b + 1);
                }
                v
            })
            .collect();
        Cells {
            next_to,
            taxicab: (0..n).map(|b| taxicab(g, b)).collect(),
            // With no tile inversion, the blank (as 0) stands after b larger numbers.
            even_says: RULES.map(|rule| (0..n).map(|b| says(rule, g, b as u32, b)).collect()),
        }
    }
}

/// Sweeps one chunk of the full index.
fn sweep(
    ix: &SlideIndex,
    at: &Cells,
    range: Range<u64>,
    goal: &WordBits,
    swapped: &WordBits,
) -> Partial {
    let mut out = Partial::default();
    ix.visit(range, |v| {
        let (i, cells, b) = (v.index, v.cells, v.blank);
        let reached = goal.get(i);
        if reached == swapped.get(i) && out.both_or_neither.is_none() {
            let what = if reached {
                "both searches"
            } else {
                "neither search"
            };
            out.both_or_neither = Some((i, format!("{}: reached by {what}", cells_text(cells))));
        }
        let odd = v.tile_inversions % 2 == 1;
        for (k, says) in at.even_says.iter().enumerate() {
            let said = says[b] != odd;
            if said != reached && out.disagree[k].is_none() {
                out.disagree[k] = Some((
                    i,
                    format!(
                        "{}: the rule says {}, but the search from the goal {} it",
                        cells_text(cells),
                        if said { "solvable" } else { "unsolvable" },
                        if reached { "reaches" } else { "never reaches" }
                    ),
                ));
            }
        }
        // Every move: the blank trades places with a tile next to it. With the blank counted
        // as 0 it stands after b larger numbers.
        let inv = v.tile_inversions + b as u32;
        for &q in &at.next_to[b] {
            out.moves += 1;
            let (lo, hi) = (b.min(q), b.max(q));
            let inv2 = inv + inversions_touching(cells, lo, hi, true)
                - inversions_touching(cells, lo, hi, false);
            let flips = (inv + inv2) % 2 == 1;
            let step = at.taxicab[b].abs_diff(at.taxicab[q]) == 1;
            if !(flips && step) && out.bad_move.is_none() {
                let mut next = cells.to_vec();
                next.swap(b, q);
                out.bad_move = Some((
                    i,
                    format!(
                        "{} -> {}: inversions {inv} -> {inv2}, blank taxicab distance {} -> {}",
                        cells_text(cells),
                        cells_text(&next),
                        at.taxicab[b],
                        at.taxicab[q]
                    ),
                ));
            }
        }
    });
    out
}

/// The census of one board: both searches over all (RC)! arrangements, then the sweep.
pub(crate) fn census(g: Board, progress: &dyn Progress) -> Result<Census> {
    let ix = SlideIndex::full(g);
    let n = ix.positions();
    // Each search reaches half the arrangements; the sweep visits them all.
    progress.set_length(2 * n);
    let goal = ix.index_of(&g.goal());
    let swapped = ix.index_of(&g.swapped_goal());
    let from_goal = bfs::reach(&ix, &[goal], progress)?;
    let from_swapped = bfs::reach(&ix, &[swapped], progress)?;
    let chunks = n.div_ceil(CHUNK);
    let at = Cells::new(&g);
    let p = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let range = c * CHUNK..((c + 1) * CHUNK).min(n);
            let len = range.end - range.start;
            let p = sweep(&ix, &at, range, &from_goal.seen, &from_swapped.seen);
            progress.inc(len);
            p
        })
        .reduce(Partial::default, Partial::merge);
    Ok(Census {
        grid: g,
        arrangements: n,
        from_goal: from_goal.seen.count_ones(),
        from_swapped: from_swapped.seen.count_ones(),
        layers: from_goal.layers,
        both_or_neither: p.both_or_neither,
        disagree: p.disagree,
        moves: p.moves,
        bad_move: p.bad_move,
    })
}

/// The censuses of `boards`, each computed once per run.
fn censuses(env: &mut Env, boards: &[(usize, usize)]) -> Result<Vec<std::sync::Arc<Census>>> {
    boards
        .iter()
        .map(|&(r, c)| {
            let g = Board::new(r as u32, c as u32)?;
            let key = format!("{} census", board(&g));
            env.memo(&key, |pb| census(g, pb))
        })
        .collect()
}

/// Records a board-level verdict covering `cases` cases.
fn record(f: &mut Finding, cases: u64, bad: Option<String>) {
    f.checked += cases.saturating_sub(1);
    f.case(bad.is_none(), || bad.unwrap_or_default());
}

fn half(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    for c in censuses(env, &BOARDS)? {
        let half = c.arrangements / 2;
        let bad = (c.from_goal != half).then(|| {
            format!(
                "{}: {} of {} arrangements reach the goal",
                board(&c.grid),
                c.from_goal,
                c.arrangements
            )
        });
        record(&mut f, c.arrangements, bad);
    }
    Ok(f)
}

fn rule_finding(
    env: &mut Env,
    boards: &[(usize, usize)],
    rule: Rule,
) -> Result<(Finding, PerBoard)> {
    let mut f = Finding::default();
    let mut per_board = Vec::new();
    for c in censuses(env, boards)? {
        let bad = c.disagree[rule as usize]
            .as_ref()
            .map(|(_, what)| format!("{} {what}", board(&c.grid)));
        per_board.push((board(&c.grid), bad.clone()));
        record(&mut f, c.arrangements, bad);
    }
    Ok((f, per_board))
}

/// Per board: its name and, when the rule fails there, the first counterexample.
type PerBoard = Vec<(String, Option<String>)>;

/// "holds on A, B; fails on C (first: ...)".
fn summary(per_board: &[(String, Option<String>)]) -> String {
    let holds: Vec<&str> = per_board
        .iter()
        .filter(|(_, bad)| bad.is_none())
        .map(|(b, _)| b.as_str())
        .collect();
    let fails: Vec<&str> = per_board
        .iter()
        .filter(|(_, bad)| bad.is_some())
        .map(|(b, _)| b.as_str())
        .collect();
    let mut s = format!(
        "holds on {}",
        if holds.is_empty() {
            "none".to_string()
        } else {
            holds.join(", ")
        }
    );
    if let Some((_, Some(first))) = per_board.iter().find(|(_, bad)| bad.is_some()) {
        s += &format!("; fails on {} (first: {first})", fails.join(", "));
    }
    s
}

fn seed_000(env: &mut Env) -> Result<Finding> {
    let (mut f, _) = rule_finding(env, &BOARDS, Rule::Seed000)?;
    // The seed's own wording counts the blank's row from the top, from 1: the same parity on
    // 4×4 (and any board with an even number of rows), reported here for the boards with an
    // even number of columns, where the row enters the rule.
    let even_cols: Vec<(usize, usize)> = BOARDS
        .iter()
        .copied()
        .filter(|&(_, c)| c % 2 == 0)
        .collect();
    let (_, literal) = rule_finding(env, &even_cols, Rule::Seed000Literal)?;
    f.note = Some(format!(
        "read literally (inversions + the blank's row from the top, from 1, even) on the boards \
         with an even number of columns, the seed's rule {}",
        summary(&literal)
    ));
    Ok(f)
}

fn abnormal(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    for c in censuses(env, &BOARDS)? {
        let bad = match &c.both_or_neither {
            Some((_, what)) => Some(format!("{} {what}", board(&c.grid))),
            None => (c.from_swapped != c.arrangements - c.from_goal).then(|| {
                format!(
                    "{}: {} arrangements reach the swapped goal, {} do not reach the goal",
                    board(&c.grid),
                    c.from_swapped,
                    c.arrangements - c.from_goal
                )
            }),
        };
        record(&mut f, c.arrangements, bad);
    }
    Ok(f)
}

fn seed_004(env: &mut Env) -> Result<Finding> {
    let square: Vec<(usize, usize)> = BOARDS.iter().copied().filter(|&(r, c)| r == c).collect();
    Ok(rule_finding(env, &square, Rule::Seed004Cols)?.0)
}

fn seed_004_nonsquare(env: &mut Env) -> Result<Finding> {
    let others: Vec<(usize, usize)> = BOARDS.iter().copied().filter(|&(r, c)| r != c).collect();
    let (cols, by_cols) = rule_finding(env, &others, Rule::Seed004Cols)?;
    let (_, by_rows) = rule_finding(env, &others, Rule::Seed004Rows)?;
    Ok(Finding {
        checked: cols.checked,
        counterexample: None,
        note: Some(format!(
            "with N = the number of columns the rule {}. With N = the number of rows it {}",
            summary(&by_cols),
            summary(&by_rows)
        )),
    })
}

fn invariant(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    for c in censuses(env, &BOARDS)? {
        let bad = c
            .bad_move
            .as_ref()
            .map(|(_, what)| format!("{} {what}", board(&c.grid)));
        record(&mut f, c.moves, bad);
    }
    Ok(f)
}

fn distances(env: &mut Env) -> Result<Finding> {
    let mut f = Finding::default();
    let mut maxima = Vec::new();
    for c in censuses(env, &BOARDS)? {
        let g = c.grid;
        let spec = Spec::new(SlideSpec::new(g.rows() as u32, g.cols() as u32)?);
        let table = env.table(&spec, ValueKind::Distance)?;
        let counts = table.distance_census(0).counts;
        maxima.push(format!("{} {}", board(&g), counts.len().saturating_sub(1)));
        let mut bad = first_difference(&counts, &c.layers).map(|d| {
            format!(
                "{}: the table counts {:?} positions at distance {d}, the search over all arrangements {:?}",
                board(&g),
                counts.get(d),
                c.layers.get(d)
            )
        });
        for (r, cols, published) in PUBLISHED {
            if (r, cols) == (g.rows(), g.cols()) && bad.is_none() {
                bad = first_difference(&counts, published).map(|d| {
                    format!(
                        "{}: the table counts {:?} positions at distance {d}, published {:?}",
                        board(&g),
                        counts.get(d),
                        published.get(d)
                    )
                });
            }
        }
        record(&mut f, FACTORIAL[g.cells()] / 2, bad);
    }
    f.note = Some(format!("maximum distances: {}", maxima.join(", ")));
    Ok(f)
}

fn first_difference(a: &[u64], b: &[u64]) -> Option<usize> {
    (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inversions_match_the_definition() {
        let g = Board::new(3, 3).unwrap();
        let ix = SlideIndex::full(g);
        let at = Cells::new(&g);
        let literal = |cells: &[u8]| {
            let mut inv = 0;
            for i in 0..cells.len() {
                for j in i + 1..cells.len() {
                    inv += (cells[i] > cells[j]) as u32;
                }
            }
            inv
        };
        ix.visit(0..ix.positions(), |v| {
            let pos: Vec<u32> = v.cells.iter().map(|&x| x as u32).collect();
            let inv = literal(v.cells);
            assert_eq!(inv, v.tile_inversions + v.blank as u32);
            assert_eq!(says(Rule::Seed000, &g, inv, v.blank), g.solvable(&pos));
            // A swap changes the count by what the touched pairs change.
            for (lo, hi) in [(0, 1), (0, 3), (2, 5), (4, 8), (7, 8)] {
                let mut next = v.cells.to_vec();
                next.swap(lo, hi);
                let got = inv + inversions_touching(v.cells, lo, hi, true)
                    - inversions_touching(v.cells, lo, hi, false);
                assert_eq!(got, literal(&next));
                assert_eq!(
                    inversions_touching(&next, lo, hi, false),
                    inversions_touching(v.cells, lo, hi, true)
                );
            }
            // The per-cell tables give the same verdicts as the rules.
            for (k, &rule) in RULES.iter().enumerate() {
                let odd = (inv - v.blank as u32) % 2 == 1;
                assert_eq!(
                    at.even_says[k][v.blank] != odd,
                    says(rule, &g, inv, v.blank)
                );
            }
        });
    }

    #[test]
    fn embedded_counts_equal_the_data_file() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slide-distances.txt");
        // A test that needs a component fails without it, never skips.
        let data = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; the published counts are needed to check the embedded ones",
                path.display()
            )
        });
        for (rows, cols, counts) in PUBLISHED {
            // The file writes boards as 'width x height', one line for both orientations.
            let line = data
                .lines()
                .find(|l| {
                    l.starts_with(&format!("{cols}x{rows} "))
                        || l.starts_with(&format!("{rows}x{cols} "))
                })
                .unwrap_or_else(|| panic!("{rows}×{cols} in {}", path.display()));
            let file: Vec<u64> = line
                .split(':')
                .nth(1)
                .unwrap()
                .split_whitespace()
                .map(|c| c.parse().unwrap())
                .collect();
            assert_eq!(file, counts, "{rows}×{cols}");
        }
    }

    #[test]
    fn small_boards_census() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
            let g = Board::new(r as u32, c as u32).unwrap();
            let census = census(g, &()).unwrap();
            let n = FACTORIAL[g.cells()];
            assert_eq!(census.from_goal, n / 2);
            assert_eq!(census.from_swapped, n / 2);
            assert!(census.both_or_neither.is_none());
            assert!(census.disagree[Rule::Seed000 as usize].is_none(), "{r}×{c}");
            assert!(census.bad_move.is_none());
            // Seed 004 read with N = columns holds unless the columns are even and rows odd.
            let cols_ok = c % 2 == 1 || r % 2 == 0;
            assert_eq!(
                census.disagree[Rule::Seed004Cols as usize].is_none(),
                cols_ok,
                "{r}×{c}"
            );
            let sum: u64 = census.layers.iter().sum();
            assert_eq!(sum, n / 2);
            // Every move of every arrangement: corners 2, edges 3, inner cells 4 (per blank cell).
            let moves: u64 = (0..g.cells())
                .map(|b| {
                    let (row, col) = (g.row(b), g.col(b));
                    [row > 0, row + 1 < r, col > 0, col + 1 < c]
                        .iter()
                        .filter(|&&x| x)
                        .count() as u64
                })
                .sum::<u64>()
                * (n / g.cells() as u64);
            assert_eq!(census.moves, moves);
        }
    }
}
