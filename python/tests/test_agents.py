"""fanorona.Agent and fanorona.match: every registry kind, search info, errors."""

from __future__ import annotations

import pytest

import fanorona
from fanorona import Agent, Position
from fanorona.pettingzoo import env as make_env


@pytest.mark.parametrize(
    "spec",
    ["random", "greedy", "minimax:depth=2", "mcts:sims=64,seed=3", "solver:board=3x3"],
)
def test_every_kind_plays_legal_steps(spec):
    board = "3x3" if spec.startswith("solver") else "5x5"
    agent = Agent(spec, seed=1)
    position = Position(board=board)
    for _ in range(12):
        if position.is_over:
            break
        action = agent.act(position)
        assert action in position.legal_actions()
        position.play_step(action)


def test_search_info_of_minimax():
    agent = Agent("minimax:depth=3")
    agent.act(Position())
    info = agent.last_info()
    assert info["depth"] == 3 and info["nodes"] > 0 and info["pv"]
    assert Agent("random").last_info() is None


def test_agents_act_on_environments():
    environment = make_env(board="5x3")
    environment.reset(seed=0)
    agent = Agent("greedy")
    action = agent.act(environment)
    assert action in environment.unwrapped.position.legal_actions()


def test_net_agents_and_policy_paths(exported_policy):
    for spec in (f"net:path={exported_policy},sims=16", str(exported_policy)):
        agent = Agent(spec)
        position = Position(board="5x3")
        assert agent.act(position) in position.legal_actions()


def test_bad_specs_and_states_raise():
    with pytest.raises(ValueError, match="kind"):
        Agent("alphabeta")
    with pytest.raises(ValueError, match="depth"):
        Agent("minimax:depth=0")
    with pytest.raises(ValueError):
        Agent("net:path=/nonexistent/model.safetensors")
    with pytest.raises(ValueError, match="over"):
        Agent("random").act(Position("BW1/WW1/3 b"))
    with pytest.raises(TypeError):
        Agent("random").act("e2e3")


def test_match_returns_the_arena_summary():
    summary = fanorona.match("greedy", "random", games=8, threads=2, board="5x5", seed=3)
    assert summary["games"] == 8
    assert summary["wins"] + summary["draws"] + summary["losses"] == 8
    assert summary["score"] > 0.5
    assert summary["first"] == "greedy" and summary["second"] == "random"
    assert summary == fanorona.match("greedy", "random", games=8, threads=1, board="5x5", seed=3) | {
        "seconds": summary["seconds"]
    }
    with pytest.raises(ValueError):
        fanorona.match("random", "nothing")
    with pytest.raises(ValueError, match="game"):
        fanorona.match("random", "random", games=0)


def test_match_counts_out_of_range_are_value_errors():
    for bad in ({"games": -2}, {"threads": -1}, {"seed": -1}, {"max_turns": 2**70}, {"openings": -4}):
        with pytest.raises(ValueError, match="out of range"):
            fanorona.match("random", "random", board="3x3", **bad)
