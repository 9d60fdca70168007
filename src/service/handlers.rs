//! The endpoints, and the layers around them.

use std::io::BufReader;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{Any, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

use crate::fifteen::{BoardQuery, Options};
use crate::lookup::Table;
use crate::model::ValueKind;
use crate::report::distribution::Distribution;
use crate::report::info::Info;
use crate::report::plot::{self, default_picture, possible, Picture};
use crate::report::sequence::{HeapRange, Survey};
use crate::solve::Budget;
use crate::Error;

use super::files::Slot;
use super::{json_line, web, ApiError, App};

type Reply = Result<Response, ApiError>;

const ENDPOINTS: &str = "GET /api/health, GET /api/tables, GET /api/tables/{file}, \
    GET /api/tables/{file}/values, GET|POST /api/tables/{file}/query, \
    GET /api/tables/{file}/plot, GET /api/tables/{file}/play, GET /api/solve, GET /";

pub(super) fn router(app: Arc<App>) -> Router {
    let limits = app.limits.clone();
    Router::new()
        .route("/", get(web::index))
        .route("/app.js", get(web::script))
        .route("/play.js", get(web::play_script))
        .route("/style.css", get(web::style))
        .route("/api/health", get(health))
        .route("/api/tables", get(tables))
        .route("/api/tables/{file}", get(info))
        .route("/api/tables/{file}/values", get(values))
        .route("/api/tables/{file}/query", get(query).post(batch))
        .route("/api/tables/{file}/plot", get(draw))
        .route("/api/tables/{file}/play", get(play))
        .route("/api/solve", get(solve))
        .fallback(unknown)
        .with_state(app)
        .layer(RequestBodyLimitLayer::new(limits.body_bytes))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limits.request_timeout,
        ))
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal error (a bug in gamedb: please report the request)",
            )
            .into_response()
        }))
        .layer(axum::middleware::map_response_with_state(
            limits,
            json_errors,
        ))
        .layer(
            CorsLayer::new()
                .allow_origin(Any)
                .allow_methods([Method::GET, Method::POST])
                .allow_headers([header::CONTENT_TYPE]),
        )
        .layer(CompressionLayer::new())
}

/// Gives the error answers made by the layers and by axum itself (408, 413, 405, bad paths)
/// the service's JSON form, keeping their status.
async fn json_errors(State(limits): State<super::Limits>, r: Response) -> Response {
    let status = r.status();
    let is_json = r
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return r;
    }
    let said = axum::body::to_bytes(r.into_body(), 4096)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = match status {
        StatusCode::REQUEST_TIMEOUT => format!(
            "the request took longer than this server's limit of {} s",
            limits.request_timeout.as_secs_f64()
        ),
        StatusCode::PAYLOAD_TOO_LARGE => format!(
            "the request body is larger than this server's limit of {} bytes; send batches in \
             several requests",
            limits.body_bytes
        ),
        StatusCode::METHOD_NOT_ALLOWED => {
            format!("method not allowed here; the endpoints are {ENDPOINTS}")
        }
        _ if said.is_empty() => status.canonical_reason().unwrap_or("error").to_string(),
        _ => said,
    };
    ApiError::new(status, message).into_response()
}

async fn unknown(uri: Uri) -> ApiError {
    ApiError::not_found(format!(
        "no endpoint '{}'; the endpoints are {ENDPOINTS}",
        crate::answer::echo(uri.path())
    ))
}

/// The parameters of a query string, percent-decoded; unknown names are refused with the
/// known ones, and a name given twice is refused.
struct Params(Vec<(String, String)>);

fn decode(text: &str) -> Result<String, ApiError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| {
                        ApiError::bad(format!(
                            "query string '{}': '%' must be followed by two hex digits",
                            crate::answer::echo(text)
                        ))
                    })?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| {
        ApiError::bad(format!(
            "query string '{}' is not UTF-8 text once decoded",
            crate::answer::echo(text)
        ))
    })
}

