//! `orca match` as a user runs it: real engine processes over pipes, the
//! progress on stderr, the summary on stdout, the GGF file checked by replaying
//! every game with Orca's rules. Misbehaving engines are the small script
//! `tests/engines/fake_engine.py`, which speaks all three protocols.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use orca::game::Variant;
use orca::ggf::GgfGame;

const ORCA: &str = env!("CARGO_BIN_EXE_orca");

fn fake() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines/fake_engine.py")
        .display()
        .to_string()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("orca-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `orca match` with these engines and extra arguments; returns the
/// output and the games of the GGF file.
fn run_match(dir: &Path, engines: [&str; 2], extra: &[&str]) -> (Output, Vec<GgfGame>) {
    let ggf = dir.join("games.ggf");
    let output = Command::new(ORCA)
        .arg("match")
        .args(["--engine", engines[0], "--engine", engines[1]])
        .args(["--ggf", ggf.to_str().unwrap()])
        .args(extra)
        .stdin(Stdio::null())
        .output()
        .expect("run orca match");
    let games = std::fs::read_to_string(&ggf)
        .unwrap_or_default()
        .lines()
        .map(|l| l.parse().expect("every line is a GGF record"))
        .collect();
    (output, games)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every game replays legally; a game ended by the rules has the result its
/// final position gives.
fn check_records(games: &[GgfGame], variant: Variant) {
    for g in games {
        assert_eq!(g.variant(), variant);
        let end = g.position().expect("every recorded move is legal");
        let re = g.property("RE").unwrap();
        if re.contains(':') {
            assert!(g.property("GC").is_some(), "a forfeit says why: {g}");
        } else {
            assert!(end.is_over(), "{g}");
            assert_eq!(re, format!("{:+}.000", end.black_score().unwrap()));
        }
    }
}

/// A two-game match between two Orcas speaking `proto` at 30 ms a move.
fn orca_against_orca(proto: &str) {
    let dir = scratch(proto);
    let engine = |name: &str| match proto {
        "ugi" => format!("name={name} cmd={ORCA} proto=ugi option.Hash=16"),
        _ => format!("name={name} cmd={ORCA} {proto} --hash 16 proto={proto}"),
    };
    let (output, games) = run_match(
        &dir,
        [&engine("A"), &engine("B")],
        &["--games", "2", "--tc", "movetime=30"],
    );
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("2 of 2 games played"), "{stdout}");
    assert!(stdout.contains("Losses on time: A 0, B 0"), "{stdout}");
    assert!(stdout.contains("in 1 pairs"), "{stdout}");
    assert!(!stdout.contains("Other losses"), "{stdout}");
    assert!(stderr.contains("Game 2/2"), "{stderr}");
    assert_eq!(games.len(), 2);
    check_records(&games, Variant::Othello);
    // Colours swap within the pair; both games start with the same opening.
    assert_eq!(games[0].property("PB"), Some("A"));
    assert_eq!(games[1].property("PB"), Some("B"));
    assert_eq!(games[0].moves[..8], games[1].moves[..8]);
    assert!(
        games
            .iter()
            .all(|g| g.property("RE").is_some_and(|r| !r.contains(':')))
    );
    // The engines' own moves carry their time, within the move time and margin.
    for g in &games {
        for m in &g.moves[8..] {
            assert!(
                m.seconds.is_some_and(|t| t <= 0.08) || m.mv == orca::game::Move::Pass,
                "{g}"
            );
        }
    }
}

#[test]
fn ugi_match_between_two_orcas() {
    orca_against_orca("ugi");
}

#[test]
fn gtp_match_between_two_orcas() {
    orca_against_orca("gtp");
}

#[test]
fn nboard_match_between_two_orcas() {
    orca_against_orca("nboard");
}

#[test]
fn reversed_clock_match_in_every_protocol() {
    let dir = scratch("reversed");
    let fake = fake();
    for proto in ["ugi", "gtp", "nboard"] {
        let orca = match proto {
            "ugi" => format!("name=Orca cmd={ORCA} option.Hash=16"),
            _ => format!("name=Orca cmd={ORCA} {proto} --hash 16 proto={proto}"),
        };
        let fake = format!("name=Fake cmd={fake} {proto} proto={proto}");
        let (output, games) = run_match(
            &dir,
            [&orca, &fake],
            &["--games", "2", "--variant", "reversed", "--tc", "1+0.02"],
        );
        let stdout = text(&output.stdout);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{proto}: {stdout}{}",
            text(&output.stderr)
        );
        assert!(stdout.contains("2 of 2 games played"), "{proto}: {stdout}");
        assert!(
            stdout.contains("Losses on time: Orca 0, Fake 0"),
            "{proto}: {stdout}"
        );
        assert!(!stdout.contains("Other losses"), "{proto}: {stdout}");
        check_records(&games, Variant::Reversed);
        assert!(
            games
                .iter()
                .all(|g| g.property("TI") == Some("0:01/0:00.02"))
        );
    }
}

