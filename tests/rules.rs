//! The rules as the rest of Orca sees them: perft counts, symmetries, notation
//! round trips, the shared OBF files, and bad input.

use orca::game::{
    Board, Color, Game, Move, Position, ReversedOthello, Square, StandardOthello, TicTacToe,
};
use orca::obf;
use orca::perft::{PassRule, perft};
use orca::rng::Rng;
use proptest::prelude::*;

/// Reference counts from the start position (pass = 1 ply, pass = 0 ply).
const PERFT: [(u64, u64); 11] = [
    (4, 4),
    (12, 12),
    (56, 56),
    (244, 244),
    (1_396, 1_396),
    (8_200, 8_200),
    (55_092, 55_092),
    (390_216, 390_216),
    (3_005_288, 3_005_320),
    (24_571_284, 24_571_420),
    (212_258_800, 212_260_880),
];

#[test]
fn perft_start_depths_1_to_9_both_conventions_both_variants() {
    for (d, &(ply, free)) in PERFT.iter().enumerate().take(9) {
        let depth = d as u32 + 1;
        assert_eq!(perft(&StandardOthello::start(), depth, PassRule::Ply), ply);
        assert_eq!(
            perft(&StandardOthello::start(), depth, PassRule::Free),
            free
        );
        assert_eq!(perft(&ReversedOthello::start(), depth, PassRule::Ply), ply);
        assert_eq!(
            perft(&ReversedOthello::start(), depth, PassRule::Free),
            free
        );
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "needs a release build to be quick")]
fn perft_start_depths_10_and_11() {
    for (d, &(ply, free)) in PERFT.iter().enumerate().skip(9) {
        let depth = d as u32 + 1;
        assert_eq!(perft(&StandardOthello::start(), depth, PassRule::Ply), ply);
        assert_eq!(
            perft(&StandardOthello::start(), depth, PassRule::Free),
            free
        );
    }
}

#[test]
fn perft_tictactoe_1_to_9() {
    let expected = [9, 72, 504, 3_024, 15_120, 56_160, 154_944, 255_168, 255_168];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&TicTacToe::start(), d as u32 + 1, PassRule::Ply), n);
        assert_eq!(perft(&TicTacToe::start(), d as u32 + 1, PassRule::Free), n);
    }
}

/// Positions met in random games from the start, every ply of every game.
fn random_positions<G: Game>(seed: u64, games: usize) -> Vec<Position<G>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Position::<G>::start();
        out.push(p);
        while let Some(mv) = rng.legal_move(p.state()) {
            p = p.play(mv).expect("random legal move");
            out.push(p);
        }
    }
    out
}

#[test]
fn symmetries_preserve_move_counts_and_perft() {
    for p in random_positions::<StandardOthello>(11, 30)
        .iter()
        .step_by(7)
    {
        let moves = p.legal_moves().len();
        let leaves = perft(p.state(), 3, PassRule::Ply);
        for s in 0..8 {
            let image = p.symmetry(s);
            assert_eq!(image.legal_moves().len(), moves);
            assert_eq!(perft(image.state(), 3, PassRule::Ply), leaves);
            let mut mapped: Vec<Move> = p.legal_moves().map(|m| m.symmetry(s)).collect();
            let mut direct: Vec<Move> = image.legal_moves().collect();
            mapped.sort_by_key(|m| m.code());
            direct.sort_by_key(|m| m.code());
            assert_eq!(mapped, direct);
        }
    }
    let start = StandardOthello::start();
    for s in 0..8 {
        assert_eq!(perft(&start.symmetry(s), 7, PassRule::Ply), 55_092);
    }
    for s in 0..8 {
        assert_eq!(
            perft(&TicTacToe::start().symmetry(s), 9, PassRule::Ply),
            255_168
        );
    }
}

#[test]
fn position_strings_round_trip() {
    for p in random_positions::<StandardOthello>(5, 50) {
        let text = p.to_string();
        assert_eq!(text.parse::<Position<StandardOthello>>(), Ok(p));
    }
    for p in random_positions::<TicTacToe>(5, 50) {
        let text = p.to_string();
        assert_eq!(text.parse::<Position<TicTacToe>>(), Ok(p), "{text}");
    }
}

#[test]
fn move_lists_round_trip() {
    let mut rng = Rng::new(3);
    for _ in 0..50 {
        let mut p = Position::<ReversedOthello>::start();
        let mut names = Vec::new();
        while let Some(mv) = rng.legal_move(p.state()) {
            p = p.play(mv).unwrap();
            // Forced passes are left out, as referees do.
            if mv != Move::Pass {
                names.push(mv.to_string());
            }
        }
        let (q, played) = Position::<ReversedOthello>::start()
            .play_line(names.iter().map(String::as_str))
            .unwrap();
        assert_eq!(q, p);
        assert!(q.is_over());
        assert!(played.len() >= names.len());
    }
}

#[test]
fn every_shared_obf_line_parses() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/obf");
    let mut total = 0;
    for name in ["fforum-1-19", "fforum-20-39", "fforum-40-59", "hard-20"] {
        let text = std::fs::read_to_string(format!("{dir}/{name}.obf")).unwrap();
        let problems = obf::parse(&text).unwrap();
        assert_eq!(problems.len(), text.lines().count(), "{name}");
        for p in &problems {
            // Every scored move is legal, and the legal moves are all scored.
            let legal: Vec<Move> = p.position.legal_moves().collect();
            assert_eq!(legal.len(), p.scores.len(), "{name}: {p}");
            for (mv, _) in &p.scores {
                assert!(legal.contains(mv));
            }
            assert_eq!(p.to_string().parse::<obf::ObfProblem>().unwrap(), *p);
        }
        total += problems.len();
    }
    assert_eq!(total, 19 + 20 + 20 + 276);
}

#[test]
fn known_position_facts() {
    let p: Position<StandardOthello> =
        "---------------------------OX------XO--------------------------- O"
            .parse()
            .unwrap();
    assert_eq!(p.to_move(), Color::White);
    let moves: Vec<String> = p.legal_moves().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["e3", "f4", "c5", "d6"]);
    let b = Board::start();
    assert_eq!(b.flips("f5".parse::<Square>().unwrap()), 1 << 36);
}

proptest! {
    #[test]
    fn position_parsing_never_panics(s in "\\PC{0,80}") {
        let _ = s.parse::<Position<StandardOthello>>();
        let _ = s.parse::<Position<TicTacToe>>();
        let _ = s.parse::<Move>();
        let _ = s.parse::<obf::ObfProblem>();
    }

    #[test]
    fn well_formed_squares_with_bad_sides_are_errors(board in "[XO-]{64}", side in "[^XxOo*BbWw ]{1,3}") {
        let text = format!("{board} {side}");
        prop_assert!(text.parse::<Position<StandardOthello>>().is_err());
    }

    #[test]
    fn any_square_string_round_trips(board in "[XO-]{64}", black in any::<bool>()) {
        let side = if black { "X" } else { "O" };
        let text = format!("{board} {side}");
        let p: Position<StandardOthello> = text.parse().unwrap();
        prop_assert_eq!(p.to_string(), text);
    }
}
