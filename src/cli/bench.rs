//! `orca bench`: the node-count signature and speed of the search, and
//! `orca bench timing`: how punctual the engine process is over its protocol.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use crossbeam_channel::{Receiver, unbounded};
use orca::bench::{self, DEFAULT_DEPTH, POSITIONS};
use orca::duration::parse_movetime;
use orca::eval::{EvalKind, Evaluators};
use orca::rng::Rng;
use orca::search::Selectivity;

/// Arguments of `orca bench`: those of the signature, which `bench timing`
/// and `bench accuracy` refuse.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    mode: Option<BenchMode>,
    /// Depth of every search.
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    depth: u32,
    /// Transposition table size in MB.
    #[arg(long, value_name = "MB", default_value_t = 16, value_parser = super::hash_mb())]
    hash: usize,
    #[command(flatten)]
    eval: super::EvalArgs,
}

#[derive(Subcommand, Debug)]
enum BenchMode {
    /// Time `go movetime` answers and `stop` latency through the real protocol loop.
    #[command(after_help = super::TIME_HELP)]
    Timing(TimingArgs),
    /// Search positions with known exact scores at fixed depths and
    /// selectivities, with the hand-made and the trained evaluation: best
    /// moves found, score errors, the loss of the chosen moves, nodes, time.
    ///
    /// Slow: with the defaults, about 8 minutes of one core's time, half of
    /// it solving the self-play positions (--extra); 31 minutes on a 2-core
    /// machine busy with other work. Full width (--selectivity 100) at depth
    /// 16 takes seconds a position. Progress goes to stderr.
    Accuracy(AccuracyArgs),
    /// Time and nodes to complete each depth on 24 midgame positions (26-40
    /// empties): medians by depth.
    Depth(DepthArgs),
}

#[derive(Args, Debug)]
struct DepthArgs {
    /// Deepest depth to complete.
    #[arg(long, default_value_t = 18)]
    max_depth: u32,
    /// Give up a position after this many seconds.
    #[arg(long, default_value_t = 20.0)]
    time_limit: f64,
    /// Which game: othello or reversed.
    #[arg(long, default_value = "othello")]
    variant: orca::game::Variant,
    /// Only the first N positions.
    #[arg(long)]
    positions: Option<usize>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads of each search (times are wall-clock, nodes those of
    /// all threads).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::threads())]
    threads: usize,
    /// Lines each search values (multi-PV), to measure what they cost.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=64))]
    multipv: u16,
}

#[derive(Args, Debug)]
struct AccuracyArgs {
    /// Depths to search at (each as `go depth N`: iterative deepening from 1).
    #[arg(long, value_delimiter = ',', default_value = "8,12")]
    depths: Vec<u32>,
    /// The positions: default (FFO #20-59 with 24 to 30 empties, plus
    /// --extra self-play positions solved here), ffo40-59 (FFO #40-59, 20 to
    /// 34 empties) or hard20 (the 276 positions of 20 empties of
    /// data/obf/hard-20.obf). The files give every move's exact score.
    #[arg(long, default_value = "default")]
    set: PositionSet,
    /// Only the first N positions of the set, in file order.
    #[arg(long, value_name = "N")]
    first: Option<usize>,
    /// Selectivities to compare, as the UGI `Selectivity` option: 73, 87,
    /// 95, 99, or 100 for full width.
    #[arg(long, value_delimiter = ',', default_value = "73", value_parser = super::parse_selectivity)]
    selectivity: Vec<Selectivity>,
    /// Search with this evaluation only (trained or handmade) instead of both.
    #[arg(long, value_name = "EVALUATION")]
    only: Option<EvalKind>,
    /// Self-play positions (24 to 28 empties) to label with the solver, besides
    /// the FFO positions (default set only) [default: 24].
    #[arg(long)]
    extra: Option<usize>,
    /// Seed of the self-play positions (training uses other seeds; default
    /// set only) [default: 424242].
    #[arg(long)]
    seed: Option<u64>,
    /// Compare with the trained weights in this file instead of the built-in
    /// ones (the file says which variant it is for).
    #[arg(long, value_name = "FILE")]
    weights: Vec<PathBuf>,
}

/// The position sets of `orca bench accuracy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PositionSet {
    /// FFO #20-59 with 24 to 30 empties, plus solved self-play positions.
    Default,
    /// FFO #40-59.
    #[value(name = "ffo40-59")]
    Ffo40To59,
    /// hard-20.
    #[value(name = "hard20")]
    Hard20,
}

