//! Connect Four: every position play reaches on small boards against a minimax written here
//! from the rules alone (its own columns of discs, its own lines), the empty boards of the
//! sizes John Tromp's table gives against it, move sequences and boards read back, tables
//! equal at one and two threads, and bad input through the command line refused with one
//! line and exit status 2.

mod common;

use std::collections::HashMap;

use common::*;
use gamedb::format::entries::standing;
use gamedb::game::Rules;
use gamedb::games::connect4::{Connect4, Connect4Spec};
use gamedb::model::Standing;
use gamedb::{Spec, ValueKind};

/// A board as columns of discs from the bottom, 1 for x and 2 for o.
type Columns = Vec<Vec<u8>>;

/// Whether `side` has four in a row on a board of `rows` rows.
fn four(b: &Columns, rows: usize, side: u8) -> bool {
    let at = |c: i64, r: i64| -> u8 {
        if c < 0 || r < 0 || c as usize >= b.len() || r as usize >= rows {
            return 0;
        }
        b[c as usize].get(r as usize).copied().unwrap_or(0)
    };
    (0..b.len() as i64).any(|c| {
        (0..rows as i64).any(|r| {
            [(1, 0), (0, 1), (1, 1), (1, -1)]
                .iter()
                .any(|&(dc, dr)| (0..4).all(|i| at(c + dc * i, r + dr * i) == side))
        })
    })
}

/// Value and remoteness for the player to move, by plain minimax over the moves: a win as
/// soon as it can, a loss as late as it can, a tie as soon as it can.
fn minimax(
    b: &mut Columns,
    rows: usize,
    memo: &mut HashMap<Columns, (Standing, u32)>,
) -> (Standing, u32) {
    if let Some(&v) = memo.get(b) {
        return v;
    }
    let discs: usize = b.iter().map(Vec::len).sum();
    let (mover, last) = if discs % 2 == 0 { (1, 2) } else { (2, 1) };
    let value = if four(b, rows, last) {
        (Standing::Lose, 0)
    } else if discs == rows * b.len() {
        (Standing::Tie, 0)
    } else {
        let mut kids = Vec::new();
        for c in 0..b.len() {
            if b[c].len() < rows {
                b[c].push(mover);
                let (v, r) = minimax(b, rows, memo);
                kids.push((v.flip(), r));
                b[c].pop();
            }
        }
        let best = |v: Standing| kids.iter().filter(move |k| k.0 == v).map(|k| k.1);
        if let Some(r) = best(Standing::Win).min() {
            (Standing::Win, r + 1)
        } else if let Some(r) = best(Standing::Tie).min() {
            (Standing::Tie, r + 1)
        } else {
            (Standing::Lose, kids.iter().map(|k| k.1).max().unwrap() + 1)
        }
    };
    memo.insert(b.clone(), value);
    value
}

