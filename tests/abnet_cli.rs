//! `fanorona train` of an `abnet` run end to end: a tiny run (5x3, fresh weights) names its
//! agent file, which `fanorona match` plays directly; running it again with more iterations
//! resumes it.

mod common;

use std::path::Path;

use common::fanorona;
use fanorona_train::run::read_metrics;

/// The tiny preset as an `abnet` run from fresh weights, written into `dir`.
fn abnet_config(dir: &Path) -> std::path::PathBuf {
    let text = fanorona_train::run::RunConfig::preset_text("tiny").unwrap();
    let abnet = "[abnet]\nstart = \"fresh\"\nnodes = 50\nrandom_opening = 2\nrandom_turn = 0.1\n\
                 gate_games = 4\ngate_nodes = 50\ngate_threshold = 0.55\n";
    let path = dir.join("abnet-tiny.toml");
    std::fs::write(&path, format!("{text}\n{abnet}")).unwrap();
    path
}

#[test]
fn a_tiny_abnet_run_writes_an_agent_that_plays_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let config = abnet_config(dir.path());
    let run = dir.path().join("run");
    let (config, out) = (config.to_str().unwrap(), run.to_str().unwrap());
    let stdout = fanorona([
        "train",
        "--config",
        config,
        "--run",
        out,
        "--iterations",
        "2",
    ])
    .assert_success()
    .to_string();
    let agent = format!("abnet:path={}", run.join("best.safetensors").display());
    assert!(stdout.contains(&format!("agent {agent}")), "{stdout}");
    let rows = read_metrics(&run.join("metrics.csv")).unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r.gate_score.is_some()));

    let white = format!("{agent},depth=1");
    let played = fanorona([
        "match", "--white", &white, "--black", "random", "--games", "2", "--board", "5x3",
    ]);
    assert!(
        played.assert_success().contains("2 games"),
        "{}",
        played.stdout
    );

    let resumed = fanorona(["train", "--run", out, "--iterations", "3", "--quiet"]);
    assert!(resumed.assert_success().contains("3 iterations"));
    let rows = read_metrics(&run.join("metrics.csv")).unwrap();
    let iterations: Vec<u64> = rows.iter().map(|r| r.iteration).collect();
    assert_eq!(iterations, [1, 2, 3]);
}
