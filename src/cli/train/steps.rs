//! The steps of `orca train` on files: `gen` (shards of positions labelled
//! by search), `fit` (weights from shards, WTHOR games and self-play
//! databases) and `measure` (an evaluation's error on them), with the
//! pieces `orca train` and `orca train round` share.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use orca::eval::trained::{STAGES, Weights, stage};
use orca::game::{Board, Variant};
use orca::score::Score;
use orca::train::database::{self, DatabaseGame};
use orca::train::generate::{self, GenConfig};
use orca::train::shard::Block;
use orca::train::{self, Progress, TrainConfig, TrainReport};

/// How positions are made and labelled: the settings every shard of a
/// round shares (`orca train gen` and `orca train round`).
#[derive(Args, Clone, Debug)]
pub struct LabelArgs {
    /// Which rules: othello or reversed.
    #[arg(long, default_value = "othello")]
    pub variant: Variant,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Solve exactly the positions with at most this many empty squares.
    #[arg(long, default_value_t = 20)]
    pub exact_empties: u32,
    /// Depth of the selective midgame search labelling the earlier positions.
    #[arg(long, default_value_t = 10)]
    pub depth: u32,
    /// Self-play: random opening moves, at least...
    #[arg(long, default_value_t = 4)]
    pub random_min: u32,
    /// ...and at most.
    #[arg(long, default_value_t = 20)]
    pub random_max: u32,
    /// Self-play: search depth of the other moves.
    #[arg(long, default_value_t = 6)]
    pub play_depth: u32,
    /// Take a share of the games from these WTHOR files (standard Othello).
    #[arg(long, value_name = "DIR")]
    pub wthor: Option<PathBuf>,
    /// Percent of the games taken from WTHOR when --wthor is given.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub wthor_share: u8,
}

impl LabelArgs {
    /// The configuration of shard `shard` of `shards`.
    pub fn config(
        &self,
        (shard, shards): (u32, u32),
        positions: usize,
        weights: Arc<Weights>,
        threads: usize,
    ) -> GenConfig {
        GenConfig {
            variant: self.variant,
            shard,
            shards,
            positions,
            seed: self.seed,
            exact_empties: self.exact_empties,
            depth: self.depth,
            random_min: self.random_min,
            random_max: self.random_max,
            play_depth: self.play_depth,
            wthor_share: if self.wthor.is_some() {
                self.wthor_share
            } else {
                0
            },
            wthor: self.wthor.clone(),
            weights,
            threads,
        }
    }
}

/// Arguments of `orca train gen`.
#[derive(Args, Debug)]
pub struct GenArgs {
    #[command(flatten)]
    label: LabelArgs,
    /// This shard and how many there are, as I/N (0 <= I < N): shard I plays
    /// games I, N+I, 2N+I... of the seed's sequence.
    #[arg(long, value_name = "I/N", default_value = "0/1", value_parser = parse_shard)]
    shard: (u32, u32),
    /// Stop once the shard holds at least this many positions (a run that
    /// stopped, or one given a larger number, continues the file).
    #[arg(long, default_value_t = 10_000)]
    positions: usize,
    /// Label with the weights of this file [default: the built-in ones].
    #[arg(long, value_name = "FILE")]
    label_weights: Option<PathBuf>,
    /// Worker threads (the file does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The shard file to write or continue.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// Arguments of `orca train fit`.
#[derive(Args, Debug)]
pub struct FitArgs {
    /// Shard files (any number, in any order; concatenated ones too).
    #[arg(long, value_name = "FILE", num_args = 1.., required_unless_present = "database")]
    pub shards: Vec<PathBuf>,
    /// Self-play game databases (`orca selfplay` directories): every position
    /// after a game's random moves, labelled with its final score.
    #[arg(long, value_name = "DIR", num_args = 1..)]
    pub database: Vec<PathBuf>,
    /// Use the first N games of each database, in chunk order [default:
    /// all]: a fit stays reproducible while its database grows.
    #[arg(long, value_name = "N", requires = "database")]
    pub database_games: Option<usize>,
    /// Where to write the weights.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Add the WTHOR games of these files, labelled as `orca train` does
    /// (standard Othello).
    #[arg(long, value_name = "DIR")]
    pub wthor: Option<PathBuf>,
    /// Use at most this many WTHOR games [default: all].
    #[arg(long)]
    pub games: Option<usize>,
    /// Solve exactly the positions of one WTHOR game in this many up to the
    /// shards' exact horizon (0: none); the other games' positions up to it
    /// are left out.
    #[arg(long, default_value_t = 0)]
    pub exact_every: usize,
    /// Hold out the positions of one shard game in this many (0: none).
    #[arg(long, default_value_t = 20)]
    pub test_every: u64,
    /// How much a shard position counts in the fit against a WTHOR one.
    #[arg(long, default_value_t = 1.0)]
    pub shard_weight: f32,
    /// Fitting passes per stage.
    #[arg(long, default_value_t = 60)]
    pub epochs: usize,
    /// Ridge strength: pseudo-occurrences pulling each weight towards its
    /// origin (zero, or the --origin weights).
    #[arg(long, default_value_t = 4.0)]
    pub ridge: f32,
    /// Worker threads for the WTHOR games' solves.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Compare with the weights of this file [default: the built-in ones].
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Start from these weights and pull towards them what the data says
    /// little about: a file, or `builtin` [default: start from zero].
    #[arg(long, value_name = "FILE|builtin")]
    pub origin: Option<WeightsSource>,
}

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
    pub fn load(&self, variant: Variant) -> Result<Arc<Weights>, String> {
        match self {
            WeightsSource::Builtin => weights_for(None, variant),
            WeightsSource::File(path) => weights_for(Some(path), variant),
        }
    }
}

