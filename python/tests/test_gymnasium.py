"""fanorona/Fanorona-v0: Gymnasium's checker, episodes against agents, errors."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import fanorona  # noqa: F401  (registers the environment)


def test_check_env():
    check_env(gymnasium.make("fanorona/Fanorona-v0", board="5x3").unwrapped)


def run_episode(environment, seed):
    rng = np.random.default_rng(seed)
    observation, info = environment.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        assert np.array_equal(mask.astype(bool), environment.unwrapped.position.action_mask())
        observation, reward, terminated, truncated, info = environment.step(
            int(rng.choice(np.flatnonzero(mask)))
        )
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, terminated


@pytest.mark.parametrize("side", ["white", "black"])
def test_episodes_against_an_agent_end_with_the_result(side):
    environment = gymnasium.make("fanorona/Fanorona-v0", opponent="greedy", side=side, board="5x5")
    results = [run_episode(environment, seed) for seed in range(6)]
    for total, steps, terminated in results:
        assert steps > 0
        assert total in (-1.0, 0.0, 1.0)
        if not terminated:
            assert total == 0.0
    # A random agent loses to the greedy capturer more often than not.
    assert sum(total for total, _, _ in results) < 0


def test_the_agent_acts_only_on_its_own_side():
    environment = gymnasium.make("fanorona/Fanorona-v0", opponent="random", side="black")
    environment.reset(seed=4)
    assert environment.unwrapped.position.side_to_move == "black"
    # `learner`, the former name of `side`, is still accepted, and wins over the default.
    former = gymnasium.make("fanorona/Fanorona-v0", opponent="random", learner="black")
    former.reset(seed=4)
    assert former.unwrapped.position.fen == environment.unwrapped.position.fen


def test_bad_arguments_raise_value_error():
    with pytest.raises(ValueError, match="kind"):
        gymnasium.make("fanorona/Fanorona-v0", opponent="alphabeta")
    with pytest.raises(ValueError, match="colour"):
        gymnasium.make("fanorona/Fanorona-v0", side="red")
    environment = gymnasium.make("fanorona/Fanorona-v0", illegal_action="raise")
    environment.reset(seed=0)
    before = environment.unwrapped.position.fen
    with pytest.raises(ValueError, match="not legal"):
        environment.step(0)
    assert environment.unwrapped.position.fen == before
    with pytest.raises(ValueError, match="illegal_action"):
        gymnasium.make("fanorona/Fanorona-v0", illegal_action="ignore")


def test_an_illegal_action_loses_by_default():
    environment = gymnasium.make("fanorona/Fanorona-v0")
    _, info = environment.reset(seed=0)
    assert info["action_mask"][0] == 0
    before = environment.unwrapped.position.fen
    _, reward, terminated, truncated, info = environment.step(0)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert environment.unwrapped.position.fen == before
    with pytest.raises(RuntimeError, match="reset"):
        environment.unwrapped.step(0)


def test_an_episode_is_determined_by_its_seed():
    environment = gymnasium.make("fanorona/Fanorona-v0", opponent="random", board="5x5")
    assert run_episode(environment, 11) == run_episode(environment, 11)


def test_out_of_range_actions_raise_value_error_when_asked_to():
    environment = gymnasium.make("fanorona/Fanorona-v0", board="5x3", illegal_action="raise")
    environment.reset(seed=0)
    before = environment.unwrapped.position.fen
    for action in (-1, 10**6, 2**70):
        with pytest.raises(ValueError, match="out of range"):
            environment.step(action)
    assert environment.unwrapped.position.fen == before


def test_a_finished_start_is_refused():
    with pytest.raises(ValueError, match="finished game"):
        gymnasium.make("fanorona/Fanorona-v0", fen="9/9/9/9/9 w 0 1")


def test_action_masks_for_maskable_algorithms():
    environment = gymnasium.make("fanorona/Fanorona-v0", board="5x3", opponent="greedy")
    _, info = environment.reset(seed=1)
    masks = environment.unwrapped.action_masks()
    assert masks.dtype == np.int8 and np.array_equal(masks, info["action_mask"])
    assert np.array_equal(masks, environment.unwrapped.position.action_mask())
    while True:
        _, _, terminated, truncated, info = environment.step(int(np.flatnonzero(masks)[0]))
        masks = environment.unwrapped.action_masks()
        if terminated or truncated:
            assert not masks.any()
            break
        assert np.array_equal(masks, info["action_mask"])
