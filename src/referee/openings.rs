//! Match openings: reading an openings file, the balanced set Orca ships, and
//! how that set is made from the WTHOR games.
//!
//! An openings file has one opening a line, `#` starting a comment: either a
//! move list from the start position (`f5d6c3d3c4f4f6f3`, also with spaces,
//! `pass`/`PA` for a pass) or a position string as in OBF files (64 squares and
//! the side to move; anything after a `;` is ignored). A first word with a digit
//! is a move list, one without is a position. Every opening is checked
//! with the rules when it is read.
//!
//! The shipped set (`data/openings/balanced-8.txt`) holds the distinct
//! positions after 8 moves of the WTHOR games (positions equal under a board
//! symmetry counted once) whose games have a mean theoretical score close to
//! even: the database's perfect-play score, from 22 or more empty squares on.
//! Reversed Othello has no such games: its set (`data/openings/reversed-6.txt`)
//! holds the distinct positions after 6 moves that a search values close to
//! even.

use std::collections::HashMap;
use std::fmt;

use crate::game::{
    AnyPosition, Board, LineError, Move, Position, PositionError, StandardOthello, Variant,
};
use crate::wthor::WthorGame;

/// The balanced openings Orca ships, used when a match names no file.
pub const BUILTIN: &str = include_str!("../../data/openings/balanced-8.txt");

/// The name of the shipped set in messages.
pub const BUILTIN_NAME: &str = "data/openings/balanced-8.txt (built in)";

/// The balanced openings of reversed Othello Orca ships: searched, as no
/// database of reversed games exists ([`distinct_lines`]).
pub const BUILTIN_REVERSED: &str = include_str!("../../data/openings/reversed-6.txt");

/// The name of the shipped reversed set in messages.
pub const BUILTIN_REVERSED_NAME: &str = "data/openings/reversed-6.txt (built in)";

/// The shipped openings of `variant` and their name: the reversed set for
/// reversed Othello, the WTHOR set otherwise.
pub fn builtin(variant: Variant) -> (&'static str, &'static str) {
    if variant == Variant::Reversed {
        (BUILTIN_REVERSED, BUILTIN_REVERSED_NAME)
    } else {
        (BUILTIN, BUILTIN_NAME)
    }
}

/// One opening: where the game starts and the moves played before the
/// engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position, or the position of an OBF line.
    pub start: AnyPosition,
    /// Moves from `start`, forced passes included.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position the engines start from.
    pub fn position(&self) -> AnyPosition {
        let tokens: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        self.start
            .play_line(tokens.iter().map(String::as_str))
            .expect("openings are checked when read")
    }

    /// Whether the game starts from the variant's start position (protocols
    /// without position set-up, like GTP, need this).
    pub fn from_start(&self) -> bool {
        self.start == AnyPosition::start(self.start.variant())
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.from_start() {
            write!(f, "{}", self.start)?;
            if !self.moves.is_empty() {
                f.write_str(" ")?;
            }
        }
        for mv in &self.moves {
            write!(f, "{mv}")?;
        }
        if self.moves.is_empty() && self.from_start() {
            f.write_str("start position")?;
        }
        Ok(())
    }
}

/// What is wrong with a line of an openings file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError {
    /// 1-based line number; 0 for the file as a whole.
    pub line: usize,
    /// What is wrong.
    pub problem: OpeningProblem,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

/// What is wrong with an openings file or one of its lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningProblem {
    /// The file holds no opening at all.
    NoOpening,
    /// The line is not a position string.
    Position(PositionError),
    /// The position is a finished game.
    OverInPosition,
    /// A word that is neither a move nor moves of two characters.
    NotMoves(String),
    /// A move that is not legal (or no move).
    Illegal(LineError),
    /// The moves end the game.
    OverAfterMoves,
}

impl fmt::Display for OpeningProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningProblem::NoOpening => f.write_str("no opening in the file"),
            OpeningProblem::Position(e) => e.fmt(f),
            OpeningProblem::OverInPosition => f.write_str("the game is over in this position"),
            OpeningProblem::NotMoves(word) => {
                write!(f, "'{word}' is not a list of moves like f5d6c3")
            }
            OpeningProblem::Illegal(e) => e.fmt(f),
            OpeningProblem::OverAfterMoves => f.write_str("the game is over after these moves"),
        }
    }
}

impl std::error::Error for OpeningProblem {}

impl std::error::Error for OpeningError {}

