//! Helpers shared by the integration tests (see `tests/README.md`): temporary folders, running
//! the `gamedb` binary, JSON answers, thread pools, a small random generator, tables built in
//! memory or into a folder, and the programs (C compiler, Python) some tests need; `http`
//! (`http.rs`): a `gamedb serve` and a plain HTTP client, for the service tests; `browser`
//! (`browser.rs`): chromium through chromedriver, for the explorer tests; `c_abi`
//! (`c_abi.rs`): the C ABI's functions, declared as `src/gamedb.h` declares them, and its
//! constants.
#![allow(dead_code)]

pub mod browser;
pub mod c_abi;
pub mod http;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use gamedb::format::payload;
use gamedb::games::board::Board;
use gamedb::{Spec, Table, ValueKind};

/// The crate's root folder.
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A fresh, empty temporary folder removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let p = std::env::temp_dir().join(format!("gamedb-test-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The folder as a command-line argument.
    pub fn arg(&self) -> &str {
        self.0.to_str().expect("temporary folders have UTF-8 names")
    }

    /// A file (or folder) inside it, as a command-line argument.
    pub fn join(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// ---------- the binary ----------

/// The gamedb binary of this test run.
pub const GAMEDB: &str = env!("CARGO_BIN_EXE_gamedb");

/// Runs the gamedb binary.
pub fn gamedb(args: &[&str]) -> Output {
    run(Path::new(GAMEDB), args)
}

/// Runs the gamedb binary with `input` on its standard input (written whole, then closed).
pub fn gamedb_stdin(args: &[&str], input: &[u8]) -> Output {
    run_stdin(Path::new(GAMEDB), args, input)
}

/// Runs `program` (a binary with gamedb's command line, such as the one of
/// `tests/kayles/`).
pub fn run(program: &Path, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{} does not run: {e}", program.display()))
}

/// Runs `program` with `input` on its standard input (written whole, then closed).
pub fn run_stdin(program: &Path, args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{} does not run: {e}", program.display()));
    let mut stdin = child.stdin.take().expect("piped stdin");
    // Written from a thread: a large input must not wait for output nobody reads yet.
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("the program ends");
    match writer.join().expect("the writer thread ends") {
        // gamedb may end before reading everything (a source failure ends a stream); the
        // caller checks the exit status and the output.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        r => r.expect("the program reads its input"),
    }
    out
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs gamedb and requires success; returns its standard output.
pub fn gamedb_ok(args: &[&str]) -> String {
    run_ok(Path::new(GAMEDB), args)
}

/// Runs `program` and requires success; returns its standard output.
pub fn run_ok(program: &Path, args: &[&str]) -> String {
    let o = run(program, args);
    assert!(
        o.status.success(),
        "{} {args:?} failed ({:?}): {}",
        program.display(),
        o.status,
        stderr(&o)
    );
    stdout(&o)
}

/// Runs gamedb and requires the refusal of bad input: exit status 2, no panic, and a message
/// on stderr containing every one of `needles`. `case` names the case in failures. Returns
/// stderr.
pub fn refused(case: &str, args: &[&str], needles: &[&str]) -> String {
    run_refused(Path::new(GAMEDB), case, args, needles)
}

/// [`refused`], of `program`.
pub fn run_refused(program: &Path, case: &str, args: &[&str], needles: &[&str]) -> String {
    let o = run(program, args);
    let e = stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{case}: {} {args:?} should exit 2; stderr: {e}",
        program.display()
    );
    assert!(!e.contains("panicked"), "{case}: a panic: {e}");
    for n in needles {
        assert!(
            e.contains(n),
            "{case}: {} {args:?}: stderr lacks {n:?}: {e}",
            program.display()
        );
    }
    e
}

// ---------- JSON ----------

/// One JSON value (an answer line); panics naming the text when it is not JSON.
pub fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text.trim_end())
        .unwrap_or_else(|e| panic!("not one JSON value ({e}): {text}"))
}

/// The whole numbers at `key` of a JSON answer (a count list); panics naming the answer when
/// they are not.
pub fn u64s_at(answer: &serde_json::Value, key: &str) -> Vec<u64> {
    answer[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is not a list: {answer}"))
        .iter()
        .map(|c| {
            c.as_u64()
                .unwrap_or_else(|| panic!("{key}: {c} is not a count"))
        })
        .collect()
}

/// The text at `key` of a JSON answer; panics naming the answer when it is not text.
pub fn str_at<'a>(answer: &'a serde_json::Value, key: &str) -> &'a str {
    answer[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not text: {answer}"))
}

/// Every line of a text as JSON.
pub fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines().map(json).collect()
}

