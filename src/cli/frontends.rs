//! `orca nboard` and `orca gtp`: the flags of the two front ends, turned into
//! their session settings, and the sessions run on stdin/stdout.

use std::io::BufReader;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use orca::engine::{DEFAULT_HASH_MB, MAX_HASH_MB};
use orca::eval::Evaluators;
use orca::game::Variant;
use orca::protocol::ugi::MAX_MOVE_OVERHEAD_MS;
use orca::protocol::{Output, gtp, nboard};
use orca::search::time::DEFAULT_MOVE_OVERHEAD_MS;

/// Flags both front ends share.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = DEFAULT_HASH_MB,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_HASH_MB as u64))]
    hash: usize,
    /// Milliseconds kept in reserve for I/O on every timed search.
    #[arg(long, default_value_t = DEFAULT_MOVE_OVERHEAD_MS,
          value_parser = clap::value_parser!(u64).range(0..=MAX_MOVE_OVERHEAD_MS))]
    move_overhead: u64,
}

/// Arguments of `orca nboard`.
#[derive(Args, Debug)]
pub struct NboardArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

/// Arguments of `orca gtp`.
#[derive(Args, Debug)]
pub struct GtpArgs {
    /// The game: othello, reversed or tictactoe (the `variant` command changes it).
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Milliseconds per move when the runner sets no time control
    /// (default 1000 unless --depth is given).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Deepest search of every genmove, with or without a time control.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs an NBoard session on stdin/stdout.
pub fn run_nboard(args: &NboardArgs, evaluators: Arc<Evaluators>) -> i32 {
    let config = nboard::Config {
        hash_mb: args.engine.hash,
        overhead: Duration::from_millis(args.engine.move_overhead),
    };
    nboard::run(
        Box::new(BufReader::new(std::io::stdin())),
        Output::stdout(),
        evaluators,
        config,
    )
}

/// Runs a GTP session on stdin/stdout.
pub fn run_gtp(args: &GtpArgs, evaluators: Arc<Evaluators>) -> i32 {
    let movetime = match (args.movetime, args.depth) {
        (Some(ms), _) => Some(Duration::from_millis(ms)),
        (None, Some(_)) => None,
        (None, None) => Some(Duration::from_millis(gtp::DEFAULT_MOVETIME_MS)),
    };
    let config = gtp::Config {
        variant: args.variant,
        movetime,
        depth: args.depth,
        hash_mb: args.engine.hash,
        overhead: Duration::from_millis(args.engine.move_overhead),
    };
    let stdin = std::io::stdin();
    gtp::run(&mut stdin.lock(), Output::stdout(), evaluators, config)
}
