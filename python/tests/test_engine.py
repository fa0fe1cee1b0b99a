"""fanorona.engine: a Python player speaking the engine protocol, played by the arena."""

from __future__ import annotations

import io
import sys

import fanorona
from fanorona.engine import Engine, serve


def first_legal(position):
    return position.legal_actions()[0]


def test_the_protocol_answers_with_complete_legal_turns():
    out = io.StringIO()
    lines = ["uci", "isready", "setoption name Board value 5x5", "position startpos", "go", "quit", "go"]
    serve(first_legal, lines=lines, out=out)
    answers = out.getvalue().splitlines()
    assert answers[-3:-1] == ["uciok", "readyok"] and answers[-1].startswith("bestmove ")
    assert sum(a.startswith("bestmove") for a in answers) == 1  # nothing after quit
    start = fanorona.Position(board="5x5")
    assert answers[-1].split()[1] in start.legal_turns()
    # Every step chosen is the first legal one until the turn ends: the turn is that chain.
    expected = start.copy()
    mover = expected.side_to_move
    while expected.side_to_move == mover and not expected.is_over:
        expected.play_step(expected.legal_actions()[0])
    played = start.copy()
    played.play_turn(answers[-1].split()[1])
    assert played.fen == expected.fen


def test_positions_with_moves_and_errors():
    engine = Engine(first_legal)
    assert engine.handle("setoption name Board value 5x5") == []
    assert engine.handle("position startpos moves d2c3A") == []
    assert engine.position.side_to_move == "black"
    best = engine.handle("go")[0].split()[1]
    assert best in engine.position.legal_turns()
    finished = Engine(first_legal)
    finished.handle("position fen 3/1W1/3 b 0 1")
    assert finished.handle("go") == ["bestmove (none)"]
    assert engine.handle("position startpos moves a1a1")[0].startswith("info string error:")
    assert engine.handle("stop") == [] and engine.handle("ucinewgame") == []
    assert engine.handle("bogus")[0].startswith("info string error:")
    assert engine.handle("setoption name Board value 4x4")[0].startswith("info string error:")


def test_the_arena_plays_a_python_engine():
    spec = f"engine:cmd={sys.executable},args=-m fanorona.engine --agent greedy"
    summary = fanorona.match(spec, "random", games=20, threads=2, board="5x5", seed=1)
    assert summary["games"] == 20
    assert summary["first_forfeits"] == 0 and summary["second_forfeits"] == 0
    assert summary["score"] >= 0.7, summary  # greedy beats random through the protocol
