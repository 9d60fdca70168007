//! A gamedb chess table of distances to zeroing (`--values dtz`) against Syzygy tables,
//! position by position, read by the `shakmaty-syzygy` crate: what `gamedb verify
//! chess-syzygy --syzygy DIR` checks, what `scripts/programs/syzygy-compare.rs` (the
//! benchmark's comparison) prints, and what `tests/chess_dtz.rs` holds the small tables of
//! `tests/data/syzygy/` to.
//!
//! A table of distances to mate (`remoteness`) is compared by its win, draw or loss alone,
//! which the 50-move rule does not change when it is set aside: a win is Syzygy's win or
//! cursed win, a loss its loss or blessed loss, a tie or a draw its draw.
//!
//! Every legal position of the table (every index that holds a value: both sides to move,
//! every sub-ending) is written as a FEN, probed in Syzygy (WDL after a zeroing move, and DTZ)
//! and compared with the table: the class (win, cursed win, draw, blessed loss, loss) must be
//! equal, and the DTZ equal where Syzygy stores it exactly, or where Syzygy stores it halved
//! (`Rounded`: the true value or one more in magnitude) one of those two. Two conventions
//! differ and are counted apart, not as disagreements: Syzygy reads a mated position as DTZ
//! -1 (it files mate with the losses in one ply) where gamedb says 0 (the game is over); and
//! kings alone have no Syzygy table (a draw in both). A FEN shakmaty cannot read counts as a
//! disagreement; a probe Syzygy cannot answer (a table missing or damaged) stops the
//! comparison with an error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::format::entries::standing;
use crate::model::{Standing, Wdl50};
use crate::{Error, Result, Table, ValueKind};
use rayon::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position, PositionError, Role};
use shakmaty_syzygy::{Dtz, MaybeRounded, SyzygyError, Tablebase, Wdl};

/// What one ending's positions gave.
#[derive(Default, Clone, Copy, Debug)]
pub struct Tally {
    /// Positions compared.
    pub positions: u64,
    /// Of them, those with Syzygy's class (win, cursed win, draw, blessed loss, loss).
    pub wdl_equal: u64,
    /// Those with Syzygy's class and its DTZ, stored exactly.
    pub dtz_exact: u64,
    /// Those with Syzygy's class and its DTZ, stored halved (one of the two it can be).
    pub dtz_rounded: u64,
    /// Mated positions (Syzygy's DTZ -1, gamedb's 0).
    pub mates: u64,
    /// Kings alone (no Syzygy table; a draw).
    pub kings_alone: u64,
    /// Positions that disagree, or that shakmaty or Syzygy cannot read.
    pub differ: u64,
}

impl Tally {
    /// Adds `o`'s counts to these.
    pub fn add(&mut self, o: &Tally) {
        self.positions += o.positions;
        self.wdl_equal += o.wdl_equal;
        self.dtz_exact += o.dtz_exact;
        self.dtz_rounded += o.dtz_rounded;
        self.mates += o.mates;
        self.kings_alone += o.kings_alone;
        self.differ += o.differ;
    }
}

/// How many disagreements a [`Report`] shows.
pub const SHOWN: usize = 20;

/// The comparison: a tally per ending (Syzygy's names) and the first disagreements.
pub struct Report {
    /// Each ending's tally, by Syzygy's name (`KRvKN`).
    pub endings: BTreeMap<String, Tally>,
    /// The first disagreements by index ([`SHOWN`] at most), each with its FEN.
    pub shown: Vec<String>,
}

impl Report {
    /// The tallies of every ending summed.
    pub fn total(&self) -> Tally {
        let mut t = Tally::default();
        for e in self.endings.values() {
            t.add(e);
        }
        t
    }
}

