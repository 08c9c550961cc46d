"""The agent shape of the time-limited course competitions.

Their referee imports a module, makes ``AI(chessboard_size, color, time_out)``
and, at each of the agent's turns, calls ``go(chessboard)`` with the board as
an 8x8 array (0 empty, -1 black, 1 white). The agent answers by filling
``candidate_list`` with its legal moves as ``(row, column)`` tuples, the move
it chooses last, within ``time_out`` seconds; an empty list is a pass.

>>> from orca.competition import AI
>>> agent = AI(8, -1, 5)
"""

from typing import Any, List, Optional, Tuple

from ._orca import Engine, Position

#: The colours as the competitions write them.
COLOR_BLACK = -1
COLOR_WHITE = 1
COLOR_NONE = 0

#: Seconds kept back from ``time_out`` for the referee's own work (the
#: array's conversion, the process, a busy machine).
SAFETY = 0.25


def _square(name: str) -> Tuple[int, int]:
    """``"f5"`` as ``(row, column)``: row 4 (rank 5), column 5 (file f)."""
    return int(name[1:]) - 1, ord(name[0]) - ord("a")


class AI:
    """An Orca agent for the course competitions' referee.

    ``variant`` is ``"reversed"`` (fewer discs win, the usual rules of these
    competitions) or ``"othello"``. The engine keeps its transposition table
    from one move to the next.
    """

    def __init__(
        self,
        chessboard_size: int,
        color: int,
        time_out: float,
        variant: str = "reversed",
        level: int = 20,
    ) -> None:
        if chessboard_size != 8:
            raise ValueError(f"chessboard_size: Orca plays on 8x8 boards, not {chessboard_size}")
        if color not in (COLOR_BLACK, COLOR_WHITE):
            raise ValueError(f"color: expected -1 (black) or 1 (white), not {color!r}")
        if not time_out > 0:
            raise ValueError(f"time_out: expected seconds above 0, not {time_out!r}")
        self.chessboard_size = chessboard_size
        self.color = color
        self.time_out = time_out
        self.variant = variant
        self.candidate_list: List[Tuple[int, int]] = []
        self._engine = Engine(variant=variant, level=level)

    def budget(self) -> float:
        """The seconds the search may take: what ``time_out`` leaves after
        the safety margin, and never less than 10 ms."""
        return max(0.01, min(self.time_out - SAFETY, self.time_out * 0.8))

    def go(self, chessboard: Any) -> Optional[Tuple[int, int]]:
        """Fills ``candidate_list`` with every legal move, the chosen one
        last, and returns the choice (``None`` for a pass)."""
        self.candidate_list = []
        position = Position.from_board(chessboard, self.color, self.variant)
        moves = [m for m in position.legal_moves() if m != "pass"]
        if not moves:
            return None
        # Every legal move first, so that the referee has an answer at once.
        self.candidate_list = [_square(m) for m in moves]
        if len(moves) == 1:
            return self.candidate_list[0]
        best = self._engine.search(position, movetime=self.budget()).move
        choice = _square(best)
        self.candidate_list.remove(choice)
        self.candidate_list.append(choice)
        return choice
