//! Multi-ProbCut (Buro): at a null-window node of depth `d`, a search of
//! depth `d'` (about half, same parity) predicts the deep value with a
//! standard error `sigma` that depends on the stage and both depths. When the
//! shallow value lies beyond the window by `t * sigma`, the deep search very
//! probably fails the same way and is skipped. `t` is the selectivity.
//!
//! The errors come from `orca calibrate` ([`super::calibrate`]), which fits
//! them on positions of the shipped games and writes
//! `weights/probcut-*.txt`; those files are built into the binary.

use std::fmt;
use std::sync::OnceLock;

use super::Midgame;
use crate::cpu::Isa;
use crate::eval::{DISC, Evaluator};
use crate::game::Othello;
use crate::score::Score;

/// Nodes at least this deep try a probable cutoff.
pub const MIN_DEPTH: u32 = 3;

/// The confidence of the probable cutoffs: how many standard errors beyond
/// the window a prediction must lie. Levels as Edax names them, by the share
/// of cuts expected right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Selectivity(u8);

/// `t` of each level, and the share of a normal distribution within `t`.
const LEVELS: [(f64, u8); 4] = [(1.1, 73), (1.5, 87), (2.0, 95), (2.6, 99)];

impl Selectivity {
    /// No probable cutoff at all: a full-width search.
    pub const NONE: Selectivity = Selectivity(LEVELS.len() as u8);
    /// The midgame search's level.
    pub const DEFAULT: Selectivity = Selectivity(0);
    /// Every level, boldest first, ending with [`Self::NONE`].
    pub const ALL: [Selectivity; 5] = [
        Selectivity(0),
        Selectivity(1),
        Selectivity(2),
        Selectivity(3),
        Selectivity::NONE,
    ];

    /// The level's `t`, `None` for a full-width search.
    pub fn t(self) -> Option<f64> {
        LEVELS.get(usize::from(self.0)).map(|&(t, _)| t)
    }

    /// The share of cuts expected right, in percent (100 for full width).
    pub fn percent(self) -> u8 {
        LEVELS.get(usize::from(self.0)).map_or(100, |&(_, p)| p)
    }

    /// The level of `percent` (73, 87, 95, 99, or 100 for full width), if
    /// there is one.
    pub fn from_percent(percent: u8) -> Option<Selectivity> {
        Selectivity::ALL
            .into_iter()
            .find(|level| level.percent() == percent)
    }

    /// The percentages of every level, for messages: `73, 87, 95, 99, 100`.
    pub fn choices() -> String {
        Selectivity::ALL
            .iter()
            .map(|level| level.percent().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl Default for Selectivity {
    fn default() -> Self {
        Selectivity::DEFAULT
    }
}

impl fmt::Display for Selectivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}%", self.percent())
    }
}

/// The depth of the shallow search that predicts a search of `depth`:
/// about half as deep, with the same parity (the evaluation of odd and even
/// plies differ by a systematic amount).
pub fn shallow_depth(depth: u32) -> u32 {
    ((depth >> 1) & !1) | (depth & 1)
}

/// The fitted error model of one variant: `sigma = c[0] + c[1] * empties +
/// c[2] * shallow + c[3] * depth`, in discs, never below `floor`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// The coefficients.
    pub c: [f64; 4],
    /// The smallest error the model gives.
    pub floor: f64,
}

impl Model {
    /// The error in discs of a `shallow`-deep prediction of a `depth`-deep
    /// value at `empties` empties.
    pub fn sigma(&self, empties: u32, shallow: u32, depth: u32) -> f64 {
        let c = &self.c;
        (c[0] + c[1] * f64::from(empties) + c[2] * f64::from(shallow) + c[3] * f64::from(depth))
            .max(self.floor)
    }

    /// Reads the `model` line of a calibration file.
    pub fn parse(text: &str) -> Option<Model> {
        let line = text.lines().find_map(|l| l.trim().strip_prefix("model "))?;
        let numbers: Vec<f64> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        let [c0, c1, c2, c3, floor] = numbers[..] else {
            return None;
        };
        Some(Model {
            c: [c0, c1, c2, c3],
            floor,
        })
    }
}

/// The built-in model of a variant.
fn builtin(reversed: bool) -> &'static Model {
    static STANDARD: OnceLock<Model> = OnceLock::new();
    static REVERSED: OnceLock<Model> = OnceLock::new();
    let (cell, text) = if reversed {
        (
            &REVERSED,
            include_str!("../../../weights/probcut-reversed.txt"),
        )
    } else {
        (
            &STANDARD,
            include_str!("../../../weights/probcut-othello.txt"),
        )
    };
    cell.get_or_init(|| Model::parse(text).expect("the built-in calibration is well formed"))
}

