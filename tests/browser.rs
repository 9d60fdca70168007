//! The explorer page in a real browser: Debian's `chromium` driven headlessly through
//! `chromedriver` (W3C WebDriver, spoken here over plain HTTP). Opens a Chomp table, bites,
//! and checks the outcome and the winning bites shown against the API; plays one optimal
//! move and one step of the path on the 3x3 board; lands on an octal table (Kayles), checks
//! its heaps, answer and period certificate against the API and plays counters; draws a
//! chess ending (KRk) as a board with its value, distance to mate and every move in SAN,
//! makes a move by two clicks, and plays one against the table in play mode; saves a
//! screenshot of each in the test's temporary folder (kept, and its path printed, when
//! GAMEDB_KEEP_SCREENSHOTS is set).
//!
//! The test fails, never skips, when the browser is missing (`.ci/run` installs it).

mod common;

use common::browser::Browser;
use common::http::{build, Server, TempDir};
use serde_json::{json, Value};

/// The cells `(row,col)` drawn as winning bites, sorted.
const WINS: &str = "return Array.from(document.querySelectorAll('rect.win'))
    .map(r => '(' + r.dataset.row + ',' + r.dataset.col + ')').sort().join(' ');";

/// The chart of `file` against `GET /api/tables/FILE/values`: a bar at least 1 px wide and
/// high, and a label inside the chart reading the count, for every non-zero count; no bar for 0.
fn check_chart(browser: &Browser, server: &Server, file: &str) {
    let api = server.get(&format!("/api/tables/{file}/values")).json();
    let counts = common::u64s_at(&api, "counts");
    assert!(counts.iter().filter(|&&c| c > 0).count() >= 2, "{api}");
    let drawn = browser.wait(
        "the chart",
        "const svg = document.getElementById('chart-svg'); if (!svg) return null; const box = svg.getBoundingClientRect(); \
         const inside = (r) => r.width > 0 && r.height > 0 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5; \
         return Array.from(svg.querySelectorAll('rect.bar')).map(b => { const r = b.getBoundingClientRect(); \
           const l = svg.querySelector(`text.count[data-index='${b.dataset.index}']`); \
           return [Number(b.dataset.index), Number(b.dataset.count), r.width, r.height, \
                   l ? l.textContent.replace(/[^0-9]/g, '') : null, l ? inside(l.getBoundingClientRect()) : false]; });",
    );
    let drawn = drawn.as_array().unwrap();
    let nonzero: Vec<(usize, u64)> = counts
        .iter()
        .copied()
        .enumerate()
        .filter(|&(_, c)| c > 0)
        .collect();
    assert_eq!(drawn.len(), nonzero.len(), "{file}: bars {drawn:?}");
    for (bar, (i, c)) in drawn.iter().zip(nonzero) {
        assert_eq!(bar[0], json!(i), "{file}: {bar}");
        assert_eq!(bar[1], json!(c), "{file}: {bar}");
        assert!(
            bar[2].as_f64().unwrap() >= 1.0,
            "{file}: bar {i} too thin: {bar}"
        );
        assert!(
            bar[3].as_f64().unwrap() >= 1.0,
            "{file}: bar {i} too low: {bar}"
        );
        assert_eq!(
            bar[4],
            json!(c.to_string()),
            "{file}: bar {i}'s label: {bar}"
        );
        assert_eq!(
            bar[5],
            json!(true),
            "{file}: bar {i}'s label not visible: {bar}"
        );
    }
}

