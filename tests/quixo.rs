//! Quixo: every index of the 2×2 and 3×3 tables against a solver written here from the rules
//! alone (its own boards, moves, lines, legality, values by levels of remoteness and
//! reachability), tables equal at one and two threads, the answer in text and JSON through
//! the command line, and bad input refused with one line saying what is expected.

mod common;

use std::collections::{HashMap, HashSet, VecDeque};

use common::*;
use gamedb::format::entries::standing;
use gamedb::games::quixo::QuixoSpec;
use gamedb::model::Standing;
use gamedb::{Spec, ValueKind};

/// A position: cells row-major (`b'.'`, `b'x'`, `b'o'`) and the side to move.
type Pos = (Vec<u8>, u8);

fn opponent(side: u8) -> u8 {
    if side == b'x' {
        b'o'
    } else {
        b'x'
    }
}

/// Whether `side` has n in a row: a row, a column or a long diagonal.
fn line(n: usize, b: &[u8], side: u8) -> bool {
    let all = |f: &dyn Fn(usize) -> usize| (0..n).all(|i| b[f(i)] == side);
    (0..n).any(|k| all(&|i| k * n + i) || all(&|i| i * n + k))
        || all(&|i| i * n + i)
        || all(&|i| i * n + (n - 1 - i))
}

/// The boards each move of `side` leaves: a border cube blank or `side`'s is lifted out of its
/// row (or column), the rest of that row closes up, and the cube, now `side`'s, is put at
/// the other end.
fn moves(n: usize, b: &[u8], side: u8) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let border = r == 0 || c == 0 || r == n - 1 || c == n - 1;
            if !border || (b[r * n + c] != b'.' && b[r * n + c] != side) {
                continue;
            }
            // Along the row: cells (r, 0..n), the cube at index c; along the column likewise.
            let row: Vec<usize> = (0..n).map(|k| r * n + k).collect();
            let col: Vec<usize> = (0..n).map(|k| k * n + c).collect();
            for (cells, at) in [(row, c), (col, r)] {
                for end in [0, n - 1] {
                    if end == at {
                        continue;
                    }
                    let mut cubes: Vec<u8> = cells.iter().map(|&i| b[i]).collect();
                    cubes.remove(at);
                    cubes.insert(end, side);
                    let mut next = b.to_vec();
                    for (k, &i) in cells.iter().enumerate() {
                        next[i] = cubes[k];
                    }
                    out.push(next);
                }
            }
        }
    }
    out
}

/// Counts that alternate play from the empty board makes with `side` to move.
fn counts_fine(b: &[u8], side: u8) -> bool {
    let xs = b.iter().filter(|&&v| v == b'x').count();
    let os = b.iter().filter(|&&v| v == b'o').count();
    (xs >= 1 && os >= 1) || (side == b'x' && xs + os == 0) || (side == b'o' && (xs, os) == (1, 0))
}

fn all_boards(n: usize) -> Vec<Vec<u8>> {
    let mut boards = vec![Vec::new()];
    for _ in 0..n * n {
        boards = boards
            .into_iter()
            .flat_map(|b| {
                [b'.', b'x', b'o'].map(|v| {
                    let mut b = b.clone();
                    b.push(v);
                    b
                })
            })
            .collect();
    }
    boards
}

