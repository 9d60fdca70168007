//! Plans of weighings (the ball-weighing essay, part III): a *fixed* plan chooses every
//! weighing before any result is seen (Lemma III.1, Theorem III.2), an *adaptive* one is the
//! decision tree read from a solved table.
//!
//! A fixed plan gives ball `i` a vector `v_i` over {−1, 0, 1}, one entry a weighing: 1 on the
//! left pan, −1 on the right, 0 off. The results read as a vector too (1 left heavy, −1 right
//! heavy, 0 balance): ball `i` heavier gives `v_i`, lighter `−v_i`. The plan works when no two
//! balls have `v_i = ±v_j` (condition i), every weighing has as many balls on each pan (ii),
//! and, to tell heavier from lighter, no ball is never weighed (iii).
//!
//! The construction: write vectors as digit strings over {0, 1, 2} (digit − 1 is the entry)
//! and let σ add 1 to every digit (mod 3). The orbit {x, σx, σ²x} of a non-constant x holds
//! each digit once in every place, so its entries sum to 0 in every weighing; negation maps
//! orbits to orbits and never an orbit to itself, so the `P = (3^d − 3)/6` pairs of orbits give
//! `3P = (3^d − 3)/2` vectors, one orbit of each pair, satisfying i to iii (Dyson's set). `n`
//! balls with `n ≡ 0 (mod 3)` take `n/3` orbits. For `n ≡ 1` four vectors from two orbit pairs
//! sum to 0: `x − σx − y + σy`, where x and y have the digit 2 in the same places
//! (`x = 20…0`, `y = 20…01`); for `n ≡ 2` five: `x − σx + y − σy − c`, `c` the constant
//! vector of ones, where the places of the digit 2 in x and in y split the places between them
//! (`x = 2…20`, `y = 0…012`). Both need d ≥ 3, and waste at most two vectors of the orbit
//! pairs they touch, so every `3 ≤ n ≤ (3^d − 3)/2` is reached; without telling, one more
//! ball is never weighed: `n ≤ (3^d − 1)/2`. The plan is then checked by [`Plan::check`],
//! which reads only its pans and its table and simulates all `2n` cases.

use serde::Serialize;

use crate::{Error, Result};

/// Most weighings of a fixed plan: its table has `3^d` rows.
pub(crate) const MAX_WEIGHINGS: u32 = 16;

/// The results as the plans write them, by result digit: 0 left heavy, 1 balance, 2 right
/// heavy.
pub(crate) const RESULTS: [&str; 3] = ["left", "even", "right"];

/// Largest `n` that `d` fixed weighings handle: `(3^d − 3)/2` telling heavier or lighter,
/// `(3^d − 1)/2` not.
pub(crate) fn most_balls(d: u32, tell: bool) -> u64 {
    let p = 3u64.saturating_pow(d);
    if tell {
        p.saturating_sub(3) / 2
    } else {
        p.saturating_sub(1) / 2
    }
}

/// Fewest weighings of a plan for `n ≥ 3` balls (Theorem III.1's formulas read as bounds on
/// `n`): the least `d` with `n ≤ most_balls(d, tell)`.
pub fn fewest_weighings(n: u64, tell: bool) -> u32 {
    (1..)
        .find(|&d| n <= most_balls(d, tell))
        .unwrap_or(u32::MAX)
}

/// One row of a plan's table: the odd ball a result vector names, and whether it is heavier
/// (`None`: the ball was never weighed, which a plan that does not tell allows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The odd ball, numbered from 1.
    pub ball: u32,
    /// Heavier (`true`), lighter (`false`), or not known.
    pub heavier: Option<bool>,
}

/// A fixed plan: the pans of each weighing and the table from the results to the odd ball.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Number of balls, numbered `1..=balls`.
    pub balls: u32,
    /// Whether the plan must say heavier or lighter.
    pub tell: bool,
    /// For each weighing, the balls on the left pan and on the right.
    pub pans: Vec<(Vec<u32>, Vec<u32>)>,
    /// For each result vector (digits 0 left heavy, 1 balance, 2 right heavy; weighing 1 the
    /// most significant), the verdict, `None` for a result that cannot come.
    pub table: Vec<Option<Verdict>>,
}

