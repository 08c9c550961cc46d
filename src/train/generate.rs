//! `orca train gen`: positions labelled by search, written as a shard file
//! ([`super::shard`]).
//!
//! Shard `i` of `n` plays the games `i`, `n + i`, `2n + i`... of one seeded
//! sequence, one block per game, so `n` shards together hold the games a
//! single shard of the same count would, whatever `n` is. A game is a
//! self-play game (random opening moves, then a fixed-depth search, then
//! perfect play) or, for standard Othello and a share of the games, a WTHOR
//! record. Its positions not already in the shard (up to the 8 symmetries)
//! are labelled: solved exactly up to the exact horizon, searched by the
//! selective midgame search at a fixed depth before it.
//!
//! Each block depends only on the settings, its game number and the positions
//! of the blocks before it, and each is searched with a table of its own,
//! cleared first; so the file is the same whatever the number of threads, and
//! a run that stopped is continued by running the same command again.

use std::collections::HashSet;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::selfplay::{LineConfig, self_play};
use super::shard::{self, Block, Record, ShardError, ShardSettings, Source};
use crate::eval::DISC;
use crate::eval::trained::{TrainedEval, Weights};
use crate::game::{Board, Othello, Variant};
use crate::rng::Rng;
use crate::search::endgame::{Discs, Solver};
use crate::search::midgame::Selectivity;
use crate::search::{Limits, TranspositionTable, think};
use crate::wthor::{self, WthorGame};

/// The table each labelling thread searches with, in megabytes. Part of what
/// the labels are: a selective search's result can depend on the table's size.
pub const TABLE_MB: usize = 64;

/// Self-play games are played perfectly from this many empty squares on.
pub const SELFPLAY_SOLVE_EMPTIES: u32 = 12;

/// Everything `orca train gen` needs.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// How positions are made and labelled.
    pub label: LabelSettings,
    /// This shard, from 0...
    pub shard: u32,
    /// ...out of this many.
    pub shards: u32,
    /// Stop once the shard holds at least this many positions.
    pub positions: usize,
    /// The weights every search evaluates with.
    pub weights: Arc<Weights>,
    /// Worker threads (the file does not depend on it).
    pub threads: usize,
}

/// How positions are made and labelled: the settings every shard of a round
/// shares (`orca train gen`, `orca train round`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelSettings {
    /// Standard or reversed Othello.
    pub variant: Variant,
    /// Seed of every random choice.
    pub seed: u64,
    /// Solve exactly the positions with at most this many empty squares.
    pub exact_empties: u32,
    /// Depth of the midgame search labelling the earlier positions.
    pub depth: u32,
    /// Self-play: random opening moves, at least...
    pub random_min: u32,
    /// ...and at most.
    pub random_max: u32,
    /// Self-play: search depth of the other moves.
    pub play_depth: u32,
    /// WTHOR files (standard Othello) to take a share of the games from.
    pub wthor: Option<PathBuf>,
    /// Percent of the games taken from WTHOR when there are WTHOR files.
    pub wthor_share: u8,
}

impl LabelSettings {
    /// The configuration of shard `shard` of `shards`.
    pub fn config(
        &self,
        (shard, shards): (u32, u32),
        positions: usize,
        weights: Arc<Weights>,
        threads: usize,
    ) -> GenConfig {
        GenConfig {
            label: LabelSettings {
                wthor_share: if self.wthor.is_some() {
                    self.wthor_share
                } else {
                    0
                },
                ..self.clone()
            },
            shard,
            shards,
            positions,
            weights,
            threads,
        }
    }
}

impl GenConfig {
    /// What goes into every block's header.
    pub fn settings(&self) -> ShardSettings {
        let bytes = self.weights.to_bytes();
        let sum = bytes[bytes.len() - 8..].try_into().expect("8 bytes");
        ShardSettings {
            variant: self.label.variant,
            exact_empties: self.label.exact_empties as u8,
            depth: self.label.depth as u8,
            selectivity: Selectivity::DEFAULT.percent(),
            random_min: self.label.random_min as u8,
            random_max: self.label.random_max as u8,
            play_depth: self.label.play_depth as u8,
            wthor_share: self.label.wthor_share,
            label_weights: u64::from_le_bytes(sum),
            seed: self.label.seed,
            shard: self.shard,
            shards: self.shards,
        }
    }

