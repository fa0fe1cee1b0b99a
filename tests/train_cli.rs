//! `fanorona train`, `fanorona eval` and `fanorona export` end to end: a tiny run, its
//! resumption, and clear errors for missing, truncated and mismatched checkpoints; a run
//! directory or an exported policy file as `--checkpoint`; a closed log that does not stop a
//! run; a device that is not compiled in, or endgame tables that are missing, refused before
//! anything is made; self-play labelled by endgame tables.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{Run, Stream, command, fanorona, fanorona_closed};
use fanorona_train::config::ComputeDevice;
use fanorona_train::io::Checkpoint;
use fanorona_train::run_dir::read_metrics;

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

    // A new run starts from the exported network; a run with checkpoints refuses --init.
    let with_init = |run: &Path| {
        let mut args = vec!["train", "--preset", "tiny", "--iterations", "1", "--quiet"];
        args.extend(["--run", run.to_str().unwrap()]);
        args.extend(["--init", policy.to_str().unwrap()]);
        fanorona(args)
    };
    with_init(&run).assert_failure("--init starts a new run");
    let started = dir.path().join("started");
    with_init(&started).assert_success();
    let config = std::fs::read_to_string(started.join("config.toml")).unwrap();
    assert!(config.contains("init = "), "{config}");
    // A network of another board is refused before the run starts.
    let other = dir.path().join("other");
    let mut args = vec!["train", "--preset", "tiny", "--board", "3x3", "--quiet"];
    args.extend(["--run", other.to_str().unwrap()]);
    args.extend(["--init", policy.to_str().unwrap()]);
    fanorona(args).assert_failure("fanorona 5x3");
    assert!(!other.exists(), "nothing made");
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

#[test]
fn endgame_tables_label_self_play_and_missing_ones_are_refused_before_the_run_starts() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let tables = path("tables");
    let tables_arg = tables.to_str().unwrap();
    fanorona([
        "tables", "build", "--board", "5x3", "--pieces", "4", "--out", tables_arg,
    ])
    .assert_success();
    let run = path("run");
    let train = |run: &Path, tables: &str| {
        let run = run.to_str().unwrap();
        let args = ["--iterations", "2", "--tables", tables, "--quiet"];
        fanorona(
            ["train", "--preset", "tiny", "--run", run]
                .into_iter()
                .chain(args),
        )
    };
    train(&run, tables_arg).assert_success();
    let rows = read_metrics(&run.join("metrics.csv")).unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r.exact_positions <= r.positions));
    assert!(rows.iter().any(|r| r.exact_positions > 0), "{rows:?}");
    let stored = std::fs::read_to_string(run.join("config.toml")).unwrap();
    assert!(
        stored.contains(&format!("tables = \"{tables_arg}\"")),
        "{stored}"
    );

    // A relative --tables is kept absolute: a resume from another folder finds these tables.
    let relative = command([
        "train",
        "--preset",
        "tiny",
        "--run",
        "rel",
        "--iterations",
        "1",
        "--tables",
        "tables",
        "--quiet",
    ])
    .current_dir(dir.path())
    .output()
    .unwrap();
    assert!(relative.status.success(), "{relative:?}");
    let stored = std::fs::read_to_string(path("rel").join("config.toml")).unwrap();
    let kept = stored
        .lines()
        .find_map(|l| l.strip_prefix("tables = \""))
        .and_then(|l| l.strip_suffix('"'))
        .unwrap();
    assert!(Path::new(kept).is_absolute(), "{kept}");
    assert_eq!(
        Path::new(kept).canonicalize().unwrap(),
        tables.canonicalize().unwrap()
    );

    let other = path("other");
    let missing = path("missing");
    train(&other, missing.to_str().unwrap()).assert_failure("selfplay.tables");
    assert!(!other.exists(), "no run directory is made");
}

