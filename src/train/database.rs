//! The self-play game database (`orca selfplay`): games of the engine against
//! itself, stored as WTHOR records, whose outcomes label positions for the fit.
//!
//! A game: a seeded number of uniformly random legal moves, then the selective
//! midgame search at a fixed depth for both sides, then perfect play from
//! `solve_empties` empty squares. Every position from the solve point on (or
//! from the end of the random moves, if later) is therefore worth exactly the
//! final score, which the record stores as its theoretical score; the earlier
//! positions are labelled with it as the field labels them (a game's outcome).
//!
//! Each record keeps in its tournament field how many of its moves were random,
//! so that a fit leaves those positions out, and in its player fields the
//! search depth that played. The disc counts are `32 + score / 2`, with the
//! score under the game's own rules from black's side: black's discs, empty
//! squares to the winner, for standard Othello, and the same form (more is
//! better for black) for reversed Othello.
//!
//! Games belong to a *set*: the settings and weights that made them, named by
//! a short hash ([`SetSettings::id`]). Chunk `c` of a set holds its games
//! `c * chunk_games...` in the file `ID-CCCC.wtb`. A game depends only on its
//! set and its number, each searched with a cleared table of its own, so the
//! files are the same whatever the threads or shards (`--shard i/n` takes the
//! chunks `c` with `c mod n = i`), and a run that stopped continues the chunk
//! files where they end. A chunk file is locked while it is written, so two
//! runs on one directory never write the same chunk.
//!
//! Beside each chunk, `ID-CCCC.val` keeps what the search thought of every
//! position it played from: after an 8-byte signature, 60 bytes a game, one
//! signed byte a placement (the value of the position before it, in discs,
//! for the side to move; [`NO_VALUE`] for random moves and unused places).
//! The values cost no search of their own and let a fit blend a game's
//! outcome with them ([`samples`]). Chunks begun before the values were kept
//! have no such file, and a fit reads values only for the games a file covers.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::fit::Sample;
use super::generate::{mix, parallel};
use crate::eval::trained::{TrainedEval, Weights};
use crate::game::{Board, Color, Game, Move, Othello, Square, Variant};
use crate::rng::Rng;
use crate::search::endgame::Solver;
use crate::search::midgame::{Selectivity, probcut};
use crate::search::{Limits, TranspositionTable, think, variant_salt};
use crate::wthor::{self, GAME_BYTES, HEADER_BYTES, WthorGame, WthorHeader};

/// Games a chunk file holds when complete: 680 kB, so that a partial chunk
/// committed again costs little.
pub const CHUNK_GAMES: u32 = 10_000;

/// The table each game is played with, in megabytes (part of the set: a
/// selective search's choices can depend on the table's size).
pub const TABLE_MB: usize = 16;

/// The signature that starts a values file.
pub const VALUES_MAGIC: &[u8; 8] = b"ORCAVAL1";

/// Bytes of a game's values: one a placement.
pub const VALUE_BYTES: usize = 60;

/// The value of a placement made at random (no search valued it).
pub const NO_VALUE: i8 = i8::MIN;

/// The manifest of a database directory: one line per set.
pub const MANIFEST: &str = "sets.txt";

/// What makes a set's games what they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetSettings {
    /// Standard or reversed Othello.
    pub variant: Variant,
    /// Seed of every random choice.
    pub seed: u64,
    /// Depth of the midgame search that plays.
    pub depth: u32,
    /// Perfect play from this many empty squares on.
    pub solve_empties: u32,
    /// Random opening moves, at least...
    pub random_min: u32,
    /// ...and at most.
    pub random_max: u32,
    /// Games in a complete chunk file.
    pub chunk_games: u32,
    /// The last 8 bytes of the playing weights' file (their checksum).
    pub weights: u64,
    /// A checksum of the probable cutoffs' error model the search plays
    /// with: a new calibration makes other games, so another set.
    pub cutoffs: u64,
}

impl SetSettings {
    /// The settings of a run with `weights`.
    pub fn new(config: &SelfPlayConfig) -> SetSettings {
        let bytes = config.weights.to_bytes();
        let sum = bytes[bytes.len() - 8..].try_into().expect("8 bytes");
        SetSettings {
            variant: config.variant,
            seed: config.seed,
            depth: config.depth,
            solve_empties: config.solve_empties,
            random_min: config.random_min,
            random_max: config.random_max,
            chunk_games: config.chunk_games,
            weights: u64::from_le_bytes(sum),
            cutoffs: fnv(&format!(
                "{:?}",
                probcut::model(config.variant == Variant::Reversed)
            )),
        }
    }

    /// Eight hex digits naming the set (a hash of [`fmt::Display`]'s line).
    pub fn id(&self) -> String {
        let hash = fnv(&self.to_string());
        format!("{:08x}", (hash >> 32) as u32 ^ hash as u32)
    }

    /// The file of chunk `chunk` in `dir`.
    pub fn chunk_path(&self, dir: &Path, chunk: u32) -> PathBuf {
        dir.join(format!("{}-{chunk:04}.wtb", self.id()))
    }

