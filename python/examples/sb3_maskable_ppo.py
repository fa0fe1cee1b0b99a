"""Trains sb3-contrib's MaskablePPO on fanorona/Fanorona-v0 against `random`, then scores it
in the toolkit's arena.

    pip install ./python sb3-contrib
    python python/examples/sb3_maskable_ppo.py --board 5x5 --minutes 3 --out runs/sb3

The Gymnasium env is used unchanged: MaskablePPO reads the legal actions from its
``action_masks()`` method. Two envs train one policy, the agent white in one and black in the
other (observations are from the agent's side). After training, the model is saved and played
against ``random`` by ``fanorona.match``: the arena starts this script as an engine
(``python sb3_maskable_ppo.py engine POLICY.npz``, served by :mod:`fanorona.engine`), as it
would any program speaking the engine protocol; the engine runs the policy's layers, exported
to ``policy.npz``, in numpy. The last line printed is a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np


class NumpyPolicy:
    """The policy part of a saved MlpPolicy (Linear + Tanh layers, then the action layer) in
    numpy: the arena starts one engine process a game, and numpy loads in a fraction of the
    seconds torch takes."""

    def __init__(self, path) -> None:
        data = np.load(path)
        hidden = sorted(
            int(key.split(".")[2]) for key in data.files if key.startswith("mlp_extractor.policy_net.")
        )
        self.layers = [
            (data[f"mlp_extractor.policy_net.{i}.weight"], data[f"mlp_extractor.policy_net.{i}.bias"])
            for i in sorted(set(hidden))
        ]
        self.action = (data["action_net.weight"], data["action_net.bias"])

    @staticmethod
    def export(model, path) -> None:
        """Writes the policy layers of a MaskablePPO MlpPolicy to an .npz file."""
        state = model.policy.state_dict()
        keep = ("mlp_extractor.policy_net.", "action_net.")
        np.savez(path, **{k: v.cpu().numpy() for k, v in state.items() if k.startswith(keep)})

    def logits(self, observation: np.ndarray) -> np.ndarray:
        x = observation.reshape(-1).astype(np.float32)
        for weight, bias in self.layers:
            x = np.tanh(weight @ x + bias)
        weight, bias = self.action
        return weight @ x + bias

    def choose(self, position) -> int:
        """The most likely legal action (MaskablePPO's deterministic choice)."""
        logits = self.logits(position.observation())
        logits[position.action_mask() == 0] = -np.inf
        return int(np.argmax(logits))


def engine(policy_path: str) -> None:
    from fanorona.engine import serve

    serve(NumpyPolicy(policy_path).choose, name=f"MaskablePPO {Path(policy_path).name}")


def train(args: argparse.Namespace) -> dict:
    import gymnasium
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    import fanorona  # noqa: F401  (registers fanorona/Fanorona-v0)

    torch.set_num_threads(1)  # small networks: one thread is fastest beside the env

    def make(side: str):
        return lambda: gymnasium.make(
            "fanorona/Fanorona-v0", opponent=args.opponent, side=side, board=args.board
        )

    env = DummyVecEnv([make("white"), make("black")])
    env.seed(args.seed)

    class Progress(BaseCallback):
        """Counts episodes, wins and illegal actions; stops at the time limit."""

        def __init__(self, deadline: float) -> None:
            super().__init__()
            self.deadline = deadline
            self.episodes = self.wins = self.illegal = 0

        def _on_step(self) -> bool:
            for done, reward, info in zip(self.locals["dones"], self.locals["rewards"], self.locals["infos"]):
                self.illegal += bool(info.get("illegal_action"))
                if done:
                    self.episodes += 1
                    self.wins += int(reward > 0)
            return time.monotonic() < self.deadline

    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=64,
        learning_rate=3e-4,
        gamma=0.99,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    progress = Progress(time.monotonic() + 60 * args.minutes if args.minutes else float("inf"))
    started = time.monotonic()
    model.learn(total_timesteps=args.timesteps, callback=progress)
    train_seconds = time.monotonic() - started

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    model_path = out / "model.zip"
    model.save(model_path)
    policy_path = out / "policy.npz"
    NumpyPolicy.export(model, policy_path)

    summary = {
        "board": args.board,
        "opponent": args.opponent,
        "timesteps": int(model.num_timesteps),
        "train_seconds": round(train_seconds, 1),
        "train_episodes": progress.episodes,
        "train_wins": progress.wins,
        "illegal_actions": progress.illegal,
        "model": str(model_path),
        "policy": str(policy_path),
    }
    if args.games:
        summary["arena"] = arena(policy_path, args)
    return summary


def arena(policy_path: Path, args: argparse.Namespace) -> dict:
    """The trained policy against the opponent in the toolkit's arena (colours alternate)."""
    import fanorona

    spec = f"engine:cmd={sys.executable},args={Path(__file__).resolve()} engine {policy_path.resolve()}"
    result = fanorona.match(
        spec, args.opponent, games=args.games, threads=args.threads, board=args.board, seed=args.seed
    )
    keep = ["games", "wins", "draws", "losses", "score", "elo", "elo_low", "elo_high"]
    keep += ["first_forfeits", "second_forfeits", "mean_turns", "seconds"]
    return {key: result[key] for key in keep}


def main(argv=None) -> None:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["engine"]:
        engine(argv[1])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="5x5")
    parser.add_argument("--opponent", default="random", help="the opponent's agent specification")
    parser.add_argument("--minutes", type=float, default=3.0, help="training time limit (0: none)")
    parser.add_argument("--timesteps", type=int, default=10_000_000, help="training step limit")
    parser.add_argument("--n-steps", type=int, default=512, help="PPO rollout length per env")
    parser.add_argument("--games", type=int, default=100, help="arena games after training (0: none)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="runs/sb3")
    print(json.dumps(train(parser.parse_args(argv))))


if __name__ == "__main__":
    main()
