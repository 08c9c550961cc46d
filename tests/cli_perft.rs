//! `orca perft` as a user runs it.

use std::process::Command;

fn orca(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_orca"))
        .args(args)
        .output()
        .expect("run orca");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn leaves_at(output: &str, depth: u32) -> u64 {
    let prefix = format!("depth {depth:>2} ");
    let line = output
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no depth {depth} in {output}"));
    line.split_whitespace().nth(3).unwrap().parse().unwrap()
}

#[test]
fn perft_prints_each_depth_and_a_total() {
    let (code, out, _) = orca(&["perft", "9"]);
    assert_eq!(code, 0);
    assert_eq!(leaves_at(&out, 1), 4);
    assert_eq!(leaves_at(&out, 9), 3_005_288);
    assert!(out.lines().last().unwrap().starts_with("total"));
    let (_, out, _) = orca(&["perft", "9", "--passes", "free"]);
    assert_eq!(leaves_at(&out, 9), 3_005_320);
}

#[test]
fn perft_variants_and_positions() {
    let (_, out, _) = orca(&["perft", "9", "--variant", "tictactoe"]);
    assert_eq!(leaves_at(&out, 9), 255_168);
    let (_, out, _) = orca(&[
        "perft",
        "2",
        "--position",
        "---------------------------OX------XO--------------------------- O",
    ]);
    assert_eq!(leaves_at(&out, 1), 4);
    let (_, out, _) = orca(&[
        "perft",
        "3",
        "--variant",
        "tictactoe",
        "--position",
        "X---O---- X",
    ]);
    assert_eq!(leaves_at(&out, 1), 7);
}

#[test]
fn perft_rejects_bad_input_with_a_message() {
    let (code, _, err) = orca(&["perft", "3", "--position", "XO X"]);
    assert_eq!(code, 2);
    assert!(err.contains("squares"), "{err}");
    let (code, _, err) = orca(&["perft", "3", "--variant", "chess"]);
    assert_ne!(code, 0);
    assert!(err.contains("chess"), "{err}");
    let (code, _, _) = orca(&["perft", "-3"]);
    assert_ne!(code, 0);
}
