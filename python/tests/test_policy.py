"""fanorona.Policy: an exported policy gives the Rust outputs; bad input raises."""

from __future__ import annotations

import numpy as np
import pytest

from fanorona import Agent, Policy, Position, VecEnv


def white_positions(count):
    """Positions with white to act (its frame is the absolute one) from seeded random play."""
    envs = VecEnv(count, board="5x3", seed=5, random_opening=3)
    return [envs.position(i) for i in range(count) if envs.position(i).side_to_move == "white"]


def test_outputs_equal_the_rust_net_agent(exported_policy):
    policy = Policy.load(exported_policy)
    assert policy.board == (5, 3) and policy.observation_shape == (18, 3, 5)
    positions = white_positions(16)
    assert len(positions) >= 4
    obs = np.stack([p.observation() for p in positions])
    masks = np.stack([p.action_mask() for p in positions])
    logits, values = policy(obs, masks)
    assert logits.shape == (len(positions), policy.num_actions) and values.shape == (len(positions),)
    agent = Agent(f"net:path={exported_policy},sims=0")
    for position, row, value in zip(positions, logits, values):
        action = agent.act(position)
        info = agent.last_info()
        assert info["value"] == pytest.approx(float(value), abs=1e-5)
        assert action == int(np.argmax(row))
        assert np.isneginf(row[position.action_mask() == 0]).all()
    single_logits, single_value = policy(obs[0])
    assert single_logits.shape == (policy.num_actions,) and single_value.shape == ()
    assert single_value == pytest.approx(values[0], abs=1e-6)


def test_bad_files_and_arrays_raise(exported_policy, tmp_path):
    with pytest.raises(ValueError, match="missing.safetensors"):
        Policy.load(tmp_path / "missing.safetensors")
    corrupt = tmp_path / "corrupt.safetensors"
    corrupt.write_bytes(exported_policy.read_bytes()[:100])
    with pytest.raises(ValueError, match="corrupt.safetensors"):
        Policy.load(corrupt)
    policy = Policy.load(exported_policy)
    obs = Position(board="5x3").observation()
    with pytest.raises(TypeError, match="float32"):
        policy(obs.astype(np.float64))
    with pytest.raises(ValueError, match="shaped"):
        policy(np.zeros((2, 18, 5, 9), dtype=np.float32))
    with pytest.raises(TypeError, match="mask"):
        policy(obs, np.ones(policy.num_actions, dtype=np.float32))
    mask = Position(board="5x3").action_mask()
    assert np.array_equal(policy(obs, mask)[0], policy(obs, mask.astype(bool))[0])
    with pytest.raises(ValueError, match="mask"):
        policy(obs, np.ones(3, dtype=bool))
