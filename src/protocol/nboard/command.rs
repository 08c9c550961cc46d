//! NBoard commands: one line of text in, one typed [`Command`] (or a typed error
//! saying what is wrong) out. Pure: no I/O, no engine state.
//!
//! NBoard lines are a command word, for `set` a property name, then arguments
//! separated by spaces; `set game` takes the rest of the line as a GGF record
//! (which has spaces inside its board). Command words are matched
//! case-insensitively, as the UGI parser does.

use crate::ggf::{GgfGame, MoveNote};
/// Why a line is not a command Orca carries out. NBoard has no error reply:
/// the session logs it to stderr and goes on.
pub use crate::protocol::CommandError;

/// Deepest `set depth` accepted: the longest game has 60 moves.
pub const MAX_DEPTH: u32 = 60;

/// A parsed NBoard command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `nboard <version>`: the first line the GUI sends.
    Nboard(u32),
    /// `set depth <n>`: the deepest search of `go` and `hint`.
    SetDepth(u32),
    /// `set game <GGF>`: the position is the end of this record.
    SetGame(Box<GgfGame>),
    /// `set contempt <n>`: the value of a book draw, centi-discs for black.
    SetContempt(i32),
    /// `move <mv>[/<eval>[/<seconds>]]`: a move was played.
    Move(MoveNote),
    /// `hint <n>`: analyse the best n moves.
    Hint(u32),
    /// `go`: choose a move.
    Go,
    /// `ping <n>`: stop, then answer `pong <n>` (the token is echoed as sent).
    Ping(String),
    /// `learn`: add the game to the book.
    Learn,
    /// `analyze`: evaluate every position of the game.
    Analyze,
    /// `quit`.
    Quit,
}

/// Splits off the first whitespace-delimited word.
fn first_word(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start();
    if text.is_empty() {
        return None;
    }
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    Some((&text[..end], &text[end..]))
}

/// Parses one line. Blank lines are `Ok(None)`.
///
/// # Errors
/// A [`CommandError`] saying what is wrong.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let Some((word, rest)) = first_word(line) else {
        return Ok(None);
    };
    let command = match word.to_ascii_lowercase().as_str() {
        "nboard" => Command::Nboard(single_number("nboard", rest, "a protocol version")?),
        "set" => set(rest)?,
        "move" => {
            let text = single("move", rest, "the move")?;
            Command::Move(text.parse().map_err(|error| CommandError::Ggf {
                command: "move",
                error,
            })?)
        }
        "hint" => {
            let n = single_number::<u32>("hint", rest, "a number of moves")?;
            if n == 0 {
                return Err(CommandError::BadValue {
                    command: "hint",
                    name: None,
                    value: "0".into(),
                    expected: "a positive number of moves",
                });
            }
            Command::Hint(n)
        }
        "go" => no_arguments("go", rest, Command::Go)?,
        "ping" => Command::Ping(single("ping", rest, "the ping number")?.to_string()),
        "learn" => no_arguments("learn", rest, Command::Learn)?,
        "analyze" => no_arguments("analyze", rest, Command::Analyze)?,
        "quit" => no_arguments("quit", rest, Command::Quit)?,
        _ => return Err(CommandError::Unknown(word.to_string())),
    };
    Ok(Some(command))
}

fn set(rest: &str) -> Result<Command, CommandError> {
    let Some((property, value)) = first_word(rest) else {
        return Err(CommandError::Missing {
            command: "set",
            what: "a property (depth, game or contempt)",
        });
    };
    match property.to_ascii_lowercase().as_str() {
        "depth" => {
            let depth = single_number::<u32>("set depth", value, "a depth")?;
            if !(1..=MAX_DEPTH).contains(&depth) {
                return Err(CommandError::BadValue {
                    command: "set depth",
                    name: None,
                    value: depth.to_string(),
                    expected: "a depth from 1 to 60",
                });
            }
            Ok(Command::SetDepth(depth))
        }
        "game" => {
            let record = value.trim();
            if record.is_empty() {
                return Err(CommandError::Missing {
                    command: "set game",
                    what: "the GGF record",
                });
            }
            let bad_record = |error| CommandError::Ggf {
                command: "set game",
                error,
            };
            let game: GgfGame = record.parse().map_err(bad_record)?;
            // A record whose moves do not replay is no position to play from.
            game.position().map_err(bad_record)?;
            Ok(Command::SetGame(Box::new(game)))
        }
        "contempt" => Ok(Command::SetContempt(single_number(
            "set contempt",
            value,
            "an integer",
        )?)),
        _ => Err(CommandError::Unknown(format!("set {property}"))),
    }
}

fn no_arguments(
    command: &'static str,
    rest: &str,
    parsed: Command,
) -> Result<Command, CommandError> {
    match first_word(rest) {
        None => Ok(parsed),
        Some((token, _)) => Err(CommandError::Unexpected {
            command,
            token: token.to_string(),
        }),
    }
}

