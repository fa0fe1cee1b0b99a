"""fanorona.prove: the prover from Python, the same object as `fanorona prove --json`; proof
files continued and locked; bad input refused with a ValueError."""

from __future__ import annotations

import json
import subprocess

import pytest

import fanorona

WON = "9/9/3B5/9/2W1B4 w"


def without_times(report):
    """The report without its seconds, which differ from run to run."""
    report = dict(report)
    del report["seconds"]
    report["questions"] = [{k: v for k, v in q.items() if k != "seconds"} for q in report["questions"]]
    return report


def test_a_won_position_is_proven_with_the_turns_that_keep_it(fanorona_bin):
    report = fanorona.prove(WON, turns=True)
    assert report["value"] == "win" and report["side_to_move"] == "white"
    assert report["fen"] == WON + " 0 1" and report["board"] == "9x5"
    # Capturing both black pieces wins; stopping after the first does not.
    assert report["turns"] == [
        {"turn": "c1d1A", "status": "spoils"},
        {"turn": "c1d1Ad2A", "status": "keeps"},
    ]
    assert report["proof"] is None
    # The same object as the CLI's (both asking the value's questions in turn).
    cli = subprocess.run(
        [fanorona_bin, "prove", WON, "--turns", "--json", "--quiet", "--threads", "1"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert without_times(report) == without_times(json.loads(cli))


def test_a_board_start_within_a_budget_and_without_one(tmp_path):
    proven = fanorona.prove(board="5x3", turns=True, nodes=100_000)
    assert proven["value"] == "win"
    assert {"turn": "c1c2A", "status": "keeps"} in proven["turns"]
    # One node is too few: unproven, no turns.
    unproven = fanorona.prove(board="5x3", turns=True, nodes=1)
    assert unproven["value"] is None and unproven["turns"] == []
    # A proof file is written and continued: the second run searches nothing.
    path = tmp_path / "5x3.proof"
    first = fanorona.prove(board="5x3", nodes=100_000, proof=path)
    assert first["proof"] == str(path) and path.exists()
    again = fanorona.prove(board="5x3", nodes=100_000, proof=path)
    assert again["value"] == "win" and again["nodes"] == 0


def test_two_threads_prove_the_same_values():
    # Won, drawn and lost 5x3 positions, the value's two questions at once or in turn.
    for fen, value in [("BB3/5/3WW w", "win"), ("B4/5/4W w", "draw"), ("B3B/5/1W3 w", "loss")]:
        assert fanorona.prove(fen, threads=2)["value"] == value
        assert fanorona.prove(fen, threads=1)["value"] == value


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError, match='bad FEN "nonsense"'):
        fanorona.prove("nonsense")
    with pytest.raises(ValueError, match="not both"):
        fanorona.prove(WON, board="9x5")
    with pytest.raises(ValueError, match="bad board"):
        fanorona.prove(board="4x3")
    with pytest.raises(ValueError, match="the game is over"):
        fanorona.prove("9/9/9/9/2W6 w")
    with pytest.raises(ValueError, match="bad tables"):
        fanorona.prove(WON, tables="/nonexistent/tables")
    with pytest.raises(ValueError, match="seconds"):
        fanorona.prove(WON, seconds=-1.0)
    with pytest.raises(ValueError, match="threads=3"):
        fanorona.prove(WON, threads=3)
