//! Botzone's Reversi bot interaction (JSON, one line each way), as documented
//! in `protocol.md`: a thin adapter over the engine.
//!
//! Each turn the platform sends `{"requests":[...],"responses":[...]}`, the
//! whole history: requests are the opponent's moves (the first one `{"x":-1,
//! "y":-1}` when Orca is black), responses Orca's own. A move is `{"x":X,"y":Y}`
//! with X the column (0 = a) and Y the row (0 = row 1, the top); `-1 -1` is a
//! pass. Orca answers `{"response":{"x":X,"y":Y}}` on one line.
//!
//! Per-turn mode (the default): one request in, one answer out, exit. Keep-
//! running mode (`--keep-running`): after each answer Orca prints the line
//! `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<` and stays alive; the platform then
//! sends only each new request (`{"x":X,"y":Y}`), and the table is kept
//! between turns. A full history is accepted at any time.
//!
//! A position the opening book knows is answered from it at once (unless
//! `--no-book`), in per-turn and keep-running mode alike: the book looks at
//! the position the history leads to.
//!
//! Bad input is one line on stderr; the last good game is kept. In per-turn
//! mode the process then exits with status 1 (it has no game to answer for).

use std::io::BufRead;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engine::BestMove;
use crate::eval::Evaluators;
use crate::game::{AnyMove, AnyPosition, Color, Move, Square, Variant};
use serde_json::Value as Json;

use super::{InputLine, Output, SearchSettings, escape, read_line, search_blocking};

/// The line that asks Botzone to keep the bot running between turns.
pub const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// Search time a move by default: Botzone allows 1 s, start-up included.
pub const DEFAULT_MOVETIME_MS: u64 = 800;

/// Longest request text accepted (a whole game's history is about 3 KB).
pub const MAX_REQUEST_BYTES: usize = 64 * 1024;

/// How a Botzone session is set up (the `orca botzone` flags).
#[derive(Clone, Debug)]
pub struct Config {
    /// Table, threads, selectivity, level and book, as the other front ends.
    pub search: SearchSettings,
    /// Search time of a move, counted from the request (in per-turn mode
    /// from the start of the process).
    pub movetime: Duration,
    /// Stay alive between turns.
    pub keep_running: bool,
}

/// A game as far as the requests tell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotzoneGame {
    /// The position now.
    pub position: AnyPosition,
    /// Orca's colour.
    pub me: Color,
}

/// A move of the interaction: a square, or `None` for `-1 -1`.
fn read_move(json: &Json) -> Result<Option<Square>, String> {
    let coordinate = |key: &str| {
        json.get(key)
            .and_then(Json::as_i64)
            .ok_or_else(|| format!("a move needs whole numbers x and y, got {}", short(json)))
    };
    let (x, y) = (coordinate("x")?, coordinate("y")?);
    if x == -1 && y == -1 {
        return Ok(None);
    }
    u8::try_from(x)
        .ok()
        .zip(u8::try_from(y).ok())
        .and_then(|(x, y)| Square::from_coords(x, y))
        .map(Some)
        .ok_or_else(|| format!("x {x} y {y} is off the board (0 to 7, or -1 -1)"))
}

/// A value for an error message, cut short.
fn short(json: &Json) -> String {
    let text = json.to_string();
    match text.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text,
    }
}

/// The coordinates of a move as Botzone writes them.
pub fn coordinates(mv: Option<Square>) -> (i32, i32) {
    match mv {
        Some(sq) => (i32::from(sq.column()), i32::from(sq.row())),
        None => (-1, -1),
    }
}

/// The answer line for a move (`None`: pass).
pub fn response_line(mv: Option<Square>) -> String {
    let (x, y) = coordinates(mv);
    format!("{{\"response\":{{\"x\":{x},\"y\":{y}}}}}")
}

impl BotzoneGame {
    /// `color` played `mv` (`None`: passed). A pass of the side to move is
    /// played only when it has no move; a move of the side not to move is
    /// accepted when the side to move must pass (the pass is put in).
    fn apply(&mut self, color: Color, mv: Option<Square>) -> Result<(), String> {
        let position = self.position;
        let name = color_name(color);
        let next = match mv {
            None if position.to_move() != color => position,
            None if position.must_pass() => {
                position.play(AnyMove::PASS).ok_or("a pass does not play")?
            }
            None => return Err(format!("{name} passed but has a move")),
            Some(sq) => {
                let mut before = position;
                if before.to_move() != color {
                    if !before.must_pass() {
                        return Err(format!("{name} moved {sq} but it is not {name}'s turn"));
                    }
                    before = before.play(AnyMove::PASS).ok_or("a pass does not play")?;
                }
                before
                    .play(AnyMove::Othello(Move::Play(sq)))
                    .ok_or_else(|| format!("{name}'s move {sq} is illegal"))?
            }
        };
        self.position = next;
        Ok(())
    }

