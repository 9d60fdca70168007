//! The mill games: every position the start reaches of the small variant (three men a side on
//! the 16-point board of Six Men's Morris, with and without flying) against a minimax written
//! here from the rules alone (its own board, lines, moves, removals, values by levels of
//! remoteness), the table's reachable marks, tables equal at one and two threads, the answer
//! in text and JSON through the command line, and bad input refused with one line.

mod common;

use std::collections::{HashMap, VecDeque};

use common::*;
use gamedb::game::{standing, Standing};
use gamedb::games::mill::MillSpec;
use gamedb::{Spec, ValueKind};

/// The 16-point board, points top to bottom and left to right: the outer square's corners
/// and midpoints, the inner square's, and the four lines of two joining the midpoints.
const MILLS: [[usize; 3]; 8] = [
    [0, 1, 2],
    [13, 14, 15],
    [0, 6, 13],
    [2, 9, 15],
    [3, 4, 5],
    [10, 11, 12],
    [3, 7, 10],
    [5, 8, 12],
];
const SPOKES: [[usize; 2]; 4] = [[1, 4], [6, 7], [8, 9], [11, 14]];

/// A position: points (`b'.'`, `b'x'`, `b'o'`), the side to move, men in hand of x and o.
type Pos = (Vec<u8>, u8, u8, u8);

fn opponent(side: u8) -> u8 {
    if side == b'x' {
        b'o'
    } else {
        b'x'
    }
}

fn neighbours(p: usize) -> Vec<usize> {
    let mut out = Vec::new();
    for l in MILLS {
        for k in 0..3 {
            if l[k] == p {
                if k > 0 {
                    out.push(l[k - 1]);
                }
                if k < 2 {
                    out.push(l[k + 1]);
                }
            }
        }
    }
    for s in SPOKES {
        if s[0] == p {
            out.push(s[1]);
        }
        if s[1] == p {
            out.push(s[0]);
        }
    }
    out
}

fn in_mill(b: &[u8], p: usize) -> bool {
    MILLS
        .iter()
        .any(|l| l.contains(&p) && l.iter().all(|&q| b[q] == b[p]))
}

fn hand(p: &Pos, side: u8) -> u8 {
    if side == b'x' {
        p.2
    } else {
        p.3
    }
}

fn left(p: &Pos, side: u8) -> usize {
    p.0.iter().filter(|&&v| v == side).count() + hand(p, side) as usize
}

/// The positions each move leaves, or none when the game is over.
fn moves(p: &Pos, flying: bool) -> Vec<Pos> {
    let (b, side) = (&p.0, p.1);
    let them = opponent(side);
    if left(p, side) == 2 {
        return Vec::new();
    }
    // Boards after the man is placed or moved, before a removal: (board, point it came to).
    let mut after: Vec<(Vec<u8>, usize)> = Vec::new();
    if hand(p, side) > 0 {
        for to in (0..16).filter(|&q| b[q] == b'.') {
            let mut n = b.clone();
            n[to] = side;
            after.push((n, to));
        }
    } else {
        let mine = b.iter().filter(|&&v| v == side).count();
        for from in (0..16).filter(|&q| b[q] == side) {
            let dests: Vec<usize> = if flying && mine == 3 {
                (0..16).filter(|&q| b[q] == b'.').collect()
            } else {
                neighbours(from)
                    .into_iter()
                    .filter(|&q| b[q] == b'.')
                    .collect()
            };
            for to in dests {
                let mut n = b.clone();
                n[from] = b'.';
                n[to] = side;
                after.push((n, to));
            }
        }
    }
    let (hx, ho) = match (hand(p, side) > 0, side) {
        (true, b'x') => (p.2 - 1, p.3),
        (true, _) => (p.2, p.3 - 1),
        _ => (p.2, p.3),
    };
    let mut out = Vec::new();
    for (n, to) in after {
        let theirs: Vec<usize> = (0..16).filter(|&q| n[q] == them).collect();
        let free: Vec<usize> = theirs
            .iter()
            .copied()
            .filter(|&q| !in_mill(&n, q))
            .collect();
        let takeable = if free.is_empty() { theirs } else { free };
        if in_mill(&n, to) && !takeable.is_empty() {
            for q in takeable {
                let mut m = n.clone();
                m[q] = b'.';
                out.push((m, them, hx, ho));
            }
        } else {
            out.push((n, them, hx, ho));
        }
    }
    out
}

