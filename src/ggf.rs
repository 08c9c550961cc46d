//! GGF game records, the format of the GGS server archives and of NBoard's
//! `set game`: `(;GM[Othello]PB[..]PW[..]TI[15:00]TY[8]BO[8 <squares> <side>]B[F5//1.2]W[F6];)`.
//!
//! Read: every `KEY[value]` property in order; the start board and side (`BO`),
//! the game type (`TY`, where the flag `a` means reversed Othello), the clocks
//! (`TI` for both, `TB`/`TW` per colour, `[[h:]m:]s[/increment[/grace]]`) and the
//! moves (`B[mv/eval/time]`, `W[...]`, pass `PA`). Written back in the same order,
//! so a record survives a parse/print round trip.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::game::{AnyPosition, Board, Color, LineError, Move, Variant};

/// A clock setting: main time, increment per move, and grace time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GgfClock {
    /// Main thinking time.
    pub main: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Extra time after the main time runs out.
    pub grace: Duration,
}

fn parse_duration(text: &str) -> Option<Duration> {
    if text.is_empty() {
        return Some(Duration::ZERO);
    }
    let mut seconds = 0.0f64;
    for part in text.split(':') {
        let value: f64 = part.trim().parse().ok()?;
        if !(value.is_finite() && value >= 0.0) {
            return None;
        }
        seconds = seconds * 60.0 + value;
    }
    (text.split(':').count() <= 3).then(|| Duration::from_secs_f64(seconds))
}

fn format_duration(d: Duration) -> String {
    let total = d.as_secs_f64();
    let whole = total.floor() as u64;
    let fraction = total - whole as f64;
    let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60);
    let seconds = if fraction > 1e-9 {
        format!("{:06.3}", s as f64 + fraction)
            .trim_end_matches('0')
            .to_string()
    } else {
        format!("{s:02}")
    };
    if h > 0 {
        format!("{h}:{m:02}:{seconds}")
    } else {
        format!("{m}:{seconds}")
    }
}

impl FromStr for GgfClock {
    type Err = GgfError;

    fn from_str(s: &str) -> Result<GgfClock, GgfError> {
        let bad = || GgfError::BadClock(s.to_string());
        let mut parts = s.split('/');
        let main = parse_duration(parts.next().unwrap_or("")).ok_or_else(bad)?;
        let increment = parse_duration(parts.next().unwrap_or("")).ok_or_else(bad)?;
        let grace = parse_duration(parts.next().unwrap_or("")).ok_or_else(bad)?;
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(GgfClock {
            main,
            increment,
            grace,
        })
    }
}

impl fmt::Display for GgfClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_duration(self.main))?;
        if !self.increment.is_zero() || !self.grace.is_zero() {
            write!(f, "/{}", format_duration(self.increment))?;
        }
        if !self.grace.is_zero() {
            write!(f, "/{}", format_duration(self.grace))?;
        }
        Ok(())
    }
}

/// One move of a record, with what the player annotated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfMove {
    /// Who played it.
    pub color: Color,
    /// The move (`PA` is a pass).
    pub mv: Move,
    /// The player's evaluation, if given.
    pub eval: Option<f64>,
    /// Seconds the player used, if given.
    pub seconds: Option<f64>,
}

impl fmt::Display for GgfMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = match self.color {
            Color::Black => 'B',
            Color::White => 'W',
        };
        let mv = match self.mv {
            Move::Pass => "PA".to_string(),
            Move::Play(sq) => sq.to_string().to_uppercase(),
        };
        write!(f, "{key}[{mv}")?;
        if self.eval.is_some() || self.seconds.is_some() {
            write!(f, "/")?;
            if let Some(e) = self.eval {
                write!(f, "{e}")?;
            }
        }
        if let Some(t) = self.seconds {
            write!(f, "/{t}")?;
        }
        write!(f, "]")
    }
}

/// A GGF game record.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// Every property but `BO` and the moves, in the order read.
    pub properties: Vec<(String, String)>,
    /// The start position, with the game type from `TY`.
    pub start: AnyPosition,
    /// The moves in order.
    pub moves: Vec<GgfMove>,
}

