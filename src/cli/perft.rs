//! `orca perft`: leaf counts per depth with time and speed, then a total.

use std::time::Instant;

use clap::Args;
use orca::game::{Game, Position, Variant};
use orca::perft::{PassRule, perft};
use orca::with_game;

/// Arguments of `orca perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Deepest depth to count (every depth from 1 up to it is printed).
    depth: u32,
    /// Which game: othello, reversed or tictactoe.
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Start from this position ("<squares> <side>", or `startpos`) instead
    /// of the initial one.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// How a pass counts: ply (a pass uses one ply) or free (it uses none).
    #[arg(long, default_value = "ply")]
    passes: PassRule,
}

/// Prints one line per depth and a total; returns the exit status.
pub fn run(args: &PerftArgs) -> i32 {
    with_game!(args.variant, G => count::<G>(args))
}

fn count<G: Game>(args: &PerftArgs) -> i32 {
    let position: Position<G> = match &args.position {
        None => Position::start(),
        Some(text) if text.trim().eq_ignore_ascii_case("startpos") => Position::start(),
        Some(text) => match text.parse() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("orca perft: {e}");
                return 2;
            }
        },
    };
    println!(
        "perft {} from {} ({}, passes {})",
        args.depth, position, args.variant, args.passes
    );
    let (mut total_leaves, mut total_seconds) = (0u64, 0f64);
    for depth in 1..=args.depth {
        let started = Instant::now();
        let leaves = perft(position.state(), depth, args.passes);
        let seconds = started.elapsed().as_secs_f64();
        total_leaves += leaves;
        total_seconds += seconds;
        println!(
            "depth {depth:>2}  leaves {leaves:>18}  time {seconds:>9.3} s  {:>14.0} leaves/s",
            leaves as f64 / seconds.max(1e-9)
        );
    }
    println!(
        "total     leaves {total_leaves:>18}  time {total_seconds:>9.3} s  {:>14.0} leaves/s",
        total_leaves as f64 / total_seconds.max(1e-9)
    );
    0
}