/// Arguments of `orca train measure`.
#[derive(Args, Debug)]
pub struct MeasureArgs {
    /// Shard files.
    #[arg(long, value_name = "FILE", num_args = 1.., required_unless_present = "database")]
    shards: Vec<PathBuf>,
    /// Self-play game databases: their held-out games' positions instead.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with = "shards")]
    database: Vec<PathBuf>,
    /// Measure the first N games of each database, as `fit` reads them.
    #[arg(long, value_name = "N", requires = "database")]
    database_games: Option<usize>,
    /// With --database: the games `orca train fit --test-every N` holds out
    /// (1: every game).
    #[arg(long, default_value_t = 20)]
    test_every: u64,
    /// Measure the weights of this file [default: the built-in ones].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
}

pub(crate) fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| "expected I/N, as 0/4".to_string())?;
    let i: u32 = i.trim().parse().map_err(|e| format!("{i}: {e}"))?;
    let n: u32 = n.trim().parse().map_err(|e| format!("{n}: {e}"))?;
    if i >= n {
        return Err(format!("the shard index {i} must be below the count {n}"));
    }
    Ok((i, n))
}

/// A flag's help with its default in the full training: one number when both
/// variants share it, else each variant's.
pub(super) fn defaults(help: &str, value: impl Fn(&TrainConfig) -> String) -> String {
    let of = |variant| value(&TrainConfig::full(variant, PathBuf::new()));
    let (othello, reversed) = (of(Variant::Othello), of(Variant::Reversed));
    if othello == reversed {
        format!("{help} [default: {othello}]")
    } else {
        format!("{help} [default: othello {othello}, reversed {reversed}]")
    }
}

/// Fits `extra` with the pipeline of `config` and writes the weights to `out`;
/// the weights and the report, or the exit status after a message.
pub(super) fn fit_and_report(
    config: &TrainConfig,
    extra: &[train::fit::Sample],
    out: &Path,
) -> Result<(Weights, String), i32> {
    let bar = crate::cli::progress::stderr_bar(
        "labelling games {wide_bar} {pos}/{len}, about {eta} left",
    );
    let result = train::run_with(config, extra, &mut |p| match p {
        Progress::Lines { done, total } => {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            if done == total {
                bar.finish_and_clear();
                eprintln!("labelling games: {total} done");
            }
        }
        Progress::Stage(r, seconds) => eprintln!(
            "fitted stage {:>2} ({:>2}-{:>2} empties): {} samples, test error {:.2} discs, {seconds:.1} s",
            r.stage,
            r.stage * 4,
            r.stage * 4 + 3,
            r.train_samples,
            r.test_mae
        ),
    });
    let (weights, report) = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("orca train: {e}");
            return Err(1);
        }
    };
    let bytes = weights.to_bytes();
    if let Some(dir) = out.parent()
        && !dir.as_os_str().is_empty()
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("orca train: cannot create {}: {e}", dir.display());
        return Err(1);
    }
    if let Err(e) = std::fs::write(out, &bytes) {
        eprintln!("orca train: cannot write {}: {e}", out.display());
        return Err(1);
    }
    Ok((weights, report_text(&report)))
}

