//! `orca.Engine` and `orca.solve`: the library's engine (iterative deepening
//! with the selective search, the opening book, levels, the exact solver
//! near the end) driven as the protocols drive it, and the exact solver on
//! its own. Both run without the GIL: other Python threads go on meanwhile.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use orca::engine::{
    BestMove, Engine as Core, GoLimits, GoRequest, Level, MAX_HASH_MB, MAX_LEVEL, MAX_THREADS,
    MIN_HASH_MB, Report, SearchInfo,
};
use orca::eval::{EvalKind, Evaluators};
use orca::game::{AnyMove, AnyPosition, Variant};
use orca::search::TranspositionTable;
use orca::solve::{SolveMode, solve_threads};

use crate::position::{Position, variant};

/// The evaluations with the built-in weights, read once for every engine.
fn evaluators() -> PyResult<Arc<Evaluators>> {
    static EVALUATORS: OnceLock<Result<Arc<Evaluators>, String>> = OnceLock::new();
    EVALUATORS
        .get_or_init(|| {
            Evaluators::new(EvalKind::Trained)
                .map(Arc::new)
                .map_err(|e| format!("built-in weights: {e}"))
        })
        .clone()
        .map_err(PyRuntimeError::new_err)
}

/// Time kept for the answer's way back, as the protocols keep it.
const OVERHEAD: Duration = Duration::from_millis(10);

/// How often a waiting search looks for Ctrl-C.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// A search's longest time a move, in seconds (a day).
const MAX_MOVETIME: f64 = 86_400.0;

/// Deepest search asked for by depth.
const MAX_DEPTH: u32 = 60;

/// An engine: Orca's search with its own transposition table and opening
/// book, for positions of one game.
///
/// `Engine(variant="othello", threads=1, hash_mb=64, level=20, book=True)`:
/// `level` 1 (weakest) to 20 (full strength); `book` answers from the
/// opening book where it knows the position.
#[pyclass(module = "orca", frozen)]
pub struct Engine {
    variant: Variant,
    threads: usize,
    level: u8,
    book: bool,
    /// The engine and its reports; one search at a time.
    core: Mutex<(Core, Receiver<Report>)>,
}

/// One line of a multi-PV search: a root move, its score and variation.
#[pyclass(module = "orca", frozen, get_all)]
#[derive(Clone)]
pub struct Line {
    /// The root move (`"pass"` for a forced pass).
    #[pyo3(name = "move")]
    pub mv: String,
    /// Its value in discs for the side to move.
    pub score: f64,
    /// The variation, the move first.
    pub pv: Vec<String>,
}

#[pymethods]
impl Line {
    fn __repr__(&self) -> String {
        format!(
            "Line(move='{}', score={:?}, pv={})",
            self.mv,
            self.score,
            py_list(&self.pv)
        )
    }
}

/// What a search found.
#[pyclass(module = "orca", frozen, get_all)]
pub struct SearchResult {
    /// The move to play (`"pass"` when the side must pass).
    #[pyo3(name = "move")]
    pub mv: String,
    /// Its value in discs for the side to move (`None` when nothing was
    /// searched: a book move or a game over).
    pub score: Option<f64>,
    /// Whether the score is the exact result of perfect play.
    pub exact: bool,
    /// The depth of the last finished iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds taken.
    pub time: f64,
    /// The principal variation, the move first.
    pub pv: Vec<String>,
    /// With `multipv > 1`: the best lines, best first.
    pub lines: Vec<Line>,
    /// Whether the move came from the opening book.
    pub book: bool,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(move='{}', score={}, exact={}, depth={}, nodes={}, pv={})",
            self.mv,
            self.score
                .map_or_else(|| "None".to_string(), |s| format!("{s:?}")),
            py_bool(self.exact),
            self.depth,
            self.nodes,
            py_list(&self.pv)
        )
    }
}