    fn check(&self) -> Result<(), SelfPlayError> {
        let bad = |m: &str| Err(SelfPlayError::Config(m.to_string()));
        if self.variant == Variant::TicTacToe {
            return bad("self-play games are Othello's (standard or reversed)");
        }
        if self.random_min > self.random_max || self.random_max > 60 {
            return bad("the random opening moves need min <= max <= 60");
        }
        if self.depth == 0 || self.depth > 30 {
            return bad("the search depth goes from 1 to 30");
        }
        if self.solve_empties == 0 || self.solve_empties > 30 {
            return bad("perfect play starts from 1 to 30 empty squares");
        }
        if self.chunk_games == 0 {
            return bad("a chunk holds at least one game");
        }
        Ok(())
    }
}

impl fmt::Display for SetSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "variant={} seed={} depth={} selectivity={} solve={} random={}-{} chunk={} table={} weights={:016x} cutoffs={:016x}",
            self.variant,
            self.seed,
            self.depth,
            Selectivity::DEFAULT.percent(),
            self.solve_empties,
            self.random_min,
            self.random_max,
            self.chunk_games,
            TABLE_MB,
            self.weights,
            self.cutoffs
        )
    }
}

/// FNV-1a of `text`: stable across builds and platforms, unlike std's hasher.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Everything `orca selfplay` needs.
#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// Standard or reversed Othello.
    pub variant: Variant,
    /// Seed of every random choice.
    pub seed: u64,
    /// Depth of the midgame search that plays.
    pub depth: u32,
    /// Perfect play from this many empty squares on.
    pub solve_empties: u32,
    /// Random opening moves, at least...
    pub random_min: u32,
    /// ...and at most.
    pub random_max: u32,
    /// Games in a complete chunk file ([`CHUNK_GAMES`]; smaller in tests).
    pub chunk_games: u32,
    /// The weights both sides evaluate with.
    pub weights: Arc<Weights>,
    /// Make the set's games `0..games`...
    pub games: u64,
    /// ...from this chunk on.
    pub first_chunk: u32,
    /// This shard, from 0...
    pub shard: u32,
    /// ...out of this many.
    pub shards: u32,
    /// Worker threads (the files do not depend on it).
    pub threads: usize,
}

/// Why a run could not go on.
#[derive(Debug)]
pub enum SelfPlayError {
    /// The settings are impossible.
    Config(String),
    /// A chunk file that this set's runs did not make.
    Foreign(PathBuf, String),
    /// Reading or writing failed.
    Io(PathBuf, std::io::Error),
}

impl fmt::Display for SelfPlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelfPlayError::Config(m) => write!(f, "{m}"),
            SelfPlayError::Foreign(p, m) => write!(f, "{}: {m}", p.display()),
            SelfPlayError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for SelfPlayError {}

/// One game as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The placements in order (passes are not stored).
    pub squares: Vec<Square>,
    /// How many of them were random.
    pub random: u32,
    /// For each placement, the value of the position before it for the side
    /// to move, in discs: the search's score, the exact one when solved;
    /// [`NO_VALUE`] for random moves.
    pub values: Vec<i8>,
    /// The final score under the game's rules, from black's side.
    pub black_score: i32,
    /// Time spent in the midgame search...
    pub search_time: Duration,
    /// ...and in perfect play.
    pub solve_time: Duration,
}

impl PlayedGame {
    /// The game as a WTHOR record of depth `depth`.
    pub fn record(&self, depth: u32) -> WthorGame {
        let discs = u8::try_from(32 + self.black_score / 2).expect("a score within 64");
        WthorGame {
            tournament: self.random as u16,
            black_player: depth as u16,
            white_player: depth as u16,
            black_discs: discs,
            theoretical_black_discs: discs,
            squares: self.squares.clone(),
        }
    }

    /// The values as stored: [`VALUE_BYTES`] bytes, [`NO_VALUE`] past the
    /// last placement.
    pub fn value_bytes(&self) -> [u8; VALUE_BYTES] {
        let mut bytes = [NO_VALUE as u8; VALUE_BYTES];
        for (b, &v) in bytes.iter_mut().zip(&self.values) {
            *b = v as u8;
        }
        bytes
    }
}

/// A score in discs as a stored value.
fn value_of(discs: i32) -> i8 {
    discs.clamp(-64, 64) as i8
}

/// Plays game number `game` of `set` under rules `R` with a cleared `tt`.
pub fn play<const R: bool>(
    set: &SetSettings,
    eval: &TrainedEval<R>,
    game_number: u64,
    tt: &mut TranspositionTable,
) -> PlayedGame {
    let id = u64::from_str_radix(&set.id(), 16).expect("hex");
    let mut rng = Rng::new(mix(set.seed ^ id, game_number, 3));
    let random = set.random_min + rng.below(u64::from(set.random_max - set.random_min + 1)) as u32;
    let stop = AtomicBool::new(false);
    let salt = variant_salt::<Othello<R>>();
    tt.clear();
    let mut game = Othello::<R>::start();
    let mut to_move = Color::Black;
    let mut squares = Vec::with_capacity(60);
    let mut values = Vec::with_capacity(60);
    let (mut search_time, mut solve_time) = (Duration::ZERO, Duration::ZERO);
    while !game.is_over() {
        let started = Instant::now();
        let mv = if game.0.moves() == 0 {
            Move::Pass
        } else if (squares.len() as u32) < random {
            values.push(NO_VALUE);
            rng.legal_move(&game).expect("a move exists")
        } else if game.empties() <= set.solve_empties {
            let mut solver = Solver::<R, _>::new(tt, eval, &stop, None, None, salt);
            let best = solver.best_move(game.0).expect("a running game has a move");
            solve_time += started.elapsed();
            values.push(value_of(best.1.0));
            best.0
        } else {
            let found = think(
                &game,
                eval,
                tt,
                &Limits::exact_depth(set.depth),
                &stop,
                &mut |_| {},
            );
            search_time += started.elapsed();
            let value = found
                .last
                .as_ref()
                .map(|it| value_of(it.score.rounded_discs()));
            values.push(value.unwrap_or(NO_VALUE));
            found.best_move.expect("a running game has a best move")
        };
        if let Move::Play(square) = mv {
            squares.push(square);
        }
        game = game.play_unchecked(mv);
        to_move = to_move.opposite();
    }
    let own = game.final_score();
    PlayedGame {
        random: random.min(squares.len() as u32),
        squares,
        values,
        black_score: if to_move == Color::Black { own } else { -own },
        search_time,
        solve_time,
    }
}

