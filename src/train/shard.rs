//! Shard files: positions labelled by search, written by `orca train gen`
//! ([`super::generate`]) and read by `orca train fit`.
//!
//! A shard file is a sequence of self-describing blocks, one per game, so that
//! files concatenated with `cat` are a valid shard file holding the union of
//! their positions, and an interrupted run leaves whole blocks and at most one
//! cut-off block at the end. A block, little-endian throughout:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `ORCASHRD` |
//! | 2 | format version (1) |
//! | 1 | variant: 0 Othello, 1 reversed |
//! | 1 | exact horizon: positions with at most this many empties are solved |
//! | 1 | depth of the selective search that labels the others |
//! | 1 | that search's selectivity, percent (100: full width) |
//! | 1, 1 | self-play: random opening moves, at least and at most |
//! | 1 | self-play: search depth of the other moves |
//! | 1 | share of WTHOR games among the blocks, percent |
//! | 8 | checksum of the labelling weights (their file's last 8 bytes) |
//! | 8 | seed |
//! | 4, 4 | shard index and shard count (`--shard i/n`) |
//! | 4 | block index within the shard (0, 1, 2...) |
//! | 1 | source: 0 self-play, 1 WTHOR |
//! | 4 | game: the self-play game number, or the WTHOR game's index |
//! | 4 | positions in the block |
//! | 19 each | position: side to move's discs (8), the other's (8), score in centi-discs for the side to move (2, signed), flags (1: bit 0 exact) |
//! | 8 | FNV-1a checksum of the block's bytes before it |

use std::fmt;

use crate::game::{Board, Variant};

/// The first bytes of every block.
pub const MAGIC: &[u8; 8] = b"ORCASHRD";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of a block's header, magic included.
pub const HEADER_BYTES: usize = 55;
/// Bytes of one position.
pub const RECORD_BYTES: usize = 19;
const CHECKSUM_BYTES: usize = 8;

/// How a shard's positions were made and labelled: the same in every block
/// of one `orca train gen` run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardSettings {
    /// Standard or reversed Othello.
    pub variant: Variant,
    /// Positions with at most this many empty squares are solved exactly.
    pub exact_empties: u8,
    /// Depth of the selective search labelling the earlier positions.
    pub depth: u8,
    /// Its selectivity, in percent of probable cutoffs expected right.
    pub selectivity: u8,
    /// Self-play: random opening moves, at least...
    pub random_min: u8,
    /// ...and at most.
    pub random_max: u8,
    /// Self-play: depth of the search choosing the other moves.
    pub play_depth: u8,
    /// Share of the blocks taken from WTHOR games, in percent.
    pub wthor_share: u8,
    /// Checksum of the weights the searches evaluated with.
    pub label_weights: u64,
    /// Seed of every random choice.
    pub seed: u64,
    /// This shard's index, from 0...
    pub shard: u32,
    /// ...out of this many.
    pub shards: u32,
}

/// Where a block's game comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Self-play under the variant's rules.
    SelfPlay,
    /// A WTHOR game record.
    Wthor,
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// The searched score for the side to move, in centi-discs.
    pub score: i16,
    /// The score is the exact result of perfect play.
    pub exact: bool,
}

impl Record {
    /// The position.
    pub fn board(&self) -> Board {
        Board::new(self.player, self.opponent)
    }
}

/// The positions of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// How they were made.
    pub settings: ShardSettings,
    /// The block's place in its shard.
    pub index: u32,
    /// Where the game comes from.
    pub source: Source,
    /// Which game of that source.
    pub game: u32,
    /// The positions not already in an earlier block of the shard.
    pub records: Vec<Record>,
}

/// What is wrong with a shard file; `offset` is where the block starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardError {
    /// The bytes there are not a block.
    NotShard {
        /// Byte offset.
        offset: usize,
    },
    /// A block of another format version.
    Version {
        /// Byte offset.
        offset: usize,
        /// The version found.
        version: u16,
    },
    /// The file ends inside a block (an interrupted run).
    Truncated {
        /// Byte offset.
        offset: usize,
    },
    /// The block's checksum does not match its bytes.
    Checksum {
        /// Byte offset.
        offset: usize,
    },
    /// A field holds an impossible value.
    Invalid {
        /// Byte offset.
        offset: usize,
        /// Which field.
        what: &'static str,
    },
    /// No memory for the positions.
    Memory,
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::NotShard { offset } => {
                write!(f, "not a shard file (no block at byte {offset})")
            }
            ShardError::Version { offset, version } => write!(
                f,
                "block at byte {offset} has format version {version}, this orca reads {VERSION}"
            ),
            ShardError::Truncated { offset } => write!(
                f,
                "the block at byte {offset} is cut off (an interrupted run: rerun the same \
                 `orca train gen` to finish it)"
            ),
            ShardError::Checksum { offset } => {
                write!(
                    f,
                    "the block at byte {offset} is damaged (checksum mismatch)"
                )
            }
            ShardError::Invalid { offset, what } => {
                write!(f, "the block at byte {offset} is damaged ({what})")
            }
            ShardError::Memory => write!(f, "not enough memory for the positions"),
        }
    }
}

