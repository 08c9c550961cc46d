//! Move ordering: alpha-beta cuts most when the best move comes first.
//!
//! The hash move (best move of an earlier search of this node) goes first; the
//! rest follow the evaluation's ordering key (for Othello: fewest replies for the
//! opponent, corners), picked one at a time so that a node that cuts early never
//! sorts the tail.

use super::movelist::{self, InOrder, Keyed};
use crate::eval::Evaluator;
use crate::game::Game;

/// One move of a node: its code, the state it leads to, its ordering key.
#[derive(Clone, Copy)]
pub struct Candidate<G> {
    /// The move's [`Game::move_code`].
    pub code: u8,
    /// The state after the move.
    pub child: G,
    key: i32,
}

impl<G: Copy> Keyed for Candidate<G> {
    #[inline]
    fn key(&self) -> i32 {
        self.key
    }
}

/// The moves of one node with their resulting states and ordering keys,
/// taken in the order generated among equal keys.
pub struct MoveList<G: Game>(movelist::MoveList<Candidate<G>, InOrder>);

impl<G: Game> Default for MoveList<G> {
    fn default() -> Self {
        const { assert!(G::SQUARES <= 64, "a list holds 64 moves") };
        MoveList(movelist::MoveList::new(Candidate {
            code: 0,
            child: G::start(),
            key: 0,
        }))
    }
}

impl<G: Game> MoveList<G> {
    /// Fills the list with the moves of `state`: the hash move (by code) first,
    /// then by the evaluation's key when `use_keys`, otherwise in generation order.
    pub fn fill<E: Evaluator<G>>(
        &mut self,
        state: &G,
        moves: G::Moves,
        hash_move: u8,
        use_keys: bool,
        eval: &E,
    ) {
        self.0.clear();
        for mv in moves {
            let child = state.play_unchecked(mv);
            let code = G::move_code(mv);
            let key = if code == hash_move {
                i32::MAX
            } else if use_keys {
                eval.order_key(state, mv, &child)
            } else {
                0
            };
            self.0.push(Candidate { code, child, key });
        }
    }

    /// Removes and returns the remaining move with the highest key (the earliest
    /// generated among equals).
    #[inline]
    pub fn next_best(&mut self) -> Option<Candidate<G>> {
        self.0.next()
    }

    /// [`Self::next_best`] as the game's move.
    pub fn next_move(&mut self) -> Option<G::Move> {
        self.next_best().and_then(|c| G::move_from_code(c.code))
    }

    /// Moves left in the list.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether every move has been taken.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::handmade::HandmadeEval;
    use crate::game::{Move, StandardOthello};

    #[test]
    fn hash_move_first_then_by_key() {
        let start = StandardOthello::start();
        let eval = HandmadeEval::<false>;
        let mut list = MoveList::default();
        let e6: Move = "e6".parse().unwrap();
        list.fill(&start, start.legal_moves(), e6.code(), true, &eval);
        assert_eq!(list.len(), 4);
        assert_eq!(list.next_move(), Some(e6));
        let mut rest = Vec::new();
        while let Some(mv) = list.next_move() {
            rest.push(mv);
        }
        assert_eq!(rest.len(), 3);
        assert!(list.is_empty());
        // Without keys, generation order: d3, c4, f5 (e6 taken first).
        let mut plain = MoveList::default();
        plain.fill(&start, start.legal_moves(), e6.code(), false, &eval);
        let order: Vec<String> = std::iter::from_fn(|| plain.next_move())
            .map(|m| m.to_string())
            .collect();
        assert_eq!(order, ["e6", "d3", "c4", "f5"]);
    }
}