    fn check(&self) -> Result<(), GenError> {
        let bad = |m: &str| Err(GenError::Config(m.to_string()));
        if self.label.variant == Variant::TicTacToe {
            return bad("only the Othello variants have positions to label");
        }
        if self.weights.variant != self.label.variant {
            return bad("the labelling weights are for the other variant");
        }
        if self.shards == 0 || self.shard >= self.shards {
            return bad("--shard i/n needs 0 <= i < n");
        }
        if self.label.random_min > self.label.random_max || self.label.random_max > 60 {
            return bad("the random opening moves need min <= max <= 60");
        }
        if self.label.exact_empties > 30
            || self.label.depth == 0
            || self.label.depth > 30
            || self.label.play_depth > 30
        {
            return bad("the exact horizon and the depths go up to 30 (a depth from 1)");
        }
        if self.label.wthor_share > 100 {
            return bad("the WTHOR share is a percentage");
        }
        if self.label.wthor_share > 0
            && (self.label.wthor.is_none() || self.label.variant != Variant::Othello)
        {
            return bad("WTHOR games need --wthor and standard Othello");
        }
        Ok(())
    }
}

/// Why a run could not go on.
#[derive(Debug)]
pub enum GenError {
    /// The settings are impossible.
    Config(String),
    /// The existing file is not a shard this command can continue.
    Shard(PathBuf, ShardError),
    /// The existing file was made by another command.
    Mismatch(PathBuf, String),
    /// Reading or writing failed.
    Io(PathBuf, std::io::Error),
    /// The WTHOR files could not be read.
    Wthor(wthor::WthorError),
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::Config(m) => write!(f, "{m}"),
            GenError::Shard(p, e) => write!(f, "{}: {e}", p.display()),
            GenError::Mismatch(p, m) => write!(
                f,
                "{}: made with other settings ({m}); give another --out to start a new shard",
                p.display()
            ),
            GenError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            GenError::Wthor(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GenError {}

/// Progress of a run, one report per block written.
#[derive(Clone, Copy, Debug)]
pub struct GenProgress {
    /// Positions in the shard.
    pub positions: usize,
    /// The target.
    pub target: usize,
    /// Blocks in the shard.
    pub blocks: usize,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct GenReport {
    /// Blocks and positions already in the file.
    pub kept_blocks: usize,
    /// Positions already in the file.
    pub kept_positions: usize,
    /// Bytes of a cut-off last block dropped before continuing.
    pub dropped_bytes: usize,
    /// Blocks written by this run.
    pub blocks: usize,
    /// Positions written by this run.
    pub positions: usize,
    /// Of them, labelled exactly.
    pub exact: usize,
    /// Seconds spent.
    pub seconds: f64,
}

/// A statistically independent 64-bit value of `(seed, a, b)`.
pub(crate) fn mix(seed: u64, a: u64, b: u64) -> u64 {
    Rng::new(seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03))
        .next_u64()
}

/// The evaluation of the variant, with the labelling weights.
enum Evals {
    Othello(TrainedEval<false>),
    Reversed(TrainedEval<true>),
}

/// The games of a WTHOR draw, in a seeded order.
struct Records {
    games: Vec<WthorGame>,
    order: Vec<u32>,
}

impl Records {
    fn load(config: &GenConfig) -> Result<Option<Records>, GenError> {
        let Some(dir) = config
            .label
            .wthor
            .as_ref()
            .filter(|_| config.label.wthor_share > 0)
        else {
            return Ok(None);
        };
        let mut games = Vec::new();
        for path in wthor::files_in(dir).map_err(GenError::Wthor)? {
            games.extend(wthor::read(&path).map_err(GenError::Wthor)?.games);
        }
        let mut order: Vec<u32> = (0..games.len() as u32).collect();
        let mut rng = Rng::new(mix(config.label.seed, 0x0057_5448_4F52, 0));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        Ok(Some(Records { games, order }))
    }
}

/// The game of global number `g`: its source, its number there and its
/// positions still being played.
fn game_of(
    config: &GenConfig,
    evals: &Evals,
    records: Option<&Records>,
    g: u64,
    tt: &mut TranspositionTable,
) -> (Source, u32, Vec<Board>) {
    if let Some(r) = records
        && (g as usize) < r.order.len()
        && mix(config.label.seed, g, 1) % 100 < u64::from(config.label.wthor_share)
    {
        let index = r.order[g as usize];
        // A record that breaks the rules gives no positions.
        let boards = r.games[index as usize]
            .replay()
            .map(|replay| {
                replay
                    .positions
                    .iter()
                    .map(|p| p.state().0)
                    .filter(|b| !b.is_game_over())
                    .collect()
            })
            .unwrap_or_default();
        return (Source::Wthor, index, boards);
    }
    let line = LineConfig {
        exact_empties: SELFPLAY_SOLVE_EMPTIES,
        random_min: config.label.random_min,
        random_max: config.label.random_max,
        depth: config.label.play_depth.max(1),
    };
    let mut rng = Rng::new(mix(config.label.seed, g, 2));
    let line = match evals {
        Evals::Reversed(eval) => self_play::<true, _>(eval, &mut rng, &line, tt),
        Evals::Othello(eval) => self_play::<false, _>(eval, &mut rng, &line, tt),
    };
    (
        Source::SelfPlay,
        g as u32,
        line.positions.into_iter().map(|(b, _)| b).collect(),
    )
}

/// Labels `boards` in order under rules `R`, with a cleared table: exact
/// scores up to `exact_empties` empty squares, the midgame search at `depth`
/// before.
pub fn label<const R: bool>(
    boards: &[Board],
    eval: &TrainedEval<R>,
    exact_empties: u32,
    depth: u32,
    tt: &mut TranspositionTable,
) -> Vec<Record> {
    tt.clear();
    let stop = AtomicBool::new(false);
    let salt = crate::search::variant_salt::<Othello<R>>();
    boards
        .iter()
        .map(|&board| {
            let (score, exact) = if board.empties() <= exact_empties {
                let mut solver = Solver::<R, _>::new(tt, eval, &stop, None, None, salt);
                (
                    solver
                        .solve(board, Discs(-64), Discs(64))
                        .to_score()
                        .centi(),
                    true,
                )
            } else {
                let found = think(
                    &Othello::<R>(board),
                    eval,
                    tt,
                    &Limits::exact_depth(depth),
                    &stop,
                    &mut |_| {},
                );
                let last = found
                    .last
                    .expect("a search without a time limit finishes an iteration");
                (last.score.centi(), last.exact)
            };
            Record {
                player: board.player,
                opponent: board.opponent,
                score: score.clamp(-64 * DISC, 64 * DISC) as i16,
                exact,
            }
        })
        .collect()
}

/// Runs `work` on every item with a thread per table, each thread searching
/// with its own; the results in the items' order.
pub(crate) fn parallel<T: Sync, R: Send>(
    items: &[T],
    tables: &mut [TranspositionTable],
    work: &(dyn Fn(&T, &mut TranspositionTable) -> R + Sync),
) -> Vec<R> {
    let results: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for tt in tables.iter_mut().take(items.len()) {
            let (next, results) = (&next, &results);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = work(item, tt);
                    *results[i].lock().expect("no panics while holding it") = Some(r);
                }
            });
        }
    });
    results
        .into_iter()
        .map(|cell| {
            cell.into_inner()
                .expect("no panics")
                .expect("every item ran")
        })
        .collect()
}

