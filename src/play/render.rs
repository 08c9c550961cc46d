//! What `orca play` shows a person: the board with coordinates, the last move
//! and the legal moves marked, the status under it, and scores in words.
//!
//! Everything is returned as lines of text. With [`Style::color`] off the text is
//! plain ASCII (for pipes, logs, `--no-color` and `NO_COLOR`); with it on, ANSI
//! escapes paint a green Othello board with round discs.

use crate::engine::SearchInfo;
use crate::game::wording::side_name;
use crate::game::{AnyPosition, Color, Variant};
use crate::score::Score;

use crate::session::{By, Player, Ply, Seats, Session, Turn};

/// How the text may look on this terminal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours and non-ASCII disc symbols are allowed.
    pub color: bool,
}

/// A side with the letter the plain board uses for it: `Black (X)`; just `X` in
/// tic-tac-toe, where the name is the letter.
pub fn side_with_letter(variant: Variant, color: Color) -> String {
    match variant {
        Variant::TicTacToe => side_name(variant, color).to_string(),
        _ => format!("{} ({})", side_name(variant, color), color.letter()),
    }
}

/// Who plays a side, when that helps the person reading: "you" when one person
/// plays Orca, "Orca" for Orca's side; nothing between two people.
pub fn player_label(seats: Seats, color: Color) -> Option<&'static str> {
    match seats.player(color) {
        Player::Orca => Some("Orca"),
        Player::Person if seats.two_people() => None,
        Player::Person => Some("you"),
    }
}

/// The board index of a square name of a board `width` squares wide.
fn square_index(name: &str, width: usize) -> Option<usize> {
    match name.as_bytes() {
        [column, row] => {
            let column = usize::from(column.to_ascii_lowercase().wrapping_sub(b'a'));
            let row = usize::from(row.wrapping_sub(b'1'));
            (column < width && row < width).then_some(row * width + column)
        }
        _ => None,
    }
}

/// ANSI select-graphic-rendition codes for one symbol, resetting what came before.
fn paint(codes: &str, text: &str) -> String {
    if codes.is_empty() {
        format!("{RESET}{text}")
    } else {
        format!("\x1b[0;{codes}m{text}")
    }
}

const RESET: &str = "\x1b[0m";

/// The board with column letters across and row numbers down. The last move
/// (a square name; a pass marks nothing) is framed `[X]`; with `mark_legal`,
/// legal moves show as `*`.
pub fn board(
    position: &AnyPosition,
    last: Option<&str>,
    mark_legal: bool,
    style: Style,
) -> Vec<String> {
    let text = position.to_string();
    let squares: Vec<char> = text.split(' ').next().unwrap_or("").chars().collect();
    let width = if squares.len() == 64 { 8 } else { 3 };
    let othello = width == 8;
    let legal: Vec<usize> = if mark_legal {
        position
            .legal_move_names()
            .iter()
            .filter_map(|m| square_index(m, width))
            .collect()
    } else {
        Vec::new()
    };
    let last = last.and_then(|name| square_index(name, width));
    // Othello cells sit on green cloth; tic-tac-toe marks on the terminal's own
    // background.
    let cloth = if othello { "42;" } else { "" };
    let symbol = |index: usize| -> String {
        let (plain, fancy, codes) = match squares[index] {
            'X' if othello => ('X', "●", "30"),
            'O' if othello => ('O', "●", "97"),
            'X' => ('X', "X", "1;31"),
            'O' => ('O', "O", "1;34"),
            _ if legal.contains(&index) => ('*', "*", "1;93"),
            _ if othello => ('.', "·", "30"),
            _ => ('.', ".", "2"),
        };
        if style.color {
            paint(&format!("{cloth}{codes}"), fancy)
        } else {
            plain.to_string()
        }
    };
    let separator = |ch: char| -> String {
        if !style.color {
            ch.to_string()
        } else if ch == ' ' {
            paint(cloth.trim_end_matches(';'), " ")
        } else {
            paint(&format!("{cloth}1;31"), &ch.to_string())
        }
    };
    let mut lines = Vec::with_capacity(width + 1);
    let header: String = (0..width)
        .map(|c| format!(" {}", (b'a' + c as u8) as char))
        .collect();
    lines.push(format!("   {header}"));
    for row in 0..width {
        let mut line = format!("{:>3}", row + 1);
        for column in 0..width {
            let index = row * width + column;
            let before = if last == Some(index) {
                '['
            } else if column > 0 && last == Some(index - 1) {
                ']'
            } else {
                ' '
            };
            line.push_str(&separator(before));
            line.push_str(&symbol(index));
        }
        let closing = last == Some(row * width + width - 1);
        if closing || style.color {
            line.push_str(&separator(if closing { ']' } else { ' ' }));
        }
        if style.color {
            line.push_str(RESET);
        }
        lines.push(line);
    }
    lines
}

