//! The engine: one worker thread that searches, fed through a channel, with an
//! atomic stop flag — the API every protocol front end drives.
//!
//! Calls on [`Engine`] never wait for a search: `go` queues a job and returns,
//! `stop` sets the flag (and wakes a worker waiting out an infinite search). The
//! worker reports through the callback given at start-up: iteration info, notes,
//! and exactly one [`Report::Done`] per `go`. The front end decides how reports
//! look on the wire; the engine never prints.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle, Thread};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, unbounded};

use crate::book::Books;
use crate::eval::{DISC, Evaluator, Evaluators};
use crate::game::{AnyMove, AnyPosition, Color, Position};
use crate::perft::{PassRule, perft_until};
use crate::rng::Rng;
use crate::score::Score;
use crate::search::time::{self, Clock};
use crate::search::tt::TableError;
use crate::search::{Iteration, Limits, Searchable, Selectivity, TranspositionTable, think};

/// Default transposition table size in megabytes.
pub const DEFAULT_HASH_MB: usize = 64;

/// Smallest transposition table the `Hash` option and `--hash` accept, in megabytes.
pub const MIN_HASH_MB: usize = 1;

/// Largest transposition table the `Hash` option and `--hash` accept, in megabytes.
pub const MAX_HASH_MB: usize = 16 * 1024;

/// Most search threads the `Threads` option and `--threads` accept.
pub const MAX_THREADS: usize = 256;

/// A forced answer (a pass, or the single legal move of a timed search) is
/// still given a value worth reporting: positions with at most this many
/// empty squares are solved exactly, which takes milliseconds...
pub const FORCED_SOLVE_EMPTIES: u32 = 14;

/// ...and larger ones are searched this deep (a few milliseconds).
pub const FORCED_DEPTH: u32 = 8;

/// The node budget of that search, so that a forced answer still comes at
/// once, whatever the position.
pub const FORCED_NODES: u64 = 500_000;

/// Its time budget, for a machine too busy for the node budget to be quick.
pub const FORCED_TIME: Duration = Duration::from_millis(50);

/// The strongest level (full strength: no limit, no randomness).
pub const MAX_LEVEL: u8 = 20;

/// A playing strength for people, 1 (weakest) to [`MAX_LEVEL`] - 1; full
/// strength is no level at all. A level caps the depth (level `n` searches
/// `n` plies, so it solves only the last moves exactly) and plays a random
/// move among those within [`Level::margin`] of the best, found by a
/// multi-PV search of [`Level::LINES`] lines: the weaker the level, the
/// wider the margin, so the mistakes are varied and their size grows as the
/// level falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(u8);

impl Level {
    /// Lines the search values to choose among.
    pub const LINES: usize = 6;

    /// Level `n` (1 to [`MAX_LEVEL`]); `None` for [`MAX_LEVEL`] (full
    /// strength) or a number out of range.
    pub fn new(n: u8) -> Option<Level> {
        (1..MAX_LEVEL).contains(&n).then_some(Level(n))
    }

    /// Its number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The deepest iteration.
    pub fn depth(self) -> u32 {
        u32::from(self.0)
    }

    /// How far below the best move a move may be and still be played: half
    /// a disc a level below full strength (9.5 discs at level 1, 0.5 at
    /// level 19).
    pub fn margin(self) -> Score {
        Score::from_centi(i32::from(MAX_LEVEL - self.0) * DISC / 2)
    }
}

/// The limits of one `go`, as the protocols give them (times and counts).
/// p1 is the first player (black, X).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// Black's clock.
    pub p1time: Option<Duration>,
    /// White's clock.
    pub p2time: Option<Duration>,
    /// Black's increment.
    pub p1inc: Option<Duration>,
    /// White's increment.
    pub p2inc: Option<Duration>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search this long, never longer.
    pub movetime: Option<Duration>,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Search until `stop`, and answer only then.
    pub infinite: bool,
    /// Ponder: search without a clock until `ponderhit` (then search on
    /// with these limits, counted from it) or `stop` (then answer).
    pub ponder: bool,
    /// The selectivity of the Othello midgame search (an engine option, not
    /// a `go` limit: the front ends set it from their settings).
    pub selectivity: Selectivity,
    /// Search threads, likewise an engine option (0 counts as 1).
    pub threads: usize,
    /// Lines to value (multi-PV), likewise an engine option (0 counts as 1).
    pub multipv: usize,
    /// The root moves to choose from, as a set of squares (`go
    /// searchmoves`); `None`: every legal move.
    pub searchmoves: Option<u64>,
    /// A playing strength below the full one, likewise an engine option.
    pub level: Option<Level>,
    /// Answer from the opening book when it knows the position (an engine
    /// option too; never for `infinite`, which is analysis).
    pub book: bool,
    /// Book moves within this many discs of the best are played at random.
    pub book_randomness: u32,
}

