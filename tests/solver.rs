//! The exact endgame solver against the FFO suite and the `hard-20` set, under
//! symmetries, and through `orca solve` and the engine.

mod common;

use std::process::Command;

use orca::eval::Evaluators;
use orca::game::{Board, Variant};
use orca::obf::{self, ObfProblem};
use orca::search::TranspositionTable;
use orca::solve::{SolveMode, solve};

fn problems(name: &str) -> Vec<ObfProblem> {
    let path = format!("{}/data/obf/{name}.obf", env!("CARGO_MANIFEST_DIR"));
    obf::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn check_best(problems: &[ObfProblem]) {
    let evals = Evaluators::default();
    let mut tt = TranspositionTable::new(64);
    for (i, p) in problems.iter().enumerate() {
        tt.clear();
        let board = p.position.state().0;
        let s = solve(
            board,
            Variant::Othello,
            &evals,
            &mut tt,
            SolveMode::Exact,
            false,
        );
        assert_eq!(Some(s.score), p.best_score(), "problem {} ({p})", i + 1);
        let best = s.best.expect("a best move");
        assert_eq!(
            p.score_of(best),
            p.best_score(),
            "problem {}: {best} is not best",
            i + 1
        );
    }
}

#[test]
fn ffo_1_to_19_exact() {
    check_best(&problems("fforum-1-19"));
}

#[test]
#[cfg_attr(debug_assertions, ignore = "needs a release build")]
fn ffo_20_to_39_exact() {
    check_best(&problems("fforum-20-39"));
}

fn check_all_moves(problems: &[ObfProblem]) {
    let evals = Evaluators::default();
    let mut tt = TranspositionTable::new(32);
    for p in problems {
        tt.clear();
        let board = p.position.state().0;
        let s = solve(
            board,
            Variant::Othello,
            &evals,
            &mut tt,
            SolveMode::Exact,
            true,
        );
        let mut got = s.move_scores.clone();
        let mut want = p.scores.clone();
        got.sort_by_key(|&(m, _)| m.code());
        want.sort_by_key(|&(m, _)| m.code());
        assert_eq!(got, want, "{p}");
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "needs a release build")]
fn hard_20_sample_all_moves() {
    let all = problems("hard-20");
    let sample: Vec<ObfProblem> = all.iter().step_by(55).cloned().collect();
    assert_eq!(sample.len(), 6);
    check_all_moves(&sample);
}

#[test]
#[ignore = "all 276 positions take minutes; run with --ignored"]
fn hard_20_all_moves() {
    check_all_moves(&problems("hard-20"));
}

#[test]
fn symmetries_leave_the_solution_unchanged() {
    let evals = Evaluators::default();
    let mut tt = TranspositionTable::new(16);
    for p in problems("fforum-1-19").iter().take(4) {
        let board = p.position.state().0;
        for s in 0..8 {
            tt.clear();
            let image: Board = board.symmetry(s);
            let solution = solve(
                image,
                Variant::Othello,
                &evals,
                &mut tt,
                SolveMode::Exact,
                true,
            );
            assert_eq!(Some(solution.score), p.best_score(), "symmetry {s} of {p}");
            for &(mv, score) in &p.scores {
                let mapped = mv.symmetry(s);
                let got = solution
                    .move_scores
                    .iter()
                    .find(|(m, _)| *m == mapped)
                    .map(|&(_, v)| v);
                assert_eq!(got, Some(score), "symmetry {s}, move {mv}");
            }
        }
    }
}

#[test]
fn win_draw_loss_agrees_with_the_exact_scores() {
    let evals = Evaluators::default();
    let mut tt = TranspositionTable::new(16);
    for p in problems("fforum-1-19").iter().take(6) {
        tt.clear();
        let s = solve(
            p.position.state().0,
            Variant::Othello,
            &evals,
            &mut tt,
            SolveMode::WinDrawLoss,
            false,
        );
        assert_eq!(Some(s.score), p.best_score().map(i32::signum), "{p}");
    }
}

fn orca(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_orca"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn orca_solve_prints_the_table_and_checks_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let good = dir.join("good.obf");
    let lines: Vec<String> = problems("fforum-1-19")
        .iter()
        .take(3)
        .map(|p| p.to_string())
        .collect();
    std::fs::write(&good, lines.join("\n")).unwrap();
    let (code, out) = orca(&["solve", good.to_str().unwrap(), "--hash", "16"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("  1 |      14 |   G8 |   +18 |"), "{out}");
    assert!(out.contains("total: 3 positions, 0 wrong"), "{out}");
    let (code, out) = orca(&[
        "solve",
        good.to_str().unwrap(),
        "--hash",
        "16",
        "--all-moves",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("all moves: G8:+18 H1:+12"), "{out}");

    // A file with a wrong score is reported, with a non-zero status.
    let bad = dir.join("bad.obf");
    std::fs::write(&bad, lines[0].replace("G8:+18", "G8:+20")).unwrap();
    let (code, out) = orca(&["solve", bad.to_str().unwrap(), "--hash", "16"]);
    assert_eq!(code, 1);
    assert!(out.contains("WRONG"), "{out}");
    let (code, out) = orca(&[
        "solve",
        good.to_str().unwrap(),
        "--hash",
        "16",
        "--wld",
        "--jobs",
        "2",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("|    +1 |"), "{out}");
}

#[test]
fn the_engine_solves_exactly_inside_go() {
    // FFO #1: 14 empties, best G8 = +18.
    let p = &problems("fforum-1-19")[0];
    let mut e = common::Orca::ugi();
    e.send(&format!("position fen {}", p.position));
    // The search ends as soon as it is exact: the long move time only keeps
    // a busy machine from cutting the solve short.
    e.send("go movetime 60000");
    let lines = e.until("bestmove");
    let exact = lines
        .iter()
        .find(|l| l.starts_with("info") && l.contains(" exact"))
        .unwrap_or_else(|| panic!("no exact info line: {lines:?}"));
    assert!(exact.contains("score disc 18 exact"), "{exact}");
    let best = lines.last().unwrap();
    assert!(
        best == "bestmove g8" || best.starts_with("bestmove g8 ponder "),
        "{best}"
    );
}

/// `orca solve --threads 2` and `--threads 4` (one search of several threads
/// a position; with `--jobs 2` once): FFO #1-39 and the `hard-20` sample,
/// every move's score of the sample too, all as the files say.
#[test]
#[cfg_attr(debug_assertions, ignore = "needs a release build")]
fn parallel_solves_agree_with_the_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let sample = dir.join("hard-20-sample.obf");
    let lines: Vec<String> = problems("hard-20")
        .iter()
        .step_by(55)
        .map(|p| p.to_string())
        .collect();
    std::fs::write(&sample, lines.join("\n")).unwrap();
    let ffo = |name: &str| format!("{}/data/obf/{name}.obf", env!("CARGO_MANIFEST_DIR"));
    let runs = [
        (ffo("fforum-1-19"), 19, &["--jobs", "2"][..]),
        (ffo("fforum-20-39"), 20, &[][..]),
        (
            sample.to_str().unwrap().to_string(),
            6,
            &["--all-moves"][..],
        ),
    ];
    for threads in ["2", "4"] {
        for (file, count, extra) in &runs {
            let mut args = vec!["solve", file.as_str(), "--threads", threads, "--hash", "64"];
            args.extend_from_slice(extra);
            let (code, out) = orca(&args);
            assert_eq!(code, 0, "{args:?}\n{out}");
            assert!(
                out.contains(&format!("total: {count} positions, 0 wrong")),
                "{args:?}\n{out}"
            );
        }
    }
}
