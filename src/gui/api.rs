//! The HTTP side: the page and its assets, the JSON endpoints that carry a person's intents
//! to the session, and the live stream of the game (server-sent events).
//!
//! Every `POST` takes a JSON body (`Content-Type: application/json`, which also keeps other
//! web sites' pages from posting here) and answers with the new state, or with
//! `{"error": "..."}` and status 400 (malformed request) or 422 (refused by the game).

use crate::gui::exact;
use crate::gui::game::{Import, NewGame};
use crate::gui::session::{Reply, Request, Session};
use crate::gui::tree::Node;
use crate::rules::Position;
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::convert::Infallible;
use tokio_stream::wrappers::WatchStream;
use tokio_stream::{Stream, StreamExt};

/// The page, its script and its style, built into the binary.
const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");
const ICON_SVG: &str = include_str!("assets/icon.svg");

/// The server's routes over `session`. On a loopback address only requests that name the
/// server by an address or `localhost` are served: a web page whose own name was made to point
/// at this machine (DNS rebinding) cannot drive it.
pub fn router(session: Session, loopback: bool) -> Router {
    let router = Router::new()
        .route("/", get(|| asset("text/html; charset=utf-8", INDEX_HTML)))
        .route(
            "/app.js",
            get(|| asset("text/javascript; charset=utf-8", APP_JS)),
        )
        .route(
            "/style.css",
            get(|| asset("text/css; charset=utf-8", STYLE_CSS)),
        )
        .route("/icon.svg", get(|| asset("image/svg+xml", ICON_SVG)))
        .route("/favicon.ico", get(|| asset("image/svg+xml", ICON_SVG)))
        .route("/api/state", get(state))
        .route("/api/position", get(position))
        .route("/api/exact", get(exact))
        .route("/api/events", get(events))
        .route("/api/live", get(live))
        .route("/api/pgn", get(pgn))
        .route("/api/match", get(match_games))
        .route("/api/log", get(engine_log))
        .route("/api/setup", get(setup))
        .route("/api/new", post(new_game))
        .route("/api/move", post(play))
        .route("/api/analysis", post(analysis))
        .route("/api/stop", post(stop))
        .route("/api/resign", post(resign))
        .route("/api/takeback", post(takeback))
        .route("/api/import", post(import))
        .route("/api/pause", post(pause))
        .route("/api/resume", post(resume))
        .route("/api/move-now", post(move_now))
        .route("/api/variation/delete", post(delete_variation))
        .route("/api/variation/promote", post(promote_variation))
        .route("/api/annotate", post(annotate))
        .fallback(not_found)
        .method_not_allowed_fallback(not_allowed)
        .with_state(session);
    if loopback {
        router.layer(axum::middleware::from_fn(local_names_only))
    } else {
        router
    }
}

/// Refuses a request whose `Host` is a name other than `localhost`.
async fn local_names_only(
    headers: HeaderMap,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let host = headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    if is_local_name(host) {
        next.run(request).await
    } else {
        error(
            StatusCode::FORBIDDEN,
            format!("Host '{host}' is refused: open the page by its address, as printed at start"),
        )
    }
}

/// True for `localhost` and address literals, with or without a port.
fn is_local_name(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(bracketed) => {
            return bracketed
                .split(']')
                .next()
                .is_some_and(|ip| ip.parse::<std::net::Ipv6Addr>().is_ok());
        }
        None => host.rsplit_once(':').map_or(host, |(name, _port)| name),
    };
    name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::Ipv4Addr>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_addresses_and_localhost_name_the_server() {
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST",
            "[::1]:8080",
            "10.0.0.2",
        ] {
            assert!(is_local_name(host), "{host}");
        }
        for host in [
            "evil.example:8080",
            "evil.example",
            "",
            "[nope]:80",
            "localhost.evil:80",
        ] {
            assert!(!is_local_name(host), "{host}");
        }
    }
}

async fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// A refusal: the status and what was wrong, answered as `{"error": text}`.
struct Refusal(StatusCode, String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.1 });
        (self.0, axum::Json(body)).into_response()
    }
}

/// An answer with `{"error": text}`.
fn error(status: StatusCode, text: impl Into<String>) -> Response {
    Refusal(status, text.into()).into_response()
}

fn json(body: &str) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

async fn not_found(uri: Uri) -> Response {
    error(
        StatusCode::NOT_FOUND,
        format!("no such endpoint: {}", uri.path()),
    )
}

