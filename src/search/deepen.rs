//! The Othello search's driver: iterative deepening over the midgame
//! search with aspiration windows, multi-PV, Lazy SMP threads, and the exact
//! solver once the end is near. It sits above both searches: the midgame
//! search and the solver know nothing of it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::endgame::{BusyTable, Discs, Solver};
use super::midgame::root::{RootMove, insert_line};
use super::midgame::{Midgame, Node, Scratch};
use super::time::solve_estimate;
use super::tt::TranspositionTable;
use super::{CHEAP_SOLVE_EMPTIES, EXACT_JUMP, Iteration, Limits, PvLine, SearchResult};
use crate::eval::{DISC, Evaluator};
use crate::game::{Board, Move, Othello, Square};
use crate::score::Score;

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

/// Helper `index` of a parallel search (1 and up) skips depth `depth`: the
/// helpers deepen on staggered schedules (the skip blocks of Stockfish's
/// Lazy SMP), so that they are ahead of the main thread by one to a few
/// plies, each at a different depth, rather than all repeating its work.
pub(crate) fn helper_skips(index: usize, depth: u32) -> bool {
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
                solve_lines(&mut search, &node, &mut root_moves, lines_wanted)
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
                if let Some(line) = solve_lines(&mut search, &node, &mut all, 1)
                    .into_iter()
                    .next()
                {
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

/// The exact multi-PV iteration: each root move's child solved over the
/// shared table, the first `wanted` with a full window, the others only
/// as far as showing them no better than the worst line kept (then the
/// few better are exact too: the window is open above). Empty when
/// the search was aborted.
fn solve_lines<const REVERSED: bool, E: Evaluator<Othello<REVERSED>>>(
    search: &mut Midgame<'_, REVERSED, E>,
    node: &Node,
    moves: &mut [RootMove],
    wanted: usize,
) -> Vec<PvLine<Move>> {
    let remaining =
        (search.node_limit != u64::MAX).then(|| search.node_limit.saturating_sub(search.nodes));
    let mut solver = Solver::<REVERSED, E>::new(
        search.tt,
        search.eval,
        search.stop,
        search.deadline,
        remaining,
        search.salt,
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
    search.nodes += solver.nodes;
    search.aborted |= solver.aborted;
    if search.aborted {
        return Vec::new();
    }
    lines
}
