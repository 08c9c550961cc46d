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

#[cfg(target_arch = "x86_64")]
use crate::cpu::Fast;
use crate::cpu::{Avx512, Isa, Portable, with_isa};
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
    match Avx512::detect() {
        Some(avx512) => count(avx512, state, depth, rule),
        None => with_isa!(isa => count(isa, state, depth, rule)),
    }
}

/// [`perft`] with the instruction set `isa`. The state goes by value: the
/// compiler passes it in registers then, not through memory.
#[inline(always)]
fn count<G: Game, I: Isa>(isa: I, state: &G, depth: u32, rule: PassRule) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx512) = isa.avx512() {
        // SAFETY: an `Avx512` exists only on a CPU with these features.
        return unsafe { count_avx512(avx512, *state, depth, rule) };
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(fast) = isa.fast() {
        // SAFETY: a `Fast` exists only on a CPU with these features.
        return unsafe { count_fast(fast, *state, depth, rule) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
    count_portable(*state, depth, rule)
}

/// [`perft`] compiled with the fast kernels' features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn count_fast<G: Game>(isa: Fast, state: G, depth: u32, rule: PassRule) -> u64 {
    expand(isa, &state, depth, rule, |child, d| {
        count(isa, child, d, rule)
    })
}

/// [`perft`] compiled with AVX-512 F and VL too (which merge the kernels'
/// logic operations three at a time).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512vl")]
fn count_avx512<G: Game>(isa: Avx512, state: G, depth: u32, rule: PassRule) -> u64 {
    expand(isa, &state, depth, rule, |child, d| {
        count(isa, child, d, rule)
    })
}

/// [`perft`] compiled for the build floor.
fn count_portable<G: Game>(state: G, depth: u32, rule: PassRule) -> u64 {
    expand(Portable, &state, depth, rule, |child, d| {
        count(Portable, child, d, rule)
    })
}

/// Subtrees at least this deep check the stop flag before they start; smaller
/// ones run the plain counter, which stays free of the check.
const STOP_CHECK_DEPTH: u32 = 6;

/// [`perft`] that gives up when `stop` is set; the count is then partial, and the
/// caller tells by the flag.
pub fn perft_until<G: Game>(state: &G, depth: u32, rule: PassRule, stop: &AtomicBool) -> u64 {
    match Avx512::detect() {
        Some(avx512) => count_until(avx512, state, depth, rule, stop),
        None => with_isa!(isa => count_until(isa, state, depth, rule, stop)),
    }
}

/// [`perft_until`] with the instruction set `isa` for the subtrees; the few
/// nodes near the root, where the flag is checked, use the portable kernels
/// (the fast ones are inlined only into the fast copies).
fn count_until<G: Game, I: Isa>(
    isa: I,
    state: &G,
    depth: u32,
    rule: PassRule,
    stop: &AtomicBool,
) -> u64 {
    if depth < STOP_CHECK_DEPTH {
        return count(isa, state, depth, rule);
    }
    if stop.load(Ordering::Relaxed) {
        return 0;
    }
    expand(Portable, state, depth, rule, |child, d| {
        count_until(isa, child, d, rule, stop)
    })
}

/// One perft node: leaves, game over, the pass conventions and bulk counting
/// of the last ply; `recurse` counts a child at a given depth.
#[inline(always)]
fn expand<G: Game, I: Isa>(
    isa: I,
    state: &G,
    depth: u32,
    rule: PassRule,
    recurse: impl Fn(&G, u32) -> u64,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = state.legal_moves_with(isa);
    let count = moves.len() as u64;
    if count == 0 {
        return 1; // the game is over before the horizon
    }
    if rule == PassRule::Free
        && count == 1
        && let Some(only) = moves.clone().next()
        && Some(only) == G::pass_move()
    {
        return recurse(&state.play_unchecked_with(isa, only), depth);
    }
    if depth == 1 {
        return count;
    }
    // A plain loop: an iterator adaptor left out of line would be compiled
    // without the fast copy's features.
    let mut leaves = 0;
    for mv in moves {
        leaves += recurse(&state.play_unchecked_with(isa, mv), depth - 1);
    }
    leaves
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

    /// Both copies of the counter, called directly (the dispatch would
    /// pick only one), give the reference counts, for both rules of passes
    /// and both Othello variants.
    #[test]
    fn portable_and_fast_copies_count_alike() {
        let fast = crate::cpu::Fast::detect();
        let avx512 = Avx512::detect();
        for rule in [PassRule::Ply, PassRule::Free] {
            let start = StandardOthello::start();
            assert_eq!(count(Portable, &start, 8, rule), PLY[7]);
            if let Some(fast) = fast {
                assert_eq!(count(fast, &start, 8, rule), PLY[7]);
            }
            if let Some(avx512) = avx512 {
                assert_eq!(count(avx512, &start, 8, rule), PLY[7]);
            }
            let reversed = ReversedOthello::start();
            let expected = if rule == PassRule::Ply {
                PLY[8]
            } else {
                FREE_9
            };
            assert_eq!(count(Portable, &reversed, 9, rule), expected);
            if let Some(fast) = fast {
                assert_eq!(count(fast, &reversed, 9, rule), expected);
            }
            if let Some(avx512) = avx512 {
                assert_eq!(count(avx512, &reversed, 9, rule), expected);
            }
        }
        let stop = AtomicBool::new(false);
        let start = StandardOthello::start();
        assert_eq!(
            count_until(Portable, &start, 8, PassRule::Ply, &stop),
            PLY[7]
        );
        assert_eq!(
            crate::cpu::portable_only(|| perft(&start, 8, PassRule::Ply)),
            PLY[7]
        );
    }

    #[test]
    fn tictactoe_counts() {
        let expected = [9, 72, 504, 3_024, 15_120, 56_160, 154_944, 255_168, 255_168];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&TicTacToe::start(), d as u32 + 1, PassRule::Ply), n);
        }
    }
}
