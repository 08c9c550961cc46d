//! Building a book: the opening lines of games (WTHOR, self-play, or games
//! given to `orca book add`), each position valued by a deep selective search
//! of the moves that leave the book, the values negamaxed up the tree, then
//! widened by deviations: for each position whose best move outside the book
//! is close to its value, that move's position is added and valued (Edax's
//! `book deviate`).
//!
//! Reproducible: every valuation starts from a cleared table and searches
//! only the moves leaving the book, so its result depends on the position,
//! the depth and the moves excluded alone; the build visits positions in a
//! fixed order. Resumable: each valuation is appended to a work file, and a
//! build started again replays the same steps, taking the valuations it
//! finds there instead of searching, so an interrupted build ends with the
//! very book an uninterrupted one makes.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::{Book, Entry, NO_MOVE, canonical};
use crate::eval::{DISC, Evaluator, Evaluators};
use crate::game::{Board, Game, Move, Othello, Square, Variant};
use crate::rng::Rng;
use crate::score::Score;
use crate::search::TranspositionTable;
use crate::search::midgame::{Midgame, Scratch, Selectivity};

/// A score beyond every real one, in [`DISC`] units.
const INF: i32 = Score::INF.centi();

/// Size of the table of one valuation, in megabytes.
const TABLE_MB: usize = 16;

/// How a book is built.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// The game.
    pub variant: Variant,
    /// Depth of the search that values each position.
    pub depth: u32,
    /// Positions up to this many plies from the start come from the games.
    pub plies: u32,
    /// A position of the games is taken when at least this many reach it.
    pub min_games: u32,
    /// WTHOR files or directories of them (standard Othello).
    pub wthor: Vec<PathBuf>,
    /// Self-play lines from the start.
    pub selfplay: u32,
    /// Self-play picks among moves within this many discs of the best of a
    /// shallow search.
    pub selfplay_spread: i32,
    /// Deviation rounds.
    pub rounds: u32,
    /// A leaf is added when its value is within this many discs of its
    /// position's value...
    pub window: i32,
    /// ...and its position is at most this many plies from the start.
    pub deviation_plies: u32,
    /// At most this many positions are added per round (the closest first).
    pub per_round: usize,
    /// Seed of the self-play.
    pub seed: u64,
}

/// One valuation: the best move among those allowed and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Valued {
    /// Square of the move (canonical board), [`NO_MOVE`] when none is allowed.
    mv: u8,
    /// Value in [`DISC`] units.
    score: i32,
}

/// Bytes of one work-file record.
const WORK_RECORD: usize = 32;

/// The valuations done so far, in memory and in the work file.
struct Cache {
    done: HashMap<(u64, u64, u64, u8), Valued>,
    file: Option<BufWriter<File>>,
}