/// The settings that differ, as `name file-value/asked-value`.
fn differences(file: &ShardSettings, asked: &ShardSettings) -> String {
    let fields: [(&str, String, String); 12] = [
        (
            "variant",
            file.variant.to_string(),
            asked.variant.to_string(),
        ),
        (
            "exact horizon",
            file.exact_empties.to_string(),
            asked.exact_empties.to_string(),
        ),
        ("depth", file.depth.to_string(), asked.depth.to_string()),
        (
            "selectivity",
            file.selectivity.to_string(),
            asked.selectivity.to_string(),
        ),
        (
            "random min",
            file.random_min.to_string(),
            asked.random_min.to_string(),
        ),
        (
            "random max",
            file.random_max.to_string(),
            asked.random_max.to_string(),
        ),
        (
            "play depth",
            file.play_depth.to_string(),
            asked.play_depth.to_string(),
        ),
        (
            "WTHOR share",
            file.wthor_share.to_string(),
            asked.wthor_share.to_string(),
        ),
        (
            "labelling weights",
            format!("{:016x}", file.label_weights),
            format!("{:016x}", asked.label_weights),
        ),
        ("seed", file.seed.to_string(), asked.seed.to_string()),
        ("shard", file.shard.to_string(), asked.shard.to_string()),
        ("shards", file.shards.to_string(), asked.shards.to_string()),
    ];
    let differ: Vec<String> = fields
        .iter()
        .filter(|(_, a, b)| a != b)
        .map(|(name, a, b)| format!("{name} {a} in the file, {b} asked"))
        .collect();
    differ.join(", ")
}