/// Every position and its value: play goes on from boards without a line whose counts play
/// makes; a board with a line is a position when such a board's move makes it.
fn solve(n: usize) -> HashMap<Pos, (Standing, u32)> {
    let mut kids: HashMap<Pos, Vec<Pos>> = HashMap::new();
    let mut ended: HashSet<Pos> = HashSet::new();
    for b in all_boards(n) {
        for side in [b'x', b'o'] {
            if !counts_fine(&b, side) || line(n, &b, b'x') || line(n, &b, b'o') {
                continue;
            }
            let next: Vec<Pos> = moves(n, &b, side)
                .into_iter()
                .map(|m| (m, opponent(side)))
                .collect();
            for k in &next {
                if line(n, &k.0, b'x') || line(n, &k.0, b'o') {
                    ended.insert(k.clone());
                }
            }
            kids.insert((b.clone(), side), next);
        }
    }
    let mut value: HashMap<Pos, (Standing, u32)> = HashMap::new();
    for p in &ended {
        let v = if line(n, &p.0, p.1) {
            Standing::Win
        } else {
            Standing::Lose
        };
        value.insert(p.clone(), (v, 0));
    }
    // Level by level: a win in r when a move leaves a loss in r - 1, a loss in r when every
    // move leaves a win, the farthest in r - 1.
    for r in 1.. {
        let mut found = Vec::new();
        for (p, next) in &kids {
            if value.contains_key(p) {
                continue;
            }
            let of = |k: &Pos| value.get(k).copied();
            if next.iter().any(|k| of(k) == Some((Standing::Lose, r - 1))) {
                found.push((p.clone(), Standing::Win));
            } else if next
                .iter()
                .all(|k| matches!(of(k), Some((Standing::Win, q)) if q < r))
            {
                found.push((p.clone(), Standing::Lose));
            }
        }
        if found.is_empty() {
            break;
        }
        for (p, v) in found {
            value.insert(p, (v, r));
        }
    }
    for p in kids.keys() {
        value.entry(p.clone()).or_insert((Standing::Draw, 0));
    }
    value
}

fn reachable(n: usize) -> HashSet<Pos> {
    let start: Pos = (vec![b'.'; n * n], b'x');
    let mut seen = HashSet::from([start.clone()]);
    let mut todo = VecDeque::from([start]);
    while let Some((b, side)) = todo.pop_front() {
        if line(n, &b, b'x') || line(n, &b, b'o') {
            continue;
        }
        for m in moves(n, &b, side) {
            let k = (m, opponent(side));
            if seen.insert(k.clone()) {
                todo.push_back(k);
            }
        }
    }
    seen
}

#[test]
fn every_index_agrees_with_a_solver_from_the_rules() {
    for n in [2usize, 3] {
        let spec = Spec::new(QuixoSpec::new(n as u32).unwrap());
        let table = table(&spec, ValueKind::Remoteness);
        let rules = table.rules();
        let want = solve(n);
        let reach = reachable(n);
        assert_eq!(table.len(), 2 * 3u64.pow((n * n) as u32));
        let mut seen = HashSet::new();
        let (mut legal, mut reached) = (0, 0);
        for i in 0..table.len() {
            let pos = rules.unrank(i);
            let board: Vec<u8> = pos[..n * n]
                .iter()
                .map(|&v| [b'.', b'x', b'o'][v as usize])
                .collect();
            let side = if pos[n * n] == 1 { b'x' } else { b'o' };
            let p = (board, side);
            assert!(seen.insert(p.clone()), "{n}: index {i} repeats a position");
            let entry = table.raw(i);
            let text = rules.format(&pos);
            match want.get(&p) {
                Some(&v) => {
                    legal += 1;
                    assert_eq!(standing::unpack(entry), Some(v), "{n}: {text}");
                    assert_eq!(
                        standing::reachable(entry),
                        reach.contains(&p),
                        "{n}: {text}"
                    );
                    reached += usize::from(reach.contains(&p));
                }
                None => assert_eq!(entry, 0, "{n}: {text} is no position"),
            }
        }
        assert_eq!(legal, want.len(), "{n}");
        assert_eq!(reached, reach.len(), "{n}");
    }
}

#[test]
fn tables_are_the_same_bytes_at_one_and_two_threads() {
    for n in [2, 3] {
        let spec = Spec::new(QuixoSpec::new(n).unwrap());
        let one = with_threads(1, || payload_bytes(&spec, ValueKind::Remoteness));
        let two = with_threads(2, || payload_bytes(&spec, ValueKind::Remoteness));
        assert!(one == two, "{n}");
    }
}

