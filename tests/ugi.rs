//! The UGI engine process, driven over pipes as GUIs and referees drive it.

mod common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::{Orca, PATIENCE};
use orca::game::{AnyPosition, Variant};

const START: &str = "---------------------------OX------XO--------------------------- X";

fn error_only(engine: &mut Orca, bad: &str) -> String {
    engine.send(bad);
    let lines = engine.sync();
    assert_eq!(
        lines.len(),
        1,
        "{bad:?} should give one line, got {lines:?}"
    );
    assert!(
        lines[0].starts_with("info string error: "),
        "{bad:?}: {lines:?}"
    );
    lines[0].clone()
}

fn position_string(engine: &mut Orca) -> String {
    engine.send("d");
    let lines = engine.until("Legal moves: ");
    let line = lines.iter().find(|l| l.starts_with("Position: ")).unwrap();
    line["Position: ".len()..].to_string()
}

#[test]
fn handshake() {
    let mut e = Orca::ugi();
    e.send("ugi");
    let lines = e.until("ugiok");
    assert!(lines[0].starts_with("id name Orca"));
    assert!(lines[1].starts_with("id author"));
    for option in ["Variant", "Hash", "Threads", "MoveOverhead", "Selectivity"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option} in {lines:?}"
        );
    }
    assert!(
        lines.iter().any(
            |l| l.contains("type combo default othello var othello var reversed var tictactoe")
        )
    );
    assert_eq!(e.sync(), Vec::<String>::new());
    e.send("quit");
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
}

#[test]
fn position_and_go_depth() {
    let mut e = Orca::ugi();
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves f5 d6");
    e.send("go depth 6");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 6, "{lines:?}");
    let last = infos.last().unwrap();
    for field in ["seldepth", "score disc", "nodes", "nps", "time", "pv"] {
        assert!(last.contains(field), "{last}");
    }
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let position = AnyPosition::start(Variant::Othello)
        .play_line(["f5", "d6"])
        .unwrap();
    assert!(position.legal_move_names().contains(&best), "{best}");
    // The pv starts with the best move.
    assert!(last.contains(&format!(" pv {best}")), "{last}");
}

#[test]
fn same_depth_same_nodes_after_new_game() {
    let mut e = Orca::ugi();
    e.send("setoption name OwnBook value false");
    let mut nodes = Vec::new();
    for _ in 0..2 {
        e.send("uginewgame");
        e.send("position startpos moves f5 f6 e6");
        e.send("go depth 9");
        let lines = e.until("bestmove");
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        let n: Vec<&str> = last.split_whitespace().collect();
        let i = n.iter().position(|&t| t == "nodes").unwrap();
        nodes.push(n[i + 1].to_string());
    }
    assert_eq!(nodes[0], nodes[1]);
}

/// The last `info depth` line of a `go`, and its node count.
fn last_info(engine: &mut Orca, go: &str) -> (String, u64) {
    engine.send(go);
    let lines = engine.until("bestmove");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap()
        .clone();
    let nodes = word_after(&last, "nodes").parse().unwrap();
    (last, nodes)
}

/// `Selectivity` sets the width of the search: `go depth N` is depth N at
/// that selectivity, full width at 100; a bad value keeps the old one.
#[test]
fn selectivity_option_sets_the_search_width() {
    let mut e = Orca::ugi();
    e.send("ugi");
    let lines = e.until("ugiok");
    assert!(
        lines.contains(
            &"option name Selectivity type combo default 73 var 73 var 87 var 95 var 99 var 100"
                .to_string()
        ),
        "{lines:?}"
    );
    e.send("setoption name OwnBook value false");
    let position = "position startpos moves f5 d6 c3 d3 c4 f4";
    let search = |e: &mut Orca| {
        e.send("uginewgame");
        e.send(position);
        last_info(e, "go depth 8")
    };
    let (selective, selective_nodes) = search(&mut e);
    assert!(selective.starts_with("info depth 8 "), "{selective}");
    assert!(selective.contains(" selectivity 73 "), "{selective}");

    e.send("setoption name Selectivity value 100");
    assert_eq!(e.sync(), Vec::<String>::new());
    let (full, full_nodes) = search(&mut e);
    assert!(full.starts_with("info depth 8 "), "{full}");
    assert!(
        !full.contains("selectivity") && !full.contains("exact"),
        "{full}"
    );
    assert!(
        full_nodes > selective_nodes,
        "full width {full_nodes} nodes, selective {selective_nodes}"
    );

    e.send("setoption name selectivity value 87");
    for bad in ["80", "0", "101", "+87", "73%", "lots", "87 95"] {
        let line = error_only(&mut e, &format!("setoption name Selectivity value {bad}"));
        assert_eq!(
            line,
            format!(
                "info string error: setoption: bad value '{bad}' for Selectivity (expected one of 73, 87, 95, 99, 100)"
            )
        );
    }
    let (kept, _) = search(&mut e);
    assert!(kept.contains(" selectivity 87 "), "{kept}");
}

#[test]
fn infinite_then_stop_gives_exactly_one_bestmove() {
    let mut e = Orca::ugi();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    // isready is answered in the middle of the search without stopping it.
    let before = e.sync();
    no_bestmove(&before);
    let stopped = e.send("stop");
    let (at, _) = e.wait_for("bestmove");
    // An infinite search ends only on stop; seconds leave a busy machine slack.
    assert!(at.duration_since(stopped) < Duration::from_secs(10));
    let after = e.drain(Duration::from_millis(300));
    no_bestmove(&after);
    // A tic-tac-toe position solved at once still waits for stop.
    e.send("setoption name Variant value tictactoe");
    e.send("go infinite");
    no_bestmove(&e.drain(Duration::from_millis(300)));
    e.send("stop");
    e.wait_for("bestmove");
}

#[test]
fn go_during_a_search_is_refused_and_the_search_goes_on() {
    let mut e = Orca::ugi();
    e.send("go infinite");
    e.send("go depth 3");
    let (_, line) = e.wait_for("info string error: go:");
    assert!(line.contains("running"), "{line}");
    e.send("stop");
    e.wait_for("bestmove");
    no_bestmove(&e.drain(Duration::from_millis(300)));
}