/// The sigma table of a variant in [`DISC`] units, by empties and depth,
/// computed once: the search reads it at every cut test.
struct Table {
    margin: Vec<[i32; 61]>,
}

const TABLE_DEPTH: usize = 61;

fn table(reversed: bool) -> &'static Table {
    static STANDARD: OnceLock<Table> = OnceLock::new();
    static REVERSED: OnceLock<Table> = OnceLock::new();
    let cell = if reversed { &REVERSED } else { &STANDARD };
    cell.get_or_init(|| {
        let model = builtin(reversed);
        let margin = (0..TABLE_DEPTH as u32)
            .map(|depth| {
                let mut row = [0; 61];
                for (empties, cell) in row.iter_mut().enumerate() {
                    let sigma = model.sigma(empties as u32, shallow_depth(depth), depth);
                    *cell = Score::from_discs_f64(sigma).centi();
                }
                row
            })
            .collect();
        Table { margin }
    })
}

/// The built-in error model of standard (`false`) or reversed Othello.
pub fn model(reversed: bool) -> Model {
    *builtin(reversed)
}

impl<const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Midgame<'_, REVERSED, E> {
    /// The probable cutoff of a null-window node `(alpha, alpha + 1)` at
    /// `depth`: the bound to return when a shallow search says the deep one
    /// would very probably fail the same way. With the instruction set
    /// `isa`, inlined into the null-window search.
    #[inline(always)]
    pub(super) fn probcut<I: Isa>(
        &mut self,
        isa: I,
        node: &super::Node,
        depth: u32,
        alpha: i32,
    ) -> Option<i32> {
        let t = self.selectivity.t()?;
        if depth < MIN_DEPTH {
            return None;
        }
        let sigma = table(REVERSED).margin[depth.min(TABLE_DEPTH as u32 - 1) as usize]
            [node.board.empties() as usize];
        let margin = (t * f64::from(sigma)) as i32;
        let shallow = shallow_depth(depth);
        let beta = alpha + 1;
        let high = beta + margin;
        if high < 64 * DISC && self.shallow_probe(isa, node, shallow, high - 1) >= high {
            return Some(beta);
        }
        let low = alpha - margin;
        if low > -64 * DISC && self.shallow_probe(isa, node, shallow, low) <= low {
            return Some(alpha);
        }
        None
    }

    /// The null-window search of a probable cutoff.
    #[inline(always)]
    fn shallow_probe<I: Isa>(&mut self, isa: I, node: &super::Node, depth: u32, alpha: i32) -> i32 {
        if depth == 0 {
            self.evaluate(isa, node)
        } else {
            self.nws(isa, node, depth, alpha)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_keep_the_parity() {
        for depth in MIN_DEPTH..=40 {
            let s = shallow_depth(depth);
            assert_eq!(s % 2, depth % 2, "depth {depth}");
            assert!(s < depth && s + 1 >= depth / 2, "depth {depth} -> {s}");
        }
        assert_eq!(shallow_depth(8), 4);
        assert_eq!(shallow_depth(9), 5);
    }

    #[test]
    fn builtin_models_parse_and_give_positive_errors() {
        for reversed in [false, true] {
            let m = model(reversed);
            for depth in MIN_DEPTH..40 {
                for empties in 0..=60 {
                    assert!(m.sigma(empties, shallow_depth(depth), depth) >= m.floor);
                }
            }
        }
        assert_eq!(Model::parse("model 1 2 x 4 5"), None);
        assert_eq!(
            Model::parse("# comment\nmodel 1 0.5 -0.25 0.125 2\n"),
            Some(Model {
                c: [1.0, 0.5, -0.25, 0.125],
                floor: 2.0
            })
        );
    }

    #[test]
    fn levels_tighten_to_none() {
        let ts: Vec<_> = Selectivity::ALL.iter().map(|s| s.t()).collect();
        assert!(ts.windows(2).all(|w| match (w[0], w[1]) {
            (Some(a), Some(b)) => a < b,
            (Some(_), None) => true,
            _ => false,
        }));
        assert_eq!(Selectivity::NONE.percent(), 100);
        assert_eq!(Selectivity::NONE.to_string(), "100%");
        for level in Selectivity::ALL {
            assert_eq!(Selectivity::from_percent(level.percent()), Some(level));
        }
        assert_eq!(Selectivity::from_percent(100), Some(Selectivity::NONE));
        assert_eq!(Selectivity::from_percent(80), None);
        assert_eq!(Selectivity::choices(), "73, 87, 95, 99, 100");
    }
}
