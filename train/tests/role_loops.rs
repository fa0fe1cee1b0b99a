//! The roles' loops over a shared run directory (what `fanorona learn`, `selfplay` and
//! `gauntlet --run` wrap): a worker and a learner in two threads until the learner's limit,
//! the gauntlet evaluating each version once, `advance` publishing the versions earned, and
//! the stop flag and the wait for a first model.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use fanorona_train::TrainError;
use fanorona_train::config::RunConfig;
use fanorona_train::roles::{
    GauntletSchedule, LearnLimits, Learner, LearnerEvent, SelfPlayWorker, WorkerLimits,
    run_gauntlet, run_learner, run_worker,
};
use fanorona_train::run_dir::RunDir;

fn tiny() -> RunConfig {
    RunConfig::preset("tiny").unwrap()
}

/// A stop flag never set.
static NEVER: AtomicBool = AtomicBool::new(false);

#[test]
fn a_worker_and_a_learner_loop_share_a_run_until_the_learner_is_done() {
    let dir = tempfile::tempdir().unwrap();
    let run = RunDir::new(dir.path().join("run"));
    let mut learner = Learner::open(Some(tiny()), run.path(), 4.0).unwrap();
    let worker_run = RunDir::new(run.path());
    let worker = std::thread::spawn(move || {
        let limits = WorkerLimits {
            games: None,
            wait: Duration::from_secs(60),
        };
        let mut written = Vec::new();
        let totals = run_worker(&worker_run, "w1", limits, &NEVER, |path, shard| {
            assert!(path.exists());
            written.push(shard.header.sequence);
        })
        .unwrap();
        (totals, written)
    });
    let limits = LearnLimits {
        versions: 3,
        steps: u64::MAX,
    };
    let mut published = Vec::new();
    let end = run_learner(&mut learner, limits, &NEVER, |event| match event {
        LearnerEvent::Published(row) => published.push(row.version),
        LearnerEvent::SkippedShard(error) => panic!("no shard is damaged: {error}"),
    })
    .unwrap();
    assert!(!end.stopped);
    assert_eq!((end.version, end.step), (3, 24), "3 versions of 8 steps");
    assert_eq!(published, [1, 2, 3]);
    assert!(end.checkpoint.exists());
    assert!(run.is_learner_done(), "the learner marks the run done");
    // The worker stops at the mark, numbering its shards from 0 without a gap.
    let (totals, written) = worker.join().unwrap();
    assert!(totals.shards >= 1);
    assert_eq!(written, (0..totals.shards).collect::<Vec<_>>());
    assert_eq!(totals.games, 8 * totals.shards, "8 games a shard");
    assert_eq!(
        std::fs::read_dir(run.shards()).unwrap().count() as u64,
        totals.shards
    );

    // The gauntlet evaluates every version there once, and none again on a second pass.
    let config = run.load_config().unwrap();
    let schedule = GauntletSchedule {
        every: Some(1),
        follow: false,
    };
    let mut versions = Vec::new();
    let evaluated = run_gauntlet(&run, &config, schedule, &NEVER, |row, evaluation| {
        assert_eq!(row.games, u64::from(evaluation.strength.unwrap().games()));
        versions.push(row.version);
    })
    .unwrap();
    let listed: Vec<u64> = run.list_models().unwrap().iter().map(|m| m.0).collect();
    assert_eq!(versions, listed);
    assert_eq!(evaluated, listed.len() as u64);
    assert_eq!(
        run_gauntlet(&run, &config, schedule, &NEVER, |_, _| panic!(
            "evaluated twice"
        ))
        .unwrap(),
        0
    );
}

#[test]
fn advance_publishes_each_version_the_earned_steps_complete_within_the_limits() {
    let dir = tempfile::tempdir().unwrap();
    let mut learner = Learner::open(Some(tiny()), &dir.path().join("run"), 8.0).unwrap();
    let mut worker = SelfPlayWorker::new(tiny(), "w").unwrap();
    worker.set_model(&learner.model_bytes(), 0).unwrap();
    for sequence in 0..4 {
        learner
            .ingest_bytes(&worker.play_shard_bytes(sequence).unwrap())
            .unwrap();
    }
    // Steps owed stop at two versions' worth (16 steps of 8 a version).
    assert_eq!(learner.steps_earned(), 16);
    let steps_only = LearnLimits {
        versions: u64::MAX,
        steps: 5,
    };
    assert!(learner.advance(steps_only, &NEVER).unwrap().is_empty());
    assert_eq!((learner.step(), learner.model_version()), (5, 0));
    let one_version = LearnLimits {
        versions: 1,
        steps: u64::MAX,
    };
    let rows = learner.advance(one_version, &NEVER).unwrap();
    assert_eq!(rows.iter().map(|r| r.version).collect::<Vec<_>>(), [1]);
    assert_eq!(learner.step(), 8);
    let stopped = AtomicBool::new(true);
    let unlimited = LearnLimits {
        versions: u64::MAX,
        steps: u64::MAX,
    };
    assert!(learner.advance(unlimited, &stopped).unwrap().is_empty());
    assert_eq!(learner.step(), 8, "a stop takes no step");
    let rows = learner.advance(unlimited, &NEVER).unwrap();
    assert_eq!(rows.iter().map(|r| r.version).collect::<Vec<_>>(), [2]);
    assert_eq!(rows[0].step, 16);
    assert_eq!(learner.steps_earned(), 0);
}

#[test]
fn stopped_loops_end_at_once_and_a_worker_without_a_model_gives_up() {
    let dir = tempfile::tempdir().unwrap();
    let run = RunDir::new(dir.path().join("run"));
    let limits = WorkerLimits {
        games: None,
        wait: Duration::ZERO,
    };
    match run_worker(&run, "w", limits, &NEVER, |_, _| {}) {
        Err(error @ TrainError::NoModel { .. }) => {
            assert!(error.to_string().contains("fanorona learn --run"))
        }
        other => panic!("expected NoModel, got {other:?}"),
    }
    let stopped = AtomicBool::new(true);
    let mut learner = Learner::open(Some(tiny()), run.path(), 4.0).unwrap();
    let end = run_learner(
        &mut learner,
        LearnLimits {
            versions: 3,
            steps: u64::MAX,
        },
        &stopped,
        |_| panic!("no event"),
    )
    .unwrap();
    assert!(end.stopped);
    assert_eq!((end.version, end.step), (0, 0));
    assert!(end.checkpoint.exists());
    assert!(!run.is_learner_done(), "a stopped learner has not finished");
    let totals = run_worker(&run, "w", limits, &stopped, |_, _| panic!("no shard")).unwrap();
    assert_eq!(totals.shards, 0);
    assert!(!run.shards().exists() || std::fs::read_dir(run.shards()).unwrap().count() == 0);
}
