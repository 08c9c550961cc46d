//! `orca play`: a person plays Orca in the terminal, two people play each other
//! with Orca's hints, or a person watches Orca play itself.
//!
//! This is the terminal side only: the arguments, the prompt and its echo, the
//! "thinking" indicator while the engine searches, and the `--save` file. The
//! game itself (turns, undo, results, records, the board picture) lives in
//! [`orca::play`], where it is tested without a terminal. Everything goes to
//! stdout, so a piped game reads as a transcript; stdin may be a pipe too, one
//! move or command a line.

use std::fs;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use clap::Args;
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use orca::duration::parse_movetime;
use orca::engine::{
    BestMove, DEFAULT_HASH_MB, Engine, GoLimits, GoRequest, Report, SearchDone, SearchInfo,
};
use orca::eval::Evaluators;
use orca::game::wording::side_name;
use orca::game::{AnyPosition, Color, Variant};
use orca::ggf::date as ggf_date;
use orca::play::render::{score_text, screen, side_with_letter};
use orca::play::{Input, Seating, Style, parse_input};
use orca::protocol::{InputLine, read_line};
use orca::search::time::DEFAULT_MOVE_OVERHEAD_MS;
use orca::session::{CursorError, OrcaMove, Session, Turn};

/// Orca's thinking time per move when neither `--movetime` nor `--depth` is given.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

/// How often the thinking indicator moves.
const SPINNER_PERIOD: Duration = Duration::from_millis(120);

/// Arguments of `orca play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Which game: othello, reversed (fewest discs wins) or tictactoe.
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Your side: black (moves first), white, both (two people at one
    /// terminal) or none (watch Orca play itself).
    #[arg(long, default_value = "black")]
    color: Seating,
    /// Orca's thinking time per move [default: 1s].
    #[arg(long, value_name = "TIME", value_parser = parse_movetime, conflicts_with = "depth")]
    movetime: Option<Duration>,
    /// Search this many plies per move instead of thinking for a time.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Selectivity of Orca's Othello search, as the UGI `Selectivity`
    /// option: 73, 87, 95, 99 or 100 (full width).
    #[arg(long, value_name = "PERCENT", default_value = "73", value_parser = super::parse_selectivity)]
    selectivity: orca::search::Selectivity,
    /// Search threads of Orca's search (1 to 256).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::threads())]
    threads: usize,
    /// Mark and list the legal moves on your turn.
    #[arg(long)]
    hints: bool,
    /// Orca's strength, 1 (weakest) to 20 (full strength, the default):
    /// below 20 it searches only as many plies as the level and plays a
    /// random move among those close to the best, so that it can be beaten.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=20))]
    level: Option<u8>,
    /// Plain ASCII, no colour (also when stdout is not a terminal or NO_COLOR is set).
    #[arg(long)]
    no_color: bool,
    /// Write the game record to FILE as GGF when the game ends or is left
    /// (Othello and reversed Othello; GGF has no tic-tac-toe).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    #[command(flatten)]
    book: super::BookFlags,
    #[command(flatten)]
    pub(super) eval: super::EvalArgs,
}

/// Plays until the person quits or input ends; returns the exit status.
pub fn run(args: &PlayArgs, evaluators: Arc<Evaluators>) -> i32 {
    if args.save.is_some() && args.variant == Variant::TicTacToe {
        eprintln!(
            "orca play: --save writes GGF, a format for Othello games; tic-tac-toe games cannot be saved"
        );
        return 2;
    }
    if let Some(path) = &args.save
        && let Err(e) = check_writable(path)
    {
        eprintln!("orca play: --save {}: {e}", path.display());
        return 2;
    }
    let level = args.level.and_then(orca::engine::Level::new);
    let book = args.book.settings();
    let limits = match args.depth {
        Some(depth) => GoLimits {
            depth: Some(depth),
            selectivity: args.selectivity,
            threads: args.threads,
            level,
            book: book.enabled,
            book_randomness: book.randomness,
            ..GoLimits::default()
        },
        None => GoLimits {
            movetime: Some(args.movetime.unwrap_or(DEFAULT_MOVETIME)),
            selectivity: args.selectivity,
            threads: args.threads,
            level,
            book: book.enabled,
            book_randomness: book.randomness,
            ..GoLimits::default()
        },
    };
    let terminal = Terminal {
        input: io::stdin().lock(),
        output: io::stdout().lock(),
        echo: !io::stdin().is_terminal(),
        animate: io::stdout().is_terminal(),
        style: Style {
            color: colour_allowed(args.no_color),
        },
    };
    let session = Session::new(args.variant, args.color.seats());
    let mut game = TerminalGame::new(
        session,
        limits,
        args.hints,
        args.save.clone(),
        terminal,
        evaluators,
    );
    if let Some(books) = book.books {
        // A fresh engine is idle: this cannot be refused.
        let _ = game.engine.set_books(books);
    }
    match game.run() {
        Ok(status) => status,
        Err(e) => {
            // Nobody reads stdout any more: there is no one left to play with.
            log::debug!("orca play: output closed: {e}");
            0
        }
    }
}

