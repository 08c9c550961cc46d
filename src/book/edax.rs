//! Exchange with Edax's binary book format (Edax 4.4), which other tools read
//! too. Only standard Othello: Edax has no reversed books.
//!
//! The layout, little-endian as Edax writes it on x86:
//!
//! ```text
//! header (42 bytes)
//!   u32 0x45444158 ("EDAX"), u32 0x424F4F4B ("BOOK"), u8 version 4, u8 release 4,
//!   date (i16 year, u8 month, day, hour, minute, second, 1 byte padding),
//!   options (i32 level, n_empties, midgame_error, endcut_error, verbosity),
//!   i32 positions
//! position (40 bytes, then 2 bytes per link and 2 for the leaf)
//!   u64 player, u64 opponent (the least of the 8 images, as Orca's key),
//!   u32 wins, draws, losses, lines, i16 value, lower, upper,
//!   u8 links, u8 level, links (i8 score, u8 move), leaf (i8 score, u8 move)
//! ```
//!
//! Moves are squares 0..63 as Orca numbers them (a1 = 0), 64 a pass, 65 none.
//! What a round trip keeps is said in docs/book.md.

use super::{Book, BookError, Entry, NO_MOVE, canonical};
use crate::game::{Square, Variant};

const EDAX: u32 = 0x4544_4158;
const BOOK: u32 = 0x424F_4F4B;
const HEADER_BYTES: usize = 42;
const FIXED_BYTES: usize = 40;
/// Edax's "no move" square.
const EDAX_NOMOVE: u8 = 65;
/// Edax's score of a missing leaf.
const EDAX_BAD_SCORE: i8 = -127;

/// The Edax book of `book` (standard Othello only).
///
/// # Errors
/// When the book is of reversed Othello.
pub fn export(book: &Book) -> Result<Vec<u8>, BookError> {
    if book.variant() != Variant::Othello {
        return Err(BookError::WrongVariant {
            expected: Variant::Othello,
            found: book.variant(),
        });
    }
    let level = book.entries().iter().map(|e| e.depth).max().unwrap_or(0);
    let min_empties = book
        .entries()
        .iter()
        .map(|e| e.board.empties())
        .min()
        .unwrap_or(60);
    let mut out = Vec::new();
    out.extend_from_slice(&EDAX.to_le_bytes());
    out.extend_from_slice(&BOOK.to_le_bytes());
    out.extend_from_slice(&[4, 4]);
    out.extend_from_slice(&[0; 8]); // no date
    for option in [i32::from(level), min_empties as i32, 0, 0, 0] {
        out.extend_from_slice(&option.to_le_bytes());
    }
    out.extend_from_slice(&(book.len() as i32).to_le_bytes());
    for e in book.entries() {
        out.extend_from_slice(&e.board.player.to_le_bytes());
        out.extend_from_slice(&e.board.opponent.to_le_bytes());
        for count in [0, 0, 0, e.games] {
            out.extend_from_slice(&count.to_le_bytes());
        }
        for score in [e.value, e.value, e.value] {
            out.extend_from_slice(&i16::from(score).to_le_bytes());
        }
        let links: Vec<(i8, u8)> = e
            .board
            .move_squares()
            .filter_map(|sq| {
                book.get(&e.board.play_unchecked(sq))
                    .map(|child| (child.value.saturating_neg(), sq.index()))
            })
            .collect();
        out.push(links.len() as u8);
        out.push(e.depth);
        for (score, mv) in links {
            out.extend_from_slice(&[score as u8, mv]);
        }
        let leaf = match e.leaf_move {
            NO_MOVE => (EDAX_BAD_SCORE, EDAX_NOMOVE),
            mv => (e.leaf_value, mv),
        };
        out.extend_from_slice(&[leaf.0 as u8, leaf.1]);
    }
    Ok(out)
}

