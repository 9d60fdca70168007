//! Octal games from a code: the values against published sequences (OEIS) and the in-tree
//! subtraction game, the periodicity certificates of Kayles and Dawson's Kayles, random codes
//! against a brute force written here, and sums of heaps answered with their winning moves
//! (library and command line).

mod common;

use std::collections::{BTreeSet, HashMap};

use common::{cli_build, gamedb_ok, json, moves, str_at};
use gamedb::answer::Value;
use gamedb::format::Solved;
use gamedb::games::octal::{periodicity, plain_values, sparse_values, Code, Method, OctalSpec};
use gamedb::games::subtraction::SubtractionSpec;
use gamedb::model::ValueKind;
use gamedb::{Spec, Table};
use proptest::prelude::*;

fn values(code: &str, n: u32) -> Vec<u16> {
    plain_values(&Code::parse(code).unwrap(), n, &()).unwrap()
}

/// OEIS A002186, Sprague-Grundy values of Kayles (octal game .77), n = 0..104
/// (https://oeis.org/A002186; Winning Ways p. 91; Guy & Smith 1956).
const A002186: [u16; 105] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8,
    1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
    4, 1, 2, 8, 1, 4, 7, 2, 1,
];

/// OEIS A002187, Sprague-Grundy values of Dawson's chess (octal game .137), n = 0..131
/// (https://oeis.org/A002187): "Octal game .07 (Dawson's Kayles) has values a(n-1)"; period 34,
/// the only exceptions at n = 0, 14, 16, 17, 31, 34 and 51.
const A002187: [u16; 132] = [
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2,
    7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
    5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
    0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2,
    1, 1, 0, 4,
];

#[test]
fn kayles_and_dawsons_games_equal_oeis() {
    assert_eq!(values("0.77", 104), A002186);
    assert_eq!(values("0.137", 131), A002187);
    // Dawson's Kayles 0.07: G(n) = A002187(n - 1) for n >= 1.
    let dk = values("0.07", 132);
    assert_eq!(dk[0], 0);
    assert_eq!(&dk[1..], &A002187[..]);
}

#[test]
fn kayles_and_dawsons_kayles_are_proved_periodic() {
    // Kayles: period 12 from heap 71, the last exceptional value at heap 70 (OEIS A002186:
    // "From n=71 on, the sequence is periodic with period 12"; Winning Ways ch. 4).
    // Dawson's Kayles: period 34, the last exception of A002187 at 51, i.e. heap 52 of 0.07.
    for (code, period, preperiod) in [("0.77", 12, 71), ("0.07", 34, 53), ("0.137", 34, 52)] {
        let n = 1000;
        let g = values(code, n);
        let t = Code::parse(code).unwrap().last_digit() as u64;
        let p = periodicity(&|i| g[i as usize] as u32, n as u64, t, true);
        assert_eq!(
            (p.period, p.preperiod, p.proved),
            (Some(period), Some(preperiod), true),
            "{code}"
        );
        // The values just short of what the theorem needs prove nothing.
        let short = p.needs.unwrap() - 1;
        let q = periodicity(&|i| g[i as usize] as u32, short, t, true);
        assert!(!q.proved, "{code} to {short}: {q:?}");
        assert_eq!(q.period, Some(period), "{code}: the tentative period");
    }
}

#[test]
fn subtraction_codes_are_the_subtraction_game() {
    // Digit 3 at k (bits 1 and 2): take k from a heap of at least k, leaving the rest.
    for (code, set) in [
        ("0.33", &[1, 2][..]),
        ("0.0303", &[2, 4][..]),
        ("0.3333", &[1, 2, 3, 4][..]),
        ("0.3033", &[1, 3, 4][..]),
    ] {
        let n = 300;
        let Solved::Grundy(sub) = Spec::new(SubtractionSpec::new(set, n).unwrap())
            .solve(ValueKind::Grundy, &())
            .unwrap()
        else {
            panic!("grundy values")
        };
        assert_eq!(values(code, n as u32), sub, "{code} = S{set:?}");
    }
}

/// The moves of a heap of `h` under octal digits `d` (d[0] is 0 or 4), written here from the
/// definition: each as the list of heaps it leaves.
fn brute_moves(d: &[u8], h: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for (k, &dk) in d.iter().enumerate() {
        if k > h {
            continue;
        }
        let rest = h - k;
        if dk & 1 != 0 && rest == 0 {
            out.push(vec![]);
        }
        if dk & 2 != 0 && rest > 0 {
            out.push(vec![rest]);
        }
        if dk & 4 != 0 {
            for a in 1..rest {
                out.push(vec![a, rest - a]);
            }
        }
    }
    out
}

