"""fanorona.ray on a real local Ray (no mocks; 4 logical CPUs: one per actor, the learner's, a
spare for restarts): a run with two self-play actors and a learner, self-play paced by the
learner, a self-play actor and the learner killed mid-run, a restarted learner's versions
reaching the driver, a stalled run stopped with the reason, a resumed run, a cluster joined
by address."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import ray

import fanorona
from fanorona.ray import LEARNER_NAME, LearnerRole, RayRunStalled, _open_learner, actor_name, train

PRESET = fanorona.run_config(preset="tiny")


def learner_rows(run: Path):
    with open(run / "learner.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def shard_names(run: Path):
    return sorted(p.name for p in (run / "games").iterdir())


def ray_command(*args, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "fanorona.ray", *args],
        capture_output=True,
        text=True,
        timeout=300,
        **kwargs,
    )


def test_a_run_with_two_actors_and_its_resumption(tmp_path):
    run = tmp_path / "run"
    done = ray_command("train", "--preset", "tiny", "--out", str(run), "--actors", "2", "--iterations", "3")
    assert done.returncode == 0, done.stderr
    assert "done: model version 3" in done.stdout
    assert [r["version"] for r in learner_rows(run)] == ["1", "2", "3"]
    assert sorted(p.name for p in (run / "models").iterdir())[-1].startswith("model-")
    names = shard_names(run)
    assert names and len(names) == len(set(names))
    assert all(n.startswith(("ray0-", "ray1-")) for n in names)
    assert list(run.glob("checkpoint-*.ckpt"))
    # Resumed from the checkpoint: the versions go on from 3.
    again = ray_command("train", "--out", str(run), "--actors", "1", "--iterations", "5")
    assert again.returncode == 0, again.stderr
    assert [r["version"] for r in learner_rows(run)] == ["1", "2", "3", "4", "5"]


def test_self_play_does_not_run_ahead_of_the_learner(tmp_path):
    # Each actor plays again only with the model trained on its last shard: a shard is a few
    # versions stale at most (when actors were sent off again at once, the tiny preset's fast
    # games outran the learner and the staleness reached 8 by version 12 and kept growing).
    run = tmp_path / "run"
    done = ray_command("train", "--preset", "tiny", "--out", str(run), "--actors", "2", "--iterations", "20")
    assert done.returncode == 0, done.stderr
    rows = learner_rows(run)
    assert len(rows) == 20
    assert max(int(r["staleness_max"]) for r in rows) <= 6, [r["staleness_max"] for r in rows]


def test_killed_actors_and_learner_are_restarted_and_nothing_is_counted_twice(tmp_path):
    run = tmp_path / "run"
    ray.init(num_cpus=4, include_dashboard=False)
    try:
        outcome = {}
        log = []

        def drive():
            # A low replay ratio makes the run last long enough (many shards a version) for
            # Ray to restart the killed actor before it ends, however fast the machine.
            try:
                outcome["run"] = train(
                    PRESET,
                    str(run),
                    actors=2,
                    iterations=100,
                    replay_ratio=0.5,
                    log=log.append,
                    stall_s=90,
                )
            except BaseException as error:  # reported by the assertions below
                outcome["error"] = error

        driver = threading.Thread(target=drive)
        driver.start()
        deadline = time.monotonic() + 240

        def wait_until(condition, what):
            while not condition():
                assert time.monotonic() < deadline, (
                    f"waited 240 s for {what}; driver error: {outcome.get('error')!r}; "
                    f"last log lines: {log[-10:]}"
                )
                time.sleep(0.02)

        def actor0_names():
            names = shard_names(run) if (run / "games").exists() else []
            return {n.rsplit("-", 1)[0] for n in names if n.startswith("ray0-")}

        wait_until(lambda: len(actor0_names()) == 1, "actor 0's first shard")
        ray.kill(ray.get_actor(actor_name(0)), no_restart=False)
        # Ray restarts it: its new incarnation plays under a new name.
        wait_until(
            lambda: len(actor0_names()) == 2 or not driver.is_alive(),
            "a shard of actor 0's second incarnation",
        )
        if driver.is_alive():
            ray.kill(ray.get_actor(LEARNER_NAME), no_restart=False)
        wait_until(lambda: not driver.is_alive(), "the driver to finish after the learner's restart")
    finally:
        ray.shutdown()
    assert "error" not in outcome, (outcome["error"], log[-10:])
    result = outcome["run"]
    assert result.version == 100
    assert len(actor0_names()) == 2, log
    rows = learner_rows(run)
    assert [int(r["version"]) for r in rows] == list(range(1, 101))
    names = shard_names(run)
    assert len(names) == len(set(names))
    # Every shard the learner took is a shard on disk, each once.
    assert result.shards <= len(names)


def test_versions_a_restarted_learner_publishes_while_starting_reach_the_driver(tmp_path):
    # A learner killed after storing a shard but before training on it: its successor trains
    # on that shard while starting, here up to the target version. Its next answer must carry
    # those versions and the model, or the driver would wait for the target forever.
    run = tmp_path / "run"
    worker = fanorona.SelfPlayWorker(PRESET, "w1")
    killed = fanorona.Learner(run, PRESET, 4.0)
    version, model = killed.model()
    worker.set_model(model, version)
    assert killed.ingest(worker.play_shard(0)) is not None
    del killed  # its lock goes with it
    restarted = LearnerRole(str(run), PRESET, 4.0, 2)
    assert restarted.learner.model_version == 2
    answer = restarted.ingest(worker.play_shard(1), 0)
    assert [row["version"] for row in answer["rows"]] == [1, 2]
    assert answer["version"] == 2 and answer["model"] is not None
    known = restarted.ingest(worker.play_shard(2), 2)
    assert known["rows"] == [] and known["model"] is None


def test_a_driver_waiting_past_its_bound_says_what_it_waited_for(tmp_path):
    ray.init(num_cpus=1, include_dashboard=False)
    try:
        # One CPU, taken by the learner: no self-play actor can start, nothing answers.
        with pytest.raises(RayRunStalled, match="waiting for 1 self-play actors"):
            train(PRESET, str(tmp_path / "run"), actors=1, iterations=3, stall_s=5, log=lambda _: None)
    finally:
        ray.shutdown()


def test_a_restarted_learner_waits_for_the_lock_its_predecessor_still_holds(tmp_path):
    run = tmp_path / "run"
    predecessor = fanorona.Learner(run, PRESET)
    with pytest.raises(ValueError, match="is in use by another"):
        fanorona.Learner(run, PRESET)
    opened = {}
    waiting = threading.Thread(
        target=lambda: opened.setdefault("learner", _open_learner(str(run), PRESET, 4.0))
    )
    waiting.start()
    time.sleep(0.5)
    assert waiting.is_alive() and not opened
    del predecessor  # its process-wide lock goes with it
    waiting.join(timeout=20)
    assert "learner" in opened


def test_a_shard_is_ingested_once(tmp_path):
    learner = fanorona.Learner(tmp_path / "run", PRESET)
    worker = fanorona.SelfPlayWorker(PRESET, "w1")
    version, model = learner.model()
    worker.set_model(model, version)
    shard = worker.play_shard(0)
    first = learner.ingest(shard)
    assert first is not None and first["positions"] > 0 and first["staleness"] == 0
    assert learner.ingest(shard) is None
    assert len(list((tmp_path / "run" / "games").glob("*.shard"))) == 1
    with pytest.raises(ValueError):
        learner.ingest(shard[:-10])
    with pytest.raises(ValueError, match="set_model"):
        fanorona.SelfPlayWorker(PRESET, "w2").play_shard(0)
    with pytest.raises(ValueError):
        fanorona.SelfPlayWorker(PRESET, "bad name!")


def test_joining_a_cluster_by_address(tmp_path):
    env = dict(os.environ, RAY_ADDRESS="")
    ray_bin = str(Path(sys.executable).with_name("ray"))
    started = subprocess.run(
        [ray_bin, "start", "--head", "--num-cpus", "4", "--include-dashboard", "false"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert started.returncode == 0, started.stderr
    try:
        run = tmp_path / "run"
        done = ray_command(
            "train",
            "--preset",
            "tiny",
            "--out",
            str(run),
            "--actors",
            "2",
            "--iterations",
            "2",
            "--address",
            "auto",
        )
        assert done.returncode == 0, done.stderr
        assert [r["version"] for r in learner_rows(run)] == ["1", "2"]
    finally:
        subprocess.run([ray_bin, "stop", "--force"], capture_output=True, timeout=120, env=env)


def test_bad_arguments_are_refused(tmp_path):
    missing = ray_command("train", "--out", str(tmp_path / "new"))
    assert missing.returncode == 2 and "not a run directory" in missing.stderr
    bad = ray_command("train", "--preset", "huge", "--out", str(tmp_path / "x"))
    assert bad.returncode == 2 and "huge" in bad.stderr
    with pytest.raises(ValueError, match="actors"):
        train(PRESET, str(tmp_path / "y"), actors=0)
