//! `orca nboard` driven over pipes with the sequences the NBoard GUI sends.

mod common;

use std::time::{Duration, Instant};

use common::{Orca, PATIENCE};
use orca::game::{AnyPosition, Color, Variant};
use orca::ggf::GgfGame;

const START_BOARD: &str = "8 ---------------------------O*------*O--------------------------- *";

fn record(extra: &str) -> String {
    format!("(;GM[Othello]PC[NBoard]PB[Human]PW[Orca]RE[?]TI[5:00]TY[8]BO[{START_BOARD}]{extra};)")
}

fn nboard() -> Orca {
    let mut e = Orca::start(&["nboard"]);
    e.send("nboard 2");
    e
}

/// Sends `ping n` and returns every line before `pong n`.
fn ping(e: &mut Orca, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let mut lines = e.until(&format!("pong {n}"));
    assert_eq!(lines.pop(), Some(format!("pong {n}")));
    lines
}

/// The parts of `=== mv/eval/secs`, checked for form.
fn parse_answer(line: &str) -> (String, f64, f64) {
    let answer = line.strip_prefix("=== ").expect("a move answer");
    let parts: Vec<&str> = answer.split('/').collect();
    assert_eq!(parts.len(), 3, "{line}");
    assert!(
        parts[0] == "PA"
            || parts[0]
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()),
        "{line}"
    );
    for number in &parts[1..] {
        assert!(!number.contains(['e', 'E']), "no exponent: {line}");
        let decimals = number.split('.').nth(1).expect("decimals");
        assert_eq!(decimals.len(), 2, "two decimals: {line}");
    }
    (
        parts[0].to_string(),
        parts[1].parse().unwrap(),
        parts[2].parse().unwrap(),
    )
}

/// Sends `go` and returns the answered move, checking what comes with it.
fn go(e: &mut Orca) -> (String, Vec<String>) {
    e.send("go");
    let lines = e.until("===");
    let (mv, _, _) = parse_answer(lines.last().unwrap());
    let (_, stats) = e.wait_for("nodestats ");
    let parts: Vec<&str> = stats.split_whitespace().collect();
    assert_eq!(parts.len(), 3, "{stats}");
    assert!(
        parts[1].parse::<u64>().is_ok() && parts[2].parse::<f64>().is_ok(),
        "{stats}"
    );
    (mv, lines)
}

/// One `search <pv> <eval> 0 <depth>` line: first move, eval, depth.
fn parse_search(line: &str) -> (String, f64, String) {
    let parts: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(parts.len(), 5, "{line}");
    assert_eq!(parts[0], "search");
    assert_eq!(parts[3], "0", "{line}");
    let pv = parts[1];
    assert!(
        pv.len().is_multiple_of(2) && pv.chars().all(|c| c.is_ascii_alphanumeric()),
        "{line}"
    );
    assert_eq!(parts[2].split('.').nth(1).map(str::len), Some(2), "{line}");
    // `100%` (exact), `D` (full width) or `D@P%` (selective, as Edax writes it).
    let plain = parts[4].split_once('@').map_or(parts[4], |(d, p)| {
        assert!(
            p.strip_suffix('%').is_some_and(|p| p.parse::<u8>().is_ok()),
            "{line}"
        );
        d
    });
    assert!(parts[4] == "100%" || plain.parse::<u32>().is_ok(), "{line}");
    (
        pv[..2].to_string(),
        parts[2].parse().unwrap(),
        parts[4].to_string(),
    )
}

fn legal(position: &AnyPosition) -> Vec<String> {
    position
        .legal_move_names()
        .into_iter()
        .map(|m| {
            if m == "pass" {
                "PA".into()
            } else {
                m.to_uppercase()
            }
        })
        .collect()
}

#[test]
fn set_depth_names_orca_and_go_does_not_play_the_move() {
    let mut e = nboard();
    e.send("set depth 4");
    assert_eq!(e.recv(), "set myname Orca");
    e.send(&format!("set game {}", record("")));
    assert!(ping(&mut e, 1).is_empty());
    let start = AnyPosition::start(Variant::Othello);
    let (first, lines) = go(&mut e);
    assert!(legal(&start).contains(&first), "{first}");
    assert!(
        lines.iter().any(|l| l.starts_with("status ")),
        "progress as status lines: {lines:?}"
    );
    // Orca did not play it: asked again, it still answers for black.
    assert!(ping(&mut e, 2).is_empty());
    let (again, _) = go(&mut e);
    assert!(legal(&start).contains(&again), "{again}");
    // The GUI sends the move; now white is to move.
    let after = start.play_line([first.as_str()]).unwrap();
    e.send(&format!("move {first}/0.50/1.2"));
    assert!(ping(&mut e, 3).is_empty());
    let (reply, _) = go(&mut e);
    assert!(legal(&after).contains(&reply), "{reply} after {first}");
    e.send("quit");
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
}

