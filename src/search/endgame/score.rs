//! [`Discs`]: the solver's own unit, a final disc difference it proves (or a
//! bound on one). Everything it shares with the rest of the engine -- its
//! ordering searches, its probable cutoffs, the shared table -- is a
//! [`Score`]; going from one to the other is a named call.

use std::fmt;
use std::ops::Neg;

use crate::score::Score;

/// A score in discs: a final disc difference, or a bound on one.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Discs(pub i32);

impl Discs {
    /// The same score as a [`Score`].
    #[inline]
    pub const fn to_score(self) -> Score {
        Score::from_discs(self.0)
    }

    /// Whole discs of `score`, rounded toward zero (so `-s` gives `-d`).
    #[inline]
    pub const fn truncated(score: Score) -> Discs {
        Discs(score.truncated_discs())
    }
}

impl Neg for Discs {
    type Output = Discs;
    #[inline]
    fn neg(self) -> Discs {
        Discs(-self.0)
    }
}

impl fmt::Display for Discs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::DISC;

    #[test]
    fn conversions_are_exact_one_way_and_truncate_the_other() {
        assert_eq!(Discs(7).to_score(), Score::from_centi(7 * DISC));
        assert_eq!(Discs::truncated(Discs(-64).to_score()), Discs(-64));
        assert_eq!(
            Discs::truncated(Score::from_centi(DISC + DISC / 2)),
            Discs(1)
        );
        assert_eq!(
            Discs::truncated(Score::from_centi(-(DISC + DISC / 2))),
            Discs(-1)
        );
        let s = Score::from_centi(DISC - 1);
        assert_eq!(Discs::truncated(-s), -Discs::truncated(s));
        assert_eq!(-Discs(3), Discs(-3));
        assert_eq!(Discs(-5).to_string(), "-5");
        assert!(Discs(2) > Discs(-2));
        assert_eq!(size_of::<Discs>(), size_of::<i32>());
    }
}
