//! WTHOR game databases (`*.wtb`): the French federation's archive of tournament
//! games and Logistello's book, the largest public collection of real Othello games.
//!
//! The format is little-endian binary: a 16-byte header, then 68 bytes a game
//! (three player and tournament ids, black's final and "theoretical" disc counts,
//! and up to 60 moves coded `10 * row + column`, a1 = 11, 0 after the last).
//! Passes are not stored, so [`WthorGame::replay`] re-inserts them where the side
//! to move has no legal move. Everything that uses these games (balanced match
//! openings, evaluation training) goes through this reader, so it keeps to the
//! format and leaves the choice of positions to its callers. The writer
//! ([`WthorHeader::to_bytes`], [`WthorGame::to_bytes`]) stores the self-play
//! database in the same format.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::game::{Move, Position, Square, StandardOthello};

/// Bytes of the file header.
pub const HEADER_BYTES: usize = 16;

/// Bytes of one game record.
pub const GAME_BYTES: usize = 68;

/// Moves a game record has room for.
pub const MAX_MOVES: usize = 60;

/// Depth of the theoretical score when the header leaves it at 0.
pub const DEFAULT_THEORETICAL_DEPTH: u8 = 22;

/// The file header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WthorHeader {
    /// When the file was written: (year, month, day).
    pub created: (u16, u8, u8),
    /// Games in the file, as the header states it.
    pub games: u32,
    /// Records of other kinds (players, tournaments): 0 in game files.
    pub records: u16,
    /// The year the games were played.
    pub games_year: u16,
    /// Board size: 0 or 8 for 8x8 (the only size read here).
    pub board_size: u8,
    /// File type: 0 for games.
    pub game_type: u8,
    /// Empty squares from which the theoretical score was computed (0 in the
    /// file means [`DEFAULT_THEORETICAL_DEPTH`]).
    pub depth: u8,
}

impl WthorHeader {
    /// Empty squares from which the theoretical scores of this file were solved.
    pub fn theoretical_depth(&self) -> u8 {
        if self.depth == 0 {
            DEFAULT_THEORETICAL_DEPTH
        } else {
            self.depth
        }
    }

    /// The header as stored, the inverse of the reader.
    pub fn to_bytes(&self) -> [u8; HEADER_BYTES] {
        let (year, month, day) = self.created;
        let mut b = [0u8; HEADER_BYTES];
        b[0] = (year / 100) as u8;
        b[1] = (year % 100) as u8;
        b[2] = month;
        b[3] = day;
        b[4..8].copy_from_slice(&self.games.to_le_bytes());
        b[8..10].copy_from_slice(&self.records.to_le_bytes());
        b[10..12].copy_from_slice(&self.games_year.to_le_bytes());
        b[12] = self.board_size;
        b[13] = self.game_type;
        b[14] = self.depth;
        b
    }

    fn parse(bytes: &[u8]) -> Result<WthorHeader, WthorError> {
        let b: &[u8; HEADER_BYTES] = bytes
            .get(..HEADER_BYTES)
            .and_then(|h| h.try_into().ok())
            .ok_or(WthorError::TooShort(bytes.len()))?;
        let header = WthorHeader {
            created: (u16::from(b[0]) * 100 + u16::from(b[1]), b[2], b[3]),
            games: u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
            records: u16::from_le_bytes([b[8], b[9]]),
            games_year: u16::from_le_bytes([b[10], b[11]]),
            board_size: b[12],
            game_type: b[13],
            depth: b[14],
        };
        if header.board_size != 0 && header.board_size != 8 {
            return Err(WthorError::BoardSize(header.board_size));
        }
        Ok(header)
    }
}

/// One game as stored: who played, the scores and the moves without passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    /// Tournament id (an index into the federation's tournament list).
    pub tournament: u16,
    /// Black player's id.
    pub black_player: u16,
    /// White player's id.
    pub white_player: u16,
    /// Black's discs at the end of the game as played.
    pub black_discs: u8,
    /// Black's discs under perfect play from the position with
    /// [`WthorHeader::theoretical_depth`] empty squares.
    pub theoretical_black_discs: u8,
    /// The placements in order; passes are not stored.
    pub squares: Vec<Square>,
}

/// A game replayed by the rules: every move with its pass re-inserted, and the
/// position before each move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Every move, passes included.
    pub moves: Vec<Move>,
    /// `positions[i]` is the position before `moves[i]`; the last entry is the
    /// position after the last move, so there is one more position than moves.
    pub positions: Vec<Position<StandardOthello>>,
}

