//! Training on files: weights read from a file or built in, the positions of
//! shard files and self-play databases read as one variant's data, and a fit
//! of them written to a weights file with its report and the held-out errors
//! (what `orca train fit` and a training round's fit step run).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::database::{self, DatabaseGame};
use super::fit::Sample;
use super::shard::Block;
use super::{Progress, TrainConfig, TrainError, TrainReport, generate};
use crate::eval::trained::{STAGES, Weights, stage, stage_empties};
use crate::game::{Board, Variant};
use crate::score::Score;

/// Where weights come from: the ones built into the binary, or a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsSource {
    /// The built-in weights of the variant.
    Builtin,
    /// A weights file.
    File(PathBuf),
}

impl std::str::FromStr for WeightsSource {
    type Err = std::convert::Infallible;

    /// `builtin`, or a file's path.
    fn from_str(text: &str) -> Result<WeightsSource, Self::Err> {
        Ok(if text == "builtin" {
            WeightsSource::Builtin
        } else {
            WeightsSource::File(PathBuf::from(text))
        })
    }
}

impl WeightsSource {
    /// The weights, checked to be for `variant`.
    ///
    /// # Errors
    /// [`FilesError`] when they cannot be read or are for another variant.
    pub fn load(&self, variant: Variant) -> Result<Arc<Weights>, FilesError> {
        match self {
            WeightsSource::Builtin => load_weights(None, variant),
            WeightsSource::File(path) => load_weights(Some(path), variant),
        }
    }
}

