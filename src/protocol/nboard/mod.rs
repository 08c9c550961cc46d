//! NBoard, the protocol of the Othello GUI of the same name (version 2), as
//! documented in `protocol.md`.
//!
//! The GUI sends its state (`set game`, `move`, `set depth`) then `ping N` and a
//! request (`go`, `hint N`); it ignores every answer until the `pong N` of its
//! latest ping. So the order of lines on stdout matters more here than in any
//! other protocol: this session alone writes them, from one thread that waits
//! both for input (read on a thread of its own) and for the engine's reports
//! (queued on a channel). A command that makes a running search pointless
//! (`ping`, `move`, `set game`, `go`, `hint`, `quit`) stops it and discards its
//! reports up to its `Done` before doing anything else, so no answer of a
//! superseded search can follow a `pong`.
//!
//! NBoard has no error reply: a line Orca cannot use is logged to stderr and
//! ignored, and the session goes on.
//!
//! At the end of input a running `go` runs to its limit and is answered, as
//! UGI answers a bounded `go`; a running hint is dropped, and `quit` drops
//! both.

pub mod command;
pub mod hint;

use std::io::BufRead;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, select};

use crate::engine::{BestMove, Engine, GoLimits, GoRequest, Report, SearchDone, StartError};
use crate::eval::Evaluators;
use crate::game::{AnyMove, AnyPosition, Color, Variant};
use crate::ggf::GgfGame;
use crate::score::Score;
use command::Command;

use super::{Flow, InputLine, Output, SearchSettings, escape, spawn_reader};

/// The name given in `set myname`.
pub const NBOARD_NAME: &str = "Orca";

/// The protocol version Orca speaks (`nboard 2`).
pub const PROTOCOL_VERSION: u32 = 2;

/// Search depth of `go` and `hint` until the GUI sends `set depth`.
pub const DEFAULT_DEPTH: u32 = 12;

/// How an NBoard session is set up.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Table, overhead, selectivity and threads of every search; level and
    /// book for `go` only (hints and analysis stay at full strength and
    /// search).
    pub search: SearchSettings,
}

/// A score in centi-discs as NBoard writes evaluations: discs with two
/// decimals, never an exponent (`-1.50`).
pub fn format_eval(score: Score) -> String {
    format!("{score:.2}")
}

/// A principal variation as NBoard writes it: no spaces, black's moves in
/// upper case and white's in lower case (`F5d6C3`), a pass `PA`. `first` is
/// the colour of the first move.
pub fn format_pv(first: Color, moves: &[AnyMove]) -> String {
    let mut color = first;
    let mut text = String::new();
    for mv in moves {
        if mv.is_pass() {
            text.push_str("PA");
        } else if color == Color::Black {
            text.push_str(&mv.to_string().to_ascii_uppercase());
        } else {
            text.push_str(&mv.to_string());
        }
        color = color.opposite();
    }
    text
}

/// Seconds as NBoard reads them: two decimals.
fn format_seconds(elapsed: Duration) -> String {
    format!("{:.2}", elapsed.as_secs_f64())
}

/// The request a search is running for.
enum Task {
    /// `analyze`: the positions of the game still to value, the last first.
    Analyze {
        /// (moves made, position) of every position not valued yet, in the
        /// order of the game; the last one is searched now.
        plan: Vec<(usize, AnyPosition)>,
        /// The position searched now must pass: the search is of the
        /// position after the pass, its value negated.
        negate: bool,
    },
    /// `go`: answer `===` when the search ends.
    Go,
    /// `hint N`: one multi-PV search of N lines, each iteration written
    /// as `search` lines, then `nodestats`.
    Hint {
        /// Lines asked for.
        wanted: usize,
    },
}

/// An NBoard session over one engine.
pub struct NboardSession {
    engine: Engine,
    reports: Receiver<Report>,
    out: Output,
    game: GgfGame,
    position: AnyPosition,
    depth: u32,
    /// The settings of the command line.
    search: SearchSettings,
    /// Some exactly while a search started here has not made its `Done` report.
    task: Option<Task>,
}

impl NboardSession {
    /// A session writing to `out`, with a fresh engine, at the start of a
    /// standard Othello game.
    ///
    /// # Errors
    /// [`StartError`] when the engine cannot start (its table's memory is not there).
    pub fn new(
        out: Output,
        evaluators: Arc<Evaluators>,
        config: Config,
    ) -> Result<NboardSession, StartError> {
        let (engine, reports) = config.search.start_engine(evaluators)?;
        let start = AnyPosition::start(Variant::Othello);
        Ok(NboardSession {
            engine,
            reports,
            out,
            game: GgfGame::new(start),
            position: start,
            depth: DEFAULT_DEPTH,
            search: config.search,
            task: None,
        })
    }

