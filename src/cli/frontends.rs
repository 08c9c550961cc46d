//! `orca nboard`, `orca gtp`, `orca botzone` and `orca codingame`: the flags
//! of the front ends, turned into their session settings, and the sessions
//! run on stdin/stdout.

use std::io::BufReader;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use orca::duration::{DurationError, parse_duration, parse_movetime};
use orca::engine::DEFAULT_HASH_MB;
use orca::eval::Evaluators;
use orca::game::Variant;
use orca::protocol::ugi::MAX_MOVE_OVERHEAD_MS;
use orca::protocol::{Output, SearchSettings, botzone, codingame, gtp, nboard};
use orca::search::Selectivity;
use orca::search::time::DEFAULT_MOVE_OVERHEAD_MS;

/// Flags the four front ends share: their [`SearchSettings`] and evaluation.
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
    /// Playing strength for people, as the UGI `Level` option: 1 (weakest)
    /// to 20 (full strength, the default).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=20))]
    level: Option<u8>,
    #[command(flatten)]
    book: super::BookFlags,
    #[command(flatten)]
    pub(super) eval: super::EvalArgs,
}

impl EngineArgs {
    /// The search settings of these flags; a book file that is no good is
    /// said on stderr in one line, and the engine plays without a book.
    fn settings(&self) -> SearchSettings {
        SearchSettings {
            hash_mb: self.hash,
            overhead: Duration::from_millis(self.move_overhead),
            selectivity: self.selectivity,
            threads: self.threads,
            level: self.level.and_then(orca::engine::Level::new),
            book: self.book.settings(),
        }
    }
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

/// Arguments of `orca botzone`.
#[derive(Args, Debug)]
pub struct BotzoneArgs {
    /// Search time of a move, counted from the request (per-turn mode: from
    /// the start of the process); Botzone allows 1 s.
    #[arg(long, value_name = "TIME", value_parser = parse_movetime,
          default_value = "800ms")]
    movetime: Duration,
    /// Stay alive between turns (Botzone's keep-running mode): the table is
    /// kept and only each new request is read.
    #[arg(long)]
    keep_running: bool,
    #[command(flatten)]
    pub(super) engine: EngineArgs,
}

/// Arguments of `orca codingame`.
#[derive(Args, Debug)]
pub struct CodingameArgs {
    /// Search time of a turn after the first (the referee allows 150 ms).
    #[arg(long, value_name = "TIME", value_parser = parse_movetime,
          default_value = "100ms")]
    movetime: Duration,
    /// Search time of the first turn, counted from the start of the process
    /// (the referee allows 2000 ms).
    #[arg(long, value_name = "TIME", value_parser = parse_movetime,
          default_value = "1500ms")]
    first_movetime: Duration,
    #[command(flatten)]
    pub(super) engine: EngineArgs,
}

/// Runs a Botzone session on stdin/stdout.
pub fn run_botzone(args: &BotzoneArgs, evaluators: Arc<Evaluators>, started: Instant) -> i32 {
    let config = botzone::Config {
        search: args.engine.settings(),
        movetime: args.movetime,
        keep_running: args.keep_running,
    };
    let stdin = std::io::stdin();
    botzone::run(
        &mut stdin.lock(),
        Output::stdout(),
        evaluators,
        config,
        started,
    )
}

/// Runs a CodinGame session on stdin/stdout.
pub fn run_codingame(args: &CodingameArgs, evaluators: Arc<Evaluators>, started: Instant) -> i32 {
    let config = codingame::Config {
        search: args.engine.settings(),
        movetime: args.movetime,
        first_movetime: args.first_movetime,
    };
    let stdin = std::io::stdin();
    codingame::run(
        &mut stdin.lock(),
        Output::stdout(),
        evaluators,
        config,
        started,
    )
}

/// Runs an NBoard session on stdin/stdout.
pub fn run_nboard(args: &NboardArgs, evaluators: Arc<Evaluators>) -> i32 {
    let config = nboard::Config {
        search: args.engine.settings(),
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
        search: args.engine.settings(),
    };
    let stdin = std::io::stdin();
    gtp::run(&mut stdin.lock(), Output::stdout(), evaluators, config)
}
