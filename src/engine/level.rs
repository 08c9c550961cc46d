//! [`Level`]: the playing strengths below full strength, for people.

use crate::score::{DISC, Score};

/// The strongest level (full strength: no limit, no randomness).
pub const MAX_LEVEL: u8 = 20;

/// A playing strength for people, 1 (weakest) to [`MAX_LEVEL`] - 1; full
/// strength is no level at all. A level caps the depth (level `n` searches
/// `n` plies, so it solves only the last moves exactly) and plays a random
/// move among those within [`Level::margin`] of the best, found by a
/// multi-PV search of [`Level::LINES`] lines: the weaker the level, the
/// wider the margin, so the mistakes are varied and their size grows as the
/// level falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(u8);

impl Level {
    /// Lines the search values to choose among.
    pub const LINES: usize = 6;

    /// Level `n` (1 to [`MAX_LEVEL`]); `None` for [`MAX_LEVEL`] (full
    /// strength) or a number out of range.
    pub fn new(n: u8) -> Option<Level> {
        (1..MAX_LEVEL).contains(&n).then_some(Level(n))
    }

    /// Its number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The deepest iteration.
    pub fn depth(self) -> u32 {
        u32::from(self.0)
    }

    /// How far below the best move a move may be and still be played: half
    /// a disc a level below full strength (9.5 discs at level 1, 0.5 at
    /// level 19).
    pub fn margin(self) -> Score {
        Score::from_centi(i32::from(MAX_LEVEL - self.0) * DISC / 2)
    }
}
