"""gymnasium.make_vec("fanorona/Fanorona-v0"): the Rust vector env against the single env,
next-step autoreset, masks in infos, seeds, illegal actions."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import fanorona
from fanorona.vector import FanoronaVectorEnv


def first_legal(masks):
    return masks.argmax(axis=1)


def test_make_vec_gives_the_rust_vector_env():
    envs = gymnasium.make_vec("fanorona/Fanorona-v0", num_envs=4, board="5x3")
    assert isinstance(envs.unwrapped, FanoronaVectorEnv)
    observations, infos = envs.reset(seed=1)
    assert observations.shape == (4, 18, 3, 5) and observations.dtype == np.float32
    assert infos["action_mask"].shape == (4, envs.single_action_space.n)
    assert infos["action_mask"].dtype == np.int8 and infos["action_mask"].any(axis=1).all()
    assert envs.observation_space.contains(observations.copy())
    observations, rewards, terminations, truncations, infos = envs.step(first_legal(infos["action_mask"]))
    assert rewards.shape == (4,) and rewards.dtype == np.float32
    assert terminations.dtype == np.bool_ and truncations.dtype == np.bool_
    assert np.array_equal(envs.unwrapped.action_masks(), infos["action_mask"])


def test_each_game_is_the_single_env_with_the_same_actions():
    # A deterministic opponent: the vector env's game and the single env see the same game.
    opponent = "minimax:depth=1"
    envs = FanoronaVectorEnv(num_envs=2, opponent=opponent, board="5x5", side="black")
    single = fanorona.SingleAgentEnv(opponent=opponent, board="5x5", side="black")
    observations, infos = envs.reset(seed=3)
    obs, mask = single.reset(seed=0)
    steps = 0
    while True:
        assert np.array_equal(observations[0], obs)
        assert np.array_equal(infos["action_mask"][0], mask)
        action = int(np.flatnonzero(mask)[-1])
        actions = first_legal(infos["action_mask"])
        actions[0] = action
        observations, rewards, terminations, truncations, infos = envs.step(actions)
        obs, mask, reward, terminated, truncated = single.step(action)
        steps += 1
        assert (rewards[0], terminations[0], truncations[0]) == (reward, terminated, truncated)
        if terminated or truncated:
            break
    assert steps > 3
    # Next-step autoreset: the following step starts the game again, its action ignored.
    actions = first_legal(infos["action_mask"])
    actions[0] = 10**6
    observations, rewards, terminations, truncations, infos = envs.step(actions)
    assert (rewards[0], terminations[0], truncations[0]) == (0.0, False, False)
    assert infos["action_mask"][0].any()


def test_episodes_end_with_the_result_and_restart():
    envs = gymnasium.make_vec("fanorona/Fanorona-v0", num_envs=8, board="5x5", opponent="greedy")
    rng = np.random.default_rng(0)
    _, infos = envs.reset(seed=5)
    returns, ended = np.zeros(8), []
    for _ in range(400):
        masks = infos["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in masks])
        _, rewards, terminations, truncations, infos = envs.step(actions)
        returns += rewards
        for i in np.flatnonzero(terminations | truncations):
            ended.append(returns[i])
            returns[i] = 0.0
    assert len(ended) > 8 and set(ended) <= {-1.0, 0.0, 1.0}
    assert sum(ended) < 0  # a random agent loses to the greedy capturer more often than not


def test_the_same_seed_gives_the_same_games():
    def run(seed):
        envs = FanoronaVectorEnv(num_envs=3, board="5x5", opponent="random", random_opening=2)
        observations, infos = envs.reset(seed=seed)
        out = [observations.copy()]
        for _ in range(60):
            observations, *_, infos = envs.step(first_legal(infos["action_mask"]))
            out.append(observations.copy())
        return out

    a, b, c = run(4), run(4), run(5)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))


def test_illegal_actions_lose_or_raise():
    envs = FanoronaVectorEnv(num_envs=2, board="5x3")
    _, infos = envs.reset(seed=0)
    legal = first_legal(infos["action_mask"])
    illegal = legal.copy()
    illegal[1] = int(np.flatnonzero(infos["action_mask"][1] == 0)[0])
    _, rewards, terminations, _, infos = envs.step(illegal)
    assert rewards[1] == -1.0 and terminations[1] and not infos["action_mask"][1].any()
    strict = FanoronaVectorEnv(num_envs=2, board="5x3", illegal_action="raise")
    observations, infos = strict.reset(seed=0)
    before = observations.copy()
    with pytest.raises(ValueError, match="environment 1"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="environment 0"):
        strict.step(np.array([-1, 0]))
    assert np.array_equal(observations, before)  # a view: it would show any change
    strict.step(legal)
    assert not np.array_equal(observations, before)
    with pytest.raises(ValueError, match="65536"):
        FanoronaVectorEnv(num_envs=10**8)
    with pytest.raises(ValueError, match="illegal_action"):
        FanoronaVectorEnv(num_envs=2, illegal_action="ignore")


def test_each_episode_meets_a_freshly_seeded_opponent():
    # The same agent actions (the first legal one) against "random": the episodes of one
    # game differ, because every episode seeds its opponent anew.
    envs = FanoronaVectorEnv(num_envs=1, board="5x5", opponent="random")
    observations, infos = envs.reset(seed=0)
    episodes, current = [], [observations[0].copy()]
    while len(episodes) < 4:
        observations, _, terminations, truncations, infos = envs.step(first_legal(infos["action_mask"]))
        if terminations[0] or truncations[0]:
            episodes.append(current)
            observations, *_, infos = envs.step(np.array([0]))  # next-step autoreset
            current = [observations[0].copy()]
        else:
            current.append(observations[0].copy())
    distinct = {np.concatenate([o.ravel() for o in episode]).tobytes() for episode in episodes}
    assert len(distinct) > 1