/// Every position the start reaches, numbered in the order found, with the numbers of the
/// positions its moves leave.
fn reachable(flying: bool) -> (Vec<Pos>, Vec<Vec<usize>>) {
    let start: Pos = (vec![b'.'; 16], b'x', 3, 3);
    let mut id = HashMap::from([(start.clone(), 0usize)]);
    let mut all = vec![start];
    let mut kids = Vec::new();
    let mut todo = VecDeque::from([0usize]);
    while let Some(i) = todo.pop_front() {
        let mut next = Vec::new();
        for k in moves(&all[i], flying) {
            let n = all.len();
            let j = *id.entry(k.clone()).or_insert(n);
            if j == n {
                all.push(k);
                todo.push_back(j);
            }
            next.push(j);
        }
        if kids.len() <= i {
            kids.resize(i + 1, Vec::new());
        }
        kids[i] = next;
    }
    kids.resize(all.len(), Vec::new());
    (all, kids)
}

/// Minimax by levels of remoteness: a position without moves is lost at 0; a win in r when a
/// move leaves a loss in r - 1, a loss in r when every move leaves a win, the farthest in
/// r - 1; what is never decided is a draw (the game has no tie).
fn solve(kids: &[Vec<usize>]) -> Vec<(Standing, u32)> {
    let mut value: Vec<Option<(Standing, u32)>> = kids
        .iter()
        .map(|k| k.is_empty().then_some((Standing::Lose, 0)))
        .collect();
    for r in 1.. {
        let mut found = Vec::new();
        for (p, next) in kids.iter().enumerate() {
            if value[p].is_some() {
                continue;
            }
            if next
                .iter()
                .any(|&k| value[k] == Some((Standing::Lose, r - 1)))
            {
                found.push((p, Standing::Win));
            } else if next
                .iter()
                .all(|&k| matches!(value[k], Some((Standing::Win, q)) if q < r))
            {
                found.push((p, Standing::Lose));
            }
        }
        if found.is_empty() {
            break;
        }
        for (p, v) in found {
            value[p] = Some((v, r));
        }
    }
    value
        .into_iter()
        .map(|v| v.unwrap_or((Standing::Draw, 0)))
        .collect()
}

fn as_entry(p: &Pos) -> Vec<u32> {
    let mut v: Vec<u32> =
        p.0.iter()
            .map(|&c| match c {
                b'x' => 1,
                b'o' => 2,
                _ => 0,
            })
            .collect();
    v.extend([if p.1 == b'x' { 1 } else { 2 }, p.2 as u32, p.3 as u32]);
    v
}

#[test]
fn every_reachable_position_agrees_with_a_minimax_from_the_rules() {
    for flying in [false, true] {
        let spec = Spec::new(MillSpec::new(3, None, flying).unwrap());
        let table = table(&spec, ValueKind::Remoteness);
        let rules = table.rules();
        let (all, kids) = reachable(flying);
        let want = solve(&kids);
        let mut marked = 0u64;
        for i in 0..table.len() {
            marked += u64::from(standing::reachable(table.raw(i)));
        }
        assert_eq!(marked, all.len() as u64, "flying {flying}");
        for (p, &v) in all.iter().zip(&want) {
            let pos = as_entry(p);
            rules.check(&pos).unwrap();
            let entry = table.raw(rules.rank(&pos));
            let text = rules.format(&pos);
            assert_eq!(standing::unpack(entry), Some(v), "flying {flying}: {text}");
            assert!(standing::reachable(entry), "flying {flying}: {text}");
        }
        // The start, found first, is a draw.
        assert_eq!(want[0].0, Standing::Draw, "flying {flying}");
    }
}

#[test]
fn tables_are_the_same_bytes_at_one_and_two_threads() {
    for flying in [false, true] {
        let spec = Spec::new(MillSpec::new(3, None, flying).unwrap());
        let one = with_threads(1, || payload_bytes(&spec, ValueKind::Remoteness));
        let two = with_threads(2, || payload_bytes(&spec, ValueKind::Remoteness));
        assert!(one == two, "flying {flying}");
    }
}

