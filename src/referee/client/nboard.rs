//! The NBoard client: `nboard 2` and `set depth` once, then for every move the
//! whole game as GGF (`set game`), a `ping`/`pong` round trip, and `go`. The
//! answer is `=== F5[/eval[/time]]`; as the protocol says, the engine does not
//! play it, so the next `set game` brings it along with the opponent's reply.
//!
//! NBoard engines read their time from the clocks of the GGF record. Sending
//! the whole game with each side's time left at that moment (`TB`/`TW`, and
//! `TI` for the side to move) keeps the engine's view of its clock exactly the
//! referee's; with a move time, both clocks show that time, fresh every move.

use std::time::Duration;

use super::{ClockView, Fault, Link, Reply, Settings, Turn, side_index};
use crate::game::{AnyPosition, Color, Variant};
use crate::ggf::{GgfClock, GgfGame, GgfMove};

/// The depth limit sent with `set depth`: deep enough that only the clock
/// limits the search.
pub const DEPTH: u32 = 60;

/// An NBoard engine.
pub struct NboardClient {
    link: Link,
    variant: Variant,
    ping: u64,
}

impl NboardClient {
    /// Opens NBoard: `nboard 2`, `set depth`, and a ping to see it answers.
    ///
    /// # Errors
    /// The engine does not answer.
    pub fn connect(mut link: Link, settings: &Settings) -> Result<NboardClient, Fault> {
        link.send("nboard 2")?;
        link.send(&format!("set depth {DEPTH}"))?;
        let mut client = NboardClient {
            link,
            variant: settings.variant,
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

/// The game of a turn as the GGF record `set game` sends.
pub fn game_record(turn: &Turn<'_>) -> GgfGame {
    let mut record = GgfGame::new(turn.start);
    let game_type = match turn.start.variant() {
        Variant::Reversed => "8a",
        _ => "8",
    };
    let clock = |side: Color| {
        let (main, increment) = match turn.clock {
            ClockView::MoveTime(t) => (t, Duration::ZERO),
            ClockView::Clock { left, increment } => (left[side_index(side)], increment),
        };
        GgfClock {
            main,
            increment,
            grace: Duration::ZERO,
        }
        .to_string()
    };
    record.set_property("PC", "orca match");
    record.set_property("TI", &clock(turn.position.to_move()));
    record.set_property("TB", &clock(Color::Black));
    record.set_property("TW", &clock(Color::White));
    record.set_property("TY", game_type);
    record.moves = turn
        .moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| GgfMove {
            color: turn.mover(i),
            mv,
            eval: None,
            seconds: None,
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
        self.link.send(&format!("set game {}", game_record(turn)))?;
        self.ping()?;
        let sent = self.link.send("go")?;
        let (elapsed, (token, eval)) = self.link.wait_move(sent, allowance, parse_answer)?;
        if token.is_empty() {
            return Err(Fault::Protocol("'===' without a move".into()));
        }
        Ok(Reply {
            token,
            elapsed,
            eval,
        })
    }

    fn shut_down(&mut self) {
        self.link.shut_down("quit");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Move;

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
        let moves: Vec<Move> = ["f5", "d6", "c3"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let position = start.play_line(["f5", "d6", "c3"]).unwrap();
        let turn = Turn {
            start,
            moves: &moves,
            position,
            clock: ClockView::Clock {
                left: [Duration::from_millis(59_500), Duration::from_secs(61)],
                increment: Duration::from_secs(1),
            },
        };
        let text = game_record(&turn).to_string();
        assert!(text.contains("TY[8a]"), "{text}");
        assert!(text.contains("TI[1:01/0:01]"), "{text}");
        assert!(text.contains("TB[0:59.5/0:01]"), "{text}");
        assert!(text.ends_with("B[F5]W[D6]B[C3];)"), "{text}");
        let parsed: GgfGame = text.parse().unwrap();
        assert_eq!(parsed.position().unwrap(), position);
        assert_eq!(
            parsed.clock(Color::White).unwrap().unwrap().main,
            Duration::from_secs(61)
        );

        let movetime = Turn {
            clock: ClockView::MoveTime(Duration::from_millis(50)),
            ..turn
        };
        let text = game_record(&movetime).to_string();
        assert!(text.contains("TB[0:00.05]TW[0:00.05]"), "{text}");
    }
}
