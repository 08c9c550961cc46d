//! Command-line front: parses arguments with `clap` and hands each sub-command to
//! its own module. Everything here writes human-readable text; the protocols own
//! stdout only when the engine runs. `orca play` is the interactive one: a game
//! against Orca at the terminal.

mod analyze;
mod bench;
mod book;
mod calibrate;
mod frontends;
mod match_cmd;
mod openings;
mod perft;
mod play;
mod progress;
mod selfplay;
mod solve;
mod train;
mod web;

use std::path::PathBuf;
use std::sync::Arc;

use clap::builder::RangedU64ValueParser;
use clap::{Args, Parser, Subcommand};

use orca::engine::{MAX_HASH_MB, MIN_HASH_MB};
use orca::eval::trained::Weights;
use orca::eval::{EvalKind, Evaluators};

/// How every flag that takes a TIME reads it, shown below the help of the
/// commands that have one (the parser is [`orca::duration::parse_duration`]).
const TIME_HELP: &str =
    "TIME: a bare number is milliseconds (500), or give a unit: 500ms, 2.5s, 1m.";

/// Orca: an Othello, reversed-Othello and tic-tac-toe engine. With no
/// sub-command it speaks UGI, NBoard or GTP, whichever the first line is in.
#[derive(Parser, Debug)]
#[command(name = "orca", version, about, long_about = None, args_conflicts_with_subcommands = true,
          after_help = TIME_HELP)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    eval: EvalArgs,
}

/// The evaluation flags of the commands that evaluate positions.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// Evaluation of the Othello variants: trained (the built-in weights) or handmade.
    #[arg(long, default_value = "trained")]
    eval: EvalKind,
    /// Use the trained weights in this file instead of the built-in ones (the
    /// file says which variant it is for; give the option twice for both).
    #[arg(long, value_name = "FILE")]
    weights: Vec<PathBuf>,
}

impl EvalArgs {
    /// The evaluations these flags ask for, or a message saying why not.
    fn evaluators(&self) -> Result<Arc<Evaluators>, String> {
        evaluators(self.eval, &self.weights)
    }

    /// Whether the flags ask for the built-in evaluation (none given).
    fn is_default(&self) -> bool {
        self.eval == EvalKind::default() && self.weights.is_empty()
    }
}

/// Evaluations of `kind`, with the trained weights of these files in place of
/// the built-in ones; or a message saying why not.
fn evaluators(kind: EvalKind, weights: &[PathBuf]) -> Result<Arc<Evaluators>, String> {
    let mut evaluators = Evaluators::new(kind).map_err(|e| format!("built-in weights: {e}"))?;
    for path in weights {
        let weights = Weights::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
        evaluators.use_weights(weights);
    }
    Ok(Arc::new(evaluators))
}

/// `--hash MB` of every command: the range the UGI `Hash` option advertises.
fn hash_mb() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(MIN_HASH_MB as u64..=MAX_HASH_MB as u64)
}

/// `--threads N` of the front ends, `orca play`, `orca solve` and `orca bench depth`: the
/// range the UGI `Threads` option advertises.
fn threads() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..=orca::engine::MAX_THREADS as u64)
}

/// `--selectivity P` of the front ends and `orca play`: a level the UGI
/// `Selectivity` option takes (100 = full width).
fn parse_selectivity(text: &str) -> Result<orca::search::Selectivity, String> {
    text.parse::<u8>()
        .ok()
        .filter(|_| text.bytes().all(|b| b.is_ascii_digit()))
        .and_then(orca::search::Selectivity::from_percent)
        .ok_or_else(|| format!("expected one of {}", orca::search::Selectivity::choices()))
}

/// The book flags of the front ends and `orca play`.
#[derive(Args, Debug)]
pub struct BookFlags {
    /// Never play from the opening book.
    #[arg(long)]
    no_book: bool,
    /// Play from this book file (for the game it is of) instead of the built-in book.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Draw among book moves within N discs of the best (0: always the best).
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(orca::book::MAX_RANDOMNESS)))]
    book_randomness: u32,
}

impl BookFlags {
    /// The settings of these flags; a book file that is no good is said on
    /// stderr in one line, and the engine plays without a book.
    fn settings(&self) -> orca::book::BookSettings {
        let books = self.book.as_ref().map(|path| {
            orca::book::Books::with_file(path).unwrap_or_else(|e| {
                eprintln!("orca: {e}; playing without a book");
                orca::book::Books::default()
            })
        });
        orca::book::BookSettings {
            enabled: !self.no_book,
            randomness: self.book_randomness,
            books,
        }
    }
}

