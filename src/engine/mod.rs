//! The engine: one worker thread that searches, fed through a channel, with
//! a stop flag -- the API every protocol front end drives.
//!
//! Calls on [`Engine`] never wait for a search: `go` queues a job and returns,
//! `stop` raises the flag (and wakes a worker waiting out an infinite search). The
//! worker reports through the callback given at start-up: iteration info, notes,
//! and exactly one [`Report::Done`] per `go`. The front end decides how reports
//! look on the wire; the engine never prints.
//!
//! By concern: [`level`] (strengths for people), [`limits`] (what a `go`
//! asks and the search limits it becomes), [`report`] (what the worker
//! tells), [`error`] (refusals), `state` (what the handle and the worker
//! share, under one lock) and `worker` (the search thread).

pub mod error;
pub mod level;
pub mod limits;
pub mod report;
mod state;
mod worker;

use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender, unbounded};

use crate::book::Books;
use crate::eval::Evaluators;
use crate::game::AnyPosition;
use crate::rng::Rng;
use crate::search::TranspositionTable;
pub use error::{Busy, NotPondering, ResizeError, StartError};
pub use level::{Level, MAX_LEVEL};
pub use limits::{
    FORCED_DEPTH, FORCED_NODES, FORCED_SOLVE_EMPTIES, FORCED_TIME, GoLimits, GoRequest,
};
pub use report::{BestMove, BookNote, Report, Reporter, SearchDone, SearchInfo};
use state::{Shared, State};
use worker::{Job, Worker, entropy};

/// Default transposition table size in megabytes.
pub const DEFAULT_HASH_MB: usize = 64;

/// Smallest transposition table the `Hash` option and `--hash` accept, in megabytes.
pub const MIN_HASH_MB: usize = 1;

/// Largest transposition table the `Hash` option and `--hash` accept, in megabytes.
pub const MAX_HASH_MB: usize = 16 * 1024;

/// Most search threads the `Threads` option and `--threads` accept.
pub const MAX_THREADS: usize = 256;

/// A handle that can only stop the engine's running search, for a thread
/// other than the protocol's (a reporter that finds nobody reading).
#[derive(Clone)]
pub struct Stopper(Arc<Shared>);

impl Stopper {
    /// As [`Engine::stop`].
    pub fn stop(&self) {
        self.0.update(State::stop);
    }
}

/// A running engine: the handle the protocol thread keeps.
pub struct Engine {
    jobs: Option<Sender<Job>>,
    shared: Arc<Shared>,
    evaluators: Arc<Evaluators>,
    worker: Option<JoinHandle<()>>,
}

impl Engine {
    /// An engine whose reports are queued on a channel instead of handed
    /// to a reporter on the worker: the front end's thread then decides what
    /// each report becomes and in which order it goes out (GTP waits for the
    /// `Done` of `genmove`; NBoard must never let a superseded search's
    /// answer follow a `pong`; the web game keeps the reports it shows).
    ///
    /// # Errors
    /// [`StartError`] when the engine cannot start (its table's memory is not there).
    pub fn with_channel(
        hash_mb: usize,
        evaluators: Arc<Evaluators>,
    ) -> Result<(Engine, Receiver<Report>), StartError> {
        let (sender, receiver) = unbounded();
        let engine = Engine::try_start(
            hash_mb,
            evaluators,
            Arc::new(move |report| {
                // The receiver lives as long as the session; after it is gone
                // nobody is left to tell.
                let _ = sender.send(report);
            }),
        )?;
        Ok((engine, receiver))
    }

