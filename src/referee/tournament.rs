//! A match: two engines, a list of openings each played twice with colours
//! swapped, `concurrency` games at once, the running tally, and an SPRT that
//! may end the match early.
//!
//! Each worker thread owns one process of each engine and reuses it from game
//! to game; an engine that lost by adjudication is killed and started afresh
//! for the next game, since its state can no longer be trusted. Results are
//! counted in the order games finish. When the stop flag is raised (Ctrl-C),
//! running games are abandoned uncounted and every process is killed before
//! [`run`] returns.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use super::client::{Client, ClientSettings, Fault, connect, side_index};
use super::game::{self, Forfeit, Interrupted, Played, Termination};
use super::openings::Opening;
use super::spec::{EngineSpec, Protocol};
use super::stats::{Pentanomial, Sprt, SprtState, Wdl};
use crate::game::{Color, Variant};
use crate::search::time::TimeControl;

/// Everything a match is run with.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are given from the first one's side.
    pub engines: [EngineSpec; 2],
    /// Standard or reversed Othello.
    pub variant: Variant,
    /// The openings, used in order, each for two games with colours swapped.
    pub openings: Vec<Opening>,
    /// Games to play.
    pub games: usize,
    /// The time control.
    pub time: TimeControl,
    /// How far past its limit a move may come before it loses on time.
    pub margin: Duration,
    /// How long an engine may take to answer anything that is not a move.
    pub silence: Duration,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop when this test decides.
    pub sprt: Option<Sprt>,
}

impl MatchConfig {
    /// Checks what can be known before any engine starts.
    ///
    /// # Errors
    /// The first problem.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_variant(self.variant)?;
        if self.engines[0].name == self.engines[1].name {
            return Err(ConfigError::SameNames(self.engines[0].name.clone()));
        }
        if self.openings.is_empty() {
            return Err(ConfigError::NoOpenings);
        }
        if let Some(o) = self
            .openings
            .iter()
            .find(|o| o.start.variant() != self.variant)
        {
            return Err(ConfigError::OpeningVariant {
                opening: o.clone(),
                variant: self.variant,
            });
        }
        if self.concurrency == 0 {
            return Err(ConfigError::NoConcurrency);
        }
        let gtp = self.engines.iter().find(|e| e.protocol == Protocol::Gtp);
        if let (Some(engine), Some(opening)) = (gtp, self.openings.iter().find(|o| !o.from_start()))
        {
            return Err(ConfigError::GtpPosition {
                engine: engine.name.clone(),
                opening: opening.clone(),
            });
        }
        Ok(())
    }

    /// The game of a given index: its pair, opening and the engine playing
    /// each colour (black first). Even games give the first engine black.
    pub fn schedule(&self, index: usize) -> (usize, usize, [usize; 2]) {
        let pair = index / 2;
        let by_colour = if index.is_multiple_of(2) {
            [0, 1]
        } else {
            [1, 0]
        };
        (pair, pair % self.openings.len(), by_colour)
    }
}