/// The `(move, leaves)` pairs of a list of moves in an answer (`winning_moves`,
/// `optimal_moves`, `path`); empty when the key is absent.
pub fn moves(answer: &serde_json::Value, key: &str) -> Vec<(String, String)> {
    match answer.get(key) {
        None => Vec::new(),
        Some(list) => list
            .as_array()
            .unwrap_or_else(|| panic!("{key} is not a list: {answer}"))
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().expect("a move label").to_string(),
                    m["leaves"].as_str().expect("a position").to_string(),
                )
            })
            .collect(),
    }
}

// ---------- threads, randomness ----------

/// Runs `f` on a rayon pool of `n` threads.
pub fn with_threads<T: Send>(n: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
        .install(f)
}

/// A small deterministic generator (xorshift64*), so tests need no extra crate.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A uniformly random arrangement of a board's tiles (half of them unsolvable).
pub fn random_arrangement(board: Board, rng: &mut Rng) -> Vec<u32> {
    let mut t: Vec<u32> = (0..board.cells() as u32).collect();
    for i in (1..t.len()).rev() {
        t.swap(i, rng.below(i as u64 + 1) as usize);
    }
    t
}

/// A uniformly random solvable arrangement.
pub fn random_solvable(board: Board, rng: &mut Rng) -> Vec<u32> {
    let mut pos = random_arrangement(board, rng);
    if !board.solvable(&pos) {
        // Swapping two tiles flips solvability (and is a bijection between the halves).
        let tiles: Vec<usize> = (0..pos.len()).filter(|&i| pos[i] != 0).take(2).collect();
        pos.swap(tiles[0], tiles[1]);
    }
    pos
}

/// `a,b,c`, as queries read positions.
pub fn text_of(pos: &[u32]) -> String {
    gamedb::game::format_numbers(pos)
}

/// The published counts of `tests/data/slide-distances.txt` (OEIS A089473, A090034 and
/// partial 4×4 counts), keyed by (rows, cols). The file must be there: the test fails
/// without it.
pub fn published_slide_counts() -> HashMap<(usize, usize), Vec<u64>> {
    let path = Path::new(ROOT).join("tests/data/slide-distances.txt");
    let data = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; the published distance counts are needed to check the tables",
            path.display()
        )
    });
    let mut out = HashMap::new();
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains(':'))
    {
        let (board, counts) = line.split_once(':').unwrap();
        // Boards are written 'width x height' there.
        let (w, h) = board
            .split_whitespace()
            .next()
            .unwrap()
            .split_once('x')
            .unwrap();
        let counts: Vec<u64> = counts
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        let (w, h): (usize, usize) = (w.parse().unwrap(), h.parse().unwrap());
        out.insert((h, w), counts.clone());
        out.insert((w, h), counts);
    }
    out
}

// ---------- tables ----------

/// Solves a table in memory.
pub fn table(spec: &Spec, kind: ValueKind) -> Table {
    let solved = spec.solve(kind, &()).unwrap();
    Table::from_solved(spec, solved).unwrap()
}

/// The payload bytes of a table solved in memory (what a file of it holds after the header).
pub fn payload_bytes(spec: &Spec, kind: ValueKind) -> Vec<u8> {
    payload::encode(spec.solve(kind, &()).unwrap()).bytes
}

/// Solves and writes a table into `dir` under its standard name; returns its path.
pub fn build(spec: Spec, kind: ValueKind, dir: &Path) -> PathBuf {
    gamedb::build::build(&spec, kind, dir, &()).unwrap().path
}

/// A byte count as gamedb prints it (`512 B`, `8.0 MiB`, `8.8 GiB`): powers of 1024, one
/// decimal.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    format!("{v:.1} {}", UNITS[u])
}

// ---------- other programs ----------

/// The folder of this test run's build profile, e.g. `target/debug`: the test binary lives
/// in its `deps/` (this follows `CARGO_TARGET_DIR`, `--target` and `--release` by itself).
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    exe.parent()
        .and_then(Path::parent)
        .expect("test binary is in <target>/<profile>/deps")
        .to_path_buf()
}