impl Cache {
    /// Reads the work file (the records before any torn one) and opens it
    /// for appending; no file: valuations are kept in memory only.
    fn open(path: Option<&Path>, report: &mut dyn BuildLog) -> Result<Cache, String> {
        let mut done = HashMap::new();
        let Some(path) = path else {
            return Ok(Cache { done, file: None });
        };
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let mut good = 0;
        for r in bytes.chunks_exact(WORK_RECORD) {
            let word = |at: usize| u64::from_le_bytes(r[at..at + 8].try_into().expect("8"));
            let sum = u32::from_le_bytes(r[28..32].try_into().expect("4"));
            if super::format::fnv1a(0xCBF2_9CE4_8422_2325, &r[..28]) as u32 != sum {
                break;
            }
            let score = i16::from_le_bytes([r[26], r[27]]);
            done.insert(
                (word(0), word(8), word(16), r[24]),
                Valued {
                    mv: r[25],
                    score: i32::from(score),
                },
            );
            good += WORK_RECORD;
        }
        if good < bytes.len() {
            report.note(&format!(
                "book: {}: ignoring {} damaged bytes at the end",
                path.display(),
                bytes.len() - good
            ));
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        file.set_len(good as u64)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if !done.is_empty() {
            report.note(&format!(
                "book: {} valuations from {}",
                done.len(),
                path.display()
            ));
        }
        Ok(Cache {
            done,
            file: Some(BufWriter::new(file)),
        })
    }

    fn record(&mut self, key: (u64, u64, u64, u8), valued: Valued) -> Result<(), String> {
        self.done.insert(key, valued);
        if let Some(file) = &mut self.file {
            let mut r = [0u8; WORK_RECORD];
            r[0..8].copy_from_slice(&key.0.to_le_bytes());
            r[8..16].copy_from_slice(&key.1.to_le_bytes());
            r[16..24].copy_from_slice(&key.2.to_le_bytes());
            r[24] = key.3;
            r[25] = valued.mv;
            r[26..28].copy_from_slice(&(valued.score as i16).to_le_bytes());
            let sum = super::format::fnv1a(0xCBF2_9CE4_8422_2325, &r[..28]) as u32;
            r[28..32].copy_from_slice(&sum.to_le_bytes());
            file.write_all(&r)
                .and_then(|_| file.flush())
                .map_err(|e| format!("work file: {e}"))?;
        }
        Ok(())
    }
}

/// How far a build has come: the positions valued in the current pass
/// (a pass values what is new or stale; a build makes one for its lines and
/// one or more for each deviation round).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Passes so far, this one included.
    pub pass: u32,
    /// Positions of this pass valued...
    pub done: usize,
    /// ...of this many.
    pub total: usize,
    /// Positions in the book so far.
    pub positions: usize,
    /// Valuations searched, and taken from the work file, since the start.
    pub searched: usize,
    /// See `searched`.
    pub reused: usize,
    /// Time since the build started.
    pub elapsed: Duration,
}

/// Where a build tells how it goes: notes worth keeping, and its progress
/// after every position valued (a progress bar on a terminal, a line now
/// and then in a log: [`Lines`]).
pub trait BuildLog {
    /// What was read, each round's result, the end.
    fn note(&mut self, line: &str);
    /// After every position valued.
    fn progress(&mut self, progress: &Progress);
}

/// A [`BuildLog`] as lines: every note, and the progress at most every two
/// seconds and at the end of each pass.
pub struct Lines<F: FnMut(&str)> {
    out: F,
    last: Instant,
}

impl<F: FnMut(&str)> Lines<F> {
    /// Lines written by `out`.
    pub fn new(out: F) -> Self {
        Lines {
            out,
            last: Instant::now(),
        }
    }
}

impl<F: FnMut(&str)> BuildLog for Lines<F> {
    fn note(&mut self, line: &str) {
        (self.out)(line);
    }

    fn progress(&mut self, p: &Progress) {
        if p.done == p.total || self.last.elapsed() >= Duration::from_secs(2) {
            self.last = Instant::now();
            (self.out)(&progress_line(p));
        }
    }
}

/// One line of progress: `book: pass 2: 120/3628 valued, ...`.
pub fn progress_line(p: &Progress) -> String {
    format!(
        "book: pass {}: {}/{} valued, {} positions, {} searched, {} from the work file, {:.0} s",
        p.pass,
        p.done,
        p.total,
        p.positions,
        p.searched,
        p.reused,
        p.elapsed.as_secs_f64()
    )
}

/// The book under construction, over one Othello variant's search.
pub struct Builder<'a, const R: bool, E: Evaluator<Othello<R>>> {
    eval: &'a E,
    tt: TranspositionTable,
    cache: Cache,
    nodes: HashMap<(u64, u64), Entry>,
    depth: u32,
    searched: usize,
    reused: usize,
    started: Instant,
    pass: u32,
    report: &'a mut dyn BuildLog,
}

/// Rounds a score in [`DISC`] units to whole discs.
fn discs(score: i32) -> i8 {
    Score::from_centi(score).rounded_discs().clamp(-64, 64) as i8
}

