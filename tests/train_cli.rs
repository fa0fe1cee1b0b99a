//! `fanorona train` and `fanorona eval` end to end: a tiny run, its resumption, and clear
//! errors for missing, truncated and mismatched checkpoints.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{Run, fanorona};
use fanorona_train::io::Checkpoint;
use fanorona_train::model::ComputeDevice;
use fanorona_train::run::read_metrics;

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

/// A `fanorona train` of the tiny preset running in the background; killed when dropped.
struct Background {
    child: std::process::Child,
}

impl Background {
    /// Starts `fanorona train --preset tiny --iterations 1000` into `out`.
    fn start(out: &Path) -> Background {
        let child = common::command([
            "train",
            "--preset",
            "tiny",
            "--iterations",
            "1000",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
        Background { child }
    }

    /// Waits until the run has written a metrics row and a checkpoint.
    fn wait_for_first_iteration(&mut self, out: &Path) {
        wait_until("a metrics row and a checkpoint", || {
            assert!(
                self.child.try_wait().unwrap().is_none(),
                "the run ended early"
            );
            let rows = std::fs::read_to_string(out.join("metrics.csv")).unwrap_or_default();
            rows.lines().count() >= 2 && !checkpoints(out).is_empty()
        });
    }

    /// Waits (boundedly) for the run to end; its outcome.
    fn wait(mut self) -> Run {
        wait_until("the run to end", || {
            self.child.try_wait().unwrap().is_some()
        });
        let mut stdout = String::new();
        let mut stderr = String::new();
        self.child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut stdout)
            .unwrap();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        Run {
            status: self.child.try_wait().unwrap().unwrap(),
            stdout,
            stderr,
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls `done` every 20 ms, failing after two minutes.
fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The checkpoint files of the run directory `out`, oldest first.
fn checkpoints(out: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(out)
        .map(|entries| entries.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "ckpt"));
    files.sort();
    files
}

/// The iterations of the rows of `out`'s metrics file.
fn metrics_iterations(out: &Path) -> Vec<u64> {
    let rows = read_metrics(&out.join("metrics.csv")).unwrap();
    rows.iter().map(|r| r.iteration).collect()
}

#[cfg(unix)]
#[test]
fn ctrl_c_writes_a_checkpoint_that_a_resume_continues() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let mut run = Background::start(&out);
    run.wait_for_first_iteration(&out);
    // SAFETY: kill(2) with the id of our own, still unreaped, child.
    assert_eq!(
        unsafe { libc::kill(run.child.id() as i32, libc::SIGINT) },
        0
    );
    let stopped = run.wait();
    assert_eq!(stopped.status.code(), Some(130), "{}", stopped.stderr);
    assert!(stopped.stderr.contains("interrupted"), "{}", stopped.stderr);

    let done = *metrics_iterations(&out).last().unwrap();
    let checkpoint = Checkpoint::load(
        checkpoints(&out).last().unwrap(),
        &ComputeDevice::Flex.device().unwrap(),
    )
    .unwrap();
    assert_eq!(checkpoint.meta.iteration, done);
    assert!(
        stopped.stdout.contains(&format!("{done} iterations")),
        "{}",
        stopped.stdout
    );

    let next = (done + 1).to_string();
    let resumed = train(&out, &next);
    assert!(
        resumed
            .assert_success()
            .contains(&format!("{next} iterations"))
    );
    let expected: Vec<u64> = (1..=done + 1).collect();
    assert_eq!(metrics_iterations(&out), expected);
}

#[test]
fn a_second_train_on_a_running_directory_fails_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let mut first = Background::start(&out);
    first.wait_for_first_iteration(&out);
    let started = Instant::now();
    let second = train(&out, "1000");
    second.assert_failure(&format!("run directory {} is in use", out.display()));
    assert!(started.elapsed() < Duration::from_secs(30));

    // The lock of a killed run does not outlive it.
    drop(first);
    train(&out, "1").assert_success();
}
