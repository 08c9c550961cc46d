//! The UGI client: `ugi`/`ugiok`, options, then for every move the whole game
//! as `position ... moves ...`, an `isready` round trip, and `go` with the move
//! time or both clocks. The answer is `bestmove <move>`; `info ... score`
//! lines on the way give the engine's evaluation for the game record.
//!
//! The game is always sent in full (passes written as `pass`), so the engine
//! never has to keep a board in step with the referee's.
//!
//! With pondering on (`ponder=on`), an answer `bestmove X ponder Y` is
//! followed at once by `position ... X Y` and `go ponder` with the clocks
//! as they will stand; at the engine's next turn, `ponderhit` if the
//! opponent played Y (the answer is then timed from the `ponderhit`), else
//! `stop`, the answer discarded, and the usual request.

use std::time::Duration;

use super::{ClientSettings, ClockView, Fault, Link, Reply, Turn, side_index};
use crate::game::{AnyPosition, Color, Variant};
use crate::referee::spec::EngineSpec;

/// A UGI engine.
pub struct UgiClient {
    link: Link,
    /// Ponder on the expected reply after each move.
    ponder: bool,
    /// The `position` line of the ponder search running, if one is.
    pondering: Option<String>,
}

impl UgiClient {
    /// Opens UGI: handshake, the spec's options, the variant, `isready`.
    ///
    /// # Errors
    /// The engine does not answer, or cannot be told the variant.
    pub fn connect(
        mut link: Link,
        spec: &EngineSpec,
        settings: &ClientSettings,
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
        let mut client = UgiClient {
            link,
            ponder: spec.ponder,
            pondering: None,
        };
        client.sync()?;
        Ok(client)
    }

    fn sync(&mut self) -> Result<(), Fault> {
        self.link.send("isready")?;
        self.link
            .expect("readyok", |line| (line.trim() == "readyok").then_some(()))
    }

    /// Ends the running ponder search, if any, and drops its answer.
    fn stop_pondering(&mut self) -> Result<(), Fault> {
        if self.pondering.take().is_some() {
            self.link.send("stop")?;
            self.link.expect("bestmove", |line| {
                line.starts_with("bestmove").then_some(())
            })?;
        }
        Ok(())
    }

    /// After the answer `line` to `turn`, which took `elapsed`: starts a
    /// ponder search on the reply it names, if it names a legal one.
    fn start_pondering(
        &mut self,
        turn: &Turn<'_>,
        line: &str,
        elapsed: Duration,
    ) -> Result<(), Fault> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let [_, best, "ponder", reply] = tokens[..] else {
            return Ok(());
        };
        // Moves as the referee writes them, so that the line compares equal
        // to the one of the next turn when the reply comes.
        let play = |position: &AnyPosition, text: &str| {
            let mv = position.parse_move(text).ok()?;
            Some((mv, position.play(mv)?))
        };
        let Some((best, after)) = play(&turn.position, best) else {
            return Ok(());
        };
        let Some((reply, _)) = play(&after, reply).filter(|_| !after.is_over()) else {
            return Ok(());
        };
        let mut position = position_command(turn);
        if turn.moves.is_empty() {
            position.push_str(" moves");
        }
        position.push_str(&format!(" {best} {reply}"));
        let clock = clock_after(&turn.clock, turn.position.to_move(), elapsed);
        self.link.send(&position)?;
        let go = go_command(&clock).replacen("go ", "go ponder ", 1);
        self.link.send(&go)?;
        self.pondering = Some(position);
        Ok(())
    }
}

/// The clocks after `side` moved in `elapsed` (the opponent's as they were:
/// what a ponder search is told).
fn clock_after(clock: &ClockView, side: Color, elapsed: Duration) -> ClockView {
    match *clock {
        ClockView::MoveTime(t) => ClockView::MoveTime(t),
        ClockView::Clock {
            mut left,
            increment,
        } => {
            let i = side_index(side);
            left[i] = left[i].saturating_sub(elapsed) + increment;
            ClockView::Clock { left, increment }
        }
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
        self.stop_pondering()?;
        self.link.send("uginewgame")?;
        self.sync()
    }

    fn best_move(&mut self, turn: &Turn<'_>, allowance: Duration) -> Result<Reply, Fault> {
        let position = position_command(turn);
        let sent = if self.pondering.as_deref() == Some(position.as_str()) {
            // The expected reply came: the search goes on, timed from here.
            self.pondering = None;
            self.link.send("ponderhit")?
        } else {
            self.stop_pondering()?;
            self.link.send(&position)?;
            self.sync()?;
            self.link.send(&go_command(&turn.clock))?
        };
        let mut eval = None;
        let (elapsed, line) = self.link.wait_move(sent, allowance, |line| {
            if let Some(score) = info_score(line) {
                eval = Some(score);
            }
            (line.split_whitespace().next() == Some("bestmove")).then(|| line.to_string())
        })?;
        let token = line.split_whitespace().nth(1).unwrap_or("").to_string();
        if self.ponder && !token.is_empty() {
            self.start_pondering(turn, &line, elapsed)?;
        }
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
