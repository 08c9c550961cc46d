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
//! search hands over to the exact solver.
//!
//! Files: this one holds the searcher's state and the root driver
//! ([`think`]); [`pvs`] the node searches, [`ordering`] the move lists,
//! [`probcut`] the cutoff test and its calibrated errors, [`calibrate`] the
//! command that fits them.
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
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::endgame::{BusyTable, Discs, Solver};
use super::tt::{NO_MOVE, TranspositionTable};
use super::{CHEAP_SOLVE_EMPTIES, EXACT_JUMP, Iteration, Limits, PvLine, SearchResult};
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

/// Half the aspiration window around the previous iteration's score.
const ASPIRATION: i32 = 3 * DISC;

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
    eval: &'a E,
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    node_limit: u64,
    next_clock_check: u64,
    salt: u64,
    direct: &'static Direct,
    indexed: bool,
    /// The probable cutoffs' confidence, or none (full width).
    selectivity: Selectivity,
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
    fn root(&mut self, node: &Node, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.scratch.pv_len[0] = 0;
        with_isa!(avx512 isa => self.pvs(isa, node, depth, alpha, beta, 0))
    }
}

/// About how long the solver takes on a position of `empties` empties from
/// a game (not a composed problem), on one core: 0.15 s at 20 empties,
/// 1.7 times more for each empty more. A timed search solves only when that
/// fits twice in the time left; otherwise it keeps deepening selectively.
fn solve_estimate(empties: u32) -> Duration {
    Duration::from_secs_f64(0.15 * 1.7f64.powi(empties as i32 - 20))
}

/// The midgame search of Othello under these rules: iterative deepening from
/// depth 1 with aspiration windows, the selectivity of the limits
/// ([`Selectivity::DEFAULT`] unless set), and the exact solver once the end
/// is near. One report per finished iteration through `on_iteration`.
///
/// With `limits.threads` above one the search is a Lazy SMP: helper threads
/// search the same root over the shared table, each deepening on its own
/// schedule ([`helper_skips`]), and what they store (bounds, best moves,
/// exact results near the end) makes the main thread's iterations cheaper.
/// Once a thread's next iteration is the exact solve, it joins the parallel
/// solve of the others ([`crate::search::endgame::BusyTable`]), which splits
/// the work between them.
/// The main thread alone reports, keeps time and answers; when it is done
/// the helpers stop. Lazy SMP is the simplest parallel search that scales
/// with a shared table, needs no change to the node searches and keeps stop
/// latency that of one thread; Young Brothers Wait (Edax, Egaroucid) splits
/// the tree at chosen nodes instead, at the cost of synchronising there.
pub fn think<const REVERSED: bool, E: Evaluator<Othello<REVERSED>>>(
    state: &Othello<REVERSED>,
    eval: &E,
    tt: &mut TranspositionTable,
    limits: &Limits,
    stop: &AtomicBool,
    on_iteration: &mut dyn FnMut(&Iteration<Move>),
) -> SearchResult<Move> {
    tt.new_search();
    think_shared(state, eval, tt, limits, stop, on_iteration)
}

