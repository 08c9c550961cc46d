//! `orca train`: regenerates the evaluation weights from the shipped data,
//! with a progress bar on stderr and a summary on stdout.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use orca::game::Variant;
use orca::train::{self, Progress, TrainConfig};

/// Arguments of `orca train`. Defaults not given here are those of the full
/// training of the variant, the one that made the committed weights.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Which rules: othello or reversed.
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Where to write the weights (required, so that the committed
    /// weights/*.bin are replaced only when named).
    #[arg(long, value_name = "FILE", required = true)]
    out: PathBuf,
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

/// A flag's help with its default in the full training: one number when both
/// variants share it, else each variant's.
fn defaults(help: &str, value: impl Fn(&TrainConfig) -> String) -> String {
    let of = |variant| value(&TrainConfig::full(variant, PathBuf::new()));
    let (othello, reversed) = (of(Variant::Othello), of(Variant::Reversed));
    if othello == reversed {
        format!("{help} [default: {othello}]")
    } else {
        format!("{help} [default: othello {othello}, reversed {reversed}]")
    }
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
    let out = &args.out;
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
    if let Err(e) = std::fs::write(out, &bytes) {
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