/// The Syzygy tables of the folder `dir`, mapped, and how many files it holds.
pub fn tablebase(dir: &Path) -> Result<(Tablebase<Chess>, usize)> {
    // SAFETY: the files are only read, and tables are made before they are compared (a file
    // changed while mapped could give wrong probes, never unsafety beyond that).
    let mut tb = unsafe { Tablebase::<Chess>::with_mmap_filesystem() };
    let files = tb.add_directory(dir).map_err(|e| {
        Error::bad(format!(
            "{}: {}; expected a folder of Syzygy tables (.rtbw and .rtbz files)",
            dir.display(),
            first_line(&e)
        ))
    })?;
    Ok((tb, files))
}

/// What `chess-syzygy` says when no folder of Syzygy tables was named.
pub const NO_FOLDER: &str = "chess-syzygy compares with Syzygy tables: name their folder with \
     --syzygy DIR (scripts/bench/syzygy-tb.sh makes them with syzygy1/tb)";

/// A folder of Syzygy tables, read once: its path and the endings [`endings_in`] finds there.
#[derive(Clone, Debug)]
pub struct Folder {
    /// Where the tables are.
    pub dir: PathBuf,
    /// The endings with both files, in the order of [`endings_in`].
    pub endings: Vec<String>,
}

impl Folder {
    /// The folder `dir`, refused with one line where it cannot be read or holds no ending with
    /// both its files.
    pub fn open(dir: &Path) -> Result<Folder> {
        let endings = endings_in(dir)?;
        if endings.is_empty() {
            return Err(Error::bad(format!(
                "{}: no Syzygy ending with both its .rtbw and .rtbz file",
                dir.display()
            )));
        }
        Ok(Folder {
            dir: dir.to_path_buf(),
            endings,
        })
    }
}

/// The endings of the Syzygy tables in `dir` (`KRvKN` for `KRvKN.rtbz`) that have both a WDL
/// and a DTZ file: most men first, then most pawns (an ending with pawns holds the endings
/// its promotions reach), then by name.
pub fn endings_in(dir: &Path) -> Result<Vec<String>> {
    let read = std::fs::read_dir(dir).map_err(|e| {
        Error::bad(format!(
            "{}: {e}; expected a folder of Syzygy tables (.rtbw and .rtbz files)",
            dir.display()
        ))
    })?;
    let names: Vec<String> = read
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    let mut found: Vec<String> = names
        .iter()
        .filter_map(|n| n.strip_suffix(".rtbz"))
        .filter(|e| names.iter().any(|n| n.strip_suffix(".rtbw") == Some(*e)))
        .map(str::to_string)
        .collect();
    let pawns = |e: &str| e.matches('P').count();
    found.sort_by(|a, b| {
        (b.len().cmp(&a.len()))
            .then(pawns(b).cmp(&pawns(a)))
            .then(a.cmp(b))
    });
    Ok(found)
}

/// gamedb's name of a Syzygy ending (`KRPkr` for `KRPvKR`), `None` when it is not one.
pub fn men_of(ending: &str) -> Option<String> {
    let (white, black) = ending.split_once('v')?;
    let ok = |s: &str| s.starts_with('K') && s.chars().all(|c| "KQRBNP".contains(c));
    (ok(white) && ok(black)).then(|| format!("{white}{}", black.to_ascii_lowercase()))
}

/// `KRvKN`: white's men, `v`, black's, each strongest first (Syzygy's order).
pub fn ending(pos: &Chess) -> String {
    let mut s = String::new();
    for (k, colour) in [Color::White, Color::Black].into_iter().enumerate() {
        if k == 1 {
            s.push('v');
        }
        for role in [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            let n = (pos.board().by_color(colour) & pos.board().by_role(role)).count();
            for _ in 0..n {
                s.push(role.upper_char());
            }
        }
    }
    s
}

