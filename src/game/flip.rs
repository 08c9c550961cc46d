//! Legal-move generation and disc flipping on bitboards, the hot core of every
//! search, perft and solver in Orca.
//!
//! Moves: all eight directions are propagated at once with shifts and masks
//! (the Kogge–Stone "parallel prefix" fill), no loop over squares.
//!
//! Flips: for each of the eight rays leaving the square, the run of opponent
//! discs ends at the first square that is not an opponent disc. On rays that go
//! towards higher bit indices that square is the lowest set bit of
//! `!opponent & ray` (isolated with `x & -x`); on rays towards lower indices it
//! is the highest set bit (found with a leading-zero count). The run is flipped
//! when that square holds one of the mover's discs. Eight branch-free ray tests,
//! written over arrays of four lanes (the portable code). With AVX2 the two
//! groups of four rays run in two vectors, and the rays towards lower indices
//! find their first non-opponent square by smearing down the ray rather than
//! by a leading-zero count, which AVX2 does not have.

use crate::cpu::Isa;

/// Direction offsets (bit index steps) of the four rays towards higher indices:
/// east, south-west, south, south-east. Their negations are the other four.
const STEPS: [(i8, i8); 4] = [(0, 1), (1, -1), (1, 0), (1, 1)];

/// Rays from every square, `[square][lane]`: the squares strictly beyond the
/// start, up to the board edge, in direction `STEPS[lane]` (`up`) or in the
/// opposite direction (`down`).
struct Rays {
    up: [[u64; 4]; 64],
    down: [[u64; 4]; 64],
}

const fn ray(square: usize, dr: i8, dc: i8) -> u64 {
    let mut mask = 0u64;
    let mut r = (square / 8) as i8 + dr;
    let mut c = (square % 8) as i8 + dc;
    while r >= 0 && r < 8 && c >= 0 && c < 8 {
        mask |= 1u64 << (r * 8 + c);
        r += dr;
        c += dc;
    }
    mask
}

const fn build_rays() -> Rays {
    let mut rays = Rays {
        up: [[0; 4]; 64],
        down: [[0; 4]; 64],
    };
    let mut sq = 0;
    while sq < 64 {
        let mut lane = 0;
        while lane < 4 {
            let (dr, dc) = STEPS[lane];
            rays.up[sq][lane] = ray(sq, dr, dc);
            rays.down[sq][lane] = ray(sq, -dr, -dc);
            lane += 1;
        }
        sq += 1;
    }
    rays
}

static RAYS: Rays = build_rays();

/// The opponent discs flipped when the side owning `player` plays on `square`.
///
/// Returns 0 when the move flips nothing, that is when it is not legal. The
/// square must be empty; that is not checked here.
///
/// On a CPU with AVX2 ([`crate::cpu::fast`]) the eight rays run as two
/// vectors of four ([`flips_avx2`]); [`flips_portable`] otherwise.
#[inline(always)]
pub fn flips(player: u64, opponent: u64, square: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::fast() {
        // SAFETY: `fast` holds only on a CPU with AVX2.
        return unsafe { flips_avx2(player, opponent, square) };
    }
    flips_portable(player, opponent, square)
}

