//! The solver's two units of score: the final disc difference it proves, and
//! the evaluation's units ([`DISC`] to a disc) that its ordering searches,
//! its probable cutoffs and the shared table hold. Each has its own type, and
//! going from one to the other is a named call.

use std::fmt;
use std::ops::{Add, Neg, Sub};

use crate::eval::DISC;

/// A score in discs: a final disc difference, or a bound on one.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Discs(pub i32);

/// A value in the evaluation's units, [`DISC`] to a disc.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Value(pub i32);

impl Discs {
    /// The same score in the evaluation's units.
    #[inline]
    pub const fn to_value(self) -> Value {
        Value(self.0 * DISC)
    }
}

impl Value {
    /// Whole discs, rounded toward zero (so `-v` gives `-d`).
    #[inline]
    pub const fn to_discs(self) -> Discs {
        Discs(self.0 / DISC)
    }
}

impl Neg for Discs {
    type Output = Discs;
    #[inline]
    fn neg(self) -> Discs {
        Discs(-self.0)
    }
}

impl Neg for Value {
    type Output = Value;
    #[inline]
    fn neg(self) -> Value {
        Value(-self.0)
    }
}

impl Add for Value {
    type Output = Value;
    #[inline]
    fn add(self, other: Value) -> Value {
        Value(self.0 + other.0)
    }
}

impl Sub for Value {
    type Output = Value;
    #[inline]
    fn sub(self, other: Value) -> Value {
        Value(self.0 - other.0)
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

    #[test]
    fn conversions_are_exact_one_way_and_truncate_the_other() {
        assert_eq!(Discs(7).to_value(), Value(7 * DISC));
        assert_eq!(Discs(-64).to_value().to_discs(), Discs(-64));
        assert_eq!(Value(DISC + DISC / 2).to_discs(), Discs(1));
        assert_eq!(Value(-(DISC + DISC / 2)).to_discs(), Discs(-1));
        assert_eq!((-Value(DISC - 1)).to_discs(), -Value(DISC - 1).to_discs());
        assert_eq!(-Discs(3), Discs(-3));
        assert_eq!(Value(5) + Value(3) - Value(10), Value(-2));
        assert_eq!(Discs(-5).to_string(), "-5");
        assert!(Discs(2) > Discs(-2));
        assert_eq!(size_of::<Discs>(), size_of::<i32>());
        assert_eq!(size_of::<Value>(), size_of::<i32>());
    }
}