#[test]
fn the_explorer_in_a_real_browser() {
    let dir = TempDir::new("browser");
    build(
        dir.path(),
        &[
            "chomp --rows 4 --cols 5",
            "chomp --rows 10 --cols 10",
            "nim --heaps 3 --max-heap 15 --grundy",
            "slide --rows 3 --cols 3",
        ],
    );
    let server = Server::start(dir.path(), &[]);
    let browser = Browser::start();
    let site = format!("http://{}", server.addr);

    // The landing page, without a click: a table chosen (the largest Chomp box), its whole box
    // answered with its winning bite, and its chart drawn.
    browser.go(&format!("{site}/"));
    let shown = browser.wait(
        "the landing page's answer",
        "const o = document.getElementById('outcome'); return o && document.querySelector('#chart-svg') && \
         [document.getElementById('table-select').value, document.getElementById('position').textContent, \
          o.textContent, document.querySelectorAll('#moves button.move').length];",
    );
    assert_eq!(
        shown,
        json!(["chomp-10x10.gtab", "10,10,10,10,10,10,10,10,10,10", "N", 1])
    );
    assert_eq!(browser.run(WINS), json!("(2,2)"));
    browser.screenshot(&dir.path().join("landing.png"));
    // Every option names its table in full, and the drop-down is wide enough for the longest.
    let listing = server.get("/api/tables").json();
    let names: Vec<String> = listing
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            format!(
                "{} — {}",
                t["file"].as_str().unwrap(),
                t["description"].as_str().unwrap()
            )
        })
        .collect();
    let options = browser.run(
        "return Array.from(document.querySelectorAll('#table-select option')).map(o => o.textContent);",
    );
    assert_eq!(options, json!(names));
    let fits = browser.run(
        "const s = document.getElementById('table-select'); const c = document.createElement('canvas').getContext('2d'); \
         c.font = getComputedStyle(s).font; const widest = Math.max(...Array.from(s.options).map(o => c.measureText(o.textContent).width)); \
         return [widest <= s.clientWidth, widest, s.clientWidth, s.getBoundingClientRect().right <= window.innerWidth];",
    );
    assert_eq!(
        fits[0],
        json!(true),
        "the drop-down cuts a name off: {fits}"
    );
    assert_eq!(
        fits[3],
        json!(true),
        "the drop-down runs off the page: {fits}"
    );
    // No hint names a game that is not served (no Wythoff table here), and none is left over.
    let text = browser.run("return document.body.innerText;");
    assert!(!text.as_str().unwrap().contains("Wythoff"), "{text}");
    assert_eq!(
        browser.run("return document.querySelectorAll('.hint').length;"),
        json!(0)
    );
    // Every non-zero count is a visible bar with its count written by it: the 10x10 box's
    // P-positions are about 1.4% of its positions.
    check_chart(&browser, &server, "chomp-10x10.gtab");

    // Choosing a table from the drop-down puts it in the address; the Grundy chart has a bar
    // and a count for every value.
    browser.run(
        "const s = document.getElementById('table-select'); s.value = 'nim-3x15-grundy.gtab'; \
         s.dispatchEvent(new Event('change'));",
    );
    browser.wait(
        "the Nim heaps",
        "return document.getElementById('grundy') && document.querySelector('#chart-svg') && location.search === '?table=nim-3x15-grundy.gtab';",
    );
    check_chart(&browser, &server, "nim-3x15-grundy.gtab");

    // Chomp: the whole 4x5 box, then bite at row 2, column 3.
    browser.go(&format!("{site}/?table=chomp-4x5.gtab"));
    browser.wait("the first answer", "return document.getElementById('outcome') && document.getElementById('position').textContent === '5,5,5,5';");
    assert_eq!(
        browser.run("return document.getElementById('table-select').value;"),
        json!("chomp-4x5.gtab")
    );
    browser.click("rect[data-row='2'][data-col='3']");
    let shown = browser.wait(
        "the answer after the bite",
        "const p = document.getElementById('position'); return p && p.textContent === '5,2,2,2' && document.getElementById('outcome').textContent;",
    );
    let api = server
        .get("/api/tables/chomp-4x5.gtab/query?position=5,2,2,2")
        .json();
    assert_eq!(shown, api["outcome"]);
    let mut bites: Vec<String> = api["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    bites.sort();
    assert!(
        !bites.is_empty(),
        "5,2,2,2 is an N-position with winning bites: {api}"
    );
    assert_eq!(browser.run(WINS), json!(bites.join(" ")));
    // Playing a winning bite leaves a P-position with nothing highlighted.
    let (row, col) = bites[0]
        .trim_matches(|c| c == '(' || c == ')')
        .split_once(',')
        .unwrap();
    browser.click(&format!("rect[data-row='{row}'][data-col='{col}']"));
    browser.wait(
        "the P-position",
        "const o = document.getElementById('outcome'); return o && o.textContent === 'P';",
    );
    assert_eq!(browser.run(WINS), json!(""));
    browser.screenshot(&dir.path().join("chomp.png"));

    // The 3x3 board: play one optimal move (a highlighted tile), then one step of the path.
    browser.go(&format!("{site}/?table=slide-3x3.gtab"));
    let position = browser.wait("the board's answer", "const d = document.getElementById('distance'); return d && document.getElementById('position').textContent;");
    let position = position.as_str().unwrap().to_string();
    let api = server
        .get(&format!(
            "/api/tables/slide-3x3.gtab/query?position={position}&path=1"
        ))
        .json();
    let distance = api["distance"].as_u64().unwrap();
    assert!(
        distance >= 2,
        "the scramble is {distance} moves from the goal"
    );
    let shown = browser.run("return document.getElementById('distance').textContent;");
    assert_eq!(shown, json!(distance.to_string()));
    let mut optimal: Vec<String> = api["optimal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            m["move"]
                .as_str()
                .unwrap()
                .split(' ')
                .nth(1)
                .unwrap()
                .to_string()
        })
        .collect();
    optimal.sort();
    let highlighted = browser.run("return Array.from(document.querySelectorAll('rect.tile.opt')).map(r => r.dataset.tile).sort().join(' ');");
    assert_eq!(highlighted, json!(optimal.join(" ")));
    let first = &api["optimal_moves"][0];
    let tile = first["move"].as_str().unwrap().split(' ').nth(1).unwrap();
    browser.click(&format!("rect[data-tile='{tile}']"));
    let after = format!(
        "const p = document.getElementById('position'); return p && p.textContent === '{}' && document.getElementById('distance').textContent;",
        first["leaves"].as_str().unwrap()
    );
    assert_eq!(
        browser.wait("the move played", &after),
        json!((distance - 1).to_string())
    );
    browser.click("#step");
    let step = browser.wait(
        "one step of the path",
        &format!("const d = document.getElementById('distance'); return d && d.textContent === '{}' && document.getElementById('position').textContent;", distance - 2),
    );
    let next = server
        .get(&format!(
            "/api/tables/slide-3x3.gtab/query?position={}",
            step.as_str().unwrap()
        ))
        .json();
    assert_eq!(next["distance"], json!(distance - 2));
    browser.screenshot(&dir.path().join("slide.png"));

    common::browser::keep_screenshots(dir.path(), &["landing.png", "chomp.png", "slide.png"]);
}

