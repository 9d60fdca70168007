//! The conformance checks of a three-rowed Chomp table against a brute force over every
//! position of a small board.

use super::{entries, solve, Chomp3Rules, View};
use crate::game::conformance::{self, Broken, Checked, Contract};
use crate::game::{Move, Rules};
use crate::model::Outcome;

/// The conformance checks of a table of `--max max`: the lookups' `rules` over the entries
/// `0..named` ([`conformance::rules`]), then `f` against a brute force over every position with
/// `p ≤ max + 2` (outcome and winning bites) and the same bytes at 1 and 2 threads. Returns the
/// number of entries (every one was read by some checked position).
pub(super) fn conformance(max: u32, rules: &dyn Rules, named: u64) -> Checked {
    conformance::rules(rules, named, None)?;
    let broken = |what: String| Broken::new(Contract::Engine, what);
    let bytes = solve(max, &()).map_err(|e| broken(e.to_string()))?;
    let entry =
        |i: u64| u16::from_le_bytes([bytes[2 * i as usize], bytes[2 * i as usize + 1]]) as u32;
    let view = View::new(max, &entry);
    let m = max as usize + 2;
    let win = brute_force(m);
    let mut checked = 0;
    for p in 1..=m {
        for q in 0..=p.min(max as usize) {
            for r in 0..=q {
                let pos = [p as u32, q as u32, r as u32];
                let want: Vec<Move> = rules
                    .moves(&pos)
                    .into_iter()
                    .filter(|mv| {
                        let (a, b, c) = Chomp3Rules::rows(&mv.leaves);
                        !win[a as usize][b as usize][c as usize]
                    })
                    .collect();
                let got = rules
                    .extension_winning_moves(&pos, &entry)
                    .unwrap_or_default();
                if got != want {
                    return Err(broken(format!(
                        "position {p},{q},{r}: winning bites {got:?} from f, {want:?} by brute force"
                    )));
                }
                if view.outcome((p as u64, q as u64, r as u64)) != Outcome::from_win(win[p][q][r]) {
                    return Err(broken(format!(
                        "position {p},{q},{r}: outcome differs from brute force"
                    )));
                }
                checked += 1;
            }
        }
    }
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .map_err(|e| broken(e.to_string()))?
        .install(|| solve(max, &()))
        .map_err(|e| broken(e.to_string()))?;
    if two != bytes {
        return Err(broken("the table differs at 2 threads".into()));
    }
    debug_assert!(checked >= entries(max));
    Ok(entries(max))
}

/// `win[p][q][r]` for every position with `p ≤ m`, by trying every bite.
pub(crate) fn brute_force(m: usize) -> Vec<Vec<Vec<bool>>> {
    let mut win = vec![vec![vec![false; m + 1]; m + 1]; m + 1];
    for p in 1..=m {
        for q in 0..=p {
            for r in 0..=q {
                let w = (1..p).any(|j| !win[j][q.min(j)][r.min(j)])
                    || (0..q).any(|j| !win[p][j][r.min(j)])
                    || (0..r).any(|j| !win[p][q][j]);
                win[p][q][r] = w;
            }
        }
    }
    win
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Solved;
    use crate::games::chomp::{Chomp, ChompSpec};
    use crate::model::ValueKind;

    fn solved(n: u32) -> Vec<u8> {
        solve(n, &()).unwrap()
    }

    fn read(bytes: &[u8]) -> impl Fn(u64) -> u32 + '_ {
        |i| u16::from_le_bytes([bytes[2 * i as usize], bytes[2 * i as usize + 1]]) as u32
    }

    #[test]
    fn agrees_with_brute_force_outcomes_and_bites() {
        let m = 45;
        let win = brute_force(m);
        let bytes = solved(m as u32);
        let entry = read(&bytes);
        let t = View::new(m as u32, &entry);
        let rules = Chomp3Rules { max: m as u64 };
        for p in 1..=m {
            for q in 0..=p {
                for r in 0..=q {
                    let pos = (p as u64, q as u64, r as u64);
                    assert_eq!(t.outcome(pos), Outcome::from_win(win[p][q][r]), "{pos:?}");
                    let want: Vec<Move> = rules
                        .moves(&[p as u32, q as u32, r as u32])
                        .into_iter()
                        .filter(|mv| {
                            let (a, b, c) = Chomp3Rules::rows(&mv.leaves);
                            !win[a as usize][b as usize][c as usize]
                        })
                        .collect();
                    let got: Vec<Move> = t
                        .winning_bites(pos)
                        .into_iter()
                        .map(Chomp3Rules::to_move)
                        .collect();
                    assert_eq!(got, want, "{pos:?}");
                }
            }
        }
        // The first row may be far longer than the table's N.
        let far = (1_000_000, 40, 7);
        let w = t.winning_bites(far);
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].row, 1);
        assert_eq!(w[0].leaves, (t.f(40, 7).unwrap(), 40, 7));
    }

    /// Every position of the 3×200 box, against the box solver's table.
    #[test]
    fn agrees_with_the_box_tables() {
        let c = 200u32;
        let spec = ChompSpec::new(3, c).unwrap();
        let table = crate::games::Spec::from(spec.clone()).solve(ValueKind::Outcome, &());
        let Solved::Outcomes { bits, .. } = table.unwrap() else {
            panic!("a box table holds outcomes");
        };
        let game = Chomp::new(spec.clone());
        let bytes = solved(c);
        let entry = read(&bytes);
        let t = View::new(c, &entry);
        let mut checked = 0;
        for p in 1..=c {
            for q in 0..=p {
                for r in 0..=q {
                    let i = game.rank(&[p, q, r]) as usize;
                    let boxed = Outcome::from_win(bits[i / 8] >> (i % 8) & 1 == 1);
                    let pos = (p as u64, q as u64, r as u64);
                    assert_eq!(t.outcome(pos), boxed, "{pos:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, spec.positions());
    }
}
