//! Who sits at the board in `orca play`: the `--color` flag.

use std::fmt;
use std::str::FromStr;

use crate::session::{Player, Seats};

/// Who sits at the board: the `--color` of `orca play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Seating {
    /// The person plays black (moves first), Orca white.
    #[default]
    PersonBlack,
    /// Orca plays black, the person white.
    PersonWhite,
    /// Two people share the terminal; Orca only gives hints.
    TwoPeople,
    /// Orca plays itself while the person watches.
    OrcaAlone,
}

impl Seating {
    /// Who plays each colour.
    pub const fn seats(self) -> Seats {
        let (black, white) = match self {
            Seating::PersonBlack => (Player::Person, Player::Orca),
            Seating::PersonWhite => (Player::Orca, Player::Person),
            Seating::TwoPeople => (Player::Person, Player::Person),
            Seating::OrcaAlone => (Player::Orca, Player::Orca),
        };
        Seats { black, white }
    }

    /// The seating of `seats`.
    pub fn of(seats: Seats) -> Seating {
        match (seats.black, seats.white) {
            (Player::Person, Player::Orca) => Seating::PersonBlack,
            (Player::Orca, Player::Person) => Seating::PersonWhite,
            (Player::Person, Player::Person) => Seating::TwoPeople,
            (Player::Orca, Player::Orca) => Seating::OrcaAlone,
        }
    }

    /// The `--color` value for this seating.
    pub const fn name(self) -> &'static str {
        match self {
            Seating::PersonBlack => "black",
            Seating::PersonWhite => "white",
            Seating::TwoPeople => "both",
            Seating::OrcaAlone => "none",
        }
    }
}

impl fmt::Display for Seating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--color` value that names no seating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSeatingError(pub String);

impl fmt::Display for ParseSeatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown color '{}' (expected black, white, both or none)",
            self.0
        )
    }
}

impl std::error::Error for ParseSeatingError {}

impl FromStr for Seating {
    type Err = ParseSeatingError;

    /// `black`/`white` (also `x`/`o`, the tic-tac-toe names), `both`, `none`.
    fn from_str(s: &str) -> Result<Seating, ParseSeatingError> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Ok(Seating::PersonBlack),
            "white" | "w" | "o" => Ok(Seating::PersonWhite),
            "both" => Ok(Seating::TwoPeople),
            "none" => Ok(Seating::OrcaAlone),
            _ => Err(ParseSeatingError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color;

    #[test]
    fn seatings_parse_and_place_players() {
        assert_eq!("Black".parse(), Ok(Seating::PersonBlack));
        assert_eq!("o".parse(), Ok(Seating::PersonWhite));
        assert_eq!("both".parse(), Ok(Seating::TwoPeople));
        assert_eq!("none".parse(), Ok(Seating::OrcaAlone));
        assert!("red".parse::<Seating>().is_err());
        assert_eq!(
            Seating::PersonBlack.seats().player(Color::White),
            Player::Orca
        );
        assert_eq!(
            Seating::PersonWhite.seats().player(Color::White),
            Player::Person
        );
        assert_eq!(
            Seating::TwoPeople.seats().player(Color::Black),
            Player::Person
        );
        assert_eq!(
            Seating::OrcaAlone.seats().player(Color::Black),
            Player::Orca
        );
        for seating in [
            Seating::PersonBlack,
            Seating::PersonWhite,
            Seating::TwoPeople,
            Seating::OrcaAlone,
        ] {
            assert_eq!(Seating::of(seating.seats()), seating);
            assert_eq!(seating.name().parse(), Ok(seating));
        }
    }
}