fn report_text(report: &TrainReport) -> String {
    let mut text = format!(
        "{} games, {} positions ({} solved exactly); data {:.0} s, fit {:.0} s\n\
         stage | empties |  train pos |  test pos | train MAE | test MAE\n",
        report.lines, report.samples, report.exact, report.data_seconds, report.fit_seconds
    );
    for r in &report.stages {
        text += &format!(
            "{:>5} | {:>3}-{:<3} | {:>10} | {:>9} | {:>9.2} | {:>8.2}\n",
            r.stage,
            r.stage * 4,
            r.stage * 4 + 3,
            r.train_samples,
            r.test_samples,
            r.train_mae,
            r.test_mae
        );
    }
    text
}

/// The line that says where the weights went.
pub(super) fn wrote(out: &Path) -> String {
    let bytes = std::fs::metadata(out).map_or(0, |m| m.len());
    format!("wrote {} ({bytes} bytes)", out.display())
}

/// Loads a weights file for `variant`, or takes the built-in weights.
pub fn weights_for(path: Option<&Path>, variant: Variant) -> Result<Arc<Weights>, String> {
    let weights = match path {
        None => Weights::builtin(variant).map_err(|e| format!("built-in weights: {e}"))?,
        Some(p) => Arc::new(Weights::load(p).map_err(|e| format!("{}: {e}", p.display()))?),
    };
    if weights.variant != variant {
        return Err(format!(
            "the weights are for {}, not {variant}",
            weights.variant
        ));
    }
    Ok(weights)
}

/// `orca train gen`.
pub(super) fn run_gen(args: &GenArgs) -> i32 {
    if args.label.variant == Variant::TicTacToe {
        eprintln!(
            "orca train gen: tic-tac-toe is searched to the end and has no evaluation to train"
        );
        return 2;
    }
    let weights = match weights_for(args.label_weights.as_deref(), args.label.variant) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("orca train gen: {e}");
            return 1;
        }
    };
    let config = args
        .label
        .config(args.shard, args.positions, weights, args.threads);
    let (i, n) = args.shard;
    let bar = crate::cli::progress::stderr_bar(&format!(
        "shard {i}/{n}: {{wide_bar}} {{pos}}/{{len}} positions, {{msg}} games, about {{eta}} left"
    ));
    let result = generate::run(&config, &args.out, &mut |p| {
        bar.set_length(p.target as u64);
        bar.set_position(p.positions.min(p.target) as u64);
        bar.set_message(p.blocks.to_string());
    });
    bar.finish_and_clear();
    match result {
        Ok(r) => {
            if r.dropped_bytes > 0 {
                println!(
                    "dropped a cut-off last block ({} bytes) and continued",
                    r.dropped_bytes
                );
            }
            let total = r.kept_positions + r.positions;
            println!(
                "{}: {total} positions in {} games (this run: {} positions, {} exact, in {:.0} s{})",
                args.out.display(),
                r.kept_blocks + r.blocks,
                r.positions,
                r.exact,
                r.seconds,
                if r.positions > 0 {
                    format!(
                        ", {:.0} ms a position",
                        1000.0 * r.seconds / r.positions as f64
                    )
                } else {
                    String::new()
                }
            );
            0
        }
        Err(e) => {
            eprintln!("orca train gen: {e}");
            1
        }
    }
}

/// The shards' blocks and the databases' games, all of one variant.
fn read_data(
    shards: &[PathBuf],
    databases: &[PathBuf],
    database_games: Option<usize>,
) -> Result<(Vec<Block>, Vec<DatabaseGame>, Variant), String> {
    let (blocks, mut variant) = if shards.is_empty() {
        (Vec::new(), None)
    } else {
        let (blocks, variant) = read_shards(shards)?;
        (blocks, Some(variant))
    };
    let mut games = Vec::new();
    for dir in databases {
        let of = database::variant_of(dir).map_err(|e| e.to_string())?;
        if variant.is_some_and(|v| v != of) {
            return Err(format!(
                "{} holds {of} games, the other data {}",
                dir.display(),
                variant.expect("some")
            ));
        }
        variant = Some(of);
        let mut more = database::read(dir).map_err(|e| e.to_string())?;
        if let Some(n) = database_games {
            if more.len() < n {
                return Err(format!(
                    "{} holds {} games, fewer than --database-games {n}",
                    dir.display(),
                    more.len()
                ));
            }
            more.truncate(n);
        }
        games
            .try_reserve(more.len())
            .map_err(|_| "not enough memory for the databases".to_string())?;
        games.extend(more);
    }
    let variant = variant.ok_or("give --shards or --database")?;
    Ok((blocks, games, variant))
}

