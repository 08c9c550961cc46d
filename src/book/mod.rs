//! The opening book: positions of the first moves, each valued by a deep
//! search and the values negamaxed up the tree, so that the engine answers
//! the opening at once and saves its clock for the middle game.
//!
//! Positions are keyed by their canonical board (the least of the eight
//! symmetric images, side to move first), so a line and its mirror images
//! share one entry. A position's known moves are not stored: they are the
//! legal moves whose resulting position is in the book, plus its "leaf", the
//! best move whose child is not (as in Edax's books).
//!
//! Files: [`format`] the file and its errors, [`probe`] the moves of a
//! position and the choice among them, [`build`] the construction
//! (`orca book build`, `orca book add`), [`edax`] exchange with Edax's books.

pub mod build;
pub mod edax;
pub mod format;
pub mod probe;

use std::path::Path;
use std::sync::Arc;

use crate::game::{Board, Variant};
pub use format::{BookError, load};
pub use probe::BookMove;

/// The leaf move of a position with no move outside the book.
pub const NO_MOVE: u8 = 255;

/// One position of the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The canonical board, side to move first.
    pub board: Board,
    /// Negamaxed value in discs for the side to move: the best of the leaf
    /// and of the negated values of the children in the book.
    pub value: i8,
    /// Value of the leaf move, from this position's own search.
    pub leaf_value: i8,
    /// Square of the best move whose child is not in the book (canonical
    /// orientation), or [`NO_MOVE`].
    pub leaf_move: u8,
    /// Depth of the search that valued the position.
    pub depth: u8,
    /// Games of the sources that reached the position (0: added by search).
    pub games: u32,
}

impl Entry {
    /// The sort and search key.
    pub fn key(&self) -> (u64, u64) {
        (self.board.player, self.board.opponent)
    }
}

/// The canonical image of `board` (the least `(player, opponent)` among its
/// eight symmetric images) and the symmetry that gives it.
pub fn canonical(board: Board) -> (Board, u8) {
    let mut best = (board, 0);
    for s in 1..8 {
        let image = board.symmetry(s);
        if (image.player, image.opponent) < (best.0.player, best.0.opponent) {
            best = (image, s);
        }
    }
    best
}

/// An opening book of one Othello variant: entries sorted by key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    variant: Variant,
    rounds: u32,
    entries: Vec<Entry>,
}

impl Book {
    /// A book of these entries (sorted here; of duplicates the last stays).
    pub fn new(variant: Variant, rounds: u32, mut entries: Vec<Entry>) -> Book {
        // Reversed, then a stable sort: of equal keys the last given comes first.
        entries.reverse();
        entries.sort_by_key(Entry::key);
        entries.dedup_by_key(|e| e.key());
        Book {
            variant,
            rounds,
            entries,
        }
    }

    /// The game of the book.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Deviation rounds its build ran.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// Every position, in key order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of a canonical board.
    pub fn get_canonical(&self, board: &Board) -> Option<&Entry> {
        let key = (board.player, board.opponent);
        self.entries
            .binary_search_by_key(&key, Entry::key)
            .ok()
            .map(|i| &self.entries[i])
    }

    /// The entry of any board (its canonical image is looked up).
    pub fn get(&self, board: &Board) -> Option<&Entry> {
        self.get_canonical(&canonical(*board).0)
    }

    /// The book built into the binary for `variant`, if there is one.
    ///
    /// # Errors
    /// When the built-in bytes are damaged (a broken build; a test checks).
    pub fn builtin(variant: Variant) -> Option<Result<Book, BookError>> {
        let bytes: &[u8] = match variant {
            Variant::Othello => include_bytes!("../../books/othello.book"),
            Variant::Reversed => include_bytes!("../../books/reversed.book"),
            Variant::TicTacToe => return None,
        };
        Some(format::decode(bytes))
    }
}

/// The books an engine plays with, one per Othello variant.
#[derive(Clone, Debug, Default)]
pub struct Books {
    /// Standard Othello.
    pub othello: Option<Arc<Book>>,
    /// Reversed Othello.
    pub reversed: Option<Arc<Book>>,
}

impl Books {
    /// The built-in books (a damaged one is logged and left out).
    pub fn builtin() -> Books {
        let get = |variant| match Book::builtin(variant)? {
            Ok(book) => Some(Arc::new(book)),
            Err(e) => {
                log::error!("built-in {variant} book: {e}; playing without it");
                None
            }
        };
        Books {
            othello: get(Variant::Othello),
            reversed: get(Variant::Reversed),
        }
    }

    /// The book of `variant`.
    pub fn of(&self, variant: Variant) -> Option<&Arc<Book>> {
        match variant {
            Variant::Othello => self.othello.as_ref(),
            Variant::Reversed => self.reversed.as_ref(),
            Variant::TicTacToe => None,
        }
    }

    /// The built-in books, with the book in `path` in the slot of its game.
    ///
    /// # Errors
    /// The file cannot be read as a book: one line saying why.
    pub fn with_file(path: &Path) -> Result<Books, String> {
        let book = load(path, None).map_err(|e| format!("book {}: {e}", path.display()))?;
        let mut books = Books::builtin();
        books.set(Arc::new(book));
        Ok(books)
    }

    /// Puts `book` in the slot of its variant.
    pub fn set(&mut self, book: Arc<Book>) {
        match book.variant() {
            Variant::Reversed => self.reversed = Some(book),
            _ => self.othello = Some(book),
        }
    }
}

/// Largest `BookRandomness` (discs).
pub const MAX_RANDOMNESS: u32 = 64;

/// How a front end plays from the book.
#[derive(Clone, Debug)]
pub struct BookSettings {
    /// Whether it does at all (`OwnBook`).
    pub enabled: bool,
    /// Moves within this many discs of the best are drawn at random.
    pub randomness: u32,
    /// The books, or `None` for the built-in ones.
    pub books: Option<Books>,
}

impl Default for BookSettings {
    fn default() -> Self {
        BookSettings {
            enabled: true,
            randomness: 0,
            books: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_is_the_same_for_all_images() {
        let board = Board::start()
            .play(crate::game::Square::new(37).unwrap())
            .unwrap();
        let (c, _) = canonical(board);
        for s in 0..8 {
            assert_eq!(canonical(board.symmetry(s)).0, c);
        }
        let (image, s) = canonical(board);
        assert_eq!(board.symmetry(s), image);
    }

    #[test]
    fn builtin_books_load() {
        for v in [Variant::Othello, Variant::Reversed] {
            let book = Book::builtin(v).unwrap().unwrap();
            assert_eq!(book.variant(), v);
        }
    }

    #[test]
    fn round_trip_and_damage() {
        let start = canonical(Board::start()).0;
        let book = Book::new(
            Variant::Reversed,
            2,
            vec![Entry {
                board: start,
                value: -3,
                leaf_value: -3,
                leaf_move: 19,
                depth: 12,
                games: 7,
            }],
        );
        let bytes = format::encode(&book);
        assert_eq!(format::decode(&bytes), Ok(book.clone()));
        assert!(matches!(
            format::decode(&bytes[..bytes.len() - 1]),
            Err(BookError::Truncated { .. })
        ));
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        assert_eq!(
            format::decode(&flipped),
            Err(BookError::Corrupt("checksum mismatch".into()))
        );
        assert!(matches!(
            format::decode(b"ORCABOOK"),
            Err(BookError::Truncated { .. })
        ));
        assert!(matches!(
            format::decode(b"GARBAGE!xx"),
            Err(BookError::Corrupt(_))
        ));
    }
}
