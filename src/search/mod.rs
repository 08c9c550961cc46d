//! The search: iterative deepening over a negamax alpha-beta, generic over the
//! game and the evaluation.
//!
//! [`think`] is the whole interface: a state, an evaluation, a table, limits and
//! a stop flag in; one report per finished iteration out through a callback; the
//! best move at the end. It never prints and never reads a clock other than the
//! limits it is given, so the engine and the tools can run it however they like.

pub mod alphabeta;
pub mod deepen;
pub mod endgame;
mod memory;
pub mod midgame;
pub mod movelist;
pub mod ordering;
pub mod time;
pub mod tt;
mod zeroed;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::eval::Evaluator;
use crate::game::Game;
use crate::score::Score;
use alphabeta::{INFINITY, MAX_PLY, Searcher};
pub use midgame::Selectivity;
use ordering::MoveList;
pub use time::Budget;
pub use tt::TranspositionTable;

/// Once the depth comes within this many plies of the empty squares, the next
/// iteration solves the position exactly instead (the Othello searches): the
/// solver visits nodes about five times as fast as the midgame search, and
/// solving `n` empties costs about as much as a midgame search to depth
/// `n - 7`.
pub(crate) const EXACT_JUMP: u32 = 7;

/// Positions with at most this many empty squares are solved exactly at the
/// first iteration, whatever depth is asked, when the limits allow an early
/// solve: the solve costs milliseconds (about 130 k nodes at 14 empties) and
/// its answer is exact. Forced answers solve from the same point.
pub const CHEAP_SOLVE_EMPTIES: u32 = 14;

/// What an exact solve may use: the shared table and the search's limits.
pub struct SolveContext<'a> {
    /// The transposition table (exact entries are stored as searched to the end).
    pub tt: &'a TranspositionTable,
    /// The stop flag.
    pub stop: &'a AtomicBool,
    /// Abort at this instant.
    pub deadline: Option<Instant>,
    /// Abort after this many nodes in the whole search.
    pub node_limit: Option<u64>,
    /// Key salt of the game, as the midgame search uses it.
    pub salt: u64,
    /// Nodes of the whole search so far; the solver adds its own.
    pub nodes: u64,
    /// Set by the solver when a limit stopped it.
    pub aborted: bool,
    /// The busy marks shared by the threads of a parallel search, which all
    /// solve the same root ([`endgame::BusyTable`]); `None` with one thread.
    pub busy: Option<&'a endgame::BusyTable>,
}

/// A game whose exact value can be computed faster than by the generic search.
pub trait Solvable: Game {
    /// The exact score (in [`crate::eval::DISC`] units) and principal variation
    /// of `state`, or `None` when the game has no dedicated solver (the generic
    /// search then searches to the end itself).
    fn solve_exact<E: Evaluator<Self>>(
        state: &Self,
        eval: &E,
        context: &mut SolveContext<'_>,
    ) -> Option<(i32, Vec<Self::Move>)>;
}

impl Solvable for crate::game::TicTacToe {
    fn solve_exact<E: Evaluator<Self>>(
        _state: &Self,
        _eval: &E,
        _context: &mut SolveContext<'_>,
    ) -> Option<(i32, Vec<Self::Move>)> {
        None
    }
}

/// What may end a search, besides the stop flag.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// When the `go` was read: every deadline counts from here.
    pub start: Instant,
    /// Deepest iteration to run.
    pub depth: Option<u32>,
    /// Abort after this many nodes.
    pub nodes: Option<u64>,
    /// Time budget, if the search is timed.
    pub budget: Option<Budget>,
    /// The confidence of the Othello midgame search's probable cutoffs
    /// ([`Selectivity::NONE`]: full width); other games ignore it.
    pub selectivity: Selectivity,
    /// Search threads (the Othello midgame search and its solves; other
    /// games search with one).
    pub threads: usize,
    /// How many best moves the Othello search values (multi-PV); other
    /// games value one. 0 counts as 1.
    pub multipv: usize,
    /// The root moves the Othello search may choose from, as a set of
    /// squares (`go searchmoves`); `None`: every legal move.
    pub searchmoves: Option<u64>,
    /// Whether a depth limit gives way to the exact solve when the solve is
    /// within the Othello search's usual jump of it (a few plies): the answer
    /// is then exact, whichever limit ends the search. Off where the depth
    /// itself is the point: the levels, search labels, accuracy by depth.
    pub solve_early: bool,
}