impl PositionSet {
    fn name(self) -> &'static str {
        match self {
            PositionSet::Default => "default",
            PositionSet::Ffo40To59 => "ffo40-59",
            PositionSet::Hard20 => "hard20",
        }
    }
}

#[derive(Args, Debug)]
struct TimingArgs {
    /// Number of `go movetime` searches.
    #[arg(long, default_value_t = 200, value_parser = at_least_one())]
    searches: usize,
    /// The movetime of each.
    #[arg(long, value_name = "TIME", default_value = "50", value_parser = parse_movetime)]
    movetime: Duration,
    /// Number of `go infinite` + `stop` rounds.
    #[arg(long, default_value_t = 100, value_parser = at_least_one())]
    stops: usize,
}

/// A count of measurements: a summary of none has no median.
fn at_least_one() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..)
}

/// Runs the bench; returns the exit status.
pub fn run(args: &BenchArgs) -> i32 {
    match &args.mode {
        Some(BenchMode::Timing(t)) => timing(t),
        Some(BenchMode::Accuracy(a)) => {
            let trained = super::evaluators(EvalKind::Trained, &a.weights);
            super::with_evaluators(trained, |e| accuracy(a, &e))
        }
        Some(BenchMode::Depth(d)) => {
            super::with_evaluators(args.eval.evaluators(), |e| depth(d, &e))
        }
        None => super::with_evaluators(args.eval.evaluators(), |e| signature(args, &e)),
    }
}

fn depth(args: &DepthArgs, evaluators: &Evaluators) -> i32 {
    let mut tt = orca::search::TranspositionTable::new(args.hash);
    let count = args.positions.unwrap_or(bench::DEPTH_POSITIONS.len());
    let mut by_depth: Vec<Vec<(f64, u64)>> = vec![Vec::new(); args.max_depth as usize + 1];
    for (i, text) in bench::DEPTH_POSITIONS.iter().take(count).enumerate() {
        let position = match orca::game::AnyPosition::parse(args.variant, text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("orca bench depth: {e}");
                return 2;
            }
        };
        let reached = bench::depth_profile(
            &position,
            evaluators,
            args.max_depth,
            Duration::from_secs_f64(args.time_limit.max(0.001)),
            (args.threads, usize::from(args.multipv)),
            &mut tt,
        );
        let deepest = reached.last().map_or(0, |r| r.depth);
        let last = reached.last().map_or(0.0, |r| r.elapsed.as_secs_f64());
        eprintln!(
            "position {:>2}/{count}: depth {deepest:>2} in {:>8.1} ms",
            i + 1,
            last * 1e3
        );
        for r in reached {
            by_depth[r.depth as usize].push((r.elapsed.as_secs_f64() * 1e3, r.nodes));
        }
    }
    println!("depth  reached  median ms    median nodes  geomean nodes");
    for (d, results) in by_depth.iter_mut().enumerate().skip(1) {
        if results.is_empty() {
            continue;
        }
        // A position that did not reach the depth counts as slower than all.
        let missing = count - results.len();
        let mut times: Vec<f64> = results.iter().map(|r| r.0).collect();
        let mut nodes: Vec<u64> = results.iter().map(|r| r.1).collect();
        // Over the positions that reached the depth: comparable between
        // builds that all reach it, and steadier than the median.
        let geomean =
            (nodes.iter().map(|&n| (n.max(1) as f64).ln()).sum::<f64>() / nodes.len() as f64).exp();
        times.extend(std::iter::repeat_n(f64::INFINITY, missing));
        nodes.extend(std::iter::repeat_n(u64::MAX, missing));
        times.sort_by(f64::total_cmp);
        nodes.sort_unstable();
        let (t, n) = (times[count / 2], nodes[count / 2]);
        if t.is_finite() {
            println!(
                "{d:>5}  {:>3}/{count}  {t:>9.1}  {n:>14}  {geomean:>13.0}",
                results.len()
            );
        } else {
            println!(
                "{d:>5}  {:>3}/{count}  {:>9}  {:>14}  {geomean:>13.0}",
                results.len(),
                "-",
                "-"
            );
        }
    }
    0
}

