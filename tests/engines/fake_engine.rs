//! `orca-fake-engine`: a tiny engine for the tests of `orca match`, not a
//! player. It speaks UGI, GTP or NBoard, plays the first legal move, and
//! misbehaves on request from its Nth own move on. It knows the rules itself
//! (a plain 64-square board), so it shares no code with what it tests.
//!
//! usage: orca-fake-engine PROTOCOL [MODE [N]] [--pidfile FILE]
//!
//! MODE: `good` (the default); `illegal` (plays d4, always occupied); `sleep`
//! (answers a minute late); `crash` (exits with status 3); `silent` (answers
//! that move, then never writes again); `garbled` (answers with a line that is
//! not UTF-8); `hang` (plays well, but neither `quit` nor the end of its input
//! ends it). `--pidfile` appends the process id to FILE.

use std::io::{self, BufRead, Write};
use std::time::Duration;

const START: &str = "---------------------------OX------XO---------------------------";

/// How late `sleep` answers: late by far more than any test's limit and margin.
const LATE: Duration = Duration::from_secs(60);

#[derive(Clone)]
struct Game {
    board: [u8; 64],
    side: u8,
}

impl Game {
    /// A game from 64 squares (`X` or `*` black, `O` white, anything else
    /// empty) and the side to move (`X`, `*` or `B` for black).
    fn new(squares: &str, side: &str) -> Game {
        let mut board = [b'-'; 64];
        for (square, c) in board.iter_mut().zip(squares.bytes()) {
            *square = match c {
                b'X' | b'x' | b'*' => b'X',
                b'O' | b'o' => b'O',
                _ => b'-',
            };
        }
        let side = if matches!(side, "X" | "x" | "*" | "B" | "b") {
            b'X'
        } else {
            b'O'
        };
        Game { board, side }
    }

    fn start() -> Game {
        Game::new(START, "X")
    }

    /// The squares a move of `side` on `i` turns over.
    fn flips(&self, side: u8, i: usize) -> Vec<usize> {
        let other = if side == b'X' { b'O' } else { b'X' };
        let (row, col) = ((i / 8) as i32, (i % 8) as i32);
        let mut out = Vec::new();
        for dr in -1..=1 {
            for dc in -1..=1 {
                if (dr, dc) == (0, 0) {
                    continue;
                }
                let mut run = Vec::new();
                let (mut r, mut c) = (row + dr, col + dc);
                while (0..8).contains(&r) && (0..8).contains(&c) {
                    let j = (r * 8 + c) as usize;
                    if self.board[j] != other {
                        if self.board[j] == side && !run.is_empty() {
                            out.append(&mut run);
                        }
                        break;
                    }
                    run.push(j);
                    r += dr;
                    c += dc;
                }
            }
        }
        out
    }

    fn legal(&self) -> Vec<usize> {
        (0..64)
            .filter(|&i| self.board[i] == b'-' && !self.flips(self.side, i).is_empty())
            .collect()
    }

    fn switch(&mut self) {
        self.side = if self.side == b'X' { b'O' } else { b'X' };
    }

    /// Plays `token` for `side` (the side to move when `None`); a side that
    /// moves twice in a row means the other passed in between.
    fn play(&mut self, token: &str, side: Option<u8>) {
        if let Some(side) = side {
            self.side = side;
        }
        let t = token.to_ascii_lowercase();
        if matches!(t.as_str(), "pass" | "pa" | "--") {
            self.switch();
            return;
        }
        let b = t.as_bytes();
        if b.len() < 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return;
        }
        let i = usize::from(b[1] - b'1') * 8 + usize::from(b[0] - b'a');
        for j in self.flips(self.side, i) {
            self.board[j] = self.side;
        }
        self.board[i] = self.side;
        self.switch();
    }

    fn first_move(&self) -> String {
        match self.legal().first() {
            None => "pass".to_string(),
            Some(&i) => format!("{}{}", char::from(b'a' + (i % 8) as u8), i / 8 + 1),
        }
    }
}

/// The engine's state across lines.
struct Fake {
    protocol: String,
    mode: String,
    after: u32,
    game: Game,
    moves_made: u32,
    /// Nothing more is written.
    silent: bool,
    out: io::Stdout,
}

impl Fake {
    fn write(&mut self, text: &str) {
        self.write_bytes(format!("{text}\n").as_bytes());
    }

    fn write_bytes(&mut self, bytes: &[u8]) {
        if !self.silent {
            let mut out = self.out.lock();
            let _ = out.write_all(bytes).and_then(|()| out.flush());
        }
    }

    /// The move to answer, after misbehaving as the mode says. Writes the
    /// answer `line(move)`.
    fn answer(&mut self, line: impl Fn(&str) -> String) -> String {
        self.moves_made += 1;
        let mv = self.game.first_move();
        if self.moves_made < self.after {
            self.write(&line(&mv));
            return mv;
        }
        match self.mode.as_str() {
            "illegal" => {
                self.write(&line("d4"));
                return "d4".into();
            }
            "sleep" => std::thread::sleep(LATE),
            "crash" => std::process::exit(3),
            "garbled" => {
                let mut bytes = line("\u{1}").into_bytes();
                let at = bytes.iter().position(|&b| b == 1).unwrap_or(0);
                bytes.splice(at..=at, [0xff, 0xfe]);
                bytes.push(b'\n');
                self.write_bytes(&bytes);
                return mv;
            }
            _ => {}
        }
        self.write(&line(&mv));
        if self.mode == "silent" {
            self.silent = true;
        }
        mv
    }