/// The lines under the board: disc counts (Othello), whose turn it is or that
/// the game is over, the last move, and the legal moves when hints are on.
pub fn status(session: &Session, hints: bool) -> Vec<String> {
    let variant = session.variant();
    let position = session.position();
    let seats = session.seats();
    let mut first = String::new();
    if variant != Variant::TicTacToe {
        let (black, white) = position.counts();
        first.push_str(&format!(
            "{} {black}  {} {white}   ",
            side_with_letter(variant, Color::Black),
            side_with_letter(variant, Color::White)
        ));
    }
    match session.turn() {
        Turn::Over => first.push_str("Game over"),
        Turn::ForcedPass(color) | Turn::Person(color) | Turn::Orca(color) => {
            first.push_str(&format!("{} to move", side_name(variant, color)));
            if let Some(label) = player_label(seats, color) {
                first.push_str(&format!(" ({label})"));
            }
        }
    }
    let mut lines = vec![first];
    let moves = session.moves();
    if let Some(last) = moves.last() {
        let side = side_name(variant, last.color);
        let mut line = match last.by {
            By::ForcedPass => format!("Last move: {side} passed"),
            _ => format!("Last move: {side} {}", last.mv),
        };
        // A pass changes nothing on the board: name the move that did.
        if let (By::ForcedPass, Some(before)) = (last.by, last_placement(session)) {
            line.push_str(&format!(
                ", after {} {}",
                side_name(variant, before.color),
                before.mv
            ));
        }
        lines.push(line);
    }
    if hints && matches!(session.turn(), Turn::Person(_)) {
        lines.push(format!(
            "Legal moves: {}",
            position.legal_move_names().join(" ")
        ));
    }
    lines
}

/// The latest move that put a disc or mark on the board (passes skipped).
fn last_placement(session: &Session) -> Option<&Ply> {
    session
        .moves()
        .iter()
        .rev()
        .find(|m| m.by != By::ForcedPass)
}

/// The board and status for the turn about to be played, the last move framed
/// and, with `hints`, the legal moves of a person to move marked.
pub fn screen(session: &Session, hints: bool, style: Style) -> Vec<String> {
    let last = last_placement(session).map(|m| m.mv.to_string());
    let mark_legal = hints && matches!(session.turn(), Turn::Person(_));
    let mut lines = board(&session.position(), last.as_deref(), mark_legal, style);
    lines.extend(status(session, hints));
    lines
}

