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

use std::sync::Arc;

use crate::cpu::Isa;
use crate::game::{AnyPosition, Game, Move, Othello, TicTacToe, UnknownName, Variant};
use crate::score::Score;
use handmade::HandmadeEval;
use trained::{TrainedEval, Weights, WeightsError};

pub use crate::score::DISC;

/// Evaluations are clamped inside this bound, strictly below the largest exact
/// score a finished Othello game can have (64 discs).
pub const EVAL_LIMIT: i32 = 64 * DISC - 1;

/// A static evaluation of the states of game `G`, with the move-ordering hint the
/// search asks of it.
pub trait Evaluator<G: Game>: Send + Sync {
    /// The value of `state` for the side to move, in [`DISC`] units, within
    /// `±EVAL_LIMIT`. Called on positions where the game is not over.
    fn evaluate(&self, state: &G) -> i32;

    /// Whether [`Self::evaluate_indexed`] reads the pattern indices: searches
    /// keep them up to date move by move only for evaluations that do.
    fn uses_indices(&self) -> bool {
        false
    }

    /// [`Self::evaluate`] given the pattern indices of `state` (kept up to
    /// date by the caller, see [`pattern::Indices`]), the same value for
    /// less work. Evaluations without patterns ignore them.
    fn evaluate_indexed(&self, state: &G, _indices: &pattern::Indices) -> i32 {
        self.evaluate(state)
    }

    /// [`Self::evaluate_indexed`] with the instruction set `isa`, for the
    /// fast copies of the searches ([`crate::cpu`]): an evaluation with
    /// kernels of its own passes `isa` on to them, so the fast copy inlines
    /// them. The default ignores `isa`.
    #[inline(always)]
    fn evaluate_indexed_with<I: Isa>(&self, isa: I, state: &G, indices: &pattern::Indices) -> i32 {
        let _ = isa;
        self.evaluate_indexed(state, indices)
    }

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

/// Which evaluation the engine uses for the two Othello variants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// The pattern weights fitted by `orca train` (the default).
    #[default]
    Trained,
    /// The hand-made evaluation (for comparison).
    Handmade,
}

impl std::str::FromStr for EvalKind {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<EvalKind, UnknownName> {
        match s.to_ascii_lowercase().as_str() {
            "trained" => Ok(EvalKind::Trained),
            "handmade" => Ok(EvalKind::Handmade),
            _ => Err(UnknownName::new("evaluation", s, "trained or handmade")),
        }
    }
}

impl std::fmt::Display for EvalKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EvalKind::Trained => "trained",
            EvalKind::Handmade => "handmade",
        })
    }
}

/// The evaluation of one Othello variant: chosen at start-up, so a match on
/// the kind is the only cost (and the branch always goes the same way).
#[derive(Clone, Debug)]
pub enum OthelloEval<const REVERSED: bool> {
    /// Hand-made weights.
    Handmade(HandmadeEval<REVERSED>),
    /// Trained pattern weights.
    Trained(TrainedEval<REVERSED>),
}

impl<const REVERSED: bool> Evaluator<Othello<REVERSED>> for OthelloEval<REVERSED> {
    #[inline]
    fn evaluate(&self, state: &Othello<REVERSED>) -> i32 {
        match self {
            OthelloEval::Handmade(e) => e.evaluate(state),
            OthelloEval::Trained(e) => e.evaluate(state),
        }
    }

    fn uses_indices(&self) -> bool {
        matches!(self, OthelloEval::Trained(_))
    }

    #[inline]
    fn evaluate_indexed(&self, state: &Othello<REVERSED>, indices: &pattern::Indices) -> i32 {
        match self {
            OthelloEval::Handmade(e) => e.evaluate(state),
            OthelloEval::Trained(e) => e.evaluate_indexed(state, indices),
        }
    }

    #[inline(always)]
    fn evaluate_indexed_with<I: Isa>(
        &self,
        isa: I,
        state: &Othello<REVERSED>,
        indices: &pattern::Indices,
    ) -> i32 {
        match self {
            OthelloEval::Handmade(e) => e.evaluate(state),
            OthelloEval::Trained(e) => e.evaluate_indexed_with(isa, state, indices),
        }
    }

    #[inline]
    fn order_key(&self, state: &Othello<REVERSED>, mv: Move, child: &Othello<REVERSED>) -> i32 {
        match self {
            OthelloEval::Handmade(e) => e.order_key(state, mv, child),
            OthelloEval::Trained(e) => e.order_key(state, mv, child),
        }
    }
}

/// The evaluations the engine plays with, one per game.
///
/// The one place that names the evaluation types: the engine, the tools and the
/// protocols ask this bundle and never pick an evaluation themselves.
#[derive(Clone, Debug)]
pub struct Evaluators {
    /// Standard Othello.
    pub othello: OthelloEval<false>,
    /// Reversed Othello.
    pub reversed: OthelloEval<true>,
    /// Tic-tac-toe.
    pub tictactoe: TicTacToeEval,
}

impl Evaluators {
    /// The evaluations of `kind`, with the weights built into the binary.
    ///
    /// # Errors
    /// When the built-in weights are damaged (a broken build).
    pub fn new(kind: EvalKind) -> Result<Evaluators, WeightsError> {
        Ok(match kind {
            EvalKind::Handmade => Evaluators {
                othello: OthelloEval::Handmade(HandmadeEval),
                reversed: OthelloEval::Handmade(HandmadeEval),
                tictactoe: TicTacToeEval,
            },
            EvalKind::Trained => Evaluators {
                othello: OthelloEval::Trained(TrainedEval::new(Weights::builtin(
                    Variant::Othello,
                )?)),
                reversed: OthelloEval::Trained(TrainedEval::new(Weights::builtin(
                    Variant::Reversed,
                )?)),
                tictactoe: TicTacToeEval,
            },
        })
    }

    /// Replaces the weights of the variant they were fitted for.
    pub fn use_weights(&mut self, weights: Weights) {
        match weights.variant {
            Variant::Reversed => {
                self.reversed = OthelloEval::Trained(TrainedEval::new(Arc::new(weights)))
            }
            _ => self.othello = OthelloEval::Trained(TrainedEval::new(Arc::new(weights))),
        }
    }

    /// The static evaluation of a position for the side to move, in [`DISC`]
    /// units; `None` when the game is over (the result is then exact, not an estimate).
    pub fn static_eval(&self, position: &AnyPosition) -> Option<Score> {
        if position.is_over() {
            return None;
        }
        Some(Score::from_centi(match position {
            AnyPosition::Othello(p) => self.othello.evaluate(p.state()),
            AnyPosition::Reversed(p) => self.reversed.evaluate(p.state()),
            AnyPosition::TicTacToe(p) => self.tictactoe.evaluate(p.state()),
        }))
    }
}

impl Default for Evaluators {
    /// The trained evaluations built into the binary.
    ///
    /// # Panics
    /// If the built-in weights are damaged, which only a broken build can cause
    /// (a test checks them).
    fn default() -> Self {
        Evaluators::new(EvalKind::Trained).expect("the built-in weights are valid")
    }
}