impl std::error::Error for ShardError {}

/// FNV-1a, to detect damaged blocks.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

impl Block {
    /// The block's bytes, appended to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        let start = out.len();
        let s = &self.settings;
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(u8::from(s.variant == Variant::Reversed));
        out.extend_from_slice(&[
            s.exact_empties,
            s.depth,
            s.selectivity,
            s.random_min,
            s.random_max,
            s.play_depth,
            s.wthor_share,
        ]);
        out.extend_from_slice(&s.label_weights.to_le_bytes());
        out.extend_from_slice(&s.seed.to_le_bytes());
        out.extend_from_slice(&s.shard.to_le_bytes());
        out.extend_from_slice(&s.shards.to_le_bytes());
        out.extend_from_slice(&self.index.to_le_bytes());
        out.push(match self.source {
            Source::SelfPlay => 0,
            Source::Wthor => 1,
        });
        out.extend_from_slice(&self.game.to_le_bytes());
        out.extend_from_slice(&(self.records.len() as u32).to_le_bytes());
        for r in &self.records {
            out.extend_from_slice(&r.player.to_le_bytes());
            out.extend_from_slice(&r.opponent.to_le_bytes());
            out.extend_from_slice(&r.score.to_le_bytes());
            out.push(u8::from(r.exact));
        }
        let sum = checksum(&out[start..]);
        out.extend_from_slice(&sum.to_le_bytes());
    }

    /// The block's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }
}

/// Little-endian reads of a block's fixed fields (the caller checked the length).
struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Fields<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let v = self.bytes[self.at..self.at + N]
            .try_into()
            .expect("length checked");
        self.at += N;
        v
    }
    fn u8(&mut self) -> u8 {
        self.take::<1>()[0]
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
}

/// Reads the block starting at `offset` of `bytes`; returns it with the
/// offset of the next one.
fn parse_block(bytes: &[u8], offset: usize) -> Result<(Block, usize), ShardError> {
    let rest = &bytes[offset..];
    let magic_len = rest.len().min(MAGIC.len());
    if rest[..magic_len] != MAGIC[..magic_len] {
        return Err(ShardError::NotShard { offset });
    }
    if rest.len() < HEADER_BYTES {
        return Err(ShardError::Truncated { offset });
    }
    let mut f = Fields {
        bytes: rest,
        at: MAGIC.len(),
    };
    let version = f.u16();
    if version != VERSION {
        return Err(ShardError::Version { offset, version });
    }
    let invalid = |what| ShardError::Invalid { offset, what };
    let variant = match f.u8() {
        0 => Variant::Othello,
        1 => Variant::Reversed,
        _ => return Err(invalid("variant")),
    };
    let settings = ShardSettings {
        variant,
        exact_empties: f.u8(),
        depth: f.u8(),
        selectivity: f.u8(),
        random_min: f.u8(),
        random_max: f.u8(),
        play_depth: f.u8(),
        wthor_share: f.u8(),
        label_weights: f.u64(),
        seed: f.u64(),
        shard: f.u32(),
        shards: f.u32(),
    };
    let index = f.u32();
    let source = match f.u8() {
        0 => Source::SelfPlay,
        1 => Source::Wthor,
        _ => return Err(invalid("source")),
    };
    let game = f.u32();
    let count = f.u32() as usize;
    debug_assert_eq!(f.at, HEADER_BYTES);
    // The count is checked against the bytes there before anything is
    // allocated for it.
    let body = count
        .checked_mul(RECORD_BYTES)
        .and_then(|n| n.checked_add(HEADER_BYTES + CHECKSUM_BYTES));
    let Some(len) = body.filter(|&n| n <= rest.len()) else {
        return Err(ShardError::Truncated { offset });
    };
    let (content, sum) = rest[..len].split_at(len - CHECKSUM_BYTES);
    if checksum(content) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err(ShardError::Checksum { offset });
    }
    if settings.shard >= settings.shards {
        return Err(invalid("shard index"));
    }
    let mut records = Vec::new();
    records
        .try_reserve_exact(count)
        .map_err(|_| ShardError::Memory)?;
    for _ in 0..count {
        let record = Record {
            player: f.u64(),
            opponent: f.u64(),
            score: i16::from_le_bytes(f.take()),
            exact: f.u8() & 1 != 0,
        };
        if record.player & record.opponent != 0 {
            return Err(invalid("overlapping discs"));
        }
        if !(-6400..=6400).contains(&record.score) {
            return Err(invalid("score"));
        }
        records.push(record);
    }
    Ok((
        Block {
            settings,
            index,
            source,
            game,
            records,
        },
        offset + len,
    ))
}

