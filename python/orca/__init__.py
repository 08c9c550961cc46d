"""Orca, an Othello engine, for Python: the rules, the engine and the exact solver.

>>> import orca
>>> pos = orca.Position().play("f5")
>>> pos.legal_moves()
['f4', 'd6', 'f6']
>>> orca.Engine().search(pos, movetime=0.1).move in pos.legal_moves()
True

Positions are immutable values (``play`` returns a new one); the engine and
the solver run without the GIL, so other Python threads go on meanwhile.
"""

from ._orca import (
    Engine,
    Game,
    Line,
    Position,
    SearchResult,
    Solution,
    __version__,
    parse_ggf,
    parse_wthor,
    read_ggf,
    read_wthor,
    solve,
)
from . import competition

__all__ = [
    "Engine",
    "Game",
    "Line",
    "Position",
    "SearchResult",
    "Solution",
    "__version__",
    "competition",
    "parse_ggf",
    "parse_wthor",
    "read_ggf",
    "read_wthor",
    "solve",
]
