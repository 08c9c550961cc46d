//! The hand-made Othello evaluation: the classic features every strong amateur
//! program starts from, weighted by hand, with a separate shape for reversed
//! Othello.
//!
//! Features, all from the side to move's view: square classes (corners good, X-
//! and C-squares next to an empty corner bad), mobility, potential mobility
//! (frontier discs), stable discs, disc count and parity. Weights are given for
//! the opening (60 empties) and the end (0 empties) and interpolated by the number
//! of empty squares. In reversed Othello the signs of corners, X-squares, stable
//! discs and discs turn round: there, discs you cannot lose are a burden.

use super::stability::stable_discs;
use super::{DISC, EVAL_LIMIT, Evaluator};
use crate::game::bitboard::CORNERS;
use crate::game::{Board, Move, Othello};

/// Square classes of the 8x8 board, by distance from the nearest edges.
#[derive(Clone, Copy)]
enum Class {
    Corner,
    C,
    X,
    A,
    B,
    InnerEdge,
    Ring,
    Center,
}

const CLASS_COUNT: usize = 8;

const fn class_of(square: usize) -> Class {
    let (r, c) = (square / 8, square % 8);
    let dr = if r < 4 { r } else { 7 - r };
    let dc = if c < 4 { c } else { 7 - c };
    let (near, far) = if dr < dc { (dr, dc) } else { (dc, dr) };
    match (near, far) {
        (0, 0) => Class::Corner,
        (0, 1) => Class::C,
        (1, 1) => Class::X,
        (0, 2) => Class::A,
        (0, 3) => Class::B,
        (1, _) => Class::InnerEdge,
        (2, _) => Class::Ring,
        _ => Class::Center,
    }
}

const fn class_masks() -> [u64; CLASS_COUNT] {
    let mut masks = [0u64; CLASS_COUNT];
    let mut sq = 0;
    while sq < 64 {
        masks[class_of(sq) as usize] |= 1 << sq;
        sq += 1;
    }
    masks
}

static CLASS_MASKS: [u64; CLASS_COUNT] = class_masks();

/// For each corner: the corner bit, and its X- and C-squares.
const CORNER_NEIGHBOURS: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),
    (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),
    (1 << 56, 1 << 49, (1 << 57) | (1 << 48)),
    (1 << 63, 1 << 54, (1 << 62) | (1 << 55)),
];

/// One set of feature weights, in centi-discs per unit of feature.
#[derive(Clone, Copy, Debug)]
struct Weights {
    /// Per disc on each square class (X and C here apply when the corner is taken).
    squares: [i32; CLASS_COUNT],
    /// Per X-square disc next to an empty corner.
    x_open: i32,
    /// Per C-square disc next to an empty corner.
    c_open: i32,
    /// Per legal move more than the opponent.
    mobility: i32,
    /// Per frontier disc fewer than the opponent.
    frontier: i32,
    /// Per stable disc more than the opponent.
    stable: i32,
    /// Per disc more than the opponent.
    discs: i32,
    /// For having the last move in an odd number of empties.
    parity: i32,
}

/// Standard Othello. Order: Corner, C, X, A, B, InnerEdge, Ring, Center.
const STANDARD_WEIGHTS: (Weights, Weights) = (
    Weights {
        squares: [600, 20, 0, 60, 40, -15, 5, 0],
        x_open: -350,
        c_open: -120,
        mobility: 90,
        frontier: 35,
        stable: 90,
        discs: -8,
        parity: 0,
    },
    Weights {
        squares: [300, 30, 0, 30, 20, 0, 0, 0],
        x_open: -150,
        c_open: -40,
        mobility: 60,
        frontier: 20,
        stable: 60,
        discs: 60,
        parity: 150,
    },
);

