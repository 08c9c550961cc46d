//! Training the pattern evaluation (`orca train`): positions and labels from the
//! WTHOR game records and from self-play, fitted stage by stage.
//!
//! The pipeline, reproducible from a seed whatever the number of threads:
//!
//! 1. **Lines.** Standard Othello: every WTHOR game, replayed with its passes,
//!    labelled with the game's recorded theoretical score; plus self-play games
//!    for positions the database lacks. Reversed Othello has no database: all
//!    its lines are self-play under the reversed rules.
//! 2. **Exact labels.** In the lines chosen for it, every position with at most
//!    `exact_empties` empty squares is solved and labelled with its exact score;
//!    in the other lines those late positions are left out. A smaller share of
//!    the WTHOR games is solved further back, from `deep_empties`; the other
//!    lines' positions in that range are left out too.
//! 3. **Split.** About one line in twenty is held out for testing.
//! 4. **Fit.** [`fit::fit`], one weight set per stage.
//!
//! Positions labelled by search come from shard files ([`shard`], written by
//! [`generate`]); [`run_with`] fits them together with the pipeline's own.

pub mod database;
pub mod files;
pub mod fit;
pub mod generate;
pub mod selfplay;
pub mod shard;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::eval::handmade::HandmadeEval;
use crate::eval::trained::Weights;
use crate::game::Variant;
use crate::rng::Rng;
use crate::search::TranspositionTable;
use crate::wthor;
use fit::{FitConfig, Sample, StageReport};
use selfplay::{Line, LineConfig, label, self_play};

/// Everything a training run needs.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Standard or reversed Othello.
    pub variant: Variant,
    /// Where the WTHOR files are (standard Othello only).
    pub wthor: Option<PathBuf>,
    /// Use at most this many WTHOR games (all when `None`).
    pub wthor_games: Option<usize>,
    /// Label exactly the late positions of one WTHOR game in this many.
    pub exact_every: usize,
    /// Label exactly, further back, the positions of one WTHOR game in this
    /// many (0: none) with at most `deep_empties` empty squares. There a
    /// game's recorded result is as far from the exact score as the
    /// evaluation itself, so unsolved positions in that range are left out.
    pub deep_every: usize,
    /// Deep games are solved from this many empty squares on.
    pub deep_empties: u32,
    /// Self-play games to add.
    pub selfplay_games: usize,
    /// Labelling and self-play settings.
    pub line: LineConfig,
    /// Fitting settings.
    pub fit: FitConfig,
    /// The weights the fit starts from and pulls towards (zero when `None`).
    pub origin: Option<Arc<Weights>>,
    /// Seed of every random choice.
    pub seed: u64,
    /// Worker threads for labelling and self-play.
    pub threads: usize,
}

impl TrainConfig {
    /// The full training of `variant` as committed in `weights/`.
    pub fn full(variant: Variant, wthor: PathBuf) -> TrainConfig {
        match variant {
            Variant::Reversed => TrainConfig {
                variant,
                wthor: None,
                wthor_games: None,
                exact_every: 1,
                deep_every: 0,
                deep_empties: 0,
                selfplay_games: 24_000,
                line: LineConfig::default(),
                fit: FitConfig::default(),
                origin: None,
                seed: 2026,
                threads: 2,
            },
            _ => TrainConfig {
                variant,
                wthor: Some(wthor),
                wthor_games: None,
                exact_every: 3,
                deep_every: 8,
                deep_empties: 20,
                selfplay_games: 4_000,
                line: LineConfig::default(),
                fit: FitConfig::default(),
                origin: None,
                seed: 2026,
                threads: 2,
            },
        }
    }
}

/// What a training run measured.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// Lines used (games).
    pub lines: usize,
    /// Labelled positions in all.
    pub samples: usize,
    /// Positions labelled exactly.
    pub exact: usize,
    /// Errors per stage.
    pub stages: Vec<StageReport>,
    /// Seconds spent making and labelling positions.
    pub data_seconds: f64,
    /// Seconds spent fitting.
    pub fit_seconds: f64,
}