/// Progress of a run, one report per batch of games written.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlayProgress {
    /// Games this run has made...
    pub games: u64,
    /// ...of this many it set out to make.
    pub target: u64,
    /// The chunk being written.
    pub chunk: u32,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct SelfPlayReport {
    /// The set's id.
    pub set: String,
    /// Games already in this run's chunks.
    pub kept_games: u64,
    /// Bytes of cut-off records dropped before continuing.
    pub dropped_bytes: u64,
    /// Chunks left alone because another run was writing them.
    pub busy_chunks: Vec<u32>,
    /// Games made by this run...
    pub games: u64,
    /// ...their moves (placements)...
    pub moves: u64,
    /// ...of which random.
    pub random_moves: u64,
    /// Thread time in the midgame search...
    pub search_time: Duration,
    /// ...and in perfect play.
    pub solve_time: Duration,
    /// Wall-clock time of the run.
    pub seconds: f64,
}

/// The games chunk `chunk` of a set should hold when this run is done.
fn chunk_target(config: &SelfPlayConfig, chunk: u32) -> u32 {
    let start = u64::from(chunk) * u64::from(config.chunk_games);
    config
        .games
        .saturating_sub(start)
        .min(u64::from(config.chunk_games)) as u32
}

/// The complete games in a chunk file's bytes (a header and whole records),
/// checked against the set.
fn complete_games(bytes: &[u8], set: &SetSettings) -> Result<u32, String> {
    let Some(head) = bytes.get(..HEADER_BYTES) else {
        return Ok(0);
    };
    let announced = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
    let present = ((bytes.len() - HEADER_BYTES) / GAME_BYTES) as u32;
    let games = announced.min(present);
    let mut whole = bytes[..HEADER_BYTES + games as usize * GAME_BYTES].to_vec();
    whole[4..8].copy_from_slice(&games.to_le_bytes());
    let file = wthor::parse(&whole).map_err(|e| e.to_string())?;
    if u32::from(file.header.depth) != set.solve_empties {
        return Err(format!(
            "its games are perfect from {} empties, this set's from {}",
            file.header.depth, set.solve_empties
        ));
    }
    if let Some(g) = file.games.iter().find(|g| {
        u32::from(g.black_player) != set.depth || u32::from(g.tournament) > set.random_max
    }) {
        return Err(format!(
            "a game played at depth {} with {} random moves does not belong to this set",
            g.black_player, g.tournament
        ));
    }
    Ok(games)
}

/// The header of a chunk file of `games` games.
fn header(set: &SetSettings, games: u32) -> [u8; HEADER_BYTES] {
    WthorHeader {
        created: (0, 0, 0),
        games,
        records: 0,
        games_year: 0,
        board_size: 8,
        game_type: 0,
        depth: set.solve_empties as u8,
    }
    .to_bytes()
}

/// Adds the set's line to the directory's manifest unless it is there.
fn note_set(dir: &Path, set: &SetSettings) -> Result<(), SelfPlayError> {
    let path = dir.join(MANIFEST);
    let io = |e| SelfPlayError::Io(path.clone(), e);
    let line = format!("{} {set}", set.id());
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io(e)),
    };
    if text.lines().any(|l| l == line) {
        return Ok(());
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(io)?;
    writeln!(file, "{line}").map_err(io)
}

/// The playing weights as the variant's evaluation.
enum Evals {
    Othello(TrainedEval<false>),
    Reversed(TrainedEval<true>),
}

/// A chunk file opened and locked for writing, positioned after its last
/// complete game.
struct OpenChunk {
    file: File,
    games: u32,
    dropped: u64,
}

/// Opens chunk `chunk` for writing; `None` when another run holds it.
fn open_chunk(path: &Path, set: &SetSettings) -> Result<Option<OpenChunk>, SelfPlayError> {
    let io = |e| SelfPlayError::Io(path.to_path_buf(), e);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => return Ok(None),
        Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io)?;
    // A header cut off while first written: the chunk starts again.
    bytes.truncate(if bytes.len() < HEADER_BYTES {
        0
    } else {
        bytes.len()
    });
    let games =
        complete_games(&bytes, set).map_err(|m| SelfPlayError::Foreign(path.to_path_buf(), m))?;
    let end = HEADER_BYTES + games as usize * GAME_BYTES;
    let dropped = bytes.len().saturating_sub(end) as u64;
    file.set_len(end as u64).map_err(io)?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    file.write_all(&header(set, games)).map_err(io)?;
    file.seek(SeekFrom::End(0)).map_err(io)?;
    Ok(Some(OpenChunk {
        file,
        games,
        dropped,
    }))
}

