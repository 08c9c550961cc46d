//! `orca train` in miniature, and the weights it writes.

use std::process::Command;

use orca::eval::trained::Weights;
use orca::game::Variant;

fn orca(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_orca"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run orca");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("orca-train-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn smoke_training_of_both_variants_writes_loadable_weights() {
    let othello = temp("othello.bin");
    let (code, out, err) = orca(&[
        "train",
        "--variant",
        "othello",
        "--games",
        "300",
        "--selfplay",
        "4",
        "--exact-empties",
        "10",
        "--deep-empties",
        "12",
        "--epochs",
        "8",
        "--out",
        othello.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("stage | empties"), "{out}");
    assert!(err.contains("labelling games"), "progress on stderr: {err}");
    let w = Weights::load(&othello).unwrap();
    assert_eq!(w.variant, Variant::Othello);

    let reversed = temp("reversed.bin");
    let (code, out, err) = orca(&[
        "train",
        "--variant",
        "reversed",
        "--selfplay",
        "12",
        "--exact-empties",
        "10",
        "--depth",
        "2",
        "--epochs",
        "8",
        "--out",
        reversed.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("12 games"), "{out}");
    assert_eq!(Weights::load(&reversed).unwrap().variant, Variant::Reversed);

    // The engine plays with the new weights when told to.
    let (code, out, _) = orca(&[
        "bench",
        "--weights",
        othello.to_str().unwrap(),
        "--weights",
        reversed.to_str().unwrap(),
        "--depth",
        "3",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("Bench:"), "{out}");
}

#[test]
fn the_same_seed_gives_the_same_weights() {
    let a = temp("a.bin");
    let b = temp("b.bin");
    for (path, threads) in [(&a, "1"), (&b, "2")] {
        let (code, _, err) = orca(&[
            "train",
            "--variant",
            "reversed",
            "--selfplay",
            "8",
            "--exact-empties",
            "8",
            "--depth",
            "2",
            "--epochs",
            "5",
            "--seed",
            "7",
            "--threads",
            threads,
            "--out",
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn missing_or_damaged_weights_are_refused_clearly() {
    let (code, _, err) = orca(&["bench", "--weights", "/nonexistent/weights.bin"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read the weights file"), "{err}");
    let damaged = temp("damaged.bin");
    let mut bytes = Weights::zero(Variant::Othello).to_bytes();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&damaged, &bytes).unwrap();
    let (code, _, err) = orca(&["bench", "--weights", damaged.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("damaged"), "{err}");
    let nowhere = temp("tictactoe.bin");
    let (code, _, err) = orca(&[
        "train",
        "--variant",
        "tictactoe",
        "--out",
        nowhere.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("tic-tac-toe"), "{err}");
}

#[test]
fn built_in_weights_are_valid() {
    for variant in [Variant::Othello, Variant::Reversed] {
        let w = Weights::builtin(variant).unwrap();
        assert_eq!(w.variant, variant);
        assert!(
            w.stages.iter().any(|s| s.iter().any(|&x| x != 0)),
            "trained, not empty"
        );
    }
}