/// What makes a match impossible before any engine starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// A game GGF records cannot hold (tic-tac-toe).
    Variant(Variant),
    /// Both engines have this name.
    SameNames(String),
    /// The openings list is empty.
    NoOpenings,
    /// An opening of another game than the match's.
    OpeningVariant {
        /// The opening.
        opening: Opening,
        /// The match's game.
        variant: Variant,
    },
    /// Zero games at once.
    NoConcurrency,
    /// A GTP engine and an opening that is a set-up position.
    GtpPosition {
        /// The GTP engine's name.
        engine: String,
        /// The first such opening.
        opening: Opening,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Variant(variant) => write!(
                f,
                "matches are played in othello or reversed, not {variant}"
            ),
            ConfigError::SameNames(name) => write!(
                f,
                "both engines are named '{name}'; give them different name= values"
            ),
            ConfigError::NoOpenings => f.write_str("no openings"),
            ConfigError::OpeningVariant { opening, variant } => {
                write!(f, "opening '{opening}' is not a {variant} position")
            }
            ConfigError::NoConcurrency => f.write_str("concurrency must be at least 1"),
            ConfigError::GtpPosition { engine, opening } => write!(
                f,
                "{engine} speaks GTP, which cannot set up a position like '{opening}'; use move-list openings"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Why a match could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// The configuration is invalid.
    Config(ConfigError),
    /// An engine failed to start, or to answer its protocol's opening.
    Engine {
        /// Its name.
        name: String,
        /// Its protocol.
        protocol: Protocol,
        /// What went wrong.
        fault: Fault,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Config(e) => e.fmt(f),
            MatchError::Engine {
                name,
                protocol,
                fault,
            } => write!(f, "engine {name} ({protocol}): {fault}"),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<ConfigError> for MatchError {
    fn from(e: ConfigError) -> MatchError {
        MatchError::Config(e)
    }
}

/// Matches are Othello games (GGF records hold nothing else).
///
/// # Errors
/// [`ConfigError::Variant`] for tic-tac-toe.
pub fn check_variant(variant: Variant) -> Result<(), ConfigError> {
    match variant {
        Variant::Othello | Variant::Reversed => Ok(()),
        Variant::TicTacToe => Err(ConfigError::Variant(variant)),
    }
}

/// One finished game in its place in the match.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// 0-based game number.
    pub index: usize,
    /// The colour-swapped pair it belongs to.
    pub pair: usize,
    /// Index of its opening.
    pub opening: usize,
    /// The engine (0 or 1) playing black and white.
    pub by_colour: [usize; 2],
    /// The game itself.
    pub played: Played,
}

impl GameResult {
    /// The colour engine `engine` played.
    pub fn colour_of(&self, engine: usize) -> Color {
        if self.by_colour[0] == engine {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Points engine `engine` made: 1, 1/2 or 0.
    pub fn points(&self, engine: usize) -> f64 {
        match self.played.winner() {
            None => 0.5,
            Some(c) if c == self.colour_of(engine) => 1.0,
            Some(_) => 0.0,
        }
    }

    /// Engine `engine`'s final disc difference, when the rules ended the game.
    pub fn disc_difference(&self, engine: usize) -> Option<i32> {
        let black = self.played.black_score()?;
        Some(match self.colour_of(engine) {
            Color::Black => black,
            Color::White => -black,
        })
    }

    /// The engine that lost by adjudication, and why.
    pub fn forfeit(&self) -> Option<(usize, &Forfeit)> {
        match &self.played.termination {
            Termination::Finished => None,
            Termination::Forfeit { loser, reason } => {
                Some((self.by_colour[side_index(*loser)], reason))
            }
        }
    }
}

/// The running totals of a match, from the first engine's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Every game.
    pub games: Wdl,
    /// Games with the first engine as black, and as white.
    pub by_colour: [Wdl; 2],
    /// Complete colour-swapped pairs.
    pub pairs: Pentanomial,
    /// Sum of the first engine's disc differences over games the rules ended.
    pub disc_sum: i64,
    /// Games the rules ended.
    pub disc_games: u32,
    /// Adjudicated losses of each engine, by [`Forfeit::kind`].
    pub forfeits: [[u32; 6]; 2],
    /// Points of the first engine in pairs whose other game is still running.
    open_pairs: HashMap<usize, f64>,
}

impl Tally {
    /// Counts a finished game.
    pub fn add(&mut self, result: &GameResult) {
        let points = result.points(0);
        self.games.add(points);
        self.by_colour[side_index(result.colour_of(0))].add(points);
        if let Some(other) = self.open_pairs.remove(&result.pair) {
            self.pairs.add(points + other);
        } else {
            self.open_pairs.insert(result.pair, points);
        }
        if let Some(d) = result.disc_difference(0) {
            self.disc_sum += i64::from(d);
            self.disc_games += 1;
        }
        if let Some((engine, reason)) = result.forfeit() {
            self.forfeits[engine][reason.kind()] += 1;
        }
    }

    /// The first engine's mean disc difference over games the rules ended.
    pub fn mean_disc_difference(&self) -> Option<f64> {
        (self.disc_games > 0).then(|| self.disc_sum as f64 / f64::from(self.disc_games))
    }

    /// The SPRT's log-likelihood ratio, from the complete pairs.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        sprt.llr(&self.pairs)
    }
}

/// Why a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every game was played.
    Completed,
    /// The SPRT decided after this many games; games already running were
    /// finished and counted.
    Sprt(SprtState, u32),
    /// The stop flag was raised; running games were abandoned.
    Interrupted,
}

/// Plays a match, calling `on_game` with every finished game and the tally so
/// far (from the worker thread that played it, one call at a time). `stop` is
/// the flag Ctrl-C raises.
///
/// # Errors
/// The configuration is invalid, or an engine fails to start or to answer its
/// protocol's opening before the first game.
pub fn run(
    config: &MatchConfig,
    stop: Arc<AtomicBool>,
    on_game: impl FnMut(&GameResult, &Tally) + Send,
) -> Result<(Tally, Ending), MatchError> {
    config.validate()?;
    let settings = ClientSettings {
        variant: config.variant,
        time: config.time,
        silence: config.silence,
        stop: Arc::clone(&stop),
    };
    // Both engines start and answer before any game: a wrong command or
    // protocol ends the match here, with the reason, rather than as forfeits.
    let mut seats: [Option<Box<dyn Client>>; 2] = [None, None];
    for (seat, spec) in seats.iter_mut().zip(&config.engines) {
        match connect(spec, &settings) {
            Ok(client) => *seat = Some(client),
            Err(Fault::Interrupted) => return Ok((Tally::default(), Ending::Interrupted)),
            Err(fault) => {
                return Err(MatchError::Engine {
                    name: spec.name.clone(),
                    protocol: spec.protocol,
                    fault,
                });
            }
        }
    }
    let mut first = Some(seats);
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    // Results are counted by the worker that finished the game, under this
    // lock, so an SPRT decision halts the match before that worker can take
    // another game.
    let books = Mutex::new(Books {
        tally: Tally::default(),
        decided: None,
        on_game,
    });
    thread::scope(|scope| {
        for _ in 0..config.concurrency.min(config.games.max(1)) {
            let seats = first.take().unwrap_or_default();
            let (settings, next, halt, books) = (&settings, &next, &halt, &books);
            scope.spawn(move || {
                Worker {
                    config,
                    settings,
                    seats,
                }
                .run(next, halt, |result| {
                    let mut books = books.lock().unwrap_or_else(PoisonError::into_inner);
                    if books.record(&result, config.sprt.as_ref()) {
                        halt.store(true, Ordering::Relaxed);
                    }
                });
            });
        }
    });
    let books = books.into_inner().unwrap_or_else(PoisonError::into_inner);
    let ending = if stop.load(Ordering::Relaxed) {
        Ending::Interrupted
    } else if let Some((state, games)) = books.decided {
        Ending::Sprt(state, games)
    } else {
        Ending::Completed
    };
    Ok((books.tally, ending))
}

/// The match's running record, shared by the workers.
struct Books<F> {
    tally: Tally,
    decided: Option<(SprtState, u32)>,
    on_game: F,
}

impl<F: FnMut(&GameResult, &Tally)> Books<F> {
    /// Counts a game and reports it; true when the SPRT has just decided.
    fn record(&mut self, result: &GameResult, sprt: Option<&Sprt>) -> bool {
        self.tally.add(result);
        (self.on_game)(result, &self.tally);
        let Some(sprt) = sprt.filter(|_| self.decided.is_none()) else {
            return false;
        };
        let state = sprt.state(self.tally.llr(sprt));
        if state == SprtState::Continue {
            return false;
        }
        self.decided = Some((state, self.tally.games.games()));
        true
    }
}

/// One worker: a process of each engine, playing game after game.
struct Worker<'a> {
    config: &'a MatchConfig,
    settings: &'a ClientSettings,
    seats: [Option<Box<dyn Client>>; 2],
}