/// [`think`] over a table already marked for this search.
fn think_shared<const REVERSED: bool, E: Evaluator<Othello<REVERSED>>>(
    state: &Othello<REVERSED>,
    eval: &E,
    tt: &TranspositionTable,
    limits: &Limits,
    stop: &AtomicBool,
    on_iteration: &mut dyn FnMut(&Iteration<Move>),
) -> SearchResult<Move> {
    let board = state.0;
    let moves = board.moves();
    if moves == 0 && board.opponent_moves() == 0 {
        return SearchResult {
            best_move: None,
            last: None,
            nodes: 0,
            elapsed: limits.start.elapsed(),
        };
    }
    if let Some((score, pv)) = forced_to_end::<REVERSED>(board) {
        // Nothing to search: the one line there is, exact.
        let score = Score::from_centi(score);
        let iteration = Iteration {
            depth: pv.len() as u32,
            seldepth: pv.len() as u32,
            score,
            exact: true,
            selectivity: 100,
            nodes: 0,
            elapsed: limits.start.elapsed(),
            lines: if is_multi(limits) {
                vec![PvLine {
                    score,
                    pv: pv.clone(),
                }]
            } else {
                Vec::new()
            },
            pv,
        };
        on_iteration(&iteration);
        return SearchResult {
            best_move: iteration.pv.first().copied(),
            last: Some(iteration),
            nodes: 0,
            elapsed: limits.start.elapsed(),
        };
    }
    if moves == 0 {
        // A forced pass: the value is the opponent's, from the other side.
        // One line, the pass, whatever lines were asked for; the opponent's
        // moves are not restricted, and only its best matters.
        let multi = is_multi(limits);
        let from_mover = |it: &Iteration<Move>| {
            let pv: Vec<Move> = std::iter::once(Move::Pass)
                .chain(it.pv.iter().copied())
                .collect();
            Iteration {
                score: -it.score,
                seldepth: it.seldepth + 1,
                lines: if multi {
                    vec![PvLine {
                        score: -it.score,
                        pv: pv.clone(),
                    }]
                } else {
                    Vec::new()
                },
                pv,
                ..it.clone()
            }
        };
        let passed = Othello::<REVERSED>(board.pass());
        let opponent_limits = Limits {
            searchmoves: None,
            multipv: 1,
            ..*limits
        };
        let result = think_shared(&passed, eval, tt, &opponent_limits, stop, &mut |it| {
            on_iteration(&from_mover(it))
        });
        return SearchResult {
            best_move: Some(Move::Pass),
            last: result.last.as_ref().map(from_mover),
            ..result
        };
    }
    if limits.threads <= 1 {
        return deepen(state, eval, tt, limits, stop, 0, None, None, on_iteration);
    }
    // Shared by the threads' exact solves, which split the work through it.
    let busy = BusyTable::default();
    // The helpers stop when the main thread is done, whatever ended it.
    let done = AtomicBool::new(false);
    let helper_nodes = AtomicU64::new(0);
    let result = std::thread::scope(|scope| {
        for index in 1..limits.threads {
            let (done, helper_nodes, busy) = (&done, &helper_nodes, &busy);
            let helper = move || {
                let limits = Limits {
                    nodes: None,
                    ..*limits
                };
                deepen(
                    state,
                    eval,
                    tt,
                    &limits,
                    done,
                    index,
                    Some(helper_nodes),
                    Some(busy),
                    &mut |_| {},
                );
            };
            // A thread the system refuses is simply not there: the search
            // goes on with those that started.
            let started = std::thread::Builder::new()
                .name(format!("orca-helper-{index}"))
                .spawn_scoped(scope, helper);
            if started.is_err() {
                break;
            }
        }
        let mut report = |it: &Iteration<Move>| {
            on_iteration(&Iteration {
                nodes: it.nodes + helper_nodes.load(Ordering::Relaxed),
                ..it.clone()
            })
        };
        let result = deepen(
            state,
            eval,
            tt,
            limits,
            stop,
            0,
            None,
            Some(&busy),
            &mut report,
        );
        done.store(true, Ordering::Relaxed);
        result
    });
    // The helpers have all ended: their count is complete.
    SearchResult {
        nodes: result.nodes + helper_nodes.load(Ordering::Relaxed),
        ..result
    }
}

/// The exact score (for the side to move) and the moves of a game whose
/// every move from `board` to its end is forced (a single legal move or a
/// pass each time), or `None` when some side has a choice.
fn forced_to_end<const REVERSED: bool>(board: Board) -> Option<(i32, Vec<Move>)> {
    let mut board = board;
    let mut pv = Vec::new();
    let mut sign = 1;
    loop {
        let moves = board.moves();
        if moves == 0 {
            if board.opponent_moves() == 0 {
                let score = Othello::<REVERSED>::score_from_standard(board.final_score()) * DISC;
                return Some((sign * score, pv));
            }
            pv.push(Move::Pass);
            board = board.pass();
        } else if moves.is_power_of_two() {
            let square = Square::new(moves.trailing_zeros() as u8)?;
            pv.push(Move::Play(square));
            board = board.play_unchecked(square);
        } else {
            return None;
        }
        sign = -sign;
    }
}

/// Whether `limits` ask for more than the plain search: several lines, or
/// a restricted set of root moves.
fn is_multi(limits: &Limits) -> bool {
    limits.multipv > 1 || limits.searchmoves.is_some()
}

/// A root move of a multi-PV search, with what the last iteration found.
struct RootMove {
    square: u8,
    flipped: u64,
    /// Its score at the last iteration: exact for the lines reported, an
    /// upper bound for the others (they only had to be shown worse).
    score: i32,
}

impl RootMove {
    fn mv(&self) -> Move {
        Move::Play(Square::new(self.square).expect("a move is a square"))
    }
}

/// Puts `line` into `lines` (best first, at most `wanted`), after the lines
/// of the same score already there.
fn insert_line(lines: &mut Vec<PvLine<Move>>, line: PvLine<Move>, wanted: usize) {
    let at = lines
        .iter()
        .position(|l| l.score < line.score)
        .unwrap_or(lines.len());
    lines.insert(at, line);
    lines.truncate(wanted);
}