impl Limits {
    /// No limit at all but the stop flag (and the end of the game).
    pub fn infinite(start: Instant) -> Limits {
        Limits {
            start,
            depth: None,
            nodes: None,
            budget: None,
            selectivity: Selectivity::DEFAULT,
            threads: 1,
            multipv: 1,
            searchmoves: None,
            solve_early: true,
        }
    }

    /// Only a depth limit (reproducible: bench and tests).
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::infinite(Instant::now())
        }
    }

    /// Exactly `depth` plies, never an early exact solve (search labels,
    /// accuracy by depth); the solve still comes once `depth` reaches the
    /// end.
    pub fn exact_depth(depth: u32) -> Limits {
        Limits {
            solve_early: false,
            ..Limits::depth(depth)
        }
    }
}

/// One finished iteration of the deepening loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration<M> {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached, passes included.
    pub seldepth: u32,
    /// Score for the side to move.
    pub score: Score,
    /// The score is the exact result of perfect play (the search reached the end).
    pub exact: bool,
    /// The share of probable cutoffs expected right, in percent: 100 for a
    /// full-width or exact iteration.
    pub selectivity: u8,
    /// Nodes so far in this search.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Principal variation, best move first.
    pub pv: Vec<M>,
    /// With several lines asked for (multi-PV) or the root moves restricted:
    /// the best lines found, best first, the first being `score` and `pv`.
    /// Empty in a plain search.
    pub lines: Vec<PvLine<M>>,
}

/// One line of a multi-PV iteration: a root move's score and variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine<M> {
    /// Score for the side to move; exact when the iteration is.
    pub score: Score,
    /// The variation, the root move first.
    pub pv: Vec<M>,
}

impl<M> Iteration<M> {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the game is over.
    pub best_move: Option<M>,
    /// The last finished iteration, if any finished before the search was stopped.
    pub last: Option<Iteration<M>>,
    /// Nodes searched in total.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// The key salt of game `G` in the shared table, so variants never mix.
pub(crate) fn variant_salt<G: Game>() -> u64 {
    (G::VARIANT as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A game with a search: Othello's own selective one ([`midgame`]), or the
/// generic alpha-beta ([`generic_think`]).
pub trait Searchable: Solvable {
    /// Searches `state` by iterative deepening until a limit, the stop flag
    /// or an exact result ends it, reporting each finished iteration.
    fn think<E: Evaluator<Self>>(
        state: &Self,
        eval: &E,
        tt: &mut TranspositionTable,
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&Iteration<Self::Move>),
    ) -> SearchResult<Self::Move>;
}

impl Searchable for crate::game::TicTacToe {
    fn think<E: Evaluator<Self>>(
        state: &Self,
        eval: &E,
        tt: &mut TranspositionTable,
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&Iteration<Self::Move>),
    ) -> SearchResult<Self::Move> {
        generic_think(state, eval, tt, limits, stop, on_iteration)
    }
}

impl<const REVERSED: bool> Searchable for crate::game::Othello<REVERSED> {
    fn think<E: Evaluator<Self>>(
        state: &Self,
        eval: &E,
        tt: &mut TranspositionTable,
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&Iteration<Self::Move>),
    ) -> SearchResult<Self::Move> {
        deepen::think(state, eval, tt, limits, stop, on_iteration)
    }
}

