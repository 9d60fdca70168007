//! Playing tables against perfect play (`gamedb play`, `GET /api/tables/FILE/play`, the
//! explorer's play mode): whole games played to their end by a person who takes the best
//! moves the table shows — through the page by clicking and by keyboard in a real browser,
//! and through `gamedb play` with the moves on standard input — ending as the theory says
//! (tic-tac-toe and Connect Four on 4×4 a tie; the candy game of 13 candies, Nim 3,4,5 and
//! the 4×7 Chomp bar won by the first player; the 8-puzzle solved in its distance; the 12 balls
//! found and told heavier or lighter in 3 weighings against the balance's worst answers); the remoteness the play mode
//! finds for outcome tables against a brute force; and the bad inputs. (The guide's
//! transcripts of `gamedb play` are run by `tests/docs.rs`.)

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use common::browser::Browser;
use common::http::{build, Server, TempDir};
use gamedb::play::{Player, Referee, Sides, Worth};
use gamedb::Table;
use serde_json::{json, Value};

const GAMES: &[&str] = &[
    "mnk --rows 3 --cols 3 --k 3",
    "candy --max-candies 13 --max-take 3 --win even",
    "nim --heaps 3 --max-heap 5",
    "chomp --rows 4 --cols 7",
    "slide --rows 3 --cols 3",
    "quixo --size 3",
    "connect4 --cols 4 --rows 4",
    "weighing --balls 12 --tell",
    "mill --men 3",
    "chess --men KQk",
];

/// The 8-puzzle position the games start from: 12 moves from the goal.
const EIGHT: &str = "7,4,2,8,1,3,0,5,6";

/// A game where the person (first) and the computer both take the first best move, by the
/// library: the person's moves, and the summary the library gives the end.
fn best_game(table: &Table, from: Option<&str>) -> (Vec<String>, String) {
    let mut r = Referee::new(table).unwrap();
    let mut line = vec![r.first_position(from).unwrap()];
    let mut mine = Vec::new();
    loop {
        let g = r.review(&line, Sides::Me(Player::First)).unwrap();
        if let Some(s) = g.summary {
            return (mine, s);
        }
        let best = g.turn.best().next().unwrap().clone();
        if g.players == 1 || g.turn.player == Player::First {
            mine.push(best.played.label.clone());
        }
        line.push(best.played.numbers);
    }
}

