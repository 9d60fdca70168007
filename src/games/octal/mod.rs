//! Octal games (Guy & Smith 1956; Winning Ways, ch. 4): heaps of counters; a game is named by a
//! code `d0.d1d2d3…` whose digit `dk` says what taking `k` counters from one heap may leave:
//! bit 1 no heap (only when the heap had exactly `k`), bit 2 one heap (the rest), bit 4 two
//! non-empty heaps (the rest split in two). `d0` is 0, or 4 for games where a heap may be split
//! in two without taking. Kayles is 0.77, Dawson's Kayles 0.07, the subtraction game S={1,2}
//! is 0.33. Grundy's game (split a heap into two unequal heaps) is the code `grundy`.
//!
//! A position is a *sum* of heaps, played by the Sprague–Grundy theory: one table of the
//! Grundy values of a heap of `0..=N` answers every sum (the xor of its heaps'), so the table's
//! positions are single heaps (index = heap size, each heap its own level), and the rules say
//! that a written position is a sum of heaps ([`Rules::summands`]); the lookups do the rest.
//!
//! The solver is the plain quadratic method: `G(n)` is the mex of `G(a) xor G(b)` over the
//! moves of a heap of `n` (one heap: `b = 0`). The values also carry a certificate: the octal
//! periodicity theorem ([`periodicity`]) proves a sequence periodic from finitely many values,
//! and `gamedb info` reports it ([`Rules::facts`]).

use crate::format::Solved;
use crate::game::{
    params, Arguments, Engine, Fact, GameSpec, HeapSequence, Move, Param, Rules, Values, View,
};
use crate::model::{Indexed, ValueKind};
use crate::progress::Progress;
use crate::solve::Saves;
use crate::{Error, Result};

mod code;
mod period;
mod plain;
mod rare;
pub mod sparse;

pub use sparse::Nimbers;

pub use code::Code;
pub use period::periodicity;
pub use period::Periodicity;
pub use plain::plain_values;
pub use rare::rare_mask;
pub(crate) use rare::{is_rare, rare_facts};

use plain::TRIPLE_VALUES;

/// Largest heap a table may hold (2^32 − 2: 2^32 − 1 positions).
pub(crate) const MAX_HEAP: u64 = u32::MAX as u64 - 1;
/// Most digits after the point (the most counters one move may take).
pub(crate) const MAX_DIGITS: usize = 255;

/// How the values are computed: the same values either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// [`sparse_values`], the default.
    Sparse,
    /// [`plain_values`], the oracle of the tests.
    Plain,
}

/// Parameters of an octal-game table, checked: the code and the largest heap (the table's
/// identity), and how to solve it (not part of the identity: both methods give the same
/// values).
#[derive(Clone, Debug)]
pub struct OctalSpec {
    code: Code,
    max_heap: u32,
    method: Method,
}

impl PartialEq for OctalSpec {
    fn eq(&self, other: &OctalSpec) -> bool {
        (&self.code, self.max_heap) == (&other.code, other.max_heap)
    }
}

impl OctalSpec {
    /// Checks the parameters: a code ([`Code::parse`]) and a largest heap in `1..=2^32 − 2`.
    pub fn new(code: &str, max_heap: u64) -> Result<OctalSpec> {
        let code = Code::parse(code)?;
        if max_heap == 0 || max_heap > MAX_HEAP {
            return Err(Error::bad(format!(
                "--max-heap {max_heap}: expected 1..={MAX_HEAP}"
            )));
        }
        Ok(OctalSpec {
            code,
            max_heap: max_heap as u32,
            method: Method::Sparse,
        })
    }

    /// The same table, solved by `method`.
    pub fn with_method(mut self, method: Method) -> OctalSpec {
        self.method = method;
        self
    }

    /// The code.
    pub fn code(&self) -> &Code {
        &self.code
    }
}

