//! Drives the real `orca` binary over pipes, as a GUI or referee would.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};

pub mod webdriver;

/// Generous patience for answers that should come at once, for noisy CI machines.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// A running `orca` process.
pub struct Orca {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    errors: Option<Receiver<String>>,
}

/// Forwards the lines of a pipe to a channel, with the time each arrived.
fn forward_lines(pipe: impl std::io::Read + Send + 'static) -> Receiver<(Instant, String)> {
    let (tx, rx) = unbounded();
    thread::spawn(move || {
        for line in BufReader::new(pipe).lines() {
            let Ok(line) = line else { break };
            if tx.send((Instant::now(), line)).is_err() {
                break;
            }
        }
    });
    rx
}

impl Orca {
    /// Starts `orca` with these arguments.
    pub fn start(args: &[&str]) -> Orca {
        Orca::spawn(args, false, None)
    }

    /// Starts `orca` with these arguments, keeping what it logs to stderr
    /// (read with [`Orca::stderr`]).
    pub fn start_logging(args: &[&str]) -> Orca {
        Orca::spawn(args, true, None)
    }

    /// [`Orca::start_logging`] with the log filter `filter` (`RUST_LOG`).
    pub fn start_logging_at(args: &[&str], filter: &str) -> Orca {
        Orca::spawn(args, true, Some(filter))
    }

    /// Starts `orca` with these arguments from a shell that first runs
    /// `setup` (`ulimit -v 4000000`: the engine under a memory limit).
    pub fn start_after(setup: &str, args: &[&str]) -> Orca {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("{setup}; exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_orca"));
        Orca::spawn_command(command, args, false)
    }

    fn spawn(args: &[&str], keep_stderr: bool, log_filter: Option<&str>) -> Orca {
        let mut command = Command::new(env!("CARGO_BIN_EXE_orca"));
        if let Some(filter) = log_filter {
            command.env("RUST_LOG", filter);
        }
        Orca::spawn_command(command, args, keep_stderr)
    }

    fn spawn_command(mut command: Command, args: &[&str], keep_stderr: bool) -> Orca {
        let mut child = command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if keep_stderr {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .expect("start orca");
        let lines = forward_lines(child.stdout.take().unwrap());
        let errors = child.stderr.take().map(|pipe| {
            let (tx, rx) = unbounded();
            let timed = forward_lines(pipe);
            thread::spawn(move || {
                for (_, line) in timed {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
            rx
        });
        let stdin = child.stdin.take();
        Orca {
            child,
            stdin,
            lines,
            errors,
        }
    }

    /// What the process logged to stderr so far (after a pause of `quiet`).
    pub fn stderr(&self, quiet: Duration) -> Vec<String> {
        let errors = self.errors.as_ref().expect("started with start_logging");
        std::iter::from_fn(|| errors.recv_timeout(quiet).ok()).collect()
    }

    /// The first `count` lines the process logs to stderr (fewer only if
    /// none comes for [`PATIENCE`]).
    pub fn stderr_lines(&self, count: usize) -> Vec<String> {
        let errors = self.errors.as_ref().expect("started with start_logging");
        std::iter::from_fn(|| errors.recv_timeout(PATIENCE).ok())
            .take(count)
            .collect()
    }

    /// The UGI engine (plain `orca`).
    pub fn ugi() -> Orca {
        Orca::start(&[])
    }

    /// Sends one line; returns when it was written.
    pub fn send(&mut self, line: &str) -> Instant {
        self.send_bytes(format!("{line}\n").as_bytes())
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Instant {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
        Instant::now()
    }

    /// Closes stdin (EOF for the engine).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, if one comes within `timeout`.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok(x) => Some(x),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The next line, panicking after [`PATIENCE`].
    pub fn recv(&self) -> String {
        self.recv_timeout(PATIENCE).expect("a line from orca").1
    }

    /// Lines up to and including the first one starting with `prefix`.
    pub fn until(&self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self.recv();
            let done = line.starts_with(prefix);
            out.push(line);
            if done {
                return out;
            }
        }
    }

    /// The line starting with `prefix` and when it arrived (other lines skipped).
    pub fn wait_for(&self, prefix: &str) -> (Instant, String) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let (at, line) = self
                .recv_timeout(left)
                .unwrap_or_else(|| panic!("no line starting with {prefix:?}"));
            if line.starts_with(prefix) {
                return (at, line);
            }
        }
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok");
        lines.pop();
        lines
    }

    /// Sends `go ...` and returns the `bestmove` token.
    pub fn best_move(&mut self, go: &str) -> String {
        self.send(go);
        let (_, line) = self.wait_for("bestmove");
        let parts: Vec<&str> = line.split_whitespace().collect();
        assert!(
            parts.len() == 2 || (parts.len() == 4 && parts[2] == "ponder"),
            "bestmove line must be 'bestmove X' or 'bestmove X ponder Y': {line}"
        );
        parts[1].to_string()
    }

    /// Sends a query and returns the answer after `response`.
    pub fn query(&mut self, what: &str) -> String {
        self.send(&format!("query {what}"));
        let (_, line) = self.wait_for("response");
        line["response ".len()..].to_string()
    }

    /// Waits for the process to exit, returning its status code.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<i32> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            thread::sleep(Duration::from_millis(5));
        }
        None
    }

    /// Lines that arrive within `quiet` of each other, until a pause.
    pub fn drain(&self, quiet: Duration) -> Vec<String> {
        std::iter::from_fn(|| self.recv_timeout(quiet).map(|(_, l)| l)).collect()
    }
}

