//! What a match is told on the command line, parsed into plain values: which
//! engines (`name=A cmd=./engine --flag proto=ugi`), which protocol each speaks,
//! and the time control (`movetime=100`, `60+0.5`).
//!
//! Kept apart from the referee so that every accepted spelling is unit-tested
//! and the command line only forwards strings.

use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use crate::duration::{DurationError, parse_duration, parse_movetime};
use crate::game::UnknownName;
pub use crate::protocol::Protocol;
pub use crate::search::time::TimeControl;

/// One engine of a match: how to start it and how to talk to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name used in results and game records.
    pub name: String,
    /// The program to run (no shell is involved).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The protocol it speaks.
    pub protocol: Protocol,
    /// UGI options to set before the first game (`option.Hash=16`).
    pub options: Vec<(String, String)>,
    /// Let the engine think on the opponent's time (`ponder=on`, UGI only):
    /// after each move it ponders on the reply it expects.
    pub ponder: bool,
}

/// What is wrong with an engine spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// A quote is not closed, or a backslash ends the spec: the whole spec.
    Unclosed(String),
    /// `proto=` names no protocol.
    Protocol(UnknownName),
    /// An `option.` word without `=VALUE`.
    NotAnOption(String),
    /// A word before `cmd=` that is no setting.
    Unexpected(String),
    /// No `cmd=`.
    MissingCommand,
    /// `cmd=` with nothing after the `=`.
    NoProgram,
    /// `option.NAME=VALUE` for an engine that does not speak UGI.
    OptionsNeedUgi(Protocol),
    /// `name=` with nothing after the `=`.
    EmptyName,
    /// `ponder=` neither `on` nor `off`.
    Ponder(String),
    /// `ponder=on` for an engine that does not speak UGI.
    PonderNeedsUgi(Protocol),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Unclosed(text) => {
                write!(f, "unclosed quote or a backslash at the end in '{text}'")
            }
            SpecError::Protocol(e) => e.fmt(f),
            SpecError::NotAnOption(word) => write!(f, "'{word}' is not option.NAME=VALUE"),
            SpecError::Unexpected(word) => write!(
                f,
                "unexpected '{word}' (expected name=, cmd=, proto= or option.NAME=VALUE)"
            ),
            SpecError::MissingCommand => f.write_str("missing cmd=<program>"),
            SpecError::NoProgram => f.write_str("cmd= names no program"),
            SpecError::OptionsNeedUgi(protocol) => write!(
                f,
                "option.NAME=VALUE is for UGI engines only; pass {protocol} engines their settings as arguments"
            ),
            SpecError::EmptyName => f.write_str("name= is empty"),
            SpecError::Ponder(value) => {
                write!(f, "ponder={value}: expected ponder=on or ponder=off")
            }
            SpecError::PonderNeedsUgi(protocol) => {
                write!(f, "ponder=on is for UGI engines only, not {protocol}")
            }
        }
    }
}

impl std::error::Error for SpecError {}

impl FromStr for EngineSpec {
    type Err = SpecError;