#[test]
fn ping_stops_the_search_and_nothing_stale_follows_the_pong() {
    // Without the book, which would answer the opening at once.
    let mut e = Orca::start(&["nboard", "--no-book"]);
    e.send("nboard 2");
    e.send("set depth 60");
    e.recv();
    e.send(&format!("set game {}", record("B[F5]")));
    assert!(ping(&mut e, 1).is_empty());
    e.send("go");
    std::thread::sleep(Duration::from_millis(150));
    let sent = Instant::now();
    let before = ping(&mut e, 2);
    // Depth 60 from the opening never ends by itself; seconds leave a busy
    // machine slack.
    assert!(
        sent.elapsed() < Duration::from_secs(10),
        "the search stops at once"
    );
    assert!(
        before.iter().all(|l| l.starts_with("status ")),
        "{before:?}"
    );
    e.send("hint 3");
    std::thread::sleep(Duration::from_millis(150));
    ping(&mut e, 3);
    // Pings in a row are answered in order, and no answer of the stopped
    // searches comes after them.
    e.send("ping 4");
    e.send("ping 5");
    assert_eq!(e.recv(), "pong 4");
    assert_eq!(e.recv(), "pong 5");
    let after = e.drain(Duration::from_millis(300));
    assert!(after.is_empty(), "{after:?}");
}

#[test]
fn hint_streams_the_best_moves_deeper_and_deeper() {
    let mut e = nboard();
    e.send("set depth 5");
    e.recv();
    e.send(&format!("set game {}", record("B[F5]")));
    ping(&mut e, 1);
    e.send("hint 2");
    let (lines, searches) = hint_searches(&e);
    assert_eq!(
        searches.len(),
        2 * 5,
        "two moves at depths 1 to 5: {lines:?}"
    );
    let position = AnyPosition::start(Variant::Othello)
        .play_line(["f5"])
        .unwrap();
    for (i, pair) in searches.chunks(2).enumerate() {
        assert_ne!(pair[0].0, pair[1].0, "two different moves: {pair:?}");
        assert!(pair[0].1 >= pair[1].1, "best first: {pair:?}");
        for (mv, _, depth) in pair {
            // White moves: lower case.
            assert!(legal(&position).contains(&mv.to_uppercase()), "{mv}");
            assert_eq!(mv, &mv.to_lowercase());
            assert_eq!(depth.split('@').next(), Some((i + 1).to_string().as_str()));
        }
    }
}

#[test]
fn hint_near_the_end_is_exact() {
    let mut e = nboard();
    // Black to move with nine empties: within reach of an exact search.
    let board = "8 ****OOOO****OO*O*****OOO****OOOOO***OO--O****O--OOOOOOO--****--- *";
    e.send("set depth 20");
    e.recv();
    e.send(&format!("set game (;GM[Othello]TY[8]BO[{board}];)"));
    ping(&mut e, 1);
    e.send("hint 3");
    let lines = e.until("nodestats ");
    let last: Vec<(String, f64, String)> = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| parse_search(l))
        .collect();
    let exact: Vec<&(String, f64, String)> = last.iter().filter(|s| s.2 == "100%").collect();
    assert!(exact.len() >= 3, "{lines:?}");
    for (_, eval, _) in exact {
        assert_eq!(eval.fract(), 0.0, "an exact score is whole discs");
    }
}

#[test]
fn go_honours_the_clock_of_the_side_to_move() {
    let mut e = nboard();
    e.send("set depth 60");
    e.recv();
    // Ten minutes each; black has used 597 s, white 1 s. A share of black's
    // 3 s is about 0.1 s (seconds to spare on a busy machine); a share of
    // white's clock would be about 20 s.
    let game = format!(
        "(;GM[Othello]TI[10:00]TY[8]BO[{START_BOARD}]B[F5//300]W[F6//0.5]B[E6//297]W[F4//0.5];)"
    );
    e.send(&format!("set game {game}"));
    ping(&mut e, 1);
    let sent = e.send("go");
    let (at, line) = e.wait_for("===");
    parse_answer(&line);
    assert!(
        at.duration_since(sent) < Duration::from_secs(3),
        "black has 3 s left: took {:?}",
        at.duration_since(sent)
    );
}

