//! The root of a midgame iteration: the first move before any iteration,
//! the root moves of a multi-PV search and their lines, and the aspiration
//! window around the last iteration's score.

use super::{INF, Midgame, Node};
use crate::cpu::with_isa;
use crate::eval::DISC;
use crate::eval::Evaluator;
use crate::game::{Move, Othello, Square};
use crate::score::Score;
use crate::search::PvLine;
use crate::search::tt::NO_MOVE;

/// Half the aspiration window around the previous iteration's score.
const ASPIRATION: i32 = 3 * DISC;

/// A root move of a multi-PV search, with what the last iteration found.
pub(crate) struct RootMove {
    pub square: u8,
    pub flipped: u64,
    /// Its score at the last iteration: exact for the lines reported, an
    /// upper bound for the others (they only had to be shown worse).
    pub score: i32,
}

impl RootMove {
    pub fn mv(&self) -> Move {
        Move::Play(Square::new(self.square).expect("a move is a square"))
    }
}

/// Puts `line` into `lines` (best first, at most `wanted`), after the lines
/// of the same score already there.
pub(crate) fn insert_line(lines: &mut Vec<PvLine<Move>>, line: PvLine<Move>, wanted: usize) {
    let at = lines
        .iter()
        .position(|l| l.score < line.score)
        .unwrap_or(lines.len());
    lines.insert(at, line);
    lines.truncate(wanted);
}

impl<const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Midgame<'_, REVERSED, E> {
    /// The move tried first at the root before any iteration finished.
    pub(crate) fn first_move(&mut self, node: &Node) -> Option<Move> {
        let slot = 0;
        with_isa!(avx512 isa => self.order(isa, node, node.board.moves(), NO_MOVE, 0, slot));
        self.scratch.lists[slot]
            .next()
            .and_then(|item| Square::new(item.square).map(Move::Play))
    }

    /// The legal moves of `node` on the squares of `allowed`, in the
    /// search's order.
    pub(crate) fn root_moves(&mut self, node: &Node, allowed: u64) -> Vec<RootMove> {
        let slot = 0;
        let moves = node.board.moves() & allowed;
        with_isa!(avx512 isa => self.order(isa, node, moves, NO_MOVE, 0, slot));
        self.scratch.lists[slot]
            .by_ref()
            .map(|item| RootMove {
                square: item.square,
                flipped: item.flipped,
                score: -INF,
            })
            .collect()
    }

    /// One multi-PV iteration at `depth` over `moves` (best first from the
    /// last iteration): the best `wanted` lines with exact scores, as
    /// Stockfish does it. Until `wanted` lines are found each move gets a
    /// full window; after that, a null window at the worst line's score
    /// shows most moves worse at the cost of one plain search each, and
    /// the few better are searched again above it. `moves` is left sorted
    /// by what was found. Empty when the search was aborted.
    pub(crate) fn root_lines(
        &mut self,
        node: &Node,
        depth: u32,
        moves: &mut [RootMove],
        wanted: usize,
    ) -> Vec<PvLine<Move>> {
        if self.out_of_budget() {
            return Vec::new();
        }
        let mut lines: Vec<PvLine<Move>> = Vec::with_capacity(wanted + 1);
        for root_move in moves.iter_mut() {
            let child = self.child(node, root_move.square, root_move.flipped);
            let full = lines.len() < wanted;
            let floor = lines.last().map_or(-INF, |l| l.score.centi());
            let score = if full {
                -with_isa!(avx512 isa => self.pvs(isa, &child, depth - 1, -INF, INF, 1))
            } else {
                let probe = -with_isa!(avx512 isa => self.nws(isa, &child, depth - 1, -floor - 1));
                if probe > floor && !self.aborted {
                    -with_isa!(avx512 isa => self.pvs(isa, &child, depth - 1, -INF, -floor, 1))
                } else {
                    probe
                }
            };
            if self.aborted {
                return Vec::new();
            }
            root_move.score = score;
            if full || score > floor {
                let mut pv = vec![root_move.mv()];
                let child_pv = &self.scratch.pv[1][1..self.scratch.pv_len[1].max(1)];
                pv.extend(child_pv.iter().filter_map(|&code| Move::from_code(code)));
                insert_line(
                    &mut lines,
                    PvLine {
                        score: Score::from_centi(score),
                        pv,
                    },
                    wanted,
                );
            }
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        lines
    }

    /// The root search at `depth` with a window around `guess` (the last
    /// iteration's score), widened on the side it fails.
    pub(crate) fn aspiration(&mut self, node: &Node, depth: u32, guess: Option<i32>) -> i32 {
        let Some(guess) = guess.filter(|_| depth >= 5) else {
            return self.root(node, depth, -INF, INF);
        };
        let mut delta = ASPIRATION;
        let mut alpha = (guess - delta).max(-INF);
        let mut beta = (guess + delta).min(INF);
        loop {
            let score = self.root(node, depth, alpha, beta);
            if self.aborted {
                return score;
            }
            if score <= alpha && alpha > -INF {
                delta *= 3;
                alpha = (score - delta).max(-INF);
            } else if score >= beta && beta < INF {
                delta *= 3;
                beta = (score + delta).min(INF);
            } else {
                return score;
            }
        }
    }
}
