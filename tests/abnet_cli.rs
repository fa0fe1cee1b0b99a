//! The agent files of `fanorona train` end to end: a tiny `abnet` run (5x3, fresh weights)
//! names its agent file, which `fanorona match` plays directly, and running it again with more
//! iterations resumes it; a tiny MCTS run with a `[distill]` section names its student, which
//! `fanorona match` plays and `fanorona distill` does not write over.

mod common;

use std::path::{Path, PathBuf};

use common::fanorona;
use fanorona_train::run_dir::read_metrics;

/// The tiny preset with `section` added, written into `dir` as `name`.
fn tiny_with(dir: &Path, name: &str, section: &str) -> PathBuf {
    let text = fanorona_train::config::RunConfig::preset_text("tiny").unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("{text}\n{section}")).unwrap();
    path
}

/// `fanorona train --config CONFIG --run RUN --iterations N`; checks that it names the agent
/// file `RUN/AGENT` and returns its specification.
fn train_naming_agent(config: &Path, run: &Path, iterations: &str, agent: &str) -> String {
    let (config, out) = (config.to_str().unwrap(), run.to_str().unwrap());
    let args = [
        "train",
        "--config",
        config,
        "--run",
        out,
        "--iterations",
        iterations,
    ];
    let stdout = fanorona(args).assert_success().to_string();
    let agent = format!("abnet:path={}", run.join(agent).display());
    assert!(stdout.contains(&format!("agent {agent}")), "{stdout}");
    agent
}

/// `fanorona match` of `agent` at depth 1 against random, two games on 5x3.
fn plays(agent: &str) {
    let white = format!("{agent},depth=1");
    let played = fanorona([
        "match", "--white", &white, "--black", "random", "--games", "2", "--board", "5x3",
    ]);
    assert!(
        played.assert_success().contains("2 games"),
        "{}",
        played.stdout
    );
}

#[test]
fn a_tiny_abnet_run_writes_an_agent_that_plays_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let abnet = "[abnet]\nstart = \"fresh\"\nnodes = 50\nrandom_opening = 2\nrandom_turn = 0.1\n\
                 gate_games = 4\ngate_nodes = 50\ngate_threshold = 0.55\n";
    let config = tiny_with(dir.path(), "abnet-tiny.toml", abnet);
    let run = dir.path().join("run");
    let agent = train_naming_agent(&config, &run, "2", "best.safetensors");
    let rows = read_metrics(&run.join("metrics.csv")).unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r.gate_score.is_some()));
    plays(&agent);

    let out = run.to_str().unwrap();
    let resumed = fanorona(["train", "--run", out, "--iterations", "3", "--quiet"]);
    assert!(resumed.assert_success().contains("3 iterations"));
    let rows = read_metrics(&run.join("metrics.csv")).unwrap();
    let iterations: Vec<u64> = rows.iter().map(|r| r.iteration).collect();
    assert_eq!(iterations, [1, 2, 3]);
}

#[test]
fn a_tiny_mcts_run_names_its_last_checkpoint_and_abnet_plays_it() {
    let dir = tempfile::tempdir().unwrap();
    let config = tiny_with(dir.path(), "plain-tiny.toml", "");
    let run = dir.path().join("run");
    let agent = train_naming_agent(&config, &run, "1", "checkpoint-0000000008.ckpt");
    plays(&agent);
}

#[test]
fn a_tiny_run_with_a_student_names_it_and_it_plays() {
    let dir = tempfile::tempdir().unwrap();
    let distill = "[distill]\nhidden = [16, 8]\npositions = 600\nheld_out = 100\nepochs = 2\n";
    let config = tiny_with(dir.path(), "student-tiny.toml", distill);
    let run = dir.path().join("run");
    let agent = train_naming_agent(&config, &run, "1", "student.safetensors");
    assert!(run.join("student.jsonl").is_file());
    plays(&agent);

    let student = run.join("student.safetensors");
    let before = std::fs::read(&student).unwrap();
    let checkpoint = run.join("checkpoint-0000000008.ckpt");
    fanorona([
        "distill",
        "--teacher",
        checkpoint.to_str().unwrap(),
        "--out",
        student.to_str().unwrap(),
    ])
    .assert_failure("a file of a training run");
    assert_eq!(std::fs::read(&student).unwrap(), before);
}
