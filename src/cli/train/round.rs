//! `orca train round`: one improvement round of the evaluation from one
//! command. It labels positions with the current weights (shard files), fits
//! candidate weights that start from the current ones, and gates them with an
//! SPRT match against the current ones; only a pass installs them.
//!
//! Every step leaves its result in the round's directory and is skipped when
//! that result is there, so the command can be stopped anywhere (Ctrl-C, a
//! killed job) and run again to continue: the labelling continues its shard
//! files, the fit is written whole or not at all, and the gate keeps a line per
//! finished pair of games.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use clap::Args;
use orca::eval::trained::Weights;
use orca::game::Variant;
use orca::ggf::date as ggf_date;
use orca::referee::openings;
use orca::referee::stats::{Pentanomial, Sprt, SprtState};
use orca::referee::{Ending, EngineSpec, MatchConfig, TimeControl, run as run_match};
use orca::train::generate;

use super::steps::{FitArgs, LabelArgs, WeightsSource, fit_shards, weights_for};

/// Exit status of a round stopped by Ctrl-C (128 + SIGINT).
const INTERRUPTED_STATUS: i32 = 130;

/// How the command reports its problems.
const CONTEXT: &str = "orca train round";

/// Arguments of `orca train round`.
#[derive(Args, Debug)]
pub struct RoundArgs {
    #[command(flatten)]
    label: LabelArgs,
    /// The round's directory: its settings, shards, candidate weights, gate
    /// games and report. Run the same command again to continue a round.
    #[arg(long, value_name = "DIR")]
    dir: PathBuf,
    /// The weights to improve on: they label the positions, the fit starts
    /// from them and the gate plays against them [default: the built-in ones].
    #[arg(long, value_name = "FILE")]
    current: Option<PathBuf>,
    /// Shards of the labelling: `DIR/shard-I-of-N.shard`, written here or by a
    /// batch system's tasks (deploy/) with the same settings.
    #[arg(long, default_value_t = 1)]
    shards: u32,
    /// Positions per shard.
    #[arg(long, default_value_t = 100_000)]
    positions: usize,

    /// Hold out the positions of one shard game in this many.
    #[arg(long, default_value_t = 20)]
    test_every: u64,
    /// Fitting passes per stage.
    #[arg(long, default_value_t = 60)]
    epochs: usize,
    /// Ridge strength: pseudo-occurrences pulling each weight towards its
    /// current value.
    #[arg(long, default_value_t = 16.0)]
    ridge: f32,
    /// The gate's time control: movetime=TIME, or MAIN+INC.
    #[arg(long, default_value = "movetime=200", allow_hyphen_values = true)]
    tc: TimeControl,
    /// The gate's most games, in colour-swapped pairs; a test still undecided
    /// then rejects the candidate.
    #[arg(long, default_value_t = 600)]
    games: usize,
    /// The gate's test, from the candidate's side: it passes when H1 is accepted.
    #[arg(long, default_value = "elo0=0,elo1=20,alpha=0.05,beta=0.05")]
    sprt: Sprt,
    /// The gate's games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Worker threads of the labelling and the fit (the results do not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// When the candidate passes, copy its weights here (weights/othello.bin,
    /// say, then rebuild).
    #[arg(long, value_name = "FILE")]
    install: Option<PathBuf>,
    /// Stop after this step: label (a big machine making the shards alone),
    /// fit, or gate (the whole round).
    #[arg(long, value_enum, default_value = "gate")]
    until: Step,
}

/// The steps of a round, in order.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    /// Positions labelled by search, in shard files.
    Label,
    /// Candidate weights fitted from them.
    Fit,
    /// The SPRT match against the current weights.
    Gate,
}

impl RoundArgs {
    fn shard_path(&self, index: u32) -> PathBuf {
        self.dir
            .join(format!("shard-{index}-of-{}.shard", self.shards))
    }

