//! One game of `orca web`: the library's game session (the line of moves
//! with undo, redo and going to any move, who plays each side), Orca's
//! strength, the analysis' values, and the engine that plays Orca's moves
//! and values every move for the hints. What changes is told to the page's
//! event streams (Server-Sent Events) as the state and the search's info.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, Weak};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use super::clock::{Clocks, TimeControl};
use super::view;
use crate::book::Books;
use crate::engine::{
    BestMove, BookNote, Engine, GoLimits, GoRequest, Level, MAX_LEVEL, Report, SearchDone,
    SearchInfo,
};
use crate::eval::Evaluators;
use crate::game::wording::{result_line, side_name};
use crate::game::{AnyMove, AnyPosition, Color, Variant};
use crate::ggf::GgfClock;
use crate::score::Score;
use crate::score::loss_mark;
use crate::session::{MoveError, OrcaMove, Player, Seats, Session};

/// Transposition table of each game's engine, in MB.
pub const GAME_HASH_MB: usize = 16;

/// Most lines a hint values (every legal move).
const HINT_LINES: usize = 64;

/// How Orca plays: a level (1 weakest, [`MAX_LEVEL`] full strength) and the
/// most time a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// 1 to [`MAX_LEVEL`].
    pub level: u8,
    /// The time a move (a level below full strength is usually faster).
    pub movetime: Duration,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            level: MAX_LEVEL,
            movetime: Duration::from_secs(1),
        }
    }
}

/// The settings of a game the page may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSettings {
    /// Who plays black (X in tic-tac-toe).
    pub black: Player,
    /// Who plays white (O).
    pub white: Player,
    /// Orca's strength.
    pub strength: Strength,
    /// Whether every legal move is valued while a person is to move.
    pub hints: bool,
    /// How deep the hints search; none: until stopped or the next change.
    pub hint_depth: Option<u32>,
    /// A game clock; none: Orca takes its time a move and a person all the
    /// time they like.
    pub clock: Option<TimeControl>,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            black: Player::Person,
            white: Player::Orca,
            strength: Strength::default(),
            hints: false,
            hint_depth: None,
            clock: None,
        }
    }
}

impl GameSettings {
    /// Who plays each colour.
    pub fn seats(&self) -> Seats {
        Seats {
            black: self.black,
            white: self.white,
        }
    }
}

/// Why a request on a game was refused (the page gets it as an HTTP error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The move is no legal move here (HTTP 400).
    BadMove(String),
    /// The request does not fit the game's state now (HTTP 409).
    Conflict(String),
}

impl From<MoveError> for GameError {
    fn from(e: MoveError) -> GameError {
        match e {
            MoveError::GameOver | MoveError::OrcaToMove => GameError::Conflict(e.to_string()),
            _ => GameError::BadMove(e.to_string()),
        }
    }
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::BadMove(why) | GameError::Conflict(why) => f.write_str(why),
        }
    }
}

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// Orca's move at the end of the line.
    Move,
    /// The hints of the position at the cursor.
    Hint,
    /// The value of the position after this many moves of the line.
    Analyze(usize),
}

impl Purpose {
    fn name(self) -> &'static str {
        match self {
            Purpose::Move => "move",
            Purpose::Hint => "hint",
            Purpose::Analyze(_) => "analysis",
        }
    }
}

/// A position's value found by the analysis: centi-discs for the side to
/// move, and whether it is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Value {
    score: Score,
    exact: bool,
}

/// Depth of the analysis of a game's positions unless asked (exact near the
/// end), and the deepest one may ask for.
pub const ANALYSIS_DEPTH: u32 = 12;
pub const MAX_ANALYSIS_DEPTH: u32 = 24;

/// One `go` sent to the engine: its purpose and the game's generation then
/// (a result of an older generation no longer applies).
#[derive(Clone, Copy, Debug)]
struct Tag {
    purpose: Purpose,
    generation: u64,
}

