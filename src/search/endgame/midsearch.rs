//! The solver's searches over the evaluation: the ordering alpha-beta
//! ([`Solver::midgame`]), kept as training's solves were made with it, and
//! the probable cutoffs' null-window search ([`Solver::mid_nws`]), which is
//! the engine's midgame search run over the solver's table.

use super::{Discs, INF_SCORE, Solver};
use crate::eval::Evaluator;
use crate::eval::pattern::Indices;
use crate::game::bitboard::Bits;
use crate::game::{Board, Othello, Square};
use crate::score::Score;
use crate::search::midgame::{Midgame, Selectivity};

impl<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Solver<'a, REVERSED, E> {
    /// The null-window search of the probable cutoffs: is the value of
    /// `board` searched `depth` plies deep above `alpha`? Fail-soft. It runs the engine's midgame search, full width
    /// (the cutoffs' errors were measured against full-width searches), over
    /// the solver's table and budget.
    pub(super) fn mid_nws(&mut self, board: Board, depth: u32, alpha: Score) -> Score {
        let scratch = self.mid_scratch.get_or_insert_with(Box::default);
        let node_limit =
            (self.node_limit != u64::MAX).then(|| self.node_limit.saturating_sub(self.nodes));
        let mut search = Midgame::<REVERSED, E>::new(
            self.eval,
            self.tt,
            self.stop,
            self.deadline,
            node_limit,
            scratch,
        )
        .with_salt(self.salt);
        search.set_selectivity(Selectivity::NONE);
        let score = search.search(board, depth, alpha.centi(), alpha.centi() + 1);
        self.nodes += search.nodes;
        self.aborted |= search.aborted;
        Score::from_centi(score)
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
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        if depth == 0 {
            return Score::from_centi(self.eval.evaluate_indexed(&Othello(board), indices));
        }
        if self.out_of_budget() {
            return Score::ZERO;
        }
        let moves = board.moves();
        if moves == 0 {
            if board.opponent_moves() == 0 {
                return Discs(Self::final_score(board.player, board.opponent)).to_score();
            }
            return -self.midgame(board.pass(), &indices.after_pass(), depth, -beta, -alpha);
        }
        let mut best = -INF_SCORE;
        for x in Bits(moves) {
            self.nodes += 1;
            let child = board.play_unchecked(Square::new(x).expect("bit index"));
            let child_indices = self.child_indices(indices, &board, &child, x);
            let score = -self.midgame(child, &child_indices, depth - 1, -beta, -alpha);
            if self.aborted {
                return Score::ZERO;
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
