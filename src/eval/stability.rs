//! Stable discs: discs that no sequence of moves can flip any more.
//!
//! The classic conservative test: a disc is stable when, along each of the four
//! axes through it, either the whole line is full, or a neighbour on that axis is
//! the board edge or a stable disc of the same colour. Starting from nothing and
//! applying the test until nothing changes finds the corners, then grows along
//! edges and full lines. Used by the evaluation, and by the solver to bound scores.

use crate::game::bitboard::CORNERS;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0x0000_0000_0000_00FF;
const ROW_8: u64 = 0xFF00_0000_0000_0000;
const BORDER: u64 = FILE_A | FILE_H | ROW_1 | ROW_8;

/// Squares from which `k` steps of (`dr`, `dc`) stay on the board.
const fn reach(dr: i32, dc: i32, k: i32) -> u64 {
    let mut mask = 0u64;
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8 + dr * k, sq % 8 + dc * k);
        if r >= 0 && r < 8 && c >= 0 && c < 8 {
            mask |= 1u64 << sq;
        }
        sq += 1;
    }
    mask
}

/// `[k]`: the reach masks for 1, 2 and 4 steps.
const fn reaches(dr: i32, dc: i32) -> [u64; 3] {
    [reach(dr, dc, 1), reach(dr, dc, 2), reach(dr, dc, 4)]
}

const DOWN_RIGHT: [u64; 3] = reaches(1, 1);
const UP_LEFT: [u64; 3] = reaches(-1, -1);
const DOWN_LEFT: [u64; 3] = reaches(1, -1);
const UP_RIGHT: [u64; 3] = reaches(-1, 1);

/// Squares whose ray in one direction is fully occupied up to the edge: the
/// ray is doubled three times (1, 2, 4 squares further), treating squares
/// beyond the edge as occupied. `step` is the bit distance of one step
/// (positive towards higher indices), `reach[k]` the squares that can take
/// 2^k steps.
#[inline]
fn ray_full(occupied: u64, step: i32, reach: &[u64; 3]) -> u64 {
    let shift = |v: u64, k: usize| {
        let moved = if step > 0 {
            v >> (step as u32 * (1 << k))
        } else {
            v << ((-step) as u32 * (1 << k))
        };
        (moved & reach[k]) | !reach[k]
    };
    let mut full = occupied & shift(occupied, 0);
    full &= shift(full, 1);
    full & shift(full, 2)
}

/// The four lines through each square: its rank, its file, its a1-h8 and its
/// h1-a8 diagonal (the order of [`full_lines`]).
static LINES_THROUGH: [[u64; 4]; 64] = {
    let mut lines = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut other: usize = 0;
        while other < 64 {
            let (r2, c2) = ((other / 8) as i32, (other % 8) as i32);
            let bit = 1u64 << other;
            if r2 == r {
                lines[sq][0] |= bit;
            }
            if c2 == c {
                lines[sq][1] |= bit;
            }
            if r2 - r == c2 - c {
                lines[sq][2] |= bit;
            }
            if r2 - r == c - c2 {
                lines[sq][3] |= bit;
            }
            other += 1;
        }
        sq += 1;
    }
    lines
};

/// At most this many empty squares, [`full_lines`] takes the union of the
/// lines through them (one vector OR each) rather than its shifts and folds.
const FEW_EMPTIES: u32 = 12;

/// Squares whose line is full along each axis: (horizontal, vertical, a1-h8
/// diagonals, h1-a8 diagonals). Always inlined, as the two functions below:
/// the solver's stability test then compiles into each copy of its caller,
/// the AVX2 one included ([`crate::cpu::isa_versions`]).
#[inline(always)]
pub fn full_lines(occupied: u64) -> (u64, u64, u64, u64) {
    let empty = !occupied;
    if empty.count_ones() <= FEW_EMPTIES {
        // A line is full when no empty square lies on it: every square not
        // on a line through an empty one.
        let mut open = [0u64; 4];
        let mut rest = empty;
        while rest != 0 {
            let lines = &LINES_THROUGH[rest.trailing_zeros() as usize];
            for (o, l) in open.iter_mut().zip(lines) {
                *o |= l;
            }
            rest &= rest - 1;
        }
        return (!open[0], !open[1], !open[2], !open[3]);
    }
    full_lines_by_shifts(occupied)
}

/// [`full_lines`] by shifts and folds, whatever the number of empty squares.
#[inline]
fn full_lines_by_shifts(occupied: u64) -> (u64, u64, u64, u64) {
    // A row is full when its byte is: fold each byte onto its lowest bit.
    let mut rows = occupied & (occupied >> 4);
    rows &= rows >> 2;
    rows &= rows >> 1;
    let horizontal = (rows & FILE_A).wrapping_mul(0xFF);
    let mut columns = occupied & (occupied >> 32);
    columns &= columns >> 16;
    columns &= columns >> 8;
    let vertical = (columns & 0xFF).wrapping_mul(FILE_A);
    let down_right = ray_full(occupied, 9, &DOWN_RIGHT) & ray_full(occupied, -9, &UP_LEFT);
    let down_left = ray_full(occupied, 7, &DOWN_LEFT) & ray_full(occupied, -7, &UP_RIGHT);
    (horizontal, vertical, down_right, down_left)
}