#[test]
fn movetime_is_respected() {
    let mut e = Orca::ugi();
    e.send("setoption name OwnBook value false");
    for moves in ["", " moves f5 d6 c3 d3 c4"] {
        e.send(&format!("position startpos{moves}"));
        // Taken before the write, so that a late return of `send` on a busy
        // machine cannot shorten the time measured.
        let sent = Instant::now();
        e.send("go movetime 100");
        let (at, _) = e.wait_for("bestmove");
        let took = at.duration_since(sent);
        // Precision is `orca bench timing`'s job: a busy machine delays the
        // answer by any amount, so the bound above only says the search ends.
        assert!(took < Duration::from_millis(100 + 5000), "{took:?}");
        assert!(
            took >= Duration::from_millis(40),
            "searches about the whole movetime: {took:?}"
        );
    }
}

#[test]
fn clock_search_stays_within_the_clock() {
    let mut e = Orca::ugi();
    e.send("position startpos moves f5 d6 c3");
    // White to move with 3 s on its clock: a share of it is about 0.1 s, so
    // seconds are left for a busy machine's delays. Black's clock of almost
    // three hours would give a share of minutes.
    let sent = e.send("go p1time 10000000 p2time 3000 p1inc 0 p2inc 0");
    let (at, _) = e.wait_for("bestmove");
    assert!(at.duration_since(sent) < Duration::from_secs(3));
    // UCI aliases: wtime is white's clock.
    let sent = e.send("go btime 10000000 wtime 3000");
    let (at, _) = e.wait_for("bestmove");
    assert!(at.duration_since(sent) < Duration::from_secs(3));
}

#[test]
fn queries_in_every_variant() {
    let mut e = Orca::ugi();
    // Othello: start, mid-game, a position needing a pass, a finished game.
    assert_eq!(e.query("p1turn"), "true");
    assert_eq!(e.query("gameover"), "false");
    assert_eq!(e.query("result"), "none");
    e.send("position startpos moves f5");
    assert_eq!(e.query("p1turn"), "false");
    let pass = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X";
    e.send(&format!("position fen {pass}"));
    assert_eq!(e.query("p1turn"), "true");
    assert_eq!(e.query("gameover"), "false");
    assert_eq!(e.best_move("go movetime 50"), "pass");
    e.send(&format!("position fen {pass} moves pass h8"));
    assert_eq!(e.query("gameover"), "true");
    assert_eq!(e.query("result"), "p1win");
    // The forced pass may be left out of the move list.
    e.send(&format!("position fen {pass} moves h8"));
    assert_eq!(e.query("result"), "p1win");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove none");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("game over"))
    );

    // Reversed: the same finished game is a win for white (fewer discs).
    e.send("setoption name Variant value reversed");
    assert_eq!(e.query("result"), "none");
    e.send(&format!("position fen {pass} moves h8"));
    assert_eq!(e.query("gameover"), "true");
    assert_eq!(e.query("result"), "p2win");
    e.send("position startpos moves f5 d6");
    assert_eq!(e.query("p1turn"), "true");

    // Tic-tac-toe.
    e.send("setoption name Variant value tictactoe");
    assert_eq!(e.query("p1turn"), "true");
    e.send("position startpos moves a1 b1 a2 b2 a3");
    assert_eq!(e.query("gameover"), "true");
    assert_eq!(e.query("result"), "p1win");
    e.send("position startpos moves a1 b2 c3 b1 b3 a3 c1 c2 a2");
    assert_eq!(e.query("result"), "draw");
    e.send("position fen XO-XO---- X");
    assert_eq!(e.query("gameover"), "false");
    assert_eq!(e.best_move("go depth 9"), "a3");
}

#[test]
fn bad_input_is_answered_and_changes_nothing() {
    let mut e = Orca::ugi();
    e.send("position startpos moves f5 d6");
    let before = position_string(&mut e);

    assert_eq!(
        error_only(&mut e, "fly me to the moon"),
        "info string error: unknown command 'fly'"
    );
    error_only(&mut e, "position fen XO X");
    error_only(&mut e, &format!("position fen {START} Z"));
    error_only(&mut e, "position fen ----");
    error_only(&mut e, "position");
    error_only(&mut e, "position startpos moves f5 zz");
    let illegal = error_only(&mut e, "position startpos moves f5 d6 c3 d3 a1");
    assert_eq!(
        illegal,
        "info string error: illegal move a1 at ply 5; position unchanged"
    );
    error_only(&mut e, "go movetime -5");
    error_only(&mut e, "go depth abc");
    error_only(&mut e, "go nodes");
    error_only(&mut e, "setoption name Colour value red");
    error_only(&mut e, "setoption name Hash value lots");
    error_only(&mut e, "setoption name Hash value 0");
    error_only(&mut e, "setoption name Threads value 0");
    error_only(&mut e, "setoption name Threads value 257");
    error_only(&mut e, "setoption name Variant value chess");
    error_only(&mut e, "setoption name MoveOverhead value -1");
    error_only(&mut e, "setoption name Selectivity value 50");
    error_only(&mut e, "query");
    error_only(&mut e, "perft 0");

    // Silence: empty lines, blank lines, stop when idle.
    e.send("");
    e.send("   \t  ");
    e.send("stop");
    assert_eq!(e.sync(), Vec::<String>::new());

    // Extra spaces and \r\n are fine.
    e.send_bytes(b"  position   startpos  moves  f5   d6 \r\n");
    assert_eq!(e.sync(), Vec::<String>::new());

    // A 1 MB line and invalid UTF-8.
    let mut long = vec![b'x'; 1 << 20];
    long.push(b'\n');
    e.send_bytes(&long);
    let lines = e.sync();
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with("info string error: line too long"),
        "{lines:?}"
    );
    e.send_bytes(b"go \xff\xfe\n");
    let lines = e.sync();
    assert_eq!(
        lines,
        ["info string error: line is not valid UTF-8; ignored"]
    );

    assert_eq!(position_string(&mut e), before);
    assert_eq!(e.query("p1turn"), "true");
    // Still alive and searching.
    let best = e.best_move("go depth 2");
    assert!(!best.is_empty());
}

#[test]
fn eof_in_the_middle_of_a_search_answers_and_exits() {
    let mut e = Orca::ugi();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.close_stdin();
    e.wait_for("bestmove");
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
}

#[test]
fn quit_in_the_middle_of_a_search_answers_and_exits() {
    let mut e = Orca::ugi();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit");
    e.wait_for("bestmove");
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
}

