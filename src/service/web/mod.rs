//! The explorer page: plain HTML, JavaScript and SVG, embedded in the binary (no build step).

use axum::http::{header, HeaderValue};
use axum::response::IntoResponse;

const INDEX: &str = include_str!("index.html");
const SCRIPT: &str = include_str!("app.js");
const PLAY: &str = include_str!("play.js");
const STYLE: &str = include_str!("style.css");

fn file(kind: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        body,
    )
}

/// `GET /`.
pub(crate) async fn index() -> impl IntoResponse {
    file("text/html; charset=utf-8", INDEX)
}

/// `GET /app.js`.
pub(crate) async fn script() -> impl IntoResponse {
    file("text/javascript; charset=utf-8", SCRIPT)
}

/// `GET /play.js`.
pub(crate) async fn play_script() -> impl IntoResponse {
    file("text/javascript; charset=utf-8", PLAY)
}

/// `GET /style.css`.
pub(crate) async fn style() -> impl IntoResponse {
    file("text/css; charset=utf-8", STYLE)
}
