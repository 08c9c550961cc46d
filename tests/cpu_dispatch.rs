//! One binary, several sets of kernels: the AVX2/BMI2 ones (and perft's
//! AVX-512 copy) chosen at run time on a CPU that has them, the portable ones
//! otherwise or with `ORCA_PORTABLE=1`. All must count and search alike.

use std::process::Command;

/// Runs `orca args`, with `ORCA_PORTABLE=1` if `portable`, logging at info
/// level; the exit code, stdout and stderr.
fn orca(args: &[&str], portable: bool) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_orca"));
    command.args(args).env("RUST_LOG", "info");
    if portable {
        command.env("ORCA_PORTABLE", "1");
    } else {
        command.env_remove("ORCA_PORTABLE");
    }
    let out = command.output().expect("run orca");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The kernels the run reports it used.
fn kernels(stderr: &str) -> &str {
    let line = stderr
        .lines()
        .find(|l| l.contains("CPU kernels: "))
        .unwrap_or_else(|| panic!("no kernel report in {stderr}"));
    line.rsplit("CPU kernels: ").next().unwrap().trim()
}

/// The leaf counts of `orca perft`, one per depth.
fn leaf_counts(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.starts_with("depth"))
        .map(|l| l.split_whitespace().nth(3).unwrap().to_owned())
        .collect()
}

/// The run picks the AVX2 kernels exactly when this CPU has them, the
/// portable ones when told to, and perft counts alike with both.
#[test]
fn perft_counts_alike_with_either_kernels() {
    let expected = match (
        orca::cpu::cpu_has_fast_features(),
        orca::cpu::cpu_has_avx512(),
    ) {
        (true, true) => "avx512",
        (true, false) => "avx2",
        _ => "portable",
    };
    let (code, fast_out, fast_err) = orca(&["perft", "9"], false);
    assert_eq!(code, 0, "{fast_err}");
    assert_eq!(kernels(&fast_err), expected);
    let (code, portable_out, portable_err) = orca(&["perft", "9"], true);
    assert_eq!(code, 0, "{portable_err}");
    assert_eq!(kernels(&portable_err), "portable");
    assert_eq!(leaf_counts(&fast_out), leaf_counts(&portable_out));
    assert_eq!(leaf_counts(&fast_out).last().unwrap(), "3005288");
    let (_, reversed, _) = orca(&["perft", "8", "--variant", "reversed"], true);
    assert_eq!(leaf_counts(&reversed).last().unwrap(), "390216");
}

/// The node count `orca bench` signs the search with. It changes only when
/// the search's behaviour does, and then in the same commit, with the README's
/// line (Stockfish's signature check).
const BENCH_SIGNATURE: &str = "252254";

/// The bench searches (midgame search, evaluation, endgame solver) give
/// the pinned node-count signature with either set of kernels.
#[test]
fn bench_signature_is_pinned_with_either_kernels() {
    let signature = |portable: bool| {
        let (code, out, err) = orca(&["bench"], portable);
        assert_eq!(code, 0, "{err}");
        let line = out
            .lines()
            .chain(err.lines())
            .find(|l| l.starts_with("Bench: "))
            .unwrap_or_else(|| panic!("no signature in {out}"))
            .to_owned();
        line.split_whitespace().nth(1).unwrap().to_owned()
    };
    assert_eq!(signature(false), BENCH_SIGNATURE);
    assert_eq!(signature(true), BENCH_SIGNATURE);
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains(&format!("`Bench: {BENCH_SIGNATURE} nodes`")),
        "the README states another signature"
    );
}

/// What `orca solve` finds and how many nodes it takes do not depend on
/// the kernels (positions of 14 to 17 empties, solved in a moment).
#[test]
fn solve_finds_the_same_with_either_kernels() {
    let path = format!("{}/data/obf/fforum-1-19.obf", env!("CARGO_MANIFEST_DIR"));
    let totals = |portable: bool| {
        let (code, out, err) = orca(&["solve", &path], portable);
        assert_eq!(code, 0, "{err}");
        let total = out
            .lines()
            .find(|l| l.starts_with("total:"))
            .unwrap_or_else(|| panic!("no total in {out}"));
        // "total: N positions, W wrong, T s, NODES nodes, ...": all but the time.
        total
            .split(", ")
            .filter(|f| !f.ends_with(" s") && !f.contains("N/s"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let fast = totals(false);
    assert!(fast.contains("0 wrong"), "{fast}");
    assert_eq!(fast, totals(true));
}
