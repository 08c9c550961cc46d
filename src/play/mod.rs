//! `orca play` without the terminal: everything about a person's game against
//! Orca that can be decided and tested from plain values.
//!
//! [`session`] holds the game itself (who sits where, the moves with who made
//! them, undo to the person's previous turn, the result line, the move list and
//! the GGF record); [`input`] turns a typed line into a command or a move and
//! reads the times of the command line; [`render`] draws the board and the
//! status and score text.
//! The command-line front (`src/cli/play.rs`) only adds the engine, the
//! terminal and the files, so the game flow is checked here without either.

pub mod input;
pub mod render;
pub mod session;

use std::time::{SystemTime, UNIX_EPOCH};

use crate::score::Score;

pub use input::{DurationError, Input, InputError, parse_duration, parse_input, parse_movetime};
pub use render::Style;
pub use session::{MoveError, PlayedMove, Player, Seating, Session, Source, Turn};

/// A loss of at least this much is a mistake (`?`)...
pub const MISTAKE: Score = Score::from_discs(2);

/// ...and of at least this much a blunder (`??`).
pub const BLUNDER: Score = Score::from_discs(6);

/// How a move that lost `loss` against the best is marked, as `orca analyze`
/// and the web page mark it: `??`, `?` or nothing.
pub fn loss_mark(loss: Score) -> &'static str {
    match loss {
        l if l >= BLUNDER => "??",
        l if l >= MISTAKE => "?",
        _ => "",
    }
}

/// The date of a game record in the form GGS archives use
/// (`2003.08.22_16:24:40.UTC`), computed here so no date crate is needed.
pub fn ggf_date(time: SystemTime) -> String {
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
    use std::time::Duration;

    #[test]
    fn record_dates_are_utc_calendar_dates() {
        assert_eq!(ggf_date(UNIX_EPOCH), "1970.01.01_00:00:00.UTC");
        // 2000-02-29 12:34:56 UTC, a leap day in a year divisible by 400.
        let leap = UNIX_EPOCH + Duration::from_secs(951_827_696);
        assert_eq!(ggf_date(leap), "2000.02.29_12:34:56.UTC");
        // 2024-12-31 23:59:59 UTC, the last second of a leap year.
        let end = UNIX_EPOCH + Duration::from_secs(1_735_689_599);
        assert_eq!(ggf_date(end), "2024.12.31_23:59:59.UTC");
    }
}