impl Params {
    fn parse(query: Option<String>, known: &[&str]) -> Result<Params, ApiError> {
        let mut out: Vec<(String, String)> = Vec::new();
        for part in query.as_deref().unwrap_or("").split('&') {
            if part.is_empty() {
                continue;
            }
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            let (k, v) = (decode(k)?, decode(v)?);
            if !known.contains(&k.as_str()) {
                return Err(ApiError::bad(format!(
                    "unknown parameter '{}'; expected {}",
                    crate::answer::echo(&k),
                    known.join(", ")
                )));
            }
            if out.iter().any(|(have, _)| *have == k) {
                return Err(ApiError::bad(format!("parameter '{k}' given twice")));
            }
            out.push((k, v));
        }
        Ok(Params(out))
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn required(&self, name: &str, example: &str) -> Result<&str, ApiError> {
        self.get(name).ok_or_else(|| {
            ApiError::bad(format!(
                "missing parameter '{name}'; expected e.g. {example}"
            ))
        })
    }

    /// `path=1`, `path=true`, bare `path`; `0`/`false` or absent: false.
    fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.get(name) {
            None | Some("0") | Some("false") => Ok(false),
            Some("") | Some("1") | Some("true") => Ok(true),
            Some(other) => Err(ApiError::bad(format!(
                "parameter '{name}={}': expected 1, true, 0 or false",
                crate::answer::echo(other)
            ))),
        }
    }

    fn number(&self, name: &str, default: u64, most: u64) -> Result<u64, ApiError> {
        let Some(text) = self.get(name) else {
            return Ok(default);
        };
        let n: u64 = text.parse().map_err(|_| {
            ApiError::bad(format!(
                "parameter '{name}={}': expected a whole number from 1 to {most}",
                crate::answer::echo(text)
            ))
        })?;
        if n == 0 || n > most {
            return Err(ApiError::bad(format!(
                "parameter '{name}={n}': expected a whole number from 1 to {most} (this \
                 server's limit)"
            )));
        }
        Ok(n)
    }
}

/// Runs blocking work (opening a table, a search, a batch) off the async workers, as one of
/// the limited heavy requests: 503 when too many already run.
async fn heavy<T, F>(app: &Arc<App>, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&App) -> Result<T, ApiError> + Send + 'static,
{
    let permit = app.heavy.clone().try_acquire_owned().map_err(|_| {
        ApiError::busy(format!(
            "busy: {} heavy requests (searches, batches, table openings) are running, this \
             server's limit; try again shortly",
            app.limits.heavy_at_once
        ))
    })?;
    let app = app.clone();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work(&app)
    })
    .await
    .unwrap_or_else(|e| Err(Error::internal(e.to_string()).into()))
}

/// The open table named `file`, opening it first (a heavy request) when no request did.
async fn table(app: &Arc<App>, file: &str) -> Result<Arc<Table>, ApiError> {
    let slot = app.files.slot(file)?;
    if let Some(t) = slot.table.get() {
        return Ok(t.clone());
    }
    let name = slot.name.clone();
    heavy(app, move |app| {
        let slot = app.files.slot(&name)?;
        app.files.open(slot)
    })
    .await
}

async fn health(State(app): State<Arc<App>>) -> Response {
    let body = serde_json::json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "tables": app.files.count(),
        "folder": app.files.dir.path().display().to_string(),
    });
    json_line(body.to_string())
}

async fn tables(State(app): State<Arc<App>>) -> Response {
    json_line(crate::report::listing::to_json(&app.files.listing))
}

/// A JSON summary of a whole table, kept in its slot's `cell`: `make` reads the whole payload,
/// so it runs once, as heavy work, and later requests are answered from memory.
async fn summary(
    app: &Arc<App>,
    file: String,
    cell: fn(&Slot) -> &OnceLock<String>,
    make: fn(&Table, &Slot) -> String,
) -> Reply {
    if let Some(json) = cell(app.files.slot(&file)?).get() {
        return Ok(json_line(json.clone()));
    }
    let table = table(app, &file).await?;
    let json = heavy(app, move |app| {
        let slot = app.files.slot(&file)?;
        Ok(cell(slot).get_or_init(|| make(&table, slot)).clone())
    })
    .await?;
    Ok(json_line(json))
}

async fn info(State(app): State<Arc<App>>, Path(file): Path<String>) -> Reply {
    // The file as `gamedb info DIR/FILE --json` names it.
    let make = |t: &Table, slot: &Slot| Info::of(t, &slot.path.display().to_string()).to_json();
    summary(&app, file, |slot| &slot.info, make).await
}

