//! `orca web` driven through a real socket, as the page drives it: the JSON
//! API and the event stream.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::thread;
use std::time::{Duration, Instant};

use common::{Json, JsonExt};
use common::{Orca, PATIENCE, http, random_game, state_moves};
use crossbeam_channel::{Receiver, unbounded};
use orca::game::{AnyPosition, Variant};

/// A running `orca web` and its address (`127.0.0.1:port`).
struct Server {
    _orca: Orca,
    address: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut all = vec!["web", "--port", "0"];
        all.extend_from_slice(args);
        let orca = Orca::start(&all);
        let line = orca.recv();
        let address = line
            .strip_prefix("Orca web: http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("no address: {line}"))
            .to_string();
        Server {
            _orca: orca,
            address,
        }
    }

    /// One request; the status and the body.
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let (head, body) = http(&self.address, method, path, body, PATIENCE).unwrap();
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status: {head}"));
        (status, body)
    }

    /// A request that must answer `status`; its body as JSON (null if none).
    fn expect(&self, method: &str, path: &str, body: &str, status: u16) -> Json {
        let (got, text) = self.request(method, path, body);
        assert_eq!(got, status, "{method} {path} {body}: {text}");
        if text.is_empty() {
            Json::Null
        } else {
            serde_json::from_str::<Json>(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
        }
    }

    fn new_game(&self, body: &str) -> Json {
        self.expect("POST", "/api/games", body, 201)
    }

    fn post(&self, id: i64, action: &str, body: &str) -> Json {
        self.expect("POST", &format!("/api/games/{id}/{action}"), body, 200)
    }

    fn state(&self, id: i64) -> Json {
        self.expect("GET", &format!("/api/games/{id}"), "", 200)
    }

    /// The events of a game's stream: (name, data).
    fn events(&self, id: i64) -> Receiver<(String, Json)> {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        write!(
            stream,
            "GET /api/games/{id}/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            self.address
        )
        .unwrap();
        let (sender, receiver) = unbounded();
        thread::spawn(move || {
            let mut name = String::new();
            for line in BufReader::new(stream).lines() {
                let Ok(line) = line else { return };
                // A keep-alive comment is passed on too, so that the thread
                // ends (and closes the stream) once the receiver is gone.
                if line.starts_with(':') {
                    if sender.send(("keep-alive".into(), Json::Null)).is_err() {
                        return;
                    }
                } else if let Some(n) = line.strip_prefix("event: ") {
                    name = n.to_string();
                } else if let Some(data) = line.strip_prefix("data: ") {
                    let data = serde_json::from_str::<Json>(data).expect("event data is JSON");
                    if sender.send((name.clone(), data)).is_err() {
                        return;
                    }
                }
            }
        });
        receiver
    }
}

fn id_of(state: &Json) -> i64 {
    id(state)
}

fn id(state: &Json) -> i64 {
    state.get("id").and_then(Json::as_i64).unwrap()
}

fn text<'a>(state: &'a Json, key: &str) -> &'a str {
    state
        .get_str(key)
        .unwrap_or_else(|| panic!("no {key}: {state}"))
}

fn number(state: &Json, key: &str) -> i64 {
    state
        .get(key)
        .and_then(Json::as_i64)
        .unwrap_or_else(|| panic!("no {key}: {state}"))
}

