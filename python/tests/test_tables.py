"""fanorona.EndgameTables: tables built by the CLI, probed from Python, agreeing with the CLI's
probe; bad folders and boards refused with a ValueError."""

from __future__ import annotations

import subprocess

import pytest

from fanorona import EndgameTables, Position


@pytest.fixture(scope="module")
def tables_dir(fanorona_bin, tmp_path_factory):
    out = tmp_path_factory.mktemp("tables")
    subprocess.run(
        [fanorona_bin, "tables", "build", "--board", "9x5", "--pieces", "3", "--out", out, "--quiet"],
        check=True,
        capture_output=True,
    )
    return out


def test_probes_give_the_value_distance_and_best_turns(tables_dir, fanorona_bin):
    tables = EndgameTables(tables_dir)
    assert tables.pieces == 3 and tables.board == (9, 5)
    won = tables.probe(Position("9/9/3B5/9/2W1B4 w"))
    assert won["value"] == "win" and won["distance"] == 1
    assert won["best_turns"] == ["c1d1Ad2A"]
    # Stopping the chain after the first capture keeps no win.
    assert won["turns"]["c1d1Ad2A"] == "win" and won["turns"]["c1d1A"] != "win"
    lost = tables.probe(Position("9/9/9/1W7/WB7 b"))
    assert lost["value"] == "loss" and lost["distance"] == 2
    drawn = tables.probe(Position("W8/9/9/9/8B b"))
    assert drawn["value"] == "draw" and drawn["distance"] is None
    # The same answer as the CLI's probe.
    cli = subprocess.run(
        [fanorona_bin, "tables", "probe", "--tables", tables_dir, "9/9/9/1W7/WB7 b"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "best turns: " + " ".join(lost["best_turns"]) in cli
    # Beyond the tables: more pieces, or a finished game.
    assert tables.probe(Position()) is None
    assert tables.probe(Position("9/9/9/9/2W6 b")) is None


def test_bad_folders_and_boards_are_value_errors(tmp_path, tables_dir):
    with pytest.raises(ValueError, match="no endgame tables of 9x5"):
        EndgameTables(tmp_path)
    with pytest.raises(ValueError, match="no endgame tables of 5x3"):
        EndgameTables(tables_dir, board="5x3")
    with pytest.raises(ValueError):
        EndgameTables(tables_dir, board="4x3")


def test_a_position_of_another_board_is_a_value_error(tables_dir):
    # As `fanorona tables probe` refuses it, not None as for "too many pieces".
    tables = EndgameTables(tables_dir)
    with pytest.raises(ValueError, match="the position is on board 5x3, the tables are for 9x5"):
        tables.probe(Position("5/5/2W1B w"))
