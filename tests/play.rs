//! `orca play` driven over pipes, as a script (or a person typing) drives it:
//! whole games in each variant, bad input, undo, hints, forced passes, two
//! players, and input that ends in the middle of a game.

mod common;

use std::process::Command;
use std::time::Duration;

use common::{Orca, PATIENCE};
use orca::game::{AnyPosition, Color, Variant};
use orca::ggf::GgfGame;
use orca::rng::Rng;

/// Every line `orca play` writes until it exits.
fn all_output(orca: &Orca) -> Vec<String> {
    std::iter::from_fn(|| orca.recv_timeout(PATIENCE).map(|(_, line)| line)).collect()
}

/// The next line containing `needle` (earlier lines skipped).
fn wait_line(orca: &Orca, needle: &str) -> String {
    loop {
        let line = orca.recv();
        if line.contains(needle) {
            return line;
        }
    }
}

/// Lines up to and including the first one containing `needle`.
fn lines_until(orca: &Orca, needle: &str) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let line = orca.recv();
        let done = line.contains(needle);
        lines.push(line);
        if done {
            return lines;
        }
    }
}

/// The move in an "Orca (White) plays d6 (...)" line.
fn orca_move(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("Orca (")?;
    let at = rest.find(") plays ")?;
    rest[at + ") plays ".len()..].split_whitespace().next()
}

fn side(variant: Variant, color: Color) -> &'static str {
    match (variant, color) {
        (Variant::TicTacToe, Color::Black) => "X",
        (Variant::TicTacToe, Color::White) => "O",
        (_, Color::Black) => "Black",
        (_, Color::White) => "White",
    }
}

/// The result line a finished game must end with, from the rules: the most
/// discs wins in Othello, the fewest in reversed Othello.
fn expected_result_start(position: &AnyPosition) -> String {
    let variant = position.variant();
    let (black, white) = position.counts();
    if variant == Variant::TicTacToe {
        let winner = match position.black_score().expect("game over") {
            s if s > 0 => Some(Color::Black),
            s if s < 0 => Some(Color::White),
            _ => None,
        };
        return winner.map_or("Draw".to_string(), |c| format!("{} wins", side(variant, c)));
    }
    let fewer_wins = variant == Variant::Reversed;
    let black_wins = (black > white) != fewer_wins;
    if black == white {
        format!("Draw {black}-{white}")
    } else if black_wins {
        format!("Black wins {black}-{white}")
    } else {
        format!("White wins {white}-{black}")
    }
}

/// Checks the end of a finished game's transcript against the position the
/// moves lead to: final count, result line and move list.
fn check_game_end(transcript: &[String], end: &AnyPosition, moves: &[String]) {
    assert!(end.is_over(), "{transcript:#?}");
    let variant = end.variant();
    let (black, white) = end.counts();
    if variant != Variant::TicTacToe {
        let count = format!("Final count: Black (X) {black}, White (O) {white}.");
        assert!(transcript.contains(&count), "{count} in {transcript:#?}");
    }
    // The result line comes right before the move list.
    let list_at = transcript.iter().position(|l| l == "Moves:").unwrap();
    let result = &transcript[list_at - 1];
    assert!(
        result.starts_with(&expected_result_start(end)),
        "{result} for {end}"
    );
    if variant == Variant::Reversed && black != white {
        assert!(result.contains("with fewer discs"), "{result}");
    }
    // The move list numbers pairs; without the numbers it is the game.
    let listed: Vec<String> = transcript[list_at + 1..]
        .iter()
        .take_while(|l| l.starts_with("  "))
        .flat_map(|l| l.split_whitespace())
        .filter(|w| !w.ends_with('.'))
        .map(str::to_string)
        .collect();
    assert_eq!(listed, moves);
}

/// Plays the pass of the tracked game if the side to move has no move (`orca
/// play` announces it and plays it by itself).
fn pass_if_forced(position: &mut AnyPosition, moves: &mut Vec<String>) {
    if position.must_pass() {
        *position = position.play_line(["pass"]).unwrap();
        moves.push("pass".into());
    }
}

