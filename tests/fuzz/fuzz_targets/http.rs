//! The HTTP service's request handling, in process: arbitrary methods, paths, queries and
//! bodies sent through the service's router (with all its layers) over a folder of small
//! tables of every registered game. No panic (the router would turn one into a 500: asserted
//! never to happen), no hang; every error answer is a JSON object with an "error".
#![no_main]

use std::sync::{Arc, OnceLock};

use axum::body::Body;
use gamedb::fuzzing::{router, App, Limits};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use tower::ServiceExt;

struct Service {
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
    names: Vec<String>,
}

/// A folder with a small table of every registered game and kind, and the service over it.
fn service() -> &'static Service {
    static S: OnceLock<Service> = OnceLock::new();
    S.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("gamedb-fuzz-http-{}", std::process::id()));
        let names = gamedb::build::write_samples(&dir, 20_000).unwrap();
        let limits = Limits {
            solve_timeout: std::time::Duration::from_secs(2),
            request_timeout: std::time::Duration::from_secs(4),
            ..Limits::default()
        };
        let app = Arc::new(App::new(&dir, true, limits));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        Service {
            runtime,
            router: router(app),
            names,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let s = service();
    let Some((&m, rest)) = data.split_first() else {
        return;
    };
    let method = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS"][m as usize % 6];
    let (target, body) = match rest.iter().position(|&b| b == b'\n') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let target = String::from_utf8_lossy(target);
    let table = &s.names[(m as usize >> 3) % s.names.len()];
    let prefix = match m >> 6 {
        0 => format!("/api/tables/{table}/query?position="),
        1 => format!("/api/tables/{table}"),
        2 => "/api/solve?".to_string(),
        _ => "/".to_string(),
    };
    let uri = format!("{prefix}{target}");
    let Ok(request) = axum::http::Request::builder()
        .method(method)
        .uri(&uri)
        .header("content-type", "text/plain")
        .body(Body::from(body.to_vec()))
    else {
        return;
    };
    let response = s
        .runtime
        .block_on(s.router.clone().oneshot(request))
        .expect("the router always answers");
    let status = response.status();
    assert_ne!(status.as_u16(), 500, "{method} {uri}: an internal error");
    let is_json = response
        .headers()
        .get("content-type")
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    let bytes = s
        .runtime
        .block_on(response.into_body().collect())
        .expect("the body is read")
        .to_bytes();
    if !status.is_success() && method != "HEAD" {
        assert!(is_json, "{method} {uri}: {status} without a JSON body");
        let v: serde_json::Value =
            serde_json::from_slice(&bytes).expect("an error answer is one JSON object");
        assert!(v.get("error").is_some(), "{method} {uri}: {v}");
    }
});
