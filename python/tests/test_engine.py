"""The engine and the solver through Python: answers in time, scores the
endgame suites know, the GIL released, bad arguments refused."""

import _thread
import signal
import threading
import time

import pytest

import orca
from conftest import obf_problems

#: Out of the opening book: twelve moves in.
MIDGAME = "f5d6c3d3c4f4f6f3e6e7d7c6"


@pytest.fixture(scope="module")
def engine():
    return orca.Engine()


def test_a_search_answers_a_legal_move_within_its_time(engine):
    position = orca.Position(MIDGAME)
    started = time.perf_counter()
    result = engine.search(position, movetime=0.1)
    wall = time.perf_counter() - started
    assert result.move in position.legal_moves()
    assert result.pv[0] == result.move
    assert result.depth > 0 and result.nodes > 0 and not result.book
    # The engine's own clock keeps the limit; the call's adds Python's work.
    assert result.time <= 0.1
    assert wall < 1.0, wall


def test_depth_multipv_and_the_book(engine):
    position = orca.Position(MIDGAME)
    result = engine.search(position, depth=6)
    assert result.depth == 6 and result.score is not None
    lines = engine.search(position, depth=4, multipv=3).lines
    assert len(lines) == 3
    assert [line.score for line in lines] == sorted((line.score for line in lines), reverse=True)
    assert len({line.move for line in lines}) == 3
    assert all(line.pv[0] == line.move for line in lines)
    book = engine.search(orca.Position("f5"), movetime=0.1)
    assert book.book and book.move in ["d6", "f6", "f4"]
    assert not orca.Engine(book=False).search(orca.Position("f5"), depth=2).book


def test_passes_levels_and_tictactoe():
    must_pass = orca.Position(
        "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X"
    )
    assert orca.Engine().search(must_pass, depth=2).move == "pass"
    weak = orca.Engine(level=1).search(orca.Position(MIDGAME), movetime=0.1)
    assert weak.move in orca.Position(MIDGAME).legal_moves()
    ttt = orca.Engine(variant="tictactoe").search(orca.Position(variant="tictactoe"), depth=9)
    assert ttt.exact and ttt.score == 0


def test_the_solver_knows_the_suites_scores():
    for text, best, moves in obf_problems("fforum-1-19", 4) + obf_problems("fforum-40-59", 1):
        solution = orca.solve(orca.Position(text))
        assert solution.score == best, text
        assert sorted(solution.best_moves) == moves, text
        assert solution.pv[0] in moves
        assert solution.moves[0][1] == best


def test_a_search_leaves_the_other_threads_running(engine):
    counted = [0]
    done = threading.Event()

    def count():
        while not done.is_set():
            counted[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        engine.search(orca.Position(MIDGAME), movetime=0.5)
        during = counted[0]
    finally:
        done.set()
        counter.join()
    # Holding the GIL for half a second would leave the counter near zero.
    assert during > 10_000, during


def test_ctrl_c_stops_a_search(engine):
    # A process started in the background of a shell inherits SIGINT ignored,
    # and Python then leaves it so (interrupt_main would do nothing): the
    # test puts Python's own Ctrl-C handler in place for its duration.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.3, _thread.interrupt_main)
        timer.start()
        started = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            engine.search(orca.Position(MIDGAME), movetime=60)
        assert time.perf_counter() - started < 30
    finally:
        signal.signal(signal.SIGINT, previous)
    # The engine still works after.
    assert engine.search(orca.Position(MIDGAME), depth=3).depth == 3


def test_bad_arguments_are_refused(engine):
    position = orca.Position(MIDGAME)
    for kwargs in [
        {"movetime": -1},
        {"movetime": 0},
        {"movetime": float("nan")},
        {"depth": 0},
        {"depth": 100},
        {"multipv": 0},
    ]:
        with pytest.raises(ValueError):
            engine.search(position, **kwargs)
    with pytest.raises(TypeError):
        engine.search(str(position))
    with pytest.raises(ValueError, match="reversed"):
        engine.search(orca.Position(variant="reversed"))
    over = orca.Position(
        "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX X"
    )
    with pytest.raises(ValueError, match="over"):
        engine.search(over)
    for kwargs in [{"threads": 0}, {"hash_mb": 0}, {"level": 21}, {"variant": "go"}]:
        with pytest.raises(ValueError):
            orca.Engine(**kwargs)
    with pytest.raises(ValueError, match="empty squares"):
        orca.solve(orca.Position())
    with pytest.raises(ValueError, match="Othello"):
        orca.solve(orca.Position(variant="tictactoe"))
    assert orca.solve(over).score == 64
