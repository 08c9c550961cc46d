//! The opening book through the real binary: building, showing, adding, and
//! play from it in every protocol; bad book files.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{Orca, PATIENCE};
use orca::game::{AnyPosition, Variant};

/// A fresh scratch directory for one test.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// Runs `orca` with `args` to the end: status, stdout, stderr.
fn orca(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_orca"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A small book of the first plies of the shipped games, valued shallow:
/// quick to build, and told apart from the built-in one by its depth.
fn tiny_book(dir: &std::path::Path, name: &str) -> (PathBuf, String) {
    let out = dir.join(name);
    let work = dir.join(format!("{name}.work"));
    let (status, _, err) = orca(&[
        "book",
        "build",
        "--out",
        out.to_str().unwrap(),
        "--work",
        work.to_str().unwrap(),
        "--depth",
        "3",
        "--plies",
        "5",
        "--min-games",
        "500",
        "--rounds",
        "1",
        "--per-round",
        "10",
    ]);
    assert_eq!(status, 0, "{err}");
    (out, err)
}

/// Parses `info string book <move> value <v> depth <d>`.
fn book_line(line: &str) -> (String, i32, u32) {
    let t: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        (t.len(), t[0], t[1], t[2], t[4], t[6]),
        (8, "info", "string", "book", "value", "depth"),
        "{line}"
    );
    (
        t[3].to_string(),
        t[5].parse().unwrap(),
        t[7].parse().unwrap(),
    )
}

/// The moves `orca book show` lists: (move, value, depth).
fn shown(args: &[&str]) -> Vec<(String, i32, u32)> {
    let mut all = vec!["book", "show"];
    all.extend_from_slice(args);
    let (status, out, err) = orca(&all);
    assert_eq!(status, 0, "{err}");
    out.lines()
        .skip(2)
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (
                t[0].to_string(),
                t[2].parse().unwrap(),
                t[4].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn ugi_answers_the_opening_from_the_book_and_ownbook_false_searches() {
    let mut e = Orca::ugi();
    e.send("ugi");
    let lines = e.until("ugiok");
    for option in [
        "option name OwnBook type check default true",
        "option name BookFile type string default <empty>",
        "option name BookRandomness type spin default 0 min 0 max 64",
    ] {
        assert!(lines.contains(&option.to_string()), "{lines:?}");
    }
    e.send("position startpos moves f5 d6");
    e.send("go depth 12");
    let lines = e.until("bestmove");
    assert_eq!(lines.len(), 2, "the book answers at once: {lines:?}");
    let (mv, value, depth) = book_line(&lines[0]);
    assert_eq!(lines[1], format!("bestmove {mv}"));
    // The best move the book knows, with its value and depth.
    let best = &shown(&["f5", "d6"])[0];
    assert_eq!((&mv, value, depth), (&best.0, best.1, best.2));
    assert!(depth >= 10, "{depth}");
    e.send("setoption name OwnBook value false");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("book")), "{lines:?}");
    // Out of the book: a position no game reaches is searched.
    e.send("setoption name OwnBook value true");
    e.send("position startpos moves f5 f4 g3");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
}

#[test]
fn book_randomness_draws_among_moves_within_n_discs() {
    let moves = shown(&["f5"]);
    let best = moves[0].1;
    let near: Vec<&String> = moves
        .iter()
        .filter(|m| m.1 >= best - 20)
        .map(|m| &m.0)
        .collect();
    assert!(near.len() >= 2, "a position with a choice: {moves:?}");
    let mut e = Orca::ugi();
    e.send("setoption name BookRandomness value 20");
    e.send("position startpos moves f5");
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..40 {
        let mv = e.best_move("go movetime 5000");
        assert!(near.contains(&&mv), "{mv} not within 20 of {moves:?}");
        seen.insert(mv);
    }
    assert!(seen.len() >= 2, "randomness gives variety: {seen:?}");
    e.send("setoption name BookRandomness value 65");
    assert!(e.sync()[0].starts_with("info string error: setoption: bad value '65'"));
}

