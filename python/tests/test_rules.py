"""The rules through Python: perft against the reference counts, position
strings and boards both ways, illegal moves and bad input."""

import pytest

import orca

START = "---------------------------OX------XO--------------------------- X"


def test_perft_matches_the_reference_counts():
    # The published counts from the start (passes count as plies).
    expected = [1, 4, 12, 56, 244, 1396, 8200, 55092]
    start = orca.Position()
    assert [start.perft(d) for d in range(8)] == expected
    # Reversed Othello has the same moves.
    assert orca.Position(variant="reversed").perft(6) == 8200
    # Tic-tac-toe: 9 * 8 * 7 first plies.
    assert orca.Position(variant="tictactoe").perft(3) == 504


def test_perft_by_hand_equals_perft():
    def count(position, depth):
        if depth == 0:
            return 1
        moves = position.legal_moves()
        return sum(count(position.play(m), depth - 1) for m in moves)

    position = orca.Position("f5d6c3d3")
    assert count(position, 4) == position.perft(4)


def test_position_strings_round_trip():
    start = orca.Position()
    assert str(start) == START
    assert orca.Position(START) == start
    assert orca.Position("startpos") == start
    after = orca.Position("startpos moves f5 d6")
    assert after == start.play("f5").play("d6") == orca.Position("f5d6")
    assert orca.Position(str(after)) == after
    assert orca.Position(f"{START} moves f5") == start.play("f5")
    assert hash(orca.Position("f5")) == hash(start.play("f5"))
    assert repr(start) == f"Position('{START}', variant='othello')"
    assert orca.Position(START, variant="reversed") != start


def test_the_state_of_a_position():
    position = orca.Position().play("f5")
    assert position.side_to_move == "white"
    assert position.discs() == (4, 1)
    assert position.empties() == 59
    assert not position.is_over()
    assert position.score() is None
    assert position.legal_moves() == ["f4", "d6", "f6"]
    assert position["f5"] == -1 and position["d4"] == 1 and position["a1"] == 0
    assert position.variant == "othello"


def test_passes_and_the_end():
    # Black must pass: white's only disc is boxed in, black has no flip.
    must_pass = orca.Position(
        "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOX- X"
    )
    assert must_pass.legal_moves() == ["pass"]
    after = must_pass.play("pass")
    assert after.legal_moves() == ["h8"]
    end = after.play("h8")
    assert end.is_over() and end.legal_moves() == []
    assert end.score() == 64 - 2 * end.discs()[1]
    assert end.discs()[0] + end.discs()[1] == 64
    with pytest.raises(ValueError, match="over"):
        end.play("a1")


def test_an_illegal_move_is_refused_and_changes_nothing():
    start = orca.Position()
    with pytest.raises(ValueError, match="'a1'|\"a1\"") as refused:
        start.play("a1")
    assert "legal: d3 c4 f5 e6" in str(refused.value)
    for bad in ["z9", "i1", "a0", "", "f", "pass", "f5f5"]:
        with pytest.raises(ValueError):
            start.play(bad)
    assert str(start) == START


def test_boards_both_ways():
    position = orca.Position("f5d6c3")
    board = position.to_board()
    assert len(board) == 8 and all(len(row) == 8 for row in board)
    assert board[4][5] == -1  # f5, black
    assert orca.Position.from_board(board, position.side_to_move) == position
    assert orca.Position.from_board(board, 1) == position  # white to move
    # Any indexable of rows: tuples, and numpy arrays where installed.
    rows = tuple(tuple(row) for row in board)
    assert orca.Position.from_board(rows, "white") == position
    ttt = orca.Position.from_board([[0, -1, 0], [0, 1, 0], [0, 0, 0]], -1, variant="tictactoe")
    assert str(ttt) == "-X--O---- X"


def test_numpy_boards():
    np = pytest.importorskip("numpy")
    position = orca.Position("f5d6c3")
    array = np.array(position.to_board(), dtype=np.int8)
    assert orca.Position.from_board(array, 1) == position
    assert orca.Position.from_board(array.astype(float), 1) == position


def test_bad_input_raises_clear_errors():
    with pytest.raises(ValueError):
        orca.Position("X" * 10 + " X")
    with pytest.raises(ValueError):
        orca.Position("this is not a position")
    with pytest.raises(ValueError, match="variant"):
        orca.Position(variant="chess")
    board = orca.Position().to_board()
    with pytest.raises(ValueError, match="8 rows"):
        orca.Position.from_board(board[:7], -1)
    with pytest.raises(ValueError, match=r"board\[2\]"):
        orca.Position.from_board(board[:2] + [[0] * 7] + board[3:], -1)
    with pytest.raises(ValueError, match=r"board\[0\]\[0\]"):
        orca.Position.from_board([[2] + [0] * 7] + board[1:], -1)
    with pytest.raises(TypeError):
        orca.Position.from_board([["x"] * 8] * 8, -1)
    with pytest.raises(TypeError):
        orca.Position.from_board(42, -1)
    with pytest.raises(ValueError, match="side to move"):
        orca.Position.from_board(board, 0)
    with pytest.raises(TypeError, match="side to move"):
        orca.Position.from_board(board, None)
    with pytest.raises(IndexError):
        orca.Position()["z9"]
    with pytest.raises(ValueError, match="depth"):
        orca.Position().perft(99)
    # A board no game can reach (the centre empty) is still a position; one
    # with a bad square count is not.
    with pytest.raises(ValueError):
        orca.Position("-" * 63 + " X")