    /// The game told by a full history: requests and responses alternate,
    /// starting with a request.
    ///
    /// # Errors
    /// A message saying what does not fit.
    pub fn replay(history: &Json) -> Result<BotzoneGame, String> {
        let requests = history
            .get("requests")
            .and_then(Json::as_array)
            .ok_or("no \"requests\" array")?;
        let responses = match history.get("responses") {
            None => &[][..],
            Some(r) => r.as_array().ok_or("\"responses\" is not an array")?,
        };
        let Some(first) = requests.first() else {
            return Err("\"requests\" is empty".into());
        };
        if requests.len() != responses.len() + 1 {
            return Err(format!(
                "{} requests and {} responses: expected one request more",
                requests.len(),
                responses.len()
            ));
        }
        let first = read_move(first)?;
        let me = if first.is_none() {
            Color::Black
        } else {
            Color::White
        };
        let mut game = BotzoneGame {
            position: AnyPosition::start(Variant::Othello),
            me,
        };
        if first.is_some() {
            game.apply(Color::Black, first)?;
        }
        for (turn, (response, request)) in responses.iter().zip(&requests[1..]).enumerate() {
            let at = |e: String| format!("turn {}: {e}", turn + 1);
            game.apply(me, read_move(response)?).map_err(at)?;
            game.apply(me.opposite(), read_move(request)?).map_err(at)?;
        }
        Ok(game)
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// What one input value asks for.
enum Request {
    /// A whole history.
    History(Json),
    /// The opponent's latest move only (keep-running mode).
    Move(Option<Square>),
}

fn classify(json: Json) -> Result<Request, String> {
    match json.get("requests") {
        Some(Json::Array(_)) => Ok(Request::History(json)),
        Some(single @ Json::Object(_)) => Ok(Request::Move(read_move(single)?)),
        Some(_) => Err("\"requests\" is neither an array nor a move".into()),
        None if json.get("x").is_some() => Ok(Request::Move(read_move(&json)?)),
        None => {
            Err("expected a history ({\"requests\":[...]}) or a move ({\"x\":..,\"y\":..})".into())
        }
    }
}

/// One error line on stderr.
fn complain(message: &str) {
    eprintln!("{}", escape(&format!("orca botzone: {message}")));
}

/// Runs a Botzone session: in per-turn mode until the first answer, in
/// keep-running mode until the end of input. `started` is when the process
/// started (per-turn mode counts the move's time from there). Returns the
/// exit status: 1 when per-turn mode had nothing to answer.
pub fn run(
    input: &mut impl BufRead,
    out: Output,
    evaluators: Arc<Evaluators>,
    config: Config,
    started: Instant,
) -> i32 {
    let (engine, reports) = match config.search.start_engine(evaluators) {
        Ok(engine) => engine,
        Err(e) => return super::start_failed(&e),
    };
    let mut game: Option<BotzoneGame> = None;
    let mut pending = String::new();
    let mut first_turn = true;
    loop {
        let line = match read_line(input) {
            Ok(Some(InputLine::Text(text))) => text,
            Ok(Some(InputLine::TooLong(n))) => {
                complain(&format!("ignored a line of {n} bytes (too long)"));
                pending.clear();
                if config.keep_running {
                    continue;
                }
                return 1;
            }
            Ok(Some(InputLine::NotUtf8)) => {
                complain("ignored a line that is not valid UTF-8");
                pending.clear();
                if config.keep_running {
                    continue;
                }
                return 1;
            }
            Ok(None) => break,
            Err(e) => {
                complain(&format!("reading stdin failed: {e}"));
                break;
            }
        };
        let received = if first_turn { started } else { Instant::now() };
        if line.trim().is_empty() && pending.is_empty() {
            continue;
        }
        pending.push_str(&line);
        pending.push('\n');
        let json = match serde_json::from_str::<Json>(&pending) {
            Ok(json) => json,
            // A value spread over several lines: read on.
            Err(e) if e.is_eof() && pending.len() < MAX_REQUEST_BYTES => continue,
            Err(e) => {
                complain(&format!("ignored the request: {e}"));
                pending.clear();
                if config.keep_running {
                    continue;
                }
                return 1;
            }
        };
        pending.clear();
        let updated = classify(json).and_then(|request| match (request, game) {
            (Request::History(history), _) => BotzoneGame::replay(&history),
            (Request::Move(mv), Some(mut g)) => {
                g.apply(g.me.opposite(), mv)?;
                Ok(g)
            }
            (Request::Move(_), None) => Err("a single move needs the history first".into()),
        });
        let mut current = match updated {
            Ok(g) => g,
            Err(e) => {
                complain(&format!("ignored the request: {e}"));
                if config.keep_running {
                    continue;
                }
                return 1;
            }
        };
        first_turn = false;
        let mv = choose(&engine, &reports, &current, &config, received);
        if let Err(e) = current.apply(current.me, mv) {
            // The engine's own move always plays; this is a bug, not input.
            complain(&format!("own move: {e}"));
        }
        game = Some(current);
        out.line(&response_line(mv));
        if !config.keep_running {
            return 0;
        }
        out.line(KEEP_RUNNING);
    }
    if pending.trim().is_empty() {
        0
    } else {
        complain("the input ended inside a request");
        i32::from(!config.keep_running)
    }
}

/// Orca's move in `game` (`None`: pass, also when it is not Orca's turn).
fn choose(
    engine: &crate::engine::Engine,
    reports: &crossbeam_channel::Receiver<crate::engine::Report>,
    game: &BotzoneGame,
    config: &Config,
    received: Instant,
) -> Option<Square> {
    let position = game.position;
    if position.is_over() {
        complain("the game is over: answering a pass");
        return None;
    }
    if position.to_move() != game.me {
        complain("it is not Orca's turn: answering a pass");
        return None;
    }
    if position.must_pass() {
        return None;
    }
    let request = config
        .search
        .movetime_request(position, config.movetime, received);
    let best = search_blocking(engine, reports, request).map(|done| done.best);
    match best {
        Some(BestMove::Move(AnyMove::Othello(Move::Play(sq)))) => Some(sq),
        _ => {
            // No answer from the engine: any legal move beats a forfeit.
            complain("the search gave no move: playing the first legal one");
            position.legal_moves().into_iter().find_map(|mv| match mv {
                AnyMove::Othello(Move::Play(sq)) => Some(sq),
                _ => None,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> Result<BotzoneGame, String> {
        BotzoneGame::replay(&serde_json::from_str(text).unwrap())
    }

    /// Botzone's start position has black on (x 3, y 4) and (x 4, y 3):
    /// d5 and e4 with x the column and y the row from the top, so black's
    /// first moves are d3 c4 f5 e6 = (3,2) (2,3) (5,4) (4,5).
    #[test]
    fn orientation_x_is_the_column_y_the_row() {
        let black = game(r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#).unwrap();
        assert_eq!(black.me, Color::Black);
        let mut legal = black.position.legal_move_names();
        legal.sort();
        assert_eq!(legal, ["c4", "d3", "e6", "f5"]);
        let white = game(r#"{"requests":[{"x":3,"y":2}],"responses":[]}"#).unwrap();
        assert_eq!(white.me, Color::White);
        assert_eq!(
            white.position,
            AnyPosition::start(Variant::Othello)
                .play_line(["d3"])
                .unwrap()
        );
        assert!(game(r#"{"requests":[{"x":2,"y":2}],"responses":[]}"#).is_err());
        assert_eq!(
            response_line(Some("d3".parse().unwrap())),
            r#"{"response":{"x":3,"y":2}}"#
        );
        assert_eq!(response_line(None), r#"{"response":{"x":-1,"y":-1}}"#);
    }

    #[test]
    fn histories_replay_and_bad_ones_say_why() {
        // Black d3 (Orca), white c3, black c4 (Orca), white c5.
        let g = game(
            r#"{"requests":[{"x":-1,"y":-1},{"x":2,"y":2},{"x":2,"y":4}],
                "responses":[{"x":3,"y":2},{"x":2,"y":3}]}"#,
        )
        .unwrap();
        let expected = AnyPosition::start(Variant::Othello)
            .play_line(["d3", "c3", "c4", "c5"])
            .unwrap();
        assert_eq!(g.position, expected);
        for (bad, says) in [
            (r#"{"responses":[]}"#, "requests"),
            (r#"{"requests":[]}"#, "empty"),
            (
                r#"{"requests":[{"x":-1,"y":-1}],"responses":[{"x":3,"y":2}]}"#,
                "one request more",
            ),
            (
                r#"{"requests":[{"x":-1,"y":-1},{"x":0,"y":0}],"responses":[{"x":3,"y":2}]}"#,
                "illegal",
            ),
            (
                r#"{"requests":[{"x":-1,"y":-1},{"x":-1,"y":-1}],"responses":[{"x":3,"y":2}]}"#,
                "has a move",
            ),
            (r#"{"requests":[{"x":9,"y":0}]}"#, "off the board"),
            (r#"{"requests":[{"x":"3","y":2}]}"#, "whole numbers"),
            (
                r#"{"requests":[{"x":-1,"y":-1}],"responses":{}}"#,
                "not an array",
            ),
        ] {
            let e = game(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
