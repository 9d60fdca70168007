//! What the service tests share: a folder of small tables, a `gamedb serve` started on an
//! ephemeral loopback port (stopped with SIGTERM when dropped), a plain HTTP/1.1 client that
//! sends exactly the bytes it is given (so path-traversal attempts reach the server
//! unnormalized), and the gamedb command for comparisons.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

#[allow(unused_imports)] // each test file uses some of them
pub use super::{gamedb, gamedb_stdin, TempDir};

/// Builds tables into `dir` with `gamedb build` (each line a build's arguments).
pub fn build(dir: &Path, builds: &[&str]) {
    for b in builds {
        let mut args: Vec<&str> = vec!["build"];
        args.extend(b.split_whitespace());
        args.extend(["--out", dir.to_str().unwrap(), "--quiet"]);
        let out = gamedb(&args);
        assert!(
            out.status.success(),
            "gamedb {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A running `gamedb serve` (its [`Client`] by deref).
pub struct Server {
    pub child: Child,
    pub client: Client,
}

impl std::ops::Deref for Server {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self.client
    }
}

/// Requests to a server's address.
#[derive(Clone)]
pub struct Client {
    pub addr: String,
}

impl Server {
    /// Starts `gamedb serve --tables DIR --addr 127.0.0.1:0 EXTRA...` and reads its port
    /// from the first line it prints.
    pub fn start(dir: &Path, extra: &[&str]) -> Server {
        Server::start_in(Path::new("."), dir.to_str().unwrap(), extra)
    }

    /// The same, run in the folder `cwd` with `--tables FOLDER` as given (so that answers
    /// naming the folder read as the documentation shows them).
    pub fn start_in(cwd: &Path, folder: &str, extra: &[&str]) -> Server {
        Server::start_program(Path::new(env!("CARGO_BIN_EXE_gamedb")), cwd, folder, extra)
    }

    /// The same, of `program` (a binary with gamedb's command line, such as the one of
    /// `tests/kayles/`).
    pub fn start_program(program: &Path, cwd: &Path, folder: &str, extra: &[&str]) -> Server {
        let mut child = Command::new(program)
            .current_dir(cwd)
            .args(["serve", "--tables", folder, "--addr", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("{} serve does not start: {e}", program.display()));
        let mut first = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut first)
            .unwrap();
        let addr = first
            .split("http://")
            .nth(1)
            .and_then(|s| s.split('/').next())
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        Server {
            child,
            client: Client { addr },
        }
    }

    /// Sends SIGTERM and waits for the exit status.
    pub fn stop(&mut self) -> std::process::ExitStatus {
        // SAFETY: signalling our own child by its id.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        self.child.wait().unwrap()
    }
}

impl Client {
    /// GET `path`.
    pub fn get(&self, path: &str) -> Response {
        self.request("GET", path, &[], b"")
    }

    /// POST `body` to `path`.
    pub fn post(&self, path: &str, body: &[u8]) -> Response {
        self.request("POST", path, &[], body)
    }

    /// Any request, on a new connection closed after the answer.
    pub fn request(&self, method: &str, path: &str, headers: &[&str], body: &[u8]) -> Response {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            self.addr
        );
        for h in headers {
            head += h;
            head += "\r\n";
        }
        if !headers
            .iter()
            .any(|h| h.to_ascii_lowercase().starts_with("content-length"))
        {
            head += &format!("Content-Length: {}\r\n", body.len());
        }
        head += "\r\n";
        s.write_all(head.as_bytes()).unwrap();
        // A server may answer (413) before reading the whole body and close: ignore that.
        let _ = s.write_all(body);
        read_response(&mut s)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.stop();
        }
    }
}

/// A response: status, headers (lower-case names), body.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("UTF-8 body")
    }
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one HTTP/1.1 response (Content-Length or chunked; the connection is closed after).
pub fn read_response(s: &mut impl Read) -> Response {
    let mut r = BufReader::new(s);
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .unwrap_or_else(|| panic!("bad status line {line:?}"))
        .parse()
        .unwrap();
    let mut headers = Vec::new();
    loop {
        line.clear();
        r.read_line(&mut line).unwrap();
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let (k, v) = l.split_once(':').unwrap();
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let get = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let mut body = Vec::new();
    if get("transfer-encoding").as_deref() == Some("chunked") {
        loop {
            line.clear();
            r.read_line(&mut line).unwrap();
            let n = usize::from_str_radix(line.trim(), 16).unwrap();
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).unwrap();
            body.extend_from_slice(&chunk[..n]);
            if n == 0 {
                break;
            }
        }
    } else if let Some(n) = get("content-length") {
        let mut b = vec![0; n.parse().unwrap()];
        r.read_exact(&mut b).unwrap();
        body = b;
    } else {
        r.read_to_end(&mut body).unwrap();
    }
    Response {
        status,
        headers,
        body,
    }
}

/// Percent-encodes a query value.
pub fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b',' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