    /// The engine's reports, for the loop that waits on them.
    pub fn reports(&self) -> Receiver<Report> {
        self.reports.clone()
    }

    /// Handles one input line, read at `received`.
    pub fn handle_line(&mut self, line: &InputLine, received: Instant) -> Flow {
        let text = match line {
            InputLine::Text(text) => text,
            InputLine::TooLong(n) => {
                log::warn!("nboard: ignored a line of {n} bytes (too long)");
                return Flow::Continue;
            }
            InputLine::NotUtf8 => {
                log::warn!("nboard: ignored a line that is not valid UTF-8");
                return Flow::Continue;
            }
        };
        log::debug!("nboard < {}", escape(text));
        match command::parse(text) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => self.execute(command, received),
            Err(e) => {
                log::warn!("{}", escape(&format!("nboard: ignored '{text}': {e}")));
                Flow::Continue
            }
        }
    }

    fn execute(&mut self, command: Command, received: Instant) -> Flow {
        match command {
            Command::Nboard(version) => {
                if version != PROTOCOL_VERSION {
                    log::warn!(
                        "nboard: the GUI speaks version {version}; Orca speaks {PROTOCOL_VERSION}"
                    );
                }
            }
            Command::SetDepth(depth) => {
                self.depth = depth;
                self.out.line(&format!("set myname {NBOARD_NAME}"));
            }
            Command::SetGame(game) => {
                self.cancel();
                self.set_game(*game);
            }
            Command::SetContempt(contempt) => {
                log::debug!(
                    "nboard: contempt {contempt} has no effect: the book values a draw as 0"
                );
            }
            Command::Move(note) => {
                self.cancel();
                match self.game.play(note) {
                    Ok(position) => self.position = position,
                    Err(e) => log::warn!("nboard: ignored move: {}", escape(&e.to_string())),
                }
            }
            Command::Hint(wanted) => {
                self.cancel();
                self.hint(wanted as usize, received);
            }
            Command::Go => {
                self.cancel();
                self.go(received);
            }
            Command::Ping(n) => {
                self.cancel();
                self.out.line(&format!("pong {n}"));
            }
            Command::Learn => self.out.line("learned"),
            Command::Analyze => {
                self.cancel();
                self.analyze();
            }
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    fn set_game(&mut self, game: GgfGame) {
        let position = match game.position() {
            Ok(position) => position,
            Err(e) => {
                log::warn!("nboard: ignored set game: {}", escape(&e.to_string()));
                return;
            }
        };
        if position.variant() != self.position.variant() {
            // What the table learnt about the other game would mislead the search.
            if let Err(e) = self.engine.new_game() {
                log::error!("nboard: cannot clear the table: {e}");
            }
        }
        self.game = game;
        self.position = position;
    }

    /// Stops the running search, if any, and drops its reports up to and
    /// including its `Done`, which the engine guarantees to make.
    fn cancel(&mut self) {
        if self.task.take().is_none() {
            return;
        }
        self.engine.stop();
        loop {
            match self.reports.recv() {
                Ok(Report::Done(_)) | Err(_) => break,
                Ok(_) => {}
            }
        }
    }

    fn go(&mut self, received: Instant) {
        if self.position.is_over() {
            log::warn!("nboard: go: the game is over");
            return;
        }
        let mut limits = GoLimits {
            depth: Some(self.depth),
            ..GoLimits::default()
        };
        self.search.apply(&mut limits);
        for color in [Color::Black, Color::White] {
            let left = match self.game.time_left(color) {
                Ok(Some(left)) => left,
                Ok(None) => continue,
                Err(e) => {
                    log::warn!("nboard: go: clock of {color} ignored: {e}");
                    continue;
                }
            };
            let remaining = Some(left.remaining);
            let increment = Some(left.increment);
            match color {
                Color::Black => (limits.p1time, limits.p1inc) = (remaining, increment),
                Color::White => (limits.p2time, limits.p2inc) = (remaining, increment),
            }
        }
        self.start_search(
            GoRequest {
                position: self.position,
                limits,
                received,
                overhead: self.search.overhead,
            },
            Task::Go,
        );
    }

    fn start_search(&mut self, request: GoRequest, task: Task) {
        match self.engine.go(request) {
            Ok(()) => self.task = Some(task),
            // Every search is stopped and drained before another starts.
            Err(e) => log::error!("nboard: cannot start a search: {e}"),
        }
    }

    /// `analyze`: values every position of the game, from the last one back
    /// (the table then helps the earlier ones), as `analysis <moves made>
    /// <eval>` lines; the eval is for the side to move in that position.
    fn analyze(&mut self) {
        match self.game.positions() {
            Ok(positions) => {
                let plan = positions.into_iter().enumerate().collect();
                self.advance_analysis(plan);
            }
            Err(e) => log::warn!("nboard: analyze: {}", escape(&e.to_string())),
        }
    }

    /// Writes the values of the positions at the end of `plan` that need no
    /// search (the game is over there), then starts the search of the next.
    fn advance_analysis(&mut self, mut plan: Vec<(usize, AnyPosition)>) {
        while let Some(&(made, position)) = plan.last() {
            if let Some(black) = position.black_score() {
                let own = if position.to_move() == Color::Black {
                    black
                } else {
                    -black
                };
                self.out.line(&format!(
                    "analysis {made} {}",
                    format_eval(Score::from_discs(own))
                ));
                plan.pop();
                continue;
            }
            let negate = position.must_pass();
            let searched = if negate {
                match position.play(AnyMove::PASS) {
                    Some(after) => after,
                    None => {
                        plan.pop();
                        continue;
                    }
                }
            } else {
                position
            };
            let request = GoRequest {
                position: searched,
                limits: GoLimits {
                    depth: Some(self.depth),
                    selectivity: self.search.selectivity,
                    threads: self.search.threads,
                    ..GoLimits::default()
                },
                received: Instant::now(),
                overhead: self.search.overhead,
            };
            self.start_search(request, Task::Analyze { plan, negate });
            return;
        }
    }

    /// Starts the multi-PV search of `hint N`.
    fn hint(&mut self, wanted: usize, received: Instant) {
        if self.position.is_over() {
            log::warn!("nboard: hint: the game is over");
            return;
        }
        let wanted = wanted.clamp(1, crate::protocol::ugi::MAX_MULTIPV);
        let request = GoRequest {
            position: self.position,
            limits: GoLimits {
                depth: Some(self.depth),
                selectivity: self.search.selectivity,
                threads: self.search.threads,
                multipv: wanted,
                ..GoLimits::default()
            },
            received,
            overhead: self.search.overhead,
        };
        self.start_search(request, Task::Hint { wanted });
    }

    /// Handles one report of the engine.
    pub fn handle_report(&mut self, report: Report) {
        match report {
            Report::Info(info) => {
                if let Some(Task::Hint { wanted }) = self.task {
                    for line in hint::search_lines(self.position.to_move(), &info, wanted) {
                        self.out.line(&line);
                    }
                } else if matches!(self.task, Some(Task::Go)) {
                    let pv = format_pv(self.position.to_move(), &info.pv);
                    let depth = depth_text(info.depth, info.exact, info.selectivity);
                    self.out.line(&format!(
                        "status {NBOARD_NAME}: depth {depth} eval {} pv {pv}",
                        format_eval(info.score)
                    ));
                }
            }
            // A book move is shown as NBoard shows a search's progress: the
            // move as in a principal variation, the value as an eval.
            Report::Book(note) if matches!(self.task, Some(Task::Go)) => {
                self.out.line(&format!(
                    "status {NBOARD_NAME}: book {} value {} depth {}",
                    format_pv(self.position.to_move(), &[note.mv]),
                    format_eval(Score::from_discs(note.value)),
                    note.depth
                ));
            }
            Report::Book(note) => log::debug!("nboard: {note}"),
            Report::Note(note) => log::debug!("nboard: {note}"),
            Report::Done(done) => match self.task.take() {
                Some(Task::Go) => self.answer(&done),
                Some(Task::Hint { .. }) => self.out.line(&format!(
                    "nodestats {} {}",
                    done.nodes,
                    format_seconds(done.elapsed)
                )),
                Some(Task::Analyze { mut plan, negate }) => {
                    if let (Some((made, _)), Some(info)) = (plan.pop(), &done.info) {
                        let eval = if negate { -info.score } else { info.score };
                        self.out
                            .line(&format!("analysis {made} {}", format_eval(eval)));
                    }
                    self.advance_analysis(plan);
                }
                None => log::debug!("nboard: a search ended with no request waiting"),
            },
            Report::Perft { .. } | Report::PerftDone { .. } => {}
        }
    }

    /// `=== move/eval/seconds` and `nodestats` for a finished `go`.
    fn answer(&self, done: &SearchDone) {
        let mv = match &done.best {
            BestMove::Move(mv) => mv.to_string().to_ascii_uppercase(),
            BestMove::Pass => "PA".to_string(),
            BestMove::None => {
                log::warn!("nboard: go: the game is over");
                return;
            }
        };
        // A move answered without searching (the only legal one, or a pass)
        // gets the static evaluation.
        let score = done
            .info
            .as_ref()
            .map(|info| info.score)
            .or_else(|| self.engine.evaluators().static_eval(&self.position))
            .unwrap_or(Score::ZERO);
        let seconds = format_seconds(done.elapsed);
        self.out
            .line(&format!("=== {mv}/{}/{seconds}", format_eval(score)));
        self.out
            .line(&format!("nodestats {} {seconds}", done.nodes));
    }

    /// The input has ended: a running `go` (always bounded: a depth or a
    /// time) runs to its limit and its answer is written, as UGI answers a
    /// bounded `go` at the end of input; a running hint is dropped.
    pub fn end_of_input(&mut self) {
        if !matches!(self.task, Some(Task::Go)) {
            self.cancel();
            return;
        }
        while self.task.is_some() {
            match self.reports.recv() {
                Ok(report) => self.handle_report(report),
                Err(_) => break,
            }
        }
    }

    /// Ends the session: stops any search (its answer is not written).
    pub fn finish(mut self) {
        self.cancel();
    }
}

/// Runs an NBoard session until `quit` or the end of input; the return value is
/// the process exit status.
pub fn run(
    input: Box<dyn BufRead + Send>,
    out: Output,
    evaluators: Arc<Evaluators>,
    config: Config,
) -> i32 {
    let mut session = match NboardSession::new(out, evaluators, config) {
        Ok(session) => session,
        Err(e) => return super::start_failed(&e),
    };
    let lines = spawn_reader(input);
    let reports = session.reports();
    loop {
        select! {
            recv(lines) -> line => match line {
                Ok(Some(line)) => {
                    if session.handle_line(&line, Instant::now()) == Flow::Quit {
                        break;
                    }
                }
                Ok(None) | Err(_) => {
                    session.end_of_input();
                    break;
                }
            },
            recv(reports) -> report => {
                if let Ok(report) = report {
                    session.handle_report(report);
                }
            }
        }
    }
    session.finish();
    0
}

/// The depth of a search as NBoard shows it: `100%` for an exact score,
/// `D@P%` for a selective search (as Edax writes it), else plain `D`.
fn depth_text(depth: u32, exact: bool, selectivity: u8) -> String {
    if exact {
        "100%".to_string()
    } else if selectivity < 100 {
        format!("{depth}@{selectivity}%")
    } else {
        depth.to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn depths_read_as_nboard_shows_them() {
        assert_eq!(super::depth_text(14, false, 87), "14@87%");
        assert_eq!(super::depth_text(14, false, 100), "14");
        assert_eq!(super::depth_text(20, true, 100), "100%");
    }

    use super::*;

    #[test]
    fn evals_have_two_decimals_and_no_exponent() {
        assert_eq!(format_eval(Score::from_centi(0)), "0.00");
        assert_eq!(format_eval(Score::from_centi(150)), "1.50");
        assert_eq!(format_eval(Score::from_centi(-150)), "-1.50");
        assert_eq!(format_eval(Score::from_centi(-5)), "-0.05");
        assert_eq!(format_eval(Score::from_centi(6400)), "64.00");
    }

    #[test]
    fn pvs_have_no_spaces_and_colour_by_case() {
        let pv = |first, moves: &[&str]| {
            format_pv(
                first,
                &moves
                    .iter()
                    .map(|m| AnyMove::parse(Variant::Othello, m).unwrap())
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(pv(Color::Black, &["f5", "D6", "c3"]), "F5d6C3");
        assert_eq!(pv(Color::White, &["d6", "pass", "c3"]), "d6PAc3");
        assert_eq!(pv(Color::Black, &[]), "");
        assert_eq!(format_seconds(Duration::from_millis(1234)), "1.23");
    }
}
