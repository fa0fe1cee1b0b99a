//! The state of a run being trained (learner, replay window, random generator, iteration) and
//! how it is restored from and saved to the run directory: the latest checkpoint with the
//! replay window saved beside it.

use std::path::{Path, PathBuf};

use fanorona_env::Game;
use rand::SeedableRng;

use super::{RunConfig, RunConfigError, TrainError};
use crate::io::{Checkpoint, CheckpointMeta};
use crate::model::{Learner, NetworkConfig};
use crate::replay::ReplayBuffer;
use crate::rng::{RngState, TrainRng};

/// The replay window saved with the latest checkpoint.
pub const REPLAY_FILE: &str = "replay.safetensors";

/// The state of a run being trained.
pub(super) struct RunState<G: Game> {
    /// The learner with the network and optimiser.
    pub learner: Learner,
    /// The replay window.
    pub replay: ReplayBuffer<G>,
    /// The run's random generator (self-play and minibatches).
    pub rng: TrainRng,
    /// Iterations completed.
    pub iteration: u64,
    /// Whether the run went on from a checkpoint.
    pub resumed: bool,
}

impl<G: Game> RunState<G> {
    /// A fresh run, or the run restored from the latest checkpoint in `dir`.
    pub fn open(
        config: &RunConfig,
        start: &G,
        network: &NetworkConfig,
        dir: &Path,
    ) -> Result<RunState<G>, TrainError> {
        let device = config.run.device.device()?;
        let learner_config = config.training.learner.clone();
        let Some(path) = Checkpoint::list(dir)?.pop() else {
            let net = network
                .init_seeded(&device, config.run.seed)
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

    /// Writes the replay window, then the checkpoint, then drops old checkpoints; returns the
    /// checkpoint's path.
    pub fn save(&self, config: &RunConfig, dir: &Path) -> Result<PathBuf, TrainError> {
        self.replay.save(&dir.join(REPLAY_FILE))?;
        let meta = CheckpointMeta {
            game: config.game.id()?.to_string(),
            network: self.learner.network().config().clone(),
            optimizer: config.training.learner.optimizer.clone(),
            step: self.learner.step(),
            iteration: self.iteration,
            replay_games_added: self.replay.games_added(),
            rng: RngState::of(&self.rng),
        };
        let path = Checkpoint::save(dir, &self.learner, meta)?;
        Checkpoint::prune(dir, config.run.keep_checkpoints)?;
        Ok(path)
    }
}