fn play_cli(dir: &Path, args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .current_dir(dir)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn scripted_games_end_as_the_theory_says() {
    let dir = TempDir::new("play-cli");
    build(&dir.path().join("tables"), GAMES);
    let cases: [(&str, Option<&str>, &str); 9] = [
        (
            "weighing-12-tell.gtab",
            None,
            "Solved in 3 moves, the fewest there are.",
        ),
        ("mnk-3-3-3.gtab", None, "A tie after 9 moves."),
        ("connect4-4-4.gtab", None, "A tie after 16 moves."),
        // x places its last man at a1 (a5 a3 a1) and takes one of o's three.
        (
            "mill-3.gtab",
            Some("xo./.o./x.../.../...,x,1,1"),
            "You won in ",
        ),
        ("candy-n13-k3-even.gtab", Some("13,0,0"), "You won in "),
        ("nim-3x5.gtab", Some("3,4,5"), "You won in "),
        (
            "chess-KQk.gtab",
            Some("8/8/8/8/8/2k5/8/K2Q4 w - - 0 1"),
            "You won in ",
        ),
        ("chomp-4x7.gtab", Some("7,7,7,7"), "You won in "),
        (
            "slide-3x3.gtab",
            Some(EIGHT),
            "Solved in 12 moves, the fewest there are.",
        ),
    ];
    for (file, from, end) in cases {
        let table = Table::open(dir.path().join("tables").join(file)).unwrap();
        let (moves, summary) = best_game(&table, from);
        assert!(summary.starts_with(end), "{file}: {summary}");
        let mut args = vec![format!("tables/{file}")];
        if let Some(f) = from {
            args.push(format!("--from={f}"));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = play_cli(dir.path(), &args, &(moves.join("\n") + "\n"));
        assert_eq!((code, err.as_str()), (0, ""), "{file}:\n{out}");
        assert!(
            out.ends_with(&format!("The game is over. {summary}\n")),
            "{file}: the transcript ends otherwise:\n{out}"
        );
    }
}

#[test]
fn a_game_without_a_start_needs_a_position() {
    let dir = TempDir::new("play-start");
    build(&dir.path().join("tables"), &["nim --heaps 3 --max-heap 5"]);
    let (code, out, err) = play_cli(dir.path(), &["tables/nim-3x5.gtab"], "");
    assert_eq!(code, 2, "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("has no start position; expected one to play from (--from POSITION)"),
        "{err}"
    );
}

#[test]
fn bad_input_is_refused_in_one_line_and_play_goes_on() {
    let dir = TempDir::new("play-bad");
    build(
        &dir.path().join("tables"),
        &[
            "mnk --rows 3 --cols 3 --k 3",
            "pdb --rows 2 --cols 3 --pattern 1,2",
        ],
    );
    let t = "tables/mnk-3-3-3.gtab";
    // A move that is none, undo with nothing to undo, a taken square: each refused with what
    // is accepted, and the game goes on to the moves after them.
    let (code, out, err) = play_cli(dir.path(), &[t], "undo\nz9\nb2\nb2\nquit\n");
    assert_eq!(code, 2, "{out}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "{err}");
    assert_eq!(
        lines[0],
        "gamedb: undo: nothing to undo; expected a move first"
    );
    assert!(
        lines[1].starts_with("gamedb: 'z9' is not a move here; expected a1, b1, c1,"),
        "{err}"
    );
    assert!(
        lines[2].starts_with("gamedb: 'b2' is not a move here"),
        "{err}"
    );
    assert_eq!(
        lines[3],
        "gamedb: 3 input lines were refused (each said why above)"
    );
    assert!(out.contains("You play b2: tie in 9."), "{out}");
    // Arguments: a position no play makes, a missing table, a pattern database.
    for (args, want) in [
        (
            vec![t, "--from", "xxx/.../..."],
            "expected 3 rows of 3 cells",
        ),
        (vec!["tables/none.gtab"], "no such table file"),
        (
            vec!["tables/pdb-2x3-1-2.gtab"],
            "holds lower bounds (a pattern database), which cannot be played; expected",
        ),
    ] {
        let (code, out, err) = play_cli(dir.path(), &args, "");
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// The remoteness the play mode finds for an outcome table (by a search over the table)
/// against a plain recursion over the rules, for every position of small Nim and Chomp.
#[test]
fn remoteness_of_outcome_tables_equals_a_brute_force() {
    let dir = TempDir::new("play-remoteness");
    build(
        dir.path(),
        &["nim --heaps 3 --max-heap 4", "chomp --rows 3 --cols 4"],
    );
    for file in ["nim-3x4.gtab", "chomp-3x4.gtab"] {
        let table = Table::open(dir.path().join(file)).unwrap();
        let rules = table.rules();
        // Win: 1 + the least remoteness of a losing child; lose: 1 + the most of any child.
        fn brute(rules: &dyn gamedb::Rules, pos: &[u32]) -> (bool, u32) {
            let children: Vec<(bool, u32)> = rules
                .moves(pos)
                .iter()
                .map(|m| brute(rules, &m.leaves))
                .collect();
            if children.is_empty() {
                return (false, 0);
            }
            match children.iter().filter(|c| !c.0).map(|c| c.1).min() {
                Some(r) => (true, r + 1),
                None => (false, 1 + children.iter().map(|c| c.1).max().unwrap()),
            }
        }
        let mut r = Referee::new(&table).unwrap();
        for i in 0..table.len() {
            let pos = rules.unrank(i);
            if rules.check(&pos).is_err() {
                continue;
            }
            let (win, rem) = brute(rules, &pos);
            let m = r.mark(&pos).unwrap();
            let value = if win { Worth::Win } else { Worth::Lose };
            assert_eq!(
                (m.value, m.remoteness),
                (value, Some(rem)),
                "{file} {pos:?}"
            );
        }
    }
}

/// `GET /api/tables/FILE/play` gives the review `gamedb play` prints, and refuses a line
/// that is no game with the move that is wrong.
#[test]
fn the_service_reviews_a_game() {
    let dir = TempDir::new("play-api");
    build(dir.path(), &["mnk --rows 3 --cols 3 --k 3"]);
    let server = Server::start(dir.path(), &[]);
    let file = "mnk-3-3-3.gtab";
    // x centre, o edge (a mistake: a loss), x wins.
    let line = ";.../.x./...;.o./.x./...";
    let g = server
        .get(&format!("/api/tables/{file}/play?line={line}&me=second"))
        .json();
    assert_eq!(g["players"], 2);
    assert_eq!(g["plies"][1]["played"]["text"], "lose in 6");
    assert_eq!(g["plies"][1]["mistake"], true);
    assert_eq!(g["plies"][1]["better"]["value"], "tie");
    assert_eq!(g["turn"]["player"], "first");
    assert_eq!(g["turn"]["text"], "win in 5");
    let best: Vec<&Value> = g["turn"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["best"] == json!(true))
        .collect();
    assert!(best.iter().all(|m| m["text"] == "win in 5"), "{best:?}");
    for (query, status, want) in [
        (
            "line=;.../.x./...;o.x/.x./...".to_string(),
            400,
            "move 2: 'o.x/.x./...' is not one move from '.../.x./...'; expected one of",
        ),
        (
            "line=;.../.x./...&me=third".to_string(),
            400,
            "expected first or second",
        ),
        ("line=;.../.x./...&who=me".to_string(), 400, "who"),
    ] {
        let r = server.get(&format!("/api/tables/{file}/play?{query}"));
        assert_eq!(r.status, status, "{query}: {}", r.text());
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains(want), "{query}: {e}");
    }
}

// ---- the explorer ---------------------------------------------------------------------------

/// Waits for the play mode to show position `n` of the game (move `n` to make, or the end).
fn settled(browser: &Browser) -> Value {
    browser.wait(
        "the play mode to settle",
        "const g = document.getElementById('raw').textContent; if (!g) return null; \
         const game = JSON.parse(g); if (!game.turn) return null; \
         const me = document.getElementById('play-me').value; \
         const mine = game.players === 1 || me === 'both' || game.turn.player === me; \
         return (game.turn.over || mine) ? game : null;",
    )
}

/// Every move listed says its value in words beside its colour.
fn moves_say_their_value(browser: &Browser) {
    let texts = browser.run(
        "return Array.from(document.querySelectorAll('#moves li')).map(li => li.textContent);",
    );
    for t in texts.as_array().unwrap() {
        let t = t.as_str().unwrap();
        let said = [
            ": win",
            ": lose",
            ": tie",
            ": draw",
            " to the goal",
            ": at the goal",
            "game is over",
        ];
        assert!(
            said.iter().any(|s| t.contains(s)),
            "a move without words: {t}"
        );
    }
}

/// Plays the game on the page to its end, always clicking a best move on the board (or, with
/// `keyboard`, pressing Enter on the first best move of the list); returns the summary.
fn play_to_the_end(browser: &Browser, keyboard: bool) -> String {
    for _ in 0..200 {
        let g = settled(browser);
        moves_say_their_value(browser);
        if g["turn"]["over"] == json!(true) {
            return browser
                .wait(
                    "the summary",
                    "const s = document.getElementById('play-summary'); return s && s.textContent;",
                )
                .as_str()
                .unwrap()
                .to_string();
        }
        let plies = g["plies"].as_array().unwrap().len();
        if keyboard {
            let id = browser.session(
                "POST",
                "/element",
                json!({"using": "css selector", "value": "#moves button.best"}),
            );
            let id = id["element-6066-11e4-a52e-4f735466cecf"]
                .as_str()
                .unwrap()
                .to_string();
            browser.session(
                "POST",
                &format!("/element/{id}/value"),
                json!({"text": "\u{E007}"}),
            );
        } else {
            browser.click("#play-board .playable.best");
        }
        browser.wait(
            "the move to be played",
            &format!(
                "const g = JSON.parse(document.getElementById('raw').textContent); return g.plies.length > {plies};"
            ),
        );
    }
    panic!("the game did not end in 200 moves");
}

#[test]
fn whole_games_in_a_real_browser() {
    let dir = TempDir::new("play-browser");
    build(dir.path(), GAMES);
    let server = Server::start(dir.path(), &[]);
    let browser = Browser::start();
    let base = format!("http://{}", server.addr);
    let games = [
        ("mnk-3-3-3.gtab", "", false, "A tie after 9 moves."),
        ("connect4-4-4.gtab", "", false, "A tie after 16 moves."),
        (
            "weighing-12-tell.gtab",
            "",
            true,
            "Solved in 3 moves, the fewest there are.",
        ),
        ("candy-n13-k3-even.gtab", "13,0,0", false, "You won in "),
        ("nim-3x5.gtab", "3,4,5", false, "You won in "),
        ("chomp-4x7.gtab", "", false, "You won in "),
        (
            "slide-3x3.gtab",
            EIGHT,
            false,
            "Solved in 12 moves, the fewest there are.",
        ),
    ];
    let mut shots = Vec::new();
    for (file, from, keyboard, end) in games {
        let play = if from.is_empty() {
            String::new()
        } else {
            format!("&play={from}")
        };
        browser.go(&format!("{base}/?table={file}{play}&me=first"));
        if from.is_empty() {
            // No position in the address: the play button starts the game's own start.
            browser.wait(
                "the table",
                "return document.getElementById('table-about').textContent.includes('positions');",
            );
            browser.click("#play-toggle");
        }
        if file == "mnk-3-3-3.gtab" {
            // The hint names a best move, in words, by the key h.
            settled(&browser);
            browser.run("document.body.focus();");
            browser.run("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'h'}));");
            let hint = browser.wait(
                "the hint",
                "return document.getElementById('play-message').textContent;",
            );
            assert!(
                hint.as_str().unwrap().starts_with("Hint: a1 (tie in 9)"),
                "{hint}"
            );
        }
        let summary = play_to_the_end(&browser, keyboard);
        assert!(summary.starts_with(end), "{file}: {summary}");
        // The address holds the game: opened again, it shows the same end.
        let address = browser.run("return location.search;");
        assert!(address.as_str().unwrap().contains("play="), "{address}");
        let shot = format!("{}.png", file.trim_end_matches(".gtab"));
        browser.screenshot(&dir.path().join(&shot));
        shots.push(shot);
        let api = server.get(&format!("/api/tables/{file}/play?line={}&me=first", {
            let q = address.as_str().unwrap();
            let start = q.find("play=").unwrap() + 5;
            let end = q[start..].find('&').map_or(q.len(), |e| start + e);
            q[start..end].to_string()
        }));
        assert_eq!(api.json()["summary"].as_str().unwrap(), summary, "{file}");
    }
    // Undo and redo: back to the person's previous turn, and forward again.
    browser.go(&format!(
        "{base}/?table=mnk-3-3-3.gtab&play=;.../.x./...;o../.x./...&me=first"
    ));
    let g = settled(&browser);
    assert_eq!(g["plies"].as_array().unwrap().len(), 2);
    browser.click("#play-undo");
    browser.wait("undo", "const g = JSON.parse(document.getElementById('raw').textContent); return g.plies.length === 0;");
    browser.click("#play-redo");
    browser.wait("redo", "const g = JSON.parse(document.getElementById('raw').textContent); return g.plies.length === 2;");
    // Quixo in two clicks, both sides played here: the cube taken (a1), then where it goes
    // back in (c1).
    browser.go(&format!("{base}/?table=quixo-3.gtab&play=&me=both"));
    settled(&browser);
    browser.click("rect[data-cell='a1']");
    browser.wait(
        "a1 taken",
        "return document.getElementById('quixo-step').textContent.startsWith('a1 taken');",
    );
    browser.click("rect[data-cell='c1']");
    let g = browser.wait(
        "the push",
        "const g = JSON.parse(document.getElementById('raw').textContent); return g.plies.length === 1 && g;",
    );
    assert_eq!(g["plies"][0]["played"]["move"], "a1>c1");
    assert_eq!(g["turn"]["position"], "..x/.../...,o");
    let names: Vec<&str> = shots.iter().map(String::as_str).collect();
    common::browser::keep_screenshots(dir.path(), &names);
}
