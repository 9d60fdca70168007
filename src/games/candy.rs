//! The candy game (Xiao Renwu, "过年玩几个数学游戏", part I): n candies, n odd; players alternately take 1..=k;
//! when none are left, the player whose total is even (or odd, by the rule) wins.
//!
//! Only the candies left and the parities of the two totals matter, and since the grand total
//! is odd the opponent's parity follows from the mover's: with `m` left and mover's parity
//! `a`, the opponent's parity is `(1 + m + a) mod 2`. Index: `2·m + a`, `m` in `0..=N`;
//! level `m` is indices `2m, 2m+1`.

use std::ops::{ControlFlow, Range};

use crate::game::{params, Arguments, GameSpec, HeapSequence, Move, Param, Rules, View};
use crate::model::{Game, Indexed, Outcome};
use crate::{Error, Result};

/// Which total wins when the candies run out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinRule {
    /// The player whose total is even wins.
    Even,
    /// The player whose total is odd wins.
    Odd,
}

impl WinRule {
    /// "even" or "odd".
    pub fn name(self) -> &'static str {
        match self {
            WinRule::Even => "even",
            WinRule::Odd => "odd",
        }
    }
}

/// Parameters of a candy table, checked: every game with an odd total `n ≤ max_candies`.
#[derive(Clone, Debug, PartialEq)]
pub struct CandySpec {
    max_candies: u32,
    max_take: u32,
    win: WinRule,
}

/// Largest total of candies a table may cover.
pub(crate) const MAX_CANDIES: u32 = (1 << 30) - 1;

impl CandySpec {
    /// Checks the parameters: an odd `max_candies` in `1..=2^30 − 1`, `max_take` in
    /// `1..=max_candies`.
    pub fn new(max_candies: u32, max_take: u32, win: WinRule) -> Result<CandySpec> {
        if max_candies == 0 || max_candies > MAX_CANDIES || max_candies % 2 == 0 {
            return Err(Error::bad(format!(
                "--max-candies {max_candies}: expected an odd number in 1..={MAX_CANDIES} (the \
                 game is played with an odd total, and the table covers every odd total up to it)"
            )));
        }
        if max_take == 0 || max_take > max_candies {
            return Err(Error::bad(format!(
                "--max-take {max_take}: expected 1..=max-candies ({max_candies})"
            )));
        }
        Ok(CandySpec {
            max_candies,
            max_take,
            win,
        })
    }

    /// The winning parity.
    pub fn win(&self) -> WinRule {
        self.win
    }
}

impl GameSpec for CandySpec {
    const NAME: &'static str = "candy";
    const ABOUT: &'static str =
        "The candy game: n candies (n odd), take 1..k, even (or odd) total wins";
    const PARAMS: &'static [Param] = &[
        Param::required(
            "max-candies",
            "N",
            "Largest (odd) total of candies; every odd total up to it is covered",
        ),
        Param::required("max-take", "K", "Most candies one turn may take"),
        Param::choice("win", &["even", "odd"], "even", "Which total wins"),
    ];

    fn view(&self) -> View {
        let game = Candy::new(self.clone());
        // The last index, N candies left and the mover's total odd, is a state no game of odd
        // total up to N reaches (the totals would add up to N + 2): no position names it.
        let named = game.positions() - 1;
        View::acyclic(game).naming(named)
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        let win = match a.get("win").unwrap_or("even") {
            "even" => WinRule::Even,
            "odd" => WinRule::Odd,
            other => {
                return Err(Error::bad(format!(
                    "--win {}: expected even or odd",
                    crate::game::echo(other)
                )))
            }
        };
        CandySpec::new(a.number("max-candies")?, a.number("max-take")?, win)
    }

    fn parameters(&self) -> String {
        params::write(&[
            ("max-candies", Some(self.max_candies.to_string())),
            ("max-take", Some(self.max_take.to_string())),
            ("win", Some(self.win.name().to_string())),
        ])
    }

    fn stem(&self) -> String {
        format!(
            "candy-n{}-k{}-{}",
            self.max_candies,
            self.max_take,
            self.win.name()
        )
    }

    fn describe(&self) -> String {
        format!(
            "candy game: odd totals up to {} candies, take 1..={}, {} total wins",
            self.max_candies,
            self.max_take,
            self.win.name()
        )
    }

    fn samples() -> Vec<Self> {
        [
            (1, 1, WinRule::Even),
            (21, 3, WinRule::Even),
            (25, 4, WinRule::Odd),
            (15, 15, WinRule::Odd),
        ]
        .into_iter()
        .filter_map(|(n, k, w)| CandySpec::new(n, k, w).ok())
        .collect()
    }
}