/// One game and its engine.
pub struct WebGame {
    id: u64,
    session: Session,
    /// The analysis' value of each position of the line (the start first).
    values: Vec<Option<Value>>,
    /// Whether the analysis of the line is under way.
    analysing: bool,
    /// How deep it searches each position.
    analysis_depth: u32,
    settings: GameSettings,
    /// The clocks, when the game has a time control.
    clocks: Option<Clocks>,
    /// The opening books, to mark the book's moves of the position shown.
    books: Arc<Books>,
    engine: Engine,
    /// The searches sent and not yet answered, oldest first.
    sent: VecDeque<Tag>,
    generation: u64,
    /// The purpose of the search whose results apply now.
    thinking: Option<Purpose>,
    /// Its last info, as sent to the page (the whole event).
    info: Option<Message>,
    /// The book's move for the search running, if it answered from the book.
    book: Option<BookNote>,
    streams: Vec<UnboundedSender<Message>>,
    /// Counts the states told: the page keeps the newest of those it gets
    /// (an answer may come after an event sent later).
    version: u64,
    /// When a request last touched the game.
    pub last_seen: Instant,
}

impl WebGame {
    /// A new game of `variant` with its engine, whose reports a thread of
    /// its own feeds back into the game.
    ///
    /// # Errors
    /// The engine's, when its table cannot be allocated.
    pub fn start(
        id: u64,
        variant: Variant,
        settings: GameSettings,
        evaluators: Arc<Evaluators>,
        books: Arc<Books>,
    ) -> Result<Arc<Mutex<WebGame>>, String> {
        let (engine, reports) =
            Engine::with_channel(GAME_HASH_MB, evaluators).map_err(|e| e.to_string())?;
        let game = Arc::new(Mutex::new(WebGame {
            id,
            session: Session::new(variant, settings.seats()),
            values: vec![None],
            analysing: false,
            analysis_depth: ANALYSIS_DEPTH,
            settings,
            clocks: settings.clock.map(Clocks::new),
            books,
            engine,
            sent: VecDeque::new(),
            generation: 0,
            thinking: None,
            info: None,
            book: None,
            streams: Vec::new(),
            version: 0,
            last_seen: Instant::now(),
        }));
        let weak = Arc::downgrade(&game);
        thread::Builder::new()
            .name(format!("web game {id}"))
            .spawn(move || pump(&weak, &reports))
            .map_err(|e| format!("cannot start a thread: {e}"))?;
        lock(&game).changed();
        Ok(game)
    }

    /// The position on the board (at the cursor).
    pub fn position(&self) -> AnyPosition {
        self.session.position()
    }

    fn position_at(&self, ply: usize) -> AnyPosition {
        self.session.position_at(ply)
    }

    /// Plays a person's move at the cursor (the moves after it are dropped).
    ///
    /// # Errors
    /// [`GameError::BadMove`] for a move that is not legal here;
    /// [`GameError::Conflict`] when Orca is to move or the game is over.
    pub fn play(&mut self, text: &str) -> Result<(), GameError> {
        if let Some(result) = self.lost_on_time() {
            return Err(GameError::Conflict(format!("the game is over: {result}")));
        }
        let kept = self.session.cursor();
        self.session.play_person(text)?;
        self.line_changed(kept);
        self.changed();
        Ok(())
    }

    /// After the line changed past its first `kept` moves: the values of
    /// the positions after them are dropped.
    fn line_changed(&mut self, kept: usize) {
        self.values.truncate(kept + 1);
        self.values.resize(self.session.line().len() + 1, None);
    }

    /// Replaces the game with one read from `text`: a GGF record, or a
    /// position string or `startpos` with moves, or moves alone (from the
    /// start of this game's variant). The board shows its end.
    ///
    /// # Errors
    /// [`GameError::BadMove`] for a text that is none of these, naming why.
    pub fn load(&mut self, text: &str) -> Result<(), GameError> {
        let session = Session::load(self.session.variant(), text, self.settings.seats())
            .map_err(|e| GameError::BadMove(e.to_string()))?;
        self.halt();
        self.values = vec![None; session.line().len() + 1];
        self.session = session;
        self.analysing = false;
        // A new game: full clocks.
        self.clocks = self.settings.clock.map(Clocks::new);
        self.changed();
        Ok(())
    }

    /// The game as a GGF record (Othello and reversed Othello).
    ///
    /// # Errors
    /// [`GameError::Conflict`] for tic-tac-toe.
    /// Where the analysis valued a move, its value is the move's
    /// evaluation; the time control is `TI`, a loss on time the result.
    pub fn ggf(&self, date: &str) -> Result<String, GameError> {
        let mut record = self
            .session
            .ggf_record("orca web", date)
            .map_err(|e| GameError::Conflict(e.to_string()))?;
        for (i, mv) in record.moves.iter_mut().enumerate() {
            if let Some(value) = self.played_value(i) {
                mv.eval = Some(value.discs());
            }
        }
        if let Some(clocks) = &self.clocks {
            let control = clocks.control();
            let clock = GgfClock {
                main: control.base,
                increment: control.increment,
                grace: Duration::ZERO,
            };
            record.set_property("TI", &clock.to_string());
            if let Some(loser) = clocks.flagged() {
                // GGS writes a loss on time as the winner's whole board, `:t`.
                let sign = if loser == Color::Black { '-' } else { '+' };
                record.set_property("RE", &format!("{sign}64.000:t"));
            }
        }
        Ok(record.to_string())
    }

