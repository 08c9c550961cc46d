//! Games for training: replayed records and self-play, turned into labelled
//! positions.
//!
//! A [`Line`] is a game as the list of its positions (side to move first) and
//! the result of perfect play from its late stage. Every position is labelled
//! with that result, the "theoretical score" of WTHOR; positions with few
//! enough empty squares are then solved exactly and labelled with their own
//! exact score (the solver's table is kept along the line, so the later
//! positions cost little). Self-play makes lines for the positions the
//! database lacks, and for reversed Othello, which has no database: a random
//! opening, then moves chosen by a fixed-depth search, then perfect play.

use std::sync::atomic::AtomicBool;

use super::fit::Sample;
use crate::eval::Evaluator;
use crate::game::{Board, Color, Game, Move, Othello};
use crate::rng::Rng;
use crate::score::Score;
use crate::search::endgame::{Discs, OrderWeights, Solver, SolverSettings};
use crate::search::{Limits, TranspositionTable, think};

/// A game: its positions in order and black's final disc difference under the
/// play it records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Each position before a move, with the colour to move (passes included).
    pub positions: Vec<(Board, Color)>,
    /// Black's final score (the label of positions not solved exactly).
    pub black_score: i32,
}

/// How a line is labelled and played.
#[derive(Clone, Copy, Debug)]
pub struct LineConfig {
    /// Positions with at most this many empty squares get their exact score.
    pub exact_empties: u32,
    /// Self-play: random moves at the start, at least...
    pub random_min: u32,
    /// ...and at most.
    pub random_max: u32,
    /// Self-play: depth of the search that chooses the other moves.
    pub depth: u32,
}

impl Default for LineConfig {
    fn default() -> Self {
        LineConfig {
            exact_empties: 16,
            random_min: 4,
            random_max: 14,
            depth: 4,
        }
    }
}

/// The solver's settings for training's solves (16 empty squares or fewer),
/// frozen: their move choices make the self-play lines, so the committed
/// weights stay what `orca train` makes only while these stay as they are.
/// The solver's own settings may move on; these change with new weights.
pub(crate) const SOLVER_SETTINGS: SolverSettings = SolverSettings {
    order: OrderWeights {
        mobility: 64,
        corner_reply: 64,
        potential: 24,
        parity: 16,
        corner_stable: 0,
        square: 0,
        value: 64,
    },
    square_classes: false,
    etc_empties: 10,
    etc_where_all_expected: true,
    fastest_first_at_shallow: false,
    shallow_empties: 6,
    evaluate_after_hash_move: false,
};