/// Reads an openings file for `variant`.
///
/// # Errors
/// The first line that is neither a legal move list nor a position, or a file
/// with no opening at all.
pub fn parse(text: &str, variant: Variant) -> Result<Vec<Opening>, OpeningError> {
    let mut openings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let error = |problem| OpeningError {
            line: i + 1,
            problem,
        };
        let opening = parse_line(line, variant).map_err(error)?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(OpeningError {
            line: 0,
            problem: OpeningProblem::NoOpening,
        });
    }
    Ok(openings)
}

fn parse_line(line: &str, variant: Variant) -> Result<Opening, OpeningProblem> {
    // Move lists name squares with digits; position strings have none.
    let first = line.split_whitespace().next().unwrap_or("");
    if !first.contains(|c: char| c.is_ascii_digit())
        && first.len() > 2
        && first.parse::<Move>().is_err()
    {
        let position = line.split(';').next().unwrap_or("");
        let start = AnyPosition::parse(variant, position).map_err(OpeningProblem::Position)?;
        if start.is_over() {
            return Err(OpeningProblem::OverInPosition);
        }
        return Ok(Opening {
            start,
            moves: Vec::new(),
        });
    }
    let tokens = move_tokens(line)?;
    let start = AnyPosition::start(variant);
    let (end, moves) = play_tokens(start, &tokens).map_err(OpeningProblem::Illegal)?;
    if end.is_over() {
        return Err(OpeningProblem::OverAfterMoves);
    }
    Ok(Opening { start, moves })
}

/// The move tokens of a move list: words are split on whitespace and commas,
/// and a word that is not itself a move is read as moves of two characters.
fn move_tokens(line: &str) -> Result<Vec<String>, OpeningProblem> {
    let mut tokens = Vec::new();
    for word in line.split(|c: char| c.is_whitespace() || c == ',') {
        if word.is_empty() {
            continue;
        }
        if word.parse::<Move>().is_ok() {
            tokens.push(word.to_string());
            continue;
        }
        if word.len() % 2 != 0 || !word.is_ascii() {
            return Err(OpeningProblem::NotMoves(word.to_string()));
        }
        for i in (0..word.len()).step_by(2) {
            tokens.push(word[i..i + 2].to_string());
        }
    }
    Ok(tokens)
}

/// Plays move tokens from `start`, returning the position and the moves with
/// every forced pass written out.
///
/// # Errors
/// The first token that is not a legal move.
pub fn play_tokens(
    start: AnyPosition,
    tokens: &[String],
) -> Result<(AnyPosition, Vec<Move>), LineError> {
    let mut position = start;
    let mut moves = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        let mv: Move = token.parse().map_err(|e| LineError {
            ply: i + 1,
            token: token.clone(),
            kind: crate::game::position::LineErrorKind::NotAMove(e),
        })?;
        if mv != Move::Pass && position.must_pass() {
            moves.push(Move::Pass);
        }
        position = position
            .play_line([token.as_str()])
            .map_err(|e| LineError { ply: i + 1, ..e })?;
        moves.push(mv);
    }
    Ok((position, moves))
}

/// What makes a WTHOR position a balanced opening.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Balance {
    /// Moves from the start (passes included, though they do not occur early).
    pub plies: usize,
    /// Largest mean theoretical score (black's disc difference) accepted.
    pub max_abs_score: f64,
    /// Fewest games through the position for its mean to count.
    pub min_games: usize,
}

/// A candidate opening found in the games.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The moves of the first game that reached the position.
    pub moves: Vec<Move>,
    /// Games that reached the position (or a symmetric image of it).
    pub games: usize,
    /// Their mean theoretical score for black.
    pub mean_score: f64,
}

/// Balanced openings from a set of games, most played first (ties in move
/// order), with how many games were skipped as unreadable or too short.
pub fn balanced<'a>(
    games: impl IntoIterator<Item = &'a WthorGame>,
    balance: Balance,
) -> (Vec<Candidate>, usize) {
    struct Entry {
        moves: Vec<Move>,
        games: usize,
        score_sum: i64,
    }
    let mut by_position: HashMap<(Board, bool), Entry> = HashMap::new();
    let mut skipped = 0;
    for game in games {
        let Ok(replay) = game.replay() else {
            skipped += 1;
            continue;
        };
        if replay.moves.len() <= balance.plies {
            skipped += 1;
            continue;
        }
        let key = canonical(&replay.positions[balance.plies]);
        let entry = by_position.entry(key).or_insert_with(|| Entry {
            moves: replay.moves[..balance.plies].to_vec(),
            games: 0,
            score_sum: 0,
        });
        entry.games += 1;
        entry.score_sum += i64::from(game.theoretical_score());
    }
    let mut found: Vec<Candidate> = by_position
        .into_values()
        .filter(|e| e.games >= balance.min_games)
        .map(|e| Candidate {
            mean_score: e.score_sum as f64 / e.games as f64,
            games: e.games,
            moves: e.moves,
        })
        .filter(|c| c.mean_score.abs() <= balance.max_abs_score)
        .collect();
    found.sort_by(|a, b| {
        b.games
            .cmp(&a.games)
            .then_with(|| move_text(&a.moves).cmp(&move_text(&b.moves)))
    });
    (found, skipped)
}

