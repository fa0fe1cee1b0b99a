//! The configuration of a training run: game and board, network, search, self-play, replay,
//! learner and the run's schedule (checkpoints, evaluation). Read from TOML, with embedded
//! presets (`tiny`, `small`, `default`, `full`), and written resolved into the run directory
//! as `config.toml`.

use std::path::Path;

use fanorona_env::GameId;
use serde::{Deserialize, Serialize};

use crate::model::ComputeDevice;
use crate::model::LearnerConfig;
use crate::model::{Architecture, NetworkConfig, NetworkConfigError};
use crate::replay::ReplayConfig;
use crate::selfplay::{MctsConfig, SelfPlayConfig};
use fanorona_eval::atomic_write::write_atomic;

/// The file name of the resolved configuration in a run directory.
pub const CONFIG_FILE: &str = "config.toml";

/// The names of the embedded presets.
pub const PRESETS: [&str; 4] = ["tiny", "small", "default", "full"];

/// A run configuration that cannot be read or used.
#[derive(Debug, thiserror::Error)]
pub enum RunConfigError {
    /// No preset of that name.
    #[error("unknown preset {0:?}: expected one of tiny, small, default, full")]
    UnknownPreset(String),
    /// The file cannot be read or written.
    #[error("cannot {action} run configuration {path}: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Not valid TOML for a run configuration.
    #[error("run configuration {origin} is not valid: {message}")]
    Parse {
        /// The file or preset.
        origin: String,
        /// What is wrong, with its place.
        message: String,
    },
    /// A value out of range.
    #[error("run configuration: {0}")]
    Invalid(String),
}

impl From<NetworkConfigError> for RunConfigError {
    fn from(e: NetworkConfigError) -> Self {
        RunConfigError::Invalid(e.to_string())
    }
}

/// The game played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    /// `fanorona` (any odd board) or `telo` (Fanoron-Telo, 3x3).
    pub name: String,
    /// The board, `WxH` (e.g. `9x5`, `5x3`).
    pub board: String,
}

impl GameConfig {
    /// The game these settings name, e.g. `fanorona 9x5` (the label checkpoints store).
    pub fn id(&self) -> Result<GameId, RunConfigError> {
        GameId::from_parts(&self.name, &self.board)
            .map_err(|e| RunConfigError::Invalid(e.to_string()))
    }
}

impl From<GameId> for GameConfig {
    fn from(id: GameId) -> GameConfig {
        GameConfig {
            name: id.name().to_string(),
            board: id.board().to_string(),
        }
    }
}

/// Training with minibatches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainingConfig {
    /// Positions per minibatch.
    pub batch_size: usize,
    /// Learner steps per iteration.
    pub steps_per_iteration: usize,
    /// Positions needed in the replay window before training starts.
    pub min_replay_positions: usize,
    /// The optimiser, schedule and loss weights.
    pub learner: LearnerConfig,
}

/// The run's length, seed, device and bookkeeping.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoopConfig {
    /// Self-play + training iterations.
    pub iterations: u64,
    /// Seed of the run's random generator.
    pub seed: u64,
    /// Where the network runs (checked when the run starts: a GPU preset names a device a CPU
    /// build lacks).
    #[serde(default)]
    pub device: ComputeDevice,
    /// Learner steps between checkpoints (and a checkpoint at the end).
    pub checkpoint_every_steps: u64,
    /// Checkpoints kept in the run directory.
    pub keep_checkpoints: usize,
    /// Iterations between evaluation matches against minimax (0 = never).
    pub eval_every_iterations: u64,
    /// Games per evaluation match.
    pub eval_games: usize,
    /// Simulations of the network's search in evaluation matches.
    pub eval_simulations: usize,
}

/// A whole training run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// The game.
    pub game: GameConfig,
    /// The network architecture (sizes of input and output come from the game).
    pub network: Architecture,
    /// Tree search.
    pub mcts: MctsConfig,
    /// Self-play.
    pub selfplay: SelfPlayConfig,
    /// The replay window.
    pub replay: ReplayConfig,
    /// The learner.
    pub training: TrainingConfig,
    /// Length, seed, device, checkpoints and evaluation.
    pub run: LoopConfig,
}

