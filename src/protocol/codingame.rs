//! CodinGame's Othello bot interaction, as documented in `protocol.md`: a thin
//! adapter over the engine.
//!
//! First the referee sends `id` (0: Orca has the discs `0` and moves first,
//! black; 1: white) and `boardSize` (8). Every turn it sends the board, one
//! row per line from the top (`.` empty, `0`, `1`), then `actionCount` and
//! that many legal actions (`d3`); Orca answers one action within the turn's
//! time (2000 ms the first turn, 150 ms after). The referee's list is
//! authoritative: a move of the engine that is not in it is replaced by the
//! first listed action. A position the opening book knows is answered from
//! it at once (unless `--no-book`). Nothing but answers goes to stdout;
//! remarks go to stderr.

use std::io::BufRead;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engine::BestMove;
use crate::eval::Evaluators;
use crate::game::{AnyPosition, Color, Variant};

use super::{InputLine, Output, SearchSettings, escape, read_line, search_blocking};

/// Search time of a turn by default (the referee allows 150 ms).
pub const DEFAULT_MOVETIME_MS: u64 = 100;

/// Search time of the first turn by default (the referee allows 2000 ms).
pub const DEFAULT_FIRST_MOVETIME_MS: u64 = 1_500;

/// The only board size Orca plays.
pub const BOARD_SIZE: usize = 8;

/// How a CodinGame session is set up (the `orca codingame` flags).
#[derive(Clone, Debug)]
pub struct Config {
    /// Table, threads, selectivity, level and book, as the other front ends.
    pub search: SearchSettings,
    /// Search time of a turn after the first.
    pub movetime: Duration,
    /// Search time of the first turn, counted from the start of the process.
    pub first_movetime: Duration,
}

/// One error line on stderr.
fn complain(message: &str) {
    eprintln!("{}", escape(&format!("orca codingame: {message}")));
}

/// The next line of text; `None` at the end of input (or when it cannot be
/// read: then there is nothing left to do either).
fn next_line(input: &mut impl BufRead) -> Option<String> {
    match read_line(input) {
        Ok(Some(InputLine::Text(text))) => Some(text.trim().to_string()),
        Ok(Some(InputLine::TooLong(n))) => {
            complain(&format!("a line of {n} bytes (too long) read as empty"));
            Some(String::new())
        }
        Ok(Some(InputLine::NotUtf8)) => {
            complain("a line that is not valid UTF-8 read as empty");
            Some(String::new())
        }
        Ok(None) => None,
        Err(e) => {
            complain(&format!("reading stdin failed: {e}"));
            None
        }
    }
}

/// The position the rows show, with `me` to move. Player 0 (`0`) is black.
///
/// # Errors
/// A message saying what is wrong with the rows.
pub fn position(rows: &[String], me: Color) -> Result<AnyPosition, String> {
    let mut squares = String::with_capacity(64);
    for (i, row) in rows.iter().enumerate() {
        if row.chars().count() != BOARD_SIZE {
            return Err(format!("row {} is not {BOARD_SIZE} cells: '{row}'", i + 1));
        }
        for c in row.chars() {
            squares.push(match c {
                '.' => '-',
                '0' => 'X',
                '1' => 'O',
                _ => return Err(format!("row {}: unknown cell '{c}'", i + 1)),
            });
        }
    }
    AnyPosition::parse(Variant::Othello, &format!("{squares} {}", me.letter()))
        .map_err(|e| e.to_string())
}

