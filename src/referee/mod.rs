//! `orca match`: a referee for engine-against-engine matches.
//!
//! Generic match runners trust the engines to know the rules, or speak one
//! protocol and one game. This referee knows the rules (Orca's own, in
//! [`crate::game`]): it checks every move, plays the forced passes, ends the
//! game, keeps both clocks and adjudicates losses on time, illegal moves,
//! crashes, silence and protocol errors, and the match goes on.
//!
//! - [`spec`]: engine specs and time controls as the command line gives them;
//! - [`process`]: an engine as a child process, with time-stamped lines;
//! - [`client`]: one client per protocol (UGI, GTP, NBoard);
//! - [`game`]: one game, its clocks, adjudication and GGF record;
//! - [`openings`]: openings files and the balanced set made from WTHOR games;
//! - [`stats`]: Elo with its interval, pentanomial counts, SPRT;
//! - [`tournament`]: the match itself, its workers and its tally.

pub mod client;
pub mod game;
pub mod openings;
pub mod process;
pub mod spec;
pub mod stats;
pub mod tournament;

pub use spec::{EngineSpec, Protocol, TimeControl};
pub use tournament::{Ending, GameResult, MatchConfig, Tally, check_variant, run};
