//! The rules of the three games Orca plays, and the one interface a search is
//! generic over.
//!
//! [`Game`] is implemented by [`Othello`] (standard and reversed rules, chosen by a
//! const parameter so the bitboard code is specialised at compile time) and by
//! [`TicTacToe`]. Game states are relative to the side to move; [`Position`] adds
//! the absolute colour, which only notation and the protocols need.

pub mod any;
pub mod bitboard;
pub mod board;
pub mod flip;
pub mod line;
pub mod othello;
pub mod position;
pub mod square;
pub mod tictactoe;
pub mod wording;

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use crate::cpu::Isa;

pub use any::{AnyMove, AnyPosition};
pub use board::Board;
pub use line::GameLine;
pub use othello::{Othello, ReversedOthello, StandardOthello};
pub use position::{GameResult, LineError, Position};
pub use square::{Move, Square};
pub use tictactoe::TicTacToe;

/// The two sides. Black (`X`) moves first in every game; the protocols call it p1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player: black in Othello, X in tic-tac-toe.
    Black,
    /// The second player: white in Othello, O in tic-tac-toe.
    White,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The letter used in position strings: `X` or `O`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Color {
    type Err = PositionError;

    /// `X`, `*`, `B` or `black` for black; `O`, `W` or `white` for white (any case).
    fn from_str(s: &str) -> Result<Color, PositionError> {
        match s.to_ascii_lowercase().as_str() {
            "x" | "*" | "b" | "black" => Ok(Color::Black),
            "o" | "w" | "white" => Ok(Color::White),
            _ => Err(PositionError::BadSide(s.to_string())),
        }
    }
}

/// The game being played, chosen at run time by the protocols and the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Standard Othello: most discs wins.
    #[default]
    Othello,
    /// Reversed Othello: same moves, fewest discs wins.
    Reversed,
    /// Tic-tac-toe on 3x3, X first.
    TicTacToe,
}

impl Variant {
    /// Every variant, in the order options list them.
    pub const ALL: [Variant; 3] = [Variant::Othello, Variant::Reversed, Variant::TicTacToe];

    /// The canonical lower-case name used in options and flags.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Othello => "othello",
            Variant::Reversed => "reversed",
            Variant::TicTacToe => "tictactoe",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word that names none of the choices of a setting: a variant, a protocol,
/// an evaluation, a pass rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What the word should name (`variant`, `protocol`, ...).
    pub what: &'static str,
    /// The word as given.
    pub name: String,
    /// The choices, as the message lists them.
    pub expected: &'static str,
}

impl UnknownName {
    /// `name` names no `what`; `expected` lists the choices.
    pub fn new(what: &'static str, name: &str, expected: &'static str) -> UnknownName {
        UnknownName {
            what,
            name: name.to_string(),
            expected,
        }
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} '{}' (expected {})",
            self.what, self.name, self.expected
        )
    }
}

impl std::error::Error for UnknownName {}

impl FromStr for Variant {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Variant, UnknownName> {
        match s.to_ascii_lowercase().as_str() {
            "othello" | "standard" | "reversi" => Ok(Variant::Othello),
            "reversed" | "anti" | "antireversi" | "reversed-othello" => Ok(Variant::Reversed),
            "tictactoe" | "tic-tac-toe" | "ttt" => Ok(Variant::TicTacToe),
            _ => Err(UnknownName::new(
                "variant",
                s,
                "othello, reversed or tictactoe",
            )),
        }
    }
}

/// A move token that names no move of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    /// The token as given.
    pub token: String,
    /// What a move of this game looks like.
    pub expected: &'static str,
}

impl ParseMoveError {
    /// An error for `token`, saying what was expected instead.
    pub fn new(token: &str, expected: &'static str) -> ParseMoveError {
        ParseMoveError {
            token: token.to_string(),
            expected,
        }
    }
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a move (expected {})",
            self.token, self.expected
        )
    }
}

impl std::error::Error for ParseMoveError {}

