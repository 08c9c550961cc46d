//! Pattern features, in the style of Logistello and Edax: the contents of small
//! groups of squares (edges with their X-squares, corner blocks, diagonals, rows
//! and columns) read as base-3 numbers, each indexing a table of learnt weights.
//!
//! Every pattern family has one canonical set of squares; its other instances
//! are the images of that set under the eight board symmetries, so all
//! instances of a family share one weight table. An instance is read off the
//! board as it is ([`Direct`]): its squares extracted with `pext` (BMI2 when
//! the CPU has it, else the portable fallback) and a per-instance table
//! turning those bits into the base-3 index of the canonical reading. ([`Images`], which transforms
//! the board instead, defines the readings and checks the direct ones.)
//! Searches that evaluate every child of a node can instead keep the indices
//! up to date move by move ([`Indices`]): a move changes a few squares, and
//! adding their digits costs less than reading all the instances again.

use crate::cpu::{Isa, isa_versions, with_isa};
use crate::game::bitboard::symmetry;

/// One pattern family: its canonical squares (read in increasing bit order)
/// and the symmetries that map the board onto each of its instances.
#[derive(Clone, Debug)]
pub struct Family {
    /// A short name for reports.
    pub name: &'static str,
    /// The canonical squares.
    pub mask: u64,
    /// For each instance, the symmetry to apply to the board before reading
    /// the canonical squares.
    pub symmetries: Vec<u8>,
    /// Number of squares (the table has 3^squares entries).
    pub squares: u32,
    /// For each symmetry that maps the canonical squares onto themselves in
    /// another order, the index each index becomes when read that way. An
    /// instance uses the smallest of its readings, so that mirror-image
    /// contents share a weight and the evaluation is symmetric.
    pub mirrors: Vec<Vec<u32>>,
}

impl Family {
    /// Entries of this family's weight table.
    pub fn size(&self) -> usize {
        3usize.pow(self.squares)
    }

    /// The index shared by all readings of the same contents.
    #[inline]
    pub fn canonical(&self, index: usize) -> usize {
        self.mirrors
            .iter()
            .fold(index, |best, table| best.min(table[index] as usize))
    }
}

/// The board whose canonical squares hold the contents `index` (digit 1 = side
/// to move, 2 = opponent), other squares empty.
fn place(mask: u64, mut index: usize) -> (u64, u64) {
    let (mut player, mut opponent) = (0, 0);
    for sq in crate::game::bitboard::Bits(mask) {
        match index % 3 {
            1 => player |= 1u64 << sq,
            2 => opponent |= 1u64 << sq,
            _ => {}
        }
        index /= 3;
    }
    (player, opponent)
}

/// The reading tables of the symmetries that map `mask` onto itself.
fn mirror_tables(mask: u64) -> Vec<Vec<u32>> {
    let size = 3usize.pow(mask.count_ones());
    let mut tables: Vec<Vec<u32>> = Vec::new();
    for g in 1..8u8 {
        if symmetry(mask, g) != mask {
            continue;
        }
        let table: Vec<u32> = (0..size)
            .map(|index| {
                let (p, o) = place(mask, index);
                Images::new(symmetry(p, g), symmetry(o, g)).index(mask, 0) as u32
            })
            .collect();
        let identity = table.iter().enumerate().all(|(i, &t)| i == t as usize);
        if !identity && !tables.contains(&table) {
            tables.push(table);
        }
    }
    tables
}

const fn squares(list: &[u8]) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < list.len() {
        mask |= 1u64 << list[i];
        i += 1;
    }
    mask
}

/// The canonical square sets (a1 = 0, h1 = 7, a8 = 56).
const CANONICAL: [(&str, u64); 11] = [
    // The top edge with the two X-squares.
    ("edge+2x", squares(&[0, 1, 2, 3, 4, 5, 6, 7, 9, 14])),
    // The 3x3 block in the a1 corner.
    ("corner3x3", squares(&[0, 1, 2, 8, 9, 10, 16, 17, 18])),
    // The 2x5 block along the top edge from a1.
    ("corner2x5", squares(&[0, 1, 2, 3, 4, 8, 9, 10, 11, 12])),
    // Rows 2, 3 and 4 (and their images: columns and the other side).
    ("row2", squares(&[8, 9, 10, 11, 12, 13, 14, 15])),
    ("row3", squares(&[16, 17, 18, 19, 20, 21, 22, 23])),
    ("row4", squares(&[24, 25, 26, 27, 28, 29, 30, 31])),
    // Diagonals of 8 down to 4 squares.
    ("diag8", squares(&[0, 9, 18, 27, 36, 45, 54, 63])),
    ("diag7", squares(&[1, 10, 19, 28, 37, 46, 55])),
    ("diag6", squares(&[2, 11, 20, 29, 38, 47])),
    ("diag5", squares(&[3, 12, 21, 30, 39])),
    ("diag4", squares(&[4, 13, 22, 31])),
];