impl GameSpec for OctalSpec {
    const NAME: &'static str = "octal";
    const ABOUT: &'static str =
        "An octal game from its code (0.77 Kayles, 0.07 Dawson's Kayles, grundy): sums of heaps";
    const PARAMS: &'static [Param] = &[
        Param::required(
            "code",
            "CODE",
            "The game's code d0.d1d2... (e.g. 0.77 for Kayles), or grundy",
        ),
        Param::required("max-heap", "N", "Largest heap size"),
        Param::choice(
            "method",
            &["sparse", "plain"],
            "sparse",
            "How to solve: the rare/common method, or the plain quadratic one (same values)",
        ),
    ];
    const VALUES: &'static [ValueKind] = &[ValueKind::Grundy];

    fn view(&self) -> View {
        View::with_engine(Octal(self.clone()))
    }

    fn from_args(a: &Arguments) -> Result<Self> {
        let spec = OctalSpec::new(a.text("code")?, a.number("max-heap")?)?;
        let method = match a.get("method") {
            None | Some("sparse") => Method::Sparse,
            Some("plain") => Method::Plain,
            Some(other) => {
                return Err(Error::bad(format!(
                    "--method {}: expected sparse or plain",
                    crate::game::echo(other)
                )))
            }
        };
        Ok(spec.with_method(method))
    }

    fn parameters(&self) -> String {
        params::write(&[
            ("code", Some(self.code.to_string())),
            ("max-heap", Some(self.max_heap.to_string())),
        ])
    }

    fn stem(&self) -> String {
        format!("octal-{}-{}", self.code, self.max_heap)
    }

    fn describe(&self) -> String {
        let name = match self.code.name() {
            Some(n) => format!(" ({n})"),
            None => String::new(),
        };
        let what = match self.code {
            Code::Grundy => "Grundy's game".to_string(),
            _ if self.code.three_heaps() => format!("Hexadecimal game {}{name}", self.code),
            _ => format!("Octal game {}{name}", self.code),
        };
        format!(
            "{what}: sums of heaps of 0..={}, normal play",
            self.max_heap
        )
    }

    fn samples() -> Vec<Self> {
        [
            ("0.77", 40),
            ("0.07", 40),
            ("0.137", 30),
            ("4.07", 25),
            ("0.33", 20),
            ("grundy", 30),
            ("0.F", 20),
        ]
        .into_iter()
        .filter_map(|(code, n)| OctalSpec::new(code, n).ok())
        .collect()
    }
}

/// An octal game is solved heap by heap (its positions are sums of heaps) by an engine of its
/// own, not over `Game`.
impl Engine for Octal {
    /// The sparse method saves the values solved so far (one or two bytes a heap) and resumes
    /// from them.
    fn solve(
        &self,
        _kind: ValueKind,
        progress: &dyn Progress,
        saves: &dyn Saves,
    ) -> Result<Solved> {
        let spec = &self.0;
        Ok(
            match solve_values(&spec.code, spec.max_heap, spec.method, progress, saves)? {
                Nimbers::Bytes(g) => Solved::GrundyBytes(g),
                Nimbers::Wide(g) => Solved::Grundy(g),
            },
        )
    }

    fn saved_bytes(&self, _kind: ValueKind) -> u64 {
        match self.0.method {
            Method::Sparse => self.positions().saturating_mul(2),
            Method::Plain => 0,
        }
    }

    fn memory(&self, _kind: ValueKind) -> u64 {
        // The plain method: the values (two bytes a heap) and the marks of the mex. The sparse
        // one: the values in one byte; when one does not fit, the two-byte copy beside them
        // while they are widened (three bytes a heap at the peak, within what the build adds
        // for encoding two-byte values: two more), the mirror of the search (at most 32 MiB),
        // the counts and the rare heaps (few: 8 MiB allowed).
        let n = self.positions();
        match self.0.method {
            Method::Plain => n.saturating_mul(2) + 4 * (1 << 16),
            Method::Sparse => n.saturating_mul(2) + (40 << 20),
        }
    }
}

impl Indexed for Octal {
    fn positions(&self) -> u64 {
        self.0.max_heap as u64 + 1
    }
}

/// The Grundy values of heaps `0..=max_heap` by the rare/common ("sparse space") method
/// ([`sparse`]): the same values as [`plain_values`], usually far faster. Grundy's game and
/// codes without splits use the plain method.
pub fn sparse_values(code: &Code, max_heap: u32, progress: &dyn Progress) -> Result<Vec<u16>> {
    Ok(solve_values(code, max_heap, Method::Sparse, progress, &())?.into_wide())
}

/// The values of heaps `0..=max_heap` by `method`, saving to and resuming from `saves` (the
/// sparse method only).
pub(crate) fn solve_values(
    code: &Code,
    max_heap: u32,
    method: Method,
    progress: &dyn Progress,
    saves: &dyn Saves,
) -> Result<Nimbers> {
    let digits = match code {
        Code::Octal(d)
            if method == Method::Sparse && !code.three_heaps() && d.iter().any(|&x| x & 4 != 0) =>
        {
            d
        }
        _ => {
            let g = plain_values(code, max_heap, progress)?;
            return Ok(if g.iter().all(|&v| v < 256) {
                Nimbers::Bytes(g.into_iter().map(|v| v as u8).collect())
            } else {
                Nimbers::Wide(g)
            });
        }
    };
    // The first heaps by the plain method: the sparse loop assumes every move exists.
    let warm = (max_heap as usize + 1).min(256.max(2 * digits.len() + 2));
    let warm = plain_values(code, warm as u32 - 1, &())?;
    sparse::solve(digits, max_heap, warm, progress, saves)
}

fn too_large(code: &Code, n: usize) -> Error {
    if code.three_heaps() {
        return Error::Unsupported(format!(
            "{code}: the Grundy value of the heap of {n} is {TRIPLE_VALUES} or more, more than \
             this build solves for games whose moves may leave three heaps"
        ));
    }
    Error::Unsupported(format!(
        "octal {code}: the Grundy value of the heap of {n} is at least 65536, more than a table \
         holds"
    ))
}