    /// The settings the round's results depend on, one `key=value` a line.
    fn settings(&self, current: &Weights) -> String {
        let bytes = current.to_bytes();
        let checksum = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
        let l = &self.label;
        let wthor = l
            .wthor
            .as_ref()
            .map_or("none".to_string(), |d| d.display().to_string());
        format!(
            "variant={}\ncurrent={checksum:016x}\nseed={}\nexact-empties={}\ndepth={}\n\
             random={}-{}\nplay-depth={}\nwthor={wthor}\nwthor-share={}\nshards={}\n\
             positions={}\ntest-every={}\nepochs={}\nridge={}\ntc={}\ngames={}\nsprt={}\n",
            l.variant,
            l.seed,
            l.exact_empties,
            l.depth,
            l.random_min,
            l.random_max,
            l.play_depth,
            l.wthor_share,
            self.shards,
            self.positions,
            self.test_every,
            self.epochs,
            self.ridge,
            self.tc,
            self.games,
            self.sprt
        )
    }

    fn check(&self) -> Result<(), String> {
        if self.label.variant == Variant::TicTacToe {
            return Err("tic-tac-toe is searched to the end and has no evaluation to train".into());
        }
        if self.label.wthor.is_some() && self.label.variant != Variant::Othello {
            return Err("WTHOR games are standard Othello; leave out --wthor".into());
        }
        if self.shards == 0 || self.positions == 0 {
            return Err("--shards and --positions must be at least 1".into());
        }
        if self.games < 2 || self.concurrency == 0 || self.threads == 0 {
            return Err("--games must be at least 2, --concurrency and --threads 1".into());
        }
        if self.sprt.elo0 >= self.sprt.elo1 {
            return Err("the gate's SPRT needs elo0 < elo1".into());
        }
        Ok(())
    }
}

/// Writes `text` to `path` whole or not at all (through a file beside it).
fn write_whole(path: &Path, text: &[u8]) -> io::Result<()> {
    let part = path.with_extension("part");
    fs::write(&part, text)?;
    fs::rename(&part, path)
}

/// Keeps the round's settings in `DIR/round.txt`: the first run writes them,
/// a later run must give the same.
fn check_settings(dir: &Path, settings: &str) -> Result<(), String> {
    let path = dir.join("round.txt");
    match fs::read_to_string(&path) {
        Ok(old) if old == settings => Ok(()),
        Ok(old) => {
            let differs = old
                .lines()
                .zip(settings.lines())
                .find(|(a, b)| a != b)
                .map_or_else(
                    || "its settings".to_string(),
                    |(a, b)| format!("{a}, not {b}"),
                );
            Err(format!(
                "{}: this round was started with {differs}; give another --dir for other settings",
                path.display()
            ))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            write_whole(&path, settings.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
        }
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Appends one line of the round's log of CPU time (`DIR/cpu.txt`): the step,
/// its wall seconds and the cores it kept busy.
fn log_cpu(dir: &Path, step: &str, seconds: f64, cores: usize) {
    let path = dir.join("cpu.txt");
    let line = format!("{step} {seconds:.1} {cores}\n");
    let written = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(line.as_bytes()));
    if let Err(e) = written {
        log::warn!("{}: {e}", path.display());
    }
}

/// CPU seconds (wall seconds times cores) logged for each step.
fn cpu_by_step(dir: &Path) -> HashMap<String, f64> {
    let mut by_step = HashMap::new();
    for line in fs::read_to_string(dir.join("cpu.txt"))
        .unwrap_or_default()
        .lines()
    {
        let mut words = line.split_whitespace();
        if let (Some(step), Some(Ok(seconds)), Some(Ok(cores))) = (
            words.next(),
            words.next().map(str::parse::<f64>),
            words.next().map(str::parse::<f64>),
        ) {
            *by_step.entry(step.to_string()).or_insert(0.0) += seconds * cores;
        }
    }
    by_step
}

/// Runs the round; returns the exit status.
pub fn run(args: &RoundArgs) -> i32 {
    if let Err(e) = args.check() {
        eprintln!("{CONTEXT}: {e}");
        return 2;
    }
    let variant = args.label.variant;
    let current = match weights_for(args.current.as_deref(), variant) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{CONTEXT}: {e}");
            return 1;
        }
    };
    if let Err(e) = fs::create_dir_all(&args.dir) {
        eprintln!("{CONTEXT}: {}: {e}", args.dir.display());
        return 1;
    }
    if let Err(e) = check_settings(&args.dir, &args.settings(&current)) {
        eprintln!("{CONTEXT}: {e}");
        return 2;
    }
    if let Err(status) = label(args, &current) {
        return status;
    }
    if args.until == Step::Label {
        eprintln!("{CONTEXT}: the shards are labelled");
        return 0;
    }
    let candidate = args.dir.join("candidate.bin");
    if !candidate.exists()
        && let Err(status) = fit(args, &candidate)
    {
        return status;
    }
    if args.until == Step::Fit {
        eprintln!(
            "{CONTEXT}: the candidate is fitted: {}",
            candidate.display()
        );
        return 0;
    }
    let gate = match gate(args, &candidate) {
        Ok(g) => g,
        Err(status) => return status,
    };
    let accepted = gate.state == SprtState::AcceptH1;
    if accepted && let Some(install) = &args.install {
        if let Err(e) = fs::copy(&candidate, install) {
            eprintln!("{CONTEXT}: cannot install into {}: {e}", install.display());
            return 1;
        }
        eprintln!(
            "{CONTEXT}: installed the candidate as {}",
            install.display()
        );
    }
    let report = report(args, &gate);
    let path = args.dir.join("report.md");
    if let Err(e) = write_whole(&path, report.as_bytes()) {
        eprintln!("{CONTEXT}: {}: {e}", path.display());
        return 1;
    }
    print!("{report}");
    0
}

