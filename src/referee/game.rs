//! One refereed game: the referee holds the position and the clocks, plays the
//! forced passes itself, asks the side to move for its move, checks it with
//! Orca's rules and ends the game when the rules say so — or adjudicates a loss
//! when an engine runs out of time, plays an illegal move, crashes, falls
//! silent or breaks its protocol.
//!
//! Nothing an engine says about the rules is trusted: only its move token is
//! read, and that is judged here.

use std::fmt;
use std::time::Duration;

use super::client::{Client, ClockView, Fault, Turn, side_index};
use crate::game::position::{LineErrorKind, Outcome};
use crate::game::{AnyPosition, Color, LineError, Move};
use crate::ggf::{GgfGame, GgfMove};
use crate::search::time::TimeControl;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Neither side could move: the rules decided.
    Finished,
    /// An engine lost by adjudication.
    Forfeit {
        /// The side that lost.
        loser: Color,
        /// Why.
        reason: Forfeit,
    },
}

/// Why an engine lost a game it did not play to the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// Its clock ran out, or it exceeded the move time plus the margin.
    Time(String),
    /// It answered a move the rules do not allow.
    Illegal(IllegalMove),
    /// It exited or closed its output.
    Crash(String),
    /// It did not answer a request that is not timed by the clock.
    Silence(String),
    /// It answered something its protocol does not allow.
    Protocol(String),
    /// It resigned.
    Resigned,
}

impl Forfeit {
    /// Every kind, in the order summaries list them.
    pub const KINDS: [&'static str; 6] = [
        "time",
        "illegal move",
        "crash",
        "silence",
        "protocol",
        "resigned",
    ];

    /// The [`Forfeit::kind`] of a loss on time.
    pub const TIME: usize = 0;

    /// Index into [`Forfeit::KINDS`].
    pub fn kind(&self) -> usize {
        match self {
            Forfeit::Time(_) => Forfeit::TIME,
            Forfeit::Illegal(_) => 1,
            Forfeit::Crash(_) => 2,
            Forfeit::Silence(_) => 3,
            Forfeit::Protocol(_) => 4,
            Forfeit::Resigned => 5,
        }
    }

    fn from_fault(fault: Fault) -> Option<Forfeit> {
        Some(match fault {
            Fault::TimedOut(allowance) => {
                Forfeit::Time(format!("no move within {} ms", allowance.as_millis()))
            }
            Fault::Crashed(detail) => Forfeit::Crash(detail),
            Fault::Silent(detail) => Forfeit::Silence(detail),
            Fault::Protocol(detail) => Forfeit::Protocol(detail),
            Fault::Interrupted => return None,
        })
    }
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::Time(d) => write!(f, "lost on time: {d}"),
            Forfeit::Illegal(d) => write!(f, "illegal move: {d}"),
            Forfeit::Crash(d) => write!(f, "crashed: {d}"),
            Forfeit::Silence(d) => write!(f, "silent: {d}"),
            Forfeit::Protocol(d) => write!(f, "protocol error: {d}"),
            Forfeit::Resigned => write!(f, "resigned"),
        }
    }
}

/// The match was stopped during the game; the game does not count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted;

/// A game as played, before it is placed in a match.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The position the game began from (before the opening moves).
    pub start: AnyPosition,
    /// Every move with its time and the engine's evaluation; the first
    /// `opening_moves` came from the opening and carry neither.
    pub moves: Vec<GgfMove>,
    /// How many moves the opening contributed.
    pub opening_moves: usize,
    /// The last position reached.
    pub end: AnyPosition,
    /// How it ended.
    pub termination: Termination,
}

