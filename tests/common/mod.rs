//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gamedb::games::Spec;
use gamedb::ValueKind;
use indicatif::ProgressBar;

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
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the gamedb binary.
pub fn gamedb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args(args)
        .output()
        .expect("gamedb runs")
}

/// Runs the gamedb binary with `input` on its standard input (written whole, then closed).
pub fn gamedb_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamedb"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gamedb runs");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(input)
        .expect("gamedb reads its input");
    child.wait_with_output().expect("gamedb ends")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

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

/// The crate's root folder.
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

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

/// A fresh, empty temporary folder for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamedb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Solves and writes a table into `dir`; returns its path.
pub fn build(spec: Spec, kind: ValueKind, dir: &Path) -> PathBuf {
    gamedb::build::build(&spec, kind, dir, &ProgressBar::hidden())
        .unwrap()
        .path
}

/// The program named by environment variable `var` (else `default`) if it runs with
/// `--version`; otherwise `None` after saying the test is skipped, or a panic when
/// `require` is set in the environment (CI sets it so nothing is skipped silently).
pub fn program(var: &str, default: &str, require: &str) -> Option<String> {
    let prog = std::env::var(var).unwrap_or_else(|_| default.into());
    let found = Command::new(&prog)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        Some(prog)
    } else if std::env::var_os(require).is_some() {
        panic!("{prog} is not available and {require} is set");
    } else {
        eprintln!("SKIPPED: {prog} not found (set {var} to another program; {require}=1 makes this an error)");
        None
    }
}
