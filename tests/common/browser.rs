//! A real browser for the explorer tests: Debian's `chromium` driven headlessly through
//! `chromedriver` (W3C WebDriver, spoken here over plain HTTP). It fails, never skips, when
//! the browser is missing (`.ci/run` installs it).

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::http::Client;

const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "/usr/bin/chromedriver";
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A chromedriver process and one browser session.
pub struct Browser {
    driver: Child,
    client: Client,
    session: String,
}

impl Browser {
    pub fn start() -> Browser {
        for tool in [CHROMIUM, DRIVER] {
            assert!(
                Path::new(tool).exists(),
                "{tool} is missing: the browser test needs Debian's chromium and chromium-driver \
                 (apt-get install chromium chromium-driver; .ci/run installs them)"
            );
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(DRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let client = Client {
            addr: format!("127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(&client.addr).is_err() {
            assert!(
                Instant::now() < deadline,
                "chromedriver did not start listening"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1200,900"]
            }
        }}});
        let mut b = Browser {
            driver,
            client,
            session: String::new(),
        };
        let r = b.call("POST", "/session", caps);
        b.session = r["sessionId"].as_str().expect("a session id").to_string();
        b
    }

    /// One WebDriver command; its `value`.
    pub fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let body = if method == "GET" || method == "DELETE" {
            Vec::new()
        } else {
            body.to_string().into_bytes()
        };
        let r = self.client.request(
            method,
            path,
            &["Content-Type: application/json; charset=utf-8"],
            &body,
        );
        let v = r.json();
        assert_eq!(r.status, 200, "WebDriver {method} {path}: {v}");
        v["value"].clone()
    }

    pub fn session(&self, method: &str, path: &str, body: Value) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    pub fn go(&self, url: &str) {
        self.session("POST", "/url", json!({"url": url}));
    }

    /// Runs `script` (a function body) in the page and returns its result.
    pub fn run(&self, script: &str) -> Value {
        self.session(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": []}),
        )
    }

    /// Waits until `script` returns something truthy, and returns it.
    pub fn wait(&self, what: &str, script: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let v = self.run(script);
            if !(v.is_null() || v == json!(false) || v == json!("")) {
                return v;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn click(&self, css: &str) {
        let found = self.session(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        let id = found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {found}"));
        self.session("POST", &format!("/element/{id}/click"), json!({}));
    }

    pub fn screenshot(&self, path: &Path) {
        let png = base64(
            self.session("GET", "/screenshot", json!({}))
                .as_str()
                .unwrap(),
        );
        assert_eq!(&png[1..4], b"PNG");
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self
                .client
                .request("DELETE", &format!("/session/{}", self.session), &[], b"");
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .map(value)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for c in digits.chunks(4) {
        let n = c
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | (d as u32) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..c.len()]);
    }
    out
}

/// Copies the screenshots into `target/tmp/browser-screenshots` when GAMEDB_KEEP_SCREENSHOTS
/// is set (the test's own folder is removed at its end).
pub fn keep_screenshots(dir: &Path, files: &[&str]) {
    if std::env::var_os("GAMEDB_KEEP_SCREENSHOTS").is_some() {
        let keep = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-screenshots");
        std::fs::create_dir_all(&keep).unwrap();
        for f in files {
            std::fs::copy(dir.join(f), keep.join(f)).unwrap();
        }
        eprintln!("screenshots kept in {}", keep.display());
    }
}
