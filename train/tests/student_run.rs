//! An MCTS run with a `[distill]` section ends by teaching its network to the student `abnet`
//! searches with: the student is the distillation of the run's last network seeded by the
//! run's seed, a finished run keeps it, new iterations teach a new one, a stop before it is
//! taught leaves none (and the next call makes it), and bad settings are refused.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use common::position_outputs;
use fanorona_env::{Board, Fanorona, GameId, Position};
use fanorona_train::config::{Architecture, DistillSettings, RunConfig};
use fanorona_train::distill::distill;
use fanorona_train::io::load_policy;
use fanorona_train::model::PolicyValueNet;
use fanorona_train::run::{RunSummary, TrainOptions, train};
use fanorona_train::run_dir::RunDir;

/// The tiny preset (5x3) with a small student MLP 16-8, taught on 600 positions in 2 epochs.
fn config(iterations: u64) -> RunConfig {
    let mut config = RunConfig::preset("tiny").unwrap();
    config.run.iterations = iterations;
    config.distill = Some(DistillSettings {
        hidden: vec![16, 8],
        positions: 600,
        held_out: 100,
        epochs: 2,
        batch_size: 64,
        ..DistillSettings::default()
    });
    config.validate().unwrap();
    config
}

/// Trains `config` in `dir`, with `stop` as the run's stop flag.
fn run(config: &RunConfig, dir: &Path, stop: Option<Arc<AtomicBool>>) -> RunSummary {
    let options = TrainOptions {
        stop,
        ..TrainOptions::default()
    };
    train(config, dir, options).unwrap()
}

/// The logits and value of `net` at the start of the 5x3 game.
fn outputs(net: &PolicyValueNet) -> Vec<f32> {
    let game = Fanorona::new(Position::initial(Board::new(5, 3).unwrap()));
    position_outputs(net, &game)
}

#[test]
fn a_finished_run_s_agent_is_its_network_taught_to_the_student() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(2);
    let summary = run(&config, dir.path(), None);
    assert!(!summary.interrupted);
    let agent = RunDir::new(dir.path()).student();
    assert_eq!(summary.agent.as_deref(), Some(agent.as_path()));
    let student = load_policy(&agent).unwrap();
    assert_eq!(
        student.net.config().architecture,
        Architecture::mlp(&[16, 8])
    );
    assert_eq!(student.meta.step, summary.step, "the run's network's step");
    assert_eq!(student.meta.game.to_string(), "fanorona 5x3");

    // The same teaching of the run's last network with the run's seed gives the same student.
    let teacher = load_policy(&summary.checkpoint).unwrap().net;
    let settings = config.distill.as_ref().unwrap();
    let start = Position::initial(Board::new(5, 3).unwrap());
    let again = distill(
        &teacher,
        None,
        &start,
        settings,
        config.run.seed,
        &mut |_| {},
        None,
    )
    .unwrap();
    assert_eq!(outputs(&student.net), outputs(&again));

    let metrics = std::fs::read_to_string(RunDir::new(dir.path()).student_metrics()).unwrap();
    let epochs: Vec<&str> = metrics.lines().collect();
    assert_eq!(epochs.len(), 2, "{metrics}");
    assert!(epochs[1].contains("\"epoch\":2") && epochs[1].contains("value_mae"));
    let elapsed = |line: &str| {
        serde_json::from_str::<serde_json::Value>(line).unwrap()["elapsed_s"]
            .as_f64()
            .unwrap()
    };
    assert!(0.0 < elapsed(epochs[0]) && elapsed(epochs[0]) <= elapsed(epochs[1]));
}

#[test]
fn a_finished_run_keeps_its_student_and_new_iterations_teach_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let first = run(&config(1), dir.path(), None);
    let agent = RunDir::new(dir.path()).student();
    std::fs::write(&agent, b"kept").unwrap();
    let again = run(&config(1), dir.path(), None);
    assert_eq!(again.agent.as_deref(), Some(agent.as_path()));
    assert_eq!(std::fs::read(&agent).unwrap(), b"kept", "not taught again");

    let longer = run(&config(2), dir.path(), None);
    assert!(longer.step > first.step);
    let student = load_policy(&agent).unwrap();
    assert_eq!(student.meta.step, longer.step, "the new network's student");
}

#[test]
fn a_finished_run_without_a_student_takes_one_up_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let plain = RunConfig {
        distill: None,
        ..config(1)
    };
    let first = run(&plain, dir.path(), None);
    assert_eq!(
        first.agent.as_ref(),
        Some(&first.checkpoint),
        "the checkpoint plays"
    );
    let resolved = RunDir::new(dir.path())
        .resolve_config(Some(config(1)))
        .unwrap();
    assert_eq!(resolved.distill, config(1).distill);
    let again = run(&resolved, dir.path(), None);
    assert_eq!(again.step, first.step, "no further iteration");
    let student = load_policy(&RunDir::new(dir.path()).student()).unwrap();
    assert_eq!(student.meta.step, first.step);
    let stored = RunConfig::load(&dir.path().join("config.toml")).unwrap();
    assert_eq!(
        stored.distill,
        config(1).distill,
        "the run directory's config has it"
    );
}

#[test]
fn a_stop_before_the_student_is_taught_leaves_none_and_the_next_call_teaches_it() {
    let dir = tempfile::tempdir().unwrap();
    // Set from the start: the run ends its one iteration, then stops before teaching.
    let stopped = run(
        &config(1),
        dir.path(),
        Some(Arc::new(AtomicBool::new(true))),
    );
    assert!(stopped.interrupted);
    assert_eq!(stopped.iterations, 1);
    assert_eq!(stopped.agent, None);
    assert!(!RunDir::new(dir.path()).student().exists());
    assert!(!RunDir::new(dir.path()).student_metrics().exists());

    let resumed = run(&config(1), dir.path(), None);
    assert!(!resumed.interrupted);
    assert_eq!(resumed.step, stopped.step, "no further iteration");
    let student = load_policy(&RunDir::new(dir.path()).student()).unwrap();
    assert_eq!(student.meta.step, stopped.step);
}

#[test]
fn bad_student_settings_are_refused_with_the_reason() {
    let mut zero = config(1);
    zero.distill.as_mut().unwrap().positions = 0;
    let mut shapeless = config(1);
    shapeless.distill.as_mut().unwrap().hidden = vec![];
    let mut telo = config(1);
    telo.game = GameId::Telo;
    let mut abnet = RunConfig::preset("abnet").unwrap();
    abnet.distill = Some(DistillSettings::default());
    for (config, expected) in [
        (zero, "distill: positions must be at least 1"),
        (shapeless, "distill: the student's shape is not valid"),
        (telo, "[distill] teaches fanorona networks only"),
        (abnet, "[distill] is for MCTS runs"),
    ] {
        let error = config.validate().unwrap_err().to_string();
        assert!(error.contains(expected), "{error}");
        let dir = tempfile::tempdir().unwrap();
        let options = TrainOptions::default();
        assert!(train(&config, dir.path(), options).is_err());
        assert!(!dir.path().join("config.toml").exists(), "nothing started");
    }
    let text = RunConfig::preset_text("tiny").unwrap().to_string() + "\n[distill]\nepoch = 2\n";
    let error = RunConfig::from_toml(&text, "test").unwrap_err().to_string();
    assert!(error.contains("unknown field `epoch`"), "{error}");
}