/// The values file of the chunk file `path`.
pub fn values_path(path: &Path) -> PathBuf {
    path.with_extension("val")
}

/// Opens the values file of a chunk that holds `games` complete games, cut
/// to those games, for appending the next ones; `None` when the chunk was
/// begun without one (or it lost games), so that the values a file holds
/// always belong to its chunk's first games. Called with the chunk locked.
fn open_values(path: &Path, games: u32) -> Result<Option<File>, SelfPlayError> {
    let path = values_path(path);
    let io = |e| SelfPlayError::Io(path.clone(), e);
    let mut file = match OpenOptions::new()
        .read(true)
        .write(true)
        .create(games == 0)
        .truncate(false)
        .open(&path)
    {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    let mut magic = [0u8; 8];
    let len = file.metadata().map_err(io)?.len();
    let signed = len >= 8 && file.read_exact(&mut magic).is_ok() && &magic == VALUES_MAGIC;
    let held = if signed {
        (len - 8) / VALUE_BYTES as u64
    } else {
        0
    };
    if held < u64::from(games) {
        return Ok(None);
    }
    if !signed {
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(VALUES_MAGIC).map_err(io)?;
    }
    file.set_len(8 + u64::from(games) * VALUE_BYTES as u64)
        .map_err(io)?;
    file.seek(SeekFrom::End(0)).map_err(io)?;
    Ok(Some(file))
}

/// The values of the first games of chunk file `path`: one array a game, as
/// many as its values file holds whole (none without one).
pub fn read_values(path: &Path) -> Result<Vec<[i8; VALUE_BYTES]>, std::io::Error> {
    let bytes = match std::fs::read(values_path(path)) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    if bytes.len() < 8 || &bytes[..8] != VALUES_MAGIC {
        return Ok(Vec::new());
    }
    Ok(bytes[8..]
        .chunks_exact(VALUE_BYTES)
        .map(|chunk| std::array::from_fn(|i| chunk[i] as i8))
        .collect())
}

/// The games already in chunk `chunk` (0 for a missing or unreadable file:
/// [`open_chunk`] reports those).
fn games_in(path: &Path) -> u32 {
    let mut head = [0u8; HEADER_BYTES];
    let Ok(mut file) = File::open(path) else {
        return 0;
    };
    let Ok(len) = file.metadata().map(|m| m.len()) else {
        return 0;
    };
    if file.read_exact(&mut head).is_err() {
        return 0;
    }
    let announced = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
    let present = (len.saturating_sub(HEADER_BYTES as u64) / GAME_BYTES as u64) as u32;
    announced.min(present)
}

/// Makes or continues this run's chunks of the set in `dir` until each holds
/// its share of the set's first `config.games` games.
///
/// # Errors
/// Impossible settings, a chunk file this set did not make, or I/O.
pub fn run(
    config: &SelfPlayConfig,
    dir: &Path,
    progress: &mut dyn FnMut(SelfPlayProgress),
) -> Result<SelfPlayReport, SelfPlayError> {
    let set = SetSettings::new(config);
    set.check()?;
    if config.shards == 0 || config.shard >= config.shards {
        return Err(SelfPlayError::Config(
            "--shard i/n needs 0 <= i < n".to_string(),
        ));
    }
    if config.weights.variant != config.variant {
        return Err(SelfPlayError::Config(
            "the playing weights are for the other variant".to_string(),
        ));
    }
    let started = Instant::now();
    std::fs::create_dir_all(dir).map_err(|e| SelfPlayError::Io(dir.to_path_buf(), e))?;
    note_set(dir, &set)?;
    let chunks = config.games.div_ceil(u64::from(config.chunk_games));
    let chunks: Vec<u32> = (u64::from(config.first_chunk)..chunks)
        .map(|c| c as u32)
        .filter(|c| c % config.shards == config.shard)
        .collect();
    let mut report = SelfPlayReport {
        set: set.id(),
        ..SelfPlayReport::default()
    };
    let target: u64 = chunks
        .iter()
        .map(|&c| {
            let have = games_in(&set.chunk_path(dir, c));
            report.kept_games += u64::from(have);
            u64::from(chunk_target(config, c).saturating_sub(have))
        })
        .sum();
    let mut tables = Vec::new();
    for _ in 0..config.threads.max(1) {
        let tt = TranspositionTable::try_new(TABLE_MB)
            .map_err(|e| SelfPlayError::Config(format!("the search tables: {e}")))?;
        tables.push(tt);
    }
    let evals = if config.variant == Variant::Reversed {
        Evals::Reversed(TrainedEval::new(Arc::clone(&config.weights)))
    } else {
        Evals::Othello(TrainedEval::new(Arc::clone(&config.weights)))
    };
    let batch = config.threads.max(1) as u32 * 2;
    for &chunk in &chunks {
        let goal = chunk_target(config, chunk);
        let path = set.chunk_path(dir, chunk);
        if games_in(&path) >= goal {
            // Done before: only checked to belong to the set.
            let bytes = std::fs::read(&path).map_err(|e| SelfPlayError::Io(path.clone(), e))?;
            complete_games(&bytes, &set).map_err(|m| SelfPlayError::Foreign(path.clone(), m))?;
            continue;
        }
        let Some(mut open) = open_chunk(&path, &set)? else {
            report.busy_chunks.push(chunk);
            continue;
        };
        report.dropped_bytes += open.dropped;
        let mut values = open_values(&path, open.games)?;
        let io = |e| SelfPlayError::Io(path.clone(), e);
        while open.games < goal {
            let first = u64::from(chunk) * u64::from(config.chunk_games) + u64::from(open.games);
            let count = batch.min(goal - open.games);
            let numbers: Vec<u64> = (first..first + u64::from(count)).collect();
            let games = parallel(&numbers, &mut tables, &|&g, tt| match &evals {
                Evals::Othello(eval) => play::<false>(&set, eval, g, tt),
                Evals::Reversed(eval) => play::<true>(&set, eval, g, tt),
            });
            let mut bytes = Vec::with_capacity(games.len() * GAME_BYTES);
            for game in &games {
                let record = game.record(set.depth).to_bytes().expect("at most 60 moves");
                bytes.extend_from_slice(&record);
                report.moves += game.squares.len() as u64;
                report.random_moves += u64::from(game.random);
                report.search_time += game.search_time;
                report.solve_time += game.solve_time;
            }
            // Values, records, then the count: a stop between them leaves
            // values and records that the next run drops and plays again.
            if let Some(file) = &mut values {
                let value_bytes: Vec<u8> = games.iter().flat_map(PlayedGame::value_bytes).collect();
                file.write_all(&value_bytes)
                    .map_err(|e| SelfPlayError::Io(values_path(&path), e))?;
            }
            open.file.write_all(&bytes).map_err(io)?;
            open.games += count;
            open.file.seek(SeekFrom::Start(0)).map_err(io)?;
            open.file.write_all(&header(&set, open.games)).map_err(io)?;
            open.file.seek(SeekFrom::End(0)).map_err(io)?;
            report.games += u64::from(count);
            progress(SelfPlayProgress {
                games: report.games,
                target,
                chunk,
            });
        }
        if let Some(file) = &values {
            file.sync_all()
                .map_err(|e| SelfPlayError::Io(values_path(&path), e))?;
        }
        open.file.sync_all().map_err(io)?;
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// A game of the database, as the fit reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatabaseGame {
    /// The record.
    pub game: WthorGame,
    /// Placements made at random, whose positions a fit leaves out.
    pub random: u32,
    /// Play was perfect from this many empty squares (the file's depth).
    pub solve_empties: u32,
    /// The search's values of its placements, when the chunk kept them.
    pub values: Option<[i8; VALUE_BYTES]>,
}

impl DatabaseGame {
    /// Whether the game is held out when one in `every` is (0: none): decided
    /// by its moves, so a game is on the same side in every fit.
    pub fn held_out(&self, every: u64) -> bool {
        let hash = self
            .game
            .squares
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, s| {
                (h ^ u64::from(s.index())).wrapping_mul(0x0100_0000_01b3)
            });
        every > 0 && mix(0, hash, 5).is_multiple_of(every)
    }

    /// The positions to fit, side to move first, with their labels in discs
    /// and whether each is exact: every position after the random moves
    /// until the end, worth the game's final score (exact from the solve
    /// point on). A record that breaks the rules gives none.
    pub fn labelled(&self) -> Vec<(Board, i32, bool)> {
        let Ok(replay) = self.game.replay() else {
            return Vec::new();
        };
        let black = self.game.theoretical_score();
        let last_random = 60u32.saturating_sub(self.random);
        replay
            .positions
            .iter()
            .filter(|p| !p.is_over() && p.state().0.empties() <= last_random)
            .map(|p| {
                let board = p.state().0;
                let own = if p.to_move() == Color::Black {
                    black
                } else {
                    -black
                };
                (board, own, board.empties() <= self.solve_empties)
            })
            .collect()
    }

    /// [`Self::labelled`] with the search's value of each position beside
    /// its label, where the game has values (none at positions whose side
    /// to move passes: it made no placement).
    pub fn valued(&self) -> Vec<(Board, i32, bool, Option<i32>)> {
        self.labelled()
            .into_iter()
            .map(|(board, outcome, exact)| {
                let value = self
                    .values
                    .filter(|_| board.moves() != 0)
                    .map(|values| values[60 - board.empties() as usize])
                    .filter(|&v| v != NO_VALUE);
                (board, outcome, exact, value.map(i32::from))
            })
            .collect()
    }

    /// [`Self::labelled`] with each label a blend: `value_weight` of the
    /// search's value of the position where the game has one, the rest the
    /// final score (the final score alone where it has none).
    pub fn blended(&self, value_weight: f32) -> Vec<(Board, f32, bool)> {
        self.valued()
            .into_iter()
            .map(|(board, outcome, exact, value)| {
                let label = match value {
                    Some(v) => (1.0 - value_weight) * outcome as f32 + value_weight * v as f32,
                    None => outcome as f32,
                };
                (board, label, exact)
            })
            .collect()
    }
}

/// The variant of the games in database `dir`, from its manifest.
///
/// # Errors
/// No manifest, or one naming no variant or two.
pub fn variant_of(dir: &Path) -> Result<Variant, SelfPlayError> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(|e| SelfPlayError::Io(path.clone(), e))?;
    let mut variants = text.lines().filter_map(|line| {
        line.split_whitespace()
            .find_map(|word| word.strip_prefix("variant="))
            .map(str::parse::<Variant>)
    });
    let foreign = |m: &str| SelfPlayError::Foreign(path.clone(), m.to_string());
    let first = variants
        .next()
        .ok_or_else(|| foreign("names no variant"))?
        .map_err(|_| foreign("names an unknown variant"))?;
    if variants.any(|v| v != Ok(first)) {
        return Err(foreign("mixes variants"));
    }
    Ok(first)
}