/// What an existing file holds, checked against `settings`: its blocks and
/// where the whole ones end (a cut-off last block is dropped).
fn existing(out: &Path, settings: &ShardSettings) -> Result<(Vec<Block>, usize, usize), GenError> {
    let bytes = match std::fs::read(out) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(GenError::Io(out.to_path_buf(), e)),
    };
    let (blocks, end, error) = shard::parse_prefix(&bytes);
    match error {
        None => {}
        // An interrupted write: the whole blocks before it stay.
        Some(ShardError::Truncated { offset }) if offset == end => {}
        Some(e) => return Err(GenError::Shard(out.to_path_buf(), e)),
    }
    for (i, block) in blocks.iter().enumerate() {
        if block.settings != *settings {
            return Err(GenError::Mismatch(
                out.to_path_buf(),
                differences(&block.settings, settings),
            ));
        }
        if block.index as usize != i {
            return Err(GenError::Mismatch(
                out.to_path_buf(),
                format!("block {i} has index {}", block.index),
            ));
        }
    }
    Ok((blocks, end, bytes.len() - end))
}

/// Writes or continues the shard `out` until it holds `config.positions`
/// positions.
///
/// # Errors
/// Impossible settings, a file this command did not make, or I/O.
pub fn run(
    config: &GenConfig,
    out: &Path,
    progress: &mut dyn FnMut(GenProgress),
) -> Result<GenReport, GenError> {
    config.check()?;
    let started = Instant::now();
    let settings = config.settings();
    let (blocks, end, dropped) = existing(out, &settings)?;
    let mut seen: HashSet<(u64, u64)> = HashSet::new();
    let mut total = 0;
    for block in &blocks {
        total += block.records.len();
        seen.extend(block.records.iter().map(|r| shard::canonical(&r.board())));
    }
    let mut report = GenReport {
        kept_blocks: blocks.len(),
        kept_positions: total,
        dropped_bytes: dropped,
        ..GenReport::default()
    };
    let mut next = blocks.len() as u64;
    drop(blocks);
    if total >= config.positions {
        return Ok(report);
    }
    let io = |e| GenError::Io(out.to_path_buf(), e);
    if let Some(dir) = out.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(out)
        .map_err(io)?;
    file.set_len(end as u64).map_err(io)?;
    let mut file = std::io::BufWriter::new(file);
    std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0)).map_err(io)?;

    let mut tables = Vec::new();
    for _ in 0..config.threads.max(1) {
        let tt = TranspositionTable::try_new(TABLE_MB)
            .map_err(|e| GenError::Config(format!("the search tables: {e}")))?;
        tables.push(tt);
    }
    let records = Records::load(config)?;
    let weights = Arc::clone(&config.weights);
    let evals = if config.label.variant == Variant::Reversed {
        Evals::Reversed(TrainedEval::new(weights))
    } else {
        Evals::Othello(TrainedEval::new(weights))
    };
    let batch = config.threads.max(1) * 2;
    while total < config.positions {
        let indices: Vec<u64> = (next..next + batch as u64).collect();
        let games = parallel(&indices, &mut tables, &|&k, tt| {
            game_of(
                config,
                &evals,
                records.as_ref(),
                k * u64::from(config.shards) + u64::from(config.shard),
                tt,
            )
        });
        // Decided in block order, so that a block keeps what it would keep
        // in a run of one thread.
        let fresh: Vec<Vec<Board>> = games
            .iter()
            .map(|(_, _, boards)| {
                boards
                    .iter()
                    .copied()
                    .filter(|b| seen.insert(shard::canonical(b)))
                    .collect()
            })
            .collect();
        let labelled = parallel(&fresh, &mut tables, &|boards, tt| {
            let (exact, depth) = (config.label.exact_empties, config.label.depth);
            match &evals {
                Evals::Reversed(eval) => label::<true>(boards, eval, exact, depth, tt),
                Evals::Othello(eval) => label::<false>(boards, eval, exact, depth, tt),
            }
        });
        for ((k, (source, game, _)), records) in indices.iter().zip(games).zip(labelled) {
            let block = Block {
                settings,
                index: *k as u32,
                source,
                game,
                records,
            };
            file.write_all(&block.to_bytes()).map_err(io)?;
            file.flush().map_err(io)?;
            total += block.records.len();
            report.blocks += 1;
            report.positions += block.records.len();
            report.exact += block.records.iter().filter(|r| r.exact).count();
            next = k + 1;
            progress(GenProgress {
                positions: total,
                target: config.positions,
                blocks: next as usize,
            });
            if total >= config.positions {
                break;
            }
        }
    }
    file.into_inner()
        .map_err(|e| io(e.into_error()))?
        .sync_all()
        .map_err(io)?;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Reads shard files: every block of each, or a one-line reason naming the file.
