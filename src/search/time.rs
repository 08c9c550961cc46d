//! Time management: from the limits of a `go` to two deadlines; and the
//! time controls and clocks those limits come from.
//!
//! The *soft* limit is checked between iterations of the deepening loop (do not
//! start another iteration after it); the *hard* limit aborts the search from
//! inside, checked every few thousand nodes. Both are pure functions of the
//! clock so they can be tested without a clock.

use std::fmt;
use std::time::Duration;

/// Time reserved by default for reading the `go`, writing `bestmove` and the
/// pipes between, when the user sets no `MoveOverhead`.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;

/// The two deadlines of one search, measured from the moment the `go` was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Abort the search at this point, whatever it is doing.
    pub hard: Duration,
}

/// A side's clock as the engine plans with it: what the protocols report
/// (UGI's `p1time`/`p1inc`, a GGF record's `TI` and move times).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// How long the players may think in a game: the controls `orca match` sets
/// (`movetime=100`, `60+0.5`) and that GTP's `time_settings` and NBoard's
/// GGF clock carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time for every move.
    MoveTime(Duration),
    /// A clock for the whole game, with an increment after every move.
    Clock {
        /// Time on each clock at the start.
        main: Duration,
        /// Added to the mover's clock after each of its moves.
        increment: Duration,
    },
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::MoveTime(t) => write!(f, "movetime {} ms", t.as_millis()),
            TimeControl::Clock { main, increment } => write!(
                f,
                "{} s + {} s a move",
                main.as_secs_f64(),
                increment.as_secs_f64()
            ),
        }
    }
}

/// Time that can be spent without losing on time: the clock minus the overhead,
/// or half the clock when the clock is shorter than twice the overhead.
fn usable(total: Duration, overhead: Duration) -> Duration {
    if total > overhead * 2 {
        total - overhead
    } else {
        total / 2
    }
}

/// `go movetime T`: search about exactly `T`, and never answer after it.
pub fn for_movetime(movetime: Duration, overhead: Duration) -> Budget {
    let t = usable(movetime, overhead);
    Budget { soft: t, hard: t }
}

/// A clock search: spend a share of the remaining time based on the moves the
/// side to move still has to play (at most half the empty squares, rounded up)
/// and the increment; the hard limit allows a few shares but always leaves time
/// for the moves after this one.
pub fn for_clock(clock: Clock, empties: u32, overhead: Duration) -> Budget {
    let mut moves_left = empties.div_ceil(2).max(1);
    if let Some(to_go) = clock.moves_to_go {
        moves_left = moves_left.min(to_go.max(1));
    }
    let usable = usable(clock.remaining, overhead);
    let share = usable / moves_left + clock.increment * 3 / 4;
    let ceiling = if moves_left > 1 {
        // Never stake more than half the remaining time on one move...
        usable / 2
    } else {
        // ...unless this is the last move there is to make.
        usable
    };
    let soft = share.min(ceiling);
    let hard = (share * 3).min(ceiling).max(soft);
    Budget { soft, hard }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_reserves_the_overhead() {
        assert_eq!(
            for_movetime(ms(100), ms(10)),
            Budget {
                soft: ms(90),
                hard: ms(90)
            }
        );
        // A movetime shorter than twice the overhead still gets half of it.
        assert_eq!(
            for_movetime(ms(15), ms(10)).hard,
            ms(7) + Duration::from_micros(500)
        );
        assert_eq!(for_movetime(ms(0), ms(10)).hard, ms(0));
    }

    #[test]
    fn clock_share_by_moves_left() {
        let clock = Clock {
            remaining: ms(60_010),
            increment: ms(0),
            moves_to_go: None,
        };
        // 60 empties: 30 moves to play, 2 s each, hard limit 6 s.
        let b = for_clock(clock, 60, ms(10));
        assert_eq!(b.soft, ms(2_000));
        assert_eq!(b.hard, ms(6_000));
        // Fewer empties, bigger share; never more than half the clock.
        let b = for_clock(clock, 4, ms(10));
        assert_eq!(b.soft, ms(30_000));
        assert_eq!(b.hard, ms(30_000));
        // The last move may use everything but the overhead.
        let b = for_clock(clock, 1, ms(10));
        assert_eq!(b.hard, ms(60_000));
    }

    #[test]
    fn clock_never_exceeds_the_remaining_time() {
        for remaining in [0, 1, 5, 19, 20, 21, 100, 1_000, 100_000] {
            for increment in [0, 10, 1_000, 100_000] {
                for empties in [1, 2, 10, 30, 60] {
                    for moves_to_go in [None, Some(0), Some(1), Some(40)] {
                        let clock = Clock {
                            remaining: ms(remaining),
                            increment: ms(increment),
                            moves_to_go,
                        };
                        let b = for_clock(clock, empties, ms(10));
                        assert!(b.soft <= b.hard, "{clock:?} {empties} {b:?}");
                        assert!(b.hard <= ms(remaining), "{clock:?} {empties} {b:?}");
                        if remaining > 20 {
                            assert!(b.hard <= ms(remaining - 10));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn increment_adds_to_the_share() {
        let base = Clock {
            remaining: ms(10_010),
            increment: ms(0),
            moves_to_go: Some(10),
        };
        let with_inc = Clock {
            increment: ms(400),
            ..base
        };
        assert_eq!(for_clock(base, 40, ms(10)).soft, ms(1_000));
        assert_eq!(for_clock(with_inc, 40, ms(10)).soft, ms(1_300));
    }
}
