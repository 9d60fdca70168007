//! Pattern databases and the optimal sliding-puzzle solver: PDB values against a brute-force
//! search of the abstract space, solver lengths against plain breadth-first search, replayed
//! solutions, bad inputs, thread-count independence and file round trips.

mod common;

use std::collections::{HashMap, VecDeque};
use std::path::Path;

use common::*;
use gamedb::fifteen::{Options, Solution, Solver};
use gamedb::format::entries::UNREACHED;
use gamedb::game::GameSpec;
use gamedb::games::board::{Board, Dir};
use gamedb::games::pdb::PdbSpec;
use gamedb::games::pdb::{Partition, PARTITIONS};
use gamedb::{Spec, Table, TableDir, ValueKind};

/// Every entry of a pattern table, solved in memory.
fn pdb_values(spec: &PdbSpec) -> Vec<u8> {
    payload_bytes(&Spec::new(spec.clone()), ValueKind::Distance)
}

/// Runs a stream that holds a bad line, which must exit 2 with `answers` lines of JSON: its
/// output, those lines, and its standard error.
fn stream_with_errors(
    args: &[&str],
    input: &[u8],
    answers: usize,
) -> (String, Vec<serde_json::Value>, String) {
    let o = gamedb_stdin(args, input);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let out = stdout(&o);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), answers, "{out}");
    (out, lines, stderr(&o))
}

/// The solver on the tables of a folder.
fn open_solver(rows: u32, cols: u32, dir: &Path, options: &Options) -> Solver {
    Solver::open(rows, cols, &TableDir::new(dir), options).unwrap()
}

// ---------- independent brute force ----------

/// Fewest pattern moves from every abstract state, by 0-1 BFS over (cells of the pattern
/// tiles, blank cell) kept in a hash map; the value of a placement is the least over its blank
/// cells. Knows nothing of the library's index or components.
fn brute_pdb(rows: usize, cols: usize, pattern: &[u32]) -> HashMap<Vec<u8>, u8> {
    let n = rows * cols;
    let neighbours = |c: usize| {
        let (r, k) = (c / cols, c % cols);
        let mut v = Vec::new();
        if r > 0 {
            v.push(c - cols);
        }
        if r + 1 < rows {
            v.push(c + cols);
        }
        if k > 0 {
            v.push(c - 1);
        }
        if k + 1 < cols {
            v.push(c + 1);
        }
        v
    };
    let goal: Vec<u8> = pattern.iter().map(|&t| (t - 1) as u8).collect();
    let mut dist: HashMap<(Vec<u8>, u8), u32> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert((goal.clone(), (n - 1) as u8), 0);
    queue.push_back(((goal, (n - 1) as u8), 0u32));
    while let Some(((cells, blank), d)) = queue.pop_front() {
        if dist[&(cells.clone(), blank)] < d {
            continue;
        }
        for c in neighbours(blank as usize) {
            let mut next = cells.clone();
            let cost = match cells.iter().position(|&x| x as usize == c) {
                Some(i) => {
                    next[i] = blank;
                    1
                }
                None => 0,
            };
            let key = (next, c as u8);
            let nd = d + cost;
            if dist.get(&key).is_none_or(|&old| nd < old) {
                dist.insert(key.clone(), nd);
                if cost == 0 {
                    queue.push_front((key, nd));
                } else {
                    queue.push_back((key, nd));
                }
            }
        }
    }
    let mut out: HashMap<Vec<u8>, u8> = HashMap::new();
    for ((cells, _), d) in dist {
        let e = out.entry(cells).or_insert(u8::MAX);
        *e = (*e).min(d as u8);
    }
    out
}

/// Every placement of `k` tiles on `n` cells, in lexicographic order of the cell tuple.
fn all_placements(n: usize, k: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    fn rec(n: usize, k: usize, cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for c in 0..n as u8 {
            if !cur.contains(&c) {
                cur.push(c);
                rec(n, k, cur, out);
                cur.pop();
            }
        }
    }
    rec(n, k, &mut cur, &mut out);
    out
}