/// Progress of a run, for a progress bar.
#[derive(Clone, Debug)]
pub enum Progress {
    /// Lines labelled so far out of the total.
    Lines {
        /// Done.
        done: usize,
        /// In all.
        total: usize,
    },
    /// A stage was fitted.
    Stage(StageReport, f64),
}

/// Why a run could not start.
#[derive(Debug)]
pub enum TrainError {
    /// The WTHOR files could not be read.
    Wthor(wthor::WthorError),
    /// The configuration asks for nothing to train on.
    NoData,
    /// Tic-tac-toe has no evaluation to train.
    NotOthello,
}

impl std::fmt::Display for TrainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrainError::Wthor(e) => write!(f, "{e}"),
            TrainError::NoData => write!(f, "no games to train on"),
            TrainError::NotOthello => {
                write!(f, "only the Othello variants have a trained evaluation")
            }
        }
    }
}

impl std::error::Error for TrainError {}

/// The samples of one line and how many of them were solved exactly.
type Labelled = (Vec<Sample>, usize);

/// One unit of labelling work.
enum Job {
    /// A recorded game and the most empty squares a position of it may have
    /// to be solved exactly (0: none is).
    Record(Line, u32),
    /// A self-play game from this seed.
    SelfPlay(u64),
}

fn wthor_lines(config: &TrainConfig) -> Result<Vec<Line>, TrainError> {
    let Some(dir) = &config.wthor else {
        return Ok(Vec::new());
    };
    let mut lines = Vec::new();
    for path in wthor::files_in(dir).map_err(TrainError::Wthor)? {
        let file = wthor::read(&path).map_err(TrainError::Wthor)?;
        for game in &file.games {
            if config.wthor_games.is_some_and(|n| lines.len() >= n) {
                return Ok(lines);
            }
            // A record that breaks the rules teaches nothing: skip it.
            let Ok(replay) = game.replay() else { continue };
            let positions = replay
                .positions
                .iter()
                .filter(|p| !p.is_over())
                .map(|p| (p.state().0, p.to_move()))
                .collect();
            lines.push(Line {
                positions,
                black_score: game.theoretical_score(),
            });
        }
    }
    Ok(lines)
}

/// Makes the labelled positions of a run (steps 1-3).
fn samples(
    config: &TrainConfig,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<(Vec<Sample>, usize, usize), TrainError> {
    let mut jobs: Vec<Job> = wthor_lines(config)?
        .into_iter()
        .enumerate()
        .map(|(i, line)| Job::Record(line, solved_empties(config, i)))
        .collect();
    let mut seeds = Rng::new(config.seed);
    jobs.extend((0..config.selfplay_games).map(|_| Job::SelfPlay(seeds.next_u64())));
    let total = jobs.len();
    let results: Vec<Mutex<Option<Labelled>>> = (0..total).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let progress = Mutex::new(progress);
    let reversed = config.variant == Variant::Reversed;
    let exact_empties = config.line.exact_empties;
    let unlabelled = unsolved_unlabelled_empties(config);
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| {
                let mut tt = TranspositionTable::new(8);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total {
                        break;
                    }
                    // The split is decided per line, from the seed and the index.
                    let test =
                        Rng::new(config.seed ^ (i as u64).wrapping_mul(0xA24B_AED4_963E_E407))
                            .below(20)
                            == 0;
                    let labelled = match &jobs[i] {
                        Job::Record(line, solve) => {
                            let samples =
                                run_label(reversed, line, *solve, unlabelled, &mut tt, test);
                            (samples, count_exact(line, *solve))
                        }
                        Job::SelfPlay(seed) => {
                            let mut rng = Rng::new(*seed);
                            let line = if reversed {
                                self_play::<true, _>(
                                    &HandmadeEval::<true>,
                                    &mut rng,
                                    &config.line,
                                    &mut tt,
                                )
                            } else {
                                self_play::<false, _>(
                                    &HandmadeEval::<false>,
                                    &mut rng,
                                    &config.line,
                                    &mut tt,
                                )
                            };
                            let samples = run_label(
                                reversed,
                                &line,
                                exact_empties,
                                unlabelled,
                                &mut tt,
                                test,
                            );
                            (samples, count_exact(&line, exact_empties))
                        }
                    };
                    *results[i].lock().expect("no panics while holding it") = Some(labelled);
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if d.is_multiple_of(100) || d == total {
                        (progress.lock().expect("no panics while holding it"))(Progress::Lines {
                            done: d,
                            total,
                        });
                    }
                }
            });
        }
    });
    let mut all = Vec::new();
    let mut exact = 0;
    for cell in results {
        let (samples, e) = cell
            .into_inner()
            .expect("no panics")
            .expect("every job ran");
        all.extend(samples);
        exact += e;
    }
    Ok((all, total, exact))
}