/// Every distinct position `plies` moves from the start (passes included;
/// images under the board's symmetries count once), each with the first
/// line reaching it in square order: the candidates of a searched openings
/// set, for a game without a database of played games (reversed Othello).
/// Lines that end the game sooner are left out.
pub fn distinct_lines(plies: usize) -> Vec<Vec<Move>> {
    fn walk(
        board: Board,
        line: &mut Vec<Move>,
        plies: usize,
        seen: &mut std::collections::HashSet<(u64, u64)>,
        out: &mut Vec<Vec<Move>>,
    ) {
        if board.is_game_over() {
            return;
        }
        if line.len() == plies {
            let smallest = (0..8)
                .map(|s| board.symmetry(s))
                .map(|b| (b.player, b.opponent))
                .min()
                .expect("eight symmetries");
            if seen.insert(smallest) {
                out.push(line.clone());
            }
            return;
        }
        if board.moves() == 0 {
            line.push(Move::Pass);
            walk(board.pass(), line, plies, seen, out);
            line.pop();
            return;
        }
        for square in board.move_squares() {
            line.push(Move::Play(square));
            walk(board.play_unchecked(square), line, plies, seen, out);
            line.pop();
        }
    }
    let mut out = Vec::new();
    walk(
        Board::start(),
        &mut Vec::with_capacity(plies),
        plies,
        &mut std::collections::HashSet::new(),
        &mut out,
    );
    out
}

/// The same key for a position and its images under the eight symmetries.
fn canonical(position: &Position<StandardOthello>) -> (Board, bool) {
    let board = position.state().0;
    let smallest = (0..8)
        .map(|s| board.symmetry(s))
        .min_by_key(|b| (b.player, b.opponent))
        .expect("eight symmetries");
    (smallest, position.to_move() == crate::game::Color::Black)
}