#[test]
fn bad_book_files_give_one_line_and_the_engine_plays_on() {
    let tmp = scratch();
    let dir = tmp.path();
    let (good, _) = tiny_book(dir, "good.book");
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.join("truncated.book");
    std::fs::write(&truncated, &bytes[..bytes.len() - 5]).unwrap();
    let corrupt = dir.join("corrupt.book");
    let mut flipped = bytes.clone();
    let last = flipped.len() - 3;
    flipped[last] ^= 0x40;
    std::fs::write(&corrupt, &flipped).unwrap();
    let missing = dir.join("missing.book");
    let cases = [
        (&missing, "no such file".to_string()),
        (
            &truncated,
            format!(
                "truncated: {} bytes, expected {}",
                bytes.len() - 5,
                bytes.len()
            ),
        ),
        (&corrupt, "corrupt: checksum mismatch".to_string()),
    ];
    for (path, why) in &cases {
        let mut e = Orca::ugi();
        e.send(&format!("setoption name BookFile value {}", path.display()));
        let lines = e.sync();
        assert_eq!(
            lines,
            [format!(
                "info string error: setoption: book {}: {why}; playing without a book",
                path.display()
            )]
        );
        // No book at all now: the opening is searched.
        e.send("position startpos");
        e.send("go depth 2");
        let lines = e.until("bestmove");
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 2 ")),
            "{lines:?}"
        );
        // GTP, NBoard and play take the file as a flag: one line on stderr.
        for args in [["gtp", "--book"], ["nboard", "--book"], ["play", "--book"]] {
            let mut e = Orca::start_logging(&[args[0], args[1], path.to_str().unwrap()]);
            let errors = e.stderr_lines(1);
            assert_eq!(
                errors,
                [format!(
                    "orca: book {}: {why}; playing without a book",
                    path.display()
                )]
            );
            e.close_stdin();
            assert_eq!(e.wait_exit(PATIENCE), Some(0), "{args:?}");
        }
    }
    // The good file is taken: its shallow values answer.
    let mut e = Orca::ugi();
    e.send(&format!("setoption name BookFile value {}", good.display()));
    assert!(e.sync().is_empty());
    e.send("position startpos moves f5");
    e.send("go depth 12");
    let (mv, _, depth) = book_line(&e.until("info string")[0]);
    assert_eq!(depth, 3);
    e.wait_for(&format!("bestmove {mv}"));
    // And an empty BookFile is the built-in book again.
    e.send("setoption name BookFile value");
    assert!(e.sync().is_empty());
    e.send("go depth 12");
    let (_, _, depth) = book_line(&e.until("info string")[0]);
    assert!(depth > 3);
    // A book of one game asked for as another's.
    let (status, _, err) = orca(&[
        "book",
        "stats",
        "--variant",
        "reversed",
        "--book",
        good.to_str().unwrap(),
    ]);
    assert_eq!(status, 1);
    assert_eq!(
        err,
        format!(
            "orca book: {}: a book for othello, not reversed\n",
            good.display()
        )
    );
}

