//! Command-line front: parses arguments with `clap` and hands each sub-command to
//! its own module. Everything here writes human-readable text; the protocols own
//! stdout only when the engine runs. `orca play` is the interactive one: a game
//! against Orca at the terminal.

mod bench;
mod calibrate;
mod frontends;
mod match_cmd;
mod openings;
mod perft;
mod play;
mod solve;
mod train;

use std::sync::Arc;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

use orca::eval::trained::Weights;
use orca::eval::{EvalKind, Evaluators};

/// Orca: an Othello, reversed-Othello and tic-tac-toe engine. With no
/// sub-command it speaks UGI, NBoard or GTP, whichever the first line is in.
#[derive(Parser, Debug)]
#[command(name = "orca", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Evaluation of the Othello variants: trained (the built-in weights) or handmade.
    #[arg(long, global = true, default_value = "trained")]
    eval: EvalKind,
    /// Use the trained weights in this file instead of the built-in ones (the
    /// file says which variant it is for; give the option twice for both).
    #[arg(long, global = true)]
    weights: Vec<PathBuf>,
}

/// The evaluations the command line asks for, or a message saying why not.
fn evaluators(cli: &Cli) -> Result<Arc<Evaluators>, String> {
    let mut evaluators = Evaluators::new(cli.eval).map_err(|e| format!("built-in weights: {e}"))?;
    for path in &cli.weights {
        let weights = Weights::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
        evaluators.use_weights(weights);
    }
    Ok(Arc::new(evaluators))
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the game tree (move-generation check and benchmark).
    Perft(perft::PerftArgs),
    /// Search a fixed set of positions: node-count signature and speed;
    /// `bench timing` measures punctuality through the protocol.
    Bench(bench::BenchArgs),
    /// Solve the positions of an OBF file exactly and compare with its scores.
    Solve(solve::SolveArgs),
    /// Play a game against Orca in the terminal (or two people, or watch Orca
    /// play itself).
    Play(play::PlayArgs),
    /// Referee a match between two engines (UGI, GTP or NBoard): every move
    /// checked, clocks kept, results with Elo, pentanomial and SPRT, games as GGF.
    Match(match_cmd::MatchArgs),
    /// Make a balanced openings file for `orca match` from WTHOR games.
    Openings(openings::OpeningsArgs),
    /// Fit the evaluation weights from the shipped game data and self-play.
    Train(train::TrainArgs),
    /// Fit the probable cutoffs' error model on positions of the shipped games.
    Calibrate(calibrate::CalibrateArgs),
    /// Run the engine over UGI on stdin/stdout.
    Ugi,
    /// Run the engine over NBoard (protocol version 2), for the NBoard GUI.
    Nboard(frontends::NboardArgs),
    /// Run the engine over GTP (version 2, Othello coordinates), for match runners.
    Gtp(frontends::GtpArgs),
}

/// Runs the parsed command line and returns the process exit status.
pub fn run(cli: Cli) -> i32 {
    let evaluators = match evaluators(&cli) {
        Ok(e) => e,
        Err(message) => {
            eprintln!("orca: {message}");
            return 1;
        }
    };
    match cli.command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Bench(args)) => bench::run(&args, evaluators),
        Some(Command::Solve(args)) => solve::run(&args, evaluators),
        Some(Command::Play(args)) => play::run(&args, evaluators),
        Some(Command::Match(args)) => match_cmd::run(&args),
        Some(Command::Openings(args)) => openings::run(&args),
        Some(Command::Train(args)) => train::run(&args),
        Some(Command::Calibrate(args)) => calibrate::run(&args, &evaluators),
        Some(Command::Nboard(args)) => frontends::run_nboard(&args, evaluators),
        Some(Command::Gtp(args)) => frontends::run_gtp(&args, evaluators),
        Some(Command::Ugi) => {
            let stdin = std::io::stdin();
            orca::protocol::ugi::run(
                &mut stdin.lock(),
                orca::protocol::Output::stdout(),
                evaluators,
            )
        }
        // No sub-command: the protocol is told from the first line.
        None => orca::protocol::detect::run(
            Box::new(std::io::BufReader::new(std::io::stdin())),
            orca::protocol::Output::stdout(),
            evaluators,
        ),
    }
}