#[test]
fn the_command_line_answers_and_refuses_bad_input() {
    let dir = TempDir::new("mill-cli");
    let out = gamedb_ok(&["build", "mill", "--men", "3", "--out", dir.arg()]);
    assert!(out.contains("mill-3.gtab"), "{out}");
    let t = dir.join("mill-3.gtab");

    let text = gamedb_ok(&["query", &t, ".../.../..../.../...,x,3,3"]);
    assert!(
        text.starts_with(".../.../..../.../...,x,3,3: draw  moves: a5: draw;"),
        "{text}"
    );
    // x to move with two men left has lost; o made a mill and took a man.
    let a = json(&gamedb_ok(&[
        "query",
        "--json",
        &t,
        "xx./.o./.o../.o./...,x",
    ]));
    assert_eq!(a["value"], "lose");
    assert_eq!(a["remoteness"], 0);
    assert_eq!(a["moves"].as_array().unwrap().len(), 0);
    // o closes a5 c5 e5 with its last man and takes one of x's three.
    let a = json(&gamedb_ok(&[
        "query",
        "--json",
        &t,
        "oo./.x./x.../.../..x,o,0,1",
    ]));
    assert_eq!(a["value"], "win");
    assert_eq!(a["remoteness"], 1);
    let labels: Vec<&str> = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"e5xc4"), "{labels:?}");

    for (pos, says) in [
        (
            "xxxx/.../..../.../...,x,3,3",
            "row 1 has 4 points instead of 3",
        ),
        (".../.../..../...,x,3,3", "4 rows instead of 5"),
        ("q../.../..../.../...,x,3,3", "'q' is not a point"),
        (".../.../..../.../...,z,3,3", "'z' is not a side to move"),
        (".../.../..../.../...,x,3", "3 fields"),
        (
            ".../.../..../.../...,x,4,3",
            "'4' is not a count of men in hand",
        ),
        ("xxx/x../..../.../...,o,0,1", "more than the 3 men a side"),
        ("x../.../..../.../...,x,2,3", "players place in turn"),
        (
            "xx./.../..../.../ooo,o",
            "x has two men left and o is to move",
        ),
        ("x../.../..../.../ooo,x", "fewer than two men left"),
    ] {
        let e = refused(pos, &["query", &t, pos], &[says, "expected"]);
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    refused(
        "men 7",
        &["build", "mill", "--men", "7", "--out", dir.arg()],
        &["--men 7", "expected 3, 4, 5 or 6"],
    );
    // A stream goes on after a bad line.
    let out = gamedb_stdin(
        &["query", "--json", &t, "-"],
        b".../.../..../.../...,x,3,3\nnonsense\nxx./.o./.o../.o./...,x\n",
    );
    let lines = json_lines(&stdout(&out));
    assert_eq!(lines.len(), 3, "{}", stdout(&out));
    assert_eq!(lines[0]["value"], "draw");
    assert!(lines[1]["error"].as_str().unwrap().contains("expected"));
    assert_eq!(lines[2]["value"], "lose");
}

#[test]
fn an_endgame_table_holds_the_values_of_the_whole_game() {
    // The moving phase with at most three men a side is closed under play (a mill only takes
    // men away), so its table must give each of its positions the value the whole game gives.
    let whole = table(
        &Spec::new(MillSpec::new(4, None, false).unwrap()),
        ValueKind::Remoteness,
    );
    let spec = MillSpec::new(4, None, false)
        .unwrap()
        .with_endgame(Some(3))
        .unwrap();
    let end = table(&Spec::new(spec), ValueKind::Remoteness);
    let (rules, all) = (end.rules(), whole.rules());
    assert!(rules.start().is_none());
    let mut legal = 0;
    for i in 0..end.len() {
        let e = end.raw(i);
        if standing::unpack(e).is_none() {
            continue;
        }
        legal += 1;
        let pos = rules.unrank(i);
        let w = whole.raw(all.rank(&pos));
        assert_eq!(
            standing::unpack(e),
            standing::unpack(w),
            "{}",
            rules.format(&pos)
        );
    }
    assert_eq!(legal, 407_680);
    let e = rules
        .parse("x../.../..../.../...,o,2,3")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("this endgame table holds the moving phase alone"),
        "{e}"
    );
}
