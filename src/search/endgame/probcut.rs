//! Probable cutoffs (ProbCut, as in Edax and Egaroucid) and the selective
//! levels of the passes that use them before the exact one.

use super::settings::SHALLOW;
use super::{Discs, Solver};
use crate::eval::Evaluator;
use crate::game::{Board, Othello};
use crate::score::Score;

/// From this many empties a solve runs selective passes first.
pub(super) const SELECTIVE_EMPTIES: u32 = 22;

/// The confidence of each selective pass, in standard errors of the shallow
/// search (from about 79% to 99% of cuts right). Many cheap, bold passes leave
/// the table full of good moves and near bounds for the surer ones; each pays
/// for itself (`docs/tuning.md`, "Selective search").
pub(super) const SELECTIVE_Z: [f64; 5] = [0.8, 1.1, 1.5, 1.8, 2.2];

/// Nodes with at least this many empties try a probable cutoff: every node
/// that uses the table. Selective passes run in large solves only, where the
/// table, and so the probable cutoffs, start at 8 empties
/// ([`LARGE_SHALLOW`](super::settings::LARGE_SHALLOW)).
pub(super) const PROBCUT_EMPTIES: u32 = SHALLOW + 1;

/// The shallow search of a probable cutoff at `empties` empties: its depth
/// and its standard error in discs against the exact score, under reversed
/// rules if `REVERSED`, as measured by `calibrate_probcut` (80 WTHOR positions
/// for each even count of empties, 8 to 24). Deeper searches err less but
/// cost more.
#[inline]
pub(super) fn probcut_search<const REVERSED: bool>(empties: u32) -> (u32, f64) {
    let (depth, standard, reversed) = match empties {
        0..12 => (0, 9.3, 7.1),
        12..18 => (0, 8.9, 5.5),
        18..24 => (2, 7.7, 4.2),
        _ => (4, 7.2, 3.4),
    };
    (depth, if REVERSED { reversed } else { standard })
}

/// Where [`probcut_search`] gives the evaluation's own error near the
/// deeper probable-cutoff searches (from 18 empties), which run only when the
/// evaluation is within that error of cutting.
pub(super) const PROBCUT_SLACK_EMPTIES: u32 = 16;

impl<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Solver<'a, REVERSED, E> {
    /// Probable cutoff: a shallow evaluation search far beyond the null
    /// window `(alpha, alpha + 1)`, by `z` standard errors of such searches
    /// against exact scores, very probably means the solve fails the same way.
    /// Only selective passes use it.
    pub(super) fn probcut(&mut self, board: &Board, alpha: i32, empties: u32) -> Option<i32> {
        let z = SELECTIVE_Z[usize::from(self.level) - 1];
        let (depth, sigma) = probcut_search::<REVERSED>(empties);
        let margin = Score::from_discs_f64(z * sigma);
        let high = Discs(alpha + 1).to_score() + margin;
        let low = Discs(alpha).to_score() - margin;
        let estimate = Score::from_centi(self.eval.evaluate(&Othello(*board)));
        if depth == 0 {
            return if estimate >= high {
                Some(alpha + 1)
            } else if estimate <= low {
                Some(alpha)
            } else {
                None
            };
        }
        // The deeper search costs hundreds of nodes: only where the
        // evaluation alone makes the cut plausible.
        let slack = Score::from_discs_f64(probcut_search::<REVERSED>(PROBCUT_SLACK_EMPTIES).1);
        if high <= Discs(64).to_score()
            && estimate >= high - slack
            && self.mid_nws(*board, depth, high - Score::from_centi(1)) >= high
        {
            return Some(alpha + 1);
        }
        if low >= Discs(-64).to_score()
            && estimate <= low + slack
            && self.mid_nws(*board, depth, low) <= low
        {
            return Some(alpha);
        }
        None
    }
}