/// What is wrong with a GGF record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GgfError {
    /// The text does not start with `(;` and end with `;)`.
    NotARecord,
    /// A property is not `KEY[value]`.
    BadProperty(String),
    /// `GM` names another game.
    NotOthello(String),
    /// `TY` is not an 8x8 board type.
    BadType(String),
    /// `BO` is not `8 <64 squares> <side>`.
    BadBoard(String),
    /// A clock is not `[[h:]m:]s[/inc[/grace]]`.
    BadClock(String),
    /// A move value is not `square[/eval[/time]]`.
    BadMove(String),
    /// A move is not legal in the game.
    Illegal(LineError),
}

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GgfError::NotARecord => write!(f, "not a GGF record (expected '(;' ... ';)')"),
            GgfError::BadProperty(p) => write!(f, "bad property '{p}'"),
            GgfError::NotOthello(g) => write!(f, "GM[{g}] is not Othello"),
            GgfError::BadType(t) => write!(f, "TY[{t}] is not an 8x8 Othello type"),
            GgfError::BadBoard(b) => write!(f, "bad board BO[{b}]"),
            GgfError::BadClock(c) => write!(f, "bad clock '{c}'"),
            GgfError::BadMove(m) => write!(f, "bad move '{m}'"),
            GgfError::Illegal(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GgfError {}

/// Splits the inside of a record into `(KEY, value)` pairs; `\]` and `\\`
/// inside values are escapes.
fn properties(body: &str) -> Result<Vec<(String, String)>, GgfError> {
    let mut out = Vec::new();
    let mut chars = body.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut key = String::new();
        while let Some(&(_, c)) = chars.peek() {
            if c.is_ascii_alphabetic() {
                key.push(c);
                chars.next();
            } else {
                break;
            }
        }
        if key.is_empty() || chars.next().map(|(_, c)| c) != Some('[') {
            return Err(GgfError::BadProperty(
                body[start..].chars().take(20).collect(),
            ));
        }
        let mut value = String::new();
        let mut closed = false;
        while let Some((_, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, next)) = chars.next() {
                        value.push(next);
                    }
                }
                ']' => {
                    closed = true;
                    break;
                }
                _ => value.push(c),
            }
        }
        if !closed {
            return Err(GgfError::BadProperty(format!("{key}[{value}")));
        }
        out.push((key.to_ascii_uppercase(), value));
    }
    Ok(out)
}

fn parse_move(color: Color, value: &str) -> Result<GgfMove, GgfError> {
    let bad = || GgfError::BadMove(value.to_string());
    let mut parts = value.split('/');
    let mv: Move = parts
        .next()
        .unwrap_or("")
        .trim()
        .parse()
        .map_err(|_| bad())?;
    let number = |p: Option<&str>| -> Result<Option<f64>, GgfError> {
        match p.map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => t
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .map(Some)
                .ok_or_else(bad),
        }
    };
    let eval = number(parts.next())?;
    let seconds = number(parts.next())?;
    Ok(GgfMove {
        color,
        mv,
        eval,
        seconds,
    })
}

fn parse_board(value: &str, variant: Variant) -> Result<AnyPosition, GgfError> {
    let bad = || GgfError::BadBoard(value.to_string());
    let tokens: Vec<&str> = value.split_whitespace().collect();
    let (size, squares, side) = match tokens.as_slice() {
        [size, side] if size.len() > 1 => (&"8", *size, *side),
        [size, squares, side] => (size, *squares, *side),
        // Some writers split the 64 squares into rows.
        [size, rest @ ..] if rest.len() == 9 => {
            let joined: String = rest[..8].concat();
            return parse_board(&format!("{size} {joined} {}", rest[8]), variant);
        }
        _ => return Err(bad()),
    };
    if *size != "8" {
        return Err(bad());
    }
    let to_move: Color = side.parse().map_err(|_| bad())?;
    let board = Board::parse_squares(squares, to_move).map_err(|_| bad())?;
    let text = format!("{} {}", board.squares_string(to_move), to_move);
    AnyPosition::parse(variant, &text).map_err(|_| bad())
}

