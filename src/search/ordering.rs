//! Move ordering: alpha-beta cuts most when the best move comes first.
//!
//! The hash move (best move of an earlier search of this node) goes first; the
//! rest follow the evaluation's ordering key (for Othello: fewest replies for the
//! opponent, corners), picked one at a time so that a node that cuts early never
//! sorts the tail.

use crate::eval::Evaluator;
use crate::game::Game;

/// The moves of one node with their resulting states and ordering keys.
///
/// The buffer is reused from node to node (the searcher keeps one per ply), so
/// building a list allocates nothing once the search is warm.
pub struct MoveList<G: Game> {
    items: Vec<(G::Move, G, i32)>,
}

impl<G: Game> Default for MoveList<G> {
    fn default() -> Self {
        MoveList {
            items: Vec::with_capacity(32),
        }
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
        self.items.clear();
        for mv in moves {
            let child = state.play_unchecked(mv);
            let key = if G::move_code(mv) == hash_move {
                i32::MAX
            } else if use_keys {
                eval.order_key(state, mv, &child)
            } else {
                0
            };
            self.items.push((mv, child, key));
        }
    }

    /// Removes and returns the remaining move with the highest key (the earliest
    /// generated among equals).
    #[inline]
    pub fn next_best(&mut self) -> Option<(G::Move, G)> {
        let mut best: Option<(usize, i32)> = None;
        for (i, item) in self.items.iter().enumerate() {
            if best.is_none_or(|(_, k)| item.2 > k) {
                best = Some((i, item.2));
            }
        }
        let (index, _) = best?;
        let (mv, child, _) = self.items.remove(index);
        Some((mv, child))
    }

    /// Moves left in the list.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether every move has been taken.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
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
        assert_eq!(list.next_best().unwrap().0, e6);
        let mut rest = Vec::new();
        while let Some((mv, _)) = list.next_best() {
            rest.push(mv);
        }
        assert_eq!(rest.len(), 3);
        assert!(list.is_empty());
        // Without keys, generation order: d3, c4, f5 (e6 taken first).
        let mut plain = MoveList::default();
        plain.fill(&start, start.legal_moves(), e6.code(), false, &eval);
        let order: Vec<String> = std::iter::from_fn(|| plain.next_best())
            .map(|(m, _)| m.to_string())
            .collect();
        assert_eq!(order, ["e6", "d3", "c4", "f5"]);
    }
}