#[test]
fn nboard_gtp_and_play_answer_from_the_book() {
    let mut e = Orca::start(&["nboard"]);
    e.send("nboard 2");
    e.send("set depth 20");
    e.send("set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)");
    e.send("go");
    let lines = e.until("===");
    // `status Orca: book d6 value -1.00 depth 16`: white's move in lower
    // case, the value as NBoard's evals (two decimals), the answer's eval.
    let status = lines
        .iter()
        .find_map(|l| l.strip_prefix("status Orca: book "))
        .unwrap_or_else(|| panic!("no book status: {lines:?}"));
    let words: Vec<&str> = status.split(' ').collect();
    assert_eq!(
        (words.len(), words[1], words[3]),
        (5, "value", "depth"),
        "{status}"
    );
    assert_eq!(words[0], words[0].to_ascii_lowercase(), "{status}");
    assert_eq!(
        words[2].split('.').nth(1).map(str::len),
        Some(2),
        "{status}"
    );
    let answer = lines.last().unwrap();
    assert_eq!(answer.split('/').nth(1), Some(words[2]), "{lines:?}");
    let mut e = Orca::start(&["gtp", "--movetime", "30s"]);
    e.send("genmove black");
    // Thirty seconds of search would be far beyond the patience.
    let (_, reply) = e.wait_for("=");
    let position = AnyPosition::start(Variant::Othello);
    let mv = reply.trim_start_matches('=').trim().to_ascii_lowercase();
    assert!(position.legal_move_names().contains(&mv), "{reply}");
    let mut p = Orca::start(&["play", "--movetime", "30s"]);
    p.send("f5");
    let (_, line) = p.wait_for("Orca (White) plays ");
    assert!(line.contains("(book, "), "{line}");
    let mut p = Orca::start(&["play", "--depth", "2", "--no-book"]);
    p.send("f5");
    let (_, line) = p.wait_for("Orca (White) plays ");
    assert!(!line.contains("book"), "{line}");
}

#[test]
fn show_stats_and_add() {
    let (status, out, _) = orca(&["book", "stats"]);
    assert_eq!(status, 0);
    assert!(out.starts_with("variant othello\npositions "), "{out}");
    assert!(out.contains("\nby ply 0:1 1:1 "), "{out}");
    let (_, out, _) = orca(&["book", "stats", "--variant", "reversed"]);
    assert!(out.starts_with("variant reversed\n"), "{out}");
    // The four first moves lead to one position (up to symmetry).
    let moves = shown(&[""]);
    assert_eq!(moves.len(), 4, "{moves:?}");
    assert!(moves.iter().all(|m| m.1 == moves[0].1), "{moves:?}");
    let start = AnyPosition::start(Variant::Othello).to_string();
    assert_eq!(shown(&["--", &start]), moves);
    // A position string needs no `--` before it, though it begins with `-`;
    // `startpos` names the start, and moves may follow either.
    assert_eq!(shown(&[&start]), moves);
    assert_eq!(shown(&["startpos"]), moves);
    let first = moves[0].0.as_str();
    assert_eq!(shown(&[&start, "moves", first]), shown(&[first]));
    assert_eq!(shown(&["startpos", first]), shown(&[first]));
    let (status, _, err) = orca(&["book", "show", "a1"]);
    assert_eq!(status, 1);
    assert!(err.starts_with("orca book: 'a1': "), "{err}");
    let (_, out, _) = orca(&["book", "show", "f5f4g3"]);
    assert!(out.ends_with("not in the book\n"), "{out}");
    // A file of move lists (an openings file) is read line by line.
    let tmp = scratch();
    let dir = tmp.path();
    let lists = dir.join("lines.txt");
    std::fs::write(&lists, "# two lines\nf5d6c3d3c4\nf5f4g3  # off book\n").unwrap();
    let (status, out, err) = orca(&["book", "stats", "--games", lists.to_str().unwrap()]);
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("\ngames 2: "), "{out}");

    let tmp = scratch();

    let dir = tmp.path();
    let (tiny, _) = tiny_book(dir, "tiny.book");
    let wider = dir.join("wider.book");
    let line = "f5d6c5f4e3g6f6";
    let linked = |book: &PathBuf| {
        let (_, out, _) = orca(&[
            "book",
            "show",
            "--book",
            book.to_str().unwrap(),
            "f5d6c5f4e3",
        ]);
        out.lines()
            .any(|l| l.starts_with("g6 value ") && l.ends_with(" depth 3 book"))
    };
    assert!(!linked(&tiny));
    let (status, out, err) = orca(&[
        "book",
        "add",
        "--book",
        tiny.to_str().unwrap(),
        "--out",
        wider.to_str().unwrap(),
        line,
    ]);
    assert_eq!(status, 0, "{err}");
    assert!(out.starts_with("1 games, "), "{out}");
    assert!(linked(&wider), "the line is linked in");
    let known = shown(&["--book", wider.to_str().unwrap(), "f5d6c5f4e3g6"]);
    assert!(known.iter().any(|m| m.0 == "f6"), "{known:?}");
}