/// Squares of `mask` seen on the original board when the board is transformed
/// by symmetry `s` and the canonical squares are read.
fn instance_squares(mask: u64, s: u8) -> u64 {
    // The transformed board has at square sigma(x) what the original has at x,
    // so reading `mask` there reads the preimage of `mask`: the image of `mask`
    // under the inverse symmetry, which is found by trying all eight.
    for t in 0..8u8 {
        // b1 and c1 together are moved by every symmetry but the identity.
        if symmetry(symmetry(0b110, s), t) == 0b110 {
            return symmetry(mask, t);
        }
    }
    unreachable!("every symmetry has an inverse")
}

/// All pattern families with their instances.
pub fn families() -> Vec<Family> {
    CANONICAL
        .iter()
        .map(|&(name, mask)| {
            let mut seen = Vec::new();
            let mut symmetries = Vec::new();
            for s in 0..8u8 {
                let set = instance_squares(mask, s);
                if !seen.contains(&set) {
                    seen.push(set);
                    symmetries.push(s);
                }
            }
            Family {
                name,
                mask,
                symmetries,
                squares: mask.count_ones(),
                mirrors: mirror_tables(mask),
            }
        })
        .collect()
}

/// Binary digits to base-3 digits: `TERNARY[b] = sum of 3^j over the set bits j of b`.
static TERNARY: [u32; 1024] = {
    let mut table = [0u32; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut value = 0u32;
        let mut power = 1u32;
        let mut j = 0;
        while j < 10 {
            if b >> j & 1 == 1 {
                value += power;
            }
            power *= 3;
            j += 1;
        }
        table[b] = value;
        b += 1;
    }
    table
};

/// Parallel bit extract: the bits of `x` selected by `mask`, packed low: the
/// BMI2 instruction on a CPU with it ([`crate::cpu::fast`]), else
/// [`pext_portable`].
#[inline(always)]
pub fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::fast() {
        // SAFETY: `fast` holds only on a CPU with BMI2.
        return unsafe { pext_bmi2(x, mask) };
    }
    pext_portable(x, mask)
}

/// [`pext`] with the kernels of `isa`, for the fast copies of hot code
/// ([`crate::cpu::isa_versions`]): no check of the CPU, the instruction inlined.
#[inline(always)]
pub fn pext_with<I: Isa>(isa: I, x: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if isa.fast().is_some() {
        // SAFETY: a `Fast` exists only on a CPU with BMI2.
        return unsafe { std::arch::x86_64::_pext_u64(x, mask) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
    pext_portable(x, mask)
}

/// The BMI2 `pext` instruction as a function of its own, for code compiled
/// without BMI2. Only for a CPU with BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
fn pext_bmi2(x: u64, mask: u64) -> u64 {
    std::arch::x86_64::_pext_u64(x, mask)
}

/// The portable `pext`: one mask bit at a time (used without BMI2, and by tests).
#[inline]
pub fn pext_portable(x: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    let mut bit = 1u64;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask ^= low;
    }
    out
}

/// The eight symmetric images of a board, computed once per evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Images {
    player: [u64; 8],
    opponent: [u64; 8],
}

impl Images {
    /// The images of (`player`, `opponent`).
    #[inline]
    pub fn new(player: u64, opponent: u64) -> Images {
        let mut images = Images {
            player: [0; 8],
            opponent: [0; 8],
        };
        for s in 0..8 {
            images.player[s] = symmetry(player, s as u8);
            images.opponent[s] = symmetry(opponent, s as u8);
        }
        images
    }

    /// The table index of an instance: the canonical squares read on the
    /// board's image under `s`, side to move = 1, opponent = 2, empty = 0.
    #[inline]
    pub fn index(&self, mask: u64, s: u8) -> usize {
        let p = pext(self.player[s as usize], mask) as usize;
        let o = pext(self.opponent[s as usize], mask) as usize;
        (TERNARY[p] + 2 * TERNARY[o]) as usize
    }
}

