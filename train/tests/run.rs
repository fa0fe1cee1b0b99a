//! Whole training runs: a tiny run on 3x3 learns a winning opening (checked against the exact
//! solver), a resumed run goes on where it stopped and ends as a straight one, runs are
//! deterministic, and Fanoron-Telo trains too.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use burn::tensor::Device;
use fanorona_env::{Agent, Board, Color, Fanorona, Game, GameId, Position};
use fanorona_exact::solver::{Solution, Value};
use fanorona_search::SearchConfig;
use fanorona_train::config::RunConfig;
use fanorona_train::io::Checkpoint;
use fanorona_train::players::network_agent;
use fanorona_train::run::{RunEvent, TrainOptions, train};
use fanorona_train::run_dir::{ResolveConfigError, RunDir, read_metrics};

/// Whether playing `action` first on `board` wins under perfect play.
fn wins(solution: &Solution, board: &'static Board, action: usize) -> bool {
    let mut game = Fanorona::new(Position::initial(board));
    game.apply(action).unwrap();
    let value = solution.value(game.position()).unwrap();
    match game.current_player() {
        Color::White => matches!(value, Value::Win(_)),
        Color::Black => matches!(value, Value::Loss(_)),
    }
}

#[test]
fn a_tiny_run_on_3x3_learns_a_winning_opening() {
    let board = Board::parse("3x3").unwrap();
    let solution = Solution::solve(board).unwrap();
    let start = Fanorona::new(Position::initial(board));
    let mut legal = Vec::new();
    start.legal_actions(&mut legal);
    let winning: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|&a| wins(&solution, board, a))
        .collect();
    // The test means something only if some first actions lose.
    assert!(
        !winning.is_empty() && winning.len() < legal.len(),
        "{winning:?} of {legal:?}"
    );

    let mut config = RunConfig::preset("tiny").unwrap();
    config.game = GameId::Fanorona(Board::new(3, 3).unwrap());
    config.run.iterations = 30;
    config.mcts.search.simulations = 48;
    config.selfplay.games_per_iteration = 16;
    config.selfplay.parallel_games = 16;
    config.training.steps_per_iteration = 16;
    config.replay.window_games = 200;
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let summary = train(&config, dir, TrainOptions::default()).unwrap();
    assert_eq!(summary.iterations, config.run.iterations);
    assert!(RunDir::new(dir).has_config());
    let checkpoint = Checkpoint::load(&summary.checkpoint, &Device::flex()).unwrap();
    assert_eq!(checkpoint.meta.step, summary.step);

    // The raw policy prefers a winning first action...
    let net = &checkpoint.network;
    let mut obs = vec![0.0; net.config().observation_len()];
    start.write_observation(&mut obs);
    let mut logits = vec![0.0; net.config().num_actions];
    let mut value = [0.0];
    net.infer(&obs, &mut logits, &mut value);
    let best = *legal
        .iter()
        .max_by(|&&a, &&b| {
            logits[start.to_mover_action(a)].total_cmp(&logits[start.to_mover_action(b)])
        })
        .unwrap();
    assert!(
        winning.contains(&best),
        "policy prefers {best}, winning {winning:?}"
    );
    // The first player wins 3x3: the value head has learnt it.
    assert!(value[0] > 0.3, "value of the start {}", value[0]);
    // ...and so does its search.
    let search = SearchConfig {
        simulations: 32,
        ..SearchConfig::default()
    };
    let mut agent = network_agent(net, &search, 1, "trained".into());
    let action = agent.act(&start).unwrap();
    assert!(
        winning.contains(&action),
        "search plays {action}, winning {winning:?}"
    );
}

#[test]
fn a_resumed_run_continues_the_step_counter_and_the_replay_window() {
    let mut config = RunConfig::preset("tiny").unwrap();
    config.run.iterations = 1;
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let first = train(&config, dir, TrainOptions::default()).unwrap();
    assert!(!first.resumed);
    let steps = config.training.steps_per_iteration as u64;
    assert_eq!((first.iterations, first.step), (1, steps));
    let games = config.selfplay.games_per_iteration as u64;
    assert_eq!(first.replay_games_added, games);

    let mut again = RunDir::new(dir).resolve_config(None).unwrap();
    assert_eq!(again, config);
    again.run.iterations = 2;
    let second = train(&again, dir, TrainOptions::default()).unwrap();
    assert!(second.resumed);
    assert_eq!((second.iterations, second.step), (2, 2 * steps));
    assert_eq!(second.replay_games_added, 2 * games);
    assert!(second.replay_positions > first.replay_positions);
    let rows = read_metrics(&RunDir::new(dir).metrics()).unwrap();
    let iterations: Vec<u64> = rows.iter().map(|r| r.iteration).collect();
    assert_eq!(iterations, [1, 2]);
    assert_eq!(rows[1].step, 2 * steps);

    // A different configuration is refused on the same directory.
    let mut other = config.clone();
    other.game = GameId::Fanorona(Board::new(3, 3).unwrap());
    let err = RunDir::new(dir).resolve_config(Some(other)).unwrap_err();
    assert!(
        matches!(err, ResolveConfigError::Mismatch { what: "game", .. }),
        "{err}"
    );

    // Checkpoints without their config.toml are not resumed with a guessed configuration:
    // the missing file is named.
    let run = RunDir::new(dir);
    std::fs::remove_file(run.config()).unwrap();
    for requested in [None, Some(config.clone())] {
        let err = run.resolve_config(requested).unwrap_err();
        assert!(
            matches!(err, ResolveConfigError::ConfigMissing { .. }),
            "{err}"
        );
        assert!(err.to_string().contains("config.toml"), "{err}");
    }
}

