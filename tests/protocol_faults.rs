//! What a hostile or careless user of the three protocols meets: odd
//! whitespace, control characters, memory that is not there, UCI tools,
//! NBoard at the end of its input, and the values of forced answers. Each
//! drives the real `orca` binary over pipes; none depends on timing.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, unbounded};
use orca::game::{AnyPosition, Variant};

/// Generous patience for answers that should come at once, for busy machines.
const PATIENCE: Duration = Duration::from_secs(30);

/// Virtual memory limit (kB) under which a 16 GB table cannot be had but
/// everything else Orca needs can.
const MEMORY_LIMIT_KB: u64 = 4_000_000;

/// A running `orca`, read line by line.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// `orca` with these arguments.
    fn start(args: &[&str]) -> Engine {
        Engine::spawn(Command::new(env!("CARGO_BIN_EXE_orca")).args(args))
    }

    /// `orca` with these arguments, under a virtual memory limit.
    fn limited(args: &[&str]) -> Engine {
        let script = format!("ulimit -v {MEMORY_LIMIT_KB} && exec \"$0\" \"$@\"");
        Engine::spawn(
            Command::new("sh")
                .arg("-c")
                .arg(script)
                .arg(env!("CARGO_BIN_EXE_orca"))
                .args(args),
        )
    }

    fn spawn(command: &mut Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start orca");
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = unbounded();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// The next line, panicking after [`PATIENCE`].
    fn recv(&self) -> String {
        self.lines
            .recv_timeout(PATIENCE)
            .expect("a line from orca in time")
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.recv();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// UGI: every line before the `readyok` of an `isready` sent now.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok");
        lines.pop();
        lines
    }

    /// Closes stdin and returns everything written until the exit, and the
    /// exit status.
    fn finish(mut self) -> (Vec<String>, Option<i32>) {
        self.stdin = None;
        let lines: Vec<String> =
            std::iter::from_fn(|| self.lines.recv_timeout(PATIENCE).ok()).collect();
        let status = self.child.wait().expect("orca exits");
        (lines, status.code())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `orca args` on the whole of `input` (then end of input) and returns
/// its stdout lines and exit status.
fn run(args: &[&str], input: &[u8]) -> (Vec<String>, Option<i32>) {
    let mut engine = Engine::start(args);
    engine.send_bytes(input);
    engine.finish()
}

/// The position string of the UGI session, from `d`.
fn ugi_position(engine: &mut Engine) -> String {
    engine.send("d");
    let lines = engine.until("Legal moves:");
    let line = lines.iter().find(|l| l.starts_with("Position: ")).unwrap();
    line["Position: ".len()..].to_string()
}

/// A board where black's only disc, b1, is next to white's a1: black must
/// pass, and white's only move c1 then wins 64-0.
fn wipeout_board() -> String {
    let mut squares = ['-'; 64];
    (squares[0], squares[1]) = ('O', 'X');
    squares.iter().collect()
}

/// Black must pass; white's only move h8 then ends the game, 61-3 for black.
const PASS_BOARD: &str = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX-";

/// An NBoard `set game` line: a record starting at `board` with `side`
/// (`*` or `O`) to move, and `clock` as its `TI`.
fn set_game(board: &str, side: char, clock: &str) -> String {
    let board = board.replace('X', "*");
    format!(
        "set game (;GM[Othello]PC[test]DT[2024-01-01 00:00:00 GMT]PB[a]PW[b]RE[?]TI[{clock}]TY[8]BO[8 {board} {side}];)"
    )
}

// ---------------------------------------------------------------- UGI ----

/// A line is split at every whitespace character, `\x0b`, `\x0c` and
/// U+00A0 included: what follows one is read, never dropped.
#[test]
fn ugi_reads_the_whole_line_whatever_its_whitespace() {
    let mut e = Engine::start(&["ugi"]);
    e.send_bytes(b"isready\x0bnow\n");
    assert_eq!(e.sync(), ["info string error: isready: unexpected 'now'"]);

    e.send("position startpos moves f5");
    let before = ugi_position(&mut e);
    e.send_bytes("position startpos\u{a0}moves a1 zz\n".as_bytes());
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: illegal move a1 at ply 1"),
        "{lines:?}"
    );
    assert_eq!(ugi_position(&mut e), before, "the position is unchanged");
    e.send_bytes("position startpos\u{a0}moves\x0cf5\x0bd6\n".as_bytes());
    assert_eq!(e.sync(), Vec::<String>::new());
    assert_eq!(ugi_position(&mut e), position_after(&["f5", "d6"]));

    // Not a quit: the engine stays.
    e.send_bytes(b"quit\x0bnow please\n");
    assert_eq!(e.sync(), ["info string error: quit: unexpected 'now'"]);
    e.send("quit");
    let (rest, status) = e.finish();
    assert_eq!((rest, status), (vec![], Some(0)));
}

/// The position string after `moves` from the start, as `d` writes it.
fn position_after(moves: &[&str]) -> String {
    AnyPosition::start(Variant::Othello)
        .play_line(moves.iter().copied())
        .unwrap()
        .to_string()
}

/// Error lines escape the control characters they echo.
#[test]
fn ugi_errors_escape_control_characters() {
    let mut e = Engine::start(&["ugi"]);
    e.send_bytes(b"setoption name \x00 value 1\n");
    assert_eq!(
        e.sync(),
        ["info string error: setoption: unknown option '\\x00'"]
    );
    e.send_bytes(b"\x1b[2Jfly\x7f\n");
    assert_eq!(
        e.sync(),
        ["info string error: unknown command '\\x1b[2Jfly\\x7f'"]
    );
    e.send_bytes("go movetime 5\u{85}\u{9b}31m\n".as_bytes());
    // U+0085 is whitespace (a token break); U+009B is a control character.
    assert_eq!(e.sync(), ["info string error: go: unexpected '\\u{9b}31m'"]);
}

/// Option values are plain digits, as `go` limits are: `+64` is refused.
#[test]
fn ugi_option_values_take_no_sign() {
    let mut e = Engine::start(&["ugi"]);
    for (option, value) in [
        ("Hash", "+64"),
        ("Hash", "-1"),
        ("Hash", "64 128"),
        ("MoveOverhead", "+10"),
        ("Threads", "+1"),
        ("Selectivity", "+73"),
    ] {
        e.send(&format!("setoption name {option} value {value}"));
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{option} {value}: {lines:?}");
        assert!(
            lines[0].starts_with(&format!(
                "info string error: setoption: bad value '{value}' for {option}"
            )),
            "{lines:?}"
        );
    }
    e.send("setoption name Hash value 64");
    assert_eq!(e.sync(), Vec::<String>::new());
}

/// `uci` gets a UCI handshake, and the session goes on in the same dialect
/// (`ucinewgame` included).
#[test]
fn uci_handshake_then_the_same_dialect() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines[0].starts_with("id name Orca"), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    for option in ["Variant", "Hash", "Threads", "MoveOverhead", "Selectivity"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type "))),
            "{option}: {lines:?}"
        );
    }
    assert!(!lines.iter().any(|l| l == "ugiok"), "{lines:?}");
    assert_eq!(e.sync(), Vec::<String>::new());
    e.send("setoption name Hash value 16");
    e.send("setoption name OwnBook value false");
    e.send("ucinewgame");
    e.send("position startpos moves f5");
    assert_eq!(e.sync(), Vec::<String>::new());
    e.send("go wtime 60000 btime 60000 depth 2");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(
        ["d6", "f6", "f4"].contains(&best),
        "a legal move for white: {best}"
    );
}

