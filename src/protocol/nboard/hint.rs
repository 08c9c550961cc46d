//! NBoard's `hint N`: a value for each of the best N moves, deepened step by
//! step, without a multi-PV search in the engine.
//!
//! Every legal move is scored by searching the position after it through the
//! same engine API `go` uses (its score negated: the opponent moves there; not
//! negated after a forced pass). Replies without an alternative (a pass, a
//! single legal move) are played before that search, so that a line whose end
//! is forced is scored exactly at once, whoever moves first: a pass root too.
//! All moves are searched to one depth, then the best N are reported as
//! `search` lines, then everything one ply deeper, up to the `set depth` limit
//! or until every score is exact. This module only plans the searches and
//! formats what they found; the session runs them.

use crate::engine::SearchDone;
use crate::eval::DISC;
use crate::game::{AnyMove, AnyPosition, Color};

use super::{format_eval, format_pv};

/// What a move was found to be worth, from the side to move at the root.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Found {
    /// Score in centi-discs for the side to move at the root.
    score: i32,
    /// Plies searched from the root.
    depth: u32,
    /// The score is the result of perfect play.
    exact: bool,
    /// The search's selectivity in percent (100: full width).
    selectivity: u8,
    /// Principal variation from the root.
    pv: Vec<AnyMove>,
}

/// One legal move of the root and where its search goes on.
#[derive(Clone, Debug)]
struct Candidate {
    /// The root move, then the moves without alternative that follow it.
    moves: Vec<AnyMove>,
    /// Plies from the root to `child`: the root move and the forced moves
    /// after it, passes not counted (as the search counts them).
    plies: u32,
    /// The position searched: after `moves`.
    child: AnyPosition,
    /// The side to move in `child` is the root's (the opponent had to pass).
    same_side: bool,
    /// The deepest result so far.
    found: Option<Found>,
}

/// What the session should do next for a hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Search this position to this depth, then hand the result to
    /// [`Hint::record`].
    Search {
        /// The position after a candidate move.
        position: AnyPosition,
        /// Depth of the search below it.
        depth: u32,
    },
    /// The hint is complete.
    Finished,
}

/// A running `hint`.
#[derive(Clone, Debug)]
pub struct Hint {
    wanted: usize,
    root_color: Color,
    candidates: Vec<Candidate>,
    child_depth: u32,
    max_child_depth: u32,
    cursor: usize,
    nodes: u64,
}