async fn not_allowed(uri: Uri) -> Response {
    error(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} does not take this method (GET for reading, POST for requests)",
            uri.path()
        ),
    )
}

/// Reads a request body as `T`; the error names what is wrong with it.
fn parse<T: DeserializeOwned>(headers: &HeaderMap, body: &Bytes) -> Result<T, Refusal> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    if !content_type.starts_with("application/json") {
        return Err(Refusal(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "malformed request: the body must be JSON, sent as Content-Type: application/json"
                .to_string(),
        ));
    }
    serde_json::from_slice(body)
        .map_err(|e| Refusal(StatusCode::BAD_REQUEST, format!("malformed request: {e}")))
}

/// Reads the body as `T`, turns it into a request and hands that to the session: the new
/// state, or why the body or the game refused it.
async fn submit<T: DeserializeOwned>(
    session: &Session,
    headers: &HeaderMap,
    body: &Bytes,
    request: impl FnOnce(T) -> Request,
) -> Response {
    try_submit(session, headers, body, |parsed| Ok(request(parsed))).await
}

/// As [`submit`], for a body that can still be refused once read (a malformed node).
async fn try_submit<T: DeserializeOwned>(
    session: &Session,
    headers: &HeaderMap,
    body: &Bytes,
    request: impl FnOnce(T) -> Result<Request, Refusal>,
) -> Response {
    match parse::<T>(headers, body).and_then(request) {
        Ok(request) => answer(session.ask(request).await),
        Err(refusal) => refusal.into_response(),
    }
}

/// The node `text` names (`m7`, `v2`), or a refusal that says so, after `what`.
fn node(text: &str, what: &str) -> Result<Node, Refusal> {
    text.parse()
        .map_err(|e| Refusal(StatusCode::UNPROCESSABLE_ENTITY, format!("{what}: {e}")))
}

/// The session's answer: the JSON it gave, or its refusal with status 422.
fn answer(reply: Reply) -> Response {
    match reply {
        Ok(body) => json(&body),
        Err(why) => error(StatusCode::UNPROCESSABLE_ENTITY, why),
    }
}

async fn state(State(session): State<Session>) -> Response {
    let body = session.state.borrow().clone();
    json(&body)
}

async fn live(State(session): State<Session>) -> Response {
    let body = session.live.borrow().clone();
    json(&body)
}

