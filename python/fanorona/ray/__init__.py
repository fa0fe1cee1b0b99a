"""Distributed self-play training on Ray.

``python -m fanorona.ray train (--preset NAME | --config run.toml) --out DIR --actors N
[--address auto]``: N self-play actors (one CPU each, restarted by Ray when they die) play
shards with the newest model; one learner actor (``--learner-gpus`` when asked) ingests them,
trains at the replay ratio and publishes model versions. Models and shards travel through
Ray's object store; the learner also keeps every shard in ``DIR/games/`` and writes
``DIR/models/``, ``DIR/learner.csv`` and checkpoints, so that a run (or a restarted learner)
resumes where it stopped. The same run directory works with ``fanorona learn``,
``fanorona selfplay`` and ``fanorona gauntlet --run``.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

import ray
from ray.exceptions import RayActorError

from .._fanorona import Learner, SelfPlayWorker

__all__ = ["RayRun", "train", "LEARNER_NAME", "actor_name"]

#: The Ray name of the learner actor (in the run's namespace).
LEARNER_NAME = "fanorona-learner"

#: Seconds a restarted learner waits for the run directory's lock, which its killed
#: predecessor's process may still hold for a moment.
LOCK_WAIT_S = 30.0

#: Seconds of learner failures without a success after which the driver gives up: a
#: learner that cannot start again, rather than one that crashed once.
LEARNER_GIVE_UP_S = 120.0


def _open_learner(run_dir: str, config: Optional[str], replay_ratio: float) -> Learner:
    """The run directory's learner, waiting up to :data:`LOCK_WAIT_S` for its lock."""
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            return Learner(run_dir, config, replay_ratio)
        except ValueError as error:
            if "is in use by another" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def actor_name(index: int) -> str:
    """The Ray name of self-play actor ``index``."""
    return f"fanorona-selfplay-{index}"


@ray.remote(max_restarts=-1, max_task_retries=-1)
class SelfPlayActor:
    """A self-play worker in its own process. Ray restarts it after a crash and runs the call
    it was on again; every incarnation takes a fresh worker name, because the learner knows
    shards by worker name and sequence number."""

    def __init__(self, config: str, index: int) -> None:
        self.name = f"ray{index}-{uuid.uuid4().hex[:8]}"
        self.worker = SelfPlayWorker(config, self.name)
        self.sequence = 0

    def play(self, version: int, model: bytes) -> bytes:
        """Plays one shard with model ``version`` (switching to it if needed)."""
        if self.worker.model_version != version:
            self.worker.set_model(model, version)
        shard = self.worker.play_shard(self.sequence)
        self.sequence += 1
        return shard


@ray.remote(max_restarts=-1, max_task_retries=-1)
class LearnerActor:
    """The learner of the run directory. Ray restarts it after a crash (it resumes from its
    latest checkpoint and ingests the shards stored since) and runs the call it was on
    again: a shard sent twice is ingested once."""

    def __init__(
        self, run_dir: str, config: Optional[str], replay_ratio: float, target: Optional[int]
    ) -> None:
        self.learner = _open_learner(run_dir, config, replay_ratio)
        self.target = target if target is not None else self.learner.iterations
        self.learner.ingest_stored()
        self._train()

    def _train(self) -> List[Dict[str, Any]]:
        """Takes the steps earned, publishing each version completed, up to the target
        version; returns the new versions' rows."""
        rows = []
        while self.learner.model_version < self.target:
            took = self.learner.train()
            if self.learner.steps_to_next_version == 0:
                self.learner.publish()
                rows.append(json.loads(self.learner.last_row_json()))
            elif took == 0:
                break
        return rows

    def target_version(self) -> int:
        """The model version the run stops at."""
        return self.target

    def model(self) -> tuple:
        """(version, policy-file bytes) of the newest model."""
        return self.learner.model()

    def ingest(self, shard: bytes) -> Dict[str, Any]:
        """Stores and ingests a shard, trains; returns the new versions' rows and the newest
        model (``model`` is None when no version was published)."""
        ingested = self.learner.ingest(shard)
        rows = self._train()
        version, model = self.learner.model()
        return {
            "ingested": ingested,
            "rows": rows,
            "version": version,
            "model": model if rows else None,
        }

    def checkpoint(self) -> str:
        """Writes a checkpoint; returns its path."""
        return str(self.learner.checkpoint())


