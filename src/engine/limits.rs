//! What a `go` asks for ([`GoLimits`], [`GoRequest`]) and how it becomes
//! the search's [`Limits`]: the clocks of the side to move, a move time,
//! and the short search that values a forced answer.

use std::time::{Duration, Instant};

use super::level::Level;
use crate::game::{AnyPosition, Color};
use crate::search::time::{self, Clock};
use crate::search::{Limits, Selectivity};

/// A forced answer (a pass, or the single legal move of a timed search) is
/// still given a value worth reporting: positions with at most this many
/// empty squares are solved exactly, which takes milliseconds...
pub const FORCED_SOLVE_EMPTIES: u32 = crate::search::CHEAP_SOLVE_EMPTIES;

/// ...and larger ones are searched this deep (a few milliseconds).
pub const FORCED_DEPTH: u32 = 8;

/// The node budget of that search, so that a forced answer still comes at
/// once, whatever the position.
pub const FORCED_NODES: u64 = 500_000;

/// Its time budget, for a machine too busy for the node budget to be quick.
pub const FORCED_TIME: Duration = Duration::from_millis(50);

/// p1 is the first player (black, X).
/// The limits of one `go`, as the protocols give them (times and counts).
/// p1 is the first player (black, X).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// Black's clock.
    pub p1time: Option<Duration>,
    /// White's clock.
    pub p2time: Option<Duration>,
    /// Black's increment.
    pub p1inc: Option<Duration>,
    /// White's increment.
    pub p2inc: Option<Duration>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search this long, never longer.
    pub movetime: Option<Duration>,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Search until `stop`, and answer only then.
    pub infinite: bool,
    /// Ponder: search without a clock until `ponderhit` (then search on
    /// with these limits, counted from it) or `stop` (then answer).
    pub ponder: bool,
    /// The selectivity of the Othello midgame search (an engine option, not
    /// a `go` limit: the front ends set it from their settings).
    pub selectivity: Selectivity,
    /// Search threads, likewise an engine option (0 counts as 1).
    pub threads: usize,
    /// Lines to value (multi-PV), likewise an engine option (0 counts as 1).
    pub multipv: usize,
    /// The root moves to choose from, as a set of squares (`go
    /// searchmoves`); `None`: every legal move.
    pub searchmoves: Option<u64>,
    /// A playing strength below the full one, likewise an engine option.
    pub level: Option<Level>,
    /// Answer from the opening book when it knows the position (an engine
    /// option too; never for `infinite`, which is analysis).
    pub book: bool,
    /// Book moves within this many discs of the best are played at random.
    pub book_randomness: u32,
}

impl GoLimits {
    /// The search limits for a position whose side to move is `to_move`, counted
    /// from `received` (when the `go` was read), keeping `overhead` in reserve.
    pub fn to_limits(
        &self,
        to_move: Color,
        empties: u32,
        overhead: Duration,
        received: Instant,
    ) -> Limits {
        let movetime = self.movetime.map(|t| time::for_movetime(t, overhead));
        let (remaining, increment) = match to_move {
            Color::Black => (self.p1time, self.p1inc),
            Color::White => (self.p2time, self.p2inc),
        };
        let clock = remaining.map(|r| {
            time::for_clock(
                Clock {
                    remaining: r,
                    increment: increment.unwrap_or_default(),
                    moves_to_go: self.movestogo,
                },
                empties,
                overhead,
            )
        });
        let budget = if self.infinite {
            None
        } else {
            match (movetime, clock) {
                (Some(a), Some(b)) => Some(time::Budget {
                    soft: a.soft.min(b.soft),
                    hard: a.hard.min(b.hard),
                }),
                (a, b) => a.or(b),
            }
        };
        Limits {
            start: received,
            depth: self.depth,
            nodes: self.nodes,
            budget,
            selectivity: self.selectivity,
            threads: self.threads.max(1),
            multipv: self.multipv.max(1),
            searchmoves: self.searchmoves,
            solve_early: true,
        }
    }

    /// Whether the search is bounded by a clock or a move time (then a single
    /// legal move is answered at once).
    pub(super) fn is_timed(&self) -> bool {
        !self.infinite
            && (self.movetime.is_some() || self.p1time.is_some() || self.p2time.is_some())
    }
}

#[derive(Clone, Copy, Debug)]
pub struct GoRequest {
    /// The position to search.
    pub position: AnyPosition,
    /// Its limits.
    pub limits: GoLimits,
    /// When the request was read: all deadlines count from here.
    pub received: Instant,
    /// Time kept in reserve for I/O.
    pub overhead: Duration,
}

/// The limits of the search that values a forced answer: exact when the
/// position is small, else shallow; always within [`FORCED_NODES`] and
/// [`FORCED_TIME`], and never beyond the limits the `go` itself set.
pub(super) fn forced_limits(limits: &Limits, empties: u32) -> Limits {
    let depth = if empties <= FORCED_SOLVE_EMPTIES {
        empties.max(1)
    } else {
        FORCED_DEPTH
    };
    let hard = limits
        .budget
        .map_or(FORCED_TIME, |b| b.hard.min(FORCED_TIME));
    Limits {
        start: limits.start,
        depth: Some(limits.depth.map_or(depth, |d| d.min(depth))),
        nodes: Some(limits.nodes.map_or(FORCED_NODES, |n| n.min(FORCED_NODES))),
        budget: Some(time::Budget { soft: hard, hard }),
        selectivity: limits.selectivity,
        // A few milliseconds of search: not worth starting threads for.
        threads: 1,
        ..*limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Forced answers stay within the limits of their `go`.
    #[test]
    fn forced_limits_are_short_and_within_the_go() {
        let now = Instant::now();
        let unbounded = Limits::infinite(now);
        let small = forced_limits(&unbounded, 10);
        assert_eq!((small.depth, small.nodes), (Some(10), Some(FORCED_NODES)));
        assert_eq!(small.budget.unwrap().hard, FORCED_TIME);
        assert_eq!(forced_limits(&unbounded, 40).depth, Some(FORCED_DEPTH));
        let tight = Limits {
            depth: Some(2),
            nodes: Some(100),
            budget: Some(time::Budget {
                soft: Duration::from_millis(1),
                hard: Duration::from_millis(3),
            }),
            ..unbounded
        };
        let limits = forced_limits(&tight, 10);
        assert_eq!((limits.depth, limits.nodes), (Some(2), Some(100)));
        assert_eq!(limits.budget.unwrap().hard, Duration::from_millis(3));
    }

    #[test]
    fn clock_limits_pick_the_side_to_move() {
        let limits = GoLimits {
            p1time: Some(Duration::from_secs(10)),
            p2time: Some(Duration::from_millis(100)),
            ..GoLimits::default()
        };
        let now = Instant::now();
        let black = limits.to_limits(Color::Black, 40, Duration::from_millis(10), now);
        let white = limits.to_limits(Color::White, 40, Duration::from_millis(10), now);
        assert!(black.budget.unwrap().hard > white.budget.unwrap().hard);
        assert!(white.budget.unwrap().hard <= Duration::from_millis(90));
    }
}
