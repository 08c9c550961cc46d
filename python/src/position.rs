//! `orca.Position`: a position of one of Orca's games (Othello, reversed
//! Othello, tic-tac-toe) and its rules, immutable as a Python value: `play`
//! returns a new position. Read from and written to the protocols' position
//! strings, and to and from boards as lists of rows (0 empty, -1 black,
//! 1 white), as Python programs hold them.

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use orca::game::{AnyPosition, Color, GameLine, Variant};
use orca::perft::{PassRule, perft};
use orca::with_position;

/// A position: the discs, the side to move and the game's rules.
///
/// `Position()` is the start of Othello; `Position(text)` reads a position
/// string as the protocols do (64 squares `X`, `O`, `-` and the side to
/// move, or `startpos`, optionally followed by `moves f5 d6 ...`, or a move
/// list alone from the start). `variant` is `"othello"`, `"reversed"` or
/// `"tictactoe"`.
#[pyclass(module = "orca", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub inner: AnyPosition,
}

/// A game's name read, or a `ValueError` naming the games.
pub fn variant(name: &str) -> PyResult<Variant> {
    name.parse::<Variant>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Board side: 8 for the Othello games, 3 for tic-tac-toe.
fn side(variant: Variant) -> usize {
    match variant {
        Variant::TicTacToe => 3,
        _ => 8,
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The side to move given as `-1`/`1` (the course competitions' colours),
/// `"black"`/`"white"` or `"X"`/`"O"`.
pub fn color_of(value: &Bound<'_, PyAny>) -> PyResult<Color> {
    if let Ok(n) = value.extract::<i64>() {
        return match n {
            -1 => Ok(Color::Black),
            1 => Ok(Color::White),
            _ => Err(PyValueError::new_err(format!(
                "side to move: expected -1 (black) or 1 (white), not {n}"
            ))),
        };
    }
    let Ok(name) = value.extract::<String>() else {
        return Err(PyTypeError::new_err(
            "side to move: expected -1, 1, 'black' or 'white'",
        ));
    };
    match name.to_ascii_lowercase().as_str() {
        "black" | "x" | "b" => Ok(Color::Black),
        "white" | "o" | "w" => Ok(Color::White),
        _ => Err(PyValueError::new_err(format!(
            "side to move: expected 'black' or 'white', not {name:?}"
        ))),
    }
}

/// One square's value of a board given as rows: 0, -1 or 1 (an int, or a
/// float or numpy number that is one of them).
fn cell(value: &Bound<'_, PyAny>, row: usize, column: usize) -> PyResult<char> {
    let n = match value.extract::<i64>() {
        Ok(n) => n,
        Err(_) => match value.extract::<f64>() {
            Ok(f) if f.fract() == 0.0 && f.abs() <= 1.0 => f as i64,
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "board[{row}][{column}]: expected 0, -1 or 1, not {}",
                    value.repr().map_or_else(|_| "?".into(), |r| r.to_string())
                )));
            }
        },
    };
    match n {
        0 => Ok('-'),
        -1 => Ok('X'),
        1 => Ok('O'),
        _ => Err(PyValueError::new_err(format!(
            "board[{row}][{column}]: expected 0 (empty), -1 (black) or 1 (white), not {n}"
        ))),
    }
}

/// The squares of `board`, indexable as `board[row][column]` with `side`
/// rows of `side` squares, as a position string's squares.
pub fn squares_of(board: &Bound<'_, PyAny>, side: usize) -> PyResult<String> {
    let rows = board.len().map_err(|_| {
        PyTypeError::new_err(format!(
            "board: expected {side} rows of {side} squares (a list of lists or an array)"
        ))
    })?;
    if rows != side {
        return Err(PyValueError::new_err(format!(
            "board: expected {side} rows, not {rows}"
        )));
    }
    let mut squares = String::with_capacity(side * side);
    for r in 0..side {
        let row = board.get_item(r)?;
        let columns = row.len().map_err(|_| {
            PyTypeError::new_err(format!("board[{r}]: expected a row of {side} squares"))
        })?;
        if columns != side {
            return Err(PyValueError::new_err(format!(
                "board[{r}]: expected {side} squares, not {columns}"
            )));
        }
        for c in 0..side {
            squares.push(cell(&row.get_item(c)?, r, c)?);
        }
    }
    Ok(squares)
}

