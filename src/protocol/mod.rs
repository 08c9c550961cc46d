//! The text protocols Orca speaks on stdin/stdout, as thin adapters over one
//! [`crate::engine::Engine`]: [`ugi`] (the native one), [`nboard`] (the Othello
//! GUI protocol) and [`gtp`] (the match runners' protocol); [`detect`] picks one
//! from the first line when plain `orca` is started.
//!
//! Shared here: a line writer that several threads can use without interleaving
//! lines (and that never lets a control character through), a line reader that survives anything stdin can send (over-long
//! lines, invalid UTF-8, `\r\n`, EOF without a newline), and the plumbing of the
//! front ends that answer on their own thread rather than from the engine's
//! reporter: an engine whose reports arrive on a channel, and a reader thread;
//! and the search settings the front ends with command-line flags share
//! ([`SearchSettings`]).

pub mod botzone;
pub mod codingame;
pub mod detect;
pub mod error;
pub mod gtp;
pub mod nboard;
pub mod ugi;

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, unbounded};

pub use error::CommandError;

use crate::book::BookSettings;
use crate::engine::{DEFAULT_HASH_MB, Engine, GoLimits, GoRequest, Level, Report, StartError};
use crate::eval::Evaluators;
use crate::game::{AnyMove, AnyPosition, UnknownName};
use crate::search::Selectivity;
use crate::search::time::DEFAULT_MOVE_OVERHEAD_MS;

/// The text protocols: the ones Orca speaks on stdin/stdout, and the ones
/// the referee of `orca match` drives engines with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// UGI (UCI for any game), Orca's native one: whole positions and `go`.
    Ugi,
    /// GTP, the match runners': `play` for the opponent's moves, `genmove`.
    Gtp,
    /// NBoard, the Othello GUI's: the game as GGF and `go`; the engine never
    /// plays its own move.
    Nboard,
}

impl Protocol {
    /// The name used in engine specs and messages.
    pub const fn name(self) -> &'static str {
        match self {
            Protocol::Ugi => "ugi",
            Protocol::Gtp => "gtp",
            Protocol::Nboard => "nboard",
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Protocol {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Protocol, UnknownName> {
        match s.to_ascii_lowercase().as_str() {
            "ugi" | "uci" => Ok(Protocol::Ugi),
            "gtp" => Ok(Protocol::Gtp),
            "nboard" => Ok(Protocol::Nboard),
            _ => Err(UnknownName::new("protocol", s, "ugi, gtp or nboard")),
        }
    }
}

/// Longest line accepted, in bytes; longer lines are reported and skipped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Where protocol lines go: whole lines, flushed one at a time, safe to share
/// between the protocol thread and the search thread.
#[derive(Clone)]
pub struct Output(Arc<OutputInner>);

struct OutputInner {
    writer: Mutex<Box<dyn Write + Send>>,
    /// A write failed: nobody reads the lines any more.
    closed: AtomicBool,
}

impl Output {
    /// Lines to the process's stdout.
    pub fn stdout() -> Output {
        Output::new(Box::new(io::stdout()))
    }

    /// Lines to any writer (tests use a buffer).
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(OutputInner {
            writer: Mutex::new(writer),
            closed: AtomicBool::new(false),
        }))
    }

    /// Writes one line and flushes it, its control characters escaped (see
    /// [`escape`]): whatever a command echoes, the other side reads one line
    /// of text. A closed stdout is not an error worth dying for: the line is
    /// dropped and [`Output::is_closed`] says so from then on.
    pub fn line(&self, text: &str) {
        let text = escape(text);
        let mut w = self
            .0
            .writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if writeln!(w, "{text}").and_then(|_| w.flush()).is_err() {
            self.0.closed.store(true, Ordering::Relaxed);
            log::debug!("output closed; dropped line: {text}");
        }
    }

    /// Whether a line could not be written (stdout's reader is gone): a
    /// search whose answer nobody can read is then stopped.
    pub fn is_closed(&self) -> bool {
        self.0.closed.load(Ordering::Relaxed)
    }
}

/// A principal variation in game notation, the moves separated by spaces.
pub fn pv_text(pv: &[AnyMove]) -> String {
    let names: Vec<String> = pv.iter().map(ToString::to_string).collect();
    names.join(" ")
}

