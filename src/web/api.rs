//! The HTTP API of `orca web`: the page's files, JSON requests on games,
//! and each game's event stream (Server-Sent Events). Every bad request gets
//! an HTTP error with a JSON body `{"error": "..."}` and changes nothing.
//!
//! One axum handler takes every request and routes it by method and path
//! ([`route`]), so that each wrong address or method gets the same JSON
//! error. The work on a game runs on the runtime's blocking threads: a
//! game's lock may wait for its engine to stop.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::mpsc::UnboundedReceiver;
use tokio_stream::StreamExt as _;
use tokio_stream::wrappers::UnboundedReceiverStream;

use super::clock::TimeControl;
use super::game::{
    ANALYSIS_DEPTH, GameError, GameSettings, MAX_ANALYSIS_DEPTH, Message, WebGame, lock,
};
use super::{MAX_STREAMS, Web, page, view};
use crate::engine::MAX_LEVEL;
use crate::game::Variant;
use crate::session::Player;

/// Largest request body read.
pub const MAX_BODY: usize = 64 * 1024;

/// Shortest and longest time a move the page may set, in milliseconds.
const MOVETIME_MS: std::ops::RangeInclusive<i64> = 10..=600_000;

/// How soon a page whose stream broke tries again.
const STREAM_RETRY: Duration = Duration::from_secs(1);

/// A refused request: its status and the reason given.
struct Refusal(u16, String);

impl Refusal {
    fn new(status: u16, why: impl Into<String>) -> Refusal {
        Refusal(status, why.into())
    }
}

impl From<GameError> for Refusal {
    fn from(e: GameError) -> Refusal {
        match e {
            GameError::BadMove(why) => Refusal(400, why),
            GameError::Conflict(why) => Refusal(409, why),
        }
    }
}

