//! The ball-weighing puzzle: the search against a brute force over every weighing written
//! here from the rules, fixed plans (an altered plan is caught by the checker), queries and
//! bad input through the command line.

mod common;

use std::collections::HashMap;

use common::{gamedb, stderr, stdout, TempDir};
use gamedb::games::weighing::plan::{essay_twelve, fewest_weighings, Plan};
use gamedb::games::weighing::WeighingSpec;
use gamedb::{Spec, Table, ValueKind};

/// What is known, by the counts of balls: undecided, heavy-only, light-only, good.
type State = (u32, u32, u32, u32);

/// Whether `s` can always be finished within `w` weighings: a goal, or some weighing (any
/// counts of each kind on each pan, good balls on either pan, equal counts) whose every
/// possible answer can be finished within `w − 1`. Written from the rules alone: no index,
/// no bound, no symmetry.
fn can(s: State, w: u32, tell: bool, memo: &mut HashMap<(State, u32), bool>) -> bool {
    let (u, h, l, g) = s;
    let goal = if tell {
        u == 0 && h + l == 1
    } else {
        u + h + l == 1
    };
    if goal {
        return true;
    }
    if w == 0 {
        return false;
    }
    if let Some(&v) = memo.get(&(s, w)) {
        return v;
    }
    let mut found = false;
    'all: for lu in 0..=u {
        for ru in 0..=u - lu {
            for lh in 0..=h {
                for rh in 0..=h - lh {
                    for ll in 0..=l {
                        for rl in 0..=l - ll {
                            for lg in 0..=g {
                                let left = lu + lh + ll + lg;
                                let right_suspects = ru + rh + rl;
                                if left < right_suspects || left - right_suspects + lg > g {
                                    continue;
                                }
                                if left == 0 {
                                    continue;
                                }
                                // Left heavy: the odd ball is heavy on the left or light on
                                // the right; right heavy the other way; balance: off the pans.
                                let answers = [
                                    (0, lu + lh, ru + rl),
                                    (0, ru + rh, lu + ll),
                                    (u - lu - ru, h - lh - rh, l - ll - rl),
                                ];
                                let all = answers.iter().all(|&(a, b, c)| {
                                    a + b + c == 0
                                        || can(
                                            (a, b, c, u + h + l + g - a - b - c),
                                            w - 1,
                                            tell,
                                            memo,
                                        )
                                });
                                if all {
                                    found = true;
                                    break 'all;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    memo.insert((s, w), found);
    found
}

/// The fewest weighings from `s` by the brute force, `None` beyond `most`.
fn brute(s: State, tell: bool, most: u32, memo: &mut HashMap<(State, u32), bool>) -> Option<u32> {
    (0..=most).find(|&w| can(s, w, tell, memo))
}

fn table(balls: u32, tell: bool, genuine: u32) -> Table {
    let spec = Spec::new(WeighingSpec::new(balls, tell, genuine).unwrap());
    Table::from_solved(&spec, spec.solve(ValueKind::Distance, &()).unwrap()).unwrap()
}

fn distance(t: &Table, pos: &str) -> Option<u32> {
    let answer = t.query(pos).unwrap();
    answer.distance().unwrap().distance
}

#[test]
fn the_start_of_3_to_40_balls_matches_the_brute_force() {
    for tell in [false, true] {
        let mut memo = HashMap::new();
        for n in 3..=40 {
            let t = table(n, tell, 0);
            let want = brute((n, 0, 0, 0), tell, 6, &mut memo);
            assert_eq!(distance(&t, &n.to_string()), want, "{n} balls, tell {tell}");
        }
    }
}

#[test]
fn every_position_of_small_tables_matches_the_brute_force() {
    for (n, tell, genuine) in [(6, false, 0), (7, true, 0), (9, true, 1), (10, false, 2)] {
        let t = table(n, tell, genuine);
        let mut memo = HashMap::new();
        let rules = t.rules();
        for i in 0..t.len() {
            let p = rules.unrank(i);
            let s = (p[0], p[1], p[2], p[3]);
            let want = brute(s, tell, 8, &mut memo);
            assert_eq!(
                distance(&t, &rules.format(&p)),
                want,
                "{s:?} ({n}, {tell}, {genuine})"
            );
        }
    }
}

#[test]
fn dysons_good_ball_matches_the_brute_force() {
    let mut memo = HashMap::new();
    for n in 3..=14 {
        let t = table(n, true, 1);
        let want = brute((n, 0, 0, 1), true, 6, &mut memo);
        assert_eq!(distance(&t, &n.to_string()), want, "{n}");
    }
}

#[test]
fn a_position_with_hundreds_of_best_weighings_lists_the_first_and_counts_the_rest() {
    // 0,20,20,0 of 40 balls has 721 best weighings; listed whole with their answers they made
    // one line of 67 kB (found by the stream fuzz target).
    let t = table(40, false, 0);
    let rules = t.rules();
    let pos = rules.parse("0,20,20,0").unwrap();
    let here = distance(&t, "0,20,20,0").unwrap();
    let within = |p: &[u32]| distance(&t, &rules.format(p)).is_some_and(|d| d < here);
    let best: Vec<String> = rules
        .choices(&pos, &mut |answers| answers.iter().all(|a| within(a)))
        .unwrap()
        .into_iter()
        .map(|c| c.label)
        .collect();
    assert!(best.len() > gamedb::answer::MOVES_LISTED, "{}", best.len());
    let answer = t.query("0,20,20,0").unwrap();
    let d = answer.distance().unwrap();
    let listed: Vec<String> = d.optimal_moves.iter().map(|m| m.label.clone()).collect();
    assert_eq!(listed, best[..gamedb::answer::MOVES_LISTED]);
    assert_eq!(
        d.more_optimal_moves,
        Some((best.len() - listed.len()) as u64)
    );
    let line = serde_json::to_string(&answer).unwrap();
    assert!(line.len() < 4096, "{}", line.len());
    assert!(line.ends_with(&format!(",\"more_optimal_moves\":{}}}", best.len() - 8)));
    assert!(answer
        .to_text()
        .ends_with(&format!("; and {} more", best.len() - 8)));
    // A position with fewer lists every one and no count.
    let answer = t.query("40").unwrap();
    assert_eq!(answer.distance().unwrap().more_optimal_moves, None);
    assert!(!serde_json::to_string(&answer)
        .unwrap()
        .contains("more_optimal"));
}

#[test]
fn an_altered_plan_is_caught_by_the_checker() {
    for plan in [
        Plan::construct(12, true, 3).unwrap(),
        Plan::from_pans(12, true, essay_twelve()).unwrap(),
        Plan::construct(40, false, 4).unwrap(),
    ] {
        assert_eq!(plan.check(), Ok(2 * plan.balls as u64));
        // Two balls swapped between the pans of one weighing: the counts stay equal, the
        // table no longer fits.
        let mut swapped = plan.clone();
        let (left, right) = &mut swapped.pans[1];
        std::mem::swap(&mut left[0], &mut right[0]);
        let e = swapped.check().unwrap_err();
        assert!(e.contains("the table"), "{e}");
        // One row of the table changed: its ball named as another.
        let mut changed = plan.clone();
        let at = changed.table.iter().position(Option::is_some).unwrap();
        let row = changed.table[at].as_mut().unwrap();
        row.ball = row.ball % plan.balls + 1;
        let e = changed.check().unwrap_err();
        assert!(e.contains("names ball"), "{e}");
        // The direction of one row reversed.
        let mut flipped = plan.clone();
        let at = flipped
            .table
            .iter()
            .position(|r| r.is_some_and(|v| v.heavier.is_some()))
            .unwrap();
        let row = flipped.table[at].as_mut().unwrap();
        row.heavier = row.heavier.map(|h| !h);
        assert!(flipped.check().unwrap_err().contains("but the table says"));
        // A ball moved off one pan: the pans no longer balance in count.
        let mut uneven = plan.clone();
        uneven.pans[0].0.pop();
        assert!(uneven.check().unwrap_err().contains("balls on the left"));
    }
}

#[test]
fn pans_that_give_two_cases_the_same_results_are_refused() {
    let mut pans = essay_twelve();
    pans[2] = (vec![1, 2, 3, 12], vec![4, 5, 6, 10]);
    let e = Plan::from_pans(12, true, pans).unwrap_err().to_string();
    assert!(e.contains("expected"), "{e}");
}

#[test]
fn fixed_plans_take_the_fewest_weighings() {
    for (n, tell, d) in [
        (3, true, 2),
        (4, false, 2),
        (12, true, 3),
        (13, false, 3),
        (13, true, 4),
        (14, false, 4),
        (39, true, 4),
        (40, false, 4),
        (40, true, 5),
    ] {
        assert_eq!(fewest_weighings(n, tell), d, "{n} {tell}");
        let plan = Plan::construct(n as u32, tell, d).unwrap();
        assert_eq!(plan.check(), Ok(2 * n));
    }
}

#[test]
fn the_command_line_builds_answers_and_prints_plans() {
    let dir = TempDir::new("weighing");
    let out = gamedb(&[
        "build",
        "weighing",
        "--balls",
        "12",
        "--tell",
        "--out",
        dir.arg(),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let path = dir.join("weighing-12-tell.gtab");
    let out = gamedb(&["query", &path, "12"]);
    assert_eq!(
        stdout(&out),
        "12,0,0,0: distance 3  optimal: weigh 4U against 4U -> left heavy 0,4,4,4 / balance 4,0,0,8 / right heavy 0,4,4,4\n"
    );
    let out = gamedb(&["query", "--json", &path, "1"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["distance"], 1);
    assert_eq!(v["optimal_moves"][0]["answers"][0]["move"], "left heavy");
    let out = gamedb(&["weighing-plan", "--balls", "12", "--tell", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(
        (v["weighings"].as_u64(), v["checked"].as_u64()),
        (Some(3), Some(24))
    );
    let out = gamedb(&["weighing-plan", "--balls", "13", "--adaptive"]);
    assert!(
        stdout(&out).contains("checked: all 26 cases reach the right verdict within 3 weighings")
    );
}

#[test]
fn bad_input_is_one_line_with_status_2() {
    let dir = TempDir::new("weighing-bad");
    let built = gamedb(&[
        "build",
        "weighing",
        "--balls",
        "12",
        "--genuine",
        "2",
        "--out",
        dir.arg(),
        "--quiet",
    ]);
    assert!(built.status.success(), "{}", stderr(&built));
    let path = dir.join("weighing-12-2.gtab");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["query", &path, "0,7,7,0"], "more than the 12 balls"),
        (
            vec!["query", &path, "0,8,8,0"],
            "add to 16, not to the 14 balls",
        ),
        (
            vec!["query", &path, "13"],
            "13 undecided balls, but only 12",
        ),
        (vec!["query", &path, "11,1,0,2"], "undecided balls beside"),
        (
            vec!["query", &path, "0,0,0,14"],
            "no ball could be the odd one",
        ),
        (vec!["query", &path, "0,1,1"], "3 numbers instead of 4"),
        (
            vec!["build", "weighing", "--balls", "2"],
            "--balls 2: expected",
        ),
        (vec!["weighing-plan", "--balls", "2"], "--balls 2: expected"),
        (
            vec![
                "weighing-plan",
                "--balls",
                "13",
                "--tell",
                "--weighings",
                "3",
            ],
            "expected 4..=",
        ),
    ];
    for (args, want) in cases {
        let out = gamedb(&args);
        let e = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.contains(want) && e.contains("expected"), "{args:?}: {e}");
        assert_eq!(e.trim_end().lines().count(), 1, "{args:?}: {e}");
    }
    // Too large for the memory: refused before solving, naming the memory it would need.
    let out = gamedb(&["build", "weighing", "--balls", "700000", "--out", dir.arg()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("GiB of memory"), "{}", stderr(&out));
}
