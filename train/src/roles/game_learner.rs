//! The learner of one game type: the network with its trainer, the replay window and the run's random
//! generator. It ingests finished games (a whole shard at a time, by recency: each shard's
//! games become the newest of the window), takes learner steps on minibatches of the window,
//! publishes numbered model versions and saves checkpoints. `fanorona train` feeds it one
//! iteration of games at a time; the [`Learner`](super::Learner) of any game (for `fanorona
//! learn`, Python and Ray) holds one behind [`AnyGameLearner`] and feeds it shards,
//! earning learner steps at a replay ratio (positions sampled per new position) and recording
//! every shard consumed in its checkpoints.

use std::path::PathBuf;

use fanorona_env::{Game, GameVisitor};

use super::state::RunState;
use crate::config::{RunConfig, TrainingConfig};
use crate::error::TrainError;
use crate::io::{LearnerProgress, PolicyFileError, PolicyMeta, Shard, policy_bytes};
use crate::model::PolicyValueNet;
use crate::replay::{Batch, Trajectory};
use crate::run_dir::RunDir;

/// The mean losses of a run of learner steps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LossMeans {
    /// Steps taken.
    pub steps: usize,
    /// The learning rate of the last step.
    pub lr: f64,
    /// Mean total loss.
    pub total: f64,
    /// Mean policy cross-entropy.
    pub policy: f64,
    /// Mean value MSE.
    pub value: f64,
    /// Mean entropy of the network's policy.
    pub entropy: f64,
}

/// What one shard brought to the learner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ingested {
    /// Games added to the window.
    pub games: usize,
    /// Positions added.
    pub positions: usize,
    /// Model versions between the one that played the shard and the learner's latest.
    pub staleness: u64,
    /// The worker's self-play time for the shard, in seconds.
    pub seconds: f64,
}

/// The learner of a run of `G`.
pub(crate) struct GameLearner<G: Game> {
    pub(crate) state: RunState<G>,
    training: TrainingConfig,
    batch: Batch,
}

impl<G: Game> GameLearner<G> {
    /// A new learner for games like `start` with `config`, or the one of the latest checkpoint
    /// in `dir` (with its replay window, random generator and, for a learner fed by shards,
    /// the shards it consumed).
    pub fn open(config: &RunConfig, start: &G, dir: &RunDir) -> Result<GameLearner<G>, TrainError> {
        let network = config.network.config_for(start);
        let state = RunState::open(config, start, &network, dir)?;
        Ok(GameLearner {
            state,
            training: config.training.clone(),
            batch: Batch::default(),
        })
    }

    /// Learner steps taken.
    pub fn step(&self) -> u64 {
        self.state.trainer.step()
    }

    /// The latest model version (the iteration, for `fanorona train`).
    pub fn model_version(&self) -> u64 {
        self.state.iteration
    }

    /// Whether it went on from a checkpoint.
    pub fn resumed(&self) -> bool {
        self.state.resumed
    }

    /// Positions in the replay window.
    pub fn replay_positions(&self) -> usize {
        self.state.replay.positions()
    }

    /// The network as it is now (an inference copy).
    pub fn network(&self) -> PolicyValueNet {
        self.state.trainer.inference_network()
    }

    /// Adds finished games to the replay window (the newest last).
    pub fn add_games(&mut self, games: Vec<Trajectory>) {
        for game in games {
            self.state.replay.add_game(game);
        }
    }

    /// Whether the window holds enough positions to train on (`min_replay_positions`).
    pub fn ready(&self) -> bool {
        self.state.replay.positions() >= self.training.min_replay_positions
    }

    /// Where a learner fed by shards stands: the shards consumed and its step credit.
    fn progress(&mut self) -> &mut LearnerProgress {
        self.state.progress.get_or_insert_with(Default::default)
    }

    /// Whether the shard named `name` was consumed already.
    pub fn consumed(&self, name: &str) -> bool {
        self.state
            .progress
            .as_ref()
            .is_some_and(|p| p.consumed.contains(name))
    }

    /// Records the shard `name` as consumed without its games (a damaged one, skipped).
    pub fn skip(&mut self, name: &str) {
        self.progress().consumed.insert(name.to_string());
    }

    /// Adds the games of `shard` (named `name`) to the window and earns `replay_ratio`
    /// sampled positions for each new one, once the window is ready; `None` (nothing added)
    /// if it was consumed before. Steps owed are capped at two model versions' worth
    /// (`2 * steps_per_iteration`): a learner slower than its workers trains on, at a lower
    /// ratio, without falling ever further behind the data.
    pub fn ingest(&mut self, name: &str, shard: Shard, replay_ratio: f64) -> Option<Ingested> {
        if self.consumed(name) {
            return None;
        }
        let ingested = Ingested {
            games: shard.games.len(),
            positions: shard.positions(),
            staleness: self
                .model_version()
                .saturating_sub(shard.header.model_version),
            seconds: shard.header.seconds,
        };
        self.add_games(shard.games);
        let batch_size = self.training.batch_size as f64;
        let cap = 2.0 * self.training.steps_per_iteration as f64;
        let ready = self.ready();
        let progress = self.progress();
        progress.consumed.insert(name.to_string());
        progress.positions_ingested += ingested.positions as u64;
        if ready {
            let earned = ingested.positions as f64 * replay_ratio / batch_size;
            progress.step_credit = (progress.step_credit + earned).min(cap);
        }
        Some(ingested)
    }

