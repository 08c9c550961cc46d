//! `orca play` without the terminal: everything about a person's game against
//! Orca that can be decided and tested from plain values.
//!
//! The game itself is the library's [`crate::session::Session`] (who plays
//! each side, the line with undo and redo, the result, the move list and the
//! GGF record), shared with `orca web`; [`seating`] is the `--color` flag;
//! [`input`] turns a typed line into a command or a move and reads the times
//! of the command line; [`render`] draws the board and the status and score
//! text. The command-line front (`src/cli/play.rs`) only adds the engine, the
//! terminal and the files, so the game flow is checked here without either.

pub mod input;
pub mod render;
pub mod seating;

pub use input::{Input, InputError, parse_input};
pub use render::Style;
pub use seating::{ParseSeatingError, Seating};