/// One pattern instance read straight off the board: its squares there, where
/// its base-3 table starts, and where its family's weights start.
#[derive(Clone, Copy, Debug)]
pub struct Instance {
    /// The instance's squares on the untransformed board.
    pub mask: u64,
    /// Where this instance's binary-to-ternary table starts.
    pub start: u32,
    /// Where the weights of the instance's family start in the caller's
    /// weight vector (as given to [`Direct::new`]).
    pub offset: u32,
}

/// Lanes of [`Indices`]: one per pattern instance, rounded up to whole
/// vector registers.
pub const LANES: usize = 48;

/// The index of every pattern instance of a position ([`Direct::index`]),
/// from both sides' point of view, updated move by move
/// ([`Direct::after_move`]) rather than read off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indices {
    /// The indices with the side to move as "player": what the evaluation
    /// reads.
    pub mover: [u16; LANES],
    /// The indices with the other side as "player": the mover's after a move
    /// or a pass.
    pub waiter: [u16; LANES],
}

impl Indices {
    /// All indices 0 (an empty board): the start of a read, and what
    /// searches pass to evaluations that do not read indices.
    pub const ZERO: Indices = Indices {
        mover: [0; LANES],
        waiter: [0; LANES],
    };

    /// The indices after a pass: the same discs, the other side to move.
    #[inline]
    pub fn after_pass(&self) -> Indices {
        Indices {
            mover: self.waiter,
            waiter: self.mover,
        }
    }
}

/// Every pattern instance read without transforming the board: `pext` of the
/// instance's own squares gives their contents in square order, and a
/// per-instance table turns those bits into the index of the canonical
/// reading, the same number [`Images::index`] gives. The evaluation spent more
/// on the sixteen board transforms of [`Images::new`] than on the reads.
#[derive(Clone, Debug)]
pub struct Direct {
    /// All instances, family by family, in the order of [`Family::symmetries`].
    pub instances: Vec<Instance>,
    /// The concatenated tables: for an instance of n squares, 2^n entries, the
    /// value of bits `b` being the sum of 3^j over the canonical positions j
    /// of the squares set in `b`.
    ternary: Vec<u16>,
    /// For each square, the base-3 digit weight (3^position) it has in each
    /// instance, in the order of `instances` (0 outside the instance).
    digits: Box<[[u16; LANES]; 64]>,
}

impl Direct {
    /// The readers of all instances of `families`, whose weight tables start
    /// at `offsets` in the caller's weight vector.
    pub fn new(families: &[Family], offsets: &[usize]) -> Direct {
        let mut instances = Vec::new();
        let mut ternary = Vec::new();
        let mut digits = Box::new([[0u16; LANES]; 64]);
        for (f, family) in families.iter().enumerate() {
            for &s in &family.symmetries {
                let mask = instance_squares(family.mask, s);
                // The digit value of each instance square, in square order.
                let mut values = Vec::new();
                for q in crate::game::bitboard::Bits(mask) {
                    let rank = crate::game::bitboard::Bits(family.mask)
                        .position(|c| instance_squares(1u64 << c, s) == 1u64 << q)
                        .expect("an instance square comes from a canonical square");
                    values.push(3u32.pow(rank as u32));
                    digits[q as usize][instances.len()] = 3u16.pow(rank as u32);
                }
                let start = ternary.len() as u32;
                for bits in 0..1usize << values.len() {
                    let value: u32 = values
                        .iter()
                        .enumerate()
                        .filter(|&(k, _)| bits >> k & 1 == 1)
                        .map(|(_, &v)| v)
                        .sum();
                    ternary.push(value as u16);
                }
                instances.push(Instance {
                    mask,
                    start,
                    offset: offsets[f] as u32,
                });
            }
        }
        assert!(instances.len() <= LANES, "more instances than lanes");
        Direct {
            instances,
            ternary,
            digits,
        }
    }

    /// Every instance's index on the board (`player`, `opponent`), read off
    /// the board.
    pub fn indices(&self, player: u64, opponent: u64) -> Indices {
        with_isa!(isa => self.indices_with(isa, player, opponent))
    }

