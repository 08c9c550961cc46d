//! `orca botzone` driven through the real binary by a scripted Botzone
//! referee: whole games in per-turn and keep-running mode, every answer
//! checked for form and legality, and bad input.

mod common;

use std::time::Duration;

use common::{Orca, PATIENCE, assert_searched, book_moves, book_notes};
use orca::game::{AnyMove, AnyPosition, Color, Move, Square, Variant};
use orca::rng::Rng;

const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// A move as Botzone writes it: x the column, y the row from the top.
fn coords(mv: Option<Square>) -> String {
    match mv {
        Some(sq) => format!("{{\"x\":{},\"y\":{}}}", sq.column(), sq.row()),
        None => "{\"x\":-1,\"y\":-1}".into(),
    }
}

/// Reads `{"response":{"x":X,"y":Y}}` strictly: exactly this form.
fn parse_response(line: &str) -> Option<Square> {
    let inner = line
        .strip_prefix("{\"response\":{\"x\":")
        .and_then(|s| s.strip_suffix("}}"))
        .unwrap_or_else(|| panic!("malformed answer: {line}"));
    let (x, y) = inner
        .split_once(",\"y\":")
        .unwrap_or_else(|| panic!("malformed answer: {line}"));
    let (x, y): (i32, i32) = (x.parse().unwrap(), y.parse().unwrap());
    if (x, y) == (-1, -1) {
        return None;
    }
    assert!(
        (0..8).contains(&x) && (0..8).contains(&y),
        "off the board: {line}"
    );
    Some(Square::from_coords(x as u8, y as u8).unwrap())
}

/// How the referee reaches Orca.
enum Mode {
    /// A new process each turn, given the whole history.
    PerTurn,
    /// One process; after the first turn only the new request.
    KeepRunning(Box<Orca>),
}

const ARGS: &[&str] = &["botzone", "--movetime", "60ms", "--hash", "8"];

/// Plays a whole game, Orca as `orca`, the referee's side choosing legal
/// moves at random; every answer is checked. Returns the final position
/// and the number of answers.
fn play_game(orca: Color, keep_running: bool, seed: u64) -> (AnyPosition, usize) {
    let mut rng = Rng::new(seed);
    let mut mode = if keep_running {
        let mut args = ARGS.to_vec();
        args.push("--keep-running");
        Mode::KeepRunning(Box::new(Orca::start_logging(&args)))
    } else {
        Mode::PerTurn
    };
    let mut position = AnyPosition::start(Variant::Othello);
    let mut requests: Vec<String> = Vec::new();
    let mut responses: Vec<String> = Vec::new();
    if orca == Color::Black {
        requests.push(coords(None));
    }
    let mut answers = 0;
    while !position.is_over() {
        if position.to_move() != orca {
            // The referee's side.
            let mv = if position.must_pass() {
                AnyMove::PASS
            } else {
                let legal = position.legal_moves();
                legal[rng.below(legal.len() as u64) as usize]
            };
            let square = match mv {
                AnyMove::Othello(Move::Play(sq)) => Some(sq),
                _ => None,
            };
            requests.push(coords(square));
            position = position.play(mv).unwrap();
            continue;
        }
        let history = format!(
            "{{\"requests\":[{}],\"responses\":[{}]}}",
            requests.join(","),
            responses.join(",")
        );
        let line = match &mut mode {
            Mode::PerTurn => {
                let mut e = Orca::start_logging(ARGS);
                e.send(&history);
                let line = e.recv();
                assert_eq!(e.wait_exit(PATIENCE), Some(0), "per-turn mode exits");
                assert!(e.drain(Duration::from_millis(50)).is_empty());
                let remarks = e.stderr(Duration::from_millis(50));
                assert!(remarks.is_empty(), "{remarks:?}");
                line
            }
            Mode::KeepRunning(e) => {
                if answers == 0 {
                    e.send(&history);
                } else {
                    e.send(requests.last().unwrap());
                }
                let line = e.recv();
                assert_eq!(e.recv(), KEEP_RUNNING, "after {line}");
                line
            }
        };
        answers += 1;
        let answer = parse_response(&line);
        let mv = match answer {
            None => {
                assert!(
                    position.must_pass(),
                    "Orca passed with a move: {position:?}"
                );
                AnyMove::PASS
            }
            Some(sq) => AnyMove::Othello(Move::Play(sq)),
        };
        position = position
            .play(mv)
            .unwrap_or_else(|| panic!("illegal answer {line} in {position:?}"));
        responses.push(coords(answer));
        // The next request is the referee's move; Orca's pass is a response.
        if position.to_move() == orca && !position.is_over() {
            requests.push(coords(None));
            position = position.play(AnyMove::PASS).unwrap_or(position);
        }
    }
    (position, answers)
}

