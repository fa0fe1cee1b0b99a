//! The state of a run being trained (learner, replay window, random generator, iteration and,
//! for an `abnet` run, the best network) and how it is restored from and saved to the run
//! directory: the latest checkpoint with the replay window (and the best network) of the same
//! step beside it (one unit: resuming refuses a checkpoint without them).

use std::path::{Path, PathBuf};

use burn::module::Module;
use fanorona_env::Game;
use rand::SeedableRng;

use super::start::start_network;
use crate::config::{NetworkConfig, RunConfig};
use crate::error::TrainError;
use crate::io::{Checkpoint, CheckpointMeta, LearnerProgress, PolicyMeta};
use crate::io::{export_policy, load_policy_on};
use crate::model::{PolicyValueNet, Trainer};
use crate::replay::ReplayBuffer;
use crate::rng::{RngState, TrainRng};
use crate::run_dir::{MetricsError, RunDir};

/// The state of a run being trained.
pub(crate) struct RunState<G: Game> {
    /// The trainer with the network and optimiser.
    pub trainer: Trainer,
    /// The replay window.
    pub replay: ReplayBuffer<G>,
    /// The run's random generator (self-play and minibatches).
    pub rng: TrainRng,
    /// Iterations completed.
    pub iteration: u64,
    /// Whether the run went on from a checkpoint.
    pub resumed: bool,
    /// Where a learner fed by shards stands (`None` for `fanorona train`).
    pub progress: Option<LearnerProgress>,
    /// Of an `abnet` run, the network that plays self-play and that a new generation must
    /// beat (`None` for an MCTS run, whose self-play uses the learner's latest network).
    pub best: Option<Best>,
}

/// The best network of an `abnet` run so far.
#[derive(Clone, Debug)]
pub(crate) struct Best {
    /// The network (an inference copy).
    pub net: PolicyValueNet,
    /// The iteration that made it (0: the network the run started from).
    pub iteration: u64,
    /// Learner steps it was trained for.
    pub step: u64,
}

impl<G: Game> RunState<G> {
    /// A fresh run, or the run restored from the latest checkpoint in `dir`.
    pub fn open(
        config: &RunConfig,
        start: &G,
        network: &NetworkConfig,
        dir: &RunDir,
    ) -> Result<RunState<G>, TrainError> {
        let device = config.run.device.device()?;
        let trainer_config = config.training.trainer.clone();
        let Some(path) = dir.latest_checkpoint()? else {
            for file in [dir.metrics(), dir.learner_metrics()] {
                if has_rows(&file)? {
                    return Err(TrainError::MetricsWithoutCheckpoint {
                        dir: dir.path().to_path_buf(),
                        file,
                    });
                }
            }
            let net = start_network(config, network, &device)?;
            let best = config.abnet.is_some().then(|| Best {
                net: net.valid(),
                iteration: 0,
                step: 0,
            });
            return Ok(RunState {
                trainer: Trainer::new(trainer_config, net, &device),
                replay: ReplayBuffer::new(config.replay.clone(), start.clone()),
                rng: TrainRng::seed_from_u64(config.run.seed),
                iteration: 0,
                resumed: false,
                progress: None,
                best,
            });
        };
        let checkpoint = Checkpoint::load_matching(&path, config.game, network, &device)?;
        let rng = checkpoint.meta.rng.restore()?;
        let iteration = checkpoint.meta.iteration;
        let replay_path = dir.replay(checkpoint.meta.step);
        let replay = ReplayBuffer::load(&replay_path, config.replay.clone(), start.clone())
            .map_err(|error| TrainError::CheckpointReplay {
                checkpoint: path.clone(),
                error,
            })?;
        if replay.games_added() != checkpoint.meta.replay_games_added {
            return Err(TrainError::CheckpointReplayMismatch {
                checkpoint: path,
                replay: replay_path,
                expected: checkpoint.meta.replay_games_added,
                found: replay.games_added(),
            });
        }
        let progress = checkpoint.meta.learner.clone();
        let best = match config.abnet {
            None => None,
            Some(_) => {
                let path = dir.best_at(checkpoint.meta.step);
                let loaded = load_policy_on(&path, &device)?;
                Some(Best {
                    net: loaded.net,
                    iteration: checkpoint.meta.best_iteration.unwrap_or(0),
                    step: loaded.meta.step,
                })
            }
        };
        Ok(RunState {
            trainer: checkpoint.into_trainer(trainer_config, &device),
            replay,
            rng,
            iteration,
            resumed: true,
            progress,
            best,
        })
    }

    /// Writes the replay window (and the best network), then the checkpoint of the same step,
    /// then drops old checkpoints with their replay windows; returns the checkpoint's path.
    pub fn save(&self, config: &RunConfig, dir: &RunDir) -> Result<PathBuf, TrainError> {
        let step = self.trainer.step();
        self.replay.save(&dir.replay(step))?;
        if let Some(best) = &self.best {
            best.export(config, &dir.best_at(step))?;
        }
        let meta = CheckpointMeta {
            game: config.game.to_string(),
            network: self.trainer.network().config().clone(),
            optimizer: config.training.trainer.optimizer.clone(),
            step,
            iteration: self.iteration,
            replay_games_added: self.replay.games_added(),
            rng: RngState::of(&self.rng),
            learner: self.progress.clone(),
            best_iteration: self.best.as_ref().map(|b| b.iteration),
        };
        let path = dir.save_checkpoint(&self.trainer, meta)?;
        dir.prune_checkpoints(config.run.keep_checkpoints)?;
        Ok(path)
    }
}

impl Best {
    /// Writes the network as a policy file at `path`, atomically.
    pub fn export(&self, config: &RunConfig, path: &Path) -> Result<(), TrainError> {
        let meta = PolicyMeta::trained(config.game, self.net.config().clone(), self.step);
        Ok(export_policy(&self.net, &meta, path)?)
    }
}

/// Whether the metrics file at `path` exists and holds a row below its header.
fn has_rows(path: &Path) -> Result<bool, MetricsError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text.lines().skip(1).any(|line| !line.trim().is_empty())),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(error) => Err(MetricsError {
            path: path.to_path_buf(),
            message: error.to_string(),
        }),
    }
}
