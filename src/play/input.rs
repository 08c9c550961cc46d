//! What a person types at the `orca play` prompt, and the time syntax of every
//! command-line flag that takes a time.
//!
//! A line is one move or one command. Only the shape of a move is checked here
//! (a letter and a row number, or a pass); whether it is a square of this game
//! and legal is the session's business, so that the message can say why.

use std::fmt;
use std::time::Duration;

use crate::game::square::is_pass_token;

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A blank line: ask again.
    Nothing,
    /// Something shaped like a move (`f5`, `F5`, `pass`), as typed.
    Move(String),
    /// Ask Orca for its best move and score.
    Hint,
    /// Take back moves to the person's previous turn.
    Undo,
    /// Start a new game with the same settings.
    New,
    /// List the commands.
    Help,
    /// Leave.
    Quit,
}

/// A line that is neither a move nor a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// A word that means nothing here.
    Unknown(String),
    /// More than one word: moves are entered one at a time.
    TooManyWords(String),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Unknown(word) => write!(
                f,
                "'{word}' is neither a move (like f5) nor a command (type help)"
            ),
            InputError::TooManyWords(line) => {
                write!(f, "one move or command per line, not '{line}'")
            }
        }
    }
}

impl std::error::Error for InputError {}

/// Whether a word looks like a move of some board: a letter, then a number.
fn looks_like_move(word: &str) -> bool {
    let mut chars = word.chars();
    let letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let digits: Vec<char> = chars.collect();
    (letter && (1..=2).contains(&digits.len()) && digits.iter().all(char::is_ascii_digit))
        || is_pass_token(word)
}

/// Reads one line typed at the prompt (any case, surrounding blanks ignored).
///
/// # Errors
/// When the line is not one move or one command.
pub fn parse_input(line: &str) -> Result<Input, InputError> {
    let mut words = line.split_whitespace();
    let Some(word) = words.next() else {
        return Ok(Input::Nothing);
    };
    if words.next().is_some() {
        return Err(InputError::TooManyWords(line.trim().to_string()));
    }
    Ok(match word.to_ascii_lowercase().as_str() {
        "hint" => Input::Hint,
        "undo" => Input::Undo,
        "new" => Input::New,
        "help" | "?" => Input::Help,
        "quit" | "exit" => Input::Quit,
        _ if looks_like_move(word) => Input::Move(word.to_string()),
        _ => return Err(InputError::Unknown(word.to_string())),
    })
}

/// A time on the command line that is not one, or not in the flag's range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DurationError {
    /// Not a number with an optional unit.
    NotATime(String),
    /// A time outside the flag's range.
    OutOfRange {
        /// The text as given.
        text: String,
        /// The shortest time accepted.
        min: Duration,
        /// The longest time accepted.
        max: Duration,
    },
}

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DurationError::NotATime(text) => write!(
                f,
                "'{text}' is not a time like 500 (milliseconds), 500ms, 2.5s or 1m"
            ),
            DurationError::OutOfRange { text, min, max } => write!(
                f,
                "'{text}' is out of range: from {} to {}",
                duration_text(*min),
                duration_text(*max)
            ),
        }
    }
}

impl std::error::Error for DurationError {}

/// The longest thinking time `--movetime` accepts.
pub const MAX_MOVETIME: Duration = Duration::from_secs(3600);

/// Reads a time given on the command line, the one syntax of every flag that
/// takes one: a bare number of milliseconds (`500`), or a number with its
/// unit, `ms`, `s` or `m` (`500ms`, `2.5s`, `1m`, any case). The value is
/// rounded to a whole millisecond and must lie within `min..=max`.
///
/// # Errors
/// A [`DurationError`] saying what a good value looks like.
pub fn parse_duration(text: &str, min: Duration, max: Duration) -> Result<Duration, DurationError> {
    let lower = text.trim().to_ascii_lowercase();
    let (number, ms_per_unit) = if let Some(n) = lower.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = lower.strip_suffix('s') {
        (n, 1e3)
    } else if let Some(n) = lower.strip_suffix('m') {
        (n, 60e3)
    } else {
        (lower.as_str(), 1.0)
    };
    let millis = number
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .map(|v| v * ms_per_unit)
        .ok_or_else(|| DurationError::NotATime(text.to_string()))?;
    let in_range = millis >= 0.0 && millis.round() <= max.as_millis() as f64;
    let time = Duration::from_millis(millis.round() as u64);
    if !in_range || time < min {
        return Err(DurationError::OutOfRange {
            text: text.to_string(),
            min,
            max,
        });
    }
    Ok(time)
}

