//! Probable cutoffs (ProbCut, as in Edax and Egaroucid) and the selective
//! levels of the passes that use them before the exact one.

use super::Solver;
use super::settings::SHALLOW;
use crate::eval::{DISC, Evaluator};
use crate::game::{Board, Othello};

/// From this many empties a solve runs selective passes first.
pub(super) const SELECTIVE_EMPTIES: u32 = 22;

/// The confidence of each selective pass, in standard errors of the shallow
/// search (from about 79% to 99% of cuts right). Many cheap, bold passes
/// leave the table full of good moves and near bounds for the surer ones:
/// against two passes (1.5, 2.5), 12 WTHOR positions of 26 empties need 6%
/// fewer nodes, 8 of 28 empties 10%, FFO #53 29%; three (1.1, 1.5, 2.0) or
/// four (1.0, 1.5, 2.0, 2.5) passes did less. The passes take 29% of FFO
/// #55's nodes, 35% of #54's, 52% of #53's (the 1.8 pass the most), yet
/// each pays for itself: #55 without the 2.2 pass +0.5% nodes, without the
/// 1.8 pass +1.7%. Checked again with the re-tuned [`LARGE_ORDER`](super::settings::LARGE_ORDER) (nodes,
/// FFO #53 and #54): every z times 0.9 +5.8% and -4.2%, times 1.1 +19% and
/// +2.7%; passes at 1.65 and 2.0 added, #53 +2.5%; the 1.8 pass left out,
/// #53 +4.4%. Later, on FFO #45, #48, #49, #51 (nodes): (1.1, 1.5, 2.2)
/// +2.6%, (0.8, 1.5, 2.2) +1.3%, (1.5, 2.2) +6.6%, a 2.6 pass added or
/// (0.6, 1.0, 1.4, 1.8, 2.2) -0.0% and -0.1%; none clearly faster (one run
/// each).
pub(super) const SELECTIVE_Z: [f64; 5] = [0.8, 1.1, 1.5, 1.8, 2.2];

/// Nodes with at least this many empties try a probable cutoff: every node
/// that uses the table (FFO #45, #48, #49, #51: 18% fewer nodes than from
/// 12 empties; 8, 9, 10 and 14 empties lie on the same slope). Selective
/// passes run in large solves only, where the table, and so the probable
/// cutoffs, start at 8 empties ([`LARGE_SHALLOW`](super::settings::LARGE_SHALLOW)); from 9 or 10 there, FFO
/// #45, #48, #49, #51 +2.8% and +7.2% nodes, #53 +0.2% and +7.5%.
pub(super) const PROBCUT_EMPTIES: u32 = SHALLOW + 1;

/// The shallow search of a probable cutoff at `empties` empties: its depth
/// and its standard error in discs against the exact score, under reversed
/// rules if `REVERSED` (`calibrate_probcut` below: 80 WTHOR positions for
/// each even count of empties, 8 to 24). Deeper searches err less but cost
/// more; two moves deep from 24 empties too: FFO #53 +2.7% nodes. Two
/// moves deep from 16 empties (error as at 18): FFO #53 -1.5%, #54 the
/// same, #50 -0.4%, #52 +3.2%, #45, #48, #49, #51 +1.0%; from 14: #53 +7.4%.
/// Measured again with the committed weights (trained after these errors
/// were measured): 8.5-10.0 at 8-10 empties and 8.7-8.9 at 12-16 as here,
/// 7.1-7.7 at 18-22 (two moves deep) and 6.0 at 24 (four deep). With 7.4
/// and 6.0 in place of 7.7 and 7.2: FFO #45, #48, #49, #51 +1.1% nodes,
/// #53 +1.2%; the errors here stay.
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
        let margin = (z * sigma * f64::from(DISC)) as i32;
        let high = (alpha + 1) * DISC + margin;
        let low = alpha * DISC - margin;
        let estimate = self.eval.evaluate(&Othello(*board));
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
        let slack = (probcut_search::<REVERSED>(PROBCUT_SLACK_EMPTIES).1 * f64::from(DISC)) as i32;
        if high <= 64 * DISC
            && estimate >= high - slack
            && self.mid_nws(*board, depth, high - 1, false) >= high
        {
            return Some(alpha + 1);
        }
        if low >= -64 * DISC
            && estimate <= low + slack
            && self.mid_nws(*board, depth, low, false) <= low
        {
            return Some(alpha);
        }
        None
    }
}
