//! `gamedb verify`: statements from the literature and from the source texts, each checked
//! against every position of the tables it needs (reused from the tables folder when a file
//! there holds the table by its header and is intact, else solved in memory). A failing
//! statement is a finding: it is reported with its smallest counterexample and never tuned to
//! pass.
//!
//! `src/verify/STATEMENTS.md` is the catalog of every statement with its sources, generated
//! from [`statements`] and [`REFERENCES`] by [`catalog_markdown`] (`gamedb verify --list
//! --markdown`); a test keeps the two equal.

use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;

use crate::games::Spec;
use crate::lookup::Table;
use crate::model::ValueKind;
use crate::progress::Progress;
use crate::tables::TableDir;
use crate::Result;

mod candy;
mod chess;
mod chomp;
mod chomp3;
mod connect4;
mod mill;
mod mnk;
mod nim;
mod octal;
mod slide;
mod weighing;
mod wythoff;

/// One checkable statement.
pub(crate) struct Statement {
    /// Short unique name, used on the command line.
    pub name: &'static str,
    /// Where it comes from, in words a reader can follow (author, title, part); the full
    /// references are in [`REFERENCES`].
    pub source: &'static str,
    /// The statement in one line.
    pub claim: &'static str,
    /// Runs the check.
    pub run: fn(&mut Env) -> Result<Finding>,
}

impl Statement {
    /// Roughly how long the check takes, in seconds: measured (see [`COSTS`]), `None` for a
    /// statement not measured yet.
    pub(crate) fn cost(&self) -> Option<f64> {
        COSTS
            .iter()
            .find(|(name, _)| *name == self.name)
            .map(|&(_, secs)| secs)
    }

    /// A check of [`HEAVY_SECONDS`] or more alone (or of no known cost): a plain `gamedb
    /// verify` leaves it out and names it; `--all` or its name runs it.
    pub(crate) fn heavy(&self) -> bool {
        self.cost().is_none_or(|c| c >= HEAVY_SECONDS)
    }
}

/// The cost from which a statement is heavy ([`Statement::heavy`]): a minute alone on the
/// reference machine. The light ones together take minutes; the heavy ones over an hour
/// (`connect4-thirty-cells` alone about 40 minutes).
pub(crate) const HEAVY_SECONDS: f64 = 60.0;

/// The last line of `gamedb verify --list`: how many statements there are, how many a plain
/// `gamedb verify` runs and how long they take by their costs, and the heavy ones it leaves
/// out. README.md and the verify guide state these counts; a test holds them to this line.
pub(crate) fn plan_line(all: &[Statement]) -> String {
    let (heavy, light): (Vec<&Statement>, Vec<&Statement>) = all.iter().partition(|s| s.heavy());
    let secs = |v: &[&Statement]| v.iter().filter_map(|s| s.cost()).sum::<f64>();
    format!(
        "{} statements: `gamedb verify` runs the {} light ones (under {} each, {} in all by \
         their costs), `gamedb verify --all` also the {} heavy ones ({} or more each, {} in all)",
        all.len(),
        light.len(),
        cost_text(Some(HEAVY_SECONDS)).trim_start_matches('~'),
        cost_text(Some(secs(&light))),
        heavy.len(),
        cost_text(Some(HEAVY_SECONDS)).trim_start_matches('~'),
        cost_text(Some(secs(&heavy)))
    )
}

