//! Plain `orca`: which protocol the other side speaks, told from its first line,
//! so that GUIs and match runners that start the engine with no arguments work.
//!
//! `nboard ...` starts NBoard; a GTP command (with or without a numeric id),
//! such as `protocol_version`, `name` or `boardsize`, starts GTP; anything else
//! (`ugi`, `uci`, `isready`, ...) starts UGI. Blank lines before the first
//! command are skipped; the first command itself is then handed to the chosen
//! session as if it had been read there.

use std::io::{BufRead, Cursor, Read};
use std::sync::Arc;

use crate::eval::Evaluators;

use super::{InputLine, Output, Protocol, gtp, nboard, read_line, ugi};

/// The protocol whose session should read `first_line`.
pub fn detect(first_line: &str) -> Protocol {
    let mut words = first_line.split_whitespace();
    let mut word = words.next().unwrap_or("");
    if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) {
        // Only GTP numbers its commands.
        word = words.next().unwrap_or("");
    }
    let word = word.to_ascii_lowercase();
    if word == "nboard" {
        Protocol::Nboard
    } else if word != "quit" && gtp::command::COMMANDS.contains(&word.as_str()) {
        // `quit` is every protocol's word; UGI answers it as well as any.
        Protocol::Gtp
    } else {
        Protocol::Ugi
    }
}

/// Reads up to the first command, picks the protocol and runs its session with
/// default settings over the rest of `input`; returns the exit status.
pub fn run(mut input: Box<dyn BufRead + Send>, out: Output, evaluators: Arc<Evaluators>) -> i32 {
    let first = loop {
        match read_line(&mut input) {
            Ok(Some(InputLine::Text(text))) if !text.trim().is_empty() => break Some(text),
            Ok(Some(InputLine::Text(_))) => {}
            Ok(Some(other)) => log::warn!("ignored a first line that is not text: {other:?}"),
            Ok(None) => break None,
            Err(e) => {
                log::error!("reading stdin failed: {e}");
                break None;
            }
        }
    };
    let Some(first) = first else {
        return 0;
    };
    let protocol = detect(&first);
    log::info!(
        "first line '{}': speaking {protocol:?}",
        super::escape(&first)
    );
    let replayed: Box<dyn BufRead + Send> =
        Box::new(Cursor::new(format!("{first}\n").into_bytes()).chain(input));
    match protocol {
        Protocol::Ugi => ugi::run(&mut { replayed }, out, evaluators),
        Protocol::Nboard => nboard::run(replayed, out, evaluators, nboard::Config::default()),
        Protocol::Gtp => gtp::run(&mut { replayed }, out, evaluators, gtp::Config::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_lines() {
        assert_eq!(detect("nboard 2"), Protocol::Nboard);
        assert_eq!(detect("NBOARD 2"), Protocol::Nboard);
        assert_eq!(detect("protocol_version"), Protocol::Gtp);
        assert_eq!(detect("name"), Protocol::Gtp);
        assert_eq!(detect("1 boardsize 8"), Protocol::Gtp);
        assert_eq!(detect("clear_board"), Protocol::Gtp);
        assert_eq!(detect("ugi"), Protocol::Ugi);
        assert_eq!(detect("uci"), Protocol::Ugi);
        assert_eq!(detect("isready"), Protocol::Ugi);
        assert_eq!(detect("position startpos"), Protocol::Ugi);
        assert_eq!(detect("quit"), Protocol::Ugi);
        assert_eq!(detect("12"), Protocol::Ugi);
    }
}
