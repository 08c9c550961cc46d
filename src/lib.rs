//! Orca: an Othello, reversed-Othello and tic-tac-toe engine.
//!
//! The crate is laid out by concern, in layers that import downwards only
//! (docs/layout.md):
//!
//! - rules and notation: [`game`] (bitboards, moves, positions, results in
//!   words), [`score`] (one score type), [`duration`] (the time syntax of
//!   flags), [`rng`];
//! - files: [`ggf`] (game records), [`wthor`] (game databases), [`obf`]
//!   (endgame problems);
//! - evaluation and search: [`eval`] (hand-made and trained patterns),
//!   [`search`] (the midgame search, the exact solver, the table, time),
//!   [`book`] (opening books), [`cpu`] (instruction-set dispatch), [`perft`],
//!   [`solve`] (problem files), [`bench`](mod@bench) (the node signature);
//! - training: [`train`] (labels, fits, the self-play database);
//! - the engine: [`engine`], the API every front end drives; beside it
//!   [`session`], a person's game (seats, the line with undo and redo, GGF);
//! - front ends beside each other over it: [`protocol`] (UGI, NBoard, GTP,
//!   Botzone, CodinGame), [`web`] (`orca web`), [`play`] (the game flow of
//!   `orca play`), [`referee`] (`orca match`);
//! - [`round`]: a training round (label, fit, gate), over training and the
//!   referee.

pub mod bench;
pub mod book;
pub mod cpu;
pub mod duration;
pub mod engine;
pub mod eval;
pub mod game;
pub mod ggf;
pub mod obf;
pub mod perft;
pub mod play;
pub mod protocol;
pub mod referee;
pub mod rng;
pub mod round;
pub mod score;
pub mod search;
pub mod session;
pub mod solve;
pub mod train;
pub mod web;
pub mod wthor;
