//! A training round of the evaluation (`orca train round`): label positions
//! with the current weights (shard files), fit candidate weights that start
//! from the current ones, and gate them with an SPRT match against the
//! current ones; only a pass installs them.
//!
//! Every step leaves its result in the round's directory and is skipped when
//! that result is there, so a round can be stopped anywhere (Ctrl-C, a killed
//! job) and run again to continue: the labelling continues its shard files,
//! the fit is written whole or not at all, and the gate keeps a line per
//! finished pair of games. It sits above the training and the referee, whose
//! work it strings together; the command line only parses flags and shows
//! the [`Event`]s.

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use crate::eval::trained::Weights;
use crate::game::Variant;
use crate::ggf::date as ggf_date;
use crate::protocol::Protocol;
use crate::referee::openings;
use crate::referee::stats::{Pentanomial, Sprt, SprtState};
use crate::referee::{Ending, EngineSpec, MatchConfig, TimeControl, run as run_match};
use crate::train::Progress;
use crate::train::files::{FilesError, FitFiles, WeightsSource, fit_files, load_weights};
use crate::train::generate::{self, LabelSettings};

/// The steps of a round, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    /// Positions labelled by search, in shard files.
    Label,
    /// Candidate weights fitted from them.
    Fit,
    /// The SPRT match against the current weights.
    Gate,
}

/// Everything a round depends on.
#[derive(Clone, Debug)]
pub struct RoundConfig {
    /// How the positions are made and labelled.
    pub label: LabelSettings,
    /// The round's directory: its settings, shards, candidate, gate games
    /// and report.
    pub dir: PathBuf,
    /// The weights to improve on (the built-in ones when none).
    pub current: Option<PathBuf>,
    /// Shard files of the labelling.
    pub shards: u32,
    /// Positions per shard.
    pub positions: usize,
    /// Hold out the positions of one shard game in this many.
    pub test_every: u64,
    /// Fitting passes per stage.
    pub epochs: usize,
    /// Ridge strength towards the current weights.
    pub ridge: f32,
    /// The gate's time control.
    pub tc: TimeControl,
    /// The gate's most games, in colour-swapped pairs.
    pub games: usize,
    /// The gate's test, from the candidate's side.
    pub sprt: Sprt,
    /// The gate's games played at once.
    pub concurrency: usize,
    /// Worker threads of the labelling and the fit.
    pub threads: usize,
    /// Where a candidate that passes is copied.
    pub install: Option<PathBuf>,
    /// The last step to run.
    pub until: Step,
    /// The Orca binary the gate's engines run.
    pub program: PathBuf,
}

/// What a round tells as it goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// Shard `shard` of `shards` holds `positions` of `target` positions,
    /// in `games` games.
    Labelling {
        /// The shard.
        shard: u32,
        /// Of this many.
        shards: u32,
        /// Positions so far.
        positions: usize,
        /// Positions wanted.
        target: usize,
        /// Games so far.
        games: usize,
    },
    /// A shard is complete.
    Labelled(u32),
    /// The fit's progress.
    Fit(Progress),
    /// The gate starts with `left` of `total` pairs to play.
    GateStarted {
        /// Pairs to play.
        left: usize,
        /// Pairs in all.
        total: usize,
    },
    /// A pair of the gate ended.
    Pair {
        /// Its number.
        pair: usize,
        /// The candidate's points in it (0 to 2).
        points: f64,
        /// All pairs so far.
        pairs: &'a Pentanomial,
        /// The test's log-likelihood ratio.
        llr: f64,
    },
    /// The candidate passed and was copied here.
    Installed(&'a Path),
}

/// How far a round went.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The shards are labelled (the round stopped there).
    Labelled,
    /// The candidate is fitted, in this file.
    Fitted(PathBuf),
    /// The gate decided; the report (also in `DIR/report.md`).
    Gated {
        /// Whether the candidate passed.
        accepted: bool,
        /// The round's report.
        report: String,
    },
}