/// Plays `mv` on the tracked game, with the pass before it if one was forced.
fn record_move(position: &mut AnyPosition, moves: &mut Vec<String>, mv: &str) {
    pass_if_forced(position, moves);
    *position = position.play_line([mv]).unwrap();
    moves.push(mv.to_string());
}

/// Plays a person's side with the first legal move each turn against Orca until
/// the game ends; returns the transcript, the final position and every move
/// (passes included).
fn person_against_orca(
    variant: Variant,
    person: &str,
    extra: &[&str],
) -> (Orca, Vec<String>, AnyPosition, Vec<String>) {
    let mut args = vec!["play", "--variant", variant.name(), "--color", person];
    args.extend_from_slice(extra);
    let mut orca = Orca::start(&args);
    let mut position = AnyPosition::start(variant);
    let mut moves: Vec<String> = Vec::new();
    let mut transcript = Vec::new();
    loop {
        let line = orca.recv();
        transcript.push(line.clone());
        if line.contains(" to move (you)") {
            pass_if_forced(&mut position, &mut moves);
            let mv = position.legal_move_names()[0].clone();
            orca.send(&mv);
            record_move(&mut position, &mut moves, &mv);
        } else if let Some(mv) = orca_move(&line) {
            record_move(&mut position, &mut moves, mv);
        } else if line == "Moves:" {
            // The move list: as many lines as it takes to list every move.
            let mut listed = 0;
            while listed < moves.len() {
                let line = orca.recv();
                listed += line
                    .split_whitespace()
                    .filter(|w| !w.ends_with('.'))
                    .count();
                transcript.push(line);
            }
            return (orca, transcript, position, moves);
        }
    }
}

#[test]
fn person_plays_tictactoe_against_orca_to_the_end() {
    let (mut orca, transcript, end, moves) =
        person_against_orca(Variant::TicTacToe, "x", &["--depth", "9"]);
    check_game_end(&transcript, &end, &moves);
    // Orca plays tic-tac-toe perfectly: it never loses.
    assert_ne!(end.black_score(), Some(1), "{transcript:#?}");
    // Orca shows that it thinks before each move; the prompt names the side.
    let thinking = transcript
        .iter()
        .filter(|l| *l == "Orca (O) is thinking...")
        .count();
    assert_eq!(thinking, moves.len() / 2, "{transcript:#?}");
    assert!(transcript.iter().any(|l| l.starts_with("X> ")));
    // After the end, moves are refused but undo works.
    orca.send("c3");
    assert_eq!(
        orca.wait_for("The game is over").1,
        "The game is over: type new, undo or quit."
    );
    orca.send("undo");
    orca.wait_for("Took back ");
    orca.send("quit");
    let rest = lines_until(&orca, "Game left unfinished.");
    assert!(rest.iter().any(|l| l == "X to move (you)"), "{rest:#?}");
    assert_eq!(orca.wait_exit(PATIENCE), Some(0));
}

#[test]
fn person_plays_othello_and_reversed_against_orca_to_the_end() {
    for (variant, person) in [(Variant::Othello, "black"), (Variant::Reversed, "white")] {
        let (mut orca, transcript, end, moves) =
            person_against_orca(variant, person, &["--depth", "1"]);
        check_game_end(&transcript, &end, &moves);
        // Input ending after a finished game is not an unfinished game.
        orca.close_stdin();
        assert_eq!(orca.wait_exit(PATIENCE), Some(0));
        let after = orca.drain(Duration::from_millis(200));
        assert!(
            after.iter().all(|l| !l.contains("unfinished")),
            "{after:#?}"
        );
    }
}