/// Compares every position of `table` (a dtz table, or a remoteness table by its classes) with
/// `tb`; with `every` over 1 only the indices that are a multiple of it (a sample of a large
/// table: a probe costs microseconds). `Err` when Syzygy cannot answer a probe (a table of the
/// folder missing or damaged): the comparison stops there, since every later probe of that
/// table would fail too, each trying to read it again.
pub fn compare(table: &Table, tb: &Tablebase<Chess>, every: u64) -> Result<Report> {
    // A table of distances to mate: compared by win, draw and loss alone.
    let by_class = table.value_kind() == ValueKind::Remoteness;
    let tallies: Mutex<BTreeMap<String, Tally>> = Mutex::new(BTreeMap::new());
    // The first disagreements in index order, whatever order the tasks finish in.
    let shown = Mutex::new(Vec::<(u64, String)>::new());
    let unanswered = Unanswered {
        stop: AtomicBool::new(false),
        first: Mutex::new(None),
    };
    (0..table.len().div_ceil(CHUNK))
        .into_par_iter()
        .for_each(|c| {
            let Some(mut mine) = compare_chunk(table, tb, every, by_class, c, &unanswered) else {
                return;
            };
            mine.shown.truncate(SHOWN);
            shown
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(mine.shown);
            let mut all = tallies.lock().unwrap_or_else(|e| e.into_inner());
            for (k, v) in mine.tallies {
                all.entry(k).or_default().add(&v);
            }
        });
    if let Some((_, why)) = (unanswered.first.into_inner()).unwrap_or_else(|e| e.into_inner()) {
        return Err(Error::bad(format!(
            "Syzygy cannot answer a probe (a table missing or damaged): {why}"
        )));
    }
    Ok(Report {
        endings: tallies.into_inner().unwrap_or_else(|e| e.into_inner()),
        shown: {
            let mut v = shown.into_inner().unwrap_or_else(|e| e.into_inner());
            v.sort_unstable_by_key(|&(i, _)| i);
            v.into_iter().take(SHOWN).map(|(_, s)| s).collect()
        },
    })
}

/// Indices compared by one task.
const CHUNK: u64 = 1 << 14;

/// The first probe Syzygy could not answer, shared by the tasks: once there is one, every
/// task stops.
struct Unanswered {
    stop: AtomicBool,
    /// The lowest index whose probe failed, with the FEN and the error.
    first: Mutex<Option<(u64, String)>>,
}

impl Unanswered {
    fn record(&self, i: u64, fen: &str, e: &dyn std::fmt::Display) {
        self.stop.store(true, Ordering::Relaxed);
        let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        if first.as_ref().is_none_or(|f| i < f.0) {
            *first = Some((i, format!("{fen}: {}", first_line(e))));
        }
    }
}

/// What one task found: a tally per ending, and its disagreements by index.
#[derive(Default)]
struct Chunk {
    tallies: BTreeMap<String, Tally>,
    shown: Vec<(u64, String)>,
}

/// Compares the positions of chunk `c` of the table; `None` when the comparison stopped at a
/// probe Syzygy could not answer (here or in another task).
fn compare_chunk(
    table: &Table,
    tb: &Tablebase<Chess>,
    every: u64,
    by_class: bool,
    c: u64,
    unanswered: &Unanswered,
) -> Option<Chunk> {
    let rules = table.rules();
    let mut mine = Chunk::default();
    for i in c * CHUNK..((c + 1) * CHUNK).min(table.len()) {
        if unanswered.stop.load(Ordering::Relaxed) {
            return None;
        }
        if i % every != 0 {
            continue;
        }
        let Some((value, d)) = standing::unpack(table.raw(i)) else {
            continue;
        };
        let fen = rules.format(&rules.unrank(i));
        let Some(pos) = position_of(&fen) else {
            let t = mine.tallies.entry("?".into()).or_default();
            t.positions += 1;
            t.differ += 1;
            mine.shown.push((i, format!("{fen}: shakmaty refuses it")));
            continue;
        };
        let name = ending(&pos);
        let t = mine.tallies.entry(name.clone()).or_default();
        t.positions += 1;
        if name == "KvK" {
            t.kings_alone += 1;
            continue;
        }
        let probed = if by_class {
            compare_class(tb, &pos, value, d, &fen, t)
        } else {
            compare_dtz(tb, &pos, value, d, &fen, t)
        };
        match probed {
            Ok(None) => {}
            Ok(Some(differs)) => mine.shown.push((i, differs)),
            Err(e) => unanswered.record(i, &fen, &e),
        }
    }
    Some(mine)
}

