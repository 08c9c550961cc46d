//! GTP commands: one line of text in, an optional id and a typed [`Command`]
//! (or a typed error for the `?` reply) out. Pure: no I/O, no engine state.
//!
//! Lines are cleaned as the GTP 2 specification asks: control characters other
//! than tab and newline are dropped, tabs become spaces, everything after `#`
//! is a comment, and a line with nothing left is no command at all. Then an
//! optional numeric id, the command name (case-insensitive here, lower case in
//! the specification) and its arguments, all separated by whitespace.

use std::fmt;
use std::time::Duration;

use crate::game::{Color, Variant};

use super::clock::TimeSettings;

/// Every command Orca knows, in the order `list_commands` gives them.
pub const COMMANDS: [&str; 17] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "variant",
];

/// A parsed GTP command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `protocol_version`: answer `2`.
    ProtocolVersion,
    /// `name`.
    Name,
    /// `version`.
    Version,
    /// `known_command <name>`: `true` or `false`.
    KnownCommand(String),
    /// `list_commands`.
    ListCommands,
    /// `quit`.
    Quit,
    /// `boardsize <n>`.
    BoardSize(u32),
    /// `clear_board`: a new game.
    ClearBoard,
    /// `komi <x>`: accepted and ignored (Othello has no komi).
    Komi(f64),
    /// `play <colour> <move>`; the move is checked against the position later.
    Play {
        /// Who plays.
        color: Color,
        /// The move as given (`F5`, `pass`, ...).
        vertex: String,
    },
    /// `genmove <colour>`: search, play and answer the move.
    Genmove(Color),
    /// `undo`: take back the last `play` or `genmove`.
    Undo,
    /// `showboard`.
    ShowBoard,
    /// `final_score`: `B+n`, `W+n` or `0`.
    FinalScore,
    /// `time_settings <main> <byo-yomi> <stones>`.
    TimeSettings(TimeSettings),
    /// `time_left <colour> <seconds> <stones>`.
    TimeLeft {
        /// Whose clock.
        color: Color,
        /// Time left (in the byo-yomi period when `stones` is not zero).
        left: Duration,
        /// Moves left to play in the byo-yomi period; 0 in main time.
        stones: u32,
    },
    /// `variant [<name>]` (Orca's extension): show or choose the game.
    Variant(Option<Variant>),
}

/// Why a line is not a command Orca can carry out: the text of the `?` reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The command name is not one of [`COMMANDS`].
    Unknown(String),
    /// The arguments are not of the command's form.
    Syntax {
        /// The command.
        command: &'static str,
        /// What it takes.
        expected: &'static str,
    },
    /// `variant` with a name that is not one of Orca's games.
    UnknownVariant(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The specification's own wording, which controllers may compare.
            CommandError::Unknown(_) => f.write_str("unknown command"),
            CommandError::Syntax { command, expected } => {
                write!(f, "syntax error ({command} takes {expected})")
            }
            CommandError::UnknownVariant(name) => write!(
                f,
                "unknown variant '{name}' (expected othello, reversed or tictactoe)"
            ),
        }
    }
}

impl std::error::Error for CommandError {}

/// One command line: the id to echo in the reply, and the command or what is
/// wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The numeric id the line started with, if any.
    pub id: Option<u32>,
    /// The command.
    pub command: Result<Command, CommandError>,
}

/// The line without control characters, tabs or comment.
fn clean(line: &str) -> String {
    let without_comment = line.split('#').next().unwrap_or("");
    without_comment
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() && c != '\n' => None,
            c => Some(c),
        })
        .collect()
}

/// Parses one line; `None` when it holds no command (blank, or only a comment).
pub fn parse(line: &str) -> Option<Request> {
    let cleaned = clean(line);
    let mut words: Vec<&str> = cleaned.split_whitespace().collect();
    if words.is_empty() {
        return None;
    }
    let id = match words[0].parse::<u32>() {
        Ok(id) if words[0].bytes().all(|b| b.is_ascii_digit()) => {
            words.remove(0);
            Some(id)
        }
        _ => None,
    };
    let command = match words.split_first() {
        // An id alone is a command with no name.
        None => Err(CommandError::Unknown(String::new())),
        Some((name, args)) => command(&name.to_ascii_lowercase(), args),
    };
    Some(Request { id, command })
}

