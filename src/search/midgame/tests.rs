//! Tests of the midgame search against plain minimax and through `think`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::*;
use crate::eval::Evaluators;
use crate::game::{Game, Position, StandardOthello};
use crate::rng::Rng;
use crate::score::Score;
use crate::search::deepen::{helper_skips, think};
use crate::search::{CHEAP_SOLVE_EMPTIES, Limits};

/// Plain depth-limited negamax over the evaluation: the reference.
fn minimax<const R: bool, E: Evaluator<Othello<R>>>(eval: &E, board: Board, depth: u32) -> i32 {
    if depth == 0 {
        return if board.empties() == 0 || board.player == 0 || board.opponent == 0 {
            Othello::<R>::score_from_standard(board.final_score()) * DISC
        } else {
            eval.evaluate(&Othello(board))
        };
    }
    let moves = board.moves();
    if moves == 0 {
        if board.opponent_moves() == 0 {
            return Othello::<R>::score_from_standard(board.final_score()) * DISC;
        }
        return -minimax::<R, E>(eval, board.pass(), depth);
    }
    crate::game::bitboard::Bits(moves)
        .map(|x| {
            let child = board.play_unchecked(Square::new(x).unwrap());
            -minimax::<R, E>(eval, child, depth - 1)
        })
        .max()
        .unwrap()
}

/// Positions of a seeded random game, every few plies.
fn random_positions(seed: u64, count: usize) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut state = StandardOthello::start();
        for ply in 0..60 {
            if state.is_over() {
                break;
            }
            if ply % 7 == 3 {
                out.push(state.0);
            }
            let mv = rng.legal_move(&state).unwrap();
            state = state.play_unchecked(mv);
        }
    }
    out.truncate(count);
    out
}

