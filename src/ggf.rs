//! GGF game records, the format of the GGS server archives and of NBoard's
//! `set game`: `(;GM[Othello]PB[..]PW[..]TI[15:00]TY[8]BO[8 <squares> <side>]B[F5//1.2]W[F6];)`.
//!
//! Read: every `KEY[value]` property in order; the start board and side (`BO`),
//! the game type (`TY`, where the flag `a` means reversed Othello), the clocks
//! (`TI` for both, `TB`/`TW` per colour, `[[h:]m:]s[/increment[/grace]]`) and the
//! moves (`B[mv/eval/time]`, `W[...]`, pass `PA`). Written back in the same order,
//! so a record survives a parse/print round trip.
//!
//! NBoard's `set game` and `move` go through here, so this module also answers
//! what the front end needs of a record: whose move each one was (forced passes
//! left out by the writer are put back), and how much time each side has left.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::game::{AnyPosition, Board, Color, LineError, Move, Variant};
use crate::search::time::Clock;

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

/// A move as written inside `B[...]` and in NBoard's `move` command:
/// `square[/eval[/time]]`, the pass written `PA`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveNote {
    /// The move.
    pub mv: Move,
    /// The player's evaluation, if given.
    pub eval: Option<f64>,
    /// Seconds the player used, if given.
    pub seconds: Option<f64>,
}

impl FromStr for MoveNote {
    type Err = GgfError;