/// What is wrong with a position string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Nothing was given.
    Empty,
    /// The board part has the wrong number of squares.
    WrongLength {
        /// Squares the game has.
        expected: usize,
        /// Characters found.
        found: usize,
    },
    /// A character that is not a disc or an empty square.
    BadSquare {
        /// Zero-based index of the character in the board part.
        index: usize,
        /// The character found.
        found: char,
    },
    /// The side to move is missing after the board.
    MissingSide,
    /// The side to move is not `X`/`*`/`B` or `O`/`W`.
    BadSide(String),
    /// More tokens after the side to move.
    TrailingInput(String),
    /// The squares are well formed but the position cannot arise in the game.
    Unreachable(&'static str),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Empty => write!(f, "empty position string"),
            PositionError::WrongLength { expected, found } => {
                write!(f, "position has {found} squares, expected {expected}")
            }
            PositionError::BadSquare { index, found } => write!(
                f,
                "bad square character {found:?} at index {index} (expected X, O or -)"
            ),
            PositionError::MissingSide => {
                write!(
                    f,
                    "side to move missing after the squares (expected X or O)"
                )
            }
            PositionError::BadSide(s) => {
                write!(f, "bad side to move '{s}' (expected X or O)")
            }
            PositionError::TrailingInput(s) => {
                write!(f, "unexpected '{s}' after the side to move")
            }
            PositionError::Unreachable(why) => write!(f, "impossible position: {why}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A two-player, perfect-information game with alternating turns, as the search
/// sees it: a small `Copy` state relative to the side to move.
///
/// One alpha-beta serves every implementor; each implementor is monomorphised,
/// so the hot path of Othello is bitboard code with no dynamic dispatch.
pub trait Game: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static {
    /// A move, including a pass where the game has one.
    type Move: Copy
        + Eq
        + Hash
        + fmt::Debug
        + fmt::Display
        + FromStr<Err = ParseMoveError>
        + Send
        + Sync
        + 'static;

    /// The legal moves of a state.
    type Moves: Iterator<Item = Self::Move> + ExactSizeIterator + Clone;

    /// Which game this is, for the protocols.
    const VARIANT: Variant;

    /// Squares on the board: move codes are below `SQUARES + 1`.
    const SQUARES: usize;

    /// The start of a game, first player to move.
    fn start() -> Self;

    /// Legal moves. A forced pass is the single move `pass`; no moves at all means
    /// the game is over.
    fn legal_moves(&self) -> Self::Moves;

    /// The state after a legal move (one returned by `legal_moves`). Unchecked.
    fn play_unchecked(&self, mv: Self::Move) -> Self;

    /// [`Game::legal_moves`] with the kernels of `isa`, for the fast copies of
    /// the searches ([`crate::cpu`]).
    #[inline(always)]
    fn legal_moves_with<I: Isa>(&self, isa: I) -> Self::Moves {
        let _ = isa;
        self.legal_moves()
    }

    /// [`Game::play_unchecked`] with the kernels of `isa`.
    #[inline(always)]
    fn play_unchecked_with<I: Isa>(&self, isa: I, mv: Self::Move) -> Self {
        let _ = isa;
        self.play_unchecked(mv)
    }

    /// The state after `mv`, or `None` when `mv` is not legal here.
    fn play(&self, mv: Self::Move) -> Option<Self>;

    /// Neither side can move.
    fn is_over(&self) -> bool;

    /// The result of a finished game for the side to move: positive is a win.
    /// Othello variants count discs; tic-tac-toe gives +1, 0 or -1.
    fn final_score(&self) -> i32;

    /// A well-mixed 64-bit key for hash tables.
    fn hash_key(&self) -> u64;

    /// Empty squares: a bound on the moves left, for time management.
    fn empties(&self) -> u32;

    /// The pass move, if the game has passes.
    fn pass_move() -> Option<Self::Move>;

    /// A compact code (below `SQUARES + 1`) for tables and hash entries.
    fn move_code(mv: Self::Move) -> u8;

    /// The move with this code.
    fn move_from_code(code: u8) -> Option<Self::Move>;

    /// Parses the squares part of a position string, given the side to move.
    ///
    /// # Errors
    /// When the string does not describe a state of this game.
    fn parse_squares(s: &str, to_move: Color) -> Result<Self, PositionError>;

    /// The squares part of a position string, given the side to move.
    fn squares_string(&self, to_move: Color) -> String;

    /// The image of the state under symmetry `s` (0..8) of the square board.
    fn symmetry(&self, s: u8) -> Self;

    /// The image of a move under the same symmetry.
    fn move_symmetry(mv: Self::Move, s: u8) -> Self::Move;
}

/// Runs `$body` with the type alias `$G` bound to the [`Game`] of a run-time
/// [`Variant`]: the one place where the protocol's enum becomes a type parameter.
#[macro_export]
macro_rules! with_game {
    ($variant:expr, $G:ident => $body:expr) => {
        match $variant {
            $crate::game::Variant::Othello => {
                type $G = $crate::game::StandardOthello;
                $body
            }
            $crate::game::Variant::Reversed => {
                type $G = $crate::game::ReversedOthello;
                $body
            }
            $crate::game::Variant::TicTacToe => {
                type $G = $crate::game::TicTacToe;
                $body
            }
        }
    };
}

/// Mixes two words into a hash key (the finaliser of SplitMix64 on a combination),
/// cheap enough for every node and good enough for a transposition table.
#[inline]
pub const fn mix_key(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(b.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.to_string().parse::<Variant>(), Ok(v));
        }
        assert_eq!(
            "chess".parse::<Variant>().unwrap_err().to_string(),
            "unknown variant 'chess' (expected othello, reversed or tictactoe)"
        );
        assert_eq!("TTT".parse::<Variant>(), Ok(Variant::TicTacToe));
    }

    #[test]
    fn colors_parse() {
        assert_eq!("*".parse::<Color>(), Ok(Color::Black));
        assert_eq!("x".parse::<Color>(), Ok(Color::Black));
        assert_eq!("O".parse::<Color>(), Ok(Color::White));
        assert!("Z".parse::<Color>().is_err());
        assert_eq!(Color::Black.opposite(), Color::White);
    }
}