/// Reads every block of the shard files, all of one variant.
fn read_shards(paths: &[PathBuf]) -> Result<(Vec<Block>, Variant), String> {
    let mut blocks = Vec::new();
    for path in paths {
        let more = generate::read(path)?;
        blocks
            .try_reserve(more.len())
            .map_err(|_| "not enough memory for the shards".to_string())?;
        blocks.extend(more);
    }
    let Some(variant) = blocks.first().map(|b| b.settings.variant) else {
        return Err("the shard files hold no positions".to_string());
    };
    if let Some(other) = blocks.iter().find(|b| b.settings.variant != variant) {
        return Err(format!(
            "the shards mix {variant} and {} positions",
            other.settings.variant
        ));
    }
    Ok((blocks, variant))
}

/// Mean absolute errors of `weights` on `samples`, per stage: (count, sum).
fn errors<'a>(
    weights: &Weights,
    samples: impl Iterator<Item = (&'a Board, f64)>,
) -> Vec<(usize, f64)> {
    let mut by_stage = vec![(0usize, 0f64); STAGES];
    for (board, target) in samples {
        let value = Score::from_centi(weights.evaluate(board)).discs();
        let cell = &mut by_stage[stage(board.empties())];
        cell.0 += 1;
        cell.1 += (value - target).abs();
    }
    by_stage
}

fn mae((count, sum): (usize, f64)) -> String {
    if count == 0 {
        "-".to_string()
    } else {
        format!("{:.2}", sum / count as f64)
    }
}

fn total(cells: &[(usize, f64)]) -> (usize, f64) {
    cells
        .iter()
        .fold((0, 0.0), |(n, s), &(m, t)| (n + m, s + t))
}

/// `orca train fit`.
pub(super) fn run_fit(args: &FitArgs) -> i32 {
    match fit_shards(args, "orca train fit") {
        Ok((report, held_out)) => {
            println!("{report}{}", wrote(&args.out));
            print!("{held_out}");
            0
        }
        Err(status) => status,
    }
}

