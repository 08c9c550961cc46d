//! Orca: an Othello, reversed-Othello and tic-tac-toe engine.
//!
//! The crate is laid out by concern, after the engines the field holds up:
//! [`game`] holds the rules on bitboards and their notation, [`obf`] reads endgame
//! problem files, [`perft`] counts move-generation leaves, [`play`] is the
//! game flow of `orca play`, a person's game against Orca in the terminal,
//! [`referee`] runs engine-against-engine matches (`orca match`), and
//! [`wthor`] reads the WTHOR game databases.

pub mod bench;
pub mod book;
pub mod cpu;
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
pub mod score;
pub mod search;
pub mod solve;
pub mod train;
pub mod web;
pub mod wthor;