/// Seconds each statement took alone (`gamedb verify NAME -q --tables /nonexistent`, release
/// build: every table solved in memory) on the project's 2-core machine at load 1 to 2,
/// measured 2026-12-07, but for: `connect4-thirty-cells` and `chess-longest-mates-conrady`,
/// not timed alone (too long to measure cheaply) but estimated from their largest tables'
/// recorded builds (the two-player guide's two-bit tables of 7×4, 4×7, 5×6 and 6×5, 33 minutes
/// together; the chess guide's KBNkn, 10 minutes at load 4 to 5, beside KRkp); the four
/// sliding-puzzle statements that read `slide-seed-000`'s census, its time; `chess-syzygy`, a
/// guess for the small tables of tests/data/syzygy. `gamedb verify --list` shows them rounded ([`cost_text`]), and a
/// statement of [`HEAVY_SECONDS`] or more is heavy. Tables reused from the folder, or shared
/// with an earlier statement of the same run, make a check cheaper: the sliding-puzzle
/// statements but the last read one census of the 12 boards, computed once per run, so in a
/// whole run the first of them pays for it and the others take seconds. A test keeps one entry
/// per statement.
pub(crate) const COSTS: &[(&str, f64)] = &[
    ("candy-lemma-1.1", 0.01),
    ("candy-theorem-1.1", 0.01),
    ("candy-lemma-1.2", 0.01),
    ("candy-theorem-1.2", 0.01),
    ("candy-periods", 0.01),
    ("nim-bouton", 0.07),
    ("nim-misere", 0.08),
    ("nim-bounded-normal", 0.07),
    ("nim-bounded-misere", 0.07),
    ("nim-seed-002-xor", 0.01),
    ("nim-seed-002-stories", 0.01),
    ("nim-seed-001-board", 0.01),
    ("nim-grundy", 0.07),
    ("chomp-single-cell", 0.55),
    ("chomp-rectangles-n", 0.73),
    ("chomp-one-row-or-column", 0.68),
    ("chomp-square", 0.67),
    ("chomp-two-rows", 0.70),
    ("chomp-three-rows-r0", 0.04),
    ("chomp-three-rows-r1", 0.04),
    ("chomp-three-rows-r2", 0.04),
    ("chomp-three-rows-r3", 0.04),
    ("chomp-three-rows-r4", 0.04),
    ("chomp-three-rows-r5", 0.04),
    ("chomp-seed-003-n-list", 0.04),
    ("chomp-seed-003-small", 0.04),
    ("chomp-transpose", 1.98),
    ("chomp-last-row", 1.99),
    ("chomp-l-shapes", 1.91),
    ("chomp-grundy-squares", 6.34),
    ("chomp-grundy-2xn", 0.98),
    ("chomp-grundy-3xn", 1.00),
    ("chomp3-box-3x200", 0.93),
    ("chomp3-a029899", 1.22),
    ("chomp3-a029900", 0.88),
    ("chomp3-a029901-a029902", 1.49),
    ("chomp3-brouwer-r-le-5", 1.00),
    ("chomp3-sheiner", 1.87),
    ("chomp3-periods", 1.19),
    ("chomp3-nivasch", 1.17),
    ("slide-half", 91.53),
    ("slide-seed-000", 99.58),
    ("slide-seed-000-abnormal", 99.58), // the census of slide-seed-000, not timed alone
    ("slide-seed-004", 99.58),          // the census of slide-seed-000, not timed alone
    ("slide-seed-004-nonsquare", 99.58), // the census of slide-seed-000, not timed alone
    ("slide-invariant", 99.58),         // the census of slide-seed-000, not timed alone
    ("slide-distances", 154.37),
    ("wythoff-p-positions", 1.16),
    ("wythoff-grundy-zero", 5.90),
    ("wythoff-grundy-symmetric", 6.13),
    ("wythoff-grundy-latin", 5.70),
    ("octal-kayles", 0.01),
    ("octal-dawsons-chess", 0.01),
    ("octal-dawsons-kayles", 0.01),
    ("octal-0.16", 0.07),
    ("octal-0.127", 0.12),
    ("octal-0.115", 0.01),
    ("octal-0.176", 0.01),
    ("octal-0.177", 0.01),
    ("octal-0.11377", 0.01),
    ("mnk-tic-tac-toe", 0.02),
    ("mnk-small-boards", 1.40),
    ("zermelo", 1.19),
    ("connect4-small-boards", 10.50),
    ("connect4-larger-boards", 41.27),
    ("connect4-thirty-cells", 2400.0), // estimated from its tables' builds, not timed alone
    ("mill-five-six", 14.24),
    ("weighing-iii.1-find", 0.59),
    ("weighing-iii.1-tell", 0.57),
    ("weighing-counting", 0.13),
    ("weighing-iii.2", 7.26),
    ("weighing-essay-twelve", 0.01),
    ("weighing-thirteen", 0.01),
    ("weighing-fourteen", 0.01),
    ("weighing-dyson-genuine", 1.06),
    ("chess-longest-mates-3", 0.18),
    ("chess-longest-mates-4", 3.35),
    ("chess-kbnk-33", 1.85),
    ("chess-longest-mates-conrady", 700.0), // estimated from KBNkn's build, not timed alone
    ("chess-syzygy", 1.0), // the tables of tests/data/syzygy; a five-man ending takes minutes
];