/// What a run's end shows of its learning: each metrics row's self-play and losses, the
/// last checkpoint's metadata, and its network's logits and value at the start.
fn outcome(dir: &Path, checkpoint: &Path) -> (Vec<String>, String, Vec<f32>, f32) {
    let rows = read_metrics(&RunDir::new(dir).metrics()).unwrap();
    let rows = rows
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} {} {}",
                r.iteration, r.step, r.positions, r.loss_total, r.loss_policy, r.loss_value
            )
        })
        .collect();
    let checkpoint = Checkpoint::load(checkpoint, &Device::flex()).unwrap();
    let net = &checkpoint.network;
    let mut obs = vec![0.0; net.config().observation_len()];
    Fanorona::new(Position::initial(Board::new(5, 3).unwrap())).write_observation(&mut obs);
    let mut logits = vec![0.0; net.config().num_actions];
    let mut value = [0.0];
    net.infer(&obs, &mut logits, &mut value);
    (rows, format!("{:?}", checkpoint.meta), logits, value[0])
}

/// A run directory written before the trainer's section was renamed (its `config.toml`
/// with `[training.learner]`) resumes, and its configuration is written back with today's
/// name.
#[test]
fn a_run_with_the_old_name_of_the_trainer_section_resumes() {
    let mut config = RunConfig::preset("tiny").unwrap();
    config.run.iterations = 1;
    let dir = tempfile::tempdir().unwrap();
    let run = RunDir::new(dir.path());
    train(&config, run.path(), TrainOptions::default()).unwrap();
    let text = std::fs::read_to_string(run.config()).unwrap();
    let old = text.replace("[training.trainer", "[training.learner");
    assert_ne!(old, text);
    std::fs::write(run.config(), old).unwrap();
    let mut again = run.resolve_config(None).unwrap();
    assert_eq!(again, config);
    again.run.iterations = 2;
    let resumed = train(&again, run.path(), TrainOptions::default()).unwrap();
    assert!(resumed.resumed && resumed.iterations == 2);
    assert_eq!(
        std::fs::read_to_string(run.config()).unwrap(),
        again.to_toml()
    );
}

/// Self-play and the learner steps run at the same time once the window is ready; the run is
/// still deterministic, and one stopped and resumed ends exactly as one that ran straight.
#[test]
fn runs_are_deterministic_and_a_resumed_run_ends_as_a_straight_one() {
    let mut config = RunConfig::preset("tiny").unwrap();
    config.run.iterations = 4;
    let straight = tempfile::tempdir().unwrap();
    let again = tempfile::tempdir().unwrap();
    let resumed = tempfile::tempdir().unwrap();
    let a = train(&config, straight.path(), TrainOptions::default()).unwrap();
    let b = train(&config, again.path(), TrainOptions::default()).unwrap();
    let mut half = config.clone();
    half.run.iterations = 2;
    train(&half, resumed.path(), TrainOptions::default()).unwrap();
    let c = train(&config, resumed.path(), TrainOptions::default()).unwrap();
    assert!(c.resumed);
    let first = outcome(straight.path(), &a.checkpoint);
    assert_eq!(first.0.len(), 4);
    assert_eq!(first, outcome(again.path(), &b.checkpoint));
    assert_eq!(first, outcome(resumed.path(), &c.checkpoint));
}

#[test]
fn telo_trains_too() {
    let mut config = RunConfig::preset("tiny").unwrap();
    config.game = GameId::Telo;
    config.run.iterations = 1;
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let summary = train(&config, dir, TrainOptions::default()).unwrap();
    assert_eq!(summary.step, config.training.steps_per_iteration as u64);
    let checkpoint = Checkpoint::load(&summary.checkpoint, &Device::flex()).unwrap();
    assert_eq!(checkpoint.meta.game, "telo 3x3");
}

/// The files of `dir` whose names start with `prefix`, sorted by name.
fn files_starting(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with(prefix)
        })
        .collect();
    files.sort();
    files
}

