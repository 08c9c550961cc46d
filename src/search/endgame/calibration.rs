//! The measurement behind the probable-cutoff margins: how far shallow
//! evaluation searches land from the exact score. Run with
//! `cargo test --release calibrate_probcut -- --ignored --nocapture`.
use super::*;
use crate::eval::Evaluators;

/// The first position of a recorded game with `empties` empty squares
/// and a move to play.
pub(super) fn position_of(game: &crate::wthor::WthorGame, empties: u32) -> Option<Board> {
    game.replay()
        .ok()?
        .positions
        .iter()
        .map(|p| p.state().0)
        .find(|b| b.empties() == empties && b.moves() != 0)
}

fn positions(empties: u32, count: usize) -> Vec<Board> {
    let file = crate::wthor::read(std::path::Path::new("data/wthor/WTH_2005.wtb")).unwrap();
    let step = (file.games.len() / count).max(1);
    file.games
        .iter()
        .step_by(step)
        .filter_map(|game| position_of(game, empties))
        .take(count)
        .collect()
}

fn measure<const R: bool, E: Evaluator<Othello<R>>>(eval: &E, name: &str) {
    let stop = AtomicBool::new(false);
    for empties in (8..=24).step_by(2) {
        let boards = positions(empties, 80);
        let mut sq = [0.0f64; 7];
        let mut bias = [0.0f64; 7];
        for &board in &boards {
            let tt = TranspositionTable::new(64);
            let mut solver = Solver::<R, E>::new(&tt, eval, &stop, None, None, 0);
            let exact = f64::from(solver.solve(board, Discs(-INF), Discs(INF)).0);
            for d in 0..7 {
                let indices = solver.indices(&board);
                let v = solver.midgame(board, &indices, d as u32, -INF_SCORE, INF_SCORE);
                let err = exact - v.discs();
                sq[d] += err * err;
                bias[d] += err;
            }
        }
        let n = boards.len() as f64;
        let sigmas: Vec<String> = (0..7)
            .map(|d| format!("d{d} {:5.2} ({:+.2})", (sq[d] / n).sqrt(), bias[d] / n))
            .collect();
        println!("{name} empties {empties} n {n}: {}", sigmas.join("  "));
    }
}

#[test]
#[ignore = "a measurement, minutes long"]
fn calibrate_probcut() {
    let evals = Evaluators::default();
    measure::<false, _>(&evals.othello, "othello");
    measure::<true, _>(&evals.reversed, "reversed");
}
