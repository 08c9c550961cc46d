//! What the protocol thread and the worker share: the stop flags the search
//! polls, and everything else under one lock with one condition variable, so
//! that every wait (for a job, a `stop`, a `ponderhit`) sleeps until the
//! change it waits for instead of polling.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// The engine's state, changed only through [`Shared::update`].
#[derive(Debug, Default)]
pub(super) struct State {
    /// A search or perft is queued or running (cleared just before its final
    /// report, so that a front end answering it with a new `go` is accepted).
    pub busy: bool,
    /// Jobs submitted whose final report has not been made yet.
    pub pending: usize,
    /// `stop` came since the running search or perft was submitted.
    pub stopped: bool,
    /// The running search is `go infinite`: it answers only after `stop`.
    pub infinite: bool,
    /// A ponder search is queued or running and neither `ponderhit` nor
    /// `stop` has come.
    pub pondering: bool,
    /// The ponder search is over: `ponderhit` or `stop` came.
    pub ponder_ended: bool,
    /// When `ponderhit` came: the real search's clock counts from there.
    pub hit: Option<Instant>,
}

impl State {
    /// Whether the running job ends only when stopped (`infinite`, or a
    /// ponder search still waiting for its `ponderhit`).
    pub fn unbounded(&self) -> bool {
        self.busy && (self.infinite || self.pondering)
    }

    /// A job is running that `stop` has ended: its final report is coming.
    pub fn ending(&self) -> bool {
        self.busy && self.stopped
    }

    /// `stop`: ends the running job, and its ponder search if any.
    pub fn stop(&mut self) {
        self.stopped = true;
        self.pondering = false;
        self.ponder_ended = true;
    }
}

/// The state and the flags, shared by the [`Engine`](super::Engine) handle
/// and its worker.
#[derive(Debug, Default)]
pub(super) struct Shared {
    /// Ends the running search or perft: set with [`State::stopped`].
    pub stop: AtomicBool,
    /// Ends the ponder search: set with [`State::ponder_ended`].
    pub ponder_stop: AtomicBool,
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // The state is a few flags, consistent after every update: a panic
        // elsewhere while holding the lock leaves nothing half-changed.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reads the state.
    pub fn read<R>(&self, f: impl FnOnce(&State) -> R) -> R {
        f(&self.lock())
    }

    /// Changes the state, keeps the stop flags in step with it, and wakes
    /// every waiter.
    pub fn update<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        self.update_when(|_| true, f)
    }

    /// Sleeps until `ready` holds, then changes the state as
    /// [`Shared::update`] does, under the same lock: nothing can come between.
    pub fn update_when<R>(
        &self,
        mut ready: impl FnMut(&State) -> bool,
        f: impl FnOnce(&mut State) -> R,
    ) -> R {
        let mut state = self.lock();
        while !ready(&state) {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        let result = f(&mut state);
        self.stop.store(state.stopped, Ordering::SeqCst);
        self.ponder_stop.store(state.ponder_ended, Ordering::SeqCst);
        drop(state);
        self.changed.notify_all();
        result
    }

    /// Sleeps until `done` holds.
    pub fn wait_until(&self, mut done: impl FnMut(&State) -> bool) {
        let mut state = self.lock();
        while !done(&state) {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::thread;

    #[test]
    fn updates_wake_waiters_and_move_the_flags() {
        let shared = Arc::new(Shared::default());
        let waiter = {
            let shared = Arc::clone(&shared);
            thread::spawn(move || shared.wait_until(|s| s.stopped))
        };
        shared.update(|s| s.stopped = true);
        waiter.join().unwrap();
        assert!(shared.stop.load(Ordering::SeqCst));
        assert!(!shared.ponder_stop.load(Ordering::SeqCst));
        shared.update(|s| {
            s.stopped = false;
            s.ponder_ended = true;
        });
        assert!(!shared.stop.load(Ordering::SeqCst));
        assert!(shared.ponder_stop.load(Ordering::SeqCst));
    }

    #[test]
    fn only_infinite_and_pondering_jobs_are_unbounded() {
        let mut state = State {
            busy: true,
            ..State::default()
        };
        assert!(!state.unbounded());
        state.infinite = true;
        assert!(state.unbounded());
        state.infinite = false;
        state.pondering = true;
        assert!(state.unbounded());
        state.busy = false;
        assert!(!state.unbounded());
    }
}