/// A `Hash` whose memory is not there is one error line; the old table
/// stays, and the engine searches on.
#[test]
fn ugi_hash_beyond_the_memory_is_an_error_not_an_abort() {
    let mut e = Engine::limited(&["ugi"]);
    e.send("setoption name Hash value 16384");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(
        lines[0],
        "info string error: setoption: cannot allocate a 16384 MB transposition table \
         (not enough memory); keeping the 64 MB table"
    );
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 4 ")),
        "{lines:?}"
    );
    e.send("setoption name Hash value 32");
    assert_eq!(e.sync(), Vec::<String>::new());
    e.send("quit");
    assert_eq!(e.finish(), (vec![], Some(0)));
}

/// A front end whose start-up table cannot be had says so on stderr and
/// exits with status 1: no abort, no backtrace.
#[test]
fn a_start_up_table_beyond_the_memory_ends_cleanly() {
    for args in [["gtp", "--hash", "16384"], ["nboard", "--hash", "16384"]] {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {MEMORY_LIMIT_KB} && exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_orca"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start orca");
        drop(child.stdin.take());
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(
            stderr.trim_end(),
            "orca: cannot start the engine: cannot allocate a 16384 MB transposition \
             table (not enough memory)",
            "{args:?}"
        );
    }
}

/// At the end of input a bounded `go` runs to its limit and is answered (the
/// issue's case: a `go depth 4` once answered before any iteration); an
/// unbounded one (`infinite`, `ponder`) is stopped and answered at once.
#[test]
fn ugi_searches_a_bounded_go_read_before_the_end_of_input() {
    let fen = "---XXXXX-OOOXXXX-OOXXOXX-OXOXXXX-OXXOXXX--XXOXXX---OOOXX--OOOOOX X";
    let input = format!("ugi\nposition fen {fen}\ngo depth 4\n");
    let (lines, status) = run(&[], input.as_bytes());
    assert_eq!(status, Some(0));
    let searched = lines.iter().position(|l| l.starts_with("info depth "));
    let answer = lines.iter().position(|l| l.starts_with("bestmove "));
    assert!(searched.is_some() && searched < answer, "{lines:?}");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1
    );

    for go in ["go infinite", "go ponder", "go ponder movetime 100"] {
        let input = format!("ugi\nposition startpos\n{go}\n");
        let (lines, status) = run(&[], input.as_bytes());
        assert_eq!(status, Some(0), "{go}");
        let answers = lines.iter().filter(|l| l.starts_with("bestmove ")).count();
        assert_eq!(answers, 1, "{go}: {lines:?}");
    }
}

