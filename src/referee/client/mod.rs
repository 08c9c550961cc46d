//! One small client per protocol: each turns "here is the game so far, your
//! move within this time" into that protocol's lines and its answer back into
//! a move token, and reports anything else as a [`Fault`].
//!
//! The clients never judge moves: they pass on what the engine said, and the
//! referee checks it with Orca's own rules. They keep only what their protocol
//! needs to stay in step with the engine (GTP's board, which moves were sent).

pub mod gtp;
pub mod nboard;
pub mod ugi;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::process::{EngineProcess, WaitError};
use super::spec::{EngineSpec, Protocol};
use crate::game::{AnyPosition, Color, Variant};
use crate::ggf::GgfMove;
use crate::search::time::TimeControl;

/// What an engine is asked to move in.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// Where the game began (the start position, or an opening position).
    pub start: AnyPosition,
    /// Every move since `start`, opening moves and passes included, with who
    /// played it and, for the engines' moves, the time it took.
    pub moves: &'a [GgfMove],
    /// How many of `moves` the opening made (before the engines' first move).
    pub opening: usize,
    /// The position now; its side to move is the engine asked.
    pub position: AnyPosition,
    /// The time each side has.
    pub clock: ClockView,
}

/// The clocks as they stand before a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockView {
    /// Every move gets this long.
    MoveTime(Duration),
    /// Time left on each clock (black, white) and the increment.
    Clock {
        /// Black's and white's time left.
        left: [Duration; 2],
        /// Added after each move.
        increment: Duration,
    },
}

impl ClockView {
    /// The time `side` may use for its next move.
    pub fn limit(&self, side: Color) -> Duration {
        match *self {
            ClockView::MoveTime(t) => t,
            ClockView::Clock { left, .. } => left[side_index(side)],
        }
    }
}

/// 0 for black, 1 for white: the index of per-colour arrays.
pub const fn side_index(side: Color) -> usize {
    match side {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// An engine's answer to a move request.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The move as the engine wrote it (to be checked by the rules).
    pub token: String,
    /// From sending the request to reading the answer.
    pub elapsed: Duration,
    /// The engine's evaluation in discs for the side to move, if it gave one.
    pub eval: Option<f64>,
}

impl Reply {
    /// The reply, or a protocol fault when the engine's answer (`answer` names
    /// it in the message) carried no move.
    ///
    /// # Errors
    /// [`Fault::Protocol`] for an empty move.
    pub fn checked(
        token: String,
        elapsed: Duration,
        eval: Option<f64>,
        answer: &str,
    ) -> Result<Reply, Fault> {
        if token.is_empty() {
            return Err(Fault::Protocol(format!("'{answer}' without a move")));
        }
        Ok(Reply {
            token,
            elapsed,
            eval,
        })
    }
}

/// Something went wrong that is the engine's fault (or the match was stopped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No move within the time allowed.
    TimedOut(Duration),
    /// The engine exited or closed its output.
    Crashed(String),
    /// No answer to a request that is not timed by the clock.
    Silent(String),
    /// An answer the protocol does not allow, or a refusal of a legal request.
    Protocol(String),
    /// The match is being stopped: nobody's fault, nothing to record.
    Interrupted,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::TimedOut(waited) => write!(f, "no move within {} ms", waited.as_millis()),
            Fault::Crashed(detail) => write!(f, "crashed: {detail}"),
            Fault::Silent(detail) => write!(f, "silent: {detail}"),
            Fault::Protocol(detail) => write!(f, "protocol error: {detail}"),
            Fault::Interrupted => write!(f, "interrupted"),
        }
    }
}

/// An engine the referee can play games with.
pub trait Client: Send {
    /// Prepares a new game from `start` (the engine's clocks and board reset).
    ///
    /// # Errors
    /// The engine does not answer, refuses, or has exited.
    fn new_game(&mut self, start: &AnyPosition) -> Result<(), Fault>;

