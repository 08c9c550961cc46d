//! The null-window searches near the end that use no table: moves by parity
//! (and square class), or ranked fastest first in large solves.

use super::last::odd_quadrants;
use super::settings::{LARGE_SHALLOW, SHALLOW};
use super::{INF, Solver};
use crate::cpu::{Isa, isa_versions, with_isa};
use crate::eval::Evaluator;
use crate::game::bitboard::{Bits, CORNERS};
use crate::game::flip::{flips_with, legal_moves_with};
use crate::game::{Board, Othello};

/// The squares diagonally next to the corners.
pub(super) const X_SQUARES: u64 = 0x0042_0000_0000_4200;

impl<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Solver<'a, REVERSED, E> {
    /// Null-window search of a position with few empties: no table, no move
    /// list, the moves tried square by square, those of odd quadrants first
    /// (parity), in large solves corners first and X-squares last within each
    /// group ([`SolverSettings::square_classes`](super::settings::SolverSettings::square_classes)).
    /// Fail-soft. The search below runs with the instruction set this CPU
    /// allows ([`crate::cpu`]).
    #[inline]
    pub(super) fn shallow(&mut self, player: u64, opponent: u64, alpha: i32, passed: bool) -> i32 {
        with_isa!(isa => self.shallow_in(isa, player, opponent, alpha, passed))
    }

    isa_versions! {
        /// [`Self::shallow`] with the instruction set `isa`.
        pub(super) fn shallow_in / shallow_fast / shallow_portable
        (&mut self, isa, player: u64, opponent: u64, alpha: i32, passed: bool) -> i32 {
            let empty = !(player | opponent);
            match empty.count_ones() {
                0 => return Self::final_score(player, opponent),
                1 => return self.solve_1(player, opponent, empty.trailing_zeros() as u8),
                2 => {
                    let x1 = empty.trailing_zeros() as u8;
                    let x2 = (63 - empty.leading_zeros()) as u8;
                    return self.solve_2(isa, player, opponent, alpha, x1, x2);
                }
                3 => return self.solve_3(isa, player, opponent, alpha, empty, passed),
                4 => return self.solve_4(isa, player, opponent, alpha, empty, passed),
                _ => {}
            }
            // The legal moves first (one vector fill), so that no flips are
            // computed for squares that are no move. At 4 empties or fewer the
            // squares are tried directly (no faster there).
            self.known_moves_in(
                isa,
                player,
                opponent,
                legal_moves_with(isa, player, opponent),
                alpha,
                passed,
            )
        }
    }

    /// [`Self::shallow`] of a node whose legal moves `moves` are known (a
    /// parent that ranked its moves by their replies found them): the one
    /// place that says which shallow search a node of so many empties takes.
    #[inline]
    pub(super) fn shallow_known_moves(
        &mut self,
        player: u64,
        opponent: u64,
        moves: u64,
        alpha: i32,
        passed: bool,
    ) -> i32 {
        with_isa!(isa => self.known_moves_in(isa, player, opponent, moves, alpha, passed))
    }

    /// [`Self::shallow_known_moves`] with the instruction set `isa`.
    #[inline(always)]
    fn known_moves_in<I: Isa>(
        &mut self,
        isa: I,
        player: u64,
        opponent: u64,
        moves: u64,
        alpha: i32,
        passed: bool,
    ) -> i32 {
        match (!(player | opponent)).count_ones() {
            0..=4 => self.shallow_in(isa, player, opponent, alpha, passed),
            SHALLOW.. if self.settings.fastest_first_at_shallow => {
                self.shallow_fastest_first(isa, player, opponent, moves, alpha, passed)
            }
            _ => self.shallow_with_moves(isa, player, opponent, moves, alpha, passed),
        }
    }

    /// What a node of the shallow search does before its moves, `moves`
    /// being its legal moves: it counts itself, tries the stability cutoff,
    /// and with no move passes or ends the game. `Some(score)` when that
    /// settles the node.
    #[inline(always)]
    fn shallow_settled<I: Isa>(
        &mut self,
        isa: I,
        player: u64,
        opponent: u64,
        moves: u64,
        alpha: i32,
        passed: bool,
    ) -> Option<i32> {
        self.nodes += 1;
        if let Some(upper) = self.stability_bound(isa, &Board::new(player, opponent), alpha)
            && upper <= alpha
        {
            return Some(upper);
        }
        if moves == 0 {
            if passed {
                // Neither side can move: the game is over.
                return Some(Self::final_score(player, opponent));
            }
            return Some(-self.shallow_in(isa, opponent, player, -alpha - 1, true));
        }
        None
    }

    isa_versions! {
        /// [`Self::shallow`] at 5 or 6 empties, with `moves` the legal moves
        /// (a parent that ranked its moves by their replies found them already).
        fn shallow_with_moves / with_moves_fast / with_moves_portable
        (
            &mut self,
            isa,
            player: u64,
            opponent: u64,
            moves: u64,
            alpha: i32,
            passed: bool,
        ) -> i32 {
            if let Some(score) = self.shallow_settled(isa, player, opponent, moves, alpha, passed) {
                return score;
            }
            let odd = odd_quadrants(!(player | opponent));
            let classes = if self.settings.square_classes {
                [
                    moves & odd & CORNERS,
                    moves & odd & !CORNERS & !X_SQUARES,
                    moves & odd & X_SQUARES,
                    moves & !odd & CORNERS,
                    moves & !odd & !CORNERS & !X_SQUARES,
                    moves & !odd & X_SQUARES,
                ]
            } else {
                [moves & odd, moves & !odd, 0, 0, 0, 0]
            };
            let mut best = -INF;
            for class in classes {
                for x in Bits(class) {
                    let f = flips_with(isa, player, opponent, x);
                    let (p, o) = (opponent ^ f, player ^ f ^ (1u64 << x));
                    let score = -self.shallow_in(isa, p, o, -alpha - 1, false);
                    if score > best {
                        best = score;
                        if score > alpha {
                            return best;
                        }
                    }
                }
            }
            best
        }
    }

    isa_versions! {
        /// [`Self::shallow`] at 6 and 7 empties ([`LARGE_SHALLOW`]) in large solves,
        /// `moves` being the legal moves: the moves ranked fastest first by the
        /// replies they leave (corner replies weighted) and parity, the weights of
        /// [`SolverSettings::order`](super::settings::SolverSettings::order), without the table.
        /// The replies, once found, are passed on to the child's search. Cheaper than
        /// the full ranking of [`Self::order`] and nearly as good this near the end.
        fn shallow_fastest_first / fastest_first_fast / fastest_first_portable #[inline(never)]
        (
            &mut self,
            isa,
            player: u64,
            opponent: u64,
            moves: u64,
            alpha: i32,
            passed: bool,
        ) -> i32 {
            if let Some(score) = self.shallow_settled(isa, player, opponent, moves, alpha, passed) {
                return score;
            }
            let empty = !(player | opponent);
            let odd = odd_quadrants(empty);
            let w = self.settings.order;
            // At most one move per empty square; each with its ordering key and
            // its child (mover, opponent, the mover's moves).
            let mut keys = [0i32; LARGE_SHALLOW as usize];
            let mut children = [(0u64, 0u64, 0u64); LARGE_SHALLOW as usize];
            let mut n = 0;
            for x in Bits(moves) {
                let f = flips_with(isa, player, opponent, x);
                let (p, o) = (opponent ^ f, player ^ f ^ (1u64 << x));
                let replies = legal_moves_with(isa, p, o);
                keys[n] = w.replies_and_parity(replies, x, odd);
                children[n] = (p, o, replies);
                n += 1;
            }
            let mut best = -INF;
            while n > 0 {
                // The best-ranked move left (on ties the first found).
                let mut b = 0;
                for i in 1..n {
                    if keys[i] > keys[b] {
                        b = i;
                    }
                }
                let (p, o, replies) = children[b];
                n -= 1;
                keys[b] = keys[n];
                children[b] = children[n];
                let score = -self.known_moves_in(isa, p, o, replies, -alpha - 1, false);
                if score > best {
                    best = score;
                    if score > alpha {
                        return best;
                    }
                }
            }
            best
        }
    }
}
