//! OBF problem files: one position per line with the exact score of its moves.
//!
//! The format of the FFO endgame suite and Edax's problem sets:
//! `<64 squares> <side>; F5:+12; D3:+8; ...`, scores are the exact final disc
//! difference for the side to move under perfect play, best move first. Edax
//! writes `--:-127` for "passing is not a legal move here"; that sentinel carries
//! no information and is dropped. Lines starting with `%` or `#` are comments.

use std::fmt;
use std::str::FromStr;

use crate::game::{Move, ParseMoveError, Position, PositionError, StandardOthello};

/// The score Edax attaches to `--` when a pass is not legal.
const NO_PASS_SENTINEL: i32 = -127;

/// One problem: the position and, when the file gives them, the exact scores of
/// its moves (best first, as in the file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfProblem {
    /// The position to solve.
    pub position: Position<StandardOthello>,
    /// Every scored move given in the file.
    pub scores: Vec<(Move, i32)>,
}

impl ObfProblem {
    /// The best exact score in the file, if any move is scored.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, s)| s).max()
    }

    /// The score given for `mv`, if the file scores it.
    pub fn score_of(&self, mv: Move) -> Option<i32> {
        self.scores.iter().find(|&&(m, _)| m == mv).map(|&(_, s)| s)
    }
}

/// What is wrong with an OBF line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObfError {
    /// The position part is not a valid position string.
    Position(PositionError),
    /// A `MOVE:score` field without the colon.
    MissingColon(String),
    /// The move of a scored field is not a move.
    BadMove(ParseMoveError),
    /// The score of a field is not a signed integer.
    BadScore(String),
}

impl fmt::Display for ObfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObfError::Position(e) => write!(f, "bad position: {e}"),
            ObfError::MissingColon(s) => write!(f, "field '{s}' is not MOVE:score"),
            ObfError::BadMove(e) => write!(f, "bad move: {e}"),
            ObfError::BadScore(s) => write!(f, "bad score '{s}'"),
        }
    }
}

impl std::error::Error for ObfError {}

impl FromStr for ObfProblem {
    type Err = ObfError;

    fn from_str(line: &str) -> Result<ObfProblem, ObfError> {
        let mut fields = line.split(';');
        let position = fields
            .next()
            .unwrap_or_default()
            .parse()
            .map_err(ObfError::Position)?;
        let mut scores = Vec::new();
        for field in fields.map(str::trim).filter(|f| !f.is_empty()) {
            let (mv, score) = field
                .split_once(':')
                .ok_or_else(|| ObfError::MissingColon(field.to_string()))?;
            let mv: Move = mv.trim().parse().map_err(ObfError::BadMove)?;
            let score: i32 = score
                .trim()
                .parse()
                .map_err(|_| ObfError::BadScore(score.trim().to_string()))?;
            if !(mv == Move::Pass && score == NO_PASS_SENTINEL) {
                scores.push((mv, score));
            }
        }
        Ok(ObfProblem { position, scores })
    }
}

impl fmt::Display for ObfProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};", self.position)?;
        for (mv, score) in &self.scores {
            let name = mv.to_string().to_uppercase();
            write!(f, " {name}:{score:+};")?;
        }
        Ok(())
    }
}

/// A parse error with the 1-based line number it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfLineError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub error: ObfError,
}

impl fmt::Display for ObfLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for ObfLineError {}

/// Parses a whole OBF file, skipping blank lines and comments.
///
/// # Errors
/// The first line that does not parse, with its number.
pub fn parse(text: &str) -> Result<Vec<ObfProblem>, ObfLineError> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('%') && !l.starts_with('#'))
        .map(|(line, l)| l.parse().map_err(|error| ObfLineError { line, error }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36; D8:+34;";

    #[test]
    fn parses_a_problem_line() {
        let p: ObfProblem = FFO40.parse().unwrap();
        assert_eq!(p.position.state().0.empties(), 20);
        assert_eq!(p.scores.len(), 3);
        assert_eq!(p.best_score(), Some(38));
        assert_eq!(p.score_of("c7".parse().unwrap()), Some(36));
        assert_eq!(p.to_string(), FFO40);
    }

    #[test]
    fn drops_the_no_pass_sentinel_and_reports_errors() {
        let start = "---------------------------OX------XO--------------------------- X";
        let p: ObfProblem = format!("{start}; F5:+0; --:-127;").parse().unwrap();
        assert_eq!(p.scores.len(), 1);
        assert!(matches!(
            format!("{start}; F5+0;").parse::<ObfProblem>(),
            Err(ObfError::MissingColon(_))
        ));
        assert!(matches!(
            format!("{start}; Z5:+0;").parse::<ObfProblem>(),
            Err(ObfError::BadMove(_))
        ));
        assert!(matches!(
            format!("{start}; F5:x;").parse::<ObfProblem>(),
            Err(ObfError::BadScore(_))
        ));
        let err = parse(&format!("% comment\n{start};\nbad line\n")).unwrap_err();
        assert_eq!(err.line, 3);
    }
}
