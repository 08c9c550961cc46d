//! The exact endgame solver for Othello (standard and reversed rules): the final
//! disc difference under perfect play, in discs.
//!
//! Built after the field's solvers (Edax, Zebra): null-window searches around
//! the score, principal-variation search where the exact value is needed,
//! and work arranged by the number of empty squares left:
//!
//! - **1 empty**: no move list; the flips of the one square decide the score.
//! - **2 and 3 empties**: dedicated code, parity order, no move list.
//! - **4 to `SHALLOW` empties**: no table; empty squares are tried directly
//!   (a square whose flips are empty is not a move), odd quadrants first
//!   (parity: playing last in a region is an advantage). In large solves
//!   the table starts one empty later (`LARGE_SHALLOW`), and nodes of 6 and
//!   7 empties rank their moves fastest first.
//! - **deeper**: transposition table (bounds and best move), enhanced
//!   transposition cutoff, stability cutoff, moves ordered fastest first (fewest
//!   opponent replies, corners weighted), with a shallow evaluation search
//!   ordering the moves far from the end.
//!
//! A solve far from the end starts with selective passes (probable cutoffs,
//! as Edax and Egaroucid do): cheap, they leave best moves in the table and
//! a close guess at the score, and each search starts with a narrow
//! (aspiration) window around its guess. The last pass is exact.

mod last;
mod midsearch;
mod nws;
mod ordering;
mod parallel;
mod probcut;
mod score;
mod settings;
mod shallow;

#[cfg(test)]
mod calibration;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::tt::{EXACT, MoveCode, NO_LOWER, NO_UPPER, TranspositionTable};
use crate::eval::Evaluator;
use crate::eval::pattern::Direct;
use crate::game::{Board, Move, Othello, Square};
use ordering::MoveList;
pub use parallel::BusyTable;
use probcut::{SELECTIVE_EMPTIES, SELECTIVE_Z};
pub use score::Discs;
use settings::{LARGE_SETTINGS, REVERSED_LARGE_SETTINGS, SMALL_SETTINGS};
pub(crate) use settings::{OrderWeights, SolverSettings};

/// From this many empties a solve is "large": its windows are clamped to
/// +-64, it starts with a window of `ASPIRATION_WINDOW` discs either side of a
/// guess, from `SELECTIVE_EMPTIES` it runs selective passes first, and it
/// takes the large settings. Smaller solves -- all of training's, 16 empties
/// or fewer -- keep the plain search, which costs them little and keeps them
/// move for move as when the committed weights were made.
const LARGE_SOLVE_EMPTIES: u32 = 18;

/// Half the first window of a large solve: most scores fall inside it, and
/// the exact pass after the selective ones has a good guess.
const ASPIRATION_WINDOW: i32 = 5;

/// Depth of the evaluation search that guesses the score when the table has none.
const GUESS_DEPTH: u32 = 4;

/// How often (in nodes) the clock is read.
const CLOCK_CHECK_INTERVAL: u64 = 4096;

/// [`Score::INF`](crate::score::Score::INF) in discs.
const INF: i32 = crate::score::Score::INF.rounded_discs();

/// [`INF`] as a [`Score`](crate::score::Score).
const INF_SCORE: crate::score::Score = Discs(INF).to_score();

/// The standard-rule final score of a finished game (empties to the winner).
#[inline]
fn standard_final(player: u64, opponent: u64) -> i32 {
    Board::new(player, opponent).final_score()
}

/// An exact solver over a transposition table shared with the midgame search.
pub struct Solver<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> {
    tt: &'a TranspositionTable,
    eval: &'a E,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    node_limit: u64,
    salt: u64,
    /// The node count at which the clock is read next.
    next_clock_check: u64,
    /// Nodes visited.
    pub nodes: u64,
    /// The part of `nodes` visited by the evaluation searches that rank
    /// moves far from the end: the rest is the solve's own tree, which a
    /// change to when those searches run must leave alone.
    ordering_nodes: u64,
    /// A limit or the stop flag ended the search; the results are void.
    pub aborted: bool,
    /// The selectivity of the current pass: [`EXACT`], or a selective level
    /// (an index into [`SELECTIVE_Z`] plus one) whose probable cutoffs make
    /// the pass fast and fill the table with good moves for the next.
    level: u8,
    /// One move list per node on the current path, at [`list_slot`]: built in
    /// place rather than on the stack, where each new list cost a 1.5 KB copy.
    /// Grown to the highest slot the search uses, so that the many small
    /// solves of training pay for no more lists than they need.
    lists: Vec<MoveList>,
    /// The memory of the probable cutoffs' midgame searches, made on the
    /// first (large solves only).
    mid_scratch: Option<Box<crate::search::midgame::Scratch>>,
    /// How many results so far leaned on a probable cutoff or on a selective
    /// table entry: a subtree searched while it stays the same is exact,
    /// whatever the level of the pass, and is stored as exact.
    approximations: u64,
    /// The evaluation's pattern readers, for the indices the ordering
    /// searches keep up to date move by move.
    direct: &'static Direct,
    /// Whether the evaluation reads those indices (else none are kept).
    indexed: bool,
    /// [`SMALL_SETTINGS`], or the large settings of these rules once a large
    /// solve started ([`Self::settings_for_root`]).
    settings: SolverSettings,
    /// The marks of the children being searched, shared with the other
    /// threads of a parallel solve ([`parallel`]); `None` alone.
    busy: Option<&'a BusyTable>,
}