impl Replay {
    /// The position after the game's last move.
    pub fn last(&self) -> Position<StandardOthello> {
        *self
            .positions
            .last()
            .expect("a replay holds the start position")
    }
}

impl WthorGame {
    /// Black's final disc difference as the game was played, if black's count
    /// is taken with the empty squares given to the winner (64 discs in all).
    pub fn score(&self) -> i32 {
        2 * i32::from(self.black_discs) - 64
    }

    /// Black's disc difference under perfect play from the theoretical depth:
    /// the best label the database gives for "who stood better".
    pub fn theoretical_score(&self) -> i32 {
        2 * i32::from(self.theoretical_black_discs) - 64
    }

    /// Plays the stored moves from the start position, inserting a pass where
    /// the side to move has none.
    ///
    /// # Errors
    /// The first stored move that is not legal, with its 1-based index among
    /// the stored moves.
    pub fn replay(&self) -> Result<Replay, IllegalWthorMove> {
        let mut position = Position::<StandardOthello>::start();
        let mut positions = vec![position];
        let mut moves = Vec::with_capacity(self.squares.len() + 2);
        for (i, &square) in self.squares.iter().enumerate() {
            if position.must_pass() {
                position = position.play(Move::Pass).expect("a forced pass is legal");
                moves.push(Move::Pass);
                positions.push(position);
            }
            position = position.play(Move::Play(square)).ok_or(IllegalWthorMove {
                index: i + 1,
                square,
            })?;
            moves.push(Move::Play(square));
            positions.push(position);
        }
        Ok(Replay { moves, positions })
    }

    /// The record as stored, the inverse of the reader; `None` for more than
    /// [`MAX_MOVES`] moves.
    pub fn to_bytes(&self) -> Option<[u8; GAME_BYTES]> {
        if self.squares.len() > MAX_MOVES {
            return None;
        }
        let mut b = [0u8; GAME_BYTES];
        b[0..2].copy_from_slice(&self.tournament.to_le_bytes());
        b[2..4].copy_from_slice(&self.black_player.to_le_bytes());
        b[4..6].copy_from_slice(&self.white_player.to_le_bytes());
        b[6] = self.black_discs;
        b[7] = self.theoretical_black_discs;
        for (slot, &square) in b[8..].iter_mut().zip(&self.squares) {
            *slot = encode_square(square);
        }
        Some(b)
    }

    fn parse(b: &[u8; GAME_BYTES]) -> Result<WthorGame, u8> {
        let mut squares = Vec::with_capacity(MAX_MOVES);
        for &code in b[8..].iter().take_while(|&&code| code != 0) {
            squares.push(decode_square(code).ok_or(code)?);
        }
        Ok(WthorGame {
            tournament: u16::from_le_bytes([b[0], b[1]]),
            black_player: u16::from_le_bytes([b[2], b[3]]),
            white_player: u16::from_le_bytes([b[4], b[5]]),
            black_discs: b[6],
            theoretical_black_discs: b[7],
            squares,
        })
    }
}

/// The square of a stored move code `10 * row + column` (both 1..=8).
pub fn decode_square(code: u8) -> Option<Square> {
    let (row, column) = (code / 10, code % 10);
    if (1..=8).contains(&row) && (1..=8).contains(&column) {
        Square::from_coords(column - 1, row - 1)
    } else {
        None
    }
}

/// The stored code of a square, the inverse of [`decode_square`].
pub fn encode_square(square: Square) -> u8 {
    10 * (square.row() + 1) + square.column() + 1
}

/// A stored move that the rules do not allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalWthorMove {
    /// 1-based index among the stored moves.
    pub index: usize,
    /// The square stored.
    pub square: Square,
}

impl fmt::Display for IllegalWthorMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stored move {} ({}) is illegal", self.index, self.square)
    }
}

impl std::error::Error for IllegalWthorMove {}

/// A whole WTHOR file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorFile {
    /// The header.
    pub header: WthorHeader,
    /// The games in file order.
    pub games: Vec<WthorGame>,
}

/// Why a file could not be read as WTHOR games.
#[derive(Debug)]
pub enum WthorError {
    /// Reading the file failed.
    Io(PathBuf, std::io::Error),
    /// Fewer bytes than a header.
    TooShort(usize),
    /// A board size other than 8x8.
    BoardSize(u8),
    /// The header announces more games than the file holds.
    Truncated {
        /// Games the header announces.
        announced: u32,
        /// Complete games present.
        present: usize,
    },
    /// A move byte that is not `10 * row + column`.
    BadMoveCode {
        /// 0-based index of the game in the file.
        game: usize,
        /// The byte found.
        code: u8,
    },
}

