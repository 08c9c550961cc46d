//! What a person types at the `orca play` prompt.
//!
//! A line is one move or one command. Only the shape of a move is checked here
//! (a letter and a row number, or a pass); whether it is a square of this game
//! and legal is the session's business, so that the message can say why.

use std::fmt;

use crate::game::square::is_pass_token;

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A blank line: ask again.
    Nothing,
    /// Something shaped like a move (`f5`, `F5`, `pass`), as typed.
    Move(String),
    /// Ask Orca for its best move and score.
    Hint,
    /// Take back moves to the person's previous turn.
    Undo,
    /// Play again the moves taken back.
    Redo,
    /// Start a new game with the same settings.
    New,
    /// List the commands.
    Help,
    /// Leave.
    Quit,
}

/// A line that is neither a move nor a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// A word that means nothing here.
    Unknown(String),
    /// More than one word: moves are entered one at a time.
    TooManyWords(String),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Unknown(word) => write!(
                f,
                "'{word}' is neither a move (like f5) nor a command (type help)"
            ),
            InputError::TooManyWords(line) => {
                write!(f, "one move or command per line, not '{line}'")
            }
        }
    }
}

impl std::error::Error for InputError {}

/// Whether a word looks like a move of some board: a letter, then a number.
fn looks_like_move(word: &str) -> bool {
    let mut chars = word.chars();
    let letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let digits: Vec<char> = chars.collect();
    (letter && (1..=2).contains(&digits.len()) && digits.iter().all(char::is_ascii_digit))
        || is_pass_token(word)
}

/// Reads one line typed at the prompt (any case, surrounding blanks ignored).
///
/// # Errors
/// When the line is not one move or one command.
pub fn parse_input(line: &str) -> Result<Input, InputError> {
    let mut words = line.split_whitespace();
    let Some(word) = words.next() else {
        return Ok(Input::Nothing);
    };
    if words.next().is_some() {
        return Err(InputError::TooManyWords(line.trim().to_string()));
    }
    Ok(match word.to_ascii_lowercase().as_str() {
        "hint" => Input::Hint,
        "undo" => Input::Undo,
        "redo" => Input::Redo,
        "new" => Input::New,
        "help" | "?" => Input::Help,
        "quit" | "exit" => Input::Quit,
        _ if looks_like_move(word) => Input::Move(word.to_string()),
        _ => return Err(InputError::Unknown(word.to_string())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_commands_in_any_case() {
        assert_eq!(parse_input("f5"), Ok(Input::Move("f5".into())));
        assert_eq!(parse_input("  F5 \r"), Ok(Input::Move("F5".into())));
        assert_eq!(parse_input("z9"), Ok(Input::Move("z9".into())));
        assert_eq!(parse_input("a10"), Ok(Input::Move("a10".into())));
        assert_eq!(parse_input("PASS"), Ok(Input::Move("PASS".into())));
        assert_eq!(parse_input("Hint"), Ok(Input::Hint));
        assert_eq!(parse_input("UNDO"), Ok(Input::Undo));
        assert_eq!(parse_input("redo"), Ok(Input::Redo));
        assert_eq!(parse_input("new"), Ok(Input::New));
        assert_eq!(parse_input("?"), Ok(Input::Help));
        assert_eq!(parse_input("exit"), Ok(Input::Quit));
        assert_eq!(parse_input(""), Ok(Input::Nothing));
        assert_eq!(parse_input(" \t "), Ok(Input::Nothing));
    }

    #[test]
    fn other_lines_are_refused_with_a_reason() {
        assert_eq!(
            parse_input("hello"),
            Err(InputError::Unknown("hello".into()))
        );
        assert_eq!(parse_input("f"), Err(InputError::Unknown("f".into())));
        assert_eq!(parse_input("5f"), Err(InputError::Unknown("5f".into())));
        assert_eq!(parse_input("é1"), Err(InputError::Unknown("é1".into())));
        assert_eq!(
            parse_input("f5 d6"),
            Err(InputError::TooManyWords("f5 d6".into()))
        );
        assert!(
            parse_input("hello")
                .unwrap_err()
                .to_string()
                .contains("type help")
        );
    }
}