fn command(name: &str, args: &[&str]) -> Result<Command, CommandError> {
    let syntax = |command, expected| CommandError::Syntax { command, expected };
    let none = |command, parsed: Command| {
        if args.is_empty() {
            Ok(parsed)
        } else {
            Err(syntax(command, "no arguments"))
        }
    };
    match name {
        "protocol_version" => none("protocol_version", Command::ProtocolVersion),
        "name" => none("name", Command::Name),
        "version" => none("version", Command::Version),
        "list_commands" => none("list_commands", Command::ListCommands),
        "quit" => none("quit", Command::Quit),
        "clear_board" => none("clear_board", Command::ClearBoard),
        "undo" => none("undo", Command::Undo),
        "showboard" => none("showboard", Command::ShowBoard),
        "final_score" => none("final_score", Command::FinalScore),
        "known_command" => match args {
            [name] => Ok(Command::KnownCommand(name.to_string())),
            _ => Err(syntax("known_command", "one command name")),
        },
        "boardsize" => match args {
            [size] => size
                .parse()
                .map(Command::BoardSize)
                .map_err(|_| syntax("boardsize", "one integer")),
            _ => Err(syntax("boardsize", "one integer")),
        },
        "komi" => match args {
            [komi] => komi
                .parse::<f64>()
                .ok()
                .filter(|k| k.is_finite())
                .map(Command::Komi)
                .ok_or(syntax("komi", "one number")),
            _ => Err(syntax("komi", "one number")),
        },
        "play" => {
            const EXPECTED: &str = "a colour (black or white) and a move";
            match args {
                [color, vertex] => Ok(Command::Play {
                    color: color_of(color).ok_or(syntax("play", EXPECTED))?,
                    vertex: vertex.to_string(),
                }),
                _ => Err(syntax("play", EXPECTED)),
            }
        }
        "genmove" => match args {
            [color] => color_of(color)
                .map(Command::Genmove)
                .ok_or(syntax("genmove", "a colour (black or white)")),
            _ => Err(syntax("genmove", "a colour (black or white)")),
        },
        "time_settings" => {
            const EXPECTED: &str = "main time and byo-yomi time in seconds, and byo-yomi stones";
            match args {
                [main, byo_yomi, stones] => Ok(Command::TimeSettings(TimeSettings {
                    main: seconds(main).ok_or(syntax("time_settings", EXPECTED))?,
                    byo_yomi: seconds(byo_yomi).ok_or(syntax("time_settings", EXPECTED))?,
                    stones: stones
                        .parse()
                        .map_err(|_| syntax("time_settings", EXPECTED))?,
                })),
                _ => Err(syntax("time_settings", EXPECTED)),
            }
        }
        "time_left" => {
            const EXPECTED: &str = "a colour, seconds and stones";
            match args {
                [color, left, stones] => Ok(Command::TimeLeft {
                    color: color_of(color).ok_or(syntax("time_left", EXPECTED))?,
                    left: seconds(left).ok_or(syntax("time_left", EXPECTED))?,
                    stones: stones.parse().map_err(|_| syntax("time_left", EXPECTED))?,
                }),
                _ => Err(syntax("time_left", EXPECTED)),
            }
        }
        "variant" => match args {
            [] => Ok(Command::Variant(None)),
            [name] => name
                .parse()
                .map(|v| Command::Variant(Some(v)))
                .map_err(|_| CommandError::UnknownVariant(name.to_string())),
            _ => Err(syntax("variant", "at most one game name")),
        },
        _ => Err(CommandError::Unknown(name.to_string())),
    }
}

