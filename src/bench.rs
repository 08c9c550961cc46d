//! `orca bench`: a fixed set of positions searched to a fixed depth. The total
//! node count is the search's *signature*: it changes exactly when search
//! behaviour changes (a pure speed-up or refactor leaves it alone), as in
//! Stockfish's bench. Nodes per second is the speed figure.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::eval::{Evaluator, Evaluators};
use crate::game::{AnyPosition, Game, Position, Variant};
use crate::search::{Limits, Solvable, TranspositionTable, think};

/// Othello positions from one seeded random game per row, 52 down to 16 empties.
/// Each is searched as standard and as reversed Othello.
pub const POSITIONS: [&str; 10] = [
    "--------------------OX-----OOXX----XO-----XOOO------------------ X",
    "--------------O----XXOO----XOO----XOXX---XOO-X------------------ X",
    "--X-O-----X-OXX--OX-O----OXOOO---OOXX----O---X------------------ X",
    "----------------XOOOO----XOOO-X--OXOOXO-O--OXX----OO-X-----O---- X",
    "------------------OXX-O-OOXXOOX-XOXOO----O-OOO----OOOO----OOOO-- X",
    "-O--------OOOO-----O-O---OOXX-O--OOXXO---OOOXXO-XO-O-XX-XO----OX X",
    "-O--XXXXXXXXOXO-XXOOX-O-XOXXX---XOXXX---XOXXXX---O---X---------- X",
    "O--O-----OO-O----OOO--XX-OOOOX-XXXXXXXXXOOOOOOOO--O-XXX---O-X-XO X",
    "--X------O-XO-O--OOXOO-X--OXOX-X-XOOOXXXXXOOOXXXXXXXXO--XXXXXOO- X",
    "----X-X-OO-XXXOOOXXXXOOOOXXOOXOOOXOOOOO-OXXOOOO-OOOXX-X--O--XX-- X",
];

/// Depth used when none is given.
pub const DEFAULT_DEPTH: u32 = 10;

/// One searched position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The game.
    pub variant: Variant,
    /// The position.
    pub position: AnyPosition,
    /// Nodes searched.
    pub nodes: u64,
    /// Best move found.
    pub best: String,
    /// Score in centi-discs.
    pub score: i32,
    /// Time taken.
    pub elapsed: Duration,
}

/// The whole run.
#[derive(Clone, Copy, Debug)]
pub struct BenchTotal {
    /// The signature: nodes over all positions.
    pub nodes: u64,
    /// Time over all positions.
    pub elapsed: Duration,
}

impl BenchTotal {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

fn search_one<G: Solvable, E: Evaluator<G>>(
    position: &Position<G>,
    eval: &E,
    depth: u32,
    tt: &mut TranspositionTable,
) -> (u64, String, i32) {
    tt.clear();
    let stop = AtomicBool::new(false);
    let result = think(
        position.state(),
        eval,
        tt,
        &Limits::depth(depth),
        &stop,
        &mut |_| {},
    );
    let best = result
        .best_move
        .map(|m| m.to_string())
        .unwrap_or_else(|| "none".into());
    let score = result.last.map(|it| it.score).unwrap_or(0);
    (result.nodes, best, score)
}

/// Searches every bench position to `depth` with a table of `hash_mb` MB,
/// calling `on_line` after each.
pub fn run(
    depth: u32,
    hash_mb: usize,
    evaluators: &Evaluators,
    on_line: &mut dyn FnMut(&BenchLine),
) -> BenchTotal {
    let mut tt = TranspositionTable::new(hash_mb);
    let mut positions: Vec<AnyPosition> = Vec::new();
    for variant in [Variant::Othello, Variant::Reversed] {
        for text in POSITIONS {
            positions.push(AnyPosition::parse(variant, text).expect("bench positions are valid"));
        }
    }
    positions.push(AnyPosition::start(Variant::TicTacToe));
    let (mut nodes, mut elapsed) = (0, Duration::ZERO);
    for position in positions {
        let started = Instant::now();
        let (n, best, score) = match &position {
            AnyPosition::Othello(p) => search_one(p, &evaluators.othello, depth, &mut tt),
            AnyPosition::Reversed(p) => search_one(p, &evaluators.reversed, depth, &mut tt),
            AnyPosition::TicTacToe(p) => search_one(p, &evaluators.tictactoe, depth, &mut tt),
        };
        let line = BenchLine {
            variant: position.variant(),
            position,
            nodes: n,
            best,
            score,
            elapsed: started.elapsed(),
        };
        nodes += n;
        elapsed += line.elapsed;
        on_line(&line);
    }
    BenchTotal { nodes, elapsed }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_is_reproducible() {
        let evals = Evaluators::default();
        let a = run(5, 4, &evals, &mut |_| {});
        let b = run(5, 16, &evals, &mut |_| {});
        assert_eq!(
            a.nodes, b.nodes,
            "the signature does not depend on the table size at this depth"
        );
        let mut lines = 0;
        let c = run(5, 4, &evals, &mut |_| lines += 1);
        assert_eq!(a.nodes, c.nodes);
        assert_eq!(lines, 21);
    }
}

/// A position whose exact scores are known, for measuring search accuracy.
#[derive(Clone, Debug)]
pub struct KnownPosition {
    /// The position (standard Othello).
    pub board: crate::game::Board,
    /// Where it comes from, for the report.
    pub source: String,
    /// The exact score of the best move.
    pub best: i32,
    /// Exact scores of the moves known so far.
    pub move_scores: Vec<(crate::game::Move, i32)>,
}

/// What one search of a known position got right.
#[derive(Clone, Copy, Debug, Default)]
pub struct AccuracyLine {
    /// The search chose a move whose exact score is the best.
    pub best_found: bool,
    /// |returned score - exact best score| in discs.
    pub score_error: f64,
    /// Nodes searched.
    pub nodes: u64,
}

/// Searches `known` at `depth` with `eval` (fresh table) and compares with the
/// exact scores, solving the chosen move if its score is not known yet.
pub fn accuracy_of<E: Evaluator<crate::game::StandardOthello>>(
    known: &mut KnownPosition,
    eval: &E,
    depth: u32,
    tt: &mut TranspositionTable,
    solve_eval: &Evaluators,
) -> AccuracyLine {
    tt.clear();
    let stop = AtomicBool::new(false);
    let state = crate::game::Othello::<false>(known.board);
    let result = think(&state, eval, tt, &Limits::depth(depth), &stop, &mut |_| {});
    let chosen = result.best_move.expect("known positions are not finished");
    let score = result.last.map(|it| it.score).unwrap_or(0);
    let chosen_score = match known.move_scores.iter().find(|(m, _)| *m == chosen) {
        Some(&(_, s)) => s,
        None => {
            let child = state.play_unchecked(chosen).0;
            tt.clear();
            let solution = crate::solve::solve(
                child,
                Variant::Othello,
                solve_eval,
                tt,
                crate::solve::SolveMode::Exact,
                false,
            );
            known.move_scores.push((chosen, -solution.score));
            -solution.score
        }
    };
    AccuracyLine {
        best_found: chosen_score == known.best,
        score_error: (f64::from(score) / f64::from(crate::eval::DISC) - f64::from(known.best))
            .abs(),
        nodes: result.nodes,
    }
}
