//! `orca calibrate`: fits the error model of the probable cutoffs.
//!
//! Positions are drawn (seeded) from the shipped WTHOR games; each is
//! searched full width at every depth up to a maximum, and the difference
//! between the value at depth `d` and at its [`shallow_depth`] is one sample
//! of the prediction error. The standard errors by depth and stage are then
//! fitted by least squares with the linear [`Model`], which is what the
//! search reads.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use super::probcut::{MIN_DEPTH, Model, Selectivity, shallow_depth};
use super::{Midgame, Scratch};
use crate::eval::Evaluator;
use crate::game::{Board, Othello};
use crate::rng::Rng;
use crate::score::Score;
use crate::search::TranspositionTable;
use crate::wthor::WthorGame;

/// Draws `count` positions with a move to play and between `min_empties`
/// and `max_empties` empty squares from `games`, reproducibly from `seed`.
pub fn sample_positions(
    games: &[WthorGame],
    count: usize,
    min_empties: u32,
    max_empties: u32,
    seed: u64,
) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut boards = Vec::with_capacity(count);
    let mut tries = 0;
    while boards.len() < count && !games.is_empty() && tries < 100 * count {
        tries += 1;
        let game = &games[rng.below(games.len() as u64) as usize];
        let empties = min_empties + rng.below(u64::from(max_empties - min_empties + 1)) as u32;
        let Ok(replay) = game.replay() else { continue };
        if let Some(board) = replay
            .positions
            .iter()
            .map(|p| p.state().0)
            .find(|b| b.empties() == empties && b.moves() != 0)
        {
            boards.push(board);
        }
    }
    boards
}

/// One measured prediction: the deep and shallow values of a position.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Empty squares of the position.
    pub empties: u32,
    /// The deep search's depth.
    pub depth: u32,
    /// Deep value minus shallow value, in discs.
    pub error: f64,
}

/// Searches every board full width at depths 0 to `max_depth` and returns
/// one sample per board and depth from [`MIN_DEPTH`]. `progress` is called
/// after each board with the number done.
pub fn measure<const REVERSED: bool, E: Evaluator<Othello<REVERSED>>>(
    eval: &E,
    boards: &[Board],
    max_depth: u32,
    progress: &mut dyn FnMut(usize),
) -> Vec<Sample> {
    let stop = AtomicBool::new(false);
    let mut tt = TranspositionTable::new(16);
    let mut samples = Vec::new();
    for (i, &board) in boards.iter().enumerate() {
        tt.clear();
        let mut scratch = Scratch::default();
        let mut search = Midgame::<REVERSED, E>::new(eval, &tt, &stop, None, None, &mut scratch);
        search.set_selectivity(Selectivity::NONE);
        let values: Vec<f64> = (0..=max_depth.min(board.empties()))
            .map(|d| Score::from_centi(search.value(board, d)).discs())
            .collect();
        for depth in MIN_DEPTH..values.len() as u32 {
            let shallow = shallow_depth(depth);
            samples.push(Sample {
                empties: board.empties(),
                depth,
                error: values[depth as usize] - values[shallow as usize],
            });
        }
        progress(i + 1);
    }
    samples
}

/// The standard error of each (depth, stage of 10 empties) group with at
/// least a few samples: (empties at the group's middle, depth, sigma, count).
fn groups(samples: &[Sample]) -> Vec<(u32, u32, f64, usize)> {
    let mut sums: std::collections::BTreeMap<(u32, u32), (f64, usize)> = Default::default();
    for s in samples {
        let entry = sums.entry((s.depth, s.empties / 10)).or_default();
        entry.0 += s.error * s.error;
        entry.1 += 1;
    }
    sums.into_iter()
        .filter(|&(_, (_, n))| n >= 5)
        .map(|((depth, stage), (sq, n))| (stage * 10 + 5, depth, (sq / n as f64).sqrt(), n))
        .collect()
}

/// Least-squares fit of the [`Model`] to the groups' errors, weighted by
/// their sample counts; `None` with too few groups to fit four coefficients.
pub fn fit(samples: &[Sample]) -> Option<Model> {
    let groups = groups(samples);
    if groups.len() < 4 {
        return None;
    }
    // Normal equations of the weighted least squares.
    let mut a = [[0.0f64; 4]; 4];
    let mut b = [0.0f64; 4];
    for &(empties, depth, sigma, n) in &groups {
        let x = [
            1.0,
            f64::from(empties),
            f64::from(shallow_depth(depth)),
            f64::from(depth),
        ];
        let w = n as f64;
        for i in 0..4 {
            for j in 0..4 {
                a[i][j] += w * x[i] * x[j];
            }
            b[i] += w * x[i] * sigma;
        }
    }
    let c = solve4(a, b)?;
    let floor = groups.iter().map(|g| g.2).fold(f64::INFINITY, f64::min) * 0.5;
    Some(Model { c, floor })
}

/// Gaussian elimination with partial pivoting; `None` when singular.
fn solve4(mut a: [[f64; 4]; 4], mut b: [f64; 4]) -> Option<[f64; 4]> {
    for col in 0..4 {
        let pivot = (col..4).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..4 {
            let f = a[row][col] / pivot_row[col];
            for (cell, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *cell -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; 4];
    for row in (0..4).rev() {
        let rest: f64 = (row + 1..4).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// The calibration file: how it was made, the model line the search reads,
/// and the measured errors beside the model's, for the reader.
pub fn report(header: &str, model: &Model, samples: &[Sample]) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "# {line}");
    }
    let _ = writeln!(
        out,
        "# sigma = c0 + c1*empties + c2*shallow depth + c3*depth (discs), at least floor"
    );
    let _ = writeln!(
        out,
        "model {:.4} {:.4} {:.4} {:.4} {:.4}",
        model.c[0], model.c[1], model.c[2], model.c[3], model.floor
    );
    let _ = writeln!(out, "# empties depth shallow samples measured model");
    for (empties, depth, sigma, n) in groups(samples) {
        let _ = writeln!(
            out,
            "# {empties:2} {depth:2} {:2} {n:5} {sigma:6.2} {:6.2}",
            shallow_depth(depth),
            model.sigma(empties, shallow_depth(depth), depth)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_a_linear_model() {
        // Errors alternating +-sigma have exactly that standard error.
        let truth = Model {
            c: [1.5, 0.04, -0.1, 0.2],
            floor: 0.1,
        };
        let mut samples = Vec::new();
        for depth in MIN_DEPTH..=12 {
            for empties in (15..=55).step_by(10) {
                let sigma = truth.sigma(empties, shallow_depth(depth), depth);
                for k in 0..10 {
                    let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
                    samples.push(Sample {
                        empties,
                        depth,
                        error: sign * sigma,
                    });
                }
            }
        }
        let model = fit(&samples).unwrap();
        for (got, want) in model.c.iter().zip(truth.c) {
            assert!((got - want).abs() < 1e-6, "{:?}", model.c);
        }
        let text = report("test", &model, &samples);
        assert_eq!(Model::parse(&text).unwrap().c.map(|c| c as f32), {
            model.c.map(|c| (c * 1e4).round() / 1e4).map(|c| c as f32)
        });
        assert!(fit(&samples[..10]).is_none());
    }
}
