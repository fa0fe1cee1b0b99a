"""fanorona.Position: rules against the reference counts and the Rust CLI, play, undo, errors."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

import fanorona
from fanorona import Position


def test_perft_matches_rules_md():
    start = Position()
    assert [start.perft(d) for d in (1, 2, 3)] == [5, 39, 724]


def test_legal_turns_match_the_reference_positions(reference_positions):
    for board, fen, turns in reference_positions:
        position = Position(fen)
        assert position.board == tuple(int(x) for x in board.split("x"))
        assert position.legal_turns() == turns, fen


def test_legal_turns_agree_with_the_rust_cli(fanorona_bin, reference_positions):
    for _, fen, _ in reference_positions[::40]:
        out = subprocess.run(
            [fanorona_bin, "moves", "--fen", fen], check=True, capture_output=True, text=True
        ).stdout
        # `moves` prints one turn per line.
        assert Position(fen).legal_turns() == sorted(out.split()), fen


def test_steps_and_actions_name_each_other():
    position = Position()
    steps = position.legal_steps()
    actions = position.legal_actions()
    assert len(steps) == len(actions) > 0
    assert [position.action_id(s) for s in steps] == actions
    assert [position.action_name(a) for a in actions] == steps
    assert np.flatnonzero(position.action_mask()).tolist() == actions


def test_a_chain_keeps_the_same_side_to_act_and_undo_restores(reference_positions):
    # A reference position whose turns include a chain of two captures.
    fen, turn = next(
        (fen, turn)
        for _, fen, turns in reference_positions
        for turn in turns
        if turn.count("A") + turn.count("W") >= 2
    )
    position = Position(fen)
    start_fen = position.fen
    mover = position.side_to_move
    first_step = turn[:5]  # the first capture, e.g. "c1d1A"
    position.play_step(first_step)
    assert position.in_chain
    assert position.side_to_move == mover
    assert "stop" in position.legal_steps()
    position.play_step("stop")
    assert position.side_to_move != mover
    assert position.undo() == "stop"
    assert position.undo() == first_step
    assert position.fen == start_fen
    position.play_turn(turn)
    assert position.side_to_move != mover and position.history == [turn]
    assert position.undo() == turn and position.fen == start_fen
    assert position.undo() is None


def test_a_side_without_moves_has_lost():
    position = Position("BW1/WW1/3 b")
    assert position.is_over
    assert (position.result, position.winner, position.termination) == ("1-0", "white", "NoMoves")
    assert position.returns == (1.0, -1.0)
    assert position.legal_turns() == [] and position.legal_actions() == []
    with pytest.raises(ValueError, match="game is over"):
        position.play_step(0)


def test_draw_by_the_no_capture_rule_scores_zero():
    position = Position("B4/5/4W w", rules="no-capture=1")
    position.play_turn(position.legal_turns()[0])
    assert position.result == "1/2-1/2" and position.winner is None
    assert position.termination == "NoCaptureLimit"
    assert position.returns == (0.0, 0.0)


def test_bad_input_raises_and_changes_nothing():
    with pytest.raises(ValueError, match="FEN"):
        Position("not a fen")
    with pytest.raises(ValueError, match="rules"):
        Position(rules="sometimes")
    with pytest.raises(ValueError, match="board"):
        Position(board="4x4")
    position = Position()
    fen = position.fen
    with pytest.raises(ValueError, match="illegal|not legal"):
        position.play_step("a1a2")
    with pytest.raises(ValueError, match="not legal"):
        position.play_step(0)
    with pytest.raises(ValueError, match="out of range"):
        position.play_step(10**6)
    with pytest.raises(ValueError, match="a1a2"):
        position.play_turn("a1a2")
    with pytest.raises(TypeError):
        position.play_step(1.5)
    assert position.fen == fen and position.history == []


def test_text_forms():
    position = Position(board="5x3")
    assert position.board == (5, 3)
    drawing = str(position)
    assert drawing.count("\n") >= 5 and "a" in drawing
    assert repr(position).startswith("Position(")
    assert Position(position.fen) == position
    assert position.observation().shape == (18, 3, 5)
    assert position.observation().dtype == np.float32


def test_version_and_help():
    assert fanorona.__version__
    kinds = {kind["name"]: kind for kind in fanorona.agent_kinds()}
    assert {"random", "greedy", "minimax", "mcts", "solver", "net"} <= set(kinds)
    assert kinds["minimax"]["options"]["depth"]["usage"].startswith("depth=N")
    assert "safetensors" in kinds["net"]["path_extensions"]
    assert "legal" in (Position.legal_steps.__doc__ or "")


def test_action_ids_out_of_range_are_value_errors():
    position = Position(board="5x3")
    for action in (-1, position.num_actions, 2**70):
        with pytest.raises(ValueError, match="out of range"):
            position.play_step(action)
        with pytest.raises(ValueError, match="out of range"):
            position.action_name(action)
    with pytest.raises(TypeError, match="integer"):
        position.play_step(1.5)
    assert position.history == []
    position.play_step(np.int64(position.legal_actions()[0]))
    assert len(position.history) == 1


def test_perft_depth_out_of_range_is_a_value_error():
    with pytest.raises(ValueError, match="out of range"):
        Position().perft(-1)
    assert Position().perft(np.int64(1)) == 5


def test_observation_of_either_player():
    # observation(colour) is that player's view, as the PettingZoo env's per-agent observe:
    # the mover's equals observation(); the other side's is the mover's board turned 180
    # degrees with the piece planes swapped.
    env = fanorona.Env(board="9x5", turn_limit=None)
    rng = np.random.default_rng(4)
    while not env.is_done:
        position = env.position
        mover = position.side_to_move
        other = "black" if mover == "white" else "white"
        assert np.array_equal(position.observation(mover), position.observation())
        assert np.array_equal(position.observation(other), env.observation(other))
        assert np.array_equal(position.observation(other)[0], position.observation()[1][::-1, ::-1])
        env.step(int(rng.choice(env.legal_actions())))
    with pytest.raises(ValueError, match="red"):
        fanorona.Position().observation("red")