/// Reads every game of the `.wtb` files in `dir` (any number of sets).
///
/// # Errors
/// A file that cannot be read or is not WTHOR.
pub fn read(dir: &Path) -> Result<Vec<DatabaseGame>, wthor::WthorError> {
    let mut games = Vec::new();
    for path in in_set_order(dir, wthor::files_in(dir)?) {
        let file = wthor::read(&path)?;
        let solve_empties = u32::from(file.header.theoretical_depth());
        let values = read_values(&path).map_err(|e| wthor::WthorError::Io(path.clone(), e))?;
        games.extend(
            file.games
                .into_iter()
                .enumerate()
                .map(|(i, game)| DatabaseGame {
                    random: u32::from(game.tournament),
                    solve_empties,
                    values: values.get(i).copied(),
                    game,
                }),
        );
    }
    Ok(games)
}

/// The chunk files of `dir` in the order their sets were started (the
/// manifest's order), each set's chunks in order: the first N games of a
/// database stay the same games however many sets are added after them
/// (file names alone would put a new set before an older one whose id sorts
/// later). Files of no set in the manifest come last, by name.
fn in_set_order(dir: &Path, mut files: Vec<PathBuf>) -> Vec<PathBuf> {
    let manifest = std::fs::read_to_string(dir.join(MANIFEST)).unwrap_or_default();
    let order: Vec<&str> = manifest
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    let rank = |path: &PathBuf| {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let set = name.split('-').next().unwrap_or_default().to_string();
        let index = order
            .iter()
            .position(|&id| id == set)
            .unwrap_or(order.len());
        (index, name)
    };
    files.sort_by_cached_key(rank);
    files
}

