//! UGI, Orca's native protocol (UCI generalised to any two-player game), as
//! documented in `protocol.md`.
//!
//! This thread reads stdin and answers at once; searches run on the engine's
//! worker, whose reports are formatted here. The session keeps the last good
//! position and options: a bad line gets one `info string error: ...` and
//! changes nothing.

pub mod command;

use std::io::BufRead;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::book::{Books, MAX_RANDOMNESS};
use crate::engine::{
    BestMove, DEFAULT_HASH_MB, Engine, GoLimits, GoRequest, Level, MAX_HASH_MB, MAX_LEVEL,
    MAX_THREADS, MIN_HASH_MB, Report, ResizeError, SearchDone, SearchInfo, StartError, Stopper,
};
use crate::eval::Evaluators;
use crate::game::position::Outcome;
use crate::game::{AnyMove, AnyPosition, Color, Move, Variant};
use crate::search::Selectivity;
use crate::search::time::DEFAULT_MOVE_OVERHEAD_MS;
use command::{Command, Query, StartPosition};

pub use super::Flow;
use super::{InputLine, Output};

/// Most lines the `MultiPV` option accepts (no Othello position has more
/// legal moves).
pub const MAX_MULTIPV: usize = 64;

/// Largest `MoveOverhead` accepted, in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

/// The engine's name as `ugi` announces it.
pub const ENGINE_NAME: &str = concat!("Orca ", env!("CARGO_PKG_VERSION"));

/// Who wrote it.
pub const ENGINE_AUTHOR: &str = "the Orca developers";

/// The `info` lines of one finished iteration: one, or with several lines
/// asked for (multi-PV, `searchmoves`) one `info multipv k ...` per line,
/// best first.
pub fn info_lines(info: &SearchInfo) -> Vec<String> {
    if info.lines.is_empty() {
        return vec![info_line(info)];
    }
    info.lines
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let one = SearchInfo {
                score: line.score,
                pv: line.pv.clone(),
                lines: Vec::new(),
                ..info.clone()
            };
            info_line(&one).replacen("info ", &format!("info multipv {} ", k + 1), 1)
        })
        .collect()
}

/// The `info` line of one finished iteration (its first line only).
pub fn info_line(info: &SearchInfo) -> String {
    let mut line = format!(
        "info depth {} seldepth {} score disc {}",
        info.depth,
        info.seldepth,
        info.score.rounded_discs()
    );
    if info.exact {
        line.push_str(" exact");
    } else if info.selectivity < 100 {
        line.push_str(&format!(" selectivity {}", info.selectivity));
    }
    line.push_str(&format!(
        " nodes {} nps {} time {}",
        info.nodes,
        info.nps(),
        info.elapsed.as_millis()
    ));
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&super::pv_text(&info.pv));
    }
    line
}

/// The `bestmove` line: the move, and the reply expected (to ponder on)
/// when the principal variation goes on past it.
pub fn bestmove_line(done: &SearchDone) -> String {
    let best = match &done.best {
        BestMove::Move(mv) => *mv,
        BestMove::Pass => AnyMove::PASS,
        BestMove::None => return "bestmove none".to_string(),
    };
    let ponder = done
        .info
        .as_ref()
        .filter(|info| info.pv.first() == Some(&best))
        .and_then(|info| info.pv.get(1));
    match ponder {
        Some(reply) => format!("bestmove {best} ponder {reply}"),
        None => format!("bestmove {best}"),
    }
}

fn report_lines(report: &Report) -> Vec<String> {
    vec![match report {
        Report::Info(info) => return info_lines(info),
        Report::Note(text) => format!("info string {text}"),
        Report::Book(note) => format!("info string {note}"),
        Report::Done(done) => bestmove_line(done),
        Report::Perft {
            depth,
            leaves,
            elapsed,
        } => format!(
            "info string perft depth {depth} leaves {leaves} time {}",
            elapsed.as_millis()
        ),
        Report::PerftDone { total, stopped } => {
            format!(
                "info string perft total {total}{}",
                if *stopped { " (stopped)" } else { "" }
            )
        }
    }]
}