/// The position a FEN of the table's writes. gamedb's positions include checks no move can
/// give (two sliders on one line, both checking): shakmaty refuses them unless told, Syzygy
/// indexes them.
fn position_of(fen: &str) -> Option<Chess> {
    (fen.parse::<Fen>().ok()).and_then(|f| {
        (f.into_position::<Chess>(CastlingMode::Standard))
            .or_else(PositionError::ignore_impossible_check)
            .ok()
    })
}

/// A position of a remoteness table against Syzygy's win, draw or loss (a tie is a draw),
/// counted in `t`: `Some` with the disagreement in words when they differ.
fn compare_class(
    tb: &Tablebase<Chess>,
    pos: &Chess,
    value: Standing,
    d: u32,
    fen: &str,
    t: &mut Tally,
) -> std::result::Result<Option<String>, SyzygyError> {
    let signed = match tb.probe_wdl_after_zeroing(pos)? {
        Wdl::Loss | Wdl::BlessedLoss => Standing::Lose,
        Wdl::Draw => Standing::Draw,
        Wdl::CursedWin | Wdl::Win => Standing::Win,
    };
    let ours = if value == Standing::Tie {
        Standing::Draw
    } else {
        value
    };
    if ours == signed {
        t.wdl_equal += 1;
        return Ok(None);
    }
    t.differ += 1;
    Ok(Some(format!(
        "{fen}: gamedb {value:?} in {d}, Syzygy {signed:?}"
    )))
}

/// A position of a dtz table against Syzygy's class under the 50-move rule and its DTZ,
/// counted in `t`: `Some` with the disagreement in words when they differ.
fn compare_dtz(
    tb: &Tablebase<Chess>,
    pos: &Chess,
    value: Standing,
    d: u32,
    fen: &str,
    t: &mut Tally,
) -> std::result::Result<Option<String>, SyzygyError> {
    let (ours, our_dtz) = (Wdl50::of(value, d), Wdl50::dtz(value, d));
    // Both probed, as one: the first error is the WDL probe's.
    let (wdl, dtz) = match (tb.probe_wdl_after_zeroing(pos), tb.probe_dtz(pos)) {
        (Ok(w), Ok(z)) => (w, z),
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    let theirs = match wdl {
        Wdl::Loss => -2,
        Wdl::BlessedLoss => -1,
        Wdl::Draw => 0,
        Wdl::CursedWin => 1,
        Wdl::Win => 2,
    };
    let wdl_ok = theirs == ours.signed();
    let (n, rounded) = match dtz {
        MaybeRounded::Precise(Dtz(n)) => (n, false),
        MaybeRounded::Rounded(Dtz(n)) => (n, true),
    };
    let mate = value == Standing::Lose && d == 0;
    let dtz_ok = if mate {
        n == -1
    } else if rounded {
        our_dtz == n || our_dtz == n + n.signum()
    } else {
        our_dtz == n
    };
    if wdl_ok {
        t.wdl_equal += 1;
    }
    if !(wdl_ok && dtz_ok) {
        t.differ += 1;
        return Ok(Some(format!(
            "{fen}: gamedb {} dtz {our_dtz}, Syzygy {wdl:?} dtz {dtz:?}",
            ours.words()
        )));
    }
    if mate {
        t.mates += 1;
    } else if rounded {
        t.dtz_rounded += 1;
    } else {
        t.dtz_exact += 1;
    }
    Ok(None)
}

/// The first line of an error: shakmaty-syzygy's carry a backtrace after it when
/// `RUST_BACKTRACE` is set.
fn first_line(e: &(impl std::fmt::Display + ?Sized)) -> String {
    let text = e.to_string();
    let line = text.lines().next().unwrap_or("");
    // The backtrace can start on the same line, after a colon and spaces.
    let line = line.split(":    ").next().unwrap_or(line);
    let line = line.trim_end_matches(": disabled backtrace");
    line.trim_end_matches(':').to_string()
}
