//! `orca calibrate`: fits the probable cutoffs' error model of one variant
//! on positions of the shipped games and prints (or writes) the table the
//! search builds in.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use orca::eval::Evaluators;
use orca::game::Variant;
use orca::search::midgame::calibrate;

/// Arguments of `orca calibrate`.
#[derive(Args, Debug)]
pub struct CalibrateArgs {
    #[command(flatten)]
    pub(super) eval: super::EvalArgs,
    /// Which game: othello or reversed (each has its own fit).
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Positions to search.
    #[arg(long, default_value_t = 400)]
    positions: usize,
    /// Deepest full-width search of each position.
    #[arg(long, default_value_t = 10)]
    max_depth: u32,
    /// Fewest empty squares of a position.
    #[arg(long, default_value_t = 14)]
    min_empties: u32,
    /// Most empty squares of a position.
    #[arg(long, default_value_t = 54)]
    max_empties: u32,
    /// Seed of the position draw.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Folder of WTHOR game files to draw the positions from.
    #[arg(long, default_value = "data/wthor")]
    wthor: PathBuf,
    /// Write the table here (the built-in ones are weights/probcut-othello.txt
    /// and weights/probcut-reversed.txt) instead of printing it.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs the calibration; returns the exit status.
pub fn run(args: &CalibrateArgs, evaluators: &Evaluators) -> i32 {
    match calibrate_to_text(args, evaluators) {
        Ok(text) => match &args.out {
            Some(path) => match std::fs::write(path, &text) {
                Ok(()) => {
                    eprintln!("orca calibrate: wrote {}", path.display());
                    0
                }
                Err(e) => {
                    eprintln!("orca calibrate: {}: {e}", path.display());
                    1
                }
            },
            None => {
                print!("{text}");
                0
            }
        },
        Err(message) => {
            eprintln!("orca calibrate: {message}");
            1
        }
    }
}

fn calibrate_to_text(args: &CalibrateArgs, evaluators: &Evaluators) -> Result<String, String> {
    if args.min_empties > args.max_empties || args.max_empties > 59 {
        return Err("need --min-empties <= --max-empties <= 59".into());
    }
    if !(3..=20).contains(&args.max_depth) {
        return Err("--max-depth must be 3 to 20".into());
    }
    let files = orca::wthor::files_in(&args.wthor).map_err(|e| e.to_string())?;
    let mut games = Vec::new();
    for file in &files {
        let parsed = orca::wthor::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        games.extend(parsed.games);
    }
    let boards = calibrate::sample_positions(
        &games,
        args.positions,
        args.min_empties,
        args.max_empties,
        args.seed,
    );
    if boards.is_empty() {
        return Err(format!("no position drawn from {}", args.wthor.display()));
    }
    let started = Instant::now();
    let total = boards.len();
    let mut progress = |done: usize| {
        if done.is_multiple_of(10) || done == total {
            eprintln!(
                "{done}/{total} positions, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
    };
    let samples = match args.variant {
        Variant::Othello => {
            calibrate::measure(&evaluators.othello, &boards, args.max_depth, &mut progress)
        }
        Variant::Reversed => {
            calibrate::measure(&evaluators.reversed, &boards, args.max_depth, &mut progress)
        }
        Variant::TicTacToe => return Err("tic-tac-toe has no probable cutoffs".into()),
    };
    let model = calibrate::fit(&samples).ok_or("too few samples to fit the model")?;
    let header = format!(
        "Probable-cutoff errors of {} (orca calibrate --variant {} --positions {} \
         --max-depth {} --min-empties {} --max-empties {} --seed {}),\n\
         {} positions drawn from the games in {}, searched full width.",
        args.variant,
        args.variant,
        args.positions,
        args.max_depth,
        args.min_empties,
        args.max_empties,
        args.seed,
        boards.len(),
        args.wthor.display()
    );
    Ok(calibrate::report(&header, &model, &samples))
}