impl fmt::Display for WthorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WthorError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            WthorError::TooShort(n) => {
                write!(
                    f,
                    "{n} bytes is shorter than a WTHOR header ({HEADER_BYTES})"
                )
            }
            WthorError::BoardSize(s) => write!(f, "board size {s} is not 8x8"),
            WthorError::Truncated { announced, present } => write!(
                f,
                "the header announces {announced} games but the file holds {present}"
            ),
            WthorError::BadMoveCode { game, code } => {
                write!(f, "game {}: move byte {code} is not a square", game + 1)
            }
        }
    }
}

impl std::error::Error for WthorError {}

/// Parses a WTHOR file held in memory.
///
/// # Errors
/// A short or truncated file, a board that is not 8x8, or a move byte that
/// names no square. Illegal move sequences are found later, by
/// [`WthorGame::replay`], so one bad game does not hide the others.
pub fn parse(bytes: &[u8]) -> Result<WthorFile, WthorError> {
    let header = WthorHeader::parse(bytes)?;
    let body = &bytes[HEADER_BYTES..];
    let present = body.len() / GAME_BYTES;
    let announced = header.games;
    if (present as u64) < u64::from(announced) {
        return Err(WthorError::Truncated { announced, present });
    }
    let games = body
        .chunks_exact(GAME_BYTES)
        .take(announced as usize)
        .enumerate()
        .map(|(game, chunk)| {
            let record: &[u8; GAME_BYTES] = chunk.try_into().expect("chunks_exact");
            WthorGame::parse(record).map_err(|code| WthorError::BadMoveCode { game, code })
        })
        .collect::<Result<_, _>>()?;
    Ok(WthorFile { header, games })
}

/// Reads and parses one `.wtb` file.
///
/// # Errors
/// As [`parse`], or the file cannot be read.
pub fn read(path: &Path) -> Result<WthorFile, WthorError> {
    let bytes = std::fs::read(path).map_err(|e| WthorError::Io(path.to_path_buf(), e))?;
    parse(&bytes)
}