/// Runs a short match against a misbehaving fake engine and returns the summary.
fn broken(proto: &str, mode: &str) -> String {
    let dir = scratch(&format!("{proto}-{mode}"));
    let fake = fake();
    let good = format!("name=Good cmd={fake} {proto} proto={proto}");
    let bad = format!("name=Bad cmd={fake} {proto} {mode} 3 proto={proto}");
    let started = Instant::now();
    let (output, games) = run_match(
        &dir,
        [&good, &bad],
        &["--games", "2", "--tc", "movetime=20", "--timeout", "500ms"],
    );
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{proto} {mode}: {stdout}");
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{proto} {mode}"
    );
    assert_eq!(games.len(), 2, "{proto} {mode}: the match went on");
    check_records(&games, Variant::Othello);
    for g in &games {
        // Bad lost each game at its third move, after the opening's eight.
        assert!(g.property("GC").unwrap().starts_with("Bad "), "{g}");
        let expected = if g.property("PB") == Some("Bad") {
            "-64"
        } else {
            "+64"
        };
        assert!(g.property("RE").unwrap().starts_with(expected), "{g}");
    }
    assert!(
        stdout.contains("Good: 2 wins, 0 draws, 0 losses"),
        "{stdout}"
    );
    stdout
}

fn broken_engines_are_adjudicated(proto: &str) {
    let s = broken(proto, "illegal");
    assert!(
        s.contains("Other losses by adjudication, Bad: 2 illegal move"),
        "{s}"
    );
    let s = broken(proto, "sleep");
    assert!(s.contains("Losses on time: Good 0, Bad 2"), "{s}");
    let s = broken(proto, "crash");
    assert!(s.contains("Bad: 2 crash"), "{s}");
    let s = broken(proto, "silent");
    assert!(s.contains("Bad: 2 silence"), "{s}");
}

#[test]
fn broken_ugi_engines_are_adjudicated() {
    broken_engines_are_adjudicated("ugi");
}

#[test]
fn broken_gtp_engines_are_adjudicated() {
    broken_engines_are_adjudicated("gtp");
}

#[test]
fn broken_nboard_engines_are_adjudicated() {
    broken_engines_are_adjudicated("nboard");
}

#[test]
fn an_engine_that_will_not_start_stops_the_match_at_once() {
    let dir = scratch("missing");
    let (output, games) = run_match(
        &dir,
        [
            "name=A cmd=/nonexistent/engine",
            &format!("name=B cmd={ORCA}"),
        ],
        &["--games", "2"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("cannot start '/nonexistent/engine'"));
    assert!(games.is_empty());
}

#[test]
fn bad_arguments_are_refused() {
    for (args, why) in [
        (vec!["--engine", "cmd=x"], "exactly two --engine"),
        (
            vec!["--engine", "cmd=x", "--engine", "cmd=x"],
            "different name",
        ),
        (
            vec!["--engine", "name=A", "--engine", "cmd=y"],
            "missing cmd",
        ),
        (
            vec![
                "--engine",
                "cmd=x",
                "--engine",
                "cmd=y",
                "--variant",
                "tictactoe",
            ],
            "othello or reversed",
        ),
        (
            vec!["--engine", "cmd=x", "--engine", "cmd=y", "--tc", "fast"],
            "time control",
        ),
        (
            vec![
                "--engine",
                "cmd=x",
                "--engine",
                "cmd=y",
                "--sprt",
                "elo0=5,elo1=1",
            ],
            "greater than elo0",
        ),
    ] {
        let output = Command::new(ORCA)
            .arg("match")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            text(&output.stderr).contains(why),
            "{args:?}: {}",
            text(&output.stderr)
        );
    }
}