/// A cost for people: `<0.1 s`, `~0.4 s`, `~3 s`, `~40 s`, `~4 min`; `?` when unknown.
pub(crate) fn cost_text(secs: Option<f64>) -> String {
    match secs {
        None => "?".to_string(),
        Some(s) if s < 0.1 => "<0.1 s".to_string(),
        Some(s) if s < 0.95 => format!("~{s:.1} s"),
        Some(s) if s < 9.5 => format!("~{s:.0} s"),
        Some(s) if s < 90.0 => format!("~{:.0} s", (s / 10.0).round() * 10.0),
        Some(s) => format!("~{:.0} min", s / 60.0),
    }
}

/// The line `gamedb verify --progress` prints on stderr when a statement is done:
/// `[i/N] PASS  chomp-square  3.2 s`, the i-th of the N statements of the run.
pub(crate) fn progress_line(
    done: usize,
    total: usize,
    status: &str,
    name: &str,
    secs: f64,
) -> String {
    let width = total.to_string().len();
    format!("[{done:>width$}/{total}] {status}  {name:24}  {secs:.1} s")
}

/// What a check found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Finding {
    /// Positions (or cases) checked.
    pub checked: u64,
    /// The smallest counterexample, when the statement fails.
    pub counterexample: Option<String>,
    /// Measured facts reported beside the verdict.
    pub note: Option<String>,
}

impl Finding {
    /// Records a case; keeps the first failure (cases are visited smallest first).
    pub(crate) fn case(&mut self, ok: bool, describe: impl FnOnce() -> String) {
        self.checked += 1;
        if !ok && self.counterexample.is_none() {
            self.counterexample = Some(describe());
        }
    }

    /// True when no counterexample was found.
    pub(crate) fn passed(&self) -> bool {
        self.counterexample.is_none()
    }
}

/// The terms of an OEIS b-file (lines `n a(n)`, `#` comments), as `(n, a(n))`. The files are
/// embedded at build time and tested to parse, so a malformed line is a bug, not bad input.
fn b_file(text: &str) -> Vec<(u64, u64)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut w = l
                .split_whitespace()
                .map(|x| x.parse().expect("a b-file number"));
            (w.next().expect("n"), w.next().expect("a(n)"))
        })
        .collect()
}

/// Tables shared by the checks of one run.
pub(crate) struct Env<'p> {
    tables: Option<TableDir>,
    cache: HashMap<String, Arc<Table>>,
    memo: HashMap<String, Arc<dyn Any + Send + Sync>>,
    used: Vec<String>,
    progress: &'p dyn Progress,
    /// The folder of Syzygy tables `chess-syzygy` compares with (`--syzygy`).
    syzygy: Option<crate::syzygy::Folder>,
}

impl<'p> Env<'p> {
    /// Reuses intact tables from the folder `tables` when given (found by their headers);
    /// solves the others in memory.
    pub(crate) fn new(tables: Option<TableDir>, progress: &'p dyn Progress) -> Env<'p> {
        Env {
            tables,
            cache: HashMap::new(),
            memo: HashMap::new(),
            used: Vec::new(),
            progress,
            syzygy: None,
        }
    }

    /// The same, with the folder of Syzygy tables `chess-syzygy` compares with.
    pub(crate) fn with_syzygy(mut self, folder: Option<crate::syzygy::Folder>) -> Env<'p> {
        self.syzygy = folder;
        self
    }