/// Whether the record can be written to `path`, found before the game rather
/// than after it. A file made only for the check is removed again.
fn check_writable(path: &Path) -> io::Result<()> {
    let existed = fs::symlink_metadata(path).is_ok();
    fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)?;
    if !existed {
        fs::remove_file(path)?;
    }
    Ok(())
}

/// Colour only for a terminal, unless `--no-color`, `NO_COLOR` or `TERM=dumb`
/// say otherwise.
fn colour_allowed(no_color_flag: bool) -> bool {
    let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
    !no_color_flag && !no_color_env && !dumb && io::stdout().is_terminal()
}

/// What the prompt loop does after a line of input.
enum Flow {
    /// Ask again; nothing on the board changed.
    Stay,
    /// The game changed: show the board, then go on.
    Redraw,
    /// Leave.
    Quit,
}

/// The two ends of the terminal and what they allow.
struct Terminal<R: BufRead, W: Write> {
    input: R,
    output: W,
    /// Input does not come from a terminal, so it is not echoed: write it after
    /// the prompt so that the transcript reads like a session.
    echo: bool,
    /// Output is a terminal: the thinking indicator may redraw its line.
    animate: bool,
    style: Style,
}

/// A game at the terminal: the session, the engine that plays and hints, and
/// the terminal.
struct TerminalGame<R: BufRead, W: Write> {
    session: Session,
    engine: Engine,
    reports: Receiver<Report>,
    limits: GoLimits,
    hints: bool,
    save: Option<PathBuf>,
    /// The file holds the game as it is now (or there is nothing to save).
    record_saved: bool,
    /// The result of the finished game has been shown.
    end_reported: bool,
    terminal: Terminal<R, W>,
}

impl<R: BufRead, W: Write> TerminalGame<R, W> {
    /// A game with its own engine, which searches with `limits` for Orca's
    /// moves and for hints.
    fn new(
        session: Session,
        limits: GoLimits,
        hints: bool,
        save: Option<PathBuf>,
        terminal: Terminal<R, W>,
        evaluators: Arc<Evaluators>,
    ) -> Self {
        let (sender, reports) = unbounded();
        let engine = Engine::start(
            DEFAULT_HASH_MB,
            evaluators,
            Arc::new(move |report| {
                // The receiver outlives every search; a send fails only at exit.
                let _ = sender.send(report);
            }),
        );
        TerminalGame {
            session,
            engine,
            reports,
            limits,
            hints,
            save,
            record_saved: true,
            end_reported: false,
            terminal,
        }
    }

    fn variant(&self) -> Variant {
        self.session.variant()
    }

