//! A game state with its absolute colour to move: what notation, protocols and
//! people deal in. The search works on the relative state inside.

use std::fmt;
use std::str::FromStr;

use super::{Color, Game, ParseMoveError, PositionError};

/// A position of game `G`: the state and which colour is to move.
///
/// Written as the position string of OBF files: the squares, a space, the side to
/// move (`X` or `O`), e.g. `---------------------------OX------XO--------------------------- X`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<G: Game> {
    state: G,
    to_move: Color,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This colour won.
    Win(Color),
    /// Neither side won.
    Draw,
}

/// The result of a game so far: `None` while it is running.
pub type GameResult = Option<Outcome>;

impl<G: Game> Position<G> {
    /// The start of a game: the game's initial state, black (X) to move.
    pub fn start() -> Self {
        Position {
            state: G::start(),
            to_move: Color::Black,
        }
    }

    /// A position from a relative state and the colour whose turn it is.
    pub const fn new(state: G, to_move: Color) -> Self {
        Position { state, to_move }
    }

    /// The state as the search sees it (side to move first).
    pub const fn state(&self) -> &G {
        &self.state
    }

    /// Whose turn it is.
    pub const fn to_move(&self) -> Color {
        self.to_move
    }

    /// Legal moves; a forced pass is the single move `pass`; empty when the game is over.
    pub fn legal_moves(&self) -> G::Moves {
        self.state.legal_moves()
    }

    /// The side to move has no placement but the game goes on.
    pub fn must_pass(&self) -> bool {
        let mut moves = self.state.legal_moves();
        moves.len() == 1 && G::pass_move().is_some() && moves.next() == G::pass_move()
    }

    /// The position after `mv`, or `None` if it is illegal here.
    pub fn play(&self, mv: G::Move) -> Option<Self> {
        self.state.play(mv).map(|state| Position {
            state,
            to_move: self.to_move.opposite(),
        })
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// The final score from black's point of view, once the game is over.
    pub fn black_score(&self) -> Option<i32> {
        self.is_over().then(|| match self.to_move {
            Color::Black => self.state.final_score(),
            Color::White => -self.state.final_score(),
        })
    }

    /// Who won, once the game is over.
    pub fn result(&self) -> GameResult {
        self.black_score().map(|s| match s {
            s if s > 0 => Outcome::Win(Color::Black),
            s if s < 0 => Outcome::Win(Color::White),
            _ => Outcome::Draw,
        })
    }

    /// Plays a list of move tokens from this position, inserting the passes that
    /// are forced but not written. Returns the final position and every move
    /// played, inserted passes included.
    ///
    /// # Errors
    /// The first token that is not a move, or not a legal one; nothing is applied.
    pub fn play_line<'a, I>(&self, tokens: I) -> Result<(Self, Vec<G::Move>), LineError>
    where
        I: IntoIterator<Item = &'a str>,
    {
        let mut position = *self;
        let mut played = Vec::new();
        for (i, token) in tokens.into_iter().enumerate() {
            let ply = i + 1;
            let mv: G::Move = token.parse().map_err(|e| LineError {
                ply,
                token: token.to_string(),
                kind: LineErrorKind::NotAMove(e),
            })?;
            if Some(mv) != G::pass_move() && position.must_pass() {
                let pass = G::pass_move().expect("must_pass implies a pass move");
                position = position.play(pass).expect("a forced pass is legal");
                played.push(pass);
            }
            position = position.play(mv).ok_or_else(|| LineError {
                ply,
                token: token.to_string(),
                kind: if position.is_over() {
                    LineErrorKind::GameOver
                } else {
                    LineErrorKind::Illegal
                },
            })?;
            played.push(mv);
        }
        Ok((position, played))
    }

    /// The image of the position under a board symmetry (colours unchanged).
    pub fn symmetry(&self, s: u8) -> Self {
        Position {
            state: self.state.symmetry(s),
            to_move: self.to_move,
        }
    }
}

/// Why a move list could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// 1-based index of the offending token in the list.
    pub ply: usize,
    /// The token as given.
    pub token: String,
    /// What is wrong with it.
    pub kind: LineErrorKind,
}

