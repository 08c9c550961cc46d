//! `orca train`: regenerates the evaluation weights from the shipped data,
//! with a progress bar on stderr and a summary on stdout.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use orca::game::Variant;
use orca::train::{self, Progress, TrainConfig};

/// Arguments of `orca train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Which rules: othello or reversed.
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Where to write the weights (default: weights/<variant>.bin).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The WTHOR files (standard Othello).
    #[arg(long, default_value = "data/wthor")]
    wthor: PathBuf,
    /// Use at most this many WTHOR games.
    #[arg(long)]
    games: Option<usize>,
    /// Self-play games (default: the full training's number).
    #[arg(long)]
    selfplay: Option<usize>,
    /// Solve exactly the positions with at most this many empty squares.
    #[arg(long)]
    exact_empties: Option<u32>,
    /// Solve the late positions of one WTHOR game in this many (0: none).
    #[arg(long)]
    exact_every: Option<usize>,
    /// Solve further back, to --deep-empties, one WTHOR game in this many (0: none).
    #[arg(long)]
    deep_every: Option<usize>,
    /// Empty squares from which the deep games are solved.
    #[arg(long)]
    deep_empties: Option<u32>,
    /// Search depth of the self-play moves.
    #[arg(long)]
    depth: Option<u32>,
    /// Fitting passes per stage.
    #[arg(long)]
    epochs: Option<usize>,
    /// Seed of every random choice.
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads for labelling and self-play (results do not depend on it).
    #[arg(long)]
    threads: Option<usize>,
}

fn bar(done: usize, total: usize) -> String {
    let width = 30;
    let filled = done * width / total.max(1);
    format!(
        "[{}{}] {:>3}%",
        "#".repeat(filled),
        ".".repeat(width - filled),
        done * 100 / total.max(1)
    )
}

/// Trains and writes the weights; returns the exit status.
pub fn run(args: &TrainArgs) -> i32 {
    if args.variant == Variant::TicTacToe {
        eprintln!("orca train: tic-tac-toe is searched to the end and has no evaluation to train");
        return 2;
    }
    let mut config = TrainConfig::full(args.variant, args.wthor.clone());
    if let Some(n) = args.games {
        config.wthor_games = Some(n);
    }
    if let Some(n) = args.selfplay {
        config.selfplay_games = n;
    }
    if let Some(n) = args.exact_empties {
        config.line.exact_empties = n;
    }
    if let Some(n) = args.exact_every {
        config.exact_every = n;
    }
    if let Some(n) = args.deep_every {
        config.deep_every = n;
    }
    if let Some(n) = args.deep_empties {
        config.deep_empties = n;
    }
    if let Some(n) = args.depth {
        config.line.depth = n;
    }
    if let Some(n) = args.epochs {
        config.fit.epochs = n;
    }
    if let Some(n) = args.seed {
        config.seed = n;
    }
    if let Some(n) = args.threads {
        config.threads = n;
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("weights/{}.bin", args.variant)));
    eprintln!("orca train: {config:?}");
    let result = train::run(&config, &mut |p| match p {
        Progress::Lines { done, total } => {
            eprint!("\rlabelling games  {} {done}/{total}", bar(done, total));
            if done == total {
                eprintln!();
            }
            let _ = std::io::stderr().flush();
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
            return 1;
        }
    };
    let bytes = weights.to_bytes();
    if let Some(dir) = out.parent()
        && !dir.as_os_str().is_empty()
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("orca train: cannot create {}: {e}", dir.display());
        return 1;
    }
    if let Err(e) = std::fs::write(&out, &bytes) {
        eprintln!("orca train: cannot write {}: {e}", out.display());
        return 1;
    }
    println!(
        "{} games, {} positions ({} solved exactly); data {:.0} s, fit {:.0} s",
        report.lines, report.samples, report.exact, report.data_seconds, report.fit_seconds
    );
    println!("stage | empties |  train pos |  test pos | train MAE | test MAE");
    for r in &report.stages {
        println!(
            "{:>5} | {:>3}-{:<3} | {:>10} | {:>9} | {:>9.2} | {:>8.2}",
            r.stage,
            r.stage * 4,
            r.stage * 4 + 3,
            r.train_samples,
            r.test_samples,
            r.train_mae,
            r.test_mae
        );
    }
    println!("wrote {} ({} bytes)", out.display(), bytes.len());
    0
}