fn signature(args: &BenchArgs, evaluators: &Evaluators) -> i32 {
    let total = bench::run(args.depth, args.hash, evaluators, &mut |line| {
        println!(
            "{:<9} {}  depth {:>2}  nodes {:>10}  {:>7.1} ms  best {:<4} score {:+.2}",
            line.variant.to_string(),
            line.position,
            args.depth,
            line.nodes,
            line.elapsed.as_secs_f64() * 1e3,
            line.best,
            line.score.discs(),
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
    let movetime = args.movetime.as_millis();
    child.send("ugi");
    child.wait_for("ugiok");
    // Punctuality of the search: a book answer would come at once.
    child.send("setoption name OwnBook value false");
    let mut rng = Rng::new(7);
    let mut overshoot = Vec::new();
    for i in 0..args.searches {
        child.send(&format!("position fen {}", POSITIONS[i % POSITIONS.len()]));
        let sent = child.send(&format!("go movetime {movetime}"));
        let answered = child.wait_for("bestmove");
        let ms = answered.duration_since(sent).as_secs_f64() * 1e3;
        overshoot.push(ms - movetime as f64);
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
        "go movetime {movetime} x {}: time beyond {movetime} ms  median {median:+.2} ms  p99 {p99:+.2} ms  max {max:+.2} ms  ({late} answers late)",
        args.searches
    );
    let (median, p99, max) = summary(&mut latency);
    println!(
        "stop -> bestmove x {}: median {median:.2} ms  p99 {p99:.2} ms  max {max:.2} ms",
        args.stops
    );
    0
}

/// The problems of `data/obf/<name>.obf`, numbered from `first`, with the
/// empties `keep` accepts; or why the file cannot be used.
fn obf_positions(
    name: &str,
    label: &str,
    first: usize,
    keep: impl Fn(u32) -> bool,
) -> Result<Vec<bench::KnownPosition>, String> {
    let path = format!("{}/data/obf/{name}.obf", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let problems = orca::obf::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    Ok(problems
        .into_iter()
        .enumerate()
        .filter_map(|(i, problem)| {
            let board = problem.position.state().0;
            let best = problem.best_score()?;
            keep(board.empties()).then(|| bench::KnownPosition {
                board,
                source: format!("{label} #{}", first + i),
                best,
                move_scores: problem.scores.clone(),
            })
        })
        .collect())
}

/// The FFO positions with 24 to 30 empties (their files score every move).
fn ffo_positions() -> Vec<bench::KnownPosition> {
    let mut known = Vec::new();
    for (name, first) in [("fforum-20-39", 20), ("fforum-40-59", 40)] {
        match obf_positions(name, "FFO", first, |e| (24..=30).contains(&e)) {
            Ok(mut positions) => known.append(&mut positions),
            Err(e) => eprintln!("orca bench accuracy: cannot read {e}; skipping it"),
        }
    }
    known
}

/// Solves `count` self-play positions of 24 to 28 empties (seeded): what the
/// default set adds to the FFO positions.
fn self_play_positions(
    count: usize,
    seed: u64,
    evaluators: &Evaluators,
    handmade: &Evaluators,
) -> Vec<bench::KnownPosition> {
    use orca::game::Variant;
    use orca::search::TranspositionTable;
    use orca::train::selfplay::{LineConfig, self_play};

    let mut known = Vec::new();
    let mut tt = TranspositionTable::new(64);
    let mut rng = Rng::new(seed);
    let config = LineConfig {
        exact_empties: 0,
        ..LineConfig::default()
    };
    for i in 0..count {
        let empties = 24 + (i % 5) as u32;
        let mut small = TranspositionTable::new(4);
        let line = self_play::<false, _>(&handmade.othello, &mut rng, &config, &mut small);
        let Some(&(board, _)) = line
            .positions
            .iter()
            .find(|(b, _)| b.empties() == empties && b.moves() != 0)
        else {
            continue;
        };
        tt.clear();
        let solution = orca::solve::solve(
            board,
            Variant::Othello,
            evaluators,
            &mut tt,
            orca::solve::SolveMode::Exact,
            false,
        );
        eprintln!(
            "labelled self-play position {}/{count} ({empties} empties): {:+} in {:.1} s",
            i + 1,
            solution.score,
            solution.elapsed.as_secs_f64()
        );
        known.push(bench::KnownPosition {
            board,
            source: format!("self-play {}", i + 1),
            best: solution.score,
            move_scores: solution
                .best
                .map(|m| vec![(m, solution.score)])
                .unwrap_or_default(),
        });
    }
    known
}

/// The sums of one row of the accuracy table.
#[derive(Clone, Copy, Default)]
struct Tally {
    positions: usize,
    found: usize,
    error: f64,
    loss: i64,
    nodes: u64,
    seconds: f64,
}

impl Tally {
    fn add(&mut self, line: &bench::AccuracyLine) {
        self.positions += 1;
        self.found += usize::from(line.best_found);
        self.error += line.score_error;
        self.loss += i64::from(line.loss);
        self.nodes += line.nodes;
        self.seconds += line.elapsed.as_secs_f64();
    }

    /// The row's cells after depth, selectivity and evaluation.
    fn cells(&self) -> String {
        let n = self.positions.max(1) as f64;
        format!(
            "{:>5.1}% ({}/{}) | {:>6.2} | {:>5.2} | {:>11.0} | {:>9.1}",
            100.0 * self.found as f64 / n,
            self.found,
            self.positions,
            self.error / n,
            self.loss as f64 / n,
            self.nodes as f64 / n,
            1e3 * self.seconds / n,
        )
    }
}

fn accuracy(args: &AccuracyArgs, evaluators: &Evaluators) -> i32 {
    use orca::search::TranspositionTable;

    let handmade =
        orca::eval::Evaluators::new(EvalKind::Handmade).expect("hand-made needs no file");
    if args.set != PositionSet::Default && (args.extra.is_some() || args.seed.is_some()) {
        eprintln!("orca bench accuracy: --extra and --seed apply to the default set only");
        return 2;
    }
    if args.depths.iter().any(|&d| !(1..=60).contains(&d)) {
        eprintln!("orca bench accuracy: --depths takes depths from 1 to 60");
        return 2;
    }
    let mut depths = args.depths.clone();
    depths.sort_unstable();
    depths.dedup();
    let mut levels = args.selectivity.clone();
    levels.dedup();
    let (mut known, description) = match args.set {
        PositionSet::Default => {
            let extra = args.extra.unwrap_or(24);
            let mut known = ffo_positions();
            let ffo = known.len();
            eprintln!(
                "orca bench accuracy: {ffo} FFO positions; solving {extra} self-play positions (most of the time)",
            );
            known.extend(self_play_positions(
                extra,
                args.seed.unwrap_or(424242),
                evaluators,
                &handmade,
            ));
            let solved = known.len() - ffo;
            (
                known,
                format!(
                    "FFO #20-59 with 24-30 empties ({ffo}) and self-play positions of 24-28 empties solved here ({solved})"
                ),
            )
        }
        PositionSet::Ffo40To59 => match obf_positions("fforum-40-59", "FFO", 40, |_| true) {
            Ok(known) => (known, "FFO #40-59 (data/obf/fforum-40-59.obf)".to_string()),
            Err(e) => {
                eprintln!("orca bench accuracy: cannot read {e}");
                return 1;
            }
        },
        PositionSet::Hard20 => match obf_positions("hard-20", "hard-20", 1, |_| true) {
            Ok(known) => (known, "hard-20 (data/obf/hard-20.obf)".to_string()),
            Err(e) => {
                eprintln!("orca bench accuracy: cannot read {e}");
                return 1;
            }
        },
    };
    let available = known.len();
    if let Some(first) = args.first {
        known.truncate(first);
    }
    if known.is_empty() {
        eprintln!("orca bench accuracy: no position to search");
        return 2;
    }
    let (fewest, most) = known.iter().fold((u32::MAX, 0), |(lo, hi), k| {
        let e = k.board.empties();
        (lo.min(e), hi.max(e))
    });
    let subset = if known.len() < available {
        format!(", the first {} of {available} in file order", known.len())
    } else {
        String::new()
    };
    let empties = if fewest == most {
        fewest.to_string()
    } else {
        format!("{fewest}-{most}")
    };
    println!(
        "# orca bench accuracy --set {}: {} positions of {empties} empties, {description}{subset}",
        args.set.name(),
        known.len()
    );
    println!(
        "# best move: the chosen move's exact score is the best; score error: |search score - exact best score|;"
    );
    println!(
        "# loss: exact best score - exact score of the chosen move (known for every move: from the file, or solved);"
    );
    println!(
        "# discs; nodes and time: to complete the depth by iterative deepening from 1, fresh 64 MB table, one thread"
    );
    let evals: Vec<(&str, &Evaluators)> = [("trained", evaluators), ("handmade", &handmade)]
        .into_iter()
        .filter(|(name, _)| args.only.is_none_or(|only| only.to_string() == *name))
        .collect();
    let mut tt = TranspositionTable::new(64);
    // Rows by depth, then selectivity, then evaluation.
    let mut tallies = vec![vec![vec![Tally::default(); evals.len()]; levels.len()]; depths.len()];
    let total = known.len();
    for (s, &selectivity) in levels.iter().enumerate() {
        for (v, &(name, evals)) in evals.iter().enumerate() {
            let started = Instant::now();
            for (i, k) in known.iter_mut().enumerate() {
                let position_start = Instant::now();
                let lines = bench::accuracy_by_depth(
                    k,
                    &evals.othello,
                    &depths,
                    selectivity,
                    &mut tt,
                    evaluators,
                );
                for line in &lines {
                    let d = depths
                        .iter()
                        .position(|&d| d == line.depth)
                        .expect("a depth asked for");
                    tallies[d][s][v].add(line);
                }
                eprintln!(
                    "{} {}/{total} ({}) at {selectivity} with the {name} evaluation, depths {depths:?}: {:.2} s",
                    args.set.name(),
                    i + 1,
                    k.source,
                    position_start.elapsed().as_secs_f64()
                );
            }
            eprintln!(
                "searched {total} positions at depths {depths:?} at {selectivity} with the {name} evaluation in {:.1} s",
                started.elapsed().as_secs_f64()
            );
            for (d, depth) in depths.iter().enumerate() {
                eprintln!("  depth {depth:>2}: {}", tallies[d][s][v].cells());
            }
        }
    }
    println!(
        "| depth | selectivity | evaluation | best move found | mean score error | mean loss | mean nodes | mean ms |"
    );
    println!("|---:|---:|---|---:|---:|---:|---:|---:|");
    for (d, depth) in depths.iter().enumerate() {
        for (s, selectivity) in levels.iter().enumerate() {
            for (v, (name, _)) in evals.iter().enumerate() {
                println!(
                    "| {depth:>2} | {:>4} | {name:<8} | {} |",
                    selectivity.to_string(),
                    tallies[d][s][v].cells()
                );
            }
        }
    }
    0
}
