//! The NBoard client: `nboard 2` and `set depth` once, then for every move the
//! whole game as GGF (`set game`), a `ping`/`pong` round trip, and `go`. The
//! answer is `=== F5[/eval[/time]]`; as the protocol says, the engine does not
//! play it, so the next `set game` brings it along with the opponent's reply.
//!
//! NBoard engines read their time from the GGF record: the clock setting `TI`,
//! one increment for each of their moves, minus the seconds written on those
//! moves. So the record starts after the opening (`BO` is the opening's
//! position: opening moves earn no increment), and under a clock it is the
//! true one (`TI[main/increment]` and the referee's time for every move): the
//! engine's view of its clock is exactly the referee's. NBoard has no move time: with `movetime=T` the
//! record shows a clock of T for the move to be played (`TI[T]`, no move
//! times), so the engine never plans past T, though it may well use less.

use std::time::Duration;

use super::{ClientSettings, Fault, Link, Reply, Turn};
use crate::game::{AnyPosition, Variant};
use crate::ggf::{GgfClock, GgfGame, GgfMove};
use crate::search::time::TimeControl;

/// The depth limit sent with `set depth`: deep enough that only the clock
/// limits the search.
pub const DEPTH: u32 = 60;

/// An NBoard engine.
pub struct NboardClient {
    link: Link,
    variant: Variant,
    time: TimeControl,
    ping: u64,
}

impl NboardClient {
    /// Opens NBoard: `nboard 2`, `set depth`, and a ping to see it answers.
    ///
    /// # Errors
    /// The engine does not answer.
    pub fn connect(mut link: Link, settings: &ClientSettings) -> Result<NboardClient, Fault> {
        link.send("nboard 2")?;
        link.send(&format!("set depth {DEPTH}"))?;
        let mut client = NboardClient {
            link,
            variant: settings.variant,
            time: settings.time,
            ping: 0,
        };
        client.ping()?;
        Ok(client)
    }

    fn ping(&mut self) -> Result<(), Fault> {
        self.ping += 1;
        let n = self.ping;
        self.link.send(&format!("ping {n}"))?;
        self.link.expect(&format!("pong {n}"), |line| {
            let mut tokens = line.split_whitespace();
            (tokens.next() == Some("pong") && tokens.next() == Some(&n.to_string())).then_some(())
        })
    }
}

/// The game of a turn as the GGF record `set game` sends, under `time`: from
/// the position after the opening.
pub fn game_record(turn: &Turn<'_>, time: &TimeControl) -> GgfGame {
    let (opening, played) = turn.moves.split_at(turn.opening);
    let tokens: Vec<String> = opening.iter().map(|m| m.mv.to_string()).collect();
    let start = turn
        .start
        .play_line(tokens.iter().map(String::as_str))
        .expect("the referee's moves are legal");
    let mut record = GgfGame::new(start);
    let game_type = match turn.start.variant() {
        Variant::Reversed => "8a",
        _ => "8",
    };
    let (clock, with_times) = match *time {
        TimeControl::MoveTime(t) => (
            GgfClock {
                main: t,
                ..GgfClock::default()
            },
            false,
        ),
        TimeControl::Clock { main, increment } => (
            GgfClock {
                main,
                increment,
                grace: Duration::ZERO,
            },
            true,
        ),
    };
    record.set_property("PC", "orca match");
    record.set_property("TI", &clock.to_string());
    record.set_property("TY", game_type);
    record.moves = played
        .iter()
        .map(|played| GgfMove {
            eval: None,
            seconds: played.seconds.filter(|_| with_times),
            ..*played
        })
        .collect();
    record
}

/// The move and evaluation of a `=== F5[/eval[/time]]` line.
fn parse_answer(line: &str) -> Option<(String, Option<f64>)> {
    let rest = line.trim().strip_prefix("===")?.trim();
    let mut parts = rest.split('/');
    let token = parts.next().unwrap_or("").trim().to_string();
    let eval = parts.next().and_then(|e| e.trim().parse::<f64>().ok());
    Some((token, eval))
}

impl super::Client for NboardClient {
    fn new_game(&mut self, start: &AnyPosition) -> Result<(), Fault> {
        debug_assert_eq!(start.variant(), self.variant);
        self.ping()
    }

    fn best_move(&mut self, turn: &Turn<'_>, allowance: Duration) -> Result<Reply, Fault> {
        self.link
            .send(&format!("set game {}", game_record(turn, &self.time)))?;
        self.ping()?;
        let sent = self.link.send("go")?;
        let (elapsed, (token, eval)) = self.link.wait_move(sent, allowance, parse_answer)?;
        Reply::checked(token, elapsed, eval, "===")
    }

    fn shut_down(&mut self) {
        self.link.shut_down("quit");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color;
    use crate::referee::client::ClockView;

    #[test]
    fn answers() {
        assert_eq!(
            parse_answer("=== F5/-1.50/0.3"),
            Some(("F5".into(), Some(-1.5)))
        );
        assert_eq!(parse_answer("=== PA"), Some(("PA".into(), None)));
        assert_eq!(parse_answer("===  d3//"), Some(("d3".into(), None)));
        assert_eq!(parse_answer("status thinking"), None);
    }

    #[test]
    fn records_carry_the_clocks_and_the_moves() {
        let start = AnyPosition::start(Variant::Reversed);
        let played = |color, mv: &str, seconds| GgfMove {
            color,
            mv: mv.parse().unwrap(),
            eval: Some(1.0),
            seconds,
        };
        let moves = [
            played(Color::Black, "f5", None),
            played(Color::White, "d6", Some(0.25)),
            played(Color::Black, "c3", Some(1.5)),
        ];
        let position = start.play_line(["f5", "d6", "c3"]).unwrap();
        let turn = Turn {
            start,
            moves: &moves,
            opening: 1,
            position,
            clock: ClockView::MoveTime(Duration::from_millis(50)),
        };
        let clock = TimeControl::Clock {
            main: Duration::from_secs(60),
            increment: Duration::from_secs(1),
        };
        let text = game_record(&turn, &clock).to_string();
        assert!(text.contains("TI[1:00/0:01]TY[8a]"), "{text}");
        // The opening's f5 is in the board, not among the moves.
        let after_f5 = "---------------------------O*------***-------------------------- O";
        assert!(
            text.contains(&format!("BO[8 {after_f5}]W[D6//0.25]B[C3//1.5];)")),
            "{text}"
        );
        let parsed: GgfGame = text.parse().unwrap();
        assert_eq!(parsed.position().unwrap(), position);
        // What an engine makes of it: 60 s + 1 increment - 1.5 s for black.
        let black = parsed.time_left(Color::Black).unwrap().unwrap();
        assert_eq!(black.remaining, Duration::from_millis(59_500));

        let movetime = TimeControl::MoveTime(Duration::from_millis(50));
        let text = game_record(&turn, &movetime).to_string();
        assert!(text.contains("TI[0:00.05]"), "{text}");
        assert!(text.ends_with("W[D6]B[C3];)"), "{text}");
        let parsed: GgfGame = text.parse().unwrap();
        let white = parsed.time_left(Color::White).unwrap().unwrap();
        assert_eq!(white.remaining, Duration::from_millis(50));
    }
}
