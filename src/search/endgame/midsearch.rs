//! The solver's small searches over the evaluation: the ordering and guessing
//! alpha-beta ([`Solver::midgame`]) and the probable cutoffs' null-window
//! search with the table ([`Solver::mid_nws`]), with the pattern indices they
//! keep move by move.

use super::ordering::{Item, MoveList};
use super::{INF, Solver, list_slot};
use crate::eval::pattern::Indices;
use crate::eval::{DISC, Evaluator};
use crate::game::bitboard::Bits;
use crate::game::{Board, Othello, Square};
use crate::search::tt::{DEPTH_LIMITED, NO_MOVE, bounds};

impl<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Solver<'a, REVERSED, E> {
    /// Null-window alpha-beta over the evaluation, `depth` plies deep, with
    /// the table: is the value above `alpha` (in [`DISC`] units)? Fail-soft.
    pub(super) fn mid_nws(&mut self, board: Board, depth: u32, alpha: i32, passed: bool) -> i32 {
        if depth == 0 {
            return self.eval.evaluate(&Othello(board));
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let moves = board.moves();
        if moves == 0 {
            if passed {
                return Self::final_score(board.player, board.opponent) * DISC;
            }
            return -self.mid_nws(board.pass(), depth, -alpha - 1, true);
        }
        let key = self.key(&board);
        let mut hash_move = NO_MOVE;
        if let Some(hit) = self.tt.probe(key) {
            hash_move = hit.mv;
            if (hit.level != DEPTH_LIMITED || u32::from(hit.depth) >= depth)
                && let Some(score) = hit.cutoff(alpha, alpha + 1)
            {
                return score;
            }
        }
        let slot = list_slot(depth, passed);
        if self.mid_lists.len() <= slot {
            self.mid_lists.resize_with(slot + 1, MoveList::default);
        }
        self.mid_lists[slot].len = 0;
        for x in Bits(moves) {
            let child = board.play_unchecked(Square::new(x).expect("bit index"));
            let key = if x == hash_move {
                i32::MAX
            } else if depth >= 2 {
                -self.eval.evaluate(&Othello(child))
            } else {
                0
            };
            self.mid_lists[slot].push(Item {
                square: x,
                child,
                child_key: 0,
                key,
                replies: 0,
            });
        }
        let mut best = -INF * DISC;
        let mut best_move = NO_MOVE;
        while let Some(item) = self.mid_lists[slot].next() {
            let score = -self.mid_nws(item.child, depth - 1, -alpha - 1, false);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = item.square;
                if score > alpha {
                    break;
                }
            }
        }
        let (lower, upper) = bounds(best, alpha, alpha + 1);
        self.tt
            .store(key, depth as u8, DEPTH_LIMITED, lower, upper, best_move);
        best
    }

    /// The pattern indices of `board`, read off the board (none when the
    /// evaluation does not read them).
    #[inline]
    pub(super) fn indices(&self, board: &Board) -> Indices {
        if self.indexed {
            self.direct.indices(board.player, board.opponent)
        } else {
            Indices::ZERO
        }
    }

    /// The pattern indices of `child`, the position after move `x` from
    /// `board`, from those of `board`.
    #[inline]
    pub(super) fn child_indices(
        &self,
        indices: &Indices,
        board: &Board,
        child: &Board,
        x: u8,
    ) -> Indices {
        if self.indexed {
            // The mover's discs after the move: the parent's, the new disc
            // and the flipped ones.
            self.direct
                .after_move(indices, x, child.opponent & board.opponent)
        } else {
            Indices::ZERO
        }
    }

    /// A small alpha-beta over the evaluation (no table), for move ordering. It
    /// watches the budget too: far from the end one ordering searches thousands
    /// of nodes. `indices` are `board`'s pattern indices (when the evaluation
    /// reads them).
    pub(super) fn midgame(
        &mut self,
        board: Board,
        indices: &Indices,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth == 0 {
            return self.eval.evaluate_indexed(&Othello(board), indices);
        }
        if self.out_of_budget() {
            return 0;
        }
        let moves = board.moves();
        if moves == 0 {
            if board.opponent_moves() == 0 {
                return Self::final_score(board.player, board.opponent) * DISC;
            }
            return -self.midgame(board.pass(), &indices.after_pass(), depth, -beta, -alpha);
        }
        let mut best = -INF * DISC;
        for x in Bits(moves) {
            self.nodes += 1;
            let child = board.play_unchecked(Square::new(x).expect("bit index"));
            let child_indices = self.child_indices(indices, &board, &child, x);
            let score = -self.midgame(child, &child_indices, depth - 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
