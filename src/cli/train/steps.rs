//! The steps of `orca train` on files: `gen` (shards of positions labelled
//! by search), `fit` (weights from shards, WTHOR games and self-play
//! databases) and `measure` (an evaluation's error on them), with the
//! pieces `orca train` and `orca train round` share.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use orca::eval::trained::{STAGES, Weights, stage, stage_empties};
use orca::game::{Board, Variant};
use orca::score::Score;
use orca::train::database::DatabaseGame;
use orca::train::files::{
    Data, FitFiles, WeightsSource, errors, fit_files, load_weights, mae, read_data, total,
};
use orca::train::generate::{self, LabelSettings};
use orca::train::{Progress, TrainConfig};

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
    /// The settings these flags give.
    pub fn settings(&self) -> LabelSettings {
        LabelSettings {
            variant: self.variant,
            seed: self.seed,
            exact_empties: self.exact_empties,
            depth: self.depth,
            random_min: self.random_min,
            random_max: self.random_max,
            play_depth: self.play_depth,
            wthor: self.wthor.clone(),
            wthor_share: self.wthor_share,
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
    /// Label each database position with this share of the search's value
    /// of it (where its chunk kept values, `ID-CCCC.val`) and the rest its
    /// game's final score; held-out positions keep the final score.
    #[arg(long, default_value_t = 0.0)]
    pub value_weight: f32,
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

impl FitArgs {
    /// The fit these flags ask for.
    pub fn files(&self) -> FitFiles {
        FitFiles {
            shards: self.shards.clone(),
            databases: self.database.clone(),
            database_games: self.database_games,
            wthor: self.wthor.clone(),
            wthor_games: self.games,
            exact_every: self.exact_every,
            test_every: self.test_every,
            shard_weight: self.shard_weight,
            value_weight: self.value_weight,
            epochs: self.epochs,
            ridge: self.ridge,
            threads: self.threads,
            baseline: self.baseline.clone(),
            origin: self.origin.clone(),
            out: self.out.clone(),
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

/// The progress of a fit on stderr: a bar while WTHOR games are labelled,
/// a line a stage.
pub(super) fn fit_progress() -> impl FnMut(Progress) + Send {
    let bar = crate::cli::progress::stderr_bar(
        "labelling games {wide_bar} {pos}/{len}, about {eta} left",
    );
    move |p| match p {
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
            stage_empties(r.stage).0,
            stage_empties(r.stage).1,
            r.train_samples,
            r.test_mae
        ),
    }
}

/// The line that says where the weights went.
pub(super) fn wrote(out: &Path) -> String {
    let bytes = std::fs::metadata(out).map_or(0, |m| m.len());
    format!("wrote {} ({bytes} bytes)", out.display())
}

/// Loads a weights file for `variant`, or takes the built-in weights.
pub fn weights_for(path: Option<&Path>, variant: Variant) -> Result<Arc<Weights>, String> {
    load_weights(path, variant).map_err(|e| e.to_string())
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
        .settings()
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

/// `orca train fit`.
pub(super) fn run_fit(args: &FitArgs) -> i32 {
    match fit_files(&args.files(), &mut fit_progress()) {
        Ok(fitted) => {
            eprintln!(
                "orca train fit: {} shard and database positions ({} database games, {} held out)",
                fitted.positions.0, fitted.database_games, fitted.positions.1
            );
            println!("{}{}", fitted.report, wrote(&args.out));
            print!("{}", fitted.held_out);
            0
        }
        Err(e) => {
            eprintln!("orca train fit: {e}");
            e.status()
        }
    }
}

/// Where held-out database positions ([`DatabaseGame::valued`]) have the
/// search's values: how far the final score is from the value, and the
/// weights from each, a row a stage.
fn values_table(weights: &Weights, positions: &[(Board, i32, bool, Option<i32>)]) {
    let mut sums = vec![(0usize, 0f64, 0f64, 0f64); STAGES];
    for &(board, outcome, _, value) in positions {
        let Some(value) = value else { continue };
        let eval = Score::from_centi(weights.evaluate(&board)).discs();
        let row = &mut sums[stage(board.empties())];
        row.0 += 1;
        row.1 += f64::from((outcome - value).abs());
        row.2 += (eval - f64::from(outcome)).abs();
        row.3 += (eval - f64::from(value)).abs();
    }
    let valued: usize = sums.iter().map(|r| r.0).sum();
    if valued == 0 {
        return;
    }
    println!("{valued} held-out positions with the search's values (mean differences, discs)");
    println!("stage | empties | positions | outcome-value | weights-outcome | weights-value");
    for (st, &(n, ov, wo, wv)) in sums.iter().enumerate().filter(|(_, r)| r.0 > 0) {
        let mean = |x: f64| x / n as f64;
        let (first, last) = stage_empties(st);
        println!(
            "{:>5} | {:>3}-{:<3} | {:>9} | {:>13.2} | {:>15.2} | {:>13.2}",
            st,
            first,
            last,
            n,
            mean(ov),
            mean(wo),
            mean(wv)
        );
    }
}

/// `orca train measure`.
pub(super) fn run_measure(args: &MeasureArgs) -> i32 {
    let Data {
        blocks,
        games,
        variant,
    } = match read_data(&args.shards, &args.database, args.database_games) {
        Ok(data) => data,
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
    // Each held-out game replayed once: its positions, labels and values.
    let valued: Vec<_> = held_out.iter().flat_map(|g| g.valued()).collect();
    records.extend(
        valued
            .iter()
            .map(|&(b, target, exact, _)| (b, f64::from(target), exact)),
    );
    let (games_count, other) = if blocks.is_empty() {
        (held_out.len(), "outcome")
    } else {
        (blocks.len(), "searched")
    };
    let of = |exact: bool| {
        let boards: Vec<(Board, f64)> = records
            .iter()
            .filter(|r| r.2 == exact)
            .map(|&(b, t, _)| (b, t))
            .collect();
        errors(&weights, &boards)
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
        let (first, last) = stage_empties(st);
        println!(
            "{:>5} | {:>3}-{:<3} | {:>9} | {:>9} | {:>12} | {:>12}",
            st,
            first,
            last,
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
    values_table(&weights, &valued);
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
