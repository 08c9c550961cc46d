//! What the engine tells its front end: iterations, notes, book moves and
//! exactly one [`Report::Done`] per `go`, through a [`Reporter`] callback.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::game::AnyMove;
use crate::search::Iteration;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// Play this move.
    Move(AnyMove),
    /// No legal placement: pass.
    Pass,
    /// The game is over: there is no move.
    None,
}

/// What one finished iteration found, in protocol-neutral form: the moves of
/// the principal variation as moves of whichever game is played.
pub type SearchInfo = Iteration<AnyMove>;

pub(super) fn search_info<M: Copy + Into<AnyMove>>(it: &Iteration<M>) -> SearchInfo {
    Iteration {
        depth: it.depth,
        seldepth: it.seldepth,
        score: it.score,
        exact: it.exact,
        selectivity: it.selectivity,
        nodes: it.nodes,
        elapsed: it.elapsed,
        pv: it.pv.iter().map(|&mv| mv.into()).collect(),
        lines: it
            .lines
            .iter()
            .map(|line| crate::search::PvLine {
                score: line.score,
                pv: line.pv.iter().map(|&mv| mv.into()).collect(),
            })
            .collect(),
    }
}

/// The report of the move a level chose, line `pick` of `info`'s lines:
/// its score and variation in front, and of the lines as many as were asked
/// for (`shown`; none for one, a plain search's report), the chosen one
/// first. So the last report before the answer describes the move played.
pub(super) fn played_line(info: &SearchInfo, pick: usize, shown: usize) -> SearchInfo {
    let Some(chosen) = info.lines.get(pick) else {
        return info.clone();
    };
    let lines = if shown > 1 {
        let others = info
            .lines
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != pick)
            .map(|(_, line)| line.clone());
        std::iter::once(chosen.clone())
            .chain(others)
            .take(shown)
            .collect()
    } else {
        Vec::new()
    };
    Iteration {
        score: chosen.score,
        pv: chosen.pv.clone(),
        lines,
        ..info.clone()
    }
}

/// The end of one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchDone {
    /// The move to play.
    pub best: BestMove,
    /// The last finished iteration, if any.
    pub info: Option<SearchInfo>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time since the `go` was read.
    pub elapsed: Duration,
}

/// What the worker tells the front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// An iteration finished.
    Info(SearchInfo),
    /// A remark for the user (`info string` in UGI).
    Note(String),
    /// The `go` is answered from the opening book (before its `Done`).
    Book(BookNote),
    /// The search of a `go` ended; exactly one per `go`.
    Done(SearchDone),
    /// Perft finished one depth.
    Perft {
        /// Depth counted.
        depth: u32,
        /// Leaves at that depth.
        leaves: u64,
        /// Time taken.
        elapsed: Duration,
    },
    /// Perft is over (finished or stopped).
    PerftDone {
        /// Leaves over all depths counted.
        total: u64,
        /// Whether `stop` cut it short.
        stopped: bool,
    },
}

/// A move the opening book chose: written `book f5 value 1 depth 16`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookNote {
    /// The move.
    pub mv: AnyMove,
    /// The book's value in whole discs, for the side to move.
    pub value: i32,
    /// The depth of the search that valued it.
    pub depth: u8,
}

impl fmt::Display for BookNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "book {} value {} depth {}",
            self.mv, self.value, self.depth
        )
    }
}

/// The callback the worker reports through.
pub type Reporter = Arc<dyn Fn(Report) + Send + Sync>;