impl GoLimits {
    /// The search limits for a position whose side to move is `to_move`, counted
    /// from `received` (when the `go` was read), keeping `overhead` in reserve.
    pub fn to_limits(
        &self,
        to_move: Color,
        empties: u32,
        overhead: Duration,
        received: Instant,
    ) -> Limits {
        let movetime = self.movetime.map(|t| time::for_movetime(t, overhead));
        let (remaining, increment) = match to_move {
            Color::Black => (self.p1time, self.p1inc),
            Color::White => (self.p2time, self.p2inc),
        };
        let clock = remaining.map(|r| {
            time::for_clock(
                Clock {
                    remaining: r,
                    increment: increment.unwrap_or_default(),
                    moves_to_go: self.movestogo,
                },
                empties,
                overhead,
            )
        });
        let budget = if self.infinite {
            None
        } else {
            match (movetime, clock) {
                (Some(a), Some(b)) => Some(time::Budget {
                    soft: a.soft.min(b.soft),
                    hard: a.hard.min(b.hard),
                }),
                (a, b) => a.or(b),
            }
        };
        Limits {
            start: received,
            depth: self.depth,
            nodes: self.nodes,
            budget,
            selectivity: self.selectivity,
            threads: self.threads.max(1),
            multipv: self.multipv.max(1),
            searchmoves: self.searchmoves,
            solve_early: true,
        }
    }

    /// Whether the search is bounded by a clock or a move time (then a single
    /// legal move is answered at once).
    fn is_timed(&self) -> bool {
        !self.infinite
            && (self.movetime.is_some() || self.p1time.is_some() || self.p2time.is_some())
    }
}

/// One search request.
#[derive(Clone, Copy, Debug)]
pub struct GoRequest {
    /// The position to search.
    pub position: AnyPosition,
    /// Its limits.
    pub limits: GoLimits,
    /// When the request was read: all deadlines count from here.
    pub received: Instant,
    /// Time kept in reserve for I/O.
    pub overhead: Duration,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// Play this move.
    Move(AnyMove),
    /// No legal placement: pass.
    Pass,
    /// The game is over: there is no move.
    None,
}

/// What one finished iteration found, in protocol-neutral form: the moves of
/// the principal variation as moves of whichever game is played.
pub type SearchInfo = Iteration<AnyMove>;

fn search_info<M: Copy + Into<AnyMove>>(it: &Iteration<M>) -> SearchInfo {
    Iteration {
        depth: it.depth,
        seldepth: it.seldepth,
        score: it.score,
        exact: it.exact,
        selectivity: it.selectivity,
        nodes: it.nodes,
        elapsed: it.elapsed,
        pv: it.pv.iter().map(|&mv| mv.into()).collect(),
        lines: it
            .lines
            .iter()
            .map(|line| crate::search::PvLine {
                score: line.score,
                pv: line.pv.iter().map(|&mv| mv.into()).collect(),
            })
            .collect(),
    }
}

/// The end of one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchDone {
    /// The move to play.
    pub best: BestMove,
    /// The last finished iteration, if any.
    pub info: Option<SearchInfo>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time since the `go` was read.
    pub elapsed: Duration,
}

/// What the worker tells the front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// An iteration finished.
    Info(SearchInfo),
    /// A remark for the user (`info string` in UGI).
    Note(String),
    /// The `go` is answered from the opening book (before its `Done`).
    Book(BookNote),
    /// The search of a `go` ended; exactly one per `go`.
    Done(SearchDone),
    /// Perft finished one depth.
    Perft {
        /// Depth counted.
        depth: u32,
        /// Leaves at that depth.
        leaves: u64,
        /// Time taken.
        elapsed: Duration,
    },
    /// Perft is over (finished or stopped).
    PerftDone {
        /// Leaves over all depths counted.
        total: u64,
        /// Whether `stop` cut it short.
        stopped: bool,
    },
}

/// `ponderhit` came while no ponder search was running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotPondering;

impl std::fmt::Display for NotPondering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no ponder search is running")
    }
}

impl std::error::Error for NotPondering {}

