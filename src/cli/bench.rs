//! `orca bench`: the node-count signature and speed of the search, and
//! `orca bench timing`: how punctual the engine process is over its protocol.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use crossbeam_channel::{Receiver, unbounded};
use orca::bench::{self, DEFAULT_DEPTH, POSITIONS};
use orca::eval::{DISC, Evaluators};
use orca::rng::Rng;

/// Arguments of `orca bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(subcommand)]
    mode: Option<BenchMode>,
    /// Depth of every search.
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    depth: u32,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
}

#[derive(Subcommand, Debug)]
enum BenchMode {
    /// Time `go movetime` answers and `stop` latency through the real protocol loop.
    Timing(TimingArgs),
}

#[derive(Args, Debug)]
struct TimingArgs {
    /// Number of `go movetime` searches.
    #[arg(long, default_value_t = 200)]
    searches: usize,
    /// The movetime of each, in milliseconds.
    #[arg(long, default_value_t = 50)]
    movetime: u64,
    /// Number of `go infinite` + `stop` rounds.
    #[arg(long, default_value_t = 100)]
    stops: usize,
}

/// Runs the bench; returns the exit status.
pub fn run(args: &BenchArgs) -> i32 {
    match &args.mode {
        Some(BenchMode::Timing(t)) => timing(t),
        None => signature(args),
    }
}

fn signature(args: &BenchArgs) -> i32 {
    let evaluators = Evaluators::default();
    let total = bench::run(args.depth, args.hash, &evaluators, &mut |line| {
        println!(
            "{:<9} {}  depth {:>2}  nodes {:>10}  {:>7.1} ms  best {:<4} score {:+.2}",
            line.variant.to_string(),
            line.position,
            args.depth,
            line.nodes,
            line.elapsed.as_secs_f64() * 1e3,
            line.best,
            f64::from(line.score) / f64::from(DISC),
        );
    });
    println!("===========================");
    println!("Total time (ms) : {}", total.elapsed.as_millis());
    println!("Nodes searched  : {}", total.nodes);
    println!("Nodes/second    : {}", total.nps());
    println!("Bench: {} nodes {} nps", total.nodes, total.nps());
    0
}

struct Child {
    process: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Child {
    fn start() -> std::io::Result<Child> {
        let exe = std::env::current_exe()?;
        let mut process = Command::new(exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdout = process.stdout.take().expect("piped stdout");
        let stdin = process.stdin.take().expect("piped stdin");
        let (tx, rx) = unbounded();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Ok(Child {
            process,
            stdin,
            lines: rx,
        })
    }

    fn send(&mut self, line: &str) -> Instant {
        writeln!(self.stdin, "{line}").expect("engine stdin");
        self.stdin.flush().expect("engine stdin");
        Instant::now()
    }

    fn wait_for(&self, prefix: &str) -> Instant {
        loop {
            let (at, line) = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .expect("the engine answers");
            if line.starts_with(prefix) {
                return at;
            }
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn summary(values: &mut [f64]) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    (
        percentile(values, 0.5),
        percentile(values, 0.99),
        *values.last().unwrap_or(&0.0),
    )
}

fn timing(args: &TimingArgs) -> i32 {
    let mut child = match Child::start() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("orca bench timing: cannot start the engine: {e}");
            return 1;
        }
    };
    child.send("ugi");
    child.wait_for("ugiok");
    let mut rng = Rng::new(7);
    let mut overshoot = Vec::new();
    for i in 0..args.searches {
        child.send(&format!("position fen {}", POSITIONS[i % POSITIONS.len()]));
        let sent = child.send(&format!("go movetime {}", args.movetime));
        let answered = child.wait_for("bestmove");
        let ms = answered.duration_since(sent).as_secs_f64() * 1e3;
        overshoot.push(ms - args.movetime as f64);
    }
    let mut latency = Vec::new();
    for i in 0..args.stops {
        child.send(&format!("position fen {}", POSITIONS[i % POSITIONS.len()]));
        child.send("go infinite");
        thread::sleep(Duration::from_millis(10 + rng.below(60)));
        let sent = child.send("stop");
        let answered = child.wait_for("bestmove");
        latency.push(answered.duration_since(sent).as_secs_f64() * 1e3);
    }
    child.send("quit");
    let _ = child.process.wait();

    let late = overshoot.iter().filter(|&&o| o > 0.0).count();
    let (median, p99, max) = summary(&mut overshoot);
    println!(
        "go movetime {} x {}: time beyond {} ms  median {median:+.2} ms  p99 {p99:+.2} ms  max {max:+.2} ms  ({late} answers late)",
        args.movetime, args.searches, args.movetime
    );
    let (median, p99, max) = summary(&mut latency);
    println!(
        "stop -> bestmove x {}: median {median:.2} ms  p99 {p99:.2} ms  max {max:.2} ms",
        args.stops
    );
    0
}
