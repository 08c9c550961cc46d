//! `orca codingame` driven through the real binary by a scripted CodinGame
//! referee: whole games as either player, every answer checked for form and
//! legality, and bad input.

mod common;

use std::time::Duration;

use common::{Orca, PATIENCE, assert_searched, book_moves, book_notes};
use orca::game::{AnyMove, AnyPosition, Color, Variant};
use orca::rng::Rng;

const ARGS: &[&str] = &[
    "codingame",
    "--movetime",
    "30ms",
    "--first-movetime",
    "200ms",
    "--hash",
    "8",
];

/// The rows CodinGame sends: `.` empty, `0` player 0 (black), `1` white.
fn rows(position: &AnyPosition) -> Vec<String> {
    let text = position.to_string();
    let squares: Vec<char> = text.chars().take(64).collect();
    squares
        .chunks(8)
        .map(|row| {
            row.iter()
                .map(|c| match c {
                    'X' | '*' => '0',
                    'O' => '1',
                    _ => '.',
                })
                .collect()
        })
        .collect()
}

/// Sends one turn: the board, the action count and the actions.
fn send_turn(e: &mut Orca, position: &AnyPosition, actions: &[String]) {
    for row in rows(position) {
        e.send(&row);
    }
    e.send(&actions.len().to_string());
    for action in actions {
        e.send(action);
    }
}

/// A whole game, Orca as `orca`; a side without a move is skipped, as the
/// referee does. Returns the final position and Orca's number of answers.
fn play_game(orca: Color, seed: u64) -> (AnyPosition, usize) {
    let mut rng = Rng::new(seed);
    let mut e = Orca::start_logging(ARGS);
    e.send(if orca == Color::Black { "0" } else { "1" });
    e.send("8");
    let mut position = AnyPosition::start(Variant::Othello);
    let mut answers = 0;
    while !position.is_over() {
        if position.must_pass() {
            position = position.play(AnyMove::PASS).unwrap();
            continue;
        }
        let legal = position.legal_moves();
        let mv = if position.to_move() == orca {
            let actions: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
            send_turn(&mut e, &position, &actions);
            let answer = e.recv();
            answers += 1;
            assert!(
                answer.len() == 2 && actions.contains(&answer),
                "answer '{answer}' is not one of {actions:?}"
            );
            position.parse_move(&answer).unwrap()
        } else {
            legal[rng.below(legal.len() as u64) as usize]
        };
        position = position.play(mv).unwrap();
    }
    assert!(
        e.drain(Duration::from_millis(50)).is_empty(),
        "nothing but answers on stdout"
    );
    e.close_stdin();
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
    // Orca read every board as the referee meant it: no remark.
    let remarks = e.stderr(Duration::from_millis(100));
    assert!(remarks.is_empty(), "{remarks:?}");
    (position, answers)
}

#[test]
fn a_whole_game_as_black() {
    let (end, answers) = play_game(Color::Black, 5);
    assert!(end.is_over());
    assert!(answers >= 10, "{answers}");
}

#[test]
fn a_whole_game_as_white() {
    let (end, answers) = play_game(Color::White, 9);
    assert!(end.is_over());
    assert!(answers >= 10, "{answers}");
}

/// The referee's list is authoritative: an action outside it is never
/// answered, even when the engine would prefer another move.
#[test]
fn answers_come_from_the_listed_actions() {
    let mut e = Orca::start_logging(ARGS);
    e.send("0");
    e.send("8");
    let start = AnyPosition::start(Variant::Othello);
    send_turn(&mut e, &start, &["E6".to_string()]);
    assert_eq!(e.recv(), "e6");
    // A board Orca cannot read: the first listed action, and a remark.
    for row in rows(&start).iter().take(7) {
        e.send(row);
    }
    e.send("...2....");
    e.send("2");
    e.send("c4");
    e.send("d3");
    assert_eq!(e.recv(), "c4");
    let errors = e.stderr(Duration::from_millis(300));
    assert!(errors.iter().any(|l| l.contains("bad board")), "{errors:?}");
}