/// Every block of a shard file (or of shard files concatenated).
///
/// # Errors
/// The first thing wrong with the bytes.
pub fn parse(bytes: &[u8]) -> Result<Vec<Block>, ShardError> {
    let (blocks, _, error) = parse_prefix(bytes);
    match error {
        Some(e) => Err(e),
        None => Ok(blocks),
    }
}

/// The blocks read before the first error, where they end, and that error.
pub fn parse_prefix(bytes: &[u8]) -> (Vec<Block>, usize, Option<ShardError>) {
    let mut blocks = Vec::new();
    let mut offset = 0;
    while offset < bytes.len() {
        match parse_block(bytes, offset) {
            Ok((block, next)) => {
                if blocks.try_reserve(1).is_err() {
                    return (blocks, offset, Some(ShardError::Memory));
                }
                blocks.push(block);
                offset = next;
            }
            Err(e) => return (blocks, offset, Some(e)),
        }
    }
    (blocks, offset, None)
}

/// The key of `board` up to the eight symmetries of the square: the same for
/// a position and its mirror images, so that each is kept once.
pub fn canonical(board: &Board) -> (u64, u64) {
    (0..8)
        .map(|s| {
            let b = board.symmetry(s);
            (b.player, b.opponent)
        })
        .min()
        .expect("eight symmetries")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> ShardSettings {
        ShardSettings {
            variant: Variant::Reversed,
            exact_empties: 18,
            depth: 12,
            selectivity: 73,
            random_min: 4,
            random_max: 14,
            play_depth: 6,
            wthor_share: 0,
            label_weights: 0x0123_4567_89AB_CDEF,
            seed: 99,
            shard: 2,
            shards: 5,
        }
    }

    fn block(index: u32, n: usize) -> Block {
        Block {
            settings: settings(),
            index,
            source: Source::SelfPlay,
            game: index * 5 + 2,
            records: (0..n as u64)
                .map(|i| Record {
                    player: 1 << i,
                    opponent: 1 << 63 >> i,
                    score: -(i as i16) * 100 + 7,
                    exact: i % 2 == 0,
                })
                .collect(),
        }
    }

    #[test]
    fn blocks_read_back_and_concatenate() {
        let a = [block(0, 3), block(1, 0)];
        let b = [block(0, 5)];
        let mut bytes = Vec::new();
        a.iter().for_each(|x| x.write(&mut bytes));
        assert_eq!(bytes.len(), 2 * (HEADER_BYTES + 8) + 3 * RECORD_BYTES);
        assert_eq!(parse(&bytes).unwrap(), a);
        b.iter().for_each(|x| x.write(&mut bytes));
        assert_eq!(
            parse(&bytes).unwrap(),
            [a[0].clone(), a[1].clone(), b[0].clone()]
        );
        assert_eq!(parse(&[]).unwrap(), []);
    }

    #[test]
    fn damage_is_found_and_located() {
        let mut bytes = block(0, 4).to_bytes();
        let second = bytes.len();
        block(1, 2).write(&mut bytes);
        // Cut anywhere inside the second block: the first still reads.
        for cut in second + 1..bytes.len() {
            let (blocks, end, error) = parse_prefix(&bytes[..cut]);
            assert_eq!((blocks.len(), end), (1, second), "cut at {cut}");
            assert_eq!(
                error,
                Some(ShardError::Truncated { offset: second }),
                "cut at {cut}"
            );
        }
        // Any changed byte is caught.
        for i in [0, 9, 20, 60, second - 1, second + 30, bytes.len() - 1] {
            let mut damaged = bytes.clone();
            damaged[i] ^= 0x10;
            let e = parse(&damaged).unwrap_err();
            assert!(
                matches!(
                    e,
                    ShardError::NotShard { .. }
                        | ShardError::Version { .. }
                        | ShardError::Checksum { .. }
                        | ShardError::Invalid { .. }
                        | ShardError::Truncated { .. }
                ),
                "{i}: {e}"
            );
            assert!(!e.to_string().contains('\n'));
        }
        assert_eq!(
            parse(b"hello world, not a shard at all, really not one"),
            Err(ShardError::NotShard { offset: 0 })
        );
        // A huge count in a short file is refused before any allocation.
        let mut huge = block(0, 0).to_bytes();
        huge[HEADER_BYTES - 4..HEADER_BYTES].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(parse(&huge), Err(ShardError::Truncated { offset: 0 }));
    }

    #[test]
    fn canonical_is_the_same_for_every_mirror_image() {
        let b = Board::new(0x0000_0008_1C00_0000, 0x0000_0010_0000_0000 | 0x7);
        let key = canonical(&b);
        for s in 0..8 {
            assert_eq!(canonical(&b.symmetry(s)), key);
        }
        assert_ne!(canonical(&Board::new(b.opponent, b.player)), key);
    }
}