/// What a handled request answers.
enum Reply {
    /// A JSON body, serialized.
    Json(u16, Vec<u8>),
    Empty,
    File(&'static page::File),
    /// A game record to download: the game's number and the GGF text.
    Ggf(u64, String),
    /// An event stream of these events, with a keep-alive comment after
    /// this long without one.
    Stream(UnboundedReceiver<Message>, Duration),
}

/// The server's routes: one handler for every request, its body at most
/// [`MAX_BODY`] bytes.
pub fn router(web: Arc<Web>) -> Router {
    Router::new()
        .fallback(handle)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(web)
}

/// Answers one request.
async fn handle(
    State(web): State<Arc<Web>>,
    method: Method,
    uri: Uri,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let path = uri.path().to_string();
    let reply = match body {
        Ok(bytes) => {
            let (method, path) = (method.clone(), path.clone());
            tokio::task::spawn_blocking(move || route(&web, &method, &path, &bytes))
                .await
                .unwrap_or_else(|e| Err(Refusal::new(500, format!("the request failed: {e}"))))
        }
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(Refusal::new(
            413,
            format!("the body is over {MAX_BODY} bytes"),
        )),
        Err(e) => Err(Refusal::new(
            400,
            format!("the body could not be read: {}", e.body_text()),
        )),
    };
    match reply {
        Ok(reply) => respond(reply),
        Err(Refusal(status, why)) => {
            log::debug!("web: {method} {path}: {status} {why}");
            json_response(status, to_json(&view::Error { error: why }))
        }
    }
}

fn respond(reply: Reply) -> Response {
    match reply {
        Reply::Json(status, body) => json_response(status, body),
        Reply::Empty => StatusCode::NO_CONTENT.into_response(),
        Reply::Ggf(id, text) => (
            [
                (
                    header::CONTENT_TYPE,
                    "text/plain; charset=utf-8".to_string(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"orca-game-{id}.ggf\""),
                ),
            ],
            text,
        )
            .into_response(),
        Reply::File(file) => (
            [
                (header::CONTENT_TYPE, file.content_type),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            file.body,
        )
            .into_response(),
        Reply::Stream(events, keep_alive) => stream(events, keep_alive),
    }
}

/// A value as JSON (the API's views always serialize).
fn to_json(value: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(value).expect("the views serialize")
}

fn reply(status: u16, value: &impl Serialize) -> Reply {
    Reply::Json(status, to_json(value))
}

fn json_response(status: u16, body: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() =
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn route(web: &Web, method: &Method, path: &str, body: &Bytes) -> Result<Reply, Refusal> {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let body = || std::str::from_utf8(body).map_err(|_| Refusal::new(400, "the body is not UTF-8"));
    let get = method == Method::GET;
    let post = method == Method::POST;
    match parts.as_slice() {
        [] if get => Ok(Reply::File(&page::INDEX)),
        [name] if get && page::file(name).is_some() => {
            Ok(Reply::File(page::file(name).expect("checked")))
        }
        ["api", "games"] if post => create(web, body()?),
        ["api", "games", id, rest @ ..] => {
            let id: u64 = id
                .parse()
                .map_err(|_| Refusal::new(404, format!("no game '{id}'")))?;
            let game = web.game(id).ok_or_else(|| {
                Refusal::new(404, format!("no game {id}: it was closed or never opened"))
            })?;
            match rest {
                [] if get => Ok(reply(200, &lock(&game).state())),
                [] if method == Method::DELETE => {
                    web.close(id);
                    Ok(Reply::Empty)
                }
                ["events"] if get => subscribe(&mut lock(&game), web.config.keep_alive()),
                ["ggf"] if get => {
                    let date = crate::ggf::date(std::time::SystemTime::now());
                    let text = lock(&game).ggf(&date)?;
                    Ok(Reply::Ggf(id, text))
                }
                [action] if post => act(&mut lock(&game), action, body()?),
                [] | ["events"] | ["ggf"] => Err(Refusal::new(405, "method not allowed here")),
                [action] if ACTIONS.contains(action) => {
                    Err(Refusal::new(405, format!("{action} takes POST")))
                }
                _ => Err(Refusal::new(404, format!("no such address: {path}"))),
            }
        }
        [] | ["api", "games"] => Err(Refusal::new(405, "method not allowed here")),
        _ => Err(Refusal::new(404, format!("no such address: {path}"))),
    }
}

/// The POST actions on a game.
const ACTIONS: [&str; 8] = [
    "move", "undo", "redo", "goto", "settings", "stop", "load", "analyze",
];

/// A request body read as `T` (an empty body is an empty object).
fn parse<T: DeserializeOwned>(text: &str) -> Result<T, Refusal> {
    let text = if text.trim().is_empty() { "{}" } else { text };
    serde_json::from_str(text).map_err(|e| Refusal::new(400, format!("the body: {e}")))
}

/// `POST /api/games`: a new game (variant and settings optional).
fn create(web: &Web, body: &str) -> Result<Reply, Refusal> {
    let body: view::SettingsRequest = parse(body)?;
    let variant = match &body.variant {
        None => Variant::Othello,
        Some(name) => name
            .parse::<Variant>()
            .map_err(|e| Refusal::new(400, format!("variant: {e}")))?,
    };
    let settings = settings(GameSettings::default(), &body)?;
    let id = web
        .next_id
        .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let mut games = web.games();
    if games.len() >= web.config.max_games {
        return Err(Refusal::new(
            503,
            format!(
                "the server holds its most games ({}): close one first",
                games.len()
            ),
        ));
    }
    let game = WebGame::start(
        id,
        variant,
        settings,
        Arc::clone(&web.evaluators),
        Arc::clone(&web.books),
    )
    .map_err(|e| Refusal::new(503, e))?;
    let state = lock(&game).state();
    games.insert(id, game);
    Ok(reply(201, &state))
}

/// The settings of `body` over `base`: `black`, `white` (`person` or
/// `orca`), `level` (1-20), `movetime_ms`, `hints`, `hint_depth`, the clock.
fn settings(base: GameSettings, body: &view::SettingsRequest) -> Result<GameSettings, Refusal> {
    let mut settings = base;
    for (key, slot, value) in [
        ("black", &mut settings.black, &body.black),
        ("white", &mut settings.white, &body.white),
    ] {
        if let Some(value) = value {
            *slot = value
                .parse::<Player>()
                .map_err(|e| Refusal::new(400, format!("{key}: {e}")))?;
        }
    }
    if let Some(level) = body.level {
        settings.strength.level = u8::try_from(level)
            .ok()
            .filter(|n| (1..=MAX_LEVEL).contains(n))
            .ok_or_else(|| Refusal::new(400, format!("level: expected 1 to {MAX_LEVEL}")))?;
    }
    if let Some(ms) = body.movetime_ms {
        if !MOVETIME_MS.contains(&ms) {
            return Err(Refusal::new(
                400,
                format!(
                    "movetime_ms: expected {} to {} milliseconds",
                    MOVETIME_MS.start(),
                    MOVETIME_MS.end()
                ),
            ));
        }
        settings.strength.movetime = Duration::from_millis(ms.unsigned_abs());
    }
    if let Some(hints) = body.hints {
        settings.hints = hints;
    }
    if let Some(depth) = body.hint_depth {
        settings.hint_depth = match depth {
            0 => None,
            1..=60 => Some(depth as u32),
            _ => {
                return Err(Refusal::new(
                    400,
                    "hint_depth: expected 0 (until stopped) or 1 to 60",
                ));
            }
        };
    }
    settings.clock = clock(settings.clock, body)?;
    Ok(settings)
}

/// The longest game clock and increment the page may set.
const MAX_CLOCK_MS: i64 = 10 * 3_600_000;
const MAX_INCREMENT_MS: i64 = 600_000;

/// The time control of `body` over `base`: `clock_ms` (0: none; at least a
/// second), `increment_ms`, `person_clock`.
fn clock(
    base: Option<TimeControl>,
    body: &view::SettingsRequest,
) -> Result<Option<TimeControl>, Refusal> {
    let mut control = match body.clock_ms {
        None => base,
        Some(0) => None,
        Some(ms) if (1000..=MAX_CLOCK_MS).contains(&ms) => Some(TimeControl {
            base: Duration::from_millis(ms.unsigned_abs()),
            ..base.unwrap_or(TimeControl {
                base: Duration::ZERO,
                increment: Duration::ZERO,
                person: false,
            })
        }),
        Some(_) => {
            return Err(Refusal::new(
                400,
                format!("clock_ms: expected 0 (no clock) or 1000 to {MAX_CLOCK_MS} milliseconds"),
            ));
        }
    };
    if body.increment_ms.is_none() && body.person_clock.is_none() {
        return Ok(control);
    }
    let Some(timed) = control.as_mut() else {
        return Err(Refusal::new(
            400,
            "increment_ms, person_clock: the game has no clock (set clock_ms)",
        ));
    };
    if let Some(ms) = body.increment_ms {
        if !(0..=MAX_INCREMENT_MS).contains(&ms) {
            return Err(Refusal::new(
                400,
                format!("increment_ms: expected 0 to {MAX_INCREMENT_MS} milliseconds"),
            ));
        }
        timed.increment = Duration::from_millis(ms.unsigned_abs());
    }
    if let Some(person) = body.person_clock {
        timed.person = person;
    }
    Ok(control)
}

/// `POST /api/games/{id}/{action}`.
fn act(game: &mut WebGame, action: &str, body: &str) -> Result<Reply, Refusal> {
    match action {
        "move" => game.play(&parse::<view::Move>(body)?.mv)?,
        "undo" => {
            parse::<view::Nothing>(body)?;
            game.undo()?;
        }
        "redo" => {
            parse::<view::Nothing>(body)?;
            game.redo()?;
        }
        "goto" => {
            let ply = usize::try_from(parse::<view::Goto>(body)?.ply)
                .map_err(|_| Refusal::new(400, "ply: expected a number of moves from the start"))?;
            game.go_to(ply)?;
        }
        "settings" => {
            let body: view::SettingsRequest = parse(body)?;
            if body.variant.is_some() {
                return Err(Refusal::new(
                    400,
                    "variant: a game keeps its variant (start a new game)",
                ));
            }
            let settings = settings(game.settings(), &body)?;
            game.set(settings);
        }
        "stop" => {
            parse::<view::Nothing>(body)?;
            game.stop();
        }
        "load" => game.load(&parse::<view::Load>(body)?.text)?,
        "analyze" => {
            let max = i64::from(MAX_ANALYSIS_DEPTH);
            let depth = match parse::<view::Analyze>(body)?.depth {
                None => ANALYSIS_DEPTH,
                Some(d) if (1..=max).contains(&d) => d as u32,
                Some(_) => {
                    return Err(Refusal::new(400, format!("depth: expected 1 to {max}")));
                }
            };
            game.analyze(depth);
        }
        _ => return Err(Refusal::new(404, format!("no action '{action}'"))),
    }
    Ok(reply(200, &game.state()))
}

/// `GET /api/games/{id}/events`: a new event stream of the game.
fn subscribe(game: &mut WebGame, keep_alive: Duration) -> Result<Reply, Refusal> {
    if game.live_streams() >= MAX_STREAMS {
        return Err(Refusal::new(
            503,
            format!("{MAX_STREAMS} pages show this game already"),
        ));
    }
    Ok(Reply::Stream(game.subscribe(), keep_alive))
}

/// The game's state and search info as Server-Sent Events, until the page
/// goes away (the stream is dropped, which the game sees) or the game is
/// closed (the game drops its end).
fn stream(events: UnboundedReceiver<Message>, keep_alive: Duration) -> Response {
    let retry = Event::default().retry(STREAM_RETRY).comment("orca");
    let events =
        UnboundedReceiverStream::new(events).map(|m| Event::default().event(m.name).data(&*m.data));
    let all = tokio_stream::once(retry)
        .chain(events)
        .map(Ok::<Event, Infallible>);
    Sse::new(all)
        .keep_alive(KeepAlive::new().interval(keep_alive))
        .into_response()
}
