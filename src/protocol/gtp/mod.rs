//! GTP, the Go Text Protocol (version 2) with Othello coordinates: the protocol
//! of the match runners that pit Othello engines against each other, as
//! documented in `protocol.md`.
//!
//! GTP is strictly one reply per command, in order, so this session runs on the
//! reading thread: `genmove` starts a search through the same engine API as
//! UGI and waits for its `Done` on a channel before answering. Every reply is
//! `=[id] result` or `?[id] message` followed by an empty line; nothing else is
//! ever written to stdout (search progress goes to the debug log).
//!
//! Match runners leave passes out: when a side has no move they ask the other
//! colour again. So `play` and `genmove` for the side that is not to move put
//! in the pass of the side to move when it has none, and refuse otherwise.

pub mod clock;
pub mod command;

use std::io::BufRead;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;

use crate::engine::{BestMove, Engine, GoLimits, GoRequest, Report, SearchDone, StartError};
use crate::eval::Evaluators;
use crate::game::position::LineErrorKind;
use crate::game::square::is_pass_token;
use crate::game::{AnyMove, AnyPosition, Color, Variant};
use clock::GtpClock;
use command::{COMMANDS, Command};

use super::{Flow, InputLine, Output, SearchSettings, pv_text};

/// The name `name` answers.
pub const GTP_NAME: &str = "Orca";

/// Time per move without a time control, unless a depth is set instead.
pub const DEFAULT_MOVETIME_MS: u64 = 1_000;

/// How a GTP session is set up (the `orca gtp` flags).
#[derive(Clone, Debug)]
pub struct Config {
    /// The game at start-up (`variant` changes it).
    pub variant: Variant,
    /// Time per move when no time control is set.
    pub movetime: Option<Duration>,
    /// Deepest search of every `genmove`, also under a time control.
    pub depth: Option<u32>,
    /// Table, overhead, selectivity, threads, level and book of every
    /// `genmove`.
    pub search: SearchSettings,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            variant: Variant::Othello,
            movetime: Some(Duration::from_millis(DEFAULT_MOVETIME_MS)),
            depth: None,
            search: SearchSettings::default(),
        }
    }
}