    isa_versions! {
        /// [`Self::indices`] with the instruction set `isa`.
        fn indices_with / indices_fast / indices_portable
        (&self, isa, player: u64, opponent: u64) -> Indices {
            let mut indices = Indices::ZERO;
            for (i, instance) in self.instances.iter().enumerate() {
                indices.mover[i] = self.index_with(isa, instance, player, opponent) as u16;
                indices.waiter[i] = self.index_with(isa, instance, opponent, player) as u16;
            }
            indices
        }
    }

    /// The indices after the side to move plays on `square`, flipping
    /// `flipped`: the new disc adds its digit (1 for the mover, 2 seen from
    /// the other side), each flipped disc turns a 2 into a 1 for the mover and
    /// a 1 into a 2 for the other side; then the sides swap.
    #[inline]
    pub fn after_move(&self, indices: &Indices, square: u8, flipped: u64) -> Indices {
        let mut mover = indices.mover;
        let mut waiter = indices.waiter;
        let placed = &self.digits[usize::from(square)];
        for i in 0..LANES {
            mover[i] = mover[i].wrapping_add(placed[i]);
            waiter[i] = waiter[i].wrapping_add(placed[i].wrapping_mul(2));
        }
        for f in crate::game::bitboard::Bits(flipped) {
            let digit = &self.digits[usize::from(f)];
            for i in 0..LANES {
                mover[i] = mover[i].wrapping_sub(digit[i]);
                waiter[i] = waiter[i].wrapping_add(digit[i]);
            }
        }
        Indices {
            mover: waiter,
            waiter: mover,
        }
    }

    /// The table index of `instance` on the board (`player`, `opponent`).
    #[inline]
    pub fn index(&self, instance: &Instance, player: u64, opponent: u64) -> usize {
        let start = instance.start as usize;
        let p = self.ternary[start + pext(player, instance.mask) as usize];
        let o = self.ternary[start + pext(opponent, instance.mask) as usize];
        usize::from(p) + 2 * usize::from(o)
    }