/// Reversed Othello: corners and stable discs are burdens, X-squares next to an
/// empty corner hand the corner to the opponent, fewer discs is better.
const REVERSED_WEIGHTS: (Weights, Weights) = (
    Weights {
        squares: [-500, -40, 0, -40, -30, 10, 0, 5],
        x_open: 250,
        c_open: 60,
        mobility: 90,
        frontier: 25,
        stable: -100,
        discs: -20,
        parity: 0,
    },
    Weights {
        squares: [-250, -30, 0, -20, -15, 0, 0, 0],
        x_open: 100,
        c_open: 30,
        mobility: 60,
        frontier: 10,
        stable: -60,
        discs: -60,
        parity: 150,
    },
);

/// Frontier discs: discs next to at least one empty square.
#[inline]
fn frontier(discs: u64, empty: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let near_empty = (empty << 8)
        | (empty >> 8)
        | ((empty << 1) & NOT_A)
        | ((empty >> 1) & NOT_H)
        | ((empty << 9) & NOT_A)
        | ((empty >> 9) & NOT_H)
        | ((empty << 7) & NOT_H)
        | ((empty >> 7) & NOT_A);
    discs & near_empty
}

/// The raw feature differences (side to move minus opponent) of a board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    squares: [i32; CLASS_COUNT],
    x_open: i32,
    c_open: i32,
    mobility: i32,
    frontier: i32,
    stable: i32,
    discs: i32,
    parity: i32,
}

impl Features {
    /// Measures the features of `board`.
    pub fn of(board: &Board) -> Features {
        let (p, o) = (board.player, board.opponent);
        let empty = board.empty();
        let mut f = Features::default();
        for (i, mask) in CLASS_MASKS.iter().enumerate() {
            f.squares[i] = (p & mask).count_ones() as i32 - (o & mask).count_ones() as i32;
        }
        // X and C squares next to an empty corner are counted apart from the
        // table, where their class weight is that of a taken corner.
        let (mut x_open, mut c_open) = (0u64, 0u64);
        for &(corner, x, c) in &CORNER_NEIGHBOURS {
            if empty & corner != 0 {
                x_open |= x;
                c_open |= c;
            }
        }
        let count = |m: u64| (p & m).count_ones() as i32 - (o & m).count_ones() as i32;
        f.x_open = count(x_open);
        f.c_open = count(c_open);
        f.squares[Class::X as usize] -= f.x_open;
        f.squares[Class::C as usize] -= f.c_open;
        f.mobility = board.moves().count_ones() as i32 - board.opponent_moves().count_ones() as i32;
        f.frontier =
            frontier(o, empty).count_ones() as i32 - frontier(p, empty).count_ones() as i32;
        if (p | o) & CORNERS != 0 {
            f.stable =
                stable_discs(p, o).count_ones() as i32 - stable_discs(o, p).count_ones() as i32;
        }
        f.discs = p.count_ones() as i32 - o.count_ones() as i32;
        f.parity = if empty.count_ones() % 2 == 1 { 1 } else { -1 };
        f
    }

    fn dot(&self, w: &Weights) -> i32 {
        let squares: i32 = self
            .squares
            .iter()
            .zip(&w.squares)
            .map(|(a, b)| a * b)
            .sum();
        squares
            + self.x_open * w.x_open
            + self.c_open * w.c_open
            + self.mobility * w.mobility
            + self.frontier * w.frontier
            + self.stable * w.stable
            + self.discs * w.discs
            + self.parity * w.parity
    }
}

/// The hand-made evaluation of Othello under standard (`REVERSED = false`) or
/// reversed rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandmadeEval<const REVERSED: bool>;

