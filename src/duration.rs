//! The time syntax of every command-line flag and option that takes a
//! time: a bare number of milliseconds (`500`) or a number with its unit
//! (`500ms`, `2.5s`, `1m`).

use std::fmt;
use std::time::Duration;

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
