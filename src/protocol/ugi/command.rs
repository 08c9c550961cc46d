//! UGI commands: one line of text in, one typed [`Command`] (or a typed error
//! that says what is wrong) out. Pure: no I/O, no engine state.
//!
//! The grammar is written with `nom`, one parser for each part of a line:
//!
//! ```text
//! line      = ws* [command] ws*
//! command   = ugi | uci | isready | uginewgame | ucinewgame | stop | ponderhit
//!           | quit | d | eval | setoption | position | go | query | perft
//! setoption = "setoption" "name" word+ ["value" word*]
//! position  = "position" ("startpos" | "fen" word+) ["moves" word*]
//! go        = "go" ("infinite" | "ponder" | "searchmoves" move* | key number)*
//! query     = "query" ("p1turn" | "gameover" | "result")
//! perft     = "perft" number
//! number    = digit+                      (a whole word: no sign)
//! ```
//!
//! Words are separated by any whitespace character, Unicode's included
//! (space, tab, `\r`, `\x0b`, `\x0c`, U+00A0, ...), the same set everywhere,
//! so no part of a line is ever dropped unread; command words and keywords are
//! matched case-insensitively. The fen's words (up to `moves`) and the moves
//! are kept as text: whether they make a position and legal moves depends on
//! the game, which the session knows. Once the command word is read, any
//! mistake is a [`CommandError`] saying which, and the parse stops there.

use std::time::Duration;

use nom::branch::alt;
use nom::bytes::complete::{take_till1, take_while};
use nom::character::complete::digit1;
use nom::combinator::{all_consuming, cut, eof, map_res, not, opt, value, verify};
use nom::error::{ErrorKind, ParseError};
use nom::multi::{fold_many0, many0};
use nom::sequence::preceded;
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
    /// `go [limits] [searchmoves <move>...]`: the limits, and the root
    /// moves to choose from as given: `None` without `searchmoves`, `Some`
    /// (perhaps empty) with it.
    Go(GoLimits, Option<Vec<String>>),
    /// `stop`.
    Stop,
    /// `ponderhit`: the opponent played the move pondered on.
    PonderHit,
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

/// The grammar's error: nom's own while alternatives are still tried, and a
/// [`CommandError`] once the line is known to be wrong (then a
/// [`nom::Err::Failure`], which ends the parse).
#[derive(Clone, Debug, PartialEq)]
enum GrammarError {
    /// No alternative matched here (not yet an error of the line).
    Nom(ErrorKind),
    /// What is wrong with the line.
    Command(CommandError),
}

impl ParseError<&str> for GrammarError {
    fn from_error_kind(_: &str, kind: ErrorKind) -> GrammarError {
        GrammarError::Nom(kind)
    }

    fn append(_: &str, _: ErrorKind, other: GrammarError) -> GrammarError {
        other
    }
}

type Parsed<'a, T> = IResult<&'a str, T, GrammarError>;

/// Ends the parse with `error`.
fn fail<T>(error: CommandError) -> Parsed<'static, T> {
    Err(nom::Err::Failure(GrammarError::Command(error)))
}

/// Whitespace: every character Unicode calls whitespace.
fn space(input: &str) -> Parsed<'_, &str> {
    take_while(char::is_whitespace)(input)
}

/// The next word: what lies between runs of whitespace.
fn word(input: &str) -> Parsed<'_, &str> {
    preceded(space, take_till1(char::is_whitespace)).parse(input)
}

/// The end of the line (trailing whitespace included).
fn end(input: &str) -> Parsed<'_, ()> {
    value((), preceded(space, eof)).parse(input)
}

/// A keyword: a word equal to `keyword` up to ASCII case.
fn keyword<'a>(
    keyword: &'static str,
) -> impl Parser<&'a str, Output = &'a str, Error = GrammarError> {
    verify(word, move |w: &str| w.eq_ignore_ascii_case(keyword))
}

