//! The search thread: takes [`Job`]s from the channel in order, answers a
//! `go` from the book or by a search (a forced move or a pass valued by a
//! short one, a weaker level choosing among near-best lines), waits out
//! `infinite` and ponder searches, and counts perft.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crossbeam_channel::Receiver;

use super::level::Level;
use super::limits::{GoLimits, GoRequest, forced_limits};
use super::report::{BestMove, BookNote, Report, Reporter, SearchDone, played_line, search_info};
use super::state::Shared;
use crate::book::Books;
use crate::eval::{Evaluator, Evaluators};
use crate::game::{AnyMove, AnyPosition, Position};
use crate::perft::{PassRule, perft_until};
use crate::rng::Rng;
use crate::score::Score;
use crate::search::{Iteration, Searchable, TranspositionTable, think};

/// Work for the worker, in the order submitted.
pub(super) enum Job {
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

/// so that a person meets other games at a weak level each time.
pub(super) fn entropy() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

/// The search thread: runs the jobs one after the other.
pub(super) struct Worker {
    pub jobs: Receiver<Job>,
    pub shared: Arc<Shared>,
    pub tt: TranspositionTable,
    pub evaluators: Arc<Evaluators>,
    pub report: Reporter,
    /// The opening books, built in or loaded (`BookFile`).
    pub books: Books,
    /// The random choices of the weaker levels and among book moves.
    pub rng: Rng,
}

impl Worker {
    pub fn run(&mut self) {
        while let Ok(job) = self.jobs.recv() {
            match job {
                Job::Go(request) => {
                    let done = self.go(&request);
                    // Idle before the answer goes out, so that a front end that
                    // reacts to it with a new `go` is never refused.
                    self.shared.update(|s| s.busy = false);
                    (self.report)(Report::Done(done));
                }
                Job::Perft { position, depth } => {
                    let (total, stopped) = self.perft(position, depth);
                    self.shared.update(|s| s.busy = false);
                    (self.report)(Report::PerftDone { total, stopped });
                }
                Job::Replace(table) => self.tt = table,
                Job::Clear => self.tt.forget(),
                Job::Books(books) => self.books = books,
            }
            self.shared.update(|s| s.pending -= 1);
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
        let shared = Arc::clone(&self.shared);
        if !request.limits.ponder {
            return self.go_with(request, &shared.stop);
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
        let done = self.go_with(&pondering, &shared.ponder_stop);
        shared.wait_until(|s| s.ponder_ended);
        match shared.read(|s| s.hit.filter(|_| !s.stopped)) {
            // `ponderhit`, and no `stop` since: the real search, its clock
            // counted from the `ponderhit`, over the table just filled.
            Some(at) => {
                let real = GoRequest {
                    limits: GoLimits {
                        ponder: false,
                        ..request.limits
                    },
                    received: at,
                    ..*request
                };
                self.go_with(&real, &shared.stop)
            }
            None => done,
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
            self.shared.wait_until(|s| s.stopped);
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
        // A level plays one of its near-best lines: which one.
        let pick = level.and_then(|level| {
            let lines = &result.last.as_ref()?.lines;
            let best = lines.first()?.score;
            let near = lines
                .iter()
                .take_while(|line| line.score >= best - level.margin())
                .count();
            Some(self.rng.below(near as u64) as usize)
        });
        let chosen = pick.and_then(|pick| {
            let lines = &result.last.as_ref()?.lines;
            lines.get(pick)?.pv.first().copied()
        });
        let mut info = result.last.as_ref().map(search_info);
        if let (Some(pick), Some(last)) = (pick, info.as_mut()) {
            // The last report describes the move played, not the best line.
            *last = played_line(last, pick, request.limits.multipv);
            report(Report::Info(last.clone()));
        }
        let best = match (forced, chosen.or(result.best_move)) {
            (Some(forced), _) => forced,
            (None, Some(mv)) if Some(mv) == G::pass_move() => BestMove::Pass,
            (None, Some(mv)) => BestMove::Move(mv.into()),
            (None, None) => BestMove::None,
        };
        SearchDone {
            best,
            info,
            nodes: result.nodes,
            elapsed: result.elapsed,
        }
    }

    fn perft(&mut self, position: AnyPosition, depth: u32) -> (u64, bool) {
        let mut total = 0;
        for d in 1..=depth {
            let started = Instant::now();
            let leaves = crate::with_position!(&position, p => perft_until(p.state(), d, PassRule::Ply, &self.shared.stop));
            if self.shared.stop.load(Ordering::SeqCst) {
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
