//! The node searches: principal-variation search along the expected best
//! line, null-window search everywhere else, and a table-free alpha-beta
//! near the horizon.

use super::{INF, MAX_PLY, Midgame, Node};
use crate::cpu::isa_versions;
use crate::eval::Evaluator;
use crate::game::Othello;
use crate::game::bitboard::Bits;
use crate::game::flip::{flips_with, legal_moves_with};
use crate::search::tt::{DEPTH_LIMITED, EXACT, NO_MOVE, bounds};

/// At or below this depth nodes search without the table and without
/// ordering: the probes and the sort cost more than they save.
const SHALLOW_DEPTH: u32 = 2;

impl<const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Midgame<'_, REVERSED, E> {
    isa_versions! {
        /// The value of `node` searched `depth` plies deep within `(alpha, beta)`:
        /// exact inside the window, a bound outside it (fail-soft). Keeps the
        /// principal variation at `ply`. With the instruction set `isa`.
        pub(super) fn pvs / pvs_fast / pvs_portable / pvs_avx512
        (&mut self, isa, node: &Node, depth: u32, alpha: i32, beta: i32, ply: usize) -> i32 {
            let mut alpha = alpha;
            self.scratch.pv_len[ply] = ply;
            if beta - alpha <= 1 && ply > 0 {
                return self.nws(isa, node, depth, alpha);
            }
            if depth == 0 || ply >= MAX_PLY - 2 {
                return self.evaluate(isa, node);
            }
            if self.out_of_budget() {
                return 0;
            }
            self.seldepth = self.seldepth.max(ply as u32);
            let board = node.board;
            let moves = legal_moves_with(isa, board.player, board.opponent);
            if moves == 0 {
                if legal_moves_with(isa, board.opponent, board.player) == 0 {
                    return Self::final_value(&board);
                }
                let score = -self.pvs(isa, &Self::passed(node), depth, -beta, -alpha, ply + 1);
                self.update_pv(ply, crate::game::Move::Pass.code());
                return score;
            }
            let key = self.key(&board);
            let hash_move = self.tt.probe(key).map_or(NO_MOVE, |hit| hit.mv);
            let slot = ply;
            self.order(isa, node, moves, hash_move, depth, slot);
            let alpha_in = alpha;
            let mut best = -INF;
            let mut best_move = NO_MOVE;
            let mut first = true;
            while let Some(item) = self.scratch.lists[slot].next() {
                let child = self.child(node, item.square, item.flipped);
                let score = if first {
                    -self.pvs(isa, &child, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    let probe = -self.nws(isa, &child, depth - 1, -alpha - 1);
                    if probe > alpha && probe < beta && !self.aborted {
                        -self.pvs(isa, &child, depth - 1, -beta, -alpha, ply + 1)
                    } else {
                        probe
                    }
                };
                first = false;
                if self.aborted {
                    return 0;
                }
                if score > best {
                    best = score;
                    best_move = item.square;
                    if score > alpha {
                        alpha = score;
                        self.update_pv(ply, item.square);
                        if score >= beta {
                            break;
                        }
                    }
                }
            }
            let (lower, upper) = bounds(best, alpha_in, beta);
            self.tt
                .store(key, depth as u8, DEPTH_LIMITED, lower, upper, best_move);
            best
        }
    }

    isa_versions! {
        /// Null-window search: is the value of `node` at `depth` above `alpha`?
        /// Returns a bound in that direction (fail-soft). With the instruction
        /// set `isa`.
        pub(super) fn nws / nws_fast / nws_portable / nws_avx512
        (&mut self, isa, node: &Node, depth: u32, alpha: i32) -> i32 {
            if depth <= SHALLOW_DEPTH {
                return self.shallow(isa, node, depth, alpha, alpha + 1);
            }
            if self.out_of_budget() {
                return 0;
            }
            let board = node.board;
            let moves = legal_moves_with(isa, board.player, board.opponent);
            if moves == 0 {
                if legal_moves_with(isa, board.opponent, board.player) == 0 {
                    return Self::final_value(&board);
                }
                return -self.nws(isa, &Self::passed(node), depth, -alpha - 1);
            }
            let key = self.key(&board);
            let mut hash_move = NO_MOVE;
            if let Some(hit) = self.tt.probe(key) {
                hash_move = hit.mv;
                let usable = hit.level == EXACT
                    || (hit.level == DEPTH_LIMITED && u32::from(hit.depth) >= depth);
                if usable && let Some(score) = hit.cutoff(alpha, alpha + 1) {
                    return score;
                }
            }
            if let Some(score) = self.probcut(isa, node, depth, alpha) {
                return score;
            }
            let slot = MAX_PLY + depth as usize;
            self.order(isa, node, moves, hash_move, depth, slot);
            let mut best = -INF;
            let mut best_move = NO_MOVE;
            while let Some(item) = self.scratch.lists[slot].next() {
                let child = self.child(node, item.square, item.flipped);
                let score = -self.nws(isa, &child, depth - 1, -alpha - 1);
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
    }

    isa_versions! {
        /// Alpha-beta without the table or ordering, for the last plies above
        /// the horizon. With the instruction set `isa`.
        pub(super) fn shallow / shallow_fast / shallow_portable / shallow_avx512
        (&mut self, isa, node: &Node, depth: u32, alpha: i32, beta: i32) -> i32 {
            let mut alpha = alpha;
            if depth == 0 {
                return self.evaluate(isa, node);
            }
            if self.out_of_budget() {
                return 0;
            }
            let board = node.board;
            let moves = legal_moves_with(isa, board.player, board.opponent);
            if moves == 0 {
                if legal_moves_with(isa, board.opponent, board.player) == 0 {
                    return Self::final_value(&board);
                }
                return -self.shallow(isa, &Self::passed(node), depth, -beta, -alpha);
            }
            let mut best = -INF;
            for x in Bits(moves) {
                let child = self.child(node, x, flips_with(isa, board.player, board.opponent, x));
                let score = -self.shallow(isa, &child, depth - 1, -beta, -alpha);
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
}
