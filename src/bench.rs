//! `orca bench`: a fixed set of positions searched to a fixed depth. The total
//! node count is the search's *signature*: it changes exactly when search
//! behaviour changes (a pure speed-up or refactor leaves it alone), as in
//! Stockfish's bench. Nodes per second is the speed figure.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::eval::{Evaluator, Evaluators};
use crate::game::{AnyPosition, Game, Position, Variant};
use crate::score::Score;
use crate::search::{Limits, Searchable, TranspositionTable, think};

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
    /// Score for the side to move.
    pub score: Score,
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

fn search_one<G: Searchable, E: Evaluator<G>>(
    position: &Position<G>,
    eval: &E,
    depth: u32,
    tt: &mut TranspositionTable,
) -> (u64, String, Score) {
    tt.clear();
    let stop = AtomicBool::new(false);
    let result = think(
        position.state(),
        eval,
        tt,
        // The depth as such: the signature and speed are the midgame
        // search's, an early solve would swamp them.
        &Limits::exact_depth(depth),
        &stop,
        &mut |_| {},
    );
    let best = result
        .best_move
        .map(|m| m.to_string())
        .unwrap_or_else(|| "none".into());
    let score = result.last.map_or(Score::ZERO, |it| it.score);
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

/// What the search of a known position got right at one depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AccuracyLine {
    /// The depth searched.
    pub depth: u32,
    /// The search chose a move whose exact score is the best.
    pub best_found: bool,
    /// |returned score - exact best score| in discs.
    pub score_error: f64,
    /// Exact best score - exact score of the chosen move, in discs.
    pub loss: i32,
    /// Nodes searched to complete the depth (all iterations up to it).
    pub nodes: u64,
    /// Time taken to complete the depth.
    pub elapsed: Duration,
}

/// One finished iteration of an accuracy search: what the search said.
struct Found {
    depth: u32,
    chosen: crate::game::Move,
    score: Score,
    nodes: u64,
    elapsed: Duration,
}

/// Searches `known` with `eval` at `selectivity` to each of `depths`, as
/// `go depth N` would (a fresh table each time), and compares with the exact
/// scores, solving a chosen move whose score is not known yet.
///
/// Depths below the empties come from one search to the deepest of them:
/// its iteration at depth `d` is the whole of a search to `d`, since no
/// iteration below the empties can jump to an exact solve. Deeper ones
/// (the search may then solve exactly) are searched one by one.
pub fn accuracy_by_depth<E: Evaluator<crate::game::StandardOthello>>(
    known: &mut KnownPosition,
    eval: &E,
    depths: &[u32],
    selectivity: crate::search::Selectivity,
    tt: &mut TranspositionTable,
    solve_eval: &Evaluators,
) -> Vec<AccuracyLine> {
    let state = crate::game::Othello::<false>(known.board);
    let empties = known.board.empties();
    let mut search = |max_depth: u32, keep: &dyn Fn(u32) -> bool| -> Vec<Found> {
        tt.clear();
        let stop = AtomicBool::new(false);
        let limits = Limits {
            selectivity,
            ..Limits::exact_depth(max_depth)
        };
        let mut found = Vec::new();
        // The move to play after each iteration, as `think` keeps it.
        let mut chosen = None;
        let result = think(&state, eval, tt, &limits, &stop, &mut |it| {
            chosen = it.pv.first().copied().or(chosen);
            if let Some(chosen) = chosen
                && keep(it.depth)
            {
                found.push(Found {
                    depth: it.depth,
                    chosen,
                    score: it.score,
                    nodes: it.nodes,
                    elapsed: it.elapsed,
                });
            }
        });
        // A search deeper than the empties ends with one exact iteration.
        if let (Some(last), Some(best)) = (result.last, result.best_move)
            && !keep(last.depth)
            && last.exact
        {
            found.push(Found {
                depth: max_depth,
                chosen: best,
                score: last.score,
                nodes: result.nodes,
                elapsed: result.elapsed,
            });
        }
        found
    };
    let mut found = Vec::new();
    let shallow: Vec<u32> = depths.iter().copied().filter(|&d| d < empties).collect();
    if let Some(&deepest) = shallow.iter().max() {
        found.extend(search(deepest, &|d| shallow.contains(&d)));
    }
    for &depth in depths.iter().filter(|&&d| d >= empties) {
        found.extend(
            search(depth, &|d| d == depth)
                .into_iter()
                .filter(|f| f.depth == depth),
        );
    }
    found
        .into_iter()
        .map(|f| {
            let chosen_score = known.score_of(f.chosen, tt, solve_eval);
            AccuracyLine {
                depth: f.depth,
                best_found: chosen_score == known.best,
                score_error: (f.score.discs() - f64::from(known.best)).abs(),
                loss: known.best - chosen_score,
                nodes: f.nodes,
                elapsed: f.elapsed,
            }
        })
        .collect()
}

