//! UGI commands: one line of text in, one typed [`Command`] (or a typed error
//! that says what is wrong) out. Pure: no I/O, no engine state.
//!
//! A line is split into tokens at every whitespace character, Unicode's
//! included (space, tab, `\r`, `\x0b`, `\x0c`, U+00A0, ...), the same set
//! everywhere, so no part of a line is ever dropped unread; command words and
//! keywords are matched case-insensitively, and numbers (parsed with `nom`)
//! must be whole tokens of decimal digits: no sign.

use std::time::Duration;

use nom::character::complete::digit1;
use nom::combinator::{all_consuming, map_res};
use nom::{IResult, Parser};

use crate::engine::GoLimits;
pub use crate::protocol::CommandError;

/// A parsed UGI command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ugi`: identify and list options, then `ugiok`.
    Ugi,
    /// `uci`: the same, then `uciok` (a UCI tool's handshake).
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <N> [value <V>]`.
    SetOption {
        /// Option name as given (matched case-insensitively later).
        name: String,
        /// The value, if any.
        value: Option<String>,
    },
    /// `uginewgame`.
    NewGame,
    /// `position startpos|fen <pos> <side> [moves ...]`.
    Position {
        /// Where the move list starts.
        start: StartPosition,
        /// Move tokens as given.
        moves: Vec<String>,
    },
    /// `go [limits]`.
    Go(GoLimits),
    /// `stop`.
    Stop,
    /// `query p1turn|gameover|result`.
    Query(Query),
    /// `quit`.
    Quit,
    /// `d`: show the position (extension).
    Display,
    /// `perft <depth>` (extension).
    Perft(u32),
    /// `eval`: static evaluation (extension).
    Eval,
}

/// The start of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// The game's initial position.
    StartPos,
    /// A position string: squares and side to move, as given.
    Fen(String),
}

/// What `query` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// Is it the first player's (black's) turn?
    P1Turn,
    /// Is the game over?
    GameOver,
    /// Who won?
    Result,
}

/// All the tokens of a line: what lies between runs of whitespace (any
/// character Unicode calls whitespace).
fn tokens(input: &str) -> Vec<&str> {
    input.split_whitespace().collect()
}

/// A whole token of decimal digits that fits the type (no sign, no spaces):
/// the one form of a number in UGI, for `go` limits and option values alike.
pub fn number<T: std::str::FromStr>(text: &str) -> Option<T> {
    let parsed: IResult<&str, T> = all_consuming(map_res(digit1, str::parse::<T>)).parse(text);
    parsed.ok().map(|(_, n)| n)
}

/// Parses one line. Blank lines are `Ok(None)` (UGI ignores them).
///
/// # Errors
/// A [`CommandError`] saying what is wrong.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let words = tokens(line);
    let Some((&first, args)) = words.split_first() else {
        return Ok(None);
    };
    let command = match first.to_ascii_lowercase().as_str() {
        "ugi" => no_arguments("ugi", args, Command::Ugi)?,
        "uci" => no_arguments("uci", args, Command::Uci)?,
        "isready" => no_arguments("isready", args, Command::IsReady)?,
        "uginewgame" => no_arguments("uginewgame", args, Command::NewGame)?,
        "ucinewgame" => no_arguments("ucinewgame", args, Command::NewGame)?,
        "stop" => no_arguments("stop", args, Command::Stop)?,
        "quit" => no_arguments("quit", args, Command::Quit)?,
        "d" => no_arguments("d", args, Command::Display)?,
        "eval" => no_arguments("eval", args, Command::Eval)?,
        "setoption" => set_option(args)?,
        "position" => position(args)?,
        "go" => Command::Go(go(args)?),
        "query" => query(args)?,
        "perft" => perft(args)?,
        _ => return Err(CommandError::Unknown(first.to_string())),
    };
    Ok(Some(command))
}

fn no_arguments(
    command: &'static str,
    args: &[&str],
    parsed: Command,
) -> Result<Command, CommandError> {
    match args.first() {
        None => Ok(parsed),
        Some(token) => Err(CommandError::Unexpected {
            command,
            token: token.to_string(),
        }),
    }
}

fn set_option(args: &[&str]) -> Result<Command, CommandError> {
    const COMMAND: &str = "setoption";
    match args.first() {
        Some(word) if word.eq_ignore_ascii_case("name") => {}
        Some(word) => {
            return Err(CommandError::Unexpected {
                command: COMMAND,
                token: word.to_string(),
            });
        }
        None => {
            return Err(CommandError::Missing {
                command: COMMAND,
                what: "'name <option>'",
            });
        }
    }
    let rest = &args[1..];
    let split = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name, value) = match split {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(CommandError::Missing {
            command: COMMAND,
            what: "the option name",
        });
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value: value.map(|v| v.join(" ")),
    })
}

fn position(args: &[&str]) -> Result<Command, CommandError> {
    const COMMAND: &str = "position";
    let (start, rest) = match args.split_first() {
        None => {
            return Err(CommandError::Missing {
                command: COMMAND,
                what: "'startpos' or 'fen <position> <side>'",
            });
        }
        Some((word, rest)) if word.eq_ignore_ascii_case("startpos") => {
            (StartPosition::StartPos, rest)
        }
        Some((word, rest)) if word.eq_ignore_ascii_case("fen") => {
            let end = rest
                .iter()
                .position(|t| t.eq_ignore_ascii_case("moves"))
                .unwrap_or(rest.len());
            if end == 0 {
                return Err(CommandError::Missing {
                    command: COMMAND,
                    what: "the position after 'fen'",
                });
            }
            (StartPosition::Fen(rest[..end].join(" ")), &rest[end..])
        }
        Some((word, _)) => {
            return Err(CommandError::Unexpected {
                command: COMMAND,
                token: word.to_string(),
            });
        }
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((word, moves)) if word.eq_ignore_ascii_case("moves") => {
            moves.iter().map(|m| m.to_string()).collect()
        }
        Some((word, _)) => {
            return Err(CommandError::Unexpected {
                command: COMMAND,
                token: word.to_string(),
            });
        }
    };
    Ok(Command::Position { start, moves })
}

fn go(args: &[&str]) -> Result<GoLimits, CommandError> {
    const COMMAND: &str = "go";
    let mut limits = GoLimits::default();
    let mut rest = args;
    while let Some((&key, after)) = rest.split_first() {
        let name = key.to_ascii_lowercase();
        if name == "infinite" {
            limits.infinite = true;
            rest = after;
            continue;
        }
        let known = [
            "p1time",
            "btime",
            "p2time",
            "wtime",
            "p1inc",
            "binc",
            "p2inc",
            "winc",
            "movestogo",
            "movetime",
            "depth",
            "nodes",
        ];
        if !known.contains(&name.as_str()) {
            return Err(CommandError::Unexpected {
                command: COMMAND,
                token: key.to_string(),
            });
        }
        let Some((&value, after)) = after.split_first() else {
            return Err(CommandError::BadValue {
                command: COMMAND,
                name: Some(key.to_string()),
                value: String::new(),
                expected: "a value after it",
            });
        };
        let bad = |expected| CommandError::BadValue {
            command: COMMAND,
            name: Some(key.to_string()),
            value: value.to_string(),
            expected,
        };
        let millis = || number::<u64>(value).ok_or_else(|| bad("a non-negative integer"));
        let positive = || {
            number::<u32>(value)
                .filter(|&n| n > 0)
                .ok_or_else(|| bad("a positive integer"))
        };
        match name.as_str() {
            "p1time" | "btime" => limits.p1time = Some(Duration::from_millis(millis()?)),
            "p2time" | "wtime" => limits.p2time = Some(Duration::from_millis(millis()?)),
            "p1inc" | "binc" => limits.p1inc = Some(Duration::from_millis(millis()?)),
            "p2inc" | "winc" => limits.p2inc = Some(Duration::from_millis(millis()?)),
            "movetime" => limits.movetime = Some(Duration::from_millis(millis()?)),
            "nodes" => limits.nodes = Some(millis()?),
            "movestogo" => limits.movestogo = Some(positive()?),
            _ => limits.depth = Some(positive()?),
        }
        rest = after;
    }
    Ok(limits)
}

fn query(args: &[&str]) -> Result<Command, CommandError> {
    const COMMAND: &str = "query";
    let (what, rest) = args.split_first().ok_or(CommandError::Missing {
        command: COMMAND,
        what: "p1turn, gameover or result",
    })?;
    let q = match what.to_ascii_lowercase().as_str() {
        "p1turn" => Query::P1Turn,
        "gameover" => Query::GameOver,
        "result" => Query::Result,
        _ => {
            return Err(CommandError::Unexpected {
                command: COMMAND,
                token: what.to_string(),
            });
        }
    };
    no_arguments(COMMAND, rest, Command::Query(q))
}

fn perft(args: &[&str]) -> Result<Command, CommandError> {
    const COMMAND: &str = "perft";
    let (depth, rest) = args.split_first().ok_or(CommandError::Missing {
        command: COMMAND,
        what: "the depth",
    })?;
    let depth = number::<u32>(depth)
        .filter(|d| (1..=60).contains(d))
        .ok_or_else(|| CommandError::BadValue {
            command: COMMAND,
            name: Some("depth".into()),
            value: depth.to_string(),
            expected: "an integer from 1 to 60",
        })?;
    no_arguments(COMMAND, rest, Command::Perft(depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn simple_commands_and_whitespace() {
        assert_eq!(ok("ugi"), Command::Ugi);
        assert_eq!(ok("  isready \r"), Command::IsReady);
        assert_eq!(ok("\tUGINEWGAME"), Command::NewGame);
        assert_eq!(ok("stop"), Command::Stop);
        assert_eq!(ok("quit"), Command::Quit);
        assert_eq!(ok("d"), Command::Display);
        assert_eq!(ok("eval"), Command::Eval);
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("   \t "), Ok(None));
        assert_eq!(ok("perft 5"), Command::Perft(5));
        assert_eq!(ok("query p1turn"), Command::Query(Query::P1Turn));
        assert_eq!(ok("query  GameOver"), Command::Query(Query::GameOver));
        assert_eq!(ok("query result"), Command::Query(Query::Result));
    }

    /// Every whitespace character separates tokens, so nothing after one is
    /// dropped: the extra words are seen and refused, or read as meant.
    #[test]
    fn unusual_whitespace_splits_like_a_space() {
        assert_eq!(
            parse("isready\x0bnow"),
            Err(CommandError::Unexpected {
                command: "isready",
                token: "now".into()
            })
        );
        assert_eq!(
            parse("quit\x0cnow please"),
            Err(CommandError::Unexpected {
                command: "quit",
                token: "now".into()
            })
        );
        assert_eq!(
            ok("position startpos\u{a0}moves a1 zz"),
            Command::Position {
                start: StartPosition::StartPos,
                moves: vec!["a1".into(), "zz".into()]
            }
        );
        assert_eq!(ok("\u{3000}go\u{85}depth\u{2028}3\x0b"), ok("go depth 3"));
        assert_eq!(parse("\x0b\x0c\u{a0}"), Ok(None));
        // Other control characters are no whitespace: part of a token.
        assert_eq!(
            parse("isready\x00"),
            Err(CommandError::Unknown("isready\x00".into()))
        );
    }

    #[test]
    fn uci_handshake_and_new_game() {
        assert_eq!(ok("uci"), Command::Uci);
        assert_eq!(ok("UCI"), Command::Uci);
        assert_eq!(ok("ucinewgame"), Command::NewGame);
        assert!(parse("uci now").is_err());
    }

    #[test]
    fn numbers_have_no_sign() {
        assert_eq!(number::<u64>("64"), Some(64));
        assert_eq!(number::<u64>("+64"), None);
        assert_eq!(number::<u64>("-64"), None);
        assert_eq!(number::<u64>(" 64"), None);
        assert_eq!(number::<u64>("6 4"), None);
        assert_eq!(number::<u64>(""), None);
    }

    #[test]
    fn setoption_names_and_values() {
        assert_eq!(
            ok("setoption name Hash value 128"),
            Command::SetOption {
                name: "Hash".into(),
                value: Some("128".into())
            }
        );
        assert_eq!(
            ok("setoption name Move Overhead value 20"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("20".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(parse("setoption").is_err());
        assert!(parse("setoption name").is_err());
        assert!(parse("setoption Hash 1").is_err());
    }

    #[test]
    fn positions() {
        assert_eq!(
            ok("position startpos"),
            Command::Position {
                start: StartPosition::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            ok("position startpos moves f5 d6 pass"),
            Command::Position {
                start: StartPosition::StartPos,
                moves: vec!["f5".into(), "d6".into(), "pass".into()]
            }
        );
        let start = "---------------------------OX------XO--------------------------- X";
        assert_eq!(
            ok(&format!("position fen {start} moves f5")),
            Command::Position {
                start: StartPosition::Fen(start.into()),
                moves: vec!["f5".into()]
            }
        );
        assert!(matches!(
            parse("position"),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            parse("position fen"),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            parse("position fen moves f5"),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            parse("position begin"),
            Err(CommandError::Unexpected { .. })
        ));
        assert!(matches!(
            parse("position startpos f5"),
            Err(CommandError::Unexpected { .. })
        ));
    }

    #[test]
    fn go_limits_and_aliases() {
        let Command::Go(l) = ok("go p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5") else {
            panic!()
        };
        let ms = |t| Some(Duration::from_millis(t));
        assert_eq!(
            (l.p1time, l.p2time, l.p1inc, l.p2inc, l.movestogo),
            (ms(1000), ms(2000), ms(10), ms(20), Some(5))
        );
        let Command::Go(l) = ok("go wtime 3 btime 4 winc 5 binc 6") else {
            panic!()
        };
        assert_eq!(
            (l.p1time, l.p2time, l.p1inc, l.p2inc),
            (ms(4), ms(3), ms(6), ms(5))
        );
        let Command::Go(l) = ok("go movetime 50 depth 7 nodes 1000 infinite") else {
            panic!()
        };
        assert_eq!(
            (l.movetime, l.depth, l.nodes, l.infinite),
            (ms(50), Some(7), Some(1000), true)
        );
        assert_eq!(ok("go"), Command::Go(GoLimits::default()));
    }

    #[test]
    fn go_rejects_bad_values() {
        for bad in [
            "go movetime -5",
            "go movetime abc",
            "go movetime",
            "go depth 0",
            "go depth 1.5",
            "go nodes 99999999999999999999999",
            "go p1time +3",
            "go ponder",
            "go movetime 10 movetime",
        ] {
            let err = parse(bad).unwrap_err();
            assert!(err.to_string().starts_with("go: "), "{bad}: {err}");
        }
        assert_eq!(
            parse("go movetime -5").unwrap_err().to_string(),
            "go: bad value '-5' for movetime (expected a non-negative integer)"
        );
    }

    #[test]
    fn unknown_and_extra_tokens() {
        assert_eq!(
            parse("jump").unwrap_err(),
            CommandError::Unknown("jump".into())
        );
        assert!(matches!(
            parse("isready now"),
            Err(CommandError::Unexpected { .. })
        ));
        assert!(matches!(
            parse("query colour"),
            Err(CommandError::Unexpected { .. })
        ));
        assert!(matches!(parse("query"), Err(CommandError::Missing { .. })));
        assert!(parse("perft 0").is_err());
        assert!(parse("perft x").is_err());
        assert!(parse("perft").is_err());
    }
}