async fn values(State(app): State<Arc<App>>, Path(file): Path<String>) -> Reply {
    let make = |t: &Table, _: &Slot| Distribution::of(t).to_json();
    summary(&app, file, |slot| &slot.values, make).await
}

/// `GET /api/tables/{file}/plot?picture=NAME&from=A&to=B&third_row=R`: the picture `gamedb
/// plot` draws, as `image/svg+xml` (every picture reads the whole table: heavy work).
async fn draw(
    State(app): State<Arc<App>>,
    Path(file): Path<String>,
    RawQuery(q): RawQuery,
) -> Reply {
    let params = Params::parse(q, &["picture", "from", "to", "third_row"])?;
    let heap = |name: &str| -> Result<Option<u64>, ApiError> {
        params
            .get(name)
            .map(|text| {
                text.parse::<u64>().map_err(|_| {
                    ApiError::bad(format!(
                        "parameter '{name}={}': expected a heap, a whole number from 0",
                        crate::answer::echo(text)
                    ))
                })
            })
            .transpose()
    };
    let range = HeapRange {
        from: heap("from")?,
        to: heap("to")?,
    };
    let third_row = heap("third_row")?
        .map(|r| {
            u32::try_from(r)
                .map_err(|_| ApiError::bad(format!("parameter 'third_row={r}': too large")))
        })
        .transpose()?;
    let name = params.get("picture").map(str::to_string);
    let table = table(&app, &file).await?;
    let picture = match name.as_deref() {
        None => default_picture(&table),
        Some(name) => <Picture as clap::ValueEnum>::from_str(name, false).map_err(|_| {
            ApiError::bad(format!(
                "unknown picture '{}'; the pictures of this table are {}",
                crate::answer::echo(name),
                possible(&table).join(", ")
            ))
        })?,
    };
    if range.is_given() && !matches!(picture, Picture::Sequence | Picture::Rows) {
        return Err(ApiError::bad(
            "parameters 'from' and 'to' go with picture=sequence or picture=rows",
        ));
    }
    if third_row.is_some() && picture != Picture::Chomp3 {
        return Err(ApiError::bad(
            "parameter 'third_row' goes with picture=chomp3",
        ));
    }
    let options = plot::Options { third_row, range };
    let svg = heavy(&app, move |app| {
        let slot = app.files.slot(&file)?;
        Ok(plot::plot_surveyed(&table, picture, &options, &|seq| {
            slot.survey
                .get_or_init(|| Arc::new(Survey::of(seq)))
                .clone()
        })?)
    })
    .await?;
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("image/svg+xml"),
        )],
        svg,
    )
        .into_response())
}

/// Whether answering with `path` may take long (walking a distance table, one step per move).
fn slow(table: &Table, path: bool) -> bool {
    path && table.value_kind() == ValueKind::Distance
}

/// The answer `gamedb query` gives with `--path` and `--all-moves` as asked.
fn ask(table: &Table, text: &str, path: bool, every: bool) -> crate::Result<crate::Answer> {
    let mut answer = table.query_with(text, path)?;
    if every {
        table.list_every_move(&mut answer)?;
    }
    Ok(answer)
}

async fn query(
    State(app): State<Arc<App>>,
    Path(file): Path<String>,
    RawQuery(q): RawQuery,
) -> Reply {
    let params = Params::parse(q, &["position", "path", "all_moves"])?;
    let position = params
        .required(
            "position",
            &format!("/api/tables/{file}/query?position=1,2,3"),
        )?
        .to_string();
    let path = params.flag("path")?;
    let every = params.flag("all_moves")?;
    let table = table(&app, &file).await?;
    // Listing every move may mean thousands of lookups: off the async workers too.
    let answer = if slow(&table, path) || every {
        let position = position.clone();
        heavy(&app, move |_| Ok(ask(&table, &position, path, every))).await?
    } else {
        ask(&table, &position, path, every)
    };
    match answer {
        Ok(a) => Ok(json_line(a.to_json())),
        Err(e) => Err(ApiError::for_position(&position, &e)),
    }
}