impl KnownPosition {
    /// The exact score of `mv`, solved (and remembered) if not known yet.
    fn score_of(
        &mut self,
        mv: crate::game::Move,
        tt: &mut TranspositionTable,
        solve_eval: &Evaluators,
    ) -> i32 {
        if let Some(&(_, score)) = self.move_scores.iter().find(|(m, _)| *m == mv) {
            return score;
        }
        let child = crate::game::Othello::<false>(self.board)
            .play_unchecked(mv)
            .0;
        tt.clear();
        let solution = crate::solve::solve(
            child,
            Variant::Othello,
            solve_eval,
            tt,
            crate::solve::SolveMode::Exact,
            false,
        );
        self.move_scores.push((mv, -solution.score));
        -solution.score
    }
}

/// Midgame positions of 26 to 40 empties drawn (seeded) from the 2010 WTHOR
/// games, for `orca bench depth`: time and nodes to complete each depth.
pub const DEPTH_POSITIONS: [&str; 24] = [
    "-XXXX-----XO-X----XOXX---XXOXXXO--XOXXOO--XOXOOO---OOO-----O---- X",
    "--O-X------XO-----XXOO----XXOOX---XOOOOX---OOOOO-----O---------- O",
    "----------O------XXXXO---OXOOO---OOOXOO---OOXO-----OO-----XXXX-- O",
    "-------------------OXXXX--OOXXXX--XOXOOO--XOOOOO--XOO----------- X",
    "-----------XOO----XXXO-O--XXOXOO--XXXOXO--XOXXXO--OOOXXO--O-X-X- O",
    "-----------XOO-----OOOOO--OOOOOX-XXXXXOX-XXOOOOO--OOOO-----OO--- X",
    "----X-------XO---XXXXOO---XOXOO-OOOXOX-O-OOOOO-----XO----------- X",
    "------------X-----XXXO----XXOOO---XXOOO---OXOOO---OXXO----OXX--- O",
    "----X-----OXX---XXOOOOX---OOXXX--OOOXXXX-OOOXXX---XOOO----X-OO-- X",
    "----------------XOXXX----OOXXXX-OOXOXXO--XOXXO----XXXX---XXXXXX- O",
    "--XX----X-XXXO--XOOXX---XOXOXX--XXOXXX--XOXXXX----XXXX-------X-- O",
    "----------XXXO--XXXXXX--XXXXXXXX-OXOXOO-OOXXO-X---XOOO-------O-- O",
    "------------------XXXXOOOXXOOXOO-XOXXXXOXXXXXXOO--OOOX-O--O-X-X- O",
    "---O------XOO---XXXOOOX-XXXXOXX-XOOOOXO-X-OOXX--X----X---------- X",
    "--------------------OX-OXXXOOOOOOXOOOOOOOOXXXOOO--OXXX----XXXX-- O",
    "--OXX-----XXXX----XXOOXX-XXXOOO--XXOOO--X-OOOO----O-O----------- O",
    "---------------XOOX--XX-OOXXXXOOOXXOXXOOOOXXOOOOO-XXXX---------- O",
    "-----------------OX-XXO-O-XXXOO--OXOXXOO-OXOOXOO-XXXXXX--OOOOOO- O",
    "----XX-----XXX--O-XXOXOOOOXXOXOOOXOOXXXOOOOOOOOOO------O-------- X",
    "------------OX-----O-XXO---OOXOO--OOOOOO--XOOXOX---XOO-----XXXX- X",
    "---OX-----OOOO----OOOO----OXOOO---XXOOXX--XXXX-----XXX-----X---- O",
    "----OO-----OOO----OXX-----OXXXX--OXXXXXX-X-XXO-----XX----------- X",
    "-----O----OOO---OOOOXO---OXXOXO--XXXXXX-XXXXOX----XOOO----X-OOO- X",
    "---X----O-XXXX--OOXOXO--OOOXOX-OOOOXXXO--XXOOOO-X-XXO----------- X",
];

/// When one search of `orca bench depth` completed a depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthReached {
    /// The depth completed.
    pub depth: u32,
    /// Time from the start of the search.
    pub elapsed: Duration,
    /// Nodes from the start of the search.
    pub nodes: u64,
}

