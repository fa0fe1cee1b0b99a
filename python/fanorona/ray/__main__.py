"""``python -m fanorona.ray train``: distributed self-play training on Ray (see
:mod:`fanorona.ray`)."""

from __future__ import annotations

import argparse
import os
import sys

import ray

from .._fanorona import run_config
from . import STALL_S, RayRunStalled, train


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m fanorona.ray`` (the docs test parses every documented
    command with it)."""
    parser = argparse.ArgumentParser(prog="python -m fanorona.ray", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("train", help="train a run with self-play actors and a learner")
    source = run.add_mutually_exclusive_group()
    source.add_argument("--preset", help="an embedded preset: tiny, small, default, long, full")
    source.add_argument("--config", help="a run configuration file (TOML)")
    run.add_argument(
        "--run",
        "--out",
        dest="run",
        required=True,
        help="the run directory (resumed if it exists; --out: its older name)",
    )
    run.add_argument("--actors", type=int, default=2, help="self-play actors (one CPU each)")
    run.add_argument("--address", help="a Ray cluster to join (e.g. auto); default: a local one")
    run.add_argument("--iterations", type=int, help="model versions to reach (default: the run's)")
    run.add_argument("--replay-ratio", type=float, default=4.0, help="positions sampled per new position")
    run.add_argument("--learner-gpus", type=float, default=0.0, help="GPUs for the learner actor")
    run.add_argument(
        "--stall-timeout",
        type=float,
        default=STALL_S,
        help="seconds without any shard or learner answer before the run stops with an error",
    )
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.actors < 1:
        parser.error(f"--actors: expected at least 1, got {args.actors}")
    if not args.stall_timeout > 0:
        parser.error(f"--stall-timeout: expected a positive number of seconds, got {args.stall_timeout}")
    try:
        if args.preset or args.config:
            config = run_config(preset=args.preset, path=args.config)
        else:
            config = run_config(run=args.run)
    except ValueError as error:
        hint = "" if (args.preset or args.config) else ": give --preset NAME or --config FILE"
        parser.error(f"{error}{hint}")
    if args.address:
        ray.init(address=args.address)
    else:
        # One logical CPU per actor, one for the learner and one spare, so that a restarted
        # actor finds room while its old process is cleaned up, whatever the machine has.
        ray.init(num_cpus=args.actors + 2, include_dashboard=False)
    os.makedirs(args.run, exist_ok=True)
    try:
        result = train(
            config,
            os.path.abspath(args.run),
            args.actors,
            iterations=args.iterations,
            replay_ratio=args.replay_ratio,
            learner_gpus=args.learner_gpus,
            stall_s=args.stall_timeout,
        )
    except RayRunStalled as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(
        f"done: model version {result.version}, {result.shards} shards, {result.positions} "
        f"positions in {result.seconds:.0f} s ({result.actor_failures} actor and "
        f"{result.learner_failures} learner restarts); checkpoint {result.checkpoint}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