/// A whole word of decimal digits that fits the type (no sign, no spaces):
/// the one form of a number in UGI, for `go` limits and option values alike.
pub fn number<T: std::str::FromStr>(text: &str) -> Option<T> {
    let parsed: IResult<&str, T> = all_consuming(map_res(digit1, str::parse::<T>)).parse(text);
    parsed.ok().map(|(_, n)| n)
}

/// The end of a command that takes nothing more: a word here is unexpected.
fn no_more<'a>(command: &'static str) -> impl Parser<&'a str, Output = (), Error = GrammarError> {
    move |input: &'a str| match word(input) {
        Ok((_, token)) => fail(CommandError::Unexpected {
            command,
            token: token.to_string(),
        }),
        Err(_) => end(input),
    }
}

/// A command of one word.
fn bare<'a>(
    command: &'static str,
    parsed: Command,
) -> impl Parser<&'a str, Output = Command, Error = GrammarError> {
    preceded(keyword(command), cut(value(parsed, no_more(command))))
}

/// The words up to (not including) the keyword `stop`, or the end.
fn words_until<'a>(
    stop: &'static str,
) -> impl Parser<&'a str, Output = Vec<&'a str>, Error = GrammarError> {
    many0(preceded(not(keyword(stop)), word))
}

/// A missing argument: at the end of the line, `what` is missing.
fn missing<'a, T>(
    command: &'static str,
    what: &'static str,
) -> impl Parser<&'a str, Output = T, Error = GrammarError> {
    move |input: &'a str| {
        end(input)?;
        fail(CommandError::Missing { command, what })
    }
}

/// Any word here is not what `command` takes.
fn unexpected<'a, T>(
    command: &'static str,
) -> impl Parser<&'a str, Output = T, Error = GrammarError> {
    move |input: &'a str| {
        let (_, token) = word(input)?;
        fail(CommandError::Unexpected {
            command,
            token: token.to_string(),
        })
    }
}

/// `setoption name <N> [value <V>]`: the name is every word up to `value`,
/// the value every word after it (both may hold spaces).
fn set_option(input: &str) -> Parsed<'_, Command> {
    const COMMAND: &str = "setoption";
    let (input, _) = alt((
        keyword("name"),
        missing(COMMAND, "'name <option>'"),
        unexpected(COMMAND),
    ))
    .parse(input)?;
    let (input, name) = words_until("value").parse(input)?;
    if name.is_empty() {
        return fail(CommandError::Missing {
            command: COMMAND,
            what: "the option name",
        });
    }
    let (input, value) = opt(preceded(keyword("value"), many0(word))).parse(input)?;
    let (input, ()) = end(input)?;
    Ok((
        input,
        Command::SetOption {
            name: name.join(" "),
            value: value.map(|v| v.join(" ")),
        },
    ))
}

/// `position startpos|fen <position> [moves <move>...]`: the position is
/// every word up to `moves`.
fn position(input: &str) -> Parsed<'_, Command> {
    const COMMAND: &str = "position";
    let fen = |input| {
        let (input, words) = words_until("moves").parse(input)?;
        if words.is_empty() {
            return fail(CommandError::Missing {
                command: COMMAND,
                what: "the position after 'fen'",
            });
        }
        Ok((input, StartPosition::Fen(words.join(" "))))
    };
    let (input, start) = alt((
        value(StartPosition::StartPos, keyword("startpos")),
        preceded(keyword("fen"), fen),
        missing(COMMAND, "'startpos' or 'fen <position> <side>'"),
        unexpected(COMMAND),
    ))
    .parse(input)?;
    let (input, moves) = alt((
        preceded(keyword("moves"), many0(word)),
        value(Vec::new(), end),
        unexpected(COMMAND),
    ))
    .parse(input)?;
    let moves = moves.into_iter().map(str::to_string).collect();
    let (input, ()) = end(input)?;
    Ok((input, Command::Position { start, moves }))
}