/// `text` with every control character (C0, DEL, C1) and the Unicode line
/// and paragraph separators written as an escape, `\x1c` or `\u{85}`, so
/// that an echo of hostile input can neither break a protocol line nor send
/// the terminal a control sequence. Printable text comes back unchanged
/// (and unallocated).
pub fn escape(text: &str) -> Cow<'_, str> {
    let needs = |c: char| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}');
    if !text.chars().any(needs) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !needs(c) {
            escaped.push(c);
        } else if c.is_ascii() {
            escaped.push_str(&format!("\\x{:02x}", u32::from(c)));
        } else {
            escaped.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        }
    }
    Cow::Owned(escaped)
}

/// What the reading loop should do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// End the session.
    Quit,
}

/// One line of input as the protocols see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputLine {
    /// A line of text, without its line ending.
    Text(String),
    /// A line longer than [`MAX_LINE_BYTES`]; its length in bytes.
    TooLong(usize),
    /// A line that is not valid UTF-8.
    NotUtf8,
}

/// Reads the next line, never holding more than [`MAX_LINE_BYTES`] of it in
/// memory. `Ok(None)` at the end of input.
///
/// # Errors
/// Only the reader's own I/O errors.
pub fn read_line(reader: &mut impl BufRead) -> io::Result<Option<InputLine>> {
    let mut bytes = Vec::new();
    let mut length = 0usize;
    let mut saw_any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !saw_any {
                return Ok(None);
            }
            break;
        }
        saw_any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(bytes.len());
        bytes.extend_from_slice(&chunk[..take.min(room)]);
        length += take;
        reader.consume(if done { take + 1 } else { take });
        if done {
            break;
        }
    }
    if length > MAX_LINE_BYTES {
        return Ok(Some(InputLine::TooLong(length)));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(match String::from_utf8(bytes) {
        Ok(text) => InputLine::Text(text),
        Err(_) => InputLine::NotUtf8,
    }))
}

/// The search settings of the front ends started with flags (NBoard, GTP,
/// Botzone, CodinGame): the engine options UGI sets with `setoption`.
#[derive(Clone, Debug)]
pub struct SearchSettings {
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Time kept in reserve for I/O on every timed search.
    pub overhead: Duration,
    /// Selectivity of the Othello midgame search.
    pub selectivity: Selectivity,
    /// Search threads of one search.
    pub threads: usize,
    /// A playing strength below the full one (`--level`).
    pub level: Option<Level>,
    /// The opening book.
    pub book: BookSettings,
}

impl Default for SearchSettings {
    fn default() -> SearchSettings {
        SearchSettings {
            hash_mb: DEFAULT_HASH_MB,
            overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            selectivity: Selectivity::DEFAULT,
            threads: 1,
            level: None,
            book: BookSettings::default(),
        }
    }
}

impl SearchSettings {
    /// Puts these settings into `limits`: selectivity, threads, level and
    /// the book, the engine options of every search a front end starts.
    pub fn apply(&self, limits: &mut GoLimits) {
        limits.selectivity = self.selectivity;
        limits.threads = self.threads;
        limits.level = self.level;
        limits.book = self.book.enabled;
        limits.book_randomness = self.book.randomness;
    }

    /// The request of one move searched `movetime` at most, counted from
    /// `received` (Botzone's and CodinGame's turns); a position the book
    /// knows is answered from it at once.
    pub fn movetime_request(
        &self,
        position: AnyPosition,
        movetime: Duration,
        received: Instant,
    ) -> GoRequest {
        let mut limits = GoLimits {
            movetime: Some(movetime),
            ..GoLimits::default()
        };
        self.apply(&mut limits);
        GoRequest {
            position,
            limits,
            received,
            overhead: self.overhead,
        }
    }

    /// A [`Engine::with_channel`] with this table size, playing from the book
    /// file of these settings if one was given.
    ///
    /// # Errors
    /// [`StartError`] when the engine cannot start.
    pub fn start_engine(
        &self,
        evaluators: Arc<Evaluators>,
    ) -> Result<(Engine, Receiver<Report>), StartError> {
        let (engine, reports) = Engine::with_channel(self.hash_mb, evaluators)?;
        if let Some(books) = &self.book.books {
            // A fresh engine is idle: this cannot be refused.
            let _ = engine.set_books(books.clone());
        }
        Ok((engine, reports))
    }
}