#[test]
fn pdb_values_equal_brute_force_on_small_boards() {
    let cases: &[(u32, u32, &[u32])] = &[
        (2, 2, &[1]),
        (2, 2, &[1, 2, 3]),
        (2, 3, &[1, 2]),
        (2, 3, &[3, 4, 5]),
        (2, 3, &[1, 2, 3, 4]),
        (2, 3, &[1, 2, 3, 4, 5]),
        (3, 2, &[2, 5]),
        (3, 3, &[1, 2, 3]),
        (3, 3, &[5, 8]),
        (3, 3, &[2, 4, 6, 8]),
        (3, 3, &[1, 2, 3, 4, 5, 6, 7, 8]),
        (2, 4, &[1, 4, 5, 7]),
        // More than 16 cells: the other storage.
        (5, 4, &[1, 2, 19]),
        (3, 6, &[6, 12]),
    ];
    for &(rows, cols, pattern) in cases {
        let spec = PdbSpec::new(rows, cols, pattern).unwrap();
        let values = pdb_values(&spec);
        let n = (rows * cols) as usize;
        let brute = brute_pdb(rows as usize, cols as usize, spec.pattern());
        let placements = all_placements(n, pattern.len());
        assert_eq!(values.len(), placements.len());
        let mut unreachable = 0;
        for (i, cells) in placements.iter().enumerate() {
            let want = brute.get(cells).copied().unwrap_or(UNREACHED);
            unreachable += (want == UNREACHED) as usize;
            assert_eq!(
                values[i], want,
                "{rows}x{cols} pattern {pattern:?}, placement {i} = cells {cells:?}"
            );
        }
        // With two or more other tiles every placement reaches home (swapping two of them
        // fixes the parity); with none, half of the placements cannot.
        if pattern.len() + 2 < n {
            assert_eq!(unreachable, 0, "{rows}x{cols} {pattern:?}");
        }
        if pattern.len() + 1 == n {
            assert_eq!(
                unreachable * 2,
                placements.len(),
                "{rows}x{cols} {pattern:?}"
            );
        }
    }
}

#[test]
fn rank_follows_the_documented_worked_example() {
    // tables/README.md, "Game 5": tiles 1,2,3 of the 4x4 board on cells 5, 0, 9.
    let p = PdbSpec::new(4, 4, &[1, 2, 3]).unwrap().placements();
    assert_eq!(p.rank(&[5, 0, 9]), 1057);
    let mut cells = [0u8; 3];
    p.unrank(1057, &mut cells);
    assert_eq!(cells, [5, 0, 9]);
    // The goal placement 0,1,2 is index 0; the last one is 15,14,13.
    assert_eq!(p.rank(&[0, 1, 2]), 0);
    assert_eq!(p.rank(&[15, 14, 13]), 16 * 15 * 14 - 1);
}

#[test]
fn bad_patterns_are_refused_with_the_accepted_form() {
    for (rows, cols, pattern, says) in [
        (4, 4, "1,2,2", "twice"),
        (4, 4, "0,1", "not a tile"),
        (4, 4, "1,16", "not a tile"),
        (3, 3, "9", "not a tile"),
        (4, 4, "", "empty"),
        (4, 4, "1,x", "not a non-negative integer"),
        (1, 4, "1", "at least 2"),
        (4, 4, "1,2,3,4,5,6,7,8,9,10", "placements"),
    ] {
        let e = PdbSpec::parse(rows, cols, pattern).unwrap_err().to_string();
        assert!(e.contains(says), "{pattern}: {e}");
        let o = gamedb(&words(
            "build pdb --rows {} --cols {} --pattern {} --out /nonexistent-dir",
            &[&rows.to_string(), &cols.to_string(), pattern],
        ));
        assert_eq!(o.status.code(), Some(2), "{pattern}");
        assert!(stderr(&o).starts_with("gamedb: "), "{}", stderr(&o));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
    }
    // Order does not matter: the same table.
    assert_eq!(
        PdbSpec::parse(4, 4, "3,1,2").unwrap(),
        PdbSpec::parse(4, 4, "1,2,3").unwrap()
    );
}

#[test]
fn same_bytes_at_one_and_two_threads() {
    for (rows, cols, pattern) in [
        (4, 4, &[1u32, 2, 3, 4, 5][..]),
        (3, 4, &[2, 5, 8, 11, 3]),
        (5, 4, &[1, 2, 3]),
    ] {
        let spec = PdbSpec::new(rows, cols, pattern).unwrap();
        let one = with_threads(1, || pdb_values(&spec));
        let two = with_threads(2, || pdb_values(&spec));
        assert!(one == two, "{rows}x{cols} {pattern:?}");
    }
}