/// [`flips`] with the kernels of `isa`, for the fast copies of the searches
/// ([`crate::cpu::isa_versions`]): no check of the CPU, and the AVX2 code
/// always inlined (called outside a fast copy, its instructions would not be).
#[inline(always)]
pub fn flips_with<I: Isa>(isa: I, player: u64, opponent: u64, square: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if isa.fast().is_some() {
        // SAFETY: a `Fast` exists only on a CPU with AVX2.
        return unsafe { flips_avx2_inline(player, opponent, square) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
    flips_portable(player, opponent, square)
}

/// [`flips`] in two vectors of four rays: [`flips_avx2_inline`] as a
/// function of its own, for code compiled without AVX2. Only for a CPU with
/// AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn flips_avx2(player: u64, opponent: u64, square: u8) -> u64 {
    // SAFETY: this function runs only on a CPU with AVX2.
    unsafe { flips_avx2_inline(player, opponent, square) }
}

/// [`flips`] in two vectors of four rays, without the leading-zero count
/// that AVX2 lacks: on the rays towards lower indices the first square that
/// is not an opponent disc is found by smearing the candidates down the ray
/// (three variable shifts by one, two and four steps), so no lane leaves the
/// vector. The portable code computes those lanes one by one with scalar
/// leading-zero counts.
///
/// # Safety
/// Only for a CPU with AVX2, and fast only inlined into code compiled with
/// it (a `#[target_feature]` function).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn flips_avx2_inline(player: u64, opponent: u64, square: u8) -> u64 {
    use std::arch::x86_64::{
        _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_add_epi64, _mm256_and_si256,
        _mm256_andnot_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi64, _mm256_extracti128_si256,
        _mm256_loadu_si256, _mm256_or_si256, _mm256_set_epi64x, _mm256_set1_epi64x,
        _mm256_setzero_si256, _mm256_srlv_epi64, _mm256_sub_epi64,
    };
    let up = &RAYS.up[usize::from(square)];
    let down = &RAYS.down[usize::from(square)];
    // SAFETY: the caller runs on a CPU with AVX2; the two loads read the 32
    // bytes of a `[u64; 4]` of the static ray table (unaligned loads).
    unsafe {
        let up = _mm256_loadu_si256(up.as_ptr().cast());
        let down = _mm256_loadu_si256(down.as_ptr().cast());
        let o = _mm256_set1_epi64x(opponent as i64);
        let p = _mm256_set1_epi64x(player as i64);
        let zero = _mm256_setzero_si256();
        // Towards higher indices: the first square that is not an opponent
        // disc is the lowest candidate (`c & -c`); the run below it flips
        // when that square is the mover's.
        let candidates = _mm256_andnot_si256(o, up);
        let first = _mm256_and_si256(candidates, _mm256_sub_epi64(zero, candidates));
        let run = _mm256_and_si256(_mm256_add_epi64(first, _mm256_set1_epi64x(-1)), up);
        let open = _mm256_cmpeq_epi64(_mm256_and_si256(first, p), zero);
        let mut flipped = _mm256_andnot_si256(open, run);
        // Towards lower indices: every square of the ray below a candidate
        // (`below`), so the highest candidate is the one not below another,
        // and the run is the ray above it. Lanes (low to high) step 1, 7, 8
        // and 9 squares, as `STEPS`.
        let step = _mm256_set_epi64x(9, 8, 7, 1);
        let step2 = _mm256_set_epi64x(18, 16, 14, 2);
        let step4 = _mm256_set_epi64x(36, 32, 28, 4);
        let candidates = _mm256_andnot_si256(o, down);
        let mut below = _mm256_srlv_epi64(candidates, step);
        below = _mm256_or_si256(below, _mm256_srlv_epi64(below, step));
        below = _mm256_or_si256(below, _mm256_srlv_epi64(below, step2));
        below = _mm256_or_si256(below, _mm256_srlv_epi64(below, step4));
        let last = _mm256_andnot_si256(below, candidates);
        let run = _mm256_andnot_si256(_mm256_or_si256(below, candidates), down);
        let open = _mm256_cmpeq_epi64(_mm256_and_si256(last, p), zero);
        flipped = _mm256_or_si256(flipped, _mm256_andnot_si256(open, run));
        let half = _mm_or_si128(
            _mm256_castsi256_si128(flipped),
            _mm256_extracti128_si256::<1>(flipped),
        );
        let all = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        _mm_cvtsi128_si64(all) as u64
    }
}

/// [`flips`] without vector intrinsics: eight branch-free ray tests over
/// arrays of four lanes (used without AVX2, and by the tests against the
/// vector code).
#[inline(always)]
pub fn flips_portable(player: u64, opponent: u64, square: u8) -> u64 {
    let up = &RAYS.up[square as usize];
    let down = &RAYS.down[square as usize];
    let mut lanes = [0u64; 4];
    for lane in 0..4 {
        // Towards higher indices: the first non-opponent square is the lowest bit.
        let m = up[lane];
        let candidates = !opponent & m;
        let first = candidates & candidates.wrapping_neg();
        let run = first.wrapping_sub(1) & m;
        let closes = 0u64.wrapping_sub(((first & player) != 0) as u64);
        let mut flipped = run & closes;

        // Towards lower indices: the first non-opponent square is the highest bit.
        // `| 1` keeps the shift in range when the ray is all opponent discs; bit 0
        // is then either outside the ray or an opponent disc, so it never closes.
        let m = down[lane];
        let candidates = !opponent & m;
        let last = (1u64 << 63) >> (candidates | 1).leading_zeros();
        let run = last.wrapping_neg().wrapping_shl(1) & m;
        let closes = 0u64.wrapping_sub(((last & player & m) != 0) as u64);
        flipped |= run & closes;
        lanes[lane] = flipped;
    }
    lanes[0] | lanes[1] | lanes[2] | lanes[3]
}