/// Threads takes 1 to 256; a bad value is one error line and changes nothing.
#[test]
fn threads_option_range() {
    let mut e = Orca::ugi();
    e.send("ugi");
    let lines = e.until("ugiok");
    assert!(
        lines.contains(&"option name Threads type spin default 1 min 1 max 256".to_string()),
        "{lines:?}"
    );
    for good in ["1", "2", "256"] {
        e.send(&format!("setoption name Threads value {good}"));
        assert_eq!(e.sync(), Vec::<String>::new(), "{good}");
    }
    for bad in ["0", "257", "-1", "two"] {
        assert_eq!(
            error_only(&mut e, &format!("setoption name Threads value {bad}")),
            format!(
                "info string error: setoption: bad value '{bad}' for Threads (expected 1 to 256)"
            )
        );
    }
    e.send("setoption name Threads value 2");
    let best = e.best_move("go depth 6");
    assert!(
        AnyPosition::start(Variant::Othello)
            .play_line([best.as_str()])
            .is_ok()
    );
}

/// `stop`, `quit` and end of input during a search of two threads: one
/// bestmove each time, and the engine exits when told to.
#[test]
fn stop_quit_and_eof_end_a_parallel_search() {
    let start = |e: &mut Orca| {
        e.send("setoption name Threads value 2");
        e.send("position startpos moves f5 d6");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
    };
    let mut e = Orca::ugi();
    start(&mut e);
    let before = e.sync();
    no_bestmove(&before);
    e.send("stop");
    e.wait_for("bestmove");
    let after = e.sync();
    no_bestmove(&after);
    // The next search runs as usual.
    assert!(!e.best_move("go depth 4").is_empty());

    let mut e = Orca::ugi();
    start(&mut e);
    e.send("quit");
    e.wait_for("bestmove");
    assert_eq!(e.wait_exit(PATIENCE), Some(0));

    let mut e = Orca::ugi();
    start(&mut e);
    e.close_stdin();
    e.wait_for("bestmove");
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
}

