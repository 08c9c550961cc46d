use super::calibration;
use super::last::{NEIGHBOURS, QUADRANTS, odd_quadrants, parity_order_3, parity_order_4};
use super::ordering::potential_moves;
use super::probcut::SELECTIVE_EMPTIES;
use super::settings::{LARGE_SETTINGS, REVERSED_LARGE_SETTINGS, SMALL_SETTINGS};
use super::*;
use crate::eval::handmade::HandmadeEval;
use crate::game::Game;
use crate::game::bitboard::Bits;
use crate::obf;
use crate::rng::Rng;

fn minimax<const R: bool>(g: &Othello<R>) -> i32 {
    let moves = g.legal_moves();
    if moves.len() == 0 {
        return g.final_score();
    }
    moves.map(|m| -minimax(&g.play_unchecked(m))).max().unwrap()
}

fn solve<const R: bool>(board: Board) -> i32
where
    HandmadeEval<R>: Evaluator<Othello<R>>,
{
    solve_in_order::<R>(board, false)
}

/// [`solve`], with the settings of large solves if `large_order`.
fn solve_in_order<const R: bool>(board: Board, large_order: bool) -> i32
where
    HandmadeEval<R>: Evaluator<Othello<R>>,
{
    let tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let eval = HandmadeEval::<R>;
    let mut solver = Solver::<R, _>::new(&tt, &eval, &stop, None, None, 1);
    if large_order {
        solver.take_large_settings();
    }
    solver.solve(board, Discs(-INF), Discs(INF)).0
}

/// Every set of three squares comes back whole, squares of odd quadrants
/// (by the slow count) before the others.
#[test]
fn parity_order_of_three_empties() {
    let mut rng = Rng::new(3);
    for _ in 0..2000 {
        let mut empty = 0u64;
        while empty.count_ones() < 3 {
            empty |= 1u64 << (rng.next_u64() % 64);
        }
        let order = parity_order_3(empty);
        let seen = order.iter().fold(0u64, |acc, &x| acc | 1u64 << x);
        assert_eq!(seen, empty, "{empty:#x}");
        let odd = odd_quadrants(empty);
        let is_odd: Vec<bool> = order.iter().map(|&x| odd >> x & 1 == 1).collect();
        assert!(
            is_odd.windows(2).all(|w| w[0] || !w[1]),
            "{empty:#x}: {order:?}"
        );
    }
}

/// The folded parities against a count of each quadrant's empty
/// squares, and the smeared neighbours against a walk of each disc's
/// eight neighbours, on random sets.
#[test]
fn odd_quadrants_and_potential_moves_match_slow_counts() {
    let mut rng = Rng::new(5);
    for _ in 0..20_000 {
        let empty = rng.next_u64() & rng.next_u64();
        let slow = QUADRANTS
            .iter()
            .filter(|&&q| (empty & q).count_ones() % 2 == 1)
            .fold(0, |acc, &q| acc | q);
        assert_eq!(odd_quadrants(empty), slow, "{empty:#x}");
        let discs = rng.next_u64() & !empty;
        let near = Bits(discs).fold(0, |acc, sq| acc | NEIGHBOURS[usize::from(sq)]);
        assert_eq!(potential_moves(discs, empty), near & empty, "{discs:#x}");
    }
}

/// Four empties: every square once, odd quadrants first, each group in
/// ascending order, as the shallow search's loops take them.
#[test]
fn parity_order_of_four_empties() {
    let mut rng = Rng::new(4);
    for _ in 0..2000 {
        let mut empty = 0u64;
        while empty.count_ones() < 4 {
            empty |= 1u64 << (rng.next_u64() % 64);
        }
        let odd = odd_quadrants(empty);
        let expected: Vec<u8> = Bits(empty & odd).chain(Bits(empty & !odd)).collect();
        assert_eq!(parity_order_4(empty).to_vec(), expected, "{empty:#x}");
    }
}

