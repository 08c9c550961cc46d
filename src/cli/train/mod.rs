//! `orca train`: regenerates the evaluation weights from the shipped data,
//! with a progress bar on stderr and a summary on stdout; its sub-commands
//! on files are in [`steps`], the improvement round in [`round`].

pub mod round;
pub mod steps;

use std::path::PathBuf;

use clap::{Args, Subcommand};
use orca::game::Variant;
use orca::train::TrainConfig;
use orca::train::files::fit_and_write;

use steps::{
    FitArgs, GenArgs, MeasureArgs, defaults, fit_progress, run_fit, run_gen, run_measure, wrote,
};

/// Arguments of `orca train`. Defaults not given here are those of the full
/// training of the variant, the one that made the committed weights.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct TrainArgs {
    #[command(subcommand)]
    command: Option<TrainCommand>,
    /// Which rules: othello or reversed.
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Where to write the weights (required, so that the committed
    /// weights/*.bin are replaced only when named).
    #[arg(long, value_name = "FILE", required = true)]
    out: Option<PathBuf>,
    /// The WTHOR files (standard Othello).
    #[arg(long, default_value = "data/wthor")]
    wthor: PathBuf,
    /// Use at most this many WTHOR games [default: all].
    #[arg(long)]
    games: Option<usize>,
    #[arg(long, help = defaults("Self-play games", |c| c.selfplay_games.to_string()))]
    selfplay: Option<usize>,
    #[arg(long, help = defaults(
        "Solve exactly the positions with at most this many empty squares",
        |c| c.line.exact_empties.to_string()))]
    exact_empties: Option<u32>,
    #[arg(long, help = defaults(
        "Solve the late positions of one WTHOR game in this many (0: none)",
        |c| c.exact_every.to_string()))]
    exact_every: Option<usize>,
    #[arg(long, help = defaults(
        "Solve further back, to --deep-empties, one WTHOR game in this many (0: none)",
        |c| c.deep_every.to_string()))]
    deep_every: Option<usize>,
    #[arg(long, help = defaults(
        "Empty squares from which the deep games are solved",
        |c| c.deep_empties.to_string()))]
    deep_empties: Option<u32>,
    #[arg(long, help = defaults("Search depth of the self-play moves", |c| c.line.depth.to_string()))]
    depth: Option<u32>,
    #[arg(long, help = defaults("Fitting passes per stage", |c| c.fit.epochs.to_string()))]
    epochs: Option<usize>,
    #[arg(long, help = defaults("Seed of every random choice", |c| c.seed.to_string()))]
    seed: Option<u64>,
    #[arg(long, help = defaults(
        "Worker threads for labelling and self-play (results do not depend on it)",
        |c| c.threads.to_string()))]
    threads: Option<usize>,
}

/// The sub-commands of `orca train` for positions labelled by search.
#[derive(Subcommand, Debug)]
enum TrainCommand {
    /// Write, or continue, a shard file of positions labelled by search:
    /// solved exactly near the end, searched by the selective midgame search
    /// before. Shard files concatenate (`cat a b > c`).
    Gen(GenArgs),
    /// Fit weights from shard files, with the WTHOR games if asked, and
    /// compare them with the built-in weights on the shards' held-out games.
    Fit(Box<FitArgs>),
    /// The error of the evaluation against the labels of shard files, per stage.
    Measure(MeasureArgs),
    /// One improvement round, resumable: label positions with the current
    /// weights, fit a candidate from them, gate it by an SPRT match against
    /// the current weights, install it only if it passes.
    Round(Box<round::RoundArgs>),
}

/// Trains and writes the weights; returns the exit status.
pub fn run(args: &TrainArgs) -> i32 {
    match &args.command {
        Some(TrainCommand::Gen(a)) => return run_gen(a),
        Some(TrainCommand::Fit(a)) => return run_fit(a),
        Some(TrainCommand::Measure(a)) => return run_measure(a),
        Some(TrainCommand::Round(a)) => return round::run(a),
        None => {}
    }
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
    let Some(out) = &args.out else {
        eprintln!("orca train: --out is required");
        return 2;
    };
    eprintln!("orca train: {config:?}");
    match fit_and_write(&config, &[], out, &mut fit_progress()) {
        Ok((_, report)) => {
            println!("{report}{}", wrote(out));
            0
        }
        Err(e) => {
            eprintln!("orca train: {e}");
            1
        }
    }
}
