"""sb3-contrib's MaskablePPO on the Gymnasium env, unchanged: the example script trains to the
end and is scored in the arena (skipped without sb3-contrib, which CI does not install: see
docs/python.md)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

import fanorona  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sb3_maskable_ppo.py"


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("sb3")
    args = ["--board", "5x5", "--minutes", "0", "--timesteps", "2048", "--n-steps", "256"]
    args += ["--games", "4", "--threads", "1", "--seed", "1", "--out", str(out)]
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), *args], check=True, capture_output=True, text=True, timeout=600
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_maskable_ppo_trains_to_the_end_and_is_scored_in_the_arena(trained):
    assert trained["timesteps"] >= 2048
    assert trained["train_episodes"] > 0
    # MaskablePPO read the masks from action_masks(): an unmasked policy over 601 actions
    # would lose episodes to illegal actions at once.
    assert trained["illegal_actions"] == 0
    arena = trained["arena"]
    assert arena["games"] == 4 and arena["wins"] + arena["draws"] + arena["losses"] == 4
    assert arena["first_forfeits"] == 0 and arena["second_forfeits"] == 0


def test_the_numpy_policy_chooses_as_maskable_ppo(trained):
    from sb3_contrib import MaskablePPO

    sys.path.insert(0, str(EXAMPLE.parent))
    try:
        from sb3_maskable_ppo import NumpyPolicy
    finally:
        sys.path.remove(str(EXAMPLE.parent))
    model = MaskablePPO.load(trained["model"], device="cpu")
    policy = NumpyPolicy(trained["policy"])
    rng = random.Random(2)
    checked = 0
    for _ in range(3):
        position = fanorona.Position(board="5x5")
        while not position.is_over:
            mask = position.action_mask().astype(bool)
            action, _ = model.predict(position.observation(), action_masks=mask, deterministic=True)
            assert int(action) == policy.choose(position)
            assert mask[int(action)]
            checked += 1
            position.play_step(rng.choice(position.legal_actions()))
    assert checked > 10