#[test]
fn reversed_othello_from_the_ggf_type() {
    // Black's only move h8 takes every disc: the best result in Othello, the
    // worst in reversed Othello.
    let board = "8 **************************************************************O- *";
    for (ty, eval) in [("8", "64.00"), ("8a", "-64.00")] {
        let mut e = nboard();
        e.send("set depth 3");
        e.recv();
        e.send(&format!("set game (;GM[Othello]TY[{ty}]BO[{board}];)"));
        ping(&mut e, 1);
        e.send("hint 1");
        let lines = e.until("nodestats ");
        assert_eq!(lines[0], format!("search H8 {eval} 0 100%"), "TY[{ty}]");
    }
}

#[test]
fn bad_input_is_logged_and_ignored() {
    let mut e = Orca::start_logging(&["nboard"]);
    e.send("nboard 2");
    e.send("set depth 3");
    assert_eq!(e.recv(), "set myname Orca");
    e.send("move F5");
    for bad in [
        "fly me to the moon",
        "set depth 0",
        "set depth many",
        "set colour blue",
        "set game (;GM[Othello]BO[8 --- *];)",
        "set game (;GM[Othello]B[A1];)",
        "set game not a record",
        "move Z9",
        "move A1",
        "move F5/x",
        "hint 0",
        "hint",
        "ping",
        "go now",
    ] {
        e.send(bad);
    }
    let mut long = vec![b'x'; 1 << 20];
    long.push(b'\n');
    e.send_bytes(&long);
    e.send_bytes(b"set game \xff\xfe\n");
    assert!(ping(&mut e, 7).is_empty(), "nothing on stdout but the pong");
    let log = e.stderr_lines(16);
    assert!(log.len() >= 16, "every bad line is logged: {log:?}");
    assert!(
        log.iter().any(|l| l.contains("unknown command 'fly'")),
        "{log:?}"
    );
    // Still alive, and the bad lines changed nothing: white is to move after F5.
    let (mv, _) = go(&mut e);
    let position = AnyPosition::start(Variant::Othello)
        .play_line(["f5"])
        .unwrap();
    assert!(legal(&position).contains(&mv), "{mv}");
}

/// Plays a whole game as the GUI does when Orca plays both sides; a side with
/// no move passes with `move PA`, or, when `explicit_passes` is false, not at
/// all (the next move comes for the other side).
fn complete_game(ty: &str, explicit_passes: bool) -> AnyPosition {
    let mut e = nboard();
    e.send("set depth 2");
    e.recv();
    let start = format!("(;GM[Othello]PC[test]TI[5:00]TY[{ty}]BO[{START_BOARD}];)");
    let mut game: GgfGame = start.parse().unwrap();
    e.send(&format!("set game {start}"));
    let mut position = game.position().unwrap();
    let mut n = 0;
    let mut omitted_pass = false;
    while !position.is_over() {
        n += 1;
        if position.must_pass() {
            if explicit_passes {
                e.send("move PA");
            } else {
                omitted_pass = true;
            }
            position = game.play("PA".parse().unwrap()).unwrap();
            continue;
        }
        if omitted_pass {
            // Orca's board still has the passing side to move (a `go` now
            // would rightly answer PA); the GUI's next move, for the other
            // side, must make Orca put the pass in itself.
            omitted_pass = false;
            let mv = legal(&position)[0].clone();
            e.send(&format!("move {mv}"));
            position = game.play(mv.parse().unwrap()).unwrap();
            continue;
        }
        ping(&mut e, n);
        let (mv, lines) = go(&mut e);
        let (_, eval, seconds) = parse_answer(lines.last().unwrap());
        assert!(legal(&position).contains(&mv), "{mv} in {position}");
        let note = format!("{mv}/{eval:.2}/{seconds:.2}");
        e.send(&format!("move {note}"));
        position = game.play(note.parse().unwrap()).unwrap();
    }
    // The record the GUI keeps survives a print/parse round trip, and
    // `set game` with it reaches the same end: no move is left to search.
    let text = game.to_string();
    assert_eq!(text.parse::<GgfGame>().unwrap(), game);
    e.send(&format!("set game {text}"));
    e.send("hint 1");
    assert!(ping(&mut e, 1000).is_empty(), "the game is over: no hint");
    position
}

#[test]
fn complete_games_in_othello_and_reversed_othello() {
    let standard = complete_game("8", true);
    assert_eq!(standard.variant(), Variant::Othello);
    let reversed = complete_game("8a", false);
    assert_eq!(reversed.variant(), Variant::Reversed);
}