/// Helper `index` of a parallel search (1 and up) skips depth `depth`: the
/// helpers deepen on staggered schedules (the skip blocks of Stockfish's
/// Lazy SMP), so that they are ahead of the main thread by one to a few
/// plies, each at a different depth, rather than all repeating its work.
fn helper_skips(index: usize, depth: u32) -> bool {
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    let Some(i) = index.checked_sub(1).map(|i| i % SIZE.len()) else {
        return false;
    };
    !((depth + PHASE[i]) / SIZE[i]).is_multiple_of(2)
}

/// The deepening loop of one thread: the main thread (`index` 0) reports
/// each iteration and keeps time; a helper skips depths ([`helper_skips`]),
/// adds its nodes to `helper_nodes` as it goes and runs until `stop` (for
/// it, the main thread's end) or its last depth.
#[allow(clippy::too_many_arguments)]
fn deepen<const REVERSED: bool, E: Evaluator<Othello<REVERSED>>>(
    state: &Othello<REVERSED>,
    eval: &E,
    tt: &TranspositionTable,
    limits: &Limits,
    stop: &AtomicBool,
    index: usize,
    helper_nodes: Option<&AtomicU64>,
    busy: Option<&BusyTable>,
    on_iteration: &mut dyn FnMut(&Iteration<Move>),
) -> SearchResult<Move> {
    let board = state.0;
    let hard_deadline = limits.budget.map(|b| limits.start + b.hard);
    let budget = limits.budget;
    let empties = board.empties();
    let max_depth = limits.depth.unwrap_or(60).clamp(1, 60);
    let mut scratch = Scratch::default();
    let mut search =
        Midgame::<REVERSED, E>::new(eval, tt, stop, hard_deadline, limits.nodes, &mut scratch);
    search.set_selectivity(limits.selectivity);
    let node = search.root_node(board);
    // Multi-PV or restricted root moves: the root's moves searched one by
    // one ([`Midgame::root_lines`]); else the plain root, unchanged.
    let mut root_moves = if is_multi(limits) {
        search.root_moves(&node, limits.searchmoves.unwrap_or(u64::MAX))
    } else {
        Vec::new()
    };
    let multi = !root_moves.is_empty();
    let lines_wanted = limits.multipv.max(1);
    // A move is always ready: the first in order, until an iteration finishes.
    let mut best_move = match (index, root_moves.first()) {
        (0, Some(first)) => Some(first.mv()),
        (0, None) => search.first_move(&node),
        _ => None,
    };
    let mut last: Option<Iteration<Move>> = None;
    let mut counted = 0;
    let mut depth = 1;
    while depth <= max_depth && depth <= empties {
        let reaches_end =
            depth + EXACT_JUMP >= empties && (limits.solve_early || empties <= max_depth);
        let cheap = limits.solve_early && empties <= CHEAP_SOLVE_EMPTIES;
        let exact_target = (reaches_end || cheap)
            && budget.is_none_or(|b| {
                solve_estimate(empties) * 2 <= b.hard.saturating_sub(limits.start.elapsed())
            });
        if !exact_target && helper_skips(index, depth) {
            depth += 1;
            continue;
        }
        search.seldepth = 0;
        let iteration_start = limits.start.elapsed();
        let (target, score, pv, exact, lines) = if multi {
            let lines = if exact_target {
                search.solve_lines(&node, &mut root_moves, lines_wanted)
            } else {
                search.root_lines(&node, depth, &mut root_moves, lines_wanted)
            };
            let Some(first) = lines.first() else { break };
            if exact_target {
                search.seldepth = lines.iter().map(|l| l.pv.len() as u32).max().unwrap_or(0);
            }
            let target = if exact_target { empties } else { depth };
            (
                target,
                first.score.centi(),
                first.pv.clone(),
                exact_target,
                lines,
            )
        } else if exact_target {
            let mut context = super::SolveContext {
                tt: search.tt,
                stop,
                deadline: hard_deadline,
                node_limit: limits.nodes,
                salt: search.salt,
                nodes: search.nodes,
                aborted: false,
                busy,
            };
            let solved =
                <Othello<REVERSED> as super::Solvable>::solve_exact(state, eval, &mut context);
            search.nodes = context.nodes;
            search.aborted |= context.aborted;
            let Some((score, mut pv)) = solved else { break };
            if pv.is_empty() && !search.aborted {
                // The table kept no line (the smallest solves store none):
                // the best move from solving each child, as multi-PV does.
                let mut all = search.root_moves(&node, u64::MAX);
                if let Some(line) = search.solve_lines(&node, &mut all, 1).into_iter().next() {
                    pv = line.pv;
                }
            }
            search.seldepth = pv.len() as u32;
            (empties, score, pv, true, Vec::new())
        } else {
            let score = search.aspiration(&node, depth, last.as_ref().map(|l| l.score.centi()));
            (depth, score, search.pv(), false, Vec::new())
        };
        if let Some(helper_nodes) = helper_nodes {
            helper_nodes.fetch_add(search.nodes - counted, Ordering::Relaxed);
            counted = search.nodes;
        }
        if search.aborted {
            break;
        }
        if let Some(&mv) = pv.first() {
            best_move = Some(mv);
        }
        let iteration = Iteration {
            depth: target,
            seldepth: search.seldepth.max(target),
            score: Score::from_centi(score),
            exact,
            selectivity: if exact {
                100
            } else {
                search.selectivity.percent()
            },
            nodes: search.nodes,
            elapsed: limits.start.elapsed(),
            pv,
            lines,
        };
        on_iteration(&iteration);
        last = Some(iteration);
        if exact {
            break;
        }
        // Do not start an iteration after the soft limit; on a clock, nor one
        // that would very probably be cut short by the hard limit (each
        // iteration costs about twice the one before), so that the time is
        // saved for later moves. A fixed time a move has nothing to save.
        let elapsed = limits.start.elapsed();
        let this_one = elapsed.saturating_sub(iteration_start);
        if let Some(budget) = budget
            && index == 0
            && (elapsed >= budget.soft
                || (budget.soft < budget.hard && elapsed + this_one * 2 > budget.hard))
        {
            break;
        }
        depth = target + 1;
    }
    SearchResult {
        best_move,
        last,
        nodes: search.nodes,
        elapsed: limits.start.elapsed(),
    }
}

