//! `orca web`: a page to play and analyse Orca in a browser, served by the
//! binary itself. A front end beside the protocols over the same [`Engine`]
//! API: one engine per open game ([`game`]), an HTTP API of JSON requests
//! and Server-Sent Events ([`api`]), and the page's files built into the
//! binary ([`page`]).
//!
//! [`Engine`]: crate::engine::Engine

pub mod api;
pub mod game;
pub mod page;
pub mod view;

use std::collections::HashMap;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
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

impl Default for WebConfig {
    fn default() -> Self {
        WebConfig {
            max_games: 8,
            idle: Duration::from_secs(60),
        }
    }
}

/// Requests handled at once (event streams included); one more gets 503.
pub const MAX_HANDLERS: usize = 64;

/// Event streams of one game at once (tabs showing it).
pub const MAX_STREAMS: usize = 4;

/// The server's shared state: the open games.
pub struct Web {
    games: Mutex<HashMap<u64, Arc<Mutex<WebGame>>>>,
    next_id: AtomicU64,
    handlers: AtomicUsize,
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
            handlers: AtomicUsize::new(0),
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
            lock(game).stop();
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

/// Serves `server` until the process ends: each request on a thread of
/// its own, the idle games swept every second.
pub fn serve(server: tiny_http::Server, web: Arc<Web>) {
    let own_address = server.server_addr().to_ip().map(|mut address| {
        if address.ip().is_unspecified() {
            address.set_ip(match address {
                SocketAddr::V4(_) => Ipv4Addr::LOCALHOST.into(),
                SocketAddr::V6(_) => Ipv6Addr::LOCALHOST.into(),
            });
        }
        address
    });
    let mut last_sweep = std::time::Instant::now();
    loop {
        if last_sweep.elapsed() >= Duration::from_secs(1) {
            web.sweep();
            if let Some(address) = own_address {
                wake_connection_threads(address);
            }
            last_sweep = std::time::Instant::now();
        }
        let request = match server.recv_timeout(Duration::from_millis(500)) {
            Ok(Some(request)) => request,
            Ok(None) => continue,
            Err(e) => {
                log::warn!("web: {e}");
                continue;
            }
        };
        if web.handlers.fetch_add(1, Ordering::SeqCst) >= MAX_HANDLERS {
            web.handlers.fetch_sub(1, Ordering::SeqCst);
            api::refuse_busy(request);
            continue;
        }
        let handler_web = Arc::clone(&web);
        let spawned = thread::Builder::new()
            .name("web request".into())
            .spawn(move || {
                api::handle(&handler_web, request);
                handler_web.handlers.fetch_sub(1, Ordering::SeqCst);
            });
        if let Err(e) = spawned {
            web.handlers.fetch_sub(1, Ordering::SeqCst);
            log::warn!("web: cannot start a thread: {e}");
        }
    }
}

/// Opens and closes a connection to the server itself. tiny_http 0.12 gives
/// each connection a thread of its pool for the connection's whole life,
/// and when connections come faster than its idle threads wake up it can
/// queue one against a stale count of waiting threads, with no thread left
/// to take it: a page's third event stream opened after a quiet spell hung
/// until some other connection ended. Our own connection makes the pool
/// start or wake a thread, which then takes the queued one: a stalled
/// connection waits a second at most.
fn wake_connection_threads(address: SocketAddr) {
    if let Err(e) = TcpStream::connect_timeout(&address, Duration::from_millis(200)) {
        log::debug!("web: cannot connect to {address}: {e}");
    }
}