async fn events(
    State(session): State<Session>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let guard = session.viewer();
    let state = WatchStream::new(session.state.clone())
        .map(|body| Event::default().event("state").data(&*body));
    let live = WatchStream::new(session.live.clone())
        .map(|body| Event::default().event("live").data(&*body));
    // The guard lives as long as the stream: the page counts as open until it is dropped.
    let stream = state.merge(live).map(move |event| {
        let _open = &guard;
        Ok(event)
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

async fn pgn(State(session): State<Session>) -> Response {
    match session.pgn().await {
        Ok(text) => (
            [
                (
                    header::CONTENT_TYPE,
                    "application/x-chess-pgn; charset=utf-8",
                ),
                (
                    header::CONTENT_DISPOSITION,
                    "attachment; filename=\"konane.pgn\"",
                ),
            ],
            text,
        )
            .into_response(),
        Err(why) => error(StatusCode::SERVICE_UNAVAILABLE, why),
    }
}

/// The query of a request to `endpoint`, or the 400 that names what is wrong with it.
fn query_of<T>(endpoint: &str, query: Result<Query<T>, QueryRejection>) -> Result<T, Refusal> {
    query.map(|Query(query)| query).map_err(|rejection| {
        Refusal(
            StatusCode::BAD_REQUEST,
            format!("{endpoint}: {}", rejection.body_text()),
        )
    })
}

/// `?fen=...&opening=any&capture=straight`: a set-up and the rules it is meant for (the
/// defaults when not given).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupQuery {
    fen: String,
    opening: Option<String>,
    capture: Option<String>,
}

/// `GET /api/setup`: why the set-up cannot arise in a game under the rules,
/// `{"reasons": [...]}` (none found: empty); 400 naming what is wrong with the request.
async fn setup(query: Result<Query<SetupQuery>, QueryRejection>) -> Response {
    let query = match query_of("setup", query) {
        Ok(query) => query,
        Err(refusal) => return refusal.into_response(),
    };
    let rules = (
        query.opening.as_deref().unwrap_or("traditional").parse(),
        query.capture.as_deref().unwrap_or("straight").parse(),
    );
    let position = match rules {
        (Ok(opening), Ok(capture)) => Position::from_fen(&query.fen, opening, capture),
        (Err(why), _) => return error(StatusCode::BAD_REQUEST, format!("setup: {why}")),
        (_, Err(why)) => return error(StatusCode::BAD_REQUEST, format!("setup: {why}")),
    };
    match position {
        Ok(position) => {
            let reasons: Vec<String> = position
                .why_unreachable()
                .iter()
                .map(ToString::to_string)
                .collect();
            json(&serde_json::json!({ "reasons": reasons }).to_string())
        }
        Err(why) => error(StatusCode::BAD_REQUEST, format!("setup: {why}")),
    }
}

/// `?after=N`: only the lines numbered after N.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LogQuery {
    after: Option<u64>,
}

/// The last lines to and from the engines: `{"lines": [{"number", "millis", "engine",
/// "direction", "text"}]}`, those numbered after `after` when given.
async fn engine_log(
    State(session): State<Session>,
    query: Result<Query<LogQuery>, QueryRejection>,
) -> Response {
    let after = match query_of("log", query) {
        Ok(query) => query.after.unwrap_or(0),
        Err(refusal) => return refusal.into_response(),
    };
    // A count past the log's own comes from a page that read an earlier server's log: it is
    // told so, and given the log from its start.
    let restarted = after > session.log.newest();
    let after = if restarted { 0 } else { after };
    let body = serde_json::json!({ "lines": session.log.recent(after), "restarted": restarted });
    json(&body.to_string())
}

async fn match_games(State(session): State<Session>) -> Response {
    match session.match_games().await {
        Ok(body) => json(&body),
        Err(why) => error(StatusCode::SERVICE_UNAVAILABLE, why),
    }
}

async fn new_game(State(session): State<Session>, headers: HeaderMap, body: Bytes) -> Response {
    submit::<NewGame>(&session, &headers, &body, Request::New).await
}

/// `{"move": "f5d5", "ply": 12}` for the game: `ply`, the plies of the position the person
/// saw, is optional; when given, the move is refused unless that is the game's last position.
/// `{"move": "f5d5", "node": "v3"}` plays it at that position (a variation unless it is the
/// game's last).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    r#move: String,
    #[serde(default)]
    ply: Option<usize>,
    #[serde(default)]
    node: Option<String>,
}

async fn play(State(session): State<Session>, headers: HeaderMap, body: Bytes) -> Response {
    try_submit::<MoveBody>(&session, &headers, &body, |parsed| {
        Ok(Request::Move {
            node: parsed
                .node
                .as_deref()
                .map(|n| node(n, "node"))
                .transpose()?,
            text: parsed.r#move,
            ply: parsed.ply,
        })
    })
    .await
}

/// `?ply=3` (the game's position after 3 plies) or `?node=v2`
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeQuery {
    #[serde(default)]
    ply: Option<usize>,
    #[serde(default)]
    node: Option<String>,
}

/// The node a `?ply=N` or `?node=ID` query names, or the refusal.
fn queried_node(query: Result<Query<NodeQuery>, QueryRejection>) -> Result<Node, Refusal> {
    const ASK: &str = "malformed request: give ?ply=N (a number of plies) or ?node=ID";
    match query {
        Ok(Query(NodeQuery {
            ply: Some(ply),
            node: None,
        })) => Ok(Node::Main(ply)),
        Ok(Query(NodeQuery {
            ply: None,
            node: Some(text),
        })) => node(&text, "position"),
        Ok(_) => Err(Refusal(StatusCode::BAD_REQUEST, ASK.to_string())),
        Err(e) => Err(Refusal(StatusCode::BAD_REQUEST, format!("{ASK} ({e})"))),
    }
}

/// `GET /api/position?ply=N` or `?node=v2`: a position of the game or of a variation, for a
/// page stepping through them (each page's view is its own).
async fn position(
    State(session): State<Session>,
    query: Result<Query<NodeQuery>, QueryRejection>,
) -> Response {
    match queried_node(query) {
        Ok(node) => answer(session.position(node).await),
        Err(refusal) => refusal.into_response(),
    }
}

