//! The parallel exact solve: every thread runs the same solve (selective
//! passes, then the exact one) of the same root over the shared table, and
//! they split the work the ABDADA way (Weill's "alpha-beta distributed with
//! deferred answer"): a node far enough from the end marks each child it
//! searches as busy in a small shared table ([`BusyTable`]), and a thread
//! that meets a busy child after the first move of a node defers it and
//! searches its other moves first; once it comes back, the deferred child is
//! usually in the transposition table and costs a probe.
//!
//! Why this design: it needs no change to the node searches but the move
//! loop, no locks or waiting anywhere (a stop is seen as fast as with one
//! thread), and threads running at once no longer search the same subtree
//! side by side, as threads that all solve in the same order do (Lazy SMP
//! alone); diversifying their orders instead would cost each of them the
//! good order. Young Brothers Wait split points (Edax, Egaroucid) share
//! better on many cores, at the cost of a task queue and of threads waiting
//! at split points. `docs/threads.md` has the measurements.
//!
//! The score never depends on the thread count: a thread only reads bounds
//! that some search proved, exact ones where the pass is exact (a selective
//! pass's entries carry its level), so every bound a thread uses is as true
//! as its own; deferring changes only the order of the moves. The best move
//! may differ between equally good moves.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::ordering::Item;
use super::{Discs, Solver};
use crate::eval::Evaluator;
use crate::game::{Board, Othello};

/// Children of nodes with at least this many empties are marked busy and
/// may be deferred: their subtrees are large enough for the marks to pay.
pub(super) const SPLIT_EMPTIES: u32 = 12;

/// How many busy children one node defers at most; the others it searches
/// at once (a node has rarely more than this many moves still busy).
pub(super) const MAX_DEFERRED: usize = 8;

/// Entries of the busy table (a power of two): more than the nodes all
/// threads can have open at once, so that marks seldom overwrite each other.
const BUSY_ENTRIES: usize = 1 << 14;

/// The positions being searched right now, by any thread: one word a slot,
/// the searched position's tag (key and pass level), 0 when free. Marks may
/// overwrite each other or be cleared early by a twin search: that only costs
/// a deferral, never a result, so plain relaxed atomics do.
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyTable {
    fn default() -> Self {
        BusyTable {
            slots: (0..BUSY_ENTRIES).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl BusyTable {
    #[inline]
    fn slot(&self, tag: u64) -> &AtomicU64 {
        &self.slots[(tag as usize) & (BUSY_ENTRIES - 1)]
    }

    /// The tag of the position with hash key `key` in a pass of `level`: a
    /// child searched in another pass is not the same work.
    #[inline]
    pub(super) fn tag(key: u64, level: u8) -> u64 {
        (key ^ u64::from(level).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
    }

    /// Whether some thread is searching the position of `tag`.
    #[inline]
    pub(super) fn is_busy(&self, tag: u64) -> bool {
        self.slot(tag).load(Ordering::Relaxed) == tag
    }

    /// Marks the position of `tag` as being searched.
    #[inline]
    pub(super) fn enter(&self, tag: u64) {
        self.slot(tag).store(tag, Ordering::Relaxed);
    }

    /// Clears the mark of `tag`, unless another position took the slot.
    #[inline]
    pub(super) fn leave(&self, tag: u64) {
        let _ = self
            .slot(tag)
            .compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// The moves of one node put off because another thread was searching them,
/// taken up again once the node's other moves are done.
pub(super) struct Deferred {
    items: [Item; MAX_DEFERRED],
    len: usize,
    retried: usize,
}

impl Deferred {
    pub(super) fn new() -> Self {
        Deferred {
            items: [Item::default(); MAX_DEFERRED],
            len: 0,
            retried: 0,
        }
    }

    /// The node's next move: `fresh` (the next of its list) while there is
    /// one, then the moves put off; with whether it is one taken up again.
    #[inline(always)]
    pub(super) fn next(&mut self, fresh: Option<Item>) -> Option<(Item, bool)> {
        match fresh {
            Some(item) => Some((item, false)),
            None if self.retried < self.len => {
                self.retried += 1;
                Some((self.items[self.retried - 1], true))
            }
            None => None,
        }
    }

    /// Puts `item` (of tag `tag`) off if another thread is searching it,
    /// past the node's first move and never twice; true if it did.
    #[inline(always)]
    pub(super) fn put_off(
        &mut self,
        busy: Option<&BusyTable>,
        tag: u64,
        item: Item,
        searched: usize,
        retried: bool,
    ) -> bool {
        let put_off = busy.is_some_and(|busy| {
            searched > 0 && !retried && self.len < MAX_DEFERRED && busy.is_busy(tag)
        });
        if put_off {
            self.items[self.len] = item;
            self.len += 1;
        }
        put_off
    }
}

impl<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Solver<'a, REVERSED, E> {
    /// This solver marking and deferring busy children in `busy`, shared with
    /// the other threads solving the same root (`None`: alone, as before).
    pub fn with_busy(mut self, busy: Option<&'a BusyTable>) -> Self {
        self.busy = busy;
        self
    }

    /// [`Self::solve`] with `threads` search threads: `threads - 1` helpers
    /// solve the same root over the same table until this solve is done
    /// ([`self`](super::parallel)). [`Self::nodes`] counts the nodes of all
    /// threads; the stop flag, deadline and node limit apply to this thread,
    /// whose end ends the helpers.
    pub fn solve_threads(
        &mut self,
        board: Board,
        alpha: Discs,
        beta: Discs,
        threads: usize,
    ) -> Discs {
        if threads <= 1 || self.busy.is_some() {
            return self.solve(board, alpha, beta);
        }
        let busy = BusyTable::default();
        let done = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        let (tt, eval, salt, settings) = (self.tt, self.eval, self.salt, self.settings);
        let node_limit = self.node_limit.saturating_sub(self.nodes);
        let (score, nodes, aborted) = std::thread::scope(|scope| {
            for index in 1..threads {
                let (busy, done, helper_nodes) = (&busy, &done, &helper_nodes);
                let helper = move || {
                    let mut helper = Solver::<REVERSED, E>::new(tt, eval, done, None, None, salt)
                        .with_settings(settings)
                        .with_busy(Some(busy));
                    helper.solve(board, alpha, beta);
                    helper_nodes.fetch_add(helper.nodes, Ordering::Relaxed);
                };
                // A thread the system refuses is simply not there.
                let started = std::thread::Builder::new()
                    .name(format!("orca-solver-{index}"))
                    .spawn_scoped(scope, helper);
                if started.is_err() {
                    break;
                }
            }
            let mut main = Solver::<REVERSED, E>::new(
                tt,
                eval,
                self.stop,
                self.deadline,
                Some(node_limit),
                salt,
            )
            .with_settings(settings)
            .with_busy(Some(&busy));
            let score = main.solve(board, alpha, beta);
            done.store(true, Ordering::Relaxed);
            (score, main.nodes, main.aborted)
        });
        // The helpers have all ended: their count is complete.
        let helper_nodes = helper_nodes.load(Ordering::Relaxed);
        log::debug!(
            "parallel solve: {threads} threads, {nodes} nodes in the main one, {helper_nodes} in the helpers"
        );
        self.nodes += nodes + helper_nodes;
        self.aborted |= aborted;
        score
    }
}
