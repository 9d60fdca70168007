//! The adaptive plan read from a solved table: at each step the first best weighing of what
//! is known, with named balls, and what to do after each answer of the balance. Balls
//! `1..=n` may be odd; the good balls given are numbered after them.

use std::ops::ControlFlow;

use super::{Known, Weighing, ANSWERS};
use crate::format::entries::UNREACHED;
use crate::{Error, Result};

/// A node of the decision tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    /// The odd ball is found: which, and heavier (`Some(true)`), lighter, or not known.
    Found {
        /// The ball.
        ball: u32,
        /// Heavier or lighter, when known.
        heavier: Option<bool>,
    },
    /// Weigh these balls; then follow the answer.
    Weigh {
        /// The left pan.
        left: Vec<u32>,
        /// The right pan.
        right: Vec<u32>,
        /// Each answer that can come (`left heavy`, `balance`, `right heavy`) and what follows.
        answers: Vec<(&'static str, Node)>,
    },
}

/// The balls of each kind: undecided, heavy-only, light-only, good.
#[derive(Clone, Debug, Default)]
struct Balls {
    u: Vec<u32>,
    h: Vec<u32>,
    l: Vec<u32>,
    good: Vec<u32>,
}

/// The decision tree of the puzzle `w` from its start, from its solved `values` (one byte a
/// position, as the table holds them). Refuses a start that no strategy finishes.
pub(crate) fn tree(w: &Weighing, values: &[u8]) -> Result<Node> {
    let start = Balls {
        u: (1..=w.balls).collect(),
        good: (w.balls + 1..=w.total).collect(),
        ..Balls::default()
    };
    if values[w.index([w.balls, 0, 0]) as usize] == UNREACHED {
        return Err(Error::bad(format!(
            "{} balls: no strategy always finds the odd ball; expected a puzzle that can be solved",
            w.balls
        )));
    }
    node(w, values, start)
}

fn node(w: &Weighing, values: &[u8], b: Balls) -> Result<Node> {
    let k: Known = [b.u.len() as u32, b.h.len() as u32, b.l.len() as u32];
    if w.goal(k) {
        let (ball, heavier) = match (&b.u[..], &b.h[..], &b.l[..]) {
            ([x], _, _) => (*x, None),
            (_, [x], _) => (*x, Some(true)),
            (_, _, [x]) => (*x, Some(false)),
            _ => return Err(Error::internal("a goal with more than one candidate")),
        };
        return Ok(Node::Found { ball, heavier });
    }
    let here = values[w.index(k) as usize] as u32;
    let value = |c: Option<Known>| c.map_or(0, |c| values[w.index(c) as usize] as u32);
    let mut best = None;
    let _ = w.each_weighing(k, here - 1, &mut |wg| {
        if wg.answers(k).iter().all(|&c| value(c) < here) {
            best = Some(wg);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    let wg = best.ok_or_else(|| Error::internal("a position with no weighing one nearer"))?;
    let (gl, gr) = wg.goods();
    let take = |from: &[u32], skip: u32, count: u32| -> Vec<u32> {
        from[skip as usize..(skip + count) as usize].to_vec()
    };
    let [lu, lh, ll] = wg.left;
    let [ru, rh, rl] = wg.right;
    let pans = [
        [take(&b.u, 0, lu), take(&b.h, 0, lh), take(&b.l, 0, ll)],
        [take(&b.u, lu, ru), take(&b.h, lh, rh), take(&b.l, ll, rl)],
    ];
    let left: Vec<u32> = pans[0]
        .concat()
        .into_iter()
        .chain(take(&b.good, 0, gl))
        .collect();
    let right: Vec<u32> = pans[1]
        .concat()
        .into_iter()
        .chain(take(&b.good, gl, gr))
        .collect();
    let off = |all: &[u32], skip: u32| all[skip as usize..].to_vec();
    let mut answers = Vec::new();
    for (a, leaves) in wg.answers(k).iter().enumerate() {
        if leaves.is_none() {
            continue;
        }
        let mut next = match a {
            0 => Balls {
                h: [&pans[0][0][..], &pans[0][1][..]].concat(),
                l: [&pans[1][0][..], &pans[1][2][..]].concat(),
                ..Balls::default()
            },
            1 => Balls {
                u: off(&b.u, lu + ru),
                h: off(&b.h, lh + rh),
                l: off(&b.l, ll + rl),
                ..Balls::default()
            },
            _ => Balls {
                h: [&pans[1][0][..], &pans[1][1][..]].concat(),
                l: [&pans[0][0][..], &pans[0][2][..]].concat(),
                ..Balls::default()
            },
        };
        next.h.sort_unstable();
        next.l.sort_unstable();
        let mut candidate = vec![false; w.total as usize + 1];
        for &x in next.u.iter().chain(&next.h).chain(&next.l) {
            candidate[x as usize] = true;
        }
        next.good = (1..=w.total).filter(|&x| !candidate[x as usize]).collect();
        answers.push((ANSWERS[a], node(w, values, next)?));
    }
    Ok(Node::Weigh {
        left,
        right,
        answers,
    })
}

impl Node {
    /// Follows the tree for ball `ball` heavier or lighter: the verdict and the weighings
    /// used.
    pub(crate) fn follow(&self, ball: u32, heavier: bool) -> (Option<(u32, Option<bool>)>, u32) {
        let mut at = self;
        let mut used = 0;
        loop {
            match at {
                Node::Found { ball, heavier } => return (Some((*ball, *heavier)), used),
                Node::Weigh {
                    left,
                    right,
                    answers,
                } => {
                    used += 1;
                    let answer = match (left.contains(&ball), right.contains(&ball), heavier) {
                        (true, _, true) | (_, true, false) => ANSWERS[0],
                        (true, _, false) | (_, true, true) => ANSWERS[2],
                        _ => ANSWERS[1],
                    };
                    match answers.iter().find(|(a, _)| *a == answer) {
                        Some((_, next)) => at = next,
                        None => return (None, used),
                    }
                }
            }
        }
    }

    /// The tree, indented two spaces a level.
    pub(crate) fn to_text(&self) -> String {
        let mut s = String::new();
        self.write(&mut s, 0, "");
        s
    }

    fn write(&self, s: &mut String, depth: usize, answer: &str) {
        let pad = "  ".repeat(depth);
        let list = |b: &[u32]| b.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        match self {
            Node::Found { ball, heavier } => {
                let how = match heavier {
                    Some(true) => "heavier",
                    Some(false) => "lighter",
                    None => "(heavier or lighter: never weighed)",
                };
                s.push_str(&format!("{pad}{answer}ball {ball} {how}\n"));
            }
            Node::Weigh {
                left,
                right,
                answers,
            } => {
                s.push_str(&format!(
                    "{pad}{answer}weigh {} against {}\n",
                    list(left),
                    list(right)
                ));
                for (a, next) in answers {
                    next.write(s, depth + 1, &format!("{a}: "));
                }
            }
        }
    }

    /// The tree as JSON: `{"weigh": {"left": [..], "right": [..]}, "answers": {"left heavy":
    /// .., ..}}`, a leaf `{"ball": 8, "heavier": true}` (null when not known).
    pub(crate) fn to_json(&self) -> serde_json::Value {
        match self {
            Node::Found { ball, heavier } => serde_json::json!({"ball": ball, "heavier": heavier}),
            Node::Weigh {
                left,
                right,
                answers,
            } => {
                let mut map = serde_json::Map::new();
                for (a, next) in answers {
                    map.insert(a.to_string(), next.to_json());
                }
                serde_json::json!({"weigh": {"left": left, "right": right}, "answers": map})
            }
        }
    }
}