impl Played {
    /// The winning colour, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match &self.termination {
            Termination::Finished => match self.end.result() {
                Some(Outcome::Win(color)) => Some(color),
                _ => None,
            },
            Termination::Forfeit { loser, .. } => Some(loser.opposite()),
        }
    }

    /// Black's final score by the rules, when the game was played to the end.
    pub fn black_score(&self) -> Option<i32> {
        match self.termination {
            Termination::Finished => self.end.black_score(),
            Termination::Forfeit { .. } => None,
        }
    }

    /// The GGF record: players, type (`TY[8a]` for reversed Othello), time
    /// control, date, result and every move with its time. `RE` is black's
    /// final score (`+12.000`); a forfeit gives the winner all 64 discs with
    /// `:t` for time and `:r` for every other adjudication, and `GC` says why.
    pub fn ggf(&self, black: &str, white: &str, time: &TimeControl, date: &str) -> GgfGame {
        let mut record = GgfGame::new(self.start);
        record.set_property("PC", "orca match");
        record.set_property("DT", date);
        record.set_property("PB", black);
        record.set_property("PW", white);
        let result = match &self.termination {
            Termination::Finished => {
                format!("{:+}.000", self.end.black_score().unwrap_or(0))
            }
            Termination::Forfeit { loser, reason } => {
                let sign = if *loser == Color::Black { '-' } else { '+' };
                let kind = if matches!(reason, Forfeit::Time(_)) {
                    't'
                } else {
                    'r'
                };
                format!("{sign}64.000:{kind}")
            }
        };
        record.set_property("RE", &result);
        record.set_property("TI", &ggf_time(time));
        let game_type = if self.start.variant() == crate::game::Variant::Reversed {
            "8a"
        } else {
            "8"
        };
        record.set_property("TY", game_type);
        if let Termination::Forfeit { loser, reason } = &self.termination {
            let name = if *loser == Color::Black { black } else { white };
            record.set_property("GC", &format!("{name} {reason}"));
        }
        record.moves.clone_from(&self.moves);
        record
    }
}

/// The GGF clock of a time control; a move time T is written `0:00/T`, no main
/// time and T a move.
pub fn ggf_time(time: &TimeControl) -> String {
    let (main, increment) = match *time {
        TimeControl::MoveTime(t) => (Duration::ZERO, t),
        TimeControl::Clock { main, increment } => (main, increment),
    };
    crate::ggf::GgfClock {
        main,
        increment,
        grace: Duration::ZERO,
    }
    .to_string()
}

/// Plays one game from `start` after the `opening` moves. `players` are the
/// clients of black and white; `margin` is how far past its limit a move may
/// come before it loses on time.
///
/// # Errors
/// [`Interrupted`] when the match's stop flag was raised during the game.
pub fn play(
    players: [&mut dyn Client; 2],
    start: AnyPosition,
    opening: &[Move],
    time: TimeControl,
    margin: Duration,
) -> Result<Played, Interrupted> {
    let mut referee = Referee::new(start, opening, time);
    for side in [Color::Black, Color::White] {
        if let Err(fault) = players[side_index(side)].new_game(&start) {
            return referee.forfeit(side, fault);
        }
    }
    loop {
        let position = referee.position;
        if position.is_over() {
            return Ok(referee.finish(Termination::Finished));
        }
        let side = position.to_move();
        if position.must_pass() {
            // A pass is a move of the record, and earns the increment as
            // one (GGF clocks count it so, and NBoard engines read them).
            referee.spend(side, Duration::ZERO);
            referee.record(side, Move::Pass, None, None);
            continue;
        }
        let limit = referee.clock.limit(side);
        let turn = Turn {
            start,
            moves: &referee.moves,
            opening: referee.opening_moves,
            position,
            clock: referee.clock,
        };
        let reply = match players[side_index(side)].best_move(&turn, limit + margin) {
            Ok(reply) => reply,
            Err(Fault::TimedOut(_)) => {
                return referee.lose(
                    side,
                    Forfeit::Time(format!(
                        "no move within {} ms (limit {} ms + margin {} ms)",
                        (limit + margin).as_millis(),
                        limit.as_millis(),
                        margin.as_millis()
                    )),
                );
            }
            Err(fault) => return referee.forfeit(side, fault),
        };
        if reply.elapsed > limit + margin {
            return referee.lose(
                side,
                Forfeit::Time(format!(
                    "{} ms for a limit of {} ms",
                    reply.elapsed.as_millis(),
                    limit.as_millis()
                )),
            );
        }
        if reply.token.eq_ignore_ascii_case("resign") {
            return referee.lose(side, Forfeit::Resigned);
        }
        let mv = match check_move(&position, &reply.token) {
            Ok(mv) => mv,
            Err(why) => return referee.lose(side, Forfeit::Illegal(why)),
        };
        referee.spend(side, reply.elapsed);
        referee.record(side, mv, Some(reply.elapsed), reply.eval);
    }
}