/// FFO #55 (29 empties) as a UGI position: its exact solve takes minutes
/// even on many threads, and its first selective pass ends in seconds.
fn ffo_55() -> String {
    let path = format!("{}/data/obf/fforum-40-59.obf", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let line = text.lines().nth(15).unwrap();
    line.split(';').next().unwrap().trim().to_string()
}

/// `stop`, `quit` and end of input while two threads solve FFO #55 exactly
/// (each is sent once the solver logged its first pass): one bestmove and
/// no exact result each time, and the engine goes on or exits as told (a
/// thread that missed the stop would hold the answer back for minutes).
#[test]
fn stop_quit_and_eof_end_a_parallel_solve() {
    let fen = ffo_55();
    let start = || {
        let mut e = Orca::start_logging_at(&[], "orca::search::endgame=debug");
        e.send("setoption name Threads value 2");
        e.send(&format!("position fen {fen}"));
        e.send("go infinite");
        loop {
            let line = e.stderr_lines(1);
            assert!(!line.is_empty(), "the solve never started");
            if line[0].contains("solve: level 1 ") {
                break;
            }
        }
        e
    };
    let no_exact = |lines: &[String]| {
        assert!(lines.iter().all(|l| !l.contains(" exact")), "{lines:?}");
    };
    let mut e = start();
    e.send("stop");
    let lines = e.until("bestmove");
    no_exact(&lines);
    let after = e.sync();
    no_bestmove(&after);
    // The next search runs as usual.
    assert!(!e.best_move("go depth 4").is_empty());

    let mut e = start();
    e.send("quit");
    no_exact(&e.until("bestmove"));
    assert_eq!(e.wait_exit(PATIENCE), Some(0));

    let mut e = start();
    e.close_stdin();
    no_exact(&e.until("bestmove"));
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
}

/// A whole game with `Threads threads`, on a move time and at a depth in
/// turn (the last 14 empties solved exactly by all threads): one legal
/// bestmove per go, nothing after it.
fn game_with_threads(threads: usize) {
    let mut e = Orca::ugi();
    e.send(&format!("setoption name Threads value {threads}"));
    let mut moves: Vec<String> = Vec::new();
    let mut position = AnyPosition::start(Variant::Othello);
    while !position.is_over() {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let go = if moves.len().is_multiple_of(2) {
            "go movetime 30"
        } else {
            "go depth 7"
        };
        let best = e.best_move(go);
        position = position
            .play_line([best.as_str()])
            .unwrap_or_else(|err| panic!("{best} after {moves:?}: {err}"));
        moves.push(best);
        let after = e.sync();
        no_bestmove(&after);
    }
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    assert_eq!(e.query("gameover"), "true");
}

#[test]
fn a_game_with_two_threads() {
    game_with_threads(2);
}

#[test]
fn a_game_with_four_threads() {
    game_with_threads(4);
}

#[test]
fn extensions_d_perft_eval() {
    let mut e = Orca::ugi();
    e.send("d");
    let lines = e.until("Legal moves:");
    assert_eq!(lines.last().unwrap(), "Legal moves: d3 c4 f5 e6");
    assert!(lines.iter().any(|l| l == &format!("Position: {START}")));
    e.send("perft 6");
    let lines = e.until("info string perft total");
    assert!(
        lines.contains(&"info string perft depth 6 leaves 8200".to_string())
            || lines
                .iter()
                .any(|l| l.starts_with("info string perft depth 6 leaves 8200 "))
    );
    e.send("eval");
    let (_, line) = e.wait_for("info string eval");
    assert!(line.contains("discs for X"), "{line}");
}

/// Plays a whole game through the protocol, the way the generic referee does:
/// the full move list every ply, and the engine's answer appended verbatim.
fn self_play(variant: &str, go: &str) -> AnyPosition {
    let mut e = Orca::ugi();
    e.send(&format!("setoption name Variant value {variant}"));
    e.send("uginewgame");
    let variant: Variant = variant.parse().unwrap();
    let mut moves: Vec<String> = Vec::new();
    let mut position = AnyPosition::start(variant);
    loop {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let over = e.query("gameover") == "true";
        assert_eq!(over, position.is_over());
        if over {
            break;
        }
        let turn = e.query("p1turn") == "true";
        assert_eq!(turn, position.to_move() == orca::game::Color::Black);
        let best = e.best_move(go);
        position = position
            .play_line([best.as_str()])
            .expect("engine moves are legal");
        moves.push(best);
    }
    let expected = match position.result() {
        Some(orca::game::position::Outcome::Win(orca::game::Color::Black)) => "p1win",
        Some(orca::game::position::Outcome::Win(orca::game::Color::White)) => "p2win",
        Some(orca::game::position::Outcome::Draw) => "draw",
        None => unreachable!(),
    };
    assert_eq!(e.query("result"), expected);
    position
}

#[test]
fn self_play_games_in_each_variant() {
    assert!(self_play("othello", "go movetime 20").is_over());
    assert!(self_play("reversed", "go movetime 20").is_over());
    // Perfect play in tic-tac-toe is a draw.
    let t = self_play("tictactoe", "go depth 9");
    assert_eq!(t.result(), Some(orca::game::position::Outcome::Draw));
}

/// Orca plays `orca_side` against every possible sequence of opponent moves.
fn never_loses(
    e: &mut Orca,
    line: &mut Vec<String>,
    orca_is_x: bool,
    memo: &mut HashMap<String, String>,
) -> usize {
    let position = AnyPosition::start(Variant::TicTacToe)
        .play_line(line.iter().map(String::as_str))
        .unwrap();
    if position.is_over() {
        let result = position.result().unwrap();
        let orca = if orca_is_x {
            orca::game::Color::Black
        } else {
            orca::game::Color::White
        };
        assert_ne!(
            result,
            orca::game::position::Outcome::Win(orca.opposite()),
            "Orca lost after {line:?}"
        );
        return 1;
    }
    let orca_to_move = (position.to_move() == orca::game::Color::Black) == orca_is_x;
    if orca_to_move {
        let key = line.join(" ");
        let best = memo.entry(key.clone()).or_insert_with(|| {
            e.send(&format!("position startpos moves {key}"));
            e.best_move("go depth 9")
        });
        line.push(best.clone());
        let n = never_loses(e, line, orca_is_x, memo);
        line.pop();
        n
    } else {
        let mut games = 0;
        for mv in position.legal_move_names() {
            line.push(mv);
            games += never_loses(e, line, orca_is_x, memo);
            line.pop();
        }
        games
    }
}

#[test]
fn tictactoe_never_loses_against_any_opponent() {
    let mut e = Orca::ugi();
    e.send("setoption name Variant value tictactoe");
    let started = Instant::now();
    let mut memo = HashMap::new();
    let as_x = never_loses(&mut e, &mut Vec::new(), true, &mut memo);
    memo.clear();
    let as_o = never_loses(&mut e, &mut Vec::new(), false, &mut memo);
    assert!(as_x > 0 && as_o > 0);
    eprintln!(
        "tic-tac-toe: {as_x} games as X, {as_o} as O in {:?}",
        started.elapsed()
    );
}

/// One `info multipv` line: depth, k, score and pv.
type PvLine = (u32, usize, i32, Vec<String>);

/// The `info multipv k` lines of each depth of a `go`, in order, grouped by
/// depth.
fn multipv_lines(lines: &[String]) -> Vec<Vec<PvLine>> {
    let mut groups: Vec<Vec<PvLine>> = Vec::new();
    for line in lines.iter().filter(|l| l.starts_with("info multipv ")) {
        let t: Vec<&str> = line.split_whitespace().collect();
        let after = |key: &str| t[t.iter().position(|&w| w == key).unwrap() + 1];
        let depth: u32 = after("depth").parse().unwrap();
        let k: usize = after("multipv").parse().unwrap();
        let score: i32 = after("disc").parse().unwrap();
        let pv_at = t.iter().position(|&w| w == "pv").unwrap();
        let pv = t[pv_at + 1..].iter().map(|w| w.to_string()).collect();
        if k == 1 {
            groups.push(Vec::new());
        }
        groups
            .last_mut()
            .unwrap_or_else(|| panic!("multipv {k} before multipv 1: {line}"))
            .push((depth, k, score, pv));
    }
    groups
}

/// `MultiPV N` reports the N best moves at each depth, numbered 1 to N,
/// best first, each a different legal move; `bestmove` is the first. A
/// bad value is one error line and keeps the old one; `MultiPV 1` is the
/// plain search again.
#[test]
fn multipv_reports_the_best_lines_in_order() {
    let mut e = Orca::ugi();
    // Searched, not answered from the opening book.
    e.send("setoption name OwnBook value false");
    let position = AnyPosition::start(Variant::Othello)
        .play_line(["f5", "d6", "c3", "d3", "c4"])
        .unwrap();
    let legal = position.legal_move_names();
    assert!(legal.len() > 3);
    e.send("position startpos moves f5 d6 c3 d3 c4");
    e.send("setoption name MultiPV value 3");
    error_only(&mut e, "setoption name MultiPV value 0");
    error_only(&mut e, "setoption name MultiPV value many");
    e.send("go depth 6");
    let lines = e.until("bestmove");
    let groups = multipv_lines(&lines);
    assert_eq!(groups.len(), 6, "{lines:?}");
    for (d, group) in groups.iter().enumerate() {
        let ks: Vec<usize> = group.iter().map(|l| l.1).collect();
        assert_eq!(ks, [1, 2, 3], "{group:?}");
        assert!(group.iter().all(|l| l.0 == d as u32 + 1), "{group:?}");
        assert!(group.windows(2).all(|w| w[0].2 >= w[1].2), "{group:?}");
        let firsts: Vec<&String> = group.iter().map(|l| &l.3[0]).collect();
        assert!(firsts.iter().all(|m| legal.contains(m)), "{firsts:?}");
        assert!(
            firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
            "{firsts:?}"
        );
    }
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert_eq!(best, groups.last().unwrap()[0].3[0]);
    // More lines than moves: every move once.
    e.send("setoption name MultiPV value 64");
    e.send("go depth 3");
    let groups = multipv_lines(&e.until("bestmove"));
    assert!(groups.iter().all(|g| g.len() == legal.len()), "{groups:?}");
    // Back to one line: the plain search, its plain info lines.
    e.send("setoption name MultiPV value 1");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    assert!(multipv_lines(&lines).is_empty(), "{lines:?}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("info depth "))
            .count(),
        4
    );
}

/// `go searchmoves` chooses among the moves given only: with the best
/// move left out, another is played; a word that is no legal move is one
/// error line and is left out.
#[test]
fn searchmoves_restricts_the_root() {
    let mut e = Orca::ugi();
    let moves = "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7";
    let position = AnyPosition::start(Variant::Othello)
        .play_line(moves.split(' '))
        .unwrap();
    e.send(&format!("position startpos moves {moves}"));
    let free = e.best_move("go depth 6");
    let others: Vec<String> = position
        .legal_move_names()
        .into_iter()
        .filter(|m| *m != free)
        .collect();
    e.send(&format!("go depth 6 searchmoves {} zz", others.join(" ")));
    let lines = e.until("bestmove");
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(errors[0].contains("'zz'"), "{errors:?}");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(
        others.contains(&best.to_string()),
        "{best} not in {others:?}"
    );
    let groups = multipv_lines(&lines);
    assert_eq!(groups.len(), 6, "{lines:?}");
    assert!(
        groups
            .iter()
            .all(|g| g.len() == 1 && others.contains(&g[0].3[0]))
    );
    // Two moves, two lines asked for: exactly those two.
    e.send("setoption name MultiPV value 3");
    e.send(&format!(
        "go depth 4 searchmoves {} {}",
        others[0], others[1]
    ));
    let groups = multipv_lines(&e.until("bestmove"));
    for group in &groups {
        let mut firsts: Vec<&String> = group.iter().map(|l| &l.3[0]).collect();
        firsts.sort();
        let mut want = vec![&others[0], &others[1]];
        want.sort();
        assert_eq!(firsts, want);
    }
}

/// Each `searchmoves` word that is no legal move gets one error line, and
/// nothing else: with none left every move is searched (not the book: it is
/// analysis), and a legal pass beside a bad word still reports the word.
#[test]
fn searchmoves_errors_are_one_line_a_word() {
    let mut e = Orca::ugi();
    e.send("position startpos");
    e.send("go depth 1 searchmoves zz");
    let lines = e.until("bestmove");
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(errors[0].contains("'zz'"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 1 ")),
        "searched: {lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("book")), "{lines:?}");
    // Black must pass here.
    let fen = "-O------OXXXXXXX-XXXOOOXXXXOOOXXXXOXOXXOXXXXXXXOXXOOOOOOXXOOOOOO X";
    e.send(&format!("position fen {fen}"));
    e.send("go depth 2 searchmoves pass zz");
    let lines = e.until("bestmove");
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(errors[0].contains("'zz'"), "{lines:?}");
    assert!(
        lines.last().unwrap().starts_with("bestmove pass"),
        "{lines:?}"
    );
}

/// Tic-tac-toe's search keeps to `searchmoves` too.
#[test]
fn tictactoe_searchmoves_restricts_the_root() {
    let mut e = Orca::ugi();
    e.send("setoption name Variant value tictactoe");
    e.send("position startpos");
    for mv in ["b2", "c3", "a2"] {
        e.send(&format!("go depth 9 searchmoves {mv}"));
        let lines = e.until("bestmove");
        assert!(
            lines.last().unwrap().starts_with(&format!("bestmove {mv}")),
            "{lines:?}"
        );
        for info in lines.iter().filter(|l| l.starts_with("info depth")) {
            assert!(info.contains(&format!(" pv {mv}")), "{lines:?}");
        }
    }
}

/// The exact solve does not wait for the depth limit to reach the end: at
/// 14 empties `go depth 12` answers with the exact value, as `go depth 14`.
#[test]
fn a_depth_limit_near_the_end_answers_exactly() {
    let fen = "---XXXXX-OOOXXXX-OOXXOXX-OXOXXXX-OXXOXXX--XXOXXX---OOOXX--OOOOOX X";
    let mut e = Orca::ugi();
    e.send(&format!("position fen {fen}"));
    let mut last = Vec::new();
    for depth in [12, 14] {
        e.send(&format!("go depth {depth}"));
        let lines = e.until("bestmove");
        let info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap()
            .clone();
        assert!(info.contains(" exact "), "{lines:?}");
        let score = info
            .split(" score disc ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string();
        last.push(score);
    }
    assert_eq!(last[0], last[1]);
}

/// Near the end, the multi-PV search solves: every line's score is exact
/// and equals the solver's score of the position after that move
/// (searched alone, negated).
#[test]
fn multipv_exact_scores_are_the_solver_scores() {
    // FFO #1: 14 empties, best g8 = +18.
    let fen = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let position = AnyPosition::parse(Variant::Othello, fen).unwrap();
    let legal = position.legal_move_names();
    let mut e = Orca::ugi();
    e.send(&format!("position fen {fen}"));
    e.send("setoption name MultiPV value 64");
    e.send("go depth 60");
    let lines = e.until("bestmove");
    let exact: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info multipv ") && l.contains(" exact "))
        .collect();
    assert_eq!(exact.len(), legal.len(), "{lines:?}");
    let groups = multipv_lines(&lines);
    let last = groups.last().unwrap();
    assert_eq!(last[0].2, 18);
    assert_eq!(last[0].3[0], "g8");
    e.send("setoption name MultiPV value 1");
    for (_, _, score, pv) in last {
        e.send(&format!("position fen {fen} moves {}", pv[0]));
        let (info, _) = last_info(&mut e, "go depth 60");
        assert!(info.contains(" exact "), "{info}");
        let child: i32 = info
            .split_whitespace()
            .skip_while(|&w| w != "disc")
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(*score, -child, "{} : {info}", pv[0]);
    }
}

/// Multi-PV with two threads: the main thread reports, N lines a depth.
#[test]
fn multipv_with_two_threads() {
    let mut e = Orca::ugi();
    e.send("setoption name Threads value 2");
    e.send("setoption name MultiPV value 2");
    e.send("position startpos moves f5 d6 c3");
    e.send("go depth 7");
    let lines = e.until("bestmove");
    let groups = multipv_lines(&lines);
    assert_eq!(groups.len(), 7, "{lines:?}");
    assert!(groups.iter().all(|g| g.len() == 2), "{groups:?}");
    no_bestmove(&e.drain(Duration::from_millis(300)));
}

/// `bestmove X ponder Y`: Y is the second move of the principal variation,
/// legal after X.
#[test]
fn bestmove_names_the_reply_to_ponder_on() {
    let mut e = Orca::ugi();
    // Searched, not answered from the opening book.
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves f5");
    e.send("go depth 5");
    let lines = e.until("bestmove");
    let t: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert_eq!((t.len(), t[2]), (4, "ponder"), "{t:?}");
    let after = AnyPosition::start(Variant::Othello)
        .play_line(["f5", t[1]])
        .unwrap();
    assert!(after.legal_move_names().contains(&t[3].to_string()));
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(info.contains(&format!(" pv {} {}", t[1], t[3])), "{info}");
}

/// Every line that comes within `span` (however busy the stream).
fn lines_for(e: &Orca, span: Duration) -> Vec<String> {
    let end = Instant::now() + span;
    let mut lines = Vec::new();
    while let Some((_, line)) = e.recv_timeout(end.saturating_duration_since(Instant::now())) {
        lines.push(line);
    }
    lines
}

/// `go ponder` searches without a clock and never answers by itself, even
/// past the whole clock or when the search ends; `ponderhit` makes it the
/// real search, answered once on that clock; `stop` answers once.
#[test]
fn ponder_ponderhit_and_stop_give_one_bestmove_each() {
    let mut e = Orca::ugi();
    // Searched, not answered from the opening book.
    e.send("setoption name OwnBook value false");
    error_only(&mut e, "ponderhit");
    error_only(&mut e, "setoption name Ponder value maybe");
    e.send("setoption name Ponder value true");
    e.send("position startpos moves f5 d6");
    // A half-second clock: a search on it would have answered long before
    // the two seconds waited.
    e.send("go ponder btime 500 wtime 500");
    let quiet = lines_for(&e, Duration::from_secs(2));
    no_bestmove(&quiet);
    // Taken before the write: an answer may be read before `send` returns.
    let hit = Instant::now();
    e.send("ponderhit");
    let (at, line) = e.wait_for("bestmove");
    assert!(at > hit);
    assert!(at.duration_since(hit) < Duration::from_secs(10), "{line}");
    no_bestmove(&e.drain(Duration::from_millis(500)));
    // After the answer there is nothing to ponder on.
    error_only(&mut e, "ponderhit");

    // A ponder search that ends by itself (a depth limit) still waits.
    e.send("go ponder depth 3");
    let quiet = lines_for(&e, Duration::from_secs(1));
    no_bestmove(&quiet);
    e.send("stop");
    e.wait_for("bestmove");
    no_bestmove(&e.drain(Duration::from_millis(500)));
    error_only(&mut e, "ponderhit");

    // Stop in the middle of pondering: one answer, a legal move.
    e.send("go ponder btime 60000 wtime 60000");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let (_, line) = e.wait_for("bestmove");
    let best = line.split_whitespace().nth(1).unwrap().to_string();
    let position = AnyPosition::start(Variant::Othello)
        .play_line(["f5", "d6"])
        .unwrap();
    assert!(position.legal_move_names().contains(&best), "{line}");
    no_bestmove(&e.drain(Duration::from_millis(500)));
}

/// After `ponderhit` the search keeps the clock it was given, counted from
/// the `ponderhit`: a move time of 3 s, the `ponderhit` 4 s after the
/// `go`, and no answer comes in the second after it (counted from the
/// `go`, the time would be up at once); the answer then comes by itself.
/// With a long move time, `stop` after `ponderhit` ends it with one answer.
#[test]
fn ponderhit_then_the_clock_applies_and_stop_ends_it() {
    let mut e = Orca::ugi();
    // Searched, not answered from the opening book.
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves f5 d6 c3");
    e.send("go ponder movetime 3000");
    std::thread::sleep(Duration::from_secs(4));
    e.send("ponderhit");
    let quiet = lines_for(&e, Duration::from_secs(1));
    no_bestmove(&quiet);
    e.wait_for("bestmove");
    no_bestmove(&e.drain(Duration::from_millis(500)));
    e.send("go ponder movetime 60000");
    std::thread::sleep(Duration::from_millis(200));
    e.send("ponderhit");
    let quiet = lines_for(&e, Duration::from_secs(1));
    no_bestmove(&quiet);
    e.send("stop");
    e.wait_for("bestmove");
    no_bestmove(&e.drain(Duration::from_millis(500)));
}

/// `Level` below 20 plays varied moves, all legal, and a bad value keeps
/// the old level; at 20 (full strength) the same search gives the same
/// move every time.
#[test]
fn level_option_varies_the_moves_and_20_is_full_strength() {
    let mut e = Orca::ugi();
    let moves = "f5 d6 c3 d3 c4 f4";
    let position = AnyPosition::start(Variant::Othello)
        .play_line(moves.split(' '))
        .unwrap();
    let played = |e: &mut Orca| {
        (0..16)
            .map(|_| {
                e.send("uginewgame");
                e.send(&format!("position startpos moves {moves}"));
                e.best_move("go depth 4")
            })
            .collect::<std::collections::BTreeSet<String>>()
    };
    let full = played(&mut e);
    assert_eq!(full.len(), 1, "{full:?}");
    e.send("setoption name Level value 1");
    error_only(&mut e, "setoption name Level value 0");
    error_only(&mut e, "setoption name Level value 21");
    let weak = played(&mut e);
    assert!(weak.len() >= 2, "level 1 always played {weak:?}");
    let legal = position.legal_move_names();
    assert!(weak.iter().all(|m| legal.contains(m)), "{weak:?}");
    e.send("setoption name Level value 20");
    assert_eq!(played(&mut e), full);
}

/// A `Level` keeps the `Selectivity` set: full width stays full width.
#[test]
fn level_keeps_the_selectivity() {
    let mut e = Orca::ugi();
    e.send("setoption name Selectivity value 100");
    e.send("setoption name Level value 5");
    e.send("position startpos moves f5 d6 c3 d3 c4 f4");
    e.send("go depth 5");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info multipv"))
        .collect();
    assert!(!infos.is_empty(), "{lines:?}");
    assert!(
        infos.iter().all(|l| !l.contains("selectivity")),
        "{lines:?}"
    );
    e.send("setoption name Selectivity value 73");
    e.send("go depth 5");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains(" selectivity 73 ")),
        "{lines:?}"
    );
}

/// Asserts that none of `lines` is a `bestmove`.
#[track_caller]
fn no_bestmove(lines: &[String]) {
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
}

/// The readings protocol.md states where UCI leaves room: the characters of
/// a position string and the case of its side, option values' case and
/// leading zeros, variant aliases, `BookFile` with no value, tic-tac-toe's
/// `exact`, and the range of `go` numbers.
#[test]
fn readings_the_protocol_document_states() {
    let mut e = Orca::ugi();
    let position_line = |e: &mut Orca| {
        e.send("d");
        let lines = e.sync();
        lines
            .iter()
            .find_map(|l| l.strip_prefix("Position: "))
            .unwrap_or_else(|| panic!("{lines:?}"))
            .to_string()
    };
    // Every spelling of the start position.
    let start = "---------------------------OX------XO--------------------------- X";
    let odd = format!(
        "{}0x{}bW{} BLACK",
        ".".repeat(27),
        "_".repeat(6),
        "-".repeat(27)
    );
    e.send(&format!("position fen {odd}"));
    assert_eq!(position_line(&mut e), start);
    let white = "---------------------------ox------xo--------------------------- w";
    e.send(&format!("position fen {white}"));
    assert!(position_line(&mut e).ends_with(" O"));
    let bad = error_only(
        &mut e,
        &format!("position fen {}Y{} X", "-".repeat(27), "-".repeat(36)),
    );
    assert!(bad.contains("'Y'"), "{bad}");
    // Option values in any case, numbers with leading zeros.
    for good in [
        "setoption name OwnBook value FALSE",
        "setoption name ponder value True",
        "setoption name Selectivity value 073",
        "setoption name Hash value 0064",
    ] {
        e.send(good);
        assert_eq!(e.sync(), Vec::<String>::new(), "{good}");
    }
    error_only(&mut e, "setoption name MultiPV value 00");
    // The variant aliases, any case.
    for (alias, name) in [
        ("Reversi", "othello"),
        ("STANDARD", "othello"),
        ("AntiReversi", "reversed"),
        ("reversed-othello", "reversed"),
        ("anti", "reversed"),
        ("Tic-Tac-Toe", "tictactoe"),
        ("ttt", "tictactoe"),
    ] {
        e.send(&format!("setoption name Variant value {alias}"));
        e.send("d");
        let lines = e.sync();
        assert!(
            lines.contains(&format!("Variant: {name}")),
            "{alias}: {lines:?}"
        );
    }
    // Tic-tac-toe's last iteration reaches the end: `exact`.
    e.send("position startpos");
    e.send("go depth 9");
    let lines = e.until("bestmove");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last.contains(" exact "), "{lines:?}");
    // `BookFile` with no value: the built-in books again.
    e.send("setoption name Variant value othello");
    e.send("setoption name OwnBook value true");
    e.send("setoption name BookFile");
    assert_eq!(e.sync(), Vec::<String>::new());
    e.send("position startpos");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert!(lines[0].starts_with("info string book "), "{lines:?}");
    // `go` numbers: times and nodes up to 2^64 - 1, depth and movestogo up
    // to 2^32 - 1 (a depth past the end searches to the end).
    error_only(&mut e, "go depth 4294967296");
    error_only(&mut e, "go movetime 18446744073709551616");
    let near_end = "---XXXXX-OOOXXXX-OOXXOXX-OXOXXXX-OXXOXXX--XXOXXX---OOOXX--OOOOOX X";
    e.send(&format!("position fen {near_end}"));
    e.send("go depth 4294967295 movetime 18446744073709551615 nodes 18446744073709551615");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.contains(" exact ")), "{lines:?}");
}

