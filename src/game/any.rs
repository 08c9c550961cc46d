//! A position of whichever game is being played, chosen at run time.
//!
//! The protocols let the user switch games with an option, so their state holds
//! an [`AnyPosition`]; everything below it (rules, search) works on one concrete
//! game type at a time. Moves cross this boundary as an [`AnyMove`].

use std::fmt;

use super::tictactoe::Cell;
use super::{
    Color, Game, GameResult, LineError, Move, ParseMoveError, Position, PositionError,
    ReversedOthello, StandardOthello, TicTacToe, Variant,
};

/// A move of one of Orca's games: what the engine answers and what its
/// principal variations hold. Both Othello variants share [`Move`].
///
/// The games share their notation (`a1` names a move of each, on different
/// boards), so a move is read from text together with its game:
/// [`AnyMove::parse`] or [`AnyPosition::parse_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A move of standard or reversed Othello, a pass included.
    Othello(Move),
    /// A move of tic-tac-toe.
    TicTacToe(Cell),
}

impl AnyMove {
    /// The pass (of the Othello variants; tic-tac-toe has none).
    pub const PASS: AnyMove = AnyMove::Othello(Move::Pass);

    /// Reads a move of `variant` in its notation (any case; the pass
    /// spellings of Othello tools where the game has passes).
    ///
    /// # Errors
    /// When the text names no move of that game.
    pub fn parse(variant: Variant, text: &str) -> Result<AnyMove, ParseMoveError> {
        match variant {
            Variant::Othello | Variant::Reversed => text.parse().map(AnyMove::Othello),
            Variant::TicTacToe => text.parse().map(AnyMove::TicTacToe),
        }
    }

    /// Whether this is a pass.
    pub fn is_pass(self) -> bool {
        self == AnyMove::PASS
    }
}

impl From<Move> for AnyMove {
    fn from(mv: Move) -> AnyMove {
        AnyMove::Othello(mv)
    }
}

impl From<Cell> for AnyMove {
    fn from(cell: Cell) -> AnyMove {
        AnyMove::TicTacToe(cell)
    }
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Othello(mv) => mv.fmt(f),
            AnyMove::TicTacToe(cell) => cell.fmt(f),
        }
    }
}

/// A position of one of Orca's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyPosition {
    /// Standard Othello.
    Othello(Position<StandardOthello>),
    /// Reversed Othello.
    Reversed(Position<ReversedOthello>),
    /// Tic-tac-toe.
    TicTacToe(Position<TicTacToe>),
}

/// Runs `$body` with `$p` bound to the concrete position inside an [`AnyPosition`].
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::game::AnyPosition::Othello($p) => $body,
            $crate::game::AnyPosition::Reversed($p) => $body,
            $crate::game::AnyPosition::TicTacToe($p) => $body,
        }
    };
}

/// Runs `$body` with `$p` bound to the concrete position inside an
/// [`AnyPosition`], and wraps the resulting position back into the same variant.
macro_rules! map_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            AnyPosition::Othello($p) => AnyPosition::Othello($body),
            AnyPosition::Reversed($p) => AnyPosition::Reversed($body),
            AnyPosition::TicTacToe($p) => AnyPosition::TicTacToe($body),
        }
    };
}

impl AnyPosition {
    /// The start position of `variant`.
    pub fn start(variant: Variant) -> AnyPosition {
        match variant {
            Variant::Othello => AnyPosition::Othello(Position::start()),
            Variant::Reversed => AnyPosition::Reversed(Position::start()),
            Variant::TicTacToe => AnyPosition::TicTacToe(Position::start()),
        }
    }

    /// Parses a position string (squares and side to move) of `variant`.
    ///
    /// # Errors
    /// When the string is not a position of that game.
    pub fn parse(variant: Variant, text: &str) -> Result<AnyPosition, PositionError> {
        Ok(match variant {
            Variant::Othello => AnyPosition::Othello(text.parse()?),
            Variant::Reversed => AnyPosition::Reversed(text.parse()?),
            Variant::TicTacToe => AnyPosition::TicTacToe(text.parse()?),
        })
    }

    /// The game of this position.
    pub fn variant(&self) -> Variant {
        match self {
            AnyPosition::Othello(_) => Variant::Othello,
            AnyPosition::Reversed(_) => Variant::Reversed,
            AnyPosition::TicTacToe(_) => Variant::TicTacToe,
        }
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Color {
        with_position!(self, p => p.to_move())
    }

    /// The game has ended.
    pub fn is_over(&self) -> bool {
        with_position!(self, p => p.is_over())
    }

    /// The side to move has no placement but the game goes on.
    pub fn must_pass(&self) -> bool {
        with_position!(self, p => p.must_pass())
    }

    /// Who won, once the game is over.
    pub fn result(&self) -> GameResult {
        with_position!(self, p => p.result())
    }

    /// Final score from black's view, once the game is over.
    pub fn black_score(&self) -> Option<i32> {
        with_position!(self, p => p.black_score())
    }

    /// Empty squares.
    pub fn empties(&self) -> u32 {
        with_position!(self, p => p.state().empties())
    }

    /// Discs (or marks) of each colour: (black, white).
    pub fn counts(&self) -> (u32, u32) {
        with_position!(self, p => {
            let s = p.state().squares_string(p.to_move());
            (s.matches('X').count() as u32, s.matches('O').count() as u32)
        })
    }

    /// The legal moves in the game's notation (a forced pass is `pass`).
    pub fn legal_move_names(&self) -> Vec<String> {
        with_position!(self, p => p.legal_moves().map(|m| m.to_string()).collect())
    }

    /// The legal moves (a forced pass is the single move pass).
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        with_position!(self, p => p.legal_moves().map(AnyMove::from).collect())
    }

