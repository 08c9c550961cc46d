//! Squares and moves of the 8x8 board, with the notation every Othello tool shares:
//! `a1`..`h8`, column letter first, row 1 at the top, and `pass`.

use std::fmt;
use std::str::FromStr;

use super::ParseMoveError;

/// One of the 64 squares: index `8 * row + column`, a1 = 0 (top-left), h8 = 63.
///
/// A `u8` newtype so that boards, move lists and hash entries stay small, and so
/// that a square can never be confused with a count or a bit mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with this index, if the index is on the board (0..64).
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `column` (0 = a) and `row` (0 = row 1, the top).
    #[inline]
    pub const fn from_coords(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 {
            Some(Square(row * 8 + column))
        } else {
            None
        }
    }

    /// Index 0..64, the bit of this square in a bitboard.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The single-bit mask of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Column 0..8 (0 = a).
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 & 7
    }

    /// Row 0..8 (0 = row 1, the top).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// All 64 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// The image of this square under board symmetry `s` (see [`super::bitboard::symmetry`]).
    pub const fn symmetry(self, s: u8) -> Square {
        Square(super::bitboard::symmetry(self.bit(), s).trailing_zeros() as u8)
    }
}

impl FromStr for Square {
    type Err = ParseMoveError;

    /// Parses `a1`..`h8`, in either case.
    fn from_str(s: &str) -> Result<Square, ParseMoveError> {
        let bad = || ParseMoveError::new(s, "a column a-h and a row 1-8, like f5, or pass");
        let bytes = s.as_bytes();
        if bytes.len() != 2 {
            return Err(bad());
        }
        let column = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = bytes[1].wrapping_sub(b'1');
        Square::from_coords(column, row).ok_or_else(bad)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column()) as char, self.row() + 1)
    }
}

/// A move in Othello: a disc on a square, or a pass when the side to move has
/// no legal placement (and the opponent has one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// No legal placement: the turn goes to the opponent.
    Pass,
    /// A disc placed on this square.
    Play(Square),
}

impl Move {
    /// A one-byte code (square index, 64 for a pass) for tables and hash entries.
    #[inline]
    pub const fn code(self) -> u8 {
        match self {
            Move::Pass => 64,
            Move::Play(sq) => sq.index(),
        }
    }

    /// The move with this [`code`](Move::code), if the code is valid.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Move> {
        if code == 64 {
            Some(Move::Pass)
        } else {
            match Square::new(code) {
                Some(sq) => Some(Move::Play(sq)),
                None => None,
            }
        }
    }

    /// The image of this move under board symmetry `s`.
    pub const fn symmetry(self, s: u8) -> Move {
        match self {
            Move::Pass => Move::Pass,
            Move::Play(sq) => Move::Play(sq.symmetry(s)),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses a square or a pass: `pass`, `PA`, `ps` or `--` (any case).
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if is_pass_token(s) {
            Ok(Move::Pass)
        } else {
            s.parse().map(Move::Play)
        }
    }
}

/// Whether a token is one of the pass spellings used by Othello tools.
pub fn is_pass_token(s: &str) -> bool {
    ["pass", "pa", "ps", "--"]
        .iter()
        .any(|p| s.eq_ignore_ascii_case(p))
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pass => f.write_str("pass"),
            Move::Play(sq) => sq.fmt(f),
        }
    }
}

impl From<Square> for Move {
    fn from(sq: Square) -> Move {
        Move::Play(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>(), Ok(sq));
            assert_eq!(name.to_uppercase().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("h1".parse::<Square>().unwrap().index(), 7);
        assert_eq!("a8".parse::<Square>().unwrap().index(), 56);
        assert_eq!("F5".parse::<Square>().unwrap().index(), 37);
    }

    #[test]
    fn bad_square_names_are_errors() {
        for bad in ["", "a", "a9", "i1", "a0", "11", "aa", "a10", "é1", "f5 "] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?} parsed");
        }
        let message = "z9".parse::<Square>().unwrap_err().to_string();
        assert!(message.contains("z9"), "{message}");
    }

    #[test]
    fn pass_spellings() {
        for p in ["pass", "PASS", "PA", "pa", "ps", "PS", "--"] {
            assert_eq!(p.parse::<Move>(), Ok(Move::Pass), "{p}");
        }
        assert_eq!(Move::Pass.to_string(), "pass");
    }

    #[test]
    fn move_codes_round_trip() {
        for code in 0..=64 {
            assert_eq!(Move::from_code(code).unwrap().code(), code);
        }
        assert_eq!(Move::from_code(65), None);
    }
}