/// A `go` (or `setoption`, `uginewgame`, `perft`) sent right after `stop`
/// waits for the stopped search's `bestmove` and is then served: 10,000
/// `go infinite`/`stop` pairs written at once give 10,000 `bestmove`s and
/// no error (before, 18 of them, and 9,982 refusals).
#[test]
fn a_go_after_stop_is_never_lost() {
    let mut e = Orca::ugi();
    let pairs = 10_000;
    e.send_bytes("go infinite\nstop\n".repeat(pairs).as_bytes());
    // `readyok` is written at once even while the last search ends, so its
    // `bestmove` may come after it.
    let mut lines = e.sync();
    let mut answers = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    while answers < pairs {
        lines.extend(e.until("bestmove"));
        answers += 1;
    }
    lines.extend(e.drain(Duration::from_millis(300)));
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert!(errors.is_empty(), "{:?}", &errors[..errors.len().min(5)]);
    let answers = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(answers, pairs);
}

/// The ponder miss a GUI sends (`go ponder`, `stop`, `position`, `go` with
/// the clock) gets both answers, in order: the ponder search's for its
/// position, then the real one's for the new position. Options, a new game
/// and perft right after `stop` are taken the same way.
#[test]
fn a_ponder_miss_gets_its_real_bestmove() {
    let mut e = Orca::ugi();
    e.send("setoption name OwnBook value false");
    let after_f5 = AnyPosition::start(Variant::Othello)
        .play_line(["f5"])
        .unwrap();
    let after_f5_d6 = after_f5.play_line(["d6"]).unwrap();
    for _ in 0..20 {
        e.send_bytes(
            b"position startpos moves f5\ngo ponder p1time 5000 p2time 5000\nstop\n\
              position startpos moves f5 d6\ngo p1time 5000 p2time 5000 depth 3\n",
        );
        let first = e.wait_for("bestmove").1;
        let second = e.wait_for("bestmove").1;
        let mv = |line: &str| line.split_whitespace().nth(1).unwrap().to_string();
        assert!(after_f5.legal_move_names().contains(&mv(&first)), "{first}");
        assert!(
            after_f5_d6.legal_move_names().contains(&mv(&second)),
            "{second}"
        );
    }
    e.send_bytes(b"go infinite\nstop\nsetoption name MultiPV value 2\ngo depth 3\n");
    let lines = e.until("bestmove");
    let lines = [lines, e.until("bestmove")].concat();
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info multipv 2 ")),
        "{lines:?}"
    );
    e.send_bytes(
        b"go infinite\nstop\nsetoption name Hash value 2\nuginewgame\ngo infinite\nstop\nperft 2\n",
    );
    let lines = [
        e.until("bestmove"),
        e.until("bestmove"),
        e.until("info string perft total"),
    ]
    .concat();
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    assert!(lines.last().unwrap().ends_with("total 16"), "{lines:?}");
}