/// `LINE_FLIPS[p][pattern]`: discs flipped along one line of eight squares by a
/// move on square `p` of the line, when `pattern` holds the mover's discs and
/// every other square of the line is the opponent's (or off the board: those
/// lie at the line's ends, never before a closing disc, so they close nothing).
static LINE_FLIPS: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut p = 0;
    while p < 8 {
        let mut pattern = 0;
        while pattern < 256 {
            let mut count = 0;
            // Towards higher positions, then towards lower ones.
            let mut q = p + 1;
            while q < 8 && pattern >> q & 1 == 0 {
                q += 1;
            }
            if q < 8 {
                count += q - p - 1;
            }
            let mut q = p as i32 - 1;
            while q >= 0 && pattern >> q & 1 == 0 {
                q -= 1;
            }
            if q >= 0 {
                count += p - q as usize - 1;
            }
            table[p][pattern] = count as u8;
            pattern += 1;
        }
        p += 1;
    }
    table
};

/// Masks of the two diagonals through each square: `[square][0]` runs a1-h8
/// (steps of 9 bits), `[square][1]` h1-a8 (steps of 7).
static DIAGONALS: [[u64; 2]; 64] = {
    let mut masks = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut other = 0usize;
        while other < 64 {
            let (r2, c2) = ((other / 8) as i32, (other % 8) as i32);
            if r2 - r == c2 - c {
                masks[sq][0] |= 1u64 << other;
            }
            if r2 - r == c - c2 {
                masks[sq][1] |= 1u64 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    masks
};

/// How many discs the side owning `player` flips by playing on `square` when
/// that square is the board's last empty one (every other square is full):
/// the solver's last move, where only the count matters. Each of the four
/// lines through the square is gathered into one byte (a shift for the row,
/// a multiplication for the column and the diagonals: their squares lie in
/// distinct columns, or rows, so no two bits collide) and looked up.
#[inline(always)]
pub fn last_flip_count(player: u64, square: u8) -> u32 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    // Row r's bit of the column lands on bit 56 + r.
    const COLUMN_TO_ROW: u64 = 0x0102_0408_1020_4080;
    let (row, col) = (usize::from(square / 8), usize::from(square % 8));
    let row_bits = (player >> (8 * row)) as u8;
    let col_bits = (((player >> col) & FILE_A).wrapping_mul(COLUMN_TO_ROW) >> 56) as u8;
    let [d9, d7] = DIAGONALS[usize::from(square)];
    let d9_bits = ((player & d9).wrapping_mul(FILE_A) >> 56) as u8;
    let d7_bits = ((player & d7).wrapping_mul(FILE_A) >> 56) as u8;
    u32::from(LINE_FLIPS[col][usize::from(row_bits)])
        + u32::from(LINE_FLIPS[row][usize::from(col_bits)])
        + u32::from(LINE_FLIPS[col][usize::from(d9_bits)])
        + u32::from(LINE_FLIPS[col][usize::from(d7_bits)])
}

/// One direction of the Kogge–Stone fill: the squares reached from `player`
/// through a run of `mask` squares by shifting `step` bits left and right.
#[inline(always)]
fn fill_both_ways(player: u64, mask: u64, step: u32) -> u64 {
    let mut left = mask & (player << step);
    let mut right = mask & (player >> step);
    left |= mask & (left << step);
    right |= mask & (right >> step);
    let pre_left = mask & (mask << step);
    let pre_right = mask & (mask >> step);
    left |= pre_left & (left << (2 * step));
    right |= pre_right & (right >> (2 * step));
    left |= pre_left & (left << (2 * step));
    right |= pre_right & (right >> (2 * step));
    (left << step) | (right >> step)
}

/// The empty squares where the side owning `player` may legally play.
///
/// On a CPU with AVX2 ([`crate::cpu::fast`]) the four directions run side
/// by side in one vector (the solver asks for the moves of every child it
/// orders); [`legal_moves_portable`] otherwise.
#[inline(always)]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::fast() {
        // SAFETY: `fast` holds only on a CPU with AVX2.
        return unsafe { legal_moves_avx2(player, opponent) };
    }
    legal_moves_portable(player, opponent)
}