impl Hint {
    /// A hint for the best `wanted` moves of `root`, searched to `max_depth`
    /// plies from the root. `None` when the game is over: there is no move.
    pub fn new(root: AnyPosition, wanted: u32, max_depth: u32) -> Option<Hint> {
        if root.is_over() {
            return None;
        }
        let root_color = root.to_move();
        let candidates = root
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let mut child = root.play(mv).expect("a legal move plays");
                let mut moves = vec![mv];
                let mut plies = 1;
                // A reply without alternative is no choice: play it.
                while !child.is_over() {
                    let mut legal = child.legal_moves();
                    if legal.len() != 1 {
                        break;
                    }
                    let forced = legal.pop().expect("one move");
                    child = child.play(forced).expect("a legal move plays");
                    plies += u32::from(!forced.is_pass());
                    moves.push(forced);
                }
                let same_side = child.to_move() == root_color;
                let found = child.black_score().map(|black| Found {
                    score: DISC
                        * if root_color == Color::Black {
                            black
                        } else {
                            -black
                        },
                    depth: moves.len() as u32,
                    exact: true,
                    selectivity: 100,
                    pv: moves.clone(),
                });
                Candidate {
                    moves,
                    plies,
                    child,
                    same_side,
                    found,
                }
            })
            .collect();
        Some(Hint {
            wanted: wanted.max(1) as usize,
            root_color,
            candidates,
            child_depth: 1,
            max_child_depth: max_depth.saturating_sub(1).max(1),
            cursor: 0,
            nodes: 0,
        })
    }

    /// The `search` lines completed since the last call, and the next step.
    pub fn next_step(&mut self) -> (Vec<String>, Step) {
        let mut lines = Vec::new();
        loop {
            while let Some(candidate) = self.candidates.get(self.cursor) {
                if candidate.found.as_ref().is_some_and(|f| f.exact) {
                    self.cursor += 1;
                    continue;
                }
                let step = Step::Search {
                    position: candidate.child,
                    depth: self.child_depth,
                };
                return (lines, step);
            }
            // Every move has been searched to this depth: report the best ones.
            lines.extend(self.lines());
            let all_exact = self
                .candidates
                .iter()
                .all(|c| c.found.as_ref().is_some_and(|f| f.exact));
            if all_exact || self.child_depth >= self.max_child_depth {
                return (lines, Step::Finished);
            }
            self.child_depth += 1;
            self.cursor = 0;
        }
    }

    /// The result of the search [`Hint::next_step`] asked for.
    pub fn record(&mut self, done: &SearchDone) {
        self.nodes += done.nodes;
        let Some(candidate) = self.candidates.get_mut(self.cursor) else {
            return;
        };
        self.cursor += 1;
        let Some(info) = &done.info else {
            return;
        };
        let mut pv = candidate.moves.clone();
        pv.extend_from_slice(&info.pv);
        candidate.found = Some(Found {
            score: if candidate.same_side {
                info.score
            } else {
                -info.score
            },
            depth: info.depth + candidate.plies,
            exact: info.exact,
            selectivity: info.selectivity,
            pv,
        });
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// `search <pv> <eval> 0 <depth>` for the best moves found so far.
    fn lines(&self) -> Vec<String> {
        let mut found: Vec<&Found> = self
            .candidates
            .iter()
            .filter_map(|c| c.found.as_ref())
            .collect();
        // Stable: equal scores keep the move order.
        found.sort_by_key(|f| std::cmp::Reverse(f.score));
        found
            .into_iter()
            .take(self.wanted)
            .map(|f| {
                let depth = super::depth_text(f.depth, f.exact, f.selectivity);
                format!(
                    "search {} {} 0 {depth}",
                    format_pv(self.root_color, &f.pv),
                    format_eval(f.score)
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SearchInfo;
    use crate::game::Variant;
    use std::time::Duration;

    fn done(score: i32, depth: u32, exact: bool, pv: &[&str]) -> SearchDone {
        SearchDone {
            best: crate::engine::BestMove::None,
            info: Some(SearchInfo {
                depth,
                seldepth: depth,
                selectivity: 100,
                score,
                exact,
                nodes: 10,
                elapsed: Duration::ZERO,
                pv: pv
                    .iter()
                    .map(|m| AnyMove::parse(Variant::Othello, m).unwrap())
                    .collect(),
            }),
            nodes: 10,
            elapsed: Duration::ZERO,
        }
    }

    #[test]
    fn every_move_each_depth_then_the_best_reported() {
        let root = AnyPosition::start(Variant::Othello);
        let mut hint = Hint::new(root, 2, 3).unwrap();
        // Depth 1 below each of the four moves d3 c4 f5 e6, in order.
        for (i, score) in [300, -100, 50, 200].into_iter().enumerate() {
            let (lines, step) = hint.next_step();
            assert!(lines.is_empty());
            let Step::Search { position, depth } = step else {
                panic!("a search");
            };
            assert_eq!(depth, 1);
            assert_eq!(position.to_move(), Color::White);
            assert_eq!(position.counts(), (4, 1), "after move {i}");
            hint.record(&done(score, 1, false, &["c5"]));
        }
        let (lines, step) = hint.next_step();
        // The opponent's scores are negated: c4 (-(-100)) and f5 (-50) are best.
        assert_eq!(
            lines,
            ["search C4c5 1.00 0 2", "search F5c5 -0.50 0 2"],
            "{lines:?}"
        );
        assert!(matches!(step, Step::Search { depth: 2, .. }));
        for _ in 0..4 {
            hint.record(&done(-25, 2, false, &["c5", "f5"]));
            hint.next_step();
        }
        assert_eq!(hint.nodes(), 80);
        let (_, step) = hint.next_step();
        assert_eq!(step, Step::Finished, "set depth 3 searches 2 plies below");
    }

    #[test]
    fn exact_scores_stop_deepening_and_read_100_percent() {
        let root = AnyPosition::start(Variant::Othello);
        let mut hint = Hint::new(root, 1, 30).unwrap();
        for score in [-200, 400, 0, 100] {
            let (lines, step) = hint.next_step();
            assert!(lines.is_empty());
            assert!(matches!(step, Step::Search { depth: 1, .. }));
            hint.record(&done(score, 60, true, &["c5"]));
        }
        let (lines, step) = hint.next_step();
        assert_eq!(step, Step::Finished, "nothing is left to deepen");
        assert_eq!(lines, ["search D3c5 2.00 0 100%"]);
    }

    #[test]
    fn moves_that_end_the_game_or_force_a_pass() {
        // Black's only move h8 ends the game: no search is needed.
        let over = AnyPosition::parse(
            Variant::Othello,
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO- X",
        )
        .unwrap();
        let mut hint = Hint::new(over, 3, 10).unwrap();
        let (lines, step) = hint.next_step();
        assert_eq!(step, Step::Finished);
        assert_eq!(lines, ["search H8 64.00 0 100%"]);
        assert!(Hint::new(over.play_line(["h8"]).unwrap(), 1, 4).is_none());

        // Black has a2 and h5. After a2 white's only move h5 ends the game;
        // after h5 white must pass, then black's only move a2 ends it: both
        // lines are forced to the end, so both are exact without a search.
        let forced = AnyPosition::parse(
            Variant::Othello,
            "OOOOXXXX-OOOOXXXOOOOXXXXOOOOXXXOOOOOXXO-OOXOOOOXOXOOOOOXXXXOOOOX X",
        )
        .unwrap();
        let mut hint = Hint::new(forced, 2, 4).unwrap();
        let (lines, step) = hint.next_step();
        assert_eq!(step, Step::Finished);
        assert_eq!(
            lines,
            ["search H5PAA2 10.00 0 100%", "search A2h5 -2.00 0 100%"]
        );

        // Black's a7 leaves white no move, and black then has a choice: the
        // search after a7 and the pass is black's, its score not negated.
        let pass = AnyPosition::parse(
            Variant::Othello,
            "-----OOOO---OOOO-OO-OOOOO-OOOOXOOOOXOXXOOOOXXOXO-OXXXXOOOOOOOOOO X",
        )
        .unwrap();
        let mut hint = Hint::new(pass, 1, 2).unwrap();
        let mut searched_for_black = 0;
        let lines = loop {
            let (lines, step) = hint.next_step();
            let Step::Search { position, depth } = step else {
                break lines;
            };
            assert_eq!(depth, 1);
            let score = if position.to_move() == Color::Black {
                searched_for_black += 1;
                900
            } else {
                100
            };
            hint.record(&done(score, 1, false, &[]));
        };
        assert_eq!(searched_for_black, 1);
        assert_eq!(lines, ["search A7PA 9.00 0 2"]);
    }

    /// A pass root is scored like any other: when the pass and the replies
    /// after it are forced to the end of the game, the score is exact at once
    /// (`100%`), as the other side's hint for the same game end is.
    #[test]
    fn a_forced_pass_then_a_forced_end_is_exact() {
        // Black's only disc b1 is taken by white's c1: black must pass, and
        // white's only move then wins 64-0.
        let mut squares = ['-'; 64];
        (squares[0], squares[1]) = ('O', 'X');
        let board: String = squares.iter().collect();
        let black = AnyPosition::parse(Variant::Othello, &format!("{board} X")).unwrap();
        let mut hint = Hint::new(black, 1, 8).unwrap();
        assert_eq!(
            hint.next_step(),
            (
                vec!["search PAc1 -64.00 0 100%".to_string()],
                Step::Finished
            )
        );
        let white = AnyPosition::parse(Variant::Othello, &format!("{board} O")).unwrap();
        let mut hint = Hint::new(white, 1, 8).unwrap();
        assert_eq!(
            hint.next_step(),
            (vec!["search c1 64.00 0 100%".to_string()], Step::Finished)
        );
    }
}