/// The word after `key` in an `info` line (`depth`, `disc`, `pv`...).
#[track_caller]
fn word_after<'a>(line: &'a str, key: &str) -> &'a str {
    let mut words = line.split_whitespace();
    words
        .by_ref()
        .find(|w| *w == key)
        .unwrap_or_else(|| panic!("no {key:?} in {line:?}"));
    words
        .next()
        .unwrap_or_else(|| panic!("nothing after {key:?} in {line:?}"))
}

/// The depth of the last `info depth` line of `lines`.
fn last_depth(lines: &[String]) -> u32 {
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info: {lines:?}"));
    word_after(last, "depth").parse().unwrap()
}

/// A new game costs its first move nothing, whatever the table's size:
/// with a 1 GB table, `uginewgame` then `go movetime 50` still searches
/// the move (before, the table was cleared, and first faulted in, inside
/// the move's time: 3.8 s for the first answer and depth 1 for the next).
/// Nothing here depends on how fast the machine is but that 40 ms of a
/// busy core reach depth 4.
#[test]
fn a_new_game_costs_its_first_move_nothing() {
    let mut e = Orca::ugi();
    e.send("setoption name OwnBook value false");
    e.send("setoption name Hash value 1024");
    assert_eq!(e.sync(), Vec::<String>::new());
    for _ in 0..3 {
        e.send("uginewgame");
        e.send("position startpos moves f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c6");
        let sent = Instant::now();
        e.send("go movetime 50");
        let lines = e.until("bestmove");
        let took = sent.elapsed();
        let depth = last_depth(&lines);
        assert!(depth >= 4, "depth {depth} after {took:?}: {lines:?}");
        assert!(took < Duration::from_millis(50 + 5000), "{took:?}");
    }
}