impl<'a, const R: bool, E: Evaluator<Othello<R>>> Builder<'a, R, E> {
    /// A builder valuing at `depth`, starting from `book`'s positions, with
    /// its valuations kept in `work` (if given).
    ///
    /// # Errors
    /// The work file cannot be read or written, or no memory for the table.
    pub fn new(
        eval: &'a E,
        depth: u32,
        book: Option<&Book>,
        work: Option<&Path>,
        report: &'a mut dyn BuildLog,
    ) -> Result<Self, String> {
        let cache = Cache::open(work, report)?;
        let tt = TranspositionTable::try_new(TABLE_MB).map_err(|e| e.to_string())?;
        let mut nodes = HashMap::new();
        for e in book.map(Book::entries).unwrap_or_default() {
            nodes.insert(e.key(), *e);
        }
        Ok(Builder {
            eval,
            tt,
            cache,
            nodes,
            depth: depth.clamp(1, 40),
            searched: 0,
            reused: 0,
            started: Instant::now(),
            pass: 0,
            report,
        })
    }

    /// The best move of `board` among those not in `excluded` and its value,
    /// by iterative deepening over a principal-variation root, from a
    /// cleared table.
    fn search(&mut self, board: Board, excluded: u64) -> Valued {
        let allowed = board.moves() & !excluded;
        self.tt.clear();
        let stop = AtomicBool::new(false);
        let mut scratch = Scratch::default();
        let mut search = Midgame::<R, E>::new(self.eval, &self.tt, &stop, None, None, &mut scratch);
        search.set_selectivity(Selectivity::DEFAULT);
        if board.moves() == 0 {
            // A pass (its value from the full search of the other side), or
            // the end of the game (its final value).
            let score = if board.is_game_over() {
                search.search(board, 1, -INF, INF)
            } else {
                -search.search(board.pass(), self.depth, -INF, INF)
            };
            let mv = if board.is_game_over() {
                NO_MOVE
            } else {
                Move::Pass.code()
            };
            return Valued { mv, score };
        }
        if allowed == 0 {
            return Valued {
                mv: NO_MOVE,
                score: -INF,
            };
        }
        let mut order: Vec<(u8, i32)> = crate::game::bitboard::Bits(allowed)
            .map(|sq| (sq, 0))
            .collect();
        let mut best = (order[0].0, 0);
        for depth in 1..=self.depth {
            let mut alpha = -INF;
            for item in &mut order {
                let square = Square::new(item.0).expect("a square");
                let child = board.play_unchecked(square);
                let score = if alpha == -INF {
                    -search.search(child, depth - 1, -INF, INF)
                } else {
                    let probe = -search.search(child, depth - 1, -alpha - 1, -alpha);
                    if probe > alpha {
                        -search.search(child, depth - 1, -INF, -alpha)
                    } else {
                        probe
                    }
                };
                item.1 = score;
                if score > alpha {
                    alpha = score;
                    best = (item.0, score);
                }
            }
            order.sort_by_key(|item| -item.1);
        }
        Valued {
            mv: best.0,
            score: best.1,
        }
    }

    /// [`Self::search`] through the cache.
    fn valued(&mut self, board: Board, excluded: u64) -> Result<Valued, String> {
        let key = (board.player, board.opponent, excluded, self.depth as u8);
        if let Some(&v) = self.cache.done.get(&key) {
            self.reused += 1;
            return Ok(v);
        }
        let v = self.search(board, excluded);
        self.searched += 1;
        self.cache.record(key, v)?;
        Ok(v)
    }

    /// The moves of canonical `board` whose child is in the book.
    fn linked(&self, board: &Board) -> u64 {
        let mut mask = 0;
        for square in board.move_squares() {
            if self
                .nodes
                .contains_key(&key_of(board.play_unchecked(square)))
            {
                mask |= square.bit();
            }
        }
        mask
    }