impl<const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Midgame<'_, REVERSED, E> {
    /// The move tried first at the root before any iteration finished.
    fn first_move(&mut self, node: &Node) -> Option<Move> {
        let slot = 0;
        with_isa!(avx512 isa => self.order(isa, node, node.board.moves(), NO_MOVE, 0, slot));
        self.scratch.lists[slot]
            .next()
            .and_then(|item| Square::new(item.square).map(Move::Play))
    }

    /// The legal moves of `node` on the squares of `allowed`, in the
    /// search's order.
    fn root_moves(&mut self, node: &Node, allowed: u64) -> Vec<RootMove> {
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
    fn root_lines(
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

    /// The exact multi-PV iteration: each root move's child solved over the
    /// shared table, the first `wanted` with a full window, the others only
    /// as far as showing them no better than the worst line kept (then the
    /// few better are exact too: the window is open above). Empty when
    /// the search was aborted.
    fn solve_lines(
        &mut self,
        node: &Node,
        moves: &mut [RootMove],
        wanted: usize,
    ) -> Vec<PvLine<Move>> {
        let remaining =
            (self.node_limit != u64::MAX).then(|| self.node_limit.saturating_sub(self.nodes));
        let mut solver = Solver::<REVERSED, E>::new(
            self.tt,
            self.eval,
            self.stop,
            self.deadline,
            remaining,
            self.salt,
        );
        let mut lines: Vec<PvLine<Move>> = Vec::with_capacity(wanted + 1);
        const ALL: i32 = 65;
        for root_move in moves.iter_mut() {
            let square = Square::new(root_move.square).expect("a move is a square");
            let child = node.board.apply(square, root_move.flipped);
            let full = lines.len() < wanted;
            let floor = lines.last().map_or(-ALL, |l| l.score.centi() / DISC);
            let score = -solver
                .solve(child, Discs(-ALL), Discs(if full { ALL } else { -floor }))
                .0;
            if solver.aborted {
                break;
            }
            root_move.score = score * DISC;
            if full || score > floor {
                let mut pv = vec![root_move.mv()];
                pv.extend(solver.pv(child));
                insert_line(
                    &mut lines,
                    PvLine {
                        score: Score::from_discs(score),
                        pv,
                    },
                    wanted,
                );
            }
        }
        self.nodes += solver.nodes;
        self.aborted |= solver.aborted;
        if self.aborted {
            return Vec::new();
        }
        lines
    }

    /// The root search at `depth` with a window around `guess` (the last
    /// iteration's score), widened on the side it fails.
    fn aspiration(&mut self, node: &Node, depth: u32, guess: Option<i32>) -> i32 {
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
