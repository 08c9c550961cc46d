"""Shared helpers of the Python package's tests: the repository's data."""

from pathlib import Path

import pytest

#: The repository's data/ (endgame suites, WTHOR files), beside python/.
DATA = Path(__file__).resolve().parents[2] / "data"


def obf_problems(name, count):
    """The first `count` problems of data/obf/NAME.obf: (position text, the
    best score, the moves reaching it)."""
    problems = []
    for line in (DATA / "obf" / f"{name}.obf").read_text().splitlines():
        if not line.strip() or line.startswith("%"):
            continue
        fields = [f.strip() for f in line.split(";") if f.strip()]
        moves = [(m.split(":")[0].lower(), int(m.split(":")[1])) for m in fields[1:]]
        best = max(score for _, score in moves)
        problems.append((fields[0], best, sorted(m for m, s in moves if s == best)))
        if len(problems) == count:
            break
    return problems


@pytest.fixture(scope="session")
def data():
    return DATA