    /// The table of `spec` holding `kind` values.
    pub(crate) fn table(&mut self, spec: &Spec, kind: ValueKind) -> Result<Arc<Table>> {
        let name = spec.file_name(kind);
        if let Some(t) = self.cache.get(&name) {
            self.used.push(format!("{name} (again)"));
            return Ok(t.clone());
        }
        // A file of the folder is reused only when its header says it holds this table and
        // its payload checksum holds; anything else is named in the report and solved anew.
        let reused = match &self.tables {
            None => Err(None),
            Some(dir) => match dir.table(spec, kind, true) {
                Ok(Some(t)) => Ok(t),
                Ok(None) => Err(None),
                Err(e) => Err(Some(e.to_string())),
            },
        };
        let table = match reused {
            Ok(t) => {
                self.used
                    .push(format!("{} (reused)", t.file().path().display()));
                t
            }
            Err(why) => {
                // Solved in memory: refuse before allocating when it will not fit.
                let needs = crate::resources::Needs {
                    file: 0,
                    ..crate::build::needs(spec, kind)
                };
                let here = crate::resources::Available {
                    memory: crate::resources::memory_limit(None),
                    disk: None,
                };
                crate::resources::check(&needs, &here, std::path::Path::new("."))?;
                self.progress.restart(spec.positions(), &name);
                let solved = spec.solve(kind, self.progress)?;
                self.used.push(match why {
                    None => format!("{name} (solved)"),
                    Some(why) => format!("{name} (solved; not reused: {why})"),
                });
                Arc::new(Table::from_solved(spec, solved)?)
            }
        };
        self.cache.insert(name, table.clone());
        Ok(table)
    }

    /// A result computed once per run and shared by every check that asks for it under the
    /// same `key` (an exhaustive search several statements read, say). `make` gets the progress
    /// bar. The report names it among the tables used, as `key (computed)` or `key (again)`.
    pub(crate) fn memo<T: Any + Send + Sync>(
        &mut self,
        key: &str,
        make: impl FnOnce(&dyn Progress) -> Result<T>,
    ) -> Result<Arc<T>> {
        if let Some(v) = self.memo.get(key) {
            if let Ok(v) = v.clone().downcast::<T>() {
                let line = format!("{key} (again)");
                if !self.used.contains(&line) && !self.used.contains(&format!("{key} (computed)")) {
                    self.used.push(line);
                }
                return Ok(v);
            }
        }
        self.progress.restart(0, key);
        let v = Arc::new(make(self.progress)?);
        self.memo.insert(key.to_string(), v.clone());
        self.used.push(format!("{key} (computed)"));
        Ok(v)
    }

    fn take_used(&mut self) -> Vec<String> {
        std::mem::take(&mut self.used)
    }
}

/// Every statement: candy game, Nim, Chomp, sliding puzzles, then the other games.
pub(crate) fn statements() -> Vec<Statement> {
    let mut all = Vec::new();
    all.extend(candy::statements());
    all.extend(nim::statements());
    all.extend(chomp::statements());
    all.extend(chomp3::statements());
    all.extend(slide::statements());
    all.extend(wythoff::statements());
    all.extend(octal::statements());
    all.extend(mnk::statements());
    all.extend(connect4::statements());
    all.extend(mill::statements());
    all.extend(weighing::statements());
    all.extend(chess::statements());
    all
}

/// The outcome of one statement's check. JSON keys: `name`, `source`, `claim`, `checked`,
/// `status` (`PASS`/`FAIL`), `counterexample` (null when it passes), `note` (when there is one),
/// `tables` (what the check read, and whether it was reused or solved).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Report {
    /// Statement name.
    pub name: &'static str,
    /// Where it comes from.
    pub source: &'static str,
    /// The claim.
    pub claim: &'static str,
    /// Positions (or cases) checked.
    pub checked: u64,
    /// `PASS` or `FAIL`.
    pub status: &'static str,
    /// The smallest counterexample, when the statement fails.
    pub counterexample: Option<String>,
    /// Measured facts reported beside the verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Tables the check read, and whether they were reused or solved.
    pub tables: Vec<String>,
}