/// Why a round stopped short.
#[derive(Debug)]
pub enum RoundError {
    /// A setting out of range.
    Setting(&'static str),
    /// The directory holds a round started with other settings.
    OtherSettings(String),
    /// A file of the round could not be read or written.
    Io(PathBuf, io::Error),
    /// The weights, the shards or the fit.
    Files(FilesError),
    /// The labelling.
    Label(String),
    /// The gate's openings.
    Openings(String),
    /// The gate's match.
    Match(String),
    /// Stopped during the gate, with this many pairs kept.
    Interrupted(u32),
}

impl RoundError {
    /// The exit status of the command: 2 for what the flags asked, 130 for
    /// an interruption (128 + SIGINT), 1 for the rest.
    pub fn status(&self) -> i32 {
        match self {
            RoundError::Setting(_) | RoundError::OtherSettings(_) => 2,
            RoundError::Interrupted(_) => 130,
            RoundError::Files(e) => e.status(),
            _ => 1,
        }
    }
}

impl fmt::Display for RoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoundError::Setting(e) => f.write_str(e),
            RoundError::OtherSettings(e)
            | RoundError::Label(e)
            | RoundError::Openings(e)
            | RoundError::Match(e) => f.write_str(e),
            RoundError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            RoundError::Files(e) => write!(f, "{e}"),
            RoundError::Interrupted(pairs) => write!(
                f,
                "interrupted; run the same command to continue the gate ({pairs} pairs kept)"
            ),
        }
    }
}

impl std::error::Error for RoundError {}

impl RoundConfig {
    fn shard_path(&self, index: u32) -> PathBuf {
        self.dir
            .join(format!("shard-{index}-of-{}.shard", self.shards))
    }