/// Random endgames with up to 10 empties, both rules, against plain minimax.
#[test]
fn matches_minimax_on_small_endgames() {
    let mut rng = Rng::new(2024);
    let mut checked = 0;
    while checked < 120 {
        let mut g = Othello::<false>::start();
        let stop_at = 4 + rng.below(7) as u32;
        while g.empties() > stop_at {
            match rng.legal_move(&g) {
                Some(m) => g = g.play_unchecked(m),
                None => break,
            }
        }
        let b = g.0;
        let (standard, reversed) = (minimax(&Othello::<false>(b)), minimax(&Othello::<true>(b)));
        assert_eq!(solve::<false>(b), standard, "{b:?}");
        assert_eq!(solve::<true>(b), reversed, "{b:?}");
        // The settings of large solves too (their own search at 6 and 7
        // empties, the table from 8).
        assert_eq!(solve_in_order::<false>(b, true), standard, "{b:?}");
        assert_eq!(solve_in_order::<true>(b, true), reversed, "{b:?}");
        checked += 1;
    }
}

/// What a selective pass stores as exact is exact: on random endgames of
/// 12 to 16 empties, both rules, a selective pass (probable cutoffs from
/// 7 empties) and then the exact pass on the same table give the score
/// of an exact solve on a fresh table. A result wrongly stored as exact
/// would be trusted by the exact pass and could change its answer.
#[test]
fn exact_results_of_a_selective_pass_are_exact() {
    fn check<const R: bool, E: Evaluator<Othello<R>>>(eval: &E, b: Board) -> u64 {
        let stop = AtomicBool::new(false);
        let tt = TranspositionTable::new(4);
        let exact = Solver::<R, E>::new(&tt, eval, &stop, None, None, 0).pvs(b, -64, 64, false);
        let tt = TranspositionTable::new(4);
        let mut solver = Solver::<R, E>::new(&tt, eval, &stop, None, None, 0);
        // Null-window searches at several windows first: later ones
        // lean on the selective entries of earlier ones.
        solver.level = 1;
        for alpha in (-24..24).step_by(3) {
            solver.nws(b, alpha, false, true);
        }
        solver.pvs(b, -64, 64, false);
        let approximations = solver.approximations;
        solver.level = EXACT;
        assert_eq!(solver.pvs(b, -64, 64, false), exact, "reversed {R}: {b:?}");
        approximations
    }
    let evals = crate::eval::Evaluators::default();
    let mut rng = Rng::new(77);
    let mut approximations = 0;
    for _ in 0..60 {
        let mut g = Othello::<false>::start();
        let stop_at = 12 + rng.below(5) as u32;
        while g.empties() > stop_at {
            match rng.legal_move(&g) {
                Some(m) => g = g.play_unchecked(m),
                None => break,
            }
        }
        approximations += check::<false, _>(&evals.othello, g.0);
        approximations += check::<true, _>(&evals.reversed, g.0);
    }
    // The test means something only if probable cutoffs happened.
    assert!(approximations > 1000, "{approximations} approximations");
}

/// The selective passes before the exact one change the work, never the
/// score: positions with 22 and 23 empties from real games, both rules,
/// solved with and without them.
#[test]
fn selective_passes_keep_the_exact_score() {
    let file = crate::wthor::read(std::path::Path::new("data/wthor/WTH_2005.wtb")).unwrap();
    let evals = crate::eval::Evaluators::default();
    for (i, game) in file.games.iter().step_by(1000).take(2).enumerate() {
        let Some(b) = calibration::position_of(game, 22 + i as u32) else {
            continue;
        };
        assert!(b.empties() >= SELECTIVE_EMPTIES);
        let (with, without) = with_and_without_selective::<false, _>(&evals.othello, b);
        assert_eq!(with, without, "standard rules {b:?}");
        let (with, without) = with_and_without_selective::<true, _>(&evals.reversed, b);
        assert_eq!(with, without, "reversed rules {b:?}");
    }
}