/// The digit of a heavier ball's result for an entry of its vector: on the left (1) the left
/// goes down (digit 0), off (0) balance (1), on the right (−1) the right goes down (2).
fn digit(entry: i8) -> usize {
    (1 - entry) as usize
}

/// The table index of the result vector of entries `v` (a heavier ball's results).
fn result_index(v: &[i8]) -> usize {
    v.iter().fold(0, |acc, &e| acc * 3 + digit(e))
}

/// The vector of digits `x` (entries digit − 1) moved by σ^s.
fn orbit_member(x: &[u8], s: u8) -> Vec<i8> {
    x.iter().map(|&t| ((t + s) % 3) as i8 - 1).collect()
}

/// The representative of the orbit pair of digit string `x`: the member of the pair with
/// first digit 0 whose first non-zero digit is 1.
fn pair_key(x: &[u8]) -> Vec<u8> {
    let shift = (3 - x[0]) % 3;
    let mut r: Vec<u8> = x.iter().map(|&t| (t + shift) % 3).collect();
    if r.iter().find(|&&t| t != 0) == Some(&2) {
        for t in &mut r {
            *t = (3 - *t) % 3;
        }
    }
    r
}

impl Plan {
    /// The plan of `n` balls in `d` weighings by the construction of the module docs; refuses a
    /// `d` too small for `n` (or beyond `MAX_WEIGHINGS`).
    pub fn construct(n: u32, tell: bool, d: u32) -> Result<Plan> {
        let fewest = fewest_weighings(n as u64, tell);
        if n < 3 {
            return Err(Error::bad(format!(
                "--balls {n}: expected at least 3 (fewer cannot be told apart by a balance)"
            )));
        }
        if d < fewest || d > MAX_WEIGHINGS {
            return Err(Error::bad(format!(
                "a fixed plan for {n} balls in {d} weighings: expected {fewest}..={MAX_WEIGHINGS} \
                 weighings ({d} weighings handle at most {} balls{})",
                most_balls(d, tell),
                if tell {
                    " when telling heavier or lighter"
                } else {
                    ""
                }
            )));
        }
        let vectors = vectors(n, tell, d);
        Plan::from_vectors(tell, d, &vectors)
    }

    /// The plan whose ball `i + 1` has vector `vectors[i]`: its pans and the table its vectors
    /// make; refuses vectors that two cases share.
    pub(crate) fn from_vectors(tell: bool, d: u32, vectors: &[Vec<i8>]) -> Result<Plan> {
        Plan::of_vectors(tell, d, vectors).map_err(Error::internal)
    }

    fn of_vectors(tell: bool, d: u32, vectors: &[Vec<i8>]) -> std::result::Result<Plan, String> {
        let n = vectors.len() as u32;
        let mut pans = vec![(Vec::new(), Vec::new()); d as usize];
        for (i, v) in vectors.iter().enumerate() {
            for (j, &e) in v.iter().enumerate() {
                match e {
                    1 => pans[j].0.push(i as u32 + 1),
                    -1 => pans[j].1.push(i as u32 + 1),
                    _ => {}
                }
            }
        }
        let mut table: Vec<Option<Verdict>> = vec![None; 3usize.pow(d)];
        for (i, v) in vectors.iter().enumerate() {
            let ball = i as u32 + 1;
            let light: Vec<i8> = v.iter().map(|&e| -e).collect();
            let cases = if v.iter().all(|&e| e == 0) {
                vec![(result_index(v), None)]
            } else {
                vec![
                    (result_index(v), Some(true)),
                    (result_index(&light), Some(false)),
                ]
            };
            for (at, heavier) in cases {
                if let Some(other) = table[at] {
                    return Err(format!(
                        "balls {} and {ball} give the same results",
                        other.ball
                    ));
                }
                table[at] = Some(Verdict { ball, heavier });
            }
        }
        Ok(Plan {
            balls: n,
            tell,
            pans,
            table,
        })
    }

