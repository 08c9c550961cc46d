//! `orca web`: a page to play and analyse Orca in a browser, served by the
//! binary itself. A front end beside the protocols over the same [`Engine`]
//! API: one engine per open game ([`game`]), an HTTP API of JSON requests
//! and Server-Sent Events ([`api`]), and the page's files built into the
//! binary ([`page`]).
//!
//! [`Engine`]: crate::engine::Engine

pub mod api;
pub mod clock;
pub mod game;
pub mod page;
pub mod view;

use std::collections::HashMap;
use std::io;
use std::net::TcpListener;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::book::Books;
use crate::eval::Evaluators;
use game::{WebGame, lock};

/// The limits of one server.
#[derive(Clone, Copy, Debug)]
pub struct WebConfig {
    /// Games open at once (each holds an engine); one more is refused.
    pub max_games: usize,
    /// A game without an event stream (its tab gone) and without requests
    /// for this long is closed and its engine freed.
    pub idle: Duration,
}

impl WebConfig {
    /// How often the idle games are looked for: a quarter of the idle
    /// time, from 10 ms to a second.
    pub fn sweep_every(&self) -> Duration {
        (self.idle / 4).clamp(Duration::from_millis(10), Duration::from_secs(1))
    }

    /// How long an event stream stays quiet before a keep-alive comment:
    /// half the idle time, at most 15 s, so that a page gone without
    /// closing its connection is noticed within the idle time.
    pub fn keep_alive(&self) -> Duration {
        (self.idle / 2).clamp(Duration::from_millis(50), Duration::from_secs(15))
    }
}

impl Default for WebConfig {
    fn default() -> Self {
        WebConfig {
            max_games: 8,
            idle: Duration::from_secs(20),
        }
    }
}

/// Requests worked on at once (event streams aside, which hold no
/// thread); more wait their turn.
pub const MAX_HANDLERS: usize = 64;

/// Event streams of one game at once (tabs showing it).
pub const MAX_STREAMS: usize = 4;

/// The server's shared state: the open games.
pub struct Web {
    games: Mutex<HashMap<u64, Arc<Mutex<WebGame>>>>,
    next_id: AtomicU64,
    config: WebConfig,
    evaluators: Arc<Evaluators>,
    /// The built-in opening books, read once for all games.
    books: Arc<Books>,
}

impl Web {
    /// A server with no game open yet.
    pub fn new(config: WebConfig, evaluators: Arc<Evaluators>) -> Web {
        Web {
            games: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            config,
            evaluators,
            books: Arc::new(Books::builtin()),
        }
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Mutex<WebGame>>>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The game `id`, touched (it is in use).
    pub fn game(&self, id: u64) -> Option<Arc<Mutex<WebGame>>> {
        let game = self.games().get(&id).cloned()?;
        lock(&game).last_seen = std::time::Instant::now();
        Some(game)
    }

    /// Games open now.
    pub fn open_games(&self) -> usize {
        self.games().len()
    }

    /// Closes the game `id` (its engine stops and is freed); whether it was open.
    pub fn close(&self, id: u64) -> bool {
        let game = self.games().remove(&id);
        if let Some(game) = &game {
            lock(game).close();
        }
        game.is_some()
    }

    /// Closes the games nobody looks at: no event stream open and no
    /// request for [`WebConfig::idle`].
    pub fn sweep(&self) {
        let games: Vec<(u64, Arc<Mutex<WebGame>>)> = self
            .games()
            .iter()
            .map(|(id, game)| (*id, Arc::clone(game)))
            .collect();
        for (id, game) in games {
            let idle = {
                let mut game = lock(&game);
                game.live_streams() == 0 && game.last_seen.elapsed() >= self.config.idle
            };
            if idle {
                log::info!("web: game {id} closed: nobody looked at it");
                self.close(id);
            }
        }
    }
}

/// Serves the page on `listener` until the process ends: the requests on
/// an axum server over a tokio runtime of its own, the idle games swept
/// every [`WebConfig::sweep_every`].
///
/// # Errors
/// When the runtime or the listener cannot be set up.
pub fn serve(listener: TcpListener, web: Arc<Web>) -> io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(MAX_HANDLERS)
        .thread_name("orca-web")
        .enable_io()
        .enable_time()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let sweeper = Arc::clone(&web);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(sweeper.config.sweep_every());
            loop {
                tick.tick().await;
                let web = Arc::clone(&sweeper);
                if let Err(e) = tokio::task::spawn_blocking(move || web.sweep()).await {
                    log::warn!("web: the sweep failed: {e}");
                }
            }
        });
        axum::serve(listener, api::router(web)).await
    })
}