/// A thinking time or a time limit (`--movetime`, `--margin`, `--timeout`):
/// [`parse_duration`] from 1 ms to [`MAX_MOVETIME`].
///
/// # Errors
/// A [`DurationError`] saying what a good value looks like.
pub fn parse_movetime(text: &str) -> Result<Duration, DurationError> {
    parse_duration(text, Duration::from_millis(1), MAX_MOVETIME)
}

/// A duration as [`parse_duration`] reads it back: `0ms`, `1ms`, `3600s`.
fn duration_text(time: Duration) -> String {
    if time.subsec_millis() == 0 && !time.is_zero() {
        format!("{}s", time.as_secs())
    } else {
        format!("{}ms", time.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_commands_in_any_case() {
        assert_eq!(parse_input("f5"), Ok(Input::Move("f5".into())));
        assert_eq!(parse_input("  F5 \r"), Ok(Input::Move("F5".into())));
        assert_eq!(parse_input("z9"), Ok(Input::Move("z9".into())));
        assert_eq!(parse_input("a10"), Ok(Input::Move("a10".into())));
        assert_eq!(parse_input("PASS"), Ok(Input::Move("PASS".into())));
        assert_eq!(parse_input("Hint"), Ok(Input::Hint));
        assert_eq!(parse_input("UNDO"), Ok(Input::Undo));
        assert_eq!(parse_input("new"), Ok(Input::New));
        assert_eq!(parse_input("?"), Ok(Input::Help));
        assert_eq!(parse_input("exit"), Ok(Input::Quit));
        assert_eq!(parse_input(""), Ok(Input::Nothing));
        assert_eq!(parse_input(" \t "), Ok(Input::Nothing));
    }

    #[test]
    fn other_lines_are_refused_with_a_reason() {
        assert_eq!(
            parse_input("hello"),
            Err(InputError::Unknown("hello".into()))
        );
        assert_eq!(parse_input("f"), Err(InputError::Unknown("f".into())));
        assert_eq!(parse_input("5f"), Err(InputError::Unknown("5f".into())));
        assert_eq!(parse_input("é1"), Err(InputError::Unknown("é1".into())));
        assert_eq!(
            parse_input("f5 d6"),
            Err(InputError::TooManyWords("f5 d6".into()))
        );
        assert!(
            parse_input("hello")
                .unwrap_err()
                .to_string()
                .contains("type help")
        );
    }

    #[test]
    fn durations_are_milliseconds_or_carry_a_unit() {
        assert_eq!(parse_movetime("1s"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_movetime("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_movetime("2.5S"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_movetime("2"), Ok(Duration::from_millis(2)));
        assert_eq!(parse_movetime(" 250 "), Ok(Duration::from_millis(250)));
        assert_eq!(parse_movetime("1m"), Ok(Duration::from_secs(60)));
        assert_eq!(parse_movetime("0.5M"), Ok(Duration::from_secs(30)));
        let message = |text| parse_movetime(text).unwrap_err().to_string();
        assert_eq!(
            message("fast"),
            "'fast' is not a time like 500 (milliseconds), 500ms, 2.5s or 1m"
        );
        assert_eq!(message("0s"), "'0s' is out of range: from 1ms to 3600s");
        assert!(message("0").contains("from 1ms to 3600s"));
        assert!(parse_movetime("-1s").is_err());
        assert!(parse_movetime("2h").is_err());
        assert!(parse_movetime("NaNs").is_err());
        assert!(parse_movetime("infs").is_err());
        assert!(parse_movetime("4000s").is_err());
        assert!(parse_movetime("61m").is_err());
        assert!(parse_movetime("1e300").is_err());
        let overhead = parse_duration("0", Duration::ZERO, Duration::from_secs(5));
        assert_eq!(overhead, Ok(Duration::ZERO));
        let late = parse_duration("6s", Duration::ZERO, Duration::from_secs(5));
        assert!(late.unwrap_err().to_string().contains("from 0ms to 5s"));
    }
}
