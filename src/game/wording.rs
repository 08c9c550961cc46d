//! How a game's end and its sides are put in words, the same in `orca
//! play`, `orca web` and the records.

use super::position::Outcome;
use super::{AnyPosition, Color, Variant};

/// The name of a side in this game: Black and White in Othello, X and O in
/// tic-tac-toe.
pub fn side_name(variant: Variant, color: Color) -> &'static str {
    match (variant, color) {
        (Variant::TicTacToe, Color::Black) => "X",
        (Variant::TicTacToe, Color::White) => "O",
        (_, Color::Black) => "Black",
        (_, Color::White) => "White",
    }
}

/// The result of the game that reached `position`, as a person reads it
/// (`Black wins 40-24`); `None` while it goes on.
pub fn result_line(position: &AnyPosition) -> Option<String> {
    let outcome = position.result()?;
    let variant = position.variant();
    if variant == Variant::TicTacToe {
        return Some(match outcome {
            Outcome::Win(color) => format!("{} wins", side_name(variant, color)),
            Outcome::Draw => "Draw".to_string(),
        });
    }
    let (black, white) = position.counts();
    let Outcome::Win(winner) = outcome else {
        return Some(format!("Draw {black}-{white}"));
    };
    let (won, lost) = match winner {
        Color::Black => (black, white),
        Color::White => (white, black),
    };
    let mut line = format!("{} wins {won}-{lost}", side_name(variant, winner));
    if variant == Variant::Reversed {
        line.push_str(" with fewer discs");
    }
    let empties = position.empties();
    if empties > 0 {
        let score = position.black_score().unwrap_or(0).abs();
        let squares = if empties == 1 {
            "square goes"
        } else {
            "squares go"
        };
        line.push_str(&format!(
            " (final score {score}: the {empties} empty {squares} to the winner)"
        ));
    }
    Some(line)
}
