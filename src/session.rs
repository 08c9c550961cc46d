//! A person's game against Orca as data: who plays each colour, the line of
//! moves with who made each and Orca's values, the cursor on it (undo, redo,
//! going to any move), forced passes, the result, and GGF in and out.
//!
//! `orca play` and `orca web` both keep their game in a [`Session`]. It never
//! searches and never prints: a front end asks it whose turn it is
//! ([`Session::turn`]), feeds it the person's and Orca's moves, and shows what
//! it returns. Every position of the line is kept, so moving the cursor costs
//! nothing; a move played before the end of the line replaces the rest.

use std::fmt;

use crate::game::square::is_pass_token;
use crate::game::wording;
use crate::game::{AnyMove, AnyPosition, Color, GameLine, ParseMoveError, UnknownName, Variant};
use crate::ggf::{GgfGame, GgfMove, NotOthello};
use crate::score::Score;

/// The four centre squares, d4 e4 d5 e5 (a1 is bit 0, row by row).
const CENTRE: u64 = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36);

/// Who makes the moves of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person (at the terminal or the page).
    Person,
    /// Orca's search.
    Orca,
}

impl Player {
    /// `person` or `orca`.
    pub const fn name(self) -> &'static str {
        match self {
            Player::Person => "person",
            Player::Orca => "orca",
        }
    }

    /// The player's name in a game record: `Human` or `Orca`.
    pub const fn record_name(self) -> &'static str {
        match self {
            Player::Person => "Human",
            Player::Orca => "Orca",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Player {
    type Err = UnknownName;

    /// `person` or `orca`.
    fn from_str(text: &str) -> Result<Player, UnknownName> {
        match text {
            "person" => Ok(Player::Person),
            "orca" => Ok(Player::Orca),
            _ => Err(UnknownName::new("player", text, "person or orca")),
        }
    }
}

/// Who plays each colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seats {
    /// Who plays black (X in tic-tac-toe).
    pub black: Player,
    /// Who plays white (O).
    pub white: Player,
}

impl Seats {
    /// A person with black (moving first) against Orca.
    pub const PERSON_BLACK: Seats = Seats {
        black: Player::Person,
        white: Player::Orca,
    };

    /// Who plays `color`.
    pub const fn player(self, color: Color) -> Player {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// Whether no person plays: Orca plays itself.
    pub fn orca_alone(self) -> bool {
        self.black == Player::Orca && self.white == Player::Orca
    }

    /// Whether two people play each other.
    pub fn two_people(self) -> bool {
        self.black == Player::Person && self.white == Player::Person
    }
}

impl Default for Seats {
    fn default() -> Self {
        Seats::PERSON_BLACK
    }
}

/// How a move came to be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// Chosen by a person.
    Person,
    /// Chosen by Orca's search.
    Orca,
    /// A pass played because the side had no move.
    ForcedPass,
    /// Read with a game record or a move list.
    Record,
}

impl By {
    /// `person`, `orca`, `pass` or `record`.
    pub const fn name(self) -> &'static str {
        match self {
            By::Person => "person",
            By::Orca => "orca",
            By::ForcedPass => "pass",
            By::Record => "record",
        }
    }
}

/// One move of the line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ply {
    /// The move.
    pub mv: AnyMove,
    /// Who played it.
    pub color: Color,
    /// How it came to be played.
    pub by: By,
    /// The position after it.
    pub after: AnyPosition,
    /// Orca's value of its own move, for the mover.
    pub score: Option<Score>,
    /// Whether that value is exact.
    pub exact: bool,
    /// Whether the move came from the opening book.
    pub book: bool,
    /// How long Orca took, in seconds.
    pub seconds: Option<f64>,
}

impl Ply {
    fn new(mv: AnyMove, color: Color, by: By, after: AnyPosition) -> Ply {
        Ply {
            mv,
            color,
            by,
            after,
            score: None,
            exact: false,
            book: false,
            seconds: None,
        }
    }

    /// The pass of a side with no move in `position`.
    fn forced_pass(position: AnyPosition) -> Ply {
        let after = position.play(AnyMove::PASS).expect("a forced pass plays");
        Ply::new(AnyMove::PASS, position.to_move(), By::ForcedPass, after)
    }
}