    /// `name=A cmd=./path arg1 arg2 proto=ugi option.Hash=16 ponder=on`:
    /// words after `cmd=` are the program's arguments until the next
    /// `name=`, `proto=`, `ponder=` or `option.X=` word. Quotes group words with spaces. `proto` defaults to
    /// ugi and `name` to the program's file name.
    fn from_str(text: &str) -> Result<EngineSpec, SpecError> {
        // Words as a POSIX shell splits them (quotes group, a backslash
        // escapes), by the shlex crate.
        let words = shlex::split(text).ok_or_else(|| SpecError::Unclosed(text.to_string()))?;
        let mut name = None;
        let mut command: Option<Vec<String>> = None;
        let mut protocol = Protocol::Ugi;
        let mut options = Vec::new();
        let mut ponder = false;
        for word in words {
            if let Some(value) = word.strip_prefix("name=") {
                name = Some(value.to_string());
            } else if let Some(value) = word.strip_prefix("ponder=") {
                ponder = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(SpecError::Ponder(value.to_string())),
                };
            } else if let Some(value) = word
                .strip_prefix("proto=")
                .or_else(|| word.strip_prefix("protocol="))
            {
                protocol = value.parse().map_err(SpecError::Protocol)?;
            } else if let Some(option) = word.strip_prefix("option.") {
                let (key, value) = option
                    .split_once('=')
                    .ok_or_else(|| SpecError::NotAnOption(word.clone()))?;
                options.push((key.to_string(), value.to_string()));
            } else if let Some(program) = word.strip_prefix("cmd=") {
                command = Some(vec![program.to_string()]);
            } else if let Some(command) = command.as_mut() {
                command.push(word);
            } else {
                return Err(SpecError::Unexpected(word));
            }
        }
        let mut command = command.ok_or(SpecError::MissingCommand)?;
        let program = command.remove(0);
        if program.is_empty() {
            return Err(SpecError::NoProgram);
        }
        if !options.is_empty() && protocol != Protocol::Ugi {
            return Err(SpecError::OptionsNeedUgi(protocol));
        }
        if ponder && protocol != Protocol::Ugi {
            return Err(SpecError::PonderNeedsUgi(protocol));
        }
        let name = name.unwrap_or_else(|| {
            Path::new(&program)
                .file_stem()
                .map_or_else(|| program.clone(), |s| s.to_string_lossy().into_owned())
        });
        if name.is_empty() {
            return Err(SpecError::EmptyName);
        }
        Ok(EngineSpec {
            name,
            program,
            args: command,
            protocol,
            options,
            ponder,
        })
    }
}

/// What is wrong with a time control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControlError {
    /// The time of `movetime=TIME` is not a time, or out of range.
    MoveTime(DurationError),
    /// Neither `movetime=TIME` nor `MAIN+INCREMENT`: the control as given.
    NotAControl(String),
    /// A clock whose main time is zero: the control as given.
    NoMainTime(String),
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlError::MoveTime(e) => e.fmt(f),
            TimeControlError::NotAControl(s) => write!(
                f,
                "'{s}' is not a time control (expected movetime=TIME or MAIN+INCREMENT in seconds, like 60+0.5)"
            ),
            TimeControlError::NoMainTime(s) => write!(f, "'{s}': the main time must be positive"),
        }
    }
}

impl std::error::Error for TimeControlError {}