/// The candy game over its dense index.
pub struct Candy {
    spec: CandySpec,
}

impl Candy {
    /// The game of `spec`.
    pub fn new(spec: CandySpec) -> Candy {
        Candy { spec }
    }

    /// Index of (candies left, parity of the mover's total).
    pub fn index(left: u64, mine_parity: u64) -> u64 {
        2 * left + (mine_parity & 1)
    }
}

impl Indexed for Candy {
    fn positions(&self) -> u64 {
        2 * (self.spec.max_candies as u64 + 1)
    }
}

impl Game for Candy {
    fn level_count(&self) -> u64 {
        self.spec.max_candies as u64 + 1
    }

    // One level per number of candies left, both parities of the mover's total.
    fn level(&self, m: u64) -> Range<u64> {
        2 * m..2 * m + 2
    }

    fn children<F: FnMut(u64) -> ControlFlow<()>>(&self, pos: u64, mut f: F) -> ControlFlow<()> {
        let (m, a) = (pos / 2, pos % 2);
        let b = (1 + m + a) % 2;
        for t in 1..=m.min(self.spec.max_take as u64) {
            // The opponent moves next, holding parity b.
            f(Candy::index(m - t, b))?;
        }
        ControlFlow::Continue(())
    }

    fn terminal(&self, pos: u64) -> Option<Outcome> {
        if pos >= 2 {
            return None;
        }
        let mine_even = pos % 2 == 0;
        Some(Outcome::from_win(match self.spec.win {
            WinRule::Even => mine_even,
            WinRule::Odd => !mine_even,
        }))
    }
}

impl Rules for Candy {
    /// No candy left: the mover wins when their total has the winning parity.
    fn terminal_outcome(&self, pos: &[u32]) -> Outcome {
        let even = pos[1] % 2 == 0;
        let wins = match self.spec.win {
            WinRule::Even => even,
            WinRule::Odd => !even,
        };
        if wins {
            Outcome::N
        } else {
            Outcome::P
        }
    }

    fn position_form(&self) -> String {
        format!(
            "left,mine,theirs (candies left, the mover's total, the opponent's) with an odd sum of at most {}",
            self.spec.max_candies
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        if pos.len() != 3 {
            return Err(Error::bad(format!(
                "position '{}' has {}; expected {}",
                crate::game::quote(pos),
                crate::game::counted(pos.len(), "number"),
                self.position_form()
            )));
        }
        let total: u64 = pos.iter().map(|&x| x as u64).sum();
        if total % 2 == 0 || total > self.spec.max_candies as u64 {
            return Err(Error::bad(format!(
                "position '{}' has total {total}, but this table holds odd totals up to {}; expected {}",
                crate::game::quote(pos),
                self.spec.max_candies,
                self.position_form()
            )));
        }
        Ok(())
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        Candy::index(pos[0] as u64, pos[1] as u64)
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        let (m, a) = (index / 2, index % 2);
        vec![m as u32, a as u32, ((1 + m + a) % 2) as u32]
    }

    fn board(&self, pos: &[u32]) -> String {
        let candies = format!("{}  {} left", "o".repeat(pos[0].min(60) as usize), pos[0]);
        format!(
            "{}\nthe player to move holds {}, the other player {}",
            candies.trim_start(),
            pos[1],
            pos[2]
        )
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let (left, mine, theirs) = (pos[0], pos[1], pos[2]);
        (1..=left.min(self.spec.max_take))
            .map(|t| Move {
                label: format!("take {t}"),
                leaves: vec![left - t, theirs, mine + t],
            })
            .collect()
    }

    /// The outcome with `m` candies left and the mover's total even, for every `m` (index
    /// `2m`): at odd `m` the game of `m` candies from its start. The octal theorem does not
    /// cover the game (a move's result depends on the parities too), so no period is proved.
    fn heap_sequence(&self) -> Option<HeapSequence> {
        Some(HeapSequence {
            first: 0,
            step: 2,
            max_heap: self.spec.max_candies as u64,
            heap: "candies left".into(),
            note: "the mover's total even".into(),
            theorem: None,
        })
    }
}