#[test]
fn gtp_engines_need_move_list_openings() {
    let dir = scratch("gtp-obf");
    let openings = dir.join("positions.obf");
    std::fs::write(
        &openings,
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\n",
    )
    .unwrap();
    let fake = fake();
    let (output, _) = run_match(
        &dir,
        [
            &format!("name=A cmd={fake} gtp proto=gtp"),
            &format!("name=B cmd={fake} ugi"),
        ],
        &["--openings", openings.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("GTP, which cannot set up a position"));
    // The same positions are fine between UGI and NBoard engines.
    let (output, games) = run_match(
        &dir,
        [
            &format!("name=A cmd={fake} nboard proto=nboard"),
            &format!("name=B cmd={fake} ugi"),
        ],
        &[
            "--openings",
            openings.to_str().unwrap(),
            "--games",
            "2",
            "--tc",
            "movetime=20",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    check_records(&games, Variant::Othello);
    assert_eq!(
        games[0].start.to_string(),
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
    );
}

#[test]
fn sprt_stops_a_decided_match() {
    let dir = scratch("sprt");
    let fake = fake();
    // The fake engine plays the first legal move; Orca at 20 ms beats it
    // every time, so a test of 0 against 400 Elo decides after five pairs.
    let (output, games) = run_match(
        &dir,
        [
            &format!("name=Orca cmd={ORCA} option.Hash=16"),
            &format!("name=Fake cmd={fake} ugi"),
        ],
        &[
            "--games",
            "40",
            "--tc",
            "movetime=20",
            "--sprt",
            "elo0=0,elo1=400",
        ],
    );
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("stopped by the SPRT after 10 (H1 accepted)"),
        "{stdout}"
    );
    assert!(stdout.contains("[0, 0, 0, 0, 5] in 5 pairs"), "{stdout}");
    assert_eq!(games.len(), 10);
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_match_and_every_engine() {
    let dir = scratch("ctrl-c");
    let fake = fake();
    let pid = |n: &str| dir.join(format!("{n}.pid"));
    let spec = |n: &str| {
        format!(
            "name={n} cmd={fake} ugi sleep 1 --pidfile {} proto=ugi",
            pid(n).display()
        )
    };
    let ggf = dir.join("games.ggf");
    let child = Command::new(ORCA)
        .arg("match")
        .args(["--engine", &spec("A"), "--engine", &spec("B")])
        .args([
            "--tc",
            "movetime=10000",
            "--concurrency",
            "2",
            "--games",
            "4",
        ])
        .args(["--ggf", ggf.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until both workers run both engines (each process adds its pid
    // to its engine's file), then press Ctrl-C.
    let pids = || -> Vec<String> {
        ["A", "B"]
            .iter()
            .flat_map(|n| {
                let text = std::fs::read_to_string(pid(n)).unwrap_or_default();
                text.split_whitespace()
                    .map(String::from)
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while pids().len() < 4 {
        assert!(Instant::now() < deadline, "the engines did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let pids = pids();
    let interrupted = Instant::now();
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    assert!(interrupted.elapsed() < Duration::from_secs(3));
    assert_eq!(output.status.code(), Some(130));
    assert!(
        text(&output.stdout).contains("interrupted"),
        "{}",
        text(&output.stdout)
    );
    for p in pids {
        let alive = Command::new("kill")
            .args(["-0", p.trim()])
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success();
        assert!(!alive, "engine {p} outlived the match");
    }
}

#[test]
fn openings_command_reproduces_the_shipped_file() {
    let output = Command::new(ORCA)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["openings", "--wthor", "data/wthor", "--plies", "8"])
        .args(["--max-abs-score", "2", "--min-games", "2"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let made = text(&output.stdout);
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("data/openings/balanced-8.txt"),
    )
    .unwrap();
    let without_command = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with("# Made with:"))
            .map(String::from)
            .collect()
    };
    assert_eq!(without_command(&made), without_command(&shipped));
    assert!(made.lines().filter(|l| !l.starts_with('#')).count() > 100);
}