/// The board size `boardsize` accepts for a game.
fn board_size(variant: Variant) -> u32 {
    match variant {
        Variant::Othello | Variant::Reversed => 8,
        Variant::TicTacToe => 3,
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A GTP session over one engine.
pub struct GtpSession {
    engine: Engine,
    reports: Receiver<Report>,
    out: Output,
    config: Config,
    variant: Variant,
    position: AnyPosition,
    /// The position before each `play` and `genmove`, for `undo`.
    history: Vec<AnyPosition>,
    clock: GtpClock,
}

impl GtpSession {
    /// A session writing to `out`, with a fresh engine and an empty board.
    ///
    /// # Errors
    /// [`StartError`] when the engine cannot start (its table's memory is not there).
    pub fn new(
        out: Output,
        evaluators: Arc<Evaluators>,
        config: Config,
    ) -> Result<GtpSession, StartError> {
        let (engine, reports) = config.search.start_engine(evaluators)?;
        Ok(GtpSession {
            engine,
            reports,
            out,
            variant: config.variant,
            position: AnyPosition::start(config.variant),
            config,
            history: Vec::new(),
            clock: GtpClock::default(),
        })
    }

    /// Handles one input line, read at `received`: writes its reply.
    pub fn handle(&mut self, line: &InputLine, received: Instant) -> Flow {
        let text = match line {
            InputLine::Text(text) => text,
            InputLine::TooLong(n) => {
                self.reply(
                    None,
                    Err(format!(
                        "line too long ({n} bytes, limit {})",
                        super::MAX_LINE_BYTES
                    )),
                );
                return Flow::Continue;
            }
            InputLine::NotUtf8 => {
                self.reply(None, Err("line is not valid UTF-8".into()));
                return Flow::Continue;
            }
        };
        log::debug!("gtp < {}", super::escape(text));
        let Some(request) = command::parse(text) else {
            return Flow::Continue;
        };
        let mut flow = Flow::Continue;
        let result = match request.command {
            Ok(Command::Quit) => {
                flow = Flow::Quit;
                Ok(String::new())
            }
            Ok(command) => self.execute(command, received),
            Err(e) => Err(e.to_string()),
        };
        self.reply(request.id, result);
        flow
    }

    /// `=[id] text` or `?[id] message`, then the empty line that ends a reply.
    fn reply(&self, id: Option<u32>, result: Result<String, String>) {
        let (prefix, text) = match result {
            Ok(text) => ('=', text),
            Err(message) => {
                log::debug!("gtp: ? {message}");
                ('?', message)
            }
        };
        let id = id.map(|id| id.to_string()).unwrap_or_default();
        let mut lines = text.lines();
        match lines.next() {
            Some(first) if !first.is_empty() => self.out.line(&format!("{prefix}{id} {first}")),
            _ => self.out.line(&format!("{prefix}{id}")),
        }
        for line in lines {
            self.out.line(line);
        }
        self.out.line("");
    }

    fn execute(&mut self, command: Command, received: Instant) -> Result<String, String> {
        match command {
            Command::ProtocolVersion => Ok("2".into()),
            Command::Name => Ok(GTP_NAME.into()),
            Command::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            Command::KnownCommand(name) => {
                // Names are read whatever their case, as the commands are.
                let known = COMMANDS.iter().any(|c| c.eq_ignore_ascii_case(&name));
                Ok(known.to_string())
            }
            Command::ListCommands => Ok(COMMANDS.join("\n")),
            // Handled before: the reply comes first, then the session ends.
            Command::Quit => Ok(String::new()),
            Command::BoardSize(size) => {
                if size == board_size(self.variant) {
                    self.clear_board();
                    Ok(String::new())
                } else {
                    Err("unacceptable size".into())
                }
            }
            Command::ClearBoard => {
                self.clear_board();
                Ok(String::new())
            }
            Command::Komi(_) => Ok(String::new()),
            Command::Play { color, vertex } => self.play(color, &vertex),
            Command::Genmove(color) => self.genmove(color, received),
            Command::Undo => match self.history.pop() {
                Some(previous) => {
                    self.position = previous;
                    Ok(String::new())
                }
                None => Err("cannot undo".into()),
            },
            Command::ShowBoard => Ok(self.show_board()),
            Command::FinalScore => match self.position.black_score() {
                Some(score) if score > 0 => Ok(format!("B+{score}")),
                Some(score) if score < 0 => Ok(format!("W+{}", -score)),
                Some(_) => Ok("0".into()),
                None => Err("game is not over".into()),
            },
            Command::TimeSettings(settings) => {
                self.clock.set(settings);
                Ok(String::new())
            }
            Command::TimeLeft {
                color,
                left,
                stones,
            } => {
                self.clock.report(color, left, stones);
                Ok(String::new())
            }
            Command::Variant(None) => Ok(self.variant.to_string()),
            Command::Variant(Some(variant)) => {
                self.variant = variant;
                self.clear_board();
                Ok(String::new())
            }
        }
    }

    /// A new game of the current variant: empty history, full clocks, and a
    /// table that remembers nothing of the last game.
    fn clear_board(&mut self) {
        self.position = AnyPosition::start(self.variant);
        self.history.clear();
        self.clock.new_game();
        if let Err(e) = self.engine.new_game() {
            log::error!("gtp: cannot clear the table: {e}");
        }
    }

    /// The position where `color` moves: the current one, or after the forced
    /// pass of the side to move when `color` is not to move.
    fn turn_of(&self, color: Color) -> Result<AnyPosition, String> {
        if self.position.is_over() {
            return Err("illegal move".into());
        }
        if self.position.to_move() == color {
            return Ok(self.position);
        }
        if self.position.must_pass() {
            return self
                .position
                .play_line(["pass"])
                .map_err(|e| format!("illegal move ({e})"));
        }
        log::debug!(
            "gtp: {} is to move and has a move, not {}",
            color_name(self.position.to_move()),
            color_name(color)
        );
        Err("illegal move".into())
    }

    fn play(&mut self, color: Color, vertex: &str) -> Result<String, String> {
        // The form of the move before what the position allows: a line with
        // both faults gets the first one met reading it.
        if let Err(e) = self.position.parse_move(vertex) {
            return Err(format!("syntax error ({e})"));
        }
        let position = self.turn_of(color)?;
        // A move token on a position that must pass would be read as the
        // opponent's move after the pass: refuse it here.
        if position.must_pass() && !is_pass_token(vertex) {
            return Err("illegal move".into());
        }
        match position.play_line([vertex]) {
            Ok(after) => {
                self.history.push(self.position);
                self.position = after;
                Ok(String::new())
            }
            Err(e) => match e.kind {
                LineErrorKind::NotAMove(not_a_move) => Err(format!("syntax error ({not_a_move})")),
                LineErrorKind::Illegal | LineErrorKind::GameOver => Err("illegal move".into()),
            },
        }
    }

    fn genmove(&mut self, color: Color, received: Instant) -> Result<String, String> {
        if self.position.is_over() {
            return Ok("pass".into());
        }
        let position = self.turn_of(color).map_err(|_| {
            format!(
                "{} is to move and has a move",
                color_name(self.position.to_move())
            )
        })?;
        let limits = self.limits(color);
        let request = GoRequest {
            position,
            limits,
            received,
            overhead: self.config.search.overhead,
        };
        self.engine.go(request).map_err(|e| e.to_string())?;
        let done = self.wait_done()?;
        let mv = match done.best {
            BestMove::Move(mv) => mv,
            BestMove::Pass | BestMove::None => AnyMove::PASS,
        };
        let after = position
            .play(mv)
            .ok_or_else(|| format!("engine move {mv} does not play: illegal move"))?;
        // The runner's clock also runs while the lines travel; the overhead
        // stands for that part, which Orca cannot time.
        self.clock
            .charge(color, received.elapsed() + self.config.search.overhead);
        self.history.push(self.position);
        self.position = after;
        Ok(mv.to_string())
    }

    /// The limits of a `genmove` for `color`: the clock if there is one, else
    /// the start-up movetime; the start-up depth, selectivity and threads in
    /// both cases.
    fn limits(&self, color: Color) -> GoLimits {
        let mut limits = self.clock.limits(color).unwrap_or(GoLimits {
            movetime: self.config.movetime,
            ..GoLimits::default()
        });
        limits.depth = self.config.depth;
        self.config.search.apply(&mut limits);
        limits
    }

    /// The `Done` of the running search; its progress goes to the debug log.
    fn wait_done(&self) -> Result<SearchDone, String> {
        loop {
            match self.reports.recv() {
                Ok(Report::Done(done)) => return Ok(done),
                Ok(Report::Info(info)) => log::debug!(
                    "gtp: depth {} score {} nodes {} pv {}",
                    info.depth,
                    info.score,
                    info.nodes,
                    pv_text(&info.pv)
                ),
                Ok(Report::Note(note)) => log::info!("gtp: {note}"),
                Ok(Report::Book(note)) => log::info!("gtp: {note}"),
                Ok(_) => {}
                Err(_) => return Err("the search thread is gone".into()),
            }
        }
    }

    /// The board, who is to move and the disc counts; the first line is empty
    /// so that the board starts on a line of its own after `=`.
    fn show_board(&self) -> String {
        let mut lines = vec![String::new()];
        lines.extend(self.position.diagram());
        let (black, white) = self.position.counts();
        let state = match self.position.black_score() {
            Some(score) => format!("game over, black's score {score}"),
            None => format!("{} to move", color_name(self.position.to_move())),
        };
        lines.push(format!("{}: {state}; X {black}, O {white}", self.variant));
        lines.join("\n")
    }
}

/// Runs a GTP session until `quit` or the end of input; the return value is
/// the process exit status.
pub fn run(
    input: &mut impl BufRead,
    out: Output,
    evaluators: Arc<Evaluators>,
    config: Config,
) -> i32 {
    let mut session = match GtpSession::new(out, evaluators, config) {
        Ok(session) => session,
        Err(e) => return super::start_failed(&e),
    };
    super::serve(input, |line, at| session.handle(line, at));
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

    fn config() -> Config {
        Config {
            depth: Some(2),
            movetime: None,
            search: SearchSettings {
                hash_mb: 1,
                ..SearchSettings::default()
            },
            ..Config::default()
        }
    }

    fn output(buffer: &Buffer) -> String {
        String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap()
    }

    /// The replies to a whole input, each without its final empty line.
    fn replies(input: &str) -> Vec<String> {
        let buffer = Buffer::default();
        run(
            &mut input.as_bytes(),
            Output::new(Box::new(buffer.clone())),
            Arc::new(Evaluators::default()),
            config(),
        );
        let text = output(&buffer);
        assert!(text.ends_with("\n\n"), "{text:?}");
        text.trim_end_matches("\n\n")
            .split("\n\n")
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn replies_with_ids_and_empty_lines() {
        assert_eq!(
            replies("1 protocol_version\nname\n\n# comment\n3 fly\nquit\nname\n"),
            ["=1 2", "= Orca", "?3 unknown command", "="]
        );
    }

    #[test]
    fn turns_are_checked_and_undo_takes_back() {
        let input = "variant tictactoe\nplay x a1\nplay b a1\nplay white a1\nplay white b2\n\
                     play w c3\nplay b zz\nundo\nundo\nundo\nshowboard\n";
        let replies = replies(input);
        assert_eq!(
            replies[..9],
            [
                "=",
                "? syntax error (play takes a colour (black or white) and a move)",
                "=",
                "? illegal move",
                "=",
                "? illegal move",
                "? syntax error ('zz' is not a move (expected a column a-c and a row 1-3, like b2))",
                "=",
                "=",
            ]
        );
        assert_eq!(replies[9], "? cannot undo");
        assert!(replies[10].starts_with("=\n"), "{:?}", replies[10]);
        assert!(
            replies[10].ends_with("tictactoe: black to move; X 0, O 0"),
            "{:?}",
            replies[10]
        );
    }

    #[test]
    fn forced_passes_are_inserted_for_play_and_genmove() {
        let buffer = Buffer::default();
        let mut session = GtpSession::new(
            Output::new(Box::new(buffer.clone())),
            Arc::new(Evaluators::default()),
            config(),
        )
        .unwrap();
        // Black has no move; white has h8 only.
        let pass = AnyPosition::parse(
            Variant::Othello,
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X",
        )
        .unwrap();
        let now = Instant::now();
        let line = |text: &str| InputLine::Text(text.to_string());
        session.position = pass;
        session.handle(&line("genmove white"), now);
        assert!(session.position.is_over());
        session.handle(&line("final_score"), now);
        session.handle(&line("undo"), now);
        assert_eq!(session.position, pass, "undo takes back the pass too");
        session.handle(&line("play black f5"), now);
        session.handle(&line("play white H8"), now);
        session.handle(&line("genmove black"), now);
        assert_eq!(
            output(&buffer),
            "= h8\n\n= B+58\n\n=\n\n? illegal move\n\n=\n\n= pass\n\n"
        );
    }
}