/// Searches `state` with its game's search until a limit, the stop flag or
/// an exact result ends it. `on_iteration` is called after each finished
/// iteration.
pub fn think<G: Searchable, E: Evaluator<G>>(
    state: &G,
    eval: &E,
    tt: &mut TranspositionTable,
    limits: &Limits,
    stop: &AtomicBool,
    on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
) -> SearchResult<G::Move> {
    G::think(state, eval, tt, limits, stop, on_iteration)
}

/// The multi-PV lines of the generic search: every root move the limits
/// allow, its child searched to `depth - 1` with a full window, best first,
/// at most `wanted` (tic-tac-toe is small enough to search each).
fn root_lines<G: Solvable, E: Evaluator<G>>(
    searcher: &mut Searcher<'_, G, E>,
    state: &G,
    depth: u32,
    wanted: usize,
) -> Vec<PvLine<G::Move>> {
    let mut lines = Vec::new();
    for mv in state.legal_moves() {
        if !searcher.root_allows(G::move_code(mv)) {
            continue;
        }
        let child = state.play_unchecked(mv);
        let value = -searcher.negamax(&child, depth as i32 - 1, -INFINITY, INFINITY, 1);
        if searcher.aborted {
            return Vec::new();
        }
        let mut pv = vec![mv];
        pv.extend(searcher.pv_at(1));
        lines.push(PvLine {
            score: Score::from_centi(value),
            pv,
        });
    }
    lines.sort_by_key(|line| std::cmp::Reverse(line.score));
    lines.truncate(wanted);
    lines
}