impl Drop for Orca {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The moves `orca book show` lists for the position after `moves` (moves
/// from the start, `""` for the start), best first: the first is the one a
/// front end with `--book-randomness 0` plays.
pub fn book_moves(moves: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_orca"))
        .args(["book", "show", moves])
        .output()
        .expect("run orca book show");
    assert!(out.status.success(), "orca book show {moves:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// The book notes among the lines of an engine's info log: the moves of
/// `book <move> value <v> depth <d>`, in order.
pub fn book_notes(log: &[String]) -> Vec<String> {
    log.iter()
        .filter_map(|l| l.split_once("] book "))
        .filter_map(|(_, rest)| rest.split_whitespace().next().map(str::to_string))
        .collect()
}

/// Asserts that a debug log shows a search (its iterations) and no book
/// move.
pub fn assert_searched(log: &[String]) {
    assert!(book_notes(log).is_empty(), "{log:?}");
    assert!(
        log.iter().any(|l| l.contains("] depth ")),
        "searched: {log:?}"
    );
}

/// An Othello game of random moves to the end (seeded): its moves as a
/// spaced move list, and the final position.
pub fn random_game(seed: u64) -> (String, orca::game::AnyPosition) {
    use orca::game::{AnyPosition, Variant};
    let mut rng = seed;
    let mut position = AnyPosition::start(Variant::Othello);
    let mut moves = Vec::new();
    while !position.is_over() {
        let legal = position.legal_moves();
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = legal[(rng >> 33) as usize % legal.len()];
        moves.push(mv.to_string());
        position = position.play(mv).expect("a legal move plays");
    }
    (moves.join(" "), position)
}

/// One HTTP/1.1 request to `address` (`host:port`): the answer's head and
/// body. The body is read by its length or its chunks, since a server may
/// keep the connection open after it.
pub fn http(
    address: &str,
    method: &str,
    path: &str,
    body: &str,
    patience: Duration,
) -> std::io::Result<(String, String)> {
    use std::io::Read as _;
    let mut stream = std::net::TcpStream::connect(address)?;
    stream.set_read_timeout(Some(patience))?;
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        if let Some(answer) = complete_answer(&bytes) {
            return Ok(answer);
        }
        let n = stream.read(&mut buffer)?;
        if n == 0 {
            let text = String::from_utf8_lossy(&bytes).to_string();
            let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
            return Ok((head.to_string(), body.to_string()));
        }
        bytes.extend_from_slice(&buffer[..n]);
    }
}

/// The head and body of `bytes` once they hold a whole answer.
fn complete_answer(bytes: &[u8]) -> Option<(String, String)> {
    let text = std::str::from_utf8(bytes).ok()?;
    let (head, body) = text.split_once("\r\n\r\n")?;
    let lower = head.to_ascii_lowercase();
    if lower.contains("transfer-encoding: chunked") {
        return body
            .contains("\r\n0\r\n")
            .then(|| (head.to_string(), unchunk(body)));
    }
    let length: usize = lower
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|n| n.trim().parse().ok())?;
    (body.len() >= length).then(|| (head.to_string(), body[..length].to_string()))
}

/// The body of a chunked HTTP answer.
fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// JSON as the web API and chromedriver speak it.
pub use serde_json::Value as Json;

/// A string member of a JSON object.
pub trait JsonExt {
    /// `self[key]` when it is a string.
    fn get_str(&self, key: &str) -> Option<&str>;
}

impl JsonExt for Json {
    fn get_str(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Json::as_str)
    }
}

/// A JSON object of these members.
pub fn object<const N: usize>(members: [(&str, Json); N]) -> Json {
    Json::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// The moves of a web game's state (`orca web`'s JSON).
#[allow(dead_code)]
pub fn state_moves(state: &Json) -> Vec<String> {
    state
        .get("moves")
        .and_then(Json::as_array)
        .expect("the moves")
        .iter()
        .map(|m| m.get_str("move").expect("a move").to_string())
        .collect()
}
