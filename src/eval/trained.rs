//! The trained evaluation: pattern weights fitted to game data by `orca train`,
//! one weight set per game stage, for standard and for reversed Othello.
//!
//! The features of a position are the pattern instances of [`super::pattern`]
//! plus the mobility of each side, a parity flag and a bias. The value is the
//! sum of the weights of the features present (a linear model over binary
//! features), in units of 1/[`SCALE`] disc. The weights ship inside the binary
//! (`weights/*.bin`, built in at compile time) in a compact checked format;
//! [`Weights::load`] reads another file of the same format.

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::pattern::{Direct, Family, Indices, families};
use super::{DISC, EVAL_LIMIT, Evaluator};
use crate::cpu::{Isa, isa_versions, with_isa};
use crate::game::bitboard::CORNERS;
use crate::game::flip::legal_moves_with;
use crate::game::{Board, Move, Othello, Variant};

/// Weight units per disc.
pub const SCALE: i32 = 64;

/// Game stages: one weight set per 4 empty squares (0-3, 4-7, ..., 56-60).
/// Finer stages erred no less: the errors come from the model and the
/// labels, not the stages (`docs/tuning.md`, "Evaluation and training").
pub const STAGES: usize = 15;

/// Mobility counts above this share the last weight.
const MAX_MOBILITY: usize = 32;

/// Features per position: pattern instances plus two mobilities, parity, bias.
pub const MAX_FEATURES: usize = 64;

/// Empty squares a stage spans.
const STAGE_EMPTIES: usize = 4;

/// The stage of a position with `empties` empty squares.
#[inline]
pub fn stage(empties: u32) -> usize {
    (empties as usize / STAGE_EMPTIES).min(STAGES - 1)
}

/// The first and last empty-square counts of `stage`, as reports name it
/// (the last stage also holds the start position's 60).
pub fn stage_empties(stage: usize) -> (usize, usize) {
    let first = stage * STAGE_EMPTIES;
    (first, first + STAGE_EMPTIES - 1)
}

/// Where each feature's weight lives in a stage's weight vector.
#[derive(Clone, Debug)]
pub struct Layout {
    families: Vec<Family>,
    offsets: Vec<usize>,
    /// Every instance, read without transforming the board (for evaluation).
    direct: Direct,
    mobility_player: usize,
    mobility_opponent: usize,
    parity: usize,
    bias: usize,
    /// Weights per stage.
    pub size: usize,
}

impl Layout {
    /// The readers of every pattern instance, whose [`Indices`] the
    /// evaluation reads in the same order.
    pub fn direct(&self) -> &Direct {
        &self.direct
    }

    /// The one layout (pattern tables, then the extra features).
    pub fn get() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(|| {
            let families = families();
            let mut offsets = Vec::new();
            let mut size = 0;
            for f in &families {
                offsets.push(size);
                size += f.size();
            }
            let direct = Direct::new(&families, &offsets);
            let mobility_player = size;
            let mobility_opponent = mobility_player + MAX_MOBILITY + 1;
            let parity = mobility_opponent + MAX_MOBILITY + 1;
            let bias = parity + 1;
            Layout {
                direct,
                families,
                offsets,
                mobility_player,
                mobility_opponent,
                parity,
                bias,
                size: bias + 1,
            }
        })
    }

    /// The pattern families, for reports.
    pub fn families(&self) -> &[Family] {
        &self.families
    }

    /// Writes the feature indices of a position (side to move first) into `out`
    /// and returns how many there are.
    #[inline]
    pub fn features(&self, player: u64, opponent: u64, out: &mut [u32; MAX_FEATURES]) -> usize {
        let mut instances = self.direct.instances.iter();
        let mut n = 0;
        for (family, &offset) in self.families.iter().zip(&self.offsets) {
            for instance in instances.by_ref().take(family.symmetries.len()) {
                let index = self.direct.index(instance, player, opponent);
                out[n] = (offset + family.canonical(index)) as u32;
                n += 1;
            }
        }
        let board = Board::new(player, opponent);
        let mobility = |m: u64| {
            (m.count_ones() as usize + (m & CORNERS).count_ones() as usize).min(MAX_MOBILITY)
        };
        out[n] = (self.mobility_player + mobility(board.moves())) as u32;
        out[n + 1] = (self.mobility_opponent + mobility(board.opponent_moves())) as u32;
        n += 2;
        if board.empties() % 2 == 1 {
            out[n] = self.parity as u32;
            n += 1;
        }
        out[n] = self.bias as u32;
        n + 1
    }
}

