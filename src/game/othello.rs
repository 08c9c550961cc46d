//! Othello as a [`Game`]: standard rules and reversed rules over the same board.
//!
//! Both variants share moves and flips; they differ only in who wins. The rules are
//! a const parameter, so a search over [`StandardOthello`] or [`ReversedOthello`]
//! compiles to straight bitboard code.
//!
//! **Score convention.** Standard Othello: the final score is the disc difference
//! for the side to move, with the empty squares added to the winner's discs (the
//! official rule, used by WTHOR and the FFO suite). Reversed Othello: the final
//! score is exactly the negation of that number. The side with fewer discs wins,
//! and the empty squares are added to the loser's discs, so they widen the
//! winner's margin just as in the standard game. (Example: 20 against 30 discs with
//! 14 empties is -24 in standard Othello and +24 for the side with 20 discs in
//! reversed Othello.) Orca uses this convention everywhere: search, solver,
//! protocols and match results.

use super::bitboard::Bits;
use super::flip::{flips_with, legal_moves_with};
use super::square::{Move, Square};
use super::{Board, Color, Game, PositionError, Variant, mix_key};
use crate::cpu::Isa;

/// Othello with the rules chosen at compile time: `REVERSED = false` is the
/// standard game (most discs wins), `true` the reversed game (fewest discs wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Othello<const REVERSED: bool>(pub Board);

/// Standard Othello: most discs wins.
pub type StandardOthello = Othello<false>;

/// Reversed Othello (anti-Othello): fewest discs wins.
pub type ReversedOthello = Othello<true>;

impl<const REVERSED: bool> Othello<REVERSED> {
    /// The final score under these rules, given the standard-rule score.
    #[inline]
    pub const fn score_from_standard(standard: i32) -> i32 {
        if REVERSED { -standard } else { standard }
    }
}

/// The legal moves of an Othello position: the placements, or a single pass.
#[derive(Clone, Copy, Debug)]
pub struct OthelloMoves {
    squares: Bits,
    pass: bool,
}

impl OthelloMoves {
    /// The moves of `board`, with a pass when the side to move is stuck but the
    /// opponent is not.
    #[inline]
    pub fn of(board: &Board) -> OthelloMoves {
        let moves = board.moves();
        OthelloMoves {
            squares: Bits(moves),
            pass: moves == 0 && board.opponent_moves() != 0,
        }
    }

    /// [`OthelloMoves::of`] with the kernels of `isa`.
    #[inline(always)]
    fn of_with<I: Isa>(isa: I, board: &Board) -> OthelloMoves {
        let moves = legal_moves_with(isa, board.player, board.opponent);
        OthelloMoves {
            squares: Bits(moves),
            pass: moves == 0 && legal_moves_with(isa, board.opponent, board.player) != 0,
        }
    }
}

impl Iterator for OthelloMoves {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.pass {
            self.pass = false;
            return Some(Move::Pass);
        }
        self.squares
            .next()
            .map(|i| Move::Play(Square::new(i).expect("bit index < 64")))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.squares.len() + self.pass as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for OthelloMoves {}

impl<const REVERSED: bool> Game for Othello<REVERSED> {
    type Move = Move;
    type Moves = OthelloMoves;

    const VARIANT: Variant = if REVERSED {
        Variant::Reversed
    } else {
        Variant::Othello
    };
    const SQUARES: usize = 64;

    fn start() -> Self {
        Othello(Board::start())
    }

    #[inline]
    fn legal_moves(&self) -> OthelloMoves {
        OthelloMoves::of(&self.0)
    }

    #[inline]
    fn play_unchecked(&self, mv: Move) -> Self {
        Othello(self.0.play_move_unchecked(mv))
    }

    #[inline(always)]
    fn legal_moves_with<I: Isa>(&self, isa: I) -> OthelloMoves {
        OthelloMoves::of_with(isa, &self.0)
    }

    #[inline(always)]
    fn play_unchecked_with<I: Isa>(&self, isa: I, mv: Move) -> Self {
        let board = &self.0;
        Othello(match mv {
            Move::Pass => board.pass(),
            Move::Play(sq) => board.apply(
                sq,
                flips_with(isa, board.player, board.opponent, sq.index()),
            ),
        })
    }

    fn play(&self, mv: Move) -> Option<Self> {
        match mv {
            Move::Pass => (self.0.moves() == 0 && self.0.opponent_moves() != 0)
                .then(|| Othello(self.0.pass())),
            Move::Play(sq) => self.0.play(sq).map(Othello),
        }
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.0.is_game_over()
    }

