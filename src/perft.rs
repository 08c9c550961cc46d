//! Perft: the number of leaves of the game tree to a fixed depth, the field's check
//! of move generation (exact counts) and its benchmark (leaves per second).
//!
//! Two pass conventions exist: [`PassRule::Ply`]
//! (Aart Bik's; a pass uses one ply) and [`PassRule::Free`] (Egaroucid's and Neural
//! Reversi's; a pass uses none). In both a finished game is one leaf whatever the
//! depth left. The last ply is counted in bulk: the legal moves are counted, not
//! played.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::{Game, UnknownName};

/// How a pass counts against the depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PassRule {
    /// A pass is a move and uses one ply (the common reference counts).
    #[default]
    Ply,
    /// A pass uses no ply.
    Free,
}

impl FromStr for PassRule {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<PassRule, UnknownName> {
        match s.to_ascii_lowercase().as_str() {
            "ply" => Ok(PassRule::Ply),
            "free" => Ok(PassRule::Free),
            _ => Err(UnknownName::new("pass rule", s, "ply or free")),
        }
    }
}

impl fmt::Display for PassRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PassRule::Ply => "ply",
            PassRule::Free => "free",
        })
    }
}

/// Leaves of the game tree below `state` at `depth` plies.
pub fn perft<G: Game>(state: &G, depth: u32, rule: PassRule) -> u64 {
    expand(state, depth, rule, |child, d| perft(child, d, rule))
}

/// Subtrees at least this deep check the stop flag before they start; smaller
/// ones run the plain counter, which stays free of the check.
const STOP_CHECK_DEPTH: u32 = 6;

/// [`perft`] that gives up when `stop` is set; the count is then partial, and the
/// caller tells by the flag.
pub fn perft_until<G: Game>(state: &G, depth: u32, rule: PassRule, stop: &AtomicBool) -> u64 {
    if depth < STOP_CHECK_DEPTH {
        return perft(state, depth, rule);
    }
    if stop.load(Ordering::Relaxed) {
        return 0;
    }
    expand(state, depth, rule, |child, d| {
        perft_until(child, d, rule, stop)
    })
}

/// One perft node: leaves, game over, the pass conventions and bulk counting
/// of the last ply; `recurse` counts a child at a given depth.
#[inline(always)]
fn expand<G: Game>(state: &G, depth: u32, rule: PassRule, recurse: impl Fn(&G, u32) -> u64) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = state.legal_moves();
    let count = moves.len() as u64;
    if count == 0 {
        return 1; // the game is over before the horizon
    }
    if rule == PassRule::Free
        && count == 1
        && let Some(only) = moves.clone().next()
        && Some(only) == G::pass_move()
    {
        return recurse(&state.play_unchecked(only), depth);
    }
    if depth == 1 {
        return count;
    }
    moves
        .map(|mv| recurse(&state.play_unchecked(mv), depth - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{ReversedOthello, StandardOthello, TicTacToe};

    const PLY: [u64; 9] = [4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288];
    const FREE_9: u64 = 3_005_320;

    #[test]
    fn othello_start_both_conventions() {
        let start = StandardOthello::start();
        for (d, &n) in PLY.iter().enumerate().take(8) {
            assert_eq!(perft(&start, d as u32 + 1, PassRule::Ply), n);
            assert_eq!(perft(&start, d as u32 + 1, PassRule::Free), n);
        }
    }

    #[test]
    fn depth_nine_shows_the_pass_conventions_differ() {
        let start = ReversedOthello::start();
        assert_eq!(perft(&start, 9, PassRule::Ply), PLY[8]);
        assert_eq!(perft(&start, 9, PassRule::Free), FREE_9);
    }

    #[test]
    fn tictactoe_counts() {
        let expected = [9, 72, 504, 3_024, 15_120, 56_160, 154_944, 255_168, 255_168];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&TicTacToe::start(), d as u32 + 1, PassRule::Ply), n);
        }
    }
}