#[test]
fn a_whole_game_per_turn_as_black() {
    let (end, answers) = play_game(Color::Black, false, 7);
    assert!(end.is_over());
    assert!(answers >= 10, "{answers} answers");
}

#[test]
fn a_whole_game_keep_running_as_white() {
    let (end, answers) = play_game(Color::White, true, 11);
    assert!(end.is_over());
    assert!(answers >= 10, "{answers} answers");
}

#[test]
fn a_whole_game_keep_running_as_black() {
    let (end, _) = play_game(Color::Black, true, 3);
    assert!(end.is_over());
}

/// The documented first move: black's answer to the start is one of d3 c4
/// f5 e6 = (3,2) (2,3) (5,4) (4,5); white's answer to d3 is c3 c5 or e3.
#[test]
fn first_moves_in_botzone_coordinates() {
    let mut e = Orca::start(ARGS);
    e.send(r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#);
    let black = e.recv();
    assert!(
        [(3, 2), (2, 3), (5, 4), (4, 5)]
            .iter()
            .any(|(x, y)| black == format!("{{\"response\":{{\"x\":{x},\"y\":{y}}}}}")),
        "{black}"
    );
    let mut e = Orca::start(ARGS);
    e.send(r#"{"requests":[{"x":3,"y":2}],"responses":[]}"#);
    let white = parse_response(&e.recv()).unwrap().to_string();
    assert!(["c3", "c5", "e3"].contains(&white.as_str()), "{white}");
}

/// A history spread over several lines (pretty-printed JSON) is read whole.
#[test]
fn a_request_over_several_lines() {
    let mut e = Orca::start(ARGS);
    e.send("{\n  \"requests\": [\n    {\"x\": -1, \"y\": -1}\n  ],\n  \"responses\": []\n}");
    assert!(parse_response(&e.recv()).is_some());
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
}

/// Bad input: one line on stderr, nothing on stdout, exit status 1; no
/// panic whatever the bytes.
#[test]
fn bad_requests_per_turn() {
    let cases: &[&[u8]] = &[
        b"hello\n",
        b"{\"requests\":[{\"x\":0,\"y\":0}],\"responses\":[]}\n",
        b"{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[{\"x\":3,\"y\":2}]}\n",
        b"{\"requests\":[{\"x\":1e400,\"y\":2}]}\n",
        b"{\"requests\":[{\"x\":-1,\"y\":-1},\n",
        b"\xff\xfe\n",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n",
    ];
    for bytes in cases {
        let mut e = Orca::start_logging(ARGS);
        e.send_bytes(bytes);
        e.close_stdin();
        assert_eq!(
            e.wait_exit(PATIENCE),
            Some(1),
            "{}",
            String::from_utf8_lossy(bytes)
        );
        let errors = e.stderr(Duration::from_millis(100));
        assert!(
            !errors.is_empty() && errors.iter().all(|l| l.starts_with("orca botzone: ")),
            "{errors:?}"
        );
        assert!(
            e.drain(Duration::from_millis(50)).is_empty(),
            "nothing on stdout"
        );
    }
}

/// In keep-running mode a bad line is reported and skipped, the game kept:
/// the next good request is answered from it.
#[test]
fn keep_running_survives_bad_lines() {
    let mut args = ARGS.to_vec();
    args.push("--keep-running");
    let mut e = Orca::start_logging(&args);
    e.send(r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#);
    let first = parse_response(&e.recv()).unwrap();
    assert_eq!(e.recv(), KEEP_RUNNING);
    let mut position = AnyPosition::start(Variant::Othello)
        .play(AnyMove::Othello(Move::Play(first)))
        .unwrap();
    e.send("{\"x\":0,\"y\":0}"); // illegal for white
    e.send("not json");
    e.send("{\"x\":12,\"y\":3}");
    let errors = e.stderr_lines(3);
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(
        errors.iter().all(|l| l.starts_with("orca botzone: ")),
        "{errors:?}"
    );
    let reply = position.legal_moves()[0];
    let AnyMove::Othello(Move::Play(sq)) = reply else {
        panic!("a move")
    };
    position = position.play(reply).unwrap();
    e.send(&coords(Some(sq)));
    let answer = parse_response(&e.recv()).unwrap();
    assert!(
        position
            .play(AnyMove::Othello(Move::Play(answer)))
            .is_some()
    );
    assert_eq!(e.recv(), KEEP_RUNNING);
    e.close_stdin();
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
}

/// Search time far beyond the patience: an answer within it came from the book.
const LONG: &[&str] = &["botzone", "--movetime", "60s", "--hash", "8"];

/// One per-turn process logging at `filter`: its answer to `history`
/// (within the patience), its exit status and its log.
fn per_turn(
    args: &[&str],
    history: &str,
    filter: &str,
) -> (Option<Square>, Option<i32>, Vec<String>) {
    let mut e = Orca::start_logging_at(args, filter);
    e.send(history);
    let (_, line) = e
        .recv_timeout(PATIENCE)
        .unwrap_or_else(|| panic!("no answer to {history} within {PATIENCE:?}"));
    let status = e.wait_exit(PATIENCE);
    (parse_response(&line), status, e.stderr(PATIENCE))
}

/// The book is on by default: the opening is answered at once with the
/// book's best move, as black and as white, and the info log says so.
#[test]
fn the_opening_comes_from_the_book_per_turn() {
    for (history, line) in [
        (r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#, ""),
        (r#"{"requests":[{"x":3,"y":2}],"responses":[]}"#, "d3"),
    ] {
        let (answer, status, log) = per_turn(LONG, history, "info");
        let best = book_moves(line)[0].clone();
        assert_eq!(
            answer.map(|sq| sq.to_string()),
            Some(best.clone()),
            "{log:?}"
        );
        assert_eq!(status, Some(0));
        assert_eq!(book_notes(&log), [best], "{log:?}");
    }
}

/// Keep-running mode: the first turn (a whole history) and the next (one
/// move) are both answered from the book, from the position they lead to.
#[test]
fn the_opening_comes_from_the_book_keep_running() {
    let mut args = LONG.to_vec();
    args.push("--keep-running");
    let mut e = Orca::start_logging_at(&args, "info");
    e.send(r#"{"requests":[{"x":3,"y":2}],"responses":[]}"#);
    let (_, first) = e.recv_timeout(PATIENCE).expect("a book answer at once");
    let first = parse_response(&first).unwrap().to_string();
    assert_eq!(first, book_moves("d3")[0]);
    assert_eq!(e.recv(), KEEP_RUNNING);
    // The referee answers with its own book move.
    let line = format!("d3 {first}");
    let reply = book_moves(&line)[0].clone();
    let square: Square = reply.parse().unwrap();
    e.send(&coords(Some(square)));
    let (_, second) = e.recv_timeout(PATIENCE).expect("a book answer at once");
    let second = parse_response(&second).unwrap().to_string();
    assert_eq!(second, book_moves(&format!("{line} {reply}"))[0]);
    assert_eq!(e.recv(), KEEP_RUNNING);
    e.close_stdin();
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
    let log = e.stderr(PATIENCE);
    assert_eq!(book_notes(&log), [first, second], "{log:?}");
}

/// `--no-book` searches the opening: iterations in the debug log, no book
/// note.
#[test]
fn no_book_searches_the_opening() {
    let history = r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#;
    let args = ["botzone", "--movetime", "200ms", "--hash", "8", "--no-book"];
    let (answer, status, log) = per_turn(&args, history, "debug");
    assert!(answer.is_some());
    assert_eq!(status, Some(0));
    assert_searched(&log);
}

/// A book file that is no good: one line on stderr, and the move is
/// searched without a book.
#[test]
fn a_bad_book_file_is_one_line_and_play_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("file.book");
    let path = missing.to_str().unwrap();
    let args = [
        "botzone",
        "--movetime",
        "200ms",
        "--hash",
        "8",
        "--book",
        path,
    ];
    let mut e = Orca::start_logging(&args);
    e.send(r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#);
    let answer = parse_response(&e.recv());
    assert!(answer.is_some());
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
    assert_eq!(
        e.stderr(PATIENCE),
        [format!(
            "orca: book {path}: no such file; playing without a book"
        )]
    );
}

/// `--level` plays a weaker Orca, which keeps to its own openings: the
/// start is searched (shallow, so at once), not read from the book.
#[test]
fn a_level_searches_the_opening() {
    let history = r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#;
    let mut args = LONG.to_vec();
    args.extend(["--level", "3"]);
    let (answer, status, log) = per_turn(&args, history, "debug");
    assert!(answer.is_some());
    assert_eq!(status, Some(0));
    assert_searched(&log);
}