#[test]
fn builds_are_reproducible_and_resume_from_the_work_file() {
    let tmp = scratch();
    let dir = tmp.path();
    let (first, err) = tiny_book(dir, "a.book");
    // Off a terminal, progress comes as lines; each pass ends with its
    // count complete.
    let passes: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("book: pass "))
        .collect();
    assert!(passes[0].starts_with("book: pass 1: "), "{err}");
    assert!(
        passes.iter().any(|l| {
            let counts = l
                .split(": ")
                .nth(2)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap();
            let (done, total) = counts.split_once('/').unwrap();
            done == total && total.parse::<u32>().unwrap() > 0
        }),
        "{err}"
    );
    let (second, _) = tiny_book(dir, "b.book");
    let a = std::fs::read(first).unwrap();
    assert_eq!(a, std::fs::read(&second).unwrap());
    // An interrupted build: half its work file, torn in a record.
    let work = dir.join("b.book.work");
    let bytes = std::fs::read(&work).unwrap();
    std::fs::write(&work, &bytes[..bytes.len() / 2 + 7]).unwrap();
    let (again, err) = tiny_book(dir, "b.book");
    assert!(err.contains("ignoring "), "{err}");
    assert!(err.contains(" from the work file"), "{err}");
    assert_eq!(a, std::fs::read(again).unwrap());
}

#[test]
fn edax_export_and_import_keep_the_book() {
    let tmp = scratch();
    let dir = tmp.path();
    let edax = dir.join("orca.edax.book");
    let back = dir.join("back.book");
    let (status, out, err) = orca(&["book", "export-edax", edax.to_str().unwrap()]);
    assert_eq!(status, 0, "{err}");
    assert!(
        out.ends_with(&format!("written to {}\n", edax.display())),
        "{out}"
    );
    let header = std::fs::read(&edax).unwrap();
    assert_eq!(&header[..8], b"XADEKOOB", "Edax's magic words");
    let (status, _, err) = orca(&[
        "book",
        "import-edax",
        edax.to_str().unwrap(),
        "--out",
        back.to_str().unwrap(),
    ]);
    assert_eq!(status, 0, "{err}");
    for line in ["", "f5", "f5 d6", "f5 d6 c3 d3 c4", "f5 f6 e6 f4"] {
        let show = |book: Option<&str>| {
            let mut args = vec!["book", "show"];
            if let Some(b) = book {
                args.extend(["--book", b]);
            }
            args.push(line);
            orca(&args).1
        };
        assert_eq!(show(Some(back.to_str().unwrap())), show(None), "{line}");
    }
    // Not an Edax book: one line.
    let (status, _, err) = orca(&[
        "book",
        "import-edax",
        back.to_str().unwrap(),
        "--out",
        dir.join("x.book").to_str().unwrap(),
    ]);
    assert_eq!(status, 1);
    assert_eq!(
        err,
        format!("orca book: {}: corrupt: not an Edax book\n", back.display())
    );
    // Another Edax format version (byte 8): one line saying which.
    let mut bytes = header;
    bytes[8] = 5;
    let v5 = dir.join("v5.edax.book");
    std::fs::write(&v5, &bytes).unwrap();
    let (status, _, err) = orca(&[
        "book",
        "import-edax",
        v5.to_str().unwrap(),
        "--out",
        dir.join("y.book").to_str().unwrap(),
    ]);
    assert_eq!(status, 1);
    assert_eq!(
        err,
        format!(
            "orca book: {}: Edax book format version 5 (release 4); \
             Orca reads version 4 (Edax 4.x)\n",
            v5.display()
        )
    );
}