/// One limit of `go`.
#[derive(Clone, Debug)]
enum Limit {
    Infinite,
    Ponder,
    SearchMoves(Vec<String>),
    P1Time(Duration),
    P2Time(Duration),
    P1Inc(Duration),
    P2Inc(Duration),
    MovesToGo(u32),
    MoveTime(Duration),
    Depth(u32),
    Nodes(u64),
}

/// The keywords of `go` that take a number (UCI's names for the clocks too).
const NUMBER_KEYS: [&str; 12] = [
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

/// Whether `name` (lower case) is a keyword of `go`: the words that end a
/// `searchmoves` list.
fn is_go_key(name: &str) -> bool {
    matches!(name, "infinite" | "ponder" | "searchmoves") || NUMBER_KEYS.contains(&name)
}

/// `infinite`, `ponder`, `searchmoves` and its moves, or a key and its number (UCI's names for the clocks too).
fn limit(input: &str) -> Parsed<'_, Limit> {
    const COMMAND: &str = "go";
    let (input, key) = word(input)?;
    let name = key.to_ascii_lowercase();
    if name == "infinite" {
        return Ok((input, Limit::Infinite));
    }
    if name == "ponder" {
        return Ok((input, Limit::Ponder));
    }
    if name == "searchmoves" {
        // The moves: every word up to the next keyword of `go`.
        let (input, moves) =
            many0(verify(word, |w: &str| !is_go_key(&w.to_ascii_lowercase()))).parse(input)?;
        let moves = moves.into_iter().map(str::to_string).collect();
        return Ok((input, Limit::SearchMoves(moves)));
    }
    if !NUMBER_KEYS.contains(&name.as_str()) {
        return fail(CommandError::Unexpected {
            command: COMMAND,
            token: key.to_string(),
        });
    }
    let bad = |value: &str, expected| CommandError::BadValue {
        command: COMMAND,
        name: Some(key.to_string()),
        value: value.to_string(),
        expected,
    };
    let Ok((input, value)) = word(input) else {
        return fail(bad("", "a value after it"));
    };
    let millis = || number::<u64>(value).ok_or_else(|| bad(value, "a non-negative integer"));
    let positive = || {
        number::<u32>(value)
            .filter(|&n| n > 0)
            .ok_or_else(|| bad(value, "a positive integer"))
    };
    let time = || millis().map(Duration::from_millis);
    let limit = match name.as_str() {
        "p1time" | "btime" => time().map(Limit::P1Time),
        "p2time" | "wtime" => time().map(Limit::P2Time),
        "p1inc" | "binc" => time().map(Limit::P1Inc),
        "p2inc" | "winc" => time().map(Limit::P2Inc),
        "movetime" => time().map(Limit::MoveTime),
        "nodes" => millis().map(Limit::Nodes),
        "movestogo" => positive().map(Limit::MovesToGo),
        _ => positive().map(Limit::Depth),
    };
    match limit {
        Ok(limit) => Ok((input, limit)),
        Err(e) => fail(e),
    }
}

/// `go [limits]`: any number of limits, a later one overriding an earlier
/// (`searchmoves` lists add up).
fn go(input: &str) -> Parsed<'_, (GoLimits, Option<Vec<String>>)> {
    let set = |(mut limits, mut moves): (GoLimits, Option<Vec<String>>), limit| {
        match limit {
            Limit::Infinite => limits.infinite = true,
            Limit::Ponder => limits.ponder = true,
            Limit::SearchMoves(more) => moves.get_or_insert_default().extend(more),
            Limit::P1Time(t) => limits.p1time = Some(t),
            Limit::P2Time(t) => limits.p2time = Some(t),
            Limit::P1Inc(t) => limits.p1inc = Some(t),
            Limit::P2Inc(t) => limits.p2inc = Some(t),
            Limit::MovesToGo(n) => limits.movestogo = Some(n),
            Limit::MoveTime(t) => limits.movetime = Some(t),
            Limit::Depth(d) => limits.depth = Some(d),
            Limit::Nodes(n) => limits.nodes = Some(n),
        }
        (limits, moves)
    };
    let (input, go) = fold_many0(limit, Default::default, set).parse(input)?;
    let (input, ()) = end(input)?;
    Ok((input, go))
}

