//! What the book knows of a position: its moves with their values, and the
//! engine's choice among them.

use super::{Book, NO_MOVE, canonical};
use crate::game::{Board, Move};
use crate::rng::Rng;

/// The engine leaves the book once the best book value is beyond this many
/// discs either way: the game is decided, and the book's values there come
/// from shallow selective searches of lopsided positions that the engine's
/// own search plays at least as well.
pub const DECIDED: i32 = 24;

/// A move of a book position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move on the board as given (not the canonical one).
    pub mv: Move,
    /// Its value in discs for the side to move.
    pub value: i32,
    /// Depth of the search behind the value.
    pub depth: u8,
    /// Whether the position after it is in the book (else it is the leaf:
    /// the best move outside the book, valued by the position's search).
    pub linked: bool,
}

impl Book {
    /// Every move the book knows in `board`, best first (ties by square), or
    /// `None` when the position is not in the book.
    pub fn moves(&self, board: &Board) -> Option<Vec<BookMove>> {
        let (image, s) = canonical(*board);
        let entry = self.get_canonical(&image)?;
        let mut moves = Vec::new();
        for square in board.move_squares() {
            let child = board.play_unchecked(square);
            if let Some(c) = self.get(&child) {
                moves.push(BookMove {
                    mv: Move::Play(square),
                    value: -i32::from(c.value),
                    depth: c.depth,
                    linked: true,
                });
            } else if entry.leaf_move != NO_MOVE && square.symmetry(s).index() == entry.leaf_move {
                moves.push(BookMove {
                    mv: Move::Play(square),
                    value: i32::from(entry.leaf_value),
                    depth: entry.depth,
                    linked: false,
                });
            }
        }
        moves.sort_by_key(|m| (-m.value, m.mv.code()));
        Some(moves)
    }

    /// The move to play in `board`: one of the moves within `randomness`
    /// discs of the best, chosen by `rng` (at 0 the best, of equal ones the
    /// lowest square, so that play is reproducible); `None` to leave
    /// the book (unknown position, no move known, or a decided game, see
    /// [`DECIDED`]).
    pub fn choose(&self, board: &Board, randomness: u32, rng: &mut Rng) -> Option<BookMove> {
        let moves = self.moves(board)?;
        let best = moves.first()?.value;
        if best.abs() > DECIDED {
            return None;
        }
        let floor = best.saturating_sub(randomness.min(128) as i32);
        let candidates: Vec<&BookMove> = moves.iter().filter(|m| m.value >= floor).collect();
        let pick = if randomness > 0 && candidates.len() > 1 {
            rng.below(candidates.len() as u64) as usize
        } else {
            0
        };
        Some(*candidates[pick])
    }
}