    /// The analysis' value of the move `i` of the line for its player: the
    /// value of the position it led to, once valued.
    fn played_value(&self, i: usize) -> Option<Score> {
        let ply = self.session.line().get(i)?;
        let after = (*self.values.get(i + 1)?)?;
        // The position after is valued for the other side, but for a pass
        // it forces: then it is the same side's.
        Some(if self.position_at(i + 1).to_move() == ply.color {
            after.score
        } else {
            -after.score
        })
    }

    /// Values every position of the line, one search each `depth` deep
    /// (exact near the end), the values coming with the state as they are
    /// found: the evaluation graph and each move's loss. A deeper analysis
    /// than the values' values them again.
    pub fn analyze(&mut self, depth: u32) {
        if depth > self.analysis_depth {
            self.values.iter_mut().for_each(|v| *v = None);
        }
        self.analysis_depth = depth;
        self.analysing = true;
        self.changed();
    }

    /// What the move `i` of the line lost against the best move, in
    /// centi-discs for its player, once the analysis valued the positions
    /// before and after it (none for a pass).
    fn loss(&self, i: usize) -> Option<Score> {
        let ply = &self.session.line()[i];
        if ply.mv.is_pass() {
            return None;
        }
        let best = self.values[i]?;
        let played = self.played_value(i)?;
        Some((best.score - played).max(Score::ZERO))
    }

    /// The book's moves of `position` (each `move` and `value`, best
    /// first), empty where the book does not know it.
    fn book_moves(&self, position: &AnyPosition) -> Vec<view::BookMove> {
        let board = match position {
            AnyPosition::Othello(p) => p.state().0,
            AnyPosition::Reversed(p) => p.state().0,
            AnyPosition::TicTacToe(_) => return Vec::new(),
        };
        let moves = self
            .books
            .of(position.variant())
            .and_then(|book| book.moves(&board))
            .unwrap_or_default();
        moves
            .iter()
            .map(|m| view::BookMove {
                mv: m.mv.to_string(),
                value: m.value,
            })
            .collect()
    }

    /// The first position of the line the analysis has not valued.
    fn next_to_analyze(&self) -> Option<usize> {
        self.values.iter().position(Option::is_none)
    }

    /// Takes back to the last position where a person was to move.
    ///
    /// # Errors
    /// [`GameError::Conflict`] when there is none.
    pub fn undo(&mut self) -> Result<(), GameError> {
        self.session
            .undo()
            .map_err(|e| GameError::Conflict(e.to_string()))?;
        self.changed();
        Ok(())
    }

    /// Plays again the moves taken back, to the next position where a
    /// person is to move.
    ///
    /// # Errors
    /// [`GameError::Conflict`] when no move was taken back.
    pub fn redo(&mut self) -> Result<(), GameError> {
        self.session
            .redo()
            .map_err(|e| GameError::Conflict(e.to_string()))?;
        self.changed();
        Ok(())
    }

    /// Sets the board to the position after `ply` moves of the line.
    ///
    /// # Errors
    /// [`GameError::Conflict`] beyond the line.
    pub fn go_to(&mut self, ply: usize) -> Result<(), GameError> {
        self.session
            .go_to(ply)
            .map_err(|e| GameError::Conflict(e.to_string()))?;
        self.changed();
        Ok(())
    }

    /// Changes who plays, Orca's strength or the hints.
    pub fn set(&mut self, settings: GameSettings) {
        if settings.clock != self.settings.clock {
            // A new time control: full clocks from now.
            self.clocks = settings.clock.map(Clocks::new);
        }
        self.settings = settings;
        self.session.set_seats(settings.seats());
        self.changed();
    }

    /// The settings.
    pub fn settings(&self) -> GameSettings {
        self.settings
    }