/// Move names as Python writes a list of them: `['f5', 'd6']`.
fn py_list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    format!("[{}]", quoted.join(", "))
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn names(moves: &[AnyMove]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

impl Engine {
    /// The engine, unless another Python thread is searching with it (the
    /// lock is never waited for: that thread may need the GIL to finish).
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, (Core, Receiver<Report>)>> {
        match self.core.try_lock() {
            Ok(core) => Ok(core),
            Err(std::sync::TryLockError::Poisoned(e)) => Ok(e.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(
                "this engine is searching in another thread: one Engine a thread",
            )),
        }
    }

    /// The position searched: of this engine's game.
    fn check(&self, position: &AnyPosition) -> PyResult<()> {
        if position.variant() != self.variant {
            return Err(PyValueError::new_err(format!(
                "a {} position given to an engine for {}",
                position.variant().name(),
                self.variant.name()
            )));
        }
        Ok(())
    }
}

/// The search threads and table megabytes asked for, checked.
fn resources(threads: i64, hash_mb: i64) -> PyResult<(usize, usize)> {
    if !(1..=MAX_THREADS as i64).contains(&threads) {
        return Err(PyValueError::new_err(format!(
            "threads: expected 1 to {MAX_THREADS}, not {threads}"
        )));
    }
    if !(MIN_HASH_MB as i64..=MAX_HASH_MB as i64).contains(&hash_mb) {
        return Err(PyValueError::new_err(format!(
            "hash_mb: expected {MIN_HASH_MB} to {MAX_HASH_MB}, not {hash_mb}"
        )));
    }
    Ok((threads as usize, hash_mb as usize))
}

/// The limits of `search`, checked.
fn limits(
    movetime: Option<f64>,
    depth: Option<i64>,
    multipv: i64,
    level: u8,
    book: bool,
    threads: usize,
) -> PyResult<GoLimits> {
    let movetime = match movetime {
        Some(t) if t.is_finite() && t > 0.0 && t <= MAX_MOVETIME => {
            Some(Duration::from_secs_f64(t))
        }
        Some(t) => {
            return Err(PyValueError::new_err(format!(
                "movetime: expected seconds above 0 and at most {MAX_MOVETIME}, not {t}"
            )));
        }
        None => None,
    };
    let depth = match depth {
        Some(d) if (1..=i64::from(MAX_DEPTH)).contains(&d) => Some(d as u32),
        Some(d) => {
            return Err(PyValueError::new_err(format!(
                "depth: expected 1 to {MAX_DEPTH}, not {d}"
            )));
        }
        None => None,
    };
    if !(1..=64).contains(&multipv) {
        return Err(PyValueError::new_err(format!(
            "multipv: expected 1 to 64 lines, not {multipv}"
        )));
    }
    // Neither limit: a second, as a referee would give.
    let movetime = if movetime.is_none() && depth.is_none() {
        Some(Duration::from_secs(1))
    } else {
        movetime
    };
    Ok(GoLimits {
        movetime,
        depth,
        multipv: multipv as usize,
        level: Level::new(level),
        // The book answers a plain search; a multi-PV one values every line.
        book: book && multipv == 1,
        threads,
        ..GoLimits::default()
    })
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (variant="othello", threads=1, hash_mb=64, level=20, book=true))]
    fn new(variant: &str, threads: i64, hash_mb: i64, level: i64, book: bool) -> PyResult<Engine> {
        let variant = self::variant(variant)?;
        let (threads, hash_mb) = resources(threads, hash_mb)?;
        if !(1..=i64::from(MAX_LEVEL)).contains(&level) {
            return Err(PyValueError::new_err(format!(
                "level: expected 1 to {MAX_LEVEL}, not {level}"
            )));
        }
        let core = Core::with_channel(hash_mb, evaluators()?)
            .map_err(|e| PyRuntimeError::new_err(format!("the engine cannot start: {e}")))?;
        Ok(Engine {
            variant,
            threads,
            level: level as u8,
            book,
            core: Mutex::new(core),
        })
    }

    /// Searches `position` for at most `movetime` seconds and/or to `depth`
    /// plies (neither: one second), valuing the `multipv` best moves, and
    /// returns the best move with its score, depth, nodes and variation.
    /// The time is kept as the protocols keep it: the answer comes within
    /// `movetime`. Runs without the GIL; Ctrl-C stops it.
    #[pyo3(signature = (position, movetime=None, depth=None, multipv=1))]
    fn search(
        &self,
        py: Python<'_>,
        position: &Position,
        movetime: Option<f64>,
        depth: Option<i64>,
        multipv: i64,
    ) -> PyResult<SearchResult> {
        let position = position.inner;
        self.check(&position)?;
        let limits = limits(
            movetime,
            depth,
            multipv,
            self.level,
            self.book,
            self.threads,
        )?;
        let received = Instant::now();
        if position.is_over() {
            return Err(PyValueError::new_err("the game is over: no move to search"));
        }
        let core = self.lock()?;
        let (engine, reports) = &*core;
        // Reports of an earlier search cut short (Ctrl-C) are not this one's.
        py.detach(|| engine.wait());
        while reports.try_recv().is_ok() {}
        engine
            .go(GoRequest {
                position,
                limits,
                received,
                overhead: OVERHEAD,
            })
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let mut last: Option<SearchInfo> = None;
        let mut book = false;
        let mut interrupted = None;
        let done = loop {
            let report = py.detach(|| reports.recv_timeout(SIGNAL_CHECK));
            match report {
                Ok(Report::Info(info)) => last = Some(info),
                Ok(Report::Book(_)) => book = true,
                Ok(Report::Done(done)) => break done,
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    if interrupted.is_none()
                        && let Err(e) = py.check_signals()
                    {
                        // Stopped; its answer is waited for, then the error raised.
                        engine.stop();
                        interrupted = Some(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the engine stopped"));
                }
            }
        };
        if let Some(e) = interrupted {
            return Err(e);
        }
        let mv = match done.best {
            BestMove::Move(mv) => mv.to_string(),
            BestMove::Pass => "pass".to_string(),
            BestMove::None => return Err(PyRuntimeError::new_err("the search found no move")),
        };
        let info = done.info.or(last);
        let lines = info
            .as_ref()
            .map(|i| {
                i.lines
                    .iter()
                    .map(|l| Line {
                        mv: l.pv.first().map_or_else(String::new, ToString::to_string),
                        score: l.score.discs(),
                        pv: names(&l.pv),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(SearchResult {
            mv,
            score: info.as_ref().map(|i| i.score.discs()),
            exact: info.as_ref().is_some_and(|i| i.exact),
            depth: info.as_ref().map_or(0, |i| i.depth),
            nodes: done.nodes,
            time: done.elapsed.as_secs_f64(),
            pv: info.as_ref().map_or_else(Vec::new, |i| names(&i.pv)),
            lines,
            book,
        })
    }

    /// Forgets what earlier searches left in the table (a new game).
    fn new_game(&self) -> PyResult<()> {
        let core = self.lock()?;
        core.0.wait();
        core.0
            .new_game()
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// The game this engine plays.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    fn __repr__(&self) -> String {
        format!(
            "Engine(variant={:?}, threads={}, level={}, book={})",
            self.variant.name(),
            self.threads,
            self.level,
            py_bool(self.book)
        )
    }
}

/// The exact result of a position: its score for the side to move and
/// every move that reaches it.
#[pyclass(module = "orca", frozen, get_all)]
pub struct Solution {
    /// The final disc difference for the side to move under perfect play
    /// (empty squares to the winner).
    pub score: i32,
    /// Every move reaching that score (`["pass"]` when the side must pass,
    /// empty once the game is over).
    pub best_moves: Vec<String>,
    /// A perfect line, the first best move first.
    pub pv: Vec<String>,
    /// Every legal move with its exact score, best first.
    pub moves: Vec<(String, i32)>,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds taken.
    pub time: f64,
}

#[pymethods]
impl Solution {
    fn __repr__(&self) -> String {
        format!(
            "Solution(score={}, best_moves={}, pv={})",
            self.score,
            py_list(&self.best_moves),
            py_list(&self.pv)
        )
    }
}

/// Most empty squares `solve` takes: beyond, a solve takes hours.
const MAX_SOLVE_EMPTIES: u32 = 36;

/// Solves `position` (Othello or reversed Othello) exactly: the score for
/// the side to move and every best move. Runs without the GIL. Up to 36
/// empty squares; around 20 take well under a second, 30 up to minutes.
#[pyfunction]
#[pyo3(signature = (position, threads=1, hash_mb=64))]
pub fn solve(
    py: Python<'_>,
    position: &Position,
    threads: i64,
    hash_mb: i64,
) -> PyResult<Solution> {
    let position = position.inner;
    let board = match position {
        AnyPosition::Othello(p) => p.state().0,
        AnyPosition::Reversed(p) => p.state().0,
        AnyPosition::TicTacToe(_) => {
            return Err(PyValueError::new_err(
                "solve: the solver is for Othello positions (an Engine search is exact in tic-tac-toe)",
            ));
        }
    };
    let empties = position.empties();
    if empties > MAX_SOLVE_EMPTIES {
        return Err(PyValueError::new_err(format!(
            "solve: {empties} empty squares, at most {MAX_SOLVE_EMPTIES} (search it with an Engine)"
        )));
    }
    let (threads, hash_mb) = resources(threads, hash_mb)?;
    let evaluators = evaluators()?;
    let mut table = TranspositionTable::try_new(hash_mb)
        .map_err(|e| PyRuntimeError::new_err(format!("solve: {e}")))?;
    let started = Instant::now();
    if position.is_over() {
        return Ok(Solution {
            score: position
                .black_score()
                .map_or(0, |black| match position.to_move() {
                    orca::game::Color::Black => black,
                    orca::game::Color::White => -black,
                }),
            best_moves: Vec::new(),
            pv: Vec::new(),
            moves: Vec::new(),
            nodes: 0,
            time: 0.0,
        });
    }
    let variant = position.variant();
    let solution = py.detach(|| {
        solve_threads(
            board,
            variant,
            &evaluators,
            &mut table,
            SolveMode::Exact,
            true,
            threads,
        )
    });
    let name = |mv: orca::game::Move| mv.to_string();
    let moves: Vec<(String, i32)> = solution
        .move_scores
        .iter()
        .map(|&(mv, score)| (name(mv), score))
        .collect();
    let best_moves = if moves.is_empty() {
        // No placement: the side passes.
        vec!["pass".to_string()]
    } else {
        moves
            .iter()
            .filter(|(_, score)| *score == solution.score)
            .map(|(mv, _)| mv.clone())
            .collect()
    };
    Ok(Solution {
        score: solution.score,
        best_moves,
        pv: solution.pv.iter().map(|&mv| name(mv)).collect(),
        moves,
        nodes: solution.nodes,
        time: started.elapsed().as_secs_f64(),
    })
}