/// A search result in words, from the point of view of the side it searched
/// for: `exact: win by 4`, `exact: draw`, or `score +0.50, depth 9`; tic-tac-toe
/// results are `exact: win`, `exact: draw`, `exact: loss`.
pub fn score_text(variant: Variant, info: &SearchInfo) -> String {
    if !info.exact {
        return format!("score {:+.2}, depth {}", info.score, info.depth);
    }
    let discs = info.score.rounded_discs().abs();
    let margin = if variant == Variant::TicTacToe {
        String::new()
    } else {
        format!(" by {discs}")
    };
    match info.score {
        s if s > Score::ZERO => format!("exact: win{margin}"),
        s if s < Score::ZERO => format!("exact: loss{margin}"),
        _ => "exact: draw".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::Seating;
    use std::time::Duration;

    fn info(score: i32, exact: bool) -> SearchInfo {
        SearchInfo {
            depth: 9,
            seldepth: 9,
            selectivity: 100,
            score: Score::from_centi(score),
            exact,
            nodes: 1,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
            lines: Vec::new(),
        }
    }

    #[test]
    fn plain_board_with_last_move_and_hints() {
        let start = AnyPosition::start(Variant::Othello);
        let after = start.play_line(["f5"]).unwrap();
        let lines = board(&after, Some("f5"), false, Style::default());
        assert_eq!(
            lines,
            [
                "    a b c d e f g h",
                "  1 . . . . . . . .",
                "  2 . . . . . . . .",
                "  3 . . . . . . . .",
                "  4 . . . O X . . .",
                "  5 . . . X X[X]. .",
                "  6 . . . . . . . .",
                "  7 . . . . . . . .",
                "  8 . . . . . . . .",
            ]
        );
        let hinted = board(&start, None, true, Style::default());
        assert_eq!(hinted[4], "  4 . . * O X . . .");
        assert!(hinted.iter().all(|l| l.is_ascii()));
        // A last move on the right edge closes its frame after the row.
        assert_eq!(
            board(&start, Some("h8"), false, Style::default())[8],
            "  8 . . . . . . .[.]"
        );
    }

    #[test]
    fn coloured_board_paints_and_tictactoe_is_three_wide() {
        let start = AnyPosition::start(Variant::Othello);
        let lines = board(&start, Some("e4"), false, Style { color: true });
        assert!(lines[4].contains("\x1b[0;42;30m●"), "{:?}", lines[4]);
        assert!(lines[4].contains("\x1b[0;42;1;31m["), "{:?}", lines[4]);
        assert!(lines[4].ends_with(RESET));
        let ttt = AnyPosition::start(Variant::TicTacToe)
            .play_line(["b2"])
            .unwrap();
        assert_eq!(
            board(&ttt, Some("b2"), false, Style::default()),
            ["    a b c", "  1 . . .", "  2 .[X].", "  3 . . ."]
        );
    }

    #[test]
    fn status_names_the_players_and_the_last_move() {
        let mut s = Session::new(Variant::Othello, Seating::PersonBlack.seats());
        assert_eq!(
            status(&s, true),
            [
                "Black (X) 2  White (O) 2   Black to move (you)",
                "Legal moves: d3 c4 f5 e6"
            ]
        );
        s.play_person("f5").unwrap();
        assert_eq!(
            status(&s, true),
            [
                "Black (X) 4  White (O) 1   White to move (Orca)",
                "Last move: Black f5"
            ]
        );
        let mut two = Session::new(Variant::TicTacToe, Seating::TwoPeople.seats());
        two.play_person("a1").unwrap();
        assert_eq!(status(&two, false), ["O to move", "Last move: X a1"]);
        let screen_lines = screen(&two, true, Style::default());
        assert_eq!(screen_lines[1], "  1[X]* *");
    }

    #[test]
    fn after_a_pass_the_move_before_stays_framed() {
        // The game of first legal moves from the start has a forced pass.
        let mut s = Session::new(Variant::Othello, Seating::TwoPeople.seats());
        while !s.position().must_pass() && !s.position().is_over() {
            let first = s.position().legal_move_names()[0].clone();
            s.play_person(&first).unwrap();
        }
        assert!(s.position().must_pass());
        let before = *s.last_move().unwrap();
        let passer = side_name(Variant::Othello, s.position().to_move());
        s.play_forced_pass().unwrap();
        let status_lines = status(&s, false);
        assert_eq!(
            status_lines[1],
            format!(
                "Last move: {passer} passed, after {} {}",
                side_name(Variant::Othello, before.color),
                before.mv
            )
        );
        let frame = format!("[{}]", before.color.letter());
        assert!(
            screen(&s, false, Style::default())
                .iter()
                .any(|l| l.contains(&frame)),
            "{frame}"
        );
    }

    #[test]
    fn scores_in_words() {
        assert_eq!(
            score_text(Variant::Othello, &info(50, false)),
            "score +0.50, depth 9"
        );
        assert_eq!(
            score_text(Variant::Othello, &info(-1234, false)),
            "score -12.34, depth 9"
        );
        assert_eq!(
            score_text(Variant::Reversed, &info(400, true)),
            "exact: win by 4"
        );
        assert_eq!(
            score_text(Variant::Othello, &info(-200, true)),
            "exact: loss by 2"
        );
        assert_eq!(score_text(Variant::Othello, &info(0, true)), "exact: draw");
        assert_eq!(
            score_text(Variant::TicTacToe, &info(100, true)),
            "exact: win"
        );
        assert_eq!(
            score_text(Variant::TicTacToe, &info(-100, true)),
            "exact: loss"
        );
    }
}
