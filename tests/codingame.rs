//! `orca codingame` driven through the real binary by a scripted CodinGame
//! referee: whole games as either player, every answer checked for form and
//! legality, and bad input.

mod common;

use std::time::Duration;

use common::{Orca, PATIENCE};
use orca::game::{AnyMove, AnyPosition, Color, Variant};

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

struct Lcg(u64);

impl Lcg {
    fn pick(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// A whole game, Orca as `orca`; a side without a move is skipped, as the
/// referee does. Returns the final position and Orca's number of answers.
fn play_game(orca: Color, seed: u64) -> (AnyPosition, usize) {
    let mut rng = Lcg(seed);
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
            legal[rng.pick(legal.len())]
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