/// The tiny preset with `changes` (`(old, new)` text replacements, each of which must apply)
/// written as `name.toml` into `dir`; returns its path.
fn tiny_config(dir: &Path, name: &str, changes: &[(&str, &str)]) -> std::path::PathBuf {
    let mut text = fanorona_train::config::RunConfig::preset_text("tiny")
        .unwrap()
        .to_string();
    for (old, new) in changes {
        assert!(text.contains(old), "{old}");
        text = text.replace(old, new);
    }
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

/// `fanorona train --config CONFIG --out OUT --quiet` with `threads` rayon threads.
fn train_with_threads(config: &Path, out: &Path, threads: usize) -> Run {
    let output = common::command([
        "train".as_ref(),
        "--config".as_ref(),
        config.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--quiet".as_ref(),
    ])
    .env("RAYON_NUM_THREADS", threads.to_string())
    .output()
    .expect("the binary runs");
    Run {
        status: output.status,
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The rows of a run's `metrics.csv` without its wall-clock columns (times and rates).
fn metrics_without_times(run: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(run.join("metrics.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let clock = ["elapsed_s", "games_per_s", "positions_per_s"];
    assert!(clock.iter().all(|c| header.contains(c)), "{header:?}");
    lines
        .map(|line| {
            let fields = line.split(',').zip(&header);
            let kept: Vec<&str> = fields
                .filter(|(_, name)| !clock.contains(name))
                .map(|(field, _)| field)
                .collect();
            kept.join(",")
        })
        .collect()
}

/// The run's files that must come out byte for byte the same from the same seed.
fn run_files(run: &Path) -> Vec<(String, Vec<u8>)> {
    let mut names: Vec<String> = std::fs::read_dir(run)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| {
            name.ends_with(".ckpt")
                || (name.starts_with("replay-") && name.ends_with(".safetensors"))
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let bytes = std::fs::read(run.join(&name)).unwrap();
            (name, bytes)
        })
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_run_whatever_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    // Wide enough layers and batches for burn's matrix products to go parallel; an
    // evaluation match every iteration.
    let changes = [
        ("iterations = 3", "iterations = 2"),
        ("hidden = [32]", "hidden = [256]"),
        ("batch_size = 32", "batch_size = 128"),
        ("eval_every_iterations = 0", "eval_every_iterations = 1"),
    ];
    let config = tiny_config(dir.path(), "seed1", &changes);
    let reseeded = [&changes[..], &[("seed = 1", "seed = 2")]].concat();
    let other_seed = tiny_config(dir.path(), "seed2", &reseeded);
    let runs = [
        (&config, 1, "one"),
        (&config, 2, "two"),
        (&other_seed, 2, "other"),
    ];
    for (config, threads, name) in runs {
        train_with_threads(config, &dir.path().join(name), threads).assert_success();
    }
    let [one, two, other] = ["one", "two", "other"].map(|name| dir.path().join(name));
    let metrics = metrics_without_times(&one);
    assert_eq!(metrics.len(), 2);
    assert_eq!(metrics, metrics_without_times(&two));
    let files = run_files(&one);
    assert_eq!(files.len(), 4, "two checkpoints and their replay windows");
    // Not assert_eq: the files are long.
    for ((name, a), (other_name, b)) in files.iter().zip(&run_files(&two)) {
        assert!(
            name == other_name && a == b,
            "{name} differs between 1 and 2 threads"
        );
    }
    assert_ne!(metrics, metrics_without_times(&other));
    let last_replay = |run: &Path| {
        let files = run_files(run);
        let (_, bytes) = files
            .into_iter()
            .rfind(|(name, _)| name.starts_with("replay-"))
            .expect("a replay window");
        bytes
    };
    assert_ne!(last_replay(&one), last_replay(&other));
}

#[test]
fn bad_values_and_a_diverging_network_stop_the_run_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, changes: &[(&str, &str)]| {
        let config = tiny_config(dir.path(), name, changes);
        let out = dir.path().join(name);
        (train_with_threads(&config, &out, 1), out)
    };
    let (nan, _) = run("nan", &[("lr = 3e-3", "lr = nan")]);
    nan.assert_failure("training.trainer.schedule.lr = NaN: expected a finite number above 0");
    let (negative, _) = run("negative", &[("batch_size = 32", "batch_size = -4")]);
    negative.assert_failure("batch_size");
    let (zero, _) = run("zero", &[("batch_size = 32", "batch_size = 0")]);
    zero.assert_failure("training.batch_size = 0: expected an integer at least 1");
    let (probability, _) = run(
        "probability",
        &[("dirichlet_fraction = 0.25", "dirichlet_fraction = 1.5")],
    );
    probability.assert_failure("mcts.dirichlet_fraction = 1.5: expected a number in [0, 1]");

    // A learning rate this high blows the weights up in the first steps.
    let (diverged, out) = run("diverged", &[("lr = 3e-3", "lr = 1e30")]);
    diverged.assert_failure("iteration 1, learner step ");
    assert!(diverged.stderr.contains("loss is"), "{}", diverged.stderr);
    let checkpoints = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some("ckpt".as_ref()))
        .count();
    assert_eq!(checkpoints, 0, "no checkpoint of the broken network");
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
