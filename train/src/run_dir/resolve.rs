//! The configuration a run goes on with: the run directory's own, checked against the one
//! asked for.

use std::path::PathBuf;

use super::RunDir;
use crate::config::{RunConfig, RunConfigError, SelfPlayConfig};
use crate::io::CheckpointError;

/// A configuration a run directory cannot go on with.
#[derive(Debug, thiserror::Error)]
pub enum ResolveConfigError {
    /// The stored or the default configuration cannot be read.
    #[error(transparent)]
    Config(#[from] RunConfigError),
    /// The run directory's checkpoints cannot be listed.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The run directory has checkpoints but its configuration file is gone: they cannot be
    /// resumed with a configuration guessed for them.
    #[error(
        "run directory {dir} has checkpoints ({checkpoint}) but no configuration file {config}: \
         the configuration it was started with is missing; put that file back to resume it, \
         or choose another --out for a new run"
    )]
    ConfigMissing {
        /// The run directory.
        dir: PathBuf,
        /// The missing file.
        config: PathBuf,
        /// Its latest checkpoint.
        checkpoint: PathBuf,
    },
    /// The requested configuration differs from the one the run directory was started with.
    #[error(
        "run directory {dir} was started with another configuration ({what} differs); \
         resume it without --config/--preset/--board/--game, or choose another --out"
    )]
    Mismatch {
        /// The run directory.
        dir: PathBuf,
        /// The first section that differs.
        what: &'static str,
    },
}

impl RunDir {
    /// The configuration the run goes on with: its own `config.toml` if it has one (then
    /// `requested`, if given, must agree with it apart from the run's length, device and
    /// `[distill]` section, which are taken from `requested`), else `requested` or the
    /// default preset; refused if the directory has checkpoints but no `config.toml`.
    pub fn resolve_config(
        &self,
        requested: Option<RunConfig>,
    ) -> Result<RunConfig, ResolveConfigError> {
        if !self.has_config() {
            if let Some(checkpoint) = self.latest_checkpoint()? {
                return Err(ResolveConfigError::ConfigMissing {
                    dir: self.path.clone(),
                    config: self.config(),
                    checkpoint,
                });
            }
            return match requested {
                Some(config) => Ok(config),
                None => Ok(RunConfig::preset("default")?),
            };
        }
        let mut stored = self.load_config()?;
        if let Some(requested) = requested {
            let mismatch = |what| ResolveConfigError::Mismatch {
                dir: self.path.clone(),
                what,
            };
            if requested.game != stored.game {
                return Err(mismatch("game"));
            }
            if requested.network != stored.network {
                return Err(mismatch("network"));
            }
            // The tables' directory is a path on this machine, as the device is a part of it:
            // a resumed run may take them from another place (or take them up).
            let games = |c: &RunConfig| SelfPlayConfig {
                tables: None,
                ..c.selfplay.clone()
            };
            if (&requested.mcts, games(&requested), &requested.replay)
                != (&stored.mcts, games(&stored), &stored.replay)
            {
                return Err(mismatch("search, self-play or replay"));
            }
            if requested.training != stored.training {
                return Err(mismatch("training"));
            }
            if requested.abnet != stored.abnet {
                return Err(mismatch("abnet"));
            }
            stored.run.iterations = requested.run.iterations;
            stored.run.device = requested.run.device;
            // The student is taught at the run's end: a finished run may take one up.
            stored.distill = requested.distill;
            if requested.selfplay.tables.is_some() {
                stored.selfplay.tables = requested.selfplay.tables;
            }
        }
        Ok(stored)
    }
}