/// Fits the weights of `args` and writes them; the fit's report and the table
/// of held-out errors (new against baseline), or the exit status after a
/// message that starts with `context`.
pub fn fit_shards(args: &FitArgs, context: &str) -> Result<(String, String), i32> {
    let fail = |e: String| {
        eprintln!("{context}: {e}");
        1
    };
    let (blocks, games, variant) =
        read_data(&args.shards, &args.database, args.database_games).map_err(fail)?;
    let baseline = weights_for(args.baseline.as_deref(), variant).map_err(fail)?;
    let origin = match &args.origin {
        Some(source) => Some(source.load(variant).map_err(fail)?),
        None => None,
    };
    if args.wthor.is_some() && variant != Variant::Othello {
        eprintln!("{context}: WTHOR games are standard Othello, the shards are {variant}");
        return Err(2);
    }
    if !(args.shard_weight.is_finite() && args.shard_weight > 0.0) {
        eprintln!("{context}: --shard-weight must be a positive number");
        return Err(2);
    }
    if !(args.ridge.is_finite() && args.ridge > 0.0) {
        eprintln!("{context}: --ridge must be a positive number");
        return Err(2);
    }
    let mut samples = train::shard_samples(&blocks, args.test_every, args.shard_weight);
    samples.extend(database::samples(&games, args.test_every, 1.0));
    let mut config = TrainConfig::full(variant, PathBuf::new());
    config.wthor = args.wthor.clone();
    config.wthor_games = args.games;
    config.exact_every = args.exact_every;
    config.origin = origin;
    // The shards and the database label the late positions exactly: a WTHOR
    // game's result is no label there (docs/training.md).
    let horizon = blocks
        .iter()
        .map(|b| u32::from(b.settings.exact_empties))
        .chain(games.iter().map(|g| g.solve_empties))
        .min()
        .unwrap_or(0);
    let database_games = games.len();
    drop(games);
    config.line.exact_empties = horizon;
    config.deep_every = 0;
    config.selfplay_games = 0;
    drop(blocks);
    config.fit.epochs = args.epochs;
    config.fit.ridge = args.ridge;
    config.threads = args.threads;
    eprintln!(
        "{context}: {} shard and database positions ({database_games} database games, {} held out), {}",
        samples.len(),
        samples.iter().filter(|s| s.test).count(),
        match &config.wthor {
            Some(dir) => format!("with the WTHOR games of {}", dir.display()),
            None => "no WTHOR games".to_string(),
        }
    );
    let (weights, report) = fit_and_report(&config, &samples, &args.out)?;
    let boards: Vec<(Board, f64)> = samples
        .iter()
        .filter(|s| s.test)
        .map(|s| (Board::new(s.player, s.opponent), f64::from(s.target)))
        .collect();
    let fitted = errors(&weights, boards.iter().map(|(b, t)| (b, *t)));
    let base = errors(&baseline, boards.iter().map(|(b, t)| (b, *t)));
    let source = match (args.shards.is_empty(), args.database.is_empty()) {
        (false, true) => "shard",
        (true, false) => "database",
        _ => "shard and database",
    };
    let mut table = format!(
        "held-out {source} positions: error of the new weights and of the baseline\n\
         stage | empties | positions | new MAE | baseline MAE\n",
    );
    for st in 0..STAGES {
        table += &format!(
            "{:>5} | {:>3}-{:<3} | {:>9} | {:>7} | {:>12}\n",
            st,
            st * 4,
            st * 4 + 3,
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
    Ok((report, table))
}

/// `orca train measure`.
pub(super) fn run_measure(args: &MeasureArgs) -> i32 {
    let (blocks, games, variant) =
        match read_data(&args.shards, &args.database, args.database_games) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("orca train measure: {e}");
                return 1;
            }
        };
    let weights = match weights_for(args.weights.as_deref(), variant) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("orca train measure: {e}");
            return 1;
        }
    };
    let mut records: Vec<(Board, f64, bool)> = blocks
        .iter()
        .flat_map(|b| &b.records)
        .map(|r| {
            (
                r.board(),
                Score::from_centi(i32::from(r.score)).discs(),
                r.exact,
            )
        })
        .collect();
    let held_out: Vec<&DatabaseGame> = games
        .iter()
        .filter(|g| g.held_out(args.test_every))
        .collect();
    for game in &held_out {
        records.extend(
            game.labelled()
                .into_iter()
                .map(|(b, target, exact)| (b, f64::from(target), exact)),
        );
    }
    let (games_count, other) = if blocks.is_empty() {
        (held_out.len(), "outcome")
    } else {
        (blocks.len(), "searched")
    };
    let of = |exact: bool| {
        errors(
            &weights,
            records
                .iter()
                .filter(|r| r.2 == exact)
                .map(|(b, t, _)| (b, *t)),
        )
    };
    let (exact, searched) = (of(true), of(false));
    println!(
        "{variant}: {} positions of {} games; error of the {} weights, in discs",
        records.len(),
        games_count,
        match &args.weights {
            Some(p) => p.display().to_string(),
            None => "built-in".to_string(),
        }
    );
    println!("stage | empties | exact pos | exact MAE | {other:>8} pos | {other:>8} MAE");
    for st in 0..STAGES {
        println!(
            "{:>5} | {:>3}-{:<3} | {:>9} | {:>9} | {:>12} | {:>12}",
            st,
            st * 4,
            st * 4 + 3,
            exact[st].0,
            mae(exact[st]),
            searched[st].0,
            mae(searched[st])
        );
    }
    let (e, s) = (total(&exact), total(&searched));
    println!(
        "  all |         | {:>9} | {:>9} | {:>12} | {:>12}",
        e.0,
        mae(e),
        s.0,
        mae(s)
    );
    // A value off by a factor errs without changing which move is best: the
    // least-squares slope of the labels on the values tells scale from noise.
    let (mut ee, mut et) = (0f64, 0f64);
    for (board, target, _) in &records {
        let value = Score::from_centi(weights.evaluate(board)).discs();
        ee += value * value;
        et += value * target;
    }
    if ee > 0.0 {
        println!("labels = {:.3} x evaluation (least squares)", et / ee);
    }
    0
}