impl Report {
    /// True when no counterexample was found.
    pub(crate) fn passed(&self) -> bool {
        self.counterexample.is_none()
    }

    /// A text block for the terminal.
    pub(crate) fn to_text(&self) -> String {
        let mut s = format!(
            "{}  {}  ({})\n      {}\n      checked {} cases",
            self.status, self.name, self.source, self.claim, self.checked
        );
        if !self.tables.is_empty() {
            s += &format!(" in {}", self.tables.join(", "));
        }
        if let Some(c) = &self.counterexample {
            s += &format!("\n      smallest counterexample: {c}");
        }
        if let Some(n) = &self.note {
            s += &format!("\n      found: {n}");
        }
        s
    }
}

/// What `gamedb verify --json` prints: the counts and every report.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Summary {
    /// Statements that passed.
    pub passed: usize,
    /// Statements that failed.
    pub failed: usize,
    /// Every report, in order.
    pub statements: Vec<Report>,
    /// The heavy statements a plain run left out (`left_out`, only when there are any).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<&'static str>,
}

impl Summary {
    /// The summary of `reports`, with the names of the heavy statements the run left out.
    pub(crate) fn of(reports: Vec<Report>, left_out: Vec<&'static str>) -> Summary {
        let failed = reports.iter().filter(|r| !r.passed()).count();
        Summary {
            passed: reports.len() - failed,
            failed,
            statements: reports,
            left_out,
        }
    }

    /// The last line of the report: `66 passed, 0 failed`, and the heavy statements left out.
    pub(crate) fn to_text(&self) -> String {
        let mut s = format!("{} passed, {} failed", self.passed, self.failed);
        if !self.left_out.is_empty() {
            s += &format!(
                ", {} heavy left out (`gamedb verify --all` runs them)",
                self.left_out.len()
            );
        }
        s
    }
}

/// Runs one statement.
pub(crate) fn run(statement: &Statement, env: &mut Env) -> Result<Report> {
    let finding = (statement.run)(env)?;
    Ok(Report {
        name: statement.name,
        source: statement.source,
        claim: statement.claim,
        checked: finding.checked,
        status: if finding.passed() { "PASS" } else { "FAIL" },
        counterexample: finding.counterexample,
        note: finding.note,
        tables: env.take_used(),
    })
}

