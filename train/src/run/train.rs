//! The training run: a run directory, then iterations of self-play -> replay -> learner steps
//! -> metrics, with periodic evaluation matches and checkpoints, each step reported to the
//! caller as a [`RunEvent`].
//!
//! The run directory's files ([`RunDir`]): its resolved configuration, checkpoints (the latest
//! `keep_checkpoints`, each with the replay window and, of an `abnet` run, the best network of
//! its step), `metrics.csv` (one row per iteration), an
//! `abnet` run's `best.safetensors` and, of an MCTS run with a `[distill]` section once it has
//! all its iterations, `student.safetensors`: the run's agent.
//!
//! An `abnet` run (a configuration with an `[abnet]` section) plays its self-play with the
//! `abnet` agent over the best network ([`AlphaBetaSelfPlay`]), and after each iteration's
//! learner steps plays the learner's network against the best in a gate match
//! ([`gate_score`]); the learner's network becomes the best if it wins.
//!
//! Checkpoints are written at the end of the first iteration at or after every
//! `checkpoint_every_steps` learner steps, and at the end of the run, so that a checkpoint
//! always holds a whole number of iterations and resuming repeats nothing. Self-play and
//! learning run side by side once the replay window is ready (`rayon::join`): the learner
//! steps of an iteration train on the window before its games are added, and the games are
//! played with the network of the iteration before, so the learner's one busy core and the
//! self-play's tree walks and batched network calls (rayon) share the cores; the run is as
//! deterministic as before (see [`Run::iteration`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::{Rng, SeedableRng};

use fanorona_env::{Board, Game, GameVisitor, Position};

use super::event::{Phase, RunEvent};
use super::gate::gate_score;
use super::student::teach_student;
use crate::config::{DistillSettings, FanoronaPart, RunConfig};
use crate::error::TrainError;
use crate::model::PolicyValueNet;
use crate::replay::TrajectoryMeta;
use crate::rng::TrainRng;
use crate::roles::state::Best;
use crate::roles::{GameLearner, GameWorker, Gauntlet, check_start_network, run_labels};
use crate::run_dir::{MetricsRow, MetricsWriter, RunDir, RunLock};
use crate::selfplay::{AlphaBetaSelfPlay, SelfPlayOutput};

/// Where a run reports what it does, and how it is stopped early.
pub struct TrainOptions<'a> {
    /// Called with each [`RunEvent`] of the run, one at a time (from the run's threads).
    pub events: Box<dyn FnMut(RunEvent) + Send + 'a>,
    /// Set (e.g. by a Ctrl-C handler) to stop the run early: the iteration under way is
    /// finished, a checkpoint written, and [`train`] returns with
    /// [`RunSummary::interrupted`].
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for TrainOptions<'_> {
    /// No observer, no stop flag.
    fn default() -> Self {
        TrainOptions {
            events: Box::new(|_| {}),
            stop: None,
        }
    }
}

/// Where a run stands when [`train`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    /// Whether it went on from a checkpoint.
    pub resumed: bool,
    /// Whether it was stopped (through [`TrainOptions::stop`]) before all its iterations, or
    /// before its student was taught.
    pub interrupted: bool,
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
    /// The run's agent file, which `abnet:path=FILE` plays: an `abnet` run's best network,
    /// the student of a finished run with a `[distill]` section, or else the last checkpoint
    /// of a Fanorona MLP run. `None` for the others (`net:path=CHECKPOINT` plays them).
    pub agent: Option<PathBuf>,
}

/// Runs (or resumes) training in `dir` with `config` until `config.run.iterations` iterations
/// are complete. A device this build cannot use is refused before `dir` is made.
pub fn train(
    config: &RunConfig,
    dir: &Path,
    options: TrainOptions<'_>,
) -> Result<RunSummary, TrainError> {
    config.validate()?;
    config.run.device.device()?;
    run_labels(config)?;
    config.game.visit(RunGame {
        config,
        dir: RunDir::new(dir),
        options,
    })
}

/// Runs the training of the game the registry visits.
struct RunGame<'a> {
    config: &'a RunConfig,
    dir: RunDir,
    options: TrainOptions<'a>,
}

impl GameVisitor for RunGame<'_> {
    type Output = Result<RunSummary, TrainError>;

    fn visit<G: Game>(self, start: G) -> Self::Output {
        run_game(self.config, start, self.dir, self.options)
    }
}

