//! Iterative-deepening A* (Korf 1985): shortest paths in graphs of unit-cost moves, given an
//! admissible lower bound on the distance to a goal. Memory is the depth of the path; each
//! iteration is a depth-first search cut off where `g + h` exceeds the threshold, and the
//! next threshold is the smallest `g + h` that was cut off.
//!
//! The problem is seen through [`IdaProblem`], a mutable state with `apply`/`undo`, so a
//! problem can keep incremental data (ranks, partial heuristic sums) instead of copying
//! states. It knows nothing about particular puzzles.
//!
//! A search may be given a [`Budget`]: a number of expanded states and a deadline it checks as
//! it goes (stopping cleanly, the state unchanged), and a function told how far it got, so a
//! caller can bound a request and show progress on a long search.

use std::time::Instant;

/// A search problem as IDA* needs it: a current state changed in place.
pub trait IdaProblem {
    /// A move from the current state.
    type Move: Copy;

    /// Appends the moves of the current state to `out`, leaving out the one that merely
    /// undoes `last` (the move that led here), if the problem can tell.
    fn moves(&mut self, last: Option<Self::Move>, out: &mut Vec<Self::Move>);

    /// Makes a move.
    fn apply(&mut self, m: Self::Move);

    /// Takes back the last move made (`m`).
    fn undo(&mut self, m: Self::Move);

    /// A lower bound on the number of moves from the current state to a goal (0 at goals).
    /// May stop as soon as it knows the bound exceeds `limit`, returning any value above
    /// `limit` that is still a lower bound.
    fn lower_bound(&mut self, limit: u32) -> u32;

    /// True at a goal.
    fn is_goal(&self) -> bool;

    /// The parity every path length from the current state to a goal has, when the problem
    /// knows it (sliding puzzles do): thresholds then skip lengths no solution can have.
    fn length_parity(&self) -> Option<u32> {
        None
    }
}

/// How far a search got: what a [`Budget`]'s progress function is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The current threshold (the length of the paths being tried).
    pub threshold: u32,
    /// States expanded so far.
    pub expanded: u64,
    /// States generated so far.
    pub generated: u64,
}

/// Limits a search checks as it goes, and whom it tells how far it got. The default has no
/// limits and tells no one.
#[derive(Clone, Copy, Default)]
pub struct Budget<'a> {
    /// Stop rather than expand more than this many states.
    pub max_nodes: Option<u64>,
    /// Stop at this instant (checked every 4096 expanded states).
    pub deadline: Option<Instant>,
    /// Called every 4096 expanded states and at each new threshold.
    pub progress: Option<&'a (dyn Fn(Searched) + Sync)>,
}

/// Expanded states between two looks at the clock and the progress function.
pub(crate) const CHECK_EVERY: u64 = 4096;

/// Why a search stopped before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// It would have expanded more states than [`Budget::max_nodes`].
    Nodes,
    /// It reached [`Budget::deadline`].
    Deadline,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdaOutcome<M> {
    /// A shortest path of moves to a goal, first move first; `None` when no path of at most
    /// the length limit exists, or when the search stopped (see `stopped`).
    pub path: Option<Vec<M>>,
    /// Why the search stopped before finishing, if it did (`path` is then `None`).
    pub stopped: Option<Stopped>,
    /// States whose moves were generated.
    pub expanded: u64,
    /// States reached by a move (each one's lower bound was evaluated).
    pub generated: u64,
    /// Thresholds tried.
    pub iterations: u32,
}

struct Run<'a, 'b, P: IdaProblem> {
    problem: &'b mut P,
    path: Vec<P::Move>,
    buffers: Vec<Vec<P::Move>>,
    expanded: u64,
    generated: u64,
    budget: Budget<'a>,
    /// The next expanded count at which to look at the budget.
    check_at: u64,
    threshold: u32,
    stopped: Option<Stopped>,
}

