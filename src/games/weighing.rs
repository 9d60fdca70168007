//! The ball-weighing puzzle (the ball-weighing essay, part III; Dyson 1946): `n` balls look
//! alike, one is heavier or lighter than the others (which, unknown), and a balance compares
//! two sets of balls. The weigher wants the fewest weighings that always find the odd ball
//! (with `tell`, and say whether it is heavier or lighter); `genuine` more balls are known to
//! be good from the start (Dyson's variant).
//!
//! A position is what is known, as four counts `u,h,l,g`: balls that may still be heavy or
//! light (undecided), only heavy, only light, and known good. Which balls they are does not
//! matter, only how many: the weigher's choice is how many of each kind go on each pan (the
//! pans equal in count, filled up with good balls), and the balance answers left heavy,
//! balance or right heavy, each leaving a position of the same kind. Undecided balls
//! exist only before the first imbalance (then the others are all good), so `u > 0` comes
//! with `h = l = 0`: the index holds the `n` positions `u,0,0,·` and, for each count
//! `k = h + l` of candidates, the `k + 1` positions `0,h,l,·`.
//!
//! The table holds, for every position, the fewest weighings that finish whatever the balance
//! answers ([`crate::solve::solve_against`], minimax), or unreached when no strategy
//! finishes. Positions are grouped by the number of candidates, the `h,l` positions of `k`
//! candidates before `k,0,0`: every answer of a weighing that can make progress lies in an
//! earlier group. The search skips only weighings with an answer that needs more weighings
//! than are left by counting: `k` candidates of known direction need `3^w ≥ k`; `u`
//! undecided balls need `3^w ≥ 2u − 1` (`2u + 1` with `tell`), since only the answer
//! "always balanced" can hold both directions of one ball, which `tell` cannot accept.

pub mod plan;
pub(crate) mod tree;

use std::ops::{ControlFlow, Range};

use crate::format::entries::UNREACHED;
use crate::format::Solved;
use crate::game::conformance::{self, Broken, Children};
use crate::game::{
    params, Arguments, Choice, Engine, Fact, GameSpec, Move, Param, Rules, Values, View,
};
use crate::model::{Indexed, ValueKind};
use crate::progress::Progress;
use crate::solve::{against_memory, solve_against, Adversary, Saves};
use crate::{Error, Result};

/// Most balls of a table: about 2.45·10^11 positions, under the format's limit; the memory
/// check refuses far fewer on most machines.
pub(crate) const MAX_BALLS: u32 = 700_000;

/// Most good balls given beside them.
pub(crate) const MAX_GENUINE: u32 = 1_000_000;

/// Parameters of a weighing table, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct WeighingSpec {
    balls: u32,
    tell: bool,
    genuine: u32,
}

impl WeighingSpec {
    /// Checks the parameters: `3 ≤ balls ≤ MAX_BALLS`, `genuine ≤ MAX_GENUINE`.
    pub fn new(balls: u32, tell: bool, genuine: u32) -> Result<WeighingSpec> {
        if !(3..=MAX_BALLS).contains(&balls) {
            return Err(Error::bad(format!(
                "--balls {balls}: expected 3..={MAX_BALLS} (with fewer than 3 balls and no good \
                 ball the odd one cannot be told from the others)"
            )));
        }
        if genuine > MAX_GENUINE {
            return Err(Error::bad(format!(
                "--genuine {genuine}: expected 0..={MAX_GENUINE}"
            )));
        }
        Ok(WeighingSpec {
            balls,
            tell,
            genuine,
        })
    }

    /// The balls, one of them odd.
    pub fn balls(&self) -> u32 {
        self.balls
    }

    /// Whether the weigher must also say heavier or lighter.
    pub fn tell(&self) -> bool {
        self.tell
    }

    /// Balls known to be good from the start.
    pub fn genuine(&self) -> u32 {
        self.genuine
    }

    /// The puzzle of these parameters.
    pub fn puzzle(&self) -> Weighing {
        Weighing {
            balls: self.balls,
            tell: self.tell,
            total: self.balls + self.genuine,
        }
    }
}