/// The position, outcome and Grundy value the page shows, once it shows `position`.
fn shown_answer(browser: &Browser, position: &str) -> Value {
    browser.wait(
        &format!("the answer of {position}"),
        &format!(
            "const p = document.getElementById('position'); const g = document.getElementById('grundy'); \
             return p && p.textContent === '{position}' && g && \
             [document.getElementById('outcome').textContent, Number(g.textContent)];"
        ),
    )
}

/// What the API answers for `position` of `file`: its outcome and Grundy value.
fn api_answer(server: &Server, file: &str, position: &str) -> Value {
    let a = server
        .get(&format!("/api/tables/{file}/query?position={position}"))
        .json();
    json!([a["outcome"], a["grundy"]])
}

/// The moves the green counters play, as their titles name them (`MOVE → LEAVES (wins)`).
const GREEN: &str = "return Array.from(document.querySelectorAll('circle.counter.win'))
    .map(c => c.querySelector('title').textContent).sort();";

#[test]
fn an_octal_table_in_a_real_browser() {
    let dir = TempDir::new("browser-octal");
    build(
        dir.path(),
        &[
            "octal --code 0.77 --max-heap 200",
            "subtraction --set 1,3,4 --max-heap 100",
        ],
    );
    let server = Server::start(dir.path(), &[]);
    let browser = Browser::start();
    let site = format!("http://{}", server.addr);
    let kayles = "octal-0.77-200.gtab";

    // The landing page: Kayles (the octal table comes first), three heaps drawn as rows of
    // counters, the answer of their sum, and the period certificate.
    browser.go(&format!("{site}/"));
    assert_eq!(
        shown_answer(&browser, "5,7,9"),
        api_answer(&server, kayles, "5,7,9")
    );
    assert_eq!(
        browser.run("return document.getElementById('table-select').value;"),
        json!(kayles)
    );
    let rows = browser.run(
        "return [1, 2, 3, 4].map(i => document.querySelectorAll(`circle[data-heap='${i}']`).length);",
    );
    assert_eq!(rows, json!([5, 7, 9, 0]));
    let info = server.get(&format!("/api/tables/{kayles}")).json();
    assert_eq!(
        (&info["period"], &info["preperiod"], &info["proved"]),
        (&json!(12), &json!(71), &json!(true)),
        "{info}"
    );
    let certificate = browser.wait(
        "the certificate",
        "const p = document.getElementById('period-text'); return p && p.textContent;",
    );
    assert_eq!(
        certificate,
        json!(
            "Periodic, proved: period 12 from heap 71 (the last exceptional value at heap 70), \
             by the octal periodicity theorem over the values to heap 200."
        )
    );
    let rare = browser.run("return document.querySelector('#rare summary').textContent;");
    assert_eq!(
        rare,
        json!(format!(
            "Rare values (an even number of bits in v & {}; {} rare heaps): 0 (1 heap, the last \
             0), 3 (4 heaps, the last 39), 5 (1 heap, the last 28), 6 (4 heaps, the last 70)",
            info["rare_mask"], info["rare_heaps"]["count"]
        ))
    );
    // The green counters are the winning moves that take one counter (a click's default).
    let api = server
        .get(&format!("/api/tables/{kayles}/query?position=5,7,9"))
        .json();
    let mut ones: Vec<String> = api["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["move"].as_str().unwrap().starts_with("take 1 "))
        .map(|m| {
            format!(
                "{} → {} (wins)",
                m["move"].as_str().unwrap(),
                m["leaves"].as_str().unwrap()
            )
        })
        .collect();
    ones.sort();
    assert!(!ones.is_empty(), "{api}");
    assert_eq!(browser.run(GREEN), json!(ones));
    // The sequence picture of the heaps, drawn by GET /api/tables/FILE/plot (an image, not a note).
    let picture = browser.wait(
        "the sequence picture or its note",
        "const i = document.getElementById('picture-img'); const n = document.getElementById('picture-note'); \
         return (i && !i.hidden && i.complete && i.naturalWidth > 0 && 'picture') || (n && n.textContent);",
    );
    assert_eq!(picture, json!("picture"));
    browser.screenshot(&dir.path().join("octal.png"));

    // A click on the last counter of the first heap takes it: 4,7,9.
    browser.click("circle[data-heap='1'][data-counter='5']");
    assert_eq!(
        shown_answer(&browser, "4,7,9"),
        api_answer(&server, kayles, "4,7,9")
    );
    // Two counters from the third counter of the heap of 7 leave heaps of 2 and 3 there.
    browser.click("#take-2");
    browser.wait(
        "two counters a click",
        "return document.querySelector('#take-2.chosen');",
    );
    browser.click("circle[data-heap='2'][data-counter='3']");
    assert_eq!(
        shown_answer(&browser, "4,2,3,9"),
        api_answer(&server, kayles, "4,2,3,9")
    );
    // A green counter plays a winning move: the sum left is a P-position. The API's first
    // winning move says how many counters it takes.
    let api = server
        .get(&format!("/api/tables/{kayles}/query?position=4,2,3,9"))
        .json();
    let first = api["winning_moves"][0]["move"].as_str().unwrap();
    let k = first.split(' ').nth(1).unwrap();
    browser.click(&format!("#take-{k}"));
    let green = browser.wait(
        "a green counter",
        "const c = document.querySelector('circle.counter.win'); return c && [c.dataset.heap, c.dataset.counter];",
    );
    browser.click(&format!(
        "circle[data-heap='{}'][data-counter='{}']",
        green[0].as_str().unwrap(),
        green[1].as_str().unwrap()
    ));
    let after = browser.wait(
        "the P-position",
        "const o = document.getElementById('outcome'); return o && o.textContent === 'P' && document.getElementById('position').textContent;",
    );
    let after = after.as_str().unwrap().to_string();
    assert_eq!(api_answer(&server, kayles, &after), json!(["P", 0]));
    assert_eq!(browser.run(GREEN), json!([]));
    // A heap added is answered with the rest.
    browser.click("#add-heap");
    let added = format!("{after},5");
    assert_eq!(
        shown_answer(&browser, &added),
        api_answer(&server, kayles, &added)
    );
    // A heap larger than the counters drawn shows its first and last 20; its last counter
    // is still there to click.
    let big = format!("{after},150");
    browser.run(
        "const i = document.getElementById('heap-' + document.querySelectorAll('#heaps .heap').length); \
         i.value = 150; i.dispatchEvent(new Event('change'));",
    );
    assert_eq!(
        shown_answer(&browser, &big),
        api_answer(&server, kayles, &big)
    );
    let last = browser.run("return Array.from(document.querySelectorAll('#heaps .heap')).pop().querySelectorAll('circle').length;");
    assert_eq!(last, json!(40));
    browser.click("#take-1");
    browser.click("circle[data-counter='150']");
    let smaller = format!("{after},149");
    assert_eq!(
        shown_answer(&browser, &smaller),
        api_answer(&server, kayles, &smaller)
    );
    browser.screenshot(&dir.path().join("octal-played.png"));

    // A subtraction game: one heap; a click takes the counters from it to the end.
    let file = "subtraction-1_3_4-100.gtab";
    browser.go(&format!("{site}/?table={file}"));
    assert_eq!(
        shown_answer(&browser, "12"),
        api_answer(&server, file, "12")
    );
    // S = {1,3,4} has the values 0,1,0,1,2,3,2 repeating (Winning Ways, ch. 4): from 12,
    // taking 3 (counters 10 to 12) wins; counter 11 would take 2, not a move.
    let moves = browser.run(
        "return [8, 9, 10, 11, 12].map(j => document.querySelector(`circle[data-counter='${j}']`).getAttribute('class'));",
    );
    assert_eq!(
        moves,
        json!([
            "counter",
            "counter move",
            "counter win",
            "counter",
            "counter move"
        ])
    );
    browser.click("circle[data-counter='11']");
    browser.click("circle[data-counter='10']");
    assert_eq!(shown_answer(&browser, "9"), json!(["P", 0]));
    assert_eq!(api_answer(&server, file, "9"), json!(["P", 0]));
    common::browser::keep_screenshots(dir.path(), &["octal.png", "octal-played.png"]);
}

/// The position and value the page shows for a two-player game, once it shows `position`.
fn shown_standing(browser: &Browser, position: &str) -> Value {
    browser.wait(
        &format!("the answer of {position}"),
        &format!(
            "const p = document.getElementById('position'); const v = document.getElementById('value'); \
             return p && p.textContent === '{position}' && v && v.textContent;"
        ),
    )
}

/// What the API answers for `position` of `file`, in the page's words (`tie in 9`).
fn api_standing(server: &Server, file: &str, position: &str) -> Value {
    let a = server
        .get(&format!("/api/tables/{file}/query?position={position}"))
        .json();
    json!(match a["remoteness"].as_u64() {
        Some(0) => format!("{} (the game is over)", a["value"].as_str().unwrap()),
        Some(r) => format!("{} in {r}", a["value"].as_str().unwrap()),
        None => a["value"].as_str().unwrap().to_string(),
    })
}

#[test]
fn tic_tac_toe_in_a_real_browser() {
    let dir = TempDir::new("browser-mnk");
    build(dir.path(), &["mnk --rows 3 --cols 3 --k 3"]);
    let server = Server::start(dir.path(), &[]);
    let browser = Browser::start();
    let file = "mnk-3-3-3.gtab";
    browser.go(&format!("http://{}/?table={file}", server.addr));
    // The empty board: a tie in 9, every square playable (each a tie for x).
    assert_eq!(shown_standing(&browser, ".../.../..."), json!("tie in 9"));
    let squares = "return Array.from(document.querySelectorAll('rect.square.playable')).map(r => r.getAttribute('class'));";
    assert_eq!(browser.run(squares), json!(vec!["square playable tie"; 9]));
    // x takes the centre (b2), o a corner (a1): still a tie; o on an edge (b1) instead loses.
    browser.click("rect[data-row='1'][data-col='1']");
    assert_eq!(
        shown_standing(&browser, ".../.x./..."),
        api_standing(&server, file, ".../.x./...")
    );
    let colours = browser.run(
        "return ['0,0', '0,1'].map(rc => { const [r, c] = rc.split(','); \
         return document.querySelector(`rect[data-row='${r}'][data-col='${c}']`).getAttribute('class'); });",
    );
    assert_eq!(
        colours,
        json!(["square playable tie", "square playable lose"])
    );
    browser.click("rect[data-row='0'][data-col='1']");
    let after = ".o./.x./...";
    assert_eq!(
        shown_standing(&browser, after),
        api_standing(&server, file, after)
    );
    assert_eq!(shown_standing(&browser, after), json!("win in 5"));
    browser.screenshot(&dir.path().join("tic-tac-toe.png"));
    common::browser::keep_screenshots(dir.path(), &["tic-tac-toe.png"]);
}

#[test]
fn connect_four_in_a_real_browser() {
    let dir = TempDir::new("browser-connect4");
    build(dir.path(), &["connect4 --cols 4 --rows 4"]);
    let server = Server::start(dir.path(), &[]);
    let browser = Browser::start();
    let file = "connect4-4-4.gtab";
    browser.go(&format!("http://{}/?table={file}", server.addr));
    // The empty board: a tie in 16, every cell playable (a cell names its column).
    assert_eq!(
        shown_standing(&browser, "..../..../..../...."),
        json!("tie in 16")
    );
    let squares = "return Array.from(document.querySelectorAll('rect.square.playable')).map(r => r.getAttribute('class'));";
    assert_eq!(browser.run(squares), json!(vec!["square playable tie"; 16]));
    // A click on the top cell of column 2 drops x's disc to the bottom.
    browser.click("rect[data-row='0'][data-col='1']");
    let after = "..../..../..../.x..";
    assert_eq!(
        shown_standing(&browser, after),
        api_standing(&server, file, after)
    );
    let discs = "return Array.from(document.querySelectorAll('circle.disc')).map(d => d.getAttribute('class'));";
    assert_eq!(browser.run(discs), json!(["disc x"]));
    // Typing a sequence of columns asks for the board it makes.
    browser.run(
        "const i = document.getElementById('position-input'); i.value = '2233'; \
         document.getElementById('set').click(); return true;",
    );
    let played = "..../..../.oo./.xx.";
    assert_eq!(
        shown_standing(&browser, played),
        api_standing(&server, file, played)
    );
    browser.screenshot(&dir.path().join("connect4.png"));
    common::browser::keep_screenshots(dir.path(), &["connect4.png"]);
}

#[test]
fn a_chess_ending_in_a_real_browser() {
    let dir = TempDir::new("browser-chess");
    build(dir.path(), &["chess --men KRk"]);
    let server = Server::start(dir.path(), &[]);
    let browser = Browser::start();
    let file = "chess-KRk.gtab";
    let site = format!("http://{}", server.addr);
    browser.go(&format!("{site}/?table={file}"));
    // The page starts from the white king on a1, the rook on e2 and the black king on h8: its
    // value and distance to mate as the API says, the board of 64 squares with the three men.
    let start = "7k/8/8/8/8/8/4R3/K7 w - - 0 1";
    assert_eq!(
        shown_standing(&browser, start),
        api_standing(&server, file, &start.replace(' ', "%20"))
    );
    let status = browser.run("return document.getElementById('status').textContent;");
    assert!(status.as_str().unwrap().contains(" · mate in "), "{status}");
    let board = "return [document.querySelectorAll('#board rect.square').length, \
                 Array.from(document.querySelectorAll('#board text.man')).map(m => m.dataset.man + m.textContent).sort().join(' ')];";
    assert_eq!(browser.run(board), json!([64, "K♔ R♖ k♚"]));
    // Every move in SAN with its value, as the API lists them.
    let api = server
        .get(&format!(
            "/api/tables/{file}/query?position={}",
            start.replace(' ', "%20")
        ))
        .json();
    let listed = browser.run(
        "return Array.from(document.querySelectorAll('#moves li')).map(li => li.textContent);",
    );
    let expected: Vec<String> = api["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            format!(
                "{}: {} in {}",
                m["move"].as_str().unwrap(),
                m["value"].as_str().unwrap(),
                m["remoteness"]
            )
        })
        .collect();
    assert_eq!(listed, json!(expected));
    assert!(
        expected.iter().any(|m| m.starts_with("Re7: ")),
        "{expected:?}"
    );
    // The rook, then e7: the position after Re7, black to move.
    browser.click("#board rect[data-square='e2']");
    browser.click("#board rect[data-square='e7']");
    let after = "7k/4R3/8/8/8/8/8/K7 b - - 0 1";
    assert_eq!(
        shown_standing(&browser, after),
        api_standing(&server, file, &after.replace(' ', "%20"))
    );
    browser.screenshot(&dir.path().join("chess.png"));

    // Play mode from the start: a best move of the rook, two clicks on the board, and the table
    // answers with one of its best moves.
    browser.go(&format!(
        "{site}/?table={file}&play={}&me=first",
        start.replace(' ', "%20")
    ));
    browser.wait(
        "the play board",
        "return document.querySelectorAll('#play-board rect.square').length === 64;",
    );
    browser.click("#play-board rect.source.best");
    browser.click("#play-board rect.playable.best:not(.taken)");
    let game = browser.wait(
        "the table's reply",
        "const g = JSON.parse(document.getElementById('raw').textContent || 'null'); \
         return g && g.plies.length === 2 && g;",
    );
    let plies = game["plies"].as_array().unwrap();
    assert_eq!(plies[0]["player"], "first", "{game}");
    assert_eq!(plies[1]["player"], "second", "{game}");
    for p in plies {
        assert_eq!(p["mistake"], json!(false), "{game}");
    }
    let now = game["turn"]["position"].as_str().unwrap();
    assert!(now.ends_with(" w - - 0 1"), "{now}");
    assert_eq!(
        browser.run("return document.querySelectorAll('#play-board text.man').length;"),
        json!(3)
    );
    browser.screenshot(&dir.path().join("chess-play.png"));
    common::browser::keep_screenshots(dir.path(), &["chess.png", "chess-play.png"]);
}