impl Position {
    pub fn new_from(inner: AnyPosition) -> Position {
        Position { inner }
    }
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (text=None, variant="othello"))]
    fn new(text: Option<&str>, variant: &str) -> PyResult<Position> {
        let variant = self::variant(variant)?;
        let inner = match text {
            None => AnyPosition::start(variant),
            Some(text) => {
                let line = GameLine::parse(variant, text).map_err(PyValueError::new_err)?;
                line.position().map_err(PyValueError::new_err)?
            }
        };
        Ok(Position { inner })
    }

    /// A position from a board of rows (`board[row][column]`, row 0 holding
    /// a1-h1; 0 empty, -1 black, 1 white), e.g. a list of lists or a numpy
    /// array, and the side to move (`-1`/`1` or `"black"`/`"white"`).
    #[staticmethod]
    #[pyo3(signature = (board, side_to_move, variant="othello"))]
    fn from_board(
        board: &Bound<'_, PyAny>,
        side_to_move: &Bound<'_, PyAny>,
        variant: &str,
    ) -> PyResult<Position> {
        let variant = self::variant(variant)?;
        let squares = squares_of(board, side(variant))?;
        let side = match color_of(side_to_move)? {
            Color::Black => 'X',
            Color::White => 'O',
        };
        let inner = AnyPosition::parse(variant, &format!("{squares} {side}"))
            .map_err(|e| PyValueError::new_err(format!("board: {e}")))?;
        Ok(Position { inner })
    }

    /// The board as rows of 0 (empty), -1 (black) and 1 (white), row 0
    /// holding a1-h1.
    fn to_board(&self) -> Vec<Vec<i8>> {
        let text = self.inner.to_string();
        let n = side(self.inner.variant());
        let values: Vec<i8> = text
            .chars()
            .take(n * n)
            .map(|c| match c {
                'X' => -1,
                'O' => 1,
                _ => 0,
            })
            .collect();
        values.chunks(n).map(<[i8]>::to_vec).collect()
    }

    /// The game: `"othello"`, `"reversed"` or `"tictactoe"`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.inner.variant().name()
    }

    /// `"black"` or `"white"` (X and O in tic-tac-toe).
    #[getter]
    fn side_to_move(&self) -> &'static str {
        color_name(self.inner.to_move())
    }

    /// The legal moves as square names; `["pass"]` when the side to move
    /// has none but the game goes on; empty once it is over.
    fn legal_moves(&self) -> Vec<String> {
        if self.inner.is_over() {
            return Vec::new();
        }
        self.inner.legal_move_names()
    }

    /// The position after `move` (a square name such as `"f5"`, or
    /// `"pass"`); a `ValueError` naming the move when it is not legal.
    #[pyo3(signature = (move_))]
    fn play(&self, move_: &str) -> PyResult<Position> {
        let illegal = |why: String| {
            PyValueError::new_err(format!(
                "{move_:?} is not a legal move here ({why}); legal: {}",
                self.legal_moves().join(" ")
            ))
        };
        if self.inner.is_over() {
            return Err(PyValueError::new_err(format!(
                "{move_:?}: the game is over"
            )));
        }
        let mv = self
            .inner
            .parse_move(move_.trim())
            .map_err(|e| illegal(e.to_string()))?;
        let inner = self
            .inner
            .play(mv)
            .ok_or_else(|| illegal("it flips nothing or the square is taken".into()))?;
        Ok(Position { inner })
    }

    /// Black's and white's discs.
    fn discs(&self) -> (u32, u32) {
        self.inner.counts()
    }

    /// Whether neither side can move.
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// Black's final score once the game is over: black's discs minus
    /// white's, the empty squares going to the winner (in reversed Othello
    /// fewer discs win, and the score is still black's discs minus
    /// white's); `None` while the game goes on.
    fn score(&self) -> Option<i32> {
        self.inner.black_score()
    }

    /// Empty squares.
    fn empties(&self) -> u32 {
        self.inner.empties()
    }

    /// Leaves of the game tree `depth` plies down (a pass is a ply), as
    /// `orca perft` counts them; the search runs without the GIL.
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth > 20 {
            return Err(PyValueError::new_err(format!(
                "perft: depth {depth} would not end (at most 20)"
            )));
        }
        let inner = self.inner;
        Ok(py.detach(move || with_position!(inner, p => perft(p.state(), depth, PassRule::Ply))))
    }

    /// The board drawn in text, a row a line.
    fn diagram(&self) -> String {
        self.inner.diagram().join("\n")
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position('{}', variant='{}')",
            self.inner,
            self.inner.variant().name()
        )
    }

    /// One square by name, `pos["f5"]`: 0 (empty), -1 (black) or 1 (white).
    fn __getitem__(&self, square: &str) -> PyResult<i8> {
        let n = side(self.inner.variant());
        let bytes = square.trim().to_ascii_lowercase().into_bytes();
        let index = match bytes.as_slice() {
            [c, r] if (b'a'..b'a' + n as u8).contains(c) && (b'1'..b'1' + n as u8).contains(r) => {
                usize::from(c - b'a') + n * usize::from(r - b'1')
            }
            _ => {
                return Err(PyIndexError::new_err(format!(
                    "{square:?} is no square of this board"
                )));
            }
        };
        Ok(self.to_board()[index / n][index % n])
    }
}
