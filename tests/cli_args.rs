//! The command line as a user meets it: flags checked before any work starts,
//! one time syntax, options only where they apply, clear errors.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use orca::game::Variant;
use orca::train::TrainConfig;

/// Runs `orca` with `input` on stdin: the exit status, stdout and stderr.
fn orca_with(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_orca"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run orca");
    let mut stdin = child.stdin.take().unwrap();
    // An engine that refuses its arguments never reads: ignore a closed pipe.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().expect("orca ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn orca(args: &[&str]) -> (i32, String, String) {
    orca_with(args, "")
}

/// A fresh directory for this test's files.
fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn path_text(path: &std::path::Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn every_time_flag_reads_the_same_syntax() {
    let tmp = temp_dir();
    let dir = tmp.path();
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    for (time, seconds) in [
        ("1500", "1.5"),
        ("1500ms", "1.5"),
        ("1.5s", "1.5"),
        ("1m", "60"),
    ] {
        // The front ends answer, so their flags were taken.
        for flag in ["--movetime", "--move-overhead"] {
            // The overhead is at most 5 s.
            let time = if flag == "--move-overhead" {
                "1.5s"
            } else {
                time
            };
            let (code, out, err) = orca_with(&["gtp", flag, time], "name\nquit\n");
            assert_eq!(code, 0, "gtp {flag} {time}: {err}");
            assert!(out.starts_with("= Orca"), "gtp {flag} {time}: {out}");
        }
        let (code, out, err) =
            orca_with(&["nboard", "--move-overhead", "1.5s"], "nboard 2\nping 1\n");
        assert_eq!(code, 0, "nboard --move-overhead: {err}");
        assert!(out.contains("pong 1"), "{out}");
        // A game left at once: Orca's thinking time is read back.
        let (code, out, err) = orca_with(&["play", "--movetime", time], "quit\n");
        assert_eq!(code, 0, "play --movetime {time}: {err}");
        assert!(
            out.contains(&format!("thinking {seconds} s a move")),
            "{out}"
        );
        // The match reads its times, then finds no opening.
        let tc = format!("movetime={time}");
        let (code, _, err) = orca(&[
            "match",
            "--engine",
            "cmd=x",
            "--engine",
            "cmd=y",
            "--openings",
            path_text(&empty),
            "--tc",
            &tc,
            "--margin",
            time,
            "--timeout",
            time,
        ]);
        assert_eq!(code, 2);
        assert!(err.contains("no opening"), "match with {time}: {err}");
        // Values are read before the help is printed.
        let (code, _, err) = orca(&["bench", "timing", "--movetime", time, "--help"]);
        assert_eq!(code, 0, "bench timing --movetime {time}: {err}");
    }
    // A bare number is milliseconds in `orca play` as everywhere.
    let (code, out, _) = orca_with(&["play", "--movetime", "250"], "quit\n");
    assert_eq!(code, 0);
    assert!(out.contains("thinking 0.25 s a move"), "{out}");
    // The same refusal, whichever the command.
    let refused: [&[&str]; 4] = [
        &["gtp", "--movetime", "2h"],
        &["play", "--movetime", "2h"],
        &["bench", "timing", "--movetime", "2h"],
        &[
            "match",
            "--engine",
            "cmd=x",
            "--engine",
            "cmd=y",
            "--timeout",
            "2h",
        ],
    ];
    for args in refused {
        let (code, _, err) = orca(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(
            err.contains("'2h' is not a time like 500"),
            "{args:?}: {err}"
        );
    }
    let (code, _, err) = orca(&["gtp", "--movetime", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("out of range: from 1ms to 3600s"), "{err}");
}

#[test]
fn evaluation_flags_only_where_something_is_evaluated() {
    let weights = "/nonexistent/weights.bin";
    let misplaced: [&[&str]; 6] = [
        &["perft", "1", "--eval", "handmade"],
        &[
            "match", "--engine", "cmd=x", "--engine", "cmd=y", "--eval", "handmade",
        ],
        &["bench", "timing", "--eval", "handmade"],
        &["bench", "--eval", "handmade", "timing"],
        &["train", "--out", "x.bin", "--eval", "handmade"],
        &["--eval", "handmade", "perft", "1"],
    ];
    for args in misplaced {
        let (code, _, err) = orca(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("unexpected argument") || err.contains("cannot be used with"),
            "{args:?}: {err}"
        );
    }
    let help = |command: &[&str]| orca(&[command, &["--help"]].concat()).1;
    let without: [&[&str]; 4] = [&["perft"], &["match"], &["bench", "timing"], &["train"]];
    for command in without {
        let out = help(command);
        assert!(!out.contains("--eval"), "{command:?}: {out}");
        assert!(!out.contains("--weights"), "{command:?}: {out}");
    }
    // `openings` evaluates only when it searches (--depth, reversed).
    let (code, _, err) = orca(&["openings", "--weights", weights]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("give --depth"), "{err}");
    let with: [&[&str]; 8] = [
        &["openings"],
        &[],
        &["ugi"],
        &["nboard"],
        &["gtp"],
        &["play"],
        &["solve"],
        &["bench"],
    ];
    for command in with {
        let out = help(command);
        assert!(out.contains("--eval"), "{command:?}: {out}");
        assert!(out.contains("--weights"), "{command:?}: {out}");
    }
    // Accuracy compares the two evaluations: other trained weights, yes.
    let out = help(&["bench", "accuracy"]);
    assert!(!out.contains("--eval"), "{out}");
    assert!(out.contains("--weights"), "{out}");
    // Where they apply they are read, and a bad file is refused (status 1).
    let read: [&[&str]; 3] = [&["ugi"], &["gtp"], &["bench", "--depth", "1"]];
    for command in read {
        let (code, _, err) = orca(&[command, &["--weights", weights]].concat());
        assert_eq!(code, 1, "{command:?}: {err}");
        assert!(err.contains("cannot read the weights file"), "{err}");
    }
    let (code, out, _) = orca_with(&["--eval", "handmade"], "ugi\nquit\n");
    assert_eq!(code, 0);
    assert!(out.contains("ugiok"), "{out}");
}

#[test]
fn train_help_prints_the_default_numbers() {
    let (code, out, _) = orca(&["train", "--help"]);
    assert_eq!(code, 0);
    assert!(!out.contains("full training's number"), "{out}");
    let othello = TrainConfig::full(Variant::Othello, PathBuf::new());
    let reversed = TrainConfig::full(Variant::Reversed, PathBuf::new());
    let selfplay = format!(
        "[default: othello {}, reversed {}]",
        othello.selfplay_games, reversed.selfplay_games
    );
    let shared = [
        ("--exact-empties", othello.line.exact_empties.to_string()),
        ("--depth", othello.line.depth.to_string()),
        ("--epochs", othello.fit.epochs.to_string()),
        ("--seed", othello.seed.to_string()),
        ("--threads", othello.threads.to_string()),
    ];
    let line = |flag: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(&format!("{flag} ")))
            .unwrap_or_else(|| panic!("no {flag} in {out}"))
            .to_string()
    };
    assert!(line("--selfplay").contains(&selfplay), "{out}");
    for (flag, value) in shared {
        assert!(
            line(flag).contains(&format!("[default: {value}]")),
            "{flag}: {out}"
        );
    }
    for flag in ["--exact-every", "--deep-every", "--deep-empties", "--games"] {
        assert!(line(flag).contains("[default: "), "{flag}: {out}");
    }
}

#[test]
fn train_writes_only_where_it_is_told() {
    // Run where a relative weights/ would land in a scratch directory, so that
    // a regression cannot touch the committed files.
    let tmp = temp_dir();
    let dir = tmp.path();
    let out = Command::new(env!("CARGO_BIN_EXE_orca"))
        .args(["train", "--variant", "reversed", "--selfplay", "2"])
        .args(["--exact-empties", "6", "--depth", "1", "--epochs", "1"])
        .current_dir(dir)
        .output()
        .expect("run orca");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--out <FILE>"), "{err}");
    assert!(!dir.join("weights").exists());
}

#[test]
fn bench_accuracy_says_how_long_and_how_far() {
    let (code, out, _) = orca(&["bench", "accuracy", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("minutes"), "{out}");
    assert!(out.contains("Progress goes to stderr"), "{out}");
    // A short run: the FFO positions only, searched one ply deep.
    let (code, out, err) = orca(&["bench", "accuracy", "--extra", "0", "--depths", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("FFO #20-59 with 24-30 empties"), "{out}");
    for evaluation in ["handmade", "trained"] {
        assert!(
            err.contains(&format!(
                "at depths [1] at 73% with the {evaluation} evaluation"
            )),
            "{err}"
        );
    }
}

/// The table: a set, selectivities compared, one evaluation; one
/// row per depth and selectivity.
#[test]
fn bench_accuracy_compares_selectivities_on_a_set() {
    let (code, out, err) = orca(&[
        "bench",
        "accuracy",
        "--set",
        "hard20",
        "--first",
        "3",
        "--depths",
        "4,2",
        "--selectivity",
        "73,100",
        "--only",
        "trained",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "3 positions of 20 empties, hard-20 (data/obf/hard-20.obf), the first 3 of 276"
        ),
        "{out}"
    );
    let rows: Vec<Vec<&str>> = out
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| depth"))
        .map(|l| {
            l.split('|')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect();
    let keys: Vec<(&str, &str, &str)> = rows.iter().map(|r| (r[0], r[1], r[2])).collect();
    assert_eq!(
        keys,
        [
            ("2", "73%", "trained"),
            ("2", "100%", "trained"),
            ("4", "73%", "trained"),
            ("4", "100%", "trained"),
        ],
        "{out}"
    );
    for row in &rows {
        assert!(row[3].ends_with("/3)"), "{row:?}");
        assert_eq!(row.len(), 8, "{row:?}");
    }
    let (code, out, err) = orca(&[
        "bench", "accuracy", "--set", "ffo40-59", "--depths", "1", "--only", "handmade",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("20 positions of 20-34 empties, FFO #40-59"),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.contains("| handmade |")).count(),
        1,
        "{out}"
    );
    // Self-play positions belong to the default set; levels are the UGI ones.
    for bad in [
        &["--set", "hard20", "--extra", "3"][..],
        &["--set", "ffo40-59", "--seed", "1"],
        &["--selectivity", "80"],
        &["--set", "ffo1-19"],
        &["--only", "random"],
        &["--depths", "0"],
    ] {
        let (code, _, err) = orca(&[&["bench", "accuracy"], bad].concat());
        assert_eq!(code, 2, "{bad:?}: {err}");
    }
}

#[test]
fn solving_an_empty_file_is_an_error() {
    let tmp = temp_dir();
    let dir = tmp.path();
    let empty = dir.join("empty.obf");
    std::fs::write(&empty, "\n\n").unwrap();
    let (code, out, err) = orca(&["solve", path_text(&empty)]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains(&format!("{}: no position in the file", empty.display())),
        "{err}"
    );
    assert!(!out.contains("total"), "{out}");
}

#[test]
fn an_empty_openings_file_is_named() {
    let tmp = temp_dir();
    let dir = tmp.path();
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# only a comment\n").unwrap();
    let (code, _, err) = orca(&[
        "match",
        "--engine",
        "cmd=x",
        "--engine",
        "cmd=y",
        "--openings",
        path_text(&empty),
    ]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        format!("orca match: {}: no opening in the file", empty.display())
    );
}

#[test]
fn an_unwritable_save_file_is_refused_before_the_game() {
    let tmp = temp_dir();
    let dir = tmp.path();
    let missing = dir.join("no-such-dir").join("g.ggf");
    let (code, out, err) = orca_with(
        &["play", "--depth", "1", "--save", path_text(&missing)],
        "f5\nquit\n",
    );
    assert_eq!(code, 2, "{out}");
    assert!(err.contains(&missing.display().to_string()), "{err}");
    assert!(err.contains("No such file or directory"), "{err}");
    assert!(out.is_empty(), "no game is played: {out}");
    // A directory is no file either.
    let (code, _, err) = orca_with(&["play", "--save", path_text(dir)], "quit\n");
    assert_eq!(code, 2, "{err}");
    // A good path is only checked: no file is left unless a game is saved.
    let good = dir.join("g.ggf");
    let (code, _, _) = orca_with(&["play", "--save", path_text(&good)], "quit\n");
    assert_eq!(code, 0);
    assert!(!good.exists());
}

/// The `Hash` range `orca ugi` advertises.
fn advertised_hash_range() -> (u64, u64) {
    let (_, out, _) = orca_with(&["ugi"], "ugi\nquit\n");
    let line = out
        .lines()
        .find(|l| l.starts_with("option name Hash "))
        .unwrap_or_else(|| panic!("no Hash option: {out}"));
    let word = |key: &str| -> u64 {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == key).unwrap();
        words[at + 1].parse().unwrap()
    };
    (word("min"), word("max"))
}

#[test]
fn hash_is_checked_everywhere_against_the_ugi_range() {
    let (min, max) = advertised_hash_range();
    let range = format!("is not in {min}..={max}");
    let commands: [&[&str]; 4] = [
        &["solve", "data/obf/fforum-1-19.obf"],
        &["bench"],
        &["gtp"],
        &["nboard"],
    ];
    for command in commands {
        for bad in [min - 1, max + 1, 100_000] {
            let bad = bad.to_string();
            let (code, _, err) = orca(&[command, &["--hash", &bad]].concat());
            assert_eq!(code, 2, "{command:?} --hash {bad}: {err}");
            assert!(err.contains(&range), "{command:?} --hash {bad}: {err}");
        }
    }
    // The smallest table is a table.
    let min = min.to_string();
    let (code, out, err) = orca_with(&["gtp", "--hash", &min], "name\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("= Orca"), "{out}");
    let (code, out, err) = orca(&["bench", "--depth", "1", "--hash", &min]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Bench:"), "{out}");
}

/// `--selectivity` takes the levels of the UGI `Selectivity` option, in
/// every command that plays.
/// `--threads` takes the range of the UGI `Threads` option in every command
/// that plays, and a game with two threads is played through GTP.
#[test]
fn threads_take_the_ugi_range() {
    for command in ["gtp", "nboard", "play"] {
        for bad in ["0", "257", "x"] {
            let (code, _, err) = orca(&[command, "--threads", bad]);
            assert_eq!(code, 2, "{command} --threads {bad}: {err}");
        }
    }
    let (code, out, err) = orca_with(
        &["gtp", "--threads", "2", "--movetime", "30"],
        "genmove b\ngenmove w\ngenmove b\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    let answers: Vec<&str> = out.lines().filter(|l| l.starts_with('=')).collect();
    assert_eq!(answers.len(), 4, "{out}");
    let moves: Vec<&str> = answers[..3].iter().map(|l| l[1..].trim()).collect();
    let position = orca::game::AnyPosition::start(Variant::Othello);
    assert!(
        position.play_line(moves.iter().copied()).is_ok(),
        "{moves:?}"
    );
}

#[test]
fn selectivity_is_checked_against_the_ugi_levels() {
    let (_, out, _) = orca_with(&["ugi"], "ugi\nquit\n");
    assert!(
        out.contains(
            "option name Selectivity type combo default 73 var 73 var 87 var 95 var 99 var 100"
        ),
        "{out}"
    );
    for command in ["gtp", "nboard", "play"] {
        for bad in ["0", "80", "101", "+73", "x"] {
            let (code, _, err) = orca(&[command, "--selectivity", bad]);
            assert_eq!(code, 2, "{command} --selectivity {bad}: {err}");
            assert!(
                err.contains("expected one of 73, 87, 95, 99, 100"),
                "{command} --selectivity {bad}: {err}"
            );
        }
    }
    for good in ["73", "100"] {
        let (code, out, err) = orca_with(&["gtp", "--selectivity", good], "name\nquit\n");
        assert_eq!(code, 0, "{err}");
        assert!(out.starts_with("= Orca"), "{out}");
    }
}

/// `--jobs` and `--threads` of `orca solve` take 1 to 256 each, and jobs
/// (as many as there are positions at most) times threads at most 256.
#[test]
fn solve_jobs_and_threads_are_bounded() {
    for flag in ["--jobs", "--threads"] {
        for bad in ["0", "257", "100000"] {
            let (code, _, err) = orca(&["solve", "data/obf/fforum-1-19.obf", flag, bad]);
            assert_eq!(code, 2, "{flag} {bad}: {err}");
            assert!(err.contains("is not in 1..=256"), "{flag} {bad}: {err}");
        }
    }
    let (code, out, err) = orca(&[
        "solve",
        "data/obf/fforum-1-19.obf",
        "--jobs",
        "19",
        "--threads",
        "16",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("--jobs 19 times --threads 16 is more than 256 threads"),
        "{err}"
    );
}

/// The peak resident memory of `orca` with these arguments, in kB.
#[cfg(target_os = "linux")]
// The child is reaped by `wait4`, which `clippy` does not know.
#[allow(clippy::zombie_processes)]
fn peak_memory_kb(args: &[&str]) -> libc::c_long {
    let child = Command::new(env!("CARGO_BIN_EXE_orca"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run orca");
    let mut status: libc::c_int = 0;
    // SAFETY: all-zero bytes are a valid `rusage`.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child (not reaped elsewhere) and writes only
    // into the two local values.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4");
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    usage.ru_maxrss
}

#[cfg(target_os = "linux")]
#[test]
fn idle_solve_threads_hold_no_table() {
    let tmp = temp_dir();
    let dir = tmp.path();
    let one = dir.join("one.obf");
    let file = std::fs::read_to_string("data/obf/fforum-1-19.obf").unwrap();
    std::fs::write(&one, file.lines().next().unwrap()).unwrap();
    // One position: one thread and one 16 MB table, not 64 of each (a GB:
    // before, the peak was 76 to 750 MB, as the idle threads overlapped).
    let args = ["solve", path_text(&one), "--jobs", "64", "--hash", "16"];
    let peak = peak_memory_kb(&args);
    assert!(peak < 200 * 1024, "peak {peak} kB");
    let (code, _, err) = orca(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--jobs 64 capped at 1, the number of positions"),
        "{err}"
    );
}

#[test]
fn bench_timing_measures_something() {
    for flag in ["--searches", "--stops"] {
        let (code, _, err) = orca(&["bench", "timing", flag, "0"]);
        assert_eq!(code, 2, "{flag} 0: {err}");
        assert!(err.contains("0 is not in 1.."), "{flag} 0: {err}");
    }
}
