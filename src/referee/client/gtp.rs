//! The GTP client, driving an engine as the field's GTP match runners do:
//! `clear_board` and `time_settings` for a new game, `play <colour> <move>` for
//! every move the engine has not seen, `time_left` for both colours, then
//! `genmove <colour>`, whose answer the engine has already played on its board.
//!
//! Passes are implicit, as those runners send them: a pass is never sent, the
//! next `play` or `genmove` simply names the same colour again and the engine
//! inserts the pass. Every command is answered by `= ...` or `? ...` and an
//! empty line; blank lines between answers are skipped, anything else an
//! engine prints on stdout is logged and ignored.
//!
//! Time, in seconds: `time_settings 0 T 0` is T a move, `time_settings M I 0`
//! M for the game plus I a move (the runners' reading), and `time_left`
//! refreshes both clocks before every `genmove`. GTP has no way to set up a
//! position, so games start from the standard start (openings as move lists).

use std::time::Duration;

use super::{ClientSettings, ClockView, Fault, Link, Reply, Turn, seconds_text, side_index};
use crate::game::{AnyPosition, Color, Move, Variant};
use crate::search::time::TimeControl;

/// The extension command that selects reversed Othello (`variant reversed`,
/// as Orca's GTP front end reads it; other engines take the variant on their
/// command line and refuse the command, which then ends the match at start-up).
pub const VARIANT_COMMAND: &str = "variant";

/// A GTP engine.
pub struct GtpClient {
    link: Link,
    time: TimeControl,
    /// How many moves of the current game the engine's board holds.
    known: usize,
}

impl GtpClient {
    /// Opens GTP: `name` (the engine answers), and the variant when it is not
    /// standard Othello.
    ///
    /// # Errors
    /// The engine does not answer, or refuses the variant.
    pub fn connect(link: Link, settings: &ClientSettings) -> Result<GtpClient, Fault> {
        let mut client = GtpClient {
            link,
            time: settings.time,
            known: 0,
        };
        client.command("name")?;
        if settings.variant != Variant::Othello {
            client.command(&format!("{VARIANT_COMMAND} {}", settings.variant))?;
        }
        Ok(client)
    }

    /// Sends a command and returns the text of its `=` answer.
    fn command(&mut self, command: &str) -> Result<String, Fault> {
        self.link.send(command)?;
        let answer = self
            .link
            .expect(&format!("answer to '{command}'"), answer)?;
        answer
            .map_err(|Refusal(text)| Fault::Protocol(format!("answered '? {text}' to '{command}'")))
    }
}

/// The text of a failure answer (`? text`): the engine refused the command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(pub String);

/// The answer a line starts, if it starts one: `Ok(text)` for `=`, a
/// [`Refusal`] for `?` (an optional command id after the sign is dropped).
fn answer(line: &str) -> Option<Result<String, Refusal>> {
    let line = line.trim();
    let sign = line.chars().next()?;
    if sign != '=' && sign != '?' {
        if !line.is_empty() {
            log::debug!("GTP engine printed '{line}' outside an answer; ignored");
        }
        return None;
    }
    let text = line[1..]
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim()
        .to_string();
    Some(if sign == '=' {
        Ok(text)
    } else {
        Err(Refusal(text))
    })
}

