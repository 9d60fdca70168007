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

use std::fmt;

use crate::game::{
    conformance, params, Arguments, Fact, GameSpec, GameView, Move, Param, Progress, Rules, Solved,
    ValueKind, Values,
};
use crate::solve::Saves;
use crate::{Error, Result};

pub mod sparse;
pub use sparse::Nimbers;

/// Largest heap a table may hold (2^32 − 2: 2^32 − 1 positions).
pub const MAX_HEAP: u64 = u32::MAX as u64 - 1;
/// Most digits after the point (the most counters one move may take).
pub const MAX_DIGITS: usize = 255;
/// Largest period [`periodicity`] looks for.
pub const MAX_PERIOD: u64 = 1 << 26;
/// Fewest heaps a tentative period must repeat over to be reported (two equal values at the
/// end are no period).
pub const MIN_RUN: u64 = 16;

/// A game's code, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Code {
    /// `d0.d1d2…`: `digits[k]` is `dk`, 0..=7 for an octal game, up to 15 for a hexadecimal
    /// one (bit 8: taking `k` may leave three non-empty heaps); `digits[0]` is 0, 4, 8 or 12
    /// (splits without taking); no trailing zero digit after the first (0.770 is 0.77), and
    /// some move allowed.
    Octal(Vec<u8>),
    /// Grundy's game: split one heap into two non-empty heaps of different sizes.
    Grundy,
}

impl Code {
    /// Reads a code: `d0.d1d2…` (`.d1d2…` for `0.d1d2…`) or `grundy`; the error says what is
    /// wrong and the accepted form.
    pub fn parse(text: &str) -> Result<Code> {
        let form = "a code d0.d1d2... (each digit 0..=7 for an octal game, 0..=9 or A..=F for a \
                    hexadecimal one, d0 one of 0, 4, 8, C; e.g. 0.77 for Kayles, 0.07 for \
                    Dawson's Kayles, 0.F for a game that may leave three heaps) or 'grundy'";
        let text = text.trim();
        let bad = |what: String| {
            Err(Error::bad(format!(
                "--code {}: {what}; expected {form}",
                crate::game::echo(text)
            )))
        };
        if text.eq_ignore_ascii_case("grundy") {
            return Ok(Code::Grundy);
        }
        if text.starts_with("0x") || text.starts_with("0X") {
            return bad(
                "write a hexadecimal code with a point, as d0.d1d2... (e.g. 0.F), not 0x...".into(),
            );
        }
        let Some((whole, fraction)) = text.split_once('.') else {
            return bad("no point".into());
        };
        let d0 = match whole {
            "" | "0" => 0,
            "4" => 4,
            "8" => 8,
            "C" | "c" => 12,
            _ => {
                return bad(format!(
                    "'{}' before the point: only 0, 4 (a heap may be split in two without \
                     taking), 8 (in three) or C (in two or three)",
                    crate::game::echo(whole)
                ))
            }
        };
        if fraction.is_empty() {
            return bad("no digit after the point".into());
        }
        let mut digits = vec![d0];
        for c in fraction.chars() {
            match c.to_digit(16) {
                Some(d) => digits.push(d as u8),
                None => {
                    return bad(format!(
                        "'{c}' is not a digit (0..=7, or 0..=9 and A..=F for hexadecimal codes)"
                    ))
                }
            }
        }
        while digits.len() > 2 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() > MAX_DIGITS + 1 {
            return bad(format!(
                "{} digits after the point; at most {MAX_DIGITS}",
                digits.len() - 1
            ));
        }
        if digits.iter().all(|&d| d == 0) {
            return bad("no digit allows a move".into());
        }
        Ok(Code::Octal(digits))
    }

    /// Whether a move may leave three heaps (a hexadecimal code with a digit of 8 or more).
    pub fn three_heaps(&self) -> bool {
        matches!(self, Code::Octal(d) if d.iter().any(|&x| x & 8 != 0))
    }

    /// The largest number of counters one move takes (the last digit's index, `t` of the
    /// periodicity theorem); 0 for Grundy's game.
    pub fn last_digit(&self) -> usize {
        match self {
            Code::Octal(d) => d.len() - 1,
            Code::Grundy => 0,
        }
    }