/// The works the statements come from, by the short name their sources use.
pub(crate) const REFERENCES: &[(&str, &str)] = &[
    ("Aha 1991", "D. W. Aha, \"Tic-Tac-Toe Endgame\" data set, UCI Machine Learning Repository (1991): the 958 boards on which a game of tic-tac-toe with x first ends, 626 of them won by x (its positive class) and 332 not (won by o, or full without a line)."),
    ("Brouwer, Horváth, Molnár-Sáska, Szabó 2005", "A. E. Brouwer, G. Horváth, I. Molnár-Sáska and C. Szabó, \"On three-rowed Chomp\", INTEGERS 5 (2005), #G07. The P-positions of three-rowed Chomp as a function f(q, r), its recurrence, end points and the eventual periodicity of p − q in q (the first period other than 1 at r = 120)."),
    ("Bouton 1901", "C. L. Bouton, \"Nim, a game with a complete mathematical theory\", Annals of Mathematics (2) 3 (1901–1902), 35–39. Normal and misère Nim."),
    ("Brouwer's Chomp page", "A. E. Brouwer, \"The game of Chomp\", https://www.win.tue.nl/~aeb/games/chomp.html. Three-rowed P-positions by third row, the transposition symmetry, the unique last row, and Gabriel Nivasch's census of the third rows r ≤ 10000 whose p − q is periodic with a period other than 1 (period 2: 141 values of r, 3: 7, 4: 54, 9: 2)."),
    ("Chen Jingrun", "陳景潤 (Chen Jingrun), \"關于十五子的游戲\" (On the game of fifteen). The inversion count and the blank's row decide whether a 15-puzzle arrangement can be solved; the others reach the goal with two tiles swapped."),
    ("Conrady 2000", "H. Conrady, the longest sequences to mate of every 3- to 5-man Nalimov table (distance to mate, either side to move), Computer Chess Club, 1 June 2000, www.stmintz.com/ccc/index.php?id=113253: the longest 3-man ending is KP–K with 56 plies, the longest 4-man KR–KP with 85 plies, and the longest pawnless ending KBN–KN with 213 plies."),
    ("De Clercq's Morris page", "D. De Clercq, \"5-6-7 Men's Morris\", http://puzzles.net23.net/6mm.htm: Six Men's Morris, with the rules of Nine Men's Morris (the World Merrills Association's) on the board of two squares, solved by a program of his: a draw with perfect play, and Five Men's Morris on the same board a draw too; the deepest reachable position of Six Men's a \"mate in 149\"; Seven Men's Morris (17 points) a first-player win in 25 moves."),
    ("de Man's Syzygy tables", "R. de Man, the Syzygy endgame tables and their generator, https://github.com/syzygy1/tb: for every ending of up to seven men, the value with the 50-move rule (win, cursed win, draw, blessed loss, loss) after a zeroing move, and the distance to zeroing (DTZ: plies to the next capture or pawn move of the best play), many of them stored halved; read here by the shakmaty-syzygy crate."),
    ("Dyson 1946", "F. J. Dyson, \"The problem of the pennies\", The Mathematical Gazette 30 (1946), 231–234. With one coin heavier or lighter and a balance, n ≥ 3 coins can be done in w weighings when n ≤ (3^w − 3)/2 if heavier or lighter must be told, (3^w − 1)/2 if not, and (3^w − 1)/2 with telling when one more coin is known to be good; his solutions are plans fixed in advance."),
    ("Gale 1974", "D. Gale, \"A curious Nim-type game\", American Mathematical Monthly 81 (1974), 876–879. The rules of Chomp; every rectangle but 1×1 is won by the first player (strategy stealing)."),
    ("Chomp figures known by search", "Grundy values of single Chomp rectangles known by search (8×8 = 13, 10×10 = 19, 12×12 = 41, 14×14 = 29) and ⌊(3n − 1)/2⌋ for the 2×n rectangle, observed to n = 12 (figures gamedb's Chomp work at research scale started from); no publication is named for them."),
    ("Gangolli & Plambeck 1989", "A. Gangolli and T. Plambeck, \"A note on periodicity in some octal games\", International Journal of Game Theory 18 (1989), 311–320. Periods found by computation with the sparse-space method: 0.16 has period 149,459; 0.127 has period 4 with the last exception at heap 46,577 (as OEIS A071464 cites it)."),
    ("Grundy 1939", "P. M. Grundy, \"Mathematics and games\", Eureka 2 (1939), 6–8. With Sprague 1935: the Sprague–Grundy values of impartial games."),
    ("Guy & Smith 1956", "R. K. Guy and C. A. B. Smith, \"The G-values of various games\", Proceedings of the Cambridge Philosophical Society 52 (1956), 514–526. The octal games and their codes, the periodicity theorem (if G(n + p) = G(n) for e ≤ n < 2e + p + t, then for every n ≥ e; t the most counters a move takes), Kayles (period 12 from heap 71) and Dawson's chess (period 34 from heap 52)."),
    ("Johnson & Story 1879", "W. W. Johnson and W. E. Story, \"Notes on the '15' puzzle\", American Journal of Mathematics 2 (1879), 397–404. Half of the arrangements are solvable; the parity invariant."),
    ("Karrer's maximum-DTM statistics", "P. Karrer, the longest distances to mate of every 3- to 5-man ending with either side to move, computed from Nalimov's tables and kept on the ICGA's pages on Western chess endgames: KQK 10 moves, KRK 16, KPK 28, KBBK 19, KBNK 33, KQKR 35 with white (the stronger side) to move."),
    ("Little Match Girl story", "\"第九夜 · 卖火柴的小女孩的游戏\" (The ninth night: the Little Match Girl's game), a story with a Nim program: its check of every 2- and 3-heap position up to 15, and its story positions."),
    ("OEIS", "The On-Line Encyclopedia of Integer Sequences: A089473 (3×3 sliding puzzle, positions at each distance), A090034 (3×2), A089484 (4×4); A029899 (three-rowed Chomp: P-positions with p ≤ n, b-file to n = 400), A029900 (f(n, n)), A029901 and A029902 (the P-positions (k, k, r): k and r); A069001 (Grundy values of the 3×n Chomp rectangles, b-file); octal games: A002186 (Kayles), A002187 (Dawson's chess), A071464 (0.127), A125829 (0.115), A125920 (0.176), A071435 (0.177), A071452 (0.11377), each stating the period and the last exception."),
    ("Schaefer 2002", "S. Schaefer, \"Tic-Tac-Toe (Naughts and Crosses, Cheese and Crackers, etc.)\", MathRec (2002): the positions and games of tic-tac-toe counted, 765 positions essentially different under the board's symmetries; 5,478 positions in all is the count common references give for what play reaches from the empty board (e.g. Wikipedia's \"Game complexity\")."),
    ("Solvable N×N note", "The blog note \"如何判断数字华容道中随机排列的数字阵列是否有解\" (How to tell whether a random N×N number-slide arrangement is solvable): inversions with the blank as 0 plus the blank's row and column."),
    ("Sheiner 2026", "Sheiner, arXiv 2605.23837 (2026). Every 3×n rectangle of Chomp has exactly one winning bite, never in row 1, in row 2 exactly when n is in A029900."),
    ("Sprague 1935", "R. Sprague, \"Über mathematische Kampfspiele\", Tôhoku Mathematical Journal 41 (1935), 438–444."),
    ("Chomp problem note", "The problem note on poisoned chocolate (有毒的巧克力 / Chomp) that cites Zeilberger 2001: one row, squares, two rows, its tables of three-rowed positions with third row 0, 1 and 2 (its N-families with third row 1 are stated for positions of at least 6 cells)."),
    ("Ströhlein 1970", "T. Ströhlein, \"Untersuchungen über kombinatorische Spiele\", diploma thesis, Technische Hochschule München (1970). The first endgame tables by retrograde analysis: KQK and KRK, the longest mates 10 and 16 moves."),
    ("Thompson 1986", "K. Thompson, \"Retrograde analysis of certain endgames\", ICCA Journal 9(3) (1986), 131–139. The 4- and 5-man pawnless endings by retrograde analysis, with their longest mates (KBNK 33 moves, KQKR 35)."),
    ("Tromp's Connect Four page", "J. Tromp, \"John's Connect Four Playground\", https://tromp.github.io/c4/c4.html: the results of Connect Four by board size, width × height from 4 to 11 (+ the first player wins, - the second, = a draw): of the boards up to 30 cells, 4×4, 5×4, 7×4, 4×5, 5×5, 6×5, 4×6, 5×6 and 4×7 are draws and 6×4 a win for the second player; the standard 7×6 board a win for the first."),
    ("Uiterwijk & van den Herik 2000", "J. W. H. M. Uiterwijk and H. J. van den Herik, \"The advantage of the initiative\", Information Sciences 122 (2000), 43–58. The values of the m,n,k-games known then: k = 3 a first-player win on boards of at least 4×3, 4,4,4 a tie, among others."),
    ("Winning Ways, ch. 4", "E. R. Berlekamp, J. H. Conway and R. K. Guy, Winning Ways for your Mathematical Plays, Academic Press 1982, vol. 1, chapter 4 \"Taking and breaking\": octal games, Dawson's Kayles, and the tables of octal games with their periods and last exceptional values (pp. 102–104; as the OEIS entries cited quote them)."),
    ("Wythoff 1907", "W. A. Wythoff, \"A modification of the game of Nim\", Nieuw Archief voor Wiskunde 7 (1907), 199–202. The P-positions of two heaps when a move may also take the same number from both."),
    ("Xiao Renwu", "肖韧吾 (Xiao Renwu), \"过年玩几个数学游戏\" (A few maths games for the New Year). Part I: the candy game (Lemmas I.1, I.2, Theorems I.1, I.2); part II: Nim, bounded Nim and misère play (Lemma II.2, Corollary II.1), the single-row board; part III, the ball-weighing essay: the fewest weighings that find one heavier or lighter ball among n (Theorem III.1, its two formulas garbled in the text), plans fixed in advance (Theorem III.2, Lemma III.1), and a 12-ball plan (Tables 1 and 2, its pans listed in a worked example)."),
    ("Zermelo 1913", "E. Zermelo, \"Über eine Anwendung der Mengenlehre auf die Theorie des Schachspiels\", Proceedings of the Fifth International Congress of Mathematicians (Cambridge 1912), vol. 2 (1913), 501–504. In a finite game of two players with perfect information, either one side can force a win or both can force at least a draw; the Chomp problem note states it (策梅洛定理) for games without draws."),
    ("Zeilberger 2001", "D. Zeilberger, \"Three-rowed CHOMP\", Advances in Applied Mathematics 26 (2001), 168–179. The P-positions of three-rowed Chomp for small third rows."),
];

