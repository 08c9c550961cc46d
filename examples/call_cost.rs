//! What a Python call costs, measured against the same loop in Rust:
//! random Othello games played move by move through the library's public
//! calls (`legal_move_names`, then `play` of a named move), as
//! `python/examples/call_cost.py` plays them through the Python module.
//!
//! `cargo run --release --example call_cost [GAMES]`

use std::time::Instant;

use orca::game::{AnyPosition, Variant};
use orca::rng::Rng;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000);
    let mut rng = Rng::new(1);
    let mut plies = 0u64;
    let started = Instant::now();
    for _ in 0..games {
        let mut position = AnyPosition::start(Variant::Othello);
        while !position.is_over() {
            let moves = position.legal_move_names();
            let name = &moves[rng.below(moves.len() as u64) as usize];
            let mv = position.parse_move(name).expect("a legal move's name");
            position = position.play(mv).expect("a legal move");
            plies += 1;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{games} games, {plies} plies in {seconds:.3} s: {:.0} ns a legal_move_names() + play()",
        seconds * 1e9 / plies as f64
    );
}