impl GgfGame {
    /// A record of a game from the standard start, with no properties yet.
    pub fn new(start: AnyPosition) -> GgfGame {
        GgfGame {
            properties: vec![("GM".into(), "Othello".into())],
            start,
            moves: Vec::new(),
        }
    }

    /// The value of a property, if present.
    pub fn property(&self, key: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    /// Sets (or adds) a property.
    pub fn set_property(&mut self, key: &str, value: &str) {
        let key = key.to_ascii_uppercase();
        match self.properties.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = value.to_string(),
            None => self.properties.push((key, value.to_string())),
        }
    }

    /// The game type: reversed Othello when `TY` has the flag `a`.
    pub fn variant(&self) -> Variant {
        self.start.variant()
    }

    /// The clock of `color`: `TB`/`TW` if given, else `TI`.
    ///
    /// # Errors
    /// When the clock property is malformed.
    pub fn clock(&self, color: Color) -> Result<Option<GgfClock>, GgfError> {
        let own = match color {
            Color::Black => "TB",
            Color::White => "TW",
        };
        self.property(own)
            .or_else(|| self.property("TI"))
            .map(str::parse)
            .transpose()
    }

    /// The position after every move, passes inserted where a side had to pass.
    ///
    /// # Errors
    /// The first move that is not legal.
    pub fn position(&self) -> Result<AnyPosition, GgfError> {
        let tokens: Vec<String> = self.moves.iter().map(|m| m.mv.to_string()).collect();
        self.start
            .play_line(tokens.iter().map(String::as_str))
            .map_err(GgfError::Illegal)
    }
}

impl FromStr for GgfGame {
    type Err = GgfError;

    fn from_str(text: &str) -> Result<GgfGame, GgfError> {
        let text = text.trim();
        let body = text
            .strip_prefix("(;")
            .and_then(|t| t.strip_suffix(";)"))
            .ok_or(GgfError::NotARecord)?;
        let all = properties(body)?;
        let mut variant = Variant::Othello;
        for (key, value) in &all {
            match key.as_str() {
                "GM" if !value.eq_ignore_ascii_case("othello") => {
                    return Err(GgfError::NotOthello(value.clone()));
                }
                "TY" => {
                    let size: String = value.chars().take_while(char::is_ascii_digit).collect();
                    if size != "8" {
                        return Err(GgfError::BadType(value.clone()));
                    }
                    if value[size.len()..].contains('a') {
                        variant = Variant::Reversed;
                    }
                }
                _ => {}
            }
        }
        let mut start = AnyPosition::start(variant);
        let mut properties = Vec::new();
        let mut moves = Vec::new();
        for (key, value) in all {
            match key.as_str() {
                "BO" => start = parse_board(&value, variant)?,
                "B" => moves.push(parse_move(Color::Black, &value)?),
                "W" => moves.push(parse_move(Color::White, &value)?),
                _ => properties.push((key, value)),
            }
        }
        let game = GgfGame {
            properties,
            start,
            moves,
        };
        for color in [Color::Black, Color::White] {
            game.clock(color)?;
        }
        Ok(game)
    }
}