    fn say(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.terminal.output, "{text}")?;
        self.terminal.output.flush()
    }

    /// Plays turns until the person leaves; the exit status.
    fn run(&mut self) -> io::Result<i32> {
        self.introduce()?;
        let mut show_board = true;
        loop {
            let turn = self.session.turn();
            // A forced pass is announced before the board, which then shows
            // the turn of the side that can move.
            if show_board && !matches!(turn, Turn::ForcedPass(_)) {
                self.show_board()?;
                show_board = false;
            }
            let flow = match turn {
                Turn::ForcedPass(color) => {
                    let side = side_name(self.variant(), color);
                    self.say(&format!("{side} has no legal move and passes."))?;
                    if let Err(e) = self.session.play_forced_pass() {
                        log::error!("orca play: forced pass refused: {e}");
                        return Ok(1);
                    }
                    self.record_saved = false;
                    Flow::Redraw
                }
                Turn::Orca(color) => {
                    if !self.orca_moves(color)? {
                        return Ok(1);
                    }
                    Flow::Redraw
                }
                Turn::Over => {
                    if !self.end_reported {
                        self.report_end()?;
                    }
                    if Seating::of(self.session.seats()) == Seating::OrcaAlone {
                        return Ok(0);
                    }
                    match self.next_input("Game over")? {
                        Some(line) => self.handle(line)?,
                        None => return Ok(0),
                    }
                }
                Turn::Person(color) => match self.next_input(side_name(self.variant(), color))? {
                    Some(line) => self.handle(line)?,
                    None => {
                        self.say("End of input: the game was left unfinished.")?;
                        self.leave_game()?;
                        return Ok(0);
                    }
                },
            };
            match flow {
                Flow::Stay => {}
                Flow::Redraw => show_board = true,
                Flow::Quit => return Ok(0),
            }
        }
    }

    fn introduce(&mut self) -> io::Result<()> {
        let variant = self.variant();
        self.say(match variant {
            Variant::Othello => "Othello: the most discs wins.",
            Variant::Reversed => "Reversed Othello: the fewest discs wins.",
            Variant::TicTacToe => "Tic-tac-toe: three in a row wins.",
        })?;
        let strength = match (self.limits.depth, self.limits.movetime) {
            (Some(1), _) => "searching 1 ply a move".to_string(),
            (Some(depth), _) => format!("searching {depth} plies a move"),
            (None, Some(time)) => {
                format!("thinking {} s a move", time.as_millis() as f64 / 1000.0)
            }
            (None, None) => "thinking".to_string(),
        };
        let strength = match self.limits.level {
            Some(level) => format!("at level {} of 20, {strength}", level.number()),
            None => strength,
        };
        let black = side_with_letter(variant, Color::Black);
        let white = side_with_letter(variant, Color::White);
        let seats = match Seating::of(self.session.seats()) {
            Seating::PersonBlack => format!("You play {black}; Orca plays {white}, {strength}."),
            Seating::PersonWhite => format!("You play {white}; Orca plays {black}, {strength}."),
            Seating::TwoPeople => format!(
                "Two players: {black} and {white} take turns; Orca gives hints, {strength}."
            ),
            Seating::OrcaAlone => format!("Orca plays both sides, {strength}."),
        };
        self.say(&seats)?;
        if Seating::of(self.session.seats()) != Seating::OrcaAlone {
            let example = example_move(variant);
            self.say(&format!(
                "Type a move like {example}, or help for the commands."
            ))?;
        }
        Ok(())
    }

    fn show_board(&mut self) -> io::Result<()> {
        let lines = screen(&self.session, self.hints, self.terminal.style);
        writeln!(self.terminal.output)?;
        for line in lines {
            writeln!(self.terminal.output, "{line}")?;
        }
        self.terminal.output.flush()
    }

    /// Shows the prompt and reads a line; `None` at the end of input.
    fn next_input(&mut self, prompt: &str) -> io::Result<Option<InputLine>> {
        write!(self.terminal.output, "{prompt}> ")?;
        self.terminal.output.flush()?;
        let line = read_line(&mut self.terminal.input).unwrap_or_else(|e| {
            log::warn!("orca play: cannot read input: {e}");
            None
        });
        match &line {
            None => writeln!(self.terminal.output)?,
            Some(line) if self.terminal.echo => {
                writeln!(self.terminal.output, "{}", echo_text(line))?
            }
            Some(_) => {}
        }
        self.terminal.output.flush()?;
        Ok(line)
    }

    /// Acts on a line typed on a person's turn or after the game ended.
    fn handle(&mut self, line: InputLine) -> io::Result<Flow> {
        let text = match line {
            InputLine::Text(text) => text,
            InputLine::TooLong(bytes) => {
                self.say(&format!(
                    "Not understood: a line of {bytes} bytes is too long (type help)."
                ))?;
                return Ok(Flow::Stay);
            }
            InputLine::NotUtf8 => {
                self.say("Not understood: that line is not text (type help).")?;
                return Ok(Flow::Stay);
            }
        };
        let over = self.session.turn() == Turn::Over;
        match parse_input(&text) {
            Err(e) => self.say(&format!("Not understood: {e}."))?,
            Ok(Input::Nothing) => {}
            Ok(Input::Help) => self.help()?,
            Ok(Input::Quit) => {
                if !over {
                    self.say("Game left unfinished.")?;
                    self.leave_game()?;
                }
                return Ok(Flow::Quit);
            }
            Ok(Input::New) => {
                if !over && !self.session.moves().is_empty() {
                    self.say("Game left unfinished.")?;
                    self.leave_game()?;
                }
                self.session.restart();
                if let Err(e) = self.engine.new_game() {
                    log::warn!("orca play: table not cleared: {e}");
                }
                self.record_saved = true;
                self.end_reported = false;
                self.say("New game.")?;
                return Ok(Flow::Redraw);
            }
            Ok(Input::Undo) => {
                let undone = self.session.undo();
                return self.stepped(undone, "Took back", "undo");
            }
            Ok(Input::Redo) => {
                let redone = self.session.redo();
                return self.stepped(redone, "Played", "redo");
            }
            Ok(Input::Hint | Input::Move(_)) if over => {
                self.say("The game is over: type new, undo or quit.")?;
            }
            Ok(Input::Hint) => self.hint()?,
            Ok(Input::Move(text)) => match self.session.play_person(&text) {
                Ok(()) => {
                    self.record_saved = false;
                    return Ok(Flow::Redraw);
                }
                Err(e) => self.say(&format!("Not played: {e}."))?,
            },
        }
        Ok(Flow::Stay)
    }

    /// Says what undo or redo did: `COUNT moves` after `done` (and "again"
    /// for redo), or why there was nothing to `what`; redraws after a step.
    fn stepped(
        &mut self,
        result: Result<usize, CursorError>,
        done: &str,
        what: &str,
    ) -> io::Result<Flow> {
        match result {
            Ok(count) => {
                let moves = if count == 1 { "move" } else { "moves" };
                let again = if what == "redo" { " again" } else { "" };
                self.say(&format!("{done} {count} {moves}{again}."))?;
                self.record_saved = false;
                self.end_reported = false;
                Ok(Flow::Redraw)
            }
            Err(e) => {
                self.say(&format!("Nothing to {what}: {e}."))?;
                Ok(Flow::Stay)
            }
        }
    }

    fn help(&mut self) -> io::Result<()> {
        let example = example_move(self.variant());
        self.say(&format!(
            "A move is a column letter and a row number, like {example} (any case)."
        ))?;
        if self.variant() != Variant::TicTacToe {
            self.say("A pass is played for you when you have no legal move.")?;
        }
        let commands = [
            "  hint   Orca's best move for the side to move, with its score",
            "  undo   take back moves to your previous turn",
            "  redo   play again the moves taken back",
            "  new    start a new game",
            "  help   this list",
            "  quit   leave (so does the end of input)",
        ];
        for line in commands {
            self.say(line)?;
        }
        Ok(())
    }

    /// Orca searches and plays for `color`; false when it could not.
    fn orca_moves(&mut self, color: Color) -> io::Result<bool> {
        let who = format!("Orca ({})", side_name(self.variant(), color));
        let Some(done) = self.search(self.session.position(), &who, false)? else {
            self.say(&format!("{who} could not search."))?;
            return Ok(false);
        };
        let BestMove::Move(mv) = done.best else {
            log::error!("orca play: the search answered {:?} to a move", done.best);
            self.say(&format!("{who} found no move to play."))?;
            return Ok(false);
        };
        let info = done.info.as_ref();
        let orca = OrcaMove {
            mv,
            score: info.map(|info| info.score),
            exact: info.is_some_and(|info| info.exact),
            book: false,
            seconds: done.elapsed.as_secs_f64(),
        };
        if let Err(e) = self.session.play_orca(orca) {
            log::error!("orca play: the search chose {mv}: {e}");
            self.say(&format!("{who} chose {mv}, which cannot be played: {e}."))?;
            return Ok(false);
        }
        self.record_saved = false;
        let why = describe(self.variant(), done.info.as_ref());
        self.say(&format!("{who} plays {mv} ({why})"))?;
        Ok(true)
    }

    fn hint(&mut self) -> io::Result<()> {
        let position = self.session.position();
        let side = side_name(self.variant(), position.to_move());
        match self.search(position, "Orca", true)? {
            Some(SearchDone {
                best: BestMove::Move(mv),
                info,
                ..
            }) => {
                let why = describe(self.variant(), info.as_ref());
                self.say(&format!("Hint for {side}: {mv} ({why})"))
            }
            _ => self.say("No hint: the search found no move."),
        }
    }

    /// Runs one search with the game's limits while showing that Orca thinks
    /// (a hint at full strength, whatever Orca's level); `None` if the
    /// engine could not search.
    fn search(
        &mut self,
        position: AnyPosition,
        who: &str,
        hint: bool,
    ) -> io::Result<Option<SearchDone>> {
        let limits = if hint {
            GoLimits {
                level: None,
                ..self.limits
            }
        } else {
            self.limits
        };
        let request = GoRequest {
            position,
            limits,
            received: Instant::now(),
            overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
        };
        if let Err(e) = self.engine.go(request) {
            log::error!("orca play: {e}");
            return Ok(None);
        }
        let mut spinner = Spinner::default();
        if !self.terminal.animate {
            self.say(&format!("{who} is thinking..."))?;
        }
        loop {
            let report = self.reports.recv_timeout(SPINNER_PERIOD);
            let answer = match report {
                Ok(Report::Done(done)) => Some(Some(done)),
                Ok(Report::Info(info)) => {
                    spinner.latest = Some(info);
                    None
                }
                Ok(Report::Note(note)) => {
                    log::debug!("orca play: {note}");
                    None
                }
                Ok(Report::Book(note)) => {
                    log::debug!("orca play: {note}");
                    None
                }
                Ok(_) | Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => Some(None),
            };
            if let Some(answer) = answer {
                if self.terminal.animate {
                    spinner.clear(&mut self.terminal.output)?;
                }
                return Ok(answer);
            }
            if self.terminal.animate {
                spinner.draw(&mut self.terminal.output, who, request.received.elapsed())?;
            }
        }
    }

    /// The end of a finished game: counts, result, moves, record.
    fn report_end(&mut self) -> io::Result<()> {
        self.end_reported = true;
        let variant = self.variant();
        if variant != Variant::TicTacToe {
            let (black, white) = self.session.position().counts();
            self.say(&format!(
                "Final count: {} {black}, {} {white}.",
                side_with_letter(variant, Color::Black),
                side_with_letter(variant, Color::White)
            ))?;
        }
        if let Some(result) = self.session.result_line() {
            self.say(&result)?;
        }
        self.print_moves()?;
        self.save_record()
    }

    /// A game left before its end: its moves and record.
    fn leave_game(&mut self) -> io::Result<()> {
        self.print_moves()?;
        self.save_record()
    }

    fn print_moves(&mut self) -> io::Result<()> {
        let lines = self.session.move_list();
        if lines.is_empty() {
            return Ok(());
        }
        self.say("Moves:")?;
        for line in lines {
            self.say(&format!("  {line}"))?;
        }
        Ok(())
    }

    /// Writes the record to the `--save` file if it changed since the last write.
    fn save_record(&mut self) -> io::Result<()> {
        let Some(path) = self.save.clone() else {
            return Ok(());
        };
        if self.record_saved || self.session.moves().is_empty() {
            return Ok(());
        }
        let shown = path.display();
        match self
            .session
            .ggf_record("orca play", &ggf_date(SystemTime::now()))
        {
            Ok(record) => match fs::write(&path, format!("{record}\n")) {
                Ok(()) => {
                    self.record_saved = true;
                    self.say(&format!("Game saved to {shown} (GGF)."))
                }
                Err(e) => self.say(&format!("Could not save the game to {shown}: {e}.")),
            },
            Err(e) => self.say(&format!("Not saved: {e}.")),
        }
    }
}