/// Why training data or weights could not be had.
#[derive(Debug)]
pub enum FilesError {
    /// Weights that do not load (the built-in ones when no path).
    Weights(Option<PathBuf>, String),
    /// Weights of another variant.
    WrongVariant {
        /// Theirs.
        found: Variant,
        /// The data's.
        wanted: Variant,
    },
    /// A shard file that does not read.
    Shard(String),
    /// A self-play database that does not read.
    Database(PathBuf, String),
    /// Data of two variants.
    Mixed(String),
    /// A database with fewer games than asked for.
    TooFewGames {
        /// The database.
        dir: PathBuf,
        /// Its games.
        has: usize,
        /// Asked for.
        wanted: usize,
    },
    /// The data does not fit in memory.
    Memory,
    /// Neither shards nor databases.
    NoData,
    /// A setting out of its range.
    Setting(&'static str),
    /// WTHOR games (standard Othello) asked for with data of this variant.
    WthorNotOthello(Variant),
    /// The fit itself.
    Train(TrainError),
    /// The weights file could not be written.
    Write(PathBuf, io::Error),
}

impl fmt::Display for FilesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FilesError::Weights(None, e) => write!(f, "built-in weights: {e}"),
            FilesError::Weights(Some(path), e) => write!(f, "{}: {e}", path.display()),
            FilesError::WrongVariant { found, wanted } => {
                write!(f, "the weights are for {found}, not {wanted}")
            }
            FilesError::Shard(e) | FilesError::Mixed(e) => f.write_str(e),
            FilesError::Database(dir, e) => write!(f, "{}: {e}", dir.display()),
            FilesError::TooFewGames { dir, has, wanted } => write!(
                f,
                "{} holds {has} games, fewer than --database-games {wanted}",
                dir.display()
            ),
            FilesError::Memory => f.write_str("not enough memory for the training data"),
            FilesError::NoData => f.write_str("give --shards or --database"),
            FilesError::Setting(e) => f.write_str(e),
            FilesError::WthorNotOthello(v) => {
                write!(f, "WTHOR games are standard Othello, the shards are {v}")
            }
            FilesError::Train(e) => write!(f, "{e}"),
            FilesError::Write(path, e) => write!(f, "cannot write {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for FilesError {}

impl FilesError {
    /// The exit status of a command that stops on it: 2 for what the flags
    /// asked, 1 for the rest.
    pub fn status(&self) -> i32 {
        match self {
            FilesError::Setting(_) | FilesError::WthorNotOthello(_) => 2,
            _ => 1,
        }
    }
}

/// Loads a weights file for `variant`, or takes the built-in weights.
///
/// # Errors
/// [`FilesError`] when they cannot be read or are for another variant.
pub fn load_weights(path: Option<&Path>, variant: Variant) -> Result<Arc<Weights>, FilesError> {
    let weights = match path {
        None => Weights::builtin(variant).map_err(|e| FilesError::Weights(None, e.to_string()))?,
        Some(p) => Arc::new(
            Weights::load(p).map_err(|e| FilesError::Weights(Some(p.into()), e.to_string()))?,
        ),
    };
    if weights.variant != variant {
        return Err(FilesError::WrongVariant {
            found: weights.variant,
            wanted: variant,
        });
    }
    Ok(weights)
}

/// Training data read from files: shard blocks and database games of one
/// variant.
pub struct Data {
    /// The shards' blocks.
    pub blocks: Vec<Block>,
    /// The databases' games.
    pub games: Vec<DatabaseGame>,
    /// Their variant.
    pub variant: Variant,
}

/// Reads the shards' blocks and the first `database_games` games (all when
/// none) of each database, all of one variant.
///
/// # Errors
/// [`FilesError`] when a file does not read, the variants mix, or there is no data.
pub fn read_data(
    shards: &[PathBuf],
    databases: &[PathBuf],
    database_games: Option<usize>,
) -> Result<Data, FilesError> {
    let (blocks, mut variant) = if shards.is_empty() {
        (Vec::new(), None)
    } else {
        let (blocks, variant) = read_shards(shards)?;
        (blocks, Some(variant))
    };
    let mut games = Vec::new();
    for dir in databases {
        let of = database::variant_of(dir)
            .map_err(|e| FilesError::Database(dir.clone(), e.to_string()))?;
        if let Some(v) = variant.filter(|&v| v != of) {
            return Err(FilesError::Mixed(format!(
                "{} holds {of} games, the other data {v}",
                dir.display()
            )));
        }
        variant = Some(of);
        let mut more =
            database::read(dir).map_err(|e| FilesError::Database(dir.clone(), e.to_string()))?;
        if let Some(wanted) = database_games {
            if more.len() < wanted {
                return Err(FilesError::TooFewGames {
                    dir: dir.clone(),
                    has: more.len(),
                    wanted,
                });
            }
            more.truncate(wanted);
        }
        games
            .try_reserve(more.len())
            .map_err(|_| FilesError::Memory)?;
        games.extend(more);
    }
    let variant = variant.ok_or(FilesError::NoData)?;
    Ok(Data {
        blocks,
        games,
        variant,
    })
}

/// Reads every block of the shard files, all of one variant.
fn read_shards(paths: &[PathBuf]) -> Result<(Vec<Block>, Variant), FilesError> {
    let mut blocks = Vec::new();
    for path in paths {
        let more = generate::read(path).map_err(FilesError::Shard)?;
        blocks
            .try_reserve(more.len())
            .map_err(|_| FilesError::Memory)?;
        blocks.extend(more);
    }
    let Some(variant) = blocks.first().map(|b| b.settings.variant) else {
        return Err(FilesError::Shard(
            "the shard files hold no positions".into(),
        ));
    };
    if let Some(other) = blocks.iter().find(|b| b.settings.variant != variant) {
        return Err(FilesError::Mixed(format!(
            "the shards mix {variant} and {} positions",
            other.settings.variant
        )));
    }
    Ok((blocks, variant))
}

/// A fit of shard and database positions (and, for Othello, WTHOR games).
#[derive(Clone, Debug)]
pub struct FitFiles {
    /// Shard files.
    pub shards: Vec<PathBuf>,
    /// Self-play databases.
    pub databases: Vec<PathBuf>,
    /// The first this many games of each database (all when none).
    pub database_games: Option<usize>,
    /// WTHOR files to add, labelled as the pipeline does.
    pub wthor: Option<PathBuf>,
    /// At most this many WTHOR games.
    pub wthor_games: Option<usize>,
    /// Solve the positions of one WTHOR game in this many (0: none).
    pub exact_every: usize,
    /// Hold out one shard game or database game in this many (0: none).
    pub test_every: u64,
    /// How much a shard position counts against a WTHOR one.
    pub shard_weight: f32,
    /// The share of a database position's label taken from the search's
    /// value of it, where its chunk kept values (0: the final score alone).
    pub value_weight: f32,
    /// Fitting passes per stage.
    pub epochs: usize,
    /// Ridge strength.
    pub ridge: f32,
    /// Worker threads.
    pub threads: usize,
    /// The weights the held-out errors are compared with (the built-in
    /// ones when none).
    pub baseline: Option<PathBuf>,
    /// Where the fit starts (zero when none).
    pub origin: Option<WeightsSource>,
    /// Where the weights are written.
    pub out: PathBuf,
}

/// What a fit made besides its weights file.
pub struct Fitted {
    /// The weights (also in the file).
    pub weights: Weights,
    /// The fit's report as a table.
    pub report: String,
    /// The held-out errors of the new weights and the baseline, as a table.
    pub held_out: String,
    /// Positions fitted, and of them held out.
    pub positions: (usize, usize),
    /// Database games read.
    pub database_games: usize,
}

/// Fits the weights of `files` and writes them; `progress` hears the
/// labelling of WTHOR games and each stage.
///
/// # Errors
/// [`FilesError`] when the data or weights do not read, a setting is out of
/// range, or the file cannot be written.
pub fn fit_files(
    files: &FitFiles,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<Fitted, FilesError> {
    let Data {
        blocks,
        games,
        variant,
    } = read_data(&files.shards, &files.databases, files.database_games)?;
    let baseline = load_weights(files.baseline.as_deref(), variant)?;
    let origin = match &files.origin {
        Some(source) => Some(source.load(variant)?),
        None => None,
    };
    if files.wthor.is_some() && variant != Variant::Othello {
        return Err(FilesError::WthorNotOthello(variant));
    }
    if !(files.shard_weight.is_finite() && files.shard_weight > 0.0) {
        return Err(FilesError::Setting(
            "--shard-weight must be a positive number",
        ));
    }
    if !(0.0..=1.0).contains(&files.value_weight) {
        return Err(FilesError::Setting(
            "--value-weight must be between 0 and 1",
        ));
    }
    if !(files.ridge.is_finite() && files.ridge > 0.0) {
        return Err(FilesError::Setting("--ridge must be a positive number"));
    }
    let mut samples = super::shard_samples(&blocks, files.test_every, files.shard_weight);
    samples.extend(database::samples(
        &games,
        files.test_every,
        1.0,
        files.value_weight,
    ));
    let mut config = TrainConfig::full(variant, PathBuf::new());
    config.wthor = files.wthor.clone();
    config.wthor_games = files.wthor_games;
    config.exact_every = files.exact_every;
    config.origin = origin;
    // The shards and the database label the late positions exactly: a WTHOR
    // game's result is no label there (docs/training.md).
    config.line.exact_empties = blocks
        .iter()
        .map(|b| u32::from(b.settings.exact_empties))
        .chain(games.iter().map(|g| g.solve_empties))
        .min()
        .unwrap_or(0);
    let database_games = games.len();
    drop(games);
    drop(blocks);
    config.deep_every = 0;
    config.selfplay_games = 0;
    config.fit.epochs = files.epochs;
    config.fit.ridge = files.ridge;
    config.threads = files.threads;
    let held_out_count = samples.iter().filter(|s| s.test).count();
    let (weights, report) = fit_and_write(&config, &samples, &files.out, progress)?;
    let boards: Vec<(Board, f64)> = samples
        .iter()
        .filter(|s| s.test)
        .map(|s| (Board::new(s.player, s.opponent), f64::from(s.target)))
        .collect();
    let source = match (files.shards.is_empty(), files.databases.is_empty()) {
        (false, true) => "shard",
        (true, false) => "database",
        _ => "shard and database",
    };
    let held_out = held_out_table(source, &weights, &baseline, &boards);
    Ok(Fitted {
        weights,
        report,
        held_out,
        positions: (samples.len(), held_out_count),
        database_games,
    })
}

/// Fits `extra` with the pipeline of `config` and writes the weights to
/// `out`; the weights and the fit's report as a table.
///
/// # Errors
/// [`FilesError::Train`] when the fit cannot run, [`FilesError::Write`].
pub fn fit_and_write(
    config: &TrainConfig,
    extra: &[Sample],
    out: &Path,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<(Weights, String), FilesError> {
    let (weights, report) = super::run_with(config, extra, progress).map_err(FilesError::Train)?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| FilesError::Write(dir.into(), e))?;
    }
    std::fs::write(out, weights.to_bytes()).map_err(|e| FilesError::Write(out.into(), e))?;
    Ok((weights, report_text(&report)))
}

/// The fit's report: data, then one row a stage.
pub fn report_text(report: &TrainReport) -> String {
    let mut text = format!(
        "{} games, {} positions ({} solved exactly); data {:.0} s, fit {:.0} s\n\
         stage | empties |  train pos |  test pos | train MAE | test MAE\n",
        report.lines, report.samples, report.exact, report.data_seconds, report.fit_seconds
    );
    for r in &report.stages {
        let (first, last) = stage_empties(r.stage);
        text += &format!(
            "{:>5} | {:>3}-{:<3} | {:>10} | {:>9} | {:>9.2} | {:>8.2}\n",
            r.stage, first, last, r.train_samples, r.test_samples, r.train_mae, r.test_mae
        );
    }
    text
}

/// The mean absolute errors of `weights` and `baseline` on `boards` (with
/// their targets in discs), a row a stage.
fn held_out_table(
    source: &str,
    weights: &Weights,
    baseline: &Weights,
    boards: &[(Board, f64)],
) -> String {
    let fitted = errors(weights, boards);
    let base = errors(baseline, boards);
    let mut table = format!(
        "held-out {source} positions: error of the new weights and of the baseline\n\
         stage | empties | positions | new MAE | baseline MAE\n",
    );
    for st in 0..STAGES {
        let (first, last) = stage_empties(st);
        table += &format!(
            "{:>5} | {:>3}-{:<3} | {:>9} | {:>7} | {:>12}\n",
            st,
            first,
            last,
            fitted[st].0,
            mae(fitted[st]),
            mae(base[st])
        );
    }
    table += &format!(
        "  all |         | {:>9} | {:>7} | {:>12}\n",
        total(&fitted).0,
        mae(total(&fitted)),
        mae(total(&base))
    );
    table
}

/// Mean absolute errors of `weights` on `boards`, per stage: (count, sum).
pub fn errors(weights: &Weights, boards: &[(Board, f64)]) -> Vec<(usize, f64)> {
    let mut by_stage = vec![(0usize, 0f64); STAGES];
    for (board, target) in boards {
        let value = Score::from_centi(weights.evaluate(board)).discs();
        let cell = &mut by_stage[stage(board.empties())];
        cell.0 += 1;
        cell.1 += (value - target).abs();
    }
    by_stage
}

/// A mean absolute error from (count, sum), `-` for none.
pub fn mae((count, sum): (usize, f64)) -> String {
    if count == 0 {
        "-".to_string()
    } else {
        format!("{:.2}", sum / count as f64)
    }
}

/// The cells added up.
pub fn total(cells: &[(usize, f64)]) -> (usize, f64) {
    cells
        .iter()
        .fold((0, 0.0), |(n, s), &(m, t)| (n + m, s + t))
}