/// The table salt the searches use for these rules (so solver and search share
/// entries).
fn salt(reversed: bool) -> u64 {
    let variant = if reversed { 2u64 } else { 1 };
    variant.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Labels the positions of a line: exact scores for those with at most
/// `solve_empties` empty squares, nothing for the others with at most
/// `unlabelled_empties`, and the line's result for the rest. The result of a
/// game is a poor label for its late positions, once a single mistake can turn
/// it, and enough lines are solved to cover them. `test` marks every sample
/// as held out. Further back the game's result stays (a blend with a shallow
/// search did not label better).
pub fn label<const R: bool, E: Evaluator<Othello<R>>>(
    line: &Line,
    eval: &E,
    solve_empties: u32,
    unlabelled_empties: u32,
    tt: &mut TranspositionTable,
    test: bool,
) -> Vec<Sample> {
    let stop = AtomicBool::new(false);
    let mut samples = Vec::with_capacity(line.positions.len());
    for &(board, to_move) in &line.positions {
        if board.is_game_over() {
            continue;
        }
        let target = if board.empties() <= solve_empties {
            let mut solver = Solver::<R, E>::new(tt, eval, &stop, None, None, salt(R))
                .with_settings(SOLVER_SETTINGS);
            solver.solve(board, Discs(-64), Discs(64)).0
        } else if board.empties() <= unlabelled_empties {
            continue;
        } else if to_move == Color::Black {
            line.black_score
        } else {
            -line.black_score
        };
        samples.push(Sample {
            player: board.player,
            opponent: board.opponent,
            target: target as f32,
            test,
            weight: 1.0,
        });
    }
    samples
}

/// Plays one self-play game under rules `R`: random opening moves, then the
/// search at a fixed depth, then perfect play once the solver's range is
/// reached. Deterministic for a given `rng` state: the table is cleared first
/// (keep it small), since a search's choices depend on what the table holds.
pub fn self_play<const R: bool, E: Evaluator<Othello<R>>>(
    eval: &E,
    rng: &mut Rng,
    config: &LineConfig,
    tt: &mut TranspositionTable,
) -> Line {
    let stop = AtomicBool::new(false);
    tt.clear();
    let mut game = Othello::<R>::start();
    let mut to_move = Color::Black;
    let mut positions = Vec::new();
    let random_plies =
        config.random_min + rng.below(u64::from(config.random_max - config.random_min + 1)) as u32;
    let mut ply = 0;
    while !game.is_over() {
        positions.push((game.0, to_move));
        let mv = if game.0.moves() == 0 {
            Move::Pass
        } else if ply < random_plies {
            rng.legal_move(&game).expect("a move exists")
        } else if game.empties() <= config.exact_empties {
            let mut solver = Solver::<R, E>::new(tt, eval, &stop, None, None, salt(R))
                .with_settings(SOLVER_SETTINGS);
            solver
                .best_move(game.0)
                .expect("a running game has a best move")
                .0
        } else {
            think(
                &game,
                eval,
                tt,
                &Limits::exact_depth(config.depth),
                &stop,
                &mut |_| {},
            )
            .best_move
            .expect("a running game has a best move")
        };
        game = game.play_unchecked(mv);
        to_move = to_move.opposite();
        ply += 1;
    }
    let own = game.final_score();
    let black_score = if to_move == Color::Black { own } else { -own };
    Line {
        positions,
        black_score,
    }
}

/// How far the static evaluation is from a target, in discs.
pub fn eval_error<const R: bool, E: Evaluator<Othello<R>>>(eval: &E, sample: &Sample) -> f64 {
    let value = eval.evaluate(&Othello::<R>(Board::new(sample.player, sample.opponent)));
    (Score::from_centi(value).discs() - f64::from(sample.target)).abs()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::handmade::HandmadeEval;
    use crate::obf;

    #[test]
    fn self_play_lines_are_legal_and_labelled_exactly_at_the_end() {
        let mut tt = TranspositionTable::new(8);
        let config = LineConfig {
            exact_empties: 10,
            depth: 2,
            ..LineConfig::default()
        };
        let mut rng = Rng::new(5);
        let line = self_play::<true, _>(&HandmadeEval::<true>, &mut rng, &config, &mut tt);
        assert!(line.positions.len() >= 50);
        // Every position recorded is still being played.
        assert!(line.positions.iter().all(|(b, _)| !b.is_game_over()));
        let samples = label::<true, _>(&line, &HandmadeEval::<true>, 10, 10, &mut tt, false);
        let early = label::<true, _>(&line, &HandmadeEval::<true>, 0, 10, &mut tt, false);
        assert!(
            early
                .iter()
                .all(|s| (!(s.player | s.opponent)).count_ones() > 10)
        );
        assert_eq!(samples.len(), line.positions.len());
        // The first position with at most 10 empties starts perfect play: its
        // exact score is the line's result from its side to move's view.
        let (i, &(board, colour)) = line
            .positions
            .iter()
            .enumerate()
            .find(|(_, (b, _))| b.empties() <= 10)
            .unwrap();
        assert_eq!(samples[i].player, board.player);
        let expected = if colour == Color::Black {
            line.black_score
        } else {
            -line.black_score
        };
        assert_eq!(samples[i].target as i32, expected);
        // A gap between the solved and the result-labelled positions is left
        // out; the solved ones keep their exact scores.
        let gapped = label::<true, _>(&line, &HandmadeEval::<true>, 8, 10, &mut tt, false);
        let with_empties = |s: &Sample| (s.empties(), s.player, s.opponent, s.target as i32);
        let all: Vec<_> = samples.iter().map(with_empties).collect();
        let kept: Vec<_> = gapped.iter().map(with_empties).collect();
        assert!(kept.iter().all(|k| !(9..=10).contains(&k.0)));
        assert!(kept.iter().any(|k| k.0 <= 8) && kept.iter().any(|k| k.0 > 10));
        let expected: Vec<_> = all
            .iter()
            .copied()
            .filter(|a| !(9..=10).contains(&a.0))
            .collect();
        assert_eq!(kept, expected);
        // Reproducible from the seed.
        let again = self_play::<true, _>(&HandmadeEval::<true>, &mut Rng::new(5), &config, &mut tt);
        assert_eq!(again, line);
    }

    /// Training's solves (16 empties or fewer), whose move choices make its
    /// self-play games, search as they did when these counts were pinned:
    /// a change to them changes what `orca train` makes. The first of each
    /// pair orders moves with the built-in weights and changes with them.
    #[test]
    fn solves_search_as_when_the_weights_were_made() {
        let text = include_str!("../../data/obf/fforum-1-19.obf");
        let evals = crate::eval::Evaluators::default();
        let stop = AtomicBool::new(false);
        let mut nodes = Vec::new();
        for problem in obf::parse(text).unwrap().iter().take(4) {
            let b = problem.position.state().0;
            assert!(b.empties() <= 16);
            let tt = TranspositionTable::new(4);
            let mut solver = Solver::<false, _>::new(&tt, &evals.othello, &stop, None, None, 0)
                .with_settings(SOLVER_SETTINGS);
            solver.best_move(b).unwrap();
            nodes.push(solver.nodes);
            let tt = TranspositionTable::new(4);
            let mut solver =
                Solver::<false, _>::new(&tt, &HandmadeEval::<false>, &stop, None, None, 0)
                    .with_settings(SOLVER_SETTINGS);
            solver.solve(b, Discs(-64), Discs(64));
            nodes.push(solver.nodes);
        }
        assert_eq!(
            nodes,
            [42182, 43179, 27651, 32702, 87759, 96854, 101311, 54174]
        );
    }
}