/// The GTP name of a colour.
fn colour(side: Color) -> &'static str {
    match side {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// `time_settings` for a time control: T a move is `0 T 0`, M plus I a move
/// is `M I 0`.
pub fn time_settings(time: &TimeControl) -> String {
    match *time {
        TimeControl::MoveTime(t) => format!("time_settings 0 {} 0", seconds_text(t)),
        TimeControl::Clock { main, increment } => format!(
            "time_settings {} {} 0",
            seconds_text(main),
            seconds_text(increment)
        ),
    }
}

/// `time_left` for one colour: its clock, or the move time.
pub fn time_left(clock: &ClockView, side: Color) -> String {
    let left = match *clock {
        ClockView::MoveTime(t) => t,
        ClockView::Clock { left, .. } => left[side_index(side)],
    };
    format!("time_left {} {} 0", colour(side), seconds_text(left))
}

impl super::Client for GtpClient {
    fn new_game(&mut self, start: &AnyPosition) -> Result<(), Fault> {
        if *start != AnyPosition::start(start.variant()) {
            return Err(Fault::Protocol(
                "GTP cannot set up a position; openings for GTP engines must be move lists".into(),
            ));
        }
        self.command("clear_board")?;
        self.command(&time_settings(&self.time))?;
        self.known = 0;
        Ok(())
    }

    fn best_move(&mut self, turn: &Turn<'_>, allowance: Duration) -> Result<Reply, Fault> {
        for (i, played) in turn.moves.iter().enumerate().skip(self.known) {
            if let Move::Play(square) = played.mv {
                self.command(&format!("play {} {square}", colour(played.color)))?;
            }
            self.known = i + 1;
        }
        for side in [Color::Black, Color::White] {
            self.command(&time_left(&turn.clock, side))?;
        }
        let side = turn.position.to_move();
        let sent = self.link.send(&format!("genmove {}", colour(side)))?;
        let (elapsed, answer) = self.link.wait_move(sent, allowance, answer)?;
        let token = answer
            .map_err(|Refusal(text)| Fault::Protocol(format!("answered '? {text}' to genmove")))?;
        // The engine has played its move on its own board.
        self.known = turn.moves.len() + 1;
        Reply::checked(token, elapsed, None, "=")
    }

    fn shut_down(&mut self) {
        self.link.shut_down("quit");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers() {
        assert_eq!(answer("= f5"), Some(Ok("f5".into())));
        assert_eq!(answer("=12 PASS"), Some(Ok("PASS".into())));
        assert_eq!(answer("="), Some(Ok(String::new())));
        assert_eq!(
            answer("? illegal move"),
            Some(Err(Refusal("illegal move".into())))
        );
        assert_eq!(answer(""), None);
        assert_eq!(answer("thinking..."), None);
    }

    #[test]
    fn time_commands() {
        let ms = Duration::from_millis;
        assert_eq!(
            time_settings(&TimeControl::MoveTime(ms(50))),
            "time_settings 0 0.05 0"
        );
        assert_eq!(
            time_settings(&TimeControl::Clock {
                main: ms(60_000),
                increment: ms(500)
            }),
            "time_settings 60 0.5 0"
        );
        let clocks = ClockView::Clock {
            left: [ms(59_250), ms(60_000)],
            increment: ms(500),
        };
        assert_eq!(time_left(&clocks, Color::Black), "time_left black 59.25 0");
        assert_eq!(time_left(&clocks, Color::White), "time_left white 60 0");
        assert_eq!(
            time_left(&ClockView::MoveTime(ms(100)), Color::White),
            "time_left white 0.1 0"
        );
    }

    /// What the referee sends, Orca's GTP front end reads back as the same
    /// control.
    #[test]
    fn orca_reads_the_time_settings_as_sent() {
        use crate::protocol::gtp::clock::{GtpClock, GtpControl};
        use crate::protocol::gtp::command::{Command, parse};
        let ms = Duration::from_millis;
        for time in [
            TimeControl::MoveTime(ms(50)),
            TimeControl::MoveTime(ms(1500)),
            TimeControl::Clock {
                main: ms(60_000),
                increment: ms(500),
            },
            TimeControl::Clock {
                main: ms(300_250),
                increment: Duration::ZERO,
            },
        ] {
            let line = time_settings(&time);
            let Some(Ok(Command::TimeSettings(settings))) = parse(&line).map(|r| r.command) else {
                panic!("{line} does not parse");
            };
            let mut clock = GtpClock::default();
            clock.set(settings);
            assert_eq!(clock.control(), GtpControl::Timed(time), "{line}");
        }
    }
}