/// The shared library built from the same sources as this test binary. Cargo writes it into
/// `deps/` when it builds the library for the tests, and copies it one folder up only when
/// the library itself was asked for (`cargo build`); prefer the one in `deps/`.
pub fn shared_library() -> PathBuf {
    let name = format!(
        "{}gamedb{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let dir = profile_dir();
    let candidates = [dir.join("deps").join(&name), dir.join(&name)];
    candidates
        .iter()
        .find(|p| p.exists())
        .cloned()
        .unwrap_or_else(|| {
            panic!(
                "the shared library {name} was not found in {} or its deps/ folder; \
                 is `crate-type` still [\"rlib\", \"cdylib\"] in Cargo.toml?",
                dir.display()
            )
        })
}

/// The program named by environment variable `var` (else `default`), which must run with
/// `--version`. A test that needs a program fails when it is missing, never skips: the
/// message says how to name another one.
/// The Python the tests run: `$PYTHON`, else the virtual environment `scripts/test.sh` makes
/// under `target/` (so a plain `cargo test` after it finds the packages), else `python3`.
pub fn python() -> String {
    let venv = Path::new(ROOT).join("target/test-venv/bin/python");
    let default = if venv.exists() {
        venv.display().to_string()
    } else {
        "python3".to_string()
    };
    program("PYTHON", &default)
}

pub fn program(var: &str, default: &str) -> String {
    let prog = std::env::var(var).unwrap_or_else(|_| default.into());
    let found = Command::new(&prog)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "{prog} is not available; this test needs it (install it, or set {var} to another program)"
    );
    prog
}

/// Every ordered tuple of `s` heaps of 0..=h.
pub fn tuples(s: usize, h: u32) -> Vec<Vec<u32>> {
    let mut out = vec![vec![]];
    for _ in 0..s {
        out = out
            .into_iter()
            .flat_map(|t| {
                (0..=h).map(move |x| {
                    let mut t = t.clone();
                    t.push(x);
                    t
                })
            })
            .collect();
    }
    out
}

/// The arguments of a command line written as one string: words split at spaces, each `{}`
/// replaced by the next of `fill` (paths and other values that must not be split).
pub fn words<'a>(line: &'a str, fill: &[&'a str]) -> Vec<&'a str> {
    let mut fill = fill.iter();
    let args: Vec<&str> = line
        .split_whitespace()
        .map(|w| {
            if w == "{}" {
                fill.next().expect("a value for every {}")
            } else {
                w
            }
        })
        .collect();
    assert!(fill.next().is_none(), "more values than {{}} in '{line}'");
    args
}

/// A fresh temporary folder holding the table `gamedb build <what> --out DIR -q` writes.
pub fn cli_build(tag: &str, what: &str) -> TempDir {
    let dir = TempDir::new(tag);
    let line = format!("build {what} --out {{}} -q");
    gamedb_ok(&words(&line, &[dir.arg()]));
    dir
}

/// A fresh temporary folder with a catalog file holding `text`: the folder, the catalog's path
/// and the path of a `tables` folder inside it for `build-all --out`.
pub fn with_catalog(tag: &str, text: &str) -> (TempDir, String, PathBuf) {
    let dir = TempDir::new(tag);
    let cat = dir.join("catalog.txt");
    std::fs::write(&cat, text).unwrap();
    let out = dir.path().join("tables");
    (dir, cat, out)
}

/// `gamedb build-all --catalog CAT --out OUT -q` and `more`, as arguments.
pub fn build_all_args<'a>(cat: &'a str, out: &'a Path, more: &[&'a str]) -> Vec<&'a str> {
    let out = out.to_str().expect("temporary folders have UTF-8 names");
    let mut args = vec!["build-all", "--catalog", cat, "--out", out, "-q"];
    args.extend_from_slice(more);
    args
}

/// Runs `gamedb build-all` of catalog `cat` into `out`, which must succeed; its stdout.
pub fn build_all_ok(cat: &str, out: &Path) -> String {
    let o = gamedb(&build_all_args(cat, out, &[]));
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

/// The row of `build-all`'s summary about `table`.
pub fn summary_row(out: &str, table: &str) -> String {
    out.lines()
        .find(|l| l.starts_with(table))
        .unwrap_or_else(|| panic!("{table} missing from summary:\n{out}"))
        .to_string()
}

/// The names of the files in `dir` that `keep` does not accept: what a run should not have
/// left behind.
pub fn left_over(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !keep(n))
        .collect()
}

// ---------- command lines of several tests ----------

/// A path as a command-line argument (temporary folders have UTF-8 names).
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A program's output bytes as text (UTF-8, or the test fails).
pub fn text(out: &[u8]) -> String {
    String::from_utf8(out.to_vec()).unwrap()
}

/// Builds a table with the CLI into `dir` (`what`: the words after `build`); returns its path.
pub fn built(dir: &Path, what: &str, name: &str) -> PathBuf {
    gamedb_ok(&words(&format!("build {what} --out {{}} -q"), &[s(dir)]));
    dir.join(name)
}

/// Starts gamedb with its output piped, for tests that run several at once.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Requires a refusal of bad input (exit status 2, no panic); returns stderr. `what` names
/// the case in failures.
pub fn exit2(o: &Output, what: &str) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{what}: {e}");
    assert!(!e.contains("panicked"), "{what}: {e}");
    e
}