    /// Values (or values again) the book position `key`: its leaf is the
    /// best of the moves not linked.
    fn value_node(&mut self, key: (u64, u64)) -> Result<(), String> {
        let board = Board::new(key.0, key.1);
        let excluded = self.linked(&board);
        let v = self.valued(board, excluded)?;
        let depth = self.depth as u8;
        if let Some(e) = self.nodes.get_mut(&key) {
            e.leaf_move = v.mv;
            e.leaf_value = discs(v.score);
            e.depth = depth;
        }
        Ok(())
    }

    /// Adds canonical positions (with the games that reached them) and
    /// values every position not yet valued at this depth, in a fixed order
    /// (nearest the start first, then by board).
    ///
    /// # Errors
    /// The work file cannot be written.
    pub fn add(&mut self, positions: &BTreeMap<(u64, u64), u32>) -> Result<(), String> {
        for (&key, &games) in positions {
            let entry = self.nodes.entry(key).or_insert(Entry {
                board: Board::new(key.0, key.1),
                value: 0,
                leaf_value: 0,
                leaf_move: NO_MOVE,
                depth: 0,
                games: 0,
            });
            entry.games = entry.games.saturating_add(games);
        }
        self.refresh()
    }

    /// Values the positions not valued at this depth, and again those whose
    /// leaf has since entered the book, until none is left; then negamaxes.
    fn refresh(&mut self) -> Result<(), String> {
        loop {
            let mut stale: Vec<(u32, (u64, u64))> = self
                .nodes
                .values()
                .filter(|e| {
                    u32::from(e.depth) != self.depth
                        || (e.leaf_move != NO_MOVE && {
                            Square::new(e.leaf_move).is_some_and(|sq| {
                                e.board
                                    .play(sq)
                                    .is_none_or(|child| self.nodes.contains_key(&key_of(child)))
                            })
                        })
                })
                .map(|e| (60 - e.board.empties(), e.key()))
                .collect();
            if stale.is_empty() {
                break;
            }
            stale.sort_unstable();
            self.pass += 1;
            let total = stale.len();
            for (done, (_, key)) in stale.into_iter().enumerate() {
                self.value_node(key)?;
                self.report.progress(&Progress {
                    pass: self.pass,
                    done: done + 1,
                    total,
                    positions: self.nodes.len(),
                    searched: self.searched,
                    reused: self.reused,
                    elapsed: self.started.elapsed(),
                });
            }
        }
        self.negamax();
        Ok(())
    }

    /// Each position's value: the best of its leaf and of its children's
    /// negated values, children first (they have fewer empty squares).
    fn negamax(&mut self) {
        let mut keys: Vec<(u32, (u64, u64))> = self
            .nodes
            .values()
            .map(|e| (e.board.empties(), e.key()))
            .collect();
        keys.sort_unstable();
        for (_, key) in keys {
            let board = Board::new(key.0, key.1);
            let entry = self.nodes[&key];
            let mut value = if entry.leaf_move == NO_MOVE {
                None
            } else {
                Some(i32::from(entry.leaf_value))
            };
            for square in board.move_squares() {
                if let Some(c) = self.nodes.get(&key_of(board.play_unchecked(square))) {
                    value = Some(value.map_or(-i32::from(c.value), |v| v.max(-i32::from(c.value))));
                }
            }
            if let Some(e) = self.nodes.get_mut(&key) {
                e.value = value.unwrap_or(i32::from(entry.leaf_value)).clamp(-64, 64) as i8;
            }
        }
    }

