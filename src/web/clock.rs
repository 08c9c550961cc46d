//! The game clock of `orca web`: each timed side starts with the same time
//! and gains an increment after each of its moves; the side whose time runs
//! out loses. Orca's side is always timed (it plays on its clock instead of
//! a fixed time a move); a person's only when asked.
//!
//! The clock runs for the side to move while the board shows the end of
//! the line and the game goes on; going back over the game stops it.

use std::time::{Duration, Instant};

use crate::game::Color;
use crate::session::Ply;

/// A time control: the time each side starts with and the time added after
/// each of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Each side's time at the start.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Whether a person's moves are timed too (else only Orca's).
    pub person: bool,
}

/// Which side's clock runs, since when, and how long the line was then.
#[derive(Clone, Copy, Debug)]
struct Running {
    color: Color,
    since: Instant,
    plies: usize,
}

/// Both sides' clocks under one time control.
#[derive(Clone, Debug)]
pub struct Clocks {
    control: TimeControl,
    /// The time left to black and to white when their clocks last stopped.
    left: [Duration; 2],
    running: Option<Running>,
    /// The side whose time ran out, once it has.
    flagged: Option<Color>,
}

fn index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Clocks {
    /// Both clocks full, neither running.
    pub fn new(control: TimeControl) -> Clocks {
        Clocks {
            control,
            left: [control.base; 2],
            running: None,
            flagged: None,
        }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Stops the running clock at `now`, charging its side the time since
    /// it started; a side that played a move on the `line` meanwhile gains
    /// the increment, a side whose time ran out loses.
    pub fn stop(&mut self, now: Instant, line: &[Ply]) {
        let Some(running) = self.running.take() else {
            return;
        };
        let slot = &mut self.left[index(running.color)];
        *slot = slot.saturating_sub(now.saturating_duration_since(running.since));
        if slot.is_zero() {
            self.flagged = Some(running.color);
        } else if line
            .get(running.plies)
            .is_some_and(|ply| ply.color == running.color)
        {
            *slot += self.control.increment;
        }
    }

    /// Starts `color`'s clock at `now`, the line being `plies` moves long
    /// (a move after them earns the increment). Not once a side lost on time.
    pub fn start(&mut self, color: Color, now: Instant, plies: usize) {
        if self.flagged.is_none() {
            self.running = Some(Running {
                color,
                since: now,
                plies,
            });
        }
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|r| r.color)
    }

    /// `color`'s time left at `now`.
    pub fn left(&self, color: Color, now: Instant) -> Duration {
        let left = self.left[index(color)];
        match self.running {
            Some(r) if r.color == color => {
                left.saturating_sub(now.saturating_duration_since(r.since))
            }
            _ => left,
        }
    }

    /// Whether the running side's time is out at `now`; if so its clock
    /// stops and it has lost.
    pub fn check(&mut self, now: Instant) -> bool {
        match self.running {
            Some(r) if self.left(r.color, now).is_zero() => {
                self.left[index(r.color)] = Duration::ZERO;
                self.running = None;
                self.flagged = Some(r.color);
                true
            }
            _ => false,
        }
    }

    /// The side whose time ran out.
    pub fn flagged(&self) -> Option<Color> {
        self.flagged
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;
    use crate::session::{Seats, Session};

    const CONTROL: TimeControl = TimeControl {
        base: Duration::from_secs(10),
        increment: Duration::from_secs(2),
        person: true,
    };

    #[test]
    fn a_move_costs_its_time_and_earns_the_increment() {
        let t0 = Instant::now();
        let mut session = Session::new(Variant::Othello, Seats::PERSON_BLACK);
        let mut clocks = Clocks::new(CONTROL);
        clocks.start(Color::Black, t0, 0);
        assert_eq!(
            clocks.left(Color::Black, t0 + Duration::from_secs(3)),
            Duration::from_secs(7)
        );
        session.play_person("f5").unwrap();
        clocks.stop(t0 + Duration::from_secs(3), session.line());
        // 10 - 3 + 2; white's untouched.
        assert_eq!(
            clocks.left(Color::Black, t0 + Duration::from_secs(99)),
            Duration::from_secs(9)
        );
        assert_eq!(clocks.left(Color::White, t0), Duration::from_secs(10));
        assert_eq!(clocks.running(), None);
    }

    #[test]
    fn looking_back_costs_time_but_earns_nothing() {
        let t0 = Instant::now();
        let session = Session::new(Variant::Othello, Seats::PERSON_BLACK);
        let mut clocks = Clocks::new(CONTROL);
        clocks.start(Color::Black, t0, 0);
        clocks.stop(t0 + Duration::from_secs(4), session.line());
        assert_eq!(clocks.left(Color::Black, t0), Duration::from_secs(6));
        assert_eq!(clocks.flagged(), None);
    }

    #[test]
    fn the_side_whose_time_runs_out_loses_and_no_clock_starts_again() {
        let t0 = Instant::now();
        let session = Session::new(Variant::Othello, Seats::PERSON_BLACK);
        let mut clocks = Clocks::new(CONTROL);
        clocks.start(Color::Black, t0, 0);
        assert!(!clocks.check(t0 + Duration::from_secs(9)));
        assert!(clocks.check(t0 + Duration::from_secs(10)));
        assert_eq!(clocks.flagged(), Some(Color::Black));
        assert_eq!(clocks.left(Color::Black, t0), Duration::ZERO);
        clocks.start(Color::White, t0, 0);
        assert_eq!(clocks.running(), None);

        // Also when the time is only found out at the stop.
        let mut clocks = Clocks::new(CONTROL);
        clocks.start(Color::White, t0, 0);
        clocks.stop(t0 + Duration::from_secs(11), session.line());
        assert_eq!(clocks.flagged(), Some(Color::White));
    }
}
