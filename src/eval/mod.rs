//! Static evaluation: what a position is worth to the side to move when the
//! search stops short of the end of the game.
//!
//! Everything the search needs from an evaluation goes through [`Evaluator`], the
//! one seam where the hand-made evaluation ([`handmade`]) and trained weights plug
//! in. Scores are in [`DISC`] units (centi-discs) from the side to move's view.

pub mod handmade;
pub mod pattern;
pub mod stability;
pub mod trained;

use crate::game::{AnyPosition, Game, TicTacToe};
use handmade::HandmadeEval;

/// One disc in score units: evaluations are in hundredths of a disc so that they
/// are finer than the exact disc scores of finished games.
pub const DISC: i32 = 100;

/// Evaluations are clamped inside this bound, strictly below the largest exact
/// score a finished Othello game can have (64 discs).
pub const EVAL_LIMIT: i32 = 64 * DISC - 1;

/// A static evaluation of the states of game `G`, with the move-ordering hint the
/// search asks of it.
pub trait Evaluator<G: Game>: Send + Sync {
    /// The value of `state` for the side to move, in [`DISC`] units, within
    /// `±EVAL_LIMIT`. Called on positions where the game is not over.
    fn evaluate(&self, state: &G) -> i32;

    /// How promising `mv` looks before it is searched, higher first. `child` is
    /// the state after the move (the opponent to move). The default prefers moves
    /// whose resulting position is worst for the opponent.
    fn order_key(&self, _state: &G, _mv: G::Move, child: &G) -> i32 {
        -self.evaluate(child)
    }
}

/// Tic-tac-toe is always searched to the end, so its evaluation only needs to
/// break ties in move ordering: the centre, then corners.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToeEval;

impl Evaluator<TicTacToe> for TicTacToeEval {
    fn evaluate(&self, _state: &TicTacToe) -> i32 {
        0
    }

    fn order_key(
        &self,
        _state: &TicTacToe,
        mv: <TicTacToe as Game>::Move,
        _child: &TicTacToe,
    ) -> i32 {
        match mv.index() {
            4 => 2,
            0 | 2 | 6 | 8 => 1,
            _ => 0,
        }
    }
}

/// The evaluations the engine plays with, one per game.
///
/// The one place that names the evaluation types: the engine, the tools and the
/// protocols ask this bundle and never pick an evaluation themselves.
#[derive(Clone, Debug, Default)]
pub struct Evaluators {
    /// Standard Othello.
    pub othello: HandmadeEval<false>,
    /// Reversed Othello.
    pub reversed: HandmadeEval<true>,
    /// Tic-tac-toe.
    pub tictactoe: TicTacToeEval,
}

impl Evaluators {
    /// The static evaluation of a position for the side to move, in [`DISC`]
    /// units; `None` when the game is over (the result is then exact, not an estimate).
    pub fn static_eval(&self, position: &AnyPosition) -> Option<i32> {
        if position.is_over() {
            return None;
        }
        Some(match position {
            AnyPosition::Othello(p) => self.othello.evaluate(p.state()),
            AnyPosition::Reversed(p) => self.reversed.evaluate(p.state()),
            AnyPosition::TicTacToe(p) => self.tictactoe.evaluate(p.state()),
        })
    }
}