#[test]
fn orca_plays_itself_in_each_variant_and_saves_the_record() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for variant in Variant::ALL {
        let record = dir.join(format!("{variant}.ggf"));
        let record_arg = record.to_string_lossy().to_string();
        let mut args = vec![
            "play",
            "--variant",
            variant.name(),
            "--color",
            "none",
            "--depth",
            "2",
        ];
        if variant != Variant::TicTacToe {
            args.extend(["--save", record_arg.as_str()]);
        }
        let mut orca = Orca::start(&args);
        orca.close_stdin();
        let transcript = all_output(&orca);
        assert_eq!(orca.wait_exit(PATIENCE), Some(0));
        assert!(
            transcript
                .iter()
                .all(|l| l.is_ascii() && !l.contains('\x1b')),
            "plain text when piped: {transcript:#?}"
        );
        let (position, moves) = replay(&transcript, variant);
        check_game_end(&transcript, &position, &moves);
        if variant != Variant::TicTacToe {
            let saved: GgfGame = std::fs::read_to_string(&record).unwrap().parse().unwrap();
            assert_eq!(saved.variant(), variant);
            assert_eq!(saved.position().unwrap(), position);
            assert_eq!(saved.property("PB"), Some("Orca"));
            let score = position.black_score().unwrap();
            assert_eq!(
                saved.property("RE"),
                Some(format!("{score:+}.000").as_str())
            );
        }
    }
}

/// A random reversed-Othello game with a forced pass before its end, found from
/// fixed seeds: the moves a person would type (passes left out) and all moves.
fn random_game_with_a_pass() -> (Vec<String>, Vec<String>, AnyPosition) {
    for seed in 0.. {
        let mut rng = Rng::new(seed);
        let mut position = AnyPosition::start(Variant::Reversed);
        let mut all = Vec::new();
        while !position.is_over() {
            let legal = position.legal_move_names();
            let mv = legal[rng.below(legal.len() as u64) as usize].clone();
            position = position.play_line([mv.as_str()]).unwrap();
            all.push(mv);
        }
        if all.contains(&"pass".to_string()) {
            let typed = all.iter().filter(|m| *m != "pass").cloned().collect();
            return (typed, all, position);
        }
    }
    unreachable!("some random game has a pass")
}

#[test]
fn two_people_play_a_reversed_game_with_a_forced_pass() {
    let (typed, all, end) = random_game_with_a_pass();
    let mut orca = Orca::start(&["play", "--variant", "reversed", "--color", "both"]);
    for mv in &typed {
        orca.send(mv);
    }
    orca.close_stdin();
    let transcript = all_output(&orca);
    assert_eq!(orca.wait_exit(PATIENCE), Some(0));
    let passes = all.iter().filter(|m| *m == "pass").count();
    let announced = transcript
        .iter()
        .filter(|l| l.ends_with(" has no legal move and passes."))
        .count();
    assert_eq!(announced, passes, "{transcript:#?}");
    assert!(
        transcript
            .iter()
            .any(|l| l.starts_with("Last move: Black passed, after White ")
                || l.starts_with("Last move: White passed, after Black ")),
        "{transcript:#?}"
    );
    assert!(transcript.iter().all(|l| !l.contains("Not played")));
    assert!(transcript.iter().all(|l| !l.contains("Orca (")));
    // Two people: the status names no player, and the prompts follow the turns.
    assert!(transcript.iter().any(|l| l.ends_with("Black to move")));
    let prompts: Vec<&str> = transcript
        .iter()
        .filter_map(|l| l.split_once("> ").map(|(side, _)| side))
        .filter(|side| ["Black", "White"].contains(side))
        .collect();
    assert_eq!(prompts.len(), typed.len());
    check_game_end(&transcript, &end, &all);
    assert!(transcript.iter().all(|l| !l.contains("unfinished")));
}

