//! `orca train round` in miniature, and the batch systems' manifests in
//! `deploy/` run task by task as Kubernetes and Slurm would run them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use orca::eval::trained::Weights;

/// Small, fast labelling settings: self-play only, so the fit reads no WTHOR.
const LABEL_FLAGS: &str = "--variant othello --depth 3 --exact-empties 10 --play-depth 2 --seed 7";
/// A two-game gate at a short time a move, and a short fit.
const ROUND_FLAGS: &str = "--games 2 --tc movetime=10 --epochs 3";

/// A fresh directory, removed with its files when dropped.
fn temp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// Runs a command; its exit status, stdout and stderr.
fn output(command: &mut Command) -> (i32, String, String) {
    let out = command.output().expect("run the command");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `orca train round` with the small settings and `extra` arguments.
fn round(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["train", "round"];
    args.extend(LABEL_FLAGS.split(' '));
    args.extend(["--shards", "3", "--positions", "120", "--dir"]);
    args.push(dir.to_str().unwrap());
    args.extend(extra);
    output(Command::new(env!("CARGO_BIN_EXE_orca")).args(&args))
}

fn shard(dir: &Path, i: u32) -> Vec<u8> {
    std::fs::read(dir.join(format!("shard-{i}-of-3.shard"))).unwrap()
}

/// The one labelling run on one machine that each manifest's tasks must equal.
fn single_machine() -> tempfile::TempDir {
    let tmp = temp();
    let (code, _, err) = round(tmp.path(), &["--until", "label"]);
    assert_eq!(code, 0, "{err}");
    tmp
}

/// A directory whose `orca` is the binary under test, first on a PATH.
/// The directory is removed when the one returned is dropped.
fn path_with_orca() -> (tempfile::TempDir, String) {
    let bin = temp();
    #[cfg(unix)]
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_orca"), bin.path().join("orca")).unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (bin, path)
}

/// The variables the small round overrides in every manifest.
fn overrides(round_dir: &Path) -> HashMap<String, String> {
    HashMap::from([
        ("LABEL_FLAGS".to_string(), LABEL_FLAGS.to_string()),
        ("SHARDS".to_string(), "3".to_string()),
        ("POSITIONS".to_string(), "120".to_string()),
        ("ROUND_DIR".to_string(), round_dir.display().to_string()),
        ("ROUND_FLAGS".to_string(), ROUND_FLAGS.to_string()),
    ])
}

/// A Kubernetes manifest's container: its `env` (name, value) pairs and the
/// shell command of its `args` (a folded `>-` block, joined by spaces).
fn container(manifest: &str) -> (HashMap<String, String>, String) {
    let lines: Vec<&str> = manifest.lines().collect();
    let mut env = HashMap::new();
    for pair in lines.windows(2) {
        if let (Some(name), Some(value)) = (
            pair[0].trim().strip_prefix("- name: "),
            pair[1].trim().strip_prefix("value: "),
        ) {
            env.insert(name.to_string(), value.trim_matches('"').to_string());
        }
    }
    let start = lines
        .iter()
        .position(|l| l.trim() == "- >-")
        .expect("a folded command block");
    let indent = |l: &str| l.len() - l.trim_start().len();
    let command = lines[start + 1..]
        .iter()
        .take_while(|l| indent(l) > indent(lines[start]))
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join(" ");
    (env, command)
}

fn deploy(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("deploy")
        .join(file)
}

fn value_after(text: &str, key: &str) -> String {
    text.lines()
        .find_map(|l| l.trim().strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key}"))
        .trim()
        .to_string()
}

#[test]
fn a_round_runs_whole_and_continues_where_it_stopped() {
    let tmp = temp();
    let dir = tmp.path();
    let (code, out, err) = round(dir, ROUND_FLAGS.split(' ').collect::<Vec<_>>().as_slice());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("| label |"), "{out}");
    assert!(out.contains("| gate | pairs"), "{out}");
    assert!(out.contains("held-out shard positions"), "{out}");
    assert_eq!(std::fs::read_to_string(dir.join("report.md")).unwrap(), out);
    Weights::load(&dir.join("candidate.bin")).unwrap();
    let gate = std::fs::read_to_string(dir.join("gate.txt")).unwrap();
    assert_eq!(gate.lines().count(), 1, "{gate}");
    let games = |dir: &Path| {
        std::fs::read_to_string(dir.join("gate.ggf"))
            .unwrap()
            .lines()
            .count()
    };
    assert_eq!(games(dir), 2);

    // Run again: every step's result is there, nothing is redone.
    let candidate = std::fs::read(dir.join("candidate.bin")).unwrap();
    let (code, again, err) = round(dir, ROUND_FLAGS.split(' ').collect::<Vec<_>>().as_slice());
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, out);
    assert_eq!(games(dir), 2);
    assert_eq!(std::fs::read(dir.join("candidate.bin")).unwrap(), candidate);

    // A gate cut off before its pair was written plays that pair again.
    std::fs::write(dir.join("gate.txt"), "pair 0: 1").unwrap();
    let (code, _, err) = round(dir, ROUND_FLAGS.split(' ').collect::<Vec<_>>().as_slice());
    assert_eq!(code, 0, "{err}");
    assert_eq!(games(dir), 4);
    let gate = std::fs::read_to_string(dir.join("gate.txt")).unwrap();
    assert!(
        gate.ends_with('\n') && gate.starts_with("pair 0: "),
        "{gate}"
    );
    assert_eq!(gate.lines().count(), 1, "{gate}");

    // Other settings in the same directory are refused in one line.
    let (code, _, err) = round(
        dir,
        &["--games", "4", "--tc", "movetime=10", "--epochs", "3"],
    );
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("games=2, not games=4"), "{err}");
}