/// Why a weights file was refused.
#[derive(Debug)]
pub enum WeightsError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The file does not start with the Orca weights signature.
    NotWeights,
    /// The format version is not this build's.
    Version(u32),
    /// The file's layout (pattern set, stages) differs from this build's.
    Layout {
        /// Stages in the file.
        stages: u32,
        /// Weights per stage in the file.
        size: u32,
    },
    /// The data ends early or has bytes left over.
    Truncated,
    /// The checksum does not match: the file is damaged.
    Checksum,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Io(e) => write!(f, "cannot read the weights file: {e}"),
            WeightsError::NotWeights => write!(f, "not an Orca weights file (bad signature)"),
            WeightsError::Version(v) => write!(
                f,
                "weights format version {v} is not supported (expected {VERSION})"
            ),
            WeightsError::Layout { stages, size } => write!(
                f,
                "weights for {stages} stages of {size} weights do not fit this build ({STAGES} stages of {})",
                Layout::get().size
            ),
            WeightsError::Truncated => {
                write!(f, "the weights file is truncated or has trailing bytes")
            }
            WeightsError::Checksum => write!(f, "the weights file is damaged (checksum mismatch)"),
        }
    }
}

impl std::error::Error for WeightsError {}

const MAGIC: &[u8; 8] = b"ORCAEVAL";
const VERSION: u32 = 1;

/// FNV-1a, to detect damaged files.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// A full set of weights for one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Which rules the weights were fitted for.
    pub variant: Variant,
    /// `STAGES` vectors of `Layout::size` weights.
    pub stages: Vec<Vec<i16>>,
}

impl Weights {
    /// All-zero weights (the evaluation of an untrained model: 0).
    pub fn zero(variant: Variant) -> Weights {
        Weights {
            variant,
            stages: vec![vec![0; Layout::get().size]; STAGES],
        }
    }

    /// The value of a board for the side to move, in weight units.
    #[inline]
    pub fn raw(&self, board: &Board) -> i32 {
        let layout = Layout::get();
        let mut features = [0u32; MAX_FEATURES];
        let n = layout.features(board.player, board.opponent, &mut features);
        let w = &self.stages[stage(board.empties())];
        features[..n]
            .iter()
            .map(|&i| i32::from(w[i as usize]))
            .sum()
    }

    /// The value of a board in centi-discs, within the evaluation limits.
    #[inline]
    pub fn evaluate(&self, board: &Board) -> i32 {
        (self.raw(board) * DISC / SCALE).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The compact file form: header, then per stage the weights as zig-zag
    /// varints with runs of zeros collapsed, then a checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(match self.variant {
            Variant::Reversed => 1,
            _ => 0,
        });
        out.extend_from_slice(&(self.stages.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.stages.first().map_or(0, Vec::len) as u32).to_le_bytes());
        let varint = |out: &mut Vec<u8>, mut v: u32| loop {
            if v < 0x80 {
                out.push(v as u8);
                break;
            }
            out.push((v as u8 & 0x7F) | 0x80);
            v >>= 7;
        };
        for stage in &self.stages {
            let mut i = 0;
            while i < stage.len() {
                if stage[i] == 0 {
                    let run = stage[i..].iter().take_while(|&&w| w == 0).count();
                    // A zero is written as 0 followed by the run length.
                    varint(&mut out, 0);
                    varint(&mut out, run as u32);
                    i += run;
                } else {
                    let w = i32::from(stage[i]);
                    varint(&mut out, ((w << 1) ^ (w >> 31)) as u32);
                    i += 1;
                }
            }
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads the compact file form.
    ///
    /// # Errors
    /// A [`WeightsError`] saying what is wrong with the bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if bytes.len() < MAGIC.len() || &bytes[..8] != MAGIC {
            return Err(WeightsError::NotWeights);
        }
        if bytes.len() < 8 + 4 + 1 + 4 + 4 + 8 {
            return Err(WeightsError::Truncated);
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if checksum(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(WeightsError::Checksum);
        }
        let u32_at = |i: usize| u32::from_le_bytes(body[i..i + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(WeightsError::Version(version));
        }
        let variant = if body[12] == 1 {
            Variant::Reversed
        } else {
            Variant::Othello
        };
        let (stages, size) = (u32_at(13), u32_at(17));
        if stages as usize != STAGES || size as usize != Layout::get().size {
            return Err(WeightsError::Layout { stages, size });
        }
        let mut pos = 21;
        let mut varint = || -> Result<u32, WeightsError> {
            let mut v = 0u32;
            for shift in (0..35).step_by(7) {
                let byte = *body.get(pos).ok_or(WeightsError::Truncated)?;
                pos += 1;
                v |= u32::from(byte & 0x7F) << shift;
                if byte & 0x80 == 0 {
                    return Ok(v);
                }
            }
            Err(WeightsError::Truncated)
        };
        let mut all = Vec::with_capacity(STAGES);
        for _ in 0..STAGES {
            let mut stage = Vec::with_capacity(size as usize);
            while stage.len() < size as usize {
                let v = varint()?;
                if v == 0 {
                    let run = varint()? as usize;
                    if run == 0 || stage.len() + run > size as usize {
                        return Err(WeightsError::Truncated);
                    }
                    stage.resize(stage.len() + run, 0);
                } else {
                    let w = ((v >> 1) as i32) ^ -((v & 1) as i32);
                    stage.push(w.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16);
                }
            }
            all.push(stage);
        }
        if pos != body.len() {
            return Err(WeightsError::Truncated);
        }
        Ok(Weights {
            variant,
            stages: all,
        })
    }

    /// Reads a weights file.
    ///
    /// # Errors
    /// The file cannot be read or is not valid weights.
    pub fn load(path: &std::path::Path) -> Result<Weights, WeightsError> {
        Weights::from_bytes(&std::fs::read(path).map_err(WeightsError::Io)?)
    }
    /// The weights built into this binary for `variant` (an Othello variant).
    ///
    /// # Errors
    /// When the built-in file is damaged or from another layout (a build problem).
    pub fn builtin(variant: Variant) -> Result<Arc<Weights>, WeightsError> {
        static OTHELLO: OnceLock<Arc<Weights>> = OnceLock::new();
        static REVERSED: OnceLock<Arc<Weights>> = OnceLock::new();
        let (cell, bytes): (_, &[u8]) = match variant {
            Variant::Reversed => (&REVERSED, include_bytes!("../../weights/reversed.bin")),
            _ => (&OTHELLO, include_bytes!("../../weights/othello.bin")),
        };
        if let Some(weights) = cell.get() {
            return Ok(Arc::clone(weights));
        }
        let weights = Arc::new(Weights::from_bytes(bytes)?);
        Ok(Arc::clone(cell.get_or_init(|| weights)))
    }
}