impl GameSpec for WeighingSpec {
    const NAME: &'static str = "weighing";
    const ABOUT: &'static str = "Ball weighing: N balls, one heavier or lighter, a balance; the \
                                 fewest weighings that always find it (--tell: and say which)";
    const PARAMS: &'static [Param] = &[
        Param::required("balls", "N", "Balls, one of them heavier or lighter (3..)"),
        Param::flag(
            "tell",
            "Also say whether the odd ball is heavier or lighter",
        ),
        Param::optional(
            "genuine",
            "G",
            "Balls known to be good beside them (default 0)",
        ),
    ];
    const VALUES: &'static [ValueKind] = &[ValueKind::Distance];

    fn view(&self) -> View {
        View::with_engine(self.puzzle())
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        let genuine = a.optional_number("genuine")?.unwrap_or(0);
        WeighingSpec::new(a.number("balls")?, a.flag("tell"), genuine)
    }

    fn parameters(&self) -> String {
        params::write(&[
            ("balls", Some(self.balls.to_string())),
            ("tell", self.tell.then(|| "true".into())),
            (
                "genuine",
                (self.genuine > 0).then(|| self.genuine.to_string()),
            ),
        ])
    }

    fn describe(&self) -> String {
        let good = match self.genuine {
            0 => String::new(),
            1 => " and 1 good ball".into(),
            g => format!(" and {g} good balls"),
        };
        format!(
            "ball weighing: {} balls{good}, one heavier or lighter; find it{}",
            self.balls,
            if self.tell { " and say which" } else { "" }
        )
    }

    fn samples() -> Vec<Self> {
        let mut all = Vec::new();
        for balls in [3, 4, 5, 12, 13] {
            for tell in [false, true] {
                all.extend(WeighingSpec::new(balls, tell, 0));
            }
        }
        all.extend(WeighingSpec::new(4, true, 1));
        all
    }
}

/// The weighing puzzle is solved by minimax against the balance ([`Adversary`]), not over
/// `Game`.
impl Engine for Weighing {
    fn solve(&self, _kind: ValueKind, progress: &dyn Progress, _: &dyn Saves) -> Result<Solved> {
        Ok(Solved::Distances(solve_against(self, progress)?))
    }

    fn memory(&self, _kind: ValueKind) -> u64 {
        against_memory(self.positions())
    }

    fn children(&self) -> std::result::Result<Option<Children>, Broken> {
        conformance::adversary(self).map(Some)
    }
}

impl Indexed for Weighing {
    fn positions(&self) -> u64 {
        offset(self.balls as u64 + 1)
    }
}

/// Index of the first position with `k ≥ 1` candidates: groups of `j + 2` positions for
/// `j = 1..k` (the `j + 1` positions `0,h,l` and then `j,0,0`).
fn offset(k: u64) -> u64 {
    (k - 1) * (k + 4) / 2
}

/// Smallest `w` with `3^w ≥ x`.
pub(crate) fn log3_ceil(x: u64) -> u32 {
    let (mut w, mut p) = (0, 1u64);
    while p < x {
        p = p.saturating_mul(3);
        w += 1;
    }
    w
}

/// A weighing: how many undecided, heavy-only and light-only balls go on each pan; the pan
/// with fewer gets good balls to even the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Weigh {
    /// Left pan: undecided, heavy-only, light-only.
    pub left: [u32; 3],
    /// Right pan: the same.
    pub right: [u32; 3],
}

/// What is known: undecided, heavy-only, light-only candidates (good balls are the rest).
pub(crate) type Known = [u32; 3];

/// The answers of the balance, in the order left heavy, balance, right heavy.
pub(crate) const ANSWERS: [&str; 3] = ["left heavy", "balance", "right heavy"];

impl Weigh {
    /// Good balls on the left and on the right.
    pub(crate) fn goods(&self) -> (u32, u32) {
        let (l, r): (u32, u32) = (self.left.iter().sum(), self.right.iter().sum());
        (r.saturating_sub(l), l.saturating_sub(r))
    }

    /// What each answer leaves (`None` for an answer that cannot come: no candidate left).
    pub(crate) fn answers(&self, k: Known) -> [Option<Known>; 3] {
        let [lu, lh, ll] = self.left;
        let [ru, rh, rl] = self.right;
        let some = |c: Known| (c.iter().any(|&x| x > 0)).then_some(c);
        [
            some([0, lu + lh, ru + rl]),
            some([k[0] - lu - ru, k[1] - lh - rh, k[2] - ll - rl]),
            some([0, ru + rh, lu + ll]),
        ]
    }