/// Runs `body` with the evaluations, or says why there are none (status 1).
fn with_evaluators(
    evaluators: Result<Arc<Evaluators>, String>,
    body: impl FnOnce(Arc<Evaluators>) -> i32,
) -> i32 {
    match evaluators {
        Ok(evaluators) => body(evaluators),
        Err(message) => {
            eprintln!("orca: {message}");
            1
        }
    }
}

/// Arguments of `orca ugi`.
#[derive(Args, Debug)]
pub struct UgiArgs {
    #[command(flatten)]
    eval: EvalArgs,
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
    #[command(after_help = TIME_HELP)]
    Play(play::PlayArgs),
    /// Referee a match between two engines (UGI, GTP or NBoard): every move
    /// checked, clocks kept, results with Elo, pentanomial and SPRT, games as GGF.
    #[command(after_help = TIME_HELP)]
    Match(match_cmd::MatchArgs),
    /// Opening books: build, show, stats, add.
    Book(book::BookArgs),
    /// Make a balanced openings file for `orca match` from WTHOR games.
    Openings(openings::OpeningsArgs),
    /// Grow the self-play game database (data/selfplay) whose outcomes the
    /// evaluation is fitted on.
    Selfplay(selfplay::SelfPlayArgs),
    /// Fit the evaluation weights from the shipped game data and self-play.
    Train(train::TrainArgs),
    /// Fit the probable cutoffs' error model on positions of the shipped games.
    Calibrate(calibrate::CalibrateArgs),
    /// Run the engine over UGI on stdin/stdout.
    Ugi(UgiArgs),
    /// Run the engine over NBoard (protocol version 2), for the NBoard GUI.
    #[command(after_help = TIME_HELP)]
    Nboard(frontends::NboardArgs),
    /// Run the engine over GTP (version 2, Othello coordinates), for match runners.
    #[command(after_help = TIME_HELP)]
    Gtp(frontends::GtpArgs),
    /// Value every move of a game (GGF, WTHOR or a move list): losses,
    /// mistakes, a summary per player, and a plot with --svg.
    Analyze(analyze::AnalyzeArgs),
    /// Play and analyse in a browser: a page served by this binary.
    Web(web::WebArgs),
    /// Play on Botzone: its Reversi JSON interaction on stdin/stdout.
    #[command(after_help = TIME_HELP)]
    Botzone(frontends::BotzoneArgs),
    /// Play on CodinGame: its Othello bot input and output on stdin/stdout.
    #[command(after_help = TIME_HELP)]
    Codingame(frontends::CodingameArgs),
}

/// Runs the parsed command line and returns the process exit status.
pub fn run(cli: Cli) -> i32 {
    // The competition front ends count their first move's time from here.
    let started = std::time::Instant::now();
    match cli.command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Solve(args)) => {
            with_evaluators(args.eval.evaluators(), |e| solve::run(&args, e))
        }
        Some(Command::Play(args)) => {
            with_evaluators(args.eval.evaluators(), |e| play::run(&args, e))
        }
        Some(Command::Match(args)) => match_cmd::run(&args),
        Some(Command::Openings(args)) => openings::run(&args),
        Some(Command::Book(args)) => book::run(&args),
        Some(Command::Selfplay(args)) => selfplay::run(&args),
        Some(Command::Train(args)) => train::run(&args),
        Some(Command::Calibrate(args)) => {
            with_evaluators(args.eval.evaluators(), |e| calibrate::run(&args, &e))
        }
        Some(Command::Nboard(args)) => with_evaluators(args.engine.eval.evaluators(), |e| {
            frontends::run_nboard(&args, e)
        }),
        Some(Command::Gtp(args)) => with_evaluators(args.engine.eval.evaluators(), |e| {
            frontends::run_gtp(&args, e)
        }),
        Some(Command::Analyze(args)) => {
            with_evaluators(args.eval.evaluators(), |e| analyze::run(&args, e))
        }
        Some(Command::Web(args)) => with_evaluators(args.eval.evaluators(), |e| web::run(&args, e)),
        Some(Command::Botzone(args)) => with_evaluators(args.engine.eval.evaluators(), |e| {
            frontends::run_botzone(&args, e, started)
        }),
        Some(Command::Codingame(args)) => with_evaluators(args.engine.eval.evaluators(), |e| {
            frontends::run_codingame(&args, e, started)
        }),
        Some(Command::Ugi(args)) => with_evaluators(args.eval.evaluators(), |evaluators| {
            let stdin = std::io::stdin();
            orca::protocol::ugi::run(
                &mut stdin.lock(),
                orca::protocol::Output::stdout(),
                evaluators,
            )
        }),
        // No sub-command: the protocol is told from the first line.
        None => with_evaluators(cli.eval.evaluators(), |evaluators| {
            orca::protocol::detect::run(
                Box::new(std::io::BufReader::new(std::io::stdin())),
                orca::protocol::Output::stdout(),
                evaluators,
            )
        }),
    }
}