/// No legal action: `pass`, and the session goes on.
#[test]
fn no_action_answers_pass() {
    let mut e = Orca::start(ARGS);
    e.send("1");
    e.send("8");
    let start = AnyPosition::start(Variant::Othello);
    send_turn(&mut e, &start, &[]);
    assert_eq!(e.recv(), "pass");
    let after = start.play_line(["f5"]).unwrap();
    send_turn(&mut e, &after, &["d6".into(), "f4".into(), "f6".into()]);
    let answer = e.recv();
    assert!(["d6", "f4", "f6"].contains(&answer.as_str()), "{answer}");
}

/// A start that is not CodinGame's: one line on stderr, status 1, nothing
/// on stdout.
#[test]
fn bad_starts_exit_cleanly() {
    for (id, size) in [("2", "8"), ("black", "8"), ("0", "10"), ("\u{ff}", "8")] {
        let mut e = Orca::start_logging(ARGS);
        e.send(id);
        e.send(size);
        e.close_stdin();
        assert_eq!(e.wait_exit(PATIENCE), Some(1), "{id} {size}");
        let errors = e.stderr(Duration::from_millis(100));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("orca codingame: "), "{errors:?}");
        assert!(e.drain(Duration::from_millis(50)).is_empty());
    }
    // The input ends in the middle of a turn: a clean exit.
    let mut e = Orca::start(ARGS);
    e.send("0");
    e.send("8");
    e.send("........");
    e.close_stdin();
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
}

/// Every legal action of `position`, as the referee lists them.
fn actions(position: &AnyPosition) -> Vec<String> {
    let mut names = position.legal_move_names();
    names.retain(|m| m != "pass");
    names
}

/// Search times far beyond the patience: an answer within it came from
/// the book.
const LONG: &[&str] = &[
    "codingame",
    "--movetime",
    "60s",
    "--first-movetime",
    "60s",
    "--hash",
    "8",
];

/// The book is on by default: as either player, the first two turns are
/// answered at once with the book's best moves (the referee playing its own
/// book moves), and the info log says so.
#[test]
fn the_opening_comes_from_the_book_as_either_player() {
    for (id, referee_first) in [("0", false), ("1", true)] {
        let mut e = Orca::start_logging_at(LONG, "info");
        e.send(id);
        e.send("8");
        let mut line: Vec<String> = Vec::new();
        let mut answers = Vec::new();
        for turn in 0..2 {
            if referee_first || turn > 0 {
                line.push(book_moves(&line.join(" "))[0].clone());
            }
            let position = AnyPosition::start(Variant::Othello)
                .play_line(line.iter().map(String::as_str))
                .unwrap();
            send_turn(&mut e, &position, &actions(&position));
            let (_, answer) = e
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|| panic!("player {id}: no answer within {PATIENCE:?}"));
            assert_eq!(answer, book_moves(&line.join(" "))[0], "player {id}");
            line.push(answer.clone());
            answers.push(answer);
        }
        e.close_stdin();
        assert_eq!(e.wait_exit(PATIENCE), Some(0));
        let log = e.stderr(PATIENCE);
        assert_eq!(book_notes(&log), answers, "{log:?}");
    }
}

/// `--no-book` searches the opening: iterations in the debug log, no book
/// note.
#[test]
fn no_book_searches_the_opening() {
    let args = [
        "codingame",
        "--first-movetime",
        "200ms",
        "--hash",
        "8",
        "--no-book",
    ];
    let mut e = Orca::start_logging_at(&args, "debug");
    e.send("0");
    e.send("8");
    let start = AnyPosition::start(Variant::Othello);
    send_turn(&mut e, &start, &actions(&start));
    assert!(actions(&start).contains(&e.recv()));
    e.close_stdin();
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
    let log = e.stderr(PATIENCE);
    assert_searched(&log);
}

/// A book file that is no good: one line on stderr, and the turns are
/// searched without a book.
#[test]
fn a_bad_book_file_is_one_line_and_play_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("file.book");
    let path = missing.to_str().unwrap();
    let mut args = ARGS.to_vec();
    args.extend(["--book", path]);
    let mut e = Orca::start_logging(&args);
    e.send("1");
    e.send("8");
    let after = AnyPosition::start(Variant::Othello)
        .play_line(["f5"])
        .unwrap();
    send_turn(&mut e, &after, &actions(&after));
    assert!(actions(&after).contains(&e.recv()));
    e.close_stdin();
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
    assert_eq!(
        e.stderr(PATIENCE),
        [format!(
            "orca: book {path}: no such file; playing without a book"
        )]
    );
}