/// Orca's move with what its search said of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrcaMove {
    /// The move.
    pub mv: AnyMove,
    /// Its value for Orca.
    pub score: Option<Score>,
    /// Whether the value is exact.
    pub exact: bool,
    /// Whether the book chose it.
    pub book: bool,
    /// The time the search took, in seconds.
    pub seconds: f64,
}

/// What happens next at the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The game has ended.
    Over,
    /// This colour has no move and must pass (the game goes on).
    ForcedPass(Color),
    /// A person chooses the move of this colour.
    Person(Color),
    /// Orca chooses the move of this colour.
    Orca(Color),
}

/// Why a move was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text names no square of this board.
    NotAMove(ParseMoveError),
    /// The square already holds a disc or mark.
    Taken {
        /// The square, lower case.
        square: String,
        /// The moves that are legal instead.
        legal: Vec<String>,
    },
    /// An empty square where the disc would turn nothing over.
    FlipsNothing {
        /// The square, lower case.
        square: String,
        /// The moves that are legal instead.
        legal: Vec<String>,
    },
    /// A pass while the side has a move.
    PassNotAllowed {
        /// The moves the side has.
        legal: Vec<String>,
    },
    /// A move while the side has none: the pass is played for it.
    MustPass,
    /// The game has ended.
    GameOver,
    /// The side to move is Orca's.
    OrcaToMove,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NotAMove(e) => write!(f, "{e}"),
            MoveError::Taken { square, legal } => write!(
                f,
                "{square} is already taken (legal moves: {})",
                legal.join(" ")
            ),
            MoveError::FlipsNothing { square, legal } => write!(
                f,
                "{square} turns no discs over (legal moves: {})",
                legal.join(" ")
            ),
            MoveError::PassNotAllowed { legal } => write!(
                f,
                "a pass is only allowed without a legal move, and there are some: {}",
                legal.join(" ")
            ),
            MoveError::MustPass => write!(f, "there is no legal move: the pass is played for you"),
            MoveError::GameOver => write!(f, "the game is over"),
            MoveError::OrcaToMove => write!(f, "Orca is to move"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why the cursor did not move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CursorError {
    /// Undo at a point where no person has moved before.
    NothingToUndo,
    /// Redo at the end of the line.
    NothingToRedo,
    /// A move number beyond the line.
    BeyondLine {
        /// The moves the line has.
        len: usize,
    },
}

impl fmt::Display for CursorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CursorError::NothingToUndo => f.write_str("there is no move of yours to take back"),
            CursorError::NothingToRedo => f.write_str("there is no move to play again"),
            CursorError::BeyondLine { len } => write!(f, "the line has {len} moves"),
        }
    }
}

impl std::error::Error for CursorError {}

