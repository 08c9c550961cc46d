//! `orca match` as a user runs it: real engine processes over pipes, the
//! progress on stderr, the summary on stdout, the GGF file checked by replaying
//! every game with Orca's rules. Misbehaving engines are the small program
//! `orca-fake-engine` (`tests/engines/fake_engine.rs`), which speaks all three
//! protocols.
//!
//! The tests hold on a busy machine: an engine that must be on time gets a
//! margin of seconds ([`SURE`]), one that must be late is late by a minute.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use orca::game::Variant;
use orca::ggf::GgfGame;

const ORCA: &str = env!("CARGO_BIN_EXE_orca");

/// A `--margin` no engine that answers misses, however busy the machine.
const SURE: &str = "5s";

fn fake() -> String {
    env!("CARGO_BIN_EXE_orca-fake-engine").to_string()
}

/// A fresh directory for one test's files.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
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

/// A two-game match between two Orcas speaking `proto` at 30 ms a move (and
/// seconds of margin: losing on time is not what is tested).
fn orca_against_orca(proto: &str) {
    let tmp = scratch();
    let dir = tmp.path();
    let engine = |name: &str| match proto {
        "ugi" => format!("name={name} cmd={ORCA} proto=ugi option.Hash=16"),
        _ => format!("name={name} cmd={ORCA} {proto} --hash 16 proto={proto}"),
    };
    let (output, games) = run_match(
        dir,
        [&engine("A"), &engine("B")],
        &["--games", "2", "--tc", "movetime=30", "--margin", SURE],
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
                m.seconds.is_some_and(|t| (0.0..=5.03).contains(&t))
                    || m.mv == orca::game::Move::Pass,
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

/// `ponder=on`: after each move the engine ponders on the reply it expects
/// (`go ponder`), then gets `ponderhit` when it came (or `stop`); the games
/// are played out as usual, nobody on time. The engine without it is never
/// asked to ponder. Each engine's input is kept by `tee`.
#[cfg(unix)]
#[test]
fn ugi_match_with_pondering() {
    let tmp = scratch();
    let dir = tmp.path();
    let engine = |name: &str, ponder: &str| {
        let log = dir.join(format!("{name}.in"));
        format!(
            "name={name} cmd=/bin/sh -c \"tee '{}' | '{ORCA}'\" proto=ugi option.Hash=16 ponder={ponder}",
            log.display()
        )
    };
    let (output, games) = run_match(
        dir,
        [&engine("P", "on"), &engine("N", "off")],
        &["--games", "2", "--tc", "movetime=30", "--margin", SURE],
    );
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("2 of 2 games played"), "{stdout}");
    assert!(stdout.contains("Losses on time: P 0, N 0"), "{stdout}");
    check_records(&games, Variant::Othello);
    let input = |name: &str| std::fs::read_to_string(dir.join(format!("{name}.in"))).unwrap();
    let pondering = input("P");
    assert!(
        pondering
            .lines()
            .any(|l| l.starts_with("go ponder movetime 30")),
        "{pondering}"
    );
    assert!(pondering.lines().any(|l| l == "ponderhit"), "{pondering}");
    assert!(!input("N").contains("ponder"));
    // Every ponder search ended in a ponderhit or a stop (or the game's end).
    let starts = pondering
        .lines()
        .filter(|l| l.starts_with("go ponder"))
        .count();
    let ends = pondering
        .lines()
        .filter(|l| *l == "ponderhit" || *l == "stop")
        .count();
    assert!(
        ends <= starts && starts <= ends + 2,
        "{starts} ponders, {ends} ends"
    );
}

/// `option.Level=1` makes Orca weak enough to lose: against full strength
/// it loses nearly every game (it plays legal moves throughout).
#[test]
fn level_1_loses_to_full_strength() {
    let tmp = scratch();
    let dir = tmp.path();
    let (output, games) = run_match(
        dir,
        [
            &format!("name=Weak cmd={ORCA} proto=ugi option.Hash=16 option.Level=1"),
            &format!("name=Full cmd={ORCA} proto=ugi option.Hash=16"),
        ],
        &["--games", "6", "--tc", "movetime=30", "--margin", SURE],
    );
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("6 of 6 games played"), "{stdout}");
    assert!(!stdout.contains("Other losses"), "{stdout}");
    check_records(&games, Variant::Othello);
    let weak_wins = games
        .iter()
        .filter(|g| {
            let black = g.position().unwrap().black_score().unwrap();
            let weak_is_black = g.property("PB") == Some("Weak");
            (black > 0 && weak_is_black) || (black < 0 && !weak_is_black)
        })
        .count();
    assert!(weak_wins <= 1, "level 1 won {weak_wins} of 6: {stdout}");
}

