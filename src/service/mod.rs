//! `gamedb serve`: the tables of a folder as an HTTP/JSON service, and the web explorer.
//!
//! Endpoints (every answer is JSON, one object per line; see `src/guide/service.md` for examples):
//! * `GET /api/health`: status, version, number of tables;
//! * `GET /api/tables`: every table of the folder ([`crate::report::listing`]);
//! * `GET /api/tables/{file}`: that table's `info --json`;
//! * `GET /api/tables/{file}/values`: its value distribution ([`crate::report::distribution`]);
//! * `GET /api/tables/{file}/query?position=P[&path=1]`: the answer `query --json` prints,
//!   byte for byte;
//! * `POST /api/tables/{file}/query[?path=1]`: one position per line of the body, answered
//!   as JSON lines in input order, bad lines with error objects (the stream engine's answers);
//! * `GET /api/solve?rows=R&cols=C&position=P[&path=1][&max_nodes=N][&timeout_ms=T]`: a
//!   sliding-puzzle position answered as `query --rows R --cols C --json` does (through the
//!   board's complete table, or the solver on the pattern tables), the solver's searches
//!   bounded by a node budget and a deadline;
//! * `GET /`: the explorer page (static files embedded in the binary, [`web`]).
//!
//! Statuses: 400 bad input (the CLI's message), 404 unknown table or endpoint, 405 wrong
//! method, 408 over the time limit (a request, or a search's deadline), 413 body over the
//! limit, 503 busy (too many heavy requests at once) or a search over its node budget, 500 a
//! damaged table or an internal error. Errors are `{"error": message}`, or `{"position": .., "error": ..}` for a
//! position. Handlers return errors as values; a panic (a bug) is caught and answered 500.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde::Serialize;
use tokio::sync::Semaphore;

use crate::fifteen::BoardQuery;
use crate::tables::TableDir;
use crate::Error;

pub(crate) mod files;
mod handlers;
pub(crate) mod web;

use files::Files;

/// What the service allows one request.
#[derive(Clone, Debug)]
#[cfg_attr(not(fuzzing), allow(unreachable_pub))] // pub for `gamedb::fuzzing`
pub struct Limits {
    /// Largest request body (a batch), in bytes: 413 beyond.
    pub body_bytes: usize,
    /// Longest a client may take to send a request's headers (a connection idle that long
    /// between requests is closed too): without it a client sending half a request would hold
    /// its connection forever.
    pub header_timeout: Duration,
    /// Longest a request may take: 408 beyond.
    pub request_timeout: Duration,
    /// Most nodes one solve request may expand (its default too): 503 beyond.
    pub solve_max_nodes: u64,
    /// Longest one solve request may search (its default too): 408 beyond.
    pub solve_timeout: Duration,
    /// Heavy requests (solve, batch, a table's first opening, info, values) running at once:
    /// 503 for more.
    pub heavy_at_once: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        Limits {
            body_bytes: 4 << 20,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            solve_max_nodes: 50_000_000,
            solve_timeout: Duration::from_secs(10),
            heavy_at_once: 4 * cores,
        }
    }
}

/// The state every request shares.
#[cfg_attr(not(fuzzing), allow(unreachable_pub))] // pub for `gamedb::fuzzing`
pub struct App {
    files: Files,
    limits: Limits,
    heavy: Arc<Semaphore>,
    boards: Mutex<std::collections::HashMap<(u32, u32), Arc<BoardQuery>>>,
    verify: bool,
}

impl App {
    /// The service of the tables in `dir` (their headers are read now; nothing else until a
    /// request needs it). With `verify`, a table's payload checksum is checked when it is
    /// first opened.
    #[cfg_attr(not(fuzzing), allow(unreachable_pub))] // pub for `gamedb::fuzzing`
    pub fn new(dir: impl Into<std::path::PathBuf>, verify: bool, limits: Limits) -> App {
        let dir = Arc::new(TableDir::new(dir.into()));
        App {
            files: Files::new(dir, verify),
            heavy: Arc::new(Semaphore::new(limits.heavy_at_once.max(1))),
            limits,
            boards: Mutex::new(Default::default()),
            verify,
        }
    }

    /// The tables served.
    pub(crate) fn files(&self) -> &Files {
        &self.files
    }
}