/// Up to how many empty squares the positions of WTHOR game `i` are solved
/// (0: none).
fn solved_empties(config: &TrainConfig, i: usize) -> u32 {
    if config.deep_every > 0 && i.is_multiple_of(config.deep_every) {
        unsolved_unlabelled_empties(config)
    } else if config.exact_every > 0 && i.is_multiple_of(config.exact_every) {
        config.line.exact_empties
    } else {
        0
    }
}

/// Positions with at most this many empty squares get a label only when
/// solved: the exact range, or the deep one where there are deep games.
fn unsolved_unlabelled_empties(config: &TrainConfig) -> u32 {
    if config.deep_every > 0 {
        config.deep_empties.max(config.line.exact_empties)
    } else {
        config.line.exact_empties
    }
}

fn count_exact(line: &Line, exact_empties: u32) -> usize {
    line.positions
        .iter()
        .filter(|(b, _)| b.empties() <= exact_empties && !b.is_game_over())
        .count()
}

fn run_label(
    reversed: bool,
    line: &Line,
    solve_empties: u32,
    unlabelled_empties: u32,
    tt: &mut TranspositionTable,
    test: bool,
) -> Vec<Sample> {
    if reversed {
        label::<true, _>(
            line,
            &HandmadeEval::<true>,
            solve_empties,
            unlabelled_empties,
            tt,
            test,
        )
    } else {
        label::<false, _>(
            line,
            &HandmadeEval::<false>,
            solve_empties,
            unlabelled_empties,
            tt,
            test,
        )
    }
}

