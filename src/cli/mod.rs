//! Command-line front: parses arguments with `clap` and hands each sub-command to
//! its own module. Everything here writes human-readable text; the protocols own
//! stdout only when the engine runs.

mod perft;

use clap::{Parser, Subcommand};

/// Orca: an Othello, reversed-Othello and tic-tac-toe engine.
#[derive(Parser, Debug)]
#[command(name = "orca", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the game tree (move-generation check and benchmark).
    Perft(perft::PerftArgs),
}

/// Runs the parsed command line and returns the process exit status.
pub fn run(cli: Cli) -> i32 {
    match cli.command {
        Some(Command::Perft(args)) => perft::run(&args),
        None => {
            eprintln!(
                "orca: the engine loop is not built yet; try `orca perft 9` or `orca --help`"
            );
            2
        }
    }
}
