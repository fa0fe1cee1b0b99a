"""Distributed self-play training on Ray.

``python -m fanorona.ray train (--preset NAME | --config run.toml) --run DIR --actors N
[--address auto]``: N self-play actors (one CPU each, restarted by Ray when they die) play
shards with the newest model; one learner actor (``--learner-gpus`` when asked) ingests them,
trains at the replay ratio and publishes model versions. Models and shards travel through
Ray's object store; the learner also keeps every shard in ``DIR/games/`` and writes
``DIR/models/``, ``DIR/learner.csv`` and checkpoints, so that a run (or a restarted learner)
resumes where it stopped. The same run directory works with ``fanorona learn``,
``fanorona selfplay`` and ``fanorona gauntlet --run``.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import ray
from ray.exceptions import GetTimeoutError, RayActorError

from .._fanorona import Learner, SelfPlayWorker

__all__ = ["RayRun", "RayRunStalled", "train", "LEARNER_NAME", "STALL_S", "actor_name"]

#: A run configuration: the dict of :func:`fanorona.run_config`, or TOML text.
RunConfig = Union[Dict[str, Any], str]

#: The Ray name of the learner actor (in the run's namespace).
LEARNER_NAME = "fanorona-learner"

#: Seconds a restarted learner waits for the run directory's lock, which its killed
#: predecessor's process may still hold for a moment.
LOCK_WAIT_S = 30.0

#: Seconds of learner failures without a success after which the driver gives up: a
#: learner that cannot start again, rather than one that crashed once.
LEARNER_GIVE_UP_S = 120.0

#: Model versions an actor may be sent ahead of the slowest actor still playing; beyond it
#: the actor waits for that one's shard (so a shard's staleness stays bounded).
MAX_LAG = 2

#: Default seconds the driver waits without any shard or learner answer before it gives up
#: with an error naming what it waited for (see :func:`train`'s ``stall_s``).
STALL_S = 900.0


class RayRunStalled(RuntimeError):
    """Nothing the driver waited for answered within its bound."""


def _open_learner(run_dir: str, config: Optional[RunConfig], replay_ratio: float) -> Learner:
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

    def __init__(self, config: RunConfig, index: int) -> None:
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


class LearnerRole:
    """The learner of the run directory, as :data:`LearnerActor` runs it in its own process.
    Ray restarts the actor after a crash (it resumes from its latest checkpoint and ingests
    the shards stored since, which may take it to the target version at once) and runs the
    call it was on again: a shard sent twice is ingested once. Each answer carries the newest
    model whenever it is newer than the caller's, so versions a restarted learner published
    while starting are never lost to the driver."""

    def __init__(
        self, run_dir: str, config: Optional[RunConfig], replay_ratio: float, target: Optional[int]
    ) -> None:
        self.learner = _open_learner(run_dir, config, replay_ratio)
        self.target = target if target is not None else self.learner.iterations
        self.learner.ingest_stored()
        self.unreported = self.learner.advance(self.target)

    def target_version(self) -> int:
        """The model version the run stops at."""
        return self.target

    def model(self) -> tuple:
        """(version, policy-file bytes) of the newest model."""
        return self.learner.model()

    def ingest(self, shard: bytes, known_version: int) -> Dict[str, Any]:
        """Stores and ingests a shard, trains; returns the rows of the versions published
        since the last answer and the newest model when it is newer than ``known_version``
        (else ``model`` is None)."""
        ingested = self.learner.ingest(shard)
        rows = self.unreported + self.learner.advance(self.target)
        self.unreported = []
        version, model = self.learner.model()
        return {
            "ingested": ingested,
            "rows": rows,
            "version": version,
            "model": model if version > known_version else None,
        }

    def checkpoint(self) -> str:
        """Writes a checkpoint; returns its path."""
        return str(self.learner.checkpoint())


#: The learner as a Ray actor, restarted after a crash, its interrupted call run again.
LearnerActor = ray.remote(max_restarts=-1, max_task_retries=-1)(LearnerRole)


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
    config: RunConfig,
    out: str,
    actors: int,
    iterations: Optional[int] = None,
    replay_ratio: float = 4.0,
    learner_gpus: float = 0.0,
    log: Callable[[str], None] = print,
    stall_s: float = STALL_S,
) -> RayRun:
    """Runs the roles on the connected Ray cluster until the learner has published
    ``iterations`` model versions (default: the run's iterations), then writes a checkpoint.
    ``config`` is the run's configuration (the dict of :func:`fanorona.run_config`, or TOML
    text). Shards played when
    the last version is published are ingested (kept in the window) but trained on no more.

    Every wait is bounded: when no shard and no learner answer arrives for ``stall_s``
    seconds (a shard or a learner call slower than that, or a cluster that lost its
    actors), :class:`RayRunStalled` says what the driver was waiting for; a learner that
    keeps failing for :data:`LEARNER_GIVE_UP_S` seconds raises RuntimeError."""
    if actors < 1:
        raise ValueError(f"actors: expected at least 1, got {actors}")
    if not stall_s > 0:
        raise ValueError(f"stall_s: expected a positive number of seconds, got {stall_s}")
    started = time.monotonic()
    learner = LearnerActor.options(name=LEARNER_NAME, num_cpus=1, num_gpus=learner_gpus).remote(
        out, config, replay_ratio, iterations
    )

    def get(ref: Any, what: str) -> Any:
        try:
            return ray.get(ref, timeout=stall_s)
        except GetTimeoutError as error:
            raise RayRunStalled(f"no answer from {what} in {stall_s:.0f} s") from error

    version, model = get(learner.model.remote(), "the learner starting")
    target = get(learner.target_version.remote(), "the learner")
    model_ref = ray.put(model)
    single_thread = {"env_vars": {"RAYON_NUM_THREADS": "1"}}
    workers = [
        SelfPlayActor.options(name=actor_name(i), num_cpus=1, runtime_env=single_thread).remote(config, i)
        for i in range(actors)
    ]
    # A self-play call and its actor; the model version each playing actor was sent with.
    playing: Dict[Any, int] = {}
    sent: Dict[int, int] = {}
    # Actors held back because another actor's game is more than MAX_LAG versions behind.
    parked: List[int] = []

    def send(index: int) -> None:
        playing[workers[index].play.remote(version, model_ref)] = index
        sent[index] = version

    def release() -> None:
        # A slow actor (a long game, a starved core) would otherwise see the others' shards
        # train many versions while it plays: its shard's staleness would have no bound.
        if any(sent[i] < version - MAX_LAG for i in playing.values()):
            return
        while parked and version < target:
            send(parked.pop())

    for i in range(actors):
        send(i)
    # A learner call's shard and the actor that played it: the actor plays again once the
    # learner has trained on its shard, with the model that came out, so self-play never runs
    # ahead of the learner (staleness stays near the number of actors instead of growing).
    learning: Dict[Any, Tuple[Any, int]] = {}
    shards = positions = actor_failures = learner_failures = 0
    failing_since: Optional[float] = None
    log(f"ray: {actors} self-play actors, learner at model version {version}, until {target}")
    while version < target or learning:
        ready, _ = ray.wait(list(playing) + list(learning), num_returns=1, timeout=stall_s)
        if not ready:
            raise RayRunStalled(
                f"no shard and no learner answer in {stall_s:.0f} s, at model version "
                f"{version} of {target}: waiting for {len(playing)} self-play actors and "
                f"{len(learning)} learner calls"
            )
        ref = ready[0]
        if ref in playing:
            index = playing.pop(ref)
            try:
                shard = ray.get(ref)
                learning[learner.ingest.remote(shard, version)] = (shard, index)
            except RayActorError:
                actor_failures += 1
                log(f"ray: self-play actor {index} failed; playing again")
                time.sleep(0.5)
                if version < target:
                    send(index)
            continue
        shard, index = learning.pop(ref)
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
            learning[learner.ingest.remote(shard, version)] = (shard, index)
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
        parked.append(index)
        release()
        if version >= target and playing:
            # The run is complete: games still being played are not needed.
            for w in workers:
                ray.kill(w)
            playing.clear()
    checkpoint = get(learner.checkpoint.remote(), "the learner writing its checkpoint")
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
