//! `orca play` without the terminal: everything about a person's game against
//! Orca that can be decided and tested from plain values.
//!
//! [`session`] holds the game itself (who sits where, the moves with who made
//! them, undo to the person's previous turn, the result line, the move list and
//! the GGF record); [`input`] turns a typed line into a command or a move and
//! reads the times of the command line; [`render`] draws the board and the
//! status and score text.
//! The command-line front (`src/cli/play.rs`) only adds the engine, the
//! terminal and the files, so the game flow is checked here without either.

pub mod input;
pub mod render;
pub mod session;

pub use input::{Input, InputError, parse_input};
pub use render::Style;
pub use session::{MoveError, PlayedMove, Player, Seating, Session, Source, Turn};
