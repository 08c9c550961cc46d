//! `orca train round`: the flags of one improvement round of the evaluation
//! and its progress on the terminal; the round itself is the library's
//! [`orca::round`].

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;
use indicatif::ProgressBar;
use orca::referee::TimeControl;
use orca::referee::stats::Sprt;
use orca::round::{self, Event, Outcome, RoundConfig, Step};

use super::steps::LabelArgs;

/// How the command reports its problems.
const CONTEXT: &str = "orca train round";

/// Arguments of `orca train round`.
#[derive(Args, Debug)]
pub struct RoundArgs {
    #[command(flatten)]
    label: LabelArgs,
    /// The round's directory: its settings, shards, candidate weights, gate
    /// games and report. Run the same command again to continue a round.
    #[arg(long, value_name = "DIR")]
    dir: PathBuf,
    /// The weights to improve on: they label the positions, the fit starts
    /// from them and the gate plays against them [default: the built-in ones].
    #[arg(long, value_name = "FILE")]
    current: Option<PathBuf>,
    /// Shards of the labelling: `DIR/shard-I-of-N.shard`, written here or by a
    /// batch system's tasks (deploy/) with the same settings.
    #[arg(long, default_value_t = 1)]
    shards: u32,
    /// Positions per shard.
    #[arg(long, default_value_t = 100_000)]
    positions: usize,

    /// Hold out the positions of one shard game in this many.
    #[arg(long, default_value_t = 20)]
    test_every: u64,
    /// Fitting passes per stage.
    #[arg(long, default_value_t = 60)]
    epochs: usize,
    /// Ridge strength: pseudo-occurrences pulling each weight towards its
    /// current value.
    #[arg(long, default_value_t = 16.0)]
    ridge: f32,
    /// The gate's time control: movetime=TIME, or MAIN+INC.
    #[arg(long, default_value = "movetime=200", allow_hyphen_values = true)]
    tc: TimeControl,
    /// The gate's most games, in colour-swapped pairs; a test still undecided
    /// then rejects the candidate.
    #[arg(long, default_value_t = 600)]
    games: usize,
    /// The gate's test, from the candidate's side: it passes when H1 is accepted.
    #[arg(long, default_value = "elo0=0,elo1=20,alpha=0.05,beta=0.05")]
    sprt: Sprt,
    /// The gate's games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Worker threads of the labelling and the fit (the results do not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// When the candidate passes, copy its weights here (weights/othello.bin,
    /// say, then rebuild).
    #[arg(long, value_name = "FILE")]
    install: Option<PathBuf>,
    /// Stop after this step: label (a big machine making the shards alone),
    /// fit, or gate (the whole round).
    #[arg(long, value_enum, default_value = "gate")]
    until: StepArg,
}

/// The steps of a round, in order (`--until`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepArg {
    /// Positions labelled by search, in shard files.
    Label,
    /// Candidate weights fitted from them.
    Fit,
    /// The SPRT match against the current weights.
    Gate,
}

impl RoundArgs {
    /// The round these flags ask for, its engines run from `program`.
    fn config(&self, program: PathBuf) -> RoundConfig {
        RoundConfig {
            label: self.label.settings(),
            dir: self.dir.clone(),
            current: self.current.clone(),
            shards: self.shards,
            positions: self.positions,
            test_every: self.test_every,
            epochs: self.epochs,
            ridge: self.ridge,
            tc: self.tc,
            games: self.games,
            sprt: self.sprt,
            concurrency: self.concurrency,
            threads: self.threads,
            install: self.install.clone(),
            until: match self.until {
                StepArg::Label => Step::Label,
                StepArg::Fit => Step::Fit,
                StepArg::Gate => Step::Gate,
            },
            program,
        }
    }
}

/// Runs the round; returns the exit status.
pub fn run(args: &RoundArgs) -> i32 {
    let program = match std::env::current_exe() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{CONTEXT}: cannot find the orca binary: {e}");
            return 1;
        }
    };
    let config = args.config(program);
    let stop = Arc::new(AtomicBool::new(false));
    let mut bar: Option<(u32, ProgressBar)> = None;
    let mut fit_progress = super::steps::fit_progress();
    let tc = config.tc;
    let sprt = config.sprt;
    let outcome = round::run(&config, &stop, &mut |event| match event {
        Event::Labelling {
            shard,
            shards,
            positions,
            target,
            games,
        } => {
            if bar.as_ref().is_none_or(|(s, _)| *s != shard) {
                let new = crate::cli::progress::stderr_bar(&format!(
                    "{CONTEXT}: labelling shard {shard}/{shards}: {{wide_bar}} {{pos}}/{{len}} positions, {{msg}} games"
                ));
                bar = Some((shard, new));
            }
            if let Some((_, b)) = &bar {
                b.set_length(target as u64);
                b.set_position(positions as u64);
                b.set_message(games.to_string());
            }
        }
        Event::Labelled(_) => {
            if let Some((_, b)) = bar.take() {
                b.finish_and_clear();
            }
        }
        Event::Fit(progress) => fit_progress(progress),
        Event::GateStarted { left, total } => {
            // Ctrl-C stops the gate cleanly (its pairs are kept); before
            // the gate it ends the process, which the steps survive.
            let flag = Arc::clone(&stop);
            if let Err(e) = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed)) {
                log::warn!("Ctrl-C will not stop the gate cleanly: {e}");
            }
            eprintln!(
                "{CONTEXT}: gate of candidate against current, {left} of {total} pairs left, {tc}"
            );
        }
        Event::Pair {
            pair,
            points,
            pairs,
            llr,
        } => {
            let (low, high) = sprt.bounds();
            let elo = pairs.elo().map_or("-".to_string(), |e| {
                format!("{:+.1} ± {:.1}", e.elo, e.margin())
            });
            eprintln!(
                "{CONTEXT}: pair {pair}: {points}; pairs {:?}, Elo {elo}, LLR {llr:.2} ({low:.2}, {high:.2})",
                pairs.0
            );
        }
        Event::Installed(path) => {
            eprintln!("{CONTEXT}: installed the candidate as {}", path.display());
        }
    });
    match outcome {
        Ok(Outcome::Labelled) => {
            eprintln!("{CONTEXT}: the shards are labelled");
            0
        }
        Ok(Outcome::Fitted(candidate)) => {
            eprintln!(
                "{CONTEXT}: the candidate is fitted: {}",
                candidate.display()
            );
            0
        }
        Ok(Outcome::Gated { report, .. }) => {
            print!("{report}");
            0
        }
        Err(e) => {
            eprintln!("{CONTEXT}: {e}");
            e.status()
        }
    }
}