/// [`legal_moves`] with the kernels of `isa`, for the fast copies of the
/// searches, as [`flips_with`].
#[inline(always)]
pub fn legal_moves_with<I: Isa>(isa: I, player: u64, opponent: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if isa.fast().is_some() {
        // SAFETY: a `Fast` exists only on a CPU with AVX2.
        return unsafe { legal_moves_avx2_inline(player, opponent) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
    legal_moves_portable(player, opponent)
}

/// The legal moves in four vector lanes ([`legal_moves_avx2_inline`]) as a
/// function of its own, for code compiled without AVX2. Only for a CPU with
/// AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn legal_moves_avx2(player: u64, opponent: u64) -> u64 {
    // SAFETY: this function runs only on a CPU with AVX2.
    unsafe { legal_moves_avx2_inline(player, opponent) }
}

/// [`legal_moves_portable`] in four 64-bit lanes, one per direction pair
/// (east-west, north-south and the two diagonals): the same fill, shifted
/// left and right by each lane's own step.
///
/// # Safety
/// Only for a CPU with AVX2, and fast only inlined into code compiled with
/// it (a `#[target_feature]` function).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn legal_moves_avx2_inline(player: u64, opponent: u64) -> u64 {
    use std::arch::x86_64::{
        _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_and_si256,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_or_si256, _mm256_set_epi64x,
        _mm256_set1_epi64x, _mm256_sllv_epi64, _mm256_srlv_epi64,
    };
    let inner = (opponent & super::bitboard::NOT_EDGE_FILES) as i64;
    // SAFETY: the caller runs on a CPU with AVX2; no memory is accessed.
    unsafe {
        // Lanes (low to high): steps 1, 8, 7, 9; the vertical lane may run
        // over every opponent disc, the others not across the side files.
        let mask = _mm256_set_epi64x(inner, inner, opponent as i64, inner);
        let step = _mm256_set_epi64x(9, 7, 8, 1);
        let double = _mm256_set_epi64x(18, 14, 16, 2);
        let own = _mm256_set1_epi64x(player as i64);
        let mut left = _mm256_and_si256(mask, _mm256_sllv_epi64(own, step));
        let mut right = _mm256_and_si256(mask, _mm256_srlv_epi64(own, step));
        left = _mm256_or_si256(left, _mm256_and_si256(mask, _mm256_sllv_epi64(left, step)));
        right = _mm256_or_si256(
            right,
            _mm256_and_si256(mask, _mm256_srlv_epi64(right, step)),
        );
        let pre_left = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, step));
        let pre_right = _mm256_and_si256(mask, _mm256_srlv_epi64(mask, step));
        for _ in 0..2 {
            left = _mm256_or_si256(
                left,
                _mm256_and_si256(pre_left, _mm256_sllv_epi64(left, double)),
            );
            right = _mm256_or_si256(
                right,
                _mm256_and_si256(pre_right, _mm256_srlv_epi64(right, double)),
            );
        }
        let moves = _mm256_or_si256(
            _mm256_sllv_epi64(left, step),
            _mm256_srlv_epi64(right, step),
        );
        let half = _mm_or_si128(
            _mm256_castsi256_si128(moves),
            _mm256_extracti128_si256::<1>(moves),
        );
        let all = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        (_mm_cvtsi128_si64(all) as u64) & !(player | opponent)
    }
}

/// The legal moves without vector instructions, one direction pair at a time
/// (used without AVX2, and by the tests against the vector code).
#[inline]
pub fn legal_moves_portable(player: u64, opponent: u64) -> u64 {
    let inner = opponent & super::bitboard::NOT_EDGE_FILES;
    let moves = fill_both_ways(player, inner, 1)
        | fill_both_ways(player, opponent, 8)
        | fill_both_ways(player, inner, 7)
        | fill_both_ways(player, inner, 9);
    moves & !(player | opponent)
}

