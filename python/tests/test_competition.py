"""The course competitions' agent: a reversed game to the end against a
random mover, every answer legal, in time, the decision last."""

import random
import time

import pytest

import orca
from orca.competition import AI, COLOR_BLACK, COLOR_WHITE


def squares(position):
    return sorted((int(m[1]) - 1, ord(m[0]) - ord("a")) for m in position.legal_moves() if m != "pass")


def name(square):
    row, column = square
    return "abcdefgh"[column] + str(row + 1)


@pytest.mark.parametrize("color", [COLOR_BLACK, COLOR_WHITE])
def test_a_reversed_game_against_a_random_mover(color):
    time_out = 1.0
    agent = AI(8, color, time_out)
    rng = random.Random(color)
    position = orca.Position(variant="reversed")
    answers = 0
    while not position.is_over():
        mine = (position.side_to_move == "black") == (color == COLOR_BLACK)
        legal = squares(position)
        if mine:
            started = time.perf_counter()
            choice = agent.go(position.to_board())
            elapsed = time.perf_counter() - started
            assert elapsed < time_out, elapsed
            assert sorted(agent.candidate_list) == legal
        if not legal:
            # A pass: the agent's answer is an empty list.
            assert not mine or choice is None
            position = position.play("pass")
            continue
        if mine:
            assert agent.candidate_list[-1] == choice
            move = name(choice)
            answers += 1
        else:
            move = name(rng.choice(legal))
        position = position.play(move)
    assert answers > 10
    black, white = position.discs()
    # Fewer discs win; against random moves Orca wins.
    mine, theirs = (black, white) if color == COLOR_BLACK else (white, black)
    assert mine < theirs, (black, white)


def test_a_pass_is_an_empty_list():
    board = orca.Position(
        "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X",
        variant="reversed",
    ).to_board()
    agent = AI(8, COLOR_BLACK, 1.0)
    assert agent.go(board) is None and agent.candidate_list == []
    white = AI(8, COLOR_WHITE, 1.0)
    assert white.go(board) == (7, 7) and white.candidate_list == [(7, 7)]


def test_bad_settings_and_boards():
    with pytest.raises(ValueError):
        AI(10, COLOR_BLACK, 5)
    with pytest.raises(ValueError):
        AI(8, 0, 5)
    with pytest.raises(ValueError):
        AI(8, COLOR_BLACK, -1)
    agent = AI(8, COLOR_BLACK, 1.0)
    with pytest.raises(ValueError):
        agent.go([[0] * 8] * 7)
