//! Solving problem positions exactly: what `orca solve` runs for each line of
//! an OBF file, kept apart from the command line so tests can call it.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::eval::{Evaluator, Evaluators};
use crate::game::{Board, Move, Othello, Variant};
use crate::search::TranspositionTable;
use crate::search::alphabeta::{INFINITY, Searcher};
use crate::search::endgame::{Discs, Solver};

/// The midgame search that seeds the table with best moves stops this many
/// plies short of the end...
const SEED_GAP: u32 = 16;

/// ...and never goes deeper than this. The midgame search runs at a fifth of
/// the solver's speed, so a deep seed can cost more than the whole solve, and
/// deeper seeds leave no fewer nodes to search.
const SEED_MAX_DEPTH: u32 = 6;

/// What to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveMode {
    /// The exact final disc difference.
    Exact,
    /// Only win, draw or loss: the score is then -1, 0 or +1.
    WinDrawLoss,
}

/// The answer for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Exact score (or -1/0/+1 in win/draw/loss mode) for the side to move.
    pub score: i32,
    /// A best move (`None` when the game is over).
    pub best: Option<Move>,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Exact score of every legal move, when asked for (best first).
    pub move_scores: Vec<(Move, i32)>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

fn clamp_wld(score: i32, mode: SolveMode) -> i32 {
    match mode {
        SolveMode::Exact => score,
        SolveMode::WinDrawLoss => score.signum(),
    }
}

fn solve_with<const R: bool, E: Evaluator<Othello<R>>>(
    board: Board,
    eval: &E,
    tt: &mut TranspositionTable,
    mode: SolveMode,
    all_moves: bool,
    threads: usize,
) -> Solution {
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let (alpha, beta) = match mode {
        SolveMode::Exact => (Discs(-64), Discs(64)),
        SolveMode::WinDrawLoss => (Discs(-1), Discs(1)),
    };
    // Iterative deepening of the midgame search first, as the engine does before
    // it solves: it leaves best moves in the table for the principal variation.
    let mut seed_nodes = 0;
    let seed_depth = board.empties().saturating_sub(SEED_GAP).min(SEED_MAX_DEPTH);
    if seed_depth > 0 {
        let mut searcher = Searcher::<Othello<R>, E>::new(eval, tt, &stop, None, None);
        for depth in 1..=seed_depth {
            searcher.negamax(&Othello(board), depth as i32, -INFINITY, INFINITY, 0);
        }
        seed_nodes = searcher.nodes;
    }
    let mut solver = Solver::<R, E>::new(tt, eval, &stop, None, None, salt::<R>());
    let score = clamp_wld(solver.solve_threads(board, alpha, beta, threads).0, mode);
    let pv = solver.pv(board);
    let mut move_scores = Vec::new();
    if all_moves {
        for sq in board.move_squares() {
            let child = board.play_unchecked(sq);
            let s = clamp_wld(-solver.solve_threads(child, -beta, -alpha, threads).0, mode);
            move_scores.push((Move::Play(sq), s));
        }
        move_scores.sort_by_key(|&(m, s)| (-s, m.code()));
    }
    // The table's principal variation starts with the best move, except where
    // the search answered without storing one (a single empty square).
    let best = match pv.first() {
        Some(&m) => Some(m),
        None => solver.best_move(board).map(|(m, _)| m),
    };
    Solution {
        score,
        best,
        pv,
        move_scores,
        nodes: seed_nodes + solver.nodes,
        elapsed: started.elapsed(),
    }
}

/// The table salt the midgame search uses for this variant, so that a solve and
/// a search share entries.
fn salt<const R: bool>() -> u64 {
    let variant = if R {
        Variant::Reversed
    } else {
        Variant::Othello
    };
    (variant as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Solves `board` (side to move first) under the rules of `variant` (an Othello
/// variant), with the move ordering of `evaluators`.
///
/// # Panics
/// If `variant` is tic-tac-toe.
pub fn solve(
    board: Board,
    variant: Variant,
    evaluators: &Evaluators,
    tt: &mut TranspositionTable,
    mode: SolveMode,
    all_moves: bool,
) -> Solution {
    solve_threads(board, variant, evaluators, tt, mode, all_moves, 1)
}

/// [`solve`] with `threads` search threads sharing `tt` (the scores do not
/// depend on it; the nodes are those of all threads).
///
/// # Panics
/// If `variant` is tic-tac-toe.
pub fn solve_threads(
    board: Board,
    variant: Variant,
    evaluators: &Evaluators,
    tt: &mut TranspositionTable,
    mode: SolveMode,
    all_moves: bool,
    threads: usize,
) -> Solution {
    match variant {
        Variant::Othello => {
            solve_with::<false, _>(board, &evaluators.othello, tt, mode, all_moves, threads)
        }
        Variant::Reversed => {
            solve_with::<true, _>(board, &evaluators.reversed, tt, mode, all_moves, threads)
        }
        Variant::TicTacToe => panic!("the endgame solver is for Othello boards"),
    }
}

/// A move written as OBF files write it: `G8`, `PA` for a pass.
pub fn obf_move(mv: Move) -> String {
    match mv {
        Move::Pass => "PA".into(),
        Move::Play(sq) => sq.to_string().to_uppercase(),
    }
}

/// A principal variation as one string of moves (`G8 H8 ...`).
pub fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|&m| obf_move(m))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::obf;

    #[test]
    fn all_moves_and_wld_on_an_easy_position() {
        let text = include_str!("../data/obf/fforum-1-19.obf");
        let problem = &obf::parse(text).unwrap()[0];
        let board = problem.position.state().0;
        let evals = Evaluators::default();
        let mut tt = TranspositionTable::new(16);
        let s = solve(
            board,
            Variant::Othello,
            &evals,
            &mut tt,
            SolveMode::Exact,
            true,
        );
        assert_eq!(Some(s.score), problem.best_score());
        assert_eq!(s.best, Some(problem.scores[0].0));
        for (mv, score) in &s.move_scores {
            assert_eq!(problem.score_of(*mv), Some(*score), "{mv}");
        }
        let mut tt = TranspositionTable::new(16);
        let w = solve(
            board,
            Variant::Othello,
            &evals,
            &mut tt,
            SolveMode::WinDrawLoss,
            false,
        );
        assert_eq!(w.score, 1);
    }
}
