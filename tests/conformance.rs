//! The conformance checks of `gamedb::game::conformance`: every registered game passes them
//! on its samples (a new game is checked without a line of test code), and they fail loudly on
//! games broken on purpose, so they cannot pass vacuously.

use std::collections::BTreeSet;
use std::ops::{ControlFlow, Range};

use gamedb::format::Solved;
use gamedb::game::conformance;
use gamedb::game::{Move, Rules};
use gamedb::model::{Game, Indexed, Outcome, Retro, ValueKind};
use gamedb::solve::Puzzle;
use gamedb::{Error, Result, Spec};

#[test]
fn every_registered_game_conforms_on_its_samples() {
    let samples = Spec::samples();
    let sampled: BTreeSet<&str> = samples.iter().map(|s| s.name()).collect();
    let registered: BTreeSet<&str> = gamedb::registry().names().into_iter().collect();
    assert_eq!(sampled, registered, "every registered game has samples");
    let mut failures = Vec::new();
    for spec in &samples {
        let started = std::time::Instant::now();
        match spec.view().conformance() {
            Ok(checked) => {
                println!(
                    "{:>8} positions checked in {:>6.3} s: {}",
                    checked,
                    started.elapsed().as_secs_f64(),
                    spec.describe()
                );
                assert!(
                    checked > 0 && checked <= spec.positions(),
                    "{}: {checked} positions checked of {}",
                    spec.describe(),
                    spec.positions()
                );
            }
            Err(what) => failures.push(format!("{}: {what}", spec.describe())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What is wrong with a [`Subtraction`] game, on purpose.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Flaw {
    None,
    /// Position 3 may also move up to 4, a higher level.
    MovesUp,
    /// Position 2 says it is terminal although it has moves.
    TerminalWithMoves,
    /// The levels skip position 4.
    LevelsWithAGap,
    /// `children` goes on after the callback asked it to stop.
    IgnoresBreak,
    /// `parents` forgets that 5 has a move to 3.
    ForgetsAParent,
    /// `rank` is off by one above 4 (not the inverse of `unrank`).
    RankOffByOne,
    /// The lookup lists a move from 5 to 1, which the solver does not know.
    ExtraLookupMove,
    /// The solver's view says the empty heap is N (as misère play would) while the rules say
    /// normal play: structurally sound, wrong in value.
    TerminalFlipped,
    /// Misère play, said by both views alike: sound.
    Misere,
}

/// A heap of 0..=N counters; a move takes 1 or 2. Position `n` is index `n`, each its own
/// level; 0 has no move (normal play: P).
struct Subtraction {
    n: u64,
    flaw: Flaw,
}

const N: u64 = 8;

fn sub(flaw: Flaw) -> Subtraction {
    Subtraction { n: N, flaw }
}

impl Subtraction {
    fn kids(&self, pos: u64) -> Vec<u64> {
        let mut out: Vec<u64> = (1..=2).filter(|&t| t <= pos).map(|t| pos - t).collect();
        if self.flaw == Flaw::MovesUp && pos == 3 {
            out.push(4);
        }
        out
    }
}

impl Indexed for Subtraction {
    fn positions(&self) -> u64 {
        self.n + 1
    }
}

impl Game for Subtraction {
    fn level_count(&self) -> u64 {
        match self.flaw {
            Flaw::LevelsWithAGap => self.n,
            _ => self.n + 1,
        }
    }

    fn level(&self, l: u64) -> Range<u64> {
        let i = match self.flaw {
            Flaw::LevelsWithAGap if l >= 4 => l + 1,
            _ => l,
        };
        i..i + 1
    }

    fn children<F: FnMut(u64) -> ControlFlow<()>>(&self, pos: u64, mut f: F) -> ControlFlow<()> {
        let mut stopped = ControlFlow::Continue(());
        for c in self.kids(pos) {
            if f(c).is_break() {
                stopped = ControlFlow::Break(());
                if self.flaw != Flaw::IgnoresBreak {
                    return stopped;
                }
            }
        }
        stopped
    }

    fn terminal(&self, pos: u64) -> Option<Outcome> {
        let end = match self.flaw {
            Flaw::TerminalFlipped | Flaw::Misere => Outcome::N,
            _ => Outcome::P,
        };
        (pos == 0 || (self.flaw == Flaw::TerminalWithMoves && pos == 2)).then_some(end)
    }
}

impl Retro for Subtraction {
    fn parents<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
        for t in 1..=2 {
            let p = pos + t;
            if p <= self.n && !(self.flaw == Flaw::ForgetsAParent && (p, pos) == (5, 3)) {
                f(p);
            }
        }
    }
}

impl Rules for Subtraction {
    fn terminal_outcome(&self, _pos: &[u32]) -> Outcome {
        if self.flaw == Flaw::Misere {
            Outcome::N
        } else {
            Outcome::P
        }
    }

    fn position_form(&self) -> String {
        format!("one heap of 0..={}", self.n)
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        if pos.len() == 1 && pos[0] as u64 <= self.n {
            Ok(())
        } else {
            Err(Error::BadInput(format!(
                "{pos:?}: expected {}",
                self.position_form()
            )))
        }
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        let i = pos[0] as u64;
        if self.flaw == Flaw::RankOffByOne && i > 4 {
            return i - 1;
        }
        i
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        vec![index as u32]
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let mut kids = self.kids(pos[0] as u64);
        if self.flaw == Flaw::ExtraLookupMove && pos[0] == 5 {
            kids.push(1);
        }
        kids.into_iter()
            .map(|c| Move {
                label: format!("take {}", pos[0] as u64 - c),
                leaves: vec![c as u32],
            })
            .collect()
    }
}

/// Every check of the conformance module that fits the game, as a game file runs them.
fn check(g: &Subtraction) -> conformance::Checked {
    let children = conformance::game(g)?;
    conformance::retro(g, &children)?;
    conformance::rules(g, g.positions(), Some(&children))
}

#[test]
fn a_sound_game_passes() {
    assert_eq!(check(&sub(Flaw::None)), Ok(N + 1));
}

#[test]
fn broken_games_are_caught_with_the_position_named() {
    for (flaw, says) in [
        (Flaw::MovesUp, "position 3 (level 3) has a move to 4"),
        (
            Flaw::TerminalWithMoves,
            "position 2: terminal is Some(P) but it has 2 children",
        ),
        (Flaw::LevelsWithAGap, "levels are not consecutive ranges"),
        (
            Flaw::IgnoresBreak,
            "went on after the callback asked it to stop",
        ),
        (Flaw::ForgetsAParent, "position 3: parents() gives {4}"),
        (Flaw::RankOffByOne, "index 5 unranks to 5, which ranks to 4"),
        (
            Flaw::ExtraLookupMove,
            "the lookup's moves lead to {1, 3, 4}",
        ),
    ] {
        match check(&sub(flaw)) {
            Ok(n) => panic!("{flaw:?}: passed ({n} positions checked)"),
            Err(what) => assert!(what.what.contains(says), "{flaw:?}: {what}"),
        }
    }
}

/// A ring of positions where a move goes one step clockwise only (not reversible), or both
/// ways (a sound puzzle).
struct Ring {
    both_ways: bool,
}

impl Indexed for Ring {
    fn positions(&self) -> u64 {
        6
    }
}

impl Puzzle for Ring {
    fn goals(&self) -> Vec<u64> {
        vec![0]
    }

    fn neighbours<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
        f((pos + 1) % 6);
        if self.both_ways {
            f((pos + 5) % 6);
        }
    }
}

#[test]
fn puzzles_must_be_reversible() {
    let sound = conformance::puzzle(&Ring { both_ways: true }).map(|c| c.len());
    assert_eq!(sound, Ok(6));
    let err = conformance::puzzle(&Ring { both_ways: false }).unwrap_err();
    assert!(
        err.what
            .contains("position 0 has a move to 1, which has no move back"),
        "{err}"
    );
}

#[test]
fn every_registered_game_satisfies_its_own_recurrence_for_every_kind() {
    let mut failures = Vec::new();
    let mut kinds_seen = std::collections::HashSet::new();
    for spec in &Spec::samples() {
        let started = std::time::Instant::now();
        match spec.check_values() {
            Ok(checked) => {
                println!(
                    "{:>8} values checked in {:>6.3} s: {} ({})",
                    checked,
                    started.elapsed().as_secs_f64(),
                    spec.describe(),
                    spec.value_kinds()
                        .iter()
                        .map(|k| k.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                // Every kind but the exempt extension tables checks at least one position.
                let exact = spec
                    .value_kinds()
                    .iter()
                    .filter(|&&k| k != ValueKind::Extension)
                    .count() as u64;
                assert!(
                    checked <= exact * spec.positions() && (exact == 0 || checked > 0),
                    "{}: {checked} values checked",
                    spec.describe()
                );
                kinds_seen.extend(spec.value_kinds().iter().copied());
            }
            Err(what) => failures.push(format!("{}: {what}", spec.describe())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for kind in [ValueKind::Outcome, ValueKind::Grundy, ValueKind::Distance] {
        assert!(
            kinds_seen.contains(&kind),
            "no sample holds {} values",
            kind.name()
        );
    }
}

/// The first sample of the game named `name` that supports `kind`, solved.
fn solved_sample(name: &str, kind: ValueKind, pick: impl Fn(&Spec) -> bool) -> (Spec, Solved) {
    let spec = Spec::samples()
        .into_iter()
        .find(|s| s.name() == name && s.value_kinds().contains(&kind) && pick(s))
        .unwrap_or_else(|| panic!("no {name} sample with {} values", kind.name()));
    let solved = spec.solve(kind, &()).unwrap();
    assert_eq!(spec.check_solved(&solved).map(|n| n > 0), Ok(true));
    (spec, solved)
}

/// `check_solved` on `solved` with entry `i` set to `v` fails and says `says`.
/// The index of the first goal of a puzzle, as its rules say.
fn first_goal(spec: &Spec) -> u64 {
    let rules = spec.view().shared_rules();
    (0..spec.positions())
        .find(|&i| rules.is_goal(&rules.unrank(i)))
        .expect("a goal")
}

fn altered_fails(spec: &Spec, solved: &mut Solved, i: u64, v: u32, says: &[&str]) {
    let was = solved.value(i);
    assert_ne!(was, v);
    solved.set_value(i, v);
    let err = spec
        .check_solved(solved)
        .expect_err("an altered table passes the value check");
    for s in says {
        assert!(
            err.what.contains(s),
            "{}: {err:?} does not say {s:?}",
            spec.describe()
        );
    }
    solved.set_value(i, was);
    assert!(spec.check_solved(solved).is_ok());
}

#[test]
fn an_outcome_flipped_in_a_solved_table_is_caught() {
    // Nim 3x4: index 0 is the empty position (terminal, P in normal play).
    let (spec, mut solved) = solved_sample("nim", ValueKind::Outcome, |s| {
        !s.describe().contains("misère") && s.positions() > 20
    });
    altered_fails(
        &spec,
        &mut solved,
        0,
        1,
        &[
            "outcome values: ",
            "(index 0): outcome N, expected P",
            "it has no move and the rules make such a position P",
        ],
    );
    // A P-position other than the terminal one, flipped to N: each move reaches an N-position.
    let p = (1..solved.len()).find(|&i| solved.value(i) == 0).unwrap();
    altered_fails(
        &spec,
        &mut solved,
        p,
        1,
        &[
            &format!("(index {p}): outcome N, expected P"),
            "moves reaches an N-position",
        ],
    );
    // An N-position flipped to P.
    let n = (0..solved.len()).find(|&i| solved.value(i) == 1).unwrap();
    altered_fails(
        &spec,
        &mut solved,
        n,
        0,
        &["outcome P, expected N", "reaches a P-position"],
    );
}

#[test]
fn a_grundy_value_changed_in_a_solved_table_is_caught() {
    let (spec, mut solved) = solved_sample("wythoff", ValueKind::Grundy, |s| s.positions() > 100);
    let i = (0..solved.len()).find(|&i| solved.value(i) == 3).unwrap();
    altered_fails(
        &spec,
        &mut solved,
        i,
        4,
        &[
            "grundy values: ",
            &format!("(index {i}): Grundy value 4, expected 3 (the mex of its moves' values"),
        ],
    );
    // A terminal Grundy value of 1 (Chomp's single cell, index 0... found by having no moves).
    let (spec, mut solved) = solved_sample("chomp", ValueKind::Grundy, |s| s.positions() > 10);
    let rules = spec.view().shared_rules();
    let t = (0..solved.len())
        .find(|&i| rules.moves(&rules.unrank(i)).is_empty())
        .unwrap();
    altered_fails(
        &spec,
        &mut solved,
        t,
        1,
        &["Grundy value 1, expected 0", "{}"],
    );
}

#[test]
fn a_value_or_a_remoteness_changed_in_a_solved_table_is_caught() {
    use gamedb::format::entries::standing;
    use gamedb::model::Standing;
    let (spec, mut solved) = solved_sample("mnk", ValueKind::Remoteness, |s| {
        s.parameters() == "rows=3,cols=3,k=3"
    });
    // The empty board is the last index: a tie in 9.
    let start = solved.len() - 1;
    assert_eq!(
        standing::unpack(solved.value(start)),
        Some((Standing::Tie, 9))
    );
    let keep = solved.value(start) & u32::from(standing::REACHABLE);
    let entry = |v, r| u32::from(standing::pack(v, r)) | keep;
    altered_fails(
        &spec,
        &mut solved,
        start,
        entry(Standing::Tie, 8),
        &["remoteness values: ", "tie in 8, expected tie in 9"],
    );
    altered_fails(
        &spec,
        &mut solved,
        start,
        entry(Standing::Win, 9),
        &["win in 9, expected tie in 9"],
    );
    altered_fails(
        &spec,
        &mut solved,
        start,
        entry(Standing::Draw, 0),
        &["draw, expected tie in 9"],
    );
    // An index that is no position must hold no value.
    let rules = spec.view().shared_rules();
    let illegal = (0..solved.len())
        .find(|&i| rules.check(&rules.unrank(i)).is_err())
        .unwrap();
    altered_fails(
        &spec,
        &mut solved,
        illegal,
        entry(Standing::Lose, 0),
        &["but the rules accept no position there (expected 0)"],
    );
}

#[test]
fn a_wlt_value_changed_in_a_solved_table_is_caught() {
    use gamedb::format::entries::wlt;
    use gamedb::model::Wlt;
    let (spec, mut solved) = solved_sample("mnk", ValueKind::Wlt, |s| {
        s.parameters() == "rows=3,cols=3,k=3"
    });
    // The empty board is the last index: a tie, which the table keeps as tie or draw.
    let start = solved.len() - 1;
    assert_eq!(wlt::value(solved.value(start)), Some(Wlt::TieOrDraw));
    let code = |v| u32::from(wlt::code(v));
    altered_fails(
        &spec,
        &mut solved,
        start,
        code(Wlt::Win),
        &[
            "wlt values: ",
            "win, expected tie or draw",
            "not every move loses",
        ],
    );
    // A won position made lost: one of its moves leaves the opponent a lose.
    let won = (0..solved.len())
        .find(|&i| solved.value(i) == code(Wlt::Win))
        .unwrap();
    altered_fails(
        &spec,
        &mut solved,
        won,
        code(Wlt::Lose),
        &[&format!("(index {won}): lose, expected win")],
    );
    // A lost position where the game goes on made a tie or draw: every move wins for the
    // opponent.
    let rules = spec.view().shared_rules();
    let lost = (0..solved.len())
        .find(|&i| solved.value(i) == code(Wlt::Lose) && !rules.moves(&rules.unrank(i)).is_empty())
        .unwrap();
    altered_fails(
        &spec,
        &mut solved,
        lost,
        code(Wlt::TieOrDraw),
        &["tie or draw, expected lose", "leaves the opponent a win"],
    );
    // An index that is no position must hold no value.
    let illegal = (0..solved.len())
        .find(|&i| rules.check(&rules.unrank(i)).is_err())
        .unwrap();
    altered_fails(
        &spec,
        &mut solved,
        illegal,
        code(Wlt::Lose),
        &["but the rules accept no position there (expected 0)"],
    );
}

#[test]
fn a_distance_changed_in_a_solved_table_is_caught() {
    let (spec, mut solved) = solved_sample("slide", ValueKind::Distance, |_| true);
    let goal = first_goal(&spec);
    altered_fails(
        &spec,
        &mut solved,
        goal,
        1,
        &["distance values: ", "distance 1, expected 0 (it is a goal)"],
    );
    let far = (0..solved.len()).max_by_key(|&i| solved.value(i)).unwrap();
    let d = solved.value(far);
    altered_fails(
        &spec,
        &mut solved,
        far,
        d + 2,
        &[&format!("distance {}, expected {d} (1 + {}", d + 2, d - 1)],
    );
    altered_fails(
        &spec,
        &mut solved,
        far,
        gamedb::format::entries::UNREACHED as u32,
        &["distance 255, expected"],
    );
    // A pattern database: a goal not at 0, or 0 away from the goal.
    let (spec, mut solved) = solved_sample("pdb", ValueKind::Distance, |s| s.positions() > 100);
    let goal = first_goal(&spec);
    altered_fails(
        &spec,
        &mut solved,
        goal,
        1,
        &["distance bound 1, expected 0 (it is a goal)"],
    );
    let other = (0..solved.len()).find(|&i| solved.value(i) == 1).unwrap();
    altered_fails(
        &spec,
        &mut solved,
        other,
        0,
        &["distance bound 0, expected at least 1 (it is not a goal)"],
    );
}

/// The outcomes the crate's solver finds for `g` (from its [`Game`] view), checked against the
/// recurrence of its [`Rules`] view.
fn solved_outcomes_check(g: &Subtraction) -> conformance::Checked {
    let bits = gamedb::solve::solve_outcomes(g, &()).unwrap();
    conformance::values(g, g.positions(), ValueKind::Outcome, &|i| {
        bits.get(i) as u32
    })
}

#[test]
fn a_terminal_value_flipped_in_the_game_is_caught_by_the_value_check_alone() {
    // The solver's view says the empty heap is won for the player to move; the structure
    // checks cannot see it, the values can.
    let flipped = sub(Flaw::TerminalFlipped);
    assert_eq!(check(&flipped), Ok(N + 1), "the structure is sound");
    let err = solved_outcomes_check(&flipped).unwrap_err();
    assert!(
        err.what.contains("0 (index 0): outcome N, expected P (it has no move and the rules make such a position P)"),
        "{err}"
    );
    // The other positions follow the solver's children consistently: only the flipped
    // terminal breaks the recurrence, and it is the one named.
    assert!(
        err.what.starts_with(&format!("1 of {} positions", N + 1)),
        "{err}"
    );
    // Sound games, normal and misère, pass.
    assert_eq!(solved_outcomes_check(&sub(Flaw::None)), Ok(N + 1));
    assert_eq!(solved_outcomes_check(&sub(Flaw::Misere)), Ok(N + 1));
}

#[test]
fn a_wrong_solver_is_caught_by_the_value_check() {
    // Grundy values of the subtraction game {1, 2} are n mod 3; a "solver" that takes them mod
    // 2 agrees at 0 and 1 and goes wrong at 2.
    let g = sub(Flaw::None);
    let right = gamedb::solve::solve_grundy(&g, &()).unwrap();
    assert_eq!(right, (0..=N).map(|n| (n % 3) as u16).collect::<Vec<_>>());
    assert_eq!(
        conformance::values(&g, g.positions(), ValueKind::Grundy, &|i| right[i as usize]
            as u32),
        Ok(N + 1)
    );
    let err =
        conformance::values(&g, g.positions(), ValueKind::Grundy, &|i| (i % 2) as u32).unwrap_err();
    assert!(
        err.what.contains(
            "2 (index 2): Grundy value 0, expected 2 (the mex of its moves' values {0, 1})"
        ),
        "{err}"
    );
    // Grundy values are for normal play: a misère game's table is refused.
    let misere = sub(Flaw::Misere);
    let err = conformance::values(&misere, misere.positions(), ValueKind::Grundy, &|i| {
        right[i as usize] as u32
    })
    .unwrap_err();
    assert!(err.what.contains("Grundy values need normal play"), "{err}");
}