/// A run in progress: the three roles composed in one process (the worker plays with the
/// learner's latest network and the run's random generator, the learner trains on its games,
/// the evaluator plays the network when due) and the run's bookkeeping.
struct Run<'a, G: Game> {
    config: &'a RunConfig,
    dir: RunDir,
    learner: GameLearner<G>,
    players: Players<G>,
    evaluator: Option<Gauntlet>,
    metrics: MetricsWriter,
    /// Where the run's events go.
    events: Box<dyn FnMut(RunEvent) + Send + 'a>,
    started: Instant,
    /// The learner step of the last checkpoint written or resumed from.
    last_saved: Option<u64>,
    /// The last checkpoint written by this session.
    checkpoint: Option<PathBuf>,
    /// Set to stop the run early.
    stop: Option<Arc<AtomicBool>>,
    /// Whether the last iteration saw `stop` set: it ended with a checkpoint, and the run
    /// stops there.
    stopping: bool,
    /// The run directory's lock, held until the run ends.
    _lock: RunLock,
}

/// Who plays the self-play games of a run.
enum Players<G: Game> {
    /// Tree search with the learner's latest network.
    Mcts(Box<GameWorker<G>>),
    /// The `abnet` agent with the best network, and its gate.
    AlphaBeta {
        selfplay: AlphaBetaSelfPlay,
        board: &'static Board,
    },
}

impl<G: Game> Players<G> {
    /// Plays an iteration's games with `net` (trained for `step` learner steps), drawing
    /// from `rng`; reports each finished game to `events`.
    fn play(
        &mut self,
        net: &PolicyValueNet,
        step: u64,
        iteration: u64,
        rng: &mut TrainRng,
        events: &mut (dyn FnMut(RunEvent) + Send),
    ) -> SelfPlayOutput {
        match self {
            Players::Mcts(worker) => {
                worker.set_model(net, iteration, step);
                worker.play(rng, iteration, |_| events(RunEvent::GamePlayed))
            }
            Players::AlphaBeta { selfplay, .. } => {
                let meta = TrajectoryMeta {
                    iteration,
                    network_step: step,
                    ..TrajectoryMeta::default()
                };
                // The games end on several threads: one report at a time.
                let events = Mutex::new(events);
                selfplay.play(net, rng, &meta, |_| {
                    let mut events = events.lock().unwrap_or_else(|e| e.into_inner());
                    events(RunEvent::GamePlayed)
                })
            }
        }
    }
}

/// The self-play part of an iteration's metrics row.
fn selfplay_row(iteration: u64, played: &SelfPlayOutput) -> MetricsRow {
    let stats = &played.stats;
    MetricsRow {
        iteration,
        games: stats.games,
        positions: stats.positions,
        games_per_s: stats.games_per_s(),
        positions_per_s: stats.positions_per_s(),
        mean_game_length: stats.mean_game_length(),
        exact_positions: stats.exact_positions,
        exact_policy_positions: stats.exact_policy_positions,
        ..MetricsRow::default()
    }
}

fn run_game<'a, G: Game>(
    config: &'a RunConfig,
    start: G,
    dir: RunDir,
    options: TrainOptions<'a>,
) -> Result<RunSummary, TrainError> {
    let mut run = Run::open(config, start, dir, options)?;
    let mut last_metrics = None;
    while run.learner.model_version() < config.run.iterations && !run.stopping {
        last_metrics = Some(run.iteration()?);
    }
    let trained = last_metrics.is_some();
    let student = match &config.distill {
        Some(settings) if run.learner.model_version() >= config.run.iterations => {
            Some(run.student(settings, trained)?)
        }
        _ => None,
    };
    let mut summary = run.finish(last_metrics)?;
    if let Some(student) = student {
        // Stopped before the student was taught: the run is not done.
        summary.interrupted |= student.is_none();
        summary.agent = student;
    }
    Ok(summary)
}