    /// The time may be plain seconds (`1.5`) or `[[h:]m:]s` (`1:05`).
    fn from_str(value: &str) -> Result<MoveNote, GgfError> {
        let bad = || GgfError::BadMove(value.to_string());
        let mut parts = value.split('/');
        let mv: Move = parts
            .next()
            .unwrap_or("")
            .trim()
            .parse()
            .map_err(|_| bad())?;
        let eval = match parts.next().map(str::trim) {
            None | Some("") => None,
            Some(t) => Some(
                t.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(bad)?,
            ),
        };
        let seconds = match parts.next().map(str::trim) {
            None | Some("") => None,
            // Plain seconds are kept as written, so that they print back the same.
            Some(t) if !t.contains(':') => Some(
                t.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .ok_or_else(bad)?,
            ),
            Some(t) => Some(parse_duration(t).ok_or_else(bad)?.as_secs_f64()),
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(MoveNote { mv, eval, seconds })
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
    /// A move is written for the side that is not to move (and that side
    /// does not have to pass).
    WrongColor {
        /// 1-based index of the move in the record.
        ply: usize,
        /// The colour the record gives.
        written: Color,
    },
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
            GgfError::WrongColor { ply, written } => {
                let key = if *written == Color::Black { 'B' } else { 'W' };
                write!(
                    f,
                    "move {ply} is written {key}[..] but the other side is to move"
                )
            }
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

impl GgfMove {
    /// The move `note` played by `color`.
    pub fn new(color: Color, note: MoveNote) -> GgfMove {
        GgfMove {
            color,
            mv: note.mv,
            eval: note.eval,
            seconds: note.seconds,
        }
    }
}

fn parse_move(color: Color, value: &str) -> Result<GgfMove, GgfError> {
    Ok(GgfMove::new(color, value.parse()?))
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

    /// The position after every move, passes inserted where a side had to pass
    /// and the record left the pass out.
    ///
    /// # Errors
    /// The first move that is not legal, or that is written for the side that
    /// is not to move.
    pub fn position(&self) -> Result<AnyPosition, GgfError> {
        let mut position = self.start;
        for (i, m) in self.moves.iter().enumerate() {
            position = play_for(position, m.color, m.mv, i + 1)?;
        }
        Ok(position)
    }

    /// The position after each number of moves: `positions()[i]` is the
    /// position after the record's first `i` moves (passes the record left
    /// out are put in), so there is one more position than moves.
    ///
    /// # Errors
    /// As [`GgfGame::position`].
    pub fn positions(&self) -> Result<Vec<AnyPosition>, GgfError> {
        let mut position = self.start;
        let mut positions = vec![position];
        for (i, m) in self.moves.iter().enumerate() {
            position = play_for(position, m.color, m.mv, i + 1)?;
            positions.push(position);
        }
        Ok(positions)
    }

    /// The game as played: every move, the passes the record left out put
    /// in, and the position before each move and after the last (one more
    /// position than moves).
    ///
    /// # Errors
    /// As [`GgfGame::position`].
    pub fn replay(&self) -> Result<(Vec<Move>, Vec<AnyPosition>), GgfError> {
        let mut position = self.start;
        let mut moves = Vec::with_capacity(self.moves.len());
        let mut positions = vec![position];
        for (i, m) in self.moves.iter().enumerate() {
            if position.to_move() != m.color && position.must_pass() {
                position = play_for(position, position.to_move(), Move::Pass, i + 1)?;
                moves.push(Move::Pass);
                positions.push(position);
            }
            position = play_for(position, m.color, m.mv, i + 1)?;
            moves.push(m.mv);
            positions.push(position);
        }
        Ok((moves, positions))
    }

    /// Appends a move of the side to move (after the forced pass, written out as
    /// `PA`, when that side has no move) and returns the position after it. The
    /// record is unchanged when the move is not legal.
    ///
    /// # Errors
    /// When the record does not replay, or the move is not legal.
    pub fn play(&mut self, note: MoveNote) -> Result<AnyPosition, GgfError> {
        let mut position = self.position()?;
        let mut added = Vec::new();
        if note.mv != Move::Pass && position.must_pass() {
            added.push(GgfMove::new(
                position.to_move(),
                MoveNote {
                    mv: Move::Pass,
                    eval: None,
                    seconds: None,
                },
            ));
            position = play_for(
                position,
                position.to_move(),
                Move::Pass,
                self.moves.len() + 1,
            )?;
        }
        let mover = position.to_move();
        position = play_for(position, mover, note.mv, self.moves.len() + added.len() + 1)?;
        added.push(GgfMove::new(mover, note));
        self.moves.extend(added);
        Ok(position)
    }

    /// The time `color` has left on its clock at the end of the record: its
    /// clock (`TB`/`TW`, else `TI`) plus one increment per move it made, minus
    /// the seconds written on its moves. Grace time counts only once the main
    /// time is used up. `None` when the record has no clock, or a zero one.
    /// GGF has no moves-to-go: the clock's `moves_to_go` is `None`.
    ///
    /// # Errors
    /// When the clock property is malformed.
    pub fn time_left(&self, color: Color) -> Result<Option<Clock>, GgfError> {
        let Some(clock) = self.clock(color)? else {
            return Ok(None);
        };
        if clock.main.is_zero() && clock.increment.is_zero() && clock.grace.is_zero() {
            return Ok(None);
        }
        let own = self.moves.iter().filter(|m| m.color == color);
        let made = own.clone().count() as u32;
        let spent: f64 = own.filter_map(|m| m.seconds).filter(|s| *s > 0.0).sum();
        let spent = Duration::try_from_secs_f64(spent).unwrap_or(Duration::MAX);
        let main = clock
            .main
            .saturating_add(clock.increment.saturating_mul(made));
        let remaining = match main.checked_sub(spent) {
            Some(left) if !left.is_zero() => left,
            _ => main.saturating_add(clock.grace).saturating_sub(spent),
        };
        Ok(Some(Clock {
            remaining,
            increment: clock.increment,
            moves_to_go: None,
        }))
    }
}

/// `mv` played by `color` (the `ply`-th move of the record), after the forced
/// pass of the other side if `color` is not to move.
fn play_for(
    position: AnyPosition,
    color: Color,
    mv: Move,
    ply: usize,
) -> Result<AnyPosition, GgfError> {
    let mut position = position;
    if position.to_move() != color && !position.is_over() {
        if !position.must_pass() {
            return Err(GgfError::WrongColor {
                ply,
                written: color,
            });
        }
        position = position.play_line(["pass"]).map_err(GgfError::Illegal)?;
    }
    position
        .play_line([mv.to_string().as_str()])
        .map_err(|e| GgfError::Illegal(LineError { ply, ..e }))
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

/// GGF records hold Othello games only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotOthello;

impl fmt::Display for NotOthello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GGF records hold Othello games; tic-tac-toe games cannot be saved")
    }
}

impl std::error::Error for NotOthello {}

/// A GGF record of a game from `start` that reached `end`, its moves yet
/// to be added: the place, date, players (black, white), result and type.
///
/// # Errors
/// [`NotOthello`] for tic-tac-toe.
pub fn header(
    start: AnyPosition,
    end: AnyPosition,
    place: &str,
    date: &str,
    [black, white]: [&str; 2],
) -> Result<GgfGame, NotOthello> {
    let game_type = match start.variant() {
        Variant::Othello => "8",
        Variant::Reversed => "8a",
        Variant::TicTacToe => return Err(NotOthello),
    };
    let mut record = GgfGame::new(start);
    record.set_property("PC", place);
    record.set_property("DT", date);
    record.set_property("PB", black);
    record.set_property("PW", white);
    let result = end
        .black_score()
        .map_or_else(|| "?".to_string(), |score| format!("{score:+}.000"));
    record.set_property("RE", &result);
    record.set_property("TY", game_type);
    Ok(record)
}

/// The date of a game record in the form GGS archives use
/// (`2003.08.22_16:24:40.UTC`), computed here so no date crate is needed.
pub fn date(time: SystemTime) -> String {
    let seconds = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    let in_day = seconds % 86_400;
    format!(
        "{year:04}.{month:02}.{day:02}_{:02}:{:02}:{:02}.UTC",
        in_day / 3600,
        in_day / 60 % 60,
        in_day % 60
    )
}

/// The Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * shifted_month + 2) / 5 + 1) as u32;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
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
        // Black must pass; the record leaves the pass out, the replay puts
        // it in, a position before each move and after the last.
        let end = g.position().unwrap();
        assert!(end.is_over());
        let (moves, positions) = g.replay().unwrap();
        assert_eq!(moves, [Move::Pass, "h8".parse().unwrap()]);
        assert_eq!(positions.len(), 3);
        assert_eq!((positions[0], positions[2]), (g.start, end));
        assert_eq!(positions[1].to_move(), Color::White);
        assert_eq!(g.positions().unwrap().last(), Some(&end));
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
    fn move_notes_and_nboard_moves() {
        let note: MoveNote = "F5/-1.25/1:05".parse().unwrap();
        assert_eq!(note.mv, "f5".parse::<Move>().unwrap());
        assert_eq!(note.eval, Some(-1.25));
        assert_eq!(note.seconds, Some(65.0));
        assert_eq!("pa".parse::<MoveNote>().unwrap().mv, Move::Pass);
        assert_eq!("d3//2".parse::<MoveNote>().unwrap().seconds, Some(2.0));
        assert_eq!("d3//3.02".parse::<MoveNote>().unwrap().seconds, Some(3.02));
        for bad in ["", "z9", "f5/x", "f5/1/-2", "f5/1/2/3", "f5/inf"] {
            assert!(bad.parse::<MoveNote>().is_err(), "{bad}");
        }

        let mut g: GgfGame = NBOARD.parse().unwrap();
        let before = g.clone();
        assert!(g.play("a1".parse().unwrap()).is_err());
        assert_eq!(g, before, "an illegal move leaves the record as it was");
        let p = g.play("f4/0.5/2".parse().unwrap()).unwrap();
        assert_eq!(p.to_move(), Color::Black);
        assert_eq!(g.moves.last().unwrap().color, Color::White);
        assert_eq!(g.position().unwrap(), p);
    }

    #[test]
    fn forced_passes_are_written_out_and_colours_checked() {
        let pass_board = "8 *************************************************************O*- *";
        let mut g: GgfGame = format!("(;GM[Othello]BO[{pass_board}];)").parse().unwrap();
        // Black must pass: white's move comes with the pass put in the record.
        let end = g.play("H8".parse().unwrap()).unwrap();
        assert!(end.is_over());
        assert_eq!(g.moves.len(), 2);
        assert_eq!(
            (g.moves[0].color, g.moves[0].mv),
            (Color::Black, Move::Pass)
        );
        assert_eq!(g.moves[1].color, Color::White);
        assert!(g.to_string().contains("B[PA]W[H8]"), "{g}");

        // A move written for the side that is not to move.
        let wrong: GgfGame = "(;GM[Othello]W[F5];)".parse().unwrap();
        assert_eq!(
            wrong.position(),
            Err(GgfError::WrongColor {
                ply: 1,
                written: Color::White
            })
        );
        assert!(wrong.position().unwrap_err().to_string().contains("W[..]"));
    }

    #[test]
    fn time_left_counts_moves_increments_and_grace() {
        let g: GgfGame = NBOARD.parse().unwrap();
        let black = g.time_left(Color::Black).unwrap().unwrap();
        assert_eq!(black.remaining, Duration::from_secs_f64(300.0 - 1.2));
        assert_eq!(black.increment, Duration::ZERO);
        let white = g.time_left(Color::White).unwrap().unwrap();
        assert_eq!(white.remaining, Duration::from_secs_f64(300.0 - 3.02));

        let record = "(;GM[Othello]TB[1:00/5]TW[0:10//0:30]B[F5//20]W[F6//12]B[E6//1];)";
        let g: GgfGame = record.parse().unwrap();
        // Black: 60 s + 2 increments of 5 s - 21 s.
        let black = g.time_left(Color::Black).unwrap().unwrap();
        assert_eq!(black.remaining, Duration::from_secs(49));
        assert_eq!(black.increment, Duration::from_secs(5));
        // White used 12 s of a 10 s clock: 28 s of its 30 s grace are left.
        let white = g.time_left(Color::White).unwrap().unwrap();
        assert_eq!(white.remaining, Duration::from_secs(28));

        let untimed: GgfGame = "(;GM[Othello]TI[0:00];)".parse().unwrap();
        assert_eq!(untimed.time_left(Color::Black), Ok(None));
        let none: GgfGame = "(;GM[Othello];)".parse().unwrap();
        assert_eq!(none.time_left(Color::White), Ok(None));
    }

    proptest::proptest! {
        /// Random games, played through `play` with random notes and clocks,
        /// print and parse back to the same record and position.
        #[test]
        fn random_records_round_trip(seed in proptest::prelude::any::<u64>(), reversed: bool, plies in 0usize..70) {
            let mut rng = crate::rng::Rng::new(seed);
            let variant = if reversed { Variant::Reversed } else { Variant::Othello };
            let mut g = GgfGame::new(AnyPosition::start(variant));
            g.set_property("PB", "black ]\\ player");
            g.set_property("TY", if reversed { "8a" } else { "8" });
            g.set_property("TI", "5:00/2/0:30");
            let mut position = g.position().unwrap();
            for _ in 0..plies {
                let moves = position.legal_move_names();
                if moves.is_empty() {
                    break;
                }
                let mv = &moves[rng.below(moves.len() as u64) as usize];
                let eval = (rng.below(12_801) as f64 - 6400.0) / 100.0;
                let seconds = rng.below(10_000) as f64 / 100.0;
                let note = format!("{mv}/{eval}/{seconds}");
                position = g.play(note.parse().unwrap()).unwrap();
            }
            let text = g.to_string();
            let back: GgfGame = text.parse().unwrap();
            proptest::prop_assert_eq!(&back, &g);
            proptest::prop_assert_eq!(back.position().unwrap(), position);
            proptest::prop_assert_eq!(back.variant(), variant);
            proptest::prop_assert_eq!(back.to_string(), text);
        }
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

    #[test]
    fn record_dates_are_utc_calendar_dates() {
        assert_eq!(date(UNIX_EPOCH), "1970.01.01_00:00:00.UTC");
        // 2000-02-29 12:34:56 UTC, a leap day in a year divisible by 400.
        let leap = UNIX_EPOCH + Duration::from_secs(951_827_696);
        assert_eq!(date(leap), "2000.02.29_12:34:56.UTC");
        // 2024-12-31 23:59:59 UTC, the last second of a leap year.
        let end = UNIX_EPOCH + Duration::from_secs(1_735_689_599);
        assert_eq!(date(end), "2024.12.31_23:59:59.UTC");
    }
}