/// Step 1: writes or continues every shard.
fn label(args: &RoundArgs, current: &Arc<Weights>) -> Result<(), i32> {
    for i in 0..args.shards {
        let path = args.shard_path(i);
        let config = args.label.config(
            (i, args.shards),
            args.positions,
            Arc::clone(current),
            args.threads,
        );
        let bar = crate::cli::progress::stderr_bar(&format!(
            "{CONTEXT}: labelling shard {i}/{}: {{wide_bar}} {{pos}}/{{len}} positions, {{msg}} games",
            args.shards
        ));
        let report = generate::run(&config, &path, &mut |p| {
            bar.set_length(p.target as u64);
            bar.set_position(p.positions.min(p.target) as u64);
            bar.set_message(p.blocks.to_string());
        });
        bar.finish_and_clear();
        match report {
            Ok(r) if r.positions > 0 => log_cpu(&args.dir, "label", r.seconds, args.threads),
            Ok(_) => {}
            Err(e) => {
                eprintln!("{CONTEXT}: {e}");
                return Err(1);
            }
        }
    }
    Ok(())
}

/// Step 2: fits the candidate from the shards, starting from the current
/// weights; writes `candidate.bin` and the held-out table.
fn fit(args: &RoundArgs, candidate: &Path) -> Result<(), i32> {
    let started = Instant::now();
    let part = candidate.with_extension("part");
    let fit_args = FitArgs {
        shards: (0..args.shards).map(|i| args.shard_path(i)).collect(),
        database: Vec::new(),
        database_games: None,
        out: part.clone(),
        // The WTHOR games are in the shards, labelled by search: their
        // results as labels made the fit worse (docs/training.md).
        wthor: None,
        games: None,
        exact_every: 0,
        test_every: args.test_every,
        shard_weight: 1.0,
        epochs: args.epochs,
        ridge: args.ridge,
        threads: args.threads,
        baseline: args.current.clone(),
        origin: Some(
            args.current
                .clone()
                .map_or(WeightsSource::Builtin, WeightsSource::File),
        ),
    };
    let (report, held_out) = fit_shards(&fit_args, CONTEXT)?;
    let table = format!("{report}\n{held_out}");
    let table_path = args.dir.join("fit.txt");
    if let Err(e) =
        write_whole(&table_path, table.as_bytes()).and_then(|()| fs::rename(&part, candidate))
    {
        eprintln!("{CONTEXT}: {}: {e}", args.dir.display());
        return Err(1);
    }
    log_cpu(
        &args.dir,
        "fit",
        started.elapsed().as_secs_f64(),
        args.threads,
    );
    Ok(())
}

/// Where the gate stands.
struct Gate {
    /// The candidate's pairs.
    pairs: Pentanomial,
    /// The test's decision on them.
    state: SprtState,
    /// Its log-likelihood ratio.
    llr: f64,
}

