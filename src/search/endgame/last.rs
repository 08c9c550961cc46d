//! The last four empties: dedicated solvers without move lists or table, and
//! the parity helpers (quadrants with an odd number of empties) they and the
//! shallow searches order their moves by.

use super::{INF, Solver};
use crate::cpu::{Isa, isa_versions};
use crate::eval::Evaluator;
use crate::game::flip::{flips_with, last_flip_count};
use crate::game::{Board, Othello};

/// The four 4x4 quadrants, for parity ordering.
pub(super) const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The squares around each square: a move must touch an opponent disc.
pub(super) const NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nr, nc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && nr >= 0 && nr < 8 && nc >= 0 && nc < 8 {
                    table[sq] |= 1u64 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    table
};

/// The quadrant (one of [`QUADRANTS`]) each square lies in.
pub(super) const QUADRANT_OF: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut q = 0;
        while q < 4 {
            if QUADRANTS[q] & (1u64 << sq) != 0 {
                table[sq] = QUADRANTS[q];
            }
            q += 1;
        }
        sq += 1;
    }
    table
};

/// `PARITY_ORDER_4[odd]`: the order in which [`parity_order_4`] tries four
/// empty squares, as indices into them lowest first, when bit `i` of `odd`
/// says that the `i`-th lies in an odd quadrant: those first, then the
/// others, each group lowest square first (the order of [`Solver::shallow`]).
pub(super) const PARITY_ORDER_4: [[u8; 4]; 16] = {
    let mut table = [[0u8; 4]; 16];
    let mut odd = 0;
    while odd < 16 {
        let mut k = 0;
        let mut group = 0;
        while group < 2 {
            let mut i = 0;
            while i < 4 {
                if ((odd >> i) & 1 == 1) == (group == 0) {
                    table[odd][k] = i as u8;
                    k += 1;
                }
                i += 1;
            }
            group += 1;
        }
        odd += 1;
    }
    table
};

/// The four empty squares of `empty` in parity order, without the shallow
/// search's loops over quadrants and classes of squares. Always inlined: left
/// out of line, it would miss the AVX2 copy's instructions.
#[inline(always)]
pub(super) fn parity_order_4(empty: u64) -> [u8; 4] {
    let mut rest = empty;
    let mut squares = [0u8; 4];
    let mut odd = 0;
    for (i, x) in squares.iter_mut().enumerate() {
        *x = rest.trailing_zeros() as u8;
        rest &= rest.wrapping_sub(1);
        odd |= (((empty & QUADRANT_OF[usize::from(*x)]).count_ones() & 1) as usize) << i;
    }
    PARITY_ORDER_4[odd].map(|i| squares[usize::from(i)])
}

/// The three empty squares of `empty`, those alone (or three together) in
/// their quadrant first: parity ordering without a loop over the quadrants.
#[inline]
pub(super) fn parity_order_3(empty: u64) -> [u8; 3] {
    let x1 = empty.trailing_zeros() as u8;
    let x3 = (63 - empty.leading_zeros()) as u8;
    let x2 = (empty & !(1u64 << x1) & !(1u64 << x3)).trailing_zeros() as u8;
    let odd = |x: u8| (empty & QUADRANT_OF[x as usize]).count_ones() & 1 == 1;
    match (odd(x1), odd(x2)) {
        // Two squares share a quadrant: the one alone goes first.
        (false, false) => [x3, x1, x2],
        (false, true) => [x2, x1, x3],
        (true, false) => [x1, x2, x3],
        // Three quadrants of one square each, or all three in one.
        (true, true) => [x1, x2, x3],
    }
}

/// The discs a move on the empty square `x` flips, 0 when it is not a move:
/// a square touching none of the opponent's discs is rejected before the
/// flips are computed.
#[inline(always)]
pub(super) fn move_flips<I: Isa>(isa: I, player: u64, opponent: u64, x: u8) -> u64 {
    if NEIGHBOURS[x as usize] & opponent == 0 {
        0
    } else {
        flips_with(isa, player, opponent, x)
    }
}

/// The quadrants holding an odd number of empty squares, as one mask. Each
/// quadrant's parity is folded onto one bit (the four files of a half-row,
/// then its four ranks: bits 0, 4, 32 and 36 end up holding the parities of
/// a1-d4, e1-h4, a5-d8 and e5-h8), and one multiplication spreads each bit
/// over its quadrant.
#[inline]
pub(super) fn odd_quadrants(empty: u64) -> u64 {
    let mut x = empty ^ (empty >> 1);
    x ^= x >> 2;
    x ^= x >> 8;
    x ^= x >> 16;
    (x & 0x0000_0011_0000_0011).wrapping_mul(0x0F0F_0F0F)
}