/// The iterations of the rows of the run's metrics file.
fn metrics_iterations(dir: &Path) -> Vec<u64> {
    let rows = read_metrics(&RunDir::new(dir).metrics()).unwrap();
    rows.iter().map(|r| r.iteration).collect()
}

#[test]
fn metrics_rows_after_the_checkpoint_are_cut_on_resume() {
    let mut config = RunConfig::preset("tiny").unwrap();
    config.run.iterations = 3;
    // Checkpoints at iterations 2 and 3.
    config.run.checkpoint_every_steps = 2 * config.training.steps_per_iteration as u64;
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    train(&config, dir, TrainOptions::default()).unwrap();
    // As if killed after the third row but before its checkpoint.
    let last = files_starting(dir, "checkpoint-").pop().unwrap();
    std::fs::remove_file(&last).unwrap();
    assert_eq!(metrics_iterations(dir), [1, 2, 3]);

    let resumed = train(&config, dir, TrainOptions::default()).unwrap();
    assert_eq!(resumed.iterations, 3);
    assert_eq!(metrics_iterations(dir), [1, 2, 3]);
    let rows = read_metrics(&RunDir::new(dir).metrics()).unwrap();
    assert_eq!(rows[2].step, resumed.step);
}

#[test]
fn without_checkpoints_old_metrics_are_refused() {
    let mut config = RunConfig::preset("tiny").unwrap();
    config.run.iterations = 1;
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    train(&config, dir, TrainOptions::default()).unwrap();
    for path in files_starting(dir, "checkpoint-") {
        std::fs::remove_file(path).unwrap();
    }
    config.run.iterations = 2;
    let err = train(&config, dir, TrainOptions::default()).unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("no checkpoint") && message.contains("choose another run directory"),
        "{message}"
    );
    assert_eq!(metrics_iterations(dir), [1]);
}

#[test]
fn a_checkpoint_whose_replay_file_is_missing_is_refused() {
    let mut config = RunConfig::preset("tiny").unwrap();
    config.run.iterations = 1;
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    train(&config, dir, TrainOptions::default()).unwrap();
    for path in files_starting(dir, "replay") {
        std::fs::remove_file(path).unwrap();
    }
    config.run.iterations = 2;
    let err = train(&config, dir, TrainOptions::default()).unwrap_err();
    assert!(err.to_string().contains("no replay file found"), "{err}");
}

#[test]
fn a_replay_file_newer_than_the_checkpoint_is_not_used() {
    let mut config = RunConfig::preset("tiny").unwrap();
    config.run.iterations = 1;
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    train(&config, dir, TrainOptions::default()).unwrap();
    // The replay window of the second iteration, as left by a kill after it was written but
    // before its checkpoint.
    let ahead = tempfile::tempdir().unwrap();
    let mut two = config.clone();
    two.run.iterations = 2;
    train(&two, ahead.path(), TrainOptions::default()).unwrap();
    let newer = files_starting(ahead.path(), "replay").pop().unwrap();
    std::fs::copy(&newer, dir.join(newer.file_name().unwrap())).unwrap();

    let resumed = train(&two, dir, TrainOptions::default()).unwrap();
    let games = config.selfplay.games_per_iteration as u64;
    assert_eq!(resumed.replay_games_added, 2 * games);
}

#[test]
fn a_stopped_run_ends_its_iteration_with_a_checkpoint() {
    let mut config = RunConfig::preset("tiny").unwrap();
    config.run.iterations = 1000;
    // No checkpoint is due before the stop.
    config.run.checkpoint_every_steps = 1_000_000;
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let mut events = Vec::new();
    let options = TrainOptions {
        events: Box::new(|event| events.push(event)),
        stop: Some(Arc::new(AtomicBool::new(true))),
    };
    let summary = train(&config, dir, options).unwrap();
    assert!(summary.interrupted);
    assert_eq!(summary.iterations, 1);
    let checkpoint = Checkpoint::load(&summary.checkpoint, &Device::flex()).unwrap();
    assert_eq!(checkpoint.meta.iteration, 1);
    assert_eq!(metrics_iterations(dir), [1]);

    // The run reported its start, each game, the iteration's row and its end, in order.
    let games = config.selfplay.games_per_iteration;
    assert!(matches!(
        events[..2],
        [
            RunEvent::Started { done: 0, total: 1000, games: g },
            RunEvent::IterationStarted { iteration: 1 },
        ] if g == games
    ));
    let played = &events[2..2 + games];
    assert!(played.iter().all(|e| matches!(e, RunEvent::GamePlayed)));
    let rows = read_metrics(&RunDir::new(dir).metrics()).unwrap();
    match &events[2 + games..] {
        [RunEvent::IterationDone(row), RunEvent::Finished] => assert_eq!(**row, rows[0]),
        rest => panic!("{rest:?}"),
    }
}