impl RunConfig {
    /// The TOML text of an embedded preset.
    pub fn preset_text(name: &str) -> Result<&'static str, RunConfigError> {
        Ok(match name {
            "tiny" => include_str!("../../presets/tiny.toml"),
            "small" => include_str!("../../presets/small.toml"),
            "default" => include_str!("../../presets/default.toml"),
            "full" => include_str!("../../presets/full.toml"),
            other => return Err(RunConfigError::UnknownPreset(other.to_string())),
        })
    }

    /// An embedded preset.
    pub fn preset(name: &str) -> Result<RunConfig, RunConfigError> {
        RunConfig::from_toml(RunConfig::preset_text(name)?, &format!("preset {name}"))
    }

    /// Reads and checks a configuration from TOML text; `origin` names it in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<RunConfig, RunConfigError> {
        let config: RunConfig = toml::from_str(text).map_err(|e| RunConfigError::Parse {
            origin: origin.to_string(),
            message: e.to_string(),
        })?;
        config.validate()?;
        Ok(config)
    }

    /// Reads and checks a configuration file.
    pub fn load(path: &Path) -> Result<RunConfig, RunConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| RunConfigError::Io {
            action: "read",
            path: path.display().to_string(),
            source,
        })?;
        RunConfig::from_toml(&text, &path.display().to_string())
    }

    /// The configuration as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a run configuration serialises")
    }

    /// Writes the configuration into `dir/config.toml` atomically.
    pub fn write_resolved(&self, dir: &Path) -> Result<(), RunConfigError> {
        let path = dir.join(CONFIG_FILE);
        write_atomic(&path, self.to_toml().as_bytes()).map_err(|source| RunConfigError::Io {
            action: "write",
            path: path.display().to_string(),
            source,
        })
    }

    /// The network configuration for a game with this observation shape and action count.
    pub fn network_config(
        &self,
        observation_shape: [usize; 3],
        num_actions: usize,
    ) -> NetworkConfig {
        let [planes, height, width] = observation_shape;
        NetworkConfig {
            planes,
            height,
            width,
            num_actions,
            architecture: self.network.clone(),
        }
    }

    /// Checks values are in range.
    pub fn validate(&self) -> Result<(), RunConfigError> {
        let invalid = |what: String| Err(RunConfigError::Invalid(what));
        self.game.id()?;
        // Sizes of the network do not depend on the game's input size.
        self.network_config([1, 1, 1], 1).validate()?;
        let m = &self.mcts;
        let search = &m.search;
        if search.simulations == 0 {
            return invalid("mcts.simulations must be at least 1".into());
        }
        if search.gumbel && search.gumbel_considered < 2 {
            return invalid("mcts.gumbel_considered must be at least 2".into());
        }
        if !(0.0..=1.0).contains(&search.dirichlet_fraction) || search.dirichlet_alpha <= 0.0 {
            return invalid(
                "mcts.dirichlet_fraction must be in [0, 1], dirichlet_alpha > 0".into(),
            );
        }
        if search.temperature < 0.0 || m.final_temperature < 0.0 || search.c_puct <= 0.0 {
            return invalid("temperatures must be >= 0 and c_puct > 0".into());
        }
        if let Some(cap) = &m.playout_cap
            && (cap.fast_simulations == 0
                || cap.fast_simulations > search.simulations
                || !(0.0..=1.0).contains(&cap.full_probability))
        {
            return invalid(
                "mcts.playout_cap: fast_simulations in 1..=simulations, full_probability in [0, 1]"
                    .into(),
            );
        }
        let s = &self.selfplay;
        if s.games_per_iteration == 0 || s.parallel_games == 0 || s.max_actions == 0 {
            return invalid("selfplay sizes must be at least 1".into());
        }
        if self.replay.window_games == 0 {
            return invalid("replay.window_games must be at least 1".into());
        }
        let t = &self.training;
        if t.batch_size == 0 {
            return invalid("training.batch_size must be at least 1".into());
        }
        let r = &self.run;
        if r.checkpoint_every_steps == 0 || r.keep_checkpoints == 0 {
            return invalid(
                "run.checkpoint_every_steps and run.keep_checkpoints must be at least 1".into(),
            );
        }
        if r.eval_every_iterations > 0 && (r.eval_games == 0 || r.eval_simulations == 0) {
            return invalid("run.eval_games and run.eval_simulations must be at least 1".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_validates_and_round_trips() {
        for name in PRESETS {
            let config = RunConfig::preset(name).unwrap();
            let again = RunConfig::from_toml(&config.to_toml(), "round trip").unwrap();
            assert_eq!(again, config, "preset {name}");
        }
        assert!(matches!(
            RunConfig::preset("huge"),
            Err(RunConfigError::UnknownPreset(_))
        ));
    }

    #[test]
    fn the_resolved_config_is_written_into_the_run_directory() {
        let dir = std::env::temp_dir().join(format!("fanorona-runcfg-{}", std::process::id()));
        let config = RunConfig::preset("tiny").unwrap();
        config.write_resolved(&dir).unwrap();
        assert_eq!(RunConfig::load(&dir.join(CONFIG_FILE)).unwrap(), config);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_search_section_keeps_its_old_keys_and_refuses_unknown_ones() {
        let text = RunConfig::preset_text("small").unwrap();
        let old = text.replace("gumbel_considered = 8", "gumbel_actions = 8");
        assert_ne!(old, text);
        let config = RunConfig::from_toml(&old, "old").unwrap();
        assert_eq!(config, RunConfig::preset("small").unwrap());
        assert_eq!(config.mcts.search.gumbel_considered, 8);
        let written = config.to_toml();
        assert!(written.contains("gumbel_considered = 8") && !written.contains("gumbel_actions"));
        let typo = text.replace("c_puct =", "cpuct =");
        assert_ne!(typo, text);
        let err = RunConfig::from_toml(&typo, "x").unwrap_err();
        assert!(err.to_string().contains("cpuct"), "{err}");
    }

    #[test]
    fn bad_values_are_refused_with_their_place() {
        let text = RunConfig::preset_text("tiny").unwrap();
        let bad_board = text.replace("board = \"5x3\"", "board = \"4x3\"");
        assert!(matches!(
            RunConfig::from_toml(&bad_board, "x"),
            Err(RunConfigError::Invalid(m)) if m.contains("4x3")
        ));
        let unknown_key = format!("{text}\n[extra]\nfoo = 1\n");
        let err = RunConfig::from_toml(&unknown_key, "x").unwrap_err();
        assert!(matches!(err, RunConfigError::Parse { .. }), "{err}");
        let zero_sims = text.replace("simulations = 16", "simulations = 0");
        assert_ne!(zero_sims, text);
        assert!(RunConfig::from_toml(&zero_sims, "x").is_err());
    }
}