/// The fit's samples of database games, of `weight`, one game in
/// `test_every` held out, the others labelled by [`DatabaseGame::blended`]
/// with `value_weight` (0: the final scores alone).
pub fn samples(
    games: &[DatabaseGame],
    test_every: u64,
    weight: f32,
    value_weight: f32,
) -> Vec<Sample> {
    let mut samples = Vec::new();
    for game in games {
        let test = game.held_out(test_every);
        // Held-out positions keep the final score: the test errors measure
        // the weights against outcomes whatever the blend.
        let blend = if test { 0.0 } else { value_weight };
        samples.extend(
            game.blended(blend)
                .into_iter()
                .map(|(b, target, _)| Sample {
                    player: b.player,
                    opponent: b.opponent,
                    target,
                    test,
                    weight,
                }),
        );
    }
    samples
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory, removed with its files when dropped.
    fn temp() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn config(variant: Variant, games: u64) -> SelfPlayConfig {
        SelfPlayConfig {
            variant,
            seed: 11,
            depth: 2,
            solve_empties: 8,
            random_min: 4,
            random_max: 20,
            chunk_games: 3,
            weights: Weights::builtin(variant).unwrap(),
            games,
            first_chunk: 0,
            shard: 0,
            shards: 1,
            threads: 1,
        }
    }

    /// Minimax by brute force (few empty squares), for the side to move.
    fn minimax<const R: bool>(state: Othello<R>) -> i32 {
        if state.is_over() {
            return state.final_score();
        }
        state
            .legal_moves()
            .into_iter()
            .map(|m| -minimax(state.play_unchecked(m)))
            .max()
            .expect("a running game has a move")
    }

    /// Replays a record under rules `R`: the positions before each move.
    fn positions<const R: bool>(game: &WthorGame) -> Vec<(Othello<R>, Color)> {
        let replay = game.replay().unwrap();
        let mut colour = Color::Black;
        replay
            .positions
            .iter()
            .map(|p| {
                let here = (Othello::<R>(p.state().0), colour);
                colour = colour.opposite();
                here
            })
            .collect()
    }

    fn check_games<const R: bool>(games: &[DatabaseGame], set: &SetSettings) {
        for g in games {
            assert!((set.random_min..=set.random_max).contains(&g.random));
            let positions = positions::<R>(&g.game);
            let (last, colour) = *positions.last().unwrap();
            assert!(last.is_over());
            let own = last.final_score();
            let black = if colour == Color::Black { own } else { -own };
            assert_eq!(g.game.score(), black, "the record's score is the game's");
            assert_eq!(g.game.theoretical_score(), black);
            // The fit's positions: those after the random moves, each worth
            // the final score from its side to move, exact from the solve point.
            let labelled = g.labelled();
            let kept: Vec<_> = positions
                .iter()
                .filter(|(p, _)| !p.is_over() && p.empties() <= 60 - g.random)
                .collect();
            assert_eq!(labelled.len(), kept.len());
            for ((board, target, exact), (p, colour)) in labelled.iter().zip(kept) {
                assert_eq!(*board, p.0);
                assert_eq!(
                    *target,
                    if *colour == Color::Black {
                        black
                    } else {
                        -black
                    }
                );
                assert_eq!(*exact, p.empties() <= set.solve_empties);
            }
            // Perfect play from the solve point: the first position there is
            // worth the final score.
            let (first, colour) = *positions
                .iter()
                .find(|(p, _)| p.empties() <= set.solve_empties.min(60 - g.random))
                .unwrap();
            let exact = minimax(first);
            let exact = if colour == Color::Black {
                exact
            } else {
                -exact
            };
            assert_eq!(exact, black);
            check_values(g, set);
        }
    }

    /// A game's values: one a placement, none for the random ones, within
    /// a score's range, and the final score from the solve point on (perfect
    /// play keeps the value); the labels blend them as asked.
    fn check_values(g: &DatabaseGame, set: &SetSettings) {
        let values = g.values.expect("a chunk begun with values keeps them");
        let placements = g.game.squares.len();
        let random = g.random as usize;
        assert!(values[..random].iter().all(|&v| v == NO_VALUE));
        assert!(
            values[random..placements]
                .iter()
                .all(|&v| (-64..=64).contains(&v))
        );
        assert!(values[placements..].iter().all(|&v| v == NO_VALUE));
        let outcome = g.labelled();
        let by_value = g.blended(1.0);
        let half = g.blended(0.5);
        assert_eq!(g.blended(0.0).len(), outcome.len());
        let mut searched = 0;
        for (((board, target, exact), (_, value, _)), (_, mixed, _)) in
            outcome.iter().zip(&by_value).zip(&half)
        {
            if board.moves() == 0 {
                assert_eq!(*value, *target as f32, "a pass has no value of its own");
                continue;
            }
            assert_eq!(*value, f32::from(values[60 - board.empties() as usize]));
            assert_eq!(*mixed, (*target as f32 + *value) / 2.0);
            if *exact {
                assert_eq!(*value, *target as f32, "perfect play keeps the value");
            } else {
                searched += 1;
            }
        }
        assert!(searched > 0 || g.random >= 60 - set.solve_empties);
    }

    #[test]
    fn games_are_legal_exact_at_the_end_and_the_same_on_any_threads_or_shards() {
        for variant in [Variant::Othello, Variant::Reversed] {
            let one_dir = temp();
            let one = one_dir.path();
            let config = config(variant, 7);
            let set = SetSettings::new(&config);
            let report = run(&config, one, &mut |_| {}).unwrap();
            assert_eq!((report.games, report.kept_games), (7, 0));
            // Chunks of 3: two whole and one of a game.
            let sizes: Vec<u64> = (0..3)
                .map(|c| std::fs::metadata(set.chunk_path(one, c)).unwrap().len())
                .collect();
            let whole = (HEADER_BYTES + 3 * GAME_BYTES) as u64;
            assert_eq!(sizes, [whole, whole, (HEADER_BYTES + GAME_BYTES) as u64]);
            let games = read(one).unwrap();
            assert_eq!(games.len(), 7);
            assert!(games.iter().all(|g| g.solve_empties == set.solve_empties));
            let all = samples(&games, 0, 1.0, 0.0);
            assert!(all.iter().all(|s| !s.test && s.weight == 1.0));
            let held = samples(&games, 2, 1.0, 0.0);
            assert_eq!(held.len(), all.len());
            assert!(held.iter().any(|s| s.test) && held.iter().any(|s| !s.test));
            if variant == Variant::Reversed {
                check_games::<true>(&games, &set);
            } else {
                check_games::<false>(&games, &set);
            }
            // Two threads, and two shards, make the same files.
            let two_dir = temp();
            let two = two_dir.path();
            let threads = SelfPlayConfig {
                threads: 2,
                ..config.clone()
            };
            run(&threads, two, &mut |_| {}).unwrap();
            let sharded_dir = temp();
            let sharded = sharded_dir.path();
            for shard in 0..2 {
                let part = SelfPlayConfig {
                    shard,
                    shards: 2,
                    ..config.clone()
                };
                run(&part, sharded, &mut |_| {}).unwrap();
            }
            for c in 0..3 {
                for path in [set.chunk_path(one, c), values_path(&set.chunk_path(one, c))] {
                    let bytes = std::fs::read(&path).unwrap();
                    let name = path.file_name().unwrap();
                    assert_eq!(std::fs::read(two.join(name)).unwrap(), bytes);
                    assert_eq!(std::fs::read(sharded.join(name)).unwrap(), bytes);
                }
            }
            let manifest = std::fs::read_to_string(one.join(MANIFEST)).unwrap();
            assert_eq!(manifest, format!("{} {set}\n", set.id()));
            assert_eq!(variant_of(one).unwrap(), variant);
        }
    }

    #[test]
    fn sets_are_read_in_the_order_they_were_started() {
        let dir = temp();
        std::fs::write(
            dir.path().join(MANIFEST),
            "ffff0000 variant=othello\naaaa0000 variant=othello\n",
        )
        .unwrap();
        let names = [
            "aaaa0000-0001.wtb",
            "zzzz0000-0000.wtb",
            "ffff0000-0000.wtb",
            "aaaa0000-0000.wtb",
        ];
        let files = names.iter().map(|n| dir.path().join(n)).collect();
        let ordered: Vec<String> = in_set_order(dir.path(), files)
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            ordered,
            [
                "ffff0000-0000.wtb",
                "aaaa0000-0000.wtb",
                "aaaa0000-0001.wtb",
                "zzzz0000-0000.wtb"
            ]
        );
    }

    #[test]
    fn a_stopped_run_continues_and_a_larger_one_grows_the_set() {
        let whole_dir = temp();
        let whole = whole_dir.path();
        let config = config(Variant::Othello, 5);
        let set = SetSettings::new(&config);
        run(&config, whole, &mut |_| {}).unwrap();
        // Fewer games first, then a write cut off in the middle of a record
        // and before the count: the next run drops it and plays it again.
        let cut_dir = temp();
        let cut = cut_dir.path();
        run(
            &SelfPlayConfig {
                games: 4,
                ..config.clone()
            },
            cut,
            &mut |_| {},
        )
        .unwrap();
        let last = set.chunk_path(cut, 1);
        let mut file = OpenOptions::new().append(true).open(&last).unwrap();
        file.write_all(&[56, 64, 33]).unwrap();
        drop(file);
        let report = run(&config, cut, &mut |_| {}).unwrap();
        assert_eq!(
            (report.kept_games, report.games, report.dropped_bytes),
            (4, 1, 3)
        );
        for c in 0..2 {
            assert_eq!(
                std::fs::read(set.chunk_path(cut, c)).unwrap(),
                std::fs::read(set.chunk_path(whole, c)).unwrap()
            );
            assert_eq!(
                std::fs::read(values_path(&set.chunk_path(cut, c))).unwrap(),
                std::fs::read(values_path(&set.chunk_path(whole, c))).unwrap()
            );
        }
        // A chunk begun before values were kept gets none, the others keep
        // theirs, and the fit reads each game's.
        let old = values_path(&set.chunk_path(cut, 1));
        std::fs::remove_file(&old).unwrap();
        let grown = SelfPlayConfig {
            games: 8,
            ..config.clone()
        };
        run(&grown, cut, &mut |_| {}).unwrap();
        assert!(!old.exists());
        let games = read(cut).unwrap();
        let with: Vec<bool> = games.iter().map(|g| g.values.is_some()).collect();
        assert_eq!(with, [true, true, true, false, false, false, true, true]);
        std::fs::remove_dir_all(cut).unwrap();
        std::fs::create_dir_all(cut).unwrap();
        run(&config, cut, &mut |_| {}).unwrap();
        // Nothing left to do: nothing changes.
        let again = run(&config, cut, &mut |_| {}).unwrap();
        assert_eq!((again.games, again.kept_games), (0, 5));
        // Other weights make another set beside it, with other games.
        let mut other = (*config.weights).clone();
        other.stages[0][0] += 1;
        let other = SelfPlayConfig {
            weights: Arc::new(other),
            ..config.clone()
        };
        let other_set = SetSettings::new(&other);
        assert_ne!(other_set.id(), set.id());
        run(&other, cut, &mut |_| {}).unwrap();
        assert_eq!(read(cut).unwrap().len(), 10);
        assert_eq!(
            std::fs::read_to_string(cut.join(MANIFEST))
                .unwrap()
                .lines()
                .count(),
            2
        );
        // A chunk of another set's settings under this set's name is refused.
        let deeper = SelfPlayConfig {
            depth: 3,
            ..config.clone()
        };
        std::fs::copy(
            set.chunk_path(cut, 0),
            SetSettings::new(&deeper).chunk_path(cut, 0),
        )
        .unwrap();
        let err = run(&deeper, cut, &mut |_| {}).unwrap_err();
        assert!(
            err.to_string().contains("does not belong to this set"),
            "{err}"
        );
    }

    #[test]
    fn a_chunk_another_run_writes_is_left_to_it() {
        let tmp = temp();
        let dir = tmp.path();
        let config = config(Variant::Othello, 6);
        let set = SetSettings::new(&config);
        std::fs::create_dir_all(dir).unwrap();
        let held = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(set.chunk_path(dir, 0))
            .unwrap();
        held.lock().unwrap();
        let report = run(&config, dir, &mut |_| {}).unwrap();
        assert_eq!(report.busy_chunks, [0]);
        assert_eq!(report.games, 3);
        drop(held);
        let report = run(&config, dir, &mut |_| {}).unwrap();
        assert_eq!((report.games, report.busy_chunks.len()), (3, 0));
    }

    #[test]
    fn impossible_settings_are_refused() {
        let tmp = temp();
        let dir = tmp.path();
        for (bad, message) in [
            (
                SelfPlayConfig {
                    depth: 0,
                    ..config(Variant::Othello, 1)
                },
                "depth",
            ),
            (
                SelfPlayConfig {
                    solve_empties: 0,
                    ..config(Variant::Othello, 1)
                },
                "empty squares",
            ),
            (
                SelfPlayConfig {
                    random_min: 30,
                    random_max: 20,
                    ..config(Variant::Othello, 1)
                },
                "random",
            ),
            (
                SelfPlayConfig {
                    shard: 2,
                    shards: 2,
                    ..config(Variant::Othello, 1)
                },
                "shard",
            ),
            (
                SelfPlayConfig {
                    variant: Variant::Reversed,
                    ..config(Variant::Othello, 1)
                },
                "other variant",
            ),
        ] {
            let err = run(&bad, dir, &mut |_| {}).unwrap_err();
            assert!(err.to_string().contains(message), "{err}");
        }
    }
}
