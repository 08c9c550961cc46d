//! GTP clocks: from `time_settings` and `time_left` to the limits of one `go`.
//!
//! This is bookkeeping only; how much of the clock a move gets is the engine's
//! time management. `time_settings M B S` is read as the Rust match runner of
//! the field reads it (which is not quite the GTP specification, where `M B 0`
//! means no limit):
//!
//! | M | B | S | control |
//! |---|---|---|---|
//! | 0 | 0 | any | none |
//! | 0 | >0 | 0 | B seconds per move |
//! | >0 | 0 | any | sudden death: M seconds for the game |
//! | >0 | >0 | 0 | Fischer: M seconds plus B seconds after each move |
//! | any | >0 | >0 | Canadian byo-yomi: M seconds, then S moves in every B seconds |
//!
//! `time_left` says how much is left before each `genmove`, but only in whole
//! seconds, and that runner rounds up. So with a game clock Orca also keeps its
//! own: the main time plus its increments minus what its own `genmove`s cost
//! (each the time from reading the command to writing the answer, plus the move
//! overhead for the pipes on either side), and it plans with whichever of the
//! two is smaller.

use std::time::Duration;

use crate::engine::GoLimits;
use crate::game::Color;
use crate::search::time::TimeControl;

/// The three numbers of `time_settings`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeSettings {
    /// Main time.
    pub main: Duration,
    /// Byo-yomi period, or increment, or time per move (see the module table).
    pub byo_yomi: Duration,
    /// Moves per byo-yomi period; 0 for none.
    pub stones: u32,
}

/// What `time_settings` means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GtpControl {
    /// No time limit.
    Unlimited,
    /// A fixed time for every move, or a clock with an increment after each
    /// move (may be zero): the controls `orca match` sets.
    Timed(TimeControl),
    /// Main time, then periods of `stones` moves in `period`.
    ByoYomi {
        /// Time before the periods start.
        main: Duration,
        /// Length of a period.
        period: Duration,
        /// Moves to play in each period.
        stones: u32,
    },
}

impl From<TimeSettings> for GtpControl {
    fn from(s: TimeSettings) -> GtpControl {
        match (s.main.is_zero(), s.byo_yomi.is_zero(), s.stones) {
            (true, true, _) => GtpControl::Unlimited,
            (true, false, 0) => GtpControl::Timed(TimeControl::MoveTime(s.byo_yomi)),
            (false, true, _) => GtpControl::Timed(TimeControl::Clock {
                main: s.main,
                increment: Duration::ZERO,
            }),
            (false, false, 0) => GtpControl::Timed(TimeControl::Clock {
                main: s.main,
                increment: s.byo_yomi,
            }),
            (_, false, stones) => GtpControl::ByoYomi {
                main: s.main,
                period: s.byo_yomi,
                stones,
            },
        }
    }
}

/// One side's clock as Orca knows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Side {
    /// The last `time_left`: time and stones.
    reported: Option<(Duration, u32)>,
    /// Time Orca's own `genmove`s for this side took.
    spent: Duration,
    /// How many `genmove`s Orca made for this side.
    moves: u32,
}

/// Both clocks of a GTP game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GtpClock {
    control: GtpControl,
    sides: [Side; 2],
}

impl Default for GtpClock {
    fn default() -> GtpClock {
        GtpClock {
            control: GtpControl::Unlimited,
            sides: [Side::default(); 2],
        }
    }
}