    /// The settings the round's results depend on, one `key=value` a line.
    pub fn settings(&self, current: &Weights) -> String {
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

    /// The settings checked before anything runs.
    ///
    /// # Errors
    /// [`RoundError::Setting`] naming the first one out of range.
    pub fn check(&self) -> Result<(), RoundError> {
        let fail = |e| Err(RoundError::Setting(e));
        if self.label.variant == Variant::TicTacToe {
            return fail("tic-tac-toe is searched to the end and has no evaluation to train");
        }
        if self.label.wthor.is_some() && self.label.variant != Variant::Othello {
            return fail("WTHOR games are standard Othello; leave out --wthor");
        }
        if self.shards == 0 || self.positions == 0 {
            return fail("--shards and --positions must be at least 1");
        }
        if self.games < 2 || self.concurrency == 0 || self.threads == 0 {
            return fail("--games must be at least 2, --concurrency and --threads 1");
        }
        if self.sprt.elo0 >= self.sprt.elo1 {
            return fail("the gate's SPRT needs elo0 < elo1");
        }
        Ok(())
    }
}

/// Runs the round as far as `config.until`, continuing what its directory
/// holds; `stop` ends the gate early (its pairs are kept); `on` hears the
/// [`Event`]s.
///
/// # Errors
/// [`RoundError`] when a step cannot run or was interrupted.
pub fn run(
    config: &RoundConfig,
    stop: &Arc<AtomicBool>,
    on: &mut (dyn FnMut(Event) + Send),
) -> Result<Outcome, RoundError> {
    config.check()?;
    let current =
        load_weights(config.current.as_deref(), config.label.variant).map_err(RoundError::Files)?;
    fs::create_dir_all(&config.dir).map_err(|e| RoundError::Io(config.dir.clone(), e))?;
    check_settings(&config.dir, &config.settings(&current))?;
    label(config, &current, on)?;
    if config.until == Step::Label {
        return Ok(Outcome::Labelled);
    }
    let candidate = config.dir.join("candidate.bin");
    if !candidate.exists() {
        fit(config, &candidate, on)?;
    }
    if config.until == Step::Fit {
        return Ok(Outcome::Fitted(candidate));
    }
    let gate = gate(config, &candidate, stop, on)?;
    let accepted = gate.state == SprtState::AcceptH1;
    if accepted && let Some(install) = &config.install {
        fs::copy(&candidate, install).map_err(|e| RoundError::Io(install.clone(), e))?;
        on(Event::Installed(install));
    }
    let report = report(config, &gate);
    let path = config.dir.join("report.md");
    write_whole(&path, report.as_bytes()).map_err(|e| RoundError::Io(path, e))?;
    Ok(Outcome::Gated { accepted, report })
}

/// Writes `text` to `path` whole or not at all (through a file beside it).
fn write_whole(path: &Path, text: &[u8]) -> io::Result<()> {
    let part = path.with_extension("part");
    fs::write(&part, text)?;
    fs::rename(&part, path)
}

/// Keeps the round's settings in `DIR/round.txt`: the first run writes them,
/// a later run must give the same.
fn check_settings(dir: &Path, settings: &str) -> Result<(), RoundError> {
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
            Err(RoundError::OtherSettings(format!(
                "{}: this round was started with {differs}; give another --dir for other settings",
                path.display()
            )))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            write_whole(&path, settings.as_bytes()).map_err(|e| RoundError::Io(path, e))
        }
        Err(e) => Err(RoundError::Io(path, e)),
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

/// Step 1: writes or continues every shard.
fn label(
    config: &RoundConfig,
    current: &Arc<Weights>,
    on: &mut (dyn FnMut(Event) + Send),
) -> Result<(), RoundError> {
    for i in 0..config.shards {
        let path = config.shard_path(i);
        let gen_config = config.label.config(
            (i, config.shards),
            config.positions,
            Arc::clone(current),
            config.threads,
        );
        let report = generate::run(&gen_config, &path, &mut |p| {
            on(Event::Labelling {
                shard: i,
                shards: config.shards,
                positions: p.positions.min(p.target),
                target: p.target,
                games: p.blocks,
            });
        })
        .map_err(|e| RoundError::Label(e.to_string()))?;
        on(Event::Labelled(i));
        if report.positions > 0 {
            log_cpu(&config.dir, "label", report.seconds, config.threads);
        }
    }
    Ok(())
}

/// Step 2: fits the candidate from the shards, starting from the current
/// weights; writes `candidate.bin` and the held-out table.
fn fit(
    config: &RoundConfig,
    candidate: &Path,
    on: &mut (dyn FnMut(Event) + Send),
) -> Result<(), RoundError> {
    let started = Instant::now();
    let part = candidate.with_extension("part");
    let files = FitFiles {
        shards: (0..config.shards).map(|i| config.shard_path(i)).collect(),
        databases: Vec::new(),
        database_games: None,
        out: part.clone(),
        // The WTHOR games are in the shards, labelled by search: their
        // results as labels made the fit worse (docs/training.md).
        wthor: None,
        wthor_games: None,
        exact_every: 0,
        test_every: config.test_every,
        shard_weight: 1.0,
        value_weight: 0.0,
        epochs: config.epochs,
        ridge: config.ridge,
        threads: config.threads,
        baseline: config.current.clone(),
        origin: Some(
            config
                .current
                .clone()
                .map_or(WeightsSource::Builtin, WeightsSource::File),
        ),
    };
    let fitted = fit_files(&files, &mut |p| on(Event::Fit(p))).map_err(RoundError::Files)?;
    let table = format!("{}\n{}", fitted.report, fitted.held_out);
    let table_path = config.dir.join("fit.txt");
    write_whole(&table_path, table.as_bytes())
        .and_then(|()| fs::rename(&part, candidate))
        .map_err(|e| RoundError::Io(config.dir.clone(), e))?;
    log_cpu(
        &config.dir,
        "fit",
        started.elapsed().as_secs_f64(),
        config.threads,
    );
    Ok(())
}

/// Where the gate stands.
#[derive(Clone, Debug)]
pub struct Gate {
    /// The candidate's pairs.
    pub pairs: Pentanomial,
    /// The test's decision on them.
    pub state: SprtState,
    /// Its log-likelihood ratio.
    pub llr: f64,
}

/// The finished pairs in `DIR/gate.txt`: `pair P: POINTS` a line, the
/// candidate's points of the two games. A line cut off by a kill is ignored.
pub fn finished_pairs(path: &Path) -> HashMap<usize, f64> {
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
fn gate(
    config: &RoundConfig,
    candidate: &Path,
    stop: &Arc<AtomicBool>,
    on: &mut (dyn FnMut(Event) + Send),
) -> Result<Gate, RoundError> {
    let path = config.dir.join("gate.txt");
    let done = finished_pairs(&path);
    let mut pairs = Pentanomial::default();
    for &points in done.values() {
        pairs.add(points);
    }
    let llr = config.sprt.llr(&pairs);
    let state = config.sprt.state(llr);
    let total = config.games / 2;
    let remaining: Vec<usize> = (0..total).filter(|p| !done.contains_key(p)).collect();
    if state != SprtState::Continue || remaining.is_empty() {
        return Ok(Gate { pairs, state, llr });
    }
    let spec = |name: &str, weights: Option<&Path>| {
        let mut args = vec!["ugi".to_string()];
        if let Some(w) = weights {
            args.extend(["--weights".to_string(), w.display().to_string()]);
        }
        EngineSpec {
            name: name.to_string(),
            program: config.program.display().to_string(),
            args,
            protocol: Protocol::Ugi,
            options: vec![("OwnBook".to_string(), "false".to_string())],
            ponder: false,
        }
    };
    let (text, name) = openings::builtin(config.label.variant);
    let all = openings::parse(text, config.label.variant)
        .map_err(|e| RoundError::Openings(format!("{name}: {e}")))?;
    let match_config = MatchConfig {
        engines: [
            spec("candidate", Some(candidate)),
            spec("current", config.current.as_deref()),
        ],
        variant: config.label.variant,
        openings: remaining
            .iter()
            .map(|&p| all[p % all.len()].clone())
            .collect(),
        games: remaining.len() * 2,
        time: config.tc,
        margin: Duration::from_millis(50),
        silence: Duration::from_secs(10),
        concurrency: config.concurrency,
        sprt: None,
    };
    // The kept pairs, written afresh: a line cut off by a kill is dropped
    // rather than continued.
    let kept: String = (0..total)
        .filter_map(|p| done.get(&p).map(|points| format!("pair {p}: {points}\n")))
        .collect();
    let mut file = write_whole(&path, kept.as_bytes())
        .and_then(|()| OpenOptions::new().append(true).open(&path))
        .map_err(|e| RoundError::Io(path.clone(), e))?;
    let mut ggf = OpenOptions::new()
        .create(true)
        .append(true)
        .open(config.dir.join("gate.ggf"))
        .ok();
    on(Event::GateStarted {
        left: remaining.len(),
        total,
    });
    let started = Instant::now();
    let date = ggf_date(SystemTime::now());
    let mut open: HashMap<usize, f64> = HashMap::new();
    let mut decided = false;
    let mut write_error = None;
    let outcome = run_match(&match_config, Arc::clone(stop), |result, _| {
        let names = ["candidate", "current"];
        if let Some(g) = ggf.as_mut() {
            let record = result.played.ggf(
                names[result.by_colour[0]],
                names[result.by_colour[1]],
                &match_config.time,
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
        let llr = config.sprt.llr(&pairs);
        on(Event::Pair {
            pair,
            points: sum,
            pairs: &pairs,
            llr,
        });
        if config.sprt.state(llr) != SprtState::Continue {
            decided = true;
            stop.store(true, Ordering::Relaxed);
        }
    });
    log_cpu(
        &config.dir,
        "gate",
        started.elapsed().as_secs_f64(),
        config.concurrency,
    );
    if let Some(e) = write_error {
        return Err(RoundError::Io(path, e));
    }
    match outcome {
        Ok((_, Ending::Interrupted)) if !decided => Err(RoundError::Interrupted(pairs.pairs())),
        Ok(_) => {
            let llr = config.sprt.llr(&pairs);
            Ok(Gate {
                pairs,
                state: config.sprt.state(llr),
                llr,
            })
        }
        Err(e) => Err(RoundError::Match(format!("the gate's match: {e}"))),
    }
}

/// Positions, exact labels and games in the round's shards.
fn shard_totals(config: &RoundConfig) -> (usize, usize, usize) {
    let (mut positions, mut exact, mut games) = (0, 0, 0);
    for i in 0..config.shards {
        for block in generate::read(&config.shard_path(i)).unwrap_or_default() {
            games += 1;
            positions += block.records.len();
            exact += block.records.iter().filter(|r| r.exact).count();
        }
    }
    (positions, exact, games)
}

/// The round's figures: what went in, what came out, and the verdict.
fn report(config: &RoundConfig, gate: &Gate) -> String {
    let (positions, exact, games) = shard_totals(config);
    let cpu = cpu_by_step(&config.dir);
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
        config.dir.display(),
        fs::read_to_string(config.dir.join("round.txt")).unwrap_or_default()
    );
    let _ = writeln!(
        text,
        "| step | result | CPU-hours |\n|---|---|---|\n\
         | label | {positions} positions ({exact} exact) of {games} games in {} shards | {:.2} |\n\
         | fit | candidate.bin, held-out errors below | {:.2} |\n\
         | gate | pairs {:?} (0 to 2 points), Elo {elo}, LLR {:.2}: {verdict} | {:.2} |\n",
        config.shards,
        hours("label"),
        hours("fit"),
        gate.pairs.0,
        gate.llr,
        hours("gate"),
    );
    text += &fs::read_to_string(config.dir.join("fit.txt")).unwrap_or_default();
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

    fn tiny(dir: &Path) -> RoundConfig {
        RoundConfig {
            label: LabelSettings {
                variant: Variant::Reversed,
                seed: 7,
                exact_empties: 8,
                depth: 2,
                random_min: 4,
                random_max: 8,
                play_depth: 1,
                wthor: None,
                wthor_share: 0,
            },
            dir: dir.to_path_buf(),
            current: None,
            shards: 2,
            positions: 60,
            test_every: 4,
            epochs: 2,
            ridge: 16.0,
            tc: "movetime=10".parse().unwrap(),
            games: 4,
            sprt: "elo0=0,elo1=20".parse().unwrap(),
            concurrency: 1,
            threads: 1,
            install: None,
            until: Step::Fit,
            program: PathBuf::from("orca-is-not-run-before-the-gate"),
        }
    }

    #[test]
    fn a_round_labels_and_fits_without_the_command_line_and_keeps_its_settings() {
        let dir = tempfile::tempdir().unwrap();
        let config = tiny(dir.path());
        let stop = Arc::new(AtomicBool::new(false));
        let mut labelled = Vec::new();
        let mut stages = 0;
        let outcome = run(&config, &stop, &mut |event| match event {
            Event::Labelled(shard) => labelled.push(shard),
            Event::Fit(Progress::Stage(..)) => stages += 1,
            _ => {}
        })
        .unwrap();
        let candidate = dir.path().join("candidate.bin");
        assert_eq!(outcome, Outcome::Fitted(candidate.clone()));
        assert_eq!(labelled, [0, 1]);
        assert!(stages > 0);
        let weights = Weights::load(&candidate).unwrap();
        assert_eq!(weights.variant, Variant::Reversed);
        assert!(
            fs::read_to_string(dir.path().join("fit.txt"))
                .unwrap()
                .contains("held-out")
        );

        // Run again: everything is there, nothing is redone.
        let before = fs::read(&candidate).unwrap();
        let mut events = 0;
        run(&config, &stop, &mut |event| {
            if matches!(event, Event::Fit(_)) {
                events += 1;
            }
        })
        .unwrap();
        assert_eq!((events, fs::read(&candidate).unwrap()), (0, before));

        // Other settings in the same directory are refused.
        let other = RoundConfig {
            epochs: 3,
            ..config.clone()
        };
        let refused = run(&other, &stop, &mut |_| {}).unwrap_err();
        assert_eq!(refused.status(), 2);
        assert!(
            refused.to_string().contains("epochs=2, not epochs=3"),
            "{refused}"
        );

        let bad = RoundConfig {
            shards: 0,
            ..config
        };
        assert!(matches!(bad.check(), Err(RoundError::Setting(_))));
    }
}