#[test]
fn a_fit_from_the_current_weights_is_reproducible() {
    let a_dir = temp();
    let a = a_dir.path();
    let b_dir = temp();
    let b = b_dir.path();
    for (dir, threads) in [(&a, "1"), (&b, "2")] {
        let (code, _, err) = round(
            dir,
            &["--epochs", "3", "--until", "fit", "--threads", threads],
        );
        assert_eq!(code, 0, "{err}");
    }
    assert_eq!(
        std::fs::read(a.join("candidate.bin")).unwrap(),
        std::fs::read(b.join("candidate.bin")).unwrap()
    );
    for i in 0..3 {
        assert_eq!(shard(a, i), shard(b, i));
    }
}

/// A small round run as a batch system would run it: a working directory,
/// the round's directory in it, `orca` on the PATH, and the shards one
/// machine makes to compare with.
struct Cluster {
    work: PathBuf,
    round_dir: PathBuf,
    path: String,
    single: PathBuf,
    /// The directories above, removed with the cluster.
    _dirs: [tempfile::TempDir; 3],
}

impl Cluster {
    fn new() -> Cluster {
        let work = temp();
        let (bin, path) = path_with_orca();
        let single = single_machine();
        Cluster {
            round_dir: work.path().join("round"),
            path,
            single: single.path().to_path_buf(),
            work: work.path().to_path_buf(),
            _dirs: [work, bin, single],
        }
    }

    /// Runs one task's command with the small round's variables; its
    /// stdout and stderr, after checking it succeeded.
    fn run(&self, what: &str, command: &mut Command) -> (String, String) {
        let (code, out, err) = output(
            command
                .current_dir(&self.work)
                .envs(overrides(&self.round_dir))
                .env("PATH", &self.path),
        );
        assert_eq!(code, 0, "{what}: {err}");
        (out, err)
    }

    /// The tasks' shards are those of one machine, byte for byte.
    fn check_shards(&self) {
        for i in 0..3 {
            assert_eq!(
                shard(&self.round_dir, i),
                shard(&self.single, i),
                "shard {i}"
            );
        }
    }
}

#[test]
fn kubernetes_tasks_make_the_single_machine_shards() {
    let cluster = Cluster::new();
    let label = std::fs::read_to_string(deploy("kubernetes/label.yaml")).unwrap();
    let (env, command) = container(&label);
    // The manifest's own numbers agree: one task per shard.
    assert_eq!(value_after(&label, "completions:"), env["SHARDS"]);
    assert!(command.contains("$JOB_COMPLETION_INDEX"), "{command}");
    for index in 0..3 {
        cluster.run(
            &format!("task {index}"),
            Command::new("sh")
                .args(["-c", &command])
                .envs(&env)
                .env("JOB_COMPLETION_INDEX", index.to_string()),
        );
    }
    cluster.check_shards();
    // The round's Job finds the shards made and fits and gates. (The
    // manifest's variables come first, the small round's override them.)
    let (env, command) =
        container(&std::fs::read_to_string(deploy("kubernetes/round.yaml")).unwrap());
    assert_eq!(env["SHARDS"], "16");
    let (out, err) = cluster.run(
        "the round",
        Command::new("sh").args(["-c", &command]).envs(&env),
    );
    assert!(out.contains("| gate | pairs"), "{out}");
    assert!(!err.contains("labelling shard"), "{err}");
}