/// Where a node's move list lives: a path from the root visits each (empties,
/// just passed) pair at most once, so no two live nodes share a slot.
#[inline]
fn list_slot(empties: u32, passed: bool) -> usize {
    2 * empties as usize + passed as usize
}

impl<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Solver<'a, REVERSED, E> {
    /// A solver using `tt` (keys compatible with the midgame search), stopping on
    /// `stop`, at `deadline` or after `node_limit` nodes.
    pub fn new(
        tt: &'a TranspositionTable,
        eval: &'a E,
        stop: &'a AtomicBool,
        deadline: Option<Instant>,
        node_limit: Option<u64>,
        salt: u64,
    ) -> Self {
        Solver {
            tt,
            eval,
            stop,
            deadline,
            node_limit: node_limit.unwrap_or(u64::MAX),
            lists: Vec::new(),
            mid_scratch: None,
            approximations: 0,
            direct: crate::eval::trained::Layout::get().direct(),
            indexed: eval.uses_indices(),
            settings: SMALL_SETTINGS,
            busy: None,
            salt,
            next_clock_check: CLOCK_CHECK_INTERVAL,
            nodes: 0,
            ordering_nodes: 0,
            aborted: false,
            level: EXACT,
        }
    }

    /// This solver with `settings` for its small solves, in place of
    /// [`SMALL_SETTINGS`]; a large root still takes the large settings of its
    /// rules ([`Self::settings_for_root`]). Training names its own, frozen.
    pub(crate) fn with_settings(mut self, settings: SolverSettings) -> Self {
        self.settings = settings;
        self
    }

    /// The final score under these rules of a finished game.
    #[inline]
    fn final_score(player: u64, opponent: u64) -> i32 {
        let s = standard_final(player, opponent);
        if REVERSED { -s } else { s }
    }

    /// Takes the settings of a large solve under these rules when `board`,
    /// the root of a solve, is large; otherwise leaves them as they are.
    fn settings_for_root(&mut self, board: &Board) {
        if board.empties() >= LARGE_SOLVE_EMPTIES {
            self.take_large_settings();
        }
    }

    /// The settings of large solves under these rules.
    fn take_large_settings(&mut self) {
        self.settings = if REVERSED {
            REVERSED_LARGE_SETTINGS
        } else {
            LARGE_SETTINGS
        };
    }

    /// Whether the children of a node with `empties` empties search with the
    /// table (so their parent computes their keys and loads their buckets).
    #[inline]
    fn children_use_table(&self, empties: u32) -> bool {
        empties > self.settings.shallow_empties + 1
    }

    #[inline]
    fn key(&self, board: &Board) -> u64 {
        crate::game::mix_key(board.player, board.opponent) ^ self.salt
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        } else if self.nodes >= self.next_clock_check
            && let Some(deadline) = self.deadline
        {
            self.next_clock_check = self.nodes + CLOCK_CHECK_INTERVAL;
            self.aborted = Instant::now() >= deadline;
        }
        self.aborted
    }

    /// The exact score of `board` within `(alpha, beta)` (fail-soft outside).
    pub fn solve(&mut self, board: Board, alpha: Discs, beta: Discs) -> Discs {
        self.settings_for_root(&board);
        Discs(self.solve_with_settings(board, alpha.0, beta.0))
    }

    /// [`Self::solve`] under the settings the solver has now.
    fn solve_with_settings(&mut self, board: Board, alpha: i32, beta: i32) -> i32 {
        if board.empties() < LARGE_SOLVE_EMPTIES {
            return self.pvs(board, alpha, beta, false);
        }
        // No score lies beyond +-64: a window reaching past that would make
        // the search prove that every line stays within it, move by move (a
        // won position, 64-0, took 10^4 times the nodes). With the window's
        // edge at 64, a result of 64 fails high and is exact all the same.
        let (alpha, beta) = if alpha.max(-64) < beta.min(64) {
            (alpha.max(-64), beta.min(64))
        } else {
            (alpha, beta)
        };
        if self.level == EXACT && board.empties() >= SELECTIVE_EMPTIES {
            // Selective passes first, each surer than the last: cheap, they
            // leave best moves in the table and a close guess at the score.
            for level in 1..=SELECTIVE_Z.len() as u8 {
                self.level = level;
                self.aspiration(board, -64, 64);
                if self.aborted {
                    self.level = EXACT;
                    return 0;
                }
            }
            self.level = EXACT;
        }
        self.aspiration(board, alpha, beta)
    }

    /// The score of `board` within `(alpha, beta)` at the current level:
    ///
    /// Far from the end the first search has a narrow window around a guess
    /// (aspiration): most scores fall inside it, and a narrow window cuts
    /// more; a score outside it is found again with the window opened on
    /// that side only.
    fn aspiration(&mut self, board: Board, alpha: i32, beta: i32) -> i32 {
        if beta - alpha <= 2 * ASPIRATION_WINDOW {
            return self.pvs(board, alpha, beta, false);
        }
        let guess = self.guess(&board);
        let mut low = (guess - ASPIRATION_WINDOW).max(alpha);
        let mut high = (guess + ASPIRATION_WINDOW).min(beta);
        for attempt in 0.. {
            let score = self.pvs(board, low, high, false);
            log::debug!(
                "solve: level {} window ({low}, {high}): {score}, {} nodes",
                self.level,
                self.nodes
            );
            if self.aborted {
                return 0;
            }
            if attempt == 2 || (score > low || low == alpha) && (score < high || high == beta) {
                return score;
            }
            // Opened on the failing side only; a selective pass can fail on
            // both sides in turn (its cutoffs are not consistent), so the
            // third try takes the whole window.
            (low, high) = match attempt {
                0 if score <= low => (alpha, score + 1),
                0 => (score - 1, beta),
                _ => (alpha, beta),
            };
        }
        unreachable!("the third attempt returns")
    }

    /// A first guess at the score of `board`, for the aspiration window: the
    /// midgame search's score left in the table, else a shallow search.
    fn guess(&mut self, board: &Board) -> i32 {
        if let Some(hit) = self.tt.probe(self.key(board)) {
            let (lower, upper) = (hit.lower, hit.upper);
            let value = match (lower != NO_LOWER, upper != NO_UPPER) {
                (true, true) => Some((lower + upper) / 2),
                (true, false) => Some(lower),
                (false, true) => Some(upper),
                (false, false) => None,
            };
            if let Some(value) = value {
                return Discs::truncated(crate::score::Score::from_centi(value))
                    .0
                    .clamp(-64, 64);
            }
        }
        let indices = self.indices(board);
        let value = self.midgame(*board, &indices, GUESS_DEPTH, -INF_SCORE, INF_SCORE);
        Discs::truncated(value).0.clamp(-64, 64)
    }

    /// A best move of `board` and its exact score: every move is solved, each
    /// only as far as it must be to show it is not better than the best so far.
    /// `None` when the game is over; a forced pass is `Move::Pass`.
    pub fn best_move(&mut self, board: Board) -> Option<(Move, Discs)> {
        let moves = board.moves();
        if moves == 0 {
            if board.opponent_moves() == 0 {
                return None;
            }
            return Some((
                Move::Pass,
                -self.solve(board.pass(), Discs(-INF), Discs(INF)),
            ));
        }
        self.settings_for_root(&board);
        let hash_move = self.hash_move(&board);
        let slot = list_slot(board.empties(), false);
        self.order(&board, moves, hash_move, slot, false);
        if self.aborted {
            return None;
        }
        let mut best: Option<(Move, Discs)> = None;
        while let Some(item) = self.lists[slot].next() {
            let alpha = best.map_or(Discs(-INF), |(_, s)| s);
            let score = -self.solve(item.child, Discs(-INF), -alpha);
            if self.aborted {
                return best;
            }
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((
                    Move::Play(Square::new(item.square).expect("bit index")),
                    score,
                ));
            }
        }
        best
    }

    /// The best move the table holds for `board`, if any.
    #[inline]
    fn hash_move(&self, board: &Board) -> MoveCode {
        self.tt
            .probe(self.key(board))
            .map_or(MoveCode::NONE, |h| MoveCode::new(h.mv))
    }

    /// The principal variation stored in the table from `board`, as far as it goes.
    pub fn pv(&self, board: Board) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut b = board;
        for _ in 0..64 {
            if b.moves() == 0 {
                if b.opponent_moves() == 0 {
                    break;
                }
                pv.push(Move::Pass);
                b = b.pass();
                continue;
            }
            let Some(hit) = self.tt.probe(self.key(&b)) else {
                break;
            };
            let Some(sq) = MoveCode::new(hit.mv).square() else {
                break;
            };
            if b.moves() & sq.bit() == 0 {
                break;
            }
            pv.push(Move::Play(sq));
            b = b.play_unchecked(sq);
        }
        pv
    }
}

impl<const REVERSED: bool> super::Solvable for Othello<REVERSED> {
    fn solve_exact<E: Evaluator<Self>>(
        state: &Self,
        eval: &E,
        context: &mut super::SolveContext<'_>,
    ) -> Option<(i32, Vec<Move>)> {
        let mut solver = Solver::<REVERSED, E>::new(
            context.tt,
            eval,
            context.stop,
            context.deadline,
            context.node_limit.map(|n| n.saturating_sub(context.nodes)),
            context.salt,
        )
        .with_busy(context.busy);
        let score = solver.solve(state.0, Discs(-INF), Discs(INF));
        context.nodes += solver.nodes;
        context.aborted = solver.aborted;
        let pv = if solver.aborted {
            Vec::new()
        } else {
            solver.pv(state.0)
        };
        Some((score.to_score().centi(), pv))
    }
}
