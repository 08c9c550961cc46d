//! `orca.Game` and the readers of game files: GGF records (GGS archives,
//! NBoard, `orca web` downloads) and WTHOR databases (the federation's
//! files, Orca's self-play database), each game as its start position and
//! moves, replayed by the rules.

use std::collections::HashMap;
use std::path::PathBuf;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use orca::game::{AnyPosition, Variant};
use orca::ggf::GgfGame;
use orca::wthor;

use crate::position::Position;

/// A game: where it starts, its moves (passes written `"pass"`), and what
/// its file says of it.
#[pyclass(module = "orca", frozen)]
pub struct Game {
    /// The start position.
    #[pyo3(get)]
    pub start: Position,
    /// The moves in order, each forced pass written `"pass"`.
    #[pyo3(get)]
    pub moves: Vec<String>,
    /// A GGF record's properties (`PB`, `PW`, `RE`, `DT`, ...); empty for
    /// a WTHOR game.
    #[pyo3(get)]
    pub properties: HashMap<String, String>,
    /// A WTHOR game's tournament number (in Orca's self-play database:
    /// how many opening moves were random).
    #[pyo3(get)]
    pub tournament: Option<u16>,
    /// A WTHOR game's players' numbers.
    #[pyo3(get)]
    pub black_player: Option<u16>,
    #[pyo3(get)]
    pub white_player: Option<u16>,
    /// A WTHOR game's theoretical score: black's final disc difference
    /// under perfect play from the file's solve depth on.
    #[pyo3(get)]
    pub theoretical_score: Option<i32>,
    /// Every position, the start first: `positions[i]` is the position
    /// before `moves[i]`, the last the end.
    positions: Vec<AnyPosition>,
}

#[pymethods]
impl Game {
    /// Every position of the game, the start first and the end last (one
    /// more than the moves).
    fn positions(&self) -> Vec<Position> {
        self.positions
            .iter()
            .copied()
            .map(Position::new_from)
            .collect()
    }

    /// The position after the last move.
    #[getter]
    fn end(&self) -> Position {
        Position::new_from(*self.positions.last().expect("the start is there"))
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Game of {}: {} moves, ending '{}'>",
            self.start.inner.variant().name(),
            self.moves.len(),
            self.end().inner
        )
    }
}

/// A GGF record as a game, its forced passes put in.
fn from_ggf(record: &GgfGame, number: usize) -> PyResult<Game> {
    let (moves, positions) = record
        .replay()
        .map_err(|e| PyValueError::new_err(format!("GGF game {number}: {e}")))?;
    Ok(Game {
        start: Position::new_from(record.start),
        moves: moves.iter().map(ToString::to_string).collect(),
        properties: record.properties.iter().cloned().collect(),
        tournament: None,
        black_player: None,
        white_player: None,
        theoretical_score: None,
        positions,
    })
}

/// The games of a GGF text: every `(;...;)` record in it.
///
/// A `ValueError` names the first record that does not read or replay.
#[pyfunction]
pub fn parse_ggf(text: &str) -> PyResult<Vec<Game>> {
    let mut games = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("(;") {
        let end = rest[start..]
            .find(";)")
            .map(|e| start + e + 2)
            .ok_or_else(|| {
                PyValueError::new_err(format!("GGF game {}: no ';)' ends it", games.len() + 1))
            })?;
        let number = games.len() + 1;
        let record: GgfGame = rest[start..end]
            .parse()
            .map_err(|e| PyValueError::new_err(format!("GGF game {number}: {e}")))?;
        games.push(from_ggf(&record, number)?);
        rest = &rest[end..];
    }
    Ok(games)
}

/// The games of a GGF file (see `parse_ggf`).
#[pyfunction]
pub fn read_ggf(path: PathBuf) -> PyResult<Vec<Game>> {
    let text = std::fs::read_to_string(&path)
        .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
    parse_ggf(&text)
}

/// The games of a WTHOR database held in memory (`bytes`).
///
/// A `ValueError` names what is wrong: a short file, a bad move byte, an
/// illegal move (with the game's number).
#[pyfunction]
pub fn parse_wthor(data: &[u8]) -> PyResult<Vec<Game>> {
    let file = wthor::parse(data).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let start = AnyPosition::start(Variant::Othello);
    file.games
        .iter()
        .enumerate()
        .map(|(i, game)| {
            let replay = game
                .replay()
                .map_err(|e| PyValueError::new_err(format!("WTHOR game {}: {e}", i + 1)))?;
            Ok(Game {
                start: Position::new_from(start),
                moves: replay.moves.iter().map(ToString::to_string).collect(),
                properties: HashMap::new(),
                tournament: Some(game.tournament),
                black_player: Some(game.black_player),
                white_player: Some(game.white_player),
                theoretical_score: Some(game.theoretical_score()),
                positions: replay
                    .positions
                    .iter()
                    .map(|&p| AnyPosition::Othello(p))
                    .collect(),
            })
        })
        .collect()
}

/// The games of a WTHOR file (`.wtb`; see `parse_wthor`).
#[pyfunction]
pub fn read_wthor(path: PathBuf) -> PyResult<Vec<Game>> {
    let data =
        std::fs::read(&path).map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
    parse_wthor(&data)
}