/// Runs one search to its end and returns its `Done`, for the front ends
/// that answer one request at a time (Botzone, CodinGame, game analysis);
/// the iteration reports go to the debug log, the notes (a book move:
/// `book f5 value 0 depth 16`) to the info log. `None` if the engine refuses
/// the search (busy) or is gone.
pub fn search_blocking(
    engine: &Engine,
    reports: &Receiver<Report>,
    request: crate::engine::GoRequest,
) -> Option<crate::engine::SearchDone> {
    if let Err(e) = engine.go(request) {
        log::error!("cannot start a search: {e}");
        return None;
    }
    loop {
        match reports.recv() {
            Ok(Report::Done(done)) => return Some(done),
            Ok(Report::Info(info)) => log::debug!(
                "depth {} score {} nodes {} pv {}",
                info.depth,
                info.score,
                info.nodes,
                pv_text(&info.pv)
            ),
            Ok(Report::Note(note)) => log::info!("{note}"),
            Ok(Report::Book(note)) => log::info!("{note}"),
            Ok(_) => {}
            Err(_) => return None,
        }
    }
}

/// What a front end does when its engine cannot start: says why on stderr
/// (stdout carries protocol lines only) and gives the exit status.
pub fn start_failed(error: &StartError) -> i32 {
    eprintln!("orca: cannot start the engine: {error}");
    1
}

/// Reads `input` on a thread of its own, so that a session can wait for a line
/// and for the engine at the same time. Each line is sent as `Some`; the end of
/// input (or a read error, logged) as one `None`, after which the thread ends.
pub fn spawn_reader(mut input: Box<dyn BufRead + Send>) -> Receiver<Option<InputLine>> {
    let (sender, receiver) = unbounded();
    let spawned = thread::Builder::new()
        .name("orca-stdin".into())
        .spawn(move || {
            loop {
                let line = match read_line(&mut input) {
                    Ok(line) => line,
                    Err(e) => {
                        log::error!("reading input failed: {e}");
                        None
                    }
                };
                let end = line.is_none();
                if sender.send(line).is_err() || end {
                    break;
                }
            }
        });
    if let Err(e) = spawned {
        // Without a reader the session can only end: it sees the input end.
        log::error!("cannot start the input thread: {e}");
    }
    receiver
}

/// Why a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// `quit`: leave at once.
    Quit,
    /// The input ended (or could not be read): what was asked is still
    /// answered.
    Input,
}

/// Feeds every line of `input` to `handle`, each with the moment it was read,
/// until the handler says [`Flow::Quit`], the input ends, or reading fails.
pub fn serve(
    input: &mut impl BufRead,
    mut handle: impl FnMut(&InputLine, std::time::Instant) -> Flow,
) -> Ended {
    loop {
        match read_line(input) {
            Ok(Some(line)) => {
                if handle(&line, std::time::Instant::now()) == Flow::Quit {
                    return Ended::Quit;
                }
            }
            Ok(None) => return Ended::Input,
            Err(e) => {
                log::error!("reading stdin failed: {e}");
                return Ended::Input;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<InputLine> {
        let mut reader = io::BufReader::with_capacity(16, input);
        std::iter::from_fn(|| read_line(&mut reader).unwrap()).collect()
    }

    #[test]
    fn protocol_names_round_trip() {
        for protocol in [Protocol::Ugi, Protocol::Gtp, Protocol::Nboard] {
            assert_eq!(protocol.to_string().parse(), Ok(protocol));
        }
        assert_eq!("UCI".parse(), Ok(Protocol::Ugi));
        assert_eq!(
            "xboard".parse::<Protocol>().unwrap_err().to_string(),
            "unknown protocol 'xboard' (expected ugi, gtp or nboard)"
        );
    }

    #[test]
    fn endings_and_eof() {
        assert_eq!(
            lines(b"ugi\r\nisready\n\nquit"),
            vec![
                InputLine::Text("ugi".into()),
                InputLine::Text("isready".into()),
                InputLine::Text(String::new()),
                InputLine::Text("quit".into()),
            ]
        );
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn control_characters_are_escaped() {
        assert!(matches!(escape("pong 17"), Cow::Borrowed("pong 17")));
        assert_eq!(escape("pong \x1c"), "pong \\x1c");
        assert_eq!(
            escape("unknown option '\0'\t\x7f\u{85}\u{2028}é"),
            "unknown option '\\x00'\\x09\\x7f\\u{85}\\u{2028}é"
        );
        assert_eq!(escape("a\r\nb"), "a\\x0d\\x0ab");
    }

    #[test]
    fn long_lines_and_bad_bytes() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\n\xff\xfe\nisready\n");
        assert_eq!(
            lines(&input),
            vec![
                InputLine::TooLong(MAX_LINE_BYTES + 10),
                InputLine::NotUtf8,
                InputLine::Text("isready".into()),
            ]
        );
    }
}
