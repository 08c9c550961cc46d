//! The JSON of the web API as types: what the page is sent (a game's state,
//! the search's info, an error) and what it may send (a new game's
//! settings, a move, a ply, a record). serde writes and checks them; a
//! field the API does not know is refused, not ignored.

use serde::{Deserialize, Serialize};

/// A game's whole state: the page draws from nothing else.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    pub id: u64,
    /// Counts the states told: the page keeps the newest it gets.
    pub version: u64,
    pub variant: &'static str,
    /// The position shown, as the protocols write it.
    pub position: String,
    pub to_move: &'static str,
    /// The squares the side to move may play (never `pass`).
    pub legal: Vec<String>,
    pub black_discs: u32,
    pub white_discs: u32,
    /// The whole line, also past the cursor (what redo replays).
    pub moves: Vec<Ply>,
    /// How many moves of the line are played on the board shown.
    pub cursor: usize,
    pub last: Option<String>,
    /// The game is over: the board's game ended, or a side lost on time.
    pub over: bool,
    pub result: Option<String>,
    /// The clocks, when the game has a time control.
    pub clock: Option<Clock>,
    /// The whole line as one string of moves, passes left out (`f5d6c3...`).
    pub transcript: String,
    pub black: &'static str,
    pub white: &'static str,
    pub level: u8,
    pub movetime_ms: u64,
    pub hints: bool,
    /// How deep the hints search (0: until stopped or the next change).
    pub hint_depth: u32,
    /// How deep the analysis searches each position.
    pub analysis_depth: u32,
    /// The analysis' values from black's view, the start first.
    pub values: Vec<Option<f64>>,
    /// The opening book's moves of the position shown, best first.
    pub book: Vec<BookMove>,
    pub analysing: bool,
    /// What the running search is for (`move`, `hints`, `analysis`).
    pub thinking: Option<&'static str>,
}

/// The clocks of a game with a time control.
#[derive(Clone, Debug, Serialize)]
pub struct Clock {
    /// Each side's time at the start.
    pub base_ms: u64,
    /// Added after each move.
    pub increment_ms: u64,
    /// Whether a person's moves are timed too.
    pub person: bool,
    /// Black's time left now; none for an untimed person.
    pub black_ms: Option<u64>,
    pub white_ms: Option<u64>,
    /// The side whose clock runs (the page counts it down).
    pub running: Option<&'static str>,
}

/// One move of the line.
#[derive(Clone, Debug, Serialize)]
pub struct Ply {
    #[serde(rename = "move")]
    pub mv: String,
    pub color: &'static str,
    /// `person` or `orca`.
    pub by: &'static str,
    /// Orca's value of the position it moved from, in discs.
    pub score: Option<f64>,
    pub exact: bool,
    pub book: bool,
    /// Discs lost against the best move, once analysed.
    pub loss: Option<f64>,
    /// `?` or `??` for a mistake, else empty.
    pub mark: &'static str,
}

/// A move of the opening book and its value in discs.
#[derive(Clone, Debug, Serialize)]
pub struct BookMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub value: i32,
}

/// One finished iteration of the running search.
#[derive(Clone, Debug, Serialize)]
pub struct Info {
    #[serde(rename = "for")]
    pub purpose: &'static str,
    pub depth: u32,
    pub seldepth: u32,
    pub score: f64,
    pub exact: bool,
    pub selectivity: u8,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    /// The move came from the opening book.
    pub book: bool,
    pub pv: Vec<String>,
    /// Every valued root move (hints), best first.
    pub lines: Vec<Line>,
}

/// A root move's value and line.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    #[serde(rename = "move")]
    pub mv: String,
    pub score: f64,
    pub exact: bool,
    pub pv: Vec<String>,
}

/// The body of every refusal.
#[derive(Clone, Debug, Serialize)]
pub struct Error {
    pub error: String,
}

/// `POST /api/games` and `POST .../settings`: every field optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsRequest {
    /// `othello`, `reversed` or `tictactoe` (a new game only).
    pub variant: Option<String>,
    /// `person` or `orca`.
    pub black: Option<String>,
    pub white: Option<String>,
    pub level: Option<i64>,
    pub movetime_ms: Option<i64>,
    pub hints: Option<bool>,
    /// 0 (until stopped) or 1 to 60.
    pub hint_depth: Option<i64>,
    /// A game clock: each side's time (0: no clock, Orca takes its time a
    /// move).
    pub clock_ms: Option<i64>,
    /// Added to a side's clock after each of its moves.
    pub increment_ms: Option<i64>,
    /// Whether a person's moves are timed too.
    pub person_clock: Option<bool>,
}

/// `POST .../move`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    #[serde(rename = "move")]
    pub mv: String,
}

/// `POST .../goto`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Goto {
    pub ply: i64,
}

/// `POST .../load`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Load {
    pub text: String,
}

/// `POST .../analyze`: optionally the depth of each position's search.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Analyze {
    pub depth: Option<i64>,
}

/// The actions that take no argument: an empty object.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nothing {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_fields_and_wrong_types_are_refused() {
        assert!(serde_json::from_str::<SettingsRequest>(r#"{"level": 3, "colour": "x"}"#).is_err());
        assert!(serde_json::from_str::<SettingsRequest>(r#"{"hints": "yes"}"#).is_err());
        assert!(serde_json::from_str::<SettingsRequest>(r#"{"movetime_ms": 1.5}"#).is_err());
        assert!(serde_json::from_str::<Move>(r#"{"mv": "f5"}"#).is_err());
        assert!(serde_json::from_str::<Move>("[1, 2]").is_err());
        assert!(serde_json::from_str::<Nothing>(r#"{"x": 1}"#).is_err());
        let s: SettingsRequest = serde_json::from_str(r#"{"level": 3, "black": "orca"}"#).unwrap();
        assert_eq!((s.level, s.black.as_deref()), (Some(3), Some("orca")));
        let m: Move = serde_json::from_str(r#"{"move": "f5"}"#).unwrap();
        assert_eq!(m.mv, "f5");
    }

    #[test]
    fn names_on_the_wire() {
        let line = Line {
            mv: "f5".into(),
            score: -1.5,
            exact: false,
            pv: vec!["f5".into(), "d6".into()],
        };
        assert_eq!(
            serde_json::to_string(&line).unwrap(),
            r#"{"move":"f5","score":-1.5,"exact":false,"pv":["f5","d6"]}"#
        );
    }
}
