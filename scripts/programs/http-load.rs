//! Load generator for `gamedb serve` (loopback only; bounded in time and in requests; it stops
//! by itself). Plain blocking HTTP/1.1 with keep-alive, one thread per client, no dependency.
//!
//! ```text
//! cargo run --release --example http-load -- --addr 127.0.0.1:PORT --table FILE \
//!     --positions FILE [--mode get|batch|soak] [--clients N] [--seconds S] \
//!     [--requests N] [--batch-lines N] [--pid SERVER_PID] [--max-body BYTES]
//! ```
//!
//! * `get`: every client sends single-position GETs (`/api/tables/FILE/query?position=..`)
//!   drawn from the positions file; prints answers per second and latency percentiles;
//! * `batch`: every client POSTs batches of `--batch-lines` positions; prints answers/s;
//! * `soak`: a mix of good GETs, bad positions (400), unknown tables (404), traversal
//!   attempts (400), bodies over `--max-body` (413) and small batches (200), with the
//!   server's resident memory sampled every second (`--pid`); any status other than the one
//!   expected (and any 5xx but 503) is counted as unexpected, and the exit status is then 1.
//!
//! `scripts/bench/service.sh` runs all three.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[path = "rng.rs"]
mod rng;
use rng::Rng;

struct Opts {
    addr: String,
    table: String,
    positions: Vec<String>,
    mode: String,
    clients: usize,
    seconds: f64,
    requests: u64,
    batch_lines: usize,
    pid: Option<u32>,
    max_body: usize,
    pipeline: usize,
}

fn opts() -> Opts {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let num = |name: &str, default: f64| get(name).map_or(default, |v| v.parse().expect(name));
    let file = get("--positions").expect("--positions FILE");
    let positions: Vec<String> = std::fs::read_to_string(&file)
        .expect("the positions file")
        .lines()
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    assert!(!positions.is_empty(), "no positions in {file}");
    Opts {
        addr: get("--addr").expect("--addr HOST:PORT"),
        table: get("--table").expect("--table FILE"),
        positions,
        mode: get("--mode").unwrap_or_else(|| "get".into()),
        clients: num("--clients", 16.0) as usize,
        // Bounded whatever is asked: at most 10 minutes.
        seconds: num("--seconds", 10.0).min(600.0),
        requests: num("--requests", 1e8) as u64,
        batch_lines: num("--batch-lines", 10_000.0) as usize,
        pid: get("--pid").map(|p| p.parse().expect("--pid")),
        max_body: num("--max-body", 4.0 * 1024.0 * 1024.0) as usize,
        pipeline: (num("--pipeline", 1.0) as usize).max(1),
    }
}

/// A keep-alive connection.
struct Conn {
    addr: String,
    reader: Option<BufReader<TcpStream>>,
}

/// What one request got: its status and the number of body lines.
struct Got {
    status: u16,
    lines: usize,
}

impl Conn {
    fn new(addr: &str) -> Conn {
        Conn {
            addr: addr.to_string(),
            reader: None,
        }
    }

    fn stream(&mut self) -> std::io::Result<&mut BufReader<TcpStream>> {
        if self.reader.is_none() {
            let s = TcpStream::connect(&self.addr)?;
            s.set_nodelay(true)?;
            s.set_read_timeout(Some(Duration::from_secs(60)))?;
            self.reader = Some(BufReader::with_capacity(1 << 16, s));
        }
        Ok(self.reader.as_mut().unwrap())
    }

    /// Sends one request and reads its answer; a connection the server closed is opened
    /// again for the next request.
    fn send(&mut self, head: &str, body: &[u8]) -> std::io::Result<Got> {
        let reused = self.reader.is_some();
        let mut r = self.try_send(head, body);
        if r.is_err() {
            self.reader = None;
            // A kept-alive connection the server had closed: try once on a new one, as HTTP
            // clients do.
            if reused {
                r = self.try_send(head, body);
                if r.is_err() {
                    self.reader = None;
                }
            }
        }
        r
    }