/// The board as the table reads it: rows from the top, `x`, `o` and `.`, joined by `/`.
fn text(b: &Columns, rows: usize) -> String {
    (0..rows)
        .rev()
        .map(|r| {
            b.iter()
                .map(|col| match col.get(r) {
                    Some(1) => 'x',
                    Some(_) => 'o',
                    None => '.',
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn spec(cols: u32, rows: u32) -> Spec {
    Spec::new(Connect4Spec::new(cols, rows).unwrap())
}

#[test]
fn every_reachable_position_agrees_with_minimax() {
    for (cols, rows) in [(4, 4), (4, 3), (3, 4), (5, 3), (2, 2)] {
        let t = table(&spec(cols, rows), ValueKind::Remoteness);
        let rules = t.rules();
        let mut memo = HashMap::new();
        minimax(
            &mut vec![Vec::new(); cols as usize],
            rows as usize,
            &mut memo,
        );
        for (b, &want) in &memo {
            let pos = rules.parse(&text(b, rows as usize)).unwrap();
            let entry = t.raw(rules.rank(&pos));
            assert!(
                standing::reachable(entry),
                "{cols}x{rows}: {}",
                text(b, rows as usize)
            );
            assert_eq!(
                standing::unpack(entry),
                Some(want),
                "{cols}x{rows}: {}",
                text(b, rows as usize)
            );
        }
        // Minimax visits exactly what play reaches.
        let marked = (0..t.len())
            .filter(|&i| standing::reachable(t.raw(i)))
            .count();
        assert_eq!(marked, memo.len(), "{cols}x{rows}");
        if (cols, rows) == (4, 4) {
            // The count of boards play reaches on 4×4, as the minimax makes it.
            assert_eq!(marked, 161_029);
        }
    }
}

/// John Tromp's table of results by board size (https://tromp.github.io/c4/c4.html): 4×4,
/// 5×4 and 4×5 are draws (a full board, a tie here). The minimax above gives the 4×4 start's
/// remoteness too.
#[test]
fn small_boards_have_the_results_of_tromps_table() {
    for (cols, rows, remoteness) in [(4, 4, 16), (5, 4, 20), (4, 5, 20)] {
        let t = table(&spec(cols, rows), ValueKind::Remoteness);
        let a = t.query("start").unwrap();
        let s = a.standing().unwrap();
        assert_eq!(
            (s.value, s.remoteness),
            (Standing::Tie, Some(remoteness)),
            "{cols}x{rows}"
        );
    }
    let mut memo = HashMap::new();
    assert_eq!(
        minimax(&mut vec![Vec::new(); 4], 4, &mut memo),
        (Standing::Tie, 16)
    );
}

#[test]
fn move_sequences_and_boards_read_back() {
    let g = Connect4::new(Connect4Spec::new(4, 4).unwrap());
    let empty = g.parse("start").unwrap();
    assert_eq!(g.parse("").unwrap(), empty);
    assert_eq!(g.format(&empty), "..../..../..../....");
    // Two orders of play, one board; the answer writes the board, which reads back.
    let a = g.parse("1213").unwrap();
    assert_eq!(g.parse("1312").unwrap(), a);
    assert_eq!(g.format(&a), "..../..../x.../xoo.");
    assert_eq!(g.parse(&g.format(&a)).unwrap(), a);
    assert_eq!(g.parse("1, 2, 1, 3").unwrap(), a);
    // Every board of every sequence of up to 6 moves reads back from its text.
    let mut todo = vec![String::new()];
    while let Some(seq) = todo.pop() {
        let pos = g.parse(&seq).unwrap();
        assert_eq!(g.parse(&g.format(&pos)).unwrap(), pos, "{seq}");
        if seq.len() < 6 && g.terminal_standing(&pos).is_none() {
            for c in 1..=4 {
                let next = format!("{seq}{c}");
                if g.parse(&next).is_ok() {
                    todo.push(next);
                }
            }
        }
    }
    // Past nine columns the numbers are separated.
    let wide = Connect4::new(Connect4Spec::new(10, 2).unwrap());
    let b = wide.parse("10,1,10").unwrap();
    assert_eq!(wide.format(&b), ".........x/o........x");
}

#[test]
fn tables_are_the_same_bytes_at_one_and_two_threads() {
    let s = spec(4, 4);
    let one = with_threads(1, || payload_bytes(&s, ValueKind::Remoteness));
    let two = with_threads(2, || payload_bytes(&s, ValueKind::Remoteness));
    assert!(one == two);
}

#[test]
fn the_command_line_answers_and_refuses_bad_input() {
    let dir = TempDir::new("connect4-cli");
    let out = gamedb_ok(&[
        "build",
        "connect4",
        "--cols",
        "4",
        "--rows",
        "4",
        "--out",
        dir.arg(),
    ]);
    assert!(out.contains("connect4-4-4.gtab"), "{out}");
    let t = dir.join("connect4-4-4.gtab");

    let text = gamedb_ok(&["query", &t, "start", "2", "1212121"]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("..../..../..../....: tie in 16  moves: column 1: tie in 16;"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("..../..../..../.x..: tie in 15"),
        "{text}"
    );
    assert!(
        lines[2].starts_with("x.../xo../xo../xo..: lose (the game is over)"),
        "{text}"
    );

    let a = json(&gamedb_ok(&["query", "--json", &t, "23"]));
    assert_eq!(a["position"], "..../..../..../.xo.");
    assert_eq!(a["reachable"], true);
    assert_eq!(a["moves"].as_array().unwrap().len(), 4);
    assert_eq!(a["moves"][0]["move"], "column 1");

    let info = json(&gamedb_ok(&["info", "--json", &t]));
    assert_eq!(info["start"]["value"], "tie");
    assert_eq!(info["start"]["remoteness"], 16);

    for (pos, says) in [
        ("5", "move 1 is column 5, and the board has columns 1 to 4"),
        ("0", "move 1 is column 0"),
        ("11111", "move 5 is column 1, which is full (4 discs)"),
        (
            "12121213",
            "move 8 comes after the game ended at move 7 (four in a row)",
        ),
        ("12a", "'a' is not a column number"),
        ("...../...../...../.....", "row 1 has 5 cells instead of 4"),
        ("..../..../....", "3 rows instead of 4"),
        (
            "..../..../x.../....",
            "a disc of column 1 stands over an empty cell",
        ),
        ("..../..../..../xx..", "2 x and 0 o"),
        (
            "x.../xo../xo../xoo.",
            "x has four in a row but o moved after it",
        ),
        ("xooo/xooo/xxxo/xxxo", "both sides have four in a row"),
    ] {
        let e = refused(pos, &["query", &t, pos], &[says, "expected"]);
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    for (cols, rows, says) in [
        ("0", "4", "--cols 0 --rows 4"),
        ("8", "6", "at most 42 cells"),
        ("40", "1", "cols × (rows + 1) at most 64"),
    ] {
        refused(
            says,
            &[
                "build",
                "connect4",
                "--cols",
                cols,
                "--rows",
                rows,
                "--out",
                dir.arg(),
            ],
            &[says, "expected"],
        );
    }
}
