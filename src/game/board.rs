//! The Othello board: two bitboards, side to move first, copied on every move.
//!
//! The board is relative (`player` is whoever moves next), as in Edax and Neural
//! Reversi: a search never needs to know which colour it plays, and a position and
//! its colour-swapped twin share transposition-table entries. Absolute colours
//! live one level up, in [`super::Position`].

use super::bitboard::{Bits, symmetry};
use super::flip;
use super::square::{Move, Square};
use super::{Color, PositionError};

/// An Othello position from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Board {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
}

impl Board {
    /// A board from two disjoint disc sets, side to move first.
    ///
    /// # Panics
    /// In debug builds, if the sets overlap.
    #[inline]
    pub const fn new(player: u64, opponent: u64) -> Board {
        debug_assert!(player & opponent == 0);
        Board { player, opponent }
    }

    /// The standard start position, black (the side to move) on d5 and e4.
    pub const fn start() -> Board {
        Board::new(0x0000_0008_1000_0000, 0x0000_0010_0800_0000)
    }

    /// Squares where the side to move may play.
    #[inline]
    pub fn moves(&self) -> u64 {
        flip::legal_moves(self.player, self.opponent)
    }

    /// Squares where the opponent could play if it were its turn.
    #[inline]
    pub fn opponent_moves(&self) -> u64 {
        flip::legal_moves(self.opponent, self.player)
    }

    /// Discs flipped by playing on `square` (0 if the move is illegal).
    #[inline]
    pub fn flips(&self, square: Square) -> u64 {
        flip::flips(self.player, self.opponent, square.index())
    }

    /// The board after the side to move plays on `square` flipping `flipped`;
    /// the hot-path form when the flips are already known.
    #[inline]
    pub const fn apply(&self, square: Square, flipped: u64) -> Board {
        Board {
            player: self.opponent ^ flipped,
            opponent: self.player ^ flipped ^ square.bit(),
        }
    }

    /// The board after playing on `square`, which the caller knows to be legal.
    #[inline]
    pub fn play_unchecked(&self, square: Square) -> Board {
        self.apply(square, self.flips(square))
    }

    /// The board after playing on `square`, or `None` when that is not a legal move.
    pub fn play(&self, square: Square) -> Option<Board> {
        if (self.player | self.opponent) & square.bit() != 0 {
            return None;
        }
        let flipped = self.flips(square);
        (flipped != 0).then(|| self.apply(square, flipped))
    }

    /// The board after a move (a pass just hands the turn over). Unchecked.
    #[inline]
    pub fn play_move_unchecked(&self, mv: Move) -> Board {
        match mv {
            Move::Pass => self.pass(),
            Move::Play(sq) => self.play_unchecked(sq),
        }
    }

    /// The same discs with the other side to move.
    #[inline]
    pub const fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// Whether the side to move has a legal placement.
    #[inline]
    pub fn can_move(&self) -> bool {
        self.moves() != 0
    }

    /// Neither side can move: the game has ended.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && self.opponent_moves() == 0
    }

    /// Empty squares.
    #[inline]
    pub const fn empty(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Number of empty squares.
    #[inline]
    pub const fn empties(&self) -> u32 {
        self.empty().count_ones()
    }

    /// Discs of the side to move.
    #[inline]
    pub const fn player_discs(&self) -> u32 {
        self.player.count_ones()
    }

    /// Discs of the other side.
    #[inline]
    pub const fn opponent_discs(&self) -> u32 {
        self.opponent.count_ones()
    }

    /// The final score of a finished game for the side to move, by the standard
    /// rule: disc difference, with the empty squares given to the winner.
    #[inline]
    pub const fn final_score(&self) -> i32 {
        let diff = self.player_discs() as i32 - self.opponent_discs() as i32;
        let empties = self.empties() as i32;
        if diff > 0 {
            diff + empties
        } else if diff < 0 {
            diff - empties
        } else {
            0
        }
    }

    /// The image of the board under one of the eight symmetries of the square.
    pub const fn symmetry(&self, s: u8) -> Board {
        Board {
            player: symmetry(self.player, s),
            opponent: symmetry(self.opponent, s),
        }
    }

    /// The legal placements, lowest square first.
    pub fn move_squares(&self) -> impl ExactSizeIterator<Item = Square> + Clone {
        Bits(self.moves()).map(|i| Square::new(i).expect("bit index < 64"))
    }

    /// The 64-character square string (`X` black, `O` white, `-` empty, a1..h8),
    /// given which colour is to move.
    pub fn squares_string(&self, to_move: Color) -> String {
        let (black, white) = self.by_color(to_move);
        (0..64)
            .map(|i| {
                if black >> i & 1 != 0 {
                    'X'
                } else if white >> i & 1 != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect()
    }

    /// The disc sets as (black, white), given which colour is to move.
    pub const fn by_color(&self, to_move: Color) -> (u64, u64) {
        match to_move {
            Color::Black => (self.player, self.opponent),
            Color::White => (self.opponent, self.player),
        }
    }

    /// The board from absolute disc sets and the colour to move.
    pub const fn from_colors(black: u64, white: u64, to_move: Color) -> Board {
        match to_move {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        }
    }

    /// Parses the 64 square characters (`X`/`x`/`*`/`B` black, `O`/`o`/`W` white,
    /// `-`/`.`/`_` empty), a1..h8 row by row.
    ///
    /// # Errors
    /// The wrong number of characters, or a character that is not a square.
    pub fn parse_squares(s: &str, to_move: Color) -> Result<Board, PositionError> {
        let count = s.chars().count();
        if count != 64 {
            return Err(PositionError::WrongLength {
                expected: 64,
                found: count,
            });
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, ch) in s.chars().enumerate() {
            match ch {
                'X' | 'x' | '*' | 'B' | 'b' => black |= 1 << i,
                'O' | 'o' | 'W' | 'w' | '0' => white |= 1 << i,
                '-' | '.' | '_' => {}
                _ => {
                    return Err(PositionError::BadSquare {
                        index: i,
                        found: ch,
                    });
                }
            }
        }
        Ok(Board::from_colors(black, white, to_move))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_string() {
        let b = Board::start();
        assert_eq!(
            b.squares_string(Color::Black),
            "---------------------------OX------XO---------------------------"
        );
        assert_eq!(
            Board::parse_squares(&b.squares_string(Color::Black), Color::Black),
            Ok(b)
        );
        assert_eq!(b.moves().count_ones(), 4);
    }

    #[test]
    fn final_score_gives_empties_to_winner() {
        // 3 discs against 1, 60 empties: +62 for the side with more.
        let b = Board::new(0b111, 0b1000);
        assert_eq!(b.final_score(), 62);
        assert_eq!(b.pass().final_score(), -62);
        assert_eq!(Board::new(1, 2).final_score(), 0);
    }

    #[test]
    fn illegal_plays_are_refused() {
        let b = Board::start();
        assert!(b.play("a1".parse().unwrap()).is_none());
        assert!(b.play("d4".parse().unwrap()).is_none(), "occupied");
        let after = b.play("f5".parse().unwrap()).unwrap();
        assert_eq!(after.opponent_discs(), 4);
        assert_eq!(after.player_discs(), 1);
    }

    #[test]
    fn bad_square_characters() {
        let mut s = "-".repeat(64);
        s.replace_range(10..11, "?");
        assert_eq!(
            Board::parse_squares(&s, Color::Black),
            Err(PositionError::BadSquare {
                index: 10,
                found: '?'
            })
        );
        assert!(matches!(
            Board::parse_squares("---", Color::Black),
            Err(PositionError::WrongLength { found: 3, .. })
        ));
    }
}
