//! NBoard's `hint N`: the engine's multi-PV search of the position with N
//! lines, each of its iterations written as N `search` lines, best first.
//!
//! The search is the one `go` runs (to the `set depth` limit), asked for N
//! lines ([`crate::engine::GoLimits::multipv`]): the engine values the
//! best N moves in one search, exactly once it reaches the solver. This
//! module only formats what an iteration found.

use crate::engine::SearchInfo;
use crate::game::Color;

use super::{depth_text, format_eval, format_pv};

/// The `search <pv> <eval> 0 <depth>` lines of one iteration of a hint's
/// search from a position where `to_move` moves: one per line of the
/// iteration (at most `wanted`), or its one variation when the search
/// reported a single line.
pub fn search_lines(to_move: Color, info: &SearchInfo, wanted: usize) -> Vec<String> {
    let depth = depth_text(info.depth, info.exact, info.selectivity);
    let line = |score: crate::score::Score, pv: &[crate::game::AnyMove]| {
        format!(
            "search {} {} 0 {depth}",
            format_pv(to_move, pv),
            format_eval(score)
        )
    };
    if info.lines.is_empty() {
        return vec![line(info.score, &info.pv)];
    }
    info.lines
        .iter()
        .take(wanted.max(1))
        .map(|l| line(l.score, &l.pv))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{AnyMove, Variant};
    use crate::search::PvLine;
    use std::time::Duration;

    fn moves(pv: &[&str]) -> Vec<AnyMove> {
        pv.iter()
            .map(|m| AnyMove::parse(Variant::Othello, m).unwrap())
            .collect()
    }

    use crate::score::Score;

    fn info(lines: &[(i32, &[&str])], exact: bool, selectivity: u8) -> SearchInfo {
        SearchInfo {
            depth: 7,
            seldepth: 7,
            selectivity,
            score: Score::from_centi(lines[0].0),
            exact,
            nodes: 10,
            elapsed: Duration::ZERO,
            pv: moves(lines[0].1),
            lines: lines
                .iter()
                .map(|&(score, pv)| PvLine {
                    score: Score::from_centi(score),
                    pv: moves(pv),
                })
                .collect(),
        }
    }

    #[test]
    fn one_search_line_per_line_best_first() {
        let it = info(
            &[(150, &["f5", "d6"]), (-25, &["e6", "pass", "f4"])],
            false,
            73,
        );
        assert_eq!(
            search_lines(Color::Black, &it, 2),
            ["search F5d6 1.50 0 7@73%", "search E6PAF4 -0.25 0 7@73%"]
        );
        assert_eq!(search_lines(Color::Black, &it, 1).len(), 1);
        let exact = info(&[(1800, &["g8"])], true, 100);
        assert_eq!(
            search_lines(Color::White, &exact, 3),
            ["search g8 18.00 0 100%"]
        );
        let plain = SearchInfo {
            lines: Vec::new(),
            ..exact
        };
        assert_eq!(
            search_lines(Color::White, &plain, 3),
            ["search g8 18.00 0 100%"]
        );
    }
}