    /// A name the literature gives the game, if any.
    pub fn name(&self) -> Option<&'static str> {
        let text = self.to_string();
        Some(match text.as_str() {
            "grundy" => "Grundy's game",
            "0.77" => "Kayles",
            "0.07" => "Dawson's Kayles",
            "0.137" => "Dawson's chess",
            "0.6" => "Officers",
            "0.7777" => "Double Kayles",
            _ => return None,
        })
    }

    /// Calls `f(k, leaves)` for every move of a heap of `h`, in a fixed order: by the number
    /// taken `k`, then no heap left, one heap, two heaps `(a, b)` with `a ≤ b` by `a`, three
    /// heaps `(a, b, c)` with `a ≤ b ≤ c` by `a`, then `b`.
    /// A move that leaves nothing passes `&[]`.
    pub fn each_move(&self, h: u32, mut f: impl FnMut(u32, &[u32])) {
        match self {
            Code::Grundy => {
                for a in 1..h.div_ceil(2) {
                    f(0, &[a, h - a]);
                }
            }
            Code::Octal(digits) => {
                for (k, &d) in digits.iter().enumerate() {
                    let k = k as u32;
                    if k > h {
                        break;
                    }
                    if d & 1 != 0 && h == k {
                        f(k, &[]);
                    }
                    if d & 2 != 0 && h > k {
                        f(k, &[h - k]);
                    }
                    if d & 4 != 0 && h >= k + 2 {
                        let r = h - k;
                        for a in 1..=r / 2 {
                            f(k, &[a, r - a]);
                        }
                    }
                    if d & 8 != 0 && h >= k + 3 {
                        let r = h - k;
                        for a in 1..=r / 3 {
                            for b in a..=(r - a) / 2 {
                                f(k, &[a, b, r - a - b]);
                            }
                        }
                    }
                }
            }
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Code::Grundy => f.write_str("grundy"),
            Code::Octal(d) => {
                write!(f, "{:X}.", d[0])?;
                d[1..].iter().try_for_each(|x| write!(f, "{x:X}"))
            }
        }
    }
}

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

    /// The largest heap.
    pub fn max_heap(&self) -> u32 {
        self.max_heap
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

    type View = Octal;
    fn view(&self) -> Octal {
        Octal(self.clone())
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

    fn positions(&self) -> u64 {
        self.max_heap as u64 + 1
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

    fn solve(&self, kind: ValueKind, progress: &dyn Progress) -> Result<Solved> {
        self.solve_saving(kind, progress, &())
    }

    /// The sparse method saves the values solved so far (one or two bytes a heap) and resumes
    /// from them.
    fn solve_saving(
        &self,
        _kind: ValueKind,
        progress: &dyn Progress,
        saves: &dyn Saves,
    ) -> Result<Solved> {
        Ok(
            match solve_values(&self.code, self.max_heap, self.method, progress, saves)? {
                Nimbers::Bytes(g) => Solved::GrundyBytes(g),
                Nimbers::Wide(g) => Solved::Grundy(g),
            },
        )
    }

    fn saved_bytes(&self, _kind: ValueKind) -> u64 {
        match self.method {
            Method::Sparse => self.positions().saturating_mul(2),
            Method::Plain => 0,
        }
    }

    fn solve_memory(&self, _kind: ValueKind) -> u64 {
        // The plain method: the values (two bytes a heap) and the marks of the mex. The sparse
        // one: the values in one byte; when one does not fit, the two-byte copy beside them
        // while they are widened (three bytes a heap at the peak, within what the build adds
        // for encoding two-byte values: two more), the mirror of the search (at most 32 MiB),
        // the counts and the rare heaps (few: 8 MiB allowed).
        let n = self.positions();
        match self.method {
            Method::Plain => n.saturating_mul(2) + 4 * (1 << 16),
            Method::Sparse => n.saturating_mul(2) + (40 << 20),
        }
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

    fn conformance(&self) -> std::result::Result<u64, String> {
        conformance::rules(&Octal(self.clone()), self.positions(), None)
    }
}

/// An octal game is solved heap by heap (its positions are sums of heaps), not over `Game`:
/// the view answers for the solvers from the spec.
impl GameView for Octal {
    fn positions(&self) -> u64 {
        self.0.positions()
    }

    fn solve(&self, kind: ValueKind, progress: &dyn Progress) -> Result<Solved> {
        self.0.solve(kind, progress)
    }

    fn solve_memory(&self, kind: ValueKind) -> u64 {
        self.0.solve_memory(kind)
    }

    fn conformance(&self) -> std::result::Result<u64, String> {
        self.0.conformance()
    }
}

/// The Grundy values of heaps `0..=max_heap` by the plain quadratic method: `G(n)` is the mex
/// of the values of the moves of a heap of `n` (a move that leaves heaps `a` and `b` has the
/// value `G(a) xor G(b)`). An error when a value does not fit in 16 bits.
pub fn plain_values(code: &Code, max_heap: u32, progress: &dyn Progress) -> Result<Vec<u16>> {
    let n_all = max_heap as usize + 1;
    let mut g: Vec<u16> = Vec::with_capacity(n_all);
    // seen[v] == stamp: value v is reached from the heap being solved (stamp = heap + 1).
    let mut seen = vec![0u32; 1 << 16];
    let mut triples = code.three_heaps().then(Triples::default);
    const CHUNK: usize = 1 << 12;
    for n in 0..n_all {
        if let Some(t) = &mut triples {
            t.extend(&g, n).map_err(|()| too_large(code, n))?;
        }
        let stamp = n as u32 + 1;
        let mut mark = |v: u16| seen[v as usize] = stamp;
        match code {
            Code::Grundy => {
                for a in 1..n.div_ceil(2) {
                    mark(g[a] ^ g[n - a]);
                }
            }
            Code::Octal(digits) => {
                for (k, &d) in digits.iter().enumerate().take(n + 1) {
                    if d & 1 != 0 && n == k {
                        mark(0);
                    }
                    if d & 2 != 0 && n > k {
                        mark(g[n - k]);
                    }
                    if d & 4 != 0 && n >= k + 2 {
                        let r = n - k;
                        for a in 1..=r / 2 {
                            mark(g[a] ^ g[r - a]);
                        }
                    }
                    if let (true, Some(t)) = (d & 8 != 0 && n >= k + 3, &mut triples) {
                        t.options(&g, n - k, &mut mark);
                    }
                }
            }
        }
        let mex = seen.iter().position(|&s| s != stamp);
        match mex {
            Some(v) => g.push(v as u16),
            None => return Err(too_large(code, n)),
        }
        if n % CHUNK == CHUNK - 1 {
            progress.inc(CHUNK as u64);
        }
    }
    progress.inc((n_all % CHUNK) as u64);
    Ok(g)
}

/// Most distinct values a game whose moves may leave three heaps may have (1024): the sets of
/// [`Triples`] are that wide.
const TRIPLE_VALUES: usize = 1024;
const TRIPLE_WORDS: usize = TRIPLE_VALUES / 64;

/// The values of three-heap moves without visiting every triple: `pairs[s]` is the set of
/// `G(b) xor G(s − b)` over `1 ≤ b < s`, and the options of splitting `r` in three are
/// `G(a) xor pairs[r − a]` over `a` (every ordered triple, so every unordered one), grouped by
/// `G(a)` so that each group's sets are or-ed word by word first.
#[derive(Default)]
struct Triples {
    /// `TRIPLE_WORDS` words a sum.
    pairs: Vec<u64>,
    /// The or of the pair sets of each first value.
    by_value: Vec<u64>,
}

impl Triples {
    /// Adds the pair set of the sum `n − 1` (every value below `n − 1` is known); `Err` when a
    /// value is too large for the sets.
    fn extend(&mut self, g: &[u16], n: usize) -> std::result::Result<(), ()> {
        if g.last().is_some_and(|&v| v as usize >= TRIPLE_VALUES) {
            return Err(());
        }
        while self.pairs.len() < n * TRIPLE_WORDS {
            let s = self.pairs.len() / TRIPLE_WORDS;
            let mut set = [0u64; TRIPLE_WORDS];
            for b in 1..s {
                let v = (g[b] ^ g[s - b]) as usize;
                set[v >> 6] |= 1 << (v & 63);
            }
            self.pairs.extend_from_slice(&set);
        }
        Ok(())
    }

    /// Marks the values of the moves that leave three heaps summing to `r`.
    fn options(&mut self, g: &[u16], r: usize, mark: &mut impl FnMut(u16)) {
        self.by_value.clear();
        self.by_value.resize(TRIPLE_VALUES * TRIPLE_WORDS, 0);
        let mut used = [0u64; TRIPLE_WORDS];
        for (a, &x) in g.iter().enumerate().take(r - 1).skip(1) {
            let x = x as usize;
            used[x >> 6] |= 1 << (x & 63);
            let row = &mut self.by_value[x * TRIPLE_WORDS..(x + 1) * TRIPLE_WORDS];
            let pairs = &self.pairs[(r - a) * TRIPLE_WORDS..(r - a + 1) * TRIPLE_WORDS];
            row.iter_mut().zip(pairs).for_each(|(w, p)| *w |= p);
        }
        for (wi, &word) in used.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let x = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let row = &self.by_value[x * TRIPLE_WORDS..(x + 1) * TRIPLE_WORDS];
                for (vi, &set) in row.iter().enumerate() {
                    let mut vbits = set;
                    while vbits != 0 {
                        let v = vi * 64 + vbits.trailing_zeros() as usize;
                        vbits &= vbits - 1;
                        mark((v ^ x) as u16);
                    }
                }
            }
        }
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
pub fn solve_values(
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
/// Grundy's game, which the theorem does not cover), the period `p ≤` [`MAX_PERIOD`] with the
/// longest run (the values repeat with period `p` from heap `e` to `N`, at least two periods
/// and [`MIN_RUN`] heaps),
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
    fn facts(&self, code: &Code) -> Vec<Fact> {
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

    /// Every move of every heap, each leaving the whole position with that heap replaced by
    /// what the move leaves (a heap of 0 when it leaves nothing).
    fn moves(&self, pos: &[u32]) -> Vec<Move> {
        let mut out = Vec::new();
        for (j, &h) in pos.iter().enumerate() {
            self.0.code.each_move(h, |k, leaves| {
                let mut whole = pos[..j].to_vec();
                if leaves.is_empty() {
                    whole.push(0);
                } else {
                    whole.extend_from_slice(leaves);
                }
                whole.extend_from_slice(&pos[j + 1..]);
                out.push(Move {
                    label: self.label(h, k, leaves),
                    leaves: whole,
                });
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
}

/// Most rare heaps `info` lists one by one.
const LISTED_RARE: usize = 100;

/// The rare values (the sparse-space split with the fewest rare heaps, as the sparse solver
/// chooses it) and the heaps that have them: `info`'s `rare_mask`, `rare_values` (value,
/// heaps, last heap) and `rare_heaps` (the first [`LISTED_RARE`] heaps with their values, and
/// how many there are).
pub fn rare_facts(values: &dyn Values) -> Vec<Fact> {
    let n = values.len();
    let mut count = vec![0u64; 1 << 16];
    let mut last = vec![0u64; 1 << 16];
    // The first heaps of each value: the first rare heaps are among them, whichever values
    // the mask makes rare, so one pass over the table serves.
    let mut first: Vec<Vec<u64>> = vec![Vec::new(); 1 << 16];
    for i in 0..n {
        let v = values.raw(i) as usize;
        count[v] += 1;
        last[v] = i;
        if first[v].len() < LISTED_RARE {
            first[v].push(i);
        }
    }
    let mask = sparse::choose_mask(&count);
    let rare = |v: usize| (v & mask).count_ones() % 2 == 0;
    let rare_values: Vec<usize> = (0..count.len())
        .filter(|&v| count[v] > 0 && rare(v))
        .collect();
    let heaps: u64 = rare_values.iter().map(|&v| count[v]).sum();
    let mut listed: Vec<(u64, usize)> = rare_values
        .iter()
        .flat_map(|&v| first[v].iter().map(move |&i| (i, v)))
        .collect();
    listed.sort_unstable();
    listed.truncate(LISTED_RARE);
    let values_text = rare_values
        .iter()
        .map(|&v| format!("{v} ({} heaps, the last {})", count[v], last[v]))
        .collect::<Vec<_>>()
        .join(", ");
    let heaps_text = listed
        .iter()
        .map(|(i, v)| format!("{i}:{v}"))
        .collect::<Vec<_>>()
        .join(" ");
    let more = if heaps as usize > listed.len() {
        format!(" ... ({heaps} in all)")
    } else {
        format!(" ({heaps} in all)")
    };
    vec![
        Fact {
            key: "rare_mask".into(),
            label: "Rare values".into(),
            text: format!(
                "those v with an even number of bits in v & {mask} (the split with the fewest \
                 rare heaps); the others are common"
            ),
            json: mask.into(),
        },
        Fact {
            key: "rare_values".into(),
            label: "Rare values found".into(),
            text: values_text,
            json: rare_values
                .iter()
                .map(|&v| serde_json::json!({"value": v, "heaps": count[v], "last_heap": last[v]}))
                .collect::<Vec<_>>()
                .into(),
        },
        Fact {
            key: "rare_heaps".into(),
            label: "Rare heaps (heap:value)".into(),
            text: format!("{heaps_text}{more}"),
            json: serde_json::json!({
                "count": heaps,
                "first": listed.iter().map(|&(i, v)| [i, v as u64]).collect::<Vec<_>>(),
            }),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values by the definition: the mex over every move of [`Code::each_move`].
    fn brute(code: &Code, max_heap: usize) -> Vec<u16> {
        let mut g: Vec<u16> = Vec::new();
        for h in 0..=max_heap {
            let mut seen = std::collections::BTreeSet::new();
            code.each_move(h as u32, |_, leaves| {
                seen.insert(leaves.iter().fold(0, |x, &l| x ^ g[l as usize]));
            });
            g.push((0..).find(|v| !seen.contains(v)).unwrap());
        }
        g
    }

    #[test]
    fn hexadecimal_codes_equal_the_mex_over_every_move() {
        for text in [
            "0.F", "0.8", "4.8", "C.1", "0.9", "0.A", "0.B8", "8.04", "0.38F",
        ] {
            let code = Code::parse(text).unwrap();
            assert!(code.three_heaps(), "{text}");
            let n = 70;
            assert_eq!(
                plain_values(&code, n, &()).unwrap(),
                brute(&code, n as usize),
                "{text}"
            );
            let sparse = solve_values(&code, n, Method::Sparse, &(), &()).unwrap();
            assert_eq!(sparse.into_wide(), brute(&code, n as usize), "{text}");
        }
        // Octal codes too, by both methods.
        for text in ["0.77", "0.137", "4.07", "0.6", "0.167"] {
            let code = Code::parse(text).unwrap();
            let n = 300;
            let want = brute(&code, n as usize);
            assert_eq!(plain_values(&code, n, &()).unwrap(), want, "{text}");
            assert_eq!(sparse_values(&code, n, &()).unwrap(), want, "{text}");
        }
    }

    #[test]
    fn codes_are_read_canonically_and_bad_ones_refused() {
        for (text, canonical) in [
            ("0.77", "0.77"),
            ("0.770", "0.77"),
            (".07", "0.07"),
            ("4.0", "4.0"),
            ("4.00", "4.0"),
            ("0.0700", "0.07"),
            ("GRUNDY", "grundy"),
            ("0.f", "0.F"),
            ("c.1a0", "C.1A"),
            ("8.0", "8.0"),
        ] {
            assert_eq!(Code::parse(text).unwrap().to_string(), canonical, "{text}");
        }
        for (text, why) in [
            ("0.G", "'G' is not a digit"),
            ("2.7", "'2' before the point"),
            ("1.2", "'1' before the point"),
            ("0.", "no digit after the point"),
            ("x", "no point"),
            ("0.0", "no digit allows a move"),
            ("0x1.2", "not 0x"),
        ] {
            let e = Code::parse(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
        assert!(OctalSpec::from_parameters("code=0.770,max-heap=5").is_err());
        assert!(OctalSpec::from_parameters("code=0.77,max-heap=5").is_ok());
        assert!(OctalSpec::new("0.77", 0).is_err());
    }

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