fn full_width_value<const R: bool, E: Evaluator<Othello<R>>>(
    eval: &E,
    board: Board,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> i32 {
    let tt = TranspositionTable::new(1);
    let stop = AtomicBool::new(false);
    let mut scratch = Scratch::default();
    let mut search = Midgame::<R, E>::new(eval, &tt, &stop, None, None, &mut scratch);
    search.set_selectivity(Selectivity::NONE);
    // Search shallower depths first, so the table holds moves and bounds.
    for d in 1..depth {
        search.value(board, d);
    }
    search.search(board, depth, alpha, beta)
}

#[test]
fn full_width_matches_minimax() {
    let evals = Evaluators::default();
    for (i, board) in random_positions(7, 24).into_iter().enumerate() {
        let depth = 1 + (i as u32 % 4);
        let want = minimax::<false, _>(&evals.othello, board, depth);
        assert_eq!(
            full_width_value::<false, _>(&evals.othello, board, depth, -INF, INF),
            want,
            "position {i} depth {depth}"
        );
        let want = minimax::<true, _>(&evals.reversed, board, depth);
        assert_eq!(
            full_width_value::<true, _>(&evals.reversed, board, depth, -INF, INF),
            want,
            "reversed position {i} depth {depth}"
        );
    }
}

#[test]
fn null_windows_bound_the_value_on_the_right_side() {
    let evals = Evaluators::default();
    for (i, board) in random_positions(11, 12).into_iter().enumerate() {
        let depth = 3 + (i as u32 % 2);
        let value = minimax::<false, _>(&evals.othello, board, depth);
        for alpha in [value - 150, value - 1, value, value + 1, value + 77] {
            let got = full_width_value::<false, _>(&evals.othello, board, depth, alpha, alpha + 1);
            if value > alpha {
                assert!(
                    got > alpha && got <= value,
                    "fail-high bound {got} vs {value}"
                );
            } else {
                assert!(
                    got <= alpha && got >= value,
                    "fail-low bound {got} vs {value}"
                );
            }
        }
    }
}

#[test]
fn searching_past_the_end_gives_the_exact_score() {
    let evals = Evaluators::default();
    // FFO-style, 14 empties, +18: a search as deep as the empties sees
    // every game to its end.
    let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let p: Position<StandardOthello> = line.parse().unwrap();
    let board = p.state().0;
    assert_eq!(board.empties(), 14);
    assert_eq!(
        full_width_value::<false, _>(&evals.othello, board, 14, -INF, INF),
        18 * DISC
    );
}

#[test]
fn selective_search_stays_near_the_full_width_value() {
    let evals = Evaluators::default();
    let boards = random_positions(5, 16);
    let mut total = 0.0;
    for &board in &boards {
        let full = full_width_value::<false, _>(&evals.othello, board, 8, -INF, INF);
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let mut scratch = Scratch::default();
        let mut search =
            Midgame::<false, _>::new(&evals.othello, &tt, &stop, None, None, &mut scratch);
        let selective = search.value(board, 8);
        total += Score::from_centi((selective - full).abs()).discs();
    }
    // Probable cutoffs miss now and then, by a few discs: never on average
    // by more than the errors they were calibrated with.
    assert!(total / (boards.len() as f64) < 3.0, "mean error {total}");
}

#[test]
fn think_reports_each_depth_and_stops_at_the_depth_limit() {
    let evals = Evaluators::default();
    let state = StandardOthello::start();
    let mut tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let mut depths = Vec::new();
    let r = think(
        &state,
        &evals.othello,
        &mut tt,
        &Limits::depth(9),
        &stop,
        &mut |it| depths.push(it.depth),
    );
    assert_eq!(depths, (1..=9).collect::<Vec<_>>());
    assert!(r.best_move.is_some_and(|m| state.play(m).is_some()));
    let last = r.last.unwrap();
    assert_eq!(last.pv.first().copied(), r.best_move);
    assert!(!last.exact);
}

#[test]
fn think_solves_small_endgames_exactly() {
    let evals = Evaluators::default();
    let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let p: Position<StandardOthello> = line.parse().unwrap();
    let mut tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let r = think(
        p.state(),
        &evals.othello,
        &mut tt,
        &Limits::infinite(Instant::now()),
        &stop,
        &mut |_| {},
    );
    let last = r.last.unwrap();
    assert!(last.exact);
    assert_eq!(last.score, Score::from_discs(18));
    assert_eq!(r.best_move.unwrap().to_string(), "g8");
}

/// A shallow depth limit at 14 empties still answers exactly (the solve
/// costs milliseconds), unless the depth itself is the point
/// (`exact_depth`: levels, search labels).
#[test]
fn a_cheap_solve_is_exact_whatever_the_depth_asked() {
    let evals = Evaluators::default();
    let line = "---XXXXX-OOOXXXX-OOXXOXX-OXOXXXX-OXXOXXX--XXOXXX---OOOXX--OOOOOX X";
    let p: Position<StandardOthello> = line.parse().unwrap();
    assert_eq!(p.state().empties(), CHEAP_SOLVE_EMPTIES);
    let stop = AtomicBool::new(false);
    let search = |limits: &Limits| {
        let mut tt = TranspositionTable::new(4);
        think(
            p.state(),
            &evals.othello,
            &mut tt,
            limits,
            &stop,
            &mut |_| {},
        )
        .last
        .unwrap()
    };
    let shallow = search(&Limits::depth(4));
    assert!(shallow.exact);
    assert_eq!(shallow.score, Score::from_discs(56));
    let as_asked = search(&Limits::exact_depth(4));
    assert!(!as_asked.exact);
    assert_eq!(as_asked.depth, 4);
}

#[test]
fn limits_end_the_search_with_a_legal_move() {
    let evals = Evaluators::default();
    let state = StandardOthello::start().play_unchecked("f5".parse().unwrap());
    let mut tt = TranspositionTable::new(1);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(2000),
        ..Limits::infinite(Instant::now())
    };
    let r = think(&state, &evals.othello, &mut tt, &limits, &stop, &mut |_| {});
    assert!(r.nodes <= 2000);
    assert!(r.best_move.is_some_and(|m| state.play(m).is_some()));
    let stopped = AtomicBool::new(true);
    let r = think(
        &state,
        &evals.othello,
        &mut tt,
        &Limits::infinite(Instant::now()),
        &stopped,
        &mut |_| {},
    );
    assert!(r.best_move.is_some_and(|m| state.play(m).is_some()));
    assert!(r.last.is_none());
}

#[test]
fn same_depth_same_nodes() {
    let evals = Evaluators::default();
    let run = || {
        let mut tt = TranspositionTable::new(4);
        let stop = AtomicBool::new(false);
        think(
            &StandardOthello::start(),
            &evals.othello,
            &mut tt,
            &Limits::depth(10),
            &stop,
            &mut |_| {},
        )
    };
    let (a, b) = (run(), run());
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best_move, b.best_move);
}

