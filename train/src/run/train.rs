//! The training run: a run directory, then iterations of self-play -> replay -> learner steps
//! -> metrics, with periodic evaluation matches, checkpoints and a plot of the curves.
//!
//! Run directory layout:
//! - `config.toml`: the resolved configuration (a resumed run reads it back);
//! - `checkpoint-STEP.ckpt`: network, optimiser, step, iteration and RNG state (the latest
//!   `keep_checkpoints` are kept), with `replay.safetensors`, the replay window at the latest
//!   checkpoint;
//! - `metrics.csv`: one row per iteration; `curves.png`: the learning curves, drawn at the end.
//!
//! Checkpoints are written at the end of the first iteration at or after every
//! `checkpoint_every_steps` learner steps, and at the end of the run, so that a checkpoint
//! always holds a whole number of iterations and resuming repeats nothing. Self-play and
//! learning alternate: self-play spreads the games' tree walks over the cores (rayon) and
//! batches the leaves into one network call, the learner then uses burn's own threads.

use std::path::{Path, PathBuf};
use std::time::Instant;

use fanorona_env::{AgentSpec, Fanorona, Game, GameId, Position, Telo};
use fanorona_eval::ArenaError;
use fanorona_search::SearchConfig;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::SeedableRng;

use crate::io::ReplayFileError;
use crate::io::{Checkpoint, CheckpointError, CheckpointMeta};
use crate::model::DeviceError;
use crate::model::Learner;
use crate::model::{NetworkConfig, PolicyValueNet};
use crate::players::NetworkEvaluator;
use crate::replay::{Batch, ReplayBuffer, TrajectoryMeta};
use crate::rng::{RngState, RngStateError, TrainRng};
use crate::run::NetworkMatch;
use crate::run::{CONFIG_FILE, RunConfig, RunConfigError};
use crate::run::{METRICS_FILE, MetricsError, MetricsRow, MetricsWriter, read_metrics};
use crate::run::{PlotError, plot_metrics};
use crate::selfplay::SelfPlay;

/// The replay window saved with the latest checkpoint.
pub const REPLAY_FILE: &str = "replay.safetensors";
/// The learning curves drawn at the end of a run.
pub const CURVES_FILE: &str = "curves.png";
/// The opponents of the periodic evaluation matches.
pub const EVAL_OPPONENTS: [&str; 2] = ["minimax:depth=1", "minimax:depth=2"];