    #[inline]
    fn final_score(&self) -> i32 {
        Self::score_from_standard(self.0.final_score())
    }

    #[inline]
    fn hash_key(&self) -> u64 {
        mix_key(self.0.player, self.0.opponent)
    }

    #[inline]
    fn empties(&self) -> u32 {
        self.0.empties()
    }

    fn pass_move() -> Option<Move> {
        Some(Move::Pass)
    }

    #[inline]
    fn move_code(mv: Move) -> u8 {
        mv.code()
    }

    #[inline]
    fn move_from_code(code: u8) -> Option<Move> {
        Move::from_code(code)
    }

    fn parse_squares(s: &str, to_move: Color) -> Result<Self, PositionError> {
        Board::parse_squares(s, to_move).map(Othello)
    }

    fn squares_string(&self, to_move: Color) -> String {
        self.0.squares_string(to_move)
    }

    fn symmetry(&self, s: u8) -> Self {
        Othello(self.0.symmetry(s))
    }

    fn move_symmetry(mv: Move, s: u8) -> Move {
        mv.symmetry(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::flip::naive;

    /// Plays random games with a xorshift generator and returns every position met.
    fn random_positions(seed: u64, games: usize) -> Vec<Board> {
        let mut state = seed;
        let mut out = Vec::new();
        for _ in 0..games {
            let mut b = Board::start();
            loop {
                out.push(b);
                let moves = b.moves();
                if moves == 0 {
                    if b.opponent_moves() == 0 {
                        break;
                    }
                    b = b.pass();
                    continue;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let n = moves.count_ones() as u64;
                let pick = Bits(moves).nth((state % n) as usize).unwrap();
                b = b.play_unchecked(Square::new(pick).unwrap());
            }
        }
        out
    }

    #[test]
    fn fast_rules_match_naive_reference_on_reachable_positions() {
        let positions = random_positions(0x1234_5678_9ABC_DEF1, 400);
        let passes = positions
            .iter()
            .filter(|b| b.moves() == 0 && b.opponent_moves() != 0)
            .count();
        let finished = positions.iter().filter(|b| b.is_game_over()).count();
        assert!(positions.len() > 20_000);
        assert!(passes > 0, "the sample must include forced passes");
        assert_eq!(finished, 400);
        for b in &positions {
            let reference = naive::legal_moves(b.player, b.opponent);
            assert_eq!(b.moves(), reference);
            // Both variants' move lists, through the Game trait.
            let standard: Vec<Move> = Othello::<false>(*b).legal_moves().collect();
            let reversed: Vec<Move> = Othello::<true>(*b).legal_moves().collect();
            assert_eq!(standard, reversed);
            if reference != 0 {
                assert_eq!(standard.len(), reference.count_ones() as usize);
                for mv in &standard {
                    let Move::Play(sq) = *mv else {
                        panic!("pass with moves")
                    };
                    assert!(reference & sq.bit() != 0);
                }
            }
            assert_eq!(b.opponent_moves(), naive::legal_moves(b.opponent, b.player));
            for sq in Square::all() {
                if b.empty() & sq.bit() != 0 {
                    assert_eq!(b.flips(sq), naive::flips(b.player, b.opponent, sq.index()));
                }
            }
        }
    }

    #[test]
    fn pass_and_game_over_through_the_game_trait() {
        for b in random_positions(99, 200) {
            let g = Othello::<false>(b);
            {
                let moves: Vec<Move> = g.legal_moves().collect();
                if b.moves() != 0 {
                    assert_eq!(moves.len(), b.moves().count_ones() as usize);
                    assert!(g.play(Move::Pass).is_none());
                } else if b.opponent_moves() != 0 {
                    assert_eq!(moves, vec![Move::Pass]);
                    assert_eq!(g.play(Move::Pass), Some(Othello(b.pass())));
                } else {
                    assert!(moves.is_empty());
                    assert!(g.is_over());
                    let reversed = Othello::<true>(b);
                    assert_eq!(reversed.final_score(), -g.final_score());
                }
            }
        }
    }

    #[test]
    fn reversed_score_convention() {
        // 20 discs against 30 with 14 empties.
        let player = (1u64 << 20) - 1;
        let opponent = ((1u64 << 30) - 1) << 20;
        let b = Board::new(player, opponent);
        assert_eq!(Othello::<false>(b).final_score(), -24);
        assert_eq!(Othello::<true>(b).final_score(), 24);
    }
}