/// `GET /api/tables/{file}/play?line=P0;P1;...&me=first|second`: the review of a game played
/// from P0 (empty: the game's start) through each next position, and its position now with
/// every move valued ([`crate::play::Game`]); `me` words the end as "you" and "the computer".
async fn play(
    State(app): State<Arc<App>>,
    Path(file): Path<String>,
    RawQuery(q): RawQuery,
) -> Reply {
    use crate::play::{Player, Referee, Sides};
    let params = Params::parse(q, &["line", "me"])?;
    let line = params.get("line").unwrap_or("").to_string();
    let sides = match params.get("me") {
        None => Sides::Plain,
        Some("first") => Sides::Me(Player::First),
        Some("second") => Sides::Me(Player::Second),
        Some(other) => {
            return Err(ApiError::bad(format!(
                "parameter 'me={}': expected first or second",
                crate::answer::echo(other)
            )))
        }
    };
    let table = table(&app, &file).await?;
    // A game of an outcome table searches for remoteness: off the async workers.
    let shown = line.clone();
    let game = heavy(&app, move |_| {
        Ok(Referee::new(&table).and_then(|mut r| {
            let positions = r.read_line(&line)?;
            r.review(&positions, sides)
        }))
    })
    .await?;
    match game {
        Ok(g) => Ok(json_line(
            serde_json::to_string(&g).expect("a game serializes"),
        )),
        Err(e) => Err(ApiError::for_position(&shown, &e)),
    }
}

async fn batch(
    State(app): State<Arc<App>>,
    Path(file): Path<String>,
    RawQuery(q): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Reply {
    let params = Params::parse(q, &["path", "all_moves"])?;
    let path = params.flag("path")?;
    let every = params.flag("all_moves")?;
    let body = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request body is larger than this server's limit of {} bytes; send \
                     batches in several requests",
                    app.limits.body_bytes
                ),
            )
        } else {
            ApiError::bad(format!("the request body could not be read: {e}"))
        }
    })?;
    let table = table(&app, &file).await?;
    let out = heavy(&app, move |_| {
        let mut out = Vec::with_capacity(body.len() * 8);
        let mut input = BufReader::with_capacity(1 << 20, &body[..]);
        crate::stream::answer_lines(&mut input, &mut out, true, |text| {
            Ok(ask(&table, text, path, every).map(|a| a.to_json()))
        })?;
        Ok(out)
    })
    .await?;
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/x-ndjson"),
        )],
        Body::from(out),
    )
        .into_response())
}

async fn solve(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> Reply {
    let params = Params::parse(
        q,
        &[
            "rows",
            "cols",
            "position",
            "path",
            "max_nodes",
            "timeout_ms",
        ],
    )?;
    let rows = params.number("rows", 4, 8)? as u32;
    let cols = params.number("cols", 4, 8)? as u32;
    let position = params
        .required(
            "position",
            "/api/solve?rows=4&cols=4&position=5,1,2,3,9,6,7,4,13,10,11,8,0,14,15,12",
        )?
        .to_string();
    let path = params.flag("path")?;
    let limits = &app.limits;
    let max_nodes = params.number("max_nodes", limits.solve_max_nodes, limits.solve_max_nodes)?;
    let most_ms = limits.solve_timeout.as_millis().max(1) as u64;
    // A search never outlives its request: past the request's limit nobody waits for it.
    let timeout = Duration::from_millis(params.number("timeout_ms", most_ms, most_ms)?)
        .min(limits.request_timeout);
    heavy(&app, move |app| {
        let started = Instant::now();
        let board = board(app, rows, cols)?;
        let budget = Budget {
            max_nodes: Some(max_nodes),
            deadline: Some(started + timeout),
            progress: None,
        };
        match board.query_within(&position, path, budget) {
            Ok(a) => Ok(json_line(a.to_json())),
            Err(e) => Err(ApiError::for_position(&position, &e)),
        }
    })
    .await
}

/// The answers of one board, opened once and shared.
fn board(app: &App, rows: u32, cols: u32) -> Result<Arc<BoardQuery>, ApiError> {
    let mut boards = app.boards.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(b) = boards.get(&(rows, cols)) {
        return Ok(b.clone());
    }
    let options = Options {
        verify: app.verify,
        ..Options::default()
    };
    let b = Arc::new(BoardQuery::open(
        rows,
        cols,
        app.files.dir.clone(),
        options,
    )?);
    boards.insert((rows, cols), b.clone());
    Ok(b)
}