/// The discs of `own` that a corner makes stable at once: its corners and the
/// edge squares next to them. Far fewer than [`stable_discs`] finds, but a
/// few instructions: the solver's move ordering counts them for every move
/// (a move that gains them leaves the opponent less to win back).
#[inline]
pub fn corner_discs(own: u64) -> u64 {
    let corners = own & CORNERS;
    let beside = ((corners & FILE_A) << 1)
        | ((corners & FILE_H) >> 1)
        | ((corners & ROW_1) << 8)
        | ((corners & ROW_8) >> 8);
    (corners | beside) & own
}

/// The stable discs of `own`, with `other` the opponent's discs.
#[inline]
pub fn stable_discs(own: u64, other: u64) -> u64 {
    let (h_full, v_full, dr_full, dl_full) = full_lines(own | other);
    stable_with_full_lines(own, (h_full, v_full, dr_full, dl_full))
}

/// [`stable_discs`] when the full lines are already known (they are shared by both
/// colours).
#[inline(always)]
pub fn stable_with_full_lines(own: u64, full: (u64, u64, u64, u64)) -> u64 {
    let safe = safe_lines(full);
    // Discs safe on every axis without help from neighbours.
    let (h_ok, v_ok, dr_ok, dl_ok) = safe;
    let mut stable = (own & h_ok & v_ok & dr_ok & dl_ok) | edge_runs(own);
    loop {
        let s = stable;
        stable = stability_step(own, s, safe);
        if stable == s {
            return stable;
        }
    }
}

/// The discs of `own` joined to an own corner by an unbroken run of own
/// discs along an edge: stable, but the step-by-step test finds them only
/// one square per step. Seeded with them, the test takes about half the
/// steps.
#[inline(always)]
fn edge_runs(own: u64) -> u64 {
    // Occluded fills from the corners, along rows 1 and 8 both ways and
    // along files A and H both ways: runs of up to 8 in three doublings. No
    // wrap-around mask: a step off the end of row 1 or 8 lands on row 2 or
    // 7, or off the board, never on an edge row.
    let seed = own & CORNERS;
    let rows = own & (ROW_1 | ROW_8);
    let files = own & (FILE_A | FILE_H);
    let fill = |pro: u64, step: u32, up: bool| {
        let shift = |v: u64, k: u32| if up { v << (step * k) } else { v >> (step * k) };
        let mut g = seed | (pro & shift(seed, 1));
        let mut p = pro & shift(pro, 1);
        g |= p & shift(g, 2);
        p &= shift(p, 2);
        g | (p & shift(g, 4))
    };
    fill(rows, 1, true) | fill(rows, 1, false) | fill(files, 8, true) | fill(files, 8, false)
}

/// Squares safe on each axis without help from neighbours: full lines and
/// the border across it.
#[inline(always)]
fn safe_lines((h_full, v_full, dr_full, dl_full): (u64, u64, u64, u64)) -> (u64, u64, u64, u64) {
    (
        h_full | FILE_A | FILE_H,
        v_full | ROW_1 | ROW_8,
        dr_full | BORDER,
        dl_full | BORDER,
    )
}

/// One step of the stability test: the discs of `own` safe on every axis,
/// given `safe` squares and the discs `s` taken as stable.
#[inline(always)]
fn stability_step(own: u64, s: u64, (h_ok, v_ok, dr_ok, dl_ok): (u64, u64, u64, u64)) -> u64 {
    let h = h_ok | ((s << 1) & !FILE_A) | ((s >> 1) & !FILE_H);
    let v = v_ok | (s << 8) | (s >> 8);
    let dr = dr_ok | ((s << 9) & !FILE_A) | ((s >> 9) & !FILE_H);
    let dl = dl_ok | ((s << 7) & !FILE_H) | ((s >> 7) & !FILE_A);
    own & h & v & dr & dl
}