    /// Stops the search, as `stop` does in every protocol: Orca's move is
    /// played at once (the best found so far); the hints keep the values
    /// found so far until the next change; the analysis ends where it is.
    pub fn stop(&mut self) {
        match self.thinking {
            // The answer comes as the search's end, and is played.
            Some(Purpose::Move) => self.engine.stop(),
            Some(Purpose::Hint) => {
                // Its values stay shown: the search is over, not void.
                self.generation += 1;
                self.thinking = None;
                self.engine.stop();
            }
            Some(Purpose::Analyze(_)) => {
                self.analysing = false;
                self.halt();
            }
            None => self.analysing = false,
        }
        self.tell_state();
    }

    /// Looks at the clock: when the running side's time is out, it loses
    /// and the page is told. When to look next: a second without a clock,
    /// else as soon as the running side's time could be out, at least every
    /// fifth of a second (a clock may start meanwhile).
    pub fn tick(&mut self) -> Duration {
        const OFTEN: Duration = Duration::from_millis(200);
        let now = Instant::now();
        let Some(clocks) = self.clocks.as_mut() else {
            return Duration::from_secs(1);
        };
        let flagged = clocks.check(now);
        let next = match clocks.running() {
            Some(color) => clocks
                .left(color, now)
                .clamp(Duration::from_millis(1), OFTEN),
            None => OFTEN,
        };
        if flagged {
            self.halt();
            self.tell_state();
        }
        next
    }

    /// The result in words once a side lost on time.
    fn lost_on_time(&self) -> Option<String> {
        let loser = self.clocks.as_ref()?.flagged()?;
        let variant = self.session.variant();
        Some(format!(
            "{} wins on time ({}'s time ran out)",
            side_name(variant, loser.opposite()),
            side_name(variant, loser)
        ))
    }

    /// Closes the game: its search ends and its answer is dropped.
    pub fn close(&mut self) {
        self.halt();
    }

    /// Tells the page the new state.
    fn tell_state(&mut self) {
        self.version += 1;
        self.broadcast("state", &self.state());
    }

    /// Ends the running search; its answer will not apply.
    fn halt(&mut self) {
        self.generation += 1;
        if self.thinking.take().is_some() {
            self.engine.stop();
        }
        self.info = None;
        self.book = None;
    }

    /// After every change: forced passes at the end of the line are played,
    /// then Orca's move or the hints are searched, and the page is told.
    fn changed(&mut self) {
        self.halt();
        let now = Instant::now();
        if let Some(clocks) = &mut self.clocks {
            clocks.stop(now, self.session.line());
        }
        let kept = self.session.line().len();
        if self.session.play_forced_passes() > 0 {
            self.line_changed(kept);
        }
        let position = self.position();
        if self.analysing && self.next_to_analyze().is_none() {
            self.analysing = false;
        }
        let flagged = self.lost_on_time().is_some();
        if let Some(clocks) = &mut self.clocks {
            let color = position.to_move();
            let timed = match self.settings.seats().player(color) {
                Player::Orca => true,
                Player::Person => clocks.control().person,
            };
            if timed && self.session.at_end() && !position.is_over() {
                clocks.start(color, now, self.session.line().len());
            }
        }
        let purpose = if flagged {
            // Lost on time: nothing more to play; an analysis asked for
            // runs on.
            self.next_to_analyze()
                .filter(|_| self.analysing)
                .map(Purpose::Analyze)
        } else if self.session.orca_to_move() {
            Some(Purpose::Move)
        } else if let Some(ply) = self.next_to_analyze().filter(|_| self.analysing) {
            Some(Purpose::Analyze(ply))
        } else if position.is_over() {
            None
        } else if self.settings.hints {
            Some(Purpose::Hint)
        } else {
            None
        };
        if let Some(purpose) = purpose {
            self.search(purpose);
        }
        self.tell_state();
    }

    fn search(&mut self, purpose: Purpose) {
        let strength = self.settings.strength;
        let limits = match purpose {
            Purpose::Move => match &self.clocks {
                // On the clock: the engine shares out its time left.
                Some(clocks) => {
                    let now = Instant::now();
                    let increment = clocks.control().increment;
                    GoLimits {
                        p1time: Some(clocks.left(Color::Black, now)),
                        p2time: Some(clocks.left(Color::White, now)),
                        p1inc: Some(increment),
                        p2inc: Some(increment),
                        level: Level::new(strength.level),
                        book: true,
                        ..GoLimits::default()
                    }
                }
                None => GoLimits {
                    movetime: Some(strength.movetime),
                    level: Level::new(strength.level),
                    book: true,
                    ..GoLimits::default()
                },
            },
            Purpose::Hint => GoLimits {
                infinite: self.settings.hint_depth.is_none(),
                depth: self.settings.hint_depth,
                multipv: HINT_LINES,
                ..GoLimits::default()
            },
            Purpose::Analyze(_) => GoLimits {
                depth: Some(self.analysis_depth),
                ..GoLimits::default()
            },
        };
        let position = match purpose {
            Purpose::Analyze(ply) => self.position_at(ply),
            Purpose::Move | Purpose::Hint => self.position(),
        };
        // The search stopped a moment ago may still be ending.
        self.engine.wait();
        let request = GoRequest {
            position,
            limits,
            received: Instant::now(),
            overhead: Duration::from_millis(10),
        };
        if self.engine.go(request).is_ok() {
            self.sent.push_back(Tag {
                purpose,
                generation: self.generation,
            });
            self.thinking = Some(purpose);
        }
    }

