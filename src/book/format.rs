//! The book file: a fixed header and sorted fixed-size records, all
//! little-endian, so that a file is read with one length check, one checksum
//! and one fallible allocation.
//!
//! ```text
//! header (32 bytes)
//!   0  magic     "ORCABOOK"
//!   8  version   u16 (1)
//!  10  variant   u8  (0 othello, 1 reversed)
//!  11  reserved  u8  (0)
//!  12  count     u32 records
//!  16  rounds    u32 deviation rounds the build ran
//!  20  reserved  u32 (0)
//!  24  checksum  u64 FNV-1a of bytes 0..24 and of every record
//! record (24 bytes), sorted by (player, opponent), no duplicates
//!   0  player    u64 discs of the side to move (canonical board)
//!   8  opponent  u64
//!  16  value     i8  negamaxed value, discs, side to move
//!  17  leaf      i8  value of the best move whose child is not in the book
//!  18  leaf move u8  square 0..63 of that move (canonical board), 64 a
//!                    forced pass, 255 none
//!  19  depth     u8  depth of the search that valued this position
//!  20  games     u32 games of the sources that reached the position
//! ```

use std::fmt;
use std::path::Path;

use super::{Book, Entry, NO_MOVE, canonical};
use crate::game::{Board, Variant};

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"ORCABOOK";

/// The format version this build reads and writes.
pub const VERSION: u16 = 1;

/// Bytes of the header.
pub const HEADER_BYTES: usize = 32;

/// Bytes of one record.
pub const RECORD_BYTES: usize = 24;

/// Why a book could not be read. Each renders as one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file is not there.
    Missing,
    /// The file could not be read.
    Io(String),
    /// Fewer bytes than the header announces.
    Truncated {
        /// Bytes the header (or the header itself) needs.
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// The bytes are not a valid book.
    Corrupt(String),
    /// A book format this build does not read.
    Version(u16),
    /// An Edax book of another format version (version and release bytes).
    EdaxVersion(u8, u8),
    /// A book of another game.
    WrongVariant {
        /// The game the book was wanted for.
        expected: Variant,
        /// The game the file is for.
        found: Variant,
    },
    /// The memory for the records is not there.
    OutOfMemory(usize),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Missing => f.write_str("no such file"),
            BookError::Io(e) => write!(f, "cannot read: {e}"),
            BookError::Truncated { expected, found } => {
                write!(f, "truncated: {found} bytes, expected {expected}")
            }
            BookError::Corrupt(why) => write!(f, "corrupt: {why}"),
            BookError::Version(v) => {
                write!(f, "book format version {v}, this build reads {VERSION}")
            }
            BookError::EdaxVersion(v, r) => write!(
                f,
                "Edax book format version {v} (release {r}); Orca reads version 4 (Edax 4.x)"
            ),
            BookError::WrongVariant { expected, found } => {
                write!(f, "a book for {found}, not {expected}")
            }
            BookError::OutOfMemory(n) => write!(f, "no memory for {n} positions"),
        }
    }
}

impl std::error::Error for BookError {}

/// FNV-1a, 64 bits: enough to tell a damaged file from a good one.
pub(crate) fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
    }
    hash
}

const FNV_OFFSET: u64 = 0xCBF2_9CE4_8422_2325;

fn variant_code(variant: Variant) -> u8 {
    match variant {
        Variant::Reversed => 1,
        _ => 0,
    }
}

fn record_bytes(e: &Entry) -> [u8; RECORD_BYTES] {
    let mut r = [0u8; RECORD_BYTES];
    r[0..8].copy_from_slice(&e.board.player.to_le_bytes());
    r[8..16].copy_from_slice(&e.board.opponent.to_le_bytes());
    r[16] = e.value as u8;
    r[17] = e.leaf_value as u8;
    r[18] = e.leaf_move;
    r[19] = e.depth;
    r[20..24].copy_from_slice(&e.games.to_le_bytes());
    r
}