/// Read here rather than beside the type: the syntax is the command line's
/// (`duration::parse_duration`), a layer above the search.
impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// `movetime=TIME` in the command line's time syntax (`movetime=100`
    /// is 100 ms, `movetime=0.1s`), or a clock `MAIN+INC` whose bare numbers
    /// are seconds, as in cutechess-cli's `tc` (`60+0.5`, `300`, `1m+500ms`).
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let s = s.trim();
        if let Some(value) = s.strip_prefix("movetime=") {
            let time = parse_movetime(value).map_err(TimeControlError::MoveTime)?;
            return Ok(TimeControl::MoveTime(time));
        }
        let seconds = |part: &str| -> Result<Duration, TimeControlError> {
            let bare = part.trim().parse::<f64>().ok();
            let time = match bare {
                Some(v) => Some(v)
                    .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7)
                    .map(Duration::from_secs_f64),
                None => parse_duration(part, Duration::ZERO, Duration::from_secs(10_000_000)).ok(),
            };
            time.ok_or_else(|| TimeControlError::NotAControl(s.to_string()))
        };
        let (main, increment) = match s.split_once('+') {
            Some((main, increment)) => (seconds(main)?, seconds(increment)?),
            None => (seconds(s)?, Duration::ZERO),
        };
        if main.is_zero() {
            return Err(TimeControlError::NoMainTime(s.to_string()));
        }
        Ok(TimeControl::Clock { main, increment })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ponder_on_or_off_for_ugi_only() {
        let spec: EngineSpec = "cmd=orca ponder=on".parse().unwrap();
        assert!(spec.ponder);
        assert!(spec.args.is_empty());
        let spec: EngineSpec = "ponder=off cmd=orca".parse().unwrap();
        assert!(!spec.ponder);
        assert!(!"cmd=orca".parse::<EngineSpec>().unwrap().ponder);
        assert_eq!(
            "cmd=orca ponder=yes".parse::<EngineSpec>(),
            Err(SpecError::Ponder("yes".into()))
        );
        assert!(matches!(
            "cmd=orca gtp proto=gtp ponder=on".parse::<EngineSpec>(),
            Err(SpecError::PonderNeedsUgi(_))
        ));
    }

    #[test]
    fn engine_specs() {
        let spec: EngineSpec = "name=A cmd=./target/release/orca proto=ugi"
            .parse()
            .unwrap();
        assert_eq!(spec.name, "A");
        assert_eq!(spec.program, "./target/release/orca");
        assert!(spec.args.is_empty());
        assert_eq!(spec.protocol, Protocol::Ugi);

        let spec: EngineSpec = "cmd=/opt/edax/edax -gtp --level=10 proto=GTP name=Edax"
            .parse()
            .unwrap();
        assert_eq!(spec.args, ["-gtp", "--level=10"]);
        assert_eq!((spec.name.as_str(), spec.protocol), ("Edax", Protocol::Gtp));

        let spec: EngineSpec = "cmd=bin/orca nboard proto=nboard".parse().unwrap();
        assert_eq!((spec.name.as_str(), spec.args.len()), ("orca", 1));

        let spec: EngineSpec = r#"name="Orca dev" cmd='/a b/orca' option.Hash=16"#.parse().unwrap();
        assert_eq!(spec.name, "Orca dev");
        assert_eq!(spec.program, "/a b/orca");
        assert_eq!(spec.options, [("Hash".to_string(), "16".to_string())]);
    }

    #[test]
    fn bad_engine_specs() {
        for (text, why) in [
            ("name=A", "missing cmd"),
            ("name=A proto=ugi", "missing cmd"),
            ("stray cmd=x", "unexpected 'stray'"),
            ("cmd=x proto=xboard", "unknown protocol"),
            ("cmd=x proto=gtp option.Hash=1", "UGI engines only"),
            ("cmd=x option.Hash", "option.NAME=VALUE"),
            ("cmd='x", "unclosed"),
            ("cmd= name=A", "names no program"),
        ] {
            let err = text.parse::<EngineSpec>().unwrap_err().to_string();
            assert!(err.contains(why), "{text}: {err}");
        }
    }

    #[test]
    fn time_controls() {
        let ms = Duration::from_millis;
        assert_eq!(
            "movetime=100".parse::<TimeControl>(),
            Ok(TimeControl::MoveTime(ms(100)))
        );
        assert_eq!(
            "movetime=0.25s".parse::<TimeControl>(),
            Ok(TimeControl::MoveTime(ms(250)))
        );
        assert_eq!(
            "60+0.5".parse::<TimeControl>(),
            Ok(TimeControl::Clock {
                main: ms(60_000),
                increment: ms(500)
            })
        );
        assert_eq!(
            "300".parse::<TimeControl>(),
            Ok(TimeControl::Clock {
                main: ms(300_000),
                increment: Duration::ZERO
            })
        );
        assert_eq!(
            "1m+500ms".parse::<TimeControl>(),
            Ok(TimeControl::Clock {
                main: ms(60_000),
                increment: ms(500)
            })
        );
        assert_eq!(
            "movetime=1m".parse::<TimeControl>(),
            Ok(TimeControl::MoveTime(ms(60_000)))
        );
        for bad in [
            "movetime=0",
            "movetime=fast",
            "movetime=2h",
            "0+1",
            "a+b",
            "-5",
            "",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        let message = |tc: &str| tc.parse::<TimeControl>().unwrap_err().to_string();
        assert_eq!(
            message("movetime=fast"),
            "'fast' is not a time like 500 (milliseconds), 500ms, 2.5s or 1m"
        );
        assert_eq!(
            message("a+b"),
            "'a+b' is not a time control (expected movetime=TIME or MAIN+INCREMENT in seconds, like 60+0.5)"
        );
        assert_eq!(message("0+1"), "'0+1': the main time must be positive");
        assert_eq!(TimeControl::MoveTime(ms(50)).to_string(), "movetime 50 ms");
        assert_eq!(
            "60+0.5".parse::<TimeControl>().unwrap().to_string(),
            "60 s + 0.5 s a move"
        );
    }
}
