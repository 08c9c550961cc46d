//! Tic-tac-toe as a [`Game`]: the smallest game the same search plays, and a
//! check that the search is generic rather than Othello-shaped.
//!
//! Cells are `a1`..`c3` (column a-c left to right, row 1 at the top, as on the
//! Othello board). The position string is the 9 cells row by row (`X`, `O`, `-`)
//! followed by the side to move, e.g. `X---O---- X` (X on a1, O on b2, X to move).

use std::fmt;
use std::str::FromStr;

use super::bitboard::Bits;
use super::{Color, Game, ParseMoveError, PositionError, Variant, mix_key};

/// The eight winning lines as 9-bit masks (bit = 3 * row + column).
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0x1FF;

/// One of the nine cells: index `3 * row + column`, a1 = 0, c3 = 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell with this index, if it is below 9.
    pub const fn new(index: u8) -> Option<Cell> {
        if index < 9 { Some(Cell(index)) } else { None }
    }

    /// Index 0..9.
    pub const fn index(self) -> u8 {
        self.0
    }

    const fn bit(self) -> u16 {
        1 << self.0
    }
}

impl FromStr for Cell {
    type Err = ParseMoveError;

    /// `a1`..`c3`, in either case.
    fn from_str(s: &str) -> Result<Cell, ParseMoveError> {
        let bad = || ParseMoveError::new(s, "a column a-c and a row 1-3, like b2");
        let bytes = s.as_bytes();
        if bytes.len() != 2 {
            return Err(bad());
        }
        let column = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = bytes[1].wrapping_sub(b'1');
        if column < 3 && row < 3 {
            Ok(Cell(row * 3 + column))
        } else {
            Err(bad())
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.0 % 3) as char, self.0 / 3 + 1)
    }
}

/// A tic-tac-toe position from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TicTacToe {
    /// Marks of the side to move.
    pub player: u16,
    /// Marks of the other side.
    pub opponent: u16,
}

fn covers(marks: u16, line: u16) -> bool {
    marks & line == line
}

fn has_line(marks: u16) -> bool {
    LINES.iter().any(|&line| covers(marks, line))
}

/// The empty cells of a running game.
pub type TicTacToeMoves = std::iter::Map<Bits, fn(u8) -> Cell>;

impl Game for TicTacToe {
    type Move = Cell;
    type Moves = TicTacToeMoves;

    const VARIANT: Variant = Variant::TicTacToe;
    const SQUARES: usize = 9;

    fn start() -> Self {
        TicTacToe::default()
    }

    fn legal_moves(&self) -> TicTacToeMoves {
        let empty = if self.is_over() {
            0
        } else {
            FULL & !(self.player | self.opponent)
        };
        Bits(u64::from(empty)).map(Cell as fn(u8) -> Cell)
    }

    fn play_unchecked(&self, mv: Cell) -> Self {
        TicTacToe {
            player: self.opponent,
            opponent: self.player | mv.bit(),
        }
    }

    fn play(&self, mv: Cell) -> Option<Self> {
        let free = (self.player | self.opponent) & mv.bit() == 0;
        (free && !self.is_over()).then(|| self.play_unchecked(mv))
    }

    fn is_over(&self) -> bool {
        (self.player | self.opponent) == FULL || has_line(self.player) || has_line(self.opponent)
    }

    fn final_score(&self) -> i32 {
        if has_line(self.player) {
            1
        } else if has_line(self.opponent) {
            -1
        } else {
            0
        }
    }

    fn hash_key(&self) -> u64 {
        mix_key(u64::from(self.player), u64::from(self.opponent))
    }

    fn empties(&self) -> u32 {
        (FULL & !(self.player | self.opponent)).count_ones()
    }

    fn pass_move() -> Option<Cell> {
        None
    }

    fn move_code(mv: Cell) -> u8 {
        mv.0
    }

    fn move_from_code(code: u8) -> Option<Cell> {
        Cell::new(code)
    }