/// Why a game could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The text is empty.
    Empty,
    /// A GGF record that does not read.
    Ggf(String),
    /// A position or move list that does not read.
    Line(String),
    /// A start no game reaches (an empty centre square).
    Unreachable,
    /// A move that is not legal where it is played.
    Illegal {
        /// Its number in the text, from 1.
        number: usize,
        /// The move.
        mv: AnyMove,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Empty => f.write_str("there is no game to load: the text is empty"),
            LoadError::Ggf(why) => write!(f, "the GGF record: {why}"),
            LoadError::Line(why) => f.write_str(why),
            LoadError::Unreachable => {
                f.write_str("no game reaches this position: d4, e4, d5 and e5 always hold discs")
            }
            LoadError::Illegal { number, mv } => {
                write!(f, "move {number} ({mv}) is not legal there")
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// A game in progress or finished: its line of moves and the cursor on it.
#[derive(Clone, Debug)]
pub struct Session {
    seats: Seats,
    /// The properties of the GGF record the game was loaded from (players,
    /// place, date, clocks), given back when the game is written out.
    header: Vec<(String, String)>,
    start: AnyPosition,
    line: Vec<Ply>,
    /// Moves of the line played on the board: the rest can be redone.
    cursor: usize,
}

impl Session {
    /// A new game of `variant` from its start position.
    pub fn new(variant: Variant, seats: Seats) -> Session {
        Session::from_position(AnyPosition::start(variant), seats)
    }

    /// A new game from `start`.
    pub fn from_position(start: AnyPosition, seats: Seats) -> Session {
        Session {
            seats,
            header: Vec::new(),
            start,
            line: Vec::new(),
            cursor: 0,
        }
    }

    /// A game read from `text`: a GGF record, or a position string or
    /// `startpos` with moves, or moves alone (from the start of `variant`).
    /// Passes left out where forced are put in; the cursor is at the end.
    ///
    /// # Errors
    /// [`LoadError`] naming what does not read or play.
    pub fn load(variant: Variant, text: &str, seats: Seats) -> Result<Session, LoadError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(LoadError::Empty);
        }
        // Each move with its value and time as a record gives them.
        let (start, moves, header) = if text.contains("(;") {
            let record: GgfGame = text.parse().map_err(|e| LoadError::Ggf(format!("{e}")))?;
            let moves: Vec<(AnyMove, Option<f64>, Option<f64>)> = record
                .moves
                .iter()
                .map(|m| (AnyMove::Othello(m.mv), m.eval, m.seconds))
                .collect();
            (record.start, moves, record.properties)
        } else {
            let line = GameLine::parse(variant, text).map_err(LoadError::Line)?;
            let moves = line.parsed_moves().map_err(LoadError::Line)?;
            let moves = moves.into_iter().map(|mv| (mv, None, None)).collect();
            (line.start, moves, Vec::new())
        };
        // Every Othello position a game can reach has its centre filled.
        let centre_empty = match start {
            AnyPosition::Othello(p) => p.state().0.empty() & CENTRE != 0,
            AnyPosition::Reversed(p) => p.state().0.empty() & CENTRE != 0,
            AnyPosition::TicTacToe(_) => false,
        };
        if centre_empty {
            return Err(LoadError::Unreachable);
        }
        let mut session = Session::from_position(start, seats);
        session.header = header;
        let mut position = start;
        for (i, (mv, eval, seconds)) in moves.into_iter().enumerate() {
            if position.must_pass() && !mv.is_pass() {
                let pass = Ply::forced_pass(position);
                position = pass.after;
                session.line.push(pass);
            }
            let after = position
                .play(mv)
                .ok_or(LoadError::Illegal { number: i + 1, mv })?;
            let mut ply = Ply::new(mv, position.to_move(), By::Record, after);
            ply.score = eval.map(Score::from_discs_f64);
            ply.seconds = seconds;
            session.line.push(ply);
            position = after;
        }
        session.cursor = session.line.len();
        Ok(session)
    }

    /// Starts over from the start position, same game and seats.
    pub fn restart(&mut self) {
        self.header.clear();
        self.line.clear();
        self.cursor = 0;
    }

    /// Who plays each colour.
    pub fn seats(&self) -> Seats {
        self.seats
    }

    /// Changes who plays each colour.
    pub fn set_seats(&mut self, seats: Seats) {
        self.seats = seats;
    }

    /// The game being played.
    pub fn variant(&self) -> Variant {
        self.start.variant()
    }

    /// The start position.
    pub fn start(&self) -> AnyPosition {
        self.start
    }

    /// The position on the board (at the cursor).
    pub fn position(&self) -> AnyPosition {
        self.position_at(self.cursor)
    }

    /// The position after `ply` moves of the line (the end beyond it).
    pub fn position_at(&self, ply: usize) -> AnyPosition {
        match ply.min(self.line.len()) {
            0 => self.start,
            n => self.line[n - 1].after,
        }
    }

    /// The whole line, the moves after the cursor included.
    pub fn line(&self) -> &[Ply] {
        &self.line
    }

    /// The moves played on the board: the line up to the cursor.
    pub fn moves(&self) -> &[Ply] {
        &self.line[..self.cursor]
    }

    /// How many moves of the line are on the board.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Whether the board shows the end of the line (nothing to redo).
    pub fn at_end(&self) -> bool {
        self.cursor == self.line.len()
    }

    /// The latest move on the board, if any.
    pub fn last_move(&self) -> Option<&Ply> {
        self.moves().last()
    }

    /// What happens next at the cursor.
    pub fn turn(&self) -> Turn {
        let position = self.position();
        let color = position.to_move();
        if position.is_over() {
            Turn::Over
        } else if position.must_pass() {
            Turn::ForcedPass(color)
        } else {
            match self.seats.player(color) {
                Player::Person => Turn::Person(color),
                Player::Orca => Turn::Orca(color),
            }
        }
    }

    /// Whether Orca is to choose a move at the end of the line.
    pub fn orca_to_move(&self) -> bool {
        self.at_end() && matches!(self.turn(), Turn::Orca(_))
    }

    /// Plays a move a person typed or clicked, at the cursor (the moves
    /// after it are dropped).
    ///
    /// # Errors
    /// Why the move cannot be played; the game is unchanged.
    pub fn play_person(&mut self, text: &str) -> Result<(), MoveError> {
        let position = self.position();
        if !position.is_over()
            && !position.must_pass()
            && self.seats.player(position.to_move()) == Player::Orca
        {
            return Err(MoveError::OrcaToMove);
        }
        let mv = self.parse(text)?;
        self.push_move(mv, By::Person)
    }

    /// Plays the move Orca chose, with what its search said.
    ///
    /// # Errors
    /// When the move is not legal (the search would be wrong); nothing changes.
    pub fn play_orca(&mut self, orca: OrcaMove) -> Result<(), MoveError> {
        let mv = self.parse(&orca.mv.to_string())?;
        self.push_move(mv, By::Orca)?;
        let ply = self.line.last_mut().expect("a move was just played");
        ply.score = orca.score;
        ply.exact = orca.exact;
        ply.book = orca.book;
        ply.seconds = Some(orca.seconds);
        Ok(())
    }

    /// Plays the pass of a side that has no move.
    ///
    /// # Errors
    /// [`MoveError::PassNotAllowed`] when the side has a move, or
    /// [`MoveError::GameOver`].
    pub fn play_forced_pass(&mut self) -> Result<(), MoveError> {
        let position = self.position();
        if position.is_over() {
            return Err(MoveError::GameOver);
        }
        if !position.must_pass() {
            return Err(MoveError::PassNotAllowed {
                legal: position.legal_move_names(),
            });
        }
        self.push(Ply::forced_pass(position));
        Ok(())
    }

    /// Plays the forced passes at the end of the line (a page shows the
    /// position after them). Returns how many.
    pub fn play_forced_passes(&mut self) -> usize {
        let mut passes = 0;
        while self.at_end() && self.play_forced_pass().is_ok() {
            passes += 1;
        }
        passes
    }

    /// The move `text` at the cursor, read and checked against the turn
    /// (game over, passes).
    fn parse(&self, text: &str) -> Result<AnyMove, MoveError> {
        let position = self.position();
        if position.is_over() {
            return Err(MoveError::GameOver);
        }
        let token = text.trim();
        let name = if is_pass_token(token) {
            if !position.must_pass() {
                return Err(MoveError::PassNotAllowed {
                    legal: position.legal_move_names(),
                });
            }
            "pass".to_string()
        } else if position.must_pass() {
            // A move after a pass would be played by the other side.
            return Err(MoveError::MustPass);
        } else {
            token.to_ascii_lowercase()
        };
        // Whether it is legal here, push_move says (and why not).
        AnyMove::parse(self.variant(), &name).map_err(MoveError::NotAMove)
    }

    fn push_move(&mut self, mv: AnyMove, by: By) -> Result<(), MoveError> {
        let position = self.position();
        let after = position
            .play(mv)
            .ok_or_else(|| why_illegal(&position, &mv.to_string()))?;
        self.push(Ply::new(mv, position.to_move(), by, after));
        Ok(())
    }

    /// Puts `ply` at the cursor, dropping the moves after it.
    fn push(&mut self, ply: Ply) {
        self.line.truncate(self.cursor);
        self.line.push(ply);
        self.cursor = self.line.len();
    }

    /// Whether stepping back and forth stops at `ply`: a position where a
    /// person chooses, or the end; every position when Orca plays alone.
    fn stops_at(&self, ply: usize) -> bool {
        let position = self.position_at(ply);
        self.seats.orca_alone()
            || position.is_over()
            || (!position.must_pass() && self.seats.player(position.to_move()) == Player::Person)
    }

    /// Takes back moves to the person's previous turn: the latest move a
    /// person made and what followed it (Orca's answer, forced passes).
    /// They stay in the line for [`Session::redo`] until a move replaces
    /// them. Returns how many moves were taken back.
    ///
    /// # Errors
    /// [`CursorError::NothingToUndo`] when no earlier position has a person
    /// to move.
    pub fn undo(&mut self) -> Result<usize, CursorError> {
        let target = (0..self.cursor)
            .rev()
            .find(|&ply| self.stops_at(ply))
            .ok_or(CursorError::NothingToUndo)?;
        let taken_back = self.cursor - target;
        self.cursor = target;
        Ok(taken_back)
    }

    /// Plays again the moves taken back, to the next position where a
    /// person is to move. Returns how many.
    ///
    /// # Errors
    /// [`CursorError::NothingToRedo`] at the end of the line.
    pub fn redo(&mut self) -> Result<usize, CursorError> {
        if self.at_end() {
            return Err(CursorError::NothingToRedo);
        }
        let target = (self.cursor + 1..=self.line.len())
            .find(|&ply| self.stops_at(ply))
            .unwrap_or(self.line.len());
        let replayed = target - self.cursor;
        self.cursor = target;
        Ok(replayed)
    }

    /// Sets the board to the position after `ply` moves of the line.
    ///
    /// # Errors
    /// [`CursorError::BeyondLine`].
    pub fn go_to(&mut self, ply: usize) -> Result<(), CursorError> {
        if ply > self.line.len() {
            return Err(CursorError::BeyondLine {
                len: self.line.len(),
            });
        }
        self.cursor = ply;
        Ok(())
    }

    /// The result in words once the game on the board is over: "Black wins
    /// 40-24", "Draw 32-32", "White wins 24-40 with fewer discs" in reversed
    /// Othello, "X wins" or "Draw" in tic-tac-toe.
    pub fn result_line(&self) -> Option<String> {
        wording::result_line(&self.position())
    }

    /// The moves on the board numbered by pairs (black, white), a few pairs
    /// a line: `1. f5 d6  2. c3 d3  ...`. Forced passes are written `pass`.
    pub fn move_list(&self) -> Vec<String> {
        const PAIRS_PER_LINE: usize = 8;
        let pairs: Vec<String> = self
            .moves()
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| {
                let names: Vec<String> = pair.iter().map(|m| m.mv.to_string()).collect();
                format!("{}. {}", i + 1, names.join(" "))
            })
            .collect();
        pairs
            .chunks(PAIRS_PER_LINE)
            .map(|line| line.join("  "))
            .collect()
    }

    /// The whole line as one string of moves, passes left out, as players
    /// copy games between programs: `f5d6c3d3c4`.
    pub fn transcript(&self) -> String {
        self.line
            .iter()
            .filter(|ply| !ply.mv.is_pass())
            .map(|ply| ply.mv.to_string())
            .collect()
    }

    /// The whole line as a GGF record made at `place` on `date`: players
    /// (`Human` or `Orca`), the type (`TY[8a]` for reversed Othello), the
    /// result as black's final score (`RE[?]` while unfinished), and the
    /// moves with their values and times. A game loaded from a record keeps
    /// that record's properties (players, place, date, clocks); the result
    /// is the line's.
    ///
    /// # Errors
    /// [`NotOthello`] for tic-tac-toe.
    pub fn ggf_record(&self, place: &str, date: &str) -> Result<GgfGame, NotOthello> {
        let players = [
            self.seats.black.record_name(),
            self.seats.white.record_name(),
        ];
        let end = self.position_at(self.line.len());
        let mut record = crate::ggf::header(self.start, end, place, date, players)?;
        let result = record.property("RE").map(str::to_string);
        for (key, value) in &self.header {
            record.set_property(key, value);
        }
        if let Some(result) = result {
            record.set_property("RE", &result);
        }
        for ply in &self.line {
            let AnyMove::Othello(mv) = ply.mv else {
                return Err(NotOthello);
            };
            record.moves.push(GgfMove {
                color: ply.color,
                mv,
                eval: ply.score.map(Score::discs),
                seconds: ply.seconds.map(|s| (s * 100.0).round() / 100.0),
            });
        }
        Ok(record)
    }
}