    /// Sends `requests` (whole requests, written at once: HTTP/1.1 pipelining when more than
    /// one) and reads their answers, calling `each` as each arrives.
    fn pipelined(
        &mut self,
        requests: &[u8],
        n: usize,
        mut each: impl FnMut(Got),
    ) -> std::io::Result<()> {
        let r = (|| {
            let reader = self.stream()?;
            reader.get_mut().write_all(requests)?;
            for _ in 0..n {
                let got = Conn::read_one(reader, Ok(()))?;
                if got.1 {
                    self.reader = None;
                    each(got.0);
                    return Ok(());
                }
                each(got.0);
            }
            Ok(())
        })();
        if r.is_err() {
            self.reader = None;
        }
        r
    }

    fn try_send(&mut self, head: &str, body: &[u8]) -> std::io::Result<Got> {
        let reader = self.stream()?;
        let mut req = head.as_bytes().to_vec();
        req.extend_from_slice(body);
        // The server may answer 413 and close before reading an oversized body.
        let wrote = reader.get_mut().write_all(&req);
        let (got, close) = Conn::read_one(reader, wrote)?;
        if close {
            self.reader = None;
        }
        Ok(got)
    }

    /// Reads one answer; true when the server closes the connection after it.
    fn read_one(
        reader: &mut BufReader<TcpStream>,
        wrote: std::io::Result<()>,
    ) -> std::io::Result<(Got, bool)> {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            wrote?;
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or(std::io::ErrorKind::InvalidData)?;
        let mut length = 0usize;
        let mut close = false;
        loop {
            line.clear();
            reader.read_line(&mut line)?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let lower = l.to_ascii_lowercase();
            if let Some(v) = lower.strip_prefix("content-length:") {
                length = v
                    .trim()
                    .parse()
                    .map_err(|_| std::io::ErrorKind::InvalidData)?;
            } else if lower.starts_with("connection:") && lower.contains("close") {
                close = true;
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body)?;
        let got = Got {
            status,
            lines: body.iter().filter(|&&b| b == b'\n').count(),
        };
        Ok((got, close || wrote.is_err()))
    }
}

fn get_head(addr: &str, path: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n")
}

fn post_head(addr: &str, path: &str, len: usize) -> String {
    format!("POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {len}\r\n\r\n")
}

/// CPU seconds (user + system) a process has used, from /proc (`self` or a pid).
fn cpu_seconds(pid: &str) -> Option<f64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) closed by ')'.
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    Some(ticks / hz)
}