/// Searches `position` by iterative deepening up to `max_depth` (or until
/// `time_limit`) with `threads` search threads and `multipv` lines over
/// `tt`, cleared first, and returns when each depth was completed.
pub fn depth_profile(
    position: &AnyPosition,
    evaluators: &Evaluators,
    max_depth: u32,
    time_limit: Duration,
    (threads, multipv): (usize, usize),
    tt: &mut TranspositionTable,
) -> Vec<DepthReached> {
    fn profile<G: Searchable, E: Evaluator<G>>(
        position: &Position<G>,
        eval: &E,
        max_depth: u32,
        (time_limit, threads, multipv): (Duration, usize, usize),
        tt: &mut TranspositionTable,
    ) -> Vec<DepthReached> {
        tt.clear();
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let limits = Limits {
            depth: Some(max_depth),
            budget: Some(crate::search::Budget {
                soft: time_limit,
                hard: time_limit,
            }),
            threads,
            multipv,
            ..Limits::infinite(start)
        };
        let mut reached = Vec::new();
        think(position.state(), eval, tt, &limits, &stop, &mut |it| {
            if !it.exact {
                reached.push(DepthReached {
                    depth: it.depth,
                    elapsed: it.elapsed,
                    nodes: it.nodes,
                });
            }
        });
        reached
    }
    let limit = (time_limit, threads, multipv);
    match position {
        AnyPosition::Othello(p) => profile(p, &evaluators.othello, max_depth, limit, tt),
        AnyPosition::Reversed(p) => profile(p, &evaluators.reversed, max_depth, limit, tt),
        AnyPosition::TicTacToe(p) => profile(p, &evaluators.tictactoe, max_depth, limit, tt),
    }
}

#[cfg(test)]
mod accuracy_tests {
    use super::*;
    use crate::search::Selectivity;

    fn known(line: &str) -> KnownPosition {
        let problem: crate::obf::ObfProblem = line.parse().unwrap();
        KnownPosition {
            board: problem.position.state().0,
            source: "test".into(),
            best: problem.best_score().unwrap(),
            move_scores: problem.scores.clone(),
        }
    }

    /// The depths of one deeper search are the searches to each depth; a
    /// depth beyond the empties is an exact solve: best move, no error.
    #[test]
    fn accuracy_by_depth_is_a_search_to_each_depth() {
        let evals = Evaluators::default();
        let mut tt = TranspositionTable::new(4);
        // FFO #1, 14 empties, every move scored.
        let mut k = known(
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;",
        );
        for selectivity in [Selectivity::DEFAULT, Selectivity::NONE] {
            let together = accuracy_by_depth(
                &mut k,
                &evals.othello,
                &[3, 5, 16],
                selectivity,
                &mut tt,
                &evals,
            );
            assert_eq!(
                together.iter().map(|l| l.depth).collect::<Vec<_>>(),
                [3, 5, 16]
            );
            for line in &together {
                let alone = accuracy_by_depth(
                    &mut k,
                    &evals.othello,
                    &[line.depth],
                    selectivity,
                    &mut tt,
                    &evals,
                );
                assert_eq!(
                    (
                        alone[0].best_found,
                        alone[0].score_error,
                        alone[0].loss,
                        alone[0].nodes
                    ),
                    (line.best_found, line.score_error, line.loss, line.nodes),
                    "depth {}",
                    line.depth
                );
                let chosen_is_known = line.loss >= 0 && line.best_found == (line.loss == 0);
                assert!(chosen_is_known, "{line:?}");
            }
            let exact = together[2];
            assert!(exact.best_found && exact.score_error == 0.0 && exact.loss == 0);
        }
    }

    /// A chosen move the file does not score is solved: its loss is exact.
    #[test]
    fn an_unscored_chosen_move_is_solved() {
        let evals = Evaluators::default();
        let mut tt = TranspositionTable::new(4);
        let full = known(
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;",
        );
        let mut k = KnownPosition {
            move_scores: Vec::new(),
            ..full.clone()
        };
        let line = accuracy_by_depth(
            &mut k,
            &evals.othello,
            &[1],
            Selectivity::NONE,
            &mut tt,
            &evals,
        )[0];
        let &[(chosen, score)] = &k.move_scores[..] else {
            panic!("one move solved: {:?}", k.move_scores);
        };
        assert!(full.move_scores.contains(&(chosen, score)));
        assert_eq!(line.loss, 18 - score);
        assert_eq!(line.best_found, score == 18);
    }
}