/// Large solves take the large settings of their rules, small ones keep
/// those the solver was made with.
#[test]
fn large_solves_take_the_settings_of_their_rules() {
    let text = include_str!("../../../data/obf/fforum-40-59.obf");
    let b = obf::parse(text).unwrap()[0].position.state().0;
    assert!(b.empties() >= LARGE_SOLVE_EMPTIES);
    let stop = AtomicBool::new(false);
    let tt = TranspositionTable::new(16);
    let mut solver = Solver::<true, _>::new(&tt, &HandmadeEval::<true>, &stop, None, None, 0);
    solver.solve(b, Discs(-64), Discs(64));
    assert_eq!(solver.settings, REVERSED_LARGE_SETTINGS);
    let tt = TranspositionTable::new(16);
    let mut solver = Solver::<false, _>::new(&tt, &HandmadeEval::<false>, &stop, None, None, 0);
    solver.solve(b, Discs(-64), Discs(64));
    assert_eq!(solver.settings, LARGE_SETTINGS);
    // A small solve keeps the settings of small solves, or those given.
    let small = obf::parse(include_str!("../../../data/obf/fforum-1-19.obf")).unwrap()[0]
        .position
        .state()
        .0;
    assert!(small.empties() < LARGE_SOLVE_EMPTIES);
    let tt = TranspositionTable::new(16);
    let mut solver = Solver::<false, _>::new(&tt, &HandmadeEval::<false>, &stop, None, None, 0);
    solver.solve(small, Discs(-64), Discs(64));
    assert_eq!(solver.settings, SMALL_SETTINGS);
    let tt = TranspositionTable::new(16);
    let mut solver = Solver::<false, _>::new(&tt, &HandmadeEval::<false>, &stop, None, None, 0)
        .with_settings(REVERSED_LARGE_SETTINGS);
    solver.solve(small, Discs(-64), Discs(64));
    assert_eq!(solver.settings, REVERSED_LARGE_SETTINGS);
    // A large root still takes the large settings of its rules.
    let tt = TranspositionTable::new(16);
    let mut solver = Solver::<false, _>::new(&tt, &HandmadeEval::<false>, &stop, None, None, 0)
        .with_settings(SMALL_SETTINGS);
    solver.solve(b, Discs(-64), Discs(64));
    assert_eq!(solver.settings, LARGE_SETTINGS);
}

/// Ranking moves by evaluation searches only once a hash move failed to
/// cut leaves the solve's tree alone and saves ordering nodes.
#[test]
fn evaluation_after_the_hash_move_keeps_the_tree() {
    let text = include_str!("../../../data/obf/fforum-40-59.obf");
    let evals = crate::eval::Evaluators::default();
    let stop = AtomicBool::new(false);
    // FFO #41-#43: 22 and 23 empties, so the selective passes leave hash
    // moves for the exact one.
    for problem in obf::parse(text).unwrap().iter().skip(1).take(3) {
        let b = problem.position.state().0;
        assert!(b.empties() >= SELECTIVE_EMPTIES);
        let run = |later: bool| {
            let tt = TranspositionTable::new(16);
            let mut solver = Solver::<false, _>::new(&tt, &evals.othello, &stop, None, None, 0);
            solver.take_large_settings();
            solver.settings.evaluate_after_hash_move = later;
            let score = solver.solve_with_settings(b, -64, 64);
            (
                score,
                solver.nodes - solver.ordering_nodes,
                solver.ordering_nodes,
            )
        };
        let (score, tree, ordering) = run(false);
        let (score_later, tree_later, ordering_later) = run(true);
        assert_eq!(score_later, score);
        assert_eq!(tree_later, tree);
        assert!(ordering_later < ordering, "{ordering_later} {ordering}");
    }
}

/// The score of `b` solved with the selective passes, and by the exact
/// pass alone, each on a fresh table.
fn with_and_without_selective<const R: bool, E: Evaluator<Othello<R>>>(
    eval: &E,
    b: Board,
) -> (i32, i32) {
    let stop = AtomicBool::new(false);
    let tt = TranspositionTable::new(16);
    let with = Solver::<R, E>::new(&tt, eval, &stop, None, None, 0)
        .solve(b, Discs(-64), Discs(64))
        .0;
    let tt = TranspositionTable::new(16);
    let without = Solver::<R, E>::new(&tt, eval, &stop, None, None, 0).aspiration(b, -64, 64);
    (with, without)
}

/// A score of 64 (a wipeout) asked for with a window beyond 64: the
/// search must not try to prove that no line scores more (which took
/// over 10^9 nodes before windows were clamped to 64).
#[test]
fn windows_beyond_64_cost_nothing_extra() {
    let text = include_str!("../../../data/obf/fforum-20-39.obf");
    let problem = &obf::parse(text).unwrap()[19];
    assert_eq!(problem.best_score(), Some(64));
    let b = problem.position.state().0;
    let evals = crate::eval::Evaluators::default();
    let stop = AtomicBool::new(false);
    let tt = TranspositionTable::new(16);
    let mut s = Solver::<false, _>::new(&tt, &evals.othello, &stop, None, Some(20_000_000), 0);
    let score = s.solve(b, Discs(-INF), Discs(INF));
    assert!(!s.aborted, "over 20 M nodes (5.6 M when measured)");
    assert_eq!(score, Discs(64));
}

