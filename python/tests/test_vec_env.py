"""fanorona.VecEnv: zero-copy views, determinism, auto-reset, agreement with Position, errors."""

from __future__ import annotations

import numpy as np
import pytest

from fanorona import Position, VecEnv


def random_actions(envs, rng):
    return np.array([rng.choice(np.flatnonzero(row)) for row in envs.mask], dtype=np.int64)


def test_shapes_dtypes_and_views_of_one_buffer():
    envs = VecEnv(8, board="9x5", seed=1)
    obs, mask = envs.reset(seed=1)
    assert obs.shape == (8, 18, 5, 9) and obs.dtype == np.float32
    assert mask.shape == (8, envs.num_actions) and mask.dtype == np.int8
    result = envs.step_random()
    for returned, prop in zip(result, (envs.obs, envs.mask, envs.rewards, envs.terminated, envs.truncated)):
        assert np.shares_memory(returned, prop)
        assert not returned.flags.writeable
    assert np.shares_memory(obs, envs.obs)  # the reset's arrays show the newest values
    assert envs.rewards.shape == (8, 2) and envs.players.dtype == np.int8
    with pytest.raises(ValueError):
        envs.obs[0, 0, 0, 0] = 1.0


def test_same_seed_same_trajectories():
    def run(seed):
        envs = VecEnv(16, board="5x5", seed=seed, random_opening=2)
        out = []
        for _ in range(150):
            obs, mask, rewards, terminated, truncated = envs.step_random()
            out.append((obs.copy(), rewards.copy(), terminated.copy()))
        return out

    a, b, c = run(7), run(7), run(8)
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(a, b))
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(a, c))


def test_steps_agree_with_position_and_episodes_reset_themselves():
    envs = VecEnv(4, board="5x3", seed=3)
    rng = np.random.default_rng(0)
    shadows = [Position(board="5x3") for _ in range(4)]
    finished = 0
    for _ in range(300):
        actions = random_actions(envs, rng)
        for shadow, action in zip(shadows, actions):
            shadow.play_step(int(action))
        _, mask, rewards, terminated, truncated = envs.step(actions)
        for i, shadow in enumerate(shadows):
            if terminated[i]:
                finished += 1
                white, black = shadow.returns
                assert tuple(rewards[i]) == (white, black)
                shadows[i] = shadow = Position(board="5x3")
            else:
                assert tuple(rewards[i]) == (0.0, 0.0)
            assert np.array_equal(mask[i], shadow.action_mask())
            assert np.array_equal(envs.obs[i], shadow.observation())
            assert envs.players[i] == (0 if shadow.side_to_move == "white" else 1)
            assert envs.position(i).fen == shadow.fen
    assert finished > 0


def test_the_mover_frame_turns_masks_for_black():
    absolute = VecEnv(1, board="9x5", seed=0)
    mover = VecEnv(1, board="9x5", seed=0, mover_frame=True)
    assert np.array_equal(absolute.mask, mover.mask)  # white to move: the same frame
    action = np.array([absolute.legal_actions(0)[0]])
    absolute.step(action)
    mover.step(action)
    assert absolute.players[0] == 1
    assert absolute.mask[0].sum() == mover.mask[0].sum()
    assert not np.array_equal(absolute.mask, mover.mask)


def test_bad_actions_raise_and_change_nothing():
    envs = VecEnv(4, board="9x5", seed=2)
    before = envs.obs.copy()
    legal = np.array([envs.legal_actions(i)[0] for i in range(4)])
    illegal = legal.copy()
    illegal[2] = 0
    with pytest.raises(ValueError, match="environment 2"):
        envs.step(illegal)
    with pytest.raises(TypeError, match="dtype"):
        envs.step(legal.astype(np.float32))
    with pytest.raises(ValueError, match="4 integer actions"):
        envs.step(legal[:3])
    with pytest.raises(ValueError, match="4 integer actions"):
        envs.step(legal.reshape(2, 2))
    with pytest.raises(TypeError):
        envs.step([int(a) for a in legal])
    with pytest.raises(ValueError, match="negative"):
        envs.step(np.array([-1, 0, 0, 0]))
    with pytest.raises(IndexError):
        envs.legal_actions(4)
    with pytest.raises(ValueError):
        VecEnv(0)
    assert np.array_equal(envs.obs, before)
    envs.step(legal.astype(np.int32))  # any integer dtype is accepted
    assert not np.array_equal(envs.obs, before)


def test_sizes_are_checked_against_the_stated_maximum_before_allocating():
    assert VecEnv.MAX_ENVS == 65536
    for n in (10**8, VecEnv.MAX_ENVS + 1, 0, -1, 2**70):
        with pytest.raises(ValueError, match="from 1 to 65536"):
            VecEnv(n)


def test_actions_beyond_int64_are_reported_as_given():
    envs = VecEnv(2, board="5x3", seed=0)
    before = envs.obs.copy()
    actions = np.array([np.iinfo(np.uint64).max, 0], dtype=np.uint64)
    with pytest.raises(ValueError, match="environment 0: action 18446744073709551615 is out of range"):
        envs.step(actions)
    legal = np.array([envs.legal_actions(i)[0] for i in range(2)])
    for dtype in (np.uint8, np.uint32, np.int16, np.int64):
        with pytest.raises(ValueError, match="environment 1: action 255"):
            envs.step(np.array([legal[0], 255], dtype=dtype))
    for dtype in (np.int8, np.int32):
        with pytest.raises(ValueError, match="environment 1 got -3"):
            envs.step(np.array([legal[0], -3], dtype=dtype))
    assert np.array_equal(envs.obs, before)
    envs.step(legal.astype(np.uint16))
    assert not np.array_equal(envs.obs, before)


def test_environment_numbers_out_of_range_are_index_errors():
    envs = VecEnv(2, board="5x3")
    for i in (-1, 2, 2**70):
        with pytest.raises(IndexError, match="environment"):
            envs.legal_actions(i)
        with pytest.raises(IndexError, match="environment"):
            envs.position(i)
    assert envs.position(np.int64(1)).fen == Position(board="5x3").fen


def test_seeds_out_of_range_are_value_errors():
    from fanorona import Agent, Env, SingleAgentEnv, SingleAgentVecEnv

    makers = (
        lambda seed: VecEnv(2, seed=seed),
        lambda seed: VecEnv(2).reset(seed=seed),
        lambda seed: Env().reset(seed=seed),
        lambda seed: SingleAgentEnv(seed=seed),
        lambda seed: SingleAgentEnv().reset(seed=seed),
        lambda seed: SingleAgentVecEnv(2, seed=seed),
        lambda seed: SingleAgentVecEnv(2).reset(seed=seed),
        lambda seed: Agent("random", seed=seed),
    )
    for bad in (-1, 2**64):
        for make in makers:
            with pytest.raises(ValueError, match="out of range"):
                make(bad)
    VecEnv(2, seed=2**64 - 1).reset(seed=np.uint64(2**64 - 1))


def test_turn_limits_and_openings_out_of_range_are_value_errors():
    from fanorona import Env, SingleAgentEnv, SingleAgentVecEnv

    makers = (
        lambda **kw: VecEnv(2, **kw),
        lambda **kw: Env(**kw),
        lambda **kw: SingleAgentEnv(**kw),
        lambda **kw: SingleAgentVecEnv(2, **kw),
    )
    for make in makers:
        for bad in ({"turn_limit": -1}, {"turn_limit": 2**32}, {"random_opening": -3}):
            with pytest.raises(ValueError, match="out of range"):
                make(**bad)
        make(turn_limit=None, random_opening=np.int64(2))
