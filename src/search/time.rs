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

/// About how long the solver takes on a position of `empties` empties from
/// a game (not a composed problem), on one core: 0.15 s at 20 empties,
/// 1.7 times more for each empty more. A timed search solves only when that
/// fits twice in the time left; otherwise it keeps deepening selectively.
pub fn solve_estimate(empties: u32) -> Duration {
    Duration::from_secs_f64(0.15 * 1.7f64.powi(empties as i32 - 20))
}

/// What one of the side's moves is planned to cost, in shares of the clock:
/// a midgame move one, a move of the turn into the endgame (the last
/// [`TURN_EMPTIES`] empties before the solve, where the games between
/// engines are decided) [`TURN`], and the exact solve [`SOLVE`]. The moves
/// after the solve cost nothing: the table holds their answers.
const MIDGAME: f64 = 1.0;
/// See [`MIDGAME`].
const TURN: f64 = 1.5;
/// See [`MIDGAME`].
const TURN_EMPTIES: u32 = 8;
/// See [`MIDGAME`].
const SOLVE: f64 = 3.0;

/// The empties a clock search plans to solve from: at least this many...
const FIRST_SOLVE: u32 = 12;
/// ...and at most this many.
const LAST_SOLVE: u32 = 34;

/// The share of the time left at the solve that the solve may take: it
/// is the last move that costs anything.
const SOLVE_CEILING: f64 = 0.75;

/// The plan of the side's moves from `empties` on, solving at `solve_at`
/// and stopping at the next time control: this move's weight and all of
/// them together.
fn plan(empties: u32, solve_at: u32, moves_to_go: Option<u32>) -> (f64, f64) {
    let mut first = None;
    let mut total = 0.0;
    let mut e = empties;
    for made in 0.. {
        if moves_to_go.is_some_and(|to_go| made >= to_go.max(1)) {
            break;
        }
        let weight = if e <= solve_at {
            SOLVE
        } else if e <= solve_at + TURN_EMPTIES {
            TURN
        } else {
            MIDGAME
        };
        first.get_or_insert(weight);
        total += weight;
        if e <= solve_at || e <= 2 {
            break;
        }
        e -= 2;
    }
    (first.unwrap_or(SOLVE), total)
}

/// The empties to solve from on this clock: the most whose solve fits, by
/// [`solve_estimate`], in what the plan leaves for it (with the margin the
/// search asks before it starts a solve).
fn solve_point(usable: Duration, empties: u32, moves_to_go: Option<u32>) -> u32 {
    (FIRST_SOLVE..=LAST_SOLVE.min(empties.max(FIRST_SOLVE)))
        .rev()
        .find(|&at| {
            let (_, total) = plan(empties, at, moves_to_go);
            let there = usable.mul_f64(SOLVE / total);
            solve_estimate(at) * 2 <= there.mul_f64(SOLVE_CEILING)
        })
        .unwrap_or(FIRST_SOLVE)
}