    /// The tag of the search a report belongs to, if its results apply.
    fn current(&self) -> Option<Tag> {
        self.sent
            .front()
            .copied()
            .filter(|tag| tag.generation == self.generation)
    }

    fn on_info(&mut self, info: &SearchInfo) {
        if let Some(tag) = self.current() {
            let text = event("info", &info_view(info, tag.purpose, self.book.is_some()));
            self.streams.retain(|s| s.send(text.clone()).is_ok());
            self.info = Some(text);
        }
    }

    fn on_done(&mut self, done: &SearchDone) {
        let Some(tag) = self.sent.pop_front() else {
            return;
        };
        if tag.generation != self.generation {
            return;
        }
        self.thinking = None;
        if let Purpose::Analyze(ply) = tag.purpose {
            // A finished game's last position is valued by the search too
            // (exactly: the final score).
            let position = self.position_at(ply);
            let value = match &done.info {
                Some(info) => Some(Value {
                    score: info.score,
                    exact: info.exact,
                }),
                None => position.black_score().map(|black| Value {
                    score: Score::from_discs(if position.to_move() == Color::Black {
                        black
                    } else {
                        -black
                    }),
                    exact: true,
                }),
            };
            match (value, self.values.get_mut(ply)) {
                (Some(value), Some(slot)) => *slot = Some(value),
                // No value came: the analysis ends rather than ask again.
                _ => self.analysing = false,
            }
            self.changed();
            return;
        }
        if tag.purpose != Purpose::Move {
            // The hints reached their depth: the page learns they are done.
            self.tell_state();
            return;
        }
        let mv = match done.best {
            BestMove::Move(mv) => mv,
            BestMove::Pass => AnyMove::PASS,
            BestMove::None => return,
        };
        let info = done.info.as_ref();
        let orca = OrcaMove {
            mv,
            score: info.map(|i| i.score),
            exact: info.is_some_and(|i| i.exact),
            book: self.book.is_some(),
            seconds: done.elapsed.as_secs_f64(),
        };
        let kept = self.session.cursor();
        if let Err(e) = self.session.play_orca(orca) {
            log::error!("web: game {}: engine move {mv} does not play: {e}", self.id);
            return;
        }
        self.line_changed(kept);
        self.changed();
    }

    /// Adds an event stream; it gets the state (and the search's info) at once.
    pub fn subscribe(&mut self) -> UnboundedReceiver<Message> {
        let (sender, receiver) = unbounded_channel();
        let _ = sender.send(event("state", &self.state()));
        if let Some(info) = &self.info {
            let _ = sender.send(info.clone());
        }
        self.streams.push(sender);
        receiver
    }

    /// Event streams still open (a page that went away closed its own).
    pub fn live_streams(&mut self) -> usize {
        self.streams.retain(|s| !s.is_closed());
        self.streams.len()
    }

    fn broadcast(&mut self, name: &'static str, data: &impl serde::Serialize) {
        let text = event(name, data);
        self.streams.retain(|s| s.send(text.clone()).is_ok());
    }