    /// [`Self::index`] with the kernels of `isa`.
    #[inline(always)]
    pub fn index_with<I: Isa>(
        &self,
        isa: I,
        instance: &Instance,
        player: u64,
        opponent: u64,
    ) -> usize {
        let start = instance.start as usize;
        let p = self.ternary[start + pext_with(isa, player, instance.mask) as usize];
        let o = self.ternary[start + pext_with(isa, opponent, instance.mask) as usize];
        usize::from(p) + 2 * usize::from(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn instance_counts_and_sizes() {
        let fams = families();
        let counts: Vec<(&str, usize)> =
            fams.iter().map(|f| (f.name, f.symmetries.len())).collect();
        assert_eq!(
            counts,
            [
                ("edge+2x", 4),
                ("corner3x3", 4),
                ("corner2x5", 8),
                ("row2", 4),
                ("row3", 4),
                ("row4", 4),
                ("diag8", 2),
                ("diag7", 4),
                ("diag6", 4),
                ("diag5", 4),
                ("diag4", 4),
            ]
        );
        let total: usize = fams.iter().map(Family::size).sum();
        assert_eq!(total, 59049 * 2 + 19683 + 6561 * 4 + 2187 + 729 + 243 + 81);
    }

    #[test]
    fn instances_cover_the_expected_squares() {
        // Every square is covered by some instance of the rows/diagonals, and the
        // corner blocks sit in the four corners.
        let fams = families();
        let corner = &fams[1];
        let sets: Vec<u64> = corner
            .symmetries
            .iter()
            .map(|&s| instance_squares(corner.mask, s))
            .collect();
        for c in [0u64, 7, 56, 63] {
            assert!(sets.iter().any(|set| set >> c & 1 == 1), "corner {c}");
        }
    }

    #[test]
    fn mirror_readings() {
        let fams = families();
        let mirrors: Vec<(&str, usize)> = fams.iter().map(|f| (f.name, f.mirrors.len())).collect();
        // Symmetric square sets have one other reading; the 2x5 block has none.
        assert_eq!(
            mirrors,
            [
                ("edge+2x", 1),
                ("corner3x3", 1),
                ("corner2x5", 0),
                ("row2", 1),
                ("row3", 1),
                ("row4", 1),
                ("diag8", 1),
                ("diag7", 1),
                ("diag6", 1),
                ("diag5", 1),
                ("diag4", 1),
            ]
        );
        // The edge read backwards: a1 (digit 0) becomes h1 (digit 7).
        let edge = &fams[0];
        assert_eq!(edge.mirrors[0][1] as usize, 3usize.pow(7));
        assert_eq!(edge.canonical(3usize.pow(7)), 1);
    }

    #[test]
    fn pext_matches_portable() {
        let mut rng = Rng::new(17);
        for _ in 0..10_000 {
            let (x, m) = (rng.next_u64(), rng.next_u64());
            let expected = pext_portable(x, m);
            assert_eq!(pext(x, m), expected);
            assert_eq!(pext_with(crate::cpu::Portable, x, m), expected);
            if let Some(fast) = crate::cpu::Fast::detect() {
                assert_eq!(pext_with(fast, x, m), expected);
                #[cfg(target_arch = "x86_64")]
                // SAFETY: this CPU has BMI2.
                assert_eq!(unsafe { pext_bmi2(x, m) }, expected);
            }
        }
        assert_eq!(pext_portable(0b1011_0110, 0b1111_0000), 0b1011);
    }

    /// The direct reads give every instance's index exactly as the reads
    /// through the board's images do.
    #[test]
    fn direct_reads_match_image_reads() {
        let fams = families();
        let offsets: Vec<usize> = (0..fams.len()).map(|f| 1000 * f).collect();
        let direct = Direct::new(&fams, &offsets);
        let mut rng = Rng::new(123);
        for _ in 0..2000 {
            let p = rng.next_u64() & rng.next_u64();
            let o = rng.next_u64() & !p;
            let images = Images::new(p, o);
            let mut instances = direct.instances.iter();
            for (f, fam) in fams.iter().enumerate() {
                for &s in &fam.symmetries {
                    let instance = instances.next().expect("one per symmetry");
                    assert_eq!(instance.offset as usize, 1000 * f);
                    assert_eq!(
                        direct.index(instance, p, o),
                        images.index(fam.mask, s),
                        "{} s={s}",
                        fam.name
                    );
                }
            }
            assert!(instances.next().is_none());
        }
    }

    /// Indices kept up to date move by move (and pass by pass) along random
    /// games equal the indices read off each position.
    #[test]
    fn updated_indices_match_reads() {
        use crate::game::bitboard::Bits;
        use crate::game::{Board, Square};
        let fams = families();
        let offsets: Vec<usize> = (0..fams.len()).map(|f| 1000 * f).collect();
        let direct = Direct::new(&fams, &offsets);
        let mut rng = Rng::new(7);
        let mut checked = 0;
        for _ in 0..300 {
            let mut board = Board::start();
            let mut indices = direct.indices(board.player, board.opponent);
            loop {
                let moves = board.moves();
                if moves == 0 {
                    if board.opponent_moves() == 0 {
                        break;
                    }
                    board = board.pass();
                    indices = indices.after_pass();
                } else {
                    let pick = rng.below(u64::from(moves.count_ones())) as usize;
                    let x = Bits(moves).nth(pick).expect("a move");
                    let child = board.play_unchecked(Square::new(x).expect("a square"));
                    indices = direct.after_move(&indices, x, child.opponent & board.opponent);
                    board = child;
                }
                assert_eq!(indices, direct.indices(board.player, board.opponent));
                checked += 1;
            }
        }
        assert!(checked > 15_000);
    }

    /// Reading an instance through the image equals reading the original board
    /// square by square at the instance's squares, in the canonical order.
    #[test]
    fn index_reads_the_instance_squares() {
        let mut rng = Rng::new(99);
        for fam in families() {
            for &s in &fam.symmetries {
                for _ in 0..50 {
                    let p = rng.next_u64();
                    let o = rng.next_u64() & !p;
                    let images = Images::new(p, o);
                    // Canonical square c, in bit order, is original square t(c)
                    // where t is the inverse of s.
                    let mut expected = 0usize;
                    let mut power = 1usize;
                    for c in crate::game::bitboard::Bits(fam.mask) {
                        let original = instance_squares(1u64 << c, s);
                        let digit = if p & original != 0 {
                            1
                        } else if o & original != 0 {
                            2
                        } else {
                            0
                        };
                        expected += digit * power;
                        power *= 3;
                    }
                    assert_eq!(images.index(fam.mask, s), expected, "{} s={s}", fam.name);
                }
            }
        }
    }
}