/// `src/verify/STATEMENTS.md`: every statement with its claim and source, then the
/// references.
pub(crate) fn catalog_markdown() -> String {
    let mut s = String::from(
        "# The statements `gamedb verify` checks\n\n\
         Generated by `gamedb verify --list --markdown` (a test keeps this file equal to it).\n\
         Each statement is checked against every position of the tables named in its report;\n\
         a statement that fails is reported with its smallest counterexample, never tuned to\n\
         pass. P = the player to move loses with best play; N = the player to move wins.\n\n\
         | name | claim | source |\n|---|---|---|\n",
    );
    for st in statements() {
        s += &format!(
            "| `{}` | {} | {} |\n",
            st.name,
            st.claim.replace('|', "\\|"),
            st.source.replace('|', "\\|")
        );
    }
    s += "\n## References\n\n";
    for (key, full) in REFERENCES {
        s += &format!("- **{key}**: {full}\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nim::NimSpec;
    use crate::Outcome;

    #[test]
    fn every_statement_has_a_cost_in_seconds() {
        for s in statements() {
            assert!(s.cost().is_some_and(|c| c > 0.0), "{}", s.name);
        }
        // Every measured cost belongs to a statement.
        for (name, _) in COSTS {
            assert!(statements().iter().any(|s| s.name == *name), "{name}");
        }
        // The costs are in seconds: the cheap candy checks below a second, the Chomp Grundy
        // squares (boxes to 14x14) above one.
        let cost = |n: &str| {
            statements()
                .iter()
                .find(|s| s.name == n)
                .unwrap()
                .cost()
                .unwrap()
        };
        assert!(cost("candy-periods") < 1.0);
        assert!(cost("chomp-grundy-squares") > 1.0);
        assert!(cost("candy-periods") < cost("chomp-grundy-squares"));
    }

    #[test]
    fn a_false_statement_is_reported_with_its_smallest_counterexample() {
        // Feed the misère rule a normal-play table through a Finding: the empty position is
        // the smallest counterexample (P under normal play, N by the misère rule).
        let spec = Spec::new(NimSpec::new(3, 7, None, false).unwrap());
        let t = Table::from_solved(&spec, spec.solve(ValueKind::Outcome, &()).unwrap()).unwrap();
        let rules = t.rules();
        let mut f = Finding::default();
        for i in 0..t.len() {
            let h = rules.unrank(i);
            let ones = h.iter().filter(|&&x| x == 1).count();
            let misere_p = if h.iter().all(|&x| x <= 1) {
                ones % 2 == 1
            } else {
                h.iter().fold(0, |a, &b| a ^ b) == 0
            };
            f.case(t.outcome(i) == Outcome::from_win(!misere_p), || {
                rules.format(&h)
            });
        }
        assert!(!f.passed());
        assert_eq!(f.checked, t.len());
        assert_eq!(f.counterexample.as_deref(), Some("0,0,0"));
    }
}