fn index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl GtpClock {
    /// `time_settings`: a new control, both clocks full.
    pub fn set(&mut self, settings: TimeSettings) {
        self.control = settings.into();
        self.new_game();
    }

    /// The time control in force.
    pub fn control(&self) -> GtpControl {
        self.control
    }

    /// A new game under the same control: both clocks full.
    pub fn new_game(&mut self) {
        self.sides = [Side::default(); 2];
    }

    /// `time_left`.
    pub fn report(&mut self, color: Color, left: Duration, stones: u32) {
        self.sides[index(color)].reported = Some((left, stones));
    }

    /// Orca's `genmove` for `color` cost `elapsed` of its clock.
    pub fn charge(&mut self, color: Color, elapsed: Duration) {
        let side = &mut self.sides[index(color)];
        side.spent = side.spent.saturating_add(elapsed);
        side.moves += 1;
    }

    /// The clock limits of a move by `color`; `None` without a time control.
    pub fn limits(&self, color: Color) -> Option<GoLimits> {
        let side = self.sides[index(color)];
        let mut limits = GoLimits::default();
        let (remaining, increment) = match self.control {
            GtpControl::Unlimited => return None,
            GtpControl::Timed(TimeControl::MoveTime(per_move)) => {
                let left = side
                    .reported
                    .map_or(per_move, |(left, _)| left.min(per_move));
                limits.movetime = Some(left);
                return Some(limits);
            }
            GtpControl::Timed(TimeControl::Clock { main, increment }) => {
                let own = main
                    .saturating_add(increment.saturating_mul(side.moves))
                    .saturating_sub(side.spent);
                let left = side.reported.map_or(own, |(left, _)| left.min(own));
                (left, increment)
            }
            GtpControl::ByoYomi {
                main,
                period,
                stones,
            } => {
                let (left, to_go) = match side.reported {
                    Some((left, in_period)) if in_period > 0 => (left, Some(in_period)),
                    Some((left, _)) if !left.is_zero() => (left, None),
                    Some(_) => (period, Some(stones)),
                    None => {
                        let own = main.saturating_sub(side.spent);
                        if own.is_zero() {
                            (period, Some(stones))
                        } else {
                            (own, None)
                        }
                    }
                };
                limits.movestogo = to_go;
                (left, Duration::ZERO)
            }
        };
        let (time, inc) = (Some(remaining), Some(increment));
        match color {
            Color::Black => (limits.p1time, limits.p1inc) = (time, inc),
            Color::White => (limits.p2time, limits.p2inc) = (time, inc),
        }
        Some(limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    fn ms(millis: u64) -> Option<Duration> {
        Some(Duration::from_millis(millis))
    }

    fn clock(main: u64, byo_yomi: u64, stones: u32) -> GtpClock {
        let mut clock = GtpClock::default();
        clock.set(TimeSettings {
            main: s(main),
            byo_yomi: s(byo_yomi),
            stones,
        });
        clock
    }

    #[test]
    fn settings_read_as_the_match_runner_reads_them() {
        let control = |m, b, st| clock(m, b, st).control();
        assert_eq!(control(0, 0, 0), GtpControl::Unlimited);
        assert_eq!(control(0, 0, 5), GtpControl::Unlimited);
        assert_eq!(
            control(0, 5, 0),
            GtpControl::Timed(TimeControl::MoveTime(s(5)))
        );
        assert_eq!(
            control(60, 0, 0),
            GtpControl::Timed(TimeControl::Clock {
                main: s(60),
                increment: Duration::ZERO
            })
        );
        assert_eq!(
            control(60, 2, 0),
            GtpControl::Timed(TimeControl::Clock {
                main: s(60),
                increment: s(2)
            })
        );
        assert_eq!(
            control(60, 30, 5),
            GtpControl::ByoYomi {
                main: s(60),
                period: s(30),
                stones: 5
            }
        );
        assert_eq!(clock(0, 0, 0).limits(Color::Black), None);
    }

    #[test]
    fn per_move_time_is_a_movetime() {
        let mut c = clock(0, 3, 0);
        assert_eq!(c.limits(Color::White).unwrap().movetime, ms(3000));
        c.report(Color::White, s(2), 0);
        assert_eq!(c.limits(Color::White).unwrap().movetime, ms(2000));
    }

    #[test]
    fn fischer_plans_with_the_smaller_of_own_and_reported_clock() {
        let mut c = clock(10, 1, 0);
        let l = c.limits(Color::Black).unwrap();
        assert_eq!((l.p1time, l.p1inc, l.p2time), (ms(10_000), ms(1000), None));
        // Orca's move took 2.4 s: 10 - 2.4 + 1 = 8.6 s left, which a runner
        // rounding up reports as 9.
        c.charge(Color::Black, Duration::from_millis(2400));
        c.report(Color::Black, s(9), 0);
        assert_eq!(c.limits(Color::Black).unwrap().p1time, ms(8600));
        // A report below Orca's own count wins.
        c.report(Color::Black, s(5), 0);
        assert_eq!(c.limits(Color::Black).unwrap().p1time, ms(5000));
        // White's clock is its own.
        c.report(Color::White, s(7), 0);
        let l = c.limits(Color::White).unwrap();
        assert_eq!((l.p2time, l.p2inc, l.p1time), (ms(7000), ms(1000), None));
        // A new game fills the clocks again.
        c.new_game();
        assert_eq!(c.limits(Color::Black).unwrap().p1time, ms(10_000));
    }

    #[test]
    fn byo_yomi_periods_use_moves_to_go() {
        let mut c = clock(60, 30, 5);
        let l = c.limits(Color::White).unwrap();
        assert_eq!((l.p2time, l.movestogo), (ms(60_000), None));
        c.report(Color::White, s(12), 3);
        let l = c.limits(Color::White).unwrap();
        assert_eq!((l.p2time, l.movestogo), (ms(12_000), Some(3)));
        // Main time just ran out: a fresh period.
        c.report(Color::White, Duration::ZERO, 0);
        let l = c.limits(Color::White).unwrap();
        assert_eq!((l.p2time, l.movestogo), (ms(30_000), Some(5)));
        // Without reports, Orca's own count decides when the periods start.
        let mut c = clock(1, 30, 5);
        c.charge(Color::Black, s(2));
        let l = c.limits(Color::Black).unwrap();
        assert_eq!((l.p1time, l.movestogo), (ms(30_000), Some(5)));
    }
}