fn mex(set: &BTreeSet<u32>) -> u32 {
    (0..).find(|v| !set.contains(v)).unwrap()
}

/// Grundy values of single heaps by recursion on the definition (every split `(a, b)` and
/// `(b, a)` alike), memoised.
fn brute_heaps(d: &[u8], n: usize) -> Vec<u32> {
    let mut g = Vec::with_capacity(n + 1);
    for h in 0..=n {
        let seen: BTreeSet<u32> = brute_moves(d, h)
            .iter()
            .map(|left| left.iter().fold(0, |x, &a| x ^ g[a]))
            .collect();
        g.push(mex(&seen));
    }
    g
}

/// The Grundy value of a whole sum of heaps by the game tree itself (no xor): mex over every
/// move of every heap.
fn brute_sum(d: &[u8], heaps: &[usize], memo: &mut HashMap<Vec<usize>, u32>) -> u32 {
    let mut key: Vec<usize> = heaps.iter().copied().filter(|&h| h > 0).collect();
    key.sort_unstable();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut seen = BTreeSet::new();
    for j in 0..key.len() {
        for left in brute_moves(d, key[j]) {
            let mut next = key.clone();
            next.remove(j);
            next.extend(left);
            seen.insert(brute_sum(d, &next, memo));
        }
    }
    let v = mex(&seen);
    memo.insert(key, v);
    v
}

