//! Move ordering of the solver: the fastest-first keys of a node's moves, the
//! evaluation searches that rank them far from the end, and the move list.

use super::last::odd_quadrants;
use super::settings::{EVAL_ORDER_EMPTIES, FAR_VALUE_EMPTIES, W_VALUE_FAR};
use super::{INF_SCORE, Solver};
use crate::cpu::{isa_versions, with_isa};
use crate::eval::Evaluator;
use crate::eval::stability::corner_discs;
use crate::game::bitboard::Bits;
use crate::game::flip::{flips_with, legal_moves_with};
use crate::game::{Board, Othello, Square};
use crate::search::movelist::{self, Keyed, SwapLast};
use crate::search::tt::MoveCode;

/// How good a square is to take, by its place alone: corners and the edges
/// away from them high, the squares next to corners (X and C) low, the centre
/// (taken long ago) nothing. A tie-breaker between moves alike otherwise.
pub(super) const SQUARE_VALUE: [i32; 64] = {
    // a1-d4, rank by rank; the other quarters mirror it.
    const QUARTER: [[i32; 4]; 4] = [[18, 3, 15, 12], [3, 0, 6, 9], [15, 6, 15, 9], [12, 9, 9, 0]];
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (rank, file) = (sq / 8, sq % 8);
        let r = if rank < 4 { rank } else { 7 - rank };
        let f = if file < 4 { file } else { 7 - file };
        table[sq] = QUARTER[r][f];
        sq += 1;
    }
    table
};

/// Empty squares next to `discs`: where the other side may one day play.
/// The discs smeared one file either way, then that one rank either way:
/// the eight neighbours in ten operations rather than eight masked shifts.
#[inline]
pub(super) fn potential_moves(discs: u64, empty: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let row = discs | ((discs << 1) & NOT_A) | ((discs >> 1) & NOT_H);
    (row | (row << 8) | (row >> 8)) & empty
}

/// Depth of the evaluation search that orders moves at `empties` empties.
#[inline]
pub(super) fn sort_depth(empties: u32) -> u32 {
    match empties {
        0..SORT_DEPTH_1 => 0,
        SORT_DEPTH_1..SORT_DEPTH_2 => 1,
        SORT_DEPTH_2..SORT_DEPTH_4 => 2,
        _ => 4,
    }
}

/// From this many empties the ordering search looks one move ahead...
/// (17, not lower: training's solves, 16 empties or fewer, keep their order.)
pub(super) const SORT_DEPTH_1: u32 = 17;
/// ...from this many, two...
pub(super) const SORT_DEPTH_2: u32 = 20;
/// ...and from this many, four: the few nodes this far from the end root the
/// largest subtrees. (The tiers: `docs/tuning.md`, "Move ordering".)
pub(super) const SORT_DEPTH_4: u32 = 25;