// ------------------------------------------------------------- NBoard ----

/// The README's example: the `go` before the end of input is answered.
#[test]
fn nboard_answers_a_go_read_before_the_end_of_input() {
    let (lines, status) = run(&["nboard"], b"nboard 2\nset depth 10\nping 1\ngo\n");
    assert_eq!(status, Some(0));
    assert_eq!(lines[..2], ["set myname Orca", "pong 1"], "{lines:?}");
    let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("=== ")).collect();
    assert_eq!(answers.len(), 1, "{lines:?}");
    let mv = answers[0]["=== ".len()..].split('/').next().unwrap();
    assert!(["D3", "C4", "F5", "E6"].contains(&mv), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("nodestats "), "{lines:?}");
}

/// `quit` still drops the running search's answer.
#[test]
fn nboard_quit_drops_the_running_go() {
    let (lines, status) = run(&["nboard"], b"nboard 2\nset depth 20\ngo\nquit\n");
    assert_eq!(status, Some(0));
    assert!(!lines.iter().any(|l| l.starts_with("=== ")), "{lines:?}");
}

/// A pass, and a single legal move under a clock, are answered at once with
/// a searched value, exact when the position is small, instead of the
/// static evaluation.
#[test]
fn nboard_forced_answers_report_a_searched_value() {
    let mut e = Engine::start(&["nboard"]);
    e.send("nboard 2");
    e.send("set depth 12");
    assert_eq!(e.recv(), "set myname Orca");

    e.send(&set_game(PASS_BOARD, '*', "0:00"));
    e.send("ping 1");
    assert_eq!(e.recv(), "pong 1");
    e.send("go");
    let lines = e.until("=== ");
    assert!(
        lines.last().unwrap().starts_with("=== PA/58.00/"),
        "{lines:?}"
    );
    assert!(e.recv().starts_with("nodestats "));

    // White to move with only h8, under a clock: answered without a real
    // search, but with its exact value.
    e.send(&set_game(PASS_BOARD, 'O', "5:00"));
    e.send("ping 2");
    assert_eq!(e.recv(), "pong 2");
    e.send("go");
    let lines = e.until("=== ");
    assert!(
        lines.last().unwrap().starts_with("=== H8/-58.00/"),
        "{lines:?}"
    );
    assert!(e.recv().starts_with("nodestats "));

    // 62 empties: too many to solve at once, but a short search sees the
    // wipe-out.
    e.send(&set_game(&wipeout_board(), '*', "0:00"));
    e.send("ping 3");
    assert_eq!(e.recv(), "pong 3");
    e.send("go");
    let lines = e.until("=== ");
    assert!(
        lines.last().unwrap().starts_with("=== PA/-64.00/"),
        "{lines:?}"
    );
    assert!(e.recv().starts_with("nodestats "));
}

/// In a pass position whose end is forced, `hint` marks the exact score
/// `100%`, as the other side's hint does.
#[test]
fn nboard_hint_in_a_pass_position_marks_an_exact_score() {
    let mut e = Engine::start(&["nboard"]);
    e.send("nboard 2");
    e.send("set depth 8");
    assert_eq!(e.recv(), "set myname Orca");
    e.send(&set_game(&wipeout_board(), '*', "0:00"));
    e.send("hint 3");
    assert_eq!(e.until("nodestats")[..1], ["search PAc1 -64.00 0 100%"]);
    e.send(&set_game(&wipeout_board(), 'O', "0:00"));
    e.send("hint 3");
    assert_eq!(e.until("nodestats")[..1], ["search c1 64.00 0 100%"]);
}

/// `pong` echoes the ping's token with its control characters escaped.
#[test]
fn nboard_pong_escapes_control_characters() {
    let (lines, status) = run(&["nboard"], b"nboard 2\nping \x1c\nping 7\x1b[0m\n");
    assert_eq!(status, Some(0));
    assert_eq!(lines, ["pong \\x1c", "pong 7\\x1b[0m"]);
}
