//! Training over a shared run directory with real processes: two `fanorona selfplay` workers
//! and a `fanorona learn` on the tiny preset, then `fanorona gauntlet --run`; a worker killed
//! (SIGKILL) mid-shard leaves no half-written shard and the learner goes on; a learner killed
//! (SIGKILL) resumes from its checkpoint and ingests the shards written while it was down; no
//! shard is ever counted twice (the positions a learner's checkpoint has ingested are those of
//! the shards it records).

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{Run, fanorona};
use fanorona_train::config::ComputeDevice;
use fanorona_train::io::{Checkpoint, CheckpointMeta, Shard};
use fanorona_train::roles::LearnerRow;
use fanorona_train::run_dir::{RunDir, find_checkpoint, read_rows, shard_name};

/// A process of the binary, killed if still running when dropped.
struct Process {
    child: Option<Child>,
}

impl Process {
    /// Starts the binary with `args` (output captured).
    fn start(args: &[&str]) -> Process {
        let child = common::command(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        Process { child: Some(child) }
    }

    /// The running child.
    fn child(&mut self) -> &mut Child {
        self.child.as_mut().expect("not waited for yet")
    }

    /// Whether it is still running.
    fn running(&mut self) -> bool {
        self.child().try_wait().unwrap().is_none()
    }

    /// Sends it `signal`.
    fn signal(&mut self, signal: i32) {
        // SAFETY: kill(2) with the id of our own, still unreaped, child.
        assert_eq!(unsafe { libc::kill(self.child().id() as i32, signal) }, 0);
    }

    /// Kills it with SIGKILL and reaps it.
    fn kill(mut self) {
        self.signal(libc::SIGKILL);
        self.child().wait().unwrap();
    }

    /// Waits (boundedly) for it to end; its outcome.
    fn wait(mut self) -> Run {
        wait_until("a process to end", || !self.running());
        let output = self.child.take().unwrap().wait_with_output().unwrap();
        Run {
            status: output.status,
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
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

/// `fanorona learn` of the tiny preset on `run`, with more arguments.
fn learner(run: &Path, more: &[&str]) -> Process {
    let mut args = vec!["learn", "--run", run.to_str().unwrap(), "--preset", "tiny"];
    args.extend_from_slice(more);
    Process::start(&args)
}

/// `fanorona selfplay` on `run` as `worker`, with more arguments.
fn worker(run: &Path, worker: &str, more: &[&str]) -> Process {
    let mut args = vec![
        "selfplay",
        "--run",
        run.to_str().unwrap(),
        "--worker",
        worker,
        "--quiet",
    ];
    args.extend_from_slice(more);
    Process::start(&args)
}

/// The shard files of the run.
fn shards(run: &Path) -> Vec<PathBuf> {
    RunDir::new(run).list_shards().unwrap()
}

/// The file names of `paths`.
fn names(paths: &[PathBuf]) -> BTreeSet<String> {
    paths
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
        .collect()
}

/// The metadata of the latest checkpoint of the run.
fn latest_checkpoint(run: &Path) -> CheckpointMeta {
    let path = find_checkpoint(run).unwrap();
    Checkpoint::load(&path, &ComputeDevice::Flex.device().unwrap())
        .unwrap()
        .meta
}

/// Reads every shard of the run (each must be whole: sealed, its checksum right).
fn read_all(run: &Path) -> Vec<Shard> {
    shards(run)
        .iter()
        .map(|path| Shard::read(path, [18, 3, 5], 361).unwrap())
        .collect()
}

/// Asserts the checkpoint counted each shard it records once: its ingested positions are
/// the sum of theirs, and they all exist.
fn assert_counted_once(run: &Path, meta: &CheckpointMeta) {
    let progress = meta.learner.as_ref().expect("a learner's checkpoint");
    let on_disk = read_all(run);
    let recorded: u64 = on_disk
        .iter()
        .filter(|s| progress.consumed.contains(&shard_name(&s.header)))
        .map(|s| s.positions() as u64)
        .sum();
    assert_eq!(progress.positions_ingested, recorded);
    assert!(progress.consumed.is_subset(&names(&shards(run))));
}

#[test]
fn two_workers_and_a_learner_train_a_run_and_the_gauntlet_scores_its_versions() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let learn = learner(&run, &["--iterations", "4", "--replay-ratio", "0.25"]);
    let a = worker(&run, "a", &[]);
    let b = worker(&run, "b", &[]);
    let learned = learn.wait();
    assert!(
        learned
            .assert_success()
            .contains("model version 4, 32 learner steps"),
        "{}",
        learned.stdout
    );
    // The workers stop when the learner is done.
    for w in [a, b] {
        assert!(w.wait().assert_success().contains("shards"));
    }
    let rows: Vec<LearnerRow> = read_rows(&run.join("learner.csv")).unwrap();
    assert_eq!(
        rows.iter().map(|r| r.version).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    assert_eq!(rows.last().unwrap().step, 32);
    let versions: Vec<u64> = RunDir::new(&run)
        .list_models()
        .unwrap()
        .iter()
        .map(|m| m.0)
        .collect();
    assert_eq!(versions, [0, 1, 2, 3, 4]);
    let meta = latest_checkpoint(&run);
    assert_eq!((meta.iteration, meta.step), (4, 32));
    assert_counted_once(&run, &meta);
    let progress = meta.learner.unwrap();
    assert_eq!(
        rows.iter().map(|r| r.positions).sum::<u64>(),
        progress.positions_ingested
    );
    for name in ["a-", "b-"] {
        assert!(
            progress.consumed.iter().any(|s| s.starts_with(name)),
            "no shard of worker {name} consumed: {:?}",
            progress.consumed
        );
    }

    let gauntlet =
        |every: &str| fanorona(["gauntlet", "--run", run.to_str().unwrap(), "--every", every]);
    let scored = gauntlet("2");
    let lines: Vec<&str> = scored.assert_success().lines().collect();
    assert_eq!(lines.len(), 3, "{}", scored.stdout);
    for (line, version) in lines.iter().zip([0, 2, 4]) {
        assert!(
            line.starts_with(&format!("model version {version} ")),
            "{line}"
        );
        // The strength of the run's agent against its opponent, with its 95% interval.
        assert!(line.contains(" vs minimax:depth="), "{line}");
        let interval = line.split('(').nth(2).and_then(|s| s.split(')').next());
        let ends: Vec<f64> = interval
            .map(|s| s.split('-').filter_map(|x| x.parse().ok()).collect())
            .unwrap_or_default();
        assert!(ends.len() == 2 && ends[0] <= ends[1], "{line}");
    }
    let csv = std::fs::read_to_string(run.join("gauntlet.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert!(
        header.contains("strength_score,strength_low,strength_high"),
        "{header}"
    );
    assert_eq!(csv.lines().count(), 4, "{csv}");
    // Versions evaluated once are not evaluated again.
    assert_eq!(gauntlet("1").assert_success(), "");
}

#[test]
fn a_worker_killed_mid_shard_leaves_no_half_shard_and_the_learner_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let mut learn = learner(&run, &["--iterations", "100000"]);
    let a = worker(&run, "a", &[]);
    wait_until("two shards of worker a", || shards(&run).len() >= 2);
    // It is playing its next shard: kill it there.
    a.kill();
    let written = shards(&run).len();
    // A write cut short leaves at most a temporary file, never a `.shard`; one is left here.
    std::fs::write(run.join("games").join(".tmpXYZ"), b"half a shard").unwrap();
    assert_eq!(read_all(&run).len(), written);

    // Restarted under the same name, the worker numbers on: nothing is overwritten.
    let again = worker(&run, "a", &["--games", "16"]);
    assert!(again.wait().assert_success().contains("2 shards"));
    let all = names(&shards(&run));
    assert_eq!(all.len(), written + 2);
    assert!(all.contains(&format!("a-{:08}.shard", written + 1)));
    // The learner goes on with them, then stops at Ctrl-C with a checkpoint.
    std::thread::sleep(Duration::from_millis(500));
    assert!(learn.running());
    learn.signal(libc::SIGINT);
    let stopped = learn.wait();
    assert_eq!(stopped.status.code(), Some(130), "{}", stopped.stderr);
    assert!(!stopped.stderr.contains("skipping"), "{}", stopped.stderr);
    let meta = latest_checkpoint(&run);
    assert_eq!(meta.learner.as_ref().unwrap().consumed, all);
    assert_counted_once(&run, &meta);
}

#[test]
fn a_learner_killed_resumes_from_its_checkpoint_with_the_shards_written_meanwhile() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let learn = learner(&run, &["--iterations", "100000"]);
    let a = worker(&run, "a", &[]);
    wait_until("a checkpoint at step 16", || {
        RunDir::new(&run).checkpoints().unwrap().len() >= 2
    });
    learn.kill();
    let meta = latest_checkpoint(&run);
    let before = shards(&run).len();
    wait_until("two shards written while the learner is down", || {
        shards(&run).len() >= before + 2
    });
    let written = names(&shards(&run));

    let until = (meta.iteration + 2).to_string();
    let resumed = learner(&run, &["--iterations", &until]).wait();
    let out = resumed.assert_success();
    assert!(
        resumed.stderr.contains(&format!(
            "from model version {}, step {}",
            meta.iteration, meta.step
        )),
        "{}",
        resumed.stderr
    );
    assert!(out.contains(&format!("model version {until}")), "{out}");
    assert!(a.wait().assert_success().contains("shards"));
    let last = latest_checkpoint(&run);
    let consumed = &last.learner.as_ref().unwrap().consumed;
    assert!(
        written.is_subset(consumed),
        "{written:?} not all in {consumed:?}"
    );
    assert_counted_once(&run, &last);
    // learner.csv has one row per version, those after the checkpoint rewritten.
    let rows: Vec<LearnerRow> = read_rows(&run.join("learner.csv")).unwrap();
    let versions: Vec<u64> = rows.iter().map(|r| r.version).collect();
    assert_eq!(versions, (1..=meta.iteration + 2).collect::<Vec<_>>());

    // A damaged latest model is written again when a learner opens the run.
    let (_, latest) = RunDir::new(&run).list_models().unwrap().pop().unwrap();
    let good = std::fs::read(&latest).unwrap();
    std::fs::write(&latest, b"damaged").unwrap();
    learner(&run, &["--iterations", &until])
        .wait()
        .assert_success();
    assert_eq!(std::fs::read(&latest).unwrap(), good);
    // With every checkpoint gone, the learner refuses to start again from version 0 over
    // the run's rows.
    let csv = std::fs::read(run.join("learner.csv")).unwrap();
    for checkpoint in RunDir::new(&run).checkpoints().unwrap() {
        std::fs::remove_file(checkpoint).unwrap();
    }
    learner(&run, &["--iterations", &until])
        .wait()
        .assert_failure("has rows in learner.csv but no checkpoint to resume from");
    assert_eq!(std::fs::read(run.join("learner.csv")).unwrap(), csv);
}

#[test]
fn bad_input_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let run = run.to_str().unwrap();
    fanorona(["learn", "--run", run])
        .assert_failure("is not a run directory yet: start it with --preset NAME or --config FILE");
    fanorona([
        "learn",
        "--run",
        run,
        "--preset",
        "tiny",
        "--replay-ratio",
        "0",
    ])
    .assert_failure("replay ratio = 0: expected a finite number above 0");
    fanorona(["selfplay", "--run", run, "--worker", "a/b"])
        .assert_failure("bad worker name \"a/b\"");
    fanorona(["selfplay", "--run", run, "--wait", "0"]).assert_failure(&format!(
        "start `fanorona learn --run {run} --preset NAME` first"
    ));
    fanorona(["gauntlet", "--run", run]).assert_failure("is not a run directory");
    fanorona([
        "learn",
        "--run",
        run,
        "--preset",
        "tiny",
        "--iterations",
        "0",
    ])
    .assert_success();
    fanorona(["learn", "--run", run, "--preset", "small"])
        .assert_failure("was started with another configuration");
}