/// The `.wtb` files of a directory in name order, or the path itself when it is
/// a file.
///
/// # Errors
/// The directory cannot be listed.
pub fn files_in(path: &Path) -> Result<Vec<PathBuf>, WthorError> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let io = |e| WthorError::Io(path.to_path_buf(), e);
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).map_err(io)? {
        let file = entry.map_err(io)?.path();
        if file
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
        {
            files.push(file);
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header for `games` games of 2013 at depth 24, and the game bytes.
    fn file(games: &[[u8; GAME_BYTES]]) -> Vec<u8> {
        let mut bytes = vec![20, 14, 3, 24];
        bytes.extend_from_slice(&(games.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&[0, 0, 0xdd, 0x07, 8, 0, 24, 0]);
        for g in games {
            bytes.extend_from_slice(g);
        }
        bytes
    }

    fn game(moves: &[u8], black: u8, theoretical: u8) -> [u8; GAME_BYTES] {
        let mut g = [0u8; GAME_BYTES];
        g[0..2].copy_from_slice(&289u16.to_le_bytes());
        g[2..4].copy_from_slice(&2404u16.to_le_bytes());
        g[4..6].copy_from_slice(&2446u16.to_le_bytes());
        g[6] = black;
        g[7] = theoretical;
        g[8..8 + moves.len()].copy_from_slice(moves);
        g
    }

    #[test]
    fn header_fields() {
        let parsed = parse(&file(&[game(&[56, 64], 26, 32)])).unwrap();
        let h = parsed.header;
        assert_eq!(h.created, (2014, 3, 24));
        assert_eq!(h.games, 1);
        assert_eq!(h.games_year, 2013);
        assert_eq!(h.board_size, 8);
        assert_eq!(h.theoretical_depth(), 24);
        let zero_depth = WthorHeader { depth: 0, ..h };
        assert_eq!(zero_depth.theoretical_depth(), 22);
        let g = &parsed.games[0];
        assert_eq!(
            (g.tournament, g.black_player, g.white_player),
            (289, 2404, 2446)
        );
        assert_eq!((g.score(), g.theoretical_score()), (-12, 0));
    }

    #[test]
    fn move_codes_are_row_then_column() {
        assert_eq!(decode_square(11).unwrap().to_string(), "a1");
        assert_eq!(decode_square(18).unwrap().to_string(), "h1");
        assert_eq!(decode_square(56).unwrap().to_string(), "f5");
        assert_eq!(decode_square(88).unwrap().to_string(), "h8");
        for bad in [0, 9, 10, 19, 90, 255] {
            assert_eq!(decode_square(bad), None, "{bad}");
        }
        let parsed = parse(&file(&[game(&[56, 64, 33], 32, 32)])).unwrap();
        let names: Vec<String> = parsed.games[0]
            .squares
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(names, ["f5", "d6", "c3"]);
    }

    #[test]
    fn written_files_read_back() {
        let bytes = file(&[game(&[56, 64, 33], 26, 30), game(&[56], 33, 33)]);
        let parsed = parse(&bytes).unwrap();
        let mut again = parsed.header.to_bytes().to_vec();
        for g in &parsed.games {
            again.extend_from_slice(&g.to_bytes().unwrap());
        }
        assert_eq!(again, bytes);
        for square in Square::all() {
            assert_eq!(decode_square(encode_square(square)), Some(square));
        }
        let long = WthorGame {
            squares: vec![Square::all().next().unwrap(); MAX_MOVES + 1],
            ..parsed.games[0].clone()
        };
        assert_eq!(long.to_bytes(), None);
    }

    #[test]
    fn damaged_files_are_errors() {
        assert!(matches!(parse(&[20, 14]), Err(WthorError::TooShort(2))));
        let mut short = file(&[game(&[56], 32, 32)]);
        short.truncate(short.len() - 1);
        assert!(matches!(
            parse(&short),
            Err(WthorError::Truncated {
                announced: 1,
                present: 0
            })
        ));
        let mut ten = file(&[]);
        ten[12] = 10;
        assert!(matches!(parse(&ten), Err(WthorError::BoardSize(10))));
        assert!(matches!(
            parse(&file(&[game(&[56], 32, 32), game(&[56, 99], 32, 32)])),
            Err(WthorError::BadMoveCode { game: 1, code: 99 })
        ));
    }

    /// The stored code of a square name, the inverse of [`decode_square`].
    fn code(name: &str) -> u8 {
        let b = name.as_bytes();
        (b[1] - b'0') * 10 + (b[0] - b'a' + 1)
    }

    #[test]
    fn replay_reinserts_passes() {
        // WTH_1981.wtb, game 138: black wins 64-0 in 33 stored moves; from the
        // 27th on white has no move after each of black's, six passes in all.
        let played = "f5f6e6f4g5g6e7f7h6e8f8h4d8d6d7c8b8h7h5g7h3h2e3d2g8f3h8h1g4g3c7d3d1";
        let codes: Vec<u8> = (0..played.len())
            .step_by(2)
            .map(|i| code(&played[i..i + 2]))
            .collect();
        assert_eq!(codes[..2], [56, 66]);
        let stored = WthorGame::parse(&game(&codes, 64, 64)).unwrap();
        assert_eq!(stored.squares.len(), 33);
        let replay = stored.replay().unwrap();
        assert_eq!(replay.moves.len(), 39);
        assert_eq!(replay.positions.len(), 40);
        let passes: Vec<usize> = (0..replay.moves.len())
            .filter(|&i| replay.moves[i] == Move::Pass)
            .collect();
        assert_eq!(passes, [27, 29, 31, 33, 35, 37]);
        for &i in &passes {
            assert_eq!(replay.positions[i].to_move(), crate::game::Color::White);
            assert!(replay.positions[i].must_pass());
        }
        assert!(replay.last().is_over());
        assert_eq!(replay.last().black_score(), Some(stored.score()));
        assert_eq!(stored.theoretical_score(), 64);

        let illegal = WthorGame::parse(&game(&[56, 11], 32, 32)).unwrap();
        let err = illegal.replay().unwrap_err();
        assert_eq!(err.index, 2);
        assert_eq!(err.to_string(), "stored move 2 (a1) is illegal");
    }

    #[test]
    fn the_shipped_archive_replays() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/wthor/WTH_2013.wtb");
        let file = read(&path).unwrap();
        assert_eq!(file.header.games as usize, file.games.len());
        assert_eq!(file.games.len(), 2303);
        let first = &file.games[0];
        assert_eq!(first.squares.len(), 60);
        assert_eq!(
            first.replay().unwrap().last().black_score(),
            Some(first.score())
        );
        assert!(file.games.iter().all(|g| g.replay().is_ok()));
    }
}
