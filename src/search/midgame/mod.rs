//! The Othello midgame search: iterative deepening over a principal-variation
//! search with Multi-ProbCut, for standard and reversed rules.
//!
//! Built after the field's engines (Logistello, Edax, Egaroucid): the
//! pattern indices are updated move by move, moves are ordered by the hash
//! move, then by a shallow search of the evaluation and fastest first (few
//! replies for the opponent), and null-window nodes far enough from the
//! horizon try a probable cutoff ([`probcut`]): a shallow search whose value,
//! beyond the window by `t` standard errors of such predictions, stands for
//! the deep one. The selectivity `t` is [`Selectivity`]; close to the end the
//! driver ([`crate::search::deepen`]) hands over to the exact solver. This
//! search knows nothing of the solver: the solver runs it for its own
//! probable cutoffs.
//!
//! Files: this one holds the searcher's state; [`pvs`] the node searches,
//! [`ordering`] the move lists, [`root`] an iteration's root (multi-PV lines,
//! aspiration), [`probcut`] the cutoff test and its calibrated errors,
//! [`calibrate`] the command that fits them.
//!
//! The node searches and the ordering exist three times, compiled with
//! AVX-512, with AVX2 and for the build floor ([`crate::cpu::isa_versions`]);
//! each search's entry points ([`Midgame::value`], [`Midgame::search`], an
//! iteration's root) choose once, and the copy passes the choice down to the
//! move generator and the evaluation.

pub mod calibrate;
mod ordering;
pub mod probcut;
mod pvs;
pub(crate) mod root;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::tt::{NO_MOVE, TranspositionTable};
use crate::cpu::{Isa, with_isa};
use crate::eval::pattern::{Direct, Indices};
use crate::eval::{DISC, Evaluator};
use crate::game::{Board, Move, Othello, Square};
use crate::score::Score;
use ordering::MoveList;
pub use probcut::Selectivity;

/// Deepest ply a search can reach (depth plus passes).
pub const MAX_PLY: usize = 96;

/// [`Score::INF`] as the search's raw score.
const INF: i32 = Score::INF.centi();

/// How often (in nodes) the clock is read.
const CLOCK_CHECK_INTERVAL: u64 = 256;

/// A position with its pattern indices (kept move by move for evaluations
/// that read them).
#[derive(Clone, Copy)]
pub(crate) struct Node {
    pub board: Board,
    pub indices: Indices,
}

