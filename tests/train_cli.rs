//! `fanorona train`, `fanorona eval` and `fanorona export` end to end: a tiny run, its
//! resumption, and clear errors for missing, truncated and mismatched checkpoints; a run
//! directory or an exported policy file as `--checkpoint`; a closed log that does not stop a
//! run; a device that is not compiled in refused before anything is made.

mod common;

use std::path::Path;

use common::{Run, Stream, fanorona, fanorona_closed};
use fanorona_train::model::ComputeDevice;

/// `fanorona train` of the tiny preset into `out`, up to `iterations`.
fn train(out: &Path, iterations: &str) -> Run {
    let out = out.to_str().unwrap();
    fanorona([
        "train",
        "--preset",
        "tiny",
        "--out",
        out,
        "--iterations",
        iterations,
        "--quiet",
    ])
}

#[test]
fn a_tiny_run_resumes_and_its_checkpoint_plays_through_eval() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let first = train(&run, "1");
    assert!(
        first
            .assert_success()
            .contains("1 iterations, 8 learner steps")
    );
    let second = train(&run, "2");
    assert!(
        second
            .assert_success()
            .contains("2 iterations, 16 learner steps")
    );
    for file in [
        "config.toml",
        "metrics.csv",
        "curves.png",
        "replay.safetensors",
    ] {
        assert!(run.join(file).exists(), "{file}");
    }
    let checkpoint = run.join("checkpoint-0000000016.ckpt");
    let eval = fanorona([
        "eval",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
        "--vs",
        "random",
        "--games",
        "2",
        "--sims",
        "8",
        "--quiet",
    ]);
    assert!(
        eval.assert_success()
            .contains("checkpoint@16 vs random: 2 games")
    );

    // A different preset on the same directory is refused.
    fanorona([
        "train",
        "--preset",
        "small",
        "--out",
        run.to_str().unwrap(),
        "--quiet",
    ])
    .assert_failure("another configuration");

    // Missing, truncated and mismatched checkpoints.
    let eval_error = |path: &Path, extra: &[&str], text: &str| {
        let mut args = vec![
            "eval",
            "--checkpoint",
            path.to_str().unwrap(),
            "--vs",
            "random",
        ];
        args.extend_from_slice(extra);
        fanorona(args).assert_failure(text);
    };
    eval_error(&dir.path().join("none.ckpt"), &[], "no checkpoint found");
    let data = std::fs::read(&checkpoint).unwrap();
    let truncated = dir.path().join("truncated.ckpt");
    std::fs::write(&truncated, &data[..data.len() / 2]).unwrap();
    eval_error(&truncated, &[], "corrupt or truncated");
    eval_error(
        &checkpoint,
        &["--board", "9x5"],
        "holds a network for fanorona 5x3, not for --board 9x5",
    );

    // The run directory stands for its latest checkpoint; an exported policy plays too.
    let policy = dir.path().join("agent.safetensors");
    let export = fanorona([
        "export",
        "--checkpoint",
        run.to_str().unwrap(),
        "--out",
        policy.to_str().unwrap(),
    ]);
    assert!(
        export
            .assert_success()
            .contains(&format!("from {}", checkpoint.display())),
        "{}",
        export.stdout
    );
    for (network, name) in [(&run, "checkpoint@16"), (&policy, "policy@16")] {
        let eval = fanorona([
            "eval",
            "--checkpoint",
            network.to_str().unwrap(),
            "--vs",
            "random",
            "--games",
            "2",
            "--sims",
            "8",
            "--threads",
            "100000",
            "--quiet",
        ]);
        let stdout = eval.assert_success();
        assert!(
            stdout.contains(&format!("{name} vs random: 2 games")),
            "{stdout}"
        );
    }
    eval_error(dir.path(), &[], "no checkpoint found at");
}

#[test]
fn a_closed_log_does_not_stop_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let args = [
        "train",
        "--preset",
        "tiny",
        "--out",
        run.to_str().unwrap(),
        "--iterations",
        "1",
    ];
    // Log lines go to the closed standard error (as with `2>&1 | head -3`).
    let closed = fanorona_closed(args, Stream::Stderr);
    assert!(closed.status.success(), "{}", closed.stdout);
    assert!(
        closed.stdout.contains("1 iterations, 8 learner steps"),
        "{}",
        closed.stdout
    );
    assert!(run.join("checkpoint-0000000008.ckpt").exists());
}

#[test]
fn a_device_not_compiled_in_is_refused_before_the_run_directory_is_made() {
    if ComputeDevice::Cuda.is_compiled() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let preset = include_str!("../train/presets/tiny.toml");
    assert!(preset.contains("device = \"flex\""));
    let config = dir.path().join("cuda.toml");
    std::fs::write(
        &config,
        preset.replace("device = \"flex\"", "device = \"cuda\""),
    )
    .unwrap();
    let run = dir.path().join("run");
    fanorona([
        "train",
        "--config",
        config.to_str().unwrap(),
        "--out",
        run.to_str().unwrap(),
        "--quiet",
    ])
    .assert_failure("device cuda is not compiled in");
    assert!(!run.exists(), "no run directory is made");
}