/// `query p1turn|gameover|result`.
fn query(input: &str) -> Parsed<'_, Command> {
    const COMMAND: &str = "query";
    let (input, q) = alt((
        value(Query::P1Turn, keyword("p1turn")),
        value(Query::GameOver, keyword("gameover")),
        value(Query::Result, keyword("result")),
        missing(COMMAND, "p1turn, gameover or result"),
        unexpected(COMMAND),
    ))
    .parse(input)?;
    let (input, ()) = no_more(COMMAND).parse(input)?;
    Ok((input, Command::Query(q)))
}

/// `perft <depth>`, the depth from 1 to 60.
fn perft(input: &str) -> Parsed<'_, Command> {
    const COMMAND: &str = "perft";
    let (input, depth) = alt((word, missing(COMMAND, "the depth"))).parse(input)?;
    let Some(depth) = number::<u32>(depth).filter(|d| (1..=60).contains(d)) else {
        return fail(CommandError::BadValue {
            command: COMMAND,
            name: Some("depth".into()),
            value: depth.to_string(),
            expected: "an integer from 1 to 60",
        });
    };
    let (input, ()) = no_more(COMMAND).parse(input)?;
    Ok((input, Command::Perft(depth)))
}

/// One command, from its word on; an unknown word is an error.
fn command(input: &str) -> Parsed<'_, Command> {
    alt((
        alt((
            bare("ugi", Command::Ugi),
            bare("uci", Command::Uci),
            bare("isready", Command::IsReady),
            bare("uginewgame", Command::NewGame),
            bare("ucinewgame", Command::NewGame),
            bare("stop", Command::Stop),
            bare("ponderhit", Command::PonderHit),
            bare("quit", Command::Quit),
            bare("d", Command::Display),
            bare("eval", Command::Eval),
        )),
        preceded(keyword("setoption"), cut(set_option)),
        preceded(keyword("position"), cut(position)),
        preceded(keyword("go"), cut(go)).map(|(limits, moves)| Command::Go(limits, moves)),
        preceded(keyword("query"), cut(query)),
        preceded(keyword("perft"), cut(perft)),
        |input| {
            let (_, first) = word(input)?;
            fail(CommandError::Unknown(first.to_string()))
        },
    ))
    .parse(input)
}

