//! Exchange with Edax's binary book format, which other tools read too. Only
//! standard Othello: Edax has no reversed books.
//!
//! The layout, checked against Edax's source (`book.c`, `book.h`, `const.h`,
//! `board.c` of Edax 4.3, 4.4 and 4.6, which all write it alike; see
//! docs/book.md): little-endian as Edax writes it on x86 and ARM, every
//! field written on its own except the date and options, written as structs.
//!
//! ```text
//! header (42 bytes)
//!   u32 0x45444158 ("EDAX"), u32 0x424F4F4B ("BOOK"), u8 version 4,
//!   u8 release (3, 4 or 6: Edax's minor version, not checked by Edax),
//!   date (i16 year, u8 month, day, hour, minute, second, 1 byte padding),
//!   options (i32 level, n_empties, midgame_error, endcut_error, verbosity),
//!   i32 positions (Edax sizes its table with it, then reads to the end)
//! position (40 bytes, then 2 bytes per link and 2 for the leaf)
//!   u64 player (side to move), u64 opponent: the least of the 8 images,
//!   player word first, as Orca's key,
//!   u32 wins, draws, losses, lines, i16 value, lower, upper,
//!   u8 links, u8 level, links (i8 score, u8 move), leaf (i8 score, u8 move)
//! ```
//!
//! Moves are squares 0..63 as Orca numbers them (a1 = 0, b1 = 1, h8 = 63),
//! 64 a pass, 65 none; a leaf of score -127 is no leaf. What a round trip
//! keeps is said in docs/book.md.

use super::{Book, BookError, Entry, NO_MOVE, canonical};
use crate::game::{Square, Variant};

const EDAX: u32 = 0x4544_4158;
const BOOK: u32 = 0x424F_4F4B;
/// The format version Edax's loader requires (its release byte is free).
const EDAX_VERSION: u8 = 4;
/// The release written: Edax 4.4's.
const EDAX_RELEASE: u8 = 4;
const HEADER_BYTES: usize = 42;
const FIXED_BYTES: usize = 40;
/// Edax's "no move" square.
const EDAX_NOMOVE: u8 = 65;
/// Edax's score of a missing leaf or link (-SCORE_INF).
const EDAX_BAD_SCORE: i8 = -127;
/// The error margins of a new Edax book (its `book_init`), which Edax's own
/// text import keeps: Edax widens its bounds by them when it negamaxes.
const EDAX_MIDGAME_ERROR: i32 = 2;
const EDAX_ENDCUT_ERROR: i32 = 1;

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
    // The options as Edax's text import sets them: the highest level and
    // the fewest empties of the positions, the default error margins.
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
    out.extend_from_slice(&[EDAX_VERSION, EDAX_RELEASE]);
    out.extend_from_slice(&[0; 8]); // no date
    for option in [
        i32::from(level),
        min_empties as i32,
        EDAX_MIDGAME_ERROR,
        EDAX_ENDCUT_ERROR,
        0,
    ] {
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
        // Edax keeps the final score of a finished game as a leaf with no
        // move (its negamax takes any leaf score above -127 as the value).
        let leaf = match e.leaf_move {
            NO_MOVE if e.board.is_game_over() => (e.leaf_value, EDAX_NOMOVE),
            NO_MOVE => (EDAX_BAD_SCORE, EDAX_NOMOVE),
            mv => (e.leaf_value, mv),
        };
        out.extend_from_slice(&[leaf.0 as u8, leaf.1]);
    }
    Ok(out)
}