#[test]
fn passes_written_or_left_out() {
    let mut e = nboard();
    e.send("set depth 3");
    e.recv();
    // After these moves black has no move; white has.
    let moves = ["e6", "f6", "g6", "g7", "d3", "h6", "h8", "f8"];
    let notes: String = moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                "{}[{}]",
                if i % 2 == 0 { 'B' } else { 'W' },
                m.to_uppercase()
            )
        })
        .collect();
    e.send(&format!("set game {}", record(&notes)));
    ping(&mut e, 1);
    let (mv, _) = go(&mut e);
    assert_eq!(mv, "PA");
    let stuck = AnyPosition::start(Variant::Othello)
        .play_line(moves)
        .unwrap();
    let after_pass = stuck.play_line(["pass"]).unwrap();
    assert_eq!(after_pass.to_move(), Color::White);
    // White's move comes without the pass: Orca puts it in.
    let white = &legal(&after_pass)[0];
    e.send(&format!("move {white}"));
    ping(&mut e, 2);
    let (reply, _) = go(&mut e);
    let position = after_pass.play_line([white.as_str()]).unwrap();
    assert!(legal(&position).contains(&reply), "{reply}");
    // The same with the pass written.
    e.send(&format!("set game {}", record(&notes)));
    e.send("move PA");
    e.send(&format!("move {white}"));
    ping(&mut e, 3);
    let (reply, _) = go(&mut e);
    assert!(legal(&position).contains(&reply), "{reply}");
}

#[test]
fn plain_orca_recognises_nboard() {
    let mut e = Orca::start(&[]);
    e.send("nboard 2");
    e.send("set depth 2");
    assert_eq!(e.recv(), "set myname Orca");
    assert!(ping(&mut e, 1).is_empty());
    let (mv, _) = go(&mut e);
    assert!(legal(&AnyPosition::start(Variant::Othello)).contains(&mv));
}

/// `--selectivity` sets the width of `go` and `hint`: full width at 100
/// (depths without `@`), `D@87%` at 87.
#[test]
fn selectivity_flag_sets_the_width_of_go_and_hint() {
    for (selectivity, mark) in [("100", None), ("87", Some("@87%"))] {
        let mut e = Orca::start(&["nboard", "--no-book", "--selectivity", selectivity]);
        e.send("nboard 2");
        e.send("set depth 6");
        e.recv();
        e.send(&format!("set game {}", record("B[F5]")));
        ping(&mut e, 1);
        let (_, lines) = go(&mut e);
        let depths: Vec<&str> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("status Orca: depth "))
            .map(|rest| rest.split_whitespace().next().unwrap())
            .collect();
        assert_eq!(depths.len(), 6, "{lines:?}");
        for (i, depth) in depths.iter().enumerate() {
            let want = format!("{}{}", i + 1, mark.unwrap_or(""));
            assert_eq!(depth, &want, "--selectivity {selectivity}: {lines:?}");
        }
        ping(&mut e, 2);
        e.send("hint 1");
        let lines = e.until("nodestats ");
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("search "))
            .unwrap();
        let (_, _, depth) = parse_search(last);
        assert_eq!(depth, format!("6{}", mark.unwrap_or("")), "{lines:?}");
        e.send("quit");
        assert_eq!(e.wait_exit(PATIENCE), Some(0));
    }
}

/// One `analysis <moves made> <eval>` line.
fn parse_analysis(line: &str) -> (usize, f64) {
    let parts: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(parts.len(), 3, "{line}");
    assert_eq!(parts[0], "analysis", "{line}");
    assert!(!parts[2].contains(['e', 'E']), "no exponent: {line}");
    assert_eq!(parts[2].split('.').nth(1).map(str::len), Some(2), "{line}");
    (parts[1].parse().unwrap(), parts[2].parse().unwrap())
}

/// `analyze` values every position of the loaded game, the last first,
/// and a `ping` afterwards finds nothing stale.
#[test]
fn analyze_values_every_position_of_the_game() {
    let mut e = nboard();
    e.send("set depth 6");
    e.send(&format!("set game {}", record("B[F5]W[D6]B[C3]W[D3]B[C4]")));
    ping(&mut e, 1);
    e.send("analyze");
    let made: Vec<usize> = (0..6).map(|_| parse_analysis(&e.recv()).0).collect();
    assert_eq!(made, [5, 4, 3, 2, 1, 0]);
    assert!(ping(&mut e, 2).is_empty());
    // A new ping in the middle of an analysis stops it: nothing follows the pong.
    e.send("set depth 20");
    ping(&mut e, 3);
    e.send("analyze");
    let before_pong = ping(&mut e, 4);
    assert!(
        before_pong.iter().all(|l| l.starts_with("analysis ")),
        "{before_pong:?}"
    );
    assert!(e.drain(Duration::from_millis(300)).is_empty());
}

