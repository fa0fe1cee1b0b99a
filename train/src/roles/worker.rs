//! The self-play worker of a run, whatever its game (the run configuration names it), taking
//! and giving bytes for drivers that pass models and games around as opaque values (the Ray
//! driver through its object store, `fanorona selfplay` through a shared run directory,
//! Python's `fanorona.SelfPlayWorker`): [`set_model`](SelfPlayWorker::set_model) (policy-file
//! bytes and their version), then [`play_shard_bytes`](SelfPlayWorker::play_shard_bytes)
//! (shard bytes out).

use std::path::{Path, PathBuf};

use burn::tensor::Device;

use super::game_worker::{AnyGameWorker, NewWorker};
use crate::config::RunConfig;
use crate::error::TrainError;
use crate::io::{LoadedPolicy, Shard, policy_from_bytes};
use crate::run_dir::shard_name;

/// Loads the policy-file `bytes` of model `version` onto the CPU, checking it is for the
/// run's game.
fn load_model(config: &RunConfig, bytes: &[u8], version: u64) -> Result<LoadedPolicy, TrainError> {
    let label = PathBuf::from(format!("model version {version}"));
    let loaded = policy_from_bytes(&label, bytes.to_vec(), &Device::flex())?;
    loaded.meta.check_game(&label, config.game)?;
    Ok(loaded)
}

/// A self-play worker of a run: plays shards with the latest model it was given.
pub struct SelfPlayWorker {
    config: RunConfig,
    name: String,
    worker: Option<Box<dyn AnyGameWorker>>,
}

impl SelfPlayWorker {
    /// A worker named `name` (1 to 64 letters, digits, `-` or `_`; it names its shards) of
    /// the run `config`, without a model yet.
    pub fn new(config: RunConfig, name: &str) -> Result<SelfPlayWorker, TrainError> {
        config.validate()?;
        config.refuse_abnet()?;
        crate::io::check_worker(name)?;
        Ok(SelfPlayWorker {
            config,
            name: name.to_string(),
            worker: None,
        })
    }

    /// The version of the model it plays with, if it has one.
    pub fn model_version(&self) -> Option<u64> {
        self.worker.as_ref().map(|w| w.model_version())
    }

    /// Plays with the model of the policy-file `bytes` (version `version`) from now on.
    pub fn set_model(&mut self, bytes: &[u8], version: u64) -> Result<(), TrainError> {
        let loaded = load_model(&self.config, bytes, version)?;
        let (net, step) = (&loaded.net, loaded.meta.step);
        match &mut self.worker {
            Some(w) => w.set_model(net, version, step),
            None => {
                let config = &self.config;
                let new = NewWorker {
                    config,
                    net,
                    version,
                    step,
                };
                self.worker = Some(config.game.visit(new)?);
            }
        }
        Ok(())
    }

    /// Plays shard `sequence` (`games_per_iteration` games) with the current model.
    ///
    /// # Panics
    /// If no model was set.
    pub fn play_shard(&mut self, sequence: u64) -> Result<Shard, TrainError> {
        let seed = self.config.run.seed;
        let worker = self.worker.as_mut().expect("set_model before play_shard");
        Ok(worker.play_shard(seed, &self.name, sequence)?)
    }

    /// Plays shard `sequence` with the current model and returns its bytes (sealed,
    /// checksummed; the learner's [`Learner::ingest_bytes`] reads them).
    ///
    /// # Panics
    /// If no model was set.
    pub fn play_shard_bytes(&mut self, sequence: u64) -> Result<Vec<u8>, TrainError> {
        let shard = self.play_shard(sequence)?;
        Ok(shard.to_bytes(Path::new(&shard_name(&shard.header)))?)
    }
}
