"""Game files: GGF records and WTHOR databases read into games that replay."""

import struct

import pytest

import orca

RECORDS = (
    "(;GM[Othello]PC[Club]DT[2001.02.03]PB[Susan]PW[Tom]RE[?]TI[5:00]TY[8]"
    "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
    "B[F5/1.50/3.2]W[D6//4];)\n"
    "(;GM[Othello]PB[a]PW[b]TY[8a]"
    "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
    "B[F5]W[F6]B[E6];)\n"
)


def test_ggf_games_replay():
    games = orca.parse_ggf(RECORDS)
    assert len(games) == 2
    first, second = games
    assert first.moves == ["f5", "d6"]
    assert first.properties["PB"] == "Susan" and first.properties["DT"] == "2001.02.03"
    assert first.end == orca.Position("f5d6")
    assert len(first.positions()) == 3 and first.positions()[0] == orca.Position()
    assert second.start.variant == "reversed"
    assert second.end == orca.Position("f5f6e6", variant="reversed")
    assert len(second) == 3


def test_ggf_files_and_bad_records(tmp_path):
    path = tmp_path / "games.ggf"
    path.write_text(RECORDS)
    assert [g.moves for g in orca.read_ggf(path)] == [["f5", "d6"], ["f5", "f6", "e6"]]
    assert orca.read_ggf(str(path))[0].properties["PW"] == "Tom"
    with pytest.raises(ValueError, match="GGF game 1"):
        orca.parse_ggf("(;GM[Othello]BO[8 junk];)")
    with pytest.raises(ValueError, match="GGF game 3"):
        orca.parse_ggf(RECORDS + "(;GM[Othello]TY[8]B[A1];)")
    with pytest.raises(OSError):
        orca.read_ggf(tmp_path / "missing.ggf")
    assert orca.parse_ggf("no games here") == []


def test_wthor_games_replay(data):
    raw = (data / "wthor" / "WTH_1980.wtb").read_bytes()
    games = orca.read_wthor(data / "wthor" / "WTH_1980.wtb")
    assert len(games) == struct.unpack_from("<I", raw, 4)[0]
    for game in games:
        positions = game.positions()
        assert len(positions) == len(game.moves) + 1
        position = game.start
        for move, after in zip(game.moves, positions[1:]):
            position = position.play(move)
            assert position == after
        assert isinstance(game.theoretical_score, int)
        assert game.tournament is not None and game.properties == {}
    # Finished games: their disc count is the record's.
    over = [g for g in games if g.end.is_over()]
    assert over


def test_bad_wthor_data():
    with pytest.raises(ValueError):
        orca.parse_wthor(b"short")
    with pytest.raises(ValueError):
        # A header announcing a game that is not there.
        orca.parse_wthor(bytes(4) + struct.pack("<I", 1) + bytes(8))