impl fmt::Display for GgfGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let escape = |v: &str| v.replace('\\', "\\\\").replace(']', "\\]");
        write!(f, "(;")?;
        let mut wrote_board = false;
        let board = {
            let text = self.start.to_string();
            let (squares, side) = text.split_once(' ').unwrap_or((&text, "X"));
            let squares = squares.replace('X', "*");
            let side = if side == "X" { "*" } else { "O" };
            format!("BO[8 {squares} {side}]")
        };
        for (key, value) in &self.properties {
            write!(f, "{key}[{}]", escape(value))?;
            // The board goes right after the type, where GGS puts it.
            if key == "TY" {
                f.write_str(&board)?;
                wrote_board = true;
            }
        }
        if !wrote_board {
            f.write_str(&board)?;
        }
        for mv in &self.moves {
            write!(f, "{mv}")?;
        }
        write!(f, ";)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NBOARD: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-13 19:33:28 GMT]PB[Human]PW[Edax]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6//3.02]B[E6/-1.50/1.2];)";

    #[test]
    fn parses_an_nboard_record() {
        let g: GgfGame = NBOARD.parse().unwrap();
        assert_eq!(g.variant(), Variant::Othello);
        assert_eq!(g.property("PB"), Some("Human"));
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.moves[1].seconds, Some(3.02));
        assert_eq!(g.moves[2].eval, Some(-1.5));
        assert_eq!(
            g.clock(Color::White).unwrap().unwrap().main,
            Duration::from_secs(300)
        );
        let p = g.position().unwrap();
        assert_eq!(p.to_move(), Color::White);
        assert_eq!(p.counts(), (5, 2));
    }

    #[test]
    fn round_trips() {
        let g: GgfGame = NBOARD.parse().unwrap();
        let printed = g.to_string();
        assert_eq!(printed.parse::<GgfGame>().unwrap(), g);
        // Numbers are written in their shortest form.
        assert_eq!(printed, NBOARD.replace("-1.50", "-1.5"));
    }

    #[test]
    fn reversed_type_clocks_and_passes() {
        let pass_board = "8 *************************************************************O*- *";
        let text = format!("(;GM[Othello]TY[8a]TB[1:00:00/5]TW[2:30//10]BO[{pass_board}]W[H8];)");
        let g: GgfGame = text.parse().unwrap();
        assert_eq!(g.variant(), Variant::Reversed);
        let black = g.clock(Color::Black).unwrap().unwrap();
        assert_eq!(black.main, Duration::from_secs(3600));
        assert_eq!(black.increment, Duration::from_secs(5));
        let white = g.clock(Color::White).unwrap().unwrap();
        assert_eq!(white.grace, Duration::from_secs(10));
        assert_eq!(white.to_string(), "2:30/0:00/0:10");
        // Black must pass; the record leaves the pass out.
        let end = g.position().unwrap();
        assert!(end.is_over());
        assert_eq!(
            text.parse::<GgfGame>()
                .unwrap()
                .to_string()
                .parse::<GgfGame>()
                .unwrap(),
            g
        );
    }

    #[test]
    fn explicit_pass_and_errors() {
        let g: GgfGame = "(;GM[Othello]BO[8 *************************************************************O*- *]B[PA]W[H8];)"
            .parse()
            .unwrap();
        assert_eq!(g.moves[0].mv, Move::Pass);
        assert!(g.position().unwrap().is_over());
        assert_eq!("GM[Othello]".parse::<GgfGame>(), Err(GgfError::NotARecord));
        assert!(matches!(
            "(;GM[Go];)".parse::<GgfGame>(),
            Err(GgfError::NotOthello(_))
        ));
        assert!(matches!(
            "(;GM[Othello]TY[10];)".parse::<GgfGame>(),
            Err(GgfError::BadType(_))
        ));
        assert!(matches!(
            "(;GM[Othello]TI[abc];)".parse::<GgfGame>(),
            Err(GgfError::BadClock(_))
        ));
        assert!(matches!(
            "(;GM[Othello]B[Z9];)".parse::<GgfGame>(),
            Err(GgfError::BadMove(_))
        ));
        assert!(matches!(
            "(;GM[Othello]BO[8 --- *];)".parse::<GgfGame>(),
            Err(GgfError::BadBoard(_))
        ));
        assert!(matches!(
            "(;GM[Othello]PB[unclosed;)".parse::<GgfGame>(),
            Err(GgfError::BadProperty(_))
        ));
        let illegal: GgfGame = "(;GM[Othello]B[A1];)".parse().unwrap();
        assert!(matches!(illegal.position(), Err(GgfError::Illegal(_))));
    }

    #[test]
    fn escapes_and_durations() {
        let g: GgfGame = r"(;GM[Othello]PB[a\]b];)".parse().unwrap();
        assert_eq!(g.property("PB"), Some("a]b"));
        assert!(g.to_string().contains(r"PB[a\]b]"));
        assert_eq!(parse_duration("1:02:03"), Some(Duration::from_secs(3723)));
        assert_eq!(parse_duration("1.5"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration("1:2:3:4"), None);
        assert_eq!(format_duration(Duration::from_secs(3723)), "1:02:03");
        assert_eq!(format_duration(Duration::from_millis(1500)), "0:01.5");
    }
}