/// Weights laid out for evaluation: every index of a pattern table holds the
/// weight of its canonical reading, so evaluating needs no mirror lookups.
#[derive(Clone, Debug)]
pub struct Expanded {
    stages: Vec<Vec<i16>>,
}

impl Expanded {
    /// Spreads the canonical weights over every reading.
    pub fn new(weights: &Weights) -> Expanded {
        let layout = Layout::get();
        let stages = weights
            .stages
            .iter()
            .map(|canonical| {
                let mut full = canonical.clone();
                for (family, &offset) in layout.families.iter().zip(&layout.offsets) {
                    for index in 0..family.size() {
                        full[offset + index] = canonical[offset + family.canonical(index)];
                    }
                }
                full
            })
            .collect();
        Expanded { stages }
    }

    /// The value of a board for the side to move, in weight units (the same
    /// number as [`Weights::raw`], without building a feature list).
    #[inline]
    pub fn raw(&self, board: &Board) -> i32 {
        with_isa!(isa => self.raw_with(isa, board))
    }

    isa_versions! {
        /// [`Self::raw`] with the instruction set `isa`.
        fn raw_with / raw_fast / raw_portable
        (&self, isa, board: &Board) -> i32 {
            let layout = Layout::get();
            let w = &self.stages[stage(board.empties())];
            let direct = &layout.direct;
            let mut sum = 0i32;
            for instance in &direct.instances {
                let index = direct.index_with(isa, instance, board.player, board.opponent);
                sum += i32::from(w[instance.offset as usize + index]);
            }
            sum + Self::extras(isa, layout, w, board)
        }
    }

    /// [`Self::raw`] with the pattern indices already known.
    #[inline]
    pub fn raw_indexed(&self, board: &Board, indices: &Indices) -> i32 {
        with_isa!(isa => self.raw_indexed_with(isa, board, indices))
    }

    isa_versions! {
        /// [`Self::raw_indexed`] with the instruction set `isa`.
        pub fn raw_indexed_with / raw_indexed_fast / raw_indexed_portable / raw_indexed_avx512
        (&self, isa, board: &Board, indices: &Indices) -> i32 {
            let layout = Layout::get();
            let w = &self.stages[stage(board.empties())];
            let mut sum = 0i32;
            for (instance, &index) in layout.direct.instances.iter().zip(&indices.mover) {
                sum += i32::from(w[instance.offset as usize + usize::from(index)]);
            }
            sum + Self::extras(isa, layout, w, board)
        }
    }