/// At every level the last `info` before `bestmove` is the move played:
/// its `pv` starts with it, and its score is the one that move's line had
/// in the same iteration (before, a level showed its best line, not the
/// one it chose). At a level the lines are `info multipv`; the played move's
/// line is then the last `info depth` one.
#[test]
fn the_last_info_is_the_move_played_at_every_level() {
    let mut e = Orca::ugi();
    e.send("setoption name OwnBook value false");
    for level in 1..=20 {
        e.send(&format!("setoption name Level value {level}"));
        for moves in ["f5 d6 c3 d3 c4 f4", "f5 f6 e6 f4 g5 d6 e3"] {
            for _ in 0..3 {
                e.send(&format!("position startpos moves {moves}"));
                e.send("go depth 6");
                let lines = e.until("bestmove");
                let best = word_after(lines.last().unwrap(), "bestmove").to_string();
                let last = lines[..lines.len() - 1]
                    .iter()
                    .rev()
                    .find(|l| l.starts_with("info depth") || l.starts_with("info multipv"))
                    .unwrap_or_else(|| panic!("level {level}: {lines:?}"));
                assert_eq!(word_after(last, "pv"), best, "level {level}: {lines:?}");
                if level == 20 {
                    continue;
                }
                assert!(last.starts_with("info depth"), "level {level}: {lines:?}");
                let score = |line: &str| {
                    (
                        word_after(line, "disc").to_string(),
                        word_after(line, "depth").to_string(),
                    )
                };
                let own = lines
                    .iter()
                    .rev()
                    .find(|l| l.starts_with("info multipv") && l.contains(&format!(" pv {best}")))
                    .unwrap_or_else(|| panic!("level {level}: no line of {best}: {lines:?}"));
                assert_eq!(score(last), score(own), "level {level}: {lines:?}");
            }
        }
    }
}

