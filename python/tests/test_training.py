"""fanorona.training: the roles play, ingest, train and publish; results come back typed."""

from __future__ import annotations

import csv

import pytest

from fanorona.training import Learner, SelfPlayWorker, run_config


def test_a_version_published_gives_its_row_as_a_dict(tmp_path):
    config = run_config(preset="tiny", iterations=2)
    learner = Learner(tmp_path / "run", config)
    worker = SelfPlayWorker(config, "w1")
    assert learner.last_row() is None
    for sequence in range(20):
        version, model = learner.model()
        worker.set_model(model, version)
        learner.ingest(worker.play_shard(sequence))
        learner.train()
        if learner.steps_to_next_version == 0:
            learner.publish()
            break
    row = learner.last_row()
    assert isinstance(row, dict) and row["version"] == learner.model_version == 1
    with open(tmp_path / "run" / "learner.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert set(row) == set(rows[-1]) and int(rows[-1]["version"]) == row["version"]


def test_advance_publishes_the_versions_the_earned_steps_complete(tmp_path):
    # Four shards of 8 games earn two versions' worth of steps (16 of 8 a version).
    config = run_config(preset="tiny")
    learner = Learner(tmp_path / "run", config, replay_ratio=8.0)
    worker = SelfPlayWorker(config, "w1")
    worker.set_model(learner.model()[1], 0)
    for sequence in range(4):
        learner.ingest(worker.play_shard(sequence))
    assert learner.advance(max_steps=5) == [] and learner.step == 5
    rows = learner.advance(target=1)
    assert [row["version"] for row in rows] == [1] and learner.step == 8
    rows = learner.advance()
    assert [(row["version"], row["step"]) for row in rows] == [(2, 16)]
    assert learner.advance() == [] and learner.model_version == 2


def test_counts_out_of_range_are_value_errors(tmp_path):
    # A negative count is a ValueError, not an OverflowError; a run needs an iteration.
    with pytest.raises(ValueError, match="out of range"):
        run_config(preset="tiny", iterations=-1)
    with pytest.raises(ValueError, match="run.iterations = 0"):
        run_config(preset="tiny", iterations=0)
    with pytest.raises(ValueError, match="the most a run configuration may have"):
        run_config(path="/dev/zero")
    config = run_config(preset="tiny")
    learner = Learner(tmp_path / "run", config)
    worker = SelfPlayWorker(config, "w1")
    version, model = learner.model()
    with pytest.raises(ValueError, match="out of range"):
        learner.train(-1)
    with pytest.raises(ValueError, match="out of range"):
        worker.set_model(model, -1)
    worker.set_model(model, version)
    with pytest.raises(ValueError, match="out of range"):
        worker.play_shard(2**64)


def test_a_run_configuration_is_a_dict_edited_and_given_back(tmp_path):
    config = run_config(preset="tiny", iterations=2)
    assert isinstance(config, dict)
    assert config["run"]["iterations"] == 2 and config["game"]["board"] == "5x3"
    config["selfplay"]["games_per_iteration"] = 4
    learner = Learner(tmp_path / "run", config)
    assert learner.config == config
    # The run directory keeps it as TOML, which reads back the same.
    toml_text = (tmp_path / "run" / "config.toml").read_text(encoding="utf-8")
    assert "games_per_iteration = 4" in toml_text
    assert run_config(run=tmp_path / "run") == config
    with pytest.raises(ValueError, match="not a run directory yet"):
        run_config(run=tmp_path / "elsewhere")
    assert SelfPlayWorker(toml_text, "w1") is not None
    bad = dict(config, selfplay=dict(config["selfplay"], games_per_iteration=0))
    with pytest.raises(ValueError, match="games_per_iteration"):
        SelfPlayWorker(bad, "w2")
    with pytest.raises(ValueError, match="unknown field"):
        SelfPlayWorker(dict(config, colour="red"), "w3")
    with pytest.raises(TypeError, match="expected a dict"):
        SelfPlayWorker(dict(config, game=object()), "w4")