/// Why an engine's move is not one the referee accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The token names no move.
    NotAMove(String),
    /// A pass while the side has a placement: the side and its moves.
    Pass {
        /// The side that passed.
        side: Color,
        /// Its legal moves.
        legal: Vec<String>,
    },
    /// A placement that is not legal here.
    Illegal(Move),
    /// Any other reason the rules give.
    Line(LineError),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::NotAMove(token) => write!(f, "'{token}' is not a move"),
            IllegalMove::Pass { side, legal } => {
                write!(f, "pass while {side} can play {}", legal.join(" "))
            }
            IllegalMove::Illegal(mv) => write!(f, "{mv} is not legal here"),
            IllegalMove::Line(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// The move `token` names, if it is legal in `position` (which is not over
/// and has a legal placement); otherwise why not.
///
/// # Errors
/// An [`IllegalMove`] saying why the move is refused.
pub fn check_move(position: &AnyPosition, token: &str) -> Result<Move, IllegalMove> {
    let mv: Move = token
        .parse()
        .map_err(|_| IllegalMove::NotAMove(token.to_string()))?;
    if mv == Move::Pass {
        return Err(IllegalMove::Pass {
            side: position.to_move(),
            legal: position.legal_move_names(),
        });
    }
    match position.play_line([token]) {
        Ok(_) => Ok(mv),
        Err(e) => Err(match e.kind {
            LineErrorKind::Illegal => IllegalMove::Illegal(mv),
            _ => IllegalMove::Line(e),
        }),
    }
}

/// A game that could not begin because `loser`'s engine failed before its
/// first move (it would not start, or not answer).
///
/// # Errors
/// [`Interrupted`] when the failure was the match being stopped.
pub fn unplayed(
    start: AnyPosition,
    opening: &[Move],
    time: TimeControl,
    loser: Color,
    fault: Fault,
) -> Result<Played, Interrupted> {
    Referee::new(start, opening, time).forfeit(loser, fault)
}

/// The state the referee keeps during a game.
struct Referee {
    start: AnyPosition,
    position: AnyPosition,
    moves: Vec<GgfMove>,
    opening_moves: usize,
    clock: ClockView,
}

impl Referee {
    fn new(start: AnyPosition, opening: &[Move], time: TimeControl) -> Referee {
        let clock = match time {
            TimeControl::MoveTime(t) => ClockView::MoveTime(t),
            TimeControl::Clock { main, increment } => ClockView::Clock {
                left: [main; 2],
                increment,
            },
        };
        let mut referee = Referee {
            start,
            position: start,
            moves: Vec::new(),
            opening_moves: opening.len(),
            clock,
        };
        for &mv in opening {
            let side = referee.position.to_move();
            referee.record(side, mv, None, None);
        }
        referee
    }

    /// Plays a move already known to be legal.
    fn record(&mut self, side: Color, mv: Move, elapsed: Option<Duration>, eval: Option<f64>) {
        self.position = self
            .position
            .play_line([mv.to_string().as_str()])
            .expect("the referee plays only legal moves");
        self.moves.push(GgfMove {
            color: side,
            mv,
            eval,
            seconds: elapsed.map(|d| (d.as_secs_f64() * 1000.0).round() / 1000.0),
        });
    }

    /// Takes a move's time off the mover's clock and adds the increment.
    fn spend(&mut self, side: Color, elapsed: Duration) {
        if let ClockView::Clock { left, increment } = &mut self.clock {
            let own = &mut left[side_index(side)];
            *own = own.saturating_sub(elapsed) + *increment;
        }
    }

    fn forfeit(self, side: Color, fault: Fault) -> Result<Played, Interrupted> {
        let reason = Forfeit::from_fault(fault).ok_or(Interrupted)?;
        self.lose(side, reason)
    }

    fn lose(self, loser: Color, reason: Forfeit) -> Result<Played, Interrupted> {
        Ok(self.finish(Termination::Forfeit { loser, reason }))
    }

    fn finish(self, termination: Termination) -> Played {
        Played {
            start: self.start,
            moves: self.moves,
            opening_moves: self.opening_moves,
            end: self.position,
            termination,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;
    use crate::referee::client::Reply;

    /// A client that answers from a script of replies, then plays the first
    /// legal move; it is what the referee sees of a well- or ill-behaved engine.
    struct Scripted {
        replies: Vec<Result<Reply, Fault>>,
        asked: usize,
    }

    impl Scripted {
        fn new(replies: Vec<Result<Reply, Fault>>) -> Scripted {
            Scripted { replies, asked: 0 }
        }
    }

    fn reply(token: &str, ms: u64) -> Result<Reply, Fault> {
        Ok(Reply {
            token: token.to_string(),
            elapsed: Duration::from_millis(ms),
            eval: None,
        })
    }

    impl Client for Scripted {
        fn new_game(&mut self, _start: &AnyPosition) -> Result<(), Fault> {
            Ok(())
        }
        fn best_move(&mut self, turn: &Turn<'_>, _allowance: Duration) -> Result<Reply, Fault> {
            self.asked += 1;
            if self.replies.is_empty() {
                let first = turn.position.legal_move_names().remove(0);
                return reply(&first, 1);
            }
            self.replies.remove(0)
        }
        fn shut_down(&mut self) {}
    }

    const MOVETIME: TimeControl = TimeControl::MoveTime(Duration::from_millis(50));
    const MARGIN: Duration = Duration::from_millis(20);

    fn game(black: &mut Scripted, white: &mut Scripted, opening: &[&str]) -> Played {
        let start = AnyPosition::start(Variant::Othello);
        let opening: Vec<Move> = opening.iter().map(|m| m.parse().unwrap()).collect();
        play([black, white], start, &opening, MOVETIME, MARGIN).unwrap()
    }

    #[test]
    fn a_whole_game_with_the_rules_deciding() {
        let (mut b, mut w) = (Scripted::new(vec![]), Scripted::new(vec![]));
        let played = game(&mut b, &mut w, &["f5", "d6"]);
        assert_eq!(played.termination, Termination::Finished);
        assert!(played.end.is_over());
        assert_eq!(played.opening_moves, 2);
        assert_eq!(played.moves[0].seconds, None);
        assert_eq!(played.moves[2].seconds, Some(0.001));
        let placements = played.moves.iter().filter(|m| m.mv != Move::Pass).count();
        // Engines are asked only for placements the opening did not make.
        assert_eq!(b.asked + w.asked, placements - 2);
        let score = played.black_score().unwrap();
        assert_eq!(
            played.winner(),
            match score {
                s if s > 0 => Some(Color::Black),
                s if s < 0 => Some(Color::White),
                _ => None,
            }
        );
        let record = played.ggf("A", "B", &MOVETIME, "2026.01.01_00:00:00.UTC");
        assert_eq!(
            record.property("RE"),
            Some(format!("{score:+}.000").as_str())
        );
        assert_eq!(record.property("TI"), Some("0:00/0:00.05"));
        let text = record.to_string();
        let parsed: GgfGame = text.parse().unwrap();
        assert_eq!(parsed.position().unwrap(), played.end);
    }

    #[test]
    fn illegal_moves_lose() {
        for (token, why) in [
            ("a1", "a1 is not legal here"),
            ("z9", "'z9' is not a move"),
            ("pass", "pass while O can play"),
            ("", "'' is not a move"),
        ] {
            let mut b = Scripted::new(vec![]);
            let mut w = Scripted::new(vec![reply(token, 5)]);
            let played = game(&mut b, &mut w, &[]);
            match &played.termination {
                Termination::Forfeit {
                    loser: Color::White,
                    reason: Forfeit::Illegal(detail),
                } => assert!(detail.to_string().contains(why), "{token}: {detail}"),
                other => panic!("{token}: {other:?}"),
            }
            assert_eq!(played.winner(), Some(Color::Black));
            assert_eq!(played.black_score(), None);
            assert_eq!(played.moves.len(), 1);
            let record = played.ggf("A", "B", &MOVETIME, "d");
            assert_eq!(record.property("RE"), Some("+64.000:r"));
            assert!(record.property("GC").unwrap().starts_with("B illegal move"));
        }
    }

    #[test]
    fn time_faults_and_silence() {
        // A reply that came (by its stamp) after the limit plus the margin.
        let mut b = Scripted::new(vec![reply("f5", 71)]);
        let played = game(&mut b, &mut Scripted::new(vec![]), &[]);
        assert!(matches!(
            played.termination,
            Termination::Forfeit {
                loser: Color::Black,
                reason: Forfeit::Time(_)
            }
        ));
        assert_eq!(
            played.ggf("A", "B", &MOVETIME, "d").property("RE"),
            Some("-64.000:t")
        );
        // Exactly at the limit plus the margin is in time.
        let mut b = Scripted::new(vec![reply("f5", 70)]);
        let played = game(&mut b, &mut Scripted::new(vec![]), &[]);
        assert_eq!(played.termination, Termination::Finished);

        for (fault, kind) in [
            (Fault::TimedOut(Duration::from_millis(70)), 0),
            (Fault::Crashed("it exited with status 1".into()), 2),
            (Fault::Silent("no readyok within 1000 ms".into()), 3),
            (Fault::Protocol("'bestmove' without a move".into()), 4),
        ] {
            // Black opens d3 (its first legal move); white answers c3.
            let mut w = Scripted::new(vec![reply("c3", 1), Err(fault)]);
            let played = game(&mut Scripted::new(vec![]), &mut w, &[]);
            match &played.termination {
                Termination::Forfeit { loser, reason } => {
                    assert_eq!(*loser, Color::White);
                    assert_eq!(reason.kind(), kind);
                }
                other => panic!("{other:?}"),
            }
        }
        let mut w = Scripted::new(vec![Err(Fault::Interrupted)]);
        let start = AnyPosition::start(Variant::Othello);
        let mut b = Scripted::new(vec![]);
        assert_eq!(
            play([&mut b, &mut w], start, &[], MOVETIME, MARGIN),
            Err(Interrupted)
        );
        let mut w = Scripted::new(vec![reply("RESIGN", 1)]);
        let played = game(&mut Scripted::new(vec![]), &mut w, &[]);
        assert!(matches!(
            played.termination,
            Termination::Forfeit {
                reason: Forfeit::Resigned,
                ..
            }
        ));
    }

    #[test]
    fn clocks_run_down_and_run_out() {
        let clock = TimeControl::Clock {
            main: Duration::from_millis(100),
            increment: Duration::from_millis(10),
        };
        let start = AnyPosition::start(Variant::Othello);
        // Black spends 60 ms, then 40: 100 - 60 + 10 = 50 left, so 40 is in
        // time; then 45 more is over the 20 left plus the 20 ms margin.
        let mut b = Scripted::new(vec![reply("f5", 60), reply("c3", 40), reply("c5", 45)]);
        let mut w = Scripted::new(vec![reply("d6", 1), reply("d3", 1)]);
        let played = play([&mut b, &mut w], start, &[], clock, MARGIN).unwrap();
        match &played.termination {
            Termination::Forfeit {
                loser: Color::Black,
                reason: Forfeit::Time(detail),
            } => assert_eq!(detail, "45 ms for a limit of 20 ms"),
            other => panic!("{other:?}"),
        }
        assert_eq!(played.moves.len(), 4);
    }

    #[test]
    fn passes_are_played_by_the_referee() {
        // Black to move has no move; white has h8, which ends the game.
        let start = AnyPosition::parse(
            Variant::Othello,
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X",
        )
        .unwrap();
        let mut b = Scripted::new(vec![]);
        let mut w = Scripted::new(vec![]);
        let played = play([&mut b, &mut w], start, &[], MOVETIME, MARGIN).unwrap();
        assert_eq!(b.asked, 0);
        assert_eq!(w.asked, 1);
        assert_eq!(played.moves[0].mv, Move::Pass);
        assert_eq!(played.moves[0].color, Color::Black);
        assert_eq!(played.black_score(), Some(58));
        assert_eq!(played.winner(), Some(Color::Black));
        let reversed = AnyPosition::parse(Variant::Reversed, &start.to_string()).unwrap();
        let played = play([&mut b, &mut w], reversed, &[], MOVETIME, MARGIN).unwrap();
        assert_eq!(played.black_score(), Some(-58));
        assert_eq!(played.winner(), Some(Color::White));
        let record = played.ggf("A", "B", &MOVETIME, "d");
        assert_eq!(record.property("TY"), Some("8a"));
        assert_eq!(record.property("RE"), Some("-58.000"));
    }
}