/// `go searchmoves` is analysis even when no move follows: never answered
/// from the book.
#[test]
fn go_searchmoves_with_no_move_is_searched() {
    let mut e = Orca::ugi();
    e.send("position startpos");
    e.send("go searchmoves depth 3");
    let lines = e.until("bestmove");
    assert!(lines.iter().all(|l| !l.contains("book")), "{lines:?}");
    assert_eq!(last_depth(&lines), 3, "{lines:?}");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info string book")),
        "{lines:?}"
    );
}

/// `perft` at the end of input runs to its depth and gives its total, as a
/// bounded search does.
#[test]
fn perft_at_the_end_of_input_runs_to_its_depth() {
    let mut e = Orca::ugi();
    e.send("perft 5");
    e.close_stdin();
    let lines = e.until("info string perft total");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string perft depth 5 leaves 1396 ")),
        "{lines:?}"
    );
    assert!(lines.last().unwrap().ends_with("total 1712"), "{lines:?}");
    assert_eq!(e.wait_exit(PATIENCE), Some(0));
}

/// The CPU seconds process `pid` has used.
#[cfg(target_os = "linux")]
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after_name = stat.rsplit_once(')').unwrap().1;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

/// When nobody reads stdout any more, an `infinite` search is stopped (its
/// answer could reach nobody) instead of running until `quit`; the session
/// goes on reading its input. Seen by the process's CPU time, which stops
/// growing: a search uses a core, an idle engine nothing.
#[cfg(target_os = "linux")]
#[test]
fn a_closed_stdout_stops_the_search() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_orca"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"ugi\nposition startpos\ngo infinite\n")
        .unwrap();
    stdin.flush().unwrap();
    let pid = child.id();
    let deadline = Instant::now() + PATIENCE;
    let idle = loop {
        let before = cpu_seconds(pid);
        std::thread::sleep(Duration::from_secs(1));
        let used = cpu_seconds(pid) - before;
        if used < 0.2 {
            break true;
        }
        if Instant::now() > deadline {
            break false;
        }
    };
    assert!(idle, "the search still runs");
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// Under a memory limit (`ulimit -v`), a `Hash` beyond it is refused when
/// it is set, with one line, and the old table stays: the engine searches on.
#[cfg(unix)]
#[test]
fn a_hash_beyond_the_memory_limit_is_refused_when_set() {
    let mut e = Orca::start_after("ulimit -v 3000000", &[]);
    e.send("setoption name Hash value 8192");
    let lines = e.sync();
    assert_eq!(
        lines,
        [
            "info string error: setoption: cannot allocate a 8192 MB transposition table (not enough memory); keeping the 64 MB table"
        ]
    );
    e.send("setoption name Hash value 128");
    assert_eq!(e.sync(), Vec::<String>::new());
    e.send("setoption name Hash value 4096");
    assert!(e.sync()[0].ends_with("keeping the 128 MB table"));
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go depth 6");
    assert_eq!(last_depth(&e.until("bestmove")), 6);
}