/// The one argument of a command.
fn single<'a>(
    command: &'static str,
    rest: &'a str,
    what: &'static str,
) -> Result<&'a str, CommandError> {
    let (value, after) = first_word(rest).ok_or(CommandError::Missing { command, what })?;
    if let Some((token, _)) = first_word(after) {
        return Err(CommandError::Unexpected {
            command,
            token: token.to_string(),
        });
    }
    Ok(value)
}

/// The one numeric argument of a command.
fn single_number<T: std::str::FromStr>(
    command: &'static str,
    rest: &str,
    what: &'static str,
) -> Result<T, CommandError> {
    let value = single(command, rest, what)?;
    value.parse().map_err(|_| CommandError::BadValue {
        command,
        name: None,
        value: value.to_string(),
        expected: what,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Color, Move};
    use crate::ggf::GgfError;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    const GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-13 19:33:28 GMT]PB[Human]PW[Edax]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6//3.02];)";

    #[test]
    fn the_commands_the_gui_sends() {
        assert_eq!(ok("nboard 2"), Command::Nboard(2));
        assert_eq!(ok("set depth 12"), Command::SetDepth(12));
        assert_eq!(ok("SET Depth 1\r"), Command::SetDepth(1));
        assert_eq!(ok("set contempt -150"), Command::SetContempt(-150));
        assert_eq!(ok("hint 3"), Command::Hint(3));
        assert_eq!(ok("go"), Command::Go);
        assert_eq!(ok("ping 17"), Command::Ping("17".into()));
        assert_eq!(ok("learn"), Command::Learn);
        assert_eq!(ok("analyze"), Command::Analyze);
        assert_eq!(ok("quit"), Command::Quit);
        assert_eq!(parse("   "), Ok(None));
        let Command::Move(note) = ok("move F5/-1.50/2.5") else {
            panic!("a move");
        };
        assert_eq!(note.mv, "f5".parse::<Move>().unwrap());
        assert_eq!((note.eval, note.seconds), (Some(-1.5), Some(2.5)));
        assert_eq!(
            ok("move PA"),
            Command::Move(MoveNote {
                mv: Move::Pass,
                eval: None,
                seconds: None
            })
        );
    }

    #[test]
    fn set_game_takes_the_rest_of_the_line() {
        let Command::SetGame(game) = ok(&format!("set game {GAME}")) else {
            panic!("a game");
        };
        assert_eq!(game.moves.len(), 2);
        assert_eq!(game.position().unwrap().to_move(), Color::Black);
        assert_eq!(game.property("PW"), Some("Edax"));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let err = |line: &str| parse(line).unwrap_err();
        assert_eq!(err("fly"), CommandError::Unknown("fly".into()));
        assert_eq!(
            err("set colour red"),
            CommandError::Unknown("set colour".into())
        );
        assert!(matches!(err("set"), CommandError::Missing { .. }));
        assert!(matches!(err("set depth"), CommandError::Missing { .. }));
        assert!(matches!(err("set depth 0"), CommandError::BadValue { .. }));
        assert!(matches!(err("set depth 61"), CommandError::BadValue { .. }));
        assert!(matches!(
            err("set depth deep"),
            CommandError::BadValue { .. }
        ));
        assert!(matches!(
            err("set depth 3 4"),
            CommandError::Unexpected { .. }
        ));
        assert!(matches!(
            err("set contempt x"),
            CommandError::BadValue { .. }
        ));
        assert!(matches!(err("set game"), CommandError::Missing { .. }));
        assert!(matches!(
            err("set game (;GM[Go];)"),
            CommandError::Ggf {
                command: "set game",
                ..
            }
        ));
        assert!(matches!(
            err("set game (;GM[Othello]B[A1];)"),
            CommandError::Ggf {
                error: GgfError::Illegal(_),
                ..
            }
        ));
        assert!(matches!(err("move"), CommandError::Missing { .. }));
        assert!(matches!(
            err("move Z9"),
            CommandError::Ggf {
                command: "move",
                ..
            }
        ));
        assert_eq!(
            err("move Z9").to_string(),
            format!("move: {}", "Z9".parse::<MoveNote>().unwrap_err())
        );
        assert!(matches!(err("hint"), CommandError::Missing { .. }));
        assert!(matches!(err("hint 0"), CommandError::BadValue { .. }));
        assert!(matches!(err("hint -2"), CommandError::BadValue { .. }));
        assert!(matches!(err("go now"), CommandError::Unexpected { .. }));
        assert!(matches!(err("ping"), CommandError::Missing { .. }));
        assert!(matches!(err("nboard two"), CommandError::BadValue { .. }));
        assert_eq!(
            err("set depth 0").to_string(),
            "set depth: bad value '0' (expected a depth from 1 to 60)"
        );
    }
}