impl<'a, G: Game> Run<'a, G> {
    /// Creates or resumes the run in `dir`: its state, resolved configuration and metrics.
    fn open(
        config: &'a RunConfig,
        start: G,
        dir: RunDir,
        options: TrainOptions<'a>,
    ) -> Result<Run<'a, G>, TrainError> {
        if dir.latest_checkpoint()?.is_none() {
            check_start_network(config, &config.network.config_for(&start))?;
        }
        let lock = dir.lock()?;
        let learner = GameLearner::open(config, &start, &dir)?;
        dir.write_config(config)?;
        let iteration = learner.model_version();
        let metrics = MetricsWriter::open(&dir.metrics(), iteration)?;
        let players = match &config.abnet {
            Some(abnet) => {
                let board = config.fanorona_board(FanoronaPart::Abnet)?;
                Players::AlphaBeta {
                    selfplay: AlphaBetaSelfPlay::new(
                        Position::initial(board),
                        abnet.clone(),
                        config.selfplay.games_per_iteration,
                        config.selfplay.max_actions,
                    )
                    .with_labels(run_labels(config)?),
                    board,
                }
            }
            None => Players::Mcts(Box::new(GameWorker::new(
                config,
                start,
                &learner.network(),
                iteration,
                0,
            )?)),
        };
        if let Some(best) = &learner.state.best {
            best.export(config, &dir.best())?;
        }
        let mut events = options.events;
        events(RunEvent::Started {
            done: iteration,
            total: config.run.iterations,
            games: config.selfplay.games_per_iteration,
        });
        if learner.resumed() {
            events(RunEvent::Resumed {
                iteration,
                step: learner.step(),
                replay_positions: learner.replay_positions(),
            });
        }
        Ok(Run {
            config,
            dir,
            evaluator: Gauntlet::for_run(config),
            players,
            metrics,
            events,
            started: Instant::now(),
            last_saved: learner.resumed().then(|| learner.step()),
            checkpoint: None,
            stop: options.stop,
            stopping: false,
            _lock: lock,
            learner,
        })
    }

    /// One iteration: self-play and learner steps, evaluation when due, its metrics row, and
    /// a checkpoint when due or when the run is being stopped.
    ///
    /// Once the replay window is ready, the learner steps run while the games are played (on
    /// the window without them: they join it at the end of the iteration), so that the
    /// learner's one busy core and self-play share the machine; before that (the first
    /// iterations) the games come first and the learner trains on them as soon as the
    /// window is ready. Self-play draws from a generator seeded by the run's, so both orders
    /// are deterministic.
    fn iteration(&mut self) -> Result<MetricsRow, TrainError> {
        let iteration = self.learner.advance();
        let mut rng = TrainRng::seed_from_u64(self.learner.state.rng.random());
        let (net, step) = self.selfplay_network();
        let steps = self.config.training.steps_per_iteration;
        (self.events)(RunEvent::IterationStarted { iteration });
        let events = &mut *self.events;
        let players = &mut self.players;
        let mut play = || players.play(&net, step, iteration, &mut rng, events);
        let (played, losses) = if self.learner.ready() {
            let learner = &mut self.learner;
            let (played, losses) = rayon::join(play, || learner.train(steps));
            (played, Some(losses))
        } else {
            (play(), None)
        };
        let mut row = selfplay_row(iteration, &played);
        self.learner.add_games(played.games);
        let losses = match losses {
            Some(losses) => Some(losses?),
            None if self.learner.ready() => Some(self.learner.train(steps)?),
            None => None,
        };
        if let Some(losses) = losses {
            row.lr = losses.lr;
            row.loss_total = losses.total;
            row.loss_policy = losses.policy;
            row.loss_value = losses.value;
            row.policy_entropy = losses.entropy;
            self.gate(&mut row)?;
        }
        self.evaluate(&mut row)?;
        row.step = self.learner.step();
        row.replay_positions = self.learner.replay_positions() as u64;
        row.elapsed_s = self.started.elapsed().as_secs_f64();
        self.metrics.append(&row)?;
        (self.events)(RunEvent::IterationDone(Box::new(row.clone())));
        self.stopping = self.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst));
        if self.checkpoint_due() {
            self.checkpoint = Some(self.learner.save(self.config, &self.dir)?);
            self.last_saved = Some(self.learner.step());
        }
        Ok(row)
    }

    /// The network self-play plays with and its learner step: the learner's current one, or
    /// an `abnet` run's best.
    fn selfplay_network(&self) -> (PolicyValueNet, u64) {
        match &self.players {
            Players::Mcts(_) => (self.learner.network(), self.learner.step()),
            Players::AlphaBeta { .. } => {
                let best = self
                    .learner
                    .state
                    .best
                    .as_ref()
                    .expect("an abnet run has a best network");
                (best.net.clone(), best.step)
            }
        }
    }

    /// Of an `abnet` run, the gate match of the learner's network against the best; the
    /// learner's network becomes the best (and `best.safetensors`) if it wins. Score and best
    /// into `row`.
    fn gate(&mut self, row: &mut MetricsRow) -> Result<(), TrainError> {
        let Players::AlphaBeta { selfplay, board } = &self.players else {
            return Ok(());
        };
        let config = selfplay.config();
        let candidate = self.learner.network();
        let state = &mut self.learner.state;
        let best = state
            .best
            .as_mut()
            .expect("an abnet run has a best network");
        (self.events)(RunEvent::PhaseStarted(Phase::Gate));
        let score = gate_score(
            &candidate,
            &best.net,
            self.config,
            config,
            board,
            row.iteration,
        )?;
        (self.events)(RunEvent::PhaseEnded);
        if score > config.gate_threshold {
            *best = Best {
                net: candidate,
                iteration: row.iteration,
                step: state.trainer.step(),
            };
            best.export(self.config, &self.dir.best())?;
        }
        row.gate_score = Some(score);
        row.best_iteration = Some(best.iteration);
        Ok(())
    }

    /// The evaluation matches, every `eval_every_iterations` iterations; scores into `row`.
    fn evaluate(&mut self, row: &mut MetricsRow) -> Result<(), TrainError> {
        let every = self.config.run.eval_every_iterations;
        let Some(evaluator) = &self.evaluator else {
            return Ok(());
        };
        if every == 0 || !row.iteration.is_multiple_of(every) {
            return Ok(());
        }
        (self.events)(RunEvent::PhaseStarted(Phase::Evaluation));
        let network = self.learner.network();
        evaluator.evaluate(&network, row.iteration)?.fill(row);
        (self.events)(RunEvent::PhaseEnded);
        Ok(())
    }

    /// Whether this iteration ends with a checkpoint: `checkpoint_every_steps` steps since
    /// the last one, the run's last iteration, or the last before stopping.
    fn checkpoint_due(&self) -> bool {
        let step = self.learner.step();
        let every = self.config.run.checkpoint_every_steps;
        let due = match self.last_saved {
            Some(saved) => step >= saved + every,
            None => step >= every,
        };
        due || self.stopping || self.learner.model_version() == self.config.run.iterations
    }

    /// The student of a finished run with a `[distill]` section, taught from the learner's
    /// network (its average, if it keeps one) when this session `trained` or there is none
    /// yet; `None` if the run was stopped before it was taught.
    fn student(
        &mut self,
        settings: &DistillSettings,
        trained: bool,
    ) -> Result<Option<PathBuf>, TrainError> {
        let path = self.dir.student();
        if !trained && path.exists() {
            return Ok(Some(path));
        }
        let trainer = &self.learner.state.trainer;
        let teacher = match trainer.averaged_network() {
            Some(average) => average.clone(),
            None => trainer.inference_network(),
        };
        let stop = self.stop.as_deref();
        let (config, step) = (self.config, trainer.step());
        teach_student(
            config,
            settings,
            &teacher,
            step,
            &self.dir,
            &mut *self.events,
            stop,
        )
    }

    /// Reports the end and sums the run up.
    fn finish(mut self, last_metrics: Option<MetricsRow>) -> Result<RunSummary, TrainError> {
        (self.events)(RunEvent::Finished);
        let checkpoint = match self.checkpoint {
            Some(path) => path,
            // Nothing left to do: the run was already complete.
            None => match self.dir.latest_checkpoint()? {
                Some(path) => path,
                None => self.learner.save(self.config, &self.dir)?,
            },
        };
        let state = &self.learner.state;
        Ok(RunSummary {
            resumed: state.resumed,
            interrupted: state.iteration < self.config.run.iterations,
            iterations: state.iteration,
            step: state.trainer.step(),
            replay_games_added: state.replay.games_added(),
            replay_positions: state.replay.positions(),
            // A run with a student names it instead (see `run_game`).
            agent: if self.config.abnet.is_some() {
                Some(self.dir.best())
            } else {
                self.config.searched_by_abnet().then(|| checkpoint.clone())
            },
            checkpoint,
            last_metrics,
        })
    }
}