/// An error answer: a status and a JSON body.
#[derive(Debug)]
pub(crate) struct ApiError {
    /// The status.
    pub status: StatusCode,
    /// The JSON body (one line, without the newline).
    pub body: String,
}

#[derive(Serialize)]
struct Message<'a> {
    error: &'a str,
}

impl ApiError {
    /// `status` with `{"error": message}`.
    pub(crate) fn new(status: StatusCode, message: impl AsRef<str>) -> ApiError {
        let body = serde_json::to_string(&Message {
            error: message.as_ref(),
        })
        .unwrap_or_default();
        ApiError { status, body }
    }

    /// 400.
    pub(crate) fn bad(message: impl AsRef<str>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404.
    pub(crate) fn not_found(message: impl AsRef<str>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 503 with a hint to come back.
    pub(crate) fn busy(message: impl AsRef<str>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// The status a library error gets.
    pub(crate) fn status_of(e: &Error) -> StatusCode {
        match e {
            Error::BadInput(_) => StatusCode::BAD_REQUEST,
            // The table is there, but this program cannot read its positions.
            Error::UnknownGame(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Error::OverLimit { time: true, .. } => StatusCode::REQUEST_TIMEOUT,
            Error::OverLimit { time: false, .. } => StatusCode::SERVICE_UNAVAILABLE,
            // Missing tables (the solver's), or a request too large for this build.
            Error::Unsupported(_) => StatusCode::NOT_FOUND,
            Error::Io { .. }
            | Error::NoTable { .. }
            | Error::Corrupt { .. }
            | Error::Version { .. }
            | Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The error answer for `position`: `{"position": .., "error": ..}` as the stream writes it.
    pub(crate) fn for_position(position: &str, e: &Error) -> ApiError {
        ApiError {
            status: ApiError::status_of(e),
            body: crate::answer::ErrorLine::new(position, e).to_json(),
        }
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        ApiError::new(ApiError::status_of(&e), e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut r = json_line(self.body);
        *r.status_mut() = self.status;
        if self.status == StatusCode::PAYLOAD_TOO_LARGE {
            // The unread body makes the connection unusable: say so, so clients open a new one.
            r.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        r
    }
}

/// A 200 answer of one JSON line (the body ends with a newline, as the CLI's output does).
pub(crate) fn json_line(mut body: String) -> Response {
    body.push('\n');
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// The router of the service, with its layers (limits, timeouts, CORS, compression).
#[cfg_attr(not(fuzzing), allow(unreachable_pub))] // pub for `gamedb::fuzzing`
pub fn router(app: Arc<App>) -> Router {
    handlers::router(app)
}

/// Longest a graceful shutdown waits for the requests in progress.
pub(crate) const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// Serves until `shutdown` completes, then stops accepting, lets the requests in progress
/// finish (at most [`SHUTDOWN_GRACE`]), and returns.
pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let header_timeout = app.limits.header_timeout;
    let router = router(app);
    let mut http = hyper::server::conn::http1::Builder::new();
    // Pipelined requests: their answers go out in one write instead of one each.
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .pipeline_flush(true);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let tcp = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                // Out of file descriptors, or a connection reset before it was accepted:
                // wait a moment and go on serving the others.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Answers are small and written at once: send them without waiting (no Nagle delay
        // on keep-alive and pipelined requests).
        let _ = tcp.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        let connection = graceful.watch(http.serve_connection(TokioIo::new(tcp), service));
        tokio::spawn(async move {
            let _ = connection.await;
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
    Ok(())
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM.
pub(crate) async fn signals() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = interrupt => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = interrupt.await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_internal_error_is_a_server_error_not_a_missing_resource() {
        let e = Error::internal("goal 9 outside the 4 positions");
        assert_eq!(ApiError::status_of(&e), StatusCode::INTERNAL_SERVER_ERROR);
        let answer = ApiError::from(e);
        assert!(
            answer
                .body
                .contains("internal error: goal 9 outside the 4 positions"),
            "{}",
            answer.body
        );
        let missing = Error::unsupported("no table of tiles 1-7");
        assert_eq!(ApiError::status_of(&missing), StatusCode::NOT_FOUND);
    }
}
