//! [`Score`]: the value of a position for the side to move, in hundredths of
//! a disc, as the evaluation, the search, the book and every front end report
//! it. Hundredths so that evaluations are finer than the exact disc scores of
//! finished games; one type so that a disc count and a centi-disc count
//! cannot be mixed up.

use std::fmt;
use std::ops::{Add, Neg, Sub};
use std::str::FromStr;

/// One disc in score units.
pub const DISC: i32 = 100;

/// A value in hundredths of a disc, for the side to move.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i32);

impl Score {
    /// An even position.
    pub const ZERO: Score = Score(0);
    /// Beyond every real score (an exact result is at most 64 discs): the
    /// bound of an open search window.
    pub const INF: Score = Score(65 * DISC);

    /// A score of `centi` hundredths of a disc.
    #[inline]
    pub const fn from_centi(centi: i32) -> Score {
        Score(centi)
    }

    /// A score of whole discs.
    #[inline]
    pub const fn from_discs(discs: i32) -> Score {
        Score(discs * DISC)
    }

    /// Hundredths of a disc.
    #[inline]
    pub const fn centi(self) -> i32 {
        self.0
    }

    /// A score of `discs` (with a fraction), truncated toward zero to a
    /// hundredth: margins and errors fitted in discs.
    #[inline]
    pub fn from_discs_f64(discs: f64) -> Score {
        Score((discs * f64::from(DISC)) as i32)
    }

    /// Whole discs, rounded toward zero (so `-s` gives `-d`).
    #[inline]
    pub const fn truncated_discs(self) -> i32 {
        self.0 / DISC
    }

    /// Discs, with the fraction.
    #[inline]
    pub fn discs(self) -> f64 {
        f64::from(self.0) / f64::from(DISC)
    }

    /// Whole discs, rounded half away from zero (the protocols' disc scores).
    #[inline]
    pub const fn rounded_discs(self) -> i32 {
        let half = DISC / 2;
        if self.0 >= 0 {
            (self.0 + half) / DISC
        } else {
            (self.0 - half) / DISC
        }
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Add for Score {
    type Output = Score;
    #[inline]
    fn add(self, other: Score) -> Score {
        Score(self.0 + other.0)
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline]
    fn sub(self, other: Score) -> Score {
        Score(self.0 - other.0)
    }
}

/// Discs with two decimals (`-3.50`, `+1.25` with `{:+}`); a precision
/// given (`{:+.1}`) is kept.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let discs = self.discs();
        match (f.precision(), f.sign_plus()) {
            (Some(p), true) => write!(f, "{discs:+.p$}"),
            (Some(p), false) => write!(f, "{discs:.p$}"),
            (None, true) => write!(f, "{discs:+.2}"),
            (None, false) => write!(f, "{discs:.2}"),
        }
    }
}

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

/// A score that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadScore(String);

impl fmt::Display for BadScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a score in discs within ±64", self.0)
    }
}

impl std::error::Error for BadScore {}

/// Reads discs as [`Display`](fmt::Display) writes them (`-3.5`, `+12`,
/// `0.25`), to the nearest hundredth, within ±64.
impl FromStr for Score {
    type Err = BadScore;

    fn from_str(text: &str) -> Result<Score, BadScore> {
        let bad = || BadScore(text.to_string());
        let value: f64 = text.trim().parse().map_err(|_| bad())?;
        if !value.is_finite() || value.abs() > 64.0 {
            return Err(bad());
        }
        Ok(Score((value * f64::from(DISC)).round() as i32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_and_rounding() {
        assert_eq!(Score::from_discs(3).centi(), 300);
        assert_eq!(Score::from_centi(-250).discs(), -2.5);
        for (centi, discs) in [(0, 0), (49, 0), (50, 1), (-50, -1), (-49, 0), (6400, 64)] {
            assert_eq!(Score::from_centi(centi).rounded_discs(), discs, "{centi}");
        }
        assert_eq!(Score::from_centi(-199).truncated_discs(), -1);
        assert_eq!(Score::from_discs_f64(-1.239), Score::from_centi(-123));
        assert!(Score::INF > Score::from_discs(64) && -Score::INF < Score::from_discs(-64));
        assert_eq!(
            Score::from_discs(2) - Score::from_centi(50),
            Score::from_centi(150)
        );
    }

    #[test]
    fn written_and_read_back() {
        let s = Score::from_centi(-350);
        assert_eq!(s.to_string(), "-3.50");
        assert_eq!(format!("{:+}", Score::from_centi(125)), "+1.25");
        assert_eq!(format!("{:+.1}", Score::from_centi(250)), "+2.5");
        assert_eq!(format!("{:.0}", Score::from_discs(12)), "12");
        for text in ["-3.50", "+1.25", "0.00", "64", "-64"] {
            let score: Score = text.parse().unwrap();
            assert_eq!(score.to_string().parse::<Score>().unwrap(), score, "{text}");
        }
        assert_eq!("12".parse::<Score>(), Ok(Score::from_discs(12)));
        for bad in ["", "x", "65", "NaN", "inf", "1e9"] {
            let err = bad.parse::<Score>().unwrap_err();
            assert!(err.to_string().contains("not a score"), "{bad}");
        }
    }
}