#[test]
fn invalid_input_gets_a_reason_and_the_prompt_again() {
    let mut orca = Orca::start(&["play", "--color", "both", "--hints"]);
    orca.wait_for("Legal moves: d3 c4 f5 e6");
    let cases = [
        ("z9", "Not played: 'z9' is not a move"),
        (
            "a1",
            "Not played: a1 turns no discs over (legal moves: d3 c4 f5 e6).",
        ),
        (
            "e4",
            "Not played: e4 is already taken (legal moves: d3 c4 f5 e6).",
        ),
        (
            "pass",
            "Not played: a pass is only allowed without a legal move",
        ),
        ("hello", "Not understood: 'hello' is neither a move"),
        ("f5 d6", "Not understood: one move or command per line"),
    ];
    for (input, message) in cases {
        orca.send(input);
        let line = orca.recv();
        assert_eq!(line, format!("Black> {input}"));
        let answer = orca.recv();
        assert!(answer.starts_with(message), "{input}: {answer}");
    }
    orca.send_bytes(b"\xff\xfe\n");
    orca.wait_for("Not understood: that line is not text");
    orca.send("");
    orca.send("F5");
    let after = lines_until(&orca, "White to move");
    assert!(after.contains(&"Black> ".to_string()), "{after:#?}");
    assert!(after.contains(&"Black> F5".to_string()), "{after:#?}");
    assert!(
        after.iter().any(|l| l == "  5 . . . X X[X]. ."),
        "{after:#?}"
    );
    assert!(
        after
            .last()
            .unwrap()
            .starts_with("Black (X) 4  White (O) 1   White to move")
    );
    orca.send("help");
    orca.wait_for("  undo ");
    orca.send("quit");
    orca.wait_for("Game left unfinished.");
    assert_eq!(orca.wait_exit(PATIENCE), Some(0));
}

#[test]
fn undo_goes_back_to_the_persons_previous_turn() {
    let mut orca = Orca::start(&["play", "--depth", "2"]);
    orca.wait_for("Black (X) 2  White (O) 2   Black to move (you)");
    orca.send("undo");
    orca.wait_for("Nothing to undo");
    orca.send("f5");
    let reply = orca.wait_for("Orca (White) plays ").1;
    assert!(
        orca_move(&reply).is_some_and(|mv| ["d6", "f6", "f4"].contains(&mv)),
        "{reply}"
    );
    orca.wait_for("Black (X) 3  White (O) 3   Black to move (you)");
    orca.send("undo");
    orca.wait_for("Took back 2 moves.");
    let board = orca.until("Black (X) 2  White (O) 2   Black to move (you)");
    assert!(board.contains(&"  4 . . . O X . . .".to_string()));
    orca.send("d3");
    orca.wait_for("Orca (White) plays ");
    orca.send("quit");
    let end = lines_until(&orca, "  1. ");
    assert!(end.last().unwrap().starts_with("  1. d3 "), "{end:#?}");
    assert_eq!(orca.wait_exit(PATIENCE), Some(0));

    // When Orca opened, there is nothing of the person's to take back yet.
    let mut white = Orca::start(&["play", "--color", "white", "--depth", "2"]);
    white.wait_for("Orca (Black) plays ");
    wait_line(&white, "White to move (you)");
    white.send("undo");
    white.wait_for("Nothing to undo");
}

#[test]
fn hint_gives_a_legal_move_and_its_score() {
    let mut orca = Orca::start(&["play", "--depth", "3", "--no-book"]);
    orca.send("f5");
    orca.wait_for("Orca (White) plays ");
    wait_line(&orca, "Black to move (you)");
    orca.send("hint");
    orca.wait_for("Orca is thinking...");
    let hint = orca.recv();
    let rest = hint
        .strip_prefix("Hint for Black: ")
        .unwrap_or_else(|| panic!("{hint}"));
    let (mv, why) = rest.split_once(' ').unwrap();
    assert!(
        why.starts_with("(score ") && why.ends_with(", depth 3)"),
        "{hint}"
    );
    // The hint is a legal move: playing it is accepted.
    orca.send(mv);
    let next = lines_until(&orca, "White to move (Orca)");
    assert!(
        next.iter().all(|l| !l.starts_with("Not played")),
        "{next:#?}"
    );
}

#[test]
fn end_of_input_in_the_middle_of_a_game_ends_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let record = tmp.path().join("file.ggf");
    let record_arg = record.to_string_lossy().to_string();
    let mut orca = Orca::start(&["play", "--depth", "1", "--save", &record_arg]);
    orca.send("f5");
    orca.wait_for("Orca (White) plays ");
    wait_line(&orca, "Black to move (you)");
    orca.close_stdin();
    let rest = all_output(&orca);
    assert_eq!(orca.wait_exit(PATIENCE), Some(0));
    assert!(
        rest.contains(&"End of input: the game was left unfinished.".to_string()),
        "{rest:#?}"
    );
    assert!(rest.iter().any(|l| l.starts_with("  1. f5 ")), "{rest:#?}");
    let saved: GgfGame = std::fs::read_to_string(&record).unwrap().parse().unwrap();
    assert_eq!(saved.property("RE"), Some("?"));
    assert_eq!(saved.property("PB"), Some("Human"));
    assert_eq!(saved.moves.len(), 2);
    let _ = std::fs::remove_file(&record);
}