/// Runs the whole training and returns the weights with the report.
///
/// # Errors
/// When the data cannot be read or there is none.
pub fn run(
    config: &TrainConfig,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<(Weights, TrainReport), TrainError> {
    run_with(config, &[], progress)
}

/// [`run`] with `extra` samples (from shards) fitted together with the
/// pipeline's own.
///
/// # Errors
/// When the data cannot be read or there is none.
pub fn run_with(
    config: &TrainConfig,
    extra: &[Sample],
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<(Weights, TrainReport), TrainError> {
    if config.variant == Variant::TicTacToe {
        return Err(TrainError::NotOthello);
    }
    let started = Instant::now();
    let (mut samples, lines, exact) = samples(config, progress)?;
    samples.extend_from_slice(extra);
    if samples.is_empty() {
        return Err(TrainError::NoData);
    }
    let data_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let (weights, stages) = fit::fit(
        &samples,
        config.variant,
        config.origin.as_deref(),
        &config.fit,
        &mut |r, t| progress(Progress::Stage(*r, t)),
    );
    Ok((
        weights,
        TrainReport {
            lines,
            samples: samples.len(),
            exact,
            stages,
            data_seconds,
            fit_seconds: started.elapsed().as_secs_f64(),
        },
    ))
}

/// The positions of shard blocks as samples of `weight`, each kept once up to
/// the 8 symmetries (the first seen) and the positions of one game in
/// `test_every` held out (none when 0): a WTHOR game always on the same side,
/// whatever the seed.
pub fn shard_samples(blocks: &[shard::Block], test_every: u64, weight: f32) -> Vec<Sample> {
    let mut seen = std::collections::HashSet::new();
    let mut samples = Vec::new();
    for block in blocks {
        let key = match block.source {
            shard::Source::SelfPlay => generate::mix(block.settings.seed, u64::from(block.game), 3),
            shard::Source::Wthor => generate::mix(0, u64::from(block.game), 4),
        };
        let test = test_every > 0 && key % test_every == 0;
        for r in &block.records {
            if seen.insert(shard::canonical(&r.board())) {
                samples.push(Sample {
                    player: r.player,
                    opponent: r.opponent,
                    target: f32::from(r.score) / crate::eval::DISC as f32,
                    test,
                    weight,
                });
            }
        }
    }
    samples
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shard positions are kept once up to symmetry, held out game by game.
    #[test]
    fn shard_samples_are_deduplicated_and_split_by_game() {
        let settings = shard::ShardSettings {
            variant: Variant::Othello,
            exact_empties: 20,
            depth: 14,
            selectivity: 73,
            random_min: 4,
            random_max: 20,
            play_depth: 6,
            wthor_share: 0,
            label_weights: 0,
            seed: 1,
            shard: 0,
            shards: 1,
        };
        let start = crate::game::Board::start();
        let record = |b: crate::game::Board, score| shard::Record {
            player: b.player,
            opponent: b.opponent,
            score,
            exact: false,
        };
        let blocks: Vec<shard::Block> = (0..40)
            .map(|game| shard::Block {
                settings,
                index: game,
                source: shard::Source::SelfPlay,
                game,
                records: vec![
                    // The start position, mirrored: the same position.
                    record(start.symmetry((game % 8) as u8), 50),
                    record(crate::game::Board::new(u64::from(game) << 8, 1), -250),
                ],
            })
            .collect();
        let samples = shard_samples(&blocks, 4, 3.0);
        assert_eq!(samples.len(), 41);
        assert_eq!(samples[0].target, 0.5);
        assert_eq!(samples[1].target, -2.5);
        assert!(samples.iter().all(|s| s.weight == 3.0));
        let held = samples.iter().filter(|s| s.test).count();
        assert!((3..=20).contains(&held), "{held}");
        // A game's positions are on one side.
        for (i, block) in blocks.iter().enumerate().skip(1) {
            let key = gen_key(block);
            assert_eq!(samples[i + 1].test, key.is_multiple_of(4));
        }
        assert!(shard_samples(&blocks, 0, 1.0).iter().all(|s| !s.test));
    }

    fn gen_key(block: &shard::Block) -> u64 {
        generate::mix(block.settings.seed, u64::from(block.game), 3)
    }

    #[test]
    fn deep_games_are_solved_further_back_and_others_as_before() {
        let mut config = TrainConfig::full(Variant::Othello, PathBuf::from("data/wthor"));
        config.exact_every = 3;
        config.deep_every = 8;
        config.deep_empties = 20;
        config.line.exact_empties = 16;
        let solved: Vec<u32> = (0..25).map(|i| solved_empties(&config, i)).collect();
        assert_eq!(solved[0], 20);
        assert_eq!(solved[8], 20);
        assert_eq!(solved[24], 20);
        assert_eq!(solved[3], 16);
        assert_eq!(solved[1], 0);
        assert_eq!(solved.iter().filter(|&&e| e == 20).count(), 4);
        assert_eq!(solved.iter().filter(|&&e| e == 16).count(), 7);
        // Without deep games, nothing changes.
        config.deep_every = 0;
        assert_eq!(solved_empties(&config, 0), 16);
        assert_eq!(solved_empties(&config, 8), 0);
        // A deep range below the exact one never solves less.
        config.deep_every = 8;
        config.deep_empties = 12;
        assert_eq!(solved_empties(&config, 8), 16);
    }
}
