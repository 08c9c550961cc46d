//! The UGI client: `ugi`/`ugiok`, options, then for every move the whole game
//! as `position ... moves ...`, an `isready` round trip, and `go` with the move
//! time or both clocks. The answer is `bestmove <move>`; `info ... score`
//! lines on the way give the engine's evaluation for the game record.
//!
//! The game is always sent in full (passes written as `pass`), so the engine
//! never has to keep a board in step with the referee's.

use std::time::Duration;

use super::{ClockView, Fault, Link, Reply, Settings, Turn};
use crate::game::{AnyPosition, Variant};
use crate::referee::spec::EngineSpec;

/// A UGI engine.
pub struct UgiClient {
    link: Link,
}

impl UgiClient {
    /// Opens UGI: handshake, the spec's options, the variant, `isready`.
    ///
    /// # Errors
    /// The engine does not answer, or cannot be told the variant.
    pub fn connect(
        mut link: Link,
        spec: &EngineSpec,
        settings: &Settings,
    ) -> Result<UgiClient, Fault> {
        link.send("ugi")?;
        let mut options = Vec::new();
        link.expect("ugiok", |line| {
            if let Some(name) = option_name(line) {
                options.push(name);
            }
            (line.trim() == "ugiok").then_some(())
        })?;
        for (name, value) in &spec.options {
            link.send(&format!("setoption name {name} value {value}"))?;
        }
        let has_variant = options.iter().any(|o| o.eq_ignore_ascii_case("variant"));
        if has_variant {
            link.send(&format!(
                "setoption name Variant value {}",
                settings.variant
            ))?;
        } else if settings.variant != Variant::Othello {
            return Err(Fault::Protocol(format!(
                "{} announces no Variant option, so it cannot be told to play {}",
                link.name(),
                settings.variant
            )));
        }
        let mut client = UgiClient { link };
        client.sync()?;
        Ok(client)
    }

    fn sync(&mut self) -> Result<(), Fault> {
        self.link.send("isready")?;
        self.link
            .expect("readyok", |line| (line.trim() == "readyok").then_some(()))
    }
}

/// The name of an `option name <N> type ...` line (names may hold spaces).
fn option_name(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("option name ")?;
    let end = rest.find(" type ").unwrap_or(rest.len());
    Some(rest[..end].trim().to_string())
}

/// `position startpos|fen <position> [moves ...]` for a turn.
pub fn position_command(turn: &Turn<'_>) -> String {
    let mut line = if turn.start == AnyPosition::start(turn.start.variant()) {
        "position startpos".to_string()
    } else {
        format!("position fen {}", turn.start)
    };
    if !turn.moves.is_empty() {
        line.push_str(" moves");
        for played in turn.moves {
            line.push(' ');
            line.push_str(&played.mv.to_string());
        }
    }
    line
}

/// `go movetime T` or `go p1time B p2time W p1inc I p2inc I` (milliseconds).
pub fn go_command(clock: &ClockView) -> String {
    match *clock {
        ClockView::MoveTime(t) => format!("go movetime {}", t.as_millis()),
        ClockView::Clock { left, increment } => format!(
            "go p1time {} p2time {} p1inc {inc} p2inc {inc}",
            left[0].as_millis(),
            left[1].as_millis(),
            inc = increment.as_millis()
        ),
    }
}

/// The score of an `info` line in discs: `score disc N` or `score cp N` (÷100).
fn info_score(line: &str) -> Option<f64> {
    let mut tokens = line.split_whitespace();
    if tokens.next() != Some("info") {
        return None;
    }
    while let Some(token) = tokens.next() {
        if token == "string" {
            return None;
        }
        if token == "score" {
            let unit = tokens.next()?;
            let value: f64 = tokens.next()?.parse().ok()?;
            return match unit {
                "disc" => Some(value),
                "cp" => Some(value / 100.0),
                _ => None,
            };
        }
    }
    None
}

impl super::Client for UgiClient {
    fn new_game(&mut self, _start: &AnyPosition) -> Result<(), Fault> {
        self.link.send("uginewgame")?;
        self.sync()
    }

    fn best_move(&mut self, turn: &Turn<'_>, allowance: Duration) -> Result<Reply, Fault> {
        self.link.send(&position_command(turn))?;
        self.sync()?;
        let sent = self.link.send(&go_command(&turn.clock))?;
        let mut eval = None;
        let (elapsed, token) = self.link.wait_move(sent, allowance, |line| {
            if let Some(score) = info_score(line) {
                eval = Some(score);
            }
            let mut tokens = line.split_whitespace();
            (tokens.next() == Some("bestmove")).then(|| tokens.next().unwrap_or("").to_string())
        })?;
        Reply::checked(token, elapsed, eval, "bestmove")
    }

    fn shut_down(&mut self) {
        self.link.shut_down("quit");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color;
    use crate::ggf::GgfMove;

    fn played(color: Color, mv: &str) -> GgfMove {
        GgfMove {
            color,
            mv: mv.parse().unwrap(),
            eval: None,
            seconds: Some(0.01),
        }
    }

    #[test]
    fn commands_for_a_turn() {
        let start = AnyPosition::start(Variant::Othello);
        let moves = [played(Color::Black, "f5"), played(Color::White, "d6")];
        let clock = ClockView::MoveTime(Duration::from_millis(50));
        let turn = Turn {
            start,
            moves: &moves,
            opening: 2,
            position: start.play_line(["f5", "d6"]).unwrap(),
            clock,
        };
        assert_eq!(position_command(&turn), "position startpos moves f5 d6");
        assert_eq!(go_command(&clock), "go movetime 50");
        let other = AnyPosition::parse(
            Variant::Reversed,
            "---------------------------OX------XXX-------------------------- O",
        )
        .unwrap();
        let turn = Turn {
            start: other,
            moves: &[played(Color::White, "pass")],
            ..turn
        };
        assert_eq!(
            position_command(&turn),
            "position fen ---------------------------OX------XXX-------------------------- O moves pass"
        );
        let clocks = ClockView::Clock {
            left: [Duration::from_millis(59_950), Duration::from_secs(60)],
            increment: Duration::from_millis(500),
        };
        assert_eq!(
            go_command(&clocks),
            "go p1time 59950 p2time 60000 p1inc 500 p2inc 500"
        );
    }

    #[test]
    fn option_names_and_scores() {
        assert_eq!(
            option_name("option name Variant type combo default othello var othello"),
            Some("Variant".into())
        );
        assert_eq!(
            option_name("option name Move Overhead type spin default 10"),
            Some("Move Overhead".into())
        );
        assert_eq!(option_name("id name Orca"), None);
        assert_eq!(
            info_score("info depth 9 seldepth 10 score disc -4 nodes 1 pv c3"),
            Some(-4.0)
        );
        assert_eq!(info_score("info depth 3 score cp 150"), Some(1.5));
        assert_eq!(info_score("info string score disc 3"), None);
        assert_eq!(info_score("bestmove f5"), None);
    }
}