/// A UGI session over one engine.
pub struct UgiSession {
    engine: Engine,
    out: Output,
    variant: Variant,
    position: AnyPosition,
    hash_mb: usize,
    overhead_ms: u64,
    selectivity: Selectivity,
    threads: usize,
    multipv: usize,
    /// The `Level` option: `None` at full strength.
    level: Option<Level>,
    /// The `Ponder` option: the GUI may ask for ponder searches (UCI's
    /// convention; `go ponder` is served either way).
    ponder: bool,
    own_book: bool,
    book_randomness: u32,
}

impl UgiSession {
    /// A session writing to `out`, with a fresh engine.
    ///
    /// # Errors
    /// [`StartError`] when the engine cannot start.
    pub fn new(out: Output, evaluators: Arc<Evaluators>) -> Result<UgiSession, StartError> {
        let sink = out.clone();
        let stopper = Arc::new(OnceLock::<Stopper>::new());
        let on_closed = Arc::clone(&stopper);
        let engine = Engine::try_start(
            DEFAULT_HASH_MB,
            evaluators,
            Arc::new(move |report| {
                for line in report_lines(&report) {
                    sink.line(&line);
                }
                // Nobody reads stdout any more: no answer can reach anyone,
                // so an `infinite` or ponder search is not left running.
                if sink.is_closed()
                    && let Some(stopper) = on_closed.get()
                {
                    stopper.stop();
                }
            }),
        )?;
        let _ = stopper.set(engine.stopper());
        Ok(UgiSession {
            engine,
            out,
            variant: Variant::Othello,
            position: AnyPosition::start(Variant::Othello),
            hash_mb: DEFAULT_HASH_MB,
            overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            selectivity: Selectivity::DEFAULT,
            threads: 1,
            multipv: 1,
            level: None,
            ponder: false,
            own_book: true,
            book_randomness: 0,
        })
    }

    fn error(&self, message: impl std::fmt::Display) {
        self.out.line(&format!("info string error: {message}"));
    }