#[test]
fn the_command_line_answers_and_refuses_bad_input() {
    let dir = TempDir::new("quixo-cli");
    let out = gamedb_ok(&["build", "quixo", "--size", "3", "--out", dir.arg()]);
    assert!(out.contains("quixo-3.gtab"), "{out}");
    let t = dir.join("quixo-3.gtab");

    let text = gamedb_ok(&["query", &t, ".../.../...,x", "xxx/oo./o..,x"]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with(START_TEXT), "{text}");
    assert_eq!(lines[1], "xxx/oo./o..,x: win (the game is over)");

    let a = json(&gamedb_ok(&["query", "--json", &t, ".../.../...,x"]));
    assert_eq!(a["moves"].as_array().unwrap().len(), 20);
    assert_eq!(a["reachable"], true);
    let a = json(&gamedb_ok(&["query", "--json", &t, "xxx/oo./...,o"]));
    assert_eq!(a["value"], "lose");
    assert_eq!(a["remoteness"], 0);
    assert_eq!(a["moves"].as_array().unwrap().len(), 0);
    let a = json(&gamedb_ok(&["query", "--json", &t, JSON_POSITION]));
    assert_eq!(a.to_string(), JSON_ANSWER);

    for (pos, says) in [
        ("xx/.../...,x", "row 1 has 2 cells instead of 3"),
        ("..../..../....,x", "row 1 has 4 cells instead of 3"),
        ("xo./...,o", "2 rows instead of 3"),
        ("xq./.../...,x", "'q' is not a cell"),
        ("xo./.../...", "no side to move"),
        ("xo./.../...,z", "'z' is not a side to move"),
        ("x../.../...,x", "1 x and 0 o with x to move"),
        ("xxx/ooo/ooo,x", "no move of o from a board without a line"),
    ] {
        let e = refused(
            pos,
            &["query", &t, pos],
            &[says, "expected 3 rows of 3 cells"],
        );
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    refused(
        "size 6",
        &["build", "quixo", "--size", "6", "--out", dir.arg()],
        &["--size 6", "expected 2..=5"],
    );
}

/// The start's answer in text, as the 3×3 table gives it.
const START_TEXT: &str = ".../.../...,x: win in 7  moves: a1>c1: win in 7; a1>a3: win in 7;";
/// A position and its whole JSON answer: x wins in 5; o's cube at b1 is not x's to take, so
/// x has 17 moves, each shown with its value for x.
const JSON_POSITION: &str = "xo./.../...,x";
const JSON_ANSWER: &str = r#"{"position":"xo./.../...,x","value":"win","remoteness":5,"reachable":true,"moves":[{"move":"a1>c1","leaves":"o.x/.../...,o","value":"lose","remoteness":6},{"move":"a1>a3","leaves":".o./.../x..,o","value":"lose","remoteness":6},{"move":"c1>a1","leaves":"xxo/.../...,o","value":"win","remoteness":5},{"move":"c1>c3","leaves":"xo./.../..x,o","value":"win","remoteness":7},{"move":"a2>a1","leaves":"xo./x../...,o","value":"win","remoteness":5},{"move":"a2>c2","leaves":"xo./..x/...,o","value":"lose","remoteness":6},{"move":"a2>a3","leaves":"xo./.../x..,o","value":"win","remoteness":5},{"move":"c2>c1","leaves":"xox/.../...,o","value":"win","remoteness":5},{"move":"c2>a2","leaves":"xo./x../...,o","value":"win","remoteness":5},{"move":"c2>c3","leaves":"xo./.../..x,o","value":"win","remoteness":7},{"move":"a3>a1","leaves":"xo./x../...,o","value":"win","remoteness":5},{"move":"a3>c3","leaves":"xo./.../..x,o","value":"win","remoteness":7},{"move":"b3>b1","leaves":"xx./.o./...,o","value":"win","remoteness":7},{"move":"b3>a3","leaves":"xo./.../x..,o","value":"win","remoteness":5},{"move":"b3>c3","leaves":"xo./.../..x,o","value":"win","remoteness":7},{"move":"c3>c1","leaves":"xox/.../...,o","value":"win","remoteness":5},{"move":"c3>a3","leaves":"xo./.../x..,o","value":"win","remoteness":5}]}"#;