/// The generic search: iterative deepening over full-width alpha-beta, for
/// any game (tic-tac-toe; Othello's own search is [`midgame`]).
pub fn generic_think<G: Solvable, E: Evaluator<G>>(
    state: &G,
    eval: &E,
    tt: &mut TranspositionTable,
    limits: &Limits,
    stop: &AtomicBool,
    on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
) -> SearchResult<G::Move> {
    tt.new_search();
    let hard_deadline = limits.budget.map(|b| limits.start + b.hard);
    let soft_deadline = limits.budget.map(|b| limits.start + b.soft);
    let empties = state.empties();
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32 / 2)
        .clamp(1, MAX_PLY as u32 / 2);

    // A move is always ready: the first in the evaluation's order, until an
    // iteration finishes.
    let mut searcher = Searcher::new(eval, tt, stop, hard_deadline, limits.nodes)
        .with_root_moves(limits.searchmoves);
    let mut best_move = {
        let mut list = MoveList::default();
        list.fill(state, state.legal_moves(), tt::NO_MOVE, true, eval);
        std::iter::from_fn(|| list.next_best())
            .find(|c| searcher.root_allows(c.code))
            .and_then(|c| G::move_from_code(c.code))
    };
    let mut last = None;
    let mut depth = 1;
    while best_move.is_some() && depth <= max_depth {
        // Close to the end, search to the end (past a depth cap only where
        // the limits let the solve come early).
        let reaches_end =
            depth + EXACT_JUMP >= empties && (limits.solve_early || empties <= max_depth);
        let cheap = limits.solve_early && empties <= CHEAP_SOLVE_EMPTIES;
        let target = if reaches_end || cheap {
            empties.max(depth)
        } else {
            depth
        };
        searcher.seldepth = 0;
        let solved = if target >= empties && limits.searchmoves.is_none() {
            searcher.solve_exact(state)
        } else {
            None
        };
        let (score, pv) = match solved {
            Some(found) => found,
            None => {
                let score = searcher.negamax(state, target as i32, -INFINITY, INFINITY, 0);
                (score, searcher.pv())
            }
        };
        if searcher.aborted {
            break;
        }
        if let Some(&mv) = pv.first() {
            best_move = Some(mv);
        }
        let lines = if limits.multipv > 1 {
            root_lines(&mut searcher, state, target, limits.multipv)
        } else {
            Vec::new()
        };
        if searcher.aborted {
            break;
        }
        let iteration = Iteration {
            depth: target,
            seldepth: searcher.seldepth,
            score: Score::from_centi(score),
            exact: target >= empties,
            selectivity: 100,
            nodes: searcher.nodes,
            elapsed: limits.start.elapsed(),
            pv,
            lines,
        };
        on_iteration(&iteration);
        let exact = iteration.exact;
        last = Some(iteration);
        if exact || soft_deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        depth = target + 1;
    }
    SearchResult {
        best_move,
        last,
        nodes: searcher.nodes,
        elapsed: limits.start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{DISC, TicTacToeEval, handmade::HandmadeEval};
    use crate::game::{Position, StandardOthello, TicTacToe};
    use crate::obf::ObfProblem;

    fn exact<G: Searchable, E: Evaluator<G>>(state: &G, eval: &E) -> (Option<G::Move>, i32) {
        let mut tt = TranspositionTable::new(8);
        let stop = AtomicBool::new(false);
        let r = think(state, eval, &mut tt, &Limits::depth(64), &stop, &mut |_| {});
        let last = r.last.unwrap();
        assert!(last.exact);
        (r.best_move, last.score.centi())
    }

    /// Plain minimax to the end, the reference for the search.
    fn minimax<G: Game>(state: &G) -> i32 {
        let moves = state.legal_moves();
        if moves.len() == 0 {
            return state.final_score();
        }
        moves
            .map(|mv| -minimax(&state.play_unchecked(mv)))
            .max()
            .unwrap()
    }

    #[test]
    fn tictactoe_start_is_a_draw_and_wins_are_found() {
        let (_, score) = exact(&TicTacToe::start(), &TicTacToeEval);
        assert_eq!(score, 0);
        // X on a1 and b1, O on a2 and b2: X to move wins at c1.
        let p: Position<TicTacToe> = "XX-OO---- X".parse().unwrap();
        let (mv, score) = exact(p.state(), &TicTacToeEval);
        assert_eq!(score, DISC);
        assert_eq!(mv.unwrap().to_string(), "c1");
    }

    #[test]
    fn othello_endgame_matches_minimax_and_obf() {
        // FFO-style position with few empties, scored by plain minimax.
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
        let p: Position<StandardOthello> = line.parse().unwrap();
        // Play four best-guess moves to reach a small endgame.
        let mut state = *p.state();
        for _ in 0..5 {
            let mv = state.legal_moves().next().unwrap();
            state = state.play_unchecked(mv);
        }
        assert!(state.empties() <= 10);
        let (_, score) = exact(&state, &HandmadeEval::<false>);
        assert_eq!(score, minimax(&state) * DISC);

        let problem: ObfProblem =
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;"
                .parse()
                .unwrap();
        let (mv, score) = exact(problem.position.state(), &HandmadeEval::<false>);
        assert_eq!(score, 18 * DISC);
        assert_eq!(mv.unwrap().to_string(), "g8");
    }

    #[test]
    fn node_limit_and_stop_flag_end_the_search_with_a_move() {
        let mut tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let limits = Limits {
            nodes: Some(500),
            ..Limits::infinite(Instant::now())
        };
        let state = StandardOthello::start();
        let r = think(
            &state,
            &HandmadeEval::<false>,
            &mut tt,
            &limits,
            &stop,
            &mut |_| {},
        );
        assert!(r.best_move.is_some());
        assert!(r.nodes <= 500);
        let stopped = AtomicBool::new(true);
        let r = think(
            &state,
            &HandmadeEval::<false>,
            &mut tt,
            &Limits::infinite(Instant::now()),
            &stopped,
            &mut |_| {},
        );
        assert!(r.best_move.is_some());
        assert!(r.last.is_none());
    }

    #[test]
    fn same_depth_same_nodes() {
        let run = || {
            let mut tt = TranspositionTable::new(4);
            let stop = AtomicBool::new(false);
            think(
                &StandardOthello::start(),
                &HandmadeEval::<false>,
                &mut tt,
                &Limits::depth(7),
                &stop,
                &mut |_| {},
            )
        };
        let (a, b) = (run(), run());
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.best_move, b.best_move);
    }
}