/// A move the opening book chose: written `book f5 value 1 depth 16`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookNote {
    /// The move.
    pub mv: AnyMove,
    /// The book's value in whole discs, for the side to move.
    pub value: i32,
    /// The depth of the search that valued it.
    pub depth: u8,
}

impl fmt::Display for BookNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "book {} value {} depth {}",
            self.mv, self.value, self.depth
        )
    }
}

/// What the protocol thread and the worker share about a ponder search.
#[derive(Default)]
struct PonderState {
    /// A ponder search is queued or running and neither `ponderhit` nor
    /// `stop` has come.
    active: AtomicBool,
    /// The ponder search's own stop flag: `ponderhit` and `stop` both end
    /// it (only `stop` ends the search after a `ponderhit`).
    stop: AtomicBool,
    /// When `ponderhit` came: the real search's clock counts from there.
    hit: Mutex<Option<Instant>>,
}

/// The engine was asked for a new job while a search or perft was running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy;

impl std::fmt::Display for Busy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a search is running (send stop first)")
    }
}

impl std::error::Error for Busy {}

/// Why the engine could not start.
#[derive(Debug)]
pub enum StartError {
    /// The transposition table's memory is not there.
    Table(TableError),
    /// The search thread could not be started.
    Thread(std::io::Error),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Table(e) => e.fmt(f),
            StartError::Thread(e) => write!(f, "cannot start the search thread: {e}"),
        }
    }
}

impl std::error::Error for StartError {}

/// Why the table was not resized; the old one is kept either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResizeError {
    /// A search or perft is running.
    Busy,
    /// The memory for the new table is not there.
    Table(TableError),
}

