//! `orca openings`: makes a balanced openings file for `orca match`, from
//! WTHOR game databases ([`orca::referee::openings::balanced`]) or, for a
//! game no database records (reversed Othello), by searching every distinct
//! position a few moves from the start
//! ([`orca::referee::openings::distinct_lines`]). This is the reading and
//! searching, and the writing of the result with a header saying how it was
//! made.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use orca::engine::{Engine, GoLimits, GoRequest};
use orca::eval::Evaluators;
use orca::game::{AnyPosition, Color, Variant};
use orca::protocol::search_blocking;
use orca::referee::openings::{Balance, balanced, distinct_lines, move_text};
use orca::wthor;

/// Arguments of `orca openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// The game. Reversed Othello has no game database, so its openings are
    /// always found by search (--depth).
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Value every distinct position --plies moves from the start by a
    /// search this deep instead of by the WTHOR games' results.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: Option<u32>,
    /// Transposition table size in megabytes of the searches.
    #[arg(long, value_name = "MB", default_value_t = orca::engine::DEFAULT_HASH_MB,
          value_parser = super::hash_mb())]
    hash: usize,
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
    /// The evaluation of the searches (--depth, reversed Othello).
    #[command(flatten)]
    eval: super::EvalArgs,
}

/// Depth of the searches when the game needs them and --depth is not given.
const DEFAULT_DEPTH: u32 = 12;

/// Writes the openings file; returns the exit status.
pub fn run(args: &OpeningsArgs) -> i32 {
    if args.variant == Variant::TicTacToe {
        eprintln!("orca openings: tic-tac-toe has no openings");
        return 2;
    }
    let search = args.depth.is_some() || args.variant == Variant::Reversed;
    if !search && !args.eval.is_default() {
        eprintln!("orca openings: --eval and --weights value positions by search: give --depth");
        return 2;
    }
    if search {
        return match args.eval.evaluators() {
            Ok(evaluators) => searched(args, evaluators),
            Err(e) => {
                eprintln!("orca openings: {e}");
                1
            }
        };
    }
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
        out_flag(args)
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
    write_out(
        args,
        &text,
        &format!("{} openings (from {} games)", found.len(), games.len()),
    )
}

/// The `--out FILE` of the command line that made a file, if given.
fn out_flag(args: &OpeningsArgs) -> String {
    args.out
        .as_ref()
        .map(|o| format!(" --out {}", o.display()))
        .unwrap_or_default()
}

/// Writes `text` to --out (saying `what` on stderr) or to stdout; the exit
/// status.
fn write_out(args: &OpeningsArgs, text: &str, what: &str) -> i32 {
    match &args.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("orca openings: {}: {e}", path.display());
                return 1;
            }
            eprintln!("{what} written to {}", path.display());
        }
        None => print!("{text}"),
    }
    0
}

/// The openings of a search: every distinct position --plies moves from the
/// start, valued for black by a search of --depth, those within
/// --max-abs-score discs of even, closest to even first.
fn searched(args: &OpeningsArgs, evaluators: Arc<Evaluators>) -> i32 {
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH);
    let (engine, reports) = match Engine::with_channel(args.hash, evaluators) {
        Ok(pair) => pair,
        Err(e) => {
            eprintln!("orca openings: {e}");
            return 1;
        }
    };
    let lines = distinct_lines(args.plies);
    let mut valued = Vec::new();
    let started = Instant::now();
    for (i, line) in lines.iter().enumerate() {
        let text = move_text(line);
        let tokens: Vec<String> = line.iter().map(ToString::to_string).collect();
        let Ok(position) =
            AnyPosition::start(args.variant).play_line(tokens.iter().map(String::as_str))
        else {
            eprintln!("orca openings: {text} is not legal");
            return 1;
        };
        let request = GoRequest {
            position,
            limits: GoLimits {
                depth: Some(depth),
                ..GoLimits::default()
            },
            received: Instant::now(),
            overhead: Duration::ZERO,
        };
        let Some(info) = search_blocking(&engine, &reports, request).and_then(|d| d.info) else {
            eprintln!("orca openings: no value for {text}");
            return 1;
        };
        let mover = info.score.discs();
        let black = if position.to_move() == Color::Black {
            mover
        } else {
            -mover
        };
        if black.abs() <= args.max_abs_score {
            valued.push((black, text));
        }
        if (i + 1) % 200 == 0 {
            eprintln!(
                "{} of {} positions searched, {} balanced, {:.0} s",
                i + 1,
                lines.len(),
                valued.len(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    valued.sort_by(|a, b| a.0.abs().total_cmp(&b.0.abs()).then_with(|| a.1.cmp(&b.1)));
    let mut text = String::new();
    let command = format!(
        "orca openings --variant {} --plies {} --depth {depth} --max-abs-score {}{}",
        args.variant,
        args.plies,
        args.max_abs_score,
        out_flag(args)
    );
    let _ = writeln!(
        text,
        "# Balanced openings for `orca match --variant {}`: the distinct positions after {}\n\
         # moves (a position and its images under the board's symmetries count once)\n\
         # whose value for black by Orca's depth-{depth} search is within +-{} discs.\n\
         # {} positions searched, {} kept. Closest to even first.\n\
         # Each line: the moves, then the searched value for black.\n\
         # Made with: {command}",
        args.variant,
        args.plies,
        args.max_abs_score,
        lines.len(),
        valued.len()
    );
    for (value, moves) in &valued {
        let _ = writeln!(text, "{moves}  # value {value:+.2}");
    }
    write_out(
        args,
        &text,
        &format!("{} openings (of {} positions)", valued.len(), lines.len()),
    )
}