/// `GET /api/exact?node=v2`: each legal move of a small enough position proven to win or lose
/// (the solver, within a few seconds).
async fn exact(
    State(session): State<Session>,
    query: Result<Query<NodeQuery>, QueryRejection>,
) -> Response {
    let node = match queried_node(query) {
        Ok(node) => node,
        Err(refusal) => return refusal.into_response(),
    };
    let position = match session.position_at(node).await {
        Ok(position) => position,
        Err(why) => return error(StatusCode::UNPROCESSABLE_ENTITY, format!("exact: {why}")),
    };
    match tokio::task::spawn_blocking(move || exact::values(&position)).await {
        Ok(values) => {
            let mut body = serde_json::to_value(values).expect("the values serialise");
            body["node"] = serde_json::Value::String(node.to_string());
            json(&body.to_string())
        }
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, format!("exact: {e}")),
    }
}

/// `{"engine": "name", "ply": 3, "lines": 3}` to analyse the game's position after 3 plies
/// (`"node": "v2"` a variation's; neither: the game's last position, followed as it goes on)
/// with 3 lines at once (1 when not given); `{"engine": null}` to stop.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisBody {
    engine: Option<String>,
    #[serde(default)]
    ply: Option<usize>,
    #[serde(default)]
    node: Option<String>,
    #[serde(default)]
    lines: Option<usize>,
}

async fn analysis(State(session): State<Session>, headers: HeaderMap, body: Bytes) -> Response {
    try_submit::<AnalysisBody>(&session, &headers, &body, |parsed| {
        let analysed = match (parsed.ply, parsed.node) {
            (Some(_), Some(_)) => {
                return Err(Refusal(
                    StatusCode::BAD_REQUEST,
                    "malformed request: give ply or node, not both".to_string(),
                ));
            }
            (Some(ply), None) => Some(Node::Main(ply)),
            (None, Some(text)) => Some(node(&text, "analysis")?),
            (None, None) => None,
        };
        Ok(Request::Analyse {
            engine: parsed.engine,
            node: analysed,
            lines: parsed.lines,
        })
    })
    .await
}

async fn import(State(session): State<Session>, headers: HeaderMap, body: Bytes) -> Response {
    submit::<Import>(&session, &headers, &body, Request::Import).await
}

/// `{"node": "v3"}`
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeBody {
    node: String,
}

async fn delete_variation(
    State(session): State<Session>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    try_submit::<NodeBody>(&session, &headers, &body, |parsed| {
        Ok(Request::DeleteVariation(node(&parsed.node, "delete")?))
    })
    .await
}

async fn promote_variation(
    State(session): State<Session>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    try_submit::<NodeBody>(&session, &headers, &body, |parsed| {
        Ok(Request::Promote(node(&parsed.node, "promote")?))
    })
    .await
}

/// `{"node": "m3", "mark": "!?", "comment": "the only move"}`: `mark` empty for none.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnnotateBody {
    node: String,
    mark: String,
    comment: String,
}

async fn annotate(State(session): State<Session>, headers: HeaderMap, body: Bytes) -> Response {
    try_submit::<AnnotateBody>(&session, &headers, &body, |parsed| {
        Ok(Request::Annotate {
            node: node(&parsed.node, "annotate")?,
            mark: parsed.mark,
            comment: parsed.comment,
        })
    })
    .await
}

/// `{}`: the body of the requests that take no arguments.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StopBody {}

async fn stop(State(session): State<Session>, headers: HeaderMap, body: Bytes) -> Response {
    submit::<StopBody>(&session, &headers, &body, |StopBody {}| Request::Stop).await
}

async fn resign(State(session): State<Session>, headers: HeaderMap, body: Bytes) -> Response {
    submit::<StopBody>(&session, &headers, &body, |StopBody {}| Request::Resign).await
}

async fn takeback(State(session): State<Session>, headers: HeaderMap, body: Bytes) -> Response {
    submit::<StopBody>(&session, &headers, &body, |StopBody {}| Request::Takeback).await
}

async fn pause(State(session): State<Session>, headers: HeaderMap, body: Bytes) -> Response {
    submit::<StopBody>(&session, &headers, &body, |StopBody {}| Request::Hold(true)).await
}

async fn resume(State(session): State<Session>, headers: HeaderMap, body: Bytes) -> Response {
    submit::<StopBody>(&session, &headers, &body, |StopBody {}| {
        Request::Hold(false)
    })
    .await
}

async fn move_now(State(session): State<Session>, headers: HeaderMap, body: Bytes) -> Response {
    submit::<StopBody>(&session, &headers, &body, |StopBody {}| Request::MoveNow).await
}