/// Near the end the values are exact, from the side to move: black's h8
/// ends the game 64-0.
#[test]
fn analyze_near_the_end_is_exact() {
    let mut e = nboard();
    e.send("set depth 4");
    let board = format!("8 {}O- *", "*".repeat(62));
    e.send(&format!("set game (;GM[Othello]TY[8]BO[{board}]B[H8];)"));
    ping(&mut e, 1);
    e.send("analyze");
    assert_eq!(parse_analysis(&e.recv()), (1, -64.0));
    assert_eq!(parse_analysis(&e.recv()), (0, 64.0));
}

/// `hint N` is one multi-PV search: each depth from 1 gives N lines of N
/// different legal moves, best first.
#[test]
fn hint_lines_are_the_multipv_of_one_search() {
    let mut e = nboard();
    e.send("set depth 6");
    e.recv();
    e.send(&format!("set game {}", record("B[F5]W[D6]B[C3]")));
    ping(&mut e, 1);
    e.send("hint 3");
    let (lines, searches) = hint_searches(&e);
    assert_eq!(searches.len(), 3 * 6, "{lines:?}");
    let position = AnyPosition::start(Variant::Othello)
        .play_line(["f5", "d6", "c3"])
        .unwrap();
    for (i, group) in searches.chunks(3).enumerate() {
        assert!(
            group
                .iter()
                .all(|s| s.2.split('@').next() == Some(&(i + 1).to_string())),
            "{group:?}"
        );
        assert!(
            group[0].1 >= group[1].1 && group[1].1 >= group[2].1,
            "{group:?}"
        );
        let firsts: Vec<String> = group.iter().map(|s| s.0[..2].to_uppercase()).collect();
        assert!(
            firsts.iter().all(|m| legal(&position).contains(m)),
            "{firsts:?}"
        );
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    }
}

/// The lines of a hint up to its `nodestats`, and its `search` lines parsed.
fn hint_searches(e: &Orca) -> (Vec<String>, Vec<(String, f64, String)>) {
    let lines = e.until("nodestats ");
    let searches = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| parse_search(l))
        .collect();
    (lines, searches)
}

/// The exact value comes whichever limit ends the search: with `set depth 6`
/// a pass position of eight empties is solved (PA/-16, exact), in `go` and
/// in `hint`, as with a deeper setting.
#[test]
fn a_small_depth_still_answers_exactly_near_the_end() {
    let mut e = nboard();
    let board = "8 -O------O*******-***OOO****OOO****O*O**O*******O**OOOOOO**OOOOOO *";
    e.send("set depth 6");
    e.recv();
    e.send(&format!("set game (;GM[Othello]TY[8]BO[{board}];)"));
    ping(&mut e, 1);
    let (mv, lines) = go(&mut e);
    assert_eq!(mv, "PA");
    let (_, eval, _) = parse_answer(lines.last().unwrap());
    assert_eq!(eval, -16.0, "{lines:?}");
    e.send("hint 2");
    let (lines, searches) = hint_searches(&e);
    let last = searches.last().expect("a search line");
    assert_eq!((last.1, last.2.as_str()), (-16.0, "100%"), "{lines:?}");
}

/// Numbers may carry a `+` (and `set contempt` a `-`); a fraction or a
/// negative depth is logged and ignored, the old depth kept.
#[test]
fn numbers_with_a_sign() {
    let mut e = nboard();
    e.send("set depth +3");
    assert_eq!(e.recv(), "set myname Orca");
    e.send("set contempt -50");
    e.send("set depth -4");
    e.send("set depth 1.5");
    assert_eq!(ping(&mut e, 1), Vec::<String>::new());
    e.send(&format!("set game {}", record("")));
    e.send("hint +2");
    let (lines, searches) = hint_searches(&e);
    assert!(!searches.is_empty(), "{lines:?}");
    // Depth 3 still: the two bad depths changed nothing.
    assert!(
        searches.iter().all(|s| s.2.starts_with(['1', '2', '3'])),
        "{lines:?}"
    );
    let last = &searches[searches.len() - 2..];
    assert!(last.iter().all(|s| s.2.starts_with('3')), "{lines:?}");
}