    /// The whole state the page draws.
    pub fn state(&self) -> view::State {
        let position = self.position();
        let (black_discs, white_discs) = position.counts();
        let moves = self
            .session
            .line()
            .iter()
            .enumerate()
            .map(|(i, ply)| {
                let loss = self.loss(i);
                view::Ply {
                    mv: ply.mv.to_string(),
                    color: color_name(ply.color),
                    by: ply.by.name(),
                    score: ply.score.map(Score::discs),
                    exact: ply.exact,
                    book: ply.book,
                    loss: loss.map(Score::discs),
                    mark: loss.map_or("", loss_mark),
                }
            })
            .collect();
        let values = (0..self.values.len())
            .map(|ply| {
                let value = self.values[ply]?;
                let black = if self.position_at(ply).to_move() == Color::Black {
                    value.score
                } else {
                    -value.score
                };
                Some(black.discs())
            })
            .collect();
        let last = self.session.last_move().map(|ply| ply.mv.to_string());
        let strength = self.settings.strength;
        let lost_on_time = self.lost_on_time();
        let now = Instant::now();
        let clock = self.clocks.as_ref().map(|clocks| {
            let control = clocks.control();
            let left = |color| {
                let timed = control.person || self.settings.seats().player(color) == Player::Orca;
                timed.then(|| clocks.left(color, now).as_millis() as u64)
            };
            view::Clock {
                base_ms: control.base.as_millis() as u64,
                increment_ms: control.increment.as_millis() as u64,
                person: control.person,
                black_ms: left(Color::Black),
                white_ms: left(Color::White),
                running: clocks.running().map(color_name),
            }
        });
        view::State {
            id: self.id,
            version: self.version,
            variant: position.variant().name(),
            position: position.to_string(),
            to_move: color_name(position.to_move()),
            legal: position
                .legal_move_names()
                .into_iter()
                .filter(|m| m != "pass")
                .collect(),
            black_discs,
            white_discs,
            moves,
            cursor: self.session.cursor(),
            last,
            over: position.is_over() || lost_on_time.is_some(),
            result: lost_on_time.or_else(|| result_line(&position)),
            clock,
            transcript: self.session.transcript(),
            black: self.settings.black.name(),
            white: self.settings.white.name(),
            level: strength.level,
            movetime_ms: strength.movetime.as_millis() as u64,
            hints: self.settings.hints,
            hint_depth: self.settings.hint_depth.unwrap_or(0),
            analysis_depth: self.analysis_depth,
            values,
            book: self.book_moves(&position),
            analysing: self.analysing,
            thinking: self.thinking.map(Purpose::name),
        }
    }
}

/// Locks a game, whatever a panicking holder left (the state is still whole:
/// every change is made under the lock in one step).
pub fn lock(game: &Mutex<WebGame>) -> std::sync::MutexGuard<'_, WebGame> {
    game.lock().unwrap_or_else(|e| e.into_inner())
}

/// Feeds the engine's reports into the game while the game lives.
/// Between reports it looks at the clock ([`WebGame::tick`]).
fn pump(game: &Weak<Mutex<WebGame>>, reports: &Receiver<Report>) {
    let mut wait = Duration::from_secs(1);
    loop {
        let report = match reports.recv_timeout(wait) {
            Ok(report) => report,
            Err(RecvTimeoutError::Timeout) => {
                let Some(game) = game.upgrade() else { return };
                wait = lock(&game).tick();
                continue;
            }
            Err(_) => return,
        };
        let Some(game) = game.upgrade() else { return };
        let mut game = lock(&game);
        match &report {
            Report::Info(info) => game.on_info(info),
            Report::Book(note) => game.book = Some(*note),
            Report::Done(done) => game.on_done(done),
            _ => {}
        }
        wait = game.tick();
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// One event of a game's streams: its name and its data, JSON.
#[derive(Clone, Debug)]
pub struct Message {
    /// `state` or `info`.
    pub name: &'static str,
    /// The view, serialized.
    pub data: Arc<str>,
}

fn event(name: &'static str, data: &impl serde::Serialize) -> Message {
    let data = serde_json::to_string(data).expect("the views serialize");
    Message {
        name,
        data: Arc::from(data),
    }
}

fn info_view(info: &SearchInfo, purpose: Purpose, book: bool) -> view::Info {
    let moves = |pv: &[AnyMove]| pv.iter().map(ToString::to_string).collect();
    let lines = info
        .lines
        .iter()
        .filter_map(|line| {
            let first = line.pv.first()?;
            Some(view::Line {
                mv: first.to_string(),
                score: line.score.discs(),
                exact: info.exact,
                pv: moves(&line.pv),
            })
        })
        .collect();
    view::Info {
        purpose: purpose.name(),
        depth: info.depth,
        seldepth: info.seldepth,
        score: info.score.discs(),
        exact: info.exact,
        selectivity: info.selectivity,
        nodes: info.nodes,
        nps: info.nps(),
        time_ms: info.elapsed.as_millis() as u64,
        book,
        pv: moves(&info.pv),
        lines,
    }
}