/// The finished pairs in `DIR/gate.txt`: `pair P: POINTS` a line, the
/// candidate's points of the two games. A line cut off by a kill is ignored.
fn finished_pairs(path: &Path) -> HashMap<usize, f64> {
    let text = fs::read_to_string(path).unwrap_or_default();
    let complete = text.rfind('\n').map_or("", |end| &text[..end]);
    complete
        .lines()
        .filter_map(|line| {
            let (pair, points) = line.strip_prefix("pair ")?.split_once(": ")?;
            let points: f64 = points.trim().parse().ok()?;
            ((0.0..=2.0).contains(&points)).then_some((pair.parse().ok()?, points))
        })
        .collect()
}

/// Step 3: the SPRT match of the candidate against the current weights,
/// continued from the pairs already played.
fn gate(args: &RoundArgs, candidate: &Path) -> Result<Gate, i32> {
    let path = args.dir.join("gate.txt");
    let done = finished_pairs(&path);
    let mut pairs = Pentanomial::default();
    for &points in done.values() {
        pairs.add(points);
    }
    let llr = args.sprt.llr(&pairs);
    let state = args.sprt.state(llr);
    let total = args.games / 2;
    let remaining: Vec<usize> = (0..total).filter(|p| !done.contains_key(p)).collect();
    if state != SprtState::Continue || remaining.is_empty() {
        return Ok(Gate { pairs, state, llr });
    }
    let spec = |name: &str, weights: Option<&Path>| -> Result<EngineSpec, i32> {
        let program = std::env::current_exe().map_err(|e| {
            eprintln!("{CONTEXT}: cannot find the orca binary: {e}");
            1
        })?;
        let mut engine_args = vec!["ugi".to_string()];
        if let Some(w) = weights {
            engine_args.extend(["--weights".to_string(), w.display().to_string()]);
        }
        Ok(EngineSpec {
            name: name.to_string(),
            program: program.display().to_string(),
            args: engine_args,
            protocol: orca::protocol::Protocol::Ugi,
            options: vec![("OwnBook".to_string(), "false".to_string())],
            ponder: false,
        })
    };
    let (text, name) = openings::builtin(args.label.variant);
    let all = openings::parse(text, args.label.variant).map_err(|e| {
        eprintln!("{CONTEXT}: {name}: {e}");
        1
    })?;
    let config = MatchConfig {
        engines: [
            spec("candidate", Some(candidate))?,
            spec("current", args.current.as_deref())?,
        ],
        variant: args.label.variant,
        openings: remaining
            .iter()
            .map(|&p| all[p % all.len()].clone())
            .collect(),
        games: remaining.len() * 2,
        time: args.tc,
        margin: std::time::Duration::from_millis(50),
        silence: std::time::Duration::from_secs(10),
        concurrency: args.concurrency,
        sprt: None,
    };
    // The kept pairs, written afresh: a line cut off by a kill is dropped
    // rather than continued.
    let kept: String = (0..total)
        .filter_map(|p| done.get(&p).map(|points| format!("pair {p}: {points}\n")))
        .collect();
    let mut file = write_whole(&path, kept.as_bytes())
        .and_then(|()| OpenOptions::new().append(true).open(&path))
        .map_err(|e| {
            eprintln!("{CONTEXT}: {}: {e}", path.display());
            1
        })?;
    let mut ggf = OpenOptions::new()
        .create(true)
        .append(true)
        .open(args.dir.join("gate.ggf"))
        .ok();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    if let Err(e) = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed)) {
        log::warn!("Ctrl-C will not stop the gate cleanly: {e}");
    }
    eprintln!(
        "{CONTEXT}: gate of candidate against current, {} of {} pairs left, {}",
        remaining.len(),
        total,
        args.tc
    );
    let started = Instant::now();
    let date = ggf_date(std::time::SystemTime::now());
    let mut open: HashMap<usize, f64> = HashMap::new();
    let mut decided = false;
    let mut write_error = None;
    let outcome = run_match(&config, Arc::clone(&stop), |result, _| {
        let names = ["candidate", "current"];
        if let Some(g) = ggf.as_mut() {
            let record = result.played.ggf(
                names[result.by_colour[0]],
                names[result.by_colour[1]],
                &config.time,
                &date,
            );
            let _ = writeln!(g, "{record}");
        }
        let points = result.points(0);
        let Some(other) = open.remove(&result.pair) else {
            open.insert(result.pair, points);
            return;
        };
        let pair = remaining[result.pair];
        let sum = points + other;
        if let Err(e) = writeln!(file, "pair {pair}: {sum}").and_then(|()| file.flush()) {
            write_error.get_or_insert(e);
        }
        pairs.add(sum);
        let llr = args.sprt.llr(&pairs);
        let (low, high) = args.sprt.bounds();
        let elo = pairs.elo().map_or("-".to_string(), |e| {
            format!("{:+.1} ± {:.1}", e.elo, e.margin())
        });
        eprintln!(
            "{CONTEXT}: pair {pair}: {sum}; pairs {:?}, Elo {elo}, LLR {llr:.2} ({low:.2}, {high:.2})",
            pairs.0
        );
        if args.sprt.state(llr) != SprtState::Continue {
            decided = true;
            stop.store(true, Ordering::Relaxed);
        }
    });
    log_cpu(
        &args.dir,
        "gate",
        started.elapsed().as_secs_f64(),
        args.concurrency,
    );
    if let Some(e) = write_error {
        eprintln!("{CONTEXT}: {}: {e}", path.display());
        return Err(1);
    }
    match outcome {
        Ok((_, Ending::Interrupted)) if !decided => {
            eprintln!(
                "{CONTEXT}: interrupted; run the same command to continue the gate ({} pairs kept)",
                pairs.pairs()
            );
            Err(INTERRUPTED_STATUS)
        }
        Ok(_) => {
            let llr = args.sprt.llr(&pairs);
            Ok(Gate {
                pairs,
                state: args.sprt.state(llr),
                llr,
            })
        }
        Err(e) => {
            eprintln!("{CONTEXT}: the gate's match: {e}");
            Err(1)
        }
    }
}