    /// Learner steps earned by ingested positions and not yet taken, whole.
    pub fn steps_earned(&self) -> usize {
        let credit = self.state.progress.as_ref().map_or(0.0, |p| p.step_credit);
        credit.max(0.0).floor() as usize
    }

    /// Takes `steps` learner steps (spending earned credit, if any) and returns their mean
    /// losses; stops at the first loss that is not a finite number.
    pub fn train(&mut self, steps: usize) -> Result<LossMeans, TrainError> {
        let mut means = LossMeans {
            steps,
            ..LossMeans::default()
        };
        let state = &mut self.state;
        for _ in 0..steps {
            state
                .replay
                .sample(self.training.batch_size, &mut state.rng, &mut self.batch);
            let loss = state.trainer.train_step(&self.batch);
            if let Some((which, value)) = loss.non_finite() {
                return Err(TrainError::NonFiniteLoss {
                    iteration: state.iteration,
                    step: loss.step,
                    loss: which,
                    value,
                });
            }
            means.lr = loss.lr;
            means.total += loss.total as f64 / steps as f64;
            means.policy += loss.policy as f64 / steps as f64;
            means.value += loss.value as f64 / steps as f64;
            means.entropy += loss.entropy as f64 / steps as f64;
        }
        if let Some(progress) = &mut state.progress {
            progress.step_credit = (progress.step_credit - steps as f64).max(0.0);
        }
        Ok(means)
    }

    /// Counts the next model version (an iteration, for `fanorona train`): the network as it
    /// is now; returns the version.
    pub fn advance(&mut self) -> u64 {
        self.state.iteration += 1;
        self.state.iteration
    }

    /// The policy-file bytes of the network as it is now (what self-play workers load).
    pub fn model_bytes(&self, config: &RunConfig) -> Result<Vec<u8>, TrainError> {
        let net = self.network();
        let meta = PolicyMeta::trained(config.game, net.config().clone(), self.step());
        let label = PathBuf::from(format!("model version {}", self.model_version()));
        policy_bytes(&net, &meta, &label).map_err(|e: PolicyFileError| e.into())
    }

    /// Writes the replay window and a checkpoint into `dir` (keeping the latest
    /// `keep_checkpoints`); returns the checkpoint's path.
    pub fn save(&self, config: &RunConfig, dir: &RunDir) -> Result<PathBuf, TrainError> {
        self.state.save(config, dir)
    }
}

/// A [`GameLearner`] whatever its game: what the learner of a run needs of it (each method is
/// the one of the same name there).
pub(crate) trait AnyGameLearner: Send {
    fn step(&self) -> u64;
    fn model_version(&self) -> u64;
    fn resumed(&self) -> bool;
    fn replay_positions(&self) -> usize;
    fn consumed(&self, name: &str) -> bool;
    fn skip(&mut self, name: &str);
    fn ingest(&mut self, name: &str, shard: Shard, replay_ratio: f64) -> Option<Ingested>;
    fn steps_earned(&self) -> usize;
    fn train(&mut self, steps: usize) -> Result<LossMeans, TrainError>;
    fn advance(&mut self) -> u64;
    fn model_bytes(&self, config: &RunConfig) -> Result<Vec<u8>, TrainError>;
    fn save(&self, config: &RunConfig, dir: &RunDir) -> Result<PathBuf, TrainError>;
    /// The observation shape and action count of the game.
    fn game_sizes(&self) -> ([usize; 3], usize);
}

impl<G: Game> AnyGameLearner for GameLearner<G> {
    fn step(&self) -> u64 {
        GameLearner::step(self)
    }
    fn model_version(&self) -> u64 {
        GameLearner::model_version(self)
    }
    fn resumed(&self) -> bool {
        GameLearner::resumed(self)
    }
    fn replay_positions(&self) -> usize {
        GameLearner::replay_positions(self)
    }
    fn consumed(&self, name: &str) -> bool {
        GameLearner::consumed(self, name)
    }
    fn skip(&mut self, name: &str) {
        GameLearner::skip(self, name)
    }
    fn ingest(&mut self, name: &str, shard: Shard, replay_ratio: f64) -> Option<Ingested> {
        GameLearner::ingest(self, name, shard, replay_ratio)
    }
    fn steps_earned(&self) -> usize {
        GameLearner::steps_earned(self)
    }
    fn train(&mut self, steps: usize) -> Result<LossMeans, TrainError> {
        GameLearner::train(self, steps)
    }
    fn advance(&mut self) -> u64 {
        GameLearner::advance(self)
    }
    fn model_bytes(&self, config: &RunConfig) -> Result<Vec<u8>, TrainError> {
        GameLearner::model_bytes(self, config)
    }
    fn save(&self, config: &RunConfig, dir: &RunDir) -> Result<PathBuf, TrainError> {
        GameLearner::save(self, config, dir)
    }
    fn game_sizes(&self) -> ([usize; 3], usize) {
        let game = &self.state.replay.prototype;
        (game.observation_shape(), game.num_actions())
    }
}

/// Opens the learner of the game the registry visits
/// ([`GameId::visit`](fanorona_env::GameId::visit)) in `dir`.
pub(crate) struct OpenLearner<'a> {
    pub config: &'a RunConfig,
    pub dir: &'a RunDir,
}

impl GameVisitor for OpenLearner<'_> {
    type Output = Result<Box<dyn AnyGameLearner>, TrainError>;

    fn visit<G: Game>(self, start: G) -> Self::Output {
        Ok(Box::new(GameLearner::open(self.config, &start, self.dir)?))
    }
}