/// A move of this game to show in examples.
fn example_move(variant: Variant) -> &'static str {
    match variant {
        Variant::TicTacToe => "b2",
        _ => "f5",
    }
}

/// Why Orca likes a move: its score, or that nothing needed searching.
fn describe(variant: Variant, info: Option<&SearchInfo>) -> String {
    match info {
        // Only a book answer comes with a value and no node searched.
        Some(info) if info.nodes == 0 && !info.pv.is_empty() => {
            format!("book, {}", score_text(variant, info))
        }
        Some(info) => score_text(variant, info),
        None => "the only legal move".to_string(),
    }
}

/// How a line read from a pipe is echoed after the prompt.
fn echo_text(line: &InputLine) -> String {
    match line {
        InputLine::Text(text) => text.clone(),
        InputLine::TooLong(bytes) => format!("<a line of {bytes} bytes>"),
        InputLine::NotUtf8 => "<a line that is not text>".to_string(),
    }
}

/// The one-line "thinking" indicator on a terminal, redrawn in place.
#[derive(Default)]
struct Spinner {
    frame: usize,
    width: usize,
    latest: Option<SearchInfo>,
}

impl Spinner {
    const FRAMES: [char; 4] = ['|', '/', '-', '\\'];

    fn draw(&mut self, out: &mut impl Write, who: &str, elapsed: Duration) -> io::Result<()> {
        let mut text = format!(
            "{who} is thinking {} {:.1} s",
            Self::FRAMES[self.frame % Self::FRAMES.len()],
            elapsed.as_secs_f64()
        );
        if let Some(info) = &self.latest {
            text.push_str(&format!(", depth {}", info.depth));
        }
        self.frame += 1;
        let padding = self.width.saturating_sub(text.len());
        self.width = text.len();
        write!(out, "\r{text}{}", " ".repeat(padding))?;
        out.flush()
    }

