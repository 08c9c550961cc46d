"""Type stubs of Orca's compiled module (re-exported by ``orca``)."""

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

__version__: str

class Position:
    """A position of Othello, reversed Othello or tic-tac-toe: the discs, the
    side to move and the rules. Immutable: ``play`` returns a new one."""

    def __init__(self, text: Optional[str] = None, variant: str = "othello") -> None:
        """The start position, or a position string as the protocols read it
        (64 squares and the side to move, or ``startpos``, optionally with
        ``moves f5 d6 ...``, or a move list alone)."""
    @staticmethod
    def from_board(board: Any, side_to_move: Union[int, str], variant: str = "othello") -> "Position":
        """A position from ``board[row][column]`` (row 0 holds a1-h1; 0 empty,
        -1 black, 1 white), e.g. a list of lists or a numpy array, and the
        side to move (-1/1 or ``"black"``/``"white"``)."""
    def to_board(self) -> List[List[int]]:
        """The board as rows of 0, -1 (black) and 1 (white)."""
    @property
    def variant(self) -> str: ...
    @property
    def side_to_move(self) -> str:
        """``"black"`` or ``"white"``."""
    def legal_moves(self) -> List[str]:
        """Square names; ``["pass"]`` when the side must pass; empty once over."""
    def play(self, move_: str) -> "Position":
        """The position after the move; ``ValueError`` naming an illegal one."""
    def discs(self) -> Tuple[int, int]:
        """Black's and white's discs."""
    def is_over(self) -> bool: ...
    def score(self) -> Optional[int]:
        """Black's final disc difference once over (empties to the winner)."""
    def empties(self) -> int: ...
    def perft(self, depth: int) -> int:
        """Leaves ``depth`` plies down (a pass is a ply)."""
    def diagram(self) -> str: ...
    def __getitem__(self, square: str) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Line:
    """One line of a multi-PV search."""

    move: str
    score: float
    pv: List[str]

class SearchResult:
    """What ``Engine.search`` found."""

    move: str
    score: Optional[float]
    exact: bool
    depth: int
    nodes: int
    time: float
    pv: List[str]
    lines: List[Line]
    book: bool

class Engine:
    """Orca's search, its table and opening book, for one game's positions."""

    def __init__(
        self,
        variant: str = "othello",
        threads: int = 1,
        hash_mb: int = 64,
        level: int = 20,
        book: bool = True,
    ) -> None: ...
    @property
    def variant(self) -> str: ...
    def search(
        self,
        position: Position,
        movetime: Optional[float] = None,
        depth: Optional[int] = None,
        multipv: int = 1,
    ) -> SearchResult:
        """The best move within ``movetime`` seconds and/or ``depth`` plies
        (neither: one second); runs without the GIL; Ctrl-C stops it."""
    def new_game(self) -> None: ...

class Solution:
    """The exact result of a position."""

    score: int
    best_moves: List[str]
    pv: List[str]
    moves: List[Tuple[str, int]]
    nodes: int
    time: float

def solve(position: Position, threads: int = 1, hash_mb: int = 64) -> Solution:
    """The exact score for the side to move and every best move (Othello and
    reversed Othello, up to 36 empty squares); runs without the GIL."""

class Game:
    """A game from a file: its start, its moves (passes as ``"pass"``)."""

    start: Position
    moves: List[str]
    properties: Dict[str, str]
    tournament: Optional[int]
    black_player: Optional[int]
    white_player: Optional[int]
    theoretical_score: Optional[int]
    @property
    def end(self) -> Position: ...
    def positions(self) -> List[Position]: ...
    def __len__(self) -> int: ...

def parse_ggf(text: str) -> List[Game]: ...
def read_ggf(path: Union[str, "os.PathLike[str]"]) -> List[Game]: ...
def parse_wthor(data: bytes) -> List[Game]: ...
def read_wthor(path: Union[str, "os.PathLike[str]"]) -> List[Game]: ...