    /// One deviation round: the leaves within `window` discs of their
    /// position's value, at most `plies` from the start, closest first, at
    /// most `limit` of them, each added and valued. Returns how many.
    ///
    /// # Errors
    /// The work file cannot be written.
    pub fn deviate(&mut self, window: i32, plies: u32, limit: usize) -> Result<usize, String> {
        let mut leaves: Vec<(i32, u32, (u64, u64))> = self
            .nodes
            .values()
            .filter(|e| {
                e.leaf_move < 64
                    && 60 - e.board.empties() < plies
                    && i32::from(e.value) - i32::from(e.leaf_value) <= window
            })
            .map(|e| {
                let sq = Square::new(e.leaf_move).expect("a square");
                (
                    i32::from(e.value) - i32::from(e.leaf_value),
                    60 - e.board.empties(),
                    key_of(e.board.play_unchecked(sq)),
                )
            })
            .collect();
        leaves.sort_unstable();
        let mut added = BTreeMap::new();
        for (_, _, key) in leaves {
            if added.len() >= limit {
                break;
            }
            added.insert(key, 0);
        }
        let n = added.len();
        self.add(&added)?;
        Ok(n)
    }

    /// The book of the positions so far.
    pub fn book(&self, rounds: u32) -> Book {
        Book::new(
            <Othello<R> as Game>::VARIANT,
            rounds,
            self.nodes.values().copied().collect(),
        )
    }

    /// Valuations searched and taken from the work file.
    pub fn counts(&self) -> (usize, usize) {
        (self.searched, self.reused)
    }
}

/// The book key of a board: its canonical image's.
fn key_of(board: Board) -> (u64, u64) {
    let image = canonical(board).0;
    (image.player, image.opponent)
}

/// The canonical positions of `lines` (moves from the start) up to `plies`
/// plies, each with the number of lines reaching it: the position before
/// each move and the one after the `plies`-th; with `ends`, also the last
/// position of a shorter line (what `add` learns; the build's lines are
/// games and self-play of full length).
pub fn line_positions(lines: &[Vec<Move>], plies: u32, ends: bool) -> BTreeMap<(u64, u64), u32> {
    let mut counts = BTreeMap::new();
    for line in lines {
        let mut board = Board::start();
        let mut seen = Vec::new();
        for (ply, &mv) in line.iter().enumerate() {
            if ply as u32 >= plies || board.is_game_over() {
                break;
            }
            let Move::Play(sq) = mv else {
                board = board.pass();
                continue;
            };
            let Some(next) = board.play(sq) else { break };
            seen.push(key_of(board));
            board = next;
            if ply as u32 + 1 == plies && !board.is_game_over() {
                seen.push(key_of(board));
            }
        }
        if ends && !board.is_game_over() {
            seen.push(key_of(board));
        }
        seen.sort_unstable();
        seen.dedup();
        for key in seen {
            *counts.entry(key).or_insert(0u32) += 1;
        }
    }
    counts
}

/// The moves of every game of the WTHOR files (or directories) in `paths`.
///
/// # Errors
/// A file that cannot be read.
pub fn wthor_lines(paths: &[PathBuf]) -> Result<Vec<Vec<Move>>, String> {
    let mut lines = Vec::new();
    for path in paths {
        for file in crate::wthor::files_in(path).map_err(|e| e.to_string())? {
            let parsed = crate::wthor::read(&file).map_err(|e| e.to_string())?;
            for game in parsed.games {
                if let Ok(replay) = game.replay() {
                    lines.push(replay.moves);
                }
            }
        }
    }
    Ok(lines)
}

/// Self-play lines of `plies` moves from the start: each move drawn among
/// those within `spread` discs of the best by a shallow search, by a
/// generator seeded with `seed`.
pub fn selfplay_lines<const R: bool, E: Evaluator<Othello<R>>>(
    eval: &E,
    count: u32,
    plies: u32,
    spread: i32,
    seed: u64,
) -> Vec<Vec<Move>> {
    let mut rng = Rng::new(seed);
    let tt = TranspositionTable::new(1);
    let stop = AtomicBool::new(false);
    let mut scratch = Scratch::default();
    let mut lines = Vec::new();
    for _ in 0..count {
        let mut board = Board::start();
        let mut line = Vec::new();
        for _ in 0..plies {
            if board.moves() == 0 {
                break;
            }
            let mut search = Midgame::<R, E>::new(eval, &tt, &stop, None, None, &mut scratch);
            let scored: Vec<(Square, i32)> = board
                .move_squares()
                .map(|sq| (sq, -search.search(board.play_unchecked(sq), 3, -INF, INF)))
                .collect();
            let best = scored.iter().map(|s| s.1).max().unwrap_or(0);
            let near: Vec<_> = scored
                .iter()
                .filter(|s| s.1 >= best - spread * DISC)
                .collect();
            let (sq, _) = *near[rng.below(near.len() as u64) as usize];
            line.push(Move::Play(sq));
            board = board.play_unchecked(sq);
        }
        lines.push(line);
    }
    lines
}