/// A node limit (as a stop or a deadline) is seen within a few nodes,
/// even far from the end, where one move ordering alone searches
/// thousands of nodes: FFO #55, 29 empties, stopped at several limits.
/// Only the search of the last six empties, which never looks at the
/// limit, may run on: at most 1 + 6 + 30 + 120 + 360 + 720 + 720 nodes,
/// twice that with passes.
#[test]
fn limits_are_seen_inside_orderings() {
    let text = include_str!("../../../data/obf/fforum-40-59.obf");
    let b = obf::parse(text).unwrap()[15].position.state().0;
    assert_eq!(b.empties(), 29);
    let evals = crate::eval::Evaluators::default();
    let stop = AtomicBool::new(false);
    let mut tt = TranspositionTable::new(16);
    for limit in [1, 1_000, 30_000, 1_000_000] {
        tt.clear();
        let mut s = Solver::<false, _>::new(&tt, &evals.othello, &stop, None, Some(limit), 0);
        s.solve(b, Discs(-64), Discs(64));
        assert!(s.aborted);
        assert!(
            s.nodes <= limit + 2 * 1957,
            "{} nodes for a limit of {limit}",
            s.nodes
        );
    }
}

/// A search cut short by a limit leaves nothing false in the table, even
/// when the limit strikes while a node orders its moves: FFO #41 after its
/// best move H4 (21 empties, exact score 0, moves ordered by two-move
/// evaluation searches), searched with many small node limits.
#[test]
fn aborted_searches_leave_the_table_sound() {
    let text = include_str!("../../../data/obf/fforum-40-59.obf");
    let problem = &obf::parse(text).unwrap()[1];
    assert_eq!(problem.best_score(), Some(0));
    let root = problem.position.state().0;
    let b = root.play_unchecked("H4".parse().unwrap());
    assert_eq!(b.empties(), 21);
    let evals = crate::eval::Evaluators::default();
    let stop = AtomicBool::new(false);
    let mut tt = TranspositionTable::new(16);
    for limit in 1..300 {
        tt.clear();
        let mut s = Solver::<false, _>::new(&tt, &evals.othello, &stop, None, Some(limit), 0);
        for alpha in [-1, 0] {
            s.nws(b, alpha, false, true);
        }
        assert!(s.aborted);
        if let Some(hit) = s.tt.probe(s.key(&b)) {
            assert!(hit.lower <= 0 && 0 <= hit.upper, "limit {limit}: {hit:?}");
        }
    }
}

#[test]
fn ffo_1_to_19_best_scores() {
    let text = include_str!("../../../data/obf/fforum-1-19.obf");
    for problem in obf::parse(text).unwrap().iter().take(5) {
        let b = problem.position.state().0;
        assert_eq!(Some(solve::<false>(b)), problem.best_score(), "{problem}");
    }
}

/// The solver's portable copy and its AVX2 copy (on a CPU with AVX2; the
/// dispatch otherwise picks the portable one both times) search the same
/// tree: same scores, moves, principal variations and node counts, with
/// the trained evaluation, on large solves (selective passes, ordering
/// searches, the fastest-first shallow search) and small ones of both rules.
#[test]
fn portable_and_fast_copies_search_the_same_tree() {
    use crate::cpu::portable_only;
    use crate::eval::Evaluators;
    use crate::game::Variant;
    use crate::solve::{SolveMode, solve};
    let evals = Evaluators::default();
    let mut boards: Vec<(Board, Variant)> =
        obf::parse(include_str!("../../../data/obf/fforum-1-19.obf"))
            .unwrap()
            .iter()
            .take(3)
            .map(|p| (p.position.state().0, Variant::Othello))
            .collect();
    // 18, 19 and 26 empties: large solves, the last with selective passes.
    let large = obf::parse(include_str!("../../../data/obf/fforum-20-39.obf")).unwrap();
    for i in [3, 4, 19] {
        boards.push((large[i].position.state().0, Variant::Othello));
    }
    let mut rng = Rng::new(38);
    for variant in [Variant::Othello, Variant::Reversed] {
        for _ in 0..4 {
            let mut g = Othello::<false>::start();
            let stop_at = 10 + rng.below(7) as u32;
            while g.empties() > stop_at {
                match rng.legal_move(&g) {
                    Some(m) => g = g.play_unchecked(m),
                    None => break,
                }
            }
            boards.push((g.0, variant));
        }
    }
    let mut tt = TranspositionTable::new(16);
    for (board, variant) in boards {
        let mut run = || {
            tt.clear();
            let s = solve(board, variant, &evals, &mut tt, SolveMode::Exact, false);
            (s.score, s.best, s.pv, s.nodes)
        };
        let dispatched = run();
        let portable = portable_only(&mut run);
        assert_eq!(dispatched, portable, "{board:?} {variant:?}");
    }
}