/// The bytes of a book file.
pub fn encode(book: &Book) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(HEADER_BYTES + book.entries.len() * RECORD_BYTES);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.push(variant_code(book.variant));
    bytes.push(0);
    bytes.extend_from_slice(&(book.entries.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&book.rounds.to_le_bytes());
    bytes.extend_from_slice(&0u32.to_le_bytes());
    let mut hash = fnv1a(FNV_OFFSET, &bytes);
    let mut body = Vec::with_capacity(book.entries.len() * RECORD_BYTES);
    for e in &book.entries {
        body.extend_from_slice(&record_bytes(e));
    }
    hash = fnv1a(hash, &body);
    bytes.extend_from_slice(&hash.to_le_bytes());
    bytes.extend_from_slice(&body);
    bytes
}

/// Reads a book from its bytes.
///
/// # Errors
/// [`BookError`]: too short, not a book, another version, a checksum or a
/// record that does not hold, or no memory for the records.
pub fn decode(bytes: &[u8]) -> Result<Book, BookError> {
    if bytes.len() < HEADER_BYTES {
        if bytes.len() >= 8 && &bytes[..8] != MAGIC {
            return Err(BookError::Corrupt("not an Orca book".into()));
        }
        return Err(BookError::Truncated {
            expected: HEADER_BYTES as u64,
            found: bytes.len() as u64,
        });
    }
    if &bytes[..8] != MAGIC {
        return Err(BookError::Corrupt("not an Orca book".into()));
    }
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(BookError::Version(version));
    }
    let variant = match bytes[10] {
        0 => Variant::Othello,
        1 => Variant::Reversed,
        v => return Err(BookError::Corrupt(format!("unknown variant code {v}"))),
    };
    let count = u32_at(12) as usize;
    let rounds = u32_at(16);
    let expected = HEADER_BYTES as u64 + count as u64 * RECORD_BYTES as u64;
    let found = bytes.len() as u64;
    if found < expected {
        return Err(BookError::Truncated { expected, found });
    }
    if found > expected {
        return Err(BookError::Corrupt(format!(
            "{} bytes after the last record",
            found - expected
        )));
    }
    let stored = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
    let body = &bytes[HEADER_BYTES..];
    if fnv1a(fnv1a(FNV_OFFSET, &bytes[..24]), body) != stored {
        return Err(BookError::Corrupt("checksum mismatch".into()));
    }
    let mut entries = Vec::new();
    entries
        .try_reserve_exact(count)
        .map_err(|_| BookError::OutOfMemory(count))?;
    for (i, r) in body.chunks_exact(RECORD_BYTES).enumerate() {
        let word = |at: usize| u64::from_le_bytes(r[at..at + 8].try_into().expect("8 bytes"));
        let board = Board {
            player: word(0),
            opponent: word(8),
        };
        let entry = Entry {
            board,
            value: r[16] as i8,
            leaf_value: r[17] as i8,
            leaf_move: r[18],
            depth: r[19],
            games: u32::from_le_bytes(r[20..24].try_into().expect("4 bytes")),
        };
        let bad = |why: &str| BookError::Corrupt(format!("record {}: {why}", i + 1));
        if board.player & board.opponent != 0 || canonical(board).0 != board {
            return Err(bad("not a canonical board"));
        }
        if !(-64..=64).contains(&entry.value) || !(-64..=64).contains(&entry.leaf_value) {
            return Err(bad("value out of range"));
        }
        if entry.leaf_move != NO_MOVE && entry.leaf_move > 64 {
            return Err(bad("bad move"));
        }
        if entries
            .last()
            .is_some_and(|last: &Entry| last.key() >= entry.key())
        {
            return Err(bad("records out of order"));
        }
        entries.push(entry);
    }
    Ok(Book {
        variant,
        rounds,
        entries,
    })
}

/// Reads the book in `path`; `expected` is the game it is wanted for.
///
/// # Errors
/// [`BookError`], including [`BookError::WrongVariant`].
pub fn load(path: &Path, expected: Option<Variant>) -> Result<Book, BookError> {
    let bytes = std::fs::read(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => BookError::Missing,
        _ => BookError::Io(e.to_string()),
    })?;
    let book = decode(&bytes)?;
    match expected {
        Some(v) if v != book.variant => Err(BookError::WrongVariant {
            expected: v,
            found: book.variant,
        }),
        _ => Ok(book),
    }
}

/// Writes `book` to `path` through a temporary file and a rename, so that
/// an interrupted write never leaves half a book.
///
/// # Errors
/// The file system's.
pub fn save(book: &Book, path: &Path) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, encode(book))?;
    std::fs::rename(&tmp, path)
}