/// A clock search: this move's part of the remaining time by the plan of
/// the side's moves to the end (or to the next time control): midgame
/// moves one share, the turn into the endgame more, the exact solve the
/// most, the moves after it nothing ([`MIDGAME`]); plus three quarters of
/// the increment. The hard limit allows three times that, never more than
/// half the remaining time (three quarters at the solve, the last move
/// that costs anything; all of it on the last move there is).
pub fn for_clock(clock: Clock, empties: u32, overhead: Duration) -> Budget {
    let usable = usable(clock.remaining, overhead);
    let solve_at = solve_point(usable, empties, clock.moves_to_go);
    let (now, total) = plan(empties, solve_at, clock.moves_to_go);
    let share = usable.mul_f64(now / total) + clock.increment * 3 / 4;
    let last = empties <= 2 || clock.moves_to_go == Some(1);
    let ceiling = if last {
        usable
    } else if empties <= solve_at {
        usable.mul_f64(SOLVE_CEILING)
    } else {
        usable / 2
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

    fn clock(remaining: u64) -> Clock {
        Clock {
            remaining: ms(remaining),
            increment: ms(0),
            moves_to_go: None,
        }
    }

    /// The plan weighs the side's moves: the turn into the endgame more than
    /// the midgame, the solve most, nothing after it.
    #[test]
    fn the_plan_weighs_the_turn_and_the_solve() {
        // From 40 empties, solving at 20: moves at 40..30 (6) midgame, 28..22
        // (4) the turn, 20 the solve.
        assert_eq!(
            plan(40, 20, None),
            (MIDGAME, 6.0 * MIDGAME + 4.0 * TURN + SOLVE)
        );
        assert_eq!(plan(24, 20, None), (TURN, 2.0 * TURN + SOLVE));
        assert_eq!(plan(20, 20, None), (SOLVE, SOLVE));
        // The next time control ends the plan.
        assert_eq!(plan(40, 20, Some(2)), (MIDGAME, 2.0 * MIDGAME));
        assert_eq!(plan(40, 20, Some(0)), (MIDGAME, MIDGAME));
    }

    /// A longer clock solves from more empties; every clock from some.
    #[test]
    fn the_solve_point_grows_with_the_clock() {
        let at = |secs: u64| solve_point(Duration::from_secs(secs), 50, None);
        let points = [at(0), at(1), at(4), at(60), at(3_600)];
        assert!(points.windows(2).all(|w| w[0] <= w[1]), "{points:?}");
        assert_eq!(points[0], FIRST_SOLVE);
        assert!((18..=22).contains(&at(4)), "{points:?}");
        assert!(at(60) >= 24, "{points:?}");
        assert_eq!(points[4], LAST_SOLVE);
        // Never beyond the empties there are.
        assert!(solve_point(Duration::from_secs(60), 16, None) <= 16);
    }

    /// A whole game on a clock, each move taking its soft limit and the
    /// solve its estimate, the moves after it nothing: most of the clock is
    /// used, never more than all of it, and the moves at the turn get more
    /// than the first ones.
    #[test]
    fn a_game_uses_its_clock() {
        for (total, least) in [(1_000, 0.75), (4_000, 0.75), (60_000, 0.75)] {
            let mut left = ms(total);
            let mut shares = Vec::new();
            let mut empties = 50;
            while empties > 0 {
                let clock = Clock {
                    remaining: left,
                    ..clock(0)
                };
                let b = for_clock(clock, empties, ms(10));
                let solve = solve_estimate(empties);
                let cost = if empties <= CHEAP_EMPTIES || solve * 2 <= b.hard {
                    solve.min(b.hard)
                } else {
                    b.soft
                };
                assert!(cost <= left, "{total}: {empties} {b:?} {left:?}");
                shares.push((empties, cost));
                left -= cost;
                if cost == solve.min(b.hard) {
                    break;
                }
                empties -= 2;
            }
            let used = 1.0 - left.as_secs_f64() / ms(total).as_secs_f64();
            assert!(used >= least, "{total} ms: used {used:.2}: {shares:?}");
            let before_solve = &shares[..shares.len() - 1];
            let most = before_solve.iter().map(|s| s.1).max().unwrap();
            assert!(most > shares[0].1.mul_f64(1.3), "{total}: {shares:?}");
        }
    }

    /// Solving from so few empties takes no time worth planning.
    const CHEAP_EMPTIES: u32 = 8;

    #[test]
    fn the_last_move_and_the_solve_may_use_more() {
        let b = for_clock(clock(60_010), 60, ms(10));
        assert!(b.hard <= ms(30_000) && b.soft < b.hard, "{b:?}");
        // At the solve, three quarters of the clock; on the last move all.
        let b = for_clock(clock(60_010), 12, ms(10));
        assert_eq!(b.hard, ms(45_000));
        let b = for_clock(clock(60_010), 1, ms(10));
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
        let (plain, more) = (for_clock(base, 40, ms(10)), for_clock(with_inc, 40, ms(10)));
        assert_eq!(more.soft, plain.soft + ms(300));
    }
}
