//! `orca train` in miniature, and the weights it writes.

use std::path::Path;
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

#[test]
fn smoke_training_of_both_variants_writes_loadable_weights() {
    let tmp = tempfile::tempdir().unwrap();
    let othello = tmp.path().join("othello.bin");
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

    let reversed = tmp.path().join("reversed.bin");
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
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a.bin");
    let b = tmp.path().join("b.bin");
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
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, err) = orca(&["bench", "--weights", "/nonexistent/weights.bin"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read the weights file"), "{err}");
    let damaged = tmp.path().join("damaged.bin");
    let mut bytes = Weights::zero(Variant::Othello).to_bytes();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&damaged, &bytes).unwrap();
    let (code, _, err) = orca(&["bench", "--weights", damaged.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("damaged"), "{err}");
    let nowhere = tmp.path().join("tictactoe.bin");
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

/// `orca train gen` with small, fast settings.
fn generate(shard: &str, positions: &str, out: &std::path::Path) -> (i32, String, String) {
    orca(&[
        "train",
        "gen",
        "--variant",
        "othello",
        "--shard",
        shard,
        "--positions",
        positions,
        "--depth",
        "3",
        "--exact-empties",
        "10",
        "--play-depth",
        "2",
        "--seed",
        "11",
        "--wthor",
        "data/wthor",
        "--out",
        out.to_str().unwrap(),
    ])
}

/// The number in a `measure` summary line: all positions of both kinds.
fn measured(out: &str) -> usize {
    let line = out.lines().next().unwrap_or_default();
    line.split(": ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn shards_concatenate_and_fit() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a.shard");
    let b = tmp.path().join("b.shard");
    for path in [&a, &b] {
        let _ = std::fs::remove_file(path);
    }
    let (code, out, err) = generate("0/2", "80", &a);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("positions in"), "{out}");
    let (code, _, err) = generate("1/2", "80", &b);
    assert_eq!(code, 0, "{err}");
    // `cat a b > both` reads as the union of the two.
    let both = tmp.path().join("both.shard");
    let mut bytes = std::fs::read(&a).unwrap();
    bytes.extend(std::fs::read(&b).unwrap());
    std::fs::write(&both, &bytes).unwrap();
    let count = |paths: &[&std::path::Path]| {
        let mut args = vec!["train", "measure", "--shards"];
        args.extend(paths.iter().map(|p| p.to_str().unwrap()));
        let (code, out, err) = orca(&args);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("searched MAE"), "{out}");
        (measured(&out), out)
    };
    let (na, _) = count(&[&a]);
    let (nb, _) = count(&[&b]);
    let (nboth, out_both) = count(&[&both]);
    let (_, out_two) = count(&[&a, &b]);
    assert!(na >= 80 && nb >= 80);
    assert_eq!(nboth, na + nb);
    assert_eq!(out_both, out_two);
    // A fit from the shards alone writes loadable weights and compares them
    // with the built-in ones on the held-out games.
    let weights = tmp.path().join("fit.bin");
    let (code, out, err) = orca(&[
        "train",
        "fit",
        "--shards",
        both.to_str().unwrap(),
        "--test-every",
        "3",
        "--epochs",
        "4",
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("stage | empties"), "{out}");
    assert!(out.contains("new MAE | baseline MAE"), "{out}");
    assert_eq!(Weights::load(&weights).unwrap().variant, Variant::Othello);
}

#[test]
fn damaged_shards_are_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("good.shard");
    let _ = std::fs::remove_file(&good);
    let (code, _, err) = generate("0/1", "40", &good);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&good).unwrap();
    let cut = tmp.path().join("cut.shard");
    std::fs::write(&cut, &bytes[..bytes.len() - 7]).unwrap();
    let flipped = tmp.path().join("flipped.shard");
    let mut damaged = bytes.clone();
    damaged[bytes.len() / 2] ^= 0x04;
    std::fs::write(&flipped, &damaged).unwrap();
    let other = tmp.path().join("other.shard");
    std::fs::write(&other, b"not a shard, just some text that goes on").unwrap();
    let cases = [
        (&cut, "cut off"),
        (&flipped, "damaged"),
        (&other, "not a shard file"),
    ];
    for (path, what) in cases {
        for command in ["measure", "fit"] {
            let (code, out, err) = orca(
                &[
                    "train",
                    command,
                    "--shards",
                    good.to_str().unwrap(),
                    path.to_str().unwrap(),
                    "--out",
                    tmp.path().join("never.bin").to_str().unwrap(),
                ][..if command == "fit" { 7 } else { 5 }],
            );
            assert_eq!(code, 1, "{command} {path:?}: {err}");
            assert!(out.is_empty(), "{out}");
            assert!(
                err.contains(what) && err.contains(path.to_str().unwrap()),
                "{err}"
            );
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        }
    }
    assert!(!tmp.path().join("never.bin").exists());
    // `gen` continues a cut-off file, and refuses a damaged one or one made
    // with other settings, leaving it as it was.
    let (code, out, err) = generate("0/1", "40", &cut);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("dropped a cut-off last block"), "{out}");
    assert_eq!(std::fs::read(&cut).unwrap(), bytes);
    let (code, _, err) = generate("0/1", "40", &flipped);
    assert_eq!(code, 1);
    assert!(err.contains("damaged"), "{err}");
    assert_eq!(std::fs::read(&flipped).unwrap(), damaged);
    let (code, _, err) = generate("0/2", "40", &good);
    assert_eq!(code, 1);
    assert!(err.contains("shards 1 in the file, 2 asked"), "{err}");
    let (code, _, err) = generate("2/2", "40", &tmp.path().join("bad-index.shard"));
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = orca(&[
        "train",
        "fit",
        "--shards",
        good.to_str().unwrap(),
        "--shard-weight",
        "0",
        "--out",
        tmp.path().join("never.bin").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(!tmp.path().join("never.bin").exists());
    let (code, _, err) = orca(&["train", "measure", "--shards", "/nonexistent/x.shard"]);
    assert_eq!(code, 1);
    assert!(err.contains("/nonexistent/x.shard"), "{err}");
}

#[test]
fn a_self_play_database_is_measured_and_fitted() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("database");
    let db = dir.to_str().unwrap();
    let (code, out, err) = orca(&[
        "selfplay",
        "--variant",
        "reversed",
        "--games",
        "6",
        "--depth",
        "2",
        "--solve-empties",
        "8",
        "--chunk-games",
        "4",
        "--out",
        db,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("0 games before, 6 made"), "{out}");
    // Every game held out: the positions after the random moves, the late
    // ones exact.
    let (code, out, err) = orca(&["train", "measure", "--database", db, "--test-every", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("reversed: "), "{out}");
    assert!(out.contains("of 6 games"), "{out}");
    assert!(out.contains("outcome MAE"), "{out}");
    assert!(measured(&out) > 6 * 10, "{out}");
    // The games kept the search's values: the final score against them,
    // no difference at all from the solve point (8 empties) on.
    assert!(
        out.contains("held-out positions with the search's values"),
        "{out}"
    );
    let (_, values) = out.split_once("with the search's values").unwrap();
    let solved = values
        .lines()
        .find(|l| l.trim_start().starts_with("1 |   4-7"))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(
        solved.split('|').nth(3).map(str::trim),
        Some("0.00"),
        "{out}"
    );
    // The first games only, as a fit on a growing database reads them.
    let (code, out, err) = orca(&[
        "train",
        "measure",
        "--database",
        db,
        "--test-every",
        "1",
        "--database-games",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("of 4 games"), "{out}");
    let (code, _, err) = orca(&[
        "train",
        "measure",
        "--database",
        db,
        "--database-games",
        "7",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("fewer than --database-games 7"), "{err}");
    let weights = tmp.path().join("database.bin");
    let (code, out, err) = orca(&[
        "train",
        "fit",
        "--database",
        db,
        "--test-every",
        "2",
        "--epochs",
        "3",
        "--origin",
        "builtin",
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("new MAE | baseline MAE"), "{out}");
    assert_eq!(Weights::load(&weights).unwrap().variant, Variant::Reversed);
    // Labels half from the search's values make other weights than the
    // final scores alone; a share past 1 is refused.
    let fit_with = |share: &str, out: &Path| {
        let out = out.to_str().unwrap();
        orca(&[
            "train",
            "fit",
            "--database",
            db,
            "--epochs",
            "3",
            "--value-weight",
            share,
            "--out",
            out,
        ])
    };
    let (outcomes, blended) = (
        tmp.path().join("outcomes.bin"),
        tmp.path().join("blended.bin"),
    );
    assert_eq!(fit_with("0", &outcomes).0, 0);
    assert_eq!(fit_with("0.5", &blended).0, 0);
    assert_ne!(
        Weights::load(&blended).unwrap(),
        Weights::load(&outcomes).unwrap()
    );
    let (code, _, err) = fit_with("1.5", &blended);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--value-weight"), "{err}");
    // Standard Othello's WTHOR games do not mix with reversed games.
    let (code, _, err) = orca(&[
        "train",
        "fit",
        "--database",
        db,
        "--wthor",
        "data/wthor",
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert_eq!(err.lines().count(), 1, "{err}");
    // A directory that is no database is refused in one line.
    let (code, _, err) = orca(&["train", "measure", "--database", "data/obf"]);
    assert_eq!(code, 1);
    assert!(err.contains("sets.txt"), "{err}");
}