    /// The plan with these pans whose table is read off them (each case's results); refuses
    /// pans under which two cases give the same results.
    pub fn from_pans(balls: u32, tell: bool, pans: Vec<(Vec<u32>, Vec<u32>)>) -> Result<Plan> {
        let d = pans.len() as u32;
        let mut vectors = vec![vec![0i8; d as usize]; balls as usize];
        for (j, (left, right)) in pans.iter().enumerate() {
            for (&b, e) in left
                .iter()
                .map(|b| (b, 1))
                .chain(right.iter().map(|b| (b, -1)))
            {
                let Some(v) = vectors.get_mut((b as usize).wrapping_sub(1)) else {
                    return Err(Error::bad(format!(
                        "weighing {}: ball {b}; expected balls 1..={balls}",
                        j + 1
                    )));
                };
                v[j] = e;
            }
        }
        let mut plan = Plan::of_vectors(tell, d, &vectors).map_err(|e| {
            Error::bad(format!(
                "{e}; expected pans under which every case gives its own results"
            ))
        })?;
        plan.pans = pans;
        Ok(plan)
    }

    /// Number of weighings.
    pub fn weighings(&self) -> u32 {
        self.pans.len() as u32
    }

    /// Checks the plan by its pans and table alone: every weighing puts as many balls on each
    /// pan, each ball of `1..=balls` at most once; each of the `2n` cases (a ball heavier or
    /// lighter) gives results whose row of the table names that ball, and says heavier or
    /// lighter rightly (always, when the plan must tell; when it says so at all, otherwise).
    /// Returns the number of cases checked, or the first case that fails.
    pub fn check(&self) -> std::result::Result<u64, String> {
        let n = self.balls as usize;
        let d = self.pans.len();
        if self.table.len() != 3usize.pow(d as u32) {
            return Err(format!(
                "the table has {} rows, not 3^{d} = {}",
                self.table.len(),
                3usize.pow(d as u32)
            ));
        }
        let mut place = vec![0i8; n * d];
        for (j, (left, right)) in self.pans.iter().enumerate() {
            if left.len() != right.len() {
                return Err(format!(
                    "weighing {}: {} balls on the left, {} on the right",
                    j + 1,
                    left.len(),
                    right.len()
                ));
            }
            for (&b, e) in left
                .iter()
                .map(|b| (b, 1))
                .chain(right.iter().map(|b| (b, -1)))
            {
                if b == 0 || b as usize > n {
                    return Err(format!("weighing {}: no ball {b}", j + 1));
                }
                let at = &mut place[(b as usize - 1) * d + j];
                if *at != 0 {
                    return Err(format!("weighing {}: ball {b} twice", j + 1));
                }
                *at = e;
            }
        }
        let mut cases = 0;
        for ball in 1..=self.balls {
            let v = &place[(ball as usize - 1) * d..ball as usize * d];
            for heavier in [true, false] {
                let sign = if heavier { 1 } else { -1 };
                let at = v.iter().fold(0, |acc, &e| acc * 3 + digit(e * sign));
                // The words of a failure are made only when one is found.
                let case = || {
                    format!(
                        "ball {ball} {}: results {}",
                        if heavier { "heavier" } else { "lighter" },
                        self.results_text(at)
                    )
                };
                match self.table[at] {
                    None => return Err(format!("{}, a row the table marks impossible", case())),
                    Some(got) if got.ball != ball => {
                        return Err(format!("{}, but the table names ball {}", case(), got.ball))
                    }
                    Some(got) if got.heavier.is_some() && got.heavier != Some(heavier) => {
                        return Err(format!(
                            "{}, but the table says {}",
                            case(),
                            got.direction()
                        ))
                    }
                    Some(got) if self.tell && got.heavier.is_none() => {
                        return Err(format!(
                            "{}, and the table cannot say heavier or lighter",
                            case()
                        ))
                    }
                    Some(_) => cases += 1,
                }
            }
        }
        Ok(cases)
    }