/// An octal game's rules: a position is a sum of heaps; the table's positions are single
/// heaps (index = heap size).
pub struct Octal(OctalSpec);

impl Octal {
    /// The label of a move of a heap of `h` that takes `k` and leaves `leaves`.
    fn label(&self, h: u32, k: u32, leaves: &[u32]) -> String {
        match (k, leaves) {
            (0, [a, b]) => format!("split the heap of {h} into heaps of {a} and {b}"),
            (_, []) => format!("take {k} from the heap of {h}, leaving no heap"),
            (_, [r]) => format!("take {k} from the heap of {h}, leaving a heap of {r}"),
            (_, [a, b]) => format!("take {k} from the heap of {h}, leaving heaps of {a} and {b}"),
            (0, [a, b, c]) => {
                format!("split the heap of {h} into heaps of {a}, {b} and {c}")
            }
            (_, [a, b, c]) => {
                format!("take {k} from the heap of {h}, leaving heaps of {a}, {b} and {c}")
            }
            _ => unreachable!("a move leaves at most three heaps"),
        }
    }
}

impl Rules for Octal {
    fn position_form(&self) -> String {
        format!(
            "heap sizes h1,h2,... (a sum of heaps), each 0..={}",
            self.0.max_heap
        )
    }

    fn check(&self, pos: &[u32]) -> Result<()> {
        if pos.is_empty() {
            return crate::game::bad_position(self, pos, "no heap".into());
        }
        if let Some(&h) = pos.iter().find(|&&h| h > self.0.max_heap) {
            return crate::game::bad_position(
                self,
                pos,
                format!(
                    "heap {h} is larger than this table's largest heap {}",
                    self.0.max_heap
                ),
            );
        }
        Ok(())
    }

    fn rank(&self, pos: &[u32]) -> u64 {
        pos[0] as u64
    }

    fn unrank(&self, index: u64) -> Vec<u32> {
        vec![index as u32]
    }

    fn summands(&self, pos: &[u32]) -> Option<Vec<Vec<u32>>> {
        Some(pos.iter().map(|&h| vec![h]).collect())
    }

    fn board(&self, pos: &[u32]) -> String {
        crate::game::heaps_board(pos)
    }

    /// Every move of every heap, each leaving the whole position with that heap replaced by
    /// what the move leaves (a heap of 0 when it leaves nothing).
    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        self.moves_where(pos, &mut |_| true)
    }

    fn moves_where(&self, pos: &[u32], keep: &mut dyn FnMut(&[u32]) -> bool) -> Vec<Move> {
        let mut out = Vec::new();
        let mut whole = Vec::with_capacity(pos.len() + 2);
        for (j, &h) in pos.iter().enumerate() {
            self.0.code.each_move(h, |k, leaves| {
                whole.clear();
                whole.extend_from_slice(&pos[..j]);
                if leaves.is_empty() {
                    whole.push(0);
                } else {
                    whole.extend_from_slice(leaves);
                }
                whole.extend_from_slice(&pos[j + 1..]);
                // A heap has about h/2 moves a digit: label only those kept.
                if keep(&whole) {
                    out.push(Move {
                        label: self.label(h, k, leaves),
                        leaves: whole.clone(),
                    });
                }
            });
        }
        out
    }

    fn facts(&self, values: &dyn Values) -> Vec<Fact> {
        let code = &self.0.code;
        let p = periodicity(
            &|i| values.raw(i),
            values.len() - 1,
            code.last_digit() as u64,
            *code != Code::Grundy && !code.three_heaps(),
        );
        let mut facts = p.facts(code);
        facts.extend(rare_facts(values));
        facts
    }

    /// One heap of each size, index = heap; the theorem proves periods of codes whose moves
    /// leave at most two heaps (as `info` applies it).
    fn heap_sequence(&self) -> Option<HeapSequence> {
        let code = &self.0.code;
        Some(HeapSequence {
            first: 0,
            step: 1,
            max_heap: self.0.max_heap as u64,
            heap: "heap".into(),
            note: String::new(),
            theorem: (*code != Code::Grundy && !code.three_heaps())
                .then_some(code.last_digit() as u64),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_labelled_in_words() {
        let r = Octal(OctalSpec::new("0.77", 20).unwrap());
        let labels: Vec<String> = r.moves(&[4]).into_iter().map(|m| m.label).collect();
        assert_eq!(
            labels,
            [
                "take 1 from the heap of 4, leaving a heap of 3",
                "take 1 from the heap of 4, leaving heaps of 1 and 2",
                "take 2 from the heap of 4, leaving a heap of 2",
                "take 2 from the heap of 4, leaving heaps of 1 and 1",
            ]
        );
        let m = r.moves(&[2, 1]);
        assert_eq!(m[1].label, "take 2 from the heap of 2, leaving no heap");
        assert_eq!(m[1].leaves, [0, 1]);
    }
}