#[test]
fn table_file_round_trip() {
    let dir = TempDir::new("pdb-roundtrip");
    let spec = Spec::new(PdbSpec::new(3, 4, &[1, 2, 3, 4]).unwrap());
    let built = gamedb::build::build(&spec, ValueKind::Distance, dir.path(), &()).unwrap();
    assert!(built.path.ends_with("pdb-3x4-1-4.gtab"));
    let table = Table::open(&built.path).unwrap();
    table.verify().unwrap();
    assert_eq!(table.spec(), Some(&spec));
    assert_eq!(table.value_kind(), ValueKind::Distance);
    let pdb = spec.get::<PdbSpec>().unwrap();
    let values = pdb_values(pdb);
    assert_eq!(table.file().payload(), &values[..]);
    // Lookups take whole positions; only the pattern tiles matter.
    let rules = table.rules();
    let goal = Board::new(3, 4).unwrap().goal();
    assert_eq!(table.raw(rules.rank(&goal)), 0);
    let i = rules.rank(&[5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4]);
    assert_eq!(rules.rank(&rules.unrank(i)), i);
    // The CLI writes the same bytes.
    let o = gamedb(&words(
        "build pdb --rows 3 --cols 4 --pattern 4,3,2,1 --out {} -q",
        &[dir.path().join("cli").to_str().unwrap()],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let cli = Table::open(dir.path().join("cli/pdb-3x4-1-4.gtab")).unwrap();
    assert_eq!(cli.file().payload(), &values[..]);
}

// ---------- the solver against plain breadth-first search ----------

/// Packs an arrangement of at most 16 cells into nibbles.
fn pack(tiles: &[u32]) -> u64 {
    tiles
        .iter()
        .enumerate()
        .fold(0, |k, (i, &t)| k | (t as u64) << (4 * i))
}

/// Distances to the goal of every arrangement that reaches it, by plain BFS (3x3: 181,440).
fn bfs_all(board: Board) -> HashMap<u64, u32> {
    let goal = board.goal();
    let mut dist = HashMap::new();
    dist.insert(pack(&goal), 0);
    let mut queue = VecDeque::from([(goal, 0u32)]);
    while let Some((tiles, d)) = queue.pop_front() {
        let blank = tiles.iter().position(|&t| t == 0).unwrap();
        for c in neighbours(board, blank) {
            let mut next = tiles.clone();
            next.swap(c, blank);
            let key = pack(&next);
            if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(key) {
                e.insert(d + 1);
                queue.push_back((next, d + 1));
            }
        }
    }
    dist
}

fn neighbours(board: Board, cell: usize) -> Vec<usize> {
    (0..board.cells())
        .filter(|&c| board.neighbours(cell) >> c & 1 == 1)
        .collect()
}

/// Distance between two arrangements by bidirectional breadth-first search.
fn bfs_between(board: Board, from: &[u32], to: &[u32]) -> u32 {
    if from == to {
        return 0;
    }
    let mut seen = [HashMap::new(), HashMap::new()];
    let mut frontier = [vec![from.to_vec()], vec![to.to_vec()]];
    seen[0].insert(pack(from), 0u32);
    seen[1].insert(pack(to), 0u32);
    let mut depth = [0u32, 0];
    loop {
        let side = if frontier[0].len() <= frontier[1].len() {
            0
        } else {
            1
        };
        let mut next = Vec::new();
        depth[side] += 1;
        for tiles in &frontier[side] {
            let blank = tiles.iter().position(|&t| t == 0).unwrap();
            for c in neighbours(board, blank) {
                let mut t = tiles.clone();
                t.swap(c, blank);
                let key = pack(&t);
                if let Some(&d) = seen[1 - side].get(&key) {
                    return depth[side] + d;
                }
                if !seen[side].contains_key(&key) {
                    seen[side].insert(key, depth[side]);
                    next.push(t);
                }
            }
        }
        frontier[side] = next;
    }
}

/// Replays a solution and checks it reaches the goal.
fn replay(board: Board, start: &[u32], moves: &[(u32, Dir)]) -> Vec<u32> {
    let mut tiles = start.to_vec();
    for &(tile, dir) in moves {
        board
            .apply(&mut tiles, tile, dir)
            .unwrap_or_else(|| panic!("illegal move {tile} {dir:?} in {tiles:?}"));
    }
    tiles
}

fn random_walk(board: Board, steps: usize, rng: &mut Rng) -> Vec<u32> {
    let mut t = board.goal();
    let mut last = usize::MAX;
    for _ in 0..steps {
        let blank = t.iter().position(|&x| x == 0).unwrap();
        let options: Vec<usize> = neighbours(board, blank)
            .into_iter()
            .filter(|&c| c != last)
            .collect();
        let c = options[rng.below(options.len() as u64) as usize];
        t.swap(c, blank);
        last = blank;
    }
    t
}

fn build_patterns(dir: &Path, rows: u32, cols: u32, patterns: &[&[u32]]) {
    for p in patterns {
        let spec = Spec::new(PdbSpec::new(rows, cols, p).unwrap());
        gamedb::build::build(&spec, ValueKind::Distance, dir, &()).unwrap();
    }
}

fn moves_of(s: &Solution) -> Vec<(u32, Dir)> {
    s.moves.iter().map(|m| (m.tile, m.dir)).collect()
}

#[test]
fn eight_puzzle_lengths_equal_breadth_first_distances() {
    let board = Board::new(3, 3).unwrap();
    let dist = bfs_all(board);
    assert_eq!(dist.len(), 181_440);
    assert_eq!(dist.values().max(), Some(&31));
    let dir = TempDir::new("pdb-3x3");
    build_patterns(
        dir.path(),
        3,
        3,
        &[
            &[1, 2, 3, 4],
            &[5, 6, 7, 8],
            &[1, 2, 3],
            &[4, 5, 6],
            &[7, 8],
        ],
    );
    let solvers = [
        // The best partition present (4-4), with the reflection.
        open_solver(3, 3, dir.path(), &Options::default()),
        open_solver(
            3,
            3,
            dir.path(),
            &Options {
                patterns: Some(vec![vec![1, 2, 3], vec![4, 5, 6], vec![7, 8]]),
                reflect: false,
                verify: true,
                copy: false,
            },
        ),
    ];
    assert!(
        solvers[0].describe().contains("1-4 + 5-8"),
        "{}",
        solvers[0].describe()
    );
    let mut rng = Rng(0x8_9u64 << 20 | 3);
    let mut checked = 0;
    let mut unsolvable = 0;
    for _ in 0..3000 {
        let tiles = random_arrangement(board, &mut rng);
        let truth = dist.get(&pack(&tiles)).copied();
        assert_eq!(board.solvable(&tiles), truth.is_some(), "{tiles:?}");
        for solver in &solvers {
            let s = solver.solve(&tiles).unwrap();
            assert_eq!(s.length, truth, "{tiles:?} with {}", solver.describe());
            if let Some(d) = truth {
                assert_eq!(s.moves.len() as u32, d);
                assert_eq!(replay(board, &tiles, &moves_of(&s)), board.goal());
                assert!(s.heuristic <= d && s.heuristic >= board.manhattan(&tiles).min(d));
            } else {
                assert!(s.reason.as_deref().unwrap().contains("parity"));
                assert_eq!(s.expanded, 0);
            }
        }
        checked += truth.is_some() as u32;
        unsolvable += truth.is_none() as u32;
    }
    assert!(
        checked > 1300 && unsolvable > 1300,
        "{checked} {unsolvable}"
    );
}

#[test]
fn fifteen_puzzle_solutions_replay_and_match_breadth_first_search() {
    let board = Board::new(4, 4).unwrap();
    let dir = TempDir::new("pdb-4x4");
    let o = gamedb(&words(
        "build fifteen --partition 5-5-5 --out {} -q",
        &[dir.path().to_str().unwrap()],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 3);
    let solver = open_solver(4, 4, dir.path(), &Options::default());
    assert!(solver.describe().contains("reflected"));
    let mut rng = Rng(0x15_15_15);
    // Random walks: the length equals the distance found by plain breadth-first search.
    for steps in [0, 1, 2, 5, 10, 15, 20, 22, 24, 26, 28, 30] {
        let tiles = random_walk(board, steps, &mut rng);
        let s = solver.solve(&tiles).unwrap();
        let truth = bfs_between(board, &tiles, &board.goal());
        assert_eq!(s.length, Some(truth), "{tiles:?}");
        assert_eq!(replay(board, &tiles, &moves_of(&s)), board.goal());
    }
    // Uniformly drawn positions: replayed, at least the Manhattan distance, right parity.
    let mut solved = 0;
    while solved < 6 {
        let tiles = random_arrangement(board, &mut rng);
        let s = solver.solve(&tiles).unwrap();
        if !board.solvable(&tiles) {
            assert_eq!(s.length, None);
            continue;
        }
        let len = s.length.unwrap();
        assert_eq!(replay(board, &tiles, &moves_of(&s)), board.goal());
        assert!(len >= board.manhattan(&tiles), "{tiles:?}");
        assert_eq!(len % 2, board.length_parity(&tiles), "{tiles:?}");
        assert!(s.heuristic <= len);
        solved += 1;
    }
}

#[test]
fn partitions_cover_the_board_and_name_their_tables() {
    for p in PARTITIONS {
        let specs = p.specs();
        let mask = specs.iter().fold(0u64, |m, s| {
            assert_eq!(m & s.mask(), 0);
            m | s.mask()
        });
        assert_eq!(mask, 0xFFFE, "{}", p.name);
    }
    let names: Vec<String> = Partition::named("7-8")
        .unwrap()
        .specs()
        .into_iter()
        .map(|s| s.stem())
        .collect();
    assert_eq!(names, ["pdb-4x4-1-7", "pdb-4x4-8-15"]);
    assert!(Partition::named("4-4-4-3").is_err());
}

// ---------- the CLI ----------

#[test]
fn build_all_builds_every_table_of_a_fifteen_line() {
    let (_dir, cat, out) = with_catalog(
        "pdb-catalog",
        "fifteen --partition 5-5-5\npdb --rows 2 --cols 3 --pattern 2,1\n",
    );
    let first = build_all_ok(&cat, &out);
    // A row a table, its status last; then the total line.
    let built = first.lines().filter(|l| l.ends_with("  built")).count();
    assert_eq!(built, 4, "{first}");
    assert!(first.contains("total: 4 tables (4 built)"), "{first}");
    assert!(out.join("pdb-2x3-1-2.gtab").exists());
    let o = gamedb(&build_all_args(&cat, &out, &[]));
    assert_eq!(
        stdout(&o).matches("present, skipped").count(),
        4,
        "{}",
        stdout(&o)
    );
    // A pattern alone is a (weak) lower bound too; the other tiles move for free.
    let weak = open_solver(
        4,
        4,
        &out,
        &Options {
            patterns: Some(vec![vec![1, 2, 3, 4, 7]]),
            ..Options::default()
        },
    );
    let s = weak
        .solve(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 14, 15])
        .unwrap();
    assert_eq!(s.length, Some(2));
    let solver = open_solver(4, 4, &out, &Options::default());
    assert!(
        solver
            .describe()
            .contains("1-4,7 + 5-6,9-10,13 + 8,11-12,14-15"),
        "{}",
        solver.describe()
    );
}

#[test]
fn solve_cli_answers_text_json_stdin_and_refuses_bad_input() {
    let dir = TempDir::new("pdb-cli");
    let d = dir.path().to_str().unwrap();
    // No tables: the message names the build command.
    let o = gamedb(&[
        "solve",
        "--tables",
        d,
        "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("gamedb build fifteen"),
        "{}",
        stderr(&o)
    );
    let o = gamedb(&words(
        "solve --rows 3 --cols 3 --tables {} 1,2,3,4,5,6,7,0,8",
        &[d],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("gamedb build pdb --rows 3 --cols 3 --pattern 1,2,3,4"),
        "{}",
        stderr(&o)
    );
    build_patterns(dir.path(), 3, 3, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
    let solve = |args: &[&str]| {
        let mut all = vec!["solve", "--rows", "3", "--cols", "3", "--tables", d];
        all.extend_from_slice(args);
        gamedb(&all)
    };
    let o = solve(&["1,2,3,4,5,6,7,0,8", "8,6,7,2,5,4,3,0,1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("1,2,3,4,5,6,7,0,8: 1 move: slide 8 left"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("8,6,7,2,5,4,3,0,1: 31 moves: "),
        "{out}"
    );
    // An unsolvable position, byte for byte; its reason is the one `query` gives.
    let o = solve(&["--json", "2,1,3,4,5,6,7,8,0"]);
    let reason = "the tiles read row by row (blank skipped) have 1 inversion, an odd number; \
                  with an odd number of columns every move keeps the parity of that count, which \
                  is even at the goal, so this arrangement reaches 1,2,3,4,5,6,8,7,0 (the last \
                  two tiles swapped) instead";
    assert_eq!(
        stdout(&o).trim(),
        format!(
            "{{\"position\":\"2,1,3,4,5,6,7,8,0\",\"solvable\":false,\"distance\":null,\
             \"moves\":[],\"nodes_expanded\":0,\"nodes_generated\":0,\"heuristic\":0,\
             \"seconds\":0.000000,\"reason\":\"{reason}\"}}"
        )
    );
    let o = gamedb(&words(
        "query --rows 3 --cols 3 --tables {} --json 2,1,3,4,5,6,7,8,0",
        &[d],
    ));
    assert_eq!(json(&stdout(&o))["reason"], reason, "{}", stdout(&o));
    // Bad positions: one line each on stderr, exit 2.
    for (bad, says) in [
        ("1,2,3", "has 3 numbers, a 3×3 board has 9 cells"),
        ("1,1,2,3,4,5,6,7,8", "appears twice"),
        ("1,2,3,4,5,6,7,8,9", "9 is not a tile"),
        ("1,2,3,4,5,6,7,8,x", "not a non-negative integer"),
    ] {
        let e = refused(
            bad,
            &["solve", "--rows", "3", "--cols", "3", "--tables", d, bad],
            &[says],
        );
        assert_eq!(e.lines().count(), 1, "{bad}: {e}");
    }
    // Standard input: one answer per line, a bad line answered with an error.
    let (out, lines, err) = stream_with_errors(
        &words("solve --rows 3 --cols 3 --tables {} --json -", &[d]),
        b"1,2,3,4,5,6,7,8,0\n\n0,1,2\n1,2,3,4,5,6,0,7,8\n",
        3,
    );
    assert_eq!(lines[0]["distance"], 0, "{out}");
    assert_eq!(lines[1]["position"], "0,1,2", "{out}");
    assert!(lines[1]["error"].is_string(), "{out}");
    assert_eq!(lines[2]["distance"], 2, "{out}");
    assert_eq!(
        lines[2]["moves"],
        serde_json::json!(["slide 7 left", "slide 8 left"]),
        "{out}"
    );
    assert!(err.contains("1 of 3 input lines"), "{err}");
}

// ---------- one query interface for the 8-puzzle and the 15-puzzle ----------

#[test]
fn query_answers_4x4_positions_through_the_solver() {
    let dir = TempDir::new("query-4x4");
    let d = dir.path().to_str().unwrap();
    let board = Board::new(4, 4).unwrap();
    let goal = board.goal();
    let query = |args: &[&str]| {
        let mut all = vec![
            "query", "--rows", "4", "--cols", "4", "--tables", d, "--json",
        ];
        all.extend_from_slice(args);
        gamedb(&all)
    };
    // No tables: a solvable position names the build command; an unsolvable one is answered
    // by the parity rule all the same.
    let one_move = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15";
    let o = query(&[one_move]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("gamedb build fifteen"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    let o = query(&["2,1,3,4,5,6,7,8,9,10,11,12,13,14,15,0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let a = json(&stdout(&o));
    assert_eq!(a["solvable"], false, "{a}");
    assert!(a["distance"].is_null(), "{a}");
    assert_eq!(a["nodes"], 0, "{a}");
    assert!(
        a["reason"].as_str().unwrap().contains("an odd number"),
        "{a}"
    );
    assert_eq!(a["optimal_moves"], serde_json::json!([]), "{a}");

    let o = gamedb(&["build", "fifteen", "--partition", "5-5-5", "--out", d, "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Near the goal, with known distances and moves.
    let o = query(&[&text_of(&goal), one_move, "--path"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let at_goal = json(lines[0]);
    assert_eq!(at_goal["distance"], 0, "{out}");
    assert_eq!(at_goal["optimal_moves"], serde_json::json!([]), "{out}");
    assert_eq!(at_goal["path"], serde_json::json!([]), "{out}");
    assert!(
        lines[0].contains("\"optimal_moves\":[],\"path\":[]"),
        "{out}"
    );
    // The documented answer, byte for byte up to the nodes the solver expanded.
    assert!(json(lines[1])["nodes"].as_u64().unwrap() > 0, "{out}");
    assert_eq!(
        lines[1].split(",\"nodes\"").next().unwrap(),
        "{\"position\":\"1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15\",\"solvable\":true,\
         \"distance\":1,\"optimal_moves\":[{\"move\":\"slide 15 left\",\
         \"leaves\":\"1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0\"}],\"path\":[{\"move\":\
         \"slide 15 left\",\"leaves\":\"1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0\"}]"
    );
    let o = query(&["5,1,2,3,9,6,7,4,13,10,11,8,0,14,15,12"]);
    assert_eq!(json(&stdout(&o))["distance"], 9, "{}", stdout(&o));
    // Random walks: distance, every optimal move, and the path against plain BFS.
    let mut rng = Rng(0x15_9e27);
    for steps in [6, 10, 14, 16] {
        let start = random_walk(board, steps, &mut rng);
        let o = query(&[&text_of(&start), "--path"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let answer = json(&out);
        let dist = bfs_between(board, &start, &goal);
        assert_eq!(answer["distance"], dist, "{out}");
        let optimal: Vec<Vec<u32>> = moves(&answer, "optimal_moves")
            .into_iter()
            .map(|(_, leaves)| board.parse(&leaves).unwrap())
            .collect();
        let expected: Vec<Vec<u32>> = board
            .slides(&start)
            .into_iter()
            .map(|s| s.leaves)
            .filter(|l| bfs_between(board, l, &goal) + 1 == dist)
            .collect();
        let (mut got, mut want) = (optimal.clone(), expected);
        got.sort();
        want.sort();
        assert_eq!(got, want, "optimal moves of {start:?}: {out}");
        let path = moves(&answer, "path");
        assert_eq!(path.len() as u32, dist, "{out}");
        let mut at = start.clone();
        for (label, leaves) in &path {
            let leaves = &board.parse(leaves).unwrap();
            let s = board
                .slides(&at)
                .into_iter()
                .find(|s| &s.leaves == leaves)
                .unwrap_or_else(|| panic!("{label} is not a move of {at:?}"));
            assert_eq!(label, &gamedb::games::board::move_label(s.tile, s.dir));
            at = s.leaves;
        }
        assert_eq!(at, goal);
        assert!(answer["nodes"].as_u64().unwrap() > 0, "{out}");
    }
    // A folder in place of the table file is the same interface (4x4 by default).
    let o1 = query(&["5,1,2,3,9,6,7,4,13,10,11,8,0,14,15,12"]);
    let o2 = gamedb(&[
        "query",
        d,
        "5,1,2,3,9,6,7,4,13,10,11,8,0,14,15,12",
        "--json",
    ]);
    assert!(o2.status.success(), "{}", stderr(&o2));
    assert_eq!(stdout(&o1), stdout(&o2));
    // Text answers in the words of a complete table, plus the nodes.
    let o = gamedb(&["query", d, one_move]);
    assert_eq!(
        stdout(&o).trim_end(),
        "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15: distance 1  optimal: slide 15 left -> \
         1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0  (5 nodes expanded)"
    );
    // Bad input: one line naming the accepted form, exit 2.
    let o = query(&["1,2,3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("has 3 numbers, a 4×4 board has 16 cells"),
        "{}",
        stderr(&o)
    );
    let o = gamedb(&["query", d]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no position given"), "{}", stderr(&o));
    // Standard input: one answer per line, a bad line answered with an error.
    let (out, lines, _) = stream_with_errors(
        &words("query --rows 4 --cols 4 --tables {} --json -", &[d]),
        b"1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15\n1,2\n",
        2,
    );
    assert_eq!(lines[0]["distance"], 1, "{out}");
    assert_eq!(lines[1]["position"], "1,2", "{out}");
    let error = str_at(&lines[1], "error");
    assert!(
        error.contains("has 2 numbers, a 4×4 board has 16 cells"),
        "{out}"
    );
}

#[test]
fn query_by_solver_equals_the_complete_table_on_3x3() {
    let full = TempDir::new("query-3x3-full");
    let pdbs = TempDir::new("query-3x3-pdb");
    let (f, p) = (full.path().to_str().unwrap(), pdbs.path().to_str().unwrap());
    let o = gamedb(&words("build slide --rows 3 --cols 3 --out {} -q", &[f]));
    assert!(o.status.success(), "{}", stderr(&o));
    build_patterns(pdbs.path(), 3, 3, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
    let file = full.path().join("slide-3x3.gtab");
    let file = file.to_str().unwrap();
    let board = Board::new(3, 3).unwrap();
    let mut rng = Rng(0x3_3e27);
    for _ in 0..40 {
        let pos = text_of(&random_arrangement(board, &mut rng));
        let table = stdout(&gamedb(&["query", file, &pos, "--json"]));
        let solver = gamedb(&words(
            "query --rows 3 --cols 3 --tables {} {} --json",
            &[p, &pos],
        ));
        assert!(solver.status.success(), "{}", stderr(&solver));
        let solver = stdout(&solver);
        // The same line byte for byte, plus the nodes the solver expanded at the end.
        let (answer, nodes) = solver.trim_end().rsplit_once(",\"nodes\":").unwrap();
        assert!(
            nodes.trim_end_matches('}').parse::<u64>().is_ok(),
            "{solver}"
        );
        assert_eq!(format!("{answer}}}"), table.trim_end(), "{pos}");
        let mut solver = json(&solver);
        assert!(solver["nodes"].is_u64(), "{solver}");
        solver.as_object_mut().unwrap().remove("nodes");
        assert_eq!(solver, json(&table), "{pos}");
        // With a complete table in --tables, the same interface reads it.
        let o = gamedb(&words(
            "query --rows 3 --cols 3 --tables {} {} --json",
            &[f, &pos],
        ));
        assert_eq!(stdout(&o), table, "{pos}");
    }
    // The folder in place of the table file, with the board named.
    let pos = "8,6,7,2,5,4,3,0,1";
    let o = gamedb(&["query", p, "--rows", "3", "--cols", "3", pos]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(
            &stdout(&gamedb(&["query", file, pos]))
                .trim_end()
                .to_string()
        ),
        "{}",
        stdout(&o)
    );
}

#[test]
fn pattern_tables_answer_query_and_info_with_lower_bounds() {
    let dir = TempDir::new("pdb-query");
    let full = TempDir::new("pdb-query-full");
    build_patterns(dir.path(), 3, 3, &[&[1, 2, 3, 4]]);
    let spec = PdbSpec::new(3, 3, &[1, 2, 3, 4]).unwrap();
    let file = dir
        .path()
        .join(Spec::new(spec.clone()).file_name(ValueKind::Distance));
    let file = file.to_str().unwrap();
    let o = gamedb(&words(
        "build slide --rows 3 --cols 3 --out {} -q",
        &[full.path().to_str().unwrap()],
    ));
    assert!(o.status.success());
    let exact = Table::open(full.path().join("slide-3x3.gtab")).unwrap();
    let table = Table::open(file).unwrap();
    let board = Board::new(3, 3).unwrap();
    let mut rng = Rng(0x9d8);
    for _ in 0..30 {
        let pos = random_arrangement(board, &mut rng);
        let o = gamedb(&["query", file, &text_of(&pos), "--json", "--path"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let answer = json(&out);
        let stored = table.raw(table.rules().rank(&pos));
        assert_eq!(answer["lower_bound"], stored, "{out}");
        let counts = str_at(&answer, "counts");
        assert!(
            counts.starts_with("moves of tiles 1-4 of the 3x3 board"),
            "{out}"
        );
        assert!(
            answer.get("optimal_moves").is_none() && answer.get("path").is_none(),
            "{out}"
        );
        // A lower bound indeed: never above the exact distance.
        if board.solvable(&pos) {
            let a = exact.query(&text_of(&pos)).unwrap();
            let d = a.distance().unwrap().distance.unwrap();
            assert!(stored <= d, "{pos:?}: bound {stored} > distance {d}");
        }
        let o = gamedb(&["query", file, &text_of(&pos)]);
        assert!(stdout(&o).contains(&format!(": lower bound {stored}: ")));
    }
    let o = gamedb(&["query", file, "1,2,3,4,5,6,7,8,0"]);
    assert!(stdout(&o).starts_with("1,2,3,4,5,6,7,8,0: lower bound 0: "));
    let o = gamedb(&["info", file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("placements at each value:"), "{out}");
    assert!(out.contains("values:          moves of tiles 1-4"), "{out}");
    let info = json(&gamedb_ok(&["info", file, "--json"]));
    assert_eq!(info["values"], "distance", "{info}");
    let of = str_at(&info, "lower_bounds_of");
    assert!(of.starts_with("moves of tiles 1-4"), "{info}");
    assert_eq!(info["unreached"], 0, "{info}");
}

#[test]
fn solve_stops_at_its_limits() {
    let dir = cli_build("tools-solve", "fifteen --partition 5-5-5");
    let d = dir.path().to_str().unwrap();
    let hard = "0,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1";
    let easy = "5,1,2,3,9,6,7,4,13,10,11,8,0,14,15,12";
    let out = gamedb(&["solve", "--tables", d, "--max-nodes", "1000", easy, hard]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stdout).starts_with(&format!("{easy}: 9 moves")));
    assert!(
        text(&out.stderr).contains("limit of 1000 expanded nodes"),
        "{}",
        text(&out.stderr)
    );
    let started = std::time::Instant::now();
    let out = gamedb(&["solve", "--tables", d, "--timeout", "0.3", hard]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("time limit"),
        "{}",
        text(&out.stderr)
    );
    assert!(started.elapsed().as_secs_f64() < 5.0);
    for bad in [["--timeout", "-1"], ["--max-nodes", "0"]] {
        let out = gamedb(&["solve", "--tables", d, bad[0], bad[1], easy]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
    // A stream keeps going past a position over its limit.
    let input = format!("{hard}\n{easy}\n");
    let out = gamedb_stdin(
        &["solve", "--tables", d, "--max-nodes", "5000", "--json", "-"],
        input.as_bytes(),
    );
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].contains("\"error\""));
    assert!(lines[1].contains("\"distance\":9"));
}
