"""Random-action steps per second from Python: fanorona's VecEnv, Gymnasium vector env and
PettingZoo env against fanorona-aec (the other Fanorona environment on PyPI), measured in the
same run.

    pip install ./python fanorona-aec
    python python/benchmarks/vec_env_speed.py [--envs 256] [--seconds 5]

fanorona-aec installs its code as a top-level package named ``env``.
"""

from __future__ import annotations

import argparse
import platform
import time
from typing import Callable

import numpy as np

import fanorona
from fanorona.pettingzoo import env as fanorona_aec_env


def processor() -> str:
    """The CPU's model name (speed figures depend on it)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def rate(step: Callable[[], int], seconds: float) -> float:
    """Calls `step` (which returns the environment steps it made) for about `seconds`."""
    step()  # warm up
    steps, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += step()
    return steps / elapsed


def vec_env_random(num_envs: int, seconds: float) -> float:
    envs = fanorona.VecEnv(num_envs, board="9x5", seed=1)

    def step() -> int:
        envs.step_random()
        return num_envs

    return rate(step, seconds)


def vec_env_actions(num_envs: int, seconds: float) -> float:
    """step(actions) with actions picked in numpy: the first legal action of each env."""
    envs = fanorona.VecEnv(num_envs, board="9x5", seed=1)

    def step() -> int:
        envs.step(envs.mask.argmax(axis=1))
        return num_envs

    return rate(step, seconds)


def gymnasium_vector(num_envs: int, seconds: float) -> float:
    """gymnasium.make_vec("fanorona/Fanorona-v0") against "random", the agent's actions
    picked in numpy (the first legal action from infos["action_mask"]); counts agent steps."""
    import gymnasium

    envs = gymnasium.make_vec("fanorona/Fanorona-v0", num_envs=num_envs, board="9x5")
    _, infos = envs.reset(seed=1)

    def step() -> int:
        nonlocal infos
        infos = envs.step(infos["action_mask"].argmax(axis=1))[4]
        return num_envs

    return rate(step, seconds)


def aec(make, seconds: float) -> float:
    """Random legal actions through a PettingZoo AEC env's last()/step() loop."""
    environment = make()
    environment.reset(seed=0)
    rng = np.random.default_rng(0)

    def step() -> int:
        _, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.reset()
            return 0
        mask = environment.last()[0]["action_mask"]
        environment.step(int(rng.choice(np.flatnonzero(mask))))
        return 1

    return rate(step, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=256, help="environments of the VecEnv")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    rows = [
        (f"fanorona.VecEnv({args.envs}).step_random()", vec_env_random(args.envs, args.seconds)),
        (f"fanorona.VecEnv({args.envs}).step(numpy actions)", vec_env_actions(args.envs, args.seconds)),
        (f"gymnasium.make_vec(Fanorona-v0, {args.envs}).step", gymnasium_vector(args.envs, args.seconds)),
        ("fanorona.pettingzoo.env(), one env", aec(fanorona_aec_env, args.seconds)),
    ]
    try:
        from env import fanorona_env as other  # fanorona-aec
    except ImportError:
        other = None
        print("fanorona-aec is not installed (pip install fanorona-aec): no comparison")
    if other is not None:
        # fanorona-aec 3.0.2 calls `agent_selector(...)`, which newer PettingZoo releases
        # renamed to the class `AgentSelector`.
        from pettingzoo.utils import AgentSelector

        other.agent_selector = AgentSelector
        rows.append(("fanorona-aec env(), one env", aec(other.env, args.seconds)))
    print(f"processor: {processor()}; {args.seconds:g} s per row")
    baseline = rows[-1][1] if other is not None else None
    for name, steps in rows:
        ratio = f"  {steps / baseline:10.0f}x fanorona-aec" if baseline else ""
        print(f"{name:45s} {steps:14,.0f} steps/s{ratio}")


if __name__ == "__main__":
    main()