    /// `weigh 3U 1G against 4U`.
    pub(crate) fn label(&self) -> String {
        let (gl, gr) = self.goods();
        let pan = |p: [u32; 3], g: u32| {
            let parts: Vec<String> = [(p[0], "U"), (p[1], "H"), (p[2], "L"), (g, "G")]
                .iter()
                .filter(|(c, _)| *c > 0)
                .map(|(c, k)| format!("{c}{k}"))
                .collect();
            parts.join(" ")
        };
        format!(
            "weigh {} against {}",
            pan(self.left, gl),
            pan(self.right, gr)
        )
    }
}

/// The weighing puzzle of one table: the solvers' and the lookups' view.
#[derive(Clone, Debug)]
pub struct Weighing {
    balls: u32,
    tell: bool,
    /// Balls in all, the good ones given included.
    total: u32,
}

impl Weighing {
    /// The candidates at an index.
    pub(crate) fn known(&self, i: u64) -> Known {
        let k = self.group(i);
        let r = (i - offset(k)) as u32;
        let k = k as u32;
        if r <= k {
            [0, r, k - r]
        } else {
            [k, 0, 0]
        }
    }

    /// The index of checked candidates.
    pub(crate) fn index(&self, k: Known) -> u64 {
        match k {
            [0, h, l] => offset((h + l) as u64) + h as u64,
            [u, _, _] => offset(u as u64) + u as u64 + 1,
        }
    }

    /// The number of candidates of the positions of index `i`.
    fn group(&self, i: u64) -> u64 {
        // Largest k with offset(k) ≤ i: k² + 3k − 4 ≤ 2i.
        let mut k = ((((25 + 8 * i) as f64).sqrt() - 3.0) / 2.0) as u64;
        k = k.max(1);
        while offset(k + 1) <= i {
            k += 1;
        }
        while k > 1 && offset(k) > i {
            k -= 1;
        }
        k
    }

    /// Good balls of a position.
    fn good(&self, k: Known) -> u32 {
        self.total - k[0] - k[1] - k[2]
    }

    /// Whether the odd ball is found (and its direction known, with `tell`).
    pub(crate) fn goal(&self, k: Known) -> bool {
        match k {
            [0, h, l] => h + l == 1,
            [u, _, _] => u == 1 && !self.tell,
        }
    }

    /// Fewest weighings by counting alone (see the module docs).
    pub(crate) fn counting_bound(&self, k: Known) -> u32 {
        match k {
            [0, h, l] => log3_ceil((h + l) as u64),
            [u, _, _] if self.tell => log3_ceil(2 * u as u64 + 1),
            [u, _, _] => log3_ceil(2 * u as u64 - 1),
        }
    }