    /// Handles one line; false when the engine should stop reading.
    fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = words.first() else {
            return true;
        };
        if command == "quit" {
            if self.protocol == "gtp" {
                self.write("=\n");
            }
            return false;
        }
        match self.protocol.as_str() {
            "ugi" => self.ugi(&words),
            "gtp" => self.gtp(&words),
            _ => self.nboard(line, &words),
        }
        true
    }

    fn ugi(&mut self, words: &[&str]) {
        match words[0] {
            "ugi" => {
                self.write("id name fake");
                self.write(
                    "option name Variant type combo default othello var othello var reversed",
                );
                self.write("ugiok");
            }
            "isready" => self.write("readyok"),
            "position" => {
                let mut game = match words.get(1) {
                    Some(&"fen") if words.len() >= 4 => Game::new(words[2], words[3]),
                    _ => Game::start(),
                };
                let moves = words.iter().position(|&w| w == "moves");
                for &m in moves.map_or(&[][..], |k| &words[k + 1..]) {
                    if m != "pass" && game.legal().is_empty() {
                        game.play("pass", None);
                    }
                    game.play(m, None);
                }
                self.game = game;
            }
            "go" => {
                self.write("info depth 1 score disc 0 pv x");
                self.answer(|mv| format!("bestmove {mv}"));
            }
            _ => {}
        }
    }

    fn gtp(&mut self, words: &[&str]) {
        let colour = |w: Option<&&str>| {
            if w.is_some_and(|w| w.starts_with(['b', 'B'])) {
                b'X'
            } else {
                b'O'
            }
        };
        let mut text = String::new();
        match words[0] {
            "clear_board" => self.game = Game::start(),
            "play" if words.len() >= 3 => self.game.play(words[2], Some(colour(words.get(1)))),
            "genmove" => {
                self.game.side = colour(words.get(1));
                let mv = self.answer(|mv| format!("= {mv}\n"));
                if mv != "pass" && mv != "d4" {
                    self.game.play(&mv, None);
                }
                return;
            }
            "name" => text = "fake".into(),
            _ => {}
        }
        self.write(&format!("{}\n", format!("= {text}").trim_end()));
    }

    fn nboard(&mut self, line: &str, words: &[&str]) {
        match words[0] {
            "ping" => {
                let n = words.get(1).copied().unwrap_or("");
                self.write(&format!("pong {n}"));
            }
            "set" if words.get(1) == Some(&"game") => self.game = game_of_record(line),
            "go" => {
                self.answer(|mv| {
                    let mv = if mv == "pass" {
                        "PA".to_string()
                    } else {
                        mv.to_ascii_uppercase()
                    };
                    format!("=== {mv}/0.00/0.01")
                });
            }
            _ => {}
        }
    }
}

/// The position at the end of a GGF record: its `BO[8 squares side]` (the
/// start when absent) and every `B[..]`/`W[..]` move after it.
fn game_of_record(record: &str) -> Game {
    let mut game = Game::start();
    let mut rest = record;
    if let Some(at) = record.find("BO[8 ") {
        let fields: Vec<&str> = record[at + 5..].split([' ', ']']).collect();
        if fields.len() >= 2 {
            game = Game::new(fields[0], fields[1]);
        }
        rest = &record[at + 5..];
    }
    // A move property follows the end of another property: `]B[F5//1.2]`.
    let bytes = rest.as_bytes();
    for i in 1..bytes.len().saturating_sub(1) {
        if bytes[i - 1] == b']' && matches!(bytes[i], b'B' | b'W') && bytes[i + 1] == b'[' {
            let token: String = rest[i + 2..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            let side = if bytes[i] == b'B' { b'X' } else { b'O' };
            game.play(&token, Some(side));
        }
    }
    game
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(k) = args.iter().position(|a| a == "--pidfile") {
        let file = args.get(k + 1).cloned().unwrap_or_default();
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&file)
            .unwrap_or_else(|e| panic!("--pidfile {file}: {e}"));
        writeln!(f, "{}", std::process::id()).expect("write the pid file");
        args.drain(k..(k + 2).min(args.len()));
    }
    let mut fake = Fake {
        protocol: args.first().cloned().unwrap_or_else(|| "ugi".into()),
        mode: args.get(1).cloned().unwrap_or_else(|| "good".into()),
        after: args.get(2).and_then(|n| n.parse().ok()).unwrap_or(1),
        game: Game::start(),
        moves_made: 0,
        silent: false,
        out: io::stdout(),
    };
    let stdin = io::stdin();
    let mut line = Vec::new();
    loop {
        line.clear();
        match stdin.lock().read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if !fake.handle(&String::from_utf8_lossy(&line)) {
            break;
        }
    }
    if fake.mode == "hang" {
        loop {
            std::thread::sleep(Duration::from_secs(3600));
        }
    }
}