#[test]
fn slurm_array_tasks_make_the_single_machine_shards() {
    let cluster = Cluster::new();
    let script = deploy("slurm/label.sbatch");
    let text = std::fs::read_to_string(&script).unwrap();
    assert_eq!(value_after(&text, "#SBATCH --array="), "0-15");
    for index in 0..3 {
        cluster.run(
            &format!("task {index}"),
            Command::new("bash")
                .arg(&script)
                .env("SLURM_ARRAY_TASK_ID", index.to_string())
                .env("SLURM_ARRAY_TASK_COUNT", "3"),
        );
    }
    cluster.check_shards();
    let script = deploy("slurm/round.sbatch");
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.contains("SHARDS:-16"), "{text}");
    let (out, err) = cluster.run("the round", Command::new("bash").arg(&script));
    assert!(out.contains("| gate | pairs"), "{out}");
    assert!(!err.contains("labelling shard"), "{err}");
}

/// Small self-play settings: chunks of two games, played fast.
const SELFPLAY_FLAGS: &str =
    "--variant othello --depth 2 --solve-empties 8 --chunk-games 2 --seed 3";

/// Every file of a database directory, by name.
fn database(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn selfplay_manifests_make_the_single_machine_database() {
    // One machine: the chunks 1 to 4 (games 2 to 9) of the small set.
    let single_dir = temp();
    let single = single_dir.path();
    let mut args: Vec<&str> = vec!["selfplay"];
    args.extend(SELFPLAY_FLAGS.split(' '));
    args.extend(["--games", "10", "--first-chunk", "1", "--out"]);
    args.push(single.to_str().unwrap());
    let (code, out, err) = output(Command::new(env!("CARGO_BIN_EXE_orca")).args(&args));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("0 games before, 8 made"), "{out}");
    let expected = database(single);
    let names: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
    // Each chunk with its values beside it.
    assert_eq!(names.len(), 9, "{names:?}");
    for (pair, chunk) in names[..8].chunks(2).zip(1..) {
        assert!(pair[0].ends_with(&format!("-{chunk:04}.val")), "{names:?}");
        assert!(pair[1].ends_with(&format!("-{chunk:04}.wtb")), "{names:?}");
    }
    assert_eq!(names[8], "sets.txt");

    let (_bin, path) = path_with_orca();
    let overrides = |db: &Path| {
        HashMap::from([
            ("SELFPLAY_FLAGS".to_string(), SELFPLAY_FLAGS.to_string()),
            ("SHARDS".to_string(), "3".to_string()),
            ("GAMES".to_string(), "10".to_string()),
            ("FIRST_CHUNK".to_string(), "1".to_string()),
            ("DB_DIR".to_string(), db.display().to_string()),
        ])
    };
    let run = |what: &str, db: &Path, command: &mut Command| {
        let (code, _, err) = output(command.envs(overrides(db)).env("PATH", &path));
        assert_eq!(code, 0, "{what}: {err}");
    };

    let manifest = std::fs::read_to_string(deploy("kubernetes/selfplay.yaml")).unwrap();
    let (env, command) = container(&manifest);
    assert_eq!(value_after(&manifest, "completions:"), env["SHARDS"]);
    let db_dir = temp();
    let db = db_dir.path();
    for index in 0..3 {
        run(
            &format!("task {index}"),
            db,
            Command::new("sh")
                .args(["-c", &command])
                .envs(&env)
                .env("JOB_COMPLETION_INDEX", index.to_string()),
        );
    }
    assert_eq!(database(db), expected);

    let script = deploy("slurm/selfplay.sbatch");
    let text = std::fs::read_to_string(&script).unwrap();
    assert_eq!(value_after(&text, "#SBATCH --array="), "0-15");
    let db_dir = temp();
    let db = db_dir.path();
    for index in 0..3 {
        run(
            &format!("task {index}"),
            db,
            Command::new("bash")
                .arg(&script)
                .env("SLURM_ARRAY_TASK_ID", index.to_string())
                .env("SLURM_ARRAY_TASK_COUNT", "3"),
        );
    }
    assert_eq!(database(db), expected);
}

#[test]
fn selfplay_refuses_what_it_cannot_play() {
    let tmp = temp();
    let dir = tmp.path();
    let out = dir.to_str().unwrap();
    let (code, _, err) = output(Command::new(env!("CARGO_BIN_EXE_orca")).args([
        "selfplay",
        "--variant",
        "tictactoe",
        "--out",
        out,
    ]));
    assert_eq!(code, 2);
    assert!(err.contains("tic-tac-toe"), "{err}");
    let (code, _, err) = output(
        Command::new(env!("CARGO_BIN_EXE_orca"))
            .args(["selfplay", "--depth", "0", "--games", "1", "--out", out]),
    );
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("depth goes from 1"), "{err}");
}
