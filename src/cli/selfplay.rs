//! `orca selfplay`: grows the self-play game database, with a progress bar
//! on a terminal (a line a chunk otherwise) and a summary on stdout.

use std::path::PathBuf;

use clap::Args;
use orca::game::Variant;
use orca::train::database::{self, CHUNK_GAMES, SelfPlayConfig};

use super::train::steps::{parse_shard, weights_for};

/// Arguments of `orca selfplay`. The defaults are those of the committed
/// database (docs/training.md).
#[derive(Args, Debug)]
pub struct SelfPlayArgs {
    /// Which rules: othello or reversed.
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Make the set's games up to this number (a run that stopped, or one
    /// given a larger number, continues the files).
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// The database directory [default: data/selfplay/VARIANT].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Depth of the midgame search that plays both sides.
    #[arg(long, default_value_t = 10)]
    depth: u32,
    /// Perfect play from this many empty squares on.
    #[arg(long, default_value_t = 18)]
    solve_empties: u32,
    /// Random opening moves, at least...
    #[arg(long, default_value_t = 12)]
    random_min: u32,
    /// ...and at most (each game draws its number uniformly).
    #[arg(long, default_value_t = 50)]
    random_max: u32,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games a chunk file holds when complete.
    #[arg(long, default_value_t = CHUNK_GAMES)]
    chunk_games: u32,
    /// Start at this chunk (a lent machine or a cluster takes a range of its
    /// own, clear of the chunks the local runs make).
    #[arg(long, default_value_t = 0)]
    first_chunk: u32,
    /// This shard and how many there are, as I/N: shard I makes the chunks
    /// I, N+I, 2N+I...
    #[arg(long, value_name = "I/N", default_value = "0/1", value_parser = parse_shard)]
    shard: (u32, u32),
    /// Play with the weights of this file [default: the built-in ones].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Worker threads (the files do not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Runs `orca selfplay`; the exit status.
pub fn run(args: &SelfPlayArgs) -> i32 {
    if args.variant == Variant::TicTacToe {
        eprintln!("orca selfplay: tic-tac-toe is searched to the end and needs no games");
        return 2;
    }
    let weights = match weights_for(args.weights.as_deref(), args.variant) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("orca selfplay: {e}");
            return 1;
        }
    };
    let config = SelfPlayConfig {
        variant: args.variant,
        seed: args.seed,
        depth: args.depth,
        solve_empties: args.solve_empties,
        random_min: args.random_min,
        random_max: args.random_max,
        chunk_games: args.chunk_games,
        weights,
        games: args.games,
        first_chunk: args.first_chunk,
        shard: args.shard.0,
        shards: args.shard.1,
        threads: args.threads.max(1),
    };
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("data/selfplay").join(args.variant.to_string()));
    let terminal = super::progress::on_terminal();
    let bar = super::progress::stderr_bar(
        "chunk {msg} {wide_bar} {pos}/{len} games, {per_sec}, about {eta} left",
    );
    let mut last_chunk = None;
    let result = database::run(&config, &dir, &mut |p| {
        bar.set_length(p.target);
        bar.set_position(p.games);
        bar.set_message(p.chunk.to_string());
        if !terminal && last_chunk != Some(p.chunk) {
            if let Some(c) = last_chunk {
                eprintln!("chunk {c} done, {} of {} games", p.games, p.target);
            }
            last_chunk = Some(p.chunk);
        }
    });
    bar.finish_and_clear();
    match result {
        Ok(r) => {
            if r.dropped_bytes > 0 {
                println!(
                    "dropped {} bytes of cut-off records and continued",
                    r.dropped_bytes
                );
            }
            for chunk in &r.busy_chunks {
                println!("chunk {chunk} left to the run writing it");
            }
            let hours = r.seconds / 3600.0;
            let per_game = |t: std::time::Duration| t.as_secs_f64() / r.games.max(1) as f64;
            println!(
                "{}: set {}, {} games before, {} made in {:.0} s ({:.0} games and {:.0} positions an hour; \
                 search {:.2} s and solve {:.2} s a game)",
                dir.display(),
                r.set,
                r.kept_games,
                r.games,
                r.seconds,
                r.games as f64 / hours.max(1e-9),
                (r.moves - r.random_moves) as f64 / hours.max(1e-9),
                per_game(r.search_time),
                per_game(r.solve_time),
            );
            0
        }
        Err(e) => {
            eprintln!("orca selfplay: {e}");
            1
        }
    }
}