/// A run that cannot start or go on.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The configuration is bad, or does not match the run directory's.
    #[error(transparent)]
    Config(#[from] RunConfigError),
    /// The requested configuration differs from the one the run directory was started with.
    #[error(
        "run directory {dir} was started with another configuration ({what} differs); \
         resume it without --config/--preset/--board/--game, or choose another --out"
    )]
    ConfigMismatch {
        /// The run directory.
        dir: PathBuf,
        /// The first section that differs.
        what: &'static str,
    },
    /// The device is not compiled in.
    #[error(transparent)]
    Device(#[from] DeviceError),
    /// A checkpoint cannot be written or read.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The replay window cannot be written or read.
    #[error(transparent)]
    Replay(#[from] ReplayFileError),
    /// A checkpoint's RNG state is unreadable.
    #[error(transparent)]
    Rng(#[from] RngStateError),
    /// Metrics cannot be written or read.
    #[error(transparent)]
    Metrics(#[from] MetricsError),
    /// The plot cannot be drawn.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// An evaluation match failed.
    #[error("evaluation match: {0}")]
    Eval(#[from] ArenaError),
    /// The run directory cannot be created.
    #[error("cannot create run directory {path}: {source}")]
    Io {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// How a run reports progress.
#[derive(Clone, Copy, Debug)]
pub struct TrainOptions {
    /// Show progress bars and a log line per iteration (on standard error).
    pub progress: bool,
}

/// Where a run stands when [`train`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    /// Whether it went on from a checkpoint.
    pub resumed: bool,
    /// Iterations completed (all sessions together).
    pub iterations: u64,
    /// Learner steps taken (all sessions together).
    pub step: u64,
    /// Games added to the replay buffer since the run began.
    pub replay_games_added: u64,
    /// Positions in the replay window.
    pub replay_positions: usize,
    /// The last checkpoint written.
    pub checkpoint: PathBuf,
    /// The last metrics row.
    pub last_metrics: Option<MetricsRow>,
}

/// The configuration a run in `dir` goes on with: the directory's own `config.toml` if it has
/// one (then `requested`, if given, must agree with it apart from the run's length and
/// device, which are taken from `requested`), else `requested` or the default preset.
pub fn resolve_config(dir: &Path, requested: Option<RunConfig>) -> Result<RunConfig, TrainError> {
    let stored_path = dir.join(CONFIG_FILE);
    if !stored_path.exists() {
        return match requested {
            Some(config) => Ok(config),
            None => Ok(RunConfig::preset("default")?),
        };
    }
    let mut stored = RunConfig::load(&stored_path)?;
    if let Some(requested) = requested {
        let mismatch = |what| TrainError::ConfigMismatch {
            dir: dir.to_path_buf(),
            what,
        };
        if requested.game != stored.game {
            return Err(mismatch("game"));
        }
        if requested.network != stored.network {
            return Err(mismatch("network"));
        }
        if (&requested.mcts, &requested.selfplay, &requested.replay)
            != (&stored.mcts, &stored.selfplay, &stored.replay)
        {
            return Err(mismatch("search, self-play or replay"));
        }
        if requested.training != stored.training {
            return Err(mismatch("training"));
        }
        stored.run.iterations = requested.run.iterations;
        stored.run.device = requested.run.device;
    }
    Ok(stored)
}

/// Runs (or resumes) training in `dir` with `config` until `config.run.iterations` iterations
/// are complete.
pub fn train(
    config: &RunConfig,
    dir: &Path,
    options: TrainOptions,
) -> Result<RunSummary, TrainError> {
    config.validate()?;
    match config.game.id()? {
        GameId::Telo => run_game(config, Telo::new(), dir, options, None),
        GameId::Fanorona(board) => {
            let eval = |net: &PolicyValueNet, seed: u64| evaluate(net, config, board, seed);
            let start = Fanorona::new(Position::initial(board));
            run_game(config, start, dir, options, Some(&eval))
        }
    }
}

/// Scores against [`EVAL_OPPONENTS`] in quick arena matches.
type EvalFn<'a> = dyn Fn(&PolicyValueNet, u64) -> Result<[f64; 2], TrainError> + 'a;

fn evaluate(
    net: &PolicyValueNet,
    config: &RunConfig,
    board: &'static fanorona_env::Board,
    seed: u64,
) -> Result<[f64; 2], TrainError> {
    let arena = NetworkMatch {
        board,
        games: config.run.eval_games,
        search: SearchConfig {
            simulations: config.run.eval_simulations as u32,
            ..SearchConfig::default()
        },
        threads: rayon::current_num_threads().max(1),
        opening_turns: 2,
        max_turns: config.selfplay.max_actions,
        seed,
        progress: false,
    };
    let mut scores = [0.0; 2];
    for (score, opponent) in scores.iter_mut().zip(EVAL_OPPONENTS) {
        let spec = AgentSpec::parse(opponent).expect("the evaluation opponents parse");
        *score = arena.run(net, "network", &spec)?.tally.score();
    }
    Ok(scores)
}

/// The state of a run being trained.
struct RunState<G: Game> {
    learner: Learner,
    replay: ReplayBuffer<G>,
    rng: TrainRng,
    iteration: u64,
    resumed: bool,
}

/// A fresh run, or the run restored from the latest checkpoint in `dir`.
fn open_run<G: Game>(
    config: &RunConfig,
    start: &G,
    network: &NetworkConfig,
    dir: &Path,
) -> Result<RunState<G>, TrainError> {
    let device = config.run.device.device()?;
    let learner_config = config.training.learner.clone();
    let Some(path) = Checkpoint::list(dir)?.pop() else {
        let net = network
            .init(&device)
            .map_err(|e| RunConfigError::Invalid(e.to_string()))?;
        return Ok(RunState {
            learner: Learner::new(learner_config, net, &device),
            replay: ReplayBuffer::new(config.replay.clone(), start.clone()),
            rng: TrainRng::seed_from_u64(config.run.seed),
            iteration: 0,
            resumed: false,
        });
    };
    let checkpoint = Checkpoint::load_matching(&path, config.game.id()?, network, &device)?;
    let rng = checkpoint.meta.rng.restore()?;
    let iteration = checkpoint.meta.iteration;
    let replay_path = dir.join(REPLAY_FILE);
    let replay = if replay_path.exists() {
        ReplayBuffer::load(&replay_path, config.replay.clone(), start.clone())?
    } else {
        ReplayBuffer::new(config.replay.clone(), start.clone())
    };
    Ok(RunState {
        learner: checkpoint.into_learner(learner_config, &device),
        replay,
        rng,
        iteration,
        resumed: true,
    })
}

/// Writes the replay window, then the checkpoint, then drops old checkpoints.
fn save_checkpoint<G: Game>(
    config: &RunConfig,
    dir: &Path,
    state: &RunState<G>,
) -> Result<PathBuf, TrainError> {
    state.replay.save(&dir.join(REPLAY_FILE))?;
    let meta = CheckpointMeta {
        game: config.game.id()?.to_string(),
        network: state.learner.network().config().clone(),
        optimizer: config.training.learner.optimizer.clone(),
        step: state.learner.step(),
        iteration: state.iteration,
        replay_games_added: state.replay.games_added(),
        rng: RngState::of(&state.rng),
    };
    let path = Checkpoint::save(dir, &state.learner, meta)?;
    Checkpoint::prune(dir, config.run.keep_checkpoints)?;
    Ok(path)
}

/// The progress bars of a run: iterations, and games within the iteration.
struct Progress {
    bars: MultiProgress,
    iterations: ProgressBar,
    games: ProgressBar,
    /// Whether log lines are wanted (off with `--quiet`).
    verbose: bool,
}

impl Progress {
    fn new(options: TrainOptions, done: u64, total: u64, games: usize) -> Progress {
        let bars = MultiProgress::with_draw_target(if options.progress {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        });
        let style = |template: &str| {
            ProgressStyle::with_template(template)
                .expect("the progress templates are valid")
                .progress_chars("=> ")
        };
        let iterations = bars.add(ProgressBar::new(total).with_position(done));
        iterations.set_style(style(
            "{elapsed_precise} iteration [{bar:30}] {pos}/{len} eta {eta} {msg}",
        ));
        let games = bars.add(ProgressBar::new(games as u64));
        games.set_style(style(
            "         self-play [{bar:30}] {pos}/{len} games {msg}",
        ));
        Progress {
            bars,
            iterations,
            games,
            verbose: options.progress,
        }
    }

    /// Prints a log line above the bars, or plainly where stderr is no terminal (a log file).
    fn log(&self, line: String) {
        if !self.verbose {
            return;
        }
        if self.bars.is_hidden() {
            eprintln!("{line}");
        } else {
            let _ = self.bars.println(line);
        }
    }
}

fn run_game<G: Game>(
    config: &RunConfig,
    start: G,
    dir: &Path,
    options: TrainOptions,
    eval: Option<&EvalFn>,
) -> Result<RunSummary, TrainError> {
    std::fs::create_dir_all(dir).map_err(|source| TrainError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let network = NetworkConfig::for_game(&start, config.network.clone());
    let mut state = open_run(config, &start, &network, dir)?;
    config.write_resolved(dir)?;
    let mut metrics = MetricsWriter::open(dir)?;
    let selfplay = SelfPlay::new(start, config.mcts.clone(), config.selfplay.clone());
    let mut evaluator = NetworkEvaluator::<G>::new(&state.learner.inference_network());
    let progress = Progress::new(
        options,
        state.iteration,
        config.run.iterations,
        config.selfplay.games_per_iteration,
    );
    if state.resumed {
        progress.log(format!(
            "resumed {} at iteration {}, step {}, {} positions in replay",
            dir.display(),
            state.iteration,
            state.learner.step(),
            state.replay.positions()
        ));
    }
    let started = Instant::now();
    let mut batch = Batch::default();
    let mut last_saved = state.resumed.then(|| state.learner.step());
    let mut checkpoint = None;
    let mut last_metrics = None;
    while state.iteration < config.run.iterations {
        state.iteration += 1;
        evaluator.set_network(&state.learner.inference_network());
        progress.games.reset();
        let meta = TrajectoryMeta {
            iteration: state.iteration,
            network_step: state.learner.step(),
            ..TrajectoryMeta::default()
        };
        let played = selfplay.play(&mut evaluator, &mut state.rng, &meta, |_| {
            progress.games.inc(1)
        });
        for game in played.games {
            state.replay.add_game(game);
        }
        let stats = played.stats;
        let mut row = MetricsRow {
            iteration: state.iteration,
            games: stats.games,
            positions: stats.positions,
            games_per_s: stats.games_per_s(),
            positions_per_s: stats.positions_per_s(),
            mean_game_length: stats.mean_game_length(),
            ..MetricsRow::default()
        };
        if state.replay.positions() >= config.training.min_replay_positions {
            let steps = config.training.steps_per_iteration;
            for _ in 0..steps {
                state
                    .replay
                    .sample(config.training.batch_size, &mut state.rng, &mut batch);
                let loss = state.learner.train_step(&batch);
                row.lr = loss.lr;
                row.loss_total += loss.total as f64 / steps as f64;
                row.loss_policy += loss.policy as f64 / steps as f64;
                row.loss_value += loss.value as f64 / steps as f64;
                row.policy_entropy += loss.entropy as f64 / steps as f64;
            }
        }
        let every = config.run.eval_every_iterations;
        if let Some(eval) = eval
            && every > 0
            && state.iteration % every == 0
        {
            progress.games.set_message("evaluating");
            let [m1, m2] = eval(&state.learner.inference_network(), state.iteration)?;
            progress.games.set_message("");
            row.score_vs_minimax1 = Some(m1);
            row.score_vs_minimax2 = Some(m2);
        }
        row.step = state.learner.step();
        row.replay_positions = state.replay.positions() as u64;
        row.elapsed_s = started.elapsed().as_secs_f64();
        metrics.append(&row)?;
        progress.log(log_line(&row));
        progress.iterations.inc(1);
        let due = match last_saved {
            Some(step) => state.learner.step() >= step + config.run.checkpoint_every_steps,
            None => state.learner.step() >= config.run.checkpoint_every_steps,
        };
        if due || state.iteration == config.run.iterations {
            checkpoint = Some(save_checkpoint(config, dir, &state)?);
            last_saved = Some(state.learner.step());
        }
        last_metrics = Some(row);
    }
    progress.games.finish_and_clear();
    progress.iterations.finish();
    let checkpoint = match checkpoint {
        Some(path) => path,
        // Nothing left to do: the run was already complete.
        None => match Checkpoint::list(dir)?.pop() {
            Some(path) => path,
            None => save_checkpoint(config, dir, &state)?,
        },
    };
    let rows = read_metrics(&dir.join(METRICS_FILE))?;
    if !rows.is_empty() {
        plot_metrics(&rows, &dir.join(CURVES_FILE))?;
    }
    Ok(RunSummary {
        resumed: state.resumed,
        iterations: state.iteration,
        step: state.learner.step(),
        replay_games_added: state.replay.games_added(),
        replay_positions: state.replay.positions(),
        checkpoint,
        last_metrics,
    })
}

/// The log line of one iteration.
fn log_line(row: &MetricsRow) -> String {
    let mut line = format!(
        "iter {:>4} step {:>6} | {} games, length {:.1}, {:.0} pos/s | loss {:.3} (policy {:.3} \
         value {:.3}) entropy {:.2} | replay {}",
        row.iteration,
        row.step,
        row.games,
        row.mean_game_length,
        row.positions_per_s,
        row.loss_total,
        row.loss_policy,
        row.loss_value,
        row.policy_entropy,
        row.replay_positions
    );
    if let (Some(m1), Some(m2)) = (row.score_vs_minimax1, row.score_vs_minimax2) {
        line.push_str(&format!(" | vs minimax1 {m1:.2} minimax2 {m2:.2}"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::tensor::Device;
    use fanorona_env::{Agent, Board, Color};
    use fanorona_eval::solver::{Solution, Value};

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fanorona-run-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    const QUIET: TrainOptions = TrainOptions { progress: false };

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
        config.game.board = "3x3".into();
        config.run.iterations = 30;
        config.mcts.search.simulations = 48;
        config.selfplay.games_per_iteration = 16;
        config.selfplay.parallel_games = 16;
        config.training.steps_per_iteration = 16;
        config.replay.window_games = 200;
        let dir = temp_dir("3x3");
        let summary = train(&config, &dir, QUIET).unwrap();
        assert_eq!(summary.iterations, config.run.iterations);
        assert!(dir.join(CURVES_FILE).exists() && dir.join(CONFIG_FILE).exists());
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
        let mut agent = crate::run::network_agent(net, &search, 1, "trained".into());
        let action = agent.act(&start).unwrap();
        assert!(
            winning.contains(&action),
            "search plays {action}, winning {winning:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_resumed_run_continues_the_step_counter_and_the_replay_window() {
        let mut config = RunConfig::preset("tiny").unwrap();
        config.run.iterations = 1;
        let dir = temp_dir("resume");
        let first = train(&config, &dir, QUIET).unwrap();
        assert!(!first.resumed);
        let steps = config.training.steps_per_iteration as u64;
        assert_eq!((first.iterations, first.step), (1, steps));
        let games = config.selfplay.games_per_iteration as u64;
        assert_eq!(first.replay_games_added, games);

        let mut again = resolve_config(&dir, None).unwrap();
        assert_eq!(again, config);
        again.run.iterations = 2;
        let second = train(&again, &dir, QUIET).unwrap();
        assert!(second.resumed);
        assert_eq!((second.iterations, second.step), (2, 2 * steps));
        assert_eq!(second.replay_games_added, 2 * games);
        assert!(second.replay_positions > first.replay_positions);
        let rows = read_metrics(&dir.join(METRICS_FILE)).unwrap();
        let iterations: Vec<u64> = rows.iter().map(|r| r.iteration).collect();
        assert_eq!(iterations, [1, 2]);
        assert_eq!(rows[1].step, 2 * steps);

        // A different configuration is refused on the same directory.
        let mut other = config.clone();
        other.game.board = "3x3".into();
        let err = resolve_config(&dir, Some(other)).unwrap_err();
        assert!(
            matches!(err, TrainError::ConfigMismatch { what: "game", .. }),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn telo_trains_too() {
        let mut config = RunConfig::preset("tiny").unwrap();
        config.game.name = "telo".into();
        config.game.board = "3x3".into();
        config.run.iterations = 1;
        let dir = temp_dir("telo");
        let summary = train(&config, &dir, QUIET).unwrap();
        assert_eq!(summary.step, config.training.steps_per_iteration as u64);
        let checkpoint = Checkpoint::load(&summary.checkpoint, &Device::flex()).unwrap();
        assert_eq!(checkpoint.meta.game, "telo 3x3");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