    /// The weights of the features besides patterns: both sides' mobility,
    /// parity and the bias.
    #[inline(always)]
    fn extras<I: Isa>(isa: I, layout: &Layout, w: &[i16], board: &Board) -> i32 {
        let mut sum = 0i32;
        let mobility = |m: u64| {
            (m.count_ones() as usize + (m & CORNERS).count_ones() as usize).min(MAX_MOBILITY)
        };
        let moves = legal_moves_with(isa, board.player, board.opponent);
        let replies = legal_moves_with(isa, board.opponent, board.player);
        sum += i32::from(w[layout.mobility_player + mobility(moves)]);
        sum += i32::from(w[layout.mobility_opponent + mobility(replies)]);
        if board.empties() % 2 == 1 {
            sum += i32::from(w[layout.parity]);
        }
        sum + i32::from(w[layout.bias])
    }

    /// The value of a board in centi-discs, within the evaluation limits.
    #[inline]
    pub fn evaluate(&self, board: &Board) -> i32 {
        (self.raw(board) * DISC / SCALE).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// [`Self::evaluate`] with the pattern indices already known.
    #[inline]
    pub fn evaluate_indexed(&self, board: &Board, indices: &Indices) -> i32 {
        with_isa!(isa => self.evaluate_indexed_with(isa, board, indices))
    }

    /// [`Self::evaluate_indexed`] with the instruction set `isa`.
    #[inline(always)]
    pub fn evaluate_indexed_with<I: Isa>(&self, isa: I, board: &Board, indices: &Indices) -> i32 {
        (self.raw_indexed_with(isa, board, indices) * DISC / SCALE).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

/// The trained evaluation for standard (`REVERSED = false`) or reversed Othello.
#[derive(Clone, Debug)]
pub struct TrainedEval<const REVERSED: bool> {
    weights: Arc<Weights>,
    expanded: Arc<Expanded>,
}

impl<const REVERSED: bool> TrainedEval<REVERSED> {
    /// An evaluation with these weights.
    pub fn new(weights: Arc<Weights>) -> Self {
        let expanded = Arc::new(Expanded::new(&weights));
        TrainedEval { weights, expanded }
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }
}

impl<const REVERSED: bool> Evaluator<Othello<REVERSED>> for TrainedEval<REVERSED> {
    #[inline]
    fn evaluate(&self, state: &Othello<REVERSED>) -> i32 {
        self.expanded.evaluate(&state.0)
    }

    fn uses_indices(&self) -> bool {
        true
    }

    #[inline]
    fn evaluate_indexed(&self, state: &Othello<REVERSED>, indices: &Indices) -> i32 {
        self.expanded.evaluate_indexed(&state.0, indices)
    }

    #[inline(always)]
    fn evaluate_indexed_with<I: Isa>(
        &self,
        isa: I,
        state: &Othello<REVERSED>,
        indices: &Indices,
    ) -> i32 {
        self.expanded.evaluate_indexed_with(isa, &state.0, indices)
    }

    /// Fastest first, helped by the weights: few replies, then the position
    /// after the move as the weights see it.
    fn order_key(&self, _state: &Othello<REVERSED>, _mv: Move, child: &Othello<REVERSED>) -> i32 {
        let replies = child.0.moves();
        let mobility = replies.count_ones() as i32 + (replies & CORNERS).count_ones() as i32;
        -self.expanded.evaluate(&child.0) / 4 - 64 * mobility
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn random_weights(seed: u64) -> Weights {
        let mut rng = Rng::new(seed);
        let mut w = Weights::zero(Variant::Reversed);
        for stage in &mut w.stages {
            for x in stage.iter_mut() {
                // Mostly zeros, like real weights of unseen configurations.
                if rng.below(4) == 0 {
                    *x = (rng.below(2001) as i32 - 1000) as i16;
                }
            }
        }
        w
    }

    /// The evaluation from known pattern indices is the evaluation, for
    /// random weights and the built-in ones.
    #[test]
    fn indexed_evaluation_matches() {
        let direct = Layout::get().direct();
        let builtin = Weights::builtin(Variant::Othello).unwrap();
        for weights in [random_weights(5), (*builtin).clone()] {
            let expanded = Expanded::new(&weights);
            let mut rng = Rng::new(6);
            for _ in 0..2000 {
                let p = rng.next_u64() & rng.next_u64();
                let o = rng.next_u64() & !p;
                let board = Board::new(p, o);
                let indices = direct.indices(p, o);
                assert_eq!(
                    expanded.evaluate_indexed(&board, &indices),
                    expanded.evaluate(&board)
                );
            }
        }
    }

    /// The portable copies of the evaluation and of the index reading give
    /// what the dispatched ones (the AVX2 copies on a CPU with AVX2) give,
    /// and so does the AVX-512 copy of the indexed evaluation; the weights'
    /// own feature list agrees.
    #[test]
    fn portable_and_fast_copies_evaluate_alike() {
        use crate::cpu::portable_only;
        let direct = Layout::get().direct();
        let weights = random_weights(7);
        let expanded = Expanded::new(&weights);
        let mut rng = Rng::new(8);
        for _ in 0..2000 {
            let p = rng.next_u64() & rng.next_u64();
            let o = rng.next_u64() & !p;
            let board = Board::new(p, o);
            let indices = direct.indices(p, o);
            let fast = (expanded.raw(&board), expanded.raw_indexed(&board, &indices));
            let portable = portable_only(|| {
                let indices_portable = direct.indices(p, o);
                assert_eq!(indices_portable, indices);
                (expanded.raw(&board), expanded.raw_indexed(&board, &indices))
            });
            assert_eq!(fast, portable);
            assert_eq!(fast.0, weights.raw(&board));
            if let Some(avx512) = crate::cpu::Avx512::detect() {
                let wide = expanded.evaluate_indexed_with(avx512, &board, &indices);
                assert_eq!(wide, expanded.evaluate_indexed(&board, &indices));
                assert_eq!(expanded.raw_indexed_with(avx512, &board, &indices), fast.1);
            }
        }
    }

    /// The empties a report names for a stage are those [`stage`] puts in it.
    #[test]
    fn stage_names_match_the_stages() {
        for st in 0..STAGES {
            let (first, last) = stage_empties(st);
            assert_eq!(stage(first as u32), st);
            assert_eq!(stage(last as u32), st);
            if st + 1 < STAGES {
                assert_eq!(stage(last as u32 + 1), st + 1);
            }
        }
        assert_eq!(stage(60), STAGES - 1);
    }

    #[test]
    fn bytes_round_trip() {
        let w = random_weights(1);
        let bytes = w.to_bytes();
        assert_eq!(Weights::from_bytes(&bytes).unwrap(), w);
        let zero = Weights::zero(Variant::Othello);
        let bytes = zero.to_bytes();
        assert!(bytes.len() < 1000, "zero runs are compact: {}", bytes.len());
        assert_eq!(Weights::from_bytes(&bytes).unwrap(), zero);
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let bytes = random_weights(2).to_bytes();
        assert!(matches!(
            Weights::from_bytes(b"hello"),
            Err(WeightsError::NotWeights)
        ));
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        assert!(matches!(
            Weights::from_bytes(&flipped),
            Err(WeightsError::Checksum)
        ));
        assert!(matches!(
            Weights::from_bytes(&bytes[..bytes.len() - 3]),
            Err(WeightsError::Checksum)
        ));
        let missing = Weights::load(std::path::Path::new("/nonexistent/orca.bin")).unwrap_err();
        assert!(
            missing
                .to_string()
                .starts_with("cannot read the weights file"),
            "{missing}"
        );
        assert!(WeightsError::Checksum.to_string().contains("damaged"));
    }

    #[test]
    fn expanded_weights_evaluate_like_the_canonical_ones() {
        let w = random_weights(5);
        let expanded = Expanded::new(&w);
        let mut rng = Rng::new(6);
        for _ in 0..500 {
            let p = rng.next_u64() & rng.next_u64();
            let o = rng.next_u64() & !p;
            let b = Board::new(p, o);
            assert_eq!(expanded.raw(&b), w.raw(&b));
        }
    }

    #[test]
    fn features_are_symmetric() {
        // The multiset of feature indices of a board and of its images agree,
        // so any weights evaluate all eight images the same.
        let layout = Layout::get();
        let w = random_weights(3);
        let mut rng = Rng::new(4);
        for _ in 0..200 {
            let p = rng.next_u64() & rng.next_u64();
            let o = rng.next_u64() & !p;
            let b = Board::new(p, o);
            let mut base = [0u32; MAX_FEATURES];
            let n = layout.features(p, o, &mut base);
            let mut base: Vec<u32> = base[..n].to_vec();
            base.sort_unstable();
            for s in 0..8 {
                let img = b.symmetry(s);
                let mut f = [0u32; MAX_FEATURES];
                let m = layout.features(img.player, img.opponent, &mut f);
                let mut f: Vec<u32> = f[..m].to_vec();
                f.sort_unstable();
                assert_eq!(f, base);
                assert_eq!(w.raw(&img), w.raw(&b));
            }
        }
    }
}
