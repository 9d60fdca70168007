//! The mill games: every position the start reaches of the small variants (three men a side on
//! the 16-point board of Six Men's Morris, with and without flying; with Lasker's rule three
//! men on the 3×3 grid, three and four on the 16 points, with and without flying) against a
//! minimax written
//! here from the rules alone (its own board, lines, moves, removals, values by levels of
//! remoteness), the table's reachable marks, tables equal at one and two threads, the answer
//! in text and JSON through the command line, and bad input refused with one line.

mod common;

use std::collections::{HashMap, VecDeque};

use common::*;
use gamedb::format::entries::standing;
use gamedb::games::mill::MillSpec;
use gamedb::model::Standing;
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
/// The 3×3 grid: its rows and columns, no diagonals; neighbours along them.
const GRID: [[usize; 3]; 6] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
];

/// A game as the minimax plays it: the board's lines and joins of two, men a side, the rules.
struct Rules {
    points: usize,
    lines: &'static [[usize; 3]],
    spokes: &'static [[usize; 2]],
    men: u8,
    flying: bool,
    lasker: bool,
}

impl Rules {
    fn new(men: u8, points: usize, flying: bool, lasker: bool) -> Rules {
        let (lines, spokes): (&'static [[usize; 3]], &'static [[usize; 2]]) = if points == 9 {
            (&GRID, &[])
        } else {
            (&MILLS, &SPOKES)
        };
        Rules {
            points,
            lines,
            spokes,
            men,
            flying,
            lasker,
        }
    }

    fn spec(&self) -> Spec {
        let points = (self.points == 9).then_some(9);
        Spec::new(
            MillSpec::new(u32::from(self.men), points, self.flying)
                .and_then(|s| s.with_lasker(self.lasker))
                .unwrap(),
        )
    }