impl std::fmt::Display for ResizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResizeError::Busy => Busy.fmt(f),
            ResizeError::Table(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ResizeError {}

impl From<Busy> for ResizeError {
    fn from(_: Busy) -> ResizeError {
        ResizeError::Busy
    }
}

enum Job {
    Go(GoRequest),
    Perft {
        position: AnyPosition,
        depth: u32,
    },
    /// Use this table from now on (allocated by the caller, so that a failure
    /// is reported at once and the old table stays).
    Replace(TranspositionTable),
    Clear,
    /// Play from these books from now on.
    Books(Books),
}

/// The callback the worker reports through.
pub type Reporter = Arc<dyn Fn(Report) + Send + Sync>;

/// A running engine: the handle the protocol thread keeps.
pub struct Engine {
    jobs: Option<Sender<Job>>,
    stop: Arc<AtomicBool>,
    busy: Arc<AtomicBool>,
    pending: Arc<AtomicUsize>,
    ponder: Arc<PonderState>,
    evaluators: Arc<Evaluators>,
    worker: Option<JoinHandle<()>>,
    worker_thread: Thread,
}

impl Engine {
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
        let stop = Arc::new(AtomicBool::new(false));
        let busy = Arc::new(AtomicBool::new(false));
        let pending = Arc::new(AtomicUsize::new(0));
        let ponder = Arc::new(PonderState::default());
        let mut worker = Worker {
            jobs: receiver,
            stop: Arc::clone(&stop),
            busy: Arc::clone(&busy),
            pending: Arc::clone(&pending),
            ponder: Arc::clone(&ponder),
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
        let worker_thread = handle.thread().clone();
        Ok(Engine {
            jobs: Some(sender),
            stop,
            busy,
            pending,
            ponder,
            evaluators,
            worker: Some(handle),
            worker_thread,
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
    /// a `go` right after them is accepted. Nothing is queued while busy.
    fn submit(&self, job: Job) -> Result<(), Busy> {
        let marks_busy = matches!(job, Job::Go(_) | Job::Perft { .. });
        if marks_busy {
            if self.busy.swap(true, Ordering::SeqCst) {
                return Err(Busy);
            }
            self.stop.store(false, Ordering::SeqCst);
            let ponder = matches!(&job, Job::Go(request) if request.limits.ponder);
            *self.ponder.hit.lock().unwrap_or_else(|e| e.into_inner()) = None;
            self.ponder.stop.store(false, Ordering::SeqCst);
            self.ponder.active.store(ponder, Ordering::SeqCst);
        } else if self.is_busy() {
            return Err(Busy);
        }
        self.pending.fetch_add(1, Ordering::SeqCst);
        if let Some(jobs) = &self.jobs {
            jobs.send(job)
                .expect("the search thread outlives the engine handle");
        }
        Ok(())
    }

    /// Starts a search; its reports follow through the reporter.
    ///
    /// # Errors
    /// [`Busy`] if a search or perft is running; nothing changes then.
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
        self.stop.store(true, Ordering::SeqCst);
        self.ponder.active.store(false, Ordering::SeqCst);
        self.ponder.stop.store(true, Ordering::SeqCst);
        self.worker_thread.unpark();
    }

    /// The opponent played the move the running ponder search assumed: it
    /// becomes the real search, with its limits counted from `at` (over the
    /// table the pondering filled).
    ///
    /// # Errors
    /// [`NotPondering`] when no ponder search runs (or `stop` or a
    /// `ponderhit` already ended it); nothing changes then.
    pub fn ponderhit(&self, at: Instant) -> Result<(), NotPondering> {
        if !self.ponder.active.swap(false, Ordering::SeqCst) {
            return Err(NotPondering);
        }
        *self.ponder.hit.lock().unwrap_or_else(|e| e.into_inner()) = Some(at);
        self.ponder.stop.store(true, Ordering::SeqCst);
        self.worker_thread.unpark();
        Ok(())
    }

    /// Whether a ponder search runs that `ponderhit` would turn real.
    pub fn is_pondering(&self) -> bool {
        self.ponder.active.load(Ordering::SeqCst)
    }

    /// Whether a job is running or queued.
    pub fn is_busy(&self) -> bool {
        self.busy.load(Ordering::SeqCst)
    }

    /// Waits until the last job has finished and made its final report.
    pub fn wait(&self) {
        while self.pending.load(Ordering::SeqCst) != 0 {
            thread::sleep(Duration::from_micros(200));
        }
    }

    /// Waits until the table jobs queued so far (a resize, the clearing of a
    /// new game) are done, so that a `go` sent next starts at once: what
    /// `readyok` promises. Returns at once while a search or perft runs or
    /// waits in the queue: the engine is then ready for `stop`.
    pub fn ready(&self) {
        while !self.is_busy() && self.pending.load(Ordering::SeqCst) != 0 {
            thread::sleep(Duration::from_micros(200));
        }
    }

    /// Whether a job is queued or running (a search, perft or table job).
    pub fn has_pending_jobs(&self) -> bool {
        self.pending.load(Ordering::SeqCst) != 0
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

/// The limits of the search that values a forced answer: exact when the
/// position is small, else shallow; always within [`FORCED_NODES`] and
/// [`FORCED_TIME`], and never beyond the limits the `go` itself set.
fn forced_limits(limits: &Limits, empties: u32) -> Limits {
    let depth = if empties <= FORCED_SOLVE_EMPTIES {
        empties.max(1)
    } else {
        FORCED_DEPTH
    };
    let hard = limits
        .budget
        .map_or(FORCED_TIME, |b| b.hard.min(FORCED_TIME));
    Limits {
        start: limits.start,
        depth: Some(limits.depth.map_or(depth, |d| d.min(depth))),
        nodes: Some(limits.nodes.map_or(FORCED_NODES, |n| n.min(FORCED_NODES))),
        budget: Some(time::Budget { soft: hard, hard }),
        selectivity: limits.selectivity,
        // A few milliseconds of search: not worth starting threads for.
        threads: 1,
        ..*limits
    }
}

/// A seed that differs from one run to the next (the clock and the process),
/// so that a person meets other games at a weak level each time.
fn entropy() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

struct Worker {
    jobs: Receiver<Job>,
    stop: Arc<AtomicBool>,
    /// Cleared when a job's work is done, just before its final report.
    busy: Arc<AtomicBool>,
    /// Jobs submitted whose final report has not been made yet.
    pending: Arc<AtomicUsize>,
    ponder: Arc<PonderState>,
    tt: TranspositionTable,
    evaluators: Arc<Evaluators>,
    report: Reporter,
    /// The opening books, built in or loaded (`BookFile`).
    books: Books,
    /// The random choices of the weaker levels and among book moves.
    rng: Rng,
}

impl Worker {
    fn run(&mut self) {
        while let Ok(job) = self.jobs.recv() {
            match job {
                Job::Go(request) => {
                    let done = self.go(&request);
                    // Idle before the answer goes out, so that a front end that
                    // reacts to it with a new `go` is never refused.
                    self.busy.store(false, Ordering::SeqCst);
                    (self.report)(Report::Done(done));
                }
                Job::Perft { position, depth } => {
                    let (total, stopped) = self.perft(position, depth);
                    self.busy.store(false, Ordering::SeqCst);
                    (self.report)(Report::PerftDone { total, stopped });
                }
                Job::Replace(table) => self.tt = table,
                Job::Clear => self.tt.clear(),
                Job::Books(books) => self.books = books,
            }
            self.pending.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// The book's answer to `request`, if it has one: said in a note, with
    /// the book's value and depth as the answer's info.
    fn book_answer(&mut self, request: &GoRequest) -> Option<SearchDone> {
        // Analysis (several lines, a restricted root) wants the search's
        // lines; a level below full strength plays its own weaker openings.
        let limits = &request.limits;
        if !limits.book
            || limits.infinite
            || limits.multipv > 1
            || limits.searchmoves.is_some()
            || limits.level.is_some()
        {
            return None;
        }
        let (book, board) = match &request.position {
            AnyPosition::Othello(p) => (self.books.othello.as_ref()?, p.state().0),
            AnyPosition::Reversed(p) => (self.books.reversed.as_ref()?, p.state().0),
            AnyPosition::TicTacToe(_) => return None,
        };
        if !board.can_move() {
            return None;
        }
        let choice = book.choose(&board, request.limits.book_randomness, &mut self.rng)?;
        let mv: AnyMove = choice.mv.into();
        (self.report)(Report::Book(BookNote {
            mv,
            value: choice.value,
            depth: choice.depth,
        }));
        let elapsed = request.received.elapsed();
        Some(SearchDone {
            best: BestMove::Move(mv),
            info: Some(Iteration {
                depth: u32::from(choice.depth),
                seldepth: u32::from(choice.depth),
                score: Score::from_discs(choice.value),
                exact: false,
                selectivity: crate::search::Selectivity::DEFAULT.percent(),
                nodes: 0,
                elapsed,
                pv: vec![mv],
                lines: Vec::new(),
            }),
            nodes: 0,
            elapsed,
        })
    }

    fn go(&mut self, request: &GoRequest) -> SearchDone {
        if !request.limits.ponder {
            let stop = Arc::clone(&self.stop);
            return self.go_with(request, &stop);
        }
        // Pondering: the position without a clock, until `ponderhit` or
        // `stop` (never answering by itself, even when the search ends). The
        // book is asked once, by the real search after a `ponderhit`: one
        // choice, one note (and none for `go ponder infinite`).
        let pondering = GoRequest {
            limits: GoLimits {
                p1time: None,
                p2time: None,
                p1inc: None,
                p2inc: None,
                movestogo: None,
                movetime: None,
                infinite: false,
                ponder: false,
                book: false,
                ..request.limits
            },
            ..*request
        };
        let ponder_stop = Arc::clone(&self.ponder);
        let done = self.go_with(&pondering, &ponder_stop.stop);
        while !self.ponder.stop.load(Ordering::SeqCst) {
            thread::park_timeout(Duration::from_millis(20));
        }
        let hit = self
            .ponder
            .hit
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        match hit {
            // `ponderhit`, and no `stop` since: the real search, its clock
            // counted from the `ponderhit`, over the table just filled.
            Some(at) if !self.stop.load(Ordering::SeqCst) => {
                let real = GoRequest {
                    limits: GoLimits {
                        ponder: false,
                        ..request.limits
                    },
                    received: at,
                    ..*request
                };
                let stop = Arc::clone(&self.stop);
                self.go_with(&real, &stop)
            }
            _ => done,
        }
    }

    /// One search of `request`, ended early by `stop`.
    fn go_with(&mut self, request: &GoRequest, stop: &AtomicBool) -> SearchDone {
        if let Some(done) = self.book_answer(request) {
            return done;
        }
        let evaluators = Arc::clone(&self.evaluators);
        let done = match &request.position {
            AnyPosition::Othello(p) => self.search(p, &evaluators.othello, request, stop),
            AnyPosition::Reversed(p) => self.search(p, &evaluators.reversed, request, stop),
            AnyPosition::TicTacToe(p) => self.search(p, &evaluators.tictactoe, request, stop),
        };
        if request.limits.infinite {
            // `go infinite` answers only after `stop`, whatever happened.
            while !stop.load(Ordering::SeqCst) {
                thread::park_timeout(Duration::from_millis(20));
            }
        }
        SearchDone {
            elapsed: request.received.elapsed(),
            ..done
        }
    }

    fn search<G: Searchable, E: Evaluator<G>>(
        &mut self,
        position: &Position<G>,
        eval: &E,
        request: &GoRequest,
        stop: &AtomicBool,
    ) -> SearchDone
    where
        G::Move: Into<AnyMove>,
    {
        if position.is_over() {
            (self.report)(Report::Note("game over: no move to search".into()));
            return SearchDone {
                best: BestMove::None,
                info: None,
                nodes: 0,
                elapsed: request.received.elapsed(),
            };
        }
        let empties = position.state().empties();
        let mut limits = request.limits.to_limits(
            position.to_move(),
            empties,
            request.overhead,
            request.received,
        );
        let mut moves = position.legal_moves();
        let forced = if position.must_pass() {
            (self.report)(Report::Note("no legal move: pass".into()));
            Some(BestMove::Pass)
        } else if moves.len() == 1 && request.limits.is_timed() {
            (self.report)(Report::Note("only one legal move".into()));
            let only = moves.next().expect("one move");
            Some(BestMove::Move(only.into()))
        } else {
            None
        };
        let level = request.limits.level.filter(|_| forced.is_none());
        if let Some(level) = level {
            limits.depth = Some(limits.depth.map_or(level.depth(), |d| d.min(level.depth())));
            limits.multipv = limits.multipv.max(Level::LINES);
            // The level's depth is its strength: it solves only what it reaches.
            limits.solve_early = false;
        }
        if forced.is_some() {
            // Nothing to choose, but the answer's value is shown (NBoard
            // records it in the game): a short search, exact when small.
            limits = forced_limits(&limits, empties);
        }
        let report = Arc::clone(&self.report);
        let result = think(
            position.state(),
            eval,
            &mut self.tt,
            &limits,
            stop,
            &mut |it| report(Report::Info(search_info(it))),
        );
        let chosen = level.and_then(|level| {
            let lines = &result.last.as_ref()?.lines;
            let best = lines.first()?.score;
            let near = lines
                .iter()
                .take_while(|line| line.score >= best - level.margin())
                .count();
            let pick = self.rng.below(near as u64) as usize;
            lines[pick].pv.first().copied()
        });
        let best = match (forced, chosen.or(result.best_move)) {
            (Some(forced), _) => forced,
            (None, Some(mv)) if Some(mv) == G::pass_move() => BestMove::Pass,
            (None, Some(mv)) => BestMove::Move(mv.into()),
            (None, None) => BestMove::None,
        };
        SearchDone {
            best,
            info: result.last.as_ref().map(search_info),
            nodes: result.nodes,
            elapsed: result.elapsed,
        }
    }

    fn perft(&mut self, position: AnyPosition, depth: u32) -> (u64, bool) {
        let mut total = 0;
        for d in 1..=depth {
            let started = Instant::now();
            let leaves = crate::with_position!(&position, p => perft_until(p.state(), d, PassRule::Ply, &self.stop));
            if self.stop.load(Ordering::SeqCst) {
                return (total, true);
            }
            total += leaves;
            (self.report)(Report::Perft {
                depth: d,
                leaves,
                elapsed: started.elapsed(),
            });
        }
        (total, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;
    use std::sync::Mutex;

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

    /// Forced answers stay within the limits of their `go`.
    #[test]
    fn forced_limits_are_short_and_within_the_go() {
        let now = Instant::now();
        let unbounded = Limits::infinite(now);
        let small = forced_limits(&unbounded, 10);
        assert_eq!((small.depth, small.nodes), (Some(10), Some(FORCED_NODES)));
        assert_eq!(small.budget.unwrap().hard, FORCED_TIME);
        assert_eq!(forced_limits(&unbounded, 40).depth, Some(FORCED_DEPTH));
        let tight = Limits {
            depth: Some(2),
            nodes: Some(100),
            budget: Some(time::Budget {
                soft: Duration::from_millis(1),
                hard: Duration::from_millis(3),
            }),
            ..unbounded
        };
        let limits = forced_limits(&tight, 10);
        assert_eq!((limits.depth, limits.nodes), (Some(2), Some(100)));
        assert_eq!(limits.budget.unwrap().hard, Duration::from_millis(3));
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

    #[test]
    fn clock_limits_pick_the_side_to_move() {
        let limits = GoLimits {
            p1time: Some(Duration::from_secs(10)),
            p2time: Some(Duration::from_millis(100)),
            ..GoLimits::default()
        };
        let now = Instant::now();
        let black = limits.to_limits(Color::Black, 40, Duration::from_millis(10), now);
        let white = limits.to_limits(Color::White, 40, Duration::from_millis(10), now);
        assert!(black.budget.unwrap().hard > white.budget.unwrap().hard);
        assert!(white.budget.unwrap().hard <= Duration::from_millis(90));
    }
}