impl<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Solver<'a, REVERSED, E> {
    /// Fills list `slot` with the moves of `board` and their children, keyed
    /// best first: the hash move, then by a shallow evaluation search far from
    /// the end, else fastest first. If a limit strikes during an evaluation
    /// search ([`Self::aborted`]), some keys lack it: callers check.
    /// `expect_all`: the node is expected to search every move.
    pub(super) fn order(
        &mut self,
        board: &Board,
        moves: u64,
        hash_move: MoveCode,
        slot: usize,
        expect_all: bool,
    ) {
        self.order_by_features(board, moves, hash_move, slot, expect_all);
        if board.empties() >= EVAL_ORDER_EMPTIES {
            self.rank_by_evaluation(board, slot);
        }
    }

    /// [`Self::order`] without the evaluation searches: the moves keyed by
    /// their features alone (the hash move first), for a node that runs
    /// those searches later, if at all ([`Self::rank_by_evaluation`]).
    /// The ranking runs with the instruction set this CPU allows.
    #[inline]
    pub(super) fn order_by_features(
        &mut self,
        board: &Board,
        moves: u64,
        hash_move: MoveCode,
        slot: usize,
        expect_all: bool,
    ) {
        with_isa!(isa => self.features_in(isa, board, moves, hash_move, slot, expect_all))
    }

    isa_versions! {
        /// [`Self::order_by_features`] with the instruction set `isa`.
        fn features_in / features_fast / features_portable
        (
            &mut self,
            isa,
            board: &Board,
            moves: u64,
            hash_move: MoveCode,
            slot: usize,
            expect_all: bool,
        ) {
            if self.lists.len() <= slot {
                self.lists.resize_with(slot + 1, MoveList::default);
            }
            self.lists[slot].clear();
            let empties = board.empties();
            let odd = odd_quadrants(board.empty());
            let w = self.settings.order;
            // Children that will probe the table have their buckets loaded now:
            // all of them where ETC probes them all at once, or where every move
            // is expected to be searched; nearer the end, at a node expected to
            // cut, only each child that ranks best so far, as such nodes nearly
            // always cut on their first move and a CPU keeps only a few misses in
            // flight: a burst of prefetches stalls on the later ones. The rest
            // follow if the first move fails to cut ([`Self::prefetch_unsearched`]).
            let uses_table = self.children_use_table(empties);
            let prefetch_all = empties >= self.settings.etc_empties || expect_all;
            let mut best_key = i32::MIN;
            for x in Bits(moves) {
                let sq = Square::new(x).expect("bit index");
                let child = board.apply(sq, flips_with(isa, board.player, board.opponent, x));
                let child_key = if uses_table {
                    let key = self.key(&child);
                    if prefetch_all {
                        self.tt.prefetch(key);
                    }
                    key
                } else {
                    0
                };
                // The child's search needs its moves too: computed once here.
                let replies = legal_moves_with(isa, child.player, child.opponent);
                let key = if MoveCode::new(x) == hash_move {
                    i32::MAX
                } else {
                    // Fastest first: few replies (corners count more), few
                    // squares the opponent may reach later, the odd regions;
                    // in large solves also corner-stable discs and good squares.
                    w.replies_and_parity(replies, x, odd)
                        - potential_moves(child.opponent, child.empty()).count_ones() as i32
                            * w.potential
                        + corner_discs(child.opponent).count_ones() as i32 * w.corner_stable
                        + SQUARE_VALUE[usize::from(x)] * w.square
                };
                if uses_table && !prefetch_all && key > best_key {
                    best_key = key;
                    self.tt.prefetch(child_key);
                }
                self.lists[slot].push(Item {
                    square: x,
                    child,
                    child_key,
                    key,
                    replies,
                });
            }
        }
    }

    /// Far from the end: adds to the key of every move left in list `slot` (but
    /// a hash move's) the value of a shallow evaluation search of its child. If a
    /// limit strikes meanwhile ([`Self::aborted`]), some keys stay without it:
    /// callers check. Each search has the full window (Edax's bounded one did
    /// not pay here).
    pub(super) fn rank_by_evaluation(&mut self, board: &Board, slot: usize) {
        let empties = board.empties();
        let depth = sort_depth(empties);
        let weight = if empties >= FAR_VALUE_EMPTIES {
            W_VALUE_FAR
        } else {
            self.settings.order.value
        };
        let indices = self.indices(board);
        let before = self.nodes;
        for i in 0..self.lists[slot].len() {
            let item = self.lists[slot].items()[i];
            if item.key == i32::MAX {
                continue;
            }
            let child_indices = self.child_indices(&indices, board, &item.child, item.square);
            let value = -self
                .midgame(item.child, &child_indices, depth, -INF_SCORE, INF_SCORE)
                .truncated_discs();
            if self.aborted {
                break;
            }
            self.lists[slot].items_mut()[i].key += value * weight;
        }
        self.ordering_nodes += self.nodes - before;
    }

    /// Loads the buckets of the children `order` did not prefetch, once the
    /// first move of a node (`empties` empties, moves in list `slot`) failed
    /// to cut: `item`, taken next, and the moves still in the list.
    #[inline]
    pub(super) fn prefetch_unsearched(&self, item: &Item, slot: usize, empties: u32) {
        if self.children_use_table(empties) && empties < self.settings.etc_empties {
            self.tt.prefetch(item.child_key);
            for rest in self.lists[slot].items() {
                self.tt.prefetch(rest.child_key);
            }
        }
    }
}

#[derive(Clone, Copy, Default)]
pub(super) struct Item {
    pub(super) square: u8,
    pub(super) child: Board,
    /// The child's hash key, when it is far enough from the end to use the
    /// table (0 otherwise).
    pub(super) child_key: u64,
    /// The ordering key: higher is tried first.
    pub(super) key: i32,
    /// The child's moves (its replies), found when the solver orders the
    /// moves (0 in the lists of the evaluation searches, which do not keep
    /// them).
    pub(super) replies: u64,
}

impl Keyed for Item {
    #[inline]
    fn key(&self) -> i32 {
        self.key
    }
}

/// The solver's move list: the last item fills a taken one's place.
pub(super) type MoveList = movelist::MoveList<Item, SwapLast>;

impl MoveList {
    /// Puts the move on `square` first, as [`Solver::order`] ranks a hash move,
    /// and gives its child's hash key (nothing changes for
    /// [`MoveCode::NONE`]).
    #[inline]
    pub(super) fn promote(&mut self, square: MoveCode) -> Option<u64> {
        let mut child_key = None;
        for item in self.items_mut() {
            if MoveCode::new(item.square) == square {
                item.key = i32::MAX;
                child_key = Some(item.child_key);
            }
        }
        child_key
    }
}