/// Reads an Edax book as an Orca book of standard Othello.
///
/// Like Edax's loader, it reads positions to the end of the bytes (the
/// header's count is only a hint) and keeps the first of two positions
/// with one key.
///
/// # Errors
/// Not an Edax book, another format version, truncated, or a position that
/// does not hold.
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
    if bytes[8] != EDAX_VERSION {
        return Err(BookError::EdaxVersion(bytes[8], bytes[9]));
    }
    // Every position takes at least its fixed part and a leaf.
    let most = (bytes.len() - HEADER_BYTES) / (FIXED_BYTES + 2);
    let hint = (u32_at(38) as usize).min(most);
    let mut entries = Vec::new();
    entries
        .try_reserve_exact(hint)
        .map_err(|_| BookError::OutOfMemory(hint))?;
    let mut at = HEADER_BYTES;
    let mut i = 0;
    while at < bytes.len() {
        i += 1;
        if bytes.len() < at + FIXED_BYTES {
            return Err(truncated(at + FIXED_BYTES));
        }
        let p = &bytes[at..];
        let word = |o: usize| u64::from_le_bytes(p[o..o + 8].try_into().expect("8 bytes"));
        let board = crate::game::Board {
            player: word(0),
            opponent: word(8),
        };
        let bad = |why: &str| BookError::Corrupt(format!("position {i}: {why}"));
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
            // No move: no leaf, or the final score of a finished game.
            _ if leaf_score == EDAX_BAD_SCORE => (NO_MOVE, -64),
            _ => (NO_MOVE, leaf_score.clamp(-64, 64)),
        };
        if entries.len() == entries.capacity() {
            entries
                .try_reserve(1)
                .map_err(|_| BookError::OutOfMemory(i))?;
        }
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
    // Book::new keeps the last of equal keys; Edax's loader keeps the first.
    entries.reverse();
    Ok(Book::new(Variant::Othello, 0, entries))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Board;

    /// A two-position Edax book spelled out byte by byte from Edax's source
    /// (not from Orca's writer): the start, whose four moves all lead to one
    /// canonical position, and that position after f5.
    #[rustfmt::skip]
    const FIXTURE: [u8; 134] = [
        // "EDAX" as a little-endian u32 (bytes "XADE"), "BOOK" (bytes "KOOB")
        0x58, 0x41, 0x44, 0x45, 0x4b, 0x4f, 0x4f, 0x42,
        // version 4, release 4, date (i16 year, 5 u8, 1 padding byte): zeros
        0x04, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00,
        // options: level 16, n_empties 59, midgame_error 2, endcut_error 1,
        // verbosity 0
        0x10, 0x00, 0x00, 0x00, 0x3b, 0x00, 0x00, 0x00,
        0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00,
        // 2 positions
        0x02, 0x00, 0x00, 0x00,
        // after f5 (its own canonical image): player d4, opponent e4 d5 e5 f5
        0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x10, 0x38, 0x00, 0x00, 0x00,
        // wins, draws, losses 0, lines 5
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
        // value, lower, upper +1; 0 links, level 12; leaf (+1, d6 = 43)
        0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x0c,
        0x01, 0x2b,
        // start: player d5 e4, opponent d4 e5
        0x00, 0x00, 0x00, 0x10, 0x08, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x08, 0x10, 0x00, 0x00, 0x00,
        // wins, draws, losses 0, lines 9
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00,
        // value, lower, upper -1; 4 links, level 16
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x04, 0x10,
        // links (-1, d3 = 19), (-1, c4 = 26), (-1, f5 = 37), (-1, e6 = 44);
        // leaf none (-127, 65)
        0xff, 0x13, 0xff, 0x1a, 0xff, 0x25, 0xff, 0x2c,
        0x81, 0x41,
    ];

    /// The Orca book the fixture stands for.
    fn fixture_book() -> Book {
        let start = Board::new(0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        let after_f5 = Board::new(0x0000_0000_0800_0000, 0x0000_0038_1000_0000);
        assert_eq!(start, Board::start());
        assert_eq!(
            canonical(Board::start().play_unchecked(Square::new(37).unwrap())).0,
            after_f5
        );
        Book::new(
            Variant::Othello,
            0,
            vec![
                Entry {
                    board: start,
                    value: -1,
                    leaf_value: -64,
                    leaf_move: NO_MOVE,
                    depth: 16,
                    games: 9,
                },
                Entry {
                    board: after_f5,
                    value: 1,
                    leaf_value: 1,
                    leaf_move: 43,
                    depth: 12,
                    games: 5,
                },
            ],
        )
    }

    #[test]
    fn hand_made_edax_bytes_import_and_export_alike() {
        assert_eq!(import(&FIXTURE), Ok(fixture_book()));
        assert_eq!(export(&fixture_book()).unwrap(), FIXTURE.to_vec());
    }

    #[test]
    fn any_release_of_version_4_loads_and_other_versions_do_not() {
        // Edax 4.3 writes release 3, 4.6 release 6; its loader checks only
        // the version byte.
        for release in [3, 6] {
            let mut bytes = FIXTURE;
            bytes[9] = release;
            assert_eq!(import(&bytes), Ok(fixture_book()));
        }
        let mut bytes = FIXTURE;
        bytes[8] = 5;
        let err = import(&bytes).unwrap_err();
        assert_eq!(err, BookError::EdaxVersion(5, 4));
        assert!(!err.to_string().contains('\n'));
    }

    #[test]
    fn positions_are_read_to_the_end_whatever_the_count() {
        // Edax sizes its table with the count, then reads to the end.
        for count in [0u8, 1, 7] {
            let mut bytes = FIXTURE;
            bytes[38] = count;
            assert_eq!(import(&bytes), Ok(fixture_book()));
        }
    }

    #[test]
    fn the_first_of_two_equal_positions_stays() {
        // The second copy of "after f5" says value +3; Edax keeps the first.
        let mut bytes = FIXTURE.to_vec();
        let mut copy = FIXTURE[42..84].to_vec();
        copy[32] = 3;
        bytes.extend_from_slice(&copy);
        bytes[38] = 3;
        assert_eq!(import(&bytes), Ok(fixture_book()));
    }

    #[test]
    fn wins_draws_and_losses_count_as_games() {
        let mut bytes = FIXTURE;
        bytes[42 + 16..42 + 28].copy_from_slice(&[3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]);
        let book = import(&bytes).unwrap();
        let after_f5 = Board::new(0x0000_0000_0800_0000, 0x0000_0038_1000_0000);
        assert_eq!(book.get(&after_f5).unwrap().games, 6);
    }

    #[test]
    fn a_finished_game_keeps_its_score_as_a_leaf_without_move() {
        let board = canonical(Board::new(0x0000_00FF_FFFF_FFFF, 0xFFFF_FF00_0000_0000)).0;
        assert!(board.is_game_over());
        let book = Book::new(
            Variant::Othello,
            0,
            vec![Entry {
                board,
                value: 16,
                leaf_value: 16,
                leaf_move: NO_MOVE,
                depth: 16,
                games: 1,
            }],
        );
        let edax = export(&book).unwrap();
        assert_eq!(edax[edax.len() - 2..], [16, EDAX_NOMOVE]);
        assert_eq!(import(&edax), Ok(book));
    }

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