#[test]
fn new_game_starts_over() {
    let mut orca = Orca::start(&["play", "--color", "both"]);
    orca.send("f5");
    orca.wait_for("Black (X) 4  White (O) 1   White to move");
    orca.send("new");
    orca.wait_for("Game left unfinished.");
    orca.wait_for("New game.");
    orca.wait_for("Black (X) 2  White (O) 2   Black to move");
    orca.send("exit");
    assert_eq!(orca.wait_exit(PATIENCE), Some(0));
}

#[test]
fn orca_answers_within_its_movetime() {
    // 2.5 s, so that using it is told apart from the default second; a busy
    // machine only adds to the time taken, so the upper bound has seconds of
    // slack (precision is `orca bench timing`'s job).
    let mut orca = Orca::start(&["play", "--movetime", "2500ms", "--no-book"]);
    orca.send("f5");
    let (thinking, _) = orca.wait_for("Orca (White) is thinking...");
    let (answered, line) = orca.wait_for("Orca (White) plays ");
    let took = answered.duration_since(thinking);
    assert!(took >= Duration::from_secs(2), "{took:?}: {line}");
    assert!(
        took < Duration::from_millis(2500 + 5000),
        "{took:?}: {line}"
    );
}

#[test]
fn bad_arguments_are_refused() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_orca"))
            .args(args)
            .output()
            .expect("run orca");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["play", "--variant", "tictactoe", "--save", "x.ggf"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("tic-tac-toe games cannot be saved"), "{err}");
    let (code, err) = run(&["play", "--movetime", "2h"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("is not a time like 500"), "{err}");
    assert_eq!(
        run(&["play", "--movetime", "1s", "--depth", "3"]).0,
        Some(2)
    );
    assert_eq!(run(&["play", "--color", "red"]).0, Some(2));
    assert_eq!(run(&["play", "--variant", "chess"]).0, Some(2));
}

/// `--level 1`: Orca playing itself makes other games from run to run (a
/// random move among the near ones), all legal to the end; at full
/// strength the same depth replays the same game.
#[test]
fn a_low_level_plays_varied_legal_games() {
    let game = |level: &str| {
        let mut orca = Orca::start(&["play", "--color", "none", "--depth", "3", "--level", level]);
        orca.close_stdin();
        let transcript = all_output(&orca);
        assert_eq!(orca.wait_exit(PATIENCE), Some(0));
        let (position, moves) = replay(&transcript, Variant::Othello);
        check_game_end(&transcript, &position, &moves);
        assert!(
            transcript
                .iter()
                .any(|l| l.contains(&format!("level {level} of 20")))
                || level == "20",
            "{transcript:#?}"
        );
        moves
    };
    let weak: Vec<Vec<String>> = (0..3).map(|_| game("1")).collect();
    assert!(
        weak[0] != weak[1] || weak[1] != weak[2],
        "three level-1 games were the same: {weak:?}"
    );
    assert_eq!(game("20"), game("20"));
}

/// The game a transcript shows Orca playing from the start of `variant`:
/// the final position and the moves, passes included.
fn replay(transcript: &[String], variant: Variant) -> (AnyPosition, Vec<String>) {
    let mut position = AnyPosition::start(variant);
    let mut moves = Vec::new();
    for line in transcript {
        if line.ends_with(" has no legal move and passes.") {
            position = position.play_line(["pass"]).unwrap();
            moves.push("pass".to_string());
        } else if let Some(mv) = orca_move(line) {
            position = position.play_line([mv]).unwrap();
            moves.push(mv.to_string());
        }
    }
    (position, moves)
}