#[test]
fn reversed_clock_match_in_every_protocol() {
    let tmp = scratch();
    let dir = tmp.path();
    let fake = fake();
    for proto in ["ugi", "gtp", "nboard"] {
        let orca = match proto {
            "ugi" => format!("name=Orca cmd={ORCA} option.Hash=16"),
            _ => format!("name=Orca cmd={ORCA} {proto} --hash 16 proto={proto}"),
        };
        let fake = format!("name=Fake cmd={fake} {proto} proto={proto}");
        let (output, games) = run_match(
            dir,
            [&orca, &fake],
            &[
                "--games",
                "2",
                "--variant",
                "reversed",
                "--tc",
                "1+0.02",
                "--margin",
                SURE,
            ],
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
        // Without --openings a reversed match plays the reversed set.
        assert!(
            text(&output.stderr).contains("data/openings/reversed-6.txt (built in)"),
            "{proto}: {}",
            text(&output.stderr)
        );
        let first = orca::referee::openings::builtin(Variant::Reversed)
            .0
            .lines()
            .find(|l| !l.starts_with('#'))
            .and_then(|l| l.split_whitespace().next())
            .unwrap();
        for game in &games {
            let played: String = game
                .moves
                .iter()
                .take(6)
                .map(|m| m.mv.to_string())
                .collect();
            assert_eq!(played, first, "{proto}");
        }
    }
}

/// Runs a short match against a misbehaving fake engine and returns the
/// summary and the games. The good engine answers at once, with seconds to
/// spare; a late one is a minute late.
fn broken(proto: &str, mode: &str) -> (String, Vec<GgfGame>) {
    let tmp = scratch();
    let dir = tmp.path();
    let fake = fake();
    let good = format!("name=Good cmd={fake} {proto} proto={proto}");
    let bad = format!("name=Bad cmd={fake} {proto} {mode} 3 proto={proto}");
    let started = Instant::now();
    let (output, games) = run_match(
        dir,
        [&good, &bad],
        &[
            "--games",
            "2",
            "--tc",
            "movetime=500",
            "--margin",
            "2s",
            "--timeout",
            "3s",
        ],
    );
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{proto} {mode}: {stdout}");
    // The referee never waits for the minute a sleeping engine takes.
    assert!(
        started.elapsed() < Duration::from_secs(50),
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
    (stdout, games)
}

fn broken_engines_are_adjudicated(proto: &str) {
    let (s, _) = broken(proto, "illegal");
    assert!(
        s.contains("Other losses by adjudication, Bad: 2 illegal move"),
        "{s}"
    );
    let (s, _) = broken(proto, "sleep");
    assert!(s.contains("Losses on time: Good 0, Bad 2"), "{s}");
    let (s, _) = broken(proto, "crash");
    assert!(s.contains("Bad: 2 crash"), "{s}");
    let (s, _) = broken(proto, "silent");
    assert!(s.contains("Bad: 2 silence"), "{s}");
    // An answer that is not UTF-8 breaks the protocol; it is no loss on time.
    let (s, games) = broken(proto, "garbled");
    assert!(s.contains("Losses on time: Good 0, Bad 0"), "{s}");
    assert!(
        s.contains("Other losses by adjudication, Bad: 2 protocol"),
        "{s}"
    );
    for g in &games {
        assert_eq!(
            g.property("GC"),
            Some("Bad protocol error: wrote a line that is not UTF-8"),
            "{g}"
        );
    }
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
    let tmp = scratch();
    let dir = tmp.path();
    let (output, games) = run_match(
        dir,
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
    let tmp = scratch();
    let dir = tmp.path();
    let openings = dir.join("positions.obf");
    std::fs::write(
        &openings,
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\n",
    )
    .unwrap();
    let fake = fake();
    let (output, _) = run_match(
        dir,
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
        dir,
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
            "--margin",
            SURE,
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
    let tmp = scratch();
    let dir = tmp.path();
    let fake = fake();
    // The fake engine plays the first legal move; Orca at 20 ms beats it
    // every time, so a test of 0 against 400 Elo decides after five pairs.
    let (output, games) = run_match(
        dir,
        [
            &format!("name=Orca cmd={ORCA} option.Hash=16"),
            &format!("name=Fake cmd={fake} ugi"),
        ],
        &[
            "--games",
            "40",
            "--tc",
            "movetime=20",
            "--margin",
            SURE,
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

/// An engine command that is a shell script, as users wrap engines: it starts
/// the fake engine (with `args`) without `exec`, and a `sleep 1000` in the
/// background besides. The shell, the sleep and the engine add their pids to
/// the file [`pids`] reads.
#[cfg(target_os = "linux")]
fn wrapped(dir: &Path, name: &str, args: &str, proto: &str) -> String {
    let script = dir.join(format!("{name}.sh"));
    let pids = dir.join(format!("{name}.pids"));
    let body = format!(
        "echo $$ >> '{pids}'\nsleep 1000 &\necho $! >> '{pids}'\n'{fake}' {args} --pidfile '{pids}'\n",
        pids = pids.display(),
        fake = fake()
    );
    std::fs::write(&script, body).unwrap();
    // Run by sh rather than executed: a script just written can be "busy" for
    // a moment while another test thread forks.
    format!("name={name} cmd=/bin/sh {} proto={proto}", script.display())
}

/// The pids the wrapped engine `name` wrote so far.
#[cfg(target_os = "linux")]
fn pids(dir: &Path, name: &str) -> Vec<u32> {
    std::fs::read_to_string(dir.join(format!("{name}.pids")))
        .unwrap_or_default()
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect()
}

/// Whether a process is gone: no such process, or a zombie (dead, left for
/// its new parent to reap).
#[cfg(target_os = "linux")]
fn gone(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with(['Z', 'X']))
    })
}

/// Asserts that every process in `pids` is gone, allowing a few seconds for
/// the kills to land. Survivors are killed before the test fails, so that no
/// run leaves processes behind.
#[cfg(target_os = "linux")]
fn assert_all_gone(pids: &[u32]) {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut left = pids.to_vec();
    loop {
        left.retain(|&p| !gone(p));
        if left.is_empty() || Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    for p in &left {
        let _ = Command::new("kill")
            .args(["-KILL", &p.to_string()])
            .status();
    }
    assert!(left.is_empty(), "processes outlived the match: {left:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn wrapped_engines_leave_no_process_behind() {
    let tmp = scratch();
    let dir = tmp.path();
    // A hangs (neither quit nor the end of its input ends it); B plays an
    // illegal move in every game, so it is ended and started afresh mid-match.
    let a = wrapped(dir, "A", "ugi hang", "ugi");
    let b = wrapped(dir, "B", "nboard illegal 2", "nboard");
    let (output, games) = run_match(
        dir,
        [&a, &b],
        &["--games", "2", "--tc", "movetime=500", "--margin", SURE],
    );
    let stdout = text(&output.stdout);
    let all: Vec<u32> = pids(dir, "A").into_iter().chain(pids(dir, "B")).collect();
    assert_all_gone(&all);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("B: 2 illegal move"), "{stdout}");
    assert_eq!(games.len(), 2);
    // Three processes for each start: A once, B for each game.
    assert_eq!(pids(dir, "A").len(), 3);
    assert_eq!(pids(dir, "B").len(), 6);
}

#[cfg(target_os = "linux")]
#[test]
fn an_engine_failing_at_start_leaves_no_process_behind() {
    let tmp = scratch();
    let dir = tmp.path();
    // The wrapped engine speaks GTP, so it never answers `ugi`.
    let a = wrapped(dir, "A", "gtp", "ugi");
    let b = format!("name=B cmd={} ugi", fake());
    let (output, games) = run_match(dir, [&a, &b], &["--timeout", "1s"]);
    assert_all_gone(&pids(dir, "A"));
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("no ugiok"),
        "{}",
        text(&output.stderr)
    );
    assert!(games.is_empty());
    assert_eq!(pids(dir, "A").len(), 3);
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_the_match_and_every_engine() {
    let tmp = scratch();
    let dir = tmp.path();
    // Wrapped engines that sleep a minute over their first move.
    let spec = |n: &str| wrapped(dir, n, "ugi sleep 1", "ugi");
    let ggf = dir.join("games.ggf");
    let child = Command::new(ORCA)
        .arg("match")
        .args(["--engine", &spec("A"), "--engine", &spec("B")])
        .args([
            "--tc",
            "movetime=60000",
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
    // Wait until both workers run both engines (three pids for each start),
    // then press Ctrl-C.
    let all = || -> Vec<u32> { pids(dir, "A").into_iter().chain(pids(dir, "B")).collect() };
    let deadline = Instant::now() + Duration::from_secs(20);
    while all().len() < 12 {
        if Instant::now() >= deadline {
            assert_all_gone(&all());
            panic!("the engines did not start");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let interrupted = Instant::now();
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    assert_all_gone(&all());
    // Without Ctrl-C the match would wait a minute for the first move.
    assert!(interrupted.elapsed() < Duration::from_secs(20));
    assert_eq!(output.status.code(), Some(130));
    assert!(
        text(&output.stdout).contains("interrupted"),
        "{}",
        text(&output.stdout)
    );
}

#[test]
fn reversed_openings_are_searched_balanced_and_sorted() {
    let output = Command::new(ORCA)
        .args(["openings", "--variant", "reversed", "--plies", "4"])
        .args(["--depth", "4", "--max-abs-score", "3", "--hash", "16"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let made = text(&output.stdout);
    assert!(made.contains("# Made with: orca openings --variant reversed --plies 4 --depth 4"));
    let values: Vec<f64> = made
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let moves = l.split_whitespace().next().unwrap();
            assert_eq!(moves.len(), 8, "{l}");
            l.split("value").nth(1).unwrap().trim().parse().unwrap()
        })
        .collect();
    assert!(values.len() > 5, "{made}");
    assert!(values.iter().all(|v| v.abs() <= 3.0));
    assert!(
        values.windows(2).all(|w| w[0].abs() <= w[1].abs()),
        "{made}"
    );
    // The file reads back as openings of the game.
    let openings = orca::referee::openings::parse(&made, Variant::Reversed).unwrap();
    assert_eq!(openings.len(), values.len());
    // Tic-tac-toe has none.
    let output = Command::new(ORCA)
        .args(["openings", "--variant", "tictactoe"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
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