    /// Handles one input line, read at `received`.
    pub fn handle(&mut self, line: &InputLine, received: Instant) -> Flow {
        let text = match line {
            InputLine::Text(text) => text,
            InputLine::TooLong(n) => {
                self.error(format!(
                    "line too long ({n} bytes, limit {}); ignored",
                    super::MAX_LINE_BYTES
                ));
                return Flow::Continue;
            }
            InputLine::NotUtf8 => {
                self.error("line is not valid UTF-8; ignored");
                return Flow::Continue;
            }
        };
        log::debug!("ugi < {}", super::escape(text));
        match command::parse(text) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => self.execute(command, received),
            Err(e) => {
                self.error(e);
                Flow::Continue
            }
        }
    }

    fn execute(&mut self, command: Command, received: Instant) -> Flow {
        match command {
            Command::Ugi => self.identify("ugiok"),
            Command::Uci => self.identify("uciok"),
            Command::IsReady => {
                // Only once a resize or the clearing of a new game is done.
                self.engine.ready();
                self.out.line("readyok");
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => match self.engine.new_game() {
                Ok(()) => self.position = AnyPosition::start(self.variant),
                Err(e) => self.error(format!("uginewgame: {e}")),
            },
            Command::Position { start, moves } => self.set_position(&start, &moves),
            Command::Go(limits, moves) => {
                // A `go` right after `stop` (a ponder miss) is served once the
                // stopped search's `bestmove` is out.
                self.engine.settle();
                if self.engine.is_busy() {
                    self.error(
                        "go: a search is running (send stop first); the running search continues",
                    );
                    return Flow::Continue;
                }
                let searchmoves = moves.as_deref().and_then(|m| self.searchmoves(m));
                let request = GoRequest {
                    position: self.position,
                    limits: GoLimits {
                        selectivity: self.selectivity,
                        threads: self.threads,
                        multipv: self.multipv,
                        searchmoves,
                        level: self.level,
                        // Analysis, even when no move (or none legal) follows.
                        book: self.own_book && moves.is_none(),
                        book_randomness: self.book_randomness,
                        ..limits
                    },
                    received,
                    overhead: Duration::from_millis(self.overhead_ms),
                };
                if let Err(e) = self.engine.go(request) {
                    self.error(format!("go: {e}; the running search continues"));
                }
            }
            Command::Stop => self.engine.stop(),
            Command::PonderHit => {
                if let Err(e) = self.engine.ponderhit(received) {
                    self.error(format!("ponderhit: {e}; ignored"));
                }
            }
            Command::Query(q) => self.query(q),
            Command::Quit => return Flow::Quit,
            Command::Display => self.display(),
            Command::Perft(depth) => {
                if let Err(e) = self.engine.perft(self.position, depth) {
                    self.error(format!("perft: {e}"));
                }
            }
            Command::Eval => self.eval(),
        }
        Flow::Continue
    }

    /// `id` and `option` lines, then `ok` (`ugiok`, or `uciok` for a UCI
    /// tool, which then speaks the same dialect).
    fn identify(&self, ok: &str) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line(&format!("id author {ENGINE_AUTHOR}"));
        let variants: String = Variant::ALL.iter().map(|v| format!(" var {v}")).collect();
        self.out.line(&format!(
            "option name Variant type combo default {}{variants}",
            Variant::Othello
        ));
        self.out.line(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min {MIN_HASH_MB} max {MAX_HASH_MB}"
        ));
        self.out.line(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        self.out.line(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        self.out.line("option name Ponder type check default false");
        self.out.line(&format!(
            "option name Level type spin default {MAX_LEVEL} min 1 max {MAX_LEVEL}"
        ));
        self.out.line(&format!(
            "option name MoveOverhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
        ));
        let levels: String = Selectivity::ALL
            .iter()
            .map(|level| format!(" var {}", level.percent()))
            .collect();
        self.out.line(&format!(
            "option name Selectivity type combo default {}{levels}",
            Selectivity::DEFAULT.percent()
        ));
        self.out.line("option name OwnBook type check default true");
        self.out
            .line("option name BookFile type string default <empty>");
        self.out.line(&format!(
            "option name BookRandomness type spin default 0 min 0 max {MAX_RANDOMNESS}"
        ));
        self.out.line(ok);
    }

    /// `BookFile`: the built-in books for empty (or `<empty>`), else the
    /// built-in ones with this file's book for its game; a file that is no
    /// good leaves the engine without a book.
    fn set_book_file(&mut self, value: &str) {
        let path = value.trim();
        let books = if path.is_empty() || path == "<empty>" {
            Ok(Books::builtin())
        } else {
            Books::with_file(std::path::Path::new(path))
        };
        let books = books.unwrap_or_else(|e| {
            self.error(format!("setoption: {e}; playing without a book"));
            Books::default()
        });
        if let Err(e) = self.engine.set_books(books) {
            self.error(format!("setoption: {e}"));
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        // Right after `stop`, the option waits for that search's `bestmove`.
        self.engine.settle();
        if self.engine.is_busy() {
            self.error(format!(
                "setoption: cannot change '{name}' during a search; ignored"
            ));
            return;
        }
        let key: String = name.chars().filter(|c| !c.is_whitespace()).collect();
        if key.eq_ignore_ascii_case("bookfile") {
            self.set_book_file(value.unwrap_or(""));
            return;
        }
        let Some(value) = value else {
            self.error(format!("setoption: missing value for '{name}'"));
            return;
        };
        let spin =
            |min: u64, max: u64| command::number::<u64>(value).filter(|v| (min..=max).contains(v));
        match key.to_ascii_lowercase().as_str() {
            "variant" => match value.parse::<Variant>() {
                Ok(v) => {
                    if v != self.variant {
                        // A new game of another kind: the table's contents are of no use.
                        let _ = self.engine.new_game();
                    }
                    self.variant = v;
                    self.position = AnyPosition::start(v);
                }
                Err(e) => self.error(format!("setoption: {e}")),
            },
            "hash" => match spin(MIN_HASH_MB as u64, MAX_HASH_MB as u64) {
                Some(mb) => match self.engine.set_hash(mb as usize) {
                    Ok(()) => self.hash_mb = mb as usize,
                    Err(ResizeError::Table(e)) => self.error(format!(
                        "setoption: {e}; keeping the {} MB table",
                        self.hash_mb
                    )),
                    Err(e @ ResizeError::Busy) => self.error(format!("setoption: {e}")),
                },
                None => self.error(format!(
                    "setoption: bad value '{value}' for Hash (expected {MIN_HASH_MB} to {MAX_HASH_MB})"
                )),
            },
            "threads" => match spin(1, MAX_THREADS as u64) {
                Some(n) => self.threads = n as usize,
                None => self.error(format!(
                    "setoption: bad value '{value}' for Threads (expected 1 to {MAX_THREADS})"
                )),
            },
            "multipv" => match spin(1, MAX_MULTIPV as u64) {
                Some(n) => self.multipv = n as usize,
                None => self.error(format!(
                    "setoption: bad value '{value}' for MultiPV (expected 1 to {MAX_MULTIPV}); keeping {}",
                    self.multipv
                )),
            },
            "level" => match spin(1, u64::from(MAX_LEVEL)) {
                Some(n) => self.level = Level::new(n as u8),
                None => self.error(format!(
                    "setoption: bad value '{value}' for Level (expected 1 to {MAX_LEVEL}); keeping {}",
                    self.level.map_or(MAX_LEVEL, Level::number)
                )),
            },
            "ponder" => match value.to_ascii_lowercase().as_str() {
                "true" => self.ponder = true,
                "false" => self.ponder = false,
                _ => self.error(format!(
                    "setoption: bad value '{value}' for Ponder (expected true or false)"
                )),
            },
            "moveoverhead" => match spin(0, MAX_MOVE_OVERHEAD_MS) {
                Some(ms) => self.overhead_ms = ms,
                None => self.error(format!(
                    "setoption: bad value '{value}' for MoveOverhead (expected 0 to {MAX_MOVE_OVERHEAD_MS})"
                )),
            },
            "selectivity" => match command::number::<u8>(value).and_then(Selectivity::from_percent) {
                Some(level) => self.selectivity = level,
                None => self.error(format!(
                    "setoption: bad value '{value}' for Selectivity (expected one of {})",
                    Selectivity::choices()
                )),
            },
            "ownbook" => match value.to_ascii_lowercase().as_str() {
                "true" => self.own_book = true,
                "false" => self.own_book = false,
                _ => self.error(format!(
                    "setoption: bad value '{value}' for OwnBook (expected true or false)"
                )),
            },
            "bookrandomness" => match spin(0, u64::from(MAX_RANDOMNESS)) {
                Some(n) => self.book_randomness = n as u32,
                None => self.error(format!(
                    "setoption: bad value '{value}' for BookRandomness (expected 0 to {MAX_RANDOMNESS})"
                )),
            },
            _ => self.error(format!("setoption: unknown option '{name}'")),
        }
    }

    /// The squares of the `searchmoves` of a `go`, as a set; each word that
    /// is no legal move here gets its own error line and is left out. `None`
    /// (every move) when none was given or none was legal, and for a legal
    /// pass (the only move there: nothing to restrict).
    fn searchmoves(&self, moves: &[String]) -> Option<u64> {
        let legal = self.position.legal_moves();
        let mut set = 0u64;
        let mut pass = false;
        for text in moves {
            let found = self
                .position
                .parse_move(text)
                .ok()
                .filter(|mv| legal.contains(mv));
            match found {
                Some(AnyMove::Othello(Move::Play(square))) => set |= square.bit(),
                Some(AnyMove::TicTacToe(cell)) => set |= 1 << cell.index(),
                Some(AnyMove::Othello(Move::Pass)) => pass = true,
                None => self.error(format!(
                    "go: searchmoves: '{}' is not a legal move here; left out",
                    super::escape(text)
                )),
            }
        }
        (set != 0 && !pass).then_some(set)
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) {
        let base = match start {
            StartPosition::StartPos => AnyPosition::start(self.variant),
            StartPosition::Fen(text) => match AnyPosition::parse(self.variant, text) {
                Ok(p) => p,
                Err(e) => {
                    self.error(format!("position: {e}; position unchanged"));
                    return;
                }
            },
        };
        match base.play_line(moves.iter().map(String::as_str)) {
            Ok(p) => self.position = p,
            Err(e) => self.error(format!("{e}; position unchanged")),
        }
    }

    fn query(&self, q: Query) {
        let answer = match q {
            Query::P1Turn => (self.position.to_move() == Color::Black).to_string(),
            Query::GameOver => self.position.is_over().to_string(),
            Query::Result => match self.position.result() {
                None => "none".to_string(),
                Some(Outcome::Win(Color::Black)) => "p1win".to_string(),
                Some(Outcome::Win(Color::White)) => "p2win".to_string(),
                Some(Outcome::Draw) => "draw".to_string(),
            },
        };
        self.out.line(&format!("response {answer}"));
    }

    fn display(&self) {
        for line in self.position.diagram() {
            self.out.line(&line);
        }
        let (black, white) = self.position.counts();
        self.out.line(&format!("Variant: {}", self.variant));
        self.out.line(&format!("Position: {}", self.position));
        self.out.line(&format!(
            "Side to move: {} ({})  Discs: X {black} O {white}",
            self.position.to_move(),
            if self.position.to_move() == Color::Black {
                "p1"
            } else {
                "p2"
            }
        ));
        let legal = self.position.legal_move_names();
        self.out.line(&format!(
            "Legal moves: {}",
            if legal.is_empty() {
                "none (game over)".to_string()
            } else {
                legal.join(" ")
            }
        ));
    }

    fn eval(&self) {
        match self.engine.evaluators().static_eval(&self.position) {
            Some(score) => self.out.line(&format!(
                "info string eval {score:.2} discs for {}",
                self.position.to_move()
            )),
            None => self.out.line(&format!(
                "info string eval game over, final score {} for X",
                self.position.black_score().unwrap_or(0)
            )),
        }
    }

    /// Ends the session. After `quit` any search is stopped; at the end of
    /// input a bounded search (depth, nodes, move time, clock) runs to its
    /// limit and only an `infinite` or ponder search is stopped. Either way
    /// the `bestmove` is written.
    pub fn finish(self, ended: super::Ended) {
        match ended {
            super::Ended::Quit => self.engine.stop(),
            super::Ended::Input => self.engine.stop_unbounded(),
        }
        self.engine.wait();
        drop(self.engine);
    }
}

/// Runs a UGI session until `quit` or the end of input; the return value is
/// the process exit status.
pub fn run(input: &mut impl BufRead, out: Output, evaluators: Arc<Evaluators>) -> i32 {
    let mut session = match UgiSession::new(out, evaluators) {
        Ok(session) => session,
        Err(e) => return super::start_failed(&e),
    };
    let ended = super::serve(input, |line, at| session.handle(line, at));
    session.finish(ended);
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::Mutex;

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// `readyok` is written only once the engine has finished the table work
    /// the commands before asked for (a resize, the clearing of a new game),
    /// so that the next `go` starts at once.
    #[test]
    fn readyok_waits_for_the_table() {
        let buffer = Buffer::default();
        let mut session = UgiSession::new(
            Output::new(Box::new(buffer.clone())),
            Arc::new(Evaluators::default()),
        )
        .unwrap();
        let now = Instant::now();
        for line in ["setoption name Hash value 256", "uginewgame", "isready"] {
            session.handle(&InputLine::Text(line.into()), now);
        }
        assert_eq!(
            String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap(),
            "readyok\n"
        );
        assert!(
            !session.engine.has_pending_jobs(),
            "readyok came before the table was ready"
        );
        session.finish(crate::protocol::Ended::Quit);
    }

    #[test]
    fn info_line_format() {
        let info = SearchInfo {
            depth: 20,
            seldepth: 21,
            selectivity: 100,
            score: crate::score::Score::from_centi(3800),
            exact: true,
            nodes: 1000,
            elapsed: Duration::from_millis(500),
            pv: ["a2", "b1"]
                .map(|m| AnyMove::parse(Variant::TicTacToe, m).unwrap())
                .to_vec(),
            lines: Vec::new(),
        };
        assert_eq!(
            info_line(&info),
            "info depth 20 seldepth 21 score disc 38 exact nodes 1000 nps 2000 time 500 pv a2 b1"
        );
        let selective = SearchInfo {
            exact: false,
            selectivity: 87,
            ..info
        };
        assert_eq!(
            info_line(&selective),
            "info depth 20 seldepth 21 score disc 38 selectivity 87 nodes 1000 nps 2000 time 500 pv a2 b1"
        );
    }
}