/// A GTP colour: `b`, `black`, `w` or `white`, any case.
fn color_of(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// Most seconds a clock reads (about 31 years): a larger number is read as
/// this, so that every finite number is one clock reading or another.
pub const MAX_SECONDS: f64 = 1e9;

/// A non-negative number of seconds (GTP sends integers; decimals are
/// accepted), finite, at most [`MAX_SECONDS`] (more is read as that).
fn seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.parse().ok()?;
    if !value.is_finite() || value < 0.0 {
        return None;
    }
    Duration::try_from_secs_f64(value.min(MAX_SECONDS)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> (Option<u32>, Command) {
        let request = parse(line).unwrap();
        (request.id, request.command.unwrap())
    }

    fn err(line: &str) -> CommandError {
        parse(line).unwrap().command.unwrap_err()
    }

    #[test]
    fn commands_ids_and_cleaning() {
        assert_eq!(ok("protocol_version"), (None, Command::ProtocolVersion));
        assert_eq!(ok("7 name"), (Some(7), Command::Name));
        assert_eq!(ok("\tversion # a comment\r"), (None, Command::Version));
        assert_eq!(ok("LIST_COMMANDS"), (None, Command::ListCommands));
        assert_eq!(ok("boardsize 8"), (None, Command::BoardSize(8)));
        assert_eq!(ok("komi 0.5").1, Command::Komi(0.5));
        assert_eq!(
            ok("known_command genmove").1,
            Command::KnownCommand("genmove".into())
        );
        assert_eq!(
            ok("play B F5").1,
            Command::Play {
                color: Color::Black,
                vertex: "F5".into()
            }
        );
        assert_eq!(ok("genmove white").1, Command::Genmove(Color::White));
        assert_eq!(
            ok("time_settings 300 5 0").1,
            Command::TimeSettings(TimeSettings {
                main: Duration::from_secs(300),
                byo_yomi: Duration::from_secs(5),
                stones: 0
            })
        );
        assert_eq!(
            ok("time_left w 12.5 3").1,
            Command::TimeLeft {
                color: Color::White,
                left: Duration::from_millis(12_500),
                stones: 3
            }
        );
        assert_eq!(ok("variant").1, Command::Variant(None));
        assert_eq!(
            ok("variant reversed").1,
            Command::Variant(Some(Variant::Reversed))
        );
        assert_eq!(parse(""), None);
        assert_eq!(parse("   # only a comment"), None);
        assert_eq!(parse("\u{1}\u{7}"), None);
    }

    #[test]
    fn errors() {
        assert_eq!(err("fly"), CommandError::Unknown("fly".into()));
        assert_eq!(err("fly").to_string(), "unknown command");
        assert_eq!(err("42").to_string(), "unknown command");
        assert_eq!(parse("42 fly").unwrap().id, Some(42));
        for bad in [
            "name now",
            "boardsize",
            "boardsize eight",
            "komi x",
            "play black",
            "play red f5",
            "play black f5 extra",
            "genmove",
            "genmove purple",
            "time_settings 1 2",
            "time_settings -1 0 0",
            "time_left black ten 0",
            "time_left black 10 -1",
            "time_left black inf 0",
            "time_left black nan 0",
            "time_left black 1e400 0",
            "known_command",
            "variant a b",
        ] {
            assert!(
                matches!(err(bad), CommandError::Syntax { .. }),
                "{bad}: {:?}",
                err(bad)
            );
        }
        assert!(err("play black").to_string().starts_with("syntax error"));
        assert_eq!(
            err("variant chess"),
            CommandError::UnknownVariant("chess".into())
        );
    }

    /// Every finite non-negative number of seconds is a clock reading:
    /// beyond 10^9 s it reads as 10^9 s (where `1.9e19` once overflowed).
    #[test]
    fn seconds_have_one_range() {
        let left = |line: &str| match ok(line).1 {
            Command::TimeLeft { left, .. } => left,
            other => panic!("{other:?}"),
        };
        assert_eq!(left("time_left b 2.5 0"), Duration::from_millis(2500));
        assert_eq!(left("time_left b 2e1 0"), Duration::from_secs(20));
        let most = Duration::from_secs(1_000_000_000);
        for big in ["1e9", "1e19", "1.9e19", "1e300"] {
            assert_eq!(left(&format!("time_left w {big} 0")), most, "{big}");
        }
    }

    #[test]
    fn list_has_every_parsed_command() {
        for name in COMMANDS {
            assert_ne!(
                parse(name).unwrap().command,
                Err(CommandError::Unknown(name.to_string())),
                "{name}"
            );
        }
    }
}
