//! A game written out as text, read the same everywhere one is typed or
//! pasted (the command line, the web page): `startpos` or a position
//! string, then moves, or moves alone from the start.

use super::{AnyMove, AnyPosition, Variant};

/// A start and the moves played from it, as given (passes may be left out
/// where forced: [`AnyPosition::play_line`] puts them in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    /// Where the moves start.
    pub start: AnyPosition,
    /// The move tokens, one a move.
    pub moves: Vec<String>,
}

/// The characters of a position string's squares (of any game).
const SQUARE_CHARS: &str = "XxOo*BbWw0-._";

impl GameLine {
    /// Reads `text`: `startpos` or a position string (squares, then the side
    /// to move), optionally followed by `moves` and a move list; or a move
    /// list alone, from the start. Moves are written with or without spaces
    /// or commas (`f5 d6 c3`, `f5d6c3`, `f5,d6`).
    pub fn parse(variant: Variant, text: &str) -> Result<GameLine, String> {
        let words: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        let (start, rest) = match words.as_slice() {
            [first, rest @ ..] if first.eq_ignore_ascii_case("startpos") => {
                (AnyPosition::start(variant), rest)
            }
            // Only squares and a side: a position string, good or not.
            [squares, side, rest @ ..]
                if squares.len() > 2 && squares.chars().all(|c| SQUARE_CHARS.contains(c)) =>
            {
                let position = AnyPosition::parse(variant, &format!("{squares} {side}"))
                    .map_err(|e| format!("'{squares} {side}': {e}"))?;
                (position, rest)
            }
            _ => (AnyPosition::start(variant), words.as_slice()),
        };
        let rest = match rest {
            [first, rest @ ..] if first.eq_ignore_ascii_case("moves") => rest,
            _ => rest,
        };
        Ok(GameLine {
            start,
            moves: split_moves(rest),
        })
    }

    /// The position after the moves.
    pub fn position(&self) -> Result<AnyPosition, String> {
        self.start
            .play_line(self.moves.iter().map(String::as_str))
            .map_err(|e| e.to_string())
    }

    /// The moves as moves of the game (passes only where written).
    pub fn parsed_moves(&self) -> Result<Vec<AnyMove>, String> {
        let variant = self.start.variant();
        self.moves
            .iter()
            .map(|m| AnyMove::parse(variant, m).map_err(|e| e.to_string()))
            .collect()
    }
}

/// The move tokens of words written with or without spaces: a word longer
/// than a move is split into moves of two characters (a written pass,
/// `pass`, stays whole).
pub fn split_moves(words: &[&str]) -> Vec<String> {
    let mut tokens = Vec::new();
    for word in words {
        if word.len() > 2 && !word.eq_ignore_ascii_case("pass") && word.is_ascii() {
            tokens.extend(word.as_bytes().chunks(2).map(|c| {
                // ASCII, so every chunk is whole characters.
                String::from_utf8_lossy(c).into_owned()
            }));
        } else {
            tokens.push(word.to_string());
        }
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    fn end(text: &str) -> Result<String, String> {
        let arg = GameLine::parse(Variant::Othello, text)?;
        arg.position().map(|p| p.to_string())
    }

    #[test]
    fn every_form_names_the_same_position() {
        let after = end("f5 d6").unwrap();
        for text in [
            "f5d6",
            "F5,d6",
            "startpos f5 d6",
            "STARTPOS moves f5d6",
            &format!("{START} f5 d6"),
            &format!("{START} moves f5 d6"),
        ] {
            assert_eq!(end(text).as_ref(), Ok(&after), "{text}");
        }
        assert_eq!(
            end("startpos").unwrap(),
            AnyPosition::start(Variant::Othello).to_string()
        );
        assert_eq!(
            end(START).unwrap(),
            AnyPosition::start(Variant::Othello).to_string()
        );
    }

    #[test]
    fn a_bad_position_string_says_so() {
        let short = format!("{} X", &START[..63]);
        let err = end(&short).unwrap_err();
        assert!(err.contains("64"), "{err}");
        assert!(end("f5 zz").unwrap_err().contains("zz"));
        assert!(end("f5 f5").is_err());
    }

    #[test]
    fn tic_tac_toe_positions() {
        let arg = GameLine::parse(Variant::TicTacToe, "X---O---- X moves c3").unwrap();
        assert_eq!(arg.position().unwrap().to_string(), "X---O---X O");
        assert_eq!(arg.parsed_moves().unwrap().len(), 1);
    }
}