    /// Reads a move of this position's game; see [`AnyMove::parse`].
    ///
    /// # Errors
    /// When the text names no move of the game.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, ParseMoveError> {
        AnyMove::parse(self.variant(), text)
    }

    /// The position after `mv`, or `None` when `mv` is not a legal move here
    /// (a move of another game is not).
    pub fn play(&self, mv: AnyMove) -> Option<AnyPosition> {
        match (self, mv) {
            (AnyPosition::Othello(p), AnyMove::Othello(m)) => p.play(m).map(AnyPosition::Othello),
            (AnyPosition::Reversed(p), AnyMove::Othello(m)) => p.play(m).map(AnyPosition::Reversed),
            (AnyPosition::TicTacToe(p), AnyMove::TicTacToe(m)) => {
                p.play(m).map(AnyPosition::TicTacToe)
            }
            _ => None,
        }
    }

    /// Plays a list of moves, inserting forced passes that are left out.
    ///
    /// # Errors
    /// The first bad or illegal move; the position is not changed.
    pub fn play_line<'a, I>(&self, tokens: I) -> Result<AnyPosition, LineError>
    where
        I: IntoIterator<Item = &'a str>,
    {
        Ok(match self {
            AnyPosition::Othello(p) => AnyPosition::Othello(p.play_line(tokens)?.0),
            AnyPosition::Reversed(p) => AnyPosition::Reversed(p.play_line(tokens)?.0),
            AnyPosition::TicTacToe(p) => AnyPosition::TicTacToe(p.play_line(tokens)?.0),
        })
    }

    /// The image of the position under a board symmetry.
    pub fn symmetry(&self, s: u8) -> AnyPosition {
        map_position!(self, p => p.symmetry(s))
    }

    /// A picture of the board for people: coordinates, discs, side to move.
    pub fn diagram(&self) -> Vec<String> {
        with_position!(self, p => {
            let squares: Vec<char> = p.state().squares_string(p.to_move()).chars().collect();
            let width = if squares.len() == 64 { 8 } else { 3 };
            let legal: Vec<String> = p.legal_moves().map(|m| m.to_string()).collect();
            let mut lines = Vec::new();
            let header: String = (0..width).map(|c| format!(" {}", (b'a' + c as u8) as char)).collect();
            lines.push(format!("  {header}"));
            for row in 0..width {
                let cells: String = (0..width)
                    .map(|c| {
                        let name = format!("{}{}", (b'a' + c as u8) as char, row + 1);
                        let ch = squares[row * width + c];
                        let shown = if ch == '-' && legal.contains(&name) { '*' } else if ch == '-' { '.' } else { ch };
                        format!(" {shown}")
                    })
                    .collect();
                lines.push(format!("{:>2}{cells}", row + 1));
            }
            lines
        })
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_position!(self, p => p.fmt(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_and_lines_in_each_variant() {
        for v in Variant::ALL {
            let p = AnyPosition::start(v);
            assert_eq!(p.variant(), v);
            assert_eq!(p.to_move(), Color::Black);
            assert!(!p.is_over());
            assert_eq!(AnyPosition::parse(v, &p.to_string()), Ok(p));
        }
        let o = AnyPosition::start(Variant::Othello);
        assert_eq!(o.legal_move_names(), ["d3", "c4", "f5", "e6"]);
        let after = o.play_line(["f5", "d6"]).unwrap();
        assert_eq!(after.to_move(), Color::Black);
        assert_eq!(after.counts(), (3, 3));
        assert!(o.play_line(["a1"]).is_err());
        let t = AnyPosition::start(Variant::TicTacToe);
        assert_eq!(t.legal_move_names().len(), 9);
        assert_eq!(t.diagram().len(), 4);
        assert_eq!(o.diagram()[4], " 4 . . * O X . . .");
    }

    #[test]
    fn moves_are_read_with_their_game_and_played() {
        let o = AnyPosition::start(Variant::Othello);
        let f5 = o.parse_move("F5").unwrap();
        assert_eq!(f5.to_string(), "f5");
        assert_eq!(o.play(f5), o.play_line(["f5"]).ok());
        assert_eq!(o.play(o.parse_move("a1").unwrap()), None);
        let t = AnyPosition::start(Variant::TicTacToe);
        let a1 = t.parse_move("a1").unwrap();
        assert_ne!(a1, o.parse_move("a1").unwrap());
        // A move of another game is never legal.
        assert_eq!(o.play(a1), None);
        assert!(t.parse_move("d4").is_err());
        assert!(t.parse_move("pass").is_err());
        let pass = AnyMove::parse(Variant::Reversed, "PA").unwrap();
        assert!(pass.is_pass());
        assert_eq!(pass.to_string(), "pass");
        let names: Vec<String> = o.legal_moves().iter().map(ToString::to_string).collect();
        assert_eq!(names, o.legal_move_names());
    }
}
