//! `gamedb serve --tables DIR [--addr 127.0.0.1:8080]`: the tables of a folder over HTTP/JSON,
//! with the explorer page at `/` (see `crate::service`).

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use crate::service::{self, App, Limits};
use crate::Error;

use super::{set_threads, Failure};

#[derive(Args)]
pub(crate) struct ServeArgs {
    /// The folder of the tables to serve (only files directly inside it are served).
    #[arg(long, default_value = "tables")]
    pub tables: PathBuf,
    /// Address to listen on; port 0 picks a free port (the first line printed names it).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Threads answering requests (default: all cores).
    #[arg(long)]
    pub workers: Option<usize>,
    /// Threads for the work requests start: batches answered in parallel (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Skip the payload checksum when a table is first opened.
    #[arg(long)]
    pub no_verify: bool,
    /// Largest request body in bytes (413 beyond).
    #[arg(long, value_name = "BYTES")]
    pub max_body: Option<usize>,
    /// Longest a client may take to send a request's headers, in seconds (the connection is
    /// closed beyond; also the longest a kept-alive connection may stay idle).
    #[arg(long, value_name = "SECONDS")]
    pub header_timeout: Option<f64>,
    /// Longest a request may take, in seconds (408 beyond).
    #[arg(long, value_name = "SECONDS")]
    pub request_timeout: Option<f64>,
    /// Most nodes one solve request may expand, and its default (503 beyond).
    #[arg(long, value_name = "N")]
    pub solve_max_nodes: Option<u64>,
    /// Longest one solve request may search, in seconds, and its default (408 beyond).
    #[arg(long, value_name = "SECONDS")]
    pub solve_timeout: Option<f64>,
    /// Heavy requests (searches, batches, first openings) running at once (503 beyond).
    #[arg(long, value_name = "N")]
    pub heavy: Option<usize>,
}

fn seconds(flag: &str, value: Option<f64>, default: Duration) -> Result<Duration, Error> {
    match value {
        None => Ok(default),
        Some(t) if t.is_finite() && t > 0.0 && t < 1e9 => Ok(Duration::from_secs_f64(t)),
        Some(t) => Err(Error::BadInput(format!(
            "{flag} {t}: expected a positive number of seconds"
        ))),
    }
}

fn positive<T: PartialEq + Default + std::fmt::Display>(
    flag: &str,
    value: Option<T>,
    default: T,
) -> Result<T, Error> {
    match value {
        Some(v) if v == T::default() => {
            Err(Error::BadInput(format!("{flag} {v}: expected at least 1")))
        }
        Some(v) => Ok(v),
        None => Ok(default),
    }
}

pub(crate) fn run(a: ServeArgs) -> Result<(), Failure> {
    set_threads(a.threads)?;
    if !a.tables.is_dir() {
        return Err(Error::BadInput(format!(
            "--tables {}: not a folder; expected the folder of the tables to serve (build some \
             with `gamedb build-all --out {}`)",
            a.tables.display(),
            a.tables.display()
        ))
        .into());
    }
    let d = Limits::default();
    let limits = Limits {
        body_bytes: positive("--max-body", a.max_body, d.body_bytes)?,
        header_timeout: seconds("--header-timeout", a.header_timeout, d.header_timeout)?,
        request_timeout: seconds("--request-timeout", a.request_timeout, d.request_timeout)?,
        solve_max_nodes: positive("--solve-max-nodes", a.solve_max_nodes, d.solve_max_nodes)?,
        solve_timeout: seconds("--solve-timeout", a.solve_timeout, d.solve_timeout)?,
        heavy_at_once: positive("--heavy", a.heavy, d.heavy_at_once)?,
    };
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    match a.workers {
        Some(0) => return Err(Error::BadInput("--workers 0: expected at least 1".into()).into()),
        Some(n) => {
            runtime.worker_threads(n);
        }
        None => {}
    }
    let runtime = runtime
        .enable_all()
        .build()
        .map_err(|e| Error::Unsupported(format!("cannot start the server's threads: {e}")))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(a.addr)
            .await
            .map_err(|e| Error::Unsupported(format!("cannot listen on {}: {e}", a.addr)))?;
        let addr = listener
            .local_addr()
            .map_err(|e| Error::Unsupported(format!("cannot listen on {}: {e}", a.addr)))?;
        let app = Arc::new(App::new(&a.tables, !a.no_verify, limits));
        let refused = app.files().listing.len() - app.files().count();
        println!(
            "gamedb serve: listening on http://{addr}/ ({} tables from {}{}); Ctrl-C stops",
            app.files().count(),
            a.tables.display(),
            if refused > 0 {
                format!(", {refused} files refused: see GET /api/tables")
            } else {
                String::new()
            }
        );
        let _ = std::io::stdout().flush();
        service::serve(listener, app, service::signals())
            .await
            .map_err(|e| Error::Unsupported(format!("the server stopped: {e}")))?;
        println!("gamedb serve: stopped");
        Ok::<(), Error>(())
    })?;
    Ok(())
}