    fn clear(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.width > 0 {
            write!(out, "\r{}\r", " ".repeat(self.width))?;
            out.flush()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a whole session over in-memory input; the exit status and the output.
    fn run_in_memory(
        variant: Variant,
        seating: Seating,
        input: &str,
        animate: bool,
    ) -> (i32, String) {
        let terminal = Terminal {
            input: input.as_bytes(),
            output: Vec::new(),
            echo: true,
            animate,
            style: Style::default(),
        };
        let limits = GoLimits {
            depth: Some(9),
            ..GoLimits::default()
        };
        let session = Session::new(variant, seating.seats());
        let mut game = TerminalGame::new(
            session,
            limits,
            false,
            None,
            terminal,
            Arc::new(Evaluators::default()),
        );
        let status = game.run().unwrap();
        let output = String::from_utf8(game.terminal.output.clone()).unwrap();
        (status, output)
    }

    #[test]
    fn orca_against_itself_draws_tictactoe_and_the_indicator_clears_its_line() {
        let (status, output) = run_in_memory(Variant::TicTacToe, Seating::OrcaAlone, "", true);
        assert_eq!(status, 0);
        // Perfect play on both sides.
        assert!(output.contains("\nDraw\n"), "{output}");
        // On a terminal the indicator redraws one line in place and erases it.
        assert!(!output.contains("is thinking..."), "{output}");
        assert!(output.contains("\rOrca (X) is thinking "), "{output}");
        assert!(
            output.contains("\r                "),
            "erased indicator: {output}"
        );
    }

    #[test]
    fn two_people_win_tictactoe_and_leave_at_the_end_of_input() {
        let (status, output) = run_in_memory(
            Variant::TicTacToe,
            Seating::TwoPeople,
            "a1\nb1\na2\nhint\nB2\na3\n",
            false,
        );
        assert_eq!(status, 0);
        assert!(output.contains("O> hint\nOrca is thinking...\nHint for O: "));
        assert!(output.contains("\nX wins\nMoves:\n  1. a1 b1  2. a2 b2  3. a3\n"));
        // Input ends after the game: the game is finished, not left.
        assert!(output.ends_with("Game over> \n"), "{output}");
        assert!(!output.contains("unfinished"));
    }
}