impl<const REVERSED: bool> HandmadeEval<REVERSED> {
    /// The evaluation of a board in centi-discs for the side to move.
    pub fn evaluate_board(board: &Board) -> i32 {
        let (opening, end) = if REVERSED {
            &REVERSED_WEIGHTS
        } else {
            &STANDARD_WEIGHTS
        };
        let f = Features::of(board);
        let empties = board.empties() as i32;
        let early = f.dot(opening);
        let late = f.dot(end);
        // Scaled so that 100 weight units are about one disc.
        let value = (early * empties + late * (60 - empties)) / 60 * DISC / 100;
        value.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

impl<const REVERSED: bool> Evaluator<Othello<REVERSED>> for HandmadeEval<REVERSED> {
    fn evaluate(&self, state: &Othello<REVERSED>) -> i32 {
        Self::evaluate_board(&state.0)
    }

    /// Fastest first: fewest replies for the opponent, then the corners that
    /// matter in this variant.
    fn order_key(&self, _state: &Othello<REVERSED>, mv: Move, child: &Othello<REVERSED>) -> i32 {
        let replies = child.0.moves();
        let mut key =
            -64 * replies.count_ones() as i32 - 32 * (replies & CORNERS).count_ones() as i32;
        if let Move::Play(sq) = mv
            && sq.bit() & CORNERS != 0
        {
            key += if REVERSED { -96 } else { 96 };
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Position, StandardOthello};
    use crate::rng::Rng;

    #[test]
    fn class_masks_partition_the_board() {
        let all = CLASS_MASKS.iter().fold(0u64, |a, m| {
            assert_eq!(a & m, 0);
            a | m
        });
        assert_eq!(all, u64::MAX);
        assert_eq!(CLASS_MASKS[Class::Corner as usize], CORNERS);
        assert_eq!(CLASS_MASKS[Class::X as usize].count_ones(), 4);
        assert_eq!(CLASS_MASKS[Class::C as usize].count_ones(), 8);
    }

    #[test]
    fn frontier_matches_naive() {
        let mut rng = Rng::new(8);
        for _ in 0..2000 {
            let discs = rng.next_u64();
            let empty = rng.next_u64() & !discs;
            let mut naive = 0u64;
            for sq in 0..64i32 {
                if discs >> sq & 1 == 0 {
                    continue;
                }
                let (r, c) = (sq / 8, sq % 8);
                for dr in -1..=1 {
                    for dc in -1..=1 {
                        let (nr, nc) = (r + dr, c + dc);
                        if (dr, dc) != (0, 0)
                            && (0..8).contains(&nr)
                            && (0..8).contains(&nc)
                            && empty >> (nr * 8 + nc) & 1 != 0
                        {
                            naive |= 1 << sq;
                        }
                    }
                }
            }
            assert_eq!(frontier(discs, empty), naive);
        }
    }

    #[test]
    fn symmetric_and_antisymmetric_in_colour() {
        let mut rng = Rng::new(5);
        for _ in 0..50 {
            let mut p = Position::<StandardOthello>::start();
            for _ in 0..rng.below(55) {
                match rng.legal_move(p.state()) {
                    Some(mv) => p = p.play(mv).unwrap(),
                    None => break,
                }
            }
            let b = p.state().0;
            let v = HandmadeEval::<false>::evaluate_board(&b);
            let r = HandmadeEval::<true>::evaluate_board(&b);
            for s in 0..8 {
                assert_eq!(HandmadeEval::<false>::evaluate_board(&b.symmetry(s)), v);
                assert_eq!(HandmadeEval::<true>::evaluate_board(&b.symmetry(s)), r);
            }
        }
    }

    #[test]
    fn corners_are_good_in_standard_and_bad_in_reversed() {
        // Side to move owns a1; otherwise a quiet middle.
        let quiet: Board = Board::new(0x0000_0018_1000_0000, 0x0000_0000_0818_0000);
        let with_corner = Board::new(quiet.player | 1, quiet.opponent);
        assert!(
            HandmadeEval::<false>::evaluate_board(&with_corner)
                > HandmadeEval::<false>::evaluate_board(&quiet)
        );
        assert!(
            HandmadeEval::<true>::evaluate_board(&with_corner)
                < HandmadeEval::<true>::evaluate_board(&quiet)
        );
    }
}