#[test]
fn a_forced_pass_is_searched_from_the_other_side() {
    let evals = Evaluators::default();
    // Black must pass; white's h8 then ends the game 61-3 for black.
    let line = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X";
    let p: Position<StandardOthello> = line.parse().unwrap();
    let mut tt = TranspositionTable::new(1);
    let stop = AtomicBool::new(false);
    let mut reports = Vec::new();
    let r = think(
        p.state(),
        &evals.othello,
        &mut tt,
        &Limits::depth(4),
        &stop,
        &mut |it| reports.push(it.clone()),
    );
    assert_eq!(r.best_move, Some(Move::Pass));
    let last = r.last.unwrap();
    assert!(last.exact);
    assert_eq!(last.score, Score::from_discs(58));
    assert_eq!(last.pv[0], Move::Pass);
    assert_eq!(reports.last(), Some(&last));
}

#[test]
fn think_searches_at_the_selectivity_of_its_limits() {
    let evals = Evaluators::default();
    let boards: Vec<Board> = random_positions(3, 40)
        .into_iter()
        .filter(|b| b.empties() >= 30 && b.moves() != 0)
        .take(4)
        .collect();
    assert_eq!(boards.len(), 4);
    let run = |board: Board, depth: u32, selectivity: Selectivity| {
        let mut tt = TranspositionTable::new(4);
        let stop = AtomicBool::new(false);
        let limits = Limits {
            selectivity,
            ..Limits::depth(depth)
        };
        let mut levels = Vec::new();
        let r = think(
            &Othello::<false>(board),
            &evals.othello,
            &mut tt,
            &limits,
            &stop,
            &mut |it| levels.push(it.selectivity),
        );
        let last = r.last.expect("an iteration finished");
        assert!(!last.exact);
        assert!(levels.iter().all(|&p| p == selectivity.percent()));
        (last.score, r.nodes)
    };
    let (mut full_nodes, mut selective_nodes) = (0, 0);
    for &board in &boards {
        // Full width through `think` is plain minimax: the table only holds
        // shallower results from earlier iterations.
        let (score, _) = run(board, 4, Selectivity::NONE);
        assert_eq!(score.centi(), minimax::<false, _>(&evals.othello, board, 4));
        full_nodes += run(board, 9, Selectivity::NONE).1;
        selective_nodes += run(board, 9, Selectivity::DEFAULT).1;
    }
    assert!(
        full_nodes > selective_nodes,
        "full width {full_nodes} nodes, selective {selective_nodes}"
    );
}

/// The AVX-512, AVX2 and portable copies of the search ([`crate::cpu`])
/// search the same tree: the same move, score, variation and node count,
/// through `think` (iterative deepening, aspiration, probable cutoffs at the
/// default selectivity) and with each copy called directly at full width,
/// for both rules and both evaluations.
#[test]
fn portable_and_fast_copies_search_the_same_tree() {
    use crate::cpu::{Avx512, Fast, Isa, Portable, portable_only};
    use crate::eval::{EvalKind, OthelloEval};
    let trained = Evaluators::default();
    let handmade = Evaluators::new(EvalKind::Handmade).unwrap();
    fn value<const R: bool, I: Isa>(
        isa: I,
        eval: &OthelloEval<R>,
        board: Board,
        depth: u32,
    ) -> (i32, Vec<Move>, u64) {
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let mut scratch = Scratch::default();
        let mut search = Midgame::<R, _>::new(eval, &tt, &stop, None, None, &mut scratch);
        search.set_selectivity(Selectivity::NONE);
        let node = search.root_node(board);
        let score = search.pvs(isa, &node, depth, -INF, INF, 0);
        (score, search.pv(), search.nodes)
    }
    fn compare<const R: bool>(eval: &OthelloEval<R>, board: Board, depth: u32) {
        let run = || {
            let mut tt = TranspositionTable::new(4);
            let stop = AtomicBool::new(false);
            let mut reports = Vec::new();
            let r = think(
                &Othello::<R>(board),
                eval,
                &mut tt,
                &Limits::depth(depth),
                &stop,
                &mut |it| reports.push((it.depth, it.score, it.pv.clone(), it.nodes)),
            );
            (r.best_move, r.nodes, reports)
        };
        let dispatched = run();
        assert_eq!(dispatched, portable_only(run), "{board:?} reversed {R}");
        // Each copy called directly (the dispatch picks one).
        let portable = value(Portable, eval, board, depth - 2);
        if let Some(fast) = Fast::detect() {
            assert_eq!(value(fast, eval, board, depth - 2), portable);
        }
        if let Some(avx512) = Avx512::detect() {
            assert_eq!(value(avx512, eval, board, depth - 2), portable);
        }
    }
    for (i, board) in random_positions(38, 12).into_iter().enumerate() {
        let depth = 8 + (i as u32 % 3);
        compare(&trained.othello, board, depth);
        compare(&trained.reversed, board, depth);
        if i % 4 == 0 {
            compare(&handmade.othello, board, 6);
        }
    }
}