@dataclass
class RayRun:
    """What a finished :func:`train` reports."""

    out: str
    version: int
    shards: int
    positions: int
    actor_failures: int
    learner_failures: int
    seconds: float
    checkpoint: str


def train(
    config: str,
    out: str,
    actors: int,
    iterations: Optional[int] = None,
    replay_ratio: float = 4.0,
    learner_gpus: float = 0.0,
    log: Callable[[str], None] = print,
) -> RayRun:
    """Runs the roles on the connected Ray cluster until the learner has published
    ``iterations`` model versions (default: the run's iterations), then writes a checkpoint.
    ``config`` is the TOML text of the run (:func:`fanorona.run_config`). Shards played when
    the last version is published are ingested (kept in the window) but trained on no more."""
    if actors < 1:
        raise ValueError(f"actors: expected at least 1, got {actors}")
    started = time.monotonic()
    learner = LearnerActor.options(name=LEARNER_NAME, num_cpus=1, num_gpus=learner_gpus).remote(
        out, config, replay_ratio, iterations
    )
    version, model = ray.get(learner.model.remote())
    target = ray.get(learner.target_version.remote())
    model_ref = ray.put(model)
    single_thread = {"env_vars": {"RAYON_NUM_THREADS": "1"}}
    workers = [
        SelfPlayActor.options(name=actor_name(i), num_cpus=1, runtime_env=single_thread).remote(
            config, i
        )
        for i in range(actors)
    ]
    playing = {w.play.remote(version, model_ref): i for i, w in enumerate(workers)}
    learning: Dict[Any, Any] = {}
    shards = positions = actor_failures = learner_failures = 0
    failing_since: Optional[float] = None
    log(f"ray: {actors} self-play actors, learner at model version {version}, until {target}")
    while version < target or learning:
        ready, _ = ray.wait(list(playing) + list(learning), num_returns=1)
        ref = ready[0]
        if ref in playing:
            index = playing.pop(ref)
            try:
                shard = ray.get(ref)
                learning[learner.ingest.remote(shard)] = shard
            except RayActorError:
                actor_failures += 1
                log(f"ray: self-play actor {index} failed; playing again")
                time.sleep(0.5)
            if version < target:
                playing[workers[index].play.remote(version, model_ref)] = index
            continue
        shard = learning.pop(ref)
        try:
            result = ray.get(ref)
        except RayActorError as error:
            # The learner restarts from its checkpoint and the shards it stored; this shard
            # may not have been stored: send it again (a shard is never counted twice).
            learner_failures += 1
            failing_since = failing_since or time.monotonic()
            if time.monotonic() - failing_since > LEARNER_GIVE_UP_S:
                raise RuntimeError(
                    f"the learner has failed for {LEARNER_GIVE_UP_S:.0f} s without a success "
                    f"({learner_failures} failures); the last error: {error}"
                ) from error
            log(f"ray: the learner failed ({type(error).__name__}); sending the shard again")
            time.sleep(0.5)
            learning[learner.ingest.remote(shard)] = shard
            continue
        failing_since = None
        if result["ingested"] is not None:
            shards += 1
            positions += result["ingested"]["positions"]
        for row in result["rows"]:
            log(
                f"version {row['version']:>4} step {row['step']:>6} | {row['positions']} "
                f"positions, {row['ingest_positions_per_s']:.0f} pos/s, staleness "
                f"{row['staleness_mean']:.2f} (max {row['staleness_max']}) | loss "
                f"{row['loss_total']:.3f}"
            )
        if result["model"] is not None and result["version"] > version:
            version = result["version"]
            model_ref = ray.put(result["model"])
        if version >= target and playing:
            # The run is complete: games still being played are not needed.
            for w in workers:
                ray.kill(w)
            playing.clear()
    checkpoint = ray.get(learner.checkpoint.remote())
    for w in workers:
        ray.kill(w)
    ray.kill(learner)
    return RayRun(
        out=out,
        version=version,
        shards=shards,
        positions=positions,
        actor_failures=actor_failures,
        learner_failures=learner_failures,
        seconds=time.monotonic() - started,
        checkpoint=checkpoint,
    )
