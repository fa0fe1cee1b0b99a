//! `fanorona train` and `fanorona eval` end to end: a tiny run, its resumption, and clear
//! errors for missing, truncated and mismatched checkpoints.

mod common;

use std::path::Path;

use common::{Run, fanorona};

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
        "replay-0000000016.safetensors",
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
        "has game fanorona 5x3, expected fanorona 9x5",
    );
}
