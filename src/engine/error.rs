//! Why a call on the engine was refused: every error keeps the engine as it
//! was.

use std::fmt;

use crate::search::tt::TableError;

/// `ponderhit` came while no ponder search was running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotPondering;

impl fmt::Display for NotPondering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no ponder search is running")
    }
}

impl std::error::Error for NotPondering {}

/// The engine was asked for a new job while a search or perft was running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy;

impl fmt::Display for Busy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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

impl fmt::Display for ResizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