/// With helper threads the exact scores are those of one thread and of the
/// file: the helpers only fill the shared table, and the main thread's own
/// solve gives the answer.
#[test]
fn exact_scores_do_not_depend_on_the_threads() {
    let evals = Evaluators::default();
    let problems = crate::obf::parse(include_str!("../../../data/obf/fforum-20-39.obf")).unwrap();
    // #20-#25 and #39: 20 to 26 empties, a few seconds in all.
    for (i, problem) in problems
        .iter()
        .enumerate()
        .filter(|(i, _)| *i < 6 || *i == 19)
    {
        let expected = problem.best_score().expect("scored") * DISC;
        for threads in [1, 2, 3] {
            let mut tt = TranspositionTable::new(16);
            let stop = AtomicBool::new(false);
            let limits = Limits {
                threads,
                ..Limits::infinite(Instant::now())
            };
            let state = problem.position.state();
            let r = think(state, &evals.othello, &mut tt, &limits, &stop, &mut |_| {});
            let last = r.last.expect("solved");
            assert!(last.exact, "#{} with {threads} threads", i + 20);
            assert_eq!(
                last.score.centi(),
                expected,
                "#{} with {threads} threads",
                i + 20
            );
            let best = r.best_move.expect("a move");
            assert_eq!(
                problem.score_of(best).map(|s| s * DISC),
                Some(expected),
                "#{} with {threads} threads: {best} is not a best move",
                i + 20
            );
        }
    }
}

/// A parallel search reports each depth once, from the main thread, counts
/// the helpers' nodes, and ends on the stop flag with a legal move.
#[test]
fn a_parallel_search_reports_once_a_depth_and_stops_on_the_flag() {
    let evals = Evaluators::default();
    let state = StandardOthello::start().play_unchecked("f5".parse().unwrap());
    let mut tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let mut depths = Vec::new();
    let limits = Limits {
        threads: 4,
        ..Limits::depth(10)
    };
    let r = think(&state, &evals.othello, &mut tt, &limits, &stop, &mut |it| {
        depths.push(it.depth)
    });
    assert_eq!(depths, (1..=10).collect::<Vec<_>>());
    assert!(r.best_move.is_some_and(|m| state.play(m).is_some()));
    assert!(r.nodes >= r.last.unwrap().nodes);

    // Stopped from another thread in the middle of an unlimited search:
    // every thread ends (the scope joins them) and a move is answered.
    let limits = Limits {
        threads: 4,
        ..Limits::infinite(Instant::now())
    };
    let r = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(200));
            stop.store(true, Ordering::Relaxed);
        });
        think(&state, &evals.othello, &mut tt, &limits, &stop, &mut |_| {})
    });
    assert!(r.best_move.is_some_and(|m| state.play(m).is_some()));
}

#[test]
fn helpers_deepen_on_staggered_schedules() {
    let searched =
        |index: usize| -> Vec<u32> { (1..=12).filter(|&d| !helper_skips(index, d)).collect() };
    assert_eq!(
        searched(0),
        (1..=12).collect::<Vec<_>>(),
        "main: every depth"
    );
    assert_eq!(searched(1), [2, 4, 6, 8, 10, 12]);
    assert_eq!(searched(2), [1, 3, 5, 7, 9, 11]);
    assert_ne!(searched(3), searched(4));
}