    /// Starts the worker with a table of `hash_mb` megabytes; `reporter` receives
    /// every report, on the worker thread.
    ///
    /// # Errors
    /// [`StartError`] when the table's memory is not there or the thread
    /// cannot be started.
    pub fn try_start(
        hash_mb: usize,
        evaluators: Arc<Evaluators>,
        reporter: Reporter,
    ) -> Result<Engine, StartError> {
        let tt = TranspositionTable::try_new(hash_mb).map_err(StartError::Table)?;
        let (sender, receiver) = unbounded();
        let shared = Arc::new(Shared::default());
        let mut worker = Worker {
            jobs: receiver,
            shared: Arc::clone(&shared),
            tt,
            evaluators: Arc::clone(&evaluators),
            report: reporter,
            books: Books::builtin(),
            rng: Rng::new(entropy()),
        };
        let handle = thread::Builder::new()
            .name("orca-search".into())
            .spawn(move || worker.run())
            .map_err(StartError::Thread)?;
        Ok(Engine {
            jobs: Some(sender),
            shared,
            evaluators,
            worker: Some(handle),
        })
    }

    /// [`Engine::try_start`] with a table size that cannot fail in practice
    /// (a small fixed one).
    ///
    /// # Panics
    /// When the engine cannot start; sizes a user chooses go through
    /// [`Engine::try_start`].
    pub fn start(hash_mb: usize, evaluators: Arc<Evaluators>, reporter: Reporter) -> Engine {
        Engine::try_start(hash_mb, evaluators, reporter).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Queues a job. Searches and perft mark the engine busy until their final
    /// report; housekeeping jobs (table resize and clear) just run in order, so
    /// a `go` right after them is accepted. A job sent after `stop` waits for
    /// the stopped one's final report (a GUI's ponder miss sends `stop` and
    /// the real `go` at once); nothing is queued while a search runs on.
    fn submit(&self, job: Job) -> Result<(), Busy> {
        let marks_busy = matches!(job, Job::Go(_) | Job::Perft { .. });
        let (infinite, ponder) = match &job {
            Job::Go(request) => (request.limits.infinite, request.limits.ponder),
            _ => (false, false),
        };
        self.shared.update_when(
            |s| !s.ending(),
            |s| {
                if s.busy {
                    return Err(Busy);
                }
                if marks_busy {
                    *s = State {
                        busy: true,
                        pending: s.pending,
                        infinite,
                        pondering: ponder,
                        ..State::default()
                    };
                }
                s.pending += 1;
                Ok(())
            },
        )?;
        if let Some(jobs) = &self.jobs {
            jobs.send(job)
                .expect("the search thread outlives the engine handle");
        }
        Ok(())
    }

    /// Starts a search; its reports follow through the reporter. Right
    /// after [`Engine::stop`] it first waits for the stopped search's final
    /// report, which comes at once: the two answers come in order.
    ///
    /// # Errors
    /// [`Busy`] if a search or perft is running and was not stopped;
    /// nothing changes then.
    pub fn go(&self, request: GoRequest) -> Result<(), Busy> {
        self.submit(Job::Go(request))
    }

    /// Counts perft to `depth` on the worker (stoppable with [`Engine::stop`]).
    ///
    /// # Errors
    /// [`Busy`] if a search or perft is running.
    pub fn perft(&self, position: AnyPosition, depth: u32) -> Result<(), Busy> {
        self.submit(Job::Perft { position, depth })
    }

    /// Resizes the transposition table (its contents are lost). The new table
    /// is allocated and initialised here, before this returns, while the old
    /// one is still in use: so a failure keeps the old one, and the next `go`
    /// does not wait for the allocation.
    ///
    /// # Errors
    /// [`ResizeError::Busy`] if a search is running, [`ResizeError::Table`]
    /// if the memory is not there; the old table is kept in both cases.
    pub fn set_hash(&self, megabytes: usize) -> Result<(), ResizeError> {
        self.settle();
        if self.is_busy() {
            return Err(ResizeError::Busy);
        }
        let table = TranspositionTable::try_new(megabytes).map_err(ResizeError::Table)?;
        Ok(self.submit(Job::Replace(table))?)
    }

    /// Plays from `books` from now on (the built-in ones until then).
    ///
    /// # Errors
    /// [`Busy`] if a search is running.
    pub fn set_books(&self, books: Books) -> Result<(), Busy> {
        self.submit(Job::Books(books))
    }

    /// Forgets everything learnt in the current game (the table).
    ///
    /// # Errors
    /// [`Busy`] if a search is running.
    pub fn new_game(&self) -> Result<(), Busy> {
        self.submit(Job::Clear)
    }

    /// Ends the running search or perft now; its final report follows at once.
    /// Does nothing when idle.
    pub fn stop(&self) {
        self.shared.update(State::stop);
    }

    /// The opponent played the move the running ponder search assumed: it
    /// becomes the real search, with its limits counted from `at` (over the
    /// table the pondering filled).
    ///
    /// # Errors
    /// [`NotPondering`] when no ponder search runs (or `stop` or a
    /// `ponderhit` already ended it); nothing changes then.
    pub fn ponderhit(&self, at: Instant) -> Result<(), NotPondering> {
        self.shared.update(|s| {
            if !s.pondering {
                return Err(NotPondering);
            }
            s.pondering = false;
            s.ponder_ended = true;
            s.hit = Some(at);
            Ok(())
        })
    }

    /// The input has ended: a search that ends only when stopped
    /// (`infinite`, or a ponder search still waiting for its `ponderhit`)
    /// is stopped now; a bounded one (a depth, a node count, a move time, a
    /// clock) runs on to its limit. Its answer follows either way.
    pub fn stop_unbounded(&self) {
        self.shared.update(|s| {
            if s.unbounded() {
                s.stop();
            }
        });
    }

    /// A handle that stops this engine's searches from any thread.
    pub fn stopper(&self) -> Stopper {
        Stopper(Arc::clone(&self.shared))
    }

    /// Waits until a search or perft that [`Engine::stop`] ended has made
    /// its final report (at once: a stopped search returns within a few
    /// thousand nodes), so that the command after a `stop` finds the engine
    /// idle. Returns at once when nothing was stopped.
    pub fn settle(&self) {
        self.shared.wait_until(|s| !s.ending());
    }

    /// Whether a ponder search runs that `ponderhit` would turn real.
    pub fn is_pondering(&self) -> bool {
        self.shared.read(|s| s.pondering)
    }

    /// Whether a job is running or queued.
    pub fn is_busy(&self) -> bool {
        self.shared.read(|s| s.busy)
    }

    /// Waits until the last job has finished and made its final report.
    pub fn wait(&self) {
        self.shared.wait_until(|s| s.pending == 0);
    }

    /// Waits until the table jobs queued so far (a resize, the clearing of a
    /// new game) are done, so that a `go` sent next starts at once: what
    /// `readyok` promises. Returns at once while a search or perft runs or
    /// waits in the queue: the engine is then ready for `stop`.
    pub fn ready(&self) {
        self.shared.wait_until(|s| s.busy || s.pending == 0);
    }

    /// Whether a job is queued or running (a search, perft or table job).
    pub fn has_pending_jobs(&self) -> bool {
        self.shared.read(|s| s.pending != 0)
    }

    /// The evaluations in use (for the static `eval` command).
    pub fn evaluators(&self) -> &Evaluators {
        &self.evaluators
    }
}

impl Drop for Engine {
    /// Stops any search (its final report is still made) and joins the worker.
    fn drop(&mut self) {
        self.stop();
        self.jobs = None; // closing the channel ends the worker loop
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{AnyMove, Variant};
    use crate::score::Score;
    use crate::search::tt::TableError;
    use std::sync::Mutex;
    use std::time::Duration;

    fn engine() -> (Engine, Arc<Mutex<Vec<Report>>>) {
        let reports = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&reports);
        let engine = Engine::start(
            4,
            Arc::new(Evaluators::default()),
            Arc::new(move |r| sink.lock().unwrap().push(r)),
        );
        (engine, reports)
    }

