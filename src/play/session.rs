//! One game of `orca play` as data: who sits at each colour, every position and
//! move so far with who made it, and what the end of the game says.
//!
//! The session never searches and never prints: the terminal front asks it whose
//! turn it is ([`Session::turn`]), feeds it the person's and Orca's moves, and
//! shows what it returns. Keeping every position makes undo a truncation.

use std::fmt;
use std::str::FromStr;

use crate::game::position::LineErrorKind;
use crate::game::square::is_pass_token;
use crate::game::{AnyMove, AnyPosition, Color, Move, ParseMoveError, Variant};
use crate::ggf::{GgfGame, GgfMove};
use crate::score::Score;

use crate::game::wording;
use crate::ggf::NotOthello;

/// Who makes the moves of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Someone at the terminal.
    Person,
    /// The engine.
    Orca,
}

/// Who sits at the board: the `--color` of `orca play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Seating {
    /// The person plays black (moves first), Orca white.
    #[default]
    PersonBlack,
    /// Orca plays black, the person white.
    PersonWhite,
    /// Two people share the terminal; Orca only gives hints.
    TwoPeople,
    /// Orca plays itself while the person watches.
    OrcaAlone,
}

impl Seating {
    /// Who plays `color`.
    pub fn player(self, color: Color) -> Player {
        match (self, color) {
            (Seating::TwoPeople, _)
            | (Seating::PersonBlack, Color::Black)
            | (Seating::PersonWhite, Color::White) => Player::Person,
            _ => Player::Orca,
        }
    }

    /// The `--color` value for this seating.
    pub const fn name(self) -> &'static str {
        match self {
            Seating::PersonBlack => "black",
            Seating::PersonWhite => "white",
            Seating::TwoPeople => "both",
            Seating::OrcaAlone => "none",
        }
    }
}

