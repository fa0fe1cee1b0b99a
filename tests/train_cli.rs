//! `fanorona train` and `fanorona eval` end to end: a tiny run, its resumption, and clear
//! errors for missing, truncated and mismatched checkpoints.

use std::path::Path;
use std::process::{Command, Output};

fn fanorona(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn train(out: &Path, iterations: &str) -> Output {
    let out = out.to_str().unwrap();
    fanorona(&[
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
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(text(&first.stdout).contains("1 iterations, 8 learner steps"));
    let second = train(&run, "2");
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert!(text(&second.stdout).contains("2 iterations, 16 learner steps"));
    for file in [
        "config.toml",
        "metrics.csv",
        "curves.png",
        "replay.safetensors",
    ] {
        assert!(run.join(file).exists(), "{file}");
    }
    let checkpoint = run.join("checkpoint-0000000016.ckpt");
    let eval = fanorona(&[
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
    assert!(eval.status.success(), "{}", text(&eval.stderr));
    assert!(text(&eval.stdout).contains("checkpoint@16 vs random: 2 games"));

    // A different preset on the same directory is refused.
    let other = fanorona(&[
        "train",
        "--preset",
        "small",
        "--out",
        run.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(!other.status.success());
    assert!(text(&other.stderr).contains("another configuration"));

    // Missing, truncated and mismatched checkpoints.
    let eval_error = |path: &Path, extra: &[&str]| {
        let mut args = vec![
            "eval",
            "--checkpoint",
            path.to_str().unwrap(),
            "--vs",
            "random",
        ];
        args.extend_from_slice(extra);
        let out = fanorona(&args);
        assert_eq!(out.status.code(), Some(2));
        text(&out.stderr)
    };
    let missing = eval_error(&dir.path().join("none.ckpt"), &[]);
    assert!(missing.contains("no checkpoint found"), "{missing}");
    let data = std::fs::read(&checkpoint).unwrap();
    let truncated = dir.path().join("truncated.ckpt");
    std::fs::write(&truncated, &data[..data.len() / 2]).unwrap();
    let cut = eval_error(&truncated, &[]);
    assert!(cut.contains("corrupt or truncated"), "{cut}");
    let mismatched = eval_error(&checkpoint, &["--board", "9x5"]);
    assert!(
        mismatched.contains("has game fanorona 5x3, expected fanorona 9x5"),
        "{mismatched}"
    );
}