enum Step {
    Found,
    /// Smallest cut-off `g + h` below this node (`u32::MAX` if none).
    Exceeded(u32),
    /// The budget ran out.
    Stopped,
}

impl<P: IdaProblem> Run<'_, '_, P> {
    /// Looks at the budget; true when the search must stop.
    fn over_budget(&mut self) -> bool {
        if let Some(max) = self.budget.max_nodes {
            if self.expanded > max {
                self.expanded = max;
                self.stopped = Some(Stopped::Nodes);
                return true;
            }
        }
        if matches!(self.budget.deadline, Some(d) if Instant::now() >= d) {
            self.stopped = Some(Stopped::Deadline);
            return true;
        }
        self.tell();
        self.check_at = self.expanded + CHECK_EVERY;
        if let Some(max) = self.budget.max_nodes {
            self.check_at = self.check_at.min(max + 1);
        }
        false
    }

    fn tell(&self) {
        if let Some(f) = self.budget.progress {
            f(Searched {
                threshold: self.threshold,
                expanded: self.expanded,
                generated: self.generated,
            });
        }
    }

    fn dfs(&mut self, g: u32, bound: u32, last: Option<P::Move>) -> Step {
        self.expanded += 1;
        if self.expanded >= self.check_at && self.over_budget() {
            return Step::Stopped;
        }
        let depth = g as usize;
        if self.buffers.len() <= depth {
            self.buffers.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        moves.clear();
        self.problem.moves(last, &mut moves);
        let mut next = u32::MAX;
        let mut found = false;
        for &m in &moves {
            self.generated += 1;
            self.problem.apply(m);
            let h = self.problem.lower_bound(bound.saturating_sub(g + 1));
            let f = g + 1 + h;
            if f > bound {
                next = next.min(f);
            } else if h == 0 && self.problem.is_goal() {
                found = true;
            } else {
                match self.dfs(g + 1, bound, Some(m)) {
                    Step::Found => found = true,
                    Step::Exceeded(f) => next = next.min(f),
                    Step::Stopped => {
                        self.problem.undo(m);
                        self.buffers[depth] = moves;
                        return Step::Stopped;
                    }
                }
            }
            if found {
                self.path.push(m);
                break;
            }
            self.problem.undo(m);
        }
        self.buffers[depth] = moves;
        if found {
            Step::Found
        } else {
            Step::Exceeded(next)
        }
    }
}

/// Finds a shortest path from the problem's current state to a goal, trying thresholds up to
/// `max_length`. The state is left at the goal when a path is found, unchanged otherwise.
pub fn ida_star<P: IdaProblem>(problem: &mut P, max_length: u32) -> IdaOutcome<P::Move> {
    ida_star_within(problem, max_length, Budget::default())
}

/// [`ida_star`] within a budget: stops (state unchanged, `stopped` saying why) rather than
/// expand more states than allowed or run past the deadline.
pub fn ida_star_within<P: IdaProblem>(
    problem: &mut P,
    max_length: u32,
    budget: Budget<'_>,
) -> IdaOutcome<P::Move> {
    let parity = problem.length_parity();
    let round = |b: u32| match parity {
        Some(p) if b % 2 != p % 2 => b.saturating_add(1),
        _ => b,
    };
    let mut out = IdaOutcome {
        path: None,
        stopped: None,
        expanded: 0,
        generated: 1,
        iterations: 0,
    };
    if problem.is_goal() {
        out.path = Some(Vec::new());
        return out;
    }
    let mut bound = round(problem.lower_bound(max_length));
    let mut run = Run {
        problem,
        path: Vec::new(),
        buffers: Vec::new(),
        expanded: 0,
        generated: 0,
        check_at: 0,
        threshold: bound,
        stopped: None,
        budget,
    };
    while bound <= max_length {
        out.iterations += 1;
        run.threshold = bound;
        run.tell();
        match run.dfs(0, bound, None) {
            Step::Stopped => {
                out.stopped = run.stopped;
                break;
            }
            Step::Found => {
                run.path.reverse();
                out.path = Some(std::mem::take(&mut run.path));
                break;
            }
            Step::Exceeded(u32::MAX) => break,
            Step::Exceeded(f) => bound = round(f.max(bound + 1)),
        }
    }
    out.expanded = run.expanded;
    out.generated += run.generated;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walking on a line of integers to 0, with |x| as the bound.
    struct Line(i64);

    impl IdaProblem for Line {
        type Move = i64;
        fn moves(&mut self, last: Option<i64>, out: &mut Vec<i64>) {
            for d in [-1, 1] {
                if last != Some(-d) {
                    out.push(d);
                }
            }
        }
        fn apply(&mut self, m: i64) {
            self.0 += m;
        }
        fn undo(&mut self, m: i64) {
            self.0 -= m;
        }
        fn lower_bound(&mut self, _limit: u32) -> u32 {
            self.0.unsigned_abs() as u32
        }
        fn is_goal(&self) -> bool {
            self.0 == 0
        }
    }

    /// The same walk with no information: plain iterative deepening, where non-goal states
    /// have bound 0 (at depth = threshold the budget is exhausted).
    struct Blind(i64);

    impl IdaProblem for Blind {
        type Move = i64;
        fn moves(&mut self, last: Option<i64>, out: &mut Vec<i64>) {
            Line(self.0).moves(last, out)
        }
        fn apply(&mut self, m: i64) {
            self.0 += m;
        }
        fn undo(&mut self, m: i64) {
            self.0 -= m;
        }
        fn lower_bound(&mut self, _limit: u32) -> u32 {
            0
        }
        fn is_goal(&self) -> bool {
            self.0 == 0
        }
    }

    #[test]
    fn zero_bounds_are_plain_iterative_deepening() {
        let out = ida_star(&mut Blind(4), 10);
        assert_eq!(out.path, Some(vec![-1; 4]));
        assert_eq!(out.iterations, 5); // thresholds 0, 1, 2, 3, 4
        assert_eq!(ida_star(&mut Blind(4), 3).path, None);
    }

    #[test]
    fn a_budget_stops_the_search_and_leaves_the_state() {
        let mut p = Blind(12);
        let budget = Budget {
            max_nodes: Some(100),
            ..Budget::default()
        };
        let out = ida_star_within(&mut p, 100, budget);
        assert_eq!(
            (out.path, out.stopped, out.expanded),
            (None, Some(Stopped::Nodes), 100)
        );
        assert_eq!(p.0, 12);
        let past = Budget {
            deadline: Some(Instant::now()),
            ..Budget::default()
        };
        let out = ida_star_within(&mut p, 100, past);
        assert_eq!((out.path, out.stopped), (None, Some(Stopped::Deadline)));
        assert_eq!(p.0, 12);
        // Progress is told at each threshold; a budget large enough changes nothing.
        let seen = std::sync::Mutex::new(Vec::new());
        let tell = |pr: Searched| seen.lock().unwrap().push(pr.threshold);
        let roomy = Budget {
            max_nodes: Some(1 << 40),
            deadline: None,
            progress: Some(&tell),
        };
        assert_eq!(
            ida_star_within(&mut p, 100, roomy),
            ida_star(&mut Blind(12), 100)
        );
        let mut thresholds = seen.lock().unwrap().clone();
        thresholds.dedup();
        assert_eq!(thresholds, (0..=12).collect::<Vec<u32>>());
    }

    #[test]
    fn finds_the_shortest_path() {
        let mut p = Line(-5);
        let out = ida_star(&mut p, 100);
        assert_eq!(out.path, Some(vec![1; 5]));
        assert_eq!(p.0, 0);
        assert_eq!(ida_star(&mut Line(7), 6).path, None);
        assert_eq!(ida_star(&mut Line(0), 6).path, Some(vec![]));
    }
}
