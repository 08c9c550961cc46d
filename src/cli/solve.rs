//! `orca solve`: exact solutions of the positions of an OBF file, printed as a
//! table with time, nodes and speed, checked against the file's scores.

use std::sync::Mutex;
use std::time::Duration;

use clap::Args;
use orca::eval::Evaluators;
use orca::game::Variant;
use orca::obf::{self, ObfProblem};
use orca::search::TranspositionTable;
use orca::solve::{Solution, SolveMode, obf_move, pv_text, solve_threads};

/// Arguments of `orca solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The OBF file to solve.
    file: String,
    /// Solve this many positions of the file at the same time, one search
    /// thread and one table each (the answers never depend on it); no more
    /// threads than positions are started.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_JOBS as u64))]
    jobs: usize,
    /// Search threads of one solve, sharing its table (the answers never
    /// depend on it); with --jobs J, J times N threads in all.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::threads())]
    threads: usize,
    // 256 MB by default: larger tables save a few nodes but each probe waits
    // longer (docs/tuning.md, "The table").
    /// Transposition table size in MB (one table per position solved at once).
    #[arg(long, value_name = "MB", default_value_t = 256, value_parser = super::hash_mb())]
    hash: usize,
    /// Give the exact score of every legal move, compared with the file's.
    #[arg(long)]
    all_moves: bool,
    /// Solve win/draw/loss only.
    #[arg(long)]
    wld: bool,
    /// Rules: othello (the file's scores apply) or reversed (no comparison).
    #[arg(long, default_value = "othello")]
    variant: Variant,
    #[command(flatten)]
    pub(super) eval: super::EvalArgs,
}

/// Most positions `--jobs` solves at once, and most threads of jobs times
/// `--threads`: far more cores than a machine has, yet a bound on the
/// threads and tables a typo can ask for.
const MAX_JOBS: usize = 256;

struct Row {
    index: usize,
    problem: ObfProblem,
    solution: Solution,
}

/// Whether the solution agrees with the file, and a note for the table.
fn check(row: &Row, mode: SolveMode, compare: bool) -> (bool, String) {
    if !compare {
        return (true, String::new());
    }
    let mut notes = Vec::new();
    if let Some(expected) = row.problem.best_score() {
        let expected = match mode {
            SolveMode::Exact => expected,
            SolveMode::WinDrawLoss => expected.signum(),
        };
        if row.solution.score != expected {
            notes.push(format!(
                "score {:+} expected {:+}",
                row.solution.score, expected
            ));
        }
        if let Some(best) = row.solution.best
            && mode == SolveMode::Exact
            && row.problem.score_of(best) != Some(expected)
        {
            notes.push(format!("move {} is not best", obf_move(best)));
        }
    }
    for &(mv, score) in &row.solution.move_scores {
        let Some(expected) = row.problem.score_of(mv) else {
            continue;
        };
        let expected = match mode {
            SolveMode::Exact => expected,
            SolveMode::WinDrawLoss => expected.signum(),
        };
        if score != expected {
            notes.push(format!(
                "{}:{:+} expected {:+}",
                obf_move(mv),
                score,
                expected
            ));
        }
    }
    (notes.is_empty(), notes.join("; "))
}

fn rate(nodes: u64, elapsed: Duration) -> String {
    let nps = nodes as f64 / elapsed.as_secs_f64().max(1e-6);
    if nps >= 1e6 {
        format!("{:.1}M", nps / 1e6)
    } else {
        format!("{:.0}K", nps / 1e3)
    }
}