fn strings(state: &Json, key: &str) -> Vec<String> {
    state
        .get(key)
        .and_then(Json::as_array)
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// The position the rules give after the state's moves, checked against
/// what the state says of it.
fn check_against_the_rules(state: &Json) -> AnyPosition {
    let variant: Variant = text(state, "variant").parse().unwrap();
    let line = state_moves(state);
    let cursor = number(state, "cursor") as usize;
    let position = AnyPosition::start(variant)
        .play_line(line[..cursor].iter().map(String::as_str))
        .unwrap();
    assert_eq!(text(state, "position"), position.to_string(), "{state}");
    let mut legal = position.legal_move_names();
    legal.retain(|m| m != "pass");
    assert_eq!(strings(state, "legal"), legal, "{state}");
    let (black, white) = position.counts();
    assert_eq!(number(state, "black_discs"), i64::from(black));
    assert_eq!(number(state, "white_discs"), i64::from(white));
    assert_eq!(state.get("over"), Some(&Json::Bool(position.is_over())));
    position
}

/// A whole game against Orca at level 1, a person's moves chosen at random:
/// each of Orca's replies comes on the event stream, every state agrees
/// with the rules, passes are played for the side that has none, and the
/// result is the final count's.
#[test]
fn a_whole_game_against_level_1() {
    let server = Server::start(&[]);
    let game = server.new_game(r#"{"level": 1, "movetime_ms": 100}"#);
    let id = id(&game);
    let events = server.events(id);
    let mut rng = 7u64;
    let mut state = game;
    let deadline = Instant::now() + Duration::from_secs(300);
    while state.get("over") != Some(&Json::Bool(true)) {
        assert!(Instant::now() < deadline, "the game did not end: {state}");
        check_against_the_rules(&state);
        if text(&state, "to_move") == "black" && state.get("thinking") == Some(&Json::Null) {
            let legal = strings(&state, "legal");
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pick = &legal[(rng >> 33) as usize % legal.len()];
            state = server.post(id, "move", &format!(r#"{{"move": "{pick}"}}"#));
        } else {
            // Orca's reply (or a pass for black) comes as a new state; the
            // states before it (the stream's first, the one after the
            // person's move) are older news.
            let (name, data) = events.recv_timeout(PATIENCE).expect("an event");
            if name == "state" && state_moves(&data).len() > state_moves(&state).len() {
                state = data;
            }
        }
    }
    let end = check_against_the_rules(&state);
    let all = state.get("moves").and_then(Json::as_array).unwrap();
    assert!(all.len() >= 9, "{state}");
    for m in all {
        let expected = match (text(m, "move"), text(m, "color")) {
            ("pass", _) => "pass",
            (_, "black") => "person",
            _ => "orca",
        };
        assert_eq!(text(m, "by"), expected, "{m}");
    }
    let (black, white) = end.counts();
    let result = text(&state, "result");
    let expected = match black.cmp(&white) {
        std::cmp::Ordering::Greater => "Black wins",
        std::cmp::Ordering::Less => "White wins",
        std::cmp::Ordering::Equal => "Draw",
    };
    assert!(result.starts_with(expected), "{result} ({black}-{white})");
    // Nothing is played after the end.
    let (status, body) =
        server.request("POST", &format!("/api/games/{id}/move"), r#"{"move":"a1"}"#);
    assert_eq!(status, 409, "{body}");
}

/// Two people: undo and redo step one move, going to a move shows that
/// position, and a move played there drops the moves after it. A side with
/// no move passes by itself.
#[test]
fn undo_redo_goto_and_passes() {
    let server = Server::start(&[]);
    let game = server.new_game(r#"{"black": "person", "white": "person"}"#);
    let id = id(&game);
    for mv in ["f5", "d6", "c3"] {
        server.post(id, "move", &format!(r#"{{"move": "{mv}"}}"#));
    }
    assert_eq!(number(&server.post(id, "undo", ""), "cursor"), 2);
    assert_eq!(number(&server.post(id, "undo", ""), "cursor"), 1);
    let state = server.post(id, "redo", "");
    assert_eq!(number(&state, "cursor"), 2);
    assert_eq!(state_moves(&state), ["f5", "d6", "c3"]);
    check_against_the_rules(&state);
    let state = server.post(id, "goto", r#"{"ply": 0}"#);
    check_against_the_rules(&state);
    server.expect("POST", &format!("/api/games/{id}/undo"), "", 409);
    let state = server.post(id, "move", r#"{"move": "e6"}"#);
    assert_eq!(state_moves(&state), ["e6"]);
    server.expect("POST", &format!("/api/games/{id}/redo"), "", 409);
    // After these black has no move: the pass is played for black.
    let state = server.post(id, "goto", r#"{"ply": 0}"#);
    assert_eq!(number(&state, "cursor"), 0);
    let mut state = state;
    for mv in ["e6", "f6", "g6", "g7", "d3", "h6", "h8", "f8"] {
        state = server.post(id, "move", &format!(r#"{{"move": "{mv}"}}"#));
    }
    let all = state.get("moves").and_then(Json::as_array).unwrap();
    assert_eq!(all.len(), 9, "{state}");
    assert_eq!(
        (text(&all[8], "move"), text(&all[8], "by")),
        ("pass", "pass")
    );
    assert_eq!(text(&state, "to_move"), "white");
    check_against_the_rules(&state);
    // Undo steps back over the pass to the last move a person made.
    assert_eq!(number(&server.post(id, "undo", ""), "cursor"), 7);
}

/// Against Orca, undo takes back the person's move with Orca's reply.
#[test]
fn undo_takes_back_orcas_reply_too() {
    let server = Server::start(&[]);
    let game = server.new_game(r#"{"level": 2, "movetime_ms": 100}"#);
    let id = id(&game);
    let events = server.events(id);
    server.post(id, "move", r#"{"move": "f5"}"#);
    let deadline = Instant::now() + PATIENCE;
    loop {
        let (name, state) = events.recv_timeout(PATIENCE).expect("an event");
        if name == "state" && number(&state, "cursor") == 2 {
            break;
        }
        assert!(Instant::now() < deadline);
    }
    let state = server.post(id, "undo", "");
    assert_eq!(number(&state, "cursor"), 0);
    assert_eq!(state_moves(&state).len(), 2, "the moves stay, to be redone");
    check_against_the_rules(&state);
}

/// Hints value every legal move of the position, on the event stream.
#[test]
fn hints_value_every_move() {
    let server = Server::start(&[]);
    let game = server.new_game(r#"{"black": "person", "white": "person", "hints": true}"#);
    let id = id(&game);
    // The book knows the four opening moves, all worth the same.
    let book = game.get("book").and_then(Json::as_array).unwrap();
    let mut known: Vec<&str> = book.iter().map(|m| text(m, "move")).collect();
    known.sort_unstable();
    assert_eq!(known, ["c4", "d3", "e6", "f5"], "{game}");
    assert!(book.iter().all(|m| m.get("value") == book[0].get("value")));
    let events = server.events(id);
    let deadline = Instant::now() + PATIENCE;
    loop {
        assert!(Instant::now() < deadline, "no hint for every move");
        let (name, info) = events.recv_timeout(PATIENCE).expect("an event");
        if name != "info" {
            continue;
        }
        assert_eq!(text(&info, "for"), "hint");
        let lines = info.get("lines").and_then(Json::as_array).unwrap();
        let mut valued: Vec<&str> = lines.iter().map(|l| text(l, "move")).collect();
        valued.sort_unstable();
        if valued == ["c4", "d3", "e6", "f5"] {
            break;
        }
    }
    let state = server.post(id, "stop", "");
    assert_eq!(state.get("thinking"), Some(&Json::Null));

    // A chosen depth: the hints end there by themselves.
    let state = server.post(id, "settings", r#"{"hint_depth": 6}"#);
    assert_eq!(number(&state, "hint_depth"), 6);
    loop {
        let (name, state) = events.recv_timeout(PATIENCE).expect("the hints' end");
        if name == "state"
            && state.get("thinking") == Some(&Json::Null)
            && number(&state, "hint_depth") == 6
        {
            break;
        }
    }
    server.expect(
        "POST",
        &format!("/api/games/{id}/settings"),
        r#"{"hint_depth": 61}"#,
        400,
    );
    server.expect(
        "POST",
        &format!("/api/games/{id}/analyze"),
        r#"{"depth": 0}"#,
        400,
    );

    // Tic-tac-toe hints value every square too.
    let ttt = id_of(&server.new_game(
        r#"{"variant": "tictactoe", "black": "person", "white": "person", "hints": true}"#,
    ));
    let events = server.events(ttt);
    let deadline = Instant::now() + PATIENCE;
    loop {
        assert!(
            Instant::now() < deadline,
            "no tic-tac-toe hint for every square"
        );
        let (name, info) = events.recv_timeout(PATIENCE).expect("a tic-tac-toe hint");
        if name == "info"
            && info
                .get("lines")
                .and_then(Json::as_array)
                .is_some_and(|l| l.len() == 9)
        {
            assert_eq!(info.get("exact"), Some(&Json::Bool(true)));
            break;
        }
    }
}

/// Bad requests get an HTTP error with a JSON reason and change nothing.
#[test]
fn bad_requests_change_nothing() {
    let server = Server::start(&[]);
    let game = server.new_game(r#"{"black": "person", "white": "person"}"#);
    let id = id(&game);
    let path = |action: &str| format!("/api/games/{id}/{action}");
    let before = server.state(id);
    for (method, at, body, status) in [
        ("POST", path("move"), r#"{"move": "a1"}"#, 400),
        ("POST", path("move"), r#"{"move": "zz"}"#, 400),
        ("POST", path("move"), r#"{"mv": "f5"}"#, 400),
        ("POST", path("move"), r#"{"move": "f5""#, 400),
        ("POST", path("move"), "[1, 2]", 400),
        ("POST", path("goto"), r#"{"ply": 5}"#, 409),
        ("POST", path("goto"), r#"{"ply": -1}"#, 400),
        ("POST", path("settings"), r#"{"level": 21}"#, 400),
        ("POST", path("settings"), r#"{"black": "robot"}"#, 400),
        ("POST", path("settings"), r#"{"movetime_ms": 1.5}"#, 400),
        ("POST", path("settings"), r#"{"hints": "yes"}"#, 400),
        // A field the API does not know is refused, not ignored.
        ("POST", path("settings"), r#"{"levle": 3}"#, 400),
        ("POST", path("settings"), r#"{"variant": "reversed"}"#, 400),
        ("POST", path("undo"), r#"{"plies": 2}"#, 400),
        ("POST", path("fly"), "", 404),
        ("GET", path("move"), "", 405),
        ("PUT", format!("/api/games/{id}"), "", 405),
        ("GET", "/api/games/999".to_string(), "", 404),
        ("GET", "/api/games/x".to_string(), "", 404),
        ("GET", "/nothing.html".to_string(), "", 404),
        (
            "POST",
            "/api/games".to_string(),
            r#"{"variant": "chess"}"#,
            400,
        ),
    ] {
        let (got, text) = server.request(method, &at, body);
        assert_eq!(got, status, "{method} {at} {body}: {text}");
        let reason = serde_json::from_str::<Json>(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(reason.get_str("error").is_some(), "{text}");
    }
    let big = format!(r#"{{"move": "{}"}}"#, "f".repeat(70_000));
    assert_eq!(server.request("POST", &path("move"), &big).0, 413);
    assert_eq!(server.state(id), before);
    // The page's files are served.
    for file in ["/", "/app.js", "/style.css"] {
        assert_eq!(server.request("GET", file, "").0, 200, "{file}");
    }
}

/// Games are independent; no more than `--max-games` are open at once; a
/// game closed (or left without a page for `--idle`) frees its place.
#[test]
fn two_games_the_cap_and_closing() {
    let server = Server::start(&["--max-games", "2", "--idle", "300ms"]);
    let a = id(&server.new_game(r#"{"black": "person", "white": "person"}"#));
    let b =
        id(&server.new_game(r#"{"variant": "tictactoe", "black": "person", "white": "person"}"#));
    server.expect("POST", "/api/games", "", 503);
    server.post(a, "move", r#"{"move": "f5"}"#);
    for cell in ["a1", "b1", "a2", "b2", "a3"] {
        server.post(b, "move", &format!(r#"{{"move": "{cell}"}}"#));
    }
    let tictactoe = server.state(b);
    assert_eq!(text(&tictactoe, "result"), "X wins");
    // GGF holds Othello games only.
    server.expect("GET", &format!("/api/games/{b}/ggf"), "", 409);
    check_against_the_rules(&tictactoe);
    assert_eq!(state_moves(&server.state(a)), ["f5"]);
    server.expect("DELETE", &format!("/api/games/{b}"), "", 204);
    server.expect("GET", &format!("/api/games/{b}"), "", 404);
    let c = id(&server.new_game(""));
    // A game with its page open stays; one without is closed when idle.
    let events = server.events(c);
    events.recv_timeout(PATIENCE).expect("the first state");
    wait_until_closed(&server, a);
    server.state(c);
    // Four pages may show a game; a fifth is refused.
    let more: Vec<_> = (0..3).map(|_| server.events(c)).collect();
    for stream in &more {
        stream.recv_timeout(PATIENCE).expect("the first state");
    }
    server.expect("GET", &format!("/api/games/{c}/events"), "", 503);
    // Its pages gone, the game is closed once idle, and its engine freed.
    drop(events);
    drop(more);
    wait_until_closed(&server, c);
}

/// Waits for the server to close game `id` as idle (a request would keep
/// it open: the state is asked for only through the list of open games'
/// absence, a 404, once the idle time has surely passed).
fn wait_until_closed(server: &Server, id: i64) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        thread::sleep(Duration::from_millis(400));
        let (status, _) = server.request("GET", &format!("/api/games/{id}"), "");
        if status == 404 {
            return;
        }
        assert!(Instant::now() < deadline, "game {id} is still open");
    }
}

/// Event streams opened together after a quiet spell all start (the HTTP
/// server once queued one of a burst behind a stale count of idle threads).
#[test]
fn streams_opened_together_all_start() {
    // The idle time sets the keep-alive comments (half of it), by which the
    // streams of the last burst, dropped here, are found gone.
    let server = Server::start(&["--idle", "1s"]);
    let game = id(&server.new_game(r#"{"black": "person", "white": "person"}"#));
    let first = server.events(game);
    first.recv_timeout(PATIENCE).expect("the first state");
    for round in 0..3 {
        thread::sleep(Duration::from_millis(1500));
        let burst: Vec<_> = (0..3).map(|_| server.events(game)).collect();
        for (i, stream) in burst.iter().enumerate() {
            stream
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|e| panic!("round {round}, stream {i}: {e}"));
        }
    }
}

/// A move list, a position string with moves or a GGF record loads the
/// game (the end on the board); the game downloads as GGF and loads back;
/// the analysis values every position, the end exactly, and each move's
/// loss and mark follow from the values.
#[test]
fn load_download_and_analyse() {
    let server = Server::start(&[]);
    let id = id(&server.new_game(r#"{"black": "person", "white": "person"}"#));
    let loaded = server.post(id, "load", r#"{"text": "f5d6c3 d3,c4"}"#);
    assert_eq!(state_moves(&loaded), ["f5", "d6", "c3", "d3", "c4"]);
    assert_eq!(number(&loaded, "cursor"), 5);
    check_against_the_rules(&loaded);
    let start = "---------------------------OX------XXX-------------------------- O";
    let state = server.post(id, "load", &format!(r#"{{"text": "{start} moves d6 c3"}}"#));
    assert_eq!(state_moves(&state), ["d6", "c3"]);
    // A bad text changes nothing.
    let hollow = "--------------------------X--O---------------------------------- X";
    for bad in [
        "f5 f5",
        "zz",
        "(;GM[Othello]BO[8 junk];)",
        hollow,
        "",
        "  \n",
    ] {
        let body = common::object([("text", Json::from(bad))]).to_string();
        server.expect("POST", &format!("/api/games/{id}/load"), &body, 400);
    }
    assert_eq!(state_moves(&server.state(id)), ["d6", "c3"]);

    let (list, end) = random_game(11);
    let body = common::object([("text", Json::from(list.clone()))]).to_string();
    let state = server.post(id, "load", &body);
    assert_eq!(state.get("over"), Some(&Json::Bool(true)));
    let (status, ggf) = server.request("GET", &format!("/api/games/{id}/ggf"), "");
    assert_eq!(status, 200);
    let record: orca::ggf::GgfGame = ggf.parse().unwrap_or_else(|e| panic!("{ggf}: {e}"));
    assert_eq!(record.position().unwrap(), end);
    let body = common::object([("text", Json::from(ggf))]).to_string();
    let again = server.post(id, "load", &body);
    assert_eq!(text(&again, "position"), end.to_string());

    let events = server.events(id);
    server.post(id, "analyze", "");
    let analysed = loop {
        let (name, state) = events.recv_timeout(PATIENCE).expect("an event");
        if name == "state" && state.get("analysing") == Some(&Json::Bool(false)) {
            let values = state.get("values").and_then(Json::as_array).unwrap();
            if values.iter().all(|v| *v != Json::Null) {
                break state;
            }
        }
    };
    let values: Vec<f64> = analysed
        .get("values")
        .and_then(Json::as_array)
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap_or_else(|| panic!("{v}")))
        .collect();
    let all = analysed.get("moves").and_then(Json::as_array).unwrap();
    assert_eq!(values.len(), all.len() + 1);
    // The end is valued exactly: the final score, black's view.
    assert_eq!(values[all.len()], f64::from(end.black_score().unwrap()));
    for (i, m) in all.iter().enumerate() {
        let Some(loss) = m.get("loss").and_then(Json::as_f64) else {
            assert_eq!(text(m, "move"), "pass", "{m}");
            continue;
        };
        let sign = if text(m, "color") == "black" {
            1.0
        } else {
            -1.0
        };
        let expected = (sign * (values[i] - values[i + 1])).max(0.0);
        assert!((loss - expected).abs() < 1e-6, "{m}: {expected}");
        let mark = if loss >= 6.0 {
            "??"
        } else if loss >= 2.0 {
            "?"
        } else {
            ""
        };
        assert_eq!(text(m, "mark"), mark, "{m}");
    }
    // The download carries the analysis: each move's value for its player.
    let (_, ggf) = server.request("GET", &format!("/api/games/{id}/ggf"), "");
    let record: orca::ggf::GgfGame = ggf.parse().unwrap_or_else(|e| panic!("{ggf}: {e}"));
    assert_eq!(record.moves.len(), all.len());
    for (i, m) in record.moves.iter().enumerate() {
        let sign = if m.color == orca::game::Color::Black {
            1.0
        } else {
            -1.0
        };
        let eval = m
            .eval
            .unwrap_or_else(|| panic!("no value for move {i}: {ggf}"));
        assert!(
            (eval - sign * values[i + 1]).abs() < 1e-6,
            "move {i}: {ggf}"
        );
    }
    // The transcript: the moves without the passes.
    let transcript: String = state_moves(&analysed)
        .iter()
        .filter(|m| *m != "pass")
        .map(String::as_str)
        .collect();
    assert_eq!(text(&analysed, "transcript"), transcript);
}

/// Stop makes Orca play at once the best move found so far, as `stop` does
/// in every protocol, instead of leaving the game waiting.
#[test]
fn stop_makes_orca_move_now() {
    let server = Server::start(&[]);
    // Orca plays white at full strength with ten minutes a move, in a
    // position out of the book (twenty random moves in).
    let id =
        id(&server.new_game(r#"{"black": "person", "white": "person", "movetime_ms": 600000}"#));
    let (list, _) = random_game(3);
    let moves: Vec<&str> = list.split(' ').take(20).collect();
    let body = common::object([("text", Json::from(moves.join(" ")))]).to_string();
    let loaded = server.post(id, "load", &body);
    let orca_side = text(&loaded, "to_move").to_string();
    let events = server.events(id);
    let body = common::object([(orca_side.as_str(), Json::from("orca"))]).to_string();
    server.post(id, "settings", &body);
    // Thinking: its first report has come.
    loop {
        let (name, data) = events.recv_timeout(PATIENCE).expect("an event");
        if name == "info" && text(&data, "for") == "move" {
            break;
        }
    }
    let stopped = Instant::now();
    server.post(id, "stop", "");
    let moved = loop {
        let (name, state) = events.recv_timeout(PATIENCE).expect("Orca's move");
        if name == "state" && state_moves(&state).len() == moves.len() + 1 {
            break state;
        }
    };
    assert!(stopped.elapsed() < PATIENCE);
    assert_eq!(moved.get("thinking"), Some(&Json::Null));
    check_against_the_rules(&moved);
}

/// A game loaded from a GGF record downloads with that record's players,
/// place, date, clock and move values; the page's icon is there.
#[test]
fn records_keep_their_header_and_the_icon_is_served() {
    let server = Server::start(&[]);
    let id = id(&server.new_game(r#"{"black": "person", "white": "person"}"#));
    let record = "(;GM[Othello]PC[Club]DT[2001.02.03]PB[Susan Murmur]PW[Tom]RE[?]TI[5:00//2:00]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[F5/1.50/3.2]W[D6//4];)";
    let body = common::object([("text", Json::from(record))]).to_string();
    server.post(id, "load", &body);
    let (status, ggf) = server.request("GET", &format!("/api/games/{id}/ggf"), "");
    assert_eq!(status, 200);
    for kept in [
        "PB[Susan Murmur]",
        "PW[Tom]",
        "PC[Club]",
        "DT[2001.02.03]",
        "B[F5/1.5/3.2]",
    ] {
        assert!(ggf.contains(kept), "{kept} in {ggf}");
    }
    for icon in ["/favicon.ico", "/favicon.svg"] {
        let (status, body) = server.request("GET", icon, "");
        assert_eq!(status, 200, "{icon}");
        assert!(body.starts_with("<svg"), "{icon}: {body}");
    }
}

/// A game clock: the person's time runs down while they think, and at zero
/// they lose on time; the record says so. Orca plays on its own clock.
#[test]
fn a_clock_runs_down_and_the_game_is_lost_on_time() {
    let server = Server::start(&[]);
    // Orca moves first, on a clock of its own; the person's is timed too.
    let state = server.new_game(
        r#"{"black": "orca", "white": "person", "clock_ms": 3000, "increment_ms": 100, "person_clock": true}"#,
    );
    let id = id(&state);
    let clock = state.get("clock").unwrap_or_else(|| panic!("{state}"));
    assert_eq!(clock.get("base_ms").and_then(Json::as_i64), Some(3000));
    let events = server.events(id);
    let lost = loop {
        let (name, state) = events.recv_timeout(PATIENCE).expect("an event");
        if name == "state" && state.get("over") == Some(&Json::Bool(true)) {
            break state;
        }
    };
    // Orca made its move in time, the person did not.
    assert_eq!(state_moves(&lost).len(), 1, "{lost}");
    assert_eq!(
        lost.get_str("result"),
        Some("Black wins on time (White's time ran out)"),
        "{lost}"
    );
    let clock = lost.get("clock").unwrap();
    assert_eq!(
        clock.get("white_ms").and_then(Json::as_i64),
        Some(0),
        "{lost}"
    );
    let black = clock.get("black_ms").and_then(Json::as_i64).unwrap();
    assert!(black > 0 && black <= 3100, "{lost}");
    assert_eq!(clock.get("running"), Some(&Json::Null));
    // No move after the flag fell.
    let legal = strings(&lost, "legal");
    let body = common::object([("move", Json::from(legal[0].clone()))]).to_string();
    server.expect("POST", &format!("/api/games/{id}/move"), &body, 409);
    let (_, ggf) = server.request("GET", &format!("/api/games/{id}/ggf"), "");
    assert!(ggf.contains("TI[0:03/0:00.1]"), "{ggf}");
    assert!(ggf.contains("RE[+64.000:t]"), "{ggf}");

    // A new time control starts full clocks and a game that goes on.
    let state = server.post(id, "settings", r#"{"clock_ms": 60000}"#);
    assert_eq!(state.get("over"), Some(&Json::Bool(false)), "{state}");
    let clock = state.get("clock").unwrap();
    assert_eq!(clock.get("running").and_then(Json::as_str), Some("white"));
    // Without the person's clock only Orca's time is kept.
    let state = server.post(id, "settings", r#"{"person_clock": false}"#);
    let clock = state.get("clock").unwrap();
    assert_eq!(clock.get("white_ms"), Some(&Json::Null), "{state}");
    assert_eq!(clock.get("running"), Some(&Json::Null), "{state}");
    // Off again.
    let state = server.post(id, "settings", r#"{"clock_ms": 0}"#);
    assert_eq!(state.get("clock"), Some(&Json::Null));
    // Bad clocks change nothing.
    for bad in [
        r#"{"clock_ms": 10}"#,
        r#"{"clock_ms": -1000}"#,
        r#"{"increment_ms": 1000}"#,
        r#"{"clock_ms": 60000, "increment_ms": -5}"#,
    ] {
        server.expect("POST", &format!("/api/games/{id}/settings"), bad, 400);
    }
    assert_eq!(server.state(id).get("clock"), Some(&Json::Null));
}