/// Runs a CodinGame session until the end of input; returns the exit status
/// (1 when the start of the input is not CodinGame's).
pub fn run(
    input: &mut impl BufRead,
    out: Output,
    evaluators: Arc<Evaluators>,
    config: Config,
    started: Instant,
) -> i32 {
    let me = match next_line(input).as_deref() {
        Some("0") => Color::Black,
        Some("1") => Color::White,
        Some(other) => {
            complain(&format!("expected the player id 0 or 1, got '{other}'"));
            return 1;
        }
        None => return 0,
    };
    match next_line(input) {
        Some(size) if size == BOARD_SIZE.to_string() => {}
        Some(size) => {
            complain(&format!("expected board size {BOARD_SIZE}, got '{size}'"));
            return 1;
        }
        None => return 0,
    }
    let (engine, reports) = match config.search.start_engine(evaluators) {
        Ok(engine) => engine,
        Err(e) => return super::start_failed(&e),
    };
    let mut first_turn = true;
    loop {
        let mut rows = Vec::with_capacity(BOARD_SIZE);
        let mut received = Instant::now();
        for i in 0..BOARD_SIZE {
            let Some(row) = next_line(input) else {
                if i > 0 {
                    complain("the input ended inside a board");
                }
                return 0;
            };
            if i == 0 {
                received = if first_turn { started } else { Instant::now() };
            }
            rows.push(row);
        }
        let Some(count) = next_line(input) else {
            complain("the input ended before the action count");
            return 0;
        };
        let count = match count.parse::<usize>() {
            Ok(n) if n <= 64 => n,
            _ => {
                complain(&format!(
                    "expected the action count, got '{count}': read as 0"
                ));
                0
            }
        };
        let mut actions = Vec::with_capacity(count);
        for _ in 0..count {
            let Some(action) = next_line(input) else {
                complain("the input ended inside the action list");
                return 0;
            };
            actions.push(action.to_ascii_lowercase());
        }
        let movetime = if first_turn {
            config.first_movetime
        } else {
            config.movetime
        };
        first_turn = false;
        let answer = match position(&rows, me) {
            Ok(position) => choose(
                &engine, &reports, position, &actions, &config, movetime, received,
            ),
            Err(e) => {
                complain(&format!("bad board ({e}): answering the first action"));
                actions.first().cloned()
            }
        };
        match answer {
            Some(action) => out.line(&action),
            None => {
                complain("no legal action: answering pass");
                out.line("pass");
            }
        }
    }
}

/// The action to play: the engine's move when the referee lists it, else the
/// first listed action.
fn choose(
    engine: &crate::engine::Engine,
    reports: &crossbeam_channel::Receiver<crate::engine::Report>,
    position: AnyPosition,
    actions: &[String],
    config: &Config,
    movetime: Duration,
    received: Instant,
) -> Option<String> {
    let mut legal = position.legal_move_names();
    legal.retain(|m| m != "pass");
    let mut listed = actions.to_vec();
    listed.sort();
    legal.sort();
    if listed != legal {
        complain(&format!(
            "the referee lists [{}], Orca finds [{}]",
            actions.join(" "),
            legal.join(" ")
        ));
    }
    if position.is_over() || position.must_pass() {
        return actions.first().cloned();
    }
    let request = config.search.movetime_request(position, movetime, received);
    let best = match search_blocking(engine, reports, request).map(|d| d.best) {
        Some(BestMove::Move(mv)) => Some(mv.to_string()),
        _ => None,
    };
    match best {
        Some(mv) if actions.contains(&mv) => Some(mv),
        other => {
            if let Some(mv) = other {
                complain(&format!("engine move {mv} is not a listed action"));
            }
            actions.first().cloned()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_from_the_top_with_player_zero_black() {
        let rows: Vec<String> = [
            "........", "........", "........", "...10...", "...01...", "........", "........",
            "........",
        ]
        .iter()
        .map(|r| r.to_string())
        .collect();
        let p = position(&rows, Color::Black).unwrap();
        assert_eq!(p, AnyPosition::start(Variant::Othello));
        let mut legal = p.legal_move_names();
        legal.sort();
        assert_eq!(legal, ["c4", "d3", "e6", "f5"]);
        let mut bad = rows.clone();
        bad[2] = "...2....".into();
        assert!(position(&bad, Color::Black).unwrap_err().contains("row 3"));
        bad[2] = ".......".into();
        assert!(
            position(&bad, Color::Black)
                .unwrap_err()
                .contains("8 cells")
        );
    }
}