    /// Asks for a move; the answer must come within `allowance` of the request.
    ///
    /// # Errors
    /// [`Fault::TimedOut`] when the allowance passed, or any other fault.
    fn best_move(&mut self, turn: &Turn<'_>, allowance: Duration) -> Result<Reply, Fault>;

    /// Asks the engine to exit, then makes sure it has.
    fn shut_down(&mut self);
}

/// What every client needs to know about the match.
#[derive(Clone, Debug)]
pub struct ClientSettings {
    /// The game played.
    pub variant: Variant,
    /// The time control (GTP and NBoard tell it to the engine up front).
    pub time: TimeControl,
    /// How long an engine may take to answer anything that is not a move.
    pub silence: Duration,
    /// The match's stop flag.
    pub stop: Arc<AtomicBool>,
}

/// Starts the engine of `spec` and opens its protocol.
///
/// # Errors
/// The program cannot be started, or the protocol's opening fails.
pub fn connect(spec: &EngineSpec, settings: &ClientSettings) -> Result<Box<dyn Client>, Fault> {
    let process = EngineProcess::spawn(
        &spec.name,
        &spec.program,
        &spec.args,
        Arc::clone(&settings.stop),
    )
    .map_err(|e| Fault::Crashed(format!("cannot start '{}': {e}", spec.program)))?;
    let link = Link {
        process,
        silence: settings.silence,
    };
    Ok(match spec.protocol {
        Protocol::Ugi => Box::new(ugi::UgiClient::connect(link, spec, settings)?),
        Protocol::Gtp => Box::new(gtp::GtpClient::connect(link, settings)?),
        Protocol::Nboard => Box::new(nboard::NboardClient::connect(link, settings)?),
    })
}

/// A process with the referee's patience: the part every client shares.
pub struct Link {
    process: EngineProcess,
    silence: Duration,
}

impl Link {
    /// Sends a line.
    ///
    /// # Errors
    /// [`Fault::Crashed`] when the engine no longer reads.
    pub fn send(&mut self, line: &str) -> Result<Instant, Fault> {
        self.process
            .send(line)
            .map_err(|e| Fault::Crashed(e.to_string()))
    }

    /// Waits (within the silence timeout) for the first line that `accept`
    /// maps to a value; other lines are skipped. `what` names the awaited
    /// answer in messages.
    ///
    /// # Errors
    /// [`Fault::Silent`] after the timeout, [`Fault::Crashed`],
    /// [`Fault::Protocol`] for an unreadable line, [`Fault::Interrupted`].
    pub fn expect<T>(
        &mut self,
        what: &str,
        accept: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, Fault> {
        let deadline = Instant::now() + self.silence;
        self.wait(deadline, accept)
            .map(|(_, value)| value)
            .map_err(|e| match e {
                WaitError::Timeout => {
                    Fault::Silent(format!("no {what} within {} ms", self.silence.as_millis()))
                }
                other => closed_or_interrupted(other),
            })
    }

    /// Waits until `deadline` for the line `accept` maps to a value, with the
    /// instant it was read; other lines are skipped.
    ///
    /// # Errors
    /// [`Fault::TimedOut`] (carrying `allowance`) after the deadline,
    /// [`Fault::Crashed`], [`Fault::Protocol`] for an unreadable line,
    /// [`Fault::Interrupted`].
    pub fn wait_move<T>(
        &mut self,
        sent: Instant,
        allowance: Duration,
        accept: impl FnMut(&str) -> Option<T>,
    ) -> Result<(Duration, T), Fault> {
        self.wait(sent + allowance, accept)
            .map(|(at, value)| (at.saturating_duration_since(sent), value))
            .map_err(|e| match e {
                WaitError::Timeout => Fault::TimedOut(allowance),
                other => closed_or_interrupted(other),
            })
    }

    fn wait<T>(
        &mut self,
        deadline: Instant,
        mut accept: impl FnMut(&str) -> Option<T>,
    ) -> Result<(Instant, T), WaitError> {
        loop {
            let (at, line) = self.process.next_line(deadline)?;
            if let Some(value) = accept(&line) {
                return Ok((at, value));
            }
        }
    }

    /// Says `quit_line`, then makes sure the process is gone.
    pub fn shut_down(&mut self, quit_line: &str) {
        self.process.shut_down(Some(quit_line));
    }

    /// The engine's name in the match.
    pub fn name(&self) -> &str {
        self.process.name()
    }
}

/// The fault of a wait that did not time out.
fn closed_or_interrupted(e: WaitError) -> Fault {
    match e {
        WaitError::Closed(detail) => Fault::Crashed(detail),
        // Every protocol is lines of text: a line the referee cannot read
        // breaks it, whatever the engine meant by it.
        WaitError::Unreadable(detail) => Fault::Protocol(detail.to_string()),
        WaitError::Interrupted | WaitError::Timeout => Fault::Interrupted,
    }
}

/// Seconds as protocols write them: an integer when whole, else the shortest
/// decimal to the millisecond (`60`, `0.5`, `0.05`).
pub fn seconds_text(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{}.{:03}", ms / 1000, ms % 1000)
            .trim_end_matches('0')
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_written_briefly() {
        let ms = Duration::from_millis;
        assert_eq!(seconds_text(ms(60_000)), "60");
        assert_eq!(seconds_text(ms(500)), "0.5");
        assert_eq!(seconds_text(ms(50)), "0.05");
        assert_eq!(seconds_text(ms(1234)), "1.234");
        assert_eq!(seconds_text(Duration::ZERO), "0");
    }

    #[test]
    fn limits_by_side() {
        let ms = Duration::from_millis;
        assert_eq!(ClockView::MoveTime(ms(50)).limit(Color::Black), ms(50));
        let clock = ClockView::Clock {
            left: [ms(3000), ms(4000)],
            increment: Duration::ZERO,
        };
        assert_eq!(clock.limit(Color::White), ms(4000));
        assert_eq!(clock.limit(Color::Black), ms(3000));
    }
}