/// Moves written together, as openings files hold them: `f5d6c3`.
pub fn move_text(moves: &[Move]) -> String {
    moves.iter().map(Move::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color;

    #[test]
    fn move_lists_and_positions() {
        let text = "# a comment\n\nf5d6c3d3c4  # tiger\nf5 f6 e6 f4\nF5,D6\n\
            ---------------------------OX------XO--------------------------- X; F5:+0;\n";
        let openings = parse(text, Variant::Othello).unwrap();
        assert_eq!(openings.len(), 4);
        assert_eq!(openings[0].moves.len(), 5);
        assert_eq!(openings[0].to_string(), "f5d6c3d3c4");
        assert_eq!(openings[1].position().to_move(), Color::Black);
        assert_eq!(openings[2].to_string(), "f5d6");
        assert!(openings[3].from_start());
        assert_eq!(openings[3].to_string(), "start position");
        let reversed = parse("f5d6", Variant::Reversed).unwrap();
        assert_eq!(reversed[0].start.variant(), Variant::Reversed);
    }

    #[test]
    fn positions_from_obf_lines() {
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";
        let openings = parse(line, Variant::Othello).unwrap();
        assert!(!openings[0].from_start());
        assert!(openings[0].moves.is_empty());
        assert_eq!(openings[0].position().empties(), 14);
        assert!(openings[0].to_string().starts_with("--XXXXX--"));
    }

    #[test]
    fn bad_lines_name_their_number() {
        for (text, line, why) in [
            ("f5d6\nf5a1\n", 2, "illegal move a1 at ply 2"),
            ("f5d\n", 1, "is not a list of moves"),
            ("f5zz\n", 1, "'zz' is not a move"),
            (
                "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX X",
                1,
                "over",
            ),
            (
                "-------------------------------------------------------------- X",
                1,
                "squares",
            ),
        ] {
            let err = parse(text, Variant::Othello).unwrap_err();
            assert_eq!(err.line, line, "{text}");
            assert!(err.problem.to_string().contains(why), "{text}: {err}");
        }
        assert_eq!(
            parse("# nothing\n", Variant::Othello)
                .unwrap_err()
                .to_string(),
            "line 0: no opening in the file"
        );
    }

    #[test]
    fn forced_passes_are_written_out() {
        // The shortest game with passes in WTHOR_1981 (black wins 64-0): after
        // h8 white has no move, so h1 is black's again.
        let line = "f5f6e6f4g5g6e7f7h6e8f8h4d8d6d7c8b8h7h5g7h3h2e3d2g8f3h8h1";
        let tokens = move_tokens(line).unwrap();
        let (_, moves) = play_tokens(AnyPosition::start(Variant::Othello), &tokens).unwrap();
        assert_eq!(moves.len(), tokens.len() + 1);
        assert_eq!(moves[27], Move::Pass);
        let opening = &parse(line, Variant::Othello).unwrap()[0];
        assert_eq!(opening.moves, moves);
        assert_eq!(opening.position().to_move(), Color::White);
    }

    #[test]
    fn distinct_lines_count_positions_once_up_to_symmetry() {
        // The four first moves are images of each other; after two moves
        // there are three positions (perpendicular, diagonal, parallel).
        assert_eq!(distinct_lines(0), vec![Vec::<Move>::new()]);
        assert_eq!(distinct_lines(1).len(), 1);
        let two = distinct_lines(2);
        assert_eq!(two.len(), 3);
        assert_eq!(move_text(&two[0]), "d3c3");
        // Every line is legal and reaches a different position.
        let lines = distinct_lines(6);
        let keys: std::collections::HashSet<_> = lines
            .iter()
            .map(|l| {
                let text = move_text(l);
                match parse(&text, Variant::Othello).unwrap()[0].position() {
                    AnyPosition::Othello(p) => canonical(&p),
                    _ => unreachable!(),
                }
            })
            .collect();
        assert_eq!(keys.len(), lines.len());
        assert!(lines.len() > 500, "{}", lines.len());
    }

    #[test]
    fn the_builtin_set_is_balanced_and_legal() {
        let openings = parse(BUILTIN, Variant::Othello).unwrap();
        assert!(openings.len() >= 100, "{}", openings.len());
        for o in &openings {
            assert!(o.from_start());
            assert_eq!(o.moves.len(), 8);
        }
        let keys: std::collections::HashSet<_> = openings
            .iter()
            .map(|o| match o.position() {
                AnyPosition::Othello(p) => canonical(&p),
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(keys.len(), openings.len(), "positions are distinct");
    }

    #[test]
    fn the_reversed_set_is_searched_balanced_and_legal() {
        let (text, name) = builtin(Variant::Reversed);
        assert!(name.contains("reversed-6"));
        let openings = parse(text, Variant::Reversed).unwrap();
        assert!(openings.len() >= 200, "{}", openings.len());
        let distinct = distinct_lines(6);
        for (o, raw) in openings
            .iter()
            .zip(text.lines().filter(|l| !l.starts_with('#')))
        {
            assert!(o.from_start());
            assert!(distinct.contains(&o.moves), "{o} is a distinct line");
            let value: f64 = raw.split("value").nth(1).unwrap().trim().parse().unwrap();
            assert!(value.abs() <= 2.0, "{raw}");
        }
        assert_eq!(builtin(Variant::Othello).0, BUILTIN);
    }

    fn stored(moves: &str, theoretical: u8) -> WthorGame {
        let tokens = move_tokens(moves).unwrap();
        WthorGame {
            tournament: 0,
            black_player: 0,
            white_player: 0,
            black_discs: theoretical,
            theoretical_black_discs: theoretical,
            squares: tokens.iter().map(|t| t.parse().unwrap()).collect(),
        }
    }

    #[test]
    fn balanced_positions_are_grouped_by_symmetry() {
        // f5d6 and its mirror image d3c5 reach the same position up to symmetry.
        let games = [
            stored("f5d6c3", 33),
            stored("d3c5f6", 31),
            stored("f5d6c5", 33),
            stored("f5f6e6", 40),
            stored("f5", 32),
        ];
        let balance = Balance {
            plies: 2,
            max_abs_score: 2.0,
            min_games: 1,
        };
        let (found, skipped) = balanced(&games, balance);
        assert_eq!(skipped, 1);
        assert_eq!(found.len(), 1);
        assert_eq!(move_text(&found[0].moves), "f5d6");
        assert_eq!(found[0].games, 3);
        assert!((found[0].mean_score - 2.0 / 3.0).abs() < 1e-9);
        let strict = Balance {
            min_games: 4,
            ..balance
        };
        assert!(balanced(&games, strict).0.is_empty());
    }
}