/// Reads an Edax book as an Orca book of standard Othello.
///
/// # Errors
/// Not an Edax book, truncated, or a position that does not hold.
pub fn import(bytes: &[u8]) -> Result<Book, BookError> {
    let truncated = |expected: usize| BookError::Truncated {
        expected: expected as u64,
        found: bytes.len() as u64,
    };
    if bytes.len() < HEADER_BYTES {
        return Err(truncated(HEADER_BYTES));
    }
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    if u32_at(0) != EDAX || u32_at(4) != BOOK {
        return Err(BookError::Corrupt("not an Edax book".into()));
    }
    let count = u32_at(38) as usize;
    // Every position takes at least its fixed part and a leaf.
    if count > (bytes.len() - HEADER_BYTES) / (FIXED_BYTES + 2) {
        return Err(truncated(HEADER_BYTES + count * (FIXED_BYTES + 2)));
    }
    let mut entries = Vec::new();
    entries
        .try_reserve_exact(count)
        .map_err(|_| BookError::OutOfMemory(count))?;
    let mut at = HEADER_BYTES;
    for i in 0..count {
        if bytes.len() < at + FIXED_BYTES {
            return Err(truncated(at + FIXED_BYTES));
        }
        let p = &bytes[at..];
        let word = |o: usize| u64::from_le_bytes(p[o..o + 8].try_into().expect("8 bytes"));
        let board = crate::game::Board {
            player: word(0),
            opponent: word(8),
        };
        let bad = |why: &str| BookError::Corrupt(format!("position {}: {why}", i + 1));
        if board.player & board.opponent != 0 {
            return Err(bad("two discs on a square"));
        }
        let count_at = |o: usize| u32::from_le_bytes(p[o..o + 4].try_into().expect("4 bytes"));
        let games = count_at(16)
            .saturating_add(count_at(20))
            .saturating_add(count_at(24))
            .max(count_at(28));
        let value = i16::from_le_bytes([p[32], p[33]]).clamp(-64, 64) as i8;
        let links = usize::from(p[38]);
        let level = p[39];
        let size = FIXED_BYTES + 2 * (links + 1);
        if bytes.len() < at + size {
            return Err(truncated(at + size));
        }
        let (leaf_score, leaf_square) = (p[size - 2] as i8, p[size - 1]);
        let (image, s) = canonical(board);
        let (leaf_move, leaf_value) = match leaf_square {
            0..=63 => {
                let sq = Square::new(leaf_square).expect("a square");
                if board.play(sq).is_none() {
                    return Err(bad("illegal leaf move"));
                }
                (sq.symmetry(s).index(), leaf_score.clamp(-64, 64))
            }
            64 => (64, leaf_score.clamp(-64, 64)),
            _ => (NO_MOVE, -64),
        };
        entries.push(Entry {
            board: image,
            value,
            leaf_value,
            leaf_move,
            depth: level,
            games,
        });
        at += size;
    }
    Ok(Book::new(Variant::Othello, 0, entries))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Board;

    #[test]
    fn orca_to_edax_to_orca_keeps_everything() {
        let start = canonical(Board::start()).0;
        let child = canonical(Board::start().play_unchecked(Square::new(37).unwrap())).0;
        let leaf = child.move_squares().next().unwrap().index();
        let book = Book::new(
            Variant::Othello,
            0,
            vec![
                Entry {
                    board: start,
                    value: 2,
                    leaf_value: -64,
                    leaf_move: NO_MOVE,
                    depth: 16,
                    games: 9,
                },
                Entry {
                    board: child,
                    value: -2,
                    leaf_value: -2,
                    leaf_move: leaf,
                    depth: 16,
                    games: 5,
                },
            ],
        );
        let edax = export(&book).unwrap();
        // The start with a link for each of its four moves (one child up
        // to symmetry), then the child with none.
        assert_eq!(
            edax.len(),
            HEADER_BYTES + FIXED_BYTES + 10 + FIXED_BYTES + 2
        );
        assert_eq!(import(&edax), Ok(book));
        assert!(matches!(
            import(&edax[..edax.len() - 1]),
            Err(BookError::Truncated { .. })
        ));
        assert!(matches!(
            import(b"not a book at all, not at all, no no no no"),
            Err(BookError::Corrupt(_))
        ));
    }
}
