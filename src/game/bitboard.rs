//! Bit-set helpers shared by the board games: iterating the squares of a set and
//! the eight symmetries of the 8x8 board.
//!
//! Bit `i` is square `i` with `i = 8 * row + column`, so a1 (top-left) is bit 0,
//! h1 is bit 7 and h8 (bottom-right) is bit 63 — the layout Edax and most Othello
//! programs use, which makes "row 1 at the top" fall out of the bit order.

/// The a-file and the h-file removed: a mask that stops horizontal and
/// diagonal shifts from wrapping round the board edge.
pub const NOT_EDGE_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The four corners a1, h1, a8, h8.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Iterates the set bits of a mask as square indices, lowest first.
///
/// A plain bit loop is what every hot path wants, so it is a `Copy` iterator with
/// an exact length.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let index = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(index)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}

/// Mirror left-right (a1 <-> h1).
#[inline]
pub const fn flip_horizontal(x: u64) -> u64 {
    let x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
    let x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
    ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4)
}

/// Mirror top-bottom (a1 <-> a8).
#[inline]
pub const fn flip_vertical(x: u64) -> u64 {
    x.swap_bytes()
}

/// Mirror in the a1-h8 diagonal (b1 <-> a2).
#[inline]
pub const fn flip_diagonal(x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    let x = x ^ t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    let x = x ^ t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// The image of a bit set under symmetry number `s` (0..8) of the square.
///
/// Symmetry 0 is the identity; bits 0, 1 and 2 of `s` switch on a horizontal
/// mirror, a vertical mirror and a diagonal mirror, applied in that order. The
/// eight combinations are the whole dihedral group of the square.
#[inline]
pub const fn symmetry(x: u64, s: u8) -> u64 {
    let mut x = x;
    if s & 1 != 0 {
        x = flip_horizontal(x);
    }
    if s & 2 != 0 {
        x = flip_vertical(x);
    }
    if s & 4 != 0 {
        x = flip_diagonal(x);
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(x: u64, f: impl Fn(u32, u32) -> (u32, u32)) -> u64 {
        let mut out = 0;
        for sq in 0..64 {
            if x >> sq & 1 != 0 {
                let (r, c) = f(sq / 8, sq % 8);
                out |= 1 << (r * 8 + c);
            }
        }
        out
    }

    #[test]
    fn mirrors_match_naive_definitions() {
        let samples = [
            1u64,
            0x8000_0000_0000_0000,
            0x0123_4567_89AB_CDEF,
            0xF0E1_D2C3_B4A5_9687,
        ];
        for &x in &samples {
            assert_eq!(flip_horizontal(x), naive(x, |r, c| (r, 7 - c)));
            assert_eq!(flip_vertical(x), naive(x, |r, c| (7 - r, c)));
            assert_eq!(flip_diagonal(x), naive(x, |r, c| (c, r)));
        }
    }

    #[test]
    fn eight_distinct_symmetries() {
        // b1 (bit 1) and c1 (bit 2) together have a trivial stabiliser.
        let x = 0b110;
        let mut images: Vec<u64> = (0..8).map(|s| symmetry(x, s)).collect();
        images.sort_unstable();
        images.dedup();
        assert_eq!(images.len(), 8);
    }

    #[test]
    fn bits_iterates_in_order() {
        let v: Vec<u8> = Bits(0x8000_0000_0000_0005).collect();
        assert_eq!(v, vec![0, 2, 63]);
        assert_eq!(Bits(0xFF).len(), 8);
    }
}