impl Worker<'_> {
    fn run(mut self, next: &AtomicUsize, halt: &AtomicBool, mut report: impl FnMut(GameResult)) {
        loop {
            if self.settings.stop.load(Ordering::Relaxed) || halt.load(Ordering::Relaxed) {
                break;
            }
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= self.config.games {
                break;
            }
            let (pair, opening, by_colour) = self.config.schedule(index);
            let Ok(played) = self.play(&self.config.openings[opening], by_colour) else {
                break;
            };
            let result = GameResult {
                index,
                pair,
                opening,
                by_colour,
                played,
            };
            if let Some((engine, _)) = result.forfeit() {
                // Killed now, started afresh for the next game.
                self.seats[engine] = None;
            }
            report(result);
        }
        if !self.settings.stop.load(Ordering::Relaxed) {
            for seat in self.seats.iter_mut().flatten() {
                seat.shut_down();
            }
        }
    }

    fn play(&mut self, opening: &Opening, by_colour: [usize; 2]) -> Result<Played, Interrupted> {
        for (side, &engine) in [Color::Black, Color::White].iter().zip(&by_colour) {
            if self.seats[engine].is_none() {
                match connect(&self.config.engines[engine], self.settings) {
                    Ok(client) => self.seats[engine] = Some(client),
                    Err(fault) => {
                        return game::unplayed(
                            opening.start,
                            &opening.moves,
                            self.config.time,
                            *side,
                            fault,
                        );
                    }
                }
            }
        }
        let [first, second] = &mut self.seats;
        let (Some(first), Some(second)) = (first.as_deref_mut(), second.as_deref_mut()) else {
            unreachable!("both seats were filled above");
        };
        let players: [&mut dyn Client; 2] = if by_colour[0] == 0 {
            [first, second]
        } else {
            [second, first]
        };
        game::play(
            players,
            opening.start,
            &opening.moves,
            self.config.time,
            self.config.margin,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyPosition;

    fn result(index: usize, winner: Option<Color>, black_score: i32) -> GameResult {
        let config_pair = index / 2;
        let by_colour = if index.is_multiple_of(2) {
            [0, 1]
        } else {
            [1, 0]
        };
        // A finished game whose end position has the wanted score for black.
        let end = match (winner, black_score) {
            (_, s) if s > 0 => "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX X",
            (_, s) if s < 0 => "OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO X",
            _ => "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO X",
        };
        let end = AnyPosition::parse(Variant::Othello, end).unwrap();
        let termination = match winner {
            Some(c) if (c == Color::Black) != (black_score > 0) => Termination::Forfeit {
                loser: c.opposite(),
                reason: Forfeit::Time("late".into()),
            },
            _ => Termination::Finished,
        };
        GameResult {
            index,
            pair: config_pair,
            opening: config_pair,
            by_colour,
            played: Played {
                start: AnyPosition::start(Variant::Othello),
                moves: Vec::new(),
                opening_moves: 0,
                end,
                termination,
            },
        }
    }

    #[test]
    fn tally_counts_pairs_discs_and_forfeits() {
        let mut tally = Tally::default();
        // Pair 0: engine 0 wins as black (+64), then loses as white (black +64).
        tally.add(&result(0, Some(Color::Black), 64));
        assert_eq!(tally.pairs.pairs(), 0);
        tally.add(&result(1, Some(Color::Black), 64));
        assert_eq!(tally.pairs, Pentanomial([0, 0, 1, 0, 0]));
        // Pair 1, in reverse order: engine 0 (white in game 3) wins on time
        // although the board favours black; game 2 is a draw.
        tally.add(&result(3, Some(Color::White), 64));
        tally.add(&result(2, None, 0));
        assert_eq!(tally.pairs, Pentanomial([0, 0, 1, 1, 0]));
        assert_eq!(
            tally.games,
            Wdl {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(
            tally.by_colour[0],
            Wdl {
                wins: 1,
                draws: 1,
                losses: 0
            }
        );
        assert_eq!(
            tally.by_colour[1],
            Wdl {
                wins: 1,
                draws: 0,
                losses: 1
            }
        );
        // Disc differences of engine 0 in the three finished games: +64, -64, 0.
        assert_eq!(tally.disc_games, 3);
        assert_eq!(tally.mean_disc_difference(), Some(0.0));
        // Engine 1 was black in game 3 and lost on time.
        assert_eq!(tally.forfeits[1][0], 1);
        assert_eq!(tally.forfeits[0], [0; 6]);
        assert!(tally.games.elo().is_some());
    }

    #[test]
    fn schedule_swaps_colours_within_a_pair() {
        let spec: EngineSpec = "name=A cmd=a".parse().unwrap();
        let config = MatchConfig {
            engines: [
                spec.clone(),
                EngineSpec {
                    name: "B".into(),
                    ..spec
                },
            ],
            variant: Variant::Othello,
            openings: super::super::openings::parse("f5d6\nf5f6\n", Variant::Othello).unwrap(),
            games: 10,
            time: TimeControl::MoveTime(Duration::from_millis(10)),
            margin: Duration::from_millis(10),
            silence: Duration::from_secs(1),
            concurrency: 1,
            sprt: None,
        };
        assert_eq!(config.validate(), Ok(()));
        assert_eq!(config.schedule(0), (0, 0, [0, 1]));
        assert_eq!(config.schedule(1), (0, 0, [1, 0]));
        assert_eq!(config.schedule(2), (1, 1, [0, 1]));
        assert_eq!(config.schedule(5), (2, 0, [1, 0]));

        let mut same = config.clone();
        same.engines[1].name = "A".into();
        assert_eq!(
            same.validate().unwrap_err().to_string(),
            "both engines are named 'A'; give them different name= values"
        );
        let mut gtp = config.clone();
        gtp.engines[1].protocol = Protocol::Gtp;
        assert_eq!(gtp.validate(), Ok(()));
        gtp.openings = super::super::openings::parse(
            "---------------------------OX------XO--------------------------- X\nd3c5f6\n",
            Variant::Othello,
        )
        .unwrap();
        // The start position itself is fine for GTP; a set-up position is not.
        assert_eq!(gtp.validate(), Ok(()));
        gtp.openings[0].start = gtp.openings[1].position();
        gtp.openings[0].moves = Vec::new();
        assert!(gtp.validate().unwrap_err().to_string().contains("GTP"));
        let mut reversed = config;
        reversed.variant = Variant::Reversed;
        assert!(
            reversed
                .validate()
                .unwrap_err()
                .to_string()
                .contains("not a reversed position")
        );
    }
}
