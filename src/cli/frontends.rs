//! `orca nboard` and `orca gtp`: the flags of the two front ends, turned into
//! their session settings, and the sessions run on stdin/stdout.

use std::io::BufReader;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use orca::engine::DEFAULT_HASH_MB;
use orca::eval::Evaluators;
use orca::game::Variant;
use orca::play::{DurationError, parse_duration, parse_movetime};
use orca::protocol::ugi::MAX_MOVE_OVERHEAD_MS;
use orca::protocol::{Output, gtp, nboard};
use orca::search::Selectivity;
use orca::search::time::DEFAULT_MOVE_OVERHEAD_MS;

/// Flags both front ends share.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// Transposition table size in megabytes.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB, value_parser = super::hash_mb())]
    hash: usize,
    /// Time kept in reserve for I/O on every timed search.
    #[arg(long, value_name = "TIME", default_value_t = DEFAULT_MOVE_OVERHEAD_MS,
          value_parser = parse_move_overhead)]
    move_overhead: u64,
    /// Selectivity of the Othello midgame search, as the UGI `Selectivity`
    /// option: 73, 87, 95, 99 (share of probable cutoffs expected right) or
    /// 100 (full width).
    #[arg(long, value_name = "PERCENT", default_value = "73", value_parser = super::parse_selectivity)]
    selectivity: Selectivity,
    /// Search threads of one search, as the UGI `Threads` option (1 to 256).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::threads())]
    threads: usize,
    #[command(flatten)]
    book: super::BookFlags,
    #[command(flatten)]
    pub(super) eval: super::EvalArgs,
}

/// `--move-overhead` in milliseconds, within the range of the UGI
/// `MoveOverhead` option.
fn parse_move_overhead(text: &str) -> Result<u64, DurationError> {
    let max = Duration::from_millis(MAX_MOVE_OVERHEAD_MS);
    parse_duration(text, Duration::ZERO, max).map(|time| time.as_millis() as u64)
}

/// Arguments of `orca nboard`.
#[derive(Args, Debug)]
pub struct NboardArgs {
    #[command(flatten)]
    pub(super) engine: EngineArgs,
}

/// Arguments of `orca gtp`.
#[derive(Args, Debug)]
pub struct GtpArgs {
    /// The game: othello, reversed or tictactoe (the `variant` command changes it).
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Time per move when the runner sets no time control
    /// [default: 1000 (ms) unless --depth is given].
    #[arg(long, value_name = "TIME", value_parser = parse_movetime)]
    movetime: Option<Duration>,
    /// Deepest search of every genmove, with or without a time control.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    #[command(flatten)]
    pub(super) engine: EngineArgs,
}

/// Runs an NBoard session on stdin/stdout.
pub fn run_nboard(args: &NboardArgs, evaluators: Arc<Evaluators>) -> i32 {
    let config = nboard::Config {
        hash_mb: args.engine.hash,
        overhead: Duration::from_millis(args.engine.move_overhead),
        selectivity: args.engine.selectivity,
        threads: args.engine.threads,
        book: args.engine.book.settings(),
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
        (Some(time), _) => Some(time),
        (None, Some(_)) => None,
        (None, None) => Some(Duration::from_millis(gtp::DEFAULT_MOVETIME_MS)),
    };
    let config = gtp::Config {
        variant: args.variant,
        movetime,
        depth: args.depth,
        hash_mb: args.engine.hash,
        overhead: Duration::from_millis(args.engine.move_overhead),
        selectivity: args.engine.selectivity,
        threads: args.engine.threads,
        book: args.engine.book.settings(),
    };
    let stdin = std::io::stdin();
    gtp::run(&mut stdin.lock(), Output::stdout(), evaluators, config)
}
