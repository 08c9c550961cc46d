//! Move ordering of the midgame search: the hash move, then the moves ranked
//! by a shallow search of the evaluation and by the opponent's replies
//! (fastest first: a move that leaves the opponent few moves tends to be
//! good and its subtree small).

use super::{INF, Midgame};
use crate::cpu::isa_versions;
use crate::eval::{DISC, Evaluator};
use crate::game::Othello;
use crate::game::bitboard::{Bits, CORNERS};
use crate::game::flip::{flips_with, legal_moves_with};
use crate::search::movelist::{self, Keyed, SwapLast};

/// One move of a list: its square, the discs it flips, its ordering key.
#[derive(Clone, Copy, Default)]
pub(super) struct Item {
    pub square: u8,
    pub flipped: u64,
    pub key: i32,
}

impl Keyed for Item {
    #[inline]
    fn key(&self) -> i32 {
        self.key
    }
}

/// The midgame search's move list: the last item fills a taken one's place.
pub(super) type MoveList = movelist::MoveList<Item, SwapLast>;

/// What one reply of the opponent costs in the ordering key, in the
/// evaluation's units: mobility (corners count twice) against value.
const REPLY_WEIGHT: i32 = DISC;

/// Depth of the evaluation search that ranks the moves of a node searched
/// `depth` plies deep (none below [`VALUE_ORDER_DEPTH`]).
fn sort_depth(depth: u32) -> u32 {
    match depth {
        0..10 => 0,
        10..16 => 1,
        _ => 2,
    }
}

/// From this depth on, moves are ranked by their value too, not by their
/// replies alone.
const VALUE_ORDER_DEPTH: u32 = 2;

impl<const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Midgame<'_, REVERSED, E> {
    isa_versions! {
        /// Fills list `slot` with the moves of `node` keyed best first, for a
        /// node to be searched `depth` plies deep. With the instruction set `isa`.
        pub(super) fn order / order_fast / order_portable / order_avx512
        (
            &mut self,
            isa,
            node: &super::Node,
            moves: u64,
            hash_move: u8,
            depth: u32,
            slot: usize,
        ) {
            let board = node.board;
            self.scratch.lists[slot].clear();
            let by_value = depth >= VALUE_ORDER_DEPTH;
            let sort = sort_depth(depth);
            for x in Bits(moves) {
                let flipped = flips_with(isa, board.player, board.opponent, x);
                let key = if x == hash_move {
                    i32::MAX
                } else {
                    let child = self.child(node, x, flipped);
                    let replies = legal_moves_with(isa, child.board.player, child.board.opponent);
                    let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                    let value = if by_value {
                        if sort == 0 {
                            -self.evaluate(isa, &child)
                        } else {
                            -self.shallow(isa, &child, sort, -INF, INF)
                        }
                    } else {
                        0
                    };
                    value - REPLY_WEIGHT * mobility
                };
                self.scratch.lists[slot].push(Item {
                    square: x,
                    flipped,
                    key,
                });
            }
        }
    }
}