    fn request(position: AnyPosition, limits: GoLimits) -> GoRequest {
        GoRequest {
            position,
            limits,
            received: Instant::now(),
            overhead: Duration::from_millis(10),
        }
    }

    fn dones(reports: &Mutex<Vec<Report>>) -> Vec<SearchDone> {
        reports
            .lock()
            .unwrap()
            .iter()
            .filter_map(|r| match r {
                Report::Done(d) => Some(d.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn depth_search_reports_and_answers_once() {
        let (engine, reports) = engine();
        let limits = GoLimits {
            depth: Some(5),
            ..GoLimits::default()
        };
        engine
            .go(request(AnyPosition::start(Variant::Othello), limits))
            .unwrap();
        engine.wait();
        let done = dones(&reports);
        assert_eq!(done.len(), 1);
        assert!(matches!(done[0].best, BestMove::Move(_)));
        assert_eq!(done[0].info.as_ref().unwrap().depth, 5);
    }

    /// With `book` set, a known position is answered from the book: a note,
    /// no node searched; `infinite` (analysis) and `book: false` search.
    #[test]
    fn the_book_answers_known_positions_unless_analysing() {
        let (engine, reports) = engine();
        let start = AnyPosition::start(Variant::Othello);
        let book = GoLimits {
            depth: Some(4),
            book: true,
            ..GoLimits::default()
        };
        engine.go(request(start, book)).unwrap();
        engine.wait();
        assert_eq!(notes(&reports).len(), 1);
        engine
            .go(request(
                start,
                GoLimits {
                    book: false,
                    ..book
                },
            ))
            .unwrap();
        engine.wait();
        let done = dones(&reports);
        assert_eq!(done[0].nodes, 0);
        assert!(done[0].info.as_ref().unwrap().depth >= 10);
        assert!(done[1].nodes > 0);
        assert_eq!(done[1].info.as_ref().unwrap().depth, 4);
    }

    /// The book's notes among `reports`.
    fn notes(reports: &Mutex<Vec<Report>>) -> Vec<BookNote> {
        reports
            .lock()
            .unwrap()
            .iter()
            .filter_map(|r| match r {
                Report::Book(n) => Some(*n),
                _ => None,
            })
            .collect()
    }

    /// A ponder search asks the book once, after `ponderhit`: one note, and
    /// the move it names is the answer, however random the book's choice.
    #[test]
    fn a_ponder_search_asks_the_book_once() {
        let start = AnyPosition::start(Variant::Othello);
        for _ in 0..8 {
            let (engine, reports) = engine();
            let limits = GoLimits {
                depth: Some(4),
                ponder: true,
                book: true,
                book_randomness: 10,
                ..GoLimits::default()
            };
            engine.go(request(start, limits)).unwrap();
            thread::sleep(Duration::from_millis(20));
            engine.ponderhit(Instant::now()).unwrap();
            engine.wait();
            let notes = notes(&reports);
            assert_eq!(notes.len(), 1, "{notes:?}");
            let done = dones(&reports);
            assert_eq!(done.len(), 1);
            let BestMove::Move(mv) = done[0].best else {
                panic!("no move: {:?}", done[0].best)
            };
            assert_eq!(notes[0].mv, mv, "{notes:?}");
        }
    }

    /// After `ponderhit` the clock counts from the hit, not from the `go`:
    /// a ponder search read a minute ago, with a second to move, still
    /// searches to its depth after the hit. No sleep: the moments are given.
    #[test]
    fn ponderhit_starts_the_clock() {
        let (engine, reports) = engine();
        let limits = GoLimits {
            depth: Some(6),
            movetime: Some(Duration::from_secs(1)),
            ponder: true,
            ..GoLimits::default()
        };
        let long_ago = Instant::now() - Duration::from_secs(60);
        let go = GoRequest {
            received: long_ago,
            ..request(AnyPosition::start(Variant::Othello), limits)
        };
        engine.go(go).unwrap();
        assert!(engine.is_pondering());
        let hit = Instant::now();
        engine.ponderhit(hit).unwrap();
        assert!(!engine.is_pondering());
        assert_eq!(engine.ponderhit(hit), Err(NotPondering));
        engine.wait();
        let done = dones(&reports);
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].info.as_ref().unwrap().depth, 6);
        assert!(
            done[0].elapsed < Duration::from_secs(60),
            "{:?}",
            done[0].elapsed
        );
    }

    /// The end of input stops only what ends only when stopped.
    #[test]
    fn stop_unbounded_leaves_bounded_searches_alone() {
        let (engine, reports) = engine();
        let start = AnyPosition::start(Variant::Othello);
        let ponder = GoLimits {
            ponder: true,
            depth: Some(2),
            ..GoLimits::default()
        };
        engine.go(request(start, ponder)).unwrap();
        engine.stop_unbounded();
        engine.wait();
        let bounded = GoLimits {
            depth: Some(7),
            ..GoLimits::default()
        };
        engine.go(request(start, bounded)).unwrap();
        engine.stop_unbounded();
        engine.wait();
        let done = dones(&reports);
        assert_eq!(done.len(), 2);
        assert_eq!(done[1].info.as_ref().unwrap().depth, 7);
    }

    /// `go ponder infinite` is analysis: searched, never answered from the
    /// book, before and after `ponderhit`.
    #[test]
    fn ponder_infinite_searches() {
        let (engine, reports) = engine();
        let limits = GoLimits {
            ponder: true,
            infinite: true,
            book: true,
            ..GoLimits::default()
        };
        engine
            .go(request(AnyPosition::start(Variant::Othello), limits))
            .unwrap();
        thread::sleep(Duration::from_millis(20));
        engine.ponderhit(Instant::now()).unwrap();
        thread::sleep(Duration::from_millis(20));
        engine.stop();
        engine.wait();
        assert!(notes(&reports).is_empty(), "{:?}", notes(&reports));
        assert!(dones(&reports)[0].nodes > 0);
    }

    #[test]
    fn infinite_waits_for_stop_and_busy_refuses_go() {
        let (engine, reports) = engine();
        let limits = GoLimits {
            infinite: true,
            ..GoLimits::default()
        };
        let position = AnyPosition::start(Variant::TicTacToe);
        engine.go(request(position, limits)).unwrap();
        thread::sleep(Duration::from_millis(50));
        assert!(engine.is_busy(), "infinite search answers only after stop");
        assert_eq!(engine.go(request(position, limits)), Err(Busy));
        engine.stop();
        engine.wait();
        assert_eq!(dones(&reports).len(), 1);
    }

    /// A `go` right after `stop` waits for the stopped search's answer and
    /// is then taken: two searches, two answers, in order.
    #[test]
    fn a_go_after_stop_is_taken() {
        let (engine, reports) = engine();
        let infinite = GoLimits {
            infinite: true,
            ..GoLimits::default()
        };
        let start = AnyPosition::start(Variant::Othello);
        let after = start.play_line(["f5"]).unwrap();
        for _ in 0..100 {
            engine.go(request(start, infinite)).unwrap();
            engine.stop();
            engine.go(request(after, infinite)).unwrap();
            engine.stop();
            engine.set_hash(2).unwrap();
            engine.new_game().unwrap();
        }
        engine.wait();
        let done = dones(&reports);
        assert_eq!(done.len(), 200);
        for (k, d) in done.iter().enumerate() {
            let BestMove::Move(mv) = d.best else {
                panic!("{d:?}")
            };
            let position = if k % 2 == 0 { start } else { after };
            assert!(position.play(mv).is_some(), "answer {k}: {mv}");
        }
    }

    #[test]
    fn pass_and_game_over() {
        let (engine, reports) = engine();
        let pass = AnyPosition::parse(
            Variant::Othello,
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X",
        )
        .unwrap();
        engine.go(request(pass, GoLimits::default())).unwrap();
        engine.wait();
        let over = pass.play_line(["h8"]).unwrap();
        engine.go(request(over, GoLimits::default())).unwrap();
        engine.wait();
        let done = dones(&reports);
        assert_eq!(done[0].best, BestMove::Pass);
        assert_eq!(done[1].best, BestMove::None);
    }

    /// A pass, and the single move of a timed search, are answered with the
    /// value of a short search, exact when the position is small.
    #[test]
    fn forced_answers_carry_a_searched_value() {
        let (engine, reports) = engine();
        // Black must pass; white's h8 then ends the game 61-3 for black.
        let pass = AnyPosition::parse(
            Variant::Othello,
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X",
        )
        .unwrap();
        let timed = GoLimits {
            movetime: Some(Duration::from_secs(60)),
            ..GoLimits::default()
        };
        engine.go(request(pass, GoLimits::default())).unwrap();
        engine.wait();
        engine
            .go(request(pass.play_line(["pass"]).unwrap(), timed))
            .unwrap();
        engine.wait();
        // Black has one disc, b1, which white's c1 takes: black must pass
        // and loses 0-64, a line forced to the end, so exact at once.
        let mut squares = ['-'; 64];
        (squares[0], squares[1]) = ('O', 'X');
        let wipeout = format!("{} X", squares.iter().collect::<String>());
        let wipeout = AnyPosition::parse(Variant::Othello, &wipeout).unwrap();
        engine.go(request(wipeout, GoLimits::default())).unwrap();
        engine.wait();
        let done = dones(&reports);
        let answers: Vec<(BestMove, Score, bool)> = done
            .iter()
            .map(|d| {
                let info = d.info.as_ref().expect("a searched value");
                (d.best.clone(), info.score, info.exact)
            })
            .collect();
        assert_eq!(
            answers,
            [
                (BestMove::Pass, Score::from_discs(58), true),
                (
                    BestMove::Move(AnyMove::parse(Variant::Othello, "h8").unwrap()),
                    Score::from_discs(-58),
                    true
                ),
                (BestMove::Pass, Score::from_discs(-64), true),
            ]
        );
        assert!(done[2].info.as_ref().unwrap().depth <= FORCED_DEPTH);
    }

    /// A table that cannot be had is an error; the old one stays, and the
    /// engine goes on searching.
    #[test]
    fn a_resize_beyond_the_memory_keeps_the_old_table() {
        let (engine, reports) = engine();
        assert_eq!(
            engine.set_hash(1 << 40),
            Err(ResizeError::Table(TableError { megabytes: 1 << 40 }))
        );
        let limits = GoLimits {
            depth: Some(3),
            ..GoLimits::default()
        };
        engine
            .go(request(AnyPosition::start(Variant::Othello), limits))
            .unwrap();
        engine.wait();
        assert_eq!(dones(&reports).len(), 1);
        assert_eq!(engine.set_hash(2), Ok(()));
        assert!(
            Engine::try_start(1 << 40, Arc::new(Evaluators::default()), Arc::new(|_| {})).is_err()
        );
    }

    /// `ready` returns once the table jobs are done, and at once while a
    /// search runs.
    #[test]
    fn ready_waits_for_table_jobs_but_not_for_searches() {
        let (engine, _) = engine();
        engine.set_hash(128).unwrap();
        engine.new_game().unwrap();
        engine.ready();
        assert!(!engine.has_pending_jobs());
        let limits = GoLimits {
            infinite: true,
            ..GoLimits::default()
        };
        engine
            .go(request(AnyPosition::start(Variant::Othello), limits))
            .unwrap();
        engine.ready();
        assert!(engine.has_pending_jobs(), "the search goes on");
        engine.stop();
        engine.wait();
    }
}