/// Parses one line. Blank lines are `Ok(None)` (UGI ignores them).
///
/// # Errors
/// A [`CommandError`] saying what is wrong.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    match alt((value(None, end), command.map(Some))).parse(line) {
        Ok((_, command)) => Ok(command),
        Err(
            nom::Err::Failure(GrammarError::Command(e)) | nom::Err::Error(GrammarError::Command(e)),
        ) => Err(e),
        // Every line is blank, a command or a CommandError: this is not reached.
        Err(e) => {
            log::error!("ugi: the grammar left '{line}' unexplained: {e:?}");
            Err(CommandError::Unknown(line.trim().to_string()))
        }
    }
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
        let Command::Go(l, _) = ok("go p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5")
        else {
            panic!()
        };
        let ms = |t| Some(Duration::from_millis(t));
        assert_eq!(
            (l.p1time, l.p2time, l.p1inc, l.p2inc, l.movestogo),
            (ms(1000), ms(2000), ms(10), ms(20), Some(5))
        );
        let Command::Go(l, _) = ok("go wtime 3 btime 4 winc 5 binc 6") else {
            panic!()
        };
        assert_eq!(
            (l.p1time, l.p2time, l.p1inc, l.p2inc),
            (ms(4), ms(3), ms(6), ms(5))
        );
        let Command::Go(l, _) = ok("go movetime 50 depth 7 nodes 1000 infinite") else {
            panic!()
        };
        assert_eq!(
            (l.movetime, l.depth, l.nodes, l.infinite),
            (ms(50), Some(7), Some(1000), true)
        );
        assert_eq!(ok("go"), Command::Go(GoLimits::default(), None));
    }

    /// `ponder` is a flag; `searchmoves` takes every word up to the next
    /// keyword of `go`, the moves checked later against the position.
    #[test]
    fn go_ponder_and_searchmoves() {
        let Command::Go(l, moves) = ok("go ponder wtime 100 searchmoves f5 D6 zz depth 3") else {
            panic!()
        };
        assert!(l.ponder);
        assert_eq!(
            (l.p2time, l.depth),
            (Some(Duration::from_millis(100)), Some(3))
        );
        assert_eq!(moves.unwrap(), ["f5", "D6", "zz"]);
        let Command::Go(l, moves) = ok("go searchmoves") else {
            panic!()
        };
        assert_eq!(moves, Some(Vec::new()), "an empty list is still a list");
        assert!(!l.ponder);
        let Command::Go(_, moves) = ok("go searchmoves c4 infinite searchmoves e3") else {
            panic!()
        };
        assert_eq!(moves.unwrap(), ["c4", "e3"]);
        assert_eq!(ok("ponderhit"), Command::PonderHit);
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
            "go pondering",
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

    /// Each way a line can be wrong, with the message the user sees.
    #[test]
    fn every_mistake_has_its_message() {
        for (line, message) in [
            ("setoption", "setoption: missing 'name <option>'"),
            ("setoption Hash", "setoption: unexpected 'Hash'"),
            ("setoption name", "setoption: missing the option name"),
            (
                "setoption name value 5",
                "setoption: missing the option name",
            ),
            (
                "position",
                "position: missing 'startpos' or 'fen <position> <side>'",
            ),
            ("position begin", "position: unexpected 'begin'"),
            ("position fen", "position: missing the position after 'fen'"),
            (
                "position fen moves f5",
                "position: missing the position after 'fen'",
            ),
            ("position startpos f5", "position: unexpected 'f5'"),
            ("go ponderous", "go: unexpected 'ponderous'"),
            ("ponderhit now", "ponderhit: unexpected 'now'"),
            (
                "go movetime",
                "go: bad value '' for movetime (expected a value after it)",
            ),
            (
                "go depth 0",
                "go: bad value '0' for depth (expected a positive integer)",
            ),
            (
                "go nodes -1",
                "go: bad value '-1' for nodes (expected a non-negative integer)",
            ),
            ("query", "query: missing p1turn, gameover or result"),
            ("query colour", "query: unexpected 'colour'"),
            ("query result now", "query: unexpected 'now'"),
            ("perft", "perft: missing the depth"),
            (
                "perft 61",
                "perft: bad value '61' for depth (expected an integer from 1 to 60)",
            ),
            ("perft 5 6", "perft: unexpected '6'"),
            ("isready now", "isready: unexpected 'now'"),
            ("Jump high", "unknown command 'Jump'"),
        ] {
            assert_eq!(parse(line).unwrap_err().to_string(), message, "{line}");
        }
    }

    /// Keywords are whole words: a word that starts like one is not it.
    #[test]
    fn keywords_are_whole_words() {
        assert_eq!(parse("goo"), Err(CommandError::Unknown("goo".into())));
        assert_eq!(
            parse("position startposition"),
            Err(CommandError::Unexpected {
                command: "position",
                token: "startposition".into()
            })
        );
        assert_eq!(
            ok("position fen a movesx b"),
            Command::Position {
                start: StartPosition::Fen("a movesx b".into()),
                moves: vec![]
            }
        );
        assert_eq!(
            ok("setoption name values value value x"),
            Command::SetOption {
                name: "values".into(),
                value: Some("value x".into())
            }
        );
    }
}