fn rss_kib(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

fn main() {
    // SAFETY: restoring the default SIGPIPE action at start-up (`... | head` ends quietly).
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let o = Arc::new(opts());
    let stop = Arc::new(AtomicBool::new(false));
    let sent = Arc::new(AtomicU64::new(0));
    let answers = Arc::new(AtomicU64::new(0));
    let latencies = Arc::new(Mutex::new(Vec::<u32>::new()));
    let statuses = Arc::new(Mutex::new(std::collections::BTreeMap::<String, u64>::new()));
    let unexpected = Arc::new(AtomicU64::new(0));
    let memory = Arc::new(Mutex::new(Vec::<(f64, u64)>::new()));
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(o.seconds);
    let server_cpu = o.pid.and_then(|p| cpu_seconds(&p.to_string()));
    let client_cpu = cpu_seconds("self");

    let sampler = o.pid.map(|pid| {
        let (stop, memory) = (stop.clone(), memory.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                if let Some(kib) = rss_kib(pid) {
                    memory
                        .lock()
                        .unwrap()
                        .push((started.elapsed().as_secs_f64(), kib));
                }
                std::thread::sleep(Duration::from_millis(1000));
            }
        })
    });

    let workers: Vec<_> = (0..o.clients)
        .map(|c| {
            let o = o.clone();
            let (stop, sent, answers) = (stop.clone(), sent.clone(), answers.clone());
            let (latencies, statuses, unexpected) =
                (latencies.clone(), statuses.clone(), unexpected.clone());
            std::thread::spawn(move || {
                let mut rng = Rng(0x5eed + c as u64);
                let mut conn = Conn::new(&o.addr);
                let mut mine = Vec::new();
                let mut counts = std::collections::BTreeMap::<String, u64>::new();
                let query = format!("/api/tables/{}/query", o.table);
                let oversized = vec![b'1'; o.max_body + 1];
                while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
                    if o.mode == "get" && o.pipeline > 1 {
                        // Several single-position GETs written at once on the connection.
                        if sent.fetch_add(o.pipeline as u64, Ordering::Relaxed) >= o.requests {
                            break;
                        }
                        let mut reqs = String::new();
                        for _ in 0..o.pipeline {
                            let pos = &o.positions[rng.index(o.positions.len())];
                            reqs += &get_head(&o.addr, &format!("{query}?position={pos}"));
                        }
                        let t = Instant::now();
                        let mut n = 0;
                        let r = conn.pipelined(reqs.as_bytes(), o.pipeline, |g| {
                            mine.push(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
                            answers.fetch_add(g.lines as u64, Ordering::Relaxed);
                            *counts.entry(format!("good -> {}", g.status)).or_default() += 1;
                            if g.status != 200 && g.status != 503 {
                                unexpected.fetch_add(1, Ordering::Relaxed);
                            }
                            n += 1;
                        });
                        if r.is_err() || n < o.pipeline {
                            *counts.entry("good -> connection error".into()).or_default() += 1;
                            unexpected.fetch_add(1, Ordering::Relaxed);
                        }
                        continue;
                    }
                    if sent.fetch_add(1, Ordering::Relaxed) >= o.requests {
                        break;
                    }
                    let pos = &o.positions[rng.index(o.positions.len())];
                    let (kind, head, body, expect): (&str, String, Vec<u8>, u16) =
                        match o.mode.as_str() {
                            "batch" => {
                                let mut b = String::new();
                                for _ in 0..o.batch_lines {
                                    b += &o.positions[rng.index(o.positions.len())];
                                    b.push('\n');
                                }
                                let head = post_head(&o.addr, &query, b.len());
                                ("batch", head, b.into_bytes(), 200)
                            }
                            "soak" => match rng.below(100) {
                                0..=69 => (
                                    "good",
                                    get_head(&o.addr, &format!("{query}?position={pos}")),
                                    vec![],
                                    200,
                                ),
                                70..=79 => (
                                    "bad position",
                                    get_head(&o.addr, &format!("{query}?position={pos},99999")),
                                    vec![],
                                    400,
                                ),
                                80..=84 => (
                                    "unknown table",
                                    get_head(&o.addr, "/api/tables/nothing.gtab/query?position=1"),
                                    vec![],
                                    404,
                                ),
                                85..=89 => (
                                    "traversal",
                                    get_head(
                                        &o.addr,
                                        "/api/tables/..%2F..%2Fetc%2Fpasswd/query?position=1",
                                    ),
                                    vec![],
                                    400,
                                ),
                                90..=94 => (
                                    "oversized",
                                    post_head(&o.addr, &query, oversized.len()),
                                    oversized.clone(),
                                    413,
                                ),
                                _ => {
                                    let mut b = String::new();
                                    for _ in 0..100 {
                                        b += &o.positions[rng.index(o.positions.len())];
                                        b.push('\n');
                                    }
                                    b += "not a position\n";
                                    (
                                        "small batch",
                                        post_head(&o.addr, &query, b.len()),
                                        b.into_bytes(),
                                        200,
                                    )
                                }
                            },
                            _ => (
                                "good",
                                get_head(&o.addr, &format!("{query}?position={pos}")),
                                vec![],
                                200,
                            ),
                        };
                    let t = Instant::now();
                    let got = conn.send(&head, &body);
                    let us = t.elapsed().as_micros().min(u32::MAX as u128) as u32;
                    match got {
                        Ok(g) => {
                            if o.mode != "soak" || kind == "good" {
                                mine.push(us);
                            }
                            answers.fetch_add(g.lines as u64, Ordering::Relaxed);
                            *counts.entry(format!("{kind} -> {}", g.status)).or_default() += 1;
                            let allowed = g.status == expect || g.status == 503;
                            if !allowed {
                                unexpected.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                        Err(e) => {
                            // An oversized body may see the connection closed under it.
                            let name = format!("{kind} -> connection error ({})", e.kind());
                            *counts.entry(name).or_default() += 1;
                            if kind != "oversized" {
                                unexpected.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                }
                latencies.lock().unwrap().extend(mine);
                let mut all = statuses.lock().unwrap();
                for (k, v) in counts {
                    *all.entry(k).or_default() += v;
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let seconds = started.elapsed().as_secs_f64();
    let server_cpu = match (server_cpu, o.pid.and_then(|p| cpu_seconds(&p.to_string()))) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    let client_cpu = match (client_cpu, cpu_seconds("self")) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    stop.store(true, Ordering::Relaxed);
    if let Some(s) = sampler {
        s.join().unwrap();
    }

    let mut lat = latencies.lock().unwrap().clone();
    lat.sort_unstable();
    let answered = answers.load(Ordering::Relaxed);
    let requests: u64 = statuses.lock().unwrap().values().sum();
    println!(
        "mode {}: {} clients{}, {:.1} s, {} requests ({:.0}/s), {} answers ({:.0} answers/s)",
        o.mode,
        o.clients,
        if o.mode == "get" && o.pipeline > 1 {
            format!(" (each {} GETs in flight, pipelined)", o.pipeline)
        } else {
            String::new()
        },
        seconds,
        requests,
        requests as f64 / seconds,
        answered,
        answered as f64 / seconds
    );
    println!(
        "latency ms: p50 {:.3}  p90 {:.3}  p99 {:.3}  p99.9 {:.3}  max {:.3}",
        percentile(&lat, 0.5),
        percentile(&lat, 0.9),
        percentile(&lat, 0.99),
        percentile(&lat, 0.999),
        percentile(&lat, 1.0)
    );
    for (k, v) in statuses.lock().unwrap().iter() {
        println!("  {k}: {v}");
    }
    if let (Some(server), Some(client), "get") = (server_cpu, client_cpu, o.mode.as_str()) {
        let per = |cpu: f64| cpu * 1e6 / requests.max(1) as f64;
        println!(
            "cpu per request: server {:.1} us, this client {:.1} us (server used {:.2} cores, \
             client {:.2}); two idle cores would allow about {:.0} requests/s",
            per(server),
            per(client),
            server / seconds,
            client / seconds,
            2e6 / (per(server) + per(client)).max(1e-9)
        );
    } else if let (Some(server), Some(client)) = (server_cpu, client_cpu) {
        println!(
            "cpu: server {:.2} cores, {:.2} us per answer; this client {:.2} cores",
            server / seconds,
            server * 1e6 / answered.max(1) as f64,
            client / seconds
        );
    }
    let memory = memory.lock().unwrap();
    if let (Some(first), Some(last)) = (memory.first(), memory.last()) {
        let peak = memory.iter().map(|m| m.1).max().unwrap_or(0);
        let quarter = memory[memory.len() / 4];
        println!(
            "server memory (VmRSS): {} MiB at {:.0} s, {} MiB at {:.0} s, {} MiB at the end, peak {} MiB",
            first.1 / 1024,
            first.0,
            quarter.1 / 1024,
            quarter.0,
            last.1 / 1024,
            peak / 1024
        );
    }
    let bad = unexpected.load(Ordering::Relaxed);
    println!("unexpected answers: {bad}");
    if bad > 0 {
        std::process::exit(1);
    }
}