fn code_text(d: &[u8]) -> String {
    let digits: String = d[1..].iter().map(|x| x.to_string()).collect();
    format!("{}.{digits}", d[0])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random codes of up to three digits (and 4.d1d2d3): the plain method's values equal the
    /// definition's, to 300 heaps.
    #[test]
    fn random_codes_equal_the_definition(
        d0 in prop::sample::select(vec![0u8, 4]),
        digits in prop::collection::vec(0u8..8, 1..=3),
    ) {
        let mut d = vec![d0];
        d.extend(&digits);
        prop_assume!(d.iter().any(|&x| x != 0));
        let n = 300;
        let got = values(&code_text(&d), n as u32);
        let want = brute_heaps(&d, n);
        let got: Vec<u32> = got.iter().map(|&v| v as u32).collect();
        prop_assert_eq!(got, want);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random codes of up to three digits: the rare/common method's values equal the plain
    /// method's to 2^14 heaps.
    #[test]
    fn random_codes_sparse_equals_plain(
        d0 in prop::sample::select(vec![0u8, 4]),
        digits in prop::collection::vec(0u8..8, 1..=3),
    ) {
        let mut d = vec![d0];
        d.extend(&digits);
        prop_assume!(d.iter().any(|&x| x != 0));
        let code = Code::parse(&code_text(&d)).unwrap();
        let n = 1 << 14;
        prop_assert_eq!(
            sparse_values(&code, n, &()).unwrap(),
            plain_values(&code, n, &()).unwrap()
        );
    }
}

#[test]
fn known_games_sparse_equals_plain() {
    for code in [
        "0.16", "0.6", "0.167", "0.77", "0.07", "4.07", "0.7777", "grundy",
    ] {
        let code = Code::parse(code).unwrap();
        let n = 1 << 14;
        assert_eq!(
            sparse_values(&code, n, &()).unwrap(),
            plain_values(&code, n, &()).unwrap(),
            "{code}"
        );
    }
    // Through the spec: both methods make the same table (the method is not its identity).
    let spec = OctalSpec::new("0.16", 3000).unwrap();
    let plain = spec.clone().with_method(Method::Plain);
    assert_eq!(spec, plain);
    let a = common::payload_bytes(&Spec::new(spec), ValueKind::Grundy);
    let b = common::payload_bytes(&Spec::new(plain), ValueKind::Grundy);
    assert_eq!(a, b);
}

#[test]
fn sums_are_the_game_tree_and_their_winning_moves_win() {
    for d in [
        &[0u8, 7, 7][..],
        &[0, 0, 7],
        &[0, 1, 3, 7],
        &[4, 0, 7],
        &[0, 6],
        &[0, 3, 3],
    ] {
        let code = code_text(d);
        let n = 9;
        let spec = Spec::new(OctalSpec::new(&code, n).unwrap());
        let table = common::table(&spec, ValueKind::Grundy);
        let rules = table.rules();
        let mut memo = HashMap::new();
        for a in 0..=n as usize {
            for b in 0..=a {
                for c in 0..=b.min(5) {
                    let heaps = [a, b, c];
                    let text = format!("{a},{b},{c}");
                    let answer = table.query(&text).unwrap();
                    let want = brute_sum(d, &heaps, &mut memo);
                    assert_eq!(answer.grundy(), Some(want), "{code} {text}");
                    // Winning moves: exactly the moves (of the whole sum) to a P-position.
                    let winning: BTreeSet<(String, Vec<u32>)> = rules
                        .moves(&[a as u32, b as u32, c as u32])
                        .into_iter()
                        .filter(|m| {
                            let left: Vec<usize> = m.leaves.iter().map(|&x| x as usize).collect();
                            brute_sum(d, &left, &mut memo) == 0
                        })
                        .map(|m| (m.label, m.leaves))
                        .collect();
                    // The answer lists the first of them and counts the rest.
                    let got: BTreeSet<(String, Vec<u32>)> = answer
                        .winning_moves()
                        .iter()
                        .map(|m| (m.label.clone(), m.numbers.clone()))
                        .collect();
                    assert!(got.is_subset(&winning), "{code} {text}");
                    let Some(Value::Game(g)) = Some(&answer.value) else {
                        panic!("{code} {text}: not an answer of Grundy values");
                    };
                    assert_eq!(
                        g.winning_moves.len() as u64 + g.more_winning_moves.unwrap_or(0),
                        winning.len() as u64,
                        "{code} {text}"
                    );
                    assert_eq!(
                        g.winning_moves.len(),
                        winning.len().min(gamedb::answer::MOVES_LISTED),
                        "{code} {text}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_command_line_answers_sums_and_certifies_periods() {
    let dir = cli_build("octal-cli", "octal --code 0.770 --max-heap 200");
    let path = dir.join("octal-0.77-200.gtab");
    let out = gamedb_ok(&["query", &path, "3,5,17", "--json"]);
    let a = json(&out);
    // G(3) ^ G(5) ^ G(17) = 3 ^ 4 ^ 4 = 3.
    assert_eq!(a["grundy"], 3, "{out}");
    assert_eq!(str_at(&a, "outcome"), "N");
    let wins = moves(&a, "winning_moves");
    assert!(
        wins.contains(&(
            "take 1 from the heap of 3, leaving heaps of 1 and 1".to_string(),
            "1,1,5,17".to_string()
        )),
        "{wins:?}"
    );
    let table = Table::open(&path).unwrap();
    for (_, leaves) in &wins {
        assert_eq!(table.query(leaves).unwrap().grundy(), Some(0), "{leaves}");
    }
    let text = gamedb_ok(&["query", &path, "3,5,17"]);
    assert!(text.contains("take 1 from the heap of 3"), "{text}");

    let info = json(&gamedb_ok(&["info", &path, "--json"]));
    assert_eq!(info["parameters"], "code=0.77,max-heap=200");
    assert_eq!(
        (info["period"].clone(), info["preperiod"].clone()),
        (12.into(), 71.into())
    );
    assert_eq!(info["proved"], true);
    let text = gamedb_ok(&["info", &path]);
    assert!(text.contains("octal periodicity theorem"), "{text}");

    // Too short to prove: the tentative period.
    let dir = cli_build("octal-short", "octal --code 0.77 --max-heap 100");
    let info = json(&gamedb_ok(&[
        "info",
        &dir.join("octal-0.77-100.gtab"),
        "--json",
    ]));
    assert_eq!(info["proved"], false);
    assert_eq!(info["period"], 12);
}

#[test]
fn bad_positions_are_refused_clearly() {
    let dir = cli_build("octal-bad", "octal --code 0.07 --max-heap 20");
    let path = dir.join("octal-0.07-20.gtab");
    for (position, needles) in [
        (
            "3,21",
            &["heap 21 is larger", "largest heap 20", "heap sizes"][..],
        ),
        ("3,x", &["'x' is not a non-negative integer", "heap sizes"]),
        ("", &["empty position"]),
    ] {
        common::refused(position, &["query", &path, position], needles);
    }
    // `rank` names single heaps only: a sum is no one entry.
    common::refused(
        "rank",
        &["rank", &path, "3,4"],
        &["a sum of 2 table entries"],
    );
    assert_eq!(gamedb_ok(&["rank", &path, "17"]).trim(), "17: 17");
}

#[test]
fn gangolli_and_plambeck_periods_are_proved() {
    // 0.16: period 149,459 (Gangolli & Plambeck 1989, cited second-hand; the preperiod is
    // this computation's: the last exceptional value at heap 105,350). 0.127: period 4, the last
    // exception at n = 46577 (OEIS A071464, citing Gangolli & Plambeck).
    for (code, n, period, preperiod) in [
        ("0.16", 1 << 19, 149_459, 105_351),
        ("0.127", 1 << 17, 4, 46_578),
    ] {
        let c = Code::parse(code).unwrap();
        let g = sparse_values(&c, n, &()).unwrap();
        let p = periodicity(
            &|i| g[i as usize] as u32,
            n as u64,
            c.last_digit() as u64,
            true,
        );
        assert_eq!(
            (p.period, p.preperiod, p.proved),
            (Some(period), Some(preperiod), true),
            "{code}"
        );
    }
}

#[test]
fn the_stream_and_the_c_abi_answer_sums_alike() {
    use std::ffi::CString;
    let dir = cli_build("octal-abi", "octal --code 0.07 --max-heap 60");
    let path = dir.join("octal-0.07-60.gtab");
    let lines = ["3,5,17", "0", "4,4", "60,1,2,3"];
    let out = common::gamedb_stdin(
        &["query", "--json", &path, "-"],
        lines.join("\n").as_bytes(),
    );
    assert!(out.status.success());
    let stream = common::json_lines(&common::stdout(&out));
    let table = Table::open(&path).unwrap();
    let c_path = CString::new(path.as_str()).unwrap();
    // SAFETY: a valid NUL-terminated path; the handle is closed below.
    let handle = unsafe { common::c_abi::gamedb_open(c_path.as_ptr(), 0) };
    assert!(!handle.is_null());
    for (line, streamed) in lines.iter().zip(&stream) {
        let answer = table.query(line).unwrap();
        assert_eq!(streamed["grundy"], answer.grundy().unwrap(), "{line}");
        let want = json(&gamedb_ok(&["query", "--json", &path, line]));
        assert_eq!(streamed, &want, "{line}");
        let text = CString::new(*line).unwrap();
        // SAFETY: an open handle and a NUL-terminated position.
        let (value, outcome) = unsafe {
            (
                common::c_abi::gamedb_value(handle, text.as_ptr()),
                common::c_abi::gamedb_outcome(handle, text.as_ptr()),
            )
        };
        assert_eq!(value, answer.grundy().unwrap() as i64, "{line}");
        assert_eq!(outcome, (value != 0) as i64, "{line}");
    }
    // SAFETY: the handle from gamedb_open, closed once.
    unsafe { common::c_abi::gamedb_close(handle) };
}

/// A long octal build killed (SIGKILL) after its first checkpoint resumes to the same bytes as
/// an uninterrupted one; a checkpoint of another code and a truncated one are refused.
#[test]
fn a_killed_octal_build_resumes_to_the_same_bytes() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    // 0.167 to 2^23 - 1: eight offers to save (every 2^20 heaps), a few seconds in all.
    let max = "8388607";
    let table = format!("octal-0.167-{max}.gtab");
    let args = |dir: &str, more: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "build",
            "octal",
            "--code",
            "0.167",
            "--max-heap",
            max,
            "--out",
            dir,
            "-q",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(more.iter().map(|s| s.to_string()));
        a
    };
    let reference = common::TempDir::new("octal-resume-ref");
    let out = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args(args(reference.arg(), &["--no-checkpoints"]))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = std::fs::read(reference.path().join(&table)).unwrap();

    let dir = common::TempDir::new("octal-resume");
    let ckpt = dir.path().join(format!("{table}.checkpoint"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args(args(dir.arg(), &["--checkpoint-every", "0"]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !ckpt.exists() && started.elapsed() < Duration::from_secs(120) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the build finished before a checkpoint"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    assert!(
        !child.wait().unwrap().success(),
        "the build finished before the kill"
    );
    assert!(!dir.path().join(&table).exists());
    let good = std::fs::read(&ckpt).unwrap();

    // A checkpoint of another code under this table's name is refused.
    let other = common::TempDir::new("octal-resume-other");
    let mut theirs = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args([
            "build",
            "octal",
            "--code",
            "0.16",
            "--max-heap",
            max,
            "--out",
            other.arg(),
            "-q",
            "--checkpoint-every",
            "0",
        ])
        .spawn()
        .unwrap();
    let their_ckpt = other
        .path()
        .join(format!("octal-0.16-{max}.gtab.checkpoint"));
    while !their_ckpt.exists() {
        assert!(theirs.try_wait().unwrap().is_none(), "0.16 finished first");
        std::thread::sleep(Duration::from_millis(2));
    }
    theirs.kill().unwrap();
    theirs.wait().unwrap();
    std::fs::write(&ckpt, std::fs::read(&their_ckpt).unwrap()).unwrap();
    let resume: Vec<String> = args(dir.arg(), &["--resume"]);
    let resume: Vec<&str> = resume.iter().map(String::as_str).collect();
    common::refused(
        "another code",
        &resume,
        &["checkpoint", "0.16", "not of", "cannot be resumed"],
    );
    // Truncated.
    std::fs::write(&ckpt, &good[..good.len() - 100]).unwrap();
    common::refused("truncated", &resume, &["checkpoint", "cannot be resumed"]);

    // The real one resumes to the same bytes.
    std::fs::write(&ckpt, &good).unwrap();
    let mut json_args = resume.clone();
    json_args.push("--json");
    let summary = json(gamedb_ok(&json_args).trim());
    assert!(
        summary["resumed_at_wave"]
            .as_u64()
            .is_some_and(|w| (1..8).contains(&w)),
        "{summary}"
    );
    assert_eq!(std::fs::read(dir.path().join(&table)).unwrap(), want);
    assert!(!ckpt.exists(), "the checkpoint has served and is removed");
}

/// Hexadecimal codes from the command line: a move may leave three heaps, in words.
#[test]
fn hexadecimal_codes_build_and_answer_in_words() {
    let dir = cli_build("octal-hex", "octal --code 0.F --max-heap 60");
    let path = dir.join("octal-0.F-60.gtab");
    let info = json(&gamedb_ok(&["info", &path, "--json"]));
    assert_eq!(info["parameters"], "code=0.F,max-heap=60");
    assert_eq!(
        info["proved"], false,
        "the theorem is not applied to three-heap moves"
    );
    let a = json(&gamedb_ok(&["query", &path, "7", "--json"]));
    let wins = moves(&a, "winning_moves");
    assert!(
        wins.contains(&(
            "take 1 from the heap of 7, leaving heaps of 2, 2 and 2".to_string(),
            "2,2,2".to_string()
        )),
        "{wins:?}"
    );
    let table = Table::open(&path).unwrap();
    for (_, leaves) in &wins {
        assert_eq!(table.query(leaves).unwrap().grundy(), Some(0), "{leaves}");
    }
    // The heap's value is the mex over every move (three heaps among them), by the code.
    let code = Code::parse("0.F").unwrap();
    for h in 0..=60u32 {
        let mut reached = BTreeSet::new();
        code.each_move(h, |_, leaves| {
            let pos: Vec<String> = leaves.iter().map(|l| l.to_string()).collect();
            let v = if pos.is_empty() {
                0
            } else {
                table.query(&pos.join(",")).unwrap().grundy().unwrap()
            };
            reached.insert(v);
        });
        let mex = (0..).find(|v| !reached.contains(v)).unwrap();
        assert_eq!(
            table.query(&h.to_string()).unwrap().grundy(),
            Some(mex),
            "heap {h}"
        );
    }
}

/// `info` lists the rare values of 0.167 as the sparse method splits them: 60 rare heaps to
/// 2^20, the last at heap 1303 with value 22 (as Rogalski's solver reports to 2^20).
#[test]
fn info_lists_the_rare_values() {
    let dir = cli_build("octal-rare", "octal --code 0.167 --max-heap 1048575");
    let path = dir.join("octal-0.167-1048575.gtab");
    let info = json(&gamedb_ok(&["info", &path, "--json"]));
    assert_eq!(info["rare_heaps"]["count"], 60, "{}", info["rare_heaps"]);
    let values = info["rare_values"].as_array().unwrap();
    let last = values
        .iter()
        .map(|v| v["last_heap"].as_u64().unwrap())
        .max()
        .unwrap();
    assert_eq!(last, 1303);
    assert!(
        values
            .iter()
            .any(|v| v["value"] == 22 && v["last_heap"] == 1303),
        "{values:?}"
    );
    let text = gamedb_ok(&["info", &path]);
    assert!(text.contains("1303:22 (60 in all)"), "{text}");
}