/// The kinds of [`LineError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineErrorKind {
    /// The token is not move notation.
    NotAMove(ParseMoveError),
    /// A well-formed move that is not legal in the position reached.
    Illegal,
    /// A move after the end of the game.
    GameOver,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            LineErrorKind::NotAMove(e) => write!(f, "{e} at ply {}", self.ply),
            LineErrorKind::Illegal => write!(f, "illegal move {} at ply {}", self.token, self.ply),
            LineErrorKind::GameOver => write!(
                f,
                "move {} at ply {} comes after the end of the game",
                self.token, self.ply
            ),
        }
    }
}

impl std::error::Error for LineError {}

impl<G: Game> FromStr for Position<G> {
    type Err = PositionError;

    /// The squares, whitespace, then the side to move; nothing after.
    fn from_str(s: &str) -> Result<Self, PositionError> {
        let mut tokens = s.split_whitespace();
        let squares = tokens.next().ok_or(PositionError::Empty)?;
        let side: Color = tokens.next().ok_or(PositionError::MissingSide)?.parse()?;
        if let Some(extra) = tokens.next() {
            return Err(PositionError::TrailingInput(extra.to_string()));
        }
        Ok(Position {
            state: G::parse_squares(squares, side)?,
            to_move: side,
        })
    }
}

impl<G: Game> fmt::Display for Position<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}",
            self.state.squares_string(self.to_move),
            self.to_move
        )
    }
}

impl<G: Game> Default for Position<G> {
    fn default() -> Self {
        Position::start()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Move, StandardOthello, TicTacToe};

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn start_position_round_trips() {
        let p: Position<StandardOthello> = START.parse().unwrap();
        assert_eq!(p, Position::start());
        assert_eq!(p.to_string(), START);
        let star = START.replace('X', "*");
        assert_eq!(star.parse::<Position<StandardOthello>>(), Ok(p));
    }

    #[test]
    fn bad_position_strings_are_typed_errors() {
        type P = Position<StandardOthello>;
        assert_eq!("".parse::<P>(), Err(PositionError::Empty));
        assert_eq!(
            START.trim_end_matches(" X").parse::<P>(),
            Err(PositionError::MissingSide)
        );
        assert!(matches!(
            START.replace(" X", " Q").parse::<P>(),
            Err(PositionError::BadSide(_))
        ));
        assert!(matches!(
            format!("{START} extra").parse::<P>(),
            Err(PositionError::TrailingInput(_))
        ));
        assert!(matches!(
            "----- X".parse::<P>(),
            Err(PositionError::WrongLength { found: 5, .. })
        ));
    }

    #[test]
    fn move_lines_insert_forced_passes_and_report_errors() {
        let start = Position::<StandardOthello>::start();
        let (p, moves) = start.play_line(["f5", "D6", "c3"]).unwrap();
        assert_eq!(moves.len(), 3);
        assert_eq!(p.to_move(), Color::White);
        let err = start.play_line(["f5", "e3"]).unwrap_err();
        assert_eq!(err.ply, 2);
        assert_eq!(err.to_string(), "illegal move e3 at ply 2");
        let err = start.play_line(["f5", "zz"]).unwrap_err();
        assert!(err.to_string().contains("'zz' is not a move"), "{err}");
        assert!(start.play_line(["pass"]).is_err());

        // Black to move has no move; white has. The pass may be written or not.
        let needs_pass: Position<StandardOthello> =
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X"
                .parse()
                .unwrap();
        assert!(needs_pass.must_pass());
        let (a, with) = needs_pass.play_line(["pass", "h8"]).unwrap();
        let (b, without) = needs_pass.play_line(["h8"]).unwrap();
        assert_eq!(a, b);
        assert_eq!(with, without);
        assert_eq!(with[0], Move::Pass);
        assert!(a.is_over());
        assert_eq!(a.black_score(), Some(61 - 3));
        assert_eq!(a.result(), Some(Outcome::Win(Color::Black)));
    }

    #[test]
    fn tictactoe_line_and_result() {
        let start = Position::<TicTacToe>::start();
        let (p, _) = start.play_line(["a1", "b1", "a2", "b2", "a3"]).unwrap();
        assert_eq!(p.result(), Some(Outcome::Win(Color::Black)));
        assert_eq!(p.to_string(), "XO-XO-X-- O");
        let err = p.play_line(["c3"]).unwrap_err();
        assert_eq!(err.kind, LineErrorKind::GameOver);
        assert!(start.play_line(["pass"]).is_err());
    }
}