/// The memory a midgame search works in: move lists and the principal
/// variation. Kept apart from [`Midgame`] so that a caller running many
/// small searches (the solver's probable cutoffs) allocates it once.
pub struct Scratch {
    /// Move lists built in place: principal-variation nodes use the slot of
    /// their ply, null-window nodes `MAX_PLY` plus their depth (a path
    /// visits each depth once among them: a pass searches no moves).
    lists: Vec<MoveList>,
    pv: Box<[[u8; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            lists: (0..2 * MAX_PLY).map(|_| MoveList::default()).collect(),
            pv: Box::new([[NO_MOVE; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
        }
    }
}

/// One midgame search: its limits, counters and principal variation.
pub struct Midgame<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> {
    pub(crate) eval: &'a E,
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) stop: &'a AtomicBool,
    pub(crate) deadline: Option<Instant>,
    pub(crate) node_limit: u64,
    next_clock_check: u64,
    pub(crate) salt: u64,
    direct: &'static Direct,
    indexed: bool,
    /// The probable cutoffs' confidence, or none (full width).
    pub(crate) selectivity: Selectivity,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// A limit or the stop flag ended the search: results since are void.
    pub aborted: bool,
    scratch: &'a mut Scratch,
}

impl<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Midgame<'a, REVERSED, E> {
    /// A search over `tt` in `scratch` that stops on `stop`, at `deadline`
    /// or after `node_limit` nodes, with the table keys of its variant.
    pub fn new(
        eval: &'a E,
        tt: &'a TranspositionTable,
        stop: &'a AtomicBool,
        deadline: Option<Instant>,
        node_limit: Option<u64>,
        scratch: &'a mut Scratch,
    ) -> Self {
        Midgame {
            eval,
            tt,
            stop,
            deadline,
            node_limit: node_limit.unwrap_or(u64::MAX),
            next_clock_check: CLOCK_CHECK_INTERVAL,
            salt: super::variant_salt::<Othello<REVERSED>>(),
            direct: crate::eval::trained::Layout::get().direct(),
            indexed: eval.uses_indices(),
            selectivity: Selectivity::DEFAULT,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            scratch,
        }
    }

    /// Uses `salt` for the table keys (the solver's, so both see each
    /// other's entries).
    pub fn with_salt(mut self, salt: u64) -> Self {
        self.salt = salt;
        self
    }

    /// Sets the confidence of the probable cutoffs.
    pub fn set_selectivity(&mut self, selectivity: Selectivity) {
        self.selectivity = selectivity;
    }

    /// The node of `board`, its indices read off the board.
    pub(crate) fn root_node(&self, board: Board) -> Node {
        Node {
            board,
            indices: if self.indexed {
                self.direct.indices(board.player, board.opponent)
            } else {
                Indices::ZERO
            },
        }
    }

    /// The child of `node` after the move on `x` flipping `flipped` (always
    /// inlined, so that the fast copies of the searches update the indices
    /// with their instruction set).
    #[inline(always)]
    pub(crate) fn child(&self, node: &Node, x: u8, flipped: u64) -> Node {
        let square = Square::new(x).expect("a move is a square");
        Node {
            board: node.board.apply(square, flipped),
            indices: if self.indexed {
                self.direct.after_move(&node.indices, x, flipped)
            } else {
                Indices::ZERO
            },
        }
    }

    /// `node` with the other side to move.
    #[inline]
    pub(crate) fn passed(node: &Node) -> Node {
        Node {
            board: node.board.pass(),
            indices: node.indices.after_pass(),
        }
    }

    /// The value of `node` at the horizon: exact when the board is full or
    /// one side has no disc left, else the static evaluation (a position
    /// where neither side can move but discs remain is rare enough to be
    /// evaluated like any other). With the instruction set `isa`.
    #[inline]
    pub(crate) fn evaluate<I: Isa>(&self, isa: I, node: &Node) -> i32 {
        let b = &node.board;
        if b.empties() == 0 || b.player == 0 || b.opponent == 0 {
            return Self::final_value(b);
        }
        self.eval
            .evaluate_indexed_with(isa, &Othello(*b), &node.indices)
    }

    /// The exact value of a finished game, in [`DISC`] units.
    #[inline]
    pub(crate) fn final_value(board: &Board) -> i32 {
        Othello::<REVERSED>::score_from_standard(board.final_score()) * DISC
    }

    #[inline]
    pub(crate) fn key(&self, board: &Board) -> u64 {
        crate::game::mix_key(board.player, board.opponent) ^ self.salt
    }

    /// Counts a node and tells whether the search must stop (always inlined:
    /// LLVM left it out of line in the fast copies).
    #[inline(always)]
    pub(crate) fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.node_limit || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        } else if self.nodes >= self.next_clock_check {
            self.next_clock_check = self.nodes + CLOCK_CHECK_INTERVAL;
            if self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    #[inline]
    pub(crate) fn update_pv(&mut self, ply: usize, x: u8) {
        let child_len = self.scratch.pv_len[ply + 1].max(ply + 1);
        self.scratch.pv[ply][ply] = x;
        for i in ply + 1..child_len {
            self.scratch.pv[ply][i] = self.scratch.pv[ply + 1][i];
        }
        self.scratch.pv_len[ply] = child_len;
    }

    /// The principal variation of the last root search.
    pub fn pv(&self) -> Vec<Move> {
        self.scratch.pv[0][..self.scratch.pv_len[0]]
            .iter()
            .filter_map(|&code| Move::from_code(code))
            .collect()
    }

    /// The value of `board` searched `depth` plies deep (full window), at the
    /// current selectivity: calibration and tools.
    pub fn value(&mut self, board: Board, depth: u32) -> i32 {
        let node = self.root_node(board);
        with_isa!(avx512 isa => self.pvs(isa, &node, depth, -INF, INF, 0))
    }

    /// The value of `board` at `depth` within `(alpha, beta)` (fail-soft),
    /// from a null-window search when the window is one unit wide: the
    /// solver's probable cutoffs and ordering searches call this.
    pub fn search(&mut self, board: Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        let node = self.root_node(board);
        if beta - alpha <= 1 {
            with_isa!(avx512 isa => self.nws(isa, &node, depth, alpha))
        } else {
            with_isa!(avx512 isa => self.pvs(isa, &node, depth, alpha, beta, 0))
        }
    }

    /// One iteration at the root: the value within `(alpha, beta)`, its
    /// principal variation left in [`Self::pv`].
    pub(crate) fn root(&mut self, node: &Node, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.scratch.pv_len[0] = 0;
        with_isa!(avx512 isa => self.pvs(isa, node, depth, alpha, beta, 0))
    }
}