impl<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Solver<'a, REVERSED, E> {
    /// The score with one empty square `x` left. Always inlined: left to the
    /// compiler it stayed a call inside `solve_2`, which then saved and restored
    /// its vector registers around it.
    #[inline(always)]
    pub(super) fn solve_1(&mut self, player: u64, opponent: u64, x: u8) -> i32 {
        self.nodes += 1;
        let diff = player.count_ones() as i32 - opponent.count_ones() as i32;
        let n = last_flip_count(player, x) as i32;
        let standard = if n > 0 {
            diff + 2 * n + 1
        } else {
            let m = last_flip_count(opponent, x) as i32;
            if m > 0 {
                diff - 2 * m - 1
            } else if diff > 0 {
                diff + 1
            } else {
                diff - 1 // 63 discs: the difference is odd, never zero
            }
        };
        if REVERSED { -standard } else { standard }
    }

    isa_versions! {
        /// The score with two empty squares `x1`, `x2` left (null window above `alpha`).
        pub(super) fn solve_2 / solve_2_fast / solve_2_portable #[inline]
        (&mut self, isa, player: u64, opponent: u64, alpha: i32, x1: u8, x2: u8) -> i32 {
            self.nodes += 1;
            let mut best = -INF;
            let f = move_flips(isa, player, opponent, x1);
            if f != 0 {
                best = -self.solve_1(opponent ^ f, player ^ f ^ (1u64 << x1), x2);
                if best > alpha {
                    return best;
                }
            }
            let f = move_flips(isa, player, opponent, x2);
            if f != 0 {
                return best.max(-self.solve_1(opponent ^ f, player ^ f ^ (1u64 << x2), x1));
            }
            if best > -INF {
                return best;
            }
            // The side to move must pass; the opponent tries the same two squares.
            let mut best = INF;
            for (x, other) in [(x1, x2), (x2, x1)] {
                let f = move_flips(isa, opponent, player, x);
                if f != 0 {
                    best = best.min(self.solve_1(player ^ f, opponent ^ f ^ (1u64 << x), other));
                    if best <= alpha {
                        return best;
                    }
                }
            }
            if best < INF {
                best
            } else {
                Self::final_score(player, opponent)
            }
        }
    }

    isa_versions! {
        /// The score with three empty squares left (null window above `alpha`):
        /// parity order, no table, no stability check (it costs more than it saves
        /// this near the end).
        pub(super) fn solve_3 / solve_3_fast / solve_3_portable #[inline]
        (&mut self, isa, player: u64, opponent: u64, alpha: i32, empty: u64, passed: bool) -> i32 {
            self.nodes += 1;
            let [x1, x2, x3] = parity_order_3(empty);
            let mut best = -INF;
            for (x, a, b) in [(x1, x2, x3), (x2, x1, x3), (x3, x1, x2)] {
                let f = move_flips(isa, player, opponent, x);
                if f != 0 {
                    let (p, o) = (opponent ^ f, player ^ f ^ (1u64 << x));
                    let score = -self.solve_2(isa, p, o, -alpha - 1, a, b);
                    if score > best {
                        best = score;
                        if score > alpha {
                            return best;
                        }
                    }
                }
            }
            if best > -INF {
                return best;
            }
            if passed {
                // Neither side can move: the game is over.
                return Self::final_score(player, opponent);
            }
            -self.solve_3(isa, opponent, player, -alpha - 1, empty, true)
        }
    }

    isa_versions! {
        /// The score with four empty squares left (null window above `alpha`): the
        /// shallow search unrolled, same order and same stability check, so the same
        /// tree. Never inlined, so that the shallow search that calls it stays small.
        pub(super) fn solve_4 / solve_4_fast / solve_4_portable #[inline(never)]
        (&mut self, isa, player: u64, opponent: u64, alpha: i32, empty: u64, passed: bool) -> i32 {
            self.nodes += 1;
            if let Some(upper) = self.stability_bound(isa, &Board::new(player, opponent), alpha)
                && upper <= alpha
            {
                return upper;
            }
            let mut best = -INF;
            for x in parity_order_4(empty) {
                let f = move_flips(isa, player, opponent, x);
                if f != 0 {
                    let bit = 1u64 << x;
                    let score = -self.solve_3(
                        isa,
                        opponent ^ f,
                        player ^ f ^ bit,
                        -alpha - 1,
                        empty ^ bit,
                        false,
                    );
                    if score > best {
                        best = score;
                        if score > alpha {
                            return best;
                        }
                    }
                }
            }
            if best > -INF {
                return best;
            }
            if passed {
                // Neither side can move: the game is over.
                return Self::final_score(player, opponent);
            }
            -self.solve_4(isa, opponent, player, -alpha - 1, empty, true)
        }
    }
}