/// The busy marks: a tag is busy between `enter` and `leave`, a pass of
/// another level is other work, and a slot taken by another tag is not
/// cleared by the first one's `leave`.
#[test]
fn busy_marks() {
    let busy = BusyTable::default();
    let (a, b) = (
        BusyTable::tag(0x1234_5678, EXACT),
        BusyTable::tag(0x1234_5678, 2),
    );
    assert_ne!(a, b);
    assert!(!busy.is_busy(a));
    busy.enter(a);
    assert!(busy.is_busy(a) && !busy.is_busy(b));
    busy.leave(a);
    assert!(!busy.is_busy(a));
    // The same slot (the low bits agree), another position.
    let c = a ^ (1 << 40);
    busy.enter(a);
    busy.enter(c);
    busy.leave(a);
    assert!(busy.is_busy(c) && !busy.is_busy(a));
}

/// A node whose later moves are all marked busy by "another thread" defers
/// them, then searches them once the others are done: the score stays
/// exact, and the deferring solver searches every move itself.
#[test]
fn deferred_moves_are_searched_all_the_same() {
    let text = include_str!("../../../data/obf/fforum-20-39.obf");
    let evals = crate::eval::Evaluators::default();
    for problem in obf::parse(text).unwrap().iter().take(3) {
        let b = problem.position.state().0;
        let stop = AtomicBool::new(false);
        let tt = TranspositionTable::new(16);
        let busy = BusyTable::default();
        // Every child of the root and of its children, at every level.
        let mark = |board: &Board| {
            for sq in board.move_squares() {
                let child = board.play_unchecked(sq);
                let key = crate::game::mix_key(child.player, child.opponent);
                for level in (1..=SELECTIVE_Z.len() as u8).chain([EXACT]) {
                    busy.enter(BusyTable::tag(key, level));
                }
            }
        };
        mark(&b);
        for sq in b.move_squares() {
            mark(&b.play_unchecked(sq));
        }
        let mut s = Solver::<false, _>::new(&tt, &evals.othello, &stop, None, None, 0)
            .with_busy(Some(&busy));
        let score = s.solve(b, Discs(-64), Discs(64));
        assert_eq!(Some(score.0), problem.best_score(), "{problem}");
    }
}

/// Solves with one, two and three threads agree on the score, under both
/// rules (positions of 20 empties from real games), and the helpers'
/// nodes count in the total.
#[test]
fn parallel_solves_keep_the_score() {
    fn check<const R: bool, E: Evaluator<Othello<R>>>(eval: &E, b: Board) {
        let stop = AtomicBool::new(false);
        let mut results = Vec::new();
        for threads in 1..=3 {
            let tt = TranspositionTable::new(16);
            let mut s = Solver::<R, E>::new(&tt, eval, &stop, None, None, 0);
            let score = s.solve_threads(b, Discs(-64), Discs(64), threads);
            assert!(!s.aborted);
            results.push((score, s.nodes));
        }
        assert!(
            results.iter().all(|r| r.0 == results[0].0),
            "{b:?} {results:?}"
        );
        assert!(
            results[1..].iter().any(|r| r.1 != results[0].1),
            "{b:?} {results:?}"
        );
    }
    let file = crate::wthor::read(std::path::Path::new("data/wthor/WTH_2005.wtb")).unwrap();
    let evals = crate::eval::Evaluators::default();
    for game in file.games.iter().step_by(1000).take(2) {
        let Some(b) = calibration::position_of(game, 20) else {
            continue;
        };
        check::<false, _>(&evals.othello, b);
        check::<true, _>(&evals.reversed, b);
    }
}