/// Why a well-formed square is not a legal move in `position`.
fn why_illegal(position: &AnyPosition, square: &str) -> MoveError {
    let legal = position.legal_move_names();
    let text = position.to_string();
    let squares: Vec<char> = text.split(' ').next().unwrap_or("").chars().collect();
    let width = if squares.len() == 64 { 8 } else { 3 };
    let index = match square.as_bytes() {
        [column, row] => Some(
            usize::from(column.wrapping_sub(b'a')) + width * usize::from(row.wrapping_sub(b'1')),
        ),
        _ => None,
    };
    let square = square.to_string();
    if index
        .and_then(|i| squares.get(i))
        .is_some_and(|&c| c != '-')
    {
        MoveError::Taken { square, legal }
    } else {
        MoveError::FlipsNothing { square, legal }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An Othello move.
    fn mv(name: &str) -> AnyMove {
        AnyMove::parse(Variant::Othello, name).unwrap()
    }

    const PERSON_WHITE: Seats = Seats {
        black: Player::Orca,
        white: Player::Person,
    };
    const TWO_PEOPLE: Seats = Seats {
        black: Player::Person,
        white: Player::Person,
    };

    fn othello(seats: Seats) -> Session {
        Session::new(Variant::Othello, seats)
    }

    /// Orca's move `name` with `score`.
    fn orca(name: &str, score: Option<Score>) -> OrcaMove {
        OrcaMove {
            mv: mv(name),
            score,
            exact: false,
            book: false,
            seconds: 0.123,
        }
    }

    /// A session whose start is `position` (for end-of-game checks).
    fn at(position: &str, variant: Variant) -> Session {
        Session::from_position(AnyPosition::parse(variant, position).unwrap(), TWO_PEOPLE)
    }

    #[test]
    fn turns_follow_the_seating() {
        let mut s = othello(PERSON_WHITE);
        assert_eq!(s.turn(), Turn::Orca(Color::Black));
        assert_eq!(s.play_person("f5"), Err(MoveError::OrcaToMove));
        s.play_orca(orca("f5", Some(Score::from_centi(50))))
            .unwrap();
        assert_eq!(s.turn(), Turn::Person(Color::White));
        assert_eq!(s.last_move().unwrap().by, By::Orca);
    }

    #[test]
    fn bad_moves_say_why_and_change_nothing() {
        let mut s = othello(Seats::PERSON_BLACK);
        let legal = ["d3", "c4", "f5", "e6"];
        assert!(matches!(s.play_person("z9"), Err(MoveError::NotAMove(_))));
        assert_eq!(
            s.play_person("E4"),
            Err(MoveError::Taken {
                square: "e4".into(),
                legal: legal.iter().map(ToString::to_string).collect()
            })
        );
        let flips = s.play_person("a1").unwrap_err();
        assert!(matches!(flips, MoveError::FlipsNothing { .. }));
        assert_eq!(
            flips.to_string(),
            "a1 turns no discs over (legal moves: d3 c4 f5 e6)"
        );
        assert!(matches!(
            s.play_person("pass"),
            Err(MoveError::PassNotAllowed { .. })
        ));
        assert!(s.moves().is_empty());
        s.play_person("F5").unwrap();
        assert_eq!(s.moves()[0].mv, mv("f5"));
        assert_eq!(s.position().counts(), (4, 1));
    }

    #[test]
    fn forced_passes_are_played_only_when_forced() {
        let mut s = at(
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X",
            Variant::Othello,
        );
        assert_eq!(s.turn(), Turn::ForcedPass(Color::Black));
        assert_eq!(s.play_person("h8"), Err(MoveError::MustPass));
        s.play_forced_pass().unwrap();
        assert_eq!(s.last_move().unwrap().mv, AnyMove::PASS);
        assert_eq!(s.turn(), Turn::Person(Color::White));
        assert!(matches!(
            s.play_forced_pass(),
            Err(MoveError::PassNotAllowed { .. })
        ));
        s.play_person("h8").unwrap();
        assert_eq!(s.turn(), Turn::Over);
        assert_eq!(s.play_person("a1"), Err(MoveError::GameOver));
    }

    #[test]
    fn undo_goes_back_to_the_persons_previous_turn() {
        let mut s = othello(Seats::PERSON_BLACK);
        assert_eq!(s.undo(), Err(CursorError::NothingToUndo));
        s.play_person("f5").unwrap();
        s.play_orca(orca("d6", None)).unwrap();
        s.play_person("c3").unwrap();
        s.play_orca(orca("d3", None)).unwrap();
        let after_two = s.position_at(2);
        assert_eq!(s.undo(), Ok(2));
        assert_eq!(s.moves().len(), 2);
        assert_eq!(s.turn(), Turn::Person(Color::Black));
        assert_eq!(s.position(), after_two);
        assert_eq!(s.undo(), Ok(2));
        assert_eq!(s.position(), AnyPosition::start(Variant::Othello));
        assert_eq!(s.undo(), Err(CursorError::NothingToUndo));
        // The moves taken back come again, a person's turn at a time, until
        // a move replaces them.
        assert_eq!(s.redo(), Ok(2));
        assert_eq!(s.position(), after_two);
        assert_eq!(s.redo(), Ok(2));
        assert_eq!(s.redo(), Err(CursorError::NothingToRedo));
        s.go_to(1).unwrap();
        assert_eq!(s.go_to(5), Err(CursorError::BeyondLine { len: 4 }));
        assert!(!s.orca_to_move(), "Orca only moves at the end of the line");
        s.go_to(2).unwrap();
        s.play_person("c3").unwrap();
        assert_eq!((s.line().len(), s.cursor()), (3, 3));
        assert!(s.orca_to_move());

        // Orca opened: nothing of the person's to take back before their move.
        let mut white = othello(PERSON_WHITE);
        white.play_orca(orca("f5", None)).unwrap();
        assert_eq!(white.undo(), Err(CursorError::NothingToUndo));
        white.play_person("d6").unwrap();
        assert_eq!(white.undo(), Ok(1));
        assert_eq!(white.turn(), Turn::Person(Color::White));

        // Two people: one move back at a time.
        let mut two = othello(TWO_PEOPLE);
        two.play_person("f5").unwrap();
        two.play_person("d6").unwrap();
        assert_eq!(two.undo(), Ok(1));
        assert_eq!(two.turn(), Turn::Person(Color::White));
    }

    #[test]
    fn loading_reads_records_and_lines_and_says_why_not() {
        let s = Session::load(Variant::Othello, "f5 d6 c3", Seats::PERSON_BLACK).unwrap();
        assert_eq!((s.line().len(), s.cursor()), (3, 3));
        assert!(s.line().iter().all(|p| p.by == By::Record));
        let record = "(;GM[Othello]PC[x]PB[Susan]PW[Tom]RE[?]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[F5]W[D6];)";
        let g = Session::load(Variant::Othello, record, Seats::PERSON_BLACK).unwrap();
        assert_eq!(g.position(), s.position_at(2));
        // Written out again, the record keeps its players and its moves'
        // values and times; the result is the line's.
        let timed = "(;GM[Othello]PC[Club]DT[2001.02.03]PB[Susan Murmur]PW[Tom]RE[+4.000]TI[5:00]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[F5/1.50/3.2]W[D6];)";
        let t = Session::load(Variant::Othello, timed, Seats::PERSON_BLACK).unwrap();
        assert_eq!(t.line()[0].score, Some(Score::from_centi(150)));
        assert_eq!(t.line()[0].seconds, Some(3.2));
        let out = t.ggf_record("orca web", "2026.01.01").unwrap().to_string();
        for kept in [
            "PB[Susan Murmur]",
            "PW[Tom]",
            "PC[Club]",
            "DT[2001.02.03]",
            "TI[5:00]",
            "RE[?]",
            "B[F5/1.5/3.2]",
        ] {
            assert!(out.contains(kept), "{kept} in {out}");
        }
        assert_eq!(
            Session::load(Variant::Othello, "  ", Seats::PERSON_BLACK).unwrap_err(),
            LoadError::Empty
        );
        assert_eq!(
            Session::load(Variant::Othello, "f5 f5", Seats::PERSON_BLACK)
                .unwrap_err()
                .to_string(),
            "move 2 (f5) is not legal there"
        );
        let empty_centre = format!("{} X", "-".repeat(64));
        assert_eq!(
            Session::load(Variant::Othello, &empty_centre, Seats::PERSON_BLACK).unwrap_err(),
            LoadError::Unreachable
        );
        // A pass left out where forced is put in.
        let near_end = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X h8";
        let p = Session::load(Variant::Othello, near_end, TWO_PEOPLE).unwrap();
        let by: Vec<By> = p.line().iter().map(|ply| ply.by).collect();
        assert_eq!(by, [By::ForcedPass, By::Record]);
    }

    #[test]
    fn result_lines_in_each_variant() {
        let full_black = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOO X";
        assert_eq!(
            at(full_black, Variant::Othello).result_line().unwrap(),
            "Black wins 40-24"
        );
        assert_eq!(
            at(full_black, Variant::Reversed).result_line().unwrap(),
            "White wins 24-40 with fewer discs"
        );
        let even = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO X";
        assert_eq!(
            at(even, Variant::Othello).result_line().unwrap(),
            "Draw 32-32"
        );
        // Only a1 is empty, and every line from it runs through white to the
        // edge: nobody can move. 42 black, 21 white.
        let corner: String = (0..64)
            .map(|i| match (i / 8, i % 8) {
                (0, 0) => '-',
                (row, col) if row == 0 || col == 0 || row == col => 'O',
                _ => 'X',
            })
            .collect();
        let corner = format!("{corner} X");
        assert!(
            AnyPosition::parse(Variant::Othello, &corner)
                .unwrap()
                .is_over()
        );
        assert_eq!(
            at(&corner, Variant::Othello).result_line().unwrap(),
            "Black wins 42-21 (final score 22: the 1 empty square goes to the winner)"
        );
        assert_eq!(
            at(&corner, Variant::Reversed).result_line().unwrap(),
            "White wins 21-42 with fewer discs (final score 22: the 1 empty square goes to the winner)"
        );
        assert_eq!(othello(TWO_PEOPLE).result_line(), None);

        assert_eq!(
            at("XXXOO---- O", Variant::TicTacToe).result_line().unwrap(),
            "X wins"
        );
        assert_eq!(
            at("XOXXOOOXX O", Variant::TicTacToe).result_line().unwrap(),
            "Draw"
        );
    }

    #[test]
    fn move_list_numbers_pairs() {
        let mut s = othello(TWO_PEOPLE);
        for mv in ["f5", "d6", "c3", "d3", "c4"] {
            s.play_person(mv).unwrap();
        }
        assert_eq!(s.move_list(), ["1. f5 d6  2. c3 d3  3. c4"]);
        let mut longer = othello(TWO_PEOPLE);
        for _ in 0..18 {
            let first = longer.position().legal_move_names()[0].clone();
            longer.play_person(&first).unwrap();
        }
        let list = longer.move_list();
        assert_eq!(list.len(), 2);
        assert!(list[0].starts_with("1. d3 c3  2. "), "{list:?}");
        assert!(
            list[1].starts_with("9. ") && !list[1].contains("10."),
            "{list:?}"
        );
    }

    #[test]
    fn a_transcript_leaves_passes_out_and_loads_back() {
        let mut s = othello(TWO_PEOPLE);
        for mv in ["f5", "d6", "c3"] {
            s.play_person(mv).unwrap();
        }
        s.undo().unwrap();
        // The whole line, also past the cursor.
        assert_eq!(s.transcript(), "f5d6c3");
        let mut ended = at(
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X",
            Variant::Othello,
        );
        ended.play_forced_pass().unwrap();
        ended.play_person("h8").unwrap();
        assert_eq!(ended.transcript(), "h8");
        let start = ended.start().to_string();
        let back =
            Session::load(Variant::Othello, &format!("{start} moves h8"), TWO_PEOPLE).unwrap();
        assert_eq!(back.line().len(), 2, "the pass put back");
        assert_eq!(back.position(), ended.position());
    }

    #[test]
    fn ggf_records_round_trip_and_refuse_tictactoe() {
        let mut s = Session::new(Variant::Reversed, Seats::PERSON_BLACK);
        s.play_person("f5").unwrap();
        s.play_orca(orca("f6", Some(Score::from_centi(-150))))
            .unwrap();
        let record = s
            .ggf_record("orca play", "2026.01.02_03:04:05.UTC")
            .unwrap();
        let text = record.to_string();
        assert!(text.contains("PB[Human]PW[Orca]RE[?]TY[8a]BO[8 "), "{text}");
        assert!(text.contains("B[F5]W[F6/-1.5/0.12]"), "{text}");
        let parsed: GgfGame = text.parse().unwrap();
        assert_eq!(parsed.variant(), Variant::Reversed);
        assert_eq!(parsed.position().unwrap(), s.position());

        let mut ended = at(
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X",
            Variant::Othello,
        );
        ended.play_forced_pass().unwrap();
        ended.play_person("h8").unwrap();
        let text = ended.ggf_record("orca play", "d").unwrap().to_string();
        assert!(text.contains("RE[+58.000]"), "{text}");
        assert!(text.contains("B[PA]W[H8]"), "{text}");

        let ttt = Session::new(Variant::TicTacToe, Seats::PERSON_BLACK);
        assert_eq!(ttt.ggf_record("orca play", "d").unwrap_err(), NotOthello);
    }
}
