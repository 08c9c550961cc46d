//! Negamax alpha-beta with principal-variation search, generic over the game.
//!
//! One node: count it and check the limits; score finished games exactly;
//! evaluate at the horizon; probe the transposition table; play a forced pass
//! without spending depth; order the moves (hash move, then the evaluation's
//! ordering key); search the first move with the full window and the others with
//! a null window, re-searching those that beat alpha; store the result.
//!
//! A node searched with `depth >= empties` sees every line to the end of the
//! game, so its score is exact; the table stores it as valid for any depth.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::ordering::{Candidate, MoveList};
use super::tt::{DEPTH_LIMITED, EXACT, NO_MOVE, TranspositionTable, bounds};
use crate::eval::{DISC, Evaluator};
use crate::game::Game;
use crate::score::Score;

/// Deepest ply a search can reach (depth plus passes).
pub const MAX_PLY: usize = 128;

/// [`Score::INF`] as the search's raw score.
pub const INFINITY: i32 = Score::INF.centi();

/// How often (in nodes) the clock is read: often enough to stop within a
/// fraction of a millisecond, rarely enough to cost nothing.
const CLOCK_CHECK_INTERVAL: u64 = 1024;

/// The state of one search: counters, limits and the principal variation.
pub struct Searcher<'a, G: Game, E: Evaluator<G>> {
    eval: &'a E,
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    node_limit: u64,
    salt: u64,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Deepest ply reached so far.
    pub seldepth: u32,
    /// Set once a limit or the stop flag ended the search; results after that are void.
    pub aborted: bool,
    pv: Box<[[u8; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    lists: Vec<MoveList<G>>,
    /// The root moves searched, as a set of move codes (`go searchmoves`).
    root_moves: u64,
}

impl<'a, G: Game, E: Evaluator<G>> Searcher<'a, G, E> {
    /// A searcher over `tt` that aborts when `stop` is set, at `deadline`, or
    /// after `node_limit` nodes.
    pub fn new(
        eval: &'a E,
        tt: &'a TranspositionTable,
        stop: &'a AtomicBool,
        deadline: Option<Instant>,
        node_limit: Option<u64>,
    ) -> Self {
        Searcher {
            eval,
            tt,
            stop,
            deadline,
            node_limit: node_limit.unwrap_or(u64::MAX),
            salt: super::variant_salt::<G>(),
            nodes: 0,
            seldepth: 0,
            aborted: false,
            pv: Box::new([[NO_MOVE; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            lists: (0..MAX_PLY).map(|_| MoveList::default()).collect(),
            root_moves: u64::MAX,
        }
    }

    /// Searches only these root moves (a set of move codes; `None`: all).
    pub fn with_root_moves(mut self, moves: Option<u64>) -> Self {
        self.root_moves = moves.unwrap_or(u64::MAX);
        self
    }

    /// Whether the root move `code` is one to search.
    pub fn root_allows(&self, code: u8) -> bool {
        root_allows(self.root_moves, code)
    }

    /// The principal variation of the last completed root search.
    pub fn pv(&self) -> Vec<G::Move> {
        self.pv[0][..self.pv_len[0]]
            .iter()
            .filter_map(|&code| G::move_from_code(code))
            .collect()
    }

    /// The principal variation of the last search from ply `ply` (a root
    /// move's line below it, searched at ply 1).
    pub fn pv_at(&self, ply: usize) -> Vec<G::Move> {
        self.pv[ply][ply..self.pv_len[ply].max(ply)]
            .iter()
            .filter_map(|&code| G::move_from_code(code))
            .collect()
    }

    /// Key of `state` in the table, distinct per game so variants never mix.
    #[inline]
    fn key(&self, state: &G) -> u64 {
        state.hash_key() ^ self.salt
    }

    /// Counts a node and decides whether the search must stop now.
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CLOCK_CHECK_INTERVAL)
            && let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            self.aborted = true;
        }
        self.aborted
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, code: u8) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = code;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Hands the search over to the game's exact solver, if it has one.
    pub fn solve_exact(&mut self, state: &G) -> Option<(i32, Vec<G::Move>)>
    where
        G: super::Solvable,
    {
        let mut context = super::SolveContext {
            tt: self.tt,
            stop: self.stop,
            deadline: self.deadline,
            node_limit: (self.node_limit != u64::MAX).then_some(self.node_limit),
            salt: self.salt,
            nodes: self.nodes,
            aborted: false,
            busy: None,
        };
        let solved = G::solve_exact(state, self.eval, &mut context);
        self.nodes = context.nodes;
        self.aborted |= context.aborted;
        if let Some((_, pv)) = &solved {
            self.seldepth = self.seldepth.max(pv.len() as u32);
        }
        solved
    }

    /// The negamax value of `state` searched `depth` plies deep, within
    /// `(alpha, beta)`: exact inside the window, a bound outside it.
    pub fn negamax(&mut self, state: &G, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.out_of_budget() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        let pv_node = beta - alpha > 1;

        let moves = state.legal_moves();
        if moves.len() == 0 {
            return state.final_score() * DISC;
        }
        let empties = state.empties() as i32;
        if depth <= 0 || ply >= MAX_PLY - 2 {
            return self.eval.evaluate(state);
        }

        // A forced pass costs no depth and needs no table entry.
        if moves.len() == 1
            && let Some(pass) = G::pass_move()
            && moves.clone().next() == Some(pass)
        {
            let score = -self.negamax(&state.play_unchecked(pass), depth, -beta, -alpha, ply + 1);
            self.update_pv(ply, G::move_code(pass));
            return score;
        }

        let to_end = depth >= empties;
        let stored_depth = if to_end { empties } else { depth } as u8;
        let level = if to_end { EXACT } else { DEPTH_LIMITED };
        let key = self.key(state);
        let mut hash_move = NO_MOVE;
        if let Some(hit) = self.tt.probe(key) {
            hash_move = hit.mv;
            if !pv_node
                && (hit.to_end || (!to_end && hit.depth >= stored_depth))
                && let Some(score) = hit.cutoff(alpha, beta)
            {
                return score;
            }
        }

        self.lists[ply].fill(state, moves, hash_move, depth >= 2, self.eval);
        let alpha_in = alpha;
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        let mut first = true;
        let restricted = ply == 0 && self.root_moves != u64::MAX;
        while let Some(Candidate { code, child, .. }) = self.lists[ply].next_best() {
            if restricted && !root_allows(self.root_moves, code) {
                continue;
            }
            let score = if first {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let probe = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                if probe > alpha && probe < beta && pv_node && !self.aborted {
                    -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
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
                best_move = code;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, code);
                    if score >= beta {
                        break;
                    }
                }
            }
        }

        // A restricted root's value is not the position's: not stored.
        if !restricted {
            let (lower, upper) = bounds(best, alpha_in, beta);
            self.tt
                .store(key, stored_depth, level, lower, upper, best_move);
        }
        best
    }
}

/// Whether `code` is in the set `moves` (codes past 63 always are).
fn root_allows(moves: u64, code: u8) -> bool {
    code >= 64 || moves & (1 << code) != 0
}