/// Deliberately naive references, square by square and direction by direction,
/// used by tests to check the fast code above.
#[cfg(test)]
pub mod naive {
    const DIRECTIONS: [(i32, i32); 8] = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];

    /// Flips by walking each direction one square at a time.
    pub fn flips(player: u64, opponent: u64, square: u8) -> u64 {
        let mut all = 0;
        for (dr, dc) in DIRECTIONS {
            let (mut r, mut c) = (square as i32 / 8 + dr, square as i32 % 8 + dc);
            let mut run = 0u64;
            while (0..8).contains(&r) && (0..8).contains(&c) {
                let bit = 1u64 << (r * 8 + c);
                if opponent & bit != 0 {
                    run |= bit;
                } else {
                    if player & bit != 0 {
                        all |= run;
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        all
    }

    /// Legal moves by trying every empty square.
    pub fn legal_moves(player: u64, opponent: u64) -> u64 {
        let mut moves = 0;
        for sq in 0..64u8 {
            let bit = 1u64 << sq;
            if (player | opponent) & bit == 0 && flips(player, opponent, sq) != 0 {
                moves |= bit;
            }
        }
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_moves() {
        // Black (X) on d5 and e4, white on d4 and e5, black to move.
        let black = (1 << 35) | (1 << 28);
        let white = (1 << 27) | (1 << 36);
        let moves = legal_moves(black, white);
        // d3, c4, f5, e6
        assert_eq!(moves, (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44));
        assert_eq!(flips(black, white, 19), 1 << 27);
    }

    #[test]
    fn rays_stop_at_the_edge() {
        // A run of opponent discs reaching the edge with no closing disc flips nothing.
        let player = 0;
        let opponent = 0b1111110;
        assert_eq!(flips(player, opponent, 0), 0);
        assert_eq!(flips(1 << 7, opponent, 0), opponent);
        // All-opponent ray toward bit 0 with bit 0 in the ray but not the player's.
        assert_eq!(flips(1 << 9, 1 | (1 << 8), 16), 0);
        assert_eq!(flips(1, 1 << 8, 16), 1 << 8);
    }

    /// With one empty square left, the counted flips are those of the full
    /// flip computation, for both sides, on random full boards.
    #[test]
    fn last_flip_count_matches_flips() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let a = next();
            let sq = (next() % 64) as u8;
            let player = a & !(1u64 << sq);
            let opponent = !a & !(1u64 << sq);
            assert_eq!(
                last_flip_count(player, sq),
                flips(player, opponent, sq).count_ones(),
                "{player:x} {sq}"
            );
            assert_eq!(
                last_flip_count(opponent, sq),
                flips(opponent, player, sq).count_ones()
            );
        }
    }

    /// The dispatched functions, the portable ones and (on a CPU with AVX2,
    /// whatever the dispatch chose) the AVX2 kernels, out of line and
    /// inlined, all give the naive answers.
    #[test]
    fn matches_naive_on_pseudo_random_boards() {
        use crate::cpu::{Fast, Portable};
        let fast = Fast::detect();
        #[cfg(target_arch = "x86_64")]
        let avx2 = crate::cpu::cpu_has_fast_features();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let a = next();
            let b = next() & !a;
            let moves = naive::legal_moves(a, b);
            assert_eq!(legal_moves(a, b), moves);
            assert_eq!(legal_moves_portable(a, b), moves);
            assert_eq!(legal_moves_with(Portable, a, b), moves);
            if let Some(fast) = fast {
                assert_eq!(legal_moves_with(fast, a, b), moves);
            }
            #[cfg(target_arch = "x86_64")]
            if avx2 {
                // SAFETY: this CPU has AVX2.
                assert_eq!(unsafe { legal_moves_avx2(a, b) }, moves);
            }
            for sq in 0..64 {
                if (a | b) >> sq & 1 == 0 {
                    let expected = naive::flips(a, b, sq);
                    assert_eq!(flips(a, b, sq), expected, "{a:x} {b:x} {sq}");
                    assert_eq!(flips_portable(a, b, sq), expected, "{a:x} {b:x} {sq}");
                    assert_eq!(flips_with(Portable, a, b, sq), expected);
                    if let Some(fast) = fast {
                        assert_eq!(flips_with(fast, a, b, sq), expected);
                    }
                    #[cfg(target_arch = "x86_64")]
                    if avx2 {
                        // SAFETY: this CPU has AVX2.
                        assert_eq!(unsafe { flips_avx2(a, b, sq) }, expected);
                    }
                }
            }
        }
    }
}