/// Positions, exact labels and games in the round's shards.
fn shard_totals(args: &RoundArgs) -> (usize, usize, usize) {
    let (mut positions, mut exact, mut games) = (0, 0, 0);
    for i in 0..args.shards {
        for block in generate::read(&args.shard_path(i)).unwrap_or_default() {
            games += 1;
            positions += block.records.len();
            exact += block.records.iter().filter(|r| r.exact).count();
        }
    }
    (positions, exact, games)
}

/// The round's figures: what went in, what came out, and the verdict.
fn report(args: &RoundArgs, gate: &Gate) -> String {
    let (positions, exact, games) = shard_totals(args);
    let cpu = cpu_by_step(&args.dir);
    let hours = |step: &str| cpu.get(step).copied().unwrap_or(0.0) / 3600.0;
    let verdict = match gate.state {
        SprtState::AcceptH1 => "accepted (H1)",
        SprtState::AcceptH0 => "rejected (H0)",
        SprtState::Continue => "rejected (undecided at the last game)",
    };
    let elo = gate.pairs.elo().map_or("-".to_string(), |e| {
        format!("{:+.1} ± {:.1}", e.elo, e.margin())
    });
    let mut text = format!(
        "# Training round {}\n\n{}\n",
        args.dir.display(),
        fs::read_to_string(args.dir.join("round.txt")).unwrap_or_default()
    );
    let _ = writeln!(
        text,
        "| step | result | CPU-hours |\n|---|---|---|\n\
         | label | {positions} positions ({exact} exact) of {games} games in {} shards | {:.2} |\n\
         | fit | candidate.bin, held-out errors below | {:.2} |\n\
         | gate | pairs {:?} (0 to 2 points), Elo {elo}, LLR {:.2}: {verdict} | {:.2} |\n",
        args.shards,
        hours("label"),
        hours("fit"),
        gate.pairs.0,
        gate.llr,
        hours("gate"),
    );
    text += &fs::read_to_string(args.dir.join("fit.txt")).unwrap_or_default();
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn pair_numbers(path: &Path) -> BTreeSet<usize> {
        finished_pairs(path).into_keys().collect()
    }

    #[test]
    fn a_cut_off_gate_line_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gate.txt");
        fs::write(&path, "pair 0: 1.5\npair 3: 2\npair 9: 0.5\npair 4: 1").unwrap();
        assert_eq!(pair_numbers(&path), BTreeSet::from([0, 3, 9]));
        fs::write(&path, "pair 0: 2.5\nnonsense\npair 1: 0\n").unwrap();
        assert_eq!(pair_numbers(&path), BTreeSet::from([1]));
        let _ = fs::File::create(&path);
        assert!(pair_numbers(&path).is_empty());
    }
}