impl fmt::Display for Seating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--color` value that names no seating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSeatingError(pub String);

impl fmt::Display for ParseSeatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown color '{}' (expected black, white, both or none)",
            self.0
        )
    }
}

impl std::error::Error for ParseSeatingError {}

impl FromStr for Seating {
    type Err = ParseSeatingError;

    /// `black`/`white` (also `x`/`o`, the tic-tac-toe names), `both`, `none`.
    fn from_str(s: &str) -> Result<Seating, ParseSeatingError> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Ok(Seating::PersonBlack),
            "white" | "w" | "o" => Ok(Seating::PersonWhite),
            "both" => Ok(Seating::TwoPeople),
            "none" => Ok(Seating::OrcaAlone),
            _ => Err(ParseSeatingError(s.to_string())),
        }
    }
}

/// How a move came to be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Typed by a person.
    Person,
    /// Chosen by Orca's search.
    Orca,
    /// A pass played automatically because the side had no move.
    ForcedPass,
}

/// One move of the game as the record keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    /// Who played it.
    pub color: Color,
    /// The move in the game's notation, lower case (`f5`, `pass`).
    pub name: String,
    /// How it came to be played.
    pub source: Source,
    /// Orca's score for its own move, from its point of view.
    pub score: Option<Score>,
    /// How long Orca took, in seconds.
    pub seconds: Option<f64>,
}

/// What happens next in the game.
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
        }
    }
}

impl std::error::Error for MoveError {}

/// There is no move of a person to take back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NothingToUndo;

impl fmt::Display for NothingToUndo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("there is no move of yours to take back")
    }
}

impl std::error::Error for NothingToUndo {}

/// A game in progress or finished, with its history.
#[derive(Clone, Debug)]
pub struct Session {
    seating: Seating,
    /// The start position, then the position after each move: never empty.
    positions: Vec<AnyPosition>,
    /// `moves[i]` leads from `positions[i]` to `positions[i + 1]`.
    moves: Vec<PlayedMove>,
}

impl Session {
    /// A new game of `variant` from its start position.
    pub fn new(variant: Variant, seating: Seating) -> Session {
        Session {
            seating,
            positions: vec![AnyPosition::start(variant)],
            moves: Vec::new(),
        }
    }

    /// Starts over from the start position, same game and seats.
    pub fn restart(&mut self) {
        self.positions.truncate(1);
        self.moves.clear();
    }

    /// Who sits where.
    pub fn seating(&self) -> Seating {
        self.seating
    }

    /// The game being played.
    pub fn variant(&self) -> Variant {
        self.positions[0].variant()
    }

    /// The position now.
    pub fn position(&self) -> AnyPosition {
        *self
            .positions
            .last()
            .expect("the start position is always kept")
    }

    /// The moves so far, forced passes included.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// The latest move, if any.
    pub fn last_move(&self) -> Option<&PlayedMove> {
        self.moves.last()
    }

    /// What happens next.
    pub fn turn(&self) -> Turn {
        let position = self.position();
        let color = position.to_move();
        if position.is_over() {
            Turn::Over
        } else if position.must_pass() {
            Turn::ForcedPass(color)
        } else {
            match self.seating.player(color) {
                Player::Person => Turn::Person(color),
                Player::Orca => Turn::Orca(color),
            }
        }
    }

    /// Plays a move a person typed.
    ///
    /// # Errors
    /// Why the move cannot be played; the game is unchanged.
    pub fn play_person(&mut self, text: &str) -> Result<(), MoveError> {
        self.play(text, Source::Person, None, None)
    }

    /// Plays the move Orca chose, with its score (centi-discs, Orca's view) and
    /// the time it took.
    ///
    /// # Errors
    /// When the move is not legal (the search would be wrong); nothing changes.
    pub fn play_orca(
        &mut self,
        mv: AnyMove,
        score: Option<Score>,
        seconds: f64,
    ) -> Result<(), MoveError> {
        self.play(&mv.to_string(), Source::Orca, score, Some(seconds))
    }

    /// Plays the pass of a side that has no move.
    ///
    /// # Errors
    /// [`MoveError::PassNotAllowed`] when the side has a move, or
    /// [`MoveError::GameOver`].
    pub fn play_forced_pass(&mut self) -> Result<(), MoveError> {
        self.play("pass", Source::ForcedPass, None, None)
    }

    fn play(
        &mut self,
        text: &str,
        source: Source,
        score: Option<Score>,
        seconds: Option<f64>,
    ) -> Result<(), MoveError> {
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
        let next = position
            .play_line([name.as_str()])
            .map_err(|e| match e.kind {
                LineErrorKind::NotAMove(parse) => MoveError::NotAMove(parse),
                LineErrorKind::GameOver => MoveError::GameOver,
                LineErrorKind::Illegal => why_illegal(&position, &name),
            })?;
        self.moves.push(PlayedMove {
            color: position.to_move(),
            name,
            source,
            score,
            seconds,
        });
        self.positions.push(next);
        Ok(())
    }

    /// Takes back moves to the person's previous turn: the latest move a person
    /// made and everything after it (Orca's answer, forced passes). Returns how
    /// many moves were taken back.
    ///
    /// # Errors
    /// [`NothingToUndo`] when no person has moved yet.
    pub fn undo(&mut self) -> Result<usize, NothingToUndo> {
        let last_person_move = self
            .moves
            .iter()
            .rposition(|m| m.source == Source::Person)
            .ok_or(NothingToUndo)?;
        let taken_back = self.moves.len() - last_person_move;
        self.moves.truncate(last_person_move);
        self.positions.truncate(last_person_move + 1);
        Ok(taken_back)
    }

    /// The result in words once the game is over: "Black wins 40-24", "Draw 32-32",
    /// "White wins 24-40 with fewer discs" in reversed Othello, "X wins" or
    /// "Draw" in tic-tac-toe. Empty squares left at the end go to the winner,
    /// and the line then gives the final score that makes.
    pub fn result_line(&self) -> Option<String> {
        wording::result_line(&self.position())
    }

    /// The moves of the game numbered by pairs (black, white), a few pairs a line:
    /// `1. f5 d6  2. c3 d3  ...`. Forced passes are written `pass`.
    pub fn move_list(&self) -> Vec<String> {
        const PAIRS_PER_LINE: usize = 8;
        let pairs: Vec<String> = self
            .moves
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| {
                let names: Vec<&str> = pair.iter().map(|m| m.name.as_str()).collect();
                format!("{}. {}", i + 1, names.join(" "))
            })
            .collect();
        pairs
            .chunks(PAIRS_PER_LINE)
            .map(|line| line.join("  "))
            .collect()
    }

    /// The game as a GGF record dated `date`: players (`Human` or `Orca`), the
    /// type (`TY[8a]` for reversed Othello), the result as black's final score
    /// (`RE[?]` while unfinished), and the moves with Orca's score and time.
    ///
    /// # Errors
    /// [`NotOthello`] for tic-tac-toe.
    pub fn ggf_record(&self, date: &str) -> Result<GgfGame, NotOthello> {
        let name = |color| match self.seating.player(color) {
            Player::Person => "Human",
            Player::Orca => "Orca",
        };
        let players = [name(Color::Black), name(Color::White)];
        let mut record = crate::ggf::header(
            self.positions[0],
            self.position(),
            "orca play",
            date,
            players,
        )?;
        for played in &self.moves {
            let mv: Move = played.name.parse().map_err(|_| NotOthello)?;
            record.moves.push(GgfMove {
                color: played.color,
                mv,
                eval: played.score.map(Score::discs),
                seconds: played.seconds.map(|s| (s * 100.0).round() / 100.0),
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

    fn othello(seating: Seating) -> Session {
        Session::new(Variant::Othello, seating)
    }

    /// A session whose start is `position` (for end-of-game checks).
    fn at(position: &str, variant: Variant) -> Session {
        Session {
            seating: Seating::TwoPeople,
            positions: vec![AnyPosition::parse(variant, position).unwrap()],
            moves: Vec::new(),
        }
    }

    #[test]
    fn seatings_parse_and_place_players() {
        assert_eq!("Black".parse(), Ok(Seating::PersonBlack));
        assert_eq!("o".parse(), Ok(Seating::PersonWhite));
        assert_eq!("both".parse(), Ok(Seating::TwoPeople));
        assert_eq!("none".parse(), Ok(Seating::OrcaAlone));
        assert!("red".parse::<Seating>().is_err());
        assert_eq!(Seating::PersonBlack.player(Color::White), Player::Orca);
        assert_eq!(Seating::PersonWhite.player(Color::White), Player::Person);
        assert_eq!(Seating::TwoPeople.player(Color::Black), Player::Person);
        assert_eq!(Seating::OrcaAlone.player(Color::Black), Player::Orca);
    }

    #[test]
    fn turns_follow_the_seating() {
        let mut s = othello(Seating::PersonWhite);
        assert_eq!(s.turn(), Turn::Orca(Color::Black));
        s.play_orca(mv("f5"), Some(Score::from_centi(50)), 0.2)
            .unwrap();
        assert_eq!(s.turn(), Turn::Person(Color::White));
        assert_eq!(s.last_move().unwrap().source, Source::Orca);
    }

    #[test]
    fn bad_moves_say_why_and_change_nothing() {
        let mut s = othello(Seating::PersonBlack);
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
        assert_eq!(s.moves()[0].name, "f5");
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
        assert_eq!(s.last_move().unwrap().name, "pass");
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
        let mut s = othello(Seating::PersonBlack);
        assert_eq!(s.undo(), Err(NothingToUndo));
        s.play_person("f5").unwrap();
        s.play_orca(mv("d6"), None, 0.1).unwrap();
        s.play_person("c3").unwrap();
        s.play_orca(mv("d3"), None, 0.1).unwrap();
        assert_eq!(s.undo(), Ok(2));
        assert_eq!(s.moves().len(), 2);
        assert_eq!(s.turn(), Turn::Person(Color::Black));
        assert_eq!(s.position(), s.positions[2]);
        assert_eq!(s.undo(), Ok(2));
        assert_eq!(s.position(), AnyPosition::start(Variant::Othello));
        assert_eq!(s.undo(), Err(NothingToUndo));

        // Orca opened: nothing of the person's to take back before their move.
        let mut white = othello(Seating::PersonWhite);
        white.play_orca(mv("f5"), None, 0.1).unwrap();
        assert_eq!(white.undo(), Err(NothingToUndo));
        white.play_person("d6").unwrap();
        assert_eq!(white.undo(), Ok(1));
        assert_eq!(white.turn(), Turn::Person(Color::White));

        // Two people: one move back at a time.
        let mut two = othello(Seating::TwoPeople);
        two.play_person("f5").unwrap();
        two.play_person("d6").unwrap();
        assert_eq!(two.undo(), Ok(1));
        assert_eq!(two.turn(), Turn::Person(Color::White));
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
        assert_eq!(othello(Seating::TwoPeople).result_line(), None);

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
        let mut s = othello(Seating::TwoPeople);
        for mv in ["f5", "d6", "c3", "d3", "c4"] {
            s.play_person(mv).unwrap();
        }
        assert_eq!(s.move_list(), ["1. f5 d6  2. c3 d3  3. c4"]);
        let mut longer = othello(Seating::TwoPeople);
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
    fn ggf_records_round_trip_and_refuse_tictactoe() {
        let mut s = Session::new(Variant::Reversed, Seating::PersonBlack);
        s.play_person("f5").unwrap();
        s.play_orca(mv("f6"), Some(Score::from_centi(-150)), 0.123)
            .unwrap();
        let record = s.ggf_record("2026.01.02_03:04:05.UTC").unwrap();
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
        let text = ended.ggf_record("d").unwrap().to_string();
        assert!(text.contains("RE[+58.000]"), "{text}");
        assert!(text.contains("B[PA]W[H8]"), "{text}");

        let ttt = Session::new(Variant::TicTacToe, Seating::PersonBlack);
        assert_eq!(ttt.ggf_record("d").unwrap_err(), NotOthello);
    }
}