/// The stable discs of `own` (with `other` the opponent's), or `None` as
/// soon as fewer than `needed` of them can be stable: the solver wants them
/// only when they bound the score enough to cut. One step of the stability
/// test with every disc of `own` taken as stable bounds the result from
/// above (the test only keeps discs), so most calls stop there.
#[inline(always)]
pub fn stable_discs_at_least(own: u64, other: u64, needed: u32) -> Option<u64> {
    let full = full_lines(own | other);
    if stability_step(own, own, safe_lines(full)).count_ones() < needed {
        return None;
    }
    Some(stable_with_full_lines(own, full))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Position, StandardOthello};
    use crate::rng::Rng;

    /// The full-line masks against a square-by-square walk of each line.
    #[test]
    fn full_lines_match_naive() {
        let naive = |occ: u64, dr: i32, dc: i32| {
            let mut out = 0u64;
            for sq in 0..64i32 {
                let mut full = true;
                for sign in [-1, 1] {
                    let (mut r, mut c) = (sq / 8, sq % 8);
                    while (0..8).contains(&r) && (0..8).contains(&c) {
                        full &= occ >> (r * 8 + c) & 1 == 1;
                        r += sign * dr;
                        c += sign * dc;
                    }
                }
                if full {
                    out |= 1 << sq;
                }
            }
            out
        };
        let mut rng = Rng::new(3);
        for i in 0..3000 {
            // Dense boards, where full lines occur: about 8 empty squares
            // (the union of lines), 16 (the shifts), or none.
            let third = if i % 2 == 0 { rng.next_u64() } else { 0 };
            let occ = rng.next_u64() | rng.next_u64() | third | if i % 7 == 0 { !0 } else { 0 };
            let (h, v, dr, dl) = full_lines(occ);
            assert_eq!((h, v, dr, dl), full_lines_by_shifts(occ), "{occ:x}");
            assert_eq!(h, naive(occ, 0, 1), "{occ:x}");
            assert_eq!(v, naive(occ, 1, 0), "{occ:x}");
            assert_eq!(dr, naive(occ, 1, 1), "{occ:x}");
            assert_eq!(dl, naive(occ, 1, -1), "{occ:x}");
        }
    }

    /// The early stop never drops a set of stable discs that is large enough.
    #[test]
    fn at_least_stops_only_when_too_few_can_be_stable() {
        let mut rng = Rng::new(11);
        let mut stopped = 0;
        for i in 0..20_000 {
            let own = rng.next_u64() | if i % 3 == 0 { rng.next_u64() } else { 0 };
            let other = (rng.next_u64() | rng.next_u64()) & !own;
            let stable = stable_discs(own, other);
            for needed in [0, 1, 4, 8, 16, 24, 32] {
                match stable_discs_at_least(own, other, needed) {
                    Some(s) => assert_eq!(s, stable, "{own:x} {other:x}"),
                    None => {
                        assert!(stable.count_ones() < needed, "{own:x} {other:x}");
                        stopped += 1;
                    }
                }
            }
        }
        assert!(stopped > 1000, "the early stop must be exercised");
    }

    /// The edge runs are those of a square-by-square walk from each own
    /// corner along its two edges, and seeding the test with them changes
    /// nothing but the number of steps: the same discs as the test run from
    /// the discs that are safe on their own.
    #[test]
    fn edge_runs_match_walks_and_leave_the_result_alone() {
        let walk = |own: u64| {
            let mut runs = 0u64;
            for (corner, dr, dc) in [(0, 0, 1), (0, 1, 0), (7, 0, -1), (7, 1, 0)]
                .into_iter()
                .chain([(56, 0, 1), (56, -1, 0), (63, 0, -1), (63, -1, 0)])
            {
                let (mut r, mut c) = (corner / 8, corner % 8);
                while (0..8).contains(&r) && (0..8).contains(&c) && own >> (r * 8 + c) & 1 == 1 {
                    runs |= 1 << (r * 8 + c);
                    r += dr;
                    c += dc;
                }
            }
            runs
        };
        let unseeded = |own: u64, other: u64| {
            let safe = safe_lines(full_lines(own | other));
            let mut stable = own & safe.0 & safe.1 & safe.2 & safe.3;
            loop {
                let next = stability_step(own, stable, safe);
                if next == stable {
                    return stable;
                }
                stable = next;
            }
        };
        let mut rng = Rng::new(5);
        let mut seeded = 0;
        for i in 0..20_000 {
            // Dense edges, where long runs occur.
            let edges =
                (FILE_A | FILE_H | ROW_1 | ROW_8) & if i % 2 == 0 { !0 } else { rng.next_u64() };
            let own = rng.next_u64() | (rng.next_u64() & edges);
            let other = (rng.next_u64() | rng.next_u64()) & !own;
            assert_eq!(edge_runs(own), walk(own), "{own:x}");
            assert_eq!(
                stable_discs(own, other),
                unseeded(own, other),
                "{own:x} {other:x}"
            );
            seeded += (edge_runs(own) & !CORNERS).count_ones();
        }
        assert!(seeded > 10_000, "runs beyond the corners must occur");
    }

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

    #[test]
    fn corner_discs_are_corners_and_their_edge_neighbours() {
        // a1, b1, a2 and c1 owned: c1 is not next to the corner.
        let own = 0b111 | (1 << 8);
        assert_eq!(corner_discs(own), 0b11 | (1 << 8));
        // Without the corner, its neighbours count for nothing.
        assert_eq!(corner_discs(0b10 | (1 << 8)), 0);
        // h8 with g8 and h7.
        let h8 = (1u64 << 63) | (1 << 62) | (1 << 55);
        assert_eq!(corner_discs(h8), h8);
        // Every such disc is stable, whatever the opponent holds.
        let mut rng = Rng::new(7);
        for _ in 0..3000 {
            let own = rng.next_u64() | rng.next_u64();
            let other = rng.next_u64() & !own;
            let corner = corner_discs(own);
            assert_eq!(
                corner & stable_discs(own, other),
                corner,
                "{own:x} {other:x}"
            );
        }
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
