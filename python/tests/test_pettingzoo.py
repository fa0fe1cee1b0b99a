"""fanorona.pettingzoo: PettingZoo's own checks, chains, rewards, masks against the Rust env."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import fanorona
from fanorona import Position
from fanorona.pettingzoo import env as make_env
from fanorona.pettingzoo import fanorona_v0


@pytest.mark.parametrize("board", ["9x5", "5x3"])
def test_api_test(board):
    api_test(make_env(board=board, turn_limit=60), num_cycles=300)


def test_seed_test():
    seed_test(lambda: make_env(board="5x5", random_opening=2), num_cycles=200)


def play_random(environment, seed):
    """Plays a whole game with random legal actions; returns the visited (agent, mask) pairs."""
    rng = np.random.default_rng(seed)
    environment.reset(seed=seed)
    seen = []
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        mask = observation["action_mask"]
        seen.append((agent, environment.unwrapped.position, mask.copy()))
        environment.step(int(rng.choice(np.flatnonzero(mask))))
    return seen


def test_masks_equal_the_rust_envs_and_chains_keep_the_agent():
    environment = make_env(board="9x5")
    seen = play_random(environment, seed=3)
    assert len(seen) > 10
    chain_repeats = 0
    for (agent, position, mask), following in zip(seen, seen[1:] + [None]):
        assert mask.dtype == np.int8
        assert np.array_equal(mask.astype(bool), position.action_mask())
        assert agent == position.side_to_move
        if following is not None and following[1].in_chain:
            assert following[0] == agent
            chain_repeats += 1
    assert chain_repeats > 0, "a random 9x5 game has capture chains"


def test_rewards_at_the_end_and_draws_score_zero():
    environment = make_env(fen="B4/5/4W w", rules="no-capture=1")
    environment.reset(seed=0)
    observation, *_ = environment.last()
    environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert all(environment.terminations.values())
    assert environment.rewards == {"white": 0.0, "black": 0.0}


def test_a_win_gives_plus_and_minus_one():
    # White's only turn captures black's last piece: c1 -> b1 approaches a1.
    environment = make_env(fen="5/5/B1W2 w")
    environment.reset(seed=0)
    observation, *_ = environment.last()
    position = environment.unwrapped.position
    assert position.legal_turns() == ["c1b1A"]
    environment.step(position.action_id("c1b1A"))
    assert all(environment.terminations.values())
    assert environment.rewards == {"white": 1.0, "black": -1.0}


def test_truncation_at_the_turn_limit():
    environment = make_env(board="9x5", turn_limit=3)
    seen = play_random(environment, seed=1)
    assert {agent for agent, *_ in seen} <= {"white", "black"}
    assert all(environment.unwrapped.truncations.values()) or all(environment.unwrapped.terminations.values())


def test_illegal_actions_raise_and_change_nothing():
    environment = make_env(board="9x5")
    environment.reset(seed=0)
    before = environment.unwrapped.position.fen
    with pytest.raises(ValueError, match="not legal"):
        environment.step(0)
    assert environment.unwrapped.position.fen == before
    assert environment.agent_selection == "white"
    with pytest.raises(ValueError):
        fanorona.pettingzoo.env(board="2x2")


def test_render_ansi_draws_the_board():
    environment = make_env(board="5x3", render_mode="ansi")
    environment.reset(seed=0)
    assert str(Position(board="5x3")) == environment.render()


def test_a_finished_start_is_refused_by_every_environment():
    fen = "9/9/9/9/9 w 0 1"
    makers = [
        lambda: make_env(fen=fen),
        lambda: fanorona.Env(fen=fen),
        lambda: fanorona.SingleAgentEnv(fen=fen),
        lambda: fanorona.VecEnv(2, fen=fen),
        lambda: make_env(fen="5/5/5 w"),
    ]
    for make in makers:
        with pytest.raises(ValueError, match="finished game"):
            make()


def test_out_of_range_actions_raise_value_error():
    environment = make_env(board="5x3").unwrapped
    environment.reset(seed=0)
    for action in (-1, 2**70):
        with pytest.raises(ValueError, match="out of range"):
            environment.step(action)
    assert environment.agent_selection == "white"


def with_side_to_move(fen, side):
    """The FEN with another side to move (a turn start: no chain field)."""
    fields = fen.split()
    fields[1] = side[0]
    return " ".join(fields)


def test_each_agent_observes_from_its_own_side():
    environment = fanorona_v0.env(board="9x5")
    raw = environment.unwrapped
    environment.reset(seed=2)
    rng = np.random.default_rng(2)
    compared = 0
    for agent in environment.agent_iter(max_iter=400):
        observation, _, terminated, truncated, _ = environment.last()
        other = "black" if agent == "white" else "white"
        mine, theirs = raw.observe(agent), raw.observe(other)
        # The two views show one board turned 180 degrees, own and enemy planes swapped.
        assert np.array_equal(mine["observation"][0], theirs["observation"][1][::-1, ::-1])
        assert not theirs["action_mask"].any() and theirs["action_mask"].dtype == np.int8
        if terminated or truncated:
            assert not mine["action_mask"].any()
            environment.step(None)
            continue
        assert np.array_equal(observation["observation"], mine["observation"])
        position = raw.position
        if not position.in_chain:
            # The other side's view is what it would see with the move: all planes but the
            # repetition count (a position made from a FEN has no history).
            expected = Position(with_side_to_move(position.fen, other), rules=position.rules)
            keep = [p for p in range(18) if p != 13]
            assert np.array_equal(theirs["observation"][keep], expected.observation()[keep])
            compared += 1
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert compared >= 10
    assert all(raw.terminations.values()) or all(raw.truncations.values())


def test_the_versioned_module_is_the_default():
    assert fanorona_v0.raw_env.metadata["name"] == "fanorona_v0"
    assert fanorona.pettingzoo.env is fanorona_v0.env
    assert fanorona.pettingzoo.raw_env is fanorona_v0.raw_env


def test_one_turn_limit_default_everywhere():
    import inspect

    from fanorona.gymnasium import FanoronaEnv

    assert fanorona.DEFAULT_TURN_LIMIT == 300
    for make in (fanorona_v0.raw_env, FanoronaEnv):
        assert inspect.signature(make).parameters["turn_limit"].default == 300