    fn parse_squares(s: &str, to_move: Color) -> Result<Self, PositionError> {
        let count = s.chars().count();
        if count != 9 {
            return Err(PositionError::WrongLength {
                expected: 9,
                found: count,
            });
        }
        let (mut x, mut o) = (0u16, 0u16);
        for (i, ch) in s.chars().enumerate() {
            match ch {
                'X' | 'x' | '*' => x |= 1 << i,
                'O' | 'o' | '0' => o |= 1 << i,
                '-' | '.' | '_' => {}
                _ => {
                    return Err(PositionError::BadSquare {
                        index: i,
                        found: ch,
                    });
                }
            }
        }
        let (nx, no) = (x.count_ones(), o.count_ones());
        let expected = if nx == no {
            Color::Black
        } else if nx == no + 1 {
            Color::White
        } else {
            return Err(PositionError::Unreachable(
                "X moves first, so X has as many marks as O or one more",
            ));
        };
        if expected != to_move {
            return Err(PositionError::Unreachable(
                "the side to move does not match the number of marks",
            ));
        }
        if has_line(x) && has_line(o) {
            return Err(PositionError::Unreachable("both sides have a line"));
        }
        if (has_line(x) && to_move == Color::Black) || (has_line(o) && to_move == Color::White) {
            return Err(PositionError::Unreachable(
                "the side that made a line cannot also be the side to move",
            ));
        }
        Ok(match to_move {
            Color::Black => TicTacToe {
                player: x,
                opponent: o,
            },
            Color::White => TicTacToe {
                player: o,
                opponent: x,
            },
        })
    }

    fn squares_string(&self, to_move: Color) -> String {
        let (x, o) = match to_move {
            Color::Black => (self.player, self.opponent),
            Color::White => (self.opponent, self.player),
        };
        (0..9)
            .map(|i| {
                if x >> i & 1 != 0 {
                    'X'
                } else if o >> i & 1 != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect()
    }

    fn symmetry(&self, s: u8) -> Self {
        TicTacToe {
            player: transform(self.player, s),
            opponent: transform(self.opponent, s),
        }
    }

    fn move_symmetry(mv: Cell, s: u8) -> Cell {
        Cell(transform(mv.bit(), s).trailing_zeros() as u8)
    }
}

/// Symmetry `s` of the 3x3 square, with the same meaning of the bits of `s` as
/// [`super::bitboard::symmetry`]: horizontal, vertical, then diagonal mirror.
fn transform(marks: u16, s: u8) -> u16 {
    let mut out = 0;
    for i in 0..9u16 {
        if marks >> i & 1 != 0 {
            let (mut r, mut c) = (i / 3, i % 3);
            if s & 1 != 0 {
                c = 2 - c;
            }
            if s & 2 != 0 {
                r = 2 - r;
            }
            if s & 4 != 0 {
                (r, c) = (c, r);
            }
            out |= 1 << (r * 3 + c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        for i in 0..9 {
            let c = Cell::new(i).unwrap();
            assert_eq!(c.to_string().parse::<Cell>(), Ok(c));
        }
        assert_eq!("b2".parse::<Cell>().unwrap().index(), 4);
        assert!("d1".parse::<Cell>().is_err());
        assert!("a4".parse::<Cell>().is_err());
    }

    #[test]
    fn wins_and_draws() {
        let won = TicTacToe::parse_squares("XXXOO----", Color::White).unwrap();
        assert!(won.is_over());
        assert_eq!(won.final_score(), -1);
        assert_eq!(won.legal_moves().count(), 0);
        let draw = TicTacToe::parse_squares("XOXXOOOXX", Color::White).unwrap();
        assert!(draw.is_over());
        assert_eq!(draw.final_score(), 0);
    }

    #[test]
    fn unreachable_positions_are_errors() {
        assert!(TicTacToe::parse_squares("XX-------", Color::White).is_err());
        assert!(TicTacToe::parse_squares("X--------", Color::Black).is_err());
        assert!(TicTacToe::parse_squares("XXXOOO---", Color::Black).is_err());
        assert!(TicTacToe::parse_squares("XXXOO----", Color::Black).is_err());
        assert!(TicTacToe::parse_squares("XXXOO-?--", Color::White).is_err());
    }
}