/// Solves the file; returns 0 if every answer agrees with it, 1 otherwise.
pub fn run(args: &SolveArgs, evaluators: std::sync::Arc<Evaluators>) -> i32 {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("orca solve: cannot read {}: {e}", args.file);
            return 2;
        }
    };
    let problems = match obf::parse(&text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("orca solve: {}: {e}", args.file);
            return 2;
        }
    };
    if problems.is_empty() {
        eprintln!("orca solve: {}: no position in the file", args.file);
        return 2;
    }
    if args.variant == Variant::TicTacToe {
        eprintln!("orca solve: OBF files hold Othello positions (use othello or reversed)");
        return 2;
    }
    let mode = if args.wld {
        SolveMode::WinDrawLoss
    } else {
        SolveMode::Exact
    };
    let compare = args.variant == Variant::Othello;
    let results = Mutex::new(Vec::new());
    let total = problems.len();
    // A thread with no position to solve would only hold a table.
    let threads = args.jobs.min(total);
    if threads < args.jobs {
        eprintln!(
            "orca solve: --jobs {} capped at {threads}, the number of positions",
            args.jobs
        );
    }
    if threads * args.threads > MAX_JOBS {
        eprintln!(
            "orca solve: --jobs {threads} times --threads {} is more than {MAX_JOBS} threads",
            args.threads
        );
        return 2;
    }
    let queue = Mutex::new(problems.into_iter().enumerate());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                // Made once the thread has a position, cleared for each next one.
                let mut table: Option<TranspositionTable> = None;
                loop {
                    let Some((index, problem)) = queue.lock().unwrap().next() else {
                        break;
                    };
                    if let Some(tt) = table.as_mut() {
                        tt.clear();
                    }
                    let tt = table.get_or_insert_with(|| TranspositionTable::new(args.hash));
                    let board = problem.position.state().0;
                    let solution = solve_threads(
                        board,
                        args.variant,
                        &evaluators,
                        tt,
                        mode,
                        args.all_moves,
                        args.threads,
                    );
                    // The whole row, so that a long run stopped early still
                    // leaves its figures behind.
                    eprintln!(
                        "solved {}/{total}: #{} {} {:+} in {:.2} s, {} nodes",
                        results.lock().unwrap().len() + 1,
                        index + 1,
                        solution.best.map(obf_move).unwrap_or_else(|| "--".into()),
                        solution.score,
                        solution.elapsed.as_secs_f64(),
                        solution.nodes
                    );
                    results.lock().unwrap().push(Row {
                        index,
                        problem,
                        solution,
                    });
                }
            });
        }
    });
    let mut rows = results.into_inner().unwrap();
    rows.sort_by_key(|r| r.index);

    println!(
        "  # | empties | move | score |   time (s) |         nodes |    N/s | principal variation"
    );
    println!(
        "----+---------+------+-------+------------+---------------+--------+--------------------"
    );
    let (mut nodes, mut time, mut wrong) = (0u64, Duration::ZERO, 0);
    for row in &rows {
        let (ok, note) = check(row, mode, compare);
        let s = &row.solution;
        nodes += s.nodes;
        time += s.elapsed;
        if !ok {
            wrong += 1;
        }
        println!(
            "{:>3} | {:>7} | {:>4} | {:>+5} | {:>10.3} | {:>13} | {:>6} | {}{}",
            row.index + 1,
            row.problem.position.state().0.empties(),
            s.best.map(obf_move).unwrap_or_else(|| "--".into()),
            s.score,
            s.elapsed.as_secs_f64(),
            s.nodes,
            rate(s.nodes, s.elapsed),
            pv_text(&s.pv),
            if ok {
                String::new()
            } else {
                format!("   <-- WRONG: {note}")
            },
        );
        if !s.move_scores.is_empty() {
            let scores: Vec<String> = s
                .move_scores
                .iter()
                .map(|&(m, v)| format!("{}:{v:+}", obf_move(m)))
                .collect();
            println!("    |         all moves: {}", scores.join(" "));
        }
    }
    println!(
        "----+---------+------+-------+------------+---------------+--------+--------------------"
    );
    println!(
        "total: {} positions, {} wrong, {:.3} s, {} nodes, {} N/s",
        rows.len(),
        wrong,
        time.as_secs_f64(),
        nodes,
        rate(nodes, time)
    );
    if wrong == 0 { 0 } else { 1 }
}
