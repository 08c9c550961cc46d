//! Stable discs: discs that no sequence of moves can flip any more.
//!
//! The classic conservative test: a disc is stable when, along each of the four
//! axes through it, either the whole line is full, or a neighbour on that axis is
//! the board edge or a stable disc of the same colour. Starting from nothing and
//! applying the test until nothing changes finds the corners, then grows along
//! edges and full lines. Used by the evaluation, and by the solver to bound scores.

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0x0000_0000_0000_00FF;
const ROW_8: u64 = 0xFF00_0000_0000_0000;
const BORDER: u64 = FILE_A | FILE_H | ROW_1 | ROW_8;

/// The 15 diagonals in each direction, for the full-line test.
struct Diagonals {
    down_right: [u64; 15],
    down_left: [u64; 15],
}

const fn build_diagonals() -> Diagonals {
    let mut d = Diagonals {
        down_right: [0; 15],
        down_left: [0; 15],
    };
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        d.down_right[7 + c - r] |= 1 << sq;
        d.down_left[r + c] |= 1 << sq;
        sq += 1;
    }
    d
}

static DIAGONALS: Diagonals = build_diagonals();

/// Squares whose line is full along each axis: (horizontal, vertical, a1-h8
/// diagonals, h1-a8 diagonals).
#[inline]
pub fn full_lines(occupied: u64) -> (u64, u64, u64, u64) {
    let mut horizontal = 0;
    for row in 0..8 {
        let line = ROW_1 << (8 * row);
        if occupied & line == line {
            horizontal |= line;
        }
    }
    let mut columns = occupied & (occupied >> 32);
    columns &= columns >> 16;
    columns &= columns >> 8;
    let vertical = (columns & 0xFF).wrapping_mul(FILE_A);
    let (mut down_right, mut down_left) = (0, 0);
    for i in 0..15 {
        let a = DIAGONALS.down_right[i];
        if occupied & a == a {
            down_right |= a;
        }
        let b = DIAGONALS.down_left[i];
        if occupied & b == b {
            down_left |= b;
        }
    }
    (horizontal, vertical, down_right, down_left)
}

/// The stable discs of `own`, with `other` the opponent's discs.
#[inline]
pub fn stable_discs(own: u64, other: u64) -> u64 {
    let (h_full, v_full, dr_full, dl_full) = full_lines(own | other);
    stable_with_full_lines(own, (h_full, v_full, dr_full, dl_full))
}

/// [`stable_discs`] when the full lines are already known (they are shared by both
/// colours).
#[inline]
pub fn stable_with_full_lines(own: u64, full: (u64, u64, u64, u64)) -> u64 {
    let (h_full, v_full, dr_full, dl_full) = full;
    let h_ok = h_full | FILE_A | FILE_H;
    let v_ok = v_full | ROW_1 | ROW_8;
    let dr_ok = dr_full | BORDER;
    let dl_ok = dl_full | BORDER;
    // Discs safe on every axis without help from neighbours.
    let mut stable = own & h_ok & v_ok & dr_ok & dl_ok;
    loop {
        let s = stable;
        let h = h_ok | ((s << 1) & !FILE_A) | ((s >> 1) & !FILE_H);
        let v = v_ok | (s << 8) | (s >> 8);
        let dr = dr_ok | ((s << 9) & !FILE_A) | ((s >> 9) & !FILE_H);
        let dl = dl_ok | ((s << 7) & !FILE_H) | ((s >> 7) & !FILE_A);
        stable = own & h & v & dr & dl;
        if stable == s {
            return stable;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Position, StandardOthello};
    use crate::rng::Rng;

    #[test]
    fn corners_and_edges() {
        // Black owns a1, b1, c1 on an otherwise empty row: all three are stable.
        assert_eq!(stable_discs(0b111, 0), 0b111);
        // b1 alone is not stable.
        assert_eq!(stable_discs(0b10, 0), 0);
        // A full board is all stable.
        assert_eq!(
            stable_discs(0xFFFF_0000_FFFF_0000, 0x0000_FFFF_0000_FFFF),
            0xFFFF_0000_FFFF_0000
        );
        assert_eq!(stable_discs(0, 0), 0);
    }

    /// Sound: a disc called stable keeps its colour in every later position of
    /// hundreds of random games.
    #[test]
    fn stable_discs_are_never_flipped_in_random_play() {
        let mut rng = Rng::new(42);
        let mut checked = 0;
        for _ in 0..300 {
            let mut p = Position::<StandardOthello>::start();
            let mut history = vec![p.state().0.by_color(p.to_move())];
            while let Some(mv) = rng.legal_move(p.state()) {
                p = p.play(mv).unwrap();
                history.push(p.state().0.by_color(p.to_move()));
            }
            for (i, &(black, white)) in history.iter().enumerate() {
                let stable_black = stable_discs(black, white);
                let stable_white = stable_discs(white, black);
                checked += (stable_black | stable_white).count_ones();
                for &(later_black, later_white) in &history[i..] {
                    assert_eq!(later_black & stable_black, stable_black);
                    assert_eq!(later_white & stable_white, stable_white);
                }
            }
        }
        assert!(checked > 10_000, "the games must produce stable discs");
    }
}