    fn neighbours(&self, p: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for l in self.lines {
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
        for s in self.spokes {
            if s[0] == p {
                out.push(s[1]);
            }
            if s[1] == p {
                out.push(s[0]);
            }
        }
        out
    }

    fn in_mill(&self, b: &[u8], p: usize) -> bool {
        (self.lines.iter()).any(|l| l.contains(&p) && l.iter().all(|&q| b[q] == b[p]))
    }

    /// The positions each move leaves, or none when the game is over.
    fn moves(&self, p: &Pos) -> Vec<Pos> {
        let (b, side) = (&p.0, p.1);
        let them = opponent(side);
        if left(p, side) == 2 {
            return Vec::new();
        }
        // Boards after the man is placed or moved, before a removal: (board, point it came
        // to, whether it came from the hand).
        let mut after: Vec<(Vec<u8>, usize, bool)> = Vec::new();
        if hand(p, side) > 0 {
            for to in (0..self.points).filter(|&q| b[q] == b'.') {
                let mut n = b.clone();
                n[to] = side;
                after.push((n, to, true));
            }
        }
        // Lasker's rule: a man may be moved while men are in hand too.
        if hand(p, side) == 0 || self.lasker {
            for from in (0..self.points).filter(|&q| b[q] == side) {
                let dests: Vec<usize> = if self.flying && left(p, side) == 3 {
                    (0..self.points).filter(|&q| b[q] == b'.').collect()
                } else {
                    (self.neighbours(from).into_iter())
                        .filter(|&q| b[q] == b'.')
                        .collect()
                };
                for to in dests {
                    let mut n = b.clone();
                    n[from] = b'.';
                    n[to] = side;
                    after.push((n, to, false));
                }
            }
        }
        let mut out = Vec::new();
        for (n, to, placed) in after {
            let (hx, ho) = match (placed, side) {
                (true, b'x') => (p.2 - 1, p.3),
                (true, _) => (p.2, p.3 - 1),
                _ => (p.2, p.3),
            };
            let theirs: Vec<usize> = (0..self.points).filter(|&q| n[q] == them).collect();
            let free: Vec<usize> = (theirs.iter().copied())
                .filter(|&q| !self.in_mill(&n, q))
                .collect();
            let takeable = if free.is_empty() { theirs } else { free };
            if self.in_mill(&n, to) && !takeable.is_empty() {
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
    fn reachable(&self) -> (Vec<Pos>, Vec<Vec<usize>>) {
        let start: Pos = (vec![b'.'; self.points], b'x', self.men, self.men);
        let mut id = HashMap::from([(start.clone(), 0usize)]);
        let mut all = vec![start];
        let mut kids = Vec::new();
        let mut todo = VecDeque::from([0usize]);
        while let Some(i) = todo.pop_front() {
            let mut next = Vec::new();
            for k in self.moves(&all[i]) {
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
}

/// A position: points (`b'.'`, `b'x'`, `b'o'`), the side to move, men in hand of x and o.
type Pos = (Vec<u8>, u8, u8, u8);

fn opponent(side: u8) -> u8 {
    if side == b'x' {
        b'o'
    } else {
        b'x'
    }
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

/// Minimax by levels of remoteness, run backwards from the ends: a position without moves is
/// lost at 0; a win in r when a move leaves a loss in r - 1, a loss in r when every move
/// leaves a win, the farthest in r - 1; what is never decided is a draw (the game has no tie).
fn solve(kids: &[Vec<usize>]) -> Vec<(Standing, u32)> {
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); kids.len()];
    for (p, next) in kids.iter().enumerate() {
        for &k in next {
            parents[k].push(p);
        }
    }
    let mut open: Vec<usize> = kids.iter().map(Vec::len).collect();
    let mut value: Vec<Option<(Standing, u32)>> = kids
        .iter()
        .map(|k| k.is_empty().then_some((Standing::Lose, 0)))
        .collect();
    let mut level: Vec<usize> = (0..kids.len()).filter(|&p| value[p].is_some()).collect();
    for r in 1.. {
        let mut found = Vec::new();
        for &k in &level {
            let lost = matches!(value[k], Some((Standing::Lose, _)));
            for &p in &parents[k] {
                if value[p].is_some() {
                    continue;
                }
                if lost {
                    value[p] = Some((Standing::Win, r));
                    found.push(p);
                } else {
                    open[p] -= 1;
                    if open[p] == 0 {
                        value[p] = Some((Standing::Lose, r));
                        found.push(p);
                    }
                }
            }
        }
        if found.is_empty() {
            break;
        }
        level = found;
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

/// The games checked position by position: (men, points, flying, Lasker's rule).
const CHECKED: [(u8, usize, bool, bool); 5] = [
    (3, 16, false, false),
    (3, 16, true, false),
    (3, 9, false, true),
    (3, 16, false, true),
    (3, 16, true, true),
];

#[test]
fn every_reachable_position_agrees_with_a_minimax_from_the_rules() {
    agrees_with_a_minimax(&CHECKED);
}

/// Four men a side with Lasker's rule, a minute of the suite's time on its own: run with
/// `scripts/test.sh --test mill -- --ignored` (the three-men variants above check the same rules).
#[test]
#[ignore]
fn four_men_with_lasker_agree_with_a_minimax_from_the_rules() {
    agrees_with_a_minimax(&[(4, 16, false, true)]);
}

fn agrees_with_a_minimax(variants: &[(u8, usize, bool, bool)]) {
    for &(men, points, flying, lasker) in variants {
        let game = Rules::new(men, points, flying, lasker);
        let name = format!("{men} men {points} points flying {flying} lasker {lasker}");
        let table = table(&game.spec(), ValueKind::Remoteness);
        let rules = table.rules();
        let (all, kids) = game.reachable();
        let want = solve(&kids);
        let mut marked = 0u64;
        for i in 0..table.len() {
            marked += u64::from(standing::reachable(table.raw(i)));
        }
        assert_eq!(marked, all.len() as u64, "{name}");
        for (p, &v) in all.iter().zip(&want) {
            let pos = as_entry(p);
            rules.check(&pos).unwrap();
            let entry = table.raw(rules.rank(&pos));
            let text = rules.format(&pos);
            assert_eq!(standing::unpack(entry), Some(v), "{name}: {text}");
            assert!(standing::reachable(entry), "{name}: {text}");
        }
        if !lasker {
            // The start, found first, is a draw.
            assert_eq!(want[0].0, Standing::Draw, "{name}");
        }
    }
}

#[test]
fn tables_are_the_same_bytes_at_one_and_two_threads() {
    for (men, points, flying, lasker) in CHECKED {
        let spec = Rules::new(men, points, flying, lasker).spec();
        let one = with_threads(1, || payload_bytes(&spec, ValueKind::Remoteness));
        let two = with_threads(2, || payload_bytes(&spec, ValueKind::Remoteness));
        assert!(one == two, "{men} men {points} points {flying} {lasker}");
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
    // With the Lasker rule the hands no longer say who moves, but a side with no man on the
    // board is to move, and the men a side has are still the variant's.
    let out = gamedb_ok(&[
        "build",
        "mill",
        "--men",
        "3",
        "--lasker",
        "--out",
        dir.arg(),
    ]);
    assert!(out.contains("mill-3-lasker.gtab"), "{out}");
    let l = dir.join("mill-3-lasker.gtab");
    let a = json(&gamedb_ok(&[
        "query",
        "--json",
        &l,
        "x../.../..../.../..o,x,2,2",
    ]));
    let labels: Vec<&str> = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"a5-c5") && labels.contains(&"c5"),
        "{labels:?}"
    );
    for (pos, says) in [
        ("xxx/x../..../.../...,o,0,3", "more than the 3 men a side"),
        (
            "x../.../..../.../...,x,2,3",
            "o has no man on the board and x is to move",
        ),
    ] {
        let e = refused(pos, &["query", &l, pos], &[says, "expected"]);
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    refused(
        "lasker endgame",
        &[
            "build",
            "mill",
            "--men",
            "4",
            "--lasker",
            "--endgame",
            "3",
            "--out",
            dir.arg(),
        ],
        &["--lasker with --endgame", "expected"],
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
