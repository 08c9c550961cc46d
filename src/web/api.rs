//! The HTTP API of `orca web`: the page's files, JSON requests on games,
//! and each game's event stream. Every bad request gets an HTTP error with
//! a JSON body `{"error": "..."}` and changes nothing.

use std::io::{Read, Write};
use std::sync::Arc;
use std::time::Duration;

use tiny_http::{Header, Method, Request, Response, StatusCode};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::game::{GameError, GameSettings, WebGame, lock};
use super::{MAX_STREAMS, Web, page, view};
use crate::engine::MAX_LEVEL;
use crate::game::Variant;
use crate::session::Player;

/// Largest request body read.
pub const MAX_BODY: usize = 64 * 1024;

/// Shortest and longest time a move the page may set, in milliseconds.
const MOVETIME_MS: std::ops::RangeInclusive<i64> = 10..=600_000;

/// How long an event stream waits for an event before a keep-alive comment.
const STREAM_QUIET: Duration = Duration::from_secs(15);

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
    /// An event stream of these events.
    Stream(crossbeam_channel::Receiver<Arc<str>>),
}

/// Answers one request.
pub fn handle(web: &Web, mut request: Request) {
    let reply = route(web, &mut request);
    let response = match reply {
        Ok(Reply::Stream(events)) => return stream(request, &events),
        Ok(Reply::Json(status, body)) => json_response(status, body),
        Ok(Reply::Empty) => Response::from_data(Vec::new()).with_status_code(204),
        Ok(Reply::Ggf(id, text)) => Response::from_data(text.into_bytes())
            .with_header(header("Content-Type", "text/plain; charset=utf-8"))
            .with_header(header(
                "Content-Disposition",
                &format!("attachment; filename=\"orca-game-{id}.ggf\""),
            )),
        Ok(Reply::File(file)) => Response::from_data(file.body.as_bytes())
            .with_header(header("Content-Type", file.content_type))
            .with_header(header("Cache-Control", "no-cache")),
        Err(Refusal(status, why)) => {
            log::debug!(
                "web: {} {}: {status} {why}",
                request.method(),
                request.url()
            );
            json_response(status, to_json(&view::Error { error: why }))
        }
    };
    if let Err(e) = request.respond(response) {
        log::debug!("web: the answer was not delivered: {e}");
    }
}

/// Answers a request the server has no hands for: 503.
pub fn refuse_busy(request: Request) {
    let body = view::Error {
        error: "the server is busy: try again".into(),
    };
    let _ = request.respond(json_response(503, to_json(&body)));
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

/// A value as JSON (the API's views always serialize).
fn to_json(value: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(value).expect("the views serialize")
}

fn reply(status: u16, value: &impl Serialize) -> Reply {
    Reply::Json(status, to_json(value))
}

fn json_response(status: u16, body: Vec<u8>) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_data(body)
        .with_status_code(StatusCode(status))
        .with_header(header("Content-Type", "application/json"))
        .with_header(header("Cache-Control", "no-store"))
}

fn route(web: &Web, request: &mut Request) -> Result<Reply, Refusal> {
    let url = request.url().to_string();
    let path = url.split('?').next().unwrap_or("");
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let method = request.method().clone();
    match (parts.as_slice(), method) {
        ([], Method::Get) => Ok(Reply::File(&page::INDEX)),
        ([name], Method::Get) if page::file(name).is_some() => {
            Ok(Reply::File(page::file(name).expect("checked")))
        }
        (["api", "games"], Method::Post) => {
            let body = read_body(request)?;
            create(web, &body)
        }
        (["api", "games", id, rest @ ..], method) => {
            let id: u64 = id
                .parse()
                .map_err(|_| Refusal::new(404, format!("no game '{id}'")))?;
            let game = web.game(id).ok_or_else(|| {
                Refusal::new(404, format!("no game {id}: it was closed or never opened"))
            })?;
            match (rest, method) {
                ([], Method::Get) => Ok(reply(200, &lock(&game).state())),
                ([], Method::Delete) => {
                    web.close(id);
                    Ok(Reply::Empty)
                }
                (["events"], Method::Get) => subscribe(&mut lock(&game)),
                (["ggf"], Method::Get) => {
                    let date = crate::ggf::date(std::time::SystemTime::now());
                    let text = lock(&game).ggf(&date)?;
                    Ok(Reply::Ggf(id, text))
                }
                ([action], Method::Post) => {
                    let body = read_body(request)?;
                    act(&mut lock(&game), action, &body)
                }
                ([] | ["events"] | ["ggf"], _) => Err(Refusal::new(405, "method not allowed here")),
                ([action], _) if ACTIONS.contains(action) => {
                    Err(Refusal::new(405, format!("{action} takes POST")))
                }
                _ => Err(Refusal::new(404, format!("no such address: {path}"))),
            }
        }
        ([] | ["api", "games"], _) => Err(Refusal::new(405, "method not allowed here")),
        _ => Err(Refusal::new(404, format!("no such address: {path}"))),
    }
}

/// The POST actions on a game.
const ACTIONS: [&str; 8] = [
    "move", "undo", "redo", "goto", "settings", "stop", "load", "analyze",
];

/// The body of a request (at most [`MAX_BODY`] bytes of UTF-8).
fn read_body(request: &mut Request) -> Result<String, Refusal> {
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(Refusal::new(
            413,
            format!("the body is over {MAX_BODY} bytes"),
        ));
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Refusal::new(400, format!("the body could not be read: {e}")))?;
    if bytes.len() > MAX_BODY {
        return Err(Refusal::new(
            413,
            format!("the body is over {MAX_BODY} bytes"),
        ));
    }
    String::from_utf8(bytes).map_err(|_| Refusal::new(400, "the body is not UTF-8"))
}

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
                "{} games are open, the most this server holds: close one first",
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
/// `orca`), `level` (1-20), `movetime_ms`, `hints`.
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
    Ok(settings)
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
            parse::<view::Nothing>(body)?;
            game.analyze();
        }
        _ => return Err(Refusal::new(404, format!("no action '{action}'"))),
    }
    Ok(reply(200, &game.state()))
}

/// `GET /api/games/{id}/events`: a new event stream of the game.
fn subscribe(game: &mut WebGame) -> Result<Reply, Refusal> {
    if game.live_streams() >= MAX_STREAMS {
        return Err(Refusal::new(
            503,
            format!("{MAX_STREAMS} pages show this game already"),
        ));
    }
    Ok(Reply::Stream(game.subscribe()))
}

/// Writes the game's state and search info as Server-Sent Events until the
/// page goes away or the game is closed. The answer is written by hand:
/// tiny_http would hold the events back in its chunk buffer.
fn stream(request: Request, events: &crossbeam_channel::Receiver<Arc<str>>) {
    let mut writer = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\
                Connection: close\r\n\r\nretry: 1000\n\n";
    let mut text: Arc<str> = Arc::from(head);
    loop {
        if writer
            .write_all(text.as_bytes())
            .and_then(|()| writer.flush())
            .is_err()
        {
            return;
        }
        text = match events.recv_timeout(STREAM_QUIET) {
            Ok(text) => text,
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => Arc::from(": keep-alive\n\n"),
            // The game was closed.
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return,
        };
    }
}