    /// Calls `f` with every weighing of `k` that makes progress (no answer leaves `k` as it
    /// was), one of each pair that differ by swapping the pans, skipping those with an answer
    /// that needs more than `within` weighings by counting.
    pub(crate) fn each_weighing(
        &self,
        k: Known,
        within: u32,
        f: &mut dyn FnMut(Weigh) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let g = self.good(k);
        let cap = 3u64.checked_pow(within).unwrap_or(u64::MAX);
        let fits = |c: Option<Known>| c.is_none_or(|c| self.counting_bound(c) <= within);
        let u = k[0];
        if u > 0 {
            for a in (1..=u.min(cap.min(u as u64) as u32)).rev() {
                let b_most = a.min(u - a).min((cap - a as u64).min(u as u64) as u32);
                for b in (a.saturating_sub(g)..=b_most).rev() {
                    let w = Weigh {
                        left: [a, 0, 0],
                        right: [b, 0, 0],
                    };
                    if fits(w.answers(k)[1]) {
                        f(w)?;
                    }
                }
            }
            return ControlFlow::Continue(());
        }
        // Left heavy leaves h1 + l2, right heavy h2 + l1, balance the rest: each at most the
        // cap c, and none all of them; the pans h1 + l1 and h2 + l2 differ by at most g. The
        // ranges below are those bounds solved for each count in turn, so that no loop runs
        // over counts that cannot fit (signed arithmetic: the bounds may go below zero).
        let [_, h, l] = k.map(i64::from);
        let (g, all) = (g as i64, h + l);
        let c = cap.min(all as u64) as i64;
        for h1 in (0..=h.min(c)).rev() {
            let l2_most = l.min(c - h1);
            // The balance's rest − c ≤ l1 ≤ h2 + l2 + g − h1 gives 2·l2 ≥ h + l − 2·h2 − g − c.
            let h2_least = (h1 - g - l2_most)
                .max(h - h1 - c)
                .max((h + l - g - c - 2 * l2_most + 1).div_euclid(2))
                .max(0);
            let h2_most = h1.min(h - h1).min(c);
            for h2 in (h2_least..=h2_most).rev() {
                let l2_least = (h1 - h2 - g)
                    .max(h + l - h1 - 2 * c)
                    .max((h + l - 2 * h2 - g - c + 1).div_euclid(2))
                    .max(0);
                for l2 in (l2_least..=l2_most).rev() {
                    let rest = h - h1 - h2 + l - l2;
                    let lo = (h2 + l2 - h1 - g).max(rest - c).max(0);
                    let hi = (h2 + l2 + g - h1).min(c - h2).min(l - l2);
                    for l1 in (lo..=hi).rev() {
                        if h1 == h2 && l1 < l2 {
                            continue;
                        }
                        let sizes = [h1 + l2, h2 + l1, rest - l1];
                        if sizes.contains(&all) {
                            continue;
                        }
                        f(Weigh {
                            left: [0, h1 as u32, l1 as u32],
                            right: [0, h2 as u32, l2 as u32],
                        })?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The position of candidates `k`, with its good balls.
    fn position(&self, k: Known) -> Vec<u32> {
        vec![k[0], k[1], k[2], self.good(k)]
    }
}

impl Adversary for Weighing {
    fn levels(&self) -> Vec<Range<u64>> {
        let mut levels = Vec::with_capacity(2 * self.balls as usize);
        for k in 1..=self.balls as u64 {
            let at = offset(k);
            levels.push(at..at + k + 1);
            levels.push(at + k + 1..at + k + 2);
        }
        levels
    }

    fn is_goal(&self, i: u64) -> bool {
        self.goal(self.known(i))
    }

    fn lower_bound(&self, i: u64) -> u32 {
        self.counting_bound(self.known(i))
    }

    fn choices(&self, i: u64, within: u32, f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>) {
        let k = self.known(i);
        let mut answers = Vec::with_capacity(3);
        let _ = self.each_weighing(k, within, &mut |w| {
            answers.clear();
            answers.extend(w.answers(k).iter().flatten().map(|&c| self.index(c)));
            f(&answers)
        });
    }
}

impl Rules for Weighing {
    fn parse(&self, text: &str) -> Result<Vec<u32>> {
        let mut pos = crate::game::parse_numbers(text, self.position_form())?;
        if let [u] = pos[..] {
            // One number: that many undecided balls, the others good.
            if u > self.balls {
                return crate::game::bad_position(
                    self,
                    &pos,
                    format!("{u} undecided balls, but only {} may be odd", self.balls),
                );
            }
            pos = vec![u, 0, 0, self.total - u];
        }
        self.check(&pos)?;
        Ok(pos)
    }

    fn position_form(&self) -> String {
        format!(
            "u,h,l,g: how many balls may be heavy or light, only heavy, only light, and are good, \
             adding to {} with u + h + l of 1..={} and h = l = 0 while u > 0; or u alone for \
             u,0,0,g (e.g. {} for the start, or 0,1,2,{})",
            self.total,
            self.balls,
            self.balls,
            self.total - 3
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        let bad = |what: String| crate::game::bad_position(self, pos, what);
        let &[u, h, l, g] = pos else {
            return bad(format!(
                "{} instead of 4",
                crate::game::counted(pos.len(), "number")
            ));
        };
        let sum = [u, h, l, g].iter().map(|&x| x as u64).sum::<u64>();
        if sum != self.total as u64 {
            return bad(format!(
                "the counts add to {sum}, not to the {} balls",
                self.total
            ));
        }
        let candidates = u as u64 + h as u64 + l as u64;
        if candidates == 0 {
            return bad("no ball could be the odd one".into());
        }
        if candidates > self.balls as u64 {
            return bad(format!(
                "{candidates} candidates, more than the {} balls that may be odd",
                self.balls
            ));
        }
        if u > 0 && h + l > 0 {
            return bad(
                "undecided balls beside heavy-only or light-only ones (after the first \
                 imbalance every ball is decided or good)"
                    .into(),
            );
        }
        Ok(())
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        self.index([pos[0], pos[1], pos[2]])
    }

    /// What is known, in words.
    fn board(&self, pos: &[u32]) -> String {
        format!(
            "{} balls may be heavy or light, {} only heavy, {} only light; {} known good",
            pos[0], pos[1], pos[2], pos[3]
        )
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        self.position(self.known(index))
    }

    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let choices = Rules::choices(self, pos, &mut |_| true).unwrap_or_default();
        choices
            .into_iter()
            .flat_map(|c| {
                let label = c.label;
                c.answers.into_iter().map(move |a| Move {
                    label: format!("{label}: {}", a.label),
                    leaves: a.leaves,
                })
            })
            .collect()
    }

    fn choices(
        &self,
        pos: &[u32],
        keep: &mut dyn FnMut(&[Vec<u32>]) -> bool,
    ) -> Option<Vec<Choice>> {
        let k = [pos[0], pos[1], pos[2]];
        let mut out = Vec::new();
        let _ = self.each_weighing(k, u32::MAX, &mut |w| {
            let answers: Vec<(usize, Vec<u32>)> = w
                .answers(k)
                .iter()
                .enumerate()
                .filter_map(|(a, c)| c.map(|c| (a, self.position(c))))
                .collect();
            let leaves: Vec<Vec<u32>> = answers.iter().map(|(_, p)| p.clone()).collect();
            if keep(&leaves) {
                out.push(Choice {
                    label: w.label(),
                    answers: answers
                        .into_iter()
                        .map(|(a, leaves)| Move {
                            label: ANSWERS[a].to_string(),
                            leaves,
                        })
                        .collect(),
                });
            }
            ControlFlow::Continue(())
        });
        Some(out)
    }

    fn start(&self) -> Option<Vec<u32>> {
        Some(self.position([self.balls, 0, 0]))
    }

    fn is_goal(&self, pos: &[u32]) -> bool {
        self.goal([pos[0], pos[1], pos[2]])
    }

    fn facts(&self, values: &dyn Values) -> Vec<Fact> {
        let start = self.index([self.balls, 0, 0]);
        let v = values.raw(start);
        let counted = self.counting_bound([self.balls, 0, 0]);
        let text = if v == UNREACHED as u32 {
            "impossible: no strategy always finds the odd ball".to_string()
        } else {
            format!("{v} (counting alone needs at least {counted})")
        };
        vec![Fact {
            key: "start_weighings".into(),
            label: format!("fewest weighings from the start ({})", self.balls),
            text,
            json: (v != UNREACHED as u32)
                .then_some(v)
                .map_or(serde_json::Value::Null, Into::into),
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_is_dense_and_grouped_by_candidates() {
        let w = WeighingSpec::new(9, true, 0).unwrap().puzzle();
        let n = w.positions();
        assert_eq!(n, 9 * 14 / 2);
        for i in 0..n {
            assert_eq!(w.index(w.known(i)), i);
        }
        assert_eq!(w.known(0), [0, 0, 1]);
        assert_eq!(w.known(2), [1, 0, 0]);
        assert_eq!(w.known(n - 1), [9, 0, 0]);
    }

    #[test]
    fn twelve_balls_take_three_weighings_thirteen_four_with_tell() {
        for (balls, tell, want) in [(12, true, 3), (12, false, 3), (13, false, 3), (13, true, 4)] {
            let spec = WeighingSpec::new(balls, tell, 0).unwrap();
            let w = spec.puzzle();
            let v = solve_against(&w, &()).unwrap();
            assert_eq!(v[w.index([balls, 0, 0]) as usize], want, "{balls} {tell}");
        }
    }
}
