//! The searches with the transposition table: the null-window search (table
//! cutoffs, probable cutoffs, enhanced transposition cutoff, stability
//! cutoff), the principal-variation search, and what they store.

use super::ordering::Item;
use super::parallel::{BusyTable, Deferred, SPLIT_EMPTIES};
use super::probcut::PROBCUT_EMPTIES;
use super::settings::EVAL_ORDER_EMPTIES;
use super::{Discs, INF, Solver, list_slot};
use crate::cpu::{Isa, isa_versions, with_isa};
use crate::eval::Evaluator;
use crate::eval::stability::stable_discs_at_least;
use crate::game::bitboard::CORNERS;
use crate::game::{Board, Othello};
use crate::score::Score;
use crate::search::tt::{DEPTH_LIMITED, EXACT, MoveCode, NO_UPPER, bounds};

impl<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Solver<'a, REVERSED, E> {
    /// Null-window search: is the score above `alpha`? Fail-soft.
    /// `expect_cut`: whether the node is expected to fail high, on its first
    /// move (a guess that only decides which table lines are loaded early).
    #[inline]
    pub(super) fn nws(&mut self, board: Board, alpha: i32, passed: bool, expect_cut: bool) -> i32 {
        if board.empties() <= self.settings.shallow_empties {
            return self.shallow(board.player, board.opponent, alpha, passed);
        }
        self.nws_table(
            board,
            self.key(&board),
            board.moves(),
            alpha,
            passed,
            expect_cut,
        )
    }

    /// [`Self::nws`] of the move `item` of a node with `empties` empties: the
    /// child's hash key was computed when the moves were ordered.
    #[inline]
    pub(super) fn nws_child(
        &mut self,
        item: &Item,
        empties: u32,
        alpha: i32,
        expect_cut: bool,
    ) -> i32 {
        if !self.children_use_table(empties) {
            let child = &item.child;
            return self.shallow_known_moves(
                child.player,
                child.opponent,
                item.replies,
                alpha,
                false,
            );
        }
        self.nws_table(
            item.child,
            item.child_key,
            item.replies,
            alpha,
            false,
            expect_cut,
        )
    }

    /// [`Self::nws`] far enough from the end to use the table; `key` is
    /// `board`'s hash key and `moves` its moves (a parent computes both when
    /// it orders its moves, so that the child does not again).
    pub(super) fn nws_table(
        &mut self,
        board: Board,
        key: u64,
        moves: u64,
        alpha: i32,
        passed: bool,
        expect_cut: bool,
    ) -> i32 {
        let empties = board.empties();
        // Where no evaluation search ranks the moves, they are ranked before
        // the table is asked (see below).
        let ordered_early = empties < EVAL_ORDER_EMPTIES && moves != 0;
        if ordered_early {
            // The parent loaded this node's bucket while ranking its moves,
            // but the subtrees of the siblings searched since may have pushed
            // it out again (a non-temporal prefetch fills the first cache
            // level only). Asked again here, it costs next to nothing if it
            // is still there and otherwise arrives during the ordering below.
            self.tt.prefetch(key);
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let approximations = self.approximations;

        // Stability cutoff: discs that can never be lost bound the score.
        let bound = with_isa!(isa => self.stability_bound(isa, &board, alpha));
        if let Some(upper) = bound
            && upper <= alpha
        {
            return upper;
        }

        // Near the end (no evaluation search) the moves are ordered before
        // the table is asked: the probe's wait for memory overlaps the
        // ordering, and a hash move only moves to the front afterwards (the
        // same tree; a table cutoff wastes the ordering, yet it pays).
        let slot = list_slot(empties, passed);
        if ordered_early {
            self.order(&board, moves, MoveCode::NONE, slot, !expect_cut);
            if self.aborted {
                return 0;
            }
        }
        let mut hash_move = MoveCode::NONE;
        if let Some(hit) = self.tt.probe(key) {
            // A midgame search's best move is a poor first try for a
            // null-window solve (fastest-first does better); only moves of
            // searches to the end, selective ones too, are trusted here.
            if hit.level != DEPTH_LIMITED {
                hash_move = MoveCode::new(hit.mv);
            }
            if hit.level >= self.level
                && let Some(score) = hit.cutoff(
                    Discs(alpha).to_score().centi(),
                    Discs(alpha + 1).to_score().centi(),
                )
            {
                if hit.level != EXACT {
                    self.approximations += 1;
                }
                return Discs::truncated(Score::from_centi(score)).0;
            }
        }

        if self.level != EXACT
            && empties >= PROBCUT_EMPTIES
            && let Some(score) = self.probcut(&board, alpha, empties)
        {
            self.approximations += 1;
            return score;
        }

        if moves == 0 {
            if passed {
                return Self::final_score(board.player, board.opponent);
            }
            // The pass is the only move: its position fails the other way.
            return -self.nws(board.pass(), -alpha - 1, true, !expect_cut);
        }

        // A hash move is tried first whatever the evaluation searches say,
        // and it nearly always cuts: they wait until it has failed to. (With
        // moves to play, a node not ordered early is one those searches rank.)
        let evaluate_later = self.settings.evaluate_after_hash_move
            && !ordered_early
            && hash_move.square().is_some_and(|sq| moves & sq.bit() != 0);
        if ordered_early {
            if let Some(child_key) = self.lists[slot].promote(hash_move)
                && self.children_use_table(empties)
            {
                // Ranked first now, so loaded first (see `order`).
                self.tt.prefetch(child_key);
            }
        } else if evaluate_later {
            self.order_by_features(&board, moves, hash_move, slot, !expect_cut);
        } else {
            self.order(&board, moves, hash_move, slot, !expect_cut);
            if self.aborted {
                // The ranking may be unfinished: nothing is stored.
                return 0;
            }
        }
        // Enhanced transposition cutoff: a child already known to be bad enough
        // for the opponent refutes this node without searching (in large
        // solves only at nodes expected to cut: elsewhere it almost never
        // cuts).
        let etc = if empties >= self.settings.etc_empties
            && (expect_cut || self.settings.etc_where_all_expected)
        {
            self.lists[slot].len()
        } else {
            0
        };
        for i in 0..etc {
            let item = self.lists[slot].items()[i];
            if let Some(hit) = self.tt.probe(item.child_key)
                && hit.level >= self.level
                && hit.upper != NO_UPPER
                && -Discs::truncated(Score::from_centi(hit.upper)).0 > alpha
            {
                if hit.level != EXACT {
                    self.approximations += 1;
                }
                let score = -Discs::truncated(Score::from_centi(hit.upper)).0;
                self.store(
                    key,
                    empties,
                    score,
                    alpha,
                    alpha + 1,
                    MoveCode::new(item.square),
                    approximations,
                );
                return score;
            }
        }

        let searched = if self.busy.is_some() && empties >= SPLIT_EMPTIES {
            self.nws_moves::<true>(&board, slot, alpha, expect_cut, evaluate_later)
        } else {
            self.nws_moves::<false>(&board, slot, alpha, expect_cut, evaluate_later)
        };
        let Some((best, best_move)) = searched else {
            return 0;
        };
        self.store(
            key,
            empties,
            best,
            alpha,
            alpha + 1,
            best_move,
            approximations,
        );
        best
    }

    /// The move loop of [`Self::nws_table`]: the best score and move of the
    /// moves in list `slot`, searched until one exceeds `alpha`; `None` when
    /// a limit struck. `SHARED`: a parallel solve's node, which marks each
    /// child as busy in the shared table while it searches it and defers a
    /// child that another thread is searching, past the first move
    /// ([`super::parallel`]).
    #[inline(always)]
    fn nws_moves<const SHARED: bool>(
        &mut self,
        board: &Board,
        slot: usize,
        alpha: i32,
        expect_cut: bool,
        mut evaluate_later: bool,
    ) -> Option<(i32, MoveCode)> {
        let empties = board.empties();
        let mut best = -INF;
        let mut best_move = MoveCode::NONE;
        let mut searched = 0;
        let busy = self.busy.filter(|_| SHARED);
        let mut deferred = Deferred::new();
        while let Some((item, retried)) = deferred.next(self.lists[slot].next()) {
            let tag = BusyTable::tag(item.child_key, self.level);
            if deferred.put_off(busy, tag, item, searched, retried) {
                continue;
            }
            if searched == 1 && expect_cut {
                self.prefetch_unsearched(&item, slot, empties);
            }
            // A node that cuts does so on its first move, whose reply then
            // searches all its moves; past that move this node searches them
            // all, and each reply is expected to cut.
            let child_cut = searched > 0 || !expect_cut;
            searched += 1;
            if let Some(busy) = busy {
                busy.enter(tag);
            }
            let score = -self.nws_child(&item, empties, -alpha - 1, child_cut);
            if let Some(busy) = busy {
                busy.leave(tag);
            }
            if self.aborted {
                return None;
            }
            if score > best {
                best = score;
                best_move = MoveCode::new(item.square);
                if score > alpha {
                    break;
                }
            }
            if evaluate_later {
                evaluate_later = false;
                self.rank_by_evaluation(board, slot);
                if self.aborted {
                    return None;
                }
            }
        }
        Some((best, best_move))
    }

    /// Principal-variation search: the exact score inside `(alpha, beta)`.
    pub(super) fn pvs(&mut self, board: Board, mut alpha: i32, beta: i32, passed: bool) -> i32 {
        if beta - alpha <= 1 {
            return self.nws(board, alpha, passed, true);
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let empties = board.empties();
        if empties == 0 {
            return Self::final_score(board.player, board.opponent);
        }
        let moves = board.moves();
        if moves == 0 {
            if passed {
                return Self::final_score(board.player, board.opponent);
            }
            return -self.pvs(board.pass(), -beta, -alpha, true);
        }
        if empties == 1 {
            let x = board.empty().trailing_zeros() as u8;
            return self.solve_1(board.player, board.opponent, x);
        }
        let key = self.key(&board);
        let hash_move = self
            .tt
            .probe(key)
            .map_or(MoveCode::NONE, |h| MoveCode::new(h.mv));
        let alpha_in = alpha;
        let approximations = self.approximations;
        let slot = list_slot(empties, passed);
        self.order(&board, moves, hash_move, slot, false);
        if self.aborted {
            return 0;
        }
        let mut best = -INF;
        let mut best_move = MoveCode::NONE;
        let mut searched = 0;
        // A parallel solve defers the moves another thread is searching, as
        // at null-window nodes (`nws_moves`).
        let busy = self.busy.filter(|_| empties >= SPLIT_EMPTIES);
        let mut deferred = Deferred::new();
        while let Some((item, retried)) = deferred.next(self.lists[slot].next()) {
            let tag = BusyTable::tag(item.child_key, self.level);
            if deferred.put_off(busy, tag, item, searched, retried) {
                continue;
            }
            let first = searched == 0;
            if searched == 1 {
                self.prefetch_unsearched(&item, slot, empties);
            }
            searched += 1;
            if let Some(busy) = busy {
                busy.enter(tag);
            }
            let score = if first {
                -self.pvs(item.child, -beta, -alpha, false)
            } else {
                let s = -self.nws(item.child, -alpha - 1, false, true);
                if s > alpha && s < beta && !self.aborted {
                    -self.pvs(item.child, -beta, -alpha, false)
                } else {
                    s
                }
            };
            if let Some(busy) = busy {
                busy.leave(tag);
            }
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = MoveCode::new(item.square);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.store(
            key,
            empties,
            best,
            alpha_in,
            beta,
            best_move,
            approximations,
        );
        best
    }

    /// Records in the table what a search of window `(alpha, beta)` that
    /// returned `best` (all in discs) proved, in the table's units (evaluation
    /// units, [`Value`]): as exact when nothing
    /// approximate was used since the count was `approximations`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &mut self,
        key: u64,
        empties: u32,
        best: i32,
        alpha: i32,
        beta: i32,
        mv: MoveCode,
        approximations: u64,
    ) {
        let value = |score: i32| Discs(score).to_score().centi();
        let (lower, upper) = bounds(value(best), value(alpha), value(beta));
        let level = if self.approximations == approximations {
            EXACT
        } else {
            self.level
        };
        self.tt
            .store(key, empties as u8, level, lower, upper, mv.raw());
    }

    /// An upper bound on the score from the discs that can never change colour,
    /// computed only when it might be low enough to cut. How often it cuts
    /// depends on the position (`docs/tuning.md`, "Stability cutoff").
    #[inline(always)]
    pub(super) fn stability_bound<I: Isa>(&self, isa: I, board: &Board, alpha: i32) -> Option<i32> {
        // Standard rules: the opponent keeps its stable discs; reversed rules:
        // the side to move is stuck with its own.
        let (burden_side, other) = if REVERSED {
            (board.player, board.opponent)
        } else {
            (board.opponent, board.player)
        };
        // Without a corner, stable discs are rare (only on full lines): not
        // worth the look. Skipping a cutoff never changes a result.
        if 64 - 2 * (burden_side.count_ones() as i32) > alpha || burden_side & CORNERS == 0 {
            return None;
        }
        // It cuts when 64 - 2 * stable <= alpha.
        let needed = ((65 - alpha) / 2).max(0) as u32;
        self.stable_bound(isa, burden_side, other, needed)
    }

    isa_versions! {
        /// The bound itself, out of line: the test above, inlined into every
        /// caller, turns most nodes away without a call. `None` when fewer
        /// than `needed` discs can be stable, found after one step of the
        /// test: it could not cut.
        fn stable_bound / stable_bound_fast / stable_bound_portable #[inline(never)]
        (&self, _isa, burden_side: u64, other: u64, needed: u32) -> Option<i32> {
            stable_discs_at_least(burden_side, other, needed)
                .map(|s| 64 - 2 * s.count_ones() as i32)
        }
    }
}
