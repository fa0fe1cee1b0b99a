//! Runs of the `abnet` kind (expert iteration with the alpha-beta as the expert): the same
//! seed gives the same run, a run resumed from a checkpoint ends exactly as an uninterrupted
//! one (its best network included), the gate's decisions follow its scores, a run can start
//! from the shipped student, and bad settings (and the distributed roles) are refused with the
//! reason.

mod common;

use std::path::Path;

use burn::tensor::Device;
use common::position_outputs;
use fanorona_env::{Fanorona, GameId, Position};
use fanorona_train::TrainError;
use fanorona_train::config::{AlphaBetaConfig, RunConfig};
use fanorona_train::io::{ShippedModel, load_policy};
use fanorona_train::roles::{Learner, SelfPlayWorker};
use fanorona_train::run::{TrainOptions, train};
use fanorona_train::run_dir::{MetricsRow, RunDir, find_checkpoint, read_metrics};

/// The tiny preset (5x3) as an `abnet` run from fresh weights: 8 games an iteration of 50
/// nodes a turn, a gate of 8 games, a checkpoint every iteration.
fn config(iterations: u64) -> RunConfig {
    let mut config = RunConfig::preset("tiny").unwrap();
    config.abnet = Some(AlphaBetaConfig {
        start: "fresh".into(),
        nodes: 50,
        random_opening: 2,
        random_turn: 0.1,
        gate_games: 8,
        gate_nodes: 50,
        gate_threshold: 0.5,
    });
    config.run.iterations = iterations;
    config.replay.root_value_weight = 0.5;
    config.validate().unwrap();
    config
}

/// The rows of a run's metrics without the wall-clock columns.
fn rows(dir: &Path) -> Vec<MetricsRow> {
    let mut rows = read_metrics(&RunDir::new(dir).metrics()).unwrap();
    for row in &mut rows {
        (row.elapsed_s, row.games_per_s, row.positions_per_s) = (0.0, 0.0, 0.0);
    }
    rows
}

#[test]
fn an_abnet_run_repeats_for_a_seed_resumes_exactly_and_gates_by_its_scores() {
    let dir = tempfile::tempdir().unwrap();
    let [whole, resumed, reseeded] = ["whole", "resumed", "reseeded"].map(|n| dir.path().join(n));
    let summary = train(&config(4), &whole, TrainOptions::default()).unwrap();
    assert_eq!(summary.iterations, 4);
    train(&config(2), &resumed, TrainOptions::default()).unwrap();
    let again = train(&config(4), &resumed, TrainOptions::default()).unwrap();
    assert!(again.resumed);
    assert_eq!(rows(&whole), rows(&resumed));
    let files = |run: &Path| {
        let run = RunDir::new(run);
        [
            run.checkpoint(summary.step),
            run.best_at(summary.step),
            run.best(),
        ]
    };
    for (whole, resumed) in files(&whole).iter().zip(&files(&resumed)) {
        let read = |path| std::fs::read(path).unwrap();
        assert!(read(whole) == read(resumed), "{} differs", whole.display());
    }
    let mut other = config(4);
    other.run.seed = 2;
    train(&other, &reseeded, TrainOptions::default()).unwrap();
    assert_ne!(rows(&whole), rows(&reseeded));

    // Every iteration is gated; the best is the last iteration that scored above 0.5.
    let mut best_iteration = 0;
    for row in rows(&whole).iter().chain(&rows(&reseeded)) {
        if row.iteration == 1 {
            best_iteration = 0;
        }
        let score = row.gate_score.expect("a gate every iteration");
        if score > 0.5 {
            best_iteration = row.iteration;
        }
        assert_eq!(row.best_iteration, Some(best_iteration), "{row:?}");
        assert!(row.games == 8 && row.positions > 0);
    }
    // The agent file is the best network saved with the last checkpoint.
    let whole = RunDir::new(whole);
    let agent = load_policy(&whole.best()).unwrap().net;
    let saved = load_policy(&whole.best_at(summary.step)).unwrap().net;
    let game = Fanorona::new(Position::initial(fanorona_env::Board::new(5, 3).unwrap()));
    assert_eq!(
        position_outputs(&agent, &game),
        position_outputs(&saved, &game)
    );
}

#[test]
fn a_run_that_never_passes_its_gate_keeps_the_shipped_student_it_started_from() {
    let mut config = config(1);
    config.game = GameId::standard();
    config.network = RunConfig::preset("abnet").unwrap().network;
    config.selfplay.games_per_iteration = 2;
    config.training.min_replay_positions = 1;
    let abnet = config.abnet.as_mut().unwrap();
    abnet.start = "student".into();
    abnet.gate_games = 2;
    // No score is above 1.
    abnet.gate_threshold = 1.0;
    let dir = tempfile::tempdir().unwrap();
    train(&config, dir.path(), TrainOptions::default()).unwrap();
    let row = &rows(dir.path())[0];
    assert_eq!(row.best_iteration, Some(0));
    let student = ShippedModel::Student.load_on(&Device::flex()).unwrap().net;
    let agent = load_policy(&RunDir::new(dir.path()).best()).unwrap().net;
    let game = Fanorona::standard();
    assert_eq!(
        position_outputs(&agent, &game),
        position_outputs(&student, &game)
    );
    // The learner did train: its network is no longer the student.
    let trained = load_policy(&find_checkpoint(dir.path()).unwrap())
        .unwrap()
        .net;
    assert_ne!(
        position_outputs(&trained, &game),
        position_outputs(&student, &game)
    );
}

#[test]
fn bad_abnet_settings_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |config: RunConfig, name: &str| {
        let err = train(&config, &dir.path().join(name), TrainOptions::default()).unwrap_err();
        err.to_string()
    };
    let mut student_on_5x3 = config(1);
    student_on_5x3.abnet.as_mut().unwrap().start = "student".into();
    let err = refused(student_on_5x3, "student");
    assert!(err.contains("fanorona 9x5") && err.contains("5x3"), "{err}");

    let mut missing = config(1);
    missing.abnet.as_mut().unwrap().start = "no/such/file.safetensors".into();
    let err = refused(missing, "missing");
    assert!(err.contains("no/such/file.safetensors"), "{err}");

    let mut telo = config(1);
    telo.game = GameId::Telo;
    let err = telo.validate().unwrap_err().to_string();
    assert!(err.contains("fanorona only"), "{err}");

    let mut resnet = config(1);
    resnet.network = RunConfig::preset("full").unwrap().network;
    let err = resnet.validate().unwrap_err().to_string();
    assert!(err.contains("network.kind must be \"mlp\""), "{err}");

    let mut scored = config(1);
    scored.selfplay.score_weight = 0.25;
    let err = scored.validate().unwrap_err().to_string();
    assert!(err.contains("selfplay.score_weight"), "{err}");

    let mut bad = config(1);
    bad.abnet.as_mut().unwrap().gate_threshold = 1.5;
    let err = bad.validate().unwrap_err().to_string();
    assert_eq!(
        err,
        "run configuration: abnet.gate_threshold = 1.5: expected a number in [0, 1]"
    );
    assert!(matches!(
        train(&bad, &dir.path().join("bad"), TrainOptions::default()),
        Err(TrainError::Config(_))
    ));

    // The distributed roles play and learn MCTS runs only.
    let err = SelfPlayWorker::new(config(1), "w1")
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("`fanorona train` only"), "{err}");
    let learner = Learner::open(Some(config(1)), &dir.path().join("learner"), 4.0);
    let err = learner.err().unwrap().to_string();
    assert!(err.contains("`fanorona train` only"), "{err}");
}
