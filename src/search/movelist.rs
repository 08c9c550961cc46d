//! The move list of every search: a node's moves with their ordering keys,
//! taken best first one at a time, so that a node that cuts early never
//! sorts the tail.
//!
//! The searches differ only in what an item holds and in how the list closes
//! the gap a taken item leaves, which decides the order of equal keys: each
//! keeps its own, as its node counts depend on it.

use std::marker::PhantomData;

/// An item of a [`MoveList`]: the higher its key, the sooner it is taken.
pub trait Keyed: Copy {
    /// The ordering key.
    fn key(&self) -> i32;
}

/// How a [`MoveList`] closes the gap a taken item leaves.
pub trait Removal {
    /// Takes `items[index]` out of `items[..=last]`, leaving the others in
    /// `items[..last]`.
    fn take<T: Copy, const N: usize>(items: &mut [T; N], index: usize, last: usize) -> T;
}

/// The items after the gap move up one: among equal keys, the one pushed
/// first is taken first.
pub enum InOrder {}

/// The last item moves into the gap, in constant time: among equal keys, the
/// first in the list as the earlier removals left it.
pub enum SwapLast {}

impl Removal for InOrder {
    #[inline]
    fn take<T: Copy, const N: usize>(items: &mut [T; N], index: usize, last: usize) -> T {
        let item = items[index];
        items.copy_within(index + 1..=last, index);
        item
    }
}

impl Removal for SwapLast {
    #[inline]
    fn take<T: Copy, const N: usize>(items: &mut [T; N], index: usize, last: usize) -> T {
        let item = items[index];
        items[index] = items[last];
        item
    }
}

/// A list of at most `N` items (64 holds the moves of any Othello board),
/// taken highest key first, ties as `R` decides. It lives in place: a search
/// keeps one per ply and refills it, so building a list copies and allocates
/// nothing.
pub struct MoveList<T, R, const N: usize = 64> {
    items: [T; N],
    len: usize,
    removal: PhantomData<R>,
}

impl<T: Keyed + Default, R: Removal, const N: usize> Default for MoveList<T, R, N> {
    fn default() -> Self {
        Self::new(T::default())
    }
}

impl<T: Keyed, R: Removal, const N: usize> MoveList<T, R, N> {
    /// An empty list; `filler` fills the unused places (never read).
    pub fn new(filler: T) -> Self {
        MoveList {
            items: [filler; N],
            len: 0,
            removal: PhantomData,
        }
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds `item` at the end.
    ///
    /// # Panics
    /// When the list already holds `N` items (no position has that many moves).
    #[inline]
    pub fn push(&mut self, item: T) {
        self.items[self.len] = item;
        self.len += 1;
    }

    /// Items left in the list.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether every item has been taken.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The items left, in list order.
    #[inline]
    pub fn items(&self) -> &[T] {
        &self.items[..self.len]
    }

    /// The items left, to change their keys.
    #[inline]
    pub fn items_mut(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }
}

/// Taking the items drains the list, best first.
impl<T: Keyed, R: Removal, const N: usize> Iterator for MoveList<T, R, N> {
    type Item = T;

    /// Takes the remaining item with the highest key (the first in list order
    /// among equals).
    #[inline]
    fn next(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let mut best = 0;
        for i in 1..self.len {
            if self.items[i].key() > self.items[best].key() {
                best = i;
            }
        }
        self.len -= 1;
        Some(R::take(&mut self.items, best, self.len))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len, Some(self.len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An item: its key and the order it was pushed in.
    #[derive(Clone, Copy, Default, Debug, PartialEq)]
    struct It(i32, u8);

    impl Keyed for It {
        fn key(&self) -> i32 {
            self.0
        }
    }

    fn order<R: Removal>(keys: &[i32]) -> Vec<u8> {
        let mut list = MoveList::<It, R, 8>::default();
        for (i, &k) in keys.iter().enumerate() {
            list.push(It(k, i as u8));
        }
        assert_eq!(list.len(), keys.len());
        let order = list.by_ref().map(|it| it.1).collect();
        assert!(list.is_empty());
        order
    }

    #[test]
    fn highest_key_first() {
        assert_eq!(order::<InOrder>(&[3, 9, -1, 5]), [1, 3, 0, 2]);
        assert_eq!(order::<SwapLast>(&[3, 9, -1, 5]), [1, 3, 0, 2]);
        assert!(order::<SwapLast>(&[]).is_empty());
    }

    #[test]
    fn in_order_takes_the_first_pushed_among_equals() {
        assert_eq!(order::<InOrder>(&[5, 1, 5, 5, 1]), [0, 2, 3, 1, 4]);
    }

    #[test]
    fn swap_last_takes_the_first_in_the_list_as_left() {
        // Taking item 0 moves item 4 to the front: [4, 1, 2, 3], and of the
        // equal keys left, 4 comes before 2 and 3; taking 4 then moves 3
        // forward: [3, 1, 2].
        assert_eq!(order::<SwapLast>(&[5, 1, 5, 5, 5]), [0, 4, 3, 2, 1]);
        assert_eq!(order::<SwapLast>(&[5, 1, 5, 5, 1]), [0, 2, 3, 4, 1]);
    }

    #[test]
    fn keys_changed_in_place_count() {
        let mut list = MoveList::<It, SwapLast, 4>::default();
        for i in 0..3 {
            list.push(It(0, i));
        }
        list.items_mut()[2].0 = 7;
        assert_eq!(list.items().len(), 3);
        assert_eq!(list.next(), Some(It(7, 2)));
        list.clear();
        assert_eq!(list.next(), None);
    }
}
