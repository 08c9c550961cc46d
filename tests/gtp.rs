//! `orca gtp` driven over pipes as the GTP match runners drive it.

mod common;

use std::time::{Duration, Instant};

use common::{Orca, PATIENCE};
use orca::game::{AnyPosition, Color, Variant};

/// After these moves black has no move and white has.
const BLACK_PASSES_AFTER: [&str; 8] = ["e6", "f6", "g6", "g7", "d3", "h6", "h8", "f8"];

/// Sends a command and returns its reply (without the empty line ending it),
/// checking the framing: one `=` or `?` line first, then the empty line.
fn ask(e: &mut Orca, command: &str) -> String {
    e.send(command);
    let mut lines = Vec::new();
    loop {
        let line = e.recv();
        if line.is_empty() {
            break;
        }
        lines.push(line);
    }
    assert!(
        lines[0].starts_with('=') || lines[0].starts_with('?'),
        "{command}: {lines:?}"
    );
    lines.join("\n")
}

/// The result of a successful command.
fn ok(e: &mut Orca, command: &str) -> String {
    let reply = ask(e, command);
    assert!(reply.starts_with('='), "{command}: {reply}");
    reply.trim_start_matches('=').trim_start().to_string()
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

#[test]
fn the_match_runner_session() {
    let mut e = Orca::start(&["gtp"]);
    assert_eq!(ok(&mut e, "name"), "Orca");
    assert!(!ok(&mut e, "version").is_empty());
    assert_eq!(ok(&mut e, "clear_board"), "");
    // Moves from the other engine may come in upper case.
    assert_eq!(ok(&mut e, "play black F5"), "");
    assert_eq!(ok(&mut e, "time_settings 3 0 0"), "");
    ok(&mut e, "time_left black 3 0");
    ok(&mut e, "time_left white 3 0");
    let reply = ok(&mut e, "genmove white");
    let position = AnyPosition::start(Variant::Othello)
        .play_line(["f5"])
        .unwrap();
    assert!(position.legal_move_names().contains(&reply), "{reply}");
    // Orca played it: black is to move now.
    let after = position.play_line([reply.as_str()]).unwrap();
    let black = ok(&mut e, "genmove black");
    assert!(after.legal_move_names().contains(&black), "{black}");
    // The rest of GTP: ids, protocol_version, boardsize, komi, lists.
    assert_eq!(ask(&mut e, "12 protocol_version"), "=12 2");
    assert_eq!(ask(&mut e, "boardsize 8"), "=");
    assert_eq!(ask(&mut e, "boardsize 19"), "? unacceptable size");
    assert_eq!(ask(&mut e, "komi 6.5"), "=");
    assert_eq!(ok(&mut e, "known_command time_left"), "true");
    assert_eq!(ok(&mut e, "known_command kgs-genmove_cleanup"), "false");
    // Command names are read whatever their case, in `known_command` too.
    assert_eq!(ok(&mut e, "known_command PLAY"), "true");
    assert_eq!(ok(&mut e, "known_command Time_Left"), "true");
    let commands = ask(&mut e, "list_commands");
    for name in [
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "variant",
    ] {
        assert!(commands.lines().any(|l| l.ends_with(name)), "{commands}");
    }
    assert_eq!(ask(&mut e, "quit"), "=");
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
}

#[test]
fn passes_are_implicit() {
    let mut e = Orca::start(&["gtp", "--depth", "3"]);
    play_to_black_pass(&mut e);
    let stuck = AnyPosition::start(Variant::Othello)
        .play_line(BLACK_PASSES_AFTER)
        .unwrap();
    let after_pass = stuck.play_line(["pass"]).unwrap();
    // Asked to move, black passes...
    assert_eq!(ok(&mut e, "genmove black"), "pass");
    ok(&mut e, "undo");
    // ...but the runner asks white again instead: the pass is put in.
    let white = ok(&mut e, "genmove white");
    assert!(after_pass.legal_move_names().contains(&white), "{white}");
    ok(&mut e, "undo");
    assert_eq!(
        ok(&mut e, &format!("play white {}", white.to_uppercase())),
        ""
    );
    let board = ok(&mut e, "showboard");
    assert!(board.contains("black to move"), "{board}");
    // White may not move twice when black has a move, even where white could play.
    let black_to_move = after_pass.play_line([white.as_str()]).unwrap();
    assert!(!black_to_move.must_pass());
    let squares = black_to_move.to_string().replace(" X", " O");
    let as_if_white = AnyPosition::parse(Variant::Othello, &squares).unwrap();
    let white_square = &as_if_white.legal_move_names()[0];
    assert_eq!(
        ask(&mut e, &format!("play white {white_square}")),
        "? illegal move"
    );
    assert_eq!(
        ask(&mut e, "genmove white"),
        "? black is to move and has a move"
    );
}

/// What a busy machine may add to the time the runner measures over a whole
/// game, beyond the engine's own thinking.
const SLACK: Duration = Duration::from_secs(5);

/// A whole game as the runner plays it, with `time_settings main 0 0` and
/// `time_left` (rounded up, as the runner does) before every `genmove`; each
/// side's thinking must fit its clock, give or take [`SLACK`] (an engine that
/// ignored the clock would take its default second a move, half a minute).
fn timed_game(args: &[&str], variant: Variant, main_secs: u64) -> AnyPosition {
    let mut e = Orca::start(args);
    ok(&mut e, "clear_board");
    ok(&mut e, &format!("time_settings {main_secs} 0 0"));
    let mut position = AnyPosition::start(variant);
    let mut left = [Duration::from_secs(main_secs); 2];
    let mut used = [Duration::ZERO; 2];
    while !position.is_over() {
        if position.must_pass() {
            // The runner just asks the other colour.
            position = position.play_line(["pass"]).unwrap();
        }
        let color = position.to_move();
        for (c, l) in [Color::Black, Color::White].into_iter().zip(left) {
            let secs = l.as_millis().div_ceil(1000);
            ok(&mut e, &format!("time_left {} {secs} 0", color_name(c)));
        }
        let sent = Instant::now();
        let mv = ok(&mut e, &format!("genmove {}", color_name(color)));
        let took = sent.elapsed();
        let side = usize::from(color == Color::White);
        left[side] = left[side].saturating_sub(took);
        used[side] += took;
        assert!(
            used[side] <= Duration::from_secs(main_secs) + SLACK,
            "{color:?} lost on time at {position}: {:?}",
            used[side]
        );
        assert_ne!(mv, "pass", "a side with a move never passes");
        position = position
            .play_line([mv.as_str()])
            .unwrap_or_else(|err| panic!("{mv} in {position}: {err}"));
    }
    let expected = match position.black_score().unwrap() {
        s if s > 0 => format!("B+{s}"),
        s if s < 0 => format!("W+{}", -s),
        _ => "0".to_string(),
    };
    assert_eq!(ok(&mut e, "final_score"), expected);
    position
}

#[test]
fn complete_timed_game_within_the_clock() {
    let end = timed_game(&["gtp"], Variant::Othello, 1);
    assert!(end.is_over());
}

#[test]
fn reversed_othello_by_flag_and_by_command() {
    // The shortest wipe-out: black ends with every disc.
    let wipe_out = ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"];
    let score = |args: &[&str], command: Option<&str>| {
        let mut e = Orca::start(args);
        if let Some(command) = command {
            assert_eq!(ok(&mut e, command), "");
        }
        let mut color = Color::Black;
        for mv in wipe_out {
            ok(&mut e, &format!("play {} {mv}", color_name(color)));
            color = color.opposite();
        }
        assert_eq!(ok(&mut e, "genmove white"), "pass", "the game is over");
        let variant = ok(&mut e, "variant");
        (variant, ok(&mut e, "final_score"))
    };
    assert_eq!(
        score(&["gtp"], None),
        ("othello".to_string(), "B+64".to_string())
    );
    assert_eq!(
        score(&["gtp", "--variant", "reversed"], None),
        ("reversed".to_string(), "W+64".to_string())
    );
    assert_eq!(
        score(&["gtp"], Some("variant reversed")),
        ("reversed".to_string(), "W+64".to_string())
    );
}

#[test]
fn per_move_time_is_kept() {
    // Without the book, which would answer the opening at once.
    let mut e = Orca::start(&["gtp", "--no-book"]);
    // `0 B 0`: B seconds for every move. Three, so that using them is told
    // apart from the default second a move and from a clock of 3 s for the
    // game; a busy machine only adds to the time taken.
    ok(&mut e, "time_settings 0 3 0");
    ok(&mut e, "time_left black 3 0");
    let sent = Instant::now();
    ok(&mut e, "genmove black");
    let took = sent.elapsed();
    assert!(took < Duration::from_secs(3) + SLACK, "{took:?}");
    assert!(
        took > Duration::from_millis(1500),
        "uses its time: {took:?}"
    );
}

#[test]
fn bad_input_gets_a_question_mark_and_changes_nothing() {
    let mut e = Orca::start(&["gtp", "--depth", "2"]);
    ok(&mut e, "play black f5");
    assert_eq!(ask(&mut e, "fly"), "? unknown command");
    assert_eq!(ask(&mut e, "5 fly"), "?5 unknown command");
    for bad in [
        "play black",
        "play red f5",
        "play white z9",
        "genmove",
        "genmove purple",
        "boardsize eight",
        "komi lots",
        "time_settings 1 2",
        "time_left white -3 0",
        "known_command",
        "variant chess",
        "name please",
    ] {
        let reply = ask(&mut e, bad);
        assert!(reply.starts_with("? ") && reply.len() > 2, "{bad}: {reply}");
    }
    assert_eq!(ask(&mut e, "play white a1"), "? illegal move");
    assert_eq!(ask(&mut e, "play black d6"), "? illegal move");
    assert_eq!(ask(&mut e, "final_score"), "? game is not over");
    let mut long = vec![b'x'; 1 << 20];
    long.push(b'\n');
    e.send_bytes(&long);
    assert!(e.recv().starts_with("? line too long"));
    assert_eq!(e.recv(), "");
    e.send_bytes(b"play black \xff\n");
    assert_eq!(e.recv(), "? line is not valid UTF-8");
    assert_eq!(e.recv(), "");
    // Nothing changed: white is to move after f5, and Orca still plays.
    let position = AnyPosition::start(Variant::Othello)
        .play_line(["f5"])
        .unwrap();
    let white = ok(&mut e, "genmove white");
    assert!(position.legal_move_names().contains(&white), "{white}");
}

#[test]
fn undo_showboard_and_clear_board() {
    let mut e = Orca::start(&["gtp", "--depth", "1"]);
    assert_eq!(ask(&mut e, "undo"), "? cannot undo");
    ok(&mut e, "play b f5");
    ok(&mut e, "genmove w");
    let board = ok(&mut e, "showboard");
    assert!(board.contains("black to move"), "{board}");
    ok(&mut e, "undo");
    ok(&mut e, "undo");
    let board = ok(&mut e, "showboard");
    assert!(
        board.contains("othello: black to move; X 2, O 2"),
        "{board}"
    );
    assert!(board.lines().any(|l| l == " 4 . . * O X . . ."), "{board}");
    ok(&mut e, "play b f5");
    ok(&mut e, "clear_board");
    assert_eq!(ask(&mut e, "undo"), "? cannot undo");
}

#[test]
fn plain_orca_recognises_gtp() {
    for first in ["protocol_version", "name", "1 boardsize 8"] {
        let mut e = Orca::start(&[]);
        let reply = ask(&mut e, first);
        assert!(reply.starts_with('='), "{first}: {reply}");
        assert_eq!(ok(&mut e, "play black f5"), "");
        assert_eq!(ask(&mut e, "quit"), "=");
        assert_eq!(e.wait_exit(PATIENCE), Some(0));
    }
}

/// `--level 1` plays varied moves (a random one among the near ones) where
/// full strength plays the same move every time.
#[test]
fn level_flag_varies_genmove() {
    let moves = |args: &[&str]| {
        let mut e = Orca::start(args);
        let played: std::collections::BTreeSet<String> = (0..12)
            .map(|_| {
                ok(&mut e, "clear_board");
                ok(&mut e, "play black f5");
                ok(&mut e, "genmove white").to_lowercase()
            })
            .collect();
        let after = AnyPosition::start(Variant::Othello)
            .play_line(["f5"])
            .unwrap();
        assert!(
            played.iter().all(|m| after.legal_move_names().contains(m)),
            "{played:?}"
        );
        played
    };
    assert_eq!(moves(&["gtp", "--depth", "3"]).len(), 1);
    assert!(moves(&["gtp", "--depth", "3", "--level", "1"]).len() >= 2);
}

/// The readings protocol.md states for what the specification leaves open:
/// ids, colour case, whitespace, number forms, pass spellings, variant
/// names, and which fault a line with two gets.
#[test]
fn readings_the_protocol_document_states() {
    let mut e = Orca::start(&["gtp"]);
    // Ids: digits only; leading zeros are read and not written back.
    assert_eq!(ask(&mut e, "007 name"), "=7 Orca");
    assert_eq!(ask(&mut e, "+5 name"), "? unknown command");
    // Colours and command names in any case; any Unicode whitespace.
    assert_eq!(ask(&mut e, "PLAY B f5"), "=");
    assert_eq!(ask(&mut e, "play\u{a0}WHITE\u{2003}d6"), "=");
    assert_eq!(ask(&mut e, "undo"), "=");
    assert_eq!(ask(&mut e, "undo"), "=");
    // Numbers: signs, fractions and exponents where a number may be one;
    // never infinite, never a negative time.
    for good in [
        "komi +8",
        "komi 1.5",
        "komi -2e1",
        "boardsize +8",
        "time_settings +0 1.5 0",
    ] {
        assert_eq!(ask(&mut e, good), "=", "{good}");
    }
    for bad in ["komi inf", "komi NaN", "time_left b -1 0", "boardsize 8.0"] {
        assert!(ask(&mut e, bad).starts_with("? syntax error"), "{bad}");
    }
    assert_eq!(ask(&mut e, "time_settings 0 0 0"), "=");
    // Two faults: the first met reading the line (the arguments' form, then
    // what the position allows).
    assert_eq!(
        ask(&mut e, "play q zz"),
        "? syntax error (play takes a colour (black or white) and a move)"
    );
    let zz = ask(&mut e, "play white zz");
    assert!(zz.starts_with("? syntax error ('zz' is not a move"), "{zz}");
    assert_eq!(ask(&mut e, "play white f5"), "? illegal move");
    // Every pass spelling, where black must pass.
    assert_eq!(ask(&mut e, "clear_board"), "=");
    play_to_black_pass(&mut e);
    for pass in ["pass", "PASS", "PA", "pa", "ps", "--"] {
        assert_eq!(ask(&mut e, &format!("play black {pass}")), "=", "{pass}");
        assert_eq!(ask(&mut e, "undo"), "=");
    }
    assert!(ask(&mut e, "play black pz").starts_with("? syntax error"));
    // Variant names in any case, with the aliases.
    for (name, variant) in [
        ("REVERSI", "othello"),
        ("Standard", "othello"),
        ("anti", "reversed"),
        ("AntiReversi", "reversed"),
        ("reversed-othello", "reversed"),
        ("Tic-Tac-Toe", "tictactoe"),
        ("TTT", "tictactoe"),
    ] {
        assert_eq!(ask(&mut e, &format!("variant {name}")), "=", "{name}");
        assert_eq!(ok(&mut e, "variant"), variant, "{name}");
    }
}

/// Plays [`BLACK_PASSES_AFTER`] from the start, black first.
fn play_to_black_pass(e: &mut Orca) {
    let mut color = Color::Black;
    for mv in BLACK_PASSES_AFTER {
        ok(e, &format!("play {} {mv}", color_name(color)));
        color = color.opposite();
    }
}
