//! `orca openings`: makes a balanced openings file for `orca match` from WTHOR
//! game databases. The selection itself is [`orca::referee::openings::balanced`];
//! this is the reading of the files and the writing of the result, with a
//! header saying how it was made.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use orca::referee::openings::{Balance, balanced, move_text};
use orca::wthor;

/// Arguments of `orca openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// A WTHOR file, or a directory whose .wtb files are all read.
    #[arg(long, default_value = "data/wthor")]
    wthor: PathBuf,
    /// Moves from the start to the opening position.
    #[arg(long, default_value_t = 8)]
    plies: usize,
    /// Largest mean theoretical score (black's disc difference) accepted.
    #[arg(long, default_value_t = 2.0)]
    max_abs_score: f64,
    /// Fewest games through a position for it to be considered.
    #[arg(long, default_value_t = 2)]
    min_games: usize,
    /// Write the openings here instead of to stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Writes the openings file; returns the exit status.
pub fn run(args: &OpeningsArgs) -> i32 {
    let files = match wthor::files_in(&args.wthor) {
        Ok(files) if !files.is_empty() => files,
        Ok(_) => {
            eprintln!("orca openings: no .wtb file in {}", args.wthor.display());
            return 1;
        }
        Err(e) => {
            eprintln!("orca openings: {e}");
            return 1;
        }
    };
    let mut games = Vec::new();
    for file in &files {
        match wthor::read(file) {
            Ok(parsed) => games.extend(parsed.games),
            Err(e) => {
                eprintln!("orca openings: {e}");
                return 1;
            }
        }
    }
    let balance = Balance {
        plies: args.plies,
        max_abs_score: args.max_abs_score,
        min_games: args.min_games,
    };
    let (found, skipped) = balanced(&games, balance);
    let mut text = String::new();
    let command = format!(
        "orca openings --wthor {} --plies {} --max-abs-score {} --min-games {}{}",
        args.wthor.display(),
        args.plies,
        args.max_abs_score,
        args.min_games,
        args.out
            .as_ref()
            .map(|o| format!(" --out {}", o.display()))
            .unwrap_or_default()
    );
    let _ = writeln!(
        text,
        "# Balanced openings for `orca match`: the distinct positions after {} moves of the\n\
         # WTHOR games (a position and its images under the board's symmetries count once)\n\
         # reached by at least {} games whose mean theoretical score (black's disc difference\n\
         # under perfect play from the database's solving depth on) is within +-{}.\n\
         # {} games from {} files, {} skipped (illegal, or too short). Most played first.\n\
         # Each line: the moves, then the games through the position and their mean score.\n\
         # Made with: {command}",
        args.plies,
        args.min_games,
        args.max_abs_score,
        games.len(),
        files.len(),
        skipped
    );
    for candidate in &found {
        let _ = writeln!(
            text,
            "{}  # {} games, mean {:+.2}",
            move_text(&candidate.moves),
            candidate.games,
            candidate.mean_score
        );
    }
    match &args.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("orca openings: {}: {e}", path.display());
                return 1;
            }
            eprintln!(
                "{} openings written to {} (from {} games)",
                found.len(),
                path.display(),
                games.len()
            );
        }
        None => print!("{text}"),
    }
    0
}
