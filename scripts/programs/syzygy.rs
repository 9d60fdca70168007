//! A gamedb chess table of distances to zeroing (`--values dtz`) against Syzygy tables,
//! position by position: shared by `syzygy-compare.rs` (the benchmark's comparison) and
//! `tests/chess_dtz.rs` (the same on small tables kept in `tests/data/syzygy/`).
//!
//! A table of distances to mate (`remoteness`) is compared by its win, draw or loss alone, which the 50-move rule does not change
//! when it is set aside: a win is Syzygy's win or cursed win, a loss its loss or blessed loss,
//! a tie or a draw its draw.
//!
//! Every legal position of the table (every index that holds a value: both sides to move,
//! every sub-ending) is written as a FEN, probed in Syzygy (WDL after a zeroing move, and DTZ)
//! and compared with the table: the class (win, cursed win, draw, blessed loss, loss) must be
//! equal, and the DTZ equal where Syzygy stores it exactly, or where Syzygy stores it halved
//! (`Rounded`: the true value or one more in magnitude) one of those two. Two conventions
//! differ and are counted apart, not as disagreements: Syzygy reads a mated position as DTZ
//! -1 (it files mate with the losses in one ply) where gamedb says 0 (the game is over); and
//! kings alone have no Syzygy table (a draw in both). A FEN shakmaty cannot read counts as a
//! disagreement.

use std::collections::BTreeMap;
use std::sync::Mutex;

use gamedb::game::{standing, Standing, Wdl50};
use gamedb::{Table, ValueKind};
use rayon::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position, PositionError, Role};
use shakmaty_syzygy::{Dtz, MaybeRounded, Tablebase, Wdl};

/// What one ending's positions gave.
#[derive(Default, Clone, Copy, Debug)]
pub struct Tally {
    pub positions: u64,
    pub wdl_equal: u64,
    pub dtz_exact: u64,
    pub dtz_rounded: u64,
    pub mates: u64,
    pub kings_alone: u64,
    pub differ: u64,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.positions += o.positions;
        self.wdl_equal += o.wdl_equal;
        self.dtz_exact += o.dtz_exact;
        self.dtz_rounded += o.dtz_rounded;
        self.mates += o.mates;
        self.kings_alone += o.kings_alone;
        self.differ += o.differ;
    }
}

/// The comparison: a tally per ending (Syzygy's names) and the first disagreements.
pub struct Report {
    pub endings: BTreeMap<String, Tally>,
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

/// The Syzygy tables of `dir`, mapped.
pub fn tablebase(dir: &str) -> Result<(Tablebase<Chess>, usize), String> {
    // Safety: the files are not changed while mapped (they were made before and are only read).
    let mut tb = unsafe { Tablebase::<Chess>::with_mmap_filesystem() };
    let files = tb.add_directory(dir).map_err(|e| format!("{dir}: {e}"))?;
    Ok((tb, files))
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
/// table: a probe costs microseconds).
pub fn compare(table: &Table, tb: &Tablebase<Chess>, every: u64) -> Report {
    let rules = table.rules();
    // A table of distances to mate: compared by win, draw and loss alone.
    let by_class = table.value_kind() == ValueKind::Remoteness;
    let tallies: Mutex<BTreeMap<String, Tally>> = Mutex::new(BTreeMap::new());
    let shown = Mutex::new(Vec::<String>::new());
    let show = |s: String| {
        let mut v = shown.lock().unwrap();
        if v.len() < 20 {
            v.push(s);
        }
    };
    const CHUNK: u64 = 1 << 14;
    (0..table.len().div_ceil(CHUNK))
        .into_par_iter()
        .for_each(|c| {
            let mut mine: BTreeMap<String, Tally> = BTreeMap::new();
            for i in c * CHUNK..((c + 1) * CHUNK).min(table.len()) {
                if i % every != 0 {
                    continue;
                }
                let Some((value, d)) = standing::unpack(table.raw(i)) else {
                    continue;
                };
                let fen = rules.format(&rules.unrank(i));
                // gamedb's positions include checks no move can give (two sliders on one
                // line, both checking): shakmaty refuses them unless told, Syzygy indexes them.
                let parsed = (fen.parse::<Fen>().ok()).and_then(|f| {
                    (f.into_position::<Chess>(CastlingMode::Standard))
                        .or_else(PositionError::ignore_impossible_check)
                        .ok()
                });
                let Some(pos) = parsed else {
                    let t = mine.entry("?".into()).or_default();
                    t.positions += 1;
                    t.differ += 1;
                    show(format!("{fen}: shakmaty refuses it"));
                    continue;
                };
                let name = ending(&pos);
                let t = mine.entry(name.clone()).or_default();
                t.positions += 1;
                if name == "KvK" {
                    t.kings_alone += 1;
                    continue;
                }
                if by_class {
                    let signed = match tb.probe_wdl_after_zeroing(&pos) {
                        Ok(Wdl::Loss | Wdl::BlessedLoss) => Standing::Lose,
                        Ok(Wdl::Draw) => Standing::Draw,
                        Ok(Wdl::CursedWin | Wdl::Win) => Standing::Win,
                        Err(e) => {
                            t.differ += 1;
                            show(format!("{fen}: Syzygy answers {e}"));
                            continue;
                        }
                    };
                    let ours = if value == Standing::Tie {
                        Standing::Draw
                    } else {
                        value
                    };
                    if ours == signed {
                        t.wdl_equal += 1;
                    } else {
                        t.differ += 1;
                        show(format!("{fen}: gamedb {value:?} in {d}, Syzygy {signed:?}"));
                    }
                    continue;
                }
                let (ours, our_dtz) = (Wdl50::of(value, d), Wdl50::dtz(value, d));
                let (wdl, dtz) = match (tb.probe_wdl_after_zeroing(&pos), tb.probe_dtz(&pos)) {
                    (Ok(w), Ok(z)) => (w, z),
                    (w, z) => {
                        t.differ += 1;
                        show(format!(
                            "{fen}: Syzygy answers {:?} / {:?}",
                            w.err().map(|e| e.to_string()),
                            z.err().map(|e| e.to_string())
                        ));
                        continue;
                    }
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
                if wdl_ok && dtz_ok {
                    if mate {
                        t.mates += 1;
                    } else if rounded {
                        t.dtz_rounded += 1;
                    } else {
                        t.dtz_exact += 1;
                    }
                } else {
                    t.differ += 1;
                    show(format!(
                        "{fen}: gamedb {} dtz {our_dtz}, Syzygy {wdl:?} dtz {dtz:?}",
                        ours.words()
                    ));
                }
            }
            let mut all = tallies.lock().unwrap();
            for (k, v) in mine {
                all.entry(k).or_default().add(&v);
            }
        });
    Report {
        endings: tallies.into_inner().unwrap(),
        shown: shown.into_inner().unwrap(),
    }
}