/// Builds a book by `config`, the valuations kept in `work`, progress
/// through `report`.
///
/// # Errors
/// A source or the work file cannot be read or written.
pub fn build(
    config: &BuildConfig,
    evaluators: &Evaluators,
    work: Option<&Path>,
    report: &mut dyn BuildLog,
) -> Result<Book, String> {
    match config.variant {
        Variant::Othello => build_with(&evaluators.othello, config, work, report),
        Variant::Reversed => build_with(&evaluators.reversed, config, work, report),
        Variant::TicTacToe => Err("tic-tac-toe has no book".into()),
    }
}

fn build_with<const R: bool, E: Evaluator<Othello<R>>>(
    eval: &E,
    config: &BuildConfig,
    work: Option<&Path>,
    report: &mut dyn BuildLog,
) -> Result<Book, String> {
    let mut lines = wthor_lines(&config.wthor)?;
    let games = lines.len();
    lines.extend(selfplay_lines::<R, E>(
        eval,
        config.selfplay,
        config.plies,
        config.selfplay_spread,
        config.seed,
    ));
    let mut positions = line_positions(&lines, config.plies, false);
    positions.retain(|_, n| *n >= config.min_games);
    report.note(&format!(
        "book: {} positions of {} games and {} self-play lines, up to ply {}, reached by {}+",
        positions.len(),
        games,
        config.selfplay,
        config.plies,
        config.min_games
    ));
    let mut builder = Builder::<R, E>::new(eval, config.depth, None, work, report)?;
    builder.add(&positions)?;
    for round in 1..=config.rounds {
        let added = builder.deviate(config.window, config.deviation_plies, config.per_round)?;
        let n = builder.nodes.len();
        builder.report.note(&format!(
            "book: deviation round {round}: {added} positions added, {n} in all"
        ));
    }
    let (searched, reused) = builder.counts();
    builder.report.note(&format!(
        "book: done: {} positions, {searched} searches, {reused} from the work file, {:.0} s",
        builder.nodes.len(),
        builder.started.elapsed().as_secs_f64()
    ));
    Ok(builder.book(config.rounds))
}

/// Adds `lines` (their first `plies` moves) to `book`: the new positions
/// valued at `depth`, the book's leaves that they link valued again, the
/// values negamaxed.
///
/// # Errors
/// The work file cannot be read or written.
pub fn add_lines(
    book: &Book,
    lines: &[Vec<Move>],
    plies: u32,
    depth: u32,
    evaluators: &Evaluators,
    work: Option<&Path>,
    report: &mut dyn BuildLog,
) -> Result<Book, String> {
    fn with<const R: bool, E: Evaluator<Othello<R>>>(
        eval: &E,
        book: &Book,
        lines: &[Vec<Move>],
        plies: u32,
        depth: u32,
        work: Option<&Path>,
        report: &mut dyn BuildLog,
    ) -> Result<Book, String> {
        let mut builder = Builder::<R, E>::new(eval, depth, Some(book), work, report)?;
        // The book's own positions keep the depth they were valued at.
        builder.add(&line_positions(lines, plies, true))?;
        Ok(builder.book(book.rounds()))
    }
    match book.variant() {
        Variant::Reversed => with(
            &evaluators.reversed,
            book,
            lines,
            plies,
            depth,
            work,
            report,
        ),
        _ => with(&evaluators.othello, book, lines, plies, depth, work, report),
    }
}