///
/// # Errors
/// The file cannot be read or is not a valid shard.
pub fn read(path: &Path) -> Result<Vec<Block>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    shard::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small, fast configuration.
    fn config(variant: Variant) -> GenConfig {
        GenConfig {
            label: LabelSettings {
                variant,
                seed: 3,
                exact_empties: 10,
                depth: 6,
                random_min: 4,
                random_max: 20,
                play_depth: 2,
                wthor: None,
                wthor_share: 0,
            },
            shard: 0,
            shards: 1,
            positions: 100,
            weights: Weights::builtin(variant).unwrap(),
            threads: 1,
        }
    }

    /// Perfect play by plain minimax, for the side to move; under reversed
    /// rules the final score is the standard one negated.
    fn minimax(b: Board, reversed: bool) -> i32 {
        if b.is_game_over() {
            return if reversed {
                -b.final_score()
            } else {
                b.final_score()
            };
        }
        if b.moves() == 0 {
            return -minimax(b.pass(), reversed);
        }
        b.move_squares()
            .map(|sq| -minimax(b.play_unchecked(sq), reversed))
            .max()
            .expect("a move")
    }

    #[test]
    fn mix_differs_by_each_argument() {
        let a = mix(1, 2, 3);
        assert_ne!(a, mix(0, 2, 3));
        assert_ne!(a, mix(1, 3, 3));
        assert_ne!(a, mix(1, 2, 4));
        assert_eq!(a, mix(1, 2, 3));
    }

    /// Late positions get the exact score of perfect play, under both rules;
    /// earlier ones the midgame search's value at the depth asked.
    #[test]
    fn labels_are_exact_near_the_end_and_searched_before() {
        let mut tt = TranspositionTable::new(4);
        for variant in [Variant::Othello, Variant::Reversed] {
            let c = config(variant);
            let evals = match variant {
                Variant::Reversed => Evals::Reversed(TrainedEval::new(Arc::clone(&c.weights))),
                _ => Evals::Othello(TrainedEval::new(Arc::clone(&c.weights))),
            };
            let (source, game, boards) = game_of(&c, &evals, None, 7, &mut tt);
            assert_eq!((source, game), (Source::SelfPlay, 7));
            assert!(boards.len() >= 55 && boards.iter().all(|b| !b.is_game_over()));
            let records = match &evals {
                Evals::Reversed(e) => label::<true>(&boards, e, 10, 3, &mut tt),
                Evals::Othello(e) => label::<false>(&boards, e, 10, 3, &mut tt),
            };
            assert_eq!(records.len(), boards.len());
            let reversed = variant == Variant::Reversed;
            let mut checked = 0;
            for (b, r) in boards.iter().zip(&records) {
                assert_eq!((r.player, r.opponent), (b.player, b.opponent));
                assert_eq!(r.exact, b.empties() <= 10, "{r:?}");
                if b.empties() <= 8 {
                    assert_eq!(i32::from(r.score), minimax(*b, reversed) * DISC, "{b:?}");
                    checked += 1;
                }
                if r.exact {
                    let stop = AtomicBool::new(false);
                    let fresh = TranspositionTable::new(1);
                    let salt = 0;
                    let exact = match &evals {
                        Evals::Reversed(e) => Solver::<true, _>::new(
                            &fresh, e, &stop, None, None, salt,
                        )
                        .solve(*b, Discs(-64), Discs(64)),
                        Evals::Othello(e) => Solver::<false, _>::new(
                            &fresh, e, &stop, None, None, salt,
                        )
                        .solve(*b, Discs(-64), Discs(64)),
                    };
                    assert_eq!(i32::from(r.score), exact.to_score().centi());
                }
            }
            assert!(checked >= 8, "{checked}");
            // The first position is searched with a cleared table: its label
            // is what the midgame search finds from scratch.
            let stop = AtomicBool::new(false);
            let mut fresh = TranspositionTable::new(TABLE_MB);
            let first = match &evals {
                Evals::Reversed(e) => think(
                    &Othello::<true>(boards[0]),
                    e,
                    &mut fresh,
                    &Limits::depth(3),
                    &stop,
                    &mut |_| {},
                ),
                Evals::Othello(e) => think(
                    &Othello::<false>(boards[0]),
                    e,
                    &mut fresh,
                    &Limits::depth(3),
                    &stop,
                    &mut |_| {},
                ),
            };
            assert_eq!(
                i32::from(records[0].score),
                first.last.unwrap().score.centi()
            );
            assert!(!records[0].exact);
        }
    }

    /// The same settings give the same bytes with one thread or two, in one
    /// run or continued after a stop, and positions are never repeated.
    #[test]
    fn shards_are_reproducible_and_resumable() {
        let dir = tempfile::tempdir().unwrap();
        let one = dir.path().join("one.shard");
        let two = dir.path().join("two.shard");
        let resumed = dir.path().join("resumed.shard");
        let mut c = config(Variant::Reversed);
        let report = run(&c, &one, &mut |_| {}).unwrap();
        assert!(report.positions >= 100 && report.blocks >= 2, "{report:?}");
        c.threads = 2;
        run(&c, &two, &mut |_| {}).unwrap();
        let bytes = std::fs::read(&one).unwrap();
        assert_eq!(std::fs::read(&two).unwrap(), bytes);
        // Stopped early, then cut inside a block: continued to the same bytes.
        c.positions = 30;
        run(&c, &resumed, &mut |_| {}).unwrap();
        let first = std::fs::read(&resumed).unwrap();
        assert_eq!(first[..], bytes[..first.len()]);
        c.positions = 100;
        let report = run(&c, &resumed, &mut |_| {}).unwrap();
        assert!(report.kept_blocks > 0 && report.dropped_bytes == 0);
        assert_eq!(std::fs::read(&resumed).unwrap(), bytes);
        std::fs::write(&resumed, &bytes[..bytes.len() - 100]).unwrap();
        let report = run(&c, &resumed, &mut |_| {}).unwrap();
        assert!(report.dropped_bytes > 0 && report.blocks == 1, "{report:?}");
        assert_eq!(std::fs::read(&resumed).unwrap(), bytes);
        // A finished shard is left alone.
        let report = run(&c, &resumed, &mut |_| {}).unwrap();
        assert_eq!(report.blocks, 0);
        // Each position once, up to symmetry; the blocks numbered in order.
        let blocks = shard::parse(&bytes).unwrap();
        let mut seen = HashSet::new();
        for (i, block) in blocks.iter().enumerate() {
            assert_eq!(block.index as usize, i);
            assert_eq!(block.settings, c.settings());
            for r in &block.records {
                assert!(seen.insert(shard::canonical(&r.board())));
            }
        }
        // Other settings, or a damaged file, are refused, the file untouched.
        c.label.seed = 4;
        let e = run(&c, &resumed, &mut |_| {}).unwrap_err();
        assert!(e.to_string().contains("seed 3 in the file, 4 asked"), "{e}");
        c.label.seed = 3;
        let mut damaged = bytes.clone();
        damaged[100] ^= 1;
        std::fs::write(&resumed, &damaged).unwrap();
        let e = run(&c, &resumed, &mut |_| {}).unwrap_err();
        assert!(e.to_string().contains("damaged"), "{e}");
        assert_eq!(std::fs::read(&resumed).unwrap(), damaged);
        for path in [&one, &two, &resumed] {
            let _ = std::fs::remove_file(path);
        }
    }
}
