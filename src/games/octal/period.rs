//! The periodicity of a nim-sequence, proved by the octal periodicity theorem where it
//! applies, and the facts `gamedb info` shows about it.

use super::Code;
use crate::game::Fact;

/// Largest period [`periodicity`] looks for.
pub(crate) const MAX_PERIOD: u64 = 1 << 26;
/// Fewest heaps a tentative period must repeat over to be reported (two equal values at the
/// end are no period).
pub(crate) const MIN_RUN: u64 = 16;

/// What the values of heaps `0..=N` say about the periodicity of a nim-sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Periodicity {
    /// The period: proved, or the tentative period with the longest run; `None` when no
    /// period repeats twice within the values.
    pub period: Option<u64>,
    /// The smallest heap from which the values repeat with that period (the preperiod).
    pub preperiod: Option<u64>,
    /// Whether the octal periodicity theorem proves it (for every heap, not only those
    /// computed).
    pub proved: bool,
    /// The largest heap computed (`N`).
    pub max_heap: u64,
    /// The heap the theorem needs computed for this period and preperiod
    /// (`2·preperiod + 2·period + t`, see [`periodicity`]).
    pub needs: Option<u64>,
}

/// The periodicity of the values `value(0..=max_heap)` of an octal game whose last code digit
/// is `t` (the most counters a move takes).
///
/// The octal periodicity theorem (Guy & Smith 1956; Winning Ways, ch. 4): if
/// `G(n + p) = G(n)` for every `n` with `e ≤ n < 2e + p + t`, then `G(n + p) = G(n)` for every
/// `n ≥ e`. Here every `n` with `e ≤ n ≤ 2e + p + t` is checked (one more than the theorem
/// asks), so values to heap `2e + 2p + t` are needed. The smallest period that the values
/// prove is reported, with its smallest preperiod; when none is proved (`prove` false, as for
/// Grundy's game, which the theorem does not cover), the period `p ≤` `MAX_PERIOD` with the
/// longest run (the values repeat with period `p` from heap `e` to `N`, at least two periods
/// and `MIN_RUN` heaps),
/// ties to the smaller period.
pub fn periodicity(value: &dyn Fn(u64) -> u32, max_heap: u64, t: u64, prove: bool) -> Periodicity {
    let n = max_heap;
    // The smallest e with value(i + p) == value(i) for every i in e..=n - p.
    let start = |p: u64| -> u64 {
        let mut i = n - p;
        loop {
            if value(i + p) != value(i) {
                return i + 1;
            }
            if i == 0 {
                return 0;
            }
            i -= 1;
        }
    };
    let mut best: Option<(u64, u64)> = None; // (period, preperiod), longest run
    let mut p = 1;
    while p <= (n / 2).min(MAX_PERIOD) {
        // A multiple of a tentative period already found runs no longer than it.
        if best.is_some_and(|(q, e)| p % q == 0 && n - e + 1 >= 2 * p) {
            p += 1;
            continue;
        }
        let e = start(p);
        let needs = 2 * e + 2 * p + t;
        if prove && needs <= n {
            return Periodicity {
                period: Some(p),
                preperiod: Some(e),
                proved: true,
                max_heap: n,
                needs: Some(needs),
            };
        }
        let run = (n + 1) - e;
        if run >= (2 * p).max(MIN_RUN) && best.is_none_or(|(_, be)| e < be) {
            best = Some((p, e));
        }
        p += 1;
    }
    Periodicity {
        period: best.map(|b| b.0),
        preperiod: best.map(|b| b.1),
        proved: false,
        max_heap: n,
        needs: best.map(|(p, e)| 2 * e + 2 * p + t),
    }
}

impl Periodicity {
    /// The facts `gamedb info` shows: `period`, `preperiod`, `proved`.
    pub(super) fn facts(&self, code: &Code) -> Vec<Fact> {
        let num = |v: Option<u64>| v.map_or(serde_json::Value::Null, Into::into);
        let show = |v: Option<u64>| v.map_or("none".to_string(), |v| v.to_string());
        let proved = match (self.proved, self.period, self.preperiod) {
            (true, Some(p), Some(e)) => format!(
                "yes, by the octal periodicity theorem: G(n+{p}) = G(n) for {e} <= n <= {} \
                 (2e + p + t, t = {}), so for every n >= {e}",
                2 * e + p + code.last_digit() as u64,
                code.last_digit()
            ),
            _ if *code == Code::Grundy => {
                "no: the octal periodicity theorem does not cover Grundy's game".to_string()
            }
            _ if code.three_heaps() => "no: the octal periodicity theorem (as checked here) \
                                        covers games whose moves leave at most two heaps"
                .to_string(),
            (false, Some(p), Some(e)) => format!(
                "no: the values repeat with period {p} from heap {e} to {}; the theorem needs \
                 them to heap {}",
                self.max_heap,
                self.needs.unwrap_or(0)
            ),
            _ => format!(
                "no: no period repeats twice within heaps 0..={}",
                self.max_heap
            ),
        };
        let tentative = if self.proved { "" } else { " (tentative)" };
        vec![
            Fact {
                key: "period".into(),
                label: format!("Period{tentative}"),
                text: show(self.period),
                json: num(self.period),
            },
            Fact {
                key: "preperiod".into(),
                label: format!("Preperiod{tentative}"),
                text: match self.preperiod {
                    Some(e) if e > 0 => {
                        format!("{e} (the last exceptional value at heap {})", e - 1)
                    }
                    other => show(other),
                },
                json: num(self.preperiod),
            },
            Fact {
                key: "proved".into(),
                label: "Periodicity proved".into(),
                text: proved,
                json: self.proved.into(),
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octal::plain_values;

    #[test]
    fn kayles_is_proved_periodic_with_period_12() {
        let g = plain_values(&Code::parse("0.77").unwrap(), 400, &()).unwrap();
        let p = periodicity(&|i| g[i as usize] as u32, 400, 2, true);
        assert_eq!(
            (p.period, p.preperiod, p.proved),
            (Some(12), Some(71), true)
        );
        // Too few values: only a tentative period.
        let p = periodicity(&|i| g[i as usize] as u32, 120, 2, true);
        assert!(!p.proved);
    }
}