    /// The results of table row `at`, e.g. `left even right`.
    pub(crate) fn results_text(&self, at: usize) -> String {
        self.results(at)
            .iter()
            .map(|&r| RESULTS[r])
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The result digits of table row `at`, weighing 1 first.
    fn results(&self, at: usize) -> Vec<usize> {
        let d = self.pans.len();
        (0..d)
            .map(|j| at / 3usize.pow((d - 1 - j) as u32) % 3)
            .collect()
    }

    /// The plan as the essay prints it: Table 1 (the pans of each weighing) and Table 2 (from
    /// the results to the odd ball), then the check.
    pub fn to_text(&self, checked: u64) -> String {
        let d = self.pans.len();
        let list = |balls: &[u32]| {
            balls
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let width = self
            .pans
            .iter()
            .map(|p| list(&p.0).len())
            .max()
            .unwrap_or(0)
            .max(8);
        let heading = if width > 60 {
            "weighing, then its left pan and its right pan".to_string()
        } else {
            format!("weighing  {:width$}  right pan", "left pan")
        };
        let mut s = format!(
            "A fixed plan: {} balls, {d} weighings, finding the odd ball{}.\n\nTable 1: the balls on each pan\n{heading}\n",
            self.balls,
            if self.tell { " and whether it is heavier or lighter" } else { "" },
        );
        for (j, (left, right)) in self.pans.iter().enumerate() {
            if width > 60 {
                // Pans too long for one line each: a block a weighing.
                s += &format!(
                    "{}\n  left:  {}\n  right: {}\n",
                    j + 1,
                    list(left),
                    list(right)
                );
            } else {
                s += &format!("{:<8}  {:width$}  {}\n", j + 1, list(left), list(right));
            }
        }
        s += "\nTable 2: the results (which pan went down in weighings 1, 2, ...) and the odd ball\n";
        s += &(1..=d).map(|j| format!("{j:<6}")).collect::<String>();
        s += "odd ball\n";
        for (at, row) in self.table.iter().enumerate() {
            for r in self.results(at) {
                s += &format!("{:<6}", RESULTS[r]);
            }
            s += &match row {
                None => "-".to_string(),
                Some(v) => format!("{} {}", v.ball, v.direction()),
            };
            s += "\n";
        }
        s += &format!(
            "\nchecked: all {checked} cases (each ball heavier, each lighter) give results whose row names the ball{}\n",
            if self.tell { " and says heavier or lighter rightly" } else { "" }
        );
        s
    }

    /// The plan as JSON: `balls`, `tell`, `weighings`, `pans` (`left`, `right`), `table` (each
    /// possible result: `results`, `ball`, `heavier`, null when not known), `checked`.
    pub(crate) fn to_json(&self, checked: u64) -> serde_json::Value {
        let pans: Vec<_> = self
            .pans
            .iter()
            .map(|(l, r)| serde_json::json!({"left": l, "right": r}))
            .collect();
        let table: Vec<_> = self
            .table
            .iter()
            .enumerate()
            .filter_map(|(at, row)| {
                let v = row.as_ref()?;
                let results: Vec<&str> = self.results(at).iter().map(|&r| RESULTS[r]).collect();
                Some(serde_json::json!({"results": results, "ball": v.ball, "heavier": v.heavier}))
            })
            .collect();
        serde_json::json!({
            "balls": self.balls,
            "tell": self.tell,
            "weighings": self.pans.len(),
            "pans": pans,
            "table": table,
            "checked": checked,
        })
    }
}

impl Verdict {
    /// `heavier`, `lighter`, or `(heavier or lighter: never weighed)`.
    pub(crate) fn direction(&self) -> &'static str {
        match self.heavier {
            Some(true) => "heavier",
            Some(false) => "lighter",
            None => "(heavier or lighter: never weighed)",
        }
    }
}

/// The vectors of the construction (module docs) for `n` balls in `d` weighings, `n` in
/// `3..=most_balls(d, tell)`.
fn vectors(n: u32, tell: bool, d: u32) -> Vec<Vec<i8>> {
    let d = d as usize;
    if !tell && n as u64 == most_balls(d as u32, false) {
        // One ball never weighed, the others a plan that tells.
        let mut v = vectors(n - 1, true, d as u32);
        v.push(vec![0; d]);
        return v;
    }
    let mut out: Vec<Vec<i8>> = Vec::with_capacity(n as usize);
    let mut used = std::collections::HashSet::new();
    let r = n % 3;
    if r != 0 {
        let mut x = vec![0u8; d];
        let mut y = vec![0u8; d];
        if r == 1 {
            // x − σx − y + σy with x = 20…0, y = 20…01.
            x[0] = 2;
            y[0] = 2;
            y[d - 1] = 1;
            out.push(orbit_member(&x, 0));
            out.push(negate(orbit_member(&x, 1)));
            out.push(negate(orbit_member(&y, 0)));
            out.push(orbit_member(&y, 1));
        } else {
            // x − σx + y − σy − c with x = 2…20, y = 0…012, c the ones.
            x[..d - 1].fill(2);
            y[d - 2] = 1;
            y[d - 1] = 2;
            out.push(orbit_member(&x, 0));
            out.push(negate(orbit_member(&x, 1)));
            out.push(orbit_member(&y, 0));
            out.push(negate(orbit_member(&y, 1)));
            out.push(vec![-1; d]);
        }
        used.insert(pair_key(&x));
        used.insert(pair_key(&y));
    }
    // Whole orbits, one of each pair not used: the representatives with first digit 0 and
    // first non-zero digit 1, in counting order.
    let mut digits = vec![0u8; d];
    while out.len() < n as usize {
        // Next digit string with first digit 0 (counting in base 3, the last digit lowest).
        let mut j = d - 1;
        loop {
            digits[j] += 1;
            if digits[j] < 3 {
                break;
            }
            digits[j] = 0;
            j -= 1;
        }
        if digits.iter().find(|&&t| t != 0) != Some(&1) || used.contains(&digits) {
            continue;
        }
        for s in 0..3 {
            out.push(orbit_member(&digits, s));
        }
    }
    out
}

fn negate(v: Vec<i8>) -> Vec<i8> {
    v.into_iter().map(|e| -e).collect()
}

/// The 12-ball plan the essay prints (its Table 1, as its worked example lists every pan):
/// weighing 1 puts 2, 5, 8, 10 against 1, 4, 7, 12; weighing 2 puts 3, 6, 9, 10 against 2, 5,
/// 8, 12; weighing 3 puts 1, 2, 3, 12 against 4, 5, 6, 11.
pub fn essay_twelve() -> Vec<(Vec<u32>, Vec<u32>)> {
    vec![
        (vec![2, 5, 8, 10], vec![1, 4, 7, 12]),
        (vec![3, 6, 9, 10], vec![2, 5, 8, 12]),
        (vec![1, 2, 3, 12], vec![4, 5, 6, 11]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_plan_up_to_a_thousand_balls_checks() {
        for tell in [false, true] {
            for n in 3..=1000u32 {
                let d = fewest_weighings(n as u64, tell);
                let plan = Plan::construct(n, tell, d).unwrap();
                assert_eq!(plan.check(), Ok(2 * n as u64), "{n} {tell}");
            }
        }
    }

    #[test]
    fn too_few_weighings_are_refused() {
        let e = Plan::construct(13, true, 3).unwrap_err().to_string();
        assert!(e.contains("expected 4..="), "{e}");
        assert!(Plan::construct(13, false, 3).is_ok());
    }
}
